"""Forest of Arden's search: the plan's pieces.

Budgets are node limits (results do not depend on the machine's speed); every won solution is
replayed by the rules engine through ``amber_patience.solvers.solve``.
"""

from __future__ import annotations

import random

import pytest

from amber_patience.games import get_game
from amber_patience.solvers import amber as amber_solver
from amber_patience.solvers import replay, solve


def test_the_search_wins_the_end_of_an_arden_game() -> None:
    """The weighted search, from the goal a few random (not necessarily legal) transpositions away."""
    game = get_game("arden")
    start = game.deal(8)
    board = amber_solver._Board(start)
    at = bytearray(board.goal)
    rng = random.Random(8)
    free = [c for c in range(board.n) if not board.fixed[c]]
    for _ in range(12):
        a, b = rng.sample(free, 2)
        at[a], at[b] = at[b], at[a]
    setting = amber_solver.Setting(3, 1, 0, 0.5, 20000, exact=True)
    path, end, used = amber_solver._search(board, bytes(at), setting, None, 20000)
    assert path is not None and list(end) == board.goal and 0 < used <= 20000
    for a, b in path:
        assert board.legal_swap(at, a, b)
        at[a], at[b] = at[b], at[a]
    assert list(at) == board.goal


@pytest.mark.parametrize("name,number,phase", [("arden", 5, "gather-groups"), ("arden", 12, "whole"),
                                               ("kolvir", 3, "gather")])
def test_lazy_eta_gives_the_same_search(name: str, number: int, phase: str) -> None:
    """Children pushed with a lower bound of their eta delta, weighed when popped: the same states are
    expanded in the same order as when every child is weighed exactly at once."""
    game = get_game(name)
    board = amber_solver._Board(game.deal(number))
    results = []
    for lazy in (False, True):
        setting = amber_solver.replace(amber_solver.settings_for(game, phase)[0], lazy=lazy)
        assert setting.exact
        best: dict[str, object] = {}
        path, end, used = amber_solver._search(board, board.start, setting, None, 600, best=best)
        results.append((path, end, used, best.get("path"), best.get("at")))
    assert results[0] == results[1]
    assert results[0][2] > 0


def test_the_chain_is_each_group_gathered_then_sorted_in_snake_order() -> None:
    """Arden's chain plan: each goal group (in snake order) gathered against the cells left, then sorted;
    the last group only sorted."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(9))
    groups = amber_solver.arden_groups(game, board)
    steps = amber_solver._plan_arden(game, board, "chain")
    assert [s.kind for s in steps] == ["gather", "sort"] * (len(groups) - 1) + ["sort"]
    left = set(range(board.n))
    for k, group in enumerate(groups[:-1]):
        left -= set(group)
        assert steps[2 * k].parts == (group, tuple(sorted(left)))
        assert steps[2 * k + 1].parts == (group,)
    assert steps[-1].parts == (groups[-1],)
    assert sorted(c for g in groups for c in g) == list(range(board.n))
    assert [game.snake_index(g[0]) for g in groups] == sorted(game.snake_index(g[0]) for g in groups)


def test_the_first_group_gathers_then_sorts() -> None:
    """The chain's first two steps from a deal: after the gathering every card of the first group stands in
    its cells; after the sort they are in their goal cells. Every swap is legal."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(1))
    gather, sort = amber_solver._plan_arden(game, board, "chain")[:2]
    budget = amber_solver._Budget(None, 60000)
    found = amber_solver._run_steps(board, game, [gather, sort], board.start, frozenset(), budget)
    assert found is not None and 0 < budget.used <= 60000
    at = bytearray(board.start)
    for a, b in found:
        assert board.legal_swap(at, a, b)
        at[a], at[b] = at[b], at[a]
    assert all(board.target[at[c]] == c for c in gather.parts[0])


