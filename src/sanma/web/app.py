"""The web application: the lobby and table pages, the contract endpoints, the WebSockets.

>>> app = create_app(":memory:")
>>> sorted({r.path for r in app.routes if getattr(r, "path", "").startswith("/api/tables")})[:2]
['/api/tables', '/api/tables/{table_id}']
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..formats import WRITERS, write_record
from ..i18n import sentence
from ..store import open_db
from ..store.lock import ServerLock, acquire_server_lock
from ..store.tables import MoveWriter, commit_moves
from . import collector
from .guard import JSON, LOOPBACK, BadJSON, Guard, load_json
from .i18n import LangMiddleware, error_response
from .limits import Limits, client_of
from .scheduler import Clock
from .tables import SERVER_WAIT_MS, TableError, Tables
from .workers import Workers
from .ws import BURST, RATE, serve_socket

log = logging.getLogger("sanma.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 128 * 1024  # bytes of a request (a rule file fits many times)


def _page(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        return error_response(sentence("page {name} is not part of this build", code="not_found", name=name), 404)
    return FileResponse(path, media_type="text/html")


def create_app(db_path: str | os.PathLike[str] = "sanma.sqlite", *, rate: float = RATE,
               burst: float = BURST, clock: Clock | None = None, server_lock: ServerLock | None = None,
               hosts: Sequence[str] | None = LOOPBACK, limits: Limits | None = None,
               tune_gc: bool = False, synchronous_commit: bool = True) -> FastAPI:
    """The whole server over the database at ``db_path``: a SQLite file (``":memory:"`` for tests) or a
    ``postgresql://`` URL.

    ``rate`` / ``burst``: how many messages a second (in bursts of how many) one WebSocket may send.
    ``clock``: where every table's time comes from (``web/scheduler.py``; tests pass a ``ManualClock``).
    ``server_lock``: the database's server lock (``sanma serve`` takes it before it starts, to refuse
    with one line); without it the application takes its own as it starts (:mod:`sanma.store.lock`).
    ``hosts``: the names the server answers to (``Host``; ``web/guard.served_names``; None: any).
    ``limits``: how much one client may ask (``web/limits.Limits``; docs/SECURITY.md).
    ``tune_gc``: once started, freeze start-up's objects and set a server's collector thresholds
    (``web/collector.py``; ``sanma serve`` passes True; tests leave their own process's collector alone).
    ``synchronous_commit``: False (PostgreSQL only, ``sanma serve --synchronous-commit off``): the
    tables' moves do not wait for the disk (``store.tables.commit_moves``; docs/DEPLOY.md).
    """
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lock = server_lock if server_lock is not None else acquire_server_lock(str(db_path))
        try:
            async with _serving(app, lock):
                yield
        finally:
            lock.release()

    @contextlib.asynccontextmanager
    async def _serving(app: FastAPI, lock: ServerLock) -> AsyncIterator[None]:
        store = open_db(db_path)  # its integrity is checked here, once (issue 23 item 4)
        store.wait_for_writes(SERVER_WAIT_MS)  # a write never stalls every table for long
        try:
            commit_moves(store, synchronous=synchronous_commit)
        except BaseException:
            store.close()
            raise
        app.state.store = store  # the keeper's pages share it
        app.state.workers = workers = Workers()  # CPU-heavy work off the loop (web/workers.py)
        # PostgreSQL: the tables' moves are written without holding the loop (store.tables.MoveWriter)
        writer = MoveWriter(store, lock_ms=SERVER_WAIT_MS) if store.dialect == "postgresql" else None
        tables = Tables(store, clock, limits, node=lock.node, writer=writer)
        app.state.tables = tables
        if tune_gc:  # start-up's objects live as long as the process; not the resumed tables', which end
            collector.tune()
        shared = None
        if lock.node is not None:  # several processes on one PostgreSQL database (web/shared.py)
            from .shared import Shared

            shared = Shared(tables, str(db_path), lock.node, lock)
            await shared.start()  # takes up the tables nobody runs
        else:
            resumed = tables.resume()  # a restarted server goes on with every unfinished table
            if resumed:
                log.info("resumed %d unfinished table(s)", resumed)
        try:
            yield
        finally:
            if shared is not None:
                await shared.stop()
            await tables.settle()  # the moves being written are stored (or refused) before the end
            tables.close()
            if writer is not None:
                writer.close()
            workers.close()
            store.close()

    app = FastAPI(title="sanma", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.db_path = str(db_path)
    app.state.ws_rates = (rate, burst)
    app.add_middleware(Guard, hosts=hosts)  # Host, Origin, JSON bodies: before any route

    # Every error is {"error": "..."} with its status, in the request's language, with a code beside
    # the words where it has one; never a stack trace (issue 11 item 6, issue 24).
    app.add_middleware(LangMiddleware)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and exc.detail == "Not Found":
            return error_response(sentence("Not Found", code="not_found"), 404)
        detail = exc.detail if isinstance(exc.detail, str) else sentence("request refused", code="refused")
        return error_response(detail, exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return error_response(sentence("malformed request", code="malformed"), 400)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:  # pragma: no cover - a bug
        return error_response(sentence("internal error", code="internal"), 500)

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby() -> Response:
        return _page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return _page("table.html")

    @app.get("/t/{table_id}/watch", include_in_schema=False)
    async def watch_page(table_id: str) -> Response:
        return _page("table.html")

    _api(app)
    from . import i18n, keeper, tournament  # the keeper's and tournaments' pages and API; the pages' languages

    app.include_router(keeper.router)
    app.include_router(tournament.router)
    app.include_router(i18n.router)  # each page language's catalogue (web/static/i18n.js)
    # Pages owned by the front end add their routers here (web/calc.py, web/replays.py).
    from . import calc, players, rematch, replays, reviews

    app.include_router(calc.router)
    app.include_router(replays.router)
    app.include_router(reviews.router)
    app.include_router(players.router)
    app.include_router(rematch.router)
    return app


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _error(e: TableError) -> JSON:
    return error_response(e, e.status)


def _api(app: FastAPI) -> None:
    @app.post("/api/tables")
    async def create_table(request: Request) -> JSON:
        try:
            body = load_json(await request.body())  # its size was bounded as it came (web/guard.py)
        except BadJSON as e:
            return error_response(e, 400)
        try:
            table, tokens = await _tables(request).open(body, client_of(request.client))
        except TableError as e:
            return _error(e)
        seats = [{"seat": s, "kind": k, "token": tok, "url": f"/t/{table.id}?token={tok}"}
                 for s, (k, tok) in enumerate(zip(table.kinds, tokens, strict=True))]
        return JSON({"id": table.id, "seed_hash": table.seed_hash, "seats": seats,
                             "watch": f"/t/{table.id}/watch"}, status_code=201)

    @app.get("/api/tables")
    async def list_tables(request: Request) -> JSON:
        return JSON({"tables": _tables(request).listing()})

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> JSON:
        try:
            return JSON(await _tables(request).public(table_id))
        except TableError as e:
            return _error(e)

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str, format: str = "tenhou6") -> Response:
        if format not in WRITERS:
            known = ", ".join(sorted(WRITERS, reverse=True))
            return error_response(sentence("unknown format {name!r}: {known}", code="malformed", name=format[:20],
                                           known=known), 400)
        try:
            table, events = _tables(request).finished_events(table_id)
        except TableError as e:
            return _error(e)
        events = published_events(events, table.seed, table.wall_key)
        media = "application/x-ndjson" if format == "mjai" else "application/json"
        return Response(write_record(events, format, table.rules), media_type=media)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(request: Request, table_id: str) -> JSON:
        try:
            table, events = _tables(request).finished_events(table_id)
        except TableError as e:
            return _error(e)
        return JSON({"id": table.id, "rules": table.rules.name, "names": list(table.names),
                             "seed": table.seed, **({"wall_key": table.wall_key.hex()} if table.wall_key else {}),
                             "events": published_events(events, table.seed, table.wall_key)})

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True}

    for role in ("play", "watch", "mjai"):
        _socket(app, role)


def _socket(app: FastAPI, role: str) -> None:
    async def socket(websocket: WebSocket, table_id: str, token: str | None = None, since: str | None = None) -> None:
        await serve_socket(websocket, _tables(websocket), table_id, role, token, websocket.app.state.ws_rates, since)

    app.add_api_websocket_route(f"/ws/tables/{{table_id}}/{role}", socket)


def published_events(events: list[dict[str, Any]], seed: str, wall_key: bytes | None = None) -> list[dict[str, Any]]:
    """A finished game's events with the seed (and the wall key, hex, of a keyed table) in
    ``start_game``: ``sanma verify`` re-deals every wall from them."""
    if not events or events[0].get("type") != "start_game":
        return events
    key = {"wall_key": wall_key.hex()} if wall_key is not None else {}
    return [{**events[0], "seed": seed, **key}, *events[1:]]
