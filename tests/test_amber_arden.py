"""Forest of Arden's search: the incremental move generator and the plan's pieces.

Budgets are node limits (results do not depend on the machine's speed); every won solution is
replayed by the rules engine through ``amber_patience.solvers.solve``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.games.amber import Swap
from amber_patience.solvers import amber as amber_solver
from amber_patience.solvers import replay

#: Layouts without a lone cell (where the incremental move generator applies).
NO_LONE_CELL = ["arden", "path", "path-52", "path-36", "pattern"]


def _cells_of(at: list[int]) -> list[int]:
    pos = [0] * len(at)
    for cell, card in enumerate(at):
        pos[card] = cell
    return pos


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NO_LONE_CELL), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=1, max_value=60))
def test_moves_after_a_swap_are_the_moves_found_afresh(name: str, number: int, seed: int, steps: int) -> None:
    """Along random play, the legal swaps found from the parent's (only those near the two swapped
    cells found again) are exactly the legal swaps of the position, which are the rules engine's."""
    game = get_game(name)
    position = game.deal(number)
    board = amber_solver._Board(position)
    rng = random.Random(seed)
    at = list(board.start)
    codes = board.ordered(board.codes_from(at, _cells_of(at), range(board.n)))
    for _ in range(steps):
        if not codes:
            break
        code = rng.choice(codes)
        a, b = code >> 7, code & 127
        assert board.legal_swap(at, a, b)
        position = position.play(Swap(a, b))
        at[a], at[b] = at[b], at[a]
        pos = _cells_of(at)
        codes = board.moves_after(codes, at, pos, a, b)
        assert codes == board.ordered(board.codes_from(at, pos, range(board.n)))
    assert sorted(Swap(c >> 7, c & 127) for c in codes) == position.legal_moves()


def test_codes_from_a_few_cells_are_the_moves_touching_them() -> None:
    game = get_game("arden")
    board = amber_solver._Board(game.deal(4))
    at = list(board.start)
    pos = _cells_of(at)
    every = board.codes_from(at, pos, range(board.n))
    for cells in ({5, 6, 19}, {40}, set(range(13))):
        assert board.codes_from(at, pos, cells) == {c for c in every if c >> 7 in cells or c & 127 in cells}


@pytest.mark.parametrize("incremental", [False, True])
def test_the_search_wins_the_end_of_an_arden_game_either_way(incremental: bool) -> None:
    """The same weighted search, with the legal swaps found afresh or from the parent's."""
    game = get_game("arden")
    start = game.deal(8)
    board = amber_solver._Board(start)
    at = bytearray(board.goal)
    rng = random.Random(8)
    free = [c for c in range(board.n) if not board.fixed[c]]
    for _ in range(12):  # a few random (not necessarily legal) transpositions away from the goal
        a, b = rng.sample(free, 2)
        at[a], at[b] = at[b], at[a]
    setting = amber_solver.Setting(3, 1, 0, 0.5, 20000, exact=True, incremental=incremental)
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


def _first_group_regions(board: amber_solver._Board, game: object) -> tuple[list[int], list[int]]:
    step = amber_solver._plan_arden(game, board, "chain")[0]  # type: ignore[arg-type]
    region_of = [0] * board.n
    for r, part in enumerate(step.parts):
        for c in part:
            region_of[c] = r
    return [region_of[board.target[x]] for x in range(board.n)], region_of


@pytest.mark.parametrize("number", [3, 10])
def test_local_end_game_brings_the_last_cards_into_their_region(number: int) -> None:
    """From the goal with one legal swap across the first group's border (one card out, one foreign card
    in), the local end game of a gathering brings both back, by legal swaps, moving only cells near them."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(number))
    card_region, region_of = _first_group_regions(board, game)
    at = bytearray(board.goal)
    swap = next((p, q) for p in range(board.n) for q in range(board.n)
                if region_of[p] == 0 and region_of[q] == 1 and board.legal_swap(at, p, q))
    at[swap[0]], at[swap[1]] = at[swap[1]], at[swap[0]]
    budget = amber_solver._Budget(None, 1000)
    setting = amber_solver.settings_for(game, "gather-groups")[0]
    found = amber_solver._local_endgame(board, bytes(at), setting, budget, cells=list(range(board.n)),
                                        group=card_region, cell_group=region_of)
    assert found is not None and 0 < budget.used <= 1000
    path, end = found
    near = {c for cell in swap for z in (at[cell], *board.nb[at[cell]]) for c in board.near[board.goal.index(z)]}
    for a, b in path:
        assert board.legal_swap(at, a, b) and a in near | set(board.near[swap[0]]) | set(board.near[swap[1]])
        at[a], at[b] = at[b], at[a]
    assert bytes(at) == end
    assert all(card_region[at[c]] == region_of[c] for c in range(board.n))


def test_phase_attempts_are_the_solutions_with_the_failures_between() -> None:
    """``_phase_attempts`` yields one item per attempt (``None`` for a failed one); its solutions are
    ``_phase_solutions``'s, and both stop when the budget ends."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(3))
    card_region, region_of = _first_group_regions(board, game)
    kw = {"cells": list(range(board.n)), "group": card_region, "cell_group": region_of, "sort_groups_only": True}
    settings_ = [amber_solver.Setting(3, 0.5, 3, 0.5, 300, exact=True), amber_solver.Setting(3, 0.5, 3, 0.5, 300, 1)]
    attempts_budget = amber_solver._Budget(None, 1000)
    attempts = list(amber_solver._phase_attempts(board, board.start, settings_, attempts_budget, **kw))
    solutions_budget = amber_solver._Budget(None, 1000)
    solutions = list(amber_solver._phase_solutions(board, board.start, settings_, solutions_budget, **kw))
    assert attempts and None in attempts
    assert [a for a in attempts if a is not None] == solutions
    assert attempts_budget.used == solutions_budget.used and 1000 - 300 < attempts_budget.used <= 1000


