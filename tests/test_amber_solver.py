"""The Amber solver: its move generator agrees with the rules engine, and its solutions win.

Budgets are small (node limits, so results do not depend on the machine's speed); every won
solution is replayed by the rules engine through ``amber_patience.solvers.solve``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES, AmberPosition, Swap
from amber_patience.games.base import GameError
from amber_patience.solvers import SolutionError, replay, solve
from amber_patience.solvers import amber as amber_solver


def _random_play(position: AmberPosition, steps: int, seed: int) -> AmberPosition:
    rng = random.Random(seed)
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def _at_and_pos(board: amber_solver._Board) -> tuple[list[int], list[int]]:
    """The card in every cell of the board's start, and the cell of every card."""
    at = list(board.start)
    pos = [0] * board.n
    for cell, card in enumerate(at):
        pos[card] = cell
    return at, pos


def _internal_moves(position: AmberPosition) -> list[Swap]:
    board = amber_solver._Board(position)
    at, pos = _at_and_pos(board)
    return sorted(Swap(a, b) for a, b in board.moves(at, pos))


@pytest.mark.parametrize("name", GAMES)
def test_move_generator_matches_the_rules_engine(name: str) -> None:
    game = get_game(name)
    for number in (1, 2):
        position = _random_play(game.deal(number), 25, number)
        assert _internal_moves(position) == position.legal_moves()


def test_lower_bound_matches_the_game() -> None:
    for name in GAMES:
        position = _random_play(get_game(name).deal(3), 10, 3)
        board = amber_solver._Board(position)
        assert board.bound(board.start) == position.lower_bound()


def _check_won(position: AmberPosition, node_limit: int) -> None:
    solution = solve(position, time_limit=None, node_limit=node_limit)
    assert solution.status == "won", solution.stats
    assert replay(position, solution.moves).is_won()
    assert solution.stats["length"] == len(solution.moves)
    assert solution.stats["lower_bound"] == position.lower_bound()
    assert len(solution.moves) >= position.lower_bound()
    assert solution.stats["nodes"] >= 0 and solution.stats["difficulty"] == solution.stats["nodes"]


@pytest.mark.parametrize("name,number", [("path-36", 1), ("path-36", 2), ("path-36", 3), ("path-52", 3),
                                         ("path", 2)])
def test_solves_deals_of_path_in_shadow(name: str, number: int) -> None:
    _check_won(get_game(name).deal(number), 20000)


def _near_goal(name: str, number: int, scrambles: int, seed: int) -> AmberPosition:
    """A position a few moves before the end: the goal, scrambled by swaps whose undoing is legal."""
    game = get_game(name)
    start = game.deal(number)
    cards = list(start.goal)
    rng = random.Random(seed)
    done = 0
    while done < scrambles:
        a, b = rng.sample(range(len(cards)), 2)
        trial = cards[:]
        trial[a], trial[b] = trial[b], trial[a]
        if game.swap_problem(trial, start.start_cells, a, b) is None:
            cards = trial
            done += 1
    return AmberPosition(game, tuple(cards), start.start_cells, None, {})


@pytest.mark.parametrize("name", GAMES)
def test_solves_the_end_of_a_game_in_every_layout(name: str) -> None:
    position = _near_goal(name, 6, 5, 11)
    assert not position.is_won()
    _check_won(position, 20000)


@pytest.mark.parametrize("name,number", [("kolvir", 2), ("arden", 1)])
def test_solves_deals_of_the_78_card_layouts(name: str, number: int) -> None:
    _check_won(get_game(name).deal(number), 40000)


def test_solves_a_game_in_progress() -> None:
    game = get_game("path-36")
    position = _random_play(game.deal(4), 15, 7)
    assert position.deal_number == 4 and not position.is_won()
    data = position.to_json()
    resumed = game.position_from_json(data)
    _check_won(resumed, 20000)


def test_won_position_needs_no_move() -> None:
    game = get_game("path-36")
    start = game.deal(5)
    goal = AmberPosition(game, start.goal, start.start_cells, None, {})
    solution = solve(goal, node_limit=10)
    assert solution.status == "won" and solution.moves == []


@pytest.mark.parametrize("race", [False, True])
def test_budget_runs_out_as_unknown(monkeypatch: pytest.MonkeyPatch, race: bool) -> None:
    """The node limit bounds each plan; a race of two plans (on two cores) may spend it twice, and counts both."""
    monkeypatch.setattr(amber_solver, "RACE", race)
    position = get_game("kolvir").deal(1)
    solution = solve(position, time_limit=None, node_limit=5)
    assert solution.status == "unknown" and solution.moves == []
    raced = 2 if amber_solver.can_race() else 1
    assert 0 < solution.stats["nodes"] <= 5 * raced


