"""``sanma review --html FILE``: the review as one self-contained web page (no script, no request).

Every text of the record (player names, the source) is escaped; the numbers are the review's own.
"""

from __future__ import annotations

import html
from pathlib import Path

from ..i18n import current_lang, tr
from ..i18n.messages import fill, trc
from .report import Review, category_words, kyoku_words, option_text

STYLE = """
body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:60rem;padding:0 .8rem;color:#222}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:1.6rem}
table{border-collapse:collapse;width:100%;margin:.4rem 0 1rem;font-size:.9rem}
th,td{border-bottom:1px solid #ddd;padding:.25rem .4rem;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}
tr.played td{font-weight:600}tr.best td:first-child::after{content:" ★";color:#b8860b}
.why{margin:.2rem 0 .2rem;color:#333}.meta{color:#555;font-size:.85rem}
.bad{color:#a11}.ok{color:#161}section{border-top:1px solid #bbb;padding-top:.4rem}
@media (max-width:600px){table{font-size:.78rem}th,td{padding:.2rem}}
"""


def _e(s: object) -> str:
    return html.escape(str(s), quote=True)


def render(r: Review) -> str:
    """The page in the current language (``sanma review --lang``); the numbers are the review's."""
    lang = current_lang()
    s = r.summary()
    names = list(r.players) or [tr("seat {seat}", seat=i) for i in range(3)]
    who = names[r.seat] if r.seat < len(names) else tr("seat {seat}", seat=r.seat)
    title = tr("sanma review: {who}", who=who)
    heading = tr("Review of seat {seat} ({who})", seat=r.seat, who=who)
    model = tr("Model: {model}", model=r.model)
    out = [f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
           f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
           f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
           f"<h1>{_e(heading)}</h1>",
           "<p class='meta'>" + _e(tr("{source} · rules {rules} · {n} decisions · agreement {agreement:.0f}% · regret "
                                      "{regret:.2f} placement points ({points:,} points)", source=r.source,
                                      rules=r.rules, n=s["decisions"], agreement=100 * s["agreement"],
                                      regret=s["regret_placement"], points=s["regret_points"])) + "</p>",
           f"<p class='meta'>{_e(model)}</p>"]
    if s["by_category"]:
        out.append(_row("th", tr("category"), tr("decisions"), tr("agreement"), tr("regret"), table=True))
        for c, v in s["by_category"].items():
            out.append(_row("td", category_words(c).text(lang), v["decisions"], f"{100 * v['agreement']:.0f}%",
                            f"{v['regret_placement']:.2f}"))
        out.append("</table>")
    by_hand: dict[int, list[int]] = {}
    for i, d in enumerate(r.decisions):
        by_hand.setdefault(d.decision.hand, []).append(i)
    for h, odds in zip(r.hands, r.odds, strict=True):
        shown = "; ".join(f"{names[p] if p < len(names) else p} " + "/".join(f"{100 * x:.0f}%" for x in odds[p])
                          for p in range(len(odds)))
        hand = kyoku_words(h.kyoku, lang)
        at_deal = tr("Placement odds at the deal: {odds}", odds=shown)
        out.append(f"<section><h2>{_e(hand)}</h2><p class='meta'>{_e(at_deal)}</p>")
        for i in by_hand.get(h.index, []):
            d = r.decisions[i]
            mark = "ok" if d.played.best else "bad"
            out.append(f"<p class='why {mark}'>" + _e(tr("Step {step} [{category}]: {why}", step=d.decision.step,
                                                          category=category_words(d.category), why=d.why)) + "</p>")
            out.append(_row("th", tr("option"), trc("rate", "win"), trc("rate", "deal-in"), tr("value if it wins"),
                            tr("EV points"), tr("EV placement"), tr("regret"), table=True))
            for o in d.options:
                e = o.estimate
                cls = " ".join(c for c, on in (("played", o.played), ("best", o.best)) if on)
                out.append(f"<tr class='{cls}'><td>{_e(option_text(e.action, e.follow).text(lang))}</td>"
                           f"<td>{100 * e.win:.1f}%</td><td>{100 * e.deal_in:.1f}%</td><td>{round(e.value):,}</td>"
                           f"<td>{round(e.ev_points):+,}</td><td>{e.ev_placement:+.2f}</td><td>{o.regret:.2f}</td></tr>")
            out.append("</table>")
        out.append("</section>")
    if r.errors:
        notes = [fill("{e}", {"e": e}, current_lang()) for e in r.errors]  # a reader's problem: in its words
        out.append("<h2>" + _e(tr("Replay notes")) + "</h2><ul>" + "".join(f"<li>{_e(n)}</li>" for n in notes)
                   + "</ul>")
    out.append("</body></html>")
    return "\n".join(out)


def _row(cell: str, *values: object, table: bool = False) -> str:
    """One row of cells (escaped), opening a table first when ``table``."""
    row = "<tr>" + "".join(f"<{cell}>{_e(v)}</{cell}>" for v in values) + "</tr>"
    return ("<table>" + row) if table else row


def write_html(r: Review, path: Path) -> None:
    path.write_text(render(r), encoding="utf-8")


__all__ = ["render", "write_html"]
