"""Pattern of Amber's planner (used by :func:`amber_patience.solvers.amber.solve`).

``docs/solver-pattern.md`` has the reasoning, the measured figures and the history of the attempts
that came before. In short:

* **Kinds.** A card enters a block only beside a rank-neighbour there, so beside a card of its
  own kind (suit, or trumps): a block never regains a kind it has lost. At the level of kinds a
  position is a 5 x 5 count matrix (block x kind), and a swap across blocks A <-> B moving kinds
  k1 (A -> B) and k2 (B -> A) needs both blocks to hold both kinds. :func:`kind_solvable` searches
  that tiny state for a sequence of exchanges that ends with every block holding only its goal
  kind (:func:`kind_plan` returns the sequence); :func:`kind_refused` is the invariant prune built
  on it (an exchange that takes a block's last card of a kind when no kind plan exists afterwards).
* **Rank potential.** A card enters its home block only beside x - 1 or x + 1 there; every card
  outside its home block costs 1 + its rank distance to the nearest card of its kind at home - 1
  (:meth:`PatternPlanner.kind_potential`): bringing x - 1 home lowers the cost of x, a gradient
  along the chains that "cards out" is flat on.
* **Balance search** (:func:`balance_search`). At the level of sets (which block holds which card,
  :func:`card_blocks`) an exchange of f (block A) and g (block B) is allowed when B holds a
  rank-neighbour of f and A one of g (:func:`set_exchanges`). A card travels only by an exchange with
  one going the other way, so the cards two blocks owe each other in equal numbers go home in pairs
  and every card of the excess has to go round a third block: the transport :func:`imbalance`
  measures that excess, and with it in the measure (rank potential + imbalance weight x imbalance)
  far fewer searches walk into the rank-level traps. Best-first over real positions whose children
  are every exchange the sets allow, weighed at the level of sets and docked (:func:`dock_exchange`:
  a best-first search inside each block, :meth:`PatternPlanner.dock`) only when they come off the heap.
* **Portfolio, end game, then sort.** :func:`plan_pattern` tries the balance searches of
  ``BALANCE_PORTFOLIO`` (or of the race's other portfolio, ``RACE_PORTFOLIO``) in turn (growing
  budgets, new tie-breaks; :func:`_attempts`), each one that stalls near the goal followed by a fresh
  balance search from its nearest position (:func:`end_game`), until every card is in its block;
  the gathering is made again with docks that count merges (:func:`regather`, the same exchanges: the
  length is the bound + 2 x the merges), the one of fewer merges kept; then each block is sorted with only
  its own cells moving (``solvers/amber.py``'s region search). The attempts share their caches (docks,
  moves, kind plans).
* **The late attempt** (:func:`guided_dive`, only past ``LATE_AFTER`` states): a stalled attempt near the goal
  is followed by a dive that docks, in turn, the exchanges of a plan made at the level of sets alone.

**Compiled.** The balance search whole (:func:`_balance_search_py`: its loop, merges costed or not,
:func:`dock_exchange`, :meth:`PatternPlanner.dock` with its cache, :meth:`PatternPlanner._never_docks`, the children
:func:`_balance_children_py`), the kind search (:func:`_kind_search_py`) and the regathering's dock that counts merges
(:meth:`PatternPlanner._merge_search_py`) run in C when the core is built (:mod:`.compiled`): the same searches,
checked against these Python references by ``tests/test_amber_core.py``.

In the race of ``amber.races_for`` (this portfolio against ``RACE_PORTFOLIO``, the faster kept) it wins every
non-stranded deal of 1-60 within 20 s on two cores (eighth session: the slowest in about 12 s);
alone, one portfolio misses some (traps described in ``docs/solver-pattern.md``).
"""

from __future__ import annotations

import array
import functools
import heapq
import itertools
import operator
import random
import time
from collections.abc import Callable, Iterator, Sequence

from ..games.amber import AmberGame
from . import compiled
from .amber import Unwinnable, _Board, _Budget, _phase, closed_reach, settings_for

#: Kinds are the card groups of ``_Board.group``: suits 0-3, trumps 4.
TRUMPS = 4
BLOCKS = 5
KINDS = 5

#: Kind matrix: ``m[block * KINDS + kind]`` = how many cards of that kind the block holds.
Matrix = tuple[int, ...]
#: A kind-level exchange: (block A, kind leaving A, block B, kind leaving B).
Exchange = tuple[int, int, int, int]


# -- the kind level -----------------------------------------------------------------------------


def kind_matrix(board: _Board, at: Sequence[int]) -> Matrix:
    """The block x kind counts of a position (``at``: the card in every cell)."""
    m = [0] * (BLOCKS * KINDS)
    for cell, card in enumerate(at):
        m[board.block[cell] * KINDS + board.group[card]] += 1
    return tuple(m)


def home_kinds(board: _Board) -> list[int]:
    """The kind that the goal puts in each block."""
    home = [0] * BLOCKS
    for cell in range(board.n):
        home[board.block[cell]] = board.cell_group[cell]
    return home


def exchange(m: Matrix, e: Exchange) -> Matrix | None:
    """The matrix after exchange ``e``, or ``None`` if the exchange is impossible at the kind level
    (both blocks must hold both kinds before it: each card lands beside one of its own kind)."""
    a, k1, b, k2 = e
    if a == b or k1 == k2:
        return None
    if not (m[a * KINDS + k1] and m[a * KINDS + k2] and m[b * KINDS + k1] and m[b * KINDS + k2]):
        return None
    n = list(m)
    n[a * KINDS + k1] -= 1
    n[a * KINDS + k2] += 1
    n[b * KINDS + k2] -= 1
    n[b * KINDS + k1] += 1
    return tuple(n)


def foreign(m: Matrix, home: Sequence[int]) -> int:
    """Cards outside the block of their kind."""
    return sum(m[a * KINDS + k] for a in range(BLOCKS) for k in range(KINDS) if k != home[a])


def held_kinds(m: Matrix) -> list[int]:
    """The kinds each block holds, as bit masks (bit k: kind k)."""
    held = []
    for base in range(0, BLOCKS * KINDS, KINDS):
        kinds = 0
        for k in range(KINDS):
            if m[base + k]:
                kinds |= 1 << k
        held.append(kinds)
    return held


def exits_ok(m: Matrix, home: Sequence[int]) -> bool:
    """A quick necessary condition: every block holds its goal kind, and every foreign kind of a
    block can still leave it (some other block holds that kind and a second kind the first holds)."""
    return _exits_held(held_kinds(m), home)


def _exits_held(held: Sequence[int], home: Sequence[int]) -> bool:
    """:func:`exits_ok` of the matrix whose blocks hold the kinds ``held`` (:func:`held_kinds`)."""
    for a in range(BLOCKS):
        mine = held[a]
        if not mine >> home[a] & 1:
            return False
        rest = mine & ~(1 << home[a])
        while rest:
            k = rest & -rest
            rest ^= k
            for b in range(BLOCKS):
                theirs = held[b]
                if b != a and theirs & k and mine & theirs & ~k:
                    break
            else:
                return False
    return True


def _exchanges(m: Matrix, home: Sequence[int]) -> Iterator[tuple[int, Exchange, Matrix]]:
    """Every kind-level exchange that keeps :func:`exits_ok`, with its gain (cards sent home); in the order
    of (a, k1, b, k2) with a < b, as :func:`exchange` allows them (both blocks holding both kinds)."""
    held = held_kinds(m)
    for a in range(BLOCKS):
        ra, home_a = a * KINDS, home[a]
        for b in range(a + 1, BLOCKS):
            common = held[a] & held[b]
            if not common & (common - 1):
                continue  # fewer than two kinds in common: no exchange
            rb, home_b = b * KINDS, home[b]
            for k1 in range(KINDS):
                if not common >> k1 & 1:
                    continue
                for k2 in range(KINDS):
                    if k2 == k1 or not common >> k2 & 1:
                        continue
                    t = list(m)
                    t[ra + k1] -= 1
                    t[ra + k2] += 1
                    t[rb + k2] -= 1
                    t[rb + k1] += 1
                    n = tuple(t)
                    if not t[ra + k1] or not t[rb + k2]:
                        # a block gave its last card of a kind: only then can the exits close
                        after = list(held)
                        if not t[ra + k1]:
                            after[a] &= ~(1 << k1)
                        if not t[rb + k2]:
                            after[b] &= ~(1 << k2)
                        if not _exits_held(after, home):
                            continue
                    gain = (k1 == home_b) + (k2 == home_a) - (k1 == home_a) - (k2 == home_b)
                    yield gain, (a, k1, b, k2), n


def kind_plan(m: Matrix, home: Sequence[int], cap: int = 3000) -> list[Exchange] | bool | None:
    """A sequence of kind-level exchanges from ``m`` to the goal (every block holding only its
    kind); ``False`` when none exists (proved: the search ran out), ``None`` when the ``cap`` of
    states per search was reached first. Best-first on foreign cards, then depth-first."""
    if not exits_ok(m, home):
        return False
    parents: dict[Matrix, tuple[Matrix, Exchange] | None] = {m: None}

    def trace(end: Matrix) -> list[Exchange]:
        steps: list[Exchange] = []
        link = parents[end]
        while link is not None:
            steps.append(link[1])
            link = parents[link[0]]
        return steps[::-1]

    heap = [(foreign(m, home), m)]
    done: set[Matrix] = set()
    exhausted = True
    while heap:
        f, cur = heapq.heappop(heap)
        if cur in done:
            continue
        done.add(cur)
        if f == 0:
            return trace(cur)
        if len(done) > cap:
            exhausted = False
            break
        for gain, e, n in _exchanges(cur, home):
            if n not in parents:
                parents[n] = (cur, e)
                heapq.heappush(heap, (f - gain, n))
    if exhausted:
        return False
    # depth-first, most gain first (finds plans that the best-first order misses)
    parents = {m: None}
    stack = [m]
    done = set()
    while stack:
        cur = stack.pop()
        if cur in done:
            continue
        done.add(cur)
        if foreign(cur, home) == 0:
            return trace(cur)
        if len(done) > cap:
            return None
        for _gain, e, n in sorted(_exchanges(cur, home)):
            if n not in done:
                parents[n] = (cur, e)
                stack.append(n)
    return False


#: States per search of :func:`kind_solvable` when the invariant prune asks (``None`` then lets the swap
#: through).
KIND_CAP = 300


def kind_solvable(m: Matrix, home: Sequence[int], memo: dict[Matrix, bool | None], cap: int = 3000) -> bool | None:
    """Whether a kind plan exists from ``m`` (as :func:`kind_plan`: ``None`` when ``cap`` states per
    search were not enough), with ``memo`` of matrices known either way: a search stops at the first
    state known solvable, and every state on the way there is then known solvable too; when the
    first search runs out, every state it met is known unsolvable."""
    if m in memo:
        return memo[m]
    if not exits_ok(m, home):
        memo[m] = False
        return False
    if compiled.ON:
        assert compiled.native is not None
        known: bool | None = compiled.native.kind_search(bytes(m), bytes(home), memo, cap)
        return known
    return _kind_search_py(m, home, memo, cap)


