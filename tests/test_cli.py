"""The command line, driven in-process through ``main([...])`` and once as ``python -m amber_patience``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from amber_patience.cli import main, parse_option_value
from amber_patience.games import get_game, position_from_json
from amber_patience.records import parse_record, replay, write_record
from test_records import near_goal


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
        stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def no_traceback(err: str) -> None:
    assert "Traceback" not in err


# -- deal and moves --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["path-36", "kolvir", "arden"])
def test_deal_json_round_trips_through_moves(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                             name: str) -> None:
    status, out, _ = run(capsys, monkeypatch, ["deal", name, "--number", "12", "--json"])
    assert status == 0
    data = json.loads(out)
    position = position_from_json(data)
    assert data == get_game(name).deal(12).to_json() == position.to_json()
    status, out, _ = run(capsys, monkeypatch, ["moves"], stdin=json.dumps(data))
    assert status == 0
    listed = json.loads(out)
    moves = [position.game.move_from_json(m) for m in listed["moves"]]
    assert moves == position.legal_moves() and moves
    assert listed["texts"] == [position.move_text(m) for m in moves]
    for move in moves:
        position.play(move)  # every listed move is legal


def test_deal_text_random_number_and_setup(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, ["deal", "path-36", "--json"])
    assert status == 0
    number = json.loads(out)["deal"]
    assert f"random deal number: {number}" in err
    status, out, _ = run(capsys, monkeypatch, ["deal", "path-36", "-n", "7"])
    assert status == 0 and out.strip() == get_game("path-36").deal(7).to_text().strip()
    status, out, _ = run(capsys, monkeypatch, ["deal", "arden", "-n", "3", "--json", "--start", "Rs T11",
                                               "--second-start", "40"])
    assert status == 0
    data = json.loads(out)
    assert data["cells"][0]["card"] == "Rs" and data["cells"][40]["card"] == "T11"
    assert data["setup"] == {"Start": "Rs T11", "SecondStart": "40"}


def test_deal_winnable_and_difficulty(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, ["deal", "path-36", "-n", "1", "--json", "--winnable", "--difficulty",
                                                 "--time-limit", "0.5"])
    assert status == 0, err
    data = json.loads(out)
    number = data["deal"]
    assert f"deal {number} is winnable" in err
    for earlier in range(1, number):  # every deal before it was tried and not proved winnable
        assert f"deal {earlier}: " in err
    assert data["difficulty"]["status"] == "won"
    assert data["difficulty"]["solution_length"] >= data["difficulty"]["lower_bound"] > 0
    assert data == {**get_game("path-36").deal(number).to_json(), "difficulty": data["difficulty"]}


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_deal_of_a_level(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    from amber_patience.solvers import solve
    from amber_patience.solvers.levels import bands_for, level_of

    bands = bands_for("path-36")
    assert bands is not None
    status, out, err = run(capsys, monkeypatch, ["deal", "path-36", "-n", "1", "--json", "--level", level,
                                                 "--difficulty"])
    assert status == 0, err
    data = json.loads(out)
    number = data["deal"]
    figure = data["difficulty"]["difficulty"]
    assert f"deal {number} is {level} (the solver won it in " in err and f"difficulty {figure}, {level})" in err
    assert data["difficulty"]["level"] == level == level_of(figure, bands)
    for earlier in range(1, number):  # every deal before it was tried and said why it was not taken
        assert f"deal {earlier}: " in err
    if level == "easy":  # deal 1 is not easy: its search stops at twice the lower tercile
        assert f"deal 1: not won within {2 * bands.lower} states: not easy" in err
    again = solve(get_game("path-36").deal(number), time_limit=10)
    assert again.status == "won" and level_of(int(again.stats["difficulty"]), bands) == level


def test_a_hard_deal_at_random_comes_from_the_calibrations_hard_deals(capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from amber_patience.solvers.levels import bands_for

    bands = bands_for("path-36")
    assert bands is not None
    status, out, err = run(capsys, monkeypatch, ["deal", "path-36", "--json", "--level", "hard"])
    assert status == 0, err
    number = json.loads(out)["deal"]
    assert "random deal number: " in err and f"deal {number} is hard" in err and number in bands.hard_deals


def test_deal_of_a_level_not_found_in_the_tries(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = run(capsys, monkeypatch, ["deal", "path-36", "-n", "1", "--level", "hard", "--tries", "1",
                                               "--time-limit", "0.001"])
    assert status == 1
    assert "no hard deal found in 1 deals (from 1)" in err
    no_traceback(err)


@pytest.mark.parametrize("argv", [["deal", "pyramid-52", "-n", "1", "--level", "easy"],
                                  ["deal", "zodiac", "-n", "1", "--level", "hard", "--winnable"]])
def test_deal_of_a_level_for_a_game_without_bands_exits_2(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    status, out, err = run(capsys, monkeypatch, argv)
    assert status == 2 and out == ""
    assert f"{argv[1]} has no difficulty bands" in err and "path-36" in err and err.startswith("amber: ")
    no_traceback(err)


@pytest.mark.parametrize(("argv", "words"), [
    (["deal", "no-such-game"], "unknown game 'no-such-game'"),
    (["deal", "path", "--option", "passes=3"], "path has no options"),
    (["deal", "path", "--option", "passes"], "write it as key=value"),
    (["deal", "simplest", "--option", "empty=sometimes"], "empty"),
    (["deal", "path", "--number", "-4"], "not a deal number"),
    (["deal", "path", "--number", "x"], "not a deal number"),
    (["deal", "path-36", "-n", "1", "--start", "Zz"], "'Zz' is not a card"),
    (["deal", "path-36", "-n", "1", "--second-start", "5"], "only the Forest of Arden"),
    (["frobnicate"], "invalid choice"),
    (["deal", "path-36", "--level", "medium"], "invalid choice: 'medium'"),
    (["solve", "path", "--time-limit", "0"], "more than 0 seconds"),
])
def test_bad_names_and_options_exit_2(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                      argv: list[str], words: str) -> None:
    status, _, err = run(capsys, monkeypatch, argv)
    assert status == 2
    assert words in err and err.startswith("amber: ")
    no_traceback(err)


@pytest.mark.parametrize(("stdin", "words"), [
    ("", "got nothing"),
    ("{not json", "not valid JSON"),
    ('{"game": "nope"}', "unknown game"),
    ('{"game": "path-36", "cells": []}', "must list all 36 cells"),
])
def test_moves_and_hint_refuse_bad_positions(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                             stdin: str, words: str) -> None:
    for command in ("moves", "hint"):
        status, _, err = run(capsys, monkeypatch, [command], stdin=stdin)
        assert status == 2 and words in err
        no_traceback(err)


def test_option_values() -> None:
    assert parse_option_value("3") == 3
    assert parse_option_value("yes") is True and parse_option_value("no") is False
    assert parse_option_value("unlimited") == "unlimited"


# -- play ----------------------------------------------------------------------------------------


def test_play_refuses_an_illegal_move_with_the_reason_and_goes_on(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    start = get_game("path-36").deal(3)
    legal = start.legal_moves()[0]
    legal_text = start.move_text(legal)
    illegal_text = f"{start.cards[0]}-{start.cards[1]}"  # cell 0 holds the start card
    save = tmp_path / "game.rec"
    lines = ["help", illegal_text, "no-such-move", "moves", legal_text, "undo", "quit"]
    status, out, err = run(capsys, monkeypatch, ["play", "path-36", "-n", "3", "--save", str(save)],
                           stdin="\n".join(lines) + "\n")
    assert status == 0, err
    assert "start card" in out and "never moves" in out and "The position is unchanged" in out
    assert "Cannot read 'no-such-move'" in out
    assert f"legal moves: {legal_text}" in out
    assert f"1. {start.describe_move(legal)}" in out
    assert "The rules allow no undo" in out
    record = parse_record(save.read_text())
    assert record.moves == [legal]
    assert record.tags["Result"] == "unfinished"
    assert record.start.to_json() == start.to_json()


def test_play_practice_undo_and_save_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    start = get_game("path-36").deal(3)
    first = start.legal_moves()[0]
    second = start.play(first).legal_moves()[-1]
    later = tmp_path / "practice.rec"
    lines = [start.move_text(first), "undo", "undo", start.move_text(first),
             start.play(first).move_text(second), f"save {later}"]
    status, out, _ = run(capsys, monkeypatch, ["play", "path-36", "-n", "3", "--practice"],
                         stdin="\n".join(lines) + "\n")
    assert status == 0
    assert "Took back the last move" in out and "There is no move to take back" in out
    assert "End of input" in out
    record = parse_record(later.read_text())
    assert record.moves == [first, second] and record.practice


def test_play_to_a_win_and_a_hint(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                  tmp_path: Path) -> None:
    """Play a numbered deal along the solver's line: hints, then a win, then verify the saved record."""
    status, out, err = run(capsys, monkeypatch, ["solve", "path-36", "-n", "2", "--json", "--time-limit", "10"])
    assert status == 0, err
    moves_json = json.loads(out)["moves"]
    game = get_game("path-36")
    position = game.deal(2)
    texts = []
    for data in moves_json:
        move = game.move_from_json(data)
        texts.append(position.move_text(move))
        position = position.play(move)
    save = tmp_path / "won.rec"
    status, out, _ = run(capsys, monkeypatch, ["play", "path-36", "-n", "2", "--save", str(save)],
                         stdin="hint\n" + "\n".join(texts) + "\n")
    assert status == 0
    assert "Hint: " in out
    assert f"You won in {len(texts)} moves" in out
    status, out, _ = run(capsys, monkeypatch, ["verify", str(save)])
    assert status == 0 and "The game is won" in out


