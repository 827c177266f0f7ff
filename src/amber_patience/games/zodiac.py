"""Zodiac: two 52-card decks, the Equator (8 cells), the Zodiac (24 piles), stock, waste, 8 foundations.

The whole rules of the family live here (see ``docs/zodiac.md``):

* ``zodiac`` (the seed text's rules): at the deal, aces and kings among the 32 dealt cards go to
  the foundations (the first of each where it fits); a Zodiac gap so left is filled at once from
  the stock, an Equator gap stays empty;
* ``zodiac-classic`` (Cadogan 1914, as PySolFC's "Zodiac"): aces and kings stay where they are
  dealt, nothing goes to a foundation before phase 2, and the first stock card is turned onto the
  waste at the deal (as PySolFC does);
* phase 1, while the stock or the waste holds cards: the stock is turned one card at a time onto
  the waste, with as many passes as needed; the waste top may go onto a Zodiac pile in suit one
  rank up or down (no ace-king wrap; a pile may change direction) or into an empty Equator cell;
  an Equator card may go onto a Zodiac pile likewise; under the seed rules the waste top and the
  Equator cards may also go to a foundation. Zodiac cards never move. The waste may be turned over
  as a new stock only if a card was placed during the pass that just ended: a whole pass with no
  card placed loses the game;
* phase 2, when the stock and the waste are empty: Zodiac pile tops and Equator cards go to the
  foundations, and nothing else moves;
* foundations: per suit one built up from the ace to the king, one built down from the king to the
  ace. Won when all 104 cards are on the foundations.

Deal ``n`` takes PySolFC's deck order for its game ``n`` with two decks
(:func:`amber_patience.pysol.pysol_deck_order`) and deals as PySolFC's Zodiac does: 8 Equator
cells, then the 24 Zodiac piles in PySolFC's order; the rest is the stock.

Public for solvers and front ends: :class:`ZodiacGame`, :class:`ZodiacPosition` (``stock``,
``waste``, ``equator``, ``zodiac``, ``up``, ``down``, ``placed``, ``phase``), the moves
:class:`Draw`, :class:`Recycle`, :class:`Transfer`, and the pile ids (:func:`equator_id`,
:func:`zodiac_id`, :func:`foundation_id`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..cards import ACE, FRENCH_52, KING, SUITS, Card, CardError, Suit
from ..deals import check_deal_number
from ..pysol import pysol_deck_order
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

GAMES = ("zodiac", "zodiac-classic")

#: The number of Equator cells and of Zodiac piles.
EQUATOR_CELLS = 8
ZODIAC_PILES = 24
#: Cards in play: two French decks.
TOTAL_CARDS = 104

DECK = FRENCH_52

_TITLES = {
    "zodiac": {"en": "Zodiac", "ru": "Зодиак"},
    "zodiac-classic": {"en": "Zodiac (classic rules)", "ru": "Зодиак (классические правила)"},
}

_SUIT_BY_CHAR = {s.value: s for s in SUITS}

STOCK = "stock"
WASTE = "waste"


def equator_id(i: int) -> str:
    return f"equator-{i}"


def zodiac_id(i: int) -> str:
    return f"zodiac-{i}"


def foundation_id(suit: Suit, up: bool) -> str:
    return f"foundation-{suit.value}-{'up' if up else 'down'}"


#: Every pile id that a transfer may name, and its short form in the text notation.
_SHORT: dict[str, str] = {WASTE: "w"}
_SHORT.update({equator_id(i): f"e{i}" for i in range(EQUATOR_CELLS)})
_SHORT.update({zodiac_id(i): f"z{i}" for i in range(ZODIAC_PILES)})
_SHORT.update({foundation_id(s, up): f"f{s.value}{'u' if up else 'd'}" for s in SUITS for up in (True, False)})
_LONG: dict[str, str] = {short: long for long, short in _SHORT.items()}


def _pile_kind(pile: str) -> str:
    """``waste``, ``equator``, ``zodiac`` or ``foundation`` (``pile`` must be a known id)."""
    return pile.split("-", 1)[0]


def _pile_index(pile: str) -> int:
    return int(pile.rsplit("-", 1)[1])


def _foundation_of(pile: str) -> tuple[Suit, bool]:
    _, suit, direction = pile.split("-")
    return _SUIT_BY_CHAR[suit], direction == "up"


def _check_pile_id(pile: object, what: str) -> str:
    if not isinstance(pile, str):
        raise MalformedError(f"{what} must be a pile id (text), not {pile!r}")
    if pile in _SHORT:
        return pile
    if pile in _LONG:
        return _LONG[pile]
    if pile == STOCK:
        raise MalformedError(f"{what}: no card moves to or from the stock except by turning it (draw, recycle)")
    raise MalformedError(f"{what}: {pile!r} is not a pile of Zodiac (waste, equator-0..7, zodiac-0..23, "
                         "foundation-<suit>-up/down)")


# -- moves ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Transfer(PileMove):
    """Move ``card``, the top card of pile ``source``, onto pile ``target`` (pile ids)."""

    def __str__(self) -> str:
        return f"{self.card} {_SHORT[self.source]}>{_SHORT[self.target]}"


# -- the game -------------------------------------------------------------------------------------

def card_fits_zodiac(card: Card, top: Card | None) -> bool:
    """Whether ``card`` may go onto a Zodiac pile whose top card is ``top``: in suit, one rank up
    or down, no ace-king wrap. An empty pile (only after the deal is over) takes nothing."""
    return top is not None and card.suit == top.suit and abs(card.rank - top.rank) == 1


def fits_up(card: Card, up_count: int) -> bool:
    """Whether ``card`` is next on its suit's up foundation holding ``up_count`` cards (ace first)."""
    return card.rank == up_count + 1


