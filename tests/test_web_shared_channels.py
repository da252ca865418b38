"""Each table's moves on a channel of their own (issue 22, web/shared.py): a server process is woken
only by the moves of the tables it follows — not by its own, not by those of tables nobody on it
watches. One channel for every table woke every process's listener thread at every move of every
table, its own included (dropped there), and each wake-up took the interpreter's lock from the
event loop: at 1,000 paced tables on one process the median move waited 60 ms for it (docs/
PERFORMANCE.md, "Each table's moves on their own channel")."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from sanma.store import open_db
from sanma.store import tables as stored
from sanma.store.notify import Listener, notify
from sanma.web.scheduler import ManualClock
from sanma.web.shared import Shared, node_channel
from sanma.web.tables import Table, Tables
from sanma.web.ws import leave
from web_helpers import attach

RULES = {"extends": "tenhou", "round_winds": "E"}
CLOCK = {"move": 0, "call": 0, "think": 1, "result": 0}


def _until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.01)


def test_a_listener_adds_and_drops_channels_while_it_runs(pg_database: str) -> None:
    """``listen`` says when PostgreSQL listens (``then``), ``unlisten`` stops it, and the channels
    added are listened to again after the connection was lost."""
    heard: queue.Queue[tuple[str, str]] = queue.Queue()
    gaps: queue.Queue[bool] = queue.Queue()
    listening = threading.Event()
    listener = Listener(pg_database, ["sanma_base"], lambda c, p: heard.put((c, p)), lambda: gaps.put(True),
                        retry_seconds=0.05)
    listener.start()
    try:
        with open_db(pg_database) as s:
            notify(s, "sanma_t_x", "before")  # nobody listens on it yet: never heard
            listener.listen("sanma_t_x", listening.set)
            assert listening.wait(10)
            notify(s, "sanma_t_x", "one")
            notify(s, "sanma_base", "two")
            assert [heard.get(timeout=10) for _ in range(2)] == [("sanma_t_x", "one"), ("sanma_base", "two")]
            name = pg_database.rsplit("/", 1)[1]
            s.conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           f"WHERE application_name = 'sanma-listen' AND datname = '{name}'")
            assert gaps.get(timeout=10)
            notify(s, "sanma_t_x", "after the gap")  # listened to again
            assert heard.get(timeout=10) == ("sanma_t_x", "after the gap")
            listener.unlisten("sanma_t_x")
            listening.clear()
            listener.listen("sanma_t_y", listening.set)  # (applied in order: the unlisten first)
            assert listening.wait(10)
            notify(s, "sanma_t_x", "dropped")
            notify(s, "sanma_t_y", "three")
            assert heard.get(timeout=10) == ("sanma_t_y", "three")  # in commit order: "dropped" would be first
            assert heard.empty()
    finally:
        listener.stop()


def _move(table: Table) -> None:
    """A seat with a prompt answers it as a page does (a pass, else tsumogiri): every seat is a person."""
    seat = next(s for s in range(3) if table.prompt_legal[s])
    legal = table.prompt_legal[seat]
    pick = next((a for a in legal if a.type == "none"), None)
    pick = pick or next((a for a in legal if a.type == "dahai" and a.tsumogiri), legal[-1])
    table.act(seat, pick)


def _human_table(runner: Tables) -> Table:
    t, _ = runner.create({"rules": RULES, "seats": ["human", "human", "human"], "seed": 6, "clock": CLOCK})
    assert any(t.prompt_legal)
    return t


def test_a_process_hears_the_moves_of_the_tables_it_follows_and_no_others(pg_database: str) -> None:
    runner_store, follower_store = open_db(pg_database), open_db(pg_database)
    runner = Tables(runner_store, ManualClock(), node=1)
    follower = Tables(follower_store, ManualClock(), node=2)
    Shared(runner, pg_database, 1)  # not started: the runner's notices are made, nothing is heard
    shared = Shared(follower, pg_database, 2)
    heard: list[tuple[str, str]] = []

    def record(channel: str, payload: str) -> None:
        heard.append((channel, payload))
        Shared._heard(shared, channel, payload)

    shared._heard = record  # type: ignore[method-assign]

    def marker(text: str) -> None:  # a note on the follower's own channel: what came before it was heard first
        notify(runner_store, node_channel(2), json.dumps({"t": text, "r": 1, "presence": True}))
        _until(lambda: any(json.loads(p)["t"] == text for _, p in heard))

    async def play() -> None:
        await shared.start()
        listener = shared.listener
        assert listener is not None
        try:
            watched, other = _human_table(runner), _human_table(runner)
            listening = threading.Event()
            followed = shared.follow(watched.id)
            listener.listen("sanma_sync", listening.set)  # (applied in order: after the table's channel)
            person = attach(followed, 0)
            assert listening.wait(10)
            for _ in range(200):  # the loop counts this process a follower (_caught_up): moves are notified
                if watched.id in shared.counted:
                    break
                await asyncio.sleep(0.02)
            _move(other)
            _move(watched)
            for _ in range(200):  # the loop hands the notification on
                if followed.actions == watched.actions:
                    break
                await asyncio.sleep(0.02)
            assert followed.actions == watched.actions  # the follower applied the runner's move
            assert _followers(runner_store, watched.id) == 1  # counted once it listened (_caught_up)
            assert _followers(runner_store, other.id) == 0
            marker("one")
            moves = [(c, json.loads(p)["t"]) for c, p in heard if "presence" not in p]
            assert moves == [(stored.table_channel(watched.id), watched.id)]  # nothing of the other table
            assert any(m["type"] == "view" for m in person.sent.messages)
            leave(person)  # nobody here watches it: no longer followed at the next sweep, nor heard
            shared.sweep()
            assert watched.id not in shared.followed
            assert _followers(runner_store, watched.id) == 0  # counted out
            listening.clear()
            listener.listen("sanma_sync2", listening.set)
            assert listening.wait(10)
            heard.clear()
            _move(watched)
            marker("two")
            assert [json.loads(p)["t"] for _, p in heard] == ["two"]
        finally:
            await shared.stop()

    try:
        asyncio.run(play())
    finally:
        follower.close()
        runner.close()
        runner_store.close()
        follower_store.close()


def test_a_move_stored_before_the_channel_is_listened_to_is_read_once_it_is(pg_database: str) -> None:
    """``follow`` reads the table, then asks to listen on its channel: a move the runner stores in
    between is never notified to this process, so it is read from the database once PostgreSQL
    listens (``Shared._caught_up``) and the connections are told."""
    runner_store, follower_store = open_db(pg_database), open_db(pg_database)
    runner = Tables(runner_store, ManualClock(), node=1)
    follower = Tables(follower_store, ManualClock(), node=2)
    Shared(runner, pg_database, 1)
    shared = Shared(follower, pg_database, 2)

    async def play() -> None:
        await shared.start()
        listener = shared.listener
        assert listener is not None
        applying = listener._apply
        go = threading.Event()

        def held(conn: Any) -> None:  # the listener's thread waits before it applies the LISTEN
            if listener._changes:
                go.wait(10)
            applying(conn)

        listener._apply = held  # type: ignore[method-assign]
        try:
            watched = _human_table(runner)
            followed = shared.follow(watched.id)
            person = attach(followed, 0)
            before = followed.actions
            _move(watched)  # stored and notified before this process listens on the table's channel
            await asyncio.sleep(0.3)
            assert followed.actions == before  # not heard
            go.set()
            for _ in range(200):
                if followed.actions == watched.actions:
                    break
                await asyncio.sleep(0.02)
            assert followed.actions == watched.actions == before + 1
            assert person.sent.messages[-1]["type"] in ("view", "prompt", "events")
        finally:
            go.set()
            await shared.stop()

    try:
        asyncio.run(play())
    finally:
        follower.close()
        runner.close()
        runner_store.close()
        follower_store.close()


def _bare_move(store: Any, table_id: str, note: str) -> bool:
    """A runner's write that changes nothing of the table but carries a notification (Write's ``notice``)."""
    return stored.write(store, table_id, stored.Write(notice=note))


def _followers(store: Any, table_id: str) -> int:
    return int(store.conn.execute("SELECT followers FROM web_tables WHERE id = ?", (table_id,)).fetchone()[0])


def test_a_move_is_notified_only_while_another_process_follows_the_table(pg_database: str) -> None:
    """The runner's notification of a move costs PostgreSQL a signal to every listening session and its
    one lock on the notification queue: sent only while ``web_tables.followers`` (store.tables.follow)
    counts a process that follows the table (docs/PERFORMANCE.md, issue 22)."""
    heard: queue.Queue[tuple[str, str]] = queue.Queue()
    store = open_db(pg_database)
    runner = Tables(store, ManualClock(), node=1)
    table = _human_table(runner)
    channel = stored.table_channel(table.id)
    listener = Listener(pg_database, [channel, "sanma_sync"], lambda c, p: heard.put((c, p)))
    listener.start()
    try:
        assert _followers(store, table.id) == 0
        assert _bare_move(store, table.id, "unfollowed")  # stored, not notified
        stored.follow(store, table.id, True)
        stored.follow(store, table.id, True)  # (two processes follow it)
        assert _followers(store, table.id) == 2
        assert _bare_move(store, table.id, "followed")
        stored.follow(store, table.id, False)
        assert _bare_move(store, table.id, "followed by one")
        stored.follow(store, table.id, False)
        stored.follow(store, table.id, False)  # (one count too many out: never below zero)
        assert _followers(store, table.id) == 0
        assert _bare_move(store, table.id, "unfollowed again")
        notify(store, "sanma_sync", "end")
        got = [heard.get(timeout=10) for _ in range(3)]
        assert got == [(channel, "followed"), (channel, "followed by one"), ("sanma_sync", "end")]
    finally:
        listener.stop()
        runner.close()
        store.close()


def test_a_move_that_waited_for_a_new_followers_count_is_notified(pg_database: str) -> None:
    """A follower counts itself on the table's row, which the runner's write updates first: a write
    that waits for the row behind the count's transaction sees the count once it commits (PostgreSQL
    takes the row's newest version) and notifies — the follower, listening already, hears it."""
    heard: queue.Queue[tuple[str, str]] = queue.Queue()
    store, other = open_db(pg_database), open_db(pg_database)
    runner = Tables(store, ManualClock(), node=1)
    table = _human_table(runner)
    channel = stored.table_channel(table.id)
    listener = Listener(pg_database, [channel], lambda c, p: heard.put((c, p)))
    listener.start()
    written: list[bool] = []
    try:
        with other.transaction():  # the follower's count, not committed yet: it holds the table's row
            stored.follow(other, table.id, True)
            move = threading.Thread(target=lambda: written.append(_bare_move(store, table.id, "waited")))
            move.start()
            _until(lambda: other.conn.execute(  # the move waits for the row
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'").fetchone()[0] > 0)
            assert not written
        move.join(10)
        assert written == [True]
        assert heard.get(timeout=10) == (channel, "waited")
    finally:
        listener.stop()
        runner.close()
        store.close()
        other.close()


def test_migration_10_opens_a_version_9_database_with_its_tables_unfollowed(tmp_path: Any) -> None:
    """Migration 10 (``web_tables.followers``) on a database of version 9: its tables read as before,
    each followed by nobody."""
    from sanma.store.migrations import SCHEMA_VERSION
    from store_helpers import sqlite_at_version

    path = tmp_path / "v9.sqlite"
    conn = sqlite_at_version(path, 9)
    conn.execute("INSERT INTO web_tables (id, rules_name, rules_json, seats, seed, seed_hash, clock, toggles, banks, "
                 "created_at) VALUES ('t1', 'tenhou', '{}', '[]', 's', ?, '{}', '[]', '[]', 'then')", ("0" * 64,))
    conn.commit()
    conn.close()
    with open_db(path) as store:
        assert store.schema_version == SCHEMA_VERSION >= 10
        assert _followers(store, "t1") == 0
        assert [t.id for t in stored.listing(store, 10)] == ["t1"]
