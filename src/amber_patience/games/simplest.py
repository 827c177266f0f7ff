"""The Simplest patience ("Самый простой пасьянс"): an easy, open version of Klondike.

The whole rules live here (see ``docs/simplest.md``):

* 52 cards; 10 columns of 4 cards, all face up; the other 12 cards form the stock (face down);
* four free cells, each holding one card; four foundations, one per suit, built up from ace to king;
* only the top card of a column moves, one card at a time; on a column cards build down in
  alternating colours; an empty column takes a king (option ``empty=king``, the default) or any
  card (``empty=any``);
* the stock is turned one card at a time onto the waste, whose top card is playable; when the
  stock is empty the waste is turned over as the new stock, as often as the player likes;
* a playable card (a column's top card, a free-cell card, the waste's top card) may go to its
  foundation or onto a column; a column's top card or the waste's top card may go into an empty
  free cell; cards never leave the foundations;
* won when all 52 cards are on the foundations.

Deal ``n``: :func:`amber_patience.deals.deck_order` of the French 52-card deck; the first 40 cards
are dealt row by row (card ``i`` to column ``i % 10``, each row on top of the one before), and the
remaining 12 form the stock, the 41st card on top (the first to be turned).

Public for solvers and front ends: :class:`SimplestGame`, :class:`SimplestPosition` (``columns``,
``cells``, ``foundations``, ``stock``, ``waste``, ``cycle``), the moves :class:`Draw`,
:class:`Recycle` and :class:`Shift`, and the pile ids (:func:`column_id`, :func:`cell_id`,
:func:`foundation_id`, ``STOCK``, ``WASTE``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..cards import FRENCH_52, KING, SUITS, Card, CardError, Suit
from ..deals import check_deal_number, deck_order
from .base import (
    Draw,
    Game,
    GameError,
    IllegalMoveError,
    MalformedError,
    Move,
    PileMove,
    Position,
    Recycle,
    read_deal_number,
)

GAMES = ("simplest",)

#: What an empty column takes: ``king`` (the default) or ``any`` card.
EMPTY_RULES = ("king", "any")
COLUMNS = 10
ROWS = 4
CELLS = 4
DECK = FRENCH_52

STOCK = "stock"
WASTE = "waste"

_TITLES = {"en": "Simplest patience", "ru": "Самый простой пасьянс"}
_CELL_LETTERS = "abcd"


def column_id(i: int) -> str:
    """The pile id of column ``i`` (0-based index; ids count from 1: ``column-1`` … ``column-10``)."""
    return f"column-{i + 1}"


def cell_id(i: int) -> str:
    """The pile id of free cell ``i`` (0-based index; ids ``cell-1`` … ``cell-4``)."""
    return f"cell-{i + 1}"


def foundation_id(suit: Suit) -> str:
    """The pile id of a suit's foundation: ``foundation-c``, ``-h``, ``-s``, ``-d``."""
    return f"foundation-{suit.value}"


_COLUMN_IDS = {column_id(i): i for i in range(COLUMNS)}
_CELL_IDS = {cell_id(i): i for i in range(CELLS)}
_FOUNDATION_IDS = {foundation_id(s): s for s in SUITS}
#: Every pile a card may leave by a card move, and every pile a card may go to.
SOURCES = frozenset((WASTE, *_COLUMN_IDS, *_CELL_IDS))
TARGETS = frozenset((*_FOUNDATION_IDS, *_COLUMN_IDS, *_CELL_IDS))
ALL_PILES = frozenset((STOCK, WASTE, *_COLUMN_IDS, *_CELL_IDS, *_FOUNDATION_IDS))


def _pile_name(pile: str) -> str:
    if pile in _COLUMN_IDS:
        return f"column {_COLUMN_IDS[pile] + 1}"
    if pile in _CELL_IDS:
        return f"free cell {_CELL_IDS[pile] + 1}"
    if pile in _FOUNDATION_IDS:
        return f"the {_FOUNDATION_IDS[pile].name.lower()} foundation"
    return f"the {pile}"


