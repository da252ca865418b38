"""A tournament's pages and API in ``sanma serve`` (docs/KEEPER.md, "Tournaments").

Every page and call is opened by one of the tournament's **links** (issue 23 "Access",
:mod:`sanma.store.access`; ``sanma tournament new`` and ``links`` print them), never by its number:

- the organiser's (``/tournament/TOKEN/referee``): everything, and the other links;
- the referee's (``/tournament/TOKEN/referee``): seats rounds, runs the clock, enters a table's final
  scores and opens any table's keeper page (``/keeper/TOKEN.ROUND.TABLE``) to correct it;
- the read-only one (``/tournament/TOKEN``): the live standings and the round in play for a projector
  and the players' phones; it opens each table's keeper page read-only;
- a scorer's per table (``/keeper/TOKEN``): the keeper page of its table in the latest round, which
  keeps that table's hands or final scores and no other table's.

Each page's WebSocket pushes the state whenever it changes; the round clock's end is applied
(:meth:`Tournaments.tick`) on every read. Errors are ``{"error": "...", "code": ...}`` with a 4xx
status, in the request's language (404 ``no_link``, 403 ``read_only``); nothing changes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import FileResponse, Response

from ..i18n import sentence
from ..keeper.tournament import Tournaments
from ..store import Store, access
from .guard import JSON
from .keeper import (
    READ,
    REFEREE,
    REFEREES,
    SCORER,
    TOURNAMENT,
    ReadOnly,
    _body,
    _opt_int,
    _opt_str,
    call,
    entry_of,
    exported,
    grant_of,
    opt_id,
    push_changes,
    socket,
)

STATIC = Path(__file__).parent / "static" / "tournament"
POLL_SECONDS = 1.0  # how often a page's socket looks for a change (and the clock's end)
FRESH_SECONDS = 0.5  # a tournament's state looked at this recently is not looked at again for another page

router = APIRouter()


def roles(tables: int) -> list[tuple[str, str | None]]:
    """A tournament's links besides the organiser's: the referee's, the read-only one, and a
    scorer's for each of its ``tables`` (a round seats at most players // 3 tables)."""
    return [(REFEREE, None), (READ, None), *((SCORER, str(n)) for n in range(1, tables + 1))]


