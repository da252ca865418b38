"""Yaku and yakuman of one interpretation of a winning hand.

The han of every yaku comes from ``Rules.yaku`` / ``Rules.yakuman`` (0 = not a yaku under those
rules); this module only decides which patterns a hand shows. Each pattern is a short, commented
check citing its matrix row (§3 Y01–Y50). The checks are written inline over one pass of the
hand's blocks rather than as one class per yaku: the scorer evaluates every decomposition of
every hand, and this is its hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .rules.schema import PON_CAPABLE_YAKUMAN, Rules
from .tiles import DRAGONS, GREEN, NORTH, WINDS, YAOCHUU

# Winning-tile position in a standard hand ("wait" for fu and pinfu).
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = "ryanmen", "kanchan", "penchan", "shanpon", "tanki"
GREEN_KINDS = frozenset({19, 20, 21, 23, 25, GREEN})  # 2s 3s 4s 6s 8s and hatsu (Y43)
TERMINAL_KINDS = frozenset({0, 8, 9, 17, 18, 26})


class HandBlock(NamedTuple):
    """One set of a winning hand: sequence or triplet/quad, and how it was made."""

    triplet: bool
    kind: int
    open: bool  # called, or a triplet completed by ron (counts as open for fu / ankou)
    kan: bool
    called: bool  # really called (a pon or open kan), for the called-triplet limits (P71)


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything about a win that is not the tiles themselves."""

    tsumo: bool
    riichi: bool = False
    double_riichi: bool = False
    open_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    kanburi: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    open_riichi_deal_in: bool = False
    seat_wind: int = 27
    round_wind: int = 27


def yakuhai_reasons(rules: Rules, sit: Situation, kind: int) -> tuple[str, ...]:
    """Why a set of ``kind`` is yakuhai (Y10, P74): dragon, seat wind, round wind, North for all."""
    if kind in DRAGONS:
        return (("yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun")[kind - DRAGONS[0]],)
    out: list[str] = []
    if kind == sit.seat_wind:
        out.append("yakuhai_seat_wind")
    if kind == sit.round_wind:
        out.append("yakuhai_round_wind")
    # North is yakuhai for everybody under KANSAI (P15 yakuhai_all) and as the empty seat's wind
    # under CLUB (P22, A000-26 default reading).
    if kind == NORTH and kind != sit.seat_wind and (
        rules.north_mode == "yakuhai" or rules.empty_seat_wind == "north"
    ):
        out.append("yakuhai_north")
    return tuple(out)


class Evaluation(NamedTuple):
    yaku: tuple[tuple[str, int], ...]
    yakuman: tuple[tuple[str, int], ...]


def situational_yaku(rules: Rules, sit: Situation, closed: bool, out: list[tuple[str, int]]) -> None:
    """Yaku that depend on the situation only (riichi, tsumo, last tile, kan...)."""
    han = rules.han
    if sit.double_riichi:
        out.append(("double_riichi", han("double_riichi", True)))  # Y02 (total incl. riichi)
    elif sit.riichi:
        out.append(("riichi", han("riichi", True)))  # Y01
    if sit.open_riichi:
        out.append(("open_riichi", han("open_riichi", True)))  # Y03, added on top (A000-2)
    if sit.ippatsu:
        out.append(("ippatsu", han("ippatsu", True)))  # Y05
    if sit.tsumo and closed:
        out.append(("menzen_tsumo", han("menzen_tsumo", True)))  # Y06
    for flag, name in ((sit.rinshan, "rinshan"), (sit.chankan, "chankan"), (sit.haitei, "haitei"),
                       (sit.houtei, "houtei"), (sit.kanburi, "kanburi")):
        if flag:
            out.append((name, han(name, closed)))  # Y11-Y15


def situational_yakuman(rules: Rules, sit: Situation, out: list[tuple[str, int]]) -> None:
    for flag, name in ((sit.tenhou, "tenhou"), (sit.chiihou, "chiihou"),
                       (sit.open_riichi_deal_in, "open_riichi_deal_in")):
        if flag:
            out.append((name, rules.yakuman.get(name, 0)))  # Y47, Y48, Y04
    if sit.renhou and rules.renhou_value == "yakuman":
        out.append(("renhou", rules.yakuman.get("renhou", 0)))  # Y49


