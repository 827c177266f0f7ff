"""Game records: writing, reading, replaying; round trips over random Amber deals and random play."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.games import GAME_NAMES, get_game
from amber_patience.games.amber import GAMES as AMBER_GAMES
from amber_patience.games.amber import AmberPosition, Swap
from amber_patience.games.base import GameError, IllegalMoveError, Position
from amber_patience.records import (
    Record,
    RecordError,
    decode_options,
    encode_options,
    parse_record,
    replay,
    write_record,
)


def near_goal(name: str = "path-36", number: int = 5) -> tuple[AmberPosition, Swap]:
    """A position one legal swap from the goal: the goal with two touching snake neighbours swapped."""
    game = get_game(name)
    dealt = game.deal(number)
    goal = dealt.goal
    for block, snake in game.snakes.items():
        for a, b in itertools.pairwise(snake):
            if a in dealt.start_cells or b in dealt.start_cells or not game.deck.are_neighbours(goal[a], goal[b]):
                continue
            cards = list(goal)
            cards[a], cards[b] = cards[b], cards[a]
            data = dealt.to_json()
            for cell, card in zip(data["cells"], cards, strict=True):
                cell["card"] = str(card)
            position = game.position_from_json(data)
            assert not position.is_won(), block
            return position, Swap(a, b)
    raise AssertionError("no pair of neighbours to swap")


def random_play(position: Position, data: st.DataObject, most: int) -> list[Any]:
    moves = []
    for _ in range(data.draw(st.integers(0, most), label="moves")):
        legal = position.legal_moves()
        if not legal or position.is_won():
            break
        move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        moves.append(move)
        position = position.play(move)
    return moves


# -- round trips ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(AMBER_GAMES), number=st.integers(0, 10**9), data=st.data())
def test_round_trip_random_amber_deals_and_play(name: str, number: int, data: st.DataObject) -> None:
    start = get_game(name).deal(number)
    moves = random_play(start, data, 25)
    tags = {"Player": data.draw(st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")),
                                        max_size=20), label="player"),
            "Date": "2026.11.29"}
    text = write_record(start, moves, tags)
    record = parse_record(text)
    assert record.start.to_json() == start.to_json()
    assert record.moves == moves
    assert record.tags["Player"] == tags["Player"]
    assert record.tags["Deal"] == str(number)
    assert "Position" not in record.tags
    result = replay(record)
    assert result.legal and result.played == len(moves) == result.total
    end = start
    for move in moves:
        end = end.play(move)
    assert result.final.to_json() == end.to_json()
    assert record.tags["Result"] == result.result
    assert all(len(line) <= 80 for line in text.splitlines() if not line.startswith("["))
    assert record.to_text() == text


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(AMBER_GAMES), number=st.integers(0, 10**6), data=st.data())
def test_round_trip_from_a_game_in_progress(name: str, number: int, data: st.DataObject) -> None:
    """A start that is not a numbered deal as dealt is written as its position JSON."""
    position = get_game(name).deal(number)
    for move in random_play(position, data, 10):
        position = position.play(move)
    if position.to_json() == get_game(name).deal(number).to_json():
        return  # no move was played: that is the other test's case
    moves = random_play(position, data, 10)
    text = write_record(position, moves)
    assert "[Deal " not in text and "[Position {" in text
    record = parse_record(text)
    assert record.start.to_json() == position.to_json()
    assert record.moves == moves
    assert replay(record).legal


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAME_NAMES), number=st.integers(1, 10**6), data=st.data())
def test_round_trip_every_game(name: str, number: int, data: st.DataObject) -> None:
    """The format is generic: every game of the collection, through the game API only."""
    start = get_game(name).deal(number)
    moves = random_play(start, data, 40)
    text = write_record(start, moves)
    record = parse_record(text)
    assert record.start.to_json() == start.to_json()
    assert record.moves == moves
    result = replay(record)
    assert result.legal and result.played == len(moves)
    assert record.to_text() == text
    in_progress = parse_record(write_record(result.final, []))
    assert in_progress.start.to_json() == result.final.to_json()


def test_numbered_moves_may_hold_spaces_unnumbered_may_not() -> None:
    start = get_game("path-36").deal(3)
    first, second = start.legal_moves()[:2]
    a, b = start.move_text(first), start.move_text(second)
    head = '[Game "path-36"]\n[Deal "3"]\n\n'
    assert parse_record(head + f"{a} {b}\n").move_texts == [a, b]
    # numbered: the words from one number to the next are one move
    record = parse_record(head + f"1. {first.a}\n {first.b} {{ split over two lines }}\n")
    assert record.moves == [first] and record.move_texts == [f"{first.a} {first.b}"]
    assert record.move_lines == [4]
    with pytest.raises(RecordError, match=r"line 4: move 1, '.*', cannot be read"):
        parse_record(head + f"1. {a} {b}\n")
    with pytest.raises(RecordError, match="number every move or none"):
        parse_record(head + f"{a} 2. {b}\n")
    with pytest.raises(RecordError, match=r"line 5: move number 2\. has no move after it"):
        parse_record(head + f"1. {a}\n2.\n")
    with pytest.raises(RecordError, match=r"move number 1\. has no move after it"):
        parse_record(head + f"1. 2. {a}\n")


def test_setup_tags_round_trip() -> None:
    game = get_game("arden")
    start = game.deal(4, {"Start": "Rs T11", "SecondStart": "40"})
    move = start.legal_moves()[0]
    text = write_record(start, [move])
    assert '[Start "Rs T11"]' in text and '[SecondStart "40"]' in text and '[Deal "4"]' in text
    record = parse_record(text)
    assert record.start.to_json() == start.to_json()
    assert str(record.start.cards[0]) == "Rs" and record.start.start_cells == (0, 40)
    assert record.moves == [move]


def test_record_reads_both_notations_numbers_glued_and_comments() -> None:
    start = get_game("path-36").deal(3)
    moves = start.legal_moves()[:1]
    after = start.play(moves[0])
    second = after.legal_moves()[0]
    cells = f"{second.a}-{second.b}"
    text = (f'; a comment before the tags\n[Game "path-36"]\n[Deal "3"]\n\n'
            f"1.{start.move_text(moves[0])} {{ a comment\nover two lines }} 2. {cells} ; the end\n")
    record = parse_record(text)
    assert record.moves == [moves[0], second]
    assert [c for _, c in record.comments] == ["a comment before the tags", "a comment over two lines", "the end"]
    assert [n for n, _ in record.comments] == [0, 1, 2]
    assert replay(record).played == 2


def test_a_won_game() -> None:
    position, swap = near_goal()
    text = write_record(position, [swap], {"Date": "2026.11.29"})
    assert '[Result "won"]' in text
    result = replay(parse_record(text))
    assert result.won and result.result == "won" and result.final.is_won()


def test_write_refuses_an_illegal_move_and_foreign_tags() -> None:
    start = get_game("path-36").deal(3)
    with pytest.raises(IllegalMoveError, match="start card"):
        write_record(start, [Swap(0, 1)])
    with pytest.raises(GameError, match="not a record tag"):
        write_record(start, [], {"Colour": "red"})
    with pytest.raises(GameError, match="comes from the start position"):
        write_record(start, [], {"Deal": "4"})
    with pytest.raises(GameError, match="Result must be"):
        write_record(start, [], {"Result": "maybe"})


def test_tag_values_are_escaped() -> None:
    start = get_game("path").deal(1)
    text = write_record(start, [], {"Player": 'Corwin "of Amber" \\ prince'})
    assert parse_record(text).tags["Player"] == 'Corwin "of Amber" \\ prince'


# -- replay reports --------------------------------------------------------------------------------


def test_replay_reports_the_first_illegal_move_with_number_line_and_reason() -> None:
    start = get_game("path-36").deal(3)
    first = start.legal_moves()[0]
    text = (f'[Game "path-36"]\n[Deal "3"]\n\n1. {start.move_text(first)}\n'
            "2. Qs-Ac 3. 6c-8s\n")
    record = parse_record(text)
    assert record.unread == ["6c-8s"]
    result = replay(record)
    assert not result.legal and not result.won
    assert result.illegal is not None
    assert (result.illegal.number, result.illegal.text, result.illegal.line) == (2, "Qs-Ac", 5)
    assert "start card" in result.illegal.reason
    assert result.played == 1 and result.total == 3
    assert "move 2" in str(result.illegal)


def test_a_move_after_the_win_is_illegal() -> None:
    position, swap = near_goal()
    record = Record(start=position, moves=[swap, swap])
    result = replay(record)
    assert result.illegal is not None and result.illegal.number == 2
    assert "already won" in result.illegal.reason


def test_unfinished_and_result_values() -> None:
    start = get_game("path-36").deal(3)
    move = start.legal_moves()[0]
    result = replay(parse_record(write_record(start, [move])))
    assert result.legal and not result.won and result.result == "unfinished"


# -- malformed records -----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "line", "words"), [
    ('[Deal "3"]\n\n1. 6c-8s\n', 1, "does not name its game"),
    ('[Game "path-36"]\n[Deal three]\n', 2, "tag line is written"),
    ('[Game "path-36"]\n[Deal "three"]\n', 2, "Deal must be a deal number"),
    ('[Game "path-36"]\n[Deal "3"]\n[Deal "4"]\n', 3, "given twice"),
    ('[Game "nope"]\n[Deal "3"]\n', 1, "unknown game"),
    ('[Game "path-36"]\n', 1, "needs a Deal tag"),
    ('[Game "path-36"]\n[Deal "3"]\n\n1. 6c-8s 3. 7s-Ah\n', 4, "move number 3. where 2. was expected"),
    ('[Game "path-36"]\n[Deal "3"]\n\n1. 6c-8s\n2. Zz-8s\n', 5, "move 2, 'Zz-8s', cannot be read"),
    ('[Game "path-36"]\n[Deal "3"]\n\n1. 6c-8s { no end\n', 4, "never closed"),
    ('[Game "path-36"]\n[Deal "3"]\n\n1. 6c-8s }\n', 4, "closes no comment"),
    ('[Game "path-36"]\n[Deal "3"]\n\n1. 6c-8s\n[Date "x"]\n', 5, "before the moves"),
    ('[Game "path-36"]\n[Deal "3"]\n[Result "draw"]\n', 3, "Result must be one of"),
    ('[Game "path-36"]\n[Deal "3"]\n[Start "Zz"]\n', 3, "with setup Start"),
    ('[Game "path-36"]\n[Position {"game": "path-36",}]\n', 2, "Position is not valid JSON"),
    ('[Game "path-36"]\n[Position {"game": "path-36"}]\n', 2, "'cells' must list all 36 cells"),
    ('[Game "path-36"]\n[Position {"game": "kolvir"}]\n', 2, "the Game tag says 'path-36'"),
    ('[Game "path-36"]\n[Options "x=1"]\n[Deal "3"]\n', 2, "no options"),
])
def test_malformed_records_say_what_and_where(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.line == line
    assert words in str(info.value)
    assert str(info.value).startswith(f"line {line}: ")
    assert isinstance(info.value, GameError)


# -- options -------------------------------------------------------------------------------------

option_values = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.none(),
                          st.sampled_from(["unlimited", "king", "any", "yes", "no", "3", "null", "two words", ""]),
                          st.text(max_size=10))


@given(st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True), option_values, max_size=4))
def test_options_encoding_round_trips(options: dict[str, Any]) -> None:
    text = encode_options(options)
    assert decode_options(text) == options
    assert "\n" not in text


def test_options_encoding_is_readable() -> None:
    assert encode_options({"passes": 3, "relaxed": True, "mode": "unlimited"}) == "passes=3 relaxed=yes mode=unlimited"
    assert decode_options('{"passes": 3}') == {"passes": 3}
    for bad, words in (("passes", "key=value"), ("a=1 a=2", "twice"), ("a=", "no value"), ('a="x', "JSON")):
        with pytest.raises(GameError, match=words):
            decode_options(bad)


def test_a_game_with_options_round_trips() -> None:
    game = get_game("simplest", empty="any")
    start = game.deal(11)
    text = write_record(start, start.legal_moves()[:1])
    assert '[Options "empty=any"]' in text
    record = parse_record(text)
    assert record.game == game and record.start.to_json() == start.to_json()
    assert replay(record).legal


def test_position_tag_is_plain_json() -> None:
    position, swap = near_goal("kolvir", 2)
    text = write_record(position, [swap])
    line = next(line for line in text.splitlines() if line.startswith("[Position "))
    assert json.loads(line[len("[Position "):-1]) == position.to_json()


def test_the_example_in_the_docs_is_a_won_game() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs" / "records.md"
    example = docs.read_text(encoding="utf-8").split("```text\n", 1)[1].split("```", 1)[0]
    record = parse_record(example)
    result = replay(record)
    assert result.won and result.total == 38
    assert record.tags["Player"] == "Corwin" and record.start.deal_number == 3
    assert [c for _, c in record.comments][-1].startswith("The last swap")
    assert [n for n, _ in record.comments] == [0, 38]
