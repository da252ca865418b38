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

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .db import Store

if TYPE_CHECKING:
    from ..rules import Rules


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


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


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One applied action: its index, the seat, its index among the seat's legal actions, its mjai
    form, how it was chosen (seat, bot, auto, clock) and when."""

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


def _events_rows(table_id: str, start: int, events: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    return [(table_id, start + i, _dumps(e)) for i, e in enumerate(events)]


def create_table(store: Store, row: NewTable, events: Sequence[Mapping[str, Any]]) -> None:
    """Store a new table and the events it starts with, in one transaction."""
    with store.transaction():
        store.conn.execute(
            "INSERT INTO web_tables (id, rules_name, rules_json, seats, seed, seed_hash, clock, toggles, banks, "
            "created_at, wall_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.rules_name, row.rules_json, json.dumps([dict(s) for s in row.seats]), row.seed,
             row.seed_hash, json.dumps(dict(row.clock)), json.dumps([dict(t) for t in row.toggles]),
             json.dumps(list(row.banks)), row.created_at, row.wall_key))
        store.conn.executemany("INSERT INTO web_events (table_id, idx, data) VALUES (?, ?, ?)",
                               _events_rows(row.id, 0, events))


def exists(store: Store, table_id: str) -> bool:
    return store.conn.execute("SELECT 1 FROM web_tables WHERE id = ?", (table_id,)).fetchone() is not None


def table(store: Store, table_id: str) -> TableRow | None:
    """The stored table, or None."""
    r = store.conn.execute(
        "SELECT id, rules_name, rules_json, seats, seed, seed_hash, clock, toggles, banks, created_at, finished, "
        "wall_key, game_id FROM web_tables WHERE id = ?", (table_id,)).fetchone()
    if r is None:
        return None
    return TableRow(r[0], r[1], json.loads(r[2]), tuple(json.loads(r[3])), r[4], r[5], json.loads(r[6]),
                    tuple(json.loads(r[7])), tuple(float(b) for b in json.loads(r[8])), r[9], bool(r[10]), r[11],
                    r[12])


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
    """The newest ``limit`` tables, newest first (a finished one with its final scores)."""
    rows = store.conn.execute(
        "SELECT id, rules_name, seats, finished, created_at, seed_hash FROM web_tables "
        "ORDER BY created_at DESC, id LIMIT ?", (limit,)).fetchall()
    out = []
    for tid, rules_name, seats, finished, created, sh in rows:
        scores = None
        if finished:
            last = store.conn.execute("SELECT data FROM web_events WHERE table_id = ? ORDER BY idx DESC LIMIT 1",
                                      (tid,)).fetchone()
            end = json.loads(last[0]) if last is not None else {}
            if end.get("type") == "end_game":
                scores = tuple(end["scores"])
        out.append(ListedTable(tid, rules_name, tuple(json.loads(seats)), bool(finished), created, sh, scores))
    return out


def append_action(store: Store, table_id: str, idx: int, *, seat: int, legal_idx: int, action: Mapping[str, Any],
                  how: str, at: str, first_event: int, events: Sequence[Mapping[str, Any]],
                  banks: Sequence[float] | None = None) -> None:
    """Action ``idx`` and the events it caused (numbered from ``first_event``), in one transaction;
    ``banks``: the seats' time banks when the action spent some."""
    with store.transaction():
        store.conn.execute(
            "INSERT INTO web_actions (table_id, idx, seat, legal_idx, action, how, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, idx, seat, legal_idx, json.dumps(dict(action)), how, at))
        store.conn.executemany("INSERT INTO web_events (table_id, idx, data) VALUES (?, ?, ?)",
                               _events_rows(table_id, first_event, events))
        if banks is not None:
            store.conn.execute("UPDATE web_tables SET banks = ? WHERE id = ?", (json.dumps(list(banks)), table_id))


def save_settings(store: Store, table_id: str, toggles: Sequence[Mapping[str, bool]], banks: Sequence[float]) -> None:
    """The seats' auto toggles and time banks."""
    with store.transaction():
        store.conn.execute("UPDATE web_tables SET toggles = ?, banks = ? WHERE id = ?",
                           (json.dumps([dict(t) for t in toggles]), json.dumps(list(banks)), table_id))


def finish(store: Store, table_id: str, game_events: Sequence[Mapping[str, Any]], rules: Rules,
           seed: str, *, players: Sequence[str | None] | None = None) -> int | None:
    """Store a finished table's game (a ``games`` row that replay and stats read) and mark the table
    finished, in one transaction; the game's id, or None when it was already finished (or unknown).
    ``players``: the store's player each seat counts for (``Store.save_game``)."""
    with store.transaction():
        if is_finished(store, table_id) or not exists(store, table_id):
            return None
        game_id = store.save_game(game_events, rules=rules, seed=seed, players=players)
        store.conn.execute("UPDATE web_tables SET finished = 1, game_id = ? WHERE id = ?", (game_id, table_id))
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


def tables_of_games(store: Store, game_ids: Sequence[int]) -> dict[int, str]:
    """The served table each stored game was played at (game id -> table id), where it was one."""
    if not game_ids:
        return {}
    clause, args = store.ids_in("game_id", game_ids)
    rows = store.conn.execute(f"SELECT game_id, id FROM web_tables WHERE {clause}", args)
    return {int(g): str(t) for g, t in rows}
