"""Where a preset reads its seed other than literally, or the seed leaves a real choice open.

Each ``Reading`` quotes the seed (verbatim: a test checks every quote against its line), says what
the preset does, and gives the field values that switch to the other reading, so a club that
adopts a preset can see every such place and change it with one field. docs/RULES.md lists them
per preset ("Seed readings"), generated from this table.

``kind``:

* ``departs`` — the preset's value is not what the seed's words say (a copy error, an engine
  limit, a reading of an unclear sentence); ``other`` is the literal reading.
* ``unstated`` — the seed names the rule but not a detail the engine needs; the preset's value is a
  documented choice and ``other`` is the main alternative.
* ``literal`` — the preset follows the seed's words where RULES_MATRIX recommended otherwise;
  ``other`` is the matrix's recommendation.

>>> r = READINGS[0]
>>> r.preset, r.kind, r.other
('club', 'departs', (('riichi_min_points', 0),))
>>> other_rules(r).riichi_min_points
0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from .schema import Rules

Kind = Literal["departs", "unstated", "literal"]


@dataclass(frozen=True, slots=True)
class Reading:
    """One place where a preset's value is a reading of its seed (see the module doc)."""

    preset: str
    kind: Kind
    seed: str  # "000".."003"
    line: int  # 1-based line of the seed file
    quote: str  # verbatim from that line
    reading: str  # what the preset does, and why
    other: tuple[tuple[str, Any], ...]  # field values giving the other reading ("yakuman.x" / "yaku.x")
    rows: str  # RULES_MATRIX rows and ambiguity ids

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.other)


