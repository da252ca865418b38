"""Rules rows the other engine and scoring tests do not name: P10, P21, P22, P51, P61, P83, P111, P113."""

from __future__ import annotations

import random

import pytest

import sanma
from engine_helpers import PRESETS, act, build, pass_all, preset, tsumogiri, walls_in_order
from sanma.game.engine import Game
from sanma.rules.schema import Rules
from sanma.scoring import basic_points, payments

LEGAL_TYPES = {"dahai", "reach", "open_reach", "hora", "pon", "daiminkan", "ankan", "kakan", "kita", "ryukyoku",
               "none"}  # P21: no chi anywhere
RIICHI_HAND = dict(hand="234p789p123s789s11m", win="4p", riichi=True, seat_wind="S", discarder_wind="W")


def _random_game(name: str, seed: int) -> Game:
    g = Game(preset(name), seed=seed, max_hands=12)
    rng = random.Random(seed)
    while not g.done:
        seat = g.to_move[0]
        legal = g.legal_actions(seat)
        assert all(a.type in LEGAL_TYPES for a in legal)
        g.apply(rng.choice(legal))
    return g


@pytest.mark.parametrize("name", PRESETS)
def test_no_chi_and_three_seats_in_every_preset_P21_P22(name: str) -> None:
    """P21 「チーは出来ない」 (all seeds); P22: three seats E, S, W, no North seat (「北家 ×」)."""
    g = _random_game(name, 5)
    assert len(g.scores) == 3
    assert {g.seat_wind(s) for s in range(3)} == {"E", "S", "W"}
    assert {e["type"] for e in g.events}.isdisjoint({"chi"})


def test_ura_dora_only_where_the_rules_have_it_P10() -> None:
    """P10: every seed has ura dora; a rule set without them scores no ura line."""
    with_ura = sanma.score_hand(**RIICHI_HAND, ura_indicators=("3p",), rules=sanma.Rules.preset("tenhou"))
    without = sanma.score_hand(**RIICHI_HAND, ura_indicators=("3p",), rules=Rules(ura_dora=False))
    assert [y.han for y in with_ura.yaku if y.name == "ura_dora"] == [1]
    assert not [y for y in without.yaku if y.name == "ura_dora"]


@pytest.mark.parametrize(("unit", "ron", "tsumo"), [(100, 3900, (2000, 2000)), (1000, 4000, (2000, 2000))])
def test_payments_round_up_to_the_rules_unit_P51(unit: int, ron: int, tsumo: tuple[int, int]) -> None:
    """P51: 100-point rounding (「100点以下の点数切上」); a Kansai-style 1,000 rounding (§4.3 D6)
    turns a 30 fu 3 han non-dealer ron (basic 960) into 4,000."""
    rules = Rules(rounding=unit, tsumo_payment="equal_halves")
    b, _ = basic_points(3, 30, rules)
    assert payments(b, False, False, rules)[0] == ron
    assert payments(b, False, True, rules) == tsumo


DAISUUSHII = dict(hand="111z222z333z444z11p", win="1p", tsumo=True, seat_wind="S")
DAISUUSHII_MULT = {"club": 2, "online": 2, "majsoul": 2, "tenhou": 1, "kansai": 1}


@pytest.mark.parametrize("name", sorted(DAISUUSHII_MULT))
def test_double_yakuman_lists_per_preset_P61(name: str) -> None:
    """P61: CLUB and ONLINE list daisuushii as a double yakuman (and Mahjong Soul counts it double);
    Tenhou counts it single; KANSAI lists no double yakuman. (OFFICIAL keeps North only for
    suushii, tested under P15.) CLUB adds its menzen bonus (P62) on top."""
    s = sanma.score_hand(**DAISUUSHII, rules=sanma.Rules.preset(name))
    mult = {y.name: y.yakuman for y in s.yaku}
    assert mult["daisuushii"] == DAISUUSHII_MULT[name]


