"""The solver of the Amber layouts (Path in Shadow, Forest of Arden, Mount Kolvir, Pattern of Amber).

How it works (``docs/solver.md`` has the reasoning and the measured figures):

* **Compact state.** Cards and cells are small ints; a position is a ``bytes`` of the card in
  every cell. The move rule is re-written over ints (``_Board.moves``) from the public geometry
  of :class:`~amber_patience.games.amber.AmberGame` (a test checks it against the rules engine);
  every solution is replayed by the rules engine anyway (:func:`amber_patience.solvers.solve`).
* **The permutation bound.** A swap changes the number of cycles of the permutation that takes
  the position to its goal by exactly one, so the lower bound (cells minus cycles) moves by
  exactly +1 or -1 with every swap: a swap of two cards of the *same* cycle is progress (any
  such swap, not only one that puts a card in its goal cell); a swap across cycles costs two
  moves. Solution length = bound + 2 x (swaps across cycles).
* **Weighted best-first search** on ``f = g + w * h`` with ``h = alpha * bound + beta * cards
  out of place + gamma * cards outside their group + eta * cards touching no rank-neighbour``.
  The eta term answers the move rule: a card can only land beside a rank-neighbour, so positions
  where cards touch their neighbours keep moves open for *both* cards of a swap. Children are
  pushed lazily (parent + move), their eta term estimated and corrected when they are popped
  (or computed exactly for each child, where that measured better: only the moved cards'
  rank-neighbours can change; on Arden and Kolvir a child goes in with a lower bound of it and is
  weighed exactly when popped, which expands the same states in the same order for less CPU).
  A child whose key is well above its parent's is *deferred*: kept in its parent's lists, not
  pushed, until the heap's keys reach it (most never do; the same pops in the same order).
  States are deduplicated.
* **Compiled.** :func:`_search` runs the search in C (``_amber_core.c``, built by ``pip install`` as an
  optional extension) when it is built: the very search of :func:`_search_py`, the Python reference, state
  for state (the same swaps in the same order, the same keys bit for bit, the same random tie-breaks), about
  twelve to twenty-five times less CPU a state. ``tests/test_amber_core.py`` checks the two against each other;
  ``AMBER_PURE_PYTHON=1`` runs the Python one. The core holds the other inner searches of the Amber solvers too
  (:mod:`.compiled` lists them).
* **A plan per layout** (:func:`plan_for`): ``gather`` every card into its region, then ``sort``
  each region with only its own cells moving. Mount Kolvir: trumps to the top block + lone cell
  and the minors to the two halves of the bottom block (the lone cell is a free buffer: any card
  may enter it, so gathering is cheap), then each region is a small, independent puzzle. Path in
  Shadow (52/56 cards): the two halves of the grid. Forest of Arden: a short whole-board search,
  then the chain: gather the cards of the first goal group (a suit, or the trumps: a run of cells
  along the snake) into its cells, sort and freeze them, then the next group from the cells left;
  when the steps after a gathering stall, the gathering goes on to its next solution (backtracking).
  Path 36: the whole board. Pattern of Amber has a planner of its own (:data:`PLANNERS`:
  ``solvers/amber_pattern.py``).
* **Shortening** (``solvers/amber_shorten.py``, every layout): pairs of swaps that cancel out
  (the same two cards swapped again later, or the same two cells, the swaps between still legal)
  are deleted; three swaps among three cards merged into one; local splices; and windows of swaps
  that depend on each other re-joined by a small search, while it gets shorter; then swaps
  carried along the solution until they can be played back as fewer (``docs/solver-shorten.md``).
* **A race on two cores** (:func:`races_for`): two plans run at the same time in two forked processes,
  and the first to win is kept; a full solve (not a hint) races for length: each racer shortens its own line and
  the race waits a while after the first win for a shorter one (:data:`RACE_WAIT_FACTOR`). Forest of Arden: the
  chain, against the whole-board probe then the chain the other way along the snake; each chain stalls on deals
  the other wins quickly, and in a full solve each racer then draws its chain again, once for each weight of
  ``ARDEN_DRAW_WEIGHTS``, with less greedy gatherings and keeps the fewest swaps (:func:`arden_draws`). Pattern of
  Amber: its portfolio of balance searches, against the same in another order with other seeds. Mount Kolvir: its
  attempts, against the same in the other order. Path in Shadow (56, 52): its plans, against the main
  plan searched greedier. The race's effort is about the smaller of the two: wall time falls, CPU time
  (both processes) rises (``docs/solver.md``, "The race on two cores"). Where no second core can be
  used, the plans run in turn.
* **Portfolio with restarts.** Run times are heavy-tailed, so each step tries a short list of
  settings, then repeats the last with doubled node budgets and new (seeded) random tie-breaks:
  results are reproducible for a given node budget.

``stats``: ``seconds``, ``nodes`` (states expanded over all steps and attempts),
``lower_bound``, ``length``, ``difficulty`` (= nodes expanded: the search effort, which orders
deals from easy to hard; length / lower bound is reported by the benchmark separately). In a race,
``nodes`` and ``difficulty`` are the winning plan's states (in a race for length, the fewest states of a win heard),
and those of a plan that had already finished without a win; ``plan`` names the plan whose line is kept (in a race
for length, the shortest line's).
"""

from __future__ import annotations

import array
import functools
import heapq
import importlib
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from ..games.amber import AmberGame, AmberPosition, Swap
from ..games.base import GameError, Move, Position
from . import Solution, compiled
from .amber_shorten import shorten

#: A position's cell lists (``_Board._cell_lists``): nbc, cellnb, welcome, sad, and the number of unhappy cards.
CellLists = tuple[list[int], list[int], list[int], list[int], int]
#: The same, kept for a state's children (tuples or lists).
StoredCellLists = tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int], int]

#: Safety cap on expanded states when the caller gives neither a time nor a node limit.
DEFAULT_NODE_CAP = 2_000_000


@functools.lru_cache(maxsize=8)
def _pairs(n: int) -> list[list[tuple[int, int]]]:
    """``pairs[a][b]``: the swap of cells ``a`` and ``b`` as ``(smaller, larger)``, one tuple for both orders
    (made once per number of cells, shared by the boards; never changed)."""
    pairs = [[(a, b) if a < b else (b, a) for b in range(n)] for a in range(n)]
    for a in range(n):
        for b in range(a):
            pairs[a][b] = pairs[b][a]
    return pairs