def test_play_looks_for_the_line_while_the_player_thinks_and_the_hint_takes_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the background analyst on (a terminal's default; forced here, as the input is piped), the line from the
    position shown is looked for at once, and a hint asked meanwhile waits for that search instead of starting a
    second one: one solver run for the position, and the hint is the first move of a line that wins."""
    from amber_patience import solvers
    from amber_patience.cli import PlaySession

    calls: list[str] = []
    real = solvers.solve

    def counted(position: Any, **kwargs: Any) -> Any:
        calls.append(position.game.name)
        return real(position, **kwargs)

    monkeypatch.setattr(solvers, "solve", counted)
    start = get_game("path-36").deal(2)
    out = io.StringIO()
    session = PlaySession(start, out, io.StringIO("hint\nquit\n"), practice=False, hint_time=10.0, save=None,
                          player=None, analysis=True)
    assert session.analyst is not None
    assert session.run() == 0
    assert session.analyst.runs == 1
    assert calls == ["path-36"]  # the analyst's search only: the hint took its line
    hinted = out.getvalue().split("Hint: ", 1)[1].split(" ", 1)[0]
    after = start.play(start.parse_move(hinted))
    through = session.lines.get(after)  # the line kept through the hint (deal 2's whole line begins otherwise)
    assert through
    for move in through:
        after = after.play(move)  # the rules refuse an illegal move
    assert after.is_won()


def test_play_on_a_pipe_does_not_analyse_in_the_background_unless_asked() -> None:
    from amber_patience.cli import PlaySession

    start = get_game("path-36").deal(2)
    piped = PlaySession(start, io.StringIO(), io.StringIO("quit\n"), practice=False, hint_time=1.0, save=None,
                        player=None)
    assert piped.analyst is None
    tty = io.StringIO("quit\n")
    tty.isatty = lambda: True  # type: ignore[method-assign]
    on_terminal = PlaySession(start, io.StringIO(), tty, practice=False, hint_time=1.0, save=None, player=None)
    assert on_terminal.analyst is not None
    off = PlaySession(start, io.StringIO(), tty, practice=False, hint_time=1.0, save=None, player=None,
                      analysis=False)
    assert off.analyst is None
    on_terminal.analyst.close()


# -- verify --------------------------------------------------------------------------------------


def test_verify_exit_statuses(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                              tmp_path: Path) -> None:
    position, swap = near_goal("kolvir", 6)
    won = tmp_path / "won.rec"
    won.write_text(write_record(position, [swap]))
    status, out, _ = run(capsys, monkeypatch, ["verify", str(won)])
    assert status == 0 and "all 1 moves are legal" in out and "The game is won" in out

    start = get_game("path-36").deal(3)
    first = start.legal_moves()[0]
    unfinished = tmp_path / "unfinished.rec"
    unfinished.write_text(write_record(start, [first]))
    status, out, _ = run(capsys, monkeypatch, ["verify", str(unfinished)])
    assert status == 1 and "not won" in out and "unfinished" in out

    illegal = tmp_path / "illegal.rec"
    illegal.write_text(f'[Game "path-36"]\n[Deal "3"]\n\n1. {start.move_text(first)} 2. {start.cards[0]}-6c\n')
    status, out, _ = run(capsys, monkeypatch, ["verify", str(illegal)])
    assert status == 1 and "move 2" in out and "line 4" in out and "never moves" in out

    malformed = tmp_path / "malformed.rec"
    malformed.write_text('[Game "path-36"]\n[Deal "3"]\n\n1. 6c-8s 3. 7s-Ah\n')
    status, _, err = run(capsys, monkeypatch, ["verify", str(malformed)])
    assert status == 2 and "line 4" in err and "move number 3." in err
    no_traceback(err)

    status, _, err = run(capsys, monkeypatch, ["verify", str(tmp_path / "missing.rec")])
    assert status == 2 and "cannot read" in err

    status, out, _ = run(capsys, monkeypatch, ["verify", "-"], stdin="\ufeff" + won.read_text())
    assert status == 0

    practice = tmp_path / "practice.rec"
    practice.write_text(write_record(position, [swap], {"Practice": "yes", "Result": "unfinished"}))
    status, out, _ = run(capsys, monkeypatch, ["verify", str(practice)])
    assert status == 0 and "never counted as a win" in out
    assert "the record says Result 'unfinished', but the replay ends won" in out


# -- solve and hint (the real solver) ------------------------------------------------------------------


def test_hint_gives_the_last_swap(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    position, swap = near_goal("pattern", 9)
    status, out, err = run(capsys, monkeypatch, ["hint"], stdin=json.dumps(position.to_json()))
    assert status == 0, err
    data = json.loads(out)
    assert position.game.move_from_json(data["move"]) == swap
    assert data["text"] == position.move_text(swap)
    assert data["description"] == position.describe_move(swap)


def test_hint_on_a_won_game_exits_1(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    position, swap = near_goal()
    status, _, err = run(capsys, monkeypatch, ["hint"], stdin=json.dumps(position.play(swap).to_json()))
    assert status == 1 and "already won" in err


def test_solve_a_game_in_progress(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    position, _ = near_goal("arden", 4)
    status, out, err = run(capsys, monkeypatch, ["solve", "-"], stdin=json.dumps(position.to_json()))
    assert status == 0, err
    record = parse_record(out)
    assert record.start.to_json() == position.to_json()
    assert replay(record).won
    status, out, _ = run(capsys, monkeypatch, ["solve", "-", "--json"], stdin=json.dumps(position.to_json()))
    data = json.loads(out)
    assert status == 0 and data["status"] == "won"
    assert [position.game.move_from_json(m) for m in data["moves"]] == parse_record(data["record"]).moves
    assert isinstance(data["stats"], dict)


def test_solve_a_numbered_deal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, ["solve", "path-36", "--number", "4", "--time-limit", "10"])
    assert status == 0, err
    record = parse_record(out)
    assert record.tags["Deal"] == "4" and record.tags["Result"] == "won"
    assert replay(record).won


def test_solve_says_why_a_stranded_pattern_deal_is_lost(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(capsys, monkeypatch, ["solve", "pattern", "--number", "4", "--json"])
    assert status == 1 and json.loads(out)["status"] == "lost"
    assert "proved that this position cannot be won: the bottom-right block holds no" in err


def test_solve_looks_for_a_shorter_line_for_length_seconds(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``--length-seconds S``: Pattern of Amber's draws for length go on until S seconds after the start (they go
    round again while the clock has time), and the line is won; refused for a game whose solver makes no draws, for
    S not below the time limit, and for S of no time."""
    status, out, err = run(capsys, monkeypatch, ["solve", "pattern", "-n", "1", "--length-seconds", "1.5", "--json"])
    data = json.loads(out)
    assert status == 0 and data["status"] == "won", err
    assert data["stats"]["seconds"] >= 1.5
    assert replay(parse_record(data["record"])).won
    for argv, message in ((["pyramid-52", "-n", "1", "--length-seconds", "2"], "spends no time on a shorter line"),
                          (["pattern", "-n", "1", "--length-seconds", "30"], "must be less than --time-limit (30 s)"),
                          (["pattern", "-n", "1", "--length-seconds", "3", "--time-limit", "2"],
                           "must be less than --time-limit (2 s)"),
                          (["pattern", "-n", "1", "--length-seconds", "0"], "more than 0 seconds")):
        status, out, err = run(capsys, monkeypatch, ["solve", *argv])
        assert status == 2 and out == "" and message in err, err
        no_traceback(err)


def test_solve_dash_refuses_a_deal_number(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = run(capsys, monkeypatch, ["solve", "-", "-n", "3"], stdin="{}")
    assert status == 2 and "standard input" in err


# -- serve ---------------------------------------------------------------------------------------


def test_serve_and_no_arguments_call_the_server(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    module = types.ModuleType("amber_patience.web.server")
    module.serve = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "amber_patience.web.server", module)
    assert run(capsys, monkeypatch, [])[0] == 0
    assert run(capsys, monkeypatch, ["serve", "--host", "0.0.0.0", "--port", "9000", "--no-browser",
                                     "--db", "x.db"])[0] == 0
    assert calls == [{"host": "127.0.0.1", "port": 8000, "open_browser": True, "db_path": None},
                     {"host": "0.0.0.0", "port": 9000, "open_browser": False, "db_path": "x.db"}]


def test_server_errors_are_reported(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def serve(**kwargs: Any) -> None:
        raise SystemExit("cannot listen on 127.0.0.1:8000: Address already in use")

    module = types.ModuleType("amber_patience.web.server")
    module.serve = serve  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "amber_patience.web.server", module)
    status, _, err = run(capsys, monkeypatch, ["serve", "--no-browser"])
    assert status == 1 and "Address already in use" in err


def test_help_and_version(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(capsys, monkeypatch, ["--help"])
    assert status == 0
    for command in ("deal", "moves", "play", "verify", "solve", "hint", "serve"):
        assert command in out
    status, out, _ = run(capsys, monkeypatch, ["--version"])
    assert status == 0 and "amber-patience" in out


# -- a real process --------------------------------------------------------------------------------


def test_python_m_amber_patience(tmp_path: Path) -> None:
    position, swap = near_goal("path-52", 8)
    record = tmp_path / "won.rec"
    record.write_text(write_record(position, [swap]))
    done = subprocess.run([sys.executable, "-m", "amber_patience", "verify", str(record)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "The game is won" in done.stdout
    done = subprocess.run([sys.executable, "-m", "amber_patience", "deal", "nope"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "unknown game 'nope'" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "amber_patience", "play", "path-36", "-n", "3"],
                          input="quit\n", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "Game ended after 0 moves" in done.stdout
