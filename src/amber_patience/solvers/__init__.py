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
from collections.abc import Iterator
from contextlib import contextmanager
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


#: What a family's ``solve`` is told for a quick solution (``solve(..., quick=True)``: a hint needs only a
#: winning line's first move): family -> keyword arguments. The Amber solver then shortens only the first
#: swaps of the path it found (``docs/solver.md``, "Eighth session: quick hints"); :func:`finish` makes
#: the solution whole afterwards.
QUICK_OPTIONS: dict[str, dict[str, Any]] = {"amber": {"shorten_first": 32}}
#: The families whose solver spends time on a shorter line after its first win, which :func:`solve`'s
#: ``length_seconds`` bounds (the Amber solver's draws for length: Forest of Arden's and Pattern of Amber's).
LENGTH_FAMILIES = frozenset({"amber"})


@contextmanager
def _collector_off() -> Iterator[None]:
    """The cyclic garbage collector off for a solver's run (on again after, if it was on): the searches build
    millions of small tuples and no reference cycles, so the collector would scan the growing heap again and
    again (about 7% of Arden's solve CPU) and find nothing."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def solve(position: Position, *, time_limit: float | None = 10.0, node_limit: int | None = None,
          quick: bool = False, length_seconds: float | None = None) -> Solution:
    """Solve ``position`` with its family's solver, and check the result by replaying it.

    ``quick``: the line may be left longer than the solver makes it (its first move is a good hint;
    :func:`is_quick` then says so): :func:`finish` makes it what ``solve`` returns without ``quick`` (on the Amber
    layouts, a line as short or longer: a quick solve makes no draws for length and takes the first raced plan's
    line).

    ``length_seconds`` (the families of :data:`LENGTH_FAMILIES` only; not with ``quick``, which makes no draws for
    length): how many seconds after the start the solver may go on looking for a shorter line, at the latest (None:
    the solver's default, 0.7 s on the Amber layouts); the time limit stops it too. More time, a shorter line on
    Pattern of Amber (measured in ``docs/solver.md``)."""
    family = position.game.family
    module = importlib.import_module(f"{__name__}.{family}")
    options = QUICK_OPTIONS.get(family, {}) if quick else {}
    if length_seconds is not None:
        if family not in LENGTH_FAMILIES:
            raise GameError(f"the {position.game.name} solver spends no time on a shorter line: "
                            "length_seconds is for the Amber layouts")
        if quick:
            raise GameError("a quick solve makes no draws for length: length_seconds needs quick=False")
        options = {**options, "length_seconds": length_seconds}
    with _collector_off():
        solution: Solution = module.solve(position, time_limit=time_limit, node_limit=node_limit, **options)
    if solution.status == "won":
        end = replay(position, solution.moves)
        if not end.is_won():
            raise SolutionError("the solver's moves are all legal but do not win the game")
    return solution


def is_quick(solution: Solution) -> bool:
    """Whether ``solution`` is a quick one (``solve(quick=True)``) that :func:`finish` may still shorten."""
    return solution.status == "won" and "shortened_first" in solution.stats


def finish(position: Position, solution: Solution, *, time_limit: float | None = 10.0) -> Solution:
    """A quick solution of ``position`` (``solve(quick=True)``) made what :func:`solve` returns without
    ``quick`` (the family's ``finish``: the Amber solver shortens the path it found whole; that path was found
    without draws for length, and where plans race it is the first plan's), replayed by the rules engine; any other
    solution as it is."""
    if not is_quick(solution):
        return solution
    module = importlib.import_module(f"{__name__}.{position.game.family}")
    with _collector_off():
        whole: Solution = module.finish(position, solution, time_limit=time_limit)
    if not replay(position, whole.moves).is_won():
        raise SolutionError("the shortened solution's moves are all legal but do not win the game")
    return whole


def shorten_line(position: Position, moves: list[Move], *, time_limit: float | None = 10.0) -> list[Move]:
    """A winning line from ``position`` shortened whole by its family's solver (``shorten_line``: what
    :func:`solve` does to the path it finds), replayed by the rules engine; never longer than ``moves``. The
    same moves for a family that does not shorten."""
    module = importlib.import_module(f"{__name__}.{position.game.family}")
    shorten = getattr(module, "shorten_line", None)
    if shorten is None or not moves:
        return list(moves)
    with _collector_off():
        shorter: list[Move] = list(shorten(position, moves, time_limit=time_limit))
    if not replay(position, shorter).is_won():
        raise SolutionError("the shortened line's moves are all legal but do not win the game")
    return shorter if len(shorter) <= len(moves) else list(moves)


def hint(position: Position, *, time_limit: float | None = 0.5) -> Move | None:
    """The first move of a winning line (a quick solution's: ``solve(quick=True)``), or ``None`` if none was
    found in the time."""
    solution = solve(position, time_limit=time_limit, quick=True)
    return solution.moves[0] if solution.status == "won" and solution.moves else None
