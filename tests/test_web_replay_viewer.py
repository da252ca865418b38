"""The replay viewer in Chromium (issue 18 item 6): the server's steps drawn as they are, every hand's
card as at the table, autoplay, links to a hand, a step and a viewpoint, a mismatch named."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from browser_helpers import HAVE_CHROMIUM, WHY_NOT, layout_problems, new_page, shot
from shared_data import data_path
from web_helpers import running_server

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=WHY_NOT)

RECORD = ("tenhou_mjlog", "2018110809gm-00b9-0000-00a79b89.xml")

#: whether the page's font (.pname's, with its fallbacks) has a glyph for every character of a text:
#: each is drawn beside an unassigned code point, which always draws the missing-glyph box
DRAWN = """(text) => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 40;
  const ctx = canvas.getContext("2d");
  ctx.font = `28px ${getComputedStyle(document.querySelector(".plate .pname")).fontFamily}`;
  const pixels = (ch) => { ctx.clearRect(0, 0, 40, 40); ctx.fillText(ch, 4, 30);
    return ctx.getImageData(0, 0, 40, 40).data.join(","); };
  const missing = pixels("\\u{10FFFD}");
  return [...text].filter((ch) => ch.codePointAt(0) > 0x2000).every((ch) => pixels(ch) !== missing);
}"""


def finished_table(base: str, **body: Any) -> str:
    """A bot-only table played to its end by the server."""
    r = httpx.post(f"{base}/api/tables", json={"rules": "tenhou", "seats": ["random", "efficient", "defensive"],
                                              "clock": {"move": 0, "call": 0}, **body}, timeout=20)
    tid = str(r.json()["id"])
    deadline = time.monotonic() + 120
    while not httpx.get(f"{base}/api/tables/{tid}").json()["finished"]:
        assert time.monotonic() < deadline, f"table {tid} did not finish"
        time.sleep(0.05)
    return tid


def step_of(page: Any) -> int:
    m = re.match(r"step (\d+)/", page.text_content("#step") or "")
    assert m, page.text_content("#step")
    return int(m.group(1))


def test_a_record_is_drawn_as_the_server_replayed_it(browser: Any, tmp_path: Path) -> None:
    """An uploaded Tenhou mjlog: each step's rivers and hands are the server's view of that step, every
    hand open; the end of a hand is its card (the engine's yaku, points, payments), as at the table."""
    errors: list[str] = []
    record = data_path(*RECORD)
    with running_server(tmp_path / "db.sqlite") as base:
        data = httpx.post(f"{base}/api/replays?name=x", content=record.read_bytes()).json()
        page = new_page(browser, errors)
        page.goto(f"{base}/replay")
        page.set_input_files("#upload", str(record))
        page.wait_for_selector("#controls:not(.hidden)")
        assert page.locator("#hand option").count() == len(data["hands"])
        # the deal: every hand face up (the dealer's drawn tile apart), nothing face down anywhere
        assert page.locator(".hand-zone .concealed .tilebox").count() + page.locator(
            ".hand-zone .drawn-slot .tilebox").count() == 40
        assert page.locator(".tilebox.back").count() == 0
        first = data["hands"][0]
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        assert step_of(page) == 6
        # the server's view of step 6: each river as long as the server says (its first view + changes)
        view = dict(first["steps"][0]["view"])
        for step in first["steps"][1:7]:
            for i, seat in step["change"].get("seats", {}).items():
                view["seats"] = [seat if str(j) == i else s for j, s in enumerate(view["seats"])]
        for s in range(3):
            assert page.locator(f".river[data-seat='{s}'] .tilebox").count() == len(view["seats"][s]["discards"])
        page.click("#end")
        page.wait_for_selector("#hand-result")
        result = first["result"]
        card = page.locator("#hand-result")
        assert card.locator(".result-yaku tr").count() == len(result["wins"][0]["yaku"])
        assert f"{result['wins'][0]['points']:,}" in (card.text_content() or "")
        assert card.locator(".win .winhand .concealed .tilebox").count() == len(result["wins"][0]["hand"])
        # the hand named as at the table, from the server's result: "East 1" (a record's "E1" is not shown)
        assert card.locator("#result-round").text_content() == "East 1", card.locator("#result-round").text_content()
        shot(page, "replay-card")
        page.click("#card-next")
        # the players' Japanese names as they are, drawn by the page's font stack (fonts-noto-cjk), never boxes
        shown = page.eval_on_selector_all(".plate .pname", "els => els.map(e => e.textContent)")
        names = data["players"]
        assert sorted(shown) == sorted(names), (shown, names)
        assert page.evaluate(DRAWN, "".join(names)), "a name's characters draw as the missing-glyph box"
        assert page.input_value("#hand") == "1" and step_of(page) == 0
        # another viewpoint puts that seat at the bottom
        page.select_option("#viewpoint", "2")
        assert page.locator(".hand-zone.bottom .hand").get_attribute("data-seat") == "2"
        page.close()
    assert not errors, errors


def test_a_link_opens_a_hand_a_step_and_a_viewpoint_and_autoplay_goes_on(browser: Any, tmp_path: Path) -> None:
    """/replay?table=ID&hand=H&step=S&seat=V opens a stored game there (the address follows every move,
    so it can be copied); autoplay steps on by itself and a result card comes in turn."""
    errors: list[str] = []
    with running_server(tmp_path / "db.sqlite") as base:
        tid = finished_table(base, seed=4)
        data = httpx.get(f"{base}/api/replays/table/{tid}").json()
        page = new_page(browser, errors, "phone")
        page.goto(f"{base}/replay?table={tid}&hand=2&step=5&seat=1")
        page.wait_for_selector("#controls:not(.hidden)")
        assert page.input_value("#hand") == "1" and step_of(page) == 4
        assert page.locator(".hand-zone.bottom .hand").get_attribute("data-seat") == "1"
        assert layout_problems(page, "#controls button, #controls select") == []
        page.locator("#next").tap()
        expect(page).to_have_url(re.compile(r"[?&]step=6\b"))
        assert "hand=2" in page.url and "seat=1" in page.url
        # autoplay from three steps before the hand's end: the steps go on to its card without a touch
        steps = len(data["hands"][1]["steps"])
        page.goto(f"{base}/replay?table={tid}&hand=2&step={steps - 2}&seat=1")
        page.wait_for_selector("#controls:not(.hidden)")
        assert step_of(page) == steps - 3
        page.locator("#play").tap()
        page.wait_for_selector("#hand-result", timeout=20_000)
        shot(page, "replay-phone-card", full_page=False)
        page.locator("#play").evaluate("b => b.click()")  # pause (the card covers the bar on a phone)
        page.close()
    assert not errors, errors


def test_a_record_that_does_not_replay_clean_names_its_first_mismatch(browser: Any, tmp_path: Path) -> None:
    """A record whose second hand's win claims a han too many: the viewer shows the hands up to it and
    names the mismatch where the steps are."""
    errors: list[str] = []
    with running_server(tmp_path / "db.sqlite") as base:
        tid = finished_table(base, seed=4)
        events = [json.loads(x) for x in httpx.get(f"{base}/api/tables/{tid}/record?format=mjai").text.splitlines()]
        starts = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"]
        i = next(j for j in range(starts[1], len(events)) if events[j]["type"] == "hora" and events[j].get("han"))
        events[i] = {**events[i], "han": events[i]["han"] + 1}
        bad = tmp_path / "bad.mjson"
        bad.write_text("\n".join(json.dumps(e) for e in events), encoding="utf-8")
        page = new_page(browser, errors)
        page.goto(f"{base}/replay")
        page.set_input_files("#upload", str(bad))
        page.wait_for_selector("#mismatch")
        text = page.text_content("#mismatch") or ""
        assert "first mismatch" in text and "han" in text
        hands = page.locator("#hand option").count()
        assert 2 <= hands < len(starts)
        page.close()
    assert not errors, errors


def test_a_damaged_records_problem_in_a_japanese_browser(browser: Any, tmp_path: Path) -> None:
    """Issue 24: the replay viewer in a Japanese browser, given a Tenhou record with a tag its reader
    does not know: the first problem (the reader's, a coded sentence) and the replay's notes are in
    Japanese; at a phone's size and a laptop's."""
    from sanma.i18n.messages import untranslated

    text = data_path(*RECORD).read_text(encoding="utf-8")
    i = text.index("<INIT")
    j = text.index("<", text.index(">", i) + 1)
    bad = tmp_path / "bad.xml"
    bad.write_text(text[:j] + "<XYZ/>" + text[j:], encoding="utf-8")
    errors: list[str] = []
    with running_server(tmp_path / "db.sqlite") as base:
        for size in ("phone", "laptop"):
            page = new_page(browser, errors, size, locale="ja-JP")
            page.goto(f"{base}/replay")
            page.wait_for_selector("html[data-i18n='ready']")
            page.set_input_files("#upload", str(bad))
            page.wait_for_selector("#mismatch")
            said = page.text_content("#mismatch") or ""
            assert said.startswith("最初の不一致（牌譜）まで再生しました: bad.xml: 東1局: "), said
            assert "番目のタグ <XYZ>: 不明なタグ <XYZ>" in said, said
            assert untranslated(said, {"XYZ"}) == [], said
            shot(page, f"replay-problem-ja-{size}", full_page=False)
            page.close()
    assert not errors, errors
