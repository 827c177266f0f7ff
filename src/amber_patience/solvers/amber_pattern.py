"""Pattern of Amber's planner (used by :func:`amber_patience.solvers.amber.solve`).

``docs/solver-pattern.md`` has the reasoning and the measured figures. In short:

* **Kinds.** A card enters a block only beside a rank-neighbour there, so beside a card of its
  own kind (suit, or trumps): a block never regains a kind it has lost. At the level of kinds a
  position is a 5 x 5 count matrix (block x kind), and a swap across blocks A <-> B moving kinds
  k1 (A -> B) and k2 (B -> A) needs both blocks to hold both kinds. :func:`kind_plan` searches
  that tiny state for a sequence of exchanges that ends with every block holding only its goal
  kind; :func:`kind_problem` is the invariant prune built on it (a swap that strands a goal kind,
  or after which no kind plan exists, is refused).
* **Rank potential.** A card enters its home block only beside x - 1 or x + 1 there; every card
  outside its home block costs 1 + its rank distance to the nearest card of its kind at home - 1
  (:meth:`PatternPlanner.kind_potential`): bringing x - 1 home lowers the cost of x, a gradient
  along the chains that "cards out" is flat on.
* **Docked exchanges.** :meth:`PatternPlanner.pair_moves` sends a card f home to block B in
  exchange for a card g of B that may land in f's block A: a best-first search inside A brings a
  neighbour of g beside f, one inside B a neighbour of f beside g (:meth:`PatternPlanner.dock`,
  as deep as needed), then f and g swap. :meth:`PatternPlanner.pairing` is a best-first search
  over those exchanges on the potential, with the kind prune and a rank-level trap filter
  (:meth:`PatternPlanner.trapped`).
* **Gather.** The first attempt's exchanges (prepared by at most ``depth`` swaps per block,
  breadth-first, cached by the block's content, the two sides meeting on the displaced card)
  and transits, best-first (:meth:`PatternPlanner.gather`); :func:`gather_and_pair` alternates it
  with the pairing search.
* **Relays.** An exchange that sends no card home but gives a lone card of a foreign kind (immobile
  where it is) a partner beside it (:meth:`PatternPlanner.relay_candidates`): the kind plan often
  needs a card to pass through a third block. :func:`relay_end` runs the pairing search with relays
  (and without exchanges that take a card out of its home, and with the exits' rank distance,
  :meth:`PatternPlanner.exit_distance`, added to the measure) from where an attempt stalled.
* **Balance search** (:func:`balance_search`, the portfolio's first attempts). At the level of sets
  (which block holds which card, :func:`card_blocks`) an exchange of f (block A) and g (block B) is
  allowed when B holds a rank-neighbour of f and A one of g (:func:`set_exchanges`). A card travels
  only by an exchange with one going the other way, so the cards two blocks owe each other in equal
  numbers go home in pairs and every card of the excess has to go round a third block: the
  transport :func:`imbalance` measures that excess, and with it in the measure (rank potential +
  imbalance weight x imbalance) far fewer searches walk into the rank-level traps. Best-first
  over real positions whose children are every exchange the sets allow, weighed at the level of
  sets and docked (:func:`dock_exchange`) only when they come off the heap.
* **Portfolio, then sort.** :func:`plan_pattern` tries the attempts of :func:`_attempts` in turn
  (six balance searches of ``BALANCE_PORTFOLIO``, growing budgets, new tie-breaks; the older
  attempts of ``PORTFOLIO`` only after ``BALANCE_ROUNDS`` rounds), until every card is in its block;
  then each block is sorted with only its own cells moving (``solvers/amber.py``'s region search).
  The attempts share their caches (docks, moves, kind plans).

It wins most fresh deals (node-limited benchmark, 10000 nodes: 15 of the 18 non-stranded deals 1-20,
all 17 of 21-40); the others stall in traps described in ``docs/solver-pattern.md``.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator, Sequence

from ..games.amber import AmberGame
from .amber import _Board, _Budget, _phase, settings_for

#: The centre's index in ``AmberGame.blocks`` (top-left, top-right, centre, bottom-left, bottom-right).
CENTRE = 2
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


def exits_ok(m: Matrix, home: Sequence[int]) -> bool:
    """A quick necessary condition: every block holds its goal kind, and every foreign kind of a
    block can still leave it (some other block holds that kind and a second kind the first holds)."""
    held = [{k for k in range(KINDS) if m[a * KINDS + k]} for a in range(BLOCKS)]
    for a in range(BLOCKS):
        if home[a] not in held[a]:
            return False
        for k in held[a] - {home[a]}:
            if not any(b != a and k in held[b] and (held[a] & held[b]) - {k} for b in range(BLOCKS)):
                return False
    return True


def _exchanges(m: Matrix, home: Sequence[int]) -> Iterator[tuple[int, Exchange, Matrix]]:
    """Every kind-level exchange that keeps :func:`exits_ok`, with its gain (cards sent home)."""
    for a in range(BLOCKS):
        for b in range(a + 1, BLOCKS):
            for k1 in range(KINDS):
                for k2 in range(KINDS):
                    e = (a, k1, b, k2)
                    n = exchange(m, e)
                    if n is None:
                        continue
                    if (not n[a * KINDS + k1] or not n[b * KINDS + k2]) and not exits_ok(n, home):
                        continue
                    gain = (k1 == home[b]) + (k2 == home[a]) - (k1 == home[a]) - (k2 == home[b])
                    yield gain, e, n


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


def kind_problem(m: Matrix, home: Sequence[int], a: int, k1: int, b: int, k2: int,
                 memo: dict[Matrix, bool | None] | None = None) -> str | None:
    """The invariant prune: why a swap across blocks ``a`` and ``b`` moving kinds ``k1`` (a -> b)
    and ``k2`` (b -> a) must be refused, or ``None``.

    Refused: a swap that takes the last card of its goal kind out of a block (the rules engine
    calls such a position lost), and a swap that takes the last card of a kind out of a block
    when no kind plan exists afterwards. A swap that leaves every block every kind it held is
    never refused."""
    if a == b or k1 == k2:
        return None
    if m[a * KINDS + k1] == 1 and k1 == home[a]:
        return f"block {a} would lose its last card of its goal kind {k1}"
    if m[b * KINDS + k2] == 1 and k2 == home[b]:
        return f"block {b} would lose its last card of its goal kind {k2}"
    if m[a * KINDS + k1] > 1 and m[b * KINDS + k2] > 1:
        return None
    after = exchange(m, (a, k1, b, k2))
    if after is None:
        return None  # not a legal swap at the kind level: not this prune's business
    known = kind_solvable(after, home, {} if memo is None else memo, KIND_CAP)
    if known is False:
        return "afterwards no order of exchanges brings every kind home (a kind could never leave a block)"
    return None


# -- the exchange realiser and the gather ---------------------------------------------------------



#: A node of the planner's best-first searches: (position, parent index, swaps from the parent, g).
_Node = tuple[bytes, int, tuple[tuple[int, int], ...], int]


def _trace(store: list[_Node], i: int) -> list[tuple[int, int]]:
    """The swaps from the root of a best-first search's ``store`` to its node ``i``."""
    path: list[tuple[int, int]] = []
    while store[i][1] >= 0:
        path[:0] = store[i][2]
        i = store[i][1]
    return path

