"""The database: records, games, players, hands, events, results and simulation runs.

One :class:`Store` wraps one connection (:mod:`sanma.store.backend`): a SQLite file (WAL
journal, foreign keys on, a busy timeout so a second process waits instead of failing) or a
PostgreSQL database. Every save runs in one transaction and checks its whole input before the
first write, so bad input raises :class:`StoreError` (or the reader's
:class:`~sanma.errors.RecordError`) and leaves the database as it was.

>>> from sanma.store.events import EXAMPLE
>>> store = open_db(":memory:")
>>> data = EXAMPLE.encode()
>>> saved = store.import_bytes(data, "example.mjson")
>>> again = store.import_bytes(data, "again.mjson")
>>> saved.new_record, again.new_record, again.record_id == saved.record_id
(True, False, True)
>>> [g.kind for g in store.games()], [s.name for s in store.games("B")[0].seats]
(['record'], ['A', 'B', 'C'])
>>> [e["type"] for e in store.events(saved.game_id)][-2:]
['end_kyoku', 'end_game']
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from ..errors import RecordError
from ..fileio import read_regular
from ..formats import GameRecord, read_record
from ..formats.guard import MAX_BYTES
from ..i18n import Message, sentence, sentence_n
from ..tiles import SEATS
from .backend import (
    Connection,
    DatabaseError,
    SqliteConnection,
    StoreBusy,
    StoreError,
    after,
    at,
    connect,
    is_url,
    sqlite_says,
)
from .events import record_events
from .facts import GameFacts, tally
from .migrations import SCHEMA_VERSION, migrations_for

if TYPE_CHECKING:
    from ..rules import Rules
    from ..sim.arena import GameSummary

DEFAULT_NAME = "sanma.sqlite"
ENV_VAR = "SANMA_DB"
MAX_NAME = 200  # characters of a player name

#: Tenhou's log id: ``YYYYMMDDHHgm-TTTT-LLLL-XXXXXXXX`` (the hour is Japan time).
LOG_ID = re.compile(r"(?<![0-9])((\d{4})(\d{2})(\d{2})(\d{2})gm-[0-9a-f]{4}-[0-9]{4}-[0-9a-f]{8})(?![0-9a-f])")
#: The rank and rate majiang (kobalab) JSON appends to Tenhou names: ``"Emurated (八段 R2200)"``.
RANK_SUFFIX = re.compile(r"\s*[(（][^()（）]*\bR\d+(?:\.\d+)?[)）]\s*$")


Verify = Callable[[GameRecord], "str | None"]  # why a record must not be stored, or None


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def default_db_path() -> Path | str:
    """``$SANMA_DB`` when set (a file, or a ``postgresql://`` URL), else ``sanma.sqlite`` in the
    current directory."""
    env = os.environ.get(ENV_VAR)
    if env and is_url(env):
        return env
    return Path(env) if env else Path.cwd() / DEFAULT_NAME


def file_checksum(data: bytes) -> str:
    """The SHA-256 of a file's bytes, in hex: what makes an import idempotent."""
    return hashlib.sha256(data).hexdigest()


def canonical_name(name: str) -> str:
    """A player's name without the rank and rate some formats append.

    >>> canonical_name("Emurated (八段 R2200)"), canonical_name("  A "), canonical_name("x (y)")
    ('Emurated', 'A', 'x (y)')
    """
    return RANK_SUFFIX.sub("", name).strip()


def check_text(text: str, what: str | Message) -> str:
    """``text`` as the store can keep it: valid Unicode (no lone surrogate: UTF-8 cannot hold one)
    and no control character (a tab, a newline, NUL, DEL). Raises ``StoreError`` naming ``what``.

    >>> check_text("東 1", "a seed")
    '東 1'
    >>> check_text("a\\tb", "a seed")
    Traceback (most recent call last):
    ...
    sanma.store.backend.StoreError: a seed holds a control character (U+0009)
    """
    bad = next((c for c in text if ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF), None)
    if bad is not None:
        point = f"U+{ord(bad):04X}"
        raise StoreError(sentence("{what} holds a lone surrogate ({point})", code="bad_text", what=what, point=point)
                         if 0xD800 <= ord(bad) <= 0xDFFF else
                         sentence("{what} holds a control character ({point})", code="bad_text", what=what,
                                  point=point))
    return text


def check_name(name: str, what: str | Message | None = None) -> str:
    """A player's name as the store keeps it (every game's seats, the served tables' at creation):
    not empty once a rank suffix is cut, at most ``MAX_NAME`` characters, and :func:`check_text`.
    Returns the name; raises ``StoreError`` naming ``what``.

    >>> check_name("Aiko")
    'Aiko'
    >>> check_name("(R2200)")
    Traceback (most recent call last):
    ...
    sanma.store.backend.StoreError: player name '(R2200)' is empty or longer than 200 characters
    """
    what = sentence("player name") if what is None else what
    if not canonical_name(name) or len(name) > MAX_NAME:
        raise StoreError(sentence("{what} {name!r} is empty or longer than {limit} characters", code="bad_name",
                                  what=what, name=name[:MAX_NAME], limit=MAX_NAME))
    return check_text(name, sentence("{what} {name}", what=what, name=ascii(name[:MAX_NAME])))


def log_id_of(source: str, text: str = "") -> str | None:
    """Tenhou's log id from the file name, else from the start of the record (``"ref"``).

    >>> log_id_of("logs/2014091101gm-00b9-0000-5ca6b487.xml")
    '2014091101gm-00b9-0000-5ca6b487'
    >>> log_id_of("chankan.json", '{"ver": "2.3", "ref": ""}') is None
    True
    """
    for where in (Path(source).name, text[:4096]):
        m = LOG_ID.search(where)
        if m and _date_of(m) is not None:
            return m.group(1)
    return None


def _date_of(m: re.Match[str]) -> str | None:
    try:
        when = datetime(int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)))
    except ValueError:
        return None
    return when.strftime("%Y-%m-%dT%H:00+09:00")


