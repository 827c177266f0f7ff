"""The compiled core of the Amber search (``solvers/_amber_core.c``) against the Python search it copies
(``amber._search_py``, the reference): the same path, end position, count of states and nearest position,
on every layout, from positions reached by random play, for every kind of search the plans run (the
whole board, gatherings into parts, the sort of one region; exact, lazy and estimated eta; focused;
random tie-breaks; charged merges; probes; a deadline).

Both searches expand the very same states in the same order, so any difference in what the core weighs,
or in the order it takes the swaps, shows up as a different count, path or nearest position.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.solvers import amber as amber_solver
from amber_patience.solvers import compiled
from test_amber_solver import _random_play

LAYOUTS = ["arden", "kolvir", "pattern", "path", "path-52", "path-36"]
PHASES = ["whole", "gather", "region", "gather-groups", "gather-rows"]


@contextmanager
def _core(on: bool, **pattern: Any) -> Iterator[None]:
    """The compiled core on or off (``compiled.ON``), and the names of ``amber_pattern`` in ``pattern`` set to
    their values, for the block; all restored after."""
    from amber_patience.solvers import amber_pattern

    saved = compiled.ON, {name: getattr(amber_pattern, name) for name in pattern}
    compiled.ON = on
    for name, value in pattern.items():
        setattr(amber_pattern, name, value)
    try:
        yield
    finally:
        compiled.ON = saved[0]
        for name, value in saved[1].items():
            setattr(amber_pattern, name, value)


def _both(board: amber_solver._Board, start: bytes, setting: amber_solver.Setting, nodes: int,
          deadline: float | None = None, **kw: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(path, end, states, best) of the Python search and of the core, from ``start``."""
    results = []
    for search in (amber_solver._search_py, amber_solver._search_core):
        best: dict[str, Any] = {}
        path, end, used = search(board, start, setting, deadline, nodes, best=best, **kw)
        results.append((path, end, used, best))
    return results[0], results[1]


def test_the_core_is_built() -> None:
    """``pip install -e .`` builds the core; the search uses it unless ``AMBER_PURE_PYTHON`` is set."""
    assert compiled.native is not None and compiled.ON


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), number=st.integers(min_value=1, max_value=10**6),
       steps=st.integers(min_value=0, max_value=40), phase=st.sampled_from(PHASES),
       attempt=st.integers(min_value=0, max_value=5), seed=st.none() | st.integers(min_value=0, max_value=2**40),
       focus=st.booleans(), lazy=st.booleans(), charge=st.sampled_from([0.0, 0.5, 2.0]),
       nodes=st.integers(min_value=1, max_value=500))
def test_the_core_is_the_python_search(name: str, number: int, steps: int, phase: str, attempt: int,
                                       seed: int | None, focus: bool, lazy: bool, charge: float, nodes: int) -> None:
    """The whole board searched from a position of random play, with any layout's setting of any phase,
    varied: the very same search."""
    game = get_game(name)
    board = amber_solver._Board(_random_play(game.deal(number), steps, number))
    portfolio = amber_solver.settings_for(game, phase)
    setting = replace(portfolio[attempt % len(portfolio)], seed=seed, focus=focus, lazy=lazy,
                      charge_lone=charge, charge_other=charge / 2)
    python, core = _both(board, board.start, setting, nodes)
    assert python == core
    assert python[2] > 0


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), number=st.integers(min_value=1, max_value=10**6),
       steps=st.integers(min_value=0, max_value=30), seed=st.none() | st.integers(min_value=0, max_value=99),
       split=st.integers(min_value=1, max_value=5))
def test_a_gathering_in_the_core_is_the_python_one(name: str, number: int, steps: int, seed: int | None,
                                                    split: int) -> None:
    """A gathering (``sort_groups_only``, the cards' parts as groups) into ``split`` parts along the goal."""
    game = get_game(name)
    board = amber_solver._Board(_random_play(game.deal(number), steps, number))
    order = sorted(range(board.n))
    parts = [order[i::split] for i in range(split)] if split > 1 else [order]
    free = [c for c in range(board.n) if not board.fixed[c]]
    setting = replace(amber_solver.settings_for(game, "gather")[0], seed=seed)
    python, core = _both(board, board.start, setting, 400, **amber_solver._gather_kw(board, parts, free))
    assert python == core


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), number=st.integers(min_value=1, max_value=10**6),
       swaps=st.integers(min_value=1, max_value=20), exact=st.booleans(), focus=st.booleans())
