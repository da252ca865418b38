"""The score keeper's tables: sessions and their append-only change logs (migration 2).

Every write is one ``BEGIN IMMEDIATE`` transaction that reads the session's version, compares it
with the writer's expected version (when given), lets the caller check the new log (the
keeper recomputes the whole session from it) and only then appends the change and bumps the
version. Two writers therefore never both append against the same version: the second waits
for the first and then sees a newer version (refused when it expected the older one), and a
change sent twice with the same client id is stored once.

>>> from sanma.store import open_db
>>> store = open_db(":memory:")
>>> sid = create_session(store, rules_name="club", rules_json="{}", people=["A", "B", "C"], mode="hands")
>>> r = append_change(store, sid, "add", None, {"kind": "draw"}, client_id="x1")
>>> again = append_change(store, sid, "add", None, {"kind": "draw"}, client_id="x1")
>>> r.seq, r.version, again.seq, again.duplicate, session(store, sid).version
(1, 1, 1, True, 1)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ..i18n import Message, sentence
from ..keeper.log import Change, ChangeKind
from .backend import DatabaseError, StoreBusy, StoreError, after
from .db import Store, _json, _now

MAX_TEXT = 2000  # characters of an author, a reason or a client id


class VersionConflict(StoreError):
    """The session changed since the writer read it (expected-version check)."""

    code_of_class = "keeper.version"


class NotFound(StoreError):
    """No kept session (or tournament) of that id: a 404 on the web."""

    code_of_class = "not_found"


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: int
    series: str | None
    rules_name: str
    rules_json: str
    people: tuple[str, ...]
    mode: str
    version: int
    created_at: str
    games_limit: int | None = None  # a tournament table keeps one game (migration 8)


@dataclass(frozen=True, slots=True)
class Appended:
    """The outcome of a write: the change's seq, the session's version after it, and whether the
    same client id was already stored (then nothing was written)."""

    seq: int
    version: int
    duplicate: bool


def _text(value: str, what: Message) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or "\x00" in value:
        raise StoreError(sentence("{what} must be text of at most {limit} characters without NUL", what=what,
                                  limit=MAX_TEXT))
    return value


def create_session(store: Store, *, rules_name: str, rules_json: str, people: Sequence[str], mode: str,
                   series: str | None = None, games_limit: int | None = None) -> int:
    """A new session; returns its id. ``games_limit``: how many games it keeps (None: any)."""
    if mode not in ("hands", "final"):
        raise StoreError(sentence("entry mode {mode!r}: use 'hands' or 'final'", mode=mode))
    if series is not None:
        _text(series, sentence("series name"))
    with store._writing(sentence("session")):
        return store.conn.insert_id(
            "INSERT INTO keeper_sessions (series, rules_name, rules_json, people, mode, version, created_at, "
            "games_limit) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
            (series, rules_name, rules_json, _json(list(people), "people"), mode, _now(), games_limit))


def _row(r: Sequence[Any]) -> SessionRow:
    return SessionRow(int(r[0]), r[1], r[2], r[3], tuple(json.loads(r[4])), r[5], int(r[6]), r[7],
                      None if r[8] is None else int(r[8]))


_COLUMNS = "id, series, rules_name, rules_json, people, mode, version, created_at, games_limit"


def session(store: Store, session_id: int, *, lock: bool = False) -> SessionRow:
    """The session's row; :class:`StoreError` naming the id when there is none. ``lock`` (inside a
    transaction): other writers of the session wait until it ends (PostgreSQL's row lock; SQLite's
    write transaction already excludes them)."""
    locked = store.conn.for_update if lock else ""
    r = store.conn.execute(f"SELECT {_COLUMNS} FROM keeper_sessions WHERE id = ?{locked}", (session_id,)).fetchone()
    if r is None:
        raise NotFound(sentence("{db}: no kept session {id}", db=store.path, id=session_id))
    return _row(r)


def versions(store: Store, session_ids: Sequence[int]) -> dict[int, int]:
    """Each named session's version (one query for all: what a server's live pages watch)."""
    if not session_ids:
        return {}
    clause, args = store.ids_in("id", session_ids)
    return {int(r[0]): int(r[1]) for r in store.conn.execute(
        f"SELECT id, version FROM keeper_sessions WHERE {clause}", args)}


def sessions(store: Store, series: str | None = None) -> list[SessionRow]:
    """Every session (of one series, when named), oldest first."""
    if series is None:
        rows = store.conn.execute(f"SELECT {_COLUMNS} FROM keeper_sessions ORDER BY id").fetchall()
    else:
        rows = store.conn.execute(f"SELECT {_COLUMNS} FROM keeper_sessions WHERE series = ? ORDER BY id",
                                  (series,)).fetchall()
    return [_row(r) for r in rows]


def changes(store: Store, session_id: int) -> list[Change]:
    """The session's whole log, in order."""
    rows = store.conn.execute(
        "SELECT seq, kind, target, entry, author, reason, created_at, client_id FROM keeper_changes "
        "WHERE session_id = ? ORDER BY seq", (session_id,)).fetchall()
    return [Change(int(r[0]), cast(ChangeKind, r[1]), r[2], None if r[3] is None else json.loads(r[3]),
                   r[4], r[5], r[6], r[7]) for r in rows]


