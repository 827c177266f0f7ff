"""Cards, suits and decks: notation, full names, and the cyclic order of ranks.

Three card patterns are in play:

* the tarot deck (Tarot Nouveau): 56 minor cards in four suits with ranks
  ``1 2 … 10 V C D R`` and 22 trumps ``T1`` … ``T21`` plus the Fool ``T0``;
* the French 52-card deck: ``A 2 … 10 J Q K`` in four suits;
* the Russian 36-card deck: ``6 7 8 9 10 J Q K A`` (French cards, shortened).

A :class:`Deck` is the set of cards of one game together with the cyclic order
of its ranks; two cards are *neighbours* in that deck when they are of the same
suit (or both trumps) and one directly follows the other in that cyclic order.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property


class Suit(Enum):
    """The four suits, in their cyclic order: clubs, hearts, spades, diamonds."""

    CLUBS = "c"
    HEARTS = "h"
    SPADES = "s"
    DIAMONDS = "d"

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    def next(self, steps: int = 1) -> Suit:
        """The suit ``steps`` places further round the cyclic suit order."""
        return SUITS[(self.index + steps) % 4]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS)
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}

TAROT = "tarot"
FRENCH = "french"

#: Tarot minor ranks: 1..10 are pips, then the four courts.
VALET, CAVALIER, DAME, ROI = 11, 12, 13, 14
#: French ranks: ace is 1, then 2..10 and the three courts.
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
#: The Fool is trump number 0.
FOOL = 0

_TAROT_RANK_TEXT = {VALET: "V", CAVALIER: "C", DAME: "D", ROI: "R"}
_FRENCH_RANK_TEXT = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"}

_SUIT_NAMES_EN = {Suit.CLUBS: "clubs", Suit.HEARTS: "hearts", Suit.SPADES: "spades", Suit.DIAMONDS: "diamonds"}
# Russian suit names in the genitive, as used in card names ("Король пик").
_SUIT_NAMES_RU = {Suit.CLUBS: "крестей", Suit.HEARTS: "червей", Suit.SPADES: "пик", Suit.DIAMONDS: "бубен"}
_PIP_NAMES_EN = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
                 8: "Eight", 9: "Nine", 10: "Ten"}
_PIP_NAMES_RU = {1: "Единица", 2: "Двойка", 3: "Тройка", 4: "Четвёрка", 5: "Пятёрка", 6: "Шестёрка",
                 7: "Семёрка", 8: "Восьмёрка", 9: "Девятка", 10: "Десятка"}
_TAROT_COURTS_EN = {VALET: "Valet (Jack)", CAVALIER: "Cavalier (Knight)", DAME: "Dame (Queen)",
                    ROI: "Roi (King)"}
_TAROT_COURTS_RU = {VALET: "Валет", CAVALIER: "Рыцарь", DAME: "Дама", ROI: "Король"}
_FRENCH_COURTS_EN = {ACE: "Ace", JACK: "Jack", QUEEN: "Queen", KING: "King"}
_FRENCH_COURTS_RU = {ACE: "Туз", JACK: "Валет", QUEEN: "Дама", KING: "Король"}


class CardError(ValueError):
    """A card text that names no card of the deck in play."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``suit`` is ``None`` for a trump (tarot only; the Fool is trump 0)."""

    pattern: str
    suit: Suit | None
    rank: int

    @property
    def is_trump(self) -> bool:
        return self.suit is None

    @property
    def is_minor(self) -> bool:
        return self.suit is not None

    @property
    def is_fool(self) -> bool:
        return self.suit is None and self.rank == FOOL

    def __str__(self) -> str:
        if self.suit is None:
            return f"T{self.rank}"
        table = _TAROT_RANK_TEXT if self.pattern == TAROT else _FRENCH_RANK_TEXT
        return f"{table.get(self.rank, str(self.rank))}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card({self})"

    def name(self, lang: str = "en") -> str:
        """The card's full name in English (``en``) or Russian (``ru``)."""
        if lang not in ("en", "ru"):
            raise ValueError(f"unknown language {lang!r}: use 'en' or 'ru'")
        if self.suit is None:
            if self.rank == FOOL:
                return "The Fool" if lang == "en" else "Шут"
            return f"Trump {self.rank}" if lang == "en" else f"Старший козырь {self.rank}"
        if self.pattern == TAROT:
            courts = _TAROT_COURTS_EN if lang == "en" else _TAROT_COURTS_RU
        else:
            courts = _FRENCH_COURTS_EN if lang == "en" else _FRENCH_COURTS_RU
        pips = _PIP_NAMES_EN if lang == "en" else _PIP_NAMES_RU
        rank = courts.get(self.rank) or pips[self.rank]
        if lang == "en":
            return f"{rank} of {_SUIT_NAMES_EN[self.suit]}"
        return f"{rank} {_SUIT_NAMES_RU[self.suit]}"


def tarot_minor(rank: int, suit: Suit) -> Card:
    return Card(TAROT, suit, rank)


def trump(number: int) -> Card:
    return Card(TAROT, None, number)


def french(rank: int, suit: Suit) -> Card:
    return Card(FRENCH, suit, rank)


