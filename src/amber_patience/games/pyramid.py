"""Pyramid 52 and Pyramid 36: remove pairs of cards that add up to the target (see ``docs/pyramid.md``).

The whole rules of the family live here:

* a pyramid of face-up cards (7 rows for 52 cards, 6 rows for 36), each row half covering the row
  above it; the rest of the deck is the stock, whose top card is always face up;
* available cards: pyramid cards that no card covers, the stock top and the waste top;
* a move removes two available cards whose values add up to the target (13, or 19 for 36 cards),
  or a lone king (its value is the target); *draw* turns the stock top onto the waste; *recycle*
  turns the waste over as the new stock, when the stock is empty and passes remain;
* won when every card is removed (option ``relaxed``: when the pyramid is cleared);
* lost when no move is left (with unlimited passes: also when drawing and recycling can never bring
  a removal, since the stock could otherwise go round for ever).

Pyramid 52 deal ``N`` is PySolFC's Pyramid game ``N`` (see :mod:`amber_patience.pysol`).

Public for solvers and front ends: :class:`PyramidGame` (``rows``, ``slots``, ``covers``,
``target``, ``value``, ``passes``, ``relaxed``), :class:`PyramidPosition` (``pyramid``, ``stock``
top first, ``waste`` bottom first, ``recycles``, ``removed``), and the moves :class:`Remove`,
:class:`Draw`, :class:`Recycle`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

from ..cards import ACE, FRENCH_52, JACK, KING, QUEEN, RUSSIAN_36, Card, CardError, Deck
from ..deals import check_deal_number, deck_order
from ..pysol import pysol_deck_order
from .base import Draw, Game, GameError, IllegalMoveError, MalformedError, Move, Position, Recycle, read_deal_number

GAMES = ("pyramid-52", "pyramid-36")

UNLIMITED = "unlimited"

_TITLES = {
    "pyramid-52": {"en": "Pyramid (52 cards)", "ru": "Пирамида (52 карты)"},
    "pyramid-36": {"en": "Pyramid (36 cards)", "ru": "Пирамида (36 карт)"},
}

#: Table geometry, in card widths / heights (see the table format in ``docs/pyramid.md``).
_GAP = 0.15
_STEP = 1.0 + _GAP
_PYRAMID_X = _STEP + _GAP


# -- moves ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Remove(Move):
    """Remove one card (a king) or two cards (a pair adding up to the target)."""

    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"remove": [str(c) for c in self.cards]}

    def __str__(self) -> str:
        return "+".join(str(c) for c in self.cards)




DRAW = Draw()
RECYCLE = Recycle()


# -- the game ---------------------------------------------------------------------------------------


def _values_52(card: Card) -> int:
    return card.rank


def _values_36(card: Card) -> int:
    return {ACE: 11, JACK: 12, QUEEN: 13, KING: 19}.get(card.rank, card.rank)


_LAYOUTS: dict[str, tuple[Deck, int, int]] = {
    # name: deck, pyramid rows, target
    "pyramid-52": (FRENCH_52, 7, 13),
    "pyramid-36": (RUSSIAN_36, 6, 19),
}


def _parse_passes(value: Any) -> int | None:
    """``None`` for unlimited passes."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in (UNLIMITED, "inf", "infinite"):
            return None
        if text.isdigit():
            value = int(text)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise GameError(f"passes must be a whole number of passes through the stock (1, 3, …) or "
                    f"{UNLIMITED!r}, not {value!r}")


def _parse_relaxed(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "false", "no", "0"):
        return value.strip().lower() in ("true", "yes", "1")
    raise GameError(f"relaxed must be true or false, not {value!r}")


