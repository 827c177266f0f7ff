"""How fast this machine runs a search in Python: a fixed reference workload, to compare figures across machines.

    python benchmarks/machine.py            # prints the reference workload's CPU seconds (best of 3)

The solver benchmarks (``amber_solver.py``, ``hints.py``) print the same line first. Their figures are wall and
CPU seconds of *this* machine; the machine a session gets is not always as fast as the last one (docs/solver.md,
"Eleventh session": the same code ran about 1.5 x slower). Seconds from two machines compare only after dividing
by this figure.

The workload does what the solvers do most (a best-first search: a heap of tuples, a dict of states seen, small
tuples made and hashed, integer arithmetic) on a puzzle that does not change when the solvers do: A* with the
Manhattan distance on fixed positions of the 15-puzzle. It is deterministic: the same states every run (the
count is printed too, as a check that the workload is the same).
"""

from __future__ import annotations

import gc
import heapq
import sys
import time

SIDE = 4
#: Fixed 15-puzzle positions (0 = the gap), from random walks of 60 slides from the goal, solved by A* in turn.
POSITIONS: tuple[tuple[int, ...], ...] = (
    (7, 8, 0, 2, 6, 5, 12, 1, 10, 11, 4, 3, 9, 13, 14, 15),
    (1, 6, 0, 8, 3, 10, 4, 7, 2, 5, 11, 15, 13, 9, 12, 14),
    (0, 1, 2, 4, 11, 6, 3, 8, 12, 9, 7, 14, 5, 10, 15, 13),
    (8, 1, 4, 11, 2, 10, 12, 3, 9, 6, 14, 15, 13, 5, 7, 0),
    (1, 8, 0, 11, 5, 4, 6, 7, 9, 15, 3, 14, 13, 12, 2, 10),
)
GOAL = tuple(list(range(1, SIDE * SIDE)) + [0])


def _neighbours(cell: int) -> list[int]:
    row, col = divmod(cell, SIDE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIDE and 0 <= c < SIDE:
            out.append(r * SIDE + c)
    return out


NEIGHBOURS = [_neighbours(cell) for cell in range(SIDE * SIDE)]


def _distance(tile: int, cell: int) -> int:
    """The Manhattan distance of ``tile`` at ``cell`` from its goal cell."""
    if tile == 0:
        return 0
    goal = tile - 1
    return abs(goal // SIDE - cell // SIDE) + abs(goal % SIDE - cell % SIDE)


def solve(start: tuple[int, ...]) -> tuple[int, int]:
    """A* from ``start`` to the goal: (the length of the shortest solution, the states expanded)."""
    h0 = sum(_distance(tile, cell) for cell, tile in enumerate(start))
    heap: list[tuple[int, int, int, tuple[int, ...], int]] = [(h0, 0, 0, start, start.index(0))]
    seen: dict[tuple[int, ...], int] = {start: 0}
    expanded = 0
    tie = 0
    while heap:
        f, _, g, state, gap = heapq.heappop(heap)
        if state == GOAL:
            return g, expanded
        if seen.get(state, g) < g:
            continue
        expanded += 1
        h = f - g
        for cell in NEIGHBOURS[gap]:
            tile = state[cell]
            child = list(state)
            child[gap], child[cell] = tile, 0
            key = tuple(child)
            if seen.get(key, g + 2) <= g + 1:
                continue
            seen[key] = g + 1
            tie += 1
            ch = h - _distance(tile, cell) + _distance(tile, gap)
            heapq.heappush(heap, (g + 1 + ch, -tie, g + 1, key, cell))
    raise ValueError("no solution")


def workload() -> int:
    """Solve every fixed position; the states expanded in all (the same every run)."""
    return sum(solve(position)[1] for position in POSITIONS)


def reference_seconds(repeats: int = 3) -> tuple[float, int]:
    """(the best CPU seconds of ``repeats`` runs of the workload, the states it expanded)."""
    best = float("inf")
    states = 0
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            t0 = time.process_time()
            states = workload()
            best = min(best, time.process_time() - t0)
    finally:
        if collecting:
            gc.enable()
    return best, states


def machine_line() -> str:
    """The line the benchmarks print first."""
    seconds, states = reference_seconds()
    return f"machine: reference workload {seconds:.3f} s CPU ({states} states; benchmarks/machine.py)"


if __name__ == "__main__":
    print(machine_line())
    sys.exit(0)
