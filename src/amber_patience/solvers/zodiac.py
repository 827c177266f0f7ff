"""The Zodiac solver: decides with full knowledge whether a position can be won, with the moves.

Two facts make Zodiac much smaller than it looks (``docs/zodiac.md`` gives the reasoning):

1. **The stock is a set, not a sequence.** Passes are unlimited and a pass only has to place one
   card, so once a card has been placed, any card of the stock can be brought to the waste top
   (draw, and turn the waste over when the stock runs out) and placed next. Placing a stock card
   in an Equator cell and later moving it on is never needed: it can wait in the stock. So phase 1
   is: choose, for every free card (stock, waste or Equator), to put it on a Zodiac pile, to play
   it to a foundation (seed rules), or to leave it in an Equator cell at the end of phase 1.
2. **The suits are independent.** A Zodiac pile is built in suit on its first card, so it holds
   one suit only; foundations are per suit; the only link between the suits is that the cards
   left in the Equator at the end of phase 1 must fit in its 8 cells.

So the solver works suit by suit:

* phase 2 for one suit (:func:`_phase2`): the piles are stacks, the free (Equator) cards can go at
  any time, the up foundation wants ``u + 1`` next and the down one ``13 - d``. An exact
  depth-first search with a memo on (pile heights, u, d); forced moves (once ``u + d >= 12`` a card
  has only one place) are made without branching, and a pile copy of the wanted card is always
  preferred to a free copy (it uncovers more and the free copy stays free);
* phase 1 for one suit (:class:`_SuitSearch`): branch and bound over how far each pile is built
  (piles taken in a fixed order, so every final layout is made once), keeping only layouts whose
  phase 2 is still solvable *treating every card not yet on a pile as free* (a necessary condition
  that stays necessary as more cards are added), minimising the cards left over for the Equator;
* the deal is won when the four suits' least left-overs add up to 8 or less, lost when they are
  proved to add up to more (or a suit cannot be finished at all), unknown when the node budget
  runs out first.

The winning moves are then written out through the rules engine's own move types (draws,
turns of the waste, transfers), and :func:`amber_patience.solvers.solve` replays them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import SUITS, Card, french
from ..games.base import Move
from ..games.zodiac import (
    EQUATOR_CELLS,
    WASTE,
    Draw,
    Recycle,
    Transfer,
    ZodiacPosition,
    equator_id,
    foundation_id,
    zodiac_id,
)
from . import Solution

#: The default node budget: search nodes over all suits (phase 1 and phase 2 together).
DEFAULT_NODE_LIMIT = 200_000


class _OutOfBudget(Exception):
    pass


class _Counter:
    def __init__(self, node_limit: int | None, time_limit: float | None) -> None:
        self.nodes = 0
        self.limit = node_limit if node_limit is not None else DEFAULT_NODE_LIMIT
        #: The current share of the budget (a suit's); ``tick`` stops at it.
        self.stop_at = self.limit
        self.deadline = time.monotonic() + time_limit if time_limit is not None else None

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.stop_at:
            raise _OutOfBudget
        if self.deadline is not None and not self.nodes & 1023 and time.monotonic() > self.deadline:
            raise _OutOfBudget


#: A phase-2 play: (pile index in the suit's pile list, or -1 for a free card; True for the up foundation).
Play = tuple[int, bool]


# -- phase 2, one suit ----------------------------------------------------------------------------

def _phase2(piles: Sequence[Sequence[int]], u: int, d: int, counter: _Counter) -> list[Play] | None:
    """Plays that take every card of one suit to its two foundations, or ``None`` if there are none.

    ``piles``: the suit's Zodiac piles (ranks bottom to top); ``u``/``d``: cards on the up/down
    foundations. Every other card of the suit (two of each rank in all) is free.
    """
    free = [2] * 15
    free[0] = free[14] = 0
    for r in range(1, u + 1):
        free[r] -= 1
    for r in range(14 - d, 14):
        free[r] -= 1
    for pile in piles:
        for r in pile:
            free[r] -= 1
    if min(free) < 0:
        raise ValueError("inconsistent suit: a rank is in play more than twice")
    failed: set[tuple[tuple[int, ...], int, int]] = set()
    return _phase2_search(piles, [len(p) for p in piles], free, u, d, failed, counter)


def _phase2_search(piles: Sequence[Sequence[int]], h: list[int], free: list[int], u: int, d: int,
                   failed: set[tuple[tuple[int, ...], int, int]], counter: _Counter) -> list[Play] | None:
    h = list(h)
    free = list(free)
    plays: list[Play] = []

    def source_of(rank: int) -> int | None:
        for i, pile in enumerate(piles):
            if h[i] and pile[h[i] - 1] == rank:
                return i
        return -1 if free[rank] else None

    def take(src: int, rank: int) -> None:
        if src < 0:
            free[rank] -= 1
        else:
            h[src] -= 1

    # forced moves: once u + d >= 13 every wanted card has one copy left and one place to go
    while True:
        if u == 13 and d == 13:
            return plays
        moved = False
        if u + d >= 13:
            if u < 13:
                src = source_of(u + 1)
                if src is not None:
                    take(src, u + 1)
                    plays.append((src, True))
                    u += 1
                    moved = True
            if d < 13:
                src = source_of(13 - d)
                if src is not None:
                    take(src, 13 - d)
                    plays.append((src, False))
                    d += 1
                    moved = True
            if not moved:
                return None
            continue
        if u + d == 12:  # both foundations want the same rank
            r = u + 1
            pile_srcs = [i for i, pile in enumerate(piles) if h[i] and pile[h[i] - 1] == r]
            if len(pile_srcs) + free[r] >= 2:
                srcs = (pile_srcs + [-1, -1])[:2]
                for src, to_up in zip(srcs, (True, False), strict=True):
                    take(src, r)
                    plays.append((src, to_up))
                u += 1
                d += 1
                continue
        break
    key = (tuple(h), u, d)
    if key in failed:
        return None
    counter.tick()
    ru, rd = u + 1, 13 - d
    options: list[Play] = []
    if ru == rd:  # one copy in reach: it goes up or down
        src = source_of(ru)
        if src is not None:
            options = [(src, True), (src, False)]
    else:
        for rank, to_up in ((ru, True), (rd, False)):
            pile_srcs = [i for i, pile in enumerate(piles) if h[i] and pile[h[i] - 1] == rank]
            if pile_srcs:
                options.extend((i, to_up) for i in pile_srcs)
            elif free[rank]:
                options.append((-1, to_up))
    for src, to_up in options:
        rank = ru if to_up else rd
        h2 = list(h)
        free2 = list(free)
        if src < 0:
            free2[rank] -= 1
        else:
            h2[src] -= 1
        rest = _phase2_search(piles, h2, free2, u + to_up, d + (not to_up), failed, counter)
        if rest is not None:
            return plays + [(src, to_up)] + rest
    failed.add(key)
    return None


# -- phase 1, one suit ----------------------------------------------------------------------------

class _Done(Exception):
    pass


@dataclass
class SuitPlan:
    """How one suit is played: the ranks put on each of its piles (in order), the ranks played to
    the foundations in phase 1 (seed rules), the free cards left in the Equator, and phase 2."""

    extensions: list[list[int]]
    up_plays: int
    down_plays: int
    leftover: int
    phase2: list[Play] = field(default_factory=list)


class _SuitSearch:
    """Branch and bound over the ways to build one suit's piles (fewest cards left for the Equator)."""

    def __init__(self, piles: list[tuple[int, ...]], free: list[int], u: int, d: int, seed: bool,
                 extendable: bool, counter: _Counter) -> None:
        self.base = piles
        self.u, self.d = u, d
        self.seed = seed
        self.extendable = extendable
        self.counter = counter
        self.plan_cache: dict[tuple[tuple[tuple[int, ...], ...], int, int], list[Play] | None] = {}
        self.best: SuitPlan | None = None
        self.exact = False
        self.impossible = False
        self.goal = 0
        self.runs = 0
        #: The order in which the current run takes the piles (indices into ``base``).
        self.order = list(range(len(piles)))
        self.free0 = free

    def plan(self, piles: Sequence[tuple[int, ...]], u: int | None = None, d: int | None = None,
             parent: list[Play] | None = None, changed: int = -1) -> list[Play] | None:
        """A phase-2 plan for these piles (the suit's piles in their fixed order), or ``None``.

        ``parent``: a plan for the same piles less the top card of pile ``changed``; if that plan
        plays a free copy of the card before it first touches the pile, the new card can be
        played from the pile at that moment instead, and no search is needed."""
        uu = self.u if u is None else u
        dd = self.d if d is None else d
        key = (tuple(piles), uu, dd)
        if key in self.plan_cache:
            return self.plan_cache[key]
        plan = _patched(parent, piles[changed][-1], changed, uu, dd) if parent is not None else None
        if plan is None:
            plan = _phase2(piles, uu, dd, self.counter)
        self.plan_cache[key] = plan
        return plan

    def feasible(self, piles: Sequence[tuple[int, ...]], u: int | None = None, d: int | None = None) -> bool:
        return self.plan(piles, u, d) is not None

    def foundation_options(self, free: list[int]) -> list[tuple[int, int]]:
        """Phase-1 foundation plays (seed rules) from free cards alone: (up plays, down plays),
        most plays first."""
        if not self.seed:
            return [(0, 0)]
        options = []
        u, d = self.u, self.d
        i = 0
        while True:
            left = list(free)
            ok = all(left[r] > 0 for r in range(u + 1, u + i + 1))
            if not ok or u + i > 13:
                break
            for r in range(u + 1, u + i + 1):
                left[r] -= 1
            j = 0
            while d + j < 13 and left[13 - d - j] > 0:
                left[13 - d - j] -= 1
                j += 1
            for jj in range(j + 1):
                options.append((i, jj))
            i += 1
        options.sort(key=lambda o: -(o[0] + o[1]))
        return options

    def evaluate(self, piles: list[tuple[int, ...]], free: list[int]) -> None:
        """Stop building here: the best phase-1 foundation plays, and record the plan if better."""
        total = sum(free)
        best = self.best.leftover if self.best is not None else 10**9
        if total - self.max_foundation_plays(free) >= best:
            return
        for i, j in self.foundation_options(free):
            if total - i - j >= best:
                break
            if (i, j) == (0, 0) or self.feasible(piles, self.u + i, self.d + j):
                extensions: list[list[int]] = [[] for _ in piles]
                for pos, original in enumerate(self.order):
                    extensions[original] = list(piles[pos][len(self.base[original]):])
                self.best = SuitPlan(extensions, i, j, total - i - j)
                if self.best.leftover <= self.goal:
                    raise _Done
                return

    def max_foundation_plays(self, free: list[int]) -> int:
        if not self.seed:
            return 0
        n = 0
        for r in range(self.u + 1, 14):
            if not free[r]:
                break
            n += 1
        for r in range(13 - self.d, 0, -1):
            if not free[r]:
                break
            n += 1
        return n

    def lower_bound(self, k: int, piles: list[tuple[int, ...]], free: list[int]) -> int:
        """Free cards that no pile from ``k`` on can reach (a run of free ranks on either side of
        its top, and the top's own rank if the run is not empty), less those that might go to a
        foundation in phase 1: they will be left over."""
        reach = [False] * 15
        for pile in piles[k:]:
            t = pile[-1]
            r = t + 1
            while r <= 13 and free[r]:
                reach[r] = True
                r += 1
            r = t - 1
            while r >= 1 and free[r]:
                reach[r] = True
                r -= 1
            if (t < 13 and free[t + 1]) or (t > 1 and free[t - 1]):
                reach[t] = True  # a walk may step away and come back to the top's own rank
        if self.seed:
            r = self.u + 1
            while r <= 13 and free[r]:
                reach[r] = True
                r += 1
            r = 13 - self.d
            while r >= 1 and free[r]:
                reach[r] = True
                r -= 1
        return sum(free[r] for r in range(1, 14) if not reach[r])

    def run(self, goal: int) -> None:
        """Search on for a plan that leaves at most ``goal`` cards, better than the best so far;
        ``exact`` becomes true once the best plan is proved best, ``impossible`` once the suit is
        proved impossible to finish (its phase 2 fails even with every free card free)."""
        if self.exact:
            return
        self.goal = goal
        # every run after the first takes the piles in another order, for variety
        self.runs += 1
        self.order = list(range(len(self.base)))
        if self.runs > 1:
            random.Random(self.runs).shuffle(self.order)
        base = [self.base[i] for i in self.order]
        try:
            if self.best is None:
                if not self.feasible(base):
                    self.exact = self.impossible = True
                    return
                self.evaluate(list(base), list(self.free0))
            assert self.best is not None
            if self.best.leftover <= goal:
                return
            if self.extendable:
                root = self.plan(base)
                assert root is not None
                self.search(0, list(base), list(self.free0), root)
            self.exact = True
        except _Done:
            self.exact = self.best is not None and self.best.leftover == 0
        except _OutOfBudget:
            pass

    def search(self, k: int, piles: list[tuple[int, ...]], free: list[int], plan: list[Play]) -> None:
        self.counter.tick()
        best = self.best.leftover if self.best is not None else 10**9
        if self.lower_bound(k, piles, free) >= best:
            return
        for j in range(k, len(piles)):
            pile = piles[j]
            t = pile[-1]
            step = pile[-1] - pile[-2] if len(pile) > 1 else _FIRST_STEP[t]
            for r in (t + step, t - step):
                if not 1 <= r <= 13 or not free[r]:
                    continue
                new_piles = list(piles)
                new_piles[j] = pile + (r,)
                new_plan = self.plan(new_piles, parent=plan, changed=j)
                if new_plan is None:
                    continue
                free[r] -= 1
                self.evaluate(new_piles, free)
                self.search(j, new_piles, free, new_plan)
                free[r] += 1