def _whole(number: int, probe: bool, nodes: int = amber_solver.ARDEN_QUICK_CAP) -> tuple[object, ...]:
    """Arden's whole-board search of a deal, with or without its probe: (path, states, nearest, probed)."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(number))
    setting = amber_solver.settings_for(game, "whole")[0]
    assert setting.probe == (amber_solver.ARDEN_PROBE, amber_solver.ARDEN_PROBE_NEAR)
    if not probe:
        setting = amber_solver.replace(setting, probe=None)
    best: dict[str, object] = {}
    path, _, used = amber_solver._search(board, board.start, setting, None, nodes, cells=list(range(board.n)),
                                         best=best)
    return path, used, best.get("near"), best.get("probed"), best.get("path")


def test_a_far_probe_stops_the_whole_board_search() -> None:
    """Deal 2 is far from the goal after the probe's states: the search stops there, having seen what a
    search capped at that many states sees."""
    path, used, near, probed, nearest = _whole(2, probe=True)
    assert path is None and probed is True and used == amber_solver.ARDEN_PROBE
    assert isinstance(near, int) and near > amber_solver.ARDEN_PROBE_NEAR
    assert _whole(2, probe=False, nodes=amber_solver.ARDEN_PROBE) == (None, used, near, False, nearest)


def test_a_near_probe_goes_on_with_the_very_same_search() -> None:
    """Deal 7 is near the goal after the probe's states: the search goes on and wins as it does unprobed."""
    probed = _whole(7, probe=True)
    assert probed[0] is not None and probed[1] > amber_solver.ARDEN_PROBE
    assert probed[:2] == _whole(7, probe=False)[:2]


def test_a_failed_probe_ends_the_phase() -> None:
    """No further attempt of the whole-board phase after the probe stopped it: the chain gets the states."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(2))
    budget = amber_solver._Budget(None, amber_solver.ARDEN_QUICK_CAP)
    settings = amber_solver.settings_for(game, "whole")
    assert next(amber_solver._phase_solutions(board, board.start, settings, budget, cells=list(range(board.n))),
                None) is None
    assert budget.used == amber_solver.ARDEN_PROBE


@pytest.mark.parametrize("number", [11, 53])
def test_arden_deals_won_past_and_through_the_probe(monkeypatch: pytest.MonkeyPatch, number: int) -> None:
    """Deal 53 is won by the probed whole-board search, deal 11 by the chain after a failed probe (the plans in
    turn, no race); the rules engine replays both (``solve`` does it)."""
    monkeypatch.setattr(amber_solver, "RACE", False)
    position = get_game("arden").deal(number)
    solution = solve(position, node_limit=6000)
    assert solution.status == "won" and 0 < solution.stats["nodes"] <= 6000
    assert replay(position, list(solution.moves)).is_won()
    assert len(solution.moves) >= position.lower_bound()


# The chain the other way along the snake (``_plan_arden(..., "reverse-chain")``), raced against the chain.

def test_the_reverse_chain_is_each_group_gathered_then_sorted_from_the_snake_end() -> None:
    """The reverse chain: the goal groups in reverse snake order, each gathered against the cells left, then
    sorted; the first group (with the top-left start card) only sorted."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(22))
    groups = amber_solver.arden_groups(game, board)[::-1]
    steps = amber_solver._plan_arden(game, board, "reverse-chain")
    assert [s.kind for s in steps] == ["gather", "sort"] * (len(groups) - 1) + ["sort"]
    left = set(range(board.n))
    for k, group in enumerate(groups[:-1]):
        left -= set(group)
        assert steps[2 * k].parts == (group, tuple(sorted(left)))
        assert steps[2 * k].phase == "gather-groups"
        assert steps[2 * k + 1].parts == (group,)
    assert steps[-1].parts == (groups[-1],) and 0 in groups[-1]  # cell 0: the top-left start card
    assert left == set(groups[-1])  # the cells left are the first group's