def issue_links(store: Store, tid: int, players: Sequence[str]) -> dict[str, Any]:
    """New links for tournament ``tid`` (every earlier one stops working): the paths to give out."""
    master = access.issue(store, TOURNAMENT, str(tid), roles(len(players) // 3))
    return links(master, len(players) // 3)


def links(master: str, tables: int) -> dict[str, Any]:
    """The paths of every link under the organiser's token ``master``: ``organiser``, ``referee``,
    ``read`` (the standings) and ``scorers`` (table number -> its keeper page)."""
    return {access.ORGANISER: f"/tournament/{master}/referee",
            REFEREE: f"/tournament/{access.derive(master, REFEREE)}/referee",
            READ: f"/tournament/{access.derive(master, READ)}",
            "scorers": {str(n): f"/keeper/{access.derive(master, SCORER, str(n))}" for n in range(1, tables + 1)}}


def _grant(store: Store, ref: str, *, referee: bool = False, table: int | None = None) -> tuple[int, access.Grant]:
    """The tournament link ``ref`` opens and its grant. ``referee``: the link must be the organiser's
    or the referee's; ``table``: a referee's, or table ``table``'s scorer's."""
    g = grant_of(store, ref, TOURNAMENT)
    if referee or table is not None:
        if g.role in REFEREES or (table is not None and g.role == SCORER and g.scope == str(table)):
            return int(g.target), g
        raise ReadOnly(sentence("this scorer's link changes only its own table; table {table} is another's",
                                code="read_only", table=table)
                       if g.role == SCORER and table is not None else
                       sentence("only the referee's link does this: this link shows the tournament", code="read_only"))
    return int(g.target), g


def _view(state: dict[str, Any], grant: access.Grant, ref: str) -> dict[str, Any]:
    """The state as a link sees it: what the link may do (``access``), each table's keeper page
    under this link, and — the organiser's — every link."""
    out = {**state, "access": {"role": grant.role, "table": int(grant.scope) if grant.scope else None,
                               "referee": grant.role in REFEREES}}
    out["seated"] = [{**r, "tables": [{**t, "link": f"/keeper/{ref}.{r['round']}.{t['table']}"} for t in r["tables"]]}
                     for r in state["seated"]]
    if grant.role == access.ORGANISER:
        out["links"] = links(ref, len(state["players"]) // 3)
    return out


def _call(request: Request, action: Callable[[Tournaments, int], Any], ref: str, *, write: bool = False,
          referee: bool = False, table: int | None = None) -> Response:
    def act(store: Store) -> Any:
        tid, _ = _grant(store, ref, referee=referee, table=table)
        return action(Tournaments(store), tid)

    return call(request, act, write=write)


@router.get("/tournament/{ref}", include_in_schema=False)
async def standings_page(ref: str) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/tournament/{ref}/referee", include_in_schema=False)
async def referee_page(ref: str) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


def _state(store: Store, ref: str) -> dict[str, Any]:
    tid, grant = _grant(store, ref)
    return _view(Tournaments(store).state(tid), grant, ref)


class Shown:
    """The tournaments this process's pages show, each one's state made once for all its pages (a
    projector and every phone: the state of 36 players over 4 rounds takes about 0.25 s to make,
    and each page's socket looks every second). A look within ``FRESH_SECONDS`` of the last takes
    the state as it is; a later one compares the tournament's :meth:`Tournaments.fingerprint` (three
    small queries) and makes the state again only when it moved. A write through this process
    (:func:`sanma.web.keeper.call`) forgets them all."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.clock = clock  # when a state was looked at
        self.wall = wall  # the tournaments' clock (a round's time)
        self.states: dict[int, tuple[float, object, dict[str, Any]]] = {}
        self.made = 0  # states made (for the tests)

    def state(self, store: Store, tid: int) -> dict[str, Any]:
        now = self.clock()
        hit = self.states.get(tid)
        if hit is not None and now - hit[0] < FRESH_SECONDS:
            return hit[2]
        t = Tournaments(store, clock=self.wall)
        fingerprint = t.fingerprint(tid)
        if hit is not None and hit[1] == fingerprint:
            self.states[tid] = (now, fingerprint, hit[2])
            return hit[2]
        state = t.state(tid)  # the clock's end may write (a time_up entry): the fingerprint after it
        self.made += 1
        self.states[tid] = (now, t.fingerprint(tid), state)
        return state

    def forget(self) -> None:
        self.states.clear()


def shown(conn: Request | WebSocket) -> Shown:
    """This application's :class:`Shown` (made on first use)."""
    state = conn.app.state
    found = getattr(state, "tournament_shown", None)
    if found is None:
        found = state.tournament_shown = Shown()
    return found


@router.get("/api/tournaments/{ref}")
async def get_state(request: Request, ref: str) -> Response:
    return call(request, lambda store: _state(store, ref))


@router.get("/api/tournaments/{ref}/standings")
async def get_standings(request: Request, ref: str, after_round: int | None = None) -> Response:
    return _call(request, lambda t, tid: t.standings(tid, after_round), ref)


@router.post("/api/tournaments/{ref}/rounds/{number}/seat")
async def seat(request: Request, ref: str, number: int) -> Response:
    return _call(request, lambda t, tid: t.seat(tid, number), ref, write=True, referee=True)


@router.post("/api/tournaments/{ref}/rounds/{number}/clock")
async def clock(request: Request, ref: str, number: int) -> Response:
    """``{"start": true}`` starts the round's clock; ``{"time_up": true, "table": T?}`` ends play (the
    hand in play is the last); ``{}`` reads it. The referee's."""
    body = await _body(request)
    if isinstance(body, JSON):
        return body

    def act(t: Tournaments, tid: int) -> dict[str, Any]:
        if body.get("start") is True:
            return t.start(tid, number)
        if body.get("time_up") is True:
            return t.time_up(tid, number, _opt_int(body, "table"), author=_opt_str(body, "author"))
        return t.clock_json(tid, number)

    return _call(request, act, ref, write=True, referee=True)


@router.post("/api/tournaments/{ref}/rounds/{number}/tables/{table}/result")
async def result(request: Request, ref: str, number: int, table: int) -> Response:
    """``{"entry": {"kind": "final", ...}, "preview": bool?, "client_id": ID?, "author": A?}``: a table's
    final scores (the referee's link, or that table's scorer's)."""
    body = await _body(request)
    if isinstance(body, JSON):
        return body
    entry = entry_of(body)
    if isinstance(entry, JSON):
        return entry
    return _call(request, lambda t, tid: t.result(tid, number, table, entry, author=_opt_str(body, "author"),
                                                  preview=bool(body.get("preview")), client_id=opt_id(body)),
                 ref, write=not body.get("preview"), table=table)


@router.get("/api/tournaments/{ref}/export")
async def export(request: Request, ref: str, format: str = "json") -> Response:
    """The results: ``?format=json`` (the whole state) or ``csv`` (one row per seat and bye)."""
    def tid(store: Store) -> int:
        return _grant(store, ref)[0]

    return exported(request, format, lambda store: Tournaments(store).state(tid(store)),
                    lambda store: Tournaments(store).export_csv(tid(store)), "tournament.csv")


@router.websocket("/ws/tournaments/{ref}")
async def live(ws: WebSocket, ref: str) -> None:
    """The tournament's state now, then again whenever it changes (a table's entry, a seated round,
    the clock started) — and the clock's end applied as it comes (``state`` ticks)."""
    def read(store: Store) -> tuple[object, Callable[[], str]]:
        tid, grant = _grant(store, ref)
        state = _view(shown(ws).state(store, tid), grant, ref)
        clock = state["clock"] and {k: v for k, v in state["clock"].items() if k != "remaining_seconds"}
        fingerprint = json.dumps({**state, "clock": clock})  # not every second
        return fingerprint, lambda: json.dumps(state)  # ASCII: any stored text encodes

    await socket(ws, lambda store: push_changes(ws, store, POLL_SECONDS, read))


__all__ = ["issue_links", "links", "roles", "router"]
