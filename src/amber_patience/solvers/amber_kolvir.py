"""Mount Kolvir's planner (used by :func:`amber_patience.solvers.amber.solve` when it is in ``amber.PLANNERS``).

``docs/solver-kolvir.md`` has the reasoning and the measured figures. The plan is Kolvir's usual one
(``amber.plan_for``: gather the trumps into the top block and the lone cell and the minor cards into the
two halves of the bottom block, then sort each region); what differs:

* **The gathering charges swaps across cycles.** Solution length = lower bound + 2 x (swaps across two
  cycles). The gathering is a weighted best-first search (:func:`_gather_search`, a copy of
  ``amber._search`` cut down to the gathering) whose cost ``g`` adds ``Charge.lone`` for each merge through
  the lone cell and ``Charge.other`` for each other merge. With no charge it is ``amber._search`` (a test
  checks it state for state).
* **Attempts, the shortest kept.** :func:`plan_kolvir` runs the attempts of ``ATTEMPTS`` (gathering
  settings and charge) and shortens each solution (``amber_shorten.shorten``); a second attempt runs only
  when the first solution is longer than ``GOOD`` x the lower bound and it was cheap.
"""

from __future__ import annotations

import heapq
import random
import time
from dataclasses import dataclass, replace
from typing import Any

from ..games.amber import AmberGame
from .amber import (
    ENDGAME_NEAR,
    ENDGAME_NODES,
    ENDGAME_WEIGHT,
    GROWTH,
    Setting,
    _Board,
    _Budget,
    _phase,
    _search,
    plan_for,
    settings_for,
)
from .amber_shorten import shorten

Path = list[tuple[int, int]]


@dataclass(frozen=True)
class Charge:
    """Extra cost (in swaps, added to ``g``) of a swap across cycles: through the lone cell, elsewhere."""

    lone: float = 0.0
    other: float = 0.0


def _gathering(weight: float) -> list[Setting]:
    return [Setting(weight, 0.5, 3, 0.5, 4000), Setting(weight, 0.5, 3, 0.5, 8000, 1)]


#: The attempts in turn: (gathering settings, charge).
ATTEMPTS: list[tuple[list[Setting], Charge]] = [(_gathering(1.5), Charge(3, 5)), (_gathering(2), Charge(2, 8))]
#: While no attempt has won, each but the last has at most this many states (the last has the rest).
FIRST_NODES = 2000
#: After a win, the next attempt runs only while the shortest solution is longer than this many times the lower
#: bound and fewer states than ``MORE_BELOW`` were spent so far; it has at most ``MORE_NODES`` states.
GOOD = 2.0
MORE_BELOW = 3000
MORE_NODES = 6000


