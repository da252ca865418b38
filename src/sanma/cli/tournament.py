"""``sanma tournament ...``: many tables of three over several rounds (docs/KEEPER.md, "A tournament").

Every command takes ``--db PATH`` and ``--json``; a refused command exits 2 with a message and
changes nothing. Each table of a seated round is a score keeper session: ``sanma table … SESSION``
keeps it hand by hand, ``sanma tournament result`` enters its final scores.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..i18n import sentence, tr
from .common import RULES_HELP, cli_errors
from .table import Author, Db, FinalBust, FinalBustBy, FinalChombo, FinalSticks, Preview, final_entry

if TYPE_CHECKING:
    from ..keeper.tournament import Tournaments

tournament_app = typer.Typer(
    name="tournament",
    help="A tournament: players, rounds of three-player tables (byes when the count is not a multiple of "
         "three), seating (swiss, random or the referee's), each table a kept session, standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")


Id = Annotated[int, typer.Argument(help="The tournament id.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the answer as one JSON object.")]
RoundNo = Annotated[int, typer.Option("--round", help="The round (1-based).")]


@contextmanager
def _tournaments(db: str | None) -> Iterator[Tournaments]:
    from ..keeper.tournament import Tournaments
    from ..store import open_db

    store = open_db(db)
    try:
        yield Tournaments(store)
    finally:
        store.close()


def _run(db: str | None, as_json: bool, action: Callable[[Tournaments], dict[str, Any]],
         text: Callable[[dict[str, Any]], str]) -> None:
    with cli_errors(), _tournaments(db) as t:
        out = action(t)
    typer.echo(json.dumps(out, ensure_ascii=False) if as_json else text(out))


def _read(path: Path, what: str) -> str:
    from ..keeper.entries import KeeperError

    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise KeeperError(sentence("{path}: cannot read the {what}: {error}", path=str(path), what=what,
                                   error=str(e))) from None


@tournament_app.command("new")
def new_cmd(
    rules: Annotated[str, typer.Option(help=RULES_HELP)],
    rounds: Annotated[int, typer.Option(help="How many rounds.")],
    players: Annotated[str | None, typer.Option(help="The players, comma-separated: A,B,C,...")] = None,
    players_csv: Annotated[Path | None, typer.Option("--players-csv", help="A CSV whose first column names the "
                                                      "players (a header 'player' is skipped).")] = None,
    seating: Annotated[str, typer.Option(help="swiss (round 1 drawn, then by standings), random (every round "
                                              "drawn) or fixed FILE (the referee's CSV: round,table,seat1,seat2,"
                                              "seat3).")] = "swiss",
    file: Annotated[Path | None, typer.Argument(help="With --seating fixed: the referee's seating CSV.")] = None,
    seed: Annotated[int | None, typer.Option(help="The draw's seed (published; drawn when not given).")] = None,
    name: Annotated[str, typer.Option(help="The tournament's name.")] = "",
    round_minutes: Annotated[int | None, typer.Option("--round-minutes", help="The round clock, in minutes.")] = None,
    clock_end: Annotated[str, typer.Option("--clock-end", help="When the clock runs out: last_hand (the hand in "
                                                               "play is each table's last) or referee (the "
                                                               "referee decides).")] = "last_hand",
    db: Db = None, as_json: AsJson = False,
) -> None:
    """Start a tournament. Example: sanma tournament new --rules official --players-csv players.csv --rounds 4"""
    from ..keeper.entries import KeeperError
    from ..keeper.tournament import read_players_csv, read_seating_csv
    from .common import load_rules

    def act(t: Tournaments) -> dict[str, Any]:
        if (players is None) == (players_csv is None):
            raise KeeperError(sentence("give the players: --players A,B,C,... or --players-csv FILE"))
        names = ([x.strip() for x in players.split(",") if x.strip()] if players is not None
                 else read_players_csv(_read(players_csv, tr("players CSV"))) if players_csv is not None else [])
        fixed = None
        if seating == "fixed":
            if file is None:
                raise KeeperError(sentence("--seating fixed takes the referee's CSV: --seating fixed FILE"))
            fixed = read_seating_csv(_read(file, tr("seating CSV")))
        elif file is not None:
            raise KeeperError(sentence("{file}: a seating file goes with --seating fixed", file=str(file)))
        out = t.new(load_rules(rules), names, rounds, seating=seating, seed=seed, fixed=fixed, name=name,
                    round_minutes=round_minutes, clock_end=clock_end)
        return {**out, "links": _issue_links(t, out["tournament"])}

    _run(db, as_json, act, lambda o: tr("tournament {id}: {n} players, {rounds} rounds, {seating} seating, seed {seed} "
                                        "({rules})", id=o["tournament"], n=len(o["players"]), rounds=o["rounds"],
                                        seating=o["seating"], seed=o["seed"], rules=o["rules"])
         + "\n" + _links_text(o["links"]))


def _issue_links(t: Tournaments, tid: int) -> dict[str, Any]:
    """New links for the tournament's pages in `sanma serve` (the ones given before stop working)."""
    from ..store.tournaments import tournament
    from ..web.tournament import issue_links

    return issue_links(t.store, tid, tournament(t.store, tid).players)


