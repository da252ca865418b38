"""``sanma review --html FILE``: the review as one self-contained web page (no script, no request).

Every text of the record (player names, the source) is escaped; the numbers are the review's own.
"""

from __future__ import annotations

import html
from pathlib import Path

from .report import Review, option_text

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
    s = r.summary()
    names = list(r.players) or ["seat 0", "seat 1", "seat 2"]
    who = names[r.seat] if r.seat < len(names) else f"seat {r.seat}"
    out = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
           f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
           f"<title>sanma review: {_e(who)}</title><style>{STYLE}</style></head><body>",
           f"<h1>Review of seat {r.seat} ({_e(who)})</h1>",
           f"<p class='meta'>{_e(r.source)} · rules {_e(r.rules)} · {s['decisions']} decisions · agreement "
           f"{100 * s['agreement']:.0f}% · regret {s['regret_placement']:.2f} placement points "
           f"({s['regret_points']:,} points)</p>",
           f"<p class='meta'>Model: {_e(r.model)}</p>"]
    if s["by_category"]:
        out.append("<table><tr><th>category</th><th>decisions</th><th>agreement</th><th>regret</th></tr>")
        for c, v in s["by_category"].items():
            out.append(f"<tr><td>{_e(c)}</td><td>{v['decisions']}</td><td>{100 * v['agreement']:.0f}%</td>"
                       f"<td>{v['regret_placement']:.2f}</td></tr>")
        out.append("</table>")
    by_hand: dict[int, list[int]] = {}
    for i, d in enumerate(r.decisions):
        by_hand.setdefault(d.decision.hand, []).append(i)
    for h, odds in zip(r.hands, r.odds, strict=True):
        out.append(f"<section><h2>Hand {h.index}: {_e(h.kyoku)}</h2><p class='meta'>Placement odds at the deal: "
                   + "; ".join(f"{_e(names[p] if p < len(names) else p)} "
                               + "/".join(f"{100 * x:.0f}%" for x in odds[p]) for p in range(len(odds)))
                   + "</p>")
        for i in by_hand.get(h.index, []):
            d = r.decisions[i]
            mark = "ok" if d.played.best else "bad"
            out.append(f"<p class='why {mark}'>Step {d.decision.step} [{_e(d.category)}]: {_e(d.why)}</p>")
            out.append("<table><tr><th>option</th><th>win</th><th>deal-in</th><th>value</th><th>EV points</th>"
                       "<th>EV placement</th><th>regret</th></tr>")
            for o in d.options:
                e = o.estimate
                cls = " ".join(c for c, on in (("played", o.played), ("best", o.best)) if on)
                out.append(f"<tr class='{cls}'><td>{_e(option_text(e.action, e.follow))}</td>"
                           f"<td>{100 * e.win:.1f}%</td><td>{100 * e.deal_in:.1f}%</td><td>{round(e.value):,}</td>"
                           f"<td>{round(e.ev_points):+,}</td><td>{e.ev_placement:+.2f}</td><td>{o.regret:.2f}</td></tr>")
            out.append("</table>")
        out.append("</section>")
    if r.errors:
        out.append("<h2>Replay notes</h2><ul>" + "".join(f"<li>{_e(e)}</li>" for e in r.errors) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out)


def write_html(r: Review, path: Path) -> None:
    path.write_text(render(r), encoding="utf-8")


__all__ = ["render", "write_html"]
