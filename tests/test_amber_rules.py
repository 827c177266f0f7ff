"""The Amber layouts against the worked examples of the seed text, and property tests over random play."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amber_patience.games import GameError, IllegalMoveError, MalformedError, get_game, position_from_json
from amber_patience.games import amber as amber_module
from amber_patience.games.amber import Swap

TAROT_RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R"]
SUIT_CYCLE = ["c", "h", "s", "d"]
LAYOUTS = ["path", "path-52", "path-36", "arden", "kolvir", "pattern"]


def suit_run(suit: str, rank: str, ranks: list[str] = TAROT_RANKS) -> list[str]:
    """One suit from ``rank`` round to the rank before it, written out independently of the code."""
    i = ranks.index(rank)
    return [r + suit for r in ranks[i:] + ranks[:i]]


def trump_run(start: int, with_fool: bool = True) -> list[str]:
    cycle = [f"T{n}" for n in range(1, 22)] + (["T0"] if with_fool else [])
    i = cycle.index(f"T{start}")
    return cycle[i:] + cycle[:i]


def snake(rows: int, columns: int, first_id: int = 0) -> list[int]:
    return [first_id + r * columns + (c if r % 2 == 0 else columns - 1 - c)
            for r in range(rows) for c in range(columns)]


def goal_by_cell(position) -> dict[int, str]:
    return {i: str(card) for i, card in enumerate(position.goal)}


def arranged(name: str, placed: dict[int, str], starts: list[int] | None = None):
    """A position of ``name`` with the given cards in the given cells, the rest in deck order."""
    game = get_game(name)
    used = set(placed.values())
    rest = iter(str(c) for c in game.deck.cards if str(c) not in used)
    cards = [placed.get(i) or next(rest) for i in range(len(game.cells))]
    data = {"game": name, "cells": [{"id": i, "card": c} for i, c in enumerate(cards)]}
    if starts is not None:
        data["start_cells"] = starts
    return game.position_from_json(data)


# -- geometry and the deal ------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "blocks", "count"), [
    ("path", {"main": (4, 14)}, 56), ("path-52", {"main": (4, 13)}, 52), ("path-36", {"main": (4, 9)}, 36),
    ("arden", {"main": (6, 13)}, 78), ("kolvir", {"top": (3, 7), "lone": (1, 1), "bottom": (4, 14)}, 78),
    ("pattern", {"top-left": (2, 7), "top-right": (2, 7), "centre": (3, 7), "bottom-left": (2, 7),
                 "bottom-right": (2, 7)}, 77),
])
def test_geometry(name, blocks, count):
    position = get_game(name).deal(5)
    data = position.to_json()
    assert {b["name"]: (b["rows"], b["columns"]) for b in data["blocks"]} == blocks
    assert len(data["cells"]) == count
    assert [c["id"] for c in data["cells"]] == list(range(count))
    expected = [(block, r, c) for block, (rows, cols) in blocks.items() for r in range(rows) for c in range(cols)]
    assert [(c["block"], c["row"], c["column"]) for c in data["cells"]] == expected


@pytest.mark.parametrize("name", ["path", "path-52", "path-36", "arden"])
def test_path_and_arden_deal_in_order(name):
    game = get_game(name)
    position = game.deal(11)
    assert list(position.cards) == amber_module.deck_order(game.deck, 11)
    assert position.start_cells[0] == 0


def test_arden_second_start_is_the_first_card_of_the_other_kind():
    for number in range(30):
        position = get_game("arden").deal(number)
        _, second = position.start_cells
        kind = position.cards[0].is_trump
        assert position.cards[second].is_trump != kind
        assert all(c.is_trump == kind for c in position.cards[:second])


def test_arden_second_start_that_would_not_fit_goes_to_the_last_cell_that_fits(monkeypatch):
    game = get_game("arden")
    trumps = [c for c in game.deck.cards if c.is_trump]
    minors = [c for c in game.deck.cards if c.is_minor]
    order = trumps[:14] + minors + trumps[14:]  # the first minor card would fall in row 2, column 1
    monkeypatch.setattr(amber_module, "deck_order", lambda deck, number: order)
    position = game.deal(0)
    second = position.start_cells[1]
    assert snake(6, 13).index(second) == 78 - 56 == 22
    assert position.cards[second] == minors[0]
    assert sorted(map(game.deck.index, position.cards)) == list(range(78))
    assert position.cards[14] == minors[1]  # dealing goes on into the cells left empty, in order


@pytest.mark.parametrize("name", ["kolvir", "pattern"])
def test_kolvir_and_pattern_send_the_first_trump_and_minor_to_their_start_cells(name):
    game = get_game(name)
    for number in range(10):
        order = amber_module.deck_order(game.deck, number)
        first_trump = next(c for c in order if c.is_trump)
        first_minor = next(c for c in order if c.is_minor)
        position = game.deal(number)
        trump_cell, minor_cell = (0, 22) if name == "kolvir" else (28, 0)
        assert position.cards[trump_cell] == first_trump and position.cards[minor_cell] == first_minor
        assert sorted(position.start_cells) == sorted((trump_cell, minor_cell))
        rest = [c for i, c in enumerate(position.cards) if i not in (trump_cell, minor_cell)]
        assert rest == [c for c in order if c not in (first_trump, first_minor)]


# -- the goals of the worked examples ---------------------------------------------------------------

def test_path_goal_from_roi_of_spades():
    position = get_game("path").deal(3, {"Start": "Rs"})
    assert str(position.cards[0]) == "Rs" and position.start_cells == (0,)
    goal = goal_by_cell(position)
    rows = [[goal[r * 14 + c] for c in range(14)] for r in range(4)]
    assert rows[0] == suit_run("s", "R")  # spades R, 1, ..., D left to right
    assert rows[1][::-1] == suit_run("d", "R")  # diamonds right to left
    assert rows[2] == suit_run("c", "R")  # clubs left to right
    assert rows[3][::-1] == suit_run("h", "R")  # hearts right to left


def test_path_with_ordinary_decks():
    position = get_game("path-36").deal(0, {"Start": "9h"})
    russian = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    goal = [goal_by_cell(position)[i] for i in snake(4, 9)]
    assert goal == suit_run("h", "9", russian) + suit_run("s", "9", russian) + suit_run("d", "9", russian) + \
        suit_run("c", "9", russian)
    french = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    position = get_game("path-52").deal(0, {"Start": "Kd"})
    goal = [goal_by_cell(position)[i] for i in snake(4, 13)]
    assert goal[:2] == ["Kd", "Ad"] and goal[13:15] == ["Kc", "Ac"]
    assert goal == [card for s in ["d", "c", "h", "s"] for card in suit_run(s, "K", french)]


def test_arden_example_1_six_of_spades_and_trump_9():
    position = get_game("arden").deal(4, {"Start": "6s T9", "SecondStart": "7"})
    assert position.start_cells == (0, 7)
    goal = [goal_by_cell(position)[i] for i in snake(6, 13)]
    spades = suit_run("s", "6")
    minors = spades + suit_run("d", "6") + suit_run("c", "6") + suit_run("h", "6")
    assert goal[:7] == ["6s", "7s", "8s", "9s", "10s", "Vs", "Cs"]
    assert goal[7:29] == trump_run(9)  # 9 ... 21, Fool, 1 ... 8
    assert goal[7:29][-9:] == ["T0", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"]
    assert goal[29] == "Ds" and goal[-1] == "5h"
    assert goal == minors[:7] + trump_run(9) + minors[7:]


def test_arden_example_2_trump_20_then_nine_of_clubs_next_to_it():
    position = get_game("arden").deal(9, {"Start": "T20 9c", "SecondStart": "1"})
    goal = [goal_by_cell(position)[i] for i in snake(6, 13)]
    minors = suit_run("c", "9") + suit_run("h", "9") + suit_run("s", "9") + suit_run("d", "9")
    assert goal[0] == "T20"
    assert goal[1:57] == minors and goal[56] == "8d"
    assert goal[57:] == ["T21", "T0"] + [f"T{n}" for n in range(1, 20)]


def test_arden_second_start_may_stand_no_later_than_the_fifth_cell_of_row_five():
    game = get_game("arden")
    latest = 4 * 13 + 4  # row 5, 5th cell: snake place 56
    assert game.deal(2, {"Start": "3h T1", "SecondStart": str(latest)}).start_cells == (0, latest)
    with pytest.raises(GameError, match="too late"):
        game.deal(2, {"Start": "3h T1", "SecondStart": str(latest + 1)})
    with pytest.raises(GameError, match="different kinds"):
        game.deal(2, {"Start": "3h 4h"})


def test_kolvir_example_trump_11_and_nine_of_spades():
    position = get_game("kolvir").deal(6, {"Start": "T11 9s"})
    goal = goal_by_cell(position)
    top = [[goal[r * 7 + c] for c in range(7)] for r in range(3)]
    assert top[0] == ["T11", "T12", "T13", "T14", "T15", "T16", "T17"]
    assert top[1][::-1] == ["T18", "T19", "T20", "T21", "T0", "T1", "T2"]  # right to left 18 ... 2
    assert top[2] == ["T3", "T4", "T5", "T6", "T7", "T8", "T9"]
    assert goal[21] == "T10"  # the lone cell holds the last trump
    bottom = [[goal[22 + r * 14 + c] for c in range(14)] for r in range(4)]
    assert bottom[0] == suit_run("s", "9") and bottom[0][-1] == "8s"
    assert bottom[1][::-1] == suit_run("d", "9")
    assert bottom[2] == suit_run("c", "9")
    assert bottom[3][::-1] == suit_run("h", "9")


def test_pattern_example_ten_of_clubs_and_trump_13():
    position = get_game("pattern").deal(8, {"Start": "10c T13"})
    goal = goal_by_cell(position)
    blocks = {"top-left": 0, "top-right": 14, "centre": 28, "bottom-left": 49, "bottom-right": 63}

    def rows(block: str, n_rows: int) -> list[list[str]]:
        return [[goal[blocks[block] + r * 7 + c] for c in range(7)] for r in range(n_rows)]

    tl = rows("top-left", 2)
    assert tl[0] == ["10c", "Vc", "Cc", "Dc", "Rc", "1c", "2c"]
    assert tl[1][::-1] == ["3c", "4c", "5c", "6c", "7c", "8c", "9c"]
    for block, suit in (("top-right", "h"), ("bottom-right", "s"), ("bottom-left", "d")):  # clockwise
        r = rows(block, 2)
        assert r[0] + r[1][::-1] == suit_run(suit, "10")
    centre = rows("centre", 3)
    assert centre[0] == ["T13", "T14", "T15", "T16", "T17", "T18", "T19"]
    assert centre[1][::-1] == ["T20", "T21", "T1", "T2", "T3", "T4", "T5"]  # no Fool in Pattern
    assert centre[2] == ["T6", "T7", "T8", "T9", "T10", "T11", "T12"]


@pytest.mark.parametrize("name", LAYOUTS)
def test_goal_position_is_won_and_has_no_lower_bound(name):
    position = get_game(name).deal(1)
    won = position.game.position_from_json(
        {"game": name, "start_cells": list(position.start_cells),
         "cells": [{"card": str(c)} for c in position.goal]})
    assert won.is_won() and won.lower_bound() == 0 and not won.is_lost()
    assert not position.is_won() and position.lower_bound() > 0


# -- the move rule: the seed text's examples ----------------------------------------------------------

def rc(r: int, c: int) -> int:
    return r * 13 + c


FILLER = {  # cards around the example cells that are neighbours of none of the example cards
    rc(0, 1): "3h", rc(0, 3): "3d", rc(1, 1): "5h", rc(1, 4): "7h", rc(2, 2): "9h", rc(2, 3): "1d",
    rc(3, 9): "2s", rc(4, 8): "4s", rc(5, 9): "6s", rc(3, 10): "8s", rc(4, 11): "10s", rc(5, 10): "Cs",
    rc(4, 12): "Rs", rc(5, 11): "2d", rc(5, 12): "4d", rc(0, 0): "6d", rc(2, 8): "T20",
}
ARDEN_STARTS = [0, rc(2, 8)]  # 6d and T20: away from the example


def test_seed_example_sequence_of_swaps():
    position = arranged("arden", FILLER | {rc(1, 2): "Vc", rc(1, 3): "Cc", rc(0, 2): "T17", rc(4, 9): "T16",
                                           rc(4, 10): "Dc", rc(3, 5): "T4", rc(3, 6): "T5"}, ARDEN_STARTS)
    legal = set(position.legal_moves())
    assert Swap(rc(1, 2), rc(1, 3)) in legal  # touching neighbours Vc and Cc may always swap
    assert Swap(rc(3, 5), rc(3, 6)) in legal  # so may trumps 4 and 5
    position = position.play(Swap(rc(1, 2), rc(1, 3)))  # V and C of clubs trade places
    assert (str(position.cards[rc(1, 2)]), str(position.cards[rc(1, 3)])) == ("Cc", "Vc")
    legal = set(position.legal_moves())
    assert Swap(rc(1, 2), rc(4, 9)) in legal  # Cc lands beside Dc, T16 beside T17
    assert Swap(rc(0, 2), rc(4, 10)) in legal  # Dc lands beside Cc, T17 beside T16
    position = position.play(Swap(rc(0, 2), rc(4, 10)))
    assert str(position.cards[rc(0, 2)]) == "Dc" and str(position.cards[rc(4, 10)]) == "T17"
    # V and D of clubs swap across the C between them: each still touches the Cavalier
    assert Swap(rc(0, 2), rc(1, 3)) in set(position.legal_moves())
    position = position.play(Swap(rc(0, 2), rc(1, 3)))
    assert str(position.cards[rc(0, 2)]) == "Vc" and str(position.cards[rc(1, 3)]) == "Dc"


def test_a_swap_that_leaves_a_card_without_a_neighbour_is_refused_with_the_reason():
    position = arranged("arden", FILLER | {rc(1, 2): "Vc", rc(1, 3): "Cc", rc(5, 12): "T8"}, ARDEN_STARTS)
    move = Swap(rc(1, 3), rc(5, 12))  # T8 into the clubs, Cc into the corner: neither finds a neighbour
    assert move not in position.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"Cc would have no neighbour \(Vc or Dc\) beside cell 77"):
        position.play(move)
    before = position.to_json()
    with pytest.raises(IllegalMoveError, match="start card"):
        position.play(Swap(0, 5))
    with pytest.raises(IllegalMoveError, match="there is no cell 78"):
        position.play(Swap(3, 78))
    with pytest.raises(IllegalMoveError, match="two different cells"):
        position.play(Swap(4, 4))
    assert position.to_json() == before  # nothing changed


def test_malformed_moves_are_refused():
    game = get_game("path")
    position = game.deal(1)
    for bad in ({"swap": [1]}, {"swap": "1 2"}, {"swap": [1, "2"]}, {"move": [1, 2]}, [1, 2], {"swap": [True, 2]}):
        with pytest.raises(MalformedError):
            game.move_from_json(bad)
    for text in ("Vc", "Vc-T16-Cc", "Xx-1c", "12-99"):
        with pytest.raises(MalformedError):
            position.parse_move(text)
    assert game.move_from_json({"swap": [9, 3]}) == Swap(3, 9)


def test_move_text_uses_cards_and_parses_back():
    position = get_game("kolvir").deal(2)
    for move in position.legal_moves():
        text = position.move_text(move)
        assert position.parse_move(text) == move
        assert position.parse_move(f"{move.a}-{move.b}") == move


# -- Kolvir's lone cell and swaps between blocks ----------------------------------------------------------

LONE = 21


def test_kolvir_lone_cell_takes_any_card_but_the_card_leaving_it_needs_a_neighbour():
    # bottom block: 4s at (0,5) beside 5s at (0,6); the lone cell holds 3s
    placed = {0: "T1", 22: "1c", LONE: "3s", 22 + 5: "Vh", 22 + 6: "5s", 22 + 4: "2h", 22 + 19: "4h",
              22 + 7: "6h", 22 + 20: "8h", 5: "Dh", 4: "2d", 6: "4d", 12: "6d"}
    position = arranged("kolvir", placed)
    # 3s goes to (0,5) beside... no: (0,5) touches 5s? 3s needs 2s or 4s: refused.
    with pytest.raises(IllegalMoveError, match="3s would have no neighbour"):
        position.play(Swap(LONE, 22 + 5))
    # now put 4s beside cell (0,5) in the bottom block: 3s may come out of the lone cell
    position = arranged("kolvir", placed | {22 + 6: "4s", 22 + 20: "5s"})
    assert Swap(22 + 5, LONE) in position.legal_moves()  # Vh goes into the lone cell without a neighbour
    after = position.play(Swap(22 + 5, LONE))
    assert str(after.cards[LONE]) == "Vh" and str(after.cards[22 + 5]) == "3s"
    # a top-block card may go into the lone cell the same way
    position = arranged("kolvir", placed | {LONE: "T3", 6: "T2"})
    assert Swap(5, LONE) in position.legal_moves()  # T3 to (0,5) beside T2 at (0,6); Dh into the lone cell


def test_kolvir_refuses_a_swap_straight_between_the_blocks():
    # T5 (top) and 9c (bottom) each would land beside a neighbour, but blocks trade only through the lone cell
    placed = {0: "T1", 22: "1c", 3: "T4", 4: "8c", 22 + 3: "9c", 22 + 4: "T5"}
    position = arranged("kolvir", placed)
    move = Swap(4, 22 + 4)
    assert move not in position.legal_moves()
    with pytest.raises(IllegalMoveError, match="lone cell"):
        position.play(move)


def test_pattern_allows_swaps_between_blocks_but_neighbours_count_only_within_a_block():
    # top-left is cells 0..13, top-right 14..27 (2 rows of 7 each)
    placed = {0: "1c", 28: "T1", 3: "9h", 4: "4d", 17: "5d", 18: "10h", 6: "5h", 14: "6h"}
    position = arranged("pattern", placed)
    game = position.game
    move = Swap(3, 17)  # 9h to top-right beside 10h; 5d to top-left beside 4d
    assert move in position.legal_moves()
    after = position.play(move)
    assert (str(after.cards[3]), str(after.cards[17])) == ("5d", "9h")
    # 5h (top-left, last column) and 6h (top-right, first column) stand side by side on the table,
    # but they are in different blocks, so they do not touch
    assert 14 not in game.adjacent[6]
    assert Swap(6, 14) not in position.legal_moves()


# -- JSON ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", LAYOUTS)
def test_position_json_round_trip_and_contents(name):
    position = get_game(name).deal(21)
    data = json.loads(json.dumps(position.to_json()))
    assert data["game"] == name and data["deal"] == 21 and data["options"] == {}
    assert data["start_cells"] == list(position.start_cells)
    assert all(set(c) >= {"id", "block", "row", "column", "card", "goal", "start"} for c in data["cells"])
    again = position_from_json(data)
    assert again == position and again.deal_number == 21
    assert [str(c) for c in again.goal] == [c["goal"] for c in data["cells"]]


def test_position_json_errors_say_what_is_wrong():
    data = get_game("kolvir").deal(1).to_json()
    broken = json.loads(json.dumps(data))
    broken["cells"][5]["card"] = broken["cells"][6]["card"]
    with pytest.raises(MalformedError, match="appears twice"):
        position_from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["cells"][3]["card"] = "Zz"
    with pytest.raises(MalformedError, match="cell 3"):
        position_from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["cells"] = broken["cells"][:-1]
    with pytest.raises(MalformedError, match="all 78 cells"):
        position_from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["start_cells"] = [0, 23]
    with pytest.raises(MalformedError, match="start cells"):
        position_from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["cells"][2]["block"] = "bottom"
    with pytest.raises(MalformedError, match="block"):
        position_from_json(broken)
    with pytest.raises(GameError, match="unknown game"):
        position_from_json(data | {"game": "klondike"})


# -- property tests: random deals, random legal play -------------------------------------------------------

def brute_force_legal(position) -> set[Swap]:
    n = len(position.cards)
    game = position.game
    return {Swap(a, b) for a in range(n) for b in range(a + 1, n)
            if game.swap_problem(position.cards, position.start_cells, a, b) is None}


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(LAYOUTS), number=st.integers(min_value=0, max_value=10**9), data=st.data())
def test_random_play_keeps_every_invariant(name, number, data):
    game = get_game(name)
    position = game.deal(number)
    starts = {cell: position.cards[cell] for cell in position.start_cells}
    goal = position.goal
    for _ in range(data.draw(st.integers(min_value=1, max_value=8))):
        legal = position.legal_moves()
        assert set(legal) == brute_force_legal(position)  # every legal swap and no other
        assert len(set(legal)) == len(legal)
        if not legal:
            assert position.is_lost()
            break
        # a random pair that is not listed is refused, and nothing changes
        a = data.draw(st.integers(min_value=0, max_value=len(position.cards) - 1))
        b = data.draw(st.integers(min_value=0, max_value=len(position.cards) - 1))
        if Swap(a, b) not in legal:
            snapshot = position.to_json()
            with pytest.raises(IllegalMoveError):
                position.play(Swap(a, b))
            assert position.to_json() == snapshot
        move = data.draw(st.sampled_from(legal))
        position = position.play(move)  # every listed move is accepted
        assert sorted(map(game.deck.index, position.cards)) == list(range(len(game.deck)))  # the whole deck
        assert all(position.cards[cell] == card for cell, card in starts.items())  # start cards never move
        assert position.goal == goal
        assert position_from_json(position.to_json()) == position



# -- a block never gains a kind: the loss that Pattern of Amber can deal ---------------------------

def kinds_by_block(position) -> dict[str, set[str]]:
    game = position.game
    held: dict[str, set[str]] = {}
    for cell, card in zip(game.cells, position.cards, strict=True):
        if cell.id != game.lone_cell:
            held.setdefault(cell.block, set()).add(amber_module.kind_name(card))
    return held


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(["pattern", "kolvir"]), number=st.integers(min_value=0, max_value=10**9),
       data=st.data())
def test_no_legal_swap_brings_a_block_a_kind_it_does_not_hold(name, number, data):
    game = get_game(name)
    position = game.deal(number)
    for _ in range(data.draw(st.integers(min_value=1, max_value=30))):
        before = kinds_by_block(position)
        legal = position.legal_moves()
        if not legal:
            break
        for move in legal:  # every legal swap, not only the one played
            after = kinds_by_block(position.play(move))
            assert all(after[block] <= before[block] for block in before), move
        crossing = [m for m in legal if game.cells[m.a].block != game.cells[m.b].block]
        position = position.play(data.draw(st.sampled_from(crossing or legal)))


def test_a_pattern_deal_whose_side_block_holds_none_of_its_suit_is_lost_from_the_start():
    game = get_game("pattern")
    stranded = {n: game.deal(n).stranded_kinds() for n in range(1, 40)}
    lost = {n: s for n, s in stranded.items() if s}
    assert lost and len(lost) < len(stranded)  # some deals, not all
    number, [(block, kind)] = next((n, s) for n, s in lost.items() if len(s) == 1)
    position = game.deal(number)
    cells = [c.id for c in game.cells if c.block == block]
    assert kind in {amber_module.kind_name(position.goal[c]) for c in cells}
    assert kind not in {amber_module.kind_name(position.cards[c]) for c in cells}
    assert position.is_lost() and not position.is_won()
    assert position.legal_moves()  # moves are left, yet the game is lost
    assert f"the {block} block holds no {kind}" in position.lost_reason()
    assert position.result()["stranded"] == [{"block": block, "kind": kind}]
    for n, s in stranded.items():
        if not s:
            assert game.deal(n).lost_reason() is None


def test_a_kolvir_bottom_block_without_a_suit_is_lost():
    game = get_game("kolvir")
    position = game.deal(1)
    assert not position.stranded_kinds()
    start_suit = position.cards[position.start_cells[1]].suit
    suit = start_suit.next()
    cards = list(position.cards)
    top = [c.id for c in game.cells if c.block == "top" and c.id not in position.start_cells]
    for card in [c for c in cards if c.suit == suit]:
        if game.cells[cards.index(card)].block == "bottom":
            here, there = cards.index(card), next(t for t in top if cards[t].suit != suit)
            cards[here], cards[there] = cards[there], cards[here]
    data = position.to_json()
    data["cells"] = [{k: v for k, v in cell.items() if k not in ("goal", "in_place")} | {"card": str(card)}
                     for cell, card in zip(data["cells"], cards, strict=True)]
    arranged_position = position_from_json(data)
    assert arranged_position.stranded_kinds() == [("bottom", suit.name.lower())]
    assert arranged_position.is_lost()
    assert "the bottom block holds no" in arranged_position.lost_reason()
