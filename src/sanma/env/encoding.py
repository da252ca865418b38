"""Observation encodings: what one seat may see, as fixed-shape numpy arrays.

The encoder reads only ``Game.observation(seat)`` (the engine's statement of what a seat may see)
and the public tile-bearing events (discards, kakan, ankan, kita), never the engine's private
state, so another seat's concealed tiles cannot reach it. Seats are *relative*: row 0 is the
observing seat, row 1 the next seat in turn order (shimocha), row 2 the one after (kamicha).

Tiles in sequences are *codes*: 0 = empty, ``kind + 1`` (1..34) for a plain tile, 35 / 36 for the
red 5p / 5s, 37 for a flower. Single tiles are one-hot over the 36 slots of the action space
(:func:`~sanma.env.action_space.tile_slot`).

=====================  ================  ==========================================================
key                    shape             contents
=====================  ================  ==========================================================
``hand``               (34,)             own concealed tiles by kind (drawn tile included)
``red``                (2,)              own concealed red 5p, red 5s
``drawn``              (36,)             one-hot slot of the tile just drawn (all 0 when none)
``discards``           (3, 40)           each seat's discards in order, as codes (the last 40)
``discard_flags``      (3, 40, 3)        per discard: tsumogiri, riichi declared with it, called
``discard_counts``     (3, 34)           each seat's discards by kind
``melds``              (3, 4, 4)         per meld: type (1 pon, 2 open kan, 3 ankan), kind + 1,
                                         red fives in it, relative seat it was called from (0: none)
``meld_counts``        (3, 34)           tiles in each seat's melds by kind
``open_hands``         (3, 34)           concealed tiles shown by an open riichi, by kind
``kita``               (3,)              North tiles pulled
``flowers``            (3,)              flowers set aside
``riichi``             (3,)              riichi declared
``open_riichi``        (3,)              open riichi declared
``hand_sizes``         (3,)              concealed tile count
``dora_indicators``    (8,)              indicators in order, as codes
``dora``               (34,)             dora value of each kind from the indicators
``last_tile``          (3, 36)           one-hot [relative seat, slot] of the last discard / kakan /
                                         ankan / kita of the hand (the tile a call window is about)
``scores``             (3,)              scores in thousands of points (float32)
``table``              (8,)              round wind (E0 S1 W2 N3), kyoku 1..3, honba, riichi sticks,
                                         relative dealer, own seat wind (E0 S1 W2), live wall left,
                                         absolute seat
=====================  ================  ==========================================================

>>> from sanma.game.engine import Game
>>> from sanma.rules import Rules
>>> g = Game(Rules.preset("tenhou"), seed=1)
>>> obs = encode(g, 0)
>>> int(obs["hand"].sum()), int(obs["drawn"].sum()), obs["table"].tolist()
(14, 1, [0, 1, 0, 0, 0, 0, 54, 0])
>>> flatten(obs).shape == (FLAT_SIZE,)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..tiles import NUM_KINDS, SEATS, Tile, successor
from .action_space import NUM_SLOTS, tile_slot

if TYPE_CHECKING:
    from gymnasium import spaces

    from ..game.engine import Game

MAX_DISCARDS = 40  # a seat rarely discards more than ~25 tiles in a hand; longer rivers keep the last 40
MAX_MELDS = 4
MAX_INDICATORS = 8  # initial indicators (up to 2 on doubles) + 4 kan dora, with room to spare
NUM_CODES = 38  # 0 empty, 1..34 kinds, 35/36 red fives, 37 flower
WIND_INDEX = {"E": 0, "S": 1, "W": 2, "N": 3}
MELD_TYPE = {"pon": 1, "kan": 2, "ankan": 3}
_LAST_TILE_EVENTS = frozenset({"dahai", "kakan", "ankan", "kita"})

Observation = dict[str, npt.NDArray[Any]]

# key -> (shape, dtype, low, high): one table drives the arrays, the spaces and the flat layout.
FIELDS: dict[str, tuple[tuple[int, ...], type[np.generic], float, float]] = {
    "hand": ((NUM_KINDS,), np.int8, 0, 4),
    "red": ((2,), np.int8, 0, 4),
    "drawn": ((NUM_SLOTS,), np.int8, 0, 1),
    "discards": ((SEATS, MAX_DISCARDS), np.int8, 0, NUM_CODES - 1),
    "discard_flags": ((SEATS, MAX_DISCARDS, 3), np.int8, 0, 1),
    "discard_counts": ((SEATS, NUM_KINDS), np.int8, 0, 4),
    "melds": ((SEATS, MAX_MELDS, 4), np.int8, 0, NUM_KINDS),
    "meld_counts": ((SEATS, NUM_KINDS), np.int8, 0, 4),
    "open_hands": ((SEATS, NUM_KINDS), np.int8, 0, 4),
    "kita": ((SEATS,), np.int8, 0, 4),
    "flowers": ((SEATS,), np.int8, 0, 4),
    "riichi": ((SEATS,), np.int8, 0, 1),
    "open_riichi": ((SEATS,), np.int8, 0, 1),
    "hand_sizes": ((SEATS,), np.int8, 0, 14),
    "dora_indicators": ((MAX_INDICATORS,), np.int8, 0, NUM_CODES - 1),
    "dora": ((NUM_KINDS,), np.int8, 0, MAX_INDICATORS),
    "last_tile": ((SEATS, NUM_SLOTS), np.int8, 0, 1),
    "scores": ((SEATS,), np.float32, -1000.0, 1000.0),
    "table": ((8,), np.int16, 0, 1000),
}
FLAT_SIZE = sum(int(np.prod(shape)) for shape, *_ in FIELDS.values())


def tile_code(tile: Tile) -> int:
    """The sequence code of a tile: ``kind + 1``, 35 / 36 for red fives, 37 for a flower."""
    if tile.is_flower:
        return NUM_CODES - 1
    return tile_slot(tile) + 1


@cache
def _tile(mjai: str) -> Tile:
    return Tile.from_mjai(mjai)


@cache
def _code(mjai: str) -> int:
    return tile_code(Tile.from_mjai(mjai))


def empty_observation() -> Observation:
    """All-zero arrays of the right shapes and dtypes."""
    return {k: np.zeros(shape, dtype=dtype) for k, (shape, dtype, _, _) in FIELDS.items()}


def encode(game: Game, seat: int) -> Observation:
    """What ``seat`` may see now, as the arrays described in the module docstring."""
    return encode_observation(game.observation(seat), _last_tile_event(game.events))


def _last_tile_event(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The hand's latest discard, kakan, ankan or kita (public events: nothing to mask)."""
    e: dict[str, Any]
    for e in reversed(events):
        t = e["type"]
        if t in _LAST_TILE_EVENTS:
            return e
        if t == "start_kyoku":
            return None
    return None


