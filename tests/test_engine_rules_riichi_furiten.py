"""Furiten (P76-P78) and riichi (P81, P82, P84, P86, P95, Y04) in the engine, per preset.

Expected values are data from RULES_MATRIX (rows in the names) and the seeds, never read from
``Rules``. Seats 0, 1, 2 are East (first dealer), South, West; draws go E, S, W, E, ...
"""

from __future__ import annotations

from typing import Any

import pytest

from engine_helpers import PRESETS, act, build, discard, has, last, pass_all, preset, tsumogiri, walls_in_order
from sanma.game.engine import Game
from sanma.game.wall import Wall, WallBuilder
from sanma.tiles import Tile

IND = "9m"  # dora indicator -> 1m, in no hand below
TANKI_1S = "234p789p789s555z1s"  # closed, tanki on 1s, haku
WEST_HOLDS_1S = "111s1m9m2p4p6p8p3z6z7z9p"  # noten, keeps the other 1s out of play
RICH = [100000, 100000, 100000]


def _game(name: str, wall: Wall, **kw: Any) -> Game:
    return Game(preset(name), seed=3, walls=walls_in_order([wall]), **kw)


def _kind(tile: str) -> int:
    return Tile.parse(tile).kind


# ----------------------------------------------------------------------------------------------
# Furiten tsumo (P76)
# ----------------------------------------------------------------------------------------------
# P76: furiten tsumo allowed (CLUB default, ONLINE default, OFFICIAL 「リーチをかけていないときの
# フリテンツモあり」, Tenhou / MJ Soul standard) except KANSAI 「フリテンは一切不可」.
FURITEN_TSUMO = {"club": True, "online": True, "official": True, "kansai": False, "tenhou": True, "majsoul": True}