def _kind_search_py(m: Matrix, home: Sequence[int], memo: dict[Matrix, bool | None], cap: int) -> bool | None:
    """:func:`kind_solvable`'s searches from ``m`` (not in ``memo``, its exits open): the reference of the compiled
    one (``_amber_core.kind_search``: the same answer, the same entries written to ``memo``)."""
    parents: dict[Matrix, Matrix | None] = {m: None}

    def solved(end: Matrix) -> bool:
        cur: Matrix | None = end
        while cur is not None:
            memo[cur] = True
            cur = parents[cur]
        return True

    heap = [(foreign(m, home), m)]
    done: set[Matrix] = set()
    while heap:
        f, cur = heapq.heappop(heap)
        if cur in done:
            continue
        done.add(cur)
        if f == 0:
            return solved(cur)
        if len(done) > cap:
            break
        for gain, _e, n in _exchanges(cur, home):
            if n in parents:
                continue
            parents[n] = cur
            known = memo.get(n)
            if known:
                return solved(n)
            if known is False:
                continue
            heapq.heappush(heap, (f - gain, n))
    else:
        for state in parents:
            memo[state] = False
        return False
    # depth-first, most gain first (finds plans that the best-first order misses)
    parents = {m: None}
    stack = [m]
    done = set()
    while stack:
        cur = stack.pop()
        if cur in done:
            continue
        done.add(cur)
        if foreign(cur, home) == 0 or memo.get(cur):
            return solved(cur)
        if len(done) > cap:
            memo[m] = None
            return None
        for _gain, _e, n in sorted(_exchanges(cur, home)):
            if n not in done and memo.get(n) is not False:
                parents[n] = cur
                stack.append(n)
    memo[m] = False
    return False


def kind_refused(m: Sequence[int], home: Sequence[int], memo: dict[Matrix, bool | None], a: int, k1: int,
                 b: int, k2: int) -> bool:
    """The invariant prune: whether an exchange across blocks ``a`` and ``b`` moving kinds ``k1``
    (a -> b) and ``k2`` (b -> a), legal at the kind level (each block holds both kinds), must be
    refused: when it takes a block's last card of a kind and no kind plan exists afterwards
    (:func:`kind_solvable` with ``KIND_CAP`` states per search and the shared ``memo``; a search that
    gives up lets the exchange through). Taking a block's last card of its goal kind is always
    refused (the rules engine calls such a position lost; :func:`exits_ok` fails)."""
    if k1 == k2 or (m[a * KINDS + k1] != 1 and m[b * KINDS + k2] != 1):
        return False
    after = exchange(tuple(m), (a, k1, b, k2))
    return after is not None and kind_solvable(after, home, memo, KIND_CAP) is False


#: A node of the planner's best-first searches: (position, parent index, swaps from the parent, g).
_Node = tuple[bytes, int, tuple[tuple[int, int], ...], int]


def _trace(store: list[_Node], i: int) -> list[tuple[int, int]]:
    """The swaps from the root of a best-first search's ``store`` to its node ``i``."""
    path: list[tuple[int, int]] = []
    while store[i][1] >= 0:
        path[:0] = store[i][2]
        i = store[i][1]
    return path


