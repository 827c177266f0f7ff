"""The shortening passes of Amber solutions (``solvers/amber_shorten.py``).

Every pass must keep a solution legal, ending where it ended, and never make it longer; the ones
that look for something (a detour, a window with a swap too many) must find it. Budgets are node
limits, so the results do not depend on the machine's speed.
"""

from __future__ import annotations

import functools
import gc
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from amber_patience.games import get_game
from amber_patience.games.amber import GAMES, AmberPosition, Swap
from amber_patience.games.base import IllegalMoveError
from amber_patience.solvers import amber as amber_solver
from amber_patience.solvers import amber_shorten, solve
from test_amber_solver import _random_play


def _states(board: amber_solver._Board, path: list[tuple[int, int]]) -> list[bytes]:
    states = [board.start]
    cur = bytearray(board.start)
    for a, b in path:
        cur[a], cur[b] = cur[b], cur[a]
        states.append(bytes(cur))
    return states


def _is_legal_win(position: AmberPosition, path: list[tuple[int, int]]) -> bool:
    for a, b in path:
        position = position.play(Swap(a, b))  # raises IllegalMoveError for an illegal swap
    return position.is_won()


def _with_detour(board: amber_solver._Board, path: list[tuple[int, int]], k: int, m: int, pick: int,
                 same_cards: bool) -> list[tuple[int, int]] | None:
    """``path`` with a pair of swaps that cancel out inserted: a legal swap before move ``k`` and
    its undoing before move ``m`` (the same two cards again, or the same two cells with the swaps
    between taking each other's cell of the two); None when the detour is not legal."""
    states = _states(board, path)
    at = list(states[k])
    pos = [0] * board.n
    for cell, card in enumerate(at):
        pos[card] = cell
    swaps = sorted(board.moves(at, pos))
    if not swaps:
        return None
    a, b = swaps[pick % len(swaps)]
    if same_cards:
        middle = list(path[k:m])
        x, y = states[k][a], states[k][b]
        cur = bytearray(states[k])
        cur[a], cur[b] = cur[b], cur[a]
        for p, q in middle:
            cur[p], cur[q] = cur[q], cur[p]
        undo = tuple(sorted((cur.index(x), cur.index(y))))
    else:
        other = {a: b, b: a}
        middle = [tuple(sorted((other.get(p, p), other.get(q, q)))) for p, q in path[k:m]]
        undo = (a, b)
    detour = path[:k] + [(a, b)] + middle + [undo] + path[m:]  # type: ignore[list-item]
    if not amber_shorten._replays(board, board.start, detour, _states(board, path)[-1]):
        return None
    return detour


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), k=st.integers(min_value=0, max_value=60),
       gap=st.integers(min_value=0, max_value=30), pick=st.integers(min_value=0, max_value=100),
       same_cards=st.booleans())
def test_shorten_removes_an_inserted_detour(number: int, k: int, gap: int, pick: int, same_cards: bool) -> None:
    """A pair of swaps that cancel out, inserted anywhere in a won Path 36 solution, is taken out
    again: the shortened solution is strictly shorter than the one with the detour, legal, and wins."""
    position = get_game("path-36").deal(number)
    solution = solve(position, node_limit=20000)
    assert solution.status == "won"
    board = amber_solver._Board(position)
    path = [(m.a, m.b) for m in solution.moves]
    k = min(k, len(path))
    detour = _with_detour(board, path, k, min(k + gap, len(path)), pick, same_cards)
    if detour is None:
        return  # the inserted detour was not legal: nothing to shorten
    assert _is_legal_win(position, detour)
    cut = amber_shorten._cancel_pairs(board, detour, None)  # a pair that cancels out is found wherever it is
    assert len(cut) < len(detour)
    assert _is_legal_win(position, cut)
    shorter = amber_shorten.shorten(board, detour, None)
    assert len(shorter) < len(detour)
    assert _is_legal_win(position, shorter)


def test_cancel_pairs_takes_out_a_card_moved_aside_and_back() -> None:
    """Kolvir deal 2 (the lone cell): a card swapped away and swapped back a few moves later (same
    two cards, other swaps between) is cut out, and the solution still wins."""
    position = get_game("kolvir").deal(2)
    board = amber_solver._Board(position)
    path = amber_solver._plan(board, position.game, amber_solver._Budget(None, 20000))
    assert path is not None
    base = amber_shorten.shorten(board, path, None)
    found = None
    for k in range(0, len(base) - 4, 7):
        for pick in range(6):
            found = _with_detour(board, base, k, k + 3, pick, same_cards=True)
            if found is not None:
                break
        if found is not None:
            break
    assert found is not None, "no legal detour found to insert"
    cut = amber_shorten._cancel_pairs(board, found, None)
    assert len(cut) <= len(found) - 2
    assert _is_legal_win(position, cut)


def test_rejoin_finds_a_shorter_window_and_keeps_its_end() -> None:
    """A window of swaps with a detour through a third cell is re-joined by fewer swaps among the
    cells it touches, ending exactly where the window ended; no sequence longer than allowed."""
    position = get_game("path-36").deal(3)
    board = amber_solver._Board(position)
    path = [(m.a, m.b) for m in solve(position, node_limit=20000).moves]
    states = _states(board, path)
    for i in range(len(path) - 3):
        cells = sorted({c for swap in path[i:i + 3] for c in swap})
        sub = amber_shorten._rejoin(board, states[i], states[i + 3], cells, 3)
        assert sub is not None and len(sub) <= 3 and len(sub) % 2 == 1  # every swap changes the bound by one
        assert amber_shorten._replays(board, states[i], sub, states[i + 3])
        assert amber_shorten._rejoin(board, states[i], states[i + 3], cells, 0) is None


