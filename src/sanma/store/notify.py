"""PostgreSQL's ``LISTEN`` / ``NOTIFY`` as the message bus between server processes.

A write that others must hear of sends a notification in its own transaction
(:func:`notify`: delivered when, and only if, the transaction commits). Each process listens on a
connection of its own in a thread (:class:`Listener`), which hands every notification to a
callback; when that connection is lost it reconnects and calls ``on_gap`` — notifications sent
meanwhile are gone, so whoever listens reads again what it follows from the database (the
notification is a hint, the database is the truth).

>>> Listener.__doc__.split(".")[0]
'Listens on ``channels`` over a connection of its own, in a daemon thread'
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..i18n import sentence
from .backend import StoreError, at, display
from .db import Store

log = logging.getLogger("sanma.store")
MAX_PAYLOAD = 7900  # bytes: PostgreSQL's limit is 8000


def notify(store: Store, channel: str, payload: str) -> None:
    """Send ``payload`` on ``channel`` when the current transaction commits (at once outside one).
    Nothing on SQLite, where one process is all there is."""
    if store.dialect != "postgresql":
        return
    if len(payload.encode()) > MAX_PAYLOAD:
        raise StoreError(sentence("notification of {n} bytes is over {limit}", n=len(payload.encode()),
                                  limit=MAX_PAYLOAD))
    store.conn.execute("SELECT pg_notify(?, ?)", (channel, payload))


class Listener:
    """Listens on ``channels`` over a connection of its own, in a daemon thread. ``deliver(channel,
    payload)`` and ``on_gap()`` are called in that thread; ``skip(channel, pid)``, if given, first:
    True drops the notification there (``pid``: the sending session's backend, e.g. this process's
    own writes, which it need not hear of — one wake-up of the event loop less per write).
    :meth:`listen` and :meth:`unlisten` add and drop channels while it runs, from any thread."""

    def __init__(self, url: str, channels: Sequence[str], deliver: Callable[[str, str], None],
                 on_gap: Callable[[], None] = lambda: None, *, retry_seconds: float = 0.5,
                 skip: Callable[[str, int], bool] | None = None) -> None:
        self.url = url
        self.channels = tuple(channels)
        self.deliver = deliver
        self.on_gap = on_gap
        self.skip = skip
        self.retry_seconds = retry_seconds
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._conn: Any = None
        self._thread = threading.Thread(target=self._run, name="sanma-listen", daemon=True)
        self._lock = threading.Lock()
        self._extra: set[str] = set()  # the channels added by listen(), listened to again after a reconnect
        self._changes: list[tuple[str, bool, Callable[[], None] | None]] = []  # (channel, listen?, then)
        self._wake_r, self._wake_w = os.pipe()  # a byte here wakes the thread for _changes
        os.set_blocking(self._wake_w, False)

    def start(self, timeout: float = 30.0) -> None:
        """Start listening; returns once the channels are listened to (or raises StoreError)."""
        self._thread.start()
        if not self._ready.wait(timeout):
            self.stop()
            raise StoreError(at(display(self.url), sentence("cannot listen for notifications")))

    def listen(self, channel: str, then: Callable[[], None] | None = None) -> None:
        """Listen on ``channel`` too; ``then()`` is called in the listener's thread once PostgreSQL
        listens to it for this process (whatever was committed on it before that moment was not
        heard: read it from the database then). Listened to again after a reconnect."""
        self._change(channel, True, then)

    def unlisten(self, channel: str) -> None:
        """Stop listening on a channel that :meth:`listen` added."""
        self._change(channel, False, None)

    def _change(self, channel: str, on: bool, then: Callable[[], None] | None) -> None:
        with self._lock:
            (self._extra.add if on else self._extra.discard)(channel)
            self._changes.append((channel, on, then))
        with contextlib.suppress(BlockingIOError):  # (a full pipe: a wake-up is pending anyway)
            os.write(self._wake_w, b"x")

    def _connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10, application_name="sanma-listen")
        with self._lock:
            channels, self._changes = [*self.channels, *sorted(self._extra)], []
        for channel in channels:
            conn.execute(_statement("LISTEN", channel))
        return conn

    def _apply(self, conn: Any) -> None:
        """The channels added and dropped since the last look, in this thread (which owns the connection)."""
        with self._lock:
            changes, self._changes = self._changes, []
        for channel, on, then in changes:
            conn.execute(_statement("LISTEN" if on else "UNLISTEN", channel))
            if then is not None:
                self._safe(then)

    def _run(self) -> None:
        import psycopg

        first = True
        while not self._stop.is_set():
            try:
                self._conn = self._connect()
            except psycopg.Error as e:
                log.warning("listen: cannot connect to %s: %s", display(self.url), e)
                self._stop.wait(self.retry_seconds)
                continue
            if first:
                self._ready.set()
                first = False
            else:
                self._safe(self.on_gap)  # (every channel is listened to again: the gap covers those added)
            try:
                waiting = select.poll()  # (not select(): a served process's descriptors pass 1,024)
                waiting.register(self._conn.fileno(), select.POLLIN)
                waiting.register(self._wake_r, select.POLLIN)
                while not self._stop.is_set():
                    self._apply(self._conn)
                    for n in self._conn.notifies(timeout=0):  # (those read meanwhile, then the socket's)
                        if self.skip is None or not self.skip(n.channel, n.pid):
                            self._deliver(n.channel, n.payload)
                    if any(fd == self._wake_r for fd, _ in waiting.poll(500)):
                        os.read(self._wake_r, 4096)
            except (psycopg.Error, OSError) as e:
                if not self._stop.is_set():
                    log.warning("listen: connection lost (%s); reconnecting", e)
            finally:
                conn, self._conn = self._conn, None
                if conn is not None:
                    with contextlib.suppress(psycopg.Error):
                        conn.close()
            if not self._stop.is_set():
                time.sleep(self.retry_seconds)

    def _deliver(self, channel: str, payload: str) -> None:
        try:
            self.deliver(channel, payload)
        except Exception:  # pragma: no cover - a consumer's bug must not end listening
            log.exception("listen: a notification's consumer failed")

    @staticmethod
    def _safe(call: Callable[[], None]) -> None:
        try:
            call()
        except Exception:  # pragma: no cover - a consumer's bug must not end listening
            log.exception("listen: a notification's consumer failed")

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        if self._thread.is_alive():
            self._thread.join(5)
        if not self._thread.is_alive():
            for fd in (self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(fd)


def _statement(verb: str, channel: str) -> Any:
    import psycopg.sql

    return psycopg.sql.SQL(verb + " {}").format(psycopg.sql.Identifier(channel))
