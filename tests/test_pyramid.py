"""Pyramid 52 and Pyramid 36: the rules point by point, deals against PySolFC, random play, and the solver."""

from __future__ import annotations

import functools
import itertools
import json
import random
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import createCards
from pysol_cards.random import shuffle as pysol_shuffle
from pysol_cards.random_base import RandomBase

from amber_patience.cards import FRENCH_52, RUSSIAN_36, parse_cards
from amber_patience.deals import DealNumberError, deck_order
from amber_patience.games import GameError, IllegalMoveError, MalformedError, get_game, position_from_json
from amber_patience.games.pyramid import DRAW, RECYCLE, Draw, PyramidPosition, Recycle, Remove
from amber_patience.pysol import pysol_deck_order
from amber_patience.solvers import solve as checked_solve
from amber_patience.solvers.pyramid import first_winnable
from amber_patience.solvers.pyramid import solve as pyramid_solve

# MS FreeCell / PySolFC deal #1 in dealing order (the well-known FreeCell layout read row by row).
DEAL_1 = ("Jd 2d 9h Jc 5d 7h 7c 5h Kd Kc 9s 5s Ad Qc Kh 3h 2s Ks 9d Qd Js As Ah 3c 4c 5c 10s Qh "
          "4h Ac 4d 7s 3s 10d 4s 10h 8h 2c Jh 7d 6d 8s 8d Qs 6c 3d 8c 10c 6s 9c 2h 6h")


def rows_of(cards: list[str], rows: int) -> list[list[str]]:
    out, i = [], 0
    for r in range(rows):
        out.append(cards[i:i + r + 1])
        i += r + 1
    return out


def table(game_name: str, pyramid: list[list[str | None]], stock: list[str], waste: list[str] = (),
          recycles: int = 0, **options: Any) -> PyramidPosition:
    """A position from its JSON fields; ``stock`` bottom to top, like the JSON form."""
    game = get_game(game_name, **options)
    return game.position_from_json({"game": game_name, "options": dict(game.options), "pyramid": pyramid,
                                    "stock": list(stock), "waste": list(waste), "recycles": recycles})


def empty_rows(rows: int) -> list[list[str | None]]:
    return [[None] * (r + 1) for r in range(rows)]


# -- deals ---------------------------------------------------------------------------------------------


def test_pyramid_52_deal_1_is_pysolfc_game_1() -> None:
    position = get_game("pyramid-52").deal(1)
    data = position.to_json()
    order = DEAL_1.split()
    assert data["pyramid"] == rows_of(order[:28], 7)
    assert data["stock"] == list(reversed(order[28:]))  # JSON lists the stock bottom to top
    assert str(position.stock[0]) == "4h"  # PySolFC turns this 29th card onto its waste
    assert position.waste == ()


@pytest.mark.parametrize("number", [2, 38, 31999, 32000, 32001, 1234567, 98765432101])
def test_pyramid_52_deals_follow_pysol_cards(number: int) -> None:
    # PySolFC puts the shuffled cards into its talon and deals from the end of the list: first the
    # 28 pyramid slots (apex first, each row left to right), then one card to the waste.
    shuffled = pysol_shuffle(createCards(1), number, RandomBase.DEALS_PYSOLFC)
    dealt = ["A23456789TJQK"[c.rank - 1].replace("T", "10") + "cshd"[c.suit] for c in reversed(shuffled)]
    position = get_game("pyramid-52").deal(number)
    assert position.to_json()["pyramid"] == rows_of(dealt[:28], 7)
    assert [str(c) for c in position.stock] == dealt[28:]


def test_pyramid_52_deal_0_comes_from_the_same_generator() -> None:
    position = get_game("pyramid-52").deal(0)
    order = pysol_deck_order(0)
    assert list(position.pyramid) == order[:28]
    assert [str(c) for c in position.stock] == [str(c) for c in order[28:]]
    with pytest.raises(DealNumberError):
        get_game("pyramid-52").deal(-1)


def test_pyramid_36_deal_uses_the_project_shuffle() -> None:
    for number in (0, 1, 77):
        position = get_game("pyramid-36").deal(number)
        order = [str(c) for c in deck_order(RUSSIAN_36, number)]
        assert position.to_json()["pyramid"] == rows_of(order[:21], 6)
        assert [str(c) for c in position.stock] == order[21:]
        assert len(position.stock) == 15


# -- options -------------------------------------------------------------------------------------------