def _links_text(links: dict[str, Any]) -> str:
    roles = {"organiser": tr("organiser"), "referee": tr("referee"), "read": tr("read")}
    lines = [f"{word:<10} {links[role]}" for role, word in roles.items()]
    lines += [tr("scorer {n} {path}", n=f"{n:<3}", path=path) for n, path in links["scorers"].items()]
    lines.append(tr("(paths on the server: http://HOST:PORT/...; keep the organiser's and the referee's links to "
                    "yourselves, give each table its scorer's, show the read link to all)"))
    return "\n".join(lines)


@tournament_app.command("links")
def links_cmd(tournament: Id, db: Db = None, as_json: AsJson = False) -> None:
    """New links to the tournament's pages in `sanma serve`: the organiser's and the referee's (seat,
    clock, correct any table), a read-only one (the standings) and a scorer's per table (keeps that
    table only). The links it gave before stop working (only their hashes are kept)."""
    _run(db, as_json, lambda t: {"tournament": tournament, "links": _issue_links(t, tournament)},
         lambda o: _links_text(o["links"]))


def _round_text(o: dict[str, Any]) -> str:
    lines = [tr("round {round}:", round=o["round"])]
    for table in o["tables"]:
        lines.append("  " + tr("table {table}: {seats} (E, S, W) — session {session}", table=table["table"],
                               seats=", ".join(table["seats"]), session=table["session"]))
    if o["byes"]:
        lines.append("  " + tr("bye: {who}", who=", ".join(o["byes"])))
    return "\n".join(lines)


@tournament_app.command("seat")
def seat_cmd(tournament: Id, round_: RoundNo, db: Db = None, as_json: AsJson = False) -> None:
    """Seat a round (or show it): its tables (each a kept session) and byes."""
    _run(db, as_json, lambda t: t.seat(tournament, round_), _round_text)


@tournament_app.command("result")
def result_cmd(
    tournament: Id, round_: RoundNo,
    table: Annotated[int, typer.Option(help="The table.")],
    scores: Annotated[str, typer.Option(help="Final scores on the table, e.g. A=52000,B=48000,C=20000.")],
    chips: Annotated[str | None, typer.Option(help="Chips won, e.g. A=3,B=-3.")] = None,
    sticks: FinalSticks = 0, chombo: FinalChombo = None, bust: FinalBust = None, bust_by: FinalBustBy = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", preview: Preview = False,
) -> None:
    """Enter a table's result by its final scores (when it was not kept hand by hand)."""
    def act(t: Tournaments) -> dict[str, Any]:
        return t.result(tournament, round_, table, final_entry(scores, chips, sticks, chombo, bust, bust_by),
                        author=author, preview=preview)

    def text(o: dict[str, Any]) -> str:
        g = o["game"]
        head = tr("round {round} table {table} (session {session})", round=o["round"], table=o["table"],
                  session=o["session"])
        if o["preview"]:
            head = tr("{head} — preview, nothing saved", head=head)
        if g is None:
            return head
        from ..keeper.keeper import render_settlement

        return head + "\n" + "\n".join(render_settlement(g, o["notation"]))

    _run(db, as_json, act, text)