def test_a_region_sort_in_the_core_is_the_python_one(name: str, number: int, swaps: int, exact: bool,
                                                     focus: bool) -> None:
    """One region sorted with only its cells moving: the goal with cards of the region's first half of the
    snake traded among themselves (not necessarily by legal swaps), the rest in place."""
    game = get_game(name)
    board = amber_solver._Board(game.deal(number))
    region = [c for c in range(board.n) if not board.fixed[c]][: board.n // 2]
    at = bytearray(board.goal)
    rng = random.Random(number)
    for _ in range(swaps):
        a, b = rng.sample(region, 2)
        at[a], at[b] = at[b], at[a]
    setting = amber_solver.Setting(3, 1, 1, 0.5, 300, exact=exact, lazy=exact, focus=focus)
    python, core = _both(board, bytes(at), setting, 300, cells=region)
    assert python == core


def test_a_probe_and_a_past_deadline_stop_both_alike() -> None:
    """Arden's probed whole-board search stops at its probe (the same states, ``probed``); with a deadline
    already past, both stop at their first look at the clock (8 states)."""
    game = get_game("arden")
    board = amber_solver._Board(game.deal(3))
    probed = replace(amber_solver.settings_for(game, "whole")[0], probe=(200, 5))
    python, core = _both(board, board.start, probed, 5000)
    assert python == core and python[3]["probed"] and python[2] == 200
    setting = amber_solver.settings_for(game, "gather-groups")[0]
    python, core = _both(board, board.start, setting, 5000, deadline=time.perf_counter() - 1.0)
    assert python == core and python[2] == 8


def test_the_core_wins_with_legal_swaps() -> None:
    """A won path of the core, replayed with the move rule, sorts the board (Path 36, deal 1, whole board)."""
    game = get_game("path-36")
    board = amber_solver._Board(game.deal(1))
    path, end, used = amber_solver._search_core(board, board.start, amber_solver.settings_for(game, "whole")[0],
                                                None, 20000)
    assert path is not None and list(end) == board.goal and used > 0
    at = bytearray(board.start)
    for a, b in path:
        assert board.legal_swap(at, a, b)
        at[a], at[b] = at[b], at[a]
    assert list(at) == board.goal


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=40),
       seed=st.integers(min_value=0, max_value=10**6), cap=st.sampled_from([1, 4, 5, 6, 40, 300, 2000]))
def test_the_cores_dock_is_the_python_one(number: int, steps: int, seed: int, cap: int) -> None:
    """Pattern of Amber's dock (a search inside one block, ``PatternPlanner._dock_py``) and the core's
    (``_amber_core.cached_dock``), each on a fresh cache: the same swaps, or the same None, and the same cache entry,
    which says whether a proof that none exist was found (asked after ``DOCK_PROOF_AFTER`` states), for random
    cards of every block of a position of random play."""
    from amber_patience.solvers.amber_pattern import PatternPlanner

    game = get_game("pattern")
    board = amber_solver._Board(_random_play(game.deal(number), steps, number))
    blocks = PatternPlanner(board, game)
    rng = random.Random(seed)
    for blk in range(len(blocks.blocks)):
        cont = tuple(blocks.contents[blk](board.start))
        for _ in range(4):
            stay, *wanted = rng.sample(cont, 1 + rng.randint(1, 3))
            python, core = _docks_both_ways(board, [lambda planner, blk=blk, cont=cont, stay=stay, wanted=tuple(wanted):
                                                    planner.dock(blk, cont, stay, wanted, cap)])
            assert core == python


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6))
def test_the_cores_rejoin_is_the_python_one(name: str, number: int, seed: int) -> None:
    """The shortening's re-join of a window (``amber_shorten._rejoin_py``, iterative deepening) and the core's
    (``_rejoin_core``): the same swaps or the same None, on windows of random play (Kolvir: through the lone
    cell too), with fewer, as many and more swaps allowed than the window holds, and small and large state caps."""
    from amber_patience.solvers import amber_shorten

    position = get_game(name).deal(number)
    board = amber_solver._Board(position)
    rng = random.Random(seed)
    path: list[tuple[int, int]] = []
    for _ in range(50):
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        path.append((move.a, move.b))
        position = position.play(move)
    states = amber_shorten._states_along(board.start, path)
    found = 0
    for i in range(0, len(path) - 8, 4):
        j = i + rng.randint(2, 8)
        cells = sorted({c for swap in path[i:j] for c in swap} | set(rng.sample(range(board.n), 3)))
        cells = [c for c in cells if c not in board.frozen]
        need = amber_shorten._relative_bound(states[i], states[j], cells)
        window = amber_shorten._Window(board, states[i], cells)
        for most in (need, j - i, j - i + 2):
            for cap in (3, 40, 2000):
                args = (board, window, states[i], states[j], cells, need, most, cap)
                python = amber_shorten._rejoin_py(*args)
                assert amber_shorten._rejoin_core(*args) == python
                found += python is not None
    assert found > 0 or len(path) < 12


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), seed=st.integers(min_value=0, max_value=10**6),
       cap=st.sampled_from([1, 3, 30, 300]))
