"""Pattern of Amber's planner (``solvers/amber_pattern.py``): the kind plan, the invariant prune,
the rank potential, the moves inside a block, the docking searches and the balance search's
exchanges between blocks, each checked against the rules engine; and the planner winning positions
near the goal and a fresh deal (through ``solvers.solve``, so replayed).

Budgets are node limits, so results do not depend on the machine's speed.
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.cards import Card
from amber_patience.games import get_game
from amber_patience.games.amber import AmberGame, AmberPosition, Swap
from amber_patience.solvers import amber as amber_patience_amber
from amber_patience.solvers import amber_pattern, replay, solve
from amber_patience.solvers.amber import _Board, _Budget
from amber_patience.solvers.amber_pattern import (
    BALANCE_PORTFOLIO,
    BLOCKS,
    END_NODES,
    END_OUT,
    GROWTH,
    KINDS,
    RACE_PORTFOLIO,
    Exchange,
    PatternPlanner,
    _attempts,
    _exchanges,
    balance_search,
    card_blocks,
    dock_exchange,
    dock_key,
    end_game,
    exchange,
    exchanges_of,
    exits_ok,
    foreign,
    guided_dive,
    home_kinds,
    imbalance,
    imbalance_after,
    kind_matrix,
    kind_plan,
    kind_refused,
    kind_solvable,
    reach_masks,
    set_exchanges,
    spread_tables,
)
from test_amber_solver import _random_play

GAME: AmberGame = get_game("pattern")  # type: ignore[assignment]
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _deal(number: int) -> AmberPosition:
    while True:
        position = GAME.deal(number)
        if not position.stranded_kinds():
            return position
        number += 1


def _happy(cards: Sequence[Card], cell: int) -> bool:
    wanted = GAME.deck.neighbours(cards[cell])
    return any(cards[n] in wanted for n in GAME.adjacent[cell])


def _near_goal(deal: int, steps: int, seed: int) -> AmberPosition:
    """A position ``steps`` legal swaps before the goal: swaps back from the goal of two cards
    that each touch a rank-neighbour (so the forward swap is legal), never stranding a kind."""
    start = _deal(deal)
    rng = random.Random(seed)
    cards = list(start.goal)
    movable = [c for c in range(len(cards)) if c not in start.start_cells]
    done = 0
    for _ in range(100_000):
        if done == steps:
            break
        a, b = rng.sample(movable, 2)
        if not (_happy(cards, a) and _happy(cards, b)):
            continue
        cards[a], cards[b] = cards[b], cards[a]
        position = AmberPosition(GAME, tuple(cards), start.start_cells, None, {})
        if GAME.swap_problem(cards, start.start_cells, a, b) is None and not position.stranded_kinds():
            done += 1
        else:
            cards[a], cards[b] = cards[b], cards[a]
    assert done == steps, f"only {done} swaps back from the goal of deal {deal} could be made"
    return AmberPosition(GAME, tuple(cards), start.start_cells, None, {})


# -- the kind level ---------------------------------------------------------------------------------


def _reached(position: AmberPosition, path: list[tuple[int, int]]) -> bytes:
    """The cards in every cell after ``path`` (cell pairs) is played by the rules engine from ``position``."""
    return bytes(_Board(replay(position, [Swap(p, q) for p, q in path])).start)


def test_kind_matrix_counts_every_card_once() -> None:
    position = _deal(1)
    board = _Board(position)
    m = kind_matrix(board, board.start)
    assert sum(m) == 77
    for block, cells in enumerate(PatternPlanner(board, GAME).blocks):
        assert sum(m[block * KINDS:(block + 1) * KINDS]) == len(cells)
    trumps = sum(m[b * KINDS + 4] for b in range(5))
    assert trumps == 21


@SETTINGS
@given(st.integers(1, 2000))
def test_a_kind_plan_exists_for_a_fresh_deal_and_every_step_is_a_legal_exchange(number: int) -> None:
    position = _deal(number)
    board = _Board(position)
    home = home_kinds(board)
    m = kind_matrix(board, board.start)
    # the default cap (3000 states) gives up on a few deals (395, 884, 1216, 1577 of 1-2000 not stranded); each
    # has a plan within 100,000 (a scan of 1-2000, ninth session)
    plan = kind_plan(m, home, cap=100_000)
    assert isinstance(plan, list), f"deal {position.deal_number}: no kind plan ({plan})"
    for step in plan:
        after = exchange(m, step)
        assert after is not None, f"exchange {step} is impossible at the kind level"
        a, k1, b, k2 = step
        # both blocks held both kinds: each moved card lands beside a card of its kind
        assert m[a * KINDS + k2] and m[b * KINDS + k1]
        m = after
        assert all(m[blk * KINDS + home[blk]] for blk in range(5)), "a block lost its goal kind"
    assert foreign(m, home) == 0


def test_a_block_holding_a_kind_no_partner_shares_has_no_kind_plan() -> None:
    # top-left (home kind 0) holds kind 1 as well, and no other block holds kind 1 and kind 0:
    # the kind-1 cards can never leave it
    home = [0, 1, 4, 3, 2]
    m = [0] * 25
    m[0 * 5 + 0], m[0 * 5 + 1] = 12, 2
    m[1 * 5 + 1], m[1 * 5 + 0] = 12, 2
    m[2 * 5 + 4] = 21
    m[3 * 5 + 3] = 14
    m[4 * 5 + 2] = 14
    # top-right holds kind 0 and kind 1: a mutual exchange, so this one has a plan
    assert isinstance(kind_plan(tuple(m), home), list)
    m[1 * 5 + 0], m[1 * 5 + 4] = 0, 2  # top-right's kind-0 cards become trumps
    m[2 * 5 + 4], m[2 * 5 + 0] = 19, 2
    assert not exits_ok(tuple(m), home)
    assert kind_plan(tuple(m), home) is False


def _cross_swaps(position: AmberPosition) -> list[Swap]:
    return [s for s in position.legal_moves()
            if isinstance(s, Swap) and GAME.cells[s.a].block != GAME.cells[s.b].block]


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 40), st.integers(0, 10 ** 6))
def test_the_invariant_prune_refuses_only_what_strands_a_kind(number: int, steps: int, seed: int) -> None:
    position = _random_play(_deal(number), steps, seed)
    if position.stranded_kinds():
        return
    board = _Board(position)
    home = home_kinds(board)
    m = kind_matrix(board, board.start)
    memo: dict[tuple[int, ...], bool | None] = {}
    for swap in _cross_swaps(position):
        a, b = board.block[swap.a], board.block[swap.b]
        x, y = board.start[swap.a], board.start[swap.b]
        kx, ky = board.group[x], board.group[y]
        refused = kind_refused(m, home, memo, a, kx, b, ky)
        after = position.play(swap)
        after_m = kind_matrix(board, _Board(after).start)
        kept = all(after_m[i] or not m[i] for i in range(25))
        if kept:
            assert not refused, f"{swap} keeps every kind but is refused"
        if after.stranded_kinds():
            assert refused, f"{swap} strands {after.stranded_kinds()} but is not refused"
        if refused and not after.stranded_kinds():
            assert kind_plan(after_m, home) is False, f"{swap} refused although a kind plan exists"


# -- inside a block, and between blocks ------------------------------------------------------------


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 60), st.integers(0, 10 ** 6))
def test_moves_inside_a_block_are_the_rules_engine_s(number: int, steps: int, seed: int) -> None:
    position = _random_play(_deal(number), steps, seed)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    legal = set(position.legal_moves())
    for blk, cells in enumerate(planner.blocks):
        cont = tuple(board.start[c] for c in cells)
        mine = {Swap(cells[p], cells[q]) for p, q in planner.block_moves(blk, cont)}
        engine = {s for s in legal if isinstance(s, Swap) and s.a in cells and s.b in cells}
        assert mine == engine, f"block {GAME.blocks[blk]}"


# -- the planner ---------------------------------------------------------------------------------


def test_the_planner_wins_positions_near_the_goal() -> None:
    for deal, steps, seed in ((1, 10, 0), (2, 20, 1)):
        position = _near_goal(deal, steps, seed)
        assert not position.is_won()
        solution = solve(position, time_limit=None, node_limit=20_000)  # replayed by the rules engine
        assert solution.status == "won", (deal, steps, seed, solution.stats)
        assert len(solution.moves) <= 2 * steps


def test_a_fresh_deal_is_not_claimed_won_or_lost_when_the_search_stalls() -> None:
    position = _deal(2)
    solution = solve(position, time_limit=None, node_limit=15)
    assert solution.status in ("won", "unknown")
    if solution.status == "unknown":
        assert solution.moves == []


# -- the rank potential, and docking -------------------------------------------------------------


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 80), st.integers(0, 10 ** 6))
def test_the_rank_potential_falls_along_the_chain_and_is_zero_only_at_home(number: int, steps: int, seed: int) -> None:
    position = _random_play(_deal(number), steps, seed)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    at = board.start
    out = planner.out(at)
    potential = planner.potential(at)
    assert potential >= out, "every card outside its home block costs at least 1"
    assert (potential == 0) == (out == 0)
    for k in range(KINDS):
        size = planner.size[k]
        assert size == (21 if k == 4 else 14)
        full = (1 << size) - 1
        assert planner.kind_potential(k, full) == 0
        present = 0
        for x in range(board.n):
            if board.group[x] == k and board.block[board.target[x]] == board.block[at.index(x)]:
                present |= 1 << planner.rank[x]
        if present in (0, full):
            continue
        before = planner.kind_potential(k, present)
        for r in range(size):
            if present >> r & 1:
                continue
            after = planner.kind_potential(k, present | 1 << r)
            assert after < before, "bringing a card home never raises the potential"
            beside = present >> ((r + 1) % size) & 1 or present >> ((r - 1) % size) & 1
            if beside:
                assert before - after >= 1


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 60), st.integers(0, 10 ** 6), st.integers(0, 4), st.integers(0, 10 ** 6))
def test_docking_swaps_are_legal_and_bring_a_wanted_card_beside_the_card(
        number: int, steps: int, seed: int, blk: int, pick: int) -> None:
    position = _random_play(_deal(number), steps, seed)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    cells = planner.blocks[blk]
    cont = tuple(board.start[c] for c in cells)
    rng = random.Random(pick)
    stay = rng.choice(cont)
    wanted = rng.sample(cont, 2)
    prep = planner.dock(blk, cont, stay, wanted, cap=200)
    if prep is None:
        return
    replayed = position
    for p, q in prep:
        replayed = replayed.play(Swap(cells[p], cells[q]))  # raises IllegalMoveError if not legal
    after = _Board(replayed).start
    at_stay = cells[[after[c] for c in cells].index(stay)]
    assert any(after[n] in wanted for n in board.adj[at_stay]), "no wanted card touches the card"
    assert all(board.block[c] == blk for pair in prep for c in (cells[pair[0]], cells[pair[1]]))


def test_the_planner_gathers_a_fresh_deal_and_the_solver_wins_it() -> None:
    position = GAME.deal(7)  # won by the first balance search at 119 nodes when this was written
    assert not position.stranded_kinds()
    solution = solve(position, time_limit=None, node_limit=2000)  # replayed by the rules engine
    assert solution.status == "won", solution.stats
    assert solution.stats["length"] >= position.lower_bound()


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 200), st.integers(0, 10 ** 6), st.integers(0, 4), st.integers(0, 10 ** 6))
def test_the_quick_docking_test_refuses_only_docks_the_search_cannot_find(
        number: int, steps: int, seed: int, blk: int, pick: int) -> None:
    position = _random_play(_deal(number), steps, seed)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    cont = tuple(board.start[c] for c in planner.blocks[blk])
    rng = random.Random(pick)
    for _ in range(6):
        stay = rng.choice(cont)
        wanted = rng.sample(cont, 2)
        docked = any(cont[n] in wanted for n in planner.adj[blk][cont.index(stay)])
        if docked or planner._may_dock(blk, cont, stay, wanted):
            continue
        assert planner.dock(blk, cont, stay, wanted, cap=500) is None
        searching = PatternPlanner(board, GAME)
        searching._may_dock = lambda *args: True  # type: ignore[method-assign]
        assert searching.dock(blk, cont, stay, wanted, cap=500) is None, "the quick test refused a dock"


@SETTINGS
@given(st.integers(1, 2000), st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4),
                                                st.integers(0, 4)), min_size=1, max_size=40))
def test_kind_solvable_with_a_shared_memo_agrees_with_the_kind_plan(number: int, steps: list[Exchange]) -> None:
    # random kind-level exchanges from a deal's matrix (each legal at the kind level), asking at every
    # step with one memo: a memo answer (solvable / not) must be the plan search's own answer
    position = _deal(number)
    board = _Board(position)
    home = home_kinds(board)
    m = kind_matrix(board, board.start)
    memo: dict[tuple[int, ...], bool | None] = {}
    for step in steps:
        after = exchange(m, step)
        if after is None:
            continue
        m = after
        known = kind_solvable(m, home, memo, 300)
        plan = kind_plan(m, home)
        if known is not None and plan is not None:
            assert known == (plan is not False), (known, plan)
        if plan is False:
            assert known is not True


# -- the balance search ----------------------------------------------------------------------------


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 80), st.integers(0, 10 ** 6))
def test_every_legal_swap_across_blocks_is_an_exchange_the_sets_allow(number: int, steps: int, seed: int) -> None:
    position = _random_play(_deal(number), steps, seed)
    board = _Board(position)
    at = board.start
    loc = card_blocks(board, at)
    assert all(board.block[cell] == loc[card] for cell, card in enumerate(at))
    movable = [x for x in range(board.n) if x not in {at[c] for c in board.frozen}]
    allowed = {(f, g) for f, _a, g, _b in set_exchanges(board, loc, movable)}
    crossing = [s for s in position.legal_moves() if isinstance(s, Swap) and board.block[s.a] != board.block[s.b]]
    for s in crossing:
        f, g = at[s.a], at[s.b]
        assert (f, g) in allowed and (g, f) in allowed, f"legal swap {s} is not allowed at the level of sets"
    for f, a, g, b in set_exchanges(board, loc, movable):
        assert loc[f] == a != b == loc[g]
        assert any(loc[w] == b and w != g for w in board.nb[f])
        assert any(loc[w] == a and w != f for w in board.nb[g])


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 80), st.integers(0, 10 ** 6), st.integers(0, 10 ** 6))
def test_every_docked_set_exchange_replays_and_trades_the_two_cards_blocks(
        number: int, steps: int, seed: int, pick: int) -> None:
    position = _random_play(_deal(number), steps, seed)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    at = board.start
    loc = card_blocks(board, at)
    movable = [x for x in range(board.n) if x not in {at[c] for c in board.frozen}]
    candidates = list(set_exchanges(board, loc, movable))
    random.Random(pick).shuffle(candidates)
    for f, a, g, b in candidates[:12]:
        done = dock_exchange(planner, at, f, g, 100)
        if done is None:
            continue
        swaps, end = done
        assert _reached(position, swaps) == end  # SolutionError if a swap is illegal
        after = card_blocks(board, end)
        assert after[f] == b and after[g] == a
        assert all(after[x] == loc[x] for x in range(board.n) if x not in (f, g)), "only f and g change block"


def test_the_imbalance_counts_what_two_blocks_owe_each_other_unequally() -> None:
    flat = [[0] * 5 for _ in range(5)]
    assert imbalance(flat) == 0
    flat[0][1] = 3
    flat[1][0] = 1
    flat[2][4] = 2
    assert imbalance(flat) == 2 + 2
    flat[4][2] = 2
    assert imbalance(flat) == 2
    position = _deal(1)
    board = _Board(position)
    goal = bytes(board.goal)
    transport = [[0] * 5 for _ in range(5)]
    planner = PatternPlanner(board, GAME)
    for cell, card in enumerate(goal):
        transport[board.block[cell]][planner.home_block[card]] += 1
    assert imbalance(transport) == 0


def test_the_balance_search_gathers_a_fresh_deal_with_legal_swaps() -> None:
    position = GAME.deal(7)
    assert not position.stranded_kinds()
    board = _Board(position)
    _assert_gathers(position, board, 1, 300, 3.0, 2.0, "deal 7 gathered in 58 expansions when this test was written")


def _assert_gathers(position: AmberPosition, board: _Board, seed: int, nodes: int, imbalance_weight: float,
                    weight: float, why: str) -> None:
    """A balance search with this setting gathers ``position`` within ``nodes`` expansions, by legal swaps."""
    planner = PatternPlanner(board, GAME, seed=seed)
    budget = _Budget(None, nodes)
    found = balance_search(planner, board.start, budget, imbalance_weight, weight)
    assert found is not None, why
    path, end = found
    assert _reached(position, path) == end  # SolutionError if a swap is illegal
    assert planner.out(end) == 0
    assert 0 < budget.used <= nodes


def _stalled(board: _Board, seed: int, nodes: int) -> tuple[PatternPlanner, dict[str, object]]:
    """A balance search of the first setting (3:2) that does not gather within ``nodes`` expansions: its
    planner, and what it reports of its nearest position."""
    planner = PatternPlanner(board, GAME, seed=seed)
    near: dict[str, object] = {}
    assert balance_search(planner, board.start, _Budget(None, nodes), 3.0, 2.0, best=near) is None
    return planner, near


def test_the_balance_search_reports_its_nearest_position_when_the_budget_runs_out() -> None:
    position = GAME.deal(7)
    board = _Board(position)
    planner, near = _stalled(board, 1, 5)
    at, path = near["at"], near["path"]
    assert isinstance(at, bytes) and isinstance(path, list)
    assert planner.out(at) < planner.out(board.start)
    assert _reached(position, path) == at  # SolutionError if a swap is illegal


def test_the_portfolio_goes_round_the_balance_settings_with_growing_budgets_and_new_seeds() -> None:
    first = list(itertools.islice(_attempts(), 2 * len(BALANCE_PORTFOLIO)))
    one, two = first[:len(BALANCE_PORTFOLIO)], first[len(BALANCE_PORTFOLIO):]
    assert [(imb, w) for imb, w, _s, _b in one] == [(imb, w) for imb, w, _s, _b in BALANCE_PORTFOLIO]
    for (_i, _w, seed1, budget1), (_i2, _w2, seed2, budget2) in zip(one, two, strict=True):
        assert seed2 != seed1
        assert budget2 > budget1


def test_the_end_game_gathers_from_where_a_balance_search_stalled() -> None:
    position = GAME.deal(13)
    board = _Board(position)
    planner, near = _stalled(board, 1, 35)
    stalled, before = near["at"], near["path"]
    assert isinstance(stalled, bytes) and isinstance(before, list)
    assert 0 < planner.out(stalled) <= END_OUT  # 12 out when this test was written
    budget = _Budget(None, 400)
    found = end_game(planner, near, budget, 3.0, 2.0, 1)
    assert found is not None, "gathered in 22 expansions when this test was written"
    path, end = found
    assert path[:len(before)] == before, "the end game goes on from the stalled search's path"
    assert _reached(position, path) == end  # SolutionError if a swap is illegal
    assert planner.out(end) == 0
    assert 0 < budget.used <= END_NODES


def test_the_end_game_leaves_a_search_that_stalled_far_from_the_goal_alone() -> None:
    position = GAME.deal(13)
    board = _Board(position)
    planner = PatternPlanner(board, GAME, seed=1)
    assert planner.out(board.start) > END_OUT
    budget = _Budget(None, 400)
    assert end_game(planner, {"at": bytes(board.start), "path": []}, budget, 3.0, 2.0, 1) is None
    assert budget.used == 0


# --- seventh session: cheaper docks ---


def _grid_masks(rows: int, columns: int) -> list[int]:
    """The local adjacency (bit masks) of a rows x columns block, cells numbered row by row."""
    masks = []
    for r in range(rows):
        for c in range(columns):
            near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            masks.append(sum(1 << (rr * columns + cc) for rr, cc in near if 0 <= rr < rows and 0 <= cc < columns))
    return masks


def _small_block_swaps(masks: list[int], frozen: list[bool], nb: list[tuple[int, int]], cont: tuple[int, ...]
                       ) -> list[tuple[int, ...]]:
    """The contents after every legal swap inside a small block, by the rules (each of the two moved cards
    touches a rank-neighbour after the swap; start cells never move): written from the rules, not the solver."""
    children = []
    for i, k in itertools.combinations(range(len(cont)), 2):
        if frozen[i] or frozen[k]:
            continue
        after = list(cont)
        after[i], after[k] = after[k], after[i]
        if all(any(masks[c] >> d & 1 and after[d] in nb[after[c]] for d in range(len(cont))) for c in (i, k)):
            children.append(tuple(after))
    return children


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(2, 3), (3, 2), (1, 6), (1, 7)]), st.integers(2, 4), st.booleans(),
       st.integers(0, 10 ** 6))
def test_reach_masks_hold_every_place_a_card_reaches_in_a_small_block(
        shape: tuple[int, int], kinds: int, start_cell: bool, seed: int) -> None:
    # random contents of a small block (at most 7 cells) from a deck of `kinds` kinds of 5 ranks: every content
    # reachable by legal swaps (all of them, searched to the end) has each card inside the mask reach_masks gave
    # its first cell
    rows, columns = shape
    masks = _grid_masks(rows, columns)
    size = 5
    nb = [(k * size + (r - 1) % size, k * size + (r + 1) % size) for k in range(kinds) for r in range(size)]
    rng = random.Random(seed)
    cont = tuple(rng.sample(range(kinds * size), min(rows * columns, kinds * size)))
    masks = masks[:len(cont)]
    frozen = [start_cell and i == 0 for i in range(len(cont))]
    reach = reach_masks(spread_tables(masks), frozen, cont, nb)
    first = {x: i for i, x in enumerate(cont)}
    seen = {cont}
    todo = [cont]
    while todo:
        cur = todo.pop()
        for i, x in enumerate(cur):
            assert reach[first[x]] >> i & 1, f"card {x} reached cell {i}, outside its mask {reach[first[x]]:b}"
        for child in _small_block_swaps(masks, frozen, nb, cur):
            if child not in seen:
                seen.add(child)
                todo.append(child)


def test_spread_tables_give_the_cells_touching_a_set_of_cells() -> None:
    planner = PatternPlanner(_Board(_deal(1)), GAME)
    rng = random.Random(5)
    for blk, masks in enumerate(planner.mask):
        t0, t1, t2 = planner.spread[blk]
        for _ in range(200):
            cells = rng.getrandbits(len(masks))
            touching = 0
            for c in range(len(masks)):
                if cells >> c & 1:
                    touching |= masks[c]
            assert t0[cells & 127] | t1[cells >> 7 & 127] | t2[cells >> 14] == touching
    try:
        spread_tables([0] * 22)
    except ValueError as exc:
        assert "at most 21 cells" in str(exc)
    else:
        raise AssertionError("a block of 22 cells was accepted")


def _block_contents(planner: PatternPlanner, blk: int, cont: tuple[int, ...], cap: int) -> set[bytes]:
    """The block's contents reachable by the planner's moves inside it (at most about ``cap``)."""
    seen = {bytes(cont)}
    todo = [bytes(cont)]
    while todo and len(seen) < cap:
        cur = todo.pop()
        for i, k in planner.block_moves(blk, cur):
            child = bytearray(cur)
            child[i], child[k] = child[k], child[i]
            if bytes(child) not in seen:
                seen.add(bytes(child))
                todo.append(bytes(child))
    return seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 2000), st.integers(0, 4), st.integers(0, 10 ** 6))
def test_a_dock_the_proof_refuses_has_no_solution(number: int, blk: int, seed: int) -> None:
    # random contents of a real block (cards drawn from the whole deck, so that some have rank-neighbours in it
    # and most not, as in the blocks where the docks fail): the contents reachable by the moves inside the block
    # keep every card in its reach mask, and a dock the proof refuses is never docked in any of them
    board = _Board(_deal(number))
    planner = PatternPlanner(board, GAME)
    cells = planner.blocks[blk]
    rng = random.Random(seed)
    cont = tuple(rng.sample(range(board.n), len(cells)))
    reach = reach_masks(planner.spread[blk], planner.frozen[blk], cont, board.nb)
    contents = _block_contents(planner, blk, cont, 3000)
    for content in contents:
        assert all(reach[cont.index(x)] >> i & 1 for i, x in enumerate(content))
    for _ in range(20):
        stay = rng.choice(cont)
        wanted = rng.sample(cont, 2)
        if stay in wanted or not planner._never_docks(blk, cont, stay, wanted):
            continue
        for content in contents:
            where = content.index(stay)
            assert not any(content[n] in wanted for n in planner.adj[blk][where])
        searching = PatternPlanner(board, GAME)
        searching._never_docks = lambda *args: False  # type: ignore[method-assign]
        assert searching.dock(blk, cont, stay, wanted, cap=300) is None


def test_the_proof_refuses_a_dock_whose_wanted_card_is_walled_in() -> None:
    # the centre: a trump in its bottom-left corner whose only neighbour in the block is the start card, both
    # cells beside the start card holding cards with no neighbour there; the card to dock and its neighbour at
    # the other end can swap, so the quick test lets the dock through, but the trump can never move
    board = _Board(_deal(1))
    planner = PatternPlanner(board, GAME)
    centre = GAME.blocks.index("centre")
    assert planner.frozen[centre][0] and len(planner.blocks[centre]) == 21
    by_rank = {(planner.kind[x], planner.rank[x]): x for x in range(board.n)}
    anchor, walled = by_rank[(4, 10)], by_rank[(4, 9)]
    stay, partner = by_rank[(0, 3)], by_rank[(0, 4)]
    # no two of these are rank-neighbours, nor of the four above
    loners = iter([by_rank[(k, r)] for k in range(4) for r in (7, 9, 11, 13)] + [by_rank[(4, 0)]])
    special = {0: anchor, 14: walled, 5: partner, 6: stay}
    cont = tuple(special[i] if i in special else next(loners) for i in range(21))
    assert len(set(cont)) == 21
    assert planner._may_dock(centre, cont, stay, [walled])
    assert planner._never_docks(centre, cont, stay, [walled])
    contents = _block_contents(planner, centre, cont, 10_000)
    assert len(contents) == 2  # the pair's swap and back: searched to the end
    assert planner.dock(centre, cont, stay, [walled], cap=300) is None


def _exits_reference(m: tuple[int, ...], home: Sequence[int]) -> bool:
    """``exits_ok`` from its definition, with sets of kinds."""
    held = [{k for k in range(KINDS) if m[a * KINDS + k]} for a in range(BLOCKS)]
    return all(home[a] in held[a] and all(any(b != a and k in held[b] and (held[a] & held[b]) - {k}
                                              for b in range(BLOCKS)) for k in held[a] - {home[a]})
               for a in range(BLOCKS))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=BLOCKS * KINDS, max_size=BLOCKS * KINDS), st.permutations(range(KINDS)))
def test_exits_ok_and_the_kind_exchanges_follow_their_definitions(counts: list[int], home: list[int]) -> None:
    # the bit-mask versions against the definitions: the same answers, and the same exchanges in the same order
    # (the kind searches' memo depends on the order in which the exchanges come)
    m = tuple(counts)
    assert exits_ok(m, home) == _exits_reference(m, home)
    expected = []
    for a, b in itertools.combinations(range(BLOCKS), 2):
        for k1, k2 in itertools.product(range(KINDS), repeat=2):
            after = exchange(m, (a, k1, b, k2))
            if after is None:
                continue
            if (not after[a * KINDS + k1] or not after[b * KINDS + k2]) and not _exits_reference(after, home):
                continue
            gain = (k1 == home[b]) + (k2 == home[a]) - (k1 == home[a]) - (k2 == home[b])
            expected.append((gain, (a, k1, b, k2), after))
    assert list(_exchanges(m, home)) == expected


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 4), st.integers(0, 10 ** 6))
def test_moves_made_from_the_linked_cells_are_the_same_moves_in_the_same_order(number: int, blk: int,
                                                                               seed: int) -> None:
    # a block of random cards: the moves made from the cells whose card has a rank-neighbour there (as the docks
    # make them) are the moves made from every cell, iterated in the same order (the docks' tie-breaks)
    board = _Board(_deal(number))
    rng = random.Random(seed)
    planner, fresh = PatternPlanner(board, GAME), PatternPlanner(board, GAME)
    cont = tuple(rng.sample(range(board.n), len(planner.blocks[blk])))
    linked = planner.linked_cells(cont)
    for i, x in enumerate(cont):
        assert (i in linked) == any(m in cont for m in board.nb[x])
    assert list(planner.block_moves(blk, cont, linked)) == list(fresh.block_moves(blk, cont))
    for i, k in list(planner.block_moves(blk, cont, linked))[:5]:
        after = list(cont)
        after[i], after[k] = after[k], after[i]
        assert list(planner.block_moves(blk, after, linked)) == list(fresh.block_moves(blk, after))

# --- seventh session: the search ---


def test_a_heavy_imbalance_weight_gathers_deal_17_where_the_first_setting_stalls_far_out() -> None:
    # deal 17's set-level trap: three blocks owe each other cards round a 3-cycle, and no two of them can
    # trade directly; the first setting (3:2) stalls far from the goal, too far for the end game
    position = GAME.deal(17)
    board = _Board(position)
    stalled, near = _stalled(board, 1, 150)
    assert isinstance(near["at"], bytes) and stalled.out(near["at"]) > END_OUT  # 26 out when this was written
    _assert_gathers(position, board, 2, 150, 10.0, 1.0, "gathered in 61 expansions when this test was written")


def test_the_race_portfolios_keep_the_six_settings_first_and_end_with_a_heavy_one() -> None:
    settings = [(imb, w) for imb, w, _s, _b in BALANCE_PORTFOLIO]
    theirs = [(imb, w) for imb, w, _s, _b in RACE_PORTFOLIO]
    # the six settings of before first (the race's from the fourth on), so that the deals they win are won as
    # before; then each portfolio's heavy imbalance setting (the one that gathers deal 17)
    assert theirs[:6] == settings[3:6] + settings[:3]
    assert all(w > 1.0 and imb <= 6 for imb, w in settings[:6])
    assert [(imb, w) for imb, w in settings[6:]] == [(12.0, 1.0)] and theirs[6:] == [(10.0, 1.0)]
    assert RACE_PORTFOLIO[6][2] == 2  # the seed with which 10:1 gathers deal 17 (the test above)
    # other seeds than the first portfolio's
    assert not {s for _i, _w, s, _b in BALANCE_PORTFOLIO[:6]} & {s for _i, _w, s, _b in RACE_PORTFOLIO[:6]}
    # the race's portfolio goes round its own settings too, with growing budgets
    rounds = list(itertools.islice(_attempts(RACE_PORTFOLIO), 3 * len(RACE_PORTFOLIO)))
    for i, (imb, w, _seed, budget) in enumerate(rounds):
        assert (imb, w) == theirs[i % len(theirs)]
        assert budget == int(RACE_PORTFOLIO[i % len(RACE_PORTFOLIO)][3] * GROWTH ** (i // len(RACE_PORTFOLIO)))


# --- eighth session: the slow deals ---


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 40))
def test_an_exchange_whose_second_dock_is_known_to_fail_answers_as_it_did_without_the_check(number: int,
                                                                                        steps: int) -> None:
    # every exchange the sets allow in a real position, docked in the planner's order with a shared cache: the
    # check of the second block's cache first (no dock of the first block's side then) gives the same answer
    # as docking both sides, and a dock it says fails fails in a fresh planner too
    position = _random_play(_deal(number), steps, number)
    board = _Board(position)
    at = bytes(board.start)
    planner, plain = PatternPlanner(board, GAME), PatternPlanner(board, GAME)
    plain.known_to_fail = lambda *args: False  # type: ignore[method-assign]
    fixed = {board.start[c] for c in board.frozen}
    movable = [x for x in range(board.n) if x not in fixed]
    checked = 0
    for f, _a, g, b in set_exchanges(board, card_blocks(board, at), movable):
        cont_b = tuple(at[c] for c in planner.blocks[b])
        wanted = [w for w in board.nb[f] if w != g]
        if planner.known_to_fail(b, cont_b, g, wanted, 40):
            checked += 1
            assert PatternPlanner(board, GAME).dock(b, cont_b, g, wanted, cap=40) is None
        assert dock_exchange(planner, at, f, g, 40) == dock_exchange(plain, at, f, g, 40)
    assert checked or not list(set_exchanges(board, card_blocks(board, at), movable))


def test_the_moves_cache_is_bounded_keeps_what_is_used_and_gives_the_same_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a generation of 7 entries: never more than 14 kept; a content asked for again and again stays, one asked
    # for once is dropped after two generations; every answer the moves made afresh, in the same order
    monkeypatch.setattr(amber_pattern, "MOVES_CACHE", 7)
    board = _Board(_deal(1))
    planner = PatternPlanner(board, GAME)
    blk = GAME.blocks.index("top-left")
    start = tuple(board.start[c] for c in planner.blocks[blk])
    contents = sorted(_block_contents(planner, blk, start, 200))[:60]
    assert len(contents) == 60  # deal 1's top-left block: 202 contents within reach when this was written
    planner._moves = [{}, {}]
    hot, once = contents[0], contents[1]
    planner.block_moves(blk, once)
    for content in contents[2:]:
        moves = planner.block_moves(blk, content)
        assert list(moves) == list(planner._make_moves(blk, content, None))
        assert planner.block_moves(blk, hot) == planner._make_moves(blk, hot, None)
        assert sum(len(generation) for generation in planner._moves) <= 14
        assert any((blk, hot) in generation for generation in planner._moves)
    assert not any((blk, once) in generation for generation in planner._moves)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=BLOCKS * BLOCKS, max_size=BLOCKS * BLOCKS),
       st.integers(0, BLOCKS - 1), st.integers(0, BLOCKS - 1), st.integers(0, BLOCKS - 1), st.integers(0, BLOCKS - 1))
def test_the_imbalance_after_an_exchange_is_the_imbalance_of_the_matrix_after_it(counts: list[int], a: int, b: int,
                                                                                 hf: int, hg: int) -> None:
    # the balance search's children: the imbalance from the pairs the exchange changes against the whole sum over
    # the matrix after it (a card of block a, home hf, for one of block b, home hg; each entry it takes from >= 1)
    transport = [counts[row * BLOCKS:(row + 1) * BLOCKS] for row in range(BLOCKS)]
    if a == b:
        b = (a + 1) % BLOCKS
    transport[a][hf] += 1
    transport[b][hg] += 1
    after = [row[:] for row in transport]
    after[a][hf] -= 1
    after[b][hf] += 1
    after[b][hg] -= 1
    after[a][hg] += 1
    assert imbalance_after(transport, imbalance(transport), a, b, hf, hg) == imbalance(after)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 2000), st.integers(0, 4), st.integers(0, 10 ** 6))
def test_contents_with_the_same_inert_key_dock_alike_and_the_cache_answers_for_both(number: int, blk: int,
                                                                                    seed: int) -> None:
    # random contents of a real block (most cards without a rank-neighbour there, as where the docks fail); its
    # variants: the wall cards (no rank-neighbour in the block) replaced by other such cards, and the wall cards
    # shuffled among their cells (stay and the wanted cards with them when they are walls); any two contents with
    # the same key are docked alike by fresh planners (no cache), and a planner that docked one answers the other
    board = _Board(_deal(number))
    planner = PatternPlanner(board, GAME)
    rng = random.Random(seed)
    size = len(planner.blocks[blk])
    cont = tuple(rng.sample(range(board.n), size))
    stay, *wanted = rng.sample(cont, 3)

    def walls(content: Sequence[int]) -> list[int]:
        return [i for i, x in enumerate(content) if not set(board.nb[x]) & set(content)]

    others = [x for x in range(board.n) if x not in cont and not set(board.nb[x]) & set(cont)]
    rng.shuffle(others)
    replaced = list(cont)
    for i in walls(cont):
        if cont[i] != stay and cont[i] not in wanted and others:
            candidate = others.pop()
            if not set(board.nb[candidate]) & set(replaced):
                replaced[i] = candidate
    shuffled = list(cont)
    cells = walls(cont)
    moved = [cont[i] for i in cells]
    rng.shuffle(moved)
    for i, x in zip(cells, moved, strict=True):
        shuffled[i] = x
    variants = [cont, tuple(replaced), tuple(shuffled)]
    assert walls(variants[1]) == walls(cont)
    assert planner.inert_key(variants[1], stay, wanted) == planner.inert_key(cont, stay, wanted)
    answers = [PatternPlanner(board, GAME).dock(blk, v, stay, wanted, cap=120) for v in variants]
    for (i, a), (j, b) in itertools.combinations(enumerate(variants), 2):
        if planner.inert_key(a, stay, wanted) == planner.inert_key(b, stay, wanted):
            assert answers[i] == answers[j], f"contents {i} and {j} share a key but dock differently"
            assert list(planner.block_moves(blk, a)) == list(planner.block_moves(blk, b))
    assert planner.dock(blk, cont, stay, wanted, cap=120) == answers[0]
    assert dock_key(blk, planner.inert_key(variants[1], stay, wanted), stay, wanted) in planner._docks
    assert planner.dock(blk, variants[1], stay, wanted, cap=120) == answers[1]


# --- eighth session, second round: the same search for less CPU ---


def _moves_reference(planner: PatternPlanner, blk: int, cont: Sequence[int], linked: Sequence[int] | None
                     ) -> tuple[tuple[int, int], ...]:
    """The moves inside a block as the planner made them up to 84b1ef2 (the definition: for every card, every
    cell beside one of its neighbours; the card there must land beside one of its own), in the same order."""
    targets, pairs, mask, frozen = planner.targets[blk], planner.pairs[blk], planner.mask[blk], planner.frozen[blk]
    nb = planner.board.nb
    cells = range(len(cont)) if linked is None else linked
    pos = {cont[i]: i for i in cells}
    out: set[tuple[int, int]] = set()
    for i in cells:
        if frozen[i]:
            continue
        for m in nb[cont[i]]:
            j = pos.get(m)
            if j is None:
                continue
            for k in targets[i][j]:
                for y in nb[cont[k]]:
                    r = pos.get(y)
                    if r is not None and mask[i] >> (k if r == i else r) & 1:
                        out.add(pairs[i][k])
                        break
    return tuple(out)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 2000), st.integers(0, 60), st.integers(0, 10 ** 6))
def test_the_moves_from_bit_masks_are_the_moves_of_the_definition_in_the_same_order(number: int, steps: int,
                                                                                   seed: int) -> None:
    # every block of a position of random play, the contents a dock reaches from it, and random contents: the moves
    # made from the bit masks of the cells beside the neighbours are the definition's, in the same order (the order
    # of the set they are put into is the docks' tie-break), with and without the linked cells given
    board = _Board(_random_play(_deal(number), steps, seed))
    planner = PatternPlanner(board, GAME)
    rng = random.Random(seed)
    checked = 0
    for blk, cells in enumerate(planner.blocks):
        start = tuple(board.start[c] for c in cells)
        contents = sorted(_block_contents(planner, blk, start, 40))
        contents += [bytes(rng.sample(range(board.n), len(cells))) for _ in range(20)]
        # random contents of the block's own kind, so that many cards have neighbours
        kind = [x for x in range(board.n) if planner.kind[x] == planner.kind[start[0]]]
        contents += [bytes(rng.sample(kind, min(len(cells), len(kind)))) for _ in range(20) if len(kind) >= len(cells)]
        for cont in contents:
            linked = planner.linked_cells(cont)
            expected = _moves_reference(planner, blk, cont, None)
            assert planner._make_moves(blk, cont, None) == expected
            assert planner._make_moves(blk, cont, linked) == expected
            checked += len(expected)
    assert checked > 0


def _dock_reference(planner: PatternPlanner, blk: int, cont: tuple[int, ...], stay: int, wanted: tuple[int, ...],
                    cap: int) -> tuple[tuple[int, int], ...] | None:
    """The dock's best-first search as it was up to 84b1ef2, keeping every state's parent (the definition)."""
    dist = planner.dist[blk]

    def h(c: bytes) -> int:
        return min(dist[c.index(stay)][c.index(w)] for w in wanted) - 1

    start = bytes(cont)
    parents: dict[bytes, tuple[bytes, tuple[int, int]] | None] = {start: None}
    heap = [(h(start), 0, 0, start)]
    tie, expanded = 0, 0
    while heap:
        _f, g, _t, cur = heapq.heappop(heap)
        if h(cur) == 0:
            steps: list[tuple[int, int]] = []
            link = parents[cur]
            while link is not None:
                steps.append(link[1])
                link = parents[link[0]]
            return tuple(steps[::-1])
        expanded += 1
        if expanded > cap:
            return None
        for i, k in planner.block_moves(blk, cur):
            child = bytearray(cur)
            child[i], child[k] = child[k], child[i]
            if bytes(child) not in parents:
                parents[bytes(child)] = (cur, (i, k))
                tie += 1
                heapq.heappush(heap, (g + 1 + 2 * h(bytes(child)), g + 1, tie, bytes(child)))
    return None


@SETTINGS
@given(st.integers(1, 2000), st.integers(0, 10 ** 6))
def test_a_dock_traced_back_through_its_swaps_is_the_dock_of_the_parents_dict(number: int, seed: int) -> None:
    # the dock keeps a state's swap from its parent, not the parent, and skips the swap back to the parent: the
    # found swaps are those of the search that keeps the parents (the definition), each swap legal where it is
    # made, and at the end ``stay`` is beside a wanted card; docks of several swaps among them
    board = _Board(_deal(number))
    planner = PatternPlanner(board, GAME)
    rng = random.Random(seed)
    deep = 0
    for _ in range(40):
        blk = rng.randrange(BLOCKS)
        cells = planner.blocks[blk]
        # the block's own cards (its goal), shuffled among its cells other than the start cells: most are linked
        goal = [board.target.index(c) for c in cells]
        free = [i for i, frozen in enumerate(planner.frozen[blk]) if not frozen]
        moved = [goal[i] for i in free]
        rng.shuffle(moved)
        for i, x in zip(free, moved, strict=True):
            goal[i] = x
        cont = tuple(goal)
        linked = [cont[i] for i in planner.linked_cells(cont)]
        if len(linked) < 4:
            continue
        stay = rng.choice(linked)
        # wanted cards far from ``stay``, so that the docks take several swaps
        far = [w for w in linked if planner.dist[blk][cont.index(stay)][cont.index(w)] >= 3]
        if not far:
            continue
        wanted = tuple(rng.sample(far, min(2, len(far))))
        found = PatternPlanner(board, GAME).dock(blk, cont, stay, wanted, cap=150)
        assert found == _dock_reference(planner, blk, cont, stay, wanted, 150)
        if found is None:
            continue
        deep += len(found) >= 2
        cur = bytes(cont)
        for i, k in found:
            assert (i, k) in planner.block_moves(blk, cur)
            child = bytearray(cur)
            child[i], child[k] = child[k], child[i]
            cur = bytes(child)
        assert min(planner.dist[blk][cur.index(stay)][cur.index(w)] for w in wanted) == 1
    assert deep > 0


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60), st.integers(0, KINDS - 1), st.integers(0, KINDS - 1),
       st.lists(st.integers(0, (1 << 22) - 1), min_size=KINDS + 2, max_size=KINDS + 2))
def test_a_childs_potential_from_its_parents_sum_is_the_sum_over_the_kinds(number: int, kf: int, kg: int,
                                                                           masks: list[int]) -> None:
    # the balance search weighs a child as its parent's sum of potentials with two kinds replaced, which is the same
    # float as the sum over the kinds only because every potential is a whole number (``lam`` 1): both checked
    board = _Board(_deal(number))
    planner = PatternPlanner(board, GAME)
    assert float(planner.lam).is_integer()
    pots = [planner.kind_potential(k, masks[k] & ((1 << planner.size[k]) - 1)) for k in range(KINDS)]
    new_f = planner.kind_potential(kf, masks[KINDS] & ((1 << planner.size[kf]) - 1))
    new_g = planner.kind_potential(kg, masks[KINDS + 1] & ((1 << planner.size[kg]) - 1))
    assert all(p.is_integer() for p in pots + [new_f, new_g])
    p = pots.copy()
    p[kf] = new_g if kg == kf else new_f
    p[kg] = new_g
    total = sum(pots)
    short = total - pots[kf] + new_g if kg == kf else total - pots[kf] - pots[kg] + new_f + new_g
    assert short == sum(p)


# -- ninth session: docks that count merges, and the post-pass over the gathering -----------------------


def _local_to_cells(planner: PatternPlanner, blk: int, local: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(planner.blocks[blk][p], planner.blocks[blk][q]) for p, q in local]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 2000), st.integers(0, 80), st.integers(0, 10 ** 6))
def test_the_merge_dock_docks_whenever_the_ordinary_dock_does_and_counts_its_merges(number: int, steps: int,
                                                                                       seed: int) -> None:
    # real blocks (a deal after random play), the docks an exchange the sets allow asks for (the partner's
    # cell counted): whenever the ordinary dock finds one within the cap, so does the merge dock; its swaps
    # are legal inside the block, end with ``stay`` beside a wanted card, and its merges are the bound's
    # change of its swaps and the exchange replayed ((swaps + change) / 2)
    position = _random_play(_deal(number), steps, seed)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    at = board.start
    fixed = {at[c] for c in board.frozen}
    asks = list(set_exchanges(board, card_blocks(board, at), [x for x in range(board.n) if x not in fixed]))
    random.Random(seed).shuffle(asks)
    for f, a, g, _b in asks[:12]:
        wanted = [w for w in board.nb[g] if w != f]
        plain = PatternPlanner(board, GAME).dock(a, planner.contents[a](at), f, wanted, 60)
        made = planner.merge_dock(at, a, f, wanted, 60, at.index(g))
        assert plain is None or made is not None
        if made is None:
            continue
        local, merges = made
        cur = planner.contents[a](at)
        for i, k in local:
            assert (min(i, k), max(i, k)) in planner.block_moves(a, cur)
            t = list(cur)
            t[i], t[k] = t[k], t[i]
            cur = tuple(t)
        assert min(planner.dist[a][cur.index(f)][cur.index(w)] for w in wanted if w in cur) == 1
        swaps = _local_to_cells(planner, a, local)
        end = amber_pattern._apply(at, swaps)
        both = [*swaps, (end.index(f), at.index(g))]
        change = board.bound(amber_pattern._apply(at, both)) - board.bound(at)
        assert 2 * merges == len(both) + change


def test_the_merge_dock_finds_docks_of_fewer_merges_than_the_ordinary_dock() -> None:
    # real blocks after random play, every linked card docked beside a neighbour of its own: the merge dock
    # (a merge weighing ``MERGE_WEIGHT`` swaps) finds fewer merges than the ordinary dock (fewest swaps) far
    # more often than more, and never a dock where the ordinary one finds none
    fewer = more = 0
    for number in range(1, 16):
        position = _random_play(_deal(number), 30, number)
        board = _Board(position)
        planner = PatternPlanner(board, GAME)
        at = board.start
        for blk in range(BLOCKS):
            cont = planner.contents[blk](at)
            for stay in planner.linked_cells(cont)[:6]:
                x = cont[stay]
                wanted = [w for w in board.nb[x] if w in cont]
                plain = planner.dock(blk, cont, x, wanted, 300)
                made = planner.merge_dock(at, blk, x, wanted, 300)
                assert (plain is None) == (made is None)
                if plain is None or made is None:
                    continue
                plain_merges = amber_pattern.merges_of(board, at, _local_to_cells(planner, blk, plain))
                fewer += made[1] < plain_merges
                more += made[1] > plain_merges
    assert fewer > 3 * more


def _gathering(number: int, nodes: int = 400) -> tuple[AmberPosition, _Board, PatternPlanner, list[tuple[int, int]]]:
    position = GAME.deal(number)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    found = balance_search(planner, board.start, _Budget(None, nodes))
    assert found is not None, f"deal {number} is gathered by the first setting within {nodes} expansions"
    return position, board, planner, found[0]


def _blocks_after_each_exchange(board: _Board, start: bytes, path: Sequence[tuple[int, int]]) -> list[list[int]]:
    cur = bytearray(start)
    out = []
    for p, q in path:
        cur[p], cur[q] = cur[q], cur[p]
        if board.block[p] != board.block[q]:
            out.append(list(card_blocks(board, cur)))
    return out


@pytest.mark.parametrize("number", [3, 7])
def test_the_post_pass_remakes_the_gathering_legally_with_the_same_cards_in_each_block(number: int) -> None:
    position, board, planner, path = _gathering(number)
    stats: dict[str, int] = {}
    again = amber_pattern.regather(planner, board.start, path, stats=stats)
    assert again is not None, stats
    swaps, end = again
    assert _reached(position, swaps) == end  # every swap legal (the rules engine)
    assert _blocks_after_each_exchange(board, board.start, swaps) == _blocks_after_each_exchange(
        board, board.start, path)
    assert planner.out(end) == 0
    assert swaps != path and stats.get("docked", 0) > 0
    # the merges of the gathering: (swaps + the bound's change) / 2
    before = amber_pattern.merges_of(board, board.start, path)
    after = amber_pattern.merges_of(board, board.start, swaps)
    assert after < before


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 2000), st.integers(1, 25), st.integers(0, 10 ** 6))
def test_the_post_pass_over_random_exchanges_is_legal_and_keeps_the_blocks(number: int, exchanges: int,
                                                                              seed: int) -> None:
    # a "gathering" of random exchanges (each docked as the balance search docks them) from a fresh deal: made
    # again, it is legal, holds the same cards in each block after each exchange, or is None (said why)
    position = _deal(number)
    board = _Board(position)
    planner = PatternPlanner(board, GAME)
    rng = random.Random(seed)
    at = board.start
    fixed = {at[c] for c in board.frozen}
    movable = [x for x in range(board.n) if x not in fixed]
    path: list[tuple[int, int]] = []
    for _ in range(exchanges):
        asks = list(set_exchanges(board, card_blocks(board, at), movable))
        rng.shuffle(asks)
        # the first exchange found that needs a dock (else the first that docks at all)
        chosen = None
        for f, _a, g, _b in asks[:40]:
            done = dock_exchange(planner, at, f, g, 100)
            if done is not None and (chosen is None or len(done[0]) > 1):
                chosen = done
                if len(done[0]) > 1:
                    break
        if chosen is None:
            break
        path += chosen[0]
        at = chosen[1]
    stats: dict[str, int] = {}
    again = amber_pattern.regather(planner, board.start, path, stats=stats)
    if again is None:
        assert stats.get("failed") == 1
        return
    swaps, end = again
    assert _reached(position, swaps) == end
    assert _blocks_after_each_exchange(board, board.start, swaps) == _blocks_after_each_exchange(
        board, board.start, path)


def test_the_gathering_steps_put_every_swap_of_the_path_back_in_its_order() -> None:
    _position, board, _planner, path = _gathering(7)
    steps = amber_pattern.gathering_steps(board, board.start, path)
    assert steps is not None
    cur = bytearray(board.start)
    rebuilt: list[tuple[int, int]] = []
    for f, g, found_f, found_g in steps:
        rebuilt += [*found_f, *found_g]
        for p, q in (*found_f, *found_g):
            cur[p], cur[q] = cur[q], cur[p]
        rebuilt.append((cur.index(f), cur.index(g)))
        p, q = rebuilt[-1]
        cur[p], cur[q] = cur[q], cur[p]
    assert rebuilt == path
    # a swap inside a block the exchange after it does not touch is no gathering
    cross = len(steps[0][2]) + len(steps[0][3])
    touched = {board.block[path[cross][0]], board.block[path[cross][1]]}
    third = [c for c in range(board.n) if board.block[c] not in touched][:2]
    assert amber_pattern.gathering_steps(board, board.start, [(third[0], third[1]), *path]) is None
    # nor is a path ending inside a block
    assert amber_pattern.gathering_steps(board, board.start, [*path, path[0]] if board.block[path[0][0]] ==
                                         board.block[path[0][1]] else [*path, (third[0], third[1])]) is None


@pytest.mark.parametrize("number", [3, 7])
def test_the_post_pass_never_gives_a_longer_plan_and_it_replays(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    position = GAME.deal(number)
    board = _Board(position)
    monkeypatch.setattr(amber_pattern, "POST_PASS", False)
    plain = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000))
    monkeypatch.setattr(amber_pattern, "POST_PASS", True)
    made = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000))
    assert plain is not None and made is not None
    assert len(made) <= len(plain)
    assert replay(position, [Swap(p, q) for p, q in made]).is_won()


@pytest.mark.parametrize("number", [1, 3])
def test_the_search_at_the_level_of_sets_makes_only_exchanges_the_sets_allow_and_gathers(number: int) -> None:
    """``balance_search(..., sets_only=True)`` (the tenth session's diagnostic of the deals not won): every step is
    one swap of two cards across blocks that :func:`set_exchanges` allows where the sets stand (no dock: the
    positions need not be legal), and it ends with every card in its home block."""
    game = get_game("pattern")
    assert isinstance(game, AmberGame)
    board = _Board(game.deal(number))
    planner = PatternPlanner(board, game, seed=1)
    done = balance_search(planner, board.start, _Budget(None, 2000), 3.0, 2.0, sets_only=True)
    assert done is not None
    path, end = done
    fixed = {board.start[c] for c in board.frozen}
    movable = [x for x in range(board.n) if x not in fixed]
    at = bytearray(board.start)
    for p, q in path:
        f, g = at[p], at[q]
        allowed = {(x, y) for x, _a, y, _b in set_exchanges(board, card_blocks(board, at), movable)}
        assert board.block[p] != board.block[q]
        assert (f, g) in allowed or (g, f) in allowed
        at[p], at[q] = g, f
    assert bytes(at) == end
    assert planner.out(end) == 0
    # the real search gathers the same deal with docks in between: more swaps than exchanges
    real = balance_search(PatternPlanner(board, game, seed=1), board.start, _Budget(None, 2000), 3.0, 2.0)
    assert real is not None and len(real[0]) > len(path)


# -- the late attempt (tenth session): a dive guided by plans at the level of sets


def test_exchanges_of_names_the_cards_each_swap_trades_as_the_swaps_are_made() -> None:
    at = bytes([10, 11, 12, 13])
    # the first swap puts 10 in cell 1, so the second trades 10 (not 11) with 12
    assert exchanges_of(at, [(0, 1), (1, 2), (3, 0)]) == [(10, 11), (10, 12), (13, 11)]
    assert exchanges_of(at, []) == []


def test_the_guided_dive_gathers_deal_342_from_where_the_first_setting_stalls() -> None:
    """Deal 342, one of the 33 deals 1-1000 not won within 45 s before the tenth session: the first setting stalls
    at 6 cards out (400 expansions), where neither it nor its end game goes on; the dive gathers from there (1478
    set-level expansions when this test was written), by legal swaps."""
    position = GAME.deal(342)
    board = _Board(position)
    planner, near = _stalled(board, 1, 400)
    stalled, before = near["at"], near["path"]
    assert isinstance(stalled, bytes) and isinstance(before, list)
    assert planner.out(stalled) == 6
    assert end_game(planner, near, _Budget(None, 400), 3.0, 2.0, 1) is None
    budget = _Budget(None, 20_000)
    found = guided_dive(planner, near, budget, 1)
    assert found is not None
    path, end = found
    assert path[:len(before)] == before, "the dive goes on from the stalled search's path"
    assert _reached(position, path) == end  # SolutionError if a swap is illegal
    assert planner.out(end) == 0
    assert 0 < budget.used <= 20_000


def test_the_guided_dive_gives_up_within_its_budget_and_without_a_nearest_position() -> None:
    position = GAME.deal(342)
    board = _Board(position)
    planner, near = _stalled(board, 1, 400)
    budget = _Budget(None, 50)  # too few expansions for any plan at the level of sets from 6 out
    assert guided_dive(planner, near, budget, 1) is None
    assert 0 < budget.used <= 50
    assert guided_dive(planner, {}, _Budget(None, 1000), 1) is None


def test_the_late_attempt_runs_only_once_the_portfolio_has_spent_its_states(monkeypatch: pytest.MonkeyPatch) -> None:
    board = _Board(GAME.deal(342))  # a setting of 400 expansions stalls at 6 out, its end game too
    calls: list[int] = []

    def dive(planner: PatternPlanner, near: dict[str, object], budget: _Budget, seed: int) -> None:
        calls.append(budget.used)

    monkeypatch.setattr(amber_pattern, "guided_dive", dive)
    monkeypatch.setattr(amber_pattern, "BALANCE_PORTFOLIO", ((3.0, 2.0, 1, 400),))
    assert amber_pattern.plan_pattern(board, GAME, _Budget(None, 1000)) is None
    assert calls == [], "below LATE_AFTER states the portfolio runs as before"
    monkeypatch.setattr(amber_pattern, "LATE_AFTER", 500)
    assert amber_pattern.plan_pattern(board, GAME, _Budget(None, 1000)) is None
    assert calls and all(used >= 500 for used in calls), "past LATE_AFTER every stalled attempt is followed by it"


def test_a_deal_the_dive_wins_replays_to_a_win_through_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 342 through ``solvers.solve`` (which replays every solution through the rules engine), with the late
    attempt brought forward: one setting of 400 expansions, the dive after it."""
    monkeypatch.setattr(amber_pattern, "LATE_AFTER", 0)
    monkeypatch.setattr(amber_pattern, "BALANCE_PORTFOLIO", ((3.0, 2.0, 1, 400),))
    monkeypatch.setattr(amber_patience_amber, "RACE", False)
    position = GAME.deal(342)
    solution = solve(position, time_limit=None, node_limit=20_000)
    assert solution.status == "won"
    assert replay(position, list(solution.moves)).is_won()


# -- closed deals: every reachable position looked at (eleventh session) ------------------------------------------


def _reachable_by_the_rules(position: AmberPosition, cap: int) -> tuple[int, bool] | None:
    """Breadth first through the rules engine's public API alone (``legal_moves``, ``play``, ``is_won``): the
    number of positions reachable and whether one is won, or None past ``cap`` positions."""
    seen = {tuple(position.cards)}
    frontier = [position]
    while frontier:
        later = []
        for at in frontier:
            if at.is_won():
                return len(seen), True
            for move in at.legal_moves():
                child = at.play(move)
                key = tuple(child.cards)
                if key not in seen:
                    if len(seen) >= cap:
                        return None
                    seen.add(key)
                    later.append(child)
        frontier = later
    return len(seen), False


def test_deal_295_is_closed_and_the_rules_engine_agrees() -> None:
    """Deal 295 holds every kind in every block (no stranded kind), yet only 316 positions are reachable from it
    and none is won: the rules engine's own breadth-first search finds the same 316."""
    position = GAME.deal(295)
    assert position.lost_reason() is None
    assert amber_patience_amber.closed_reach(_Board(position), 1000) == 316
    assert _reachable_by_the_rules(position, 1000) == (316, False)


def test_closed_reach_gives_no_proof_past_its_cap_or_where_the_goal_is_reachable() -> None:
    board = _Board(GAME.deal(295))
    assert amber_patience_amber.closed_reach(board, 315) is None  # one position short of the whole set
    assert amber_patience_amber.closed_reach(board, 316) == 316
    won = GAME.deal(1)
    goal = AmberPosition(GAME, tuple(won.goal), won.start_cells, None, {})
    assert amber_patience_amber.closed_reach(_Board(goal), 1000) is None  # the goal itself: nothing to prove
    near = goal.play(next(iter(goal.legal_moves())))
    assert amber_patience_amber.closed_reach(_Board(near), 10**6) is None  # the goal is one swap away
    assert amber_patience_amber.closed_reach(_Board(GAME.deal(1)), 2000) is None  # deal 1 (won) reaches more


@given(st.integers(min_value=1, max_value=5000))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_closed_reach_agrees_with_the_rules_engine_on_random_deals(number: int) -> None:
    """Whatever ``closed_reach`` answers within a small cap, the rules engine's own search agrees: a proof only
    where the rules engine, too, sees every position reachable and none won."""
    position = GAME.deal(number)
    proof = amber_patience_amber.closed_reach(_Board(position), 300)
    by_the_rules = _reachable_by_the_rules(position, 300)
    if proof is None:
        assert by_the_rules is None or by_the_rules[1]
    else:
        assert by_the_rules == (proof, False)


@pytest.mark.parametrize("race", [False, True])
def test_solve_answers_lost_for_a_closed_deal(monkeypatch: pytest.MonkeyPatch, race: bool) -> None:
    """Through ``solvers.solve``, with and without the race: the balance search runs dry at once, the look at
    every reachable position follows, and the answer is ``lost`` with the reason, long before the time limit."""
    monkeypatch.setattr(amber_patience_amber, "RACE", race)
    solution = solve(GAME.deal(295), time_limit=60)
    assert solution.status == "lost"
    assert solution.stats["reachable"] == 316
    assert "316 positions reachable" in solution.stats["reason"]
    assert solution.stats["seconds"] < 30


def test_the_look_at_every_position_follows_only_a_search_that_ran_dry_at_once(monkeypatch: pytest.MonkeyPatch
                                                                                ) -> None:
    looked: list[int] = []

    def closed(board: _Board, cap: int, deadline: float | None = None) -> None:
        looked.append(cap)

    monkeypatch.setattr(amber_pattern, "closed_reach", closed)
    monkeypatch.setattr(amber_pattern, "BALANCE_PORTFOLIO", ((3.0, 2.0, 1, 400),))
    assert amber_pattern.plan_pattern(_Board(GAME.deal(295)), GAME, _Budget(None, 2000)) is None
    assert looked == [amber_pattern.CLOSED_CAP], "once a solve, however often the search runs dry"
    looked.clear()
    assert amber_pattern.plan_pattern(_Board(GAME.deal(1)), GAME, _Budget(None, 20_000)) is not None
    assert looked == [], "deal 1's search does not run dry"


def test_a_planner_sharing_anothers_takes_its_geometry_and_caches_with_random_numbers_of_its_own() -> None:
    """``PatternPlanner(..., share=other)`` (each attempt of the portfolio): the same blocks and caches (the very
    objects, so the docks one attempt found answer the next), its own seeded random numbers; a planner of another
    board or ``lam`` is refused."""
    board = _Board(_deal(3))
    first = PatternPlanner(board, GAME, seed=1)
    first.dock(0, first.contents[0](board.start), board.start[first.blocks[0][0]], [0, 1, 2], 30)
    second = PatternPlanner(board, GAME, seed=2, share=first)
    assert second._docks is first._docks and second._kinds is first._kinds and second.blocks is first.blocks
    assert second.rng.random() == random.Random(2).random()
    assert first.rng.random() == random.Random(1).random()
    with pytest.raises(ValueError, match="same board and lam"):
        PatternPlanner(_Board(_deal(3)), GAME, share=first)
    with pytest.raises(ValueError, match="same board and lam"):
        PatternPlanner(board, GAME, lam=2.0, share=first)


# -- draws for length (twentieth session): the balance search with merges costed, and the planner's draws


def _merge_costed_reference(planner: PatternPlanner, start: bytes, budget: _Budget, imbalance_weight: float,
                            weight: float, cap: int, merge_cost: float
                            ) -> tuple[list[tuple[int, int]], bytes] | None:
    """``balance_search(..., merge_cost=...)`` written apart: each docked child goes back on the heap with its dock
    (not kept aside), and a node's cost is its exchanges plus ``merge_cost`` x the merges of the whole path from the
    start ((swaps + the bound's rise) / 2, not summed exchange by exchange)."""
    board = planner.board
    n, home, kind = board.n, planner.home_block, planner.kind
    fixed = {board.start[c] for c in board.frozen} | {start[c] for c in board.frozen}
    movable = [x for x in range(n) if x not in fixed]
    first = board.bound(start)
    # a node: position, parent, swaps from the parent, exchanges, swaps from the start
    nodes: list[tuple[bytes, int, tuple[tuple[int, int], ...], int, int]] = [(bytes(start), -1, (), 0, 0)]
    outs = [n]
    heap: list[tuple[float, float, int, int, int, tuple[tuple[tuple[int, int], ...], bytes] | None]] = [
        (0.0, 0.0, -1, -1, -1, None)]
    seen: set[bytes] = set()
    sets_seen: dict[bytes, int] = {}
    docks = 0
    dock_limit = amber_pattern.BALANCE_DOCKS * budget.left(1 << 30)
    while heap:
        key, tie, parent, f, g, made = heapq.heappop(heap)
        if parent < 0:
            idx = 0
        else:
            if made is None:
                if docks > dock_limit:
                    break
                docks += 1
                made = dock_exchange(planner, nodes[parent][0], f, g, amber_pattern.BALANCE_END_CAP
                                     if outs[parent] <= amber_pattern.BALANCE_END_OUT else cap)
                if made is None or made[1] in seen:
                    continue
                rise = len(made[0]) + board.bound(made[1]) - board.bound(nodes[parent][0])
                if rise:
                    heapq.heappush(heap, (key + merge_cost * (rise // 2), tie, parent, f, g, made))
                    continue
            elif made[1] in seen:
                continue
            nodes.append((made[1], parent, made[0], nodes[parent][3] + 1, nodes[parent][4] + len(made[0])))
            outs.append(n)
            idx = len(nodes) - 1
        at, _, _, exchanges, swaps = nodes[idx]
        seen.add(at)
        loc = card_blocks(board, at)
        if sets_seen.get(loc, 0) >= amber_pattern.BALANCE_REPEATS:
            continue
        sets_seen[loc] = sets_seen.get(loc, 0) + 1
        present = [0] * KINDS
        transport = [[0] * BLOCKS for _ in range(BLOCKS)]
        m = [0] * (BLOCKS * KINDS)
        for x in range(n):
            if loc[x] == home[x]:
                present[kind[x]] |= 1 << planner.rank[x]
            transport[loc[x]][home[x]] += 1
            m[loc[x] * KINDS + kind[x]] += 1
        outs[idx] = sum(loc[x] != home[x] for x in range(n))
        if outs[idx] == 0:
            path: list[tuple[int, int]] = []
            while nodes[idx][1] >= 0:
                path[:0] = nodes[idx][2]
                idx = nodes[idx][1]
            return path, at
        if budget.left(1) <= 0:
            break
        budget.used += 1
        cost = exchanges + merge_cost * ((swaps + board.bound(at) - first) // 2)
        for k, t, i, kf, kg in amber_pattern._balance_children_py(planner, loc, movable, present, transport, m, 0,
                                                                   idx, weight, imbalance_weight):
            heapq.heappush(heap, (k + cost, t, i, kf, kg, None))
    return None


@pytest.mark.parametrize(("number", "merge_cost", "nodes"), [(1, 2.0, 300), (3, 2.0, 400), (7, 1.0, 400),
                                                            (9, 4.0, 300)])
def test_the_balance_search_with_merges_costed_is_its_reference_and_its_gatherings_are_legal(
        number: int, merge_cost: float, nodes: int) -> None:
    """The same answer, expansions and random numbers as the reference above; a gathering found replays move by
    move through the rules engine to a position with every card in its block."""
    position = GAME.deal(number)
    board = _Board(position)
    ours, theirs = PatternPlanner(board, GAME, seed=5), PatternPlanner(board, GAME, seed=5)
    used = _Budget(None, nodes), _Budget(None, nodes)
    found = balance_search(ours, board.start, used[0], 3.0, 2.0, merge_cost=merge_cost)
    assert found == _merge_costed_reference(theirs, board.start, used[1], 3.0, 2.0, 300, merge_cost)
    assert used[0].used == used[1].used and ours.rng.getstate() == theirs.rng.getstate()
    if found is not None:
        end = replay(position, [Swap(p, q) for p, q in found[0]])
        assert bytes(_Board(end).start) == found[1] and ours.out(found[1]) == 0
    with pytest.raises(ValueError, match="merge_cost needs real positions"):
        balance_search(ours, board.start, _Budget(None, 10), sets_only=True, merge_cost=1.0)


def test_merges_costed_make_gatherings_of_fewer_merges() -> None:
    """Over the gatherings of the first setting (seeds 1-6) of deals 3, 7 and 9, costing merges finds fewer merges in
    all than not costing them (a search that ignored the cost, or counted splits, would not)."""
    plain = costed = 0
    for number in (3, 7, 9):
        board = _Board(GAME.deal(number))
        for seed in range(1, 7):
            for cost in (0.0, 2.0):
                found = balance_search(PatternPlanner(board, GAME, seed=seed), board.start, _Budget(None, 400), 3.0,
                                       2.0, merge_cost=cost)
                if found is None:
                    continue
                merges = amber_pattern.merges_of(board, board.start, found[0])
                if cost:
                    costed += merges
                else:
                    plain += merges
    assert 0 < costed < plain


@pytest.mark.parametrize("number", [3, 9])
def test_the_draws_for_length_never_give_a_longer_plan_and_it_replays(number: int) -> None:
    position = GAME.deal(number)
    board = _Board(position)
    plain = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000), draws=0)
    drawn = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000))
    assert plain is not None and drawn is not None
    assert len(drawn) <= len(plain)
    assert replay(position, [Swap(p, q) for p, q in drawn]).is_won()


def test_the_draws_spend_a_budget_of_their_own_and_a_quick_solve_makes_none(monkeypatch: pytest.MonkeyPatch
                                                                             ) -> None:
    """Deal 9's first setting gathers in a few hundred expansions: the close draws (``DRAW_CLOSE``, each with its
    own setting, merge cost and expansions) come first, then the draws (the same setting, merges costed, other seeds)
    search within ``DRAW_NODES`` expansions in all, after the first gathering is sorted, and neither their searches
    nor their sorts count in the solve's states; a quick solve (a hint) calls the planner with no draws."""
    board = _Board(GAME.deal(9))
    calls: list[tuple[int, int, float, tuple[object, ...]]] = []
    docks: list[object] = []  # the docks' cap of each search
    real = amber_pattern.balance_search

    def spy(planner: PatternPlanner, start: bytes, budget: _Budget, *args: object, **kw: object) -> object:
        result = real(planner, start, budget, *args, **kw)  # type: ignore[arg-type]
        if start == board.start:  # not a close draw's finish (test_a_close_draw_that_does_not_gather_is_finished)
            calls.append((budget.cap or 0, budget.used, float(kw.get("merge_cost", 0.0)),  # type: ignore[arg-type]
                          tuple(args[:2])))
            docks.append(args[2] if len(args) > 2 else kw.get("cap", 300))
        return result

    monkeypatch.setattr(amber_pattern, "balance_search", spy)
    sorting: list[int] = []
    sort_blocks = amber_pattern._sort_blocks

    def sort_spy(planner: PatternPlanner, path: list[tuple[int, int]], at: bytes, budget: _Budget) -> object:
        sorting.append(budget.used)
        return sort_blocks(planner, path, at, budget)

    monkeypatch.setattr(amber_pattern, "_sort_blocks", sort_spy)
    budget = _Budget(None, 10_000)
    assert amber_pattern.plan_pattern(board, GAME, budget) is not None
    first = [c for c in calls if not c[2]]
    close = len(amber_pattern.DRAW_CLOSE)
    assert close > 0
    assert [(c[3], c[2], c[0]) for c in calls[1:close + 1]] == [
        ((imb, weight), cost, cap) for imb, weight, cost, cap in amber_pattern.DRAW_CLOSE]
    drawn = [c for c in calls[close + 1:] if c[2]]
    assert len(first) == 1 and first[0][1] < 400 and len(drawn) == amber_pattern.DRAWS
    assert len(calls) == 1 + close + amber_pattern.DRAWS
    assert all(c[2] == amber_pattern.DRAW_MERGE_COST for c in drawn)
    # the draws dock with DRAW_DOCK_CAP states, the first win with the default
    assert docks == [300] + [amber_pattern.DRAW_DOCK_CAP] * (close + amber_pattern.DRAWS)
    # the odd draws with the first's setting, the even ones with the portfolio's second, third, ... settings
    settings = [(imb, weight) for imb, weight, _, _ in BALANCE_PORTFOLIO]
    assert [c[3] for c in drawn] == [first[0][3], settings[1], first[0][3], settings[2], first[0][3]][:len(drawn)]
    assert sum(c[1] for c in drawn) <= amber_pattern.DRAW_NODES
    assert all(c[0] <= max(amber_pattern.DRAW_MIN, amber_pattern.DRAW_SCALE * first[0][1]) for c in drawn)
    # the solve's states: the first search's and its sorts', none of the draws' (searches or sorts)
    assert sorting[0] == first[0][1]
    alone = _Budget(None, 10_000)
    searched = len(calls)
    assert amber_pattern.plan_pattern(board, GAME, alone, draws=0) is not None and alone.used == budget.used
    assert len(calls) == searched + 1  # the first search alone: no close draw either
    # a quick solve passes draws=0 to the planner, a full one does not
    seen: list[int | None] = []
    plan = amber_pattern.plan_pattern

    def planner_spy(*args: object, draws: int | None = None, **kw: object) -> object:
        seen.append(draws)
        return plan(*args, draws=draws, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(amber_pattern, "plan_pattern", planner_spy)
    monkeypatch.setattr(amber_patience_amber, "RACE", False)
    assert solve(GAME.deal(9), time_limit=60, quick=True).status == "won"
    assert solve(GAME.deal(9), time_limit=60).status == "won"
    assert seen == [0, None]  # (None: DRAWS)
    # DRAWS as it is when the planner is called (benchmarks/amber_solver.py --pattern-draws sets it)
    calls.clear()
    monkeypatch.setattr(amber_pattern, "DRAWS", 1)
    assert plan(board, GAME, _Budget(None, 10_000)) is not None
    assert len([c for c in calls if c[2]]) == 1 + close


def test_a_deadline_reached_while_drawing_keeps_the_first_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draws come after the first gathering is sorted: when the solve's time runs out during them, the line of
    the first win comes back (not ``None``), as without draws."""
    board = _Board(GAME.deal(3))
    plain = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000), draws=0)
    real = amber_pattern._draws

    def late(planner: PatternPlanner, budget: _Budget, *args: object) -> object:
        assert budget.deadline is not None
        time.sleep(max(0.0, budget.deadline - time.perf_counter()) + 0.01)
        return real(planner, budget, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(amber_pattern, "_draws", late)
    made = amber_pattern.plan_pattern(board, GAME, _Budget(time.perf_counter() + 2.0, 10_000))
    assert made is not None and made == plain


def test_the_close_draws_never_lengthen_a_line_and_shorten_some(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no clock the draws after the close ones are the same searches with or without them, and a gathering is
    sorted only when its length + end bound (a lower bound of its sorted length) is below the shortest line so far:
    so the close draws (``DRAW_CLOSE``) can only make the line shorter. On these deals they do at least once."""
    shorter = 0
    for number in (1, 2, 3):
        board = _Board(GAME.deal(number))
        with_close = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000))
        with monkeypatch.context() as patch:
            patch.setattr(amber_pattern, "DRAW_CLOSE", ())
            without = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000))
        assert with_close is not None and without is not None
        for line in (with_close, without):
            assert replay(GAME.deal(number), [Swap(a, b) for a, b in line]).is_won()
        assert len(with_close) <= len(without)
        shorter += len(with_close) < len(without)
    assert shorter >= 1