def test_options_and_their_errors() -> None:
    assert get_game("pyramid-52").options == {"passes": 1, "relaxed": False}
    assert get_game("pyramid-36", passes="3", relaxed="yes").options == {"passes": 3, "relaxed": True}
    assert get_game("pyramid-52", passes="unlimited").options["passes"] == "unlimited"
    with pytest.raises(GameError, match="unlimited"):
        get_game("pyramid-52", passes=0)
    with pytest.raises(GameError, match="relaxed must be true or false"):
        get_game("pyramid-52", relaxed="maybe")
    with pytest.raises(GameError, match="options are passes"):
        get_game("pyramid-52", colour="red")
    with pytest.raises(GameError, match="no choices"):
        get_game("pyramid-52").deal(3, {"Start": "Kh"})


# -- values, pairs and kings ----------------------------------------------------------------------


def test_pairs_of_pyramid_36_add_up_to_19() -> None:
    game = get_game("pyramid-36")
    assert game.target == 19
    values = {str(c)[:-1]: game.value(c) for c in RUSSIAN_36.cards}
    assert values == {"6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "A": 11, "J": 12, "Q": 13, "K": 19}
    pairs = {frozenset((a, b)) for a in values for b in values if a != b and values[a] + values[b] == 19}
    assert pairs == {frozenset(p) for p in (("6", "Q"), ("7", "J"), ("8", "A"), ("9", "10"))}


def test_pairs_of_pyramid_52_add_up_to_13() -> None:
    game = get_game("pyramid-52")
    values = {str(c)[:-1]: game.value(c) for c in FRENCH_52.cards}
    pairs = {frozenset((a, b)) for a in values for b in values if a != b and values[a] + values[b] == 13}
    assert pairs == {frozenset(p) for p in (("A", "Q"), ("2", "J"), ("3", "10"), ("4", "9"), ("5", "8"),
                                            ("6", "7"))}
    assert values["K"] == 13


def small_52() -> PyramidPosition:
    """5c at the apex under 8d and 3h; Qs on the stock top; Kd on the waste, over 8c."""
    rows = empty_rows(7)
    rows[0][0] = "5c"
    rows[1][0], rows[1][1] = "8d", "3h"
    return table("pyramid-52", rows, stock=["10s", "Ah", "Qs"], waste=["8c", "Kd"])


def test_available_cards_are_uncovered_pyramid_cards_and_the_stock_and_waste_tops() -> None:
    position = small_52()
    assert {str(c): pile for c, pile in position.available.items()} == {
        "8d": "pyramid-1-0", "3h": "pyramid-1-1", "Qs": "stock", "Kd": "waste"}


def test_legal_moves_list_pairs_kings_and_draw() -> None:
    texts = {str(m) for m in small_52().legal_moves()}
    assert texts == {"Kd", "draw"}  # 8d+5c impossible: 5c is covered; nothing else adds up to 13
    position = small_52().play(Remove(tuple(parse_cards(FRENCH_52, "Kd"))))
    assert {str(m) for m in position.legal_moves()} == {"draw"}


def test_a_covered_card_cannot_be_removed_and_the_error_says_why() -> None:
    position = small_52()
    with pytest.raises(IllegalMoveError, match=r"5c is not available.*covered by 8d and 3h"):
        position.play(position.parse_move("5c+8d"))


def test_a_pair_must_add_up_to_the_target() -> None:
    position = small_52()
    with pytest.raises(IllegalMoveError, match=r"8d \(8\) \+ 3h \(3\) = 11, not 13"):
        position.play(position.parse_move("8d+3h"))
    with pytest.raises(IllegalMoveError, match="only a card worth 13"):
        position.play(position.parse_move("8d"))
    with pytest.raises(IllegalMoveError, match="two different cards"):
        position.play(Remove(tuple(parse_cards(FRENCH_52, "8d 8d"))))
    with pytest.raises(IllegalMoveError, match=r"8c is not available.*in the waste under Kd"):
        position.play(position.parse_move("8c+5c"))


def test_removing_covering_cards_uncovers_the_card_below() -> None:
    rows = empty_rows(7)
    rows[0][0] = "8d"
    rows[1][0], rows[1][1] = "10h", "Ks"
    position = table("pyramid-52", rows, stock=["5c", "Ac", "3s"], waste=["Qc"])
    position = position.play(position.parse_move("3s+10h"))  # the stock top and a pyramid card
    assert "8d" not in {str(c) for c in position.available}
    position = position.play(position.parse_move("Qc+Ac"))  # the waste top and the stock top
    position = position.play(position.parse_move("Ks"))  # a lone king
    assert str(position.pyramid[0]) in {str(c) for c in position.available}
    position = position.play(position.parse_move("8d+5c"))
    assert position.is_won()
    assert position.legal_moves() == []
    assert position.result() == {"won": True, "cards_left": 0, "points_left": 0, "pyramid_left": 0}
    assert [str(c) for c in position.removed[-7:]] == ["3s", "10h", "Qc", "Ac", "Ks", "8d", "5c"]


def test_waste_top_pairs_with_the_stock_top_and_draw_uncovers_the_next_stock_card() -> None:
    position = table("pyramid-52", empty_rows(7), stock=["7h", "9s", "4d"], waste=["Kc"])
    assert position.is_lost() is False
    position = position.play(position.parse_move("Kc"))
    with pytest.raises(IllegalMoveError, match=r"9s is not available.*in the stock under 4d"):
        position.play(position.parse_move("9s+4d"))
    position = position.play(DRAW)
    assert [str(c) for c in position.waste] == ["4d"] and str(position.stock[0]) == "9s"
    position = position.play(position.parse_move("4d+9s"))
    assert [str(c) for c in position.stock] == ["7h"]
    position = position.play(DRAW)
    assert position.is_lost() and position.legal_moves() == []
    assert position.result() == {"won": False, "cards_left": 1, "points_left": 7, "pyramid_left": 0}
    with pytest.raises(IllegalMoveError, match="stock is empty"):
        position.play(DRAW)
    with pytest.raises(IllegalMoveError, match="no pass is left"):
        position.play(RECYCLE)


def test_passes_and_recycling_keep_the_stock_order() -> None:
    stock_bottom_up = ["6c", "5s", "4h"]
    position = table("pyramid-52", empty_rows(7), stock=stock_bottom_up, passes=3)
    with pytest.raises(IllegalMoveError, match="still holds 3"):
        position.play(RECYCLE)
    for round_ in range(3):
        for _ in range(3):
            position = position.play(DRAW)
        assert position.stock == ()
        if round_ < 2:
            assert RECYCLE in position.legal_moves()
            position = position.play(RECYCLE)
            assert [str(c) for c in position.stock] == ["4h", "5s", "6c"]  # the same order as before
            assert position.to_json()["pass"] == round_ + 2
    assert position.is_lost() and position.passes_left == 0


def test_unlimited_passes_end_when_no_removal_can_ever_come() -> None:
    rows = empty_rows(7)
    rows[0][0] = "2c"
    stuck = table("pyramid-52", rows, stock=["3d", "4s"], waste=["5h"], passes="unlimited")
    assert stuck.is_lost() and stuck.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        stuck.play(DRAW)
    # 8c comes round next to 5h (waste 5h, then the stock 8c, 4s): the game goes on.
    alive = table("pyramid-52", rows, stock=["4s", "8c"], waste=["5h"], passes="unlimited")
    assert not alive.is_lost() and DRAW in alive.legal_moves()
    again = alive.play(DRAW).play(DRAW).play(RECYCLE).play(DRAW)
    assert str(again.waste[-1]) == "5h" and str(again.stock[0]) == "8c"
    assert again.play(again.parse_move("5h+8c")).is_lost()  # 2c and 4s are left, and never pair


def test_relaxed_is_won_when_the_pyramid_is_cleared() -> None:
    rows = empty_rows(6)
    rows[0][0] = "6s"
    position = table("pyramid-36", rows, stock=["7c", "8h", "Qd"], relaxed=True)
    won = position.play(position.parse_move("6s+Qd"))
    assert won.is_won() and won.legal_moves() == [] and won.status() == "won"
    assert won.result()["cards_left"] == 2
    strict = table("pyramid-36", rows, stock=["7c", "8h", "Qd"])
    assert not strict.play(strict.parse_move("Qd+6s")).is_won()


# -- JSON, notation, table -----------------------------------------------------------------------


def test_json_round_trip_and_moves() -> None:
    position = get_game("pyramid-52", passes=3).deal(5)
    for _ in range(3):
        position = position.play(position.legal_moves()[0])
    again = position_from_json(json.loads(json.dumps(position.to_json())))
    assert again == position and again.key() == position.key()
    for move in position.legal_moves():
        assert position.game.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        assert position.parse_move(position.move_text(move)) == move
    assert position.parse_move("d") == DRAW and position.parse_move("recycle") == RECYCLE
    assert DRAW.to_json() == {"draw": True} and isinstance(RECYCLE, Recycle) and isinstance(DRAW, Draw)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(pyramid=d["pyramid"][:6]), "7 rows"),
    (lambda d: d["pyramid"][0].append("2c"), "row 0 must list 1"),
    (lambda d: d["stock"].append(d["stock"][0]), "appears twice"),
    (lambda d: (d.__setitem__("removed", []), d["stock"].pop()), "missing from the position: "),
    (lambda d: d["stock"].append("Zz"), "not a card"),
    (lambda d: (d["stock"].append(d["pyramid"][5][0]), d["pyramid"][5].__setitem__(0, None)),
     "pyramid-5-0 is empty but"),
    (lambda d: d.update(recycles=1), "at most 0"),
    (lambda d: d.update(deal=-3), "negative"),
])
def test_malformed_positions_say_what_is_wrong(change: Any, message: str) -> None:
    data = get_game("pyramid-52").deal(9).to_json()
    data.pop("removed")
    change(data)
    with pytest.raises(MalformedError, match=message):
        position_from_json(data)


