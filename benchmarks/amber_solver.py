"""Benchmark of the Amber solver: per layout, share of deals won, seconds and length / lower bound.

    python benchmarks/amber_solver.py [--layouts path path-36 ...] [--deals 1-50] [--time-limit 10]
    python benchmarks/amber_solver.py --deals 1-3          # quick smoke run
    python benchmarks/amber_solver.py --layouts arden --time-limit 0 --node-limit 60000   # load-independent
    python benchmarks/amber_solver.py --layouts arden --arden-plan groups ...              # another Arden plan
    python benchmarks/amber_solver.py --layouts arden --no-race ...       # Arden's plans in turn, on one core
    python benchmarks/amber_solver.py --layouts pattern --pattern-draws 0  # Pattern without its draws for length
    python benchmarks/amber_solver.py --layouts arden pattern --length-seconds 0  # draws for length not cut by time

Every solution is replayed by the rules engine (``amber_patience.solvers.solve`` does it).
Seconds are wall-clock (the time limit is too); ``cpu`` columns are CPU seconds of this process and
of its child processes (Forest of Arden races two plans in two processes: ``--no-race`` runs one after
the other in this process), and ``nodes`` the states the search expanded (``stats["nodes"]``), which do
not depend on the load.
Targets (issue 3): 100% won; median <= 1 s and 95th percentile <= 5 s per deal; median
length <= 2 x the lower bound.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES
from amber_patience.solvers import amber as amber_solver
from amber_patience.solvers import amber_pattern, cpu_seconds, solve
from machine import machine_line


def parse_range(text: str) -> list[int]:
    """``"1-50"`` or ``"7"`` or ``"1,4,9"`` -> deal numbers."""
    deals: list[int] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-", 1)
            if not (lo.strip().isdigit() and hi.strip().isdigit()) or int(lo) > int(hi):
                raise argparse.ArgumentTypeError(f"{part!r} is not a range like 1-50")
            deals.extend(range(int(lo), int(hi) + 1))
        elif part.strip().isdigit():
            deals.append(int(part))
        else:
            raise argparse.ArgumentTypeError(f"{part!r} is not a deal number")
    return deals


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, int(-(-q * len(ordered) // 1)))
    return ordered[min(rank, len(ordered)) - 1]


def run_layout(name: str, deals: list[int], time_limit: float | None, verbose: bool,
               node_limit: int | None = None) -> dict[str, float]:
    game = get_game(name)
    seconds: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    ratios: list[float] = []
    lengths: list[int] = []
    bounds: list[int] = []
    lost: list[int] = []
    for number in deals:
        position = game.deal(number)
        t0, c0 = time.perf_counter(), cpu_seconds()
        solution = solve(position, time_limit=time_limit, node_limit=node_limit)  # replays every won solution
        elapsed = time.perf_counter() - t0
        seconds.append(elapsed)
        cpu.append(cpu_seconds() - c0)
        nodes.append(int(solution.stats.get("nodes", 0)))
        bound = position.lower_bound()
        bounds.append(bound)
        if solution.status == "won":
            lengths.append(len(solution.moves))
            ratios.append(len(solution.moves) / bound if bound else 1.0)
        else:
            lost.append(number)
        if verbose:
            print(f"  {name} deal {number}: {solution.status} in {elapsed:.2f} s ({cpu[-1]:.2f} s CPU), "
                  f"{len(solution.moves)} moves, bound {bound}, nodes {solution.stats.get('nodes')}", flush=True)
    return {
        "deals": len(deals), "won": len(deals) - len(lost), "share": (len(deals) - len(lost)) / len(deals),
        "median_s": statistics.median(seconds), "p95_s": percentile(seconds, 0.95), "max_s": max(seconds),
        "median_cpu": statistics.median(cpu), "p95_cpu": percentile(cpu, 0.95),
        "median_nodes": statistics.median(nodes),
        "median_ratio": statistics.median(ratios) if ratios else float("nan"),
        "median_length": statistics.median(lengths) if lengths else float("nan"),
        "median_bound": statistics.median(bounds), "not_won": lost,  # type: ignore[dict-item]
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-20"))
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal (default 10)")
    parser.add_argument("--node-limit", type=int, default=None,
                        help="states the search may expand per deal (with --time-limit 0: the only limit, "
                             "so results do not depend on the machine's load)")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    parser.add_argument("--arden-plan", choices=["chain", "groups", "halves", "whole"], default=None,
                        help="Forest of Arden's plan (default: the solver's, amber.ARDEN_PLAN)")
    parser.add_argument("--no-race", action="store_true",
                        help="no race of plans on two cores (amber.RACE): Arden's plans one after the other")
    parser.add_argument("--pattern-draws", type=int, default=None,
                        help="Pattern of Amber's draws for length after its first win and its close draws "
                             "(default: the solver's, amber_pattern.DRAWS; 0: none, the close draws of "
                             "amber_pattern.DRAW_CLOSE neither)")
    parser.add_argument("--race-wait", type=float, default=None, metavar="FACTOR",
                        help="how long the race waits for a shorter line after the first win, in times the first's "
                             "seconds (default: the solver's, amber.RACE_WAIT_FACTOR; a negative value: no wait, the "
                             "first win kept and shortened after the race, amber.RACE_FOR_LENGTH off)")
    parser.add_argument("--length-seconds", type=float, default=None, metavar="S",
                        help="seconds after a solve's start at which its draws for length stop at the latest "
                             "(default: the solver's, amber.LENGTH_SECONDS; 0: only the deadline stops them)")
    args = parser.parse_args(argv)
    if args.length_seconds is not None:
        if args.length_seconds < 0:
            parser.error("--length-seconds must be 0 or more")
        amber_solver.LENGTH_SECONDS = args.length_seconds or None
    if args.race_wait is not None:
        if args.race_wait < 0:
            amber_solver.RACE_FOR_LENGTH = False
        else:
            amber_solver.RACE_WAIT_FACTOR = args.race_wait
    if args.pattern_draws is not None:
        if args.pattern_draws < 0:
            parser.error("--pattern-draws must be 0 or more")
        amber_pattern.DRAWS = args.pattern_draws
    if args.no_race:
        amber_solver.RACE = False
    if args.arden_plan:
        amber_solver.ARDEN_PLAN = args.arden_plan
    time_limit = args.time_limit or None
    limits = [f"time limit {time_limit:g} s" if time_limit else "",
              f"node limit {args.node_limit}" if args.node_limit else ""]
    print(f"Amber solver benchmark: deals {args.deals[0]}..{args.deals[-1]} ({len(args.deals)} per layout), "
          f"{', '.join(x for x in limits if x) or 'no limit'} per deal")
    print("targets: won 100%, median <= 1 s, p95 <= 5 s, median length/bound <= 2.0")
    clock = amber_solver.LENGTH_SECONDS if time_limit else None  # a solve without a time limit has no clock
    print("draws for length until " + (f"{clock:g} s after the start, the race's wait until "
                                       f"{amber_solver.RACE_WAIT_AFTER_LENGTH:g} s after that"
                                       if clock else "the deadline (no clock)"))
    print(machine_line())
    header = f"{'layout':<9} {'deals':>5} {'won':>6} {'median s':>9} {'p95 s':>7} {'max s':>7} " \
             f"{'med cpu':>7} {'p95 cpu':>7} {'med nodes':>9} {'len/bound':>9} {'med len':>7} {'med bound':>9}  not won"
    print(header)
    for name in args.layouts:
        r = run_layout(name, args.deals, time_limit, args.verbose, args.node_limit)
        print(f"{name:<9} {r['deals']:>5} {r['share']:>6.0%} {r['median_s']:>9.2f} {r['p95_s']:>7.2f} "
              f"{r['max_s']:>7.2f} {r['median_cpu']:>7.2f} {r['p95_cpu']:>7.2f} {r['median_nodes']:>9.0f} "
              f"{r['median_ratio']:>9.2f} {r['median_length']:>7.0f} {r['median_bound']:>9.0f}  "
              f"{' '.join(map(str, r['not_won'])) or '-'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
