"""Walls: tile set, determinism, the dead-wall models of P14, doubles (P07), kan dora (P11, P13), the builder."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanma.errors import HandError, IllegalActionError, RulesError, TileError
from sanma.game import Wall, WallBuilder, seeded_walls
from sanma.game.wall import HAIPAI_POSITIONS
from sanma.rules.schema import Rules
from sanma.tiles import Tile, parse_tiles, sanma_wall, to_mpsz

# The presets' wall fields (P02, P05, P07, P14, A001-11, A002-1) are what these tests prove.
CLUB = Rules.preset("club")  # P14 fixed 14 (4 rinshan: no kita), P07 doubles -> 2 indicators, P05 no reds
ONLINE = Rules.preset("online")  # P14 fixed 18, not refilled (A001-11)
OFFICIAL = Rules.preset("official")  # P14 to_indicator, 4 rinshan (A002-1), P05 2+2 reds
KANSAI = Rules.preset("kansai")  # P02 4 flowers, P05 all fives red
TENHOU = Rules.preset("tenhou")  # P14 fixed 14 with 8 rinshan (PLATFORMS §1)
ALL = {"club": CLUB, "online": ONLINE, "official": OFFICIAL, "kansai": KANSAI, "tenhou": TENHOU}

SRC = Path(__file__).resolve().parents[1] / "src"


def tile_set(rules: Rules) -> Counter[Tile]:
    return Counter(sanma_wall({13: rules.red_5p, 22: rules.red_5s}, rules.flowers))


class IndexWall:
    """A wall that reports where each tile lies (its index in deal order) instead of the tile, so
    every draw says where it came from. Built on the wall's own position API."""

    def __init__(self, wall: Wall) -> None:
        self.wall = wall

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wall, name)  # remaining, is_haitei, dice, can_reveal_kan_dora, ...

    @property
    def tiles(self) -> tuple[int, ...]:
        return tuple(range(len(self.wall.tiles)))

    @property
    def haipai(self) -> tuple[tuple[int, ...], ...]:
        return HAIPAI_POSITIONS

    @property
    def live_tiles(self) -> tuple[int, ...]:
        return tuple(range(self.wall._next, self.wall._end))

    @property
    def rinshan_tiles(self) -> tuple[int, ...]:
        return self.wall._rinshan[self.wall._rinshan_taken:]

    @property
    def dora_indicators(self) -> tuple[int, ...]:
        return self.wall.indicator_positions

    @property
    def ura_indicators(self) -> tuple[int, ...]:
        return self.wall.ura_positions

    def draw(self) -> int:
        return self.wall.draw_position()

    def draw_replacement(self) -> int:
        return self.wall.replacement_position()

    def reveal_kan_dora(self) -> int:
        return self.wall.reveal_position()

    def copy(self) -> IndexWall:
        return IndexWall(self.wall.copy())


def index_wall(rules: Rules, dice: tuple[int, int] = (1, 2)) -> IndexWall:
    """A wall of ``rules`` reporting positions (see IndexWall)."""
    return IndexWall(Wall.from_tiles(rules, sanma_wall({13: rules.red_5p, 22: rules.red_5s}, rules.flowers), dice))


# --- tile set and determinism -----------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_wall_holds_the_sanma_tile_set_once_P01_P02_P05(name: str) -> None:
    """P01 (108 tiles, 2m-8m removed), P02 (kansai adds 4 flowers), P05 (red fives per rule set)."""
    rules = ALL[name]
    for seed in range(5):
        wall = Wall.shuffled(rules, seed)
        assert Counter(wall.tiles) == tile_set(rules)
        assert len(wall.tiles) == 108 + rules.flowers
        assert sum(t.red for t in wall.tiles) == rules.red_5p + rules.red_5s
        assert all(1 <= d <= 6 for d in wall.dice)


@pytest.mark.parametrize("name", ALL)
def test_every_wall_position_is_dealt_drawn_or_shown_at_most_once_P14(name: str) -> None:
    """Play a hand to exhaustion with 4 replacements and 4 kan dora: no position is used twice."""
    rules = ALL[name]
    wall = index_wall(rules)
    seen: list[int] = [i for hand in wall.haipai for i in hand]
    seen += list(wall.dora_indicators)
    for _ in range(4):
        seen.append(wall.draw())
        seen.append(wall.draw_replacement())
        seen.append(wall.reveal_kan_dora())
    while not wall.is_haitei:
        seen.append(wall.draw())
    seen += [u for u in wall.ura_indicators]
    assert len(seen) == len(set(seen))
    assert set(seen) <= set(range(len(wall.tiles)))