def _gather_search(board: _Board, start: bytes, s: Setting, charge: Charge, deadline: float | None,
                   node_limit: int, group: list[int], cell_group: list[int], best: dict[str, Any] | None = None
                   ) -> tuple[Path | None, bytes, int]:
    """A copy of ``amber._search`` for Kolvir's gathering (every cell moves; the eta term weighed lazily and
    exactly, ``Setting.lazy``), whose cost ``g`` also charges every swap across two cycles (``charge``)."""
    n = board.n
    target, lone, nb, adjmask, adj = board.target, board.lone, board.nb, board.adjmask, board.adj
    weight, beta, gamma, eta, alpha = s.weight, s.beta, s.gamma, s.eta, s.alpha
    assert eta > 0
    rng = random.Random(s.seed) if s.seed is not None else None
    moves = board.moves
    region = list(range(n))
    counted = [c != lone for c in range(n)]
    mis = [sum(1 << c for c in region if counted[c] and group[x] != cell_group[c]) for x in range(n)]
    c_lone, c_other = charge.lone, charge.other

    nodes: list[tuple[bytes, float, int, int, int]] = [(start, 0.0, -1, -1, -1)]  # at, g, parent, a, b
    seen: set[bytes] = set()
    heap: list[tuple[float, float, int, int, int, int, float | bool]] = [(0.0, 0.0, 0, 0, -1, -1, True)]
    counter = 0
    expanded = 0
    best_near, best_idx = n + 1, 0

    def sad_of(at: list[int], pos: list[int], c: int) -> int:
        m = adjmask[c]
        z1, z2 = nb[at[c]]
        return 0 if (c == lone or m >> pos[z1] & 1 or m >> pos[z2] & 1) else 1

    def eta_delta(at: list[int], pos: list[int], p: int, q: int) -> int:
        x, y = at[q], at[p]
        at[p], at[q], pos[x], pos[y] = x, y, p, q  # the parent, for a moment
        d = -(sad_of(at, pos, p) + sad_of(at, pos, q))
        mp, mq = adjmask[p], adjmask[q]
        joined = mp >> q & 1
        for z in {*nb[x], *nb[y]}:
            c = pos[z]
            if not (mp | mq) >> c & 1 or z in (x, y) or c == lone:
                continue
            mult = 1 if joined else (mp >> c & 1) + (mq >> c & 1)
            z1, z2 = nb[z]
            m = adjmask[c]
            c1 = q if z1 == x else p if z1 == y else pos[z1]
            c2 = q if z2 == x else p if z2 == y else pos[z2]
            d += mult * ((0 if (m >> c1 & 1 or m >> c2 & 1) else 1) - sad_of(at, pos, c))
        at[p], at[q], pos[x], pos[y] = y, x, q, p
        return d

    def trace(i: int) -> Path:
        path = []
        while nodes[i][2] >= 0:
            path.append((nodes[i][3], nodes[i][4]))
            i = nodes[i][2]
        path.reverse()
        return path

    while heap:
        key_f, tie, cnt, parent, a, b, evaluated = heapq.heappop(heap)
        at = list(nodes[parent][0])
        if a >= 0:
            at[a], at[b] = at[b], at[a]
        key = bytes(at)
        if key in seen:
            continue
        pos = [0] * n
        for c, x in enumerate(at):
            pos[x] = c
        if evaluated.__class__ is float:
            true_f = key_f + weight * eta * (eta_delta(at, pos, a, b) - evaluated)
            if true_f > key_f:
                heapq.heappush(heap, (true_f, tie, cnt, parent, a, b, True))
                continue
        cyc, k = board.cycles(at)
        g = 0.0
        if a >= 0:
            g = nodes[parent][1] + 1
            if cyc[a] == cyc[b]:  # the swap merged two cycles
                g += c_lone if lone in (a, b) else c_other
        bound = n - k
        wrong = sum(1 for c in region if counted[c] and group[at[c]] != cell_group[c])
        h = alpha * bound + gamma * wrong + beta * sum(1 for c in region if target[at[c]] != c)
        sad = [0] * n
        for c in region:
            m = adjmask[c]
            p1, p2 = nb[at[c]]
            if not (c == lone or m >> pos[p1] & 1 or m >> pos[p2] & 1):
                sad[c] = 1
        h += eta * sum(sad)
        seen.add(key)
        if a >= 0:
            nodes.append((key, g, parent, a, b))
            idx = len(nodes) - 1
        else:
            idx = 0
        if wrong < best_near:
            best_near, best_idx = wrong, idx
        if wrong == 0:
            return trace(idx), key, expanded
        if expanded >= node_limit:
            break
        expanded += 1
        if deadline is not None and (expanded & 7) == 0 and time.perf_counter() > deadline:
            break
        base = g + 1 + weight * h
        sadnear = [0] * n
        for c in region:
            if sad[c]:
                for e in adj[c]:
                    sadnear[e] += 1
        for (p, q) in moves(at, pos):
            x, y = at[p], at[q]
            tx, ty = target[x], target[y]
            placed = (tx == q) + (ty == p)
            if cyc[p] == cyc[q]:
                dh, extra = -alpha, 0.0
            else:
                dh, extra = alpha, c_lone if lone in (p, q) else c_other
            dh += beta * ((tx == p) + (ty == q) - placed)
            mx, my = mis[x], mis[y]
            dh += gamma * ((mx >> q & 1) + (my >> p & 1) - (mx >> p & 1) - (my >> q & 1))
            counter += 1
            low = -(sad[p] + sad[q] + sadnear[p] + sadnear[q])
            heapq.heappush(heap, (base + extra + weight * (dh + eta * low),
                                  -placed + (rng.random() if rng is not None else 0.0), counter, idx, p, q, float(low)))
    if best is not None:
        best["path"] = trace(best_idx)
        best["at"] = nodes[best_idx][0]
        best["near"] = best_near
    return None, start, expanded


