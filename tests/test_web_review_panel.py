"""The replay viewer's review panel in Chromium (issue 21 item 3) on a real Tenhou Phoenix record: the
record uploaded, a seat reviewed by the server, the panel beside each step (the viewer's keys move it),
the costliest decisions as links to their steps, a position opened in the calculator; at a laptop's
size (beside the board) and a phone's (below it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_helpers import HAVE_CHROMIUM, WHY_NOT, layout_problems, new_page, shot
from sanma.i18n import round_name
from shared_data import data_path
from web_helpers import running_server

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=WHY_NOT)

RECORD = ("corpus", "tenhou_phoenix_2026-01", "2026011603gm-00b9-0000-55f9a5cc.xml")
SEAT = 1


def step_of(page: Any) -> int:
    m = re.match(r"step (\d+)/", page.text_content("#step") or "")
    assert m, page.text_content("#step")
    return int(m.group(1))


def viewer_steps(replay: dict[str, Any]) -> list[list[int]]:
    """Per hand, the count of the hand's engine events after each replay step."""
    out = []
    for hand in replay["hands"]:
        n, ends = 0, []
        for step in hand["steps"]:
            n += len(step["events"])
            ends.append(n)
        out.append(ends)
    return out


def open_review(page: Any, base: str, record: Path) -> None:
    page.goto(f"{base}/replay")
    page.set_input_files("#upload", str(record))
    page.wait_for_selector("#review-go")
    page.select_option("#review-seat", str(SEAT))
    page.click("#review-go")
    page.wait_for_selector("#review-summary")


def shown_decision(page: Any, review: dict[str, Any], ends: list[list[int]]) -> int | None:
    """The decision the panel must show at the viewer's place (by the server's steps), or None."""
    hand, step = int(page.input_value("#hand")), step_of(page)
    for i, d in enumerate(review["decisions"]):
        if d["hand"] == hand and ends[hand].index(d["step"]) == step:
            return i
    return None


def kyoku_words(kyoku: str, lang: str = "en") -> str:
    """A review's kyoku ("E1-0": round wind, dealer's number, honba) in a player's words, as the
    replay viewer's hand picker and the result cards name a hand ("East 1", "南3局 2本場"; sanma.i18n)."""
    m = re.fullmatch(r"([ESWN])(\d+)-(\d+)", kyoku)
    assert m, kyoku
    return round_name(m[1], int(m[2]), lang, int(m[3]))


def check_panel(page: Any, review: dict[str, Any], ends: list[list[int]]) -> int | None:
    i = shown_decision(page, review, ends)
    if i is None:
        assert page.locator("#review-none").count() == 1 and page.locator("#review-options").count() == 0
        return None
    d = review["decisions"][i]
    # the hand named in a player's words (the panel showed the contract's "E1-0")
    category = review["words"]["decisions"][i]["category"]
    assert page.text_content("#review-kyoku") == f"{kyoku_words(d['kyoku'])} · {category}"
    rows = page.locator("#review-options tr[data-played]")
    assert rows.count() == len(d["options"])
    assert page.locator("#review-options tr[data-played='1']").count() == 1  # the played option, marked
    played = next(j for j, o in enumerate(d["options"]) if o["action"] == d["played"])
    assert rows.nth(played).get_attribute("data-played") == "1"
    assert page.text_content("#review-why") == review["words"]["decisions"][i]["why"]
    best = rows.nth(0).locator("td").all_text_contents()
    o = d["options"][0]
    assert best[1] == f"{100 * o['win']:.{1 if 0 < o['win'] < 0.01 else 0}f}%" and best[6] == "—"
    return i



def _replay_and_review(base: str, record: Path) -> tuple[Any, Any]:
    """The server's replay of ``record`` and its review of seat ``SEAT`` (what the page will draw)."""
    answers = [httpx.post(f"{base}{path}", content=record.read_bytes(), headers={"content-type": "text/plain"},
                          timeout=60).json() for path in ("/api/replays?name=r", f"/api/reviews?seat={SEAT}")]
    return answers[0], answers[1]


