"""Phone first (issue 18 item 2): every page at 390x844, 844x390 and 1366x768 in real Chromium.

Nothing needed for play lies outside the window (no sideways scrolling), every button and call
target is at least 44 px, the hand's 14 tiles stand in one row (at least 26 px each at 390 px), a tap
selects a tile and a second tap (or the 44 px Discard button) discards it, the call buttons sit where
a thumb reaches, and the result card fits the window with its OK button.
``SANMA_SCREENSHOTS=DIR`` saves what each size looks like.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from browser_helpers import (
    HAVE_CHROMIUM,
    MIN_HAND_TILE,
    SIZES,
    TARGET,
    WHY_NOT,
    create_table,
    layout_problems,
    new_page,
    shot,
)
from shared_data import data_path
from web_helpers import running_server

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=WHY_NOT)

RECORD = ("tenhou_mjlog", "2018110809gm-00b9-0000-00a79b89.xml")

HAND = ".hand-zone.bottom .concealed .tilebox, .hand-zone.bottom .drawn-slot .tilebox"


def hand_boxes(page: Any) -> list[dict[str, float]]:
    return list(page.eval_on_selector_all(HAND, """els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; })"""))


def river(page: Any, seat: int = 0) -> int:
    return int(page.locator(f".river[data-seat='{seat}'] .tilebox").count())


def tsumogiri(page: Any, touch: bool) -> None:
    button = page.locator("#prompt [data-action=tsumogiri]")
    button.tap() if touch else button.click()


def wait_turn(page: Any) -> str:
    """Wait for the seat's next prompt; which kind: 'discard', 'call' or 'result' (a result card)."""
    # (selectors and locators: the pages' Content-Security-Policy forbids evaluating strings)
    page.wait_for_selector("#result-ok, #prompt [data-action=tsumogiri], #prompt [data-action=none]")
    if page.locator("#result-ok").count():
        return "result"
    return "call" if page.locator("#prompt [data-action=none]").count() else "discard"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_is_playable_at_every_size(browser: Any, tmp_path: Path, size: str) -> None:
    """A seat's table at one size: fits, 14 tiles in one row, tap-tap discards, calls by the thumb, the
    result card fits. Seed 1 against tsumogiri bots: seat 0, discarding what it draws, is offered a pon
    in the first hand (an engine fact: the same seed deals the same walls)."""
    errors: list[str] = []
    touch = size != "laptop"
    vw, vh = SIZES[size]
    with running_server(tmp_path / "db.sqlite") as base:
        t = create_table(base, ["human", "tsumogiri", "tsumogiri"], seed=1)
        page = new_page(browser, errors, size)
        page.goto(base + t["seats"][0]["url"])
        assert wait_turn(page) == "discard"
        assert layout_problems(page) == []
        # the hand: 13 tiles and the drawn one, in one row, inside the window, wide enough
        boxes = hand_boxes(page)
        assert len(boxes) == 14
        assert max(b["top"] for b in boxes) - min(b["top"] for b in boxes) < 1, "one row"
        assert min(b["left"] for b in boxes) >= 0 and max(b["right"] for b in boxes) <= vw
        assert max(b["bottom"] for b in boxes) <= vh
        assert min(b["width"] for b in boxes) >= MIN_HAND_TILE
        shot(page, f"table-{size}", full_page=False)
        # discarding a tile: a tap selects it, a second tap discards it; a mouse click discards at once
        before = river(page)
        first = page.locator(".hand-zone.bottom .tilebox.mine:not(.disabled)").first
        if touch:
            first.tap()
            page.wait_for_selector(".hand-zone.bottom .tilebox.mine.selected")
            button = page.locator("#discard-selected")
            box = button.bounding_box()
            assert box["height"] >= TARGET and box["x"] + box["width"] <= vw and box["y"] + box["height"] <= vh
            assert river(page) == before, "one tap only selects"
            shot(page, f"table-{size}-selected", full_page=False)
            page.locator(".hand-zone.bottom .tilebox.mine.selected").tap()
        else:
            first.click()
        expect(page.locator(".river[data-seat='0'] .tilebox")).to_have_count(before + 1)
        # on to the pon offer, discarding what is drawn
        for _ in range(30):
            if wait_turn(page) == "call":
                break
            tsumogiri(page, touch)
            page.wait_for_timeout(20)
        assert page.locator("#prompt [data-action=pon]").count() == 1, "seed 1 offers seat 0 a pon"
        assert layout_problems(page) == []
        calls = page.eval_on_selector_all("#prompt button", """els => els.map(e => {
            const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })""")
        if size == "phone":  # within a thumb's reach: the lower half of the screen
            assert all(y > vh / 2 for _, y in calls), calls
        if size == "landscape":  # the right-hand side, above the hand
            assert all(x > vw / 2 for x, _ in calls), calls
        shot(page, f"table-{size}-call", full_page=False)
        if touch:
            page.locator("#prompt [data-action=none]").tap()
        else:  # a right-click passes
            page.locator(".board-cell").click(button="right")
        expect(page.locator("#prompt [data-action=pon]")).to_have_count(0)
        # on to the end of the hand: the card fits the window, its OK button too
        for _ in range(60):
            if wait_turn(page) == "result":
                break
            if page.locator("#prompt [data-action=none]").count():
                page.locator("#prompt [data-action=none]").click()
            else:
                tsumogiri(page, touch)
            page.wait_for_timeout(20)
        card = page.locator("#hand-result").bounding_box()
        assert card["x"] >= 0 and card["y"] >= 0
        assert card["x"] + card["width"] <= vw and card["y"] + card["height"] <= vh
        assert layout_problems(page) == []
        shot(page, f"table-{size}-result", full_page=False)
        page.close()
    assert not errors, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_replay_viewer_and_calculator_fit(browser: Any, tmp_path: Path, size: str) -> None:
    """The other pages at one size: no sideways scrolling, every control at least 44 px and inside the
    window's width; the replay viewer's step buttons inside the window (it does not scroll)."""
    errors: list[str] = []
    with running_server(tmp_path / "db.sqlite") as base:
        create_table(base, ["human", "tsumogiri", "tsumogiri"])
        page = new_page(browser, errors, size)
        page.goto(base + "/")
        page.wait_for_selector("#tables li[data-table]")
        page.click("#rules-details summary")
        assert layout_problems(page) == []
        shot(page, f"lobby-{size}")
        page.goto(base + "/calc")
        page.wait_for_selector("#picker .tilebox")
        page.wait_for_selector("#rules option", state="attached")  # the rule sets come after the picker
        assert layout_problems(page) == []
        shot(page, f"calc-{size}")
        page.goto(base + "/replay")
        if size != "laptop":  # the record list is in the drawer
            page.click("#open-records")
        page.set_input_files("#upload", str(data_path(*RECORD)))
        page.wait_for_selector("#controls:not(.hidden)")
        for _ in range(12):
            page.click("#next")
        assert layout_problems(page, "#controls button, #controls select") == []
        assert len(hand_boxes(page)) >= 13
        shot(page, f"replay-{size}", full_page=False)
        page.close()
    assert not errors, errors


