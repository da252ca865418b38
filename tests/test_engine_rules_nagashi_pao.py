"""Nagashi (P96, Y32) and pao (P97-P99) in the engine, per preset, from built walls.

Every expected value is data from RULES_MATRIX (row ids in test names and tables), the seeds or
PLATFORMS.md, never read from ``Rules``. Seats 0, 1, 2 are East (the first dealer), South, West;
draws go E, S, W, E, ... Payments: §4.2 models; a non-dealer yakuman is 32,000 as a ron; a
non-dealer mangan 8,000, baiman 16,000.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine_helpers import PRESETS, act, discard, draw_out, events_of, last, pass_all, preset, tsumogiri, walls_in_order
from sanma.game.engine import Game
from sanma.game.wall import Wall, WallBuilder, tile_set
from sanma.rules.schema import Rules
from sanma.tiles import NORTH, YAOCHUU, Tile, parse_tiles

IND = "9m"  # dora indicator -> 1m, a tile in no hand of these tests
START = {"club": 15000, "online": 35000, "official": 40000, "kansai": 35000, "tenhou": 35000, "majsoul": 35000}
FLOWERS = "1f2f3f4f"  # KANSAI (P02): kept in the dead wall's replacement stack, out of every hand


def _game(name: str, *walls: Wall, **kw: Any) -> Game:
    return Game(preset(name), seed=3, walls=walls_in_order(list(walls)), **kw)


def _build(rules: Rules, *, replacements: str = "", **kw: Any) -> Wall:
    """A WallBuilder wall; KANSAI's four flowers sit in the replacement stack after ``replacements``
    (nobody pulls one unless a test takes that many replacements)."""
    wb = WallBuilder(rules, seed=kw.pop("seed", 5)).hands(east=kw.pop("east", None), south=kw.pop("south", None),
                                                          west=kw.pop("west", None))
    if "draws" in kw:
        wb.draws(kw.pop("draws"))
    reps = replacements + (FLOWERS if rules.flowers else "")
    if reps:
        wb.replacements(reps)
    wb.indicators(dora=kw.pop("dora", IND), **kw)
    return wb.build()


# ----------------------------------------------------------------------------------------------
# Nagashi (P96, Y32)
# ----------------------------------------------------------------------------------------------
TANKI_1S = "234p789p789s555z1s"  # the dealer: tenpai on 1s (haku), West keeps the other three 1s
NOTEN_S = "3p3p6p7p2s3s7s7s8p8p4s6s6z"
WEST = "111s2p4p6p8p2s4s6s8s2p4p"


def _nagashi_wall(rules: Rules, west: str = WEST, south_first: str = "") -> Wall:
    """Every live-wall tile placed: South draws only terminals/honours (never North), East's and
    West's first draws are simples. Everyone discards what it draws (``draw_out``), so South's
    river is all terminals and honours and nobody else's is."""
    d = WallBuilder(rules).build().remaining
    pool: Counter[Tile] = Counter(tile_set(rules))
    for spec in (TANKI_1S, NOTEN_S, west, IND, south_first):
        pool.subtract(parse_tiles(spec))
    tiles = sorted(t for t in pool.elements() if not t.is_flower)
    yao = [t for t in tiles if t.kind in YAOCHUU and t.kind != NORTH]
    rest = sorted((t for t in tiles if t not in yao), key=lambda t: (t.kind in YAOCHUU, t.kind))
    n_south = len(range(1, d, 3)) - (1 if south_first else 0)
    south = [*parse_tiles(south_first), *yao[:n_south]]
    rest += yao[n_south:]
    order = [south.pop(0) if i % 3 == 1 else rest.pop(0) for i in range(d)]
    return _build(rules, east=TANKI_1S, south=NOTEN_S, west=west, draws="".join(str(t) for t in order), seed=1)


def _river(g: Game, seat: int) -> list[str]:
    """``seat``'s discards in the first hand (mjai names)."""
    end = next(i for i, e in enumerate(g.events) if e["type"] == "end_kyoku")
    return [e["pai"] for e in g.events[:end] if e["type"] == "dahai" and e["actor"] == seat]


