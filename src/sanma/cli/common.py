"""Shared CLI helpers: rule selection and error reporting."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer

from ..errors import NotAWinError, SanmaError
from ..rules import Rules

RULES_HELP = "Preset name (club, online, official, kansai, tenhou, majsoul) or a TOML rule file."


def load_rules(spec: str) -> Rules:
    """A preset by name, or a rule file by path (anything ending in .toml or that exists)."""
    if spec.endswith(".toml") or Path(spec).exists():
        return Rules.load(spec)
    return Rules.preset(spec)


def check_bot(name: str) -> None:
    """Refuse an unknown bot name before a game starts, with the closest names (did you mean)."""
    from ..bots import BOTS, MJAI_PREFIX, UnknownBotError

    if name.startswith(MJAI_PREFIX) or name in BOTS:
        return
    close = difflib.get_close_matches(name.lower(), sorted(BOTS), n=2, cutoff=0.5)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    raise UnknownBotError(f"unknown bot {name!r}: {hint}choose from {', '.join(sorted(BOTS))}, or mjai:COMMAND")


def plain(text: object) -> str:
    """``text`` safe to print through rich markup: a name like ``[/bold]x`` or ``[link=...]``
    is shown as it is, never read as markup (issue 14 item 11)."""
    from rich.markup import escape

    return escape(str(text))


@contextmanager
def cli_errors() -> Iterator[None]:
    """Print sanma errors as one line on stderr: exit 1 for 'not a win', 2 for bad input."""
    try:
        yield
    except NotAWinError as e:
        print(f"not a win: {e}", file=sys.stderr)
        raise typer.Exit(1) from None
    except SanmaError as e:
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(2) from None
