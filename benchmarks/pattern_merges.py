"""Where Pattern of Amber's lines lose length: the merges of a gathering, and how far placing cards home gets.

    python benchmarks/pattern_merges.py [--deals 1-20] [--nodes 3000]
    python benchmarks/pattern_merges.py --frontier [--deals 1-5] [--cap 5000] [--depth 6] [--from 0,0.5,0.85]
    python benchmarks/pattern_merges.py --settings 3:2:2,3:1.25:2,2:1:2 [--seeds 1,2] [--deals 1-20] [--nodes 3000]
    python benchmarks/pattern_merges.py --clock 0.7 [--deals 1-12]

A line's length is the deal's lower bound plus twice its *merges* (swaps that join two cycles of the permutation to
the goal), and the block sorts after a gathering make none; so Pattern's length is in its gathering's merges.

By default, for each deal: one gathering as a draw for length makes it (``amber_pattern.balance_search`` with the
portfolio's first setting, merges costed by ``DRAW_MERGE_COST``, at most ``--nodes`` expansions), made again with
docks of fewer merges (``regather``) and the shorter kept. It prints the gathering's swaps, its merges by quarter of
its length, the cards out of their block at each quarter, the bound where it ends and the length after the sorts
(gathering + end bound); a summary gives the merges by quarter and the swaps and merges across blocks (exchanges)
and inside one (docks).

With ``--frontier``: the placement studied in the twenty-fifth session instead of a gathering. A card counts as
*placed* when it stands in its goal cell and is joined to a start card (or, in a block with no start card, to the
first card placed there) by rank-neighbours in their goal cells. Each step is a best-first search (key 2 x merges +
0.3 x swaps, at most ``--depth`` swaps and ``--cap`` states) for the fewest merges that place one more card. It
prints how many cards it placed, with how many swaps and merges, before a step found nothing. ``--from F,...``
starts it also from the position a fraction F of the way along the default gathering (0: the deal).

With ``--settings``: the draws' search with other settings (twenty-sixth session). For each deal, setting
(imbalance weight : weight : merge cost) and seed, one gathering as above within ``--nodes`` expansions. Per setting:
how many gathered, the median length (gathering + end bound) / bound of those, and the mean CPU s of a search; then
the median over the deals of the best line of them all (what unlimited draws of these settings would reach).

With ``--clock S``: the gathering is the planner's own, as a solve makes it with S seconds for length (one process,
no race: ``plan_pattern`` with the first win and its draws until the clock), the one of least length + end bound of
those it sorted (each regathered). The same lines as by default, and a summary of the medians over the deals of the
swaps and merges inside blocks (docks) and across them (exchanges): what a longer clock changes (thirtieth session).
"""

from __future__ import annotations

import argparse
import heapq
import statistics
import time
from collections.abc import Iterator, Sequence

from amber_patience.games import get_game
from amber_patience.games.base import Game
from amber_patience.solvers import amber_pattern as pattern
from amber_patience.solvers.amber import _Board, _Budget
from amber_patience.solvers.amber_shorten import _merges
from amber_solver import parse_range  # the same deal lists as the solver benchmark

Swap = tuple[int, int]


def gathering(board: _Board, game: object, nodes: int, seed: int = 1,
              setting: tuple[float, float, float] | None = None
              ) -> tuple[pattern.PatternPlanner, list[Swap], bytes] | None:
    """A draw's gathering from the deal (``setting``: imbalance weight, weight, merge cost; by default the
    portfolio's first setting, merges costed by ``DRAW_MERGE_COST``), regathered, the one of the least length + end
    bound kept, with the planner that made it; ``None`` if the search does not gather within ``nodes``
    expansions."""
    if setting is None:
        imb, weight, _, _ = pattern.BALANCE_PORTFOLIO[0]
        setting = (imb, weight, pattern.DRAW_MERGE_COST)
    imb, weight, cost = setting
    planner = pattern.PatternPlanner(board, game, seed=seed)  # type: ignore[arg-type]
    found = pattern.balance_search(planner, board.start, _Budget(None, nodes), imb, weight, merge_cost=cost)
    if found is None:
        return None
    options = [found]
    again = pattern.regather(planner, board.start, found[0])
    if again is not None:
        options.append(again)
    path, end = min(options, key=lambda o: len(o[0]) + board.bound(o[1]))
    return planner, path, end


