"""Issue 24: the pages' translation helper (web/static/i18n.js) in real Chromium: the language comes
from the browser's (Japanese here), a remembered switch wins over it, sentences and terms come from
the catalogue the server serves from the page files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser_helpers import HAVE_CHROMIUM, WHY_NOT  # the Chromium fixture is conftest's ``browser``
from web_helpers import running_server

pytestmark = pytest.mark.skipif(not HAVE_CHROMIUM, reason=WHY_NOT)

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
          plural: i.tn("{n} new stick", "{n} new sticks", 2)};
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
        en = _probe(browser, base, "ja-JP", cookie="en")  # the remembered switch wins
        assert en["lang"] == "en" and en["points"] == "12,000 points" and en["riichi"] == "Riichi"
        assert _probe(browser, base, "en-US")["lang"] == "en"
        assert _probe(browser, base, "en-US", cookie="ja")["riichi"] == "立直"
