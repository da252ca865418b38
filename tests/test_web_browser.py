"""The pages in real Chromium (issue 11, "Browser tests"): Debian's /usr/bin/chromium driven by Playwright.

Few, serial, each bounded in time. ``SANMA_SCREENSHOTS=DIR`` saves a PNG of every page they visit
(the README's docs/screenshots/table.png is one of them).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_helpers import running_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
if not DATA.is_dir():  # a worktree: the shared folder sits beside the worktrees
    DATA = Path("/work/shared/data")

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent (Debian's chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def shot(page: Any, name: str) -> None:
    """Save a screenshot when SANMA_SCREENSHOTS names a folder."""
    folder = os.environ.get("SANMA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def new_page(browser: Any, errors: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    return page


def test_calculator_page_scores_like_the_api(browser: Any, tmp_path: Path) -> None:
    """Clicking tiles, a flag and Score shows what POST /api/score answers (issue 11 item 5)."""
    errors: list[str] = []
    with running_server(tmp_path / "db.sqlite") as base:
        page = new_page(browser, errors)
        page.goto(f"{base}/calc")
        page.wait_for_selector("#picker .tilebox")
        # the picker offers only the sanma tile set: 29 kinds with red fives, no 2m-8m
        shown = page.eval_on_selector_all("#picker .tilebox", "els => els.map(e => e.dataset.tile)")
        assert len(shown) == 29 and not any(re.fullmatch(r"[2-8]m", t) for t in shown)
        # 13 tiles fill the hand, then the picker moves on to the winning tile by itself
        for t in ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "9m", "E", "E", "E", "9m"]:
            page.click(f"#picker [data-tile='{t}']")
        assert page.input_value("#mpsz") == "9m123456789p111z9m"
        assert page.locator("#t-win .tilebox").count() == 1
        page.click("#flag-riichi")
        page.select_option("#seat", "S")
        page.select_option("#from", "W")
        page.click("#score")
        page.wait_for_selector("#score-total")
        total = page.text_content("#score-total") or ""
        body = {"hand": "9m123456789p111z9m", "win": "9m", "riichi": True, "seat": "S", "from": "W",
                "rules": "tenhou"}
        api = httpx.post(f"{base}/api/score", json=body).json()
        assert f"{api['total']:,} points" in total and f"{api['han']} han {api['fu']} fu" in total
        assert page.locator("#score-yaku tr").count() == len(api["yaku"]) + 1
        assert json.loads(page.text_content("#score-json") or "") == api
        shot(page, "calculator")
        # a typed hand with 2m is refused with the reason, client-side
        page.fill("#mpsz", "123m456p")
        page.press("#mpsz", "Enter")
        assert "2m is not in the sanma tile set" in (page.text_content("#score-error") or "")
        page.close()
    assert not errors, errors


def test_replay_viewer_on_a_real_tenhou_record(browser: Any, tmp_path: Path) -> None:
    """An uploaded Tenhou mjlog: step and jump by hand, every hand open, any viewpoint (issue 11 item 4)."""
    record = DATA / "tenhou_mjlog" / "2018110809gm-00b9-0000-00a79b89.xml"
    errors: list[str] = []
    with running_server(tmp_path / "db.sqlite") as base:
        expected = httpx.post(f"{base}/api/replays?name=x", content=record.read_bytes()).json()
        page = new_page(browser, errors)
        page.goto(f"{base}/replay")
        page.set_input_files("#upload", str(record))
        page.wait_for_selector("#controls:not(.hidden)")
        assert page.locator("#hand option").count() == len(expected["kyoku"])
        # the deal: 13 tiles face up in every hand, nothing face down anywhere
        assert page.locator(".hand-zone .concealed .tilebox").count() == 39
        assert page.locator(".board .tilebox.back").count() == 0
        first = expected["kyoku"][0]
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        assert page.text_content("#step").startswith("step 6/")
        river0 = page.locator(".river[data-seat='0'] .tilebox").count()
        assert river0 == sum(1 for e in first["events"][:6] if e["type"] == "discard" and e["seat"] == 0)
        page.click("#end")
        win = first["results"][0]
        text = page.text_content("#result") or ""
        for name, _han in win["yaku"]:
            assert name.replace("_", " ") in text
        assert f"{win['points']:,}" in text
        shot(page, "replay")
        # another viewpoint puts that seat at the bottom
        page.select_option("#viewpoint", "2")
        assert page.locator(".hand-zone.bottom .hand").get_attribute("data-seat") == "2"
        page.keyboard.press("ArrowDown")
        assert page.input_value("#hand") == "1"
        assert page.text_content("#step").startswith("step 0/")
        page.close()
    assert not errors, errors