#: The first direction tried on a pile of one card: down from a low card, up from a high one.
_FIRST_STEP = [0] + [1 if t <= 7 else -1 for t in range(1, 14)]


def _patched(parent: list[Play], rank: int, pile: int, u: int, d: int) -> list[Play] | None:
    """``parent`` with its first free play of ``rank`` taken from ``pile`` instead, if that play
    comes before ``parent`` first plays from ``pile``; else ``None``."""
    for n, (src, to_up) in enumerate(parent):
        if src == pile:
            return None
        r = u + 1 if to_up else 13 - d
        if src < 0 and r == rank:
            return parent[:n] + [(pile, to_up)] + parent[n + 1:]
        if to_up:
            u += 1
        else:
            d += 1
    return None


# -- phase 2 as roles: exact least left-overs for a suit of one-card piles ------------------------
#
# In phase 2 the up foundation plays the ranks u+1 … 13 in order ("up roles" U(r)) and the down
# foundation 13-d … 1 ("down roles" D(r)); every card left in play fills one role, the two cards
# of a rank the two roles. A layout can be cleared exactly when some merging of the two sequences
# and some choice of roles make every pile's cards played top first. Cards touch only when their
# ranks differ by one, so only a few facts of the merge matter: "D(r+1) before U(r)" holds from
# some rank a on, "D(r-1) before U(r)" from some rank b on, with a <= b <= a + 2. For each such
# (a, b) a card of role y may lie on a card of role x only if y is played first; building the piles
# is then a choice of disjoint paths from the piles' first cards through the roles, and covering
# the most roles is a min-cost flow. The least left-over of the suit is the least, over (a, b), of
# roles not covered. Every plan found this way is checked by the exact phase-2 search.