class _Board:
    """The geometry of one layout in ints, and one position's goal."""

    def __init__(self, position: AmberPosition) -> None:
        game: AmberGame = position.game
        n = len(game.cells)
        self.n = n
        cards = list(game.deck.cards)
        index = {c: i for i, c in enumerate(cards)}
        #: ``nb[x]``: the two rank-neighbours of card ``x``.
        self.nb = [(index[game.deck.predecessor(c)], index[game.deck.successor(c)]) for c in cards]
        self.adj = [tuple(a) for a in game.adjacent]
        self.adjmask = [sum(1 << b for b in a) for a in game.adjacent]
        names = {b: i for i, b in enumerate(game.blocks)}
        self.block = [names[c.block] for c in game.cells]
        self.lone = game.lone_cell if game.lone_cell is not None else -1
        self.frozen = frozenset(position.start_cells)
        self.fixed = [cell in self.frozen for cell in range(n)]  #: whether each cell holds a start card
        goal = position.goal
        self.start = bytes(index[c] for c in position.cards)
        self.target = [0] * n  #: the goal cell of every card
        for cell, card in enumerate(goal):
            self.target[index[card]] = cell
        self.goal = [index[card] for card in goal]  #: the goal card of every cell
        # The goal group of a card: its suit, or "trump".
        group = [4 if c.suit is None else c.suit.index for c in cards]
        self.group = group
        #: The group that the goal puts in each cell (the lone cell accepts any card).
        self.cell_group = [group[index[card]] for card in goal]
        self.near = [tuple(sorted({a, *game.adjacent[a]})) for a in range(n)]
        #: ``nearmask[c]``: the cells of ``near[c]`` (a cell and the cells around it) as a bit mask.
        self.nearmask = [sum(1 << b for b in cells) for cells in self.near]
        #: ``one[c]``: the bit of cell ``c``; ``adj4[c]``: the cells beside ``c``, padded to four with ``n``
        #: (a cell of no card, for the move generator's masks).
        self.one = [1 << c for c in range(n)]
        #: ``adjset[c]``: the cells beside ``c``; ``cells_of[m]``: the cells of ``m`` in increasing order, for every
        #: ``m`` that is a part of the cells beside some cell
        self.adjset = [frozenset(a) for a in self.adj]
        self.cells_of: dict[int, tuple[int, ...]] = {}
        for cells in self.adj:
            for part in range(1 << len(cells)):
                chosen = tuple(c for k, c in enumerate(cells) if part >> k & 1)
                self.cells_of[sum(1 << c for c in chosen)] = chosen
        self.adj4 = [(a + (n, n, n, n))[:4] for a in self.adj]
        #: ``pairs[a][b]``: the swap of cells ``a`` and ``b`` as ``(smaller, larger)``, one tuple for both orders
        #: (the move generator adds these instead of building a tuple for every swap it finds).
        self.pairs = _pairs(n)
        #: ``walk``: the cards the move generator walks, in order (those not in a start cell, which never move),
        #: each with its two rank-neighbours and whether a swap with each neighbour is its own to find: the
        #: neighbour is a larger card (a smaller one found it already) and not a start card.
        fixed_cards = {self.start[c] for c in self.frozen}
        self.walk = [(x, m1, m2, m1 > x and m1 not in fixed_cards, m2 > x and m2 not in fixed_cards)
                     for x, (m1, m2) in enumerate(self.nb) if x not in fixed_cards]
        movable = sum(1 << c for c in range(n) if not self.fixed[c])
        blockmask = [sum(1 << c for c in range(n) if self.block[c] == self.block[a]) for a in range(n)]
        #: ``allow[a]``: the cells that may trade with cell ``a`` (not ``a``, not a start cell; on Kolvir only
        #: the cells of ``a``'s block, except from the lone cell).
        self.allow = [movable & ~(1 << a) & (blockmask[a] if self.lone >= 0 and a != self.lone else -1)
                      for a in range(n)]

    def moves(self, at: list[int], pos: list[int]) -> set[tuple[int, int]]:
        """Every legal swap as (cell, cell), smaller first: after it, each moved card touches a
        rank-neighbour in its block (or stands in the lone cell).

        The same swaps, inserted in the same order, as the plain walk (:meth:`_moves_plain`: for every
        card ``x``, each rank-neighbour ``m`` of it, every cell ``b`` beside ``m``), so a set built from
        them iterates the same way; bit masks replace the walk's inner test. ``welcome[c]``: the cells
        whose card has a rank-neighbour beside cell ``c`` (it may land in ``c``); the other card of the
        swap counts too: the card ``y`` taken from ``b`` may also land beside ``x`` itself, when ``b``
        touches ``a`` and ``x`` is a rank-neighbour of ``y`` (``b`` holds a neighbour of ``x`` beside ``a``)."""
        return self._moves_masked(at, pos, self._welcome(self._neighbour_cells(at, pos)[1]))

    def _neighbour_cells(self, at: Sequence[int], pos: Sequence[int]) -> tuple[list[int], list[int]]:
        """``nbc[x]``: the cells of card ``x``'s two rank-neighbours (a bit mask); ``cellnb[c]``: ``nbc`` of the
        card in cell ``c`` (and a 0 after the last cell, for ``adj4``'s padding). A card is happy (touches a
        rank-neighbour) when ``cellnb[c] & adjmask[c]``."""
        one = self.one
        nbc = [one[pos[z1]] | one[pos[z2]] for z1, z2 in self.nb]
        cellnb = [nbc[z] for z in at]
        cellnb.append(0)
        return nbc, cellnb

    def _welcome(self, cellnb: list[int]) -> list[int]:
        """``welcome[a]``: the cells that may trade with cell ``a`` whose cards may land in ``a`` (beside a
        rank-neighbour; the other card of the swap aside)."""
        return [(cellnb[e1] | cellnb[e2] | cellnb[e3] | cellnb[e4]) & ok
                for (e1, e2, e3, e4), ok in zip(self.adj4, self.allow, strict=True)]

    def _cell_lists(self, at: Sequence[int], pos: Sequence[int], sadable: list[bool] | None) -> CellLists:
        """What the search reads of a position, cell by cell: ``nbc`` and ``cellnb`` (:meth:`_neighbour_cells`),
        ``welcome`` (:meth:`_welcome`), ``sad[c]`` (1: the card of cell ``c`` touches no rank-neighbour, among
        the cells ``sadable``; all 0 without them) and the number of such cards."""
        nbc, cellnb = self._neighbour_cells(at, pos)
        if sadable is None:
            sad = [0] * self.n
        else:
            sad = [1 if ok and not (m & z) else 0 for ok, m, z in zip(sadable, self.adjmask, cellnb, strict=False)]
        return nbc, cellnb, self._welcome(cellnb), sad, sum(sad)

    def _child_cell_lists(self, lists: StoredCellLists, at: Sequence[int], pos: Sequence[int], p: int, q: int,
                          sadable: list[bool] | None, sad_changed: list[int] | None = None) -> CellLists:
        """:meth:`_cell_lists` of ``at`` from those of its parent, ``at`` with cells ``p`` and ``q`` swapped back:
        only the moved cards' rank-neighbours see their neighbours' cells change, only the cells of those and of
        the moved cards their ``cellnb`` and ``sad``, and only the cells beside those their ``welcome``
        (``sad_changed``, when given, receives the cells whose ``sad`` changed)."""
        nbc, cellnb, welcome, sad = list(lists[0]), list(lists[1]), list(lists[2]), list(lists[3])
        unhappy = lists[4]
        nb, one, adj, adj4, allow = self.nb, self.one, self.adj, self.adj4, self.allow
        changed = [p, q]
        for z in nb[at[p]] + nb[at[q]]:
            z1, z2 = nb[z]
            nbc[z] = one[pos[z1]] | one[pos[z2]]
            changed.append(pos[z])
        for c in changed:
            cellnb[c] = nbc[at[c]]
        for c in changed:
            for e in adj[c]:
                e1, e2, e3, e4 = adj4[e]
                welcome[e] = (cellnb[e1] | cellnb[e2] | cellnb[e3] | cellnb[e4]) & allow[e]
        if sadable is not None:
            adjmask = self.adjmask
            for c in changed:
                now = 1 if sadable[c] and not (adjmask[c] & cellnb[c]) else 0
                if now != sad[c]:
                    unhappy += now - sad[c]
                    sad[c] = now
                    if sad_changed is not None:
                        sad_changed.append(c)
        return nbc, cellnb, welcome, sad, unhappy

    def _moves_masked(self, at: Sequence[int], pos: Sequence[int], welcome: list[int]) -> set[tuple[int, int]]:
        """:meth:`moves` from :meth:`_welcome`.

        The rule is symmetric: a legal swap of two cards neither of which stands in the lone cell is found
        from both cards, so the walk skips a swap with a card it has walked already (a smaller card), which
        adds nothing new to the set, nor changes its order."""
        adjmask, allow, lone, one = self.adjmask, self.allow, self.lone, self.one
        adjset, cells_of, pairs = self.adjset, self.cells_of, self.pairs
        out: set[tuple[int, int]] = set()
        add = out.add
        for x, m1, m2, s1, s2 in self.walk:
            a = pos[x]
            q1 = pos[m1]
            q2 = pos[m2]
            pa = pairs[a]
            if a == lone:
                ok = allow[a]  # any card may enter the lone cell
                least = -1
            else:
                # x's neighbours beside a trade places with it; the card of b may also land beside x itself
                # (x in b, b beside a), so those cells count as welcome too
                ok = welcome[a]
                least = x
                if s1 and q1 in adjset[a]:
                    ok |= one[q1]
                    add(pa[q1])  # two touching neighbours trade places
                    if s2 and q2 in adjset[a]:
                        ok |= one[q2]
                        v = adjmask[q1] & ok
                        if v:
                            for b in cells_of[v]:
                                if at[b] > x:
                                    add(pa[b])
                        add(pa[q2])
                        v = adjmask[q2] & ok
                        if v:
                            for b in cells_of[v]:
                                if at[b] > x:
                                    add(pa[b])
                        continue
                elif s2 and q2 in adjset[a]:
                    ok |= one[q2]
                    v = adjmask[q1] & ok
                    if v:
                        for b in cells_of[v]:
                            if at[b] > x:
                                add(pa[b])
                    add(pa[q2])
                    v = adjmask[q2] & ok
                    if v:
                        for b in cells_of[v]:
                            if at[b] > x:
                                add(pa[b])
                    continue
            v = adjmask[q1] & ok
            if v:
                for b in cells_of[v]:
                    if at[b] > least:
                        add(pa[b])
            v = adjmask[q2] & ok
            if v:
                for b in cells_of[v]:
                    if at[b] > least:
                        add(pa[b])
        return out

    def _moves_plain(self, at: Sequence[int], pos: Sequence[int]) -> set[tuple[int, int]]:
        """:meth:`moves` as a plain walk (for the tests: the same swaps in the same order)."""
        nb, adj, adjmask, frozen, lone, block = self.nb, self.adj, self.adjmask, self.frozen, self.lone, self.block
        out: set[tuple[int, int]] = set()
        for x in range(self.n):
            a = pos[x]
            if a in frozen:
                continue
            for m in nb[x]:
                q = pos[m]
                if adjmask[a] >> q & 1 and q not in frozen:
                    out.add((a, q) if a < q else (q, a))  # two touching neighbours trade places
                for b in adj[q]:
                    if b == a or b in frozen:
                        continue
                    if lone >= 0 and block[a] != block[b] and a != lone and b != lone:
                        continue
                    if a != lone:
                        y = at[b]
                        for k in nb[y]:
                            r = pos[k]
                            if r == a:
                                r = b
                            if adjmask[a] >> r & 1:
                                break
                        else:
                            continue
                    out.add((a, b) if a < b else (b, a))
        return out

    @functools.cached_property
    def legal_swap(self) -> Callable[[Sequence[int], int, int], bool]:
        """The move rule over ints, the solvers' one copy of it: ``board.legal_swap(at, p, q)`` tells whether
        swapping cells ``p`` and ``q`` of ``at`` (the card of every cell) is legal: two different cells, neither
        a start cell, in one block or one of them the lone cell (Mount Kolvir), and each card, where it lands,
        beside a rank-neighbour (the other card counting where it lands too), except in the lone cell.

        A function built once per board, the board's tables bound and a card's two rank-neighbours as a bit
        mask (the shortening calls it a few million times a solve); the tests check it against the rules
        engine's (``AmberGame.swap_problem``)."""
        nbm = [(1 << a) | (1 << b) for a, b in self.nb]
        adj = self.adj
        fixed = self.fixed
        lone = self.lone
        block = self.block

        def lands(at: Sequence[int], card: int, cell: int, left: int, arriving: int) -> bool:
            # ``card`` lands in ``cell`` beside a rank-neighbour; the cell ``left`` holds ``arriving`` by then
            want = nbm[card]
            for t in adj[cell]:  # noqa: SIM110 (a loop: any() over a generator costs more, a million calls a solve)
                if want >> (arriving if t == left else at[t]) & 1:
                    return True
            return False

        def legal(at: Sequence[int], p: int, q: int) -> bool:
            if p == q or fixed[p] or fixed[q]:
                return False
            x, y = at[p], at[q]
            return lands(at, x, q, p, y) and lands(at, y, p, q, x)

        def legal_lone(at: Sequence[int], p: int, q: int) -> bool:
            if p == q or fixed[p] or fixed[q]:
                return False
            if block[p] != block[q] and p != lone and q != lone:
                return False  # the two blocks meet only through the lone cell
            x, y = at[p], at[q]
            return (q == lone or lands(at, x, q, p, y)) and (p == lone or lands(at, y, p, q, x))

        return legal if lone < 0 else legal_lone

    @functools.cached_property
    def core_geometry(self) -> tuple[int, int, bytes, bytes, bytes, bytes, bytes, bytes]:
        """The board for the compiled core (``_amber_core.search``): the number of cells, the lone cell (-1 for
        none), the goal cell of every card, every card's two rank-neighbours, the (up to four) cells beside each
        cell (255 for none), ``allow`` as an n x n table of 0/1, the move generator's walk (five bytes a card),
        and ``hash((p, q))`` of every pair of cells (n x n, 8 bytes each), by which CPython's set orders them."""
        n = self.n
        allow = bytes(self.allow[a] >> b & 1 for a in range(n) for b in range(n))
        hashes = array.array("q", [hash(self.pairs[a][b]) for a in range(n) for b in range(n)]).tobytes()
        return (n, self.lone, bytes(self.target), bytes(z for pair in self.nb for z in pair),
                bytes(c for cells in self.adj for c in (*cells, 255, 255, 255, 255)[:4]), allow,
                bytes(v for entry in self.walk for v in entry), hashes)

    def cycles(self, at: list[int] | bytes, cells: Iterable[int] | None = None) -> tuple[list[int], int]:
        """The cycle of every cell in the permutation to the goal, and the number of cycles
        (over ``cells`` only, when given: a region whose cards are all in it)."""
        target = self.target
        cyc = [-1] * self.n
        k = 0
        for i in range(self.n) if cells is None else cells:
            if cyc[i] < 0:
                j = i
                while cyc[j] < 0:
                    cyc[j] = k
                    j = target[at[j]]
                k += 1
        return cyc, k

    def bound(self, at: list[int] | bytes) -> int:
        return self.n - self.cycles(at)[1]


