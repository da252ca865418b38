"""kobalab 電脳麻将 (majiang) JSON records, as converted from Tenhou sanma logs.

Tiles are written suit-first (``m1``, ``p0`` = red 5p, ``z4`` = North); hands are grouped
(``m19p6s23447z12346``). In each kyoku, ``l`` is a seat *relative to the dealer* (0 = East)
and ``defen`` (start scores) and ``fenpei`` (score changes) are ordered the same way (the
game's final ``defen`` is by absolute seat, from ``qijia``); ``penuki`` is a kita and a kita shows
in a hand as ``,b``. This module turns all of that into absolute seats and
:class:`sanma.tiles.Tile`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import events as ev
from ..errors import RecordError, SanmaError
from ..i18n.messages import sentence
from ..i18n.terms import draw_key, yaku_key
from ..tiles import NORTH, WIND_LETTERS, Tile, to_mpsz
from .guard import Problems, as_int, error_text, parse_json, read_guarded
from .record import DrawResult, GameRecord, KyokuRecord, Result, kyoku_label, limit_from_han_fu, majsoul_room
from .tracker import KyokuReplay, build_win

_TILE = re.compile(r"^([mpsz])([0-9])[_*]*$")
_MELD = re.compile(r"^([mpsz])(\d+)([-=+]?)(\d?)$")


def tile(text: Any) -> Tile:
    """``tile('p0') == Tile.parse('0p')``; a trailing ``_`` (tsumogiri) or ``*`` (riichi) is ignored."""
    if not isinstance(text, str) or not (m := _TILE.match(text)):
        raise RecordError(sentence("majiang tile {text!r} is not like 'm1', 'p0', 'z4'", text=text))
    return Tile.parse(m.group(2) + m.group(1))


def hand(text: str) -> tuple[list[Tile], list[str], int]:
    """``(concealed tiles, meld strings, kita count)`` of a majiang hand string."""
    if not isinstance(text, str):
        raise RecordError(sentence("majiang hand {text!r} is not text", text=text))
    parts = text.split(",")
    tiles: list[Tile] = []
    suit = ""
    for ch in parts[0]:
        if ch in "mpsz":
            suit = ch
        elif ch.isdigit() and suit:
            tiles.append(Tile.parse(ch + suit))
        elif ch not in "_*":
            raise RecordError(sentence("majiang hand {text!r}: unexpected {ch!r}", text=text, ch=ch))
    kita = sum(1 for x in parts[1:] if x == "b")
    melds = [x for x in parts[1:] if x and x != "b"]
    return tiles, melds, kita


class _Kyoku:
    def __init__(self, reader: _Reader, qipai: Any, index: int) -> None:
        self.r = reader
        self.index = index
        if not isinstance(qipai, dict):
            raise RecordError(sentence("qipai is not an object"))
        self.round_wind = WIND_LETTERS[as_int(qipai.get("zhuangfeng"), "zhuangfeng") % 4]
        jushu = as_int(qipai.get("jushu"), "jushu")
        if not 0 <= jushu < 3:
            raise RecordError(sentence("jushu {jushu} is not a sanma dealer 0..2", jushu=jushu))
        self.dealer = (reader.qijia + jushu) % 3
        self.honba = as_int(qipai.get("changbang", 0), "changbang")
        self.kyotaku = as_int(qipai.get("lizhibang", 0), "lizhibang")
        self.label = kyoku_label(self.round_wind, self.dealer, self.honba)
        self.start = self.by_seat(qipai.get("defen"), "defen")  # dealer first, like fenpei
        shoupai = qipai.get("shoupai")
        if not isinstance(shoupai, list) or len(shoupai) != 3:
            raise RecordError(sentence("shoupai {shoupai!r}: expected 3 hands", shoupai=shoupai))
        self.haipai = [[] for _ in range(3)]  # type: list[list[Tile]]
        for rel, text in enumerate(shoupai):
            tiles, melds, kita = hand(text)
            if len(tiles) != 13 or melds or kita:
                raise RecordError(sentence("shoupai {text!r} is not a 13-tile deal", text=text))
            self.haipai[self.seat(rel)] = tiles
        self.dora = [tile(qipai.get("baopai"))]
        self.ura: tuple[Tile, ...] = ()
        self.replay = KyokuReplay(reader.problems, self.label, self.dealer, [list(h) for h in self.haipai],
                                  kyotaku=self.kyotaku)
        self.results: list[Result] = []

    def seat(self, rel: Any) -> int:
        r = as_int(rel, "l")
        if not 0 <= r < 3:
            raise RecordError(sentence("l={r} is not a seat 0..2", r=r))
        return (self.dealer + r) % 3

    def by_seat(self, values: Any, what: str) -> tuple[int, ...]:
        if not isinstance(values, list) or len(values) != 3:
            raise RecordError(sentence("{what} {values!r}: expected 3 values", what=what, values=values))
        out = [0, 0, 0]
        for rel, v in enumerate(values):
            out[self.seat(rel)] = as_int(v, what)
        return tuple(out)

    def event(self, entry: dict[str, Any]) -> None:
        rp = self.replay
        (name, body), = entry.items()
        if not isinstance(body, dict):
            raise RecordError(sentence("{name} is not an object", name=name))
        if name in ("zimo", "gangzimo"):
            rp.play(ev.Tsumo(self.seat(body.get("l")), tile(body.get("p"))))
        elif name == "dapai":
            p = body.get("p")
            t = tile(p)
            assert isinstance(p, str)
            seat = self.seat(body.get("l"))
            if "*" in p:  # a riichi declared with this discard
                rp.play(ev.Reach(seat))
            rp.play(ev.Dahai(seat, t, "_" in p))
        elif name == "penuki":
            seat = self.seat(body.get("l"))
            if tile(body.get("p", "z4")).kind != NORTH:
                rp.problem(sentence("penuki {p!r} by seat {seat} is not a North (z4)", code="call", p=body.get("p"),
                                    seat=seat))
            rp.play(ev.Kita(seat))
        elif name == "fulou":
            self.fulou(self.seat(body.get("l")), body.get("m"))
        elif name == "gang":
            self.gang(self.seat(body.get("l")), body.get("m"))
        elif name == "kaigang":
            t = tile(body.get("baopai"))
            self.dora.append(t)
            rp.play(ev.Dora(t))
        elif name == "hule":
            self.hule(body)
        elif name == "pingju":
            rp.finish()
            deltas = self.by_seat(body.get("fenpei", [0, 0, 0]), "fenpei")
            kind = draw_key(str(body.get("name"))) or str(body.get("name"))
            tenpai = tuple(self.seat(i) for i, h in enumerate(body.get("shoupai") or []) if h)
            self.results.append(DrawResult(kind, deltas, tenpai))
        else:
            self.r.problems.add(sentence("unknown event {name!r}", code="unknown_event", name=name), self.label)

    def fulou(self, seat: int, m: Any) -> None:
        if not isinstance(m, str) or not (mm := _MELD.match(m)) or not mm.group(3):
            raise RecordError(sentence("fulou {m!r} is not like 'z333=' or 's9999-'", m=m))
        suit, digits = mm.group(1), mm.group(2)
        tiles = [Tile.parse(d + suit) for d in digits]
        called = tiles[-1]  # the digit before the direction mark is the called tile
        offer = self.replay.offer
        from_seat = offer[1] if offer else (seat + 2) % 3
        if len(tiles) == 3:
            self.replay.play(ev.Pon(seat, from_seat, called, tuple(tiles[:-1])))
        elif len(tiles) == 4:
            self.replay.play(ev.Daiminkan(seat, from_seat, called, tuple(tiles[:-1])))
        else:
            raise RecordError(sentence("fulou {m!r} has {n} tiles (chi is not allowed in sanma)",
                                       m=m, n=len(tiles)))

    def gang(self, seat: int, m: Any) -> None:
        if not isinstance(m, str) or not (mm := _MELD.match(m)):
            raise RecordError(sentence("gang {m!r} is not like 's4444' or 'z111=1'", m=m))
        suit = mm.group(1)
        if mm.group(4):  # kakan: pon digits, mark, added digit
            pon = tuple(Tile.parse(d + suit) for d in mm.group(2))
            self.replay.play(ev.Kakan(seat, Tile.parse(mm.group(4) + suit), pon))
        elif len(mm.group(2)) == 4 and not mm.group(3):
            self.replay.play(ev.Ankan(seat, tuple(Tile.parse(d + suit) for d in mm.group(2))))
        else:
            raise RecordError(sentence("gang {m!r} is neither an ankan nor a kakan", m=m))

    def hule(self, b: dict[str, Any]) -> None:
        p = self.r.problems
        seat = self.seat(b.get("l"))
        baojia = b.get("baojia")
        from_seat = seat if baojia is None else self.seat(baojia)
        ctx = self.replay.win(seat, from_seat)
        if ctx is None:
            raise RecordError(sentence("cannot reconstruct the winning hand of seat {seat}", seat=seat))
        tiles, melds, kita = hand(b.get("shoupai", ""))
        if to_mpsz(tiles) != to_mpsz(ctx.hand):
            p.add(sentence("hule shoupai {shoupai!r} differs from the replayed hand {hand}", code="win_hand",
                           shoupai=b.get("shoupai"), hand=to_mpsz(ctx.hand)), self.label)
        if kita != ctx.kita or len(melds) != len(ctx.melds):
            p.add(sentence("hule shoupai {shoupai!r} has {kita} kita and {n} melds; the replay {replay_kita} and "
                           "{replay_melds}", code="win_melds", shoupai=b.get("shoupai"), kita=kita, n=len(melds),
                           replay_kita=ctx.kita, replay_melds=ctx.melds), self.label)
        yakuman = as_int(b.get("damanguan") or 0, "damanguan")
        yaku: list[tuple[str, int]] = []
        for h in b.get("hupai") or []:
            name = yaku_key(str(h.get("name", ""))) if isinstance(h, dict) else None
            if name is None:
                p.add(sentence("unknown yaku {name!r}", code="unknown_yaku", name=h), self.label)
                continue
            fan = h.get("fanshu")
            yaku.append((name, len(fan) if isinstance(fan, str) and set(fan) == {"*"} else as_int(fan, "fanshu")))
        if yakuman and not any(True for _ in yaku):
            p.add(sentence("yakuman without yaku", code="yaku_list"), self.label)
        han = 0 if yakuman else as_int(b.get("fanshu"), "fanshu")
        fu = as_int(b["fu"], "fu") if b.get("fu") is not None else None
        if not yakuman and han != sum(h for _, h in yaku):
            p.add(sentence("fanshu {han} differs from the yaku sum {total}", code="win_han", han=han,
                           total=sum(h for _, h in yaku)), self.label)
        ura = tuple(tile(x) for x in b.get("fubaopai") or [])
        self.ura = ura or self.ura
        first = not any(r for r in self.results if not isinstance(r, DrawResult))
        self.results.append(build_win(
            ctx, seat=seat, from_seat=from_seat, dealer=self.dealer, round_wind=self.round_wind,
            honba=self.honba, kyotaku=None if first else 0, dora=tuple(self.dora), ura=ura,
            yaku=tuple(yaku), yakuman=yakuman, han=han, fu=fu, limit=limit_from_han_fu(han, fu, yakuman),
            points=as_int(b.get("defen"), "defen"), deltas=self.by_seat(b.get("fenpei"), "fenpei"),
            pao_seat=None, source=self.r.source, label=self.label, index=self.index, problems=p))

    def record(self) -> KyokuRecord:
        return KyokuRecord(
            round_wind=self.round_wind, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku,
            start_scores=self.start, dora_indicators=tuple(self.dora), ura_indicators=self.ura,
            initial_hands=tuple(tuple(h) for h in self.haipai), events=tuple(self.replay.events),
            results=tuple(self.results))


class _Reader:
    def __init__(self, data: Any, source: str, strict: bool) -> None:
        self.data = data
        self.source = source
        self.problems = Problems(source, strict)
        self.qijia = 0

    def read(self) -> GameRecord:
        d, p = self.data, self.problems
        if not isinstance(d, dict) or not isinstance(d.get("log"), list):
            raise RecordError(sentence("{source}: not a majiang record (no 'log' list)", source=self.source))
        self.qijia = as_int(d.get("qijia", 0), "qijia") % 3
        players = d.get("player")
        if isinstance(players, list) and len(players) != 3:
            raise RecordError(sentence("{source}: {n} players in a 3-player record",
                                       source=self.source, n=len(players)))
        kyoku: list[KyokuRecord] = []
        for i, events in enumerate(d["log"]):
            label = f"#{i}"
            try:
                if not isinstance(events, list) or not events or not isinstance(events[0], dict) \
                        or "qipai" not in events[0]:
                    raise RecordError(sentence("kyoku does not start with qipai"))
                k = _Kyoku(self, events[0]["qipai"], i)
                label = k.label
                for j, entry in enumerate(events[1:], 1):
                    k.replay.where = sentence("event {j}", j=j)
                    if not isinstance(entry, dict) or len(entry) != 1:
                        raise RecordError(sentence("event {j} is not a one-key object", j=j))
                    k.event(entry)
                if not k.results:
                    p.add(sentence("kyoku has no result (hule/pingju)", code="no_result"), label)
                kyoku.append(k.record())
            except (SanmaError, ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError) as e:
                p.add(error_text(e), label)
        final = d.get("defen")
        final_scores = final_points = None
        try:
            if isinstance(final, list) and len(final) == 3:
                final_scores = tuple(as_int(x, "defen") for x in final)
            if isinstance(d.get("point"), list):
                final_points = tuple(float(x) for x in d["point"])
        except (SanmaError, ValueError, TypeError) as e:
            p.add(error_text(e), None, sentence("the final scores ({key})", key="defen/point"))
        if not kyoku:
            p.add(sentence("no kyoku in the log", code="no_kyoku"))
        return GameRecord(
            source=self.source, format="majiang", rule_name=str(d.get("title", "")),
            players=tuple(str(x) for x in players) if isinstance(players, list) else (),
            start_scores=kyoku[0].start_scores if kyoku else (), kyoku=tuple(kyoku),
            final_scores=final_scores, final_points=final_points, complete=final_scores is not None,
            errors=tuple(p.items), kita_in_dora=not majsoul_room(str(d.get("title", ""))))


def read_majiang(path_or_text: str | Path | bytes, *, strict: bool = False,
                 source: str | None = None) -> GameRecord:
    """Read a majiang (kobalab) JSON record; lenient unless ``strict=True``."""
    return read_guarded("majiang", path_or_text, strict, source,
                        lambda text, src: _Reader(parse_json(text, src), src, strict).read())
