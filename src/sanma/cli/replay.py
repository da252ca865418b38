"""``sanma replay FILE... [--rules NAME] --check [--json] [--db PATH]``: replay records through the engine."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import RecordError
from ..fileio import read_regular
from ..formats.guard import MAX_BYTES
from ..i18n import tr
from ..i18n.messages import sentence
from ..replay import ReplayReport, replay_record
from .common import DB_WHERE, RULES_HELP, cli_errors, load_rules

if TYPE_CHECKING:
    from ..formats.record import GameRecord
    from ..rules import Rules
    from ..store import Store

#: the file names ``replay DIR`` reads in a folder (Tenhou mjlog XML, tenhou.net/6 / majiang JSON, mjai JSONL)
RECORD_SUFFIXES = (".xml", ".mjlog", ".json", ".jsonl", ".mjson")


def record_files(paths: list[Path]) -> list[Path]:
    """Files as given; a folder gives its record files (by suffix, sorted, not recursive)."""
    out: list[Path] = []
    for p in paths:
        try:
            if p.is_dir():
                found = sorted(f for f in p.iterdir() if f.suffix.lower() in RECORD_SUFFIXES and f.is_file()
                               and not f.name.startswith("."))
                if not found:
                    raise RecordError(sentence("{p}: a folder with no record files ({items})",
                                               p=p, items=', '.join(RECORD_SUFFIXES)))
                out += found
            elif p.is_file():
                out.append(p)
            else:
                raise RecordError(sentence("{p}: no such file or folder", p=p))
        except OSError as e:  # e.g. a folder on the way that may not be entered: said, not a traceback
            raise RecordError(sentence("{p}: cannot be read: {error}", p=p, error=e.strerror or str(e))) from None
    return out


def read_records(files: list[Path]) -> list[GameRecord]:
    """Each file read once; a file that is not a record at all is an error, not a mismatch."""
    from ..formats import read_record

    records = []
    for f in files:
        rec = read_record(f)
        if rec.errors and not rec.kyoku:
            raise RecordError(sentence("{f}: not a readable record: {errors}", f=f, errors=rec.errors[0]))
        records.append(rec)
    return records


def replay(
    files: Annotated[list[Path] | None, typer.Argument(help="Tenhou mjlog XML, tenhou.net/6 JSON, majiang JSON "
                                                            "or mjai JSONL records, or folders of them.")] = None,
    rules: Annotated[str | None, typer.Option(help=RULES_HELP + " Default: tenhou for Tenhou records, "
                                                   "majsoul for Mahjong Soul ones.")] = None,
    check: Annotated[bool, typer.Option("--check", help="Exit 1 unless every action is legal and every "
                                                        "result equals the record.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object: games, kyoku, matched, "
                                                         "mismatches (and per-file details).")] = False,
    db: Annotated[str | None, typer.Option("--db", help=f"A database ({DB_WHERE}): the files that replay clean are "
                                                          "stored there (once each; a record with a mismatch "
                                                          "is reported and not stored); with no files, "
                                                          "every stored record is replayed without re-reading "
                                                          "files.")] = None,
) -> None:
    """Replay every action of each record through the engine and compare every hand's result.

    Each action must be legal in the engine; each hand's han, fu, yaku, payments, honba, riichi
    sticks and kita, each next hand's start, and the final scores and points must equal the
    record. Mismatches are listed hand by hand with the record's and the engine's values.
    """
    with cli_errors():
        files = record_files(files or [])
        if not files and db is None:
            raise RecordError(sentence("give record files to replay, or --db PATH to replay the stored "
                                       "records"))
        rule_set = load_rules(rules) if rules else None
        records = read_records(files)
        if db is None:
            report = ReplayReport([replay_record(r, rule_set) for r in records])
        else:
            from ..store import open_db

            with open_db(db) as store:
                if files:
                    report, refused = _replay_and_store(store, files, rule_set)
                    for source in refused:
                        print(tr("not stored: {source}: it does not replay clean", source=source), file=sys.stderr)
                else:
                    report = ReplayReport()
                    for row in store.records():
                        report.replays.append(replay_record(store.load_record(row.id), rule_set))
    if as_json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        _print(report)
    if check and not report.ok:
        raise typer.Exit(1)


def _replay_and_store(store: Store, files: list[Path], rules: Rules | None) -> tuple[ReplayReport, list[str]]:
    """Replay each file and store those that replay clean, from the very bytes replayed, in one
    transaction (a file that is not a record stores nothing); the report and the files refused."""
    from ..store import file_checksum, parse_record

    loaded = [(os.fspath(f), read_regular(f, MAX_BYTES, sentence("the record"), RecordError)) for f in files]
    records = [parse_record(data, source) for source, data in loaded]
    report = ReplayReport([replay_record(r, rules) for r in records])
    refused: list[str] = []
    with store.transaction():
        for (source, data), record, replayed in zip(loaded, records, report.replays, strict=True):
            if replayed.ok or record.errors:  # errors: save_record refuses it, and with it the whole run
                store.save_record(record, source, file_checksum(data), content=data)
            else:
                refused.append(source)
    return report, refused


def _print(report: ReplayReport) -> None:
    for r in report.replays:
        status = tr("ok") if r.ok else tr("MISMATCH")
        typer.echo(f"{status:8} " + tr("{source}: {matched}/{kyoku} kyoku match (rules {rules})", source=r.source,
                                        matched=r.matched, kyoku=r.kyoku, rules=r.rules))
        for note in r.notes:
            typer.echo("         " + tr("note: {note}", note=note))
        for m in r.mismatches:
            if m.problem is not None:  # what the record's reader found, in the command's words
                typer.echo("         " + tr("record: {problem}", problem=m.problem))
                continue
            typer.echo("         " + m.words().text())
    typer.echo(tr("{games} game(s), {kyoku} kyoku, {matched} matched, {mismatches} mismatch(es)", games=report.games,
                  kyoku=report.kyoku, matched=report.matched, mismatches=len(report.mismatches)))


def register(app: typer.Typer) -> None:
    app.command(name="replay")(replay)