# P96 / Y32, South (non-dealer) with a nagashi river, the dealer tenpai, West noten; 1 honba and one
# riichi stick on the table for the presets where nagashi is a win:
#  CLUB baiman win (A000-3: model A tsumo, 8,000 / 4,000, with honba 500 each and the stick, no
#   noten payments, the deal passes);
#  ONLINE mangan draw (A001-15: model C, 4,000 from each, and the noten payments too: the pool of
#   3,000, 1,500 from each noten player; the tenpai dealer keeps the deal);
#  OFFICIAL yakuman win (A002-18: model A, 16,000 / 8,000, honba 1,000 each);
#  KANSAI yakuman win (A003-12: model D = halves, 16,000 each, honba 500 each);
#  Tenhou / MJ Soul mangan in place of the noten payments, the tenpai dealer keeps the deal
#  (PLATFORMS.md; the 3p amount is "presumably a mangan tsumo with tsumo-son": 4,000 / 2,000).
NAGASHI_WIN = {"club": True, "online": False, "official": True, "kansai": True, "tenhou": False, "majsoul": False}
NAGASHI_DELTAS = {
    "club": [-(8000 + 500), 12000 + 1000 + 1000, -(4000 + 500)],
    "online": [-4000 + 3000, 8000 - 1500, -4000 - 1500],
    "official": [-(16000 + 1000), 24000 + 2000 + 1000, -(8000 + 1000)],
    "kansai": [-(16000 + 500), 32000 + 1000 + 1000, -(16000 + 500)],
    "tenhou": [-4000, 6000, -2000],
    "majsoul": [-4000, 6000, -2000],
}


@pytest.mark.parametrize("name", PRESETS)
def test_nagashi_value_and_kind_per_preset_P96_Y32(name: str) -> None:
    win = NAGASHI_WIN[name]
    g = _game(name, _nagashi_wall(preset(name)), honba=1 if win else 0, kyotaku=1 if win else 0)
    draw_out(g)
    river = _river(g, 1)
    assert river and all(Tile.from_mjai(p).kind in YAOCHUU for p in river)
    res = g.hand_results[-1]
    assert list(res.deltas) == NAGASHI_DELTAS[name]
    if win:
        assert (res.kind, res.winners) == ("hora", (1,))
        assert (g.dealer, g.honba, g.kyotaku) == (1, 0, 0)  # a non-dealer won: the deal passes
    else:
        r = last(g, "ryukyoku")
        assert res.kind == "ryukyoku" and r["tenpai"] == [0]
        assert (g.dealer, g.honba) == (0, 1)  # the dealer was tenpai: renchan (P37)


def test_kansai_nagashi_pays_the_real_yakuman_chips_P116_A003_12() -> None:
    g = _game("kansai", _nagashi_wall(preset("kansai")))
    draw_out(g)
    assert g.hand_results[-1].winners == (1,)
    assert g.chips == [-5, 10, -5]


@pytest.mark.parametrize("name", PRESETS)
def test_a_called_discard_breaks_nagashi_P96_Y32(name: str) -> None:
    """Y32 (ONLINE text, PLATFORMS MJ Soul): all discards terminals/honours **and none called**.
    West pons South's first discard (7z); afterwards South still discards only what it draws."""
    # West holds the pair: two of its simples swapped for 7z 7z.
    w = _nagashi_wall(preset(name), west=WEST.replace("2p4p6p8p", "7z7z6p8p", 1), south_first="7z")
    g = _game(name, w)
    tsumogiri(g, 0)
    act(g, 1, "dahai", "7z", tsumogiri=True)
    act(g, 2, "pon", "7z")
    pass_all(g)
    act(g, 2, "dahai", "2s")
    pass_all(g)
    draw_out(g)
    assert [e["type"] for e in g.events if e["type"] in ("pon", "daiminkan")] == ["pon"]
    assert _river(g, 1)[0] == "C"
    assert not [e for e in g.events if e["type"] == "ryukyoku" and e.get("reason") == "nagashi"]
    res = g.hand_results[-1]
    assert (res.kind, res.reason) == ("ryukyoku", "exhaustive")
    assert sum(res.deltas[s] for s in (1, 2)) <= 0  # only noten payments: nobody is paid a nagashi


# ----------------------------------------------------------------------------------------------
# Pao (P97, P98, P99; A000-22)
# ----------------------------------------------------------------------------------------------
# South pons haku (from West), hatsu (from West) and chun (from East: East is liable, P97), then
# waits on 1s with 123p: daisangen, one yakuman (32,000 as a ron) in every preset.
PAO_S = "55z66z77z123p99p1s2s"
PAO_E = "2p4p6p8p2s4s6s8s1m9m9s3z2z"
PAO_W = "2p4p6p8p2s4s6s8s1m9m9s3z2z"