def test_same_seed_same_wall_and_dice_different_seed_different_wall() -> None:
    a, b = Wall.shuffled(TENHOU, 12345), Wall.shuffled(TENHOU, 12345)
    assert (a.tiles, a.dice) == (b.tiles, b.dice)
    assert Wall.shuffled(TENHOU, "12345").tiles != a.tiles
    assert Wall.shuffled(TENHOU, 12346).tiles != a.tiles


def test_seeded_walls_give_a_reproducible_series_of_different_walls() -> None:
    first = [w.tiles for _, w in zip(range(4), seeded_walls(CLUB, "game 7"), strict=False)]
    again = [w.tiles for _, w in zip(range(4), seeded_walls(CLUB, "game 7"), strict=False)]
    assert first == again
    assert len(set(first)) == 4


def test_wall_seed_is_reproducible_across_processes_and_hash_seeds() -> None:
    """A bug report is a seed: string seeds must not depend on PYTHONHASHSEED."""
    code = ("from sanma.game import Wall; from sanma.rules.schema import Rules; from sanma.tiles import to_mpsz;"
            "w = Wall.shuffled(Rules(), 'bug report 17'); print(w.dice, [str(t) for t in w.tiles])")
    outs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(SRC)}
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1
    w = Wall.shuffled(Rules(), "bug report 17")
    assert outs.pop().strip() == f"{w.dice} {[str(t) for t in w.tiles]}"


@pytest.mark.parametrize("seed", [1.5, b"x", None, True])
def test_wall_seed_must_be_int_or_str(seed: object) -> None:
    with pytest.raises(HandError, match="seed"):
        Wall.shuffled(TENHOU, seed)


# --- deal --------------------------------------------------------------------------------------


def test_deal_is_4_4_4_three_times_then_one_each_dealer_first_and_14th_tile_is_first_draw() -> None:
    wall = index_wall(TENHOU)
    assert wall.haipai[0] == (0, 1, 2, 3, 12, 13, 14, 15, 24, 25, 26, 27, 36)
    assert wall.haipai[1] == (4, 5, 6, 7, 16, 17, 18, 19, 28, 29, 30, 31, 37)
    assert wall.haipai[2] == (8, 9, 10, 11, 20, 21, 22, 23, 32, 33, 34, 35, 38)
    assert wall.draw() == 39


# --- dead wall models (P14) -------------------------------------------------------------------


@pytest.mark.parametrize(("name", "live"), [("club", 108 - 14 - 39), ("online", 108 - 18 - 39),
                                             ("tenhou", 108 - 14 - 39), ("official", 108 - 6 - 39),
                                             ("kansai", 112 - 14 - 39)])
def test_live_wall_size_per_dead_wall_model_P14(name: str, live: int) -> None:
    """P14: club fixed 14, online fixed 18, Tenhou and kansai fixed 14; official (A002-1) draws up to
    the indicator: dead wall = 4 rinshan + the indicator stack."""
    wall = Wall.shuffled(ALL[name], 3)
    assert wall.remaining == live == len(wall.live_tiles)


def test_tenhou_dead_wall_layout_P14() -> None:
    """P14 Tenhou: 8 rinshan taken from the break end top-first; indicator just before them."""
    wall = index_wall(TENHOU)
    assert wall.rinshan_tiles == (106, 107, 104, 105, 102, 103, 100, 101)
    assert wall.dora_indicators == (98,) and wall.ura_indicators == (99,)
    assert wall.live_tiles[-1] == 93


def test_fixed_dead_wall_replacement_shortens_live_wall_P14() -> None:
    """P14 club/Tenhou: the dead wall keeps 14 tiles, refilled from the live wall (haitei moves)."""
    for rules in (CLUB, TENHOU):
        wall = Wall.shuffled(rules, 11)
        live = wall.live_tiles
        wall.draw_replacement()
        assert wall.live_tiles == live[:-1]


def test_fixed_dead_wall_haitei_moves_one_tile_per_replacement_P14() -> None:
    wall = index_wall(TENHOU)
    wall.draw_replacement()
    wall.draw_replacement()
    assert wall.live_tiles[-1] == 91
    drawn = [wall.draw() for _ in range(wall.remaining)]
    assert drawn[-1] == 91 and wall.is_haitei