def test_malformed_moves_say_what_is_wrong() -> None:
    game = get_game("pyramid-36")
    position = game.deal(2)
    for bad, message in [({"remove": []}, "one card"), ({"jump": True}, "unknown"), ("draw", "is"),
                         ({"remove": ["2c"]}, "not a card")]:
        with pytest.raises(MalformedError, match=message):
            game.move_from_json(bad)
    with pytest.raises(MalformedError, match="not a Pyramid move"):
        position.parse_move("6c 6d 6s")


def test_table_piles_follow_the_shared_format() -> None:
    position = get_game("pyramid-52").deal(11)
    position = position.play(DRAW)
    data = position.to_json()
    assert data["status"] == "playing" and data["setup"] == {} and data["result"] == position.result()
    piles = data["piles"]
    ids = [p["id"] for p in piles]
    assert len(ids) == len(set(ids)) == 28 + 3
    assert {p["kind"] for p in piles} == {"pyramid", "stock", "waste", "foundation"}
    assert sum(p["count"] for p in piles) == 52
    for pile in piles:
        assert pile["count"] == len(pile["cards"]) and pile["fan"] in ("none", "down", "right")
        if pile["kind"] == "pyramid":
            r, c = map(int, pile["id"].split("-")[1:])
            assert pile["y"] == pytest.approx(r * 0.5)
            assert pile["cards"] == [{"card": data["pyramid"][r][c], "face_up": True}]
    stock = next(p for p in piles if p["id"] == "stock")
    assert stock["cards"][-1] == {"card": str(position.stock[0]), "face_up": True}
    assert all(c == {"card": None, "face_up": False} for c in stock["cards"][:-1])
    # A card rests centred on the two below it.
    x = {p["id"]: p["x"] for p in piles}
    assert x["pyramid-5-0"] == pytest.approx((x["pyramid-6-0"] + x["pyramid-6-1"]) / 2)
    assert x["pyramid-6-1"] - x["pyramid-6-0"] >= 1.1


