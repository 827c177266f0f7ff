"""Winning lines kept for instant hints: the cache, the store's tables, the analyst, and their use
by ``amber hint``, ``amber play`` and the web server."""

from __future__ import annotations

import io
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience import solvers, store
from amber_patience.cli import main
from amber_patience.games import get_game
from amber_patience.games.base import Position
from amber_patience.solvers import replay
from amber_patience.solvers.lines import Analyst, LineCache, position_key, winning_line
from amber_patience.store import SCHEMA_VERSION, Store
from amber_patience.web.server import create_app


def _line(name: str = "path-36", number: int = 2) -> tuple[Position, list[Any]]:
    position = get_game(name).deal(number)
    found = solvers.solve(position, time_limit=20)
    assert found.status == "won"
    return position, list(found.moves)


@pytest.fixture(scope="module")
def line() -> tuple[Position, list[Any]]:
    return _line()


def _no_solver(monkeypatch: pytest.MonkeyPatch) -> list[Position]:
    """Make every solver call fail the test (and count it): what follows must come from a kept line."""
    calls: list[Position] = []

    def refuse(position: Position, **_: Any) -> Any:
        calls.append(position)
        raise AssertionError("the solver was called for a position along a kept line")

    monkeypatch.setattr(solvers, "solve", refuse)
    return calls


def test_a_kept_line_answers_from_every_position_along_it(line: tuple[Position, list[Any]]) -> None:
    start, moves = line
    cache = LineCache()
    assert cache.get(start) is None
    cache.put(start, moves)
    position = start
    for i, move in enumerate(moves):
        assert cache.get(position) == moves[i:]
        position = position.play(move)
    assert cache.get(position) is None  # the won position has no next move
    off = start.play(next(m for m in start.legal_moves() if m != moves[0]))
    assert cache.get(off) is None or replay(off, cache.get(off) or []).is_won()


def test_the_memory_keeps_only_its_size(line: tuple[Position, list[Any]]) -> None:
    start, moves = line
    cache = LineCache(size=5)
    cache.put(start, moves)
    assert cache.get(start) is None  # the oldest positions went first
    last = replay(start, moves[:-1])
    assert cache.get(last) == moves[-1:]


