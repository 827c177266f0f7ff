"""Winning lines found by the solvers, kept so that hints along them are instant.

A *line* is a list of moves that wins from a position. Once the solver has found one, every
position along it has its answer too: the rest of the line. :class:`LineCache` keeps lines by
exact position (in memory, and in the SQLite store when it is given one, so that ``amber hint``
run again on a later position of the same game answers at once), and :func:`winning_line` asks
the cache before the solver. :class:`Analyst` looks for a line in a background thread from the
newest position it is shown (the web server shows it every position a game reaches), so that the
hint is usually ready before the player asks.

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
    """Winning lines by exact position: the rest of a line from any position along it.

    Thread-safe. With a ``store``, lines are also written to it and looked up there on a miss."""

    def __init__(self, store: Store | None = None, size: int = MEMORY_SIZE) -> None:
        self.store = store
        self.size = size
        self._lines: OrderedDict[str, tuple[tuple[Move, ...], int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, position: Position) -> list[Move] | None:
        """The rest of a known winning line from ``position``, or ``None``."""
        key = position_key(position)
        with self._lock:
            found = self._lines.get(key)
            if found is not None:
                self._lines.move_to_end(key)
                line, start = found
                return list(line[start:])
        if self.store is None:
            return None
        return self._from_store(position, key)

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

    def _remember(self, position: Position, moves: list[Move]) -> list[str]:
        line = tuple(moves)
        keys = [key for key, _ in _along(position, moves)]
        with self._lock:
            for i, key in enumerate(keys):
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


def winning_line(position: Position, seconds: float | None, cache: LineCache | None = None,
                 slot: Callable[[], AbstractContextManager[Any]] = nullcontext) -> LineAnswer:
    """A winning line from ``position``: the rest of a known line if ``cache`` has one, otherwise
    the solver's (run inside ``slot()``, for at most ``seconds``), which then goes into ``cache``.
    Raises ``ModuleNotFoundError`` when the game has no solver."""
    from . import solve

    if cache is not None:
        known = cache.get(position)
        if known:
            return LineAnswer("won", known)
    with slot():
        found = solve(position, time_limit=seconds)
    if found.status == "won":
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
    goes into the cache. :meth:`wait` lets a request for the position being analysed wait for the
    result instead of starting a second solver run on it. ``seconds`` is the time a search may
    take; 0 turns the analyst off."""

    def __init__(self, cache: LineCache, seconds: float,
                 slot: Callable[[], AbstractContextManager[Any]] = nullcontext) -> None:
        self.cache = cache
        self.seconds = seconds
        self.slot = slot
        self._cond = threading.Condition()
        self._pending: Position | None = None
        self._current: str | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Positions analysed (tests and the curious read it).
        self.runs = 0

    def show(self, position: Position) -> None:
        """Analyse ``position`` next (unless it is over, or its line is already known)."""
        if self.seconds <= 0 or self._closed or position.is_won() or position.is_lost():
            return
        if self.cache.get(position) is not None:
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
        ``timeout`` seconds). True if it was, whatever the analysis found."""
        key = position_key(position)
        with self._cond:
            if key not in (self._current, None if self._pending is None else position_key(self._pending)):
                return False
            self._cond.wait_for(lambda: key not in (self._current, self._pending_key()), timeout)
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
                if self.cache.get(position) is None:
                    self.runs += 1
                    winning_line(position, self.seconds, self.cache, self.slot)
            except ModuleNotFoundError:
                pass  # the game has no solver: nothing to prepare
            except Exception:  # a solver bug must not kill the analyst: log it and go on
                log.exception("the analyst failed on a %s position", position.game.name)
            finally:
                with self._cond:
                    self._current = None
                    self._cond.notify_all()
