"""Issue 24: the pages' translation helper (web/static/i18n.js) in real Chromium: the language comes
from the browser's (Japanese here), a remembered switch wins over it, sentences and terms come from
the catalogue the server serves from the page files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import HAVE_CHROMIUM, WHY_NOT, shot  # the Chromium fixture is conftest's ``browser``
from i18n_pages import japanese_share, shown_text
from sanma.i18n.messages import untranslated
from web_helpers import running_server

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=WHY_NOT)
#: A kept session's page, opened by its organiser's link (issue 23 "Access"), never by its number.
KEEPER_LINK = re.compile(r".*/keeper/[A-Za-z0-9_-]{30,}$")

PROBE = """async () => {
  const i = await import("/static/i18n.js");
  const box = document.createElement("div");
  box.innerHTML = '<h2 data-t>  {points}\\n points</h2><input data-t="placeholder" placeholder="{points} points">';
  document.body.appendChild(box);
  i.translatePage(box);
  return {lang: i.lang, html: document.documentElement.lang,
          points: i.t("{points} points", {points: i.fmtNumber(12000)}),
          missing: i.t("A sentence no catalogue has, {x}", {x: 1}), riichi: i.term("yaku", "riichi"),
          unknown: i.term("yaku", "a_new_one"), h2: box.querySelector("h2").textContent,
          placeholder: box.querySelector("input").placeholder, signed: i.fmtSigned(-1500),
          plural: i.tn("{n} new stick", "{n} new sticks", 2),
          rate: i.tc("rate", "win"), word: i.t("riichi"), date: i.fmtDate("2026-12-03T04:05:00Z")};
}"""


def _probe(browser: Any, base: str, locale: str, cookie: str | None = None) -> dict[str, Any]:
    context = browser.new_context(locale=locale)
    try:
        if cookie:
            context.add_cookies([{"name": "sanma_lang", "value": cookie, "url": base}])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/")
        out: dict[str, Any] = page.evaluate(PROBE)
        assert errors == []
        return out
    finally:
        context.close()


def test_a_japanese_browser_gets_japanese_and_the_switch_wins(browser: Any, tmp_path: Path) -> None:
    with running_server(tmp_path / "db.sqlite") as base:
        ja = _probe(browser, base, "ja-JP")
        assert ja["lang"] == ja["html"] == "ja"
        assert ja["points"] == "12,000点" and ja["riichi"] == "立直" and ja["unknown"] == "a new one"
        assert ja["missing"] == "A sentence no catalogue has, 1"  # no translation: its English
        assert ja["h2"] == ja["placeholder"] == "{points}点"  # data-t: text and attributes
        assert ja["signed"] == "-1,500" and ja["plural"] == "2 new sticks"
        assert ja["rate"] == "和了率" and ja["word"] == "リーチ"  # a rate (msgctxt "rate") and a word: tc() and t()
        assert ja["date"].startswith("2026/12/03"), ja["date"]  # dates as the language writes them
        en = _probe(browser, base, "ja-JP", cookie="en")  # the remembered switch wins
        assert en["lang"] == "en" and en["points"] == "12,000 points" and en["riichi"] == "Riichi"
        assert en["rate"] == "win" and en["word"] == "riichi"
        assert en["date"].startswith("Dec 3, 2026"), en["date"]
        assert _probe(browser, base, "en-US")["lang"] == "en"
        assert _probe(browser, base, "en-US", cookie="ja")["riichi"] == "立直"


# --- the keeper's phone page in Japanese (issue 24: "the keeper page ... show Japanese") -----------------------


def _keeper_hand(page: Any, base: str) -> None:
    """A session of three, then one ron entered by taps: Aki rons Ben for 2 han 30 fu."""
    page.goto(f"{base}/keeper")
    page.fill("#new-people", "Aki,Ben,Chie")
    page.click("#new-go")
    page.wait_for_url(KEEPER_LINK)
    page.wait_for_selector("#scores tr[data-person='Aki']")
    page.select_option("#kind", "ron")
    page.select_option("#from", "Ben")
    page.select_option("#winner", "Aki")
    page.fill("#han", "2")
    page.fill("#fu", "30")
    page.click("#save")
    page.wait_for_selector("#hands li[data-no='1']")


def test_the_keeper_page_in_a_japanese_browser(browser: Any, tmp_path: Path) -> None:
    """A phone whose browser speaks Japanese: the form, the hand, the scores, the entry's summary (put
    into words by the server in the page's language) and the undo's confirmation are Japanese."""
    with running_server(tmp_path / "db.sqlite") as base:
        context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844}, is_mobile=True,
                                      has_touch=True)
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            # the served page's console too: an inline handler the CSP refuses is logged there (the form's was)
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{base}/keeper")
            page.wait_for_selector("html[data-i18n='ready']")  # the module's catalogue fetched, the page put into words
            assert page.text_content("#create h1") == "新しい記録セッション"
            _keeper_hand(page, base)
            # a phone widens its layout past 390 px when a line cannot wrap (the read-only link once did):
            # then the scrolled-to Save button lay under other fields (test_keeper_web -k sideways)
            assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]") == [390, 390]
            assert page.text_content("#form-title") == "局の結果を入力"
            assert page.text_content("#hand").startswith("東1局 · 0本場") or "東1局" in page.text_content("#hand")
            entry = page.text_content("#hands li[data-no='1']") or ""
            assert "東1局" in entry and "Aki 30符2翻 = 2,900点（Ben からロン）" in entry, entry
            kinds = page.eval_on_selector_all("#kind option", "os => os.map(o => o.textContent)")
            assert kinds[:3] == ["ロン", "ツモ", "流局"]
            page.click("#undo")
            page.wait_for_selector("#confirm:not(.hidden)")
            assert "を取り消しますか" in (page.text_content("#confirm-text") or "")
            shot(page, "keeper-ja")
            text = shown_text(page)
            assert japanese_share(text) > 0.5, text
            assert errors == []
        finally:
            context.close()


def test_the_pseudo_locale_finds_nothing_untranslated_on_the_keeper_page(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SANMA_PSEUDO=1: every English sentence and term of the page is bracketed; a word outside the
    brackets was never routed through t(), term() or the server's sentences."""
    monkeypatch.setenv("SANMA_PSEUDO", "1")
    with running_server(tmp_path / "db.sqlite") as base:
        context = browser.new_context(locale="en-US")
        try:
            page = context.new_page()
            _keeper_hand(page, base)
            page.select_option("#kind", "penalty")  # the penalty kinds and their effects
            text = shown_text(page)
            names = {"Aki", "Ben", "Chie", "Dan", "club", "official", "kansai", "online", "tenhou", "majsoul",
                     "sanma", "mpsz", "English", "JSON", "CSV",
                     "Language"}  # the language switch's label names itself in both languages
            left = untranslated(text, names)
            assert left == [], sorted(set(left))
        finally:
            context.close()


