"""``sanma stats FILE... [--player NAME] [--db PATH] [--json] [--chart PNG]``: a player's history."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..i18n import tr
from ..i18n.messages import Message, sentence, sentence_n, trc
from .common import DB_WHERE, cli_errors, replay_problem

if TYPE_CHECKING:
    from ..stats import PlayerStats

DB_HELP = f"The database to store into and read from: {DB_WHERE}. Default: $SANMA_DB, else ./sanma.sqlite."


def stats(
    files: Annotated[list[Path] | None, typer.Argument(
        help="Records to import (Tenhou mjlog XML, tenhou.net/6 JSON, majiang JSON, mjai JSONL); files "
             "already in the database are not read again. Each new record is replayed through the engine "
             "first and stored only if it replays clean; one that does not (a tampered or broken record) "
             "stores nothing of this run. Without files: every stored game.")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Only this player (default: everyone found).")] = None,
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
    chart: Annotated[Path | None, typer.Option("--chart", help="Write a PNG of placements over time.")] = None,
) -> None:
    """Store the records, then report each player's history from the database.

    Games, average placement and 1st/2nd/3rd counts, win, deal-in, riichi, call (pon or open kan)
    and draw (ryuukyoku) rates per hand, average win and deal-in values (hand points before
    honba and sticks) and kita per game. Games are ordered by the date in the record's Tenhou
    log id where there is one. Mahjong Soul records name their players A/B/C.

    Examples:

        sanma stats logs/*.xml --player "神速★.com"

        sanma stats logs/*.json --db ~/mahjong.sqlite --json --chart placements.png
    """
    from ..stats import StatsError, placement_history, player_stats
    from ..store import open_db

    with cli_errors():
        if not files:  # only reading: a database that is not there is an error, not a new empty file
            from ..store import StoreError, default_db_path, is_url

            where = db if db is not None else default_db_path()
            try:
                there = is_url(where) or str(where) == ":memory:" or Path(where).exists()
            except OSError as e:  # a folder on the way that may not be entered: said, not a traceback
                raise StoreError(sentence("{p}: cannot be read: {error}", p=where,
                                          error=e.strerror or str(e))) from None
            if not there:
                raise StoreError(sentence("no database at {where}: give record files to import, or the "
                                          "database 'sanma play --db PATH' or 'sanma replay FILE... --db "
                                          "PATH' stored games in", where=where))
        store = open_db(db)
        try:
            game_ids = None
            if files:
                saved = store.import_files(files, verify=replay_problem)  # only what replays clean
                game_ids = list(dict.fromkeys(s.game_id for s in saved))
            rows = player_stats(store, game_ids=game_ids, player=player)
            if not rows:
                known = [r.name for r in player_stats(store, game_ids=game_ids)]
                if player is not None and known:
                    raise StatsError(sentence("no games of player {player!r} in {scope}; players: {players}",
                                              player=player, scope=_scope(files),
                                              players=", ".join(known[:30]) + (" ..." if len(known) > 30 else "")))
                raise StatsError(sentence("no games in {scope}", scope=_scope(files)))
            if chart is not None:
                from ..stats import write_chart

                history = placement_history(store, game_ids=game_ids, player=player)
                write_chart(history, chart, title=tr("Placements: {player}", player=player) if player else "")
                note = cjk_font_note(list(history))
                if note:
                    print(note, file=sys.stderr)
        finally:
            store.close()
    if as_json:
        out = {"db": store.path, "games": len(game_ids) if game_ids is not None else None,
               "players": [r.to_json() for r in rows], "chart": str(chart) if chart else None}
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    _print(rows, store.path, chart)


def cjk_font_note(names: Sequence[str]) -> str:
    """What to say when the chart names Japanese/Chinese players but no CJK font is installed
    (matplotlib draws their names as boxes): how to get one. "" when nothing needs saying."""
    if not any(ord(c) >= 0x2E80 for n in names for c in n):
        return ""
    from matplotlib import font_manager

    from ..stats import CJK_FONTS

    installed = {f.name for f in font_manager.fontManager.ttflist}
    if any(f in installed for f in CJK_FONTS):
        return ""
    return ("note: no CJK font is installed, so Japanese names in the chart are drawn as boxes. Install one "
            f"of {', '.join(CJK_FONTS[:3])}... (Debian/Ubuntu: sudo apt install fonts-noto-cjk; macOS and "
            "Windows have one), then delete matplotlib's font cache (~/.cache/matplotlib) and run again.")


def _scope(files: list[Path] | None) -> Message:
    return sentence_n("{n} file", "{n} files", len(files)) if files else sentence("the database")


def _print(rows: list[PlayerStats], db: str, chart: Path | None) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=tr("Player statistics ({db})", db=db), title_justify="left")
    # the rates in the context "rate" (msgctxt): "draw" here is 流局率, not the word 流局 or ツモ
    cols = (tr("player"), tr("games"), tr("avg place"), tr("1st/2nd/3rd"), tr("hands"), trc("rate", "win"),
            trc("rate", "deal-in"), trc("rate", "riichi"), trc("rate", "call"), trc("rate", "draw"), tr("avg win"),
            tr("avg deal-in"), tr("kita/game"))
    for i, col in enumerate(cols):
        t.add_column(col, justify="left" if i == 0 else "right", no_wrap=i != 0,
                     min_width=12 if i == 0 else None, overflow="fold" if i == 0 else "ellipsis")

    def avg(x: float | None, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    for r in rows:
        t.add_row(r.name, str(r.games), avg(r.average_placement, ".2f"), "/".join(map(str, r.placements)),
                  str(r.hands), f"{r.win_rate:.1%}", f"{r.deal_in_rate:.1%}", f"{r.riichi_rate:.1%}",
                  f"{r.call_rate:.1%}", f"{r.draw_rate:.1%}", avg(r.average_win, ",.0f"),
                  avg(r.average_deal_in, ",.0f"), f"{r.kita_per_game:.2f}")
    console = Console(markup=False)  # player names are never markup (issue 14 item 11)
    if not console.is_terminal:  # piped: as wide as the table needs, not rich's default of 80
        console = Console(width=max(console.width, 140 + max(len(r.name) for r in rows)), markup=False)
    console.print(t)
    if chart is not None:
        console.print(tr("chart: {path}", path=str(chart)))


def register(app: typer.Typer) -> None:
    app.command(name="stats")(stats)
