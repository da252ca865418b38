"""``sanma serve [--host 127.0.0.1] [--port 8000] [--db PATH|URL] [--synchronous-commit on|off]``: the
browser table."""

from __future__ import annotations

import logging
import signal
from typing import TYPE_CHECKING, Annotated

import click
import typer

from .common import DB_WHERE, cli_errors

if TYPE_CHECKING:
    from types import FrameType


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[str | None, typer.Option("--db", help=f"The database of the tables and their games: {DB_WHERE}. "
                                           "Default: $SANMA_DB, else ./sanma.sqlite.")] = None,
    allowed_host: Annotated[list[str] | None, typer.Option(
        "--allowed-host", help="Another name the server answers to (a DNS name, a proxy's; repeatable). "
        "By default: the names of --host (on 0.0.0.0: this machine's name and LAN addresses).")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", help="The reverse proxies (comma-separated addresses) whose X-Forwarded-For "
        "names the client: its limits apply to that address. Default: none (the socket's peer).")] = None,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", help="Change one limit, NAME=VALUE (repeatable): tables_per_minute, tables_per_client, tables, "
        "sessions_per_minute, uploads_per_minute, sockets_per_client, watchers_per_table, abandon_after "
        "(seconds). See docs/SECURITY.md.")] = None,
    ws_deflate: Annotated[bool, typer.Option(
        "--ws-deflate", help="Compress WebSocket messages (permessage-deflate) for clients that ask: less traffic "
        "on a slow link, about a tenth more server CPU per action. Default: off. See docs/DEPLOY.md.")] = False,
    synchronous_commit: Annotated[str, typer.Option(
        "--synchronous-commit", click_type=click.Choice(("on", "off")),
        help="on: a table's move is answered once PostgreSQL has it on disk. off (PostgreSQL "
        "only): answered at once, and on disk within about 0.6 s — a far shorter tail under load, but a crash of "
        "PostgreSQL or its machine may lose the moves of that last moment (a sanma process's crash loses nothing). "
        "Everything else stays durable. Default: on. See docs/DEPLOY.md.")] = "on",
) -> None:
    """Serve the browser table: a lobby, tables for people, built-in bots and external mjai bots.

    Every game is kept in the database as it is played; a restarted server resumes every
    unfinished table.

    Examples:

        sanma serve                      # then open http://127.0.0.1:8000/

        sanma serve --port 8080 --db club.sqlite

        sanma serve --host 0.0.0.0       # the phones at the table join on this machine's LAN address
    """
    import uvicorn

    from ..i18n import tr
    from ..store import default_db_path, display, open_db
    from ..store.lock import acquire_server_lock
    from ..store.tables import check_commit_moves
    from ..web import create_app
    from ..web.guard import LOOPBACK, host_name, served_names
    from ..web.limits import Limits
    from ..web.protocol import WebSocketProtocol

    with cli_errors():
        limits = Limits.parse(limit)  # a SanmaError naming a wrong one
        names = served_names(host, allowed_host or ())
        path = str(db if db is not None else default_db_path())
        durable = synchronous_commit == "on"
        check_commit_moves(path, synchronous=durable)  # before the lock and the database: one line
        shown = f"[{host}]" if ":" in host else host
        # one server per SQLite file: a second one is refused here, in one line (store/lock.py)
        lock = acquire_server_lock(path, f"http://{shown}:{port}/")
        try:
            open_db(path).close()  # a database that cannot be used is a one-line error, before the server starts
        except BaseException:
            lock.release()
            raise
        app = create_app(path, server_lock=lock, hosts=names, limits=limits, tune_gc=True,
                         synchronous_commit=durable)
    typer.echo(tr("sanma: serving {url} (database {db}); Ctrl-C stops", url=f"http://{shown}:{port}/",
                  db=display(path)), err=True)
    lan = [n for n in names if n not in LOOPBACK and n[:1].isdigit()]
    if host_name(host) in ("0.0.0.0", "::") and lan:
        typer.echo(tr("sanma: phones on this network open {urls}", urls="  ".join(f"http://{a}:{port}/" for a in lan)),
                   err=True)
    # A SIGTERM (`kill`, a service manager's stop, make's own on being stopped) stops the server as
    # Ctrl-C does: uvicorn shuts it down cleanly, then raises the signal again to end the process —
    # dying of it, the server had make print "make: *** [Makefile: run] Terminated" (issue 18). That
    # second SIGTERM lands here: a server stopped so has done its work, and exits 0.
    previous = signal.signal(signal.SIGTERM, _stopped)
    # sanma's own warnings and errors (a write that failed, a message that could not be handled) on
    # stderr, each line with its time and level (uvicorn's loggers keep their own)
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.WARNING)
    try:
        # frames over 64 kB are cut off by the WebSocket layer (1009); the table refuses any over 4 kB itself.
        # No per-message deflate unless asked (issue 22): a frame is about 1 kB, and compressing each one
        # for every seat was about a tenth of the server's CPU per action (docs/PERFORMANCE.md). The socket's
        # reading pauses only when several messages wait for the table, not after each (web/protocol.py).
        uvicorn.run(app, host=host, port=port, log_level="warning", ws=WebSocketProtocol, ws_max_size=64 * 1024,
                    ws_per_message_deflate=ws_deflate,
                    proxy_headers=forwarded_allow_ips is not None, forwarded_allow_ips=forwarded_allow_ips or "")
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _stopped(signum: int, frame: FrameType | None) -> None:
    """The SIGTERM that uvicorn raises again once it has shut the server down: a clean exit."""
    raise SystemExit(0)


def register(app: typer.Typer) -> None:
    app.command(name="serve")(serve)