@dataclass(frozen=True)
class Setting:
    """One entry of the portfolio: heuristic weights and a node budget."""

    weight: float = 3.0
    beta: float = 1.0
    gamma: float = 3.0
    eta: float = 0.5
    nodes: int = 4000
    seed: int | None = None
    alpha: float = 1.0
    #: Weigh the eta term exactly for every child (slower) instead of estimating it until popped.
    exact: bool = False
    #: Only swaps that move a card out of place (as the end game; fewer children to weigh).
    focus: bool = False
    #: With ``exact``: push each child with a lower bound of its eta delta and weigh it exactly only when
    #: it is popped (put back if the bound was too low): the same states in the same order, less work.
    lazy: bool = False
    #: Extra path cost of a swap across two cycles (a merge: every one costs two swaps of solution length):
    #: through Kolvir's lone cell, and elsewhere. Charged merges make a gathering both shorter and, charged
    #: elsewhere, cheaper on Kolvir (``docs/solver-kolvir.md``); 0 on every other search.
    charge_lone: float = 0.0
    charge_other: float = 0.0
    #: ``(states, near)``: stop after ``states`` expanded states unless the nearest position seen is then within
    #: ``near`` of the goal (cells minus cycles), and end the phase (no more attempts). A search that goes on
    #: expands the very same states as one without a probe. Arden's whole-board search is probed: it wins few
    #: deals, and those come near early (``docs/solver-arden.md``).
    probe: tuple[int, int] | None = None


#: How many expanded states keep their cell lists for their children (a power of two, minus one).
RING = 4095
#: A child whose key is at least its parent's ``g + 1 + weight * h`` plus ``DEFER * weight`` (a swap across two
#: cycles, with no other gain, adds ``weight``) is deferred (:func:`_search`): kept in its parent's lists, not
#: pushed, until the heap's keys reach it. Most children are never popped: on Arden deal 2, 73 of the 90
#: children of a state are deferred and 1.8 a state are pushed later (0.023 parents a state release theirs).
DEFER = 1.0
INF = float("inf")


@functools.lru_cache(maxsize=64)
def _key_steps(weight: float, alpha: float, beta: float, gamma: float, eta: float
               ) -> tuple[list[list[list[float]]], list[list[list[float]]]]:
    """The key increments ``weight * (dh + eta * lo)`` of the lazy and the estimating searches, computed once,
    as :func:`_search` weighs them: ``dh = -alpha`` (a swap inside a cycle; the second table: ``+alpha``, a
    merge), ``dh += beta * b``, ``dh += gamma * c``; indexed ``[b][c][lo]`` for ``b, c`` in -2..2 and ``lo`` in
    -31..0 (negative indices count from the end, so ``table[b][c][lo]`` is the increment for those very
    values)."""
    tables = []
    for sign in (-alpha, alpha):
        table = []
        for b in (0, 1, 2, -2, -1):
            row = []
            for c in (0, 1, 2, -2, -1):
                dh = sign
                if beta:
                    dh += beta * b
                if gamma:
                    dh += gamma * c
                steps = [0.0] * 32
                for lo in range(-31, 1):
                    steps[lo] = weight * (dh + eta * lo)
                row.append(steps)
            table.append(row)
        tables.append(table)
    return tables[0], tables[1]


class _Unhappy:
    """A position's unhappy cells, computed cell by cell when asked: ``sad[c]`` is 1 if the card in cell ``c``
    counts (inside the search's region, not the lone cell) and touches no rank-neighbour. For a parent whose
    stored cell lists are not at hand (``_search``'s ``eta_delta``)."""

    __slots__ = ("adjmask", "at", "inside", "lone", "nb", "pos")

    def __init__(self, at: bytes, pos: bytes, adjmask: Sequence[int], nb: Sequence[tuple[int, int]],
                 inside: Sequence[bool], lone: int) -> None:
        self.at, self.pos, self.adjmask, self.nb, self.inside, self.lone = at, pos, adjmask, nb, inside, lone

    def __getitem__(self, c: int) -> int:
        m = self.adjmask[c]
        z1, z2 = self.nb[self.at[c]]
        return 0 if (not self.inside[c] or c == self.lone or m >> self.pos[z1] & 1 or m >> self.pos[z2] & 1) else 1


def _search(board: _Board, start: bytes, s: Setting, deadline: float | None, node_limit: int,
            cells: list[int] | None = None, group: list[int] | None = None, cell_group: list[int] | None = None,
            sort_groups_only: bool = False, focus: bool = False, best: dict[str, Any] | None = None
            ) -> tuple[list[tuple[int, int]] | None, bytes, int]:
    """Weighted best-first search from ``start`` (:func:`_search_py`): by the compiled core when it is built and
    ``compiled.ON`` (the very same search, twelve to twenty-five times cheaper a state), else in Python."""
    search = _search_core if compiled.ON else _search_py
    return search(board, start, s, deadline, node_limit, cells, group, cell_group, sort_groups_only, focus, best)


def _search_core(board: _Board, start: bytes, s: Setting, deadline: float | None, node_limit: int,
                 cells: list[int] | None = None, group: list[int] | None = None,
                 cell_group: list[int] | None = None, sort_groups_only: bool = False, focus: bool = False,
                 best: dict[str, Any] | None = None) -> tuple[list[tuple[int, int]] | None, bytes, int]:
    """:func:`_search_py` by the compiled core (``_amber_core.c``): the same arguments and results, state for
    state (``tests/test_amber_core.py``)."""
    if compiled.native is None:
        raise RuntimeError("the compiled core of the Amber search is not built (pip install -e . builds it)")
    if group is None or cell_group is None:
        group, cell_group = board.group, board.cell_group
    exact = s.exact and s.eta > 0
    twister = random.Random(s.seed).getstate()[1] if s.seed is not None else None
    path, end, expanded, (best_path, best_at, near, probed) = compiled.native.search(
        board.core_geometry, start, None if cells is None else bytes(sorted(cells)), bytes(group), bytes(cell_group),
        (float(s.weight), float(s.alpha), float(s.beta), float(s.gamma), float(s.eta), float(s.charge_lone),
         float(s.charge_other)),
        (exact, exact and s.lazy, focus or s.focus, sort_groups_only),
        s.probe if s.probe is not None else (-1, 0), node_limit, -1.0 if deadline is None else deadline, twister)
    if best is not None and path is None:
        best["path"], best["at"], best["near"], best["probed"] = best_path, best_at, near, probed
    return path, end, expanded


