"""A tournament's tables (migration 8): the tournament, its seated rounds and each table's session.

Each table of a round is a score keeper session (:mod:`sanma.store.keeper`) of its three players
in seat order, keeping one game; the tournament keeps no result of its own: standings are read
from the sessions, so a correction of any hand shows at once.

>>> from sanma.store import open_db
>>> store = open_db(":memory:")
>>> tid = create_tournament(store, name="cup", rules_name="official", rules_json="{}", players=["A", "B", "C"],
...                         rounds=1, seating="random", seed=7, plan=None, settings={})
>>> tournament(store, tid).players, rounds(store, tid)
(('A', 'B', 'C'), [])
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import sentence
from .backend import IntegrityError, StoreError, after
from .db import Store, _json, _now
from .keeper import NotFound


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    name: str
    rules_name: str
    rules_json: str
    players: tuple[str, ...]
    rounds: int
    seating: str
    seed: int
    plan: Any
    settings: Mapping[str, Any]
    created_at: str


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A seated round: its byes, when its clock started, and its tables' sessions (table → session)."""

    round: int
    byes: tuple[str, ...]
    started_at: str | None
    tables: tuple[tuple[int, int], ...]


_COLUMNS = "id, name, rules_name, rules_json, players, rounds, seating, seed, plan, settings, created_at"


def create_tournament(store: Store, *, name: str, rules_name: str, rules_json: str, players: Sequence[str],
                      rounds: int, seating: str, seed: int, plan: Any, settings: Mapping[str, Any]) -> int:
    """A new tournament; returns its id."""
    with store._writing(sentence("tournament")):
        return store.conn.insert_id(
            f"INSERT INTO tournaments ({_COLUMNS.removeprefix('id, ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (name, rules_name, rules_json, _json(list(players), "players"), rounds, seating, seed,
             None if plan is None else _json(plan, "plan"), _json(dict(settings), "settings"), _now()))


def tournament(store: Store, tournament_id: int) -> TournamentRow:
    """The tournament's row; :class:`NotFound` naming the id when there is none."""
    r = store.conn.execute(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if r is None:
        raise NotFound(sentence("{db}: no tournament {id}", db=store.path, id=tournament_id))
    return TournamentRow(int(r[0]), r[1], r[2], r[3], tuple(json.loads(r[4])), int(r[5]), r[6], int(r[7]),
                         None if r[8] is None else json.loads(r[8]), json.loads(r[9]), r[10])


def tournaments(store: Store) -> list[TournamentRow]:
    """Every tournament, oldest first."""
    ids = [int(r[0]) for r in store.conn.execute("SELECT id FROM tournaments ORDER BY id").fetchall()]
    return [tournament(store, i) for i in ids]


def rounds(store: Store, tournament_id: int) -> list[RoundRow]:
    """The seated rounds, in order, each with its tables' sessions."""
    tables: dict[int, list[tuple[int, int]]] = {}
    for r in store.conn.execute("SELECT round, table_no, session_id FROM tournament_tables WHERE tournament_id = ? "
                                "ORDER BY round, table_no", (tournament_id,)).fetchall():
        tables.setdefault(int(r[0]), []).append((int(r[1]), int(r[2])))
    out = []
    for r in store.conn.execute("SELECT round, byes, started_at FROM tournament_rounds WHERE tournament_id = ? "
                                "ORDER BY round", (tournament_id,)).fetchall():
        out.append(RoundRow(int(r[0]), tuple(json.loads(r[1])), r[2], tuple(tables.get(int(r[0]), ()))))
    return out


def add_round(store: Store, tournament_id: int, number: int, byes: Sequence[str],
              tables: Sequence[tuple[int, int]]) -> None:
    """Record a seated round: its byes and each table's session (``(table, session)``). Call it
    inside the transaction that created the sessions, so a round is seated whole or not at all."""
    try:
        with store.transaction():
            store.conn.execute("INSERT INTO tournament_rounds (tournament_id, round, byes, started_at, created_at) "
                               "VALUES (?, ?, ?, NULL, ?)", (tournament_id, number, _json(list(byes), "byes"), _now()))
            for table, session_id in tables:
                store.conn.execute("INSERT INTO tournament_tables (tournament_id, round, table_no, session_id) "
                                   "VALUES (?, ?, ?, ?)", (tournament_id, number, table, session_id))
    except IntegrityError as e:  # a second writer seated it first: nothing of this one is kept
        raise StoreError(sentence("round {round} of tournament {id} not seated: {why}", round=number, id=tournament_id,
                                  why=after(e, store.path))) from None


def start_clock(store: Store, tournament_id: int, number: int, at: str) -> None:
    """When round ``number``'s clock started (ISO 8601, UTC)."""
    with store._writing(sentence("round clock")):
        store.conn.execute("UPDATE tournament_rounds SET started_at = ? WHERE tournament_id = ? AND round = ?",
                           (at, tournament_id, number))


def table_of(store: Store, session_id: int) -> tuple[int, int, int] | None:
    """``(tournament, round, table)`` of a session that keeps a tournament's table, else None."""
    r = store.conn.execute("SELECT tournament_id, round, table_no FROM tournament_tables WHERE session_id = ?",
                           (session_id,)).fetchone()
    return None if r is None else (int(r[0]), int(r[1]), int(r[2]))
