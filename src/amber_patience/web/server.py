"""The local web server: a FastAPI app serving the JSON API (``docs/http-api.md``) and the front end.

``create_app(db_path)`` builds the app; ``serve(host, port, open_browser, db_path)`` runs it with
uvicorn. The app uses only the public game API (:mod:`amber_patience.games`), the solvers
(:mod:`amber_patience.solvers`), the record format (:mod:`amber_patience.records`) and the store
(:mod:`amber_patience.store`); it knows no game's rules.

Safety: the server answers only requests whose ``Host`` is its own (``127.0.0.1:<port>``,
``localhost:<port>``, ``[::1]:<port>`` or the host it listens on, plus any ``allowed_hosts``) and,
for requests that change something (POST, PUT, PATCH, DELETE), whose ``Origin``, when present, is
its own too; anything else is refused with 400/403. Request bodies are limited to
:data:`MAX_BODY_BYTES` (413 beyond). Bad input gets a 4xx answer ``{"detail": "<what is wrong>"}``.

Solver calls (hint, solution, winnable deals) run in worker threads (every endpoint here is a plain
``def``, which FastAPI runs in its thread pool) with time limits, so they never hold up the server.
"""

from __future__ import annotations

import importlib
import logging
import random
import secrets
import socket
import sys
import threading
import time
import webbrowser
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping, MutableMapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from .. import __version__
from ..games import GAME_NAMES, Game, GameError, IllegalMoveError, MalformedError, Move, Position, get_game
from ..solvers.levels import bands_for
from ..solvers.lines import Analyst, LineAnswer, LineCache
from ..store import GameRecord, Store, StoreError, options_key

#: Largest request body accepted (bytes); larger ones get 413.
MAX_BODY_BYTES = 256 * 1024
#: Largest deal number: the front end is JavaScript, whose numbers are exact up to 2**53 - 1.
MAX_DEAL = 2**53 - 1
#: Random deals are drawn from 1 to this number.
RANDOM_DEALS = 1_000_000
#: A pause longer than this between two requests on a game counts as this long (the player left).
IDLE_SECONDS = 600.0
#: Games kept in memory (the rest are rebuilt from the store when asked for).
CACHE_SIZE = 64
#: Seconds the background analyst may search for a winning line from each position a game reaches
#: (``serve``; 0 turns it off), so that a hint is usually ready before the player asks.
ANALYSIS_SECONDS = 10.0
#: Solver seconds a deal at most when looking for a deal of a level; a hard candidate may use the rest of the search's
#: time (a hard deal is one that takes long: Pattern's take 5-20 s on a loaded machine).
DEAL_SECONDS: dict[str, float | None] = {"winnable": 5.0, "easy": 5.0, "hard": None}
#: Seconds the server may spend, in the background, preparing the next deal of a level that a player asked for at
#: random (``serve``, with the analyst; 0 turns it off): the next such request takes it at once.
PREPARE_SECONDS = 300.0
#: Solver runs at the same time (the machine's cores are few; more requests wait their turn).
SOLVER_SLOTS = 2

STATIC_DIR = Path(__file__).parent / "static"

log = logging.getLogger(__name__)

#: Choices offered for the options the games are known to have; each is checked against the game
#: (``get_game``) when the app starts, so a choice the game refuses is never offered.
_OPTION_CHOICES: dict[str, list[Any]] = {
    "passes": [1, 3, "unlimited"],
    "relaxed": [False, True],
    "empty": ["king", "any"],
}

Json = Any

# -- request and response bodies (they document the API in /openapi.json) --------------------------


class Titles(BaseModel):
    en: str
    ru: str


class OptionInfo(BaseModel):
    name: str
    choices: list[Json]
    default: Json


class GameInfo(BaseModel):
    name: str
    family: str
    title: Titles
    options: list[OptionInfo]
    levels: list[Literal["easy", "hard"]] = Field(
        default_factory=list, description="the difficulty levels a new deal may ask for (games with bands)")


class Difficulty(BaseModel):
    figure: int = Field(description="the solver's difficulty figure (states expanded; docs/solver.md)")
    level: Literal["easy", "medium", "hard"] | None = Field(
        description="the figure's band (docs/solver.md, 'The difficulty figure'); null for a game without bands")


class MoveEntry(BaseModel):
    move: dict[str, Json] = Field(description="the move as JSON, as the game reads it back")
    text: str = Field(description="the move in the game's text notation (as in records)")
    info: dict[str, Json] = Field(description="position.move_info(move): cards, from, to")


class GameState(BaseModel):
    id: str
    game: str
    title: Titles
    family: str
    options: dict[str, Json]
    deal: int | None
    practice: bool
    status: Literal["playing", "won", "lost"]
    position: dict[str, Json]
    legal_moves: list[MoveEntry]
    moves_played: int
    elapsed_seconds: float
    started: bool
    can_undo: bool
    result: dict[str, Json]
    setup: dict[str, str] = Field(default_factory=dict, description="the start cards chosen before play")
    difficulty: Difficulty | None = Field(
        default=None, description="the deal's difficulty, when the server solved it (a deal asked for by level)")


