"""The two databases sanma can keep its data in, behind one small connection type.

* **SQLite** (the default): a file (or ``":memory:"``), Python's own ``sqlite3``, nothing to
  install. Right for one process on one machine.
* **PostgreSQL**: a ``postgresql://USER@HOST:PORT/DB`` URL, through psycopg 3 (the optional extra
  ``pip install 'sanma[postgres]'``). Any number of processes on any number of machines.

Every statement of :mod:`sanma.store` is written once, in SQLite's spelling with ``?``
placeholders; :class:`PostgresConnection` turns ``?`` into psycopg's ``%s``. What differs between
the two and cannot be said in one statement lives here and nowhere else: the schema's DDL
(:mod:`sanma.store.migrations`), how a write transaction starts (``BEGIN IMMEDIATE`` takes SQLite's
one write lock; PostgreSQL's row locks are taken with :attr:`Connection.for_update`), a list of ids
as one argument (:meth:`Connection.ids_in`), the id of an inserted row, the table and column lists,
and the migration lock. No other module imports a driver: a driver's error leaves this module as
:class:`DatabaseError` (a :class:`~sanma.store.db.StoreError`), a refused constraint as
:class:`IntegrityError`.

>>> conn = connect(":memory:")
>>> conn.script("CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT UNIQUE)")
>>> conn.insert_id("INSERT INTO t (x) VALUES (?)", ("a",)), conn.execute("SELECT x FROM t").fetchall()
(1, [('a',)])
>>> try:
...     conn.execute("INSERT INTO t (x) VALUES (?)", ("a",))
... except IntegrityError as e:
...     print("refused:", e)
refused: :memory:: UNIQUE constraint failed: t.x
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from ..errors import SanmaError
from ..i18n import Lang, Message, sentence
from ..i18n.messages import Said

URL_SCHEMES = ("postgresql://", "postgres://")
#: The advisory lock every PostgreSQL process takes while it migrates (one migrates, the others wait).
MIGRATION_LOCK = 0x53414E4D41  # "SANMA"


class StoreError(SanmaError):
    """The database cannot be opened, or a save was refused (the database is unchanged)."""


class DatabaseError(StoreError):
    """The database refused or failed a statement: a lock held too long, a lost connection, a
    damaged file, text it cannot hold. The transaction it was part of is rolled back."""


class IntegrityError(DatabaseError):
    """A constraint refused a write: a unique key, a foreign key, a check, an append-only trigger."""


class StoreBusy(DatabaseError):
    """Another process held the lock a write needs longer than this connection waits
    (:meth:`sanma.store.Store.wait_for_writes`): nothing was written; try again."""


def is_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL database (else it is a SQLite file)."""
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def display(target: str) -> str:
    """``target`` as messages show it: a URL without its password.

    >>> display("postgresql://sanma:secret@db.example:5432/club")
    'postgresql://sanma@db.example:5432/club'
    """
    return re.sub(r"^(postgres(?:ql)?://[^:/@?]*):[^@/?]*@", r"\1@", target) if is_url(target) else target


def _first_lines(e: BaseException) -> str:
    return " ".join(str(e).split())[:500] or type(e).__name__


def at(where: str, what: Message | str, *, code: str | None = None) -> Message:
    """The sentence ``where: what``: a database (or a file) named, then what is wrong with it (``what``
    a sentence, or the driver's own words). :func:`after` takes ``what`` back out.

    >>> str(at("a.sqlite", sentence("the database is busy", code="busy")))
    'a.sqlite: the database is busy'
    """
    return sentence("{where}: {what}", code=code or getattr(what, "code", None), where=where, what=what)


def after(e: SanmaError | str, where: str) -> object:
    """What error ``e`` (or a record's problem) says after naming ``where`` — to say it inside another
    sentence that names ``where`` itself: the ``what`` of a sentence :func:`at` made, else ``e``'s
    sentence with the name cut from its words in any language, else its text without the name."""
    m = e.message if isinstance(e, SanmaError | Said) else None
    if isinstance(m, Message) and m.template == "{where}: {what}" and m.params.get("where") == where:
        return m.params["what"]
    if isinstance(m, Message):
        return _Cut(m, f"{where}: ") if str(m).startswith(f"{where}: ") else m
    return str(e).removeprefix(f"{where}: ")


