"""Moves written off the event loop on PostgreSQL (issue 22, ``store.tables.MoveWriter``): while
PostgreSQL stores one table's move, the served process goes on with its other tables; the table
itself waits — nothing of the move is told, read or changed before it is stored — and a move whose
write fails is rolled back and its seat told, as when the write is done at once (SQLite: the same
``Table`` code, tests/test_web_write_failures.py). The write is held by another connection holding
the table's row, as another program would."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.store import open_db
from sanma.store import tables as stored
from sanma.store.backend import StoreBusy
from sanma.web.scheduler import ManualClock
from sanma.web.tables import Tables
from web_helpers import attach

RULES = {"extends": "tenhou", "round_winds": "E"}
PERSONS = {"rules": RULES, "seats": ["human", "human", "human"], "seed": 6,
           "clock": {"move": 0, "call": 0, "think": 1, "result": 0}}


class RowLock:
    """Another connection holding a table's row (``FOR UPDATE``) until :meth:`release`."""

    def __init__(self, url: str, table_id: str) -> None:
        import psycopg

        self.conn = psycopg.connect(url)
        self.conn.execute("SELECT 1 FROM web_tables WHERE id = %s FOR UPDATE", (table_id,))

    def release(self) -> None:
        self.conn.rollback()
        self.conn.close()


async def _waiting_for_the_row(url: str) -> None:
    """Until PostgreSQL shows a statement waiting for a row lock (the move's write has reached it)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for _ in range(2000):
            if conn.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()[0]:  # type: ignore[index]
                return
            await asyncio.sleep(0.005)
    raise AssertionError("the move's write never reached PostgreSQL")


def _discard(person: Any) -> str:
    """The person's answer to its open prompt: its first discard."""
    prompt = next(m for m in reversed(person.sent.messages) if m["type"] == "prompt")
    discard = next(a for a in prompt["actions"] if a["type"] == "dahai")
    return json.dumps({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]})


def _run(url: str, lock_ms: int, play: Callable[[Tables, ManualClock], Awaitable[None]]) -> None:
    """``play`` on a served process's tables over ``url``, on an event loop, moves written by a
    :class:`~sanma.store.tables.MoveWriter` waiting at most ``lock_ms`` for a row."""
    async def main() -> None:
        store = open_db(url)
        writer = stored.MoveWriter(store, lock_ms=lock_ms)
        tables = Tables(store, ManualClock(), writer=writer)
        try:
            await play(tables, tables.clock)  # type: ignore[arg-type]
        finally:
            await tables.settle()
            tables.close()
            writer.close()
            store.close()

    asyncio.run(main())


def test_while_a_move_is_being_written_the_process_goes_on_and_nothing_of_it_is_told(pg_url: str) -> None:
    async def play(tables: Tables, clock: ManualClock) -> None:
        a, _ = tables.create(PERSONS)
        b, _ = tables.create(PERSONS)
        await a.ready()
        await b.ready()
        dealer_a, dealer_b = attach(a, a.game.dealer), attach(b, b.game.dealer)
        watch_a, watch_b = attach(a, None), attach(b, None)
        events_a, events_b = list(a.game.events), list(b.game.events)
        told_a, told_b = len(watch_a.sent.log), len(watch_b.sent.log)
        lock = RowLock(pg_url, a.id)
        try:
            dealer_a.handle(_discard(dealer_a))  # A's move: its write waits for the row (10 s at most) ...
            await _waiting_for_the_row(pg_url)  # ... and this process goes on meanwhile (a synchronous write held it)
            assert a.writing and len(watch_a.sent.log) == told_a
            assert stored.events(tables.store, a.id) == events_a
            toggles = dict(a.toggles[0])
            a.set_toggle(0, "auto_win", not toggles["auto_win"])  # waits for A's write: not even in memory yet
            assert a.toggles[0] == toggles
            dealer_b.handle(_discard(dealer_b))  # B's move goes out behind A's (one pipeline, answered in order)
            assert b.writing and len(watch_b.sent.log) == told_b
        finally:
            lock.release()
        await a.ready()  # stored, told, then the toggle that waited for it
        await b.ready()
        assert not a.writing and len(watch_a.sent.log) > told_a and len(watch_b.sent.log) > told_b
        assert a.toggles[0]["auto_win"] is not toggles["auto_win"]
        for t, before in ((a, events_a), (b, events_b)):
            assert stored.events(tables.store, t.id) == t.game.events and len(t.game.events) > len(before)
        row = stored.table(tables.store, a.id)
        assert row is not None and row.toggles[0] == a.toggles[0]

    _run(pg_url, 10_000, play)


