"""``sanma serve [--host 127.0.0.1] [--port 8000] [--db PATH|URL]``: the browser table."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import DB_WHERE, cli_errors


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[str | None, typer.Option("--db", help=f"The database of the tables and their games: {DB_WHERE}. "
                                           "Default: $SANMA_DB, else ./sanma.sqlite.")] = None,
) -> None:
    """Serve the browser table: a lobby, tables for people, built-in bots and external mjai bots.

    Every game is kept in the database as it is played; a restarted server resumes every
    unfinished table.

    Examples:

        sanma serve                      # then open http://127.0.0.1:8000/

        sanma serve --port 8080 --db club.sqlite
    """
    import uvicorn

    from ..store import default_db_path, display, open_db
    from ..store.lock import acquire_server_lock
    from ..web import create_app

    with cli_errors():
        path = str(db if db is not None else default_db_path())
        # one server per SQLite file: a second one is refused here, in one line (store/lock.py)
        lock = acquire_server_lock(path, f"http://{host}:{port}/")
        try:
            open_db(path).close()  # a database that cannot be used is a one-line error, before the server starts
        except BaseException:
            lock.release()
            raise
        app = create_app(path, server_lock=lock)
    typer.echo(f"sanma: serving http://{host}:{port}/ (database {display(path)}); Ctrl-C stops", err=True)
    # frames over 64 kB are cut off by the WebSocket layer (1009); the table refuses any over 4 kB itself
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=64 * 1024)


def register(app: typer.Typer) -> None:
    app.command(name="serve")(serve)