def played_at_of(log_id: str | None) -> str | None:
    """When a Tenhou game was played (ISO 8601, Japan time), from its log id.

    >>> played_at_of("2014091101gm-00b9-0000-5ca6b487")
    '2014-09-11T01:00+09:00'
    """
    m = LOG_ID.fullmatch(log_id) if log_id else None
    return _date_of(m) if m else None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode  # made once


def _json(value: Any, what: str | Message) -> str:
    """``value`` as the stored JSON text; a ``StoreError`` naming ``what`` when it is not JSON data."""
    try:
        return _encode(value)
    except (TypeError, ValueError, RecursionError) as e:
        raise StoreError(sentence("{what} is not JSON data: {why}", code="not_json", what=what, why=str(e))) from None


class NewGame(NamedTuple):
    """A game as the store writes it, made and checked before any write (``Store.new_game``; a
    record's in ``Store.save_record``): its events' rows — (index, kyoku, type, actor, the event's
    JSON text) — its facts (results, kyoku) and the ``games`` row's values."""

    rows: list[tuple[Any, ...]]
    facts: GameFacts
    kind: str
    rules_name: str
    log_id: str | None = None
    rules_json: str | None = None
    seed: str | None = None
    played_at: str | None = None
    simulation: tuple[int, int] | None = None
    players: Sequence[str | None] | None = None


_GAME_COLUMNS = ("kind, log_id, rules_name, rules_json, seed, simulation_id, simulation_index, played_at, created_at, "
                 "hands, complete")
_RESULT_COLUMNS = ("game_id, seat, player_id, recorded_name, score, placement, points, chips, hands, wins, deal_ins, "
                   "riichi, calls, draws, win_points, deal_in_points, kita")
_KYOKU_COLUMNS = ("game_id, idx, round_wind, dealer, honba, kyotaku, start_scores, end_scores, deltas, outcome, "
                  "first_event, last_event")
_EVENT_COLUMNS = "game_id, idx, kyoku_idx, type, actor, data"


def _result_rows(game: NewGame) -> list[tuple[Any, ...]]:
    """Each seat's ``results`` row after ``game_id``, its player's name in place of ``player_id``:
    the store's player the seat counts for (``players``, else the name the game shows)."""
    players = game.players
    return [(seat, canonical_name((players[seat] if players is not None and seat < len(players) else None) or s.name),
             s.name, s.score, s.placement, s.points, s.chips, s.hands, s.wins, s.deal_ins, s.riichi, s.calls, s.draws,
             s.win_points, s.deal_in_points, s.kita) for seat, s in enumerate(game.facts.seats)]


def _kyoku_rows(facts: GameFacts) -> list[tuple[Any, ...]]:
    """Each hand's ``kyoku`` row after ``game_id`` (its scores as JSON text)."""
    return [(k.index, k.round_wind, k.dealer, k.honba, k.kyotaku, _json(list(k.start_scores), "scores"),
             _json(list(k.end_scores), "scores") if k.end_scores is not None else None,
             _json(list(k.deltas), "deltas") if k.deltas is not None else None, k.outcome, k.first_event,
             k.last_event) for k in facts.kyoku]


