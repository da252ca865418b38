"""The web application: the lobby and table pages, the contract endpoints, the WebSockets.

>>> app = create_app(":memory:")
>>> sorted(r.path for r in app.routes if getattr(r, "path", "").startswith("/api/tables"))[:2]
['/api/tables', '/api/tables/{table_id}']
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

STATIC = Path(__file__).parent / "static"


def _page(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        return JSONResponse({"error": f"page {name} is not part of this build"}, status_code=404)
    return FileResponse(path, media_type="text/html")


def create_app(db_path: str | os.PathLike[str] = "sanma.sqlite") -> FastAPI:
    """The whole server over the SQLite database at ``db_path`` (``":memory:"`` for tests)."""
    app = FastAPI(title="sanma", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.db_path = str(db_path)

    # Every error is {"error": "..."} with its status; never a stack trace (issue 11 item 6).
    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        return JSONResponse({"error": detail}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "malformed request"}, status_code=400)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return JSONResponse({"error": "internal error"}, status_code=500)

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
    # Pages owned by the front end add their routers here (web/calc.py, web/replays.py).
    from . import calc, replays

    app.include_router(calc.router)
    app.include_router(replays.router)
    return app


def _api(app: FastAPI) -> None:
    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        return JSONResponse({"error": "tables are not served yet"}, status_code=501)

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> JSONResponse:
        return JSONResponse({"error": f"no table {table_id!r}"}, status_code=404)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True}
