"""Actions a seat can take, as small immutable values with an mjai form.

>>> from sanma.tiles import Tile
>>> a = Action("dahai", 1, Tile.parse("0p"))
>>> a.to_mjai()
{'type': 'dahai', 'actor': 1, 'pai': '5pr', 'tsumogiri': False}
>>> Action.from_mjai(a.to_mjai()) == a
True
"""

from __future__ import annotations

from typing import Any, Final, Literal

from .. import events as ev
from ..errors import IllegalActionError, TileError
from ..tiles import Tile

ActionType = Literal[
    "dahai",  # discard (``tile``; ``tsumogiri`` when it is the tile just drawn)
    "reach",  # declare riichi with this discard (``tile``)
    "open_reach",  # declare open riichi with this discard (club rules)
    "hora",  # win: tsumo (target == actor) or ron (target = discarder)
    "pon",  # call a discard (``tile``) with two tiles of the hand (``consumed``)
    "daiminkan",  # open kan on a discard
    "ankan",  # concealed kan (``consumed``: the four tiles)
    "kakan",  # add ``tile`` to one's pon
    "kita",  # pull a North as nuki dora
    "ryukyoku",  # declare nine terminals (kyuushu kyuuhai)
    "none",  # pass on a call or a win
]

RESPONSES: Final = frozenset({"hora", "pon", "daiminkan", "none"})


class Action:
    """One choice of one seat. ``target`` is the seat a tile was taken from (pon, kan, ron).

    Immutable (``Final`` attributes) and compared by value. A plain class rather than a frozen
    dataclass: the engine builds several per step, and under mypyc this is ~25x cheaper.
    """

    __slots__ = ("actor", "consumed", "target", "tile", "tsumogiri", "type")

    def __init__(self, type: ActionType, actor: int, tile: Tile | None = None, consumed: tuple[Tile, ...] = (),
                 target: int | None = None, tsumogiri: bool = False) -> None:
        self.type: Final = type
        self.actor: Final = actor
        self.tile: Final = tile
        self.consumed: Final = consumed
        self.target: Final = target
        self.tsumogiri: Final = tsumogiri

    def _key(self) -> tuple[object, ...]:
        return (self.type, self.actor, self.tile, self.consumed, self.target, self.tsumogiri)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Action(type={self.type!r}, actor={self.actor!r}, tile={self.tile!r}, consumed={self.consumed!r}, "
                f"target={self.target!r}, tsumogiri={self.tsumogiri!r})")

    # Immutable: a copy is the value itself (copy.deepcopy of a Game shares them).
    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def to_mjai(self) -> dict[str, Any]:
        """The action's mjai message: a discard or a call in the form of its ``sanma.events`` event
        (what the engine emits when it is taken); riichi (with its discard), a win, nine
        terminals and a pass as the mjai protocol has them."""
        t = self.type
        tile = self.tile
        if t == "dahai":
            assert tile is not None
            return ev.Dahai(self.actor, tile, self.tsumogiri).to_mjai()
        if t == "pon":
            assert tile is not None and self.target is not None
            return ev.Pon(self.actor, self.target, tile, self.consumed).to_mjai()
        if t == "daiminkan":
            assert tile is not None and self.target is not None
            return ev.Daiminkan(self.actor, self.target, tile, self.consumed).to_mjai()
        if t == "ankan":
            return ev.Ankan(self.actor, self.consumed).to_mjai()
        if t == "kakan":
            assert tile is not None
            return ev.Kakan(self.actor, tile, self.consumed).to_mjai()
        if t == "kita":
            return ev.Kita(self.actor).to_mjai()
        d: dict[str, Any] = {"type": t, "actor": self.actor}
        if t == "reach" or t == "open_reach":  # the declaration with its discard (events: reach, dahai)
            assert tile is not None
            d.update(pai=tile.mjai, tsumogiri=self.tsumogiri)
        elif t == "hora":
            assert tile is not None
            d.update(target=self.target, pai=tile.mjai)
        return d

    @staticmethod
    def from_mjai(msg: Any) -> Action:
        """Parse an action message (e.g. from a bot); errors name the message."""
        if not isinstance(msg, dict):
            raise IllegalActionError(f"action must be a JSON object, got {type(msg).__name__}")
        t = msg.get("type")
        actor = msg.get("actor")
        if t not in ("dahai", "reach", "open_reach", "hora", "pon", "daiminkan", "ankan", "kakan", "kita",
                     "ryukyoku", "none"):
            raise IllegalActionError(f"unknown action type {t!r} in {msg!r}")
        if not isinstance(actor, int) or isinstance(actor, bool) or not 0 <= actor < 3:
            raise IllegalActionError(f"action {msg!r}: actor must be a seat 0..2")
        try:
            tile = Tile.from_mjai(msg["pai"]) if isinstance(msg.get("pai"), str) else None
            consumed = tuple(Tile.from_mjai(c) for c in msg.get("consumed", ()) or ())
        except (TileError, TypeError) as e:
            raise IllegalActionError(f"action {msg!r}: {e}") from None
        target = msg.get("target")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise IllegalActionError(f"action {msg!r}: target must be a seat 0..2")
        return Action(t, actor, tile, consumed, target, bool(msg.get("tsumogiri", False)))

    def __str__(self) -> str:
        parts = [self.type, f"by seat {self.actor}"]
        if self.tile is not None:
            parts.append(str(self.tile))
        if self.target is not None and self.target != self.actor:
            parts.append(f"from seat {self.target}")
        return " ".join(parts)
