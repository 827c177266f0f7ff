"""PySolFC-compatible deals (amber_patience.pysol) against pysol_cards and known deals."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random_base import RandomBase

from amber_patience.cards import FRENCH_52, Suit, french, parse_cards
from amber_patience.deals import DealNumberError
from amber_patience.pysol import MAX_GAME_NUMBER, pysol_card_id, pysol_deck_order


def _pysol_freecell_rows(number: int) -> list[list[str]]:
    """The columns of PySolFC's FreeCell deal ``number`` as pysol_cards prints them ("TD" style)."""
    text = PysolGame("freecell", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    return [line.split() for line in text.strip().splitlines()]


def _as_pysol_text(card: object) -> str:
    return str(card).upper().replace("10", "T")


def test_microsoft_freecell_deal_1() -> None:
    # The well-known MS FreeCell deal #1, dealt row by row into 8 columns.
    order = pysol_deck_order(1)
    expected = parse_cards(FRENCH_52, "Jd 2d 9h Jc 5d 7h 7c 5h Kd Kc 9s 5s Ad Qc Kh 3h")
    assert order[:16] == expected


@pytest.mark.parametrize("number", [1, 2, 617, 11982, 32000, 32001, 123456, 10**12])
def test_freecell_columns_match_pysol_cards(number: int) -> None:
    order = pysol_deck_order(number)
    columns = _pysol_freecell_rows(number)
    assert len(columns) == 8
    for i, card in enumerate(order):
        assert columns[i % 8][i // 8] == _as_pysol_text(card)


@given(st.integers(min_value=1, max_value=MAX_GAME_NUMBER))
@settings(max_examples=40, deadline=None)
def test_every_deal_is_a_full_deck_and_matches_pysol_cards(number: int) -> None:
    order = pysol_deck_order(number)
    assert sorted(order, key=FRENCH_52.index) == list(FRENCH_52.cards)
    columns = _pysol_freecell_rows(number)
    assert [_as_pysol_text(c) for c in order[:8]] == [col[0] for col in columns]


def test_two_decks_hold_every_card_twice() -> None:
    order = pysol_deck_order(7, decks=2)
    assert len(order) == 104
    assert Counter(order) == Counter({card: 2 for card in FRENCH_52.cards})
    assert order != pysol_deck_order(8, decks=2)


def test_ms_and_mersenne_ranges_differ_and_are_stable() -> None:
    assert pysol_deck_order(32000) == pysol_deck_order(32000)
    assert pysol_deck_order(32000) != pysol_deck_order(32001)


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_bad_game_numbers_are_refused(bad: object) -> None:
    with pytest.raises(DealNumberError):
        pysol_deck_order(bad)  # type: ignore[arg-type]


def _ms_generator_order(seed: int) -> list[str]:
    """The MS-compatible generator written out from its definition, with PySolFC's card order."""
    ids = list(range(52))
    cards = [ids[i + j] for i in range(13) for j in (0, 39, 26, 13)]  # MS order: ace of clubs, diamonds, ...
    state = seed
    for n in range(51, 0, -1):
        state = (state * 214013 + 2531011) & (2**33 - 1)
        j = ((state >> 16) & 0x7FFF) % (n + 1)
        cards[n], cards[j] = cards[j], cards[n]
    return ["A23456789TJQK"[i % 13] + "CSHD"[i // 13] for i in reversed(cards)]


def test_deal_0_is_the_ms_generator_from_seed_0() -> None:
    # PySolFC has no game 0; here it is what the same generator gives from seed 0
    assert [_as_pysol_text(c) for c in pysol_deck_order(0)] == _ms_generator_order(0)
    assert [_as_pysol_text(c) for c in pysol_deck_order(1)] == _ms_generator_order(1)  # the check checks


def test_numbers_beyond_pysolfc_go_on_with_its_mersenne_twister() -> None:
    big = MAX_GAME_NUMBER * 1000 + 7
    order = pysol_deck_order(big)
    assert sorted(order, key=FRENCH_52.index) == list(FRENCH_52.cards)
    assert order == pysol_deck_order(big) and order != pysol_deck_order(big + 1)


def test_bad_deck_count_is_refused() -> None:
    with pytest.raises(ValueError, match="number of decks"):
        pysol_deck_order(1, decks=0)


def test_card_ids_follow_pysol_suit_order() -> None:
    assert pysol_card_id(french(1, Suit.CLUBS)) == 0
    assert pysol_card_id(french(1, Suit.SPADES)) == 13
    assert pysol_card_id(french(1, Suit.HEARTS)) == 26
    assert pysol_card_id(french(13, Suit.DIAMONDS)) == 51