def _pile_name_ru(pile: str) -> str:
    if pile in _COLUMN_IDS:
        return f"столбец {_COLUMN_IDS[pile] + 1}"
    if pile in _CELL_IDS:
        return f"ячейка {_CELL_IDS[pile] + 1}"
    if pile in _FOUNDATION_IDS:
        return "базовая стопка"
    return {STOCK: "колода", WASTE: "отбой"}.get(pile, pile)


# -- moves -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shift(PileMove):
    """Move one card from pile ``source`` to pile ``target`` (pile ids, e.g. ``column-3``)."""

    def __str__(self) -> str:
        return f"{self.card}>{_target_token(self.target)}"


def _target_token(target: str) -> str:
    if target in _FOUNDATION_IDS:
        return "f"
    if target in _COLUMN_IDS:
        return str(_COLUMN_IDS[target] + 1)
    if target in _CELL_IDS:
        return _CELL_LETTERS[_CELL_IDS[target]]
    return target


def _parse_target(token: str, card: Card) -> str:
    t = token.strip().lower()
    if t in ("f", "foundation", "home"):
        assert card.suit is not None
        return foundation_id(card.suit)
    if t.isdigit() and 1 <= int(t) <= COLUMNS and str(int(t)) == t:
        return column_id(int(t) - 1)
    if len(t) == 1 and t in _CELL_LETTERS:
        return cell_id(_CELL_LETTERS.index(t))
    if t in TARGETS:
        return t
    raise MalformedError(
        f"{token!r} is not a place a card can go to: write f (foundation), 1-{COLUMNS} (a column), "
        f"a-d (a free cell) or a pile id such as column-3")


# -- the game ----------------------------------------------------------------------------------------


def _is_red(card: Card) -> bool:
    assert card.suit is not None
    return card.suit.is_red


def fits_on(card: Card, below: Card) -> bool:
    """Whether ``card`` may be put on ``below`` in a column: one rank lower, the other colour."""
    return card.rank == below.rank - 1 and _is_red(card) != _is_red(below)


