"""An exact solver for Pyramid 52 and Pyramid 36, every variant (passes, relaxed), with full knowledge.

The search is a depth-first search over a compact state, four small ints:

* ``pmask``: the removed pyramid slots (bit ``i`` for slot ``i``, in deal order);
* ``tmask``: the removed cards of the *talon sequence* — the waste from its bottom up, then the
  stock from its top down, as at the root. Drawing and recycling never change that order: the
  waste is the part of the sequence before the cursor, the stock the part from it on;
* ``cursor``: the place in the sequence of the stock top (the length of the sequence when the
  stock is empty);
* ``recycles``: how many times the waste may still be turned over (unlimited: not counted).

Each node is a *removal*: it stands for its state and every state that drawing and recycling reach
from it, and its children are the removals possible anywhere along the stock, each at its first
chance (fewest draws and recycles, never worse); a king that comes to the stock top on the way is
removed, not drawn. Every removal removes cards, so the search has no cycles (also with an
unlimited stock). Failed states are remembered by their two masks with a score (recycles left,
then how early the stock top is): a state with the same masks and a lower or equal score is
reachable from the failed one by drawing and recycling, so it fails too. The result is exact:
``won`` with the moves (replayed through the rules by :func:`amber_patience.solvers.solve`), or
``lost`` when no state reachable from the position is won.

What makes it fast:

* **forced moves**: an available king is removed at once, with no other branch tried (removing it
  only makes more cards available); so is an available pair of cards that must end up together
  because one of them has no other possible partner;
* **a matching bound**: cards are removed in pairs of *complementary ranks* (A+Q, 2+J, …), so every
  rank class (the cards of two complementary ranks) needs a perfect matching between its two ranks
  in which each pair could one day be available together: never a pyramid card with a card it
  covers or that covers it, and, with no recycle left, never two cards of the waste (only its top
  is available). Relaxed games need only the pyramid cards matched. The bound is checked for every
  class at the root, then after each move only for the classes the move changed, and remembered
  per class. A position that fails it is lost, with no search below it;
* **a waste bound** on the last pass (:meth:`_Search.waste_ok`), from the order in which the
  waste must be emptied (top down) and the pyramid (cards on top first):

  1. a waste card whose partners left are all pyramid cards goes after the cards resting on all of
     them, so those cannot pair with it or with a waste card under it; (1b) when every card must
     go, the bottom one of its rank goes before the cards under all of them, so those cannot pair
     with a waste card above it;
  2. a pyramid card whose partners left all lie in the waste goes after every waste card above the
     topmost of them, and so do the cards it covers: those cannot pair with such a waste card;
     (2b) it goes before every waste card under the bottom one of them, and so do the cards
     resting on it: those cannot pair with such a waste card;

  the matching bound must hold without the pairs so struck out. Checked at the root;
* **the stock walk stops early** on the last pass: once a card that the walk would draw onto the
  waste leaves its class without a matching, no removal further along the stock can win;
* **subgames** (:class:`_Subgame`): the game cut down to two or three rank classes, every other
  card (and every king) removed as soon as it is available, is a relaxation of the real game
  small enough to decide exactly, and it sees how the cards of those classes must follow one
  another through the pyramid, the waste and the stock. At the root every pair and then every
  triple of classes is decided (most lost deals end there); at every node the triples holding a
  class whose cards moved are decided again from the new state (remembered per subgame). With a
  recycle left a subgame is decided as if the recycles had no limit (then only the cards left
  matter, so a node checks again only the triples of the removed pair's class); at the root with
  one recycle left, and at the nodes once a search has spent ``NODE_EXACT_FROM`` nodes, exactly.
  A triple asks its three pairs first at each of its own states (as if with no limit, and on the
  last pass): a pair is a relaxation of it, so a state lost there is lost here, and the pairs'
  memos are shared by the triples holding each. With the subgames the waste bound is checked
  at the root only;
* **a dive** when a recycle is left: before the subgames are set up at the root, a search with no
  subgame checks (cheap nodes) runs for ``DIVE_NODES`` nodes; most won multi-pass deals are won
  there at once. It is exact, only slower, so the states it proves lost stay in the memo when it
  stops and the full search starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..cards import Card
from ..games.base import Move, Position
from ..games.pyramid import DRAW, RECYCLE, PyramidGame, PyramidPosition, Remove
from . import Solution, set_bits

#: Recycles left in an unlimited game (never counts down; left out of the state key).
_UNLIMITED = -1

#: Subgames with at most this many recycles left are decided exactly; with more, as if with no limit.
#: (At the search nodes: only after ``NODE_EXACT_FROM`` nodes.)
_EXACT_RECYCLES = 1

#: Search nodes after which the subgames checked at the nodes are decided exactly with a recycle left.
NODE_EXACT_FROM = 10_000

#: Nodes of the dive (a first search with no subgame checks, before the subgames at the root), by
#: relaxed, then by whether a recycle is left at the root.
DIVE_NODES = {False: {False: 0, True: 100}, True: {False: 0, True: 0}}



def _meet(masks: list[int], slots: int) -> int:
    """The bits common to ``masks[i]`` for every slot ``i`` set in ``slots`` (-1, all bits, for none)."""
    common = -1
    while slots:
        low = slots & -slots
        common &= masks[low.bit_length() - 1]
        slots ^= low
    return common

class _OutOfBudget(Exception):
    pass


class _DiveOver(Exception):
    """The dive (the first search, with no subgame checks) spent its nodes."""


@dataclass
class _Tables:
    """Everything about a position that stays the same below it in the search."""

    n: int  # pyramid slots
    m: int  # talon sequence length
    cards: list[Card]  # by location: slots 0..n-1, then talon places n..n+m-1
    value: list[int]
    klass: list[int]  # rank class of the location's card; -1 for a king
    side: list[int]  # 0 for the lower rank of its class, 1 for the higher
    covers: list[int]  # per slot: mask of the slots resting on it
    related: list[int]  # per slot: mask of the slots it covers or that cover it (at any depth)
    resting: list[int]  # per slot: mask of the slots that cover it (at any depth)
    classes: list[tuple[list[int], list[int]]]  # per class: locations of its two ranks
    target: int


def _tables(position: PyramidPosition) -> _Tables:
    game = position.game
    n = game.size
    sequence = list(position.waste) + list(position.stock)
    m = len(sequence)
    cards: list[Card] = [c if c is not None else sequence[0] if sequence else game.deck.cards[0]
                         for c in position.pyramid] + sequence
    value = [game.value(c) for c in cards]
    target = game.target
    # Rank classes: pairs of complementary values, numbered by the lower value.
    lows = sorted({v for v in (game.value(c) for c in game.deck.cards) if v < target - v})
    class_of = {}
    for k, low in enumerate(lows):
        class_of[low] = (k, 0)
        class_of[target - low] = (k, 1)
    klass = [class_of.get(v, (-1, 0))[0] for v in value]
    side = [class_of.get(v, (-1, 0))[1] for v in value]
    covers = [sum(1 << a for a in game.covers[p]) for p in range(n)]
    below: list[int] = [0] * n  # slots that cover p, at any depth
    for p in range(n - 1, -1, -1):
        for a in game.covers[p]:
            below[p] |= (1 << a) | below[a]
    related = [below[p] for p in range(n)]
    for p in range(n):
        for q in range(n):
            if below[p] >> q & 1:
                related[q] |= 1 << p
    classes: list[tuple[list[int], list[int]]] = [([], []) for _ in lows]
    for loc in range(n + m):
        if loc < n and position.pyramid[loc] is None:
            continue
        if klass[loc] >= 0:
            classes[klass[loc]][side[loc]].append(loc)
    return _Tables(n, m, cards, value, klass, side, covers, related, below, classes, target)


class _Search:
    def __init__(self, position: PyramidPosition, deadline: float | None, node_limit: int | None) -> None:
        game: PyramidGame = position.game
        self.t = _tables(position)
        self.relaxed = game.relaxed
        self.unlimited = game.passes is None
        self.deadline = deadline
        self.node_limit = node_limit
        #: The node count at which the dive ends (``None``: not diving).
        self.dive_end: int | None = None
        #: Subgames at the nodes are decided exactly with at most this many recycles left: none at
        #: first (cheap checks, enough for most deals), :data:`_EXACT_RECYCLES` after ``exact_from`` nodes.
        self.node_exact = 0
        self.exact_from = NODE_EXACT_FROM
        self.stop_at = 0
        self.set_stop()
        self.nodes = 0
        self.pruned = 0
        #: Refused at the root by the bounds or a subgame (the dive's nodes aside).
        self.at_root = False
        self.failed: dict[int, int] = {}
        t = self.t
        self.pfull = (1 << t.n) - 1
        self.tfull = (1 << t.m) - 1
        self.start_pmask = sum(1 << p for p, c in enumerate(position.pyramid) if c is None)
        left = position.passes_left
        self.start_recycles = _UNLIMITED if left is None else left
        self.start_cursor = len(position.waste)
        self.moves: list[Move] = []
        #: Per rank class: its cards' locations as bits (slot ``p``: bit ``p``; talon place ``i``: bit ``n + i``).
        self.class_places = [sum(1 << x for x in lows + highs) for lows, highs in t.classes]
        self.waste_memo: dict[tuple[int, int, int, tuple[tuple[int, int], ...]], bool] = {}
        #: Per rank: the locations of its cards and of the cards they pair with (as bits).
        self.rank_masks = [(sum(1 << x for x in mine), sum(1 << y for y in theirs))
                           for lows, highs in t.classes for mine, theirs in ((lows, highs), (highs, lows))]
        self.all_mask = (1 << (t.n + t.m)) - 1
        #: The talon places holding a king, and per rank class the talon places of its cards.
        self.talon_kings = sum(1 << i for i in range(t.m) if t.value[t.n + i] == t.target)
        self.talon_classes = [sum(1 << (x - t.n) for x in lows + highs if x >= t.n) for lows, highs in t.classes]
        #: Per slot: the slots it covers, at any depth.
        self.covered = [t.related[p] & ~t.resting[p] for p in range(t.n)]
        #: The pyramid slots holding a card that pairs (not a king).
        self.paired_slots = sum(1 << p for p in range(t.n) if t.klass[p] >= 0)
        #: For each mask of removed pyramid slots: see :meth:`_pyramid_info`.
        self.pyramid_info: dict[int, tuple[list[int], int, dict[int, list[int]], list[tuple[int, int]],
                                           dict[int, list[int]]]] = {}
        self.value, self.target, self.klass = t.value, t.target, t.klass
        n, m = t.n, t.m
        self.n, self.m = n, m
        self.resting = t.resting
        #: Per cursor: the locations of the waste places (talon places before it) and of the stock places.
        self.waste_span = [((1 << c) - 1) << n for c in range(m + 1)]
        self.stock_span = [self.all_mask & ~((1 << (n + c)) - 1) for c in range(m + 1)]
        #: Per rank class: the matching bound remembered by its cards gone and, on the last pass,
        #: those of the waste (packed into one int).
        self.class_memos: list[dict[int, bool]] = [{} for _ in t.classes]
        #: The three-class subgames checked at the nodes, each with its classes as bits.
        self.subgames: list[tuple[int, _Subgame]] = []
        #: Per rank class: the three-class subgames holding it (for the checks as if with no limit on
        #: the recycles, where only the removed pair's class moved).
        self.class_subgames: list[list[_Subgame]] = [[] for _ in t.classes]
        #: Per rank class: its waste rules (:meth:`_class_rules`), remembered by the same key.
        self.rule_memos: list[dict[int, list[tuple[int, int]]]] = [{} for _ in t.classes]
        self.shift = n + m
        #: Per cursor: the locations before the stock top's (the pyramid and the waste places).
        self.before_cursor = [(1 << (n + c)) - 1 for c in range(m + 1)]
        #: Per value (up to twice the target): the locations of the cards with that value.
        self.value_masks = [0] * (2 * t.target + 1)
        for loc, v in enumerate(t.value):
            if loc >= n or position.pyramid[loc] is not None:
                self.value_masks[v] |= 1 << loc

    # -- the matching bound --------------------------------------------------------------------

    def class_ok(self, k: int, pmask: int, tmask: int, cursor: int, recycles: int) -> bool:
        """Whether rank class ``k`` still has a matching (see the module doc); remembered by the
        class's cards left and, on the last pass, which of them lie in the waste."""
        where = self.class_places[k]
        key = (pmask | tmask << self.n) & where
        key |= (self.waste_span[cursor] & where if recycles == 0 else 1) << self.shift
        memo = self.class_memos[k]
        known = memo.get(key)
        if known is None:
            known = memo[key] = self._class_ok(k, pmask, tmask, cursor, recycles)
        return known

    def _class_ok(self, k: int, pmask: int, tmask: int, cursor: int, recycles: int,
                  banned: dict[int, int] | None = None) -> bool:
        """The matching bound for class ``k``; ``banned[x]``: cards that ``x`` may not pair with."""
        t = self.t
        n = t.n
        lows_all, highs_all = t.classes[k]
        lows = [x for x in lows_all if not ((pmask >> x) & 1 if x < n else (tmask >> (x - n)) & 1)]
        highs = [x for x in highs_all if not ((pmask >> x) & 1 if x < n else (tmask >> (x - n)) & 1)]
        if not self.relaxed and len(lows) != len(highs):
            return False
        if not lows and not highs:
            return True
        last_pass = recycles == 0
        related = t.related

        def compatible(a: int, b: int) -> bool:
            if banned is not None and ((banned.get(a, 0) >> b) & 1 or (banned.get(b, 0) >> a) & 1):
                return False
            if a < n:
                return b >= n or not (related[a] >> b) & 1
            if b < n:
                return True
            return not (last_pass and a - n < cursor and b - n < cursor)

        if self.relaxed:
            return (_cover(lows, highs, compatible, lambda x: x < n)
                    and _cover(highs, lows, compatible, lambda x: x < n))
        return _cover(lows, highs, compatible, lambda x: True)

    def waste_ok(self, pmask: int, tmask: int, cursor: int) -> bool:
        """On the last pass: the waste against the pyramid. The waste empties from the top down, and
        no card joins it under the cards there now.

        Rule 1: a waste card whose partners left are all pyramid cards goes with one of them, after
        every card resting on all of them; such a card must go before it, so it cannot pair with it
        or with any waste card under it.

        Rule 1b (every card must go, not relaxed): the bottom waste card of that rank goes with one
        of those partners, before the cards under all of them; so these cannot pair with a waste
        card above it (those go before it). In a relaxed game it may stay: no rule 1b.

        Rule 2: a pyramid card whose partners left all lie in the waste goes with one of them, so
        after every waste card above the topmost of them; the cards it covers go after it, so they
        cannot pair with any of those waste cards. Rule 2b: it goes before every waste card under
        the bottom one of them, and the cards resting on it go before it: they cannot pair with any
        of those waste cards.

        With those pairs struck out, each rank class must still have its matching. (Rules 1, 2 and
        2b hold in a relaxed game too: a waste card that stays is never available again, nor is
        any card under it.)"""
        n = self.n
        removed = pmask | tmask << n
        span = self.waste_span[cursor]
        waste = span & ~removed
        if not waste:
            return True
        pyramid_alive = ~pmask & self.pfull
        shift = self.shift
        rule_memos = self.rule_memos
        rules: list[tuple[int, int]] = []  # (pyramid cards, waste cards that none of them may pair with)
        for k, where in enumerate(self.class_places):
            if waste & where:
                key = removed & where | (span & where) << shift
                raw = rule_memos[k].get(key)
                if raw is None:
                    raw = rule_memos[k][key] = self._class_rules(k, pmask, tmask, cursor)
                for cards, mask in raw:
                    cards &= pyramid_alive
                    if cards:
                        b = waste & mask
                        if b:
                            rules.append((cards, b))
        if not rules:
            return True
        union_cards = union_banned = 0
        for cards, b in rules:
            union_cards |= cards
            union_banned |= b
        waste_memo = self.waste_memo
        for k, where in enumerate(self.class_places):
            waste_k = waste & where & union_banned
            if not waste_k or not where & union_cards:
                continue
            parts = []
            for cards, b in rules:
                b &= waste_k
                if b:
                    cards &= where
                    if cards:
                        parts.append((cards, b))
            if not parts:
                continue
            memo_key = (k, removed & where, waste & where, *parts)
            known = waste_memo.get(memo_key)
            if known is None:
                banned: dict[int, int] = {}
                for cards, b in parts:
                    while cards:
                        lz = cards & -cards
                        cards ^= lz
                        z = lz.bit_length() - 1
                        banned[z] = banned.get(z, 0) | b
                known = waste_memo[memo_key] = self._class_ok(k, pmask, tmask, cursor, 0, banned)
            if not known:
                return False
        return True

    def _class_rules(self, k: int, pmask: int, tmask: int, cursor: int) -> list[tuple[int, int]]:
        """The waste rules that the cards of rank class ``k`` give (see :meth:`waste_ok`), as pairs
        (pyramid cards, places): none of those cards still in the pyramid may pair with a waste card
        at one of those places. They depend only on where the class's own cards are."""
        n = self.n
        removed = pmask | tmask << n
        waste = self.waste_span[cursor] & ~removed
        stock = ~removed & self.stock_span[cursor]
        pyramid_alive = ~pmask & self.pfull
        related, covered, resting = self.t.related, self.covered, self.resting
        out: list[tuple[int, int]] = []
        for mine, partners_all in self.rank_masks[2 * k:2 * k + 2]:
            if partners_all & stock or not (mine | partners_all) & waste:
                continue  # (both rules need cards of this rank or of its partners' in the waste)
            waste_mine = mine & waste
            partners = partners_all & pyramid_alive  # (another waste card can never be a partner)
            if waste_mine and partners:
                # Rule 1: the waste cards of this rank, whose partners are all in the pyramid. The same
                # partners for every waste card of this rank: the topmost one says the most.
                common = _meet(resting, partners) & self.paired_slots
                if common:
                    out.append((common, (1 << waste_mine.bit_length()) - 1))
                # Rule 1b: the cards under all the partners go after the bottom one of these waste
                # cards, so after every waste card above it.
                if not self.relaxed:
                    below = _meet(covered, partners) & self.paired_slots
                    if below:
                        out.append((below, ~((waste_mine & -waste_mine) * 2 - 1)))
            # Rule 2: the pyramid cards of this rank whose partners left all lie in the waste.
            mine_pyramid = mine & pyramid_alive
            waste_partners = partners_all & waste
            if mine_pyramid and waste_partners:
                under = over = 0
                while mine_pyramid:
                    lz = mine_pyramid & -mine_pyramid
                    mine_pyramid ^= lz
                    z = lz.bit_length() - 1
                    if not partners & ~related[z]:  # no partner left in the pyramid
                        under |= covered[z]
                        over |= resting[z]
                if under:
                    out.append((under, ~((1 << waste_partners.bit_length()) - 1)))
                # Rule 2b: the cards resting on it go before it, so before every waste card under
                # the bottom one of its partners.
                if over:
                    out.append((over, (waste_partners & -waste_partners) - 1))
        return out

    # -- the search ----------------------------------------------------------------------------

    def run(self) -> bool:
        t = self.t
        pmask, tmask, cursor, recycles = self.start_pmask, 0, self.start_cursor, self.start_recycles
        for k in range(len(t.classes)):
            if not self.class_ok(k, pmask, tmask, cursor, recycles):
                self.pruned += 1
                self.at_root = True
                return False
        if recycles == 0 and not self.waste_ok(pmask, tmask, cursor):
            self.pruned += 1
            self.at_root = True
            return False
        # The dive: a search with no subgame checks (cheap nodes) that often finds a win at once
        # when a recycle is left. It is exact, only slower, so the states it proves lost stay in the
        # memo; once it has spent its nodes, the subgames are set up and the search starts again.
        dive = DIVE_NODES[self.relaxed][recycles != 0]
        if dive:
            self.dive_end = self.nodes + dive
            self.set_stop()
            try:
                return self.dfs(pmask, tmask, cursor, recycles)
            except _DiveOver:
                self.moves.clear()
            self.dive_end = None
            self.set_stop()
        # The subgames of every two and then every three rank classes (a pair's is a relaxation of
        # that of each triple holding it, and smaller): any one lost and the position is lost.
        removed = pmask | tmask << self.n
        pair_games: dict[tuple[int, ...], _Subgame] = {}
        for size in (2, 3):
            for classes in combinations(range(len(t.classes)), size):
                game = _Subgame(self, classes)
                if size == 2:
                    pair_games[classes] = game
                else:  # a triple's state is lost when that of one of its pairs is
                    game.set_parts([pair_games[pair] for pair in combinations(classes, 2)])
                if not game.won(removed, game.first[cursor], recycles):
                    self.pruned += 1
                    self.at_root = True
                    return False
                if size == 3:  # (also checked at every node)
                    self.subgames.append((sum(1 << k for k in classes), game))
                    for k in classes:
                        self.class_subgames[k].append(game)
        return self.dfs(pmask, tmask, cursor, recycles)

    def set_stop(self) -> None:
        """The node count at which :meth:`over` is next called: the node limit, the end of the
        dive, or where the subgames at the nodes become exact with a recycle left."""
        stop = self.node_limit if self.node_limit is not None else 1 << 62
        if self.dive_end is not None:
            stop = min(stop, self.dive_end)
        if self.node_exact < _EXACT_RECYCLES:
            stop = min(stop, self.exact_from)
        self.stop_at = stop

    def over(self) -> None:
        """The search has spent the nodes of a phase."""
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfBudget
        if self.dive_end is not None and self.nodes > self.dive_end:
            raise _DiveOver
        # A long search: the subgames at the nodes are now decided exactly with a recycle left
        # (dearer checks that refuse more where the winning line needs the later passes).
        self.node_exact = _EXACT_RECYCLES
        self.set_stop()

    def dfs(self, pmask: int, tmask: int, cursor: int, recycles: int) -> bool:
        """Whether the state wins. A node stands for the state and every state that drawing and
        recycling reach from it: its children are the removals possible anywhere along the stock,
        each taken at the first chance (the best state for it)."""
        n, m = self.n, self.m
        if pmask == self.pfull and (self.relaxed or tmask == self.tfull):
            return True
        key = pmask << m | tmask
        score = 0 if self.unlimited else recycles * (m + 1) + m - cursor
        if self.failed.get(key, -1) >= score:
            return False
        self.nodes += 1
        if self.nodes > self.stop_at:
            self.over()
        if self.deadline is not None and not self.nodes & 255 and time.monotonic() > self.deadline:
            raise _OutOfBudget

        value, target = self.value, self.target
        info = self.pyramid_info.get(pmask)
        if info is None:
            info = self.pyramid_info[pmask] = self._pyramid_info(pmask)
        pyramid, king, pairs_after, pyramid_pairs, partners = info
        rest = ~tmask & self.tfull
        below = rest & ((1 << cursor) - 1)
        waste_top = n + below.bit_length() - 1 if below else -1
        ahead = rest >> cursor
        stock_top = n + cursor + (ahead & -ahead).bit_length() - 1 if ahead else -1

        # Forced: an available king, or a pair of which one card has no other possible partner.
        forced: tuple[int, ...] | None = None
        if king >= 0:
            forced = (king,)
        elif waste_top >= 0 and value[waste_top] == target:
            forced = (waste_top,)
        elif stock_top >= 0 and value[stock_top] == target:
            forced = (stock_top,)
        else:
            forced = self.forced_pair(pyramid, pairs_after, waste_top, stock_top, pmask, tmask, cursor, recycles)
        if forced is not None:
            if self.child(forced, 0, cursor, pmask, tmask, cursor, recycles):
                return True
            self.failed[key] = score
            return False

        # Every removal, at its first chance: (pass offset, stock top place).
        chances: dict[tuple[int, ...], tuple[int, int]] = dict.fromkeys(pyramid_pairs, (0, cursor))
        setdefault = chances.setdefault

        # Walk the stock (and, with a recycle left, the next pass): at each place, the removals
        # with the waste top ``under`` and the stock top ``x``.
        klass = self.klass
        last_pass = recycles == 0
        removed = pmask | tmask << n
        places, memos, span, shift = self.class_places, self.class_memos, self.waste_span, self.shift
        walks: list[tuple[int, int, int]] = [(0, ahead << cursor, waste_top)]
        if recycles != 0 and below:
            # The next pass: only its part before the stock top brings new removals (from the first
            # stock card on, the cards and their neighbours are those of this pass).
            walks.append((1, below, -1))
        for offset, bits, under in walks:
            if under >= 0:  # the waste top, with the first stock card (or none) at the stock top
                chance = (offset, (bits & -bits).bit_length() - 1 if bits else m)
                vu = value[under]
                for p in partners.get(vu, ()):
                    setdefault((p, under), chance)
            else:
                vu = -target
            while bits:
                low = bits & -bits
                bits ^= low
                place = low.bit_length() - 1
                x = n + place
                chance = (offset, place)
                vx = value[x]
                if vx == target:
                    setdefault((x,), chance)
                    continue  # a king is removed when it comes up, never drawn
                for p in partners.get(vx, ()):
                    setdefault((p, x), chance)
                if vu + vx == target:
                    setdefault((under, x), chance)
                # (x's pairs with the pyramid as the waste top were all found just now, as the stock top.)
                under, vu = x, vx
                # On the last pass, every removal further on is made after drawing x (and the
                # kings before it), so it is reached from the state after that draw: if that
                # state is lost (x's class has no matching), so are they all.
                # (The walk's kings are removed, but they belong to no class.)
                if last_pass:
                    k = klass[x]
                    where = places[k]
                    memo = memos[k]
                    class_key = removed & where | (span[place + 1] & where) << shift
                    known = memo.get(class_key)
                    if known is None:
                        known = memo[class_key] = self._class_ok(k, pmask, tmask, place + 1, 0)
                    if not known:
                        break
        # Chances were found in order of (pass offset, place): the dictionary keeps that order.
        child = self.child
        for locs, (offset, place) in chances.items():
            if child(locs, offset, place, pmask, tmask, cursor, recycles):
                return True
        self.failed[key] = score
        return False

    def forced_pair(self, pyramid: list[int], pairs_after: dict[int, list[int]], waste_top: int, stock_top: int,
                    pmask: int, tmask: int, cursor: int, recycles: int) -> tuple[int, int] | None:
        """An available pair of which one card has no other possible partner (``None`` if none)."""
        value, target = self.value, self.target
        only_partner = self.only_partner
        vw = value[waste_top] if waste_top >= 0 else -target
        vs = value[stock_top] if stock_top >= 0 else -target
        for a in pyramid:
            for b in pairs_after[a]:
                if only_partner(a, b, pmask, tmask, cursor, recycles) or only_partner(b, a, pmask, tmask, cursor,
                                                                                      recycles):
                    return (a, b)
            va = value[a]
            for b, vb in ((waste_top, vw), (stock_top, vs)):
                if va + vb == target and (only_partner(a, b, pmask, tmask, cursor, recycles)
                                          or only_partner(b, a, pmask, tmask, cursor, recycles)):
                    return (a, b)
        if vw + vs == target and (only_partner(waste_top, stock_top, pmask, tmask, cursor, recycles)
                                  or only_partner(stock_top, waste_top, pmask, tmask, cursor, recycles)):
            return (waste_top, stock_top)
        return None

    def _pyramid_info(self, pmask: int) -> tuple[list[int], int, dict[int, list[int]], list[tuple[int, int]],
                                                 dict[int, list[int]]]:
        """For a set of removed pyramid slots: the available slots, the first available king (-1 for
        none), per available slot the available slots after it that it pairs with, those pairs, and
        per value the available slots that pair with a card of that value."""
        value, target, covers = self.value, self.target, self.t.covers
        pyramid = [p for p in range(self.n) if not (pmask >> p) & 1 and covers[p] & pmask == covers[p]]
        king = next((p for p in pyramid if value[p] == target), -1)
        pairs_after = {a: [b for b in pyramid[i + 1:] if value[a] + value[b] == target] for i, a in enumerate(pyramid)}
        pyramid_pairs = [(a, b) for a in pyramid for b in pairs_after[a]]
        partners: dict[int, list[int]] = {}
        for p in pyramid:
            partners.setdefault(target - value[p], []).append(p)
        return pyramid, king, pairs_after, pyramid_pairs, partners

    def child(self, locs: tuple[int, ...], offset: int, place: int,
              pmask: int, tmask: int, cursor: int, recycles: int) -> bool:
        """Draw (and recycle, if ``offset``) until the stock top is at ``place``, remove ``locs``, and
        search on. A king that comes to the stock top on the way is removed, never drawn."""
        n, m = self.n, self.m
        start_tmask, start_cursor, start_recycles = tmask, cursor, recycles
        kings = self.talon_kings
        if offset:
            tmask |= ~tmask & self.tfull & ~((1 << cursor) - 1) & kings
            if recycles > 0:
                recycles -= 1
            cursor = 0
        # The cards drawn on the way: kings are removed, the others go to the waste.
        drawn = ~tmask & ((1 << place) - 1) & ~((1 << cursor) - 1)
        tmask |= drawn & kings
        for loc in locs:
            if loc < n:
                pmask |= 1 << loc
            else:
                tmask |= 1 << (loc - n)
        rest = ~tmask & self.tfull & ~((1 << place) - 1)
        cursor = (rest & -rest).bit_length() - 1 if rest else m
        if self.failed.get(pmask << m | tmask, -1) >= (0 if self.unlimited else recycles * (m + 1) + m - cursor):
            return False
        first = self.klass[locs[0]]
        classes = [first]
        last_pass = recycles == 0
        # The classes whose cards moved: the removed pair's, those of the cards drawn, and after a
        # recycle every class (its stock and waste changed).
        touched = 1 << first if first >= 0 else 0
        if recycles < 0 or recycles > self.node_exact:
            # Subgames decided as if with no limit on the recycles: only their cards removed matter,
            # and those changed only in the removed pair's class (the parent passed the others).
            pass
        else:
            drawn &= ~kings
            if drawn:
                for k, where in enumerate(self.talon_classes):
                    if drawn & where and k != first:
                        touched |= 1 << k
                        if last_pass:
                            classes.append(k)
            if offset:
                touched = -1
        removed = pmask | tmask << n
        span, shift = self.waste_span[cursor], self.shift
        places, memos = self.class_places, self.class_memos
        for k in classes:
            if k >= 0:
                where = places[k]
                memo = memos[k]
                class_key = removed & where | (span & where if last_pass else 1) << shift
                known = memo.get(class_key)
                if known is None:
                    known = memo[class_key] = self._class_ok(k, pmask, tmask, cursor, recycles)
                if not known:
                    self.pruned += 1
                    return False
        # The three-class subgames whose cards moved. (The waste bound is not checked here: each
        # of its rules links two classes, which these subgames see; at the nodes of deals 1-300 it
        # refused nothing more.)
        if not last_pass and (recycles < 0 or recycles > self.node_exact):
            # As if with no limit on the recycles: only the triples of the removed pair's class.
            if first >= 0:
                mine_games = self.class_subgames[first]
                for i, game in enumerate(mine_games):
                    # (Most checks are answered by the subgame's memo: looked up here.)
                    known = game.known_any.get(removed & game.mask)
                    if known is None:
                        known = game.won_any(removed)
                    if not known:
                        self.pruned += 1
                        if i:  # the next child is likely refused by the same one: it goes first
                            mine_games.insert(0, mine_games.pop(i))
                        return False
        else:
            subgames = self.subgames
            for i, (which, game) in enumerate(subgames):
                if which & touched:
                    # (Most checks are answered by the subgame's memo: looked up here.)
                    if last_pass:
                        known = game.known.get((removed & game.mask) << 5 | game.first[cursor])
                    else:
                        mine, talon, s = removed & game.mask, game.talon, game.first[cursor]
                        while s < len(talon) and mine >> talon[s] & 1:
                            s += 1
                        known = game.known_passes.get((mine << 5 | s) << 5 | recycles)
                    if known is None:
                        known = game.won(removed, game.first[cursor], recycles, self.node_exact)
                    if not known:
                        self.pruned += 1
                        if i:  # the next child is likely refused by the same one: it goes first
                            subgames.insert(0, subgames.pop(i))
                        return False
        if not self.dfs(pmask, tmask, cursor, recycles):
            return False
        self.moves.append(Remove(tuple(self.t.cards[loc] for loc in locs)))
        self.moves.extend(reversed(self.steps(offset, place, start_tmask, start_cursor, start_recycles)))
        return True

    def steps(self, offset: int, place: int, tmask: int, cursor: int, recycles: int) -> list[Move]:
        """The draws, recycle and king removals that :meth:`child` makes before its removal."""
        t = self.t
        n, m = t.n, t.m
        out: list[Move] = []
        ranges = [range(cursor, m), range(0, place)] if offset else [range(cursor, place)]
        for k, places in enumerate(ranges):
            if k:
                out.append(RECYCLE)
            for i in places:
                if not (tmask >> i) & 1:
                    if t.value[n + i] == t.target:
                        tmask |= 1 << i
                        out.append(Remove((t.cards[n + i],)))
                    else:
                        out.append(DRAW)
        return out

    def only_partner(self, a: int, b: int, pmask: int, tmask: int, cursor: int, recycles: int) -> bool:
        """Whether ``b`` is the only remaining card that ``a`` could ever be removed with (and ``a`` must go)."""
        t = self.t
        n = t.n
        if self.relaxed and a >= n:
            return False
        k = t.klass[a]
        last_pass = recycles == 0
        for x in t.classes[k][1 - t.side[a]]:
            if x == b or ((pmask >> x) & 1 if x < n else (tmask >> (x - n)) & 1):
                continue
            if a < n:
                if x >= n or not (t.related[a] >> x) & 1:
                    return False
            elif x < n or not (last_pass and a - n < cursor and x - n < cursor):
                return False
        return True


