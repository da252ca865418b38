"""A rematch from the final card (issue 18 item 4): the same seats and rules, a fresh secret seed.

``POST /api/tables/ID/rematch`` with ``{"token": T}`` — a person of the finished table asks with their
seat's invite token — answers ``{"id": NEW, "url": "/t/NEW?token=T"}`` (201 when this request made
it, 200 when someone else already had): every seat keeps its token, so each person (and an external
bot) goes on with the link they have. ``GET /api/tables/ID/rematch`` answers ``{"rematch": NEW}``
(null before anyone asked): the other seats' final cards look for it. The work is
``web/tables.Tables.rematch``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..i18n import sentence
from .guard import BadJSON, load_json
from .i18n import error_response
from .limits import client_of
from .tables import TableError, Tables

router = APIRouter()


def _tables(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


@router.post("/api/tables/{table_id}/rematch")
async def rematch(request: Request, table_id: str) -> JSONResponse:
    try:
        body = load_json(await request.body())  # its size was bounded as it came (web/guard.py)
    except BadJSON as e:
        return error_response(e, 400)
    if not isinstance(body, dict) or not isinstance(body.get("token"), str) or set(body) != {"token"}:
        return error_response(sentence("a rematch is asked with {{\"token\": your seat's invite token}}",
                                       code="malformed"), 400)
    try:
        new_id, made = _tables(request).rematch(table_id, body["token"], client_of(request.client))
    except TableError as e:
        return error_response(e, e.status)
    return JSONResponse({"id": new_id, "url": f"/t/{new_id}?token={body['token']}"}, status_code=201 if made else 200)


@router.get("/api/tables/{table_id}/rematch")
async def rematch_of(request: Request, table_id: str) -> JSONResponse:
    tables = _tables(request)
    try:
        tables.info(table_id)
    except TableError as e:
        return error_response(e, e.status)
    return JSONResponse({"rematch": tables.rematch_of(table_id)})
