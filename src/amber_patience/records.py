"""Game records: a plain-text format to read, mail and share, in the spirit of chess's PGN.

A record is a block of tag lines, then the moves::

    [Game "path-36"]
    [Deal "17"]
    [Start "8s"]
    [Result "won"]

    1. 7h-8h 2. Qs-Jc { a comment } 3. 10d-9d ; a comment to the end of the line

The format is written out in ``docs/records.md``. It is generic: it uses the game API only
(:meth:`Game.deal`, :meth:`Position.move_text`, :meth:`Position.parse_move`, :meth:`Position.play`,
JSON), so every game of the collection can be recorded.

* :func:`write_record` turns a start position and its moves into text;
* :func:`parse_record` reads text into a :class:`Record` (or raises :class:`RecordError`, which says
  what is wrong and on which line);
* :func:`replay` plays a record through the rules and says whether every move is legal (if not,
  which is the first illegal one and why) and whether the game is won.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .games import get_game
from .games.base import Game, GameError, MalformedError, Move, Position

__all__ = [
    "INFO_TAGS", "RESULTS", "IllegalMove", "Record", "RecordError", "ReplayResult",
    "decode_options", "encode_options", "parse_record", "replay", "write_record",
]

#: Tags that describe the record; every other tag is part of the deal's setup
#: (the player's choices before play, e.g. ``Start``), passed to :meth:`Game.deal`.
INFO_TAGS: tuple[str, ...] = (
    "Game", "Options", "Deal", "Position", "Date", "Time", "Player", "Result", "Practice",
    "Event", "Site", "Annotator", "Solver", "Note",
)
#: The values of the ``Result`` tag.
RESULTS: tuple[str, ...] = ("won", "lost", "unfinished")

_LINE_WIDTH = 80
_TAG_LINE = re.compile(r'^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_JSON_TAG_LINE = re.compile(r"^\[\s*([A-Za-z][A-Za-z0-9_]*)\s+(\{.*\})\s*\]\s*$")
_TAG_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_MOVE_NUMBER = re.compile(r"^(\d+)\.(.*)$")
_INT = re.compile(r"^[+-]?\d+$")
_PLAIN_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:/+-]*$")


class RecordError(MalformedError):
    """A record that cannot be read; the message says what is wrong and on which line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


# -- options -------------------------------------------------------------------------------------


def _encode_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and _PLAIN_WORD.match(value) and value not in ("yes", "no", "null"):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_options(options: Mapping[str, Any]) -> str:
    """Options as readable text, e.g. ``passes=3 relaxed=yes``.

    Values: ``yes``/``no`` for true/false, whole numbers as digits, a plain word as itself
    (``passes=unlimited``), anything else (text with spaces, floats, null, lists) as JSON.
    """
    parts = []
    for key, value in options.items():
        if not _TAG_NAME.match(key):
            raise GameError(f"option name {key!r} cannot be written in a record (use letters, digits, _)")
        parts.append(f"{key}={_encode_value(value)}")
    return " ".join(parts)


def _decode_value(text: str) -> Any:
    if text == "yes":
        return True
    if text == "no":
        return False
    if _INT.match(text):
        return int(text)
    if _PLAIN_WORD.match(text) and text != "null":
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise MalformedError(f"option value {text!r} is neither a plain word, a number, yes/no nor JSON") from None


