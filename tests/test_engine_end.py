"""End of a game in the engine: bust (P42, P108, P110-P112), final settlement (P25-P31) and chips
(P114, P121), per preset. Expected numbers are data from RULES_MATRIX / PLATFORMS.md.
"""

from __future__ import annotations

import pytest

from engine_helpers import PRESETS, act, build, draw_out, last, pass_all, preset, tsumogiri, walls_in_order
from sanma.game.engine import Game
from sanma.game.settle import final_result
from sanma.game.wall import Wall

TANKI_1S = "234p789p789s555z1s"  # waits 1s; ron 40 fu 1 han = 1300 (OFFICIAL 30 fu: 1000)
IND = "9m"
START = {"club": 15000, "online": 35000, "official": 40000, "kansai": 35000, "tenhou": 35000, "majsoul": 35000}
RON_TANKI = {"club": 1300, "online": 1300, "official": 1000, "kansai": 1300, "tenhou": 1300, "majsoul": 1300}


# ----------------------------------------------------------------------------------------------
# Final settlement (P24-P31), computed by the engine's settlement from final scores
# ----------------------------------------------------------------------------------------------
# (scores, expected points): ONLINE 35,000/40,000, oka 15 to the top, uma 「1位+10,000点 2位±0点
# 3位-10,000点」; Tenhou uma 20/0/-20 (PLATFORMS.md); MJ Soul 35,000 return, no oka, 15/0/-15 (records,
# PLATFORMS.md); KANSAI 35,000/40,000, oka 15, no uma (A003-10); OFFICIAL 40,000/40,000, no oka,
# sinking uma 一人浮き +30/△10/△20, 二人浮き +20/+10/△30 (P27); CLUB 15,000/20,000, oka 15 (P25).
SETTLEMENT = [
    ("online", [50000, 35000, 20000], (35.0, -5.0, -30.0)),
    ("tenhou", [50000, 35000, 20000], (45.0, -5.0, -40.0)),
    ("majsoul", [50000, 35000, 20000], (30.0, 0.0, -30.0)),
    ("kansai", [50000, 35000, 20000], (25.0, -5.0, -20.0)),
    ("official", [60000, 35000, 25000], (50.0, -15.0, -35.0)),  # one floating
    ("official", [50000, 40000, 30000], (30.0, 10.0, -40.0)),  # two floating (40,000 floats, A002-7)
    ("club", [25000, 15000, 5000], (20.0, -5.0, -15.0)),  # uma is paid in chips (P26)
]


@pytest.mark.parametrize(("name", "scores", "points"), SETTLEMENT)
def test_final_points_oka_and_uma_P25_P26_P27(name: str, scores: list[int], points: tuple[float, ...]) -> None:
    r = final_result(preset(name), scores)
    assert r.ranks == (1, 2, 3)
    assert r.points == pytest.approx(points)
    assert sum(r.points) == pytest.approx(0.0)


def test_club_uma_in_chips_plus4_minus1_minus3_P26_P27() -> None:
    """CLUB 「2位からチップ1枚受け取る。」「3位からチップ3枚受け取る。」 (A000-11)."""
    r = final_result(preset("club"), [5000, 25000, 15000])
    assert r.chips == (-3, 4, -1)


@pytest.mark.parametrize("name", ["club", "online", "kansai", "tenhou", "majsoul"])
def test_tie_goes_to_the_seat_nearer_the_first_dealer_P29(name: str) -> None:
    """P29: CLUB 「親番順の若い方を上位とする」, ONLINE 「起家に近い上家が上位」, platforms the same."""
    r = final_result(preset(name), [30000, 40000, 40000] if name != "club" else [10000, 17500, 17500])
    assert r.ranks == (3, 1, 2)


def test_official_tie_shares_the_rank_points_P29() -> None:
    """OFFICIAL 「同着の場合は、順位点を合算して均分する」: two floating, 1st/2nd tied: (20 + 10) / 2 each."""
    r = final_result(preset("official"), [45000, 45000, 30000])
    assert r.points == pytest.approx((20.0, 20.0, -40.0))


@pytest.mark.parametrize("name", PRESETS)
def test_leftover_riichi_sticks_P31(name: str) -> None:
    """P31: OFFICIAL 「半荘終了時の保留リーチ料は供託」 (forfeited); to the top elsewhere."""
    base = [50000, 35000, 19000] if name != "club" else [25000, 15000, 4000]
    r = final_result(preset(name), base, kyotaku=1)
    assert r.scores[0] == base[0] + (0 if name == "official" else 1000)


# ----------------------------------------------------------------------------------------------
# Bust (P42, P108, P110, P112)
# ----------------------------------------------------------------------------------------------
# P108: bust at 0 points in every seed (「0点は箱割れ」, 「0点以下」, 「持ち点が0点以下」,
# 「点棒が0になった時点」); Tenhou / MJ Soul only below 0 (PLATFORMS.md: "Exactly 0 continues").
BUST_AT_ZERO = {"club": True, "online": True, "official": True, "kansai": True, "tenhou": False, "majsoul": False}