def test_a_stranded_pattern_deal_is_proved_lost_at_once() -> None:
    game = get_game("pattern")
    number = next(n for n in range(1, 100) if game.deal(n).stranded_kinds())
    solution = solve(game.deal(number), time_limit=None, node_limit=1)
    assert solution.status == "lost" and solution.moves == []
    assert solution.stats["nodes"] == 0 and "can never get one back" in solution.stats["reason"]
    other = next(n for n in range(1, 100) if not game.deal(n).stranded_kinds())
    assert solve(game.deal(other), time_limit=None, node_limit=1).status != "lost"


def test_refuses_other_games_positions() -> None:
    class NotAmber:
        pass

    with pytest.raises(GameError, match="Amber positions"):
        amber_solver.solve(NotAmber())  # type: ignore[arg-type]


def test_replay_catches_a_bad_solution() -> None:
    position = get_game("path-36").deal(1)
    illegal = next(Swap(a, b) for a in range(1, 36) for b in range(a + 1, 36)
                   if Swap(a, b) not in position.legal_moves())
    with pytest.raises(SolutionError):
        replay(position, [illegal])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=0, max_value=8))
def test_random_path_36_deals_are_won(number: int, steps: int) -> None:
    position = _random_play(get_game("path-36").deal(number), steps, number)
    _check_won(position, 40000)


@pytest.mark.parametrize("number", [2, 3, 9])
def test_arden_groups_are_the_goal_groups_in_snake_order(number: int) -> None:
    """Arden's goal groups: one per suit and one for the trumps, each holding exactly the goal
    cells of its kind, in snake order (the first start card's group may be split around the second
    kind's run), covering the board."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(number))
    parts = amber_solver.arden_groups(game, board)
    assert sorted(c for part in parts for c in part) == list(range(len(game.cells)))
    assert sorted(len(part) for part in parts) == [14, 14, 14, 14, 22]
    firsts = [game.snake_index(part[0]) for part in parts]
    assert firsts == sorted(firsts) and firsts[0] == 0
    for part in parts:
        places = [game.snake_index(c) for c in part]
        assert places == sorted(places)
        groups = {board.cell_group[c] for c in part}
        assert len(groups) == 1
        assert sum(1 for c in range(len(game.cells)) if board.cell_group[c] in groups) == len(part)


@pytest.mark.parametrize("number", [2, 9])
def test_arden_chain_plan_gathers_one_group_at_a_time(number: int) -> None:
    """The chain: gather group k into its cells against the cells no group before it has taken,
    then sort group k; the last group is only sorted."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(number))
    parts = amber_solver.arden_groups(game, board)
    steps = amber_solver._plan_arden(game, board, "chain")
    assert [s.kind for s in steps] == ["gather", "sort"] * 4 + ["sort"]
    left = set(range(len(game.cells)))
    for k, part in enumerate(parts[:-1]):
        gather, sort = steps[2 * k], steps[2 * k + 1]
        left -= set(part)
        assert gather.parts == (part, tuple(sorted(left)))
        assert sort.parts == (part,)
    assert steps[-1].parts == (parts[-1],) and set(parts[-1]) == left
    groups = amber_solver._plan_arden(game, board, "groups")
    assert groups[0].kind == "gather" and groups[0].parts == tuple(parts)
    assert [s.parts[0] for s in groups[1:]] == list(parts)


def test_the_chain_plan_wins_an_arden_deal_alone() -> None:
    """Arden deal 11 through the chain plan alone (no whole-board search first), replayed by the rules."""
    game = get_game("arden")
    position = game.deal(11)
    board = amber_solver._Board(position)
    budget = amber_solver._Budget(None, 3000)
    path = amber_solver._run_plan(board, game, amber_solver._plan_arden(game, board, "chain"), budget)
    assert path is not None and 0 < budget.used <= 3000
    assert replay(position, [Swap(a, b) for a, b in path]).is_won()


