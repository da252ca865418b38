"""The message bus of several server processes (issue 22 item 2): a notification sent in a
transaction is heard by every listener when it commits, never when it rolls back, and a listener
whose connection was cut reconnects and says it may have missed some (on_gap)."""

from __future__ import annotations

import queue
import time

import pytest

from pg_cluster import Cluster
from sanma.store import open_db
from sanma.store.notify import Listener, notify


def _heard(q: queue.Queue[tuple[str, str]], n: int, timeout: float = 10.0) -> list[tuple[str, str]]:
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n:
        out.append(q.get(timeout=max(0.01, deadline - time.monotonic())))
    return out


def test_notifications_arrive_on_commit_only(pg_database: str) -> None:
    q: queue.Queue[tuple[str, str]] = queue.Queue()
    listener = Listener(pg_database, ["sanma_t"], lambda c, p: q.put((c, p)))
    listener.start()
    try:
        with open_db(pg_database) as s:
            with pytest.raises(RuntimeError), s.transaction():
                notify(s, "sanma_t", "rolled back")
                raise RuntimeError("abandon")
            with s.transaction():
                notify(s, "sanma_t", "one")
                notify(s, "sanma_t", "two")
            notify(s, "sanma_t", "three")  # outside a transaction: at once
        assert _heard(q, 3) == [("sanma_t", "one"), ("sanma_t", "two"), ("sanma_t", "three")]
        assert q.empty()
    finally:
        listener.stop()


def test_a_listener_whose_connection_is_cut_reconnects_and_reports_the_gap(pg_cluster: Cluster,
                                                                          pg_database: str) -> None:
    q: queue.Queue[tuple[str, str]] = queue.Queue()
    gaps: queue.Queue[bool] = queue.Queue()
    listener = Listener(pg_database, ["sanma_t"], lambda c, p: q.put((c, p)), lambda: gaps.put(True),
                        retry_seconds=0.05)
    listener.start()
    try:
        name = pg_database.rsplit("/", 1)[1]
        pg_cluster.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       f"WHERE application_name = 'sanma-listen' AND datname = '{name}'")
        assert gaps.get(timeout=10)
        with open_db(pg_database) as s:
            notify(s, "sanma_t", "after")
        assert _heard(q, 1) == [("sanma_t", "after")]
    finally:
        listener.stop()


def test_notify_is_nothing_on_sqlite() -> None:
    with open_db(":memory:") as s:
        notify(s, "sanma_t", "x")  # one process: nobody else to tell


def test_a_listener_drops_what_skip_names_in_its_thread(pg_database: str) -> None:
    """A server process does not hear its own table changes (``skip``: the sender's backend is its
    store's session); another session's, and its own on another channel, are heard, in order."""
    q: queue.Queue[tuple[str, str]] = queue.Queue()
    with open_db(pg_database) as own, open_db(pg_database) as other:
        pid = own.conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        assert own.conn.session_pid == pid != other.conn.session_pid
        listener = Listener(pg_database, ["sanma_t", "sanma_u"], lambda c, p: q.put((c, p)),
                            skip=lambda c, p: c == "sanma_t" and p == own.conn.session_pid)
        listener.start()
        try:
            notify(own, "sanma_t", "mine")
            notify(own, "sanma_u", "a request")
            notify(other, "sanma_t", "theirs")
            # delivered in commit order: "mine" would have come first
            assert _heard(q, 2) == [("sanma_u", "a request"), ("sanma_t", "theirs")]
            assert q.empty()
        finally:
            listener.stop()


def test_a_served_process_does_not_hear_the_moves_its_writer_sent(pg_database: str) -> None:
    """The moves are written on the writer's own connections (``store.tables.MoveWriter``: the moves', the durable
    statements'): their
    notifications carry that session, and the served process drops them in the listener's thread as
    it drops its store's (issue 22: each was handed to the loop, parsed there and ignored)."""
    import asyncio

    from sanma.store import tables as stored
    from sanma.web.scheduler import ManualClock
    from sanma.web.shared import Shared
    from sanma.web.tables import Tables

    q: queue.Queue[tuple[str, str]] = queue.Queue()
    with open_db(pg_database) as store, open_db(pg_database) as other:
        writer = stored.MoveWriter(store, lock_ms=5000)
        shared = Shared(Tables(store, ManualClock(), node=1, writer=writer), pg_database, 1)  # not started
        channel = stored.table_channel("t1")
        listener = Listener(pg_database, [channel], lambda c, p: q.put((c, p)), skip=shared._own)
        listener.start()

        async def written() -> None:
            answers: list[object] = []
            writer.pipeline.send("SELECT pg_notify(?, ?)", [channel, "my move"], answers.append)
            writer.durable.send("SELECT pg_notify(?, ?)", [channel, "my game's end"], answers.append)
            await writer.drain()
            pids = {writer.pipeline.session_pid, writer.durable.session_pid}
            assert answers == [1, 1] and len(pids) == 2 and not pids & {None, store.conn.session_pid}
            assert all(map(writer.sent_by, pids)) and not writer.sent_by(store.conn.session_pid)

        try:
            asyncio.run(written())
            notify(other, channel, "theirs")
            assert _heard(q, 1) == [(channel, "theirs")]  # in commit order: "my move" would have come first
            assert q.empty()
        finally:
            listener.stop()
            writer.close()


def test_a_sqlite_connection_has_no_session_pid() -> None:
    with open_db(":memory:") as s:
        assert s.conn.session_pid is None
