"""The Amber layouts: Path in Shadow, Forest of Arden, Mount Kolvir, Pattern of Amber.

The whole rules of the family live here (see ``docs/rules.md``):

* every card lies face up in a cell; one or two cells hold *start cards*, which never move;
* a move swaps two cards; it is legal only if, after it, each moved card has an
  orthogonally touching cell of the same block holding a rank-neighbour of it
  (the other moved card counts);
* Mount Kolvir: no card moves directly between the top and bottom blocks; any card
  may go into the lone cell (it needs no neighbour there);
* the goal: from the start cards, every card in ascending cyclic order along the
  *snake* of its block (first row left to right, next row right to left, …).

Public for solvers and front ends: :class:`AmberGame` (with its geometry:
``cells``, ``adjacent``, ``snakes``, ``lone_cell``, ``deck``), :class:`AmberPosition`
(``cards``, ``start_cells``, ``goal``), :class:`Swap`, and
:meth:`AmberGame.swap_problem`, the one place where the move rule is written.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..cards import FRENCH_52, RUSSIAN_36, TAROT_56, TAROT_77, TAROT_78, Card, CardError, Deck
from ..deals import check_deal_number, deck_order
from .base import Game, GameError, IllegalMoveError, MalformedError, Move, Position, read_deal_number

GAMES = ("path", "path-52", "path-36", "arden", "kolvir", "pattern")


@dataclass(frozen=True, slots=True)
class Cell:
    """A place on the table: ``id`` counts from 0 in deal order; row and column within the block."""

    id: int
    block: str
    row: int
    column: int


@dataclass(frozen=True, slots=True, order=True)
class Swap(Move):
    """Swap the cards of cells ``a`` and ``b`` (stored with ``a < b``)."""

    a: int
    b: int

    def __post_init__(self) -> None:
        if self.a > self.b:
            first, second = self.b, self.a
            object.__setattr__(self, "a", first)
            object.__setattr__(self, "b", second)

    def to_json(self) -> dict[str, Any]:
        return {"swap": [self.a, self.b]}

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


@dataclass(frozen=True)
class _Block:
    name: str
    rows: int
    columns: int


_TITLES = {
    "path": {"en": "Path in Shadow", "ru": "Путь в Отражении"},
    "path-52": {"en": "Path in Shadow (52 cards)", "ru": "Путь в Отражении (52 карты)"},
    "path-36": {"en": "Path in Shadow (36 cards)", "ru": "Путь в Отражении (36 карт)"},
    "arden": {"en": "Forest of Arden", "ru": "Арденский лес"},
    "kolvir": {"en": "Mount Kolvir", "ru": "Гора Колвир"},
    "pattern": {"en": "Pattern of Amber", "ru": "Лабиринт Амбера"},
}

_LAYOUTS: dict[str, tuple[Deck, tuple[_Block, ...]]] = {
    "path": (TAROT_56, (_Block("main", 4, 14),)),
    "path-52": (FRENCH_52, (_Block("main", 4, 13),)),
    "path-36": (RUSSIAN_36, (_Block("main", 4, 9),)),
    "arden": (TAROT_78, (_Block("main", 6, 13),)),
    "kolvir": (TAROT_78, (_Block("top", 3, 7), _Block("lone", 1, 1), _Block("bottom", 4, 14))),
    "pattern": (TAROT_77, (_Block("top-left", 2, 7), _Block("top-right", 2, 7), _Block("centre", 3, 7),
                           _Block("bottom-left", 2, 7), _Block("bottom-right", 2, 7))),
}

#: Pattern of Amber: the side blocks in the order their suits follow the start suit (clockwise).
PATTERN_SUIT_BLOCKS = ("top-left", "top-right", "bottom-right", "bottom-left")


def _kind(card: Card) -> str:
    return "trump" if card.is_trump else "minor"


def kind_name(card: Card) -> str:
    """A card's kind as a word: its suit's name (``"clubs"``), or ``"trumps"``."""
    return "trumps" if card.suit is None else card.suit.name.lower()


class AmberGame(Game):
    """One of the Amber layouts; immutable. Create with :func:`make_game`."""

    family = "amber"

    def __init__(self, name: str) -> None:
        if name not in _LAYOUTS:
            raise GameError(f"unknown Amber layout {name!r}; the layouts are: {', '.join(GAMES)}")
        self.name = name
        self.titles = _TITLES[name]
        self.deck, blocks = _LAYOUTS[name]
        cells: list[Cell] = []
        grid: dict[tuple[str, int, int], int] = {}
        for block in blocks:
            for r in range(block.rows):
                for c in range(block.columns):
                    grid[block.name, r, c] = len(cells)
                    cells.append(Cell(len(cells), block.name, r, c))
        self.cells: tuple[Cell, ...] = tuple(cells)
        self.blocks: tuple[str, ...] = tuple(b.name for b in blocks)
        self.block_shapes: dict[str, tuple[int, int]] = {b.name: (b.rows, b.columns) for b in blocks}
        #: ``adjacent[i]``: the cells orthogonally touching cell ``i`` in its block.
        self.adjacent: tuple[tuple[int, ...], ...] = tuple(
            tuple(grid[cell.block, r, c]
                  for r, c in ((cell.row - 1, cell.column), (cell.row, cell.column - 1),
                               (cell.row, cell.column + 1), (cell.row + 1, cell.column))
                  if (cell.block, r, c) in grid)
            for cell in cells)
        #: ``snakes[block]``: the block's cells in snake order.
        self.snakes: dict[str, tuple[int, ...]] = {
            b.name: tuple(grid[b.name, r, c if r % 2 == 0 else b.columns - 1 - c]
                          for r in range(b.rows) for c in range(b.columns))
            for b in blocks}
        #: Mount Kolvir's lone cell (any card may enter it; blocks trade only through it).
        self.lone_cell: int | None = grid.get(("lone", 0, 0))
        self._neighbours: dict[Card, frozenset[Card]] = {
            card: frozenset(self.deck.neighbours(card)) for card in self.deck.cards}

    # -- the game API ---------------------------------------------------------------------------

    @property
    def options(self) -> Mapping[str, Any]:
        return {}

    @property
    def fixed_start_cells(self) -> tuple[int, ...]:
        """The start cells that the layout fixes (Arden's second one is found at the deal)."""
        if self.name == "kolvir":
            return (0, self.snakes["bottom"][0])
        if self.name == "pattern":
            return (0, self.snakes["centre"][0])
        return (0,)

    def deal(self, number: int, setup: Mapping[str, str] | None = None) -> AmberPosition:
        number = check_deal_number(number)
        order = deck_order(self.deck, number)
        cards: list[Card | None] = [None] * len(self.cells)
        if self.name in ("kolvir", "pattern"):
            trump_cell, minor_cell = (0, 22) if self.name == "kolvir" else (28, 0)
            first_trump = next(c for c in order if c.is_trump)
            first_minor = next(c for c in order if c.is_minor)
            cards[trump_cell], cards[minor_cell] = first_trump, first_minor
            rest = iter(c for c in order if c not in (first_trump, first_minor))
            cards = [card if card is not None else next(rest) for card in cards]
            starts = self.fixed_start_cells
        elif self.name == "arden":
            starts = (0, self._arden_deal(order, cards))
        else:
            cards = list(order)
            starts = (0,)
        position = AmberPosition(self, tuple(c for c in cards if c is not None), starts, number, {})
        if setup:
            position = self.apply_setup(position, setup)
        return position

    def _arden_deal(self, order: list[Card], cards: list[Card | None]) -> int:
        """Deal Arden into ``cards``; return the second start cell.

        The first card of the other kind than the first card stays where it falls,
        unless its kind would not fit after it along the snake; then it goes to the
        last cell where it fits, and dealing fills the other cells in order.
        """
        first_kind = _kind(order[0])
        second_cell: int | None = None
        i = 0
        for card in order:
            while cards[i] is not None:
                i += 1
            if second_cell is None and _kind(card) != first_kind:
                second_cell = i
                latest = self.latest_second_start(card)
                if self.snake_index(i) > latest:
                    second_cell = self.snakes["main"][latest]
                cards[second_cell] = card
                continue
            cards[i] = card
        assert second_cell is not None
        return second_cell

    def snake_index(self, cell: int) -> int:
        """The place of ``cell`` along its block's snake."""
        return self.snakes[self.cells[cell].block].index(cell)

    def latest_second_start(self, card: Card) -> int:
        """Arden: the last snake place where a second start card like ``card`` leaves room for its kind."""
        size = len(self.deck.trumps) if card.is_trump else len(self.deck.minors)
        return len(self.cells) - size

    def apply_setup(self, position: AmberPosition, setup: Mapping[str, str]) -> AmberPosition:
        """The player's choice of start cards (``Start``) and, in Arden, of the second start cell
        (``SecondStart``), made on a position before any move."""
        unknown = set(setup) - {"Start", "SecondStart"}
        if unknown:
            raise MalformedError(f"unknown setup {', '.join(sorted(unknown))}: use Start and SecondStart")
        cards = list(position.cards)
        starts = list(position.start_cells)
        if "SecondStart" in setup:
            if self.name != "arden":
                raise GameError("only the Forest of Arden lets the player choose where the second start card stands")
            cell = _parse_cell_id(setup["SecondStart"], len(self.cells))
            if cell == 0:
                raise GameError("the second start card cannot stand in cell 0, the first start card's cell")
            old = starts[1]
            cards[old], cards[cell] = cards[cell], cards[old]
            starts[1] = cell
        if "Start" in setup:
            try:
                chosen = [self.deck.parse(t) for t in setup["Start"].replace(",", " ").split()]
            except CardError as exc:
                raise MalformedError(f"start cards: {exc}") from None
            if len(chosen) != len(starts):
                raise GameError(f"{self.title()} has {len(starts)} start card(s); {len(chosen)} were given")
            if len(set(chosen)) != len(chosen):
                raise GameError("the start cards must be different cards")
            for cell, card in zip(starts, chosen, strict=True):
                where = cards.index(card)
                cards[where], cards[cell] = cards[cell], cards[where]
        result = AmberPosition(self, tuple(cards), tuple(starts), position.deal_number, dict(setup))
        problem = self.start_problem(result.cards, result.start_cells)
        if problem:
            raise GameError(problem)
        return result

    def start_problem(self, cards: Sequence[Card], starts: Sequence[int]) -> str | None:
        """Why these start cells and cards are not a valid start for this layout, or ``None``."""
        expected = self.fixed_start_cells
        if self.name == "arden":
            if len(starts) != 2 or starts[0] != 0 or not 0 < starts[1] < len(self.cells):
                return "Arden has two start cells: cell 0 and one more"
            first, second = cards[starts[0]], cards[starts[1]]
            if first.is_trump == second.is_trump:
                return "Arden's two start cards must be of different kinds (one minor card, one trump)"
            if self.snake_index(starts[1]) > self.latest_second_start(second):
                return (f"the second start card {second} stands too late along the snake for all cards of "
                        f"its kind to follow it (latest place: {self.latest_second_start(second)})")
            return None
        if tuple(starts) != expected:
            return f"the start cells of {self.title()} are {list(expected)}, not {list(starts)}"
        if self.name == "kolvir" and not (cards[starts[0]].is_trump and cards[starts[1]].is_minor):
            return "Mount Kolvir's start cards are a trump (top block) and a minor card (bottom block)"
        if self.name == "pattern" and not (cards[starts[0]].is_minor and cards[starts[1]].is_trump):
            return "Pattern of Amber's start cards are a minor card (top-left) and a trump (centre)"
        return None

    def goal_for(self, cards: Sequence[Card], starts: Sequence[int]) -> tuple[Card, ...]:
        """The goal card of every cell, given the start cells and the cards on them."""
        goal: list[Card | None] = [None] * len(self.cells)
        if self.name == "arden":
            snake = self.snakes["main"]
            first = self.deck.run_from(cards[starts[0]])
            p = self.snake_index(starts[1])
            second = self.deck.run_from(cards[starts[1]])
            for cell, card in zip(snake, first[:p] + second + first[p:], strict=True):
                goal[cell] = card
        elif self.name == "kolvir":
            trumps = self.deck.run_from(cards[starts[0]])
            for cell, card in zip(self.snakes["top"] + (self.lone_cell,), trumps, strict=True):
                goal[cell] = card
            for cell, card in zip(self.snakes["bottom"], self.deck.run_from(cards[starts[1]]), strict=True):
                goal[cell] = card
        elif self.name == "pattern":
            for cell, card in zip(self.snakes["centre"], self.deck.run_from(cards[starts[1]]), strict=True):
                goal[cell] = card
            minors = self.deck.run_from(cards[starts[0]])
            for k, block in enumerate(PATTERN_SUIT_BLOCKS):
                for cell, card in zip(self.snakes[block], minors[14 * k:14 * k + 14], strict=True):
                    goal[cell] = card
        else:
            for cell, card in zip(self.snakes["main"], self.deck.run_from(cards[starts[0]]), strict=True):
                goal[cell] = card
        assert all(g is not None for g in goal)
        return tuple(g for g in goal if g is not None)

    # -- the move rule ----------------------------------------------------------------------------

    def has_neighbour_at(self, cards: Sequence[Card], cell: int, card: Card,
                         swapped: tuple[int, Card] | None = None) -> bool:
        """Whether ``card``, standing in ``cell``, touches a rank-neighbour of it.

        ``swapped`` = (other cell, card now in it) accounts for the other card of a swap.
        """
        wanted = self._neighbours[card]
        for n in self.adjacent[cell]:
            there = swapped[1] if swapped is not None and n == swapped[0] else cards[n]
            if there in wanted:
                return True
        return False

    def swap_problem(self, cards: Sequence[Card], starts: Sequence[int], a: int, b: int) -> str | None:
        """Why swapping cells ``a`` and ``b`` is illegal, or ``None`` if it is legal.

        This is the move rule of every Amber layout, written once.
        """
        n = len(self.cells)
        for cell in (a, b):
            if not 0 <= cell < n:
                return f"there is no cell {cell} (the cells are 0 to {n - 1})"
        if a == b:
            return "a swap needs two different cells"
        for cell in (a, b):
            if cell in starts:
                return f"cell {cell} holds the start card {cards[cell]}, which never moves"
        block_a, block_b = self.cells[a].block, self.cells[b].block
        if self.lone_cell is not None and block_a != block_b and self.lone_cell not in (a, b):
            return (f"a card cannot move directly between the {block_a} and {block_b} blocks: "
                    "swap it with the lone cell instead")
        x, y = cards[a], cards[b]
        for card, cell, other_cell, other_card in ((x, b, a, y), (y, a, b, x)):
            if cell == self.lone_cell:
                continue
            if not self.has_neighbour_at(cards, cell, card, (other_cell, other_card)):
                before, after = self.deck.neighbours(card)
                return (f"{card} would have no neighbour ({before} or {after}) beside cell {cell}, "
                        f"where it would go")
        return None

    def legal_swaps(self, cards: Sequence[Card], starts: Sequence[int]) -> list[Swap]:
        """Every legal swap, sorted. Candidates come from where each card's neighbours lie,
        and every candidate is checked by :meth:`swap_problem`."""
        where = {card: i for i, card in enumerate(cards)}
        lone = self.lone_cell
        candidates: set[tuple[int, int]] = set()
        for a, card in enumerate(cards):
            if a in starts:
                continue
            targets: set[int] = set()
            for nb in self._neighbours[card]:
                targets.update(self.adjacent[where[nb]])  # beside a neighbour that stays
                if where[nb] in self.adjacent[a]:
                    targets.add(where[nb])  # trade places with a touching neighbour
            if lone is not None:
                targets.add(lone)
            for b in targets:
                if b != a and b not in starts:
                    candidates.add((a, b) if a < b else (b, a))
        return sorted(Swap(a, b) for a, b in candidates if self.swap_problem(cards, starts, a, b) is None)

    # -- JSON -------------------------------------------------------------------------------------

    def move_from_json(self, data: Any) -> Swap:
        if not isinstance(data, Mapping) or set(data) != {"swap"}:
            raise MalformedError('an Amber move is {"swap": [a, b]} with two cell ids')
        pair = data["swap"]
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in pair)):
            raise MalformedError('"swap" must be a list of two cell ids (whole numbers)')
        return Swap(pair[0], pair[1])

    def position_from_json(self, data: Any) -> AmberPosition:
        self.check_position_object(data)
        cells = data.get("cells")
        if not isinstance(cells, list) or len(cells) != len(self.cells):
            raise MalformedError(f"'cells' must list all {len(self.cells)} cells of {self.title()}")
        cards: list[Card] = []
        for i, (entry, cell) in enumerate(zip(cells, self.cells, strict=True)):
            if not isinstance(entry, Mapping):
                raise MalformedError(f"cell {i} must be a JSON object")
            for field, value in (("id", cell.id), ("block", cell.block), ("row", cell.row),
                                 ("column", cell.column)):
                if field in entry and entry[field] != value:
                    raise MalformedError(f"cell {i}: {field} is {entry[field]!r}, but this layout has {value!r}")
            try:
                cards.append(self.deck.parse(entry.get("card")))
            except CardError as exc:
                raise MalformedError(f"cell {i}: {exc}") from None
        seen: set[Card] = set()
        for i, card in enumerate(cards):
            if card in seen:
                raise MalformedError(f"cell {i}: {card} appears twice")
            seen.add(card)
        starts = data.get("start_cells", list(self.fixed_start_cells))
        if (not isinstance(starts, list)
                or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(cards) for s in starts)):
            raise MalformedError("'start_cells' must be a list of cell ids")
        problem = self.start_problem(cards, starts)
        if problem:
            raise MalformedError(problem)
        deal = read_deal_number(data)
        setup = data.get("setup") or {}
        if not isinstance(setup, Mapping) or not all(isinstance(v, str) for v in setup.values()):
            raise MalformedError("'setup' must be an object of text values")
        return AmberPosition(self, tuple(cards), tuple(starts), deal, dict(setup))


