"""Yaku and yakuman of one reading of a winning hand.

The han of every yaku comes from ``Rules.yaku`` / ``Rules.yakuman`` (0 = not a yaku under those
rules); this module only decides which patterns a hand shows. Each pattern is a short, commented
check citing its matrix row (§3 Y01–Y50).

The scorer reads every decomposition of every hand, so the checks are split by what they depend
on. ``YakuTable`` holds what depends on the rules only (the han line of each yaku, built once per
rule set). ``HandFacts`` holds what depends on the hand but not on how its pinzu and souzu are
split into sets: the kinds present (tanyao, flushes, honroutou...), the honour and manzu sets
(which have one split only: yakuhai, daisangen, suushii...), the melds and the situation
(riichi, tsumo...). ``standard_yaku`` then adds, per reading, the few yaku that depend on the
split (pinfu, iipeikou, ittsu, chanta, toitoi, sanankou, sanshoku doukou, renkou) and keeps the
order of the lines the same as the matrix order used everywhere in sanma's output.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from .agari import (
    CLASS_NOT_GREEN,
    CLASS_NOT_TERMINAL,
    CLASS_SIMPLE,
    CLASS_YAOCHUU,
    KANCHAN,
    KIND_BIT,
    KIND_CLASS,
    PENCHAN,
    RYANMEN,
    SHANPON,
    TANKI,
    SuitPart,
    kind_set,
)
from .rules.schema import PON_CAPABLE_YAKUMAN, Rules
from .tiles import DRAGONS, GREEN, NORTH, NUM_KINDS, WINDS, YAOCHUU

GREEN_KINDS: Final = frozenset({19, 20, 21, 23, 25, GREEN})  # 2s 3s 4s 6s 8s and hatsu (Y43)
TERMINAL_KINDS: Final = frozenset({0, 8, 9, 17, 18, 26})

Line = tuple[str, int]  # (yaku name, han) or (yakuman name, multiplier)

# Kind sets in the hand-key layout (bit 3k = kind k), see agari.KIND_BIT.
ALL: Final = kind_set(range(NUM_KINDS))
HONOURS: Final = kind_set(range(27, NUM_KINDS))
DRAGON_SET: Final = kind_set(DRAGONS)
WIND_SET: Final = kind_set(WINDS)
SIMPLES: Final = ALL & ~kind_set(YAOCHUU)
NOT_GREEN: Final = ALL & ~kind_set(GREEN_KINDS)
NOT_TERMINAL: Final = ALL & ~kind_set(TERMINAL_KINDS)
SUIT_SETS: Final = (kind_set(range(0, 9)), kind_set(range(9, 18)), kind_set(range(18, 27)))
DOUKOU_GROUPS: Final = (kind_set((0, 9, 18)), kind_set((8, 17, 26)))  # only 1s or 9s exist in all suits


def yakuhai_reasons(rules: Rules, seat_wind: int, round_wind: int, kind: int) -> tuple[str, ...]:
    """Why a set of ``kind`` is yakuhai (Y10, P74): dragon, seat wind, round wind, North for all."""
    if kind in DRAGONS:
        return (("yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun")[kind - DRAGONS[0]],)
    out: list[str] = []
    if kind == seat_wind:
        out.append("yakuhai_seat_wind")
    if kind == round_wind:
        out.append("yakuhai_round_wind")
    # North is yakuhai for everybody under KANSAI (P15 yakuhai_all) and as the empty seat's wind
    # under CLUB (P22, A000-26 default reading).
    if kind == NORTH and kind != seat_wind and (
        rules.north_mode == "yakuhai" or rules.empty_seat_wind == "north"
    ):
        out.append("yakuhai_north")
    return tuple(out)


class KindFacts(NamedTuple):
    """Yaku decided by the kinds held alone (see ``KIND_CLASS``), as lines in output order."""

    tanyao: tuple[Line, ...]  # Y08
    honroutou: tuple[Line, ...]  # Y25
    flush: tuple[Line, ...]  # Y28 honitsu / Y31 chinitsu
    yakuman: tuple[Line, ...]  # Y40 tsuuiisou, Y43 ryuuiisou, Y44 chinroutou
    mankon: tuple[Line, ...]  # Y36 man-suit honitsu (KANSAI)
    han: int  # of tanyao, honroutou and the flush
    chuuren: bool  # one number suit, no honours: chuuren (Y46) is possible


class HonourFacts(NamedTuple):
    """Yaku decided by the honour sets (concealed, which split one way only, and melded)."""

    yakuhai: tuple[Line, ...]  # Y10, one line per reason per set
    sanpuu: tuple[Line, ...]  # Y24
    shousangen: tuple[Line, ...]  # Y26
    yakuman: tuple[Line, ...]  # Y39 daisangen, Y42 daisuushii / Y41 shousuushii
    han: int  # of the yakuhai, sanpuu and shousangen lines


class YakuTable:
    """The han line of every yaku and yakuman under one ``Rules`` (None = not a yaku there),
    and caches of what depends on the rules plus a small part of the hand (the situation, the
    kind class, the honour sets, the winds). Built once per rule set."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        #: name → (name, han) in a closed / open hand, None when it is worth 0 han there.
        self.closed: dict[str, Line | None] = {n: (n, h[0]) if h[0] > 0 else None for n, h in rules.yaku.items()}
        self.open: dict[str, Line | None] = {n: (n, h[1]) if h[1] > 0 else None for n, h in rules.yaku.items()}
        #: name → (name, multiplier), None when it is not a yakuman under these rules.
        self.yakuman: dict[str, Line | None] = {n: (n, m) if m > 0 else None for n, m in rules.yakuman.items()}
        self.called_limit = rules.triplet_yaku_max_called  # P71
        # Renkou (Y23 / Y35) are local yaku; the run of triplets is only looked for when they count.
        self.renkou = bool(rules.han("sanrenkou", True) or rules.han("sanrenkou", False)
                           or rules.yakuman.get("suurenkou", 0))
        self._winds: dict[int, tuple[tuple[int, ...], tuple[tuple[Line, ...], ...], tuple[tuple[Line, ...], ...]]] = {}
        self._situations: dict[int, tuple[tuple[Line, ...], tuple[Line, ...], int]] = {}
        self.kinds: dict[int, KindFacts] = {}
        self.honours: dict[int, HonourFacts] = {}
        self.contexts: dict[int, Context] = {}
        #: winds and situation → manzu and honour pattern → Fixed (``standard_readings``)
        self.fixed: dict[int, dict[int, Fixed]] = {}

    def line(self, name: str, closed: bool) -> Line | None:
        return (self.closed if closed else self.open).get(name)

    def winds(self, seat_wind: int, round_wind: int
              ) -> tuple[tuple[int, ...], tuple[tuple[Line, ...], ...], tuple[tuple[Line, ...], ...]]:
        """Per kind: pair fu (2 per yakuhai reason, P52) and the yakuhai lines of a set of it in a
        closed / open hand (Y10)."""
        key = seat_wind * 64 + round_wind
        w = self._winds.get(key)
        if w is None:
            reasons = [yakuhai_reasons(self.rules, seat_wind, round_wind, k) for k in range(NUM_KINDS)]
            lines = [tuple((r, self.rules.han("yakuhai", closed)) for r in rs) if self.rules.han("yakuhai", closed)
                     else () for closed in (True, False) for rs in reasons]
            w = self._winds[key] = (tuple(2 * len(r) for r in reasons), tuple(lines[:NUM_KINDS]),
                                    tuple(lines[NUM_KINDS:]))
        return w

    def situation(self, flags: int, closed: bool, tsumo: bool) -> tuple[tuple[Line, ...], tuple[Line, ...], int]:
        """The yaku and yakuman that depend on the situation only, and the yaku's han;
        ``flags`` is ``situation_flags``."""
        key = flags << 2 | closed << 1 | tsumo
        s = self._situations.get(key)
        if s is None:
            yaku, yakuman = self._situation(flags, closed, tsumo)
            s = self._situations[key] = (yaku, yakuman, sum(h for _, h in yaku))
        return s

    def _situation(self, flags: int, closed: bool, tsumo: bool) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
        (riichi, double_riichi, open_riichi, ippatsu, rinshan, chankan, haitei, houtei, kanburi, tenhou, chiihou,
         renhou, open_riichi_deal_in) = (bool(flags >> i & 1) for i in range(13))
        yaku: list[Line | None] = []
        if double_riichi:
            yaku.append(self.closed.get("double_riichi"))  # Y02 (total incl. riichi)
        elif riichi:
            yaku.append(self.closed.get("riichi"))  # Y01
        if open_riichi:
            yaku.append(self.closed.get("open_riichi"))  # Y03, added on top (A000-2)
        if ippatsu:
            yaku.append(self.closed.get("ippatsu"))  # Y05
        if tsumo and closed:
            yaku.append(self.closed.get("menzen_tsumo"))  # Y06
        for flag, name in ((rinshan, "rinshan"), (chankan, "chankan"), (haitei, "haitei"), (houtei, "houtei"),
                           (kanburi, "kanburi")):
            if flag:
                yaku.append(self.line(name, closed))  # Y11-Y15
        yakuman: list[Line | None] = []
        for flag, name in ((tenhou, "tenhou"), (chiihou, "chiihou"), (open_riichi_deal_in, "open_riichi_deal_in")):
            if flag:
                yakuman.append(self.yakuman.get(name))  # Y47, Y48, Y04
        if renhou and self.rules.renhou_value == "yakuman":
            yakuman.append(self.yakuman.get("renhou"))  # Y49
        return tuple(y for y in yaku if y), tuple(y for y in yakuman if y)

    def kind_facts(self, kind_class: int, closed: bool) -> KindFacts:
        """The yaku decided by the kinds held (``kind_class``: OR of ``KIND_CLASS``)."""
        key = kind_class << 1 | closed
        f = self.kinds.get(key)
        if f is None:
            f = self.kinds[key] = self._kind_facts(kind_class, closed)
        return f

    def _kind_facts(self, cls: int, closed: bool) -> KindFacts:
        line = self.closed if closed else self.open
        ym = self.yakuman
        suits = cls & 0b111
        has_honour = cls & 0b1000
        one_suit = suits in (1, 2, 4)
        tanyao = None
        if not cls & CLASS_YAOCHUU:  # Y08 (kuitan: P66)
            tanyao = line.get("tanyao") if closed or self.rules.kuitan != "no" else None
        honroutou = line.get("honroutou") if not cls & CLASS_SIMPLE and has_honour and suits else None  # Y25
        flush = (line.get("honitsu") if has_honour else line.get("chinitsu")) if one_suit else None  # Y28 / Y31
        yakuman = (
            ym.get("tsuuiisou") if not suits else None,  # Y40
            ym.get("ryuuiisou") if not cls & CLASS_NOT_GREEN else None,  # Y43 (hatsu not required)
            ym.get("chinroutou") if not cls & CLASS_NOT_TERMINAL else None,  # Y44
        )
        mankon = ym.get("mankon") if suits == 1 and has_honour else None  # Y36 man-suit honitsu
        lines = tuple(y for y in (tanyao, honroutou, flush) if y)
        return KindFacts((tanyao,) if tanyao else (), (honroutou,) if honroutou else (), (flush,) if flush else (),
                         tuple(y for y in yakuman if y), (mankon,) if mankon else (), sum(h for _, h in lines),
                         closed and suits in (2, 4) and not has_honour)

    def honour_facts(self, trips: tuple[int, ...], pair: int, seat_wind: int, round_wind: int, closed: bool,
                     called: int, cache_key: int | None) -> HonourFacts:
        """The yaku decided by the honour triplets ``trips`` (concealed ones first, then melded,
        in that order) and the pair; ``called``: kind set of open melds. Cached under
        ``cache_key`` (the honour suit's key with the winds, when no honour is melded)."""
        if cache_key is not None:
            f = self.honours.get(cache_key)
            if f is None:
                f = self.honours[cache_key] = self._honour_facts(trips, pair, seat_wind, round_wind, closed, called)
            return f
        return self._honour_facts(trips, pair, seat_wind, round_wind, closed, called)

    def _honour_facts(self, trips: tuple[int, ...], pair: int, seat_wind: int, round_wind: int, closed: bool,
                      called: int) -> HonourFacts:
        line = self.closed if closed else self.open
        ym = self.yakuman
        _, yakuhai_closed, yakuhai_open = self.winds(seat_wind, round_wind)
        yakuhai_lines = yakuhai_closed if closed else yakuhai_open
        yakuhai = tuple(y for k in trips for y in yakuhai_lines[k])  # Y10, one per reason per set
        trip_set = kind_set(trips)
        dragon_trips = (trip_set & DRAGON_SET).bit_count()
        wind_trips = (trip_set & WIND_SET).bit_count()
        yakuman: list[Line | None] = []
        if dragon_trips == 3:
            yakuman.append(ym.get("daisangen"))  # Y39
        if wind_trips == 4:
            yakuman.append(ym.get("daisuushii"))  # Y42
        elif wind_trips == 3 and pair in WINDS:
            yakuman.append(ym.get("shousuushii"))  # Y41
        sanpuu = None
        if wind_trips == 3 and (trip_set & WIND_SET & called).bit_count() <= self.called_limit:
            sanpuu = line.get("sanpuu")  # Y24, with at most P71's number of called triplets
        shousangen = line.get("shousangen") if dragon_trips == 2 and pair in DRAGONS else None  # Y26
        han = sum(h for _, h in yakuhai) + (sanpuu[1] if sanpuu else 0) + (shousangen[1] if shousangen else 0)
        return HonourFacts(yakuhai, (sanpuu,) if sanpuu else (), (shousangen,) if shousangen else (),
                           tuple(y for y in yakuman if y), han)


