"""Chips (P114-P121) and KANSAI flowers (P02-P04, P17, P18, P119) in the engine, from built walls.

Expected values are data from RULES_MATRIX (rows in the names), §5.3 and the seeds, never read
from ``Rules``. Seats 0, 1, 2 are East (first dealer), South, West; draws go E, S, W, E, ...
``g.chips`` holds the chips of the hand(s) played so far (seat order).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine_helpers import act, discard, last, pass_all, preset, tsumogiri, walls_in_order
from sanma.game.engine import Game
from sanma.game.wall import Wall, WallBuilder
from sanma.rules.schema import Rules

IND = "9m"  # dora indicator -> 1m, a tile in no hand below
ALL_FLOWERS = ("1f", "2f", "3f", "4f")
TANKI_1S = "234p789p789s555z1s"  # closed, waits on 1s alone, haku: one yaku


def _build(rules: Rules, *, east: str | None = None, south: str | None = None, west: str | None = None,
           draws: str | None = None, replacements: str = "", dora: str = IND, ura: str | None = None,
           seed: int = 5) -> Wall:
    """A WallBuilder wall. Under KANSAI (P02: four flowers) every flower the test does not place is
    put in the replacement stack after ``replacements``, so no hand gets one by chance."""
    placed = "".join(x or "" for x in (east, south, west, draws, replacements))
    hidden = "".join(f for f in ALL_FLOWERS[:rules.flowers] if f not in placed)
    wb = WallBuilder(rules, seed=seed).hands(east=east, south=south, west=west)
    if draws:
        wb.draws(draws)
    if replacements + hidden:
        wb.replacements(replacements + hidden)
    wb.indicators(dora=dora, ura=ura)
    return wb.build()


RICH = [100000, 100000, 100000]  # no bust (and no bust chips, P110) after even a double yakuman


def _game(rules: Rules, wall: Wall, **kw: Any) -> Game:
    kw.setdefault("scores", RICH)
    return Game(rules, seed=3, walls=walls_in_order([wall]), **kw)


def _names(g: Game) -> list[str]:
    return [y["name"] for y in last(g, "hora")["yaku"]]


# ----------------------------------------------------------------------------------------------
# Ippatsu and ura chips on a ron (P114, P115): the discarder pays (CLUB 5.3 "ron = the discarder
# pays"; KANSAI A003-17 "Ron: discarder pays").
# ----------------------------------------------------------------------------------------------
IPPATSU_CHIPS = {"club": 3, "kansai": 1}  # P114: CLUB 「チップ3枚」, KANSAI 「リーチ一発…チップ1枚」
URA_CHIPS = {"club": 3, "kansai": 1}  # P115: CLUB 「1個につきチップ3枚」, KANSAI 「裏ドラがチップ1枚」


@pytest.mark.parametrize("name", ["club", "kansai"])
def test_ippatsu_ron_chips_from_the_discarder_P114(name: str) -> None:
    rules = preset(name)
    # South riichis (discarding the drawn 2z) on TANKI_1S; West discards 1s at once: ippatsu.
    g = _game(rules, _build(rules, east="1m", south=TANKI_1S, draws="3z" + "2z" + "1s", ura=IND, seed=13))
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    act(g, 2, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert "ippatsu" in _names(g) and "ura_dora" not in _names(g)
    c = IPPATSU_CHIPS[name]
    assert g.chips == [0, c, -c]


@pytest.mark.parametrize("name", ["club", "kansai"])
def test_ura_chips_per_ura_dora_held_P115(name: str) -> None:
    rules = preset(name)
    # The ura indicator 7z (chun) points at haku: South's 555z is three ura dora. No ippatsu: the
    # 1s comes a go-around later.
    g = _game(rules, _build(rules, east="1m", south=TANKI_1S, draws="3z" + "2z" + "6z" + "3p" + "4z" + "1s",
                            ura="7z", seed=13))
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert "ippatsu" not in _names(g)
    c = URA_CHIPS[name] * 3
    assert g.chips == [0, c, -c]


# ----------------------------------------------------------------------------------------------
# Yakuman chips (P116): CLUB ron 30 from the discarder, tsumo 15 from each (L121-122), kazoe counts
# (L123); KANSAI 5 for a real yakuman only, from both opponents on ron and tsumo (「本役満のご祝儀は
# ツモ、ロンともに2人から貰えます」), never for kazoe (「本役満がチップ5枚」).
# ----------------------------------------------------------------------------------------------
KOKUSHI_S = "1m9m1p9p1s9s1z2z3z5z6z7z9s"  # waits on North (4z) alone; CLUB and KANSAI keep North in play
YAKUMAN_RON = {"club": [0, 30, -30], "kansai": [-5, 10, -5]}
YAKUMAN_TSUMO = {"club": [-15, 30, -15], "kansai": [-5, 10, -5]}


@pytest.mark.parametrize("name", ["club", "kansai"])
@pytest.mark.parametrize("how", ["ron", "tsumo"])
def test_yakuman_chips_ron_and_tsumo_P116(name: str, how: str) -> None:
    rules = preset(name)
    draws = "3p" + "7p" + ("4z" if how == "ron" else "3s") + "6s" + ("2s" if how == "ron" else "4z")
    g = _game(rules, _build(rules, east="2p", south=KOKUSHI_S, draws=draws, seed=17))
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    if how == "ron":
        act(g, 2, "dahai", "4z", tsumogiri=True)
    else:
        tsumogiri(g, 2)
        tsumogiri(g, 0)
    act(g, 1, "hora")
    assert last(g, "hora")["yakuman"] == 1
    assert g.chips == (YAKUMAN_RON if how == "ron" else YAKUMAN_TSUMO)[name]


# Kazoe yakuman by a closed pinzu flush, tsumo on the second draw (no chiihou): menzen tsumo 1 +
# chinitsu 6 + the four fives (always dora: CLUB P06, KANSAI red P05) 4 + indicator 4p (each five
# +1, P09) 4 = 15 han: kazoe (CLUB P59 13+, KANSAI 14+). CLUB: yakuman chips 15 each (kazoe counts)
# + closed chinitsu 5 each (P117) = 20 each; KANSAI: nothing (kazoe is not a 本役満; no chinitsu
# chips; red fives 「チップはつかない」).
KAZOE_HAND = {"club": "123p345p555p789p9p", "kansai": "123p340p000p789p9p"}
KAZOE_CHIPS = {"club": [-20, 40, -20], "kansai": [0, 0, 0]}


@pytest.mark.parametrize("name", ["club", "kansai"])
def test_kazoe_yakuman_chips_club_yes_kansai_no_P116_P117(name: str) -> None:
    rules = preset(name)
    g = _game(rules, _build(rules, east="1m", south=KAZOE_HAND[name], draws="3z" + "2z" + "6z" + "7z" + "9p",
                            dora="4p", seed=17))
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    act(g, 1, "hora")
    h = last(g, "hora")
    assert h["yakuman"] == 1 and "chinitsu" in _names(g)
    assert g.chips == KAZOE_CHIPS[name]


# P117 / P118 (CLUB): closed chinitsu / closed junchan, ron 10 from the discarder, tsumo 5 from each
# (L128-129, L134-135).
CLUB_CLOSED_HANDS = {
    "chinitsu": ("123p456p789p22p99p", "9p"),  # shanpon 2p/9p, pinzu flush (+ ittsu)
    "junchan": ("123p789p123s789s9m", "9m"),  # tanki 9m
}


@pytest.mark.parametrize("yaku", sorted(CLUB_CLOSED_HANDS))
@pytest.mark.parametrize("how", ["ron", "tsumo"])
def test_club_closed_chinitsu_and_junchan_chips_P117_P118(yaku: str, how: str) -> None:
    rules = preset("club")
    hand, wait = CLUB_CLOSED_HANDS[yaku]
    draws = "3z" + "2z" + "6z" + "7z" + ("4z" if how == "ron" else "") + wait
    g = _game(rules, _build(rules, east="1m", south=hand, draws=draws, dora="1z", seed=19))
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    if how == "ron":
        tsumogiri(g, 1)
        act(g, 2, "dahai", wait, tsumogiri=True)
    act(g, 1, "hora")
    assert yaku in _names(g) and last(g, "hora")["yakuman"] == 0
    assert g.chips == ([0, 10, -10] if how == "ron" else [-5, 10, -5])


def test_club_closed_chinroutou_ron_yakuman_menzen_bonus_and_junchan_chips_P116_P118_P62() -> None:
    """CLUB: closed chinroutou ron = chinroutou + the menzen yakuman bonus (P62, A000-21: a yakuman
    that may hold a pon, completed without a call) = 2 yakuman → 2 × 30 chips (P116 ×2) + the closed
    junchan prize 10 (P118 「面前の清老頭の場合にでも、メン純チャン賞も合わせて受け取る」) = 70."""
    rules = preset("club")
    g = _game(rules, _build(rules, east="2p", south="111p999p111s99s9m9m",
                            draws="3z" + "2z" + "6z" + "7z" + "4z" + "9s", dora="1z", seed=19))
    for seat in (0, 1, 2, 0, 1):
        tsumogiri(g, seat)
    act(g, 2, "dahai", "9s", tsumogiri=True)
    act(g, 1, "hora")
    assert last(g, "hora")["yakuman"] == 2
    assert g.chips == [0, 70, -70]


# P121 (CLUB): 「起家がトップではなかった場合には、他の2人に対してそれぞれチップ3枚ずつを支払う」 when
# nobody busted; uma in chips +4 / -1 / -3 (P27). The last hand (lap 2, East 3: seat 2 deals);
# seat 1 wins TANKI_1S (1,300) from the dealer and the game ends.
@pytest.mark.parametrize(("scores", "chips"), [
    ([10000, 20000, 15000], (-3 - 6, 4 + 3, -1 + 3)),  # seat 0 (first dealer) 3rd: pays 3 to each
    ([30000, 10000, 5000], (4, -1, -3)),  # seat 0 top: uma only
])
def test_club_first_dealer_not_top_pays_3_chips_to_each_P121(scores: list[int], chips: tuple[int, ...]) -> None:
    rules = preset("club")
    # Builder winds are of this hand: east = seat 2 (dealer), south = seat 0, west = seat 1.
    w = _build(rules, east="2p", south="3p", west=TANKI_1S, draws="3z" + "2z" + "6z" + "1s", seed=23)
    g = Game(rules, seed=3, walls=walls_in_order([w]), scores=scores, round_index=1, kyoku=2)
    for seat in (2, 0, 1):
        tsumogiri(g, seat)
    act(g, 2, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert g.done and g.result is not None
    assert g.result.chips == chips


# ----------------------------------------------------------------------------------------------
# KANSAI flowers (P02-P04, P17, P18, P119)
# ----------------------------------------------------------------------------------------------
def test_kansai_flower_in_the_deal_is_pulled_and_replaced_P02_P03() -> None:
    """P02 「華牌を4枚使用」; P03 「華牌は空気扱いで手の内で使うことも捨てることもできません」: the dealt
    flower is set aside and replaced from the dead wall; a drawn flower likewise, never discarded."""
    rules = preset("kansai")
    g = _game(rules, _build(rules, east="1m", south="2f" + "234p789p789s555z", draws="3z" + "3f",
                            replacements="6z" + "7p", seed=29))
    flowers = [e for e in g.events if e["type"] == "flower"]
    assert [(e["actor"], e["pai"]) for e in flowers] == [(1, "2f")]
    assert g.seats[1].flowers == 1 and len(g.seats[1].hand) == 13
    assert "F" in [t.mjai for t in g.seats[1].hand]  # the replacement 6z (hatsu)
    tsumogiri(g, 0)
    # South draws 3f: pulled at once, replaced by 7p; no flower is ever offered as a discard.
    assert [(e["actor"], e["pai"]) for e in g.events if e["type"] == "flower"][-1] == (1, "3f")
    assert g.seats[1].flowers == 2
    assert all(not (a.tile is not None and a.tile.is_flower) for a in g.legal_actions(1))
    assert any(a.type == "dahai" and str(a.tile) == "7p" and a.tsumogiri for a in g.legal_actions(1))


def test_kansai_flower_is_one_dora_each_P04_A003_2() -> None:
    """P04 / A003-2: each pulled flower is 1 nuki-dora (Kansai practice, recommended 1)."""
    rules = preset("kansai")
    g = _game(rules, _build(rules, east="1m", south="2f3f" + "234p789p789s55z", draws="3z" + "3p" + "6z" + "1s",
                            replacements="5z" + "1s", seed=29))
    # South: 234p789p789s55z + the replacements 5z and 1s = TANKI_1S.
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    discard(g, 0, "1s", keep=[1])
    act(g, 1, "hora")
    h = last(g, "hora")
    assert {y["name"]: y["han"] for y in h["yaku"]}.get("flower_dora") == 2


def test_kansai_flower_after_riichi_keeps_ippatsu_and_is_no_rinshan_P17_P18() -> None:
    """P17: flowers are 「空気扱い」 → they do not break ippatsu; P18 (recommended by analogy with
    OFFICIAL's North): a win on the flower's replacement tile is not rinshan kaihou."""
    rules = preset("kansai")
    g = _game(rules, _build(rules, east="1m", south=TANKI_1S, draws="3z" + "2z" + "6z" + "3p" + "1f",
                            replacements="1s", ura=IND, seed=13))
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    # South draws 1f: pulled, replaced by 1s — its winning tile.
    act(g, 1, "hora")
    names = _names(g)
    assert "ippatsu" in names and "rinshan" not in names


# P119 (KANSAI): the one chip flower (1f), pulled, and a **closed** win: 1 chip — 「ツモの場合2人から、
# 出あがりはその人から」. Another flower (2f) gives none, nor does an open win.
@pytest.mark.parametrize(("flower", "how", "chips"), [
    ("1f", "ron", [0, 1, -1]),
    ("1f", "tsumo", [-1, 2, -1]),
    ("2f", "tsumo", [0, 0, 0]),
])
def test_kansai_chip_flower_closed_win_P119(flower: str, how: str, chips: list[int]) -> None:
    rules = preset("kansai")
    south = flower + "234p789p789s555z"  # the replacement 1s makes TANKI_1S
    draws = "3z" + "3p" + ("1s" if how == "ron" else "6z" + "7p" + "1s")
    g = _game(rules, _build(rules, east="1m", south=south, draws=draws, replacements="1s", seed=31))
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    if how == "ron":
        act(g, 2, "dahai", "1s", tsumogiri=True)
    else:
        tsumogiri(g, 2)
        tsumogiri(g, 0)
    act(g, 1, "hora")
    assert g.chips == chips


def test_kansai_chip_flower_open_win_pays_nothing_P119() -> None:
    rules = preset("kansai")
    # South pons haku from West (yakuhai fixed, P67 sakizuke) and waits on 1s.
    south = "1f" + "55z234p789p789s1s"
    g = _game(rules, _build(rules, east="1m", south=south, draws="3z" + "3p" + "5z" + "6z" + "1s",
                            replacements="7z", seed=31))
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    discard(g, 2, "5z", keep=[1])
    act(g, 1, "pon", "5z")
    pass_all(g)
    discard(g, 1, "7z")
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert "flower_dora" in _names(g)
    assert g.chips == [0, 0, 0]