@pytest.mark.parametrize("name", PRESETS)
def test_double_riichi_is_two_han_in_total_P83(name: str) -> None:
    """P83: double riichi is 2 han in total (CLUB lists 1 han on top of riichi, A000-2)."""
    s = sanma.score_hand(**{**RIICHI_HAND, "double_riichi": True}, rules=sanma.Rules.preset(name))
    names = {y.name: y.han for y in s.yaku}
    assert names.get("double_riichi") == 2 and "riichi" not in names


def test_online_has_no_chips_club_does_P113() -> None:
    """P113: ONLINE 「チップ ×」; CLUB pays chips (here: the uma in chips, P27)."""
    online = _random_game("online", 11)
    assert online.result is not None and online.result.chips == (0, 0, 0)
    club = _random_game("club", 11)
    assert club.result is not None and sorted(club.result.chips) != [0, 0, 0]


TANKI_1S = "1s2p3p4p6p7p8p7s8s9s1z1z1z"


def test_club_double_box_costs_three_more_chips_P111() -> None:
    """P111 / A000-9 (CLUB): 「ダブ箱は35,000点…チップ3枚ずつ加算」: 35,000 below the 20,000 return
    (-15,000) is a second box. East (dealer, East 1 of lap 1) deals in from -13,700 to -15,000:
    3 + 3 chips to the buster, +8 for a dealer bust in the first East 1 (P112), uma chips
    +4 / -1 / -3 (P27)."""
    rules = preset("club")
    w = build(rules, east="1m", south=TANKI_1S, draws="6z3z2z1s", dora="9m", seed=12)
    g = Game(rules, seed=3, walls=walls_in_order([w]), scores=[-13700, 30000, 28700])
    for seat in (0, 1, 2):
        tsumogiri(g, seat)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    pass_all(g)
    assert g.done and g.result is not None
    assert g.scores[0] <= -15000
    assert g.result.chips == (-(3 + 3 + 8) - 3, 3 + 3 + 8 + 4, -1)


ONE_HAN_RIICHI = "234p789p789s678s1s"  # closed, tanki on 1s: riichi is its only han (no five, no dora)


@pytest.mark.parametrize(("name", "honba", "offered"), [("club", 3, True), ("club", 4, False),
                                                        ("tenhou", 4, True)])
def test_club_shibari_riichi_must_fix_two_han_P87(name: str, honba: int, offered: bool) -> None:
    """P87 (CLUB, L61): 「「リーチ」を含めて2ハン以上を確定させたリーチでなければチョンボとする」 from 4
    honba on (P64): a riichi worth 1 han is a chombo, so the engine does not offer it; with 3 honba,
    or without the club's minimum, the same riichi is offered."""
    from test_engine_rules_riichi_furiten import _game, has

    w = build(preset(name), east="1m", south=ONE_HAN_RIICHI, draws="3z" + "2z" + "6z" + "7z" + "3p", dora="9m",
              seed=14)
    g = _game(name, w, honba=honba)
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    assert has(g, 1, "reach", "3p") is offered


NINE_ORPHANS = "19m19p19s12345z2p3p"  # eleven different terminals and honours


@pytest.mark.parametrize(("name", "ends"), [("online", True), ("kansai", False)])
def test_kyuushu_in_the_last_hand_with_the_dealer_top_P40(name: str, ends: bool) -> None:
    """P40 (ONLINE L37): 「九種九牌流局 ○ 親連荘 流局時にオーラスで親が1位の場合、自動的に終了」 — a
    nine-terminals abort in the last hand (South 3) with the dealer top ends the game; KANSAI is
    silent (matrix default: the dealer repeats, P92)."""
    rules = preset(name)
    w = build(rules, east=NINE_ORPHANS, dora="9m", seed=7)
    g = Game(rules, seed=3, walls=walls_in_order([w, w]), round_index=1, kyoku=2,
             scores=[30000, 30000, 45000])
    act(g, 2, "ryukyoku")
    assert g.hand_results[-1].kind == "abort"
    assert g.done is ends
    if ends:
        assert g.end_reason == "agari_yame"
    else:
        assert g.dealer == 2 and g.honba == 1