def test_the_cores_kind_search_is_the_python_one(number: int, seed: int, cap: int) -> None:
    """Pattern of Amber's kind level (``amber_pattern._kind_search_py``: best-first, then depth-first, over block x kind
    count matrices) and the core's (``_amber_core.kind_search``): the same answer (True, False or None) and the same
    memo written, from matrices of random kind-level exchanges, with a fresh memo and with one both share, filled by
    the searches before."""
    from amber_patience.solvers import amber_pattern as ap

    board = amber_solver._Board(get_game("pattern").deal(number))
    home = ap.home_kinds(board)
    m = start = ap.kind_matrix(board, board.start)
    rng = random.Random(seed)
    shared_py: dict[ap.Matrix, bool | None] = {}
    shared_core: dict[ap.Matrix, bool | None] = {}
    answers = set()
    for _ in range(12):
        moves = [n for _, _, n in ap._exchanges(m, home)]
        if not moves:
            break
        m = rng.choice(moves)
        if not ap.exits_ok(m, home):
            continue
        fresh_py: dict[ap.Matrix, bool | None] = {}
        fresh_core: dict[ap.Matrix, bool | None] = {}
        answer = ap._kind_search_py(m, home, fresh_py, cap)
        assert compiled.native.kind_search(bytes(m), bytes(home), fresh_core, cap) is answer
        assert fresh_core == fresh_py
        if m not in shared_py:
            answer = ap._kind_search_py(m, home, shared_py, cap)
            assert compiled.native.kind_search(bytes(m), bytes(home), shared_core, cap) is answer
            assert shared_core == shared_py
        answers.add(answer)
    assert answers or not ap.exits_ok(start, home)  # a deal whose exits are closed at the start is lost


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), cap=st.sampled_from([1, 3, 30, 300]))
def test_the_cores_kind_search_proves_alike(seed: int, cap: int) -> None:
    """The kind searches again, on small random matrices (a few cards a block, each block holding its goal kind):
    there the reachable matrices are few, so the searches also run out and prove a matrix unsolvable (False), which
    the matrices of a deal seldom show. Twenty matrices with one memo shared by each side, as the planner shares its
    memo: the same answers and the same memo after each (a memo is of one board's goal)."""
    from amber_patience.solvers import amber_pattern as ap

    rng = random.Random(seed)
    memo_py: dict[ap.Matrix, bool | None] = {}
    memo_core: dict[ap.Matrix, bool | None] = {}
    answers = []
    home = rng.sample(range(ap.KINDS), ap.BLOCKS)  # one board: the memo is by matrix
    for _ in range(20):
        cells = [0] * (ap.BLOCKS * ap.KINDS)
        for block in range(ap.BLOCKS):
            cells[block * ap.KINDS + home[block]] = rng.randint(1, 2)
            for _ in range(rng.randint(0, 3)):
                cells[block * ap.KINDS + rng.randrange(ap.KINDS)] += 1
        m = tuple(cells)
        if not ap.exits_ok(m, home) or m in memo_py:
            continue
        answer = ap._kind_search_py(m, home, memo_py, cap)
        assert compiled.native.kind_search(bytes(m), bytes(home), memo_core, cap) is answer
        assert memo_core == memo_py
        answers.append(answer)
    assert False in answers or not answers or cap < 30 or len(answers) < 4


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=30),
       seed=st.integers(min_value=1, max_value=10**6),
       setting=st.sampled_from([(3.0, 2.0), (2.0, 3.0), (12.0, 1.0), (0.0, 2.0)]),
       nodes=st.sampled_from([1, 20, 120]))
def test_the_cores_balance_children_are_the_python_ones(number: int, steps: int, seed: int,
                                                         setting: tuple[float, float], nodes: int) -> None:
    """Pattern of Amber's balance search in Python (``_balance_search_py``) with its children made by the core
    (``_balance_children_core``) and by Python (``_balance_children_py``, with ``compiled.ON`` off: every search in
    Python): the same gathering or the
    same None, the same nearest position, the same expansions, and the planner's random numbers drawn alike. Each
    expansion's children are also compared, with the kind memo and the random state they leave."""
    from amber_patience.solvers import amber_pattern as ap

    board = amber_solver._Board(_random_play(get_game("pattern").deal(number), steps, number))
    compared = 0
    core_children = ap._balance_children_core

    def both(planner: ap.PatternPlanner, loc: bytes, movable: list[int], depth: int, idx: int, weight: float,
             imbalance_weight: float) -> list[ap._Child]:
        nonlocal compared
        state, memo = planner.rng.getstate(), dict(planner._kinds)
        kids = core_children(planner, loc, movable, depth, idx, weight, imbalance_weight)
        after = planner.rng.getstate(), dict(planner._kinds)
        planner.rng.setstate(state)
        planner._kinds.clear()
        planner._kinds.update(memo)
        kind, home = planner.kind, planner.home_block
        present = [0] * ap.KINDS
        transport = [[0] * ap.BLOCKS for _ in range(ap.BLOCKS)]
        m = [0] * (ap.BLOCKS * ap.KINDS)
        for x in range(board.n):
            if loc[x] == home[x]:
                present[kind[x]] |= 1 << planner.rank[x]
            transport[loc[x]][home[x]] += 1
            m[loc[x] * ap.KINDS + kind[x]] += 1
        assert ap._balance_children_py(planner, loc, movable, present, transport, m, depth, idx, weight,
                                       imbalance_weight) == kids
        assert (planner.rng.getstate(), dict(planner._kinds)) == after
        compared += 1
        return kids

    results = []
    for on in (True, False):
        planner = ap.PatternPlanner(board, get_game("pattern"), seed=seed)
        budget = amber_solver._Budget(None, nodes)
        near: dict[str, object] = {}
        with _core(on, _balance_children_core=both):
            movable = [x for x in range(board.n) if board.start.index(x) not in board.frozen]
            found = ap._balance_search_py(planner, board.start, movable, budget, *setting, 300, near, False)
        results.append((found, near, budget.used, planner.rng.getstate()))
    assert results[0] == results[1]
    assert compared > 0 or results[0][2] == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=40),
       seed=st.integers(min_value=0, max_value=10**6))
