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
  set of visited states, and a depth-first search with the most promising moves first.
"""

from __future__ import annotations

import heapq
import time

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
        for i, col in enumerate(cols):
            while col:
                c = col[-1]
                if _RANK[c] == found[_SUIT[c]] and _safe(c, found):
                    found[_SUIT[c]] += 1
                    col = col[:-1]
                    path.append((c, COL, i, FOUND, 0))
                    changed = True
                else:
                    break
            cols[i] = col
        for c in list(cells):
            if _RANK[c] == found[_SUIT[c]] and _safe(c, found):
                found[_SUIT[c]] += 1
                cells.remove(c)
                path.append((c, CELL, 0, FOUND, 0))
                changed = True
        for s in range(4):
            while found[s] < 13:
                c = s * 13 + found[s]
                if stock >> c & 1 and _safe(c, found):
                    stock &= ~(1 << c)
                    found[s] += 1
                    path.append((c, STOCK, 0, FOUND, 0))
                    changed = True
                else:
                    break
    return stock


def _apply(state: State, move: SolverMove) -> tuple[State, list[SolverMove]]:
    """The state after ``move`` and the safe auto-moves that follow it, with all the moves made."""
    cols_t, cells_b, stock, found_t = state
    cols = list(cols_t)
    cells = list(cells_b)
    found = list(found_t)
    card, src, si, dst, di = move
    if src == COL:
        cols[si] = cols[si][:-1]
    elif src == CELL:
        cells.remove(card)
    else:
        stock &= ~(1 << card)
    if dst == COL:
        cols[di] = cols[di] + _BYTE[card]
    elif dst == CELL:
        cells.append(card)
    else:
        found[_SUIT[card]] += 1
    path = [move]
    stock = _auto(cols, cells, stock, found, path)
    cells.sort()
    return (tuple(cols), bytes(cells), stock, tuple(found)), path


def _key(state: State) -> bytes:
    """Columns sorted (their order on the table does not matter), the free cells, the stock set."""
    cols, cells, stock, _ = state
    return b"\xff".join(sorted(cols)) + b"\xfe" + cells + b"\xfe" + stock.to_bytes(7, "little")


def _moves(state: State, empty_any: bool) -> list[SolverMove]:
    """The moves worth trying (see the module doc for those left out)."""
    cols, cells, stock, found = state
    stock_cards = [c for c in range(52) if stock >> c & 1]
    tops = [(i, col[-1]) for i, col in enumerate(cols) if col]
    empty = next((i for i, col in enumerate(cols) if not col), -1)
    moves: list[SolverMove] = []
    for i, c in tops:
        if _RANK[c] == found[_SUIT[c]]:
            moves.append((c, COL, i, FOUND, 0))
    for c in cells:
        if _RANK[c] == found[_SUIT[c]]:
            moves.append((c, CELL, 0, FOUND, 0))
    for c in stock_cards:
        if _RANK[c] == found[_SUIT[c]]:
            moves.append((c, STOCK, 0, FOUND, 0))
    fits = _FITS
    for j, target in tops:
        for i, c in tops:
            if i != j and fits[c][target]:
                moves.append((c, COL, i, COL, j))
        for c in cells:
            if fits[c][target]:
                moves.append((c, CELL, 0, COL, j))
        for c in stock_cards:
            if fits[c][target]:
                moves.append((c, STOCK, 0, COL, j))
    if empty >= 0:
        for c in cells:
            if empty_any or _RANK[c] == _KING:
                moves.append((c, CELL, 0, COL, empty))
        for i, c in tops:
            if len(cols[i]) > 1 and (empty_any or _RANK[c] == _KING):
                moves.append((c, COL, i, COL, empty))
        for c in stock_cards:
            if empty_any or _RANK[c] == _KING:
                moves.append((c, STOCK, 0, COL, empty))
    if len(cells) < 4:
        for i, c in tops:
            moves.append((c, COL, i, CELL, 0))
    return moves


def _score(state: State) -> int:
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
    disorder = 0
    fits = _FITS
    for col in cols:
        for k in range(1, len(col)):
            if not fits[col[k]][col[k - 1]]:
                disorder += 1
    return 5 * sum(found) - 2 * depth - len(cells) - disorder


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


#: A search node: its parent node and the solver moves that led to it from there.
_Node = tuple[object, list[SolverMove]]


def search(position: SimplestPosition, *, time_limit: float | None = 10.0,
           node_limit: int | None = None) -> tuple[str, list[SolverMove], dict[str, object]]:
    """Best-first search over every reachable state: (status, solver moves of a win or [], stats).

    Every state is expanded at most once, so when the queue runs dry no state reachable from the
    start is a win: the position is lost."""
    start = time.perf_counter()
    empty_any = position.game.empty == "any"
    state, first = initial_state(position)
    root: _Node = (None, first)
    nodes = 0
    status = "lost"
    found_node: _Node | None = root if sum(state[3]) == 52 else None
    seen = {_key(state)}
    heap: list[tuple[int, int, State, _Node]] = [(-_score(state), 0, state, root)]
    deadline = None if time_limit is None else start + time_limit
    count = 0
    while heap and found_node is None:
        _, _, state, node = heapq.heappop(heap)
        for move in _moves(state, empty_any):
            child, path = _apply(state, move)
            key = _key(child)
            if key in seen:
                continue
            seen.add(key)
            nodes += 1
            child_node: _Node = (node, path)
            if sum(child[3]) == 52:
                found_node = child_node
                break
            count -= 1
            heapq.heappush(heap, (-_score(child), count, child, child_node))
        if found_node is None and ((node_limit is not None and nodes >= node_limit)
                                   or (deadline is not None and time.perf_counter() > deadline)):
            status = "unknown"
            break
    stats: dict[str, object] = {"nodes": nodes, "seconds": time.perf_counter() - start}
    if found_node is None:
        return status, [], stats
    paths: list[list[SolverMove]] = []
    walk: _Node | None = found_node
    while walk is not None:
        parent, path = walk
        paths.append(path)
        walk = parent  # type: ignore[assignment]
    solver_moves = [m for path in reversed(paths) for m in path]
    stats["solver_moves"] = len(solver_moves)
    return "won", solver_moves, stats


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
