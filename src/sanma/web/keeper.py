"""The score keeper's pages and API in ``sanma serve`` (docs/KEEPER.md): phones at the table.

Every device talks to the same :class:`~sanma.keeper.keeper.Keeper` over the server's database:
``POST`` an entry with its client id (a tap sent twice is stored once) and the version its form
was opened on (``opened_version``: a second result for a hand that already has one is refused
with 409 and ``conflict`` naming the entry, who made it and when), and each page's WebSocket
pushes the session's state whenever its version changes — whoever changed it, in whatever process.

    app.include_router(sanma.web.keeper.router)      # in web/app.py; needs app.state.db_path

A session is opened through a link (``/keeper/TOKEN``; issue 23 "Access",
:mod:`sanma.store.access`): the organiser's link reads and writes and its state carries the
others' (``links``); the read-only link reads. A tournament's table is opened through a
tournament's link (:func:`session_of`: a scorer's link opens its table, ``TOKEN.ROUND.TABLE``
any table). The session's number alone opens nothing here.

Errors are ``{"error": "...", "code": ...}`` with a 4xx status, in the request's language
(web/i18n.py); nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, Response

from ..errors import SanmaError
from ..i18n import current_lang, sentence
from ..keeper.entries import EntryConflict
from ..keeper.keeper import Keeper, in_words
from ..rules.loader import from_dict, load_preset
from ..store import Store, StoreBusy, StoreError, access, open_db
from ..store.keeper import NotFound, VersionConflict, versions
from ..store.tournaments import rounds
from .guard import JSON, BadJSON, load_json
from .i18n import error_body, error_response
from .limits import client_of, over_rate

STATIC = Path(__file__).parent / "static" / "keeper"
MAX_BODY = 64 * 1024
POLL_SECONDS = 0.3  # how often the server looks for sessions changed elsewhere (another process, the CLI)

router = APIRouter()

KIND = "keeper_session"
ROLES: tuple[tuple[str, str | None], ...] = (("read", None),)  # the links a session has besides the organiser's
WRITERS = frozenset({access.ORGANISER})  # the roles that may change a session

# A tournament's links (issue 23 "Access" with issue 19 item 4): the organiser's (every right, and the
# other links), the referee's (every table, the rounds and the clock: every right but the links), a
# read-only one (the standings on a projector and phones), and a scorer's per table number (scope
# "T": keeps table T's session, in whichever round, and nothing else).
TOURNAMENT = "tournament"
REFEREE = "referee"
SCORER = "scorer"
READ = "read"
REFEREES = frozenset({access.ORGANISER, REFEREE})  # the roles that may change any table and run the rounds


class NoLink(SanmaError):
    """A link that opens nothing (unknown, revoked, another kind, a bare number): 404."""

    code_of_class = "no_link"


class ReadOnly(SanmaError):
    """A write through a link whose role may not make it: 403."""

    code_of_class = "read_only"


def grant_of(store: Store, token: str, kind: str) -> access.Grant:
    """What link ``token`` opens, when it is a link of ``kind``; else :class:`NoLink`."""
    g = access.resolve(store, token)
    if g is None or g.kind != kind:
        raise NoLink(sentence("no kept session behind this link (it is opened by its link, not its number)",
                              code="no_link") if kind == KIND else
                     sentence("no tournament behind this link (it is opened by its link, not its number)",
                              code="no_link"))
    return g


def session_of(store: Store, ref: str, *, write: bool = False) -> tuple[int, access.Grant]:
    """The session a link opens and its grant; ``write``: the link's role must be a writer's.

    ``ref`` is a session's link, or a tournament's: a scorer's link alone opens its table in the
    latest round seated, and any tournament link followed by ``.ROUND.TABLE`` opens that table
    (every tournament link reads any table; a scorer's writes only its own, the referee's any)."""
    token, _, where = ref.partition(".")
    g = access.resolve(store, token)
    if g is not None and g.kind == TOURNAMENT:
        number, table = _where(store, g, where)
        if write and g.role not in REFEREES and not (g.role == SCORER and g.scope == str(table)):
            raise ReadOnly(sentence("this scorer's link changes only its own table; table {table} is another's",
                                    code="read_only", table=table)
                           if g.role == SCORER else
                           sentence("this is a read link: it shows the tables and changes nothing",
                                    code="read_only"))
        return _table_session(store, int(g.target), number, table), g
    g = grant_of(store, ref, KIND)  # a session's link takes no ".ROUND.TABLE"
    if write and g.role not in WRITERS:
        raise ReadOnly(sentence("this is a read link: it shows the session and changes nothing", code="read_only"))
    return int(g.target), g


def _where(store: Store, g: access.Grant, where: str) -> tuple[int, int]:
    """The round and table ``.ROUND.TABLE`` names (a scorer's link alone: its table, latest round)."""
    if not where:
        if g.role != SCORER or g.scope is None:
            raise NoLink(sentence("this tournament link opens a table as LINK.ROUND.TABLE", code="no_link"))
        table = int(g.scope)
        seated = [r.round for r in rounds(store, int(g.target)) if table in dict(r.tables)]
        if not seated:
            raise NoLink(sentence("table {table} is not seated yet: the referee seats the round", code="no_link",
                                  table=table))
        return seated[-1], table
    parts = where.split(".")
    if len(parts) != 2 or not all(p.isdigit() and 0 < len(p) <= 4 for p in parts):
        raise NoLink(sentence("a tournament's table is opened as LINK.ROUND.TABLE", code="no_link"))
    return int(parts[0]), int(parts[1])


def _table_session(store: Store, tid: int, number: int, table: int) -> int:
    for row in rounds(store, tid):
        if row.round == number and table in dict(row.tables):
            return dict(row.tables)[table]
    raise NoLink(sentence("round {round} has no table {table}", code="no_link", round=number, table=table))


def links(grant: access.Grant, ref: str) -> dict[str, str]:
    """The links an organiser's page shows (paths): its own and each role's."""
    if grant.role != access.ORGANISER:
        return {}
    return {access.ORGANISER: f"/keeper/{ref}", **{role: f"/keeper/{access.derive(ref, role, scope)}"
                                                     for role, scope in ROLES}}


def _db(request: Request | WebSocket) -> str:
    return str(getattr(request.app.state, "db_path", "sanma.sqlite"))


@contextlib.contextmanager
def _store(request: Request | WebSocket) -> Iterator[Store]:
    """The server's own connection (``app.state.store``: opened, and its integrity checked, once at
    the start, issue 23 item 4), else — a bare router in a test — one opened for this request."""
    shared = getattr(request.app.state, "store", None)
    if shared is not None:
        yield shared
        return
    store = open_db(_db(request))
    try:
        yield store
    finally:
        store.close()


def call(request: Request, action: Callable[[Store], Any], *, write: bool = False) -> Response:
    """Run ``action`` on the server's database and answer: its value as JSON (a Response as it is);
    an error as ``{"error": ..., "code": ...}`` — 404 for a link that opens nothing or a session or
    tournament that does not exist, 403 for a write the link has no right to, 409 for a hand entered
    twice (with ``conflict``) or a stale version, 503 for a busy database, else 400; nothing changed.
    ``write``: this process's live keeper pages are told at once when it succeeds."""
    try:
        with _store(request) as store:
            out = _answer(store, action)
            watch = getattr(request.app.state, "keeper_watch", None)
            if write and out.status_code == 200:
                if watch is not None:
                    watch.changed()
                shown = getattr(request.app.state, "tournament_shown", None)
                if shown is not None:  # a table's session or a round changed: the tournaments' pages look again
                    shown.forget()
            return out
    except StoreError as e:  # the database cannot be opened
        return error_response(e, 503)


def _answer(store: Store, action: Callable[[Store], Any]) -> Response:
    try:
        out = action(store)
        return out if isinstance(out, Response) else JSON(out)
    except (NoLink, NotFound) as e:
        return error_response(e, 404)
    except ReadOnly as e:
        return error_response(e, 403)
    except EntryConflict as e:
        return error_response(e, 409, conflict=e.conflict)
    except VersionConflict as e:
        return error_response(e, 409)
    except StoreBusy as e:
        return error_response(e, 503)
    except SanmaError as e:  # a StoreError of bad input included
        return error_response(e, 400)


def _call(request: Request, action: Callable[[Keeper, int], Any], ref: str | None = None, *,
          write: bool = False) -> Response:
    """``action(keeper, session)`` for the session that link ``ref`` opens (None: no session yet);
    the state it answers has its sentences in the request's language (an entry's summary, the
    undo's text: keeper.in_words)."""
    def act(store: Store) -> Any:
        if ref is None:
            out = action(Keeper(store), 0)
        else:
            sid, grant = session_of(store, ref, write=write)
            out = with_links(action(Keeper(store), sid), grant, ref)
        return in_words(out, current_lang()) if isinstance(out, dict) else out

    return call(request, act, write=write)


def with_links(out: Any, grant: access.Grant, ref: str) -> Any:
    """A session's state as a link shows it: the organiser's with the other links; a tournament
    table's with the link to its tournament's standings."""
    if not isinstance(out, dict) or "version" not in out:
        return out
    if grant.kind == KIND and grant.role == access.ORGANISER:
        return {**out, "links": links(grant, ref)}
    if grant.kind == TOURNAMENT and isinstance(out.get("tournament"), dict):
        return {**out, "tournament": {**out["tournament"], "link": f"/tournament/{ref.partition('.')[0]}"}}
    return out


async def _body(request: Request) -> dict[str, Any] | JSON:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error_response(sentence("the request is larger than {limit} bytes", code="too_large", limit=MAX_BODY),
                              413)
    try:
        body = load_json(raw or b"{}")
    except BadJSON as e:
        return error_response(e, 400)
    if not isinstance(body, dict):
        return error_response(sentence("the request body must be a JSON object", code="malformed"), 400)
    return body


def _opt_str(body: dict[str, Any], key: str) -> str:
    v = body.get(key, "")
    if not isinstance(v, str):
        raise SanmaError(sentence("field {name!r} must be text", code="malformed", name=key))
    return v


MAX_INT = 10**9  # entry numbers, versions, changes: far beyond any session, far below SQLite's 2**63


def _opt_int(body: dict[str, Any], key: str) -> int | None:
    v = body.get(key)
    if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_INT):
        raise SanmaError(sentence("field {name!r} must be a whole number from 0 to {limit}", code="malformed",
                                  name=key, limit=MAX_INT))
    return v


