"""PySolFC-compatible deals: a PySolFC game number -> the order in which PySolFC deals the cards.

Games that must match PySolFC's numbering (Pyramid 52, Zodiac) take their deck order from
here instead of :mod:`amber_patience.deals`. The shuffle is the one of the package
``pysol_cards`` (Shlomi Fish's extraction of PySolFC's dealing code), which this module calls:

* PySolFC creates its cards deck after deck, each deck suit after suit in the order
  clubs, spades, hearts, diamonds, each suit ace to king (card ids 0 … 51 per deck);
* game numbers 1 … 32000 use the Microsoft-compatible linear congruential generator
  (``LCRandom31``), after the cards are first re-arranged into the MS FreeCell order
  (only for a single 52-card deck); larger numbers use Python's Mersenne Twister
  (PySolFC's "new" deals). PySolFC has no game number 0 and none above 10**20; so that every
  non-negative integer is a deal here too, deal 0 is what the MS-compatible generator gives for
  seed 0, and numbers above 10**20 go on with the Mersenne Twister seeded by the number;
* PySolFC puts the shuffled list into its talon, whose *last* card is the top card: the
  first card dealt is the last of the shuffled list.

:func:`pysol_deck_order` returns the cards already reversed: index 0 is the first card PySolFC
deals (the top of its talon), index 1 the second, and so on.
"""

from __future__ import annotations

from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31
from pysol_cards.random import shuffle as _pysol_shuffle
from pysol_cards.random_base import RandomBase

from .cards import Card, Suit, french
from .deals import check_deal_number

#: PySolFC's suit order (card ids): clubs, spades, hearts, diamonds.
PYSOL_SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)

#: The largest game number that PySolFC deals with the MS-compatible generator.
MS_COMPATIBLE_LIMIT = 32000

#: PySolFC's largest game number (20 decimal digits).
MAX_GAME_NUMBER = RandomBase.MAX_SEED


def pysol_deck_order(number: int, decks: int = 1) -> list[Card]:
    """The cards of PySolFC game ``number`` with ``decks`` French 52-card decks, in dealing order.

    Index 0 is the card PySolFC deals first (the top of its talon after the shuffle); the
    last card is the bottom of the talon. With two decks each card appears twice.
    """
    n = check_deal_number(number)
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise ValueError(f"the number of decks must be a whole number from 1 up, not {decks!r}")
    if n == 0:  # PySolFC refuses seed 0; its MS-compatible generator runs from 0 all the same
        generator = LCRandom31(1)
        generator.seed = generator.seedx = 0
        shuffled = generator.shuffle(ms_rearrange(createCards(decks)))
    else:
        shuffled = _pysol_shuffle(createCards(decks), n, RandomBase.DEALS_PYSOLFC)
    return [french(card.rank, PYSOL_SUITS[card.suit]) for card in reversed(shuffled)]


def pysol_card_id(card: Card) -> int:
    """PySolFC's id of a French card within its deck (0 = ace of clubs … 51 = king of diamonds)."""
    if card.suit is None:
        raise ValueError(f"{card} is not a card of a French deck")
    return PYSOL_SUITS.index(card.suit) * 13 + card.rank - 1