def append_change(store: Store, session_id: int, kind: ChangeKind, target: int | None,
                  entry: Mapping[str, Any] | None, *, author: str = "", reason: str = "",
                  client_id: str | None = None, expected_version: int | None = None,
                  check: Callable[[list[Change]], None] | None = None,
                  same_entry: Callable[[Any, Any], bool] | None = None) -> Appended:
    """Append one change in one transaction.

    ``check`` receives the log with the new change appended and raises (a ``SanmaError``) to
    refuse it; nothing is written then. A ``client_id`` already stored for this session with the
    same change returns that change (``duplicate``); with a different change it is an error.
    ``same_entry`` says whether two entries are one (the keeper's reading: a page and the CLI
    write the same draw with and without its empty lists); default: equal JSON.
    """
    _text(author, sentence("author"))
    _text(reason, sentence("reason"))
    if client_id is not None:
        _text(client_id, sentence("client id"))
    entry_json = None if entry is None else _json(dict(entry), "entry")
    try:
        with store.transaction():
            row = session(store, session_id, lock=True)  # the version read is the one the write follows
            if client_id is not None:
                old = store.conn.execute(
                    "SELECT seq, kind, target, entry FROM keeper_changes WHERE session_id = ? AND client_id = ?",
                    (session_id, client_id)).fetchone()
                if old is not None:
                    before = None if old[3] is None else json.loads(old[3])
                    now = None if entry_json is None else json.loads(entry_json)
                    same = (old[1], old[2]) == (kind, target) and (
                        before == now or (same_entry is not None and same_entry(before, now)))
                    if not same:
                        raise StoreError(sentence("client id {client!r} was already used for another change (change "
                                                  "{change}) in session {id}", client=client_id, change=old[0],
                                                  id=session_id))
                    return Appended(int(old[0]), row.version, True)
            if expected_version is not None and expected_version != row.version:
                raise VersionConflict(sentence("session {id} is at version {version}, not the expected {expected}: "
                                               "someone else changed it; reload and retry", id=session_id,
                                               version=row.version, expected=expected_version))
            log = changes(store, session_id)
            seq = log[-1].seq + 1 if log else 1
            at = _now()
            new = Change(seq, kind, target, None if entry_json is None else json.loads(entry_json), author, reason,
                         at, client_id)
            if check is not None:
                check([*log, new])
            store.conn.execute(
                "INSERT INTO keeper_changes (session_id, seq, kind, target, entry, author, reason, client_id, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session_id, seq, kind, target, entry_json, author, reason, client_id, at))
            store.conn.execute("UPDATE keeper_sessions SET version = version + 1 WHERE id = ?", (session_id,))
            return Appended(seq, row.version + 1, False)
    except DatabaseError as e:  # a busy database stays StoreBusy: the server answers 503, try again
        raise (StoreBusy if isinstance(e, StoreBusy) else StoreError)(sentence(
            "{db}: change to session {id} not saved: {why}", code=e.code, db=store.path, id=session_id,
            why=after(e, store.path))) from None


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A complete stored game as standings count it: per seat (name, score, placement, points,
    chips); ``web`` when it was played at sanma's browser table (``sanma serve``)."""

    id: int
    kind: str
    rules_name: str
    web: bool
    seats: tuple[tuple[str, int, int, float, int], ...]


def stored_games(store: Store, *, web_only: bool = False) -> list[StoredGame]:
    """Every stored game with a full result for its three seats, oldest first (``web_only``: only
    those played at the browser table, web_tables.game_id). Names are the store's canonical ones."""
    where = "WHERE g.id IN (SELECT game_id FROM web_tables WHERE finished = 1)" if web_only else ""
    games = store.conn.execute(
        "SELECT g.id, g.kind, g.rules_name, g.id IN (SELECT game_id FROM web_tables WHERE game_id IS NOT NULL) "
        f"FROM games g {where} ORDER BY COALESCE(g.played_at, g.created_at), g.id").fetchall()
    seats: dict[int, list[tuple[str, int, int, float, int]]] = {}
    for r in store.conn.execute(
            "SELECT r.game_id, p.name, r.score, r.placement, r.points, r.chips FROM results r "
            "JOIN players p ON p.id = r.player_id ORDER BY r.game_id, r.seat"):
        if r[2] is None or r[3] is None or r[4] is None:
            seats.setdefault(int(r[0]), []).append(("", 0, 0, 0.0, 0))  # incomplete: not counted
            continue
        seats.setdefault(int(r[0]), []).append((str(r[1]), int(r[2]), int(r[3]), float(r[4]), int(r[5] or 0)))
    out = []
    for gid, kind, rules_name, web in games:
        s = seats.get(int(gid), [])
        if len(s) == 3 and all(x[0] and x[2] for x in s):
            out.append(StoredGame(int(gid), str(kind), str(rules_name), bool(web), tuple(s)))
    return out


@dataclass(frozen=True, slots=True)
class CacheRow:
    """The keeper's derived-state cache of one session (migration 4): the state after the first
    ``prefix_len`` entries in force, valid while those entries hash to ``prefix_hash``."""

    version: int
    prefix_len: int
    prefix_hash: str
    snapshot: str


def cached(store: Store, session_id: int) -> CacheRow | None:
    """The session's cache row, if any (a damaged or foreign row reads as none)."""
    try:
        with store.savepoint():
            r = store.conn.execute("SELECT version, prefix_len, prefix_hash, snapshot FROM keeper_cache "
                                   "WHERE session_id = ?", (session_id,)).fetchone()
    except DatabaseError:
        return None
    if r is None or not all(isinstance(x, t) for x, t in zip(r, (int, int, str, str), strict=True)):
        return None
    return CacheRow(*r)


def save_cache(store: Store, session_id: int, row: CacheRow) -> None:
    """Store the session's cache row unless a newer version's row is already there. The cache is
    advisory: a failure to write it is ignored (the next read recomputes)."""
    try:
        with store.transaction():
            store.conn.execute(
                "INSERT INTO keeper_cache (session_id, version, prefix_len, prefix_hash, snapshot) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, "
                "prefix_len = excluded.prefix_len, prefix_hash = excluded.prefix_hash, snapshot = excluded.snapshot "
                "WHERE excluded.version >= keeper_cache.version",
                (session_id, row.version, row.prefix_len, row.prefix_hash, row.snapshot))
    except DatabaseError:
        pass


def backup(store: Store, out: str) -> None:
    """A consistent copy of the live database in a new SQLite file at ``out`` (of a SQLite
    database, sqlite3's online backup API: pages copied under a read lock, so a writer in another
    process never leaves it half-written; of a PostgreSQL one, :func:`sanma.store.copy.copy_database`
    from one snapshot)."""
    from pathlib import Path

    if Path(out).exists():
        raise StoreError(sentence("{path}: already exists; a backup never overwrites a file", path=str(out)))
    if store.dialect == "sqlite":
        store.conn.backup_to(out)
        return
    from .copy import copy_database
    from .db import open_db

    try:
        with open_db(out) as dest:
            copy_database(store, dest)
    except BaseException:
        Path(out).unlink(missing_ok=True)
        raise