#: What ``POST /api/games`` may ask for: any deal, one the solver wins, an easy one, a hard one.
NewLevel = Literal["any", "winnable", "easy", "hard"]


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="a game name from GET /api/games")
    number: int | None = Field(default=None, description="the deal number; null for a random deal")
    winnable: bool = Field(default=False, description='the same as level "winnable" (kept for old clients)')
    level: NewLevel = Field(default="any", description="any deal; the first deal at/after number the solver wins "
                                                       "(winnable), or wins as an easy or a hard deal (games whose "
                                                       "levels GET /api/games lists)")
    options: dict[str, Json] = Field(default_factory=dict)
    practice: bool = Field(default=False, description="practice game: undo allowed, counted apart")


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: Json = Field(description='the move as JSON, e.g. {"swap": [3, 17]}')


class SetupBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    setup: dict[str, str] = Field(description='e.g. {"Start": "Rs T11", "SecondStart": "40"}')


class RecordBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    record: str = Field(description="a game record in the text format of docs/records.md")


class Hint(BaseModel):
    move: dict[str, Json]
    text: str
    description: str
    info: dict[str, Json]


class SolutionOut(BaseModel):
    status: Literal["won", "lost", "unknown"]
    moves: list[MoveEntry]
    detail: str | None = None


class SavedGame(BaseModel):
    id: str
    game: str
    deal: int | None
    moves_played: int
    updated: str = Field(description="when the game was last played (ISO 8601, UTC)")
    practice: bool
    options: dict[str, Json]
    title: Titles


class StatsEntry(BaseModel):
    game: str
    options: dict[str, Json]
    practice: bool
    played: int
    won: int
    current_streak: int
    best_streak: int
    best_seconds: float | None
    fewest_moves: int | None


class RulesOut(BaseModel):
    game: str
    lang: str
    title: str
    html: str


class ErrorOut(BaseModel):
    detail: str


# -- games in play ------------------------------------------------------------------------------------


class ApiError(Exception):
    """An answer other than 2xx: HTTP status and the message for ``detail``."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass
class Session:
    """A game in memory: the stored record, its rules, and every position from the start."""

    record: GameRecord
    game: Game
    history: list[Position]
    moves: list[Move] = field(default_factory=list)
    #: The deal's difficulty as :meth:`GameService.difficulty` last found it, with the start it is for (so that the
    #: start position is not hashed again for every state sent).
    difficulty: tuple[Position, dict[str, Any] | None] | None = field(default=None, repr=False, compare=False)

    @property
    def position(self) -> Position:
        return self.history[-1]

    @property
    def start(self) -> Position:
        return self.history[0]

    def legal_moves(self) -> list[Move]:
        """The current position's legal moves (computed once per position)."""
        cached = self.__dict__.get("_legal")
        if cached is None or cached[0] is not self.position:
            cached = (self.position, self.position.legal_moves())
            self.__dict__["_legal"] = cached
        return cached[1]


def status_of(position: Position) -> str:
    if position.is_won():
        return "won"
    if position.is_lost():
        return "lost"
    return "playing"


def _titles(game: Game) -> dict[str, str]:
    return {"en": game.title("en"), "ru": game.title("ru")}


def _make_game(name: str, options: Mapping[str, Any]) -> Game:
    try:
        return get_game(name, **dict(options))
    except (GameError, ValueError, TypeError) as exc:
        raise ApiError(422, str(exc)) from None


def _check_number(number: int) -> int:
    if number < 0:
        raise ApiError(422, f"a deal number must not be negative (got {number})")
    if number > MAX_DEAL:
        raise ApiError(422, f"a deal number must be at most {MAX_DEAL} (got {number})")
    return number


#: A game, its options and a level: what a deal prepared in the background is for (:meth:`GameService.prepare_later`).
LevelKey = tuple[str, str, str]


def _level_key(game: Game, level: str) -> LevelKey:
    return game.name, options_key(game.options), level


