"""What ``sanma stats`` sums, straight from the per-seat ``results`` rows (the only SQL of
:mod:`sanma.stats`): each player's totals and each player's placements in game order.

The scope is the given games, else every game outside simulation runs; and one player when named
(their canonical name: :func:`sanma.store.canonical_name`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .db import Store, canonical_name


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One player's sums over the scope (``average_*`` over ranked games only)."""

    name: str
    games: int
    ranked_games: int
    placements: tuple[int, int, int]
    average_placement: float | None
    average_points: float | None
    hands: int
    wins: int
    deal_ins: int
    riichi: int
    calls: int
    draws: int
    win_points: int
    deal_in_points: int
    kita: int


@dataclass(frozen=True, slots=True)
class PlacementRow:
    name: str
    game_id: int
    when: str  # when the game was played, else when it was stored
    dated: bool  # ``when`` is the record's own date
    placement: int
    points: float | None = None  # the final points (after uma and oka)
    score: int | None = None  # the final score


def _scope(store: Store, game_ids: Sequence[int] | None, player: str | None) -> tuple[str, list[Any]]:
    if game_ids is not None:
        clause, args = store.ids_in("r.game_id", game_ids)
        where = [clause]
    else:
        where, args = ["g.kind != 'simulation'"], []
    if player is not None:
        where.append("p.name = ?")
        args.append(canonical_name(player))
    return " AND ".join(where), args


def _num(x: Any) -> float | None:
    return None if x is None else float(x)


def player_totals(store: Store, *, game_ids: Sequence[int] | None = None,
                  player: str | None = None) -> list[PlayerTotals]:
    """Each player's totals, most games first, then by name."""
    where, args = _scope(store, game_ids, player)
    rows = store.conn.execute(
        "SELECT p.name, COUNT(*), COUNT(r.placement), "
        "SUM(CASE WHEN r.placement = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN r.placement = 2 THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN r.placement = 3 THEN 1 ELSE 0 END), AVG(r.placement), "
        "AVG(CASE WHEN r.placement IS NOT NULL THEN r.points END), "
        "SUM(r.hands), SUM(r.wins), SUM(r.deal_ins), SUM(r.riichi), SUM(r.calls), SUM(r.draws), "
        "SUM(r.win_points), SUM(r.deal_in_points), SUM(r.kita) "
        "FROM results r JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id "
        f"WHERE {where} GROUP BY p.id, p.name ORDER BY COUNT(*) DESC, p.name", args).fetchall()
    return [PlayerTotals(r[0], int(r[1]), int(r[2]), (int(r[3] or 0), int(r[4] or 0), int(r[5] or 0)), _num(r[6]),
                         _num(r[7]), *(int(x or 0) for x in r[8:17])) for r in rows]


def placements(store: Store, *, game_ids: Sequence[int] | None = None,
               player: str | None = None) -> list[PlacementRow]:
    """Every ranked placement in the scope, in game order (the record's date where known, else
    when it was stored)."""
    where, args = _scope(store, game_ids, player)
    rows = store.conn.execute(
        "SELECT p.name, g.id, COALESCE(g.played_at, g.created_at), g.played_at IS NOT NULL, r.placement, r.points, "
        "r.score FROM results r JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id "
        f"WHERE {where} AND r.placement IS NOT NULL ORDER BY COALESCE(g.played_at, g.created_at), g.id", args)
    return [PlacementRow(r[0], int(r[1]), r[2], bool(r[3]), int(r[4]), _num(r[5]),
                         None if r[6] is None else int(r[6])) for r in rows]


def latest_name(store: Store, player: str) -> str | None:
    """The name ``player`` (a store player's name) sat under in their latest stored game."""
    row = store.conn.execute(
        "SELECT r.recorded_name FROM results r JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id "
        "WHERE p.name = ? ORDER BY g.created_at DESC, g.id DESC LIMIT 1", (player,)).fetchone()
    return str(row[0]) if row is not None else None