def spread_tables(mask: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """Lookup tables for :func:`reach_masks`: the cells touching a set of cells (bit masks) of a block of at most
    21 cells whose cell ``i`` touches the cells of ``mask[i]``, seven cells a table: the cells touching ``s`` are
    ``t0[s & 127] | t1[s >> 7 & 127] | t2[s >> 14]``."""
    if len(mask) > 21:
        raise ValueError(f"spread tables are for blocks of at most 21 cells, not {len(mask)}")
    tables = []
    for chunk in range(3):
        table = [0] * 128
        for s in range(1, 128):
            low = s & -s
            c = chunk * 7 + low.bit_length() - 1
            table[s] = table[s ^ low] | (mask[c] if c < len(mask) else 0)
        tables.append(table)
    return tables[0], tables[1], tables[2]


def reach_masks(tables: tuple[list[int], list[int], list[int]], frozen: Sequence[bool], cont: Sequence[int],
                nb: Sequence[tuple[int, int]]) -> list[int]:
    """Where the cards of a block can ever stand by swaps inside it, over-approximated: ``reach[i]`` is a bit
    mask of the cells that the card now in cell ``i`` may reach (``tables``: :func:`spread_tables` of the block,
    ``frozen``: its start cells, ``cont``: its cards by cell, ``nb``: the rank-neighbours of every card).

    Inside a block only its own cards move. A card with no rank-neighbour in the block never takes part in a
    swap (it would land beside no neighbour), nor does a start card, so their cells never change: the other
    cards (the *free* cells) only trade places among themselves. A card lands in a cell touching a cell that
    holds one of its neighbours after the swap: a neighbour that stays where it is (a cell it can reach), or the
    partner of the swap, which was in the cell the card lands on and goes to the one the card leaves. So the
    least masks closed under: the card in cell i may reach a free cell k if, for a neighbour of it n, k touches
    a cell n may reach, or n may reach k and k touches a cell the card may reach. Every cell a card stands in
    after any swaps inside the block is in its mask (by induction on the swaps); the converse does not hold."""
    t0, t1, t2 = tables
    where = {x: i for i, x in enumerate(cont)}
    free = 0
    movers: list[tuple[int, list[int]]] = []
    for i, x in enumerate(cont):
        near = [where[m] for m in nb[x] if m in where]
        if near and not frozen[i]:
            free |= 1 << i
            movers.append((i, near))
    reach = [1 << i for i in range(len(cont))]
    changed = True
    while changed:
        changed = False
        for i, near in movers:
            mine = reach[i]
            beside = t0[mine & 127] | t1[mine >> 7 & 127] | t2[mine >> 14]
            acc = 0
            for j in near:
                theirs = reach[j]
                acc |= t0[theirs & 127] | t1[theirs >> 7 & 127] | t2[theirs >> 14] | (theirs & beside)
            grown = mine | (acc & free)
            if grown != mine:
                reach[i] = grown
                changed = True
    return reach


def cycle_exits(board: _Board, at: Sequence[int], kept: Sequence[int]) -> list[int]:
    """The permutation to the goal (cell -> the goal cell of its card) followed through the cells ``kept`` only:
    ``exits[x]``, for every card x, is the index in ``kept`` of the first kept cell on the cycle after a cell
    holding x (its goal cell, if kept; else the cells after it, as ``at`` holds them, until a kept one). The
    cards outside the kept cells are taken as in ``at``; the kept cells may hold their cards in any order, and
    two kept cells are on one cycle of the whole permutation exactly when they are on one cycle of
    ``i -> exits[card in kept[i]]`` (the cycles pass through the other cells as before). A card whose cycle
    does not come back to a kept cell (it is not one of theirs, and it is on none of their cycles) gets -1."""
    index = {c: i for i, c in enumerate(kept)}
    target = board.target
    exits = [-1] * board.n
    for c in kept:
        x = at[c]
        j = target[x]
        steps = 0
        while j not in index:
            j = target[at[j]]
            steps += 1
            if steps > board.n:
                raise ValueError("the kept cells must hold the cards of a position: a cycle did not come back")
        exits[x] = index[j]
    return exits


#: Entries of a generation of :meth:`PatternPlanner.block_moves`'s cache (at most twice as many are kept).
MOVES_CACHE = 100_000

#: Entries of :meth:`PatternPlanner.dock`'s cache, at most, before it is cleared.
DOCKS_CACHE = 300_000


def dock_key(blk: int, content: Sequence[int], stay: int, wanted: Sequence[int]) -> bytes:
    """The key of :meth:`PatternPlanner.dock`'s cache: block, card ``stay``, the number of ``wanted`` cards, the
    wanted cards and the block's content (its cards, or its :meth:`PatternPlanner.inert_key`), as bytes. A content
    whose inert key is itself shares its entry with it: the same dock."""
    return bytes((blk, stay, len(wanted), *wanted, *content))

#: The card byte standing for a card that is a wall in a dock (:meth:`PatternPlanner.inert_key`).
INERT = 255

#: The weight of a merge against a swap in :meth:`PatternPlanner.merge_dock` (a merge costs two in the
#: solution's length: length = bound + 2 x merges; a split none).
MERGE_WEIGHT = 4

#: After how many states a dock's search asks :meth:`PatternPlanner._never_docks` for a proof that it cannot
#: succeed (a proof costs about as much as a few states; asked after 1, 5, 10 or 20 states, the docks of deals
#: 3, 7 and 9 took the same CPU within 2%, after 40 states 7% more).
DOCK_PROOF_AFTER = 5


def _swaps_to(parents: dict[bytes, tuple[int, int] | None], end: bytes) -> tuple[tuple[int, int], ...]:
    """The swaps from a dock's first state to ``end``, from each state's swap from its parent (``None`` for the first
    state): a swap undoes itself, so the parent is the state with it made again."""
    steps: list[tuple[int, int]] = []
    back = bytearray(end)
    link = parents[end]
    while link is not None:
        steps.append(link)
        i, k = link
        back[i], back[k] = back[k], back[i]
        link = parents[bytes(back)]
    return tuple(steps[::-1])


class PatternPlanner:
    """The geometry of Pattern of Amber's blocks for the balance search: the moves inside a block, the
    docks (searches inside one block), the rank of every card and the rank potential, with caches that
    the portfolio's attempts share."""

    def __init__(self, board: _Board, game: AmberGame, seed: int = 1, lam: float = 1.0,
                 share: PatternPlanner | None = None) -> None:
        if share is not None:
            # the geometry, the cards and the caches depend only on the board (and ``lam``): a later attempt of the
            # portfolio meets the same blocks, docks and kind matrices again (measured: most of its work); only the
            # random numbers are its own
            if share.board is not board or share.lam != lam:
                raise ValueError("a planner shares caches only with a planner of the same board and lam")
            self.__dict__.update(share.__dict__)
            self.seed = seed
            self.rng = random.Random(seed)
            return
        #: the seed of the random tie-breaks
        self.seed = seed
        self.board = board
        self.game = game
        n = board.n
        self.n = n
        if n > INERT:
            raise ValueError(f"the planner holds a card in a byte below {INERT}: {n} cards are too many")
        self.blocks = [[c.id for c in game.cells if c.block == name] for name in game.blocks]
        if any(len(cells) < 2 for cells in self.blocks):
            raise ValueError("Pattern of Amber's planner needs blocks of at least two cells")
        #: per block: a position's cards in the block's cells, as a tuple
        self.contents = [operator.itemgetter(*cells) for cells in self.blocks]
        local = [0] * n
        for cells in self.blocks:
            for i, c in enumerate(cells):
                local[c] = i
        #: per block: the local adjacency, and which local cells hold a start card
        self.adj = [[tuple(local[d] for d in board.adj[c]) for c in cells] for cells in self.blocks]
        self.frozen = [[c in board.frozen for c in cells] for cells in self.blocks]
        self.mask = [[sum(1 << d for d in a) for a in adj] for adj in self.adj]
        #: per block: its cells that hold no start card, as a bit mask
        self.movable = [sum(1 << i for i, f in enumerate(frozen) if not f) for frozen in self.frozen]
        self.spread = [spread_tables(mask) for mask in self.mask]
        #: per block, for :meth:`block_moves`: ``targets[i][j]``, the cells (not start cells, nor i) that the card
        #: of cell i may swap with to land beside a card in cell j (the cells touching j, and j itself if it
        #: touches i), in the order the moves are made; ``pairs[i][k]``, the swap of cells i and k, lower first
        self.targets = [[[tuple(k for k in adj[j] + ((j,) if mask[i] >> j & 1 else ()) if k != i and not frozen[k])
                          for j in range(len(adj))] for i in range(len(adj))]
                        for adj, mask, frozen in zip(self.adj, self.mask, self.frozen, strict=True)]
        self.pairs = [[[(i, k) if i < k else (k, i) for k in range(len(adj))] for i in range(len(adj))]
                      for adj in self.adj]
        #: the moves inside a block by (block, content), in two generations (a bounded cache that keeps the hot
        #: entries): new entries go to the first; when it is full it becomes the second, the old second is
        #: dropped, and an entry found in the second is copied back to the first
        self._moves: list[dict[tuple[int, bytes], tuple[tuple[int, int], ...]]] = [{}, {}]
        self.home_block = [board.block[board.target[x]] for x in range(n)]
        self.kind = board.group
        self.home = home_kinds(board)
        self.lam = lam
        #: the rank of every card within its kind (0 ..), and each kind's size
        self.rank = [0] * n
        self.size = [0] * KINDS
        for k in range(KINDS):
            first = min(x for x in range(n) if self.kind[x] == k)
            x, r = first, 0
            while True:
                self.rank[x] = r
                r += 1
                x = board.nb[x][1]
                if x == first:
                    break
            self.size[k] = r
        self._pot: dict[tuple[int, int], float] = {}
        #: per block: grid distance between its local cells
        self.dist = [[[abs(game.cells[c].row - game.cells[d].row) + abs(game.cells[c].column - game.cells[d].column)
                       for d in cells] for c in cells] for cells in self.blocks]
        #: dock results: key -> (swaps or ``None``, the cap of the search that found them; ``1 << 30`` when
        #: proved impossible); keyed by the block's content, and by its :meth:`inert_key` as well (:func:`dock_key`)
        self._docks: dict[bytes, tuple[tuple[tuple[int, int], ...] | None, int]] = {}
        self.rng = random.Random(seed)
        self._kinds: dict[Matrix, bool | None] = {}

    # -- inside one block

    def block_moves(self, blk: int, cont: Sequence[int], linked: Sequence[int] | None = None
                    ) -> tuple[tuple[int, int], ...]:
        """The legal swaps inside block ``blk`` whose cells hold ``cont`` (local cell pairs, each once, in a
        fixed order: the docks' tie-breaks follow it). ``linked``, if given, must be the cells whose card has a
        rank-neighbour in the block (:meth:`linked_cells`), in order: the others take part in no swap, nor are
        they beside a card's neighbour (the same moves)."""
        key = (blk, bytes(cont))
        generations = self._moves
        young = generations[0]
        found = young.get(key)
        if found is not None:
            return found
        found = generations[1].get(key)
        if found is None:
            found = self._make_moves(blk, cont, linked)
        if len(young) >= MOVES_CACHE:
            generations[1] = young
            young = generations[0] = {}
        young[key] = found
        return found

    def _make_moves(self, blk: int, cont: Sequence[int], linked: Sequence[int] | None) -> tuple[tuple[int, int], ...]:
        """:meth:`block_moves` without the cache.

        The swap of cells i < k (cards x, y) is legal when x lands at k beside a rank-neighbour and y at i beside
        one: x's neighbours stay where they are unless one is y (then at i), and the same for y. With ``near[c]``
        the cells of the neighbours of the card in c (a bit mask) and ``touch[c]`` the cells touching them, the
        swap is legal when k is in ``touch[i]`` and i in ``touch[k]`` (the cells that ``near`` of i's adjacent
        cells holds), or when y is x's neighbour and the cells touch (they trade places); with neither a start
        cell. Those bit masks are the legal swaps of each cell; the loop over the cells where x may go (as
        before, the same order) only puts them into a set in the order it always did, since the set's order is
        the order of the moves (the docks' tie-breaks follow it)."""
        targets, pairs, mask, adj = self.targets[blk], self.pairs[blk], self.mask[blk], self.adj[blk]
        t0, t1, t2 = self.spread[blk]
        movable = self.movable[blk]
        nb = self.board.nb
        cells = range(len(cont)) if linked is None else linked
        pos = {cont[i]: i for i in cells}
        get = pos.get
        near = [0] * len(cont)
        for i in cells:
            y0, y1 = nb[cont[i]]
            r = get(y0)
            s = get(y1)
            if r is not None:
                near[i] = 1 << r if s is None else 1 << r | 1 << s
            elif s is not None:
                near[i] = 1 << s
        out: set[tuple[int, int]] = set()
        add = out.add
        for i in cells:
            ni = near[i]
            if not ni or not movable >> i & 1:
                continue
            # the legal partners k > i (those below were put in from their own cell first)
            up = movable >> i + 1 << i + 1
            touch = (t0[ni & 127] | t1[ni >> 7 & 127] | t2[ni >> 14]) & up
            legal = ni & mask[i] & up
            if touch:
                by = 0
                for r in adj[i]:
                    by |= near[r]
                legal |= touch & by
            if not legal:
                continue
            pair = pairs[i]
            if not legal & (legal - 1):
                add(pair[legal.bit_length() - 1])
                continue
            reach = targets[i]
            for m in nb[cont[i]]:
                j = get(m)
                if j is not None:
                    for k in reach[j]:
                        if legal >> k & 1:
                            add(pair[k])
        # as a tuple in the set's order (the order of the sixth and seventh sessions' moves): a third of the memory
        return tuple(out)

    def linked_cells(self, cont: Sequence[int]) -> list[int]:
        """The cells of a block's content ``cont`` whose card has a rank-neighbour in it (the others never
        move inside the block: their cells are the same in every content a dock reaches)."""
        nb = self.board.nb
        present = set(cont)
        return [i for i, x in enumerate(cont) if nb[x][0] in present or nb[x][1] in present]

    def dock(self, blk: int, cont: tuple[int, ...], stay: int, wanted: Sequence[int], cap: int = 2000
             ) -> tuple[tuple[int, int], ...] | None:
        """Swaps inside block ``blk`` (local cell pairs, fewest found by a best-first search of at
        most ``cap`` states) after which card ``stay`` touches one of the ``wanted`` cards, so that
        a card from ``wanted``'s rank-neighbours can take ``stay``'s cell; ``None`` if not found.

        This is one side of an exchange (:func:`dock_exchange`), prepared as deep as it needs. A dock
        :meth:`_may_dock` refuses is not searched; a search without a dock after ``DOCK_PROOF_AFTER`` states
        stops if :meth:`_never_docks` proves that none exists (the answer is the same: ``None``). The answers are
        cached in ``_docks`` (cleared above ``DOCKS_CACHE`` entries); with the compiled core
        (``_amber_core.cached_dock``) the same search and the same cache, read and written alike."""
        if compiled.ON:
            assert compiled.native is not None, "the compiled core is not built"
            return compiled.native.cached_dock(self._core_exchanger, self._docks, blk, bytes(cont), stay,
                                               bytes(wanted), cap, DOCK_PROOF_AFTER, DOCKS_CACHE)
        wanted = tuple(w for w in wanted if w in cont)
        if stay not in cont or not wanted:
            return None
        key = dock_key(blk, cont, stay, wanted)
        known = self._docks.get(key)
        if known is not None and (known[0] is not None or known[1] >= cap):
            return known[0]
        # the same dock with other cards in the cells whose card no card of the block neighbours: the same search
        inert = dock_key(blk, self.inert_key(cont, stay, wanted), stay, wanted)
        known = self._docks.get(inert)
        if known is not None and (known[0] is not None or known[1] >= cap):
            self._docks[key] = known
            return known[0]
        start = bytes(cont)
        if self._dock_h(blk, start, stay, wanted) > 0 and not self._may_dock(blk, cont, stay, wanted):
            self._docks[key] = self._docks[inert] = (None, 1 << 30)
            return None
        found, never = self._dock_py(blk, start, stay, wanted, cap)
        if never:
            self._docks[key] = self._docks[inert] = (None, 1 << 30)
            return None
        if len(self._docks) > DOCKS_CACHE:
            self._docks.clear()
        self._docks[key] = self._docks[inert] = (found, cap)
        return found

    def _dock_h(self, blk: int, c: bytes, stay: int, wanted: Sequence[int]) -> int:
        """A dock's h: the grid distance from ``stay`` to the nearest ``wanted`` card in content ``c``, minus one
        (0: they touch)."""
        row = self.dist[blk][c.index(stay)]
        best = 99
        for w in wanted:
            d = row[c.index(w)]
            if d < best:
                best = d
        return best - 1

    def _dock_py(self, blk: int, start: bytes, stay: int, wanted: Sequence[int], cap: int
                 ) -> tuple[tuple[tuple[int, int], ...] | None, bool]:
        """:meth:`dock`'s search (the reference of the compiled one, ``_amber_core.cached_dock``'s): best-first on
        ``g + 2 h``,
        ties by the order pushed; (the swaps or ``None``, whether :meth:`_never_docks` proved that none exist, asked
        after ``DOCK_PROOF_AFTER`` states)."""
        h0 = self._dock_h(blk, start, stay, wanted)
        found: tuple[tuple[int, int], ...] | None = None
        # a state's swap from its parent (a swap undoes itself: the parent is the state with it made again)
        parents: dict[bytes, tuple[int, int] | None] = {start: None}
        # heap entries carry their h (a swap moves at most two of the cards h looks at, so the
        # children's h is recomputed only when it does)
        heap = [(h0, 0, 0, start, h0)]
        tie = 0
        expanded = 0
        moves = self.block_moves
        linked = self.linked_cells(start)
        push, pop = heapq.heappush, heapq.heappop
        looked = (stay, *wanted)
        h = self._dock_h
        while heap:
            _f, g, _t, cur, hc = pop(heap)
            if hc == 0:
                found = _swaps_to(parents, cur)
                break
            expanded += 1
            if expanded > cap:
                break
            if expanded == DOCK_PROOF_AFTER and self._never_docks(blk, start, stay, wanted):
                return None, True
            g1 = g + 1
            t = bytearray(cur)
            back = parents[cur]
            for pair in moves(blk, cur, linked):
                if pair is back:
                    continue  # the swap back to the parent (in ``parents``: skipped below anyway)
                i, k = pair
                x = t[k]
                y = t[i]
                t[i] = x
                t[k] = y
                new = bytes(t)
                t[i] = y
                t[k] = x
                if new in parents:
                    continue
                parents[new] = pair
                tie += 1
                hn = h(blk, new, stay, wanted) if x in looked or y in looked else hc
                push(heap, (g1 + 2 * hn, g1, tie, new, hn))
        return found, False

    @functools.cached_property
    def _core_nb(self) -> bytes:
        """The rank-neighbours of every card for the compiled docks (:attr:`_core_exchanger`): two bytes a card, for
        256 cards."""
        return bytes(z for pair in self.board.nb for z in pair).ljust(512, b"\0")

    @functools.cached_property
    def _core_exchanger(self) -> object:
        """The blocks for the compiled docks with their cache and the compiled exchange (``_amber_core.exchanger``):
        the geometry of :attr:`_core_blocks`, the cards' neighbours and every block's cells."""
        assert compiled.native is not None, "the compiled core is not built"
        return compiled.native.exchanger(self._core_blocks, self._core_nb, [bytes(cells) for cells in self.blocks])

    @functools.cached_property
    def _core_cards(self) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes, float]:
        """The cards for the compiled children of the balance search (:func:`_balance_children_core`): the home block,
        kind and rank of every card, its two rank-neighbours (two bytes a card), each kind's size, each block's goal
        kind, and ``lam``."""
        return (bytes(self.home_block), bytes(self.kind), bytes(self.rank),
                bytes(z for pair in self.board.nb for z in pair), bytes(self.size), bytes(self.home), float(self.lam))

    @functools.cached_property
    def _core_blocks(self) -> list[tuple[int, int, bytes, bytes, bytes, bytes]]:
        """Every block for the compiled dock: its number of cells, its movable cells (a bit mask), the cells beside
        each (four bytes, 255 for none), ``targets`` (five bytes a pair of cells, 255 after the last), the grid
        distances, and ``hash((i, k))`` of every pair of its cells (8 bytes each), by which CPython's set orders
        the moves."""
        out = []
        for blk, adj in enumerate(self.adj):
            m = len(adj)
            targets = bytes(v for i in range(m) for j in range(m) for v in (*self.targets[blk][i][j], 255, 255, 255,
                                                                               255, 255)[:5])
            hashes = array.array("q", [hash(self.pairs[blk][i][k]) for i in range(m) for k in range(m)]).tobytes()
            out.append((m, self.movable[blk], bytes(c for cells in adj for c in (*cells, 255, 255, 255, 255)[:4]),
                        targets, bytes(d for row in self.dist[blk] for d in row), hashes))
        return out

    def merge_dock(self, at: bytes, blk: int, stay: int, wanted: Sequence[int], cap: int = 300,
                   partner: int | None = None) -> tuple[tuple[tuple[int, int], ...], int] | None:
        """:meth:`dock` counting merges instead of swaps: swaps inside block ``blk`` of the whole position ``at``
        after which card ``stay`` touches one of the ``wanted`` cards, found by a best-first search (at most
        ``cap`` states expanded) on ``MERGE_WEIGHT`` x merges + swaps + 2 x the grid distance, where a merge is
        a swap of two cells on different cycles of the permutation to the goal (it raises the lower bound by
        one; a swap of two cells on one cycle lowers it by one: :meth:`_Board.bound`). With ``partner`` (a cell
        outside the block, its card fixed), the swap of ``stay``'s cell with it, made after the dock, counts too.
        The local swaps and their merges (the exchange with ``partner`` included). When this search finds no dock
        within ``cap`` states, the ordinary :meth:`dock`'s (same ``cap``) with its merges counted, or ``None``.

        The rest of the position is fixed during the dock, so the cycles are followed through the block only:
        a card leaving the block's cells (and the partner's) comes back to a known one of them, whichever cards
        stand in the block (:func:`cycle_exits`)."""
        cells = self.blocks[blk]
        cont = self.contents[blk](at)
        wanted = tuple(w for w in wanted if w in cont)
        if stay not in cont or not wanted:
            return None
        kept = list(cells) if partner is None else [*cells, partner]
        exits = cycle_exits(self.board, at, kept)  # card -> index into kept
        fixed_exit = -1 if partner is None else exits[at[partner]]
        start = bytes(cont)
        if compiled.ON:
            assert compiled.native is not None, "the compiled core is not built"
            status, made = compiled.native.merge_dock(self._core_exchanger, blk, start, stay, bytes(wanted),
                                                      bytes(255 if e < 0 else e for e in exits), fixed_exit, cap,
                                                      MERGE_WEIGHT)
        else:
            status, made = self._merge_search_py(blk, start, stay, wanted, exits, fixed_exit, cap)
        if status < 0:
            return None
        if made is not None:
            return made
        cycle_ids, closing = self._merge_cycles(exits, fixed_exit, stay)
        # not found within the cap: the ordinary dock's swaps (its search goes straight for the goal), if it finds any
        plain = self.dock(blk, cont, stay, wanted, cap)
        if plain is None:
            return None
        merges = 0
        t = bytearray(start)
        for i, k in plain:
            ids = cycle_ids(bytes(t))
            merges += ids[i] != ids[k]
            t[i], t[k] = t[k], t[i]
        return plain, merges + closing(bytes(t))

    @staticmethod
    def _merge_cycles(exits: Sequence[int], fixed_exit: int, stay: int
                      ) -> tuple[Callable[[bytes], list[int]], Callable[[bytes], int]]:
        """For :meth:`merge_dock`: the cycle of every kept cell of a block's content (the cells followed through
        the block and the partner's cell, if ``fixed_exit`` is not -1: :func:`cycle_exits`), and whether the swap
        of ``stay`` with the partner closes two cycles into one (1) or not (0)."""

        def cycle_ids(c: bytes) -> list[int]:
            nxt = [exits[x] for x in c]
            if fixed_exit >= 0:
                nxt.append(fixed_exit)
            ids = [-1] * len(nxt)
            k = 0
            for i in range(len(nxt)):
                if ids[i] < 0:
                    j = i
                    while ids[j] < 0:
                        ids[j] = k
                        j = nxt[j]
                    k += 1
            return ids

        def closing(c: bytes) -> int:
            if fixed_exit < 0:
                return 0
            ids = cycle_ids(c)
            return int(ids[c.index(stay)] != ids[len(c)])

        return cycle_ids, closing

    def _merge_search_py(self, blk: int, start: bytes, stay: int, wanted: Sequence[int], exits: Sequence[int],
                         fixed_exit: int, cap: int) -> tuple[int, tuple[tuple[tuple[int, int], ...], int] | None]:
        """:meth:`merge_dock`'s search (the reference of the compiled one, ``_amber_core.merge_dock``): (-1, None)
        when no dock exists (:meth:`_may_dock`, :meth:`_never_docks`), (0, the swaps and their merges), or (0, None)
        when none is found within ``cap`` states."""
        dist = self.dist[blk]
        cycle_ids, closing = self._merge_cycles(exits, fixed_exit, stay)

        def h(c: bytes) -> int:
            row = dist[c.index(stay)]
            return min(row[c.index(w)] for w in wanted) - 1

        weight = MERGE_WEIGHT
        h0 = h(start)
        if h0 > 0 and (not self._may_dock(blk, start, stay, wanted) or self._never_docks(blk, start, stay, wanted)):
            return -1, None
        x0 = closing(start) if h0 == 0 else 0
        # a state's swap from its parent and its cost (merges, swaps); a state is opened again when reached cheaper
        parents: dict[bytes, tuple[int, int] | None] = {start: None}
        costs: dict[bytes, tuple[int, int]] = {start: (0, 0)}
        heap = [(weight * x0 + 2 * h0, 0, 0, 0, start, h0, x0)]
        tie = 0
        expanded = 0
        done: set[bytes] = set()
        linked = self.linked_cells(start)
        moves = self.block_moves
        push, pop = heapq.heappush, heapq.heappop
        looked = (stay, *wanted)  # a swap of other cards leaves h as it was (as in :meth:`dock`)
        while heap:
            _f, merges, g, _t, cur, hc, xc = pop(heap)
            if cur in done or costs[cur] != (merges, g):
                continue
            if hc == 0:
                return 0, (_swaps_to(parents, cur), merges + xc)
            done.add(cur)
            expanded += 1
            if expanded > cap:
                break
            ids = cycle_ids(cur)
            g1 = g + 1
            t = bytearray(cur)
            for i, k in moves(blk, cur, linked):
                x = t[k]
                y = t[i]
                t[i] = x
                t[k] = y
                new = bytes(t)
                t[i] = y
                t[k] = x
                if new in done:
                    continue
                cost = (merges + (ids[i] != ids[k]), g1)
                known = costs.get(new)
                if known is not None and known <= cost:
                    continue
                costs[new] = cost
                parents[new] = (i, k)
                tie += 1
                hn = h(new) if x in looked or y in looked else hc
                xn = closing(new) if hn == 0 else 0
                push(heap, (weight * (cost[0] + xn) + g1 + 2 * hn, cost[0], g1, tie, new, hn, xn))
        return 0, None

    def inert_key(self, cont: Sequence[int], stay: int, wanted: Sequence[int]) -> bytes:
        """A block's content ``cont`` as a dock for ``stay`` and ``wanted`` sees it: every card that has no
        rank-neighbour in the block, other than ``stay`` and the ``wanted`` cards, replaced by ``INERT``.

        Such a card takes part in no swap inside the block (it would land beside no neighbour), is no card's
        neighbour there (the relation is symmetric), and no swap lands a card beside it: it is a wall, whichever
        card it is. So two contents with the same key have the same moves in every state a dock reaches from them
        (the same cells linked, the same reach masks, the same swaps in the same order), and a dock searches them
        alike: the same answer, the same swaps."""
        nb = self.board.nb
        present = set(cont)
        return bytes(x if x == stay or x in wanted or nb[x][0] in present or nb[x][1] in present else INERT
                     for x in cont)

    def known_to_fail(self, blk: int, cont: tuple[int, ...], stay: int, wanted: Sequence[int], cap: int) -> bool:
        """Whether :meth:`dock` with these arguments is known to answer ``None`` without searching: from its
        cache (a search of at least ``cap`` states, or a proof), or because ``stay`` or every wanted card is not
        in the block."""
        present = tuple(w for w in wanted if w in cont)
        if stay not in cont or not present:
            return True
        known = self._docks.get(dock_key(blk, cont, stay, present))
        return known is not None and known[0] is None and known[1] >= cap

    def _never_docks(self, blk: int, cont: Sequence[int], stay: int, wanted: Sequence[int]) -> bool:
        """A proof that no swaps inside block ``blk`` (holding ``cont``) bring ``stay`` beside a ``wanted``
        card (``stay`` and ``wanted``: cards of ``cont``): no cell that a wanted card may reach touches a cell
        that ``stay`` may reach (:func:`reach_masks`). ``True`` only for docks that have no solution at all.
        Compiled: ``_amber_core.never_docks``."""
        if compiled.ON:
            assert compiled.native is not None, "the compiled core is not built"
            return bool(compiled.native.never_docks(self._core_exchanger, blk, bytes(cont), stay, bytes(wanted)))
        t0, t1, t2 = tables = self.spread[blk]
        reach = reach_masks(tables, self.frozen[blk], cont, self.board.nb)
        mine = reach[cont.index(stay)]
        beside = t0[mine & 127] | t1[mine >> 7 & 127] | t2[mine >> 14]
        return not any(reach[cont.index(w)] & beside for w in wanted)

    def _may_dock(self, blk: int, cont: tuple[int, ...], stay: int, wanted: Sequence[int]) -> bool:
        """Quick necessary test for :meth:`dock`. A card with no rank-neighbour in the block takes
        part in no swap inside it (it would land beside no neighbour), and swaps inside a block never
        change which cards it holds: so if ``stay`` is such a card, some card beside it must be able
        to move, and some wanted card too."""
        linked = set(self.linked_cells(cont))  # the cells whose card can move
        a = cont.index(stay)
        if a in linked:
            return True
        return (any(c in linked and not self.frozen[blk][c] for c in self.adj[blk][a])
                and any(cont.index(w) in linked for w in wanted))

    # -- the rank potential

    def potential(self, at: Sequence[int]) -> float:
        """The rank potential of a position: :meth:`kind_potential` summed over the kinds."""
        block, home_block, kind, rank = self.board.block, self.home_block, self.kind, self.rank
        present = [0] * KINDS
        for c, x in enumerate(at):
            if block[c] == home_block[x]:
                present[kind[x]] |= 1 << rank[x]
        return sum(self.kind_potential(k, present[k]) for k in range(KINDS))

    # -- across blocks

    def out(self, at: Sequence[int]) -> int:
        """Cards outside their home block."""
        block, home_block = self.board.block, self.home_block
        return sum(block[c] != home_block[x] for c, x in enumerate(at))

    def kind_potential(self, k: int, present: int) -> float:
        """The potential of kind ``k`` whose home block holds the ranks in bitmask ``present``: every
        absent rank costs 1 + ``lam`` x (its cyclic rank distance to the nearest present rank - 1).
        A card can enter its home block only beside a rank-neighbour there, so the cards next to
        a run already home cost 1, and bringing x - 1 home lowers the cost of x: a gradient along
        the chains (``out`` is flat along them)."""
        key = (k, present)
        found = self._pot.get(key)
        if found is not None:
            return found
        size = self.size[k]
        ranks = [r for r in range(size) if present >> r & 1]
        total = 0.0
        for r in range(size):
            if present >> r & 1:
                continue
            if not ranks:
                total += 1 + self.lam * size
                continue
            d = min(min((r - q) % size, (q - r) % size) for q in ranks)
            total += 1 + self.lam * (d - 1)
        self._pot[key] = total
        return total


