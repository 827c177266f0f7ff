"""Mount Kolvir's planner (used by :func:`amber_patience.solvers.amber.solve` when it is in ``amber.PLANNERS``).

``docs/solver-kolvir.md`` has the reasoning and the measured figures. The plan is Kolvir's usual one
(``amber.plan_for``: gather the trumps into the top block and the lone cell and the minor cards into the
two halves of the bottom block, then sort each region); what differs:

* **The gathering charges swaps across cycles.** Solution length = lower bound + 2 x (swaps across two
  cycles). The gathering is ``amber``'s weighted best-first search whose cost ``g`` adds
  ``Setting.charge_lone`` for each merge through the lone cell and ``Setting.charge_other`` for each other
  merge.
* **Attempts, the shortest kept.** :func:`plan_kolvir` runs the attempts of ``ATTEMPTS`` (the gathering's
  settings) and shortens each solution (``amber_shorten.shorten``); a second attempt runs only
  when the first solution is longer than ``GOOD`` x the lower bound and it was cheap.
"""

from __future__ import annotations

import time

from ..games.amber import AmberGame
from .amber import Setting, _Board, _Budget, _gather_kw, _phase, plan_for, settings_for
from .amber_shorten import shorten

Path = list[tuple[int, int]]


def _gathering(weight: float, lone: float, other: float) -> list[Setting]:
    """The gathering's settings (as ``amber``'s gather phase), merges through the lone cell charged ``lone``
    and other merges ``other`` (``Setting.charge_lone``, ``Setting.charge_other``)."""
    return [Setting(weight, 0.5, 3, 0.5, nodes, seed, exact=True, lazy=True, charge_lone=lone, charge_other=other)
            for nodes, seed in ((4000, None), (8000, 1))]


#: The attempts in turn: the gathering's settings.
ATTEMPTS: list[list[Setting]] = [_gathering(1.5, 3, 5), _gathering(2, 2, 8)]
#: While no attempt has won, each but the last has at most this many states (the last has the rest).
FIRST_NODES = 2000
#: After a win, the next attempt runs only while the shortest solution is longer than this many times the lower
#: bound and fewer states than ``MORE_BELOW`` were spent so far; it has at most ``MORE_NODES`` states.
GOOD = 2.0
MORE_BELOW = 3000
MORE_NODES = 6000


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
    """The swaps that win Mount Kolvir from ``board.start``, or ``None``.

    The attempts of ``ATTEMPTS`` in turn, each shortened (:func:`~amber_shorten.shorten`): while none has
    won, each has at most ``FIRST_NODES`` states (the last one the whole budget left); after a win, the next
    runs only while the shortest solution is longer than ``GOOD`` x the lower bound and fewer than
    ``MORE_BELOW`` states were spent, with at most ``MORE_NODES`` states. The shortest solution is returned."""
    bound = board.bound(board.start)
    best: Path | None = None
    attempts = ATTEMPTS if attempts is None else attempts
    for k, settings in enumerate(attempts):
        if best is None:
            cap = None if k == len(attempts) - 1 else FIRST_NODES
        elif len(best) <= GOOD * bound or budget.used >= MORE_BELOW:
            break
        else:
            cap = MORE_NODES
        if cap is None:
            path = _attempt(board, game, settings, budget)  # the whole budget left
        else:
            sub = _Budget(budget.deadline, budget.left(cap))
            path = _attempt(board, game, settings, sub)
            budget.used += sub.used
        if path is None:
            continue
        deadline = None if budget.deadline is None else max(budget.deadline, time.perf_counter() + 0.5)
        path = shorten(board, path, deadline, game.name)
        if best is None or len(path) < len(best):
            best = path
    return best