def test_the_cores_never_docks_is_the_python_one(number: int, steps: int, seed: int) -> None:
    """The proof that a dock cannot succeed (``PatternPlanner._never_docks``: the reach masks of
    :func:`reach_masks`) by Python and by the core (``_amber_core.never_docks``), for random cards of every block
    of a position of random play; and it proves only what no dock search finds."""
    from amber_patience.solvers import amber_pattern as ap

    game = get_game("pattern")
    board = amber_solver._Board(_random_play(game.deal(number), steps, number))
    planner = ap.PatternPlanner(board, game)
    rng = random.Random(seed)
    answers = []
    for blk in range(len(planner.blocks)):
        cont = bytes(planner.contents[blk](board.start))
        for _ in range(6):
            stay, *wanted = rng.sample(list(cont), 1 + rng.randint(1, 3))
            with _core(False):
                python = planner._never_docks(blk, cont, stay, wanted)
            assert planner._never_docks(blk, cont, stay, wanted) == python
            if python:
                assert planner._dock_py(blk, cont, stay, wanted, 300)[0] is None
            answers.append(python)
    assert len(answers) == 6 * len(planner.blocks)


def _docks_both_ways(board: amber_solver._Board, calls: Any, clear_above: int | None = None) -> list[Any]:
    """Each of ``calls`` (a function of a planner giving one answer) made by a planner in Python (``compiled.ON``
    off) and by one with the core, in turn: the answers and the dock caches after each, both ways."""
    from amber_patience.solvers import amber_pattern as ap

    runs = []
    for on in (False, True):
        planner = ap.PatternPlanner(board, get_game("pattern"))
        with _core(on, DOCKS_CACHE=ap.DOCKS_CACHE if clear_above is None else clear_above):
            runs.append([(call(planner), dict(planner._docks)) for call in calls])
    return runs


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=40),
       seed=st.integers(min_value=0, max_value=10**6), clear_above=st.sampled_from([None, 3, 40]))
def test_the_cores_exchanges_are_the_python_ones(number: int, steps: int, seed: int, clear_above: int | None) -> None:
    """The exchange of two cards across blocks with the docks of both sides (``dock_exchange``), and single docks
    (``PatternPlanner.dock``), by Python and by the core (``_amber_core.exchange``, ``cached_dock``), in one random
    sequence with caps that find, fail and are proved: the same answers, and the same dock cache after every call
    (its keys by content and by inert content, what they hold, and when it is cleared)."""
    from amber_patience.solvers import amber_pattern as ap

    board = amber_solver._Board(_random_play(get_game("pattern").deal(number), steps, number))
    rng = random.Random(seed)
    contents = [tuple(get(board.start)) for get in ap.PatternPlanner(board, get_game("pattern")).contents]
    movable = [x for x in range(board.n) if board.start.index(x) not in board.frozen]
    exchanges = list(ap.set_exchanges(board, ap.card_blocks(board, board.start), movable))
    calls = []
    for _ in range(30):
        cap = rng.choice([1, 4, 5, 6, 30, 300])
        if exchanges and rng.random() < 0.7:
            f, _a, g, _b = rng.choice(exchanges)
            calls.append(lambda planner, f=f, g=g, cap=cap: ap.dock_exchange(planner, board.start, f, g, cap))
        else:
            blk = rng.randrange(len(contents))
            stay, *wanted = rng.sample(contents[blk], 1 + rng.randint(1, 2))
            if rng.random() < 0.2:
                wanted.append(rng.randrange(board.n))  # a card perhaps not in the block
            calls.append(lambda planner, blk=blk, stay=stay, wanted=tuple(wanted), cap=cap:
                         planner.dock(blk, contents[blk], stay, wanted, cap))
    python, core = _docks_both_ways(board, calls, clear_above)
    assert python == core
    assert python[-1][1] or clear_above is not None  # the cache was written


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=30),
       seed=st.integers(min_value=1, max_value=10**6),
       setting=st.sampled_from([(3.0, 2.0, 300), (2.0, 3.0, 300), (12.0, 1.0, 30), (0.0, 2.0, 5)]),
       nodes=st.sampled_from([1, 20, 150]), docks=st.sampled_from([100, 1]))
def test_the_cores_balance_search_is_the_python_one(number: int, steps: int, seed: int,
                                                     setting: tuple[float, float, int], nodes: int, docks: int) -> None:
    """Pattern of Amber's whole balance search by the core (``_balance_search_core``: its loop, docks and children)
    and in Python (``compiled.ON`` off): the same gathering or the same None, the same nearest position, the same
    expansions, the same random numbers drawn, and the same dock cache and kind memo left behind; twice in a row
    on one planner, so that the second search starts from the first one's caches. ``docks``: the docks a search
    may make per expansion of its budget (``BALANCE_DOCKS``; 1 makes the limit bite)."""
    from amber_patience.solvers import amber_pattern as ap

    game = get_game("pattern")
    board = amber_solver._Board(_random_play(game.deal(number), steps, number))
    imbalance_weight, weight, cap = setting
    runs = []
    for on in (False, True):
        planner = ap.PatternPlanner(board, game, seed=seed)
        with _core(on, BALANCE_DOCKS=docks):
            run = []
            for _ in range(2):
                budget = amber_solver._Budget(None, nodes)
                near: dict[str, object] = {}
                found = ap.balance_search(planner, board.start, budget, imbalance_weight, weight, cap, near)
                run.append((found, near, budget.used, planner.rng.getstate(), dict(planner._docks),
                            dict(planner._kinds)))
        runs.append(run)
    assert runs[0] == runs[1]
    assert runs[0][0][2] > 0 and runs[0][0][4]  # it expanded and docked


