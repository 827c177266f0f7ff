"""Shortening of Amber solutions (every layout): the passes that cut a found solution down.

:func:`shorten` first runs the local passes (:func:`_shorten_local`) while the solution gets
shorter: pairs of swaps that cancel out (:func:`_cancel_pairs`), three swaps among three cards that
make one swap (:func:`_merge_triples`), local splices (:func:`_splice`) and windows of swaps that
depend on each other, re-joined by a small search (:func:`_rejoin_traces`, which replaced the windows
of consecutive swaps: those found nothing more after it). Then *carried swaps* (:func:`_transport`):
a swap is taken out and the permutation it leaves missing is carried along the solution, later
swaps played where they were or on the same cards, or taken out too, until fewer swaps make it
(:func:`_carry`, :func:`_emit`): rewrites that reach far, which the windows with fixed ends do not
have; a sweep (:func:`_carry_jump`) jumps over the swaps far from what is carried, so its states
go to the choices near it, and a last one, aimed, carries more cells with few states from the swaps at or just
before a merge only (:data:`AIMED_SWEEPS`, not on Pattern; ``docs/solver-shorten.md``). Every change is
checked with the move rule (``_Board.legal_swap``, the solvers' one copy of it, of which the compiled carried
searches, ``_amber_core.carry``, hold a copy that the tests check against it) and keeps the end position; the
solver's result is replayed by the rules engine anyway. What the passes learn within one
:func:`shorten` (:class:`_Memo`: what a pass found nothing on, the window pass's re-joins, the
carried permutations that could not be played) spares work whose result is known and never changes
a result (``docs/solver-shorten.md``, "Ninth session").
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

from . import compiled, set_bits

if TYPE_CHECKING:
    from .amber import _Board

#: Splice limits: at most this many differing cells, at most this many swaps in a splice.
SHORTEN_CELLS = 6
SHORTEN_DEPTH = 3


def shorten(board: _Board, path: list[tuple[int, int]], deadline: float | None,
            layout: str | None = None) -> list[tuple[int, int]]:
    """Shorten a solution (every change is checked with the move rule and keeps the end position):
    the local passes (:func:`_shorten_local`) until they find nothing more, then swaps carried
    along the solution until they cancel out (:func:`_transport`; a second sweep carries more cells
    with fewer states from each swap, a third jumps over the swaps far from what is carried, and on
    every layout but those of ``UNAIMED`` (``layout``: the game's name) an aimed sweep carries more cells
    still from the swaps at or just before a merge, :data:`AIMED_SWEEPS`), and the cheap local passes
    again after each gain while they find something. Never longer than the local passes alone, nor than
    the sweeps before any later one alone: the carried rewrites only ever cut.

    What the passes learn is kept for the whole call (:class:`_Memo`): it spares them work whose result
    is known, never changes a result."""
    memo = _Memo()
    path = _shorten_local(board, path, deadline, memo=memo)
    for node_cap, cells_cap, jump, aim in CARRY_SWEEPS + (AIMED_SWEEPS if layout not in UNAIMED else ()):
        while deadline is None or time.perf_counter() <= deadline:
            length = len(path)
            path = _transport(board, path, deadline, node_cap=node_cap, cells_cap=cells_cap, jump=jump,
                              failed=memo.failed, aim=aim)
            if len(path) == length:
                break
            length = len(path)
            path = _shorten_local(board, path, deadline, rejoin=False, memo=memo)
            if len(path) == length:
                break  # the carried rewrites have run to the end already: again only after other changes
    return path


class _Memo:
    """What the passes of one :func:`shorten` learn, kept across their calls; each entry only spares work whose
    result is known (the same results as without it, which the tests check pass by pass).

    ``known``: by pass name, the last solution on which the pass found nothing at all (:func:`_cancel_pairs`,
    :func:`_merge_triples`): on a later solution, the candidates it would try that lie wholly in the swaps the
    two share at their start, or wholly in those they share at their end (the positions there are the same:
    every solution ends in the same position), fail again. ``rejoins``: the results of the window pass's
    re-joins (:func:`_rejoin`), keyed by all they depend on. ``failed``: the carried permutations whose swaps
    could not be played (:func:`_carry`), shared by every sweep (the same ``CARRY_EMIT`` states)."""

    def __init__(self) -> None:
        self.known: dict[str, list[tuple[int, int]]] = {}
        self.rejoins: dict[tuple[object, ...], tuple[int, tuple[tuple[int, int], ...] | None]] = {}
        self.failed: dict[tuple[object, ...], int] = {}

    def run(self, name: str, pass_: Callable[..., list[tuple[int, int]]], board: _Board,
            path: list[tuple[int, int]], deadline: float | None) -> list[tuple[int, int]]:
        """``pass_`` (one of the passes named in ``known``) on ``path``, told what it found nothing on last; its
        result is what it finds nothing on now, unless the deadline cut it short."""
        path = pass_(board, path, deadline, known=self.known.get(name))
        if deadline is None or time.perf_counter() <= deadline:
            self.known[name] = path
        else:
            self.known.pop(name, None)
        return path


def _known_runs(start: bytes, path: list[tuple[int, int]], states: list[bytes],
                known: list[tuple[int, int]] | None) -> list[int]:
    """For each swap ``t`` of ``path`` (``states``: the positions along it), the end of the run of swaps from
    ``t`` that ``known`` (a solution from ``start``) plays too, in the same order from the same position:
    ``path[t:end]`` is ``known[u:u + end - t]`` and the position before ``t`` is the one before ``known[u]``
    (so are all the positions of the run). ``t`` itself when ``path[t]`` is in no run; every ``t`` without
    ``known``. A pass that finds nothing on ``known`` finds nothing there either (:class:`_Memo`)."""
    n = len(path)
    if known is None:
        return list(range(n))
    at: dict[bytes, int] = {}
    for u, state in enumerate(_states_along(start, known)[:-1]):
        at.setdefault(state, u)
    ends = list(range(n))
    nxt = -1  # the index in ``known`` that swap t + 1 is, when it is in a run
    for t in range(n - 1, -1, -1):
        u = at.get(states[t], -1)
        if u >= 0 and known[u] == path[t]:
            ends[t] = ends[t + 1] if u + 1 == nxt else t + 1
            nxt = u
        else:
            nxt = -1
    return ends


def _shorten_local(board: _Board, path: list[tuple[int, int]], deadline: float | None,
                   rejoin: bool = True, memo: _Memo | None = None) -> list[tuple[int, int]]:
    """Pairs of swaps that cancel out (:func:`_cancel_pairs`), three swaps among three cards that
    make one swap (:func:`_merge_triples`), local splices (:func:`_splice`) and windows of swaps that
    depend on each other re-joined by a small search (:func:`_rejoin_traces`; the first time only
    when ``rejoin`` is true), again while the solution gets shorter. ``memo``: what the passes learnt
    before in this :func:`shorten` (a new one when not given)."""
    if memo is None:
        memo = _Memo()
    first = rejoin
    while True:
        length = len(path)
        path = memo.run("pairs", _cancel_pairs, board, path, deadline)
        path = memo.run("triples", _merge_triples, board, path, deadline)
        path = _splice(board, path, deadline)
        if first or len(path) < length:
            # the costly pass again only when the cheap ones changed something since it last ran
            path = _rejoin_traces(board, path, deadline, memo=memo.rejoins)
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
    cells join them, splice those in. Every splice is checked with the move rule.

    The positions are also kept as ints (a byte a cell), so the cells where two differ are the non-zero bytes of
    the two xor-ed; a swap changes two cells, so from a ``j`` where more than ``SHORTEN_CELLS`` differ, the next
    ``j`` where few enough may differ is half the excess on."""
    states = _states_along(board.start, path)
    keys = [int.from_bytes(state, "little") for state in states]
    low = int.from_bytes(bytes([1]) * len(board.start), "little")  # bit 0 of every byte
    i = 0
    while i < len(path) - 1:
        if deadline is not None and time.perf_counter() > deadline:
            break
        si = states[i]
        ki = keys[i]
        spliced = False
        candidates: list[tuple[int, list[int]]] = []
        j = i + 1
        end = len(path)
        while j <= end:
            x = ki ^ keys[j]
            x |= x >> 4
            x |= x >> 2
            x |= x >> 1
            x &= low  # bit 0 of each byte: whether the cell differs
            differ = x.bit_count()
            if differ > SHORTEN_CELLS:
                j += (differ - SHORTEN_CELLS + 1) // 2
                continue
            if j >= i + 2:
                cells = []
                while x:
                    bit = x & -x
                    cells.append((bit.bit_length() - 1) >> 3)
                    x ^= bit
                candidates.append((j, cells))
            j += 1
        for j, diff in reversed(candidates):
            sj = states[j]
            need = _relative_bound(si, sj, diff)  # fewest swaps possible
            if need >= j - i or need > SHORTEN_DEPTH:
                continue
            sub = _join(board, si, sj, diff, min(j - i - 1, SHORTEN_DEPTH))
            if sub is None:
                continue
            path = path[:i] + sub + path[j:]
            mid = _states_along(si, sub)
            states = states[:i] + mid + states[j + 1:]
            keys = keys[:i] + [int.from_bytes(state, "little") for state in mid] + keys[j + 1:]
            spliced = True
            break
        if not spliced:
            i += 1
    return path


def _join(board: _Board, start: bytes, goal: bytes, cells: list[int], most: int) -> list[tuple[int, int]] | None:
    """The shortest legal sequence of at most ``most`` swaps among ``cells`` from ``start`` to ``goal``."""
    if start == goal:
        return []
    if most <= 0 or not cells:
        return None
    frontier: list[tuple[bytes, list[tuple[int, int]]]] = [(start, [])]
    seen = {start}
    pairs = [(a, b) for k, a in enumerate(cells) for b in cells[k + 1:]]
    legal = board.legal_swap
    for _ in range(most):
        nxt = []
        for at, sub in frontier:
            for a, b in pairs:
                if not legal(at, a, b):
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
    of the cards welcome there. The same rule as ``_Board.legal_swap`` (a test lists a window's swaps from
    these tables, as :func:`_rejoin` does, and compares them). The tables are lists by index in ``cells``
    (sorted, so index order is cell order), as :func:`_rejoin` reads them."""

    def __init__(self, board: _Board, start: bytes | bytearray, cells: list[int]) -> None:
        nbm, _ = _tables(board)
        self.nbm = nbm
        self.lone = board.lone
        frozen = board.frozen
        adj = board.adj
        #: the window's cells, sorted, and ``index[c]``: the index of cell ``c`` among them (-1: not in the window)
        self.cells = sorted(c for c in set(cells) if c not in frozen)
        self.index = index = [-1] * board.n
        for k, c in enumerate(self.cells):
            index[c] = k
        #: by index: the cards welcome at each window cell thanks to the cells outside the window, and the
        #: window cells each window cell touches
        self.static: list[int] = []
        self.dyn: list[list[int]] = []
        for c in self.cells:
            m = 0
            inner = []
            for t in adj[c]:
                if index[t] < 0:
                    m |= nbm[start[t]]
                else:
                    inner.append(t)
            self.static.append(m)
            self.dyn.append(inner)
        #: by index: the cells each window cell touches (a bit mask), and its block
        self.amask = [board.adjmask[c] for c in self.cells]
        self.blocks = [board.block[c] for c in self.cells]



def _rejoin(board: _Board, start: bytes, goal: bytes, cells: list[int], most: int,
            node_cap: int = REJOIN_NODES,
            memo: dict[tuple[object, ...], tuple[int, tuple[tuple[int, int], ...] | None]] | None = None
            ) -> list[tuple[int, int]] | None:
    """A legal sequence of at most ``most`` swaps among ``cells`` from ``start`` to ``goal`` (which
    differ only in ``cells``), the shortest such one within ``node_cap`` states, or None.

    Iterative deepening on the permutation bound between the two (every swap changes it by exactly
    one, so lengths go up in steps of two); swaps that lower it are tried first, those that put a
    card where ``goal`` has it before the others. The move rule is checked with masks: the cells
    outside ``cells`` never change here, so what they offer each cell of the window is computed
    once (the same rule as ``_Board.legal_swap``, which a test compares it with).

    ``memo``: earlier results, by all a result depends on (the window's cells, their cards at both ends, what
    the cells outside offer them, ``node_cap``): a search that failed within ``most`` swaps fails within fewer
    (it runs the same first rounds), and one that found ``L`` swaps finds them again within ``most >= L`` and
    nothing within fewer (its rounds before ``L`` failed without reaching ``node_cap``)."""
    frozen = board.frozen
    if any(start[c] != goal[c] for c in cells if c in frozen):
        return None  # a start card never moves
    cells = [c for c in cells if c not in frozen]
    need = _relative_bound(start, goal, cells)
    if need > most:
        return None
    window = _Window(board, start, cells)
    wcells, static = window.cells, window.static
    key: tuple[object, ...] = ()
    if memo is not None and wcells:
        cards = _cards_at(tuple(wcells))
        key = (cards, cards(start), cards(goal), tuple(static), node_cap)
        known = memo.get(key)
        if known is not None:
            tried, done = known
            if done is not None:
                return list(done) if len(done) <= most else None
            if most <= tried:
                return None
    search = _rejoin_core if compiled.ON and len(wcells) > 1 else _rejoin_py
    result = search(board, window, start, goal, cells, need, most, node_cap)
    if memo is not None and key:
        memo[key] = (most, None if result is None else tuple(result))
    return result


def _rejoin_py(board: _Board, window: _Window, start: bytes, goal: bytes, cells: list[int], need: int, most: int,
               node_cap: int) -> list[tuple[int, int]] | None:
    """:func:`_rejoin`'s search (the reference of the compiled one, :func:`_rejoin_core`): iterative deepening from
    ``need`` to ``most`` swaps, at most ``node_cap`` states in all."""
    nbm, lone = window.nbm, window.lone
    wcells, index, static, dyn, amask, blocks = (window.cells, window.index, window.static, window.dyn,
                                                 window.amask, window.blocks)
    count = len(wcells)
    where = [-1] * len(nbm)  # the cell each card of the window ends in
    dest = [-1] * len(nbm)  # the index of that cell
    for c in cells:
        where[goal[c]] = c
        dest[goal[c]] = index[c]
    nodes = 0
    at = bytearray(start)
    path: list[tuple[int, int]] = []
    full = list(range(count))
    # ``touch[c]``: the window cells (by index) beside cell ``c``, whose welcome masks a swap at ``c`` changes
    touch: dict[int, list[int]] = {c: [] for c in wcells}
    for k in range(count):
        for t in dyn[k]:
            touch[t].append(k)
    #: what a position's swaps are listed from: the cycle of every window cell (named by one of its cells), the
    #: cycles of two cells or more (name -> their cells, sorted) and every cell's welcome mask
    Tables = tuple[list[int], dict[int, list[int]], list[int]]

    def tables() -> Tables:
        """The tables of ``at``, from scratch."""
        cyc = [-1] * count
        groups: dict[int, list[int]] = {}
        for k in range(count):
            if cyc[k] < 0:
                group = []
                m = k
                while cyc[m] < 0:
                    cyc[m] = k
                    group.append(m)
                    m = dest[at[wcells[m]]]
                if len(group) > 1:
                    group.sort()
                    groups[k] = group
        welcome = static[:]
        for k in range(count):
            m = welcome[k]
            for t in dyn[k]:
                m |= nbm[at[t]]
            welcome[k] = m
        return cyc, groups, welcome

    def child(parent: Tables, a: int, b: int) -> Tables:
        """The tables of ``at`` from those of the position before its last swap, of cells ``a`` and ``b``: a
        swap within a cycle splits it in two (each named by one of the two cells), a swap across two merges
        them; only the cells beside the two see their welcome masks change."""
        cyc, groups, welcome = parent
        cyc = cyc[:]
        groups = dict(groups)
        welcome = welcome[:]
        ia, ib = index[a], index[b]
        la, lb = cyc[ia], cyc[ib]
        if la == lb:
            old = groups.pop(la)
            part = [ia]
            m = dest[at[a]]
            while m != ia:
                part.append(m)
                m = dest[at[wcells[m]]]
            inside = set(part)
            rest = [k for k in old if k not in inside]
            for k in part:
                cyc[k] = ia
            for k in rest:
                cyc[k] = ib
            if len(part) > 1:
                part.sort()
                groups[ia] = part
            if len(rest) > 1:
                groups[ib] = rest
        else:
            first = groups.pop(la, [ia])
            second = groups.pop(lb, [ib])
            for k in second:
                cyc[k] = la
            groups[la] = sorted(first + second)
        for c in (a, b):
            for k in touch[c]:
                m = static[k]
                for t in dyn[k]:
                    m |= nbm[at[t]]
                welcome[k] = m
        return cyc, groups, welcome

    def moves(h: int, allow_across: bool, tabs: Tables) -> list[tuple[int, int, int, int]]:
        """The legal swaps among the window's cells (within one cycle of what is left, unless
        ``allow_across``), sorted: those that lower the bound first, then by cards put in place."""
        cyc, groups, welcome = tabs
        out = []
        if lone < 0:
            lower, higher = h - 1, h + 1
            for group in ([full] if allow_across else groups.values()):
                for gi, i in enumerate(group):
                    a = wcells[i]
                    x = at[a]
                    wa, ma, nx, ci, tx = welcome[i], amask[i], nbm[x], cyc[i], where[x]
                    for j in group[gi + 1:]:
                        b = wcells[j]
                        y = at[b]
                        # each card needs a neighbour where it lands; two touching neighbours may always swap
                        if (welcome[j] >> x & 1 and wa >> y & 1) or (ma >> b & 1 and nx >> y & 1):
                            out.append((lower if cyc[j] == ci else higher, -((tx == b) + (where[y] == a)), a, b))
            out.sort()
            return out
        for group in ([full] if allow_across else groups.values()):
            for gi, i in enumerate(group):
                a = wcells[i]
                x = at[a]
                wa, ma, nx, ba, ci = welcome[i], amask[i], nbm[x], blocks[i], cyc[i]
                tx = where[x]
                for j in group[gi + 1:]:
                    b = wcells[j]
                    if lone >= 0 and blocks[j] != ba and a != lone and b != lone:
                        continue  # Kolvir: the two blocks meet only through the lone cell
                    y = at[b]
                    # two touching neighbours may always swap; otherwise each card needs a neighbour where it lands
                    if (ma >> b & 1 and nx >> y & 1) or (
                            (b == lone or welcome[j] >> x & 1) and (a == lone or wa >> y & 1)):
                        placed = (tx == b) + (where[y] == a)
                        out.append((h - 1 if cyc[j] == ci else h + 1, -placed, a, b))
        out.sort()
        return out

    def dfs(h: int, limit: int, visited: dict[bytes, int], parent: Tables | None, a: int, b: int) -> bool:
        nonlocal nodes
        if h == 0:
            return True
        nodes += 1
        if nodes > node_cap:
            return False
        g = len(path)
        tabs = tables() if parent is None else child(parent, a, b)
        for nh, _, a, b in moves(h, g + h + 2 <= limit, tabs):
            at[a], at[b] = at[b], at[a]
            key = bytes(at)
            if visited.get(key, limit + 1) > g + 1:
                visited[key] = g + 1
                path.append((a, b))
                if dfs(nh, limit, visited, tabs, a, b):  # noqa: F821 (deleted after the search, below)
                    return True
                path.pop()
            at[a], at[b] = at[b], at[a]
            if nodes > node_cap:
                return False
        return False

    result = None
    for limit in range(need, most + 1, 2):
        if dfs(need, limit, {bytes(at): 0}, None, -1, -1):
            result = path
            break
        if nodes > node_cap:
            break
    # ``dfs`` calls itself through its closure, a reference cycle that would keep this call's tables alive
    # until the cyclic collector runs (it is off while a solver runs): broken here, they go at once
    del dfs
    return result


def _rejoin_core(board: _Board, window: _Window, start: bytes, goal: bytes, cells: list[int], need: int, most: int,
                 node_cap: int) -> list[tuple[int, int]] | None:
    """:func:`_rejoin_py` by the compiled core (``_amber_core.c``): the same swaps in the same order tried, the same
    answer."""
    def masks(values: Sequence[int]) -> bytes:
        return b"".join(v.to_bytes(16, "little") for v in values)

    assert compiled.native is not None, "the compiled core is not built"
    return compiled.native.rejoin(
        board.n, window.lone, _core_nbm(board), bytes(window.cells), masks(window.static),
        bytes(c for inner in window.dyn for c in (*inner, 255, 255, 255, 255)[:4]), masks(window.amask),
        bytes(window.blocks), bytes(start), bytes(goal), need, most, node_cap)


@lru_cache(maxsize=8)
def _core_nbm(board: _Board) -> bytes:
    """The masks of every card's two rank-neighbours (:func:`_tables`) for the compiled core: 16 bytes a card."""
    return b"".join(m.to_bytes(16, "little") for m in _tables(board)[0])


