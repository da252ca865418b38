"""One ``sanma serve`` per SQLite file (issue 22 item 4).

A server holds its tables in memory and writes every action to the database; a second server on
the same file would run the same tables too, and the two would overwrite each other's games (an
``IntegrityError`` on the action index, a dropped socket). So a server takes an exclusive lock
before it opens the database, and a second server is refused with a message naming the first.

The lock is ``flock`` on a file beside the database (``sanma.sqlite.lock``, holding who has it):
the kernel releases it when the process ends in any way, ``kill -9`` included, so a crashed
server never blocks the next start. Only servers take it: ``sanma table``, ``stats``, ``replay``,
``verify`` and every other command still read and write the file while a server runs (SQLite's
own locking keeps those writes whole). An in-memory database needs no lock. On PostgreSQL the
server holds a session-level advisory lock on a connection of its own instead (freed when that
connection ends, as it does when the process dies) until several processes can share the tables.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import UTC, datetime
from typing import IO, Any

from .backend import MIGRATION_LOCK, Connection, PostgresConnection, StoreError, is_url

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock (documented in docs/DEPLOY.md)
    fcntl = None  # type: ignore[assignment]


class ServerLocked(StoreError):
    """Another server already serves this database."""


def lock_path(db: str) -> str:
    """The lock file of a SQLite database: the database's path with ``.lock`` appended."""
    return f"{db}.lock"


class ServerLock:
    """Held while a server serves a SQLite file; :meth:`release` (or the process's end) frees it."""

    def __init__(self, path: str, handle: IO[str] | None, conn: Connection | None = None) -> None:
        self.path = path
        self._handle = handle
        self._conn = conn

    @property
    def held(self) -> bool:
        return self._handle is not None or self._conn is not None

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing the last descriptor releases the flock
            self._handle = None
        if self._conn is not None:
            self._conn.close()  # the session's advisory lock ends with it
            self._conn = None

    def __enter__(self) -> ServerLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(handle: IO[str]) -> dict[str, Any]:
    try:
        handle.seek(0)
        value = json.loads(handle.read(4096) or "{}")
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def acquire_server_lock(db: str, serving: str = "") -> ServerLock:
    """The server's lock on the SQLite file ``db`` (``serving``: where this server answers, for the
    message another server is given); :class:`ServerLocked` when another server holds it."""
    if is_url(db):
        return _pg_lock(db)
    if db == ":memory:" or fcntl is None:
        return ServerLock(db, None)
    path = lock_path(db)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise StoreError(f"{path}: cannot create the server's lock file: {e.strerror or e}") from None
    handle = os.fdopen(fd, "r+", encoding="utf-8")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        who = _holder(handle)
        handle.close()
        where = ", ".join(str(x) for x in (
            f"pid {who['pid']}" if "pid" in who else "", f"on {who['host']}" if "host" in who else "",
            who.get("serving", ""), f"since {who['since']}" if "since" in who else "") if x)
        raise ServerLocked(
            f"{db} is already served by another sanma serve{f' ({where})' if where else ''}: two servers on one "
            "SQLite file would overwrite each other's games. Stop that server, give this one another --db, "
            "or serve from PostgreSQL to run several processes (docs/DEPLOY.md)") from None
    handle.seek(0)
    handle.truncate()
    handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "serving": serving,
                             "since": datetime.now(UTC).isoformat(timespec="seconds")}))
    handle.flush()
    return ServerLock(path, handle)


SERVE_LOCK = MIGRATION_LOCK + 1  # the advisory lock key of "a server runs on this database"


def _pg_lock(url: str) -> ServerLock:
    conn = PostgresConnection(url)
    try:
        got = conn.execute("SELECT pg_try_advisory_lock(?)", (SERVE_LOCK,)).fetchone()[0]
    except BaseException:
        conn.close()
        raise
    if not got:
        conn.close()
        raise ServerLocked(f"{conn.target} is already served by another sanma serve: this version runs one server "
                           "process per database")
    return ServerLock(conn.target, None, conn)