def opt_id(body: dict[str, Any]) -> str | None:
    """The request's ``client_id`` (a tap sent twice is stored once), or None."""
    return _opt_str(body, "client_id") if body.get("client_id") is not None else None


def entry_of(body: dict[str, Any]) -> dict[str, Any] | JSON:
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


@router.get("/keeper/{ref}", include_in_schema=False)
async def keeper_page(ref: str) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.post("/api/keeper/sessions")
async def new_session(request: Request) -> Response:
    """``{"rules": NAME | {"extends": NAME, ...}, "people": [..], "series": S?, "final_only": bool?}``."""
    body = await _body(request)
    if isinstance(body, JSON):
        return body
    refused = over_rate(request, "sessions")
    if refused is not None:
        return error_response(refused, 429)

    def act(k: Keeper, _: int) -> dict[str, Any]:
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
        state = k.new(rules, people, series=series, mode="final" if body.get("final_only") else "hands",
                      author=_opt_str(body, "author"))
        master = access.issue(k.store, KIND, str(state["session"]), ROLES)
        return {**state, "links": links(access.Grant(KIND, str(state["session"]), access.ORGANISER), master)}

    return _call(request, act)


@router.get("/api/keeper/sessions/{ref}")
async def get_session(request: Request, ref: str) -> Response:
    return _call(request, lambda k, sid: k.state(sid), ref)