def test_a_plan_backtracks_to_the_gathers_next_end_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the steps after a gather fail from its first end position, the gather's next solution
    is tried (on Arden; other layouts keep the first and fail)."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(2))
    first, second = bytes(reversed(board.start)), bytes(sorted(board.start))
    calls: list[tuple[str, bytes]] = []

    def fake(board_: object, start: bytes, settings: object, budget: amber_solver._Budget,
             **kw: object) -> Iterator[tuple[list[tuple[int, int]], bytes]]:
        if kw.get("sort_groups_only"):
            calls.append(("gather", start))
            budget.used += 10
            yield [(1, 2)], first
            yield [(3, 4)], second
        else:
            calls.append(("sort", start))
            budget.used += 5
            if start == second:
                yield [(5, 6)], start

    monkeypatch.setattr(amber_solver, "_phase_solutions", fake)
    cells = tuple(range(board.n))
    steps = [amber_solver.Step("gather", (cells,)), amber_solver.Step("sort", (cells,))]
    budget = amber_solver._Budget(None, 1000)
    assert amber_solver._run_plan(board, game, steps, budget) == [(3, 4), (5, 6)]
    assert calls == [("gather", board.start), ("sort", first), ("sort", second)]
    assert budget.used == 20
    other = amber_solver._Board(get_game("kolvir").deal(2))
    calls.clear()
    assert amber_solver._run_plan(other, get_game("kolvir"), steps, amber_solver._Budget(None, 1000)) is None
    assert calls == [("gather", other.start), ("sort", first)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["arden", "kolvir", "pattern", "path-52"]),
       number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=60))
def test_masked_move_generator_is_the_plain_walk_and_the_rules(name: str, number: int, steps: int) -> None:
    """The bit-mask move generator (``_Board.moves``) gives exactly the rules engine's legal swaps, inserted
    in the same order as the plain walk over every card's neighbours (``_moves_plain``): the search iterates
    the set, so the same order keeps the same search. Arden (one block), Kolvir (the lone cell between two
    blocks), Pattern (five blocks), after random play."""
    position = _random_play(get_game(name).deal(number), steps, number)
    board = amber_solver._Board(position)
    at, pos = _at_and_pos(board)
    masked = board.moves(at, pos)
    assert list(masked) == list(board._moves_plain(at, pos))
    assert sorted(Swap(a, b) for a, b in masked) == position.legal_moves()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["arden", "kolvir", "pattern", "path-36"]),
       number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=40),
       unhappy_counts=st.booleans())
def test_a_childs_cell_lists_from_its_parents_are_its_own(name: str, number: int, steps: int,
                                                          unhappy_counts: bool) -> None:
    """The search derives a state's cell lists (neighbours' cells, welcome masks, unhappy cards) from its
    parent's (``_child_cell_lists``): they equal the lists computed afresh (``_cell_lists``), after every legal
    swap of a position reached by random play, with and without the unhappy cards counted."""
    position = _random_play(get_game(name).deal(number), steps, number)
    board = amber_solver._Board(position)
    at, pos = _at_and_pos(board)
    sadable = [cell != board.lone for cell in range(board.n)] if unhappy_counts else None
    lists = board._cell_lists(at, pos, sadable)
    stored = tuple(tuple(part) for part in lists[:4]) + (lists[4],)
    for move in position.legal_moves()[:12]:
        assert isinstance(move, Swap)
        child = at[:]
        child[move.a], child[move.b] = child[move.b], child[move.a]
        where = pos[:]
        where[child[move.a]], where[child[move.b]] = move.a, move.b
        fresh = board._cell_lists(child, where, sadable)
        assert board._child_cell_lists(stored, child, where, move.a, move.b, sadable) == fresh
        assert board._moves_masked(child, where, fresh[2]) == board.moves(child, where)


def _record_expanded(monkeypatch: pytest.MonkeyPatch, board: amber_solver._Board) -> list[bytes]:
    """The positions ``board``'s searches expand from now on, in order (its move generator, recorded)."""
    expanded: list[bytes] = []
    generate = board._moves_masked

    def recorded(at: list[int], pos: list[int], welcome: list[int]) -> set[tuple[int, int]]:
        expanded.append(bytes(at))
        return generate(at, pos, welcome)

    monkeypatch.setattr(board, "_moves_masked", recorded)
    return expanded


@pytest.mark.parametrize("name,number,phase,seeded", [("arden", 5, "gather-groups", False),
                                                      ("arden", 5, "gather-groups", True),
                                                      ("kolvir", 3, "gather", True), ("path", 2, "whole", False),
                                                      ("path-52", 4, "whole", True), ("pattern", 1, "whole", False)])
