"""Where Forest of Arden's search spends its states: each raced plan and each draw for length alone, and the stalls.

    python benchmarks/arden_stalls.py [--deals 1-40] [--nodes 60000] [--plans chain reverse-chain] [--verbose]
    python benchmarks/arden_stalls.py --finish 4000      # also: from each stall near the sorted board, sort it whole

Each deal is solved by each of Arden's raced plans (``amber.arden_races``) alone, in this process, within ``--nodes``
states and no time limit, so that the figures do not depend on the machine's load. Every path found is shortened and
checked swap by swap with the move rule, from the deal to the goal.

Per plan it prints the deals won, the states (median and total) and the length against the lower bound. It also
prints where the states went. A *stall* is an attempt of a gathering (``amber._phase_solutions``) that stopped at its
cap within ``ENDGAME_NEAR`` cards of its goal. The end game then starts from the nearest position seen. The summary
gives the states of the stalled attempts, the states of their end games, and how many end games finished.

With ``--finish N``, every stall whose position is within ``--finish-bound`` (20) swaps of the sorted board by the
lower bound is also given, outside the plan (which goes on as without it), a search of at most N states that sorts the
whole board from there: weight 3, no group term, every cell but the start cards'. The summary counts those tried and
finished; each finish found is checked with the move rule.

Besides the raced plans, each racer's draws for length (``amber.arden_draws``: its chain with less greedy gatherings,
one draw a weight of ``amber.ARDEN_DRAW_WEIGHTS``) run alone as plans of their own: ``chain-draw``, ``chain-draw-2``
and so on, and ``reverse-chain-draw``, ``reverse-chain-draw-2`` and so on (one name a weight).

Then the race: per deal, the smaller of the raced plans' states (the draws' left out). That stands in for the race
on two cores, whose winner is the plan that finishes first. It gives the median, the 95th percentile (nearest rank)
and the total, a deal won by no plan counting as ``--nodes``. The last line is the median over the deals of the
shortest line of the plans run, each shortened: what a race of all of them, each shortening its own line and the
shortest kept, would reach at best.

The fifteenth session's figures (deals 1-40) are in ``docs/solver.md``, "Fifteenth session".
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from typing import Any

from amber_patience.games import get_game
from amber_patience.solvers import amber, amber_shorten
from amber_patience.solvers.amber import _Board, _Budget

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from amber_solver import parse_range, percentile  # the same deal lists and p95 as the solver benchmark


@dataclass
class Stalls:
    """What the gatherings of one plan's run did near their goals."""

    stalls: int = 0  #: attempts stopped at their cap within ``ENDGAME_NEAR`` of their goal
    stalled_states: int = 0  #: the states of those attempts
    end_games: int = 0  #: end games run from them (none when the plan's budget was spent)
    end_game_states: int = 0
    finished: int = 0  #: end games that reached the goal of their gathering
    near: list[int] = field(default_factory=list)  #: how near each stall came (cards outside their region)
    finish_tried: int = 0  #: stalls near the sorted board given a whole-board sort (``--finish``)
    finish_won: int = 0  #: whole-board sorts that reached the goal
    finish_states: int = 0

    def add(self, other: Stalls) -> None:
        """Count ``other``'s stalls and end games in with these."""
        for count in fields(self):
            setattr(self, count.name, getattr(self, count.name) + getattr(other, count.name))


#: ``--finish``: the whole-board sort tried from a stall: Arden's region sort with the happiness term (eta 0.5); its
#: node budget is the option's.
FINISH = replace(amber.settings_for(get_game("arden"), "region")[0], eta=0.5)


Search = Callable[..., tuple[list[tuple[int, int]] | None, bytes, int]]  #: ``amber._search``'s shape


def finish_stall(search: Search, board: _Board, at: bytes, nodes: int, seen: Stalls) -> None:
    """Sort the whole board from the stall position ``at`` within ``nodes`` states and count it in ``seen``."""
    cells = [c for c in range(board.n) if not board.fixed[c]]
    path, _end, used = search(board, at, FINISH, None, nodes, cells=cells)
    seen.finish_tried += 1
    seen.finish_states += used
    if path is not None:
        if not amber_shorten._replays(board, at, path, bytes(board.goal)):
            raise SystemExit("a whole-board sort from a stall does not replay to the goal")
        seen.finish_won += 1


@contextmanager
def watching_stalls(finish: int = 0, finish_bound: int = 20) -> Iterator[Stalls]:
    """Count the stalls and end games of the searches run inside the ``with``: ``amber._search`` is wrapped for its
    duration (the module looks it up by name at every call), and what it returns is unchanged. With ``finish``,
    every stall within ``finish_bound`` of the sorted board is also given :func:`finish_stall` (outside the plan)."""
    search = amber._search
    seen = Stalls()
    last_stall: list[bytes] = []

    def wrapped(board: _Board, start: bytes, s: amber.Setting, deadline: float | None, nodes: int,
                **kw: Any) -> tuple[list[tuple[int, int]] | None, bytes, int]:
        path, end, used = search(board, start, s, deadline, nodes, **kw)
        best = kw.get("best")
        if kw.get("focus") and s.weight == amber.ENDGAME_WEIGHT and last_stall and last_stall[-1] == start:
            seen.end_games += 1
            seen.end_game_states += used
            seen.finished += path is not None
            last_stall.clear()
        elif best and path is None and 0 < best.get("near", 0) <= amber.ENDGAME_NEAR and not best.get("probed"):
            seen.stalls += 1
            seen.stalled_states += used
            seen.near.append(best["near"])
            last_stall[:] = [best["at"]]
            if finish and board.bound(best["at"]) <= finish_bound:
                finish_stall(search, board, best["at"], finish, seen)
        return path, end, used

    amber._search = wrapped
    try:
        yield seen
    finally:
        amber._search = search


