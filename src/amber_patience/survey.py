"""Winnability surveys: solve a range of deals of one game and count how many are won.

Every deal is solved by :func:`amber_patience.solvers.solve`, which replays each win through the
rules engine, so a deal counted as won has a checked winning line behind it. A deal is ``won``,
``lost`` (the solver proved that no line wins it: the reason is kept) or ``unknown`` (the time or
node budget ran out first: a candidate to look at, not a proof either way).

Deals are solved in this process (``jobs=1``) or in a pool of worker processes, a bounded number
of deals in flight at a time, so a survey of millions of deals needs no more memory than one of a
hundred. Results can be written as they come to a JSON-lines file (:class:`SurveyFile`) from which
an interrupted survey resumes: the deals already there are not solved again.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .games import get_game
from .games.base import Game, GameError

#: The statuses of a deal, in the order the summary gives them.
STATUSES = ("won", "lost", "unknown")


class SurveyError(GameError):
    """A survey cannot run as asked (a bad range of deals, a results file that does not fit)."""


# -- deal numbers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealRange:
    """Deal numbers as written on the command line: ``"1-1000"``, ``"7"`` or ``"1-10,50,90-99"``.

    Kept as ranges, so ``"1-100000000"`` costs nothing until it is walked."""

    parts: tuple[range, ...]

    @classmethod
    def parse(cls, text: str) -> DealRange:
        parts: list[range] = []
        for piece in text.split(","):
            piece = piece.strip()
            low, dash, high = piece.partition("-")
            if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
                raise SurveyError(f"{piece!r} is not a deal number or a range like 1-1000")
            first, last = int(low), int(high) if dash else int(low)
            if first > last:
                raise SurveyError(f"{piece!r}: the range ends before it starts")
            parts.append(range(first, last + 1))
        return cls(tuple(parts))

    def __iter__(self) -> Iterator[int]:
        for part in self.parts:
            yield from part

    def __len__(self) -> int:
        return sum(len(part) for part in self.parts)

    def __str__(self) -> str:
        return ",".join(f"{p.start}" if len(p) == 1 else f"{p.start}-{p.stop - 1}" for p in self.parts)


# -- one deal -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealOutcome:
    """What the solver made of one deal."""

    number: int
    status: str
    #: CPU seconds of the process that solved it and of the plans it raced in processes of its own (solve and replay).
    seconds: float
    #: Moves of the winning line (won deals only).
    length: int | None = None
    nodes: int | None = None
    #: Why the deal is lost (lost deals only).
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value is not None}

    @classmethod
    def from_json(cls, data: Any) -> DealOutcome:
        if not isinstance(data, Mapping):
            raise SurveyError(f"a deal's result is a JSON object, not {data!r}")
        number, status, seconds = data.get("number"), data.get("status"), data.get("seconds")
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise SurveyError(f"a deal's result needs a deal number, 0 or more (got {number!r})")
        if status not in STATUSES:
            raise SurveyError(f"deal {number}: the status must be one of {', '.join(STATUSES)} (got {status!r})")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds < 0:
            raise SurveyError(f"deal {number}: seconds must be a number, 0 or more (got {seconds!r})")
        length, nodes, reason = data.get("length"), data.get("nodes"), data.get("reason")
        for name, value in (("length", length), ("nodes", nodes)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise SurveyError(f"deal {number}: {name} must be a whole number, 0 or more (got {value!r})")
        if reason is not None and not isinstance(reason, str):
            raise SurveyError(f"deal {number}: the reason must be text (got {reason!r})")
        return cls(number, status, float(seconds), length, nodes, reason)


def solve_deal(game: Game, number: int, time_limit: float | None, node_limit: int | None) -> DealOutcome:
    """Deal ``number`` of ``game`` and solve it (every win replayed by the rules engine)."""
    from .solvers import cpu_seconds, solve

    started = cpu_seconds()
    solution = solve(game.deal(number), time_limit=time_limit, node_limit=node_limit)
    seconds = cpu_seconds() - started
    nodes = solution.stats.get("nodes")
    return DealOutcome(number, solution.status, round(seconds, 4),
                       len(solution.moves) if solution.status == "won" else None,
                       nodes if isinstance(nodes, int) else None,
                       str(solution.stats.get("reason")) if solution.status == "lost" else None)


# Worker processes build their game once (a game is given to them by name and options).
_worker_game: Game | None = None


def _start_worker(name: str, options: dict[str, Any]) -> None:
    global _worker_game
    _worker_game = get_game(name, **options)


def _solve_in_worker(number: int, time_limit: float | None, node_limit: int | None) -> DealOutcome:
    assert _worker_game is not None, "the worker was started without its game"
    return solve_deal(_worker_game, number, time_limit, node_limit)


# -- the survey -----------------------------------------------------------------------------------


@dataclass
class SurveyReport:
    """The outcomes of a survey so far, and its figures."""

    game: str
    options: dict[str, Any]
    time_limit: float | None
    node_limit: int | None
    outcomes: dict[int, DealOutcome] = field(default_factory=dict)
    #: Wall seconds of this run (deals read back from a results file cost none).
    wall_seconds: float = 0.0

    def add(self, outcome: DealOutcome) -> None:
        self.outcomes[outcome.number] = outcome

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes.values() if o.status == status)

    def numbers(self, status: str) -> list[int]:
        return sorted(o.number for o in self.outcomes.values() if o.status == status)

    def win_rate(self) -> tuple[float, float, float] | None:
        """The share of deals won and its 95% Wilson interval, or ``None`` before any deal.

        Deals not decided (``unknown``) count as not won: the rate is a lower estimate."""
        n = len(self.outcomes)
        if n == 0:
            return None
        won = self.count("won")
        p, z = won / n, 1.959963984540054
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        # (exactly 0 for no win and 1 for all won: rounding must not put the share outside)
        return p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))

    def seconds(self) -> dict[str, float]:
        values = sorted(o.seconds for o in self.outcomes.values())
        if not values:
            return {}
        return {"median": statistics.median(values), "p95": values[min(len(values) - 1, int(0.95 * len(values)))],
                "max": values[-1], "total": sum(values)}

    def to_json(self) -> dict[str, Any]:
        rate = self.win_rate()
        return {"game": self.game, "options": self.options, "time_limit": self.time_limit,
                "node_limit": self.node_limit, "deals": len(self.outcomes),
                **{status: self.count(status) for status in STATUSES},
                "win_rate": None if rate is None else {"share": rate[0], "low": rate[1], "high": rate[2]},
                "cpu_seconds": self.seconds(), "wall_seconds": round(self.wall_seconds, 3),
                "lost_deals": [{"number": n, "reason": self.outcomes[n].reason} for n in self.numbers("lost")],
                "unknown_deals": self.numbers("unknown")}

    def summary(self) -> str:
        n = len(self.outcomes)
        rate = self.win_rate()
        if rate is None:
            return f"{self.game}: no deal surveyed"
        share, low, high = rate
        figures = self.seconds()
        return (f"{self.game}: {self.count('won')} of {n} deals won ({100 * share:.2f}%, 95% interval "
                f"{100 * low:.2f}-{100 * high:.2f}%), {self.count('lost')} proved lost, {self.count('unknown')} "
                f"not decided within the limits; CPU seconds a deal: median {figures['median']:.3f}, "
                f"p95 {figures['p95']:.3f}, max {figures['max']:.3f}")


class SurveyFile:
    """A survey's results as JSON lines: a first line saying what was surveyed, then a line a deal.

    Lines are appended and flushed as deals are decided, so an interrupted survey loses nothing
    and resumes from the file; a file of another game, options or limits is refused."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def read(self, header: dict[str, Any]) -> dict[int, DealOutcome]:
        """The outcomes already in the file (none if it does not exist), after checking its header."""
        if not self.path.exists():
            return {}
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise SurveyError(f"cannot read {self.path}: {exc}") from None
        if not lines:
            return {}
        outcomes: dict[int, DealOutcome] = {}
        for i, line in enumerate(lines, 1):
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                if i == len(lines):  # a last line cut short by an interruption: solve that deal again
                    break
                raise SurveyError(f"{self.path}, line {i}: not JSON ({exc})") from None
            if i == 1:
                found = data.get("survey") if isinstance(data, dict) else None
                if found != header:
                    raise SurveyError(f"{self.path} holds a survey of {found!r}, not of {header!r}: "
                                      "give another file, or the same game, options and limits")
                continue
            try:
                outcome = DealOutcome.from_json(data)
            except SurveyError as exc:
                raise SurveyError(f"{self.path}, line {i}: {exc}") from None
            outcomes[outcome.number] = outcome
        return outcomes

    def open(self, header: dict[str, Any]) -> Callable[[DealOutcome], None]:
        """Start appending (writing the header to a new or empty file); returns the writer of a deal."""
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        with self.path.open("a", encoding="utf-8") as handle:
            if fresh:
                handle.write(json.dumps({"survey": header}) + "\n")
            elif not self.path.read_text(encoding="utf-8").endswith("\n"):
                handle.write("\n")  # drop a line cut short (it was not read back either)

        def write(outcome: DealOutcome) -> None:
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(outcome.to_json()) + "\n")

        return write


