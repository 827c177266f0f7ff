"""Winning lines kept for instant hints: the cache, the store's tables, the analyst, and their use
by ``amber hint``, ``amber play`` and the web server."""

from __future__ import annotations

import io
import json
import os
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from amber_patience import solvers, store
from amber_patience.cli import main
from amber_patience.games import get_game
from amber_patience.games.base import Position
from amber_patience.solvers import amber, replay
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
    assert upgraded.schema_version == SCHEMA_VERSION == 3
    assert upgraded.get_game("g1") is not None
    upgraded.save_line("path-36", ["k"], [{"swap": [1, 2]}])
    assert upgraded.find_line("k") == ("path-36", [{"swap": [1, 2]}])


def test_a_schema_2_file_gets_the_figures_table_and_keeps_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # what the second version wrote: no table of figures
        db.executescript(store._SCHEMA[:store._SCHEMA.index("CREATE TABLE IF NOT EXISTS figures")])
        db.execute("INSERT INTO lines VALUES (1, 'path-36', '[{\"swap\":[1,2]}]', 1)")
        db.execute("INSERT INTO line_steps VALUES ('k', 1, 0)")
        db.execute("PRAGMA user_version = 2")
    upgraded = Store(path)
    assert upgraded.schema_version == SCHEMA_VERSION == 3
    assert upgraded.find_line("k") == ("path-36", [{"swap": [1, 2]}])
    assert upgraded.find_figure("k") is None
    upgraded.save_figure("path-36", "k", 113)
    assert upgraded.find_figure("k") == ("path-36", 113)


def test_the_store_keeps_the_newest_figures_and_refuses_a_figure_that_is_not_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_FIGURES", 3)
    kept = Store(tmp_path / "figures.sqlite3")
    for i in range(5):
        kept.save_figure("path-36", f"key{i}", 100 + i)
    assert [kept.find_figure(f"key{i}") for i in range(5)] == [None, None, ("path-36", 102), ("path-36", 103),
                                                               ("path-36", 104)]
    kept.save_figure("kolvir", "key3", 7)  # the same position solved again: the newer figure
    assert kept.find_figure("key3") == ("kolvir", 7)
    for bad in (-1, 2.5, "12", True, None):
        with pytest.raises(ValueError, match="difficulty figure"):
            kept.save_figure("path-36", "bad", bad)  # type: ignore[arg-type]
    assert kept.find_figure("bad") is None


def test_the_cache_keeps_figures_in_memory_and_in_the_store(tmp_path: Path) -> None:
    path = tmp_path / "figures.sqlite3"
    start, other = get_game("path-36").deal(5), get_game("path-36").deal(6)
    cache = LineCache(Store(path))
    assert cache.figure(start) is None
    cache.put_figure(start, 321)  # put after a look-up that found nothing: the new figure counts
    assert cache.figure(start) == 321 and cache.figure(other) is None
    assert LineCache(Store(path)).figure(start) == 321  # a later run reads it back
    assert LineCache().figure(start) is None  # no store, nothing kept
    foreign = Store(path)
    foreign.save_figure("kolvir", position_key(other), 9)  # an entry of another game under this key: ignored
    assert LineCache(foreign).figure(other) is None


def test_winning_line_keeps_the_solvers_difficulty_figure(tmp_path: Path) -> None:
    from amber_patience.solvers import solve

    start = get_game("path-36").deal(5)
    cache = LineCache(Store(tmp_path / "figures.sqlite3"))
    answer = winning_line(start, 10, cache)
    assert answer.status == "won"
    figure = answer.stats["difficulty"]
    assert cache.figure(start) == figure == solve(start, time_limit=10).stats["difficulty"] > 0
    assert winning_line(start, 10, cache).stats == {}  # answered from the line kept: the figure stays
    assert LineCache(cache.store).figure(start) == figure


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


# -- quick hints (eighth session): the hint from a quick line, the line shortened whole afterwards ----------


