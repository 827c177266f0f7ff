"""Solvers: one module a game family (``solvers/<family>.py``), all behind one API.

A family module exposes ``solve(position, *, time_limit, node_limit) -> Solution``
and uses only the public API of its game module. Every solution is replayed by the
rules engine before it is returned (:func:`solve` does that), so none is trusted
unchecked.
"""

from __future__ import annotations

import gc
import importlib
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from ..games.base import GameError, Move, Position

#: ``won``: ``moves`` win the game; ``lost``: proved that no sequence of moves wins;
#: ``unknown``: the budget ran out before either was found.
Status = Literal["won", "lost", "unknown"]


@dataclass
class Solution:
    status: Status
    moves: list[Move] = field(default_factory=list)
    #: Figures about the search: nodes, seconds, and family-specific ones (e.g. lower_bound, difficulty).
    stats: dict[str, Any] = field(default_factory=dict)


class SolutionError(GameError):
    """A solver produced moves that the rules engine does not accept (a bug in the solver)."""


def set_bits(mask: int) -> list[int]:
    """The set bits of ``mask`` (cells, slots ... of a bit mask), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cpu_seconds() -> float:
    """CPU seconds of this process and of its child processes that have ended: a solve that races plans
    in processes of their own (the Amber solver's ``RACES``) spends CPU there too."""
    try:
        import resource
    except ImportError:  # not on Unix: no child processes are raced there either (they need fork)
        return time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def replay(position: Position, moves: list[Move]) -> Position:
    """Play ``moves`` from ``position`` through the rules engine; every move is checked."""
    for i, move in enumerate(moves):
        try:
            position = position.play(move)
        except GameError as exc:
            raise SolutionError(f"move {i + 1} of the solution is refused: {exc}") from exc
    return position


def solve(position: Position, *, time_limit: float | None = 10.0, node_limit: int | None = None) -> Solution:
    """Solve ``position`` with its family's solver, and check the result by replaying it."""
    module = importlib.import_module(f"{__name__}.{position.game.family}")
    # The searches build millions of small tuples and no reference cycles: the cyclic garbage collector
    # would scan the growing heap again and again (about 7% of Arden's solve CPU) and find nothing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        solution: Solution = module.solve(position, time_limit=time_limit, node_limit=node_limit)
    finally:
        if collecting:
            gc.enable()
    if solution.status == "won":
        end = replay(position, solution.moves)
        if not end.is_won():
            raise SolutionError("the solver's moves are all legal but do not win the game")
    return solution


def hint(position: Position, *, time_limit: float | None = 0.5) -> Move | None:
    """The first move of a winning line, or ``None`` if none was found in the time."""
    solution = solve(position, time_limit=time_limit)
    return solution.moves[0] if solution.status == "won" and solution.moves else None
