"""Forest of Arden's search: the incremental move generator and the plan's pieces.

Budgets are node limits (results do not depend on the machine's speed); every won solution is
replayed by the rules engine through ``amber_patience.solvers.solve``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.games.amber import Swap
from amber_patience.solvers import amber as amber_solver

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
