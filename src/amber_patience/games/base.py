"""The game API that every game family implements.

A :class:`Game` is the rules of one game with its options: immutable, named
(``kolvir``, ``pyramid-52`` …). ``game.deal(number)`` gives the starting
:class:`Position`; a position lists its legal moves, plays a move (returning a
new position, never changing itself), says whether it is won or lost, and turns
into JSON. Solvers, records, the web server and the command line use only this
surface (plus what a family module documents as public), so a new game needs no
special case anywhere else.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..deals import check_deal_number

JSON = Any


class GameError(ValueError):
    """Anything wrong with a game, a position, a move or an option; the message says what."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules do not allow in this position."""


class MalformedError(GameError):
    """Input (a move, a position, an option) that cannot be read at all."""


class Move(ABC):
    """A move; immutable and hashable. ``str(move)`` is its short text notation."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]: ...


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Turn the top card of the stock onto the waste (the games with a stock)."""

    def to_json(self) -> dict[str, JSON]:
        return {"draw": True}

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Recycle(Move):
    """Turn the waste over as the new stock (when and how often: each game's rules)."""

    def to_json(self) -> dict[str, JSON]:
        return {"recycle": True}

    def __str__(self) -> str:
        return "recycle"


@dataclass(frozen=True, slots=True)
class PileMove(Move):
    """Move ``card``, the top card of pile ``source``, onto pile ``target`` (pile ids of the table).

    JSON: ``{"move": {"card": "Qh", "from": "column-3", "to": "foundation-h"}}``; each game writes
    its own short text notation (``__str__``) in a subclass.
    """

    card: Card
    source: str
    target: str

    def to_json(self) -> dict[str, JSON]:
        return {"move": {"card": str(self.card), "from": self.source, "to": self.target}}


class Game(ABC):
    """The rules of one game and its options."""

    #: The game's name on the command line and in records, e.g. ``kolvir``.
    name: str
    #: The family module under ``games/`` (and ``solvers/``), e.g. ``amber``.
    family: str
    #: Titles by language code.
    titles: Mapping[str, str]

    @property
    @abstractmethod
    def options(self) -> Mapping[str, JSON]:
        """The options as JSON values (empty for a game without options)."""

    @abstractmethod
    def deal(self, number: int, setup: Mapping[str, str] | None = None) -> Position:
        """The starting position of deal ``number``.

        ``setup`` holds the player's choices before play where a game has any
        (Amber: ``Start``, ``SecondStart``); keys and values are text, as in a record.
        """

    @abstractmethod
    def position_from_json(self, data: JSON) -> Position:
        """A position from its JSON form; raises :class:`MalformedError` saying what is wrong."""

    @abstractmethod
    def move_from_json(self, data: JSON) -> Move:
        """A move from its JSON form; raises :class:`MalformedError` saying what is wrong."""

    def check_position_object(self, data: JSON) -> None:
        """The first checks of :meth:`position_from_json`: a JSON object that names this game."""
        if not isinstance(data, Mapping):
            raise MalformedError("a position must be a JSON object")
        if data.get("game") != self.name:
            raise MalformedError(f"this position is of game {data.get('game')!r}, not {self.name!r}")

    def title(self, lang: str = "en") -> str:
        return self.titles.get(lang) or self.titles["en"]

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<{type(self).__name__} {self.name}{' ' + opts if opts else ''}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, dict(self.options)) == (other.name, dict(other.options))

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted((k, repr(v)) for k, v in self.options.items()))))


def read_deal_number(data: Mapping[str, JSON]) -> int | None:
    """The ``deal`` of a position's JSON: ``None``, or a deal number (else :class:`MalformedError`)."""
    deal = data.get("deal")
    if deal is None:
        return None
    try:
        return check_deal_number(deal)
    except ValueError as exc:
        raise MalformedError(str(exc)) from None


class Position(ABC):
    """A position of a game: immutable. ``play`` returns a new position."""

    game: Game
    #: The deal it comes from, or ``None`` for a position given in full.
    deal_number: int | None
    #: The player's choices before play (see :meth:`Game.deal`), as text.
    setup: Mapping[str, str]

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move, and no other, in a stable order."""

    @abstractmethod
    def play(self, move: Move) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError` saying why."""

    @abstractmethod
    def is_won(self) -> bool: ...

    @abstractmethod
    def is_lost(self) -> bool:
        """True when the game cannot go on (no move left, or a rule ends it)."""

    def lost_reason(self) -> str | None:
        """Why the game is lost, for people, or ``None`` while it is not."""
        return "no move is left that could win it" if self.is_lost() else None

    @abstractmethod
    def result(self) -> dict[str, JSON]:
        """How far the game got, e.g. cards in place, cards left, points left."""

    @abstractmethod
    def key(self) -> Hashable:
        """A compact hashable key: equal for positions a solver may treat as the same."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The position as JSON: names its game, options and deal (see ``docs/``)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """A move from its text notation in this position; raises :class:`MalformedError`."""

    def move_text(self, move: Move) -> str:
        """The text notation of ``move`` in this position (for records)."""
        return str(move)

    def describe_move(self, move: Move, lang: str = "en") -> str:
        """A sentence for people, e.g. in hints."""
        return self.move_text(move)

    def move_info(self, move: Move) -> dict[str, JSON]:
        """What a front end needs to show ``move``: ``cards`` (the notations of the cards it moves
        or removes), ``from`` (the ids of the piles or cells they leave) and ``to`` (the id of the
        pile they go to, or ``None`` when they leave play or trade places)."""
        return move_info_default(self, move)

    def to_text(self) -> str:
        """A readable multi-line view for a terminal."""
        import json

        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def check_move(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` if ``move`` is not legal here."""
        self.play(move)


def move_info_default(position: Position, move: Move) -> dict[str, JSON]:
    """What a front end needs to show a move: see :meth:`Position.move_info`."""
    return {"cards": [], "from": [], "to": None}