def test_lines_survive_in_the_store_and_a_damaged_entry_is_ignored(
        tmp_path: Path, line: tuple[Position, list[Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    start, moves = line
    path = tmp_path / "lines.sqlite3"
    LineCache(Store(path)).put(start, moves)
    fresh = LineCache(Store(path))  # a new process: nothing in memory
    middle = replay(start, moves[:3])
    assert fresh.get(middle) == moves[3:]
    assert fresh.get(start) == moves
    # a line edited in the file so that it no longer wins is not trusted: the solver answers
    with sqlite3.connect(path) as db:
        db.execute("UPDATE lines SET moves = ?", (json.dumps([m.to_json() for m in moves[:-1]]),))
    assert LineCache(Store(path)).get(start) is None
    with sqlite3.connect(path) as db:
        db.execute("UPDATE lines SET moves = 'not json'")
    assert LineCache(Store(path)).get(middle) is None
    assert winning_line(middle, 20, LineCache(Store(path))).status == "won"


def test_the_store_keeps_the_newest_lines_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_LINES", 2)
    kept = Store(tmp_path / "lines.sqlite3")
    for i in range(3):
        kept.save_line("path-36", [f"key{i}a", f"key{i}b"], [{"swap": [1, 2]}, {"swap": [3, i + 4]}])
    assert kept.find_line("key0a") is None
    assert kept.find_line("key1b") == ("path-36", [{"swap": [3, 5]}])
    assert kept.find_line("key2a") == ("path-36", [{"swap": [1, 2]}, {"swap": [3, 6]}])
    with pytest.raises(ValueError, match="needs 2 position keys"):
        kept.save_line("path-36", ["only-one"], [{"swap": [1, 2]}, {"swap": [3, 4]}])


def test_a_schema_1_file_gets_the_line_tables_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # what the first version wrote: games and results only
        script = store._SCHEMA[:store._SCHEMA.index("CREATE TABLE IF NOT EXISTS lines")]
        db.executescript(script)
        db.execute("INSERT INTO games VALUES ('g1', 'path-36', '{}', '7', '{}', NULL, 0, '[]', 'playing',"
                   " 1, 1, 0, 1)")
        db.execute("PRAGMA user_version = 1")
    upgraded = Store(path)
    assert upgraded.schema_version == SCHEMA_VERSION == 2
    assert upgraded.get_game("g1") is not None
    upgraded.save_line("path-36", ["k"], [{"swap": [1, 2]}])
    assert upgraded.find_line("k") == ("path-36", [{"swap": [1, 2]}])


def test_winning_line_asks_the_solver_once_along_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    start = get_game("path-36").deal(5)
    cache = LineCache()
    first = winning_line(start, 20, cache)
    assert first.status == "won" and replay(start, first.moves).is_won() and first.stats
    calls = _no_solver(monkeypatch)
    later = replay(start, first.moves[:4])
    again = winning_line(later, 20, cache)
    assert again.moves == first.moves[4:] and not again.stats and not calls


def test_winning_line_says_why_a_position_is_lost() -> None:
    stranded = get_game("pattern").deal(4)  # its bottom-right block holds no clubs (docs/rules.md)
    answer = winning_line(stranded, 5, LineCache())
    assert answer.status == "lost" and "can never get one back" in (answer.detail or "")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(number=st.integers(1, 10_000), cut=st.integers(0, 60))
def test_any_position_along_a_kept_line_gets_a_winning_rest(number: int, cut: int) -> None:
    start = get_game("path-36").deal(number)
    cache = LineCache()
    answer = winning_line(start, 20, cache)
    assert answer.status == "won"
    k = min(cut, len(answer.moves) - 1)
    later = replay(start, answer.moves[:k])
    rest = cache.get(later)
    assert rest is not None and replay(later, rest).is_won()
    assert position_key(later) != position_key(start) or k == 0


def test_the_analyst_prepares_the_line_of_the_newest_position(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = LineCache()
    analyst = Analyst(cache, seconds=20)
    first, second = get_game("path-36").deal(11), get_game("path-36").deal(12)
    analyst.show(first)
    analyst.show(second)  # shown before the first was done (or even started): the newer counts
    assert analyst.idle(60)
    assert cache.get(second) is not None and replay(second, cache.get(second) or []).is_won()
    runs = analyst.runs
    analyst.show(replay(second, (cache.get(second) or [])[:2]))  # along the line: nothing to do
    assert analyst.idle(60) and analyst.runs == runs
    analyst.show(get_game("path-36").deal(12).play((cache.get(second) or [])[0]))
    assert analyst.idle(60) and analyst.runs == runs
    analyst.close()
    analyst.show(get_game("path-36").deal(13))
    assert analyst.idle(1) and cache.get(get_game("path-36").deal(13)) is None
    off = Analyst(LineCache(), seconds=0)  # 0 turns it off
    off.show(first)
    assert off.idle(0.1) and off.runs == 0


# -- the command line and the web server --------------------------------------------------------------


def _cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
         stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_amber_hint_keeps_the_line_for_the_next_hint(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "hints.sqlite3")
    position = get_game("path-36").deal(3)
    status, out, err = _cli(monkeypatch, capsys, ["hint", "--db", db], json.dumps(position.to_json()))
    assert status == 0, err
    move = position.game.move_from_json(json.loads(out)["move"])
    after = position.play(move)
    calls = _no_solver(monkeypatch)  # a second run of the command: the line comes from the file
    status, out, err = _cli(monkeypatch, capsys, ["hint", "--db", db], json.dumps(after.to_json()))
    assert status == 0, err
    following = after.game.move_from_json(json.loads(out)["move"])
    assert not calls and after.play(following)  # legal, and part of a winning line
    assert Store(db).find_line(position_key(after)) is not None


def test_amber_play_follows_its_own_hints_without_solving_again(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    start = get_game("path-36").deal(4)
    line = winning_line(start, 20, LineCache()).moves  # the line the first hint will find (same solver)
    real_solve = solvers.solve
    calls: list[Position] = []

    def counting(position: Position, **kw: Any) -> Any:
        calls.append(position)
        return real_solve(position, **kw)

    monkeypatch.setattr(solvers, "solve", counting)
    script = ["hint"]
    position = start
    for move in line[:3]:
        script += [position.move_text(move), "hint"]
        position = position.play(move)
    status, out, err = _cli(monkeypatch, capsys, ["play", "path-36", "-n", "4"], "\n".join(script) + "\n")
    assert status in (0, 1), err
    assert out.count("Hint: ") == 4 and len(calls) == 1


def test_the_server_has_the_hint_ready_before_it_is_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(tmp_path / "web.sqlite3", analysis_seconds=20)
    client = TestClient(app)
    state = client.post("/api/games", json={"game": "path-36", "number": 21}).json()
    assert app.state.service.analyst.idle(60)
    calls = _no_solver(monkeypatch)
    hint = client.get(f"/api/games/{state['id']}/hint")
    assert hint.status_code == 200 and not calls
    moved = client.post(f"/api/games/{state['id']}/moves", json={"move": hint.json()["move"]})
    assert moved.status_code == 200
    solution = client.get(f"/api/games/{state['id']}/solution").json()
    assert solution["status"] == "won" and not calls
    position = get_game("path-36").position_from_json(moved.json()["position"])
    assert replay(position, [position.game.move_from_json(m["move"]) for m in solution["moves"]]).is_won()
    app.state.service.analyst.close()