@router.get("/api/keeper/sessions/{ref}/log")
async def get_log(request: Request, ref: str) -> Response:
    return _call(request, lambda k, sid: {"session": sid, "changes": k.log(sid)}, ref)


@router.post("/api/keeper/sessions/{ref}/entries")
async def add_entry(request: Request, ref: str) -> Response:
    """``{"entry": {...}, "client_id": ID?, "opened_version": N?, "expected_version": N?, "preview": bool?,
    "author": A?}``."""
    body = await _body(request)
    if isinstance(body, JSON):
        return body
    entry = entry_of(body)
    if isinstance(entry, JSON):
        return entry
    return _call(request, lambda k, sid: k.add(sid, entry, preview=bool(body.get("preview")), **_common(body),
                                               **_opened(body)), ref, write=True)


@router.post("/api/keeper/sessions/{ref}/entries/{hand_no}")
async def fix_entry(request: Request, ref: str, hand_no: int) -> Response:
    """Correct entry ``hand_no``: ``{"entry": {...}}``, or ``{"delete": true}``."""
    body = await _body(request)
    if isinstance(body, JSON):
        return body
    if not 1 <= hand_no <= MAX_INT:  # 10**30 reached SQLite and answered 500 (issue 23 item 7)
        return error_response(sentence("no entry {number}", code="not_found", number=hand_no), 404)
    entry = None if body.get("delete") is True else body.get("entry")
    if not (entry is None or isinstance(entry, dict)) or (entry is None and body.get("delete") is not True):
        return error_response(sentence("give the corrected 'entry' (an object), or 'delete': true", code="malformed"),
                              400)
    return _call(request, lambda k, sid: k.fix(sid, hand_no, entry, preview=bool(body.get("preview")),
                                               **_common(body), **_opened(body)), ref, write=True)


