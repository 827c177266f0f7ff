"""Pattern of Amber's planner (used by :func:`amber_patience.solvers.amber.solve`).

For now it runs the general plan of ``solvers/amber.py`` (one search over the whole board).
"""

from __future__ import annotations

from ..games.amber import AmberGame
from .amber import _Board, _Budget, _plan


def plan_pattern(board: _Board, game: AmberGame, budget: _Budget) -> list[tuple[int, int]] | None:
    """The swaps (cell pairs) that win Pattern of Amber from ``board.start``, or ``None``."""
    return _plan(board, game, budget)
