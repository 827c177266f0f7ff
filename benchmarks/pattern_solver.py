"""Benchmark of Pattern of Amber's planner (``solvers/amber_pattern.py``), in node counts and CPU time.

    python benchmarks/pattern_solver.py [--deals 1-20] [--nodes 300] [--near 10,20,30,60]

Two figures:

* fresh deals: how far the gather gets in ``--nodes`` expansions (cards still outside the block
  where they may stay, at the start and at the nearest position reached); stranded deals (a side
  block dealt no card of its suit) are proved lost and skipped;
* positions near the goal (``--near``: that many legal swaps back from the goal of deals 1-3,
  see ``tests/test_amber_pattern.py``): solved through ``amber_patience.solvers.solve`` (so
  replayed by the rules engine) with a node limit of 20 x ``--nodes``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from amber_patience.games import get_game
from amber_patience.games.amber import AmberGame, AmberPosition
from amber_patience.solvers import solve
from amber_patience.solvers.amber import _Board, _Budget
from amber_patience.solvers.amber_pattern import PatternPlanner


def parse_range(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    if not lo.isdigit() or (hi and not hi.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal range like 1-20")
    return list(range(int(lo), int(hi or lo) + 1))


def near_goal(game: AmberGame, deal: int, steps: int, seed: int, tries: int = 200_000) -> tuple[AmberPosition, int]:
    """Up to ``steps`` legal swaps back from the goal (swap two cards that both touch a
    rank-neighbour), and how many were made: random swaps back soon leave no card beside a
    neighbour (about 30 swaps), and then none can be made."""
    start = game.deal(deal)
    rng = random.Random(seed)
    cards = list(start.goal)
    movable = [c for c in range(len(cards)) if c not in start.start_cells]

    def happy(cell: int) -> bool:
        return any(cards[n] in game.deck.neighbours(cards[cell]) for n in game.adjacent[cell])

    done = 0
    while done < steps and tries > 0:
        tries -= 1
        a, b = rng.sample(movable, 2)
        if not (happy(a) and happy(b)):
            continue
        cards[a], cards[b] = cards[b], cards[a]
        position = AmberPosition(game, tuple(cards), start.start_cells, None, {})
        if game.swap_problem(cards, start.start_cells, a, b) is None and not position.stranded_kinds():
            done += 1
        else:
            cards[a], cards[b] = cards[b], cards[a]
    return AmberPosition(game, tuple(cards), start.start_cells, None, {}), done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-20"))
    parser.add_argument("--nodes", type=int, default=300, help="gather expansions per deal (default 300)")
    parser.add_argument("--near", default="10,20,30,60", help="swaps back from the goal, comma-separated")
    args = parser.parse_args(argv)
    game = get_game("pattern")
    assert isinstance(game, AmberGame)
    print(f"Pattern of Amber gather: deals {args.deals[0]}..{args.deals[-1]}, {args.nodes} expansions each")
    print(f"{'deal':>5} {'out at start':>12} {'nearest out':>11} {'CPU s':>6}")
    nearest: list[int] = []
    for number in args.deals:
        position = game.deal(number)
        if position.stranded_kinds():
            print(f"{number:>5}  stranded (lost at the deal)")
            continue
        board = _Board(position)
        planner = PatternPlanner(board, game)
        t0 = time.process_time()
        best: dict[str, object] = {}
        gathered = planner.gather(board.start, _Budget(None, args.nodes), best=best)
        left = 0 if gathered is not None else int(best["out"])  # type: ignore[call-overload]
        nearest.append(left)
        print(f"{number:>5} {planner.out(board.start):>12} {left:>11} {time.process_time() - t0:>6.1f}", flush=True)
    if nearest:
        print(f"gathered: {sum(1 for x in nearest if x == 0)}/{len(nearest)}; "
              f"median cards left {statistics.median(nearest):g}, fewest {min(nearest)}, most {max(nearest)}")
    print(f"Positions near the goal (node limit {20 * args.nodes}):")
    print(f"{'swaps back':>10} {'made':>8} {'bound':>9} {'won':>5} {'median length':>13} {'median CPU s':>12}")
    for steps in (int(x) for x in args.near.split(",")):
        won = 0
        lengths: list[int] = []
        cpu: list[float] = []
        made: list[int] = []
        bounds: list[int] = []
        for deal in (1, 2, 3):
            position, done = near_goal(game, deal, steps, deal)
            made.append(done)
            bounds.append(position.lower_bound())
            t0 = time.process_time()
            solution = solve(position, time_limit=None, node_limit=20 * args.nodes)
            cpu.append(time.process_time() - t0)
            if solution.status == "won":
                won += 1
                lengths.append(len(solution.moves))
        length = f"{statistics.median(lengths):g}" if lengths else "-"
        print(f"{steps:>10} {','.join(map(str, made)):>8} {','.join(map(str, bounds)):>9} {won:>3}/3 {length:>13} "
              f"{statistics.median(cpu):>12.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