def test_shortening_leaves_no_reference_cycles() -> None:
    """The solvers run with the cyclic garbage collector off (``solvers._collector_off``), so a reference cycle
    made while shortening stays until the collector runs again, and then costs a pause on the player's request
    (Pattern deal 9: 0.11 s for 170,000 objects, from ``_rejoin``'s recursive search): a shortening makes none."""
    board = amber_solver._Board(get_game("arden").deal(8))
    path = _random_walk(board, 120, 8)  # random play: full of detours, so every pass has work to do
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        shorter = amber_shorten.shorten(board, path, None, "arden")
        assert len(shorter) < len(path)
        assert gc.collect() == 0
    finally:
        if collecting:
            gc.enable()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6), k=st.integers(min_value=0, max_value=60),
       pick=st.integers(min_value=0, max_value=100))
def test_merge_triples_turns_three_swaps_back_into_one(number: int, k: int, pick: int) -> None:
    """A swap of cards x and y written as three swaps through a third card z ((x z), (y z), (x z),
    the same permutation) is merged back: strictly shorter, legal, and it still wins."""
    position = get_game("path-36").deal(number)
    solution = solve(position, node_limit=20000)
    assert solution.status == "won"
    board = amber_solver._Board(position)
    path = [(m.a, m.b) for m in solution.moves]
    k = min(k, len(path) - 1)
    states = _states(board, path)
    x, y = states[k][path[k][0]], states[k][path[k][1]]
    others = [c for c in range(board.n) if states[k][c] not in (x, y) and c not in board.frozen]
    detour = None
    for shift in range(len(others)):  # the first third card, from ``pick`` on, with which the three swaps are legal
        z = states[k][others[(pick + shift) % len(others)]]
        cur = bytearray(states[k])
        three = []
        for u, v in ((x, z), (y, z), (x, z)):
            p, q = sorted((cur.index(u), cur.index(v)))
            three.append((p, q))
            cur[p], cur[q] = cur[q], cur[p]
        assert bytes(cur) == states[k + 1]
        candidate = path[:k] + three + path[k + 1:]
        if amber_shorten._replays(board, board.start, candidate, states[-1]):
            detour = candidate
            break
    if detour is None:
        return  # no third card makes the three swaps legal there: nothing to merge
    merged = amber_shorten._merge_triples(board, detour, None)
    assert len(merged) < len(detour)
    assert _is_legal_win(position, merged)


def _random_walk(board: amber_solver._Board, steps: int, seed: int) -> list[tuple[int, int]]:
    """A line of ``steps`` random legal swaps from the deal (random play: many detours)."""
    rng = random.Random(seed)
    at = list(board.start)
    pos = [0] * board.n
    path: list[tuple[int, int]] = []
    for _ in range(steps):
        for cell, card in enumerate(at):
            pos[card] = cell
        swaps = sorted(board.moves(at, pos))
        if not swaps:
            break
        a, b = rng.choice(swaps)
        at[a], at[b] = at[b], at[a]
        path.append((a, b))
    return path


def _window_pairs(window: amber_shorten._Window, at: bytes | bytearray) -> list[tuple[int, int]]:
    """Every legal swap (a, b), a < b, among the window's cells, from its tables, as ``_rejoin`` lists them."""
    nbm, lone, cells, blocks, amask = window.nbm, window.lone, window.cells, window.blocks, window.amask
    welcome = []
    for k in range(len(cells)):
        m = window.static[k]
        for t in window.dyn[k]:
            m |= nbm[at[t]]
        welcome.append(m)  # a card does not welcome itself, so this holds for a card leaving its cell too
    out = []
    for i, a in enumerate(cells):
        x = at[a]
        wa, ma, nx, ba = welcome[i], amask[i], nbm[x], blocks[i]
        for j in range(i + 1, len(cells)):
            b = cells[j]
            if lone >= 0 and blocks[j] != ba and a != lone and b != lone:
                continue  # Kolvir: the two blocks meet only through the lone cell
            y = at[b]
            # two touching neighbours may always swap; otherwise each card needs a neighbour where it lands
            if (ma >> b & 1 and nx >> y & 1) or (
                    (b == lone or welcome[j] >> x & 1) and (a == lone or wa >> y & 1)):
                out.append((a, b))
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["kolvir", "arden", "path-36", "path", "pattern"]),
       number=st.integers(min_value=1, max_value=10**6), seed=st.integers(min_value=0, max_value=10**6),
       cells=st.integers(min_value=2, max_value=24))
def test_window_move_rule_is_the_boards(name: str, number: int, seed: int, cells: int) -> None:
    """A window's tables (bit masks of the cards welcome at each cell, the outside fixed) give
    exactly the swaps that ``_Board.legal_swap`` allows among the window's cells, as the window's
    cards move (random positions of random play; Kolvir's lone cell and two blocks, Pattern's five blocks)."""
    board = amber_solver._Board(get_game(name).deal(number))
    rng = random.Random(seed)
    at = bytearray(amber_shorten._states_along(board.start, _random_walk(board, 30, seed))[-1])
    chosen = sorted(rng.sample(range(board.n), cells) + ([board.lone] if board.lone >= 0 and seed % 2 else []))
    window = amber_shorten._Window(board, at, chosen)
    for _ in range(10):
        got = _window_pairs(window, at)
        want = [(a, b) for i, a in enumerate(window.cells) for b in window.cells[i + 1:] if board.legal_swap(at, a, b)]
        assert got == want
        if not want:
            break
        a, b = rng.choice(want)
        at[a], at[b] = at[b], at[a]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["kolvir", "arden", "path"]), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6), start=st.integers(min_value=0, max_value=80))
