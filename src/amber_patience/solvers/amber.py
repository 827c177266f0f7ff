"""The solver of the Amber layouts (Path in Shadow, Forest of Arden, Mount Kolvir, Pattern of Amber).

How it works (see ``docs/solver.md`` for the reasoning and the measured figures):

* **Compact state.** Cards and cells are small ints; a position is a ``bytes`` of the card in
  every cell. The move rule is re-written over ints (``_Board.moves``) from the public geometry
  of :class:`~amber_patience.games.amber.AmberGame`; every solution is replayed by the rules
  engine anyway (:func:`amber_patience.solvers.solve`).
* **The permutation bound.** A swap changes the number of cycles of the permutation that takes
  the position to its goal by exactly one, so the lower bound (cells minus cycles) moves by
  exactly +1 or -1 with every swap: a swap of two cards of the *same* cycle is progress (any
  such swap, not only one that puts a card in its goal cell), a swap across cycles costs two
  moves of the budget. Solution length = bound + 2 x (swaps across cycles).
* **Weighted best-first search** (weighted A*) on ``f = g + w * h`` with
  ``h = bound + beta * cards out of place + gamma * cards out of their goal group
  + eta * cards that touch no rank-neighbour``. The last term is the key to the move rule: a
  card can only land beside a rank-neighbour, so positions where cards touch their neighbours
  keep moves available for both cards of a swap. The group term (the suit or kind that the goal
  puts in a row or block) makes cards gather where their neighbours will be, which matters in
  Mount Kolvir (the lone cell is the only gate between blocks) and Pattern of Amber.
  Children are pushed lazily (parent + move); states are deduplicated.
* **Portfolio with restarts.** Run times are heavy-tailed, so the solver runs a short list of
  settings with growing node budgets and random tie-breaks (seeded: results are reproducible).

``stats``: ``seconds``, ``nodes`` (states expanded, over all attempts), ``lower_bound``,
``length``, ``difficulty`` (= nodes expanded: the search effort, which orders deals from easy to
hard better than the length does), ``attempt`` (which portfolio entry won).
"""

from __future__ import annotations

import heapq
import random
import time
from dataclasses import dataclass
from typing import Any

from ..games.amber import AmberGame, AmberPosition, Swap
from ..games.base import GameError, Position
from . import Solution

#: Safety cap on expanded states when the caller gives neither a time nor a node limit.
DEFAULT_NODE_CAP = 2_000_000


class _Board:
    """The geometry of one layout in ints, and one position's goal."""

    def __init__(self, position: AmberPosition) -> None:
        game: AmberGame = position.game
        n = len(game.cells)
        self.n = n
        cards = list(game.deck.cards)
        index = {c: i for i, c in enumerate(cards)}
        #: ``nb[x]``: the two rank-neighbours of card ``x``.
        self.nb = [(index[game.deck.predecessor(c)], index[game.deck.successor(c)]) for c in cards]
        self.adj = [tuple(a) for a in game.adjacent]
        self.adjmask = [sum(1 << b for b in a) for a in game.adjacent]
        names = {b: i for i, b in enumerate(game.blocks)}
        self.block = [names[c.block] for c in game.cells]
        self.lone = game.lone_cell if game.lone_cell is not None else -1
        self.frozen = frozenset(position.start_cells)
        goal = position.goal
        self.start = bytes(index[c] for c in position.cards)
        self.target = [0] * n  #: the goal cell of every card
        for cell, card in enumerate(goal):
            self.target[index[card]] = cell
        # The goal group of a card: its suit, or "trump".
        group = [4 if c.suit is None else c.suit.index for c in cards]
        self.group = group
        #: The group that the goal puts in each cell (the lone cell accepts any card).
        self.cell_group = [group[index[card]] for card in goal]
        self.near = [tuple(sorted({a, *game.adjacent[a]})) for a in range(n)]

    def moves(self, at: list[int], pos: list[int]) -> set[tuple[int, int]]:
        """Every legal swap as (cell, cell), smaller first: after it, each moved card touches a
        rank-neighbour in its block (or stands in the lone cell)."""
        nb, adj, adjmask, frozen, lone, block = self.nb, self.adj, self.adjmask, self.frozen, self.lone, self.block
        out: set[tuple[int, int]] = set()
        for x in range(self.n):
            a = pos[x]
            if a in frozen:
                continue
            for m in nb[x]:
                q = pos[m]
                if adjmask[a] >> q & 1 and q not in frozen:
                    out.add((a, q) if a < q else (q, a))  # two touching neighbours trade places
                for b in adj[q]:
                    if b == a or b in frozen:
                        continue
                    if lone >= 0 and block[a] != block[b] and a != lone and b != lone:
                        continue
                    if a != lone:
                        y = at[b]
                        for k in nb[y]:
                            r = pos[k]
                            if r == a:
                                r = b
                            if adjmask[a] >> r & 1:
                                break
                        else:
                            continue
                    out.add((a, b) if a < b else (b, a))
        return out

    def cycles(self, at: list[int] | bytes) -> tuple[list[int], int]:
        """The cycle of every cell in the permutation to the goal, and the number of cycles."""
        n = self.n
        target = self.target
        cyc = [-1] * n
        k = 0
        for i in range(n):
            if cyc[i] < 0:
                j = i
                while cyc[j] < 0:
                    cyc[j] = k
                    j = target[at[j]]
                k += 1
        return cyc, k

    def bound(self, at: list[int] | bytes) -> int:
        return self.n - self.cycles(at)[1]


