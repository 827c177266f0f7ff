"""The command line: ``amber`` (also ``python -m amber_patience``).

Commands (see ``docs/cli.md``): ``deal``, ``moves``, ``play``, ``verify``, ``solve``, ``hint``,
``survey`` and ``serve``; ``amber`` alone starts the local server. Exit status: 0 success, 1 the thing asked for is
not so (no win found, a record with an illegal move or not won), 2 a usage error or unreadable input.
Every error is one line on stderr saying what is wrong, never a traceback.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import importlib.util
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

from . import __version__
from .games import GAME_NAMES, get_game, position_from_json
from .games.base import Game, GameError, Move, Position
from .records import RecordError, parse_record, replay, write_record

#: The largest deal number drawn at random.
RANDOM_DEAL_LIMIT = 2**31 - 1
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


class UsageError(Exception):
    """A user error: the message is printed and the command exits with ``status``."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class NotFound(UsageError):
    """The thing asked for is not so (exit status 1)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 1)


# -- helpers -------------------------------------------------------------------------------------


def parse_option_value(text: str) -> Any:
    """``--option`` values: whole numbers, ``yes``/``no`` (also true/false, on/off), else the text."""
    lowered = text.strip().lower()
    if re.fullmatch(r"[+-]?[0-9]+", lowered):
        return int(lowered)
    if lowered in ("yes", "true", "on"):
        return True
    if lowered in ("no", "false", "off"):
        return False
    return text.strip()


def parse_options(items: Sequence[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise UsageError(f"--option {item!r}: write it as key=value, e.g. --option passes=3")
        if key in options:
            raise UsageError(f"--option {key} is given twice")
        options[key] = parse_option_value(value)
    return options


def make_game(args: argparse.Namespace) -> Game:
    try:
        return get_game(args.game, **parse_options(args.option))
    except GameError as exc:
        raise UsageError(str(exc)) from None


def setup_from(args: argparse.Namespace) -> dict[str, str]:
    setup: dict[str, str] = {}
    for item in getattr(args, "setup", None) or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--setup {item!r}: write it as Name=value, e.g. --setup Start=Rs")
        setup[key.strip()] = value.strip()
    if getattr(args, "start", None):
        setup["Start"] = args.start
    if getattr(args, "second_start", None) is not None:
        setup["SecondStart"] = args.second_start
    return setup


def deal_position(game: Game, number: int, setup: dict[str, str]) -> Position:
    try:
        return game.deal(number, setup or None)
    except (GameError, ValueError) as exc:
        raise UsageError(f"{game.name} deal {number}: {exc}") from None


def pick_number(args: argparse.Namespace, err: TextIO) -> int:
    if args.number is not None:
        if args.number < 0:
            raise UsageError(f"--number must be a deal number, 0 or more (got {args.number})")
        return int(args.number)
    number = random.randint(1, RANDOM_DEAL_LIMIT)
    print(f"random deal number: {number}", file=err)
    return number


def read_position(stdin: TextIO, what: str = "a position JSON") -> Position:
    text = stdin.read()
    if not text.strip():
        raise UsageError(f"expected {what} on standard input, got nothing")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"standard input is not valid JSON: {exc}") from None
    try:
        return position_from_json(data)
    except GameError as exc:
        raise UsageError(f"the position on standard input cannot be read: {exc}") from None


@contextmanager
def needs_solver(position: Position) -> Iterator[None]:
    """Turn "the game's family has no solver module" into a plain message (exit status 1)."""
    from . import solvers

    family = position.game.family
    try:
        yield
    except ModuleNotFoundError as exc:
        if exc.name == f"{solvers.__name__}.{family}":
            raise NotFound(f"there is no solver for {position.game.name} yet (no module solvers/{family}.py)") from None
        raise


def run_solver(position: Position, time_limit: float | None, node_limit: int | None = None,
               length_seconds: float | None = None) -> Any:
    """``solvers.solve``, with a plain message when the game's family has no solver yet."""
    from . import solvers

    with needs_solver(position):
        return solvers.solve(position, time_limit=time_limit, node_limit=node_limit, length_seconds=length_seconds)