def test_a_connection_reads_the_table_only_once_its_move_is_stored_and_told(pg_url: str) -> None:
    async def play(tables: Tables, clock: ManualClock) -> None:
        a, _ = tables.create(PERSONS)
        await a.ready()
        dealer = attach(a, a.game.dealer)
        lock = RowLock(pg_url, a.id)
        order: list[str] = []

        async def reader() -> None:
            await a.ready()
            order.append(f"read at {len(a.game.events)} events, {a.writing=}")

        try:
            dealer.handle(_discard(dealer))
            task = asyncio.create_task(reader())
            api = asyncio.create_task(tables.public(a.id))  # GET /api/tables/ID
            await _waiting_for_the_row(pg_url)
            assert order == [] and a.writing and not api.done()
        finally:
            lock.release()
        await task
        assert order == [f"read at {len(stored.events(tables.store, a.id))} events, a.writing=False"]
        assert (await api)["id"] == a.id

    _run(pg_url, 10_000, play)


def test_a_move_whose_write_fails_is_refused_rolled_back_and_tried_again(pg_url: str) -> None:
    async def play(tables: Tables, clock: ManualClock) -> None:
        a, _ = tables.create(PERSONS)
        await a.ready()
        dealer, watch = attach(a, a.game.dealer), attach(a, None)
        answer = _discard(dealer)
        prompt = next(m for m in reversed(dealer.sent.messages) if m["type"] == "prompt")
        events, told, schedule = list(a.game.events), len(watch.sent.log), a.schedule
        lock = RowLock(pg_url, a.id)
        try:
            dealer.handle(answer)
            await a.ready()  # refused after the writer's lock wait (50 ms): rolled back
        finally:
            lock.release()
        error, again = dealer.sent.messages[-2:]
        assert error["type"] == "error" and error["code"] == "not_stored" and again == prompt
        assert a.game.events == events and a.schedule == schedule and len(watch.sent.log) == told
        assert stored.events(tables.store, a.id) == events
        dealer.handle(answer)  # asked again and answered: stored and told
        await a.ready()
        assert stored.events(tables.store, a.id) == a.game.events and len(a.game.events) > len(events)
        assert watch.sent.messages[-1]["type"] != "error" and len(watch.sent.log) > told

    _run(pg_url, 50, play)


def test_the_writer_raises_the_store_s_errors(pg_url: str) -> None:
    async def play(tables: Tables, clock: ManualClock) -> None:
        a, _ = tables.create(PERSONS)
        await a.ready()
        assert tables.writer is not None
        lock = RowLock(pg_url, a.id)
        try:
            with pytest.raises(StoreBusy):
                await tables.writer.write(a.id, stored.Write(status='{"x": 1}'))
        finally:
            lock.release()
        assert await tables.writer.write(a.id, stored.Write(status='{"x": 1}')) is True
        assert await tables.writer.write("no such table", stored.Write(status='{"x": 1}')) is False

    _run(pg_url, 50, play)