@dataclass(frozen=True)
class Setting:
    """One entry of the portfolio: heuristic weights and a node budget."""

    weight: float = 3.0
    beta: float = 1.0
    gamma: float = 3.0
    eta: float = 0.5
    nodes: int = 4000
    seed: int | None = None


def _search(board: _Board, s: Setting, deadline: float | None, node_limit: int
            ) -> tuple[list[tuple[int, int]] | None, int]:
    """Weighted best-first search from the board's start to its goal; (path or None, expanded)."""
    n = board.n
    target, lone, nb, adjmask, near = board.target, board.lone, board.nb, board.adjmask, board.near
    group, cell_group = board.group, board.cell_group
    weight, beta, gamma, eta = s.weight, s.beta, s.gamma, s.eta
    rng = random.Random(s.seed) if s.seed is not None else None
    moves = board.moves

    start = board.start
    nodes: list[tuple[bytes, int, int, int, int]] = [(start, 0, -1, -1, -1)]  # at, g, parent, a, b
    seen = {start}
    heap: list[tuple[float, float, int, int, int, int]] = [(0.0, 0.0, 0, 0, -1, -1)]
    counter = 0
    expanded = 0
    while heap:
        _, _, _, parent, a, b = heapq.heappop(heap)
        if a < 0:
            idx = parent
            at = list(nodes[idx][0])
        else:
            at = list(nodes[parent][0])
            at[a], at[b] = at[b], at[a]
            key = bytes(at)
            if key in seen:
                continue
            seen.add(key)
            nodes.append((key, nodes[parent][1] + 1, parent, a, b))
            idx = len(nodes) - 1
        g = nodes[idx][1]
        cyc, k = board.cycles(at)
        if k == n:
            path = []
            i = idx
            while nodes[i][2] >= 0:
                path.append((nodes[i][3], nodes[i][4]))
                i = nodes[i][2]
            path.reverse()
            return path, expanded
        if expanded >= node_limit:
            break
        expanded += 1
        if deadline is not None and (expanded & 7) == 0 and time.perf_counter() > deadline:
            break
        pos = [0] * n
        for c, x in enumerate(at):
            pos[x] = c
        h = float(n - k)
        if beta:
            h += beta * sum(1 for c in range(n) if target[at[c]] != c)
        if gamma:
            h += gamma * sum(1 for c in range(n) if c != lone and group[at[c]] != cell_group[c])
        sad: list[int] = []
        if eta:
            for c in range(n):
                m = adjmask[c]
                p1, p2 = nb[at[c]]
                sad.append(0 if c == lone or m >> pos[p1] & 1 or m >> pos[p2] & 1 else 1)
            h += eta * sum(sad)
        base = g + 1 + weight * h
        for (p, q) in moves(at, pos):
            x, y = at[p], at[q]
            placed = (target[x] == q) + (target[y] == p)
            dh = -1.0 if cyc[p] == cyc[q] else 1.0
            if beta:
                dh += beta * ((target[x] == p) + (target[y] == q) - placed)
            if gamma:
                dh += gamma * ((q != lone and group[x] != cell_group[q]) + (p != lone and group[y] != cell_group[p])
                               - (p != lone and group[x] != cell_group[p])
                               - (q != lone and group[y] != cell_group[q]))
            if eta:
                cells = near[p] + near[q] if not adjmask[p] >> q & 1 else tuple({*near[p], *near[q]})
                before = 0
                for c in cells:
                    before += sad[c]
                at[p], at[q] = y, x
                pos[x], pos[y] = q, p
                after = 0
                for c in cells:
                    if c != lone:
                        m = adjmask[c]
                        p1, p2 = nb[at[c]]
                        if not (m >> pos[p1] & 1 or m >> pos[p2] & 1):
                            after += 1
                at[p], at[q] = x, y
                pos[x], pos[y] = p, q
                dh += eta * (after - before)
            counter += 1
            tie = -placed + (rng.random() if rng is not None else 0.0)
            heapq.heappush(heap, (base + weight * dh, tie, counter, idx, p, q))
    return None, expanded


