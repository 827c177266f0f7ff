"""The HTTP API (docs/http-api.md) through FastAPI's TestClient, against a temporary database."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amber_patience.games import GAME_NAMES, IllegalMoveError, get_game
from amber_patience.web.server import MAX_BODY_BYTES, create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> TestClient:
    return TestClient(create_app(db))


def new_game(client: TestClient, game: str = "path-36", number: int | None = 7, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": game, "number": number, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def play(client: TestClient, state: dict[str, Any], move: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{state['id']}/moves", json={"move": move})


def illegal_swap(game_name: str, number: int) -> tuple[list[int], str]:
    """A swap of two movable cells that the rules refuse, and the rules' reason."""
    position = get_game(game_name).deal(number)
    legal = {tuple(m.to_json()["swap"]) for m in position.legal_moves()}
    cells = [c for c in range(len(position.cards)) if c not in position.start_cells]
    for a, b in itertools.combinations(cells, 2):
        if (a, b) in legal:
            continue
        move = position.game.move_from_json({"swap": [a, b]})
        with pytest.raises(IllegalMoveError) as info:
            position.play(move)
        return [a, b], str(info.value)
    raise AssertionError("no illegal swap found")


# -- the catalogue and new games -------------------------------------------------------------------


def test_list_games_names_every_amber_layout_with_titles_and_options(client: TestClient) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    games = {g["name"]: g for g in response.json()}
    for name in ("path", "path-52", "path-36", "arden", "kolvir", "pattern"):
        assert games[name]["family"] == "amber"
        assert games[name]["title"]["en"] and games[name]["title"]["ru"]
        assert games[name]["options"] == []
    for game in games.values():
        for option in game["options"]:
            assert option["default"] in option["choices"]
            for choice in option["choices"]:  # every choice offered is accepted by the game
                get_game(game["name"], **{option["name"]: choice})


def test_a_stranded_pattern_deal_is_lost_from_the_start_and_says_why(client: TestClient) -> None:
    state = new_game(client, "pattern", 4)
    assert state["status"] == "lost" and state["legal_moves"] == []
    assert state["result"]["stranded"] == [{"block": "bottom-right", "kind": "clubs"}]


def test_new_game_by_number_deals_that_deal(client: TestClient) -> None:
    state = new_game(client, "kolvir", 12)
    expected = get_game("kolvir").deal(12)
    assert state["deal"] == 12
    assert state["game"] == "kolvir" and state["family"] == "amber"
    assert state["position"] == expected.to_json()
    assert {tuple(m["move"]["swap"]) for m in state["legal_moves"]} == {
        tuple(m.to_json()["swap"]) for m in expected.legal_moves()}
    assert state["status"] == "playing" and state["moves_played"] == 0
    assert state["started"] is False and state["can_undo"] is False
    assert state["elapsed_seconds"] == 0.0  # the clock runs from the first move
    assert state["result"] == expected.result()
    again = client.get(f"/api/games/{state['id']}")
    assert again.status_code == 200 and again.json()["position"] == state["position"]


def test_new_random_game_gets_a_deal_number(client: TestClient) -> None:
    state = new_game(client, "path", None)
    assert isinstance(state["deal"], int) and state["deal"] >= 0
    assert state["position"] == get_game("path").deal(state["deal"]).to_json()


