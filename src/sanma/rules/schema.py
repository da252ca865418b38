"""The ``Rules`` type: every difference between sanma rule sets is one named field here.

Each field carries a one-line doc and the RULES_MATRIX row(s) it implements (``P..``, ``Y..``,
``A..``). Defaults are the matrix's "Default / notes" column; presets (``presets/*.toml``)
override them and cite the seed sentence for each value. docs/RULES.md is generated from this
module (``sanma rules docs``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from types import MappingProxyType
from typing import Any, Literal, get_args, get_origin

# ---------------------------------------------------------------------------------------------
# Yaku names (the keys of ``Rules.yaku`` and ``Rules.yakuman``). Han values come from the rules.
# ---------------------------------------------------------------------------------------------

#: Ordinary yaku with (closed han, open han); 0 = not available in that state.
STANDARD_YAKU_HAN: dict[str, tuple[int, int]] = {
    "riichi": (1, 0),  # Y01
    "double_riichi": (2, 0),  # Y02: total han including riichi (riichi itself is then not counted)
    "open_riichi": (1, 0),  # Y03: added on top of riichi / double riichi (A000-2)
    "ippatsu": (1, 0),  # Y05
    "menzen_tsumo": (1, 0),  # Y06
    "pinfu": (1, 0),  # Y07
    "tanyao": (1, 1),  # Y08
    "iipeikou": (1, 0),  # Y09
    "yakuhai": (1, 1),  # Y10: per set (dragons, seat wind, round wind, extra yakuhai winds)
    "rinshan": (1, 1),  # Y11
    "chankan": (1, 1),  # Y12
    "kanburi": (0, 0),  # Y13 (CLUB only)
    "haitei": (1, 1),  # Y14
    "houtei": (1, 1),  # Y15
    "ittsu": (2, 1),  # Y17
    "chanta": (2, 1),  # Y18
    "chiitoitsu": (2, 0),  # Y19
    "toitoi": (2, 2),  # Y20
    "sanankou": (2, 2),  # Y21
    "tsumori_sanankou": (0, 0),  # Y21 CLUB reading (A000-6)
    "deki_sanankou": (0, 0),  # Y21 CLUB reading (A000-6)
    "sankantsu": (2, 2),  # Y22
    "sanrenkou": (0, 0),  # Y23 (local)
    "sanpuu": (0, 0),  # Y24 (local)
    "honroutou": (2, 2),  # Y25
    "shousangen": (2, 2),  # Y26
    "sanshoku_doukou": (2, 2),  # Y27
    "honitsu": (3, 2),  # Y28
    "ryanpeikou": (3, 0),  # Y29
    "junchan": (3, 2),  # Y30
    "chinitsu": (6, 5),  # Y31
    "shousharin": (0, 0),  # Y33 when it is a han yaku (OFFICIAL/KANSAI: 6 han)
    "renhou": (0, 0),  # Y49 when it is scored as han (see ``renhou_value``)
}

#: Yakuman with their multiplier (0 = not a yakuman under these rules).
STANDARD_YAKUMAN: dict[str, int] = {
    "kokushi": 1,  # Y37
    "kokushi_13": 1,  # Y37 13-sided wait (replaces kokushi)
    "suuankou": 1,  # Y38
    "suuankou_tanki": 1,  # Y38 single wait (replaces suuankou)
    "daisangen": 1,  # Y39
    "tsuuiisou": 1,  # Y40
    "tsuuiisou_chiitoi": 1,  # Y40 seven-pairs form (replaces tsuuiisou; 0 = seven honour pairs are no tsuuiisou)
    "shousuushii": 1,  # Y41
    "daisuushii": 1,  # Y42
    "ryuuiisou": 1,  # Y43
    "chinroutou": 1,  # Y44
    "suukantsu": 1,  # Y45
    "chuuren": 1,  # Y46
    "chuuren_9": 1,  # Y46 junsei nine-sided wait (replaces chuuren)
    "tenhou": 1,  # Y47
    "chiihou": 1,  # Y48
    "renhou": 1,  # Y49 (when ``renhou_value == "yakuman"``)
    "suurenkou": 0,  # Y35 (local)
    "shousharin": 0,  # Y33 (local; CLUB yakuman)
    "daisharin": 0,  # Y34 (local)
    "mankon": 0,  # Y36 (KANSAI)
    "open_riichi_deal_in": 0,  # Y04 (CLUB): a non-riichi player deals into an open riichi
    "nagashi": 0,  # Y32 when nagashi is a yakuman win
}

#: Yakuman that may contain a pon (CLUB menzen yakuman bonus, P62 / A000-21).
PON_CAPABLE_YAKUMAN = frozenset(
    {"daisangen", "tsuuiisou", "tsuuiisou_chiitoi", "shousuushii", "daisuushii", "ryuuiisou", "chinroutou", "suukantsu",
     "suurenkou"}
)

NorthMode = Literal["plain", "nuki", "nuki_restricted", "yakuhai"]
TsumoPayment = Literal["tsumo_son", "north_split", "north_split_rounded", "equal_halves", "full_amount"]
FuMode = Literal["normal", "fixed_30", "fixed_40"]
KanDoraTiming = Literal["immediate", "before_discard", "with_discard", "after_discard"]
DeadWall = Literal["fixed", "to_indicator"]
UmaType = Literal["none", "points", "chips", "sinking"]
NotenModel = Literal["pool", "per_pair"]
Kuitan = Literal["yes", "no", "not_alone"]
Atozuke = Literal["allowed", "sakizuke"]
FuritenRiichi = Literal["allowed", "forbidden"]
Kokushi13Furiten = Literal["standard", "club_relaxed", "no_ron"]
KanAfterRiichi = Literal["wait_unchanged", "waits_only", "no_okurikan"]
Nagashi = Literal["none", "mangan", "baiman", "yakuman"]
EmptySeatWind = Literal["none", "north", "positional"]
YameRule = Literal["forbidden", "auto", "optional"]
TieBreak = Literal["seat_order", "split"]
Leftover = Literal["top", "forfeit"]
ChankanOnAnkan = Literal["never", "kokushi"]
SharinDefinition = Literal["consecutive", "flush_chiitoi"]
ShousharinDefinition = Literal["consecutive", "honitsu_chiitoi"]
RenhouValue = Literal["yakuman", "mangan", "none"]
PaoCompound = Literal["whole", "pao_part"]
PaoTsumoValue = Literal["ron_value", "tsumo_total"]
Chombo = Literal["none", "mangan", "haneman", "rank_points"]
RiichiViolation = Literal["impossible", "chombo", "chombo_at_draw"]
ChomboDeal = Literal["repeat", "offender_dealer_passes"]
DoubleRonPaymentOrder = Literal["together", "upstream_first"]
ChomboHonba = Literal["unchanged", "plus_one_on_renchan"]
PenaltyEffect = Literal["chombo", "chombo_at_draw", "dead_hand", "deposit", "none"]
Overtime = Literal["none", "club_laps", "kaeri_ton", "west"]
UraChipCount = Literal["per_han", "per_tile"]
BustAt = Literal["zero_or_below", "below_zero"]
FinalRounding = Literal["none", "integer"]
UmaDoubleStack = Literal["queue", "multiply"]
ScoreNotation = Literal["minus", "triangle"]
MixedWinTile = Literal["undefined", "lowest"]


def _f(default: Any, doc: str, rows: str, *, factory: bool = False) -> Any:
    meta = {"doc": doc, "rows": rows}
    if factory:
        return field(default_factory=default, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True, repr=False)  # __repr__ below: generating one for 150 fields costs 4 ms at import
class Rules:
    """A complete, immutable rule set. Build it with ``Rules.preset(name)`` or ``Rules.load(path)``.

    >>> import sanma
    >>> r = sanma.Rules.preset("kansai")
    >>> r.flowers, r.north_mode, r.chiitoi_fu
    (4, 'yakuhai', 40)
    """

    name: str = _f("custom", "Name of the rule set (preset name or file stem).", "-")
    description: str = _f("", "One-line description.", "-")

    # --- tiles, walls, dora (P01-P22) ---------------------------------------------------------
    red_5p: int = _f(1, "How many of the four 5p are red (each worth 1 dora).", "P05")
    red_5s: int = _f(1, "How many of the four 5s are red.", "P05")
    always_dora_fives: bool = _f(False, "Every 5p and 5s is worth 1 dora whatever its colour.", "P06")
    flowers: int = _f(0, "Number of flower tiles in the wall (0 or 4).", "P02")
    flower_dora: int = _f(1, "Dora per pulled flower.", "P04, A003-2")
    flower_chip_tiles: int = _f(0, "How many of the flowers are chip flowers.", "P119")
    dora_indicators_on_doubles: int = _f(1, "Initial dora indicators when the deal dice show doubles.", "P07")
    ura_dora: bool = _f(True, "Ura dora for riichi winners.", "P10")
    kan_dora: bool = _f(True, "A kan reveals a new dora indicator.", "P11")
    kan_ura: bool = _f(True, "Kan dora indicators have ura dora too.", "P11")
    kan_dora_ankan: KanDoraTiming = _f(
        "immediate", "When an ankan's new indicator is turned (the moments of kan_dora_open).", "P12")
    kan_dora_open: KanDoraTiming = _f(
        "after_discard", "When a daiminkan's or kakan's new indicator is turned: 'immediate' at the kan, before the "
        "replacement draw; 'before_discard' after the replacement draw (a win on it counts it); 'with_discard' "
        "when the kan player next discards (a ron on that discard counts it), pulls a North or kans again, so a "
        "win on the replacement tile does not (Tenhou, PLATFORMS §1); 'after_discard' once that discard "
        "passes without a ron.", "P12")
    kan_dora_on_chankan: bool = _f(True, "A robbed kakan still turns its kan dora.", "P12, Y12")
    kan_requires_indicator: bool = _f(False, "A kan is illegal when no kan dora can be revealed.", "P13")
    dead_wall: DeadWall = _f("fixed", "Dead wall model: fixed size, or drawn up to the indicator.", "P14, A002-1")
    dead_wall_size: int = _f(14, "Tiles kept in the dead wall (fixed model).", "P14")
    rinshan_tiles: int = _f(8, "Replacement tiles for kans, kita and flowers.", "P14")
    north_mode: NorthMode = _f(
        "nuki", "North: plain wind / pulled as nuki dora or kept as guest wind / pulled, kept only for "
        "kokushi, tsuuiisou and suushii / yakuhai for everyone.", "P15, P74")
    kita_dora: int = _f(1, "Dora per pulled North (plus indicator hits).", "P16")
    kita_breaks_first_turn: bool = _f(
        True, "A kita breaks ippatsu, double riichi, the first-turn yakuman and kyuushu.", "P17, A001-14")
    kita_replacement_is_rinshan: bool = _f(True, "A win on the kita replacement scores rinshan.", "P18, A001-11")
    ron_on_kita: bool = _f(True, "A player waiting on North may ron a pulled North.", "P19")
    kita_after_pon: bool = _f(False, "A North may be pulled right after one's own pon.", "PLATFORMS")
    kita_on_last_draw: bool = _f(False, "A North may be pulled on the haitei draw.", "PLATFORMS")
    north_can_pon: bool = _f(True, "A discarded North may be ponned.", "P20")
    north_can_discard: bool = _f(True, "North may be discarded.", "P20")
    empty_seat_wind: EmptySeatWind = _f(
        "none", "Yakuhai for everyone from the empty fourth seat: none, always North, or the wind of the "
        "empty position relative to the dealer.", "P22, P74, A000-26")
    dead_wall_replenished: bool = _f(
        True, "After each replacement draw the dead wall is refilled from the live wall's tail (so it keeps "
        "its size and haitei comes one draw earlier); false = the dead wall shrinks instead.", "P14, A001-11")
    flower_breaks_first_turn: bool = _f(
        False, "Pulling a flower breaks ippatsu, double riichi, the first-turn yakuman and kyuushu.",
        "P17, P03")
    flower_replacement_is_rinshan: bool = _f(
        False, "A win on a flower's replacement tile scores rinshan.", "P18, P03")

    # --- points, placement, uma (P23-P32) -----------------------------------------------------
    start_points: int = _f(35000, "Starting score.", "P23")
    return_points: int = _f(40000, "Return (target) score; oka = (return - start) x 3 to the top.", "P24, P25")
    oka: bool = _f(True, "The top receives the oka.", "P25")
    uma_type: UmaType = _f("points", "Form of the uma.", "P26")
    uma: tuple[int, int, int] = _f((20, 0, -20), "Uma for 1st/2nd/3rd (thousands of points, or chips).", "P27")
    uma_two_floating: tuple[int, int, int] = _f(
        (20, 10, -30), "Sinking uma when two players float (thousands of points).", "P27, A002-7")
    tie_break: TieBreak = _f("seat_order", "Ties: earlier from the first dealer ranks higher, or split.", "P29")
    leftover_riichi: Leftover = _f("top", "Riichi sticks left at the end of the game.", "P31")
    final_rounding: FinalRounding = _f(
        "none", "Rounding of final points (thousands): 'integer' rounds every seat but the top to a whole number "
        "and gives the top what that rounding moved, so the points sum as before (Tenhou's whole-number records: "
        "79 = 13 + 66).", "PLATFORMS")
    score_notation: ScoreNotation = _f(
        "minus", "How a score sheet writes a negative number: '-10' or, under 'triangle', '△10' (score keeper's "
        "tables, CSV and pages).", "P30")

    # --- game length, dealer, end (P33-P42) ---------------------------------------------------
    round_winds: str = _f("ES", "Round wind of each lap, e.g. 'ES' for a hanchan, 'EE' for two East laps.", "P33")
    overtime: Overtime = _f("none", "What happens after the last hand if nobody ends the game.", "P34")
    target_points: int = _f(40000, "Score that ends overtime / is needed to end the game.", "P34, P35")
    top_must_reach_return: bool = _f(False, "The game only ends when someone has the target score.", "P35")
    overtime_dealer_first: bool = _f(
        False, "In West / 返り東場 overtime a dealer who keeps the deal plays on (unless agari-yame or tenpai-yame "
        "ends the game, in any overtime hand) although someone has the target; false: the game ends as soon as "
        "anyone has it.", "P34")
    renchan_on_dealer_win: bool = _f(True, "The dealer keeps the deal after winning.", "P36")
    dealer_stays_on_noten_draw_rounds: str = _f(
        "", "Round winds in which the dealer keeps the deal at a draw even when noten.", "P37")
    agari_yame: YameRule = _f("auto", "Last dealer who wins while top ends the game.", "P38")
    tenpai_yame: YameRule = _f("auto", "Last dealer tenpai at a draw while top ends the game.", "P39")
    agari_yame_on_abort: bool = _f(False, "An abortive draw in the last hand with the dealer top ends it.", "P40")
    agari_yame_tied_top: bool = _f(False, "A tied top counts as top for agari-yame.", "P38")
    paarenchan: bool = _f(False, "Eight consecutive dealer wins are a yakuman.", "P41")
    bust: BustAt = _f("below_zero", "When a player is bust.", "P108, P42")
    bust_ends_game: bool = _f(True, "A bust ends the game at the end of the hand.", "P42")

    # --- honba, noten, deposits (P43-P49) -----------------------------------------------------
    honba_ron: int = _f(1000, "Points per honba added to a ron.", "P43")
    honba_tsumo: int = _f(500, "Points per honba paid by each tsumo payer.", "P44")
    noten_model: NotenModel = _f("pool", "Noten payment: a fixed pool split, or per noten-tenpai pair.", "P46")
    noten_amount: int = _f(2000, "Pool total, or the amount each noten player pays each tenpai player.", "P46")
    tenpai_needs_yaku: bool = _f(False, "A hand without a possible yaku is not tenpai at a draw.", "P47")
    tenpai_karaten: bool = _f(True, "Tenpai whose winning tiles are all visible counts.", "P47")
    tenpai_furiten: bool = _f(True, "A furiten hand counts as tenpai at a draw.", "P47")
    riichi_deposit: int = _f(1000, "Riichi stick.", "P48")

    # --- payments and scoring (P50-P63) -------------------------------------------------------
    tsumo_payment: TsumoPayment = _f(
        "tsumo_son", "How a tsumo is paid (matrix §4.2 models A, B, B2, C/D); full_amount = the ron value "
        "exactly (model D read literally): one payer pays the half rounded up, the other the rest — the "
        "dealer pays the larger half of a non-dealer's tsumo, the dealer's next seat of a dealer's.",
        "P50, A003-3")
    rounding: int = _f(100, "Payments are rounded up to this unit.", "P51")
    fu_mode: FuMode = _f("normal", "Fu counting: normal, or every hand a fixed fu.", "P52")
    chiitoi_fu: int = _f(25, "Fu of seven pairs (normal fu mode).", "P53")
    pinfu_tsumo_20fu: bool = _f(True, "Pinfu tsumo is 20 fu (no tsumo fu).", "P54")
    pinfu_on_tsumo: bool = _f(True, "Pinfu is awarded on a tsumo win.", "P54, A002-16")
    kiriage_mangan: bool = _f(False, "30 fu 4 han and 60 fu 3 han are rounded up to mangan.", "P55")
    kan_han_bonus: int = _f(0, "Han per kan added below mangan (not a yaku).", "P56, A002-6")
    kazoe_min_han: int = _f(13, "Han that make a kazoe yakuman (0 = no kazoe: capped at sanbaiman).", "P59")
    yakuman_stacking: bool = _f(True, "Several yakuman in one hand add up.", "P60")
    menzen_yakuman_bonus: bool = _f(False, "+1 yakuman (once) for a pon-capable yakuman won without calls.", "P62")
    renhou_value: RenhouValue = _f("yakuman", "Renhou: a yakuman, a mangan, or not a yaku.", "P63, Y49")
    sharin_definition: SharinDefinition = _f(
        "consecutive", "Daisharin: seven consecutive pairs 2-8 in one suit, or any flush seven pairs "
        "(清一七対子).", "Y34, A002-11")
    shousharin_definition: ShousharinDefinition = _f(
        "consecutive", "Shousharin: seven consecutive pairs 1-7 or 3-9 in one suit, or any half-flush seven "
        "pairs with honours (混一七対子).", "Y33, A002-10, A003-19")
    shousharin_on_top: bool = _f(
        False, "Shousharin's han are added to the seven pairs and the flush it is made of, instead of "
        "standing for them (the scorer keeps the better of the two otherwise).", "Y33, A002-10")
    nondealer_limit_ron: tuple[int, int, int, int, int] = _f(
        (8000, 12000, 16000, 24000, 32000), "Ron value of a non-dealer mangan, haneman, baiman, sanbaiman and "
        "counted yakuman; tsumo payments follow from it as from the standard values (real yakuman: "
        "32,000 each, unchanged).", "P57, P58, A001-4")
    daisharin_suits: str = _f("ps", "Suits in which daisharin can be made.", "Y34")
    yaku: Mapping[str, tuple[int, int]] = _f(
        lambda: MappingProxyType(dict(STANDARD_YAKU_HAN)), "Han (closed, open) per yaku; 0 = not a yaku.", "§3",
        factory=True)
    yakuman: Mapping[str, int] = _f(
        lambda: MappingProxyType(dict(STANDARD_YAKUMAN)), "Multiplier per yakuman; 0 = not a yakuman.", "§3, P61",
        factory=True)

    # --- hand validity (P64-P74) --------------------------------------------------------------
    min_han: int = _f(1, "Minimum han to win.", "P64")
    shibari_from_honba: int = _f(0, "From this honba on, 2 han are needed (0 = never).", "P64")
    shibari_counts_dora: bool = _f(True, "Dora count towards the 2-han minimum.", "P65, A000-7")
    shibari_counts_ippatsu: bool = _f(True, "Ippatsu counts towards the 2-han minimum.", "P65")
    kuitan: Kuitan = _f("yes", "Open tanyao: yes, no, or only with another yaku.", "P66")
    atozuke: Atozuke = _f("allowed", "Open hands may complete their yaku after calling, or must fix it.", "P67")
    closed_katagari: bool = _f(True, "A closed hand may wait where only some tiles give a yaku.", "P68")
    open_double_back: bool = _f(True, "An open shanpon of two value pairs may win.", "P69")
    open_ittsu_kanchan_penchan_only: bool = _f(
        False, "Open ittsu only with a kanchan or penchan wait.", "P70")
    triplet_yaku_max_called: int = _f(
        4, "Sanrenkou/sanpuu/sanshoku doukou are void with more called triplets than this.", "P71")
    kuikae: bool = _f(False, "Discarding the tile just ponned is allowed.", "P72")
    chiitoi_four_of_a_kind: bool = _f(False, "Four identical tiles count as two pairs in seven pairs.", "P73")

    # --- furiten (P75-P78) ----------------------------------------------------------------------
    furiten_tsumo: bool = _f(True, "A furiten hand may win by tsumo.", "P76")
    riichi_furiten_tsumo: bool = _f(True, "A riichi hand that became furiten may still tsumo.", "P76, A002-13")
    same_turn_discard_blocks_tsumo: bool = _f(
        False, "No tsumo while a winning tile was discarded by anyone in the same go-around.", "P76")
    furiten_riichi: FuritenRiichi = _f(
        "allowed", "Riichi while furiten: an ordinary riichi, or a riichi violation (see riichi_violation).",
        "P77")
    kokushi_13_furiten: Kokushi13Furiten = _f("standard", "Furiten of the 13-sided kokushi wait.", "P78, §5.4")

    # --- riichi (P79-P87) -----------------------------------------------------------------------
    riichi_violation: RiichiViolation = _f(
        "impossible", "A riichi that is noten, furiten where furiten_riichi is forbidden (or not tenpai), or "
        "(table mistakes) breaks the 2-han minimum: impossible (never offered); chombo when revealed at the "
        "exhaustive draw or by the offender's own win, passing a win after riichi too, no penalty if another "
        "player wins first; or chombo only if the hand reaches the exhaustive draw.", "P80, P77, P102, §5.5")
    riichi_min_points: int = _f(1000, "Points needed to declare riichi.", "P79, A000-19")
    riichi_bust_points: int = _f(
        0, "At an emulated table or in the score keeper, a riichi declared with this many points or fewer "
        "(below riichi_min_points) is a bust at once: the hand stops and the declarer pays the bust chips "
        "to both other players (0 = no such riichi).", "P79, P110, A000-19")
    riichi_needs_next_draw: bool = _f(True, "Riichi needs at least one more own draw.", "P81")
    open_riichi: bool = _f(False, "Open riichi may be declared.", "P82")
    kan_after_riichi: KanAfterRiichi = _f(
        "wait_unchanged", "Ankan after riichi, with the drawn tile: 'wait_unchanged' keeps the waits and the four "
        "tiles a triplet in every reading; 'waits_only' keeps the waits, however the hand then reads (Tenhou, "
        "PLATFORMS §1); 'no_okurikan' any such ankan.", "P84")
    dama_allowed: bool = _f(True, "A non-riichi closed hand may win.", "P86, A003-8")

    # --- multiple ron, aborts, nagashi (P88-P96) ------------------------------------------------
    double_ron: bool = _f(True, "Two players may ron the same tile (else head bump).", "P88")
    double_ron_honba_both: bool = _f(False, "On a double ron both winners get the honba.", "P89")
    double_ron_dealer_renchan: bool = _f(True, "A dealer among double-ron winners keeps the deal.", "P90")
    double_ron_payment_order: DoubleRonPaymentOrder = _f(
        "together", "A double ron's discarder busts by both payments (both winners are owed the bust "
        "chips and dobon fee), or pays the upstream winner first (only the winner being paid when the "
        "points ran out is owed them).", "P91, P110, A003-16")
    abort_kyuushu: bool = _f(True, "Nine different terminals/honours on the first draw may abort.", "P92")
    abort_three_winds: bool = _f(False, "The same wind discarded by all three on the first go-around aborts.", "P93")
    abort_four_kans: bool = _f(True, "Four kans by two or more players abort.", "P94")
    four_kans_dealer_passes_rounds: str = _f("", "Round winds in which a four-kan abort passes the deal.", "P94")
    abort_all_riichi: bool = _f(False, "All three players in riichi aborts.", "P95")
    nagashi: Nagashi = _f("mangan", "Nagashi value: none, mangan, baiman or yakuman.", "P96, Y32")
    nagashi_is_win: bool = _f(False, "Nagashi is a (tsumo) win rather than a payment at a draw.", "P96, A000-3")
    nagashi_with_noten_payments: bool = _f(False, "Noten payments are made as well as nagashi.", "A001-15")

    # --- pao, chombo (P97-P107) -----------------------------------------------------------------
    pao_yaku: tuple[str, ...] = _f(("daisangen", "daisuushii"), "Yakuman with liability payment.", "P97")
    pao_daiminkan_rinshan: bool = _f(False, "Feeding a daiminkan that wins on rinshan is liable.", "P97, A003-15")
    pao_compound: PaoCompound = _f("whole", "Pao covers the whole compound yakuman or only its part.", "P99")
    pao_tsumo_value: PaoTsumoValue = _f("ron_value", "On a pao tsumo the liable player pays this.", "A000-22")
    pao_pays_chips: bool = _f(False, "The liable player pays the yakuman chips as well as the points.", "P98")
    chombo: Chombo = _f(
        "mangan", "Chombo penalty: none, a reversed mangan or haneman tsumo paid by the offender, or rank "
        "points at the end of the game (engine: riichi violations, see riichi_violation).", "P100, A000-14")
    chombo_rank_points: int = _f(
        20, "Rank points taken at the end of the game for each chombo (chombo = rank_points).", "P100")
    chombo_deal: ChomboDeal = _f(
        "repeat", "After a chombo the hand is replayed by the same dealer, or the deal passes when the "
        "dealer was the offender (the dealer repeats otherwise). Riichi sticks placed in it are returned.",
        "P101, A003-7")
    chombo_honba: ChomboHonba = _f(
        "unchanged", "Honba after a chombo: unchanged, or +1 when the dealer repeats.", "P101, A003-7")

    # --- mistakes at a physical table (score keeper, P102-P107, §5.5) --------------------------------
    # Each is what one kind of mistake costs: chombo (settled at once, as ``chombo`` says), chombo_at_draw
    # (a chombo only if the hand reaches the exhaustive draw), dead_hand (no win, noten at the draw, the
    # hand goes on), deposit (penalty_deposit_points / _chips to the table, won by the next winner), none.
    penalty_false_call: PenaltyEffect = _f(
        "none", "誤ポン/誤カン, 空ポン/空カン: a call declared that cannot be made.", "P104, P105")
    penalty_wrong_call: PenaltyEffect = _f("chombo", "錯ポン/錯カン: a call made with the wrong tiles.", "P102")
    penalty_false_win: PenaltyEffect = _f(
        "chombo", "誤ツモ/誤ロン with the hand shown: a win declared that is not one.", "P102")
    penalty_false_win_voice: PenaltyEffect = _f(
        "dead_hand", "誤ロン by voice only (the hand not shown).", "P102, P103, P105")
    penalty_short_hand: PenaltyEffect = _f("dead_hand", "少牌: too few tiles.", "P103")
    penalty_long_hand: PenaltyEffect = _f("dead_hand", "多牌: too many tiles.", "P102, P103")
    penalty_wall_collapse: PenaltyEffect = _f(
        "chombo", "An unrecoverable wall collapse (incl. an automatic table's fault).", "P102, P107")
    penalty_riichi_voice: PenaltyEffect = _f("none", "Riichi called but no riichi tile discarded.", "P105")
    penalty_riichi_cancelled: PenaltyEffect = _f(
        "dead_hand", "A riichi withdrawn before the next player discarded.", "P105")
    penalty_riichi_late: PenaltyEffect = _f(
        "chombo_at_draw", "A mistaken riichi found after the next player discarded.", "P102, P105")
    penalty_deposit_points: int = _f(0, "Points a 'deposit' penalty puts on the table (as riichi sticks).", "P104")
    penalty_deposit_chips: int = _f(0, "Chips a 'deposit' penalty puts on the table.", "P104, A000-27")
    mixed_win_tile: MixedWinTile = _f(
        "undefined", "A winning tile put into the hand before the win was shown (引きヅモ): 'lowest' scores the "
        "lowest-valued winning shape the hand allows; 'undefined' = the rules do not say (the score keeper then "
        "needs the winning tile). The matrix calls it hikizumo_penalty.", "P129")

    # --- bust and chips (P108-P122) -------------------------------------------------------------
    negative_scores_settled: bool = _f(True, "Scores below zero are settled in full.", "P109")
    bust_chips: int = _f(0, "Chips the busted player pays the player who caused it.", "P110")
    bust_extra_box_chips: int = _f(0, "Extra chips per further box (every 15,000 below).", "P111, A000-9")
    early_bust_chips: tuple[int, int] = _f((0, 0), "Extra bust chips in East 1 of lap 1 (non-dealer, dealer).", "P112")
    bust_rank_points: int = _f(0, "Rank points the busted player loses and the buster gains.", "P110")
    dobon_fee: int = _f(0, "Points the busted player pays the player being paid.", "P110, A003-6")
    chips: bool = _f(False, "Chips are used.", "P113")
    chip_ippatsu: int = _f(0, "Chips for riichi ippatsu (ron: from the discarder, tsumo: from each).", "P114")
    chip_ura: int = _f(0, "Chips per ura dora.", "P115")
    ura_chip_count: UraChipCount = _f("per_han", "Ura chips per ura han or per physical tile.", "P115, A000-25")
    chip_yakuman_ron: int = _f(0, "Yakuman chips on ron (from the discarder).", "P116")
    chip_yakuman_tsumo: int = _f(0, "Yakuman chips on tsumo (from each).", "P116")
    chip_yakuman_from_both: bool = _f(False, "Yakuman chips come from both opponents on ron too.", "P116")
    chip_yakuman_kazoe: bool = _f(True, "Kazoe yakuman earns yakuman chips.", "P116, Y50")
    chip_menzen_chinitsu: tuple[int, int] = _f((0, 0), "Closed chinitsu chips (ron, tsumo each).", "P117")
    chip_menzen_junchan: tuple[int, int] = _f((0, 0), "Closed junchan chips (ron, tsumo each).", "P118")
    chip_flower: int = _f(0, "Chips for a pulled chip flower when the hand is won closed.", "P119")
    streak_chips: bool = _f(
        False, "Chips for 4+ consecutive tops or lasts (series level: score keeping across games). "
        "Read by the score keeper (sanma table).", "P120")
    chip_chiicha_not_top: int = _f(0, "Chips the first dealer pays each other player when not top.", "P121")
    uma_doubling: bool = _f(
        False, "Uma doubles after consecutive tops or lasts (series level: score keeping across games). "
        "Read by the score keeper (sanma table).", "P28, A000-10")
    uma_double_stack: UmaDoubleStack = _f(
        "queue", "How doublings that pile up apply: 'queue' = one doubled game per doubling, carried forward; "
        "'multiply' = uma x 2^pending in the next game only (score keeper).", "P28, A000-10")
    chip_points: int = _f(
        0, "Points one chip is worth when chips are converted into points; 0 = chips are not converted "
        "(no seed gives a rate). A bot weighing chips assumes its own rate when this is 0.", "P113")

    # --- seating, special wins (P123-P128) ------------------------------------------------------
    players_in_rotation: int = _f(3, "People sharing the table (4 = one sits out each game; series level). "
                                     "Read by the score keeper (sanma table).", "P126")
    chankan_on_ankan: ChankanOnAnkan = _f("kokushi", "Robbing an ankan: never, or kokushi only.", "P127")
    kakan_is_discard: bool = _f(True, "A kakan tile passed without ron makes the passer furiten.", "P128")

    # -------------------------------------------------------------------------------------------
    def __post_init__(self) -> None:
        # Keep the value immutable: the yaku tables are read-only views.
        for name in ("yaku", "yakuman"):
            value = getattr(self, name)
            if not isinstance(value, MappingProxyType):
                object.__setattr__(self, name, MappingProxyType(dict(value)))

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # Picklable for worker processes: the read-only yaku tables travel as plain dicts.
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["yaku"], values["yakuman"] = dict(self.yaku), dict(self.yakuman)
        return (_rebuild_rules, (values,))

    def __repr__(self) -> str:
        """The name and every field that differs from the schema's default.

        >>> Rules(name="mine", start_points=30000, ura_dora=False)
        Rules(name='mine', ura_dora=False, start_points=30000)
        """
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                   if f.name != "name" and getattr(self, f.name) != _default(f)]
        return f"Rules({', '.join([f'name={self.name!r}', *changed])})"

    def han(self, yaku: str, closed: bool) -> int:
        """Han of ``yaku`` in a closed or open hand under these rules (0 if not a yaku)."""
        c, o = self.yaku.get(yaku, (0, 0))
        return c if closed else o

    def __hash__(self) -> int:  # dict fields: hash by name + a stable dump
        return hash((self.name, repr(sorted(self.yaku.items())), repr(sorted(self.yakuman.items()))))

    @staticmethod
    def preset(name: str) -> Rules:
        """One of the built-in presets: club, online, official, kansai, tenhou, majsoul."""
        from .loader import load_preset

        return load_preset(name)

    @staticmethod
    def load(path: str) -> Rules:
        """A rule file in TOML (``extends = "<preset>"`` then fields to override)."""
        from .loader import load_file

        return load_file(path)

    @staticmethod
    def presets() -> tuple[str, ...]:
        from .loader import PRESETS

        return PRESETS


def _default(f: Any) -> Any:
    if f.default_factory is not MISSING:
        return f.default_factory()
    return f.default


def _rebuild_rules(values: dict[str, Any]) -> Rules:
    return Rules(**values)


RULE_FIELDS = MappingProxyType({f.name: f for f in fields(Rules)})


def field_choices(name: str) -> tuple[str, ...] | None:
    """Allowed values of an enum field (a ``Literal``), else None."""
    tp = RULE_FIELDS[name].type
    hint = _resolve(tp)
    if get_origin(hint) is Literal:
        return tuple(str(a) for a in get_args(hint))
    return None


def _resolve(tp: Any) -> Any:
    if isinstance(tp, str):
        return eval(tp, globals())  # annotations are strings (from __future__ import annotations)
    return tp