def test_online_dead_wall_is_not_refilled_so_haitei_stays_A001_11() -> None:
    """A001-11: 18-tile dead wall with replacements taken from it, haitei unchanged."""
    wall = index_wall(ONLINE)
    assert wall.remaining == 51
    for _ in range(8):
        wall.draw_replacement()
    assert wall.remaining == 51 and wall.live_tiles[-1] == 89
    # rinshan tiles used up: the next replacement is the live wall's last tile (A002-1 fallback)
    assert wall.draw_replacement() == 89
    assert wall.remaining == 50


def test_online_kan_dora_stay_inside_the_18_tile_dead_wall_P14() -> None:
    wall = index_wall(ONLINE)
    shown = [wall.reveal_kan_dora() for _ in range(4)]
    assert shown == [96, 94, 92, 90]
    assert wall.remaining == 51


def test_official_indicator_is_after_4_rinshan_and_live_wall_runs_up_to_it_A002_1() -> None:
    """A002-1 / P14 official: dead wall = [4 rinshan][indicator + ura]; live wall ends just before it."""
    wall = index_wall(OFFICIAL)
    assert wall.rinshan_tiles == (106, 107, 104, 105)
    assert wall.dora_indicators == (102,) and wall.ura_indicators == (103,)
    assert wall.live_tiles[-1] == 101


def test_official_kan_dora_come_from_live_wall_tail_A002_1() -> None:
    wall = index_wall(OFFICIAL)
    remaining = wall.remaining
    assert wall.reveal_kan_dora() == 100
    assert wall.ura_indicators == (103, 101)
    assert wall.remaining == remaining - 2 and wall.live_tiles[-1] == 99


def test_official_rinshan_draws_do_not_shorten_the_live_wall_until_they_run_out_A002_1() -> None:
    wall = index_wall(OFFICIAL)
    remaining = wall.remaining
    assert [wall.draw_replacement() for _ in range(4)] == [106, 107, 104, 105]
    assert wall.remaining == remaining and wall.rinshan_left == 0
    assert wall.draw_replacement() == 101  # from the live wall's tail
    assert wall.remaining == remaining - 1
    assert wall.reveal_kan_dora() == 99  # the next kan dora is the new tail stack
    assert wall.remaining == remaining - 3


def test_kan_dora_needs_a_tile_to_reveal_P13() -> None:
    """P13 (official): a kan dora cannot be revealed once the live wall is too short."""
    wall = Wall.shuffled(OFFICIAL, 5)
    while wall.remaining > 1:
        wall.draw()
    assert not wall.can_reveal_kan_dora
    with pytest.raises(IllegalActionError, match="P13"):
        wall.reveal_kan_dora()


def test_no_fifth_kan_dora_P11() -> None:
    wall = Wall.shuffled(TENHOU, 5)
    for _ in range(4):
        wall.draw_replacement()
        assert wall.can_reveal_kan_dora
        wall.reveal_kan_dora()
    assert not wall.can_reveal_kan_dora
    with pytest.raises(IllegalActionError, match="fifth kan dora"):
        wall.reveal_kan_dora()
    assert len(wall.dora_indicators) == 5 == len(wall.ura_indicators)


def test_kan_dora_off_forbids_reveal_P11() -> None:
    wall = Wall.shuffled(Rules(kan_dora=False), 1)
    assert not wall.can_reveal_kan_dora
    with pytest.raises(IllegalActionError, match="P11"):
        wall.reveal_kan_dora()


def test_ura_indicators_follow_ura_dora_and_kan_ura_P10_P11() -> None:
    tiles = Wall.shuffled(TENHOU, 9).tiles
    no_kan_ura = Wall.from_tiles(Rules(kan_ura=False), tiles, (1, 2))
    no_kan_ura.reveal_kan_dora()
    assert len(no_kan_ura.dora_indicators) == 2 and len(no_kan_ura.ura_indicators) == 1
    no_ura = Wall.from_tiles(Rules(ura_dora=False), tiles, (1, 2))
    assert no_ura.ura_indicators == ()


# --- doubles (P07) -----------------------------------------------------------------------------


