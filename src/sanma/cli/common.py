"""Shared CLI helpers: rule selection and error reporting."""

from __future__ import annotations

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