def _pao_game(name: str, winner_draw: str) -> Game:
    """Play to South's third pon; ``winner_draw`` says who gets the 1s next: "W" (West draws and
    discards it), "E" (East) or "S" (South draws it)."""
    x = {"W": ("1s", "3p", "7p"), "E": ("7s", "1s", "7p"), "S": ("7s", "3p", "1s")}[winner_draw]
    # E: 3p, S: 3s, W: 5z, W: 6z, W: 7p, E: 7z, W: x0, E: x1, S: x2
    draws = "3p" + "3s" + "5z" + "6z" + "7p" + "7z" + "".join(x)
    g = _game(name, _build(preset(name), east=PAO_E, south=PAO_S, west=PAO_W, draws=draws, seed=7))
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    discard(g, 2, "5z", keep=[1])
    act(g, 1, "pon", "5z")
    pass_all(g)
    discard(g, 1, "2s")
    discard(g, 2, "6z", keep=[1])
    act(g, 1, "pon", "6z")
    pass_all(g)
    discard(g, 1, "9p")
    tsumogiri(g, 2)
    discard(g, 0, "7z", keep=[1])
    act(g, 1, "pon", "7z")
    pass_all(g)
    discard(g, 1, "9p")
    return g


# P97: OFFICIAL 「役満の包（パオ）はなし」; everyone else has daisangen pao (CLUB L65, ONLINE 「包
# 大四喜／大三元」, KANSAI L35, Tenhou / MJ Soul PLATFORMS.md).
# P98: tsumo — the liable player pays all (A000-22: the ron value, 32,000); OFFICIAL: a plain
# yakuman tsumo (model A: 16,000 / 8,000).
PAO_TSUMO = {"club": [-32000, 32000, 0], "online": [-32000, 32000, 0], "official": [-16000, 24000, -8000],
             "kansai": [-32000, 32000, 0], "tenhou": [-32000, 32000, 0], "majsoul": [-32000, 32000, 0]}
# P98: ron by another player — the liable player and the discarder pay half each (CLUB 「ロン半額」,
# ONLINE 「放銃者と包該当者の折半払い」, KANSAI 「鳴かせてない人の振り込みの場合は…半分ずつ」).
PAO_RON_OTHER = {"club": [-16000, 32000, -16000], "online": [-16000, 32000, -16000],
                 "official": [0, 32000, -32000], "kansai": [-16000, 32000, -16000],
                 "tenhou": [-16000, 32000, -16000], "majsoul": [-16000, 32000, -16000]}


@pytest.mark.parametrize("name", PRESETS)
def test_pao_daisangen_tsumo_liable_player_pays_all_P97_P98_A000_22(name: str) -> None:
    g = _pao_game(name, "S")
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "hora")
    h = last(g, "hora")
    assert [y["name"] for y in h["yaku"]] == ["daisangen"]
    assert h["deltas"] == PAO_TSUMO[name]
    assert h.get("pao") == (None if name == "official" else 0)