def situation_flags(riichi: bool, double_riichi: bool, open_riichi: bool, ippatsu: bool, rinshan: bool,
                    chankan: bool, haitei: bool, houtei: bool, kanburi: bool, tenhou: bool, chiihou: bool,
                    renhou: bool, open_riichi_deal_in: bool) -> int:
    """The situational flags as one int (the key of ``YakuTable.situation``)."""
    return (riichi | double_riichi << 1 | open_riichi << 2 | ippatsu << 3 | rinshan << 4 | chankan << 5
            | haitei << 6 | houtei << 7 | kanburi << 8 | tenhou << 9 | chiihou << 10 | renhou << 11
            | open_riichi_deal_in << 12)


def longest_run(trip_set: int) -> int:
    """Kind set of the longest run of consecutive same-suit number triplets (first if tied)."""
    best = 0
    best_len = 0
    for base in (0, 9, 18):
        run = 0
        length = 0
        for k in range(base, base + 9):
            if trip_set & KIND_BIT[k]:
                run |= KIND_BIT[k]
                length += 1
                if length > best_len:
                    best, best_len = run, length
            else:
                run = length = 0
    return best


class Reading:
    """One reading of a winning hand: for a standard one, a split of each suit and a place for
    the winning tile, with its yaku (``lines``, worth ``han``) or yakuman, and its fu; seven pairs
    and thirteen orphans carry no split (``parts`` None) but their fu breakdown. A plain class
    with typed fields (compiled, each is read straight from the object)."""

    __slots__ = ("breakdown", "fu", "han", "lines", "on_triplet", "pair", "pair_fu", "parts", "pinfu", "raw_fu",
                 "wait", "yakuman")

    def __init__(self, lines: tuple[Line, ...], han: int, yakuman: tuple[Line, ...], fu: int, raw_fu: int, wait: str,
                 pinfu: bool = False, pair: int = -1, pair_fu: int = 0, on_triplet: bool = False,
                 parts: tuple[SuitPart, SuitPart, SuitPart, SuitPart] | None = None,
                 breakdown: tuple[Line, ...] = ()) -> None:
        self.lines = lines
        self.han = han
        self.yakuman = yakuman
        self.fu = fu
        self.raw_fu = raw_fu  # before rounding up (P52)
        self.wait = wait
        self.pinfu = pinfu
        self.pair = pair
        self.pair_fu = pair_fu  # of the pair (P52: 2 per yakuhai reason)
        self.on_triplet = on_triplet  # the winning tile completed a triplet (shanpon)
        self.parts = parts  # manzu, pinzu, souzu, honours; None for seven pairs and thirteen orphans
        self.breakdown = breakdown  # the fu breakdown of a reading without parts