def _search_py(board: _Board, start: bytes, s: Setting, deadline: float | None, node_limit: int,
               cells: list[int] | None = None, group: list[int] | None = None, cell_group: list[int] | None = None,
               sort_groups_only: bool = False, focus: bool = False, best: dict[str, Any] | None = None
               ) -> tuple[list[tuple[int, int]] | None, bytes, int]:
    """Weighted best-first search from ``start``; returns (path or None, end position, states expanded).

    ``cells``: only these cells move (a region whose cards all belong to it); default all.
    ``group``/``cell_group``: the group of every card and the group the goal wants in every cell
    (the gamma term). With ``sort_groups_only`` the search stops as soon as every card stands in
    a cell of its group (phase 1 of the region plan), otherwise when the cells are sorted.
    ``focus``: only swaps that move at least one card out of place (for end games).
    ``best``: filled with the path to, and the position of, the nearest position to the goal seen.
    """
    n = board.n
    target, lone, nb, adjmask = board.target, board.lone, board.nb, board.adjmask
    if group is None or cell_group is None:
        group, cell_group = board.group, board.cell_group
    weight, beta, gamma, eta, alpha, exact = s.weight, s.beta, s.gamma, s.eta, s.alpha, s.exact and s.eta > 0
    focus = focus or s.focus
    rng = random.Random(s.seed) if s.seed is not None else None
    lazy = exact and s.lazy
    probe_at, probe_near = s.probe if s.probe is not None else (-1, 0)
    probed = False  # stopped by the probe
    charge_lone, charge_other = s.charge_lone, s.charge_other
    region = list(range(n)) if cells is None else sorted(cells)
    inside = [False] * n
    for c in region:
        inside[c] = True
    restricted = cells is not None and len(region) < n
    #: with a region: whether a swap (smaller cell, larger) is within it
    region_pairs = frozenset((p, q) for p in region for q in region if p < q).__contains__ if restricted else None
    counted = [False] * n  # the cells whose group counts (gamma term and gathering goal)
    for c in region:
        counted[c] = c != lone
    #: ``mis[x][c]``: 1 when cell ``c`` counts and is outside card ``x``'s group
    mis = [[int(counted[c] and group[x] != cell_group[c]) for c in range(n)] for x in range(n)] if gamma else []
    count_wrong = bool(gamma or sort_groups_only)
    sadable = [inside[c] and c != lone for c in range(n)]  # the cells whose card's happiness counts (eta term)
    size = len(region)
    moves_masked, one = board._moves_masked, board.one
    cell_lists, child_cell_lists = board._cell_lists, board._child_cell_lists
    sad_cells = sadable if eta else None
    # the cell lists of the last expanded states (by node index modulo RING + 1): a child's come from its parent's
    # (node, cell lists, cycles, number of cycles, the lazy loop's per-cell tuples, unhappy cells' mask)
    ring: list[tuple[int, StoredCellLists, tuple[int, ...], int, tuple[tuple[int, ...], ...] | None, int] | None] = [
        None] * (RING + 1)
    fresh_label = n  # the next new cycle label (labels from ``_Board.cycles`` are below n)
    ties = (0.0, -1.0, -2.0)  # -placed + 0.0, the tie-break without a seed
    as_float = [0.0] + [float(k) for k in range(-31, 0)]  # as_float[k] == float(k) for -31 <= k <= 0
    same_cycle, merging = _key_steps(weight, alpha, beta, gamma, eta) if lazy or not exact else ([], [])

    # nodes: (position, g, parent, a, b, where each card stands, cards outside their group, cards out of place)
    start_pos = bytearray(n)
    for c, x in enumerate(start):
        start_pos[x] = c
    nodes: list[tuple[bytes, float, int, int, int, bytes, int, int]] = [
        (start, 0, -1, -1, -1, bytes(start_pos),
         sum(1 for c in region if counted[c] and group[start[c]] != cell_group[c]) if count_wrong else 0,
         sum(1 for c in region if target[start[c]] != c))]
    seen: set[bytes] = set()
    # heap entries: (key, tie, parent node, rank, a, b, evaluated); a < 0 for the start. The parent and the
    # child's rank among its parent's swaps break ties in the order the children were pushed (parents are
    # expanded in the order of their node numbers); small ints, no counter to allocate for every child
    # ``evaluated``: True, False (an estimate, non-exact mode) or the lower bound of the eta delta used (lazy)
    heap: list[tuple[float, float, int, int, int, int, bool | float]] = [(0.0, 0.0, 0, 0, -1, -1, True)]
    push, pop = heapq.heappush, heapq.heappop
    # Deferred children: a child whose key is at least its parent's ``base + DEFER * weight`` is not pushed but kept in
    # its parent's lists, ``deferred[parent] = (keys, evaluated, ties, swaps)`` (``keys[rank]``: ``INF`` for a
    # child pushed or left out), and ``dheap`` holds (smallest deferred key, parent). Before each pop, every
    # parent whose smallest deferred key is not above the heap's smallest key pushes its deferred children
    # (as they would have been pushed), so every pop takes the very same entry as with every child pushed.
    deferred: dict[int, tuple[list[float], list[bool | float], list[float], list[tuple[int, int]]]] = {}
    dheap: list[tuple[float, int]] = []
    expanded = 0
    tolerance = 0.5 * weight
    best_near, best_idx = n + 1, 0

    def eta_delta(at: bytes, pos: bytes, p: int, q: int, sad: Sequence[int] | None = None) -> int:
        """The exact eta delta (as weighed for a child when it is pushed) of the swap of cells ``p`` and
        ``q`` of the parent ``at`` (``pos``: where each card stands there; ``sad``: its unhappy cells, its
        stored cell lists', when they are at hand). The exact children's loop below has this body inlined."""
        if sad is None:
            sad = _Unhappy(at, pos, adjmask, nb, inside, lone)
        x, y = at[p], at[q]
        d = -(sad[p] + sad[q])
        mp, mq = adjmask[p], adjmask[q]
        mpq = mp | mq
        joined = mp >> q & 1
        x1, x2 = nb[x]
        y1, y2 = nb[y]
        for z in ((x1, x2, y1, y2) if y1 != x1 and y1 != x2 and y2 != x1 and y2 != x2
                  else (x1, x2, *(z for z in (y1, y2) if z != x1 and z != x2))):
            c = pos[z]
            if not mpq >> c & 1 or z in (x, y) or c == lone or not inside[c]:
                continue
            mult = 1 if joined else (mp >> c & 1) + (mq >> c & 1)
            z1, z2 = nb[z]
            m = adjmask[c]
            c1 = q if z1 == x else p if z1 == y else pos[z1]
            c2 = q if z2 == x else p if z2 == y else pos[z2]
            d += mult * ((0 if (m >> c1 & 1 or m >> c2 & 1) else 1) - sad[c])
        return d

    def trace(i: int) -> list[tuple[int, int]]:
        path = []
        while nodes[i][2] >= 0:
            path.append((nodes[i][3], nodes[i][4]))
            i = nodes[i][2]
        path.reverse()
        return path

    while True:
        if dheap and (not heap or dheap[0][0] <= heap[0][0]):
            parent = pop(dheap)[1]
            dkeys, devaluated, dties, dswaps = deferred.pop(parent)
            for rank, key_f in enumerate(dkeys):
                if key_f != INF:
                    a, b = dswaps[rank]
                    push(heap, (key_f, dties[rank], parent, rank, a, b, devaluated[rank]))
            continue
        if not heap:
            break
        key_f, tie, parent, rank, a, b, evaluated = pop(heap)
        pnode = nodes[parent]
        pat = pnode[0]
        if a >= 0:
            buf = bytearray(pat)
            x, y = pat[a], pat[b]
            buf[a], buf[b] = y, x
            key = bytes(buf)
        else:
            key = pat
        if key in seen:
            continue
        if evaluated.__class__ is float:
            # pushed with a lower bound of its eta delta: put it back if the true delta is higher
            got = ring[parent & RING]
            if got is not None and got[0] == parent:  # the parent's unhappy cells are at hand
                delta = eta_delta(pat, pnode[5], a, b, got[1][3])
            else:
                delta = eta_delta(pat, pnode[5], a, b)
            true_f = key_f + weight * eta * (delta - evaluated)
            if true_f > key_f:
                push(heap, (true_f, tie, parent, rank, a, b, True))
                continue
            evaluated = True
        at = list(buf) if a >= 0 else list(pat)
        if a >= 0:
            g = pnode[1] + 1
            where = bytearray(pnode[5])
            where[x], where[y] = b, a
            pos_key = bytes(where)
            pos = list(where)
            # the two counts change only in cells a and b (y now in a, x in b)
            wrong = pnode[6]
            if count_wrong:
                wrong += ((counted[a] and group[y] != cell_group[a]) + (counted[b] and group[x] != cell_group[b])
                          - (counted[a] and group[x] != cell_group[a]) - (counted[b] and group[y] != cell_group[b]))
            ta, tb = target[x], target[y]
            out = pnode[7] + (tb != a) + (ta != b) - (ta != a) - (tb != b)
        else:
            g = 0
            pos_key = pnode[5]
            pos = list(pos_key)
            wrong, out = pnode[6], pnode[7]
        got = ring[parent & RING] if a >= 0 else None
        if got is not None and got[0] == parent:  # the parent's cycles and cell lists are at hand
            # the cycles of the permutation to the goal from the parent's: the swap split a cycle (cells a and
            # b in one cycle; a's part gets a new label) or merged two (b's takes a's label); only equal labels
            # matter, not which ones
            pcyc = got[2]
            cyc = list(pcyc)
            la = pcyc[a]
            # the cells whose per-cell tuple (below) changes: the two swapped cells, the relabelled ones, ...
            redo = [a, b]
            if la == pcyc[b]:
                k = got[3] + 1
                j = a
                while cyc[j] == la:
                    cyc[j] = fresh_label
                    redo.append(j)
                    j = target[at[j]]
                fresh_label += 1
            else:
                k = got[3] - 1
                lb = pcyc[b]
                j = b
                while cyc[j] == lb:
                    cyc[j] = la
                    redo.append(j)
                    j = target[pat[j]]  # around b's cycle of the parent
                g += charge_lone if lone in (a, b) else charge_other
            sad_changed: list[int] = []
            lists = child_cell_lists(got[1], at, pos, a, b, sad_cells, sad_changed=sad_changed)
        else:
            redo = None
            cyc, k = board.cycles(at, region)  # cycles of the permutation to the goal, over the region
            if a >= 0 and cyc[a] == cyc[b]:  # the swap that made it merged two cycles
                g += charge_lone if lone in (a, b) else charge_other
            lists = cell_lists(at, pos, sad_cells)
        bound = size - k
        done = (wrong == 0) if sort_groups_only else (bound == 0)
        h = alpha * bound + gamma * wrong
        if beta:
            h += beta * out
        nbc, _, welcome, sad, unhappy = lists
        if eta:
            h += eta * unhappy
        f = g + weight * h
        if not done and not evaluated and f > key_f + tolerance:
            # the estimate was too kind: put it back with its true value
            push(heap, (f, tie, parent, rank, a, b, True))
            continue
        seen.add(key)
        if a >= 0:
            nodes.append((key, g, parent, a, b, pos_key, wrong, out))
            idx = len(nodes) - 1
        else:
            idx = 0
        # kept as tuples of ints, which the garbage collector stops tracking (lists would make it sweat); the lazy
        # loop adds its per-cell tuples below
        stored = (tuple(nbc), tuple(lists[1]), tuple(welcome), tuple(sad), unhappy)
        if exact and not lazy:
            ring[idx & RING] = (idx, stored, tuple(cyc), k, None, 0)
        nearness = wrong if sort_groups_only else bound
        if nearness < best_near:
            best_near, best_idx = nearness, idx
        if done:
            return trace(idx), key, expanded
        if expanded >= node_limit:
            break
        if expanded == probe_at and best_near > probe_near:
            probed = True
            break
        expanded += 1
        if deadline is not None and (expanded & 7) == 0 and time.perf_counter() > deadline:
            break
        base = g + 1 + weight * h
        # the swaps within the region, in the generator's order (the ranks among them break ties in that order)
        swaps = list(filter(region_pairs, moves_masked(at, pos, welcome))) if region_pairs else list(
            moves_masked(at, pos, welcome))
        cut = base + DEFER * weight
        dkeys = [INF] * len(swaps)
        devaluated: list[bool | float] = [True] * len(swaps)
        dties = [0.0] * len(swaps)
        if lazy:
            # A lower bound of every child's eta delta (the exact one when no card turns unhappy): both moved
            # cards end happy, and an unhappy card turns happy only if it stands beside q and is a
            # rank-neighbour of x (now in q), or beside p and a rank-neighbour of y; a cell beside both p and q
            # counts twice when they do not touch (as in the exact delta). ``sadm``: the unhappy cells; ``sadnb[x]``:
            # the cells of card x's unhappy rank-neighbours.
            # every cell's card, its goal cell, cycle, group, unhappiness and unhappy neighbours' cells
            if redo is not None:
                # from the parent's: only the cells in ``redo``, those of the moved cards' neighbours (their
                # neighbours' cells changed), the cells whose unhappiness changed and those of their cards'
                # neighbours (their unhappy neighbours changed) get new tuples
                sadm = got[5]  # type: ignore[index]
                info = list(got[4])  # type: ignore[index]
                for z in nb[at[a]] + nb[at[b]]:
                    redo.append(pos[z])
                for c in sad_changed:
                    sadm ^= one[c]
                    redo.append(c)
                    z1, z2 = nb[at[c]]
                    redo.append(pos[z1])
                    redo.append(pos[z2])
                for c in redo:
                    z = at[c]
                    info[c] = (z, target[z], cyc[c], group[z], sad[c], nbc[z] & sadm)
            elif unhappy:
                sadm = sum([one[c] for c in region if sad[c]])
                info = [(z, target[z], cyc[c], group[z], sad[c], nbc[z] & sadm) for c, z in enumerate(at)]
            else:
                sadm = 0
                info = [(z, target[z], cyc[c], group[z], 0, 0) for c, z in enumerate(at)]
            ring[idx & RING] = (idx, stored, tuple(cyc), k, tuple(info), sadm)
            merge_key = base + charge_other
            for rank, (p, q) in enumerate(swaps):
                x, tx, cp, gx, sp, sx = info[p]
                y, ty, cq, gy, sq, sy = info[q]
                if focus and tx == p and ty == q:
                    continue
                placed = (tx == q) + (ty == p)
                # the key's increment weight * (dh + eta * lo) from the table, dh = -+alpha + beta * (in place
                # before - after) + gamma * (outside the group after - before), lo the eta delta's lower bound
                if cp == cq:
                    key, table = base, same_cycle  # (base + 0.0 is base)
                else:
                    key = merge_key if lone < 0 else base + (charge_lone if lone in (p, q) else charge_other)
                    table = merging
                table = table[(tx == p) + (ty == q) - placed]
                if gx != gy and gamma:  # (two cards of one group: no change)
                    mx, my = mis[x], mis[y]
                    table = table[mx[q] + my[p] - mx[p] - my[q]]
                else:
                    table = table[0]
                lo = -(sp + sq)
                if sx or sy:
                    ap, aq = adjmask[p], adjmask[q]
                    u = (aq & sx) | (ap & sy)
                    if u:
                        lo -= u.bit_count() if ap >> q & 1 else u.bit_count() + (u & ap & aq).bit_count()
                key += table[lo]
                if key < cut:
                    push(heap, (key, -placed + rng.random() if rng is not None else ties[placed], idx, rank, p, q,
                                as_float[lo]))
                else:
                    dkeys[rank] = key
                    dties[rank] = -placed + rng.random() if rng is not None else ties[placed]
                    devaluated[rank] = as_float[lo]
        elif not exact:
            # the eta delta estimated (both moved cards touch a neighbour after a legal swap): the lazy loop's
            # weighing with lo = -(sad[p] + sad[q]) (dh - eta * s is dh + eta * -s), weighed exactly when popped
            if redo is not None:
                info = list(got[4])  # type: ignore[index]  # from the parent's, as the lazy loop's
                for c in redo + sad_changed:
                    z = at[c]
                    info[c] = (z, target[z], cyc[c], group[z], sad[c])
            else:
                info = [(z, target[z], cyc[c], group[z], sad[c]) for c, z in enumerate(at)]
            ring[idx & RING] = (idx, stored, tuple(cyc), k, tuple(info), 0)
            merge_key = base + charge_other
            estimated = not eta
            for rank, (p, q) in enumerate(swaps):
                x, tx, cp, gx, sp = info[p]
                y, ty, cq, gy, sq = info[q]
                if focus and tx == p and ty == q:
                    continue
                placed = (tx == q) + (ty == p)
                if cp == cq:
                    key, table = base, same_cycle  # (base + 0.0 is base)
                else:
                    key = merge_key if lone < 0 else base + (charge_lone if lone in (p, q) else charge_other)
                    table = merging
                table = table[(tx == p) + (ty == q) - placed]
                if gx != gy and gamma:  # (two cards of one group: no change)
                    mx, my = mis[x], mis[y]
                    table = table[mx[q] + my[p] - mx[p] - my[q]]
                else:
                    table = table[0]
                key += table[-(sp + sq)]
                if key < cut:
                    push(heap, (key, -placed + rng.random() if rng is not None else ties[placed], idx, rank, p, q,
                                estimated))
                else:
                    dkeys[rank] = key
                    dties[rank] = -placed + rng.random() if rng is not None else ties[placed]
                    devaluated[rank] = estimated
        else:
            weighed = exact or not eta
            for rank, (p, q) in enumerate(swaps):
                x, y = at[p], at[q]
                tx, ty = target[x], target[y]
                if focus and tx == p and ty == q:
                    continue
                placed = (tx == q) + (ty == p)
                if cyc[p] == cyc[q]:
                    dh, extra = -alpha, 0.0
                else:
                    dh, extra = alpha, charge_lone if lone in (p, q) else charge_other
                if beta:
                    dh += beta * ((tx == p) + (ty == q) - placed)
                if gamma and group[x] != group[y]:
                    mx, my = mis[x], mis[y]
                    dh += gamma * (mx[q] + my[p] - mx[p] - my[q])
                if exact:
                    # Only the moved cards and the rank-neighbours of the moved cards can change their
                    # happiness; both moved cards touch a neighbour after a legal swap. A cell beside both
                    # swapped cells counts twice (as the sum over the cells around each of them did).
                    # This is eta_delta's body, inlined: it runs for every child.
                    d = -(sad[p] + sad[q])
                    mp, mq = adjmask[p], adjmask[q]
                    mpq = mp | mq
                    joined = mp >> q & 1
                    x1, x2 = nb[x]
                    y1, y2 = nb[y]
                    for z in ((x1, x2, y1, y2) if y1 != x1 and y1 != x2 and y2 != x1 and y2 != x2
                              else (x1, x2, *(z for z in (y1, y2) if z != x1 and z != x2))):
                        c = pos[z]
                        if not mpq >> c & 1 or z in (x, y) or c == lone or not inside[c]:
                            continue
                        mult = 1 if joined else (mp >> c & 1) + (mq >> c & 1)
                        z1, z2 = nb[z]
                        m = adjmask[c]
                        c1 = q if z1 == x else p if z1 == y else pos[z1]
                        c2 = q if z2 == x else p if z2 == y else pos[z2]
                        d += mult * ((0 if (m >> c1 & 1 or m >> c2 & 1) else 1) - sad[c])
                    dh += eta * d
                elif eta:
                    dh -= eta * (sad[p] + sad[q])  # both moved cards touch a neighbour after a legal swap
                tie = -placed + (rng.random() if rng is not None else 0.0)
                key = base + extra + weight * dh
                if key < cut:
                    push(heap, (key, tie, idx, rank, p, q, weighed))
                else:
                    dkeys[rank] = key
                    dties[rank] = tie
                    devaluated[rank] = weighed
        least = min(dkeys, default=INF)
        if least != INF:
            deferred[idx] = dkeys, devaluated, dties, swaps
            push(dheap, (least, idx))
    if best is not None:
        best["path"] = trace(best_idx)
        best["at"] = nodes[best_idx][0]
        best["near"] = best_near
        best["probed"] = probed
    return None, start, expanded