@pytest.mark.parametrize("name", PRESETS)
def test_pao_daisangen_ron_by_another_player_split_half_P98(name: str) -> None:
    g = _pao_game(name, "W")
    act(g, 2, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert last(g, "hora")["deltas"] == PAO_RON_OTHER[name]


@pytest.mark.parametrize("name", PRESETS)
def test_pao_daisangen_ron_from_the_liable_player_pays_all_P98(name: str) -> None:
    """KANSAI 「3(4)枚目を鳴かせた人の振り込みの場合も、点棒、祝儀両方」; elsewhere the discarder pays a
    ron in full anyway."""
    g = _pao_game(name, "E")
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert last(g, "hora")["deltas"] == [-32000, 32000, 0]


# KANSAI P98: 「ツモの場合は、3(4)枚目を鳴かせた人が点棒、祝儀両方」 — the liable player also pays the
# yakuman chips (P116: 5 from each of two = 10), and pays them alone when it deals in.
@pytest.mark.parametrize("who", ["S", "E"])
def test_kansai_pao_player_pays_the_yakuman_chips_P98_P116(who: str) -> None:
    g = _pao_game("kansai", who)
    tsumogiri(g, 2)
    if who == "S":
        tsumogiri(g, 0)
    else:
        act(g, 0, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert g.chips == [-10, 10, 0]


def test_kansai_pao_ron_by_another_player_chips_half_each_P98() -> None:
    """KANSAI 「鳴かせてない人の振り込みの場合は、点棒、祝儀半分ずつ」: 10 chips, 5 each."""
    g = _pao_game("kansai", "W")
    act(g, 2, "dahai", "1s", tsumogiri=True)
    act(g, 1, "hora")
    assert g.chips == [-5, 10, -5]


# P99 compound yakuman: South also holds 111z + 2z tanki: daisangen + tsuuiisou = 2 yakuman.
# CLUB 「複合役満の場合には、複合役満全額の責任払い」 and Tenhou (PLATFORMS: "applies pao to the whole
# amount"): the liable player pays the double yakuman's ron value, 64,000. ONLINE (P99 default) and
# MJ Soul ("only the pao-triggering yakuman"): the liable player pays 32,000 for daisangen; the
# tsuuiisou part is a plain tsumo — ONLINE model C 16,000 each, MJ Soul model A 16,000 / 8,000.
PAO_COMPOUND = {"club": [-64000, 64000, 0], "tenhou": [-64000, 64000, 0],
                "online": [-32000 - 16000, 64000, -16000], "majsoul": [-32000 - 16000, 56000, -8000]}


@pytest.mark.parametrize("name", sorted(PAO_COMPOUND))
def test_pao_with_a_compound_yakuman_P99(name: str) -> None:
    south = "55z66z77z111z2z333z"
    draws = "3p" + "3s" + "5z" + "6z" + "7p" + "7z" + "7s" + "3p" + "2z"
    g = _game(name, _build(preset(name), east=PAO_E.replace("3z2z", "3p9p"), south=south,
                           west=PAO_W.replace("3z2z", "3p9p"), draws=draws, seed=7))
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    discard(g, 2, "5z", keep=[1])
    act(g, 1, "pon", "5z")
    pass_all(g)
    discard(g, 1, "3z")
    discard(g, 2, "6z", keep=[1])
    act(g, 1, "pon", "6z")
    pass_all(g)
    discard(g, 1, "3z")
    tsumogiri(g, 2)
    discard(g, 0, "7z", keep=[1])
    act(g, 1, "pon", "7z")
    pass_all(g)
    discard(g, 1, "3z")
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "hora")
    h = last(g, "hora")
    assert sorted(y["name"] for y in h["yaku"]) == ["daisangen", "tsuuiisou"]
    assert h["deltas"] == PAO_COMPOUND[name]


def test_club_suukantsu_pao_on_the_fourth_kan_P97() -> None:
    """South: ankan 1p, ankan 9p, daiminkan 1s (from West), daiminkan 9s (from East: liable), and
    tsumo on the last replacement 2z (tanki): suukantsu, one yakuman; East pays the ron value."""
    rules = preset("club")
    hand = "2p4p6p8p2s4s6s8s1m9m3z7z6z"
    w = _build(rules, east=hand, south="1111p9999p111s2z3z", west=hand, draws="3p" + "9s" + "1s" + "7p" + "9s",
               replacements="9s" + "9s" + "3p" + "2z", seed=7)
    g = _game("club", w)
    tsumogiri(g, 0)
    act(g, 1, "ankan")
    pass_all(g)
    act(g, 1, "ankan")
    pass_all(g)
    discard(g, 1, "3z")
    discard(g, 2, "1s", keep=[1])
    act(g, 1, "daiminkan", "1s")
    pass_all(g)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    discard(g, 0, "9s", keep=[1])
    act(g, 1, "daiminkan", "9s")
    pass_all(g)
    act(g, 1, "hora")
    h = last(g, "hora")
    assert "suukantsu" in [y["name"] for y in h["yaku"]]
    assert h["deltas"] == [-32000, 32000, 0]


# A003-15 / P97 KANSAI 「大明カン…は責任払いあり」: South daiminkans West's chun and wins on the
# replacement tile (rinshan + chun, 40 fu 2 han: 20 + 16 open honour kan + 2 tanki + 2 tsumo; the
# new kan dora is not yet turned, P12): West, who fed the kan, pays it all — the full amount 2,600
# (model D). CLUB removed this pao on 2023-08-18 (seed 000 L300, A000-23): a plain tsumo, model A
# 40 fu 2 han = 1,300 / 700.
RINSHAN_PAO = {"kansai": [0, 2600, -2600], "club": [-1300, 2000, -700]}


@pytest.mark.parametrize("name", sorted(RINSHAN_PAO))
def test_daiminkan_rinshan_liability_kansai_only_P97_A003_15(name: str) -> None:
    rules = preset(name)
    hand = "2p4p6p8p2s4s6s8s1m9m3z7z6z"
    w = _build(rules, east=hand.replace("7z", "9p"), south="777z234p789p789s1s", west=hand,
               draws="3p" + "3s" + "7p", replacements="1s", seed=7)
    g = _game(name, w)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    discard(g, 2, "7z", keep=[1])
    act(g, 1, "daiminkan", "7z")
    pass_all(g)
    act(g, 1, "hora")
    h = last(g, "hora")
    assert sorted(y["name"] for y in h["yaku"]) == ["rinshan", "yakuhai_chun"]
    assert h["deltas"] == RINSHAN_PAO[name]
    assert events_of(g, "dora") == []