def test_deferred_children_give_the_same_search(monkeypatch: pytest.MonkeyPatch, name: str, number: int,
                                                phase: str, seeded: bool) -> None:
    """Children whose key is well above their parent's are kept in their parent's lists instead of the heap
    (``DEFER``) and pushed when the heap's keys reach them: the search expands the same states in the same
    order as with every child pushed (``DEFER`` infinite) and as with every child deferred (minus infinity,
    so each pop first releases every parent whose children could come first). The lazy loop (Arden, Kolvir),
    the estimating one (Path) and the exact one (Pattern), with and without random tie-breaks. (The Python
    search: the compiled core pushes every child, ``test_amber_core.py``.)"""
    game = get_game(name)
    board = amber_solver._Board(game.deal(number))
    setting = amber_solver.settings_for(game, phase)[0]
    setting = amber_solver.replace(setting, nodes=700, seed=7 if seeded else None, probe=None)
    expanded = _record_expanded(monkeypatch, board)
    runs = []
    for defer in (float("inf"), amber_solver.DEFER, float("-inf")):
        monkeypatch.setattr(amber_solver, "DEFER", defer)
        expanded.clear()
        best: dict[str, object] = {}
        path, end, used = amber_solver._search_py(board, board.start, setting, None, 700, best=best)
        runs.append((path, end, used, best.get("path"), best.get("at"), best.get("near"), list(expanded)))
    assert runs[0][2] > 0 and len(runs[0][6]) == runs[0][2]
    assert runs[1] == runs[0]
    assert runs[2] == runs[0]


@pytest.mark.parametrize("name,number,phase", [("arden", 6, "gather-groups"), ("arden", 3, "whole"),
                                               ("kolvir", 2, "gather"), ("path-52", 1, "gather")])
def test_a_states_cycles_and_lists_from_its_parents_give_the_same_search(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                        number: int, phase: str) -> None:
    """A state takes its cycles (relabelled where the swap split or merged them), cell lists, the lazy loop's
    per-cell tuples and the eta deltas of its lazily weighed children from its parent's, kept for the last
    ``RING + 1`` expanded states. With a ring of one state almost every state computes them afresh: the same
    states are expanded in the same order. (The Python search: the compiled core computes them afresh.)"""
    game = get_game(name)
    board = amber_solver._Board(game.deal(number))
    setting = amber_solver.replace(amber_solver.settings_for(game, phase)[0], nodes=800, probe=None)
    kw = amber_solver._gather_kw(board, amber_solver.plan_for(game, board)[0].parts, list(range(board.n))) if (
        phase != "whole") else {}
    expanded = _record_expanded(monkeypatch, board)
    runs = []
    for ring in (amber_solver.RING, 0):
        monkeypatch.setattr(amber_solver, "RING", ring)
        expanded.clear()
        best: dict[str, object] = {}
        path, end, used = amber_solver._search_py(board, board.start, setting, None, 800, best=best, **kw)
        runs.append((path, end, used, best.get("path"), best.get("near"), list(expanded)))
    assert runs[0][2] > 0 and len(runs[0][5]) == runs[0][2]
    assert runs[1] == runs[0]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["arden", "kolvir", "path", "path-36"]),
       number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=80))
def test_a_swap_that_places_a_card_is_inside_a_cycle(name: str, number: int, steps: int) -> None:
    """A swap that puts a card in its goal cell swaps two cells of one cycle of the permutation to the goal (the
    card in ``p`` goes to ``q`` next along its cycle), so a merge (a swap across two cycles) never places a card:
    its beta term is never negative, and a merge of two cards of one group, happy and with no unhappy
    neighbour, always has the same key as the others of its kind (``docs/solver.md``, eighth session: 65% of
    the children Arden's lazy loop weighs). On every legal swap of random positions."""
    position = _random_play(get_game(name).deal(number), steps, number)
    board = amber_solver._Board(position)
    at, pos = _at_and_pos(board)
    cyc, _ = board.cycles(at)
    bound = board.bound(at)
    for p, q in board.moves(at, pos):
        child = at[:]
        child[p], child[q] = at[q], at[p]
        assert board.bound(child) == bound + (-1 if cyc[p] == cyc[q] else 1)
        if board.target[at[p]] == q or board.target[at[q]] == p:
            assert cyc[p] == cyc[q]


def test_the_cyclic_collector_is_off_during_a_solve_and_as_before_after(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from amber_patience import solvers

    seen: list[tuple[str, bool]] = []

    def spy(name: str) -> None:
        real = getattr(amber_solver, name)

        def run(*args: object, **kw: object) -> object:
            seen.append((name, gc.isenabled()))
            return real(*args, **kw)
        monkeypatch.setattr(amber_solver, name, run)

    spy("solve")
    spy("shorten_line")  # what the family's finish runs, and solvers.shorten_line
    position = get_game("path-36").deal(1)
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            quick = solvers.solve(position, time_limit=20, quick=True)
            assert quick.status == "won" and gc.isenabled() is enabled
            whole = solvers.finish(position, quick)
            assert gc.isenabled() is enabled and len(whole.moves) <= len(quick.moves)
            assert len(solvers.shorten_line(position, list(quick.moves))) <= len(quick.moves)
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [("solve", False), ("shorten_line", False), ("shorten_line", False)] * 2
