"""Calibrate the difficulty bands: solve deals of each Amber layout and print the won deals' difficulty terciles.

    python benchmarks/difficulty_bands.py [--layouts path-36 ...] [--deals 1-100] [--time-limit 60] [--write]

Each deal is solved with ``amber_patience.solvers.solve`` (the race on two cores on, as the server and the CLI
solve); its difficulty figure is ``stats["difficulty"]`` (the states the search expanded: it does not depend on
the machine's speed, so the time limit only has to be generous enough for no deal to time out). Per layout it
prints the won deals' figures: min, lower tercile, median, upper tercile, max (nearest rank), and the deals not
won (lost at the deal, or not won in the time: neither is in the bands). A deal is *easy* when its figure is at
most the lower tercile, *hard* when it is at least the upper one (``amber_patience.solvers.levels``).
``--write`` writes the thresholds (with the deals, the date and the commit they came from) to
``src/amber_patience/solvers/difficulty_bands.json``, with the hard deals whose figure is at most
``HARD_LIST_FACTOR`` x the upper tercile (``hard_deals``: the web server's hard deals at random); layouts not
calibrated in this run keep their entries.
``--check-easy`` then asks ``find_deal`` for an easy deal at each won deal (one try, with its node limit, by the
bands already in the file) and counts the deals it takes, the easy ones it misses and the others it takes.
Seconds are CPU seconds of this process and of the raced plans' processes.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES
from amber_patience.solvers import cpu_seconds, solve
from amber_patience.solvers.levels import (
    BANDS_FILE,
    EASY_CAP_FACTOR,
    HARD_LIST_FACTOR,
    Bands,
    DealNotFound,
    bands_for,
    find_deal,
)

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from amber_solver import parse_range, percentile


def commit() -> str:
    """The repository's commit (with ``+changes`` when the working tree differs from it), or ``unknown``."""
    here = Path(__file__).parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def terciles(figures: list[int]) -> tuple[int, int]:
    """The lower and upper terciles of ``figures`` (nearest rank); the upper made more than the lower, so that
    no figure is both easy and hard."""
    lower = int(percentile(figures, 1 / 3))
    upper = int(percentile(figures, 2 / 3))
    return lower, max(upper, lower + 1)


def calibrate(name: str, deals: list[int], time_limit: float | None, verbose: bool, check_easy: bool
              ) -> dict[str, Any]:
    game = get_game(name)
    figures: list[int] = []
    won: list[int] = []
    not_won: dict[int, str] = {}
    cpu: list[float] = []
    for number in deals:
        position = game.deal(number)
        c0 = cpu_seconds()
        solution = solve(position, time_limit=time_limit)  # replays every won solution
        cpu.append(cpu_seconds() - c0)
        if solution.status == "won":
            figures.append(int(solution.stats["difficulty"]))
            won.append(number)
        else:
            not_won[number] = "lost at the deal" if solution.status == "lost" else "not won in time"
        if verbose:
            print(f"  {name} deal {number}: {solution.status}, difficulty {solution.stats.get('difficulty')}, "
                  f"{cpu[-1]:.2f} s CPU", flush=True)
    if not figures:
        raise SystemExit(f"{name}: no deal won, no bands")
    lower, upper = terciles(figures)
    check = easy_check(game, dict(zip(won, figures, strict=True)), time_limit, verbose) if check_easy else {}
    return {**check,"lower": lower, "upper": upper, "median": statistics.median(figures), "min": min(figures),
            "max": max(figures), "won": len(figures), "deals": f"{deals[0]}-{deals[-1]}" if deals == list(
                range(deals[0], deals[-1] + 1)) else ",".join(map(str, deals)),
            "not_won": {str(k): v for k, v in not_won.items()}, "cpu_seconds": round(sum(cpu), 1),
            "easy": sum(f <= lower for f in figures), "hard": sum(f >= upper for f in figures),
            "hard_deals": [n for n, f in zip(won, figures, strict=True) if upper <= f <= HARD_LIST_FACTOR * upper]}


