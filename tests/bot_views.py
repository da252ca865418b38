"""Seat views built by hand for bot tests: a ``SeatView`` as ``Game.view(seat)`` gives it, from mpsz
strings. ``visible`` is counted here from the public seats and the indicators (an independent count
of what ``legal.visible_counts`` gives the engine's views)."""

from __future__ import annotations

import dataclasses
from typing import Any

from sanma.game.view import DiscardView, MeldView, SeatPublic, SeatView
from sanma.tiles import NORTH, NUM_KINDS, Tile, parse_tiles, seat_wind


def seat_pub(discards: str = "", riichi: bool = False, melds: tuple[str, ...] = (), kita: int = 0) -> SeatPublic:
    """One seat as everyone sees it: its river (mpsz), riichi, pons (mpsz each) and kita."""
    return SeatPublic(
        seat=0, wind="E", discards=tuple(DiscardView(t, False, False, False) for t in parse_tiles(discards)),
        melds=tuple(MeldView("pon", tuple(parse_tiles(m)), 1, parse_tiles(m)[0], "pon") for m in melds),
        kita=kita, flowers=0, riichi=riichi, hand_size=13, open_hand=None)


def visible_of(seats: tuple[SeatPublic, ...], indicators: tuple[Tile, ...]) -> tuple[int, ...]:
    c = [0] * NUM_KINDS
    for pub in seats:
        for d in pub.discards:
            if not d.called:
                c[d.tile.kind] += 1
        for m in pub.melds:
            for t in m.tiles:
                c[t.kind] += 1
        c[NORTH] += pub.kita
    for t in indicators:
        if t.kind < NUM_KINDS:
            c[t.kind] += 1
    return tuple(c)


def seat_view(hand: str, drawn: str | None = None, *, seats: list[SeatPublic] | None = None, dora: str = "1s",
              seat: int = 0, **changes: Any) -> SeatView:
    """Seat ``seat``'s view (dealer seat 0, East 1, 35,000 each, 40 tiles left unless ``changes``
    say otherwise: any ``SeatView`` field); ``hand`` without the ``drawn`` tile."""
    tiles = tuple(parse_tiles(hand)) + (tuple(parse_tiles(drawn)) if drawn else ())
    pubs = seats or [seat_pub(), seat_pub(), seat_pub()]
    fields: dict[str, Any] = {
        "seat": seat, "round_wind": "E", "round_index": 0, "kyoku": 1, "honba": 0, "kyotaku": 0, "dealer": 0,
        "turn": seat, "to_move": (seat,), "scores": (35000, 35000, 35000), "names": ("A", "B", "C"),
        "dora_indicators": (Tile.parse(dora),), "wall_remaining": 40, "hand": tiles,
        "drawn": Tile.parse(drawn) if drawn else None, "waits": (), "furiten": False, "riichi": False,
        "legal_actions": (), "seats": (), "done": False, "visible": (),
    }
    fields.update(changes)
    dealer = fields["dealer"]
    fields["seats"] = tuple(dataclasses.replace(p, seat=i, wind=seat_wind(i, dealer)) for i, p in enumerate(pubs))
    fields["riichi"] = fields["seats"][seat].riichi
    fields["visible"] = visible_of(fields["seats"], tuple(fields["dora_indicators"]))
    return SeatView(**fields)