class _Cut(Message):
    """A sentence without the name it starts with (``{source}: ...`` said where the source is named)."""

    __slots__ = ("inner", "prefix")

    def __init__(self, inner: Message, prefix: str) -> None:
        super().__init__(inner.template, inner.params, code=inner.code, plural=inner.plural, n=inner.n)
        self.inner = inner
        self.prefix = prefix

    def text(self, lang: Lang | None = None) -> str:
        return self.inner.text(lang).removeprefix(self.prefix)

    def __str__(self) -> str:
        return str(self.inner).removeprefix(self.prefix)


def sqlite_says(e: BaseException) -> Message | str:
    """SQLite's words for a file it cannot read: its two usual ones as sentences, else as it says them."""
    name = getattr(e, "sqlite_errorname", "")
    if name == "SQLITE_NOTADB":
        return sentence("file is not a database")
    if name == "SQLITE_CORRUPT":
        return sentence("database disk image is malformed")
    return str(e)


BUSY = sentence("the database is busy (another program is writing to it); nothing was written", code="busy")


def _not_unicode(reason: str) -> Message:
    return sentence("text that is not valid Unicode cannot be stored ({reason})", code="not_unicode", reason=reason)


class Rows:
    """A statement's result: ``fetchone``, ``fetchall``, iteration, ``description``, ``rowcount``."""

    __slots__ = ("_conn", "_cur")

    def __init__(self, conn: Connection, cur: Any) -> None:
        self._conn = conn
        self._cur = cur

    @property
    def description(self) -> Any:
        return self._cur.description

    @property
    def rowcount(self) -> int:
        return int(self._cur.rowcount)

    def fetchone(self) -> Any:
        try:
            return self._cur.fetchone()
        except Exception as e:
            raise self._conn.translate(e) from None

    def fetchall(self) -> list[Any]:
        try:
            return list(self._cur.fetchall())
        except Exception as e:
            raise self._conn.translate(e) from None

    def fetchmany(self, size: int) -> list[Any]:
        try:
            return list(self._cur.fetchmany(size))
        except Exception as e:
            raise self._conn.translate(e) from None

    def __iter__(self) -> Iterator[Any]:
        while True:
            batch = self.fetchmany(500)
            if not batch:
                return
            yield from batch


