"""mjai JSONL records, read and written, with the sanma extensions: three players and ``kita`` events.

One JSON object per line: ``start_game``, ``start_kyoku`` (``tehais`` of three hands),
``tsumo``, ``dahai``, ``pon``, ``daiminkan``, ``kakan``, ``ankan``, ``kita``, ``reach``,
``reach_accepted``, ``dora``, ``hora`` (with ``deltas``, ``yaku``, ``han``, ``fu``,
``hora_points`` when the producer writes them), ``ryukyoku``, ``end_kyoku``, ``end_game``.
A file may be an excerpt: a trailing ``start_kyoku`` with no events (as in the shared
Mahjong Soul excerpt) only supplies the scores after the last kyoku.

:func:`write_mjai` writes a game's events as they are: mjai with sanma's extensions (three
``scores``/``tehais``, ``kita`` and ``flower`` events, the rule set named in ``start_game``, the
engine's ``chombo`` events), except that ``hora`` lists its yaku as ``[name, han]`` pairs, as
other mjai readers expect; it reads back with :func:`read_mjai` into the same game.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import events as ev
from ..errors import RecordError, SanmaError
from ..events import parse_event
from ..i18n.messages import sentence
from ..i18n.terms import yaku_key
from ..rules.schema import STANDARD_YAKUMAN
from ..tiles import Tile
from .guard import Problems, check_json_depth, error_text, events_of, read_guarded
from .record import LIMITS, DrawResult, GameRecord, KyokuRecord, Result, kyoku_label, limit_from_han_fu
from .tracker import KyokuReplay, build_win, live_draws_for, named_rules

MAX_LINES = 100_000


def _known(t: Tile | None, field: str) -> Tile:
    """A record's tile: a hidden one (``"?"``, a seat's masked view) cannot be replayed."""
    if t is None:
        raise RecordError(sentence("{field}: a hidden tile ('?') in a record", field=field))
    return t


class _Kyoku:
    def __init__(self, reader: _Reader, e: ev.StartKyoku, index: int) -> None:
        self.r = reader
        self.index = index
        self.round_wind = e.bakaze
        self.dealer = e.oya
        self.honba = e.honba
        self.kyotaku = e.kyotaku
        self.label = kyoku_label(self.round_wind, self.dealer, self.honba)
        self.start = e.scores
        self.haipai: list[list[Tile]] = []
        for s, h in enumerate(e.tehais):
            if len(h) != 13:
                raise RecordError(sentence("tehais[{s}] is not 13 tiles", s=s))
            self.haipai.append([_known(t, f"tehais[{s}]") for t in h])
        self.dora = list(e.dora_markers)  # sanma's engine: 2 on doubles (P07)
        self.initial_indicators = len(self.dora)
        self.ura: tuple[Tile, ...] = ()
        self.replay = KyokuReplay(reader.problems, self.label, self.dealer, [list(h) for h in self.haipai],
                                  kyotaku=self.kyotaku, live_draws=reader.live_draws)
        self.draw_deltas_pending = False
        self.results: list[Result] = []
        self.events = 0

    def event(self, e: ev.Event) -> None:
        rp = self.replay
        self.events += 1
        if rp.play(e):  # the play itself (draws, discards, calls, kita, flowers, riichi, dora)
            if isinstance(e, ev.Dora):
                self.dora.append(e.marker)
        elif isinstance(e, ev.Hora):
            self.hora(e)
        elif isinstance(e, ev.Ryukyoku):
            rp.finish()
            # sanma's engine writes an abort's or a nagashi win's payments only in end_kyoku
            self.draw_deltas_pending = e.deltas is None
            self.results.append(DrawResult(e.reason, e.deltas or (0, 0, 0), e.tenpai or ()))
        elif isinstance(e, ev.Chombo):
            # sanma extension: one event per offender; the hand's score changes (riichi sticks
            # returned included) come in end_kyoku; a riichi pending now is void, never accepted
            last = self.results[-1] if self.results else None
            if isinstance(last, DrawResult) and last.kind == "chombo":
                self.results[-1] = replace(last, voided_by=(*last.voided_by, e))
            else:
                self.results.append(DrawResult("chombo", (0, 0, 0), voided_by=(e,)))
            self.draw_deltas_pending = True
        elif isinstance(e, ev.RiichiBust):  # sanma extension (P79): the hand stops, no payment in it
            rp.finish()
            self.results.append(DrawResult("riichi_bust", (0, 0, 0), voided_by=(e,)))
            self.draw_deltas_pending = True
        else:
            self.r.problems.add(sentence("{type} event inside a kyoku", code="kyoku_order", type=e.TYPE), self.label,
                                self.replay.where)

    def hora(self, e: ev.Hora) -> None:
        p = self.r.problems
        seat, target = e.actor, e.target
        ctx = self.replay.win(seat, target, e.pai)
        if ctx is None:
            raise RecordError(sentence("cannot reconstruct the winning hand of seat {seat}", seat=seat))
        yaku: list[tuple[str, int]] = []
        for y in e.yaku:  # a yakuman line carries its multiplier, as in the other readers
            name = yaku_key(y.name)
            if name is None:
                p.add(sentence("unknown yaku {name!r}", code="unknown_yaku", name=y.name), self.label)
                continue
            yaku.append((name, y.yakuman or y.han))
        han = e.han if e.han is not None else sum(h for _, h in yaku)
        # [name, n] pairs carry no flag: they are yakuman lines (n the multiplier) when the hora says
        # yakuman and every name is a yakuman's (write_mjai's form: "han" 13, "yakuman" the lines' sum)
        pairs_of_yakuman = e.yakuman > 0 and not any(y.yakuman for y in e.yaku) and \
            all(name in STANDARD_YAKUMAN for name, _ in yaku) and len(yaku) == len(e.yaku)
        listed_yakuman = sum(y.yakuman for y in e.yaku) or (sum(n for _, n in yaku) if pairs_of_yakuman else 0)
        # yakuman lines decide; a counted yakuman (kazoe) lists ordinary yaku with its han
        yakuman = listed_yakuman or (0 if han else e.yakuman)
        limit = e.limit if e.limit is not None else limit_from_han_fu(han, e.fu, yakuman)
        if limit is not None and limit not in LIMITS:
            p.add(sentence("limit {limit!r} is not one of {limits}", code="unknown_limit", limit=limit, limits=LIMITS),
                  self.label)
        self.ura = e.uradora_markers or self.ura
        first = not any(not isinstance(r, DrawResult) for r in self.results)
        self.results.append(build_win(
            ctx, seat=seat, from_seat=target, dealer=self.dealer, round_wind=self.round_wind,
            honba=self.honba, kyotaku=None if first else 0, dora=tuple(self.dora),
            ura=e.uradora_markers, yaku=tuple(yaku), yakuman=yakuman, han=0 if yakuman else han, fu=e.fu,
            limit=limit, points=e.points, deltas=e.deltas, pao_seat=None, source=self.r.source,
            label=self.label, index=self.index, problems=p,
            # a standard mjai hora (Mortal, mjai.app) gives none of these: only its payments are compared
            scored=e.han is not None or e.fu is not None or bool(e.yaku) or e.limit is not None))

    def record(self) -> KyokuRecord:
        return KyokuRecord(
            round_wind=self.round_wind, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku,
            start_scores=self.start, dora_indicators=tuple(self.dora), ura_indicators=self.ura,
            initial_hands=tuple(tuple(h) for h in self.haipai), events=tuple(self.replay.events),
            results=tuple(self.results), initial_indicators=self.initial_indicators)

    def end(self, e: ev.EndKyoku) -> None:
        """``end_kyoku``: the payments of a draw whose ``ryukyoku`` event did not carry them."""
        if self.draw_deltas_pending and self.results and isinstance(self.results[-1], DrawResult) \
                and e.deltas is not None:
            self.results[-1] = replace(self.results[-1], deltas=e.deltas)


class _Reader:
    def __init__(self, text: str, source: str, strict: bool) -> None:
        self.text = text
        self.source = source
        self.problems = Problems(source, strict)
        self.rule_name = ""
        self.live_draws = live_draws_for(named_rules(""))

    def read(self) -> GameRecord:
        p = self.problems
        lines = self.text.splitlines()
        if len(lines) > MAX_LINES:
            raise RecordError(sentence("{source}: {n} lines is more than the {max_lines} limit",
                                       source=self.source, n=len(lines), max_lines=MAX_LINES))
        players: tuple[str, ...] = ()
        kyoku: list[KyokuRecord] = []
        cur: _Kyoku | None = None
        final_scores: tuple[int, ...] | None = None
        final_points: tuple[float, ...] | None = None
        flags: tuple[tuple[str, Any], ...] = ()
        complete = False
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = sentence("line {n}", n=n)
            label = cur.label if cur else None
            try:
                check_json_depth(line, self.source)
                try:
                    raw = json.loads(line)
                except ValueError as bad:  # the parser's own words, quoted
                    raise RecordError(sentence("invalid JSON: {error}", code="json", error=str(bad))) from None
                if not isinstance(raw, dict):
                    raise RecordError(sentence("not a JSON object"))
                e = parse_event(raw)
                if cur is not None:
                    cur.replay.where = where
                if isinstance(e, ev.StartGame):
                    players = e.names or ()
                    self.rule_name = e.rules
                    self.live_draws = live_draws_for(named_rules(self.rule_name))
                    flags = tuple(sorted(e.extra))
                elif isinstance(e, ev.StartKyoku):
                    if cur is not None:
                        p.add(sentence("start_kyoku before end_kyoku", code="kyoku_order"), cur.label, where)
                        kyoku.append(cur.record())
                    cur = _Kyoku(self, e, len(kyoku))
                elif isinstance(e, ev.EndKyoku):
                    if cur is None:
                        raise RecordError(sentence("end_kyoku outside a kyoku"))
                    if not cur.results:
                        p.add(sentence("kyoku ends without hora or ryukyoku", code="no_result"), cur.label, where)
                    cur.end(e)
                    kyoku.append(cur.record())
                    cur = None
                elif isinstance(e, ev.EndGame):
                    complete = True
                    final_scores = e.scores
                    final_points = e.points
                elif cur is None:
                    raise RecordError(sentence("event {type!r} outside a kyoku", type=e.TYPE))
                else:
                    cur.event(e)
            except (SanmaError, ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError,
                    RecursionError) as e:
                p.add(error_text(e), label, where)
        if cur is not None:
            if cur.events == 0 and kyoku:
                # an excerpt's trailing header: its scores are the end of the previous kyoku
                final_scores = cur.start
            else:
                p.add(sentence("the record ends in the middle of a kyoku", code="truncated"), cur.label)
                kyoku.append(cur.record())
        if not kyoku:
            p.add(sentence("no kyoku in the record", code="no_kyoku"))
        return GameRecord(
            source=self.source, format="mjai", rule_name=self.rule_name, rule_flags=flags, players=players,
            start_scores=kyoku[0].start_scores if kyoku else (), kyoku=tuple(kyoku),
            final_scores=final_scores, final_points=final_points, complete=complete, errors=tuple(p.items))


def read_mjai(path_or_text: str | Path | bytes, *, strict: bool = False, source: str | None = None) -> GameRecord:
    """Read an mjai JSONL record (three players, kita events); lenient unless ``strict=True``."""
    return read_guarded("mjai", path_or_text, strict, source,
                        lambda text, src: _Reader(text, src, strict).read())


# --- writing -------------------------------------------------------------------------------------




def write_mjai(game_or_events: Any) -> str:
    """mjai JSONL: one event per line (a ``Game``, its ``events`` or typed events), ending with a newline.

    ``hora`` lists its ``yaku`` as ``[name, han]`` pairs, as the mjai protocol and other mjai
    readers (riichienv's ``MjaiReplay``) have them, ``[name, multiplier]`` for a yakuman, with
    ``yakuman`` the sum of the listed multipliers (0 for a counted yakuman, which lists ordinary
    yaku); sanma reads this form and the engine's own (objects) alike.

    >>> write_mjai([{"type": "kita", "actor": 1, "pai": "N"}])
    '{"type":"kita","actor":1,"pai":"N"}\\n'
    """
    events = events_of(game_or_events)
    return "".join(json.dumps(_mjai_form(e.to_mjai()), ensure_ascii=False, separators=(",", ":")) + "\n"
                   for e in events)


def _mjai_form(e: dict[str, Any]) -> dict[str, Any]:
    """An engine event as the mjai protocol writes it (only ``hora`` differs: yaku as pairs).

    >>> _mjai_form({"type": "hora", "yakuman": 0, "yaku": [{"name": "riichi", "han": 1}]})
    {'type': 'hora', 'yakuman': 0, 'yaku': [['riichi', 1]]}
    """
    yaku = e.get("yaku") if e.get("type") == "hora" else None
    if not isinstance(yaku, list) or not any(isinstance(y, dict) for y in yaku):
        return e
    pairs = [[y.get("name"), y.get("yakuman") or y.get("han", 0)] if isinstance(y, dict) else y for y in yaku]
    listed = sum(int(y.get("yakuman") or 0) for y in yaku if isinstance(y, dict))
    return {**e, "yaku": pairs, **({"yakuman": listed} if "yakuman" in e else {})}