def _east_deals_in_to_zero(name: str, others: tuple[int, int]) -> Game:
    rules = preset(name)
    w = build(rules, east="1m", south=TANKI_1S, draws="6z3z2z1s", dora=IND, seed=12)
    g = Game(rules, seed=3, walls=walls_in_order([w]), scores=[RON_TANKI[name], *others])
    for seat in (0, 1, 2):
        tsumogiri(g, seat)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    pass_all(g)
    return g


@pytest.mark.parametrize("name", PRESETS)
def test_bust_at_zero_ends_the_game_P42_P108(name: str) -> None:
    total = 3 * START[name] - RON_TANKI[name]
    g = _east_deals_in_to_zero(name, (total // 2, total - total // 2))
    assert g.hand_results[-1].deltas[0] == -RON_TANKI[name]
    assert g.done is BUST_AT_ZERO[name]
    if BUST_AT_ZERO[name]:
        assert last(g, "end_game")["scores"][0] == 0


def test_official_bust_rank_points_minus10_plus10_P110() -> None:
    """OFFICIAL 「トビにより終了した場合△10が付与され、トバしたプレイヤーに＋10のボーナス」.
    Final: East 0, South 60,500, West 59,500; two floating: uma +20 / +10 / △30."""
    g = _east_deals_in_to_zero("official", (59500, 59500))
    assert g.result is not None
    assert g.result.points == pytest.approx((-40.0 - 30.0 - 10.0, 20.5 + 20.0 + 10.0, 19.5 + 10.0))


def test_club_dealer_bust_in_first_east1_pays_3_plus_8_chips_P110_P112() -> None:
    """CLUB: the busted player pays the buster 3 chips (P110), +8 more for a dealer bust in East 1 of
    lap 1 (P112); uma in chips +4 / -1 / -3 (P27). East 0 (3rd), South 23,300 (1st), West 21,700."""
    g = _east_deals_in_to_zero("club", (22000, 21700))
    assert g.done and g.result is not None
    assert g.result.chips == (-3 - 3 - 8, 4 + 3 + 8, -1)


def test_club_bust_chips_and_uma_chips_P110_P27() -> None:
    """The part of the CLUB bust settlement that does not depend on P112: chips add up to zero, the
    busted dealer is last and pays the buster, no first-dealer-not-top chips after a bust (P121)."""
    g = _east_deals_in_to_zero("club", (22000, 21700))
    assert g.result is not None
    assert sum(g.result.chips) == 0
    assert g.result.ranks == (3, 1, 2)
    assert g.result.chips[2] == -1  # West, 2nd: only the uma chip
    assert g.result.chips[0] <= -3 - 3


# ----------------------------------------------------------------------------------------------
# Chips per hand (P114)
# ----------------------------------------------------------------------------------------------
# P114: CLUB 「リーチ一発は…チップ3枚」「ツモの場合は2人からそれぞれ受け取る」; KANSAI 1 chip
# (A003-17: tsumo from each of the two).
IPPATSU_CHIPS = {"club": 3, "kansai": 1}


@pytest.mark.parametrize("name", ["club", "kansai"])
def test_ippatsu_tsumo_chips_from_each_P114(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m", south=TANKI_1S.replace("1s", "") + "1s", west="11s9s1m9m2p4p6p8p3z6z7z",
              draws="3z" + "2z" + "6z" + "3z" + "1s", dora=IND, ura=IND, seed=13)
    g = Game(rules, seed=3, walls=walls_in_order([w]))
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "hora")
    c = IPPATSU_CHIPS[name]
    assert g.chips == [-c, 2 * c, -c]


# ----------------------------------------------------------------------------------------------
# The last hand: agari-yame (P38), tenpai-yame (P39), overtime (P34), dealer at draws (P37)
# ----------------------------------------------------------------------------------------------
NOTEN_S = "1p3p7p9p2s4s6s8s2z3z6z7z9m"
WEST_HOLDS_1S = "111s1m9m2p4p6p8p3z6z7z"
ALL_NOTEN = ("1m9m1p3p7p9p2s4s6s8s2z3z7z", "1p3p7p9p2s4s6s8s1z5z6z7z9m", "1m9m2p4p6p8p1s3s9s5z6z7z1z")


def _from(name: str, wall: Wall, scores: list[int], *, round_index: int, kyoku: int) -> Game:
    return Game(preset(name), seed=3, walls=walls_in_order([wall]), scores=scores, round_index=round_index,
                kyoku=kyoku)


def _last_hand(name: str, wall: Wall, scores: list[int]) -> Game:
    """South 3 (CLUB: East 3 of the second lap, 「東東回しの2周」), West (seat 2) dealing."""
    return _from(name, wall, scores, round_index=1, kyoku=2)


# Dealer top after the win: CLUB total 45,000, OFFICIAL 120,000, the others 105,000.
DEALER_TOP = {"club": [10000, 10000, 25000], "official": [35000, 35000, 50000]}
# P38: ONLINE 「オーラスで親が和了…１位の場合、自動的に終了」, KANSAI 「あがりやめとなります」, platforms
# automatic; CLUB 「上がり止め…は出来ず、必ず連荘」, OFFICIAL 「オーラスでのあがりやめなし」.
AGARI_YAME = {"club": False, "online": True, "official": False, "kansai": True, "tenhou": True, "majsoul": True}
# P39: ONLINE and the platforms automatic; CLUB / OFFICIAL 「テンパイ終了なし」 forbidden; KANSAI silent:
# only wins end the game (A003-22).
TENPAI_YAME = {"club": False, "online": True, "official": False, "kansai": False, "tenhou": True, "majsoul": True}


@pytest.mark.parametrize("name", PRESETS)
def test_last_dealer_wins_while_top_agari_yame_P38(name: str) -> None:
    rules = preset(name)
    w = build(rules, east=TANKI_1S, south="1m", draws="3z2z1s", dora=IND, seed=12)
    g = _last_hand(name, w, DEALER_TOP.get(name, [30000, 30000, 45000]))
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "dahai", "1s", tsumogiri=True)
    act(g, 2, "hora")
    pass_all(g)
    assert g.hand_results[-1].winners == (2,)
    assert g.done is AGARI_YAME[name]
    if not g.done:  # P36: the dealer repeats with one more honba (P45)
        assert (g.dealer, g.honba) == (2, 1)


