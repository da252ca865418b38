"""Tenhou records: mjlog XML and tenhou.net/6 JSON (also used for converted Mahjong Soul games).

Tenhou's 136-tile ids (``4 * kind + copy``; copy 0 of a five is red) and two-digit JSON codes
(``11``-``47``, ``51``-``53`` red fives, ``60`` tsumogiri) exist only in this module: readers
turn them into :class:`sanma.tiles.Tile` at once.

>>> rec = read_mjlog('''<mjloggm ver="2.3"><GO type="185"/><UN n0="a" n1="b" n2="c" n3=""/>
... <INIT seed="0,0,0,1,3,118" ten="350,350,350,0" oya="0" hai0="0,1,2,36,37,38,40,41,42,44,45,46,48"
... hai1="3,35,72,73,74,76,77,78,80,81,82,84,85" hai2="32,33,34,53,54,55,56,57,58,60,61,62,64" hai3=""/>
... <T49/><AGARI ba="0,0" hai="0,1,2,36,37,38,40,41,42,44,45,46,48,49" machi="49"
... ten="40,48000,5" yakuman="37" doraHai="118" who="0" fromWho="0"
... sc="350,480,350,-240,350,-240,0,0" owari="830,108,110,-45,110,-45,0,0"/></mjloggm>''')
>>> rec.errors
()
>>> w = rec.wins()[0]
>>> w.hand, w.tsumo, w.tenhou, w.yaku, w.yakuman, w.deltas
('111m11122233344p', True, True, (('tenhou', 1),), 1, (48000, -24000, -24000))
"""

from __future__ import annotations

import re
import urllib.parse
from collections import Counter
from pathlib import Path
from typing import Any, cast
from xml.etree import ElementTree as ET

from .. import events as ev
from ..errors import RecordError, SanmaError
from ..i18n.messages import sentence
from ..i18n.terms import draw_key, limit_prefix, yaku_key
from ..tiles import NORTH, NUM_KINDS, Tile
from .record import (
    LIMITS,
    DrawResult,
    GameRecord,
    KyokuRecord,
    KyokuReplay,
    Problems,
    RecordedWin,
    Result,
    as_int,
    build_win,
    kyoku_label,
    live_draws_for,
    majsoul_room,
    named_rules,
    parse_json,
    read_guarded,
)

# Tenhou's yaku ids (the order of the yaku table in Tenhou's own log viewer; 52-54 verified
# against the records in shared/data: 53 is ura dora, 54 red dora).
TENHOU_YAKU = (
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九", "一盃口",
    "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西", "場風 北",
    "役牌 白", "役牌 發", "役牌 中",
    "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻", "三槓子", "対々和", "三暗刻",
    "小三元", "混老頭", "二盃口", "純全帯幺九", "混一色", "清一色", "人和",
    "天和", "地和", "大三元", "四暗刻", "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈",
    "純正九蓮宝燈", "国士無双", "国士無双１３面", "大四喜", "小四喜", "四槓子",
    "ドラ", "裏ドラ", "赤ドラ",
)

GO_SANMA = 0x10
_DECL = re.compile(r"<!(?!--)")
_DRAW_TAG = re.compile(r"^([TUVW])(\d{1,3})$")
_DISCARD_TAG = re.compile(r"^([DEFG])(\d{1,3})$")


# --------------------------------------------------------------------------------------------
# tiles
# --------------------------------------------------------------------------------------------


def tile_from_id(tid: int, red: bool = True) -> Tile:
    """A Tenhou 136-id as a Tile: ``tile_from_id(52) == Tile.parse('0p')`` (copy 0 of a 5 is red)."""
    if not 0 <= tid < 136:
        raise RecordError(sentence("tile id {tid} is out of range 0..135", tid=tid))
    kind = tid // 4
    return Tile(kind, red and tid % 4 == 0 and kind < 27 and kind % 9 == 4)


def tile_from_code(code: Any) -> Tile:
    """A tenhou.net/6 JSON tile code as a Tile: ``11``..``47``, ``51``..``53`` red fives."""
    if isinstance(code, bool) or not isinstance(code, int):
        raise RecordError(sentence("tile code {tile!r} is not a number", tile=code))
    d, n = divmod(code, 10)
    if 1 <= d <= 3 and 1 <= n <= 9:
        return Tile((d - 1) * 9 + n - 1)
    if d == 4 and 1 <= n <= 7:
        return Tile(26 + n)
    if d == 5 and 1 <= n <= 3:
        return Tile((n - 1) * 9 + 4, True)
    if d == 6 and 1 <= n <= 4:  # sanma extension: flowers 1f-4f (kansai rules)
        return Tile(NUM_KINDS + n - 1)
    raise RecordError(sentence("tile code {tile} is not a tile (11-19, 21-29, 31-39, 41-47, 51-53, 61-64)",
                               tile=code))