@example(name="kolvir", number=9645, seed=1821, start=78)  # no later swap depends on swap 78: no window
def test_trace_windows_reorder_legally(name: str, number: int, seed: int, start: int) -> None:
    """Every window of swaps that depend on each other, with the swaps it depends on before it and
    the rest after it, replays legally and ends exactly where the original swaps end."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, 120, seed)
    states = amber_shorten._states_along(board.start, path)
    _, near = amber_shorten._tables(board)
    i = min(start, len(path) - 1)
    seen = 0
    for t, live, skipped, moved in amber_shorten._trace_windows_live(path, i, near):
        window = list(live)
        before, after = amber_shorten._around_window(i, t, window, skipped, moved)
        assert window[0] == i and window[-1] == t
        assert sorted(window + before + after) == list(range(i, t + 1))
        order = before + window + after
        assert amber_shorten._replays(board, states[i], [path[u] for u in order], states[t + 1])
        seen += 1
    # a window is found unless no later swap (within the span) moves a cell that swap i moves or looks at
    p, q = path[i]
    zone = near[p] | near[q]
    depends = any(a in zone or b in zone for a, b in path[i + 1:i + amber_shorten.TRACE_SPAN])
    assert (seen >= 1) == depends


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["kolvir", "arden", "path", "path-36"]), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6))
def test_every_pass_keeps_a_random_line_legal_and_its_end(name: str, number: int, seed: int) -> None:
    """Random play is full of detours: each pass, and ``shorten``, returns a line that is legal swap
    by swap (the rules engine replays it), ends in the same position and is never longer; random
    play of 80 swaps always has something to cut."""
    position = get_game(name).deal(number)
    board = amber_solver._Board(position)
    path = _random_walk(board, 80, seed)
    end = amber_shorten._states_along(board.start, path)[-1]
    for cut in (amber_shorten._cancel_pairs, amber_shorten._merge_triples, amber_shorten._splice,
                amber_shorten._rejoin_traces, amber_shorten._transport,
                functools.partial(amber_shorten._transport, jump=True), amber_shorten.shorten):
        shorter = cut(board, path, None)
        assert len(shorter) <= len(path)
        assert amber_shorten._replays(board, board.start, shorter, end)
    shorter = amber_shorten.shorten(board, path, None)
    assert len(shorter) < len(path)
    played = position
    for a, b in shorter:
        played = played.play(Swap(a, b))  # raises IllegalMoveError for an illegal swap
    cards = list(position.game.deck.cards)
    assert list(played.cards) == [cards[x] for x in end]


def test_rejoin_traces_cuts_a_detour_hidden_among_other_swaps() -> None:
    """A swap and its undoing, with swaps elsewhere on the board between them (the consecutive
    windows would have to hold them all), is cut by ``_rejoin_traces``: shorter, legal, same end."""
    position = get_game("path").deal(5)
    board = amber_solver._Board(position)
    solution = solve(position, node_limit=20000)
    assert solution.status == "won"
    path = [(m.a, m.b) for m in solution.moves]
    states = amber_shorten._states_along(board.start, path)
    _, near = amber_shorten._tables(board)
    done = 0
    for k in range(5, len(path) - 12, 9):
        at = list(states[k])
        pos = [0] * board.n
        for cell, card in enumerate(at):
            pos[card] = cell
        for a, b in sorted(board.moves(at, pos)):
            # the detour: (a b) now and again after the next swaps, as long as they are far from a and b
            m = 0
            while k + m < len(path) and m < 8 and not {a, b} & (near[path[k + m][0]] | near[path[k + m][1]]):
                m += 1
            if m < 6:  # then a window of consecutive swaps would hold at least 14 cells
                continue
            detour = path[:k] + [(a, b)] + path[k:k + m] + [(a, b)] + path[k + m:]
            if not amber_shorten._replays(board, board.start, detour, states[-1]):
                continue
            cut = amber_shorten._rejoin_traces(board, detour, None)
            assert len(cut) <= len(detour) - 2
            assert amber_shorten._replays(board, board.start, cut, states[-1])
            done += 1
            break
        if done >= 2:
            break
    assert done >= 1, "no detour found to insert"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=1, max_value=10**6))
def test_shorten_of_a_found_solution_is_legal_and_never_longer(number: int) -> None:
    """The search's own (unshortened) solution of a random Path 36 deal: ``shorten`` gives a line that
    the rules engine plays to the won position, no longer than the solution and no longer than the
    local passes alone (the carried rewrites only ever cut after them); ``_transport`` alone keeps
    the solution legal and its end; the sweep that jumps, last, never makes it longer."""
    position = get_game("path-36").deal(number)
    board = amber_solver._Board(position)
    found = amber_solver._plan(board, position.game, amber_solver._Budget(None, 20000))
    assert found is not None
    local = amber_shorten._shorten_local(board, found, None)
    shorter = amber_shorten.shorten(board, found, None)
    assert len(shorter) <= len(local) <= len(found)
    assert _is_legal_win(position, shorter)
    sweeps, aimed = amber_shorten.CARRY_SWEEPS, amber_shorten.AIMED_SWEEPS
    try:  # the sweeps that jump come last: never longer than the sweeps before them alone
        amber_shorten.CARRY_SWEEPS = tuple(sweep for sweep in sweeps if not sweep[2])
        amber_shorten.AIMED_SWEEPS = ()
        assert len(shorter) <= len(amber_shorten.shorten(board, found, None))
    finally:
        amber_shorten.CARRY_SWEEPS, amber_shorten.AIMED_SWEEPS = sweeps, aimed
    carried = amber_shorten._transport(board, found, None)
    assert len(carried) <= len(found)
    assert _is_legal_win(position, carried)


def _carry_rewrites(board: amber_solver._Board, path: list[tuple[int, int]], carry: Callable[..., Any],
                    cells: int) -> int:
    """How many rewrites ``carry`` (``_carry`` or ``_carry_jump``, with at most ``cells`` carried cells) finds,
    one from each swap of ``path``; each within the node budget, shorter by two or more, and replaying legally
    to the very position the swaps it replaces end in."""
    states = amber_shorten._states_along(board.start, path)
    rewrites = 0
    for i in range(len(path) - 1):
        result, nodes = carry(board, path, states, i, amber_shorten.CARRY_NODES, amber_shorten.CARRY_SPAN, cells,
                              amber_shorten.CARRY_EMIT)
        assert nodes <= amber_shorten.CARRY_NODES + 1
        if result is None:
            continue
        k, sub = result
        assert len(sub) <= (k - i) - 2
        assert amber_shorten._replays(board, states[i], sub, states[k])
        rewrites += 1
    return rewrites


def test_transport_finds_what_the_local_passes_leave() -> None:
    """Path 36 deal 9: after the local passes find nothing more, carrying swaps along the solution
    still cuts it (46 -> 42 swaps measured): a swap taken out, the swaps after it played where they
    were or on the same cards, and later swaps taken out until the missing permutation is made by
    fewer swaps. Each rewrite found by ``_carry`` replays legally to the very position the swaps it
    replaces end in, and is shorter by two or more."""
    position = get_game("path-36").deal(9)
    board = amber_solver._Board(position)
    found = amber_solver._plan(board, position.game, amber_solver._Budget(None, 20000))
    assert found is not None
    local = amber_shorten._shorten_local(board, found, None)
    assert amber_shorten._shorten_local(board, local, None) == local  # the local passes are done
    carried = amber_shorten._transport(board, local, None)
    assert len(carried) <= len(local) - 2
    assert _is_legal_win(position, carried)
    assert _carry_rewrites(board, local, amber_shorten._carry, amber_shorten.CARRY_CELLS) >= 1


def test_emit_plays_a_permutation_or_gives_up() -> None:
    """``_emit`` plays the carried permutation within the swaps allowed (legal, ending exactly at the
    position followed by the permutation) and gives None when fewer swaps cannot make it; the fewest
    swaps of a permutation are its moved cells minus its cycles."""
    assert amber_shorten._min_swaps({}) == 0
    assert amber_shorten._min_swaps({1: 2, 2: 1}) == 1
    assert amber_shorten._min_swaps({1: 2, 2: 3, 3: 1, 5: 6, 6: 5}) == 3
    position = get_game("path-36").deal(9)
    board = amber_solver._Board(position)
    solution = solve(position, node_limit=20000)
    path = [(m.a, m.b) for m in solution.moves]
    states = amber_shorten._states_along(board.start, path)
    played = 0
    for k in range(len(path) - 3):
        # the permutation made by three consecutive swaps, played from the position before them
        d: dict[int, int] = {}
        for c in range(board.n):
            if states[k][c] != states[k + 3][c]:
                d[c] = states[k].index(states[k + 3][c])
        assert amber_shorten._emit(board, states[k], d, amber_shorten._min_swaps(d) - 1, 30) is None
        sub = amber_shorten._emit(board, states[k], d, 3, 30)
        if sub is not None:
            assert len(sub) <= 3 and amber_shorten._replays(board, states[k], sub, states[k + 3])
            played += 1
    assert played >= 1


def _plain_cancel_pairs(board: amber_solver._Board, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs that cancel out as first written (every later swap looked at, everything tried again
    after each deletion): what the indexed ``_cancel_pairs`` must give, swap for swap."""
    changed = True
    while changed:
        changed = False
        states = _states(board, path)
        for i, (a, b) in enumerate(path):
            cards = {states[i][a], states[i][b]}
            for j in range(i + 1, len(path)):
                c, d = path[j]
                subs = []
                if {c, d} == {a, b}:
                    swap = {a: b, b: a}
                    subs.append([(swap.get(p, p), swap.get(q, q)) for p, q in path[i + 1:j]])
                if {states[j][c], states[j][d]} == cards:
                    subs.append(path[i + 1:j])
                for sub in subs:
                    sub = [(p, q) if p < q else (q, p) for p, q in sub]
                    if amber_shorten._replays(board, states[i], sub, states[j + 1]):
                        path = path[:i] + sub + path[j + 1:]
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break
    return path


