"""Shared CLI helpers: rule selection and error reporting."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..errors import NotAWinError, SanmaError
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
    """Print sanma errors as one line on stderr: exit 1 for 'not a win', 2 for bad input."""
    try:
        yield
    except NotAWinError as e:
        print(f"not a win: {e}", file=sys.stderr)
        raise typer.Exit(1) from None
    except SanmaError as e:  # a database's failure too (sanma.store.DatabaseError: damage found while reading)
        print(f"error: {e}", file=sys.stderr)
        raise typer.Exit(2) from None