def pg_game_ctes(game: NewGame, *, fenced_by: str | None = None) -> list[tuple[str, list[Any]]]:
    """``game`` written by one PostgreSQL statement: its common table expressions (SQL, arguments),
    in order — ``g`` (the ``games`` row: ``SELECT id FROM g`` is its id), then its players, results,
    kyoku and events, each set of rows sent as one JSON array (a ``json`` value's elements keep
    their text exactly: an event is stored as encoded here; psycopg's per-row statements were ~80%
    of ``save_game``'s time, issue 22). ``fenced_by``: the name of an earlier expression whose row
    gives the game's id (column ``game_id``): without that row nothing is written (a served table's
    last move, ``store.tables``). A new player is added in seat order (an existing one takes no id
    from the sequence: the ids are SQLite's); one added meanwhile by another transaction is found by
    ``ON CONFLICT DO UPDATE`` (which returns it: the statement's snapshot does not see it)."""
    sim_id, sim_index = game.simulation if game.simulation is not None else (None, None)
    values = "?::text, ?::text, ?::text, ?::text, ?::text, ?::bigint, ?::int, ?::text, ?::text, ?::int, ?::int"
    if fenced_by is None:
        g = f"g AS (INSERT INTO games ({_GAME_COLUMNS}) VALUES ({values}) RETURNING id)"
    else:
        g = (f"g AS (INSERT INTO games (id, {_GAME_COLUMNS}) SELECT {fenced_by}.game_id, {values} FROM {fenced_by} "
             "RETURNING id)")
    results = _result_rows(game)
    ints = ", ".join(f"(u.r->>{i})::int" for i in range(6, 16))
    events = "[" + ",".join([f"[{i},{_null(k)},{_encode(t)},{_null(a)},{text}]" for i, k, t, a, text in game.rows])
    events += "]"
    ctes: list[tuple[str, list[Any]]] = [
        (g, [game.kind, game.log_id, game.rules_name, game.rules_json, game.seed, sim_id, sim_index, game.played_at,
             _now(), game.facts.hands, int(game.facts.complete)]),
        ("gn AS (SELECT u.n, u.i FROM g, json_array_elements_text(?::json) WITH ORDINALITY AS u(n, i))",
         [_encode(list(dict.fromkeys(r[1] for r in results)))]),
        ("gp AS (INSERT INTO players (name) SELECT gn.n FROM gn WHERE NOT EXISTS (SELECT 1 FROM players p "
         "WHERE p.name = gn.n) ORDER BY gn.i ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id, name)",
         []),
        ("gq AS (SELECT id, name FROM gp UNION ALL SELECT p.id, p.name FROM players p JOIN gn ON p.name = gn.n)", []),
        (f"gr AS (INSERT INTO results ({_RESULT_COLUMNS}) SELECT g.id, (u.r->>0)::int, gq.id, u.r->>2, (u.r->>3)::int, "
         f"(u.r->>4)::int, (u.r->>5)::float8, {ints} FROM g CROSS JOIN json_array_elements(?::json) AS u(r) "
         "JOIN gq ON gq.name = u.r->>1)", [_json(results, "results")]),
        (f"gk AS (INSERT INTO kyoku ({_KYOKU_COLUMNS}) SELECT g.id, (u.r->>0)::int, u.r->>1, (u.r->>2)::int, "
         "(u.r->>3)::int, (u.r->>4)::int, u.r->>5, u.r->>6, u.r->>7, u.r->>8, (u.r->>9)::int, (u.r->>10)::int "
         "FROM g, json_array_elements(?::json) AS u(r))", [_encode(_kyoku_rows(game.facts))]),
        (f"ge AS (INSERT INTO events ({_EVENT_COLUMNS}) SELECT g.id, (u.r->>0)::int, (u.r->>1)::int, u.r->>2, "
         "(u.r->>3)::int, (u.r->4)::text FROM g, json_array_elements(?::json) AS u(r))", [events]),
    ]
    if game.simulation is not None:
        ctes.append(("gs AS (UPDATE simulation_results SET game_id = g.id FROM g WHERE simulation_id = ?::bigint "
                     "AND game_index = ?::int)", [sim_id, sim_index]))
    return ctes


def _null(value: int | None) -> str:
    return "null" if value is None else str(value)


def parse_record(data: bytes, source: str) -> GameRecord:
    """Read a record from its bytes (any supported format: ``formats.read_record``), naming it
    ``source``; lenient."""
    return read_record(data, source=source)


def _not_stored(source: str | Message, why: object) -> Message:
    """``source: not stored: why`` — a record or a game refused (the database unchanged)."""
    return sentence("{source}: not stored: {why}", code="not_stored", source=source, why=why)


def _no_game(where: str, game_id: int) -> Message:
    return at(where, sentence("no game {id}", code="no_game", id=game_id))


# --------------------------------------------------------------------------------------------
# Rows handed out
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SavedRecord:
    """The outcome of storing one file: its record row, its game, and what was new."""

    record_id: int
    game_id: int
    new_record: bool  # False: a file with this checksum was already stored; nothing was written
    new_game: bool  # False: the game was already stored (from this file, or another format of it)


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    name: str
    score: int | None
    placement: int | None
    points: float | None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    kind: str
    rules_name: str
    log_id: str | None
    seed: str | None
    played_at: str | None
    created_at: str
    hands: int
    complete: bool
    simulation_id: int | None
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class RecordRow:
    id: int
    checksum: str
    source_path: str
    format: str
    rule_name: str
    size: int
    game_id: int
    imported_at: str


@dataclass(frozen=True, slots=True)
class SimulationRow:
    id: int
    rules_name: str
    rules: dict[str, Any]
    seed: str
    bots: tuple[str, ...]
    games: int
    kyoku: int
    seconds: float | None
    summary: dict[str, Any] | None
    created_at: str


# --------------------------------------------------------------------------------------------
# Opening
# --------------------------------------------------------------------------------------------


def open_db(path: str | os.PathLike[str] | None = None) -> Store:
    """Open (creating and migrating as needed) the database at ``path``: a SQLite file (default
    :func:`default_db_path`; ``":memory:"`` for a private in-memory database) or a PostgreSQL
    ``postgresql://USER@HOST:PORT/DB`` URL (the database must exist; its tables are created)."""
    target = default_db_path() if path is None else path
    where = target if is_url(target) else str(os.fspath(target))
    assert isinstance(where, str)
    if not is_url(where) and where != ":memory:":
        _check_path(where)
    conn = connect(where)
    try:
        if isinstance(conn, SqliteConnection):
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 10000")
            if where != ":memory:":
                _check_integrity(conn)  # before anything is written: a damaged file is never added to
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
        _migrate(conn)
        _check_tables(conn)
    except DatabaseError as e:
        conn.close()
        raise StoreError(_unusable(conn.target, after(e, conn.target))) from None
    except BaseException:
        conn.close()
        raise
    return Store(conn, conn.target)


