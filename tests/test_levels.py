"""Easy and hard deals (``amber_patience.solvers.levels``): the calibrated bands and ``find_deal``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES
from amber_patience.solvers import Solution, levels, solve
from amber_patience.solvers.levels import Bands, DealNotFound, NoBandsError, find_deal, level_of

# -- the bands ----------------------------------------------------------------------------------------


def test_the_data_file_has_bands_for_every_amber_layout_and_only_those() -> None:
    data = json.loads(levels.BANDS_FILE.read_text(encoding="utf-8"))
    assert list(data["layouts"]) == list(GAMES)
    for name, entry in data["layouts"].items():
        assert entry["min"] <= entry["lower"] <= entry["median"] <= entry["upper"] <= entry["max"], name
        assert entry["lower"] < entry["upper"], name
        assert entry["won"] >= 50 and entry["deals"] == "1-100", name
        hard = entry["hard_deals"]  # the hard deals a random hard deal on the web is taken from
        assert hard == sorted(set(hard)) and hard, name
        assert all(1 <= number <= 100 and str(number) not in entry["not_won"] for number in hard), name
        assert levels.bands_for(name) == Bands(name, entry["lower"], entry["upper"], tuple(hard))
    assert levels.games_with_levels() == list(GAMES)
    for name in ("pyramid-52", "zodiac", "simplest"):
        assert levels.bands_for(name) is None


def test_the_hard_deals_first_are_the_listed_ones_in_a_random_order() -> None:
    import random

    bands = levels.bands_for("arden")
    assert bands is not None
    orders = {tuple(levels.hard_deals_first("arden", random.Random(seed))) for seed in range(5)}
    assert all(sorted(order) == list(bands.hard_deals) for order in orders) and len(orders) > 1
    assert levels.hard_deals_first("pyramid-52") == []


@pytest.mark.parametrize("name", GAMES)
def test_the_band_function_against_the_data_files_thresholds(name: str) -> None:
    bands = levels.bands_for(name)
    assert bands is not None
    assert level_of(0, bands) == level_of(bands.lower, bands) == "easy"
    assert level_of(bands.lower + 1, bands) in ("medium", "hard")
    assert level_of(bands.upper - 1, bands) in ("easy", "medium")
    assert level_of(bands.upper, bands) == level_of(10**9, bands) == "hard"
    assert levels.difficulty_info(name, bands.upper) == {"figure": bands.upper, "level": "hard"}
    assert levels.difficulty_info("pyramid-52", 5) == {"figure": 5, "level": None}


@given(st.integers(0, 10**6), st.integers(1, 10**6), st.integers(0, 2 * 10**6))
def test_every_figure_falls_in_exactly_one_band_in_order(lower: int, width: int, figure: int) -> None:
    bands = Bands("x", lower, lower + width)
    band = level_of(figure, bands)
    assert band in ("easy", "medium", "hard")
    assert (band == "easy") == (figure <= bands.lower)
    assert (band == "hard") == (figure >= bands.upper)
    if band == "easy":
        assert figure <= bands.lower < bands.upper
    if band == "hard":
        assert bands.lower < bands.upper <= figure


def test_bands_refuse_thresholds_out_of_order() -> None:
    with pytest.raises(ValueError, match="lower < upper"):
        Bands("x", 10, 10)


# -- find_deal with a stub solver -----------------------------------------------------------------------

STUB_BANDS = {"path-36": Bands("path-36", 100, 200)}


@pytest.fixture
def stub_bands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "all_bands", lambda: STUB_BANDS)


class StubSolver:
    """Answers each deal number with a chosen (status, figure); records what it was asked."""

    def __init__(self, answers: dict[int, tuple[str, int]]) -> None:
        self.answers = answers
        self.calls: list[tuple[int, float | None, int | None]] = []

    def __call__(self, position: Any, *, time_limit: float | None, node_limit: int | None = None) -> Solution:
        number = position.deal_number
        self.calls.append((number, time_limit, node_limit))
        status, figure = self.answers.get(number, ("unknown", 0))
        if status == "won" and node_limit is not None and figure > node_limit:
            status, figure = "unknown", node_limit  # as the solver does: it stops at the node limit
        return Solution(status, [], {"difficulty": figure})  # type: ignore[arg-type]


@pytest.mark.usefixtures("stub_bands")
@pytest.mark.parametrize(("level", "taken"), [("winnable", 3), ("easy", 4), ("hard", 5)])
def test_find_deal_takes_the_first_won_deal_of_the_level(level: str, taken: int) -> None:
    answers = {1: ("lost", 0), 2: ("unknown", 50), 3: ("won", 150), 4: ("won", 100), 5: ("won", 200), 6: ("won", 1)}
    stub = StubSolver(answers)
    heard: list[int] = []
    found = find_deal(get_game("path-36"), 1, level=level, solve=stub, on_try=lambda n, s: heard.append(n))
    assert found.number == taken and found.tried == taken
    assert found.position.to_json() == get_game("path-36").deal(taken).to_json()
    assert found.figure == answers[taken][1] and found.solution.status == "won"
    assert found.band == level_of(found.figure, STUB_BANDS["path-36"])
    assert [call[0] for call in stub.calls] == list(range(1, taken + 1))
    assert heard == list(range(1, taken))
    # an easy candidate is solved with a node limit of twice the lower tercile; the others without one
    assert {call[2] for call in stub.calls} == ({2 * 100} if level == "easy" else {None})


@pytest.mark.usefixtures("stub_bands")
def test_find_deal_tries_the_first_deals_given_then_from_the_start_each_once() -> None:
    stub = StubSolver({n: ("won", 150) for n in range(1, 30)} | {6: ("won", 300)})
    found = find_deal(get_game("path-36"), 3, level="hard", solve=stub, first=[9, 4, 9, 2])
    assert found.number == 6 and found.tried == 6
    assert [call[0] for call in stub.calls] == [9, 4, 2, 3, 5, 6]
    stub.calls.clear()
    found = find_deal(get_game("path-36"), 1, level="hard", solve=stub, first=[6, 9])
    assert found.number == 6 and [call[0] for call in stub.calls] == [6]
    stub.calls.clear()
    with pytest.raises(DealNotFound, match=r"\(3 deals tried among the 3 deals given first, then from deal 1\)"):
        # the tries and the last deal bound the deals given first too
        find_deal(get_game("path-36"), 1, level="hard", solve=stub, first=[20, 9, 4], last=10, tries=3)
    assert [call[0] for call in stub.calls] == [9, 4, 1]


@pytest.mark.usefixtures("stub_bands")
def test_find_deal_never_takes_a_deal_it_did_not_win() -> None:
    stub = StubSolver({n: ("unknown", 1) for n in range(1, 9)} | {9: ("won", 101), 10: ("lost", 0), 11: ("won", 10)})
    found = find_deal(get_game("path-36"), 1, level="easy", solve=stub)
    assert found.number == 11
    with pytest.raises(DealNotFound) as info:
        find_deal(get_game("path-36"), 1, level="easy", solve=stub, tries=10)
    assert info.value.tried == 10


@pytest.mark.usefixtures("stub_bands")
def test_an_easy_candidate_won_past_the_node_limit_is_solved_again_without_it() -> None:
    calls: list[tuple[int, int | None]] = []

    def raced(position: Any, *, time_limit: float | None, node_limit: int | None = None) -> Solution:
        # as a race where the losing plan used up the node limit (200) before the winner won in 50 or 150 states
        number = position.deal_number
        calls.append((number, node_limit))
        winner = {1: 150, 2: 50}[number]
        return Solution("won", [], {"difficulty": winner + (200 if node_limit is not None else 0)})

    found = find_deal(get_game("path-36"), 1, level="easy", solve=raced)
    assert (found.number, found.figure, found.band) == (2, 50, "easy")
    assert calls == [(1, 200), (1, None), (2, 200), (2, None)]


@pytest.mark.usefixtures("stub_bands")
def test_find_deal_stops_at_the_tries_and_the_last_deal() -> None:
    stub = StubSolver({n: ("won", 150) for n in range(1, 100)})  # all medium
    with pytest.raises(DealNotFound, match="no hard deal of path-36 found"):
        find_deal(get_game("path-36"), 7, level="hard", solve=stub, tries=4)
    assert [call[0] for call in stub.calls] == [7, 8, 9, 10]
    stub.calls.clear()
    with pytest.raises(DealNotFound):
        find_deal(get_game("path-36"), 7, level="easy", solve=stub, last=8)
    assert [call[0] for call in stub.calls] == [7, 8]


@pytest.mark.usefixtures("stub_bands")
def test_find_deal_stops_at_the_deadline_and_never_solves_past_it() -> None:
    now = [0.0]

    def clock() -> float:
        return now[0]

    class Slow(StubSolver):
        def __call__(self, position: Any, **limits: Any) -> Solution:
            now[0] += 1.5  # each solve takes 1.5 s
            return super().__call__(position, **limits)

    stub = Slow({n: ("won", 150) for n in range(1, 100)})
    with pytest.raises(DealNotFound) as info:
        find_deal(get_game("path-36"), 1, level="easy", solve=stub, deadline=4.0, clock=clock, time_limit=2.0)
    assert info.value.tried == 3  # at 0, 1.5 and 3.0 s; at 4.5 s the deadline has passed
    assert [call[1] for call in stub.calls] == [2.0, 2.0, 1.0]  # the last one only gets what is left
    stub.calls.clear()
    now[0] = 100.0
    with pytest.raises(DealNotFound) as info:  # a deadline already past: one deal is still tried
        find_deal(get_game("path-36"), 1, level="easy", solve=stub, deadline=4.0, clock=clock)
    assert info.value.tried == 1 and stub.calls[0][1] == 0.05


@pytest.mark.usefixtures("stub_bands")
def test_find_deal_solver_errors_go_to_on_error_or_are_raised() -> None:
    def broken(position: Any, **limits: Any) -> Solution:
        if position.deal_number == 1:
            raise RuntimeError("solver bug")
        return Solution("won", [], {"difficulty": 5})

    errors: list[tuple[int, str]] = []
    found = find_deal(get_game("path-36"), 1, solve=broken, on_error=lambda n, e: errors.append((n, str(e))))
    assert found.number == 2 and errors == [(1, "solver bug")]
    with pytest.raises(RuntimeError, match="solver bug"):
        find_deal(get_game("path-36"), 1, solve=broken)


def test_find_deal_refuses_levels_a_game_does_not_have() -> None:
    def never(position: Any, **limits: Any) -> Solution:
        raise AssertionError("no deal should be solved")

    with pytest.raises(NoBandsError, match="pyramid-52 has no difficulty bands") as info:
        find_deal(get_game("pyramid-52"), 1, level="easy", solve=never)
    assert "path-36" in str(info.value)  # it says which games have levels
    with pytest.raises(ValueError, match="unknown level 'medium'"):
        find_deal(get_game("path-36"), 1, level="medium", solve=never)


# -- find_deal for real (path-36 solves in about 0.1 s) ---------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_find_deal_for_real_on_path_36(level: str) -> None:
    game = get_game("path-36")
    bands = levels.bands_for(game)
    assert bands is not None
    found = find_deal(game, 1, level=level, tries=30, time_limit=20)
    assert found.band == level
    again = solve(game.deal(found.number), time_limit=20)
    assert again.status == "won"
    assert level_of(int(again.stats["difficulty"]), bands) == level
    for number in range(1, found.number):  # every deal before it is won with a figure of another band
        earlier = solve(game.deal(number), time_limit=20)
        assert earlier.status != "won" or level_of(int(earlier.stats["difficulty"]), bands) != level


def test_the_listed_hard_deals_of_path_36_are_exactly_its_hard_deals_within_the_factor() -> None:
    # Path 36 runs one plan (no race), so a deal's figure is the same every time it is solved
    game = get_game("path-36")
    bands = levels.bands_for(game)
    assert bands is not None
    figures = {number: solve(game.deal(number), time_limit=20).stats["difficulty"] for number in range(1, 101)}
    assert list(bands.hard_deals) == [n for n, f in figures.items()
                                      if bands.upper <= f <= levels.HARD_LIST_FACTOR * bands.upper]
