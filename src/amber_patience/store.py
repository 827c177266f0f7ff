"""The SQLite store: games in progress and finished, and the statistics.

One file (``sqlite3`` from the standard library) holds:

* ``games``: every game the player has started or imported: its game name, options, deal number,
  setup (start cards chosen before play), the starting position as JSON when it is not a numbered
  deal, the practice flag, the moves as a JSON list of move JSON objects, the status, timestamps
  and the seconds played. A game survives a server restart: the web server rebuilds its position
  by replaying the moves through the rules engine.
* ``results``: one row each time a game ends (won or lost by a move, or abandoned after a move),
  from which :meth:`Store.stats` computes the statistics per game and variant (options), practice
  games apart.
* ``lines`` and ``line_steps`` (schema 2): winning lines the solvers found, and the key of every
  position along each (:mod:`amber_patience.solvers.lines`), so that a hint along a line already
  found is instant, also in a later ``amber hint``. Only the newest :data:`MAX_LINES` are kept.
* ``figures`` (schema 3): the solver's difficulty figure of positions it won from (a deal's start among them),
  by the same position key, so that a game's state says its deal's difficulty after a restart too. Only the
  newest :data:`MAX_FIGURES` are kept.

The schema version is SQLite's ``PRAGMA user_version`` (:data:`SCHEMA_VERSION`); a file written by a
newer version is refused with a clear message rather than misread. A store keeps one connection
(WAL journal) and serialises its use with a lock, so it is safe to share between the server's worker
threads; another process (a second server on the same file) may read and write it too.

The default file lies in the user's data directory (``platformdirs.user_data_dir("amber-patience")``);
the environment variable ``AMBER_PATIENCE_DB`` or an explicit path (the ``--db`` flag) overrides it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The version of the schema this module writes (SQLite ``PRAGMA user_version``).
SCHEMA_VERSION = 3

#: Winning lines kept (the oldest are deleted first).
MAX_LINES = 2000

#: Difficulty figures kept (the oldest are deleted first).
MAX_FIGURES = 20_000

#: A step of a new line (key, line, step, the moves left from there) replaces the one kept for its position
#: only when the rest is no longer (or the kept line is gone or cannot be read).
_KEEP_SHORTER_REST = """
INSERT INTO line_steps (key, line, step) VALUES (?1, ?2, ?3)
ON CONFLICT (key) DO UPDATE SET line = excluded.line, step = excluded.step
WHERE ?4 <= coalesce((SELECT CASE WHEN json_valid(l.moves) THEN json_array_length(l.moves) - line_steps.step END
                      FROM lines l WHERE l.id = line_steps.line), ?4)
"""

#: The environment variable that chooses the database file.
DB_ENV = "AMBER_PATIENCE_DB"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    game      TEXT NOT NULL,
    options   TEXT NOT NULL,          -- JSON object, keys sorted
    deal      TEXT,                   -- the deal number in decimal, or NULL for a position given in full
    setup     TEXT NOT NULL,          -- JSON object of text values (Amber: Start, SecondStart)
    start     TEXT,                   -- JSON of the starting position when deal is NULL
    practice  INTEGER NOT NULL,
    moves     TEXT NOT NULL,          -- JSON list of move JSON objects
    status    TEXT NOT NULL,          -- playing | won | lost
    created   REAL NOT NULL,          -- Unix time
    updated   REAL NOT NULL,
    elapsed   REAL NOT NULL,          -- seconds played up to 'touched'
    touched   REAL NOT NULL           -- Unix time of the last request on the game
);
CREATE INDEX IF NOT EXISTS games_status ON games (status, updated);
CREATE TABLE IF NOT EXISTS results (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id   TEXT NOT NULL,
    game      TEXT NOT NULL,
    options   TEXT NOT NULL,
    practice  INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    seconds   REAL NOT NULL,
    moves     INTEGER NOT NULL,
    finished  REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_variant ON results (game, options, practice, id);
CREATE TABLE IF NOT EXISTS lines (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game      TEXT NOT NULL,          -- the game's name
    moves     TEXT NOT NULL,          -- JSON list of move JSON objects, from the line's first position
    created   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS line_steps (
    key       TEXT PRIMARY KEY,       -- SHA-256 of a position's JSON (solvers.lines.position_key)
    line      INTEGER NOT NULL,       -- lines.id
    step      INTEGER NOT NULL        -- the index in the line of the move to play from that position
);
CREATE INDEX IF NOT EXISTS line_steps_line ON line_steps (line);
CREATE TABLE IF NOT EXISTS figures (
    key       TEXT PRIMARY KEY,       -- SHA-256 of a position's JSON (solvers.lines.position_key)
    game      TEXT NOT NULL,          -- the game's name
    figure    INTEGER NOT NULL,       -- the solver's difficulty figure (stats["difficulty"])
    created   REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS figures_created ON figures (created);
"""


