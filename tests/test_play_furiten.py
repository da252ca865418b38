"""``sanma play`` marks a tenpai discard "(furiten)" by the engine's one predicate (P75, P78):
``Game.furiten(seat, discard=tile)`` — the hand's waits after that discard against its river
with that tile, and a win let pass under riichi; not a copy of the rule in the CLI."""

from __future__ import annotations

import dataclasses
import io

from rich.console import Console

from sanma.cli import play as play_cli
from sanma.game import legal
from sanma.game.engine import Game
from sanma.game.seat import Discard, SeatState
from sanma.game.view import SeatView
from sanma.rules import Rules
from sanma.tiles import Tile, parse_tiles

TENHOU = Rules.preset("tenhou")
CLUB = Rules.preset("club")


def scene(rules: Rules, hand: str, river: str) -> tuple[Game, play_cli.TerminalTable, SeatView]:
    g = Game(rules, seed=3)
    view = g.view(0)  # the table's public part; the hand is the scene's
    st = SeatState()
    for t in parse_tiles(hand):
        st.add(t)
    st.discards = [Discard(t, False) for t in parse_tiles(river)]
    legal.update_waits(rules, st)
    g.seats[0] = st
    t = play_cli.TerminalTable(g, 0, {}, Console(file=io.StringIO()), lambda: "\n")
    return g, t, dataclasses.replace(view, hand=tuple(st.hand), drawn=None)


def test_a_discard_that_leaves_a_wait_in_the_river_is_marked_furiten_P75() -> None:
    # 234p 789p 789s haku + 1s 4s: discarding 4s waits on 1s (in the river), discarding 1s on 4s
    g, t, obs = scene(TENHOU, "234p789p789s555z1s4s", river="1s")
    text = t.tenpai_text(obs)
    assert g.furiten(0, discard=Tile.parse("4s")) and not g.furiten(0, discard=Tile.parse("1s"))
    assert t.furiten(Tile.parse("4s")) and not t.furiten(Tile.parse("1s"))
    parts = dict(p.split(" → ") for p in text.removeprefix("Tenpai discards: ").split("; "))
    assert parts["4s"].endswith("(furiten)") and not parts["1s"].endswith("(furiten)")


def test_a_win_let_pass_under_riichi_stays_furiten_a_same_turn_pass_does_not_P75() -> None:
    g, t, _ = scene(TENHOU, "234p789p789s555z1s4s", river="")
    assert not t.furiten(Tile.parse("4s"))
    g.seats[0].furiten_same_turn = True  # cleared by the seat's own discard
    assert not t.furiten(Tile.parse("4s"))
    g.seats[0].furiten_riichi = True  # for good
    assert t.furiten(Tile.parse("4s")) and t.furiten(Tile.parse("1s"))


def test_thirteen_sided_kokushi_uses_the_club_relaxed_rule_P78() -> None:
    """P78: the table's mark is the engine's rule, so a club's 13-sided kokushi that discarded a
    simple last is not furiten on a tile it never discarded — but a river tile still is."""
    g, _, _ = scene(CLUB, "19m19p19s1234567z5p", river="1m")
    assert g.furiten(0, discard=Tile.parse("5p"))  # 1m in its river: every wait is barred
    assert not g.furiten(0, Tile.parse("9s"), discard=Tile.parse("5p"))  # ron on 9s: allowed (P78)
    assert g.furiten(0, Tile.parse("1m"), discard=Tile.parse("5p"))
    g2, _, _ = scene(TENHOU, "19m19p19s1234567z5p", river="1m")
    assert g2.furiten(0, Tile.parse("9s"), discard=Tile.parse("5p"))  # standard: all barred
