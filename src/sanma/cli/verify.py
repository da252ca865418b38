"""``sanma verify FILE | --db PATH ID``: re-deal every wall of a finished game from its published
seed and check every deal, draw and indicator (the fairness check of the browser table).

``FILE`` is the game's mjai record (``GET /api/tables/ID/record?format=mjai``: its ``start_game``
carries the seed once the game is over, and the wall key of a table where an external mjai bot
sat); ``--db PATH ID`` reads a served table from the database.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import SanmaError
from ..i18n import tr
from ..i18n.messages import Keyword, Message, Said, sentence
from ..rules import Rules
from .common import DB_WHERE, RULES_HELP, cli_errors, load_rules


class VerifyError(SanmaError):
    """A record that cannot be checked (no seed, not a record, unknown table)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    hands: int
    draws: int
    problems: tuple[str, ...]  # each a Said: its English, and its words in the command's language

    @property
    def ok(self) -> bool:
        return not self.problems


def _same(name: Any, tile: Any) -> bool:
    return isinstance(name, str) and name in (tile.mjai, str(tile))


def verify_events(events: Sequence[dict[str, Any]], rules: Rules, seed: str,
                  wall_key: bytes | None = None) -> Verdict:
    """Re-deal each hand's wall from ``seed`` (keyed by ``wall_key`` when the table had one) and
    compare the deal, every draw (replacements too), every dora indicator and the ura indicators
    with what the events say happened."""
    from ..game.wall import hand_wall

    problems: list[str] = []

    def problem(message: Message) -> None:
        problems.append(Said(message))

    hands = draws = 0
    wall = None
    where = sentence("before the first hand")
    for e in events:
        t = e.get("type")
        try:
            if t == "start_kyoku":
                wall = hand_wall(rules, seed, hands, wall_key)
                hands += 1
                where = sentence("hand {n} ({wind}{kyoku}, {honba} honba)", n=hands,
                                 wind=Keyword("wind", str(e.get("bakaze"))), kyoku=e.get("kyoku"), honba=e.get("honba"))
                for i, tiles in enumerate(wall.haipai):
                    seat = (int(e["oya"]) + i) % len(wall.haipai)
                    dealt = sorted(e["tehais"][seat])
                    if dealt != sorted(x.mjai if not x.is_flower else str(x) for x in tiles):
                        problem(sentence("{where}: seat {seat}'s deal is not the wall's", where=where, seat=seat))
                markers = e.get("dora_markers", [e.get("dora_marker")])
                if [x.mjai for x in wall.dora_indicators] != markers:
                    problem(sentence("{where}: dora indicator(s) {markers} are not the wall's", where=where,
                                     markers=markers))
            elif wall is None:
                continue
            elif t == "tsumo":
                tile = wall.draw_replacement() if e.get("rinshan") else wall.draw()
                draws += 1
                if not _same(e.get("pai"), tile):
                    problem(sentence("{where}: seat {seat} drew {tile}, the wall gives {wall}", where=where,
                                     seat=e.get("actor"), tile=e.get("pai"), wall=str(tile)))
            elif t == "dora":
                tile = wall.reveal_kan_dora()
                if not _same(e.get("dora_marker"), tile):
                    problem(sentence("{where}: kan dora indicator {marker}, the wall gives {wall}", where=where,
                                     marker=e.get("dora_marker"), wall=str(tile)))
            elif t == "hora" and e.get("uradora_markers"):
                ura = [x.mjai for x in wall.ura_indicators][:len(e["uradora_markers"])]
                if ura != e["uradora_markers"]:
                    problem(sentence("{where}: ura indicators {markers}, the wall gives {wall}", where=where,
                                     markers=e["uradora_markers"], wall=ura))
        except (SanmaError, LookupError, TypeError, ValueError) as err:
            problem(sentence("{where}: {type} event does not fit the wall: {error}", where=where, type=t,
                             error=err if isinstance(err, SanmaError) else str(err)))
        if len(problems) > 50:
            problem(sentence("... (stopped after 50 problems)"))
            break
    if not hands:
        raise VerifyError(sentence("no hand (start_kyoku) in the record"))
    return Verdict(hands, draws, tuple(problems))


