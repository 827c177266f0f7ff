"""Zodiac solver benchmark: deals decided per second (one process), share won, lost and unknown.

    .venv/bin/python benchmarks/zodiac_solver.py                 # 1,000 deals of each variant
    .venv/bin/python benchmarks/zodiac_solver.py --deals 20      # a smoke run

Deals 1..N (PySolFC's numbers) of ``zodiac`` and ``zodiac-classic``, each solved from the deal with
the node budget given (``--nodes``), by the family solver (``amber_patience.solvers.zodiac.solve``).
Every win is replayed through the rules engine (``amber_patience.solvers.replay``) outside the timing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from amber_patience.games import get_game
from amber_patience.solvers import replay
from amber_patience.solvers.zodiac import DEFAULT_NODE_LIMIT, solve


def run(name: str, deals: int, first: int, nodes: int) -> None:
    game = get_game(name)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    node_counts: list[int] = []
    unknown: list[int] = []
    lost: list[int] = []
    for number in range(first, first + deals):
        position = game.deal(number)
        start = time.perf_counter()
        solution = solve(position, time_limit=None, node_limit=nodes)
        times.append(time.perf_counter() - start)
        node_counts.append(solution.stats["nodes"])
        counts[solution.status] += 1
        if solution.status == "won":
            if not replay(position, solution.moves).is_won():
                raise SystemExit(f"{name} deal {number}: the solver's moves do not win")
        elif solution.status == "unknown":
            unknown.append(number)
        else:
            lost.append(number)
    total = sum(times)
    print(f"{name}: {deals} deals ({first}..{first + deals - 1}), node budget {nodes}")
    print(f"  {deals / total:.1f} deals/s (one process, {total:.1f} s); "
          f"median {statistics.median(times) * 1000:.0f} ms, slowest {max(times):.2f} s")
    print(f"  won {counts['won'] / deals:.1%}, lost {counts['lost'] / deals:.1%}, "
          f"unknown {counts['unknown'] / deals:.1%}  (median nodes {statistics.median(node_counts):.0f})")
    if lost:
        print(f"  lost: {lost[:20]}{' …' if len(lost) > 20 else ''}")
    if unknown:
        print(f"  unknown: {unknown[:20]}{' …' if len(unknown) > 20 else ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000, help="deals per variant (default 1000)")
    parser.add_argument("--first", type=int, default=1, help="the first deal number (default 1)")
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_LIMIT, help="node budget per deal")
    parser.add_argument("--game", choices=("zodiac", "zodiac-classic"), action="append",
                        help="one variant only (may be given twice)")
    args = parser.parse_args()
    for name in args.game or ("zodiac", "zodiac-classic"):
        run(name, args.deals, args.first, args.nodes)


if __name__ == "__main__":
    main()
