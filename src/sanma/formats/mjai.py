"""mjai JSONL records (reading), with the sanma extensions: three players and ``kita`` events.

One JSON object per line: ``start_game``, ``start_kyoku`` (``tehais`` of three hands),
``tsumo``, ``dahai``, ``pon``, ``daiminkan``, ``kakan``, ``ankan``, ``kita``, ``reach``,
``reach_accepted``, ``dora``, ``hora`` (with ``deltas``, ``yaku``, ``han``, ``fu``,
``hora_points`` when the producer writes them), ``ryukyoku``, ``end_kyoku``, ``end_game``.
A file may be an excerpt: a trailing ``start_kyoku`` with no events (as in the shared
Mahjong Soul excerpt) only supplies the scores after the last kyoku.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RecordError, SanmaError
from ..tiles import NORTH, Tile
from .record import (
    LIMITS,
    DrawResult,
    GameRecord,
    KyokuRecord,
    KyokuReplay,
    Problems,
    Result,
    as_int,
    build_win,
    check_json_depth,
    kyoku_label,
    limit_from_han_fu,
    live_draws_for,
    read_guarded,
    yaku_name,
)

MAX_LINES = 100_000


def tile(name: Any) -> Tile:
    if not isinstance(name, str):
        raise RecordError(f"mjai tile {name!r} is not text")
    return Tile.from_mjai(name)


class _Kyoku:
    def __init__(self, reader: _Reader, ev: dict[str, Any], index: int) -> None:
        self.r = reader
        self.index = index
        bakaze = ev.get("bakaze")
        if bakaze not in ("E", "S", "W", "N"):
            raise RecordError(f"bakaze {bakaze!r} is not E/S/W/N")
        self.round_wind = str(bakaze)
        self.dealer = as_int(ev.get("oya"), "oya")
        if not 0 <= self.dealer < 3:
            raise RecordError(f"oya {self.dealer} is not a seat 0..2")
        self.honba = as_int(ev.get("honba", 0), "honba")
        self.kyotaku = as_int(ev.get("kyotaku", 0), "kyotaku")
        self.label = kyoku_label(self.round_wind, self.dealer, self.honba)
        scores = ev.get("scores")
        if not isinstance(scores, list) or len(scores) != 3:
            raise RecordError(f"scores {scores!r}: expected 3 scores (a 4-player record?)")
        self.start = tuple(as_int(x, "score") for x in scores)
        tehais = ev.get("tehais")
        if not isinstance(tehais, list) or len(tehais) != 3:
            raise RecordError("tehais: expected 3 hands (a 4-player record?)")
        self.haipai = []
        for s, h in enumerate(tehais):
            if not isinstance(h, list) or len(h) != 13:
                raise RecordError(f"tehais[{s}] is not 13 tiles")
            self.haipai.append([tile(x) for x in h])
        markers = ev.get("dora_markers")
        if isinstance(markers, list) and markers:
            self.dora = [tile(x) for x in markers]  # sanma's engine: 2 on doubles (P07)
        else:
            self.dora = [tile(ev.get("dora_marker"))]
        self.initial_indicators = len(self.dora)
        self.ura: tuple[Tile, ...] = ()
        self.replay = KyokuReplay(reader.problems, self.label, self.dealer, [list(h) for h in self.haipai],
                                  kyotaku=self.kyotaku, live_draws=live_draws_for(reader.rule_name))
        self.draw_deltas_pending = False
        self.results: list[Result] = []
        self.reach: int | None = None
        self.open_reach = False
        self.events = 0

    def seat(self, ev: dict[str, Any], key: str = "actor") -> int:
        s = as_int(ev.get(key), key)
        if not 0 <= s < 3:
            raise RecordError(f"{key} {s} is not a seat 0..2")
        return s

    def event(self, ev: dict[str, Any]) -> None:
        rp = self.replay
        kind = ev.get("type")
        self.events += 1
        if kind == "tsumo":
            rp.draw(self.seat(ev), tile(ev.get("pai")))
        elif kind == "dahai":
            seat = self.seat(ev)
            riichi = self.reach == seat
            self.reach = None
            rp.discard(seat, tile(ev.get("pai")), tsumogiri=bool(ev.get("tsumogiri")), riichi=riichi,
                       open_riichi=riichi and self.open_reach)
        elif kind in ("pon", "daiminkan"):
            seat, target = self.seat(ev), self.seat(ev, "target")
            consumed = ev.get("consumed")
            if not isinstance(consumed, list):
                raise RecordError(f"{kind} without consumed tiles")
            hand_tiles = tuple(tile(x) for x in consumed)
            if len(hand_tiles) != (2 if kind == "pon" else 3):
                raise RecordError(f"{kind} consumes {len(hand_tiles)} tiles")
            call = rp.pon if kind == "pon" else rp.daiminkan
            call(seat, target, tile(ev.get("pai")), hand_tiles)
        elif kind == "kakan":
            rp.kakan(self.seat(ev), tile(ev.get("pai")))
        elif kind == "ankan":
            consumed = ev.get("consumed")
            if not isinstance(consumed, list) or len(consumed) != 4:
                raise RecordError("ankan needs 4 consumed tiles")
            rp.ankan(self.seat(ev), tile(consumed[0]))
        elif kind in ("kita", "nukidora"):
            rp.kita(self.seat(ev), tile(ev["pai"]) if "pai" in ev else Tile(NORTH))
        elif kind == "reach":
            self.reach = self.seat(ev)
            self.open_reach = bool(ev.get("open"))
        elif kind == "flower":
            rp.flower(self.seat(ev), tile(ev.get("pai")))
        elif kind == "reach_accepted":
            rp.finish()
        elif kind == "dora":
            t = tile(ev.get("dora_marker"))
            self.dora.append(t)
            rp.dora(t)
        elif kind == "hora":
            self.hora(ev)
        elif kind == "ryukyoku":
            rp.finish()
            # sanma's engine writes an abort's or a nagashi win's payments only in end_kyoku
            self.draw_deltas_pending = "deltas" not in ev
            deltas = ev.get("deltas") or [0, 0, 0]
            tenpai = ev.get("tenpai")
            self.results.append(DrawResult(
                str(ev.get("reason", "exhaustive")), tuple(as_int(x, "delta") for x in deltas[:3]),
                tuple(self.seat({"s": s}, "s") for s in tenpai) if isinstance(tenpai, list) else ()))
        elif kind == "chombo":
            # sanma extension: one event per offender; the hand's score changes (riichi sticks
            # returned included) come in end_kyoku; a riichi pending now is void, never accepted
            if not (self.results and isinstance(self.results[-1], DrawResult) and self.results[-1].kind == "chombo"):
                self.results.append(DrawResult("chombo", (0, 0, 0)))
            self.draw_deltas_pending = True
        else:
            self.r.problems.add(f"unknown event type {kind!r}", self.label, self.replay.where)

    def hora(self, ev: dict[str, Any]) -> None:
        p = self.r.problems
        seat, target = self.seat(ev), self.seat(ev, "target")
        ctx = self.replay.win(seat, target, tile(ev["pai"]) if "pai" in ev else None)
        if ctx is None:
            raise RecordError(f"cannot reconstruct the winning hand of seat {seat}")
        yaku: list[tuple[str, int]] = []
        yakuman = 0
        listed_yakuman = 0
        for item in ev.get("yaku") or []:
            if isinstance(item, dict):  # sanma's engine: {"name", "han", "yakuman"?} with sanma names
                pair: list[Any] = [item.get("name"), item.get("yakuman") or item.get("han", 0)]
                listed_yakuman += as_int(item.get("yakuman", 0), "yakuman")
            else:
                pair = item
            if not isinstance(pair, list) or len(pair) != 2:
                p.add(f"yaku entry {item!r} is not [name, han]", self.label)
                continue
            name = yaku_name(str(pair[0]))
            if name is None:
                p.add(f"unknown yaku {pair[0]!r}", self.label)
                continue
            yaku.append((name, as_int(pair[1], "yaku han")))
        han = as_int(ev.get("han", sum(h for _, h in yaku)), "han")
        fu = as_int(ev["fu"], "fu") if ev.get("fu") is not None else None
        if any(isinstance(item, dict) for item in ev.get("yaku") or []):
            yakuman = listed_yakuman  # a counted yakuman (kazoe) lists ordinary yaku
        elif "yakuman" in ev:
            yakuman = as_int(ev["yakuman"], "yakuman")
        limit = ev["limit"] if "limit" in ev else limit_from_han_fu(han, fu, yakuman)
        if limit is not None and limit not in LIMITS:
            p.add(f"limit {limit!r} is not one of {LIMITS}", self.label)
        ura = tuple(tile(x) for x in ev.get("ura_markers") or ev.get("uradora_markers") or [])
        self.ura = ura or self.ura
        deltas = ev.get("deltas")
        if not isinstance(deltas, list) or len(deltas) != 3:
            raise RecordError(f"hora deltas {deltas!r}: expected 3 values")
        first = not any(not isinstance(r, DrawResult) for r in self.results)
        self.results.append(build_win(
            ctx, seat=seat, from_seat=target, dealer=self.dealer, round_wind=self.round_wind,
            honba=self.honba if first else 0, kyotaku=None if first else 0, dora=tuple(self.dora), ura=ura,
            yaku=tuple(yaku), yakuman=yakuman, han=0 if yakuman else han, fu=fu,
            limit=limit, points=as_int(ev.get("hora_points", ev.get("points", 0)), "hora_points"),
            deltas=tuple(as_int(x, "delta") for x in deltas), pao_seat=None, source=self.r.source,
            label=self.label, index=self.index, problems=p,
            scored=any(k in ev for k in ("yaku", "han", "fu", "limit", "yakuman"))))

    def record(self) -> KyokuRecord:
        return KyokuRecord(
            round_wind=self.round_wind, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku,
            start_scores=self.start, dora_indicators=tuple(self.dora), ura_indicators=self.ura,
            initial_hands=tuple(tuple(h) for h in self.haipai), events=tuple(self.replay.events),
            results=tuple(self.results), initial_indicators=self.initial_indicators)

    def end(self, ev: dict[str, Any]) -> None:
        """``end_kyoku``: the payments of a draw whose ``ryukyoku`` event did not carry them."""
        deltas = ev.get("deltas")
        if self.draw_deltas_pending and self.results and isinstance(self.results[-1], DrawResult) \
                and isinstance(deltas, list):
            last = self.results[-1]
            self.results[-1] = DrawResult(last.kind, tuple(as_int(x, "delta") for x in deltas[:3]), last.tenpai)


class _Reader:
    def __init__(self, text: str, source: str, strict: bool) -> None:
        self.text = text
        self.source = source
        self.problems = Problems(source, strict)
        self.rule_name = ""

    def read(self) -> GameRecord:
        import json

        p = self.problems
        lines = self.text.splitlines()
        if len(lines) > MAX_LINES:
            raise RecordError(f"{self.source}: {len(lines)} lines is more than the {MAX_LINES} limit")
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
            where = f"line {n}"
            label = cur.label if cur else None
            try:
                check_json_depth(line, f"{self.source}: {where}")
                ev = json.loads(line)
                if not isinstance(ev, dict):
                    raise RecordError("not a JSON object")
                kind = ev.get("type")
                if cur is not None:
                    cur.replay.where = where
                if kind == "start_game":
                    names = ev.get("names")
                    if isinstance(names, list):
                        if len(names) != 3:
                            raise RecordError(f"{len(names)} players in a 3-player record")
                        players = tuple(str(x) for x in names)
                    self.rule_name = str(ev.get("rules", "")) if isinstance(ev.get("rules"), str) else ""
                    flags = tuple(sorted((str(k), v) for k, v in ev.items()
                                         if k not in ("type", "names", "rules", "scores")
                                         and isinstance(v, str | int | float | bool)))
                elif kind == "start_kyoku":
                    if cur is not None:
                        p.add("start_kyoku before end_kyoku", cur.label, where)
                        kyoku.append(cur.record())
                    cur = _Kyoku(self, ev, len(kyoku))
                elif kind == "end_kyoku":
                    if cur is None:
                        raise RecordError("end_kyoku outside a kyoku")
                    if not cur.results:
                        p.add("kyoku ends without hora or ryukyoku", cur.label, where)
                    cur.end(ev)
                    kyoku.append(cur.record())
                    cur = None
                elif kind == "end_game":
                    complete = True
                    scores = ev.get("scores")
                    if isinstance(scores, list) and len(scores) >= 3:
                        final_scores = tuple(as_int(x, "score") for x in scores[:3])
                    points = ev.get("points")
                    if isinstance(points, list) and len(points) >= 3:
                        final_points = tuple(float(x) for x in points[:3])
                elif cur is None:
                    raise RecordError(f"event {kind!r} outside a kyoku")
                else:
                    cur.event(ev)
            except (SanmaError, ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError,
                    RecursionError) as e:
                p.add(str(e) if isinstance(e, SanmaError) else f"{type(e).__name__}: {e}", label, where)
        if cur is not None:
            if cur.events == 0 and kyoku:
                # an excerpt's trailing header: its scores are the end of the previous kyoku
                final_scores = cur.start
            else:
                p.add("the record ends in the middle of a kyoku", cur.label)
                kyoku.append(cur.record())
        if not kyoku:
            p.add("no kyoku in the record")
        return GameRecord(
            source=self.source, format="mjai", rule_name=self.rule_name, rule_flags=flags, players=players,
            start_scores=kyoku[0].start_scores if kyoku else (), kyoku=tuple(kyoku),
            final_scores=final_scores, final_points=final_points, complete=complete, errors=tuple(p.items))


def read_mjai(path_or_text: str | Path | bytes, *, strict: bool = False, source: str | None = None) -> GameRecord:
    """Read an mjai JSONL record (three players, kita events); lenient unless ``strict=True``."""
    return read_guarded("mjai", path_or_text, strict, source,
                        lambda text, src: _Reader(text, src, strict).read())
