"""A SQLite database as an earlier version of sanma left it: for the tests of a migration."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sanma.store.migrations import MIGRATIONS


def sqlite_at_version(path: Path, version: int) -> sqlite3.Connection:
    """A new SQLite file at schema ``version`` (migrations 1..version applied and recorded), open for
    the caller's rows; the caller commits and closes it, then opens it with ``open_db``."""
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);")
    for v, script in enumerate(MIGRATIONS[:version], start=1):
        conn.executescript(script)
        conn.execute("INSERT INTO schema_version VALUES (?, 'then')", (v,))
    return conn