class Connection:
    """One open connection to a sanma database (see the module's doc)."""

    dialect: str = ""
    #: Appended to a SELECT that reads a row the transaction will write on (PostgreSQL's row lock;
    #: SQLite's ``BEGIN IMMEDIATE`` already holds the only write lock).
    for_update: str = ""

    def __init__(self, target: str) -> None:
        self.target = target  # as messages show it (no password)

    # -- statements (each is one of the subclasses') ------------------------------------------
    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        raise NotImplementedError

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def script(self, sql: str) -> None:
        """Several statements without arguments (a migration), inside the open transaction if any."""
        raise NotImplementedError

    def insert_id(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run an INSERT into a table with an ``id`` key and return the new row's id."""
        raise NotImplementedError

    def translate(self, e: BaseException) -> BaseException:
        """The error to raise for a driver's error (``e`` itself when it is not the driver's)."""
        raise NotImplementedError

    @property
    def session_pid(self) -> int | None:
        """The database server's process serving this connection (PostgreSQL: what its
        notifications carry as their sender); None on SQLite or while it is closed."""
        return None

    # -- transactions ---------------------------------------------------------------------------
    def begin(self) -> None:
        raise NotImplementedError

    def commit(self) -> None:
        self.execute("COMMIT")

    def rollback(self) -> None:
        self.execute("ROLLBACK")

    @property
    def in_transaction(self) -> bool:
        raise NotImplementedError

    def begin_snapshot(self) -> None:
        """A read-only transaction that sees one moment of the database (a consistent copy)."""
        self.execute("BEGIN")

    def lock_migrations(self) -> None:
        """Inside the migration's transaction: wait until no other process migrates."""

    # -- schema ---------------------------------------------------------------------------------
    def tables(self) -> set[str]:
        raise NotImplementedError

    def columns(self, table: str) -> list[str]:
        raise NotImplementedError

    def ids_in(self, column: str, ids: Sequence[int]) -> tuple[str, list[Any]]:
        """``column IN`` the ids, as a clause and its one argument (any number of ids)."""
        raise NotImplementedError

    def after_copy(self, table: str) -> None:
        """After rows were copied in with their ids: the next generated id follows the largest."""

    def backup_to(self, out: str) -> None:
        """A page-level copy of the database into a new SQLite file (SQLite only)."""
        raise StoreError(at(self.target, sentence("only a SQLite database has a page-level backup",
                                                  code="no_backup")))

    def close(self) -> None:
        raise NotImplementedError


# --------------------------------------------------------------------------------------------
# SQLite
# --------------------------------------------------------------------------------------------


def _statements(script: str) -> list[str]:
    """A script's statements, each complete (a trigger's body keeps its inner semicolons)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


class SqliteConnection(Connection):
    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        super().__init__(path)
        try:
            self.raw = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        except sqlite3.Error as e:
            raise StoreError(at(path, sentence("cannot open the database: {why}", code="db_open", why=str(e)))) \
                from None

    def translate(self, e: BaseException) -> BaseException:
        if isinstance(e, sqlite3.IntegrityError):
            return IntegrityError(at(self.target, str(e), code="integrity"))  # the driver's words
        if isinstance(e, sqlite3.OperationalError) and ("locked" in str(e) or "busy" in str(e)):
            return StoreBusy(at(self.target, BUSY))
        if isinstance(e, sqlite3.Error):
            return DatabaseError(at(self.target, sqlite_says(e), code="database"))
        if isinstance(e, UnicodeEncodeError):  # a lone surrogate cannot be stored as UTF-8
            return DatabaseError(at(self.target, _not_unicode(e.reason)))
        return e

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        try:
            return Rows(self, self.raw.execute(sql, args))
        except Exception as e:
            raise self.translate(e) from None

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self.raw.executemany(sql, rows)
        except Exception as e:
            raise self.translate(e) from None

    def script(self, sql: str) -> None:
        for statement in _statements(sql):  # not executescript, which would COMMIT an open transaction
            self.execute(statement)

    def insert_id(self, sql: str, args: Sequence[Any] = ()) -> int:
        try:
            rowid = self.raw.execute(sql, args).lastrowid
        except Exception as e:
            raise self.translate(e) from None
        assert rowid is not None
        return int(rowid)

    def begin(self) -> None:
        self._statement("BEGIN IMMEDIATE")  # the write lock now: a reader never has to upgrade (no deadlock)

    def commit(self) -> None:
        self._statement("COMMIT")

    def _statement(self, sql: str) -> None:
        """A statement with no arguments and no rows (a transaction's own: one per write)."""
        try:
            self.raw.execute(sql)
        except Exception as e:
            raise self.translate(e) from None

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    def tables(self) -> set[str]:
        return {r[0] for r in self.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def columns(self, table: str) -> list[str]:
        return [r[1] for r in self.execute("SELECT * FROM pragma_table_info(?)", (table,))]

    def ids_in(self, column: str, ids: Sequence[int]) -> tuple[str, list[Any]]:
        import json

        return f"{column} IN (SELECT value FROM json_each(?))", [json.dumps([int(i) for i in ids])]

    def backup_to(self, out: str) -> None:
        """sqlite3's online backup of this database into a new file ``out``."""
        try:
            dest = sqlite3.connect(out)
        except sqlite3.Error as e:
            raise StoreError(at(out, sentence("cannot create the backup: {why}", code="backup", why=str(e)))) from None
        try:
            self.raw.backup(dest)
        except sqlite3.Error as e:
            raise StoreError(at(out, sentence("backup failed: {why}", code="backup", why=str(e)))) from None
        finally:
            dest.close()

    def close(self) -> None:
        self.raw.close()


# --------------------------------------------------------------------------------------------
# PostgreSQL
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _pg_sql(sql: str) -> str:
    """SQLite's ``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresConnection(Connection):
    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, url: str) -> None:
        super().__init__(display(url))
        try:
            import psycopg
        except ImportError:
            raise StoreError(at(self.target, sentence("PostgreSQL needs the psycopg driver: pip install "
                                                      "'sanma[postgres]'", code="no_driver"))) from None
        self._psycopg = psycopg
        self._url = url
        self._open = False  # a transaction begun and not yet ended (by us)
        self.raw = self._connect()

    def _connect(self) -> Any:
        try:
            return self._psycopg.connect(self._url, autocommit=True, connect_timeout=10,
                                         application_name="sanma")
        except self._psycopg.Error as e:
            raise StoreError(at(self.target, sentence("cannot connect: {why}", code="db_connect",
                                                      why=_first_lines(e)))) from None

    def _ready(self) -> Any:
        """The connection, opened again if the server dropped it while no transaction was open (one
        that was open is lost: its statements fail until it is rolled back)."""
        if self.raw.closed or self.raw.broken:
            if self._open:
                raise DatabaseError(at(self.target, sentence("the connection was lost inside a transaction",
                                                             code="connection_lost")))
            self.raw = self._connect()
        return self.raw

    def translate(self, e: BaseException) -> BaseException:
        errors = self._psycopg.errors
        if isinstance(e, errors.IntegrityError | errors.RaiseException):
            return IntegrityError(at(self.target, _first_lines(e), code="integrity"))
        if isinstance(e, errors.LockNotAvailable):  # waited lock_timeout (Store.wait_for_writes) for a row lock
            return StoreBusy(at(self.target, BUSY))
        if isinstance(e, self._psycopg.Error):
            return DatabaseError(at(self.target, _first_lines(e), code="database"))
        if isinstance(e, UnicodeEncodeError):
            return DatabaseError(at(self.target, _not_unicode(e.reason)))
        return e

    @property
    def session_pid(self) -> int | None:
        """The PostgreSQL backend of this connection (what its notifications carry as their
        sender), None while it is closed. A read of the open connection only: any thread may ask."""
        raw = self.raw
        return None if raw.closed else int(raw.info.backend_pid)

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Rows:
        try:
            return Rows(self, self._ready().execute(_pg_sql(sql) if args else sql, args or None))
        except Exception as e:
            raise self.translate(e) from None

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            with self._ready().cursor() as cur:
                cur.executemany(_pg_sql(sql), rows)
        except Exception as e:
            raise self.translate(e) from None

    def script(self, sql: str) -> None:
        try:
            self._ready().execute(sql)  # no arguments: the simple protocol, several statements allowed
        except Exception as e:
            raise self.translate(e) from None

    def insert_id(self, sql: str, args: Sequence[Any] = ()) -> int:
        row = self.execute(sql + " RETURNING id", args).fetchone()
        return int(row[0])

    def begin(self) -> None:
        self.execute("BEGIN")
        self._open = True

    def begin_snapshot(self) -> None:
        self.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        self._open = True

    def commit(self) -> None:
        try:
            self.execute("COMMIT")
        finally:
            self._open = False

    def rollback(self) -> None:
        self._open = False
        if not (self.raw.closed or self.raw.broken):
            self.execute("ROLLBACK")

    def lock_migrations(self) -> None:
        self.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))

    @property
    def in_transaction(self) -> bool:
        return bool(self.raw.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE)

    def tables(self) -> set[str]:
        return {r[0] for r in self.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}

    def columns(self, table: str) -> list[str]:
        return [r[0] for r in self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? ORDER BY ordinal_position", (table,))]

    def ids_in(self, column: str, ids: Sequence[int]) -> tuple[str, list[Any]]:
        return f"{column} = ANY(?)", [[int(i) for i in ids]]

    def after_copy(self, table: str) -> None:
        if "id" in self.columns(table) and self.execute(
                "SELECT pg_get_serial_sequence(?, 'id')", (table,)).fetchone()[0] is not None:
            self.execute(f"SELECT setval(pg_get_serial_sequence(?, 'id'), COALESCE(MAX(id), 0) + 1, false) "
                         f"FROM {table}", (table,))

    def close(self) -> None:
        self.raw.close()


@lru_cache(maxsize=256)
def _numbered(sql: str) -> bytes:
    """SQLite's ``?`` placeholders as libpq's ``$1, $2, ...``."""
    parts = sql.split("?")
    return "".join(p + (f"${i + 1}" if i < len(parts) - 1 else "") for i, p in enumerate(parts)).encode()


#: What :meth:`Pipeline.send` tells once PostgreSQL has answered: the statement's number of rows,
#: or the error (a :class:`StoreError`).
Answer = Callable[[int | StoreError], None]


def _prepared(rows: int | StoreError) -> None:
    """A statement's preparation was answered (see :meth:`Pipeline.send`)."""


class Pipeline:
    """Statements sent to PostgreSQL on a connection of their own without waiting for each
    other's answers (libpq's pipeline mode), each its own transaction, answered in order on the
    event loop that sent them: the process serves everything else meanwhile, and many statements
    are in flight on one connection (psycopg's asyncio connection waits for each answer before it
    sends the next, one loop turn each; several of them contend in PostgreSQL, where every
    notifying commit takes one lock). ``?`` placeholders and the store's errors as
    :class:`PostgresConnection`'s; the arguments are ints, strings or None (sent as text, their
    types those PostgreSQL infers). Opened on first use and again after the connection was lost
    (whatever was in flight then is answered with the error)."""

    def __init__(self, sync: PostgresConnection, lock_ms: int) -> None:
        self.sync = sync
        self.lock_ms = lock_ms
        self._conn: Any = None  # the psycopg connection, kept for its libpq connection
        self._fd = -1  # its socket (libpq closes it when the connection is lost)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._answers: deque[Answer] = deque()  # one per statement in flight, in order
        self._rows: int | StoreError = 0  # the answer of the statement whose results are being read
        self._sending = False  # the socket's buffer was full: the rest goes when it is writable
        self._idle: asyncio.Future[None] | None = None
        self._prepared: dict[bytes, bytes] = {}  # statement -> its name on this connection
        self._pid: int | None = None  # the backend of the open connection (session_pid)

    def send(self, sql: str, args: Sequence[Any], answer: Answer) -> None:
        """Send one statement; ``answer`` is called on this loop once PostgreSQL has answered.
        Raises :class:`StoreError` at once when the connection cannot be opened or used."""
        pg = self._ready()
        text = _numbered(sql)
        try:
            name = self._prepared.get(text)
            if name is None:  # prepared once per connection: PostgreSQL plans it once, not at each move
                name = self._prepared[text] = f"sanma_{len(self._prepared)}".encode()
                pg.send_prepare(name, text)
                pg.pipeline_sync()
                self._answers.append(_prepared)  # (its failure is the statement's: it does not exist)
            pg.send_query_prepared(name, [None if a is None else str(a).encode() for a in args])
            pg.pipeline_sync()
        except Exception as e:
            self._lost(e)
            raise self.sync.translate(e) from None
        self._answers.append(answer)
        self._flush()

    @property
    def pending(self) -> int:
        """How many statements sent are not yet answered."""
        return len(self._answers)

    @property
    def session_pid(self) -> int | None:
        """The PostgreSQL backend of its connection (what the notifications of its statements carry
        as their sender), None while it is not open. Any thread may ask."""
        return self._pid

    async def drain(self) -> None:
        """Until every statement sent has been answered."""
        while self._answers:
            if self._idle is None:
                self._idle = asyncio.get_running_loop().create_future()
            await asyncio.shield(self._idle)  # (a caller that stops waiting does not cancel it for the others)

    def close(self) -> None:
        self._lost(None)

    def _ready(self) -> Any:
        if self._conn is not None:
            return self._conn.pgconn
        psycopg = self.sync._psycopg
        try:
            conn = psycopg.connect(self.sync._url, autocommit=True, connect_timeout=10, application_name="sanma")
            conn.execute(f"SET lock_timeout = {int(self.lock_ms)}")
        except psycopg.Error as e:
            raise StoreError(at(self.sync.target, sentence("cannot connect: {why}", code="db_connect",
                                                           why=_first_lines(e)))) from None
        pg = conn.pgconn
        pg.nonblocking = 1
        pg.enter_pipeline_mode()
        self._loop = loop = asyncio.get_running_loop()
        self._fd = pg.socket
        loop.add_reader(self._fd, self._readable)
        self._conn = conn
        self._pid = int(pg.backend_pid)
        return pg

    def _flush(self) -> None:
        pg, loop = self._conn.pgconn, self._loop
        assert loop is not None
        try:
            more = pg.flush()
        except Exception as e:
            return self._lost(e)
        if more and not self._sending:
            loop.add_writer(self._fd, self._flush)
        elif not more and self._sending:
            loop.remove_writer(self._fd)
        self._sending = bool(more)
        return None

    def _readable(self) -> None:
        pq = self.sync._psycopg.pq
        pg = self._conn.pgconn
        try:
            pg.consume_input()
            while self._answers and not pg.is_busy():
                r = pg.get_result()
                if r is None:  # the end of one statement's results (its sync follows)
                    continue
                status = r.status
                if status == pq.ExecStatus.PIPELINE_SYNC:
                    rows, self._rows = self._rows, 0
                    self._answer(self._answers.popleft(), rows)
                elif status in (pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK):
                    self._rows = r.ntuples
                else:  # an error (or the statement skipped after one: never, each has its own sync)
                    self._rows = self._error(r)
            if pg.status == pq.ConnStatus.BAD:  # (libpq closed the socket: no more answers will come)
                raise self.sync._psycopg.OperationalError((pg.error_message or b"").decode("utf-8", "replace"))
        except Exception as e:
            self._lost(e)
        if not self._answers and self._idle is not None:
            self._idle.set_result(None)
            self._idle = None

    def _error(self, r: Any) -> StoreError:
        psycopg = self.sync._psycopg
        state = (r.error_field(psycopg.pq.DiagnosticField.SQLSTATE) or b"").decode()
        message = (r.error_message or b"").decode("utf-8", "replace")
        try:
            cls = psycopg.errors.lookup(state)
        except KeyError:
            cls = psycopg.DatabaseError
        e = self.sync.translate(cls(message))
        return e if isinstance(e, StoreError) else DatabaseError(at(self.sync.target, message))

    def _answer(self, answer: Answer, rows: int | StoreError) -> None:
        try:
            answer(rows)
        except Exception:  # a bug of the caller's: the other statements are still answered
            logging.getLogger("sanma.store").exception("a pipelined statement's answer failed")

    def _lost(self, why: BaseException | None) -> None:
        """The connection is closed (``why``: it failed; None: :meth:`close`): what was in flight is
        answered with an error, and the next statement opens it again."""
        if why is not None:
            logging.getLogger("sanma.store").warning("%s: the pipelined connection failed: %s", self.sync.target,
                                                     _first_lines(why))
        conn, self._conn = self._conn, None
        self._pid = None
        self._prepared = {}
        if conn is not None:
            loop = self._loop
            if loop is not None and not loop.is_closed():
                loop.remove_reader(self._fd)
                if self._sending:
                    loop.remove_writer(self._fd)
            self._sending = False
            with contextlib.suppress(Exception):
                conn.close()
        error = DatabaseError(at(self.sync.target, sentence("the connection was lost inside a transaction",
                                                            code="connection_lost")))
        answers, self._answers = self._answers, deque()
        self._rows = 0
        for answer in answers:
            self._answer(answer, error)
        if self._idle is not None:
            self._idle.set_result(None)
            self._idle = None


def connect(target: str) -> Connection:
    """A connection to a SQLite file (or ``":memory:"``) or a ``postgresql://`` URL."""
    return PostgresConnection(target) if is_url(target) else SqliteConnection(target)