# --- the calculator in Japanese ----------------------------------------------------------------------------------


def test_the_calculator_in_a_japanese_browser(browser: Any, tmp_path: Path) -> None:
    """The issue's shown hand, tapped into the calculator of a Japanese browser: 立直, 一気通貫 and
    満貫 with 8,000点 and each seat's payment, the labels and the refusals in Japanese."""
    with running_server(tmp_path / "db.sqlite") as base:
        context = browser.new_context(locale="ja-JP", viewport={"width": 1366, "height": 768})
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{base}/calc")
            page.wait_for_selector("#picker .tilebox")
            assert page.text_content("h1") == "点数計算"
            page.fill("#mpsz", "123456789p9m111z9m")
            page.press("#mpsz", "Enter")
            assert page.locator("#t-hand .tilebox").count() == 13 and page.locator("#t-win .tilebox").count() == 1
            assert page.get_attribute("#t-hand .tilebox", "title") == "戻す"
            page.click("#flag-riichi")
            page.select_option("#seat", "S")
            page.select_option("#from", "W")
            page.click("#score")
            page.wait_for_selector("#score-total")
            total = page.text_content("#score-total") or ""
            assert "満貫" in total and "8,000点" in total, total
            yaku = page.eval_on_selector_all("#score-yaku td:first-child", "tds => tds.map(t => t.textContent)")
            assert {"立直", "一気通貫"} <= set(yaku), yaku
            assert page.text_content("#score-deltas tr[data-wind='W'] td:first-child") == "西"
            assert "-8,000" in (page.text_content("#score-deltas tr[data-wind='W']") or "")
            assert "符" in (page.text_content("#score-fu") or "")
            shot(page, "calculator-ja")
            assert japanese_share(shown_text(page)) > 0.4
            page.fill("#mpsz", "123m456p")
            page.press("#mpsz", "Enter")
            assert "2m は三麻の牌にありません" in (page.text_content("#score-error") or "")
            assert errors == []
        finally:
            context.close()


# --- the lobby, and a whole hand at the table with its result card ------------------------------------------------