def fits_down(card: Card, down_count: int) -> bool:
    """Whether ``card`` is next on its suit's down foundation holding ``down_count`` cards (king first)."""
    return down_count < 13 and card.rank == KING - down_count


class ZodiacGame(Game):
    """Zodiac under the seed rules (``zodiac``) or the classic rules (``zodiac-classic``)."""

    family = "zodiac"

    def __init__(self, name: str) -> None:
        if name not in GAMES:
            raise GameError(f"unknown Zodiac game {name!r}; the games are: {', '.join(GAMES)}")
        self.name = name
        self.titles = _TITLES[name]
        #: Classic rules: no foundation before phase 2, aces and kings stay where dealt.
        self.classic = name == "zodiac-classic"

    @property
    def options(self) -> Mapping[str, Any]:
        return {}

    def deal(self, number: int, setup: Mapping[str, str] | None = None) -> ZodiacPosition:
        if setup:
            raise GameError(f"{self.title()} has no choices before play (got {', '.join(sorted(setup))})")
        order = pysol_deck_order(number, 2)
        equator: list[Card | None] = list(order[:EQUATOR_CELLS])
        zodiac: list[tuple[Card, ...]] = [(c,) for c in order[EQUATOR_CELLS:EQUATOR_CELLS + ZODIAC_PILES]]
        rest = order[EQUATOR_CELLS + ZODIAC_PILES:]  # rest[0] is the next card dealt: the stock top
        stock = list(reversed(rest))
        up = [0, 0, 0, 0]
        down = [0, 0, 0, 0]
        waste: tuple[Card, ...] = ()
        if self.classic:
            waste = (stock.pop(),)  # PySolFC turns the first stock card at the deal
        else:

            def to_foundation(card: Card) -> bool:
                assert card.suit is not None
                s = card.suit.index
                if card.rank == ACE and up[s] == 0:
                    up[s] = 1
                    return True
                if card.rank == KING and down[s] == 0:
                    down[s] = 1
                    return True
                return False

            for i, card in enumerate(equator):
                if card is not None and to_foundation(card):
                    equator[i] = None
            for i, (card,) in enumerate(zodiac):
                while to_foundation(card):  # fill the gap at once from the stock, again if need be
                    card = stock.pop()
                zodiac[i] = (card,)
        return ZodiacPosition(self, tuple(stock), waste, tuple(equator), tuple(zodiac), tuple(up), tuple(down),
                              False, check_deal_number(number), {})

    # -- JSON ---------------------------------------------------------------------------------------

    def move_from_json(self, data: Any) -> Move:
        if not isinstance(data, Mapping) or len(data) != 1:
            raise MalformedError('a Zodiac move is {"draw": true}, {"recycle": true} or '
                                 '{"move": {"card": ..., "from": ..., "to": ...}}')
        (action, value), = data.items()
        if action == "draw":
            if value is not True:
                raise MalformedError('a draw is written {"draw": true}')
            return Draw()
        if action == "recycle":
            if value is not True:
                raise MalformedError('a recycle is written {"recycle": true}')
            return Recycle()
        if action != "move":
            raise MalformedError(f"unknown Zodiac move {action!r}: use draw, recycle or move")
        if not isinstance(value, Mapping) or set(value) != {"card", "from", "to"}:
            raise MalformedError('"move" must be an object with exactly "card", "from" and "to"')
        try:
            card = DECK.parse(value["card"])
        except CardError as exc:
            raise MalformedError(f"move: {exc}") from None
        source = _check_pile_id(value["from"], "move from")
        target = _check_pile_id(value["to"], "move to")
        return Transfer(card, source, target)

    def position_from_json(self, data: Any) -> ZodiacPosition:
        self.check_position_object(data)

        def cards_of(value: Any, what: str, allow_empty_cells: bool = False) -> list[Card | None]:
            if not isinstance(value, list):
                raise MalformedError(f"{what} must be a list of cards")
            out: list[Card | None] = []
            for i, text in enumerate(value):
                if text is None and allow_empty_cells:
                    out.append(None)
                    continue
                try:
                    out.append(DECK.parse(text))
                except CardError as exc:
                    raise MalformedError(f"{what}, card {i}: {exc}") from None
            return out

        stock = [c for c in cards_of(data.get("stock"), "'stock'") if c is not None]
        waste = [c for c in cards_of(data.get("waste"), "'waste'") if c is not None]
        equator = cards_of(data.get("equator"), "'equator'", allow_empty_cells=True)
        if len(equator) != EQUATOR_CELLS:
            raise MalformedError(f"'equator' must list its {EQUATOR_CELLS} cells (null for an empty one)")
        zodiac_data = data.get("zodiac")
        if not isinstance(zodiac_data, list) or len(zodiac_data) != ZODIAC_PILES:
            raise MalformedError(f"'zodiac' must list its {ZODIAC_PILES} piles, each a list of cards bottom to top")
        zodiac = [tuple(c for c in cards_of(p, f"zodiac pile {i}") if c is not None)
                  for i, p in enumerate(zodiac_data)]
        found = data.get("foundations")
        if not isinstance(found, Mapping) or set(found) != {s.value for s in SUITS}:
            raise MalformedError("'foundations' must be an object with keys c, h, s, d, each {\"up\": n, \"down\": n}")
        up: list[int] = []
        down: list[int] = []
        for suit in SUITS:
            entry = found[suit.value]
            if not isinstance(entry, Mapping) or set(entry) != {"up", "down"}:
                raise MalformedError(f"foundations.{suit.value} must be {{\"up\": n, \"down\": n}}")
            for key, out in (("up", up), ("down", down)):
                n = entry[key]
                if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 13:
                    raise MalformedError(f"foundations.{suit.value}.{key} must be a card count from 0 to 13")
                out.append(n)
        placed = data.get("placed_this_pass", False)
        if not isinstance(placed, bool):
            raise MalformedError("'placed_this_pass' must be true or false")
        deal = read_deal_number(data)
        setup = data.get("setup") or {}
        if setup:
            raise MalformedError("Zodiac has no setup: 'setup' must be empty")
        position = ZodiacPosition(self, tuple(stock), tuple(waste), tuple(equator), tuple(zodiac), tuple(up),
                                  tuple(down), placed, deal, {})
        problem = position.problem()
        if problem:
            raise MalformedError(problem)
        return position


