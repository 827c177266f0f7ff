"""Pyramid solver benchmark: deals decided per second (one process) and the share of deals won.

Run by hand (the full run takes a long while)::

    .venv/bin/python benchmarks/pyramid_solver.py                 # every variant, default sizes
    .venv/bin/python benchmarks/pyramid_solver.py --deals 20      # smoke run: 20 deals a variant
    .venv/bin/python benchmarks/pyramid_solver.py --only pyramid-52/1 --deals 1000

"decided/s" is per wall-clock second, "per CPU s" per second of this process's CPU time (the
fairer figure on a shared machine), "nodes" the mean search nodes a deal, "at root" the deals refused
by the bounds and subgames at the root (before any search, but after the short dive that a game with
a recycle left starts with). Default size: 10,000 deals for every
variant (the full run takes several minutes). Every win is replayed through the rules engine
(``amber_patience.solvers.solve``); a deal not decided within ``--time-limit`` seconds counts as
unknown.

Published figure to compare with: Morehead and Mott-Smith's estimate, quoted by Keller and Masten
("Pyramid and Giza", solitairelaboratory.com), that one deal in 50 can be won with one pass through
the stock - a guess for a player who does not know the stock's order. The solver knows it, so it
wins far more often. We know of no published exact figure for these rules.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from amber_patience.games import get_game
from amber_patience.solvers import solve


@dataclass(frozen=True)
class Variant:
    label: str
    game: str
    options: dict[str, Any]
    deals: int  # default number of deals


VARIANTS = (
    Variant("pyramid-52/1", "pyramid-52", {}, 10_000),
    Variant("pyramid-52/3", "pyramid-52", {"passes": 3}, 10_000),
    Variant("pyramid-52/unlimited", "pyramid-52", {"passes": "unlimited"}, 10_000),
    Variant("pyramid-52/1/relaxed", "pyramid-52", {"relaxed": True}, 10_000),
    Variant("pyramid-36/1", "pyramid-36", {}, 10_000),
    Variant("pyramid-36/3", "pyramid-36", {"passes": 3}, 10_000),
    Variant("pyramid-36/unlimited", "pyramid-36", {"passes": "unlimited"}, 10_000),
    Variant("pyramid-36/1/relaxed", "pyramid-36", {"relaxed": True}, 10_000),
)


def run(variant: Variant, deals: int, first: int, time_limit: float) -> dict[str, Any]:
    game = get_game(variant.game, **variant.options)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    nodes = 0
    at_root = 0  # deals decided with no search node (refused by the bounds at the root)
    slowest = (0.0, first)
    start = time.perf_counter()
    cpu_start = time.process_time()
    for number in range(first, first + deals):
        t0 = time.perf_counter()
        solution = solve(game.deal(number), time_limit=time_limit)
        spent = time.perf_counter() - t0
        slowest = max(slowest, (spent, number))
        counts[solution.status] += 1
        nodes += solution.stats.get("nodes", 0)
        at_root += bool(solution.stats.get("at_root", solution.stats.get("nodes", 0) == 0))
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    decided = counts["won"] + counts["lost"]
    return {"variant": variant.label, "deals": deals, **counts, "seconds": seconds,
            "per_second": decided / seconds if seconds else 0.0,
            "per_cpu_second": decided / cpu if cpu else 0.0,
            "won_share": counts["won"] / decided if decided else 0.0,
            "nodes": nodes / deals, "at_root": at_root, "slowest": slowest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, help="deals per variant (default: the variant's own size)")
    parser.add_argument("--first", type=int, default=1, help="first deal number (default 1)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal before 'unknown'")
    parser.add_argument("--only", action="append", choices=[v.label for v in VARIANTS],
                        help="run only this variant (may be repeated)")
    args = parser.parse_args()
    print(f"{'variant':22} {'deals':>6} {'won':>6} {'lost':>6} {'unknown':>7} {'seconds':>9} "
          f"{'decided/s':>9} {'per CPU s':>9} {'won %':>6} {'nodes':>8} {'at root':>7}  slowest (s, deal)")
    for variant in VARIANTS:
        if args.only and variant.label not in args.only:
            continue
        r = run(variant, args.deals or variant.deals, args.first, args.time_limit)
        print(f"{r['variant']:22} {r['deals']:6} {r['won']:6} {r['lost']:6} {r['unknown']:7} {r['seconds']:9.1f} "
              f"{r['per_second']:9.2f} {r['per_cpu_second']:9.2f} {100 * r['won_share']:6.2f} {r['nodes']:8.0f} "
              f"{r['at_root']:7}  "
              f"({r['slowest'][0]:.2f}, {r['slowest'][1]})", flush=True)


if __name__ == "__main__":
    main()