class PyramidGame(Game):
    """Pyramid 52 or Pyramid 36 with its options; immutable. Create with :func:`make_game`."""

    family = "pyramid"

    def __init__(self, name: str, passes: int | None = 1, relaxed: bool = False) -> None:
        if name not in _LAYOUTS:
            raise GameError(f"unknown Pyramid game {name!r}; the games are: {', '.join(GAMES)}")
        self.name = name
        self.titles = _TITLES[name]
        self.deck, self.rows, self.target = _LAYOUTS[name]
        #: Passes through the stock (``None``: unlimited); ``passes - 1`` recycles are allowed.
        self.passes = passes
        #: Won when the pyramid is cleared (stock and waste may keep cards).
        self.relaxed = relaxed
        self._value = _values_52 if name == "pyramid-52" else _values_36
        #: ``slots[i] = (row, column)``, in deal order: the apex first, each row left to right.
        self.slots: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(self.rows) for c in range(r + 1))
        self._slot_index = {rc: i for i, rc in enumerate(self.slots)}
        #: ``covers[i]``: the slots of the (at most two) cards resting on slot ``i``.
        self.covers: tuple[tuple[int, ...], ...] = tuple(
            tuple(self._slot_index[r + 1, c + d] for d in (0, 1)) if r + 1 < self.rows else ()
            for r, c in self.slots)
        self.size = len(self.slots)
        self.stock_size = len(self.deck) - self.size

    def value(self, card: Card) -> int:
        """The card's value in this game (the target for a king)."""
        return self._value(card)

    def slot_id(self, slot: int) -> str:
        r, c = self.slots[slot]
        return f"pyramid-{r}-{c}"

    def slot_of(self, row: int, column: int) -> int:
        return self._slot_index[row, column]

    @property
    def options(self) -> Mapping[str, Any]:
        return {"passes": UNLIMITED if self.passes is None else self.passes, "relaxed": self.relaxed}

    def deal_order(self, number: int) -> list[Card]:
        """The deck in dealing order for deal ``number``: the pyramid slots in order, then the stock
        from its top down. Pyramid 52 uses PySolFC's shuffle, so deal ``N`` is PySolFC's Pyramid
        game ``N`` (the 29th card, which PySolFC turns onto the waste, is our face-up stock top)."""
        if self.name == "pyramid-52":
            return pysol_deck_order(number)
        return deck_order(self.deck, number)

    def deal(self, number: int, setup: Mapping[str, str] | None = None) -> PyramidPosition:
        if setup:
            raise GameError(f"{self.title()} has no choices before play (got {', '.join(sorted(setup))})")
        number = check_deal_number(number)
        order = self.deal_order(number)
        return PyramidPosition(self, tuple(order[:self.size]), tuple(order[self.size:]), (), 0, (), number)

    # -- JSON ---------------------------------------------------------------------------------------

    def move_from_json(self, data: Any) -> Move:
        if not isinstance(data, Mapping) or len(data) != 1:
            raise MalformedError('a Pyramid move is {"remove": [cards]}, {"draw": true} or {"recycle": true}')
        (action, arg), = data.items()
        if action == "draw" and arg is True:
            return DRAW
        if action == "recycle" and arg is True:
            return RECYCLE
        if action == "remove":
            if not isinstance(arg, list) or len(arg) not in (1, 2):
                raise MalformedError('"remove" must list one card (a king) or two cards (a pair)')
            return Remove(tuple(self._card(text, "remove") for text in arg))
        raise MalformedError(f"unknown Pyramid move {dict(data)!r}: use remove, draw or recycle")

    def _card(self, text: Any, where: str) -> Card:
        try:
            return self.deck.parse(text)
        except CardError as exc:
            raise MalformedError(f"{where}: {exc}") from None

    def _card_list(self, data: Mapping[str, Any], field: str) -> list[Card]:
        value = data.get(field, [])
        if not isinstance(value, list):
            raise MalformedError(f"{field!r} must be a list of cards")
        return [self._card(text, field) for text in value]

    def position_from_json(self, data: Any) -> PyramidPosition:
        self.check_position_object(data)
        rows = data.get("pyramid")
        if not isinstance(rows, list) or len(rows) != self.rows:
            raise MalformedError(f"'pyramid' must list the {self.rows} rows of the pyramid")
        pyramid: list[Card | None] = []
        for r, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != r + 1:
                raise MalformedError(f"pyramid row {r} must list {r + 1} slots (a card or null)")
            pyramid += [None if text is None else self._card(text, f"pyramid row {r}") for text in row]
        stock_bottom_up = self._card_list(data, "stock")
        waste = self._card_list(data, "waste")
        recycles = data.get("recycles", 0)
        if isinstance(recycles, bool) or not isinstance(recycles, int) or recycles < 0:
            raise MalformedError("'recycles' must be a whole number (how often the waste was turned over)")
        if self.passes is not None and recycles > self.passes - 1:
            raise MalformedError(f"'recycles' is {recycles}, but {self.passes} pass(es) allow at most "
                                 f"{self.passes - 1}")
        in_play = [c for c in pyramid if c is not None] + stock_bottom_up + waste
        removed = self._card_list(data, "removed") if "removed" in data else [
            c for c in self.deck.cards if c not in set(in_play)]
        seen: set[Card] = set()
        for card in in_play + removed:
            if card in seen:
                raise MalformedError(f"{card} appears twice in the position")
            seen.add(card)
        if len(seen) != len(self.deck):
            missing = [str(c) for c in self.deck.cards if c not in seen]
            raise MalformedError(f"cards missing from the position: {' '.join(missing)}")
        for slot, card in enumerate(pyramid):
            if card is None:
                for above in self.covers[slot]:
                    if pyramid[above] is not None:
                        raise MalformedError(f"{self.slot_id(slot)} is empty but {pyramid[above]} still rests on it "
                                             f"at {self.slot_id(above)}")
        deal = read_deal_number(data)
        return PyramidPosition(self, tuple(pyramid), tuple(reversed(stock_bottom_up)), tuple(waste), recycles,
                               tuple(removed), deal)


