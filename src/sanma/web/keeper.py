"""The score keeper's pages and API in ``sanma serve`` (docs/KEEPER.md): phones at the table.

Every device talks to the same :class:`~sanma.keeper.keeper.Keeper` over the server's database:
``POST`` an entry with its client id (a tap sent twice is stored once) and the version its form
was opened on (``opened_version``: a second result for a hand that already has one is refused
with 409 and ``conflict`` naming the entry, who made it and when), and each page's WebSocket
pushes the session's state whenever its version changes — whoever changed it, in whatever process.

    app.include_router(sanma.web.keeper.router)      # in web/app.py; needs app.state.db_path

Errors are ``{"error": "...", "code": ...}`` with a 4xx status, in the request's language
(web/i18n.py); nothing changes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response

from ..errors import SanmaError
from ..i18n import current_lang, sentence
from ..keeper.entries import EntryConflict
from ..keeper.keeper import Keeper, in_words
from ..rules.loader import from_dict, load_preset
from ..store import Store, StoreError, open_db
from ..store.keeper import NotFound, VersionConflict, session
from .i18n import error_body, error_response

STATIC = Path(__file__).parent / "static" / "keeper"
MAX_BODY = 64 * 1024
POLL_SECONDS = 0.3  # how often a page's socket looks for a newer version

router = APIRouter()


def _db(request: Request | WebSocket) -> str:
    return str(getattr(request.app.state, "db_path", "sanma.sqlite"))


def call(request: Request, action: Callable[[Store], Any]) -> Response:
    """Run ``action`` on the server's database and answer: its value as JSON (a Response as it is);
    an error as ``{"error": ..., "code": ...}`` — 409 for a hand entered twice (with ``conflict``) or a
    stale version, 404 for a session or tournament that does not exist, else 400; nothing changed."""
    try:
        store = open_db(_db(request))
    except StoreError as e:
        return error_response(e, 503)
    try:
        out = action(store)
        return out if isinstance(out, Response) else JSONResponse(out)
    except EntryConflict as e:
        return error_response(e, 409, conflict=e.conflict)
    except VersionConflict as e:
        return error_response(e, 409)
    except NotFound as e:
        return error_response(e, 404)
    except SanmaError as e:
        return error_response(e, 400)
    finally:
        store.close()


def _call(request: Request, action: Callable[[Keeper], Any]) -> Response:
    """``call`` with a keeper; the state it answers has its sentences in the request's language
    (an entry's summary, the undo's text: keeper.in_words)."""
    def act(store: Store) -> Any:
        out = action(Keeper(store))
        return in_words(out, current_lang()) if isinstance(out, dict) else out

    return call(request, act)


async def push_changes(ws: WebSocket, poll: float, read: Callable[[Store], tuple[object, Callable[[], str]]]) -> None:
    """A page's live updates: ``read`` gives a fingerprint of what the page shows and its text; the
    text is sent now and whenever the fingerprint changes (whoever changed it, in whatever
    process); an error is sent once and the socket closed."""
    await ws.accept()
    store = open_db(_db(ws))
    try:
        try:
            seen: object = None
            while True:
                fingerprint, text = read(store)
                if fingerprint != seen:
                    await ws.send_text(text())
                    seen = fingerprint
                try:
                    await asyncio.wait_for(ws.receive_text(), timeout=poll)
                except TimeoutError:
                    continue
        except SanmaError as e:
            await ws.send_text(json.dumps(error_body(e), ensure_ascii=False))
            await ws.close(code=4404)
    except WebSocketDisconnect:
        pass
    finally:
        store.close()


async def _body(request: Request) -> dict[str, Any] | JSONResponse:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error_response(sentence("the request is larger than {limit} bytes", code="too_large", limit=MAX_BODY),
                              413)
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return error_response(sentence("the request body must be a JSON object", code="malformed"), 400)
    return body


def _opt_str(body: dict[str, Any], key: str) -> str:
    v = body.get(key, "")
    if not isinstance(v, str):
        raise SanmaError(sentence("field {name!r} must be text", code="malformed", name=key))
    return v


def _opt_int(body: dict[str, Any], key: str) -> int | None:
    v = body.get(key)
    if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
        raise SanmaError(sentence("field {name!r} must be a whole number", code="malformed", name=key))
    return v


def opt_id(body: dict[str, Any]) -> str | None:
    """The request's ``client_id`` (a tap sent twice is stored once), or None."""
    return _opt_str(body, "client_id") if body.get("client_id") is not None else None


def entry_of(body: dict[str, Any]) -> dict[str, Any] | JSONResponse:
    """The request's ``entry`` object, or the 400 that says it is missing."""
    entry = body.get("entry")
    if not isinstance(entry, dict):
        return error_response(sentence("field {name!r} must be a JSON object", code="malformed", name="entry"), 400)
    return entry


def _common(body: dict[str, Any]) -> dict[str, Any]:
    return {"author": _opt_str(body, "author"), "reason": _opt_str(body, "reason"), "client_id": opt_id(body),
            "expected_version": _opt_int(body, "expected_version")}