def _unusable(where: str, why: object, code: str = "not_a_database") -> Message:
    return at(where, sentence("not a usable sanma database: {why}", code=code, why=why))


def _check_path(where: str) -> None:
    """A database path sanma can use: not a directory, not a FIFO or device, in a reachable directory."""
    import stat

    try:
        st = os.stat(where)
    except FileNotFoundError:
        parent = Path(where).parent
        try:
            if not parent.is_dir():
                raise StoreError(at(where, sentence("cannot create the database: no directory {parent}",
                                                    code="db_create", parent=str(parent))))
        except OSError as e:
            raise StoreError(at(where, sentence("cannot create the database: {parent}: {why}", code="db_create",
                                                parent=str(parent), why=e.strerror or str(e)))) from None
        return
    except OSError as e:  # e.g. a directory on the way that may not be entered
        raise StoreError(at(where, sentence("cannot open the database: {why}", code="db_open",
                                            why=e.strerror or str(e)))) from None
    if stat.S_ISDIR(st.st_mode):
        raise StoreError(at(where, sentence("is a directory, not a database file", code="not_a_file")))
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(at(where, sentence("not a regular file, not a database file", code="not_a_file")))


def _check_integrity(conn: SqliteConnection) -> None:
    """Refuse a damaged file (SQLite's quick_check: every page and index is sound) before any write."""
    where = conn.target
    try:
        rows = [r[0] for r in conn.raw.execute("PRAGMA quick_check(5)")]
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # a damaged name in the report is not UTF-8
        raise StoreError(_unusable(where, sentence(
            "the file is damaged or not a database ({why}); nothing was written (restore it from a copy)",
            why=sqlite_says(e)), "damaged")) from None
    if rows != ["ok"]:  # one line: SQLite's own report runs over several
        first = " ".join(str(rows[0]).split())[:160] if rows else ""
        many = (sentence("{n}+ problems", n=len(rows)) if len(rows) >= 5 else
                sentence_n("{n} problem", "{n} problems", len(rows)))
        raise StoreError(_unusable(where, sentence(
            "the file is damaged ({many}; the first: {first}); nothing was written (restore it from a copy)",
            many=many, first=first), "damaged"))


@cache
def _expected_tables() -> frozenset[str]:
    """The tables of a fully migrated database."""
    conn = SqliteConnection(":memory:")
    try:
        _migrate(conn)
        return frozenset(conn.tables())
    finally:
        conn.close()


def _check_tables(conn: Connection) -> None:
    missing = sorted(_expected_tables() - conn.tables())
    if missing:
        raise StoreError(_unusable(conn.target, sentence_n(
            "table {tables} missing (schema version {version})", "tables {tables} missing (schema version {version})",
            len(missing), tables=", ".join(missing), version=_version(conn)), "tables_missing"))


def _version(conn: Connection) -> int:
    tables = conn.tables()
    if "schema_version" not in tables:
        if tables:
            raise StoreError(at(conn.target, sentence("not a sanma database (tables {tables}, no schema_version)",
                                                      code="not_sanma", tables=", ".join(sorted(tables)))))
        return 0
    value = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise StoreError(_unusable(conn.target, sentence("schema version {value!r} is not a whole number",
                                                         value=value), "bad_schema"))
    return value


def _migrate(conn: Connection) -> None:
    """Apply the missing migrations, each in its own transaction under the migration lock (SQLite's
    write lock; PostgreSQL's advisory lock): of several processes starting at once, one migrates."""
    current = _version(conn)
    if current > SCHEMA_VERSION:
        raise StoreError(at(conn.target, sentence("schema version {version} is newer than this sanma's {ours}; "
                                                  "upgrade sanma", code="newer_schema", version=current,
                                                  ours=SCHEMA_VERSION)))
    scripts = migrations_for(conn.dialect)
    for version in range(current + 1, SCHEMA_VERSION + 1):
        conn.begin()
        try:
            conn.lock_migrations()
            if _version(conn) >= version:  # another process migrated first
                conn.rollback()
                continue
            conn.script("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                        "applied_at TEXT NOT NULL)")
            conn.script(scripts[version - 1])
            conn.execute("INSERT INTO schema_version VALUES (?, ?)", (version, _now()))
            conn.commit()
        except BaseException:
            if conn.in_transaction:
                conn.rollback()
            raise


# --------------------------------------------------------------------------------------------
# The store
# --------------------------------------------------------------------------------------------


class _Transaction:
    """``Store.transaction()``: a context (a class, not a generator: the server opens one per
    action). The outermost begins and commits, a nested one is a savepoint; whatever is raised
    inside (or by the commit) undoes it and is raised on."""

    __slots__ = ("name", "outer", "store")

    def __init__(self, store: Store) -> None:
        self.store = store
        self.outer = True
        self.name = ""

    def __enter__(self) -> None:
        store = self.store
        self.outer = store._depth == 0
        if self.outer:
            store.conn.begin()
        else:
            self.name = f"sanma_{store._depth}"
            store.conn.execute(f"SAVEPOINT {self.name}")
        store._depth += 1

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: Any) -> None:
        store = self.store
        try:
            if kind is None:
                try:
                    if self.outer:
                        store.conn.commit()
                    else:
                        store.conn.execute(f"RELEASE {self.name}")
                except BaseException:
                    self._undo()
                    raise
            else:
                self._undo()  # and what was raised inside goes on
        finally:
            store._depth -= 1

    def _undo(self) -> None:
        conn = self.store.conn
        if self.outer:
            if conn.in_transaction:  # a failed COMMIT may leave SQLite's transaction open
                conn.rollback()
        else:
            conn.execute(f"ROLLBACK TO {self.name}")
            conn.execute(f"RELEASE {self.name}")


