"""Forest of Arden's planner (used by :func:`amber_patience.solvers.amber.solve` when it is in ``amber.PLANNERS``).

``docs/solver-arden.md`` has the reasoning and the measured figures. The plans are Arden's usual ones
(``amber.plans_for``: a focused search of the whole board, then the chain of goal groups with backtracking,
then the group plan); what differs:

* **A probe before the whole-board search.** The whole-board search wins a quarter of deals 1-20 and 3 of
  the 40 fresh deals 21-60 within its 6000 states; every other deal threw those states away. It now first
  runs ``PROBE`` states; only if its nearest position (cells minus cycles) is then within ``PROBE_NEAR`` of
  the goal does it run again from the deal, up to ``QUICK_CAP`` states (the probe's states are spent twice
  there: ``_search`` cannot be resumed; ``docs/solver-arden.md`` gives the one-line change that would avoid it).
* The chain and the group plan after it are ``amber``'s, with the same caps (``CHAIN_CAP``): :func:`_chain`
  runs the chain's first gathering with this module's settings (``FIRST``, ``FIRST_CHARGE``: by default
  ``amber``'s, and then it is exactly ``amber``'s chain plan) and the steps after it by
  :func:`amber._run_steps`, backtracking as it does. The knobs are there for measuring: the charged and the
  short-attempt first gatherings measured worse (``docs/solver-arden.md``).
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


def _whole(board: _Board, game: AmberGame, budget: _Budget) -> Path | None:
    """The whole-board focused search (``amber``'s first setting of the "whole" phase), probed first."""
    if QUICK_CAP <= 0:
        return None
    s = settings_for(game, "whole")[0]
    cells = list(range(board.n))
    if PROBE:
        nodes = budget.left(PROBE)
        if nodes <= 0:
            return None
        best: dict[str, Any] = {}
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


def _first_settings(game: AmberGame) -> list[Setting]:
    chosen = settings_for(game, "gather-groups") if FIRST is None else [
        replace(x, exact=True, lazy=True) for x in FIRST]
    return [replace(x, charge_other=FIRST_CHARGE) for x in chosen]


def _chain(board: _Board, game: AmberGame, budget: _Budget) -> Path | None:
    """The chain plan (``amber.plans_for``'s second plan) with the first gathering's settings of this module;
    the steps after it are ``amber``'s, backtracking as :func:`amber._run_steps` does."""
    steps = _plan_arden(game, board, "chain")
    first, rest = steps[0], steps[1:]
    solutions = _phase_solutions(board, board.start, _first_settings(game), budget,
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
    path = _whole(board, game, budget)
    if path is not None:
        return path
    if CHAIN_CAP > 0:
        sub = _Budget(budget.deadline, budget.left(CHAIN_CAP))
        path = _chain(board, game, sub)
        budget.used += sub.used
        if path is not None:
            return path
    return _run_plan(board, game, _plan_arden(game, board, "groups"), budget)
