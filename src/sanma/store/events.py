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

from .. import events as ev
from ..errors import RecordError
from ..formats.record import DrawResult, GameRecord, KyokuRecord, RecordedWin
from ..i18n import sentence
from ..scoring import Yaku
from ..tiles import SEATS, Tile, parse_tiles
from .backend import at

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


def _hora(w: RecordedWin, tile: Tile, scores: tuple[int, ...]) -> ev.Hora:
    """The engine's ``hora`` of a recorded win: yakuman lines carry their multiplier, the hand is
    the concealed tiles without a ron tile (with a tsumo tile), ``scores`` are after the win."""
    hand = list(parse_tiles(w.hand)) if w.hand else []
    if not w.tsumo and hand:
        hand.remove(tile if tile in hand else next(t for t in hand if t.kind == tile.kind))
    yaku = tuple(Yaku(name, 0, han) if w.yakuman else Yaku(name, han) for name, han in w.yaku)
    return ev.Hora(w.seat, w.from_seat, tile, w.han, w.fu, w.yakuman, yaku, w.points, w.limit,
                   tuple(Tile.parse(t) for t in w.ura_indicators), tuple(hand), tuple(w.deltas), scores,
                   w.pao_seat)


def kyoku_typed(k: KyokuRecord) -> list[ev.Event]:
    """One kyoku as typed events, ``start_kyoku`` to ``end_kyoku``."""
    if len(k.start_scores) != SEATS or len(k.initial_hands) != SEATS:
        raise RecordError(sentence("kyoku {kyoku}: {scores} scores and {hands} hands (a 3-player kyoku has {n} "
                                   "of each)", kyoku=k.label, scores=len(k.start_scores), hands=len(k.initial_hands),
                                   n=SEATS))
    if not k.dora_indicators:
        raise RecordError(sentence("kyoku {kyoku}: no dora indicator", kyoku=k.label))
    initial = max(1, k.initial_indicators)
    out: list[ev.Event] = [ev.StartKyoku(
        k.round_wind, k.dealer + 1, k.honba, k.kyotaku, k.dealer, tuple(k.dora_indicators[:initial]),
        tuple(k.start_scores), tuple(tuple(h) for h in k.initial_hands))]
    last_tile: Tile | None = None
    # tenhou.net/6 JSON lists kan dora with the deal and no reveal events: reveal each after its kan
    # as Tenhou does (an ankan's at once, an open kan's with the kan-er's next discard, P12).
    unrevealed = list(k.dora_indicators[initial:]) if not any(isinstance(e, ev.Dora) for e in k.events) else []
    open_kan_by: int | None = None
    for e in k.events:  # the record's own typed events (sanma.events)
        out.append(e)
        if isinstance(e, ev.Tsumo | ev.Dahai | ev.Kakan):
            last_tile = e.pai
        elif isinstance(e, ev.Ankan):
            last_tile = e.consumed[0]
        elif isinstance(e, ev.Kita):
            last_tile = ev.NORTH_TILE
        if not unrevealed:
            continue
        if isinstance(e, ev.Daiminkan | ev.Kakan):
            open_kan_by = e.actor
        elif isinstance(e, ev.Ankan):
            out.append(ev.Dora(unrevealed.pop(0)))
        elif isinstance(e, ev.Dahai) and e.actor == open_kan_by:
            out.append(ev.Dora(unrevealed.pop(0)))
            open_kan_by = None
    # an open kan's dora not yet turned when the kyoku ended (a rinshan win, a chankan)
    out.extend(ev.Dora(t) for t in unrevealed)
    running = list(k.start_scores)
    for r in k.results:
        if isinstance(r, RecordedWin):
            tile = Tile.parse(r.win) if r.win else last_tile
            if tile is None:
                raise RecordError(sentence("kyoku {kyoku}: a win by seat {seat} without a winning tile", kyoku=k.label,
                                           seat=r.seat))
            if len(r.deltas) >= SEATS:
                running = [running[s] + r.deltas[s] for s in range(SEATS)]
            out.append(_hora(r, tile, tuple(running)))
        else:
            assert isinstance(r, DrawResult)
            if r.voided_by:  # a chombo per offender (its reason and payment, P100) or a riichi bust (P79)
                out.extend(r.voided_by)
            else:
                out.append(ev.Ryukyoku(ev.draw_reason(r.kind), tenpai=tuple(r.tenpai),
                                       deltas=tuple(r.deltas[:SEATS])))
    out.append(ev.EndKyoku(tuple(k.score_deltas()), tuple(k.end_scores())))
    return out


def kyoku_events(k: KyokuRecord) -> list[dict[str, Any]]:
    """One kyoku as mjai events, ``start_kyoku`` to ``end_kyoku``."""
    return [e.to_mjai() for e in kyoku_typed(k)]


def record_typed(record: GameRecord) -> list[ev.Event]:
    """The whole record as typed events: ``start_game``, each kyoku, then ``end_game`` when the
    record has its final result (an excerpt has none)."""
    if record.players and len(record.players) != SEATS:
        raise RecordError(at(record.source, sentence("{n} players in a {seats}-player record", n=len(record.players),
                                                     seats=SEATS)))
    names = tuple(record.players) if record.players else tuple(f"seat {s}" for s in range(SEATS))
    flags = tuple((k, v) for k, v in record.rule_flags if k not in ("type", "names", "rules", "scores"))
    start = tuple(record.start_scores) if record.start_scores else (
        tuple(record.kyoku[0].start_scores) if record.kyoku else None)
    events: list[ev.Event] = [ev.StartGame(names, record.rule_name, start, flags)]
    for k in record.kyoku:
        events.extend(kyoku_typed(k))
    places = ranks(record)
    if places is not None and record.final_scores is not None:
        events.append(ev.EndGame(tuple(record.final_scores), tuple(places),
                                 tuple(record.final_points) if record.final_points else None))
    return events


def record_events(record: GameRecord) -> list[dict[str, Any]]:
    """The whole record as mjai events (:func:`record_typed` in its mjai form)."""
    return [e.to_mjai() for e in record_typed(record)]
