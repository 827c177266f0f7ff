"""Easy and hard deals: difficulty bands from a calibration, and the search for a deal of a wanted level.

The difficulty figure of a deal is the Amber solver's ``stats["difficulty"]`` (the states its search expanded:
``docs/solver.md``, "The difficulty figure"). ``benchmarks/difficulty_bands.py --write`` solves deals 1-100 of
every Amber layout and writes, per layout, the terciles of the won deals' figures to :data:`BANDS_FILE`: a deal
is *easy* when its figure is at most the lower tercile, *hard* when it is at least the upper one, and *medium*
in between (:func:`level_of`). The file also lists the calibration's hard deals that the solver wins within
:data:`HARD_LIST_FACTOR` times the upper tercile (:attr:`Bands.hard_deals`): a player asking the web server for a
hard deal at random gets one of them, proved again, instead of a search through deals that are mostly not hard.
:func:`find_deal` finds a deal of a wanted level (or any deal the solver wins); the web server (``POST
/api/games``) and the CLI (``amber deal --level``) both use it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

from ..games.base import Game, GameError, Position
from . import Solution
from . import solve as solve_position

#: The calibrated bands (written by ``benchmarks/difficulty_bands.py --write``).
BANDS_FILE = Path(__file__).with_name("difficulty_bands.json")

#: What a player may ask for: any deal the solver wins, or an easy or a hard one (of a game with bands).
Level = Literal["winnable", "easy", "hard"]
LEVELS: tuple[str, ...] = get_args(Level)
#: The band a won deal's figure falls in.
Band = Literal["easy", "medium", "hard"]


#: An easy candidate is solved with this many times the lower tercile as its node limit. Not the tercile itself:
#: where two plans race (``docs/solver.md``, "The race on two cores"), a losing plan that uses up its node limit
#: before the winner finishes adds its states to the figure (without a limit it would still be running), so a
#: limit of the tercile itself would turn some easy deals into "not easy".
EASY_CAP_FACTOR = 2

#: The hard deals the bands list (:attr:`Bands.hard_deals`) have a figure from the upper tercile up to this many
#: times it: hard, and still proved won within the web server's time for finding a deal (Pattern's hardest deal
#: of 1-100 needs about 19 times the tercile, a minute or more of CPU).
HARD_LIST_FACTOR = 2


class NoBandsError(GameError):
    """Easy or hard deals were asked for a game that has no difficulty bands."""


@dataclass(frozen=True, slots=True)
class Bands:
    """A layout's bands: a figure at most ``lower`` is easy, at least ``upper`` is hard (``lower < upper``);
    ``hard_deals``: the calibration's deals with a figure from ``upper`` to :data:`HARD_LIST_FACTOR` x ``upper``,
    in increasing order (the figure of a deal solved again can differ a little where two plans race)."""

    game: str
    lower: int
    upper: int
    hard_deals: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 0 <= self.lower < self.upper:
            raise ValueError(f"{self.game}: the bands need 0 <= lower < upper (got {self.lower}, {self.upper})")


def read_bands(path: Path | None = None) -> dict[str, Bands]:
    """The bands of every calibrated layout, read from ``path`` (default :data:`BANDS_FILE`; none if there is no
    such file)."""
    try:
        data = json.loads((BANDS_FILE if path is None else path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {name: Bands(name, int(entry["lower"]), int(entry["upper"]),
                        tuple(sorted(int(number) for number in entry.get("hard_deals", ()))))
            for name, entry in data.get("layouts", {}).items()}


@cache
def all_bands() -> dict[str, Bands]:
    """The bands of :data:`BANDS_FILE` (read once)."""
    return read_bands()


def bands_for(game: Game | str) -> Bands | None:
    """The bands of a game (a game or its name), or None for a game without bands."""
    return all_bands().get(game if isinstance(game, str) else game.name)


def hard_deals_first(game: Game | str, rng: random.Random | None = None) -> list[int]:
    """The bands' hard deals of a game (:attr:`Bands.hard_deals`) in a random order, none for a game without bands:
    where a hard deal at random is looked for first (``find_deal(first=...)``; the web server and ``amber deal``
    without a number)."""
    bands = bands_for(game)
    if bands is None:
        return []
    return (rng or random.SystemRandom()).sample(bands.hard_deals, len(bands.hard_deals))


def games_with_levels() -> list[str]:
    """The names of the games that have bands (easy and hard deals can be asked for)."""
    return list(all_bands())


def level_of(figure: int, bands: Bands) -> Band:
    """The band of a won deal's difficulty figure: exactly one of easy, medium and hard."""
    if figure <= bands.lower:
        return "easy"
    if figure >= bands.upper:
        return "hard"
    return "medium"


def difficulty_info(game: Game | str, figure: int) -> dict[str, Any]:
    """A won deal's difficulty as the deal's JSON and the web state give it: the figure and its band (None
    for a game without bands)."""
    bands = bands_for(game)
    return {"figure": figure, "level": None if bands is None else level_of(figure, bands)}