def move_json(position: Position, move: Move) -> dict[str, Any]:
    return {"move": move.to_json(), "text": position.move_text(move), "description": position.describe_move(move)}


def dump_json(data: Any, out: TextIO) -> None:
    out.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def solution_length_info(position: Position, solution: Any) -> dict[str, Any]:
    from .solvers.levels import difficulty_info

    info: dict[str, Any] = {}
    stats = dict(solution.stats or {})
    if "difficulty" in stats:
        info["difficulty"] = stats["difficulty"]
        if solution.status == "won":
            level = difficulty_info(position.game, int(stats["difficulty"]))["level"]
            if level is not None:
                info["level"] = level
    if solution.status == "won":
        info["solution_length"] = len(solution.moves)
    bound = stats.get("lower_bound")
    if bound is None and hasattr(position, "lower_bound"):
        try:
            bound = position.lower_bound()
        except Exception:
            bound = None
    if bound is not None:
        info["lower_bound"] = bound
    info["status"] = solution.status
    return info


# -- commands ------------------------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    from .solvers import levels

    game = make_game(args)
    setup = setup_from(args)
    number = pick_number(args, err)
    position = deal_position(game, number, setup)
    solution = None
    level = "winnable" if args.winnable and args.level is None else args.level
    if level is not None:
        easy_cap = levels.node_limit_for(level, levels.bands_for(game))

        def tried(n: int, solution: Any) -> None:
            if solution is not None and solution.status == "unknown" and easy_cap is not None \
                    and solution.stats.get("nodes", 0) >= easy_cap:
                said = f"not won within {easy_cap} states: not easy"
            elif solution is None or solution.status != "won":
                said = "proved lost" if solution is not None and solution.status == "lost" else "no win found in time"
            else:
                figure = solution.stats.get("difficulty")
                said = f"won, difficulty {figure} ({levels.difficulty_info(game, figure)['level']}): not {level}"
            print(f"deal {n}: {said}", file=err)

        try:
            with needs_solver(position):
                # a hard deal at random: the bands' hard deals first, as the web server does
                first = levels.hard_deals_first(game) if level == "hard" and args.number is None else []
                found = levels.find_deal(game, number, level=level, tries=args.tries, time_limit=args.time_limit,
                                         setup=setup, solve=run_solver, on_try=tried, first=first)
        except levels.NoBandsError as exc:
            raise UsageError(str(exc)) from None
        except levels.DealNotFound as exc:
            where = f"the calibration's {len(first)} hard deals, then from {number}" if first else f"from {number}"
            raise NotFound(f"no {level} deal found in {exc.tried} deals ({where}); "
                           "try more with --tries or a longer --time-limit") from None
        number, position, solution = found.number, found.position, found.solution
        band = f", {found.band}" if found.band is not None else ""
        print(f"deal {number} is {level} (the solver won it in {len(solution.moves)} moves; "
              f"difficulty {found.figure}{band})", file=err)
    difficulty = None
    if args.difficulty:
        if solution is None:
            solution = run_solver(position, args.time_limit)
        difficulty = solution_length_info(position, solution)
    if args.json:
        data = position.to_json()
        if difficulty is not None:
            data["difficulty"] = difficulty
        dump_json(data, out)
    else:
        print(position.to_text(), file=out)
        if difficulty is not None:
            print("difficulty: " + ", ".join(f"{k} {v}" for k, v in difficulty.items()), file=out)
    return 0


