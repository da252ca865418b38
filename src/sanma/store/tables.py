"""The browser table's served games (migrations 3 and 5): ``web_tables``, ``web_actions``,
``web_events`` — the only SQL of ``sanma serve``'s tables (``web/tables.py`` calls these).

A table is its settings, the actions applied to it in order and the events each caused; an action
and its events are written in one transaction (:func:`append_action`), so a restarted server
rebuilds every unfinished table from its seed and its actions. JSON is decoded here: callers get
typed rows.

>>> from sanma.store import open_db
>>> store = open_db(":memory:")
>>> row = NewTable("t1", "tenhou", "{}", ({"kind": "human", "name": "A", "token_sha256": "0" * 64},) * 3,
...                "7", "1" * 64, {"move": 15.0, "bank": 60.0}, ({},) * 3, (60.0,) * 3, "2026-01-01T00:00:00+00:00")
>>> create_table(store, row, [{"type": "start_game"}])
>>> append_action(store, "t1", 0, seat=0, legal_idx=2, action={"type": "none"}, how="seat", at="now",
...               first_event=1, events=[{"type": "tsumo"}])
>>> [a.legal_idx for a in actions(store, "t1")], [e["type"] for e in events(store, "t1")], unfinished(store)
([2], ['start_game', 'tsumo'], ['t1'])
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..i18n import sentence
from .backend import Pipeline, PostgresConnection, StoreError, at, display, is_url
from .db import NewGame, Store, pg_game_ctes
from .notify import notify

if TYPE_CHECKING:
    from ..rules import Rules


_dumps = json.JSONEncoder(separators=(",", ":")).encode  # compact JSON; the encoder made once, not per call


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table as it is created: every column of ``web_tables`` but ``finished`` and ``game_id``."""

    id: str
    rules_name: str
    rules_json: str
    seats: tuple[Mapping[str, Any], ...]  # kind, name and token_sha256 (never the token) per seat
    seed: str
    seed_hash: str
    clock: Mapping[str, float]
    toggles: tuple[Mapping[str, bool], ...]
    banks: tuple[float, ...]
    created_at: str
    wall_key: str | None = None  # 64 hex digits
    runner: int | None = None  # the process that made it runs it (several processes)


@dataclass(frozen=True, slots=True)
class TableRow:
    """A stored table, JSON decoded."""

    id: str
    rules_name: str
    rules: dict[str, Any]
    seats: tuple[dict[str, Any], ...]
    seed: str
    seed_hash: str
    clock: dict[str, float]
    toggles: tuple[dict[str, bool], ...]
    banks: tuple[float, ...]
    created_at: str
    finished: bool
    wall_key: str | None
    game_id: int | None
    schedule: str | None = None  # JSON: the scheduler's state after the last stored change
    status: str | None = None  # JSON: the lobby's scores, round and hands
    runner: int | None = None  # the key of the process that runs it (several processes)
    columns: tuple[tuple[str, str], ...] = ()  # the runner's columns as stored (JSON text)


class ActionRow(NamedTuple):
    """One applied action (read from ``web_actions``, or one a :class:`Write` stores): its index,
    the seat, its index among the seat's legal actions, its mjai form, how it was chosen (seat,
    bot, auto, clock) and when. (An immutable tuple, as :class:`Write`: the server makes one per
    action, and a frozen dataclass costs three times as much to make.)"""

    idx: int
    seat: int
    legal_idx: int
    action: dict[str, Any]
    how: str
    at: str


@dataclass(frozen=True, slots=True)
class ListedTable:
    """A lobby line: a finished table's final scores come from its stored ``end_game``."""

    id: str
    rules_name: str
    seats: tuple[dict[str, Any], ...]
    finished: bool
    created_at: str
    seed_hash: str
    final_scores: tuple[int, ...] | None
    status: dict[str, Any] | None = None  # a running table's scores, round and hands (its runner's)