def _flow(n: int, arcs: list[tuple[int, int, int, int]], source: int, sink: int,
          need: int) -> tuple[int, list[int]] | None:
    """Send ``need`` units from ``source`` to ``sink`` at least cost (successive shortest paths);
    the cost and the residual capacities (arc ``k`` is edge ``2k``), or ``None`` if they cannot
    all go."""
    to: list[int] = []
    cap: list[int] = []
    cost: list[int] = []
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v, c, w in arcs:
        adj[u].append(len(to))
        to.append(v)
        cap.append(c)
        cost.append(w)
        adj[v].append(len(to))
        to.append(u)
        cap.append(0)
        cost.append(-w)
    total = 0
    inf = 10**9
    for _ in range(need):
        dist = [inf] * n
        prev = [-1] * n
        dist[source] = 0
        queue = [source]
        queued = [False] * n
        queued[source] = True
        head = 0
        while head < len(queue):
            u = queue[head]
            head += 1
            queued[u] = False
            du = dist[u]
            for e in adj[u]:
                if cap[e] > 0:
                    v = to[e]
                    nd = du + cost[e]
                    if nd < dist[v]:
                        dist[v] = nd
                        prev[v] = e
                        if not queued[v]:
                            queued[v] = True
                            queue.append(v)
        if dist[sink] >= inf:
            return None
        v = sink
        while v != source:
            e = prev[v]
            cap[e] -= 1
            cap[e ^ 1] += 1
            v = to[e ^ 1]
        total += dist[sink]
    return total, cap


