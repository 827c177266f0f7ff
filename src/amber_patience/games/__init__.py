"""The games of the collection, by name.

``get_game(name, **options)`` returns a :class:`~amber_patience.games.base.Game`.
Each family module under ``games/`` exposes ``GAMES`` (the names it provides) and
``make_game(name, options)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .base import Game, GameError, IllegalMoveError, MalformedError, Move, Position

__all__ = [
    "GAME_NAMES", "Game", "GameError", "IllegalMoveError", "MalformedError", "Move", "Position",
    "game_from_json", "get_game", "position_from_json",
]

#: Every game name and the family module that provides it.
_FAMILIES: dict[str, str] = {
    "path": "amber", "path-52": "amber", "path-36": "amber",
    "arden": "amber", "kolvir": "amber", "pattern": "amber",
    "pyramid-52": "pyramid", "pyramid-36": "pyramid",
    "zodiac": "zodiac", "zodiac-classic": "zodiac",
    "simplest": "simplest",
}


def _available() -> list[str]:
    names = []
    for name, family in _FAMILIES.items():
        try:
            importlib.import_module(f"{__name__}.{family}")
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


GAME_NAMES: tuple[str, ...] = tuple(_available())


def get_game(name: str, **options: Any) -> Game:
    """The game called ``name`` with ``options``; raises :class:`GameError` for a wrong name or option."""
    if name not in GAME_NAMES:
        raise GameError(f"unknown game {name!r}; the games are: {', '.join(GAME_NAMES)}")
    module = importlib.import_module(f"{__name__}.{_FAMILIES[name]}")
    return module.make_game(name, options)


def game_from_json(data: Any) -> Game:
    """The game that a position's JSON names (``game`` and ``options``)."""
    if not isinstance(data, Mapping):
        raise MalformedError("a position must be a JSON object")
    name = data.get("game")
    if not isinstance(name, str):
        raise MalformedError("the position does not name its game (field 'game')")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise MalformedError("'options' must be a JSON object")
    return get_game(name, **dict(options))


def position_from_json(data: Any) -> Position:
    """A position of any game from its JSON form."""
    return game_from_json(data).position_from_json(data)