def test_doubles_turn_two_dora_indicators_under_club_rules_P07() -> None:
    """P07 club: 「サイの目がゾロ目で、ドラのめくり牌を2枚とする」; A000-4: one ura under each."""
    doubles = index_wall(CLUB, (3, 3))
    assert doubles.dora_indicators == (102, 100) and doubles.ura_indicators == (103, 101)
    assert doubles.reveal_kan_dora() == 98  # kan dora continue after both
    assert index_wall(CLUB, (3, 4)).dora_indicators == (102,)
    assert index_wall(TENHOU, (3, 3)).dora_indicators == (98,)  # Tenhou: 1 indicator always


def test_doubles_from_a_seed_give_two_indicators_P07() -> None:
    seed = next(s for s in range(100) if Wall.shuffled(CLUB, s).dice[0] == Wall.shuffled(CLUB, s).dice[1])
    wall = Wall.shuffled(CLUB, seed)
    assert len(wall.dora_indicators) == 2
    assert wall.remaining == 108 - 14 - 39  # P14: 14 regardless of the number of indicators


# --- cursor ------------------------------------------------------------------------------------


def test_drawing_past_the_last_tile_is_illegal_and_last_tile_is_haitei() -> None:
    wall = Wall.shuffled(TENHOU, 2)
    for _ in range(54):
        wall.draw()
    assert not wall.is_haitei
    wall.draw()
    assert wall.is_haitei and wall.remaining == 0
    with pytest.raises(IllegalActionError, match="empty live wall"):
        wall.draw()


def test_copy_is_an_independent_cursor() -> None:
    wall = Wall.shuffled(TENHOU, 4)
    snap = wall.copy()
    a = [wall.draw() for _ in range(3)] + [wall.draw_replacement(), wall.reveal_kan_dora()]
    assert snap.remaining == 55 and len(snap.dora_indicators) == 1
    b = [snap.draw() for _ in range(3)] + [snap.draw_replacement(), snap.reveal_kan_dora()]
    assert a == b and snap.remaining == wall.remaining


# --- validation --------------------------------------------------------------------------------


def test_from_tiles_rejects_a_tile_set_that_is_not_the_rules_one_P05() -> None:
    tenhou_tiles = Wall.shuffled(TENHOU, 1).tiles
    with pytest.raises(HandError, match=r"extra 0p 0s; missing 5p 5s"):
        Wall.from_tiles(CLUB, tenhou_tiles, (1, 2))
    with pytest.raises(HandError, match="108 tiles, got 107"):
        Wall.from_tiles(TENHOU, tenhou_tiles[:-1], (1, 2))
    with pytest.raises(HandError, match="dice"):
        Wall.from_tiles(TENHOU, tenhou_tiles, (0, 7))


def test_dead_wall_too_small_for_its_rinshan_is_a_rules_error_P14() -> None:
    with pytest.raises(RulesError, match="dead_wall_size = 8"):
        Wall.shuffled(Rules(dead_wall_size=8, rinshan_tiles=8), 1)


# --- builder -----------------------------------------------------------------------------------


def test_builder_places_hands_draws_replacements_and_indicators() -> None:
    wall = (WallBuilder(TENHOU, seed=3)
            .hands(east="111p222p333p44p", south="19m19p19s1234567z", west="0s")
            .draws("4p5p6p")
            .replacements("4z9s")
            .indicators(dora="1s", ura="2s", kan="3s8s", kan_ura="4s")
            .build())
    assert to_mpsz(wall.haipai[0][:11]) == "11122233344p" and len(wall.haipai[0]) == 13
    assert to_mpsz(wall.haipai[1]) == "19m19p19s1234567z"
    assert wall.haipai[2][0] == Tile.parse("0s")
    assert [str(wall.draw()) for _ in range(3)] == ["4p", "5p", "6p"]
    assert [str(wall.draw_replacement()) for _ in range(2)] == ["4z", "9s"]
    assert [str(wall.reveal_kan_dora()) for _ in range(2)] == ["3s", "8s"]
    assert to_mpsz(wall.dora_indicators) == "138s"
    assert [str(t) for t in wall.ura_indicators[:2]] == ["2s", "4s"]
    assert Counter(wall.tiles) == tile_set(TENHOU)


