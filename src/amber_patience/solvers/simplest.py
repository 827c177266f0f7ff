"""Exact solver for the Simplest patience.

It decides, with full knowledge of the stock, whether a position can be won: ``won`` with the
moves, ``lost`` when every reachable state has been seen without a win, ``unknown`` when the
budget (nodes or seconds) runs out first. It uses only the public API of
:mod:`amber_patience.games.simplest`.

Ideas (each argued in ``docs/simplest.md``):

* **The stock is a reserve.** Turning walks round the cycle of stock and waste cards, and recycling
  is unlimited, so every card of the cycle can be brought to the waste top by turning alone; taking
  one out keeps the others reachable. The search therefore holds the stock and waste as a *set* (a
  52-bit mask) from which any card may be played, and the turns are added back when the solution is
  written out as the game's real moves.
* **Safe auto-moves.** A card that can go to its foundation goes there at once when it is an ace or
  a two, or when both foundations of the other colour hold at least its rank minus one (then no card
  can ever be put on it, so leaving it in play helps nothing).
* **Dominated moves are not tried.** A stock card never goes to a free cell (it is as available in
  the stock); an ace never goes onto a column (it would only go to its foundation); a lone card does
  not move to an empty column; of several empty columns only one is tried.
* **Compact canonical keys** (columns sorted, free cells as a multiset, the stock as a mask) in a
  set of visited states; complete searches of different kinds (best-first with three scores, and
  depth-first) take turns, so a deal that misleads one of them is soon won by another.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Generator, Iterator
from functools import lru_cache

from ..cards import FRENCH_52, SUITS, Card
from ..games.base import Move
from ..games.simplest import (
    COLUMNS,
    WASTE,
    Draw,
    Recycle,
    Shift,
    SimplestPosition,
    cell_id,
    column_id,
    foundation_id,
)
from . import Solution

# Cards are numbered as in FRENCH_52's canonical order: suit index * 13 + rank - 1.
_CARDS: tuple[Card, ...] = FRENCH_52.cards
_RANK = tuple(i % 13 for i in range(52))  # 0 = ace … 12 = king
_SUIT = tuple(i // 13 for i in range(52))
_RED = tuple(SUITS[i // 13].is_red for i in range(52))
#: The suits of the other colour, for each suit index.
_OTHER_COLOUR = tuple(tuple(j for j in range(4) if SUITS[j].is_red != SUITS[i].is_red) for i in range(4))
#: ``_FITS[a][b]``: card ``a`` may go on card ``b`` in a column.
_FITS = tuple(tuple(_RANK[a] == _RANK[b] - 1 and _RED[a] != _RED[b] for b in range(52)) for a in range(52))
_KING = 12
_BYTE = tuple(bytes((i,)) for i in range(52))
#: ``_CHILDREN[b]``: the cards that may go on card ``b`` in a column (never an ace: it would only go
#: on to its foundation, which is always open to it).
_CHILDREN = tuple(tuple(a for a in range(52) if _FITS[a][b] and _RANK[a] > 0) for b in range(52))

# Where a solver move takes a card from / to.
COL, CELL, STOCK, FOUND = 0, 1, 2, 3

#: A solver move: (card, source kind, source column, target kind, target column).
SolverMove = tuple[int, int, int, int, int]
#: A state: columns (real order, each bytes of card numbers, bottom first), free cells (sorted
#: bytes), stock+waste mask, foundation counts.
State = tuple[tuple[bytes, ...], bytes, int, tuple[int, ...]]


def _safe(card: int, found: list[int] | tuple[int, ...]) -> bool:
    """Whether ``card`` (next on its foundation) may go there at once without losing a win."""
    rank = _RANK[card]
    if rank <= 1:
        return True
    a, b = _OTHER_COLOUR[_SUIT[card]]
    return found[a] >= rank and found[b] >= rank


def _auto(cols: list[bytes], cells: list[int], stock: int, found: list[int], path: list[SolverMove]) -> int:
    """Play every safe foundation move (changing the lists in place); return the new stock mask."""
    changed = True
    while changed:
        changed = False
        for s in range(4):
            f = found[s]
            if f == 13:
                continue
            c = s * 13 + f
            if not _safe(c, found):
                continue
            if stock >> c & 1:
                stock &= ~(1 << c)
                path.append((c, STOCK, 0, FOUND, 0))
            elif c in cells:
                cells.remove(c)
                path.append((c, CELL, 0, FOUND, 0))
            else:
                for i, col in enumerate(cols):
                    if col and col[-1] == c:
                        cols[i] = col[:-1]
                        path.append((c, COL, i, FOUND, 0))
                        break
                else:
                    continue
            found[s] += 1
            changed = True
    return stock


def _apply(state: State, move: SolverMove) -> tuple[State, list[SolverMove]]:
    """The state after ``move`` and the safe auto-moves that follow it, with all the moves made.

    States are kept closed under safe auto-moves, so only a move to a foundation (which may make
    other cards safe) or a card uncovered in a column can start new ones."""
    cols_t, cells_b, stock, found = state
    card, src, si, dst, di = move
    path = [move]
    cols = list(cols_t)
    rest = b""
    if src == COL:
        rest = cols[si] = cols[si][:-1]
    elif src == STOCK:
        stock &= ~(1 << card)
    if dst == COL:
        cols[di] += _BYTE[card]
    if src == CELL or dst == CELL:
        cells_l = list(cells_b)
        if src == CELL:
            cells_l.remove(card)
        else:
            cells_l.append(card)
            cells_l.sort()
        cells_b = bytes(cells_l)
    if dst == FOUND:
        found_l = list(found)
        found_l[_SUIT[card]] += 1
    elif rest and _RANK[rest[-1]] == found[_SUIT[rest[-1]]] and _safe(rest[-1], found):
        found_l = list(found)
    else:
        return (tuple(cols), cells_b, stock, found), path
    cells_l = list(cells_b)
    stock = _auto(cols, cells_l, stock, found_l, path)
    return (tuple(cols), bytes(cells_l), stock, tuple(found_l)), path


def _key(state: State) -> bytes:
    """Columns sorted (their order on the table does not matter), the free cells, the stock set."""
    cols, cells, stock, _ = state
    return b"\xff".join(sorted(cols)) + b"\xfe" + cells + b"\xfe" + stock.to_bytes(7, "little")


def _moves(state: State, empty_any: bool) -> list[SolverMove]:
    """The moves worth trying (see the module doc for those left out)."""
    cols, cells, stock, found = state
    stock_cards = []
    m = stock
    while m:
        low = m & -m
        stock_cards.append(low.bit_length() - 1)
        m ^= low
    top_at = {col[-1]: i for i, col in enumerate(cols) if col}
    moves: list[SolverMove] = []
    for s in range(4):
        if found[s] < 13:
            c = s * 13 + found[s]
            if c in top_at:
                moves.append((c, COL, top_at[c], FOUND, 0))
            elif c in cells:
                moves.append((c, CELL, 0, FOUND, 0))
            elif stock >> c & 1:
                moves.append((c, STOCK, 0, FOUND, 0))
    for target, j in top_at.items():
        for c in _CHILDREN[target]:
            if c in top_at:
                moves.append((c, COL, top_at[c], COL, j))
            elif c in cells:
                moves.append((c, CELL, 0, COL, j))
            elif stock >> c & 1:
                moves.append((c, STOCK, 0, COL, j))
    empty = next((i for i, col in enumerate(cols) if not col), -1)
    if empty >= 0:
        for c in cells:
            if empty_any or _RANK[c] == _KING:
                moves.append((c, CELL, 0, COL, empty))
        for c, i in top_at.items():
            if len(cols[i]) > 1 and _RANK[c] and (empty_any or _RANK[c] == _KING):
                moves.append((c, COL, i, COL, empty))
        for c in stock_cards:
            if empty_any or _RANK[c] == _KING:
                moves.append((c, STOCK, 0, COL, empty))
    if len(cells) < 4:
        for c, i in top_at.items():
            moves.append((c, COL, i, CELL, 0))
    return moves


@lru_cache(maxsize=1 << 16)
def _disorder(col: bytes) -> int:
    """The cards of a column that lie on a card they do not build on."""
    fits = _FITS
    return sum(1 for k in range(1, len(col)) if not fits[col[k]][col[k - 1]])


def _score(state: State, depth_weight: int) -> int:
    """How promising a state looks (higher is better): cards on the foundations, less the depth at
    which the next card of each suit lies in its column, the free cells in use, and the cards lying
    on a card they do not build on."""
    cols, cells, _, found = state
    depth = 0
    for s in range(4):
        f = found[s]
        if f < 13:
            c = s * 13 + f
            for col in cols:
                k = col.find(c)
                if k >= 0:
                    depth += len(col) - 1 - k
                    break
    disorder = sum(map(_disorder, cols))
    return 5 * sum(found) - depth_weight * depth - len(cells) - disorder


def initial_state(position: SimplestPosition) -> tuple[State, list[SolverMove]]:
    """The solver's state of ``position`` after the safe auto-moves, and those moves."""
    index = FRENCH_52.index
    cols = [bytes(index(c) for c in col) for col in position.columns]
    cells = [index(c) for c in position.cells if c is not None]
    stock = 0
    for c in position.cycle:
        stock |= 1 << index(c)
    found = list(position.foundations)
    path: list[SolverMove] = []
    stock = _auto(cols, cells, stock, found, path)
    cells.sort()
    return (tuple(cols), bytes(cells), stock, tuple(found)), path