def _events_rows(table_id: str, start: int, events: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    return [(table_id, start + i, _dumps(e)) for i, e in enumerate(events)]


_INSERT_TABLE = ("INSERT INTO web_tables (id, rules_name, rules_json, seats, seed, seed_hash, clock, toggles, banks, "
                 "created_at, wall_key, runner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _table_values(row: NewTable) -> list[Any]:
    return [row.id, row.rules_name, row.rules_json, json.dumps([dict(s) for s in row.seats]), row.seed, row.seed_hash,
            json.dumps(dict(row.clock)), json.dumps([dict(t) for t in row.toggles]), json.dumps(list(row.banks)),
            row.created_at, row.wall_key, row.runner]


def _events_json(events: Sequence[Mapping[str, Any]]) -> str:
    """Events as one JSON array, each as ``web_events`` stores it (PostgreSQL's rows of one statement)."""
    return "[" + ",".join([_dumps(e) for e in events]) + "]"


def create_table(store: Store, row: NewTable, events: Sequence[Mapping[str, Any]]) -> None:
    """Store a new table and the events it starts with, in one transaction (PostgreSQL: one
    statement, as :meth:`MoveWriter.create` sends it)."""
    if store.dialect == "postgresql":
        with store.savepoint():
            store.conn.execute(*_pg_create(row, events))
        return
    with store.transaction():
        store.conn.execute(_INSERT_TABLE, _table_values(row))
        store.conn.executemany("INSERT INTO web_events (table_id, idx, data) VALUES (?, ?, ?)",
                               _events_rows(row.id, 0, events))


def _pg_create(row: NewTable, events: Sequence[Mapping[str, Any]]) -> tuple[str, list[Any]]:
    """:func:`create_table` on PostgreSQL: the table's row, then its events from one JSON array."""
    return (f"WITH t AS ({_INSERT_TABLE} RETURNING id) INSERT INTO web_events (table_id, idx, data) "
            "SELECT t.id, u.i - 1, u.d::text FROM t, json_array_elements(?::json) WITH ORDINALITY AS u(d, i)",
            [*_table_values(row), _events_json(events)])


def exists(store: Store, table_id: str) -> bool:
    return store.conn.execute("SELECT 1 FROM web_tables WHERE id = ?", (table_id,)).fetchone() is not None


def table(store: Store, table_id: str) -> TableRow | None:
    """The stored table, or None."""
    r = store.conn.execute(
        "SELECT id, rules_name, rules_json, seats, seed, seed_hash, clock, toggles, banks, created_at, finished, "
        "wall_key, game_id, schedule, status, runner FROM web_tables WHERE id = ?", (table_id,)).fetchone()
    if r is None:
        return None
    columns = tuple((k, v) for k, v in (("toggles", r[7]), ("banks", r[8]), ("schedule", r[13]), ("status", r[14]))
                    if v is not None)
    return TableRow(r[0], r[1], json.loads(r[2]), tuple(json.loads(r[3])), r[4], r[5], json.loads(r[6]),
                    tuple(json.loads(r[7])), tuple(float(b) for b in json.loads(r[8])), r[9], bool(r[10]), r[11],
                    r[12], r[13], r[14], r[15], columns)


def is_finished(store: Store, table_id: str) -> bool:
    r = store.conn.execute("SELECT finished FROM web_tables WHERE id = ?", (table_id,)).fetchone()
    return r is not None and bool(r[0])


def events(store: Store, table_id: str) -> list[dict[str, Any]]:
    """The table's events, in order."""
    return [json.loads(r[0]) for r in store.conn.execute(
        "SELECT data FROM web_events WHERE table_id = ? ORDER BY idx", (table_id,))]


def actions(store: Store, table_id: str) -> list[ActionRow]:
    """The table's applied actions, in order."""
    return [ActionRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in store.conn.execute(
        "SELECT idx, seat, legal_idx, action, how, at FROM web_actions WHERE table_id = ? ORDER BY idx",
        (table_id,)).fetchall()]


def unfinished(store: Store) -> list[str]:
    """The ids of every table still being played, oldest first."""
    return [r[0] for r in store.conn.execute("SELECT id FROM web_tables WHERE finished = 0 ORDER BY created_at, id")]


def listing(store: Store, limit: int = 200) -> list[ListedTable]:
    """The newest ``limit`` tables, newest first (a finished one with its final scores): one query
    (a finished table's last event by a subquery, not a query of its own per table)."""
    rows = store.conn.execute(
        "SELECT t.id, t.rules_name, t.seats, t.finished, t.created_at, t.seed_hash, t.status, CASE WHEN t.finished = 1 "
        "THEN (SELECT e.data FROM web_events e WHERE e.table_id = t.id ORDER BY e.idx DESC LIMIT 1) END "
        "FROM web_tables t ORDER BY t.created_at DESC, t.id LIMIT ?", (limit,)).fetchall()
    out = []
    for tid, rules_name, seats, finished, created, sh, status, last in rows:
        scores = None
        if last is not None:
            end = json.loads(last)
            if end.get("type") == "end_game":
                scores = tuple(end["scores"])
        out.append(ListedTable(tid, rules_name, tuple(json.loads(seats)), bool(finished), created, sh, scores,
                               None if status is None or finished else json.loads(status)))
    return out


class Write(NamedTuple):
    """One change of a running table, stored whole or not at all: the actions applied (in order),
    the events they (and released holds) caused, numbered from ``first_event``, and the table's
    columns that changed (JSON text; None: unchanged). ``runner``: write only while this process
    still runs the table (PostgreSQL: another may have taken it over); ``notice``: the
    notification the processes that follow the table get when it commits (PostgreSQL, on
    :func:`table_channel`; sent only while some process counts itself a follower, :func:`follow`).
    An immutable tuple (one per action: see :class:`ActionRow`)."""

    first_event: int = 0
    events: Sequence[Mapping[str, Any]] = ()
    actions: Sequence[ActionRow] = ()
    schedule: str | None = None
    banks: str | None = None
    toggles: str | None = None
    status: str | None = None
    runner: int | None = None
    notice: str | None = None


def table_channel(table_id: str) -> str:
    """The channel of one table's changes — its moves, its end, a takeover, who is at it (payload:
    web/shared.py) — heard only by the processes that follow the table (they listen while a
    connection of theirs is on it; its runner does not: what it must hear comes on its own channel),
    so no process is woken by the moves of the tables it does not serve, its own included."""
    return f"sanma_t_{table_id}"


def write(store: Store, table_id: str, w: Write) -> bool:
    """Store one change (see :class:`Write`); False when the table is no longer this runner's
    or (PostgreSQL) its stored events end before ``first_event`` (nothing was written). An action or
    event index already stored raises :class:`~sanma.store.IntegrityError` (it was applied once
    already), and nothing is written. (:class:`MoveWriter` writes the same without holding the
    event loop.)"""
    if store.dialect == "postgresql":
        sql, args = _pg_write(store, table_id, w, alone=store._depth == 0)
        with store.savepoint():
            return store.conn.execute(sql, args).fetchone() is not None
    columns = _columns(w)
    conn = store.conn
    with store.transaction():
        if w.runner is not None:
            r = conn.execute("SELECT runner FROM web_tables WHERE id = ?", (table_id,)).fetchone()
            if r is None or r[0] != w.runner:
                return False
        rows = [(table_id, a.idx, a.seat, a.legal_idx, _action_text(a.action), a.how, a.at) for a in w.actions]
        if len(rows) == 1:  # the usual write: one action (a statement, not a batch of one)
            conn.execute(_INSERT_ACTION, rows[0])
        elif rows:
            conn.executemany(_INSERT_ACTION, rows)
        if w.events:
            conn.executemany("INSERT INTO web_events (table_id, idx, data) VALUES (?, ?, ?)",
                             _events_rows(table_id, w.first_event, w.events))
        if columns:
            conn.execute(f"UPDATE web_tables SET {', '.join(f'{c} = ?' for c, _ in columns)} WHERE id = ?",
                         (*(v for _, v in columns), table_id))
    return True


def _columns(w: Write) -> list[tuple[str, str]]:
    """The table's columns the write changes (name, JSON text)."""
    if w.schedule is None and w.banks is None and w.toggles is None and w.status is None:
        return []
    return [(c, v) for c, v in (("schedule", w.schedule), ("banks", w.banks), ("toggles", w.toggles),
                                ("status", w.status)) if v is not None]


class MoveWriter:
    """A served table's moves written on PostgreSQL without holding the event loop (issue 22): the
    same one statement as :func:`write`, pipelined (:class:`~sanma.store.backend.Pipeline`: many
    tables' moves in flight at once on one connection), so that the process serves the other
    tables while PostgreSQL stores this one's move (a synchronous write holds the loop for its round
    trip: the paced limit at 600+ tables). A table sends its next move only once this one is
    answered (``web/tables.Table``: its moves are written in order), so its statements may go on
    either of two connections: the moves on :attr:`pipeline`, and the statements that commit
    durably — a game's end with its record, a new table — on :attr:`durable`. PostgreSQL answers a
    connection's statements one after the other, so a moves' statement sent behind a durable commit
    would wait for its WAL flush and its hundreds of rows (docs/PERFORMANCE.md)."""

    def __init__(self, store: Store, *, lock_ms: int) -> None:
        conn = store.conn
        assert isinstance(conn, PostgresConnection), "a PostgreSQL store's"  # (web/app.py makes one only there)
        self.store = store
        self.pipeline = Pipeline(conn, lock_ms)
        self.durable = Pipeline(conn, lock_ms)

    def send(self, table_id: str, w: Write, answer: Callable[[bool | StoreError], None], *,
             game: NewGame | None = None) -> None:
        """Send the change; ``answer`` gets :func:`write`'s answer, or its error, once PostgreSQL has
        answered (on this event loop). ``game``: the table's game ended with this change — the same
        statement stores the game (``Store.new_game``) and marks the table finished, as :func:`finish`
        (one transaction, answered once durable: the event loop does not wait for the game's
        hundreds of rows), on :attr:`durable`. Raises
        :class:`StoreError` when nothing could be sent."""
        sql, args = _pg_write(self.store, table_id, w, alone=True, game=game)
        if game is None:
            self.pipeline.send(sql, args, lambda rows: answer(rows if isinstance(rows, StoreError) else rows > 0))
            return
        # The game's end commits asynchronously and is answered once the durable commit sent behind
        # it has flushed the WAL up to both: its notification holds PostgreSQL's one lock on the
        # notification queue from its commit's start to its end, and every other notifying commit
        # (every followed table's move) waits for it — for the whole WAL flush, were the flush its own (a slow
        # disk's: past lock_timeout, a move refused).
        stored: list[int | StoreError] = []

        def flushed(rows: int | StoreError) -> None:
            first = stored[0]
            answer(first if isinstance(first, StoreError) else rows if isinstance(rows, StoreError) else first > 0)

        self.durable.send(sql, args, stored.append)
        self.durable.send(_FLUSH, [], flushed)

    def sent_by(self, pid: int) -> bool:
        """Whether ``pid`` is the PostgreSQL session of one of its connections (a notification's
        sender: this process wrote it). Any thread may ask."""
        return pid in (self.pipeline.session_pid, self.durable.session_pid)

    @property
    def pending(self) -> int:
        """How many statements sent are not yet answered."""
        return self.pipeline.pending + self.durable.pending

    async def write(self, table_id: str, w: Write, *, game: NewGame | None = None) -> bool:
        """:meth:`send`, awaited."""
        return bool(await _answered(lambda answer: self.send(table_id, w, answer, game=game)))

    async def create(self, row: NewTable, events: Sequence[Mapping[str, Any]]) -> None:
        """:func:`create_table`, sent behind the moves and awaited (the loop serves the other tables
        meanwhile; a durable commit). Raises the store's error."""
        await _answered(lambda answer: self.durable.send(*_pg_create(row, events), answer))

    def presence(self, table_id: str, node: int, counts: Sequence[int], notice: str | None, channels: Sequence[str],
                 answer: Callable[[int | StoreError], None]) -> None:
        """:func:`set_presence`, sent behind the moves (a socket that comes or goes does not hold the
        loop for a round trip and a commit); ``answer`` gets its rows or its error."""
        self.pipeline.send(*_pg_presence(self.store, table_id, node, counts, notice, channels, alone=True), answer)

    async def drain(self) -> None:
        """Until every statement sent is answered."""
        await self.pipeline.drain()
        await self.durable.drain()

    def close(self) -> None:
        self.pipeline.close()
        self.durable.close()


async def _answered(send: Callable[[Callable[[Any], None]], None]) -> Any:
    """What ``send`` hands its answer callback, awaited: the answer, or its :class:`StoreError` raised."""
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    send(lambda r: done.set_exception(r) if isinstance(r, StoreError) else done.set_result(r))
    return await done


_INSERT_ACTION = ("INSERT INTO web_actions (table_id, idx, seat, legal_idx, action, how, at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)")


def _action_text(action: Mapping[str, Any]) -> str:
    """An action's stored JSON (``json.dumps``' default form)."""
    return json.dumps(action if type(action) is dict else dict(action))


def _pg_write(store: Store, table_id: str, w: Write, *, alone: bool,
              game: NewGame | None = None) -> tuple[str, list[Any]]:
    """:func:`write` on PostgreSQL, its SQL and arguments: one statement (one round trip; ``alone``:
    its own transaction), the fenced update of the table's row first — the inserts and the
    notification take their rows from it, so a process that no longer runs the table writes
    nothing — then the action, the events, the notification. The rows go as one JSON array each
    (a ``json`` value's elements keep their text exactly), not as arrays: psycopg dumps arrays in
    Python, a fifth of the served process's CPU per action (issue 22).

    The fence also wants the event before the first one written stored: a process whose table is
    ahead of the database (PostgreSQL lost the last moves it had acknowledged: a crash with
    ``commit_moves`` off) writes nothing after the gap, and its table is read again from the
    database (as a table another process took over: ``web/shared.py``).

    ``game``: the game ended with this change (:meth:`MoveWriter.send`): the fenced update also marks
    the table finished (an unfinished one only) with the game's id, taken first from its sequence,
    and the game's rows follow it (``pg_game_ctes``), written only if the fence let it through; its
    transaction commits asynchronously (MoveWriter.send answers it after a durable commit behind it)."""
    columns = _columns(w)
    sets = [f"{c} = ?" for c, _ in columns]
    fence = " AND runner = ?" if w.runner is not None else ""
    args: list[Any] = [*(v for _, v in columns), table_id, *([w.runner] if w.runner is not None else [])]
    if w.first_event > 0:  # and its events follow the stored ones: not after a gap (see the doc)
        fence += " AND EXISTS (SELECT 1 FROM web_events WHERE table_id = ? AND idx = ?)"
        args += [table_id, w.first_event - 1]
    if game is None:
        sets = sets or ["runner = runner"]  # (the fence alone: nothing of the row changes)
        sql = f"WITH t AS (UPDATE web_tables SET {', '.join(sets)} WHERE id = ?{fence} RETURNING id, followers)"
    else:
        sets += ["finished = 1", "game_id = (SELECT id FROM n)"]
        sql = ("WITH n AS (SELECT nextval(pg_get_serial_sequence('games', 'id')) AS id), "
               f"t AS (UPDATE web_tables SET {', '.join(sets)} WHERE id = ? AND finished = 0{fence} "
               "RETURNING id, game_id, followers)")
    if w.actions:
        sql += (", a AS (INSERT INTO web_actions (table_id, idx, seat, legal_idx, action, how, at) "
                "SELECT t.id, (u.r->>0)::int, (u.r->>1)::int, (u.r->>2)::int, (u.r->3)::text, u.r->>4, u.r->>5 "
                "FROM t, json_array_elements(?::json) AS u(r))")
        args.append("[" + ",".join(f"[{a.idx},{a.seat},{a.legal_idx},{_action_text(a.action)},{_dumps(a.how)},"
                                   f"{_dumps(a.at)}]" for a in w.actions) + "]")
    if w.events:
        sql += (", e AS (INSERT INTO web_events (table_id, idx, data) SELECT t.id, ? + u.i - 1, u.d::text "
                "FROM t, json_array_elements(?::json) WITH ORDINALITY AS u(d, i))")
        args += [w.first_event, _events_json(w.events)]
    if game is not None:
        for cte, cte_args in pg_game_ctes(game, fenced_by="t"):
            sql += f", {cte}"
            args += cte_args
    # a move alone in its transaction commits without waiting for the WAL's flush when so chosen
    # (commit_moves); a finished game's commit does not wait either, MoveWriter.send's _FLUSH does
    quick = _ASYNC_COMMIT if alone and (game is not None or not store.durable_moves) else ""
    if w.notice is not None:  # only while another process follows the table (see follow())
        sql += f" SELECT CASE WHEN t.followers > 0 THEN pg_notify(?, ?) END FROM t{quick}"
        args += [table_channel(table_id), w.notice]
    else:
        sql += f" SELECT 1 FROM t{quick}"
    return sql, args


#: A durable commit that flushes the WAL up to itself, so up to the asynchronous commits before it
#: on its connection (MoveWriter.send: a game's end): a transactional logical message (a WAL record
#: and a transaction id, nothing else written; any role may send one), committed with the session's
#: synchronous_commit.
_FLUSH = "SELECT 1 FROM pg_logical_emit_message(true, 'sanma', 'flushed')"

#: Joined to a move's statement: its own transaction commits asynchronously (set_config's third
#: argument: for this transaction only, as ``SET LOCAL``; read by PostgreSQL as it commits).
_ASYNC_COMMIT = " CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS quick"


def commit_moves(store: Store, *, synchronous: bool) -> None:
    """How a served table's moves commit (``sanma serve --synchronous-commit``). ``synchronous``
    (the default): each waits until PostgreSQL has its WAL on disk. Off (PostgreSQL only): a move
    — its action, events, clocks — commits at once and reaches the disk within PostgreSQL's
    ``3 × wal_writer_delay`` (0.6 s by default). PostgreSQL stays consistent either way, and a
    sanma process that dies loses nothing; a crash of PostgreSQL or of its machine may lose the
    last moves acknowledged in that time (docs/DEPLOY.md, "Durability"). Every other write — a
    finished game, the keeper, tournaments, accounts — stays durable. SQLite has no such choice:
    refused with :class:`StoreError`."""
    if not synchronous and store.dialect != "postgresql":
        raise _no_async_commit(store.path)
    store.durable_moves = synchronous


def check_commit_moves(target: str, *, synchronous: bool) -> None:
    """:func:`commit_moves`' refusal before anything is opened or locked (``target``: a SQLite path
    or a PostgreSQL URL): ``sanma serve`` says it in one line."""
    if not synchronous and not is_url(target):
        raise _no_async_commit(display(target))


def _no_async_commit(where: str) -> StoreError:
    return StoreError(at(where, sentence(
        "--synchronous-commit off needs a PostgreSQL database (--db postgresql://...): SQLite has no such choice",
        code="no_async_commit")))


def append_action(store: Store, table_id: str, idx: int, *, seat: int, legal_idx: int, action: Mapping[str, Any],
                  how: str, at: str, first_event: int, events: Sequence[Mapping[str, Any]],
                  banks: Sequence[float] | None = None) -> None:
    """Action ``idx`` and the events it caused (numbered from ``first_event``), in one transaction;
    ``banks``: the seats' time banks when the action spent some."""
    write(store, table_id, Write(first_event, events, (ActionRow(idx, seat, legal_idx, dict(action), how, at),),
                                 banks=None if banks is None else json.dumps(list(banks))))


def event_count(store: Store, table_id: str) -> int:
    """How many events a table has stored."""
    return int(store.conn.execute("SELECT COUNT(*) FROM web_events WHERE table_id = ?", (table_id,)).fetchone()[0])


def abandon(store: Store, table_id: str, *, runner: int | None = None, notice: str | None = None) -> bool:
    """A table everybody left ends without a game: marked finished with no ``game_id`` (not resumed;
    an abandoned table is a finished one whose events do not end with ``end_game``). False when it
    was finished already or (``runner``) is no longer this runner's. ``notice`` as in :class:`Write`."""
    with store.transaction():
        fence = " AND runner = ?" if runner is not None else ""
        r = store.conn.execute(f"UPDATE web_tables SET finished = 1 WHERE id = ? AND finished = 0{fence}",
                               (table_id, *([runner] if runner is not None else [])))
        if r.rowcount != 1:
            return False
        if notice is not None:
            notify(store, table_channel(table_id), notice)
    return True


def finish(store: Store, table_id: str, game_events: Sequence[Mapping[str, Any]], rules: Rules,
           seed: str, *, players: Sequence[str | None] | None = None, runner: int | None = None,
           notice: str | None = None) -> int | None:
    """Store a finished table's game (a ``games`` row that replay and stats read) and mark the table
    finished, in one transaction; the game's id, or None when it was already finished, is unknown
    or (``runner``) is no longer this runner's. ``players``: the store's player each seat counts for
    (``Store.save_game``). ``notice`` as in :class:`Write`."""
    with store.transaction():
        r = store.conn.execute(f"SELECT finished, runner FROM web_tables WHERE id = ?{store.conn.for_update}",
                               (table_id,)).fetchone()
        if r is None or r[0] or (runner is not None and r[1] != runner):
            return None
        game_id = store.save_game(game_events, rules=rules, seed=seed, players=players)
        store.conn.execute("UPDATE web_tables SET finished = 1, game_id = ? WHERE id = ?", (game_id, table_id))
        if notice is not None:
            notify(store, table_channel(table_id), notice)
        return game_id


def claim_seat(store: Store, table_id: str, seat: int, player: str) -> bool:
    """Record that the browser player ``player`` (web/players.py) sits at ``seat`` of the table, in
    its ``seats`` (``"player"``), unless someone already does; True when the seat is now theirs."""
    with store.transaction():
        row = store.conn.execute("SELECT seats FROM web_tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return False
        seats = json.loads(row[0])
        if not 0 <= seat < len(seats):
            return False
        held = seats[seat].get("player")
        if held is not None:
            return bool(held == player)
        seats[seat]["player"] = player
        store.conn.execute("UPDATE web_tables SET seats = ? WHERE id = ?", (_dumps(seats), table_id))
    return True


def seat_players(store: Store, table_id: str) -> list[str | None]:
    """The browser player claimed at each seat (:func:`claim_seat`; None: nobody), as stored — a
    seat may be claimed through any process of several, so the runner reads it here at the end."""
    row = store.conn.execute("SELECT seats FROM web_tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        return []
    return [s.get("player") for s in json.loads(row[0])]


def tables_of_games(store: Store, game_ids: Sequence[int]) -> dict[int, str]:
    """The served table each stored game was played at (game id -> table id), where it was one."""
    if not game_ids:
        return {}
    clause, args = store.ids_in("game_id", game_ids)
    rows = store.conn.execute(f"SELECT game_id, id FROM web_tables WHERE {clause}", args)
    return {int(g): str(t) for g, t in rows}


# --------------------------------------------------------------------------------------------
# Several processes (PostgreSQL): who runs which table, and what the others read
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shared:
    """What a process that does not run a table reads of it to catch up: the actions after the
    ones it has, how many events are stored, and the runner's columns."""

    actions: tuple[ActionRow, ...]
    events: int
    schedule: str | None
    toggles: tuple[dict[str, bool], ...]
    banks: tuple[float, ...]
    runner: int | None
    finished: bool


def shared(store: Store, table_id: str, after_action: int) -> Shared | None:
    """The table's state beyond its first ``after_action`` actions (read in one snapshot)."""
    with store.snapshot():
        r = store.conn.execute("SELECT schedule, toggles, banks, runner, finished FROM web_tables WHERE id = ?",
                               (table_id,)).fetchone()
        if r is None:
            return None
        rows = store.conn.execute(
            "SELECT idx, seat, legal_idx, action, how, at FROM web_actions WHERE table_id = ? AND idx >= ? "
            "ORDER BY idx", (table_id, after_action)).fetchall()
        n = event_count(store, table_id)
    return Shared(tuple(ActionRow(x[0], x[1], x[2], json.loads(x[3]), x[4], x[5]) for x in rows), n, r[0],
                  tuple(json.loads(r[1])), tuple(float(b) for b in json.loads(r[2])), r[3], bool(r[4]))


def schedule_of(store: Store, table_id: str) -> str | None:
    """The stored scheduler state (JSON), if any."""
    r = store.conn.execute("SELECT schedule FROM web_tables WHERE id = ?", (table_id,)).fetchone()
    return None if r is None else r[0]


def status(store: Store, table_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The lobby's status (scores, round, hands) of running tables, as their runners stored it."""
    if not table_ids:
        return {}
    clause, args = _ids_text(store, table_ids)
    return {r[0]: json.loads(r[1]) for r in store.conn.execute(
        f"SELECT id, status FROM web_tables WHERE {clause} AND status IS NOT NULL", args)}


def _ids_text(store: Store, ids: Sequence[str]) -> tuple[str, list[Any]]:
    if store.dialect == "postgresql":
        return "id = ANY(?)", [list(ids)]
    return "id IN (SELECT value FROM json_each(?))", [json.dumps(list(ids))]


def claim(store: Store, table_id: str, node: int, previous: int | None, notice: str | None = None) -> bool:
    """Take over running the table from ``previous`` (None: nobody ran it): True for exactly one of
    the processes that try at once (a compare-and-set on ``runner``)."""
    with store.transaction():
        r = store.conn.execute(
            "UPDATE web_tables SET runner = ? WHERE id = ? AND finished = 0 AND "
            + ("runner IS NULL" if previous is None else "runner = ?"),
            (node, table_id) if previous is None else (node, table_id, previous))
        if r.rowcount != 1:
            return False
        if notice is not None:
            notify(store, table_channel(table_id), notice)
    return True


def follow(store: Store, table_id: str, following: bool) -> None:
    """Count one more (``following``) or one fewer process that follows the table: its runner
    notifies a move (:class:`Write`'s ``notice``) only while the count is above zero. Kept on the
    table's own row, which every write of the runner updates first, so a move and a new follower
    are in an order: the write that locks the row after the follower's count is committed sees it
    (PostgreSQL evaluates a waiting update on the row's newest version) and notifies; one that held
    the row before commits before the count does, and the follower, which listens on the table's
    channel before it counts itself, reads it from the database after (``web/shared.py``). A
    process that ends without counting itself out leaves its count: the moves are notified for
    nobody (as they all were before the count), never missed."""
    change = "followers + 1" if following else "CASE WHEN followers > 0 THEN followers - 1 ELSE 0 END"
    with store.transaction():
        store.conn.execute(f"UPDATE web_tables SET followers = {change} WHERE id = ?", (table_id,))


#: The advisory lock class of a server process's key (``pg_advisory_lock(NODE_CLASS, key)``; "SANM").
NODE_CLASS = 0x53414E4D
_LIVE = ("SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
         f"AND l.classid = {NODE_CLASS} AND l.database = (SELECT oid FROM pg_database WHERE datname = "
         "current_database())")


def orphans(store: Store, limit: int = 1000) -> list[tuple[str, int | None]]:
    """Unfinished tables whose runner is gone (PostgreSQL: its process's advisory lock is not held,
    so the process ended, ``kill -9`` included) or that nobody runs: ``(table id, runner)``."""
    if store.dialect != "postgresql":
        return [(t, None) for t in unfinished(store)]
    return [(r[0], r[1]) for r in store.conn.execute(
        f"SELECT t.id, t.runner FROM web_tables t WHERE t.finished = 0 AND (t.runner IS NULL OR NOT EXISTS ("
        f"{_LIVE} AND l.objid::bigint = t.runner)) ORDER BY t.created_at, t.id LIMIT ?", (limit,))]


def live_nodes(store: Store) -> set[int]:
    """The keys of the server processes alive on this database (their advisory locks)."""
    if store.dialect != "postgresql":
        return set()
    return {int(r[0]) for r in store.conn.execute(_LIVE.replace("SELECT 1", "SELECT l.objid::bigint", 1))}


def runs_anything(store: Store, node: int) -> bool:
    """Whether any unfinished table names ``node`` as its runner (a new process's key must not)."""
    return store.conn.execute("SELECT 1 FROM web_tables WHERE runner = ? AND finished = 0 LIMIT 1",
                              (node,)).fetchone() is not None


def set_presence(store: Store, table_id: str, node: int, counts: Sequence[int], notice: str | None = None,
                 channels: Sequence[str] = ()) -> None:
    """How many connections this process holds on each seat of the table; ``notice`` is sent on each
    of ``channels`` when it commits. (:meth:`MoveWriter.presence` writes the same without holding
    the event loop.)"""
    if store.dialect == "postgresql":
        with store.savepoint():
            store.conn.execute(*_pg_presence(store, table_id, node, counts, notice, channels, alone=False))
        return
    with store.transaction():
        if any(counts):
            store.conn.execute(
                "INSERT INTO web_presence (table_id, node, counts) VALUES (?, ?, ?) ON CONFLICT (table_id, node) "
                "DO UPDATE SET counts = excluded.counts", (table_id, node, json.dumps(list(counts))))
        else:
            store.conn.execute("DELETE FROM web_presence WHERE table_id = ? AND node = ?", (table_id, node))


def _pg_presence(store: Store, table_id: str, node: int, counts: Sequence[int], notice: str | None,
                 channels: Sequence[str], *, alone: bool) -> tuple[str, list[Any]]:
    """:func:`set_presence` on PostgreSQL: one statement, its notifications included (a
    data-modifying expression runs whether or not the query reads it); committed as a move is
    (``commit_moves``) when ``alone`` in its transaction."""
    if any(counts):
        sql = ("WITH w AS (INSERT INTO web_presence (table_id, node, counts) VALUES (?, ?, ?) "
               "ON CONFLICT (table_id, node) DO UPDATE SET counts = excluded.counts)")
        args: list[Any] = [table_id, node, json.dumps(list(counts))]
    else:
        sql, args = "WITH w AS (DELETE FROM web_presence WHERE table_id = ? AND node = ?)", [table_id, node]
    told = list(channels) if notice is not None else []
    for channel in told:
        args += [channel, notice]
    quick = _ASYNC_COMMIT if alone and not store.durable_moves else ""
    sql += f" SELECT {', '.join(['pg_notify(?, ?)'] * len(told)) or '1'} FROM (VALUES (1)) AS one{quick}"
    return sql, args


def presence(store: Store, table_id: str, nodes: set[int]) -> dict[int, list[int]]:
    """Each live process's connections per seat of the table (``nodes``: the live ones)."""
    return {int(r[0]): json.loads(r[1]) for r in store.conn.execute(
        "SELECT node, counts FROM web_presence WHERE table_id = ?", (table_id,)) if int(r[0]) in nodes}
