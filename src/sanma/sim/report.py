"""``sanma simulate --report DIR``: Markdown and HTML tables, PNG plots and the JSON summary.

One summary, or two played on the same seeds under different rules (``--compare``), side by
side. Written files: ``report.md``, ``report.html``, ``summary.json`` and the plots
``placements.png`` (placement distribution per bot), ``scores.png`` (final-score histogram),
``rates.png`` (win, deal-in and draw rates), ``hand_value.png`` (average value of the hands won)
and ``bust_rate.png``. matplotlib (Agg, no display) is imported only here.

>>> from sanma.sim import simulate
>>> a = simulate("tenhou", games=1, seed=1)
>>> [row[1] for row in compare_rows(a, a)][:3]
['average placement', 'win rate', 'deal-in rate']
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import current_lang, sentence, tr
from .arena import SimulationError
from .local import EntrySummary, Summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes

PLOTS = ("placements.png", "scores.png", "rates.png", "hand_value.png", "bust_rate.png")

#: per-entry figures: label, getter, format, is a rate
FIGURES: tuple[tuple[str, Callable[[EntrySummary], float], str], ...] = (
    ("average placement", lambda e: e.average_placement, "{:.3f}"),
    ("win rate", lambda e: e.win_rate, "{:.1%}"),
    ("deal-in rate", lambda e: e.deal_in_rate, "{:.1%}"),
    ("riichi rate", lambda e: e.riichi_rate, "{:.1%}"),
    ("call rate", lambda e: e.call_rate, "{:.1%}"),
    ("average hand value", lambda e: e.average_hand_value, "{:,.0f}"),
    ("bust rate", lambda e: e.bust_rate, "{:.1%}"),
    ("average score", lambda e: e.average_score, "{:,.0f}"),
    ("average points", lambda e: e.average_points, "{:+.1f}"),
)


#: the figures of the comparison (FIGURES and the table's own) in words: the report's and ``sanma simulate``'s
FIGURE_WORDS = {
    "average placement": sentence("average placement"), "win rate": sentence("win rate"),
    "deal-in rate": sentence("deal-in rate"), "riichi rate": sentence("riichi rate"),
    "call rate": sentence("call rate"), "average hand value": sentence("average hand value"),
    "bust rate": sentence("bust rate"), "average score": sentence("average score"),
    "average points": sentence("average points"), "draw rate": sentence("draw rate"),
    "hands per game": sentence("hands per game"), "(table)": sentence("(table)"),
}


def figure(word: str) -> str:
    """A figure's (or a comparison row's bot cell's) words in the current language."""
    said = FIGURE_WORDS.get(word)
    return word if said is None else said.text()


def _said_diff(diff: str) -> str:
    """A difference of rates is in percentage points: ``+1.5 pt`` in the current language."""
    return tr("{d} pt", d=diff.removesuffix(" pt")) if diff.endswith(" pt") else diff


def _label(j: int, bot: str, limit: int = 28) -> str:
    text = f"{j + 1}. {bot}"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _diff(fmt: str, a: float, b: float) -> str:
    d = b - a
    if "%" in fmt:
        return f"{d * 100:+.1f} pt"
    if "," in fmt:
        return f"{d:+,.0f}"
    return f"{d:+.3f}" if ".3f" in fmt else f"{d:+.1f}"


def compare_rows(a: Summary, b: Summary) -> list[tuple[str, str, str, str, str]]:
    """(bot, figure, under a, under b, b - a) for every entry and figure, then the table's own."""
    rows: list[tuple[str, str, str, str, str]] = []
    for j, (ea, eb) in enumerate(zip(a.seats, b.seats, strict=True)):
        for name, get, fmt in FIGURES:
            va, vb = get(ea), get(eb)
            rows.append((_label(j, ea.bot), name, fmt.format(va), fmt.format(vb), _diff(fmt, va, vb)))
    rows.append(("(table)", "draw rate", f"{a.draw_rate:.1%}", f"{b.draw_rate:.1%}",
                 _diff("{:.1%}", a.draw_rate, b.draw_rate)))
    ha, hb = a.kyoku / max(a.games, 1), b.kyoku / max(b.games, 1)
    rows.append(("(table)", "hands per game", f"{ha:.2f}", f"{hb:.2f}", f"{hb - ha:+.2f}"))
    return rows