class SimplestGame(Game):
    """The Simplest patience with its option ``empty`` (``king`` or ``any``)."""

    name = "simplest"
    family = "simplest"
    titles = _TITLES

    def __init__(self, empty: str = "king") -> None:
        if empty not in EMPTY_RULES:
            raise GameError(f"option empty must be 'king' or 'any' (what an empty column takes), not {empty!r}")
        self.empty = empty

    @property
    def options(self) -> Mapping[str, Any]:
        return {"empty": self.empty}

    def accepts_in_empty_column(self, card: Card) -> bool:
        return self.empty == "any" or card.rank == KING

    def deal(self, number: int, setup: Mapping[str, str] | None = None) -> SimplestPosition:
        number = check_deal_number(number)
        if setup:
            raise GameError(f"the Simplest patience has no setup before play (got {', '.join(sorted(setup))})")
        order = deck_order(DECK, number)
        columns = tuple(tuple(order[row * COLUMNS + c] for row in range(ROWS)) for c in range(COLUMNS))
        stock = tuple(reversed(order[COLUMNS * ROWS:]))
        return SimplestPosition(self, columns, (None,) * CELLS, (0, 0, 0, 0), stock, (), number)

    def move_from_json(self, data: Any) -> Move:
        if not isinstance(data, Mapping) or len(data) != 1:
            raise MalformedError('a Simplest move is {"draw": true}, {"recycle": true} or '
                                 '{"move": {"card": "Qh", "from": "column-3", "to": "foundation-h"}}')
        (action, value), = data.items()
        if action in ("draw", "recycle"):
            if value is not True:
                raise MalformedError(f'write the {action} move as {{"{action}": true}}')
            return Draw() if action == "draw" else Recycle()
        if action != "move":
            raise MalformedError(f"unknown move {action!r}: the moves are draw, recycle and move")
        if not isinstance(value, Mapping) or set(value) != {"card", "from", "to"}:
            raise MalformedError('"move" must be an object with exactly "card", "from" and "to"')
        try:
            card = DECK.parse(value["card"])
        except CardError as exc:
            raise MalformedError(f"move: {exc}") from None
        source, target = value["from"], value["to"]
        if not isinstance(source, str) or source not in SOURCES:
            raise MalformedError(f"move: {source!r} is not a pile a card can leave (the waste, a column "
                                 "column-1 … column-10 or a free cell cell-1 … cell-4)")
        if not isinstance(target, str) or target not in TARGETS:
            raise MalformedError(f"move: {target!r} is not a pile a card can go to (a foundation "
                                 "foundation-c/h/s/d, a column column-1 … column-10 or a free cell cell-1 … cell-4)")
        return Shift(card, source, target)

    def position_from_json(self, data: Any) -> SimplestPosition:
        self.check_position_object(data)
        options = data.get("options", {})
        if isinstance(options, Mapping) and options.get("empty", "king") != self.empty:
            raise MalformedError(f"this position is for empty={options.get('empty')!r}, not {self.empty!r}")

        def card_list(value: Any, where: str) -> tuple[Card, ...]:
            if not isinstance(value, list):
                raise MalformedError(f"{where} must be a list of cards")
            try:
                return tuple(DECK.parse(v) for v in value)
            except CardError as exc:
                raise MalformedError(f"{where}: {exc}") from None

        raw_columns = data.get("columns")
        if not isinstance(raw_columns, list) or len(raw_columns) != COLUMNS:
            raise MalformedError(f"'columns' must be a list of {COLUMNS} columns (each a list of cards, bottom first)")
        columns = tuple(card_list(col, f"column {i + 1}") for i, col in enumerate(raw_columns))
        raw_cells = data.get("cells")
        if not isinstance(raw_cells, list) or len(raw_cells) != CELLS:
            raise MalformedError(f"'cells' must be a list of {CELLS} free cells (a card or null)")
        cells: list[Card | None] = []
        for i, value in enumerate(raw_cells):
            if value is None:
                cells.append(None)
                continue
            try:
                cells.append(DECK.parse(value))
            except CardError as exc:
                raise MalformedError(f"free cell {i + 1}: {exc}") from None
        raw_found = data.get("foundations")
        if not isinstance(raw_found, Mapping) or set(raw_found) != {s.value for s in SUITS}:
            raise MalformedError("'foundations' must be an object giving for each suit c, h, s, d "
                                 "the number of cards on its foundation (0 to 13)")
        foundations = []
        for suit in SUITS:
            n = raw_found[suit.value]
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 13:
                raise MalformedError(f"foundation {suit.value}: {n!r} is not a number of cards from 0 to 13")
            foundations.append(n)
        stock = card_list(data.get("stock"), "'stock'")
        waste = card_list(data.get("waste"), "'waste'")
        seen: dict[Card, str] = {}
        places: list[tuple[str, Sequence[Card | None]]] = [
            *((f"column {i + 1}", col) for i, col in enumerate(columns)),
            ("the free cells", cells), ("the stock", stock), ("the waste", waste),
            *((f"the {s.name.lower()} foundation", [Card(DECK.pattern, s, r) for r in range(1, n + 1)])
              for s, n in zip(SUITS, foundations, strict=True))]
        for where, cards in places:
            for card in cards:
                if card is None:
                    continue
                if card in seen:
                    raise MalformedError(f"{card} is both in {seen[card]} and in {where}")
                seen[card] = where
        missing = [str(c) for c in DECK.cards if c not in seen]
        if missing:
            raise MalformedError(f"cards missing from the position: {' '.join(missing)}")
        deal = read_deal_number(data)
        if data.get("setup"):
            raise MalformedError("the Simplest patience has no setup: 'setup' must be empty")
        return SimplestPosition(self, columns, tuple(cells), tuple(foundations), stock, waste, deal)


# -- positions ---------------------------------------------------------------------------------------