def _random_play(position: Position, seed: int, steps: int) -> Position:
    chooser = random.Random(seed)
    for _ in range(steps):
        if position.is_won() or position.is_lost():
            break
        position = position.play(chooser.choice(position.legal_moves()))
    return position


def _check_quick_hint(name: str, number: int, seed: int, steps: int) -> None:
    """The quick solution of a position after random play: its first move is legal and its line wins (the
    rules engine replays it); made whole, it still wins and is no longer."""
    position = _random_play(get_game(name).deal(number), seed, steps)
    assume(not position.is_won())
    quick = solvers.solve(position, time_limit=5, quick=True)
    if quick.status == "lost":
        assert position.lost_reason() is not None and not quick.moves
        return
    assume(quick.status == "won")  # a rare position beyond 5 s: nothing to check
    assert quick.moves[0] in position.legal_moves() and replay(position, quick.moves).is_won()
    whole = solvers.finish(position, quick)
    assert not solvers.is_quick(whole) and replay(position, whole.moves).is_won()
    assert len(whole.moves) <= len(quick.moves) and whole.stats["length"] == len(whole.moves)
    assert solvers.is_quick(quick)  # every Amber layout (Kolvir's too since its planner returns the path found)


@pytest.mark.parametrize("name", ["path-36", "path-52", "path"])
@settings(max_examples=2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(number=st.integers(1, 10_000), seed=st.integers(0, 2**32), steps=st.integers(0, 6))
def test_a_quick_hint_is_the_first_move_of_a_winning_line(monkeypatch: pytest.MonkeyPatch, name: str, number: int,
                                                           seed: int, steps: int) -> None:
    monkeypatch.setattr(amber, "RACE", False)  # one process: the test stays cheap
    _check_quick_hint(name, number, seed, steps)


@pytest.mark.parametrize("name", ["kolvir", "arden", "pattern"])
@settings(max_examples=1, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(number=st.integers(1, 10_000), seed=st.integers(0, 2**32), steps=st.integers(0, 6))
def test_a_quick_hint_of_the_slower_layouts_is_the_first_move_of_a_winning_line(
        monkeypatch: pytest.MonkeyPatch, name: str, number: int, seed: int, steps: int) -> None:
    monkeypatch.setattr(amber, "RACE", False)
    _check_quick_hint(name, number, seed, steps)


def test_solvers_hint_is_the_quick_solution_s_first_move() -> None:
    position = get_game("path-36").deal(2)
    assert solvers.hint(position, time_limit=20) == solvers.solve(position, time_limit=20, quick=True).moves[0]


@pytest.mark.parametrize(("name", "number"), [("path-36", 2), ("path-36", 9), ("path", 3)])
def test_the_line_kept_after_a_quick_hint_is_the_whole_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                            name: str, number: int) -> None:
    """Path 36 deal 2: the whole line does not begin with the hint; the line through the hint is kept too."""
    monkeypatch.setattr(amber, "RACE", False)  # deterministic: the same path found twice
    position = get_game(name).deal(number)
    whole = solvers.solve(position, time_limit=20).moves
    cache = LineCache(Store(tmp_path / "lines.sqlite3"))
    answer = winning_line(position, 20, cache, quick=True)
    assert answer.status == "won" and answer.finish is not None and replay(position, answer.moves).is_won()
    hint = answer.moves[0]
    assert cache.get(position, quick=True) == answer.moves  # not shortened yet: a hint may take it
    assert answer.finish() == whole and answer.finish() == whole  # shortened once: what solve returns
    assert cache.get(position) == whole and cache.get(position, quick=True) == whole
    after = position.play(hint)
    through = cache.get(after)
    assert through is not None and replay(after, through).is_won() and len(through) < len(answer.moves)
    if whole[0] == hint:
        assert through == whole[1:]
    fresh = LineCache(Store(tmp_path / "lines.sqlite3"))  # a new process reads the kept lines from the file
    assert fresh.get(position) == whole and fresh.get(after) == through


def test_a_quick_line_is_shortened_whole_before_anything_but_its_first_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber, "RACE", False)
    position = get_game("path-36").deal(2)
    finished: list[Position] = []
    real_finish = solvers.finish

    def counting(start: Position, solution: Any, **kw: Any) -> Any:
        finished.append(start)
        return real_finish(start, solution, **kw)

    monkeypatch.setattr(solvers, "finish", counting)
    cache = LineCache()
    answer = winning_line(position, 20, cache, quick=True)
    assert answer.stats["shortened_first"] == solvers.QUICK_OPTIONS["amber"]["shorten_first"]
    again = winning_line(position, 20, cache, quick=True)  # the first hint again: the quick line, as it is
    assert again.moves == answer.moves and again.finish is None and not finished
    assert cache.knows(position) and cache.knows(position.play(answer.moves[0])) and not finished
    calls = _no_solver(monkeypatch)
    rest = winning_line(position.play(answer.moves[0]), 20, cache, quick=True)  # the next hint: shortened first
    assert len(finished) == 1 and not calls and rest.finish is None
    assert len(rest.moves) < len(answer.moves) - 1
    assert answer.finish() == cache.get(position) and len(finished) == 1  # done already: not again


