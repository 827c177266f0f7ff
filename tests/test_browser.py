"""Browser tests of the web front end: the real server (uvicorn, a temporary database) driven through
Playwright and the system's Chromium (``/usr/bin/chromium``; never ``playwright install``).

Every test clicks the page like a player; the GameState the page holds (``window.amberApp.state``) and
the server's API are only read to choose moves and to check the outcome.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from amber_patience.games import get_game
from amber_patience.games.base import IllegalMoveError

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
LAUNCH = ("import sys, uvicorn; from amber_patience.web.server import create_app; "
          "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')")
ALL_GAMES = ["path", "path-52", "path-36", "arden", "kolvir", "pattern", "pyramid-52", "pyramid-36", "zodiac",
             "zodiac-classic", "simplest"]
CELLS = {"path": 56, "arden": 78, "kolvir": 78, "pattern": 77}
VIEWPORTS = [(1366, 768), (1920, 1080), (390, 844)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The real server in a subprocess; ``restart()`` stops it and starts a new process on the same db."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", LAUNCH, str(self.db), str(self.port)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/games", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not answer within 30 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.url}{path}", timeout=30) as response:
            return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "games.sqlite")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install it with `apt-get install -y chromium`")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def new_page(chromium: Any, width: int = 1366, height: int = 768) -> Any:
    context = chromium.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return page


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    pg = new_page(chromium)
    yield pg
    assert pg.js_errors == [], f"JavaScript errors on the page: {pg.js_errors}"
    pg.context.close()


def open_game(page: Any, server: Server, game: str, deal: int) -> dict[str, Any]:
    page.goto(f"{server.url}/?game={game}&deal={deal}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(f"window.amberApp.state && window.amberApp.state.game === {json.dumps(game)}")
    return state_of(page)


def state_of(page: Any) -> dict[str, Any]:
    return page.evaluate("window.amberApp.state")


def wait_moves(page: Any, n: int) -> dict[str, Any]:
    page.wait_for_function(f"window.amberApp.state.moves_played === {n}")
    page.wait_for_function(f"document.getElementById('move-counter').textContent === '{n}'")
    return state_of(page)


def card_selector(card: str, pile: str | None = None) -> str:
    sel = f'#table .card[data-card="{card}"]'
    return f'{sel}[data-pile="{pile}"]' if pile else sel


def click_pile(page: Any, pile: str) -> None:
    """Click a pile: its top card if it has one on the table, else its empty place."""
    cards = page.locator(f'#table .card[data-pile="{pile}"]')
    if cards.count():
        cards.last.click()
    else:
        page.locator(f'#table .slot[data-pile="{pile}"]').click()


def play_by_clicking(page: Any, state: dict[str, Any], entry: dict[str, Any]) -> None:
    """Play one legal move (an entry of ``legal_moves``) by clicking as a player would."""
    if state["family"] == "amber":
        a, b = entry["move"]["swap"]
        page.click(f'#table .card[data-cell="{a}"]')
        assert page.locator("#table .card.target").count() >= 1
        page.click(f'#table .card[data-cell="{b}"]')
        return
    info = entry["info"]
    cards, froms, to = info["cards"], info["from"], info["to"]
    if len(cards) == 2:
        page.click(card_selector(cards[0], froms[0]))
        assert page.locator(f'{card_selector(cards[1], froms[1])}.target').count() == 1
        page.click(card_selector(cards[1], froms[1]))
    elif len(cards) == 1 and to is not None:
        page.click(card_selector(cards[0], froms[0]))
        assert page.locator(f'#table .slot[data-pile="{to}"].target').count() == 1
        click_pile(page, to)
    elif len(cards) == 1:
        page.dblclick(card_selector(cards[0], froms[0]))
    else:
        click_pile(page, froms[0])


def preferred_move(state: dict[str, Any]) -> dict[str, Any]:
    """A move that shows the most of the clicking: a pair, then a card to a pile, then the rest."""
    def rank(entry: dict[str, Any]) -> int:
        info = entry["info"]
        if len(info["cards"]) == 2:
            return 0
        if len(info["cards"]) == 1 and info["to"] is not None:
            return 1
        return 2 if info["cards"] else 3
    return min(state["legal_moves"], key=rank)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_game_opens_and_takes_a_legal_move_by_clicking(page: Any, server: Server, game: str) -> None:
    state = open_game(page, server, game, 3)
    assert state["status"] == "playing" and state["legal_moves"], f"{game} deal 3 has no legal move"
    shown = page.locator("#table [data-card]").count()
    face_up = sum(1 for p in state["position"].get("piles", []) for c in p["cards"][-1 if p["fan"] == "none" else 0:]
                  if c["card"])
    assert shown == (len(state["position"]["cells"]) if state["family"] == "amber" else face_up)
    first = page.locator("#table [data-card]").first
    assert first.get_attribute("aria-label")
    entry = preferred_move(state)
    play_by_clicking(page, state, entry)
    after = wait_moves(page, 1)
    assert after["position"] != state["position"]
    server_state = server.get(f"/api/games/{after['id']}")
    assert server_state["moves_played"] == 1 and server_state["position"] == after["position"]


def test_card_labels_are_the_cards_full_names(page: Any, server: Server) -> None:
    from amber_patience.cards import TAROT_78

    open_game(page, server, "arden", 5)
    labels = page.evaluate("[...document.querySelectorAll('#table [data-card]')]"
                           ".map(e => [e.dataset.card, e.getAttribute('aria-label')])")
    assert len(labels) == 78
    for notation, label in labels:
        assert label == TAROT_78.parse(notation).name("en")
    page.click("#btn-lang")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    labels = page.evaluate("[...document.querySelectorAll('#table [data-card]')]"
                           ".map(e => [e.dataset.card, e.getAttribute('aria-label')])")
    for notation, label in labels:
        assert label == TAROT_78.parse(notation).name("ru")
    assert page.locator("#btn-hint").text_content() == "Подсказка"
    missing = page.evaluate("import('/static/js/i18n.js').then(m => Object.keys(m.ALL_STRINGS.en)"
                            ".filter(k => !(k in m.ALL_STRINGS.ru)).concat(Object.keys(m.ALL_STRINGS.ru)"
                            ".filter(k => !(k in m.ALL_STRINGS.en))))")
    assert missing == [], f"UI strings not in both languages: {missing}"
    untranslated = page.evaluate("[...document.querySelectorAll('[data-i18n]')].filter(e => e.textContent.trim()"
                                 " && !/[а-яё]/i.test(e.textContent)).map(e => e.dataset.i18n)")
    assert untranslated == [], f"still in English after switching to Russian: {untranslated}"


def test_illegal_amber_swap_is_refused_with_the_rules_reason(page: Any, server: Server) -> None:
    state = open_game(page, server, "arden", 1)
    assert not page.locator("#btn-undo").is_visible()  # Amber rules forbid undo outside practice
    legal = {tuple(m["move"]["swap"]) for m in state["legal_moves"]}
    starts = set(state["position"]["start_cells"])
    a, b = next((a, b) for a in range(78) for b in range(a + 1, 78)
                if (a, b) not in legal and a not in starts and b not in starts)
    position = get_game("arden").deal(1)
    with pytest.raises(IllegalMoveError) as refused:
        position.play(position.parse_move(f"{a}-{b}"))
    page.click(f'#table .card[data-cell="{a}"]')
    assert page.locator(f'#table .card[data-cell="{b}"].target').count() == 0
    page.click(f'#table .card[data-cell="{b}"]')
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert str(refused.value) in toast.text_content()
    after = state_of(page)
    assert after["moves_played"] == 0 and after["position"] == state["position"]
    assert page.locator(f'#table .card[data-cell="{a}"]').get_attribute("data-card") == \
        state["position"]["cells"][a]["card"]


def test_drag_and_drop_and_keyboard_swaps(page: Any, server: Server) -> None:
    state = open_game(page, server, "path-36", 4)
    a, b = state["legal_moves"][0]["move"]["swap"]
    src = page.locator(f'#table .card[data-cell="{a}"]').bounding_box()
    dst = page.locator(f'#table .card[data-cell="{b}"]').bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(src["x"] + src["width"] / 2 + 20, src["y"] + src["height"] / 2 + 10, steps=3)
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=5)
    page.mouse.up()
    state = wait_moves(page, 1)
    cells = state["position"]["cells"]
    before = {c["id"]: c["card"] for c in cells}
    # Keyboard alone: focus a card, arrows to a partner, Enter twice.
    a, b = state["legal_moves"][0]["move"]["swap"]
    page.locator(f'#table .card[data-cell="{a}"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator("#table .card.selected").count() == 0
    page.keyboard.press("Enter")
    columns = state["position"]["blocks"][0]["columns"]
    ra, ca = divmod(a, columns)
    rb, cb = divmod(b, columns)
    for _ in range(abs(rb - ra)):
        page.keyboard.press("ArrowDown" if rb > ra else "ArrowUp")
    for _ in range(abs(cb - ca)):
        page.keyboard.press("ArrowRight" if cb > ca else "ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.cell") == str(b)
    page.keyboard.press("Enter")
    state = wait_moves(page, 2)
    after = {c["id"]: c["card"] for c in state["position"]["cells"]}
    assert after[a] == before[b] and after[b] == before[a]


def boxes(page: Any) -> list[tuple[str, float, float, float, float]]:
    return [tuple(x) for x in page.evaluate(
        "[...document.querySelectorAll('[data-card]')].map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.card, r.left, r.top, r.right, r.bottom]; })")]


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_amber_layouts_fit_the_window_without_overlap(chromium: Any, server: Server, size: tuple[int, int]) -> None:
    width, height = size
    pg = new_page(chromium, width, height)
    try:
        for game, count in CELLS.items():
            open_game(pg, server, game, 7)
            found = boxes(pg)
            assert len(found) == count
            for card, left, top, right, bottom in found:
                assert right - left >= 10 and bottom - top >= 14, f"{game}: {card} is too small to see"
                assert left >= 0 and top >= 0 and right <= width and bottom <= height, \
                    f"{game} at {width}x{height}: {card} is outside the window ({left}, {top}, {right}, {bottom})"
            ordered = sorted(found, key=lambda b: b[1])
            for i, (c1, _l1, t1, r1, b1) in enumerate(ordered):
                for c2, l2, t2, _r2, b2 in ordered[i + 1:]:
                    if l2 >= r1:
                        break
                    assert not (t1 < b2 and t2 < b1), f"{game} at {width}x{height}: {c1} overlaps {c2}"
        assert pg.js_errors == []
    finally:
        pg.context.close()


def test_layout_is_recomputed_when_the_window_is_resized(chromium: Any, server: Server) -> None:
    pg = new_page(chromium, 1920, 1080)
    try:
        open_game(pg, server, "pattern", 8)
        wide = max(r - left for _, left, _, r, _ in boxes(pg))
        pg.set_viewport_size({"width": 1000, "height": 600})
        pg.wait_for_function("Math.max(...[...document.querySelectorAll('[data-card]')]"
                             ".map(e => e.getBoundingClientRect().right)) <= 1000")
        found = boxes(pg)
        assert all(left >= 0 and right <= 1000 and top >= 0 and bottom <= 600 for _, left, top, right, bottom in found)
        assert max(r - left for _, left, _, r, _ in found) < wide
    finally:
        pg.context.close()


def test_hint_highlights_a_legal_move(page: Any, server: Server) -> None:
    state = open_game(page, server, "path-36", 2)
    page.click("#btn-hint")
    page.wait_for_function("document.querySelectorAll('#table .card.hint').length === 2", timeout=20000)
    cells = sorted(int(c) for c in page.evaluate(
        "[...document.querySelectorAll('#table .card.hint')].map(e => e.dataset.cell)"))
    assert cells in [sorted(m["move"]["swap"]) for m in state["legal_moves"]]
    assert page.locator("#status").text_content().strip() != ""


def test_pyramid_hint_highlights_a_legal_move_or_says_why_not(page: Any, server: Server) -> None:
    for deal in range(1, 12):
        state = open_game(page, server, "pyramid-36", deal)
        page.click("#btn-hint")
        page.wait_for_function("document.querySelectorAll('#table .hint').length >= 1"
                               " || document.getElementById('status').textContent.startsWith('No hint')",
                               timeout=20000)
        hinted = set(page.evaluate("[...document.querySelectorAll('#table .card.hint')].map(e => e.dataset.card)"))
        if not hinted:
            assert "no winning move" in page.locator("#status").text_content()
            continue
        assert any(hinted <= set(m["info"]["cards"]) for m in state["legal_moves"] if m["info"]["cards"])
        return
    pytest.fail("no Pyramid 36 deal from 1 to 11 had a hint")


def test_game_resumes_after_the_server_restarts(chromium: Any, server: Server) -> None:
    pg = new_page(chromium)
    try:
        state = open_game(pg, server, "kolvir", 11)
        play_by_clicking(pg, state, state["legal_moves"][0])
        played = wait_moves(pg, 1)
    finally:
        pg.context.close()
    server.restart()
    pg = new_page(chromium)
    try:
        pg.goto(server.url + "/")
        pg.wait_for_selector("body[data-ready='1']")
        pg.click("#more-menu summary")
        pg.click("#btn-saved")
        pg.click(f'#saved-table button[data-resume="{played["id"]}"]')
        pg.wait_for_function(f"window.amberApp.state.id === {json.dumps(played['id'])}")
        resumed = wait_moves(pg, 1)
        assert resumed["position"]["cells"] == played["position"]["cells"]
        shown = pg.evaluate("Object.fromEntries([...document.querySelectorAll('#table [data-card]')]"
                            ".map(e => [e.dataset.cell, e.dataset.card]))")
        assert shown == {str(c["id"]): c["card"] for c in played["position"]["cells"]}
        assert pg.js_errors == []
    finally:
        pg.context.close()


def test_path_in_shadow_is_won_through_show_solution_and_counted(page: Any, server: Server) -> None:
    before = {(s["game"], s["practice"]): s["won"] for s in server.get("/api/stats")}
    open_game(page, server, "path", 2)
    page.click("#btn-solution")
    page.locator("#solution-bar").wait_for(state="visible", timeout=30000)
    page.select_option("#sol-speed", "60")
    page.locator("#banner").wait_for(state="visible", timeout=90000)
    state = state_of(page)
    assert state["status"] == "won" and state["position"]["won"]
    assert page.locator("#banner-title").text_content() == "Well played!"
    assert str(state["moves_played"]) in page.locator("#banner-text").text_content()
    stats = {(s["game"], s["practice"]): s for s in server.get("/api/stats")}
    assert stats[("path", False)]["won"] == before.get(("path", False), 0) + 1
    page.click("#more-menu summary")
    page.click("#btn-stats")
    assert "Path in Shadow" in page.locator("#stats-table").text_content()


def test_practice_undo_and_setup_dialog(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/?game=arden&deal=9&practice=1")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("window.amberApp.state && window.amberApp.state.game === 'arden'")
    state = state_of(page)
    assert page.locator("#btn-undo").is_visible() and page.locator("#btn-setup").is_visible()
    page.click("#btn-setup")
    first = page.locator('#setup-fields select[data-start="0"]')
    first.select_option("T5")
    assert page.locator("#setup-text").input_value().split()[0] == "T5"
    page.fill("#setup-second-cell", "3")
    page.click("#setup-ok")
    page.wait_for_function("window.amberApp.state.position.start_cells[1] === 3")
    state = state_of(page)
    assert state["position"]["cells"][0]["card"] == "T5" and not state["position"]["cells"][3]["card"].startswith("T")
    play_by_clicking(page, state, state["legal_moves"][0])
    wait_moves(page, 1)
    assert not page.locator("#btn-setup").is_visible()
    page.click("#btn-undo")
    assert wait_moves(page, 0)["position"] == state["position"]


def test_export_and_import_a_record(page: Any, server: Server) -> None:
    state = open_game(page, server, "path-36", 6)
    play_by_clicking(page, state, state["legal_moves"][0])
    played = wait_moves(page, 1)
    page.click("#more-menu summary")
    with page.expect_download() as download:
        page.click("#btn-export")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    with urllib.request.urlopen(f"{server.url}/api/games/{played['id']}/record", timeout=30) as response:
        assert text == response.read().decode("utf-8")
    page.click("#more-menu summary")
    page.click("#btn-import")
    page.fill("#import-text", "this is not a record")
    page.click("#import-ok")
    page.wait_for_function("document.getElementById('import-error').textContent.length > 0")
    page.fill("#import-text", text)
    page.click("#import-ok")
    page.wait_for_function(f"window.amberApp.state.id !== {json.dumps(played['id'])}")
    imported = wait_moves(page, 1)
    assert imported["game"] == "path-36" and imported["position"]["cells"] == played["position"]["cells"]
    assert not page.locator("#dlg-import").is_visible()


def test_rules_readable_in_both_languages_from_the_menu(page: Any, server: Server) -> None:
    open_game(page, server, "zodiac", 2)  # Zodiac's cards lie under the menu: it must stay on top
    page.click("#more-menu summary")
    page.click("#btn-rules")
    body = page.locator("#info-body")
    body.wait_for(state="visible")
    english = body.text_content()
    assert "Equator" in english and page.locator("#info-title").text_content() == "Zodiac"
    page.locator("#dlg-info button.cancel").click()
    page.click("#btn-lang")
    page.click("#more-menu summary")
    page.click("#btn-rules")
    page.wait_for_function("/[а-яё]/i.test(document.getElementById('info-body').textContent)")
    assert page.locator("#info-body").text_content() != english


def test_stock_turns_on_a_click(page: Any, server: Server) -> None:
    state = open_game(page, server, "simplest", 3)
    draw = next(m for m in state["legal_moves"] if not m["info"]["cards"])
    pile = draw["info"]["from"][0]
    click_pile(page, pile)
    after = wait_moves(page, 1)
    piles = {p["id"]: p for p in after["position"]["piles"]}
    assert piles[draw["info"]["to"]]["count"] == 1
    assert page.locator(f'#table .card[data-pile="{draw["info"]["to"]}"]').count() == 1


def test_new_deal_dialog_with_options_and_number(page: Any, server: Server) -> None:
    open_game(page, server, "path-36", 1)
    page.click("#btn-new")
    page.select_option("#new-game", "pyramid-52")
    passes = page.locator('#new-options select[data-option="passes"]')
    passes.select_option(label="3")
    page.fill("#new-number", "5")
    page.click("#new-ok")
    page.wait_for_function("window.amberApp.state.game === 'pyramid-52'")
    state = state_of(page)
    assert state["deal"] == 5 and state["options"]["passes"] == 3
    assert page.locator("#deal-label").text_content() == "Deal #5"
    assert not page.locator("#dlg-new").is_visible()
    page.click("#btn-new")
    page.fill("#new-number", "-3")
    page.click("#new-ok")
    page.wait_for_function("document.getElementById('new-error').textContent.length > 0")
    assert page.locator("#dlg-new").is_visible()


def test_new_deal_dialog_offers_an_easy_deal(page: Any, server: Server) -> None:
    open_game(page, server, "path-36", 1)
    assert page.locator("#level-label").is_hidden()  # a deal dealt as it comes: no level known
    page.click("#btn-new")
    page.select_option("#new-game", "pyramid-52")  # no bands: only any and winnable are offered
    offered = page.eval_on_selector_all("#new-level option", "os => os.filter(o => !o.disabled).map(o => o.value)")
    assert offered == ["any", "winnable"]
    page.select_option("#new-game", "path-36")
    offered = page.eval_on_selector_all("#new-level option", "os => os.filter(o => !o.disabled).map(o => o.value)")
    assert offered == ["any", "winnable", "easy", "hard"]
    page.select_option("#new-level", "easy")
    page.fill("#new-number", "1")
    page.click("#new-ok")
    page.wait_for_function("window.amberApp.state.difficulty && window.amberApp.state.difficulty.level === 'easy'")
    state = state_of(page)
    assert state["game"] == "path-36" and state["deal"] >= 1
    assert page.locator("#level-label").is_visible() and page.locator("#level-label").text_content() == "easy"
    assert str(state["difficulty"]["figure"]) in (page.locator("#level-label").get_attribute("title") or "")
    assert not page.locator("#dlg-new").is_visible()


def test_start_cards_typed_as_text(page: Any, server: Server) -> None:
    open_game(page, server, "kolvir", 12)
    page.click("#btn-setup")
    page.fill("#setup-text", "T3 5c T4")
    page.click("#setup-ok")
    page.wait_for_function("document.getElementById('setup-error').textContent.length > 0")
    assert "2 start card" in page.locator("#setup-error").text_content()
    page.fill("#setup-text", "T3 5c")
    page.click("#setup-ok")
    page.wait_for_function("window.amberApp.state.position.cells[0].card === 'T3'")
    state = state_of(page)
    assert state["position"]["cells"][state["position"]["start_cells"][1]]["card"] == "5c"
    assert page.locator('#table .card.start[data-card="T3"]').count() == 1
    assert page.locator('#table .card.start[data-card="5c"]').count() == 1


def deal_with_foundation_move(name: str) -> tuple[int, dict[str, Any]]:
    """The first deal of ``name`` whose first position can send a card to a foundation."""
    game = get_game(name)
    for number in range(1, 500):
        position = game.deal(number)
        kinds = {p["id"]: p["kind"] for p in position.to_json()["piles"]}
        for move in position.legal_moves():
            info = position.move_info(move)
            if len(info["cards"]) == 1 and info["to"] and kinds.get(info["to"]) == "foundation":
                return number, info
    raise AssertionError(f"no {name} deal from 1 to 499 has a move to a foundation at the start")


@pytest.mark.parametrize("game", ["simplest", "zodiac"])
def test_double_click_sends_a_card_to_its_foundation(page: Any, server: Server, game: str) -> None:
    number, info = deal_with_foundation_move(game)
    open_game(page, server, game, number)
    page.dblclick(card_selector(info["cards"][0], info["from"][0]))
    state = wait_moves(page, 1)
    piles = {p["id"]: p for p in state["position"]["piles"]}
    assert piles[info["to"]]["cards"][-1]["card"] == info["cards"][0]


def test_abandoning_the_current_game_deals_a_new_one(page: Any, server: Server) -> None:
    first = open_game(page, server, "kolvir", 13)
    page.click("#more-menu summary")
    page.click("#btn-saved")
    page.click(f'#saved-table button[data-abandon="{first["id"]}"]')
    page.wait_for_function(f"window.amberApp.state.id !== {json.dumps(first['id'])}")
    assert state_of(page)["game"] == "kolvir"
    assert first["id"] not in {g["id"] for g in server.get("/api/saved")}
    page.wait_for_selector(f'#saved-table button[data-resume="{state_of(page)["id"]}"]')


@pytest.mark.parametrize("game", ["path-52", "path-36"])
def test_french_card_labels_are_the_cards_full_names(page: Any, server: Server, game: str) -> None:
    deck = get_game(game).deck
    open_game(page, server, game, 2)
    for lang in ("en", "ru"):
        if lang == "ru":
            page.click("#btn-lang")
            page.wait_for_function("document.documentElement.lang === 'ru'")
        labels = page.evaluate("[...document.querySelectorAll('#table [data-card]')]"
                               ".map(e => [e.dataset.card, e.getAttribute('aria-label')])")
        assert len(labels) == len(deck.cards)
        for notation, label in labels:
            assert label == deck.parse(notation).name(lang)


def test_a_stranded_pattern_deal_says_which_block_lacks_what(page: Any, server: Server) -> None:
    state = open_game(page, server, "pattern", 4)  # bottom-right is dealt no club: lost from the start
    assert state["status"] == "lost" and state["result"]["stranded"] == [{"block": "bottom-right", "kind": "clubs"}]
    page.wait_for_selector("#banner:not([hidden])")
    text = page.locator("#banner-text").text_content()
    assert "bottom-right block holds no clubs" in text and "[object" not in text
