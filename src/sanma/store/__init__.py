"""sanma's database: imported records, games, players, hands, mjai events, per-seat results,
simulation runs, kept sessions and served tables (see :mod:`sanma.store.migrations` for the
tables), in a SQLite file or in PostgreSQL (:mod:`sanma.store.backend`). All of sanma's SQL is in
this package.

>>> store = open_db(":memory:")
>>> store.schema_version == SCHEMA_VERSION, store.games(), store.records(), store.dialect
(True, [], [], 'sqlite')

The database is ``sanma.sqlite`` in the current directory unless ``$SANMA_DB`` names another
file or a ``postgresql://`` URL; every command that stores takes ``--db PATH`` or ``--db URL``.
"""

from __future__ import annotations

from .backend import DatabaseError, IntegrityError, StoreBusy, StoreError, display, is_url
from .db import (
    DEFAULT_NAME,
    ENV_VAR,
    GameRow,
    RecordRow,
    SavedRecord,
    SeatResult,
    SimulationRow,
    Store,
    canonical_name,
    check_name,
    check_text,
    default_db_path,
    file_checksum,
    log_id_of,
    open_db,
    parse_record,
    played_at_of,
)
from .events import record_events
from .facts import GameFacts, SeatFacts, tally
from .migrations import SCHEMA_VERSION

__all__ = [
    "DEFAULT_NAME",
    "ENV_VAR",
    "SCHEMA_VERSION",
    "DatabaseError",
    "GameFacts",
    "GameRow",
    "IntegrityError",
    "RecordRow",
    "SavedRecord",
    "SeatFacts",
    "SeatResult",
    "SimulationRow",
    "Store",
    "StoreBusy",
    "StoreError",
    "canonical_name",
    "check_name",
    "check_text",
    "default_db_path",
    "display",
    "file_checksum",
    "is_url",
    "log_id_of",
    "open_db",
    "parse_record",
    "played_at_of",
    "record_events",
    "tally",
]
