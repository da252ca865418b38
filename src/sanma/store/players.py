"""The browser table's players in the store: which person sat at each seat of a served table.

A person at the browser table is known by a player id (``web/players.py``: derived from a secret
token their browser keeps). When their page connects to a seat, the seat is claimed for them in the
table's ``seats`` (``"player"``); the finished game's results then count for ``web:ID`` (the store's
player name), so two people who sat under the same seat name are never pooled together, and
``sanma stats --player web:ID`` reads the same figures as their player page.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .db import Store


def claim_seat(store: Store, table_id: str, seat: int, player: str) -> bool:
    """Record that ``player`` sits at ``seat`` of the served table, unless someone already does;
    True when the seat is now theirs."""
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
        store.conn.execute("UPDATE web_tables SET seats = ? WHERE id = ?", (json.dumps(seats), table_id))
    return True


def seat_players(store: Store, table_id: str) -> list[str | None]:
    """Each seat's player id (None: nobody claimed it)."""
    row = store.conn.execute("SELECT seats FROM web_tables WHERE id = ?", (table_id,)).fetchone()
    return [s.get("player") for s in json.loads(row[0])] if row is not None else []


def tables_of_games(store: Store, game_ids: Sequence[int]) -> dict[int, str]:
    """The served table each stored game was played at (game id -> table id), where it was one."""
    if not game_ids:
        return {}
    rows = store.conn.execute("SELECT game_id, id FROM web_tables WHERE game_id IN (SELECT value FROM json_each(?))",
                              (json.dumps(list(game_ids)),))
    return {int(g): str(t) for g, t in rows}


def latest_name(store: Store, player: str) -> str | None:
    """The name ``player`` (the store's player name) sat under in their latest stored game."""
    row = store.conn.execute(
        "SELECT r.recorded_name FROM results r JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id "
        "WHERE p.name = ? ORDER BY g.created_at DESC, g.id DESC LIMIT 1", (player,)).fetchone()
    return str(row[0]) if row is not None else None
