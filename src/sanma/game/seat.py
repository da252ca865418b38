"""Per-seat data of a hand in progress: the river, the melds, a seat's state, a hand's result.

These are the values the engine (``game/engine.py``) mutates and the legality predicates
(``game/legal.py``) and the win evaluation (``game/winning.py``) read. ``Discard`` and
``CalledMeld`` are plain classes, not dataclasses: the compiled engine builds one per discard, and
a dataclass's generated ``__init__`` runs as interpreted code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..hand import Meld
from ..scoring import Score
from ..tiles import NUM_KINDS, Tile


class Discard:
    """One tile of a river: tsumogiri, the riichi tile, called by another seat."""

    __slots__ = ("called", "riichi", "tile", "tsumogiri")

    def __init__(self, tile: Tile, tsumogiri: bool, riichi: bool = False, called: bool = False) -> None:
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.riichi = riichi
        self.called = called

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discard) and (self.tile, self.tsumogiri, self.riichi, self.called) == (
            other.tile, other.tsumogiri, other.riichi, other.called)

    def __repr__(self) -> str:
        return f"Discard({self.tile!r}, tsumogiri={self.tsumogiri}, riichi={self.riichi}, called={self.called})"

    def __deepcopy__(self, memo: dict[int, object]) -> Discard:
        return Discard(self.tile, self.tsumogiri, self.riichi, self.called)  # its tile is immutable


class CalledMeld:
    """A meld with the seat its called tile came from."""

    __slots__ = ("called", "meld", "target")

    def __init__(self, meld: Meld, target: int | None, called: Tile | None) -> None:
        self.meld = meld
        self.target = target  # seat the called tile came from (None for ankan)
        self.called = called

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CalledMeld) and (self.meld, self.target, self.called) == (
            other.meld, other.target, other.called)

    def __repr__(self) -> str:
        return f"CalledMeld({self.meld!r}, target={self.target}, called={self.called!r})"

    def __deepcopy__(self, memo: dict[int, object]) -> CalledMeld:
        return CalledMeld(self.meld, self.target, self.called)  # meld and tile are immutable


@dataclass(slots=True)
class SeatState:
    """One seat's part of a hand in progress (mutable: only the engine changes it; ``legal`` reads it)."""

    hand: list[Tile] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    melds: list[CalledMeld] = field(default_factory=list)
    discards: list[Discard] = field(default_factory=list)
    kita: int = 0
    flowers: int = 0
    chip_flowers: int = 0
    riichi: bool = False
    double_riichi: bool = False
    open_riichi: bool = False
    ippatsu: bool = False
    furiten_same_turn: bool = False
    furiten_riichi: bool = False
    violation: str = ""  # why this seat's riichi is a chombo if revealed (P80): "" = a clean riichi
    stick_paid: bool = False  # its riichi stick went to the table this hand (returned on a chombo, P101)
    waits: tuple[int, ...] = ()
    nagashi: bool = True
    pao: dict[str, int] = field(default_factory=dict)

    def add(self, t: Tile) -> None:
        self.hand.append(t)
        if t.kind < NUM_KINDS:  # a flower is held only until it is pulled
            self.counts[t.kind] += 1

    def remove(self, t: Tile) -> None:
        self.hand.remove(t)
        if t.kind < NUM_KINDS:
            self.counts[t.kind] -= 1

    @property
    def closed(self) -> bool:
        return all(not m.meld.is_open for m in self.melds)

    @property
    def discarded_kinds(self) -> set[int]:
        return {d.tile.kind for d in self.discards}


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended, for the game flow and for reports."""

    kind: str  # "hora", "ryukyoku" (exhaustive), "abort", "chombo"
    winners: tuple[int, ...] = ()
    offenders: tuple[int, ...] = ()  # seats that committed chombo (kind "chombo")
    tenpai: tuple[int, ...] = ()
    dealer_continues: bool = False
    deltas: tuple[int, ...] = (0, 0, 0)
    scores: tuple[Score, ...] = ()
    reason: str = ""

    # Immutable: a copy is the value itself (copy.deepcopy of a Game shares them).
    def __copy__(self) -> HandResult:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> HandResult:
        return self