def easy_check(game: Any, figures: dict[int, int], time_limit: float | None, verbose: bool) -> dict[str, Any]:
    """Ask ``find_deal`` for an easy deal at each won deal (one try each: it solves the candidate with its node
    limit, ``EASY_CAP_FACTOR`` x the lower tercile of the bands in the data file, as written before this run)
    and count the deals it takes against those this run's whole solve calls easy by the same bands: ``missed``
    were easy but not taken, ``wrong`` taken but not easy by the whole solve (in a race of two plans the winner,
    and so the figure, can differ from run to run)."""
    bands = bands_for(game)
    if bands is None:
        raise SystemExit(f"--check-easy: {game.name} has no bands in {BANDS_FILE} yet (run --write first)")
    taken: list[int] = []
    cpu = 0.0
    for number, figure in figures.items():
        c0 = cpu_seconds()
        try:
            found = find_deal(game, number, level="easy", tries=1, time_limit=time_limit)
            taken.append(number)
            said = f"taken, difficulty {found.figure}"
        except DealNotFound:
            said = "not taken"
        cpu += cpu_seconds() - c0
        if verbose and (number in taken) != (figure <= bands.lower):
            print(f"  {game.name} deal {number}: difficulty {figure}, as an easy candidate {said}", flush=True)
    easy = {n for n, f in figures.items() if f <= bands.lower}
    return {"easy_taken": len(taken), "easy_missed": len(easy - set(taken)), "easy_wrong": len(set(taken) - easy),
            "easy_cpu": round(cpu, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layouts", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-100"))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal (default 60; 0: none)")
    parser.add_argument("--write", action="store_true", help=f"write the thresholds to {BANDS_FILE.name}")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    parser.add_argument("--check-easy", action="store_true",
                        help="ask find_deal for an easy deal at each won deal (the bands of the data file) and count "
                             "the easy deals it takes, misses or takes wrongly")
    args = parser.parse_args(argv)
    time_limit = args.time_limit or None
    source = commit()
    print(f"Difficulty bands: deals {args.deals[0]}..{args.deals[-1]} ({len(args.deals)} per layout), "
          f"time limit {args.time_limit:g} s per deal, commit {source}", flush=True)
    print(f"{'layout':<9} {'won':>4} {'min':>7} {'lower':>7} {'median':>8} {'upper':>7} {'max':>8} "
          f"{'easy':>4} {'hard':>4} {'list':>4} {'CPU s':>7}  not won", flush=True)
    results: dict[str, dict[str, Any]] = {}
    for name in args.layouts:
        r = calibrate(name, args.deals, time_limit, args.verbose, args.check_easy)
        Bands(name, r["lower"], r["upper"])  # checks lower < upper
        results[name] = r
        not_won = " ".join(f"{k} ({v})" for k, v in r["not_won"].items()) or "-"
        print(f"{name:<9} {r['won']:>4} {r['min']:>7} {r['lower']:>7} {r['median']:>8g} {r['upper']:>7} "
              f"{r['max']:>8} {r['easy']:>4} {r['hard']:>4} {len(r['hard_deals']):>4} "
              f"{r['cpu_seconds']:>7.1f}  {not_won}", flush=True)
        if args.check_easy:
            print(f"{'':<9} find_deal easy (node limit {EASY_CAP_FACTOR} x the file's lower): {r['easy_taken']} taken, "
                  f"{r['easy_missed']} easy missed, {r['easy_wrong']} not easy taken ({r['easy_cpu']:.1f} s CPU)",
                  flush=True)
    if args.write:
        data: dict[str, Any] = {"layouts": {}}
        if BANDS_FILE.exists():
            data = json.loads(BANDS_FILE.read_text(encoding="utf-8"))
        data["about"] = ("difficulty bands of the Amber layouts (docs/solver.md, 'The difficulty figure'): a deal is "
                         "easy when the solver's difficulty figure is at most 'lower', hard when at least 'upper'; "
                         "'hard_deals': the hard deals with a figure at most HARD_LIST_FACTOR x 'upper'; "
                         "written by benchmarks/difficulty_bands.py --write")
        made = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        for name, r in results.items():
            data["layouts"][name] = {
                "lower": r["lower"], "upper": r["upper"], "median": r["median"], "min": r["min"], "max": r["max"],
                "deals": r["deals"], "won": r["won"], "not_won": r["not_won"], "hard_deals": r["hard_deals"],
                "time_limit": args.time_limit,
                "made": made, "commit": source}
        data["layouts"] = {name: data["layouts"][name] for name in GAMES if name in data["layouts"]}
        BANDS_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"written: {BANDS_FILE}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