class GameService:
    """The games: created, played, stored and rebuilt; thread-safe (one lock for the state)."""

    def __init__(self, store: Store, *, hint_seconds: float, solution_seconds: float,
                 winnable_seconds: float, analysis_seconds: float = 0.0, prepare_seconds: float = 0.0) -> None:
        self.store = store
        self.prepare_seconds = prepare_seconds
        #: Deals prepared in the background (:meth:`prepare_later`), by (game, options, level): their lines and
        #: figures are kept, so the next request for that level at random takes one without a search.
        self.prepared: dict[LevelKey, int] = {}
        self._preparing: dict[LevelKey, threading.Thread] = {}
        #: The deals dealt at random by level in this run (the preparing leaves them out).
        self._dealt: dict[LevelKey, set[int]] = {}
        self.hint_seconds = hint_seconds
        self.solution_seconds = solution_seconds
        self.winnable_seconds = winnable_seconds
        self.lock = threading.RLock()
        self.cache: OrderedDict[str, Session] = OrderedDict()
        #: The wall clock (Unix seconds); tests may replace it.
        self.clock: Callable[[], float] = time.time
        self._solvers = threading.BoundedSemaphore(SOLVER_SLOTS)
        #: How long a solver request waits for a free slot before it is answered 503.
        self.solver_wait = solution_seconds + 5.0
        #: Winning lines found (in memory and in the store): hints along them are instant.
        self.lines = LineCache(store)
        #: Looks for a line from each position a game reaches, in the background.
        self.analyst = Analyst(self.lines, analysis_seconds, self.background_slot)

    def winning_line(self, position: Position, seconds: float, *, quick: bool = False) -> LineAnswer:
        """A winning line from ``position``: from the lines already found (waiting for the analyst
        if it is looking at this very position), or from the solver (in a solver slot, for at most
        ``seconds``). Solver failures become an answer, not a 500. ``quick`` (a hint): a quick line
        will do (:func:`~amber_patience.solvers.lines.winning_line`); it is shortened whole in the
        background (:meth:`finish_later`)."""
        from .. import solvers
        from ..solvers.lines import winning_line

        known = self.lines.get(position, quick=quick)
        if known:
            return LineAnswer("won", known)
        start = time.monotonic()
        if self.analyst.wait(position, seconds):
            known = self.lines.get(position, quick=quick)
            if known:
                return LineAnswer("won", known)
            seconds = max(seconds - (time.monotonic() - start), 0.05)
        try:
            answer = winning_line(position, seconds, self.lines, self.solver_slot, quick=quick)
            if answer.finish is not None:
                self.finish_later(answer.finish)
        except ModuleNotFoundError:
            return LineAnswer("unknown", [], "this game has no solver yet")
        except solvers.SolutionError as exc:
            return LineAnswer("unknown", [], f"the solver's line was refused by the rules: {exc}")
        except ApiError:
            raise
        except Exception as exc:  # a solver bug must not cost the player the game: say so, log it
            log.exception("the %s solver failed", position.game.name)
            return LineAnswer("unknown", [], f"the solver failed: {type(exc).__name__}: {exc}")
        return answer

    def finish_later(self, finish: Callable[[], Any]) -> None:
        """Shorten a quick line whole in a background thread (in a solver slot), so that the next hint
        and the solution come from the whole line (a request that needs it first shortens it itself)."""

        def work() -> None:
            try:
                with self.background_slot():
                    finish()
            except Exception:  # logged: the request that needs the line shortens it again
                log.exception("shortening a quick line failed")

        threading.Thread(target=work, name="amber-shorten", daemon=True).start()

    @contextmanager
    def background_slot(self) -> Iterator[None]:
        """A solver slot for the background analyst: it waits its turn as long as it takes."""
        self._solvers.acquire()
        try:
            yield
        finally:
            self._solvers.release()

    @contextmanager
    def solver_slot(self) -> Iterator[None]:
        """One of the :data:`SOLVER_SLOTS` places for a running solver; 503 if none frees up in time."""
        if not self._solvers.acquire(timeout=self.solver_wait):
            raise ApiError(503, "the solver is busy with other requests; try again in a moment")
        try:
            yield
        finally:
            self._solvers.release()

    # -- loading and saving ---------------------------------------------------------------------------

    def _deal(self, game: Game, number: int, setup: Mapping[str, str] | None) -> Position:
        try:
            return game.deal(number, dict(setup) if setup else None)
        except MalformedError as exc:
            raise ApiError(422, str(exc)) from None
        except (GameError, ValueError) as exc:
            raise ApiError(409 if setup else 422, str(exc)) from None

    def _rebuild(self, record: GameRecord) -> Session:
        try:
            game = get_game(record.game, **record.options)
            if record.start is not None:
                start = game.position_from_json(record.start)
            elif record.deal is not None:
                start = game.deal(record.deal, record.setup or None)
            else:
                raise GameError("it has neither a deal number nor a start position")
            session = Session(record, game, [start])
            for data in record.moves:
                move = game.move_from_json(data)
                session.history.append(session.position.play(move))
                session.moves.append(move)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(409, f"the saved game {record.id} cannot be restored: {exc}") from None
        return session

    def load(self, game_id: str) -> Session:
        with self.lock:
            session = self.cache.get(game_id)
            if session is None:
                record = self.store.get_game(game_id)
                if record is None:
                    raise ApiError(404, f"no game with id {game_id!r}")
                session = self._rebuild(record)
                self.cache[game_id] = session
            self.cache.move_to_end(game_id)
            while len(self.cache) > CACHE_SIZE:
                self.cache.popitem(last=False)
            return session

    def _elapsed(self, record: GameRecord, now: float) -> float:
        """Seconds played: the clock runs from the first move until the game ends."""
        if record.status != "playing" or not record.moves:
            return record.elapsed
        return record.elapsed + min(max(now - record.touched, 0.0), IDLE_SECONDS)

    def _save(self, session: Session, *, touch: bool = True) -> None:
        record = session.record
        now = self.clock()
        if touch:
            record.elapsed = self._elapsed(record, now)
            record.touched = now
        old_status = record.status
        record.status = status_of(session.position)
        record.moves = [m.to_json() for m in session.moves]
        try:
            self.store.save_game(record)
            if old_status == "playing" and record.status != "playing":
                self.store.record_result(record, record.status == "won", record.elapsed, len(session.moves))
        except StoreError as exc:
            self.cache.pop(record.id, None)  # memory may be ahead of the file: reload from the file next time
            raise ApiError(503, f"the game could not be saved: {exc}") from None
        self.cache[record.id] = session
        self.cache.move_to_end(record.id)

    # -- the game state ---------------------------------------------------------------------------------

    def state(self, session: Session) -> dict[str, Any]:
        record, game, position = session.record, session.game, session.position
        status = record.status
        legal = session.legal_moves() if status == "playing" else []
        if status == "playing":
            self.analyst.show(position)  # so that the hint is ready before the player asks
        return {
            "id": record.id, "game": game.name, "title": _titles(game), "family": game.family,
            "options": dict(game.options), "deal": record.deal, "practice": record.practice, "status": status,
            "position": position.to_json(),
            "legal_moves": [move_entry(position, move) for move in legal],
            "moves_played": len(session.moves), "elapsed_seconds": round(self._elapsed(record, self.clock()), 3),
            "started": bool(session.moves), "can_undo": record.practice and bool(session.moves),
            "result": position.result(), "setup": dict(record.setup), "difficulty": self.difficulty(session),
        }

    # -- actions ----------------------------------------------------------------------------------------

    def create(self, body: NewGame) -> Session:
        game = _make_game(body.game, body.options)
        explicit = body.number is not None
        number = _check_number(body.number) if body.number is not None else random.SystemRandom().randrange(
            1, RANDOM_DEALS)
        level = "winnable" if body.level == "any" and body.winnable else body.level
        if level != "any":
            key = _level_key(game, level)
            with self.lock:
                ready = None if explicit else self.prepared.pop(key, None)
            number = self.find_deal(game, number, level, explicit=explicit, ready=ready)
            if not explicit:
                with self.lock:
                    self._dealt.setdefault(key, set()).add(number)
                self.prepare_later(game, level)
        start = self._deal(game, number, None)
        now = self.clock()
        record = GameRecord(id=secrets.token_hex(8), game=game.name, options=dict(game.options), deal=number,
                            setup={}, practice=body.practice, created=now, touched=now)
        session = Session(record, game, [start])
        with self.lock:
            record.status = status_of(start)
            self._save(session)
        return session

    def find_deal(self, game: Game, number: int, level: str, *, explicit: bool, ready: int | None = None) -> int:
        """The first deal at or after ``number`` that the solver wins (as a deal of ``level``: winnable, easy or
        hard; :func:`amber_patience.solvers.levels.find_deal`), within the time budget. Its winning line goes
        into the line cache (the first hint is ready); the figure of every deal won on the way is kept with the
        lines (the deal's difficulty, :meth:`difficulty`). A hard deal asked for at random is first looked for
        among the bands' hard deals (:attr:`~amber_patience.solvers.levels.Bands.hard_deals`, in a random order):
        most deals are not hard, and a search through them rarely ends within the time. A deal ``ready``
        (prepared in the background, :meth:`prepare_later`) is tried first of all. A deal whose line and figure
        are kept (:meth:`solve_deal`) is judged without the solver."""
        from ..solvers import levels

        first = levels.hard_deals_first(game) if level == "hard" and not explicit else []
        listed = len(first)
        if ready is not None:
            first = [ready, *first]

        def solve(position: Position, **limits: Any) -> Any:
            return self.solve_deal(position, self.solver_slot, **limits)

        def failed(n: int, exc: Exception) -> None:
            if isinstance(exc, ApiError):
                raise exc
            log.error("the %s solver failed on deal %s", game.name, n, exc_info=exc)  # proves nothing: go on

        try:
            found = levels.find_deal(game, number, level=level, deadline=time.monotonic() + self.winnable_seconds,
                                     time_limit=DEAL_SECONDS[level], solve=solve, last=MAX_DEAL, on_error=failed,
                                     first=first)
        except levels.NoBandsError as exc:
            raise ApiError(422, str(exc)) from None
        except ModuleNotFoundError:
            raise ApiError(409, f"{game.title()} has no solver yet, so no deal can be proved winnable: "
                                "ask for any deal") from None
        except (GameError, ValueError) as exc:
            raise ApiError(422, str(exc)) from None
        except levels.DealNotFound as exc:
            where = f"from deal {number}" if explicit else f"from random deal {number}"
            if listed:
                where = f"among the {listed} hard deals of the calibration, then {where}"
            what = "proved winnable" if level == "winnable" else f"found {level}"
            later = ""
            if not explicit and self.prepare_seconds > 0:
                self.prepare_later(game, level)  # so that asking again soon takes the deal found meanwhile
                later = " (the server goes on looking in the background)"
            raise ApiError(503, f"no deal of {game.title()} {what} in {self.winnable_seconds:g} s "
                                f"({exc.tried} deals tried {where}); try again{later} or ask for any deal") from None
        self.lines.put(found.position, list(found.solution.moves))  # the first hint of this deal is ready
        return found.number

    def solve_deal(self, position: Position, slot: Callable[[], AbstractContextManager[Any]], **limits: Any) -> Any:
        """The solver's answer for a deal's start ``position`` as :func:`~amber_patience.solvers.levels.find_deal`
        judges it: from the line and the difficulty figure kept for it when both are (the line replayed by the
        rules when read back; ``stats["known"]``), else from the solver (run in ``slot()``), whose figure is then
        kept with the lines."""
        from .. import solvers

        figure = self.lines.figure(position)
        if figure is not None:
            known = self.lines.get(position)
            if known:
                return solvers.Solution("won", known, {"difficulty": figure, "nodes": figure, "known": True})
        with slot():
            found = solvers.solve(position, **limits)
        self.lines.keep_figure(position, found)
        return found

    def prepare_later(self, game: Game, level: str) -> None:
        """Find the next deal of ``level`` at random in a background thread (waiting its turn for a solver slot,
        for at most :attr:`prepare_seconds`; the bands' hard deals first for ``hard``, as :meth:`find_deal` does,
        but none dealt at random for that level in this run), keep its line and figure, and put its number in
        :attr:`prepared` for the next request of that level at random. Nothing when preparing is off, or a deal of
        that level is prepared or being prepared already."""
        if self.prepare_seconds <= 0:
            return
        from ..solvers import levels

        key = _level_key(game, level)
        with self.lock:
            if key in self.prepared or key in self._preparing:
                return
            dealt = set(self._dealt.get(key, ()))
        first = [n for n in levels.hard_deals_first(game) if n not in dealt] if level == "hard" else []
        start = random.SystemRandom().randrange(1, RANDOM_DEALS)

        def solve(position: Position, **limits: Any) -> Any:
            return self.solve_deal(position, self.background_slot, **limits)

        def failed(n: int, exc: Exception) -> None:
            log.error("the %s solver failed on deal %s", game.name, n, exc_info=exc)  # proves nothing: go on

        def work() -> None:
            try:
                found = levels.find_deal(game, start, level=level, deadline=time.monotonic() + self.prepare_seconds,
                                         time_limit=DEAL_SECONDS[level], solve=solve, last=MAX_DEAL, on_error=failed,
                                         first=first)
                if found.number not in dealt:
                    self.lines.put(found.position, list(found.solution.moves))
                    with self.lock:
                        self.prepared[key] = found.number
            except levels.DealNotFound:
                log.info("no %s deal of %s prepared in %g s", level, game.name, self.prepare_seconds)
            except Exception:
                log.exception("preparing a %s deal of %s failed", level, game.name)
            finally:
                with self.lock:
                    self._preparing.pop(key, None)

        thread = threading.Thread(target=work, name="amber-prepare", daemon=True)
        with self.lock:
            if key in self.prepared or key in self._preparing:
                return  # another request started one meanwhile
            self._preparing[key] = thread
        thread.start()

    def wait_prepared(self, timeout: float | None = None) -> None:
        """Wait until the deals being prepared in the background are found (or given up)."""
        with self.lock:
            threads = list(self._preparing.values())
        for thread in threads:
            thread.join(timeout)

    def difficulty(self, session: Session) -> dict[str, Any] | None:
        """The difficulty of a game's deal (its figure and band), when the server has solved its start position
        (looking for a deal, or for a line from the start: the analyst, a hint, the solution), in this run or an
        earlier one (the figures are kept with the lines, :meth:`LineCache.figure`)."""
        from ..solvers.levels import difficulty_info

        cached = session.difficulty
        if cached is None or cached[0] is not session.start or cached[1] is None:
            # new, its start cards chosen since, or not known when last asked (a solve since may have found it)
            figure = self.lines.figure(session.start)
            cached = session.difficulty = (session.start,
                                           None if figure is None else difficulty_info(session.game, figure))
        return cached[1]

    def play(self, game_id: str, data: Any) -> Session:
        with self.lock:
            session = self.load(game_id)
            if session.record.status != "playing":
                raise ApiError(409, f"the game is over ({session.record.status}): no more moves")
            try:
                move = session.game.move_from_json(data)
            except (MalformedError, ValueError, TypeError) as exc:
                raise ApiError(422, str(exc)) from None
            try:
                position = session.position.play(move)
            except IllegalMoveError as exc:
                raise ApiError(409, str(exc)) from None
            except MalformedError as exc:
                raise ApiError(422, str(exc)) from None
            except (GameError, ValueError) as exc:
                raise ApiError(409, str(exc)) from None
            session.history.append(position)
            session.moves.append(move)
            self._save(session)
            return session

    def setup(self, game_id: str, setup: Mapping[str, str]) -> Session:
        with self.lock:
            session = self.load(game_id)
            record = session.record
            if session.moves:
                raise ApiError(409, "the start cards can only be chosen before the first move")
            if record.deal is None or record.start is not None:
                raise ApiError(409, "the start cards can only be chosen on a numbered deal as dealt "
                                    "(this game starts from a position given in full)")
            start = self._deal(session.game, record.deal, setup)
            record.setup = dict(start.setup)
            session.history = [start]
            self._save(session)
            return session

    def undo(self, game_id: str) -> Session:
        with self.lock:
            session = self.load(game_id)
            if not session.record.practice:
                raise ApiError(409, "undo is only allowed in practice games (the rules forbid taking a move back)")
            if not session.moves:
                raise ApiError(409, "there is no move to undo")
            session.moves.pop()
            session.history.pop()
            self._save(session)
            return session

    def restart(self, game_id: str) -> Session:
        with self.lock:
            session = self.load(game_id)
            session.moves.clear()
            del session.history[1:]
            record = session.record
            now = self.clock()
            record.elapsed, record.touched = 0.0, now
            record.status = status_of(session.position)
            self._save(session, touch=False)
            return session

    def delete(self, game_id: str) -> None:
        """Abandon a game. A game abandoned after a move counts as not won in the statistics."""
        with self.lock:
            session = self.load(game_id)
            record = session.record
            if record.status == "playing" and session.moves:
                record.elapsed = self._elapsed(record, self.clock())
                self.store.record_result(record, False, record.elapsed, len(session.moves))
            self.store.delete_game(game_id)
            self.cache.pop(game_id, None)

    def snapshot(self, game_id: str) -> tuple[Position, str]:
        """The current position and status (immutable: safe to hand to a solver outside the lock)."""
        with self.lock:
            session = self.load(game_id)
            return session.position, session.record.status

    def saved(self) -> list[dict[str, Any]]:
        out = []
        for record in self.store.games_in_progress():
            try:
                game = get_game(record.game, **record.options)
            except (GameError, ValueError, TypeError):
                continue  # a game this version no longer offers
            out.append({"id": record.id, "game": record.game, "deal": record.deal, "moves_played": len(record.moves),
                        "updated": datetime.fromtimestamp(record.updated, UTC).isoformat(timespec="seconds"),
                        "practice": record.practice, "options": record.options, "title": _titles(game)})
        return out

    # -- records ----------------------------------------------------------------------------------------

    def export_record(self, game_id: str) -> tuple[str, Session]:
        records = _records()
        with self.lock:
            session = self.load(game_id)
            status = session.record.status
            tags = {"Result": status if status != "playing" else "unfinished",
                    "Date": datetime.fromtimestamp(session.record.created, UTC).strftime("%Y.%m.%d")}
            if session.record.practice:
                tags["Practice"] = "yes"
            try:
                text = records.write_record(session.start, list(session.moves), tags=tags)
            except GameError as exc:
                raise ApiError(409, f"the game cannot be written as a record: {exc}") from None
            return text, session

    def import_record(self, text: str) -> Session:
        records = _records()
        try:
            parsed = records.parse_record(text)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(422, f"the record cannot be read: {exc}") from None
        start: Position = parsed.start
        game = start.game
        session_moves: list[Move] = []
        history = [start]
        for i, move in enumerate(parsed.moves, 1):
            try:
                history.append(history[-1].play(move))
            except (GameError, ValueError) as exc:
                raise ApiError(422, f"move {i} of the record ({_safe_text(history[-1], move)}) is refused: {exc}"
                               ) from None
            session_moves.append(move)
        tags = {str(k).lower(): str(v) for k, v in dict(parsed.tags).items()}
        now = self.clock()
        deal = start.deal_number
        if deal is not None and not 0 <= deal <= MAX_DEAL:
            raise ApiError(422, f"the record's deal number must be from 0 to {MAX_DEAL} (got {deal})")
        start_json: dict[str, Any] | None = start.to_json()
        try:
            if deal is not None and game.deal(deal, dict(start.setup) or None).to_json() == start_json:
                start_json = None  # the deal as dealt: rebuilt from its number and setup
        except (GameError, ValueError):
            pass
        record = GameRecord(
            id=secrets.token_hex(8), game=game.name, options=dict(game.options), deal=deal,
            setup=dict(start.setup) if deal is not None else {}, start=start_json,
            practice=tags.get("practice", "no").strip().lower() in ("yes", "true", "1"),
            created=now, touched=now)
        session = Session(record, game, history, session_moves)
        with self.lock:
            # An imported game is not played here: its end is not counted in the statistics.
            record.status = status_of(session.position)
            self._save(session)
        return session


