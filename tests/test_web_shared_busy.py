"""A seat's move on a process that does not run its table is a notification to the runner (web/
shared.py). PostgreSQL serializes the commits that notify with one lock, held through each
commit's WAL flush: when a runner's write waits for a stalled disk, another process's bare
notification waits for that lock, and after the server's lock timeout it is refused. Issue 22:
a 3-process 200-table paced run with durable commits answered such a move "the server could not
handle this message". It is refused as a move that could not be stored is — said, the prompt
asked again — and nothing changes. The stall is made real: the cluster names a synchronous
standby that never comes, so a durable commit waits until it is cancelled."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

import pytest

from pg_cluster import Cluster
from sanma.store import open_db
from sanma.web.scheduler import ManualClock
from sanma.web.shared import Shared
from sanma.web.tables import SERVER_WAIT_MS, TableError, Tables
from web_helpers import attach

RULES = {"extends": "tenhou", "round_winds": "E"}


@pytest.fixture
def stalling(pg_cluster: Cluster) -> Iterator[str]:
    """A cluster of its own where a commit with synchronous_commit on never ends (it waits for
    the standby ``nobody``); the session's default stays off, so only the one that asks stalls."""
    cluster = Cluster.start({"synchronous_standby_names": "nobody"})
    try:
        yield cluster.create_database("busy")
    finally:
        cluster.stop()


def _stall(url: str) -> threading.Thread:
    """A write that notifies and whose commit waits for the disk (here: for ever): it holds the
    notification lock until it is cancelled."""
    import psycopg

    def run() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET synchronous_commit = on")
            # (cancelled, the wait ends with a warning: the commit itself was made)
            conn.execute("WITH w AS (UPDATE web_tables SET status = status) SELECT pg_notify('sanma_tables', '{}')")

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    with psycopg.connect(url, autocommit=True) as probe:  # until it waits for the standby
        deadline = time.monotonic() + 10
        while probe.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'").fetchone()[0] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    return thread


def _release(url: str, thread: threading.Thread) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")
    thread.join(10)


def test_a_move_whose_notification_waits_too_long_is_refused_and_asked_again(stalling: str) -> None:
    runner_store, follower_store = open_db(stalling), open_db(stalling)
    follower_store.wait_for_writes(SERVER_WAIT_MS)  # as a server waits
    runner = Tables(runner_store, ManualClock(), node=1)
    follower = Tables(follower_store, ManualClock(), node=2)
    shared = Shared(follower, stalling, 2)  # not started: no listener, no sweeps
    try:
        t, _ = runner.create({"rules": RULES, "seats": ["human", "efficient", "efficient"], "seed": 6,
                              "clock": {"move": 0, "call": 0, "think": 1, "result": 0}})
        followed = shared.follow(t.id)
        person = attach(followed, 0)
        prompt = next(m for m in person.sent.messages if m["type"] == "prompt")
        told = len(person.sent.log)
        stalled = _stall(stalling)
        try:
            person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": 0}))
            error, again = person.sent.messages[told:]
            assert error["type"] == "error" and error["code"] == "not_stored" and "try again" in error["message"]
            assert again == prompt  # the same prompt: answer it again
            assert shared.pending.get(t.id, {}) == {}  # nothing waits to be sent again
            with pytest.raises(TableError):  # a toggle: refused by the socket's handler (ws._serve: "refused")
                person.handle(json.dumps({"type": "toggle", "name": "auto_win", "value": True}))
            assert followed.toggles[0]["auto_win"] is False  # not sent, not changed here either
        finally:
            _release(stalling, stalled)
        person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": 0}))
        assert shared.pending[t.id][0]["p"] == prompt["prompt"]  # sent to the runner this time
    finally:
        follower.close()
        runner.close()
        runner_store.close()
        follower_store.close()
