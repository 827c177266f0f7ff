"""Mount Kolvir's planner (``solvers/amber_kolvir.py``): the charged gathering and the attempts.

Budgets are node limits (results do not depend on the machine's speed). Solutions go through
``amber_patience.solvers.solve`` with the planner put in ``amber.PLANNERS`` for the test, so every won
solution is replayed by the rules engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.games.amber import Swap
from amber_patience.solvers import amber, amber_kolvir, replay, solve
from amber_patience.solvers.amber_shorten import shorten
from test_amber_solver import _near_goal, _random_play

GAME = get_game("kolvir")


def _regions(board: amber._Board) -> tuple[list[int], list[int], tuple[tuple[int, ...], ...]]:
    """Kolvir's gathering regions as the search takes them: the group of every card and of every cell."""
    parts = amber.plan_for(GAME, board)[0].parts
    region_of = [0] * board.n
    for r, part in enumerate(parts):
        for c in part:
            region_of[c] = r
    return [region_of[board.target[x]] for x in range(board.n)], region_of, parts


@pytest.fixture
def with_planner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(amber.PLANNERS, "kolvir", ("amber_kolvir", "plan_kolvir"))


GATHER = replace(amber.Setting(3, 0.5, 3, 0.5, 0), exact=True, lazy=True)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 1000), st.integers(1, 300), st.floats(0, 8), st.floats(0, 8))
def test_a_charged_gathering_makes_only_legal_swaps(number: int, nodes: int, lone: float, other: float) -> None:
    position = GAME.deal(number)
    board = amber._Board(position)
    group, cell_group, _ = _regions(board)
    best: dict[str, Any] = {}
    charged = replace(GATHER, charge_lone=lone, charge_other=other)
    path, end, used = amber._search(board, board.start, charged, None, nodes, group=group, cell_group=cell_group,
                                    sort_groups_only=True, best=best)
    assert used <= nodes
    swaps = path if path is not None else best["path"]
    at = bytearray(board.start)
    for p, q in swaps:
        assert board.legal_swap(at, p, q), (p, q)
        position = position.play(Swap(min(p, q), max(p, q)))  # the rules engine agrees
        at[p], at[q] = at[q], at[p]
    assert bytes(at) == (end if path is not None else best["at"])
    wrong = sum(1 for c in range(board.n) if c != board.lone and group[at[c]] != cell_group[c])
    assert wrong == (0 if path is not None else best["near"])


def _merges(board: amber._Board, path: list[tuple[int, int]]) -> int:
    """How many swaps of ``path`` join two cycles of the permutation to the goal."""
    at = bytearray(board.start)
    merges = 0
    for p, q in path:
        cycle_of, _ = board.cycles(at)
        merges += cycle_of[p] != cycle_of[q]
        at[p], at[q] = at[q], at[p]
    return merges


def test_charged_merges_are_fewer() -> None:
    """``Setting.charge_other`` reaches the search's cost: Kolvir's gathering merges fewer cycles with it."""
    setting = replace(GATHER, nodes=20000)
    totals = []
    for charge in (0.0, 5.0):
        total = 0
        for number in (1, 4, 5, 6):
            board = amber._Board(GAME.deal(number))
            parts = amber.plan_for(GAME, board)[0].parts
            path, _, _ = amber._search(board, board.start, replace(setting, charge_other=charge), None, setting.nodes,
                                       **amber._gather_kw(board, parts, list(range(board.n))))
            assert path is not None
            total += _merges(board, path)
        totals.append(total)
    assert totals[1] < totals[0]


@pytest.mark.parametrize("number", [12, 15])
def test_a_charged_gathering_gathers_a_deal(number: int) -> None:
    board = amber._Board(GAME.deal(number))
    _, cell_group, parts = _regions(board)
    found = amber._phase(board, board.start, amber_kolvir.ATTEMPTS[0], amber._Budget(None, 20000),
                         **amber._gather_kw(board, parts, list(range(board.n))))
    assert found is not None
    path, end = found
    at = bytearray(board.start)
    for p, q in path:
        assert board.legal_swap(at, p, q)
        at[p], at[q] = at[q], at[p]
    assert bytes(at) == end
    assert all(cell_group[board.target[end[c]]] == cell_group[c] for c in range(board.n) if c != board.lone)


