"""The embedded SQLite database: imported records, games, players, hands, mjai events, per-seat
results and simulation runs (see :mod:`sanma.store.migrations` for the tables).

>>> store = open_db(":memory:")
>>> store.schema_version == SCHEMA_VERSION, store.games(), store.records()
(True, [], [])

The database is ``sanma.sqlite`` in the current directory unless ``$SANMA_DB`` names another
file; every command that stores takes ``--db PATH``.
"""

from __future__ import annotations

from .db import (
    DEFAULT_NAME,
    ENV_VAR,
    GameRow,
    RecordRow,
    SavedRecord,
    SeatResult,
    SimulationRow,
    Store,
    StoreBusy,
    StoreError,
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
    "GameFacts",
    "GameRow",
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
    "file_checksum",
    "log_id_of",
    "open_db",
    "parse_record",
    "played_at_of",
    "record_events",
    "tally",
]
