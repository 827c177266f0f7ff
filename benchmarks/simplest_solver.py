"""Benchmark: the Simplest patience solver over many deals, both options, in one process.

    .venv/bin/python benchmarks/simplest_solver.py              # 1,000 deals of each option
    .venv/bin/python benchmarks/simplest_solver.py --deals 20   # smoke run

Prints, for each option, deals decided per second (won or lost; the time includes turning the
solver's moves into the game's real moves and replaying them through the rules engine), the share
won, lost and unknown (budget run out), and the nodes and seconds of the slowest deals.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from amber_patience.games import get_game
from amber_patience.solvers import solve


def run(empty: str, first: int, deals: int, node_limit: int, time_limit: float) -> None:
    game = get_game("simplest", empty=empty)
    counts: Counter[str] = Counter()
    slowest: list[tuple[float, int, str, int]] = []
    moves = 0
    start = time.perf_counter()
    for number in range(first, first + deals):
        solution = solve(game.deal(number), time_limit=time_limit, node_limit=node_limit)
        counts[solution.status] += 1
        moves += len(solution.moves)
        slowest.append((float(solution.stats["seconds"]), number, solution.status, int(solution.stats["nodes"])))
    elapsed = time.perf_counter() - start
    decided = counts["won"] + counts["lost"]
    won = counts["won"]
    print(f"empty={empty}: {deals} deals ({first}..{first + deals - 1}) in {elapsed:.1f} s: "
          f"{decided / elapsed:.1f} deals decided per second; "
          f"won {won / deals:.2%}, lost {counts['lost'] / deals:.2%}, unknown {counts['unknown'] / deals:.2%} "
          f"({won}/{counts['lost']}/{counts['unknown']}); "
          f"{moves / max(won, 1):.0f} moves per win (stock turns included)")
    slowest.sort(reverse=True)
    worst = ", ".join(f"#{n} {status} {nodes} nodes {sec:.2f} s" for sec, n, status, nodes in slowest[:5])
    print(f"  slowest: {worst}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per option (default 1000)")
    parser.add_argument("--first", type=int, default=0, help="first deal number (default 0)")
    parser.add_argument("--node-limit", type=int, default=200_000, help="states per deal before 'unknown'")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal before 'unknown'")
    parser.add_argument("--empty", choices=["king", "any", "both"], default="both")
    args = parser.parse_args()
    for empty in (["king", "any"] if args.empty == "both" else [args.empty]):
        run(empty, args.first, args.deals, args.node_limit, args.time_limit)


if __name__ == "__main__":
    main()