def _safe_text(position: Position, move: Move) -> str:
    try:
        return position.move_text(move)
    except Exception:  # the notation of an illegal move may not be writable; fall back to its JSON
        return str(move.to_json())


def _records() -> Any:
    try:
        return importlib.import_module("amber_patience.records")
    except ModuleNotFoundError as exc:
        if exc.name == "amber_patience.records":
            raise ApiError(503, "game records are not available in this version (no records module)") from None
        raise


def move_entry(position: Position, move: Move) -> dict[str, Any]:
    return {"move": move.to_json(), "text": position.move_text(move), "info": position.move_info(move)}


def _solution_entries(position: Position, moves: list[Move]) -> list[dict[str, Any]]:
    out = []
    for move in moves:
        out.append(move_entry(position, move))
        position = position.play(move)
    return out


# -- the catalogue of games -------------------------------------------------------------------------


def game_catalogue() -> list[dict[str, Any]]:
    """Every game with its titles and options (each option with the choices the game accepts)."""
    out = []
    for name in GAME_NAMES:
        try:
            game = get_game(name)
        except GameError:
            continue
        family_choices: Mapping[str, Any] = {}
        try:
            module = importlib.import_module(f"amber_patience.games.{game.family}")
            family_choices = getattr(module, "OPTION_CHOICES", {}) or {}
        except ImportError:
            pass
        options = []
        for key, default in game.options.items():
            candidates = list(family_choices.get(key, _OPTION_CHOICES.get(key, [])))
            choices = []
            for choice in [default, *candidates]:
                if choice in choices:
                    continue
                try:
                    get_game(name, **{key: choice})
                except (GameError, ValueError, TypeError):
                    continue
                choices.append(choice)
            options.append({"name": key, "choices": choices, "default": default})
        out.append({"name": name, "family": game.family, "title": _titles(game), "options": options,
                    "levels": ["easy", "hard"] if bands_for(name) is not None else []})
    return out


