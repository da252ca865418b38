"""Kakan kan-dora timing (P12), a passed kakan tile (P128), CLUB 2-han minimum (P64, P65), CLUB
formal tenpai (P47) and the live wall shortened by replacements (P14), per preset, from built walls.

Expected values are data from RULES_MATRIX (rows in the names), the seeds and PLATFORMS.md, never
read from ``Rules``. Seats 0, 1, 2 are East (first dealer), South, West; draws go E, S, W, E, ...
"""

from __future__ import annotations

from typing import Any

import pytest

import sanma
from engine_helpers import (
    PRESETS,
    act,
    build,
    discard,
    draw_out,
    has,
    last,
    pass_all,
    preset,
    tsumogiri,
    walls_in_order,
)
from sanma.game.engine import Game
from sanma.game.wall import Wall, WallBuilder
from sanma.tiles import Tile

IND = "9m"  # dora indicator -> 1m, in no hand below
TANKI_1S = "234p789p789s555z1s"  # closed, tanki on 1s, haku
RICH = [100000, 100000, 100000]


def _game(name: str, wall: Wall, **kw: Any) -> Game:
    return Game(preset(name), seed=3, walls=walls_in_order([wall]), **kw)


# ----------------------------------------------------------------------------------------------
# Kakan: kan dora timing (P12) and the passed kakan tile (P128)
# ----------------------------------------------------------------------------------------------
# P12 kakan: CLUB 「明槓及び加槓のときは…場に捨ててロンされなかった時点で」 (after the discard); ONLINE
# 「即乗り」 and OFFICIAL 「先めくり」 (at once); KANSAI silent: the matrix default, CLUB style; Tenhou
# with the kan player's next discard (PLATFORMS §1, corrected 2026-12-02); MJ Soul after the
# replacement draw, before the discard.
KAKAN_DORA = {"club": ["kakan", "rinshan", "dahai", "dora"], "kansai": ["kakan", "rinshan", "dahai", "dora"],
              "online": ["kakan", "dora", "rinshan", "dahai"], "official": ["kakan", "dora", "rinshan", "dahai"],
              "tenhou": ["kakan", "rinshan", "dahai", "dora"], "majsoul": ["kakan", "rinshan", "dora", "dahai"]}


def _order(g: Game, since: int) -> list[str]:
    return [("rinshan" if e.get("rinshan") else e["type"]) for e in g.events[since:]
            if e["type"] in ("kakan", "dora", "tsumo", "dahai")]


@pytest.mark.parametrize("name", PRESETS)
def test_kakan_kan_dora_timing_P12(name: str) -> None:
    # South pons East's 6z, then draws the fourth 6z and adds it (kakan); replacement 2z.
    w = build(preset(name), east="2p", south="66z1m9m1p3p7p9p2s4s6s8s3z", draws="6z" + "4p" + "3s" + "6z",
              replacements="2z", dora=IND, kan="3z", seed=15)
    g = _game(name, w)
    discard(g, 0, "6z", keep=[1])
    act(g, 1, "pon", "6z")
    pass_all(g)
    discard(g, 1, "3z")
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    i = len(g.events)
    act(g, 1, "kakan", "6z")
    pass_all(g)
    tsumogiri(g, 1)
    pass_all(g)
    assert _order(g, i)[:4] == KAKAN_DORA[name]
    assert [e["dora_marker"] for e in g.events[i:] if e["type"] == "dora"] == ["W"]


@pytest.mark.parametrize("name", PRESETS)
def test_passing_a_kakan_tile_makes_the_passer_furiten_P128(name: str) -> None:
    """P128 (KANSAI 「加カンは捨て牌とみなします」, matrix default yes): West may rob South's kakan of 1s
    (chankan) and lets it go; South's next discard, 4s — West's other wait — cannot be ronned."""
    w = build(preset(name), east="2p", south="11s1m9m2p4p6p8p3z6z7z2z3p", west="234p789p555z99s2s6z",
              draws="1s" + "3s" + "8p" + "1s", replacements="4s", dora=IND, seed=16)
    g = _game(name, w, scores=RICH)
    discard(g, 0, "1s", keep=[1])  # West is not yet tenpai
    act(g, 1, "pon", "1s")
    pass_all(g)
    discard(g, 1, "3z")
    discard(g, 2, "6z")  # West: 234p789p555z99s23s, waits 1s / 4s
    assert sorted(g.seats[2].waits) == sorted(Tile.parse(t).kind for t in ("1s", "4s"))
    tsumogiri(g, 0)
    act(g, 1, "kakan", "1s")
    assert has(g, 2, "hora")
    act(g, 2, "none")
    pass_all(g)
    act(g, 1, "dahai", "4s", tsumogiri=True)
    assert not has(g, 2, "hora")


# ----------------------------------------------------------------------------------------------
# CLUB 2-han minimum from 4 honba (P64) without ippatsu (P65)
# ----------------------------------------------------------------------------------------------
YAKULESS_S = "234p789p234s789s1s"  # closed, tanki 1s: riichi is its only yaku


@pytest.mark.parametrize(("honba", "offered"), [(3, True), (4, False)])
def test_club_two_han_minimum_from_four_honba_P64(honba: int, offered: bool) -> None:
    """P64 CLUB 「4本場から2ハン縛りとする」: TANKI_1S (haku, 1 han) cannot ron from 4 honba."""
    w = build(preset("club"), east="2p", south=TANKI_1S, draws="3z" + "2z" + "6z" + "1s", dora=IND, seed=14)
    g = _game("club", w, honba=honba)
    for seat in (0, 1, 2):
        tsumogiri(g, seat)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    assert has(g, 1, "hora") is offered