# -- positions ------------------------------------------------------------------------------------

_COL = 1.15  # a card width plus the gap
_ROW = 1.15


def _zodiac_place(i: int) -> tuple[float, float]:
    """PySolFC's layout: 12 columns, piles dealt column by column, top row then bottom row."""
    return (i // 2) * _COL, (0.0 if i % 2 == 0 else 4 * _ROW)


def _card_index(card: Card) -> int:
    assert card.suit is not None
    return card.suit.index * 13 + card.rank - 1


class ZodiacPosition(Position):
    """A Zodiac position. ``stock`` and ``waste`` list their cards bottom to top (the top card last);
    ``equator`` holds a card or ``None`` per cell; ``zodiac`` the 24 piles bottom to top; ``up`` and
    ``down`` the number of cards on each suit's foundations (index: clubs, hearts, spades,
    diamonds); ``placed``: whether a card was placed since the current pass through the stock began."""

    __slots__ = ("_moves", "deal_number", "down", "equator", "game", "placed", "setup", "stock", "up", "waste",
                 "zodiac")

    def __init__(self, game: ZodiacGame, stock: tuple[Card, ...], waste: tuple[Card, ...],
                 equator: tuple[Card | None, ...], zodiac: tuple[tuple[Card, ...], ...], up: tuple[int, ...],
                 down: tuple[int, ...], placed: bool, deal_number: int | None, setup: Mapping[str, str]) -> None:
        self.game: ZodiacGame = game
        self.stock = stock
        self.waste = waste
        self.equator = equator
        self.zodiac = zodiac
        self.up = up
        self.down = down
        self.placed = placed
        self.deal_number = deal_number
        self.setup = setup
        self._moves: list[Move] | None = None

    # -- state --------------------------------------------------------------------------------------

    @property
    def phase(self) -> int:
        """1 while the stock or the waste holds cards, then 2."""
        return 1 if self.stock or self.waste else 2

    def foundation_cards(self) -> int:
        return sum(self.up) + sum(self.down)

    def problem(self) -> str | None:
        """Why this position cannot arise in the game, or ``None``."""
        counts = [0] * 52
        for card in self.stock + self.waste + tuple(c for c in self.equator if c is not None):
            counts[_card_index(card)] += 1
        for i, pile in enumerate(self.zodiac):
            for below, above in pairwise(pile):
                if not card_fits_zodiac(above, below):
                    return f"{zodiac_id(i)}: {above} lies on {below}, which is not in suit one rank apart"
            for card in pile:
                counts[_card_index(card)] += 1
        for s in range(4):
            for rank in range(1, self.up[s] + 1):
                counts[s * 13 + rank - 1] += 1
            for rank in range(KING, KING - self.down[s], -1):
                counts[s * 13 + rank - 1] += 1
        for index, n in enumerate(counts):
            if n != 2:
                card = DECK.cards[index]
                return f"{card} is in play {n} time(s); two decks hold every card twice (foundations included)"
        if self.phase == 1:
            for i, pile in enumerate(self.zodiac):
                if not pile:
                    return f"{zodiac_id(i)} is empty, which cannot happen before phase 2"
            if self.game.classic and self.foundation_cards():
                return "under the classic rules nothing goes to a foundation before phase 2"
        return None

    # -- moves --------------------------------------------------------------------------------------

    def _foundation_targets(self, card: Card) -> list[str]:
        assert card.suit is not None
        s = card.suit.index
        targets = []
        if fits_up(card, self.up[s]):
            targets.append(foundation_id(card.suit, True))
        if fits_down(card, self.down[s]):
            targets.append(foundation_id(card.suit, False))
        return targets

    def _zodiac_targets(self, card: Card) -> list[str]:
        return [zodiac_id(i) for i, pile in enumerate(self.zodiac) if pile and card_fits_zodiac(card, pile[-1])]

    def legal_moves(self) -> list[Move]:
        if self._moves is not None:
            return list(self._moves)
        moves: list[Move] = []
        if self.phase == 1:
            foundations_open = not self.game.classic
            if self.waste:
                card = self.waste[-1]
                if foundations_open:
                    moves.extend(Transfer(card, WASTE, t) for t in self._foundation_targets(card))
                moves.extend(Transfer(card, WASTE, t) for t in self._zodiac_targets(card))
                moves.extend(Transfer(card, WASTE, equator_id(i)) for i, c in enumerate(self.equator) if c is None)
            for i, card in enumerate(self.equator):
                if card is None:
                    continue
                if foundations_open:
                    moves.extend(Transfer(card, equator_id(i), t) for t in self._foundation_targets(card))
                moves.extend(Transfer(card, equator_id(i), t) for t in self._zodiac_targets(card))
            if self.stock:
                moves.append(Draw())
            elif self.waste and self.placed:
                moves.append(Recycle())
        else:
            for i, card in enumerate(self.equator):
                if card is not None:
                    moves.extend(Transfer(card, equator_id(i), t) for t in self._foundation_targets(card))
            for i, pile in enumerate(self.zodiac):
                if pile:
                    moves.extend(Transfer(pile[-1], zodiac_id(i), t) for t in self._foundation_targets(pile[-1]))
        self._moves = moves
        return list(moves)

    def _transfer_problem(self, move: Transfer) -> str | None:
        """Why ``move`` is illegal here, or ``None``."""
        source, target, card = move.source, move.target, move.card
        source_kind, target_kind = _pile_kind(source), _pile_kind(target)
        # the source and its top card
        if source_kind == "foundation":
            return "no card leaves a foundation"
        if source_kind == "waste":
            if not self.waste:
                return "the waste is empty"
            top = self.waste[-1]
        elif source_kind == "equator":
            top = self.equator[_pile_index(source)]
            if top is None:
                return f"{source} is empty"
        else:
            pile = self.zodiac[_pile_index(source)]
            if not pile:
                return f"{source} is empty"
            top = pile[-1]
        if top != card:
            return f"the top card of {source} is {top}, not {card}"
        phase = self.phase
        if source_kind == "zodiac" and phase == 1:
            return "Zodiac cards never move in phase 1 (while the stock or the waste holds cards)"
        if target_kind == "waste":
            return "no card goes onto the waste except by turning the stock"
        if phase == 2 and target_kind != "foundation":
            return "in phase 2 cards go only to the foundations"
        # the target
        if target_kind == "foundation":
            if phase == 1 and self.game.classic:
                return "under the classic rules nothing goes to a foundation before phase 2"
            suit, up = _foundation_of(target)
            if card.suit != suit:
                return f"{card} is not a {suit.name.lower()} card"
            s = suit.index
            if up:
                if self.up[s] == 13:
                    return f"{target} is complete"
                if not fits_up(card, self.up[s]):
                    need = DECK.cards[s * 13 + self.up[s]]
                    return f"{target} takes {need} next, not {card}"
            else:
                if self.down[s] == 13:
                    return f"{target} is complete"
                if not fits_down(card, self.down[s]):
                    need = DECK.cards[s * 13 + KING - self.down[s] - 1]
                    return f"{target} takes {need} next, not {card}"
            return None
        if target_kind == "equator":
            if source_kind != "waste":
                return "an empty Equator cell is filled only from the waste"
            if self.equator[_pile_index(target)] is not None:
                return f"{target} already holds {self.equator[_pile_index(target)]}: an Equator cell holds one card"
            return None
        # onto a Zodiac pile
        pile = self.zodiac[_pile_index(target)]
        if not pile:
            return f"{target} is empty and takes no card"
        if not card_fits_zodiac(card, pile[-1]):
            top = pile[-1]
            if card.suit == top.suit and {card.rank, top.rank} == {ACE, KING}:
                return f"{card} cannot go on {top}: no wrap between ace and king"
            return f"{card} cannot go on {top}: a Zodiac pile takes a card in suit, one rank up or down"
        return None

    def play(self, move: Move) -> ZodiacPosition:
        if isinstance(move, Draw):
            if self.phase == 2:
                raise IllegalMoveError("the stock and the waste are empty: the game is in phase 2")
            if not self.stock:
                raise IllegalMoveError("the stock is empty: turn the waste over (recycle) instead")
            return self._with(stock=self.stock[:-1], waste=self.waste + (self.stock[-1],))
        if isinstance(move, Recycle):
            if self.stock:
                raise IllegalMoveError("the stock is not empty yet: the waste is turned over only when it is")
            if not self.waste:
                raise IllegalMoveError("the waste is empty: there is nothing to turn over")
            if not self.placed:
                raise IllegalMoveError("no card was placed during this pass through the stock: another pass "
                                       "would repeat it, so the game is lost")
            return self._with(stock=tuple(reversed(self.waste)), waste=(), placed=False)
        if not isinstance(move, Transfer):
            raise MalformedError(f"a Zodiac move is a draw, a recycle or a transfer, not {move!r}")
        problem = self._transfer_problem(move)
        if problem:
            raise IllegalMoveError(f"illegal move {move}: {problem}")
        stock, waste, equator, zodiac = self.stock, self.waste, list(self.equator), list(self.zodiac)
        up, down = list(self.up), list(self.down)
        source_kind = _pile_kind(move.source)
        if source_kind == "waste":
            waste = waste[:-1]
        elif source_kind == "equator":
            equator[_pile_index(move.source)] = None
        else:
            i = _pile_index(move.source)
            zodiac[i] = zodiac[i][:-1]
        target_kind = _pile_kind(move.target)
        if target_kind == "foundation":
            suit, is_up = _foundation_of(move.target)
            (up if is_up else down)[suit.index] += 1
        elif target_kind == "equator":
            equator[_pile_index(move.target)] = move.card
        else:
            i = _pile_index(move.target)
            zodiac[i] = zodiac[i] + (move.card,)
        return ZodiacPosition(self.game, stock, waste, tuple(equator), tuple(zodiac), tuple(up), tuple(down),
                              self.placed or self.phase == 1, self.deal_number, self.setup)

    def _with(self, **changes: Any) -> ZodiacPosition:
        fields = {"stock": self.stock, "waste": self.waste, "equator": self.equator, "zodiac": self.zodiac,
                  "up": self.up, "down": self.down, "placed": self.placed}
        fields.update(changes)
        return ZodiacPosition(self.game, deal_number=self.deal_number, setup=self.setup, **fields)

    def is_won(self) -> bool:
        return self.foundation_cards() == TOTAL_CARDS

    def is_lost(self) -> bool:
        return not self.is_won() and not self.legal_moves()

    def result(self) -> dict[str, Any]:
        on = self.foundation_cards()
        return {"won": on == TOTAL_CARDS, "foundation_cards": on, "cards_left": TOTAL_CARDS - on,
                "phase": self.phase}

    def key(self) -> Hashable:
        """Bytes: stock, waste, Equator, each Zodiac pile (cards as 0..51, 52 an empty cell, 255 ends a
        part), then the eight foundation counts and the placed-this-pass flag."""
        out = bytearray()
        for part in (self.stock, self.waste):
            out.extend(_card_index(c) for c in part)
            out.append(255)
        out.extend(52 if c is None else _card_index(c) for c in self.equator)
        for pile in self.zodiac:
            out.extend(_card_index(c) for c in pile)
            out.append(255)
        out.extend(self.up)
        out.extend(self.down)
        out.append(int(self.placed))
        return bytes(out)

    # -- JSON and the table ---------------------------------------------------------------------------

    def status(self) -> str:
        return "won" if self.is_won() else "lost" if self.is_lost() else "playing"

    def piles(self) -> list[dict[str, Any]]:
        """The table format shared with the web front end (see the module ``docs/zodiac.md``)."""

        def face_up(cards: Sequence[Card]) -> list[dict[str, Any]]:
            return [{"card": str(c), "face_up": True} for c in cards]

        piles: list[dict[str, Any]] = [
            {"id": STOCK, "kind": "stock", "x": 1 * _COL, "y": 1 * _ROW, "fan": "none",
             "cards": [{"card": None, "face_up": False} for _ in self.stock], "count": len(self.stock)},
            {"id": WASTE, "kind": "waste", "x": 2 * _COL, "y": 1 * _ROW, "fan": "none",
             "cards": face_up(self.waste), "count": len(self.waste)},
        ]
        for k, suit in enumerate(SUITS):
            for is_up, row in ((True, 1), (False, 3)):
                count = (self.up if is_up else self.down)[suit.index]
                ranks = range(1, count + 1) if is_up else range(KING, KING - count, -1)
                piles.append({"id": foundation_id(suit, is_up), "kind": "foundation", "x": (4 + k) * _COL,
                              "y": row * _ROW, "fan": "none",
                              "cards": face_up([DECK.cards[suit.index * 13 + r - 1] for r in ranks]),
                              "count": count})
        for i, card in enumerate(self.equator):
            piles.append({"id": equator_id(i), "kind": "equator", "x": (2 + i) * _COL, "y": 2 * _ROW, "fan": "none",
                          "cards": face_up([card] if card is not None else []), "count": int(card is not None)})
        for i, pile in enumerate(self.zodiac):
            x, y = _zodiac_place(i)
            piles.append({"id": zodiac_id(i), "kind": "zodiac", "x": x, "y": y, "fan": "none",
                          "cards": face_up(pile), "count": len(pile)})
        return piles

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "options": dict(self.game.options),
            "deal": self.deal_number,
            "setup": {},
            "status": self.status(),
            "result": self.result(),
            "phase": self.phase,
            "stock": [str(c) for c in self.stock],
            "waste": [str(c) for c in self.waste],
            "equator": [None if c is None else str(c) for c in self.equator],
            "zodiac": [[str(c) for c in pile] for pile in self.zodiac],
            "foundations": {s.value: {"up": self.up[s.index], "down": self.down[s.index]} for s in SUITS},
            "placed_this_pass": self.placed,
            "piles": self.piles(),
        }

    def move_info(self, move: Move) -> dict[str, Any]:
        if isinstance(move, Draw):
            return {"cards": [], "from": [STOCK], "to": WASTE}
        if isinstance(move, Recycle):
            return {"cards": [], "from": [WASTE], "to": STOCK}
        assert isinstance(move, Transfer)
        return {"cards": [str(move.card)], "from": [move.source], "to": move.target}

    def parse_move(self, text: str) -> Move:
        """``draw``, ``recycle``, or a transfer: ``Qh w>z3`` (card, source, target; short or long pile
        ids: ``w``/``waste``, ``e0``/``equator-0``, ``z3``/``zodiac-3``, ``fhu``/``foundation-h-up``);
        the card may be left out (``w>z3``): it is then the source's top card."""
        if not isinstance(text, str):
            raise MalformedError(f"a move must be given as text, not {type(text).__name__}")
        t = text.strip()
        if t.lower() in ("draw", "d"):
            return Draw()
        if t.lower() in ("recycle", "r"):
            return Recycle()
        if t.count(">") != 1:
            raise MalformedError(f"{text!r} is not a Zodiac move: write draw, recycle or e.g. 'Qh w>z3'")
        left, right = t.split(">")
        parts = left.split()
        if len(parts) not in (1, 2) or len(right.split()) != 1:
            raise MalformedError(f"{text!r} is not a transfer: write the card, the source and the target, "
                                 "e.g. 'Qh w>z3'")
        source = _check_pile_id(parts[-1], f"{text!r}: the source")
        target = _check_pile_id(right.strip(), f"{text!r}: the target")
        if len(parts) == 2:
            try:
                card = DECK.parse(parts[0])
            except CardError as exc:
                raise MalformedError(str(exc)) from None
        else:
            top = self.top_of(source)
            if top is None:
                raise MalformedError(f"{text!r}: {source} is empty, so there is no card to move")
            card = top
        return Transfer(card, source, target)

    def top_of(self, pile: str) -> Card | None:
        """The top card of a pile (by id), or ``None`` if it is empty."""
        kind = _pile_kind(pile)
        if kind == "waste":
            return self.waste[-1] if self.waste else None
        if kind == "equator":
            return self.equator[_pile_index(pile)]
        if kind == "zodiac":
            z = self.zodiac[_pile_index(pile)]
            return z[-1] if z else None
        if kind == "foundation":
            suit, up = _foundation_of(pile)
            n = (self.up if up else self.down)[suit.index]
            if not n:
                return None
            return DECK.cards[suit.index * 13 + (n - 1 if up else KING - n)]
        if pile == STOCK:
            return self.stock[-1] if self.stock else None
        raise MalformedError(f"{pile!r} is not a pile of Zodiac")

    def describe_move(self, move: Move, lang: str = "en") -> str:
        ru = lang == "ru"
        if isinstance(move, Draw):
            return "Открыть карту из колоды" if ru else "Turn the top card of the stock onto the waste"
        if isinstance(move, Recycle):
            return "Перевернуть сброс в колоду" if ru else "Turn the waste over as a new stock"
        assert isinstance(move, Transfer)
        return f"{move.card.name('ru' if ru else 'en')}: {move.source} → {move.target}"

    def to_text(self) -> str:
        def card_text(c: Card | None) -> str:
            return "--" if c is None else str(c)

        lines = [f"{self.game.title()}, deal {self.deal_number if self.deal_number is not None else '-'}: "
                 f"phase {self.phase}, {self.foundation_cards()} of {TOTAL_CARDS} cards on the foundations"
                 + (" (won)" if self.is_won() else " (lost)" if self.is_lost() else "")]
        waste = " ".join(str(c) for c in self.waste[-5:])
        lines.append(f"Stock: {len(self.stock)} cards   Waste: {len(self.waste)} cards"
                     + (f", top … {waste}" if waste else "")
                     + ("   (a card was placed this pass)" if self.placed and self.phase == 1 else ""))
        founds = []
        for suit in SUITS:
            u, d = self.up[suit.index], self.down[suit.index]
            founds.append(f"{suit.value}: up {card_text(self.top_of(foundation_id(suit, True))) if u else '--'}"
                          f" down {card_text(self.top_of(foundation_id(suit, False))) if d else '--'}")
        lines.append("Foundations  " + "   ".join(founds))
        lines.append("Equator      " + " ".join(f"e{i}:{card_text(c):>3}" for i, c in enumerate(self.equator)))
        lines.append("Zodiac (bottom to top)")
        for i, pile in enumerate(self.zodiac):
            lines.append(f"  z{i:<2} " + " ".join(str(c) for c in pile))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ZodiacPosition) and self.game == other.game and self.key() == other.key()

    def __hash__(self) -> int:
        return hash((self.game.name, self.key()))

    def __repr__(self) -> str:
        return (f"<ZodiacPosition {self.game.name} deal={self.deal_number} phase={self.phase} "
                f"foundations={self.foundation_cards()}>")


def make_game(name: str, options: Mapping[str, Any]) -> ZodiacGame:
    if options:
        raise GameError(f"{name} has no options (got {', '.join(sorted(options))})")
    return ZodiacGame(name)
