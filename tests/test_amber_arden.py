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
    codes = sorted(board.codes_from(at, _cells_of(at), range(board.n)))
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
        assert codes == sorted(board.codes_from(at, pos, range(board.n)))
    assert [Swap(c >> 7, c & 127) for c in codes] == position.legal_moves()


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