@pytest.mark.parametrize("name", PRESETS)
def test_tsumo_while_furiten_from_own_discard_P76(name: str) -> None:
    # South draws its wait 1s and discards it (furiten), then draws the last 1s.
    w = build(preset(name), east="1m", south=TANKI_1S, draws="3z" + "1s" + "6z" + "7z" + "1s", dora=IND, seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    assert has(g, 1, "hora") is FURITEN_TSUMO[name]


# P76 KANSAI 「同巡にアガリ牌が河にある際はツモあがりできません」: South's hand has no yaku for a ron
# (234p 789p 234s 789s + 1s, closed, no pinfu: tanki), so West's 1s offers South nothing and makes no
# furiten; South then draws the last 1s in the same go-around: KANSAI no tsumo, everywhere else the
# menzen tsumo win.
YAKULESS_S = "234p789p234s789s1s"


@pytest.mark.parametrize("name", PRESETS)
def test_kansai_no_tsumo_after_a_winning_tile_was_discarded_this_go_around_P76(name: str) -> None:
    w = build(preset(name), east="1m", south=YAKULESS_S, west="2z", draws="3z" + "6z" + "1s" + "7z" + "1s",
              dora=IND, seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "dahai", "1s", tsumogiri=True)
    assert not has(g, 1, "hora")
    pass_all(g)
    tsumogiri(g, 0)
    assert has(g, 1, "hora") is (name != "kansai")


# A002-13 (OFFICIAL): a riichi player who let a winning tile pass can no longer win at all, tsumo
# included; KANSAI: furiten blocks tsumo anyway (P76); ONLINE / Tenhou / MJ Soul: furiten tsumo is
# allowed (P76 default, PLATFORMS standard). CLUB is left out: there passing a win after riichi is
# itself a chombo (P80, test_engine_chombo.py).
RIICHI_PASSED_TSUMO = {"online": True, "official": False, "kansai": False, "tenhou": True, "majsoul": True}


@pytest.mark.parametrize("name", sorted(RIICHI_PASSED_TSUMO))
def test_tsumo_after_letting_a_win_pass_under_riichi_A002_13(name: str) -> None:
    w = build(preset(name), east="1m", south=TANKI_1S, west="2p",
              draws="3z" + "2z" + "6z" + "1s" + "7z" + "3p" + "4p" + "1s",
              dora=IND, ura=IND, seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "none")
    pass_all(g)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    assert has(g, 1, "hora") is RIICHI_PASSED_TSUMO[name]


# ----------------------------------------------------------------------------------------------
# Furiten riichi (P77), the late riichi limit (P81)
# ----------------------------------------------------------------------------------------------
# P77: ONLINE 「振聴リーチ ○」, Tenhou / MJ Soul "Furiten riichi is allowed" (PLATFORMS.md); CLUB
# 「フリテンリーチはチョンボである」, OFFICIAL 「フリテンリーチなし」 and KANSAI (furiten is not tenpai,
# A003-21) make it a chombo when revealed (P80), which a player at a table can still declare: offered
# everywhere, settled per preset in test_engine_chombo.py.


@pytest.mark.parametrize("name", PRESETS)
def test_furiten_riichi_is_offered_in_every_preset_P77(name: str) -> None:
    # South holds TANKI_1S, draws 1s and lets it go (furiten on 1s), then draws 3p: a riichi
    # discarding 3p would still wait on the 1s in its river.
    w = build(preset(name), east="1m", south=TANKI_1S, draws="3z" + "1s" + "6z" + "7z" + "3p", dora=IND, seed=14)
    g = _game(name, w)
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    assert has(g, 1, "reach", "3p")


@pytest.mark.parametrize("name", PRESETS)
def test_riichi_without_furiten_is_offered_control_P77(name: str) -> None:
    w = build(preset(name), east="1m", south=TANKI_1S, draws="3z" + "2z" + "6z" + "7z" + "3p", dora=IND, seed=14)
    g = _game(name, w)
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    assert has(g, 1, "reach", "3p")


# P81: OFFICIAL 「自身の手番がハイテイでなければリーチをかけることができる」 (riichi on any draw but the
# last); elsewhere the default (PLATFORMS: "at least one more own draw"): with 1 or 2 tiles left
# after one's draw there is no further own draw.
LATE_RIICHI = {"club": False, "online": False, "official": True, "kansai": False, "tenhou": False,
               "majsoul": False}


def _play_to(g: Game, seat: int, remaining: int) -> None:
    """Everyone discards what it draws (pulling a North it may not discard) until ``seat`` has
    drawn with ``remaining`` live tiles left."""
    while not (g.to_move == (seat,) and g.wall.remaining == remaining and not has(g, seat, "none")):
        s = g.to_move[0]
        if has(g, s, "none"):
            act(g, s, "none")
            continue
        a = next((x for x in g.legal_actions(s) if x.type == "dahai" and x.tsumogiri), None)
        g.apply(a if a is not None else next(x for x in g.legal_actions(s) if x.type == "kita"))
        assert g.wall.remaining >= remaining and not g.hand_results


@pytest.mark.parametrize("name", PRESETS)
def test_riichi_late_limit_P81(name: str) -> None:
    rules = preset(name)
    d = WallBuilder(rules).build().remaining
    seat = d % 3  # draw i goes to seat i % 3; after draw d - 3, two tiles remain
    hands: dict[str, str] = {"east": "1p3p7p9p2s4s6s8s2z3z6z7z9m", "south": "1p3p7p9p2s4s6s8s2z3z6z7z9m",
                             "west": "1p3p7p9p2s4s6s8s2z3z6z7z9m"}
    wind = ("east", "south", "west")
    hands[wind[seat]] = TANKI_1S
    hands[wind[(seat + 1) % 3]] = "111s" + "2p4p6p8p2s4s6s8s4z6z"
    wb = WallBuilder(rules, seed=14).hands(**hands).indicators(dora=IND)
    if rules.flowers:
        wb.replacements("1f2f3f4f")
    g = _game(name, wb.build(), scores=RICH)
    _play_to(g, seat, 5)
    assert has(g, seat, "reach")  # control: two more own draws to come
    _play_to(g, seat, 2)
    assert has(g, seat, "reach") is LATE_RIICHI[name]


# ----------------------------------------------------------------------------------------------
# Kan after riichi (P84), calls after riichi (P86)
# ----------------------------------------------------------------------------------------------
# South riichis on 1113p 789p 789s 555z (waits 2p and 3p) and draws the fourth 1p: an ankan would
# leave 3p alone (the wait changes). P84 standard (CLUB, ONLINE, OFFICIAL default; Tenhou / MJ Soul):
# not allowed; KANSAI 「リーチ後のカンは自由です。ただし、送りカンはできません」 (A003-18): allowed.
WAIT_CHANGING_ANKAN = {"club": False, "online": False, "official": False, "kansai": True, "tenhou": False,
                       "majsoul": False}


@pytest.mark.parametrize("name", PRESETS)
def test_ankan_after_riichi_that_changes_the_wait_P84(name: str) -> None:
    w = build(preset(name), east="2p", south="1113p789p789s555z", draws="3z" + "2z" + "6z" + "7z" + "1p",
              dora=IND, ura=IND, seed=15)
    g = _game(name, w, scores=RICH)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    assert sorted(g.seats[1].waits) == [_kind("2p"), _kind("3p")]
    assert has(g, 1, "ankan") is WAIT_CHANGING_ANKAN[name]


@pytest.mark.parametrize("name", PRESETS)
def test_ankan_after_riichi_keeping_the_wait_and_no_okurikan_P84(name: str) -> None:
    """111p 789p 789s 555z + 2z tanki: an ankan of the drawn 1p keeps the wait — allowed in every
    preset (P84 standard; KANSAI 「自由」). Holding 1111p and drawing another tile, the ankan would be
    an okuri-kan: forbidden everywhere (KANSAI 「送りカンはできません」; standard: only with the draw)."""
    w = build(preset(name), east="2p", south="111p789p789s555z2z", draws="3z" + "3p" + "6z" + "7z" + "1p",
              dora=IND, ura=IND, seed=15)
    g = _game(name, w, scores=RICH)
    tsumogiri(g, 0)
    act(g, 1, "reach", "3p")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    assert has(g, 1, "ankan")
    w = build(preset(name), east="2p", south="1111p23p789s555z9m", draws="3z" + "3p" + "6z" + "7z" + "4s",
              dora="9p", ura="9p", seed=15)
    g = _game(name, w, scores=RICH)
    tsumogiri(g, 0)
    act(g, 1, "reach", "3p")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    assert not has(g, 1, "ankan")


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("riichi", [False, True])
def test_no_pon_or_daiminkan_after_riichi_P86(name: str, riichi: bool) -> None:
    """P86: calls after riichi are forbidden (standard; KANSAI 「鳴くことはできません」, A003-18: no
    daiminkan either). South: 234p 789p 99s 555z 12s (waits 3s), West then discards 9s and 5z."""
    w = build(preset(name), east="2p", south="234p789p99s555z12s", draws="3z" + "2z" + "9s" + "7z" + "6z" + "5z",
              dora=IND, ura=IND, seed=16)
    g = _game(name, w, scores=RICH)
    tsumogiri(g, 0)
    if riichi:
        act(g, 1, "reach", "2z")
    else:
        act(g, 1, "dahai", "2z")
    pass_all(g)
    act(g, 2, "dahai", "9s", tsumogiri=True)
    assert has(g, 1, "pon", "9s") is not riichi
    pass_all(g)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "dahai", "5z", tsumogiri=True)
    assert has(g, 1, "daiminkan", "5z") is not riichi