def _plain_merge_triples(board: amber_solver._Board, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Three swaps that make one as first written (every triple tried again after each merge, each
    pair of cards replayed from ``i``): what ``_merge_triples`` must give, swap for swap."""
    from bisect import bisect_right
    changed = True
    while changed:
        changed = False
        states = _states(board, path)
        cards = [frozenset((states[t][p], states[t][q])) for t, (p, q) in enumerate(path)]
        swaps_of: dict[int, list[int]] = {}
        for t, pair in enumerate(cards):
            for x in pair:
                swaps_of.setdefault(x, []).append(t)
        for i in range(len(path)):
            later = sorted({j for x in cards[i] for j in swaps_of[x][bisect_right(swaps_of[x], i):]})
            for j in later:
                three = cards[i] | cards[j]
                if len(three) != 3:
                    continue
                k = min((t for x in three for t in swaps_of[x][bisect_right(swaps_of[x], j):] if cards[t] <= three),
                        default=-1)
                if k < 0:
                    continue
                for at in (i, j, k):
                    for x, y in ((a, b) for a in three for b in three if a < b):
                        cur = bytearray(states[i])
                        sub: list[tuple[int, int]] = []
                        ok = True
                        for t in range(i, k + 1):
                            if t in (i, j, k) and t != at:
                                continue
                            p, q = path[t] if t != at else sorted((cur.index(x), cur.index(y)))
                            if not board.legal_swap(cur, p, q):
                                ok = False
                                break
                            cur[p], cur[q] = cur[q], cur[p]
                            sub.append((p, q))
                        if ok and cur == states[k + 1]:
                            path = path[:i] + sub + path[k + 1:]
                            changed = True
                            break
                    if changed:
                        break
                if changed:
                    break
            if changed:
                break
    return path


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["kolvir", "arden", "path-36", "pattern"]),
       number=st.integers(min_value=1, max_value=10**6), seed=st.integers(min_value=0, max_value=10**6),
       steps=st.integers(min_value=20, max_value=90))
def test_indexed_pairs_and_triples_are_the_plain_passes(name: str, number: int, seed: int, steps: int) -> None:
    """``_cancel_pairs`` (pairs found through an index of each pair of cells and cards, the pairs that
    end before the last deletion not tried again) and ``_merge_triples`` (the same after a merge, the
    swaps before the new swap replayed once for the three pairs) give exactly the swaps of the plain
    passes that look at everything again, on random play (many pairs and triples to find)."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, steps, seed)
    pairs = amber_shorten._cancel_pairs(board, path, None)
    assert pairs == _plain_cancel_pairs(board, path)
    assert amber_shorten._merge_triples(board, path, None) == _plain_merge_triples(board, path)
    assert amber_shorten._merge_triples(board, pairs, None) == _plain_merge_triples(board, pairs)


def _shortest_joins_agree(board: amber_solver._Board, path: list[tuple[int, int]], length: int, step: int) -> int:
    """Every ``step``-th window of ``length`` swaps of ``path``: ``_rejoin`` with states enough is as short
    as the breadth-first ``_join`` among the window's cells, legal, and ends where the window ends.
    Returns how many of those windows need a merge (their shortest join is longer than the bound)."""
    states = amber_shorten._states_along(board.start, path)
    merges = 0
    for i in range(0, len(path) - length, step):
        j = i + length
        cells = sorted({c for swap in path[i:j] for c in swap})
        best = amber_shorten._join(board, states[i], states[j], cells, j - i)
        assert best is not None  # the swaps themselves join the two
        got = amber_shorten._rejoin(board, states[i], states[j], cells, j - i, node_cap=10**6)
        assert got is not None and len(got) == len(best), (i, length)
        assert amber_shorten._replays(board, states[i], got, states[j])
        merges += len(best) > amber_shorten._relative_bound(states[i], states[j], cells)
    return merges


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["kolvir", "arden", "path-36", "pattern"]),
       number=st.integers(min_value=1, max_value=10**6), seed=st.integers(min_value=0, max_value=10**6),
       length=st.integers(min_value=3, max_value=5))
