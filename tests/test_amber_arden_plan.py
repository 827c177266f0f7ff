"""Forest of Arden's planner (``solvers/amber_arden.py``): the probed whole-board search and the chain.

Budgets are node limits (results do not depend on the machine's speed). Solutions go through
``amber_patience.solvers.solve`` with the planner put in ``amber.PLANNERS`` for the test, so every won
solution is replayed by the rules engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.games.amber import Swap
from amber_patience.solvers import amber, amber_arden, replay, solve

GAME = get_game("arden")


@pytest.fixture
def with_planner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(amber.PLANNERS, "arden", ("amber_arden", "plan_arden"))


def _whole_search(board: amber._Board, nodes: int) -> tuple[list[tuple[int, int]] | None, int, int]:
    """The whole-board search alone, capped at ``nodes``: (path, states, nearest bound)."""
    best: dict[str, Any] = {}
    setting = amber.settings_for(GAME, "whole")[0]
    path, _, used = amber._search(board, board.start, setting, None, nodes, cells=list(range(board.n)), best=best)
    return path, used, best.get("near", 0)


@pytest.mark.parametrize("number", [11, 53])
def test_the_planner_wins_arden_deals(with_planner: None, number: int) -> None:
    """Deal 53 in the probe, deal 11 by the chain after it; replayed by the rules engine (``solve`` does it)."""
    position = GAME.deal(number)
    solution = solve(position, node_limit=6000)
    assert solution.status == "won"
    assert 0 < solution.stats["nodes"] <= 6000
    assert replay(position, list(solution.moves)).is_won()
    assert len(solution.moves) >= position.lower_bound()


def test_a_far_probe_gives_up_after_its_states() -> None:
    """Deal 2's probe ends far from the goal: the whole-board search stops there (``PROBE`` states spent)."""
    board = amber._Board(GAME.deal(2))
    path, used, near = _whole_search(board, amber_arden.PROBE)
    assert path is None and used == amber_arden.PROBE and near > amber_arden.PROBE_NEAR
    budget = amber._Budget(None, 60000)
    assert amber_arden._whole(board, GAME, budget) is None
    assert budget.used == amber_arden.PROBE


def test_a_near_probe_runs_the_search_again_to_its_cap() -> None:
    """Deal 7's probe ends near the goal: the search runs again from the deal and wins (the probe's
    states counted twice)."""
    board = amber._Board(GAME.deal(7))
    path, _, near = _whole_search(board, amber_arden.PROBE)
    assert path is None and near <= amber_arden.PROBE_NEAR
    won, won_used, _ = _whole_search(board, amber_arden.QUICK_CAP)
    assert won is not None
    budget = amber._Budget(None, 60000)
    assert amber_arden._whole(board, GAME, budget) == won
    assert budget.used == amber_arden.PROBE + won_used


def test_without_a_probe_the_search_runs_to_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``PROBE = 0``: the whole-board search of ``amber``'s plan, capped at ``QUICK_CAP``; ``QUICK_CAP = 0``: none."""
    board = amber._Board(GAME.deal(2))
    monkeypatch.setattr(amber_arden, "PROBE", 0)
    monkeypatch.setattr(amber_arden, "QUICK_CAP", 900)
    budget = amber._Budget(None, 60000)
    assert amber_arden._whole(board, GAME, budget) is None and budget.used == 900
    monkeypatch.setattr(amber_arden, "QUICK_CAP", 0)
    budget = amber._Budget(None, 60000)
    assert amber_arden._whole(board, GAME, budget) is None and budget.used == 0


def test_the_first_gathering_settings_carry_the_charge(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = amber_arden._first_settings(GAME)
    assert chosen and all(s.exact and s.lazy for s in chosen)
    monkeypatch.setattr(amber_arden, "FIRST_CHARGE", 1.5)
    assert [s.charge_other for s in amber_arden._first_settings(GAME)] == [1.5] * len(chosen)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 10**6), st.integers(50, 400))
def test_the_chain_is_amber_s_chain_plan(number: int, nodes: int) -> None:
    """With ``amber``'s settings the planner's chain is the chain plan of ``amber._run_plan``: the same swaps
    (or none) and the same states, whatever the budget."""
    board = amber._Board(GAME.deal(number))
    mine, theirs = amber._Budget(None, nodes), amber._Budget(None, nodes)
    path = amber_arden._chain(board, GAME, mine)
    assert path == amber._run_plan(board, GAME, amber._plan_arden(GAME, board, "chain"), theirs)
    assert mine.used == theirs.used and 0 < mine.used <= nodes
    if path is not None:
        assert replay(GAME.deal(number), [Swap(a, b) for a, b in path]).is_won()


def test_the_first_gathering_takes_the_module_s_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """``FIRST`` replaces ``amber``'s settings of the chain's first gathering (weighed exactly and lazily, as
    Arden's searches are), and the chain's first gathering runs them from the deal."""
    mine = [amber.Setting(3, 0.5, 1, 0.5, 120, 7)]
    monkeypatch.setattr(amber_arden, "FIRST", mine)
    monkeypatch.setattr(amber_arden, "FIRST_CHARGE", 0.5)
    assert amber_arden._first_settings(GAME) == [amber.replace(mine[0], exact=True, lazy=True, charge_other=0.5)]
    board = amber._Board(GAME.deal(2))
    seen: list[tuple[bytes, list[amber.Setting], dict[str, Any]]] = []

    def record(board_: amber._Board, start: bytes, chosen: list[amber.Setting], budget: amber._Budget,
               **kw: Any) -> Iterator[tuple[list[tuple[int, int]], bytes]]:
        seen.append((start, chosen, kw))
        budget.used += 5
        yield from ()

    monkeypatch.setattr(amber_arden, "_phase_solutions", record)
    budget = amber._Budget(None, 200)
    assert amber_arden._chain(board, GAME, budget) is None and budget.used == 5
    [(start, chosen, kw)] = seen
    assert start == board.start and chosen == amber_arden._first_settings(GAME)
    first = amber._plan_arden(GAME, board, "chain")[0]
    assert kw == amber._gather_kw(board, first.parts, list(range(board.n)))