def portfolio(game: AmberGame) -> list[Setting]:
    """The settings tried in turn, with growing budgets (the last one is repeated with new seeds)."""
    if game.name == "path-36":
        base = [Setting(3, 0.5, 0, 0, 3000), Setting(3, 1, 1, 0.5, 6000, 1)]
    elif game.name in ("path", "path-52"):
        base = [Setting(3, 1, 1, 0.5, 6000), Setting(3, 0.5, 0, 0, 10000, 1)]
    else:
        base = [Setting(3, 1, 3, 0.5, 8000), Setting(3, 1, 3, 0.5, 16000, 1)]
    return base


def solve(position: Position, *, time_limit: float | None = None, node_limit: int | None = None) -> Solution:
    """Solve an Amber position (a fresh deal or a game in progress).

    Returns status ``won`` with the swaps, or ``unknown`` when the time or node budget runs out
    (this solver never proves a loss)."""
    t0 = time.perf_counter()
    if not isinstance(position, AmberPosition):
        raise GameError(f"the Amber solver solves Amber positions, not {type(position).__name__}")
    board = _Board(position)
    bound0 = board.bound(board.start)
    stats: dict[str, Any] = {"lower_bound": bound0}
    deadline = None if time_limit is None else t0 + time_limit
    total_cap = node_limit if node_limit is not None else (DEFAULT_NODE_CAP if time_limit is None else None)
    expanded = 0
    path: list[tuple[int, int]] | None = None
    settings = portfolio(position.game)
    attempt = 0
    while path is None:
        s = settings[attempt] if attempt < len(settings) else Setting(
            settings[-1].weight, settings[-1].beta, settings[-1].gamma, settings[-1].eta,
            settings[-1].nodes * 2 ** (attempt - len(settings) + 1), attempt)
        budget = s.nodes if total_cap is None else min(s.nodes, total_cap - expanded)
        if budget <= 0 or (deadline is not None and time.perf_counter() >= deadline):
            break
        path, used = _search(board, s, deadline, budget)
        expanded += used
        attempt += 1
    stats["seconds"] = time.perf_counter() - t0
    stats["nodes"] = expanded
    stats["difficulty"] = expanded
    if path is None:
        return Solution("unknown", [], stats)
    moves = [Swap(a, b) for a, b in path]
    stats["length"] = len(moves)
    stats["attempt"] = attempt
    return Solution("won", list(moves), stats)