@dataclass(frozen=True)
class Step:
    """A step of a plan.

    ``gather``: bring every card into its part of ``parts`` (cells of finished parts stay);
    ``sort``: sort ``parts[0]`` moving only its own cells (its cards must all be there);
    Cells of a finished ``sort`` step never move again.
    """

    kind: str
    parts: tuple[tuple[int, ...], ...]
    #: The settings to use (a key of ``SETTINGS``); by default the step's kind decides.
    phase: str = ""
    #: The search weight of the step's settings; by default the layout's (``WEIGHTS``) or the setting's.
    weight: float | None = None


Plans = list[tuple[list[Step], int | None]]
T = TypeVar("T")
#: A solution as cell pairs, the swaps in order.
Path = list[tuple[int, int]]


def plans_for(game: AmberGame, board: _Board) -> Plans:
    """The plans to try in turn, each with a node cap (``None``: the rest of the budget)."""
    main = plan_for(game, board)
    if game.name in ("path", "path-52"):
        rows = [tuple(c.id for c in game.cells if c.row == r) for r in range(4)]
        quick = [Step("gather", tuple(rows), "gather-rows")] + [Step("sort", (row,)) for row in rows]
        return [(quick, QUICK_CAP), (main, None)]
    if game.name == "arden" and ARDEN_PLAN in ("groups", "chain"):
        whole = _plan_arden(game, board, "whole")
        if ARDEN_PLAN == "chain":
            # the chain wins most deals; the few where a later group stalls go on with the group plan
            return [(whole, ARDEN_QUICK_CAP), (main, ARDEN_CHAIN_CAP), (_plan_arden(game, board, "groups"), None)]
        return [(whole, ARDEN_QUICK_CAP), (main, None)]
    return [(main, None)]


def arden_races(game: AmberGame, board: _Board) -> dict[str, Plans]:
    """Forest of Arden's two lists of plans to race, by name: the chain (then the group plan), against the
    probed whole-board search then the chain the other way along the snake. The two chains stall on different
    deals, so the race's states are about the smaller of the two (``docs/solver-arden.md``, "The race")."""
    return {"chain": [(_plan_arden(game, board, "chain"), ARDEN_CHAIN_CAP), (_plan_arden(game, board, "groups"), None)],
            "reverse-chain": [(_plan_arden(game, board, "whole"), ARDEN_QUICK_CAP),
                              (_plan_arden(game, board, "reverse-chain"), None)]}


def _arden_chain(game: AmberGame) -> bool:
    """Whether ``game`` is Forest of Arden solved by its chain (the default plan), which races and draws."""
    return game.name == "arden" and ARDEN_PLAN == "chain"


def arden_draws(game: AmberGame, board: _Board) -> dict[str, list[list[Step]]]:
    """Forest of Arden's draws for length, by raced plan (:func:`arden_races`): after its first win each racer runs
    its chain again with the gatherings' search weight of each of ``ARDEN_DRAW_WEIGHTS`` in turn (less greedy: fewer
    swaps found where it wins in time), and keeps the line with the fewest swaps (:func:`_plan_drawn`)."""
    def lighter(plan: str, weight: float) -> list[Step]:
        return [replace(step, weight=weight) if step.kind == "gather" else step
                for step in _plan_arden(game, board, plan)]
    return {plan: [lighter(plan, weight) for weight in ARDEN_DRAW_WEIGHTS] for plan in ("chain", "reverse-chain")}


#: The gatherings' search weights of Arden's draws, in turn (the layout's is 3). A second draw at 1.5 since the
#: twenty-third session: deals 1-60, length / bound 2.05-2.07 -> 2.01-2.04; a third at 1.25 since the twenty-fourth,
#: where the clock leaves it time: deals 1-100, 2.000 -> 1.986 (``docs/solver.md``).
ARDEN_DRAW_WEIGHTS = (2.0, 1.5, 1.25)
#: Each draw may expand ``ARDEN_DRAW_SCALE`` times the states of the first win, at least ``ARDEN_DRAW_MIN`` and at
#: most ``ARDEN_DRAW_MAX`` (about half a second: a deal that took seconds to win is not drawn for that long again).
#: 4 and 60,000 since the twenty-fourth session (2 and 40,000 before): the lighter draws win mostly late, in the
#: end game of a second or third attempt, and the clock (:data:`LENGTH_SECONDS`) stops them anyway.
ARDEN_DRAW_SCALE = 4.0
ARDEN_DRAW_MIN = 3000
ARDEN_DRAW_MAX = 60000


def _plan_drawn(board: _Board, game: AmberGame, plans: Plans, draws: list[list[Step]], budget: _Budget
                ) -> Path | None:
    """:func:`_plan` with ``plans``, then, once it has won, each plan of ``draws`` from the deal within a budget of its
    own (``ARDEN_DRAW_SCALE`` times the first win's states, at least ``ARDEN_DRAW_MIN``, at most ``ARDEN_DRAW_MAX``;
    the deadline is the same): the line with the fewest swaps found. ``budget.used`` counts the first win's states
    only, so the difficulty figure is the same with draws or without."""
    before = budget.used
    path = _plan(board, game, budget, plans=plans)
    if path is None:
        return None
    cap = min(ARDEN_DRAW_MAX, max(ARDEN_DRAW_MIN, int(ARDEN_DRAW_SCALE * (budget.used - before))))
    for steps in draws:
        other = _run_plan(board, game, steps, _Budget(budget.for_length(), cap))
        if other is not None and len(other) < len(path):
            path = other
    return path


#: Path in Shadow's raced plan: the main plan with this search weight (the layout's own is 1.5: shorter
#: solutions, but a few deals take seconds that a greedier search wins at once; ``docs/solver.md``). 6 since the
#: fourteenth session (3 before): the race's states median 1393 -> 1045 (Path 56, deals 1-20), 1697 -> 823 (21-60),
#: 871 -> 688 (Path 52, 1-40), and the first hint's p95 on Path 56 1.04 -> 0.82 s.
PATH_RACE_WEIGHT = {"path": 6.0, "path-52": 6.0}


