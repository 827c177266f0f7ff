"""Winning lines found by the solvers, kept so that hints along them are instant.

A *line* is a list of moves that wins from a position. Once the solver has found one, every
position along it has its answer too: the rest of the line. :class:`LineCache` keeps lines by
exact position (in memory, and in the SQLite store when it is given one, so that ``amber hint``
run again on a later position of the same game answers at once), and :func:`winning_line` asks
the cache before the solver. :class:`Analyst` looks for a line in a background thread from the
newest position it is shown (the web server shows it every position a game reaches), so that the
hint is usually ready before the player asks.

A first hint need not wait for the whole line to be shortened: ``winning_line(..., quick=True)`` asks the
solver for a quick line (``solve(quick=True)``: the Amber solver shortens only its first swaps) and answers
with it at once; the line is shortened whole afterwards (:class:`QuickLine`: by the caller, or by whoever
needs the line next), and only whole lines are kept: the solution shown from a position is as short as
``solve`` makes it (``docs/solver.md``, "Eighth session: quick hints").

The cache also keeps the solver's difficulty figure of every position it won from (:meth:`LineCache.put_figure`,
:meth:`LineCache.keep_figure`, :meth:`LineCache.figure`; :func:`winning_line` puts it there), in memory and in the
store: the web server reads a deal's difficulty there, whichever solve of its start position found it (a deal asked
for by level, the analyst's first look, a hint or the solution), also after a restart.

Lines enter the cache only after the rules engine replayed them (:func:`amber_patience.solvers.solve`
does); a line read back from the store is replayed again before it is used, so a damaged file costs
a solver run, never a wrong hint.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..games.base import GameError, Move, Position

if TYPE_CHECKING:
    from ..store import Store
    from . import Solution

log = logging.getLogger(__name__)

#: Positions kept in memory (the oldest used are forgotten first).
MEMORY_SIZE = 20_000


def position_key(position: Position) -> str:
    """The key of an exact position: the SHA-256 of its JSON (keys sorted, no spaces)."""
    text = json.dumps(position.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _along(position: Position, moves: list[Move]) -> Iterator[tuple[str, Position]]:
    """The key and position before each move of ``moves`` (every move checked by the rules)."""
    for move in moves:
        yield position_key(position), position
        position = position.play(move)


class LineCache:
    """Winning lines by exact position: the rest of a line from any position along it (the shortest
    rest known in memory, when several lines pass a position).

    Thread-safe. With a ``store``, lines are also written to it and looked up there on a miss. Quick
    lines (:class:`QuickLine`, not yet shortened whole) wait beside the lines: from their first position
    only ``get(quick=True)`` answers with one; any other request for it, or for the position after its
    first move, shortens it first."""

    def __init__(self, store: Store | None = None, size: int = MEMORY_SIZE) -> None:
        self.store = store
        self.size = size
        self._lines: OrderedDict[str, tuple[tuple[Move, ...], int]] = OrderedDict()
        #: Difficulty figures by position key; ``None``: the store has none for it (until one is put).
        self._figures: OrderedDict[str, int | None] = OrderedDict()
        self._quick: dict[str, QuickLine] = {}
        self._lock = threading.Lock()

    def get(self, position: Position, *, quick: bool = False) -> list[Move] | None:
        """The rest of a known winning line from ``position``, or ``None``. ``quick``: a quick line from
        ``position`` not yet shortened will do (a hint); otherwise it is shortened first."""
        key = position_key(position)
        found = self._memory(key)
        if found is not None:
            return found
        with self._lock:
            waiting = self._quick.get(key)
        if waiting is not None:
            if quick and waiting.key == key and not waiting.finished:
                return list(waiting.moves)
            waiting.finish()
            found = self._memory(key)
            if found is not None:
                return found
        if self.store is None:
            return None
        return self._from_store(position, key)

    def knows(self, position: Position) -> bool:
        """Whether a line from ``position`` is known (in memory, the store, or a quick line waiting to be
        shortened), without shortening one."""
        key = position_key(position)
        with self._lock:
            if key in self._lines or key in self._quick:
                return True
        return self.store is not None and self._from_store(position, key) is not None

    def _memory(self, key: str) -> list[Move] | None:
        with self._lock:
            found = self._lines.get(key)
            if found is None:
                return None
            self._lines.move_to_end(key)
            line, start = found
            return list(line[start:])

    def add_quick(self, line: QuickLine) -> None:
        """Keep a quick line until it is shortened (it then puts its whole lines here)."""
        with self._lock:
            for key in line.keys:
                self._quick[key] = line

    def _drop_quick(self, line: QuickLine) -> None:
        with self._lock:
            for key in line.keys:
                if self._quick.get(key) is line:
                    del self._quick[key]

    def _from_store(self, position: Position, key: str) -> list[Move] | None:
        from ..store import StoreError
        from . import replay

        try:
            found = self.store.find_line(key) if self.store is not None else None
        except StoreError as exc:
            log.warning("winning lines: %s", exc)
            return None
        if found is None or found[0] != position.game.name:
            return None
        try:
            moves = [position.game.move_from_json(data) for data in found[1]]
            if not moves or not replay(position, moves).is_won():
                return None
        except (GameError, ValueError, TypeError, KeyError):
            return None  # a damaged or foreign entry: ignored, the solver answers instead
        self._remember(position, moves)
        return moves

    def put(self, position: Position, moves: list[Move]) -> None:
        """Remember ``moves`` (a winning line, already replayed) from ``position`` and every
        position along it; also in the store, if there is one."""
        if not moves:
            return
        keys = self._remember(position, moves)
        if self.store is not None:
            from ..store import StoreError

            try:
                self.store.save_line(position.game.name, keys, [m.to_json() for m in moves])
            except StoreError as exc:
                log.warning("winning lines: %s", exc)

    def put_figure(self, position: Position, figure: int) -> None:
        """Keep the solver's difficulty figure (``stats["difficulty"]``) of a position it won from; also in
        the store, if there is one."""
        key = position_key(position)
        self._note_figure(key, figure)
        if self.store is not None:
            from ..store import StoreError

            try:
                self.store.save_figure(position.game.name, key, figure)
            except StoreError as exc:
                log.warning("difficulty figures: %s", exc)

    def keep_figure(self, position: Position, solution: Solution) -> None:
        """Keep the difficulty figure of ``solution`` (the solver's answer for ``position``) when it won and has one."""
        if solution.status == "won" and "difficulty" in solution.stats:
            self.put_figure(position, int(solution.stats["difficulty"]))

    def figure(self, position: Position) -> int | None:
        """The difficulty figure kept for ``position`` (in memory, else in the store), or ``None``."""
        key = position_key(position)
        with self._lock:
            if key in self._figures:
                self._figures.move_to_end(key)
                return self._figures[key]
        found: int | None = None
        if self.store is not None:
            from ..store import StoreError

            try:
                kept = self.store.find_figure(key)
            except StoreError as exc:
                log.warning("difficulty figures: %s", exc)
                return None  # not remembered as absent: the store may answer next time
            if kept is not None and kept[0] == position.game.name:
                found = kept[1]
        return self._note_figure(key, found, replace=False)  # a figure put meanwhile stays

    def _note_figure(self, key: str, figure: int | None, replace: bool = True) -> int | None:
        """Remember ``figure`` for ``key`` (unless ``replace`` is off and one is remembered); the one remembered."""
        with self._lock:
            if replace or key not in self._figures:
                self._figures[key] = figure
            else:
                figure = self._figures[key]
            self._figures.move_to_end(key)
            while len(self._figures) > self.size:
                self._figures.popitem(last=False)
            return figure

    def _remember(self, position: Position, moves: list[Move]) -> list[str]:
        line = tuple(moves)
        keys = [key for key, _ in _along(position, moves)]
        with self._lock:
            for i, key in enumerate(keys):
                known = self._lines.get(key)
                if known is not None and len(known[0]) - known[1] < len(line) - i:
                    continue  # a shorter rest is known from here: it stays
                self._lines[key] = (line, i)
                self._lines.move_to_end(key)
            while len(self._lines) > self.size:
                self._lines.popitem(last=False)
        return keys


@dataclass
class LineAnswer:
    """What is known of a position: ``won`` with a winning line, ``lost`` (proved) or ``unknown``."""

    status: str
    moves: list[Move] = field(default_factory=list)
    #: Why there is no line (``lost``: the rule's reason; ``unknown``: the time ran out, ...).
    detail: str | None = None
    #: The solver's figures, when the solver was run (empty when the line was already known).
    stats: dict[str, Any] = field(default_factory=dict)
    #: For a quick line (``winning_line(quick=True)``) not yet shortened whole: shortens it and keeps it
    #: (:meth:`QuickLine.finish`, which returns the whole line); ``None`` when ``moves`` is whole.
    finish: Callable[[], list[Move]] | None = None


class QuickLine:
    """A quick solution's winning line from ``position`` (``solve(quick=True)``: the first move is a good
    hint, the line may be longer than the solver makes it), to be made whole once, by whoever needs it first.

    :meth:`finish` makes the solution whole (``solvers.finish``: what ``solve`` returns without ``quick``)
    and puts its line into ``cache``; if that line does not begin with the quick line's first move (the hint
    given), the rest of the quick line from the position after that move is shortened and kept too, so that
    the next hint along it is instant. Until then, ``cache`` holds the quick line for its first position and
    the one after."""

    def __init__(self, position: Position, solution: Solution, seconds: float | None,
                 cache: LineCache | None = None) -> None:
        self.position = position
        self.solution = solution
        self.moves = list(solution.moves)
        self.seconds = seconds
        self.cache = cache
        self.key = position_key(position)
        self.keys = [self.key, position_key(position.play(self.moves[0]))] if self.moves else [self.key]
        self.whole: list[Move] | None = None
        self._lock = threading.Lock()
        if cache is not None:
            cache.add_quick(self)

    @property
    def finished(self) -> bool:
        return self.whole is not None

    def finish(self) -> list[Move]:
        """Shorten the line whole (at once if that is done already; waits if another thread does it) and
        keep it; returns the whole line from ``position``. A failure keeps the quick line (logged)."""
        from . import finish, shorten_line

        with self._lock:
            if self.whole is not None:
                return list(self.whole)
            lines: list[tuple[Position, list[Move]]] = []
            try:
                whole = list(finish(self.position, self.solution, time_limit=self.seconds).moves)
                if len(self.moves) > 1 and whole[0] != self.moves[0]:
                    after = self.position.play(self.moves[0])
                    lines.append((after, shorten_line(after, self.moves[1:], time_limit=self.seconds)))
            except Exception:  # a shortening bug must not cost the line: the quick one is a winning line too
                log.exception("shortening a quick %s line failed", self.position.game.name)
                whole, lines = list(self.moves), []
            lines.append((self.position, whole))
            if self.cache is not None:
                for start, moves in lines:
                    self.cache.put(start, moves)
                self.cache._drop_quick(self)
            self.whole = whole
            return list(whole)


def winning_line(position: Position, seconds: float | None, cache: LineCache | None = None,
                 slot: Callable[[], AbstractContextManager[Any]] = nullcontext, *,
                 quick: bool = False) -> LineAnswer:
    """A winning line from ``position``: the rest of a known line if ``cache`` has one, otherwise
    the solver's (run inside ``slot()``, for at most ``seconds``), which then goes into ``cache``.
    ``quick`` (a hint): a quick line will do (``solve(quick=True)``); the answer's ``finish`` then
    shortens it whole and keeps it (call it once the hint is given; whoever needs the line from this
    position or the next without ``quick`` shortens it first anyway).
    Raises ``ModuleNotFoundError`` when the game has no solver."""
    from . import is_quick, solve

    if cache is not None:
        known = cache.get(position, quick=quick)
        if known:
            return LineAnswer("won", known)
    with slot():
        found = solve(position, time_limit=seconds, quick=True) if quick else solve(position, time_limit=seconds)
    if found.status == "won":
        if cache is not None:
            cache.keep_figure(position, found)
        if quick and is_quick(found):
            line = QuickLine(position, found, seconds, cache)
            return LineAnswer("won", list(found.moves), stats=dict(found.stats), finish=line.finish)
        if cache is not None:
            cache.put(position, list(found.moves))
        return LineAnswer("won", list(found.moves), stats=dict(found.stats))
    if found.status == "lost":
        reason = found.stats.get("reason")
        return LineAnswer("lost", [], "the solver proved that this position cannot be won"
                          + (f": {reason}" if reason else ""), dict(found.stats))
    limit = "" if seconds is None else f" in {seconds:g} s"
    return LineAnswer("unknown", [], f"no winning line found{limit}", dict(found.stats))


class Analyst:
    """Looks for a winning line from the newest position shown to it, in one background thread.

    :meth:`show` hands it a position (a newer one replaces one not yet started); the line found
    goes into the cache: a quick line first (``winning_line(quick=True)``), which the analyst then
    shortens whole. :meth:`wait` lets a request for the position being analysed wait for the result
    (until the quick line is there) instead of starting a second solver run on it. ``seconds`` is the
    time a search may take; 0 turns the analyst off."""

    def __init__(self, cache: LineCache, seconds: float,
                 slot: Callable[[], AbstractContextManager[Any]] = nullcontext) -> None:
        self.cache = cache
        self.seconds = seconds
        self.slot = slot
        self._cond = threading.Condition()
        self._pending: Position | None = None
        self._current: str | None = None
        #: The position being analysed once its (quick) line is in the cache.
        self._ready: str | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Positions analysed (tests and the curious read it).
        self.runs = 0

    def show(self, position: Position) -> None:
        """Analyse ``position`` next (unless it is over, or its line is already known)."""
        if self.seconds <= 0 or self._closed or position.is_won() or position.is_lost():
            return
        if self.cache.knows(position):
            return
        with self._cond:
            if self._current == position_key(position):
                return
            self._pending = position
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="amber-analyst", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def wait(self, position: Position, timeout: float | None) -> bool:
        """If ``position`` is being analysed (or waits its turn), wait until that is done (at most
        ``timeout`` seconds; only until the quick line is in the cache). True if it was, whatever the
        analysis found."""
        key = position_key(position)
        with self._cond:
            if key not in (self._current, None if self._pending is None else position_key(self._pending)):
                return False
            self._cond.wait_for(lambda: key not in (self._current, self._pending_key()) or key == self._ready,
                                timeout)
            return True

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is pending or running (at most ``timeout`` s); True if idle."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending is None and self._current is None, timeout)

    def close(self) -> None:
        """Stop after the current search (a search that runs is not interrupted)."""
        with self._cond:
            self._closed = True
            self._pending = None
            self._cond.notify_all()

    def _pending_key(self) -> str | None:
        return None if self._pending is None else position_key(self._pending)

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    return
                position, self._pending = self._pending, None
                assert position is not None
                self._current = position_key(position)
            try:
                if not self.cache.knows(position):
                    self.runs += 1
                    answer = winning_line(position, self.seconds, self.cache, self.slot, quick=True)
                    with self._cond:
                        self._ready = self._current  # a hint may take the quick line now
                        self._cond.notify_all()
                    if answer.finish is not None:
                        with self.slot():
                            answer.finish()
            except ModuleNotFoundError:
                pass  # the game has no solver: nothing to prepare
            except Exception:  # a solver bug must not kill the analyst: log it and go on
                log.exception("the analyst failed on a %s position", position.game.name)
            finally:
                with self._cond:
                    self._current = self._ready = None
                    self._cond.notify_all()
