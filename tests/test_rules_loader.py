"""Rule files: extends/merge semantics and every validation error, each naming file and field."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sanma
from sanma.errors import RulesError
from sanma.rules.loader import PRESETS, diff, from_dict, load, load_file, load_preset, to_dict
from sanma.rules.schema import RULE_FIELDS, STANDARD_YAKU_HAN, STANDARD_YAKUMAN, Rules

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- extends and merge ---------------------------------------------------------------------------


def test_extends_keeps_the_preset_and_overrides_given_fields(tmp_path: Path) -> None:
    r = load_file(write(tmp_path, 'extends = "kansai"\nhonba_ron = 600\n'))
    kansai = load_preset("kansai")
    assert r.honba_ron == 600
    assert diff(r, kansai) == [("honba_ron", 1000, 600)]
    assert (r.north_mode, r.flowers, r.chiitoi_fu) == ("yakuhai", 4, 40)


def test_yaku_table_merges_key_by_key_Y30(tmp_path: Path) -> None:
    r = load_file(write(tmp_path, 'extends = "tenhou"\n[yaku]\njunchan = [4, 3]\n[yakuman]\ndaisuushii = 2\n'))
    tenhou = load_preset("tenhou")
    assert r.yaku["junchan"] == (4, 3) and r.yakuman["daisuushii"] == 2
    assert {k: v for k, v in r.yaku.items() if k != "junchan"} == {
        k: v for k, v in tenhou.yaku.items() if k != "junchan"}
    assert r.han("junchan", closed=False) == 3


def test_without_extends_the_base_is_the_schema_defaults(tmp_path: Path) -> None:
    r = load_file(write(tmp_path, "honba_ron = 300\n"))
    assert diff(r, Rules()) == [("honba_ron", 1000, 300)]


def test_name_defaults_to_the_file_stem_and_can_be_set(tmp_path: Path) -> None:
    assert load_file(write(tmp_path, 'extends = "club"\n', "friday-night.toml")).name == "friday-night"
    assert load_file(write(tmp_path, 'name = "Thursday"\n')).name == "Thursday"


def test_description_inherited_with_its_base_named(tmp_path: Path) -> None:
    r = load_file(write(tmp_path, 'extends = "online"\n'))
    assert r.description.startswith("Based on online: ")


def test_every_preset_round_trips_through_a_dict() -> None:
    for name in PRESETS:
        r = load_preset(name)
        assert from_dict(to_dict(r), "roundtrip") == r


def test_presets_are_cached_and_hashable() -> None:
    assert sanma.Rules.preset("club") is sanma.Rules.preset("club")
    assert len({load_preset(p) for p in PRESETS}) == len(PRESETS)


def test_rules_load_and_load_by_name_or_path(tmp_path: Path) -> None:
    path = write(tmp_path, 'extends = "majsoul"\nkazoe_min_han = 0\n')
    assert sanma.Rules.load(str(path)).kazoe_min_han == 0
    assert load(str(path)) == sanma.Rules.load(str(path))
    assert load("official") is load_preset("official")
    assert sanma.Rules.presets() == PRESETS


def test_negative_uma_is_allowed_P27(tmp_path: Path) -> None:
    r = load_file(write(tmp_path, "uma = [30, -5, -25]\n"))
    assert r.uma == (30, -5, -25)


def test_example_myclub_extends_kansai() -> None:
    r = load_file(ROOT / "examples" / "myclub.toml")
    kansai = load_preset("kansai")
    assert r.name == "myclub"
    assert (r.honba_ron, r.noten_model, r.noten_amount, r.kazoe_min_han) == (500, "pool", 2000, 13)
    assert r.yaku["junchan"] == (4, 3) and r.yakuman["kokushi_13"] == 2
    assert r.north_mode == kansai.north_mode and r.flowers == kansai.flowers


# --- validation errors ---------------------------------------------------------------------------


def error(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as info:
        load_file(path)
    message = str(info.value)
    assert message.startswith(str(path)), message  # every message names the file
    return message


def test_unknown_field_suggests_the_closest_not_every_field(tmp_path: Path) -> None:
    """Issue 18: a misspelt field was answered with ~200 field names in one paragraph. The answer names
    the closest field (or the fields sharing its first word) and where every field is listed."""
    m = error(tmp_path, "honba_rom = 600\n")
    assert "unknown field 'honba_rom'" in m and "did you mean 'honba_ron'?" in m
    assert "sanma rules show" in m and "noten_amount" not in m and len(m) < len(str(tmp_path)) + 200
    m = error(tmp_path, "honba_everything_else_entirely = 600\n")
    assert "names like it: 'honba_ron', 'honba_tsumo'" in m, m
    assert "did you mean 'extends'?" in error(tmp_path, "extend = 'tenhou'\n")


def test_bool_is_not_an_int(tmp_path: Path) -> None:
    m = error(tmp_path, "honba_ron = true\n")
    assert "field 'honba_ron' must be an integer, not a boolean (true)" in m


def test_int_is_not_a_bool(tmp_path: Path) -> None:
    assert "field 'oka' must be true or false, not an integer (1)" in error(tmp_path, "oka = 1\n")


def test_string_for_int(tmp_path: Path) -> None:
    assert "field 'start_points' must be an integer, not a string" in error(tmp_path, 'start_points = "35000"\n')


def test_tuple_must_have_the_right_length(tmp_path: Path) -> None:
    m = error(tmp_path, "uma = [20, -20]\n")
    assert "field 'uma' must be an array of 3 integers, got 2: [20, -20]" in m


def test_tuple_elements_are_checked(tmp_path: Path) -> None:
    assert "field 'uma'[1] must be an integer, not a float" in error(tmp_path, "uma = [20, 0.5, -20]\n")
    assert "field 'uma' must be an array" in error(tmp_path, "uma = 20\n")


def test_enum_value_must_be_one_of_the_choices(tmp_path: Path) -> None:
    m = error(tmp_path, 'north_mode = "nukki"\n')
    assert "field 'north_mode' must be one of 'plain', 'nuki', 'nuki_restricted', 'yakuhai'" in m
    assert "did you mean 'nuki'?" in m


def test_unknown_yaku_and_yakuman(tmp_path: Path) -> None:
    m = error(tmp_path, "[yaku]\njunchen = [4, 3]\n")
    assert "unknown yaku 'junchen' (did you mean 'junchan'?)" in m and "valid yaku:" in m
    m = error(tmp_path, "[yakuman]\nkokushi13 = 2\n")
    assert "unknown yakuman 'kokushi13'" in m and "kokushi_13" in m


def test_yaku_value_must_be_two_han(tmp_path: Path) -> None:
    assert "field 'yaku'.junchan must be an array [closed han, open han]" in error(
        tmp_path, "[yaku]\njunchan = 4\n")
    assert "field 'yaku' must be a table" in error(tmp_path, "yaku = 3\n")


def test_negative_amounts_are_rejected(tmp_path: Path) -> None:
    assert "field 'honba_ron' must not be negative, got -100" in error(tmp_path, "honba_ron = -100\n")
    assert "field 'yaku'.chinitsu[1] must not be negative" in error(tmp_path, "[yaku]\nchinitsu = [6, -1]\n")
    assert "field 'yakuman'.daisuushii must not be negative" in error(tmp_path, "[yakuman]\ndaisuushii = -2\n")
    assert "field 'chip_menzen_junchan'[0] must not be negative" in error(
        tmp_path, "chip_menzen_junchan = [-10, 5]\n")


def test_bounded_counts(tmp_path: Path) -> None:
    assert "field 'red_5p' must be from 0 to 4, got 5" in error(tmp_path, "red_5p = 5\n")
    assert "field 'rounding' must be at least 1, got 0" in error(tmp_path, "rounding = 0\n")


def test_wind_letters(tmp_path: Path) -> None:
    assert "field 'round_winds' must be a string of the letters 'ESWN'" in error(tmp_path, 'round_winds = "EX"\n')
    assert "round_winds" in error(tmp_path, 'round_winds = ""\n')


def test_pao_yaku_must_name_yakuman_P97(tmp_path: Path) -> None:
    assert "field 'pao_yaku'[1]: unknown yakuman 'daisangn'" in error(
        tmp_path, 'pao_yaku = ["daisuushii", "daisangn"]\n')


def test_extends_must_name_a_preset(tmp_path: Path) -> None:
    m = error(tmp_path, 'extends = "tenho"\n')
    assert "field 'extends' names unknown preset 'tenho' (did you mean 'tenhou'?)" in m
    assert "club, online, official, kansai, tenhou, majsoul" in m
    assert "field 'extends' must be a preset name" in error(tmp_path, "extends = 3\n")


def test_malformed_toml_reports_line_and_column(tmp_path: Path) -> None:
    m = error(tmp_path, 'extends = "club"\nhonba_ron = = 3\n')
    assert "malformed TOML" in m and "line 2" in m and "column" in m


def test_chip_flowers_cannot_exceed_flowers_P119(tmp_path: Path) -> None:
    m = error(tmp_path, "flowers = 0\nflower_chip_tiles = 1\n")
    assert "field 'flower_chip_tiles' is 1 but there are only 0 flowers" in m


def test_missing_file_is_a_rules_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"nope\.toml: cannot read rule file"):
        load_file(tmp_path / "nope.toml")


def test_unknown_preset_suggests_the_closest() -> None:
    with pytest.raises(RulesError, match=r"unknown preset 'kansay' \(did you mean 'kansai'\?\)"):
        sanma.Rules.preset("kansay")
    with pytest.raises(RulesError, match="unknown preset"):
        load_preset(["club"])  # type: ignore[arg-type]  # unhashable input still gives a RulesError


# --- fuzz: any TOML-ish input gives Rules or a RulesError, never another exception ---------------

SCALARS = st.one_of(st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                    st.text(max_size=12), st.sampled_from(["nuki", "ES", "pool", "daisangen", ""]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=8)
KEYS = st.one_of(st.sampled_from([*RULE_FIELDS, "extends"]), st.text(max_size=15))
YAKU_TABLE = st.dictionaries(st.one_of(st.sampled_from(list(STANDARD_YAKU_HAN)), st.text(max_size=6)),
                             st.one_of(st.lists(st.integers(-3, 20), max_size=3), SCALARS), max_size=3)
YAKUMAN_TABLE = st.dictionaries(st.one_of(st.sampled_from(list(STANDARD_YAKUMAN)), st.text(max_size=6)),
                                VALUES, max_size=3)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=6), st.one_of(st.none(), st.sampled_from([*PRESETS, "x"])),
       st.one_of(st.none(), YAKU_TABLE), st.one_of(st.none(), YAKUMAN_TABLE))
def test_fuzz_dicts_only_raise_rules_error(data: dict[str, Any], extends: str | None,
                                           yaku: dict[str, Any] | None, yakuman: dict[str, Any] | None) -> None:
    if extends is not None:
        data["extends"] = extends
    if yaku is not None:
        data["yaku"] = yaku
    if yakuman is not None:
        data["yakuman"] = yakuman
    try:
        r = from_dict(data, "fuzz.toml")
    except RulesError as e:
        assert str(e).startswith("fuzz.toml") or "unknown preset" in str(e)
    else:
        assert isinstance(r, Rules)
        hash(r)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='abcdefghijklmnopqrstuvwxyz_=[]{}"\'.,#\n 0123456789-+', max_size=80))
def test_fuzz_text_only_raises_rules_error(text: str) -> None:
    from sanma.rules.loader import parse_toml

    try:
        from_dict(parse_toml(text, "fuzz.toml"), "fuzz.toml")
    except RulesError as e:
        assert str(e).startswith("fuzz.toml")


@pytest.mark.parametrize(("field", "value"), [("paarenchan", "true"), ("closed_katagari", "false"),
                                              ("negative_scores_settled", "false"),
                                              ("open_double_back", "false")])
def test_unimplemented_rule_values_are_refused_not_ignored(field: str, value: str) -> None:
    """P41, P68, P109, P69: a rule file cannot silently ask for behaviour the engine lacks."""
    with pytest.raises(RulesError, match=f"field '{field}'.*not implemented"):
        from_dict(tomllib.loads(f'extends = "tenhou"\n{field} = {value}\n'), "club.toml")
