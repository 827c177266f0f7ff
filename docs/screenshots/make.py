"""Make the screenshots of the web front end in this folder.

Runs the real server (a temporary database) and the system's Chromium through Playwright:

    .venv/bin/python docs/screenshots/make.py
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

HERE = Path(__file__).resolve().parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
LAUNCH = ("import sys, uvicorn; from amber_patience.web.server import create_app; "
          "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server exited")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def open_game(page: Page, base: str, game: str, deal: int, extra: str = "") -> None:
    page.goto(f"{base}/?game={game}&deal={deal}{extra}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(f"window.amberApp.state && window.amberApp.state.game === '{game}'")
    page.wait_for_timeout(200)


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(HERE / f"{name}.png"))
    print("wrote", HERE / f"{name}.png")


def main() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-c", LAUNCH, str(Path(tmp) / "games.sqlite"), str(port)])
        try:
            wait_for(base + "/api/games", server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1366, "height": 768}, reduced_motion="reduce")
                for game, deal in (("path", 1), ("path-52", 1), ("path-36", 1), ("arden", 1), ("kolvir", 1), ("pattern", 1),
                                   ("pyramid-52", 3), ("pyramid-36", 3), ("zodiac", 1), ("simplest", 1)):
                    open_game(page, base, game, deal)
                    shoot(page, game)
                open_game(page, base, "kolvir", 2)
                page.click("#btn-goal")
                first = page.locator("#table .card[data-cell='1']")
                first.click()
                shoot(page, "kolvir-goal-selected")
                page.click("#btn-goal")
                open_game(page, base, "path-36", 3)
                page.click("#btn-solution")
                page.locator("#solution-bar").wait_for(state="visible")
                page.select_option("#sol-speed", "60")
                page.locator("#banner").wait_for(state="visible", timeout=60000)
                shoot(page, "won")
                open_game(page, base, "arden", 4)
                page.click("#btn-lang")
                page.click("#btn-goal")
                shoot(page, "russian-goal")
                page.click("#btn-goal")
                page.click("#btn-new")
                shoot(page, "russian-new-game")
                page.keyboard.press("Escape")
                page.click("#btn-lang")
                page.set_viewport_size({"width": 1920, "height": 1080})
                open_game(page, base, "pattern", 2)
                shoot(page, "pattern-1920")
                phone = browser.new_page(viewport={"width": 390, "height": 844}, reduced_motion="reduce",
                                         device_scale_factor=2, is_mobile=True, has_touch=True)
                open_game(phone, base, "arden", 1)
                shoot(phone, "phone-arden")
                open_game(phone, base, "kolvir", 1)
                shoot(phone, "phone-kolvir")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