READINGS: tuple[Reading, ...] = (
    # --- club: seed 000 --------------------------------------------------------------------------
    Reading("club", "departs", "000", 87,
            "1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、箱割れチップは両者に払う",
            "An engine never offers a riichi below riichi_min_points = 1,100 (a player cannot make the "
            "slip 「うっかり」 names). At an emulated table (Game(table_mistakes=True)) and in the score "
            "keeper the riichi can be declared with 1,000 or less (riichi_bust_points = 1000): the "
            "declarer is bust at once and pays the bust chips to both others "
            "(sanma.game.payout.RiichiBust).",
            (("riichi_min_points", 0),), "P79, P110, A000-19"),
    Reading("club", "literal", "000", 116, "裏ドラ（槓裏も含む）の現物が手にあれば、1個につきチップ3枚受け取る",
            "Chips per ura-dora tile held (現物, the physical tile), however many ura indicators point at "
            "it; A000-25 recommended per ura han (a tile indicated twice counting twice).",
            (("ura_chip_count", "per_han"),), "P115, A000-25"),
    Reading("club", "unstated", "000", 169, "役牌 [空席の風も役牌]",
            "The empty seat's wind is always North; the positional reading (the wind of the empty "
            "position relative to the dealer) is as possible.",
            (("empty_seat_wind", "positional"),), "P22, P74, A000-26"),
    Reading("club", "unstated", "000", 45, "ノーテン罰符は、それぞれ1,000点とする",
            "Each noten player pays 1,000 to each tenpai player (per pair, A000-8); a 2,000 pool "
            "split is the other reading of 「それぞれ」.",
            (("noten_model", "pool"), ("noten_amount", 2000)), "P46, A000-8"),
    Reading("club", "unstated", "000", 60, "一発は、2ハン縛りを満たす役とはならない",
            "Dora count towards the 2-han minimum from 4 honba: the seed excludes only ippatsu (A000-7).",
            (("shibari_counts_dora", False),), "P64, P65, A000-7"),
    Reading("club", "unstated", "000", 162, "ダブル（リーチ）",
            "Listed under 1ハン: read as 1 han on top of riichi, 2 in total (A000-2); 1 in total (it "
            "replaces riichi) is the other reading.",
            (("yaku.double_riichi", (1, 0)),), "Y02, A000-2"),
    Reading("club", "unstated", "000", 65, "責任払い（ツモ全額、ロン半額）",
            "On a pao tsumo the liable player pays the ron value, as if dealing in (A000-22); the tsumo "
            "total (tsumo-son: 24,000 for a non-dealer yakuman) is the other reading of 「ツモ全額」.",
            (("pao_tsumo_value", "tsumo_total"),), "P97, P98, A000-22"),
    # --- online: seed 001 ------------------------------------------------------------------------
    Reading("online", "departs", "001", 109, "倍満 8翻～10翻 9000 / 9000 18000",
            "The non-dealer table prints a baiman of 18,000 (9,000 each) and a counted yakuman of 36,000 "
            "(18,000 each, 「数え役満 13翻以上 18000 / 18000 36000」): the dealer's values, copy errors "
            "(A001-4). The preset pays the standard 16,000 and 32,000; the printed table is one field.",
            (("nondealer_limit_ron", (8000, 12000, 18000, 24000, 36000)),), "P57, P58, A001-4"),
    Reading("online", "literal", "001", 92, "字一色 字牌のみで1雀頭4面子を揃えたときに成立する役満です",
            "Tsuuiisou is 4 sets and a pair only: seven pairs of honours are a seven pairs. A001-16 "
            "recommended allowing them as a single yakuman (standard online).",
            (("yakuman.tsuuiisou_chiitoi", 1),), "Y40, A001-16"),
    Reading("online", "unstated", "001", 42, "| 積み棒 | 600 | |",
            "600 per honba on a ron; on a tsumo 300 from each payer (600 in total, A001-8).",
            (("honba_tsumo", 600),), "P43, P44, A001-8"),
    Reading("online", "unstated", "001", 40, "| 流し満貫 | ○ | 流局扱い、満貫扱い |",
            "A draw (流局扱い) paid as a mangan tsumo; the noten payments are made as well (A001-15).",
            (("nagashi_with_noten_payments", False),), "P96, A001-15"),
    Reading("online", "unstated", "001", 13, "手牌使用時は常時客風牌/抜きでドラ扱い",
            "A win on a kita replacement scores rinshan and a pulled North may be ronned (Tenhou / MJ "
            "Soul style, A001-11); the seed says neither.",
            (("kita_replacement_is_rinshan", False),), "P18, P19, A001-11"),
    # --- official: seed 002 ----------------------------------------------------------------------
    Reading("official", "unstated", "002", 50, "小車輪（混一七対子）は６飜",
            "6 han in total for the honitsu seven pairs, standing for chiitoi 2 + honitsu 3 (A002-10); "
            "6 han on top of them is the other reading.",
            (("shousharin_on_top", True),), "Y33, A002-10"),
    Reading("official", "unstated", "002", 111, "（例）500・1000は、1500・2000",
            "The manners example implies tsumo-son payments (model A, A002-4); the score table itself "
            "is missing from the seed.",
            (("tsumo_payment", "north_split"),), "P50, A002-4"),
    Reading("official", "unstated", "002", 26, "テンパイ連荘（1本場につき1000点、ツモの場合も1000点増し）",
            "1,000 per honba from each tsumo payer (the example 「500・1000は、1500・2000」 at one honba, "
            "A002-2); 1,000 in total (500 each) fits the example at two honba.",
            (("honba_tsumo", 500),), "P44, A002-2"),
    Reading("official", "unstated", "002", 94, "点数表",
            "The score table is missing from the seed: no kiriage mangan, 30 fu 4 han is 7,700 (A002-5).",
            (("kiriage_mangan", True),), "P55, A002-5"),
    Reading("official", "unstated", "002", 61, "『四喜和』",
            "Shousuushii and daisuushii are single yakuman: the seed names 四喜和 and no double yakuman "
            "(A002-20).",
            (("yakuman.daisuushii", 2),), "Y42, A002-20"),
    # --- kansai: seed 003 ------------------------------------------------------------------------
    Reading("kansai", "unstated", "003", 34, "「小車輪」→6翻",
            "Undefined in seed 003: read with seed 002's definition 混一七対子 (L50 「小車輪（混一七対子）は"
            "６飜」), 6 han in total where honitsu + chiitoi are 5. A003-19's consecutive pairs 1-7 / 3-9 "
            "(seed 000) are a chinitsu seven pairs, 8 han or more, so a 6-han yaku there never scores; "
            "shousharin_on_top = true counts the 6 han on top instead.",
            (("shousharin_definition", "consecutive"),), "Y33, A003-19, A002-10"),
    Reading("kansai", "unstated", "003", 34, "「大車輪・萬混・流し・四連刻」→本役満",
            "Daisharin undefined in seed 003: pairs 2-8 in pinzu or souzu (A003-19); seed 002's 清一七対子 "
            "(any chinitsu seven pairs) is the other reading.",
            (("sharin_definition", "flush_chiitoi"),), "Y34, A003-19, A002-11"),
    Reading("kansai", "departs", "003", 29, "華牌は空気扱いで手の内で使うことも捨てることもできません",
            "Each pulled flower is 1 dora (A003-2: Kansai custom, and the 戦い方 section's "
            "「ドラの枚数が多い」); the seed names only the one chip flower (L12 「1枚だけチップ対象にします」) "
            "and calls flowers 空気, so no dora is the literal reading.",
            (("flower_dora", 0),), "P04, P119, A003-2"),
    Reading("kansai", "departs", "003", 22, "点棒はツモ、ロンあがり共に満額点数で計算します",
            "満額 with the equal-halves split, each half rounded up to 100 (A003-3, vectors D1/D2): a "
            "3,900 tsumo collects 4,000, 100 more than the ron. tsumo_payment = \"full_amount\" pays "
            "the ron value exactly (2,000 + 1,900; the dealer, or the dealer's next seat, pays the "
            "larger half).",
            (("tsumo_payment", "full_amount"),), "P50, P51, A003-3"),
    Reading("kansai", "unstated", "003", 53, "参照:三麻の点数表",
            "The score table the seed refers to is missing: payments are rounded up to 100 (A003-3, "
            "as seed 001's 「100点以下の点数切上」); rounding to 1,000 is a Kansai parlour custom "
            "(vector D6: 5,200 → 6,000).",
            (("rounding", 1000),), "P51, A003-3"),
    Reading("kansai", "departs", "003", 38,
            "リーチの解除はリーチあがりになります。鳴くことはできません。ヤミでのあがりは不可。",
            "「ヤミでのあがりは不可」 read with the riichi sentences around it: a riichi player cannot "
            "win dama; a closed hand without riichi may win (A003-8). It may also mean that every "
            "closed hand must declare riichi to win: dama_allowed = false.",
            (("dama_allowed", False),), "P86, A003-8"),
    Reading("kansai", "unstated", "003", 18,
            "ダブロンありで上家から支払いし、点棒がなくなった時点の方へドボン料が発生します",
            "The seed gives no amount for the ドボン料: dobon_fee = 0, so no fee is charged until the "
            "parlour's amount is set (A003-6 names 10,000 points or a chip or two as typical).",
            (("dobon_fee", 10000),), "P110, A003-6"),
    Reading("kansai", "unstated", "003", 24, "七対子の4枚使いあり。尚、点数は全て40符で計算します。",
            "40 fu for seven pairs only (the sentence is in the seven-pairs bullet, A003-1); every hand "
            "at 40 fu is the other reading.",
            (("fu_mode", "fixed_40"),), "P52, P53, A003-1"),
    Reading("kansai", "unstated", "003", 33, "チョンボ時の積み棒はそのまま",
            "「積み棒も付き」 (L32) read as +1 honba when the dealer repeats, 「そのまま」 as the existing "
            "honba kept (A003-7); the reviewer's reading keeps the count unchanged in every case.",
            (("chombo_honba", "unchanged"),), "P101, A003-7"),
)


