"""The six presets: the values that define each one, with the matrix rows they implement, and the
completeness and sourcing of every preset file."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import sanma
from sanma.rules.loader import PRESET_DIR, PRESETS, load_preset
from sanma.rules.schema import PON_CAPABLE_YAKUMAN, RULE_FIELDS, STANDARD_YAKU_HAN, STANDARD_YAKUMAN
from shared_data import shared_path

ROOT = Path(__file__).resolve().parents[1]
MATRIX = ("rules", "RULES_MATRIX.md")
PLATFORMS = ("rules", "PLATFORMS.md")
SEED_FILES = {"000": "000_27b89214b4f45480.txt", "001": "001_0a019cdc2b1b41ac.txt",
              "002": "002_d5b08d7fd9be4043.txt", "003": "003_fc7fbe34a5b65b35.txt"}

ROW_RE = re.compile(r"\b(P\d{2,3}|Y\d{2}|A\d{3}-\d+)\b")
QUOTE_RE = re.compile(r"「((?:[^「」]|「[^「」]*」)*)」")  # one level of nested 「」
CITE_RE = re.compile(r"seed (\d{3}) L(\d+)(?:-(\d+))?(?:/L\d+)?: (.*)")


def P(name: str) -> sanma.Rules:
    return load_preset(name)


def _value_lines(preset: str) -> list[tuple[str, str]]:
    """(key, comment) for every `key = value  # comment` line of a preset file."""
    out = []
    for line in (PRESET_DIR / f"{preset}.toml").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith(("#", "[")):
            continue
        key, _, rest = line.partition(" = ")
        _value, sep, comment = rest.partition("  # ")
        out.append((key.strip(), comment.strip() if sep else ""))
    return out


def _norm(text: str) -> str:
    return re.sub(r"[\s|　]", "", text)


def _shared_text(parts: tuple[str, ...]) -> str:
    return shared_path(*parts).read_text(encoding="utf-8")


# --- completeness and sourcing --------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_file_lists_every_field_and_every_yaku(preset: str) -> None:
    data = tomllib.loads((PRESET_DIR / f"{preset}.toml").read_text(encoding="utf-8"))
    assert "extends" not in data, "presets are complete, not built on each other"
    assert set(data) == set(RULE_FIELDS)
    assert set(data["yaku"]) == set(STANDARD_YAKU_HAN)
    assert set(data["yakuman"]) == set(STANDARD_YAKUMAN)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_value_cites_a_matrix_row_or_platform_source(preset: str) -> None:
    for key, comment in _value_lines(preset):
        if key in ("name", "description"):
            continue
        assert ROW_RE.search(comment) or "PLATFORMS" in comment, f"{preset}.toml {key}: no source in {comment!r}"


@pytest.mark.parametrize("preset", PRESETS)
def test_cited_row_ids_exist_in_the_matrix(preset: str) -> None:
    matrix = _shared_text(MATRIX)
    for key, comment in _value_lines(preset):
        for row in ROW_RE.findall(comment):
            assert re.search(rf"\b{re.escape(row)}\b", matrix), f"{preset}.toml {key}: {row} not in RULES_MATRIX"


@pytest.mark.parametrize("preset", PRESETS)
def test_quoted_japanese_is_verbatim_from_the_sources(preset: str) -> None:
    """Every 「quote」 is copied from a seed, the matrix or PLATFORMS.md; a quote cited with
    `seed NNN Lnn` is on that line of that seed."""
    seeds = {k: _shared_text(("seeds", f)).splitlines() for k, f in SEED_FILES.items()}
    everything = _norm("\n".join(["\n".join(s) for s in seeds.values()]
                                 + [_shared_text(MATRIX), _shared_text(PLATFORMS)]))
    for key, comment in _value_lines(preset):
        cite = CITE_RE.search(comment)
        for quote in QUOTE_RE.findall(comment):
            parts = [p for p in re.split(r"…|\.\.\.", quote) if p.strip()]
            for part in parts:
                assert _norm(part) in everything, f"{preset}.toml {key}: 「{quote}」 not found in the sources"
        if cite and QUOTE_RE.search(cite.group(4)):
            seed, first, last = cite.group(1), int(cite.group(2)), int(cite.group(3) or cite.group(2))
            lines = _norm("".join(seeds[seed][first - 1:last]))
            quote = QUOTE_RE.search(cite.group(4))
            assert quote is not None
            head = re.split(r"…|\.\.\.", quote.group(1))[0]
            assert _norm(head) in lines, f"{preset}.toml {key}: 「{head}」 is not on seed {seed} L{first}"


def test_preset_name_matches_its_file() -> None:
    for name in PRESETS:
        assert P(name).name == name
        assert P(name).description


# --- consistency between fields (a preset that contradicts itself fails here) ---------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_open_tanyao_han_follows_kuitan_P66(preset: str) -> None:
    r = P(preset)
    assert (r.yaku["tanyao"][1] > 0) == (r.kuitan != "no")


@pytest.mark.parametrize("preset", PRESETS)
def test_kita_dora_only_where_north_is_pulled_P15_P16(preset: str) -> None:
    r = P(preset)
    pulled = r.north_mode in ("nuki", "nuki_restricted")
    assert (r.kita_dora > 0) == pulled
    assert r.ron_on_kita == pulled


@pytest.mark.parametrize("preset", PRESETS)
def test_yakuman_table_agrees_with_renhou_nagashi_and_open_riichi_P63_P96_P82(preset: str) -> None:
    r = P(preset)
    assert (r.yakuman["renhou"] > 0) == (r.renhou_value == "yakuman")
    assert (r.yakuman["nagashi"] > 0) == (r.nagashi == "yakuman")
    assert (r.yaku["open_riichi"][0] > 0) == r.open_riichi == (r.yakuman["open_riichi_deal_in"] > 0)
    # shousharin is either a han yaku or a yakuman, never both (Y33)
    assert not (r.yaku["shousharin"][0] and r.yakuman["shousharin"])


@pytest.mark.parametrize("preset", PRESETS)
def test_no_chip_amounts_without_chips_P113(preset: str) -> None:
    r = P(preset)
    amounts = (r.chip_ippatsu, r.chip_ura, r.chip_yakuman_ron, r.chip_yakuman_tsumo, r.chip_flower,
               r.bust_chips, r.chip_chiicha_not_top, *r.chip_menzen_chinitsu, *r.chip_menzen_junchan)
    if not r.chips:
        assert not any(amounts) and not r.streak_chips and r.uma_type != "chips"


@pytest.mark.parametrize("preset", PRESETS)
def test_sanankou_is_one_reading_only_Y21(preset: str) -> None:
    r = P(preset)
    split = r.yaku["tsumori_sanankou"][0] > 0
    assert split == (r.yaku["deki_sanankou"][0] > 0)
    assert split != (r.yaku["sanankou"][0] > 0)


# --- values that define each preset ----------------------------------------------------------------


@pytest.mark.parametrize(("preset", "ron", "tsumo"), [
    ("club", 1500, 500), ("online", 600, 300), ("official", 1000, 1000), ("kansai", 1000, 500),
    ("tenhou", 200, 100), ("majsoul", 200, 100)])
def test_honba_per_stick_P43_P44(preset: str, ron: int, tsumo: int) -> None:
    """P43/P44: club 「1本あたり1,500点」 (500 per payer), online 600 (A001-8), official 1000 both
    (A002-2), kansai 1000/500 (A003-4), Tenhou and Mahjong Soul 200 / 100 per payer (PLATFORMS)."""
    assert (P(preset).honba_ron, P(preset).honba_tsumo) == (ron, tsumo)


def test_club_honba_1500_per_stick_P43() -> None:
    assert P("club").honba_ron == 1500 and P("club").honba_tsumo * 2 == 1000


@pytest.mark.parametrize(("preset", "model"), [
    ("club", "tsumo_son"), ("online", "equal_halves"), ("official", "tsumo_son"),
    ("kansai", "equal_halves"), ("tenhou", "tsumo_son"), ("majsoul", "tsumo_son")])
def test_tsumo_payment_model_P50(preset: str, model: str) -> None:
    """P50: club ツモ損 (A), online 折半 (C, A001-18), official A (A002-4), kansai 満額 with the C split (A003-3)."""
    assert P(preset).tsumo_payment == model


@pytest.mark.parametrize(("preset", "model", "amount"), [
    ("club", "per_pair", 1000), ("online", "pool", 3000), ("official", "pool", 2000),
    ("kansai", "per_pair", 1000), ("tenhou", "pool", 2000), ("majsoul", "pool", 2000)])
def test_noten_payment_P46(preset: str, model: str, amount: int) -> None:
    """P46 with A000-8 (per pair), A001-9 (pool 3000), A002-3 (pool 2000), A003-5 (per pair)."""
    assert (P(preset).noten_model, P(preset).noten_amount) == (model, amount)


@pytest.mark.parametrize(("preset", "mode", "seat_wind"), [
    ("club", "plain", "north"), ("online", "nuki", "none"), ("official", "nuki_restricted", "none"),
    ("kansai", "yakuhai", "none"), ("tenhou", "nuki", "none"), ("majsoul", "nuki", "none")])
def test_north_mode_P15_and_empty_seat_wind_A000_26(preset: str, mode: str, seat_wind: str) -> None:
    assert (P(preset).north_mode, P(preset).empty_seat_wind) == (mode, seat_wind)


def test_official_north_cannot_be_ponned_or_discarded_and_is_air_P20_P17_P18() -> None:
    r = P("official")
    assert not r.north_can_pon and not r.north_can_discard
    assert not r.kita_breaks_first_turn and not r.kita_replacement_is_rinshan


@pytest.mark.parametrize(("preset", "p", "s", "always"), [
    ("club", 0, 0, True), ("online", 1, 1, False), ("official", 2, 2, False),
    ("kansai", 4, 4, True), ("tenhou", 1, 1, False), ("majsoul", 1, 1, False)])
def test_red_fives_P05_and_always_dora_fives_P06(preset: str, p: int, s: int, always: bool) -> None:
    r = P(preset)
    assert (r.red_5p, r.red_5s, r.always_dora_fives) == (p, s, always)


@pytest.mark.parametrize(("preset", "kazoe", "chiitoi"), [
    ("club", 13, 25), ("online", 13, 25), ("official", 14, 30), ("kansai", 14, 40),
    ("tenhou", 13, 25), ("majsoul", 13, 25)])
def test_kazoe_P59_and_chiitoitsu_fu_P53(preset: str, kazoe: int, chiitoi: int) -> None:
    assert (P(preset).kazoe_min_han, P(preset).chiitoi_fu) == (kazoe, chiitoi)


def test_official_every_hand_30_fu_plus_1_han_per_kan_no_tsumo_pinfu_P52_P56_A002_16() -> None:
    r = P("official")
    assert (r.fu_mode, r.kan_han_bonus, r.pinfu_on_tsumo) == ("fixed_30", 1, False)
    assert all(P(p).kan_han_bonus == 0 and P(p).fu_mode == "normal" for p in PRESETS if p != "official")


@pytest.mark.parametrize(("preset", "kuitan"), [
    ("club", "no"), ("online", "yes"), ("official", "not_alone"), ("kansai", "no"),
    ("tenhou", "yes"), ("majsoul", "yes")])
def test_kuitan_P66(preset: str, kuitan: str) -> None:
    assert P(preset).kuitan == kuitan


def test_club_junchan_4_3_and_sanshoku_doukou_3_3_Y30_Y27() -> None:
    """Seed 000: 純チャン 「一般的ルールより1ハン多い」, 三色同刻 in the 3-han list."""
    assert P("club").yaku["junchan"] == (4, 3)
    assert P("club").yaku["sanshoku_doukou"] == (3, 3)
    assert all(P(p).yaku["junchan"] == (3, 2) for p in PRESETS if p != "club")


def test_club_sanankou_is_tsumori_2_and_deki_3_A000_6() -> None:
    r = P("club")
    assert r.yaku["tsumori_sanankou"] == (2, 2) and r.yaku["deki_sanankou"] == (3, 3)
    assert r.yaku["sanankou"] == (0, 0)


def test_club_open_riichi_kanburi_and_deal_in_yakuman_Y03_Y04_Y13() -> None:
    r = P("club")
    assert r.open_riichi and r.yaku["open_riichi"] == (1, 0) and r.yakuman["open_riichi_deal_in"] == 1
    assert r.yaku["kanburi"] == (1, 1)


def test_double_riichi_han_is_total_including_riichi_Y02_A000_2() -> None:
    assert all(P(p).yaku["double_riichi"] == (2, 0) for p in PRESETS)


@pytest.mark.parametrize(("preset", "local"), [
    ("club", {"sanrenkou"}), ("online", set()), ("official", {"sanrenkou", "sanpuu", "shousharin"}),
    ("kansai", {"sanrenkou", "sanpuu", "shousharin"}), ("tenhou", set()), ("majsoul", set())])
def test_local_han_yaku_per_preset_Y23_Y24_Y33(preset: str, local: set[str]) -> None:
    r = P(preset)
    assert {y for y in ("sanrenkou", "sanpuu", "shousharin") if r.yaku[y][0]} == local


@pytest.mark.parametrize(("preset", "local"), [
    ("club", {"suurenkou", "shousharin", "daisharin", "open_riichi_deal_in"}),
    ("online", {"daisharin"}),
    ("official", {"suurenkou", "daisharin", "nagashi"}),
    ("kansai", {"suurenkou", "daisharin", "mankon", "nagashi"}),
    ("tenhou", set()), ("majsoul", set())])
def test_local_yakuman_per_preset_Y32_to_Y36(preset: str, local: set[str]) -> None:
    r = P(preset)
    names = ("suurenkou", "shousharin", "daisharin", "mankon", "open_riichi_deal_in", "nagashi")
    assert {y for y in names if r.yakuman[y]} == local


@pytest.mark.parametrize(("preset", "doubles"), [
    ("club", {"kokushi_13", "suuankou_tanki", "tsuuiisou_chiitoi", "daisuushii", "chuuren_9", "tenhou",
              "daisharin"}),
    ("online", {"daisuushii", "kokushi_13", "suuankou_tanki", "chuuren_9"}),
    ("official", set()), ("kansai", set()), ("tenhou", set()),
    ("majsoul", {"kokushi_13", "suuankou_tanki", "chuuren_9", "daisuushii"})])
def test_double_yakuman_patterns_P61(preset: str, doubles: set[str]) -> None:
    assert {y for y, m in P(preset).yakuman.items() if m == 2} == doubles
    assert max(P(preset).yakuman.values()) <= 2


def test_online_daisharin_pin_only_and_official_flush_chiitoi_Y34_Y33() -> None:
    assert P("online").daisharin_suits == "p"
    assert P("official").sharin_definition == "flush_chiitoi"
    assert P("club").sharin_definition == "consecutive" and P("club").daisharin_suits == "ps"


def test_menzen_yakuman_bonus_only_club_P62() -> None:
    assert [p for p in PRESETS if P(p).menzen_yakuman_bonus] == ["club"]
    assert "suukantsu" in PON_CAPABLE_YAKUMAN


@pytest.mark.parametrize(("preset", "start", "ret", "oka", "uma_type", "uma"), [
    ("club", 15000, 20000, True, "chips", (4, -1, -3)),
    ("online", 35000, 40000, True, "points", (10, 0, -10)),
    ("official", 40000, 40000, False, "sinking", (30, -10, -20)),
    ("kansai", 35000, 40000, True, "none", (0, 0, 0)),
    ("tenhou", 35000, 40000, True, "points", (20, 0, -20)),
    ("majsoul", 35000, 35000, False, "points", (15, 0, -15))])
def test_points_oka_and_uma_P23_to_P27(preset: str, start: int, ret: int, oka: bool, uma_type: str,
                                        uma: tuple[int, int, int]) -> None:
    """Majsoul follows its records (PLATFORMS "disagree" §1): 35000 return, no oka, 15/0/-15."""
    r = P(preset)
    assert (r.start_points, r.return_points, r.oka, r.uma_type, r.uma) == (start, ret, oka, uma_type, uma)
    if r.uma_type in ("points", "sinking"):
        assert sum(r.uma) == 0


def test_official_sinking_uma_two_floating_and_split_ties_P27_P29_P31() -> None:
    r = P("official")
    assert r.uma_two_floating == (20, 10, -30) and r.tie_break == "split" and r.leftover_riichi == "forfeit"


@pytest.mark.parametrize(("preset", "winds", "overtime"), [
    ("club", "EE", "club_laps"), ("online", "ES", "none"), ("official", "ES", "none"),
    ("kansai", "ES", "kaeri_ton"), ("tenhou", "ES", "west"), ("majsoul", "ES", "west")])
def test_game_length_and_overtime_P33_P34(preset: str, winds: str, overtime: str) -> None:
    assert (P(preset).round_winds, P(preset).overtime) == (winds, overtime)


@pytest.mark.parametrize(("preset", "agari", "tenpai"), [
    ("club", "forbidden", "forbidden"), ("online", "auto", "auto"), ("official", "forbidden", "forbidden"),
    ("kansai", "auto", "forbidden"), ("tenhou", "auto", "auto"), ("majsoul", "auto", "auto")])
def test_agari_yame_P38_and_tenpai_yame_P39(preset: str, agari: str, tenpai: str) -> None:
    assert (P(preset).agari_yame, P(preset).tenpai_yame) == (agari, tenpai)


def test_kansai_south_dealer_stays_and_kaeri_ton_target_40000_P37_P35() -> None:
    r = P("kansai")
    assert r.dealer_stays_on_noten_draw_rounds == "S" and r.four_kans_dealer_passes_rounds == "E"
    assert r.top_must_reach_return and r.target_points == 40000 and r.agari_yame_tied_top


def test_kansai_furiten_is_not_tenpai_and_blocks_tsumo_P47_P76() -> None:
    r = P("kansai")
    assert not r.tenpai_furiten and not r.furiten_tsumo and r.same_turn_discard_blocks_tsumo
    assert r.chiitoi_four_of_a_kind and r.kan_after_riichi == "no_okurikan"


def test_kansai_flowers_four_with_one_chip_flower_P02_P119() -> None:
    r = P("kansai")
    assert (r.flowers, r.flower_chip_tiles, r.flower_dora, r.chip_flower) == (4, 1, 1, 1)
    assert all(P(p).flowers == 0 for p in PRESETS if p != "kansai")


def test_club_two_han_minimum_from_4_honba_without_ippatsu_P64_P65() -> None:
    r = P("club")
    assert r.shibari_from_honba == 4 and not r.shibari_counts_ippatsu and r.shibari_counts_dora


def test_club_chips_and_bust_P110_to_P121() -> None:
    r = P("club")
    assert (r.bust_chips, r.bust_extra_box_chips, r.early_bust_chips) == (3, 3, (5, 8))
    assert (r.chip_ippatsu, r.chip_ura, r.chip_yakuman_ron, r.chip_yakuman_tsumo) == (3, 3, 30, 15)
    assert r.chip_menzen_chinitsu == (10, 5) == r.chip_menzen_junchan
    assert r.players_in_rotation == 4 and r.uma_doubling and r.streak_chips


@pytest.mark.parametrize(("preset", "nagashi", "is_win"), [
    ("club", "baiman", True), ("online", "mangan", False), ("official", "yakuman", True),
    ("kansai", "yakuman", True), ("tenhou", "mangan", False), ("majsoul", "mangan", False)])
def test_nagashi_value_and_kind_P96(preset: str, nagashi: str, is_win: bool) -> None:
    assert (P(preset).nagashi, P(preset).nagashi_is_win) == (nagashi, is_win)


@pytest.mark.parametrize(("preset", "pao"), [
    ("club", ("daisangen", "daisuushii", "suukantsu")), ("online", ("daisangen", "daisuushii")),
    ("official", ()), ("kansai", ("daisangen", "daisuushii")), ("tenhou", ("daisangen", "daisuushii")),
    ("majsoul", ("daisangen", "daisuushii"))])
def test_pao_yakuman_P97(preset: str, pao: tuple[str, ...]) -> None:
    assert P(preset).pao_yaku == pao


@pytest.mark.parametrize(("preset", "ankan"), [
    ("club", "kokushi"), ("online", "kokushi"), ("official", "never"), ("kansai", "kokushi"),
    ("tenhou", "never"), ("majsoul", "kokushi")])
def test_chankan_on_ankan_P127(preset: str, ankan: str) -> None:
    assert P(preset).chankan_on_ankan == ankan


def test_platform_busts_below_zero_and_seeds_at_zero_P108() -> None:
    assert {p: P(p).bust for p in PRESETS} == {
        "club": "zero_or_below", "online": "zero_or_below", "official": "zero_or_below",
        "kansai": "zero_or_below", "tenhou": "below_zero", "majsoul": "below_zero"}


def test_online_dead_wall_18_not_replenished_P14_A001_11() -> None:
    r = P("online")
    assert (r.dead_wall_size, r.dead_wall_replenished) == (18, False)
    assert P("official").dead_wall == "to_indicator" and P("official").rinshan_tiles == 4


def test_tenhou_kan_dora_with_discard_and_majsoul_pao_part_PLATFORMS() -> None:
    """PLATFORMS §1 (corrected 2026-12-02): Tenhou turns an open kan's indicator with the kan player's
    next discard; §2: Mahjong Soul after the replacement draw (unverified)."""
    assert P("tenhou").kan_dora_open == "with_discard" and P("tenhou").pao_compound == "whole"
    assert P("majsoul").kan_dora_open == "before_discard" and P("majsoul").pao_compound == "pao_part"