def test_the_cores_balance_search_stops_at_a_past_deadline_as_python_does() -> None:
    """A deadline already past: both searches expand nothing (after the first pop) and report the start."""
    from amber_patience.solvers import amber_pattern as ap

    game = get_game("pattern")
    board = amber_solver._Board(game.deal(7))
    runs = []
    for on in (False, True):
        planner = ap.PatternPlanner(board, game)
        with _core(on):
            budget = amber_solver._Budget(time.perf_counter() - 1, 100)
            near: dict[str, object] = {}
            runs.append((ap.balance_search(planner, board.start, budget, best=near), near, budget.used))
    assert runs[0] == runs[1] == (None, {"at": board.start, "path": []}, 0)


def test_the_cores_balance_search_without_a_node_cap_gathers_as_python_does() -> None:
    """No node cap (so no limit on the docks either): both searches run until they gather a fresh deal, alike."""
    from amber_patience.solvers import amber_pattern as ap

    game = get_game("pattern")
    board = amber_solver._Board(game.deal(2))
    runs = []
    for on in (False, True):
        planner = ap.PatternPlanner(board, game, seed=1)
        with _core(on):
            budget = amber_solver._Budget(None, None)
            runs.append((ap.balance_search(planner, board.start, budget, 3.0, 2.0), budget.used,
                         planner.rng.getstate(), dict(planner._docks)))
    assert runs[0] == runs[1]
    found = runs[0][0]
    assert found is not None and planner.out(found[1]) == 0


def _merge_costed_runs(board: amber_solver._Board, seed: int, setting: tuple[float, float, int], nodes: int,
                       merge_cost: float, ways: tuple[str, ...] = ("python", "loop", "core"), **pattern: Any
                       ) -> dict[str, list[tuple[Any, ...]]]:
    """``balance_search(..., merge_cost=...)`` in each of ``ways``: all in Python (``compiled.ON`` off), the Python
    loop (``_balance_search_py``) with the core's docks and children, and the core's whole search
    (``_balance_search_core``); each twice in a row on one planner (the second from the first one's caches): the
    gathering or None, the nearest position, the expansions, the random state after, the dock cache and kind memo."""
    from amber_patience.solvers import amber_pattern as ap

    python_search, core_search = ap._balance_search_py, ap._balance_search_core
    calls: list[str] = []

    def python(*args: Any) -> Any:
        calls.append("python")
        return python_search(*args)

    def core(*args: Any) -> Any:
        calls.append("core")
        return core_search(*args)

    def loop(planner: ap.PatternPlanner, start: bytes, movable: list[int], budget: amber_solver._Budget,
             imbalance_weight: float, weight: float, cap: int, best: dict[str, object] | None,
             merge_cost: float = 0.0) -> Any:
        calls.append("loop")
        return python_search(planner, start, movable, budget, imbalance_weight, weight, cap, best, False, merge_cost)

    imbalance_weight, weight, cap = setting
    runs = {}
    for way, on, compiled_search in (("python", False, core), ("loop", True, loop), ("core", True, core)):
        if way not in ways:
            continue
        planner = ap.PatternPlanner(board, get_game("pattern"), seed=seed)
        calls.clear()
        with _core(on, _balance_search_py=python, _balance_search_core=compiled_search, **pattern):
            run = []
            for _ in range(2):
                budget = amber_solver._Budget(None, nodes)
                near: dict[str, object] = {}
                found = ap.balance_search(planner, board.start, budget, imbalance_weight, weight, cap, near,
                                          merge_cost=merge_cost)
                run.append((found, near, budget.used, planner.rng.getstate(), dict(planner._docks),
                            dict(planner._kinds)))
        assert calls == [way, way]  # each way ran the search it names
        runs[way] = run
    return runs


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=30),
       seed=st.integers(min_value=1, max_value=10**6), merge_cost=st.sampled_from([1.0, 2.0, 4.0, 1.3]),
       setting=st.sampled_from([(3.0, 2.0, 300), (2.0, 3.0, 300), (12.0, 1.0, 30), (0.0, 2.0, 5), (2.5, 1.7, 300)]),
       nodes=st.sampled_from([1, 20, 150, 400]), docks=st.sampled_from([100, 1]))
def test_the_cores_merge_costed_balance_search_is_the_python_one(number: int, steps: int, seed: int,
                                                                 merge_cost: float, setting: tuple[float, float, int],
                                                                 nodes: int, docks: int) -> None:
    """Pattern of Amber's balance search with merges costed (``balance_search(..., merge_cost=...)``: the docked
    children dearer than weighed put back on the heap, the path costs and bounds) by the core and in Python, as
    :func:`_merge_costed_runs`: the same gathering or None, nearest position, expansions, random numbers drawn, dock
    cache and kind memo, all three ways. ``docks``: ``BALANCE_DOCKS`` (1 makes the limit bite). A merge cost of 1.3
    and weights 2.5 and 1.7 make keys that are not whole numbers, where the order of the float operations shows."""
    board = amber_solver._Board(_random_play(get_game("pattern").deal(number), steps, number))
    runs = _merge_costed_runs(board, seed, setting, nodes, merge_cost, BALANCE_DOCKS=docks)
    assert runs["python"] == runs["loop"] == runs["core"]
    assert runs["core"][0][2] > 0 and runs["core"][0][4]  # it expanded and docked