def test_move_info_for_the_front_end() -> None:
    position = small_52()
    info = position.move_info(position.parse_move("Kd"))
    assert info == {"cards": ["Kd"], "from": ["waste"], "to": None}
    drawn = position.play(DRAW)
    assert drawn.move_info(drawn.parse_move("Qs+Ah")) == {"cards": ["Qs", "Ah"], "from": ["waste", "stock"],
                                                          "to": None}
    assert position.move_info(DRAW) == {"cards": [], "from": ["stock"], "to": "waste"}
    assert position.move_info(RECYCLE) == {"cards": [], "from": ["waste", "stock"], "to": "stock"}
    text = position.to_text()
    assert "[8d]" in text and "  5c\n" in text and "Stock: [Qs]" in text and "Waste: [Kd]" in text
    assert position.describe_move(position.parse_move("Kd")) == "Remove King of diamonds"
    assert position.describe_move(position.parse_move("3h+10s"), "ru") == "Убрать Тройка червей и Десятка пик"


# -- random play ---------------------------------------------------------------------------------


GAME_VARIANTS = [("pyramid-52", {}), ("pyramid-36", {}), ("pyramid-52", {"passes": 3}),
                 ("pyramid-36", {"passes": "unlimited"}), ("pyramid-52", {"relaxed": True, "passes": "unlimited"})]