def _key(value: Any, where: str) -> bytes | None:
    """A published wall key (64 hex digits), or None for a table without one."""
    if value is None:
        return None
    try:
        key = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        key = b""
    if len(key) != 32:
        raise VerifyError(sentence("{where}: the wall key must be 64 hex digits, not {value!r}",
                                   where=where, value=str(value)[:80]))
    return key


Source = tuple[list[dict[str, Any]], Rules, str, bytes | None]


def _read_file(path: Path, rules_spec: str | None) -> Source:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise VerifyError(sentence("{path}: cannot read: {error}", path=path, error=e)) from None
    events: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            raise VerifyError(sentence("{path}:{n}: not an mjai JSON line", path=path, n=n)) from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise VerifyError(sentence("{path}:{n}: an mjai event is a JSON object with a type",
                                       path=path, n=n))
        events.append(event)
    if not events or events[0]["type"] != "start_game":
        raise VerifyError(sentence("{path}: an mjai record starts with start_game", path=path))
    seed = events[0].get("seed")
    if not isinstance(seed, str | int) or isinstance(seed, bool):
        raise VerifyError(sentence("{path}: start_game carries no seed (the server publishes it after the "
                                   "game)", path=path))
    rules = load_rules(rules_spec) if rules_spec else Rules.preset(str(events[0].get("rules", "")))
    return events, rules, str(seed), _key(events[0].get("wall_key"), f"{path}: start_game")


def _read_db(db: str, table_id: str) -> Source:
    from ..rules.loader import from_dict
    from ..store import is_url, open_db
    from ..store import tables as stored

    if not is_url(db) and not Path(db).exists():
        raise VerifyError(sentence("{db}: no such database", db=db))
    with open_db(db) as store:
        row = stored.table(store, table_id)
        if row is None:
            raise VerifyError(sentence("{db}: no served table {table_id!r}", db=db, table_id=table_id))
        if not row.finished:
            raise VerifyError(sentence("table {table_id!r} is still being played: its seed is published "
                                       "after the game", table_id=table_id))
        events = stored.events(store, table_id)
    return (events, from_dict(row.rules, f"table {table_id}", name=row.rules_name), row.seed,
            _key(row.wall_key, f"table {table_id}"))


def verify(
    target: Annotated[str, typer.Argument(
        metavar="FILE|ID", help="The finished game's mjai record (JSONL, with its seed), or with --db a table ID.")],
    db: Annotated[str | None, typer.Option("--db", help=f"A sanma serve database ({DB_WHERE}): TARGET is a table "
                                                       "ID in it.")]
    = None,
    rules: Annotated[str | None, typer.Option("--rules", help=RULES_HELP + " Default: the record's.")] = None,
) -> None:
    """Check a served game is fair: every wall re-dealt from the published seed, every draw compared.

    Exit 0 when every deal, draw and indicator is the wall's, 1 when one is not, 2 on bad input.

    Examples:

        sanma verify game.mjson

        sanma verify --db sanma.sqlite fG3k9aQ2
    """
    with cli_errors():
        if db is not None:
            events, ruleset, seed, key = _read_db(db, target)
        else:
            events, ruleset, seed, key = _read_file(Path(target), rules)
        verdict = verify_events(events, ruleset, seed, key)
    for p in verdict.problems:
        typer.echo(p.message.text() if isinstance(p, Said) else p, err=True)  # in the command's words
    status = tr("OK") if verdict.ok else tr("MISMATCH")
    keyed = (" " + tr("keyed by wall key {key} (SHA-256 {digest})", key=key.hex(),
                      digest=hashlib.sha256(key.hex().encode()).hexdigest()) if key is not None else "")
    typer.echo(tr("{status}: {hands} hands, {draws} draws checked against the walls of seed {seed!r} (SHA-256 "
                  "{digest}){keyed}", status=status, hands=verdict.hands, draws=verdict.draws, seed=seed,
                  digest=hashlib.sha256(seed.encode()).hexdigest(), keyed=keyed))
    if not verdict.ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command(name="verify")(verify)