def readings_of(preset: str) -> tuple[Reading, ...]:
    """The readings listed for ``preset`` (empty for the platform presets)."""
    return tuple(r for r in READINGS if r.preset == preset)


def other_rules(reading: Reading, base: Rules | None = None) -> Rules:
    """The preset (or ``base``) with the reading's other values applied."""
    rules = base if base is not None else Rules.preset(reading.preset)
    changes: dict[str, Any] = {}
    for name, value in reading.other:
        table, _, key = name.partition(".")
        if key:
            merged = dict(changes.get(table, getattr(rules, table)))
            merged[key] = value
            changes[table] = merged
        else:
            changes[name] = value
    return replace(rules, **changes)


def problems() -> list[str]:
    """What is wrong with the table: unknown presets or fields, or an ``other`` equal to the preset."""
    from .loader import PRESETS
    from .schema import RULE_FIELDS

    out: list[str] = []
    for r in READINGS:
        if r.preset not in PRESETS:
            out.append(f"{r.preset}: not a preset")
            continue
        for name in r.fields:
            if name.partition(".")[0] not in RULE_FIELDS:
                out.append(f"{r.preset} {name}: not a field")
        if other_rules(r) == Rules.preset(r.preset):
            out.append(f"{r.preset} {r.fields}: the other reading is the preset's own")
    return out
