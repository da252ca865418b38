"""The bots' chip valuation is payout's (issue 10 item 1): ``bots.value.win_chips`` calls
``game.payout.expected_win_chips`` — it used to miss the junchan chips of a closed chinroutou
(P118), the menzen chinitsu chips of a one-suit yakuman (P117) and the flower chips (P119)."""

from __future__ import annotations

from bot_views import seat_view
from sanma.bots.value import URA_CHANCE, win_chips
from sanma.rules.schema import Rules
from sanma.scoring import score_from_han

CLUB = Rules.preset("club")
KANSAI = Rules.preset("kansai")


def test_bot_counts_junchan_chips_of_closed_chinroutou_p118() -> None:
    """P118 (CLUB): 「面前の清老頭の場合にでも、メン純チャン賞も合わせて受け取る」 — 30 + 10 on a ron."""
    s = score_from_han(0, 0, yakuman=1, yaku=("chinroutou",), seat_wind="S", discarder_wind="E", rules=CLUB)
    assert win_chips(CLUB, s, closed=True, riichi=False, tsumo=False) == 40
    assert win_chips(CLUB, s, closed=False, riichi=False, tsumo=False) == 30


def test_bot_counts_chinitsu_chips_of_one_suit_yakuman_p117() -> None:
    """P117 (CLUB): 「九蓮宝燈、車輪といった役満の場合にでも、メン清賞も合わせて受け取る」 — tsumo: 15 + 5 from each."""
    s = score_from_han(0, 0, yakuman=1, yaku=("chuuren",), tsumo=True, seat_wind="S", rules=CLUB)
    assert win_chips(CLUB, s, closed=True, riichi=False, tsumo=True, one_suit=True) == 40
    assert win_chips(CLUB, s, closed=True, riichi=False, tsumo=True) == 30


def test_bot_counts_flower_chips_by_expectation_p119() -> None:
    """P119 (KANSAI): one of the four flowers is a chip flower; a closed ron with one flower pulled
    holds it a quarter of the time (1 chip), plus the ura chip by expectation after riichi (P115)."""
    s = score_from_han(2, 30, seat_wind="S", discarder_wind="E", rules=KANSAI)
    assert KANSAI.flower_chip_tiles == 1 and KANSAI.flowers == 4
    assert win_chips(KANSAI, s, closed=True, riichi=False, tsumo=False, flowers=0.25) == 0.25
    assert win_chips(KANSAI, s, closed=False, riichi=False, tsumo=False, flowers=0.25) == 0
    assert win_chips(KANSAI, s, closed=True, riichi=True, tsumo=True) == URA_CHANCE * KANSAI.chip_ura * 2


def test_chip_rate_is_a_rules_field_else_the_bots_assumption_p113() -> None:
    """P113: no seed gives a chip exchange rate, so ``chip_points`` defaults to 0 (not converted) in
    every preset and the bot weighs a chip at its own assumption, a parameter (CHIP_POINTS)."""
    from sanma.bots.value import CHIP_POINTS, outcome_value, table_of
    from sanma.rules.loader import from_dict, to_dict

    assert all(Rules.preset(p).chip_points == 0 for p in ("club", "online", "official", "kansai", "tenhou",
                                                           "majsoul"))
    obs = seat_view("123p789s11s999m45p", "7z", scores=(15000, 15000, 15000))
    t = table_of(obs, CLUB)
    assert t.chip_points == CHIP_POINTS and table_of(obs, CLUB, 500).chip_points == 500
    rated = from_dict({**to_dict(CLUB), "chip_points": 1000})
    assert table_of(obs, rated, 500).chip_points == 1000
    deltas = (0, 0, 0)
    cheap, dear = table_of(obs, CLUB, 500), table_of(obs, CLUB, 4000)
    assert outcome_value(CLUB, dear, deltas, chips=3) - outcome_value(CLUB, cheap, deltas, chips=3) == 3 * 3500