@pytest.mark.usefixtures("with_planner")
def test_wins_a_fixed_deal_replayed_by_the_rules_engine() -> None:
    position = GAME.deal(12)
    solution = solve(position, node_limit=20000)
    assert solution.status == "won", solution.stats
    assert replay(position, solution.moves).is_won()
    assert position.lower_bound() <= len(solution.moves) == solution.stats["length"]


@pytest.mark.usefixtures("with_planner")
@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 300), st.integers(0, 40), st.integers(0, 10**6))
def test_wins_games_in_progress(number: int, steps: int, seed: int) -> None:
    position = _random_play(GAME.deal(number), steps, seed)
    solution = solve(position, node_limit=60000)
    assert solution.status == "won", solution.stats
    assert replay(position, solution.moves).is_won()


def test_the_first_attempt_that_wins_is_returned_as_found() -> None:
    board = amber._Board(GAME.deal(15))
    first = amber_kolvir.ATTEMPTS[0]
    alone = amber._Budget(None, amber_kolvir.FIRST_NODES)
    path = amber_kolvir._attempt(board, GAME, first, alone)
    assert path is not None
    budget = amber._Budget(None, 10**6)
    found = amber_kolvir.plan_kolvir(board, GAME, budget)
    assert found == path  # not shortened, and no later attempt: amber.solve shortens it
    assert budget.used == alone.used
    assert len(shorten(board, path, None)) < len(path)  # there was something to shorten


def test_solve_shortens_kolvir_like_every_layout_and_a_quick_solve_only_the_first_swaps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber, "can_race", lambda: False)  # one process: the planner's own attempts in turn
    position = GAME.deal(15)
    board = amber._Board(position)
    path = amber_kolvir.plan_kolvir(board, GAME, amber._Budget(None, 10**6))
    assert path is not None
    whole = amber.solve(position, node_limit=10**6)
    assert whole.stats["found_length"] == len(path)
    assert [(m.a, m.b) for m in whole.moves] == shorten(board, path, None, "kolvir")
    quick = amber.solve(position, node_limit=10**6, shorten_first=32)
    assert quick.stats["shortened_first"] == 32 and quick.stats["found_first"] == [list(s) for s in path[:32]]
    assert [(m.a, m.b) for m in quick.moves[len(quick.moves) - (len(path) - 32):]] == path[32:]
    assert amber.finish(position, quick).moves == whole.moves


def test_an_exhausted_budget_gives_none() -> None:
    board = amber._Board(GAME.deal(2))
    budget = amber._Budget(None, 30)
    assert amber_kolvir.plan_kolvir(board, GAME, budget) is None
    assert budget.used <= 30


def test_the_last_attempt_has_the_rest_of_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber_kolvir, "FIRST_NODES", 10)  # the first attempt cannot win in 10 states
    board = amber._Board(GAME.deal(15))
    first = amber_kolvir.ATTEMPTS[0]
    assert amber_kolvir._attempt(board, GAME, first, amber._Budget(None, 10)) is None
    budget = amber._Budget(None, 20000)
    found = amber_kolvir.plan_kolvir(board, GAME, budget)
    assert found is not None and budget.used > 10
    at = bytearray(board.start)
    for p, q in found:
        assert board.legal_swap(at, p, q)
        at[p], at[q] = at[q], at[p]
    assert board.bound(at) == 0


@pytest.mark.usefixtures("with_planner")
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 1000), st.integers(0, 6), st.integers(0, 10**6))
def test_wins_the_end_of_a_game(number: int, scrambles: int, seed: int) -> None:
    """The goal scrambled by a few swaps whose undoing is legal (none: the won position, no swap needed)."""
    position = _near_goal("kolvir", number, scrambles, seed)
    solution = solve(position, node_limit=20000)
    assert solution.status == "won", solution.stats
    assert replay(position, solution.moves).is_won()
    assert len(solution.moves) >= position.lower_bound()
    if position.is_won():
        assert solution.moves == []