def races_for(game: AmberGame, board: _Board, quick: bool = False
              ) -> dict[str, Callable[[_Budget], Path | None]] | None:
    """The plans to race on two cores, by name: each a run within a budget (``None``: no race, the layout's
    plans in turn). Forest of Arden: :func:`arden_races`. Path in Shadow (56 and 52 cards): its plans against
    the main plan searched with the weight of ``PATH_RACE_WEIGHT`` (greedier). Mount Kolvir: its planner's
    attempts, against the same in the other order. Pattern of Amber: its planner's
    portfolio of balance searches, against the same portfolio in another order with other seeds
    (``amber_pattern.RACE_PORTFOLIO``; ``docs/solver-pattern.md``, "The race"). Each Arden racer makes its draws
    for length after its win (:func:`arden_draws`, :func:`_plan_drawn`); ``quick`` (a quick hint): without
    draws, Arden's or the Pattern planner's (:func:`_planner_kw`)."""
    if _arden_chain(game):
        draws = {} if quick else arden_draws(game, board)
        return {name: functools.partial(_plan_drawn, board, game, plans, draws.get(name, []))
                for name, plans in arden_races(game, board).items()}
    if game.name in PATH_RACE_WEIGHT:
        heavier = [replace(step, weight=PATH_RACE_WEIGHT[game.name]) for step in plan_for(game, board)]
        return {"plans": functools.partial(_plan, board, game),
                "heavier": functools.partial(_plan, board, game, plans=[(heavier, None)])}
    if PLANNERS.get(game.name) == ("amber_kolvir", "plan_kolvir"):
        from .amber_kolvir import ATTEMPTS, plan_kolvir
        return {"attempts": functools.partial(plan_kolvir, board, game),
                "other-order": functools.partial(plan_kolvir, board, game, attempts=ATTEMPTS[::-1])}
    if PLANNERS.get(game.name) == ("amber_pattern", "plan_pattern"):
        from .amber_pattern import RACE_PORTFOLIO, plan_pattern
        kw = _planner_kw(game, quick)
        return {"portfolio": functools.partial(plan_pattern, board, game, **kw),
                "other-portfolio": functools.partial(plan_pattern, board, game, portfolio=RACE_PORTFOLIO, **kw)}
    return None


def _planner_kw(game: AmberGame, quick: bool) -> dict[str, Any]:
    """The keywords of a layout's planner (:data:`PLANNERS`) for a solve: for a quick hint (``quick``), Pattern of
    Amber's planner makes no draws for length (``amber_pattern.DRAWS``: they cost about twice its time to win, and a
    hint needs only a winning line)."""
    return {"draws": 0} if quick and PLANNERS.get(game.name) == ("amber_pattern", "plan_pattern") else {}


#: Node cap of the quick first plan of Path in Shadow (rows as regions): it wins about half the
#: deals in a few hundred nodes; the others go on with the main plan.
QUICK_CAP = 1500
#: Node cap of Arden's first plan (the whole board in one sort): it wins some deals in a few
#: thousand nodes that the group plan does not; the others go on with the group plan.
ARDEN_QUICK_CAP = 6000
#: Arden's whole-board search stops after ``ARDEN_PROBE`` states unless it has come within ``ARDEN_PROBE_NEAR``
#: of the goal (cells minus cycles) by then (``Setting.probe``): it wins 5 of deals 1-20 and 3 of 21-60
#: within its cap, and the other deals no longer throw 6000 states away (``docs/solver-arden.md``).
ARDEN_PROBE = 1500
ARDEN_PROBE_NEAR = 28
#: Node cap of Arden's chain plan, after which the group plan takes over.
ARDEN_CHAIN_CAP = 30000


def plan_for(game: AmberGame, board: _Board) -> list[Step]:
    """The main plan for a layout (see the module doc); one ``sort`` of all cells for small layouts."""
    def rows(block: str, wanted: range) -> tuple[int, ...]:
        return tuple(c.id for c in game.cells if c.block == block and c.row in wanted)

    def gather_then_sort(parts: list[tuple[int, ...]]) -> list[Step]:
        return [Step("gather", tuple(parts))] + [Step("sort", (part,)) for part in parts]

    name = game.name
    if name in ("path", "path-52"):
        return gather_then_sort([rows("main", range(0, 2)), rows("main", range(2, 4))])
    if name == "kolvir":
        assert game.lone_cell is not None
        return gather_then_sort([rows("top", range(3)) + (game.lone_cell,), rows("bottom", range(0, 2)),
                                 rows("bottom", range(2, 4))])
    if name in PLANS:
        return PLANS[name](game, board)
    return [Step("sort", (tuple(range(len(game.cells))),))]


def arden_groups(game: AmberGame, board: _Board) -> list[tuple[int, ...]]:
    """Arden's goal groups (each suit's 14 cells, the trumps' 22) in snake order: runs of cells along
    the snake (the first start card's group is split in two around the second kind's run)."""
    groups: dict[int, list[int]] = {}
    for cell in game.snakes["main"]:
        groups.setdefault(board.cell_group[cell], []).append(cell)
    return sorted((tuple(cells) for cells in groups.values()), key=lambda part: game.snake_index(part[0]))


def _plan_arden(game: AmberGame, board: _Board, plan: str | None = None) -> list[Step]:
    parts = arden_groups(game, board)
    plan = plan or ARDEN_PLAN
    if plan in ("chain", "reverse-chain"):
        # gather the first group's cards into its cells (the rest of the board is one region) and sort
        # it; then the next group from the cells left, and so on: the free area shrinks group by group.
        # "reverse-chain": the same from the snake's end (the last goal group first)
        if plan == "reverse-chain":
            parts = parts[::-1]
        steps: list[Step] = []
        left = set(range(len(game.cells)))
        for part in parts[:-1]:
            left.difference_update(part)
            steps += [Step("gather", (part, tuple(sorted(left))), "gather-groups"), Step("sort", (part,))]
        return steps + [Step("sort", (parts[-1],))]
    if plan == "groups":
        return [Step("gather", tuple(parts), "gather-groups")] + [Step("sort", (part,)) for part in parts]
    if plan == "halves":
        top = tuple(c.id for c in game.cells if c.row < 3)
        bottom = tuple(c.id for c in game.cells if c.row >= 3)
        return [Step("gather", (top, bottom)), Step("sort", (top,)), Step("sort", (bottom,))]
    return [Step("sort", (tuple(range(len(game.cells))),))]


#: Arden's plan: "chain" (gather the goal groups one after the other in snake order, each into its
#: cells, then sort it and freeze it; "reverse-chain": the same from the snake's end), "groups" (gather
#: every card into the cells of its group at once, keeping the bound term, then sort each group's
#: cells), "halves" or "whole" (one sort).
ARDEN_PLAN = "chain"


PLANS = {"arden": _plan_arden}
#: Layouts whose searches weigh the eta term exactly for every child (measured better there).
EXACT = {"kolvir", "arden", "pattern"}


class Unwinnable(Exception):
    """Raised by a plan that proved its position can never be won: every position reachable from it by legal
    swaps was looked at (:func:`closed_reach`), ``reached`` of them, and none is won. :func:`solve` answers
    ``lost`` with the reason (from a raced plan too: the race passes a plan's exception on)."""

    def __init__(self, reached: int) -> None:
        super().__init__(reached)
        self.reached = reached

    def reason(self) -> str:
        return (f"every one of the {self.reached} positions reachable from here by legal swaps was looked at, "
                "and none is won")


def closed_reach(board: _Board, cap: int, deadline: float | None = None) -> int | None:
    """The number of positions reachable from ``board.start`` by legal swaps, when there are at most ``cap`` of
    them and none is the goal: then the position can never be won (a proof by exhaustion, breadth first over
    every legal swap, :meth:`_Board.moves`). ``None`` when the goal is among them, when more than ``cap`` are
    reachable, or when ``deadline`` passes first.

    Most positions reach millions, but a Pattern of Amber deal whose blocks hold few rank-neighbours can be
    closed: deal 295 reaches 316 positions, deal 404 19,884, and neither is won (``docs/rules.md``)."""
    goal = bytes(board.goal)
    seen = {board.start}
    frontier = [board.start]
    n = board.n
    while frontier:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        later: list[bytes] = []
        for at in frontier:
            if at == goal:
                return None
            cards = list(at)
            pos = [0] * n
            for cell, card in enumerate(cards):
                pos[card] = cell
            for p, q in board.moves(cards, pos):
                cards[p], cards[q] = cards[q], cards[p]
                child = bytes(cards)
                cards[p], cards[q] = cards[q], cards[p]
                if child not in seen:
                    if len(seen) >= cap:
                        return None
                    seen.add(child)
                    later.append(child)
        frontier = later
    return len(seen)


class _Budget:
    """A solve's limits: its ``deadline`` (``time.perf_counter()``, None: none) and node ``cap`` (None: none), and the
    states ``used`` so far. ``length_until``: when the work done only for a shorter line (draws for length) stops, at
    the latest (None: at the deadline); :func:`solve` sets it ``LENGTH_SECONDS`` after its start."""

    def __init__(self, deadline: float | None, cap: int | None, length_until: float | None = None) -> None:
        self.deadline = deadline
        self.cap = cap
        self.used = 0
        self.length_until = length_until

    def for_length(self) -> float | None:
        """The deadline of the work done only for a shorter line: ``length_until``, never past the deadline."""
        if self.length_until is None or self.deadline is None:
            return self.deadline if self.length_until is None else self.length_until
        return min(self.deadline, self.length_until)

    def left(self, wanted: int) -> int:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return 0
        return wanted if self.cap is None else min(wanted, self.cap - self.used)


#: Budget growth from one restart to the next.
GROWTH = 2.0
#: End game: when a search stalls this near the goal (bound, or cards outside their region), a
#: search that only moves cards out of place, with this weight and budget, finishes from there.
ENDGAME_NEAR = 16
ENDGAME_WEIGHT = 2.0
ENDGAME_NODES = 4000


def _phase(board: _Board, start: bytes, settings: list[Setting], budget: _Budget, **kw: Any
           ) -> tuple[list[tuple[int, int]], bytes] | None:
    """Run ``settings`` in turn (then the last one again with new seeds and doubled budgets)."""
    return next(_phase_solutions(board, start, settings, budget, **kw), None)