class _Subgame:
    """The game restricted to some rank classes: every card of another class (and every king)
    counts as removed as soon as it is available, and a talon card of another class as soon as it
    is drawn. Any winning line of the real game is one of this game too (the other cards are removed
    no later, so every card is available no later), so when this game is lost the real one is.
    With few classes it is small enough to decide exactly, and it sees how the cards of those
    classes must follow one another through the pyramid and the waste, which the matching bound
    does not. On the last pass it is decided exactly; with a recycle left, as if the recycles had
    no limit (see :meth:`won`)."""

    def __init__(self, search: _Search, classes: tuple[int, ...]) -> None:
        mask = 0
        for k in classes:
            mask |= search.class_places[k]
        self.mask = mask
        self.value = search.value
        self.target = search.target
        self.pyramid_mask = pyramid_mask = mask & search.pfull
        self.pyramid = set_bits(pyramid_mask)
        #: Per pyramid card of these classes: the cards of these classes resting on it.
        self.over = {p: search.resting[p] & mask for p in self.pyramid}
        #: Per pyramid card of these classes: its bit, the cards of these classes resting on it, its value.
        self.pyramid_items = [(1 << p, self.over[p], search.value[p]) for p in self.pyramid]
        self.talon_mask = mask & ~pyramid_mask
        self.talon = talon = set_bits(self.talon_mask)
        #: Won when these cards are gone (relaxed: those of the pyramid).
        self.goal = pyramid_mask if search.relaxed else mask
        self.relaxed = search.relaxed
        #: Per cursor of the real game: the first place of this game's talon at or after it.
        self.first = [(self.talon_mask & before).bit_count() for before in search.before_cursor]
        #: Per place of this game's talon: the talon cards before it (the waste, as location bits).
        self.below = [((1 << x) - 1) & self.talon_mask for x in talon] + [self.talon_mask]
        #: Per value: the cards of these classes with that value (location bits).
        self.rank_mask = [cards & mask for cards in search.value_masks]
        #: Per set of removed pyramid cards (of these classes): see :meth:`_exposed`.
        self.exposed: dict[int, tuple[list[int], dict[int, list[int]]]] = {}
        #: On the last pass: the states known won (by removed cards and stock place); and per set of
        #: removed cards, the earliest stock place known to fail (every later one fails too: drawing
        #: leads there).
        self.known: dict[int, bool] = {}
        self.failed: dict[int, int] = {}
        #: With recycles left: results by removed cards, stock place and recycles left.
        self.known_passes: dict[int, bool] = {}
        #: With recycles left: per set of removed cards, the best score (recycles left, then how
        #: early the stock top is) known to lose; every state with a lower one loses too.
        self.failed_passes: dict[int, int] = {}
        #: With no limit on the recycles: results by removed cards.
        self.known_any: dict[int, bool] = {}
        #: The subgames of fewer classes within this one (a relaxation of it: lost there, lost here),
        #: and for each, per place of this game's talon, the matching place of its own.
        self.parts: list[_Subgame] = []
        self.part_places: list[tuple[_Subgame, list[int]]] = []
        self.n = search.n

    def set_parts(self, parts: list[_Subgame]) -> None:
        """Ask ``parts`` (subgames of some of these classes) first: a state lost in one is lost here."""
        self.parts = parts
        self.part_places = [(part, [part.first[loc - self.n] for loc in self.talon] + [len(part.talon)])
                            for part in parts]

    def won(self, removed: int, s: int, recycles: int = 0, exact: int = _EXACT_RECYCLES) -> bool:
        """Whether the game restricted to these classes can be won with the cards ``removed`` gone
        (location bits, only those of these classes count), the stock top at place ``s`` of its
        talon and ``recycles`` left (``_UNLIMITED`` for no limit). With a recycle left, the answer is
        that of the game with no limit on the recycles: never lost when the real game can be won
        (more recycles never hurt), and the same when the recycles left are at least the pairs
        left (a pass with no removal comes back to the same state, so a shortest winning line
        removes a pair in every pass after the first)."""
        removed &= self.mask
        if removed & self.goal == self.goal:
            return True
        if recycles and (recycles < 0 or recycles > exact
                         or recycles >= (self.mask & ~removed).bit_count() // 2):
            known = self.known_any.get(removed)
            return self._won_any(removed) if known is None else known
        talon = self.talon
        while s < len(talon) and removed >> talon[s] & 1:
            s += 1
        return self._won_passes(removed, s, recycles) if recycles else self._won(removed, s)

    def _won_passes(self, removed: int, s: int, r: int) -> bool:
        """:meth:`won`, exactly, with ``r`` recycles left (at least one) and the stock top at place
        ``s`` of a card not removed (or the end)."""
        key = (removed << 5 | s) << 5 | r
        known = self.known_passes
        result = known.get(key)
        if result is not None:
            return result
        # Lost with the same cards left and no fewer recycles or an earlier stock top (drawing and
        # recycling lead from there to here): lost.
        score = r << 6 | 63 - s
        if self.failed_passes.get(removed, -1) >= score:
            return False
        goal, talon, value, target = self.goal, self.talon, self.value, self.target
        size = len(talon)
        pyramid_removed = removed & self.pyramid_mask
        info = self.exposed.get(pyramid_removed)
        if info is None:
            info = self.exposed[pyramid_removed] = self._exposed(pyramid_removed)
        pairs, partners = info
        moves = [(cards, s) for cards in pairs]  # (cards removed, stock place after)
        waste = self.below[s] & ~removed
        under = waste.bit_length() - 1 if waste else -1
        if under >= 0:
            moves += [(1 << under | p, s) for p in partners.get(value[under], ())]
        after = s + 1
        while after < size and removed >> talon[after] & 1:
            after += 1
        if s < size:
            top = talon[s]
            if under >= 0 and value[under] + value[top] == target:
                moves.append((1 << under | 1 << top, after))
            moves += [(1 << top | p, after) for p in partners.get(value[top], ())]
        result = False
        for cards, place in moves:
            state = removed | cards
            if state & goal == goal or self._won_passes(state, place, r):
                result = True
                break
        if not result:
            if s < size:  # draw
                result = self._won_passes(removed, after, r)
            elif waste:  # recycle
                first = 0
                while removed >> talon[first] & 1:
                    first += 1
                result = self._won_passes(removed, first, r - 1) if r > 1 else self._won(removed, first)
        if result:
            known[key] = True
        elif self.failed_passes.get(removed, -1) < score:
            self.failed_passes[removed] = score
        return result

    def won_any(self, removed: int) -> bool:
        """:meth:`won` as if with no limit on the recycles."""
        removed &= self.mask
        if removed & self.goal == self.goal:
            return True
        known = self.known_any.get(removed)
        return self._won_any(removed) if known is None else known

    def _won_any(self, removed: int) -> bool:
        """:meth:`won` with no limit on the recycles: then every place of the talon can be reached
        again, so only the cards left matter. Any talon card left can come to the stock top, and two
        talon cards left next to each other in the talon's order can be the waste top and the stock
        top at once. (``removed`` is not in ``known_any`` yet.)"""
        known = self.known_any
        known_get = known.get
        # Lost as soon as the state of a smaller subgame within this one is (they are cheaper to
        # decide, and their results are shared by the triples holding them).
        for part in self.parts:
            mine = removed & part.mask
            result = part.known_any.get(mine)
            if result is None:
                result = mine & part.goal == part.goal or part._won_any(mine)
            if not result:
                known[removed] = False
                return False
        goal, value, target, won = self.goal, self.value, self.target, self._won_any
        pyramid_removed = removed & self.pyramid_mask
        info = self.exposed.get(pyramid_removed)
        if info is None:
            info = self.exposed[pyramid_removed] = self._exposed(pyramid_removed)
        pairs, partners = info
        for cards in pairs:
            state = removed | cards
            if state & goal == goal:
                known[removed] = True
                return True
            result = known_get(state)
            if result or (result is None and won(state)):
                known[removed] = True
                return True
        alive = self.talon_mask & ~removed
        previous = 0
        v_previous = -target
        while alive:
            bit = alive & -alive
            alive ^= bit
            vx = value[bit.bit_length() - 1]
            for p in partners.get(vx, ()):
                state = removed | bit | p
                if state & goal == goal:
                    known[removed] = True
                    return True
                result = known_get(state)
                if result or (result is None and won(state)):
                    known[removed] = True
                    return True
            if v_previous + vx == target:
                state = removed | bit | previous
                if state & goal == goal:
                    known[removed] = True
                    return True
                result = known_get(state)
                if result or (result is None and won(state)):
                    known[removed] = True
                    return True
            previous, v_previous = bit, vx
        known[removed] = False
        return False

    def _won(self, removed: int, s: int) -> bool:
        """:meth:`won` for a stock top at place ``s`` of a card not removed (or the end). Won
        states are remembered in ``known``, lost ones only in ``failed`` (the earliest stock place
        lost for the cards removed: every later one is lost too)."""
        failed = self.failed
        failed_get = failed.get
        lost_from = failed_get(removed, 99)
        if lost_from <= s:
            return False
        known = self.known
        key = removed << 5 | s
        if key in known:
            return True
        # Lost as soon as a smaller subgame within this one is lost there (its stock top: the first
        # of its talon cards at or after this one's).
        for part, places in self.part_places:
            if not part.won(removed, places[s]):
                failed[removed] = s
                return False
        goal, talon, value, won = self.goal, self.talon, self.value, self._won
        pyramid_removed = removed & self.pyramid_mask
        info = self.exposed.get(pyramid_removed)
        if info is None:
            info = self.exposed[pyramid_removed] = self._exposed(pyramid_removed)
        pairs, partners = info
        # Removals: pyramid pairs, then the waste top with a pyramid card, then the stock top with the
        # waste top or a pyramid card; then drawing. (A child lost for its stock place is skipped
        # before the call.)
        for cards in pairs:
            state = removed | cards
            if state & goal == goal or (failed_get(state, 99) > s and won(state, s)):
                known[key] = True
                return True
        waste = self.below[s] & ~removed
        if waste:
            under = waste.bit_length() - 1
            vu = value[under]
            for p in partners.get(vu, ()):
                state = removed | 1 << under | p
                if state & goal == goal or (failed_get(state, 99) > s and won(state, s)):
                    known[key] = True
                    return True
        else:
            vu = under = -self.target
        size = len(talon)
        if s < size:
            top = talon[s]
            after = s + 1
            while after < size and removed >> talon[after] & 1:
                after += 1
            vt = value[top]
            for p in partners.get(vt, ()) if vu + vt != self.target else (1 << under, *partners.get(vt, ())):
                state = removed | 1 << top | p
                if state & goal == goal or (failed_get(state, 99) > after and won(state, after)):
                    known[key] = True
                    return True
            # Drawing: when every card must go, the waste cards of the drawn card's rank each need a
            # partner out of the waste (two waste cards never pair).
            if lost_from > after:
                hidden = self.below[after] & ~removed
                if (self.relaxed or (hidden & self.rank_mask[vt]).bit_count()
                        <= (self.rank_mask[self.target - vt] & ~removed & ~hidden).bit_count()) and won(removed, after):
                    known[key] = True
                    return True
        if failed_get(removed, 99) > s:
            failed[removed] = s
        return False

    def _exposed(self, pyramid_removed: int) -> tuple[list[int], dict[int, list[int]]]:
        """For a set of removed pyramid cards (of these classes): the pairs of available ones, and per
        value the available ones that pair with a card of that value (all as location bits)."""
        left = self.pyramid_mask & ~pyramid_removed
        now = [(bit, v) for bit, over, v in self.pyramid_items if left & bit and not over & left]
        target = self.target
        partners: dict[int, list[int]] = {}
        for bit, v in now:
            partners.setdefault(target - v, []).append(bit)
        # (In the order of the first card, then the second: the bits grow with the slots.)
        pairs = [a | b for a, va in now for b in partners.get(va, ()) if b > a]
        return pairs, partners


def _cover(side_a: list[int], side_b: list[int], compatible: Callable[[int, int], bool],
           required: Callable[[int], bool]) -> bool:
    """Whether a matching of ``side_a`` into ``side_b`` covers every required card of ``side_a``."""
    used_sets = {0}
    for a in side_a:
        options = [1 << j for j, b in enumerate(side_b) if compatible(a, b)]
        grown = {used | bit for used in used_sets for bit in options if not used & bit}
        if required(a):
            used_sets = grown
        else:
            used_sets |= grown
        if not used_sets:
            return False
    return True


def solve(position: Position, *, time_limit: float | None = 10.0, node_limit: int | None = None) -> Solution:
    """Decide ``position``: ``won`` with a winning line, ``lost`` (proved), or ``unknown`` (budget spent)."""
    if not isinstance(position, PyramidPosition):
        raise TypeError(f"the Pyramid solver solves Pyramid positions, not {type(position).__name__}")
    start = time.monotonic()
    search = _Search(position, None if time_limit is None else start + time_limit, node_limit)
    stats: dict[str, Any] = {}
    try:
        status = "won" if position.is_won() or search.run() else "lost"
    except _OutOfBudget:
        status = "unknown"
    stats.update(nodes=search.nodes, pruned=search.pruned, at_root=search.at_root,
                 seconds=round(time.monotonic() - start, 6))
    moves = list(reversed(search.moves)) if status == "won" else []
    return Solution(status, moves, stats)  # type: ignore[arg-type]


def first_winnable(game: PyramidGame, n: int, *, limit: int = 10_000, time_limit: float | None = 10.0) -> int | None:
    """The first deal number at or after ``n`` that the solver proves winnable, within ``limit`` deals
    (``None`` if none was found there)."""
    for number in range(n, n + limit):
        if solve(game.deal(number), time_limit=time_limit).status == "won":
            return number
    return None