def test_a_lost_connection_refuses_the_move_in_flight_and_the_next_one_connects_again(pg_url: str) -> None:
    import psycopg

    async def play(tables: Tables, clock: ManualClock) -> None:
        a, _ = tables.create(PERSONS)
        await a.ready()
        dealer = attach(a, a.game.dealer)
        answer, events = _discard(dealer), list(a.game.events)
        lock = RowLock(pg_url, a.id)
        try:
            dealer.handle(answer)
            await _waiting_for_the_row(pg_url)
            with psycopg.connect(pg_url, autocommit=True) as admin:  # PostgreSQL ends the writer's session
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE NOT granted")
            await a.ready()
        finally:
            lock.release()
        assert dealer.sent.messages[-2]["code"] == "not_stored" and a.game.events == events
        dealer.handle(answer)
        await a.ready()
        assert stored.events(tables.store, a.id) == a.game.events and len(a.game.events) > len(events)

    _run(pg_url, 10_000, play)


def _finished_game() -> Game:
    """A tenhou game played to its end by random legal actions (seed 3)."""
    game = Game(Rules.preset("tenhou"), seed=3, names=("A", "B", "C"))
    rng = random.Random(3)
    while not game.done:
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
    return game


def _new_table(tid: str) -> stored.NewTable:
    """A table's row for the writer's tests: three persons, run by process 11."""
    seat = {"kind": "human", "name": "A", "token_sha256": "f" * 64}
    return stored.NewTable(tid, "tenhou", "{}", (seat,) * 3, "3", "2" * 64, {"move": 0.0}, ({},) * 3, (0.0,) * 3,
                           "2026-01-01", runner=11)


def test_a_game_s_last_move_stores_the_game_in_the_same_statement_unless_another_runs_the_table(pg_url: str) -> None:
    """A finished game is stored by its last move's write (one statement on the writer's pipeline:
    the loop does not wait for its hundreds of rows): the table finished with its game's id, the
    game as ``sanma replay`` and the statistics read it. A process that no longer runs the table
    stores nothing of it: no move, no game, no player."""
    game = _finished_game()

    async def main() -> None:
        with open_db(pg_url) as store:
            writer = stored.MoveWriter(store, lock_ms=1000)
            try:
                for tid in ("mine", "theirs"):
                    stored.create_table(store, _new_table(tid), game.events[:1])
                assert stored.claim(store, "theirs", 22, 11)
                last = stored.Write(1, game.events[1:], (stored.ActionRow(0, 0, 0, {"type": "hora"}, "seat", "t"),),
                                    status='{"done": true}', runner=11)
                new = store.new_game(game.events, rules=Rules.preset("tenhou"), seed=3, players=["web:p", None, None])
                assert not await writer.write("theirs", last, game=new)
                assert store.games() == [] and store.conn.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 0
                row = stored.table(store, "theirs")
                assert row is not None and not row.finished and stored.event_count(store, "theirs") == 1
                assert await writer.write("mine", last, game=new)
                row = stored.table(store, "mine")
                assert row is not None and row.finished and stored.unfinished(store) == ["theirs"]
                (g,) = store.games()
                assert store.stored_game("mine")[0] == game.events == store.events(g.id)
                assert [s.name for s in g.seats] == ["web:p", "B", "C"] and g.complete
                assert stored.events(store, "mine") == game.events and len(stored.actions(store, "mine")) == 1
                assert not await writer.write("mine", last, game=new)  # finished already: stored once
                assert len(store.games()) == 1
            finally:
                writer.close()

    asyncio.run(main())