@pytest.mark.parametrize(("number", "merge_cost", "seed", "ends"), [
    (1, 1.0, 1, "gathered"), (3, 2.0, 2, "gathered"), (5, 4.0, 1, "gathered"), (7, 2.0, 2, "budget"),
    (9, 2.0, 2, "gathered"), (11, 1.0, 2, "docks")])
def test_the_cores_merge_costed_balance_search_is_the_python_one_on_fresh_deals(number: int, merge_cost: float,
                                                                                seed: int, ends: str) -> None:
    """The same, from fresh deals with a budget of 400 expansions: searches that gather, that use up the budget and
    that give up their docks first (``BALANCE_DOCKS`` x the budget; measured), alike; and merges costed change the
    search (not the same answer and nearest position as without)."""
    from amber_patience.solvers import amber_pattern as ap

    board = amber_solver._Board(get_game("pattern").deal(number))
    runs = _merge_costed_runs(board, seed, (3.0, 2.0, 300), 400, merge_cost)
    assert runs["python"] == runs["loop"] == runs["core"]
    found, near, used = runs["core"][0][:3]
    assert ends == ("gathered" if found is not None else "budget" if used == 400 else "docks")
    planner = ap.PatternPlanner(board, get_game("pattern"), seed=seed)
    plain: dict[str, object] = {}
    assert (ap.balance_search(planner, board.start, amber_solver._Budget(None, 400), 3.0, 2.0, best=plain),
            plain) != (found, near)


@pytest.mark.parametrize(("number", "seed", "imbalance_weight", "weight"), [
    (1, 1, 3.0, 2.0), (8, 2, 1.3, 2.9), (20, 1, 3.0, 2.0), (21, 1, 2.5, 1.7)])
def test_the_cores_merge_costed_keys_are_pythons_floats(number: int, seed: int, imbalance_weight: float,
                                                         weight: float) -> None:
    """A merge cost of 0.7 (and weights that are not whole numbers): keys and path costs that are not whole, so
    that another order of the float operations, in a node's cost (``(cost + 1) + merge_cost x merges``) or in a
    child's key (``(1 + weight x h) + cost``), rounds differently and changes the search. Measured: each of these
    searches is changed by one of those two (and the Python loop with the core's children, which makes the same
    keys, is the reference: quicker than all in Python)."""
    board = amber_solver._Board(get_game("pattern").deal(number))
    runs = _merge_costed_runs(board, seed, (imbalance_weight, weight, 300), 400, 0.7, ("loop", "core"))
    assert runs["loop"] == runs["core"]


def test_the_cores_balance_search_takes_the_old_limits_and_wants_goal_cells_for_a_merge_cost() -> None:
    """The core's ``balance_search`` with the thirteen limits of before (no merge cost) searches as with a merge cost
    of 0 and the goal cells; a merge cost without the goal cells, or with goal cells out of range, is refused."""
    from amber_patience.solvers import amber_pattern as ap

    assert compiled.native is not None
    game = get_game("pattern")
    board = amber_solver._Board(game.deal(4))
    movable = bytes(x for x in range(board.n) if board.start.index(x) not in board.frozen)
    limits = (2.0, 3.0, ap.KIND_CAP, 300, ap.BALANCE_END_CAP, ap.BALANCE_END_OUT, ap.BALANCE_REPEATS,
              ap.DOCK_PROOF_AFTER, ap.DOCKS_CACHE, 2000, 20, 0, None)
    answers = []
    for extra in ((), (0.0, bytes(board.target))):
        planner = ap.PatternPlanner(board, game, seed=3)
        answers.append(compiled.native.balance_search(
            planner._core_exchanger, planner._docks, planner._core_cards, movable, planner._kinds, board.start,
            limits + extra, planner.rng.getstate()[1]))
    assert answers[0] == answers[1] and answers[0][4] == 20
    planner = ap.PatternPlanner(board, game, seed=3)
    args = (planner._core_exchanger, planner._docks, planner._core_cards, movable, planner._kinds, board.start)
    with pytest.raises(TypeError, match="goal cells"):
        compiled.native.balance_search(*args, limits + (2.0,), planner.rng.getstate()[1])
    with pytest.raises(ValueError, match="out of range"):
        compiled.native.balance_search(*args, limits + (2.0, bytes([board.n]) * board.n), planner.rng.getstate()[1])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), steps=st.integers(min_value=0, max_value=40),
       seed=st.integers(min_value=0, max_value=10**6))