class StoreError(RuntimeError):
    """The database file cannot be used (e.g. written by a newer version); the message says why."""


def default_db_path() -> Path:
    """``$AMBER_PATIENCE_DB`` if set, else ``games.sqlite3`` in the user's data directory."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("amber-patience")) / "games.sqlite3"


def options_key(options: Mapping[str, Any]) -> str:
    """The canonical text of a game's options (JSON, keys sorted): one variant, one key."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass
class GameRecord:
    """One stored game."""

    id: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    deal: int | None = None
    setup: dict[str, str] = field(default_factory=dict)
    start: dict[str, Any] | None = None
    practice: bool = False
    moves: list[Any] = field(default_factory=list)
    status: str = "playing"
    created: float = 0.0
    updated: float = 0.0
    elapsed: float = 0.0
    touched: float = 0.0


@dataclass
class Stats:
    """The statistics of one game and variant (practice games apart)."""

    game: str
    options: dict[str, Any]
    practice: bool
    played: int = 0
    won: int = 0
    current_streak: int = 0
    best_streak: int = 0
    best_seconds: float | None = None
    fewest_moves: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "practice": self.practice, "played": self.played,
                "won": self.won, "current_streak": self.current_streak, "best_streak": self.best_streak,
                "best_seconds": self.best_seconds, "fewest_moves": self.fewest_moves}