def test_the_cache_keeps_the_shorter_rest_where_lines_meet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber, "RACE", False)
    position = get_game("path-36").deal(9)
    quick = solvers.solve(position, time_limit=20, quick=True).moves
    whole = solvers.solve(position, time_limit=20).moves
    assert len(whole) < len(quick)
    cache = LineCache()
    cache.put(position, whole)
    cache.put(position, quick)  # a longer line from the same position: the shorter stays
    assert cache.get(position) == whole
    cache.put(position, whole[:0] + whole)
    other = LineCache()
    other.put(position, quick)
    other.put(position, whole)  # a shorter one replaces it
    assert other.get(position) == whole
    end = replay(position, quick[:-1])  # one move from the end of the longer line: its own rest is shortest
    assert other.get(end) == quick[-1:]


def test_amber_hint_prints_a_quick_hint_and_keeps_the_whole_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setattr(amber, "RACE", False)
    db = str(tmp_path / "hints.sqlite3")
    position = get_game("path-36").deal(2)
    whole = solvers.solve(position, time_limit=20).moves
    status, out, err = _cli(monkeypatch, capsys, ["hint", "--db", db], json.dumps(position.to_json()))
    assert status == 0, err
    move = position.game.move_from_json(json.loads(out)["move"])
    assert LineCache(Store(db)).get(position) == whole  # kept whole before the command ended
    after = position.play(move)
    calls = _no_solver(monkeypatch)
    status, out, err = _cli(monkeypatch, capsys, ["hint", "--db", db], json.dumps(after.to_json()))
    assert status == 0 and not calls, err
    rest = LineCache(Store(db)).get(after)
    assert rest is not None and json.loads(out)["move"] == rest[0].to_json() and replay(after, rest).is_won()