_DOUKOU_0: Final = DOUKOU_GROUPS[0]  # Final: a static of the compiled module, not a dict lookup
_DOUKOU_1: Final = DOUKOU_GROUPS[1]


class Context(NamedTuple):
    """What the readings of a hand need from the rules, the winds and the situation."""

    pair_fu: tuple[int, ...]  # per kind: 2 per yakuhai reason (P52)
    sit_yaku: tuple[Line, ...]
    sit_yakuman: tuple[Line, ...]
    sit_han: int
    base_fu: int  # 20, +10 closed ron, +2 tsumo (P52)
    pinfu_no_tsumo_fu: bool  # P54
    fixed_fu: int  # P52 fixed_30 / fixed_40, else 0
    pinfu: Line | None
    iipeikou: Line | None
    ryanpeikou: Line | None
    ittsu: Line | None
    ittsu_kanchan_penchan_only: bool  # P70
    chanta: Line | None
    junchan: Line | None
    toitoi: Line | None
    deki_sanankou: Line | None
    tsumori_sanankou: Line | None
    sanankou: Line | None
    sankantsu: Line | None
    sanrenkou: Line | None
    suurenkou: Line | None
    sanshoku_doukou: Line | None


def context(t: YakuTable, seat_wind: int, round_wind: int, closed: bool, tsumo: bool, situation: int) -> Context:
    """The reading context (cached per rules, winds, closed, tsumo and situation flags)."""
    key = situation << 14 | seat_wind << 8 | round_wind << 2 | closed << 1 | tsumo
    c = t.contexts.get(key)
    if c is None:
        rules = t.rules
        line = t.closed if closed else t.open
        sit_yaku, sit_yakuman, sit_han = t.situation(situation, closed, tsumo)
        c = t.contexts[key] = Context(
            t.winds(seat_wind, round_wind)[0], sit_yaku, sit_yakuman, sit_han,
            20 + (10 if closed and not tsumo else 0) + (2 if tsumo else 0), tsumo and rules.pinfu_tsumo_20fu,
            {"fixed_30": 30, "fixed_40": 40}.get(rules.fu_mode, 0),
            t.closed.get("pinfu") if closed and (not tsumo or rules.pinfu_on_tsumo) else None,
            t.closed.get("iipeikou") if closed else None, t.closed.get("ryanpeikou") if closed else None,
            line.get("ittsu"), not closed and rules.open_ittsu_kanchan_penchan_only,
            line.get("chanta"), line.get("junchan"), line.get("toitoi"), line.get("deki_sanankou"),
            line.get("tsumori_sanankou"), line.get("sanankou"), line.get("sankantsu"),
            line.get("sanrenkou") if t.renkou else None, t.yakuman.get("suurenkou") if t.renkou else None,
            line.get("sanshoku_doukou"))
    return c