def _replays(board: _Board, start: bytes, sub: list[tuple[int, int]], end: bytes) -> bool:
    """Whether ``sub`` is legal from ``start`` swap by swap and ends at ``end``."""
    legal = board.legal_swap
    cur = bytearray(start)
    for a, b in sub:
        if not legal(cur, a, b):
            return False
        cur[a], cur[b] = cur[b], cur[a]
    return cur == end


def _cancel_pairs(board: _Board, path: list[tuple[int, int]], deadline: float | None,
                  known: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Delete pairs of swaps that undo each other around the swaps between them.

    Swaps are transpositions of cells, so two swaps ``i < j`` cancel out (the position after ``j``
    is the same without both) when they swap the same two *cards* (the swaps between stay, with
    the two cards exchanged: a card moved aside and later moved back), or the same two *cells* (the
    swaps between then take each other's cell of the two). Each candidate is replayed with the move
    rule and kept only when every swap between stays legal. The swaps of each pair of cells and of
    each pair of cards are indexed, so only those pairs are looked at; after a deletion at ``i`` the
    pairs that end before ``i`` are not tried again (the same swaps, the same failure). ``known``: a
    solution on which this pass finds nothing (:class:`_Memo`): the pairs within a run of swaps that it
    plays too (:func:`_known_runs`) are not tried either."""
    safe: list[int] | None = None  # the pairs from i that end before safe[i] fail
    while True:
        states = _states_along(board.start, path)
        if safe is None:
            safe = _known_runs(board.start, path, states, known)
        by_cells: dict[tuple[int, int], list[int]] = {}
        by_cards: dict[tuple[int, int], list[int]] = {}
        for t, (p, q) in enumerate(path):
            by_cells.setdefault((p, q) if p < q else (q, p), []).append(t)
            x, y = states[t][p], states[t][q]
            by_cards.setdefault((x, y) if x < y else (y, x), []).append(t)
        found = None
        for i, (a, b) in enumerate(path):
            if deadline is not None and time.perf_counter() > deadline:
                return path
            first = max(i + 1, safe[i])
            x, y = states[i][a], states[i][b]
            same_cells = by_cells[(a, b) if a < b else (b, a)]
            same_cards = by_cards[(x, y) if x < y else (y, x)]
            cell_js = set(same_cells[bisect_left(same_cells, first):])
            card_js = set(same_cards[bisect_left(same_cards, first):])
            for j in sorted(card_js | cell_js):
                subs = []
                if j in cell_js:
                    swap = {a: b, b: a}
                    subs.append([(swap.get(p, p), swap.get(q, q)) for p, q in path[i + 1:j]])
                if j in card_js:
                    subs.append(path[i + 1:j])  # both kinds may hold at once: each is tried
                for sub in subs:
                    sub = [(p, q) if p < q else (q, p) for p, q in sub]
                    if _replays(board, states[i], sub, states[j + 1]):
                        found = i, j, sub
                        break
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            return path
        i, j, sub = found
        path = path[:i] + sub + path[j + 1:]
        safe = _after_rewrite(safe, i, j + 1, len(sub))


def _after_rewrite(safe: list[int], i: int, stop: int, length: int) -> list[int]:
    """``safe`` (:func:`_cancel_pairs`, :func:`_merge_triples`: the candidates from each swap that end before it
    fail) after swaps ``i..stop-1`` became ``length`` swaps, found by a scan that tried every candidate from the
    swaps before ``i`` first: those that end before ``i`` fail, the new swaps know nothing, and the runs after
    them move with them."""
    shift = length - (stop - i)
    return [i] * i + list(range(i, i + length)) + [e + shift for e in safe[stop:]]


def _follow(legal: Callable[[bytes | bytearray, int, int], bool], states: list[bytes], path: list[tuple[int, int]],
            masks: list[int], nearmask: list[int] | None, lab: dict[int, int], span: range,
            skip: tuple[int, ...]) -> bool:
    """Play the solution's swaps of ``span`` but those of ``skip`` (:func:`_merge_triples`: swaps among the cards of
    ``lab``) from the position that is ``states[span.start]`` but in the cells of ``lab``, which hold ``lab``'s cards
    (updated in place as the swaps move them); whether every swap is legal. The position differs from the
    solution's only in cells of ``lab``: with ``nearmask`` (cells beside each other both ways), a swap that neither
    moves nor looks at a cell where they differ sees what the solution saw, legal there, and is not checked."""
    zone = diff = -1  # the cells of ``lab`` and those where the two positions differ, with the cells beside them
    if nearmask is not None:
        zone, diff = _zones(nearmask, lab, states[span.start])
    for t in span:
        m = masks[t]
        if not m & zone:
            continue  # neither moves nor looks at a cell of ``lab``
        if t in skip:
            if nearmask is not None:
                zone, diff = _zones(nearmask, lab, states[t + 1])  # the solution moved cards of ``lab`` there
            continue
        p, q = path[t]
        if m & diff:
            cur = bytearray(states[t])
            for c, z in lab.items():
                cur[c] = z
            if not legal(cur, p, q):
                return False
        x = lab.pop(p, None)
        y = lab.pop(q, None)
        if x is not None:
            lab[q] = x
        if y is not None:
            lab[p] = y
        if (x is not None or y is not None) and nearmask is not None:
            zone, diff = _zones(nearmask, lab, states[t + 1])
    return True


def _zones(nearmask: list[int], lab: dict[int, int], state: bytes) -> tuple[int, int]:
    """The cells of ``lab`` with the cells beside them, and the same for those of its cells where ``state`` holds
    another card (bit masks)."""
    zone = diff = 0
    for c, z in lab.items():
        zone |= nearmask[c]
        if state[c] != z:
            diff |= nearmask[c]
    return zone, diff


def _merge_triples(board: _Board, path: list[tuple[int, int]], deadline: float | None,
                   known: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Replace three swaps ``i < j < k`` among three cards by one swap of two of them (at ``i``, ``j``
    or ``k``), when the swaps between stay legal: they keep their cells, and the three cards only
    trade places among the cells they hold, so the end position is checked by the replay. For each
    ``i`` and each later ``j`` sharing one card with it, only the first later swap ``k`` among the
    three cards is tried (the swaps of each card are indexed, so only those are looked at). ``known``: a
    solution on which this pass finds nothing (:class:`_Memo`): the triples within a run of swaps that it
    plays too (:func:`_known_runs`) are not tried (the same swaps, the same failure)."""
    legal = board.legal_swap
    # the swaps between keep their cells and the three cards only trade places among the cells they hold: a swap
    # between that neither moves nor looks at one of those cells is legal as in the solution (:func:`_follow`)
    near = board.nearmask if _symmetric(board) else None
    # the triples from i that end before safe[i] fail (after a merge at i, every triple that ends before i)
    safe: list[int] | None = None
    while True:
        states = _states_along(board.start, path)
        if safe is None:
            safe = _known_runs(board.start, path, states, known)
        cards = [frozenset((states[t][p], states[t][q])) for t, (p, q) in enumerate(path)]
        swaps_of: dict[int, list[int]] = {}  # the swaps that move each card, in order
        for t, pair in enumerate(cards):
            for x in pair:
                swaps_of.setdefault(x, []).append(t)
        masks = [(1 << p) | (1 << q) for p, q in path]
        found = None
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
                if k < safe[i]:
                    continue  # none, or the same swaps as when it failed
                pairs = [(a, b) for a in three for b in three if a < b]
                skip = (i, j, k)
                end = states[k + 1]
                for at in skip:
                    # The position at each swap t of the rewrite is the solution's (``states[t]``) with the three cards
                    # in other places among the cells that hold them: ``lab``, those cells and the card each holds.
                    # The swaps before ``at`` are the same for the three pairs: followed once.
                    first = states[i]
                    lab = {first.index(x): x for x in three}
                    if not _follow(legal, states, path, masks, near, lab, range(i, at), skip):
                        continue
                    inv = {x: c for c, x in lab.items()}
                    for x, y in pairs:
                        p, q = (inv[x], inv[y]) if inv[x] < inv[y] else (inv[y], inv[x])
                        cur = bytearray(states[at])
                        for c, z in lab.items():
                            cur[c] = z
                        if not legal(cur, p, q):
                            continue
                        after = dict(lab)
                        after[p], after[q] = lab[q], lab[p]
                        if (_follow(legal, states, path, masks, near, after, range(at + 1, k + 1), skip)
                                and all(end[c] == z for c, z in after.items())):
                            found = i, k, ([path[t] for t in range(i, at) if t not in skip] + [(p, q)]
                                           + [path[t] for t in range(at + 1, k + 1) if t not in skip])
                            break
                    if found is not None:
                        break
                if found is not None:
                    break
            if found is not None:
                break
        if found is None:
            return path
        i, k, sub = found
        path = path[:i] + sub + path[k + 1:]
        safe = _after_rewrite(safe, i, k + 1, len(sub))


#: Re-joining traces: from each swap ``i``, the swaps after it that depend on it (directly or
#: through each other) form a window of at most ``TRACE_SWAPS`` swaps and ``TRACE_CELLS`` cells,
#: looked for within ``TRACE_SPAN`` swaps; the swaps they do not depend on are moved out of the way
#: (before or after the window), which keeps them legal. A window is re-joined (``_rejoin``, at most
#: ``TRACE_NODES`` states) each time its slack (length minus permutation bound) grows.
TRACE_SWAPS = 20
TRACE_CELLS = 18
TRACE_SPAN = 100
TRACE_NODES = 60


def _trace_windows_live(path: list[tuple[int, int]], i: int, near: list[frozenset[int]],
                        swaps: int = TRACE_SWAPS, cells: int = TRACE_CELLS, span: int = TRACE_SPAN
                        ) -> Iterator[tuple[int, list[int], list[int], set[int]]]:
    """The windows that start with swap ``i``, growing: ``(t, window, skipped, before)``, the search's own
    lists, which change as it goes on (read them before the next window): ``window`` are the indices of the
    swaps in it (``i`` first, ``t`` last, one more each time), ``skipped`` the other swaps of ``i..t`` that came
    on nothing in the window, in order, ``before`` those of them that some swap of the window depends on
    (:func:`_around_window` lists the swaps to move before and after the window).

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
        yield t, window, skipped, before


def _around_window(i: int, t: int, window: list[int], skipped: list[int], before: set[int]
                   ) -> tuple[list[int], list[int]]:
    """The swaps of ``i..t`` that go before a window and those that go after it, in order."""
    members = set(window)
    return ([u for u in skipped if u in before],
            [u for u in range(i, t + 1) if u not in members and u not in before])


def _rejoin_traces(board: _Board, path: list[tuple[int, int]], deadline: float | None,
                   swaps: int = TRACE_SWAPS, cells_cap: int = TRACE_CELLS, span: int = TRACE_SPAN,
                   node_cap: int = TRACE_NODES,
                   memo: dict[tuple[object, ...], tuple[int, tuple[tuple[int, int], ...] | None]] | None = None
                   ) -> list[tuple[int, int]]:
    """Re-join windows made of the swaps that depend on each other (:func:`_trace_windows_live`): a
    window with far fewer cells than the swaps around it touch, so longer windows can be re-joined
    (:func:`_rejoin`, ending exactly where the window ended). The swaps moved out of the way and
    the new ones are replayed with the move rule before they are kept. ``memo``: :func:`_rejoin`'s, kept
    across calls (windows looked at again, after a rewrite nearby or in a later call, end as before)."""
    _, near = _tables(board)
    states = _states_along(board.start, path)
    i = 0
    while i < len(path) - 2:
        if deadline is not None and time.perf_counter() > deadline:
            break
        found = None
        slack_tried = 0
        # the window's swaps as one permutation of the cells they touch (the card that ends in each cell comes from
        # ``sigma[c]``), kept as the window grows, and its cycles: the bound between the window's ends is the cells
        # minus the cycles, whatever the cards (the same as ``_relative_bound`` of the two ends)
        sigma: dict[int, int] = {}
        cycles = 0
        done = 0
        for t, window, skipped, moved in _trace_windows_live(path, i, near, swaps, cells_cap, span):
            for u in window[done:]:
                a, b = path[u]
                for c in (a, b):
                    if c not in sigma:
                        sigma[c] = c
                        cycles += 1
                c = sigma[a]
                while c != a and c != b:
                    c = sigma[c]
                cycles += 1 if c == b else -1  # a swap within one cycle splits it, across two merges them
                sigma[a], sigma[b] = sigma[b], sigma[a]
            done = len(window)
            if len(window) < 2:
                continue
            slack = len(window) - (len(sigma) - cycles)
            if slack < 2 or slack <= slack_tried:
                continue  # tried already with this slack (a merge more makes it worth another try)
            before, after = _around_window(i, t, window, skipped, moved)
            start = bytearray(states[i])
            for u in before:
                a, b = path[u]
                start[a], start[b] = start[b], start[a]
            end = bytearray(start)
            for u in window:
                a, b = path[u]
                end[a], end[b] = end[b], end[a]
            cells = sorted(sigma)
            slack_tried = slack
            sub = _rejoin(board, bytes(start), bytes(end), cells, len(window) - 2, node_cap, memo)
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


#: Carrying swaps along a solution (:func:`_transport`): at most ``CARRY_NODES`` states from each swap,
#: over at most ``CARRY_SPAN`` swaps after it, the carried permutation moving at most ``CARRY_CELLS``
#: cells; its swaps are re-joined within ``CARRY_EMIT`` states; at most ``CARRY_BUDGET`` states in all.
CARRY_NODES = 300
CARRY_SPAN = 300
CARRY_CELLS = 8
#: The sweeps of :func:`shorten`: (states from each swap, cells the carried permutation may move, whether
#: the search jumps over the swaps far from it: :func:`_carry_jump`, whose states are the swaps near it,
#: the swaps it starts from: every swap for None, else only a swap with a merge among itself and the
#: ``aim`` swaps after it, :func:`_aimed`).
CARRY_SWEEPS: tuple[tuple[int, int, bool, int | None], ...] = (
    (CARRY_NODES, CARRY_CELLS, False, None), (50, 12, False, None), (CARRY_NODES, CARRY_CELLS, True, None))
#: The aimed sweeps, after those (same fields): more cells, few states, only from the swaps with a merge among
#: themselves and the next swap. Most rewrites of a bigger carried permutation are found within a few dozen states
#: of their start (``docs/solver-shorten.md``, "Tenth session"); starting only near merges keeps about 80% of the
#: swaps cut for about 60% of the CPU. Not on the layouts of ``UNAIMED`` (Pattern: 0.2% shorter for +27% CPU).
AIMED_SWEEPS: tuple[tuple[int, int, bool, int | None], ...] = ((40, 14, True, 1),)
UNAIMED = frozenset({"pattern"})
CARRY_EMIT = 30
CARRY_BUDGET = 60000
#: After a rewrite the pass goes back this many swaps (the rewrite may let an earlier swap cancel).
CARRY_BACK = 20


def _merges(board: _Board, states: list[bytes], path: list[tuple[int, int]]) -> list[bool]:
    """Whether each swap of ``path`` (``states``: the positions before each) is a *merge*: its two cells on two
    cycles of the permutation to the goal (a cell's card belongs in ``board.target[card]``), so the swap joins
    them and the bound goes up by one; else it splits a cycle and the bound goes down by one."""
    target = board.target
    out = []
    for t, (a, b) in enumerate(path):
        state = states[t]
        c = target[state[a]]
        while c != a and c != b:
            c = target[state[c]]
        out.append(c != b)
    return out


def _aimed(merges: list[bool], aim: int | None) -> list[bool]:
    """The swaps an aimed sweep starts from (:func:`_transport`): every swap for ``aim`` None, else a swap with a
    merge among itself and the ``aim`` swaps after it (``merges``: :func:`_merges`)."""
    if aim is None:
        return [True] * len(merges)
    out = []
    last = -1  # the index of the last merge seen from the end
    for t in range(len(merges) - 1, -1, -1):
        if merges[t]:
            last = t
        out.append(last >= 0 and last - t <= aim)
    out.reverse()
    return out


def _min_swaps(d: dict[int, int]) -> int:
    """The fewest swaps that make the permutation ``d`` (its moved cells minus its cycles)."""
    seen: set[int] = set()
    cycles = 0
    for c in d:
        if c not in seen:
            cycles += 1
            while c not in seen:
                seen.add(c)
                c = d[c]
    return len(d) - cycles



def _skip(d: dict[int, int], a: int, b: int) -> dict[int, int]:
    """The carried permutation ``d`` after the swap of cells ``a`` and ``b`` is skipped (carried too): the
    cards ``d`` sends to ``a`` and ``b`` trade places, and a cell whose card comes home leaves ``d``."""
    da, db = d.get(a, a), d.get(b, b)
    skipped = dict(d)
    skipped[a], skipped[b] = db, da
    if db == a:
        del skipped[a]
    if da == b:
        del skipped[b]
    return skipped

def _same_cycle(d: dict[int, int], a: int, b: int) -> bool:
    """Whether cells ``a`` and ``b`` are in one cycle of the permutation ``d`` (cells it does not move
    are cycles of their own)."""
    if a not in d:
        return False
    c = d[a]
    while c != a:
        if c == b:
            return True
        c = d[c]
    return False


def _emit(board: _Board, cur: bytes, d: dict[int, int], most: int, emit_nodes: int) -> list[tuple[int, int]] | None:
    """A legal sequence of at most ``most`` swaps from ``cur`` to ``cur`` followed by ``d``: the
    fewest swaps that make ``d``, one cycle after another, when they are legal in that order; else
    a re-join among ``d``'s cells (:func:`_rejoin`, at most ``emit_nodes`` states).

    None at once when a card cannot get to its cell: every card of ``d``'s cells moves, and the last
    swap that brings it to its cell needs a rank-neighbour beside that cell, either outside ``d``'s
    cells (those never move here) or a card of ``d``'s cells, which needs a cell of ``d`` there."""
    if _min_swaps(d) > most:
        return None
    nbm, _ = _tables(board)
    inside = 0
    cells = 0
    for c in d:
        inside |= 1 << cur[c]
        cells |= 1 << c
    adj, adjmask, lone = board.adj, board.adjmask, board.lone
    for u, v in d.items():
        if u == lone:
            continue
        want = nbm[cur[v]]  # the neighbours of the card that ends in u
        if want & inside and adjmask[u] & cells:
            continue
        for t in adj[u]:
            if not cells >> t & 1 and want >> cur[t] & 1:
                break
        else:
            return None
    legal = board.legal_swap
    at = bytearray(cur)
    # what is left to make, ``rest`` (the cell whose card each cell needs) and its inverse: each cell of ``d`` in
    # turn gets its card by one swap with the cell holding it, when legal (else the re-join below)
    rest = dict(d)
    back = {y: x for x, y in d.items()}
    out = []
    for c in d:
        e = rest.get(c)
        if e is None:
            continue
        if not legal(at, c, e):
            break
        at[c], at[e] = at[e], at[c]
        out.append((c, e) if c < e else (e, c))
        # after the swap c holds its card and e the card c held, which the cell that wanted it now wants from e
        x = back.pop(c)
        del rest[c]
        del back[e]
        if x == e:
            del rest[e]
        else:
            rest[x] = e
            back[e] = x
    if not rest:
        return out
    goal = bytearray(cur)
    for x, y in d.items():
        goal[x] = cur[y]
    return _rejoin(board, cur, bytes(goal), sorted(d), most, emit_nodes)


def _emit_any(board: _Board, cur: bytes, items: list[tuple[int, int]], most: int, emit_nodes: int
              ) -> list[tuple[int, int]] | None:
    """:func:`_emit` of the permutation of ``items`` (in their order), by the compiled core when it is built
    (``_amber_core.emit``: the same swaps, the same answer; a test compares them)."""
    if compiled.ON and len(items) <= 30 and most <= 250:
        assert compiled.native is not None, "the compiled core is not built"
        return compiled.native.emit(_carry_board(board), cur, items, most, emit_nodes)
    return _emit(board, cur, dict(items), most, emit_nodes)


def _carry(board: _Board, path: list[tuple[int, int]], states: list[bytes], i: int, node_cap: int, span: int,
           cells_cap: int, emit_nodes: int, failed: dict[tuple[object, ...], int] | None = None,
           played_ok: list[bool] | None = None, masks: list[int] | None = None
           ) -> tuple[tuple[int, list[tuple[int, int]]] | None, int]:
    """:func:`_carry_py` by the compiled core when it is built (``_amber_core.carry``: the same states in the same
    order, the same answer; the tries to play the carried permutation, :func:`_emit` and ``failed``, stay in Python,
    called back by the core), else :func:`_carry_py` itself."""
    if not compiled.ON or cells_cap > 30:
        return _carry_py(board, path, states, i, node_cap, span, cells_cap, emit_nodes, failed, played_ok, masks)
    assert compiled.native is not None, "the compiled core is not built"
    if played_ok is None:
        legal = board.legal_swap
        played_ok = [legal(states[t], a, b) for t, (a, b) in enumerate(path)]
    found, nodes = compiled.native.carry(_carry_board(board), path, states, played_ok, i, node_cap, span, cells_cap,
                                         _symmetric(board), _emit_tries(board, failed, emit_nodes))
    return found, nodes


def _emit_tries(board: _Board, failed: dict[tuple[object, ...], int] | None, emit_nodes: int
                ) -> Callable[[bytes, list[tuple[int, int]], int, int, int], list[tuple[int, int]] | None]:
    """What :func:`_carry_py` and :func:`_carry_jump_py` do where they try to play the carried permutation, for the
    compiled searches to call: ``(cur, d's items, swaps taken out, zone's low and high 64 bits)`` -> the swaps of
    :func:`_emit`, or None (then the try is recorded in ``failed``, as theirs are, unless one with as many swaps
    taken out failed before)."""

    def tries(cur: bytes, items: list[tuple[int, int]], removed: int, zone_low: int, zone_high: int
              ) -> list[tuple[int, int]] | None:
        d = dict(items)
        key = (tuple(sorted(d.items())), _cards_of(zone_low | zone_high << 64)(cur))
        if failed is None or failed.get(key, -1) < removed:
            sub = _emit_any(board, cur, items, removed - 2, emit_nodes)
            if sub is not None:
                return sub
            if failed is not None:
                failed[key] = removed
        return None

    return tries


@lru_cache(maxsize=16)
def _carry_board(board: _Board) -> tuple[int, int, bytes, bytes, bytes, bytes, bytes]:
    """The board for the compiled :func:`_carry` (``_amber_core.carry``): the cells, the lone cell (-1 for none),
    every card's two rank-neighbours, the (up to four) cells beside each cell and the (up to five) cells of
    ``near`` (255 for none), whether each cell holds a start card, and its block."""
    return (board.n, board.lone, bytes(z for pair in board.nb for z in pair),
            bytes(c for cells in board.adj for c in (*cells, 255, 255, 255, 255)[:4]), bytes(board.fixed),
            bytes(board.block), bytes(c for cells in board.near for c in (*cells, 255, 255, 255, 255, 255)[:5]))


def _carry_py(board: _Board, path: list[tuple[int, int]], states: list[bytes], i: int, node_cap: int, span: int,
              cells_cap: int, emit_nodes: int, failed: dict[tuple[object, ...], int] | None = None,
              played_ok: list[bool] | None = None, masks: list[int] | None = None
              ) -> tuple[tuple[int, list[tuple[int, int]]] | None, int]:
    """Take swap ``i`` out and carry what is missing, a permutation ``d`` of a few cells (the
    position after each swap ``k`` is the new one followed by ``d``), along the swaps after it.

    At each later swap ``b``: *skip* it (``d`` takes it in: one swap fewer), or play it where it
    was (``d`` is conjugated by it: its cells follow ``b``), or play it on the cards it moved (``b``
    conjugated by ``d``; the same as the first when ``b`` does not touch ``d``'s cells). Every swap
    played is checked with the move rule (the cards of ``d``'s cells differ from the solution's).
    When the swaps taken out outnumber the fewest that make ``d`` by two or more, ``d``'s swaps are
    played right there (:func:`_emit`): the swaps ``i..k-1`` become the swaps played and those.
    Depth first (a skip that makes ``d`` cheaper first, one that makes it dearer last), at most
    ``node_cap`` states; returns ``((k, swaps), states used)`` or ``(None, states used)``. ``failed``
    keeps the attempts to play ``d``'s swaps that failed, shared between calls: ``d`` and the cards of
    ``d``'s cells and the cells around them -> the most swaps taken out (fewer allowed fail too: a re-join
    within fewer swaps runs the same first rounds of its iterative deepening), so the same again is not tried.

    Cheaper than it reads, with the same states in the same order: the position is not carried but
    rebuilt when needed (the solution's, ``states[k]``, with ``d`` undone), the swaps played where the
    solution played them are kept as ranges of it, and a *far* swap (neither of its cells is one of
    ``d``'s or beside one) costs its state and little else: it sees what the solution saw, so its check
    is the solution's own (``played_ok``: each swap's legality where the solution played it), its play
    leaves ``d`` as it is, and its skip (tried last) is only noted, built when its turn comes. ``masks``:
    each swap's two cells as a bit mask; both are computed here when not given."""
    legal = board.legal_swap
    p, q = path[i]
    end = min(len(path), i + span)
    nearmask = board.nearmask
    if played_ok is None:
        played_ok = [legal(states[t], a, b) for t, (a, b) in enumerate(path)]
    if masks is None:
        masks = [(1 << a) | (1 << b) for a, b in path]
    fast = _symmetric(board)
    # A state: (next swap k, d, swaps taken out, fewest swaps making d, the swaps played before k0, k0 (the
    # solution's swaps k0..k-1 were played as they were), whether d's swaps may be playable: not when they
    # were not at a position the same in d's cells and around them, the cells around d's: 0 when not known).
    # A far swap's skip waits on the stack as (k, d, taken out, fewest, swaps played before k0, k0).
    # The position, when known (else None: rebuilt from the solution's), comes last.
    State = tuple[int, dict[int, int], int, int, _Run, int, bool, int, bytes | None]
    stack: list[State | tuple[int, dict[int, int], int, int, _Run, int]] = [
        (i + 1, {p: q, q: p}, 1, 1, None, i + 1, True, 0, states[i])]
    nodes = 0
    while stack:
        item = stack.pop()
        if len(item) == 6:
            k, d, removed, need, base, k0 = item  # type: ignore[misc]
            a, b = path[k]
            skipped = dict(d)
            skipped[a], skipped[b] = b, a
            item = (k + 1, skipped, removed + 1, need + 1, (base, range(k0, k)) if k > k0 else base, k + 1, True, 0,
                    None)
        k, d, removed, need, base, k0, fresh, zone, cur = item  # type: ignore[misc]
        while True:
            nodes += 1
            if nodes > node_cap:
                return None, nodes
            if not d:
                return (k, _unrun((base, range(k0, k)) if k > k0 else base, path)), nodes
            if not zone:
                for c in d:
                    zone |= nearmask[c]
            if not (fast and k < end and not masks[k] & zone and played_ok[k]
                    and not (fresh and removed - need >= 2)):
                break
            # a far swap: played where it was (the next state), its skip noted for later
            if len(d) + 2 <= cells_cap:
                stack.append((k, d, removed, need, base, k0))
            k += 1
            cur = None
        if cur is None:
            st = states[k]
            at = bytearray(st)
            for x, y in d.items():
                at[y] = st[x]
            cur = bytes(at)
        run: _Run = (base, range(k0, k)) if k > k0 else base  # the swaps played before k
        plays: list[State] = []
        cheaper = None
        plain = None
        grown = None
        if k < end:
            a, b = path[k]
            ina = a in d
            inb = b in d
            da, db = d.get(a, a), d.get(b, b)
            # skip b: d becomes d after b (a swap within one of d's cycles splits it: one swap fewer makes d)
            if len(d) + (not ina) + (not inb) <= cells_cap:
                skipped = _skip(d, a, b)
                same = False
                if ina:
                    c = da
                    while c != a:
                        if c == b:
                            same = True
                            break
                        c = d[c]
                if same:
                    cheaper = (k + 1, skipped, removed + 1, need - 1, run, k + 1, True, 0, cur)  # tried first
                else:
                    grown = (k + 1, skipped, removed + 1, need + 1, run, k + 1, True, 0, cur)  # tried last
            if ina or inb:
                # b on the cards it moved: the cells d puts them in
                if legal(cur, da, db):
                    nxt = bytearray(cur)
                    nxt[da], nxt[db] = nxt[db], nxt[da]
                    plays.append((k + 1, d, removed, need, (run, (da, db) if da < db else (db, da)), k + 1, True,
                                  zone, bytes(nxt)))
                # b where it was: d's cells follow b
                if legal(cur, a, b):
                    nxt = bytearray(cur)
                    nxt[a], nxt[b] = nxt[b], nxt[a]
                    sw = {a: b, b: a}
                    plays.append((k + 1, {sw.get(x, x): sw.get(y, y) for x, y in d.items()}, removed, need,
                                  (run, (a, b)), k + 1, True, 0, bytes(nxt)))
            else:
                # whether b moves or looks at a cell of d's (with cells beside each other both ways, those are
                # the cells around d's), else it sees what the solution saw
                near = bool(zone >> a & 1 or zone >> b & 1)
                if legal(cur, a, b) if near or not fast else played_ok[k]:
                    nxt = bytearray(cur)
                    nxt[a], nxt[b] = nxt[b], nxt[a]
                    plain = (k + 1, d, removed, need, base, k0, near, zone, bytes(nxt))
        if fresh and removed - need >= 2:
            key = (tuple(sorted(d.items())), _cards_of(zone)(cur))
            if failed is None or failed.get(key, -1) < removed:
                sub = _emit(board, cur, d, removed - 2, emit_nodes)
                if sub is not None:
                    return (k, _unrun(run, path) + sub), nodes
                if failed is not None:
                    failed[key] = removed
            fresh = False
        if grown is not None:
            stack.append(grown)
        if plain is not None:
            if fresh:
                plain = plain[:6] + (True,) + plain[7:]
            plays.append(plain)
        stack.extend(plays)
        if cheaper is not None:
            stack.append(cheaper)
    return None, nodes


@lru_cache(maxsize=4096)
def _cards_at(cells: tuple[int, ...]) -> Callable[[bytes], object]:
    """A function giving the cards of ``cells`` of a position (for the keys of :func:`_rejoin`'s memo)."""
    return itemgetter(*cells)


@lru_cache(maxsize=4096)
def _cards_of(zone: int) -> Callable[[bytes], tuple[int, ...]]:
    """A function giving the cards of the cells of ``zone`` (a bit mask of two cells or more) of a position,
    in cell order (for the keys of the failed attempts to play a carried permutation)."""
    return itemgetter(*set_bits(zone))  # type: ignore[return-value]


@lru_cache(maxsize=16)
def _symmetric(board: _Board) -> bool:
    """Whether the board's cells are beside each other both ways (every layout's are; the carried
    search's shortcuts rely on it and fall back to the plain checks otherwise)."""
    return all(c in board.adj[t] for c in range(board.n) for t in board.adj[c])


#: A sequence of swaps built backwards, where a ``range`` stands for the solution's swaps it indexes.
_Run = tuple["_Run", "tuple[int, int] | range"] | None


def _unrun(run: _Run, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
    parts: list[tuple[int, int] | range] = []
    while run is not None:
        run, item = run
        parts.append(item)
    out: list[tuple[int, int]] = []
    for item in reversed(parts):
        if isinstance(item, range):
            out.extend(path[item.start:item.stop])
        else:
            out.append(item)
    return out


def _carry_jump(board: _Board, path: list[tuple[int, int]], states: list[bytes], i: int, node_cap: int, span: int,
                cells_cap: int, emit_nodes: int, failed: dict[tuple[object, ...], int] | None = None,
                masks: list[int] | None = None) -> tuple[tuple[int, list[tuple[int, int]]] | None, int]:
    """:func:`_carry_jump_py` by the compiled core when it is built (``_amber_core.carry_jump``, as :func:`_carry`),
    else :func:`_carry_jump_py` itself."""
    if not compiled.ON or cells_cap > 30:
        return _carry_jump_py(board, path, states, i, node_cap, span, cells_cap, emit_nodes, failed, masks)
    assert compiled.native is not None, "the compiled core is not built"
    found, nodes = compiled.native.carry_jump(_carry_board(board), path, states, i, node_cap, span, cells_cap,
                                              _emit_tries(board, {} if failed is None else failed, emit_nodes))
    return found, nodes


def _carry_jump_py(board: _Board, path: list[tuple[int, int]], states: list[bytes], i: int, node_cap: int,
                   span: int, cells_cap: int, emit_nodes: int, failed: dict[tuple[object, ...], int] | None = None,
                   masks: list[int] | None = None) -> tuple[tuple[int, list[tuple[int, int]]] | None, int]:
    """:func:`_carry` that jumps over the swaps far from the carried permutation ``d``: a swap that
    neither moves nor looks at a cell of ``d`` (neither of its cells is one of ``d``'s cells or beside
    one) is legal exactly where the solution played it and leaves ``d`` as it is, so the search goes
    straight to the next swap that does, and a state is one such swap (``masks``: each swap's two
    cells as a bit mask). Those far swaps are never taken out here (the walking :func:`_carry` also
    tries that, one state a swap), so the states go to the choices near ``d``. The position is not
    carried along: it is the solution's with ``d`` undone (``states[k] = cur ∘ d``). The same
    returns as :func:`_carry`."""
    legal = board.legal_swap
    if masks is None:
        masks = [(1 << a) | (1 << b) for a, b in path]
    if failed is None:
        failed = {}
    p, q = path[i]
    end = min(len(path), i + span)
    nearmask = board.nearmask
    # (next swap, d, swaps taken out, fewest swaps making d, swaps played)
    stack: list[tuple[int, dict[int, int], int, int, _Run]] = [(i + 1, {p: q, q: p}, 1, 1, None)]
    nodes = 0
    while stack:
        k, d, removed, need, run = stack.pop()
        nodes += 1
        if nodes > node_cap:
            break
        if not d:
            return (k, _unrun(run, path)), nodes
        zone = 0
        for c in d:
            zone |= nearmask[c]
        st = states[k]
        cur = bytearray(st)
        for x, y in d.items():
            cur[y] = st[x]
        if removed - need >= 2:
            key = (tuple(sorted(d.items())), _cards_of(zone)(cur))
            if failed.get(key, -1) < removed:
                sub = _emit(board, bytes(cur), d, removed - 2, emit_nodes)
                if sub is not None:
                    return (k, _unrun(run, path) + sub), nodes
                failed[key] = removed
        k0 = k
        while k < end and not masks[k] & zone:
            k += 1
        if k >= end:
            continue
        if k > k0:
            run = (run, range(k0, k))
            st = states[k]
            cur = bytearray(st)
            for x, y in d.items():
                cur[y] = st[x]
        a, b = path[k]
        da, db = d.get(a, a), d.get(b, b)
        plays: list[tuple[int, dict[int, int], int, int, _Run]] = []
        cheaper = None
        if len(d) + (a not in d) + (b not in d) <= cells_cap:
            # skip b: d becomes d after b (a swap within one of d's cycles splits it: one swap fewer makes d)
            skipped = _skip(d, a, b)
            if _same_cycle(d, a, b):
                cheaper = (k + 1, skipped, removed + 1, need - 1, run)  # tried first
            else:
                stack.append((k + 1, skipped, removed + 1, need + 1, run))  # tried last
        if a in d or b in d:
            if legal(cur, da, db):  # b on the cards it moved: the cells d puts them in
                plays.append((k + 1, d, removed, need, (run, (da, db) if da < db else (db, da))))
            if legal(cur, a, b):  # b where it was: d's cells follow b
                sw = {a: b, b: a}
                plays.append((k + 1, {sw.get(x, x): sw.get(y, y) for x, y in d.items()}, removed, need,
                              (run, (a, b))))
        elif legal(cur, a, b):
            plays.append((k + 1, d, removed, need, (run, (a, b))))
        stack.extend(plays)
        if cheaper is not None:
            stack.append(cheaper)
    return None, nodes


def _transport(board: _Board, path: list[tuple[int, int]], deadline: float | None, node_cap: int | None = None,
               span: int | None = None, cells_cap: int | None = None, emit_nodes: int | None = None,
               budget: int | None = None, jump: bool = False,
               failed: dict[tuple[object, ...], int] | None = None, aim: int | None = None) -> list[tuple[int, int]]:
    """Take each swap out in turn and carry it along the solution (:func:`_carry`) until it cancels
    out with later swaps taken out, the swaps between kept (where they were, or on the same cards)
    and checked with the move rule; the rewrite ends exactly where the solution's swaps that it
    replaces ended. Finds what the pairs that cancel out find (all kept where they were, or all on
    the same cards) and rewrites whose swaps are far apart, with swaps between that move the same
    cells (which the windows of swaps that depend on each other cannot move out of the way). ``failed``: the
    failed attempts to play a carried permutation (:func:`_carry`), kept from earlier calls with the same
    ``emit_nodes`` (a new dictionary when not given). ``aim``: start only from the swaps with a merge among
    themselves and the ``aim`` swaps after them (:func:`_aimed`; every swap for None), which the rewrites
    update as they go."""
    node_cap = CARRY_NODES if node_cap is None else node_cap
    span = CARRY_SPAN if span is None else span
    cells_cap = CARRY_CELLS if cells_cap is None else cells_cap
    emit_nodes = CARRY_EMIT if emit_nodes is None else emit_nodes
    budget = CARRY_BUDGET if budget is None else budget
    states = _states_along(board.start, path)
    if failed is None:
        failed = {}
    masks = [(1 << a) | (1 << b) for a, b in path]
    legal = board.legal_swap
    played_ok = [legal(states[t], a, b) for t, (a, b) in enumerate(path)]  # each swap where the solution played it
    merges = _merges(board, states, path) if aim is not None else []
    starts = _aimed(merges, aim) if aim is not None else []
    spent = 0
    i = 0
    while i < len(path) - 1 and spent <= budget:
        if deadline is not None and time.perf_counter() > deadline:
            break
        if aim is not None and not starts[i]:
            i += 1
            continue
        if jump:
            found, nodes = _carry_jump(board, path, states, i, node_cap, span, cells_cap, emit_nodes, failed, masks)
        else:
            found, nodes = _carry(board, path, states, i, node_cap, span, cells_cap, emit_nodes, failed, played_ok,
                                  masks)
        spent += nodes
        if found is None:
            i += 1
            continue
        k, sub = found
        mid = _states_along(states[i], sub)
        if mid[-1] != states[k] or not _replays(board, states[i], sub, states[k]):
            i += 1  # never happens (every swap was checked and d is exact); kept as a guard
            continue
        path = path[:i] + sub + path[k:]
        states = states[:i] + mid + states[k + 1:]
        masks = masks[:i] + [(1 << a) | (1 << b) for a, b in sub] + masks[k:]
        played_ok = played_ok[:i] + [legal(mid[t], a, b) for t, (a, b) in enumerate(sub)] + played_ok[k:]
        if aim is not None:  # the positions from k on are as they were, and so are their merges
            merges = merges[:i] + _merges(board, mid, sub) + merges[k:]
            starts = _aimed(merges, aim)
        i = max(0, i - CARRY_BACK)
    return path