def _gather(board: _Board, at: bytes, parts: tuple[tuple[int, ...], ...], settings: list[Setting],
            charge: Charge, budget: _Budget) -> tuple[Path, bytes] | None:
    """Every card into its part (``amber._phase`` with :func:`_gather_search`): the settings in turn, then the
    last again with doubled budgets and new seeds; a search that stalls near the end is finished by the
    focused end game of ``amber``."""
    n = board.n
    region_of = [0] * n
    for r, part in enumerate(parts):
        for c in part:
            region_of[c] = r
    card_region = [region_of[board.target[x]] for x in range(n)]
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
            return None
        best: dict[str, Any] = {}
        path, end, used = _gather_search(board, at, s, charge, budget.deadline, nodes, card_region, region_of, best)
        budget.used += used
        if path is not None:
            return path, end
        if best and 0 < best["near"] <= ENDGAME_NEAR:
            s = replace(s, weight=ENDGAME_WEIGHT, nodes=ENDGAME_NODES, seed=None, exact=True, lazy=True)
            nodes = budget.left(s.nodes)
            if nodes > 0:
                tail, end, used = _search(board, best["at"], s, budget.deadline, nodes, cells=list(range(n)),
                                          group=card_region, cell_group=region_of, sort_groups_only=True, focus=True)
                budget.used += used
                if tail is not None:
                    return best["path"] + tail, end


def _attempt(board: _Board, game: AmberGame, settings: list[Setting], charge: Charge, budget: _Budget
             ) -> Path | None:
    """Kolvir's plan (``amber.plan_for``): gather (with :func:`_gather_search`), then sort each region."""
    steps = plan_for(game, board)
    gather, sorts = steps[0], steps[1:]
    found = _gather(board, board.start, gather.parts, [replace(x, exact=True, lazy=True) for x in settings],
                    charge, budget)
    if found is None:
        return None
    path, at = found
    for step in sorts:
        cells = step.parts[0]
        if all(board.target[at[c]] == c for c in cells):
            continue
        done = _phase(board, at, settings_for(game, "region"), budget, cells=list(cells))
        if done is None:
            return None
        path, at = path + done[0], done[1]
    return path


def plan_kolvir(board: _Board, game: AmberGame, budget: _Budget) -> Path | None:
    """The swaps that win Mount Kolvir from ``board.start``, or ``None``.

    The attempts of ``ATTEMPTS`` in turn, each shortened (:func:`~amber_shorten.shorten`): while none has
    won, each has at most ``FIRST_NODES`` states (the last one the whole budget left); after a win, the next
    runs only while the shortest solution is longer than ``GOOD`` x the lower bound and fewer than
    ``MORE_BELOW`` states were spent, with at most ``MORE_NODES`` states. The shortest solution is returned."""
    bound = board.bound(board.start)
    best: Path | None = None
    for k, (settings, charge) in enumerate(ATTEMPTS):
        if best is None:
            cap = None if k == len(ATTEMPTS) - 1 else FIRST_NODES
        elif len(best) <= GOOD * bound or budget.used >= MORE_BELOW:
            break
        else:
            cap = MORE_NODES
        if cap is None:
            path = _attempt(board, game, settings, charge, budget)  # the whole budget left
        else:
            sub = _Budget(budget.deadline, budget.left(cap))
            path = _attempt(board, game, settings, charge, sub)
            budget.used += sub.used
        if path is None:
            continue
        deadline = None if budget.deadline is None else max(budget.deadline, time.perf_counter() + 0.5)
        path = shorten(board, path, deadline)
        if best is None or len(path) < len(best):
            best = path
    return best