def test_a_close_draw_that_does_not_gather_is_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    """A close draw (``DRAW_CLOSE``) that does not gather within its expansions is finished by a balance search of
    ``DRAW_FINISH`` from its nearest position (:func:`end_game`, whatever the cards out there): the gathering goes on
    from that position's path, every swap legal, to a gathered position. The draws after it are the same searches,
    and a gathering is sorted only when it may be shorter, so with no clock the finish can only make a line shorter:
    on deal 1 it does (172 -> 158 swaps when this test was written)."""
    assert amber_pattern.DRAW_FINISH is not None
    imb, weight, cost, nodes = amber_pattern.DRAW_FINISH
    position = GAME.deal(1)
    board = _Board(position)
    searches: list[tuple[bytes, float, tuple[object, ...], bool]] = []
    finishes: list[tuple[dict[str, object], tuple[list[tuple[int, int]], bytes] | None]] = []
    real_search, real_end = amber_pattern.balance_search, amber_pattern.end_game

    def search_spy(planner: PatternPlanner, start: bytes, budget: _Budget, *args: object, **kw: object) -> object:
        result = real_search(planner, start, budget, *args, **kw)  # type: ignore[arg-type]
        searches.append((start, float(kw.get("merge_cost", 0.0)), tuple(args[:2]), result is None))  # type: ignore[arg-type]
        return result

    def end_spy(planner: PatternPlanner, near: dict[str, object], budget: _Budget, *args: object, **kw: object
                ) -> tuple[list[tuple[int, int]], bytes] | None:
        found = real_end(planner, near, budget, *args, **kw)  # type: ignore[arg-type]
        if kw.get("most_out") == board.n:
            assert (args[:2], kw["merge_cost"], kw["nodes"], budget.cap, kw["cap"]) == (
                (imb, weight), cost, nodes, nodes, amber_pattern.DRAW_DOCK_CAP)
            finishes.append((dict(near), found))
        return found

    monkeypatch.setattr(amber_pattern, "balance_search", search_spy)
    monkeypatch.setattr(amber_pattern, "end_game", end_spy)
    finished = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000))
    # the first win's search, then the close draws from the deal, each one that did not gather followed by a finish
    close = [i for i, (start, costed, _, _) in enumerate(searches) if start == board.start and costed]
    close = close[:len(amber_pattern.DRAW_CLOSE)]
    after_failed = [i + 1 for i in close if searches[i][3]]
    assert after_failed and len(after_failed) == len(finishes)
    for i in after_failed:
        assert searches[i][0] != board.start and searches[i][1:3] == (cost, (imb, weight))
    # none after the other draws (the first win's own end game, if any, costs no merges)
    assert sum(1 for start, costed, _, _ in searches if start != board.start and costed) == len(finishes)
    gathered = [(near, found) for near, found in finishes if found is not None]
    assert gathered
    for near, (path, end) in gathered:
        before = near["path"]
        assert isinstance(before, list) and path[:len(before)] == before
        assert _reached(position, path) == end  # SolutionError if a swap is illegal
        assert PatternPlanner(board, GAME).out(end) == 0
    monkeypatch.setattr(amber_pattern, "DRAW_FINISH", None)
    unfinished = amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000))
    assert finished is not None and unfinished is not None
    assert replay(position, [Swap(a, b) for a, b in finished]).is_won()
    assert len(finished) < len(unfinished)