def summary_rows(s: Summary) -> tuple[list[str], list[list[str]]]:
    """The per-bot table of one summary: header and rows (in the current language)."""
    header = [tr("bot"), tr("1st/2nd/3rd"), *(figure(name) for name, _, _ in FIGURES), tr("incidents")]
    rows = [[_label(j, e.bot, 60), "/".join(map(str, e.placements)), *(fmt.format(get(e)) for _, get, fmt in FIGURES),
             str(e.incidents)] for j, e in enumerate(s.seats)]
    return header, rows


def _title(s: Summary) -> str:
    return tr("{rules}: {games} games, {kyoku} hands (seed {seed}), draw rate {draws}, {seconds} s on {backend}",
              rules=s.rules, games=s.games, kyoku=s.kyoku, seed=s.seed, draws=f"{s.draw_rate:.1%}",
              seconds=f"{s.seconds:.2f}", backend=s.backend)


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def esc(x: str) -> str:
        return x.replace("|", "\\|")

    lines = ["| " + " | ".join(esc(h) for h in header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def write_report(summaries: Sequence[Summary], directory: str | Path) -> list[Path]:
    """Write the report of one summary (or two, compared) into ``directory``; the files written."""
    if not 1 <= len(summaries) <= 2:
        raise SimulationError(sentence("a report covers one simulation or two compared, got {n}", n=len(summaries)))
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimulationError(sentence("--report {path}: cannot create the directory: {why}", path=str(out),
                                       why=e.strerror or str(e))) from None
    written: list[Path] = []
    data: dict[str, Any] = summaries[0].to_json()
    if len(summaries) == 2:
        data["compare"] = [s.to_json() for s in summaries]
    (out / "summary.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    written.append(out / "summary.json")
    written += _plots(summaries, out)

    title = tr("sanma simulate report")
    md = [f"# {title}", ""]
    parts_html = [f"<!doctype html><html lang='{current_lang()}'><head><meta charset='utf-8'>"
                  f"<title>{html.escape(title)}</title>",
                  "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
                  "td,th{border:1px solid #bbb;padding:.25em .6em;text-align:right}"
                  "td:first-child,th:first-child{text-align:left}img{max-width:48%;margin:.5em}</style></head><body>",
                  f"<h1>{html.escape(title)}</h1>"]
    for s in summaries:
        header, rows = summary_rows(s)
        md += [f"## {_title(s)}", "", _markdown_table(header, rows), ""]
        parts_html += [f"<h2>{html.escape(_title(s))}</h2>", _html_table(header, rows)]
        if s.incident_log:
            said = tr("Incidents:")
            lines = [m.text() for m in s.incident_log]  # in the report's language
            md += [said, "", *(f"- {line}" for line in lines), ""]
            parts_html += [f"<p>{html.escape(said)}</p><ul>", *(f"<li>{html.escape(x)}</li>" for x in lines), "</ul>"]
    if len(summaries) == 2:
        a, b = summaries
        header = [tr("bot"), tr("figure"), a.rules, b.rules, tr("difference")]
        rows = [[figure(bot), figure(fig), va, vb, _said_diff(diff)] for bot, fig, va, vb, diff in compare_rows(a, b)]
        vs = tr("{a} vs {b} (same seeds)", a=a.rules, b=b.rules)
        md += [f"## {vs}", "", _markdown_table(header, rows), ""]
        parts_html += [f"<h2>{html.escape(vs)}</h2>", _html_table(header, rows)]
    plots = tr("Plots")
    md += [f"## {plots}", ""] + [f"![{p.stem}]({p.name})" for p in written if p.suffix == ".png"] + [""]
    parts_html += [f"<h2>{html.escape(plots)}</h2>"] + [f"<img src='{p.name}' alt='{p.stem}'>" for p in written
                                                         if p.suffix == ".png"]
    parts_html.append("</body></html>")
    (out / "report.md").write_text("\n".join(md), encoding="utf-8")
    (out / "report.html").write_text("\n".join(parts_html) + "\n", encoding="utf-8")
    return [out / "report.md", out / "report.html", *written]


#: where the system's Japanese font (Debian's fonts-noto-cjk, as CI installs it; other systems' folders) may be
CJK_FONTS = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf")


def _japanese_font(plt: Any) -> None:
    """Japanese words and names in the plots (issue 24 item 6): matplotlib does not read the system's .ttc
    collections by itself, so the first Japanese font found is added and falls back behind DejaVu Sans."""
    from matplotlib import font_manager

    for path in CJK_FONTS:
        if Path(path).is_file():
            font_manager.fontManager.addfont(path)
            name = font_manager.FontProperties(fname=path).get_name()
            plt.rcParams["font.family"] = ["DejaVu Sans", name]
            return


def _plots(summaries: Sequence[Summary], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _japanese_font(plt)

    first = summaries[0]
    labels = [_label(j, e.bot) for j, e in enumerate(first.seats)]
    tag = [s.rules for s in summaries]
    files: list[Path] = []

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        fig.savefig(out / name, dpi=100)
        plt.close(fig)
        files.append(out / name)

    def bars(ax: Axes, series: Sequence[Sequence[float]], names: Sequence[str], xlabels: Sequence[str],
             percent: bool) -> None:
        width = 0.8 / max(len(series), 1)
        for i, (values, name) in enumerate(zip(series, names, strict=True)):
            xs = [x + (i - (len(series) - 1) / 2) * width for x in range(len(xlabels))]
            shown = [v * 100 for v in values] if percent else list(values)
            ax.bar(xs, shown, width, label=name)
        ax.set_xticks(range(len(xlabels)), xlabels, rotation=15, ha="right")
        if len(series) > 1:
            ax.legend()

    # placement distribution: one panel per rule set, 1st/2nd/3rd share per bot
    fig, axes = plt.subplots(1, len(summaries), figsize=(6.5 * len(summaries), 4.2), squeeze=False)
    for ax, s in zip(axes[0], summaries, strict=True):
        shares = [[e.placements[p] / max(s.games, 1) for e in s.seats] for p in range(3)]
        bars(ax, shares, [tr("1st"), tr("2nd"), tr("3rd")], labels, percent=True)
        ax.legend()
        ax.set_ylabel(tr("% of games"))
        ax.set_title(tr("placements under {rules}", rules=s.rules))
    save(fig, "placements.png")

    # final-score histogram: one panel per rule set, one step line per bot
    fig, axes = plt.subplots(1, len(summaries), figsize=(6.5 * len(summaries), 4.2), squeeze=False)
    every = [e.score for s in summaries for r in s.records for e in r.entries]
    lo, hi = (min(every), max(every)) if every else (0, 1)
    k = min(40, max(5, len(every) // 10))
    edges = [lo + (hi - lo) * i / k for i in range(k + 1)] if hi > lo else [lo - 500, lo + 500]
    for ax, s in zip(axes[0], summaries, strict=True):  # the same bins for every bot and rule set
        for j, label in enumerate(labels):
            scores = [r.entries[j].score for r in s.records]
            if scores:
                ax.hist(scores, bins=edges, histtype="step", linewidth=1.5, label=label)
        ax.set_xlabel(tr("final score"))
        ax.set_ylabel(tr("games"))
        ax.set_title(tr("final scores under {rules}", rules=s.rules))
        ax.legend()
    save(fig, "scores.png")

    # win / deal-in per bot, draws per table
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), gridspec_kw={"width_ratios": [3, 3, 1]})
    bars(axes[0], [[e.win_rate for e in s.seats] for s in summaries], tag, labels, percent=True)
    axes[0].set_title(tr("win rate (% of hands)"))
    bars(axes[1], [[e.deal_in_rate for e in s.seats] for s in summaries], tag, labels, percent=True)
    axes[1].set_title(tr("deal-in rate (% of hands)"))
    axes[2].bar(range(len(summaries)), [s.draw_rate * 100 for s in summaries], color="grey")
    axes[2].set_xticks(range(len(summaries)), tag)
    axes[2].set_title(tr("draws (% of hands)"))
    save(fig, "rates.png")

    fig, ax = plt.subplots(figsize=(7, 4.2))
    bars(ax, [[e.average_hand_value for e in s.seats] for s in summaries], tag, labels, percent=False)
    ax.set_title(tr("average value of the hands won (points)"))
    save(fig, "hand_value.png")

    fig, ax = plt.subplots(figsize=(7, 4.2))
    bars(ax, [[e.bust_rate for e in s.seats] for s in summaries], tag, labels, percent=True)
    ax.set_title(tr("bust rate (% of games ending on this bot's bust)"))
    save(fig, "bust_rate.png")
    return files