class Store:
    """An open sanma database. Use :func:`open_db`; close it (or use ``with``) when done."""

    def __init__(self, conn: Connection, path: str) -> None:
        self.conn = conn
        self.path = path  # as messages name it (a URL without its password)
        self._depth = 0
        #: Whether a served table's moves wait for their commit to reach the disk (PostgreSQL's
        #: synchronous_commit; ``tables.commit_moves``). Every other write always does.
        self.durable_moves = True

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.conn.dialect

    def close(self) -> None:
        self.conn.close()

    def wait_for_writes(self, ms: int) -> None:
        """How long a write waits for another process's write lock before it fails (10 s when
        opened). The server waits little: its event loop serves every table and must not stall;
        a write that fails is refused and retried (issue 23 item 5)."""
        if self.conn.dialect == "sqlite":
            self.conn.execute(f"PRAGMA busy_timeout = {int(ms)}")
        else:  # PostgreSQL: how long a statement waits for a row or table lock
            self.conn.execute(f"SET lock_timeout = {int(ms)}")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ids_in(self, column: str, ids: Sequence[int]) -> tuple[str, list[Any]]:
        """``column IN`` the ids, as a clause and its one argument (any number of ids)."""
        return self.conn.ids_in(column, ids)

    @property
    def schema_version(self) -> int:
        return _version(self.conn)

    def transaction(self) -> _Transaction:
        """All writes inside happen together or not at all (nested uses join the outer one)."""
        return _Transaction(self)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that see one moment of the database (inside a transaction: that transaction's)."""
        if self._depth > 0:
            yield
            return
        self.conn.begin_snapshot()
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            self.conn.rollback()

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """Inside a transaction, a statement that may fail without ending it (PostgreSQL aborts a
        transaction at its first failed statement unless a savepoint catches it); else nothing."""
        if self._depth == 0:
            yield
            return
        with self.transaction():
            yield

    @contextmanager
    def _writing(self, what: Message) -> Iterator[None]:
        """``what`` (a sentence: "the game", "{source}") is written whole or not at all."""
        try:
            with self.transaction():
                yield
        except DatabaseError as e:  # a busy database stays StoreBusy (the server answers 503: try again)
            raise (StoreBusy if isinstance(e, StoreBusy) else StoreError)(at(self.path, sentence(
                "{what} not saved: {why}", code=e.code, what=what, why=after(e, self.path)))) from None

    # -- records ---------------------------------------------------------------------------

    def find_record(self, checksum: str) -> SavedRecord | None:
        """The stored record of a file with this checksum, if any."""
        row = self.conn.execute("SELECT id, game_id FROM records WHERE checksum = ?", (checksum,)).fetchone()
        return SavedRecord(row[0], row[1], False, False) if row else None

    def save_record(self, record: GameRecord, source_path: str | os.PathLike[str], checksum: str, *,
                    content: bytes | None = None, played_at: str | None = None,
                    log_id: str | None = None) -> SavedRecord:
        """Store a record read from a file whose bytes have SHA-256 ``checksum``.

        Idempotent by checksum: a file already stored is not stored again (``new_record`` False).
        The same Tenhou game from another file (another format: same log id, players, hands and
        final scores) adds the file but not a second game; a file that claims a stored game's log
        id with a different game is refused. A record with reader problems (``record.errors``) or
        that cannot be a 3-player game is refused. ``content`` (the file's bytes) is kept when
        given so the record can be read again from the database.
        """
        source = os.fspath(source_path)
        if not isinstance(checksum, str) or not re.fullmatch(r"[0-9a-f]{64}", checksum):
            raise StoreError(at(source, sentence("checksum {checksum!r} is not a SHA-256 hex digest",
                                                 code="checksum", checksum=checksum)))
        if content is not None and file_checksum(content) != checksum:
            raise StoreError(at(source, sentence("the content does not have the checksum {checksum}",
                                                 code="checksum", checksum=checksum)))
        existing = self.find_record(checksum)
        if existing is not None:
            return existing
        if record.errors:
            first = after(record.errors[0], source)  # a reader's problem, in its words
            raise StoreError(_not_stored(source, first if len(record.errors) == 1 else sentence(
                "{first} (and {n} more)", first=first, n=len(record.errors) - 1)))
        if not record.kyoku:
            raise StoreError(_not_stored(source, sentence("the record has no kyoku")))
        if log_id is None:
            text = content[:4096].decode("utf-8", errors="replace") if content is not None else ""
            log_id = log_id_of(source, text)
        try:
            events = record_events(record)
        except RecordError as e:
            raise StoreError(_not_stored(source, after(e, source))) from None
        facts = self._facts(events, source)
        rows = self._rows(events, facts, source)
        when = played_at if played_at is not None else played_at_of(log_id)
        with self._writing(sentence("{source}", source=source)):
            game_id: int | None = None
            if log_id is not None:
                game_id = self._same_game(log_id, facts, source)
            new_game = game_id is None
            if game_id is None:
                game_id = self._insert_game(NewGame(rows, facts, "record", record.rule_name, log_id=log_id,
                                                    played_at=when))
            record_id = self.conn.insert_id(
                "INSERT INTO records (checksum, source_path, format, rule_name, size, content, game_id, imported_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (checksum, source, record.format, record.rule_name, len(content) if content is not None else 0,
                 content, game_id, _now()))
        return SavedRecord(record_id, game_id, True, new_game)

    def import_bytes(self, data: bytes, source: str, verify: Verify | None = None) -> SavedRecord:
        """Store a record file's bytes (read and checked only when its checksum is new).

        ``verify(record)`` (e.g. a replay through the engine) returns why the record must not be
        stored, or None; a reason refuses the file with a ``StoreError``.
        """
        checksum = file_checksum(data)
        existing = self.find_record(checksum)
        if existing is not None:
            return existing
        record = parse_record(data, source)
        if verify is not None and not record.errors:
            problem = verify(record)
            if problem:
                raise StoreError(_not_stored(source, problem))
        return self.save_record(record, source, checksum, content=data)

    def import_files(self, paths: Iterable[str | os.PathLike[str]], verify: Verify | None = None) -> list[SavedRecord]:
        """Store every file in one transaction: either all are stored or, if any is bad, none.

        Only regular files of at most ``MAX_BYTES`` are read. Files already stored (same
        checksum) are not read again beyond their bytes; ``verify`` as in :meth:`import_bytes`.
        """
        loaded: list[tuple[str, bytes]] = []
        for p in paths:
            source = os.fspath(p)
            loaded.append((source, read_regular(source, MAX_BYTES, sentence("the record"), RecordError)))
        with self._writing(sentence("the records were")):
            return [self.import_bytes(data, source, verify) for source, data in loaded]

    def records(self) -> list[RecordRow]:
        """Every stored file, in import order."""
        rows = self.conn.execute("SELECT id, checksum, source_path, format, rule_name, size, game_id, imported_at "
                                 "FROM records ORDER BY id")
        return [RecordRow(*r) for r in rows]

    def record_content(self, record_id: int) -> bytes:
        row = self.conn.execute("SELECT content FROM records WHERE id = ?", (record_id,)).fetchone()
        if row is None or row[0] is None:
            raise StoreError(at(self.path, sentence("no stored content for record {id}", code="no_record",
                                                    id=record_id)))
        return bytes(row[0])

    def load_record(self, record_id: int) -> GameRecord:
        """The record read again from the stored file bytes (named by the stored path)."""
        row = self.conn.execute("SELECT source_path FROM records WHERE id = ?", (record_id,)).fetchone()
        if row is None:
            raise StoreError(at(self.path, sentence("no record {id}", code="no_record", id=record_id)))
        return parse_record(self.record_content(record_id), row[0])

    # -- games ---------------------------------------------------------------------------

    def save_game(self, events: Sequence[Mapping[str, Any]], rules_name: str | None = None, *,
                  rules: Rules | Mapping[str, Any] | None = None, seed: int | str | None = None,
                  played_at: str | None = None, kind: str = "engine",
                  simulation: tuple[int, int] | None = None, players: Sequence[str | None] | None = None) -> int:
        """Store a game the engine played (``Game.events``): returns its id.

        ``rules_name`` defaults to the rule set ``start_game`` names; ``rules`` (the ``Rules``
        or their dict) are kept as JSON; ``simulation`` is ``(simulation_id, game_index)`` for a
        game of a stored simulation run; ``players`` names the player each seat's results count for
        (None: the name the game shows, as for records), so that two people who sat under one name
        (the browser table's "Player 1") are not pooled together: the served table stores a person
        who has a browser player id as ``web:ID`` (web/players.py).
        """
        game = self.new_game(events, rules_name, rules=rules, seed=seed, played_at=played_at, kind=kind,
                             simulation=simulation, players=players)  # (checked before any write)
        with self._writing(sentence("the game")):
            return self._insert_game(game)

    def new_game(self, events: Sequence[Mapping[str, Any]], rules_name: str | None = None, *,
                 rules: Rules | Mapping[str, Any] | None = None, seed: int | str | None = None,
                 played_at: str | None = None, kind: str = "engine",
                 simulation: tuple[int, int] | None = None, players: Sequence[str | None] | None = None) -> NewGame:
        """What :meth:`save_game` stores, made and checked before anything is written (a bad event
        raises here): a served table's finished game is stored by its last move's statement
        (PostgreSQL: ``store.tables.MoveWriter``) from this."""
        if kind not in ("engine", "simulation"):
            raise StoreError(sentence("game kind {kind!r} is not engine or simulation (records use save_record)",
                                      kind=kind))
        evs = [e if type(e) is dict else dict(e) if isinstance(e, Mapping) else e for e in events]  # (read only)
        facts = self._facts(evs, sentence("game"))
        rows = self._rows(evs, facts, sentence("game"))
        rules_json = None
        if rules is not None:
            from ..rules import Rules
            from ..rules.loader import to_dict

            rules_json = _json(to_dict(rules) if isinstance(rules, Rules) else dict(rules), sentence("rules"))
            if rules_name is None and isinstance(rules, Rules):
                rules_name = rules.name
        name = rules_name if rules_name is not None else facts.rules_name
        seed_text = None if seed is None else str(seed)
        if seed_text is None and isinstance(evs[0].get("seed"), str | int):
            seed_text = str(evs[0]["seed"])
        return NewGame(rows, facts, kind, name, rules_json=rules_json, seed=seed_text, played_at=played_at,
                       simulation=simulation, players=players)

    def games(self, player: str | None = None) -> list[GameRow]:
        """Every game (or every game ``player`` sat in), oldest first: by when it was played where
        known, else when it was stored."""
        where, args = "", cast(tuple[Any, ...], ())
        if player is not None:
            where = ("WHERE g.id IN (SELECT r.game_id FROM results r JOIN players p ON p.id = r.player_id "
                     "WHERE p.name = ?)")
            args = (canonical_name(player),)
        return self._game_rows(where, args)

    def game(self, game_id: int) -> GameRow:
        rows = self._game_rows("WHERE g.id = ?", (game_id,))
        if not rows:
            raise StoreError(_no_game(self.path, game_id))
        return rows[0]

    def stored_game(self, ref: str) -> tuple[list[dict[str, Any]], Rules | None]:
        """A stored game's mjai events and its rules (None when only a preset's name was kept: its
        ``start_game`` names it), by game id or by the id of the served table that played it."""
        game_id: int | None = int(ref) if ref.isdigit() else None
        if game_id is None:
            row = self.conn.execute("SELECT game_id, finished FROM web_tables WHERE id = ?", (ref,)).fetchone()
            if row is None:
                raise StoreError(at(self.path, sentence("no game or served table {ref!r}", code="no_game", ref=ref)))
            if not row[1] or row[0] is None:
                raise StoreError(sentence("table {ref!r} is still being played: review it once it is over",
                                          code="in_play", ref=ref))
            game_id = int(row[0])
        found = self.conn.execute("SELECT rules_name, rules_json FROM games WHERE id = ?", (game_id,)).fetchone()
        if found is None:
            raise StoreError(_no_game(self.path, game_id))
        rules = None
        if found[1]:
            from ..rules.loader import from_dict

            rules = from_dict(json.loads(found[1]), f"game {game_id}", name=found[0])
        return self.events(game_id), rules

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The game's mjai events, in order."""
        rows = self.conn.execute("SELECT data FROM events WHERE game_id = ? ORDER BY idx", (game_id,))
        return [json.loads(r[0]) for r in rows]

    def kyoku(self, game_id: int) -> list[dict[str, Any]]:
        """The game's hands: round, dealer, honba, sticks, scores, outcome, event range."""
        cur = self.conn.execute(
            "SELECT idx, round_wind, dealer, honba, kyotaku, start_scores, end_scores, deltas, outcome, "
            "first_event, last_event FROM kyoku WHERE game_id = ? ORDER BY idx", (game_id,))
        out = []
        for r in cur:
            out.append({"index": r[0], "round_wind": r[1], "dealer": r[2], "honba": r[3], "kyotaku": r[4],
                        "start_scores": json.loads(r[5]), "end_scores": json.loads(r[6]) if r[6] else None,
                        "deltas": json.loads(r[7]) if r[7] else None, "outcome": r[8],
                        "first_event": r[9], "last_event": r[10]})
        return out

    # -- simulations -----------------------------------------------------------------------

    def save_simulation(self, rules: Rules, seed: int | str, bots: Sequence[str], games: Sequence[GameSummary], *,
                        seconds: float | None = None, summary: Mapping[str, Any] | None = None) -> int:
        """Store a simulation run: its rules (name and full JSON), seed, bots and each game's result
        per ``--bots`` entry (``sanma.sim.arena.GameSummary``). Returns the run's id."""
        from ..rules.loader import to_dict

        names = tuple(str(b) for b in bots)
        if len(names) != SEATS:
            raise StoreError(sentence("a simulation needs {seats} bots, got {n}", seats=SEATS, n=len(names)))
        rows: list[tuple[Any, ...]] = []
        seen: set[int] = set()
        for g in games:
            if g.index in seen or g.index < 0:
                raise StoreError(sentence("simulation game index {index} is repeated or negative", index=g.index))
            seen.add(g.index)
            if len(g.entries) != SEATS:
                raise StoreError(sentence("simulation game {index} has {n} entries, not {seats}", index=g.index,
                                          n=len(g.entries), seats=SEATS))
            if sorted(e.placement for e in g.entries) != [1, 2, 3] or sorted(e.seat for e in g.entries) != [0, 1, 2]:
                raise StoreError(sentence("simulation game {index}: placements or seats are not one each of "
                                          "1..3 / 0..2", index=g.index))
            for j, e in enumerate(g.entries):
                rows.append((g.index, j, names[j], e.seat, e.placement, e.score, float(e.points), e.wins,
                             e.deal_ins, e.riichi, e.calls, g.kyoku))
        rules_json = _json(to_dict(rules), sentence("rules"))
        summary_json = _json(dict(summary), sentence("summary")) if summary is not None else None
        with self._writing(sentence("the simulation")):
            sim_id = self.conn.insert_id(
                "INSERT INTO simulations (rules_name, rules_json, seed, bots, games, kyoku, seconds, summary, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (rules.name, rules_json, str(seed), _json(list(names), sentence("bots")), len(seen),
                 sum(g.kyoku for g in games), seconds, summary_json, _now()))
            self.conn.executemany(
                "INSERT INTO simulation_results (simulation_id, game_index, entry, bot, seat, placement, score, "
                "points, wins, deal_ins, riichi, calls, hands) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(sim_id, *r) for r in rows])
        return sim_id

    def simulations(self) -> list[SimulationRow]:
        cur = self.conn.execute("SELECT id, rules_name, rules_json, seed, bots, games, kyoku, seconds, summary, "
                                "created_at FROM simulations ORDER BY id")
        return [SimulationRow(r[0], r[1], json.loads(r[2]), r[3], tuple(json.loads(r[4])), r[5], r[6], r[7],
                              json.loads(r[8]) if r[8] else None, r[9]) for r in cur]

    def simulation_results(self, simulation_id: int) -> list[dict[str, Any]]:
        """One dict per game and ``--bots`` entry, in game then entry order."""
        cur = self.conn.execute(
            "SELECT game_index, entry, bot, seat, placement, score, points, wins, deal_ins, riichi, calls, hands, "
            "game_id FROM simulation_results WHERE simulation_id = ? ORDER BY game_index, entry", (simulation_id,))
        keys = [d[0] for d in cur.description]
        return [dict(zip(keys, r, strict=True)) for r in cur]

    # -- internals -------------------------------------------------------------------------

    @staticmethod
    def _facts(events: Sequence[Any], source: str | Message) -> GameFacts:
        try:
            facts = tally(events)
        except RecordError as e:
            raise StoreError(_not_stored(source, e)) from None
        for n in facts.names:
            try:
                check_name(n)
            except StoreError as e:
                raise StoreError(_not_stored(source, e)) from None
        return facts

    @staticmethod
    def _rows(events: Sequence[dict[str, Any]], facts: GameFacts, source: str | Message) -> list[tuple[Any, ...]]:
        """The event rows, serialised before any write (so a bad event raises first)."""
        rows = []
        for i, e in enumerate(events):
            actor = e.get("actor")
            try:
                text = _encode(e)
            except (TypeError, ValueError, RecursionError):  # refused, naming the event (its sentence made only now)
                text = _json(e, sentence("{source}: event {i}", source=source, i=i))
            rows.append((i, facts.kyoku_of_event[i], e["type"], actor if isinstance(actor, int) else None, text))
        return rows

    def _player(self, name: str) -> int:
        self.conn.execute("INSERT INTO players (name) VALUES (?) ON CONFLICT (name) DO NOTHING", (name,))
        return int(self.conn.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()[0])

    def _same_game(self, log_id: str, facts: GameFacts, source: str) -> int | None:
        row = self.conn.execute("SELECT id, hands FROM games WHERE log_id = ?", (log_id,)).fetchone()
        if row is None:
            return None
        stored = self.conn.execute("SELECT p.name, r.score FROM results r JOIN players p ON p.id = r.player_id "
                                   "WHERE r.game_id = ? ORDER BY r.seat", (row[0],)).fetchall()
        mine = [(canonical_name(s.name), s.score) for s in facts.seats]
        if row[1] != facts.hands or [tuple(r) for r in stored] != mine:
            raise StoreError(_not_stored(source, sentence(
                "it claims Tenhou log {log_id}, already stored as game {game} with other players, hands or scores",
                log_id=log_id, game=row[0])))
        return int(row[0])

    def _insert_game(self, game: NewGame) -> int:
        if self.conn.dialect == "postgresql":  # one statement, one round trip (its rows as JSON: pg_game_ctes)
            ctes = pg_game_ctes(game)
            sql = f"WITH {', '.join(c for c, _ in ctes)} SELECT id FROM g"
            return int(self.conn.execute(sql, [a for _, args in ctes for a in args]).fetchone()[0])
        facts = game.facts
        sim_id, sim_index = game.simulation if game.simulation is not None else (None, None)
        game_id = self.conn.insert_id(
            f"INSERT INTO games ({_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game.kind, game.log_id, game.rules_name, game.rules_json, game.seed, sim_id, sim_index, game.played_at,
             _now(), facts.hands, int(facts.complete)))
        self.conn.executemany(
            f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, seat, self._player(who), *rest) for seat, who, *rest in _result_rows(game)])
        self.conn.executemany(f"INSERT INTO kyoku ({_KYOKU_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              [(game_id, *k) for k in _kyoku_rows(facts)])
        self.conn.executemany(f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                              [(game_id, *r) for r in game.rows])
        if game.simulation is not None:
            self.conn.execute("UPDATE simulation_results SET game_id = ? WHERE simulation_id = ? AND game_index = ?",
                              (game_id, sim_id, sim_index))
        return game_id

    def _game_rows(self, where: str, args: tuple[Any, ...]) -> list[GameRow]:
        games = self.conn.execute(
            "SELECT g.id, g.kind, g.rules_name, g.log_id, g.seed, g.played_at, g.created_at, g.hands, g.complete, "
            f"g.simulation_id FROM games g {where} ORDER BY COALESCE(g.played_at, g.created_at), g.id", args).fetchall()
        if not games:
            return []
        seats: dict[int, list[SeatResult]] = {}
        clause, ids = self.ids_in("r.game_id", [g[0] for g in games])
        cur = self.conn.execute(
            "SELECT r.game_id, r.seat, p.name, r.score, r.placement, r.points FROM results r "
            f"JOIN players p ON p.id = r.player_id WHERE {clause} ORDER BY r.game_id, r.seat", ids)
        for r in cur:
            seats.setdefault(r[0], []).append(SeatResult(*r[1:]))
        return [GameRow(g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], bool(g[8]), g[9], tuple(seats.get(g[0], ())))
                for g in games]