@pytest.mark.parametrize("body, words", [
    ({"game": "no-such-game"}, "unknown game"),
    ({"game": "path", "options": {"colour": "red"}}, "no options"),
    ({"game": "path", "number": -3}, "negative"),
    ({"game": "path", "number": 2**60}, "at most"),
    ({"game": "path", "number": "seven"}, "number"),
    ({"number": 3}, "game: this field is required"),
    ({"game": "path", "surprise": 1}, "surprise: unknown field"),
])
def test_new_game_with_bad_input_says_what_is_wrong(client: TestClient, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert words in response.json()["detail"]


def test_new_winnable_game_is_won_by_the_solver(client: TestClient) -> None:
    from amber_patience.solvers import solve

    state = new_game(client, "path-36", 40, winnable=True)
    assert state["deal"] >= 40
    assert solve(get_game("path-36").deal(state["deal"]), time_limit=10).status == "won"


def test_a_winnable_deal_says_its_difficulty_and_a_plain_deal_does_not(client: TestClient) -> None:
    from amber_patience.solvers import solve
    from amber_patience.solvers.levels import bands_for, level_of

    state = new_game(client, "path-36", 40, winnable=True)
    figure = state["difficulty"]["figure"]
    bands = bands_for("path-36")
    assert bands is not None and state["difficulty"]["level"] == level_of(figure, bands)
    assert solve(get_game("path-36").deal(state["deal"]), time_limit=10).stats["difficulty"] == figure
    assert new_game(client, "path-36", 40, level="winnable")["difficulty"] == state["difficulty"]
    assert new_game(client, "path-36", state["deal"])["difficulty"] == state["difficulty"]  # the server knows it
    assert new_game(client, "path-36", 39)["difficulty"] is None  # a deal the server did not solve


def test_a_deal_solved_from_its_start_says_its_difficulty_also_after_a_restart(db: Path) -> None:
    from amber_patience.solvers import solve
    from amber_patience.solvers.levels import bands_for, level_of

    client = TestClient(create_app(db))
    state = new_game(client, "path-36", 39)
    assert state["difficulty"] is None  # not solved yet
    assert client.get(f"/api/games/{state['id']}/solution").status_code == 200  # the solver's line from the start
    figure = solve(get_game("path-36").deal(39), time_limit=10).stats["difficulty"]
    bands = bands_for("path-36")
    assert bands is not None
    known = {"figure": figure, "level": level_of(figure, bands)}
    assert client.get(f"/api/games/{state['id']}").json()["difficulty"] == known
    played = play(client, state, client.get(f"/api/games/{state['id']}/hint").json()["move"]).json()
    assert played["difficulty"] == known  # the deal's, not the position's after a move
    restarted = TestClient(create_app(db))  # a new server on the same file
    assert restarted.get(f"/api/games/{state['id']}").json()["difficulty"] == known
    assert new_game(restarted, "path-36", 39)["difficulty"] == known
    assert new_game(restarted, "path-36", 38)["difficulty"] is None


def test_a_hint_from_the_start_finds_the_deals_difficulty(client: TestClient) -> None:
    state = new_game(client, "kolvir", 3)
    assert state["difficulty"] is None
    assert client.get(f"/api/games/{state['id']}/hint").status_code == 200
    difficulty = client.get(f"/api/games/{state['id']}").json()["difficulty"]
    assert difficulty is not None and difficulty["figure"] > 0
    assert difficulty["level"] in ("easy", "medium", "hard")


def test_a_deal_whose_line_and_figure_are_kept_is_judged_without_the_solver(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from amber_patience import solvers

    app = create_app(db)
    client = TestClient(app)
    first = new_game(client, "path-36", 40, level="winnable")
    app.state.service.wait_prepared()
    assert app.state.service.prepared == {}  # preparing is off unless asked for (serve turns it on)

    def no_solver(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the solver ran")

    monkeypatch.setattr(solvers, "solve", no_solver)
    again = new_game(client, "path-36", 40, level="winnable")
    assert (again["deal"], again["difficulty"]) == (first["deal"], first["difficulty"])
    restarted = TestClient(create_app(db))  # the line and the figure read back from the database
    later = new_game(restarted, "path-36", 40, level="winnable")
    assert (later["deal"], later["difficulty"]) == (first["deal"], first["difficulty"])
    assert restarted.get(f"/api/games/{later['id']}/hint").status_code == 200  # along the kept line


def test_the_next_deal_of_a_level_asked_for_at_random_is_prepared_in_the_background(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from amber_patience import solvers
    from amber_patience.solvers.levels import bands_for
    from amber_patience.solvers.lines import position_key

    app = create_app(db, prepare_seconds=120)
    client = TestClient(app)
    service = app.state.service
    first = new_game(client, "path-36", None, level="hard")
    service.wait_prepared(300)
    key = ("path-36", "{}", "hard")
    ready = service.prepared[key]
    bands = bands_for("path-36")
    assert bands is not None and ready != first["deal"]
    start = get_game("path-36").deal(ready)
    assert service.lines.knows(start) and (service.lines.figure(start) or 0) >= bands.upper
    solved: list[str] = []
    real = solvers.solve

    def counted(position: Any, **limits: Any) -> Any:
        solved.append(position_key(position))
        return real(position, **limits)

    monkeypatch.setattr(solvers, "solve", counted)
    second = new_game(client, "path-36", None, level="hard")
    assert second["deal"] == ready and second["difficulty"]["level"] == "hard"
    assert position_key(start) not in solved  # taken from its kept line and figure, not solved again
    service.wait_prepared(300)  # and the next one is prepared
    assert service.prepared[key] not in (ready, first["deal"])  # no deal dealt at random before


def test_a_level_not_found_in_time_is_looked_for_in_the_background_for_the_next_request(db: Path) -> None:
    # no time to solve a deal in the request (one deal is tried for 0.05 s: a hard Pattern deal takes seconds)
    app = create_app(db, prepare_seconds=300, winnable_seconds=0.0)
    client = TestClient(app)
    refused = client.post("/api/games", json={"game": "pattern", "level": "hard"})
    assert refused.status_code == 503
    assert "try again (the server goes on looking in the background) or ask for any deal" in refused.json()["detail"]
    app.state.service.wait_prepared(300)
    ready = app.state.service.prepared[("pattern", "{}", "hard")]
    again = new_game(client, "pattern", None, level="hard")  # judged from the kept line and figure: no time needed
    assert again["deal"] == ready and again["difficulty"]["level"] == "hard"
    # preparing off (and nothing kept yet): the message does not promise it
    plain = TestClient(create_app(db.with_name("plain.sqlite3"), winnable_seconds=0.0))
    refused = plain.post("/api/games", json={"game": "pattern", "level": "hard"})
    assert refused.status_code == 503 and "try again or ask for any deal" in refused.json()["detail"]


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_new_easy_or_hard_deal_is_of_that_level(client: TestClient, level: str) -> None:
    from amber_patience.solvers import solve
    from amber_patience.solvers.levels import bands_for, level_of

    bands = bands_for("path-36")
    assert bands is not None
    state = new_game(client, "path-36", 1, level=level)
    assert state["difficulty"]["level"] == level
    again = solve(get_game("path-36").deal(state["deal"]), time_limit=10)
    assert again.status == "won" and level_of(int(again.stats["difficulty"]), bands) == level
    assert client.get(f"/api/games/{state['id']}").json()["difficulty"] == state["difficulty"]
    assert client.post(f"/api/games/{state['id']}/restart").json()["difficulty"] == state["difficulty"]
    hint = client.get(f"/api/games/{state['id']}/hint")  # the line that proved the deal is kept
    assert hint.status_code == 200 and hint.json()["move"] in [m["move"] for m in state["legal_moves"]]


def test_a_hard_deal_at_random_comes_from_the_calibrations_hard_deals(client: TestClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from amber_patience.solvers import levels, solve

    bands = levels.bands_for("path-36")
    assert bands is not None and bands.hard_deals
    state = new_game(client, "path-36", None, level="hard")
    assert state["deal"] in bands.hard_deals and state["difficulty"]["level"] == "hard"
    # a listed deal that is not hard (a list from an older solver) is solved, refused, and the search goes on
    easy = next(n for n in range(1, 101) if n not in bands.hard_deals and levels.level_of(
        solve(get_game("path-36").deal(n), time_limit=10).stats["difficulty"], bands) == "easy")
    monkeypatch.setattr(levels, "all_bands", lambda: {"path-36": levels.Bands("path-36", bands.lower, bands.upper,
                                                                               (easy,))})
    state = new_game(client, "path-36", None, level="hard")
    assert state["deal"] != easy and state["difficulty"]["level"] == "hard"


def test_the_catalogue_says_which_games_have_levels(client: TestClient) -> None:
    from amber_patience.games.amber import GAMES

    levels = {g["name"]: g["levels"] for g in client.get("/api/games").json()}
    assert {name for name, offered in levels.items() if offered} == set(GAMES)
    assert levels["path-36"] == ["easy", "hard"] and levels["pyramid-52"] == []


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_levels_of_a_game_without_bands_are_refused_clearly(client: TestClient, level: str) -> None:
    response = client.post("/api/games", json={"game": "pyramid-52", "number": 1, "level": level})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert "pyramid-52 has no difficulty bands" in detail and "path-36" in detail and "pattern" in detail
    assert client.get("/api/saved").json() == []


@pytest.mark.parametrize("level", ["medium", "EASY", 1, None])
def test_a_bad_level_is_422(client: TestClient, level: Any) -> None:
    response = client.post("/api/games", json={"game": "path-36", "number": 1, "level": level})
    assert response.status_code == 422
    assert "level" in response.json()["detail"]


# -- moves --------------------------------------------------------------------------------------------


def test_a_legal_move_is_played(client: TestClient) -> None:
    state = new_game(client, "arden", 3)
    entry = state["legal_moves"][len(state["legal_moves"]) // 2]
    response = play(client, state, entry["move"])
    assert response.status_code == 200, response.text
    after = response.json()
    game = get_game("arden")
    expected = game.deal(3).play(game.move_from_json(entry["move"]))
    assert after["position"] == expected.to_json()
    assert after["moves_played"] == 1 and after["started"] is True
    assert after["can_undo"] is False  # not a practice game


def test_an_illegal_swap_is_refused_with_the_rules_reason_and_nothing_changes(client: TestClient) -> None:
    state = new_game(client, "path", 5)
    swap, reason = illegal_swap("path", 5)
    response = play(client, state, {"swap": swap})
    assert response.status_code == 409
    assert response.json()["detail"] == reason
    after = client.get(f"/api/games/{state['id']}").json()
    assert after["position"] == state["position"] and after["moves_played"] == 0


def test_a_start_card_cannot_move(client: TestClient) -> None:
    state = new_game(client, "path", 5)
    response = play(client, state, {"swap": [0, 1]})
    assert response.status_code == 409
    assert "start card" in response.json()["detail"]


@pytest.mark.parametrize("content, words", [
    (b'{"move": {"swap": [1, 2]', "not valid JSON"),
    (b"[1, 2]", "body"),
    (b'{"move": {"swap": [1]}}', "two cell ids"),
    (b'{"move": {"jump": 3}}', "swap"),
    (b'{"move": "1-2"}', "swap"),
    (b'{}', "move: this field is required"),
])
def test_malformed_moves_get_422_saying_what_is_wrong(client: TestClient, content: bytes, words: str) -> None:
    state = new_game(client)
    response = client.post(f"/api/games/{state['id']}/moves", content=content,
                           headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert words in response.json()["detail"]
    assert client.get(f"/api/games/{state['id']}").json()["moves_played"] == 0


def test_unknown_game_id_is_404(client: TestClient) -> None:
    for method, path in (("GET", "/api/games/nope"), ("POST", "/api/games/nope/undo"),
                         ("GET", "/api/games/nope/hint"), ("DELETE", "/api/games/nope")):
        response = client.request(method, path)
        assert response.status_code == 404
        assert "no game with id 'nope'" in response.json()["detail"]


# -- undo, restart, setup ----------------------------------------------------------------------------


def test_undo_only_in_practice_games(client: TestClient) -> None:
    ranked = new_game(client, "path-52", 9)
    after = play(client, ranked, ranked["legal_moves"][0]["move"]).json()
    refused = client.post(f"/api/games/{ranked['id']}/undo")
    assert refused.status_code == 409 and "practice" in refused.json()["detail"]
    assert client.get(f"/api/games/{ranked['id']}").json()["position"] == after["position"]

    practice = new_game(client, "path-52", 9, practice=True)
    assert client.post(f"/api/games/{practice['id']}/undo").status_code == 409  # nothing to undo yet
    first = play(client, practice, practice["legal_moves"][0]["move"]).json()
    assert first["can_undo"] is True
    second = play(client, first, first["legal_moves"][-1]["move"]).json()
    assert second["moves_played"] == 2
    undone = client.post(f"/api/games/{practice['id']}/undo")
    assert undone.status_code == 200
    assert undone.json()["position"] == first["position"] and undone.json()["moves_played"] == 1


def test_restart_clears_the_moves_and_keeps_deal_and_setup(client: TestClient) -> None:
    state = new_game(client, "path-36", 11)
    chosen = client.post(f"/api/games/{state['id']}/setup", json={"setup": {"Start": "7h"}})
    assert chosen.status_code == 200, chosen.text
    start = chosen.json()
    for _ in range(3):
        state = play(client, state, state["legal_moves"][0]["move"]).json()
    assert state["moves_played"] == 3
    restarted = client.post(f"/api/games/{state['id']}/restart")
    assert restarted.status_code == 200
    body = restarted.json()
    assert body["moves_played"] == 0 and body["started"] is False
    assert body["position"] == start["position"] and body["setup"] == {"Start": "7h"}
    assert body["elapsed_seconds"] == 0.0  # the clock starts again at the first move


def test_setup_chooses_start_cards_only_before_the_first_move(client: TestClient) -> None:
    state = new_game(client, "arden", 4)
    response = client.post(f"/api/games/{state['id']}/setup", json={"setup": {"Start": "Rs T11"}})
    assert response.status_code == 200, response.text
    chosen = response.json()
    expected = get_game("arden").deal(4, {"Start": "Rs T11"})
    assert chosen["position"] == expected.to_json()
    bad = client.post(f"/api/games/{state['id']}/setup", json={"setup": {"Start": "Rs Rh"}})
    assert bad.status_code == 409 and "different kinds" in bad.json()["detail"]
    unreadable = client.post(f"/api/games/{state['id']}/setup", json={"setup": {"Start": "Zz T11"}})
    assert unreadable.status_code == 422
    played = play(client, chosen, chosen["legal_moves"][0]["move"]).json()
    late = client.post(f"/api/games/{state['id']}/setup", json={"setup": {"Start": "Rh T12"}})
    assert late.status_code == 409 and "before the first move" in late.json()["detail"]
    assert client.get(f"/api/games/{state['id']}").json()["position"] == played["position"]


# -- solver --------------------------------------------------------------------------------------------


def test_hint_is_a_legal_move(client: TestClient) -> None:
    state = new_game(client, "path-36", 3)
    response = client.get(f"/api/games/{state['id']}/hint")
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["move"] in [m["move"] for m in state["legal_moves"]]
    assert hint["text"] and hint["description"] and set(hint["info"]) == {"cards", "from", "to"}
    russian = client.get(f"/api/games/{state['id']}/hint", params={"lang": "ru"}).json()
    assert russian["description"] != hint["description"] or russian["move"] != hint["move"]


def test_hints_along_a_line_found_need_no_new_search(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import amber_patience.solvers as solvers

    state = new_game(client, "path-36", 4)
    first = client.get(f"/api/games/{state['id']}/hint").json()
    calls: list[Any] = []
    real_solve = solvers.solve

    def counting(position: Any, **limits: Any) -> Any:
        calls.append(position)
        return real_solve(position, **limits)

    monkeypatch.setattr(solvers, "solve", counting)
    state = play(client, state, first["move"]).json()
    for _ in range(3):  # follow the hints: the line found first answers each of them
        hint = client.get(f"/api/games/{state['id']}/hint").json()
        assert hint["move"] in [m["move"] for m in state["legal_moves"]]
        state = play(client, state, hint["move"]).json()
    solution = client.get(f"/api/games/{state['id']}/solution").json()
    assert solution["status"] == "won" and calls == []
    # a move off the line makes the solver search again, from the new position
    off = next(m["move"] for m in state["legal_moves"] if m["move"] != solution["moves"][0]["move"])
    state = play(client, state, off).json()
    assert client.get(f"/api/games/{state['id']}/hint").status_code == 200
    assert len(calls) == 1 and calls[0].to_json()["cells"] == state["position"]["cells"]


def win_through_solution(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/games/{state['id']}/solution")
    assert response.status_code == 200
    solution = response.json()
    assert solution["status"] == "won" and solution["moves"]
    for entry in solution["moves"]:
        step = play(client, state, entry["move"])
        assert step.status_code == 200, step.text
        state = step.json()
    return state


def test_a_failing_solver_is_reported_not_a_server_error(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import amber_patience.solvers as solvers

    def broken(position: Any, **limits: Any) -> Any:
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(solvers, "solve", broken)
    state = new_game(client, "path-36", 3)
    hint = client.get(f"/api/games/{state['id']}/hint")
    assert hint.status_code == 404 and "solver failed: ZeroDivisionError: oops" in hint.json()["detail"]
    solution = client.get(f"/api/games/{state['id']}/solution").json()
    assert solution["status"] == "unknown" and "ZeroDivisionError" in solution["detail"]


def test_a_win_through_the_solution_counts_in_the_statistics(client: TestClient) -> None:
    assert client.get("/api/stats").json() == []
    state = win_through_solution(client, new_game(client, "path-36", 2))
    assert state["status"] == "won" and state["legal_moves"] == []
    assert state["result"]["won"] is True
    more = play(client, state, {"swap": [1, 2]})
    assert more.status_code == 409 and "over" in more.json()["detail"]
    assert client.get(f"/api/games/{state['id']}/solution").json()["status"] == "won"
    assert client.get(f"/api/games/{state['id']}/hint").status_code == 409
    stats = client.get("/api/stats").json()
    assert stats == [{"game": "path-36", "options": {}, "practice": False, "played": 1, "won": 1,
                      "current_streak": 1, "best_streak": 1, "best_seconds": stats[0]["best_seconds"],
                      "fewest_moves": state["moves_played"]}]
    assert stats[0]["best_seconds"] >= 0
    # A practice win is counted apart; a won game is no longer in progress.
    practice = win_through_solution(client, new_game(client, "path-36", 2, practice=True))
    by_practice = {s["practice"]: s for s in client.get("/api/stats").json()}
    assert by_practice[True]["won"] == 1 and by_practice[False]["won"] == 1
    saved_ids = {g["id"] for g in client.get("/api/saved").json()}
    assert state["id"] not in saved_ids and practice["id"] not in saved_ids
    # Importing the won game's record gives a won game, which is not counted again.
    imported = client.post("/api/records", json={"record": client.get(f"/api/games/{state['id']}/record").text})
    assert imported.status_code == 201 and imported.json()["status"] == "won"
    assert client.get("/api/stats").json() == [by_practice[False], by_practice[True]]


def test_abandoning_a_started_game_counts_as_not_won(client: TestClient) -> None:
    untouched = new_game(client, "path-36", 5)
    started = new_game(client, "path-36", 6)
    play(client, started, started["legal_moves"][0]["move"])
    assert client.delete(f"/api/games/{untouched['id']}").status_code == 204
    assert client.delete(f"/api/games/{started['id']}").status_code == 204
    assert client.get(f"/api/games/{started['id']}").status_code == 404
    stats = client.get("/api/stats").json()
    assert [(s["played"], s["won"], s["current_streak"]) for s in stats] == [(1, 0, 0)]


def test_the_clock_runs_from_the_first_move_and_skips_long_pauses(db: Path) -> None:
    from amber_patience.web.server import IDLE_SECONDS

    app = create_app(db)
    now = [1_000_000.0]
    app.state.service.clock = lambda: now[0]
    client = TestClient(app)
    state = new_game(client, "path-36", 4, practice=True)
    now[0] += 500  # studying the deal: not timed
    assert client.get(f"/api/games/{state['id']}").json()["elapsed_seconds"] == 0.0
    state = play(client, state, state["legal_moves"][0]["move"]).json()
    assert state["elapsed_seconds"] == 0.0
    now[0] += 30
    assert client.get(f"/api/games/{state['id']}").json()["elapsed_seconds"] == 30.0
    state = play(client, state, state["legal_moves"][0]["move"]).json()
    now[0] += 10 * IDLE_SECONDS  # the player went away: the pause counts as IDLE_SECONDS
    assert client.get(f"/api/games/{state['id']}").json()["elapsed_seconds"] == 30.0 + IDLE_SECONDS
    state = client.post(f"/api/games/{state['id']}/undo").json()
    assert state["elapsed_seconds"] == 30.0 + IDLE_SECONDS
    now[0] += 5
    assert client.post(f"/api/games/{state['id']}/restart").json()["elapsed_seconds"] == 0.0


def test_a_running_solver_does_not_hold_up_other_requests(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import amber_patience.solvers as solvers

    entered, release = threading.Event(), threading.Event()
    real_solve = solvers.solve

    def slow_solve(position: Any, **limits: Any) -> Any:
        entered.set()
        assert release.wait(30), "the test never released the solver: other requests were held up"
        return real_solve(position, **limits)

    monkeypatch.setattr(solvers, "solve", slow_solve)
    with TestClient(create_app(db)) as client:  # one event loop for every request, as under uvicorn
        state = new_game(client, "path-36", 2)
        answers: dict[str, Any] = {}
        worker = threading.Thread(target=lambda: answers.update(
            solution=client.get(f"/api/games/{state['id']}/solution")))
        worker.start()
        assert entered.wait(30)
        # The solver is now running (and waiting): the server still answers.
        assert client.get("/api/stats").status_code == 200
        assert play(client, state, state["legal_moves"][0]["move"]).status_code == 200
        # With every solver slot taken, another solver request is told so instead of piling up.
        service = client.app.state.service  # type: ignore[attr-defined]
        service.solver_wait = 0.2
        with service.solver_slot():
            busy = client.get(f"/api/games/{state['id']}/hint")
        assert busy.status_code == 503 and "busy" in busy.json()["detail"]
        release.set()
        worker.join(60)
    assert answers["solution"].status_code == 200
    assert answers["solution"].json()["status"] == "won"


def test_concurrent_moves_on_one_game_are_applied_one_at_a_time(db: Path) -> None:
    with TestClient(create_app(db)) as client:
        state = new_game(client, "pattern", 7)
        accepted: list[int] = []
        other: list[int] = []

        def player(k: int) -> None:
            for _ in range(6):
                current = client.get(f"/api/games/{state['id']}").json()
                moves = current["legal_moves"]
                response = play(client, current, moves[k % len(moves)]["move"])
                (accepted if response.status_code == 200 else other).append(response.status_code)

        threads = [threading.Thread(target=player, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert set(other) <= {409}  # a move made stale by another player's move is refused, nothing worse
        final = client.get(f"/api/games/{state['id']}").json()
        assert final["moves_played"] == len(accepted)
        record = client.get(f"/api/games/{state['id']}/record").text
    from amber_patience.records import parse_record, replay

    result = replay(parse_record(record))
    assert result.legal and result.played == len(accepted)
    assert result.final.to_json() == final["position"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(GAME_NAMES), number=st.integers(1, 10**6), picks=st.lists(st.integers(0, 10**6),
                                                                                    max_size=8))
def test_random_play_through_the_api_matches_the_rules_engine(tmp_path: Path, game: str, number: int,
                                                              picks: list[int]) -> None:
    db = tmp_path / f"random-{game}-{number}-{len(picks)}.sqlite3"
    client = TestClient(create_app(db))
    state = new_game(client, game, number)
    position = get_game(game).deal(number)
    for pick in picks:
        if state["status"] != "playing":
            break
        entry = state["legal_moves"][pick % len(state["legal_moves"])]
        position = position.play(position.game.move_from_json(entry["move"]))
        response = play(client, state, entry["move"])
        assert response.status_code == 200, response.text
        state = response.json()
        assert state["position"] == position.to_json()
        assert [m["move"] for m in state["legal_moves"]] == (
            [m.to_json() for m in position.legal_moves()] if state["status"] == "playing" else [])
    resumed = TestClient(create_app(db)).get(f"/api/games/{state['id']}").json()  # after a restart
    assert resumed["position"] == state["position"] and resumed["moves_played"] == state["moves_played"]


def test_winnable_search_gives_up_with_a_message(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import amber_patience.solvers as solvers

    tried: list[int | None] = []

    def never_wins(position: Any, **limits: Any) -> Any:
        tried.append(position.deal_number)
        return solvers.Solution("unknown")

    monkeypatch.setattr(solvers, "solve", never_wins)
    client = TestClient(create_app(db, winnable_seconds=0.0))
    response = client.post("/api/games", json={"game": "path", "number": 30, "winnable": True})
    assert response.status_code == 503
    assert "no deal of Path in Shadow proved winnable" in response.json()["detail"]
    assert tried == [30]
    assert client.get("/api/saved").json() == []
    response = client.post("/api/games", json={"game": "path", "number": 30, "level": "hard"})
    assert response.status_code == 503
    assert "no deal of Path in Shadow found hard in 0 s (1 deals tried from deal 30)" in response.json()["detail"]
    from amber_patience.solvers.levels import bands_for

    tried.clear()
    response = client.post("/api/games", json={"game": "path", "level": "hard"})  # at random: the list first
    assert response.status_code == 503
    assert "(1 deals tried among the " in response.json()["detail"]
    assert "hard deals of the calibration, then from random deal " in response.json()["detail"]
    bands = bands_for("path")
    assert bands is not None and tried[0] in bands.hard_deals


def test_a_lost_game_counts_as_played_not_won(client: TestClient) -> None:
    state = new_game(client, "pyramid-52", 11)
    while state["status"] == "playing":  # draw whenever possible: the single pass runs out
        moves = state["legal_moves"]
        draws = [m for m in moves if "draw" in m["move"]]
        state = play(client, state, (draws or moves)[0]["move"]).json()
    stats = client.get("/api/stats").json()
    assert [(s["game"], s["played"], s["won"]) for s in stats] == [
        ("pyramid-52", 1, 1 if state["status"] == "won" else 0)]
    assert state["status"] == "lost"  # drawing through the stock does not clear the pyramid


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_game_exports_and_imports_its_record(client: TestClient, game: str) -> None:
    state = new_game(client, game, 3)
    for i in range(3):
        if state["status"] != "playing":
            break
        state = play(client, state, state["legal_moves"][i % len(state["legal_moves"])]["move"]).json()
    text = client.get(f"/api/games/{state['id']}/record")
    assert text.status_code == 200, text.text
    copy = client.post("/api/records", json={"record": text.text})
    assert copy.status_code == 201, copy.text
    assert copy.json()["position"] == state["position"] and copy.json()["moves_played"] == state["moves_played"]


def test_a_move_that_cannot_be_saved_is_not_kept(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from amber_patience.store import StoreError

    app = create_app(db)
    client = TestClient(app)
    state = new_game(client, "path-36", 8)
    store = app.state.store

    def disk_full(record: Any) -> None:
        raise StoreError("disk I/O error")

    monkeypatch.setattr(store, "save_game", disk_full)
    response = play(client, state, state["legal_moves"][0]["move"])
    assert response.status_code == 503 and "disk I/O error" in response.json()["detail"]
    monkeypatch.undo()
    after = client.get(f"/api/games/{state['id']}").json()
    assert after["moves_played"] == 0 and after["position"] == state["position"]


# -- saved games and server restart -------------------------------------------------------------------


def test_a_game_resumes_after_a_server_restart(db: Path) -> None:
    first = TestClient(create_app(db))
    state = new_game(first, "pattern", 21, practice=True)
    for i in range(4):
        state = play(first, state, state["legal_moves"][i % len(state["legal_moves"])]["move"]).json()
    assert [g["id"] for g in first.get("/api/saved").json()] == [state["id"]]

    second = TestClient(create_app(db))  # a new server on the same file
    saved = second.get("/api/saved").json()
    assert [(g["id"], g["game"], g["deal"], g["moves_played"]) for g in saved] == [(state["id"], "pattern", 21, 4)]
    resumed = second.get(f"/api/games/{state['id']}").json()
    assert resumed["position"] == state["position"] and resumed["moves_played"] == 4
    assert resumed["practice"] is True and resumed["can_undo"] is True
    undone = second.post(f"/api/games/{state['id']}/undo")
    assert undone.status_code == 200 and undone.json()["moves_played"] == 3


# -- records -------------------------------------------------------------------------------------------


def test_record_export_and_import_round_trip(client: TestClient) -> None:
    state = new_game(client, "kolvir", 8)
    state = client.post(f"/api/games/{state['id']}/setup", json={"setup": {"Start": "T5 3d"}}).json()
    for i in range(5):
        state = play(client, state, state["legal_moves"][(3 * i) % len(state["legal_moves"])]["move"]).json()
    response = client.get(f"/api/games/{state['id']}/record")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert '[Game "kolvir"]' in text and '[Deal "8"]' in text and '[Start "T5 3d"]' in text
    imported = client.post("/api/records", json={"record": text})
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["id"] != state["id"]
    for key in ("game", "deal", "position", "moves_played", "status", "setup", "practice"):
        assert copy[key] == state[key], key
    assert client.get(f"/api/games/{copy['id']}/record").text.split("[Result")[0] == text.split("[Result")[0]


def test_import_refuses_a_malformed_or_illegal_record(client: TestClient) -> None:
    garbage = client.post("/api/records", json={"record": "this is not a record"})
    assert garbage.status_code == 422 and garbage.json()["detail"]
    swap, reason = illegal_swap("path", 5)
    position = get_game("path").deal(5)
    text = f'[Game "path"]\n[Deal "5"]\n\n1. {position.cards[swap[0]]}-{position.cards[swap[1]]}\n'
    illegal = client.post("/api/records", json={"record": text})
    assert illegal.status_code == 422
    assert "move 1" in illegal.json()["detail"] and reason.split(": ", 1)[1] in illegal.json()["detail"]
    assert client.get("/api/saved").json() == []


def test_a_record_from_a_position_is_imported_and_resumed(db: Path) -> None:
    from amber_patience.records import write_record

    dealt = get_game("kolvir").deal(14)
    middle = dealt.play(dealt.legal_moves()[2])
    moves = middle.legal_moves()[:1]
    text = write_record(middle, moves)
    assert "[Position" in text
    client = TestClient(create_app(db))
    imported = client.post("/api/records", json={"record": text})
    assert imported.status_code == 201, imported.text
    state = imported.json()
    assert state["position"] == middle.play(moves[0]).to_json() and state["moves_played"] == 1
    unplayed = client.post("/api/records", json={"record": write_record(middle, [])}).json()
    assert unplayed["moves_played"] == 0 and unplayed["position"] == middle.to_json()
    refused = client.post(f"/api/games/{unplayed['id']}/setup", json={"setup": {"Start": "T3 4c"}})
    assert refused.status_code == 409 and "numbered deal" in refused.json()["detail"]
    restarted = TestClient(create_app(db)).post(f"/api/games/{state['id']}/restart")  # after a server restart
    assert restarted.status_code == 200 and restarted.json()["position"] == middle.to_json()


# -- rules ----------------------------------------------------------------------------------------------


def assert_balanced_html(html: str) -> None:
    from html.parser import HTMLParser

    class Checker(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.stack: list[str] = []

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            self.stack.append(tag)

        def handle_endtag(self, tag: str) -> None:
            assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:] or 'nothing'}"
            self.stack.pop()

    checker = Checker()
    checker.feed(html)
    assert checker.stack == [], f"unclosed tags: {checker.stack}"
    assert "<script" not in html.lower()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rules_in_both_languages(client: TestClient, lang: str) -> None:
    games = [g["name"] for g in client.get("/api/games").json()]
    for name in games:
        response = client.get(f"/api/rules/{name}", params={"lang": lang})
        assert response.status_code == 200
        body = response.json()
        assert body["game"] == name and body["lang"] == lang
        assert body["title"] == get_game(name).title(lang)
        assert "<p>" in body["html"] or "<li>" in body["html"]
        assert_balanced_html(body["html"])
        if lang == "ru":  # the Russian text is Russian
            assert sum("а" <= ch <= "я" for ch in body["html"].lower()) > 100
    assert client.get("/api/rules/nope").status_code == 404
    assert client.get("/api/rules/path", params={"lang": "fr"}).status_code == 422


# -- safety: Host, Origin, body size -------------------------------------------------------------------


def test_only_requests_for_this_host_are_answered(client: TestClient) -> None:
    assert client.get("/api/games", headers={"host": "127.0.0.1"}).status_code == 200  # port 80 here
    refused = client.get("/api/games", headers={"host": "evil.example"})
    assert refused.status_code == 403 and "evil.example" in refused.json()["detail"]
    assert client.get("/api/games", headers={"host": "127.0.0.1:9999"}).status_code == 403


def test_host_check_uses_the_port_the_server_listens_on(db: Path) -> None:
    app = create_app(db)

    async def call(host: str) -> int:
        statuses = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": "/api/stats", "raw_path": b"/api/stats", "query_string": b"",
                 "root_path": "", "headers": [(b"host", host.encode())], "client": ("127.0.0.1", 5000),
                 "server": ("127.0.0.1", 8765)}
        await app(scope, receive, send)
        return statuses[0]

    import anyio

    assert anyio.run(call, "127.0.0.1:8765") == 200
    assert anyio.run(call, "localhost:8765") == 200
    assert anyio.run(call, "localhost:8000") == 403
    assert anyio.run(call, "attacker.example:8765") == 403


def test_changing_requests_from_another_origin_are_refused(client: TestClient) -> None:
    body = {"game": "path-36", "number": 1}
    refused = client.post("/api/games", json=body, headers={"origin": "http://evil.example"})
    assert refused.status_code == 403 and "origin" in refused.json()["detail"]
    assert client.post("/api/games", json=body, headers={"origin": "null"}).status_code == 403
    assert client.post("/api/games", json=body, headers={"origin": "http://testserver"}).status_code == 201
    assert client.post("/api/games", json=body).status_code == 201  # no Origin: not a browser page
    # Reading is allowed from anywhere on this host; nothing was created by the refused requests.
    assert client.get("/api/saved", headers={"origin": "http://evil.example"}).status_code == 200
    assert len(client.get("/api/saved").json()) == 2


def test_big_bodies_are_refused(client: TestClient) -> None:
    big = {"record": "x" * (MAX_BODY_BYTES + 10)}
    response = client.post("/api/records", json=big)
    assert response.status_code == 413 and "too large" in response.json()["detail"]

    def chunks() -> Any:  # no Content-Length: the limit holds while reading
        for _ in range(MAX_BODY_BYTES // 1000 + 2):
            yield b" " * 1000

    streamed = client.post("/api/records", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413


def test_serve_runs_uvicorn_prints_its_address_and_checks_the_real_port(tmp_path: Path) -> None:
    import re
    import subprocess
    import sys

    import httpx

    code = ("import sys; from amber_patience.web.server import serve; "
            "serve(port=0, open_browser=False, db_path=sys.argv[1])")
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "served.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, f"no address printed: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
        port = int(match.group(1))
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(timeout=10) as http:
            games = None
            for _ in range(50):  # the socket is bound before the line is printed; uvicorn may still be starting
                try:
                    games = http.get(f"{base}/api/games")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            assert games is not None and games.status_code == 200
            assert http.get(f"{base}/api/stats", headers={"host": f"localhost:{port}"}).status_code == 200
            assert http.get(f"{base}/api/stats", headers={"host": f"localhost:{port + 1}"}).status_code == 403
            created = http.post(f"{base}/api/games", json={"game": "path-36", "number": 1},
                                headers={"origin": f"http://localhost:{port}"})
            assert created.status_code == 201
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_front_page_is_served(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200 and "html" in response.headers["content-type"]
    assert client.get("/static/no-such-file.js").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "Amber Patience"