def test_rejoin_finds_the_shortest_join(name: str, number: int, seed: int, length: int) -> None:
    """With states enough, ``_rejoin`` (iterative deepening, the swaps of its window listed from index
    tables) finds a sequence exactly as short as the breadth-first ``_join`` among the same cells, for
    windows all along random play: a legal swap it misses shows."""
    board = amber_solver._Board(get_game(name).deal(number))
    _shortest_joins_agree(board, _random_walk(board, 60, seed), length, 2)


def test_rejoin_finds_joins_that_need_a_merge() -> None:
    """Random play with windows whose shortest join needs a merge (a swap across two cycles; found on
    Path 36 deal 3, Arden deal 1 and Kolvir deal 4): ``_rejoin`` finds those joins too, as short as ``_join``'s."""
    merges = 0
    for name, number in (("path-36", 3), ("arden", 1), ("kolvir", 4)):
        board = amber_solver._Board(get_game(name).deal(number))
        path = _random_walk(board, 60, number)
        merges += sum(_shortest_joins_agree(board, path, length, 1) for length in (3, 4, 5))
    assert merges >= 10


def test_carry_jump_rewrites_replay_to_the_same_position() -> None:
    """Path 36 deal 9 after the local passes: carrying swaps with jumps over the swaps far from the
    carried permutation finds rewrites, each of which replays legally to the very position the swaps
    it replaces end in and is shorter by two or more; ``_transport`` with jumps cuts the solution and
    keeps it a legal win (a jump over a swap that touches the permutation breaks the replay)."""
    position = get_game("path-36").deal(9)
    board = amber_solver._Board(position)
    found = amber_solver._plan(board, position.game, amber_solver._Budget(None, 20000))
    assert found is not None
    local = amber_shorten._shorten_local(board, found, None)
    carried = amber_shorten._transport(board, local, None, jump=True)
    assert len(carried) <= len(local) - 2
    assert _is_legal_win(position, carried)
    assert _carry_rewrites(board, local, amber_shorten._carry_jump, 12) >= 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=0, max_value=40))