def _yaku_pairs(ids_hans: list[int], problems: Problems, label: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for i in range(0, len(ids_hans) - 1, 2):
        yid, han = ids_hans[i], ids_hans[i + 1]
        if not 0 <= yid < len(TENHOU_YAKU):
            problems.add(f"unknown Tenhou yaku id {yid}", label)
            continue
        name = yaku_key(TENHOU_YAKU[yid])
        assert name is not None
        out.append((name, han))
    if len(ids_hans) % 2:
        problems.add(f"yaku list has an odd number of values: {ids_hans}", label)
    return tuple(out)


def _ints(text: str | None, what: str) -> list[int]:
    if text is None or text.strip() == "":
        return []
    try:
        return [int(float(x)) for x in text.split(",")]
    except ValueError:
        raise RecordError(sentence("{what}={text!r} is not a list of numbers", what=what, text=text)) from None


# --------------------------------------------------------------------------------------------
# mjlog XML
# --------------------------------------------------------------------------------------------


def _decode_meld(m: int) -> tuple[str, int, list[int], int]:
    """``(kind, relative from-seat, tile ids, called/added id)`` of an ``<N m=..>`` value."""
    rel = m & 3
    if m & 0x4:
        return "chi", rel, [], -1
    if m & 0x18:
        t = m >> 9
        called, kind = t % 3, t // 3
        unused = (m >> 5) & 3
        ids = [kind * 4 + c for c in range(4) if c != unused]
        if m & 0x8:
            return "pon", rel, ids, ids[called]
        return "kakan", rel, [*ids, kind * 4 + unused], kind * 4 + unused
    if m & 0x20:
        tid = m >> 8
        return "kita", 0, [tid], tid
    t = m >> 8
    called, kind = t % 4, t // 4
    ids = [kind * 4 + c for c in range(4)]
    return ("ankan" if rel == 0 else "daiminkan"), rel, ids, ids[called]


def _go_rule(gtype: int) -> tuple[str, tuple[tuple[str, Any], ...]]:
    room = {0xA0: "鳳", 0x20: "特", 0x80: "上"}.get(gtype & 0xA0, "般")
    name = ("三" if gtype & GO_SANMA else "") + room + ("南" if gtype & 0x08 else "東") + \
        ("" if gtype & 0x04 else "喰") + ("" if gtype & 0x02 else "赤") + ("速" if gtype & 0x40 else "")
    flags = (("type", gtype), ("sanma", bool(gtype & GO_SANMA)), ("red", not gtype & 0x02),
             ("kuitan", not gtype & 0x04), ("hanchan", bool(gtype & 0x08)), ("fast", bool(gtype & 0x40)))
    return name, flags


class _MjlogKyoku:
    """State of one kyoku while reading mjlog tags."""

    def __init__(self, reader: _MjlogReader, el: ET.Element) -> None:
        self.r = reader
        p = reader.problems
        seed = _ints(el.get("seed"), "INIT seed")
        if len(seed) != 6:
            raise RecordError(sentence("INIT seed={value!r} needs 6 numbers", value=el.get('seed')))
        kyoku, self.honba, self.kyotaku, _, _, dora = seed
        if not 0 <= kyoku < 16 or kyoku % 4 == 3:
            raise RecordError(sentence("INIT kyoku index {kyoku} is not a sanma kyoku (E1-E3 = 0-2, S1-S3 = "
                                       "4-6 ...)", kyoku=kyoku))
        self.round_wind = "ESWN"[kyoku // 4]
        self.dealer = as_int(el.get("oya", kyoku % 4), "INIT oya")
        if self.dealer != kyoku % 4:
            p.add(f"INIT oya={self.dealer} but the kyoku index {kyoku} names dealer {kyoku % 4}")
        self.label = kyoku_label(self.round_wind, self.dealer, self.honba)
        ten = _ints(el.get("ten"), "INIT ten")
        if len(ten) != 4 or ten[3] != 0:
            p.add(f"INIT ten={el.get('ten')!r}: expected 3 scores and a 0 for the empty seat", self.label)
        self.start = tuple(100 * t for t in ten[:3])
        if el.get("hai3"):
            raise RecordError(sentence("INIT hai3={value!r}: a 4-player deal in a 3-player record",
                                       value=el.get('hai3')))
        self.ids: list[list[int]] = []
        for s in range(3):
            ids = _ints(el.get(f"hai{s}"), f"INIT hai{s}")
            if len(ids) != 13:
                raise RecordError(sentence("INIT hai{s} has {n} tiles, not 13", s=s, n=len(ids)))
            self.ids.append(ids)
        self.red = reader.red
        seen = Counter(i for h in self.ids for i in h)
        if dup := [i for i, c in seen.items() if c > 1]:
            raise RecordError(sentence("INIT deals tile ids {dup} twice", dup=dup))
        self.seen = seen
        self._initial = [list(h) for h in self.ids]
        hands = [[self.tile(i) for i in h] for h in self.ids]
        self.dora = [self.tile(dora)]
        self.ura: tuple[Tile, ...] = ()
        self.replay = KyokuReplay(p, self.label, self.dealer, hands, kyotaku=self.kyotaku)
        self.results: list[Result] = []
        self.last_draw_id: list[int | None] = [None, None, None]

    def tile(self, tid: int) -> Tile:
        return tile_from_id(tid, self.red)

    def _new_id(self, tid: int, what: str) -> None:
        self.seen[tid] += 1
        if self.seen[tid] > 1:
            self.r.problems.add(f"{what}: tile id {tid} appears twice", self.label, self.replay.where)

    def _remove_id(self, seat: int, tid: int, what: str) -> None:
        if tid in self.ids[seat]:
            self.ids[seat].remove(tid)
        else:
            self.r.problems.add(f"{what}: seat {seat} does not hold tile id {tid}", self.label, self.replay.where)

    def draw(self, seat: int, tid: int) -> None:
        self._new_id(tid, "draw")
        self.ids[seat].append(tid)
        self.last_draw_id[seat] = tid
        self.replay.play(ev.Tsumo(seat, self.tile(tid)))

    def discard(self, seat: int, tid: int) -> None:
        self._remove_id(seat, tid, "discard")
        self.replay.play(ev.Dahai(seat, self.tile(tid), self.last_draw_id[seat] == tid))
        self.last_draw_id[seat] = None

    def meld(self, seat: int, m: int) -> None:
        kind, rel, ids, called = _decode_meld(m)
        rp = self.replay
        if kind == "chi":
            raise RecordError(sentence("N m={m}: chi is not allowed in sanma", m=m))
        if kind == "kita":
            self._remove_id(seat, called, "kita")
            rp.play(ev.Kita(seat))
            return
        if kind == "ankan":
            for i in ids:
                self._remove_id(seat, i, "ankan")
            rp.play(ev.Ankan(seat, tuple(self.tile(i) for i in ids)))
            return
        if kind == "kakan":
            self._remove_id(seat, called, "kakan")
            rp.play(ev.Kakan(seat, self.tile(called), tuple(self.tile(i) for i in ids if i != called)))
            return
        from_seat = (seat + rel) % 4
        if from_seat == 3:
            raise RecordError(sentence("N who={seat} m={m}: called from the empty fourth seat",
                                       seat=seat, m=m))
        for i in ids:
            if i != called:
                self._remove_id(seat, i, kind)
        hand_tiles = tuple(self.tile(i) for i in ids if i != called)
        call = ev.Pon if kind == "pon" else ev.Daiminkan
        rp.play(call(seat, from_seat, self.tile(called), hand_tiles))

    def agari(self, el: ET.Element, index: int) -> None:
        p = self.r.problems
        who = as_int(el.get("who"), "AGARI who")
        from_who = as_int(el.get("fromWho"), "AGARI fromWho")
        machi = as_int(el.get("machi"), "AGARI machi")
        ctx = self.replay.win(who, from_who, self.tile(machi))
        if ctx is None:
            raise RecordError(sentence("AGARI who={who} fromWho={from_who}: cannot reconstruct the winning "
                                       "hand", who=who, from_who=from_who))
        # cross-check the replayed hand with the hand Tenhou lists, id for id
        hai = sorted(_ints(el.get("hai"), "AGARI hai"))
        mine = sorted(self.ids[who] + ([machi] if who != from_who else []))
        if hai != mine:
            p.add(f"AGARI hai={hai} differs from the replayed hand {mine} of seat {who}", self.label)
        melds = [_decode_meld(m) for m in _ints(el.get("m"), "AGARI m")]
        if sum(1 for k in melds if k[0] == "kita") != ctx.kita:
            p.add(f"AGARI m lists {sum(1 for k in melds if k[0] == 'kita')} kita, replay counted {ctx.kita}",
                  self.label)
        if len(melds) - ctx.kita != len(ctx.melds):
            p.add(f"AGARI m lists {len(melds) - ctx.kita} melds, replay has {ctx.melds}", self.label)
        dora = tuple(self.tile(i) for i in _ints(el.get("doraHai"), "AGARI doraHai"))
        if dora != tuple(self.dora):
            p.add(f"AGARI doraHai {[str(t) for t in dora]} differs from the revealed indicators "
                  f"{[str(t) for t in self.dora]}", self.label)
        ura = tuple(self.tile(i) for i in _ints(el.get("doraHaiUra"), "AGARI doraHaiUra"))
        self.ura = ura or self.ura
        ba = _ints(el.get("ba"), "AGARI ba")
        honba, kyotaku = [*ba, self.honba, self.kyotaku][:2]
        if not any(isinstance(r, RecordedWin) for r in self.results) and kyotaku != ctx.kyotaku:
            p.add(f"AGARI ba={el.get('ba')!r}: replay counts {ctx.kyotaku} riichi sticks", self.label)
        ten = _ints(el.get("ten"), "AGARI ten")
        if len(ten) != 3:
            raise RecordError(sentence("AGARI ten={value!r} needs fu,points,limit", value=el.get('ten')))
        fu, points, limit = ten
        if el.get("yakuman") is not None:
            ids = _ints(el.get("yakuman"), "AGARI yakuman")
            names = []
            for yid in ids:
                if not 37 <= yid <= 51:
                    p.add(f"yakuman id {yid} is not a yakuman", self.label)
                    continue
                name = yaku_key(TENHOU_YAKU[yid])
                assert name is not None
                names.append((name, 1))  # Tenhou counts every yakuman once (no double yakuman)
            yaku: tuple[tuple[str, int], ...] = tuple(names)
            yakuman, han = len(names), 0
        else:
            yaku = _yaku_pairs(_ints(el.get("yaku"), "AGARI yaku"), p, self.label)
            yakuman, han = 0, sum(h for _, h in yaku)
        sc = _ints(el.get("sc"), "AGARI sc")
        if len(sc) != 8 or sc[6:] != [0, 0]:
            p.add(f"AGARI sc={el.get('sc')!r}: expected 3 score/delta pairs and 0,0", self.label)
        deltas = tuple(100 * sc[2 * s + 1] for s in range(3)) if len(sc) >= 6 else ()
        pao = el.get("paoWho")
        self.results.append(build_win(
            ctx, seat=who, from_seat=from_who, dealer=self.dealer, round_wind=self.round_wind,
            honba=honba, kyotaku=kyotaku, dora=dora, ura=ura, yaku=yaku, yakuman=yakuman, han=han,
            fu=fu, limit=LIMITS[limit - 1] if 1 <= limit <= 5 else None, points=points, deltas=deltas,
            pao_seat=as_int(pao, "AGARI paoWho") if pao is not None else None, source=self.r.source,
            label=self.label, index=index, problems=p))

    def ryuukyoku(self, el: ET.Element) -> None:
        self.replay.finish()
        name = el.get("type")
        kind = "exhaustive" if name is None else draw_key(name)
        if kind is None:
            self.r.problems.add(f"RYUUKYOKU type={name!r} is unknown", self.label)
        sc = _ints(el.get("sc"), "RYUUKYOKU sc")
        deltas = tuple(100 * sc[2 * s + 1] for s in range(3)) if len(sc) >= 6 else (0, 0, 0)
        tenpai = tuple(s for s in range(3) if el.get(f"hai{s}"))
        self.results.append(DrawResult(kind or str(name), deltas, tenpai))

    def record(self) -> KyokuRecord:
        return KyokuRecord(
            round_wind=self.round_wind, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku,
            start_scores=self.start, dora_indicators=tuple(self.dora), ura_indicators=self.ura,
            initial_hands=tuple(tuple(self.tile(i) for i in h) for h in self._initial),
            events=tuple(self.replay.events), results=tuple(self.results))


class _MjlogReader:
    def __init__(self, text: str, source: str, strict: bool) -> None:
        self.source = source
        self.problems = Problems(source, strict)
        self.text = text
        self.red = True

    def read(self) -> GameRecord:
        p = self.problems
        if _DECL.search(self.text):
            raise RecordError(sentence("{source}: XML declarations (DOCTYPE/ENTITY) are not allowed in mjlog",
                                       source=self.source))
        try:
            root = ET.fromstring(self.text)
        except ET.ParseError as e:
            raise RecordError(sentence("{source}: malformed XML: {error}", source=self.source, error=e)) from None
        if root.tag != "mjloggm":
            raise RecordError(sentence("{source}: root element <{tag}> is not <mjloggm>",
                                       source=self.source, tag=root.tag))
        rule_name, flags = "", cast(tuple[tuple[str, Any], ...], ())
        players: tuple[str, ...] = ()
        kyoku: list[KyokuRecord] = []
        cur: _MjlogKyoku | None = None
        final_scores = final_points = None
        shuffle_seed = ""
        kyoku_seeds: list[str] = []
        for pos, el in enumerate(root):
            tag = el.tag
            where = f"tag {pos} <{tag}>"
            try:
                if cur is not None:
                    cur.replay.where = where
                if tag == "GO":
                    gtype = as_int(el.get("type", "0"), "GO type")
                    rule_name, flags = _go_rule(gtype)
                    self.red = not gtype & 0x02
                    if not gtype & GO_SANMA:
                        raise RecordError(sentence("GO type={gtype} ({rule_name}) is a 4-player game (bit "
                                                   "0x10 unset)", gtype=gtype, rule_name=rule_name))
                elif tag == "UN" and el.get("n0") is not None:
                    if el.get("n3"):
                        raise RecordError(sentence("UN n3={value!r}: a fourth player in a 3-player record",
                                                   value=el.get('n3')))
                    players = tuple(urllib.parse.unquote(el.get(f"n{s}", "")) for s in range(3))
                elif tag == "INIT":
                    if cur is not None:
                        p.add("INIT before the previous kyoku ended", cur.label, where)
                        kyoku.append(cur.record())
                    cur = _MjlogKyoku(self, el)
                    kyoku_seeds.append(el.get("shuffle", ""))  # the 2009 seed form
                elif tag == "SHUFFLE":
                    shuffle_seed = el.get("seed", "")
                elif cur is None:
                    if tag not in ("SHUFFLE", "TAIKYOKU", "UN", "BYE", "GO"):
                        p.add(f"<{tag}> outside a kyoku", None, where)
                elif m := _DRAW_TAG.match(tag):
                    cur.draw(_seat(m.group(1), "TUVW"), int(m.group(2)))
                elif m := _DISCARD_TAG.match(tag):
                    cur.discard(_seat(m.group(1), "DEFG"), int(m.group(2)))
                elif tag == "N":
                    cur.meld(as_int(el.get("who"), "N who"), as_int(el.get("m"), "N m"))
                elif tag == "REACH":
                    who, step = as_int(el.get("who"), "REACH who"), as_int(el.get("step"), "REACH step")
                    # step 1 declares with the next discard; step 2: the stick is on the table
                    cur.replay.play(ev.Reach(who) if step == 1 else ev.ReachAccepted(who))
                elif tag == "DORA":
                    t = cur.tile(as_int(el.get("hai"), "DORA hai"))
                    cur.dora.append(t)
                    cur.replay.play(ev.Dora(t))
                elif tag == "AGARI":
                    cur.agari(el, len(kyoku))
                elif tag == "RYUUKYOKU":
                    cur.ryuukyoku(el)
                elif tag in ("BYE", "UN", "SHUFFLE", "TAIKYOKU"):
                    pass
                else:
                    p.add(f"unknown tag <{tag}>", cur.label, where)
                if tag in ("AGARI", "RYUUKYOKU") and el.get("owari") is not None:
                    owari = [float(x) for x in (el.get("owari") or "").split(",")]
                    final_scores = tuple(int(100 * x) for x in owari[0:6:2])
                    final_points = tuple(owari[1:6:2])
                if tag in ("AGARI", "RYUUKYOKU") and cur is not None:
                    nxt = root[pos + 1].tag if pos + 1 < len(root) else None
                    if nxt != "AGARI":  # a double ron is two AGARI tags in a row
                        kyoku.append(cur.record())
                        cur = None
            except (SanmaError, ValueError, KeyError, IndexError, TypeError, OverflowError) as e:
                p.add(_msg(e), cur.label if cur else None, where)
                if isinstance(e, RecordError) and tag in ("INIT", "GO", "UN"):
                    cur = None
        if cur is not None:
            p.add("the record ends in the middle of a kyoku", cur.label)
            kyoku.append(cur.record())
        if not kyoku:
            p.add("no kyoku (INIT) in the record")
        return GameRecord(
            source=self.source, format="mjlog", rule_name=rule_name, rule_flags=flags, players=players,
            start_scores=kyoku[0].start_scores if kyoku else (), kyoku=tuple(kyoku),
            final_scores=final_scores, final_points=final_points, complete=final_scores is not None,
            errors=tuple(p.items), shuffle_seed=shuffle_seed,
            kyoku_seeds=tuple(kyoku_seeds) if any(kyoku_seeds) else (), kita_in_dora=True)


def _seat(letter: str, letters: str) -> int:
    seat = letters.index(letter)
    if seat == 3:
        raise RecordError(sentence("tag for the fourth seat ({letter}) in a 3-player record", letter=letter))
    return seat


def _msg(e: Exception) -> str:
    if isinstance(e, SanmaError):
        return str(e)
    return f"{type(e).__name__}: {e}"


def read_mjlog(path_or_text: str | Path | bytes, *, strict: bool = False, source: str | None = None) -> GameRecord:
    """Read a Tenhou mjlog XML record (a path, or the XML text).

    Lenient by default: problems go into ``record.errors``; ``strict=True`` raises
    :class:`sanma.errors.RecordError` at the first. DTDs and entity declarations are refused
    before parsing.
    """
    return read_guarded("mjlog", path_or_text, strict, source,
                        lambda text, src: _MjlogReader(text, src, strict).read())


# --------------------------------------------------------------------------------------------
# tenhou.net/6 JSON
# --------------------------------------------------------------------------------------------

_POINTS = re.compile(r"^(?:(\d+)符)?(?:(\d+)飜)?(\d+)(?:-(\d+))?点(∀)?$")
_YAKU_TEXT = re.compile(r"^(.+)\((\d+)飜\)$")
_YAKUMAN_TEXT = re.compile(r"^(.+)\((?:役満|(\d+)倍役満|役満(\d+)|ダブル役満)\)$")
# Position of the call letter in a call string -> seat offset (4-seat numbering, as Tenhou writes
# 3-player records with an empty fourth seat): 0 = the player before (kamicha), 2 = across,
# 4 / 6 = the player after (shimocha).
_CALL_FROM = {0: 3, 2: 2, 4: 1, 6: 1}


def _parse_call(text: str, letter: str) -> tuple[int, list[Tile], Tile]:
    """``(letter position, all tiles, the tile after the letter)`` of a call string."""
    pos = text.find(letter)
    codes = re.sub(r"[a-z]", "", text)
    if pos < 0 or pos % 2 or len(codes) % 2 or not codes.isdigit():
        raise RecordError(sentence("call {text!r} is malformed", text=text))
    tiles = [tile_from_code(int(codes[i:i + 2])) for i in range(0, len(codes), 2)]
    return pos, tiles, tile_from_code(int(text[pos + 1:pos + 3]))


def _json_yaku(items: list[Any], p: Problems, label: str) -> tuple[tuple[tuple[str, int], ...], int]:
    out: list[tuple[str, int]] = []
    yakuman = 0
    for item in items:
        if not isinstance(item, str):
            p.add(f"yaku entry {item!r} is not text", label)
            continue
        if m := _YAKU_TEXT.match(item):
            jp, n = m.group(1), int(m.group(2))
        elif m := _YAKUMAN_TEXT.match(item):
            jp = m.group(1)
            n = int(m.group(2) or m.group(3) or (2 if "ダブル" in item else 1))
            yakuman += n
        else:
            p.add(f"yaku {item!r} is not 'name(n飜)' or 'name(役満)'", label)
            continue
        name = yaku_key(jp)
        if name is None:
            p.add(f"unknown yaku {jp!r}", label)
            continue
        out.append((name, n))
    return tuple(out), yakuman


class _Tenhou6Kyoku:
    def __init__(self, game: _Tenhou6Reader, data: Any, index: int) -> None:
        self.g = game
        self.index = index
        p = game.problems
        if not isinstance(data, list) or len(data) < 17:
            raise RecordError(sentence("kyoku {index} is not a list of 17 entries", index=index))
        head = data[0]
        if not isinstance(head, list) or len(head) != 3:
            raise RecordError(sentence("kyoku {index} header {head!r} is not [kyoku, honba, kyotaku]",
                                       index=index, head=head))
        k, self.honba, self.kyotaku = (as_int(x, "kyoku header") for x in head)
        if not 0 <= k < 16 or k % 4 == 3:
            raise RecordError(sentence("kyoku index {k} is not a sanma kyoku (E1-E3 = 0-2, S1-S3 = 4-6 ...)",
                                       k=k))
        self.round_wind, self.dealer = "ESWN"[k // 4], k % 4
        self.label = kyoku_label(self.round_wind, self.dealer, self.honba)
        scores = data[1]
        if not isinstance(scores, list) or len(scores) not in (3, 4) or (len(scores) == 4 and scores[3] != 0):
            raise RecordError(sentence("scores {scores!r}: expected 3 scores and a 0 for the empty seat",
                                       scores=scores))
        self.start = tuple(as_int(x, "score") for x in scores[:3])
        self.dora = tuple(tile_from_code(c) for c in _list(data[2], "dora"))
        self.ura = tuple(tile_from_code(c) for c in _list(data[3], "ura dora"))
        if not self.dora:
            raise RecordError(sentence("no dora indicator"))
        if any(_list(x, "4th seat") for x in data[13:16]):
            raise RecordError(sentence("the fourth seat has tiles: a 4-player record read as 3-player"))
        self.haipai = [[tile_from_code(c) for c in _list(data[4 + 3 * s], f"haipai {s}")] for s in range(3)]
        for s, h in enumerate(self.haipai):
            if len(h) != 13:
                raise RecordError(sentence("seat {s} is dealt {n} tiles, not 13", s=s, n=len(h)))
        self.takes = [_list(data[5 + 3 * s], f"draws {s}") for s in range(3)]
        self.discards = [_list(data[6 + 3 * s], f"discards {s}") for s in range(3)]
        self.result = _list(data[16], "result")
        self.replay = KyokuReplay(p, self.label, self.dealer, [list(h) for h in self.haipai],
                                  kyotaku=self.kyotaku, live_draws=live_draws_for(named_rules(game.rule_name)))
        initial = game.initial_dora[index] if index < len(game.initial_dora) else 1
        self.initial_indicators = as_int(initial, "sanma.initial_dora")
        self.ti = [0, 0, 0]
        self.di = [0, 0, 0]

    def _where(self, seat: int) -> None:
        self.replay.where = f"seat {seat} draw {self.ti[seat]} discard {self.di[seat]}"

    def _draw(self, seat: int) -> bool:
        """Next draw of ``seat``; False when its draws are exhausted (the kyoku is over)."""
        if self.ti[seat] >= len(self.takes[seat]):
            return False
        item = self.takes[seat][self.ti[seat]]
        self._where(seat)
        self.ti[seat] += 1
        if isinstance(item, str):
            raise RecordError(sentence("call {item!r} where seat {seat} should draw", item=item, seat=seat))
        self.replay.play(ev.Tsumo(seat, tile_from_code(item)))
        return True

    def _act(self, seat: int) -> str:
        """Play ``seat``'s actions after a draw or call; returns 'discard', 'end' or 'tsumo'."""
        rp = self.replay
        while True:
            if self.di[seat] >= len(self.discards[seat]):
                return "tsumo"
            self._where(seat)
            item = self.discards[seat][self.di[seat]]
            self.di[seat] += 1
            if isinstance(item, int) and not isinstance(item, bool):
                drawn = rp.last_draw[seat]
                if item == 60:
                    if drawn is None:
                        raise RecordError(sentence("tsumogiri (60) by seat {seat} without a draw", seat=seat))
                    rp.play(ev.Dahai(seat, drawn, True))
                else:
                    rp.play(ev.Dahai(seat, tile_from_code(item), False))
                return "discard"
            if not isinstance(item, str):
                raise RecordError(sentence("discard entry {item!r} is neither a tile code nor an action",
                                           item=item))
            if item.startswith(("r", "o")):  # "o": open riichi, a sanma extension (club rules)
                code = as_int(item[1:], f"riichi discard {item!r}")
                drawn = rp.last_draw[seat]
                if code == 60 and drawn is None:
                    raise RecordError(sentence("tsumogiri riichi by seat {seat} without a draw", seat=seat))
                rp.play(ev.Reach(seat, item.startswith("o")))
                rp.play(ev.Dahai(seat, drawn, True) if code == 60 and drawn is not None
                        else ev.Dahai(seat, tile_from_code(code), False))
                return "discard"
            if "f" in item:
                _, _, t = _parse_call(item, "f")
                if t.is_flower:
                    rp.play(ev.Flower(seat, t))
                else:
                    if t.kind != NORTH:
                        rp.problem(f"kita {item!r} by seat {seat}: {t} is not a North")
                    rp.play(ev.Kita(seat))
            elif "a" in item:
                _, tiles, t = _parse_call(item, "a")
                if len(tiles) != 4:
                    raise RecordError(sentence("ankan {item!r} does not have 4 tiles", item=item))
                rest = list(tiles)
                if t in rest:
                    rest.remove(t)
                rp.play(ev.Ankan(seat, (t, *rest[:3])))  # the named tile first: the one offered (chankan)
            elif "k" in item:
                _, tiles, t = _parse_call(item, "k")
                pon = next((ts for k, ts in rp.melds[seat] if k == "pon" and ts[0].kind == t.kind), ())
                added = list(tiles)
                for x in pon:
                    if x in added:
                        added.remove(x)
                rp.play(ev.Kakan(seat, added[0] if len(added) == 1 else t, tuple(pon)))
            else:
                raise RecordError(sentence("unknown action {item!r} in seat {seat}'s discards",
                                           item=item, seat=seat))
            if not self._draw(seat):  # robbed (ron on the kita/kan tile), or the record ends
                return "end"

    def _call_after(self, discarder: int, tile: Tile) -> int | None:
        """Seat that pons or kans ``tile`` just discarded by ``discarder`` (None if nobody)."""
        for off in (1, 2):
            s = (discarder + off) % 3
            if self.ti[s] >= len(self.takes[s]):
                continue
            item = self.takes[s][self.ti[s]]
            if not isinstance(item, str):
                continue
            letter = "p" if "p" in item else "m" if "m" in item else None
            if letter is None:
                raise RecordError(sentence("unknown call {item!r} in seat {s}'s draws", item=item, s=s))
            pos, tiles, called = _parse_call(item, letter)
            if called.kind != tile.kind:
                continue
            src = (s + _CALL_FROM.get(pos, 0)) % 4
            if src != discarder:
                continue
            self._where(s)
            self.ti[s] += 1
            hand = list(tiles)
            hand.remove(called)
            call = ev.Pon if letter == "p" else ev.Daiminkan
            self.replay.play(call(s, discarder, tile, tuple(hand)))
            return s
        return None

    def play(self) -> tuple[str, int]:
        """Replay every draw and discard; returns how it ended: ('tsumo'|'end', last seat)."""
        for i in range(3):  # flowers dealt are set aside and replaced at once, dealer first (P03)
            s = (self.dealer + i) % 3
            while any(t.is_flower for t in self.replay.hands[s]):
                item = self.discards[s][self.di[s]] if self.di[s] < len(self.discards[s]) else None
                if not (isinstance(item, str) and item.startswith("f")):
                    raise RecordError(sentence("seat {s} was dealt a flower but does not set it aside first",
                                               s=s))
                self.di[s] += 1
                self.replay.play(ev.Flower(s, _parse_call(item, "f")[2]))
                if not self._draw(s):
                    raise RecordError(sentence("no replacement draw for seat {s}'s flower", s=s))
        seat = self.dealer
        if not self._draw(seat):
            raise RecordError(sentence("the dealer has no first draw"))
        for _ in range(400):
            state = self._act(seat)
            if state != "discard":
                return state, seat
            offer = self.replay.offer
            assert offer is not None
            caller = self._call_after(seat, offer[2])
            if caller is not None:
                seat = caller
                if self.replay.pending_replacement[seat]:  # daiminkan: a 0 placeholder, then rinshan
                    if self.di[seat] < len(self.discards[seat]) and self.discards[seat][self.di[seat]] == 0:
                        self.di[seat] += 1
                    if not self._draw(seat):
                        return "end", seat
                continue
            nxt = (seat + 1) % 3
            if not self._draw(nxt):
                return "end", seat
            seat = nxt
        raise RecordError(sentence("kyoku does not end after 400 turns"))

    def record(self, results: tuple[Result, ...]) -> KyokuRecord:
        return KyokuRecord(
            round_wind=self.round_wind, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku,
            start_scores=self.start, dora_indicators=self.dora, ura_indicators=self.ura,
            initial_hands=tuple(tuple(h) for h in self.haipai), events=tuple(self.replay.events),
            results=results, initial_indicators=self.initial_indicators)

    def results(self, state: str, last: int) -> tuple[Result, ...]:
        p = self.g.problems
        res = self.result
        if not res or not isinstance(res[0], str):
            raise RecordError(sentence("result {res!r} does not start with its name", res=res))
        for s in range(3):
            if self.ti[s] != len(self.takes[s]) or self.di[s] != len(self.discards[s]):
                p.add(f"seat {s} has unplayed actions: draws {self.ti[s]}/{len(self.takes[s])}, "
                      f"discards {self.di[s]}/{len(self.discards[s])}", self.label)
        if res[0] != "和了":
            kind = draw_key(res[0])
            if kind is None:
                p.add(f"unknown result {res[0]!r}", self.label)
            if res[0] != "チョンボ":  # a chombo voids the hand: a riichi pending then is never accepted
                self.replay.finish()
            deltas = tuple(as_int(x, "delta") for x in _list(res[1], "deltas")[:3]) if len(res) > 1 else (0, 0, 0)
            return (DrawResult(kind or res[0], deltas),)
        out: list[Result] = []
        if len(res) < 3 or len(res) % 2 != 1:
            raise RecordError(sentence("win result {res!r} is not ['和了', deltas, info, ...]", res=res))
        for i in range(1, len(res), 2):
            deltas = tuple(as_int(x, "delta") for x in _list(res[i], "deltas"))
            if len(deltas) == 4 and deltas[3] != 0:
                p.add(f"the empty fourth seat has a delta {deltas[3]}", self.label)
            info = _list(res[i + 1], "win info")
            if len(info) < 4:
                raise RecordError(sentence("win info {info!r} is too short", info=info))
            who, frm, pao = (as_int(x, "win info seat") for x in info[:3])
            if state == "tsumo" and (who != frm or who != last):
                p.add(f"the record ends with seat {last}'s draw, but the result is seat {who} from {frm}",
                      self.label)
            ctx = self.replay.win(who, frm)
            if ctx is None:
                raise RecordError(sentence("cannot reconstruct the winning hand of seat {who}", who=who))
            yaku, yakuman = _json_yaku(info[4:], p, self.label)
            points_text = info[3]
            if not isinstance(points_text, str):
                raise RecordError(sentence("points {points_text!r} is not text", points_text=points_text))
            limit, word = limit_prefix(points_text) or (None, "")
            if limit == "kazoe":  # Tenhou writes a counted yakuman as 役満: it is paid as one
                limit = "yakuman"
            m = _POINTS.match(points_text[len(word):])
            if m is None:
                raise RecordError(sentence("points {points_text!r} are not '30符2飜1000点' / '満貫2000-4000点'",
                                           points_text=points_text))
            fu = int(m.group(1)) if m.group(1) else None
            a, b = int(m.group(3)), int(m.group(4) or 0)
            # a tsumo is paid by the two others (tsumo-son: "a-b" = non-dealer-dealer, "a∀" each)
            points = (2 * a if m.group(5) else a + b) if who == frm else a
            han = 0 if yakuman else sum(h for _, h in yaku)
            if m.group(2) and int(m.group(2)) != han:
                p.add(f"points {points_text!r} say {m.group(2)} han, the yaku add up to {han}", self.label)
            first = not out
            out.append(build_win(
                ctx, seat=who, from_seat=frm, dealer=self.dealer, round_wind=self.round_wind,
                honba=self.honba if first else 0, kyotaku=None if first else 0, dora=self.dora,
                ura=self.ura, yaku=yaku, yakuman=yakuman, han=han, fu=fu, limit=limit, points=points,
                deltas=deltas[:3], pao_seat=None if pao == who else pao, source=self.g.source,
                label=self.label, index=self.index, problems=p))
        return tuple(out)


def _list(x: Any, what: str) -> list[Any]:
    if not isinstance(x, list):
        raise RecordError(sentence("{what}: expected a list, got {name}", what=what, name=type(x).__name__))
    return x


class _Tenhou6Reader:
    def __init__(self, data: Any, source: str, strict: bool) -> None:
        self.data = data
        self.source = source
        self.problems = Problems(source, strict)
        self.rule_name = ""
        self.initial_dora: list[Any] = []

    def read(self) -> GameRecord:
        d, p = self.data, self.problems
        if not isinstance(d, dict) or not isinstance(d.get("log"), list):
            raise RecordError(sentence("{source}: not tenhou.net/6 JSON (no 'log' list)", source=self.source))
        rule: dict[str, Any] = d["rule"] if isinstance(d.get("rule"), dict) else {}
        self.rule_name = str(rule.get("disp", ""))
        ext: dict[str, Any] = d["sanma"] if isinstance(d.get("sanma"), dict) else {}
        dora_counts = ext.get("initial_dora")
        self.initial_dora = dora_counts if isinstance(dora_counts, list) else []
        names = d.get("name")
        players = tuple(str(x) for x in names[:3]) if isinstance(names, list) else ()
        if isinstance(names, list) and len(names) > 3 and names[3]:
            raise RecordError(sentence("{source}: a fourth player {names!r} in a 3-player record",
                                       source=self.source, names=names[3]))
        kyoku: list[KyokuRecord] = []
        for i, kd in enumerate(d["log"]):
            label = f"#{i}"
            try:
                k = _Tenhou6Kyoku(self, kd, i)
                label = k.label
                state, last = k.play()
                kyoku.append(k.record(k.results(state, last)))
            except (SanmaError, ValueError, KeyError, IndexError, TypeError, OverflowError) as e:
                p.add(_msg(e), label)
        final_scores = final_points = None
        sc = d.get("sc")
        if isinstance(sc, list) and len(sc) >= 6:
            try:
                final_scores = tuple(as_int(x, "final score") for x in sc[0:6:2])
                final_points = tuple(float(x) for x in sc[1:6:2])
            except (SanmaError, ValueError, TypeError) as e:
                p.add(_msg(e), None, "sc")
        if not kyoku:
            p.add("no kyoku in the log")
        return GameRecord(
            source=self.source, format="tenhou6", rule_name=str(rule.get("disp", "")),
            rule_flags=tuple(sorted((str(k), v) for k, v in rule.items() if k != "disp")),
            players=players, start_scores=kyoku[0].start_scores if kyoku else (), kyoku=tuple(kyoku),
            final_scores=final_scores, final_points=final_points, complete=final_scores is not None,
            errors=tuple(p.items), kita_in_dora=_tenhou_game(str(rule.get("disp", ""))))


def _tenhou_game(disp: str) -> bool:
    """Whether tenhou.net/6 JSON is of a game played on Tenhou (a lobby name such as 三鳳南喰赤, or
    none), not a Mahjong Soul conversion (a room name) nor sanma's own (its rule set's name)."""
    return not majsoul_room(disp) and (not disp or not disp.isascii())


def read_tenhou6(path_or_text: str | Path | bytes, *, strict: bool = False,
                 source: str | None = None) -> GameRecord:
    """Read a tenhou.net/6 JSON record (Tenhou's, or a converted Mahjong Soul game).

    The three players' draw and discard columns are interleaved by replaying the kyoku: after
    each discard the next call string (``p``/``m`` with the letter's position naming the
    discarder) is matched, else the next seat draws. The format cannot say which of two equal
    discards was called when a player passes a pon and calls the same tile from the same
    discarder before drawing again; the first chance is taken (the record then fails to read).
    """
    return read_guarded("tenhou6", path_or_text, strict, source,
                        lambda text, src: _Tenhou6Reader(parse_json(text, src), src, strict).read())
