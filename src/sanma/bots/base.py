"""The bot interface and what bots share: reading a seat's view into counts.

A bot is a :class:`Bot`: ``act(view, legal) -> Action``, where ``view`` is the seat's
:class:`~sanma.game.view.SeatView` (``Game.view(seat)``: only what that seat may see) and ``legal``
the seat's legal actions. The base class gives every optional member a default, so the code that
drives bots (:mod:`sanma.bots.drive`) never probes for one:

* ``needs_view`` — False for a bot that decides from ``legal`` alone (random, tsumogiri, an external
  mjai program): it is then given ``None`` and nobody pays for building the view;
* ``follows_events`` / ``on_event(event)`` — a bot that follows the public event stream gets every
  event as its seat may see it (``mask_event``);
* ``check()`` (can it play at all: an external program that is not there raises), ``close()`` (end
  what it started), and ``incidents`` / ``incident_count`` / ``fallbacks`` (what went wrong with an
  external program, for the simulator's report).

Bots are seeded and deterministic: the same seed and the same views give the same actions.

>>> from sanma.rules import Rules
>>> from sanma.game.engine import Game
>>> g = Game(Rules.preset("tenhou"), seed=1)
>>> h = read_view(g.view(0), Rules.preset("tenhou"))
>>> sum(h.counts), h.drawn is not None, h.closed, h.riichi_seats
(14, True, True, ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game.actions import Action
from ..game.view import SeatView
from ..i18n import Message
from ..rules.schema import Rules
from ..tiles import DRAGONS, NORTH, NUM_KINDS, Tile, seat_wind, successor

WIND_KINDS = {"E": 27, "S": 28, "W": 29, "N": NORTH}


class Bot:
    """Chooses one of ``legal`` given what its seat sees; every optional member has its default."""

    name: str = "bot"
    #: False: ``act`` reads only ``legal`` and is given ``None`` for the view.
    needs_view: bool = True
    #: True: the drivers feed ``on_event`` every event of the game as this seat may see it.
    follows_events: bool = False
    #: Problems with an external program (as logged), their number, and the decisions sanma took
    #: for the seat after them (tsumogiri); always empty and 0 for the built-in bots.
    incidents: Sequence[Message] = ()
    incident_count: int = 0
    fallbacks: int = 0

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        """One of ``legal``; ``view`` is the seat's view (None when ``needs_view`` is False)."""
        raise NotImplementedError(f"{type(self).__name__} does not choose actions")

    def on_event(self, event: dict[str, Any]) -> None:
        """One event of the game as this seat sees it (called only when ``follows_events``)."""

    def check(self) -> None:
        """Raise a ``SanmaError`` when the bot cannot play (an external program not found)."""

    def close(self) -> None:
        """End what the bot started (an external process); safe to call twice."""


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


def read_view(view: SeatView, rules: Rules) -> HandView:
    """Counts and public facts of a seat's ``view`` (``Game.view(seat)``)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a bot reads a seat's view, not a spectator's")
    counts = [0] * NUM_KINDS
    for t in view.hand:
        if t.kind < NUM_KINDS:
            counts[t.kind] += 1
    dora = [0] * NUM_KINDS
    for t in view.dora_indicators:
        if t.kind < NUM_KINDS:  # a flower turned as an indicator (kansai walls) points at nothing
            dora[successor(t.kind)] += 1
    # never more than the four copies (ukeire requires it)
    visible = [min(v, 4 - c) for v, c in zip(view.visible, counts, strict=True)]
    meld_kinds: list[tuple[str, int]] = [(m.type, m.tiles[0].kind) for m in view.seats[seat].melds]
    riichi = tuple(s for s, pub in enumerate(view.seats) if s != seat and pub.riichi)
    sw = seat_wind(seat, view.dealer)
    rw = view.round_wind
    return HandView(
        seat=seat, counts=counts, meld_kinds=meld_kinds,
        closed=all(t == "ankan" for t, _ in meld_kinds), visible=visible, dora=dora,
        seat_wind=WIND_KINDS[sw], round_wind=WIND_KINDS.get(rw, 27),
        yakuhai=yakuhai_kinds(rules, sw, rw), riichi_seats=riichi,
        drawn=view.drawn, wall_remaining=view.wall_remaining, riichi=view.seats[seat].riichi,
    )
