"""Deal numbers: a non-negative integer gives the same deck order everywhere, forever.

The algorithm (written out in ``docs/deals.md``) uses nothing but SHA-256, so it
can be reproduced in any language:

1. Start from the deck's canonical order (:attr:`amber_patience.cards.Deck.cards`).
2. Random words: block ``k`` (k = 0, 1, 2, …) is the SHA-256 digest of the ASCII
   text ``amber-patience/<deck name>/<deal number>/<k>`` (the number in decimal,
   no leading zeros); each block gives four 64-bit unsigned words, big-endian.
3. Fisher–Yates: for ``i`` from ``n - 1`` down to ``1``, take ``j`` uniform in
   ``0 … i`` and swap positions ``i`` and ``j``. To draw ``j``, take the next word
   ``w``; if ``w < 2**64 - (2**64 mod (i + 1))``, ``j = w mod (i + 1)``; otherwise
   discard ``w`` and take the next word (no bias).
4. The result is the order in which the cards are drawn: index 0 is dealt first.

Games that must match another program's numbering (PySolFC's Pyramid) use that
program's shuffle instead; their modules say so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import TypeVar

from .cards import Card, Deck

T = TypeVar("T")

_WORD = 2**64


class DealNumberError(ValueError):
    """A deal number that is not a non-negative integer."""


def check_deal_number(number: object) -> int:
    """Return ``number`` as an int, or raise :class:`DealNumberError` saying why."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(f"a deal number must be a whole number, not {number!r}")
    if number < 0:
        raise DealNumberError(f"a deal number must not be negative (got {number})")
    return number


def random_words(label: str, number: int) -> Iterator[int]:
    """The endless stream of 64-bit words for ``label`` and deal ``number``."""
    number = check_deal_number(number)
    k = 0
    while True:
        digest = hashlib.sha256(f"amber-patience/{label}/{number}/{k}".encode("ascii")).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(digest[i:i + 8], "big")
        k += 1


def shuffled(items: Sequence[T], label: str, number: int) -> list[T]:
    """``items`` shuffled for deal ``number``; ``label`` names the deck (see module doc)."""
    order = list(items)
    words = random_words(label, number)
    for i in range(len(order) - 1, 0, -1):
        size = i + 1
        limit = _WORD - (_WORD % size)
        while True:
            w = next(words)
            if w < limit:
                break
        j = w % size
        order[i], order[j] = order[j], order[i]
    return order


def deck_order(deck: Deck, number: int) -> list[Card]:
    """The order in which the cards of ``deck`` are drawn in deal ``number``."""
    return shuffled(deck.cards, deck.name, number)