def play_as(base: str, player_token: str, seed: int) -> None:
    """One East-only game at seat 0 of a new table, played by a script for the browser player whose
    token it sends (every prompt answered), bots at the other seats."""
    import json
    import random

    import httpx
    from websockets.sync.client import connect

    from web_helpers import choose, ws_url

    body = {"rules": {"extends": "tenhou", "round_winds": "E"}, "seed": seed,
            "seats": ["human", "efficient", "defensive"], "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}
    t = httpx.post(f"{base}/api/tables", json=body).json()
    rng = random.Random(seed)
    with connect(ws_url(base, f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}&player={player_token}"),
                 open_timeout=30) as ws:
        while (m := json.loads(ws.recv(timeout=60)))["type"] != "game_result":
            if m["type"] == "prompt":
                ws.send(json.dumps({"type": "action", "prompt": m["prompt"], "id": choose(m["actions"], rng)["id"]}))


@pytest.mark.parametrize("size", list(SIZES))
def test_the_player_page_fits_and_shows_what_sanma_stats_prints(browser: Any, tmp_path: Path, size: str) -> None:
    """Issue 18 item 5: a browser's player page, after two games, at one size: it fits, and its
    figures are the ones ``sanma stats --player web:ID`` prints for the same games."""
    import json

    import httpx
    from typer.testing import CliRunner

    from sanma.cli import app as cli

    errors: list[str] = []
    db = tmp_path / "db.sqlite"
    with running_server(db) as base:
        me = httpx.post(f"{base}/api/players", json={}).json()
        for seed in (1, 2):
            play_as(base, me["token"], seed)
        page = new_page(browser, errors, size)
        page.goto(base + "/")
        page.evaluate("(me) => localStorage.setItem('sanma_player', JSON.stringify(me))", me)
        page.goto(base + me["page"])
        page.wait_for_selector("#stats")
        assert layout_problems(page) == []
        shot(page, f"player-{size}")
        shown = dict(page.eval_on_selector_all("#stats tr",
                                               "rows => rows.map(r => [r.dataset.key, r.cells[1].textContent])"))
        r = CliRunner().invoke(cli, ["stats", "--db", str(db), "--player", f"web:{me['id']}", "--json"])
        stats = json.loads(r.output)["players"][0]
        assert shown["games"] == str(stats["games"]) == "2"
        assert shown["placements"] == " / ".join(map(str, stats["placements"]))
        assert shown["average_placement"] == f"{stats['average_placement']:.2f}"
        assert shown["win_rate"] == f"{100 * stats['win_rate']:.1f}%"
        assert shown["deal_in_rate"] == f"{100 * stats['deal_in_rate']:.1f}%"
        assert page.locator("#games a[href^='/replay?table=']").count() == 2
        assert page.locator("#points-chart svg").count() == 1
        page.close()
    assert not errors, errors
