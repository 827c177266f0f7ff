"""Benchmark of Pattern of Amber's planner (``solvers/amber_pattern.py``), in node counts and CPU time.

    python benchmarks/pattern_solver.py [--deals 1-20] [--solve 3000] [--near 10,20,30,60] [--nodes 300]
    python benchmarks/pattern_solver.py --balance [--deals 1-20] [--nodes 600] [--configs 3:2:1,6:2:1] [--end | --sets]
    python benchmarks/pattern_solver.py --race [--deals 1-40] [--solve 10000]
    python benchmarks/pattern_solver.py --search [--deals 1-60] [--solve 10000] [--race-portfolio]
    ... [--no-post-pass]

Stranded deals (a side block dealt no card of its suit) are proved lost and skipped. CPU seconds are
``time.process_time`` (the cyclic garbage collector off, as ``solvers.solve`` has it).

By default: each deal solved through ``amber_patience.solvers.solve`` with a node limit of ``--solve``
(the planner's portfolio, the block sorts, then the shortening; every won solution is replayed by the
rules engine): status, length / lower bound, CPU s, nodes; then positions near the goal (``--near``:
that many legal swaps back from the goal of deals 1-3, see ``tests/test_amber_pattern.py``), solved
with a node limit of 20 x ``--nodes``.

With ``--balance``: the balance searches of ``BALANCE_PORTFOLIO`` one by one from each deal (``--nodes``
expansions each; ``--configs imbalance:weight:seed,...`` for other settings): "won@N" (gathered after N
expansions) or the cards out where the search stalled, and CPU s; with ``--end`` each stalled search is
followed by the end game (``end_game``: a fresh search from the stall when it is near the goal), as in
the planner's portfolio. With ``--sets`` the same searches at the level of sets alone (which card is in which
block, not where: every exchange the sets allow is made with no dock); a deal whose sets cannot be gathered
cannot be won, and one gathered there may still fail in the blocks' geometry.

With ``--race``: each deal solved through ``solve`` once per portfolio of the race (``BALANCE_PORTFOLIO``, then
``RACE_PORTFOLIO``), on one core (``amber.RACE`` off; node limit ``--solve``), and the faster of the two by CPU,
the stand-in for the race on two cores: status, CPU s, nodes, length / lower bound each; a summary line with
the wins, the median and p95 CPU s of the faster (a deal not won counts as its CPU) and the median length /
bound.

With ``--search``: the search alone, as the eighth session measured it: each deal solved through ``solve`` on
one core (``amber.RACE`` off, ``BALANCE_PORTFOLIO``, node limit ``--solve``) with the shortening replaced by
the identity (the found path is still replayed by the rules engine): status, nodes, the found path's length and
a hash of its swaps (to check that two versions of the planner make the same decisions), and the CPU s of
``plan_pattern``; a summary line with the median and p95 of that CPU (every non-stranded deal counted). With
``--race-portfolio``, the same for ``RACE_PORTFOLIO`` (the race's other portfolio) instead.

``--no-post-pass`` (any mode): without the post-pass over the gathering (``amber_pattern.POST_PASS`` off,
ninth session), so that the found paths and their hashes are those of the search as before it.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Iterator

from amber_patience.games import get_game
from amber_patience.games.amber import AmberGame, AmberPosition
from amber_patience.solvers import amber, amber_pattern, solve
from amber_patience.solvers.amber import _Board, _Budget
from amber_patience.solvers.amber_pattern import (
    BALANCE_PORTFOLIO,
    END_NODES,
    RACE_PORTFOLIO,
    PatternPlanner,
    balance_search,
    end_game,
)

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from amber_solver import parse_range, percentile  # the same deal lists and p95 as the solver benchmark


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


def _playable(game: AmberGame, deals: list[int]) -> Iterator[tuple[int, AmberPosition, _Board]]:
    """The deals not lost at the deal, with their positions and boards; a line for each stranded one."""
    for number in deals:
        position = game.deal(number)
        if position.stranded_kinds():
            print(f"{number:>5}  stranded (lost at the deal)")
            continue
        yield number, position, _Board(position)


def balance(deals: list[int], nodes: int, configs: list[tuple[float, float, int]], end: bool = False,
            sets_only: bool = False) -> int:
    """One line per deal: each balance search of ``configs`` (imbalance weight, weight, seed) from the
    deal with ``nodes`` expansions (caches shared within a deal); with ``end``, each followed by the end
    game when it stalls near the goal (``end_game``); with ``sets_only``, at the level of sets alone (no
    docks: ``balance_search(..., sets_only=True)``)."""
    game = get_game("pattern")
    assert isinstance(game, AmberGame)
    level = " at the level of sets alone (no docks)" if sets_only else ""
    print(f"Pattern of Amber: balance searches one by one{level}, {nodes} expansions each; won@expansions or "
          "cards out, CPU s (caches shared within a deal)")
    print("deal  " + " ".join(f"{f'{i:g}:{w:g}:{s}':>16}" for i, w, s in configs))
    won = [0] * len(configs)
    either = tried = ended = 0
    for number, _position, board in _playable(game, deals):
        tried += 1
        share: PatternPlanner | None = None
        cells: list[str] = []
        for i, (imb, weight, seed) in enumerate(configs):
            planner = PatternPlanner(board, game, seed=seed, share=share)
            share = planner
            budget = _Budget(None, nodes)
            near: dict[str, object] = {}
            t0 = time.process_time()
            done = balance_search(planner, board.start, budget, imb, weight, best=near, sets_only=sets_only)
            cpu = time.process_time() - t0
            if done is None and end:
                # the end game from the stall, as ``plan_pattern`` runs it (its expansions counted too)
                extra = _Budget(None, END_NODES)
                done = end_game(planner, near, extra, imb, weight, seed)
                budget.used += extra.used
                cpu = time.process_time() - t0
                if done is not None:
                    ended += 1
            if done is not None:
                won[i] += 1
                cells.append(f"won@{budget.used} ({cpu:.1f})")
            else:
                cells.append(f"out {planner.out(near['at'])} ({cpu:.1f})")  # type: ignore[arg-type]
        either += any(c.startswith("won") for c in cells)
        print(f"{number:>5} " + " ".join(f"{c:>16}" for c in cells), flush=True)
    print("won: " + ", ".join(f"{i:g}:{w:g}:{s}: {n}/{tried}" for (i, w, s), n in zip(configs, won, strict=True))
          + f"; by any: {either}/{tried}" + (f"; won by the end game: {ended}" if end else ""))
    return 0


def race(deals: list[int], nodes: int) -> int:
    """One line per deal: ``solve`` once per portfolio of the race on one core, and the faster by CPU."""
    game = get_game("pattern")
    assert isinstance(game, AmberGame)
    print(f"Pattern of Amber: each portfolio of the race alone (one core, node limit {nodes}); CPU s, nodes, "
          "length/bound; then the faster of the two")
    print(f"{'deal':>5} {'portfolio':>30} {'other portfolio':>30} {'faster':>16}")
    race_on, default = amber.RACE, amber_pattern.BALANCE_PORTFOLIO
    amber.RACE = False
    faster: list[tuple[bool, float, float]] = []
    try:
        for number, position, _board in _playable(game, deals):
            cells: list[str] = []
            runs: list[tuple[bool, float, float]] = []
            for portfolio in (BALANCE_PORTFOLIO, RACE_PORTFOLIO):
                amber_pattern.BALANCE_PORTFOLIO = tuple(portfolio)  # the planner's default, for this solve
                t0 = time.process_time()
                solution = solve(position, time_limit=None, node_limit=nodes)
                cpu = time.process_time() - t0
                won = solution.status == "won"
                ratio = len(solution.moves) / position.lower_bound() if won else 0.0
                runs.append((won, cpu, ratio))
                cells.append(f"{solution.status} {cpu:.2f} {solution.stats.get('nodes')} "
                             + (f"{len(solution.moves)}/{position.lower_bound()}" if won else "-"))
            best = min(runs, key=lambda r: (not r[0], r[1]))
            faster.append(best)
            print(f"{number:>5} {cells[0]:>30} {cells[1]:>30} {('won' if best[0] else 'not won'):>9} {best[1]:>6.2f}",
                  flush=True)
    finally:
        amber.RACE, amber_pattern.BALANCE_PORTFOLIO = race_on, default
    if faster:
        cpus = sorted(cpu for _won, cpu, _ratio in faster)
        p95 = percentile(cpus, 0.95)
        ratios = [ratio for won, _cpu, ratio in faster if won]
        print(f"the faster of the two: won {sum(won for won, _c, _r in faster)}/{len(faster)}, median CPU s "
              f"{statistics.median(cpus):.2f}, p95 {p95:.2f}"
              + (f", median length/bound {statistics.median(ratios):.2f}" if ratios else ""))
    return 0


def search(deals: list[int], nodes: int, race_portfolio: bool = False) -> int:
    """One line per deal: the planner's search alone (no shortening, one core), its CPU and its found path
    (``BALANCE_PORTFOLIO``'s, or with ``race_portfolio`` ``RACE_PORTFOLIO``'s)."""
    game = get_game("pattern")
    assert isinstance(game, AmberGame)
    name = "RACE_PORTFOLIO" if race_portfolio else "BALANCE_PORTFOLIO"
    print(f"Pattern of Amber: the search alone (one core, {name}, node limit {nodes}, no shortening); "
          "CPU s of plan_pattern")
    print(f"{'deal':>5} {'status':>8} {'nodes':>6} {'found':>6} {'path hash':>10} {'CPU s':>7}")
    race_on, shorten, plan = amber.RACE, amber.shorten, amber_pattern.plan_pattern
    timed: list[float] = []

    def plan_timed(*args: object, **kwargs: object) -> list[tuple[int, int]] | None:
        t0 = time.process_time()
        try:
            if race_portfolio:
                kwargs["portfolio"] = RACE_PORTFOLIO
            return plan(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            timed.append(time.process_time() - t0)

    amber.RACE = False
    amber.shorten = lambda _board, path, _deadline, _layout=None: path  # type: ignore[assignment]
    amber_pattern.plan_pattern = plan_timed  # type: ignore[assignment]
    cpus: list[float] = []
    won = 0
    try:
        for number, position, _board in _playable(game, deals):
            timed.clear()
            solution = solve(position, time_limit=None, node_limit=nodes)
            cpu = sum(timed)
            cpus.append(cpu)
            won += solution.status == "won"
            moves = [(m.a, m.b) for m in solution.moves]  # type: ignore[attr-defined]
            digest = hashlib.md5(repr(moves).encode()).hexdigest()[:10] if moves else "-"
            print(f"{number:>5} {solution.status:>8} {solution.stats.get('nodes')!s:>6} "
                  f"{solution.stats.get('found_length', '-')!s:>6} {digest:>10} {cpu:>7.2f}", flush=True)
    finally:
        amber.RACE, amber.shorten, amber_pattern.plan_pattern = race_on, shorten, plan
    if cpus:
        ordered = sorted(cpus)
        p95 = percentile(ordered, 0.95)
        print(f"search alone: won {won}/{len(cpus)}, median CPU s {statistics.median(ordered):.2f}, p95 {p95:.2f}, "
              f"total {sum(ordered):.1f}")
    return 0


def parse_configs(text: str) -> list[tuple[float, float, int]]:
    """``"3:2:1,6:2:1"`` -> [(imbalance weight, weight, seed), ...]."""
    out: list[tuple[float, float, int]] = []
    for part in text.split(","):
        bits = part.split(":")
        if len(bits) != 3:
            raise argparse.ArgumentTypeError(f"{part!r} is not imbalance:weight:seed")
        try:
            out.append((float(bits[0]), float(bits[1]), int(bits[2])))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{part!r} is not imbalance:weight:seed ({exc})") from exc
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-20"))
    parser.add_argument("--nodes", type=int, default=300,
                        help="expansions per balance search (--balance); near the goal, 20 x this per solve")
    parser.add_argument("--near", default="10,20,30,60", help="swaps back from the goal, comma-separated")
    parser.add_argument("--solve", type=int, default=3000, help="node limit of each deal's solve (0: skip)")
    parser.add_argument("--balance", action="store_true", help="only the balance searches one by one")
    parser.add_argument("--end", action="store_true", help="with --balance: each stalled search then the end game")
    parser.add_argument("--sets", action="store_true",
                        help="with --balance: the searches at the level of sets alone (no docks: which card is in "
                             "which block, not where)")
    parser.add_argument("--race", action="store_true",
                        help="each portfolio of the race alone on one core (node limit --solve), and the faster")
    parser.add_argument("--search", action="store_true",
                        help="the search alone: one core, no shortening, CPU of the planner and its found path")
    parser.add_argument("--race-portfolio", action="store_true",
                        help="with --search: RACE_PORTFOLIO instead of BALANCE_PORTFOLIO")
    parser.add_argument("--no-post-pass", action="store_true",
                        help="without the post-pass over the gathering (amber_pattern.POST_PASS off: the found path "
                             "of the search as before the ninth session)")
    parser.add_argument("--configs", type=parse_configs,
                        default=[(imb, weight, seed) for imb, weight, seed, _first in BALANCE_PORTFOLIO],
                        help="with --balance: imbalance:weight:seed,... (default: BALANCE_PORTFOLIO's)")
    args = parser.parse_args(argv)
    gc.disable()
    if args.no_post_pass:
        amber_pattern.POST_PASS = False
    if args.balance:
        if args.sets and args.end:
            parser.error("--sets and --end do not go together (the end game docks)")
        return balance(args.deals, args.nodes, args.configs, args.end, args.sets)
    if args.race:
        return race(args.deals, args.solve)
    if args.search:
        return search(args.deals, args.solve, args.race_portfolio)
    game = get_game("pattern")
    assert isinstance(game, AmberGame)
    solved: list[tuple[int, int, float]] = []
    tried = 0
    if args.solve:
        print(f"Pattern of Amber: deals {args.deals[0]}..{args.deals[-1]}, solve with a node limit of {args.solve}")
        print(f"{'deal':>5} {'status':>7} {'length/bound':>12} {'CPU s':>7} {'nodes':>6}")
        for number, position, _board in _playable(game, args.deals):
            tried += 1
            t0 = time.process_time()
            solution = solve(position, time_limit=None, node_limit=args.solve)
            cpu = time.process_time() - t0
            if solution.status == "won":
                solved.append((len(solution.moves), position.lower_bound(), cpu))
            print(f"{number:>5} {solution.status:>7} {len(solution.moves):>6}/{position.lower_bound():<5} {cpu:>7.2f} "
                  f"{solution.stats.get('nodes')!s:>6}", flush=True)
        print(f"solve (node limit {args.solve}): won {len(solved)}/{tried}", end="")
        if solved:
            ratios = [length / bound for length, bound, _ in solved]
            print(f"; median length/bound {statistics.median(ratios):.2f}, "
                  f"median CPU s of the won {statistics.median(c for _, _, c in solved):.2f}")
        else:
            print()
    print(f"Positions near the goal (node limit {20 * args.nodes}):")
    print(f"{'swaps back':>10} {'made':>8} {'bound':>9} {'won':>5} {'median length':>13} {'median CPU s':>12}")
    for steps in (int(x) for x in args.near.split(",") if x):
        won = 0
        lengths: list[int] = []
        cpus: list[float] = []
        made: list[int] = []
        bounds: list[int] = []
        for deal in (1, 2, 3):
            position, done = near_goal(game, deal, steps, deal)
            made.append(done)
            bounds.append(position.lower_bound())
            t0 = time.process_time()
            solution = solve(position, time_limit=None, node_limit=20 * args.nodes)
            cpus.append(time.process_time() - t0)
            if solution.status == "won":
                won += 1
                lengths.append(len(solution.moves))
        length = f"{statistics.median(lengths):g}" if lengths else "-"
        print(f"{steps:>10} {','.join(map(str, made)):>8} {','.join(map(str, bounds)):>9} {won:>3}/3 {length:>13} "
              f"{statistics.median(cpus):>12.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
