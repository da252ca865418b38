"""A recorded game as the mjai event stream the engine writes, so the database holds one form.

:func:`record_events` turns a :class:`~sanma.formats.GameRecord` (from any reader) into mjai
events with sanma's extensions (three ``scores``/``tehais``, ``kita``, the rule name in
``start_game``), shaped like :class:`sanma.game.engine.Game` events: ``hora`` carries ``han``,
``fu``, ``yaku``, ``yakuman``, ``limit``, ``points`` and ``deltas``; ``ryukyoku`` its ``deltas``
and ``tenpai``; ``end_kyoku`` the kyoku's ``deltas`` and ``scores``. sanma's mjai reader reads
them back into the same kyoku, hand for hand.

>>> from sanma.formats import read_mjai, write_mjai
>>> rec = read_mjai(EXAMPLE)
>>> events = record_events(rec)
>>> [e["type"] for e in events][:3], events[-1]["type"]
(['start_game', 'start_kyoku', 'tsumo'], 'end_game')
>>> read_mjai(write_mjai(events), source=rec.source).kyoku == rec.kyoku
True
"""

from __future__ import annotations

from typing import Any

from ..errors import RecordError
from ..formats.record import (
    Ankan,
    Daiminkan,
    Discard,
    DoraRevealed,
    Draw,
    DrawResult,
    Flower,
    GameRecord,
    Kakan,
    Kita,
    KyokuRecord,
    Pon,
    RecordedWin,
    RiichiAccepted,
    Win,
)
from ..tiles import Tile

SEATS = 3

#: A tiny mjai record (a dealer tsumo in the first draw would need a real wall; this one ends in a
#: nine-terminals abort), used by the doctests.
EXAMPLE = "\n".join([
    '{"type":"start_game","names":["A","B","C"]}',
    '{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1p",'
    '"scores":[35000,35000,35000],"tehais":[["1m","9m","1p","9p","1s","9s","E","S","W","N","P","F","C"],'
    '["1p","1p","2p","3p","4p","5p","6p","7p","8p","9p","9p","1s","2s"],'
    '["1s","1s","2s","3s","4s","5s","6s","7s","8s","9s","9s","1p","2p"]]}',
    '{"type":"tsumo","actor":0,"pai":"C"}',
    '{"type":"ryukyoku","reason":"kyuushu","deltas":[0,0,0]}',
    '{"type":"end_kyoku"}',
    '{"type":"end_game","scores":[35000,35000,35000],"points":[15.0,0.0,-15.0]}',
])