def _opened(body: dict[str, Any]) -> dict[str, Any]:
    """The version the page's form was opened on (issue 19 item 1)."""
    return {"opened_version": _opt_int(body, "opened_version")}


@router.get("/keeper", include_in_schema=False)
async def keeper_home() -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/keeper/{session_id}", include_in_schema=False)
async def keeper_page(session_id: int) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.post("/api/keeper/sessions")
async def new_session(request: Request) -> Response:
    """``{"rules": NAME | {"extends": NAME, ...}, "people": [..], "series": S?, "final_only": bool?}``."""
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body

    def act(k: Keeper) -> dict[str, Any]:
        spec = body.get("rules", "club")
        if isinstance(spec, str):
            rules = load_preset(spec)
        elif isinstance(spec, dict):
            rules = from_dict(spec, "rules")
        else:
            raise SanmaError(sentence("field 'rules' must be a preset name or a rule object, not {name}",
                                      code="malformed", name=type(spec).__name__))
        people = body.get("people")
        if not isinstance(people, list):
            raise SanmaError(sentence("field 'people' must be a list of names", code="malformed"))
        series = _opt_str(body, "series") or None
        return k.new(rules, people, series=series, mode="final" if body.get("final_only") else "hands",
                     author=_opt_str(body, "author"))

    return _call(request, act)


@router.get("/api/keeper/sessions/{session_id}")
async def get_session(request: Request, session_id: int) -> Response:
    return _call(request, lambda k: k.state(session_id))


@router.get("/api/keeper/sessions/{session_id}/log")
async def get_log(request: Request, session_id: int) -> Response:
    return _call(request, lambda k: {"session": session_id, "changes": k.log(session_id)})


@router.post("/api/keeper/sessions/{session_id}/entries")
async def add_entry(request: Request, session_id: int) -> Response:
    """``{"entry": {...}, "client_id": ID?, "opened_version": N?, "expected_version": N?, "preview": bool?,
    "author": A?}``."""
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    entry = entry_of(body)
    if isinstance(entry, JSONResponse):
        return entry
    return _call(request, lambda k: k.add(session_id, entry, preview=bool(body.get("preview")), **_common(body),
                                          **_opened(body)))


@router.post("/api/keeper/sessions/{session_id}/entries/{hand_no}")
async def fix_entry(request: Request, session_id: int, hand_no: int) -> Response:
    """Correct entry ``hand_no``: ``{"entry": {...}}``, or ``{"delete": true}``."""
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    entry = None if body.get("delete") is True else body.get("entry")
    if not (entry is None or isinstance(entry, dict)) or (entry is None and body.get("delete") is not True):
        return error_response(sentence("give the corrected 'entry' (an object), or 'delete': true", code="malformed"),
                              400)
    return _call(request, lambda k: k.fix(session_id, hand_no, entry, preview=bool(body.get("preview")),
                                          **_common(body), **_opened(body)))


@router.post("/api/keeper/sessions/{session_id}/undo")
async def undo(request: Request, session_id: int) -> Response:
    """``{"change": N?, "preview": bool?}``: undo change N (default the last edit); a preview says what
    it would change and saves nothing. The state's ``undone`` names what was undone."""
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    return _call(request, lambda k: k.undo(session_id, _opt_int(body, "change"), preview=bool(body.get("preview")),
                                           **_common(body)))


def exported(request: Request, fmt: str, as_json: Callable[[Store], Any], as_csv: Callable[[Store], str],
             filename: str) -> Response:
    """An export link's answer: ``fmt`` json (``as_json``'s value) or csv (``as_csv``'s text, as a
    download named ``filename``); another format is a 400."""
    if fmt not in ("json", "csv"):
        return error_response(sentence("format must be json or csv", code="malformed"), 400)
    if fmt == "json":
        return call(request, as_json)
    return call(request, lambda store: Response(as_csv(store), media_type="text/csv; charset=utf-8", headers={
        "content-disposition": f'attachment; filename="{filename}"'}))


@router.get("/api/keeper/sessions/{session_id}/export")
async def export(request: Request, session_id: int, format: str = "json") -> Response:
    """The session as ``sanma table export`` writes it: ``?format=json`` (re-importable) or ``csv``."""
    return exported(request, format, lambda store: Keeper(store).export(session_id),
                    lambda store: Keeper(store).export_csv(session_id), f"session-{session_id}.csv")


@router.websocket("/ws/keeper/{session_id}")
async def live(ws: WebSocket, session_id: int) -> None:
    """The session's state now, then again whenever its version changes (live updates for every
    device at the table)."""
    def read(store: Store) -> tuple[object, Callable[[], str]]:
        lang = current_lang()  # the connection's (set when it opened)
        return session(store, session_id).version, lambda: json.dumps(
            in_words(Keeper(store).state(session_id), lang), ensure_ascii=False)

    await push_changes(ws, POLL_SECONDS, read)
