"""Forest of Arden's planner as a schedule of capped plans (not registered in ``amber.PLANNERS``: measured only).

``docs/solver-arden.md`` ("Sixth session", section A) has the figures. Arden's plan in ``amber`` is the probed
whole-board search, then the chain (each goal group gathered against the cells left, in snake order, then
sorted and frozen) capped at ``amber.ARDEN_CHAIN_CAP`` states, then the group plan; ``SCHEDULE`` is that plan
by default. :func:`chain` builds two more chains: the other way along the snake (the last goal group gathered
first, :func:`reverse_chain`) and with the first two groups gathered as one region. Each stalls on other deals
than the chain, so a schedule runs them in turn, each within a cap. Every plan runs through ``amber``'s
:func:`~amber_patience.solvers.amber._run_plan`, and a capped plan expands the very same states as the uncapped
one up to its cap, so a schedule's states on a deal follow exactly from each plan's states-to-win alone: no
schedule measured beat the chain alone (every failed plan costs its whole cap). To try one, register the
planner at run time: ``amber.PLANNERS["arden"] = ("amber_arden", "plan_arden")`` and set ``SCHEDULE``.
"""

from __future__ import annotations

from ..games.amber import AmberGame
from .amber import ARDEN_CHAIN_CAP, ARDEN_QUICK_CAP, Step, _Board, _Budget, _plan_arden, _run_plan, arden_groups

Path = list[tuple[int, int]]


def chain(game: AmberGame, board: _Board, reverse: bool = False, together: int = 1) -> list[Step]:
    """Arden's chain (``amber._plan_arden(..., "chain")`` when ``reverse`` is false and ``together`` 1): each goal
    group in snake order (``reverse``: from the snake's end) gathered against the cells left, then sorted and
    frozen; the last group of that order only sorted. With ``together`` = k > 1 the first k groups are gathered
    as one region against the rest, then each into its own cells (the rest one more region), then each sorted;
    the chain goes on with the groups after them."""
    parts = arden_groups(game, board)
    if reverse:
        parts = parts[::-1]
    n = len(game.cells)
    steps: list[Step] = []
    left = set(range(n))
    if together > 1:
        first, parts = parts[:together], parts[together:]
        joined = tuple(sorted(c for part in first for c in part))
        left.difference_update(joined)
        rest = tuple(sorted(left))
        steps += [Step("gather", (joined, rest), "gather-groups"), Step("gather", (*first, rest), "gather-groups")]
        steps += [Step("sort", (part,)) for part in first]
        if not parts:
            return steps
    for part in parts[:-1]:
        left.difference_update(part)
        steps += [Step("gather", (part, tuple(sorted(left))), "gather-groups"), Step("sort", (part,))]
    return steps + [Step("sort", (parts[-1],))]


def reverse_chain(game: AmberGame, board: _Board) -> list[Step]:
    """Arden's chain the other way along the snake: the last goal group gathered first against every other cell
    and sorted, then the group before it from the cells left, and so on; the first group (with the top-left
    start card) only sorted."""
    return chain(game, board, reverse=True)


#: The plans that :func:`plan_arden` knows besides ``amber._plan_arden``'s: name -> (reverse, together).
CHAINS = {"reverse": (True, 1), "pair": (False, 2), "reverse-pair": (True, 2)}


def _steps(game: AmberGame, board: _Board, plan: str) -> list[Step]:
    if plan in CHAINS:
        reverse, together = CHAINS[plan]
        return chain(game, board, reverse, together)
    return _plan_arden(game, board, plan)


#: The plans in turn, each with a cap on its states (``None``: the rest of the budget): "whole" (the probed
#: whole-board search), "chain", "groups" (``amber._plan_arden``), and the chains of ``CHAINS``. A plan
#: that comes again starts afresh (its capped run is repeated: the schedule's costing counts it).
SCHEDULE: list[tuple[str, int | None]] = [("whole", ARDEN_QUICK_CAP), ("chain", ARDEN_CHAIN_CAP), ("groups", None)]


def plan_arden(board: _Board, game: AmberGame, budget: _Budget) -> Path | None:
    """The swaps that win Forest of Arden from ``board.start``, or ``None``: the plans of ``SCHEDULE`` in turn,
    each within its cap, until one wins."""
    for plan, cap in SCHEDULE:
        if cap is None:
            return _run_plan(board, game, _steps(game, board, plan), budget)
        sub = _Budget(budget.deadline, budget.left(cap))
        path = _run_plan(board, game, _steps(game, board, plan), sub)
        budget.used += sub.used
        if path is not None:
            return path
    return None
