"""Issue 13, seed fidelity: every place a preset reads its seed other than literally is a field,
with the literal reading one field away.

Each test quotes the seed sentence (checked verbatim against ../shared/seeds), proves the
preset's default reading and proves the literal one through the field. Rows (P.., Y..) and
ambiguity ids (A...) of RULES_MATRIX are in the test names. Expected values are worked out from the
seed text in the comments, never read back from ``Rules``.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sanma
from engine_helpers import act, events_of, find, last, pass_all, start, tsumogiri
from sanma.cli.rules import readings_note
from sanma.game.engine import Game
from sanma.game.payout import RiichiBust, settle
from sanma.game.settle import riichi_bust
from sanma.rules.departures import READINGS, Reading, other_rules, problems, readings_of
from sanma.rules.docs import preset_source, readings_anchor, silent_fields, value_text
from sanma.rules.loader import from_dict, parse_toml
from sanma.rules.schema import Rules
from sanma.scoring import payments
from shared_data import shared_path


def seed_line(seed: str, line: int) -> str:
    """Line ``line`` (1-based) of seed ``seed`` ("000".."003")."""
    (path,) = shared_path("seeds").glob(f"{seed}_*.txt")
    return path.read_text(encoding="utf-8").splitlines()[line - 1]


def assert_quote(seed: str, line: int, quote: str) -> None:
    """The quoted sentence is on that line of the seed (spaces ignored)."""
    def norm(s: str) -> str:
        return re.sub(r"\s+", "", s)
    assert norm(quote) in norm(seed_line(seed, line)), f"「{quote}」 is not on seed {seed} L{line}"


def P(name: str) -> Rules:
    return Rules.preset(name)


def names(s: sanma.Score) -> dict[str, int]:
    return {y.name: y.han or y.yakuman for y in s.yaku}


# ----------------------------------------------------------------------------------------------
# 1. Kansai 小車輪 (Y33, A003-19, A002-10)
# ----------------------------------------------------------------------------------------------
HONITSU_PAIRS = "11337799p112233z"  # honitsu seven pairs: chiitoi 2 + honitsu 3 = 5 han as ordinary yaku
CONSECUTIVE_PAIRS = "11223344556677s"  # pairs 1-7 in one suit: at least chiitoi 2 + chinitsu 6 = 8 han


def test_kansai_shousharin_scores_as_seed_002s_honitsu_seven_pairs_Y33_A003_19_A002_10() -> None:
    """Seed 003 「「小車輪」→6翻」 gives no definition; seed 002 「小車輪（混一七対子）は６飜」 does. Under
    A003-19's consecutive pairs (the old default) the hand is a chinitsu seven pairs, 8 han, so a 6-han
    yaku could never score; as 混一七対子 it is 6 han where honitsu + chiitoi are 5."""
    assert_quote("003", 34, "「小車輪」→6翻")
    assert_quote("002", 50, "小車輪（混一七対子）は６飜")
    kansai = P("kansai")
    s = sanma.score_hand(HONITSU_PAIRS, win="1z", rules=kansai, seat_wind="S")
    assert names(s) == {"shousharin": 6} and s.han == 6
    # The A003-19 reading, one field away: the same hand is honitsu + chiitoi, and the consecutive
    # pairs that define it there score chinitsu + chiitoi: the 6 han never show.
    literal = dataclasses.replace(kansai, shousharin_definition="consecutive")
    s = sanma.score_hand(HONITSU_PAIRS, win="1z", rules=literal, seat_wind="S")
    assert names(s) == {"chiitoitsu": 2, "honitsu": 3}
    s = sanma.score_hand(CONSECUTIVE_PAIRS, win="7s", rules=literal, seat_wind="S")
    assert "shousharin" not in names(s) and names(s)["chinitsu"] == 6 and s.han > 6  # (ryanpeikou too)
    # The other reading the issue names: 6 han counted on top of the seven pairs and the flush
    # (2 + 6 + 6 = 14 before the two red fives, P06): a counted yakuman.
    on_top = dataclasses.replace(literal, shousharin_on_top=True)
    s = sanma.score_hand(CONSECUTIVE_PAIRS, win="7s", rules=on_top, seat_wind="S")
    assert {k: names(s)[k] for k in ("chiitoitsu", "chinitsu", "shousharin")} == {
        "chiitoitsu": 2, "chinitsu": 6, "shousharin": 6}
    assert s.limit == "yakuman" and s.kazoe  # P59 seed 003 「数え役満は14翻からです」


def test_official_shousharin_unchanged_and_club_keeps_its_yakuman_Y33() -> None:
    """The split of ``sharin_definition`` (daisharin) and ``shousharin_definition`` leaves OFFICIAL
    (6 han, 混一七対子) and CLUB (「小車輪 [索子可。1～7または3～9]」, a yakuman) as they were."""
    assert_quote("000", 224, "小車輪 [索子可。1～7または3～9]")
    s = sanma.score_hand(HONITSU_PAIRS, win="1z", rules=P("official"), seat_wind="S")
    assert names(s) == {"shousharin": 6}
    s = sanma.score_hand(CONSECUTIVE_PAIRS, win="7s", rules=P("club"), seat_wind="S")
    assert "shousharin" in names(s) and s.yakuman >= 1
    # OFFICIAL daisharin is still any chinitsu seven pairs (「大車輪（清一七対子）」, A002-11).
    s = sanma.score_hand("11334466778899p", win="9p", rules=P("official"), seat_wind="S")
    assert names(s) == {"daisharin": 1}


# ----------------------------------------------------------------------------------------------
# 2. Seed 001's printed non-dealer limit rows (P58, A001-4)
# ----------------------------------------------------------------------------------------------
PRINTED_001 = (8000, 12000, 18000, 24000, 36000)  # seed 001 L109, 子勝利時: 満貫 … 数え役満 ron values
CHINITSU = "11123334678999p"  # closed chinitsu: riichi + tsumo + chinitsu 6 = 8 han, baiman
KAZOE = ("11223344556677p", "7p")  # chiitoi 2 + chinitsu 6 + riichi 1 + dora 4 (1p indicator → 2p) = 13


def test_online_nondealer_limits_standard_by_default_printed_table_one_field_away_P58_A001_4() -> None:
    """Seed 001 prints 「倍満 8翻～10翻 9000 / 9000 18000」 and 「数え役満 13翻以上 18000 / 18000 36000」
    in the non-dealer table; the preset pays the standard 16,000 / 32,000 (A001-4: the dealer's
    values copied). ``nondealer_limit_ron`` set to the printed row reproduces the page."""
    assert_quote("001", 109, "倍満 8翻～10翻 9000 / 9000 18000")
    assert_quote("001", 109, "数え役満 13翻以上 18000 / 18000 36000")
    online = P("online")
    printed = dataclasses.replace(online, nondealer_limit_ron=PRINTED_001)
    for rules, baiman, kazoe in ((online, 16000, 32000), (printed, 18000, 36000)):
        s = sanma.score_hand(CHINITSU, win="6p", riichi=True, tsumo=True, rules=rules, seat_wind="S")
        assert (s.han, s.limit, s.total) == (8, "baiman", baiman)
        assert dict(s.payments) == {"E": baiman // 2, "W": baiman // 2}  # 折半払い: 9000 / 9000 printed
        hand, win = KAZOE
        s = sanma.score_hand(hand, win=win, riichi=True, rules=rules, seat_wind="S", dora_indicators=["1p"])
        assert (s.han, s.limit, s.kazoe, s.total) == (13, "yakuman", True, kazoe)
    # Rows the page prints the same either way: non-dealer haneman 12,000, dealer baiman 24,000.
    s = sanma.score_hand(CHINITSU, win="6p", riichi=True, rules=printed, seat_wind="S")
    assert (s.limit, s.total) == ("haneman", 12000)
    s = sanma.score_hand(CHINITSU, win="6p", riichi=True, tsumo=True, rules=printed, seat_wind="E")
    assert (s.limit, s.total) == ("baiman", 24000)
    # A real yakuman is not in the printed table: 32,000 under either value.
    s = sanma.score_hand("111z222z333z44z555z", win="5z", rules=printed, seat_wind="S")
    assert s.yakuman == 2 and s.total == 64000


# ----------------------------------------------------------------------------------------------
# 5. Seed 001's 字一色 = 1 pair + 4 sets (Y40, A001-16)
# ----------------------------------------------------------------------------------------------
HONOUR_PAIRS = "11223344556677z"


def test_online_tsuuiisou_is_four_sets_and_a_pair_only_Y40_A001_16() -> None:
    """Seed 001 「字一色 字牌のみで1雀頭4面子を揃えたときに成立する役満です」: seven pairs of honours are
    a seven pairs (2 han), not a yakuman; A001-16's reading (a single yakuman) is the yakuman table's
    ``tsuuiisou_chiitoi = 1``, one field away."""
    assert_quote("001", 92, "字一色 字牌のみで1雀頭4面子を揃えたときに成立する役満です")
    online = P("online")
    s = sanma.score_hand(HONOUR_PAIRS, win="7z", rules=online, seat_wind="S")
    assert s.yakuman == 0 and names(s) == {"chiitoitsu": 2}
    s = sanma.score_hand("111z222z333z555z66z", win="6z", rules=online, seat_wind="S")
    assert "tsuuiisou" in names(s)  # the four sets and a pair the seed defines
    matrix = dataclasses.replace(online, yakuman={**online.yakuman, "tsuuiisou_chiitoi": 1})
    s = sanma.score_hand(HONOUR_PAIRS, win="7z", rules=matrix, seat_wind="S")
    assert names(s) == {"tsuuiisou_chiitoi": 1}
    # CLUB 「字一色 [七対子形はダブル]」 is untouched.
    s = sanma.score_hand(HONOUR_PAIRS, win="7z", rules=P("club"), seat_wind="S")
    assert names(s)["tsuuiisou_chiitoi"] == 2


# ----------------------------------------------------------------------------------------------
# 6. Kansai readings that change scores (P50 / A003-3, P04 / A003-2)
# ----------------------------------------------------------------------------------------------
def test_kansai_full_amount_tsumo_rounds_each_half_up_full_amount_field_pays_the_ron_value_P50_A003_3() -> None:
    """Seed 003 「点棒はツモ、ロンあがり共に満額点数で計算します」. Default (matrix D1/D2): each payer
    pays the ron value's half rounded up, so a 3,900 hand collects 4,000. ``tsumo_payment =
    "full_amount"``: the total is the ron value, 2,000 + 1,900 (the dealer, or the dealer's next
    seat, pays the larger half)."""
    assert_quote("003", 22, "点棒はツモ、ロンあがり共に満額点数で計算します")
    kansai = P("kansai")
    full = dataclasses.replace(kansai, tsumo_payment="full_amount")
    # Non-dealer 30 fu 3 han (basic 960, ron 3,900) and dealer 40 fu 2 han (basic 640, ron 3,900).
    for dealer, basic in ((False, 960), (True, 640)):
        assert payments(basic, dealer, False, kansai) == (3900, 0)
        assert payments(basic, dealer, True, kansai) == (2000, 2000)  # D1 / D2: 4,000
        assert payments(basic, dealer, True, full) == (2000, 1900)  # 満額: 3,900
    # Through the scorer: a non-dealer ittsu tsumo, 30 fu 3 han (rules without the Kansai fives).
    hand = "123456789p111s99s"  # wins on 9p (7-8 ryanmen): 20 + 2 tsumo + 8 (111s) = 30 fu
    for model, paid in (("equal_halves", {"E": 2000, "W": 2000}), ("full_amount", {"E": 2000, "W": 1900})):
        s = sanma.score_hand(hand, win="9p", tsumo=True, rules=Rules(tsumo_payment=model), seat_wind="S")
        assert (s.han, s.fu) == (3, 30) and dict(s.payments) == paid and s.total == sum(paid.values())
        assert s.deltas["S"] == sum(paid.values())
    # A dealer's tsumo of 30 fu 1 han (ron 1,500): South, the dealer's next seat, pays 800, West 700.
    s = sanma.score_hand("234p567p222s678s99p", win="8s", tsumo=True, rules=Rules(tsumo_payment="full_amount"),
                         seat_wind="E")
    assert (s.han, s.fu) == (1, 30) and dict(s.payments) == {"S": 800, "W": 700}
    assert dict(s.deltas) == {"E": 1500, "S": -800, "W": -700}


def test_kansai_flowers_one_dora_each_by_default_literal_air_through_flower_dora_P04_A003_2() -> None:
    """Seed 003 「華牌は空気扱いで手の内で使うことも捨てることもできません」 and 「1枚だけチップ対象」: the
    seed gives flowers no dora value; the preset counts 1 each (A003-2, Kansai custom and 「ドラの枚数が
    多い」). ``flower_dora = 0`` is the literal reading: a flower is air, only the chip flower pays."""
    assert_quote("003", 29, "華牌は空気扱いで手の内で使うことも捨てることもできません")
    assert_quote("003", 12, "華牌を4枚使用し、1枚だけチップ対象にします")
    kansai = P("kansai")
    hand = "234p678p234s678s99s"  # tanyao is closed-only here: riichi + tanyao, no fives
    s = sanma.score_hand(hand, win="9s", riichi=True, flowers=2, rules=kansai, seat_wind="S")
    assert names(s).get("flower_dora") == 2
    air = dataclasses.replace(kansai, flower_dora=0)
    s2 = sanma.score_hand(hand, win="9s", riichi=True, flowers=2, rules=air, seat_wind="S")
    assert "flower_dora" not in names(s2) and s2.han == s.han - 2


# ----------------------------------------------------------------------------------------------
# Engine readings: club riichi with 1,000 or less (P79, A000-19), club ura chips (P115, A000-25),
# kansai dama (P86, A003-8) and dobon fee (P110, A003-6). Seats 0, 1, 2 = East, South, West.
# ----------------------------------------------------------------------------------------------
TANKI_1S = "234p789p789s555z1s"  # closed, waits on 1s alone, haku: one yaku
RICH = [100000, 100000, 100000]
KANSAI_FLOWERS = "1f2f3f4f"  # kept in the replacement stack so no hand draws one by chance


def _club_riichi_game(score: int, **kw: object) -> Game:
    rules = kw.pop("rules", P("club"))
    assert isinstance(rules, Rules)
    others = (3 * rules.start_points - score) // 2
    return start(rules, south=TANKI_1S, draws="3z" + "2z", dora="9m",
                 scores=[others, score, 3 * rules.start_points - score - others], seed=13, **kw)  # type: ignore[arg-type]


def test_club_riichi_with_1000_or_less_busts_at_once_at_an_emulated_table_P79_P110_P112_A000_19() -> None:
    """Seed 000 「1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、箱割れチップは両者に
    払う」. Default (an engine): not offered below 1,100. At an emulated table it is declarable and
    the declarer busts at once, paying both others the bust chips: 3 (P110) + 5 for a non-dealer in
    East 1 of the first lap (P112) = 8 each; the uma chips (+4 / -1 / -3, P27) follow."""
    assert_quote("000", 87,
                 "1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、箱割れチップは両者に払う")
    g = _club_riichi_game(1000)
    tsumogiri(g, 0)
    assert find(g, 1, "reach") is None  # default engine: never offered (riichi_min_points 1,100)
    g = _club_riichi_game(1000, table_mistakes=True)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    assert last(g, "riichi_bust")["actor"] == 1 and not events_of(g, "dahai")[1:]  # stopped at the declaration
    assert g.done and g.end_reason == "bust" and g.result is not None
    assert g.result.scores == (22000, 1000, 22000)  # no stick paid, no points moved
    assert g.result.chips == (8 + 4, -16 - 3, 8 - 1)  # East 1st (tie to the seat order), West 2nd
    # 1,100 points: an ordinary riichi, even at an emulated table.
    g = _club_riichi_game(1100, table_mistakes=True)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    assert not g.done and not events_of(g, "riichi_bust")
    # The literal reading in any engine, one field away: riichi_min_points = 0 offers it.
    g = _club_riichi_game(1000, rules=dataclasses.replace(P("club"), riichi_min_points=0))
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    assert g.done and g.result is not None and g.result.chips[1] == -16 - 3


def test_riichi_bust_settled_by_payout_for_the_score_keeper_P79_P110_A000_19() -> None:
    """The settlement the engine and the score keeper both use (``payout.RiichiBust``): where a bust
    ends the game nothing moves at the hand (the end pays it); nothing is a bust where the rule is
    off (KANSAI 「残り1000点からリーチはできます」)."""
    club = P("club")
    assert riichi_bust(club, 1000) and riichi_bust(club, 0) and not riichi_bust(club, 1100)
    paid = settle(club, RiichiBust(1), scores=(52000, 1000, 52000), dealer=0, honba=0, kyotaku=1)
    assert paid.deltas == (0, 0, 0) and paid.chips == (0, 0, 0) and paid.bust_by == (0, 2) and paid.kyotaku == 1
    assert_quote("003", 18, "ただし残り1000点からリーチはできます")
    assert not riichi_bust(P("kansai"), 1000)


def test_club_ura_chips_per_tile_held_by_default_per_han_one_field_away_P115_A000_25() -> None:
    """Seed 000 「裏ドラ（槓裏も含む）の現物が手にあれば、1個につきチップ3枚受け取る」. South holds 555z
    and an ankan's kan ura points at haku as well as the ura: per tile held (the default, the
    literal 現物) 3 tiles x 3 = 9 chips; per ura han (A000-25's recommendation) 6 han x 3 = 18."""
    assert_quote("000", 116, "裏ドラ（槓裏も含む）の現物が手にあれば、1個につきチップ3枚受け取る")
    club = P("club")
    for rules, chips in ((club, 9), (dataclasses.replace(club, ura_chip_count="per_han"), 18)):
        g = start(rules, south="111p234p789s555z1s", draws="3z" + "1p" + "6z" + "3p" + "4z" + "1s",
                  replacements="2z", dora="9m", ura="7z", kan="9m", kan_ura="7z", scores=RICH, seed=13)
        tsumogiri(g, 0)
        act(g, 1, "ankan")
        act(g, 1, "reach", "2z")
        pass_all(g)
        tsumogiri(g, 2)
        tsumogiri(g, 0)
        tsumogiri(g, 1)
        act(g, 2, "dahai", "1s", tsumogiri=True)
        act(g, 1, "hora")
        ura = [y["han"] for y in last(g, "hora")["yaku"] if y["name"] == "ura_dora"]
        assert ura == [6]  # two ura indicators at haku, three haku held
        assert g.chips == [0, chips, -chips]


def _kansai_deal_in(rules: Rules, scores: list[int]) -> Game:
    """After a go-around of tsumogiri, East discards 1s into South's closed haku tanki (no riichi: a
    dama hand; a go-around later, so no renhou)."""
    g = start(rules, east="1s", south=TANKI_1S, draws="3z" + "4z" + "6z" + "2z", replacements=KANSAI_FLOWERS,
              dora="9m", scores=scores, seed=13)
    for seat in (0, 1, 2):
        tsumogiri(g, seat)
    return g


def test_kansai_dama_win_allowed_by_default_closed_hands_must_riichi_one_field_away_P86_A003_8() -> None:
    """Seed 003 「リーチの解除はリーチあがりになります。鳴くことはできません。ヤミでのあがりは不可。」 —
    read as a riichi player only (A003-8): a closed hand without riichi may ron. dama_allowed =
    false is the other reading: no closed win without riichi."""
    assert_quote("003", 38, "ヤミでのあがりは不可")
    kansai = P("kansai")
    g = _kansai_deal_in(kansai, RICH)
    act(g, 0, "dahai", "1s")
    act(g, 1, "hora")
    assert [y["name"] for y in last(g, "hora")["yaku"]] == ["yakuhai_haku"]  # no riichi: dama
    g = _kansai_deal_in(dataclasses.replace(kansai, dama_allowed=False), RICH)
    act(g, 0, "dahai", "1s")
    assert find(g, 1, "hora") is None


def test_kansai_dobon_fee_zero_by_default_an_amount_one_field_away_P110_A003_6() -> None:
    """Seed 003 「点棒がなくなった時点の方へドボン料が発生します」 gives no amount: the preset charges
    none (dobon_fee = 0, a documented choice, docs/RULES.md); with an amount the busted player pays
    it to the player being paid."""
    assert_quote("003", 18, "点棒がなくなった時点の方へドボン料が発生します")
    kansai = P("kansai")
    finals = []
    for fee in (0, 10000):
        g = _kansai_deal_in(dataclasses.replace(kansai, dobon_fee=fee), [500, 52000, 52500])
        act(g, 0, "dahai", "1s")
        act(g, 1, "hora")
        assert g.done and g.end_reason == "bust" and g.result is not None
        finals.append(g.result.scores)
    assert finals[1][0] == finals[0][0] - 10000 and finals[1][1] == finals[0][1] + 10000
    assert finals[1][2] == finals[0][2]


# ----------------------------------------------------------------------------------------------
# 7. The list of every reading (docs/RULES.md "Seed readings", `sanma rules show NAME`)
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reading", READINGS, ids=lambda r: f"{r.preset}-{'-'.join(r.fields)}")
def test_every_listed_reading_quotes_its_seed_and_switches_with_its_fields(reading: Reading) -> None:
    """Each entry: the quote is on its seed line, the other reading differs from the preset in
    exactly the entry's fields, and it is a valid rule set (rule-file validation included)."""
    assert_quote(reading.seed, reading.line, reading.quote)
    assert reading.rows and re.search(r"\bA00[0-3]-\d+\b", reading.rows)  # the matrix ambiguity id
    base = P(reading.preset)
    other = other_rules(reading)
    changed = {f.name for f in dataclasses.fields(Rules) if getattr(base, f.name) != getattr(other, f.name)}
    assert changed == {name.partition(".")[0] for name in reading.fields}
    assert preset_source(reading.preset) == f"seed {reading.seed}"
    text = "\n".join(f"{n} = {value_text(v)}" for n, v in reading.other if "." not in n)
    tables = {n.partition(".")[0] for n, _ in reading.other if "." in n}
    for table in tables:
        text += f"\n[{table}]\n" + "\n".join(f"{n.partition('.')[2]} = {value_text(v)}"
                                            for n, v in reading.other if n.startswith(table + "."))
    loaded = from_dict(parse_toml(f'extends = "{reading.preset}"\n{text}\n', "<reading>"), name=base.name)
    assert loaded == dataclasses.replace(other, name=base.name)
    assert not problems()


def test_the_issue_13_places_are_all_listed_P58_Y33_Y40_P79_P115_P04_P50_P86_P110() -> None:
    """Every place issue 13 names is in the table, with the field that switches it."""
    listed = {(r.preset, name) for r in READINGS for name in r.fields}
    assert {("kansai", "shousharin_definition"), ("online", "nondealer_limit_ron"), ("club", "riichi_min_points"),
            ("club", "ura_chip_count"), ("online", "yakuman.tsuuiisou_chiitoi"), ("kansai", "flower_dora"),
            ("kansai", "tsumo_payment"), ("kansai", "dama_allowed"), ("kansai", "dobon_fee")} <= listed


def test_rules_md_has_a_readings_section_per_preset_and_show_points_at_it() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text[text.index("## Seed readings"):text.index("## Presets side by side")]
    for name in Rules.presets():
        assert f'<a id="{readings_anchor(name)}"></a>' in section and f"### `{name}`" in section
        note = readings_note(name)
        assert f"docs/RULES.md#{readings_anchor(name)}" in note
        for r in readings_of(name):
            assert r.quote.replace("|", "\\|") in section
            assert all(f"`{n} = " in section for n in r.fields)
        silent = silent_fields(name)
        assert silent and f"({len(silent)} fields;" in section  # every preset has some
    assert "PLATFORMS" in preset_source("tenhou") and not readings_of("tenhou")


@given(han=st.integers(1, 4), fu=st.sampled_from([20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110]),
       dealer=st.booleans(), unit=st.sampled_from([100, 1000]))
def test_full_amount_tsumo_always_totals_the_ron_value_P50_A003_3(han: int, fu: int, dealer: bool, unit: int) -> None:
    """満額 read literally: whatever the hand, the two halves add up to the ron value, the first is
    the larger by at most one rounding unit, both in that unit (P51)."""
    rules = Rules(tsumo_payment="full_amount", rounding=unit)
    basic = min(2000, fu * 2 ** (han + 2))
    ron, _ = payments(basic, dealer, False, rules)
    first, second = payments(basic, dealer, True, rules)
    assert first + second == ron and 0 <= first - second <= unit
    assert first % unit == 0 and second % unit == 0
