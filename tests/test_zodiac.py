"""Zodiac (seed rules and classic rules): the rules point by point, the deal, JSON, the table, the solver."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.cards import FRENCH_52, SUITS, Card
from amber_patience.games import get_game, position_from_json
from amber_patience.games.base import GameError, IllegalMoveError, MalformedError
from amber_patience.games.zodiac import (
    EQUATOR_CELLS,
    WASTE,
    ZODIAC_PILES,
    Draw,
    Recycle,
    Transfer,
    ZodiacGame,
    ZodiacPosition,
    equator_id,
    foundation_id,
    zodiac_id,
)
from amber_patience.pysol import pysol_deck_order
from amber_patience.solvers import replay, solve

SEED = get_game("zodiac")
CLASSIC = get_game("zodiac-classic")


def c(text: str) -> Card:
    return FRENCH_52.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(c(t) for t in text.split())


def make(game: ZodiacGame, *, stock: str = "", waste: str = "", equator: list[str | None] | None = None,
         zodiac: list[str] | None = None, up: tuple[int, ...] = (0, 0, 0, 0), down: tuple[int, ...] = (0, 0, 0, 0),
         placed: bool = False) -> ZodiacPosition:
    """A hand-made position (not checked for the 104 cards: for testing single rules)."""
    eq = [None if e is None else c(e) for e in (equator or [None] * EQUATOR_CELLS)]
    eq += [None] * (EQUATOR_CELLS - len(eq))
    piles = [cards(p) for p in (zodiac or [])]
    piles += [cards("9s")] * (ZODIAC_PILES - len(piles))
    return ZodiacPosition(game, cards(stock), cards(waste), tuple(eq), tuple(piles), up, down, placed, None, {})


def all_cards(p: ZodiacPosition) -> Counter[Card]:
    """Every card of the position, foundations included."""
    found: Counter[Card] = Counter(p.stock + p.waste + tuple(x for x in p.equator if x is not None))
    for pile in p.zodiac:
        found.update(pile)
    for suit in SUITS:
        s = suit.index
        found.update(FRENCH_52.cards[s * 13 + r - 1] for r in range(1, p.up[s] + 1))
        found.update(FRENCH_52.cards[s * 13 + r - 1] for r in range(13, 13 - p.down[s], -1))
    return found


TWO_DECKS = Counter({card: 2 for card in FRENCH_52.cards})


# -- the games and their options ------------------------------------------------------------------

def test_games_registered_without_options() -> None:
    assert SEED.name == "zodiac" and CLASSIC.name == "zodiac-classic"
    assert not SEED.classic and CLASSIC.classic
    with pytest.raises(GameError, match="no options"):
        get_game("zodiac", passes=3)
    with pytest.raises(GameError, match="no choices"):
        SEED.deal(1, {"Start": "Ah"})


def test_deal_numbers_follow_pysolfc() -> None:
    assert SEED.deal(0).to_json()["deal"] == 0  # PySolFC has no game 0: its generator from seed 0
    with pytest.raises(ValueError):
        SEED.deal(-3)


# -- the deal -------------------------------------------------------------------------------------

@pytest.mark.parametrize("number", [1, 2, 617, 31999, 123456])
def test_classic_deal_is_pysolfc_order_and_keeps_aces_and_kings(number: int) -> None:
    order = pysol_deck_order(number, 2)
    p = CLASSIC.deal(number)
    assert p.equator == tuple(order[:8])
    assert p.zodiac == tuple((card,) for card in order[8:32])
    assert p.waste == (order[32],)  # PySolFC turns the first stock card at the deal
    assert p.stock[-1] == order[33] and len(p.stock) == 104 - 33
    assert p.up == (0, 0, 0, 0) and p.down == (0, 0, 0, 0)
    assert all_cards(p) == TWO_DECKS
    assert p.phase == 1 and not p.placed


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 77, 1000, 40000])
def test_seed_deal_sends_dealt_aces_and_kings_up(number: int) -> None:
    order = pysol_deck_order(number, 2)
    p = SEED.deal(number)
    assert all_cards(p) == TWO_DECKS
    # the reference: the first ace (king) of a suit among the dealt cards goes to the foundation
    started: set[tuple[str, int]] = set()
    stock = list(order[32:])
    for i, card in enumerate(order[:8]):
        key = (card.suit.value, card.rank)
        if card.rank in (1, 13) and key not in started:
            started.add(key)
            assert p.equator[i] is None, f"the Equator gap of {card} stays empty"
        else:
            assert p.equator[i] == card
    for i, card in enumerate(order[8:32]):
        while card.rank in (1, 13) and (card.suit.value, card.rank) not in started:
            started.add((card.suit.value, card.rank))
            card = stock.pop(0)  # the gap is filled at once from the stock (again if need be)
        assert p.zodiac[i] == (card,)
    assert p.stock == tuple(reversed(stock)) and p.waste == ()
    for suit in SUITS:
        assert p.up[suit.index] == int((suit.value, 1) in started)
        assert p.down[suit.index] == int((suit.value, 13) in started)


# -- phase 1: the Zodiac piles --------------------------------------------------------------------

def test_zodiac_pile_takes_one_rank_up_or_down_in_suit_and_may_change_direction() -> None:
    p = make(SEED, stock="2c", waste="5h 7h 6h", zodiac=["5h", "6c"])
    p = p.play(Transfer(c("6h"), WASTE, zodiac_id(0)))  # up: 5h 6h
    p = p.play(Transfer(c("7h"), WASTE, zodiac_id(0)))  # up again
    assert p.zodiac[0] == cards("5h 6h 7h")
    q = make(SEED, stock="2c", waste="5h 6h", zodiac=["5h"])
    q = q.play(Transfer(c("6h"), WASTE, zodiac_id(0)))
    q = q.play(Transfer(c("5h"), WASTE, zodiac_id(0)))  # and back down: the direction may change
    assert q.zodiac[0] == cards("5h 6h 5h")
    with pytest.raises(IllegalMoveError, match="in suit"):
        make(SEED, stock="2c", waste="6h", zodiac=["5c"]).play(Transfer(c("6h"), WASTE, zodiac_id(0)))
    with pytest.raises(IllegalMoveError, match="in suit"):
        make(SEED, stock="2c", waste="7h", zodiac=["5h"]).play(Transfer(c("7h"), WASTE, zodiac_id(0)))


def test_no_wrap_between_ace_and_king() -> None:
    with pytest.raises(IllegalMoveError, match="wrap"):
        make(CLASSIC, stock="2c", waste="Kh", zodiac=["Ah"]).play(Transfer(c("Kh"), WASTE, zodiac_id(0)))
    with pytest.raises(IllegalMoveError, match="wrap"):
        make(CLASSIC, stock="2c", waste="Ah", zodiac=["Kh"]).play(Transfer(c("Ah"), WASTE, zodiac_id(0)))
    p = make(CLASSIC, stock="2c", waste="2h", zodiac=["Ah", "Qh"])
    assert Transfer(c("2h"), WASTE, zodiac_id(0)) in p.legal_moves()
    assert Transfer(c("Kh"), WASTE, zodiac_id(0)) not in make(CLASSIC, stock="2c", waste="Kh",
                                                             zodiac=["Ah"]).legal_moves()


def test_zodiac_cards_never_move_in_phase_1() -> None:
    p = make(SEED, stock="2c", zodiac=["5h", "6h"], up=(0, 4, 0, 0))
    with pytest.raises(IllegalMoveError, match="never move in phase 1"):
        p.play(Transfer(c("5h"), zodiac_id(0), foundation_id(SUITS[1], True)))
    with pytest.raises(IllegalMoveError, match="never move in phase 1"):
        p.play(Transfer(c("6h"), zodiac_id(1), zodiac_id(0)))


# -- phase 1: the Equator -------------------------------------------------------------------------

def test_equator_cells_hold_one_card_from_the_waste() -> None:
    p = make(SEED, stock="2c", waste="8d", equator=["5h", None], zodiac=["6h"])
    assert Transfer(c("8d"), WASTE, equator_id(1)) in p.legal_moves()
    after = p.play(Transfer(c("8d"), WASTE, equator_id(1)))
    assert after.equator[1] == c("8d") and after.waste == ()
    with pytest.raises(IllegalMoveError, match="one card"):
        make(SEED, stock="2c", waste="8d", equator=["5h"]).play(Transfer(c("8d"), WASTE, equator_id(0)))
    # an Equator card goes onto a Zodiac pile, not to another cell
    moved = p.play(Transfer(c("5h"), equator_id(0), zodiac_id(0)))
    assert moved.equator[0] is None and moved.zodiac[0] == cards("6h 5h")
    with pytest.raises(IllegalMoveError, match="only from the waste"):
        p.play(Transfer(c("5h"), equator_id(0), equator_id(2)))


def test_filling_an_equator_gap_is_optional() -> None:
    p = make(SEED, stock="2c 3c", equator=[None] * 8, zodiac=["9d"])
    moves = p.legal_moves()
    assert Draw() in moves  # the player may pass the card by
    p = p.play(Draw())
    assert any(isinstance(m, Transfer) and m.target.startswith("equator") for m in p.legal_moves())
    assert Draw() in p.legal_moves()


def test_seed_gap_at_the_deal_stays_empty_but_can_be_filled() -> None:
    for number in range(1, 40):
        p = SEED.deal(number)
        if None in p.equator:
            cell = p.equator.index(None)
            p = p.play(Draw())
            assert Transfer(p.waste[-1], WASTE, equator_id(cell)) in p.legal_moves()
            return
    pytest.fail("no deal among the first 40 had an ace or king in the Equator")


# -- foundations ----------------------------------------------------------------------------------

def test_foundations_per_suit_up_from_ace_down_from_king() -> None:
    p = make(SEED, stock="2c", waste="Ah", equator=["Ks", "2h", "Qs", "Ad"], zodiac=["9c"])
    up_h, down_s = foundation_id(SUITS[1], True), foundation_id(SUITS[2], False)
    with pytest.raises(IllegalMoveError, match="takes Ah next"):
        p.play(Transfer(c("2h"), equator_id(1), up_h))
    with pytest.raises(IllegalMoveError, match="takes Ks next"):
        p.play(Transfer(c("Qs"), equator_id(2), down_s))
    with pytest.raises(IllegalMoveError, match="not a hearts card"):
        p.play(Transfer(c("Ad"), equator_id(3), up_h))
    with pytest.raises(IllegalMoveError, match="takes Kh next"):
        p.play(Transfer(c("Ah"), WASTE, foundation_id(SUITS[1], False)))
    p = p.play(Transfer(c("Ah"), WASTE, up_h)).play(Transfer(c("2h"), equator_id(1), up_h))
    p = p.play(Transfer(c("Ks"), equator_id(0), down_s)).play(Transfer(c("Qs"), equator_id(2), down_s))
    assert p.up == (0, 2, 0, 0) and p.down == (0, 0, 2, 0)
    assert p.top_of(up_h) == c("2h") and p.top_of(down_s) == c("Qs")
    full = make(SEED, stock="2c", equator=["Ah"], up=(0, 13, 0, 0), zodiac=["9c"])
    with pytest.raises(IllegalMoveError, match="complete"):
        full.play(Transfer(c("Ah"), equator_id(0), up_h))


def test_seed_opens_foundations_in_phase_1_classic_does_not() -> None:
    kwargs = {"stock": "3c", "waste": "Ah", "equator": ["Kd"], "zodiac": ["9c"]}
    seed, classic = make(SEED, **kwargs), make(CLASSIC, **kwargs)
    to_up = Transfer(c("Ah"), WASTE, foundation_id(SUITS[1], True))
    to_down = Transfer(c("Kd"), equator_id(0), foundation_id(SUITS[3], False))
    assert to_up in seed.legal_moves() and to_down in seed.legal_moves()
    assert to_up not in classic.legal_moves() and to_down not in classic.legal_moves()
    with pytest.raises(IllegalMoveError, match="classic"):
        classic.play(to_up)


def test_a_card_that_fits_both_foundations_may_go_to_either() -> None:
    p = make(SEED, equator=["7h"], zodiac=["9c"], up=(0, 6, 0, 0), down=(0, 6, 0, 0))
    targets = {m.target for m in p.legal_moves() if isinstance(m, Transfer)}
    assert targets == {foundation_id(SUITS[1], True), foundation_id(SUITS[1], False)}


# -- the phases, passes, the end ------------------------------------------------------------------

def test_phase_2_begins_when_stock_and_waste_are_empty() -> None:
    p = make(CLASSIC, waste="6h", equator=["Qd"], zodiac=["5h", "Ks"], up=(13, 4, 13, 11), down=(13, 0, 13, 0))
    assert p.phase == 1
    assert not any(isinstance(m, Transfer) and m.target.startswith("foundation") for m in p.legal_moves())
    p = p.play(Transfer(c("6h"), WASTE, zodiac_id(0)))
    assert p.phase == 2
    moves = p.legal_moves()
    assert Transfer(c("Ks"), zodiac_id(1), foundation_id(SUITS[2], False)) not in moves  # Ks: down is complete
    assert Transfer(c("Qd"), equator_id(0), foundation_id(SUITS[3], True)) in moves
    with pytest.raises(IllegalMoveError, match="phase 2"):
        p.play(Draw())
    with pytest.raises(IllegalMoveError, match="takes 5h next"):
        p.play(Transfer(c("6h"), zodiac_id(0), foundation_id(SUITS[1], True)))


def test_no_card_moves_between_zodiac_piles_or_onto_them_in_phase_2() -> None:
    p = make(SEED, equator=["7h"], zodiac=["6h", "8h"], up=(13, 5, 13, 13), down=(13, 4, 13, 13))
    assert p.phase == 2
    with pytest.raises(IllegalMoveError, match="only to the foundations"):
        p.play(Transfer(c("7h"), equator_id(0), zodiac_id(0)))
    with pytest.raises(IllegalMoveError, match="only to the foundations"):
        p.play(Transfer(c("8h"), zodiac_id(1), zodiac_id(0)))


def test_a_pass_that_places_no_card_loses() -> None:
    p = make(CLASSIC, stock="2c 3c", equator=["4d"] * 8, zodiac=["9h"])
    assert not p.is_lost()
    p = p.play(Draw()).play(Draw())
    assert Recycle() not in p.legal_moves()
    assert p.is_lost() and p.status() == "lost"
    with pytest.raises(IllegalMoveError, match="no card was placed"):
        p.play(Recycle())


def test_a_pass_that_places_a_card_may_go_round_again() -> None:
    p = make(CLASSIC, stock="2c 3c 8h", equator=["4d"] * 8, zodiac=["9h"])
    p = p.play(Draw()).play(Transfer(c("8h"), WASTE, zodiac_id(0)))
    assert p.placed
    p = p.play(Draw()).play(Draw())
    assert Recycle() in p.legal_moves() and not p.is_lost()
    again = p.play(Recycle())
    assert not again.placed and again.waste == () and again.stock == cards("2c 3c")
    with pytest.raises(IllegalMoveError, match="not empty"):
        again.play(Recycle())


def test_won_when_all_104_cards_are_on_the_foundations() -> None:
    p = ZodiacPosition(SEED, (), (), (c("Kh"),) + (None,) * 7, tuple(() for _ in range(24)), (13, 12, 13, 13),
                       (13, 13, 13, 13), False, None, {})
    assert all_cards(p) == TWO_DECKS and not p.is_won() and not p.is_lost()
    won = p.play(Transfer(c("Kh"), equator_id(0), foundation_id(SUITS[1], True)))
    assert won.is_won() and not won.is_lost() and won.result()["foundation_cards"] == 104
    assert won.legal_moves() == [] and won.status() == "won"


# -- JSON, notation, the table --------------------------------------------------------------------

def test_json_round_trip_and_validation() -> None:
    p = SEED.deal(5).play(Draw())
    data = json.loads(json.dumps(p.to_json()))
    q = position_from_json(data)
    assert q == p and q.key() == p.key() and q.deal_number == 5
    bad = dict(data, equator=data["equator"][:7])
    with pytest.raises(MalformedError, match="8 cells"):
        SEED.position_from_json(bad)
    bad = dict(data, stock=data["stock"][1:])
    with pytest.raises(MalformedError, match="two decks"):
        SEED.position_from_json(bad)
    bad = dict(data, stock=["Zz"] + data["stock"][1:])
    with pytest.raises(MalformedError, match="'Zz'"):
        SEED.position_from_json(bad)
    top = FRENCH_52.parse(data["zodiac"][0][-1])
    misfit = next(x for x in data["stock"] if FRENCH_52.parse(x).suit != top.suit)
    stock = list(data["stock"])
    stock.remove(misfit)
    zodiac = [list(pile) for pile in data["zodiac"]]
    zodiac[0].append(misfit)
    with pytest.raises(MalformedError, match="not in suit one rank apart"):
        SEED.position_from_json(dict(data, stock=stock, zodiac=zodiac))
    assert p.foundation_cards() > 0
    with pytest.raises(MalformedError, match="classic"):
        CLASSIC.position_from_json(dict(data, game="zodiac-classic"))
    with pytest.raises(MalformedError, match="not 'zodiac'"):
        SEED.position_from_json(dict(data, game="zodiac-classic"))


def test_moves_as_json_and_text() -> None:
    p = CLASSIC.deal(3)
    for move in p.legal_moves():
        assert SEED.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        assert p.parse_move(p.move_text(move)) == move
    t = Transfer(c("Qh"), WASTE, zodiac_id(3))
    assert t.to_json() == {"move": {"card": "Qh", "from": "waste", "to": "zodiac-3"}}
    assert str(t) == "Qh w>z3"
    assert p.parse_move("Qh waste>zodiac-3") == t
    assert p.parse_move("draw") == Draw() and p.parse_move("recycle") == Recycle()
    assert p.parse_move("e0>fhu") == Transfer(p.equator[0], equator_id(0), "foundation-h-up")
    for text, message in (("Qh w>x9", "not a pile"), ("hello", "not a Zodiac move"), ("Qh stock>z1", "stock")):
        with pytest.raises(MalformedError, match=message):
            p.parse_move(text)
    for data, message in (({"jump": True}, "unknown"), ({"move": {"card": "Qh", "from": "waste"}}, "exactly"),
                          ({"draw": 1}, "draw"), ([], "a Zodiac move")):
        with pytest.raises(MalformedError, match=message):
            SEED.move_from_json(data)


def test_table_format() -> None:
    p = SEED.deal(9).play(Draw())
    data = p.to_json()
    assert data["status"] == "playing" and data["result"] == p.result() and data["setup"] == {}
    piles = data["piles"]
    ids = [pile["id"] for pile in piles]
    assert len(ids) == len(set(ids)) == 2 + 8 + 8 + 24
    assert {"stock", "waste", "foundation-h-up", "foundation-c-down", "equator-7", "zodiac-23"} <= set(ids)
    assert sum(pile["count"] for pile in piles) == 104
    for pile in piles:
        assert pile["kind"] in ("stock", "waste", "foundation", "equator", "zodiac")
        assert pile["fan"] in ("none", "down", "right")
        assert pile["count"] == len(pile["cards"])
        assert isinstance(pile["x"], float) and isinstance(pile["y"], float)
    stock = piles[ids.index("stock")]
    assert all(card == {"card": None, "face_up": False} for card in stock["cards"])
    waste = piles[ids.index("waste")]
    assert waste["cards"] == [{"card": str(p.waste[-1]), "face_up": True}]
    places = {(pile["x"], pile["y"]) for pile in piles}
    assert len(places) == len(piles), "no two piles share a place"
    assert "Equator" in p.to_text() and "z23" in p.to_text()


def test_move_info() -> None:
    p = SEED.deal(4).play(Draw())
    for move in p.legal_moves():
        info = p.move_info(move)
        if isinstance(move, Transfer):
            assert info == {"cards": [str(move.card)], "from": [move.source], "to": move.target}
        else:
            assert info["cards"] == []
    assert p.move_info(Draw()) == {"cards": [], "from": ["stock"], "to": "waste"}
    assert p.move_info(Recycle()) == {"cards": [], "from": ["waste"], "to": "stock"}


# -- properties over random deals and random play -------------------------------------------------

def _candidates(p: ZodiacPosition) -> list:
    """Every move one could try: each top card to each pile, and the two turns."""
    sources = [WASTE] + [equator_id(i) for i in range(8)] + [zodiac_id(i) for i in range(24)]
    targets = sources[1:] + [foundation_id(s, up) for s in SUITS for up in (True, False)] + [WASTE]
    out: list = [Draw(), Recycle()]
    for source in sources:
        top = p.top_of(source)
        if top is not None:
            out.extend(Transfer(top, source, target) for target in targets if target != source)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(1, 10**7), classic=st.booleans(), seed=st.integers(0, 2**32))
def test_random_play_conserves_cards_and_lists_moves_exactly(number: int, classic: bool, seed: int) -> None:
    game = CLASSIC if classic else SEED
    p = game.deal(number)
    rng = random.Random(seed)
    for step in range(400):
        assert all_cards(p) == TWO_DECKS
        moves = p.legal_moves()
        if step % 25 == 0:
            legal = set(moves)
            for move in _candidates(p):
                try:
                    p.play(move)
                    accepted = True
                except IllegalMoveError:
                    accepted = False
                assert accepted == (move in legal), (move, p.to_text())
            assert position_from_json(json.loads(json.dumps(p.to_json()))) == p
        if not moves:
            assert p.is_won() or p.is_lost()
            break
        assert not p.is_lost()
        move = rng.choice(moves)
        if isinstance(move, Recycle):
            assert p.placed
        p = p.play(move)


# -- the solver -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [SEED, CLASSIC], ids=lambda g: g.name)
@pytest.mark.parametrize("number", [1, 3, 8])
def test_solver_wins_are_replayed_by_the_rules(game: ZodiacGame, number: int) -> None:
    start = game.deal(number)
    solution = solve(start, time_limit=None, node_limit=200_000)
    assert solution.status in ("won", "unknown")
    if solution.status == "won":
        end = replay(start, solution.moves)
        assert end.is_won()
        assert solution.stats["nodes"] > 0


def test_solver_wins_most_deals() -> None:
    won = sum(solve(SEED.deal(n), time_limit=None, node_limit=100_000).status == "won" for n in range(10, 16))
    assert won >= 4


def test_solver_from_the_middle_of_a_game() -> None:
    p = CLASSIC.deal(8)
    for _ in range(5):
        p = p.play(Draw())  # cards below the waste top now wait for the next pass
    solution = solve(p, time_limit=None, node_limit=200_000)
    assert solution.status in ("won", "unknown")
    if solution.status == "won":
        assert replay(p, solution.moves).is_won()


def _hearts_only(zodiac: list[str], equator: list[str], up: int, down: int) -> ZodiacPosition:
    piles = [cards(z) for z in zodiac] + [()] * (24 - len(zodiac))
    eq = tuple(c(e) for e in equator) + (None,) * (8 - len(equator))
    return ZodiacPosition(SEED, (), (), eq, tuple(piles), (13, up, 13, 13), (13, down, 13, 13), False, None, {})


def test_solver_proves_a_phase_2_loss_that_still_has_moves() -> None:
    # up holds A..6h, down K..8h: both want a 7h. The pile 7h 6h 8h: 8h must go up after a 7h,
    # 6h down after a 7h, and the second 7h lies under them. Whichever way the free 7h goes, it sticks.
    p = _hearts_only(["7h 6h 8h", "Ah 2h 3h 4h 5h", "Kh Qh Jh 10h 9h"], ["7h"], 6, 6)
    assert all_cards(p) == TWO_DECKS
    assert p.legal_moves() and not p.is_lost()
    assert solve(p, time_limit=None).status == "lost"


def test_solver_finds_the_one_way_through_phase_2() -> None:
    # up wants 7h, down wants 8h. The only way: the pile's 8h and the free 7h go down, then 6h and
    # the rest of the low hearts down, which frees the pile's 7h for the up foundation.
    p = _hearts_only(["7h 6h 8h", "Ah 2h 3h 4h 5h", "Kh Qh Jh 10h 9h"], ["7h", "8h"], 6, 5)
    assert all_cards(p) == TWO_DECKS
    solution = solve(p, time_limit=None)
    assert solution.status == "won" and replay(p, solution.moves).is_won()
    assert solution.moves[0] == Transfer(c("8h"), zodiac_id(0), foundation_id(SUITS[1], False))


def test_solver_says_unknown_when_the_budget_is_too_small() -> None:
    assert solve(SEED.deal(2), time_limit=None, node_limit=5).status == "unknown"


Suit = tuple[list[tuple[int, ...]], list[int], int, int, bool]


@st.composite
def _suits(draw: st.DrawFn) -> Suit:
    """One suit: piles (some already built on), free cards, foundation counts (u + d >= 8, to keep
    it small)."""
    u = draw(st.integers(0, 8))
    d = draw(st.integers(max(0, 8 - u), 13 - u))
    ranks = [r for r in range(1, 14) for _ in range(2 - (r <= u) - (r >= 14 - d))]
    ranks = list(draw(st.permutations(ranks)))
    k = draw(st.integers(1, min(4, len(ranks))))
    piles = [(r,) for r in ranks[:k]]
    rest = ranks[k:]
    for i in range(k):
        for _ in range(draw(st.integers(0, 2))):
            top = piles[i][-1]
            steps = [r for r in (top - 1, top + 1) if r in rest]
            if not steps:
                break
            r = draw(st.sampled_from(steps))
            rest.remove(r)
            piles[i] += (r,)
    free = [0] * 15
    for r in rest:
        free[r] += 1
    return piles, free, u, d, draw(st.booleans())


@settings(max_examples=250, deadline=None)
@given(suit=_suits())
def test_role_minimum_equals_the_exhaustive_search(suit: Suit) -> None:
    """Two independent ways to the least number of a suit's cards left for the Equator agree:
    branch and bound over pile layouts, and min-cost flows over phase-2 roles."""
    from amber_patience.solvers import zodiac as z

    piles, free, u, d, seed = suit
    exhaustive = z._SuitSearch(piles, free, u, d, seed, True, z._Counter(10**7, None))
    exhaustive.run(0)
    assert exhaustive.exact
    roles = z._SuitSearch(piles, free, u, d, seed, True, z._Counter(10**7, None))
    lower, plan = z._role_plan(roles, quick=False)
    if exhaustive.impossible:
        assert lower >= 10**6 and plan is None
    else:
        assert exhaustive.best is not None and plan is not None
        assert lower == plan.leftover == exhaustive.best.leftover


@pytest.mark.parametrize("game", [SEED, CLASSIC], ids=lambda g: g.name)
def test_solver_decides_positions_in_the_middle_of_phase_1(game: ZodiacGame) -> None:
    rng = random.Random(7)
    decided = 0
    for number in range(1, 7):
        p = game.deal(number)
        for _ in range(40):  # some placements onto the piles, some draws
            transfers = [m for m in p.legal_moves() if isinstance(m, Transfer) and m.target.startswith("zodiac")]
            p = p.play(rng.choice(transfers) if transfers and rng.random() < 0.6 else Draw() if p.stock else
                       rng.choice(p.legal_moves()))
            if p.phase == 2 or not p.legal_moves():
                break
        solution = solve(p, time_limit=None, node_limit=200_000)
        decided += solution.status != "unknown"
        if solution.status == "won":
            assert replay(p, solution.moves).is_won()
        if p.is_lost():
            assert solution.status == "lost"
    assert decided >= 5