def test_the_solvers_move_rule_is_the_rules_engines(name: str, number: int, seed: int, steps: int) -> None:
    """``_Board.legal_swap`` (the solvers' one move rule, bit masks) allows exactly the swaps the rules engine
    allows (``AmberGame.swap_problem``, which ``AmberPosition.play`` applies), on every Amber layout, at a
    random deal after random play through the rules engine: random pairs of cells (the same cell twice
    included), pairs with a start cell, with Kolvir's lone cell, across blocks, and every legal swap the
    engine lists, both ways round; ``play`` refuses exactly the swaps the rule refuses."""
    position = get_game(name).deal(number)
    board = amber_solver._Board(position)
    game = position.game
    index = {card: i for i, card in enumerate(game.deck.cards)}
    position = _random_play(position, steps, seed)
    rng = random.Random(seed)
    at = bytes(index[card] for card in position.cards)
    n = board.n
    listed = [(m.a, m.b) for m in position.legal_moves() if isinstance(m, Swap)]
    pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(300)] + [(a, a) for a in range(0, n, 7)]
    pairs += [(a, rng.randrange(n)) for a in position.start_cells] + listed + [(b, a) for a, b in listed]
    if board.lone >= 0:
        pairs += [(board.lone, b) for b in range(n)] + [(b, board.lone) for b in range(n)]
    seen = set()
    for a, b in pairs:
        allowed = game.swap_problem(position.cards, position.start_cells, a, b) is None
        assert board.legal_swap(at, a, b) == allowed, (a, b, allowed)
        seen.add(allowed)
    assert listed and seen == {True, False}  # both kinds were checked
    for a, b in rng.sample(pairs, 20):
        try:
            position.play(Swap(a, b))
        except IllegalMoveError:
            assert not board.legal_swap(at, a, b), (a, b)
        else:
            assert board.legal_swap(at, a, b), (a, b)


def test_every_layout_has_cells_beside_each_other_both_ways() -> None:
    """The carried search's shortcut for far swaps (the solution's own legality) needs cells beside each
    other both ways: it holds on every Amber layout (else ``_carry`` falls back to checking every swap)."""
    for name in GAMES:
        board = amber_solver._Board(get_game(name).deal(1))
        assert amber_shorten._symmetric(board), name


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["kolvir", "arden", "path-36", "pattern"]),
       number=st.integers(min_value=1, max_value=10**6), seed=st.integers(min_value=0, max_value=10**6))