def imbalance(transport: Sequence[Sequence[int]]) -> int:
    """How unbalanced a transport matrix is (``transport[a][b]``: cards in block a whose home is b):
    the sum over pairs of blocks of ``|t[a][b] - t[b][a]|``. A card can only travel by an exchange
    with a card going the other way, so the cards that two blocks owe each other in equal numbers
    go home in pairs; each card of the excess must travel round a longer cycle, through a third
    block that has to hold the right kinds and ranks at the right time (where the searches stalled)."""
    return sum(abs(transport[a][b] - transport[b][a]) for a in range(BLOCKS) for b in range(a + 1, BLOCKS))


def imbalance_after(transport: Sequence[Sequence[int]], before: int, a: int, b: int, hf: int, hg: int) -> int:
    """:func:`imbalance` after an exchange of a card of block ``a`` whose home is ``hf`` and one of block ``b``
    whose home is ``hg`` (``transport``: the matrix before it, whose imbalance is ``before``), from the pairs of
    blocks the exchange changes. The exchange takes one from ``t[a][hf]`` and ``t[b][hg]`` and adds one to
    ``t[b][hf]`` and ``t[a][hg]``: nothing changes when ``hf == hg``; when the two cards go to each other's
    block's home (``a == hg`` and ``b == hf``, or ``a == hf`` and ``b == hg``), the pair a-b loses (or gains) one
    each way and the other entries are a block's own cards, which no pair counts; otherwise the pairs changed
    are distinct, one entry of each by one."""
    if hf == hg or (a == hg and b == hf) or (a == hf and b == hg):
        return before
    total = before
    if a != hf:
        d = transport[a][hf] - transport[hf][a]
        total += abs(d - 1) - abs(d)
    if b != hf:
        d = transport[b][hf] - transport[hf][b]
        total += abs(d + 1) - abs(d)
    if b != hg:
        d = transport[b][hg] - transport[hg][b]
        total += abs(d - 1) - abs(d)
    if a != hg:
        d = transport[a][hg] - transport[hg][a]
        total += abs(d + 1) - abs(d)
    return total


