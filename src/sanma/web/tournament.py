"""A tournament's pages and API in ``sanma serve`` (docs/KEEPER.md, "Tournaments").

``/tournament/ID`` shows the live standings and the round in play (a projector, the players'
phones); ``/tournament/ID/referee`` seats rounds, runs the clock, enters a table's final scores and
links every table's keeper page for corrections. Each page's WebSocket pushes the state whenever it
changes; the round clock's end is applied (:meth:`Tournaments.tick`) on every read.

Errors are ``{"error": "...", "code": ...}`` with a 4xx status, in the request's language; nothing
changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response

from ..keeper.tournament import Tournaments
from ..store import Store
from .keeper import _body, _opt_int, _opt_str, call, entry_of, exported, opt_id, push_changes

STATIC = Path(__file__).parent / "static" / "tournament"
POLL_SECONDS = 1.0  # how often a page's socket looks for a change (and the clock's end)

router = APIRouter()


def _call(request: Request, action: Callable[[Tournaments], Any]) -> Response:
    return call(request, lambda store: action(Tournaments(store)))


@router.get("/tournament/{tournament_id}", include_in_schema=False)
async def standings_page(tournament_id: int) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/tournament/{tournament_id}/referee", include_in_schema=False)
async def referee_page(tournament_id: int) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/api/tournaments/{tournament_id}")
async def get_state(request: Request, tournament_id: int) -> Response:
    return _call(request, lambda t: t.state(tournament_id))


@router.get("/api/tournaments/{tournament_id}/standings")
async def get_standings(request: Request, tournament_id: int, after_round: int | None = None) -> Response:
    return _call(request, lambda t: t.standings(tournament_id, after_round))


@router.post("/api/tournaments/{tournament_id}/rounds/{number}/seat")
async def seat(request: Request, tournament_id: int, number: int) -> Response:
    return _call(request, lambda t: t.seat(tournament_id, number))


@router.post("/api/tournaments/{tournament_id}/rounds/{number}/clock")
async def clock(request: Request, tournament_id: int, number: int) -> Response:
    """``{"start": true}`` starts the round's clock; ``{"time_up": true, "table": T?}`` ends play (the
    hand in play is the last); ``{}`` reads it."""
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body

    def act(t: Tournaments) -> dict[str, Any]:
        if body.get("start") is True:
            return t.start(tournament_id, number)
        if body.get("time_up") is True:
            return t.time_up(tournament_id, number, _opt_int(body, "table"), author=_opt_str(body, "author"))
        return t.clock_json(tournament_id, number)

    return _call(request, act)


@router.post("/api/tournaments/{tournament_id}/rounds/{number}/tables/{table}/result")
async def result(request: Request, tournament_id: int, number: int, table: int) -> Response:
    """``{"entry": {"kind": "final", ...}, "preview": bool?, "client_id": ID?, "author": A?}``: a table's
    final scores."""
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    entry = entry_of(body)
    if isinstance(entry, JSONResponse):
        return entry
    return _call(request, lambda t: t.result(tournament_id, number, table, entry, author=_opt_str(body, "author"),
                                             preview=bool(body.get("preview")), client_id=opt_id(body)))


@router.get("/api/tournaments/{tournament_id}/export")
async def export(request: Request, tournament_id: int, format: str = "json") -> Response:
    """The results: ``?format=json`` (the whole state) or ``csv`` (one row per seat and bye)."""
    return exported(request, format, lambda store: Tournaments(store).state(tournament_id),
                    lambda store: Tournaments(store).export_csv(tournament_id), f"tournament-{tournament_id}.csv")


@router.websocket("/ws/tournaments/{tournament_id}")
async def live(ws: WebSocket, tournament_id: int) -> None:
    """The tournament's state now, then again whenever it changes (a table's entry, a seated round,
    the clock started) — and the clock's end applied as it comes (``state`` ticks)."""
    def read(store: Store) -> tuple[object, Callable[[], str]]:
        state = Tournaments(store).state(tournament_id)
        clock = state["clock"] and {k: v for k, v in state["clock"].items() if k != "remaining_seconds"}
        fingerprint = json.dumps({**state, "clock": clock}, ensure_ascii=False)  # not every second
        return fingerprint, lambda: json.dumps(state, ensure_ascii=False)

    await push_changes(ws, POLL_SECONDS, read)
