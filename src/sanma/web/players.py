"""Players of the browser table (issue 18 item 5): a player id per browser and a player page.

A browser asks for an identity once (``POST /api/players``) and keeps it: a secret ``token`` from
``secrets`` and the public ``id`` derived from it (a SHA-256 of the token: the id names the player
page, it cannot be turned back into the token, and nobody can pick another's). The table page sends
the token when it connects to a seat (``?player=TOKEN``): the seat is claimed for that player
(``store/tables.claim_seat``) and the finished game counts for ``web:ID``. Two people who both sat
as "Player 1" are two players.

The player page (``/player/ID``, ``GET /api/players/ID``) shows what ``sanma stats --db DB --player
web:ID`` shows — computed by the same code, ``sanma.stats.player_stats`` and ``placement_history``
(one home) — with the points over time and a replay link for every game played at this server.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from ..i18n import sentence
from ..stats import placement_history, player_stats
from ..store import Store
from ..store.history import latest_name
from ..store.tables import tables_of_games
from .i18n import error_response

router = APIRouter()

PREFIX = "web:"  # the store's player name of a browser player: web:ID
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
PLAYER_ID = re.compile(r"[0-9a-f]{20}")


def player_id(token: str | None) -> str | None:
    """The public id of a player token (None: not a token this server hands out)."""
    if not token or not TOKEN.fullmatch(token):
        return None
    return hashlib.sha256(f"sanma-player:{token}".encode()).hexdigest()[:20]


def store_name(pid: str) -> str:
    """The store's player name of a browser player (``sanma stats --player`` takes it)."""
    return PREFIX + pid


def player_page(store: Store, pid: str) -> dict[str, Any]:
    """The player page's figures: ``sanma stats``'s for ``web:ID`` (``stats`` null before the first
    finished game), every ranked game with its points and score, oldest first, and its replay."""
    name = store_name(pid)
    rows = player_stats(store, player=name)
    history = placement_history(store, player=name).get(name, [])
    tables = tables_of_games(store, [p.game_id for p in history])
    games = [{"game": p.game_id, "when": p.when, "placement": p.placement, "points": p.points, "score": p.score,
              "table": tables.get(p.game_id),
              "replay": f"/replay?table={tables[p.game_id]}" if p.game_id in tables else None}
             for p in history]
    return {"id": pid, "player": name, "name": latest_name(store, name),
            "stats": rows[0].to_json() if rows else None, "games": games}


@router.post("/api/players")
async def new_player() -> JSONResponse:
    """A new player identity for a browser: its secret token and the public id of its page."""
    token = secrets.token_urlsafe(24)
    pid = player_id(token)
    return JSONResponse({"token": token, "id": pid, "page": f"/player/{pid}"}, status_code=201)


@router.get("/api/players/{pid}")
async def get_player(request: Request, pid: str) -> JSONResponse:
    if not PLAYER_ID.fullmatch(pid):
        return error_response(sentence("no player {pid!r}: a player id is 20 hex digits", code="not_found",
                                       pid=pid[:40]), 404)
    store: Store = request.app.state.tables.store
    return JSONResponse(player_page(store, pid))


@router.get("/player/{pid}", include_in_schema=False)
async def page(pid: str) -> FileResponse:
    """A player's page."""
    return FileResponse(Path(__file__).parent / "static" / "player.html", media_type="text/html")