def card_blocks(board: _Board, at: Sequence[int]) -> bytes:
    """The block of every card (``loc[card]``), the position at the level of sets."""
    loc = bytearray(board.n)
    for cell, card in enumerate(at):
        loc[card] = board.block[cell]
    return bytes(loc)


def set_exchanges(board: _Board, loc: Sequence[int], movable: Sequence[int]) -> Iterator[tuple[int, int, int, int]]:
    """Every exchange across blocks that the sets allow: card ``f`` (block a) and card ``g`` (block b)
    trade blocks when b holds a rank-neighbour of f other than g and a one of g other than f (each
    card lands beside a neighbour: the rule, at the level of sets; where the cards stand inside the
    blocks is for :func:`dock_exchange`). Yields (f, a, g, b), each unordered pair once per direction
    it is found in (f's neighbours name b)."""
    nb = board.nb
    members: list[list[int]] = [[] for _ in range(BLOCKS)]
    for x in movable:
        members[loc[x]].append(x)
    for f in movable:
        a = loc[f]
        f0, f1 = nb[f]
        for b in {loc[f0], loc[f1]}:
            if b == a:
                continue
            for g in members[b]:
                g0, g1 = nb[g]
                if not ((loc[g0] == a and g0 != f) or (loc[g1] == a and g1 != f)):
                    continue
                if not ((loc[f0] == b and f0 != g) or (loc[f1] == b and f1 != g)):
                    continue
                yield f, a, g, b


def dock_exchange(planner: PatternPlanner, at: bytes, f: int, g: int, cap: int
                  ) -> tuple[tuple[tuple[int, int], ...], bytes] | None:
    """The swaps that make the exchange of cards ``f`` and ``g`` (in two blocks) legal and then make
    it: a :meth:`PatternPlanner.dock` inside f's block brings a neighbour of g beside f, one inside
    g's block a neighbour of f beside g (at most ``cap`` states each). The swaps (cell pairs) and the
    end position, or ``None`` when a dock is not found. Compiled: ``_amber_core.exchange``, the same docks, cache
    and answer."""
    if compiled.ON:
        assert compiled.native is not None, "the compiled core is not built"
        return compiled.native.exchange(planner._core_exchanger, planner._docks, at, f, g, cap, DOCK_PROOF_AFTER,
                                        DOCKS_CACHE)
    board, blocks = planner.board, planner.blocks
    a_blk, b_blk = board.block[at.index(f)], board.block[at.index(g)]
    conts_a = planner.contents[a_blk](at)
    conts_b = planner.contents[b_blk](at)
    wanted_b = [w for w in board.nb[f] if w != g]
    if planner.known_to_fail(b_blk, conts_b, g, wanted_b, cap):
        return None  # the answer without docking f's side (measured: most failing exchanges at deal 11)
    prep_a = planner.dock(a_blk, conts_a, f, [w for w in board.nb[g] if w != f], cap)
    if prep_a is None:
        return None
    prep_b = planner.dock(b_blk, conts_b, g, wanted_b, cap)
    if prep_b is None:
        return None
    swaps = (tuple((blocks[a_blk][p], blocks[a_blk][q]) for p, q in prep_a)
             + tuple((blocks[b_blk][p], blocks[b_blk][q]) for p, q in prep_b))
    mid = _apply(at, swaps)
    swaps += ((mid.index(f), mid.index(g)),)
    return swaps, _apply(at, swaps)


#: The balance search's docks per expansion of its node budget, on average, before an attempt gives up
#: (the dry starts, where nearly every exchange the sets allow fails to dock, cost the most CPU; the
#: first expansions may use them all: an early limit per expansion made deals 25 and 39 stop at once).
BALANCE_DOCKS = 100
#: Near the goal (at most ``BALANCE_END_OUT`` cards out), the balance search's docks search up to
#: ``BALANCE_END_CAP`` states: the last foreign cards are often alone of their kind (immobile), and a
#: neighbour has to be brought to them with its own partner (deal 19's stall at 2 out: the one exchange
#: left docks in 7 swaps, found within 3000 states, not within 300). Measured at <= 12 out too: deal 36
#: took 36.5 CPU s instead of 6.5 (failing docks of 3000 states), so only at <= 4.
BALANCE_END_OUT = 4
BALANCE_END_CAP = 3000
#: Elsewhere the balance search's docks search up to this many states (the draws for length: ``DRAW_DOCK_CAP``).
BALANCE_DOCK_CAP = 300
#: How often one set of blocks (``card_blocks``) is expanded, with different arrangements inside them.
BALANCE_REPEATS = 2


def balance_search(planner: PatternPlanner, start: bytes, budget: _Budget, imbalance_weight: float = 3.0,
                   weight: float = 2.0, cap: int = BALANCE_DOCK_CAP, best: dict[str, object] | None = None,
                   sets_only: bool = False, merge_cost: float = 0.0) -> tuple[list[tuple[int, int]], bytes] | None:
    """Best-first over exchanges across blocks on ``exchanges + weight x (potential + imbalance_weight x
    imbalance)``, until every card is in its home block: the swaps and the end position, or ``None``
    when the budget (expansions) runs out or the docks of :data:`BALANCE_DOCKS` do (``best`` then gets
    the nearest position seen by cards out: ``at``, ``path``).

    The children of a position are every exchange the sets allow (:func:`set_exchanges`: not only
    those sending a card home), weighed at the level of sets (the rank potential of
    :meth:`PatternPlanner.kind_potential` and the transport :func:`imbalance`), refused by the kind
    prune (:func:`kind_solvable`) when a block loses its last card of a kind; they are docked
    (:func:`dock_exchange`) only when they come off the heap, so the thousands of exchanges that
    never come up cost no dock. Ties are broken by the planner's seeded random numbers.

    ``sets_only``: the same search at the level of sets alone (a diagnostic, ``benchmarks/pattern_solver.py
    --balance --sets``): every exchange the sets allow is made at once, f and g trading cells with no dock, so
    the positions are not reachable in play and only their sets mean anything. Every legal exchange is one of
    the sets' (:func:`set_exchanges`), so a deal whose sets cannot be gathered cannot be won; one gathered here
    may still fail in the blocks' geometry.

    ``merge_cost``: the path cost counts merges too (a swap across two cycles of the permutation to the goal,
    each two swaps of the solution's length: :func:`merges_of`): a position's cost is its exchanges plus
    ``merge_cost`` x the merges of the swaps that led to it (docks and exchanges). A child's merges are known
    once it is docked; a child whose merges raise its key goes back on the heap with its docked swaps (docked
    once), so the search expands positions in the order of their real cost. :func:`plan_pattern`'s draws for
    length use it (``DRAW_MERGE_COST``); 0 (the default) is the search above.

    Compiled (``_amber_core.balance_search``, :func:`_balance_search_core`, with ``merge_cost`` too) unless
    ``sets_only`` or ``lam`` is not whole; :func:`_balance_search_py` is the reference."""
    if sets_only and merge_cost:
        raise ValueError("merge_cost needs real positions: a search at the level of sets has no merges")
    board = planner.board
    fixed = {board.start[c] for c in board.frozen} | {start[c] for c in board.frozen}
    movable = [x for x in range(board.n) if x not in fixed]
    # the compiled search takes a whole ``lam`` only (the sums of :func:`_balance_children_py`)
    if compiled.ON and float(planner.lam).is_integer() and not sets_only:
        return _balance_search_core(planner, start, movable, budget, imbalance_weight, weight, cap, best, merge_cost)
    return _balance_search_py(planner, start, movable, budget, imbalance_weight, weight, cap, best, sets_only,
                              merge_cost)


def _balance_search_py(planner: PatternPlanner, start: bytes, movable: Sequence[int], budget: _Budget,
                       imbalance_weight: float, weight: float, cap: int, best: dict[str, object] | None,
                       sets_only: bool, merge_cost: float = 0.0) -> tuple[list[tuple[int, int]], bytes] | None:
    """:func:`balance_search` in Python (``movable``: the cards that are not start cards), the reference of the
    compiled one (:func:`_balance_search_core`); its children by the core when it is on and ``lam`` is whole."""
    board = planner.board
    n, home, kind, rank = board.n, planner.home_block, planner.kind, planner.rank
    # the compiled children take a whole ``lam`` only (the sums of :func:`_balance_children_py`)
    whole = float(planner.lam).is_integer()
    store: list[_Node] = [(bytes(start), -1, (), 0)]
    outs: list[int] = [n]
    heap: list[tuple[float, float, int, int, int]] = [(0.0, 0.0, -1, -1, -1)]
    # with ``merge_cost``: each node's path cost and bound; the docked children put back on the heap
    costs: list[float] = [0.0]
    bounds: list[int] = [board.bound(start)] if merge_cost else []
    docked: dict[tuple[int, int, int], tuple[tuple[tuple[int, int], ...], bytes, int]] = {}
    seen: set[bytes] = set()
    sets_seen: dict[bytes, int] = {}
    nearest = (n + 1, 0)
    docks = 0
    dock_limit = None if budget.cap is None else BALANCE_DOCKS * budget.left(1 << 30)
    found: tuple[list[tuple[int, int]], bytes] | None = None
    while heap:
        key, tie, parent, f, g = heapq.heappop(heap)
        if parent < 0:
            idx = 0
        else:
            merges = 0
            again = docked.pop((parent, f, g), None) if merge_cost else None
            if again is not None:
                done = again[0], again[1]
                merges = again[2]
            else:
                if dock_limit is not None and docks > dock_limit:
                    break
                docks += 1
                if sets_only:
                    above = store[parent][0]
                    swap = (above.index(f), above.index(g))
                    done = (swap,), _apply(above, (swap,))
                else:
                    done = dock_exchange(planner, store[parent][0], f, g,
                                         BALANCE_END_CAP if outs[parent] <= BALANCE_END_OUT else cap)
                if done is not None and merge_cost:
                    merges = (len(done[0]) + board.bound(done[1]) - bounds[parent]) // 2
                    if merges and done[1] not in seen:  # dearer than it was weighed: back on the heap
                        docked[parent, f, g] = (done[0], done[1], merges)
                        heapq.heappush(heap, (key + merge_cost * merges, tie, parent, f, g))
                        continue
            if done is None or done[1] in seen:
                continue
            store.append((done[1], parent, done[0], store[parent][3] + 1))
            outs.append(n)
            if merge_cost:
                costs.append(costs[parent] + 1 + merge_cost * merges)
                bounds.append(bounds[parent] - len(done[0]) + 2 * merges)
            idx = len(store) - 1
        cur, _, _, depth = store[idx]
        seen.add(cur)
        loc = card_blocks(board, cur)
        repeats = sets_seen.get(loc, 0)
        if repeats >= BALANCE_REPEATS:
            continue
        sets_seen[loc] = repeats + 1
        present = [0] * KINDS
        transport = [[0] * BLOCKS for _ in range(BLOCKS)]
        m = [0] * (BLOCKS * KINDS)
        out = 0
        for x in range(n):
            b = loc[x]
            if b == home[x]:
                present[kind[x]] |= 1 << rank[x]
            else:
                out += 1
            transport[b][home[x]] += 1
            m[b * KINDS + kind[x]] += 1
        outs[idx] = out
        if out < nearest[0]:
            nearest = (out, idx)
        if out == 0:
            found = _trace(store, idx), cur
            break
        if budget.left(1) <= 0:
            break
        budget.used += 1
        # with ``merge_cost`` the children are weighed from depth 0 and the node's cost added
        base = 0 if merge_cost else depth
        if compiled.ON and whole:
            kids = _balance_children_core(planner, loc, movable, base, idx, weight, imbalance_weight)
        else:
            kids = _balance_children_py(planner, loc, movable, present, transport, m, base, idx, weight,
                                        imbalance_weight)
        if merge_cost:
            cost = costs[idx]
            kids = [(k + cost, t, i, kf, kg) for k, t, i, kf, kg in kids]
        for kid in kids:
            heapq.heappush(heap, kid)
    if best is not None:
        best.update(at=store[nearest[1]][0], path=_trace(store, nearest[1]))
    return found


