"""The Simplest patience: rules point by point, random play, and the solver checked by replay and by
an independent brute-force search on small endgames."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.cards import FRENCH_52, SUITS, Card
from amber_patience.deals import deck_order
from amber_patience.games import GameError, IllegalMoveError, MalformedError, get_game, position_from_json
from amber_patience.games.simplest import (
    CELLS,
    COLUMNS,
    Draw,
    Recycle,
    Shift,
    SimplestGame,
    SimplestPosition,
    cell_id,
    column_id,
    foundation_id,
)
from amber_patience.solvers import replay, solve
from amber_patience.solvers import simplest as solver

D = FRENCH_52.parse


def make(columns: list[str] | None = None, cells: list[str | None] | None = None,
         foundations: dict[str, int] | None = None, stock: str = "", waste: str = "", empty: str = "king",
         rest: str = "stock") -> SimplestPosition:
    """A position from a short description; every card not placed goes to ``rest`` (stock or waste,
    below the cards given there)."""
    cols = [c.split() for c in (columns or [])] + [[] for _ in range(COLUMNS - len(columns or []))]
    cell_list = list(cells or []) + [None] * (CELLS - len(cells or []))
    found = {s.value: 0 for s in SUITS} | (foundations or {})
    placed = {D(c) for col in cols for c in col} | {D(c) for c in cell_list if c} | {
        D(c) for c in stock.split() + waste.split()}
    placed |= {Card(FRENCH_52.pattern, s, r) for s in SUITS for r in range(1, found[s.value] + 1)}
    others = [str(c) for c in FRENCH_52.cards if c not in placed]
    stock_list, waste_list = stock.split(), waste.split()
    if rest == "stock":
        stock_list = others + stock_list
    else:
        waste_list = others + waste_list
    data = {"game": "simplest", "options": {"empty": empty}, "deal": None, "setup": {}, "columns": cols,
            "cells": cell_list, "foundations": found, "stock": stock_list, "waste": waste_list}
    position = get_game("simplest", empty=empty).position_from_json(data)
    assert isinstance(position, SimplestPosition)
    return position


def all_cards(position: SimplestPosition) -> list[Card]:
    cards = [c for col in position.columns for c in col] + [c for c in position.cells if c is not None]
    cards += list(position.stock) + list(position.waste)
    cards += [Card(FRENCH_52.pattern, s, r) for s in SUITS for r in range(1, position.foundation_count(s) + 1)]
    return cards


# -- options and the deal ---------------------------------------------------------------------------


def test_options() -> None:
    assert get_game("simplest").options == {"empty": "king"}
    assert get_game("simplest", empty="any").options == {"empty": "any"}
    with pytest.raises(GameError, match="'king' or 'any'"):
        get_game("simplest", empty="queen")
    with pytest.raises(GameError, match="unknown: colour"):
        get_game("simplest", colour="red")


def test_deal_row_by_row_and_stock_top() -> None:
    order = deck_order(FRENCH_52, 7)
    p = get_game("simplest").deal(7)
    assert [len(col) for col in p.columns] == [4] * COLUMNS
    for row in range(4):
        for c in range(COLUMNS):
            assert p.columns[c][row] == order[row * COLUMNS + c]
    assert len(p.stock) == 12 and p.waste == ()
    assert p.stock[-1] == order[40]  # the 41st card is turned first
    assert p.play(Draw()).waste == (order[40],)
    assert sorted(map(FRENCH_52.index, all_cards(p))) == list(range(52))
    assert p.deal_number == 7 and p.cells == (None,) * 4 and p.foundations == (0, 0, 0, 0)


def test_deal_number_checked() -> None:
    with pytest.raises(ValueError, match="negative"):
        get_game("simplest").deal(-1)


# -- the rules, point by point -----------------------------------------------------------------------


def test_only_the_top_card_of_a_column_moves() -> None:
    p = make(["Kd 9s 7c", "8h"])
    assert Shift(D("7c"), column_id(0), column_id(1)) in p.legal_moves()
    with pytest.raises(IllegalMoveError, match="only the top card"):
        p.play(Shift(D("9s"), column_id(0), cell_id(0)))
    assert not any(isinstance(m, Shift) and m.card == D("9s") for m in p.legal_moves())


def test_columns_build_down_in_alternating_colours() -> None:
    p = make(["7s", "6h", "6d", "6c", "5h", "8h"])
    assert p.play(Shift(D("6h"), column_id(1), column_id(0))).columns[0] == (D("7s"), D("6h"))
    p.play(Shift(D("6d"), column_id(2), column_id(0)))
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        p.play(Shift(D("6c"), column_id(3), column_id(0)))  # same colour
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        p.play(Shift(D("5h"), column_id(4), column_id(0)))  # two ranks lower
    with pytest.raises(IllegalMoveError, match="alternating colours"):
        p.play(Shift(D("8h"), column_id(5), column_id(0)))  # higher
    targets = {(m.card, m.target) for m in p.legal_moves() if isinstance(m, Shift) and m.target.startswith("col")}
    assert (D("6h"), column_id(0)) in targets and (D("6c"), column_id(0)) not in targets


@pytest.mark.parametrize("empty", ["king", "any"])
def test_empty_column(empty: str) -> None:
    p = make(["Qd Kc", "9h Qs"], empty=empty)
    assert Shift(D("Kc"), column_id(0), column_id(2)) in p.legal_moves()
    king = p.play(Shift(D("Kc"), column_id(0), column_id(2)))
    assert king.columns[2] == (D("Kc"),)
    queen = Shift(D("Qs"), column_id(1), column_id(3))
    if empty == "king":
        assert queen not in p.legal_moves()
        with pytest.raises(IllegalMoveError, match="only a king"):
            p.play(queen)
    else:
        assert queen in p.legal_moves()
        assert p.play(queen).columns[3] == (D("Qs"),)


def test_free_cells_hold_one_card_each_and_at_most_four() -> None:
    p = make(["9h 8c 7d 6s 5h 4c"], cells=[None, "Kd", None, None])
    with pytest.raises(IllegalMoveError, match="already holds Kd"):
        p.play(Shift(D("4c"), column_id(0), cell_id(1)))
    to_cells = [m for m in p.legal_moves() if isinstance(m, Shift) and m.target.startswith("cell")]
    assert {m.target for m in to_cells if m.card == D("4c")} == {cell_id(0), cell_id(2), cell_id(3)}
    for i in (0, 2, 3):
        top = p.columns[0][-1]
        p = p.play(Shift(top, column_id(0), cell_id(i)))
    assert None not in p.cells
    assert not any(isinstance(m, Shift) and m.target.startswith("cell") for m in p.legal_moves())
    with pytest.raises(IllegalMoveError, match="free cell"):
        p.play(Shift(D("7d"), column_id(0), cell_id(2)))
    # A card leaves a free cell for a column or a foundation, never for another free cell.
    p = make(["8s"], cells=["7d", None])
    assert p.play(Shift(D("7d"), cell_id(0), column_id(0))).columns[0] == (D("8s"), D("7d"))
    with pytest.raises(IllegalMoveError, match="from one free cell to another"):
        p.play(Shift(D("7d"), cell_id(0), cell_id(1)))


def test_foundations_ace_up_in_suit_and_never_give_back() -> None:
    p = make(["2h", "3h", "Ah", "As"])
    with pytest.raises(IllegalMoveError, match="needs Ah next"):
        p.play(Shift(D("2h"), column_id(0), foundation_id(SUITS[1])))
    with pytest.raises(IllegalMoveError, match="only go to the spades foundation"):
        p.play(Shift(D("As"), column_id(3), foundation_id(SUITS[1])))
    p = p.play(Shift(D("Ah"), column_id(2), "foundation-h"))
    with pytest.raises(IllegalMoveError, match="needs 2h next, not 3h"):
        p.play(Shift(D("3h"), column_id(1), "foundation-h"))
    p = p.play(Shift(D("2h"), column_id(0), "foundation-h")).play(Shift(D("3h"), column_id(1), "foundation-h"))
    assert p.foundation_count(SUITS[1]) == 3 and p.result()["cards_on_foundations"] == 3
    with pytest.raises(MalformedError, match="not a pile a card can leave"):
        p.game.move_from_json({"move": {"card": "3h", "from": "foundation-h", "to": "column-1"}})
    with pytest.raises(IllegalMoveError, match="never leave the foundations"):
        p.play(Shift(D("3h"), column_id(0), column_id(4)))


def test_stock_turning_and_recycling() -> None:
    p = make(["Kd"], stock="5c 9h 2s", rest="waste")  # 2s on top of the stock
    waste_before = p.waste
    cycle = p.cycle
    assert p.legal_moves()[-1] == Draw()
    with pytest.raises(IllegalMoveError, match="turned over only when it is empty"):
        p.play(Recycle())
    p = p.play(Draw())
    assert p.waste[-1] == D("2s") and p.stock == (D("5c"), D("9h"))
    assert Shift(D("2s"), "waste", cell_id(0)) in p.legal_moves()
    with pytest.raises(IllegalMoveError, match="only the waste's top card"):
        p.play(Shift(waste_before[-1], "waste", cell_id(0)))
    with pytest.raises(IllegalMoveError, match="turn the stock"):
        p.play(Shift(D("9h"), "waste", cell_id(0)))
    p = p.play(Draw()).play(Draw())
    assert p.stock == () and p.legal_moves()[-1] == Recycle()
    with pytest.raises(IllegalMoveError, match="recycle the waste"):
        p.play(Draw())
    assert p.cycle == cycle  # turning walks round the cycle
    p = p.play(Recycle())
    assert p.waste == () and p.cycle == cycle and p.stock[-1] == cycle[0]
    p = p.play(Draw())
    assert p.waste == (cycle[0],)
    empty = make(["Kd"], foundations={"c": 13, "h": 13, "s": 13, "d": 12})
    with pytest.raises(IllegalMoveError, match="both empty"):
        empty.play(Draw())
    with pytest.raises(IllegalMoveError, match="nothing to turn over"):
        empty.play(Recycle())


def test_won_and_lost() -> None:
    last = make(["Kd"], foundations={"c": 13, "h": 13, "s": 13, "d": 12})
    assert not last.is_won() and not last.is_lost() and last.status() == "playing"
    won = last.play(Shift(D("Kd"), column_id(0), "foundation-d"))
    assert won.is_won() and not won.is_lost() and won.status() == "won"
    assert won.result() == {"won": True, "cards_on_foundations": 52, "cards_left": 0}
    assert won.legal_moves() == [] and solve(won).moves == [] and solve(won).status == "won"
    assert solve(last).moves == [Shift(D("Kd"), column_id(0), "foundation-d")]
    # Every column topped by a black card, the free cells full of black cards, the stock empty:
    # nothing can ever move, so the game is lost.
    blocked = _black_tops()
    assert blocked.legal_moves() == []
    assert blocked.is_lost() and blocked.status() == "lost"
    assert solve(blocked, time_limit=5).status == "lost"
    # The same with a red nine in the stock (it fits on a black ten): not lost.
    alive = _black_tops(stock="9h")
    assert alive.legal_moves() == [Draw()]
    assert not alive.is_lost() and alive.play(Draw()).legal_moves() != [Recycle()]
    # A red two in the stock fits nowhere, so turning it up changes nothing: lost.
    stuck = _black_tops(stock="2h")
    assert stuck.legal_moves() == [Draw()] and stuck.is_lost()
    assert solve(stuck, time_limit=5).status == "lost"


def _black_tops(stock: str = "") -> SimplestPosition:
    tops = ["Kc", "Ks", "Qc", "Qs", "Jc", "Js", "10c", "10s", "9c", "9s"]
    cells = ["8c", "8s", "7c", "7s"]
    buried = [str(c) for c in FRENCH_52.cards
              if str(c) not in tops + cells + stock.split()]
    columns = [" ".join(buried[i::10] + [top]) for i, top in enumerate(tops)]
    return make(columns, cells=list(cells), stock=stock)


# -- JSON, text, the table -----------------------------------------------------------------------------


def test_json_round_trip_and_table() -> None:
    p = get_game("simplest", empty="any").deal(3)
    for move in p.legal_moves()[:3]:
        p = p.play(move)
    p = p.play(Draw())
    data = json.loads(json.dumps(p.to_json()))
    assert position_from_json(data) == p
    assert data["status"] == "playing" and data["result"] == p.result() and data["setup"] == {}
    piles = data["piles"]
    ids = [pile["id"] for pile in piles]
    assert len(ids) == len(set(ids)) == 1 + 1 + 4 + 4 + 10
    assert sum(pile["count"] for pile in piles) == 52
    kinds = {pile["id"]: pile["kind"] for pile in piles}
    assert kinds["stock"] == "stock" and kinds["cell-1"] == "freecell" and kinds["column-10"] == "tableau"
    stock = next(pile for pile in piles if pile["id"] == "stock")
    assert all(c == {"card": None, "face_up": False} for c in stock["cards"]) and stock["count"] == len(p.stock)
    column = next(pile for pile in piles if pile["id"] == "column-1")
    assert column["fan"] == "down" and [c["card"] for c in column["cards"]] == [str(c) for c in p.columns[0]]
    xs = {(pile["x"], pile["y"]) for pile in piles}
    assert len(xs) == len(piles)  # no two piles on the same place


def test_malformed_positions_say_what_is_wrong() -> None:
    good = get_game("simplest").deal(1).to_json()
    twice = json.loads(json.dumps(good))
    twice["columns"][0][0] = twice["columns"][1][0]
    with pytest.raises(MalformedError, match=r"both in column \d and in column \d"):
        position_from_json(twice)
    short = json.loads(json.dumps(good))
    short["stock"].pop()
    with pytest.raises(MalformedError, match="cards missing"):
        position_from_json(short)
    bad = json.loads(json.dumps(good))
    bad["foundations"]["h"] = 14
    with pytest.raises(MalformedError, match="foundation h"):
        position_from_json(bad)
    bad = json.loads(json.dumps(good))
    bad["columns"] = bad["columns"][:9]
    with pytest.raises(MalformedError, match="10 columns"):
        position_from_json(bad)
    game = get_game("simplest")
    for data, message in (({"draw": 1}, "draw"), ({"jump": True}, "unknown move"), ("draw", "draw"),
                          ({"move": {"card": "Zz", "from": "waste", "to": "cell-1"}}, "not a card"),
                          ({"move": {"card": "Qh", "from": "waste", "to": "waste"}}, "can go to")):
        with pytest.raises(MalformedError, match=message):
            game.move_from_json(data)


def test_text_notation_and_move_info() -> None:
    p = make(["8s", "7d", "Ah"], cells=["6c"], stock="9d")
    assert p.parse_move("7d>1") == Shift(D("7d"), column_id(1), column_id(0))
    assert p.parse_move("Ah>f") == Shift(D("Ah"), column_id(2), "foundation-h")
    assert p.parse_move("7d>b") == Shift(D("7d"), column_id(1), cell_id(1))
    assert p.parse_move("6c>column-2") == Shift(D("6c"), cell_id(0), column_id(1))
    assert p.parse_move("draw") == Draw() and p.parse_move("recycle") == Recycle()
    for text, message in (("7d", "not a move"), ("7d>z", "not a place"), ("Xx>1", "not a card")):
        with pytest.raises(MalformedError, match=message):
            p.parse_move(text)
    assert p.move_info(p.parse_move("7d>1")) == {"cards": ["7d"], "from": ["column-2"], "to": "column-1"}
    assert p.move_info(Draw()) == {"cards": [], "from": ["stock"], "to": "waste"}
    assert p.move_info(Recycle()) == {"cards": [], "from": ["waste", "stock"], "to": "stock"}
    assert "Seven of diamonds" in p.describe_move(p.parse_move("7d>1"))
    assert p.describe_move(p.parse_move("7d>1"), "ru") == "Семёрка бубен: столбец 2 → столбец 1"
    text = p.to_text()
    assert "8s" in text and "a: 6c" in text


# -- random deals and random play ------------------------------------------------------------------------

_ALL_TARGETS = [*(column_id(i) for i in range(COLUMNS)), *(cell_id(i) for i in range(CELLS)),
                *(foundation_id(s) for s in SUITS)]
_ALL_SOURCES = ["waste", *(column_id(i) for i in range(COLUMNS)), *(cell_id(i) for i in range(CELLS))]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(0, 10**6), empty=st.sampled_from(["king", "any"]), data=st.data())
def test_random_play(deal: int, empty: str, data: st.DataObject) -> None:
    p = get_game("simplest", empty=empty).deal(deal)
    for _ in range(data.draw(st.integers(0, 60), label="moves")):
        moves = p.legal_moves()
        assert len(moves) == len(set(moves))
        for move in moves:  # every listed move is accepted
            p.play(move)
            assert p.parse_move(p.move_text(move)) == move
            assert p.game.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        # a random other move is refused, with a reason
        other = Shift(data.draw(st.sampled_from(FRENCH_52.cards), label="card"),
                      data.draw(st.sampled_from(_ALL_SOURCES), label="from"),
                      data.draw(st.sampled_from(_ALL_TARGETS), label="to"))
        if other not in moves:
            with pytest.raises(IllegalMoveError, match=str(other.card)):
                p.play(other)
        for special in (Draw(), Recycle()):
            if special not in moves:
                with pytest.raises(IllegalMoveError):
                    p.play(special)
        if not moves:
            break
        p = p.play(data.draw(st.sampled_from(moves), label="move"))
        assert sorted(map(FRENCH_52.index, all_cards(p))) == list(range(52))
        assert len([c for col in p.columns for c in col]) + len(p.stock) + len(p.waste) \
            + sum(c is not None for c in p.cells) + sum(p.foundations) == 52
        assert p.is_lost() == (not p.is_won() and _naive_lost(p))
    assert position_from_json(json.loads(json.dumps(p.to_json()))) == p


def _naive_lost(p: SimplestPosition) -> bool:
    """Lost by its definition, found by turning the stock round: no card move now or after any turns."""
    seen = set()
    while (p.stock, p.waste) not in seen:
        seen.add((p.stock, p.waste))
        moves = p.legal_moves()
        if any(isinstance(m, Shift) for m in moves):
            return False
        if not moves:
            return True
        p = p.play(moves[-1])
    return True


# -- the solver --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("empty", ["king", "any"])
def test_solver_wins_are_replayed(empty: str) -> None:
    game = get_game("simplest", empty=empty)
    for deal in range(6):
        start = game.deal(deal)
        solution = solve(start, time_limit=20)  # solve() replays every win through the rules engine
        assert solution.status == "won"
        end = replay(start, solution.moves)
        assert end.is_won() and end.result()["cards_on_foundations"] == 52
        assert any(isinstance(m, Draw) for m in solution.moves)


def test_solver_fetches_passed_cards_with_a_recycle() -> None:
    # Only hearts left, all in the waste, the ace at its bottom: the solver's reserve card must be
    # brought up by turning the waste over first.
    waste = " ".join(f"{r}h" for r in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K"])
    p = make([], foundations={"c": 13, "s": 13, "d": 13}, waste=waste)
    assert p.waste[0] == D("Ah") and p.stock == ()
    assert p.key() == p.play(Recycle()).key()  # turning changes nothing a solver cares about
    solution = solve(p, time_limit=5)
    assert solution.status == "won"
    assert solution.moves[:3] == [Recycle(), Draw(), Shift(D("Ah"), "waste", "foundation-h")]
    assert sum(isinstance(m, Recycle) for m in solution.moves) == 1


def test_solver_budget_gives_unknown() -> None:
    position = get_game("simplest").deal(46)
    solution = solve(position, time_limit=None, node_limit=1)
    assert solution.status == "unknown" and solution.moves == []
    assert solution.stats["nodes"] >= 1


def test_safe_auto_moves_rule() -> None:
    # Aces and twos always go; a three only when both foundations of the other colour hold a two.
    assert solver._safe(FRENCH_52.index(D("2h")), (0, 1, 0, 0))
    assert not solver._safe(FRENCH_52.index(D("3h")), (1, 2, 2, 0))
    assert solver._safe(FRENCH_52.index(D("3h")), (2, 2, 2, 0))


def _brute_force(position: SimplestPosition, limit: int = 100_000) -> str:
    """Won or lost by trying every real move (turns of the stock included) from every position
    reached; positions count as one only when they differ by the order of the columns or of the
    free cells (the stock and waste are kept exactly as they are)."""
    def key(p: SimplestPosition) -> object:
        return (tuple(sorted(p.columns, key=str)), tuple(sorted(map(str, filter(None, p.cells)))),
                p.stock, p.waste)

    seen = {key(position)}
    stack = [position]
    while stack:  # depth first: wins are found fast, losses need every position anyway
        p = stack.pop()
        if p.is_won():
            return "won"
        for move in p.legal_moves():
            q = p.play(move)
            k = key(q)
            if k not in seen:
                seen.add(k)
                stack.append(q)
        assert len(seen) < limit, "endgame too big for the brute-force check"
    return "lost"


@st.composite
def endgames(draw: Any) -> SimplestPosition:
    """A small endgame: a few cards left, spread at random over columns, free cells, stock and waste."""
    empty = draw(st.sampled_from(["king", "any"]))
    # Few suits with many cards left make blocked endgames (a suit cannot build on itself).
    per_suit = draw(st.lists(st.integers(0, 12), min_size=4, max_size=4).filter(lambda n: 5 <= sum(n) <= 10))
    found = {s.value: 13 - n for s, n in zip(SUITS, per_suit, strict=True)}
    left = [str(Card(FRENCH_52.pattern, s, r)) for s in SUITS for r in range(found[s.value] + 1, 14)]
    cards = draw(st.permutations(left))
    # Free cells first, then up to three columns, the stock and the waste: full free cells make
    # lost endgames common enough to check the solver's proofs of loss too.
    in_cells = draw(st.integers(0, min(CELLS, len(cards) - 1)))
    cells: list[str | None] = list(cards[:in_cells])
    cols: list[list[str]] = [[] for _ in range(COLUMNS)]
    stock: list[str] = []
    waste: list[str] = []
    for card in cards[in_cells:]:
        place = draw(st.integers(0, 4))
        if place < 3:
            cols[place].append(card)
        elif place == 3:
            stock.append(card)
        else:
            waste.append(card)
    cells += [None] * (CELLS - len(cells))
    data = {"game": "simplest", "options": {"empty": empty}, "deal": None, "setup": {}, "columns": cols,
            "cells": cells, "foundations": found, "stock": stock, "waste": waste}
    return SimplestGame(empty).position_from_json(data)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(position=endgames())
def test_solver_agrees_with_brute_force(position: SimplestPosition) -> None:
    truth = _brute_force(position)
    solution = solve(position, time_limit=None)
    assert solution.status == truth
    if truth == "won":
        assert replay(position, solution.moves).is_won()