#: At most this many ways to give roles to the cards already built on the piles (else no roles).
ROLE_COMBINATIONS = 256


def _allowed(x: tuple[int, bool], y: tuple[int, bool], a: int, b: int) -> bool:
    """Whether a card of role ``y`` may lie on one of role ``x`` (``y`` played first) in merge
    class (a, b): D(r+1) is played before U(r) from r = a on, D(r-1) before U(r) from r = b on."""
    (rx, ux), (ry, uy) = x, y
    if abs(rx - ry) != 1:
        return False
    if ux and uy:
        return ry == rx - 1
    if not ux and not uy:
        return ry == rx + 1
    if ux:
        return rx >= a if ry == rx + 1 else rx >= b
    return ry < b if ry == rx + 1 else ry < a


def _role_layouts(piles: Sequence[tuple[int, ...]], u: int, d: int,
                  counter: _Counter) -> list[tuple[int, list[list[int]]]] | None:
    """For one suit with these piles (ranks bottom to top) and ``u``/``d`` cards on its
    foundations: for each merge class (and each way to give roles to cards already built on the
    piles), the fewest free cards left over and the ranks to build on each pile, best first.
    ``None`` if there are more than :data:`ROLE_COMBINATIONS` ways to give those roles."""
    roles = [(r, True) for r in range(u + 1, 14)] + [(r, False) for r in range(1, 14 - d)]
    index = {role: k for k, role in enumerate(roles)}
    n = len(piles)
    singles = sum(len(p) == 1 for p in piles)
    free_total = len(roles) - sum(len(p) for p in piles)
    source, sink = 0, 1
    first_role = 2 + n

    def node_in(k: int) -> int:
        return first_role + 2 * k

    results: list[tuple[int, list[list[int]]]] = []
    seen: set[tuple[tuple[int, ...], ...]] = set()
    seen_arcs: set[tuple[tuple[int, int, int, int], ...]] = set()
    for a in range(1, 15):
        for b in range(a, min(a + 2, 14) + 1):
            # the roles of the cards already built on (piles of two cards or more)
            combos: list[dict[int, tuple[tuple[int, bool], ...]]] = [{}]
            for i, pile in enumerate(piles):
                if len(pile) == 1:
                    continue
                ways: list[tuple[tuple[int, bool], ...]] = [()]
                for rank in pile:
                    ways = [w + ((rank, up),) for w in ways for up in (True, False)
                            if (rank, up) in index and (rank, up) not in w
                            and (not w or _allowed(w[-1], (rank, up), a, b))]
                combos = [{**c, i: w} for c in combos for w in ways
                          if not {r for v in c.values() for r in v} & set(w)]
                if len(combos) > ROLE_COMBINATIONS:
                    return None
            for combo in combos:
                fixed = {r for w in combo.values() for r in w}
                tops = {w[-1] for w in combo.values()}
                arcs: list[tuple[int, int, int, int]] = []
                for i, pile in enumerate(piles):
                    arcs.append((source, 2 + i, 1, 0))
                    if i in combo:
                        arcs.append((2 + i, node_in(index[combo[i][-1]]) + 1, 1, 0))
                        continue
                    for up in (True, False):
                        if (pile[0], up) in index and (pile[0], up) not in fixed:
                            arcs.append((2 + i, node_in(index[pile[0], up]), 1, 0))
                for k, role in enumerate(roles):
                    if role in fixed and role not in tops:
                        continue
                    if role not in fixed:
                        arcs.append((node_in(k), node_in(k) + 1, 1, -1))
                    arcs.append((node_in(k) + 1, sink, 1, 0))
                    r = role[0]
                    for y in ((r - 1, True), (r - 1, False), (r + 1, True), (r + 1, False)):
                        if y in index and y not in fixed and _allowed(role, y, a, b):
                            arcs.append((node_in(k) + 1, node_in(index[y]), 1, 0))
                arc_key = tuple(arcs)
                if arc_key in seen_arcs:
                    continue
                seen_arcs.add(arc_key)
                counter.tick()
                flowed = _flow(first_role + 2 * len(roles), arcs, source, sink, n)
                if flowed is None:
                    continue
                total, cap = flowed
                # follow each pile's path: arc k is edge 2k; it carries flow when its capacity fell
                used = {}
                for k, (x, y, c, _) in enumerate(arcs):
                    if c - cap[2 * k] > 0 and x != source and y != sink:
                        used[x] = y
                paths: list[list[int]] = []
                for i in range(n):
                    ranks: list[int] = []
                    out = used[2 + i] if i in combo else used[2 + i] + 1
                    while (nxt := used.get(out)) is not None:
                        ranks.append(roles[(nxt - first_role) // 2][0])
                        out = nxt + 1
                    paths.append(ranks)
                key = tuple(tuple(p) for p in paths)
                if key in seen:
                    continue
                seen.add(key)
                placed = -total - singles
                results.append((free_total - placed, paths))
    results.sort(key=lambda x: x[0])
    return results


def _role_plan(search: _SuitSearch, quick: bool) -> tuple[int, SuitPlan | None]:
    """A lower bound of a suit's least left-over from the roles (exact unless ``quick``; 0 when
    the cards already built on have too many ways to take roles), and the best checked plan found.

    Under the seed rules each choice of phase-1 foundation plays (``i`` up, ``j`` down) is its own
    problem; taking ``i + j`` roles away cannot cover more of the rest, so a choice leaves no fewer
    than the least left-over without foundation plays, less ``i + j``. ``quick`` tries only the two
    choices with the most plays, and gives no lower bound (0)."""
    options = search.foundation_options(list(search.free0)) if search.seed else [(0, 0)]
    options = sorted(set(options) | {(0, 0)}, key=lambda o: -(o[0] + o[1]))
    none: list[tuple[int, list[list[int]]]] | None = None
    floor = -10**6  # no bound from the floor in quick mode
    if quick:
        options = options[:2]
    else:
        none = _role_layouts(search.base, search.u, search.d, search.counter)
        if none is None:
            return 0, None  # too many ways to give roles to the cards already on the piles
        floor = none[0][0] if none else 10**6  # left-over without foundation plays
    lower = 10**6
    best: SuitPlan | None = None
    for i, j in options:
        bound = floor - i - j
        if best is not None and bound >= best.leftover:
            lower = min(lower, bound)
            continue
        u, d = search.u + i, search.d + j
        layouts = none if (i, j) == (0, 0) and none is not None else _role_layouts(search.base, u, d,
                                                                                      search.counter)
        if layouts is None:
            return 0, best
        if not layouts:
            continue
        lower = min(lower, layouts[0][0])
        for left, paths in layouts:
            if best is not None and left >= best.leftover:
                break
            piles = [pile + tuple(path) for pile, path in zip(search.base, paths, strict=True)]
            if _phase2(piles, u, d, _Counter(10**9, None)) is not None:
                best = SuitPlan(paths, i, j, left)
                break
        if best is not None and best.leftover == 0:
            break
    return (0 if quick else lower), best


# -- the whole position ---------------------------------------------------------------------------

def _card(suit_index: int, rank: int) -> Card:
    return french(rank, SUITS[suit_index])


def solve(position: ZodiacPosition, *, time_limit: float | None = 10.0, node_limit: int | None = None) -> Solution:
    """Decide ``position`` (``won`` with the moves, ``lost``, or ``unknown`` when the budget runs out)."""
    start = time.monotonic()
    counter = _Counter(node_limit, time_limit)
    status, moves, stats = _solve(position, counter)
    stats.update(nodes=counter.nodes, seconds=round(time.monotonic() - start, 4))
    return Solution(status, moves, stats)


def _solve(position: ZodiacPosition, counter: _Counter) -> tuple[str, list[Move], dict]:  # type: ignore[type-arg]
    if position.is_won():
        return "won", [], {}
    reachable_from = len(position.waste) - 1
    if position.phase == 1 and not position.placed and reachable_from > 0:
        return _solve_restricted(position, counter)
    searches: list[_SuitSearch] = []
    piles_of: list[list[int]] = []
    for suit in SUITS:
        idx = [i for i, pile in enumerate(position.zodiac) if pile and pile[0].suit == suit]
        piles = [tuple(c.rank for c in position.zodiac[i]) for i in idx]
        free = [0] * 15
        for c in position.stock + position.waste + tuple(c for c in position.equator if c is not None):
            if c.suit == suit:
                free[c.rank] += 1
        searches.append(_SuitSearch(piles, free, position.up[suit.index], position.down[suit.index],
                                    not position.game.classic, position.phase == 1, counter))
        piles_of.append(idx)

    def leftovers() -> list[int]:
        return [x.best.leftover if x.best is not None else 10**6 for x in searches]

    lower = [0, 0, 0, 0]  # proved lower bounds of each suit's least left-over

    def bounds() -> list[int]:
        return [x.best.leftover if x.exact and x.best is not None else lower[s] for s, x in enumerate(searches)]

    # Rounds: each suit not yet proved at its minimum searches on, within a share of the budget
    # (doubled every round), for a plan that leaves no more cards than the other suits leave room
    # for in the Equator; a suit searched to the end gives its true minimum. After the first
    # round, the roles give quick plans, and after the second the exact minima (see above).
    share = 1000
    rounds = 0
    while True:
        open_suits = sorted((s for s in range(4) if not searches[s].exact), key=lambda s: -leftovers()[s])
        for s in open_suits:
            known = [x if x < 10**6 else 0 for x in leftovers()]
            room = EQUATOR_CELLS - (sum(known) - known[s])
            counter.stop_at = min(counter.limit, counter.nodes + share)
            searches[s].run(max(0, room))
            if searches[s].impossible:
                return "lost", [], {"reason": f"the {SUITS[s].name.lower()} cannot be finished"}
            if sum(leftovers()) <= EQUATOR_CELLS:
                break
        if sum(leftovers()) <= EQUATOR_CELLS:
            break
        rounds += 1
        if rounds <= 2 and position.phase == 1:
            # round 1: quick plans from the roles; round 2: the exact least left-overs
            for s, search in enumerate(searches):
                if search.exact:
                    continue
                counter.stop_at = counter.limit
                try:
                    bound, plan = _role_plan(search, quick=rounds == 1)
                except _OutOfBudget:
                    return "unknown", [], {"leftover": leftovers()}
                if bound >= 10**6:
                    return "lost", [], {"reason": f"the {SUITS[s].name.lower()} cannot be finished"}
                lower[s] = max(lower[s], bound)
                if plan is not None and (search.best is None or plan.leftover < search.best.leftover):
                    search.best = plan
                if rounds == 2 and search.best is not None and search.best.leftover <= lower[s]:
                    search.exact = True
                if sum(leftovers()) <= EQUATOR_CELLS:
                    break
            if sum(leftovers()) <= EQUATOR_CELLS:
                break
        if sum(bounds()) > EQUATOR_CELLS:
            return "lost", [], {"leftover": leftovers(), "reason": "more cards than Equator cells are left over"}
        if counter.nodes >= counter.limit:
            return "unknown", [], {"leftover": leftovers()}
        share *= 2
    plans = [x.best for x in searches if x.best is not None]
    stats = {"leftover": leftovers()}
    counter.stop_at = 10**12  # the plans' phase 2 passed their checks: writing them out is short
    return "won", _write_moves(position, plans, piles_of, counter), stats


def _solve_restricted(position: ZodiacPosition, counter: _Counter) -> tuple[str, list[Move], dict]:  # type: ignore[type-arg]
    """No card placed since the last turn of the waste, and cards below the waste top: only the
    waste top, the stock and the Equator can give the next placement. Try each such placement."""
    unknown = False
    pos = position
    prefix: list[Move] = []
    tried: set[bytes] = set()
    while True:
        for move in pos.legal_moves():
            if not isinstance(move, Transfer):
                continue
            after = pos.play(move)
            key = after.key()
            if key in tried:
                continue
            tried.add(key)  # type: ignore[arg-type]
            status, moves, stats = _solve(after, counter)
            if status == "won":
                return "won", prefix + [move] + moves, stats
            unknown = unknown or status == "unknown"
        if not pos.stock:
            break
        prefix.append(Draw())
        pos = pos.play(Draw())
    return ("unknown" if unknown else "lost"), [], {}


def _write_moves(position: ZodiacPosition, plans: list[SuitPlan], piles_of: list[list[int]],
                 counter: _Counter) -> list[Move]:
    """The plan as moves of the game: phase 1 through the stock, then phase 2."""
    seq: list[Card] = list(position.waste) + list(reversed(position.stock))
    p = len(position.waste)
    placed = position.placed
    equator: list[Card | None] = list(position.equator)
    moves: list[Move] = []

    def take(card: Card) -> str:
        """Bring ``card`` within reach (an Equator cell, or the waste top) and say where it is."""
        nonlocal p
        if card in equator:
            return equator_id(equator.index(card))
        n = len(seq)
        order = list(range(max(p - 1, 0), n)) + list(range(0, max(p - 1, 0)))
        j = next(i for i in order if seq[i] == card)
        if j < p - 1:
            assert placed, "a turn of the waste needs a card placed in the pass"
            moves.extend(Draw() for _ in range(n - p))
            moves.append(Recycle())
            p = 0
        moves.extend(Draw() for _ in range(j + 1 - p))
        p = j + 1
        return WASTE

    def remove(source: str, card: Card) -> None:
        nonlocal p
        if source == WASTE:
            del seq[p - 1]
            p -= 1
        else:
            equator[int(source.rsplit("-", 1)[1])] = None

    if position.phase == 1:
        for s, plan in enumerate(plans):
            for k, ranks in enumerate(plan.extensions):
                for r in ranks:
                    card = _card(s, r)
                    source = take(card)
                    moves.append(Transfer(card, source, zodiac_id(piles_of[s][k])))
                    remove(source, card)
                    placed = True
            u, d = position.up[s], position.down[s]
            for r, to_up in [*((r, True) for r in range(u + 1, u + plan.up_plays + 1)),
                             *((r, False) for r in range(13 - d, 13 - d - plan.down_plays, -1))]:
                card = _card(s, r)
                source = take(card)
                moves.append(Transfer(card, source, foundation_id(SUITS[s], to_up)))
                remove(source, card)
                placed = True
        while seq:
            if p == 0:
                moves.append(Draw())
                p = 1
                continue
            card = seq[p - 1]
            cell = equator.index(None)
            moves.append(Transfer(card, WASTE, equator_id(cell)))
            equator[cell] = card
            del seq[p - 1]
            p -= 1
            placed = True
    # phase 2, suit by suit, on the final piles
    final = [list(pile) for pile in position.zodiac]
    for s, plan in enumerate(plans):
        for k, ranks in enumerate(plan.extensions):
            final[piles_of[s][k]].extend(_card(s, r) for r in ranks)
    for s, plan in enumerate(plans):
        u = position.up[s] + plan.up_plays
        d = position.down[s] + plan.down_plays
        idx = piles_of[s]
        plays = _phase2([tuple(c.rank for c in final[i]) for i in idx], u, d, counter)
        if plays is None:
            raise AssertionError("a suit plan that passed its phase-2 check has no phase-2 plays")
        for src, to_up in plays:
            r = u + 1 if to_up else 13 - d
            card = _card(s, r)
            if src < 0:
                source = equator_id(equator.index(card))
                equator[equator.index(card)] = None
            else:
                source = zodiac_id(idx[src])
                final[idx[src]].pop()
            moves.append(Transfer(card, source, foundation_id(SUITS[s], to_up)))
            if to_up:
                u += 1
            else:
                d += 1
    return moves

