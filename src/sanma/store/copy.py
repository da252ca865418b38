"""``sanma db copy SOURCE DEST``: every row of one sanma database into another, empty one — a
SQLite file to PostgreSQL (moving a club's server to several processes, docs/DEPLOY.md) or back
(a backup of a PostgreSQL database as one file).

The source is read in one snapshot (SQLite's read transaction, PostgreSQL's repeatable read), so
a copy of a live database is consistent; the destination is written in one transaction, so a
copy that fails leaves it as empty as it was. Ids are copied as they are (links, table ids, seat
URLs stay valid), and PostgreSQL's id sequences are moved past them. Both databases are at this
sanma's schema version (``open_db`` migrates them) and every table's row count is compared at the end.

>>> from sanma.store import open_db
>>> from sanma.store.events import EXAMPLE
>>> src, dst = open_db(":memory:"), open_db(":memory:")
>>> game = src.import_bytes(EXAMPLE.encode(), "example.mjson").game_id
>>> copied = copy_database(src, dst)
>>> copied["events"] == len(src.events(game)), dst.events(game) == src.events(game)
(True, True)
"""

from __future__ import annotations

from ..i18n import sentence
from .backend import StoreError, at
from .db import Store, _expected_tables

#: Every table but ``schema_version``, parents before children (foreign keys hold at each insert).
COPY_ORDER: tuple[str, ...] = (
    "players", "simulations", "games", "records", "results", "kyoku", "events", "simulation_results",
    "keeper_sessions", "keeper_changes", "keeper_cache", "tournaments", "tournament_rounds", "tournament_tables",
    "web_tables", "web_actions", "web_events", "access_links", "web_presence",
)
BATCH = 1000


def copy_database(src: Store, dst: Store) -> dict[str, int]:
    """Copy every row of ``src`` into ``dst``, which must hold no row yet; rows copied per table."""
    missing = sorted(_expected_tables() - {"schema_version", *COPY_ORDER})
    if missing:  # a migration added a table that this copy does not know: refuse rather than drop it
        raise AssertionError(f"sanma.store.copy.COPY_ORDER lacks {', '.join(missing)}")
    if src.schema_version != dst.schema_version:
        raise StoreError(sentence("{src} is at schema version {v1}, {dst} at {v2}", code="copy_schema", src=src.path,
                                  v1=src.schema_version, dst=dst.path, v2=dst.schema_version))
    counts: dict[str, int] = {}
    src.conn.begin_snapshot()
    try:
        for table in COPY_ORDER:
            columns = src.conn.columns(table)
            if sorted(columns) != sorted(dst.conn.columns(table)):
                raise StoreError(sentence("table {table}: the columns differ between {src} and {dst}",
                                          code="copy_columns", table=table, src=src.path, dst=dst.path))
            counts[table] = int(src.conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
        with dst.transaction():
            for table in COPY_ORDER:
                if dst.conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None:
                    raise StoreError(at(dst.path, sentence("not empty (table {table} has rows): a copy goes into a "
                                                           "new database only", code="not_empty", table=table)))
            for table in COPY_ORDER:
                columns = src.conn.columns(table)
                names = ", ".join(columns)
                insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
                rows = src.conn.execute(f"SELECT {names} FROM {table}")
                copied = 0
                while batch := rows.fetchmany(BATCH):
                    dst.conn.executemany(insert, batch)
                    copied += len(batch)
                if copied != counts[table]:
                    raise StoreError(sentence("table {table}: {copied} rows read, {counted} counted",
                                              code="copy_count", table=table, copied=copied, counted=counts[table]))
                dst.conn.after_copy(table)
                there = int(dst.conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
                if there != copied:
                    raise StoreError(sentence("table {table}: {copied} rows copied but {there} in {dst}",
                                              code="copy_count", table=table, copied=copied, there=there,
                                              dst=dst.path))
    finally:
        src.conn.rollback()
    return counts