def test_carry_with_its_shortcuts_is_the_plain_walk(name: str, number: int, seed: int) -> None:
    """``_carry`` walks far swaps with the solution's own legality and rebuilds positions from the
    solution's; with those shortcuts off (``_symmetric`` false: every swap checked with the move rule, one
    state at a time) it finds the same rewrite, or none, in the same number of states, from every swap of
    random play (8 and 12 carried cells)."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, 80, seed)
    states = amber_shorten._states_along(board.start, path)
    results = []
    for shortcuts in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(amber_shorten, "_symmetric", lambda board, on=shortcuts: on)
            results.append([amber_shorten._carry(board, path, states, i, 300, 300, cells, 30, {})
                            for cells in (8, 12) for i in range(len(path) - 1)])
    assert results[0] == results[1]
    assert any(found is not None for found, _ in results[0]) or len(path) < 40


def test_join_of_a_position_to_itself_is_no_swap() -> None:
    """Equal ends need no swap (before, the breadth-first search returned a swap and its undoing)."""
    board = amber_solver._Board(get_game("arden").deal(1))
    cells = [0, 1, 2, 3]
    assert amber_shorten._join(board, board.start, board.start, cells, 3) == []
    assert amber_shorten._rejoin(board, board.start, board.start, cells, 3) == []
    assert amber_shorten._rejoin(board, board.start, board.start, cells, 3, memo={}) == []
    assert amber_shorten._rejoin(board, board.start, board.start, [], 3, memo={}) == []  # no cells, no key


# Ninth session: the shortcuts that spare work whose result is known (``_Memo``), each against its plain
# definition, with the same output.

def _with_returns(board: amber_solver._Board, path: list[tuple[int, int]], rng: random.Random,
                  count: int) -> list[tuple[int, int]]:
    """``path`` with ``count`` detours that come back to where they left (a swap and the same swap again, when
    both are legal) put in at random places: the runs of swaps between them are ``path``'s, at the same
    positions."""
    legal = board.legal_swap
    for _ in range(count):
        states = amber_shorten._states_along(board.start, path)
        k = rng.randrange(len(path) + 1)
        at = list(states[k])
        pos = [0] * board.n
        for cell, card in enumerate(at):
            pos[card] = cell
        swaps = sorted(board.moves(at, pos))
        rng.shuffle(swaps)
        for a, b in swaps:
            after = bytearray(states[k])
            after[a], after[b] = after[b], after[a]
            if legal(after, a, b):
                path = path[:k] + [(a, b), (a, b)] + path[k:]
                break
    return path


def _plain_shorten(board: amber_solver._Board, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``shorten`` as it was before its memo (``_Memo``): every pass on its own, nothing kept between calls."""
    def local(path: list[tuple[int, int]], rejoin: bool) -> list[tuple[int, int]]:
        first = rejoin
        while True:
            length = len(path)
            path = amber_shorten._cancel_pairs(board, path, None)
            path = amber_shorten._merge_triples(board, path, None)
            path = amber_shorten._splice(board, path, None)
            if first or len(path) < length:
                path = amber_shorten._rejoin_traces(board, path, None)
            first = False
            if len(path) == length:
                return path

    path = local(path, True)
    for node_cap, cells_cap, jump, aim in amber_shorten.CARRY_SWEEPS + amber_shorten.AIMED_SWEEPS:
        while True:
            length = len(path)
            path = amber_shorten._transport(board, path, None, node_cap=node_cap, cells_cap=cells_cap, jump=jump,
                                            aim=aim)
            if len(path) == length:
                break
            length = len(path)
            path = local(path, False)
            if len(path) == length:
                break
    return path


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=20, max_value=90))
def test_pairs_and_triples_told_what_they_found_nothing_on_are_the_same(name: str, number: int, seed: int,
                                                                        steps: int) -> None:
    """``_cancel_pairs`` and ``_merge_triples`` given ``known`` (a solution they found nothing on: the pairs and
    triples within its runs of swaps are not tried) give exactly their swaps without it, on random play of
    every Amber layout: ``known`` is a pass's result on random play, and the line passed is ``known`` with
    detours put in (new pairs to find, the runs between unchanged) or random play from the same deal."""
    board = amber_solver._Board(get_game(name).deal(number))
    rng = random.Random(seed)
    path = _random_walk(board, steps, seed)
    for shortening in (amber_shorten._cancel_pairs, amber_shorten._merge_triples):
        known = shortening(board, path, None)
        assert shortening(board, known, None) == known  # nothing more found: what ``known`` stands for
        for line in (_with_returns(board, known, rng, rng.randint(1, 4)), _random_walk(board, steps, seed + 1),
                     known[:len(known) // 2]):
            assert shortening(board, line, None, known=known) == shortening(board, line, None)


def test_known_runs_follow_the_positions() -> None:
    """``_known_runs``: a swap is in a run only where ``known`` plays it from the same position; the run ends
    where the two part (Path 36 deal 2, random play without a position twice, a detour put in)."""
    board = amber_solver._Board(get_game("path-36").deal(2))
    known = _random_walk(board, 40, 2)
    states = amber_shorten._states_along(board.start, known)
    while len(set(states)) < len(states):  # cut the loops out: every position once
        first: dict[bytes, int] = {}
        for t, state in enumerate(states):
            if state in first:
                known = known[:first[state]] + known[t:]
                break
            first[state] = t
        states = amber_shorten._states_along(board.start, known)
    assert len(known) >= 10
    k = len(known) // 2
    at = list(states[k])
    pos = [0] * board.n
    for cell, card in enumerate(at):
        pos[card] = cell
    detour = next((a, b) for a, b in sorted(board.moves(at, pos)) if (a, b) != known[k]
                  and board.legal_swap(_states(board, known[:k] + [(a, b)])[-1], a, b))
    line = known[:k] + [detour, detour] + known[k:]
    assert amber_shorten._replays(board, board.start, line, states[-1])
    ends = amber_shorten._known_runs(board.start, line, amber_shorten._states_along(board.start, line), known)
    assert ends[:k] == [k] * k  # the swaps before it: one run up to it
    assert ends[k:k + 2] == [k, k + 1]  # the detour is no run
    assert ends[k + 2:] == [len(line)] * (len(line) - k - 2)  # after it, known's swaps from the same positions
    assert amber_shorten._known_runs(board.start, line, [], None) == list(range(len(line)))
    moved = amber_shorten._known_runs(board.start, known[1:], amber_shorten._states_along(board.start, known[1:]),
                                      known)
    assert all(end <= t + 1 for t, end in enumerate(moved))  # the same swaps from other positions: no long runs


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6))
def test_rejoin_with_its_memo_is_the_plain_search(name: str, number: int, seed: int) -> None:
    """``_rejoin`` with a memo shared by all its calls (the window pass's) gives exactly what it gives without,
    on windows of random play asked again with fewer, as many and more swaps allowed and a small or large
    state cap (a failure reused for more swaps, or a success for fewer than it has, shows)."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, 60, seed)
    states = amber_shorten._states_along(board.start, path)
    rng = random.Random(seed)
    memo: dict[tuple[object, ...], tuple[int, tuple[tuple[int, int], ...] | None]] = {}
    asked = []
    for i in range(0, len(path) - 8, 3):
        j = i + rng.randint(3, 8)
        cells = sorted({c for swap in path[i:j] for c in swap})
        asked += [(i, j, cells, most, cap) for most in range(j - i + 1) for cap in (5, 60)]
    rng.shuffle(asked)
    found = 0
    for i, j, cells, most, cap in asked + asked:
        plain = amber_shorten._rejoin(board, states[i], states[j], cells, most, cap)
        assert amber_shorten._rejoin(board, states[i], states[j], cells, most, cap, memo) == plain
        found += plain is not None
    assert found > 0 or len(path) < 20


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6))
def test_shorten_with_its_memo_is_the_plain_composition(name: str, number: int, seed: int) -> None:
    """``shorten`` (its passes told what they found before, the re-joins and failed carried permutations kept
    for the whole call) gives exactly the swaps of its passes run on their own, on random play of every Amber
    layout."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, 70, seed)
    assert amber_shorten.shorten(board, list(path), None) == _plain_shorten(board, path)