def run_survey(game: Game, deals: Iterable[int], *, time_limit: float | None = 10.0, node_limit: int | None = None,
               jobs: int = 1, results: SurveyFile | None = None,
               on_outcome: Callable[[DealOutcome], None] | None = None) -> SurveyReport:
    """Solve every deal of ``deals`` not already in ``results``; ``on_outcome`` hears of each as it is decided.

    ``jobs`` worker processes solve deals side by side (1: in this process). The figures of the
    report cover the deals of ``deals`` only, those read back from ``results`` included."""
    if jobs < 1:
        raise SurveyError(f"jobs must be 1 or more, not {jobs}")
    if time_limit is None and node_limit is None:
        raise SurveyError("a survey needs a time limit or a node limit a deal (or a deal could run for ever)")
    options = dict(game.options)
    report = SurveyReport(game.name, options, time_limit, node_limit)
    header = {"game": game.name, "options": options, "time_limit": time_limit, "node_limit": node_limit}
    known = results.read(header) if results is not None else {}
    write = results.open(header) if results is not None else None

    def record(outcome: DealOutcome) -> None:
        report.add(outcome)
        if write is not None:
            write(outcome)
        if on_outcome is not None:
            on_outcome(outcome)

    def unknown_yet() -> Iterator[int]:
        """The deals still to solve, walked lazily (a range of millions is never a list)."""
        for number in deals:
            if number in known:
                report.add(known[number])
            else:
                yield number

    todo = unknown_yet()
    started = time.perf_counter()
    try:
        if jobs == 1:
            for number in todo:
                record(solve_deal(game, number, time_limit, node_limit))
        else:
            _run_pool(game.name, options, todo, time_limit, node_limit, jobs, record)
    finally:
        report.wall_seconds = time.perf_counter() - started
    return report


def _run_pool(name: str, options: dict[str, Any], todo: Iterable[int], time_limit: float | None,
              node_limit: int | None, jobs: int, record: Callable[[DealOutcome], None]) -> None:
    """Solve ``todo`` in ``jobs`` processes, at most ``4 * jobs`` deals in flight."""
    numbers = iter(todo)
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(name, options)) as pool:
        running: set[Future[DealOutcome]] = set()
        try:
            while True:
                for number in numbers:
                    running.add(pool.submit(_solve_in_worker, number, time_limit, node_limit))
                    if len(running) >= 4 * jobs:
                        break
                if not running:
                    return
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    record(future.result())
        except BaseException:
            for future in running:
                future.cancel()
            raise