# ----------------------------------------------------------------------------------------------
# Open riichi (P82, Y03, Y04); all-riichi (P95)
# ----------------------------------------------------------------------------------------------
OPEN_RIICHI = {"club": True, "online": False, "official": False, "kansai": False, "tenhou": False,
               "majsoul": False}  # P82: only CLUB 「オープン（リーチ）」


@pytest.mark.parametrize("name", PRESETS)
def test_open_riichi_offered_only_in_club_P82(name: str) -> None:
    w = build(preset(name), east="2p", south=TANKI_1S, draws="3z" + "2z", dora=IND, seed=16)
    g = _game(name, w)
    tsumogiri(g, 0)
    assert has(g, 1, "reach", "2z")
    assert has(g, 1, "open_reach", "2z") is OPEN_RIICHI[name]


@pytest.mark.parametrize("west_riichi", [False, True])
def test_club_deal_in_to_open_riichi_is_yakuman_unless_in_riichi_Y04(west_riichi: bool) -> None:
    """Y04 (CLUB 「オープンリーチへのリーチを掛けていない者の振込み」): a player not in riichi who deals
    into an open riichi pays a yakuman (32,000 from a non-dealer's hand); a riichi'd discarder pays
    the normal value: open riichi 2 han (riichi + open, A000-2) + haku 1 = 3 han 40 fu = 5,200."""
    w = build(preset("club"), east="2p", south=TANKI_1S, west="123p789p234s666z3s",
              draws="3z" + "3p" + "4p" + "7z" + "2z" + "6s" + "4s" + "4z" + "1s", dora=IND, ura=IND, seed=16)
    g = _game("club", w, scores=RICH)
    for seat in (0, 1, 2, 0):  # one go-around first: no double riichi (Y02)
        tsumogiri(g, seat)
    act(g, 1, "open_reach", "2z")
    pass_all(g)
    if west_riichi:
        act(g, 2, "reach", "6s")  # West: 123p789p234s666z3s, tanki 3s; riichi on its drawn 6s
    else:
        act(g, 2, "dahai", "6s", tsumogiri=True)
    pass_all(g)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    h = last(g, "hora")
    if west_riichi:
        assert h["yakuman"] == 0 and h["deltas"] == [0, 5200 + 2000, -5200]  # + both riichi sticks
    else:
        assert h["yakuman"] == 1 and h["deltas"] == [0, 32000 + 1000, -32000]


