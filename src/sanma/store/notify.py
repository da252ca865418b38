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
    own writes, which it need not hear of — one wake-up of the event loop less per write)."""

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

    def start(self, timeout: float = 30.0) -> None:
        """Start listening; returns once the channels are listened to (or raises StoreError)."""
        self._thread.start()
        if not self._ready.wait(timeout):
            self.stop()
            raise StoreError(at(display(self.url), sentence("cannot listen for notifications")))

    def _connect(self) -> Any:
        import psycopg
        import psycopg.sql

        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10, application_name="sanma-listen")
        for channel in self.channels:
            conn.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(channel)))
        return conn

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
                self._safe(self.on_gap)
            try:
                while not self._stop.is_set():
                    for n in self._conn.notifies(timeout=0.5):
                        if self.skip is None or not self.skip(n.channel, n.pid):
                            self._deliver(n.channel, n.payload)
            except psycopg.Error as e:
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
        if self._thread.is_alive():
            self._thread.join(5)