# -- the guard: Host, Origin, body size -------------------------------------------------------------

_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class GuardMiddleware:
    """Refuses requests for another Host, changing requests from another Origin, and big bodies."""

    def __init__(self, app: ASGIApp, allowed_hosts: list[str] | None = None,
                 max_body: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.extra_hosts = {h.lower() for h in allowed_hosts or []}
        self.max_body = max_body

    def allowed_hosts(self, scope: Scope) -> set[str]:
        hosts = set(self.extra_hosts)
        server = scope.get("server")
        if not server:
            return hosts | set(_LOOPBACK)
        name, port = server[0], server[1]
        names = set(_LOOPBACK)
        if name and name not in ("0.0.0.0", "::"):
            names.add(f"[{name}]" if ":" in name and not name.startswith("[") else name.lower())
        for n in names:
            if port is None:
                hosts.add(n)
                continue
            hosts.add(f"{n}:{port}")
            if port == 80:
                hosts.add(n)
        return hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        allowed = self.allowed_hosts(scope)
        host = headers.get("host", "").strip().lower()
        if not host:
            await _refuse(scope, send, 400, "the request has no Host header")
            return
        if host not in allowed:
            await _refuse(scope, send, 403, f"this server does not answer for host {host!r} "
                                            f"(it answers for {', '.join(sorted(allowed))})")
            return
        method = scope.get("method", "GET")
        origin = headers.get("origin")
        if method in _CHANGING and origin is not None:
            origin_host = origin.lower().removeprefix("http://").removeprefix("https://").rstrip("/")
            if not origin.lower().startswith(("http://", "https://")) or origin_host not in allowed:
                await _refuse(scope, send, 403, f"requests from origin {origin!r} are refused: "
                                                "only this server's own pages may change games")
                return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = headers.get("content-length")
        if length is not None:
            if not length.strip().isdigit():
                await _refuse(scope, send, 400, f"bad Content-Length {length!r}")
                return
            if int(length) > self.max_body:
                await _refuse(scope, send, 413, f"the request body is too large ({int(length)} bytes; "
                                                f"the limit is {self.max_body})")
                return
        # Read the body here (at most max_body bytes) and hand it on.
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _refuse(scope, send, 413, f"the request body is too large (over {self.max_body} bytes)")
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(scope: Scope, send: Send, status: int, detail: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    response = JSONResponse({"detail": detail}, status_code=status)
    await response(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


# -- the app ------------------------------------------------------------------------------------------


class _Static(StaticFiles):
    """The front end's files; a plain 404 (not an error) while the directory does not exist."""

    async def check_config(self) -> None:
        if self.directory is not None and Path(self.directory).is_dir():
            await super().check_config()

    def lookup_path(self, path: str) -> tuple[str, Any]:
        if self.directory is None or not Path(self.directory).is_dir():
            return "", None
        return super().lookup_path(path)


def _validation_detail(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        loc = [str(p) for p in error.get("loc", ()) if p != "body"]
        where = ".".join(loc) if loc else "body"
        kind = error.get("type", "")
        if kind == "json_invalid":
            reason = error.get("ctx", {}).get("error", "")
            parts.append(f"the body is not valid JSON{': ' + str(reason) if reason else ''}")
        elif kind == "missing":
            parts.append(f"{where}: this field is required")
        elif kind == "extra_forbidden":
            parts.append(f"{where}: unknown field")
        else:
            parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"


def create_app(db_path: str | Path | None = None, *, allowed_hosts: list[str] | None = None,
               hint_seconds: float = 5.0, solution_seconds: float = 15.0, winnable_seconds: float = 20.0,
               analysis_seconds: float = 0.0, prepare_seconds: float = 0.0,
               static_dir: str | Path | None = None) -> FastAPI:
    """The FastAPI app, storing games in ``db_path`` (default: ``$AMBER_PATIENCE_DB`` or the user's
    data directory). ``allowed_hosts`` adds Host names (``name:port``) the server answers for.
    ``analysis_seconds`` > 0 starts the background analyst (:class:`~amber_patience.solvers.lines.Analyst`):
    :func:`serve` turns it on with :data:`ANALYSIS_SECONDS`; it is off by default so that tests
    and embedders run no solver they did not ask for. ``prepare_seconds`` > 0 prepares the next deal of a level
    asked for at random in the background (:meth:`GameService.prepare_later`; :func:`serve`: :data:`PREPARE_SECONDS`
    when the analyst is on, off by default likewise)."""
    store = Store(db_path)
    service = GameService(store, hint_seconds=hint_seconds, solution_seconds=solution_seconds,
                          winnable_seconds=winnable_seconds, analysis_seconds=analysis_seconds,
                          prepare_seconds=prepare_seconds)
    catalogue = game_catalogue()
    static = Path(static_dir) if static_dir is not None else STATIC_DIR

    app = FastAPI(title="Amber Patience", version=__version__,
                  description="The local JSON API of Amber Patience (see docs/http-api.md).")
    app.state.store = store
    app.state.service = service
    app.add_middleware(GuardMiddleware, allowed_hosts=allowed_hosts)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse({"detail": f"the games database cannot be used: {exc}"}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_detail(exc)}, status_code=422)

    errors: dict[int | str, dict[str, Any]] = {
        404: {"model": ErrorOut, "description": "no such game"},
        409: {"model": ErrorOut, "description": "not allowed now; detail says why"},
        422: {"model": ErrorOut, "description": "malformed input; detail says what is wrong"},
    }

    def state(session: Session) -> dict[str, Any]:
        with service.lock:
            return service.state(session)

    @app.get("/api/games", response_model=list[GameInfo], tags=["games"])
    def list_games() -> list[dict[str, Any]]:
        """Every game, with its titles and options."""
        return catalogue

    @app.post("/api/games", response_model=GameState, status_code=201, responses={**errors, 503: {
        "model": ErrorOut, "description": "no deal of the level asked for found in the time limit"}}, tags=["games"])
    def new_game(body: NewGame) -> dict[str, Any]:
        """Deal a new game (random deal, deal number, or the first winnable, easy or hard deal from a number)."""
        return state(service.create(body))

    @app.get("/api/games/{game_id}", response_model=GameState, responses=errors, tags=["games"])
    def get_state(game_id: str) -> dict[str, Any]:
        """A game's state."""
        return state(service.load(game_id))

    @app.delete("/api/games/{game_id}", status_code=204, responses=errors, tags=["games"])
    def delete_game(game_id: str) -> Response:
        """Abandon a game."""
        service.delete(game_id)
        return Response(status_code=204)

    @app.post("/api/games/{game_id}/moves", response_model=GameState, responses=errors, tags=["play"])
    def play_move(game_id: str, body: MoveBody) -> dict[str, Any]:
        """Play a move; an illegal one gets 409 with the rules' reason and changes nothing."""
        return state(service.play(game_id, body.move))

    @app.post("/api/games/{game_id}/setup", response_model=GameState, responses=errors, tags=["play"])
    def choose_setup(game_id: str, body: SetupBody) -> dict[str, Any]:
        """Choose the start cards (Amber) before the first move."""
        return state(service.setup(game_id, body.setup))

    @app.post("/api/games/{game_id}/undo", response_model=GameState, responses=errors, tags=["play"])
    def undo(game_id: str) -> dict[str, Any]:
        """Take back the last move (practice games only)."""
        return state(service.undo(game_id))

    @app.post("/api/games/{game_id}/restart", response_model=GameState, responses=errors, tags=["play"])
    def restart(game_id: str) -> dict[str, Any]:
        """Start the same deal again (same setup); moves and timer cleared."""
        return state(service.restart(game_id))

    @app.get("/api/games/{game_id}/hint", response_model=Hint, responses=errors, tags=["solver"])
    def hint(game_id: str, lang: Literal["en", "ru"] = "en") -> dict[str, Any]:
        """The next move of a winning line (at once along a line already found; otherwise the
        solver thinks for a few seconds at most)."""
        position, status = service.snapshot(game_id)
        if status != "playing":
            raise ApiError(409, f"the game is over ({status}): no hint")
        answer = service.winning_line(position, service.hint_seconds, quick=True)
        if answer.status != "won" or not answer.moves:
            raise ApiError(404, f"no winning move found ({answer.detail})" if answer.detail
                           else "no winning move found")
        move = answer.moves[0]
        return {"move": move.to_json(), "text": position.move_text(move),
                "description": position.describe_move(move, lang), "info": position.move_info(move)}

    @app.get("/api/games/{game_id}/solution", response_model=SolutionOut, responses=errors, tags=["solver"])
    def solution(game_id: str) -> dict[str, Any]:
        """A winning line from the current position, if the solver finds one in its time limit."""
        position, status = service.snapshot(game_id)
        if status != "playing":
            return {"status": status, "moves": [], "detail": f"the game is over ({status})"}
        answer = service.winning_line(position, service.solution_seconds)
        moves = _solution_entries(position, answer.moves) if answer.status == "won" else []
        return {"status": answer.status, "moves": moves, "detail": answer.detail}

    @app.get("/api/games/{game_id}/record", response_class=PlainTextResponse, responses=errors, tags=["records"])
    def export_record(game_id: str) -> PlainTextResponse:
        """The game as a record (text), for saving or sharing."""
        text, session = service.export_record(game_id)
        name = f"amber-{session.game.name}-{session.record.deal if session.record.deal is not None else 'position'}"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}.txt"'})

    @app.post("/api/records", response_model=GameState, status_code=201, responses=errors, tags=["records"])
    def import_record(body: RecordBody) -> dict[str, Any]:
        """Import a game record: every move is replayed through the rules."""
        return state(service.import_record(body.record))

    @app.get("/api/saved", response_model=list[SavedGame], tags=["games"])
    def saved() -> list[dict[str, Any]]:
        """The games in progress, most recently played first."""
        return service.saved()

    @app.get("/api/stats", response_model=list[StatsEntry], tags=["games"])
    def stats() -> list[dict[str, Any]]:
        """Statistics per game and variant, practice games apart."""
        return [s.to_json() for s in store.stats()]

    @app.get("/api/rules/{game}", response_model=RulesOut, responses=errors, tags=["games"])
    def rules(game: str, lang: Literal["en", "ru"] = "en") -> dict[str, Any]:
        """A game's rules as HTML, in English or Russian."""
        from . import rules as rules_module

        if game not in GAME_NAMES:
            raise ApiError(404, f"unknown game {game!r}; the games are: {', '.join(GAME_NAMES)}")
        title = get_game(game).title(lang)
        return {"game": game, "lang": lang, "title": title, "html": rules_module.rules_html(game, lang)}

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse("<!doctype html><title>Amber Patience</title><p>The front end is not installed; "
                            "the API is described at <a href='/docs'>/docs</a>.</p>")

    app.mount("/static", _Static(directory=static, check_dir=False), name="static")
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = True,
          db_path: str | Path | None = None, allowed_hosts: list[str] | None = None,
          analysis_seconds: float = ANALYSIS_SECONDS) -> None:
    """Run the server with uvicorn until interrupted; print its address and open the browser.

    ``port`` 0 takes a free port. ``allowed_hosts`` (``name:port``) adds Host names the server
    answers for, e.g. the machine's address on the local network when listening on ``0.0.0.0``.
    """
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise SystemExit(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    port = sock.getsockname()[1]
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, f"[{host}]" if ":" in host else host)
    url = f"http://{shown}:{port}/"
    try:
        app = create_app(db_path, allowed_hosts=allowed_hosts, analysis_seconds=analysis_seconds,
                         prepare_seconds=PREPARE_SECONDS if analysis_seconds > 0 else 0.0)
    except StoreError as exc:
        sock.close()
        raise SystemExit(str(exc)) from None
    print(f"Amber Patience is at {url} (games stored in {app.state.store.path}); press Ctrl+C to stop.",
          file=sys.stdout, flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