@given(st.sampled_from(GAME_VARIANTS), st.integers(min_value=1, max_value=10**9), st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_random_play_accepts_every_listed_move_and_conserves_cards(variant: Any, number: int, rnd: random.Random
                                                                 ) -> None:
    name, options = variant
    game = get_game(name, **options)
    position = game.deal(number)
    deck = sorted(map(str, game.deck.cards))
    for _ in range(400):
        moves = position.legal_moves()
        assert (not moves) == (position.is_won() or position.is_lost())
        held = [c for c in position.pyramid if c is not None] + list(position.stock) + list(position.waste)
        assert sorted(map(str, held + list(position.removed))) == deck
        if not moves:
            break
        removals = [m for m in moves if isinstance(m, Remove)]
        move = rnd.choice(removals if removals and rnd.random() < 0.8 else moves)
        position = position.play(move)
        assert position_from_json(position.to_json()).key() == position.key()
    assert position.status() in ("won", "lost") or game.passes is None


# -- the solver ----------------------------------------------------------------------------------------


def brute_force(position: PyramidPosition) -> bool:
    """Whether some line wins, by trying every legal move through the rules engine."""
    seen: set[Any] = set()
    stack = [position]
    while stack:
        p = stack.pop()
        if p.is_won():
            return True
        if p.key() in seen:
            continue
        seen.add(p.key())
        stack.extend(p.play(m) for m in p.legal_moves())
    return False


@given(st.sampled_from(GAME_VARIANTS), st.integers(min_value=1, max_value=10**9), st.randoms(use_true_random=False))
@settings(max_examples=40, deadline=None)
def test_solver_agrees_with_brute_force_on_late_positions(variant: Any, number: int, rnd: random.Random) -> None:
    name, options = variant
    position = get_game(name, **options).deal(number)
    # Play removals first (at random) until few cards are left, so brute force stays small.
    while len(position.cards_left()) > 18 and position.legal_moves():
        moves = position.legal_moves()
        removals = [m for m in moves if isinstance(m, Remove)]
        position = position.play(rnd.choice(removals or moves))
    solution = checked_solve(position, time_limit=None)
    assert solution.status == ("won" if brute_force(position) else "lost")


@pytest.mark.parametrize(("name", "options", "deals"), [
    ("pyramid-52", {}, range(1, 9)), ("pyramid-36", {}, range(0, 12)), ("pyramid-36", {"relaxed": True}, range(12)),
    ("pyramid-36", {"passes": 3}, range(6)), ("pyramid-36", {"passes": "unlimited"}, range(6)),
])
def test_every_solver_win_replays_through_the_rules(name: str, options: dict[str, Any], deals: range) -> None:
    game = get_game(name, **options)
    statuses = []
    for number in deals:
        solution = checked_solve(game.deal(number), time_limit=None)  # replays and checks every win
        statuses.append(solution.status)
        if solution.status == "won":
            end = game.deal(number)
            for move in solution.moves:
                end = end.play(move)
            assert end.is_won()
    assert "unknown" not in statuses
    assert "lost" in statuses or game.passes != 1


def test_solver_finds_a_known_winnable_pyramid_36_deal_and_stops_at_the_node_limit() -> None:
    game = get_game("pyramid-36")
    number = first_winnable(game, 0, limit=50)
    assert number is not None
    assert checked_solve(game.deal(number)).status == "won"
    assert all(pyramid_solve(game.deal(n), time_limit=None).status == "lost" for n in range(number))
    # A deal whose proof takes more than 5 search nodes stops at a limit of 5.
    deals = (get_game("pyramid-52").deal(n) for n in range(1, 60))
    hard, full = next((d, s) for d in deals if (s := pyramid_solve(d, time_limit=None)).stats["nodes"] > 5)
    assert full.status in ("won", "lost")
    assert pyramid_solve(hard, node_limit=5).status == "unknown"


@functools.cache
def winning_line(name: str, options: tuple[tuple[str, Any], ...]) -> tuple[int, list[Any]]:
    game = get_game(name, **dict(options))
    number = first_winnable(game, 1, limit=100)
    assert number is not None
    return number, checked_solve(game.deal(number), time_limit=None).moves


@given(st.sampled_from([("pyramid-36", {}), ("pyramid-36", {"passes": 3}), ("pyramid-52", {})]),
       st.integers(min_value=0, max_value=60), st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None)
def test_solver_agrees_with_brute_force_next_to_a_winning_line(variant: Any, k: int, rnd: random.Random) -> None:
    # Follow a winning line part of the way, then step aside at random: some positions stay won, some not.
    name, options = variant
    game = get_game(name, **options)
    number, line = winning_line(name, tuple(sorted(options.items())))
    position = game.deal(number)
    for move in line[:k]:
        position = position.play(move)
    while position.legal_moves() and (len(position.cards_left()) > 16 or rnd.random() < 0.3):
        position = position.play(rnd.choice(position.legal_moves()))
    assert checked_solve(position, time_limit=None).status == ("won" if brute_force(position) else "lost")


# -- the solver's bounds -------------------------------------------------------------------------------


def test_waste_bound_a_card_under_a_pyramid_card_that_needs_the_waste() -> None:
    # 5c can only go with 8d, which lies in the waste under Qh; Qh's only pyramid partner, Ac, lies
    # under 5c. So Ac goes after 5c, after 8d, after Qh: Ac can never pair with Qh. The other pairs
    # (As with Qh or Qd) do not help. The waste bound sees it before any search.
    rows = empty_rows(7)
    rows[0][0] = "Ac"
    rows[1][0], rows[1][1] = "5c", "9d"
    rows[2][0] = "Qd"
    stuck = table("pyramid-52", rows, stock=["As", "4h"], waste=["8d", "Qh"])
    solution = pyramid_solve(stuck, time_limit=None)
    assert solution.status == "lost" and not brute_force(stuck)
    assert solution.stats["nodes"] == 0 and solution.stats["pruned"] == 1 and solution.stats["at_root"]
    # The same cards with 8d on top of Qh: 4h+9d, As+Qd, 5c+8d, Ac+Qh.
    free = table("pyramid-52", rows, stock=["As", "4h"], waste=["Qh", "8d"])
    solution = checked_solve(free, time_limit=None)
    assert solution.status == "won" and brute_force(free)
    # 5c needs 8d, with Jc above it: Ac may still pair with Qh, under 8d (2h+Jc first).
    below = table("pyramid-52", rows, stock=["As", "4h", "2h"], waste=["Qh", "8d", "Jc"])
    assert checked_solve(below, time_limit=None).status == "won" and brute_force(below)
    # With another pass, 8d can come back on top: not lost.
    again = table("pyramid-52", rows, stock=["As", "4h"], waste=["8d", "Qh"], passes=2)
    assert checked_solve(again, time_limit=None).status == ("won" if brute_force(again) else "lost") == "won"


def test_waste_bound_under_the_partners_of_a_waste_card_only_when_every_card_must_go() -> None:
    # 8d (bottom of the waste) can only go with 5c, which covers Ac: so when every card must go,
    # Ac goes after 8d, after Qh above it, and never pairs with Qh. In a relaxed game 8d may stay:
    # 4h+9d, 8h+5c, Ac+Qh clear the pyramid.
    rows = empty_rows(7)
    rows[0][0] = "Ac"
    rows[1][0], rows[1][1] = "5c", "9d"
    strict = table("pyramid-52", rows, stock=["8h", "4h"], waste=["8d", "Qh"])
    solution = pyramid_solve(strict, time_limit=None)
    assert solution.status == "lost" and not brute_force(strict) and solution.stats["nodes"] == 0
    relaxed = table("pyramid-52", rows, stock=["8h", "4h"], waste=["8d", "Qh"], relaxed=True)
    assert checked_solve(relaxed, time_limit=None).status == "won" and brute_force(relaxed)


def small_table(data: st.DataObject) -> PyramidPosition:
    """A small random position: a few pyramid slots from the apex down, a short stock and waste,
    the other cards removed. Cards come mostly in pairs adding up to the target, so some are won."""
    name = data.draw(st.sampled_from(["pyramid-52", "pyramid-36"]))
    passes = data.draw(st.sampled_from([1, 1, 2, "unlimited"]))
    relaxed = data.draw(st.booleans())
    game = get_game(name, passes=passes, relaxed=relaxed)
    rnd = data.draw(st.randoms(use_true_random=False))
    by_value: dict[int, list[str]] = {}
    for card in game.deck.cards:
        by_value.setdefault(game.value(card), []).append(str(card))
    for cards in by_value.values():
        rnd.shuffle(cards)
    chosen: list[str] = []
    for _ in range(rnd.randint(3, 6)):
        low = rnd.choice(sorted(by_value))
        high = game.target - low
        if low == game.target or high not in by_value:  # a king, alone
            if by_value[low]:
                chosen.append(by_value[low].pop())
        elif by_value[low] and by_value[high] and (low != high):
            chosen += [by_value[low].pop(), by_value[high].pop()]
    if rnd.random() < 0.3:  # now and then a card without its partner
        rest = [c for cards in by_value.values() for c in cards]
        chosen.append(rnd.choice(rest))
    rnd.shuffle(chosen)
    # Pyramid slots: apex first; a slot only when the slots it rests on are filled.
    rows = empty_rows(game.rows)
    filled = 0
    goal = rnd.randint(0, min(6, len(chosen)))
    for r, c in game.slots:
        if filled == goal:
            break
        supports = [(r - 1, c - d) for d in (1, 0) if 0 <= c - d <= r - 1] if r else []
        if all(rows[rr][cc] is not None for rr, cc in supports) and rnd.random() < 0.8:
            rows[r][c] = chosen[filled]
            filled += 1
    talon = chosen[filled:]
    cut = rnd.randint(0, len(talon))
    return table(name, rows, stock=talon[cut:], waste=talon[:cut], passes=passes, relaxed=relaxed)


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_solver_agrees_with_brute_force_on_small_random_tables(data: st.DataObject) -> None:
    position = small_table(data)
    won = brute_force(position)
    assert pyramid_solve(position, time_limit=None).status == ("won" if won else "lost")


@pytest.mark.parametrize(("dive", "exact_from"), [(0, 10_000), (0, 0), (2, 0), (2, 3)])
@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_solver_phases_agree_with_brute_force_on_small_random_tables(dive: int, exact_from: int,
                                                                     data: st.DataObject) -> None:
    # The dive (a first search with no subgame checks, whose lost states the search keeps) and the
    # switch to subgames decided exactly with a recycle left after some nodes change only the
    # speed: with no dive or a dive cut short, and exact subgames from the start or after a few
    # nodes, the solver must still agree with exhaustive search, and its wins must replay.
    from amber_patience.solvers import pyramid as module

    position = small_table(data)
    dives = {False: {False: dive, True: dive}, True: {False: dive, True: dive}}
    with mock.patch.object(module, "DIVE_NODES", dives), mock.patch.object(module, "NODE_EXACT_FROM", exact_from):
        solution = checked_solve(position, time_limit=None)
    assert solution.status == ("won" if brute_force(position) else "lost")


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_a_subgame_of_every_rank_class_is_the_game_itself(data: st.DataObject) -> None:
    # Cut down to every rank class, a subgame is the whole game (kings go as soon as they are
    # available, which never hurts), so on small tables (no pass, one recycle or no limit left:
    # the cases it decides exactly) its answer must be exhaustive search's. This checks the exact
    # subgame searches themselves, their memos and dominance included.
    from amber_patience.solvers.pyramid import _Search, _Subgame

    position = small_table(data)
    search = _Search(position, None, None)
    game = _Subgame(search, tuple(range(len(search.t.classes))))
    removed = search.start_pmask
    assert game.won(removed, game.first[search.start_cursor], search.start_recycles) == brute_force(position)


def late_position(position, line, rnd: random.Random, cards: int, go_on: float):
    """A late position: part of a winning ``line`` (at least a third), then random moves (draws
    half the time they are legal) down to ``cards`` cards left, and on with chance ``go_on``."""
    for move in line[:rnd.randint(len(line) // 3, len(line))]:
        position = position.play(move)
    while position.legal_moves() and (len(position.cards_left()) > cards or rnd.random() < go_on):
        moves = position.legal_moves()
        position = position.play(DRAW if DRAW in moves and rnd.random() < 0.5 else rnd.choice(moves))
    return position


@pytest.mark.parametrize("seed", range(2))
def test_a_subgame_of_every_rank_class_is_the_game_itself_on_late_positions(seed: int) -> None:
    # The same on late positions of real deals with one recycle or none left, from winning lines
    # and then random moves (bigger than the small tables: the memos and the dominance of the
    # subgames with a recycle left come into play). Both answers must occur.
    from amber_patience.solvers.pyramid import _Search, _Subgame

    rnd = random.Random(seed)
    answers = []
    for name, options in [("pyramid-36", {"passes": 2}), ("pyramid-36", {"passes": 2, "relaxed": True}),
                          ("pyramid-52", {"passes": 2})]:
        game = get_game(name, **options)
        number, line = winning_line(name, tuple(sorted(options.items())))
        for _ in range(10):
            position = game.deal(number)
            position = late_position(position, line, rnd, 14, 0.3)
            search = _Search(position, None, None)
            whole = _Subgame(search, tuple(range(len(search.t.classes))))
            won = whole.won(search.start_pmask, whole.first[search.start_cursor], search.start_recycles)
            assert won == brute_force(position), position.to_json()
            answers.append(won)
    assert True in answers and False in answers


@pytest.mark.parametrize("seed", range(3))
def test_waste_bound_never_rejects_a_position_that_can_be_won(seed: int) -> None:
    # Late positions on the last pass with a waste (from winning lines, then random moves): whenever
    # the waste bound rejects one, exhaustive search must find it lost. It must reject some.
    from amber_patience.solvers.pyramid import _Search

    rnd = random.Random(seed)
    rejected = checked = 0
    for name, options in [("pyramid-52", {}), ("pyramid-36", {}), ("pyramid-52", {"relaxed": True}),
                          ("pyramid-36", {"relaxed": True})]:
        game = get_game(name, **options)
        number, line = winning_line(name, tuple(sorted(options.items())))
        for _ in range(12):
            position = game.deal(number)
            position = late_position(position, line, rnd, 16, 0.4)
            search = _Search(position, None, None)
            if not position.waste or position.is_won():
                continue
            checked += 1
            if not search.waste_ok(search.start_pmask, 0, search.start_cursor):
                rejected += 1
                assert not brute_force(position), position.to_json()
    assert checked > 10 and rejected > 0


@pytest.mark.parametrize("seed", range(3))
def test_subgames_never_reject_a_position_that_can_be_won(seed: int) -> None:
    # The game cut down to two or three rank classes (every other card removed as soon as it is
    # available) is decided exactly (with a recycle left: as if with no limit); when it is lost the
    # real game must be lost too. Late positions from winning lines then random moves: every
    # rejection is checked by exhaustive search, and some must be rejected.
    from amber_patience.solvers.pyramid import _Search, _Subgame

    rnd = random.Random(seed)
    rejected = checked = 0
    for name, options in [("pyramid-52", {}), ("pyramid-36", {}), ("pyramid-52", {"relaxed": True}),
                          ("pyramid-36", {"relaxed": True}), ("pyramid-36", {"passes": 3}),
                          ("pyramid-36", {"passes": "unlimited"})]:
        game = get_game(name, **options)
        number, line = winning_line(name, tuple(sorted(options.items())))
        for _ in range(12):
            position = game.deal(number)
            position = late_position(position, line, rnd, 16, 0.4)
            if position.is_won():
                continue
            search = _Search(position, None, None)
            classes = range(len(search.t.classes))
            games = [_Subgame(search, c) for size in (2, 3) for c in itertools.combinations(classes, size)]
            checked += 1
            recycles = search.start_recycles
            if not all(g.won(search.start_pmask, g.first[search.start_cursor], recycles) for g in games):
                rejected += 1
                assert not brute_force(position), position.to_json()
    assert checked > 20 and rejected > 0


@pytest.mark.parametrize("seed", range(2))
def test_a_triple_that_asks_its_pairs_first_gives_the_same_answers(seed: int) -> None:
    # A three-class subgame whose states are refused as soon as one of its two-class subgames is
    # lost there (the pairs are relaxations of it) must answer exactly as the triple alone, with
    # recycles left (as if with no limit, or exactly with one or two) and on the last pass, where
    # the pair's stock top must be placed right. Positions after random play on real deals; both
    # answers must occur, and the pairs must refuse some.
    from amber_patience.solvers.pyramid import _Search, _Subgame

    rnd = random.Random(seed)
    answers = []
    refused = 0
    for name, options in [("pyramid-52", {"passes": 3}), ("pyramid-52", {"passes": "unlimited"}),
                          ("pyramid-36", {"passes": 3}), ("pyramid-52", {"passes": 3, "relaxed": True}),
                          ("pyramid-52", {"passes": 2}), ("pyramid-52", {}), ("pyramid-36", {"relaxed": True})]:
        game = get_game(name, **options)
        for _ in range(4):
            position = game.deal(rnd.randrange(10_000))
            for _ in range(rnd.randrange(4, 30)):
                moves = position.legal_moves()
                if not moves:
                    break
                position = position.play(DRAW if DRAW in moves and rnd.random() < 0.5 else rnd.choice(moves))
            search = _Search(position, None, None)
            classes = range(len(search.t.classes))
            pairs = {c: _Subgame(search, c) for c in itertools.combinations(classes, 2)}
            for triple in itertools.combinations(classes, 3):
                alone, asking = _Subgame(search, triple), _Subgame(search, triple)
                asking.set_parts([pairs[c] for c in itertools.combinations(triple, 2)])
                for recycles in ({search.start_recycles, 2, 0} if search.start_recycles >= 0 else {-1}):
                    args = (search.start_pmask, alone.first[search.start_cursor], recycles)
                    won = alone.won(*args)
                    assert asking.won(*args) == won, (position.to_json(), triple, recycles)
                    answers.append(won)
                    refused += not all(part.won(*args[:1], part.first[search.start_cursor], recycles)
                                       for part in asking.parts)
    assert True in answers and False in answers and refused > 0
