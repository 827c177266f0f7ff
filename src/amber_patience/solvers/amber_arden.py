"""Forest of Arden's planner (used by :func:`amber_patience.solvers.amber.solve` when it is in ``amber.PLANNERS``).

``docs/solver-arden.md`` has the reasoning and the measured figures. The plans are Arden's usual ones
(``amber.plans_for``: a focused search of the whole board, then the chain of goal groups with backtracking,
then the group plan); what differs:

* **A probe before the whole-board search.** The whole-board search wins about one deal in four, in
  3000-6000 states, and the other deals threw their 6000 states away. It now first runs ``PROBE`` states;
  the deals it will win are the ones whose nearest position (cells minus cycles) is already within
  ``PROBE_NEAR`` of the goal by then; only those run it again, up to ``QUICK_CAP`` states (the probe's states
  are spent twice there: the search cannot be resumed).
* the chain and the group plan after it are ``amber``'s (:func:`amber._run_steps`), with the same caps.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..games.amber import AmberGame
from .amber import (
    ARDEN_CHAIN_CAP,
    BACKTRACK_CAP,
    GROWTH,
    Setting,
    _Board,
    _Budget,
    _gather_kw,
    _phase_solutions,
    _plan_arden,
    _run_plan,
    _run_steps,
    _search,
    settings_for,
)

Path = list[tuple[int, int]]

#: States of the whole-board probe (0: no probe, the whole-board search always runs to ``QUICK_CAP``).
PROBE = 1500
#: The whole-board search goes on after the probe only if its nearest position was at most this far from
#: the goal (cells minus cycles).
PROBE_NEAR = 28
#: States of the whole-board search when it goes on (the probe's included: it runs again from the deal; 0: no
#: whole-board search at all).
QUICK_CAP = 6000


def _whole(board: _Board, game: AmberGame, budget: _Budget, best: dict[str, Any] | None = None) -> Path | None:
    """The whole-board focused search (``amber``'s first setting of the "whole" phase), probed first; ``best``
    gets the probe's nearest position (``_search``'s ``best``)."""
    if QUICK_CAP <= 0:
        return None
    s = settings_for(game, "whole")[0]
    cells = list(range(board.n))
    if PROBE:
        nodes = budget.left(PROBE)
        if nodes <= 0:
            return None
        best = {} if best is None else best
        path, _, used = _search(board, board.start, s, budget.deadline, nodes, cells=cells, best=best)
        budget.used += used
        if path is not None:
            return path
        if used < nodes or best.get("near", board.n) > PROBE_NEAR:
            return None
    nodes = budget.left(QUICK_CAP)
    if nodes <= 0:
        return None
    path, _, used = _search(board, board.start, s, budget.deadline, nodes, cells=cells)
    budget.used += used
    return path


#: States of the chain plan before the group plan takes over (0: the group plan alone).
CHAIN_CAP = ARDEN_CHAIN_CAP
#: The first gathering's settings (``None``: ``amber``'s "gather-groups"); after them the last one again with
#: new seeds and doubled budgets, as in every phase.
FIRST: list[Setting] | None = None
#: Extra cost of a merge (a swap across two cycles) in the first gathering (``Setting.charge_other``).
FIRST_CHARGE = 0.0
#: The chain starts from the probe's nearest position (its path first) instead of from the deal.
CHAIN_FROM_PROBE = False


def _first_settings(game: AmberGame) -> list[Setting]:
    chosen = settings_for(game, "gather-groups") if FIRST is None else [
        replace(x, exact=True, lazy=True) for x in FIRST]
    return [replace(x, charge_other=FIRST_CHARGE) for x in chosen]


def _chain(board: _Board, game: AmberGame, budget: _Budget, start: bytes | None = None) -> Path | None:
    """The chain plan (``amber.plans_for``'s second plan) with the first gathering's settings of this module;
    the steps after it are ``amber``'s, backtracking as :func:`amber._run_steps` does. From ``start`` (default:
    the deal)."""
    steps = _plan_arden(game, board, "chain")
    first, rest = steps[0], steps[1:]
    solutions = _phase_solutions(board, board.start if start is None else start, _first_settings(game), budget,
                                 **_gather_kw(board, first.parts, list(range(board.n))))
    cap = BACKTRACK_CAP
    for path, end in solutions:
        sub = _Budget(budget.deadline, budget.left(cap))
        tail = _run_steps(board, game, rest, end, frozenset(), sub)
        budget.used += sub.used
        if tail is not None:
            return path + tail
        cap = int(cap * GROWTH)
    return None


def plan_arden(board: _Board, game: AmberGame, budget: _Budget) -> Path | None:
    """The swaps that win Forest of Arden from ``board.start``, or ``None``: the probed whole-board search,
    then the plans after ``amber.plans_for``'s first (the chain, capped, then the group plan)."""
    best: dict[str, Any] = {}
    path = _whole(board, game, budget, best)
    if path is not None:
        return path
    if CHAIN_CAP > 0:
        sub = _Budget(budget.deadline, budget.left(CHAIN_CAP))
        if CHAIN_FROM_PROBE and best.get("path"):
            path = _chain(board, game, sub, best["at"])
            path = None if path is None else best["path"] + path
        else:
            path = _chain(board, game, sub)
        budget.used += sub.used
        if path is not None:
            return path
    return _run_plan(board, game, _plan_arden(game, board, "groups"), budget)