#: A search node of the best-first search: its parent node and the solver moves from there to it.
_Node = tuple[object, list[SolverMove]]
#: The search strands that take turns: a best-first search for each positive number (the weight of
#: the depth of the next cards in :func:`_score`), the depth-first search for 0.
STRANDS: tuple[int, ...] = (1, 2, 0, 3)
#: How many new states a search strand visits before handing over to the other.
CHUNK = 2048
#: A search strand: yields how many new states it visited since it last yielded; returns the solver
#: moves of a win, or ``None`` when it has visited every reachable state without finding one, with
#: the number of new states since it last yielded.
_Strand = Generator[int, None, tuple[list[SolverMove] | None, int]]


def _best_first(state: State, first: list[SolverMove], empty_any: bool, depth_weight: int, chunk: int) -> _Strand:
    """Best-first search (:func:`_score`, newest first among equals); every state expanded once."""
    root: _Node = (None, first)
    seen = {_key(state)}
    heap: list[tuple[int, int, State, _Node]] = [(-_score(state, depth_weight), 0, state, root)]
    count = 0
    new = 0
    while heap:
        _, _, state, node = heapq.heappop(heap)
        for move in _moves(state, empty_any):
            child, path = _apply(state, move)
            key = _key(child)
            if key in seen:
                continue
            seen.add(key)
            child_node: _Node = (node, path)
            if sum(child[3]) == 52:
                return _unwind(child_node), new + 1
            count -= 1
            heapq.heappush(heap, (-_score(child, depth_weight), count, child, child_node))
            new += 1
        if new >= chunk:
            yield new
            new = 0
    return None, new