def cmd_moves(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    position = read_position(stdin)
    moves = position.legal_moves()
    data = {"moves": [m.to_json() for m in moves], "texts": [position.move_text(m) for m in moves]}
    out.write(json.dumps(data, ensure_ascii=False) + "\n")
    return 0


def proved_lost(solution: Any) -> str:
    """What to say of a position the solver proved lost (with the rule's reason, if it gave one)."""
    reason = solution.stats.get("reason")
    return "the solver proved that this position cannot be won" + (f": {reason}" if reason else "")


def line_cache(db: str | None, err: TextIO) -> Any:
    """The winning lines kept in the store (``--db``, ``$AMBER_PATIENCE_DB`` or the user's data
    directory), so that a hint along a line found before is instant; in memory only (with a
    warning) if the store cannot be used."""
    from .solvers.lines import LineCache
    from .store import Store, StoreError

    try:
        return LineCache(Store(db))
    except StoreError as exc:
        print(f"amber: warning: winning lines are not kept: {exc}", file=err)
        return LineCache()


def find_line(position: Position, seconds: float | None, cache: Any, *, quick: bool = False) -> Any:
    """:func:`amber_patience.solvers.lines.winning_line`, with a plain message when the game's family
    has no solver yet (``quick``: a hint's quick line will do)."""
    from .solvers.lines import winning_line

    with needs_solver(position):
        return winning_line(position, seconds, cache, quick=quick)


def cmd_hint(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    position = read_position(stdin)
    if position.is_won():
        raise NotFound("the game is already won: there is no move to hint")
    answer = find_line(position, args.time_limit, line_cache(args.db, err), quick=True)
    if answer.status != "won" or not answer.moves:
        dump_json({"move": None, "status": answer.status}, out)
        raise NotFound(answer.detail or "no winning line found")
    dump_json(move_json(position, answer.moves[0]), out)
    out.flush()
    if answer.finish is not None:
        answer.finish()  # the hint is out; the line is shortened whole and kept for the next hint
    return 0


def cmd_solve(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    if args.game == "-":
        if args.number is not None or args.option or setup_from(args):
            raise UsageError("solve -: the position on standard input says its game, deal and options; "
                             "do not give --number, --option or a setup")
        position = read_position(stdin)
    else:
        game = make_game(args)
        position = deal_position(game, pick_number(args, err), setup_from(args))
    if args.length_seconds is not None:
        from .solvers import LENGTH_FAMILIES

        if position.game.family not in LENGTH_FAMILIES:
            raise UsageError(f"--length-seconds: the {position.game.name} solver spends no time on a shorter line "
                             "(only the Amber layouts' does)")
        if args.length_seconds >= args.time_limit:
            raise UsageError(f"--length-seconds {args.length_seconds:g} must be less than --time-limit "
                             f"({args.time_limit:g} s), which stops the search for a shorter line too")
    solution = run_solver(position, args.time_limit, args.node_limit, args.length_seconds)
    record = None
    if solution.status == "won":
        record = write_record(position, solution.moves, {"Solver": f"amber-patience {__version__}"})
    if args.json:
        dump_json({"status": solution.status, "moves": [m.to_json() for m in solution.moves],
                   "stats": solution.stats, "record": record}, out)
    elif record is not None:
        out.write(record)
    if record is None:
        raise NotFound(proved_lost(solution) if solution.status == "lost"
                       else f"no win found within the limits (--time-limit {args.time_limit})")
    return 0


def cmd_survey(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    from .survey import DealRange, SurveyError, SurveyFile, run_survey

    game = make_game(args)
    try:
        deals = DealRange.parse(args.deals)
    except SurveyError as exc:
        raise UsageError(f"--deals: {exc}") from None
    if importlib.util.find_spec(f"amber_patience.solvers.{game.family}") is None:
        raise NotFound(f"there is no solver for {game.name} yet (no module solvers/{game.family}.py)")
    limits = f"time limit {args.time_limit:g} s" + (f", node limit {args.node_limit}" if args.node_limit else "")
    print(f"{game.name}: surveying deals {deals} ({len(deals)}), {limits} a deal, {args.jobs} process(es)",
          file=err, flush=True)
    decided = 0

    def heard(outcome: Any) -> None:
        nonlocal decided
        decided += 1
        if outcome.status == "lost" and not args.quiet:
            print(f"  deal {outcome.number}: proved lost: {outcome.reason}", file=err, flush=True)
        elif outcome.status == "unknown" and not args.quiet:
            print(f"  deal {outcome.number}: not decided in {outcome.seconds:.1f} s CPU ({outcome.nodes} nodes)",
                  file=err, flush=True)
        if args.progress and decided % args.progress == 0:
            print(f"  {decided} deals decided in this run", file=err, flush=True)

    try:
        report = run_survey(game, deals, time_limit=args.time_limit, node_limit=args.node_limit, jobs=args.jobs,
                            results=SurveyFile(args.out) if args.out else None, on_outcome=heard)
    except SurveyError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        raise UsageError("interrupted" + (f"; the deals decided so far are in {args.out}: run the same command "
                                          "again to go on" if args.out else "")) from None
    if args.json:
        dump_json(report.to_json(), out)
    else:
        out.write(report.summary() + "\n")
        for number in report.numbers("lost"):
            out.write(f"  lost: deal {number}: {report.outcomes[number].reason}\n")
        unknown = report.numbers("unknown")
        if unknown:
            out.write(f"  not decided: {' '.join(map(str, unknown))}\n")
    return 0


def cmd_verify(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    name = args.file
    try:
        text = stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {name}: {exc}") from None
    try:
        record = parse_record(text)
    except RecordError as exc:
        raise UsageError(f"{name}: not a valid record: {exc}") from None
    result = replay(record)
    game = record.game
    practice = " (a practice game, never counted as a win)" if record.practice else ""
    claimed = record.tags.get("Result")
    if result.illegal is not None:
        print(f"{name}: {game.name}: {result.illegal}", file=out)
        print(f"{result.played} of {result.total} moves are legal before it.", file=out)
        return 1
    print(f"{name}: {game.name}: all {result.total} moves are legal.", file=out)
    if claimed is not None and claimed != result.result:
        print(f"note: the record says Result {claimed!r}, but the replay ends {result.result}.", file=out)
    if result.result == "won":
        print(f"The game is won{practice}.", file=out)
        return 0
    detail = ", ".join(f"{k} {v}" for k, v in result.final.result().items() if k != "won")
    print(f"The game is not won: it is {result.result}{' (' + detail + ')' if detail else ''}.", file=out)
    return 1


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    try:
        server = importlib.import_module("amber_patience.web.server")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("amber_patience.web"):
            raise NotFound("the web server (amber_patience.web.server) is not installed") from None
        raise
    server.serve(host=args.host, port=args.port, open_browser=not args.no_browser, db_path=args.db)
    return 0


# -- play ----------------------------------------------------------------------------------------

PLAY_HELP = """\
Type a move in the game's notation (for the Amber layouts two cards, Vc-T16, or two cell ids, 12-40),
or one of these commands:
  moves        list the legal moves
  hint         ask the solver for the next move of a winning line
  show         show the position again
  save FILE    save the game record to FILE
  undo         take back the last move (practice games only: amber play --practice)
  help         this text
  quit         end the game (it is saved if --save was given)"""


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


class PlaySession:
    """An interactive game on a terminal (or with moves piped to standard input)."""

    def __init__(self, start: Position, out: TextIO, stdin: TextIO, *, practice: bool, hint_time: float,
                 save: str | None, player: str | None, lines: Any = None, analysis: bool | None = None) -> None:
        from .solvers.lines import Analyst, LineCache

        self.start = start
        #: Winning lines found by hints (a hint along one is instant).
        self.lines = lines if lines is not None else LineCache()
        self.position = start
        self.moves: list[Move] = []
        self.history: list[Position] = [start]
        self.out = out
        self.stdin = stdin
        self.practice = practice
        self.hint_time = hint_time
        self.save_path = save
        self.player = player
        self.interactive = bool(getattr(stdin, "isatty", lambda: False)())
        self.date = datetime.datetime.now(datetime.UTC).strftime("%Y.%m.%d")
        #: Looks for a winning line from each position the game reaches while the player thinks, as the web
        #: server does, so that a hint is usually ready when asked (``analysis``: by default only on a terminal,
        #: where there is time to think; each search at most ``hint_time`` seconds).
        on = self.interactive if analysis is None else analysis
        self.analyst: Analyst | None = Analyst(self.lines, hint_time) if on else None

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def record_text(self) -> str:
        tags = {"Date": self.date}
        if self.player:
            tags["Player"] = self.player
        if self.practice:
            tags["Practice"] = "yes"
        return write_record(self.start, self.moves, tags)

    def save(self, path: str) -> bool:
        try:
            Path(path).write_text(self.record_text(), encoding="utf-8")
        except OSError as exc:
            self.say(f"Cannot save to {path}: {exc}")
            return False
        self.say(f"Saved the game record to {path}.")
        return True

    def show(self) -> None:
        self.say(self.position.to_text())

    def run(self) -> int:
        self.show()
        self.say('Type a move, or "help".')
        status = 0
        try:
            status = self._loop()
        finally:
            if self.analyst is not None:
                self.analyst.close()  # a search that runs ends within its time; its line is kept
        if self.save_path:
            self.save(self.save_path)
        return status

    def _loop(self) -> int:
        status = 0
        while True:
            if self.analyst is not None:
                self.analyst.show(self.position)  # nothing to do for a game over or a position whose line is known
            if self.position.is_won():
                self.say(f"You won in {_moves(len(self.moves))}!" + (" (practice game)" if self.practice else ""))
                break
            if self.position.is_lost():
                self.say(f"The game is lost: {self.position.lost_reason()}.")
                status = 1
                break
            line = self.read_line("move> ")
            if not line:
                self.say("")
                self.say("End of input: the game stops here, unfinished.")
                break
            command = line.strip()
            if not self.interactive:
                self.say(command)  # echo piped input, so that the transcript reads like a session
            if not command or command.startswith("#"):
                continue
            if not self.handle(command):
                break
        return status

    def read_line(self, prompt: str) -> str:
        """The next line ("" at the end of the input); on a terminal with line editing."""
        if self.interactive and self.stdin is sys.stdin and self.out is sys.stdout:
            try:
                return input(prompt) + "\n"
            except EOFError:
                return ""
        self.out.write(prompt)
        self.out.flush()
        return self.stdin.readline()

    def handle(self, command: str) -> bool:
        """Act on one line; return False to end the game."""
        word, _, rest = command.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q"):
            self.say(f"Game ended after {_moves(len(self.moves))}, unfinished.")
            return False
        if word in ("help", "?"):
            self.say(PLAY_HELP)
        elif word == "show":
            self.show()
        elif word == "moves":
            moves = self.position.legal_moves()
            self.say(f"{len(moves)} legal moves: " + " ".join(self.position.move_text(m) for m in moves))
        elif word == "hint":
            self.hint()
        elif word == "save":
            if not rest.strip():
                self.say("Say where to save: save FILE")
            else:
                self.save(rest.strip())
        elif word == "undo":
            if not self.practice:
                self.say("The rules allow no undo. Start a practice game (amber play --practice) to use undo.")
            elif not self.moves:
                self.say("There is no move to take back.")
            else:
                self.moves.pop()
                self.history.pop()
                self.position = self.history[-1]
                self.say("Took back the last move.")
                self.show()
        else:
            self.play(command)
        return True

    def hint(self) -> None:
        seconds = self.hint_time
        if self.analyst is not None:
            # the analyst may be looking at this very position: wait for its line rather than search twice
            started = time.monotonic()
            if self.analyst.wait(self.position, seconds):
                seconds = max(seconds - (time.monotonic() - started), 0.05)
        try:
            answer = find_line(self.position, seconds, self.lines, quick=True)
        except NotFound as exc:
            self.say(f"No hint: {exc}.")
            return
        if answer.status == "won" and answer.moves:
            move = answer.moves[0]
            self.out.write(f"Hint: {self.position.move_text(move)} — {self.position.describe_move(move)} ")
            self.out.flush()  # at once: a quick line is shortened whole before its length is said
            line = answer.moves if answer.finish is None else answer.finish()
            if line[0] != move:  # the whole line begins otherwise: say the length of the one kept through the hint
                through = self.lines.get(self.position.play(move))
                line = [move, *through] if through else answer.moves
            self.say(f"(a winning line of {len(line)} moves)")
        else:
            self.say(f"No hint: {answer.detail}.")

    def play(self, text: str) -> None:
        try:
            move = self.position.parse_move(text)
        except GameError as exc:
            self.say(f"Cannot read {text!r}: {exc}. Type \"help\" for help.")
            return
        try:
            new = self.position.play(move)
        except GameError as exc:
            reason = str(exc)
            if not reason.lower().startswith("illegal"):
                reason = f"Illegal move: {reason}"
            self.say(f"{reason[0].upper()}{reason[1:]}. The position is unchanged.")
            return
        description = self.position.describe_move(move)
        self.moves.append(move)
        self.position = new
        self.history.append(new)
        self.say(f"{len(self.moves)}. {description}")
        self.show()


def cmd_play(args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    game = make_game(args)
    position = deal_position(game, pick_number(args, err), setup_from(args))
    session = PlaySession(position, out, stdin, practice=args.practice, hint_time=args.time_limit,
                          save=args.save, player=args.player, lines=line_cache(args.db, err),
                          analysis=False if args.no_analysis else None)
    return session.run()


# -- the parser ----------------------------------------------------------------------------------


DB_HELP = ("the SQLite file that keeps the winning lines found, so that a hint along one is instant "
           "(default: $AMBER_PATIENCE_DB or the user's data directory; the same file as amber serve's)")


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a time limit must be more than 0 seconds, not {text}")
    return value


def _deal_number(text: str) -> int:
    if not re.fullmatch(r"[0-9]+", text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal number (a whole number, 0 or more)")
    return int(text)


def _positive_int(text: str) -> int:
    if not re.fullmatch(r"[0-9]+", text.strip()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number, 1 or more")
    return int(text)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def _game_args(parser: argparse.ArgumentParser, *, allow_stdin: bool = False) -> None:
    names = ", ".join(GAME_NAMES)
    parser.add_argument("game", metavar="GAME",
                        help=f"the game: {names}" + ("; or - to read a position JSON on stdin" if allow_stdin else ""))
    parser.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                        help="a game option (repeatable), e.g. passes=3, relaxed=yes, passes=unlimited")
    parser.add_argument("--number", "-n", type=_deal_number, metavar="N",
                        help="the deal number (default: a random one, which is printed on stderr)")
    parser.add_argument("--start", metavar="CARDS", help='choose the start card(s), e.g. "Rs" or "T11 Rs"')
    parser.add_argument("--second-start", metavar="CELL",
                        help="Forest of Arden: the cell id where the second start card stands")
    parser.add_argument("--setup", action="append", metavar="NAME=VALUE",
                        help="any setup choice of the game, as in a record's setup tags (repeatable)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="amber", description="Amber Patience: patience games with a solver behind every game. "
                                                "Without a command, starts the local server.")
    parser.add_argument("--version", action="version", version=f"amber-patience {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("deal", help="deal a game and show it (text, or --json)")
    _game_args(p)
    p.add_argument("--json", action="store_true", help="print the position as JSON")
    p.add_argument("--winnable", action="store_true",
                   help="take the first deal from N on that the solver proves winnable (the same as --level winnable)")
    p.add_argument("--level", choices=["winnable", "easy", "hard"],
                   help="take the first deal from N on that the solver wins as a deal of this level (easy, hard: "
                        "the Amber layouts' difficulty bands, docs/solver.md)")
    p.add_argument("--difficulty", action="store_true", help="add the solver's difficulty figures")
    p.add_argument("--time-limit", type=_non_negative_float, default=10.0, metavar="S",
                   help="solver time limit a deal, in seconds (default 10)")
    p.add_argument("--tries", type=_positive_int, default=100,
                   help="--winnable, --level: deals to try at most (default 100)")
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser("moves", help="list the legal moves of a position JSON read on stdin")
    p.set_defaults(run=cmd_moves)

    p = sub.add_parser("play", help="play a game on the terminal")
    _game_args(p)
    p.add_argument("--save", metavar="FILE", help="save the game record to FILE when the game ends")
    p.add_argument("--practice", action="store_true", help="practice game: undo allowed, never counted as a win")
    p.add_argument("--player", metavar="NAME", help="the player's name, for the record")
    p.add_argument("--time-limit", type=_non_negative_float, default=5.0, metavar="S",
                   help="time the solver may take for a hint (default 5 s)")
    p.add_argument("--no-analysis", action="store_true",
                   help="do not look for a winning line in the background while you think (on a terminal the "
                        "solver does, so that a hint is usually ready when you ask)")
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("verify", help="replay a game record: exit 0 only if every move is legal and the game won")
    p.add_argument("file", metavar="FILE", help="the record (- for stdin)")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("solve", help="solve a deal (or a position JSON on stdin with -) and print a winning record")
    _game_args(p, allow_stdin=True)
    p.add_argument("--json", action="store_true", help="print status, moves, stats and record as JSON")
    p.add_argument("--time-limit", type=_non_negative_float, default=30.0, metavar="S",
                   help="solver time limit in seconds (default 30)")
    p.add_argument("--node-limit", type=_positive_int, metavar="N", help="solver node limit")
    p.add_argument("--length-seconds", type=_non_negative_float, metavar="S",
                   help="Amber layouts: look for a shorter line until S seconds after the start (default 0.7; "
                        "Pattern of Amber's lines come out shorter with more, e.g. 5 or 20)")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("survey", help="solve a range of deals and count how many are won (the win rate)")
    p.add_argument("game", metavar="GAME", help=f"the game: {', '.join(GAME_NAMES)}")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    p.add_argument("--deals", "-d", required=True, metavar="RANGE", help='the deal numbers, e.g. "1-1000" or "1-10,42"')
    p.add_argument("--time-limit", type=_non_negative_float, default=10.0, metavar="S",
                   help="solver time limit a deal, in seconds (default 10)")
    p.add_argument("--node-limit", type=_positive_int, metavar="N", help="solver node limit a deal")
    p.add_argument("--jobs", "-j", type=_positive_int, default=1, metavar="J",
                   help="worker processes solving deals side by side (default 1)")
    p.add_argument("--out", metavar="FILE", help="append each deal's result to FILE (JSON lines) as it is decided; "
                                                 "a survey run again with the same FILE resumes where it stopped")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--progress", type=_positive_int, metavar="K", help="say on stderr every K deals decided")
    p.add_argument("--quiet", "-q", action="store_true", help="do not list lost and undecided deals as they come")
    p.set_defaults(run=cmd_survey)

    p = sub.add_parser("hint", help="the next move of a winning line for a position JSON read on stdin")
    p.add_argument("--time-limit", type=_non_negative_float, default=5.0, metavar="S",
                   help="solver time limit in seconds (default 5)")
    p.add_argument("--db", metavar="FILE", help=DB_HELP)
    p.set_defaults(run=cmd_hint)

    p = sub.add_parser("serve", help="start the local web server and open the browser")
    _serve_args(p)
    p.set_defaults(run=cmd_serve)
    return parser


def _serve_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--db", metavar="FILE", help="the SQLite file for saved games and statistics")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (``amber`` exits with it)."""
    out, err, stdin = sys.stdout, sys.stderr, sys.stdin
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        if not args_list:
            args = argparse.Namespace(host=DEFAULT_HOST, port=DEFAULT_PORT, no_browser=False, db=None)
            return cmd_serve(args, out, err, stdin)
        args = parser.parse_args(args_list)
        if args.command is None:
            parser.print_help(out)
            return 2
        run: Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int] = args.run
        return run(args, out, err, stdin)
    except UsageError as exc:
        print(f"amber: {exc}", file=err)
        return exc.status
    except GameError as exc:
        print(f"amber: {exc}", file=err)
        return 2
    except KeyboardInterrupt:
        print("amber: interrupted", file=err)
        return 130
    except BrokenPipeError:
        return 1
    except SystemExit as exc:  # argparse's --help and --version; the server's "cannot listen on …"
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(f"amber: {exc.code}", file=err)
        return 1