def encode_observation(obs: Mapping[str, Any], last: Mapping[str, Any] | None = None) -> Observation:
    """Encode a ``Game.observation(seat)`` dict (and the hand's last tile event, if any)."""
    out = empty_observation()
    me: int = obs["seat"]
    hand, red = out["hand"], out["red"]
    for name in obs["hand"]:
        t = _tile(name)
        if t.is_flower:
            continue
        hand[t.kind] += 1
        if t.red:
            red[0 if t.kind == 13 else 1] += 1
    if obs.get("drawn"):
        t = _tile(obs["drawn"])
        if not t.is_flower:
            out["drawn"][tile_slot(t)] = 1
    for rel in range(SEATS):
        pub = obs["seats"][(me + rel) % SEATS]
        river = pub["discards"][-MAX_DISCARDS:]
        for i, d in enumerate(river):
            out["discards"][rel, i] = _code(d["pai"])
            out["discard_flags"][rel, i] = (d["tsumogiri"], d["riichi"], d["called"])
        for d in pub["discards"]:
            out["discard_counts"][rel, _tile(d["pai"]).kind] += 1
        for i, m in enumerate(pub["melds"][:MAX_MELDS]):
            tiles = [_tile(x) for x in m["tiles"]]
            kind = tiles[0].kind
            target = m["target"]
            out["melds"][rel, i] = (MELD_TYPE[m["type"]], kind + 1, sum(t.red for t in tiles),
                                    0 if target is None else (target - me) % SEATS)
            out["meld_counts"][rel, kind] += len(tiles)
        if pub["open_hand"] is not None:
            out["open_riichi"][rel] = 1
            for name in pub["open_hand"]:
                t = _tile(name)
                if not t.is_flower:
                    out["open_hands"][rel, t.kind] += 1
        out["kita"][rel] = pub["kita"]
        out["flowers"][rel] = pub["flowers"]
        out["riichi"][rel] = pub["riichi"]
        out["hand_sizes"][rel] = pub["hand_size"]
        out["scores"][rel] = min(max(obs["scores"][(me + rel) % SEATS] / 1000.0, -1000.0), 1000.0)
    for i, name in enumerate(obs["dora_indicators"][:MAX_INDICATORS]):
        t = _tile(name)
        out["dora_indicators"][i] = tile_code(t)
        if not t.is_flower:  # a flower turned as an indicator (kansai) points at nothing
            out["dora"][successor(t.kind)] += 1
    if last is not None:
        # An ankan is about its kind (chankan by kokushi), whichever copy is listed first.
        slot = _tile(last["consumed"][0]).kind if last["type"] == "ankan" else tile_slot(_tile(last["pai"]))
        out["last_tile"][(last["actor"] - me) % SEATS, slot] = 1
    dealer: int = obs["dealer"]
    out["table"][:] = (WIND_INDEX[obs["round_wind"]], obs["kyoku"], min(obs["honba"], 1000),
                       min(obs["kyotaku"], 1000), (dealer - me) % SEATS, (me - dealer) % SEATS,
                       obs["wall_remaining"], me)
    return out


def flatten(obs: Observation) -> npt.NDArray[np.float32]:
    """The arrays of :func:`encode` concatenated in ``FIELDS`` order, as float32 (length ``FLAT_SIZE``)."""
    return np.concatenate([obs[k].ravel() for k in FIELDS]).astype(np.float32)


def observation_space(flat: bool = False) -> spaces.Space[Any]:
    """The gymnasium space of :func:`encode` (a ``Dict`` of ``Box``) or of :func:`flatten` (a ``Box``)."""
    from gymnasium import spaces

    if flat:
        low = np.concatenate([np.full(int(np.prod(s)), lo, np.float32) for s, _, lo, _ in FIELDS.values()])
        high = np.concatenate([np.full(int(np.prod(s)), hi, np.float32) for s, _, _, hi in FIELDS.values()])
        return spaces.Box(low, high, dtype=np.float32)
    return spaces.Dict({k: spaces.Box(lo, hi, shape, dtype) for k, (shape, dtype, lo, hi) in FIELDS.items()})
