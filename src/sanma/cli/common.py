"""Shared CLI helpers: rule selection and error reporting."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click
import typer
from typer.core import TyperGroup

from ..errors import NotAWinError, SanmaError
from ..i18n import LANGS, choose_lang, describe, set_lang, tr
from ..rules import Rules

if TYPE_CHECKING:
    from ..formats import GameRecord

RULES_HELP = "Preset name (club, online, official, kansai, tenhou, majsoul) or a TOML rule file."


def load_rules(spec: str) -> Rules:
    """A preset by name, or a rule file by path (anything ending in .toml or that exists)."""
    if spec.endswith(".toml") or Path(spec).exists():
        return Rules.load(spec)
    return Rules.preset(spec)


def replay_problem(record: GameRecord, rules: Rules | None = None) -> str | None:
    """Why ``record`` must not enter a database: it does not replay clean through the engine
    (an illegal action or a result that differs: a tampered or broken record); None when it does."""
    from ..replay import replay_record

    r = replay_record(record, rules)
    if r.ok:
        return None
    first = r.mismatches[0] if r.mismatches else None
    detail = (f"; first: {first.kyoku}: {first.what}: record {first.expected!r}, engine {first.got!r}"
              if first is not None else "")
    return (f"it does not replay clean through the engine ({len(r.mismatches)} mismatch"
            f"{'' if len(r.mismatches) == 1 else 'es'}{detail}); see sanma replay FILE --check")


@contextmanager
def cli_errors() -> Iterator[None]:
    """Print sanma errors as one line on stderr, in the command's language: exit 1 for 'not a
    win', 2 for bad input."""
    try:
        yield
    except NotAWinError as e:
        print(tr("not a win: {reason}", reason=describe(e)), file=sys.stderr)
        raise typer.Exit(1) from None
    except SanmaError as e:
        print(tr("error: {message}", message=describe(e)), file=sys.stderr)
        raise typer.Exit(2) from None
    except sqlite3.DatabaseError as e:  # damage found while reading a database that opened (sanma.store)
        print(tr("error: the database is damaged or not a sanma database: {detail}", detail=str(e)),
              file=sys.stderr)
        raise typer.Exit(2) from None


# --- the language of a command (issue 24): --lang ja|en, else SANMA_LANG, else LANG ----------------------

LANG_HELP = "Language of what the command says: ja or en (default: SANMA_LANG, then LANG)."


def use_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Set the command's language as the command line is read (eager: before anything is said)."""
    set_lang(choose_lang(value))
    return value


def lang_option() -> click.Option:
    return click.Option(["--lang"], type=click.Choice(LANGS), default=None, expose_value=False, is_eager=True,
                        callback=use_lang, help=LANG_HELP)


def with_lang(command: click.Command) -> click.Command:
    """``command`` and every command under it take ``--lang`` (once)."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            with_lang(sub)
    elif not any(p.name == "lang" for p in command.params):
        command.params.append(lang_option())
    return command


class LangGroup(TyperGroup):
    """The ``sanma`` group: every sub-command it hands out takes ``--lang`` after its name
    (``sanma score ... --lang ja``), whichever module registered it."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        return None if command is None else with_lang(command)