class SimplestPosition(Position):
    """A position: ``columns`` (bottom to top), ``cells`` (a card or ``None``), ``foundations``
    (cards on each suit's foundation, in the order of :data:`~amber_patience.cards.SUITS`),
    ``stock`` and ``waste`` (bottom to top: the last card is the top)."""

    setup: Mapping[str, str] = {}

    def __init__(self, game: SimplestGame, columns: tuple[tuple[Card, ...], ...], cells: tuple[Card | None, ...],
                 foundations: tuple[int, ...], stock: tuple[Card, ...], waste: tuple[Card, ...],
                 deal_number: int | None) -> None:
        self.game: SimplestGame = game
        self.columns = columns
        self.cells = cells
        self.foundations = foundations
        self.stock = stock
        self.waste = waste
        self.deal_number = deal_number
        self.setup = {}

    # -- reading the table --------------------------------------------------------------------------

    @property
    def cycle(self) -> tuple[Card, ...]:
        """The stock and waste together in the order they turn: the waste from its bottom card, then
        the stock from its top card. Turning and recycling walk round this cycle; any of its cards can
        be brought to the waste top by turning alone."""
        return self.waste + tuple(reversed(self.stock))

    def foundation_count(self, suit: Suit) -> int:
        return self.foundations[suit.index]

    def cards_on_foundations(self) -> int:
        return sum(self.foundations)

    def top_of(self, pile: str) -> Card | None:
        """The playable card of a source pile (the waste top, a free cell's card, a column's top)."""
        if pile == WASTE:
            return self.waste[-1] if self.waste else None
        if pile in _CELL_IDS:
            return self.cells[_CELL_IDS[pile]]
        if pile in _COLUMN_IDS:
            col = self.columns[_COLUMN_IDS[pile]]
            return col[-1] if col else None
        return None

    def where(self, card: Card) -> str:
        """The id of the pile that holds ``card``."""
        for i, col in enumerate(self.columns):
            if card in col:
                return column_id(i)
        for i, c in enumerate(self.cells):
            if c == card:
                return cell_id(i)
        if card in self.waste:
            return WASTE
        if card in self.stock:
            return STOCK
        assert card.suit is not None
        return foundation_id(card.suit)

    # -- the rules ----------------------------------------------------------------------------------

    def target_problem(self, card: Card, target: str, source: str) -> str | None:
        """Why ``card`` (leaving ``source``) cannot go to ``target``, or ``None`` if it can."""
        assert card.suit is not None
        if target in _FOUNDATION_IDS:
            suit = _FOUNDATION_IDS[target]
            if suit != card.suit:
                return f"{card} can only go to the {card.suit.name.lower()} foundation, not {_pile_name(target)}"
            have = self.foundations[suit.index]
            if card.rank != have + 1:
                if have == 13:
                    return f"the {suit.name.lower()} foundation is complete"
                need = str(Card(DECK.pattern, suit, have + 1))
                return f"the {suit.name.lower()} foundation needs {need} next, not {card}"
            return None
        if target in _COLUMN_IDS:
            col = self.columns[_COLUMN_IDS[target]]
            if not col:
                if not self.game.accepts_in_empty_column(card):
                    return f"an empty column takes only a king (option empty=king), not {card}"
                return None
            below = col[-1]
            if not fits_on(card, below):
                return (f"{card} cannot go on {below} in {_pile_name(target)}: columns build down "
                        "in alternating colours")
            return None
        if target in _CELL_IDS:
            if source in _CELL_IDS:
                return "a card does not move from one free cell to another"
            held = self.cells[_CELL_IDS[target]]
            if held is not None:
                return f"{_pile_name(target)} already holds {held}; a free cell holds one card"
            return None
        return f"no card may be put on {_pile_name(target)}"

    def move_problem(self, move: Move) -> str | None:
        """Why ``move`` is illegal here, or ``None`` if it is legal."""
        if isinstance(move, Draw):
            if not self.stock:
                return ("the stock is empty: recycle the waste to turn it over as a new stock" if self.waste
                        else "the stock and the waste are both empty")
            return None
        if isinstance(move, Recycle):
            if self.stock:
                return f"the stock still has {len(self.stock)} card(s): the waste is turned over only when it is empty"
            if not self.waste:
                return "the waste is empty: there is nothing to turn over"
            return None
        if not isinstance(move, Shift):
            raise MalformedError(f"not a move of the Simplest patience: {move!r}")
        card, source, target = move.card, move.source, move.target
        if source not in SOURCES:
            return f"a card cannot be taken from {_pile_name(source)}"
        if target == source:
            return f"{card} is already in {_pile_name(source)}"
        if self.top_of(source) != card:
            actual = self.where(card)
            if actual == STOCK:
                return f"{card} is in the stock: turn the stock until it is the top card of the waste"
            if actual in _FOUNDATION_IDS:
                return f"{card} is on its foundation; cards never leave the foundations"
            if actual == source:
                if source == WASTE:
                    return f"{card} is in the waste under other cards: only the waste's top card is playable"
                return f"{card} is not the top card of {_pile_name(source)}: only the top card moves"
            return f"{card} is not in {_pile_name(source)} but in {_pile_name(actual)}"
        return self.target_problem(card, target, source)

    def _shifts(self) -> list[Shift]:
        sources: list[tuple[str, Card]] = []
        if self.waste:
            sources.append((WASTE, self.waste[-1]))
        sources += [(cell_id(i), c) for i, c in enumerate(self.cells) if c is not None]
        sources += [(column_id(i), col[-1]) for i, col in enumerate(self.columns) if col]
        moves: list[Shift] = []
        for source, card in sources:
            assert card.suit is not None
            if card.rank == self.foundations[card.suit.index] + 1:
                moves.append(Shift(card, source, foundation_id(card.suit)))
        for source, card in sources:
            for i, col in enumerate(self.columns):
                target = column_id(i)
                if target == source:
                    continue
                if (fits_on(card, col[-1]) if col else self.game.accepts_in_empty_column(card)):
                    moves.append(Shift(card, source, target))
        for source, card in sources:
            if source in _CELL_IDS:
                continue
            for i, held in enumerate(self.cells):
                if held is None:
                    moves.append(Shift(card, source, cell_id(i)))
        return moves

    def legal_moves(self) -> list[Move]:
        """Moves to foundations, then to columns, then to free cells; then turning the stock."""
        moves: list[Move] = list(self._shifts())
        if self.stock:
            moves.append(Draw())
        elif self.waste:
            moves.append(Recycle())
        return moves

    def play(self, move: Move) -> SimplestPosition:
        problem = self.move_problem(move)
        if problem:
            raise IllegalMoveError(f"illegal move {move}: {problem}")
        columns, cells, foundations = self.columns, self.cells, self.foundations
        stock, waste = self.stock, self.waste
        if isinstance(move, Draw):
            stock, waste = stock[:-1], waste + stock[-1:]
        elif isinstance(move, Recycle):
            stock, waste = tuple(reversed(waste)), ()
        else:
            assert isinstance(move, Shift) and move.card.suit is not None
            cols = list(columns)
            cell_list = list(cells)
            if move.source == WASTE:
                waste = waste[:-1]
            elif move.source in _CELL_IDS:
                cell_list[_CELL_IDS[move.source]] = None
            else:
                i = _COLUMN_IDS[move.source]
                cols[i] = cols[i][:-1]
            if move.target in _FOUNDATION_IDS:
                f = list(foundations)
                f[move.card.suit.index] += 1
                foundations = tuple(f)
            elif move.target in _CELL_IDS:
                cell_list[_CELL_IDS[move.target]] = move.card
            else:
                i = _COLUMN_IDS[move.target]
                cols[i] = cols[i] + (move.card,)
            columns, cells = tuple(cols), tuple(cell_list)
        return SimplestPosition(self.game, columns, cells, foundations, stock, waste, self.deal_number)

    def check_move(self, move: Move) -> None:
        problem = self.move_problem(move)
        if problem:
            raise IllegalMoveError(f"illegal move {move}: {problem}")

    def is_won(self) -> bool:
        return sum(self.foundations) == len(DECK)

    def could_play_from_waste(self, card: Card) -> bool:
        """Whether ``card``, once turned to the waste top, could be moved anywhere."""
        assert card.suit is not None
        if card.rank == self.foundations[card.suit.index] + 1 or None in self.cells:
            return True
        return any(fits_on(card, col[-1]) if col else self.game.accepts_in_empty_column(card)
                   for col in self.columns)

    def is_lost(self) -> bool:
        """Lost: not won, no card move is legal, and turning the stock round a whole cycle would bring
        no card to the waste top that could move (so nothing can ever change but the stock's turning)."""
        if self.is_won() or self._shifts():
            return False
        return not any(self.could_play_from_waste(card) for card in self.cycle)

    def status(self) -> str:
        return "won" if self.is_won() else "lost" if self.is_lost() else "playing"

    def result(self) -> dict[str, Any]:
        on = self.cards_on_foundations()
        return {"won": on == len(DECK), "cards_on_foundations": on, "cards_left": len(DECK) - on}

    def key(self) -> Hashable:
        """Bytes: the columns in sorted order, the free cells' cards sorted, and the stock and waste
        cards sorted (every card of the stock/waste cycle can be reached by turning alone, and taking
        one out leaves the others reachable, so their order does not matter to a solver)."""
        index = DECK.index
        columns = sorted(bytes(index(c) for c in col) for col in self.columns)
        cells = bytes(sorted(index(c) for c in self.cells if c is not None))
        cycle = bytes(sorted(index(c) for c in self.cycle))
        return b"\xff".join([*columns, cells, cycle])

    # -- JSON and text --------------------------------------------------------------------------------

    @cached_property
    def _piles(self) -> list[dict[str, Any]]:
        gap = 1.15

        def pile(pid: str, kind: str, x: float, y: float, fan: str, cards: Sequence[Card | None],
                 face_up: bool = True) -> dict[str, Any]:
            shown = [{"card": str(c) if face_up and c is not None else None, "face_up": face_up}
                     for c in cards if c is not None]
            return {"id": pid, "kind": kind, "x": round(x, 2), "y": y, "fan": fan, "cards": shown,
                    "count": len(shown)}

        piles = [pile(STOCK, "stock", 0.0, 0.0, "none", self.stock, face_up=False),
                 pile(WASTE, "waste", gap, 0.0, "none", self.waste)]
        for i, card in enumerate(self.cells):
            piles.append(pile(cell_id(i), "freecell", (2 + i) * gap, 0.0, "none", [card]))
        for k, suit in enumerate(SUITS):
            cards = [Card(DECK.pattern, suit, r) for r in range(1, self.foundations[k] + 1)]
            piles.append(pile(foundation_id(suit), "foundation", (6 + k) * gap, 0.0, "none", cards))
        for i, col in enumerate(self.columns):
            piles.append(pile(column_id(i), "tableau", i * gap, 1.3, "down", col))
        return piles

    def to_json(self) -> dict[str, Any]:
        status = self.status()
        return {
            "game": self.game.name,
            "options": dict(self.game.options),
            "deal": self.deal_number,
            "setup": {},
            "status": status,
            "result": self.result(),
            "piles": self._piles,
            "columns": [[str(c) for c in col] for col in self.columns],
            "cells": [str(c) if c is not None else None for c in self.cells],
            "foundations": {s.value: n for s, n in zip(SUITS, self.foundations, strict=True)},
            "stock": [str(c) for c in self.stock],
            "waste": [str(c) for c in self.waste],
        }

    def move_info(self, move: Move) -> dict[str, Any]:
        """A card move names its card, source and target. Turning the stock (``draw``) moves no named
        card: ``from`` the stock ``to`` the waste. Turning the waste over (``recycle``) takes the
        cards from the waste back to the stock; its ``from`` lists the stock too, so that a click on
        the empty stock plays it, as in most Klondike programs (as in Pyramid, a click on the waste
        does too)."""
        if isinstance(move, Shift):
            return {"cards": [str(move.card)], "from": [move.source], "to": move.target}
        if isinstance(move, Draw):
            return {"cards": [], "from": [STOCK], "to": WASTE}
        if isinstance(move, Recycle):
            return {"cards": [], "from": [WASTE, STOCK], "to": STOCK}
        raise MalformedError(f"not a move of the Simplest patience: {move!r}")

    def parse_move(self, text: str) -> Move:
        """``draw``, ``recycle``, or a card and where it goes: ``Qh>f`` (its foundation), ``Qh>3``
        (column 3), ``Qh>a`` (free cell a = cell-1 … d = cell-4); pile ids also do: ``Qh>column-3``.
        The card's source is wherever it lies now."""
        if not isinstance(text, str):
            raise MalformedError(f"a move must be given as text, not {type(text).__name__}")
        t = text.strip()
        if t.lower() in ("draw", "t", "turn"):
            return Draw()
        if t.lower() == "recycle":
            return Recycle()
        parts = t.replace(">", " ").split()
        if len(parts) != 2:
            raise MalformedError(f"{text!r} is not a move: write draw, recycle, or a card and where it goes "
                                 "(Qh>f, Qh>3, Qh>a)")
        try:
            card = DECK.parse(parts[0])
        except CardError as exc:
            raise MalformedError(str(exc)) from None
        return Shift(card, self.where(card), _parse_target(parts[1], card))

    def describe_move(self, move: Move, lang: str = "en") -> str:
        if isinstance(move, Draw):
            return "Turn a card from the stock" if lang == "en" else "Открыть карту из колоды"
        if isinstance(move, Recycle):
            return "Turn the waste over as a new stock" if lang == "en" else "Перевернуть сброс в новую колоду"
        assert isinstance(move, Shift)
        if lang == "ru":
            return f"{move.card.name('ru')}: {_pile_name_ru(move.source)} → {_pile_name_ru(move.target)}"
        return f"Move the {move.card.name()} from {_pile_name(move.source)} to {_pile_name(move.target)}"

    def to_text(self) -> str:
        def show(card: Card | None) -> str:
            return f"{card!s:>3}" if card is not None else "  ."

        lines = [f"{self.game.title()} (empty column: {self.game.empty})"
                 + (f", deal {self.deal_number}" if self.deal_number is not None else "")
                 + f" — {self.status()}, {self.cards_on_foundations()} of 52 on the foundations"]
        waste = " ".join(str(c) for c in self.waste[-3:])
        lines.append(f"Stock: {len(self.stock):2d} card(s)   Waste ({len(self.waste)}): "
                     f"{'… ' if len(self.waste) > 3 else ''}{waste or '-'}")
        lines.append("Cells:" + "".join(f"  {letter}:{show(c)}" for letter, c in zip(_CELL_LETTERS, self.cells,
                                                                                      strict=True)))
        found = []
        for suit, n in zip(SUITS, self.foundations, strict=True):
            found.append(f"  {suit.value}:{show(Card(DECK.pattern, suit, n)) if n else '  -'}")
        lines.append("Foundations:" + "".join(found))
        lines.append(" ".join(f"{i + 1:>3}" for i in range(COLUMNS)))
        depth = max((len(col) for col in self.columns), default=0)
        for row in range(depth):
            lines.append(" ".join(show(col[row]) if row < len(col) else "   " for col in self.columns).rstrip())
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, SimplestPosition) and self.game == other.game
                and (self.columns, self.cells, self.foundations, self.stock, self.waste)
                == (other.columns, other.cells, other.foundations, other.stock, other.waste))

    def __hash__(self) -> int:
        return hash((self.columns, self.cells, self.foundations, self.stock, self.waste))

    def __repr__(self) -> str:
        return (f"<SimplestPosition empty={self.game.empty} deal={self.deal_number} "
                f"on_foundations={self.cards_on_foundations()}>")


def make_game(name: str, options: Mapping[str, Any]) -> SimplestGame:
    if name not in GAMES:
        raise GameError(f"unknown game {name!r} in the Simplest family; the games are: {', '.join(GAMES)}")
    unknown = set(options) - {"empty"}
    if unknown:
        raise GameError(f"{name} has one option, empty ('king' or 'any'); unknown: {', '.join(sorted(unknown))}")
    return SimplestGame(**dict(options))