def share(part: int, whole: int) -> str:
    """``part`` as a percentage of ``whole``."""
    return f"{100 * part / whole:.0f}%" if whole else "-"


def plans_to_run(game: Any, board: _Board) -> dict[str, amber.Plans]:
    """Arden's raced plans (``amber.arden_races``) and each racer's draws for length alone (``amber.arden_draws``),
    named after their racer with ``-draw``."""
    plans = amber.arden_races(game, board)
    for name, draws in amber.arden_draws(game, board).items():
        for k, steps in enumerate(draws):
            plans[f"{name}-draw" + (f"-{k + 1}" if k else "")] = [(steps, None)]
    return plans


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=parse_range, default=parse_range("1-40"))
    parser.add_argument("--nodes", type=int, default=60000, help="states each plan may expand per deal")
    parser.add_argument("--plans", nargs="+", default=None,
                        help="the raced plans and draws to run (default: all of them: chain, reverse-chain, "
                             "chain-draw, chain-draw-2, ..., reverse-chain-draw, ...: one draw a weight)")
    parser.add_argument("--finish", type=int, default=0, metavar="N",
                        help="also sort the whole board from each stall near it, within N states (0: no)")
    parser.add_argument("--finish-bound", type=int, default=20, help="how near (lower bound) a stall must be")
    parser.add_argument("--verbose", action="store_true", help="a line per deal and plan")
    args = parser.parse_args(argv)
    if args.nodes < 1:
        parser.error("--nodes must be at least 1")
    if args.finish < 0 or args.finish_bound < 0:
        parser.error("--finish and --finish-bound must not be negative")
    game = get_game("arden")
    first = _Board(game.deal(args.deals[0]))  # the same names for every deal
    known, racing = list(plans_to_run(game, first)), set(amber.arden_races(game, first))
    plans = args.plans or known
    unknown = [name for name in plans if name not in known]
    if unknown:
        parser.error(f"no plan named {', '.join(unknown)}; Arden's plans: {', '.join(known)}")
    gc.disable()  # as solvers.solve runs the search
    contiguous = args.deals == list(range(args.deals[0], args.deals[-1] + 1))
    label = f"{args.deals[0]}..{args.deals[-1]}" if contiguous else ", ".join(map(str, args.deals))
    print(f"Forest of Arden, deals {label} ({len(args.deals)}), each plan alone within "
          f"{args.nodes} states; stalls: gathering attempts stopped within {amber.ENDGAME_NEAR} of their goal")
    states: dict[str, dict[int, int | None]] = {name: {} for name in plans}
    lengths: dict[str, list[float]] = {name: [] for name in plans}
    totals = {name: Stalls() for name in plans}
    best: list[float] = []  # per deal won by some plan, the shortest of the plans' lines (length / bound)
    for deal in args.deals:
        board = _Board(game.deal(deal))
        races = plans_to_run(game, board)
        shortest: dict[str, float] = {}
        for name in plans:
            budget = _Budget(None, args.nodes)
            began = time.process_time()
            with watching_stalls(args.finish, args.finish_bound) as seen:
                path = amber._plan(board, game, budget, plans=races[name])
            cpu = time.process_time() - began
            if path is not None:
                short = amber_shorten.shorten(board, path, None, game.name)
                goal = bytes(board.goal)
                if not all(amber_shorten._replays(board, board.start, line, goal) for line in (path, short)):
                    raise SystemExit(f"deal {deal}, {name}: a path does not replay to the goal")
                lengths[name].append(len(short) / max(1, board.bound(board.start)))
                shortest[name] = lengths[name][-1]
            states[name][deal] = budget.used if path is not None else None
            totals[name].add(seen)
            if args.verbose:
                print(f"  deal {deal} {name}: {'won' if path is not None else 'not won'}, {budget.used} states, "
                      f"{cpu:.2f} CPU s, {seen.stalls} stalls (near {seen.near}), {seen.finished} of "
                      f"{seen.end_games} end games finished", flush=True)
            gc.collect()
        if shortest:
            best.append(min(shortest.values()))
    for name in plans:
        used = [args.nodes if n is None else n for n in states[name].values()]
        won = sum(n is not None for n in states[name].values())
        t = totals[name]
        whole = sum(used)
        length = f"{statistics.median(lengths[name]):.3f}" if lengths[name] else "-"
        print(f"{name}: won {won} of {len(used)}; states median {statistics.median(used):g}, total {whole}; "
              f"length / bound median {length}")
        print(f"  {t.stalls} stalls, {t.stalled_states} states ({share(t.stalled_states, whole)}); {t.end_games} end "
              f"games, {t.end_game_states} states ({share(t.end_game_states, whole)}), {t.finished} finished; stalls "
              f"within 2 of the goal: {sum(1 for n in t.near if n <= 2)}")
        if args.finish:
            print(f"  whole-board sorts from stalls within {args.finish_bound} of the sorted board: {t.finish_won} of "
                  f"{t.finish_tried} finished, {t.finish_states} states (not counted in the plan's)")
    raced = [name for name in plans if name in racing] or plans
    race = [min(args.nodes if states[name][deal] is None else states[name][deal] for name in raced)
            for deal in args.deals]
    neither = [deal for deal in args.deals if all(states[name][deal] is None for name in raced)]
    print(f"race (the smaller per deal): states median {statistics.median(race):g}, p95 {percentile(race, 0.95):g}, "
          f"total {sum(race)}; won by no plan: {', '.join(map(str, neither)) or '-'}")
    if best:
        print(f"the shortest line of the plans per deal: length / bound median {statistics.median(best):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