@pytest.mark.parametrize("name", PRESETS)
def test_all_three_in_riichi_does_not_abort_P95(name: str) -> None:
    """P95: CLUB 「3人リーチ（全員リーチ）でも、場は継続する」, ONLINE 「三人立直流局 ×」, OFFICIAL and
    KANSAI no aborts of this kind (matrix), Tenhou / MJ Soul none: the hand goes on."""
    w = build(preset(name), east="234p789p789s555z1s", south="234s789s123p666z9m", west="111p999p111s777z2s",
              draws="3z" + "2z" + "4p" + "3p", dora=IND, ura=IND, seed=16)
    g = _game(name, w, scores=RICH)
    act(g, 0, "reach", "3z")
    pass_all(g)
    act(g, 1, "reach", "2z")
    pass_all(g)
    act(g, 2, "reach", "4p")
    pass_all(g)
    assert all(s.riichi for s in g.seats) and g.kyotaku == 3
    assert not g.hand_results and g.to_move == (0,)


# ----------------------------------------------------------------------------------------------
# 13-sided kokushi furiten (P78, §5.4)
# ----------------------------------------------------------------------------------------------
KOKUSHI_13 = "1m9m1p9p1s9s1z2z3z4z5z6z7z"


@pytest.mark.parametrize("name", PRESETS)
def test_kokushi_13_sided_furiten_club_relaxed_P78(name: str) -> None:
    """§5.4 (CLUB L77-80): (2) no ron at all in the go-around after discarding a terminal/honour;
    later, (1) only the tiles it discarded itself are barred. Everyone else: standard furiten (a
    wait in one's own discards bars every ron; ONLINE 「13面待ちフリテン聴牌時のロン和了不可」)."""
    w = build(preset(name), east="2p", south=KOKUSHI_13,
              draws="3p" + "1m" + "9m" + "4p" + "3s" + "9p" + "4s" + "6p" + "1m", dora="2p", seed=17)
    g = _game(name, w, scores=RICH)
    tsumogiri(g, 0)
    act(g, 1, "dahai", "1m", tsumogiri=True)  # South lets its tsumo go: 1m is now in its river
    pass_all(g)
    act(g, 2, "dahai", "9m", tsumogiri=True)
    assert not has(g, 1, "hora")  # same go-around as its terminal discard: no ron anywhere
    pass_all(g)
    tsumogiri(g, 0)
    tsumogiri(g, 1)  # South discards 3s: a new go-around
    act(g, 2, "dahai", "9p", tsumogiri=True)
    assert has(g, 1, "hora") is (name == "club")  # (1): 9p is not a tile South discarded
    pass_all(g)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "dahai", "1m", tsumogiri=True)
    assert not has(g, 1, "hora")  # (1): South discarded 1m itself


