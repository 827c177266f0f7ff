"""Shortening of Amber solutions (every layout): the passes that cut a found solution down.

:func:`shorten` runs, while the solution gets shorter: pairs of swaps that cancel out
(:func:`_cancel_pairs`), three swaps among three cards that make one swap (:func:`_merge_triples`),
local splices (:func:`_splice`) and windows of swaps that depend on each other, re-joined by a small
search (:func:`_rejoin_traces`, which replaced the windows of consecutive swaps: those found nothing
more after it). Every change is checked with the move rule (``_Board.legal_swap``) and
keeps the end position; the solver's result is replayed by the rules engine anyway.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .amber import _Board

#: Splice limits: at most this many differing cells, at most this many swaps in a splice.
SHORTEN_CELLS = 6
SHORTEN_DEPTH = 3


def shorten(board: _Board, path: list[tuple[int, int]], deadline: float | None) -> list[tuple[int, int]]:
    """Shorten a solution (every change is checked with the move rule and keeps the end position):
    pairs of swaps that cancel out (:func:`_cancel_pairs`), three swaps among three cards that make
    one swap (:func:`_merge_triples`), local splices (:func:`_splice`) and windows of swaps that
    depend on each other re-joined by a small search (:func:`_rejoin_traces`), again while it gets
    shorter."""
    first = True
    while True:
        length = len(path)
        path = _cancel_pairs(board, path, deadline)
        path = _merge_triples(board, path, deadline)
        path = _splice(board, path, deadline)
        if first or len(path) < length:
            # the costly pass again only when the cheap ones changed something since it last ran
            path = _rejoin_traces(board, path, deadline)
        first = False
        if len(path) == length or (deadline is not None and time.perf_counter() > deadline):
            return path


def _states_along(start: bytes, swaps: list[tuple[int, int]]) -> list[bytes]:
    """The positions along ``swaps`` from ``start``: ``start`` and the one after each swap."""
    states = [start]
    cur = bytearray(start)
    for p, q in swaps:
        cur[p], cur[q] = cur[q], cur[p]
        states.append(bytes(cur))
    return states


def _splice(board: _Board, path: list[tuple[int, int]], deadline: float | None) -> list[tuple[int, int]]:
    """Cut detours out of a solution: where the position after move ``j`` differs from the
    position after move ``i`` in at most ``SHORTEN_CELLS`` cells and fewer legal swaps among those
    cells join them, splice those in. Every splice is checked with the move rule."""
    states = _states_along(board.start, path)
    i = 0
    while i < len(path) - 1:
        if deadline is not None and time.perf_counter() > deadline:
            break
        si = states[i]
        spliced = False
        # the cells where the position after move j differs from si, kept up to date as j grows
        differ: set[int] = set()
        candidates: list[tuple[int, list[int]]] = []
        for j in range(i + 1, len(path) + 1):
            for c in path[j - 1]:
                if si[c] != states[j][c]:
                    differ.add(c)
                else:
                    differ.discard(c)
            if j >= i + 2 and len(differ) <= SHORTEN_CELLS:
                candidates.append((j, sorted(differ)))
        for j, diff in reversed(candidates):
            sj = states[j]
            need = _relative_bound(si, sj, diff)  # fewest swaps possible
            if need >= j - i or need > SHORTEN_DEPTH:
                continue
            sub = _join(board, si, sj, diff, min(j - i - 1, SHORTEN_DEPTH))
            if sub is None:
                continue
            path = path[:i] + sub + path[j:]
            states = states[:i] + _states_along(si, sub) + states[j + 1:]
            spliced = True
            break
        if not spliced:
            i += 1
    return path


def _join(board: _Board, start: bytes, goal: bytes, cells: list[int], most: int) -> list[tuple[int, int]] | None:
    """The shortest legal sequence of at most ``most`` swaps among ``cells`` from ``start`` to ``goal``."""
    if most <= 0 or not cells:
        return [] if start == goal else None
    frontier: list[tuple[bytes, list[tuple[int, int]]]] = [(start, [])]
    seen = {start}
    pairs = [(a, b) for k, a in enumerate(cells) for b in cells[k + 1:]]
    for _ in range(most):
        nxt = []
        for at, sub in frontier:
            for a, b in pairs:
                if not board.legal_swap(at, a, b):
                    continue
                cur = bytearray(at)
                cur[a], cur[b] = cur[b], cur[a]
                key = bytes(cur)
                if key == goal:
                    return sub + [(a, b)]
                if key not in seen:
                    seen.add(key)
                    nxt.append((key, sub + [(a, b)]))
        frontier = nxt
    return None


#: States a re-join (:func:`_rejoin`) may visit by default.
REJOIN_NODES = 150


def _relative_bound(start: bytes | bytearray, goal: bytes, cells: list[int]) -> int:
    """Swaps needed at least to turn ``start`` into ``goal`` when only ``cells`` differ: the
    cells that differ minus the cycles among them."""
    where = {goal[c]: c for c in cells}
    seen: set[int] = set()
    cycles = 0
    for c in cells:
        if c not in seen:
            cycles += 1
            while c not in seen:
                seen.add(c)
                c = where[start[c]]
    return len(cells) - cycles


@lru_cache(maxsize=16)
def _tables(board: _Board) -> tuple[list[int], list[frozenset[int]]]:
    """Per board: ``nbm[x]``, the bit mask of card ``x``'s two rank-neighbours (the relation is
    symmetric, so a card ``z`` beside cell ``b`` welcomes exactly the cards of ``nbm[z]`` there),
    and ``near[c]``, cell ``c`` with the cells it touches."""
    nbm = [(1 << a) | (1 << b) for a, b in board.nb]
    near = [frozenset((c, *board.adj[c])) for c in range(board.n)]
    return nbm, near


class _Window:
    """The move rule inside a window of cells whose outside never changes (the cards outside stay
    as in ``start``): what the outside cells offer each window cell is computed once, as bit masks
    of the cards welcome there. The same rule as ``_Board.legal_swap`` (a test compares them)."""

    def __init__(self, board: _Board, start: bytes | bytearray, cells: list[int]) -> None:
        nbm, _ = _tables(board)
        self.nbm = nbm
        self.lone = board.lone
        self.block = board.block
        self.adjmask = board.adjmask
        self.cells = sorted(c for c in set(cells) if c not in board.frozen)
        inside = set(self.cells)
        #: the cards welcome at each window cell thanks to the cells outside the window
        self.static = {c: 0 for c in self.cells}
        #: the window cells each window cell touches
        self.dyn: dict[int, list[int]] = {}
        for c in self.cells:
            for t in board.adj[c]:
                if t not in inside:
                    self.static[c] |= nbm[start[t]]
            self.dyn[c] = [t for t in board.adj[c] if t in inside]

    def legal_pairs(self, at: bytes | bytearray, groups: list[list[int]] | None = None) -> list[tuple[int, int]]:
        """Every legal swap (a, b), a < b, among the window's cells (only pairs inside one of
        ``groups``, each sorted, when given)."""
        nbm, lone, block, adjmask = self.nbm, self.lone, self.block, self.adjmask
        welcome = {}
        for c in self.cells:
            m = self.static[c]
            for t in self.dyn[c]:
                m |= nbm[at[t]]
            welcome[c] = m  # a card does not welcome itself, so this holds for a card leaving c too
        out = []
        for group in groups if groups is not None else [self.cells]:
            for i, a in enumerate(group):
                x = at[a]
                wa, ma, nx, ba = welcome[a], adjmask[a], nbm[x], block[a]
                for b in group[i + 1:]:
                    if lone >= 0 and block[b] != ba and a != lone and b != lone:
                        continue  # Kolvir: the two blocks meet only through the lone cell
                    y = at[b]
                    # two touching neighbours may always swap; otherwise each card needs a neighbour where it lands
                    if (ma >> b & 1 and nx >> y & 1) or (
                            (b == lone or welcome[b] >> x & 1) and (a == lone or wa >> y & 1)):
                        out.append((a, b))
        return out


def _rejoin(board: _Board, start: bytes, goal: bytes, cells: list[int], most: int,
            node_cap: int = REJOIN_NODES) -> list[tuple[int, int]] | None:
    """A legal sequence of at most ``most`` swaps among ``cells`` from ``start`` to ``goal`` (which
    differ only in ``cells``), the shortest such one within ``node_cap`` states, or None.

    Iterative deepening on the permutation bound between the two (every swap changes it by exactly
    one, so lengths go up in steps of two); swaps that lower it are tried first, those that put a
    card where ``goal`` has it before the others. The move rule is checked with masks: the cells
    outside ``cells`` never change here, so what they offer each cell of the window is computed
    once (the same rule as ``_Board.legal_swap``, which a test compares it with)."""
    if any(start[c] != goal[c] for c in cells if c in board.frozen):
        return None  # a start card never moves
    cells = [c for c in cells if c not in board.frozen]
    need = _relative_bound(start, goal, cells)
    if need > most:
        return None
    window = _Window(board, start, cells)
    where = {goal[c]: c for c in cells}  # the cell each card of the window ends in
    nodes = 0
    at = bytearray(start)
    path: list[tuple[int, int]] = []

    def moves(h: int, allow_across: bool) -> list[tuple[int, int, int, int]]:
        cyc: dict[int, int] = {}
        groups: list[list[int]] = []
        for c in window.cells:
            if c not in cyc:
                k = c
                group = []
                while k not in cyc:
                    cyc[k] = c
                    group.append(k)
                    k = where[at[k]]
                groups.append(sorted(group))
        out = []
        for a, b in window.legal_pairs(at, None if allow_across else groups):
            same = cyc[a] == cyc[b]
            if same or allow_across:
                placed = (where[at[a]] == b) + (where[at[b]] == a)
                out.append((h - 1 if same else h + 1, -placed, a, b))
        out.sort()
        return out

    def dfs(h: int, limit: int, visited: dict[bytes, int]) -> bool:
        nonlocal nodes
        if h == 0:
            return True
        nodes += 1
        if nodes > node_cap:
            return False
        g = len(path)
        for nh, _, a, b in moves(h, g + h + 2 <= limit):
            at[a], at[b] = at[b], at[a]
            key = bytes(at)
            if visited.get(key, limit + 1) > g + 1:
                visited[key] = g + 1
                path.append((a, b))
                if dfs(nh, limit, visited):
                    return True
                path.pop()
            at[a], at[b] = at[b], at[a]
            if nodes > node_cap:
                return False
        return False

    for limit in range(need, most + 1, 2):
        if dfs(need, limit, {bytes(at): 0}):
            return path
        if nodes > node_cap:
            break
    return None


def _replays(board: _Board, start: bytes, sub: list[tuple[int, int]], end: bytes) -> bool:
    """Whether ``sub`` is legal from ``start`` swap by swap and ends at ``end``."""
    cur = bytearray(start)
    for a, b in sub:
        if not board.legal_swap(cur, a, b):
            return False
        cur[a], cur[b] = cur[b], cur[a]
    return cur == end


def _cancel_pairs(board: _Board, path: list[tuple[int, int]], deadline: float | None) -> list[tuple[int, int]]:
    """Delete pairs of swaps that undo each other around the swaps between them.

    Swaps are transpositions of cells, so two swaps ``i < j`` cancel out (the position after ``j``
    is the same without both) when they swap the same two *cards* (the swaps between stay, with
    the two cards exchanged: a card moved aside and later moved back), or the same two *cells* (the
    swaps between then take each other's cell of the two). Each candidate is replayed with the move
    rule and kept only when every swap between stays legal."""
    changed = True
    while changed:
        changed = False
        states = _states_along(board.start, path)
        for i, (a, b) in enumerate(path):
            if deadline is not None and time.perf_counter() > deadline:
                return path
            cards = {states[i][a], states[i][b]}
            for j in range(i + 1, len(path)):
                c, d = path[j]
                subs = []
                if {c, d} == {a, b}:
                    swap = {a: b, b: a}
                    subs.append([(swap.get(p, p), swap.get(q, q)) for p, q in path[i + 1:j]])
                if {states[j][c], states[j][d]} == cards:
                    subs.append(path[i + 1:j])  # both kinds may hold at once: each is tried
                for sub in subs:
                    sub = [(p, q) if p < q else (q, p) for p, q in sub]
                    if _replays(board, states[i], sub, states[j + 1]):
                        path = path[:i] + sub + path[j + 1:]
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break
    return path


def _merge_triples(board: _Board, path: list[tuple[int, int]], deadline: float | None) -> list[tuple[int, int]]:
    """Replace three swaps ``i < j < k`` among three cards by one swap of two of them (at ``i``, ``j``
    or ``k``), when the swaps between stay legal: they keep their cells, and the three cards only
    trade places among the cells they hold, so the end position is checked by the replay. For each
    ``i`` and each later ``j`` sharing one card with it, only the first later swap ``k`` among the
    three cards is tried (the swaps of each card are indexed, so only those are looked at)."""
    changed = True
    while changed:
        changed = False
        states = _states_along(board.start, path)
        cards = [frozenset((states[t][p], states[t][q])) for t, (p, q) in enumerate(path)]
        swaps_of: dict[int, list[int]] = {}  # the swaps that move each card, in order
        for t, pair in enumerate(cards):
            for x in pair:
                swaps_of.setdefault(x, []).append(t)
        for i in range(len(path)):
            if deadline is not None and time.perf_counter() > deadline:
                return path
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
                        rest = [(t, path[t]) for t in range(i, k + 1) if t not in (i, j, k) or t == at]
                        sub: list[tuple[int, int]] = []
                        cur = bytearray(states[i])
                        ok = True
                        for t, (p, q) in rest:
                            if t == at:
                                p, q = sorted((cur.index(x), cur.index(y)))
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


#: Re-joining traces: from each swap ``i``, the swaps after it that depend on it (directly or
#: through each other) form a window of at most ``TRACE_SWAPS`` swaps and ``TRACE_CELLS`` cells,
#: looked for within ``TRACE_SPAN`` swaps; the swaps they do not depend on are moved out of the way
#: (before or after the window), which keeps them legal. A window is re-joined (``_rejoin``, at most
#: ``TRACE_NODES`` states) each time its slack (length minus permutation bound) grows.
TRACE_SWAPS = 20
TRACE_CELLS = 18
TRACE_SPAN = 100
TRACE_NODES = 60


def _trace_windows(path: list[tuple[int, int]], i: int, near: list[frozenset[int]],
                   swaps: int = TRACE_SWAPS, cells: int = TRACE_CELLS, span: int = TRACE_SPAN
                   ) -> Iterator[tuple[int, list[int], list[int], list[int]]]:
    """The windows that start with swap ``i``, growing: ``(t, window, before, after)`` where
    ``window`` are the indices of the swaps in it (``i`` first, ``t`` last), ``before`` the other
    swaps of ``i..t`` that some swap of the window depends on, ``after`` the rest of ``i..t``.

    Two swaps *depend* on each other when one of them moves a card of a cell that the other one
    moves or touches (the move rule looks at the cells around the swapped ones). Swaps that do not
    depend on each other can trade places and stay legal, so ``before + window + after`` (each in
    its order) is legal and ends where swaps ``i..t`` end. A swap that depends on a swap left out of
    a window (too many cells) is left out too."""
    p, q = path[i]
    window = [i]
    inside = {p, q}
    zone = set(near[p] | near[q])  # the cells that the window's swaps move or look at
    blocked: set[int] = set()  # the same for the swaps left out of the window
    skipped: list[int] = []  # swaps on which nothing in the window depended when they came
    before: set[int] = set()
    for t in range(i + 1, min(len(path), i + span)):
        p, q = path[t]
        if p in blocked or q in blocked:
            blocked |= near[p] | near[q]
            continue
        if p not in zone and q not in zone:
            skipped.append(t)
            continue
        if len(window) >= swaps:
            return
        if len(inside | {p, q}) > cells:
            blocked |= near[p] | near[q]
            continue
        window.append(t)
        inside.update((p, q))
        zone |= near[p] | near[q]
        # the skipped swaps that t depends on, directly or through each other, must come first
        needs = near[p] | near[q]
        for u in reversed(skipped):
            a, b = path[u]
            if a in needs or b in needs:
                before.add(u)
                needs = needs | near[a] | near[b]
        members = set(window)
        yield (t, list(window), [u for u in skipped if u in before],
               [u for u in range(i, t + 1) if u not in members and u not in before])


def _rejoin_traces(board: _Board, path: list[tuple[int, int]], deadline: float | None,
                   swaps: int = TRACE_SWAPS, cells_cap: int = TRACE_CELLS, span: int = TRACE_SPAN,
                   node_cap: int = TRACE_NODES) -> list[tuple[int, int]]:
    """Re-join windows made of the swaps that depend on each other (:func:`_trace_windows`): a
    window with far fewer cells than the swaps around it touch, so longer windows can be re-joined
    (:func:`_rejoin`, ending exactly where the window ended). The swaps moved out of the way and
    the new ones are replayed with the move rule before they are kept."""
    _, near = _tables(board)
    states = _states_along(board.start, path)
    i = 0
    while i < len(path) - 2:
        if deadline is not None and time.perf_counter() > deadline:
            break
        found = None
        slack_tried = 0
        for t, window, before, after in _trace_windows(path, i, near, swaps, cells_cap, span):
            if len(window) < 2:
                continue
            start = bytearray(states[i])
            for u in before:
                a, b = path[u]
                start[a], start[b] = start[b], start[a]
            end = bytearray(start)
            for u in window:
                a, b = path[u]
                end[a], end[b] = end[b], end[a]
            cells = sorted({c for u in window for c in path[u]})
            need = _relative_bound(start, bytes(end), cells)
            slack = len(window) - need
            if slack < 2 or slack <= slack_tried:
                continue  # tried already with this slack (a merge more makes it worth another try)
            slack_tried = slack
            sub = _rejoin(board, bytes(start), bytes(end), cells, len(window) - 2, node_cap)
            if sub is None:
                continue
            mid = [path[u] for u in before] + sub + [path[u] for u in after]
            if _replays(board, states[i], mid, states[t + 1]):
                found = t + 1, mid
                break
        if found is None:
            i += 1
            continue
        stop, mid = found
        path = path[:i] + mid + path[stop:]
        states = states[:i + 1] + _states_along(states[i], mid)[1:] + states[stop + 1:]
        i = max(0, i - swaps)
    return path