def _plain_splice(board: amber_solver._Board, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``_splice`` as it was written before (the cells that differ kept as a set, swap by swap, for every ``j``)."""
    states = amber_shorten._states_along(board.start, path)
    i = 0
    while i < len(path) - 1:
        si = states[i]
        spliced = False
        differ: set[int] = set()
        candidates: list[tuple[int, list[int]]] = []
        for j in range(i + 1, len(path) + 1):
            for c in path[j - 1]:
                if si[c] != states[j][c]:
                    differ.add(c)
                else:
                    differ.discard(c)
            if j >= i + 2 and len(differ) <= amber_shorten.SHORTEN_CELLS:
                candidates.append((j, sorted(differ)))
        for j, diff in reversed(candidates):
            sj = states[j]
            need = amber_shorten._relative_bound(si, sj, diff)
            if need >= j - i or need > amber_shorten.SHORTEN_DEPTH:
                continue
            sub = amber_shorten._join(board, si, sj, diff, min(j - i - 1, amber_shorten.SHORTEN_DEPTH))
            if sub is None:
                continue
            path = path[:i] + sub + path[j:]
            states = states[:i] + amber_shorten._states_along(si, sub) + states[j + 1:]
            spliced = True
            break
        if not spliced:
            i += 1
    return path


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=20, max_value=120))
def test_triples_and_splices_are_the_plain_passes_on_every_layout(name: str, number: int, seed: int,
                                                                  steps: int) -> None:
    """``_merge_triples`` (the swaps between followed only in the cells of the three cards, those that look at no
    cell where the rewrite differs not checked) and ``_splice`` (the cells that differ from the positions kept as
    ints, the ``j`` too far off skipped) give exactly the swaps of the plain passes, on random play of every Amber
    layout, and on it after the pairs that cancel out (fewer, farther triples)."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, steps, seed)
    for line in (path, amber_shorten._cancel_pairs(board, path, None)):
        assert amber_shorten._merge_triples(board, line, None) == _plain_merge_triples(board, line)
        assert amber_shorten._splice(board, line, None) == _plain_splice(board, line)


# -- the aimed sweep (tenth session): started only from the swaps at or just before a merge --------------------------

def _bound(board: amber_solver._Board, state: bytes) -> int:
    """The cells minus the cycles of the permutation that takes ``state`` to the goal, counted plainly."""
    seen: set[int] = set()
    cycles = 0
    for cell in range(board.n):
        if cell not in seen:
            cycles += 1
            while cell not in seen:
                seen.add(cell)
                cell = board.target[state[cell]]
    return board.n - cycles


def _plain_aimed(board: amber_solver._Board, path: list[tuple[int, int]], aim: int | None) -> list[bool]:
    """The swaps an aimed sweep starts from, recomputed plainly: a swap is a merge when the bound after it is one
    more than before it; a start has a merge among itself and the ``aim`` swaps after it (every swap for None)."""
    states = _states(board, path)
    bounds = [_bound(board, state) for state in states]
    assert all(abs(bounds[t + 1] - bounds[t]) == 1 for t in range(len(path)))  # a swap merges or splits
    merges = [bounds[t + 1] == bounds[t] + 1 for t in range(len(path))]
    return [aim is None or any(merges[t:t + aim + 1]) for t in range(len(path))]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=10, max_value=90))
def test_aimed_filter_marks_the_swaps_near_a_merge(name: str, number: int, seed: int, steps: int) -> None:
    """``_merges`` and ``_aimed`` give, on random play of every Amber layout, exactly the merges and the starts
    of the plain recomputation from the bounds along the line (its last swap played again: both kinds occur)."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, steps, seed)
    path.append(path[-1])  # undoes the swap before: a merge after a split or a split after a merge
    states = _states(board, path)
    merges = amber_shorten._merges(board, states, path)
    assert merges == _plain_aimed(board, path, 0)
    assert any(merges) and not all(merges)
    for aim in (None, 0, 1, 2, 5):
        assert amber_shorten._aimed(merges, aim) == _plain_aimed(board, path, aim)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6), aim=st.sampled_from([0, 1, 3]), jump=st.booleans())
def test_aimed_transport_starts_exactly_the_aimed_swaps(name: str, number: int, seed: int, aim: int,
                                                         jump: bool) -> None:
    """``_transport(aim=...)`` carries from exactly the swaps the plain recomputation aims at, on the line as it
    stands after each rewrite: with one state from each swap (no rewrite) every aimed swap but the last and no
    other; with the sweeps' caps, the swaps it skips between two starts (from the first, or from
    ``CARRY_BACK`` swaps before it after a rewrite) are none of them aimed, and each start is."""
    board = amber_solver._Board(get_game(name).deal(number))
    path = _random_walk(board, 80, seed)
    calls: list[tuple[int, list[tuple[int, int]]]] = []
    name_of = "_carry_jump" if jump else "_carry"
    carry = getattr(amber_shorten, name_of)

    def spy(board: amber_solver._Board, path: list[tuple[int, int]], states: list[bytes], i: int,
            *args: Any) -> Any:
        calls.append((i, list(path)))
        return carry(board, path, states, i, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(amber_shorten, name_of, spy)
        assert amber_shorten._transport(board, path, None, node_cap=1, jump=jump, aim=aim) == path
        aimed = _plain_aimed(board, path, aim)
        assert [i for i, _ in calls] == [t for t in range(len(path) - 1) if aimed[t]]
        calls.clear()
        shorter = amber_shorten._transport(board, path, None, cells_cap=14, jump=jump, aim=aim)
    assert amber_shorten._replays(board, board.start, shorter, _states(board, path)[-1])
    before = (-1, path)
    for i, line in calls:
        aimed = _plain_aimed(board, line, aim)
        first = before[0] + 1 if line == before[1] else max(0, before[0] - amber_shorten.CARRY_BACK)
        assert aimed[i] and not any(aimed[first:i])
        before = (i, line)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), number=st.integers(min_value=1, max_value=10**6),
       seed=st.integers(min_value=0, max_value=10**6))
def test_aimed_sweep_only_cuts_and_keeps_the_end(name: str, number: int, seed: int) -> None:
    """On random play of every Amber layout, ``shorten`` with the aimed sweep (any layout but Pattern's) is never
    longer than without it (named Pattern: the sweeps before it alone), and the rules engine plays its line to
    the position random play ended in."""
    assert "pattern" in amber_shorten.UNAIMED and amber_shorten.AIMED_SWEEPS
    position = get_game(name).deal(number)
    board = amber_solver._Board(position)
    path = _random_walk(board, 90, seed)
    end = _states(board, path)[-1]
    without = amber_shorten.shorten(board, path, None, "pattern")
    aimed = amber_shorten.shorten(board, path, None, "arden")
    assert len(aimed) <= len(without) < len(path)
    played = position
    for a, b in aimed:
        played = played.play(Swap(a, b))  # raises IllegalMoveError for an illegal swap
    cards = list(position.game.deck.cards)
    assert list(played.cards) == [cards[x] for x in end]
