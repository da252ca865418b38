"""The bot protocol and what bots share: reading an observation into counts.

A bot is any object with ``act(observation, legal) -> Action``; ``observation`` is
``Game.observation(seat)`` (only what that seat may see) and ``legal`` the seat's legal actions.
A bot may also define ``on_event(event)`` to follow the public event stream. Bots are seeded
and deterministic: the same seed and the same observations give the same actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..game.actions import Action
from ..rules.schema import Rules
from ..tiles import DRAGONS, NORTH, NUM_KINDS, Tile, seat_wind, successor

WIND_KINDS = {"E": 27, "S": 28, "W": 29, "N": NORTH}

Observation = Mapping[str, Any]


@runtime_checkable
class Bot(Protocol):
    """Chooses one of ``legal`` given what its seat sees."""

    name: str

    def act(self, observation: Observation, legal: tuple[Action, ...]) -> Action: ...


def tile_of(name: str) -> Tile:
    return Tile.from_mjai(name)


@dataclass(slots=True)
class HandView:
    """One seat's view of the table, as counts: what every bot decision reads."""

    seat: int
    counts: list[int]  # concealed tiles of this seat, 34 kinds
    meld_kinds: list[tuple[str, int]]  # (type, kind) of this seat's melds
    closed: bool
    visible: list[int]  # tiles seen outside this hand: discards, every meld, indicators, kita
    dora: list[int]  # dora value of each kind (indicators only; reds and kita are separate)
    seat_wind: int
    round_wind: int
    yakuhai: frozenset[int]
    riichi_seats: tuple[int, ...]  # opponents in riichi
    drawn: Tile | None
    wall_remaining: int
    riichi: bool  # this seat has declared riichi

    @property
    def melds(self) -> int:
        return len(self.meld_kinds)


def yakuhai_kinds(rules: Rules, seat_wind: str, round_wind: str) -> frozenset[int]:
    """Kinds whose triplet is a yaku for this seat under ``rules`` (dragons, winds, maybe North)."""
    out = set(DRAGONS)
    out.add(WIND_KINDS[seat_wind])
    if round_wind in WIND_KINDS:
        out.add(WIND_KINDS[round_wind])
    if rules.north_mode == "yakuhai" or rules.empty_seat_wind == "north":
        out.add(NORTH)
    return frozenset(out)


def read_observation(obs: Observation, rules: Rules) -> HandView:
    """Counts and public facts of ``obs`` (a ``Game.observation``)."""
    seat: int = obs["seat"]
    counts = [0] * NUM_KINDS
    for name in obs["hand"]:
        k = tile_of(name).kind
        if k < NUM_KINDS:
            counts[k] += 1
    visible = [0] * NUM_KINDS
    dora = [0] * NUM_KINDS
    for name in obs["dora_indicators"]:
        k = tile_of(name).kind
        if k < NUM_KINDS:  # a flower turned as an indicator (kansai walls) points at nothing
            visible[k] += 1
            dora[successor(k)] += 1
    meld_kinds: list[tuple[str, int]] = []
    riichi: list[int] = []
    for s, pub in enumerate(obs["seats"]):
        for d in pub["discards"]:
            if not d["called"]:  # a called tile is counted in the caller's meld
                visible[tile_of(d["pai"]).kind] += 1
        for m in pub["melds"]:
            kind = tile_of(m["tiles"][0]).kind
            visible[kind] += len(m["tiles"])
            if s == seat:
                meld_kinds.append((m["type"], kind))
        visible[NORTH] += pub["kita"]
        if s != seat and pub["riichi"]:
            riichi.append(s)
    for k in range(NUM_KINDS):  # never more than the four copies (ukeire requires it)
        visible[k] = min(visible[k], 4 - counts[k])
    sw = seat_wind(seat, obs["dealer"])
    rw = obs["round_wind"]
    drawn = obs.get("drawn")
    return HandView(
        seat=seat, counts=counts, meld_kinds=meld_kinds,
        closed=all(t == "ankan" for t, _ in meld_kinds), visible=visible, dora=dora,
        seat_wind=WIND_KINDS[sw], round_wind=WIND_KINDS.get(rw, 27),
        yakuhai=yakuhai_kinds(rules, sw, rw), riichi_seats=tuple(riichi),
        drawn=tile_of(drawn) if drawn else None, wall_remaining=obs["wall_remaining"],
        riichi=bool(obs["seats"][seat]["riichi"]),
    )