def test_ends_plan_is_one_step_of_the_groups_in_snake_order() -> None:
    game = get_game("arden")
    board = amber_solver._Board(game.deal(9))
    assert amber_solver._plan_arden(game, board, "ends") == [
        amber_solver.Step("ends", tuple(amber_solver.arden_groups(game, board)), "gather-groups")]


def test_the_ends_chain_takes_turns_and_goes_on_from_the_end_that_succeeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Groups 0..4 left: the first group's gathering fails its first attempt, the last group's succeeds;
    the last group is sorted, and the chain goes on with groups 0..3 (gathering group 0 or group 3)."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(2))
    parts = tuple(amber_solver.arden_groups(game, board))
    calls: list[tuple[str, int | None]] = []

    def part_of(kw: dict[str, object]) -> int:
        cell_group = kw["cell_group"]
        assert isinstance(cell_group, list)
        return next(k for k, part in enumerate(parts) if all(cell_group[c] == 0 for c in part))

    def fake_attempts(board_: object, start: bytes, settings_: object, budget: amber_solver._Budget,
                      **kw: object) -> Iterator[tuple[list[tuple[int, int]], bytes] | None]:
        k = part_of(kw)
        calls.append(("gather", k))
        budget.used += 10
        if k == 0:
            yield None
            yield None
        else:
            yield [(k, k)], start

    def fake_phase(board_: object, start: bytes, settings_: object, budget: amber_solver._Budget,
                   **kw: object) -> tuple[list[tuple[int, int]], bytes] | None:
        cells = kw["cells"]
        assert isinstance(cells, list)
        k = parts.index(tuple(cells))
        calls.append(("sort", k))
        return [(k + 10, k + 10)], start

    monkeypatch.setattr(amber_solver, "_phase_attempts", fake_attempts)
    monkeypatch.setattr(amber_solver, "_phase", fake_phase)
    budget = amber_solver._Budget(None, 10000)
    step = amber_solver.Step("ends", parts)
    path = amber_solver._run_ends(board, game, step, 0, 5, board.start, frozenset(), budget)
    # gatherings: 0 fails, 4 succeeds; then 0 fails, 3 succeeds; then 0 fails, 2 succeeds; then 0 vs 1
    # (two groups left: one gathering), which fails twice and ends (the fake's two attempts)
    assert calls[:6] == [("gather", 0), ("gather", 4), ("sort", 4), ("gather", 0), ("gather", 3), ("sort", 3)]
    assert path is None
    assert ("gather", 1) not in calls


def _fake_success_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_attempts(board_: object, start: bytes, settings_: object, budget: amber_solver._Budget,
                      **kw: object) -> Iterator[tuple[list[tuple[int, int]], bytes] | None]:
        budget.used += 1
        yield [(0, 0)], start

    def fake_phase(board_: object, start: bytes, settings_: object, budget: amber_solver._Budget,
                   **kw: object) -> tuple[list[tuple[int, int]], bytes] | None:
        return [(1, 1)], start

    monkeypatch.setattr(amber_solver, "_phase_attempts", fake_attempts)
    monkeypatch.setattr(amber_solver, "_phase", fake_phase)


def test_the_ends_chain_sorts_every_group_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every gathering succeeding at once: four gatherings and five sorts (the last group only sorted)."""
    _fake_success_everywhere(monkeypatch)
    game = get_game("arden")
    board = amber_solver._Board(game.deal(5))
    parts = tuple(amber_solver.arden_groups(game, board))
    budget = amber_solver._Budget(None, 100)
    path = amber_solver._run_ends(board, game, amber_solver.Step("ends", parts), 0, 5, board.start, frozenset(), budget)
    assert path == [(0, 0), (1, 1)] * 4 + [(1, 1)]
    assert budget.used == 4


def test_the_ends_plan_wins_an_arden_deal_alone() -> None:
    """The chain from both ends alone (no whole-board search first) wins, replayed by the rules."""
    game = get_game("arden")
    position = game.deal(5)
    board = amber_solver._Board(position)
    budget = amber_solver._Budget(None, 12000)
    path = amber_solver._run_plan(board, game, amber_solver._plan_arden(game, board, "ends"), budget)
    assert path is not None and 0 < budget.used <= 12000
    assert replay(position, [Swap(a, b) for a, b in path]).is_won()