@pytest.mark.parametrize("name", PRESETS)
def test_last_dealer_tenpai_at_a_draw_while_top_tenpai_yame_P39(name: str) -> None:
    rules = preset(name)
    w = build(rules, east=TANKI_1S, south=NOTEN_S, west=WEST_HOLDS_1S, dora=IND, seed=11)
    g = _last_hand(name, w, DEALER_TOP.get(name, [30000, 30000, 45000]))
    draw_out(g)
    assert last(g, "ryukyoku")["tenpai"] == [2]
    assert g.done is TENPAI_YAME[name]
    if not g.done:
        assert (g.dealer, g.honba) == (2, 1)


# P34 when nobody has the target after the last hand: ONLINE / OFFICIAL / CLUB end (CLUB continues
# only after a noten last dealer, L37); KANSAI 返り東場 (「全員が39000点以下の場合は「返り東場」」);
# Tenhou / MJ Soul the West round (PLATFORMS.md).
OVERTIME_WIND = {"club": None, "online": None, "official": None, "kansai": "E", "tenhou": "W", "majsoul": "W"}


@pytest.mark.parametrize("name", PRESETS)
def test_after_the_last_hand_overtime_when_nobody_reached_the_target_P34(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m", south=TANKI_1S, draws="3z2z1s", dora=IND, seed=12)
    g = _last_hand(name, w, [START[name]] * 3)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "dahai", "1s", tsumogiri=True)
    act(g, 0, "hora")
    pass_all(g)
    assert g.hand_results[-1].winners == (0,)
    wind = OVERTIME_WIND[name]
    assert g.done is (wind is None)
    if wind is not None:
        assert g.round_wind == wind and g.dealer == 0


@pytest.mark.parametrize("name", ["club", "online", "official"])
def test_noten_last_dealer_club_plays_a_third_lap_P34(name: str) -> None:
    """CLUB 「ラス親がノーテンで流局した場合は、東風のまま次の周回に入る」; ONLINE / OFFICIAL end."""
    rules = preset(name)
    e, s, w_ = ALL_NOTEN
    w = build(rules, east=e, south=s, west=w_, dora=IND, seed=21)
    g = _last_hand(name, w, [START[name]] * 3)
    draw_out(g)
    assert last(g, "ryukyoku")["tenpai"] == []
    assert g.done is (name != "club")
    if name == "club":
        assert g.round_wind == "E" and g.dealer == 0


@pytest.mark.parametrize("name", ["club", "online", "official", "kansai", "tenhou", "majsoul"])
def test_noten_dealer_in_south_kansai_stays_P37(name: str) -> None:
    """P37: KANSAI 「南場は流れません」 (a noten South dealer keeps the deal, honba +1, A003-13);
    everyone else passes it (CLUB has no South round: its second lap is East, and the deal passes)."""
    rules = preset(name)
    e, s, w_ = ALL_NOTEN
    w = build(rules, east=e, south=s, west=w_, dora=IND, seed=21)
    g = _from(name, w, [START[name]] * 3, round_index=1, kyoku=0)
    draw_out(g)
    assert last(g, "ryukyoku")["tenpai"] == []
    assert (g.dealer, g.honba) == ((0, 1) if name == "kansai" else (1, 1))
