"""Benchmark: how long ``amber hint`` takes, on a fresh position and along a line found before.

    .venv/bin/python benchmarks/hints.py                          # deals 1-20 of every Amber layout
    .venv/bin/python benchmarks/hints.py --layouts path-36 --deals 1-3 --time-limit 2   # smoke run
    .venv/bin/python benchmarks/hints.py --layouts path arden pattern --no-race   # one process: CPU figures

For each deal, what ``amber hint`` does: (1) the first hint, from the dealt position, with nothing known:
the solver runs for a quick line (``winning_line(quick=True)``: the Amber solver shortens only the first
swaps of the path it found; ``--time-limit`` per hint, like ``amber hint --time-limit``), and the hint is
its first move; (2) the command then shortens the line whole and keeps it (``LineAnswer.finish``) before it
exits; (3) the player plays the hint and asks again, as a new ``amber hint`` process would: a fresh in-memory
cache over the same SQLite store, so the answer comes from the line kept in the file (read back and
replayed by the rules).

Prints, per layout, the share of first hints found, the median and 95th-percentile wall seconds of the
first hint (and its slowest; the p95 is by nearest rank, as in ``amber_solver.py``: the 19th of 20 deals) (with
its median CPU seconds: this process and its children, since Path 56/52, Arden and Pattern
race two plans on two cores, so CPU is above wall time; run it on a quiet machine), of the shortening after
it and of the next hint along the kept line; and the hint's quality: how often it is the first move of the
whole line (what ``amber solve`` returns for the same path found), the mean length of the quick line the
hint stands on, of the line kept through the hint (the whole line if it begins with the hint, else the hint
and the rest of the quick line shortened whole) and of the whole line.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES as AMBER
from amber_patience.solvers import amber, cpu_seconds
from amber_patience.solvers.lines import LineCache, winning_line
from amber_patience.store import Store

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from amber_solver import parse_range, percentile  # the same p95 (nearest rank) as the solver benchmark
from machine import machine_line


def mean(values: list[int]) -> float:
    return statistics.mean(values) if values else float("nan")


def run(name: str, deals: list[int], time_limit: float, folder: Path) -> None:
    game = get_game(name)
    db = folder / f"{name}.sqlite3"
    first: list[float] = []
    first_cpu: list[float] = []
    finishing: list[float] = []
    again: list[float] = []
    same_first = 0
    quick_length: list[int] = []
    kept_length: list[int] = []
    whole_length: list[int] = []
    found = 0
    for number in deals:
        position = game.deal(number)
        cache = LineCache(Store(db))
        t0, c0 = time.perf_counter(), cpu_seconds()
        answer = winning_line(position, time_limit, cache, quick=True)
        first.append(time.perf_counter() - t0)
        first_cpu.append(cpu_seconds() - c0)
        if answer.status != "won":
            continue
        found += 1
        hint = answer.moves[0]
        t0 = time.perf_counter()
        whole = answer.finish() if answer.finish is not None else answer.moves
        finishing.append(time.perf_counter() - t0)
        after = position.play(hint)
        through = cache.get(after)  # the line kept through the hint (memory: no new solver run)
        assert through is not None, "the line through the hint should be kept"
        same_first += whole[0] == hint
        quick_length.append(len(answer.moves))
        kept_length.append(1 + len(through))
        whole_length.append(len(whole))
        t0 = time.perf_counter()
        rest = winning_line(after, time_limit, LineCache(Store(db)))  # a new process: the line is in the file
        again.append(time.perf_counter() - t0)
        assert rest.status == "won" and not rest.stats, "the second hint should come from the kept line"
    print(f"{name}: first hint found on {found}/{len(deals)} deals; first hint median {statistics.median(first):.2f} s,"
          f" p95 {percentile(first, 0.95):.2f} s, max {max(first):.2f} s"
          f" (CPU median {statistics.median(first_cpu):.2f} s,"
          f" p95 {percentile(first_cpu, 0.95):.2f} s);"
          f" shortening after it median {statistics.median(finishing) if finishing else float('nan'):.2f} s,"
          f" p95 {percentile(finishing, 0.95):.2f} s; next hint along the kept line median "
          f"{statistics.median(again) if again else float('nan'):.3f} s, p95 {percentile(again, 0.95):.3f} s",
          flush=True)
    longer = sum(k > w for k, w in zip(kept_length, whole_length, strict=True))
    print(f"{name}: hint = first move of the whole line on {same_first}/{found}; mean length: quick line"
          f" {mean(quick_length):.1f}, kept through the hint {mean(kept_length):.1f},"
          f" whole line {mean(whole_length):.1f} (kept through the hint longer than the whole line on {longer})",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", nargs="+", default=["path-36", "path-52", "path", "kolvir", "arden", "pattern"],
                        choices=sorted(AMBER))
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-20"),
                        help="deal numbers: a range like 1-20, or a list like 1,4,9")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per hint (amber hint's default: 5)")
    parser.add_argument("--no-race", action="store_true", help="search the plans in this process, one after another")
    args = parser.parse_args()
    if args.no_race:
        amber.RACE = False
    deals = args.deals
    print(f"amber hint: deals {deals[0]}-{deals[-1]}, time limit {args.time_limit:g} s per hint"
          f"{', no race' if args.no_race else ''}", flush=True)
    print(machine_line(), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for name in args.layouts:
            run(name, deals, args.time_limit, Path(folder))


if __name__ == "__main__":
    main()
