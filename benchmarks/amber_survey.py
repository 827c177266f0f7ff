"""Survey of the Amber layouts: solve deals 1..1000 of each layout and list every deal not won.

    python benchmarks/amber_survey.py [--layouts path-36 ...] [--deals 1-1000] [--time-limit 60]

The seed texts claim every deal of every Amber layout can be won. A deal listed as "proved lost"
is a counter-example with its reason (a block dealt no card of a kind its goal needs: see
docs/rules.md). A deal listed as "not won" is only a deal the solver did not win in its time
limit (its search proves no loss): a candidate to look at, not a proof. Every won solution is
replayed by the rules engine. Runs in one process (the machine is shared); prints a line per layout as it goes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES
from amber_patience.solvers import solve

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from amber_solver import parse_range, percentile


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-1000"))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal (default 60)")
    parser.add_argument("--progress", type=int, default=0, help="print a progress line every N deals")
    args = parser.parse_args(argv)
    print(f"Amber survey: deals {args.deals[0]}..{args.deals[-1]}, time limit {args.time_limit:g} s per deal",
          flush=True)
    for name in args.layouts:
        game = get_game(name)
        not_won: list[int] = []
        lost: list[int] = []
        seconds: list[float] = []
        ratios: list[float] = []
        t_start = time.perf_counter()
        for i, number in enumerate(args.deals, 1):
            position = game.deal(number)
            t0 = time.perf_counter()
            solution = solve(position, time_limit=args.time_limit)
            seconds.append(time.perf_counter() - t0)
            if solution.status == "won":
                bound = position.lower_bound()
                ratios.append(len(solution.moves) / bound if bound else 1.0)
            elif solution.status == "lost":
                lost.append(number)
                print(f"  {name}: deal {number} PROVED LOST: {solution.stats.get('reason')}", flush=True)
            else:
                not_won.append(number)
                print(f"  {name}: deal {number} NOT WON in {seconds[-1]:.1f} s ({solution.stats.get('nodes')} nodes)",
                      flush=True)
            if args.progress and i % args.progress == 0:
                print(f"  {name}: {i} deals, {len(not_won)} not won so far", flush=True)
        won = len(args.deals) - len(not_won) - len(lost)
        print(f"{name}: {won}/{len(args.deals)} won; proved lost: {len(lost)} ({' '.join(map(str, lost)) or 'none'}); "
              f"not won in time: {' '.join(map(str, not_won)) or 'none'}; "
              f"median {statistics.median(seconds):.2f} s, p95 {percentile(seconds, 0.95):.2f} s, "
              f"max {max(seconds):.2f} s; median length/bound "
              f"{statistics.median(ratios) if ratios else float('nan'):.2f}; "
              f"total {time.perf_counter() - t_start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
