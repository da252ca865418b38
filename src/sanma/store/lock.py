"""One ``sanma serve`` per SQLite file (issue 22 item 4).

A server holds its tables in memory and writes every action to the database; a second server on
the same file would run the same tables too, and the two would overwrite each other's games (an
``IntegrityError`` on the action index, a dropped socket). So a server takes an exclusive lock
before it opens the database, and a second server is refused with a message naming the first.

The lock is ``flock`` on a file beside the database (``sanma.sqlite.lock``, holding who has it):
the kernel releases it when the process ends in any way, ``kill -9`` included, so a crashed
server never blocks the next start. Only servers take it: ``sanma table``, ``stats``, ``replay``,
``verify`` and every other command still read and write the file while a server runs (SQLite's
own locking keeps those writes whole). An in-memory database needs no lock.

On PostgreSQL any number of servers share the database, and the lock is each process's own: a
random key (``web_tables.runner`` of the tables it runs) held as a session advisory lock on a
connection of its own, with TCP keepalives of a few seconds. PostgreSQL frees it when that
connection ends — the process exited, was killed (``kill -9``: the kernel closes its socket at
once) or its machine vanished (the keepalives fail) — which is how the other processes see that
its tables need a new runner (:func:`sanma.store.tables.orphans`).
"""

from __future__ import annotations

import json
import os
import secrets
import socket
from datetime import UTC, datetime
from typing import IO, Any

from ..i18n import Message, sentence
from .backend import Connection, PostgresConnection, StoreError, is_url

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

    def __init__(self, path: str, handle: IO[str] | None, conn: Connection | None = None,
                 node: int | None = None) -> None:
        self.path = path
        self._handle = handle
        self._conn = conn
        self.node = node  # PostgreSQL: this process's key (web_tables.runner of the tables it runs)

    @property
    def held(self) -> bool:
        return self._handle is not None or self._conn is not None

    def keep(self) -> bool:
        """PostgreSQL: hold this process's key again if its connection was lost (PostgreSQL
        restarted, or dropped the session) — else the other processes would take every table this
        one runs, at each of their sweeps. True when the key is held (one query when it is)."""
        from .tables import NODE_CLASS

        conn = self._conn
        if conn is None or self.node is None:
            return True
        try:
            conn.execute("SELECT 1")
            return True
        except StoreError:
            pass  # lost: the next statement connects again
        try:
            conn.script(_KEEPALIVES)
            return bool(conn.execute("SELECT pg_try_advisory_lock(?, ?)", (NODE_CLASS, self.node)).fetchone()[0])
        except StoreError:
            return False  # the database is still away: tried again at the next sweep

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
        raise StoreError(sentence("{path}: cannot create the server's lock file: {why}", path=path,
                                  why=e.strerror or str(e))) from None
    handle = os.fdopen(fd, "r+", encoding="utf-8")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        who = _holder(handle)
        handle.close()
        parts = [sentence("pid {pid}", pid=who["pid"]) if "pid" in who else "",
                 sentence("on {host}", host=who["host"]) if "host" in who else "", str(who.get("serving", "")),
                 sentence("since {since}", since=who["since"]) if "since" in who else ""]
        listed: Message | str = ""
        for part in (p for p in parts if p):
            listed = sentence("{first}, {then}", first=listed, then=part) if listed else part
        raise ServerLocked(sentence(
            "{db} is already served by another sanma serve{where}: two servers on one SQLite file would overwrite "
            "each other's games. Stop that server, give this one another --db, or serve from PostgreSQL to run "
            "several processes (docs/DEPLOY.md)", code="server_locked", db=db,
            where=sentence(" ({who})", who=listed) if listed else "")) from None
    handle.seek(0)
    handle.truncate()
    handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "serving": serving,
                             "since": datetime.now(UTC).isoformat(timespec="seconds")}))
    handle.flush()
    return ServerLock(path, handle)


#: A process whose machine vanishes (no FIN) is noticed by the server within seconds, not hours.
_KEEPALIVES = "SET tcp_keepalives_idle = 2; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 2"


def _pg_lock(url: str) -> ServerLock:
    """A server process's key on a PostgreSQL database (see :class:`ServerLock`)."""
    from .db import open_db
    from .tables import NODE_CLASS

    open_db(url).close()  # created and migrated: the key is checked against its tables
    conn = PostgresConnection(url)
    try:
        conn.script(_KEEPALIVES)
        while True:
            key = secrets.randbelow(2**31 - 2) + 1
            if conn.execute("SELECT 1 FROM web_tables WHERE runner = ? AND finished = 0 LIMIT 1",
                            (key,)).fetchone() is not None:
                continue  # a dead process's key that still names tables: those are for the others to claim
            if conn.execute("SELECT pg_try_advisory_lock(?, ?)", (NODE_CLASS, key)).fetchone()[0]:
                return ServerLock(conn.target, None, conn, key)
    except BaseException:
        conn.close()
        raise
