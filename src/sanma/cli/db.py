"""``sanma db copy SOURCE DEST``: one sanma database into another, empty one (docs/DEPLOY.md).

Either may be a SQLite file or a ``postgresql://`` URL: a club's ``sanma.sqlite`` moves to the
PostgreSQL that several ``sanma serve`` processes share, and a PostgreSQL database comes back as
one file. The source is read in one snapshot (a live server may keep writing); the destination
must hold no rows and is written in one transaction (a failed copy leaves it empty).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ..i18n.messages import sentence, tr_n
from .common import DB_WHERE, cli_errors

db_app = typer.Typer(help="Copy a sanma database (SQLite or PostgreSQL) into another.", no_args_is_help=True)


@db_app.command("copy")
def copy(
    source: Annotated[str, typer.Argument(help=f"The database to copy: {DB_WHERE}.")],
    dest: Annotated[str, typer.Argument(help=f"Where to: {DB_WHERE}. A new file is created; a PostgreSQL database "
                                             "must exist and hold no sanma rows (its tables are created).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows copied per table as JSON.")] = False,
) -> None:
    """Copy every row (ids kept) of SOURCE into the empty database DEST, then compare the counts.

    Examples:

        sanma db copy sanma.sqlite postgresql://sanma@127.0.0.1:5432/sanma

        sanma db copy postgresql://sanma@db.example/sanma backup.sqlite
    """
    from pathlib import Path

    from ..store import StoreError, display, is_url, open_db
    from ..store.copy import copy_database

    with cli_errors():
        if not is_url(source) and source != ":memory:" and not Path(source).exists():
            raise StoreError(sentence("{source}: no such database", source=source))
        if display(source) == display(dest):
            raise StoreError(sentence("the source and the destination are the same database"))
        created = not is_url(dest) and not Path(dest).exists()
        try:
            with open_db(source) as src, open_db(dest) as dst:
                counts = copy_database(src, dst)
                where = (src.path, dst.path)
        except BaseException:
            if created:  # a file this command made and could not fill: not left behind half-made
                for suffix in ("", "-wal", "-shm"):
                    Path(dest + suffix).unlink(missing_ok=True)
            raise
    if as_json:
        typer.echo(json.dumps({"source": where[0], "dest": where[1], "rows": counts}))
        return
    typer.echo(tr_n("copied {n} row in {tables} tables from {source} to {dest}",
                    "copied {n} rows in {tables} tables from {source} to {dest}", sum(counts.values()),
                    tables=len(counts), source=where[0], dest=where[1]))
    for table, n in counts.items():
        if n:
            typer.echo(f"  {table}: {n}")  # the database's table names


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
