"""Forest of Arden's search: the plan's pieces.

Budgets are node limits (results do not depend on the machine's speed); every won solution is
replayed by the rules engine through ``amber_patience.solvers.solve``.
"""

from __future__ import annotations

import random

import pytest

from amber_patience.games import get_game
from amber_patience.solvers import amber as amber_solver


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