class Fixed:
    """What the readings of a hand share, whatever the split of pinzu and souzu: the context, the
    manzu and honour sets (one split each), the melds. A plain class with typed fields: compiled,
    each is read straight from the object (a tuple's items would be untyped)."""

    __slots__ = ("base_fu", "base_yakuman", "called", "concealed", "deki", "doukou", "fixed_fu", "fixed_han",
                 "iipeikou", "ittsu", "ittsu_limited", "kans", "outside", "outside_line", "pair", "pair_fu",
                 "pairs", "pinfu", "pinfu_no_tsumo_fu", "ryanpeikou", "sanankou", "sankantsu", "sanpuu",
                 "sanrenkou", "shousangen", "sit_yaku", "sit_yakuman", "suurenkou", "toitoi", "trips", "tsumori",
                 "yakuhai")

    def __init__(self, c: Context, hf: HonourFacts, man: SuitPart, hon: SuitPart, melds: MeldFacts,
                 sankantsu: tuple[Line, ...], has_honour: bool) -> None:
        self.pair_fu: tuple[int, ...] = c.pair_fu
        self.sit_yaku: tuple[Line, ...] = c.sit_yaku
        self.sit_yakuman: tuple[Line, ...] = c.sit_yakuman
        self.base_yakuman: tuple[Line, ...] = (*c.sit_yakuman, *hf.yakuman)
        self.fixed_han: int = c.sit_han + hf.han + (sankantsu[0][1] if sankantsu else 0)
        self.yakuhai: tuple[Line, ...] = hf.yakuhai
        self.sanpuu: tuple[Line, ...] = hf.sanpuu
        self.shousangen: tuple[Line, ...] = hf.shousangen
        self.sankantsu: tuple[Line, ...] = sankantsu
        self.base_fu: int = c.base_fu + man.trip_fu + hon.trip_fu + melds.fu
        self.pinfu_no_tsumo_fu: bool = c.pinfu_no_tsumo_fu
        self.fixed_fu: int = c.fixed_fu
        self.pinfu: Line | None = c.pinfu
        self.iipeikou: Line | None = c.iipeikou
        self.ryanpeikou: Line | None = c.ryanpeikou
        self.ittsu: Line | None = c.ittsu
        self.ittsu_limited: bool = c.ittsu_kanchan_penchan_only
        self.outside_line: Line | None = c.chanta if has_honour else c.junchan  # Y18 / Y30
        self.toitoi: Line | None = c.toitoi
        self.deki: Line | None = c.deki_sanankou
        self.tsumori: Line | None = c.tsumori_sanankou
        self.sanankou: Line | None = c.sanankou
        self.sanrenkou: Line | None = c.sanrenkou
        self.suurenkou: Line | None = c.suurenkou
        self.doukou: Line | None = c.sanshoku_doukou
        self.pair: int = man.pair if man.pair >= 0 else hon.pair
        self.pairs: int = (man.pair >= 0) + (hon.pair >= 0)
        self.trips: int = man.trip_set | hon.trip_set | melds.trip_set
        self.outside: bool = man.outside and hon.outside and not melds.trip_set & SIMPLES
        self.concealed: int = len(man.trips) + len(hon.trips) + melds.ankans
        self.kans: int = melds.kans
        self.called: int = melds.called


