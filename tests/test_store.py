"""The SQLite store: saved games, results, statistics, schema version, concurrent use."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amber_patience.store import DB_ENV, SCHEMA_VERSION, GameRecord, Store, StoreError, default_db_path


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "sub" / "games.sqlite3")


def record(game_id: str, **fields: object) -> GameRecord:
    base: dict[str, object] = {"game": "path", "deal": 17, "created": 1000.0, "touched": 1000.0}
    base.update(fields)
    return GameRecord(id=game_id, **base)  # type: ignore[arg-type]


def test_a_game_is_saved_and_read_back_whole(store: Store) -> None:
    saved = record("a1", game="pyramid-52", options={"relaxed": True, "passes": "unlimited"}, deal=2**53 - 1,
                   setup={"Start": "Rs T11"}, practice=True, moves=[{"swap": [1, 2]}, {"draw": True}],
                   status="playing", elapsed=12.5)
    store.save_game(saved)
    back = store.get_game("a1")
    assert back == saved
    assert store.get_game("nope") is None


def test_a_position_game_keeps_its_start_position(store: Store) -> None:
    start = {"game": "path", "cells": [{"card": "1c"}], "deal": None}
    store.save_game(record("p", deal=None, start=start))
    back = store.get_game("p")
    assert back is not None and back.deal is None and back.start == start


def test_games_in_progress_leave_out_finished_ones_newest_first(store: Store) -> None:
    store.save_game(record("old"))
    store.save_game(record("won", status="won"))
    store.save_game(record("new"))
    assert [g.id for g in store.games_in_progress()] == ["new", "old"]
    store.save_game(record("old", moves=[{"swap": [3, 4]}]))  # played again: now the newest
    assert [g.id for g in store.games_in_progress()] == ["old", "new"]
    assert store.delete_game("old") is True and store.delete_game("old") is False
    assert [g.id for g in store.games_in_progress()] == ["new"]


def test_games_survive_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    Store(path).save_game(record("x", moves=[{"swap": [5, 9]}]))
    again = Store(path)
    back = again.get_game("x")
    assert back is not None and back.moves == [{"swap": [5, 9]}]


def test_schema_version_is_written_and_a_newer_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    assert Store(path).schema_version == SCHEMA_VERSION
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer"):
        Store(path)


def test_a_file_that_is_not_a_database_is_refused_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_text("not a database at all, just some text " * 100)
    with pytest.raises(StoreError, match=str(path.name)):
        Store(path)


def test_default_path_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "env.sqlite3"))
    assert default_db_path() == tmp_path / "env.sqlite3"
    assert Store().path == tmp_path / "env.sqlite3"
    monkeypatch.delenv(DB_ENV)
    assert "amber-patience" in str(default_db_path())


def test_statistics_per_game_and_variant_with_practice_apart(store: Store) -> None:
    path = record("g1")
    pyramid = record("g2", game="pyramid-52", options={"passes": 3})
    practice = record("g3", practice=True)
    store.record_result(path, True, 100.0, 60)
    store.record_result(path, True, 80.0, 70)
    store.record_result(path, False, 30.0, 5)
    store.record_result(path, True, 120.0, 55)
    store.record_result(pyramid, False, 10.0, 3)
    store.record_result(practice, True, 5.0, 2)
    table = {(s.game, s.practice, tuple(s.options.items())): s.to_json() for s in store.stats()}
    assert table[("path", False, ())] == {
        "game": "path", "options": {}, "practice": False, "played": 4, "won": 3, "current_streak": 1,
        "best_streak": 2, "best_seconds": 80.0, "fewest_moves": 55}
    assert table[("pyramid-52", False, (("passes", 3),))] == {
        "game": "pyramid-52", "options": {"passes": 3}, "practice": False, "played": 1, "won": 0,
        "current_streak": 0, "best_streak": 0, "best_seconds": None, "fewest_moves": None}
    assert table[("path", True, ())]["won"] == 1 and table[("path", True, ())]["best_seconds"] == 5.0
    assert len(table) == 3


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.floats(0, 1e5, allow_nan=False), st.integers(0, 500)), max_size=30))
def test_streaks_and_bests_over_any_sequence_of_results(results: list[tuple[bool, float, int]]) -> None:
    store = Store(":memory:")
    game = record("r")
    for won, seconds, moves in results:
        store.record_result(game, won, seconds, moves)
    stats = store.stats()
    if not results:
        assert stats == []
        return
    (only,) = stats
    runs = "".join("W" if won else "L" for won, _, _ in results).split("L")
    wins = [(s, m) for won, s, m in results if won]
    assert only.played == len(results) and only.won == len(wins)
    assert only.current_streak == len(runs[-1])
    assert only.best_streak == max(len(run) for run in runs)
    assert only.best_seconds == (min(s for s, _ in wins) if wins else None)
    assert only.fewest_moves == (min(m for _, m in wins) if wins else None)


def test_concurrent_writes_are_all_kept(store: Store) -> None:
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for i in range(10):
                store.save_game(record(f"t{k}-{i}", moves=[{"swap": [k, i]}]))
                store.record_result(record(f"t{k}-{i}"), i % 2 == 0, float(i), i)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.games_in_progress()) == 60
    (stats,) = store.stats()
    assert stats.played == 60 and stats.won == 30