class PatternPlanner:
    """Gathering for Pattern of Amber: every card into its block, by exchanges between blocks."""

    def __init__(self, board: _Board, game: AmberGame, depth: int = 3, seed: int = 1, inner: bool = False,
                 hub: bool = True, measure: str = "out", lam: float = 1.0, share: PatternPlanner | None = None) -> None:
        self.board = board
        self.game = game
        n = board.n
        self.n = n
        self.blocks = [[c.id for c in game.cells if c.block == name] for name in game.blocks]
        local = [0] * n
        for cells in self.blocks:
            for i, c in enumerate(cells):
                local[c] = i
        #: per block: the local adjacency, and which local cells hold a start card
        self.adj = [[tuple(local[d] for d in board.adj[c]) for c in cells] for cells in self.blocks]
        self.frozen = [[c in board.frozen for c in cells] for cells in self.blocks]
        self.mask = [[sum(1 << d for d in a) for a in adj] for adj in self.adj]
        self._moves: dict[tuple[int, tuple[int, ...]], set[tuple[int, int]]] = {}
        self.home_block = [board.block[board.target[x]] for x in range(n)]
        self.kind = board.group
        self.home = home_kinds(board)
        self.nbs = [frozenset(pair) for pair in board.nb]
        #: ``cost[card][block]``: 0 where the card may stay while gathering, else 1. The centre
        #: takes any minor card for free (a hub: minors pass through it), trumps only count there.
        self.hub = hub
        self.cost = [[0 if self.home_block[x] == blk or (hub and blk == CENTRE and self.kind[x] != TRUMPS) else 1
                      for blk in range(BLOCKS)] for x in range(n)]
        if measure not in ("out", "potential"):
            raise ValueError(f"measure must be 'out' or 'potential', not {measure!r}")
        self.measure_name = measure
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
        #: dock results: key -> (swaps or ``None``, the cap of the search that found them)
        self._docks: dict[tuple[int, tuple[int, ...], int, tuple[int, ...]],
                          tuple[tuple[tuple[int, int], ...] | None, int]] = {}
        self.depth = depth
        #: Single swaps inside a block as moves of the gather too (measured: no better).
        self.inner = inner
        self.rng = random.Random(seed)
        self._reach: dict[tuple[int, tuple[int, ...], int], dict[tuple[int, ...], tuple[tuple[int, int], ...]]] = {}
        self._kinds: dict[Matrix, bool | None] = {}
        if share is not None:
            # the caches depend only on the board (and ``lam``): a later attempt of the portfolio
            # meets the same blocks, docks and kind matrices again (measured: most of its work)
            if share.board is not board or share.lam != lam:
                raise ValueError("a planner shares caches only with a planner of the same board and lam")
            self._moves, self._docks, self._kinds = share._moves, share._docks, share._kinds
            self._pot, self._reach = share._pot, share._reach

    # -- inside one block

    def block_moves(self, blk: int, cont: Sequence[int]) -> set[tuple[int, int]]:
        """The legal swaps inside block ``blk`` whose cells hold ``cont`` (local cell pairs)."""
        key = (blk, tuple(cont))
        found = self._moves.get(key)
        if found is not None:
            return found
        if len(self._moves) > 200_000:
            self._moves.clear()
        adj, mask, frozen, nb = self.adj[blk], self.mask[blk], self.frozen[blk], self.board.nb
        pos = {x: i for i, x in enumerate(cont)}
        get = pos.get
        out: set[tuple[int, int]] = set()
        add = out.add
        for i, x in enumerate(cont):
            if frozen[i]:
                continue
            mi = mask[i]
            for m in nb[x]:
                j = get(m)
                if j is None:
                    continue
                # x goes beside its neighbour m (cells touching j), or trades places with m
                for k in adj[j] + ((j,) if mi >> j & 1 else ()):
                    if k == i or frozen[k]:
                        continue
                    # y = cont[k] lands in cell i: beside one of its neighbours (x itself now at k)
                    for n in nb[cont[k]]:
                        r = get(n)
                        if r is None:
                            continue
                        if r == i:
                            r = k
                        if mi >> r & 1:
                            add((i, k) if i < k else (k, i))
                            break
        self._moves[key] = out
        return out

    def reach(self, blk: int, cont: tuple[int, ...], depth: int) -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
        """Every content of block ``blk`` within ``depth`` swaps inside it, with the fewest swaps."""
        key = (blk, cont, depth)
        found = self._reach.get(key)
        if found is not None:
            return found
        if len(self._reach) > 20000:
            self._reach.clear()
        found = {cont: ()}
        frontier = [cont]
        for _ in range(depth):
            nxt = []
            for c in frontier:
                for i, k in self.block_moves(blk, c):
                    t = list(c)
                    t[i], t[k] = t[k], t[i]
                    new = tuple(t)
                    if new not in found:
                        found[new] = found[c] + ((i, k),)
                        nxt.append(new)
            frontier = nxt
        self._reach[key] = found
        return found

    def dock(self, blk: int, cont: tuple[int, ...], stay: int, wanted: Sequence[int], cap: int = 2000
             ) -> tuple[tuple[int, int], ...] | None:
        """Swaps inside block ``blk`` (local cell pairs, fewest found by a best-first search of at
        most ``cap`` states) after which card ``stay`` touches one of the ``wanted`` cards, so that
        a card from ``wanted``'s rank-neighbours can take ``stay``'s cell; ``None`` if not found.

        This is one side of an exchange prepared as deep as it needs (the exchanges of
        :meth:`exchanges` are prepared by at most ``depth`` swaps)."""
        wanted = tuple(w for w in wanted if w in cont)
        if stay not in cont or not wanted:
            return None
        key = (blk, cont, stay, wanted)
        known = self._docks.get(key)
        if known is not None and (known[0] is not None or known[1] >= cap):
            return known[0]
        dist = self.dist[blk]

        def h(c: tuple[int, ...]) -> int:
            row = dist[c.index(stay)]
            best = 99
            for w in wanted:
                d = row[c.index(w)]
                if d < best:
                    best = d
            return best - 1

        if h(cont) > 0 and not self._may_dock(blk, cont, stay, wanted):
            self._docks[key] = (None, 1 << 30)
            return None
        found: tuple[tuple[int, int], ...] | None = None
        parents: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, int]] | None] = {cont: None}
        # heap entries carry their h (a swap moves at most two of the cards h looks at, so the
        # children's h is recomputed only when it does)
        heap = [(h(cont), 0, 0, cont, h(cont))]
        tie = 0
        expanded = 0
        moves = self.block_moves
        push, pop = heapq.heappush, heapq.heappop
        looked = (stay, *wanted)
        while heap:
            _f, g, _t, cur, hc = pop(heap)
            if hc == 0:
                steps: list[tuple[int, int]] = []
                link = parents[cur]
                while link is not None:
                    steps.append(link[1])
                    link = parents[link[0]]
                found = tuple(steps[::-1])
                break
            expanded += 1
            if expanded > cap:
                break
            g1 = g + 1
            for i, k in moves(blk, cur):
                t = list(cur)
                x, y = t[k], t[i]
                t[i], t[k] = x, y
                new = tuple(t)
                if new in parents:
                    continue
                parents[new] = (cur, (i, k))
                tie += 1
                hn = h(new) if x in looked or y in looked else hc
                push(heap, (g1 + 2 * hn, g1, tie, new, hn))
        if len(self._docks) > 300_000:
            self._docks.clear()
        self._docks[key] = (found, cap)
        return found

    def _may_dock(self, blk: int, cont: tuple[int, ...], stay: int, wanted: Sequence[int]) -> bool:
        """Quick necessary test for :meth:`dock`. A card with no rank-neighbour in the block takes
        part in no swap inside it (it would land beside no neighbour), and swaps inside a block never
        change which cards it holds: so if ``stay`` is such a card, some card beside it must be able
        to move, and some wanted card too."""
        present = set(cont)
        nb = self.board.nb

        def mobile(x: int) -> bool:
            return nb[x][0] in present or nb[x][1] in present

        if mobile(stay):
            return True
        a = cont.index(stay)
        return (any(mobile(cont[c]) and not self.frozen[blk][c] for c in self.adj[blk][a])
                and any(mobile(w) for w in wanted))

    def pair_moves(self, at: bytes, cap: int = 300, limit: int = 8, home_too: bool = False, tries: int = 60,
                   relays: int = 0, fallback: bool = False) -> Iterator[tuple[tuple[tuple[int, int], ...], bytes]]:
        """Exchanges of a card ``f`` outside its home block (in A) with a card ``g`` of block B =
        ``f``'s home (foreign there too, or with ``home_too`` any card of B) that may enter A (A holds
        its kind), both sides prepared by :meth:`dock` (at most ``cap`` states each). Candidates are
        tried most gain first (``g`` going home too), then fewest swaps by the distance bound; at
        most ``tries`` of them are docked (4 x ``tries`` while none has docked), and at most ``limit``
        exchanges are given. Then, with ``relays`` > 0 (or, with ``fallback``, ``tries`` when none of
        those docked), at most that many :meth:`relay_candidates` are docked (exchanges that send no
        card home but give a lone card of a foreign kind a partner), and at most ``limit`` // 2 of
        them are given."""
        blocks, board, dist = self.blocks, self.board, self.dist
        conts = [tuple(at[c] for c in cells) for cells in blocks]
        m = kind_matrix(board, at)
        candidates: list[tuple[int, int, int, int, int, int]] = []
        for a_blk in range(BLOCKS):
            ca = conts[a_blk]
            where_a = {x: i for i, x in enumerate(ca)}
            for f in ca:
                b_blk = self.home_block[f]
                if b_blk == a_blk:
                    continue
                cb = conts[b_blk]
                where_b = {x: i for i, x in enumerate(cb)}
                need_b = [where_b[w] for w in board.nb[f] if w in where_b]
                if not need_b:
                    continue
                fa = where_a[f]
                for gi, g in enumerate(cb):
                    if self.frozen[b_blk][gi]:
                        continue
                    if self.home_block[g] == b_blk and not home_too:
                        continue
                    if not m[a_blk * KINDS + self.kind[g]]:
                        continue
                    need_a = [where_a[w] for w in board.nb[g] if w in where_a]
                    if not need_a:
                        continue
                    bound = (min(dist[a_blk][fa][i] for i in need_a) + min(dist[b_blk][gi][i] for i in need_b) - 2)
                    gain = (self.home_block[g] == a_blk) - (self.home_block[g] == b_blk)
                    candidates.append((-gain, bound, a_blk, f, b_blk, g))
        candidates.sort()
        given = 0
        for move in self._docked(at, conts, m, candidates, cap, limit, tries):
            given += 1
            yield move
        if relays or (fallback and not given):
            # relays: when asked, and with ``fallback`` (as many as ``tries``) when no exchange sends a card home
            yield from self._docked(at, conts, m, self.relay_candidates(conts, m), cap, max(1, limit // 2),
                                    relays or tries)

    def _docked(self, at: bytes, conts: list[tuple[int, ...]], m: Matrix,
                candidates: list[tuple[int, int, int, int, int, int]], cap: int, limit: int, tries: int
                ) -> Iterator[tuple[tuple[tuple[int, int], ...], bytes]]:
        """The exchanges of ``candidates`` (``(order, bound, block A, f, block B, g)``, in that order)
        that the kind prune allows and both docks reach: f goes A -> B, g goes B -> A."""
        blocks, board = self.blocks, self.board
        given = 0
        for n_tried, (_gain, _bound, a_blk, f, b_blk, g) in enumerate(candidates):
            if n_tried >= (tries if given else 4 * tries):
                break
            if self.refused(m, a_blk, f, b_blk, g):
                continue
            # past the first ``tries`` (none docked), a shorter search per dock: most docks that
            # succeed do within ``cap`` // 3 states, and a dock that fails costs all of them
            states = cap if n_tried < tries else cap // EXTRA_CAP
            prep_a = self.dock(a_blk, conts[a_blk], f, board.nb[g], states)
            if prep_a is None:
                continue
            prep_b = self.dock(b_blk, conts[b_blk], g, board.nb[f], states)
            if prep_b is None:
                continue
            ca, cb = list(conts[a_blk]), list(conts[b_blk])
            for p, q in prep_a:
                ca[p], ca[q] = ca[q], ca[p]
            for p, q in prep_b:
                cb[p], cb[q] = cb[q], cb[p]
            swaps = (tuple((blocks[a_blk][p], blocks[a_blk][q]) for p, q in prep_a)
                     + tuple((blocks[b_blk][p], blocks[b_blk][q]) for p, q in prep_b)
                     + ((blocks[a_blk][ca.index(f)], blocks[b_blk][cb.index(g)]),))
            yield swaps, _apply(at, swaps)
            given += 1
            if given >= limit:
                break

    def relay_candidates(self, conts: list[tuple[int, ...]], m: Matrix) -> list[tuple[int, int, int, int, int, int]]:
        """Exchanges that send neither card home but unlock a lone card: ``f`` (any movable card of
        block A) goes to a block B where a rank-neighbour of it is the only card of its kind there
        and foreign there (alone of its kind, that card cannot move inside B; with ``f`` beside it,
        both can), and ``g`` (a movable card of B, not of f's kind) to A beside a neighbour of its
        own. The exchanges of :meth:`pair_moves`' first kind (``f`` going home) are left out. Ordered
        by the cards they unlock (both sides), then by the distance bound of the two docks."""
        board, dist, kind, home_block = self.board, self.dist, self.kind, self.home_block
        where = [{x: i for i, x in enumerate(c)} for c in conts]
        lone = [{x for x in c if home_block[x] != blk and m[blk * KINDS + kind[x]] == 1} for blk, c in enumerate(conts)]
        out: list[tuple[int, int, int, int, int, int]] = []
        for b_blk in range(BLOCKS):
            if not lone[b_blk]:
                continue
            cb = conts[b_blk]
            for w in lone[b_blk]:
                for f in board.nb[w]:
                    a_blk = next(blk for blk in range(BLOCKS) if f in where[blk])
                    fa = where[a_blk][f]
                    if a_blk == b_blk or self.frozen[a_blk][fa] or home_block[f] == b_blk:
                        continue
                    need_b = [where[b_blk][v] for v in board.nb[f] if v in where[b_blk]]
                    for gi, g in enumerate(cb):
                        if self.frozen[b_blk][gi] or g == w or kind[g] == kind[f]:
                            continue
                        need_a = [where[a_blk][v] for v in board.nb[g] if v in where[a_blk]]
                        if not need_a:
                            continue
                        unlocks = 1 + any(v in lone[a_blk] for v in board.nb[g])
                        home = (home_block[g] == a_blk)
                        bound = min(dist[a_blk][fa][i] for i in need_a) + min(dist[b_blk][gi][i] for i in need_b) - 2
                        out.append((-unlocks - home, bound, a_blk, f, b_blk, g))
        out.sort()
        return out

    def pairing(self, at: bytes, budget: _Budget, cap: int = 300, best: dict[str, object] | None = None,
                weight: float = 2.0, home_too: bool = True, traps: bool = True, tries: int = 60,
                relays: int = 0, exits: float = 0.0) -> tuple[list[tuple[int, int]], bytes] | None:
        """The end game: a best-first search over exchanges (:meth:`pair_moves`) on
        ``swaps + weight x potential`` until every card is in its home block; ``None`` when the
        budget runs out or nothing is left to try (``best`` then gets the nearest position seen
        by cards out: ``at`` and ``path``). ``exits`` x :meth:`exit_distance` is added to the
        potential. With ``relays``, positions with at most ``RELAY_OUT``
        cards out also get that many relay exchanges docked (:meth:`relay_candidates`), and so does a
        position where no exchange sending a card home docks (``tries`` of them)."""
        start = bytes(at)
        store: list[_Node] = [(start, -1, (), 0)]
        heap: list[tuple[float, float, int]] = [(0.0, 0.0, 0)]
        seen: set[bytes] = set()
        nearest = (self.out(start), 0)

        found: tuple[list[tuple[int, int]], bytes] | None = None
        while heap:
            _, _, idx = heapq.heappop(heap)
            cur, _, _, g = store[idx]
            if cur in seen:
                continue
            seen.add(cur)
            left = self.out(cur)
            if left < nearest[0]:
                nearest = (left, idx)
            if left == 0:
                found = _trace(store, idx), cur
                break
            if budget.left(1) <= 0:
                break
            budget.used += 1
            stuck = self.trapped(cur) if traps else 0
            near = relays if left <= RELAY_OUT else 0
            for swaps, end in self.pair_moves(cur, cap, home_too=home_too, tries=tries, relays=near,
                                              fallback=relays > 0):
                if end in seen or (traps and self.trapped(end) > stuck):
                    continue
                store.append((end, idx, swaps, g + len(swaps)))
                h = self._potential(end) + (exits * self.exit_distance(end) if exits else 0.0)
                heapq.heappush(heap, (g + len(swaps) + weight * h, self.rng.random(), len(store) - 1))
        if best is not None:
            best.update(at=store[nearest[1]][0], path=_trace(store, nearest[1]))
        return found

    def exit_distance(self, at: Sequence[int]) -> int:
        """How far the foreign cards are from an exit, in ranks: a card x of kind k in block A (not its
        home) leaves A, for good, only for a block X holding k and another kind A holds (the card X
        gives back lands in A beside a card of its kind), and only beside x - 1 or x + 1 there.
        Summed over such cards: the rank distance from x to the nearest card of k in such an X, less
        1 (0 when x - 1 or x + 1 is there; the kind size when no X exists)."""
        block, kind, rank = self.board.block, self.kind, self.rank
        ranks = [[0] * KINDS for _ in range(BLOCKS)]
        for c, x in enumerate(at):
            ranks[block[c]][kind[x]] |= 1 << rank[x]
        held = [{k for k in range(KINDS) if ranks[b][k]} for b in range(BLOCKS)]
        total = 0
        for c, x in enumerate(at):
            a, k = block[c], kind[x]
            if a == self.home_block[x]:
                continue
            size, r = self.size[k], rank[x]
            best = size
            for b in range(BLOCKS):
                if b == a or not ranks[b][k] or not (held[a] & held[b]) - {k}:
                    continue
                mask = ranks[b][k]
                for q in range(size):
                    if mask >> q & 1:
                        d = min((r - q) % size, (q - r) % size) - 1
                        if d < best:
                            best = d
            total += best
        return total

    def trapped(self, at: Sequence[int]) -> int:
        """Lone foreign cards that look stuck at the rank level: a card ``f`` alone of its kind in a
        block A (so it cannot move inside A) leaves A only for a block C holding ``f - 1`` or
        ``f + 1``, and only if the card it displaces can land in A beside a neighbour, so C must
        hold a kind that A holds besides ``f``'s. Counted when no such C holds either neighbour now
        (a heuristic: the neighbours may move later; it is not a proof)."""
        block, kind, nb = self.board.block, self.kind, self.board.nb
        where = [0] * self.n
        count = [[0] * KINDS for _ in range(BLOCKS)]
        for c, x in enumerate(at):
            b = block[c]
            where[x] = b
            count[b][kind[x]] += 1
        held = [{k for k in range(KINDS) if count[b][k]} for b in range(BLOCKS)]
        stuck = 0
        for x in range(self.n):
            a, k = where[x], kind[x]
            if a == self.home_block[x] or count[a][k] != 1:
                continue
            if not any(where[w] != a and (held[where[w]] & held[a]) - {k} for w in nb[x]):
                stuck += 1
        return stuck

    def _masks(self, at: Sequence[int]) -> list[int]:
        """Per kind, the ranks of it that stand in its home block (bitmask)."""
        block, home_block, kind, rank = self.board.block, self.home_block, self.kind, self.rank
        present = [0] * KINDS
        for c, x in enumerate(at):
            if block[c] == home_block[x]:
                present[kind[x]] |= 1 << rank[x]
        return present

    def _potential_after(self, masks: list[int], end: Sequence[int], last: tuple[int, int]) -> float:
        """The rank potential of ``end``, reached from a position with ``masks`` by swaps inside
        blocks (which change no mask) and a last swap ``last`` (the only one that may cross)."""
        block, home_block, kind, rank = self.board.block, self.home_block, self.kind, self.rank
        p, q = last
        present = list(masks)
        if block[p] != block[q]:
            for cell, other in ((p, q), (q, p)):
                x = end[cell]  # came from ``other``
                bit = 1 << rank[x]
                if block[other] == home_block[x]:
                    present[kind[x]] &= ~bit
                if block[cell] == home_block[x]:
                    present[kind[x]] |= bit
        return sum(self.kind_potential(k, present[k]) for k in range(KINDS))

    def _potential(self, at: Sequence[int]) -> float:
        """:meth:`measure`'s rank potential, whatever this planner's measure."""
        block, home_block, kind, rank = self.board.block, self.home_block, self.kind, self.rank
        present = [0] * KINDS
        for c, x in enumerate(at):
            if block[c] == home_block[x]:
                present[kind[x]] |= 1 << rank[x]
        return sum(self.kind_potential(k, present[k]) for k in range(KINDS))

    # -- across blocks

    def out(self, at: Sequence[int]) -> int:
        """Cards that still have to move to another block (``cost`` summed)."""
        block, cost = self.board.block, self.cost
        return sum(cost[x][block[c]] for c, x in enumerate(at))

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

    def measure(self, at: Sequence[int]) -> float:
        """The gather's measure of a position: ``out`` (cards to move), or the rank ``potential``
        (:meth:`kind_potential` summed over the kinds; with ``hub``, minor cards in the centre
        count as home for the count, but the potential sees only their home blocks)."""
        if self.measure_name == "out":
            return self.out(at)
        block, home_block, kind, rank = self.board.block, self.home_block, self.kind, self.rank
        present = [0] * KINDS
        hubbed = 0
        for c, x in enumerate(at):
            if block[c] == home_block[x]:
                present[kind[x]] |= 1 << rank[x]
            elif self.hub and block[c] == CENTRE and kind[x] != TRUMPS:
                hubbed += 1
        return sum(self.kind_potential(k, present[k]) for k in range(KINDS)) - 0.5 * hubbed

    def refused(self, m: Matrix, a: int, x: int, b: int, y: int) -> bool:
        """The invariant prune for card ``x`` going a -> b and ``y`` going b -> a."""
        return kind_problem(m, self.home, a, self.kind[x], b, self.kind[y], self._kinds) is not None

    def exchanges(self, at: bytes) -> dict[bytes, tuple[int, tuple[tuple[int, int], ...]]]:
        """Macro moves from ``at``: end position -> (cards moved to where they cost less, swaps).

        For every card ``z`` in a block S where it costs 1 and every block T where it costs 0:
        prepare S (``z``'s cell must touch a neighbour of the card it displaces) and T (a cell
        beside a neighbour of ``z`` must hold that card) with at most ``depth`` swaps inside each,
        then swap across. Single swaps inside a block are moves too (gain 0)."""
        blocks, nb, cost = self.blocks, self.board.nb, self.cost
        conts = [tuple(at[c] for c in cells) for cells in blocks]
        m = kind_matrix(self.board, at)
        reach = [self.reach(blk, conts[blk], self.depth) for blk in range(BLOCKS)]
        result: dict[bytes, tuple[int, tuple[tuple[int, int], ...]]] = {}
        entries: dict[tuple[int, int], dict[int, tuple[tuple[tuple[int, int], ...], int]]] = {}

        def entry(t: int, z: int) -> dict[int, tuple[tuple[tuple[int, int], ...], int]]:
            """Block t's contents that take ``z``: displaced card -> (swaps inside t, cell)."""
            found = entries.get((t, z))
            if found is None:
                found = {}
                adj, frozen = self.adj[t], self.frozen[t]
                for c, moves in reach[t].items():
                    for nbr in nb[z]:
                        if nbr not in c:
                            continue
                        for cell in adj[c.index(nbr)]:
                            if frozen[cell]:
                                continue
                            old = found.get(c[cell])
                            if old is None or len(old[0]) > len(moves):
                                found[c[cell]] = (moves, cell)
                entries[(t, z)] = found
            return found

        for s in range(BLOCKS):
            adj_s = self.adj[s]
            for i0, z in enumerate(conts[s]):
                if self.frozen[s][i0] or not cost[z][s]:
                    continue
                targets = [(t, entry(t, z)) for t in range(BLOCKS) if t != s and not cost[z][t]]
                targets = [(t, e) for t, e in targets if e]
                if not targets:
                    continue
                for c, moves_s in reach[s].items():
                    a = c.index(z)
                    fit: set[int] = set()
                    for cell in adj_s[a]:
                        fit.update(nb[c[cell]])
                    for t, e in targets:
                        for y in fit:
                            hit = e.get(y)
                            if hit is None:
                                continue
                            moves_t, b = hit
                            gain = cost[z][s] + cost[y][t] - cost[z][t] - cost[y][s]
                            if gain <= 0 or self.refused(m, s, z, t, y):
                                continue
                            swaps = (tuple((blocks[s][p], blocks[s][q]) for p, q in moves_s)
                                     + tuple((blocks[t][p], blocks[t][q]) for p, q in moves_t)
                                     + ((blocks[s][a], blocks[t][b]),))
                            end = _apply(at, swaps)
                            old = result.get(end)
                            if old is None or len(old[1]) > len(swaps):
                                result[end] = (gain, swaps)
        for swaps, gain in self._transits(at, conts, m):
            end = _apply(at, swaps)
            old = result.get(end)
            if old is None or len(old[1]) > len(swaps):
                result[end] = (gain, swaps)
        if self.inner:
            for blk in range(BLOCKS):
                cells = blocks[blk]
                for p, q in self.block_moves(blk, conts[blk]):
                    swaps = ((cells[p], cells[q]),)
                    result.setdefault(_apply(at, swaps), (0, swaps))
        return result

    def _transits(self, at: bytes, conts: list[tuple[int, ...]], m: Matrix
                  ) -> Iterator[tuple[tuple[tuple[int, int], ...], int]]:
        """Every swap across blocks that costs nothing (a card passing through a block, or two
        cards trading places), after at most one swap inside one of the two blocks."""
        blocks, nb, nbs, cost = self.blocks, self.board.nb, self.nbs, self.cost
        reach = [self.reach(blk, conts[blk], 1) for blk in range(BLOCKS)]
        for a in range(BLOCKS):
            for b in range(a + 1, BLOCKS):
                adj_a, adj_b = self.adj[a], self.adj[b]
                for ca, moves_a in reach[a].items():
                    for cb, moves_b in reach[b].items():
                        if moves_a and moves_b:
                            continue
                        pos_b = {x: i for i, x in enumerate(cb)}
                        for i, x in enumerate(ca):
                            if self.frozen[a][i]:
                                continue
                            for nbr in nb[x]:
                                j = pos_b.get(nbr)
                                if j is None:
                                    continue
                                for k in adj_b[j]:
                                    if self.frozen[b][k]:
                                        continue
                                    y = cb[k]
                                    if not any(ca[t] in nbs[y] for t in adj_a[i]):
                                        continue
                                    gain = cost[x][a] + cost[y][b] - cost[x][b] - cost[y][a]
                                    if gain != 0 or self.refused(m, a, x, b, y):
                                        continue
                                    yield (tuple((blocks[a][p], blocks[a][q]) for p, q in moves_a)
                                           + tuple((blocks[b][p], blocks[b][q]) for p, q in moves_b)
                                           + ((blocks[a][i], blocks[b][k]),)), 0

    def gather(self, start: bytes, budget: _Budget, weight: float = 3.0,
               best: dict[str, object] | None = None, traps: bool = False
               ) -> tuple[list[tuple[int, int]], bytes] | None:
        """Best-first over :meth:`exchanges` on ``swaps + weight * out``; the swaps that bring
        every card into its block and the end position, or ``None`` when the budget runs out
        (``best`` then gets the nearest position seen: ``out``, ``path``, ``at``). With ``traps``,
        a position that has more :meth:`trapped` cards than its parent is dropped when it comes
        off the heap (the pairing search's trap filter, checked lazily: a gather expansion has
        thousands of children)."""
        start = bytes(start)
        store: list[_Node] = [(start, -1, (), 0)]
        heap: list[tuple[float, float, int]] = [(0.0, 0.0, 0)]
        seen: set[bytes] = set()
        nearest = (self.out(start), 0)
        stuck: dict[int, int] = {}

        while heap:
            _, _, idx = heapq.heappop(heap)
            at, parent, _, g = store[idx]
            if at in seen:
                continue
            if traps:
                stuck[idx] = self.trapped(at)
                if parent >= 0 and stuck[idx] > stuck[parent]:
                    continue
            seen.add(at)
            left = self.out(at)
            if left < nearest[0]:
                nearest = (left, idx)
            if left == 0:
                return _trace(store, idx), at
            if budget.left(1) <= 0:
                break
            budget.used += 1
            potential = self.measure_name != "out"
            masks = self._masks(at) if potential and not self.hub else None
            for end, (gain, swaps) in self.exchanges(at).items():
                if end in seen:
                    continue
                store.append((end, idx, swaps, g + len(swaps)))
                if masks is not None:
                    h = self._potential_after(masks, end, swaps[-1])
                else:
                    h = self.measure(end) if potential else left - gain
                heapq.heappush(heap, (g + len(swaps) + weight * h, self.rng.random(), len(store) - 1))
        if best is not None:
            best.update(out=nearest[0], path=_trace(store, nearest[1]), at=store[nearest[1]][0])
        return None


def imbalance(transport: Sequence[Sequence[int]]) -> int:
    """How unbalanced a transport matrix is (``transport[a][b]``: cards in block a whose home is b):
    the sum over pairs of blocks of ``|t[a][b] - t[b][a]|``. A card can only travel by an exchange
    with a card going the other way, so the cards that two blocks owe each other in equal numbers
    go home in pairs; each card of the excess must travel round a longer cycle, through a third
    block that has to hold the right kinds and ranks at the right time (where the searches stalled)."""
    return sum(abs(transport[a][b] - transport[b][a]) for a in range(BLOCKS) for b in range(a + 1, BLOCKS))


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
    end position, or ``None`` when a dock is not found."""
    board, blocks = planner.board, planner.blocks
    a_blk, b_blk = board.block[at.index(f)], board.block[at.index(g)]
    conts_a = tuple(at[c] for c in blocks[a_blk])
    conts_b = tuple(at[c] for c in blocks[b_blk])
    prep_a = planner.dock(a_blk, conts_a, f, [w for w in board.nb[g] if w != f], cap)
    if prep_a is None:
        return None
    prep_b = planner.dock(b_blk, conts_b, g, [w for w in board.nb[f] if w != g], cap)
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
#: How often one set of blocks (``card_blocks``) is expanded, with different arrangements inside them.
BALANCE_REPEATS = 2


def balance_search(planner: PatternPlanner, start: bytes, budget: _Budget, imbalance_weight: float = 3.0,
                   weight: float = 2.0, cap: int = 300, best: dict[str, object] | None = None
                   ) -> tuple[list[tuple[int, int]], bytes] | None:
    """Best-first over exchanges across blocks on ``exchanges + weight x (potential + imbalance_weight x
    imbalance)``, until every card is in its home block: the swaps and the end position, or ``None``
    when the budget (expansions) runs out or the docks of :data:`BALANCE_DOCKS` do (``best`` then gets
    the nearest position seen by cards out: ``at``, ``path``).

    The children of a position are every exchange the sets allow (:func:`set_exchanges`: not only
    those sending a card home), weighed at the level of sets (the rank potential of
    :meth:`PatternPlanner.kind_potential` and the transport :func:`imbalance`), refused by the kind
    prune (:func:`kind_solvable`) when a block loses its last card of a kind; they are docked
    (:func:`dock_exchange`) only when they come off the heap, so the thousands of exchanges that
    never come up cost no dock. Ties are broken by the planner's seeded random numbers."""
    board = planner.board
    n, home, kind, rank = board.n, planner.home_block, planner.kind, planner.rank
    fixed = {board.start[c] for c in board.frozen} | {start[c] for c in board.frozen}
    movable = [x for x in range(n) if x not in fixed]
    kinds_home, memo, potential, rng = planner.home, planner._kinds, planner.kind_potential, planner.rng
    store: list[_Node] = [(bytes(start), -1, (), 0)]
    outs: list[int] = [n]
    heap: list[tuple[float, float, int, int, int]] = [(0.0, 0.0, -1, -1, -1)]
    seen: set[bytes] = set()
    sets_seen: dict[bytes, int] = {}
    nearest = (n + 1, 0)
    docks = 0
    dock_limit = None if budget.cap is None else BALANCE_DOCKS * budget.left(1 << 30)
    found: tuple[list[tuple[int, int]], bytes] | None = None
    while heap:
        _, _, parent, f, g = heapq.heappop(heap)
        if parent < 0:
            idx = 0
        else:
            if dock_limit is not None and docks > dock_limit:
                break
            docks += 1
            done = dock_exchange(planner, store[parent][0], f, g, BALANCE_END_CAP if outs[parent] <= BALANCE_END_OUT
                                 else cap)
            if done is None or done[1] in seen:
                continue
            store.append((done[1], parent, done[0], store[parent][3] + 1))
            outs.append(n)
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
        for f, a, g, b in set_exchanges(board, loc, movable):
            kf, kg = kind[f], kind[g]
            if kf != kg and (m[a * KINDS + kf] == 1 or m[b * KINDS + kg] == 1):
                after = list(m)
                after[a * KINDS + kf] -= 1
                after[b * KINDS + kf] += 1
                after[b * KINDS + kg] -= 1
                after[a * KINDS + kg] += 1
                if kind_solvable(tuple(after), kinds_home, memo, KIND_CAP) is False:
                    continue
            masks = list(present)
            for x, old, new in ((f, a, b), (g, b, a)):
                if old == home[x]:
                    masks[kind[x]] &= ~(1 << rank[x])
                if new == home[x]:
                    masks[kind[x]] |= 1 << rank[x]
            hf, hg = home[f], home[g]
            transport[a][hf] -= 1
            transport[b][hf] += 1
            transport[b][hg] -= 1
            transport[a][hg] += 1
            h = sum(potential(k, masks[k]) for k in range(KINDS)) + imbalance_weight * imbalance(transport)
            transport[a][hf] += 1
            transport[b][hf] -= 1
            transport[b][hg] += 1
            transport[a][hg] -= 1
            heapq.heappush(heap, (depth + 1 + weight * h, rng.random(), idx, f, g))
    if best is not None:
        best.update(at=store[nearest[1]][0], path=_trace(store, nearest[1]))
    return found


def _apply(at: bytes, swaps: Sequence[tuple[int, int]]) -> bytes:
    cur = bytearray(at)
    for p, q in swaps:
        cur[p], cur[q] = cur[q], cur[p]
    return bytes(cur)


#: Gather expansions before the pairing end game takes over from the nearest position.
GATHER_NODES = 300
#: The attempts of the portfolio in turn: (kind, candidate exchanges docked per expansion, first random
#: seed, first budget in expansions): the pairing search from the deal, or gather then pairing from
#: where it stalls (``gather_and_pair``). Each round of them has ``GROWTH`` x the budgets of the last
#: and new seeds. Measured (deals 1-20, 300 expansions each): most pairing searches stall or run dry
#: within 300, and the wins come early when they come (deal 14 by the first at 45 expansions, deal 10
#: by the second at 53, deal 1 by the third at 356), so the cheap attempts go first.
PORTFOLIO = (("pairing", 30, 3, 300), ("pairing", 60, 2, 300), ("gather", 60, 1, 600))
GROWTH = 1.5
#: Relay exchanges (:meth:`PatternPlanner.relay_candidates`) docked per expansion of the pairing search,
#: in positions with at most ``RELAY_OUT`` cards out of their block.
RELAYS = 20
RELAY_OUT = 16
#: After an attempt of the portfolio stalls with at most ``RELAY_OUT`` cards out, the pairing search with
#: relays goes on from its nearest position, with this share of the attempt's budget (``relay_end``).
RELAY_SHARE = 1.0
#: The weight of :meth:`PatternPlanner.exit_distance` in the relay end game's measure.
RELAY_EXITS = 1.0
#: Past the first ``tries`` candidates of an expansion (while none has docked), docks search at most
#: ``cap`` // ``EXTRA_CAP`` states.
EXTRA_CAP = 3
#: The gather of ``gather_and_pair`` drops positions with more trapped cards than their parent (measured
#: on deals 1-20 at 300 expansions: nearer on none, farther on 4 of 18, e.g. deal 10 11 -> 22 out; off).
GATHER_TRAPS = False
#: Rounds of gather + pairing without progress before giving up.
STALL_ROUNDS = 2


def gather_and_pair(planner: PatternPlanner, start: bytes, budget: _Budget, best: dict[str, object] | None = None
                    ) -> tuple[list[tuple[int, int]], bytes] | None:
    """Rounds of :meth:`PatternPlanner.gather` (``GATHER_NODES`` expansions) and the pairing end
    game from the nearest position the gather reached, each round from where the last stopped,
    until every card is in its block (the swaps and the end position) or ``STALL_ROUNDS`` rounds
    in a row bring no card home (``None``; ``best`` then gets the nearest position: ``at``, ``path``)."""
    path: list[tuple[int, int]] = []
    at = bytes(start)
    fewest = planner.out(at)
    if best is not None:
        best.update(at=at, path=[])
    stalled = 0
    while budget.left(1) > 0 and stalled < STALL_ROUNDS:
        near: dict[str, object] = {}
        sub = _Budget(budget.deadline, budget.left(GATHER_NODES))
        gathered = planner.gather(at, sub, best=near, traps=GATHER_TRAPS)
        budget.used += sub.used
        if gathered is not None:
            return path + gathered[0], gathered[1]
        near_path, near_at = near["path"], near["at"]
        assert isinstance(near_path, list) and isinstance(near_at, bytes)
        path, at = path + near_path, near_at
        stuck: dict[str, object] = {}
        sub = _Budget(budget.deadline, budget.left(GATHER_NODES))
        paired = planner.pairing(at, sub, best=stuck)
        budget.used += sub.used
        if paired is not None:
            return path + paired[0], paired[1]
        end, more = stuck["at"], stuck["path"]
        assert isinstance(end, bytes) and isinstance(more, list)
        path, at = path + more, end
        left = planner.out(at)
        if best is not None and left < fewest:
            best.update(at=at, path=list(path))
        stalled = 0 if left < fewest else stalled + 1
        fewest = min(fewest, left)
    return None


def relay_end(board: _Board, game: AmberGame, near: dict[str, object], budget: _Budget, nodes: int, tries: int,
              seed: int, share: PatternPlanner | None = None) -> tuple[list[tuple[int, int]], bytes] | None:
    """The end game after a stalled attempt: from its nearest position (``near``: ``at``, ``path``), if
    at most ``RELAY_OUT`` cards are out there, the pairing search with ``RELAYS`` relay exchanges per
    expansion, no exchange taking a card out of its home block, the exits' rank distance added to
    the measure, and ``nodes`` expansions. The whole path and the gathered position, or ``None``."""
    at, path = near.get("at"), near.get("path")
    if not isinstance(at, bytes) or not isinstance(path, list) or nodes <= 0:
        return None
    planner = PatternPlanner(board, game, hub=False, measure="potential", seed=seed, share=share)
    if not 0 < planner.out(at) <= RELAY_OUT:
        return None
    sub = _Budget(budget.deadline, budget.left(nodes))
    # only exchanges that send a card home without taking one out of its home (``home_too`` off), and
    # relays: measured, the exchanges of home cards make a plateau of equal potential that the
    # relays (potential + 4) are never taken from (deal 1's stall at 5 out: 150 expansions in vain
    # with them, gathered in 7 without)
    # and the exits' rank distance on top of the potential (:meth:`PatternPlanner.exit_distance`;
    # measured: it turned the stalls of deals 18 and 20 at 10 out into wins, 114 and 135 expansions)
    found = planner.pairing(at, sub, tries=tries, relays=RELAYS, home_too=False, exits=RELAY_EXITS)
    budget.used += sub.used
    return None if found is None else (path + found[0], found[1])


#: The balance searches of the portfolio, tried before ``PORTFOLIO``'s attempts, in turn: (imbalance
#: weight, weight, first random seed, first budget in expansions); each round with ``GROWTH`` x the
#: budgets and new seeds. Measured (deals 1-20, one search each with 1000 expansions): which deals a
#: setting wins varies a lot (imbalance weight 3: 11 of 18, 6: 9, 2: 7, 4: 5; weight 3 with 2: 4),
#: and the wins come early (47-835 expansions), so several short searches go round.
BALANCE_PORTFOLIO: tuple[tuple[float, float, int, int], ...] = (
    (3.0, 2.0, 1, 400), (2.0, 3.0, 1, 400), (4.0, 2.0, 1, 400), (3.0, 2.0, 2, 400), (2.0, 2.0, 1, 400),
    (6.0, 2.0, 1, 400))
#: Rounds of ``BALANCE_PORTFOLIO`` before each of ``PORTFOLIO``'s attempts gets a turn too.
BALANCE_ROUNDS = 1000


def _attempts() -> Iterator[tuple[str, float, float, int, int]]:
    """The portfolio's attempts in order: (kind, first parameter, second, seed, budget in expansions):
    ``balance`` (imbalance weight, weight), ``pairing`` (tries, 0) or ``gather`` (tries, 0)."""
    for rounds in range(1000):
        for imb, weight, seed, first in BALANCE_PORTFOLIO:
            yield "balance", imb, weight, seed + 10 * rounds, int(first * GROWTH ** rounds)
        if rounds >= BALANCE_ROUNDS:
            old = rounds - BALANCE_ROUNDS
            for kind, tries, seed, first in PORTFOLIO:
                yield kind, tries, 0.0, seed + 10 * old, int(first * GROWTH ** old)


def plan_pattern(board: _Board, game: AmberGame, budget: _Budget) -> list[tuple[int, int]] | None:
    """The swaps (cell pairs) that win Pattern of Amber from ``board.start``, or ``None``.

    Gather every card into its block (the attempts of :func:`_attempts` in turn, with growing node
    budgets and new random tie-breaks; each stalled attempt followed by the relay end game), then sort
    each block with only its own cells moving."""
    planner: PatternPlanner | None = None
    for kind, first, second, seed, cap in _attempts():
        if budget.left(1) <= 0:
            return None
        planner = PatternPlanner(board, game, hub=False, measure="potential", seed=seed, share=planner)
        sub = _Budget(budget.deadline, budget.left(cap))
        near: dict[str, object] = {}
        tries = int(first) if kind != "balance" else 60
        if kind == "balance":
            gathered = balance_search(planner, board.start, sub, first, second, best=near)
        elif kind == "gather":
            gathered = gather_and_pair(planner, board.start, sub, best=near)
        else:
            gathered = planner.pairing(board.start, sub, tries=tries, best=near)
        budget.used += sub.used
        if gathered is None and (kind != "balance" or RELAY_AFTER_BALANCE):
            gathered = relay_end(board, game, near, budget, int(cap * RELAY_SHARE), tries, seed, planner)
        if gathered is None:
            continue
        path, at = gathered
        for cells in planner.blocks:
            if all(board.target[at[c]] == c for c in cells):
                continue
            found = _phase(board, at, settings_for(game, "region"), budget, cells=list(cells))
            if found is None:
                break
            path = path + found[0]
            at = found[1]
        else:
            return path
    return None


#: Whether a stalled balance search is followed by the relay end game too.
RELAY_AFTER_BALANCE = False