@tournament_app.command("standings")
def standings_cmd(
    tournament: Id,
    after_round: Annotated[int | None, typer.Option("--after-round", help="Only rounds 1 to N.")] = None,
    db: Db = None, as_json: AsJson = False,
) -> None:
    """Per player: rank, points, games, places; and the pairs who met more than once."""
    from ..keeper.tournament import render_tournament_standings

    _run(db, as_json, lambda t: t.standings(tournament, after_round), render_tournament_standings)


@tournament_app.command("show")
def show_cmd(tournament: Id, db: Db = None, as_json: AsJson = False) -> None:
    """Every seated round: its tables (seats, session, result or the hand in play), byes; the clock; standings."""
    from ..keeper.tournament import render_tournament_standings

    def text(o: dict[str, Any]) -> str:
        lines = [tr("tournament {id} — {name} — {rules} — {n} players, {rounds} rounds, {seating} seating, seed {seed}",
                    id=o["tournament"], name=o["name"], rules=o["rules"], n=len(o["players"]), rounds=o["rounds"],
                    seating=o["seating"], seed=o["seed"])]
        for r in o["seated"]:
            lines.append(tr("round {round}:", round=r["round"]))
            for tb in r["tables"]:
                state = ("  ".join(f"{p} {tb['scores'][p]:,} ({tb['ranks'][p]})" for p in tb["seats"])
                         if tb["finished"] else tr("in play ({n} entries)", n=tb["entries"]))
                lines.append("  " + tr("table {table} (session {session}): {state}", table=tb["table"],
                                       session=tb["session"], state=state))
            if r["byes"]:
                lines.append("  " + tr("bye: {who}", who=", ".join(r["byes"])))
        return "\n".join(lines) + "\n" + render_tournament_standings(o)

    _run(db, as_json, lambda t: t.state(tournament), text)


@tournament_app.command("export")
def export_cmd(tournament: Id, csv: Annotated[bool, typer.Option("--csv", help="The results sheet as CSV.")] = False,
               db: Db = None) -> None:
    """The results: JSON (every round, table, game and the standings) or CSV (one row per seat and bye)."""
    with cli_errors(), _tournaments(db) as t:
        text = t.export_csv(tournament) if csv else json.dumps(t.state(tournament), ensure_ascii=False, indent=1)
    typer.echo(text, nl=not text.endswith("\n"))


@tournament_app.command("clock")
def clock_cmd(
    tournament: Id, round_: RoundNo,
    start: Annotated[bool, typer.Option("--start", help="Start the round's clock now.")] = False,
    time_up: Annotated[bool, typer.Option("--time-up", help="The referee ends play: the hand in play is the "
                                                            "last (at --table T, or at every table).")] = False,
    table: Annotated[int | None, typer.Option(help="With --time-up: one table.")] = None,
    db: Db = None, as_json: AsJson = False, author: Author = "",
) -> None:
    """A round's clock: start it, see what is left, or end play (the hand in play is the last)."""
    from ..keeper.entries import KeeperError

    def act(t: Tournaments) -> dict[str, Any]:
        if start and time_up:
            raise KeeperError(sentence("give --start or --time-up, not both"))
        if table is not None and not time_up:
            raise KeeperError(sentence("--table goes with --time-up"))
        if start:
            return t.start(tournament, round_)
        if time_up:
            return t.time_up(tournament, round_, table, author=author)
        t.tick(tournament)
        return t.clock_json(tournament, round_)

    def text(o: dict[str, Any]) -> str:
        if "tables" in o:
            return (tr("round {round}: time is up at table {tables}: the hand in play is the last", round=o["round"],
                       tables=", ".join(map(str, o["tables"]))) if o["tables"] else
                    tr("round {round}: every table is over or told already", round=o["round"]))
        if o["started_at"] is None:
            return (tr("round {round}: the clock has not started", round=o["round"]) if o["minutes"] else
                    tr("round {round}: the clock has not started (no round clock)", round=o["round"]))
        left = o["remaining_seconds"]
        when = tr("time is up") if o["over"] else tr("{left} left", left=f"{left // 60}:{left % 60:02d}")
        how = tr("the hand in play is the last") if o["end"] == "last_hand" else tr("the referee decides")
        return tr("round {round}: started {started}, ends {ends}: {when} ({how})", round=o["round"],
                  started=o["started_at"], ends=o["ends_at"], when=when, how=how)

    _run(db, as_json, act, text)