def test_the_lobby_and_a_whole_hand_at_the_table_in_a_japanese_browser(browser: Any, tmp_path: Path) -> None:
    """A Japanese browser creates a table in the lobby (its rules in Japanese, each field by name), opens
    its seat and plays the first hand to its result card, whose title, yaku and payments are Japanese."""
    import time

    from test_web_browser import LOOK, Player

    with running_server(tmp_path / "db.sqlite") as base:
        context = browser.new_context(locale="ja-JP", viewport={"width": 1366, "height": 768})
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{base}/")
            # a locator, not wait_for_function: the pages' Content-Security-Policy forbids eval
            page.locator("#rules-text").filter(has_text="北抜き").wait_for(state="attached")
            assert page.text_content("h1") == "三人麻雀"
            assert "天鳳" in (page.text_content("#rules-desc") or "")
            page.click("#rules-details summary")
            field = page.locator("#rules-text tr[data-field='red_5p']")  # each field by its name, value, key
            assert field.locator("th").inner_text().startswith("赤5筒の枚数")
            assert field.locator("td").inner_text() == "1"
            shot(page, "lobby-ja")
            assert japanese_share(shown_text(page)) > 0.3  # beside the presets', bots' and fields' own names
            page.fill("#seed", "1")
            page.click("#create")
            page.wait_for_selector("#links .open-seat")
            assert "1番席" in (page.text_content("#links") or "") or "0番席" in (page.text_content("#links") or "")
            page.goto(base + (page.get_attribute("#links .open-seat[data-seat='0']", "href") or ""))
            page.wait_for_selector(".hand-zone.bottom .tilebox.mine")
            player = Player(page)
            # play until a hand's result card is up (one the player's step dismisses first is not
            # looked at: the next hand's is)
            end = time.monotonic() + 300
            while page.locator("#result-ok").count() == 0:
                assert time.monotonic() < end, player.done
                if page.evaluate(LOOK)["result"]:
                    break
                if not player.step():
                    page.wait_for_timeout(30)
            card = page.text_content("#hand-result") or page.text_content("#overlay") or ""
            shot(page, "hand-result-ja")
            assert japanese_share(card) > 0.3, card
            assert any(w in card for w in ("点", "流局", "聴牌")), card
            assert errors == []
        finally:
            context.close()


def test_the_pseudo_locale_finds_nothing_untranslated_on_the_lobby_replay_calculator_player_and_table(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SANMA_PSEUDO=1 over the lobby, the replay viewer, the calculator (with a score), this browser's
    player page and a seat's table page: no English word outside the brackets."""
    from browser_helpers import create_table

    monkeypatch.setenv("SANMA_PSEUDO", "1")
    names = {"sanma", "club", "official", "kansai", "online", "tenhou", "majsoul", "mpsz", "JSON", "CSV", "Language",
             "English", "efficient", "defensive", "random", "tsumogiri", "review", "Enter"}
    with running_server(tmp_path / "db.sqlite") as base:
        context = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 768})
        try:
            page = context.new_page()
            for path in ("/", "/replay", "/calc"):
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                if path == "/calc":
                    page.fill("#mpsz", "123456789p9m111z9m")
                    page.press("#mpsz", "Enter")
                    page.wait_for_selector("#score-total")
                left = untranslated(shown_text(page), names)
                assert left == [], (path, sorted(set(left)))
            page.goto(base + "/")  # this browser's player page, linked from the lobby
            page.wait_for_selector("#my-page:not(.hidden)")
            page.goto(base + (page.get_attribute("#my-page", "href") or ""))
            page.wait_for_load_state("networkidle")
            left = untranslated(shown_text(page), names)
            assert left == [], ("player", sorted(set(left)))
            t = create_table(base, ["human", "defensive", "efficient"], seed=1)
            page.goto(base + t["seats"][0]["url"])
            page.wait_for_selector(".hand-zone.bottom .tilebox.mine")
            # "Player 1": the name the server gave the seat (a stored name, not the page's words)
            left = untranslated(shown_text(page), {*names, "Player"})
            assert left == [], ("table", sorted(set(left)))
        finally:
            context.close()


def test_the_tournament_page_in_japanese_and_in_the_pseudo_locale(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament's referee page (a round seated, its clock) in a Japanese browser, then in the
    pseudo-locale with no English word outside the brackets."""
    from sanma.keeper.tournament import Tournaments
    from sanma.rules import Rules
    from sanma.store import open_db
    from sanma.web.tournament import issue_links

    db = tmp_path / "db.sqlite"
    with open_db(db) as store:
        t = Tournaments(store)
        t.new(Rules.preset("official"), [f"P{i}" for i in range(1, 7)], 2, seating="random", seed=3, name="cup",
              round_minutes=30)
        t.seat(1, 1)
        organiser = issue_links(store, 1, [f"P{i}" for i in range(1, 7)])["organiser"]  # its referee page
    with running_server(db) as base:
        for locale, pseudo in (("ja-JP", False), ("en-US", True)):
            if pseudo:
                monkeypatch.setenv("SANMA_PSEUDO", "1")
            context = browser.new_context(locale=locale)
            try:
                page = context.new_page()
                page.goto(base + organiser)
                page.wait_for_selector("#tables .table")
                text = shown_text(page)
                if pseudo:
                    left = untranslated(text, {"cup", "official", "random", "English", "Language", "CSV", "JSON",
                                               "sanma",  # the header's brand (docs/PAGES.md), a name
                                               *(f"P{i}" for i in range(1, 7))})
                    assert left == [], sorted(set(left))
                else:
                    assert page.text_content("#round-title") == "第1回戦" and "順位表" in text, text
                    shot(page, "tournament-ja")
            finally:
                context.close()