# -- positions --------------------------------------------------------------------------------------


class PyramidPosition(Position):
    """A Pyramid position: immutable.

    ``pyramid[slot]`` is the card there or ``None``; ``stock`` lists the stock from its top (the
    face-up card) down; ``waste`` from its bottom up (the last is the top); ``recycles`` counts the
    times the waste was turned over; ``removed`` the cards removed, in order.
    """

    def __init__(self, game: PyramidGame, pyramid: tuple[Card | None, ...], stock: tuple[Card, ...],
                 waste: tuple[Card, ...], recycles: int, removed: tuple[Card, ...], deal_number: int | None) -> None:
        self.game: PyramidGame = game
        self.pyramid = pyramid
        self.stock = stock
        self.waste = waste
        self.recycles = recycles
        self.removed = removed
        self.deal_number = deal_number
        self.setup: Mapping[str, str] = {}

    # -- what is where ------------------------------------------------------------------------------

    def slot_available(self, slot: int) -> bool:
        """A pyramid card that no card covers."""
        return self.pyramid[slot] is not None and all(self.pyramid[a] is None for a in self.game.covers[slot])

    @cached_property
    def available(self) -> dict[Card, str]:
        """Every available card and the id of the pile it is on: pyramid slots in order, stock top, waste top."""
        found = {card: self.game.slot_id(slot) for slot, card in enumerate(self.pyramid)
                 if card is not None and self.slot_available(slot)}
        if self.stock:
            found[self.stock[0]] = "stock"
        if self.waste:
            found[self.waste[-1]] = "waste"
        return found

    @property
    def passes_left(self) -> int | None:
        """Passes still to come after this one (``None``: unlimited)."""
        return None if self.game.passes is None else self.game.passes - 1 - self.recycles

    def can_recycle(self) -> bool:
        left = self.passes_left
        return not self.stock and bool(self.waste) and (left is None or left > 0)

    def cards_left(self) -> list[Card]:
        return [c for c in self.pyramid if c is not None] + list(self.stock) + list(self.waste)

    # -- the rules ----------------------------------------------------------------------------------

    def removal_problem(self, cards: Sequence[Card]) -> str | None:
        """Why removing ``cards`` is illegal, or ``None`` if it is legal."""
        game = self.game
        if len(cards) not in (1, 2):
            return "a removal takes one card (a king) or two cards (a pair)"
        if len(cards) == 2 and cards[0] == cards[1]:
            return f"a pair needs two different cards, not {cards[0]} twice"
        for card in cards:
            if card not in self.available:
                return f"{card} is not available ({self._where(card)})"
        total = sum(game.value(c) for c in cards)
        if len(cards) == 1 and total != game.target:
            return (f"{cards[0]} is worth {total}; only a card worth {game.target} (a king) goes alone")
        if total != game.target:
            values = " + ".join(f"{c} ({game.value(c)})" for c in cards)
            return f"{values} = {total}, not {game.target}"
        return None

    def _where(self, card: Card) -> str:
        if card in self.removed:
            return "it was removed"
        if card in self.pyramid:
            slot = self.pyramid.index(card)
            above = [str(self.pyramid[a]) for a in self.game.covers[slot] if self.pyramid[a] is not None]
            return f"it is covered by {' and '.join(above)}"
        if card in self.stock:
            return f"it is in the stock under {self.stock[0]}"
        if card in self.waste:
            return f"it is in the waste under {self.waste[-1]}"
        return f"it is not a card of the {self.game.deck.name} deck"

    def _game_over(self) -> bool:
        return self.is_won() or self._stuck_for_ever()

    def legal_moves(self) -> list[Move]:
        if self._game_over():
            return []
        game = self.game
        cards = list(self.available)
        moves: list[Move] = [Remove((c,)) for c in cards if game.value(c) == game.target]
        for i, a in enumerate(cards):
            for b in cards[i + 1:]:
                if game.value(a) + game.value(b) == game.target:
                    moves.append(Remove((a, b)))
        if self.stock:
            moves.append(DRAW)
        if self.can_recycle():
            moves.append(RECYCLE)
        return moves

    def play(self, move: Move) -> PyramidPosition:
        if self.is_won():
            raise IllegalMoveError(f"the game is over: it is won, so {self.move_text(move)} cannot be played")
        if self._stuck_for_ever():
            raise IllegalMoveError("the game is over: drawing and recycling can never bring a removal")
        if isinstance(move, Draw):
            if not self.stock:
                raise IllegalMoveError("the stock is empty: nothing to draw")
            return self._replace(stock=self.stock[1:], waste=self.waste + (self.stock[0],))
        if isinstance(move, Recycle):
            if self.stock:
                raise IllegalMoveError(f"the stock still holds {len(self.stock)} card(s): recycle only an empty stock")
            if not self.waste:
                raise IllegalMoveError("the waste is empty: nothing to turn over")
            if not self.can_recycle():
                raise IllegalMoveError(f"no pass is left ({self.game.passes} pass(es) through the stock)")
            return self._replace(stock=self.waste, waste=(), recycles=self.recycles + 1)
        if isinstance(move, Remove):
            problem = self.removal_problem(move.cards)
            if problem:
                raise IllegalMoveError(f"cannot remove {self.move_text(move)}: {problem}")
            gone = set(move.cards)
            return self._replace(
                pyramid=tuple(None if c in gone else c for c in self.pyramid),
                stock=self.stock[1:] if self.stock and self.stock[0] in gone else self.stock,
                waste=self.waste[:-1] if self.waste and self.waste[-1] in gone else self.waste,
                removed=self.removed + move.cards)
        raise MalformedError(f"a Pyramid move is a removal, a draw or a recycle, not {move!r}")

    def _replace(self, **changes: Any) -> PyramidPosition:
        fields = {"pyramid": self.pyramid, "stock": self.stock, "waste": self.waste, "recycles": self.recycles,
                  "removed": self.removed}
        fields.update(changes)
        return PyramidPosition(self.game, fields["pyramid"], fields["stock"], fields["waste"], fields["recycles"],
                               fields["removed"], self.deal_number)

    def is_won(self) -> bool:
        if any(c is not None for c in self.pyramid):
            return False
        return self.game.relaxed or not (self.stock or self.waste)

    def _stuck_for_ever(self) -> bool:
        """Unlimited passes only: no removal now, and none that drawing and recycling could bring."""
        if self.game.passes is not None or self.is_won():
            return False
        game = self.game
        pyramid = [card for slot, card in enumerate(self.pyramid) if card is not None and self.slot_available(slot)]
        sequence = list(self.waste) + list(self.stock)  # the order in which the stock comes round
        open_cards = pyramid + sequence
        if any(game.value(c) == game.target for c in open_cards):
            return False
        wanted = {game.target - game.value(c) for c in pyramid}
        if any(game.value(c) in wanted for c in open_cards):
            return False
        # Without a removal, the stock top and the waste top are always consecutive in ``sequence``.
        return not any(game.value(a) + game.value(b) == game.target for a, b in pairwise(sequence))

    def is_lost(self) -> bool:
        return not self.is_won() and not self.legal_moves()

    def result(self) -> dict[str, Any]:
        left = self.cards_left()
        return {"won": self.is_won(), "cards_left": len(left), "points_left": sum(self.game.value(c) for c in left),
                "pyramid_left": sum(c is not None for c in self.pyramid)}

    def status(self) -> str:
        return "won" if self.is_won() else "lost" if self.is_lost() else "playing"

    def key(self) -> Hashable:
        left = self.passes_left
        return (self.pyramid, self.stock, self.waste, left)

    # -- JSON and the table -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        game = self.game
        left = self.passes_left
        return {
            "game": game.name,
            "options": dict(game.options),
            "deal": self.deal_number,
            "setup": {},
            "status": self.status(),
            "result": self.result(),
            "target": game.target,
            "pyramid": [[None if self.pyramid[game.slot_of(r, c)] is None else str(self.pyramid[game.slot_of(r, c)])
                         for c in range(r + 1)] for r in range(game.rows)],
            "stock": [str(c) for c in reversed(self.stock)],
            "waste": [str(c) for c in self.waste],
            "removed": [str(c) for c in self.removed],
            "recycles": self.recycles,
            "pass": self.recycles + 1,
            "passes_left": UNLIMITED if left is None else left,
            "piles": self.piles(),
        }

    def piles(self) -> list[dict[str, Any]]:
        """Every place that can hold cards, in the shared table format."""
        game = self.game

        def pile(id_: str, kind: str, x: float, y: float, cards: list[dict[str, Any]]) -> dict[str, Any]:
            return {"id": id_, "kind": kind, "x": round(x, 3), "y": round(y, 3), "fan": "none", "cards": cards,
                    "count": len(cards)}

        def up(card: Card) -> dict[str, Any]:
            return {"card": str(card), "face_up": True}

        stock = [{"card": None, "face_up": False} for _ in self.stock[1:]] + [up(c) for c in self.stock[:1]]
        piles = [pile("stock", "stock", 0.0, 0.0, stock),
                 pile("waste", "waste", 0.0, _STEP, [up(c) for c in self.waste])]
        for slot, (r, c) in enumerate(game.slots):
            card = self.pyramid[slot]
            x = _PYRAMID_X + (game.rows - 1 - r) * _STEP / 2 + c * _STEP
            piles.append(pile(game.slot_id(slot), "pyramid", x, r * 0.5, [] if card is None else [up(card)]))
        piles.append(pile("foundation", "foundation", _PYRAMID_X + game.rows * _STEP + _GAP, 0.0,
                          [up(c) for c in self.removed]))
        return piles

    def move_info(self, move: Move) -> dict[str, Any]:
        if isinstance(move, Remove):
            return {"cards": [str(c) for c in move.cards],
                    "from": [self.available.get(c) or self._pile_of(c) for c in move.cards], "to": None}
        if isinstance(move, Draw):
            return {"cards": [], "from": ["stock"], "to": "waste"}
        if isinstance(move, Recycle):
            return {"cards": [], "from": ["waste", "stock"], "to": "stock"}
        raise MalformedError(f"a Pyramid move is a removal, a draw or a recycle, not {move!r}")

    def _pile_of(self, card: Card) -> str:
        if card in self.pyramid:
            return self.game.slot_id(self.pyramid.index(card))
        if card in self.stock:
            return "stock"
        if card in self.waste:
            return "waste"
        return "foundation"

    def to_text(self) -> str:
        game = self.game
        deal = f"deal {self.deal_number}" if self.deal_number is not None else "given position"
        passes = "unlimited passes" if game.passes is None else f"pass {self.recycles + 1} of {game.passes}"
        relaxed = ", relaxed" if game.relaxed else ""
        out = [f"{game.title()} - {deal}, {passes}{relaxed}   (target {game.target}; [ ] marks an available card)",
               ""]
        for r in range(game.rows):
            line = "   " * (game.rows - 1 - r)
            for c in range(r + 1):
                slot = game.slot_of(r, c)
                card = self.pyramid[slot]
                text = "." if card is None else f"[{card}]" if self.slot_available(slot) else str(card)
                line += text.center(6)
            out.append(line.rstrip())
        stock = f"[{self.stock[0]}] + {len(self.stock) - 1} face down" if self.stock else "empty"
        waste = f"[{self.waste[-1]}] on {len(self.waste) - 1} more" if self.waste else "empty"
        result = self.result()
        out += ["", f"Stock: {stock}    Waste: {waste}",
                f"Removed: {len(self.removed)}   Cards left: {result['cards_left']}   "
                f"Points left: {result['points_left']}   Status: {self.status()}"]
        return "\n".join(out)

    # -- text notation ------------------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """``5c+8d`` (a pair), ``Kh`` (a lone king), ``draw`` (or ``d``), ``recycle`` (or ``r``)."""
        if not isinstance(text, str):
            raise MalformedError(f"a move must be given as text, not {type(text).__name__}")
        words = text.replace("+", " ").replace(",", " ").split()
        if len(words) == 1 and words[0].lower() in ("draw", "d"):
            return DRAW
        if len(words) == 1 and words[0].lower() in ("recycle", "r"):
            return RECYCLE
        if len(words) not in (1, 2):
            raise MalformedError(f"{text!r} is not a Pyramid move: write a pair (5c+8d), a king (Kh), "
                                 "draw or recycle")
        return Remove(tuple(self.game._card(w, f"move {text!r}") for w in words))

    def describe_move(self, move: Move, lang: str = "en") -> str:
        ru = lang == "ru"
        if isinstance(move, Draw):
            return "Открыть карту из колоды" if ru else "Turn the stock's top card onto the waste"
        if isinstance(move, Recycle):
            return "Перевернуть сброс в колоду" if ru else "Turn the waste over as the new stock"
        if isinstance(move, Remove):
            names = [c.name(lang) for c in move.cards]
            if ru:
                return "Убрать " + " и ".join(names)
            return "Remove " + " and ".join(names)
        return self.move_text(move)

    def __eq__(self, other: object) -> bool:
        """The same game and cards in the same places (the order of past removals does not count)."""
        return isinstance(other, PyramidPosition) and self.game == other.game and self.key() == other.key()

    def __hash__(self) -> int:
        return hash((self.game.name, self.key()))

    def __repr__(self) -> str:
        return f"<PyramidPosition {self.game.name} deal={self.deal_number} left={len(self.cards_left())}>"


def make_game(name: str, options: Mapping[str, Any]) -> PyramidGame:
    """``options``: ``passes`` (1 by default, 3, … or ``"unlimited"``) and ``relaxed`` (false by default)."""
    unknown = set(options) - {"passes", "relaxed"}
    if unknown:
        raise GameError(f"{name} has no option {', '.join(sorted(unknown))}; its options are passes "
                        f"(1, 3, … or {UNLIMITED!r}) and relaxed (true or false)")
    passes = _parse_passes(options.get("passes", 1))
    relaxed = _parse_relaxed(options.get("relaxed", False))
    return PyramidGame(name, passes, relaxed)