def _names(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [t.mjai for t in tiles]


def _without(tiles: tuple[Tile, ...], tile: Tile) -> list[str]:
    """The meld's tiles without one copy of ``tile`` (the called or added tile)."""
    rest = list(tiles)
    if tile in rest:
        rest.remove(tile)
    else:  # the record's copy differs only in redness
        rest.remove(next(t for t in rest if t.kind == tile.kind))
    return _names(rest)


def ranks(record: GameRecord) -> list[int] | None:
    """Final placement per seat (1..3), or None when the record has no final result.

    Final points decide first (they include the platform's own tie-break through uma); equal
    points fall back to scores, then to seat order from the first dealer (P29).
    """
    if record.final_scores is None or not record.complete or len(record.final_scores) != SEATS:
        return None
    scores = record.final_scores
    points = record.final_points if record.final_points and len(record.final_points) == SEATS else (0.0,) * SEATS
    first = record.kyoku[0].dealer if record.kyoku else 0
    order = sorted(range(SEATS), key=lambda s: (-points[s], -scores[s], (s - first) % SEATS))
    out = [0] * SEATS
    for place, seat in enumerate(order, 1):
        out[seat] = place
    return out


def _hora(w: RecordedWin, tile: Tile) -> dict[str, Any]:
    return {
        "type": "hora", "actor": w.seat, "target": w.from_seat, "pai": tile.mjai, "han": w.han, "fu": w.fu,
        "yakuman": w.yakuman, "yaku": [[name, han] for name, han in w.yaku], "points": w.points,
        "limit": w.limit, "ura_markers": [Tile.parse(t).mjai for t in w.ura_indicators],
        "deltas": list(w.deltas), **({"pao": w.pao_seat} if w.pao_seat is not None else {}),
    }


def kyoku_events(k: KyokuRecord) -> list[dict[str, Any]]:
    """One kyoku as mjai events, ``start_kyoku`` to ``end_kyoku``."""
    if len(k.start_scores) != SEATS or len(k.initial_hands) != SEATS:
        raise RecordError(f"kyoku {k.label}: {len(k.start_scores)} scores and {len(k.initial_hands)} hands "
                          f"(a 3-player kyoku has {SEATS} of each)")
    if not k.dora_indicators:
        raise RecordError(f"kyoku {k.label}: no dora indicator")
    initial = max(1, k.initial_indicators)
    out: list[dict[str, Any]] = [{
        "type": "start_kyoku", "bakaze": k.round_wind, "kyoku": k.dealer + 1, "honba": k.honba,
        "kyotaku": k.kyotaku, "oya": k.dealer, "dora_marker": k.dora_indicators[0].mjai,
        "dora_markers": _names(k.dora_indicators[:initial]), "scores": list(k.start_scores),
        "tehais": [_names(h) for h in k.initial_hands],
    }]
    last_tile: Tile | None = None
    # tenhou.net/6 JSON lists kan dora with the deal and no reveal events: reveal each after its kan
    # as Tenhou does (an ankan's at once, an open kan's after the kan-er's next discard).
    unrevealed = list(k.dora_indicators[initial:]) if not any(isinstance(e, DoraRevealed) for e in k.events) else []
    open_kan_by: int | None = None
    for e in k.events:
        if open_kan_by is not None and isinstance(e, Discard) and e.seat == open_kan_by and unrevealed:
            out.append({"type": "dahai", "actor": e.seat, "pai": e.tile.mjai, "tsumogiri": e.tsumogiri})
            out.append({"type": "dora", "dora_marker": unrevealed.pop(0).mjai})
            open_kan_by = None
            last_tile = e.tile
            continue
        if isinstance(e, Draw):
            out.append({"type": "tsumo", "actor": e.seat, "pai": e.tile.mjai})
            last_tile = e.tile
        elif isinstance(e, Discard):
            if e.riichi:
                out.append({"type": "reach", "actor": e.seat, **({"open": True} if e.open_riichi else {})})
            out.append({"type": "dahai", "actor": e.seat, "pai": e.tile.mjai, "tsumogiri": e.tsumogiri})
            last_tile = e.tile
        elif isinstance(e, Pon | Daiminkan):
            out.append({"type": "pon" if isinstance(e, Pon) else "daiminkan", "actor": e.seat,
                        "target": e.from_seat, "pai": e.tile.mjai, "consumed": _without(e.tiles, e.tile)})
            if isinstance(e, Daiminkan):
                open_kan_by = e.seat
        elif isinstance(e, Kakan):
            out.append({"type": "kakan", "actor": e.seat, "pai": e.tile.mjai, "consumed": _without(e.tiles, e.tile)})
            last_tile = e.tile
            open_kan_by = e.seat
        elif isinstance(e, Ankan):
            out.append({"type": "ankan", "actor": e.seat, "consumed": _names(e.tiles)})
            last_tile = e.tiles[0]
            if unrevealed:
                out.append({"type": "dora", "dora_marker": unrevealed.pop(0).mjai})
        elif isinstance(e, Kita):
            out.append({"type": "kita", "actor": e.seat, "pai": e.tile.mjai})
            last_tile = e.tile
        elif isinstance(e, Flower):
            out.append({"type": "flower", "actor": e.seat, "pai": e.tile.mjai})
        elif isinstance(e, RiichiAccepted):
            out.append({"type": "reach_accepted", "actor": e.seat})
        elif isinstance(e, DoraRevealed):
            out.append({"type": "dora", "dora_marker": e.indicator.mjai})
        elif isinstance(e, Win):  # the readers put wins in ``results``; a Win event adds nothing
            continue
        else:  # pragma: no cover - the Event union is closed
            raise RecordError(f"kyoku {k.label}: unknown event {e!r}")
    # an open kan's dora not yet turned when the kyoku ended (a rinshan win, a chankan)
    out.extend({"type": "dora", "dora_marker": t.mjai} for t in unrevealed)
    for r in k.results:
        if isinstance(r, RecordedWin):
            tile = Tile.parse(r.win) if r.win else last_tile
            if tile is None:
                raise RecordError(f"kyoku {k.label}: a win by seat {r.seat} without a winning tile")
            out.append(_hora(r, tile))
        else:
            assert isinstance(r, DrawResult)
            out.append({"type": "ryukyoku", "reason": r.kind, "deltas": list(r.deltas[:SEATS]),
                        "tenpai": list(r.tenpai)})
    out.append({"type": "end_kyoku", "deltas": list(k.score_deltas()), "scores": list(k.end_scores())})
    return out


def record_events(record: GameRecord) -> list[dict[str, Any]]:
    """The whole record as mjai events: ``start_game``, each kyoku, then ``end_game`` when the
    record has its final result (an excerpt has none)."""
    if record.players and len(record.players) != SEATS:
        raise RecordError(f"{record.source}: {len(record.players)} players in a {SEATS}-player record")
    names = list(record.players) if record.players else [f"seat {s}" for s in range(SEATS)]
    flags = {k: v for k, v in record.rule_flags if k not in ("type", "names", "rules", "scores")}
    start = list(record.start_scores) if record.start_scores else (
        list(record.kyoku[0].start_scores) if record.kyoku else [])
    events: list[dict[str, Any]] = [{"type": "start_game", "names": names, "rules": record.rule_name,
                                     **flags, "scores": start}]
    for k in record.kyoku:
        events.extend(kyoku_events(k))
    places = ranks(record)
    if places is not None and record.final_scores is not None:
        events.append({"type": "end_game", "scores": list(record.final_scores), "ranks": places,
                       "points": list(record.final_points) if record.final_points else None})
    return events
