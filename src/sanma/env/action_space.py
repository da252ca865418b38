"""A fixed, discrete action space over the engine's actions, and legal-action masks.

Every action the engine offers maps to exactly one index in ``range(NUM_ACTIONS)``, and at any
moment the legal actions of a seat have distinct indices, so a policy picks an index and
:func:`to_action` turns it back into the engine's :class:`~sanma.game.actions.Action`.

Tiles are named by a *slot*: the kind 0..33 for a plain tile, 34 for the red 5p and 35 for the red
5s (sanma has no 5m). A discard of the tile just drawn has one index of its own (``TSUMOGIRI``),
so "discard the drawn 5p" and "discard the other 5p from the hand" stay two choices.

=================  ==============  ===================================================
indices            name            engine action
=================  ==============  ===================================================
0..35              ``discard``     ``dahai`` of a tile slot from the hand
36                 ``tsumogiri``   ``dahai`` of the tile just drawn
37..72             ``riichi``      ``reach`` with the discard of a tile slot
73..108            ``open_riichi`` ``open_reach`` with the discard of a tile slot
109..142           ``ankan``       ``ankan`` of a kind
143..176           ``kakan``       ``kakan`` of a kind
177                ``tsumo``       ``hora`` on one's own draw
178                ``ron``         ``hora`` on another seat's tile
179..181           ``pon``         ``pon`` consuming 0, 1 or 2 red fives
182                ``daiminkan``   ``daiminkan``
183                ``kita``        ``kita``
184                ``kyuushu``     ``ryukyoku`` (nine terminals)
185                ``pass``        ``none`` (decline a call or a win)
=================  ==============  ===================================================

>>> from sanma.game.engine import Game
>>> from sanma.rules import Rules
>>> g = Game(Rules.preset("tenhou"), seed=1)
>>> legal = g.legal_actions(0)
>>> m = action_mask(legal)
>>> int(m.sum()) == len(legal)
True
>>> i = action_index(legal[0])
>>> to_action(i, legal) == legal[0], action_name(TSUMOGIRI), action_name(RIICHI + 34)
(True, 'tsumogiri', 'riichi 0p')
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ..game.actions import Action
from ..tiles import NUM_KINDS, Tile, kind_name

NUM_SLOTS = NUM_KINDS + 2  # 34 kinds, then the red 5p and the red 5s
RED_SLOT = {13: 34, 22: 35}  # kind of a five -> slot of its red copy

DISCARD = 0
TSUMOGIRI = DISCARD + NUM_SLOTS
RIICHI = TSUMOGIRI + 1
OPEN_RIICHI = RIICHI + NUM_SLOTS
ANKAN = OPEN_RIICHI + NUM_SLOTS
KAKAN = ANKAN + NUM_KINDS
TSUMO = KAKAN + NUM_KINDS
RON = TSUMO + 1
PON = RON + 1  # + number of red fives among the two consumed tiles
DAIMINKAN = PON + 3
KITA = DAIMINKAN + 1
KYUUSHU = KITA + 1
PASS = KYUUSHU + 1
NUM_ACTIONS = PASS + 1


def tile_slot(tile: Tile) -> int:
    """The slot of a tile: its kind, or 34 / 35 for a red 5p / 5s.

    >>> tile_slot(Tile.parse("5p")), tile_slot(Tile.parse("0p")), tile_slot(Tile.parse("0s"))
    (13, 34, 35)
    """
    return RED_SLOT[tile.kind] if tile.red else tile.kind


def slot_name(slot: int) -> str:
    """mpsz name of a slot (``'0p'`` for the red 5p)."""
    if slot >= NUM_KINDS:
        return "0p" if slot == 34 else "0s"
    return kind_name(slot)


def action_index(action: Action) -> int:
    """The index of an engine action in the fixed action space."""
    t = action.type
    tile = action.tile
    if t == "dahai":
        assert tile is not None
        return TSUMOGIRI if action.tsumogiri else DISCARD + tile_slot(tile)
    if t == "reach":
        assert tile is not None
        return RIICHI + tile_slot(tile)
    if t == "open_reach":
        assert tile is not None
        return OPEN_RIICHI + tile_slot(tile)
    if t == "ankan":
        return ANKAN + action.consumed[0].kind
    if t == "kakan":
        assert tile is not None
        return KAKAN + tile.kind
    if t == "hora":
        return TSUMO if action.target == action.actor else RON
    if t == "pon":
        return PON + sum(1 for c in action.consumed if c.red)
    if t == "daiminkan":
        return DAIMINKAN
    if t == "kita":
        return KITA
    if t == "ryukyoku":
        return KYUUSHU
    if t == "none":
        return PASS
    raise ValueError(f"no index for action {action}")  # pragma: no cover - every ActionType is above


def action_mask(legal: Iterable[Action]) -> npt.NDArray[np.int8]:
    """A 0/1 vector of length ``NUM_ACTIONS``: 1 where the index maps to a legal action."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in legal:
        mask[action_index(a)] = 1
    return mask


def to_action(index: int, legal: Iterable[Action]) -> Action | None:
    """The legal action with this index, or ``None`` when the index is masked out."""
    for a in legal:
        if action_index(a) == index:
            return a
    return None


def action_name(index: int) -> str:
    """A readable name of an index, e.g. ``'discard 1m'``, ``'pon (1 red)'``, ``'pass'``."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} is out of range 0..{NUM_ACTIONS - 1}")
    for base, name, width in ((DISCARD, "discard", NUM_SLOTS), (RIICHI, "riichi", NUM_SLOTS),
                              (OPEN_RIICHI, "open_riichi", NUM_SLOTS)):
        if base <= index < base + width:
            return f"{name} {slot_name(index - base)}"
    for base, name in ((ANKAN, "ankan"), (KAKAN, "kakan")):
        if base <= index < base + NUM_KINDS:
            return f"{name} {kind_name(index - base)}"
    if PON <= index < PON + 3:
        return "pon" if index == PON else f"pon ({index - PON} red)"
    return {TSUMOGIRI: "tsumogiri", TSUMO: "tsumo", RON: "ron", DAIMINKAN: "daiminkan", KITA: "kita",
            KYUUSHU: "kyuushu", PASS: "pass"}[index]
