"""Shared CLI helpers: rule selection and error reporting."""

from __future__ import annotations

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
#: What every --db accepts (sanma.store.open_db).
DB_WHERE = "a SQLite file or a postgresql://USER@HOST:PORT/DB URL"


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
    except SanmaError as e:  # a database's failure too (sanma.store.DatabaseError: damage found while reading)
        print(tr("error: {message}", message=describe(e)), file=sys.stderr)
        raise typer.Exit(2) from None


# --- the language of a command (issue 24): --lang ja|en, else SANMA_LANG, else LANG ----------------------

LANG_HELP = "Language of what the command says: ja or en (default: SANMA_LANG, then LANG)."


def use_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Set the command's language as the command line is read (eager: before anything is said),
    click's and Typer's own refusals included (cli/usage.py)."""
    from .usage import install

    if value is None and "sanma_lang" in ctx.find_root().meta:
        return value  # the root group found the command line's --lang already (LangGroup.parse_args)
    set_lang(choose_lang(value))
    install()
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


def lang_in(args: list[str]) -> str | None:
    """The ``--lang X`` (or ``--lang=X``) anywhere on a command line, or None."""
    for i, a in enumerate(args):
        if a == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--lang="):
            return a.partition("=")[2]
        if a == "--":
            break
    return None


class LangGroup(TyperGroup):
    """The ``sanma`` group: every sub-command it hands out takes ``--lang`` after its name
    (``sanma score ... --lang ja``), whichever module registered it, and speaks that language from
    the start — its help and the option parser's own refusals included (cli/usage.py)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from .usage import install, localize

        lang = lang_in(args)
        set_lang(choose_lang(lang))  # before click reads anything it may refuse
        install()
        localize(self)
        if lang is not None:
            ctx.meta["sanma_lang"] = lang
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from .usage import localize

        command = super().get_command(ctx, cmd_name)
        return None if command is None else localize(with_lang(command))