_FIXED_LIMIT: Final = 200_000
_CONTEXT_LIMIT: Final = 1_000


def _fixed(t: YakuTable, man: SuitPart, hon: SuitPart, honour_key: int, melds: MeldFacts, seat_wind: int,
           round_wind: int, closed: bool, tsumo: bool, situation: int) -> Fixed:
    """The ``Fixed`` of a hand (see ``standard_readings``)."""
    c = context(t, seat_wind, round_wind, closed, tsumo, situation)
    if melds.honours:
        hf = t.honour_facts((*hon.trips, *melds.trips), hon.pair, seat_wind, round_wind, closed, melds.called, None)
    else:  # the honour suit's split is fixed by its key
        hkey = honour_key << 14 | seat_wind << 8 | round_wind << 2 | closed
        hf = t.honour_facts(hon.trips, hon.pair, seat_wind, round_wind, closed, melds.called, hkey)
    sankantsu = (c.sankantsu,) if melds.kans == 3 and c.sankantsu else ()  # Y22
    return Fixed(c, hf, man, hon, melds, sankantsu, bool(hon.flags or melds.honours))


def standard_readings(
    t: YakuTable,
    parts: tuple[tuple[SuitPart, ...], tuple[SuitPart, ...], tuple[SuitPart, ...], tuple[SuitPart, ...]],
    man_key: int,
    honour_key: int,
    win: int,
    closed: bool,
    tsumo: bool,
    seat_wind: int,
    round_wind: int,
    situation: int,
    key: int,
    melds: MeldFacts,
) -> list[Reading]:
    """Every reading of a hand as four sets and a pair, with its yaku and fu, in reading order.

    ``parts``: the splits of each suit (manzu, pinzu, souzu, honours; an empty suit has the one
    empty split); ``man_key`` and ``honour_key``: the manzu and honour suits' keys; ``key``: the
    concealed hand key.
    """
    man_parts, pin_parts, sou_parts, hon_parts = parts
    man, hon = man_parts[0], hon_parts[0]  # no runs: one split at most
    if melds is NO_MELDS:  # cached per winds and situation, then per manzu and honour pattern
        context_key = situation << 14 | seat_wind << 8 | round_wind << 2 | closed << 1 | tsumo
        by_pattern = t.fixed.get(context_key)
        if by_pattern is None:
            if len(t.fixed) > _CONTEXT_LIMIT:
                t.fixed.clear()
            by_pattern = t.fixed[context_key] = {}
        # 48 bits: a machine-size int, not a big one; the honour key in the low bits, which
        # decide a dict's first probe, because it varies the most from hand to hand.
        fixed_key = man_key << 21 | honour_key
        fixed = by_pattern.get(fixed_key)
        if fixed is None:
            if len(by_pattern) > _FIXED_LIMIT:
                by_pattern.clear()
            fixed = by_pattern[fixed_key] = _fixed(t, man, hon, honour_key, melds, seat_wind, round_wind, closed, tsumo,
                                                   situation)
    else:
        fixed = _fixed(t, man, hon, honour_key, melds, seat_wind, round_wind, closed, tsumo, situation)
    pair_fu = fixed.pair_fu
    sit_yaku = fixed.sit_yaku
    sit_yakuman = fixed.sit_yakuman
    base_fu = fixed.base_fu
    fixed_fu = fixed.fixed_fu
    fixed_pair = fixed.pair
    fixed_pairs = fixed.pairs
    fixed_trips = fixed.trips
    fixed_outside = fixed.outside
    fixed_concealed = fixed.concealed
    kans = fixed.kans
    sanrenkou = fixed.sanrenkou
    suurenkou = fixed.suurenkou

    # --- the kinds held (the same for every split) ---------------------------------------------
    kind_class = man.flags | pin_parts[0].flags | sou_parts[0].flags | hon.flags | melds.kind_class
    kf = t.kinds.get(kind_class << 1 | closed) or t.kind_facts(kind_class, closed)

    # Yakuman in output order: situation (Y47, Y48, Y04, Y49), [suuankou], honours (Y39, Y41/42),
    # kinds (Y40, Y43, Y44), suukantsu (Y45), chuuren (Y46), [suurenkou], mankon (Y36).
    fixed_yakuman = fixed.base_yakuman
    if kf.yakuman or kans == 4 or (kf.chuuren and not kans):
        found: list[Line | None] = [*fixed_yakuman, *kf.yakuman]
        if kans == 4:
            found.append(t.yakuman.get("suukantsu"))  # Y45
        if kf.chuuren and not kans:  # Y46
            suit = 1 if pin_parts[0].blocks else 2
            c = [key >> 3 * (9 * suit + i) & 7 for i in range(9)]
            if c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8]):
                c[win % 9] -= 1
                nine = c == [3, 1, 1, 1, 1, 1, 1, 1, 3] and t.yakuman.get("chuuren_9")
                found.append(t.yakuman.get("chuuren_9") if nine else t.yakuman.get("chuuren"))
        fixed_yakuman = tuple([y for y in found if y])
    mankon = kf.mankon
    check_yakuman = bool(mankon or suurenkou)

    # Ordinary yaku lines in output order; [..] depend on the split:
    # situation, [pinfu], tanyao, [peikou], yakuhai, [ittsu], [chanta/junchan], [toitoi],
    # [sanankou], sankantsu, [sanrenkou], sanpuu, honroutou, shousangen, [sanshoku doukou], flush.
    tanyao = kf.tanyao
    sanpuu, shousangen = fixed.sanpuu, fixed.shousangen
    middle = sanpuu + kf.honroutou + shousangen if sanpuu or kf.honroutou or shousangen else ()
    flush = kf.flush
    fixed_han = fixed.fixed_han + kf.han
    pinfu_line = fixed.pinfu
    yakuhai = fixed.yakuhai
    sankantsu = fixed.sankantsu
    called_limit = t.called_limit
    suit_of_win = win // 9
    ron = not tsumo
    win_triplet_fu = 4 if KIND_CLASS[win] & CLASS_YAOCHUU else 2  # what a triplet loses when a ron completes it
    win_offset = win % 9  # ``part_waits``

    out: list[Reading] = []
    for a in pin_parts:
        for b in sou_parts:
            if fixed_pairs + (a.pair >= 0) + (b.pair >= 0) != 1:
                continue  # e.g. 11m 556677p 88s 44z: every suit holds a pair
            four = (man, a, b, hon)
            pair = fixed_pair if fixed_pair >= 0 else a.pair if a.pair >= 0 else b.pair
            n_seq = a.n_seq + b.n_seq
            trip_set = fixed_trips | a.trip_set | b.trip_set
            concealed = fixed_concealed + len(a.trips) + len(b.trips)
            outside = fixed_outside and a.outside and b.outside and n_seq
            peikou = a.peikou + b.peikou
            ittsu = a.ittsu or b.ittsu
            reading_fu = base_fu + a.trip_fu + b.trip_fu + pair_fu[pair]
            run = renkou = 0
            if sanrenkou or suurenkou:
                run = longest_run(trip_set)
                renkou = run.bit_count()
            win_part = four[suit_of_win]
            for wait, on_triplet in win_part.waits[win_offset]:
                # A triplet completed by ron counts as open (Y21, Y38); on tsumo it is concealed
                # but was not complete before the win (the CLUB deki/tsumori split, A000-6).
                closed_trips = concealed - (on_triplet and ron)
                # --- fu (P52, P54) -------------------------------------------------------------
                raw = reading_fu
                if wait is not RYANMEN and wait is not SHANPON:
                    raw += 2  # kanchan, penchan, tanki
                elif on_triplet and ron:
                    raw -= win_triplet_fu
                # --- yakuman ----------------------------------------------------------------
                yakuman = fixed_yakuman
                if closed_trips == 4 or (check_yakuman and (mankon or (renkou >= 4 and suurenkou))):
                    found = [*yakuman[:len(sit_yakuman)]]
                    if closed_trips == 4:  # Y38
                        found.append(t.yakuman.get("suuankou_tanki") if wait == TANKI
                                     and t.yakuman.get("suuankou_tanki") else t.yakuman.get("suuankou"))
                    found += yakuman[len(sit_yakuman):]
                    if renkou >= 4 and suurenkou:
                        found.append(suurenkou)  # Y35
                    found += mankon
                    yakuman = tuple([y for y in found if y])
                if yakuman:
                    fu = fixed_fu or (30 if raw == 20 and not closed and ron else -(-raw // 10) * 10)
                    out.append(Reading((), 0, _with_menzen_bonus(t.rules, yakuman, closed), fu, raw, wait, False, pair,
                                       pair_fu[pair], on_triplet, four))
                    continue
                # --- ordinary yaku, in output order -------------------------------------------
                han = fixed_han
                lines = [*sit_yaku]
                pinfu = False
                if n_seq == 4 and wait is RYANMEN and pinfu_line is not None and not pair_fu[pair]:
                    pinfu = True
                    lines.append(pinfu_line)  # Y07
                    han += pinfu_line[1]
                    if fixed.pinfu_no_tsumo_fu:
                        raw -= 2  # P54: pinfu tsumo is 20 fu
                if tanyao:  # (each tested first: most are empty, and += is a call)
                    lines += tanyao  # Y08
                if peikou:
                    y = fixed.ryanpeikou if peikou >= 2 else fixed.iipeikou  # Y29 / Y09
                    if y is not None:  # (not `if y`: the compiled build would box the line again to test it)
                        lines.append(y)
                        han += y[1]
                if yakuhai:
                    lines += yakuhai  # Y10
                if ittsu:
                    y = fixed.ittsu
                    if y is not None and (  # Y17: 123-456-789 in pinzu or souzu
                            not fixed.ittsu_limited or (wait in (KANCHAN, PENCHAN)
                                                        and suit_of_win == (1 if a.ittsu else 2))):  # P70
                        lines.append(y)
                        han += y[1]
                if outside:
                    y = fixed.outside_line
                    if y is not None:
                        lines.append(y)  # Y18 / Y30
                        han += y[1]
                if not n_seq:
                    y = fixed.toitoi
                    if y is not None:
                        lines.append(y)  # Y20
                        han += y[1]
                if closed_trips >= 3:
                    # Y21: sanankou. CLUB splits it (A000-6): deki = three concealed triplets
                    # already complete at tenpai; tsumori = the third one completed by the tsumo.
                    deki = fixed.deki
                    y = deki if deki and concealed - on_triplet >= 3 else fixed.tsumori or fixed.sanankou
                    if y is not None:
                        lines.append(y)
                        han += y[1]
                if sankantsu:
                    lines += sankantsu  # Y22
                if renkou >= 3 and sanrenkou and (run & fixed.called).bit_count() <= called_limit:
                    lines.append(sanrenkou)  # Y23
                    han += sanrenkou[1]
                if middle:
                    lines += middle  # Y24 sanpuu, Y25 honroutou, Y26 shousangen
                doukou = fixed.doukou
                # Three triplets leave at most one sequence; the test first skips the kind sets' big-integer
                # operations (the 9s group reaches bit 78) for every reading that cannot be one.
                if doukou is not None and n_seq <= 1 and (trip_set & _DOUKOU_0 == _DOUKOU_0
                                                          or trip_set & _DOUKOU_1 == _DOUKOU_1):
                    group = _DOUKOU_0 if trip_set & _DOUKOU_0 == _DOUKOU_0 else _DOUKOU_1
                    if (group & fixed.called).bit_count() <= called_limit:  # Y27, at most P71's called triplets
                        lines.append(doukou)
                        han += doukou[1]
                if flush:
                    lines += flush  # Y28 / Y31
                fu = fixed_fu or (30 if raw == 20 and not closed and ron else -(-raw // 10) * 10)
                out.append(Reading(tuple(lines), han, (), fu, raw, wait, pinfu, pair, pair_fu[pair], on_triplet, four))
    return out


class MeldFacts(NamedTuple):
    """The melds as the yaku checks see them."""

    trips: tuple[int, ...]  # melded kinds, in meld order
    trip_set: int  # the same as a kind set
    kind_class: int  # OR of their KIND_CLASS
    called: int  # kind set of the open melds (pon, open kan)
    kans: int
    ankans: int
    honours: bool  # an honour is melded
    fu: int  # P52: a pon 2, concealed doubles, a kan quadruples, terminals/honours double


NO_MELDS: Final = MeldFacts((), 0, 0, 0, 0, 0, False, 0)


def meld_facts(melds: Sequence[tuple[int, bool, bool]]) -> MeldFacts:
    """``melds``: (kind, is_open, is_kan) per meld, in meld order."""
    trips = tuple(k for k, _, _ in melds)
    return MeldFacts(trips, kind_set(trips), _or(KIND_CLASS[k] for k in trips),
                     kind_set(k for k, is_open, _ in melds if is_open), sum(1 for _, _, kan in melds if kan),
                     sum(1 for _, is_open, kan in melds if kan and not is_open), any(k >= 27 for k in trips),
                     sum(2 * (2 if k in YAOCHUU else 1) * (1 if is_open else 2) * (4 if kan else 1)
                         for k, is_open, kan in melds))


def _or(values: Iterable[int]) -> int:
    out = 0
    for v in values:
        out |= v
    return out


def _with_menzen_bonus(rules: Rules, yakuman: tuple[Line, ...], closed: bool) -> tuple[Line, ...]:
    # P62 (CLUB): +1 yakuman, once, for a pon-capable yakuman completed without calls.
    if rules.menzen_yakuman_bonus and closed and any(n in PON_CAPABLE_YAKUMAN for n, _ in yakuman):
        return (*yakuman, ("menzen_yakuman_bonus", 1))
    return yakuman


def evaluate_chiitoi(t: YakuTable, situation: int, tsumo: bool, counts: list[int]
                     ) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """Seven pairs (Y19) and its local variants (shousharin Y33, daisharin Y34, tsuuiisou Y40):
    (yaku lines, yakuman lines)."""
    rules = t.rules
    han = rules.han
    sit_yaku, sit_yakuman, _ = t.situation(situation, True, tsumo)
    yaku: list[Line] = list(sit_yaku)
    yakuman: list[Line] = list(sit_yakuman)
    kinds = [k for k in range(34) if counts[k]]
    suits = {k // 9 for k in kinds if k < 27}
    has_honor = any(k >= 27 for k in kinds)
    if not suits and rules.yakuman.get("tsuuiisou_chiitoi", 0):
        # Y40: seven pairs of honours; 0 = not a tsuuiisou (ONLINE: seed 001 defines 字一色 as
        # 「字牌のみで1雀頭4面子」, A001-16).
        yakuman.append(("tsuuiisou_chiitoi", rules.yakuman["tsuuiisou_chiitoi"]))
    # Sharin (Y33, Y34): "consecutive" = seven pairs 2-8 (daisharin) or 1-7 / 3-9 (shousharin) in
    # one suit (CLUB, ONLINE; A003-19); daisharin "flush_chiitoi" = any chinitsu seven pairs and
    # shousharin "honitsu_chiitoi" = any honitsu seven pairs (OFFICIAL 「清一七対子」「混一七対子」,
    # A002-10/11; KANSAI's 6-han shousharin, which only the honitsu form lets score).
    sharin = ""
    if len(suits) == 1:
        suit = next(iter(suits))
        base = suit * 9
        nums = [k - base for k in kinds if k < 27]
        if not has_honor and "mps"[suit] in rules.daisharin_suits and (
                rules.sharin_definition == "flush_chiitoi" or nums == list(range(1, 8))):
            sharin = "daisharin"
        elif rules.shousharin_definition == "consecutive":
            if not has_honor and nums in (list(range(0, 7)), list(range(2, 9))):
                sharin = "shousharin"
        elif has_honor:
            sharin = "shousharin"
    if sharin and rules.yakuman.get(sharin, 0):
        yakuman.append((sharin, rules.yakuman[sharin]))
    yakuman = [(n, m) for n, m in yakuman if m > 0]
    if yakuman:
        return (), _with_menzen_bonus(rules, tuple(yakuman), True)
    yaku.append(("chiitoitsu", han("chiitoitsu", True)))
    if not has_honor and all(k % 9 not in (0, 8) for k in kinds):
        yaku.append(("tanyao", han("tanyao", True)))
    if all(k in YAOCHUU for k in kinds) and has_honor and suits:
        yaku.append(("honroutou", han("honroutou", True)))
    if len(suits) == 1:
        yaku.append(("honitsu", han("honitsu", True)) if has_honor else ("chinitsu", han("chinitsu", True)))
    if sharin == "shousharin" and han("shousharin", True):
        if rules.shousharin_on_top:  # Y33: the 6 han counted on top of seven pairs and the flush
            yaku.append(("shousharin", han("shousharin", True)))
        else:
            # OFFICIAL / KANSAI: shousharin is a 6-han yaku that stands for the seven pairs and the
            # flush it is made of (A002-10); the scorer keeps whichever reading is worth more.
            alt = [(n, h) for n, h in yaku if n not in ("chiitoitsu", "honitsu", "chinitsu")]
            alt.append(("shousharin", han("shousharin", True)))
            if sum(h for _, h in alt) > sum(h for _, h in yaku):
                yaku = alt
    return tuple((n, h) for n, h in yaku if h > 0), ()


def evaluate_kokushi(t: YakuTable, situation: int, tsumo: bool, counts: list[int], win_kind: int
                     ) -> tuple[Line, ...]:
    """Thirteen orphans (Y37); the 13-sided wait when the hand held one of each before winning."""
    rules = t.rules
    yakuman: list[Line] = list(t.situation(situation, True, tsumo)[1])
    thirteen = counts[win_kind] == 2 and rules.yakuman.get("kokushi_13", 0)
    name = "kokushi_13" if thirteen else "kokushi"
    yakuman.append((name, rules.yakuman[name]))
    return tuple((n, m) for n, m in yakuman if m > 0)