def _parse_any(text: str) -> list[Card]:
    """Every card (of any pattern) that ``text`` may denote."""
    t = text.strip()
    if len(t) < 2:
        return []
    if t[0] in "Tt" and t[1:].isdigit():
        n = int(t[1:])
        return [trump(n)] if 0 <= n <= 21 and str(n) == t[1:] else []
    suit_char = t[-1].lower()
    suit = next((s for s in SUITS if s.value == suit_char), None)
    if suit is None:
        return []
    rank_text = t[:-1].upper()
    if rank_text.isdigit():
        n = int(rank_text)
        if str(n) != rank_text:
            return []
        found = []
        if 1 <= n <= 10:
            found.append(tarot_minor(n, suit))
        if 2 <= n <= 10:
            found.append(french(n, suit))
        return found
    for rank, letter in _TAROT_RANK_TEXT.items():
        if rank_text == letter:
            return [tarot_minor(rank, suit)]
    for rank, letter in _FRENCH_RANK_TEXT.items():
        if rank_text == letter:
            return [french(rank, suit)]
    return []


@dataclass(frozen=True)
class Deck:
    """The cards of one game, in canonical order, with the cyclic order of ranks.

    ``minor_ranks`` lists the ranks of each suit from lowest to highest (the
    cyclic order wraps from the last back to the first); ``trump_ranks`` does the
    same for the trumps (with the Fool after 21 where it is in the deck).
    Canonical order: clubs, hearts, spades, diamonds, each lowest rank first,
    then the trumps in their cyclic order from 1.
    """

    name: str
    pattern: str
    minor_ranks: tuple[int, ...]
    trump_ranks: tuple[int, ...] = ()

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        minors = [Card(self.pattern, suit, rank) for suit in SUITS for rank in self.minor_ranks]
        return tuple(minors + [trump(n) for n in self.trump_ranks])

    @cached_property
    def minors(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.suit is not None)

    @cached_property
    def trumps(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.suit is None)

    @cached_property
    def _index(self) -> dict[Card, int]:
        return {card: i for i, card in enumerate(self.cards)}

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self._index

    def index(self, card: Card) -> int:
        """The card's place in the canonical order."""
        try:
            return self._index[card]
        except KeyError:
            raise CardError(f"{card} is not a card of the {self.name} deck") from None

    def parse(self, text: str) -> Card:
        """The card of this deck that ``text`` denotes, e.g. ``Rs``, ``T0``, ``Qh``."""
        if not isinstance(text, str):
            raise CardError(f"a card must be given as text, not {type(text).__name__}")
        for card in _parse_any(text):
            if card in self._index:
                return card
        raise CardError(f"{text!r} is not a card of the {self.name} deck")

    @cached_property
    def _successor(self) -> dict[Card, Card]:
        succ: dict[Card, Card] = {}
        for suit in SUITS:
            ranks = self.minor_ranks
            for i, rank in enumerate(ranks):
                succ[Card(self.pattern, suit, rank)] = Card(self.pattern, suit, ranks[(i + 1) % len(ranks)])
        for i, rank in enumerate(self.trump_ranks):
            succ[trump(rank)] = trump(self.trump_ranks[(i + 1) % len(self.trump_ranks)])
        return succ

    @cached_property
    def _predecessor(self) -> dict[Card, Card]:
        return {b: a for a, b in self._successor.items()}

    def successor(self, card: Card, steps: int = 1) -> Card:
        """The card ``steps`` places after ``card`` in its suit's (or the trumps') cycle."""
        self.index(card)
        for _ in range(steps % (len(self.minor_ranks) if card.suit else len(self.trump_ranks))):
            card = self._successor[card]
        return card

    def predecessor(self, card: Card) -> Card:
        self.index(card)
        return self._predecessor[card]

    def neighbours(self, card: Card) -> tuple[Card, Card]:
        """The two rank-neighbours of ``card``: the one before and the one after."""
        self.index(card)
        return self._predecessor[card], self._successor[card]

    def are_neighbours(self, a: Card, b: Card) -> bool:
        return a != b and (self._successor.get(a) == b or self._successor.get(b) == a)

    def run_from(self, start: Card) -> list[Card]:
        """All cards of ``start``'s kind in goal order from ``start``.

        For a trump: the trumps from ``start`` round their cycle. For a minor
        card: its suit from ``start``'s rank round to the rank before it, then
        the next suit in the cyclic suit order from the same rank, and so on.
        """
        self.index(start)
        if start.suit is None:
            i = self.trump_ranks.index(start.rank)
            ranks = self.trump_ranks[i:] + self.trump_ranks[:i]
            return [trump(r) for r in ranks]
        i = self.minor_ranks.index(start.rank)
        ranks = self.minor_ranks[i:] + self.minor_ranks[:i]
        return [Card(self.pattern, start.suit.next(k), r) for k in range(4) for r in ranks]


TAROT_MINOR_RANKS = tuple(range(1, 15))
TRUMPS_WITH_FOOL = tuple(range(1, 22)) + (FOOL,)
TRUMPS_WITHOUT_FOOL = tuple(range(1, 22))

TAROT_78 = Deck("tarot-78", TAROT, TAROT_MINOR_RANKS, TRUMPS_WITH_FOOL)
TAROT_77 = Deck("tarot-77", TAROT, TAROT_MINOR_RANKS, TRUMPS_WITHOUT_FOOL)
TAROT_56 = Deck("tarot-56", TAROT, TAROT_MINOR_RANKS)
FRENCH_52 = Deck("french-52", FRENCH, tuple(range(1, 14)))
RUSSIAN_36 = Deck("russian-36", FRENCH, (6, 7, 8, 9, 10, JACK, QUEEN, KING, ACE))

DECKS: dict[str, Deck] = {d.name: d for d in (TAROT_78, TAROT_77, TAROT_56, FRENCH_52, RUSSIAN_36)}


def parse_cards(deck: Deck, text: str) -> list[Card]:
    """Cards separated by white space or commas, e.g. ``"Rs 1s T0"``."""
    return [deck.parse(part) for part in text.replace(",", " ").split()]