def test_club_riichi_and_ippatsu_alone_are_no_win_in_the_two_han_minimum_P65() -> None:
    """P65 CLUB 「一発は、2ハン縛りを満たす役とはならない」 (A000-20): at 4 honba riichi + ippatsu alone is
    not a win (in play such a riichi is not even offered, P87)."""
    hand = YAKULESS_S[:-2] + "1s1s"
    with pytest.raises(sanma.NotAWinError, match="fewer than 2 han"):
        sanma.score_hand(hand, win="1s", riichi=True, ippatsu=True, seat_wind="S", discarder_wind="W", honba=4,
                         rules=preset("club"))
    s = sanma.score_hand(hand, win="1s", riichi=True, ippatsu=True, seat_wind="S", discarder_wind="W", honba=3,
                         rules=preset("club"))
    assert {y.name for y in s.yaku} >= {"riichi", "ippatsu"}


@pytest.mark.parametrize(("hand", "offered"), [(TANKI_1S, True)])
def test_club_ippatsu_does_not_count_for_the_two_han_minimum_P65(hand: str, offered: bool) -> None:
    """P65 CLUB 「一発は、2ハン縛りを満たす役とはならない」 (A000-20): at 4 honba riichi + haku (+ ippatsu) wins."""
    w = build(preset("club"), east="2p", south=hand, draws="3z" + "3p" + "4p" + "7z" + "2z" + "1s", dora=IND,
              ura=IND, seed=14)
    g = _game("club", w, honba=4)
    for seat in (0, 1, 2, 0):  # one go-around first: no double riichi (Y02, 2 han by itself)
        tsumogiri(g, seat)
    act(g, 1, "reach", "2z")
    pass_all(g)
    act(g, 2, "dahai", "1s", tsumogiri=True)
    assert has(g, 1, "hora") is offered
    if offered:
        act(g, 1, "hora")
        assert "ippatsu" in [y["name"] for y in last(g, "hora")["yaku"]]


# ----------------------------------------------------------------------------------------------
# CLUB formal tenpai (P47)
# ----------------------------------------------------------------------------------------------
# P47: CLUB 「形式テンパイは認めない」 (A000-16: no winning tile gives a valid win) — South's open hand
# after a pon of 2s, tanki 1s with no yaku (CLUB has no kuitan, P66), is noten at the draw; ONLINE
# 「形式聴牌 ○」 and the matrix default elsewhere: tenpai.
FORMAL_TENPAI = {"club": False, "online": True, "official": True, "kansai": True, "tenhou": True,
                 "majsoul": True}


@pytest.mark.parametrize("name", PRESETS)
def test_formal_tenpai_without_a_yaku_at_the_draw_P47(name: str) -> None:
    w = build(preset(name), east="1p3p7p9p2s4s6s8s2z3z6z7z9m", south="22s234p789p789s1s3z",
              west="111s1m9m2p4p6p8p3z6z7z9p", draws="2s", dora=IND, seed=21)
    g = _game(name, w)
    discard(g, 0, "2s", keep=[1])
    act(g, 1, "pon", "2s")
    pass_all(g)
    discard(g, 1, "3z")
    draw_out(g)
    r = last(g, "ryukyoku")
    assert r["reason"] == "exhaustive"
    assert (1 in r["tenpai"]) is FORMAL_TENPAI[name]


# ----------------------------------------------------------------------------------------------
# The live wall shortened by replacements (P14): haitei comes earlier
# ----------------------------------------------------------------------------------------------
# P14: CLUB 「王牌はめくり牌の数にかかわりなく１４牌とする」 (each replacement takes the haitei tile
# away: one draw less); KANSAI matrix default (14, replenished); Tenhou / MJ Soul "Each kan or kita
# replacement shortens the live wall by one"; ONLINE 「王牌 18枚」 with replacements from it, haitei
# unchanged (A001-11); OFFICIAL the live wall runs to the indicator and a North replacement comes
# from the 4 rinshan tiles (A002-1): no draw less. CLUB and KANSAI have no kita: an ankan there;
# the North presets pull a North (P15).
SHORTER_BY = {"club": 1, "kansai": 1, "tenhou": 1, "majsoul": 1, "online": 0, "official": 0}
KITA_PRESETS = ("online", "official", "tenhou", "majsoul")


@pytest.mark.parametrize("name", PRESETS)
def test_replacement_draw_moves_the_haitei_P14(name: str) -> None:
    rules = preset(name)
    live = WallBuilder(rules).build().remaining  # live draws of a hand with no replacement
    kita = name in KITA_PRESETS
    east = "4z" + "1m9m1p3p7p9p2s4s6s8s2z3z" if kita else "111p" + "1m9m3p7p9p2s4s6s8s3z"
    w = build(rules, east=east, south="44z" if kita else None, draws="3p" if kita else "1p",
              replacements="5z" + ("1f2f3f4f" if rules.flowers else ""), dora=IND, seed=25)
    g = _game(name, w)
    act(g, 0, "kita" if kita else "ankan")
    pass_all(g)
    draw_out(g)
    hand0_end = next(i for i, e in enumerate(g.events) if e["type"] == "end_kyoku")
    live_draws = [e for e in g.events[:hand0_end] if e["type"] == "tsumo" and not e.get("rinshan")]
    assert len(live_draws) == live - SHORTER_BY[name]
    assert last(g, "ryukyoku")["reason"] == "exhaustive"