def _legal_to_the_goal(board: amber_solver._Board, path: list[tuple[int, int]]) -> None:
    at = bytearray(board.start)
    for a, b in path:
        assert board.legal_swap(at, a, b), (a, b)
        at[a], at[b] = at[b], at[a]
    assert list(at) == board.goal


def test_the_reverse_chain_wins_a_deal_with_legal_swaps() -> None:
    """Deal 2 through the reverse chain alone: every swap legal, the goal reached."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(2))
    budget = amber_solver._Budget(None, 8000)
    path = amber_solver._run_plan(board, game, amber_solver._plan_arden(game, board, "reverse-chain"), budget)
    assert path is not None and 0 < budget.used <= 8000
    _legal_to_the_goal(board, path)


def _states_alone(number: int, plan: str, cap: int) -> tuple[list[tuple[int, int]] | None, int]:
    game = get_game("arden")
    board = amber_solver._Board(game.deal(number))
    budget = amber_solver._Budget(None, cap)
    path = amber_solver._run_plan(board, game, amber_solver._plan_arden(game, board, plan), budget)
    return path, budget.used


def test_plans_in_turn_cost_their_caps_then_the_winner() -> None:
    """A plan that does not win within its cap spends exactly its cap; the next plan then runs as it does
    alone: plans in turn cost the sum (the costing in docs/solver-arden.md relies on it)."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(2))
    first, used_first = _states_alone(2, "chain", 1000)
    assert first is None and used_first == 1000
    second, used_second = _states_alone(2, "reverse-chain", 8000)
    assert second is not None
    budget = amber_solver._Budget(None, 20000)
    plans = [(amber_solver._plan_arden(game, board, "chain"), 1000),
             (amber_solver._plan_arden(game, board, "reverse-chain"), None)]
    path = amber_solver._plan(board, game, budget, plans=plans)
    assert path == second and budget.used == used_first + used_second
    _legal_to_the_goal(board, path)


def _first_gathering_searches(monkeypatch: pytest.MonkeyPatch, endgame: int) -> list[tuple[bool, int, bool]]:
    """The searches of deal 22's first gathering within 8000 states: (focused end game?, states, won?) each."""
    monkeypatch.setattr(amber_solver, "ENDGAME_NODES", endgame)
    inner = amber_solver._search
    runs: list[tuple[bool, int, bool]] = []

    def logged(*args: object, **kw: object) -> tuple[list[tuple[int, int]] | None, bytes, int]:
        path, end, used = inner(*args, **kw)  # type: ignore[arg-type]
        runs.append((bool(kw.get("focus")), used, path is not None))
        return path, end, used

    monkeypatch.setattr(amber_solver, "_search", logged)
    game = get_game("arden")
    board = amber_solver._Board(game.deal(22))
    gather = amber_solver._plan_arden(game, board, "chain")[0]
    budget = amber_solver._Budget(None, 8000)
    kw = amber_solver._gather_kw(board, gather.parts, list(range(board.n)))
    found = next(amber_solver._phase_solutions(board, board.start, amber_solver.settings_for(game, "gather-groups"),
                                               budget, **kw), None)
    assert found is None and budget.used == 8000
    return runs


def test_without_the_end_game_a_stalled_gathering_goes_on_to_its_next_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sixth session's measurement sets ``amber.ENDGAME_NODES`` to 0: a first-gathering attempt that stalls
    near the goal (deal 22: 10 cards out of their region after 4000 states) then hands its states to the next
    attempt instead of a focused end game, which on the first gatherings of deals 21-60 finished 6 of 66 stalls."""
    with_endgame = _first_gathering_searches(monkeypatch, amber_solver.ENDGAME_NODES)
    assert with_endgame == [(False, 4000, False), (True, 4000, False)]
    monkeypatch.undo()
    assert _first_gathering_searches(monkeypatch, 0) == [(False, 4000, False), (False, 4000, False)]