def test_a_game_s_end_and_a_new_table_do_not_hold_the_moves_sent_behind_them(pg_url: str) -> None:
    """The statements that commit durably — a game's end with its record, a new table — go on the
    writer's second connection: PostgreSQL answers one connection's statements in order, so a move
    sent behind them on the same one would wait for their WAL flush and their rows (issue 22,
    docs/PERFORMANCE.md). Here both are held (the ending table's row locked; the new table's id
    inserted by another transaction) while another table's move is stored and answered."""
    import psycopg

    game = _finished_game()

    async def main() -> None:
        with open_db(pg_url) as store:
            writer = stored.MoveWriter(store, lock_ms=20_000)
            for tid in ("ending", "moving"):
                stored.create_table(store, _new_table(tid), game.events[:1])
            last = stored.Write(1, game.events[1:], (stored.ActionRow(0, 0, 0, {"type": "hora"}, "seat", "t"),),
                                status='{"done": true}', runner=11)
            move = stored.Write(1, game.events[1:2], (stored.ActionRow(0, 0, 0, {"type": "dahai"}, "seat", "t"),),
                                runner=11)
            ended: list[bool | Exception] = []
            lock = RowLock(pg_url, "ending")
            other = psycopg.connect(pg_url)  # a transaction that inserted the new table's id, not yet committed
            try:
                writer.send("ending", last, ended.append, game=store.new_game(
                    game.events, rules=Rules.preset("tenhou"), seed=3, players=[None] * 3))
                await _waiting_for_the_row(pg_url)
                other.execute("INSERT INTO web_tables SELECT (jsonb_populate_record(NULL::web_tables, "
                              "to_jsonb(t) || '{\"id\": \"new\"}')).* FROM web_tables t WHERE id = 'moving'")
                created = asyncio.ensure_future(writer.create(_new_table("new"), game.events[:1]))
                assert await writer.write("moving", move)  # answered while both wait
                assert ended == [] and not created.done()
            finally:
                lock.release()
                other.rollback()
                other.close()
            await created
            await writer.drain()
            assert ended == [True] and stored.unfinished(store) == ["moving", "new"]
            assert stored.events(store, "moving") == game.events[:2]
            writer.close()

    asyncio.run(main())


class FlushHeld:
    """The cluster's durable commits held at their WAL flush, as a stalled disk holds them: a
    synchronous standby named that never comes (``synchronous_standby_names``), so a commit that
    waits for its flush waits (``SyncRep``) until :meth:`release`; an asynchronous one does not."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.conn = psycopg.connect(url, autocommit=True)
        self._set("nobody")

    def _set(self, value: str) -> None:
        import psycopg

        self.conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{value}'")
        self.conn.execute("SELECT pg_reload_conf()")
        for _ in range(2000):  # until a new session has it (the server reloads its files on a signal)
            with psycopg.connect(self.url, autocommit=True) as fresh:
                if fresh.execute("SHOW synchronous_standby_names").fetchone() == (value,):
                    return
        raise AssertionError(f"synchronous_standby_names never became {value!r}")

    async def until_held(self) -> None:
        """Until a commit waits for its flush."""
        for _ in range(2000):
            if self.conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"
                                 ).fetchone() != (0,):
                return
            await asyncio.sleep(0.005)
        raise AssertionError("no commit waited for its flush")

    def release(self) -> None:
        self._set("")
        self.conn.close()


def test_a_game_s_end_waiting_for_its_flush_does_not_hold_the_moves_notifications(pg_url: str) -> None:
    """A game's end notifies the processes that follow its table, as every move does, and
    PostgreSQL holds one lock on its notification queue from a notifying commit's start to its end:
    a game's end that waited for its WAL flush inside its commit held every move's commit for the
    whole flush — on a slow disk past the writer's lock_timeout, a move refused (1,000 paced tables,
    docs/PERFORMANCE.md). It commits asynchronously, and a durable commit sent behind it waits for
    the flush: the moves go on meanwhile, and the game's end is answered only once it is on disk."""
    game = _finished_game()

    async def main() -> None:
        with open_db(f"{pg_url}%20-csynchronous_commit%3Don") as store:  # (the test cluster's own is off)
            stored.commit_moves(store, synchronous=False)  # the moves commit asynchronously (serve's option)
            for tid in ("ending", "moving"):
                stored.create_table(store, _new_table(tid), game.events[:1])
            writer = stored.MoveWriter(store, lock_ms=100)  # a move waiting longer for a lock is refused
            last = stored.Write(1, game.events[1:], (stored.ActionRow(0, 0, 0, {"type": "hora"}, "seat", "t"),),
                                status='{"done": true}', runner=11, notice="end")
            move = stored.Write(1, game.events[1:2], (stored.ActionRow(0, 0, 0, {"type": "dahai"}, "seat", "t"),),
                                runner=11, notice="move")
            ended: list[bool | Exception] = []
            held = FlushHeld(pg_url)
            try:
                writer.send("ending", last, ended.append, game=store.new_game(
                    game.events, rules=Rules.preset("tenhou"), seed=3, players=[None] * 3))
                await held.until_held()
                assert await writer.write("moving", move)  # its notifying commit is not held
                await asyncio.sleep(0.2)
                assert ended == []  # the game's end is not answered before it is on disk
            finally:
                held.release()
            await writer.drain()
            assert ended == [True] and stored.unfinished(store) == ["moving"]
            assert stored.events(store, "moving") == game.events[:2]
            writer.close()

    asyncio.run(main())