#: A child of the balance search, as pushed on its heap: (key, random tie-break, parent node, card f, card g).
_Child = tuple[float, float, int, int, int]


def _balance_children_py(planner: PatternPlanner, loc: bytes, movable: Sequence[int], present: Sequence[int],
                         transport: Sequence[Sequence[int]], m: Sequence[int], depth: int, idx: int, weight: float,
                         imbalance_weight: float) -> list[_Child]:
    """The children of node ``idx`` of :func:`balance_search` (at ``depth``, its cards in the blocks ``loc``; the
    ranks home by kind ``present``, the ``transport`` matrix and the kind matrix ``m`` of that position), in the
    order they are pushed, each with its random tie-break drawn from the planner's ``rng`` in that order: every
    exchange the sets allow (:func:`set_exchanges`) but those the kind prune refuses (:func:`kind_refused`). The
    reference of the compiled one (:func:`_balance_children_core`)."""
    board, home, kind, rank = planner.board, planner.home_block, planner.kind, planner.rank
    kinds_home, memo, potential, rng = planner.home, planner._kinds, planner.kind_potential, planner.rng
    whole = float(planner.lam).is_integer()
    kids: list[_Child] = []
    # with a whole ``lam`` every potential is a whole number (far below 2 ** 53), so a child's is its parent's
    # minus the two kinds' old potentials plus their new ones, the same float as the sum over the kinds.
    # A child's measure from its parent's: only the potentials of f's and g's kinds change (with a whole
    # ``lam``, the parent's sum with those two replaced; else summed over the kinds in the same order as
    # before), and the imbalance only in the pairs of blocks they touch: the same floats
    pots = [potential(k, present[k]) for k in range(KINDS)]
    total = sum(pots)
    imb = imbalance(transport)
    for f, a, g, b in set_exchanges(board, loc, movable):
        kf, kg = kind[f], kind[g]
        if kf != kg and (m[a * KINDS + kf] == 1 or m[b * KINDS + kg] == 1) and kind_refused(
                m, kinds_home, memo, a, kf, b, kg):
            continue
        hf, hg = home[f], home[g]
        mf = present[kf]
        if a == hf:
            mf &= ~(1 << rank[f])
        if b == hf:
            mf |= 1 << rank[f]
        mg = mf if kg == kf else present[kg]
        if b == hg:
            mg &= ~(1 << rank[g])
        if a == hg:
            mg |= 1 << rank[g]
        if whole:
            # integers held as floats: any order of the sum gives the same float
            if kg == kf:
                h = total - pots[kf] + potential(kf, mg)
            else:
                h = total - pots[kf] - pots[kg] + potential(kf, mf) + potential(kg, mg)
        else:
            p = pots.copy()
            p[kf] = potential(kf, mg if kg == kf else mf)
            p[kg] = potential(kg, mg)
            h = sum(p)
        h += imbalance_weight * imbalance_after(transport, imb, a, b, hf, hg)
        kids.append((depth + 1 + weight * h, rng.random(), idx, f, g))
    return kids


def _balance_search_core(planner: PatternPlanner, start: bytes, movable: Sequence[int], budget: _Budget,
                         imbalance_weight: float, weight: float, cap: int, best: dict[str, object] | None,
                         merge_cost: float = 0.0) -> tuple[list[tuple[int, int]], bytes] | None:
    """:func:`balance_search` by the compiled core (``_amber_core.balance_search``), for a whole ``lam`` and docked:
    the same expansions in the same order, the same answer and nearest position, the same budget used, the same
    random numbers drawn from the planner's ``rng``, and the same docks and kind answers written to its caches (the
    core's docks are :meth:`PatternPlanner.dock`'s, its children :func:`_balance_children_py`'s). With ``merge_cost``
    the core counts merges as :func:`_balance_search_py` does (the same floats: the bounds from each card's goal
    cell, ``board.target``)."""
    assert compiled.native is not None, "the compiled core is not built"
    dock_limit = None if budget.cap is None else BALANCE_DOCKS * budget.left(1 << 30)
    limits = (float(weight), float(imbalance_weight), KIND_CAP, cap, BALANCE_END_CAP, BALANCE_END_OUT,
              BALANCE_REPEATS, DOCK_PROOF_AFTER, DOCKS_CACHE, dock_limit, budget.cap, budget.used, budget.deadline,
              float(merge_cost), bytes(planner.board.target))
    version, state, gauss = planner.rng.getstate()
    path, end, near_at, near_path, used, state = compiled.native.balance_search(
        planner._core_exchanger, planner._docks, planner._core_cards, bytes(movable), planner._kinds, bytes(start),
        limits, state)
    planner.rng.setstate((version, state, gauss))
    budget.used = used
    if best is not None:
        best.update(at=near_at, path=near_path)
    return None if path is None else (path, end)


def _balance_children_core(planner: PatternPlanner, loc: bytes, movable: Sequence[int], depth: int, idx: int,
                           weight: float, imbalance_weight: float) -> list[_Child]:
    """:func:`_balance_children_py` by the compiled core (``_amber_core.balance_children``), for a whole ``lam``:
    the same children in the same order, the same random numbers drawn (the planner's ``rng`` is handed over and
    taken back) and the same kind answers written to the planner's memo."""
    assert compiled.native is not None, "the compiled core is not built"
    version, state, gauss = planner.rng.getstate()
    kids, state = compiled.native.balance_children(planner._core_cards, bytes(movable), loc, planner._kinds,
                                                   KIND_CAP, depth, idx, float(weight), float(imbalance_weight),
                                                   state)
    planner.rng.setstate((version, state, gauss))
    return kids


def _apply(at: bytes, swaps: Sequence[tuple[int, int]]) -> bytes:
    cur = bytearray(at)
    for p, q in swaps:
        cur[p], cur[q] = cur[q], cur[p]
    return bytes(cur)


#: Each round of ``BALANCE_PORTFOLIO`` has ``GROWTH`` x the budgets of the last (and new seeds).
GROWTH = 1.5
#: The balance searches of the portfolio, in turn: (imbalance weight, weight, first random seed, first
#: budget in expansions); each round with ``GROWTH`` x the budgets and new seeds. Measured (deals 1-20,
#: one search each with 1000 expansions): which deals a setting wins varies a lot (imbalance weight 3:
#: 11 of 18, 6: 9, 2: 7, 4: 5; weight 3 with 2: 4), and the wins come early (47-835 expansions), so
#: several short searches go round. Seventh session: a setting with a heavy imbalance weight and weight 1
#: last (12:1; 10:1 in ``RACE_PORTFOLIO``), which gathers deal 17's set-level trap, where every other setting
#: stalls 17-19 cards out. Last, so that every deal the first six settings win is won as before; the race's
#: two portfolios beginning with different halves of the eight settings, and shorter first slices, were
#: measured and not kept (``docs/solver-pattern.md``, seventh session).
BALANCE_PORTFOLIO: tuple[tuple[float, float, int, int], ...] = (
    (3.0, 2.0, 1, 400), (2.0, 3.0, 1, 400), (4.0, 2.0, 1, 400), (3.0, 2.0, 2, 400), (2.0, 2.0, 1, 400),
    (6.0, 2.0, 1, 400), (12.0, 1.0, 1, 400))

#: Rounds of ``BALANCE_PORTFOLIO`` at most (the budgets grow by ``GROWTH`` a round). Reached only where every attempt
#: runs dry at once, as on deals 295 and 404 before the look at every reachable position (``CLOSED_CAP``) ended them.
ROUNDS = 1000


#: A portfolio: balance searches (imbalance weight, weight, first random seed, first budget in expansions).
Portfolio = Sequence[tuple[float, float, int, int]]
#: The portfolio raced against ``BALANCE_PORTFOLIO`` on a second core (``amber.races_for``): its first six
#: settings from the fourth on, with seeds of their own, then the heavy setting 10:1 with seed 2 (which
#: gathers deal 17 in 61 expansions). Which deals a search wins, and how fast, varies so much with the setting
#: and the seed that the faster of the two is much faster than either (``docs/solver-pattern.md``, "The race").
RACE_PORTFOLIO: Portfolio = tuple(
    (imb, weight, seed + 100_000, first) for imb, weight, seed, first in BALANCE_PORTFOLIO[3:6] + BALANCE_PORTFOLIO[:3]
) + ((10.0, 1.0, 2, 400),)


def _attempts(portfolio: Portfolio | None = None) -> Iterator[tuple[float, float, int, int]]:
    """The portfolio's balance searches in order (by default ``BALANCE_PORTFOLIO``'s): (imbalance weight, weight,
    seed, budget in expansions)."""
    for rounds in range(ROUNDS):
        for imb, weight, seed, first in BALANCE_PORTFOLIO if portfolio is None else portfolio:
            yield imb, weight, seed + 10 * rounds, int(first * GROWTH ** rounds)


#: The end game: a balance search stalled with at most ``END_OUT`` cards out is followed by a new one from
#: its nearest position, of at most ``END_NODES`` expansions (same setting, seed + ``END_SEED``).
END_OUT = 14
END_NODES = 200
END_SEED = 1000


def end_game(planner: PatternPlanner, near: dict[str, object], budget: _Budget, imbalance_weight: float,
             weight: float, seed: int, merge_cost: float = 0.0, nodes: int = END_NODES, most_out: int = END_OUT,
             cap: int = BALANCE_DOCK_CAP) -> tuple[list[tuple[int, int]], bytes] | None:
    """A new balance search from where one stalled (``near``: its nearest position ``at`` and the
    ``path`` there), if at most ``most_out`` cards are out there: the whole path and the gathered
    position, or ``None``. A fresh search counts its exchanges from the stall, so it is greedy there
    where the stalled one kept going back to shallow positions far from the goal, and it has a new
    tie-break and no memory of the sets it had expanded twice. It expands at most ``nodes`` positions
    of ``budget``, with merges costed by ``merge_cost`` and docks of at most ``cap`` states
    (:func:`balance_search`); the close draws' finish (:data:`DRAW_FINISH`) calls it too."""
    at, path = near.get("at"), near.get("path")
    if not isinstance(at, bytes) or not isinstance(path, list) or not 0 < planner.out(at) <= most_out:
        return None
    if budget.left(1) <= 0:
        return None
    restart = PatternPlanner(planner.board, planner.game, seed=seed + END_SEED, share=planner)
    sub = _Budget(budget.deadline, budget.left(nodes))
    found = balance_search(restart, at, sub, imbalance_weight, weight, cap, merge_cost=merge_cost)
    budget.used += sub.used
    return None if found is None else (path + found[0], found[1])