def _parse_cell_id(text: str, count: int) -> int:
    if not text.strip().isdigit():
        raise MalformedError(f"{text!r} is not a cell id (a whole number from 0 to {count - 1})")
    cell = int(text)
    if cell >= count:
        raise MalformedError(f"there is no cell {cell} (the cells are 0 to {count - 1})")
    return cell


class AmberPosition(Position):
    """A position of an Amber layout: a card in every cell, and the start cells."""

    def __init__(self, game: AmberGame, cards: tuple[Card, ...], start_cells: tuple[int, ...],
                 deal_number: int | None, setup: Mapping[str, str]) -> None:
        self.game: AmberGame = game
        self.cards = cards
        self.start_cells = start_cells
        self.deal_number = deal_number
        self.setup = setup

    @cached_property
    def goal(self) -> tuple[Card, ...]:
        """The goal card of every cell."""
        return self.game.goal_for(self.cards, self.start_cells)

    def in_place(self) -> list[bool]:
        return [card == goal for card, goal in zip(self.cards, self.goal, strict=True)]

    def cards_in_place(self) -> int:
        return sum(self.in_place())

    def cell_of(self, card: Card) -> int:
        return self.cards.index(card)

    def legal_moves(self) -> list[Move]:
        return list(self.game.legal_swaps(self.cards, self.start_cells))

    def play(self, move: Move) -> AmberPosition:
        if not isinstance(move, Swap):
            raise MalformedError(f"an Amber move is a swap, not {move!r}")
        problem = self.game.swap_problem(self.cards, self.start_cells, move.a, move.b)
        if problem:
            raise IllegalMoveError(f"illegal swap {self.move_text(move)}: {problem}")
        cards = list(self.cards)
        cards[move.a], cards[move.b] = cards[move.b], cards[move.a]
        new = AmberPosition(self.game, tuple(cards), self.start_cells, self.deal_number, self.setup)
        new.__dict__["goal"] = self.goal  # swaps never touch start cards, so the goal stays
        return new

    def is_won(self) -> bool:
        return self.cards == self.goal

    def is_lost(self) -> bool:
        return self.lost_reason() is not None

    def lost_reason(self) -> str | None:
        """Why this position can never be won, or ``None`` if nothing shows that it cannot.

        Two things end a game: no legal swap is left, or a block has lost the last card of a
        kind (a suit, or the trumps) that its goal puts there (see :meth:`stranded_kinds`).
        """
        if self.is_won():
            return None
        stranded = self.stranded_kinds()
        if stranded:
            block, kind = stranded[0]
            return (f"the {block} block holds no {kind} and can never get one back "
                    f"(a card enters a block only beside a rank-neighbour there), "
                    f"but its goal needs {kind}")
        if not self.legal_moves():
            return "no legal swap is left"
        return None

    def stranded_kinds(self) -> list[tuple[str, str]]:
        """Every (block, kind) such that the goal puts cards of ``kind`` (a suit's name, or
        ``"trumps"``) in ``block`` but the block holds none now.

        A card enters a block from another only beside a rank-neighbour of it in that block, so
        beside a card of its own kind: a block never gains a kind it does not hold (Kolvir's lone
        cell, which any card may enter, is not such a block). A position with a stranded kind
        can never be won. Pattern of Amber's deals can start so (a side block dealt no card of
        its suit); on the other layouts it can only come from play.
        """
        game = self.game
        held: dict[str, set[str]] = {}
        wanted: dict[str, set[str]] = {}
        for cell, card, goal in zip(game.cells, self.cards, self.goal, strict=True):
            if cell.id == game.lone_cell:
                continue
            held.setdefault(cell.block, set()).add(kind_name(card))
            wanted.setdefault(cell.block, set()).add(kind_name(goal))
        return [(block, kind) for block in game.blocks if block in wanted
                for kind in sorted(wanted[block] - held[block])]

    def lower_bound(self) -> int:
        """The fewest swaps that could win: cells minus cycles of the permutation to the goal."""
        goal_cell = {card: i for i, card in enumerate(self.goal)}
        seen = [False] * len(self.cards)
        cycles = 0
        for i in range(len(self.cards)):
            if not seen[i]:
                cycles += 1
                j = i
                while not seen[j]:
                    seen[j] = True
                    j = goal_cell[self.cards[j]]
        return len(self.cards) - cycles

    def result(self) -> dict[str, Any]:
        return {"won": self.is_won(), "cards_in_place": self.cards_in_place(), "cards": len(self.cards),
                "stranded": [{"block": block, "kind": kind} for block, kind in self.stranded_kinds()]}

    def key(self) -> Hashable:
        return self.cards

    def to_json(self) -> dict[str, Any]:
        game = self.game
        starts = set(self.start_cells)
        return {
            "game": game.name,
            "options": dict(game.options),
            "deal": self.deal_number,
            "setup": dict(self.setup),
            "blocks": [{"name": b, "rows": game.block_shapes[b][0], "columns": game.block_shapes[b][1]}
                       for b in game.blocks],
            "cells": [{"id": cell.id, "block": cell.block, "row": cell.row, "column": cell.column,
                       "card": str(card), "goal": str(goal), "start": cell.id in starts,
                       "in_place": card == goal}
                      for cell, card, goal in zip(game.cells, self.cards, self.goal, strict=True)],
            "start_cells": list(self.start_cells),
            "won": self.is_won(),
        }

    def to_text(self) -> str:
        """The table as a grid: blocks apart, ``*`` marks a start card, ``+`` a card in its goal cell."""
        game = self.game
        starts = set(self.start_cells)
        width = max(len(str(c)) for c in self.cards) + 2

        def block_lines(block: str) -> list[str]:
            rows, columns = game.block_shapes[block]
            lines = [f"{block}:".ljust(columns * width)]
            for r in range(rows):
                line = ""
                for c in range(columns):
                    cell = next(x.id for x in game.cells if x.block == block and x.row == r and x.column == c)
                    mark = "*" if cell in starts else "+" if self.cards[cell] == self.goal[cell] else " "
                    line += (mark + str(self.cards[cell])).rjust(width)
                lines.append(line)
            return lines

        arrangement = {"kolvir": [["top"], ["lone"], ["bottom"]],
                       "pattern": [["top-left", "top-right"], ["centre"], ["bottom-left", "bottom-right"]]}
        deal = f"deal {self.deal_number}" if self.deal_number is not None else "given position"
        out = [f"{game.title()} - {deal}   (* start card, + in its goal cell: "
               f"{self.cards_in_place()}/{len(self.cards)})"]
        for band in arrangement.get(game.name, [["main"]]):
            parts = [block_lines(b) for b in band]
            indent = " " * (width * 3) if game.name == "pattern" and band == ["centre"] else ""
            out.append("")
            for i in range(max(len(p) for p in parts)):
                out.append(indent + "    ".join(p[i] if i < len(p) else " " * len(p[0]) for p in parts).rstrip())
        if self.is_won():
            out += ["", "Won: every card is in its goal cell."]
        return "\n".join(out)

    def move_info(self, move: Move) -> dict[str, Any]:
        assert isinstance(move, Swap)
        return {"cards": [str(self.cards[move.a]), str(self.cards[move.b])], "from": [move.a, move.b], "to": None}

    def move_text(self, move: Move) -> str:
        assert isinstance(move, Swap)
        if not (0 <= move.a < len(self.cards) and 0 <= move.b < len(self.cards)):
            return str(move)
        return f"{self.cards[move.a]}-{self.cards[move.b]}"

    def describe_move(self, move: Move, lang: str = "en") -> str:
        assert isinstance(move, Swap)
        x, y = self.cards[move.a], self.cards[move.b]
        if lang == "ru":
            return f"Поменять местами {x.name('ru')} (ячейка {move.a}) и {y.name('ru')} (ячейка {move.b})"
        return f"Swap {x.name()} (cell {move.a}) with {y.name()} (cell {move.b})"

    def parse_move(self, text: str) -> Swap:
        """``Vc-T16`` (the two cards) or ``12-40`` (the two cell ids)."""
        parts = [p for p in text.replace("-", " ").replace(",", " ").split()]
        if len(parts) != 2:
            raise MalformedError(f"{text!r} is not a swap: write two cards (Vc-T16) or two cell ids (12-40)")
        cells = []
        for part in parts:
            if part.isdigit():
                cells.append(_parse_cell_id(part, len(self.cards)))
                continue
            try:
                card = self.game.deck.parse(part)
            except CardError as exc:
                raise MalformedError(str(exc)) from None
            cells.append(self.cards.index(card))
        return Swap(cells[0], cells[1])

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, AmberPosition) and self.game == other.game and self.cards == other.cards
                and self.start_cells == other.start_cells)

    def __hash__(self) -> int:
        return hash((self.game.name, self.cards, self.start_cells))

    def __repr__(self) -> str:
        return f"<AmberPosition {self.game.name} deal={self.deal_number} in_place={self.cards_in_place()}>"


def make_game(name: str, options: Mapping[str, Any]) -> AmberGame:
    if options:
        raise GameError(f"{name} has no options (got {', '.join(sorted(options))})")
    return AmberGame(name)