def test_amber_hint_on_a_lost_position_says_why(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    stranded = get_game("pattern").deal(4)  # its bottom-right block holds no clubs (docs/rules.md)
    status, out, err = _cli(monkeypatch, capsys, ["hint", "--db", str(tmp_path / "h.sqlite3")],
                            json.dumps(stranded.to_json()))
    assert status == 1 and json.loads(out) == {"move": None, "status": "lost"}
    assert "can never get one back" in err and "Traceback" not in err


def test_the_play_loop_gives_the_hint_then_the_whole_line_s_length(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Path 36 deal 2: the whole line does not begin with the hint; the length said is the line's through it."""
    monkeypatch.setattr(amber, "RACE", False)
    start = get_game("path-36").deal(2)
    status, out, err = _cli(monkeypatch, capsys, ["play", "path-36", "-n", "2"], "hint\nquit\n")
    assert status == 0, err
    line = next(text for text in out.splitlines() if "Hint: " in text)
    move = next(m for m in start.legal_moves() if f"Hint: {start.move_text(m)} " in line)
    kept = LineCache(Store(os.environ[store.DB_ENV]))  # the default store: the play session kept its lines there
    whole, through = kept.get(start), kept.get(start.play(move))
    assert whole is not None and through is not None and replay(start.play(move), through).is_won()
    assert line.endswith(f"(a winning line of {1 + len(through)} moves)")
    assert len(whole) <= 1 + len(through) < len(solvers.solve(start, time_limit=20, quick=True).moves)


def test_the_server_answers_a_first_hint_quick_and_keeps_the_whole_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber, "RACE", False)
    position = get_game("path-36").deal(2)
    whole = solvers.solve(position, time_limit=20).moves
    quick = solvers.solve(position, time_limit=20, quick=True).moves
    app = create_app(tmp_path / "web.sqlite3")
    client = TestClient(app)
    state = client.post("/api/games", json={"game": "path-36", "number": 2}).json()
    hint = client.get(f"/api/games/{state['id']}/hint")
    assert hint.status_code == 200 and hint.json()["move"] in [m["move"] for m in state["legal_moves"]]
    solution = client.get(f"/api/games/{state['id']}/solution").json()  # waits for the shortening if it runs
    assert solution["status"] == "won" and [m["move"] for m in solution["moves"]] == [m.to_json() for m in whole]
    calls = _no_solver(monkeypatch)
    moved = client.post(f"/api/games/{state['id']}/moves", json={"move": hint.json()["move"]}).json()
    following = client.get(f"/api/games/{state['id']}/hint")
    assert following.status_code == 200 and not calls
    after = get_game("path-36").position_from_json(moved["position"])
    rest = client.get(f"/api/games/{state['id']}/solution").json()
    moves = [after.game.move_from_json(m["move"]) for m in rest["moves"]]
    assert moves[0].to_json() == following.json()["move"] and replay(after, moves).is_won() and not calls
    assert len(moves) < len(quick) - 1  # the rest of the quick line, shortened whole


def test_the_analyst_keeps_the_whole_line_after_its_quick_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amber, "RACE", False)
    position = get_game("path-36").deal(9)
    whole = solvers.solve(position, time_limit=20).moves
    cache = LineCache()
    analyst = Analyst(cache, seconds=20)
    analyst.show(position)
    assert analyst.wait(position, 60) or cache.knows(position)
    assert analyst.idle(60) and cache.get(position) == whole and analyst.runs == 1
    analyst.close()


def test_the_store_keeps_the_shorter_rest_at_a_position(tmp_path: Path) -> None:
    """As the cache in memory: a longer line through a position does not take it from a shorter one; an equal
    one does (the newer), and so does any line where the kept one cannot be read."""
    kept = Store(tmp_path / "lines.sqlite3")
    short = [{"swap": [1, 2]}, {"swap": [3, 4]}]
    long = [{"swap": [5, 6]}, {"swap": [7, 8]}, {"swap": [9, 10]}]
    kept.save_line("path-36", ["start", "mid"], short)
    kept.save_line("path-36", ["start", "other", "mid2"], long)
    assert kept.find_line("start") == ("path-36", short)  # 2 moves left beat 3
    assert kept.find_line("other") == ("path-36", long[1:])
    tie = [{"swap": [11, 12]}, {"swap": [13, 14]}]
    kept.save_line("path-36", ["start", "mid3"], tie)
    assert kept.find_line("start") == ("path-36", tie)
    shorter = [{"swap": [15, 16]}]
    kept.save_line("path-36", ["start"], shorter)
    assert kept.find_line("start") == ("path-36", shorter)
    with sqlite3.connect(tmp_path / "lines.sqlite3") as db:  # the kept line damaged on disk
        db.execute("UPDATE lines SET moves = 'not json' WHERE moves LIKE '%15,16%'")
    assert kept.find_line("start") is None
    kept.save_line("path-36", ["start", "x", "y"], long)
    assert kept.find_line("start") == ("path-36", long)