def clock_gathering(board: _Board, game: object, clock: float
                    ) -> tuple[pattern.PatternPlanner, list[Swap], bytes] | None:
    """The gathering behind the line ``plan_pattern`` keeps with ``clock`` seconds for length (one process): of the
    gatherings it sorted (its first win and its draws), each regathered, the one of least length + end bound, with
    the planner that made it; ``None`` if it won nothing within 60 s. The gatherings are seen by wrapping the
    planner's ``_sort_best`` for the call."""
    seen: list[tuple[pattern.PatternPlanner, list[Swap], bytes]] = []
    sort_best = pattern._sort_best

    def watch(planner: pattern.PatternPlanner, gathered: tuple[list[Swap], bytes], budget: _Budget,
              best: list[Swap] | None = None) -> list[Swap] | None:
        seen.append((planner, *gathered))
        again = pattern.regather(planner, board.start, gathered[0])
        if again is not None:
            seen.append((planner, *again))
        return sort_best(planner, gathered, budget, best)

    pattern._sort_best = watch
    try:
        start = time.perf_counter()
        pattern.plan_pattern(board, game, _Budget(start + 60, None, start + clock))  # type: ignore[arg-type]
    finally:
        pattern._sort_best = sort_best
    return min(seen, key=lambda s: len(s[1]) + board.bound(s[2])) if seen else None


def placed(board: _Board, at: Sequence[int], anchors: set[int]) -> int:
    """The cards placed (see the module's doc): those in their goal cells joined to an anchor (a start cell, or the
    first card placed in a block with no start card) by rank-neighbours in theirs; plus one per block with no
    anchor that has some card in its goal cell."""
    ok = [False] * board.n
    stack = [c for c in anchors if board.target[at[c]] == c]
    for c in stack:
        ok[c] = True
    while stack:
        c = stack.pop()
        for m in board.nb[at[c]]:
            home = board.target[m]
            if not ok[home] and at[home] == m and home in board.adjset[c]:
                ok[home] = True
                stack.append(home)
    anchored = {board.block[c] for c in anchors}
    loose = {board.block[c] for c in range(board.n) if board.block[c] not in anchored and board.target[at[c]] == c}
    return sum(ok) + len(loose)


def frontier(board: _Board, at: Sequence[int], cap: int, depth: int) -> tuple[int, int, int, bool]:
    """Place cards home one at a time from ``at`` (the module's doc): (swaps, merges, cards placed, all placed)."""
    n = board.n
    cur = list(at)
    anchors = set(board.frozen)
    swaps = merges = 0
    score = placed(board, cur, anchors)
    while score < n:
        start = tuple(cur)
        heap: list[tuple[float, int, int, tuple[int, ...]]] = [(0.0, 0, 0, start)]
        seen = {start: 0.0}
        found: tuple[int, int, list[int]] | None = None
        states = 0
        while heap and states < cap:
            _, mg, sw, key = heapq.heappop(heap)
            states += 1
            here = list(key)
            if sw and placed(board, here, anchors) > score:
                found = (sw, mg, here)
                break
            if sw >= depth:
                continue
            pos = [0] * n
            for c, x in enumerate(here):
                pos[x] = c
            cyc = board.cycles(here)[0]
            for a, b in board.moves(here, pos):
                m2 = mg + (cyc[a] != cyc[b])
                nxt = here[:]
                nxt[a], nxt[b] = nxt[b], nxt[a]
                t = tuple(nxt)
                k = 2.0 * m2 + 0.3 * (sw + 1)
                if seen.get(t, k + 1) <= k:
                    continue
                seen[t] = k
                heapq.heappush(heap, (k, m2, sw + 1, t))
        if found is None:
            return swaps, merges, score, False
        sw, mg, cur = found
        swaps += sw
        merges += mg
        anchored = {board.block[c] for c in anchors}
        for c in range(n):
            if board.block[c] not in anchored and board.target[cur[c]] == c:
                anchors.add(c)
                anchored.add(board.block[c])
        score = placed(board, cur, anchors)
    return swaps, merges, score, True


