"""Cards (notation, names, neighbours) and deal numbers (stable deck orders)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amber_patience.cards import (
    DECKS,
    FRENCH_52,
    RUSSIAN_36,
    TAROT_56,
    TAROT_77,
    TAROT_78,
    CardError,
    Suit,
    parse_cards,
)
from amber_patience.deals import DealNumberError, deck_order, shuffled


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_notation_round_trips_for_every_card(deck):
    texts = [str(card) for card in deck.cards]
    assert len(set(texts)) == len(deck.cards)
    assert [deck.parse(t) for t in texts] == list(deck.cards)


def test_deck_sizes_and_notation():
    assert (len(TAROT_78), len(TAROT_77), len(TAROT_56), len(FRENCH_52), len(RUSSIAN_36)) == (78, 77, 56, 52, 36)
    assert [str(c) for c in TAROT_56.cards[:14]] == ["1c", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "10c",
                                                     "Vc", "Cc", "Dc", "Rc"]
    assert [str(c) for c in FRENCH_52.cards[:13]] == ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "10c",
                                                      "Jc", "Qc", "Kc"]
    assert [str(c) for c in RUSSIAN_36.cards[:9]] == ["6c", "7c", "8c", "9c", "10c", "Jc", "Qc", "Kc", "Ac"]
    assert "T0" in {str(c) for c in TAROT_78.cards}
    assert "T0" not in {str(c) for c in TAROT_77.cards}
    assert {str(c) for c in TAROT_78.trumps} == {f"T{n}" for n in range(22)}


@pytest.mark.parametrize(("deck", "text"), [
    (TAROT_78, "Ac"), (TAROT_78, "Jh"), (TAROT_78, "T22"), (TAROT_77, "T0"), (TAROT_56, "T5"),
    (FRENCH_52, "1c"), (FRENCH_52, "Rs"), (RUSSIAN_36, "5c"), (FRENCH_52, "10x"), (TAROT_78, ""),
    (TAROT_78, "T05"), (FRENCH_52, "010c"),
])
def test_parse_refuses_cards_not_in_the_deck(deck, text):
    with pytest.raises(CardError, match="not a card"):
        deck.parse(text)


def test_parse_is_lenient_about_case_only():
    assert str(TAROT_78.parse("rs")) == "Rs"
    assert str(TAROT_78.parse("t11")) == "T11"
    assert [str(c) for c in parse_cards(FRENCH_52, "Qh, 10d As")] == ["Qh", "10d", "As"]


def test_full_names_in_english_and_russian():
    assert TAROT_78.parse("Rs").name() == "Roi (King) of spades"
    assert TAROT_78.parse("Rs").name("ru") == "Король пик"
    assert TAROT_78.parse("Cc").name("ru") == "Рыцарь крестей"
    assert TAROT_78.parse("1d").name() == "One of diamonds"
    assert TAROT_78.parse("T0").name() == "The Fool"
    assert TAROT_78.parse("T0").name("ru") == "Шут"
    assert TAROT_78.parse("T13").name("ru") == "Старший козырь 13"
    assert FRENCH_52.parse("Ah").name() == "Ace of hearts"
    assert FRENCH_52.parse("Ah").name("ru") == "Туз червей"
    assert RUSSIAN_36.parse("9s").name("ru") == "Девятка пик"
    names = {c.name(lang) for c in TAROT_78.cards for lang in ("en", "ru")}
    assert len(names) == 2 * 78
    with pytest.raises(ValueError, match="language"):
        TAROT_78.parse("Rs").name("de")


def test_cyclic_neighbours_per_deck():
    n = TAROT_78.are_neighbours
    p = TAROT_78.parse
    assert n(p("Rc"), p("1c")) and n(p("1c"), p("Rc"))  # R is followed by 1: no ace in tarot
    assert n(p("T21"), p("T0")) and n(p("T0"), p("T1")) and not n(p("T21"), p("T1"))
    assert n(p("Vc"), p("Cc")) and n(p("Cc"), p("Dc"))
    assert not n(p("Vc"), p("Ch")) and not n(p("Vc"), p("Vc")) and not n(p("10c"), p("T11"))
    p77 = TAROT_77.parse
    assert TAROT_77.are_neighbours(p77("T21"), p77("T1"))
    f = FRENCH_52.parse
    assert FRENCH_52.are_neighbours(f("Kh"), f("Ah")) and FRENCH_52.are_neighbours(f("Ah"), f("2h"))
    r = RUSSIAN_36.parse
    assert RUSSIAN_36.are_neighbours(r("Ah"), r("6h")) and RUSSIAN_36.are_neighbours(r("Kh"), r("Ah"))
    assert not RUSSIAN_36.are_neighbours(r("10h"), r("Ah"))


def test_every_card_has_exactly_two_neighbours():
    for deck in DECKS.values():
        for card in deck.cards:
            around = [other for other in deck.cards if deck.are_neighbours(card, other)]
            assert sorted(map(str, around)) == sorted(map(str, deck.neighbours(card)))


def test_suits_cycle_clubs_hearts_spades_diamonds():
    assert [s.value for s in (Suit.CLUBS.next(k) for k in range(5))] == ["c", "h", "s", "d", "c"]


def test_run_from_follows_suit_and_rank_cycles():
    run = [str(c) for c in TAROT_56.run_from(TAROT_56.parse("Rs"))]
    assert run[:15] == ["Rs", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Vs", "Cs", "Ds", "Rd"]
    assert run[-1] == "Dh" and len(run) == 56
    trumps = [str(c) for c in TAROT_78.run_from(TAROT_78.parse("T20"))]
    assert trumps[:4] == ["T20", "T21", "T0", "T1"] and trumps[-1] == "T19"


# -- deals ----------------------------------------------------------------------------------------

def _reference_shuffle(n_items: int, label: str, number: int) -> list[int]:
    """docs/deals.md, written again from the text, to check the implementation against it."""
    words: list[int] = []
    k = 0
    order = list(range(n_items))
    for i in range(n_items - 1, 0, -1):
        while True:
            if not words:
                digest = hashlib.sha256(f"amber-patience/{label}/{number}/{k}".encode()).digest()
                words = [int.from_bytes(digest[j:j + 8], "big") for j in range(0, 32, 8)]
                k += 1
            w = words.pop(0)
            if w < 2**64 - (2**64 % (i + 1)):
                break
        j = w % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize("number", [0, 1, 2, 12345, 2**64 + 7, 10**30])
def test_deal_follows_the_documented_algorithm(number):
    for deck in (TAROT_78, FRENCH_52):
        assert deck_order(deck, number) == [deck.cards[i] for i in _reference_shuffle(len(deck), deck.name, number)]


def test_pinned_deals():
    """These orders are the project's promise: they must never change."""
    assert " ".join(map(str, deck_order(TAROT_78, 1)[:8])) == PINNED_TAROT_78_DEAL_1
    assert " ".join(map(str, deck_order(TAROT_56, 7)[:8])) == PINNED_TAROT_56_DEAL_7
    assert " ".join(map(str, deck_order(FRENCH_52, 0)[:8])) == PINNED_FRENCH_52_DEAL_0


PINNED_TAROT_78_DEAL_1 = "T21 T1 3d T2 Cc T5 Rc 5h"
PINNED_TAROT_56_DEAL_7 = "1d 7h 8c Dc 2d 5s Ch 6c"
PINNED_FRENCH_52_DEAL_0 = "Kd 6h Jc 10d 5s 3c 2d 4c"


@given(st.integers(min_value=0, max_value=2**80))
def test_a_deal_is_a_permutation_and_repeatable(number):
    order = deck_order(TAROT_78, number)
    assert sorted(map(TAROT_78.index, order)) == list(range(78))
    assert order == deck_order(TAROT_78, number)


def test_different_numbers_give_different_deals():
    assert len({tuple(deck_order(TAROT_56, n)) for n in range(200)}) == 200


@pytest.mark.parametrize("bad", [-1, 1.5, "7", True, None])
def test_bad_deal_numbers_are_refused(bad):
    with pytest.raises(DealNumberError):
        shuffled([1, 2, 3], "x", bad)