@router.post("/api/keeper/sessions/{ref}/undo")
async def undo(request: Request, ref: str) -> Response:
    """``{"change": N?, "preview": bool?}``: undo change N (default the last edit); a preview says what
    it would change and saves nothing. The state's ``undone`` names what was undone."""
    body = await _body(request)
    if isinstance(body, JSON):
        return body
    return _call(request, lambda k, sid: k.undo(sid, _opt_int(body, "change"), preview=bool(body.get("preview")),
                                                **_common(body)), ref, write=not body.get("preview"))


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


@router.get("/api/keeper/sessions/{ref}/export")
async def export(request: Request, ref: str, format: str = "json") -> Response:
    """The session as ``sanma table export`` writes it: ``?format=json`` (re-importable) or ``csv``."""
    def sid(store: Store) -> int:
        return session_of(store, ref)[0]

    return exported(request, format, lambda store: Keeper(store).export(sid(store)),
                    lambda store: Keeper(store).export_csv(sid(store)), "session.csv")


class Watch:
    """The kept sessions this process's live pages show, and the one look at the database that
    serves them all: one query for the versions of every watched session each ``POLL_SECONDS``
    (another process — a second server, ``sanma table`` — may have written), and at once after a
    write through this process (:meth:`changed`); a changed session's state is made once and sent
    to each of its pages, each in its own language (keeper.in_words). (Each page's socket used to
    ask for its session's version every 0.3 s itself: 100 phones were 330 queries a second.)"""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.pages: dict[int, set[asyncio.Queue[dict[str, Any]]]] = {}
        self.seen: dict[int, int] = {}  # each watched session's version when its state was last sent
        self.woken = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.queries = 0  # version look-ups made (for the tests)

    def join(self, session_id: int) -> asyncio.Queue[dict[str, Any]]:
        """A page's queue of states: the session's state now, then each newer one."""
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        q.put_nowait(Keeper(self.store).state(session_id))
        self.pages.setdefault(session_id, set()).add(q)
        self.seen.setdefault(session_id, versions(self.store, [session_id]).get(session_id, -1))
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        return q

    def leave(self, session_id: int, q: asyncio.Queue[dict[str, Any]]) -> None:
        pages = self.pages.get(session_id)
        if pages is not None:
            pages.discard(q)
            if not pages:
                del self.pages[session_id]
                self.seen.pop(session_id, None)

    def changed(self) -> None:
        """A session was written through this process: its pages are told now, not at the next look."""
        self.woken.set()

    async def _run(self) -> None:
        while self.pages:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), POLL_SECONDS)
            self.woken.clear()
            try:
                self.look()
            except StoreError:  # the database is away for a moment: the next look
                continue

    def look(self) -> None:
        """Send every watched session whose version moved its new state (one query for all)."""
        if not self.pages:
            return
        self.queries += 1
        now = versions(self.store, list(self.pages))
        for sid, version in now.items():
            if version != self.seen.get(sid) and sid in self.pages:
                self.seen[sid] = version
                state = Keeper(self.store).state(sid)
                for q in self.pages[sid]:
                    q.put_nowait(state)