def test_the_cores_merge_dock_is_the_python_one(number: int, steps: int, seed: int) -> None:
    """The dock that counts merges (``PatternPlanner.merge_dock``: its search ``_merge_search_py`` and the core's
    ``_amber_core.merge_dock``) both ways, for random cards of random blocks of a position of random play, with
    and without a partner outside the block, and caps that find, stop and fall back on the ordinary dock: the
    same swaps and merges, or the same None."""
    from amber_patience.solvers import amber_pattern as ap

    game = get_game("pattern")
    board = amber_solver._Board(_random_play(game.deal(number), steps, number))
    rng = random.Random(seed)
    calls = []
    for _ in range(12):
        blk = rng.randrange(ap.BLOCKS)
        cells = [c for c in range(board.n) if board.block[c] == blk]
        stay, *wanted = (board.start[c] for c in rng.sample(cells, 1 + rng.randint(1, 2)))
        partner = rng.choice([None, rng.choice([c for c in range(board.n) if board.block[c] != blk])])
        calls.append((blk, stay, tuple(wanted), rng.choice([1, 3, 30, 300]), partner))
    runs = []
    for on in (False, True):
        planner = ap.PatternPlanner(board, game)
        with _core(on):
            runs.append([planner.merge_dock(board.start, blk, stay, wanted, cap, partner)
                         for blk, stay, wanted, cap, partner in calls])
    assert runs[0] == runs[1]
    for (blk, stay, _wanted, _cap, partner), made in zip(calls, runs[0], strict=True):
        if made is not None:  # the swaps are legal, and their merges those of the lower bound (with the partner's)
            at = bytearray(board.start)
            cells = [c for c in range(board.n) if board.block[c] == blk]
            swaps = [(cells[p], cells[q]) for p, q in made[0]]
            for p, q in swaps:
                assert board.legal_swap(at, p, q)
                at[p], at[q] = at[q], at[p]
            closing = [] if partner is None else [(at.index(stay), partner)]
            assert made[1] == ap.merges_of(board, board.start, swaps + closing)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=60), seed=st.integers(min_value=1, max_value=10**6))
def test_the_cores_regathering_is_the_python_one(number: int, seed: int) -> None:
    """A gathering found by the balance search made again with docks that count merges (``regather``) both ways:
    the same swaps, end position and counts."""
    from amber_patience.solvers import amber_pattern as ap

    game = get_game("pattern")
    assume(game.deal(number).lost_reason() is None)
    board = amber_solver._Board(game.deal(number))
    gathered = ap.balance_search(ap.PatternPlanner(board, game, seed=seed), board.start,
                                 amber_solver._Budget(None, 400))
    assume(gathered is not None)
    assert gathered is not None
    runs = []
    for on in (False, True):
        stats: dict[str, int] = {}
        with _core(on):
            runs.append((ap.regather(ap.PatternPlanner(board, game, seed=seed), board.start, gathered[0],
                                     stats=stats), stats))
    assert runs[0] == runs[1]
    assert runs[0][1].get("docked", 0) > 0


def test_the_cores_exchange_refuses_a_corrupt_dock_cache() -> None:
    """A dock cache entry whose swaps are not cells of the block (a bug elsewhere) is refused with a clear error by the
    core's exchange, not read out of bounds."""
    from amber_patience.solvers import amber_pattern as ap

    game = get_game("pattern")
    board = amber_solver._Board(game.deal(1))
    planner = ap.PatternPlanner(board, game)
    movable = [x for x in range(board.n) if board.start.index(x) not in board.frozen]
    exchanges = ap.set_exchanges(board, ap.card_blocks(board, board.start), movable)
    f, g = next((f, g) for f, _a, g, _b in exchanges if ap.dock_exchange(planner, board.start, f, g, 300))
    for key, (swaps, cap) in list(planner._docks.items()):
        if swaps is not None:  # every dock found (none, or swaps), now a swap of no cells of its block
            planner._docks[key] = (((99, 0),), cap)
    with _core(True), pytest.raises(ValueError, match="two cells of its block"):
        ap.dock_exchange(planner, board.start, f, g, 300)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), number=st.integers(min_value=1, max_value=10**6),
       steps=st.integers(min_value=2, max_value=120), seed=st.integers(min_value=0, max_value=10**6),
       cells=st.sampled_from([2, 4, 8, 14]), node_cap=st.sampled_from([5, 60, 300]),
       span=st.sampled_from([3, 40, 300]))
def test_the_cores_carried_swaps_are_the_python_ones(name: str, number: int, steps: int, seed: int, cells: int,
                                                     node_cap: int, span: int) -> None:
    """The shortening's carried swaps (``amber_shorten._carry``: a swap taken out and carried along a line until it
    cancels out; ``_carry_jump``, which jumps over the swaps far from it) by the core and by Python (``_carry_py``,
    ``_carry_jump_py``), from every swap of a line of random legal swaps (which
    cancel out often), with a shared record of the failed tries: the same rewrite or None, the same count of states,
    the same failed tries recorded; and every rewrite found replays legally to the same position."""

    board = amber_solver._Board(get_game(name).deal(number))
    path, _ = _random_swaps(board, random.Random(seed), steps)
    assume(len(path) >= 2)
    _carry_both_ways(board, path, range(len(path) - 1), node_cap, span, cells)


def _random_swaps(board: amber_solver._Board, rng: random.Random, steps: int) -> tuple[list[tuple[int, int]], bytes]:
    """Up to ``steps`` random legal swaps from the board's start (fewer where none is left), and the position after
    them."""
    path: list[tuple[int, int]] = []
    at = bytearray(board.start)
    pos = [0] * board.n
    for _ in range(steps):
        for cell, card in enumerate(at):
            pos[card] = cell
        moves = sorted(board.moves(list(at), pos))
        if not moves:
            break
        a, b = rng.choice(moves)
        path.append((a, b))
        at[a], at[b] = at[b], at[a]
    return path, bytes(at)