def evaluate_standard(
    rules: Rules,
    sit: Situation,
    blocks: tuple[HandBlock, ...],
    pair: int,
    wait: str,
    win_kind: int,
    closed: bool,
    counts: list[int],
) -> Evaluation:
    """Yaku of a 4-sets-and-a-pair hand. ``counts`` are all 34-kind counts incl. melds."""
    han = rules.han
    yaku: list[tuple[str, int]] = []
    yakuman: list[tuple[str, int]] = []
    situational_yaku(rules, sit, closed, yaku)
    situational_yakuman(rules, sit, yakuman)

    seqs = [b.kind for b in blocks if not b.triplet]
    trips = [b for b in blocks if b.triplet]
    trip_kinds = {b.kind for b in trips}
    n_kans = sum(1 for b in blocks if b.kan)
    concealed_trips = sum(1 for b in trips if not b.open)
    kinds_present = [k for k in range(34) if counts[k]]
    has_honor = any(k >= 27 for k in kinds_present)
    suits = {k // 9 for k in kinds_present if k < 27}
    all_yaochuu = all(k in YAOCHUU for k in kinds_present)

    # --- yakuman ----------------------------------------------------------------------------
    if concealed_trips == 4:  # Y38
        yakuman.append(("suuankou_tanki", rules.yakuman["suuankou_tanki"]) if wait == TANKI
                       and rules.yakuman.get("suuankou_tanki", 0) else ("suuankou", rules.yakuman["suuankou"]))
    dragon_trips = sum(1 for d in DRAGONS if d in trip_kinds)
    if dragon_trips == 3:
        yakuman.append(("daisangen", rules.yakuman["daisangen"]))  # Y39
    wind_trips = sum(1 for w in WINDS if w in trip_kinds)
    if wind_trips == 4:
        yakuman.append(("daisuushii", rules.yakuman["daisuushii"]))  # Y42
    elif wind_trips == 3 and pair in WINDS:
        yakuman.append(("shousuushii", rules.yakuman["shousuushii"]))  # Y41
    if not suits:
        yakuman.append(("tsuuiisou", rules.yakuman["tsuuiisou"]))  # Y40
    if all(k in GREEN_KINDS for k in kinds_present):
        yakuman.append(("ryuuiisou", rules.yakuman["ryuuiisou"]))  # Y43 (hatsu not required)
    if all(k in TERMINAL_KINDS for k in kinds_present):
        yakuman.append(("chinroutou", rules.yakuman["chinroutou"]))  # Y44
    if n_kans == 4:
        yakuman.append(("suukantsu", rules.yakuman["suukantsu"]))  # Y45
    if closed and n_kans == 0 and len(suits) == 1 and not has_honor:  # Y46
        base = next(iter(suits)) * 9
        c = counts[base:base + 9]
        if c[0] >= 3 and c[8] >= 3 and all(x >= 1 for x in c[1:8]):
            c2 = list(c)
            c2[win_kind - base] -= 1
            nine = c2 == [3, 1, 1, 1, 1, 1, 1, 1, 3] and rules.yakuman.get("chuuren_9", 0)
            yakuman.append(("chuuren_9", rules.yakuman["chuuren_9"]) if nine
                           else ("chuuren", rules.yakuman["chuuren"]))
    renkou = _longest_run(trip_kinds)
    if renkou >= 4 and rules.yakuman.get("suurenkou", 0):
        yakuman.append(("suurenkou", rules.yakuman["suurenkou"]))  # Y35
        renkou = 0
    if suits == {0} and has_honor and rules.yakuman.get("mankon", 0):
        yakuman.append(("mankon", rules.yakuman["mankon"]))  # Y36 man-suit honitsu
    yakuman = [(n, m) for n, m in yakuman if m > 0]
    if yakuman:
        return Evaluation((), _with_menzen_bonus(rules, tuple(yakuman), closed))

    # --- ordinary yaku ------------------------------------------------------------------------
    if closed and len(seqs) == 4 and wait == RYANMEN and not yakuhai_reasons(rules, sit, pair) and (
        not sit.tsumo or rules.pinfu_on_tsumo
    ):
        yaku.append(("pinfu", han("pinfu", True)))  # Y07
    if not has_honor and not any(k in TERMINAL_KINDS for k in kinds_present):  # Y08
        if closed:
            yaku.append(("tanyao", han("tanyao", True)))
        elif rules.kuitan != "no" and han("tanyao", False):
            yaku.append(("tanyao", han("tanyao", False)))
    if closed and len(seqs) >= 2:
        dup = sum(seqs.count(s) // 2 for s in set(seqs))
        if dup >= 2:
            yaku.append(("ryanpeikou", han("ryanpeikou", True)))  # Y29
        elif dup == 1:
            yaku.append(("iipeikou", han("iipeikou", True)))  # Y09
    for b in trips:
        for reason in yakuhai_reasons(rules, sit, b.kind):
            yaku.append((reason, han("yakuhai", closed)))  # Y10
    for s in (9, 18):  # Y17: 123-456-789 in pinzu or souzu
        if s in seqs and s + 3 in seqs and s + 6 in seqs:
            ittsu_ok = closed or not rules.open_ittsu_kanchan_penchan_only or (
                wait in (KANCHAN, PENCHAN) and win_kind - win_kind % 9 == s)  # P70
            if ittsu_ok:
                yaku.append(("ittsu", han("ittsu", closed)))
    outside = all((b.triplet and b.kind in YAOCHUU) or (not b.triplet and b.kind % 9 in (0, 6))
                  for b in blocks) and pair in YAOCHUU
    if outside and seqs:
        if has_honor:
            yaku.append(("chanta", han("chanta", closed)))  # Y18
        else:
            yaku.append(("junchan", han("junchan", closed)))  # Y30
    if not seqs:
        yaku.append(("toitoi", han("toitoi", closed)))  # Y20
    # Y21: sanankou. CLUB splits it (A000-6): deki = three concealed triplets already complete
    # at tenpai; tsumori = the third one completed by the winning tsumo.
    if concealed_trips >= 3:
        pre_complete = sum(1 for b in trips if not b.open and not (b.kind == win_kind and wait == SHANPON))
        if han("deki_sanankou", closed) and pre_complete >= 3:
            yaku.append(("deki_sanankou", han("deki_sanankou", closed)))
        elif han("tsumori_sanankou", closed):
            yaku.append(("tsumori_sanankou", han("tsumori_sanankou", closed)))
        elif han("sanankou", closed):
            yaku.append(("sanankou", han("sanankou", closed)))
    if n_kans == 3:
        yaku.append(("sankantsu", han("sankantsu", closed)))  # Y22
    called_limit = rules.triplet_yaku_max_called  # P71
    run = renkou_kinds(trip_kinds)
    if renkou >= 3 and han("sanrenkou", closed) and _called_in_run(trips, run) <= called_limit:
        yaku.append(("sanrenkou", han("sanrenkou", closed)))  # Y23
    wind_set = [b for b in trips if b.kind in WINDS]
    if len(wind_set) == 3 and han("sanpuu", closed) and sum(b.called for b in wind_set) <= called_limit:
        yaku.append(("sanpuu", han("sanpuu", closed)))  # Y24
    if all_yaochuu and has_honor and suits:
        yaku.append(("honroutou", han("honroutou", closed)))  # Y25
    if dragon_trips == 2 and pair in DRAGONS:
        yaku.append(("shousangen", han("shousangen", closed)))  # Y26
    for group in ((0, 9, 18), (8, 17, 26)):  # Y27: only 1s or 9s exist in all three suits
        if all(k in trip_kinds for k in group):
            called = sum(1 for b in trips if b.kind in group and b.called)
            if called <= called_limit:
                yaku.append(("sanshoku_doukou", han("sanshoku_doukou", closed)))
    if len(suits) == 1:
        if has_honor:
            yaku.append(("honitsu", han("honitsu", closed)))  # Y28
        else:
            yaku.append(("chinitsu", han("chinitsu", closed)))  # Y31
    return Evaluation(tuple((n, h) for n, h in yaku if h > 0), ())


def renkou_kinds(trip_kinds: set[int]) -> list[int]:
    """Kinds of the longest run of consecutive same-suit number triplets."""
    best: list[int] = []
    for k in sorted(trip_kinds):
        if k >= 27:
            continue
        run = [k]
        while run[-1] % 9 < 8 and run[-1] + 1 in trip_kinds:
            run.append(run[-1] + 1)
        if len(run) > len(best):
            best = run
    return best


def _longest_run(trip_kinds: set[int]) -> int:
    return len(renkou_kinds(trip_kinds))


def _called_in_run(trips: list[HandBlock], run: list[int]) -> int:
    return sum(1 for b in trips if b.kind in run and b.called)


def _with_menzen_bonus(
    rules: Rules, yakuman: tuple[tuple[str, int], ...], closed: bool
) -> tuple[tuple[str, int], ...]:
    # P62 (CLUB): +1 yakuman, once, for a pon-capable yakuman completed without calls.
    if rules.menzen_yakuman_bonus and closed and any(n in PON_CAPABLE_YAKUMAN for n, _ in yakuman):
        return (*yakuman, ("menzen_yakuman_bonus", 1))
    return yakuman


def evaluate_chiitoi(rules: Rules, sit: Situation, counts: list[int]) -> Evaluation:
    """Seven pairs (Y19) and its local variants (shousharin Y33, daisharin Y34, tsuuiisou Y40)."""
    han = rules.han
    yaku: list[tuple[str, int]] = []
    yakuman: list[tuple[str, int]] = []
    situational_yaku(rules, sit, True, yaku)
    situational_yakuman(rules, sit, yakuman)
    kinds = [k for k in range(34) if counts[k]]
    suits = {k // 9 for k in kinds if k < 27}
    has_honor = any(k >= 27 for k in kinds)
    if not suits:
        name = "tsuuiisou_chiitoi" if rules.yakuman.get("tsuuiisou_chiitoi", 0) else "tsuuiisou"
        yakuman.append((name, rules.yakuman[name]))
    # Sharin: "consecutive" = seven pairs 2-8 (daisharin) or 1-7 / 3-9 (shousharin) in one suit
    # (CLUB, ONLINE, KANSAI per A003-19); "flush_chiitoi" = any chinitsu / honitsu seven pairs
    # (OFFICIAL 「清一七対子」「混一七対子」, A002-10/11).
    sharin = ""
    if len(suits) == 1:
        suit = next(iter(suits))
        base = suit * 9
        nums = [k - base for k in kinds if k < 27]
        if rules.sharin_definition == "consecutive":
            if not has_honor and nums == list(range(1, 8)) and "mps"[suit] in rules.daisharin_suits:
                sharin = "daisharin"
            elif not has_honor and nums in (list(range(0, 7)), list(range(2, 9))):
                sharin = "shousharin"
        elif not has_honor and "mps"[suit] in rules.daisharin_suits:
            sharin = "daisharin"
        elif has_honor:
            sharin = "shousharin"
    if sharin and rules.yakuman.get(sharin, 0):
        yakuman.append((sharin, rules.yakuman[sharin]))
    yakuman = [(n, m) for n, m in yakuman if m > 0]
    if yakuman:
        return Evaluation((), _with_menzen_bonus(rules, tuple(yakuman), True))
    yaku.append(("chiitoitsu", han("chiitoitsu", True)))
    if not has_honor and all(k % 9 not in (0, 8) for k in kinds):
        yaku.append(("tanyao", han("tanyao", True)))
    if all(k in YAOCHUU for k in kinds) and has_honor and suits:
        yaku.append(("honroutou", han("honroutou", True)))
    if len(suits) == 1:
        yaku.append(("honitsu", han("honitsu", True)) if has_honor else ("chinitsu", han("chinitsu", True)))
    if sharin == "shousharin" and han("shousharin", True):
        # OFFICIAL / KANSAI: shousharin is a 6-han yaku that stands for the seven pairs and the
        # flush it is made of (A002-10); the scorer keeps whichever reading is worth more.
        alt = [(n, h) for n, h in yaku if n not in ("chiitoitsu", "honitsu", "chinitsu")]
        alt.append(("shousharin", han("shousharin", True)))
        if sum(h for _, h in alt) > sum(h for _, h in yaku):
            yaku = alt
    return Evaluation(tuple((n, h) for n, h in yaku if h > 0), ())


def evaluate_kokushi(rules: Rules, sit: Situation, counts: list[int], win_kind: int) -> Evaluation:
    """Thirteen orphans (Y37); the 13-sided wait when the hand held one of each before winning."""
    yakuman: list[tuple[str, int]] = []
    situational_yakuman(rules, sit, yakuman)
    thirteen = counts[win_kind] == 2 and rules.yakuman.get("kokushi_13", 0)
    name = "kokushi_13" if thirteen else "kokushi"
    yakuman.append((name, rules.yakuman[name]))
    return Evaluation((), tuple((n, m) for n, m in yakuman if m > 0))