def _phase_solutions(board: _Board, start: bytes, settings: list[Setting], budget: _Budget, **kw: Any
                     ) -> Iterator[tuple[list[tuple[int, int]], bytes]]:
    """:func:`_phase`, going on with the next attempts when asked for another solution (another end
    position, for a plan that backtracks): (path, end position) a solution."""
    attempt = 0
    while True:
        if attempt < len(settings):
            s = settings[attempt]
        else:
            last = settings[-1]
            s = replace(last, nodes=int(last.nodes * GROWTH ** (attempt - len(settings) + 1)), seed=attempt)
        attempt += 1
        nodes = budget.left(s.nodes)
        if nodes <= 0:
            return
        best: dict[str, Any] = {}
        path, end, used = _search(board, start, s, budget.deadline, nodes, best=best, **kw)
        budget.used += used
        if path is not None:
            yield path, end
            continue
        if best.get("probed"):
            return
        if best and 0 < best["near"] <= ENDGAME_NEAR:
            # the search came close and stalled: finish with a focused search from there
            s = replace(s, weight=ENDGAME_WEIGHT, nodes=ENDGAME_NODES, seed=None, charge_lone=0, charge_other=0)
            nodes = budget.left(s.nodes)
            if nodes > 0:
                tail, end, used = _search(board, best["at"], s, budget.deadline, nodes, focus=True, **kw)
                budget.used += used
                if tail is not None:
                    yield best["path"] + tail, end


#: Settings (weight, beta, gamma, eta, nodes) by layout and phase: "whole" sorts the whole board
#: at once; "gather" brings every card into its region; "region" sorts one region.
SETTINGS: dict[str, list[Setting]] = {
    "whole": [Setting(3, 0.5, 0, 0, 3000), Setting(3, 1, 1, 0.5, 6000, 1)],
    "gather": [Setting(3, 0.5, 3, 0.5, 4000), Setting(3, 0.5, 3, 0.5, 8000, 1)],
    "region": [Setting(3, 0.5, 0, 0, 3000), Setting(3, 1, 1, 0.5, 6000, 1)],
    "gather-rows": [Setting(3, 0.5, 1, 0.5, 1000), Setting(3, 0.5, 1, 0.5, 1000, 1)],
    "gather-groups": [Setting(3, 0.5, 3, 0.5, 4000), Setting(3, 0.5, 1, 0.5, 4000, 1),
                      Setting(3, 0.5, 3, 0.5, 8000, 2), Setting(3, 0.5, 1, 0.5, 8000, 3),
                      Setting(3, 0.5, 3, 0.5, 16000, 4), Setting(3, 0.5, 1, 0.5, 16000, 5)],
}


#: Settings that differ by layout: (layout, phase) -> settings.
OVERRIDES: dict[tuple[str, str], list[Setting]] = {
    ("arden", "whole"): [Setting(3, 1, 0, 0.5, 8000, focus=True, probe=(ARDEN_PROBE, ARDEN_PROBE_NEAR)),
                         Setting(3, 1, 3, 0.5, 16000, 1, focus=True)],
}


def settings_for(game: AmberGame, phase: str, weight: float | None = None) -> list[Setting]:
    """The settings of ``phase`` on ``game``'s layout; ``weight``: another search weight than the layout's."""
    chosen = OVERRIDES.get((game.name, phase), SETTINGS[phase])
    exact = game.name in EXACT
    lazy = game.name in LAZY
    return [replace(x, weight=weight or WEIGHTS.get(game.name, x.weight), exact=exact, lazy=lazy) for x in chosen]


#: Layouts whose exact searches weigh the eta term of a child only when it is popped (``Setting.lazy``: the
#: same search, 10-30% less CPU on Arden and Kolvir; no gain measured on Pattern).
LAZY = {"arden", "kolvir"}


#: Search weight by layout (default: the setting's, 3). On Path in Shadow 1.5 measured shorter
#: solutions (about 2.0 x the bound instead of 2.2) at the same speed; on Kolvir it was slower.
WEIGHTS = {"path": 1.5, "path-52": 1.5, "path-36": 1.5}


def _plan(board: _Board, game: AmberGame, budget: _Budget, plans: Plans | None = None
          ) -> list[tuple[int, int]] | None:
    """Run ``plans`` (by default :func:`plans_for`'s) in turn, each within its cap, until one wins."""
    return in_turn(((functools.partial(_run_plan, board, game, steps), cap)
                    for steps, cap in (plans_for(game, board) if plans is None else plans)), budget)


def in_turn(runs: Iterable[tuple[Callable[[_Budget], Path | None], int | None]], budget: _Budget) -> Path | None:
    """Each of ``runs`` (a run within a budget, and its cap of states) in turn until one wins: its path, or ``None``.
    A run with the cap ``None`` has the whole budget left, and is the last."""
    for run, cap in runs:
        if cap is None:
            return run(budget)
        sub = _Budget(budget.deadline, budget.left(cap))
        path = run(sub)
        budget.used += sub.used
        if path is not None:
            return path
    return None


def _run_plan(board: _Board, game: AmberGame, steps: list[Step], budget: _Budget) -> list[tuple[int, int]] | None:
    return _run_steps(board, game, steps, board.start, frozenset(), budget)


#: Whether :func:`solve` races where :func:`races_for` says so (``benchmarks/amber_solver.py --no-race``).
RACE = True


def can_race() -> bool:
    """Whether a race can run here: a second core to run on, processes that can be forked, and this is the
    main process. A worker process of a pool (``amber survey --jobs 2``) does not race: the pool already
    keeps the cores busy, and a race there would only add the losing plan's CPU."""
    return (RACE and _cores() >= 2 and multiprocessing.parent_process() is None
            and "fork" in multiprocessing.get_all_start_methods())


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _racer(run: Callable[[_Budget], Any], budget: _Budget, out: Connection, parent: int) -> None:
    """A raced plan, in a process of its own: sends (path or None, states used), or the error it raised.

    Ctrl-C is the parent's to handle (it stops its racers): a racer ignores SIGINT, so that an interrupted
    ``amber solve`` prints no racer's traceback. A racer whose parent is gone ends without a word: at once
    when the parent was killed outright (:func:`_orphan_watch`), else when it next writes to the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True).start()
    try:
        path = run(budget)
    except Exception as exc:  # a bug in the search: the parent raises it
        message: tuple[str, Any, int] = ("error", exc, budget.used)
    else:
        message = ("done", path, budget.used)
    try:
        out.send(message)
        out.close()
    except OSError:  # the parent is gone (its end of the pipe closed)
        pass


#: Seconds between a racer's looks at whether its parent is still there.
ORPHAN_POLL = 0.25


def _orphan_watch(parent: int) -> None:
    """In a racer: end the process once ``parent`` is gone (killed without the chance to stop its racers,
    e.g. by SIGKILL), instead of searching on to the end of the budget with nobody to report to."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL)
    os._exit(0)


#: Seconds past the deadline that the parent of a race still waits for a racer's answer. A racer checks the
#: deadline as it searches, so only a stuck one (forked from a threaded server while another thread held a
#: lock it then needs) stays silent longer: it is stopped, and the race has found nothing. (A plan may run a
#: little past the deadline, the last state it expands; a busy machine slows it.)
RACE_GRACE = 5.0


#: After the first raced plan wins, the race waits for the others until ``RACE_WAIT_FACTOR`` times the first's seconds
#: have passed again, at least ``RACE_WAIT_MIN`` seconds (where :func:`solve` asks for the shortest line; each racer
#: then shortens its own line): the shortest line kept (``docs/solver.md``, "Twenty-first session").
RACE_WAIT_FACTOR = 1.0
RACE_WAIT_MIN = 0.3
#: ... and never past this many seconds after the end of the draws for length (``_Budget.length_until``).
RACE_WAIT_AFTER_LENGTH = 0.2


def _race(runs: dict[str, Callable[[_Budget], T | None]], budget: _Budget,
          length: Callable[[T], int] | None = None) -> tuple[str, T] | None:
    """Run ``runs`` (name -> a plan run within a budget) at the same time, each in a forked process with the
    whole of ``budget`` (its deadline, and its node cap for each). Without ``length`` the first to win is kept (its
    name and result) and the others are stopped. With it, after the first win at ``t`` seconds the race waits for the
    others until ``t + max(RACE_WAIT_FACTOR * t, RACE_WAIT_MIN)`` (never past the deadline), then keeps the result of
    least ``length`` (the first among equals) and stops the rest.

    ``budget.used`` grows by the states of every plan that finished without a win before the first win, and by the
    fewest states with which a plan heard from won (without a wait, the first win's): the difficulty figure is the
    effort of the cheapest win heard, not that of the racer that was quickest to shorten its line. Racers still
    silent ``RACE_GRACE`` seconds after the deadline are stopped too, and the race returns None."""
    context = multiprocessing.get_context("fork")
    racers: dict[Connection, tuple[str, multiprocessing.process.BaseProcess]] = {}
    started = time.perf_counter()
    best: tuple[str, T] | None = None
    fewest = 0  # the fewest states of a win heard
    until: float | None = None  # the end of the wait, once a plan has won
    try:
        for name, run in runs.items():
            reader, writer = context.Pipe(duplex=False)
            cap = None if budget.cap is None else budget.cap - budget.used
            process = context.Process(target=_racer, args=(run, _Budget(budget.deadline, cap, budget.length_until),
                                                           writer, os.getpid()),
                                      daemon=True)
            process.start()
            writer.close()
            racers[reader] = (name, process)
        while racers:
            now = time.perf_counter()
            if until is not None:
                timeout: float | None = max(0.0, until - now)
            else:
                timeout = None if budget.deadline is None else max(0.0, budget.deadline + RACE_GRACE - now)
            ready = wait(list(racers), timeout)
            if not ready:  # the wait is over, or silent past the deadline: stuck (e.g. on a lock held at the fork)
                return best
            for reader in ready:
                name, process = racers.pop(reader)
                try:
                    kind, result, used = reader.recv()
                except EOFError:  # the process died without a word (killed from outside)
                    kind, result, used = "done", None, 0
                reader.close()
                process.join()
                if kind == "error":
                    raise result
                if result is None:
                    if best is None:
                        budget.used += used
                    continue
                if best is None:
                    budget.used += used
                    fewest = used
                    if length is None:
                        return name, result
                    won = time.perf_counter()
                    until = won + max(RACE_WAIT_FACTOR * (won - started), RACE_WAIT_MIN)
                    if budget.deadline is not None:
                        until = min(until, budget.deadline)
                    if budget.length_until is not None:
                        until = min(until, max(won, budget.length_until + RACE_WAIT_AFTER_LENGTH))
                    best = (name, result)
                    continue
                if used < fewest:  # a plan heard later that won with fewer states
                    budget.used -= fewest - used
                    fewest = used
                if length is not None and length(result) < length(best[1]):
                    best = (name, result)
        return best
    finally:
        for reader, (_, process) in racers.items():
            process.terminate()
            process.join()
            reader.close()


def _line(run: Callable[[_Budget], Path | None], board: _Board, layout: str, deadline: float | None,
          budget: _Budget) -> tuple[int, Path] | None:
    """A raced plan that shortens its own line (:func:`solve`'s race for length): the length found and the line
    shortened, as :func:`solve` shortens it (until the deadline, at least half a second)."""
    path = run(budget)
    return None if path is None else (len(path), _shortened(board, path, deadline, layout))