def test_a_new_table_is_stored_by_the_writer_before_it_runs_and_one_not_stored_does_not_run(pg_url: str) -> None:
    """``POST /api/tables`` on PostgreSQL (``Tables.open``): the new table's row and first events go
    out on the writer, the loop serving the other tables; the table runs, and its links are
    answered, once it is stored. A row the database refuses is a 503 and no table."""
    import psycopg

    from sanma.web.tables import TableError

    async def play(tables: Tables, clock: ManualClock) -> None:
        a, tokens = await tables.open(PERSONS, "c1")
        assert a.id in tables.running and tables.opening == [] and len(tokens) == 3
        await a.ready()
        row = stored.table(tables.store, a.id)
        assert row is not None and row.seed == a.seed and stored.events(tables.store, a.id) == a.game.events
        with psycopg.connect(pg_url, autocommit=True) as conn:
            # (an id is URL-safe base64: no quote in it) every new row but a's is refused from now on
            conn.execute(f"ALTER TABLE web_tables ADD CONSTRAINT refuse CHECK (id = '{a.id}') NOT VALID")
        try:
            with pytest.raises(TableError) as e:
                await tables.open(PERSONS, "c1")
            assert e.value.status == 503 and list(tables.running) == [a.id] and tables.opening == []
            assert stored.unfinished(tables.store) == [a.id]
        finally:
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute("ALTER TABLE web_tables DROP CONSTRAINT refuse")

    _run(pg_url, 1000, play)


def test_presence_is_written_behind_the_moves_with_its_notifications(pg_url: str) -> None:
    """A socket that comes or goes (several processes: web/shared.py) is stored by the writer, its
    notification sent when it commits; no connection left on the table removes the process's row."""
    import psycopg

    async def play(tables: Tables, clock: ManualClock) -> None:
        a, _ = await tables.open(PERSONS)
        writer = tables.writer
        assert writer is not None
        answers: list[int | Exception] = []
        with psycopg.connect(pg_url, autocommit=True) as listener:
            listener.execute("LISTEN seen")
            writer.presence(a.id, 7, [1, 0, 2], "here", ["seen"], answers.append)
            await writer.drain()
            assert stored.presence(tables.store, a.id, {7}) == {7: [1, 0, 2]}
            writer.presence(a.id, 7, [0, 0, 0], "gone", ["seen"], answers.append)
            await writer.drain()
            assert stored.presence(tables.store, a.id, {7}) == {}
            told = [n.payload for n in listener.notifies(timeout=1, stop_after=2)]
        assert answers == [1, 1] and told == ["here", "gone"]

    _run(pg_url, 1000, play)


def test_a_server_that_stops_waits_for_its_writes_at_most_its_timeout(pg_url: str) -> None:
    """``Tables.settle`` (a server stopping): until the writes out are answered, but not longer
    than its timeout — a database that stopped answering does not keep the server from stopping."""
    async def play(tables: Tables, clock: ManualClock) -> None:
        a, _ = tables.create(PERSONS)
        await a.ready()
        dealer = attach(a, a.game.dealer)
        lock = RowLock(pg_url, a.id)
        try:
            dealer.handle(_discard(dealer))
            await _waiting_for_the_row(pg_url)
            assert not await tables.settle(timeout=0) and a.writing  # not answered: not waited for
        finally:
            lock.release()
        assert await tables.settle() and not a.writing

    _run(pg_url, 10_000, play)
