"""Every yaku row of RULES_MATRIX §3 (Y01-Y50) under every preset, end to end through score_hand.

Each case is one matrix row under one preset (test id ``<preset>-<row>-<what>``): a concrete
winning hand that shows the yaku, and the han (closed / open), yakuman multiplier, fu or absence
the matrix (or, for tenhou / majsoul, PLATFORMS.md) gives for that preset. Expected values are
written here as data, with their row id; they are never read from ``Rules`` (that would be
circular). Presets: club (seed 000), online (001), official (002), kansai (003), tenhou, majsoul.

Conventions for the hands below: mpsz strings, concealed tiles including the winning tile;
the default seat is East (dealer) in an East round; ``BASE`` is a complete hand without yaku.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import sanma
from sanma import NotAWinError, SanmaError, Score, ScoringError, TileError

PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")
DORA_LINES = frozenset({"dora", "aka_dora", "ura_dora", "kita_dora", "flower_dora"})

# A complete closed hand with no yaku at all (1m triplet, no fives, ryanmen 9s): the base for
# situational yaku. Without riichi / tsumo it is not a win anywhere.
BASE = "111m99m123p678p789s"
BASE_WIN = "9s"
# A closed pinfu shape without fives or honours (ryanmen 4s on 234s).
PINFU = "99m123p678p234s678s"
PINFU_WIN = "4s"


# --- expectations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Han:
    """Yaku ``name`` is present with ``han``."""

    name: str
    han: int


@dataclass(frozen=True)
class Ym:
    """Yakuman ``name`` (or its variant ``name_*``, e.g. kokushi_13) is present, worth ``mult``."""

    name: str
    mult: int


@dataclass(frozen=True)
class Absent:
    """No yaku line named ``name`` (or ``name_*``)."""

    name: str


@dataclass(frozen=True)
class Fu:
    fu: int


@dataclass(frozen=True)
class TotalHan:
    han: int


@dataclass(frozen=True)
class Mult:
    """Score.yakuman: total yakuman multiplier (kazoe = 1)."""

    mult: int


@dataclass(frozen=True)
class Limit:
    limit: str | None


@dataclass(frozen=True)
class DoraHan:
    """Sum of the dora lines (dora, aka_dora, ura_dora, kita_dora, flower_dora)."""

    han: int


@dataclass(frozen=True)
class Total:
    points: int


@dataclass(frozen=True)
class Raises:
    """score_hand raises this SanmaError subclass (NotAWinError when the yaku is the only one)."""

    exc: type[SanmaError]


NOWIN = Raises(NotAWinError)
Check = Han | Ym | Absent | Fu | TotalHan | Mult | Limit | DoraHan | Total | Raises


@dataclass(frozen=True)
class Case:
    row: str
    preset: str
    what: str
    hand: str
    win: str
    kw: Mapping[str, Any]
    checks: tuple[Check, ...]
    xfail: str = ""
    melds: tuple[str, ...] = field(default=())


def cases(
    row: str, what: str, hand: str, win: str, expect: Mapping[str, Check | tuple[Check, ...]],
    *, melds: tuple[str, ...] = (), xfail: Mapping[str, str] | None = None, **kw: Any,
) -> Iterator[Case]:
    """One case per preset named in ``expect`` (row, what the hand shows, expected checks)."""
    for preset, checks in expect.items():
        assert preset in PRESETS, preset
        cs = checks if isinstance(checks, tuple) else (checks,)
        yield Case(row, preset, what, hand, win, kw, cs, (xfail or {}).get(preset, ""), melds)


def each(check: Check | tuple[Check, ...], presets: tuple[str, ...] = PRESETS) -> dict[str, Check | tuple[Check, ...]]:
    return {p: check for p in presets}


def by(c: Check | tuple[Check, ...], o: Check | tuple[Check, ...], f: Check | tuple[Check, ...],
       k: Check | tuple[Check, ...], t: Check | tuple[Check, ...], m: Check | tuple[Check, ...]
       ) -> dict[str, Check | tuple[Check, ...]]:
    """Expectations in preset order club, online, official, kansai, tenhou, majsoul."""
    return dict(zip(PRESETS, (c, o, f, k, t, m), strict=True))


def _lines(score: Score, name: str) -> list[sanma.Yaku]:
    return [y for y in score.yaku if y.name == name or y.name.startswith(name + "_")]


def run(case: Case) -> None:
    rules = sanma.Rules.preset(case.preset)
    raises = [c for c in case.checks if isinstance(c, Raises)]
    if raises:
        with pytest.raises(raises[0].exc) as info:
            sanma.score_hand(case.hand, win=case.win, melds=case.melds, rules=rules, **case.kw)
        # the message names the input hand (ARCHITECTURE: errors name the bad input)
        assert str(info.value)
        return
    s = sanma.score_hand(case.hand, win=case.win, melds=case.melds, rules=rules, **case.kw)
    names = [(y.name, y.han, y.yakuman) for y in s.yaku]
    for c in case.checks:
        if isinstance(c, Han):
            got = [y.han for y in s.yaku if y.name == c.name]
            assert got == [c.han], f"{c.name}: expected {c.han} han, yaku were {names}"
        elif isinstance(c, Ym):
            got_m = sum(y.yakuman for y in _lines(s, c.name))
            assert _lines(s, c.name) and got_m == c.mult, f"{c.name}: expected x{c.mult}, yaku were {names}"
        elif isinstance(c, Absent):
            assert not [y for y in _lines(s, c.name) if y.han or y.yakuman], (
                f"{c.name} should be absent, yaku were {names}")
        elif isinstance(c, Fu):
            assert s.fu == c.fu, f"fu {s.fu} != {c.fu}; {s.fu_breakdown}"
        elif isinstance(c, TotalHan):
            assert s.han == c.han, f"han {s.han} != {c.han}; yaku were {names}"
        elif isinstance(c, Mult):
            assert s.yakuman == c.mult, f"yakuman x{s.yakuman} != x{c.mult}; yaku were {names}"
        elif isinstance(c, Limit):
            assert s.limit == c.limit, f"limit {s.limit} != {c.limit}; han {s.han} yaku {names}"
        elif isinstance(c, DoraHan):
            got_d = sum(y.han for y in s.yaku if y.name in DORA_LINES)
            assert got_d == c.han, f"dora {got_d} != {c.han}; yaku were {names}"
        elif isinstance(c, Total):
            assert s.total == c.points, f"total {s.total} != {c.points}; han {s.han} fu {s.fu}"


# --- the cases -----------------------------------------------------------------------------------

RIICHI = {"riichi": True}
NON_DEALER = {"seat_wind": "S"}


def all_cases() -> Iterator[Case]:
    # Y01 riichi 1/- everywhere.
    yield from cases("Y01", "riichi", BASE, BASE_WIN, each((Han("riichi", 1), TotalHan(1))), riichi=True)
    yield from cases("Y01", "no_yaku_without_riichi", BASE, BASE_WIN, each(NOWIN))
    # Y02 double riichi: 2 han total (CLUB A000-2: +1 on top of riichi = 2), replaces riichi.
    yield from cases("Y02", "double_riichi", BASE, BASE_WIN,
                     each((Han("double_riichi", 2), Absent("riichi"), TotalHan(2))), double_riichi=True)
    # Y03 open riichi: CLUB only, +1 on top of riichi (A000-2); 3 with double riichi.
    yield from cases("Y03", "open_riichi", BASE, BASE_WIN,
                     by((Han("riichi", 1), Han("open_riichi", 1), TotalHan(2)), Raises(ScoringError),
                        Raises(ScoringError), Raises(ScoringError), Raises(ScoringError), Raises(ScoringError)),
                     riichi=True, open_riichi=True)
    yield from cases("Y03", "double_open_riichi", BASE, BASE_WIN, {"club": TotalHan(3)},
                     double_riichi=True, open_riichi=True)
    # Y04 deal-in to an open riichi by a non-riichi player: CLUB yakuman.
    yield from cases("Y04", "open_riichi_deal_in", BASE, BASE_WIN, {"club": (Ym("open_riichi_deal_in", 1), Mult(1))},
                     riichi=True, open_riichi=True, open_riichi_deal_in=True)
    yield from cases("Y04", "not_a_yakuman", BASE, BASE_WIN,
                     each(Absent("open_riichi_deal_in"), PRESETS[1:]), riichi=True, open_riichi_deal_in=True)
    # Y05 ippatsu 1.
    yield from cases("Y05", "ippatsu", BASE, BASE_WIN, each((Han("ippatsu", 1), TotalHan(2))),
                     riichi=True, ippatsu=True)
    # Y06 menzen tsumo 1/-.
    yield from cases("Y06", "menzen_tsumo", BASE, BASE_WIN, each((Han("menzen_tsumo", 1), TotalHan(1))), tsumo=True)
    # Y07 pinfu 1/- (ron: 30 fu everywhere).
    yield from cases("Y07", "pinfu_ron", PINFU, PINFU_WIN, each((Han("pinfu", 1), TotalHan(1), Fu(30))))
    # Y07/P54: pinfu tsumo is 20 fu 2 han; OFFICIAL: no pinfu on tsumo (「ツモ平和なし」, A002-16), 30 fu.
    pt = (Han("pinfu", 1), Han("menzen_tsumo", 1), TotalHan(2), Fu(20))
    yield from cases("Y07", "pinfu_tsumo_20fu_P54", PINFU, PINFU_WIN,
                     by(pt, pt, (Absent("pinfu"), Han("menzen_tsumo", 1), TotalHan(1), Fu(30)), pt, pt, pt),
                     tsumo=True)
    # Y07/P15: a North pair is a guest wind (ONLINE/tenhou/majsoul: pinfu allowed); yakuhai for
    # all under CLUB (empty seat's wind, A000-26 default) and KANSAI; not in hand under OFFICIAL.
    npf = "123p678p234s678s44z"
    yield from cases("Y07", "north_pair_P15", npf, "4s",
                     by(Absent("pinfu"), Han("pinfu", 1), NOWIN, Absent("pinfu"), Han("pinfu", 1), Han("pinfu", 1)),
                     riichi=True)
    # Y08 tanyao: closed 1 everywhere.
    tan = "222p678p234s678s88s"
    yield from cases("Y08", "tanyao_closed", tan, "3s", each((Han("tanyao", 1), TotalHan(1))))
    # Y08/P66 kuitan: ONLINE/tenhou/majsoul 1 open; CLUB/KANSAI no kuitan; OFFICIAL open tanyao
    # alone is not a win.
    yield from cases("Y08", "kuitan_alone_P66", "678p234s678s88s", "3s",
                     by(NOWIN, Han("tanyao", 1), NOWIN, NOWIN, Han("tanyao", 1), Han("tanyao", 1)),
                     melds=("pon:222p",))
    # OFFICIAL: open tanyao combines with another yaku (here toitoi + sanankou).
    yield from cases("Y08", "kuitan_with_toitoi_P66", "666p888p333s44s", "4s",
                     by(Absent("tanyao"), Han("tanyao", 1), (Han("tanyao", 1), Han("toitoi", 2)), Absent("tanyao"),
                        Han("tanyao", 1), Han("tanyao", 1)),
                     melds=("pon:222p",))
    # Y09 iipeikou 1/-.
    yield from cases("Y09", "iipeikou", "223344p678p678s99m", "2p", each(Han("iipeikou", 1)))
    # Y10 yakuhai 1 per set, closed and open.
    yield from cases("Y10", "haku_closed", "555z123p678p234s99m", "4s", each((Han("yakuhai_haku", 1), TotalHan(1))))
    yield from cases("Y10", "haku_open", "123p678p234s99m", "4s", each((Han("yakuhai_haku", 1), TotalHan(1))),
                     melds=("pon:555z",))
    yield from cases("Y10", "seat_wind_south", "222z123p678p234s99m", "4s",
                     each((Han("yakuhai_seat_wind", 1), TotalHan(1))), seat_wind="S")
    yield from cases("Y10", "round_wind_east", "111z123p678p234s99m", "4s",
                     each((Han("yakuhai_round_wind", 1), TotalHan(1))), seat_wind="S")
    # Y10: East for the East dealer in an East round = seat + round = 2 han.
    yield from cases("Y10", "double_east", "111z123p678p234s99m", "4s",
                     each((Han("yakuhai_seat_wind", 1), Han("yakuhai_round_wind", 1), TotalHan(2))))
    # Y10/P15/P74 North triplet: CLUB yakuhai for all (empty seat's wind), KANSAI yakuhai for all;
    # ONLINE/tenhou/majsoul guest wind (no yaku); OFFICIAL North may not stay in the hand.
    nt = "444z123p678p234s99m"
    yield from cases("Y10", "north_triplet_P15", nt, "4s",
                     by(Han("yakuhai_north", 1), NOWIN, NOWIN, Han("yakuhai_north", 1), NOWIN, NOWIN), seat_wind="S")
    yield from cases("Y10", "north_triplet_guest_wind_P15", nt, "4s",
                     by(Han("yakuhai_north", 1), (Absent("yakuhai"), TotalHan(1)), NOWIN, Han("yakuhai_north", 1),
                        (Absent("yakuhai"), TotalHan(1)), (Absent("yakuhai"), TotalHan(1))),
                     seat_wind="S", riichi=True)
    # Y11 rinshan 1 (after an ankan, with menzen tsumo).
    yield from cases("Y11", "rinshan", "123p678p234s99m", "4s", each((Han("rinshan", 1), Han("menzen_tsumo", 1))),
                     melds=("ankan:9999s",), tsumo=True, rinshan=True)
    # Y12 chankan 1.
    yield from cases("Y12", "chankan", PINFU, PINFU_WIN, each(Han("chankan", 1)), chankan=True)
    # Y13 kanburi: CLUB 1; not listed elsewhere.
    yield from cases("Y13", "kanburi", PINFU, PINFU_WIN,
                     by(Han("kanburi", 1), Absent("kanburi"), Absent("kanburi"), Absent("kanburi"), Absent("kanburi"),
                        Absent("kanburi")), kanburi=True)
    # Y14 haitei 1, Y15 houtei 1.
    yield from cases("Y14", "haitei", BASE, BASE_WIN, each((Han("haitei", 1), TotalHan(2))), tsumo=True, haitei=True)
    yield from cases("Y15", "houtei", BASE, BASE_WIN, each((Han("houtei", 1), TotalHan(1))), houtei=True)
    # Y17 ittsu 2/1; KANSAI open ittsu only on a kanchan or penchan wait (P70).
    yield from cases("Y17", "ittsu_closed", "123456789p234s99m", "2s", each(Han("ittsu", 2)))
    yield from cases("Y17", "ittsu_open_kanchan_P70", "123456789p99s", "5p", each(Han("ittsu", 1)),
                     melds=("pon:555z",))
    yield from cases("Y17", "ittsu_open_penchan_P70", "123456789p99s", "3p", each(Han("ittsu", 1)),
                     melds=("pon:555z",))
    yield from cases("Y17", "ittsu_open_ryanmen_P70", "123456789p99s", "4p",
                     by(Han("ittsu", 1), Han("ittsu", 1), Han("ittsu", 1), (Absent("ittsu"), Han("yakuhai_haku", 1)),
                        Han("ittsu", 1), Han("ittsu", 1)),
                     melds=("pon:555z",))
    # Y18 chanta 2/1.
    yield from cases("Y18", "chanta_closed", "111m123p789p789s77z", "3p", each((Han("chanta", 2), TotalHan(2))))
    yield from cases("Y18", "chanta_open", "123p789p789s77z", "3p", each((Han("chanta", 1), TotalHan(1))),
                     melds=("pon:111m",))
    # Y19/P53 chiitoitsu 2/-: fu 25 (CLUB, ONLINE, tenhou, majsoul), 30 (OFFICIAL), 40 (KANSAI).
    # Non-dealer ron: 25 fu 2 han 1,600; 30 fu 2,000; 40 fu 2,600.
    ct = "1199m2244p6688s33z"
    c25 = (Han("chiitoitsu", 2), Fu(25), Total(1600))
    yield from cases("Y19", "chiitoi_fu_P53", ct, "3z",
                     by(c25, c25, (Han("chiitoitsu", 2), Fu(30), Total(2000)),
                        (Han("chiitoitsu", 2), Fu(40), Total(2600)), c25, c25), seat_wind="S")
    # P73: four identical tiles as two pairs only under KANSAI.
    yield from cases("Y19", "chiitoi_four_of_a_kind_P73", "1111m2244p6688s33z", "3z",
                     by(NOWIN, NOWIN, NOWIN, Han("chiitoitsu", 2), NOWIN, NOWIN), seat_wind="S")
    # Y20 toitoi 2/2.
    yield from cases("Y20", "toitoi_open", "111p999p333s22s", "2s", each(Han("toitoi", 2)), melds=("pon:777z",))
    # Y21 sanankou 2/2; CLUB splits it (A000-6): deki 3 (three concealed triplets complete at
    # tenpai), tsumori 2 (the third completed by tsumo); a ron on the shanpon leaves two.
    sa = "111p999p333s789s22s"
    yield from cases("Y21", "sanankou_deki_A000-6", sa, "7s",
                     by((Han("deki_sanankou", 3), Absent("tsumori_sanankou")), Han("sanankou", 2), Han("sanankou", 2),
                        Han("sanankou", 2), Han("sanankou", 2), Han("sanankou", 2)))
    yield from cases("Y21", "sanankou_tsumori_A000-6", sa, "3s",
                     by((Han("tsumori_sanankou", 2), Absent("deki_sanankou")), Han("sanankou", 2), Han("sanankou", 2),
                        Han("sanankou", 2), Han("sanankou", 2), Han("sanankou", 2)), tsumo=True)
    # ONLINE: on ron the winning tile must not complete one of the three triplets.
    yield from cases("Y21", "sanankou_not_on_shanpon_ron", sa, "3s",
                     each((Absent("sanankou"), Absent("deki_sanankou"), Absent("tsumori_sanankou"))), riichi=True)
    yield from cases("Y21", "sanankou_open", "111p999p333s22s", "2s",
                     by(Han("deki_sanankou", 3), Han("sanankou", 2), Han("sanankou", 2), Han("sanankou", 2),
                        Han("sanankou", 2), Han("sanankou", 2)), melds=("pon:777z",))
    # Y22 sankantsu 2/2.
    yield from cases("Y22", "sankantsu", "789s22s", "2s", each(Han("sankantsu", 2)),
                     melds=("ankan:1111p", "kan:9999p", "kan:3333s"))
    # Y23 sanrenkou: CLUB/OFFICIAL/KANSAI 2/2; not in ONLINE/tenhou/majsoul.
    yield from cases("Y23", "sanrenkou_open", "333p444p678s99m", "6s",
                     by(Han("sanrenkou", 2), NOWIN, Han("sanrenkou", 2), Han("sanrenkou", 2), NOWIN, NOWIN),
                     melds=("pon:222p",))
    yield from cases("Y23", "sanrenkou_closed", "222p333p444p678s99m", "6s",
                     by(Han("sanrenkou", 2), Absent("sanrenkou"), Han("sanrenkou", 2), Han("sanrenkou", 2),
                        Absent("sanrenkou"), Absent("sanrenkou")), riichi=True)
    # P71 KANSAI: void when 2 or more of its triplets were called.
    yield from cases("Y23", "sanrenkou_two_called_P71", "444p678s99m", "6s",
                     {"club": Han("sanrenkou", 2), "official": Han("sanrenkou", 2), "kansai": NOWIN},
                     melds=("pon:222p", "pon:333p"))
    # Y24 sanpuu: OFFICIAL/KANSAI 2/2 (E, S, W triplets); not CLUB/ONLINE/tenhou/majsoul.
    sp = "111z222z333z123p99m"
    yield from cases("Y24", "sanpuu", sp, "3p",
                     by(Absent("sanpuu"), Absent("sanpuu"), Han("sanpuu", 2), Han("sanpuu", 2), Absent("sanpuu"),
                        Absent("sanpuu")), seat_wind="S")
    yield from cases("Y24", "sanpuu_open", "222z333z123p99m", "3p",
                     {"official": Han("sanpuu", 2), "kansai": Han("sanpuu", 2), "online": Absent("sanpuu")},
                     melds=("pon:111z",), seat_wind="S")
    yield from cases("Y24", "sanpuu_two_called_P71", "333z123p99m", "3p",
                     {"official": Han("sanpuu", 2), "kansai": Absent("sanpuu")},
                     melds=("pon:111z", "pon:222z"), seat_wind="S")
    # KANSAI (North in play, A003-19): any three different wind triplets.
    yield from cases("Y24", "sanpuu_with_north_A003-19", "222z333z444z123p99m", "3p",
                     {"kansai": Han("sanpuu", 2)}, seat_wind="S")
    # Y25 honroutou 2/2.
    yield from cases("Y25", "honroutou_toitoi", "999p111s777z99s", "7z",
                     each((Han("honroutou", 2), Han("toitoi", 2))), melds=("pon:111m",))
    # Y26 shousangen 2/2 (+ the two dragon yakuhai = 4, CLUB 「合わせて4ハン」).
    yield from cases("Y26", "shousangen_closed", "555z666z77z123p789s", "3p",
                     each((Han("shousangen", 2), Han("yakuhai_haku", 1), Han("yakuhai_hatsu", 1))))
    yield from cases("Y26", "shousangen_open", "666z77z123p789s", "3p",
                     each((Han("shousangen", 2), Han("yakuhai_haku", 1), Han("yakuhai_hatsu", 1))), melds=("pon:555z",))
    # Y27 sanshoku doukou: CLUB 3/3, others 2/2; KANSAI void with 2+ called (P71).
    sd = by(Han("sanshoku_doukou", 3), Han("sanshoku_doukou", 2), Han("sanshoku_doukou", 2),
            Han("sanshoku_doukou", 2), Han("sanshoku_doukou", 2), Han("sanshoku_doukou", 2))
    yield from cases("Y27", "sanshoku_doukou_closed", "111m111p111s789p99s", "8p", sd)
    yield from cases("Y27", "sanshoku_doukou_open", "111p111s789p99s", "8p", sd, melds=("pon:111m",))
    yield from cases("Y27", "sanshoku_doukou_two_called_P71", "111s789p99s", "8p",
                     by(Han("sanshoku_doukou", 3), Han("sanshoku_doukou", 2), Han("sanshoku_doukou", 2),
                        (Absent("sanshoku_doukou"), Han("junchan", 2)), Han("sanshoku_doukou", 2),
                        Han("sanshoku_doukou", 2)),
                     melds=("pon:111m", "pon:111p"))
    # Y28 honitsu 3/2.
    yield from cases("Y28", "honitsu_closed", "234p678p999p555z22z", "2p", each(Han("honitsu", 3)))
    yield from cases("Y28", "honitsu_open", "234p678p999p22z", "2p", each(Han("honitsu", 2)), melds=("pon:555z",))
    # Y29 ryanpeikou 3/- (not also chiitoi).
    yield from cases("Y29", "ryanpeikou", "223344p667788s99m", "2p",
                     each((Han("ryanpeikou", 3), Absent("chiitoitsu"), Absent("iipeikou"))))
    # Y30 junchan: CLUB 4/3 (「一般的ルールより1ハン多い」), others 3/2.
    yield from cases("Y30", "junchan_closed", "111m123p789p789s99s", "3p",
                     by(Han("junchan", 4), Han("junchan", 3), Han("junchan", 3), Han("junchan", 3), Han("junchan", 3),
                        Han("junchan", 3)))
    yield from cases("Y30", "junchan_open", "123p789p789s99s", "3p",
                     by(Han("junchan", 3), Han("junchan", 2), Han("junchan", 2), Han("junchan", 2), Han("junchan", 2),
                        Han("junchan", 2)), melds=("pon:111m",))
    # Y31 chinitsu 6/5.
    yield from cases("Y31", "chinitsu_closed", "11123334678999p", "6p", each(Han("chinitsu", 6)))
    yield from cases("Y31", "chinitsu_open", "23334678999p", "6p", each(Han("chinitsu", 5)), melds=("pon:111p",))
    # Y33 shousharin: CLUB yakuman (pairs 1-7 or 3-9, p or s); OFFICIAL 6 han = honitsu seven
    # pairs (A002-10, replaces chiitoi 2 + honitsu 3); KANSAI the same (seed 003's undefined
    # 「小車輪」→6翻 read with seed 002's definition, A003-19, issue 13); not ONLINE/tenhou/majsoul.
    yield from cases("Y33", "shousharin_1_to_7", "11223344556677s", "7s",
                     by((Ym("shousharin", 1), Mult(1)), Absent("shousharin"), Absent("shousharin"),
                        Absent("shousharin"), Absent("shousharin"), Absent("shousharin")))
    yield from cases("Y33", "shousharin_3_to_9", "33445566778899p", "9p",
                     {"club": (Ym("shousharin", 1), Mult(1)), "online": Absent("shousharin")})
    yield from cases("Y33", "shousharin_honitsu_chiitoi_A002-10", "11337799p112233z", "1z",
                     by((Absent("shousharin"), Han("chiitoitsu", 2), Han("honitsu", 3)), Absent("shousharin"),
                        (Han("shousharin", 6), Absent("chiitoitsu"), Absent("honitsu"), TotalHan(6)),
                        (Han("shousharin", 6), Absent("chiitoitsu"), Absent("honitsu"), TotalHan(6)),
                        Absent("shousharin"), Absent("shousharin")),
                     seat_wind="S")
    # Y34 daisharin: CLUB 2Y (p or s, pairs 2-8); ONLINE Y (pin only); OFFICIAL Y (any chinitsu
    # seven pairs, A002-11); KANSAI Y (2-8, p or s, A003-19); not tenhou/majsoul.
    yield from cases("Y34", "daisharin_pin", "22334455667788p", "8p",
                     by(Ym("daisharin", 2), Ym("daisharin", 1), Ym("daisharin", 1), Ym("daisharin", 1),
                        Absent("daisharin"), Absent("daisharin")))
    yield from cases("Y34", "daisharin_sou", "22334455667788s", "8s",
                     by(Ym("daisharin", 2), Absent("daisharin"), Ym("daisharin", 1), Ym("daisharin", 1),
                        Absent("daisharin"), Absent("daisharin")))
    yield from cases("Y34", "daisharin_any_chinitsu_chiitoi_A002-11", "11334466778899p", "9p",
                     by(Absent("daisharin"), Absent("daisharin"), Ym("daisharin", 1), Absent("daisharin"),
                        Absent("daisharin"), Absent("daisharin")))
    # Y35 suurenkou: CLUB/OFFICIAL/KANSAI Y; not ONLINE/tenhou/majsoul.
    yield from cases("Y35", "suurenkou_open", "222s333s444s99m", "9m",
                     by(Ym("suurenkou", 1), Absent("suurenkou"), Ym("suurenkou", 1), Ym("suurenkou", 1),
                        Absent("suurenkou"), Absent("suurenkou")), melds=("pon:111s",))
    # CLUB P62: closed (ron on the shanpon, so not suuankou) = +1 menzen yakuman bonus.
    yield from cases("Y35", "suurenkou_closed_P62", "111s222s333s444s99m", "4s",
                     {"club": (Ym("suurenkou", 1), Mult(2)), "official": Mult(1), "kansai": Mult(1)})
    # Y36 mankon (man-suit honitsu): KANSAI Y only; OFFICIAL explicitly an ordinary honitsu.
    yield from cases("Y36", "mankon", "111m999m222z33z", "3z",
                     by((Absent("mankon"), Han("honitsu", 2)), (Absent("mankon"), Han("honitsu", 2)),
                        (Absent("mankon"), Han("honitsu", 2)), (Ym("mankon", 1), Mult(1)),
                        (Absent("mankon"), Han("honitsu", 2)), (Absent("mankon"), Han("honitsu", 2))),
                     melds=("pon:555z",))
    # Y37 kokushi Y; 13-sided wait 2Y in CLUB, ONLINE, majsoul; single in OFFICIAL, KANSAI, tenhou.
    ko = "119m19p19s1234567z"
    yield from cases("Y37", "kokushi", ko, "9m", each((Ym("kokushi", 1), Mult(1))))
    yield from cases("Y37", "kokushi_13_sided_P61", ko, "1m",
                     by(Mult(2), Mult(2), Mult(1), Mult(1), Mult(1), Mult(2)))
    # Y38 suuankou Y; tanki 2Y in CLUB, ONLINE, majsoul.
    su = "111p999p333s999s22s"
    yield from cases("Y38", "suuankou_tsumo", su, "3s", each((Ym("suuankou", 1), Mult(1))), tsumo=True)
    yield from cases("Y38", "suuankou_tanki_P61", su, "2s", by(Mult(2), Mult(2), Mult(1), Mult(1), Mult(1), Mult(2)))
    yield from cases("Y38", "shanpon_ron_is_not_suuankou", su, "3s", each((Absent("suuankou"), Mult(0))))
    # Y39 daisangen Y (CLUB closed: +1, P62).
    yield from cases("Y39", "daisangen_open", "666z777z123p99s", "3p", each((Ym("daisangen", 1), Mult(1))),
                     melds=("pon:555z",))
    yield from cases("Y39", "daisangen_closed_P62", "555z666z777z123p99s", "3p",
                     by(Mult(2), Mult(1), Mult(1), Mult(1), Mult(1), Mult(1)))
    # Y40 tsuuiisou Y; with daisangen = 2 (P60 stacking); CLUB closed = 2 + 1 (P62 example).
    yield from cases("Y40", "tsuuiisou_open", "222z333z555z66z", "6z", each((Ym("tsuuiisou", 1), Mult(1))),
                     melds=("pon:111z",))
    yield from cases("Y40", "tsuuiisou_daisangen_closed_P60_P62", "555z666z777z111z22z", "1z",
                     by(Mult(3), Mult(2), Mult(2), Mult(2), Mult(2), Mult(2)))
    yield from cases("Y40", "tsuuiisou_daisangen_open_P60", "666z777z111z22z", "1z", each(Mult(2)),
                     melds=("pon:555z",))
    # Seven-pairs form: CLUB 2Y (「七対子形はダブル」) plus the menzen bonus (字一色 may contain
    # pon and was completed without calls, P62) = 3; single elsewhere; not a tsuuiisou under ONLINE,
    # whose seed defines 字一色 as 「字牌のみで1雀頭4面子」 (issue 13; A001-16 had allowed it).
    yield from cases("Y40", "tsuuiisou_chiitoi_P61_P62", "11223344556677z", "7z",
                     by(Mult(3), (Mult(0), Absent("tsuuiisou"), Han("chiitoitsu", 2)), Mult(1), Mult(1), Mult(1),
                        Mult(1)))
    # Y41 shousuushii Y (CLUB closed +1).
    yield from cases("Y41", "shousuushii_closed", "111z222z333z44z123p", "3p",
                     by(Mult(2), Mult(1), Mult(1), Mult(1), Mult(1), Mult(1)))
    yield from cases("Y41", "shousuushii_open", "222z333z44z123p", "3p", each((Ym("shousuushii", 1), Mult(1))),
                     melds=("pon:111z",))
    # Y42 daisuushii: 2Y in CLUB, ONLINE, majsoul; single in OFFICIAL (A002-20), KANSAI, tenhou.
    yield from cases("Y42", "daisuushii_P61", "222z333z444z99p", "9p",
                     by(Mult(2), Mult(2), Mult(1), Mult(1), Mult(1), Mult(2)), melds=("pon:111z",))
    # Y43 ryuuiisou Y, hatsu not required (CLUB closed +1).
    yield from cases("Y43", "ryuuiisou_open", "333s444s666s88s", "8s", each((Ym("ryuuiisou", 1), Mult(1))),
                     melds=("pon:222s",))
    yield from cases("Y43", "ryuuiisou_closed_P62", "223344s666s888s66z", "6z",
                     by(Mult(2), Mult(1), Mult(1), Mult(1), Mult(1), Mult(1)))
    # CLUB example: ryuuiisou with suuankou tanki = 1 + 2 + 1 = 4.
    yield from cases("Y43", "ryuuiisou_suuankou_tanki_P60_P62", "22233344466688s", "8s",
                     by(Mult(4), Mult(3), Mult(2), Mult(2), Mult(2), Mult(3)))
    # Y44 chinroutou Y.
    yield from cases("Y44", "chinroutou", "999m111p999p11s", "1s", each((Ym("chinroutou", 1), Mult(1))),
                     melds=("pon:111m",))
    # Y45 suukantsu Y.
    yield from cases("Y45", "suukantsu", "99m", "9m", each((Ym("suukantsu", 1), Mult(1))),
                     melds=("ankan:1111p", "kan:9999p", "kan:2222s", "kan:8888s"))
    # Y46 chuuren Y; junsei nine-sided 2Y in CLUB, ONLINE, majsoul.
    yield from cases("Y46", "chuuren", "11123455678999p", "2p", each((Ym("chuuren", 1), Mult(1))))
    yield from cases("Y46", "chuuren_9_sided_P61", "11112345678999p", "1p",
                     by(Mult(2), Mult(2), Mult(1), Mult(1), Mult(1), Mult(2)))
    # Y47 tenhou: CLUB 2Y, others Y.
    yield from cases("Y47", "tenhou", PINFU, PINFU_WIN, by(Mult(2), Mult(1), Mult(1), Mult(1), Mult(1), Mult(1)),
                     tsumo=True, tenhou=True)
    # Y48 chiihou Y.
    yield from cases("Y48", "chiihou", PINFU, PINFU_WIN, each((Ym("chiihou", 1), Mult(1))), tsumo=True,
                     chiihou=True, seat_wind="S")
    # Y49/P63 renhou: yakuman needing no other yaku (CLUB, ONLINE, KANSAI default); OFFICIAL
    # mangan (「人和は満貫扱い」: non-dealer ron 8,000); tenhou/majsoul: an optional (local) yaku
    # that neither platform uses (riichi.wiki Renhou: "optional yaku"; Tenhou: 人和なし).
    yield from cases("Y49", "renhou_P63", BASE, BASE_WIN,
                     by((Ym("renhou", 1), Mult(1)), (Ym("renhou", 1), Mult(1)),
                        (Mult(0), Limit("mangan"), Total(8000)), (Ym("renhou", 1), Mult(1)), NOWIN, NOWIN),
                     seat_wind="S", renhou=True)
    # Y50/P59 kazoe yakuman: 13 han (CLUB, ONLINE, tenhou, majsoul), 14 han (OFFICIAL, KANSAI).
    # 123p123p789p789p99p closed ron on 1p: pinfu 1 + ryanpeikou 3 + junchan 3 + chinitsu 6 = 13
    # (CLUB junchan 4: 14); on 2p (kanchan, no pinfu): 12 (CLUB 13).
    kz = "11223377889999p"
    kaz = (Mult(1), Limit("yakuman"))
    yield from cases("Y50", "kazoe_13_han_P59", kz, "1p",
                     by((*kaz, TotalHan(14)), (*kaz, TotalHan(13)), (Mult(0), Limit("sanbaiman"), TotalHan(13)),
                        (Mult(0), Limit("sanbaiman"), TotalHan(13)), (*kaz, TotalHan(13)), (*kaz, TotalHan(13))))
    yield from cases("Y50", "kazoe_12_or_club_13_P59", kz, "2p",
                     by((*kaz, TotalHan(13)), (Mult(0), Limit("sanbaiman"), TotalHan(12)),
                        (Mult(0), Limit("sanbaiman"), TotalHan(12)), (Mult(0), Limit("sanbaiman"), TotalHan(12)),
                        (Mult(0), Limit("sanbaiman"), TotalHan(12)), (Mult(0), Limit("sanbaiman"), TotalHan(12))))
    yield from cases("Y50", "kazoe_14_han_P59", kz, "1p",
                     {"official": (*kaz, TotalHan(14)), "kansai": (*kaz, TotalHan(14))}, riichi=True)


def _params() -> list[Any]:
    out = []
    seen: set[str] = set()
    for c in all_cases():
        cid = f"{c.preset}-{c.row}-{c.what}"
        assert cid not in seen, cid
        seen.add(cid)
        marks = [pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else []
        out.append(pytest.param(c, id=cid, marks=marks))
    return out


@pytest.mark.parametrize("case", _params())
def test_yaku_row_under_preset(case: Case) -> None:
    """RULES_MATRIX §3 row ``case.row`` under preset ``case.preset`` (id: preset-row-what)."""
    run(case)


# --- rows that are not a hand pattern -----------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_sanshoku_doujun_is_impossible_without_2m_to_8m_Y16(preset: str) -> None:
    """Y16: no manzu sequences exist (2m-8m removed), so sanshoku doujun can never be made; the
    tiles needed cannot even be written, and a hand with 123p 123s and 1m/9m shows no sanshoku."""
    with pytest.raises(TileError):
        sanma.parse_tiles("123m")
    s = sanma.score_hand("123p123s111m99m789p", win="3p", riichi=True, rules=sanma.Rules.preset(preset))
    assert not [y for y in s.yaku if "sanshoku" in y.name]


NAGASHI = {  # Y32 / P96: value and whether it is a win
    "club": ("baiman", True),
    "online": ("mangan", False),
    "official": ("yakuman", True),
    "kansai": ("yakuman", True),  # A003-12: treated as a yakuman tsumo win
    "tenhou": ("mangan", False),
    "majsoul": ("mangan", False),
}


@pytest.mark.parametrize("preset", PRESETS)
def test_nagashi_value_and_kind_Y32_P96(preset: str) -> None:
    """Y32/P96: nagashi is baiman win (CLUB), mangan draw (ONLINE, tenhou, majsoul), yakuman win
    (OFFICIAL, KANSAI per A003-12). Not a hand shape, so checked on the preset."""
    r = sanma.Rules.preset(preset)
    assert (r.nagashi, r.nagashi_is_win) == NAGASHI[preset]


# --- modifiers that are not yaku: dora, red fives, kita, flowers, kan bonus, shibari ----------

FIVES = "11m123456p456789s"  # one 5p and one 5s; riichi ron on 1p (penchan-free ryanmen)


@pytest.mark.parametrize("preset", PRESETS)
def test_indicator_successor_wraps_1m_9m_P08(preset: str) -> None:
    """P08: in sanma indicator 1m -> 9m and 9m -> 1m; 9p -> 1p; N -> E (BASE holds 111m, 99m)."""
    r = sanma.Rules.preset(preset)

    def dora(ind: str) -> int:
        s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, dora_indicators=[ind], rules=r)
        return sum(y.han for y in s.yaku if y.name == "dora")

    assert dora("1m") == 2  # 99m
    assert dora("9m") == 3  # 111m
    assert dora("9p") == 1  # 1p of 123p
    assert dora("4z") == 0  # East: none in hand


@pytest.mark.parametrize(
    ("indicators", "expected"),
    [((), 2), (("4p",), 3), (("4p", "4p"), 4), (("4p", "4s"), 4), (("4s", "4s"), 4)],
    ids=["none", "one_4p", "two_4p", "4p_and_4s", "two_4s"],
)
def test_club_fives_always_dora_additive_P06_P09_A000_5(indicators: tuple[str, ...], expected: int) -> None:
    """P06/P09/A000-5 (CLUB): every 5p/5s is 1 dora; an indicator 4 adds 1 per five (「めくり牌が
    4のときは1枚でドラ2」, two 4s → 3). Hand: one 5p + one 5s."""
    s = sanma.score_hand(FIVES, win="1p", riichi=True, dora_indicators=list(indicators),
                         rules=sanma.Rules.preset("club"))
    assert sum(y.han for y in s.yaku if y.name in DORA_LINES) == expected


def test_club_red_paint_is_irrelevant_P05() -> None:
    """P05 (CLUB): red paint is ignored (「赤色は関係ない」): a red 5p is worth exactly what a 5p is."""
    s = sanma.score_hand("11m123406p456789s", win="1p", riichi=True,
                         rules=sanma.Rules.preset("club"))
    assert sum(y.han for y in s.yaku if y.name in DORA_LINES) == 2


RED_FIVES = {  # P05: hand with one red 5p and one red 5s -> aka dora; plain fives -> 0 unless all red
    "online": (2, 0),
    "official": (2, 0),
    "kansai": (2, 2),  # P05/P06: all eight fives are red dora (「5の牌は全て赤でドラ扱い」)
    "tenhou": (2, 0),
    "majsoul": (2, 0),
}


@pytest.mark.parametrize("preset", sorted(RED_FIVES))
def test_red_fives_per_preset_P05(preset: str) -> None:
    """P05/P06: ONLINE, tenhou, majsoul 1 red 5p + 1 red 5s; OFFICIAL 2 + 2; KANSAI every five is
    red: a red 5p and red 5s give 2 dora everywhere, plain 5p/5s give 2 only in KANSAI."""
    r = sanma.Rules.preset(preset)
    red, plain = RED_FIVES[preset]
    s = sanma.score_hand("11m123406p406789s", win="1p", riichi=True, rules=r)
    assert sum(y.han for y in s.yaku if y.name in DORA_LINES) == red
    s = sanma.score_hand(FIVES, win="1p", riichi=True, rules=r)
    assert sum(y.han for y in s.yaku if y.name in DORA_LINES) == plain


def test_official_two_red_fives_per_suit_P05() -> None:
    """P05 (OFFICIAL): 「赤牌は5ピン・5ソウ、２枚ずつ」 — two red 5p in one hand are 2 aka dora."""
    s = sanma.score_hand("11m123340340p789s", win="1p", riichi=True, rules=sanma.Rules.preset("official"))
    assert [y.han for y in s.yaku if y.name == "aka_dora"] == [2]


KITA = {"online": True, "official": True, "tenhou": True, "majsoul": True, "club": False, "kansai": False}


@pytest.mark.parametrize("preset", PRESETS)
def test_kita_dora_and_west_indicator_P15_P16(preset: str) -> None:
    """P15/P16: a pulled North is 1 dora (ONLINE, OFFICIAL, tenhou, majsoul); with a West
    indicator North is dora too, so each kita is worth 2. CLUB (no kita-nuki, 「北抜きのドラ」
    not used) and KANSAI (North is yakuhai, not dora) reject kita."""
    r = sanma.Rules.preset(preset)
    if not KITA[preset]:
        with pytest.raises(ScoringError, match=r"North|kita"):
            sanma.score_hand(BASE, win=BASE_WIN, riichi=True, kita=1, rules=r)
        return
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, kita=1, rules=r)
    assert [y.han for y in s.yaku if y.name == "kita_dora"] == [1]
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, kita=2, dora_indicators=["3z"], rules=r)
    assert sum(y.han for y in s.yaku if y.name in DORA_LINES) == 4


@pytest.mark.parametrize("preset", PRESETS)
def test_flowers_only_kansai_P02_P04(preset: str) -> None:
    """P02/P04: KANSAI uses 4 flowers, each 1 dora (A003-2); no other preset has flowers."""
    r = sanma.Rules.preset(preset)
    if preset == "kansai":
        s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, flowers=2, rules=r)
        assert [y.han for y in s.yaku if y.name == "flower_dora"] == [2]
    else:
        with pytest.raises(ScoringError, match="flower"):
            sanma.score_hand(BASE, win=BASE_WIN, riichi=True, flowers=1, rules=r)


KAN_HAND = "678p789s234s99m"  # + ankan 1111p, riichi ron on 9s


def test_official_kan_adds_one_han_below_mangan_P56_A002_6() -> None:
    """P56/A002-6 (OFFICIAL): +1 han per kan while the hand is below mangan (riichi 1 + kan 1 = 2
    han at 30 fu; non-dealer ron 2,000)."""
    s = sanma.score_hand(KAN_HAND, win="9s", melds=["ankan:1111p"], riichi=True, seat_wind="S",
                         rules=sanma.Rules.preset("official"))
    assert [y.han for y in s.yaku if y.name == "kan_bonus"] == [1]
    assert (s.han, s.fu, s.total) == (2, 30, 2000)


def test_official_kan_bonus_lifts_4_han_to_mangan_A002_6() -> None:
    """A002-6: 4 han 30 fu (7,700, no kiriage) + 1 kan = 5 han = mangan (8,000 non-dealer ron)."""
    s = sanma.score_hand(KAN_HAND, win="9s", melds=["ankan:1111p"], riichi=True, seat_wind="S",
                         dora_indicators=["1s", "7s", "8s"], rules=sanma.Rules.preset("official"))
    assert (s.han, s.limit, s.total) == (5, "mangan", 8000)


def test_official_kan_bonus_not_counted_at_mangan_A002_6() -> None:
    """A002-6: a hand already mangan (riichi + 4 dora from 1111p under a 9p indicator) gets no
    kan bonus (never lifts mangan to haneman)."""
    s = sanma.score_hand(KAN_HAND, win="9s", melds=["ankan:1111p"], riichi=True, seat_wind="S",
                         dora_indicators=["9p"], rules=sanma.Rules.preset("official"))
    assert not [y for y in s.yaku if y.name == "kan_bonus"]
    assert (s.han, s.limit) == (5, "mangan")


@pytest.mark.parametrize("preset", ["club", "online", "kansai", "tenhou", "majsoul"])
def test_no_kan_bonus_outside_official_P56(preset: str) -> None:
    """P56: only OFFICIAL adds han for kans (riichi alone = 1 han elsewhere)."""
    s = sanma.score_hand(KAN_HAND, win="9s", melds=["ankan:1111p"], riichi=True, seat_wind="S",
                         rules=sanma.Rules.preset(preset))
    assert not [y for y in s.yaku if y.name == "kan_bonus"]
    assert s.han == 1


def test_club_two_han_minimum_from_4_honba_P64() -> None:
    """P64 (CLUB 「4本場から2ハン縛り」): riichi alone wins at 3 honba, not at 4; 2 han wins at 4."""
    club = sanma.Rules.preset("club")
    sanma.score_hand(BASE, win=BASE_WIN, riichi=True, honba=3, rules=club)
    with pytest.raises(NotAWinError):
        sanma.score_hand(BASE, win=BASE_WIN, riichi=True, honba=4, rules=club)
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, tsumo=True, honba=4, rules=club)
    assert s.han == 2


def test_club_ippatsu_does_not_count_for_the_2_han_minimum_P65() -> None:
    """P65 (CLUB 「一発は、2ハン縛りを満たす役とはならない」): riichi + ippatsu at 4 honba is not a
    win; A000-20: once valid, ippatsu still scores (riichi + ippatsu + tsumo = 3)."""
    club = sanma.Rules.preset("club")
    with pytest.raises(NotAWinError):
        sanma.score_hand(BASE, win=BASE_WIN, riichi=True, ippatsu=True, honba=4, rules=club)
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, ippatsu=True, tsumo=True, honba=4, rules=club)
    assert s.han == 3


@pytest.mark.parametrize("preset", ["online", "official", "kansai", "tenhou", "majsoul"])
def test_one_han_minimum_at_any_honba_P64(preset: str) -> None:
    """P64: every preset but CLUB keeps the 1-han minimum at any honba (ONLINE 「全ての対局において
    一翻縛り」)."""
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, honba=5, rules=sanma.Rules.preset(preset))
    assert s.han == 1