@pytest.mark.parametrize("name", ALL)
def test_builder_layout_matches_the_wall_for_every_dead_wall_model_P14(name: str) -> None:
    rules = ALL[name]
    wall = (WallBuilder(rules).replacements("1z2z3z4z").indicators(dora="5z", ura="6z", kan="7z", kan_ura="9m")
            .build())
    assert wall.dora_indicators == parse_tiles("5z") and wall.ura_indicators[:1] == parse_tiles("6z")
    assert [wall.draw_replacement() for _ in range(4)] == list(parse_tiles("1z2z3z4z"))
    if rules.dead_wall == "fixed":  # under to_indicator the kan stack follows the live tail instead
        assert wall.reveal_kan_dora() == Tile.parse("7z") and wall.ura_indicators[1] == Tile.parse("9m")


def test_builder_two_indicators_need_doubles_P07() -> None:
    with pytest.raises(HandError, match="2 dora tile"):
        WallBuilder(CLUB).indicators(dora="1p2p").build()
    wall = WallBuilder(CLUB).dice(5, 5).indicators(dora="1p2p", ura="3p4p").build()
    assert to_mpsz(wall.dora_indicators) == "12p" and [str(u) for u in wall.ura_indicators] == ["3p", "4p"]


def test_builder_rejects_fifth_copy_and_extra_red_five() -> None:
    with pytest.raises(HandError, match="5 copies of 1p"):
        WallBuilder(TENHOU).hands(east="111p", south="11p").build()
    with pytest.raises(HandError, match="2 copies of 0p"):
        WallBuilder(TENHOU).hands(east="0p").draws("0p").build()
    with pytest.raises(HandError, match="4 copies of 5p"):  # red_5p = 1 leaves three plain 5p
        WallBuilder(TENHOU).hands(east="5555p").build()
    with pytest.raises(TileError):
        WallBuilder(TENHOU).hands(east="2m")


def test_builder_rejects_impossible_requests() -> None:
    with pytest.raises(HandError, match="14 tiles, at most 13"):
        WallBuilder(TENHOU).hands(east="11112222333344p")
    with pytest.raises(HandError, match="9 replacements tile"):
        WallBuilder(TENHOU).replacements("1z" * 4 + "2z" * 4 + "3z").build()
    with pytest.raises(HandError, match="56 draws tile"):  # 55 live tiles under Tenhou
        WallBuilder(TENHOU).draws(sanma_wall({13: 1, 22: 1})[:56]).build()


def test_builder_same_position_twice_is_an_error_P14() -> None:
    """Tenhou's 3rd kan dora lies in the initial live wall (it is freed by the replacements first)."""
    draws = "".join(["1p" * 4, "2p" * 4, "3p" * 4, "4p" * 4, "6p" * 4, "7p" * 4, "8p" * 4, "9p" * 4,
                     "1s" * 4, "2s" * 4, "3s" * 4, "4s" * 4, "6s" * 4, "7s" * 2])
    assert len(parse_tiles(draws)) == 54
    with pytest.raises(HandError, match="kan dora and draws both ask for wall position 92"):
        WallBuilder(TENHOU).draws(draws).indicators(kan="1z1z1z").build()


def test_builder_fill_is_seeded() -> None:
    a = WallBuilder(ONLINE, seed=8).hands(east="123p").build()
    b = WallBuilder(ONLINE, seed=8).hands(east="123p").build()
    c = WallBuilder(ONLINE, seed=9).hands(east="123p").build()
    assert a.tiles == b.tiles != c.tiles


# --- any order of actions ----------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(ALL)), doubles=st.booleans(),
       actions=st.lists(st.sampled_from(["draw", "draw", "draw", "replacement", "kan dora"]), max_size=80))
def test_any_sequence_of_draws_replacements_and_kan_dora_uses_each_position_once_P14(
        name: str, doubles: bool, actions: list[str]) -> None:
    """Whatever the order of draws, replacements and kan dora, no wall position is used twice, the
    live wall never runs into the dead wall, and an action the wall cannot serve raises."""
    rules = ALL[name]
    wall = index_wall(rules, (4, 4) if doubles else (4, 5))
    used = [i for hand in wall.haipai for i in hand] + list(wall.dora_indicators)
    for action in actions:
        before = wall.remaining
        try:
            if action == "draw":
                used.append(wall.draw())
                assert wall.remaining == before - 1
            elif action == "replacement":
                used.append(wall.draw_replacement())
                assert before - 1 <= wall.remaining <= before
            else:
                used.append(wall.reveal_kan_dora())
        except IllegalActionError:
            continue
        assert wall.remaining >= 0
    used += list(wall.ura_indicators)
    used += list(wall.live_tiles) + list(wall.rinshan_tiles)
    assert len(used) == len(set(used))
