"""``sanma review RECORD|--db PATH GAME [--seat N|NAME] [--rules NAME|FILE] [--json|--html FILE]``:
every decision of one seat of a game beside its options' chances and expected points."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import RecordError, SanmaError
from ..i18n import tr
from ..i18n.messages import sentence
from .common import DB_WHERE, RULES_HELP, cli_errors, load_rules

if TYPE_CHECKING:
    from ..formats import GameRecord
    from ..review import Review
    from ..rules import Rules


class ReviewError(SanmaError):
    """A review that cannot be made (no such game or seat, a record with no hand)."""


def review(
    target: Annotated[str, typer.Argument(
        metavar="RECORD|GAME",
        help="A record (Tenhou mjlog XML, tenhou.net/6 or Mahjong Soul JSON, majiang JSON, mjai JSONL), or "
             "with --db a game: its id (sanma stats --json lists them), a served table's id, or "
             "sim:ID:INDEX (game INDEX of stored simulation ID, played again from its seed).")],
    db: Annotated[str | None, typer.Option("--db", help=f"A sanma database ({DB_WHERE}): GAME is a game in it.")]
    = None,
    seat: Annotated[str | None, typer.Option("--seat", help="The seat to review: 0, 1, 2 (0 deals first) or "
                                                             "a player's name. Default: the seat named 'You', "
                                                             "else 0.")] = None,
    rules: Annotated[str | None, typer.Option(help=RULES_HELP + " Default: the record's own rules.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as one JSON object.")] = False,
    html: Annotated[Path | None, typer.Option("--html", metavar="FILE", help="Write the review as a web page.")]
    = None,
    depth: Annotated[int, typer.Option("--depth", min=0, max=1000,
                                       help="0: the value model (default, fast); N: also N rollouts per option "
                                            "with the engine and the bots (slow).")] = 0,
    chip_points: Annotated[int | None, typer.Option("--chip-points", min=0,
                                                    help="Points one chip is worth (default: the rules' "
                                                         "chip_points, else 2,000).")] = None,
) -> None:
    """Review every decision of one seat: each option's win and deal-in chance, its value if it wins,
    expected points and expected placement points, and the regret of what was played.

    Examples:

        sanma review game.xml --seat 1

        sanma review game.json --seat Alice --json

        sanma review --db sanma.sqlite 12 --html review.html
    """
    from ..review import review_record

    with cli_errors():
        rule_set = load_rules(rules) if rules else None
        record, stored_rules = _record(target, db)
        if rule_set is None:
            rule_set = stored_rules
        seat_no = _seat(record, seat)
        result = review_record(record, seat_no, rule_set, depth=depth, chip_points=chip_points)
        if not result.hands:
            raise ReviewError(sentence("{target}: the record has no hand to review", target=target))
        if html is not None:
            from ..review.html import write_html

            write_html(result, html)
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
    elif html is None:
        _print(result)
    else:
        typer.echo(tr("wrote {path}", path=str(html)))


def _record(target: str, db: str | None) -> tuple[GameRecord, Rules | None]:
    if db is None:
        from ..formats import read_record

        path = Path(target)
        if not path.is_file():
            raise RecordError(sentence("{p}: no such file or folder", p=target))
        rec = read_record(path)
        if rec.errors and not rec.kyoku:
            raise RecordError(sentence("{f}: not a readable record: {errors}", f=target, errors=rec.errors[0]))
        return rec, None
    from ..store import display, is_url, open_db

    if not is_url(db) and not Path(db).exists():  # only reading: a missing file is an error, not a new database
        raise ReviewError(sentence("{db}: no such database", db=db))

    with open_db(db) as store:
        if target.startswith("sim:"):
            return _simulated(store, target)
        events, rules = store.stored_game(target)
    from ..formats.mjai import read_mjai

    text = "\n".join(json.dumps(e, ensure_ascii=False) for e in events)
    return read_mjai(text, strict=False, source=f"{display(db)}#{target}"), rules


def _simulated(store: object, target: str) -> tuple[GameRecord, Rules | None]:
    """Game INDEX of stored simulation ID, played again from its seed (``sim:ID:INDEX``)."""
    from ..formats.mjai import read_mjai, write_mjai
    from ..rules.loader import from_dict
    from ..sim.arena import play_game_events
    from ..store import Store

    assert isinstance(store, Store)
    parts = target.split(":")
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        raise ReviewError(sentence("{target!r}: a stored simulation's game is sim:ID:INDEX, e.g. sim:1:0",
                                   target=target))
    sim_id, index = int(parts[1]), int(parts[2])
    row = next((s for s in store.simulations() if s.id == sim_id), None)
    if row is None:
        raise ReviewError(sentence("{db}: no simulation {id}", db=store.path, id=sim_id))
    if index >= row.games:
        raise ReviewError(sentence("simulation {id} has {n} games (0..{last}), not {index}", id=sim_id, n=row.games,
                                   last=row.games - 1, index=index))
    if any(b.startswith("mjai:") for b in row.bots):
        raise ReviewError(sentence("simulation {id} seated an external bot: its games cannot be played again",
                                   id=sim_id))
    rules = from_dict(row.rules, f"simulation {sim_id}", name=row.rules_name)
    game = play_game_events(rules, row.bots, row.seed, index)
    return read_mjai(write_mjai(game), strict=False, source=f"{store.path}#{target}"), rules


def _seat(record: GameRecord, seat: str | None) -> int:
    names = list(record.players)
    if seat is None:
        return names.index("You") if "You" in names else 0
    if seat.strip() in ("0", "1", "2"):
        return int(seat)
    if seat in names:
        return names.index(seat)
    shown = ", ".join(f"{i} {n!r}" for i, n in enumerate(names)) or tr("none named")
    raise ReviewError(sentence("no seat {seat!r} in this game: seats are 0, 1, 2 ({seats})", seat=seat, seats=shown))


def _print(r: Review) -> None:
    from ..i18n import current_lang
    from ..review.report import category_words, kyoku_words

    s = r.summary()
    names = list(r.players) or ["seat 0", "seat 1", "seat 2"]
    who = names[r.seat] if r.seat < len(names) else tr("seat {seat}", seat=r.seat)
    typer.echo(tr("Review of seat {seat} ({who}), rules {rules}: {n} decisions, agreement {agreement:.0f}%, "
                  "regret {regret:.2f} placement points ({points:,} points)", seat=r.seat, who=who, rules=r.rules,
                  n=s["decisions"], agreement=100 * s["agreement"], regret=s["regret_placement"],
                  points=s["regret_points"]))
    typer.echo(tr("model: {model}", model=r.model))
    for d in r.decisions:
        if d.regret >= 0.05:
            typer.echo("  " + tr("{kyoku}, step {step} [{category}] regret {regret:.2f}: {why}",
                                 kyoku=kyoku_words(d.kyoku, current_lang()), step=d.decision.step,
                                 category=category_words(d.category),
                                 regret=d.regret, why=d.why))
    by = s["by_category"]
    if by:
        parts = [tr("{category} {n} decisions, regret {regret:.2f}", category=category_words(c), n=v["decisions"],
                    regret=v["regret_placement"]) for c, v in by.items()]
        typer.echo(tr("by category: {categories}", categories="; ".join(parts)))
    for e in r.errors:
        typer.echo(tr("note: the replay of the record: {problem}", problem=e), err=True)


def register(app: typer.Typer) -> None:
    app.command(name="review")(review)