def boards(game: Game, deals: Sequence[int]) -> Iterator[tuple[int, _Board, int]]:
    """The deals of ``deals`` not lost at the deal: each number, its board and its lower bound."""
    for number in deals:
        position = game.deal(number)
        if not position.lost_reason():  # type: ignore[attr-defined]
            board = _Board(position)  # type: ignore[arg-type]
            yield number, board, board.bound(board.start)


def settings_table(deals: Sequence[int], settings: Sequence[tuple[float, float, float]], seeds: Sequence[int],
                   nodes: int) -> None:
    """``--settings``: one gathering per deal, setting and seed (:func:`gathering`); per setting, the share
    gathered, the median length (gathering + end bound) / bound of those, and the mean CPU s of a search (failed ones
    too); then the median over the deals of the best of all of them."""
    game = get_game("pattern")
    found: dict[tuple[float, float, float], list[float]] = {s: [] for s in settings}
    cpu: dict[tuple[float, float, float], list[float]] = {s: [] for s in settings}
    best: list[float] = []
    for number, board, bound in boards(game, deals):
        ratios = []
        for setting in settings:
            for seed in seeds:
                t0 = time.process_time()
                gathered = gathering(board, game, nodes, seed, setting)
                cpu[setting].append(time.process_time() - t0)
                if gathered is not None:
                    _, path, end = gathered
                    found[setting].append((len(path) + board.bound(end)) / bound)
                    ratios.append(found[setting][-1])
        best.append(min(ratios, default=float("inf")))  # a deal none gathered counts as the longest
        print(f"deal {number}: bound {bound}, best {f'{best[-1]:.2f} x' if ratios else 'none'}, {len(ratios)} of "
              f"{len(settings) * len(seeds)} gathered", flush=True)
    print(f"{'imbalance:weight:merge cost':>28}  gathered  median length / bound  mean CPU s")
    for setting in settings:
        runs, ratios = cpu[setting], found[setting]
        median = f"{statistics.median(ratios):.3f}" if ratios else "-"
        print(f"{':'.join(f'{v:g}' for v in setting):>28}  {len(ratios):>4}/{len(runs):<4}  {median:>21}  "
              f"{statistics.fmean(runs):.2f}")
    if best:
        median = statistics.median(best)
        print(f"the best of every search, median over {len(best)} deals: "
              + (f"{median:.3f} x the bound" if median < float("inf") else "none (most deals gathered by no search)"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=parse_range, default=None)
    parser.add_argument("--nodes", type=int, default=3000, help="expansions of the gathering (default 3000)")
    parser.add_argument("--frontier", action="store_true", help="place cards home instead (see above)")
    parser.add_argument("--cap", type=int, default=5000, help="--frontier: states of a step (default 5000)")
    parser.add_argument("--depth", type=int, default=6, help="--frontier: swaps of a step (default 6)")
    parser.add_argument("--from", dest="fractions", default="0",
                        help="--frontier: start where this fraction of the gathering is made, comma-separated")
    parser.add_argument("--settings", default=None, metavar="IMB:WEIGHT:COST,...",
                        help="one gathering per setting and seed instead (see above)")
    parser.add_argument("--seeds", default="1", help="--settings: the seeds, comma-separated (default 1)")
    parser.add_argument("--clock", type=float, default=None, metavar="S",
                        help="the planner's own gathering with S seconds for length instead (see above)")
    args = parser.parse_args(argv)
    if args.clock is not None and (args.clock <= 0 or args.frontier or args.settings):
        parser.error("--clock takes seconds above 0, and goes with neither --frontier nor --settings")
    deals = args.deals or parse_range("1-5" if args.frontier else "1-20")
    if args.settings:
        try:
            settings = [tuple(float(v) for v in one.split(":")) for one in args.settings.split(",")]
            seeds = [int(v) for v in args.seeds.split(",")]
        except ValueError:
            parser.error("--settings is IMB:WEIGHT:COST,... (numbers) and --seeds whole numbers")
        if any(len(one) != 3 for one in settings):
            parser.error("each of --settings is IMB:WEIGHT:COST")
        settings_table(deals, settings, seeds, args.nodes)  # type: ignore[arg-type]
        return 0
    game = get_game("pattern")
    quarters = [0, 0, 0, 0]
    kinds = {"exchanges": [0, 0], "docks": [0, 0]}
    ratios = []
    per_deal: list[tuple[int, int, int, int]] = []  # docks' swaps and merges, exchanges' swaps and merges
    for number, board, bound in boards(game, deals):
        t0 = time.process_time()
        if args.clock is not None:
            gathered = clock_gathering(board, game, args.clock)
        else:
            gathered = gathering(board, game, args.nodes)
        if gathered is None:
            print(f"deal {number}: not gathered within {args.nodes} expansions" if args.clock is None
                  else f"deal {number}: not won", flush=True)
            continue
        planner, path, end = gathered
        if args.frontier:
            for fraction in (float(f) for f in args.fractions.split(",")):
                k = int(fraction * len(path))
                at = list(pattern._apply(board.start, path[:k]))
                t1 = time.process_time()
                swaps, merges, count, done = frontier(board, at, args.cap, args.depth)
                what = f"all placed, length {k + swaps} = {(k + swaps) / bound:.2f} x" if done else "stuck"
                print(f"deal {number} from swap {k} of {len(path)}: {count} placed in {swaps} swaps, {merges} merges;"
                      f" {what}; {time.process_time() - t1:.1f} s CPU", flush=True)
            continue
        states = [board.start]
        for a, b in path:
            states.append(pattern._apply(states[-1], [(a, b)]))
        flags = _merges(board, states, path)
        out = planner.out
        by_quarter = [0, 0, 0, 0]
        outs = [out(board.start)]
        mine = {"exchanges": [0, 0], "docks": [0, 0]}
        for i, ((a, b), merge) in enumerate(zip(path, flags, strict=True)):
            by_quarter[4 * i // len(path)] += merge
            for count in (kinds, mine):
                kind = count["exchanges" if board.block[a] != board.block[b] else "docks"]
                kind[0] += 1
                kind[1] += merge
            if (i + 1) in {len(path) * q // 4 for q in (1, 2, 3)}:
                outs.append(out(states[i + 1]))
        length = len(path) + board.bound(end)
        ratios.append(length / bound)
        per_deal.append((*mine["docks"], *mine["exchanges"]))
        quarters = [q + m for q, m in zip(quarters, by_quarter, strict=True)]
        print(f"deal {number}: bound {bound}, gathering {len(path)} swaps, merges by quarter {by_quarter}, "
              f"cards out {outs}, end bound {board.bound(end)}, length {length} = {length / bound:.2f} x; "
              f"{time.process_time() - t0:.1f} s CPU", flush=True)
    if not args.frontier and ratios:
        ex, dk = kinds["exchanges"], kinds["docks"]
        print(f"merges by quarter {quarters}; exchanges {ex[0]} swaps, {ex[1]} merges ({ex[1] / max(ex[0], 1):.0%}); "
              f"docks {dk[0]} swaps, {dk[1]} merges ({dk[1] / max(dk[0], 1):.0%}); "
              f"median length {statistics.median(ratios):.2f} x the bound")
        medians = [statistics.median(deal[i] for deal in per_deal) for i in range(4)]
        print(f"medians over {len(per_deal)} deals: docks {medians[0]:g} swaps, {medians[1]:g} merges; exchanges "
              f"{medians[2]:g} swaps, {medians[3]:g} merges; length {statistics.median(ratios):.3f} x the bound")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
