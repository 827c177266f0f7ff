"""Mount Kolvir's planner (used by :func:`amber_patience.solvers.amber.solve` when it is in ``amber.PLANNERS``).

``docs/solver-kolvir.md`` has the reasoning and the measured figures. The plan is Kolvir's usual one
(``amber.plan_for``: gather the trumps into the top block and the lone cell and the minor cards into the
two halves of the bottom block, then sort each region); what differs:

* **The gathering charges swaps across cycles.** Solution length = lower bound + 2 x (swaps across two
  cycles). The gathering is ``amber``'s weighted best-first search whose cost ``g`` adds
  ``Setting.charge_lone`` for each merge through the lone cell and ``Setting.charge_other`` for each other
  merge.
* **Attempts in turn.** :func:`plan_kolvir` runs the attempts of ``ATTEMPTS`` (the gathering's settings) in
  turn until one wins, and returns its path as found: :func:`amber.solve` shortens it, as it does every other
  layout's (thirteenth session: the planner no longer shortens each attempt and tries a second one for length;
  the same median length, a third less CPU, and a quick hint need not wait for a shortening,
  ``docs/solver-kolvir.md``).
"""

from __future__ import annotations

import functools

from ..games.amber import AmberGame
from .amber import Setting, _Board, _Budget, _gather_kw, _phase, in_turn, plan_for, settings_for

Path = list[tuple[int, int]]


def _gathering(weight: float, lone: float, other: float) -> list[Setting]:
    """The gathering's settings (as ``amber``'s gather phase), merges through the lone cell charged ``lone``
    and other merges ``other`` (``Setting.charge_lone``, ``Setting.charge_other``)."""
    return [Setting(weight, 0.5, 3, 0.5, nodes, seed, exact=True, lazy=True, charge_lone=lone, charge_other=other)
            for nodes, seed in ((4000, None), (8000, 1))]


#: The attempts in turn: the gathering's settings.
ATTEMPTS: list[list[Setting]] = [_gathering(1.5, 3, 5), _gathering(2, 2, 8)]
#: Each attempt but the last has at most this many states (the last has the rest).
FIRST_NODES = 2000


def _attempt(board: _Board, game: AmberGame, settings: list[Setting], budget: _Budget) -> Path | None:
    """Kolvir's plan (``amber.plan_for``): gather with ``settings``, then sort each region."""
    steps = plan_for(game, board)
    gather, sorts = steps[0], steps[1:]
    found = _phase(board, board.start, settings, budget, **_gather_kw(board, gather.parts, list(range(board.n))))
    if found is None:
        return None
    path, at = found
    for step in sorts:
        cells = step.parts[0]
        if all(board.target[at[c]] == c for c in cells):
            continue
        done = _phase(board, at, settings_for(game, "region"), budget, cells=list(cells))
        if done is None:
            return None
        path, at = path + done[0], done[1]
    return path


def plan_kolvir(board: _Board, game: AmberGame, budget: _Budget, attempts: list[list[Setting]] | None = None
                ) -> Path | None:
    """The swaps that win Mount Kolvir from ``board.start``, or ``None``: the attempts of ``ATTEMPTS`` (or
    ``attempts``) in turn, each but the last with at most ``FIRST_NODES`` states (the last with the whole budget
    left), until one wins; its path as found (:func:`amber.solve` shortens it)."""
    attempts = ATTEMPTS if attempts is None else attempts
    last = len(attempts) - 1
    return in_turn([(functools.partial(_attempt, board, game, settings), None if k == last else FIRST_NODES)
                    for k, settings in enumerate(attempts)], budget)