def _shortened(board: _Board, path: Path, deadline: float | None, layout: str) -> Path:
    """``path`` shortened (:func:`shorten`) until ``deadline``, or for half a second if that is later."""
    return shorten(board, path, None if deadline is None else max(deadline, time.perf_counter() + 0.5), layout)


#: The draws for length of a full :func:`solve` (Arden's, Pattern's) stop this many seconds after its start at the
#: latest (``_Budget.length_until``): on a slow machine or a deal slow to win, a line sooner rather than a shorter one.
#: None: only the deadline stops them (as in a solve without a time limit, which has no clock at all). 0.7 since the
#: twenty-fourth session (0.6 before): with Arden's larger draw caps, deals 1-100 length / bound 2.04 -> 2.00, the
#: median 0.71 -> 0.83 s on a fast machine, 0.91 s with both cores loaded (``docs/solver.md``).
LENGTH_SECONDS: float | None = 0.7


#: Whether a full :func:`solve` (not a quick hint) races for length: the racers shorten their own lines and the race
#: waits a while after the first win (:data:`RACE_WAIT_FACTOR`) for a shorter one. False: the first win is kept and
#: shortened after the race, as before the twenty-first session.
RACE_FOR_LENGTH = True


def _run_steps(board: _Board, game: AmberGame, steps: list[Step], at: bytes, done: frozenset[int],
               budget: _Budget) -> list[tuple[int, int]] | None:
    """Run ``steps`` from ``at`` (the cells ``done`` stay). On layouts in ``BACKTRACK``, when the steps
    after a gather fail within ``BACKTRACK_CAP`` states (doubled each time), the gather goes on to
    its next solution (another end position) and the steps after it run again from there."""
    if not steps:
        return []
    step, rest = steps[0], steps[1:]
    n = board.n
    free = [c for c in range(n) if c not in done]
    if step.kind == "sort":
        whole = len(step.parts[0]) == n
        solutions = _phase_solutions(board, at, settings_for(game, "whole" if whole else "region", step.weight),
                                     budget, cells=list(step.parts[0]))
        done = done | frozenset(step.parts[0])
    else:
        solutions = _phase_solutions(board, at, settings_for(game, step.phase or "gather", step.weight), budget,
                                     **_gather_kw(board, step.parts, free))
    if step.kind == "sort" or game.name not in BACKTRACK or not rest:
        found = next(solutions, None)
        if found is None:
            return None
        tail = _run_steps(board, game, rest, found[1], done, budget)
        return None if tail is None else found[0] + tail
    cap = BACKTRACK_CAP
    for path, end in solutions:
        sub = _Budget(budget.deadline, budget.left(cap))
        tail = _run_steps(board, game, rest, end, done, sub)
        budget.used += sub.used
        if tail is not None:
            return path + tail
        cap = int(cap * GROWTH)
    return None


def _gather_kw(board: _Board, parts: Iterable[Iterable[int]], free: list[int]) -> dict[str, Any]:
    """The keywords of :func:`_search` for a gathering: every card into its part of ``parts`` (the cells
    ``free`` move)."""
    region_of = [0] * board.n
    for r, part in enumerate(parts):
        for c in part:
            region_of[c] = r
    card_region = [region_of[board.target[x]] for x in range(board.n)]
    return {"cells": free, "group": card_region, "cell_group": region_of, "sort_groups_only": True}


#: Layouts solved by a planner of their own instead of :func:`_plan`: layout -> (module of this package,
#: function), imported when first needed. The function takes ``(board, game, budget)`` and returns the swaps
#: or ``None``, like :func:`_plan`.
PLANNERS: dict[str, tuple[str, str]] = {"pattern": ("amber_pattern", "plan_pattern"),
                                        "kolvir": ("amber_kolvir", "plan_kolvir")}


#: Layouts whose plans backtrack (see :func:`_run_steps`), and the first budget of the steps after a gather.
BACKTRACK = {"arden"}
BACKTRACK_CAP = 6000


def solve(position: Position, *, time_limit: float | None = None, node_limit: int | None = None,
          shorten_first: int | None = None, length_seconds: float | None = None) -> Solution:
    """Solve an Amber position (a fresh deal or a game in progress).

    Returns status ``won`` with the swaps; ``lost`` when the rules show that the position can
    never be won (:meth:`AmberPosition.lost_reason`: a block has lost every card of a kind its
    goal needs, or no swap is left); otherwise ``unknown`` when the time or node budget runs out
    (the search itself proves no loss). Where two plans race (:func:`races_for`), each has the whole budget:
    the node limit bounds each plan, and ``stats["nodes"]`` counts the states of the plans that finished without a win
    before the first win, and of the win (in a race for length, the cheapest win heard: :func:`_race`). A full solve
    races for length (:data:`RACE_FOR_LENGTH`): each racer shortens its own line, and the race waits a while after
    the first win for a shorter one. Without a race, a full solve of Forest of Arden makes the draws for length of
    both its raced plans (:func:`arden_draws`).

    ``shorten_first`` (a quick hint, ``solvers.solve(quick=True)``): shorten only the first that many swaps of
    the path found (0: none), the rest as found (``stats["shortened_first"]``, and the swaps it replaced in
    ``stats["found_first"]``); :func:`finish` shortens the path found whole afterwards, as without it. A quick
    solve makes no draws for length (Forest of Arden's, Pattern of Amber's: :func:`_planner_kw`) and keeps the first
    raced plan's line, so its line, shortened whole, may be longer than a full solve's. None (the default): the
    whole path.

    ``length_seconds``: the draws for length (Forest of Arden's, Pattern of Amber's) stop that many seconds after the
    start at the latest (None: :data:`LENGTH_SECONDS`); the time limit stops them too, and a solve without one has
    no clock. More seconds give a shorter line on Pattern of Amber (its close draws search deeper, and again), at
    that cost in time."""
    t0 = time.perf_counter()
    if not isinstance(position, AmberPosition):
        raise GameError(f"the Amber solver solves Amber positions, not {type(position).__name__}")
    if length_seconds is not None and not length_seconds > 0:
        raise GameError(f"length_seconds must be more than 0 seconds, not {length_seconds}")
    board = _Board(position)
    stats: dict[str, Any] = {"lower_bound": board.bound(board.start)}
    reason = position.lost_reason()
    if reason is not None:
        # proved: a block lacks a kind its goal needs (it can never regain one), or no swap is left
        stats.update(seconds=time.perf_counter() - t0, nodes=0, difficulty=0, reason=reason)
        return Solution("lost", [], stats)
    deadline = None if time_limit is None else t0 + time_limit
    cap = node_limit if node_limit is not None else (DEFAULT_NODE_CAP if time_limit is None else None)
    # no clock on the work for length without a time limit (a solve bounded by states only: the same with any load)
    clock = LENGTH_SECONDS if length_seconds is None else length_seconds
    budget = _Budget(deadline, cap, None if clock is None or deadline is None else t0 + clock)
    planner = PLANNERS.get(position.game.name)
    quick = shorten_first is not None
    races = races_for(position.game, board, quick) if can_race() else None
    shortened: Path | None = None
    try:
        if races is not None and not quick and RACE_FOR_LENGTH:
            # each racer shortens its own line, and the race waits a while for the others: the shortest is kept
            lines = _race({name: functools.partial(_line, run, board, position.game.name, deadline)
                           for name, run in races.items()}, budget, length=lambda line: len(line[1]))
            path = None
            if lines is not None:
                stats["plan"] = lines[0]
                stats["found_length"], shortened = lines[1]
        elif races is not None:
            raced = _race(races, budget)
            path = None if raced is None else raced[1]
            if raced is not None:
                stats["plan"] = raced[0]
        elif planner is not None:
            module, function = planner
            path = getattr(importlib.import_module(f".{module}", __package__), function)(
                board, position.game, budget, **_planner_kw(position.game, quick))
        else:
            # without a race, a full solve of Forest of Arden makes the draws of both raced plans
            # in turn by weight, both plans' first draws before the second ones: the clock cuts the last
            draws = [] if quick or not _arden_chain(position.game) else [
                steps for turn in zip(*arden_draws(position.game, board).values(), strict=True) for steps in turn]
            path = _plan_drawn(board, position.game, plans_for(position.game, board), draws, budget)
    except Unwinnable as proof:  # a plan looked at every position reachable: none is won
        stats.update(seconds=time.perf_counter() - t0, nodes=budget.used, difficulty=budget.used,
                     reason=proof.reason(), reachable=proof.reached)
        return Solution("lost", [], stats)
    if path is not None and quick:
        head = path[:shorten_first]
        stats.update(found_length=len(path), shortened_first=shorten_first, found_first=[list(s) for s in head])
        path = (_shortened(board, head, deadline, position.game.name) if head else []) + path[shorten_first:]
    elif shortened is not None:
        path = shortened
    elif path is not None:
        stats["found_length"] = len(path)
        path = _shortened(board, path, deadline, position.game.name)
    stats["seconds"] = time.perf_counter() - t0
    stats["nodes"] = budget.used
    stats["difficulty"] = budget.used
    if path is None:
        return Solution("unknown", [], stats)
    moves: list[Swap] = [Swap(a, b) for a, b in path]
    stats["length"] = len(moves)
    return Solution("won", list(moves), stats)


def finish(position: Position, solution: Solution, *, time_limit: float | None = None) -> Solution:
    """A quick solution (``solve(shorten_first=...)``) made what :func:`solve` returns without it: the path
    found (its first swaps from ``stats["found_first"]``, the rest as returned) shortened whole. (The quick
    solve found its path without draws for length, and kept the first raced plan's, so this line may be longer than
    a full solve's.)"""
    stats = dict(solution.stats)
    if "shortened_first" not in stats:
        return solution
    head = [(int(a), int(b)) for a, b in stats.pop("found_first")]
    del stats["shortened_first"]
    rest = stats["found_length"] - len(head)
    path = head + [(move.a, move.b) for move in _swaps(solution.moves[len(solution.moves) - rest:])]
    moves = shorten_line(position, [Swap(a, b) for a, b in path], time_limit=time_limit)
    stats["length"] = len(moves)
    return Solution("won", list(moves), stats)


def _swaps(moves: Sequence[Move]) -> list[Swap]:
    swaps = [move for move in moves if isinstance(move, Swap)]
    if len(swaps) != len(moves):
        raise GameError("an Amber line is made of swaps")
    return swaps


def shorten_line(position: Position, moves: Sequence[Move], *, time_limit: float | None = None) -> list[Swap]:
    """A winning line from ``position`` shortened whole, as :func:`solve` shortens the path it finds (at most
    ``time_limit`` seconds, at least 0.5 s; no limit for None)."""
    if not isinstance(position, AmberPosition):
        raise GameError(f"the Amber solver shortens Amber lines, not lines of {type(position).__name__}")
    board = _Board(position)
    path = [(move.a, move.b) for move in _swaps(moves)]
    deadline = None if time_limit is None else time.perf_counter() + max(time_limit, 0.5)
    return [Swap(a, b) for a, b in shorten(board, path, deadline, position.game.name)]