def _unwind(node: _Node) -> list[SolverMove]:
    paths: list[list[SolverMove]] = []
    walk: _Node | None = node
    while walk is not None:
        parent, path = walk
        paths.append(path)
        walk = parent  # type: ignore[assignment]
    return [m for path in reversed(paths) for m in path]


def _depth_first(state: State, first: list[SolverMove], empty_any: bool, chunk: int) -> _Strand:
    """Depth-first search in the order of :func:`_moves`; every state visited once."""
    seen = {_key(state)}
    stack: list[tuple[State, Iterator[SolverMove], list[SolverMove]]] = [
        (state, iter(_moves(state, empty_any)), first)]
    new = 0
    while stack:
        state, moves, _ = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            continue
        child, path = _apply(state, move)
        key = _key(child)
        if key in seen:
            continue
        seen.add(key)
        if sum(child[3]) == 52:
            return [m for _, _, p in stack for m in p] + path, new + 1
        stack.append((child, iter(_moves(child, empty_any)), path))
        new += 1
        if new >= chunk:
            yield new
            new = 0
    return None, new


def search(position: SimplestPosition, *, time_limit: float | None = 10.0,
           node_limit: int | None = None) -> tuple[str, list[SolverMove], dict[str, object]]:
    """Decide ``position``: (status, solver moves of a win or [], stats).

    Complete searches (:data:`STRANDS`) take turns, :data:`CHUNK` new states at a time: three
    best-first searches with different scores and a depth-first one; a deal that misleads one of
    them rarely misleads the others. Each visits every reachable state at most once, so when any of
    them has visited them all without a win, the position is lost. ``nodes`` counts the states
    visited by all of them; ``found_by`` names the search that won."""
    start = time.perf_counter()
    empty_any = position.game.empty == "any"
    state, first = initial_state(position)
    stats: dict[str, object] = {}
    if sum(state[3]) == 52:
        stats.update(nodes=0, seconds=time.perf_counter() - start, solver_moves=len(first))
        return "won", first, stats
    chunk = CHUNK if node_limit is None else max(1, min(CHUNK, node_limit // len(STRANDS)))
    strands = [_best_first(state, first, empty_any, w, chunk) if w else _depth_first(state, first, empty_any, chunk)
               for w in STRANDS]
    nodes = 0
    deadline = None if time_limit is None else start + time_limit
    status = "unknown"
    moves: list[SolverMove] = []
    turn = 0
    while True:
        strand = strands[turn % len(strands)]
        turn += 1
        try:
            nodes += next(strand)
        except StopIteration as stop:
            found, new = stop.value
            nodes += new
            if found is None:
                status = "lost"
            else:
                status, moves = "won", found
                w = STRANDS[strands.index(strand)]
                stats["found_by"] = f"best-first/{w}" if w else "depth-first"
            break
        if node_limit is not None and nodes >= node_limit:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
    for strand in strands:
        strand.close()
    stats.update(nodes=nodes, seconds=time.perf_counter() - start)
    if status == "won":
        stats["solver_moves"] = len(moves)
    return status, moves, stats


def to_game_moves(position: SimplestPosition, solver_moves: list[SolverMove]) -> list[Move]:
    """The game's real moves for the solver's moves, with the stock turns they need; every move is
    played through the rules engine on the way (an error here is a solver bug)."""
    moves: list[Move] = []

    def play(move: Move) -> None:
        nonlocal position
        position = position.play(move)
        moves.append(move)

    for card_no, src, si, dst, di in solver_moves:
        card = _CARDS[card_no]
        if src == COL:
            source = column_id(si)
        elif src == CELL:
            source = cell_id(position.cells.index(card))
        else:
            target_len = position.cycle.index(card) + 1
            if len(position.waste) > target_len:
                for _ in range(len(position.stock)):
                    play(Draw())
                play(Recycle())
            while len(position.waste) < target_len:
                play(Draw())
            source = WASTE
        if dst == COL:
            target = column_id(di)
        elif dst == CELL:
            target = cell_id(position.cells.index(None))
        else:
            suit = card.suit
            assert suit is not None
            target = foundation_id(suit)
        play(Shift(card, source, target))
    return moves


def solve(position: SimplestPosition, *, time_limit: float | None = 10.0, node_limit: int | None = None) -> Solution:
    """Decide ``position``: ``won`` with the game's moves, ``lost`` (proved), or ``unknown``."""
    if not isinstance(position, SimplestPosition):
        raise TypeError(f"the Simplest solver needs a Simplest position, not {type(position).__name__}")
    status, solver_moves, stats = search(position, time_limit=time_limit, node_limit=node_limit)
    if status != "won":
        return Solution(status, [], stats)  # type: ignore[arg-type]
    moves = to_game_moves(position, solver_moves)
    stats["moves"] = len(moves)
    return Solution("won", moves, stats)


__all__ = ["COLUMNS", "initial_state", "search", "solve", "to_game_moves"]