def _watch(conn: Request | WebSocket, store: Store) -> Watch:
    """This application's :class:`Watch` (made on first use)."""
    state = conn.app.state
    watch = getattr(state, "keeper_watch", None)
    if watch is None or watch.store is not store:
        watch = state.keeper_watch = Watch(store)
    return watch


@router.websocket("/ws/keeper/{ref}")
async def live(ws: WebSocket, ref: str) -> None:
    """The session's state now, then again whenever its version changes (live updates for every
    device at the table)."""
    await socket(ws, lambda store: _follow(ws, store, ref))


async def socket(ws: WebSocket, follow: Callable[[Store], Any]) -> None:
    """A page's socket: accepted within the per-client cap of sockets (issue 23 item 7), then
    ``follow(store)`` on the server's connection; a database that cannot be opened is said, not a
    traceback."""
    await ws.accept()
    tables = getattr(ws.app.state, "tables", None)
    client = client_of(ws.client)
    if tables is not None and not tables.sockets.open(client):
        await ws.send_text(json.dumps(error_body(sentence("too many sockets open from one client: close some first",
                                                          code="too_many_sockets"))))
        await ws.close(code=4429)
        return
    try:
        with _store(ws) as store:
            await follow(store)
    except StoreError as e:
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(error_body(e)))
            await ws.close(code=1011)
    finally:
        if tables is not None:
            tables.sockets.close(client)


async def _follow(ws: WebSocket, store: Store, ref: str) -> None:
    try:
        session_id, _ = session_of(store, ref)
        watch = _watch(ws, store)
        states = watch.join(session_id)
    except SanmaError as e:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await ws.send_text(json.dumps(error_body(e)))
            await ws.close(code=4404)
        return
    lang = current_lang()  # the connection's (set when it opened)
    reader = asyncio.get_running_loop().create_task(_read_until_closed(ws))
    try:
        while True:
            nxt = asyncio.ensure_future(states.get())
            done, _ = await asyncio.wait({nxt, reader}, return_when=asyncio.FIRST_COMPLETED)
            if nxt not in done:
                nxt.cancel()
                return  # the page went away
            await ws.send_text(json.dumps(in_words(nxt.result(), lang)))  # ASCII: any stored text encodes
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        watch.leave(session_id, states)
        reader.cancel()


async def _read_until_closed(ws: WebSocket) -> None:
    """What a page sends on its socket is not read for anything: this waits for it to close."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await ws.receive_text()


async def push_changes(ws: WebSocket, store: Store, poll: float,
                       read: Callable[[Store], tuple[object, Callable[[], str]]]) -> None:
    """A page's live updates by looking every ``poll`` seconds (a tournament's pages: their state
    moves with the clock too): ``read`` gives a fingerprint of what the page shows and its text; the
    text is sent now and whenever the fingerprint changes (whoever changed it, in whatever
    process); an error is sent once and the socket closed."""
    try:
        seen: object = None
        while True:
            try:
                fingerprint, text = read(store)
            except StoreBusy:  # the database is away for a moment: the next look
                fingerprint, text = seen, str
            if fingerprint != seen:
                await ws.send_text(text())
                seen = fingerprint
            try:
                await asyncio.wait_for(ws.receive_text(), timeout=poll)
            except TimeoutError:
                continue
    except SanmaError as e:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await ws.send_text(json.dumps(error_body(e)))
            await ws.close(code=4404)
    except (WebSocketDisconnect, RuntimeError):
        pass