def check_level(game: Game, level: str) -> Bands | None:
    """The bands to use for ``level`` on ``game``; raises :class:`ValueError` for an unknown level and
    :class:`NoBandsError` for easy/hard on a game without bands."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}")
    bands = bands_for(game)
    if level != "winnable" and bands is None:
        raise NoBandsError(f"{game.name} has no difficulty bands, so no {level} deal can be found; easy and "
                           f"hard deals are offered for {', '.join(games_with_levels()) or 'no game yet'}")
    return bands


@dataclass(slots=True)
class FoundDeal:
    """A deal of the wanted level: its number, position, the solver's solution (won) and difficulty figure,
    and the band of the figure (None for a game without bands)."""

    number: int
    position: Position
    solution: Solution
    figure: int
    band: Band | None
    tried: int


class DealNotFound(Exception):
    """No deal of the wanted level was found within the deadline or the number of tries."""

    def __init__(self, message: str, tried: int) -> None:
        super().__init__(message)
        self.tried = tried


def node_limit_for(level: str, bands: Bands | None) -> int | None:
    """The node limit a candidate of ``level`` is solved with: :data:`EASY_CAP_FACTOR` times the lower tercile for
    an easy one (a deal that needs more states is not easy), none otherwise."""
    return EASY_CAP_FACTOR * bands.lower if level == "easy" and bands is not None else None


def _figure(solution: Solution) -> int:
    return int(solution.stats.get("difficulty", solution.stats.get("nodes", 0)))


def _seconds(time_limit: float | None, deadline: float | None, clock: Callable[[], float]) -> float | None:
    """A solve's time limit: ``time_limit``, never past ``deadline`` (and at least 0.05 s)."""
    if deadline is None:
        return time_limit
    left = deadline - clock()
    return max(left if time_limit is None else min(left, time_limit), 0.05)


#: A solver as :func:`find_deal` calls it: ``solve(position, time_limit=..., node_limit=...)``.
Solver = Callable[..., Solution]


def _candidates(first: Sequence[int], start: int, last: int | None) -> Iterator[int]:
    """The deal numbers :func:`find_deal` tries: those of ``first`` in their order, then ``start`` upwards (up to
    ``last``), each once."""
    taken: set[int] = set()
    for number in first:
        if number not in taken and (last is None or number <= last):
            taken.add(number)
            yield number
    number = start
    while last is None or number <= last:
        if number not in taken:
            yield number
        number += 1


def find_deal(game: Game, start: int, *, level: str = "winnable", deadline: float | None = None,
              tries: int | None = None, time_limit: float | None = 10.0, solve: Solver = solve_position,
              setup: Mapping[str, str] | None = None,
              clock: Callable[[], float] = time.monotonic, last: int | None = None,
              on_try: Callable[[int, Solution | None], None] | None = None,
              on_error: Callable[[int, Exception], None] | None = None, first: Sequence[int] = ()) -> FoundDeal:
    """The first deal (of ``first``, then from number ``start`` upwards) that the solver wins and whose difficulty
    is of ``level``: ``winnable`` any won deal, ``easy`` a figure at most the lower tercile, ``hard`` at least the
    upper one.

    ``deadline`` (a ``clock`` time) and ``tries`` (deals) bound the search: at least one deal is tried, each
    for at most ``time_limit`` seconds and never past the deadline; ``last`` is the last deal number there is;
    ``setup``: the start cards each deal is dealt with (as ``game.deal(number, setup)``); ``first``: deal numbers
    to try before ``start`` upwards (each deal is tried once; the web server passes the bands' hard deals).
    An easy candidate is solved with :data:`EASY_CAP_FACTOR` times the lower tercile as its node limit (a deal
    that needs more states is not easy, so its search stops early; a candidate won with more states than that,
    which only a race of two plans gives, is solved again without the limit). ``on_try(number, solution)``
    hears of every deal tried that was not taken; a solver error on a deal goes to ``on_error(number, error)``
    (which may raise it again; the deal counts as not won), or is raised when there is no ``on_error``. A game
    without a solver raises ``ModuleNotFoundError`` (from ``solve``). Raises :class:`NoBandsError` (easy or
    hard on a game without bands), :class:`ValueError` (an unknown level) and :class:`DealNotFound` (nothing
    found in time)."""
    bands = check_level(game, level)
    node_limit = node_limit_for(level, bands)
    tried = 0
    for number in _candidates(first, start, last):
        if (tries is not None and tried >= tries) or (deadline is not None and deadline - clock() <= 0 and tried):
            break
        position = game.deal(number, dict(setup) if setup else None)
        solution: Solution | None
        try:
            solution = solve(position, time_limit=_seconds(time_limit, deadline, clock), node_limit=node_limit)
            if node_limit is not None and solution.status == "won" and _figure(solution) > node_limit:
                # more than one raced plan finished: a losing plan stopped by the node limit added its states
                # (without the limit it would still be running when the winner won): solve without the limit
                solution = solve(position, time_limit=_seconds(time_limit, deadline, clock), node_limit=None)
        except ModuleNotFoundError:
            raise
        except Exception as exc:
            if on_error is None:
                raise
            on_error(number, exc)
            solution = None
        tried += 1
        if solution is not None and solution.status == "won":
            figure = _figure(solution)
            band = None if bands is None else level_of(figure, bands)
            if level == "winnable" or band == level:
                return FoundDeal(number, position, solution, figure, band, tried)
        if on_try is not None:
            on_try(number, solution)
    what = "winnable" if level == "winnable" else level
    where = f"among the {len(first)} deals given first, then from deal {start}" if first else f"from deal {start}"
    raise DealNotFound(f"no {what} deal of {game.name} found ({tried} deals tried {where})", tried)
