"""Schemathesis against the app's own OpenAPI, in-process (ASGI): no generated request gets a 5xx.

Requests on a game (``/api/games/{game_id}/...``) are sent to a real game, dealt fresh for each case
(rotating over the game families), so the generated bodies reach the rules engine instead of
stopping at a 404. The solver time limits are tiny so that the run stays short.
"""

from __future__ import annotations

import atexit
import itertools
import shutil
import tempfile
from pathlib import Path

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from amber_patience.games import GAME_NAMES
from amber_patience.web.server import create_app

_DIR = Path(tempfile.mkdtemp(prefix="amber-schemathesis-"))
atexit.register(shutil.rmtree, _DIR, ignore_errors=True)
_DB = _DIR / "games.sqlite3"
app = create_app(_DB, hint_seconds=0.05, solution_seconds=0.2, winnable_seconds=0.3)
_client = TestClient(app)
_games = itertools.cycle([name for name in ("path-36", "kolvir", "pyramid-36", "zodiac", "simplest")
                          if name in GAME_NAMES])

schema = schemathesis.openapi.from_asgi("/openapi.json", app)


def _fresh_game_id() -> str:
    response = _client.post("/api/games", json={"game": next(_games), "number": 5})
    assert response.status_code == 201, response.text
    return response.json()["id"]


@schema.parametrize()
@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_no_server_errors(case: schemathesis.Case) -> None:
    if case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = _fresh_game_id()
    response = case.call()
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.status_code} {response.text}"
    case.validate_response(response, checks=[not_a_server_error])