def _carry_both_ways(board: amber_solver._Board, path: list[tuple[int, int]], starts: Any, node_cap: int, span: int,
                     cells: int) -> int:
    """``_carry`` by the core and ``_carry_py`` from each swap of ``starts`` along ``path``, then ``_carry_jump`` and
    ``_carry_jump_py``, each with its own record of failed tries: the same answers, states and records; every
    rewrite legal and shorter. The rewrites found."""
    from amber_patience.solvers import amber_shorten as sh

    states = sh._states_along(board.start, path)
    played_ok = [board.legal_swap(states[t], a, b) for t, (a, b) in enumerate(path)]
    found = 0
    for jump in (False, True):
        failed_py: dict[tuple[object, ...], int] = {}
        failed_core: dict[tuple[object, ...], int] = {}
        for i in starts:
            if jump:
                python = sh._carry_jump_py(board, path, states, i, node_cap, span, cells, 30, failed_py)
                with _core(True):
                    core = sh._carry_jump(board, path, states, i, node_cap, span, cells, 30, failed_core)
            else:
                python = sh._carry_py(board, path, states, i, node_cap, span, cells, 30, failed_py, played_ok)
                with _core(True):
                    core = sh._carry(board, path, states, i, node_cap, span, cells, 30, failed_core, played_ok)
            assert core == python
            assert failed_core == failed_py
            assert python[1] > 0
            if python[0] is not None:
                found += 1
                k, sub = python[0]
                assert len(sub) < k - i and sh._replays(board, states[i], sub, states[k])
    return found


@pytest.mark.parametrize("name", ["arden", "kolvir", "path"])
def test_the_cores_carried_swaps_shorten_a_solvers_line_as_python_does(name: str) -> None:
    """The carried swaps along a line the solver found (before it is shortened), from every fourth swap, with the
    shortening's own settings: both ways alike, and some rewrites found."""
    from amber_patience.solvers import amber_shorten as sh

    position = get_game(name).deal(1)
    solution = amber_solver.solve(position, time_limit=None, shorten_first=0)
    board = amber_solver._Board(position)
    path = [(move.a, move.b) for move in solution.moves]
    assert _carry_both_ways(board, path, range(0, len(path) - 1, 4), sh.CARRY_NODES, sh.CARRY_SPAN,
                            sh.CARRY_CELLS) > 0


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(LAYOUTS), number=st.integers(min_value=1, max_value=10**6),
       steps=st.integers(min_value=0, max_value=150), seed=st.integers(min_value=0, max_value=10**6),
       cells=st.integers(min_value=2, max_value=12), played=st.booleans(), most=st.integers(min_value=-1, max_value=24),
       emit_nodes=st.sampled_from([5, 30, 150]))
def test_the_cores_emitted_swaps_are_the_python_ones(name: str, number: int, steps: int, seed: int, cells: int,
                                                     played: bool, most: int, emit_nodes: int) -> None:
    """The swaps that play a carried permutation at a position (``amber_shorten._emit``: one swap a cell while legal,
    else a re-join of its cells) by the core (``_amber_core.emit``, through ``_emit_any``) and by Python: the same
    swaps or None; the swaps legal, at most ``most``, and they make the permutation. The permutations: of cells near
    each other after random play, or (``played``) the one that ``cells`` random legal swaps make, ``most`` counted
    from their number."""
    from amber_patience.solvers import amber_shorten as sh

    board = amber_solver._Board(_random_play(get_game(name).deal(number), steps, seed))
    rng = random.Random(seed)
    cur = bytes(board.start)
    if played:
        _, at = _random_swaps(board, rng, cells)
        where = {card: cell for cell, card in enumerate(cur)}
        items = [(u, where[at[u]]) for u in range(board.n) if at[u] != cur[u]]
        most = cells + most % 3 - 1
    else:
        chosen = [rng.randrange(board.n)]
        while len(chosen) < cells:
            around = [t for c in chosen for t in board.adj[c] if t not in chosen]
            chosen.append(rng.choice(around) if around and rng.random() < 0.85 else rng.randrange(board.n))
            chosen = list(dict.fromkeys(chosen))
        moved = chosen[:]
        rng.shuffle(moved)
        items = [(u, v) for u, v in zip(chosen, moved, strict=True) if u != v]
    rng.shuffle(items)
    python = sh._emit(board, cur, dict(items), most, emit_nodes)
    with _core(True):
        core = sh._emit_any(board, cur, items, most, emit_nodes)
    assert core == python
    if python is not None:
        assert len(python) <= most
        goal = bytearray(cur)
        for u, v in items:
            goal[u] = cur[v]
        assert sh._replays(board, cur, python, bytes(goal))


def test_the_cores_emit_rejects_what_is_not_a_permutation() -> None:
    from amber_patience.solvers import amber_shorten as sh

    board = amber_solver._Board(get_game("arden").deal(1))
    native = compiled.native
    assert native is not None
    cur = bytes(board.start)
    for items in ([(0, 1)], [(0, 1), (1, 0), (2, 1)], [(0, 0)], [(0, board.n)]):
        with pytest.raises(ValueError):
            native.emit(sh._carry_board(board), cur, items, 10, 30)
    with pytest.raises(ValueError):
        native.emit(sh._carry_board(board), cur[:-1], [(0, 1), (1, 0)], 10, 30)
    assert native.emit(sh._carry_board(board), cur, [], 10, 30) == sh._emit(board, cur, {}, 10, 30) == []