def test_a_close_draw_searches_until_the_clock_less_its_finish_and_the_draws_go_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a clock for length, a close draw (``DRAW_CLOSE``) searches until ``DRAW_RESERVE`` seconds before it, with
    no bound on its expansions, so that its finish (``DRAW_FINISH``, from where it stalled) still has those seconds; the
    finish and the draws after it stop at the clock itself; and the whole round goes on again with new seeds while the
    clock has time. Without a clock nothing is reserved, every search ends by its expansions, and there is one round."""
    assert amber_pattern.DRAW_RESERVE > 0
    close_cost = 3.5  # no other search costs merges so: the close draws are told apart by it
    monkeypatch.setattr(amber_pattern, "DRAW_CLOSE", ((3.0, 1.0, close_cost, 150),))
    board = _Board(GAME.deal(1))
    searches: list[tuple[bytes, float, float | None, int | None, int]] = []
    real = amber_pattern.balance_search

    def spy(planner: PatternPlanner, start: bytes, budget: _Budget, *args: object, **kw: object) -> object:
        cost = float(kw.get("merge_cost", 0.0))  # type: ignore[arg-type]
        searches.append((start, cost, budget.deadline, budget.cap, planner.seed))
        if cost == close_cost and budget.cap is None:
            budget = _Budget(budget.deadline, 150)  # a short close draw, so that the test sees several rounds
        return real(planner, start, budget, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(amber_pattern, "balance_search", spy)
    now = time.perf_counter()
    budget = _Budget(now + 120.0, 10_000, now + 4.0)
    assert amber_pattern.plan_pattern(board, GAME, budget, draws=1) is not None
    clock = budget.for_length()
    assert clock == now + 4.0
    costed = [(start, cost, deadline, cap, seed) for start, cost, deadline, cap, seed in searches if cost]
    close = [(start, deadline, cap, seed) for start, cost, deadline, cap, seed in costed if cost == close_cost]
    assert len(close) >= 2  # the round went on again ...
    assert len({seed for *_, seed in close}) == len(close)  # ... with new seeds
    assert all(start == board.start and deadline == clock - amber_pattern.DRAW_RESERVE and cap is None
               for start, deadline, cap, _ in close)
    others = [(start, deadline) for start, cost, deadline, _, _ in costed if cost != close_cost]
    assert any(start != board.start for start, _ in others)  # a close draw stalled and was finished
    assert any(start == board.start for start, _ in others)  # a draw of DRAWS
    assert all(deadline == clock for _, deadline in others)
    assert time.perf_counter() >= clock  # the draws went on until the clock
    searches.clear()
    assert amber_pattern.plan_pattern(board, GAME, _Budget(None, 10_000), draws=1) is not None
    assert all(deadline is None for _, _, deadline, _, _ in searches)
    assert [cap for _, cost, _, cap, _ in searches if cost == close_cost] == [150]  # one round, within its expansions
