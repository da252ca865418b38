"""Tenhou's mjlog XML records (the ``<mjloggm>`` of a game, with its shuffle seed).

Tenhou's 136-tile ids (``4 * kind + copy``; copy 0 of a five is red) exist only in this module:
the reader turns them into :class:`sanma.tiles.Tile` at once. The tenhou.net/6 JSON form of a game
is :mod:`sanma.formats.tenhou6`.

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
from ..i18n.terms import draw_key, yaku_key
from ..tiles import WIND_LETTERS, Tile
from .guard import Problems, as_int, error_text, read_guarded
from .record import LIMITS, DrawResult, GameRecord, KyokuRecord, RecordedWin, Result, kyoku_label
from .tracker import KyokuReplay, action_word, build_win

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




def _yaku_pairs(ids_hans: list[int], problems: Problems, label: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for i in range(0, len(ids_hans) - 1, 2):
        yid, han = ids_hans[i], ids_hans[i + 1]
        if not 0 <= yid < len(TENHOU_YAKU):
            problems.add(sentence("unknown Tenhou yaku id {yid}", code="unknown_yaku", yid=yid), label)
            continue
        name = yaku_key(TENHOU_YAKU[yid])
        assert name is not None
        out.append((name, han))
    if len(ids_hans) % 2:
        problems.add(sentence("yaku list has an odd number of values: {values}", code="yaku_list", values=ids_hans),
                     label)
    return tuple(out)


def _ints(text: str | None, what: str) -> list[int]:
    if text is None or text.strip() == "":
        return []
    try:
        return [int(float(x)) for x in text.split(",")]
    except ValueError:
        raise RecordError(sentence("{what}={text!r} is not a list of numbers", what=what, text=text)) from None



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
        self.round_wind = WIND_LETTERS[kyoku // 4]
        self.dealer = as_int(el.get("oya", kyoku % 4), "INIT oya")
        if self.dealer != kyoku % 4:
            p.add(sentence("INIT oya={oya} but the kyoku index {kyoku} names dealer {dealer}", code="dealer",
                            oya=self.dealer, kyoku=kyoku, dealer=kyoku % 4))
        self.label = kyoku_label(self.round_wind, self.dealer, self.honba)
        ten = _ints(el.get("ten"), "INIT ten")
        if len(ten) != 4 or ten[3] != 0:
            p.add(sentence("INIT ten={value!r}: expected 3 scores and a 0 for the empty seat", code="scores",
                            value=el.get("ten")), self.label)
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
            self.r.problems.add(sentence("{what}: tile id {tid} appears twice", code="tile_twice",
                                         what=action_word(what), tid=tid), self.label, self.replay.where)

    def _remove_id(self, seat: int, tid: int, what: str) -> None:
        if tid in self.ids[seat]:
            self.ids[seat].remove(tid)
        else:
            self.r.problems.add(sentence("{what}: seat {seat} does not hold tile id {tid}", code="tile_not_held",
                                         what=action_word(what), seat=seat, tid=tid), self.label, self.replay.where)

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
            p.add(sentence("AGARI hai={hai} differs from the replayed hand {mine} of seat {seat}", code="win_hand",
                            hai=hai, mine=mine, seat=who), self.label)
        melds = [_decode_meld(m) for m in _ints(el.get("m"), "AGARI m")]
        if sum(1 for k in melds if k[0] == "kita") != ctx.kita:
            p.add(sentence("AGARI m lists {n} kita, replay counted {kita}", code="win_kita",
                           n=sum(1 for k in melds if k[0] == "kita"), kita=ctx.kita), self.label)
        if len(melds) - ctx.kita != len(ctx.melds):
            p.add(sentence("AGARI m lists {n} melds, replay has {melds}", code="win_melds", n=len(melds) - ctx.kita,
                           melds=ctx.melds), self.label)
        dora = tuple(self.tile(i) for i in _ints(el.get("doraHai"), "AGARI doraHai"))
        if dora != tuple(self.dora):
            p.add(sentence("AGARI doraHai {dora} differs from the revealed indicators {revealed}", code="win_dora",
                           dora=[str(t) for t in dora], revealed=[str(t) for t in self.dora]), self.label)
        ura = tuple(self.tile(i) for i in _ints(el.get("doraHaiUra"), "AGARI doraHaiUra"))
        self.ura = ura or self.ura
        ba = _ints(el.get("ba"), "AGARI ba")
        honba, kyotaku = [*ba, self.honba, self.kyotaku][:2]
        if honba != self.honba:  # every AGARI of a hand names its honba, a double ron's second too
            p.add(sentence("AGARI ba={value!r}: the hand's honba is {honba}", code="win_honba", value=el.get("ba"),
                           honba=self.honba), self.label)
        if not any(isinstance(r, RecordedWin) for r in self.results) and kyotaku != ctx.kyotaku:
            p.add(sentence("AGARI ba={value!r}: replay counts {n} riichi sticks", code="win_sticks", value=el.get("ba"),
                           n=ctx.kyotaku), self.label)
        ten = _ints(el.get("ten"), "AGARI ten")
        if len(ten) != 3:
            raise RecordError(sentence("AGARI ten={value!r} needs fu,points,limit", value=el.get('ten')))
        fu, points, limit = ten
        if el.get("yakuman") is not None:
            ids = _ints(el.get("yakuman"), "AGARI yakuman")
            names = []
            for yid in ids:
                if not 37 <= yid <= 51:
                    p.add(sentence("yakuman id {yid} is not a yakuman", code="unknown_yaku", yid=yid), self.label)
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
            p.add(sentence("AGARI sc={value!r}: expected 3 score/delta pairs and 0,0", code="win_payments",
                           value=el.get("sc")), self.label)
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
            self.r.problems.add(sentence("RYUUKYOKU type={name!r} is unknown", code="unknown_draw", name=name),
                                self.label)
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
            where = sentence("tag {pos} <{tag}>", pos=pos, tag=tag)
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
                        p.add(sentence("INIT before the previous kyoku ended", code="kyoku_order"), cur.label, where)
                        kyoku.append(cur.record())
                    cur = _MjlogKyoku(self, el)
                    kyoku_seeds.append(el.get("shuffle", ""))  # the 2009 seed form
                elif tag == "SHUFFLE":
                    shuffle_seed = el.get("seed", "")
                elif cur is None:
                    if tag not in ("SHUFFLE", "TAIKYOKU", "UN", "BYE", "GO"):
                        p.add(sentence("<{tag}> outside a kyoku", code="outside_kyoku", tag=tag), None, where)
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
                    p.add(sentence("unknown tag <{tag}>", code="unknown_tag", tag=tag), cur.label, where)
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
                p.add(error_text(e), cur.label if cur else None, where)
                if isinstance(e, RecordError) and tag in ("INIT", "GO", "UN"):
                    cur = None
        if cur is not None:
            p.add(sentence("the record ends in the middle of a kyoku", code="truncated"), cur.label)
            kyoku.append(cur.record())
        if not kyoku:
            p.add(sentence("no kyoku (INIT) in the record", code="no_kyoku"))
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




def read_mjlog(path_or_text: str | Path | bytes, *, strict: bool = False, source: str | None = None) -> GameRecord:
    """Read a Tenhou mjlog XML record (a path, or the XML text).

    Lenient by default: problems go into ``record.errors``; ``strict=True`` raises
    :class:`sanma.errors.RecordError` at the first. DTDs and entity declarations are refused
    before parsing.
    """
    return read_guarded("mjlog", path_or_text, strict, source,
                        lambda text, src: _MjlogReader(text, src, strict).read())