# ----------------------------------------------------------------------------------------------
# OFFICIAL sakizuke (P67, P69)
# ----------------------------------------------------------------------------------------------
# South pons 2s (no yaku) and waits on a 5z / 1s shanpon: only 5z (haku) gives a yaku. P67/P69:
# OFFICIAL 「後付けなしの完全先付け」「ダブルバックなし」 and KANSAI 「後ヅケ無し、確定1翻縛り」: no win on
# 5z either; everyone else allows atozuke (ONLINE 「後付け ○」, CLUB / platforms default).
ATOZUKE = {"club": True, "online": True, "official": False, "kansai": False, "tenhou": True, "majsoul": True}


@pytest.mark.parametrize("name", PRESETS)
def test_open_hand_wins_only_with_a_fixed_yaku_P67_P69(name: str) -> None:
    w = build(preset(name), east="3p", south="22s234p789p55z11s4p", draws="2s" + "6z" + "5z",
              dora=IND, seed=18)
    g = _game(name, w, scores=RICH)
    discard(g, 0, "2s", keep=[1])
    act(g, 1, "pon", "2s")
    pass_all(g)
    discard(g, 1, "4p")
    tsumogiri(g, 2)
    act(g, 0, "dahai", "5z", tsumogiri=True)
    assert has(g, 1, "hora") is ATOZUKE[name]


def test_official_open_hand_with_a_fixed_yaku_wins_control_P67() -> None:
    """P67 OFFICIAL 「副露時の確定した…役牌…はあがれます」: the same shape after a pon of hatsu."""
    w = build(preset("official"), east="3p", south="66z234p789p55z11s4p", draws="6z" + "3s" + "1s",
              dora=IND, seed=18)
    g = _game("official", w, scores=RICH)
    discard(g, 0, "6z", keep=[1])
    act(g, 1, "pon", "6z")
    pass_all(g)
    discard(g, 1, "4p")
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    assert has(g, 1, "hora")


# ----------------------------------------------------------------------------------------------
# OFFICIAL North kept in hand (P15, P20)
# ----------------------------------------------------------------------------------------------
# P15 OFFICIAL: 「北は抜きドラ扱いで、『字一色』『四喜和』『国士無双』のみ、手牌の中で使用できます」: a tanki
# on North in an ordinary hand is no win; ONLINE keeps North as a guest wind (「手牌使用時は常時客風
# 牌」), CLUB a plain wind, KANSAI a yakuhai, Tenhou / MJ Soul like ONLINE: the haku hand wins.
NORTH_TANKI_WINS = {"club": True, "online": True, "official": False, "kansai": True, "tenhou": True,
                    "majsoul": True}


@pytest.mark.parametrize("name", PRESETS)
def test_north_in_an_ordinary_hand_only_outside_official_P15(name: str) -> None:
    w = build(preset(name), east="2p", south="234p789p789s555z4z", draws="3z" + "4z", dora=IND, seed=22)
    g = _game(name, w)
    tsumogiri(g, 0)
    assert has(g, 1, "hora") is NORTH_TANKI_WINS[name]


@pytest.mark.parametrize("name", PRESETS)
def test_north_in_a_tsuuiisou_wins_everywhere_P15(name: str) -> None:
    """P15 OFFICIAL: North may stay in hand for 字一色 — a tsuuiisou waiting on North wins."""
    w = build(preset(name), east="2p", south="111z222z333z555z4z", draws="3p" + "4z", dora=IND, seed=22)
    g = _game(name, w, scores=RICH)
    tsumogiri(g, 0)
    assert has(g, 1, "hora")
    act(g, 1, "hora")
    assert "tsuuiisou" in [y["name"] for y in last(g, "hora")["yaku"]]