class Store:
    """Saved games and statistics in one SQLite file (created on first use)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with self._connect() as db:
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(f"{self.path} was written by a newer Amber Patience (schema {version}; "
                                     f"this version reads schema {SCHEMA_VERSION} and older)")
                db.executescript(_SCHEMA)
                if version < SCHEMA_VERSION:
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except StoreError:
            self.close()
            raise

    def _open(self) -> sqlite3.Connection:
        """The store's one connection (opened on first use), shared by all threads under the lock."""
        if self._db is None:
            memory = str(self.path) == ":memory:"
            try:
                db = sqlite3.connect(":memory:" if memory else self.path, timeout=10, check_same_thread=False)
                db.row_factory = sqlite3.Row
                if not memory:
                    db.execute("PRAGMA journal_mode = WAL")  # readers (another server) do not wait for a writer
                    db.execute("PRAGMA synchronous = NORMAL")  # with WAL: safe against crashes, no fsync per move
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open the database {self.path}: {exc}") from None
            self._db = db
        return self._db

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """The connection inside the lock, in a transaction: committed on success, rolled back on error."""
        with self._lock:
            db = self._open()
            try:
                with db:
                    yield db
            except sqlite3.Error as exc:
                raise StoreError(f"database {self.path}: {exc}") from None

    def close(self) -> None:
        """Close the connection (the store opens it again if used afterwards)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    @property
    def schema_version(self) -> int:
        with self._connect() as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])

    # -- games --------------------------------------------------------------------------------------

    def save_game(self, record: GameRecord) -> None:
        """Insert or replace the game ``record.id``."""
        record.updated = time.time()
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO games (id, game, options, deal, setup, start, practice, moves, status,"
                " created, updated, elapsed, touched) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, record.game, options_key(record.options),
                 None if record.deal is None else str(record.deal),
                 json.dumps(record.setup, sort_keys=True, ensure_ascii=False),
                 None if record.start is None else json.dumps(record.start, ensure_ascii=False),
                 int(record.practice), json.dumps(record.moves, ensure_ascii=False), record.status,
                 record.created, record.updated, record.elapsed, record.touched))

    def get_game(self, game_id: str) -> GameRecord | None:
        """The stored game ``game_id``, or ``None``."""
        with self._connect() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _game_from_row(row)

    def delete_game(self, game_id: str) -> bool:
        """Remove a game; ``False`` if there was none. (Its results stay in the statistics.)"""
        with self._connect() as db:
            return db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0

    def games_in_progress(self) -> list[GameRecord]:
        """The games still being played, most recently played first."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM games WHERE status = 'playing' ORDER BY updated DESC, id").fetchall()
        return [_game_from_row(row) for row in rows]

    # -- winning lines ------------------------------------------------------------------------------

    def save_line(self, game: str, keys: list[str], moves: list[Any]) -> None:
        """Keep a winning line: ``moves`` (move JSON) from the position of ``keys[0]``; ``keys[i]`` is
        the key of the position before move ``i``. Only the newest :data:`MAX_LINES` lines are kept. A
        position keeps the shortest rest known from it (the newer line on a tie, or where the one kept
        cannot be read), as the cache in memory does (:class:`~amber_patience.solvers.lines.LineCache`)."""
        if len(keys) != len(moves):
            raise ValueError(f"a line of {len(moves)} moves needs {len(moves)} position keys, not {len(keys)}")
        with self._connect() as db:
            line = db.execute("INSERT INTO lines (game, moves, created) VALUES (?, ?, ?)",
                              (game, json.dumps(moves, separators=(",", ":")), time.time())).lastrowid
            db.executemany(_KEEP_SHORTER_REST, [(key, line, i, len(moves) - i) for i, key in enumerate(keys)])
            old = db.execute("SELECT id FROM lines ORDER BY id DESC LIMIT -1 OFFSET ?", (MAX_LINES,)).fetchall()
            if old:
                ids = [(row["id"],) for row in old]
                db.executemany("DELETE FROM line_steps WHERE line = ?", ids)
                db.executemany("DELETE FROM lines WHERE id = ?", ids)

    def find_line(self, key: str) -> tuple[str, list[Any]] | None:
        """The game and the rest of a kept line (move JSON) from the position of ``key``, or ``None``
        (also for an entry that cannot be read)."""
        with self._connect() as db:
            row = db.execute("SELECT l.game, l.moves, s.step FROM line_steps s JOIN lines l ON l.id = s.line"
                             " WHERE s.key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            moves = json.loads(row["moves"])
        except ValueError:
            return None
        if not isinstance(moves, list) or not 0 <= row["step"] < len(moves):
            return None
        return str(row["game"]), moves[row["step"]:]

    # -- difficulty figures ---------------------------------------------------------------------------

    def save_figure(self, game: str, key: str, figure: int) -> None:
        """Keep the solver's difficulty ``figure`` of the position of ``key`` (a game of ``game``), replacing the one
        kept for it. Only the newest :data:`MAX_FIGURES` figures are kept."""
        if isinstance(figure, bool) or not isinstance(figure, int) or figure < 0:
            raise ValueError(f"a difficulty figure is a whole number of states, at least 0, not {figure!r}")
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO figures (key, game, figure, created) VALUES (?, ?, ?, ?)",
                       (key, game, figure, time.time()))
            db.execute("DELETE FROM figures WHERE key IN (SELECT key FROM figures ORDER BY created DESC, rowid DESC"
                       " LIMIT -1 OFFSET ?)", (MAX_FIGURES,))

    def find_figure(self, key: str) -> tuple[str, int] | None:
        """The game and the difficulty figure kept for the position of ``key``, or ``None``."""
        with self._connect() as db:
            row = db.execute("SELECT game, figure FROM figures WHERE key = ?", (key,)).fetchone()
        if row is None or not isinstance(row["figure"], int):
            return None
        return str(row["game"]), int(row["figure"])

    # -- results and statistics ---------------------------------------------------------------------

    def record_result(self, record: GameRecord, won: bool, seconds: float, moves: int) -> None:
        """Count the end of a game in the statistics."""
        with self._connect() as db:
            db.execute(
                "INSERT INTO results (game_id, game, options, practice, won, seconds, moves, finished)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, record.game, options_key(record.options), int(record.practice), int(won),
                 float(seconds), int(moves), time.time()))

    def stats(self) -> list[Stats]:
        """The statistics of every game and variant played, sorted by game, options, practice."""
        with self._connect() as db:
            rows = db.execute("SELECT game, options, practice, won, seconds, moves FROM results"
                              " ORDER BY game, options, practice, id").fetchall()
        table: dict[tuple[str, str, int], Stats] = {}
        run: dict[tuple[str, str, int], int] = {}
        for row in rows:
            key = (row["game"], row["options"], row["practice"])
            stats = table.get(key)
            if stats is None:
                stats = table[key] = Stats(row["game"], json.loads(row["options"]), bool(row["practice"]))
                run[key] = 0
            stats.played += 1
            if row["won"]:
                stats.won += 1
                run[key] += 1
                stats.best_streak = max(stats.best_streak, run[key])
                seconds, moves = float(row["seconds"]), int(row["moves"])
                stats.best_seconds = seconds if stats.best_seconds is None else min(stats.best_seconds, seconds)
                stats.fewest_moves = moves if stats.fewest_moves is None else min(stats.fewest_moves, moves)
            else:
                run[key] = 0
            stats.current_streak = run[key]
        return list(table.values())


def _game_from_row(row: sqlite3.Row) -> GameRecord:
    return GameRecord(
        id=row["id"], game=row["game"], options=json.loads(row["options"]),
        deal=None if row["deal"] is None else int(row["deal"]), setup=json.loads(row["setup"]),
        start=None if row["start"] is None else json.loads(row["start"]), practice=bool(row["practice"]),
        moves=json.loads(row["moves"]), status=row["status"], created=row["created"], updated=row["updated"],
        elapsed=row["elapsed"], touched=row["touched"])
