"""Benchmark: how long ``amber hint`` takes, on a fresh position and along a line found before.

    .venv/bin/python benchmarks/hints.py                          # deals 1-20 of every Amber layout
    .venv/bin/python benchmarks/hints.py --layouts path-36 --deals 1-3 --time-limit 2   # smoke run

For each deal: (1) the first hint, from the dealt position, with nothing known: the solver runs
(``--time-limit`` per hint, like ``amber hint --time-limit``); (2) the player plays that move and
asks again, as a new ``amber hint`` process would: a fresh in-memory cache over the same SQLite
store, so the answer comes from the line kept in the file (read back and replayed by the rules).
Prints, per layout, the share of first hints found, and the median and 95th-percentile wall seconds of
both, with the median CPU seconds of the first hint (this process and its children: Forest of Arden
races two plans on two cores, so its CPU is above its wall time; run it on a quiet machine).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES as AMBER
from amber_patience.solvers import cpu_seconds
from amber_patience.solvers.lines import LineCache, winning_line
from amber_patience.store import Store


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def run(name: str, deals: range, time_limit: float, folder: Path) -> None:
    game = get_game(name)
    db = folder / f"{name}.sqlite3"
    first: list[float] = []
    first_cpu: list[float] = []
    again: list[float] = []
    found = 0
    for number in deals:
        position = game.deal(number)
        t0, c0 = time.perf_counter(), cpu_seconds()
        answer = winning_line(position, time_limit, LineCache(Store(db)))
        first.append(time.perf_counter() - t0)
        first_cpu.append(cpu_seconds() - c0)
        if answer.status != "won":
            continue
        found += 1
        after = position.play(answer.moves[0])
        t0 = time.perf_counter()
        rest = winning_line(after, time_limit, LineCache(Store(db)))  # a new process: the line is in the file
        again.append(time.perf_counter() - t0)
        assert rest.status == "won" and not rest.stats, "the second hint should come from the kept line"
    print(f"{name}: first hint found on {found}/{len(deals)} deals; first hint median {statistics.median(first):.2f} s,"
          f" p95 {percentile(first, 0.95):.2f} s (CPU median {statistics.median(first_cpu):.2f} s);"
          f" next hint along the kept line median "
          f"{statistics.median(again) if again else float('nan'):.3f} s, p95 {percentile(again, 0.95):.3f} s",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", nargs="+", default=["path-36", "path-52", "path", "kolvir", "arden", "pattern"],
                        choices=sorted(AMBER))
    parser.add_argument("--deals", default="1-20", help="a range of deal numbers, e.g. 1-20")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per hint (amber hint's default: 5)")
    args = parser.parse_args()
    low, _, high = args.deals.partition("-")
    deals = range(int(low), int(high or low) + 1)
    print(f"amber hint: deals {deals.start}-{deals.stop - 1}, time limit {args.time_limit:g} s per hint", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for name in args.layouts:
            run(name, deals, args.time_limit, Path(folder))


if __name__ == "__main__":
    main()