def decode_options(text: str) -> dict[str, Any]:
    """The options that :func:`encode_options` wrote (a JSON object is accepted too)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MalformedError(f"options are not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise MalformedError("options in JSON must be an object")
        return data
    options: dict[str, Any] = {}
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        match = re.compile(r"([A-Za-z][A-Za-z0-9_]*)=").match(text, i)
        if not match:
            raise MalformedError(f"options must be written key=value, separated by spaces (at {text[i:]!r})")
        key = match.group(1)
        i = match.end()
        if i < len(text) and text[i] in '"[{':
            try:
                value, i = decoder.raw_decode(text, i)
            except json.JSONDecodeError as exc:
                raise MalformedError(f"option {key}: the value is not valid JSON: {exc}") from None
        else:
            end = i
            while end < len(text) and not text[end].isspace():
                end += 1
            if end == i:
                raise MalformedError(f"option {key} has no value")
            value = _decode_value(text[i:end])
            i = end
        if key in options:
            raise MalformedError(f"option {key} is given twice")
        options[key] = value
    return options


# -- tags ----------------------------------------------------------------------------------------


def _quote(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise GameError("a tag value must fit on one line")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _same_position(a: Position, b: Position) -> bool:
    return a.to_json() == b.to_json()


def _result_of(position: Position) -> str:
    if position.is_won():
        return "won"
    if position.is_lost():
        return "lost"
    return "unfinished"


# -- writing -------------------------------------------------------------------------------------


def write_record(start: Position, moves: Sequence[Move], tags: Mapping[str, str] | None = None) -> str:
    """The record of a game played from ``start``; every move is checked by the rules.

    ``tags`` may hold the information tags (:data:`INFO_TAGS`: ``Date``, ``Player``, ``Practice``,
    ``Result``…); ``Game``, ``Options``, ``Deal``, ``Position`` and the setup tags come from
    ``start``. Without a ``Result`` tag the result of the replay is written (won, lost or
    unfinished). A numbered deal as dealt (with its setup) is written as ``Deal`` plus setup tags;
    any other start position as ``Position`` (its compact JSON).
    """
    tags = dict(tags or {})
    for name, value in tags.items():
        if name in ("Game", "Options", "Deal", "Position"):
            raise GameError(f"tag {name} comes from the start position; do not pass it")
        if name not in INFO_TAGS:
            raise GameError(f"{name} is not a record tag (the tags are: {', '.join(INFO_TAGS)}); "
                            "the setup tags come from the start position")
        if not isinstance(value, str):
            raise GameError(f"tag {name}: the value must be text, not {type(value).__name__}")
    if "Result" in tags and tags["Result"] not in RESULTS:
        raise GameError(f"Result must be one of {', '.join(RESULTS)}, not {tags['Result']!r}")

    game = start.game
    texts: list[str] = []
    position = start
    for number, move in enumerate(moves, 1):
        text = position.move_text(move)
        words = text.split()
        if (" ".join(words) != text or not words or text[0] == "[" or any(ch in text for ch in "{};")
                or any(_MOVE_NUMBER.match(word) for word in words)):
            raise GameError(f"move {number}: the notation {text!r} of {game.name} cannot be written in a record "
                            "(words separated by single spaces, no braces or ';', no word like a move number)")
        position = position.play(move)  # raises IllegalMoveError saying why
        texts.append(text)

    lines = [f"[Game {_quote(game.name)}]"]
    if game.options:
        lines.append(f"[Options {_quote(encode_options(game.options))}]")
    setup = dict(start.setup)
    numbered = start.deal_number is not None and _dealt_as(game, start.deal_number, setup, start)
    if numbered:
        lines.append(f"[Deal {_quote(str(start.deal_number))}]")
        for name, value in setup.items():
            if not _TAG_NAME.match(name) or name in INFO_TAGS:
                raise GameError(f"setup {name!r} cannot be written as a record tag")
            lines.append(f"[{name} {_quote(str(value))}]")
    else:
        data = json.dumps(start.to_json(), ensure_ascii=False, separators=(",", ":"))
        lines.append(f"[Position {data}]")  # a JSON object stands in a tag line as it is, unquoted
    tags.setdefault("Result", _result_of(position))
    for name in INFO_TAGS:
        if name in tags:
            lines.append(f"[{name} {_quote(tags[name])}]")
    lines.append("")
    lines.extend(_wrap([f"{n}. {text}" for n, text in enumerate(texts, 1)]))
    return "\n".join(lines) + "\n"


def _dealt_as(game: Game, number: int, setup: Mapping[str, str], position: Position) -> bool:
    try:
        return _same_position(game.deal(number, setup or None), position)
    except GameError:
        return False


def _wrap(units: list[str]) -> list[str]:
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > _LINE_WIDTH:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    if line:
        lines.append(line)
    return lines


# -- reading -------------------------------------------------------------------------------------


@dataclass
class Record:
    """A game record: the start position, the moves and the tags.

    ``moves`` are read in the positions they are played in, so reading stops at the first
    illegal move (it is kept, as the last of ``moves``); the texts of the moves after it,
    which cannot be read without playing it, are kept in ``unread``.
    """

    start: Position
    moves: list[Move] = field(default_factory=list)
    #: Every tag as text, in the order written.
    tags: dict[str, str] = field(default_factory=dict)
    #: The text of every move as written (``moves`` first, then ``unread``).
    move_texts: list[str] = field(default_factory=list)
    #: The line of every move in the record's text (1-based).
    move_lines: list[int] = field(default_factory=list)
    #: The texts of the moves after the first illegal move.
    unread: list[str] = field(default_factory=list)
    #: Comments: (number of moves before the comment, text).
    comments: list[tuple[int, str]] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return self.start.game

    @property
    def practice(self) -> bool:
        return self.tags.get("Practice") == "yes"

    def to_text(self) -> str:
        """This record written out again (tags other than the start's are kept)."""
        info = {k: v for k, v in self.tags.items() if k in INFO_TAGS and k not in ("Game", "Options", "Deal",
                                                                                     "Position")}
        return write_record(self.start, self.moves, info)


@dataclass
class IllegalMove:
    """The first illegal move of a record."""

    number: int
    text: str
    reason: str
    line: int | None = None

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"move {self.number}, {self.text}{where}, is illegal: {self.reason}"


@dataclass
class ReplayResult:
    """What replaying a record found."""

    #: The position after the last legal move.
    final: Position
    #: How many moves were played (all of them when every move is legal).
    played: int
    #: How many moves the record holds.
    total: int
    #: The first illegal move, or ``None`` when every move is legal.
    illegal: IllegalMove | None
    #: The game's result after the legal moves: won, lost or unfinished.
    result: str

    @property
    def legal(self) -> bool:
        return self.illegal is None

    @property
    def won(self) -> bool:
        return self.legal and self.result == "won"


def parse_record(text: str) -> Record:
    """Read a record; raises :class:`RecordError` (a :class:`GameError`) saying what is wrong and where."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    tokens: list[tuple[str, int]] = []
    comments_raw: list[tuple[int, str]] = []  # (token count before it, text)
    in_moves = False
    open_comment: tuple[int, list[str]] | None = None
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw
        if open_comment is not None:
            end = line.find("}")
            if end < 0:
                open_comment[1].append(line)
                continue
            open_comment[1].append(line[:end])
            comments_raw.append((len(tokens), " ".join(p.strip() for p in open_comment[1]).strip()))
            open_comment = None
            line = line[end + 1:]
        stripped = line.strip()
        if not in_moves and stripped.startswith("["):
            match = _TAG_LINE.match(stripped)
            json_match = None if match else _JSON_TAG_LINE.match(stripped)
            if match:
                name, value = match.group(1), _unquote(match.group(2))
            elif json_match:
                name, value = json_match.group(1), json_match.group(2)
            else:
                raise RecordError('a tag line is written [Name "value"] (a quote inside the value as \\") '
                                  "or [Name {JSON object}]", number)
            if name in tags:
                raise RecordError(f"tag {name} is given twice (first on line {tag_lines[name]})", number)
            tags[name] = value
            tag_lines[name] = number
            continue
        if stripped.startswith("[") and in_moves:
            raise RecordError("tag lines must come before the moves", number)
        i = 0
        while i < len(line):
            ch = line[i]
            if ch.isspace():
                i += 1
            elif ch == ";":
                comments_raw.append((len(tokens), line[i + 1:].strip()))
                break
            elif ch == "{":
                end = line.find("}", i + 1)
                if end < 0:
                    open_comment = (number, [line[i + 1:]])
                    break
                comments_raw.append((len(tokens), line[i + 1:end].strip()))
                i = end + 1
            elif ch == "}":
                raise RecordError("a '}' closes no comment", number)
            else:
                end = i
                while end < len(line) and not line[end].isspace() and line[end] not in "{};":
                    end += 1
                tokens.append((line[i:end], number))
                in_moves = True
                i = end
    if open_comment is not None:
        raise RecordError("a comment opened with '{' is never closed with '}'", open_comment[0])

    start = _start_position(tags, tag_lines)
    for name, value, allowed in (("Result", tags.get("Result"), RESULTS), ("Practice", tags.get("Practice"),
                                                                           ("yes", "no"))):
        if value is not None and value not in allowed:
            raise RecordError(f"{name} must be one of {', '.join(allowed)}, not {value!r}", tag_lines[name])

    # Moves. Numbered ("1. Vc-T16 2. …", also glued "1.Vc-T16"): the numbers count up from 1 and a
    # move is every word from its number to the next (so a notation may hold spaces: "5h e5>z11").
    # Without numbers, every word is a move.
    numbered = bool(tokens) and _MOVE_NUMBER.match(tokens[0][0]) is not None
    groups: list[tuple[list[str], int]] = []  # (words, line)
    starts: list[int] = []  # the token index where each move starts
    for index, (token, line_no) in enumerate(tokens):
        match = _MOVE_NUMBER.match(token)
        if match:
            if not numbered:
                raise RecordError(f"move number {token} after moves without numbers: number every move or none",
                                  line_no)
            if groups and not groups[-1][0]:
                raise RecordError(f"move number {len(groups)}. has no move after it", groups[-1][1])
            if int(match.group(1)) != len(groups) + 1:
                raise RecordError(f"move number {match.group(1)}. where {len(groups) + 1}. was expected", line_no)
            groups.append(([match.group(2)] if match.group(2) else [], line_no))
            starts.append(index)
        elif numbered:
            words, line = groups[-1]
            if not words:
                groups[-1] = (words, line_no)
            words.append(token)
        else:
            groups.append(([token], line_no))
            starts.append(index)
    if groups and not groups[-1][0]:
        raise RecordError(f"move number {len(groups)}. has no move after it", groups[-1][1])
    move_tokens = [(" ".join(words), line) for words, line in groups]
    comments = [(sum(1 for s in starts if s < at), text) for at, text in comments_raw]

    record = Record(start=start, tags=tags, comments=comments,
                    move_texts=[t for t, _ in move_tokens], move_lines=[n for _, n in move_tokens])
    position: Position | None = start
    for number, (token, line_no) in enumerate(move_tokens, 1):
        if position is None:
            record.unread.append(token)
            continue
        try:
            move = position.parse_move(token)
        except GameError as exc:
            raise RecordError(f"move {number}, {token!r}, cannot be read: {exc}", line_no) from None
        record.moves.append(move)
        try:
            position = position.play(move)
        except GameError:
            position = None  # replay() reports it; the moves after it cannot be read
    return record


def _start_position(tags: Mapping[str, str], lines: Mapping[str, int]) -> Position:
    if "Game" not in tags:
        raise RecordError('the record does not name its game: add a tag line such as [Game "path"]', 1)
    try:
        options = decode_options(tags["Options"]) if "Options" in tags else {}
    except GameError as exc:
        raise RecordError(f"Options: {exc}", lines["Options"]) from None
    try:
        game = get_game(tags["Game"], **options)
    except GameError as exc:
        line = lines["Options"] if options else lines["Game"]
        raise RecordError(str(exc), line) from None
    deal: int | None = None
    if "Deal" in tags:
        text = tags["Deal"].strip()
        if not re.fullmatch(r"[0-9]+", text):
            raise RecordError(f"Deal must be a deal number (a whole number, 0 or more), not {tags['Deal']!r}",
                              lines["Deal"])
        deal = int(text)
    setup = {name: value for name, value in tags.items() if name not in INFO_TAGS}
    if "Position" in tags:
        if setup:
            names = ", ".join(setup)
            raise RecordError(f"setup tags ({names}) go with a Deal tag, not with a Position tag "
                              "(the position already holds its setup)", lines[next(iter(setup))])
        try:
            data = json.loads(tags["Position"])
        except json.JSONDecodeError as exc:
            raise RecordError(f"Position is not valid JSON: {exc}", lines["Position"]) from None
        if isinstance(data, dict) and data.get("game", game.name) != game.name:
            raise RecordError(f"the Position is of game {data.get('game')!r}, but the Game tag says {game.name!r}",
                              lines["Position"])
        try:
            start = game.position_from_json(data)
        except GameError as exc:
            raise RecordError(f"Position: {exc}", lines["Position"]) from None
        if deal is not None and start.deal_number is not None and start.deal_number != deal:
            raise RecordError(f"the Position comes from deal {start.deal_number}, but the Deal tag says {deal}",
                              lines["Deal"])
        return start
    if deal is None:
        raise RecordError("the record needs a Deal tag (a numbered deal) or a Position tag (the start position)",
                          lines["Game"])
    try:
        return game.deal(deal, setup or None)
    except (GameError, ValueError) as exc:
        line = lines[next(iter(setup))] if setup else lines["Deal"]
        raise RecordError(f"deal {deal}{' with setup ' + ', '.join(setup) if setup else ''}: {exc}", line) from None


# -- replaying -----------------------------------------------------------------------------------


def replay(record: Record) -> ReplayResult:
    """Play the record's moves through the rules: find the first illegal move (with its number and
    the rules' reason) and the result. A move after the game is won is illegal: the game is over."""
    position = record.start
    total = len(record.moves) + len(record.unread)
    for index, move in enumerate(record.moves):
        number = index + 1
        text = record.move_texts[index] if index < len(record.move_texts) else _safe_text(position, move)
        line = record.move_lines[index] if index < len(record.move_lines) else None
        if position.is_won():
            return ReplayResult(position, index, total,
                                IllegalMove(number, text, "the game is already won, so no move may follow", line),
                                "won")
        try:
            position = position.play(move)
        except GameError as exc:
            return ReplayResult(position, index, total, IllegalMove(number, text, str(exc), line),
                                _result_of(position))
    if record.unread:  # only when moves were given without the illegal one that stopped reading
        index = len(record.moves)
        line = record.move_lines[index] if index < len(record.move_lines) else None
        return ReplayResult(position, index, total,
                            IllegalMove(index + 1, record.unread[0], "it follows an illegal move", line),
                            _result_of(position))
    return ReplayResult(position, len(record.moves), total, None, _result_of(position))


def _safe_text(position: Position, move: Move) -> str:
    try:
        return position.move_text(move)
    except Exception:
        return str(move)