#: The late attempt (tenth session, :func:`guided_dive`): once the portfolio has spent ``LATE_AFTER`` states (far
#: above what the deals it wins need: deals 1-60 at most about 10,000), each balance search that stalls with at most
#: ``DIVE_OUT`` cards out, its end game too, is followed by a dive guided by plans at the level of sets from its
#: nearest position: each plan of at most ``DIVE_PLAN_NODES`` expansions (``balance_search(..., sets_only=True)``,
#: counted as states; the settings of ``DIVE_SETTINGS`` in turn, new seeds), its exchanges docked in turn (docks of
#: ``DIVE_CAP`` states) until one fails; after ``DIVE_PLANS`` plans that dock no exchange, again from ``DIVE_BACK``
#: exchanges further back on the path, at most ``DIVE_STARTS`` starts.
LATE_AFTER = 15_000
DIVE_OUT = 10
DIVE_CAP = 3000
DIVE_PLANS = 2
DIVE_BACK = 2
DIVE_STARTS = 3
DIVE_PLAN_NODES = 2000
DIVE_SETTINGS: tuple[tuple[float, float], ...] = ((12.0, 1.0), (3.0, 2.0), (6.0, 2.0), (2.0, 3.0))


def exchanges_of(at: bytes, swaps: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cards that each of ``swaps`` (cell pairs, made in turn from ``at``) trades: (card of the first cell,
    card of the second) a swap."""
    cur = bytearray(at)
    cards: list[tuple[int, int]] = []
    for p, q in swaps:
        cards.append((cur[p], cur[q]))
        cur[p], cur[q] = cur[q], cur[p]
    return cards


def set_plan(planner: PatternPlanner, at: bytes, budget: _Budget, imbalance_weight: float, weight: float,
             seed: int) -> list[tuple[int, int]] | None:
    """A gathering of ``at`` at the level of sets (:func:`balance_search` with ``sets_only``, at most
    ``DIVE_PLAN_NODES`` expansions, counted in ``budget``): the cards (f, g) of each exchange in turn, or
    ``None``. Its positions are not reachable in play (no docks), only its exchanges mean something."""
    sub = _Budget(budget.deadline, budget.left(DIVE_PLAN_NODES))
    if sub.cap is not None and sub.cap <= 0:
        return None
    guide = PatternPlanner(planner.board, planner.game, seed=seed, share=planner)
    found = balance_search(guide, at, sub, imbalance_weight, weight, sets_only=True)
    budget.used += sub.used
    return None if found is None else exchanges_of(at, found[0])


def guided_dive(planner: PatternPlanner, near: dict[str, object], budget: _Budget, seed: int
                ) -> tuple[list[tuple[int, int]], bytes] | None:
    """The late attempt: from a stalled search's nearest position (``near``: ``at`` and the ``path`` there from
    ``board.start``; at most ``DIVE_OUT`` cards out there, else ``None`` at once), a
    plan at the level of sets (:func:`set_plan`) is followed in play, its exchanges docked in turn
    (:func:`dock_exchange`, ``DIVE_CAP`` states a side) until one fails or every card is home; then a new plan
    from where it got to (the next setting of ``DIVE_SETTINGS``, a new seed). After ``DIVE_PLANS`` plans whose
    first exchange does not dock, the dive starts again ``DIVE_BACK`` exchanges further back on the path to the
    nearest position, at most ``DIVE_STARTS`` starts (a stall is often a geometric dead end: no exchange the sets
    allow docks there). The whole path and the gathered position, or ``None`` (also when the budget runs out)."""
    at, path = near.get("at"), near.get("path")
    if not isinstance(at, bytes) or not isinstance(path, list) or not 0 < planner.out(at) <= DIVE_OUT:
        return None
    board = planner.board
    # where the path to the nearest position stands after each of its exchanges, the last first
    ends = [i + 1 for i, (p, q) in enumerate(path) if board.block[p] != board.block[q]][::-1]
    starts = [len(path), *ends[DIVE_BACK::DIVE_BACK]][:DIVE_STARTS]
    tries = 0
    for first in starts:
        trail = list(path[:first])
        cur = at if first == len(path) else _apply(board.start, trail)
        failed = 0
        while planner.out(cur):
            if failed >= DIVE_PLANS:
                break
            if budget.left(1) <= 0:
                return None
            imb, weight = DIVE_SETTINGS[tries % len(DIVE_SETTINGS)]
            plan = set_plan(planner, cur, budget, imb, weight, seed + tries)
            tries += 1
            moved = False
            for f, g in plan or ():
                done = dock_exchange(planner, cur, f, g, DIVE_CAP)
                if done is None:
                    break
                trail += done[0]
                cur = done[1]
                moved = True
            failed += not moved
        else:
            return trail, cur
    return None


#: One exchange of a gathering (:func:`gathering_steps`): the cards f and g it swaps, and the swaps (cell pairs)
#: that docked each side before it, inside f's block and inside g's block.
Step = tuple[int, int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def gathering_steps(board: _Board, start: bytes, path: Sequence[tuple[int, int]]) -> list[Step] | None:
    """A gathering ``path`` from ``start`` cut into its exchanges: each swap across blocks (cards f, g) with the
    swaps inside f's block and inside g's block made since the last one (in their order); ``None`` if a swap
    inside a block comes before no exchange or in a block the exchange does not touch (a gathering made by
    :func:`balance_search` has neither)."""
    cur = bytearray(start)
    block = board.block
    steps: list[Step] = []
    pending: list[tuple[int, int]] = []
    for p, q in path:
        if block[p] == block[q]:
            pending.append((p, q))
        else:
            f, g = cur[p], cur[q]
            if any(block[a] not in (block[p], block[q]) for a, _ in pending):
                return None
            steps.append((f, g, tuple(s for s in pending if block[s[0]] == block[p]),
                          tuple(s for s in pending if block[s[0]] == block[q])))
            pending = []
        cur[p], cur[q] = cur[q], cur[p]
    return None if pending else steps


def merges_of(board: _Board, at: bytes, swaps: Sequence[tuple[int, int]]) -> int:
    """How many of ``swaps`` (made in turn from ``at``) are merges: each swap changes the bound by one, up for a
    merge and down for a split, so that is (swaps + the bound's change) / 2."""
    return (len(swaps) + board.bound(_apply(at, swaps)) - board.bound(at)) // 2


#: The post-pass (:func:`regather`) on or off; the states of each of its merge-counting docks; the cap of the
#: ordinary dock it falls back on when one finds nothing; how many times it starts again with one more side of
#: an exchange docked as found, after a dock failed.
POST_PASS = True
POST_CAP = 300
POST_FALLBACK_CAP = 3000
POST_RETRIES = 12


def _remake(planner: PatternPlanner, start: bytes, steps: Sequence[Step], cap: int, forced: set[tuple[int, int]],
            stats: dict[str, int]) -> tuple[tuple[list[tuple[int, int]], bytes] | None, tuple[int, int] | None]:
    """One try of :func:`regather` (the sides in ``forced`` docked as found): (the swaps and the end position,
    None), or (None, the side whose choice made the block that failed to dock differ from the found gathering's:
    (exchange, 0 for f's side or 1 for g's))."""
    board, blocks, contents = planner.board, planner.blocks, planner.contents
    cur = ref = bytes(start)  # the position made, and the found gathering's at the same exchange
    out: list[tuple[int, int]] = []
    origin: dict[int, tuple[int, int]] = {}  # a block that differs -> the side whose dock made it differ
    for j, (f, g, found_f, found_g) in enumerate(steps):
        for side, stay, other, found in ((0, f, g, found_f), (1, g, f, found_g)):
            blk = board.block[cur.index(stay)]
            wanted = [w for w in board.nb[other] if w != stay]
            partner = cur.index(other) if side else None
            swaps: Sequence[tuple[int, int]] = found
            if contents[blk](cur) == contents[blk](ref):
                origin.pop(blk, None)
                closing = () if partner is None else ((_apply(cur, found).index(stay), partner),)
                least = merges_of(board, cur, (*found, *closing)) if (j, side) not in forced else 0
                if least:  # (a side forced, or of no merge, is kept as found: no dock does better)
                    made = planner.merge_dock(cur, blk, stay, wanted, cap, partner)
                    if made is not None and made[1] < least:
                        swaps = [(blocks[blk][p], blocks[blk][q]) for p, q in made[0]]
                        origin[blk] = (j, side)
                        stats["docked"] = stats.get("docked", 0) + 1
            else:
                made = planner.merge_dock(cur, blk, stay, wanted, cap, partner)
                local = made[0] if made is not None else None
                if local is None:
                    stats["fallbacks"] = stats.get("fallbacks", 0) + 1
                    local = planner.dock(blk, contents[blk](cur), stay, wanted, POST_FALLBACK_CAP)
                    if local is None:
                        return None, origin[blk]
                swaps = [(blocks[blk][p], blocks[blk][q]) for p, q in local]
                stats["docked"] = stats.get("docked", 0) + 1
            cur = _apply(cur, swaps)
            ref = _apply(ref, found)
            out += swaps
        swap = (cur.index(f), cur.index(g))
        cur = _apply(cur, (swap,))
        ref = _apply(ref, ((ref.index(f), ref.index(g)),))
        out.append(swap)
    return (out, cur), None


def regather(planner: PatternPlanner, start: bytes, path: Sequence[tuple[int, int]], cap: int = POST_CAP,
             stats: dict[str, int] | None = None) -> tuple[list[tuple[int, int]], bytes] | None:
    """The gathering ``path`` (from ``start``) made again with docks that count merges: the same exchanges in
    the same order (:func:`gathering_steps`), so every block holds the same cards as after the same exchange of
    ``path``; only where they stand differs. The swaps and the end position, or ``None``.

    Each side of an exchange is docked in the position made so far. While its block stands as in the found
    gathering, the found swaps are legal there: they are kept unless :meth:`PatternPlanner.merge_dock` (at most
    ``cap`` states; g's side with the exchange's own swap counted) finds a dock with fewer merges. A block
    that stands otherwise is docked by :meth:`PatternPlanner.merge_dock`, else by the ordinary
    :meth:`PatternPlanner.dock` (``POST_FALLBACK_CAP`` states). When both fail, the try starts again with the
    side whose choice made that block differ docked as found, at most ``POST_RETRIES`` times. ``stats`` (if
    given) counts ``docked`` (sides docked anew), ``fallbacks`` (of them, by the ordinary dock), ``retries``
    and ``failed``."""
    stats = {} if stats is None else stats
    steps = gathering_steps(planner.board, start, path)
    if steps is None:
        stats["failed"] = stats.get("failed", 0) + 1
        return None
    forced: set[tuple[int, int]] = set()
    for tries in range(POST_RETRIES + 1):
        made, origin = _remake(planner, start, steps, cap, forced, stats)
        if made is not None:
            stats["retries"] = stats.get("retries", 0) + tries
            return made
        if origin is not None:
            forced.add(origin)
    stats["retries"] = stats.get("retries", 0) + POST_RETRIES
    stats["failed"] = stats.get("failed", 0) + 1
    return None


def _sort_blocks(planner: PatternPlanner, path: list[tuple[int, int]], at: bytes, budget: _Budget
                 ) -> list[tuple[int, int]] | None:
    """A gathering ``path`` ending at ``at`` followed by the sort of each block with only its own cells moving
    (``solvers/amber.py``'s region search), or ``None`` if a sort fails."""
    board, game = planner.board, planner.game
    for cells in planner.blocks:
        if all(board.target[at[c]] == c for c in cells):
            continue
        found = _phase(board, at, settings_for(game, "region"), budget, cells=list(cells))
        if found is None:
            return None
        path = path + found[0]
        at = found[1]
    return path


#: A balance search that runs dry (nothing left to expand, or its docks given up) within ``DRY_EXPANSIONS``
#: expansions from the deal, with budget left, is followed (once a solve) by a look at every position reachable:
#: at most ``CLOSED_CAP`` of them, breadth first (:func:`amber.closed_reach`, about 0.02 ms a position). When that
#: ends without the goal, the deal can never be won and :func:`plan_pattern` raises :class:`amber.Unwinnable`.
#: Deals 295 and 404 run dry in 10 and 18 expansions; they reach 316 and 19,884 positions, none won
#: (``docs/solver-pattern.md``, "Eleventh session"). A deal that is won runs dry later if at all (deal 11: one
#: attempt in 363 expansions of 400).
DRY_EXPANSIONS = 100
CLOSED_CAP = 50_000


#: Draws for length (twentieth session): once a balance search has gathered and its gathering is sorted, and after the
#: close draws of :data:`DRAW_CLOSE`, ``DRAWS`` more, merges costed (``balance_search(...,
#: merge_cost=DRAW_MERGE_COST)``), with new seeds (its seed + ``DRAW_SEED`` x 1, 2, ...): the odd ones with its setting,
#: the even ones with the portfolio's settings in turn from the second (the 2nd draw the portfolio's 2nd setting, the
#: 4th its 3rd, ...); each of at most the first's expansions x ``DRAW_SCALE`` (at least ``DRAW_MIN``), at most
#: ``DRAW_NODES`` expansions in all. Each gathering drawn (and its :func:`regather`) is sorted when its length + end
#: bound is below the shortest line so far; the shortest is kept. The draws spend budgets of their own (their sorts
#: ``DRAW_SORT_NODES`` states in all): the solve's states (its difficulty) count what it took to win; and as they come
#: after the first win is sorted, a deadline reached while drawing costs no win. Measured (``docs/solver-pattern.md``,
#: "Twentieth session"), deals 1-40, one process, no race, whole solves with the shortening: median length 2.82 -> 2.58
#: x the bound (mean 2.89 -> 2.57), median CPU a deal 0.29 -> 0.59 s.
DRAWS = 5
DRAW_SEED = 7
DRAW_MERGE_COST = 2.0
DRAW_SCALE = 2.0
DRAW_MIN = 100
DRAW_NODES = 2500
#: The states of the sorts of the gatherings drawn, in all (a sort of a gathered block takes tens to hundreds).
DRAW_SORT_NODES = 5000
#: The close draws (twenty-sixth session), made before those above: (imbalance weight, weight, merge cost,
#: expansions) each. Their weight on the measure (1, the portfolio's 2 to 3) keeps the search closer to its path cost,
#: merges included, so it finds shorter gatherings where it gathers at all, for more CPU an expansion. One deep search
#: since the twenty-eighth session (six of 600 expansions before, of which a racer made two or three within the
#: clock): a longer search at weight 1 finds shorter gatherings than several short ones (deals 1-12, one search and
#: its finish, the median where it gathered: 2.22 x the bound at 1000 expansions, 2.04 at 2000, 2.0 at 30,000).
#: Measured (``docs/solver.md``, "Twenty-eighth session"), deals 1-100 through the benchmark (the race, the 0.7 s
#: clock): median length 2.31-2.33 -> 2.26-2.27 x the bound, the same median time.
DRAW_CLOSE: tuple[tuple[float, float, float, int], ...] = ((3.0, 1.0, 3.0, 4000),)
#: A close draw that does not gather within its expansions is finished (twenty-seventh session): a balance search of
#: this setting (imbalance weight, weight, merge cost, expansions) from its nearest position (:func:`end_game`, whatever
#: the cards out there), within the clock for length; None: not finished. The close draws find gatherings of few merges
#: but stall often; a heavier search from where they stall keeps most of their start. Measured (``docs/solver.md``,
#: "Twenty-seventh session"), deals 1-100 through the benchmark: with no clock 2.304 -> 2.188 x the bound at the
#: median; with the 0.7 s clock 2.40-2.51 -> 2.35-2.46 (runs differ by about 0.05).
DRAW_FINISH: tuple[float, float, float, int] | None = (3.0, 1.5, 2.0, 600)
#: The draws' docks (all of them: the close draws, their finishes and the draws of ``DRAWS``) search at most this many
#: states (the first win's: ``BALANCE_DOCK_CAP``, 300). Cheaper docks fit more draws within the clock; measured
#: (twenty-seventh session) deals 1-100 through the benchmark: 2.34-2.42 x the bound in eight runs against 2.35-2.46
#: in five.
DRAW_DOCK_CAP = 150
#: With a clock for length, a close draw stops this many seconds before it (twenty-eighth session), so that its
#: finish (``DRAW_FINISH``, from where it stopped) has them: a deep close draw seldom gathers within the clock, and
#: one stopped by the clock itself left nothing. 0.1 to 0.25 measured, the same within a run's noise.
DRAW_RESERVE = 0.15


def _draws(planner: PatternPlanner, budget: _Budget, setting: tuple[float, float], seed: int, first: int,
           draws: int, others: Sequence[tuple[float, float]]
           ) -> Iterator[tuple[PatternPlanner, tuple[list[tuple[int, int]], bytes]]]:
    """The gatherings of :func:`plan_pattern`'s draws for length, with the planner of each: balance searches with
    merges costed after a first one (``setting``: imbalance weight, weight; ``seed``) gathered in ``first``
    expansions, within ``budget``'s clock for length. First the close draws (:data:`DRAW_CLOSE`, then finished by
    :data:`DRAW_FINISH` if it did not gather), then ``draws`` more (``DRAWS``): the odd ones with ``setting``, the
    even ones with the settings ``others`` in turn. None when ``draws`` is 0.

    With a clock for length, a close draw searches until :data:`DRAW_RESERVE` before it (its expansions do not bound
    it), and the whole round goes on again with new seeds while the clock has time: a longer clock
    (``solve(length_seconds=...)``) gives deeper close draws and more of them. Without a clock, one round, each close
    draw within its expansions."""
    if draws <= 0:
        return
    board = planner.board
    # (imbalance weight, weight, merge cost, expansions: None for a share of DRAW_NODES, seed step)
    schedule: list[tuple[float, float, float, int | None, int]] = [
        (imb, weight, cost, cap, draws + 1 + j) for j, (imb, weight, cost, cap) in enumerate(DRAW_CLOSE)]
    for k in range(1, draws + 1):
        imb, weight = others[(k // 2) % len(others)] if k % 2 == 0 and others else setting
        schedule.append((imb, weight, DRAW_MERGE_COST, None, k))
    for turn in itertools.count() if budget.for_length() is not None else range(1):
        spent = 0
        for imb, weight, cost, fixed, k in schedule:
            cap = fixed if fixed is not None else min(max(DRAW_MIN, int(DRAW_SCALE * first)), DRAW_NODES - spent)
            if cap <= 0:
                break
            until = budget.for_length()
            if until is not None and time.perf_counter() >= until:
                return
            if fixed is not None and until is not None:
                if time.perf_counter() >= until - DRAW_RESERVE:
                    continue  # too late for a close draw, not for the draws after it
                sub = _Budget(until - DRAW_RESERVE, None)  # it stops early enough for its finish
            else:
                sub = _Budget(until, cap)
            step = k + turn * (len(schedule) + 1)
            planner = PatternPlanner(board, planner.game, seed=seed + DRAW_SEED * step, share=planner)
            near: dict[str, object] = {}
            found = balance_search(planner, board.start, sub, imb, weight, DRAW_DOCK_CAP, best=near,
                                   merge_cost=cost)
            if fixed is None:
                spent += sub.used
            elif found is None and DRAW_FINISH is not None:  # a close draw that did not gather, finished
                f_imb, f_weight, f_cost, f_cap = DRAW_FINISH
                found = end_game(planner, near, _Budget(budget.for_length(), f_cap), f_imb, f_weight,
                                 seed + DRAW_SEED * step, merge_cost=f_cost, nodes=f_cap, most_out=board.n,
                                 cap=DRAW_DOCK_CAP)
            if found is not None:
                yield planner, found


def plan_pattern(board: _Board, game: AmberGame, budget: _Budget, portfolio: Portfolio | None = None,
                 draws: int | None = None) -> list[tuple[int, int]] | None:
    """The swaps (cell pairs) that win Pattern of Amber from ``board.start``, or ``None``.

    Gather every card into its block (the balance searches of ``portfolio``, by default ``BALANCE_PORTFOLIO``,
    in turn, with growing node budgets and new random tie-breaks: :func:`_attempts`); make the gathering again
    with docks of fewer merges (:func:`regather`, unless ``POST_PASS`` is off); then sort each block of the one
    of fewer merges with only its own cells moving (the other too if that sort fails or comes out longer than the
    other's length and end bound: :func:`_sort_best`). Then more gatherings for length (:func:`_draws`: the close
    draws of :data:`DRAW_CLOSE`, then ``draws`` more, :data:`DRAWS`: the winning setting and the portfolio's others,
    merges costed; ``None``: ``DRAWS`` as it is when called; 0: no draw at all), each sorted the same way when it
    may come out shorter; the shortest is kept."""
    planner: PatternPlanner | None = None
    looked = False
    for imb, weight, seed, cap in _attempts(portfolio):
        if budget.left(1) <= 0:
            return None
        planner = PatternPlanner(board, game, seed=seed, share=planner)
        sub = _Budget(budget.deadline, budget.left(cap))
        near: dict[str, object] = {}
        gathered = balance_search(planner, board.start, sub, imb, weight, best=near)
        budget.used += sub.used
        if gathered is None and not looked and sub.used < DRY_EXPANSIONS and sub.left(1) > 0:
            # the search ran dry at once: few exchanges dock anywhere; perhaps few positions are reachable at all
            looked = True
            reached = closed_reach(board, CLOSED_CAP, budget.deadline)
            if reached is not None:
                raise Unwinnable(reached)
        if gathered is None:
            gathered = end_game(planner, near, budget, imb, weight, seed)
        if gathered is None and budget.used >= LATE_AFTER:
            gathered = guided_dive(planner, near, budget, seed)
        if gathered is None:
            continue
        best = _sort_best(planner, gathered, budget)
        if best is None:
            continue
        # the draws come after the first win is sorted: a deadline reached while drawing costs no win; their
        # searches and sorts spend budgets of their own, not the solve's states
        sorts = _Budget(budget.for_length(), DRAW_SORT_NODES)
        others = [(i, w) for i, w, _, _ in (BALANCE_PORTFOLIO if portfolio is None else portfolio)]
        for one, drawn in _draws(planner, budget, (imb, weight), seed, sub.used, DRAWS if draws is None else draws,
                                 others):
            best = _sort_best(one, drawn, sorts, best)
        return best
    return None


def _sort_best(planner: PatternPlanner, gathered: tuple[list[tuple[int, int]], bytes], budget: _Budget,
               best: list[tuple[int, int]] | None = None) -> list[tuple[int, int]] | None:
    """The shortest of ``best`` and the gathering ``gathered`` (found by ``planner``) with its blocks sorted, the
    gathering made again first with docks of fewer merges (:func:`regather`, unless ``POST_PASS`` is off): the one
    of the two of the least length + end bound is sorted first, the other too only if that bound is below the
    shortest so far (the sorts sit at the bound: a gathering's length plus its end's bound is (nearly) the length
    after them, and never more). ``None`` when none is known and no sort succeeds."""
    board = planner.board
    path, at = gathered
    options = [(len(path) + board.bound(at), 1, gathered)]
    again = regather(planner, board.start, path) if POST_PASS else None
    if again is not None:
        options.append((len(again[0]) + board.bound(again[1]), 0, again))
    for least, _, (p, end) in sorted(options):
        if best is not None and len(best) <= least:
            break
        done = _sort_blocks(planner, p, end, budget)
        if done is not None and (best is None or len(done) < len(best)):
            best = done
    return best