def test_the_review_panel_on_a_real_tenhou_record(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    record = data_path(*RECORD)
    with running_server(tmp_path / "db.sqlite") as base:
        replay, review = _replay_and_review(base, record)
        ends = viewer_steps(replay)
        page = new_page(browser, errors, "laptop")
        open_review(page, base, record)
        # the reviewed seat at the bottom of the board; the summary is the server's
        assert page.input_value("#viewpoint") == str(SEAT)
        s = review["summary"]
        assert f"{s['decisions']} decisions" in (page.text_content("#review-summary") or "")
        assert page.locator("#review-odds tr").count() == 4  # a header and the three seats
        # N: the seat's first decision; the viewer's step keys move the panel with the board
        page.keyboard.press("n")
        first = review["decisions"][0]
        assert int(page.input_value("#hand")) == first["hand"] and step_of(page) == ends[first["hand"]].index(
            first["step"])
        assert check_panel(page, review, ends) == 0
        shot(page, "review-panel-laptop", full_page=False)
        seen: set[int | None] = {0}
        for key in ["ArrowRight"] * 6 + ["ArrowLeft"] * 3 + ["ArrowDown", "n", "n", "p"]:
            page.keyboard.press(key)
            seen.add(check_panel(page, review, ends))
        assert len(seen) >= 3, seen
        # the costliest decisions are links to their steps
        worst = page.locator("#review-worst a")
        assert worst.count() == len(s["worst"]) > 0
        h, k = s["worst"][0]
        kyoku = next(d["kyoku"] for d in review["decisions"] if [d["hand"], d["step"]] == [h, k])
        assert (worst.first.text_content() or "").startswith(f"{kyoku_words(kyoku)}, step ")
        worst.first.click()
        assert int(page.input_value("#hand")) == h and step_of(page) == ends[h].index(k)
        i = check_panel(page, review, ends)
        assert i is not None and [review["decisions"][i][x] for x in ("hand", "step")] == [h, k]
        # the position opens in the calculator, filled in with the seat's own hand
        href = page.get_attribute("#review-calc", "href") or ""
        pos = review["decisions"][i]["position"]
        calc = new_page(browser, errors, "laptop")
        calc.goto(base + href)
        calc.locator("#t-hand .tilebox").first.wait_for()  # filled from the address
        tiles = calc.locator("#t-hand .tilebox").count() + calc.locator("#t-win .tilebox").count()
        assert tiles == sum(ch.isdigit() for ch in pos["hand"])
        assert calc.locator("#t-dora .tilebox").count() == len(pos["dora"])
        assert calc.input_value("#seat") == pos["seat"] and calc.input_value("#rules") == "tenhou"
        assert calc.is_checked("#flag-tsumo") == pos["tsumo"]
        calc.close()
        page.close()

        # a phone: the panel below the board, nothing sideways, every control a finger's size
        phone = new_page(browser, errors, "phone")
        open_review(phone, base, record)
        phone.keyboard.press("n")
        assert check_panel(phone, review, ends) == 0
        assert layout_problems(phone, "#review-prev, #review-next, #review-close") == []
        phone.locator("#review-calc").scroll_into_view_if_needed()  # inside the panel, which scrolls
        assert layout_problems(phone, "#review-calc") == []
        box = phone.locator("#review").bounding_box()
        board = phone.locator("#board").bounding_box()
        assert box is not None and board is not None and box["y"] >= board["y"] + board["height"]
        shot(phone, "review-panel-phone", full_page=False)
        phone.close()
    assert not errors, errors


def test_a_stored_game_is_reviewed_from_its_replay_link(browser: Any, tmp_path: Path) -> None:
    """A finished game of the server, opened by its replay link: the panel asks the server for the
    stored game's review (not an upload) and shows it beside the steps of the seat chosen."""
    from test_web_replay_viewer import finished_table

    errors: list[str] = []
    with running_server(tmp_path / "db.sqlite") as base:
        tid = finished_table(base, seed=4)
        review = httpx.get(f"{base}/api/reviews/table/{tid}?seat=2", timeout=60).json()
        page = new_page(browser, errors, "laptop")
        page.goto(f"{base}/replay?table={tid}")
        page.wait_for_selector("#review-go")
        page.select_option("#review-seat", "2")
        page.click("#review-go")
        page.wait_for_selector("#review-summary")
        assert f"{review['summary']['decisions']} decisions" in (page.text_content("#review-summary") or "")
        page.keyboard.press("n")
        page.wait_for_selector("#review-options")
        assert page.text_content("#review-why") == review["words"]["decisions"][0]["why"]
        assert "table=" in page.url and "seat=2" in page.url  # the viewer's address follows the reviewed seat
        page.close()
    assert not errors, errors


LABELS = """async () => {
  const { kyokuLabel } = await import('/static/cards.js');
  return ['E1-0', 'S3-2', 'E2', 'W1-1'].map(kyokuLabel);
}"""


def test_the_review_panel_on_a_phone_on_its_side_and_in_japanese(browser: Any, tmp_path: Path) -> None:
    """Issue 21 item 3, found by the lead: at 844x390 the panel showed only its header row (the step
    buttons stacked beside the board left it ~54 px): now it stands beside the board with the step
    buttons in one row under both, its options rows in the window, each reachable by scrolling the panel,
    its head (◀ ▶ ✕) in sight. And its hand was named "E1-0", the contract's value: it is named in the
    words of the replay viewer's hand picker and the result cards (one helper, cards.js kyokuLabel), in
    English and in Japanese."""
    errors: list[str] = []
    record = data_path(*RECORD)
    with running_server(tmp_path / "db.sqlite") as base:
        replay, review = _replay_and_review(base, record)
        ends = viewer_steps(replay)
        page = new_page(browser, errors, "landscape")
        open_review(page, base, record)
        page.keyboard.press("n")
        assert check_panel(page, review, ends) == 0
        needed = "#review-prev, #review-next, #review-close, #controls button, #controls select"
        assert layout_problems(page, needed) == []
        vw, vh = 844, 390
        panel = page.locator("#review").bounding_box()
        board = page.locator("#board").bounding_box()
        assert panel is not None and board is not None
        assert panel["x"] >= board["x"] + board["width"] - 1, (panel, board)  # beside the board
        assert panel["height"] >= 0.6 * board["height"], (panel, board)  # not a header's height
        # unscrolled, the options' header and the first option are in the window, inside the panel
        first = page.locator("#review-options tr").nth(1).bounding_box()
        assert first is not None, "an option row"
        assert first["y"] + first["height"] <= min(vh, panel["y"] + panel["height"]), (first, panel)
        shot(page, "review-panel-landscape", full_page=False)
        # every option is reachable: scrolled to inside the panel, it lies in the window
        rows = page.locator("#review-options tr[data-played]")
        for j in range(rows.count()):
            rows.nth(j).scroll_into_view_if_needed()
            box = rows.nth(j).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vh, (j, box)
            assert box["x"] + box["width"] <= vw + 1, (j, box)
        page.locator("#review-calc").scroll_into_view_if_needed()
        assert layout_problems(page, needed + ", #review-calc") == []  # the head stays in sight, sticky
        assert page.evaluate(LABELS) == ["East 1", "South 3, 2 honba", "East 2", "West 1, 1 honba"]
        page.close()

        # in Japanese: the panel's hand, the costliest decisions' links and the hand picker in one set of words
        ja = new_page(browser, errors, "laptop", locale="ja-JP")
        open_review(ja, base, record)
        ja.keyboard.press("n")
        first_kyoku = review["decisions"][0]["kyoku"]
        assert (ja.text_content("#review-kyoku") or "").startswith(f"{kyoku_words(first_kyoku, 'ja')} · ")
        h, k = review["summary"]["worst"][0]
        kyoku = next(d["kyoku"] for d in review["decisions"] if [d["hand"], d["step"]] == [h, k])
        assert (ja.locator("#review-worst a").first.text_content() or "").startswith(f"{kyoku_words(kyoku, 'ja')} ")
        picker = ja.eval_on_selector_all("#hand option", "os => os.map(o => o.textContent)")
        rounds = [hd["round"] for hd in replay["hands"]]
        assert picker == [f"{i + 1}. {round_name(r['wind'], r['number'], 'ja', r['honba'])}"
                          for i, r in enumerate(rounds)], picker
        assert ja.evaluate(LABELS) == ["東1局", "南3局 2本場", "東2局", "西1局 1本場"]
        # the options' columns are rates (msgctxt "rate"): 和了率 and 放銃率, not the words
        head = ja.eval_on_selector_all("#review-options tr:first-child > *", "cs => cs.map(c => c.textContent)")
        assert head[1:3] == ["和了率", "放銃率"], head
        shot(ja, "review-panel-ja", full_page=False)
        ja.close()
    assert not errors, errors
