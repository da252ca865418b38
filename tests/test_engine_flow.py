"""The game engine, driven from built walls into each situation the seeds describe, per preset.

Every expected value is data transcribed from RULES_MATRIX (row ids in the test names and the
tables below), the seeds or PLATFORMS.md — never read from ``Rules``. Seats 0, 1, 2 are East,
South, West of the first hand (seat 0 is the first dealer); draws go E, S, W, E, ...

The standard hands (no fives, no North, nothing a preset counts as dora by itself):

* ``TANKI_1S`` = 234p 789p 789s 555z + 1s: closed, waits on 1s alone, one yaku (haku).
  Ron: 40 fu 1 han (20 + 10 menzen ron + 8 concealed honour triplet + 2 tanki); OFFICIAL counts
  every hand 30 fu (P52). Tsumo: menzen tsumo + haku = 2 han, 40 fu (OFFICIAL 30 fu).
* ``NOTEN_*``: scattered tiles, far from tenpai; discarding only what is drawn keeps them so.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine_helpers import (
    PRESETS,
    act,
    build,
    discard,
    draw_out,
    events_of,
    has,
    last,
    pass_all,
    preset,
    tsumogiri,
    walls_in_order,
)
from sanma.game.engine import Game

TANKI_1S = "234p789p789s555z1s"
# West keeps the three other 1s, so nobody ever draws or discards the 1s wait (no furiten, P75/P47).
WEST_HOLDS_1S = "111s1m9m2p4p6p8p3z6z7z"
NOTEN_S = "1p3p7p9p2s4s6s8s2z3z6z7z9m"
# West's riichi hand: waits 3s/4s (no fives: KANSAI has only red fives, CLUB no red ones, P05).
RIICHI_W = "123p789p789s33s44s"
IND = "9m"  # dora indicator -> 1m: a tile in no hand of these tests (P08: 9m indicates 1m)

# P43 (seeds), PLATFORMS.md (Tenhou: ron +200 per honba, MJ Soul the same).
HONBA_RON = {"club": 1500, "online": 600, "official": 1000, "kansai": 1000, "tenhou": 200, "majsoul": 200}
# P44 per payer: CLUB 500 (seed 000 L44), ONLINE 300 (A001-8), OFFICIAL 1000 (A002-2), KANSAI 500
# (A003-4), Tenhou / MJ Soul 100 (PLATFORMS.md).
HONBA_TSUMO = {"club": 500, "online": 300, "official": 1000, "kansai": 500, "tenhou": 100, "majsoul": 100}
# TANKI_1S ron by a non-dealer: 40 fu 1 han = ceil100(4 x 320) = 1300; OFFICIAL 30 fu 1 han = 1000.
RON_TANKI = {"club": 1300, "online": 1300, "official": 1000, "kansai": 1300, "tenhou": 1300, "majsoul": 1300}
# TANKI_1S tsumo by a non-dealer, (dealer pays, other non-dealer pays), 40 fu 2 han, b = 640:
# model A tsumo-son (CLUB, OFFICIAL, Tenhou, MJ Soul): ceil100(2b) / ceil100(b) = 1300 / 700;
# OFFICIAL 30 fu 2 han, b = 480: 1000 / 500 (A8: 「500・1000」); model C (ONLINE) and D with the
# recommended C split (KANSAI): ceil100(ron / 2) each = ceil100(2600 / 2) = 1300 / 1300.
TSUMO_TANKI = {"club": (1300, 700), "online": (1300, 1300), "official": (1000, 500), "kansai": (1300, 1300),
               "tenhou": (1300, 700), "majsoul": (1300, 700)}
START = {"club": 15000, "online": 35000, "official": 40000, "kansai": 35000, "tenhou": 35000, "majsoul": 35000}


def _game(name: str, *walls: Any, scores: list[int] | None = None) -> Game:
    return Game(preset(name), seed=3, walls=walls_in_order(list(walls)), scores=scores)


def _dealer_tenpai_draw(name: str) -> Any:
    """Hand 0: the dealer holds TANKI_1S and discards every draw: a draw with the dealer tenpai."""
    return build(preset(name), east=TANKI_1S, south=NOTEN_S, west=WEST_HOLDS_1S, dora=IND, seed=11)


# ----------------------------------------------------------------------------------------------
# Wins, honba and riichi sticks (P43, P44, P45, P48, P49, P37)
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESETS)
def test_ron_pays_value_plus_honba_plus_sticks_P43_P45_P48_P49(name: str) -> None:
    rules = preset(name)
    hand1 = build(rules, east="1m", south=TANKI_1S, west=RIICHI_W,
                  draws="3z6z" + "9p" + "1s", dora=IND, ura="9m", seed=12)
    g = _game(name, _dealer_tenpai_draw(name), hand1)
    draw_out(g)
    # P37: a tenpai dealer keeps the deal at a draw; P45: +1 honba after a draw.
    assert (g.dealer, g.honba, g.kyotaku) == (0, 1, 0)
    before = list(g.scores)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "reach", "9p")  # West: riichi on 123p456p789p33s44s
    pass_all(g)
    # P48: the riichi stick (1,000) leaves West's score and lies on the table.
    assert g.kyotaku == 1 and g.scores[2] == before[2] - 1000
    discard(g, 0, "1s", keep=[1])
    act(g, 1, "hora")
    h = last(g, "hora")
    win = RON_TANKI[name] + HONBA_RON[name] + 1000
    assert h["deltas"] == [-(RON_TANKI[name] + HONBA_RON[name]), win, 0]
    assert g.kyotaku == 0
    assert g.scores == [before[0] - RON_TANKI[name] - HONBA_RON[name], before[1] + win, before[2] - 1000]
    # P45: a non-dealer win resets the honba; the deal passes to South.
    assert (g.dealer, g.honba) == (1, 0)


@pytest.mark.parametrize("name", PRESETS)
def test_tsumo_pays_each_payer_plus_honba_P44_P49_P50(name: str) -> None:
    rules = preset(name)
    hand1 = build(rules, east="1m", south=TANKI_1S, west=RIICHI_W,
                  draws="3z6z" + "9p" + "2z" + "1s", dora=IND, ura="9m", seed=12)
    g = _game(name, _dealer_tenpai_draw(name), hand1)
    draw_out(g)
    assert (g.dealer, g.honba) == (0, 1)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "reach", "9p")
    pass_all(g)
    tsumogiri(g, 0)
    act(g, 1, "hora")
    h = last(g, "hora")
    dealer_pays, other_pays = TSUMO_TANKI[name]
    honba = HONBA_TSUMO[name]
    assert h["deltas"] == [-(dealer_pays + honba), dealer_pays + other_pays + 2 * honba + 1000, -(other_pays + honba)]
    assert (g.dealer, g.honba, g.kyotaku) == (1, 0, 0)


# ----------------------------------------------------------------------------------------------
# Exhaustive draw: noten payments per model (P46), tenpai definitions (P47), dealer (P37)
# ----------------------------------------------------------------------------------------------
# P46: CLUB 1,000 per noten-tenpai pair (A000-8); ONLINE pool 3,000 (A001-9); OFFICIAL pool 2,000
# (A002-3); KANSAI 1,000 per pair (A003-5); Tenhou and MJ Soul pool 2,000 (PLATFORMS.md).
ONE_TENPAI = {"club": [2000, -1000, -1000], "online": [3000, -1500, -1500], "official": [2000, -1000, -1000],
              "kansai": [2000, -1000, -1000], "tenhou": [2000, -1000, -1000], "majsoul": [2000, -1000, -1000]}
TWO_TENPAI = {"club": [1000, 1000, -2000], "online": [1500, 1500, -3000], "official": [1000, 1000, -2000],
              "kansai": [1000, 1000, -2000], "tenhou": [1000, 1000, -2000], "majsoul": [1000, 1000, -2000]}
# South: waiting on a 6z/7z shanpon, yakuhai either way; West holds the other four 6z/7z.
SHANPON_S = "111p789p234s66z77z"
WEST_HOLDS_67 = "111s66z77z1m9m2p4p8p3z"


@pytest.mark.parametrize("name", PRESETS)
def test_noten_payment_one_tenpai_P46(name: str) -> None:
    g = _game(name, _dealer_tenpai_draw(name))
    draw_out(g)
    r = last(g, "ryukyoku")
    assert r["reason"] == "exhaustive" and r["tenpai"] == [0]
    assert r["deltas"] == ONE_TENPAI[name]
    assert g.scores == [START[name] + d for d in ONE_TENPAI[name]]
    assert (g.dealer, g.honba) == (0, 1)  # P37 tenpai renchan, P45 +1 honba


@pytest.mark.parametrize("name", PRESETS)
def test_noten_payment_two_tenpai_P46(name: str) -> None:
    rules = preset(name)
    w = build(rules, east=TANKI_1S, south=SHANPON_S, west=WEST_HOLDS_67, dora=IND, seed=11)
    g = _game(name, w)
    draw_out(g)
    r = last(g, "ryukyoku")
    assert r["tenpai"] == [0, 1]
    assert r["deltas"] == TWO_TENPAI[name]


# P47: KANSAI 「フリテンは一切不可、テンパイにもなりません」 — a furiten hand is not tenpai at a draw;
# every other preset counts it (matrix default: furiten tenpai is tenpai).
FURITEN_IS_TENPAI = {"club": True, "online": True, "official": True, "kansai": False, "tenhou": True,
                     "majsoul": True}


@pytest.mark.parametrize("name", PRESETS)
def test_furiten_hand_tenpai_at_a_draw_except_kansai_P47(name: str) -> None:
    rules = preset(name)
    # South draws a 6z first and lets it go: furiten on its own wait (P75).
    w = build(rules, east=TANKI_1S, south=SHANPON_S, west="1s1s1s6z77z1m9m2p4p6p8p3z", draws="2z6z", dora=IND,
              seed=11)
    g = _game(name, w)
    draw_out(g)
    r = last(g, "ryukyoku")
    assert (1 in r["tenpai"]) is FURITEN_IS_TENPAI[name]


# P37: dealer tenpai keeps the deal; a noten dealer passes it, CLUB 「全員ノーテンでも親は流れる」,
# KANSAI 「東場は流れ」 (East: passes even when all are noten).
@pytest.mark.parametrize("name", PRESETS)
def test_all_noten_draw_passes_the_deal_in_east_P37(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m9m1p3p7p9p2s4s6s8s2z3z7z", south=NOTEN_S.replace("2z3z", "1z5z"),
              west="1m9m2p4p6p8p1s3s9s5z6z7z1z", dora=IND, seed=21)
    g = _game(name, w)
    draw_out(g)
    r = last(g, "ryukyoku")
    assert r["tenpai"] == [] and r["deltas"] == [0, 0, 0]  # P46: nobody tenpai, nothing paid
    assert (g.dealer, g.honba) == (1, 1)  # P37 the deal passes; P45 the honba still goes up


# ----------------------------------------------------------------------------------------------
# Riichi, ippatsu (Y05) and kita (P17)
# ----------------------------------------------------------------------------------------------
IPPATSU_KEPT_BY_OWN_KITA = {"online": False, "official": True, "tenhou": False, "majsoul": False}


@pytest.mark.parametrize("name", PRESETS)
def test_ippatsu_on_the_next_draw_Y05(name: str) -> None:
    rules = preset(name)
    # South riichis on its first discard and tsumos 1s on its next draw: ippatsu.
    w = build(rules, east="1m", south=TANKI_1S, west=WEST_HOLDS_1S.replace("111s", "11s9s"),
              draws="3z" + "2z" + "6z" + "3z" + "1s", dora=IND, ura="9m", seed=13)
    g = _game(name, w)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "hora")
    names = [y["name"] for y in last(g, "hora")["yaku"]]
    assert "ippatsu" in names


@pytest.mark.parametrize("name", ["online", "official", "tenhou", "majsoul"])
def test_own_kita_after_riichi_breaks_ippatsu_where_P17_says(name: str) -> None:
    """P17: ONLINE / platforms 「ポン、カン、北抜きが行われた場合、一発は消えてしまいます」;
    OFFICIAL 「北は空気扱いのため、リーチ後に北をツモっても一発は消えません」."""
    rules = preset(name)
    w = build(rules, east="1m", south=TANKI_1S, west=WEST_HOLDS_1S.replace("111s", "11s9s"),
              draws="3z" + "2z" + "6z" + "3z" + "4z", replacements="1s", dora=IND, ura="9m", seed=13)
    g = _game(name, w)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "kita")  # South draws North after riichi and pulls it
    pass_all(g)
    act(g, 1, "hora")  # on the replacement tile
    names = [y["name"] for y in last(g, "hora")["yaku"]]
    assert ("ippatsu" in names) is IPPATSU_KEPT_BY_OWN_KITA[name]


@pytest.mark.parametrize("name", PRESETS)
def test_riichi_needs_the_minimum_points_P79(name: str) -> None:
    """P79: CLUB needs more than 1,000 (「1,000点以下でうっかりリーチ」 = bust); everyone else
    needs 1,000 (ONLINE 「1,000点未満不可」, KANSAI 「残り1000点からリーチはできます」)."""
    rules = preset(name)
    w = build(rules, east="1m", south=RIICHI_W, draws="3z2z", dora=IND, seed=13)
    g = _game(name, w, scores=[START[name] * 3 - 2000, 1000, 1000])
    tsumogiri(g, 0)
    assert has(g, 1, "reach") is (name != "club")


# ----------------------------------------------------------------------------------------------
# Furiten (P75, P76)
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESETS)
def test_no_ron_on_a_wait_in_own_discards_P75(name: str) -> None:
    rules = preset(name)
    # South draws a 1s (its own wait) and lets it go; later East discards 1s: no ron.
    w = build(rules, east="1m", south=TANKI_1S, draws="3z1s" + "6z1s", dora=IND, seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    assert not has(g, 1, "hora")


@pytest.mark.parametrize("name", PRESETS)
def test_passed_ron_is_furiten_for_the_go_around_P75(name: str) -> None:
    rules = preset(name)
    # West discards 1s and South passes the ron; East then discards 1s before South draws: no ron
    # (ONLINE 「同順内振り聴…ロン和了不可」; standard furiten elsewhere).
    w = build(rules, east="1m", south=TANKI_1S, draws="6z" + "3z" + "1s" + "1s", dora=IND, seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "dahai", "1s", tsumogiri=True)
    act(g, 1, "none")
    pass_all(g)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    assert not has(g, 1, "hora")


@pytest.mark.parametrize("name", PRESETS)
def test_control_ron_is_offered_without_furiten_P75(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m", south=TANKI_1S, draws="6z" + "3z" + "2z" + "1s", dora=IND, seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    assert has(g, 1, "hora")


@pytest.mark.parametrize("name", PRESETS)
def test_passed_ron_after_riichi_is_furiten_for_good_P75(name: str) -> None:
    rules = preset(name)
    # South draws 1s and riichis (discarding 2z); East discards 1s, South passes; after South's
    # next draw West discards 1s: still no ron (「立直後の和了牌見逃しは…ロン和了不可」, P75).
    w = build(rules, east="1m", south="234p789p789s555z2z", west="11s1m9m2p4p6p8p3z6z7z4p",
              draws="6z" + "1s" + "9p" + "1s" + "3z", dora=IND, ura="9m", seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "none")
    pass_all(g)
    tsumogiri(g, 1)
    act(g, 2, "dahai", "1s")
    assert not has(g, 1, "hora")


# ----------------------------------------------------------------------------------------------
# Double ron or head bump (P88, P89, P90, P49)
# ----------------------------------------------------------------------------------------------
# West waits on 1s as well: 123p 789p 234s 666z + 1s (hatsu), 40 fu 1 han like TANKI_1S.
TANKI_1S_W = "123p789p234s666z1s"
DOUBLE_RON = {"club": True, "online": True, "official": False, "kansai": True, "tenhou": True, "majsoul": True}
HONBA_TO_BOTH = {"club": True, "online": False, "official": False, "kansai": False, "tenhou": False,
                 "majsoul": False}  # P89: CLUB 「ダブロンの場合の積み符は両者に上乗せする」


def _dealer_riichi_draw(name: str) -> Any:
    """Hand 0: the dealer riichis with TANKI_1S and the hand is drawn: honba 1, one stick on the table."""
    return build(preset(name), east=TANKI_1S.replace("1s", "3z"), south=NOTEN_S, west=WEST_HOLDS_1S,
                 draws="1s", dora=IND, ura=IND, seed=11)


@pytest.mark.parametrize("name", PRESETS)
def test_double_ron_or_head_bump_honba_and_sticks_P88_P89_P49(name: str) -> None:
    rules = preset(name)
    hand1 = build(rules, east="1m", south=TANKI_1S, west=TANKI_1S_W, draws="3z2z6z1s", dora=IND, seed=12)
    g = _game(name, _dealer_riichi_draw(name), hand1)
    act(g, 0, "reach", "3z")
    pass_all(g)
    draw_out(g)
    assert (g.dealer, g.honba, g.kyotaku) == (0, 1, 1)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    if has(g, 2, "hora"):
        act(g, 2, "hora")
    horas = events_of(g, "hora")
    ron, honba = RON_TANKI[name], HONBA_RON[name]
    if DOUBLE_RON[name]:
        assert [h["actor"] for h in horas] == [1, 2]
        # P49: the stick goes to the winner first in turn after the discarder (South).
        assert horas[0]["deltas"] == [-(ron + honba), ron + honba + 1000, 0]
        west_honba = honba if HONBA_TO_BOTH[name] else 0
        assert horas[1]["deltas"] == [-(ron + west_honba), 0, ron + west_honba]
    else:  # OFFICIAL 「ダブロンなし」: the head bump, South alone wins
        assert [h["actor"] for h in horas] == [1]
        assert horas[0]["deltas"] == [-(ron + honba), ron + honba + 1000, 0]
    assert g.kyotaku == 0 and (g.dealer, g.honba) == (1, 0)


# Dealer ron with TANKI_1S: 40 fu 1 han = ceil100(6 x 320) = 2000; OFFICIAL 30 fu: ceil100(6 x 240) = 1500.
DEALER_RON_TANKI = {"club": 2000, "online": 2000, "official": 1500, "kansai": 2000, "tenhou": 2000,
                    "majsoul": 2000}


@pytest.mark.parametrize("name", PRESETS)
def test_dealer_second_in_a_double_ron_keeps_the_deal_P90(name: str) -> None:
    """P90: ONLINE 「和了者の親は下家でも連荘」 (default yes elsewhere); OFFICIAL has no double ron:
    West (first after the discarder South) takes it alone and the deal passes."""
    rules = preset(name)
    w = build(rules, east=TANKI_1S, south="1m", west=TANKI_1S_W, draws="3z2z6z7z1s", dora=IND, seed=12)
    g = _game(name, w)
    for seat in (0, 1, 2, 0):  # everyone has discarded once: no renhou (Y49) for West
        tsumogiri(g, seat)
    act(g, 1, "dahai", "1s", tsumogiri=True)
    for seat in (2, 0):
        if has(g, seat, "hora"):
            act(g, seat, "hora")
    winners = [h["actor"] for h in events_of(g, "hora")]
    if DOUBLE_RON[name]:
        assert winners == [2, 0]
        assert last(g, "end_kyoku")["deltas"] == [DEALER_RON_TANKI[name], -DEALER_RON_TANKI[name] - RON_TANKI[name],
                                                  RON_TANKI[name]]
        assert (g.dealer, g.honba) == (0, 1)
    else:
        assert winners == [2]
        assert (g.dealer, g.honba) == (1, 0)


# ----------------------------------------------------------------------------------------------
# Calls: pon, kuikae (P72), kans with replacement draws and kan dora timing (P12)
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESETS)
def test_no_kuikae_after_pon_P72(name: str) -> None:
    """P72: ONLINE 「喰い換え ×」; matrix default: forbid the same-tile swap after a pon."""
    rules = preset(name)
    w = build(rules, east="1m", south="666z9m1p3p7p9p2s4s6s8s3z", draws="6z", dora=IND, seed=15)
    g = _game(name, w)
    act(g, 0, "dahai", "6z", tsumogiri=True)
    act(g, 1, "pon", "6z")
    pass_all(g)
    assert g.to_move == (1,)
    assert not has(g, 1, "dahai", "6z")
    assert has(g, 1, "dahai", "3z")
    assert not has(g, 1, "hora") and not has(g, 1, "reach")  # an open hand cannot riichi (P86 standard)


# P12: where the new indicator of a daiminkan is turned, relative to the replacement draw and the
# discard: CLUB 「明槓及び加槓のときは…場に捨ててロンされなかった時点で」 (after the discard);
# ONLINE 「暗カン、明カン即乗り」 and OFFICIAL 「カンドラは先めくり」 (at once); KANSAI silent: the
# matrix default, CLUB style; Tenhou: with the kan player's next discard (PLATFORMS §1, corrected
# 2026-12-02: the dora follows the discard, as after_discard's; a ron on that discard counts it, see
# test_tenhou_open_kan_dora_turns_with_the_next_discard_P12); MJ Soul: after the replacement draw.
OPEN_KAN_DORA = {"club": "after_discard", "online": "at_once", "official": "at_once", "kansai": "after_discard",
                 "tenhou": "after_discard", "majsoul": "before_discard"}


def _order(g: Game, since: int) -> list[str]:
    return [("rinshan" if e.get("rinshan") else e["type"]) for e in g.events[since:]
            if e["type"] in ("daiminkan", "ankan", "kakan", "dora", "tsumo", "dahai")]


@pytest.mark.parametrize("name", PRESETS)
def test_daiminkan_replacement_draw_and_kan_dora_timing_P12(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m", south="666z1m9m1p3p7p9p2s4s6s8s", draws="6z", replacements="2z", dora=IND,
              kan="3z", seed=15)
    g = _game(name, w)
    i = len(g.events)
    act(g, 0, "dahai", "6z", tsumogiri=True)
    act(g, 1, "daiminkan", "6z")
    pass_all(g)
    assert str(g.seats[1].hand[-1]) == "2z"  # the replacement (rinshan) tile
    tsumogiri(g, 1)
    order = _order(g, i)
    expected = {
        "at_once": ["dahai", "daiminkan", "dora", "rinshan", "dahai"],
        "before_discard": ["dahai", "daiminkan", "rinshan", "dora", "dahai"],
        "after_discard": ["dahai", "daiminkan", "rinshan", "dahai", "dora"],
    }[OPEN_KAN_DORA[name]]
    assert order[: len(expected)] == expected
    assert [t for t in (e["dora_marker"] for e in events_of(g, "dora", i))] == ["W"]


# South calls East's 6z (hatsu) and wins on the replacement 1s (rinshan, hatsu); the kan indicator
# 9s makes 1s dora, so the kan dora is worth 2 han where it is turned before the win.
RINSHAN_S = "666z123p456p789s1s"


@pytest.mark.parametrize(("timing", "kan_dora_han"), [("immediate", 2), ("before_discard", 2), ("with_discard", 0),
                                                      ("after_discard", 0)])
def test_a_rinshan_win_after_an_open_kan_counts_its_kan_dora_by_the_timing_P12(timing: str, kan_dora_han: int) -> None:
    """P12: a win on the replacement tile of a daiminkan counts the kan's indicator only where it is
    turned before that draw ends the hand ('immediate', 'before_discard'); Tenhou's 'with_discard'
    turns it with the next discard, which never comes (PLATFORMS §1: 61 rinshan tsumo after an open
    kan in the Phoenix corpus, none with a new DORA; e.g. 2026012317gm-00b9-0000-b4bf9499 S1)."""
    rules = dataclasses.replace(preset("tenhou"), kan_dora_open=timing)
    w = build(rules, east="1m", south=RINSHAN_S, draws="6z", replacements="1s", dora=IND, kan="9s", seed=15)
    g = Game(rules, seed=3, walls=walls_in_order([w]))
    act(g, 0, "dahai", "6z", tsumogiri=True)
    act(g, 1, "daiminkan", "6z")
    pass_all(g)
    act(g, 1, "hora")
    hora = last(g, "hora")
    assert "rinshan" in [y["name"] for y in hora["yaku"]]
    assert sum(y["han"] for y in hora["yaku"] if y["name"] == "dora") == kan_dora_han
    assert len(events_of(g, "dora")) == (1 if kan_dora_han else 0)


# South calls East's 6z and discards its replacement 3s; West (chun, kanchan 2s4s) rons it. The kan
# indicator 8p makes 9p dora: West holds three.
RON_AFTER_KAN_W = "999p123p55p2s4s777z"


@pytest.mark.parametrize(("timing", "kan_dora_han"), [("with_discard", 3), ("after_discard", 0)])
def test_a_ron_on_the_discard_after_an_open_kan_counts_its_kan_dora_by_the_timing_P12(
        timing: str, kan_dora_han: int) -> None:
    """P12: Tenhou's 'with_discard' turns the open kan's indicator with the kan player's discard, so
    a ron on it counts the new dora (PLATFORMS §1); CLUB's 'after_discard' 「場に捨ててロンされなかった
    時点で」 only once the discard passes."""
    rules = dataclasses.replace(preset("tenhou"), kan_dora_open=timing)
    w = build(rules, east="1m", south="666z1m9m1p3p7p9p2s4s6s8s", west=RON_AFTER_KAN_W, draws="6z",
              replacements="3s", dora=IND, kan="8p", seed=15)
    g = Game(rules, seed=3, walls=walls_in_order([w]))
    act(g, 0, "dahai", "6z", tsumogiri=True)
    act(g, 1, "daiminkan", "6z")
    pass_all(g)
    act(g, 1, "dahai", "3s", tsumogiri=True)
    act(g, 2, "hora")
    pass_all(g)
    hora = last(g, "hora")
    assert sum(y["han"] for y in hora["yaku"] if y["name"] == "dora") == kan_dora_han


@pytest.mark.parametrize("name", PRESETS)
def test_ankan_turns_its_kan_dora_at_once_P12(name: str) -> None:
    """P12: ankan immediate — CLUB 「暗槓のときは槓した時点で」, ONLINE 「暗カン…即乗り」, OFFICIAL
    「先めくり」, Tenhou / MJ Soul 'revealed at once, before the replacement draw'."""
    rules = preset(name)
    w = build(rules, east="111p1m9m3p7p9p2s4s6s8s3z", draws="1p", replacements="2z", dora=IND, kan="3z", seed=15)
    g = _game(name, w)
    i = len(g.events)
    act(g, 0, "ankan")
    pass_all(g)
    assert _order(g, i) == ["ankan", "dora", "rinshan"]
    assert str(g.seats[0].hand[-1]) == "2z"


# ----------------------------------------------------------------------------------------------
# Chankan (Y12, P127, P128) and ron on a pulled North (P19)
# ----------------------------------------------------------------------------------------------
CHANKAN_S = "234p789p555z99s23s"  # waits 1s / 4s, haku


@pytest.mark.parametrize("name", PRESETS)
def test_chankan_on_kakan_Y12(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m", south=CHANKAN_S, west="11s1m9m2p4p6p8p3z6z7z2z", draws="1s" + "6z" + "7z" + "1s",
              dora=IND, seed=16)
    g = _game(name, w)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "none")  # South lets the 1s go (furiten until its next discard)
    act(g, 2, "pon", "1s")
    act(g, 2, "dahai", "2z")
    pass_all(g)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    i = len(g.events)
    act(g, 2, "kakan", "1s")
    assert has(g, 1, "hora")
    act(g, 1, "hora")
    h = last(g, "hora")
    assert "chankan" in [y["name"] for y in h["yaku"]]
    if name == "kansai":  # 「チャンカンの場合ドラはめくりません」
        assert events_of(g, "dora", i) == []


KOKUSHI_ON_ANKAN = {"club": True, "online": True, "official": False, "kansai": True, "tenhou": False,
                    "majsoul": True}  # P127; Tenhou / MJ Soul from PLATFORMS.md


@pytest.mark.parametrize("name", PRESETS)
def test_kokushi_robs_an_ankan_only_where_allowed_P127(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m", south="1m9m1p9p1s9s2z3z4z5z6z7z9s", west="111z", draws="3p" + "7p" + "1z",
              dora=IND, seed=17)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "ankan")
    assert has(g, 1, "hora") is KOKUSHI_ON_ANKAN[name]


@pytest.mark.parametrize("name", ["online", "official", "tenhou", "majsoul"])
def test_ron_on_a_pulled_north_without_chankan_P19(name: str) -> None:
    """P19: OFFICIAL 「誰かの抜いた北で、ロンあがりできます」; ONLINE default and both platforms yes,
    with no chankan yaku (PLATFORMS.md)."""
    rules = preset(name)
    w = build(rules, east="1m", south="1m9m1p9p1s9s1z2z3z5z6z7z9s", draws="3p" + "7p" + "4z", dora=IND, seed=17)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "kita")
    act(g, 1, "hora")
    h = last(g, "hora")
    assert h["target"] == 2 and "chankan" not in [y["name"] for y in h["yaku"]]
    assert h["yakuman"] >= 1


# ----------------------------------------------------------------------------------------------
# Aborts (P92, P93, P94)
# ----------------------------------------------------------------------------------------------
KYUUSHU = {"club": True, "online": True, "official": False, "kansai": True, "tenhou": True, "majsoul": True}


@pytest.mark.parametrize("name", PRESETS)
def test_kyuushu_abort_dealer_stays_P92(name: str) -> None:
    """P92: CLUB / ONLINE optional, dealer stays; OFFICIAL 「途中流局なし」; KANSAI default; platforms yes."""
    rules = preset(name)
    w = build(rules, east="1m9m1p9p1s9s1z2z3z2p3p4p6p", draws="5z", dora=IND, seed=18)
    g = _game(name, w)
    assert has(g, 0, "ryukyoku") is KYUUSHU[name]
    if KYUUSHU[name]:
        act(g, 0, "ryukyoku")
        assert g.hand_results[-1].kind == "abort"
        assert (g.dealer, g.honba, g.scores) == (0, 1, [START[name]] * 3)


@pytest.mark.parametrize("name", PRESETS)
def test_three_winds_abort_club_only_P93(name: str) -> None:
    """P93: CLUB 「3風連打…は、流局とする。その際、親は流れずに連荘とする」; ONLINE 「三風連打流局 ×」."""
    rules = preset(name)
    w = build(rules, east="2p", south="3p", west="4p", draws="1z1z1z", dora=IND, seed=18)
    g = _game(name, w)
    for seat in range(3):
        tsumogiri(g, seat)
    aborted = bool(g.hand_results) and g.hand_results[-1].reason == "three_winds"
    assert aborted is (name == "club")
    if aborted:
        assert (g.dealer, g.honba) == (0, 1)


# P94: four kans by two players abort: CLUB default (dealer stays), ONLINE 「四槓流れ ○ 親流れ」,
# OFFICIAL 「途中流局なし」, KANSAI 「東場は流れ」 (East: passes), Tenhou / MJ Soul renchan.
FOUR_KANS = {"club": "stays", "online": "passes", "official": None, "kansai": "passes", "tenhou": "stays",
             "majsoul": "stays"}


@pytest.mark.parametrize("name", PRESETS)
def test_four_kans_by_two_players_P94(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="111p999p1m9m3z5z6z7z2z", south="111s999s1m9m3z5z6z7z2z",
              west="1m9m2p4p6p8p3s4s5z6z7z2z3z", draws="1p1s",
              replacements="9p" + "3p" + "9s" + "7p", dora=IND, seed=19)
    g = _game(name, w)
    act(g, 0, "ankan")
    act(g, 0, "ankan")
    tsumogiri(g, 0)
    act(g, 1, "ankan")
    act(g, 1, "ankan")
    tsumogiri(g, 1)
    outcome = FOUR_KANS[name]
    if outcome is None:
        assert not g.hand_results and g.to_move == (2,)
    else:
        assert g.hand_results[-1].reason == "four_kans"
        assert g.dealer == (0 if outcome == "stays" else 1) and g.honba == 1


# ----------------------------------------------------------------------------------------------
# North (P15, P20)
# ----------------------------------------------------------------------------------------------
NORTH_DISCARD_AND_PON = {"online": True, "official": False, "tenhou": True, "majsoul": True, "club": True,
                         "kansai": True}  # P20: OFFICIAL 「北をポンすることはできず、河に捨てることもできません」
NORTH_IS_PULLED = {"online": True, "official": True, "tenhou": True, "majsoul": True, "club": False,
                   "kansai": False}  # P15: CLUB plain wind (「北抜きのドラ」はしない), KANSAI yakuhai, not dora


@pytest.mark.parametrize("name", PRESETS)
def test_north_discard_pon_and_kita_P15_P20(name: str) -> None:
    rules = preset(name)
    w = build(rules, east="1m", south="44z1m9m1p3p7p9p2s6s8s3z7z", draws="4z", dora=IND, seed=22)
    g = _game(name, w)
    assert has(g, 0, "kita") is NORTH_IS_PULLED[name]
    assert has(g, 0, "dahai", "4z") is NORTH_DISCARD_AND_PON[name]
    if NORTH_DISCARD_AND_PON[name]:
        act(g, 0, "dahai", "4z", tsumogiri=True)
        assert has(g, 1, "pon", "4z")


@pytest.mark.parametrize("order", ["upstream_first", "together"])
def test_kansai_double_ron_pays_the_upstream_winner_first_and_owes_it_the_dobon_fee_P91(order: str) -> None:
    """P91 / A003-16 (KANSAI 「ダブロンありで上家から支払いし、点棒がなくなった時点の方へドボン料が発生します」):
    South, holding exactly West's ron, busts paying West (first after the discarder), so only West is
    owed the dobon fee; under ``together`` (CLUB 「2人に対してそれぞれ支払う」) both winners are.
    The preset's fee is 0 (amount not stated, A003-6): 1,000 here shows who is paid."""
    rules = dataclasses.replace(preset("kansai"), dobon_fee=1000, double_ron_payment_order=order)
    assert preset("kansai").double_ron_payment_order == "upstream_first"
    w = build(rules, east=TANKI_1S, south="1m", west=TANKI_1S_W, draws="3z2z6z7z1s", dora=IND, seed=12)
    south = RON_TANKI["kansai"]  # exactly West's ron: South is on 0 after paying West (P108 bust at 0)
    g = Game(rules, seed=3, walls=walls_in_order([w]), scores=[50000, south, 55000 - south])
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    act(g, 1, "dahai", "1s", tsumogiri=True)
    act(g, 2, "hora")
    act(g, 0, "hora")
    assert [h["actor"] for h in events_of(g, "hora")] == [2, 0]
    assert g.done and g.end_reason == "bust" and g.busted == [1]
    end = last(g, "end_kyoku")["scores"]
    fee_to = {"upstream_first": [2], "together": [2, 0]}[order]
    assert g.scores[1] == end[1] - 1000 * len(fee_to)
    for x in (0, 2):
        assert g.scores[x] == end[x] + (1000 if x in fee_to else 0)
