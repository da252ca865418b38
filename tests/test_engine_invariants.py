"""Invariants of the game engine, checked after every step of random and bot-played games.

Issue 3, "How it must be shown": "108 tiles (plus flowers) always accounted for, points plus
sticks conserved within a hand, no observation ever holds another seat's concealed tile or the
wall", every legal action applies, every game ends, the same seed gives the same game.

Games run under all six presets, seeded by hypothesis, with a seeded bot (wins when it can,
discards towards tenpai, calls / kans / kita / riichi at random) or uniformly random legal play.
The wall of every hand is a ``RecordingWall``: it records which wall positions it handed out,
so the engine's tiles are checked against the wall's, not against the engine's own events.

Constants come from the matrix: P01 (108 tiles), P02 (4 flowers in KANSAI only), P48 (riichi
stick 1,000 in every seed), P23 (start points per seed / platform).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from engine_helpers import PRESETS, RecordingWall, bot_action, preset, recording_walls
from sanma.errors import IllegalActionError
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.game.wall import Wall
from sanma.tiles import NORTH, SANMA_KINDS, Tile

# P01: 108 tiles in every seed; P02: KANSAI adds 4 flowers.
TILES_IN_WALL = {"club": 108, "online": 108, "official": 108, "kansai": 112, "tenhou": 108, "majsoul": 108}
# P23 start points (seeds) and PLATFORMS.md (Tenhou, Mahjong Soul: 35000).
START = {"club": 15000, "online": 35000, "official": 40000, "kansai": 35000, "tenhou": 35000, "majsoul": 35000}
STICK = 1000  # P48: the riichi stick is 1,000 in every seed and on both platforms
MAX_HANDS = 200  # the engine's safety net; a bot game must end by a rule long before it

# Event types (mjai + sanma extensions) that never carry a concealed tile of anyone: a masked
# stream must show them unchanged. start_kyoku and tsumo are the two that carry hidden tiles.
PUBLIC_TYPES = frozenset({
    "start_game", "dahai", "reach", "reach_accepted", "pon", "daiminkan", "ankan", "kakan", "kita", "flower",
    "dora", "hora", "ryukyoku", "chombo", "end_kyoku", "end_game",
})


def _mjai(t: Tile) -> str:
    return str(t) if t.is_flower else t.mjai


def _tile_strings(x: Any) -> list[str]:
    """Every string inside a JSON-like value."""
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in _tile_strings(v)]
    if isinstance(x, list | tuple):
        return [s for v in x for s in _tile_strings(v)]
    return []


class Checker:
    """Checks one game after every step; keeps what it needs from earlier steps."""

    def __init__(self, g: Game, name: str) -> None:
        self.g = g
        self.name = name
        self.total = 3 * START[name]
        self.n_events = 0
        self.hand_start = 0  # index of the current hand's start_kyoku event
        self.hands_checked = 0
        self.check()

    # --- every step -------------------------------------------------------------------------
    def check(self) -> None:
        g = self.g
        assert len(g.events) >= self.n_events, "events are append-only"
        self.n_events = len(g.events)
        self.check_points()
        if not g.done:
            self.check_tiles()
            self.check_turn()
            for seat in range(3):
                self.check_observation(seat)
        for i in range(self.hand_start, len(g.events)):
            if g.events[i]["type"] == "end_kyoku":
                self.check_hand(self.hand_start, i)
                self.hands_checked += 1
        starts = [i for i in range(self.hand_start, len(g.events)) if g.events[i]["type"] == "start_kyoku"]
        if starts:
            self.hand_start = starts[-1]
        if g.done:
            self.check_end()

    def check_points(self) -> None:
        """Points plus riichi sticks on the table are conserved (P48: a stick is 1,000)."""
        g = self.g
        assert sum(g.scores) + g.kyotaku * STICK == self.total, (
            f"{self.name}: scores {g.scores} + {g.kyotaku} stick(s) != {self.total}")

    def check_tiles(self) -> None:
        """Every tile the wall handed out is held by exactly one place (P01, P02)."""
        g = self.g
        wall = g.wall
        assert isinstance(wall, RecordingWall)
        assert len(wall.tiles) == TILES_IN_WALL[self.name]
        given = wall.given
        assert len(set(given)) == len(given), f"a wall position was handed out twice: {sorted(given)}"
        assert not set(given) & set(wall.indicator_positions), "a shown dora indicator was drawn"
        out = [wall.tiles[p] for p in given]
        flowers_out = sum(1 for t in out if t.is_flower)
        held: Counter[Tile] = Counter()
        flowers_held = 0
        for s in g.seats:
            held.update(s.hand)
            for cm in s.melds:
                held.update(cm.meld.tiles)
            held.update(d.tile for d in s.discards if not d.called)
            held.update([Tile(NORTH)] * s.kita)
            flowers_held += s.flowers
        flowers_in_hands = sum(n for t, n in held.items() if t.is_flower)
        held_tiles = Counter({t: n for t, n in held.items() if not t.is_flower})
        out_tiles = Counter(t for t in out if not t.is_flower)
        assert held_tiles == out_tiles, (
            f"{self.name}: tiles held != tiles drawn: extra {sorted(map(str, (held_tiles - out_tiles).elements()))}, "
            f"missing {sorted(map(str, (out_tiles - held_tiles).elements()))}")
        assert flowers_held + flowers_in_hands == flowers_out
        assert flowers_in_hands == 0, "a flower stays in a hand between steps (P03: set aside at once)"
        # The rest of the wall: drawn + not drawn = the whole tile set, each position once.
        assert len(given) + (len(wall.tiles) - len(given)) == TILES_IN_WALL[self.name]
        for i, s in enumerate(g.seats):
            size = len(s.hand) + 3 * len(s.melds)
            on_turn = not g._pending and g.to_move == (i,)
            assert size in ((13, 14) if on_turn else (13,)), (
                f"{self.name}: seat {i} holds {len(s.hand)} tiles with {len(s.melds)} meld(s), to_move={g.to_move}")

    def check_turn(self) -> None:
        g = self.g
        assert g.to_move, "a game that is not over has someone to move"
        for seat in range(3):
            legal = g.legal_actions(seat)
            if seat in g.to_move:
                assert legal, f"seat {seat} must move but has no legal action"
                assert all(a.actor == seat for a in legal)
                assert len(set(legal)) == len(legal), f"duplicate legal actions: {[str(a) for a in legal]}"
            else:
                assert legal == (), f"seat {seat} is not to move but has {[str(a) for a in legal]}"

    def check_observation(self, seat: int) -> None:
        """The observation holds its own hand, public facts and nothing else (no other hand, no wall)."""
        g = self.g
        obs = g.observation(seat)
        me = g.seats[seat]
        assert obs["hand"] == sorted(_mjai(t) for t in me.hand)
        public: Counter[str] = Counter(_mjai(t) for t in g.wall.dora_indicators)
        for s, pub in enumerate(obs["seats"]):
            st_ = g.seats[s]
            assert pub["hand_size"] == len(st_.hand)
            expected: Counter[str] = Counter(_mjai(d.tile) for d in st_.discards)
            for cm in st_.melds:
                expected.update(_mjai(t) for t in cm.meld.tiles)
            if st_.open_riichi:
                expected.update(_mjai(t) for t in st_.hand)
            else:
                assert pub["open_hand"] is None, f"seat {seat} sees seat {s}'s closed hand"
            # "wind" is the seat wind; a meld's "called" (and a kakan's "added") repeats one of its tiles
            shown = {k: v for k, v in pub.items() if k not in ("open_hand", "wind")}
            shown["melds"] = [{k: v for k, v in m.items() if k not in ("called", "added")} for m in pub["melds"]]
            seen = Counter(x for x in _tile_strings(shown) if x in _TILE_NAMES)
            seen.update(pub["open_hand"] or [])
            assert seen == expected, f"seat {seat}'s view of seat {s}: {seen} != public {expected}"
            public.update(expected)
        # own tiles (hand, closed_hand, drawn, waits, legal actions) are checked below; names and winds are not tiles
        rest = {k: v for k, v in obs.items() if k not in ("hand", "closed_hand", "drawn", "waits", "legal_actions",
                                                          "round_wind", "seat", "names", "seats")}
        rest["seats"] = [{**{k: v for k, v in p.items() if k != "wind"},
                          "melds": [{k: v for k, v in m.items() if k not in ("called", "added")}
                                    for m in p["melds"]]}
                         for p in obs["seats"]]
        shown = Counter(x for v in rest.values() for x in _tile_strings(v) if x in _TILE_NAMES)
        assert shown <= public, f"seat {seat} sees tiles that are not public: {shown - public}"
        own = {_mjai(t) for t in me.hand} | {_mjai(t) for cm in me.melds for t in cm.meld.tiles}
        window = {_mjai(g._window_tile)} if g._pending and g._window_tile is not None else set()
        for a in obs["legal_actions"]:
            for x in _tile_strings({k: v for k, v in a.items() if k != "type"}):
                assert x in own or x in window or x == "N", f"seat {seat}'s legal action {a} names a tile it cannot see"
        if obs["drawn"] is not None:
            assert obs["drawn"] in own
        live = [_mjai(t) for t in g.wall.live_tiles]
        for k, v in obs.items():
            if isinstance(v, list) and len(v) >= 4 and v == live[: len(v)]:  # 4: no chance match
                pytest.fail(f"seat {seat}'s observation {k} holds the live wall: {v}")

    # --- every hand -------------------------------------------------------------------------
    def check_hand(self, i0: int, i1: int) -> None:
        """Within a hand: scores move by the end_kyoku deltas minus the riichi sticks paid (P48),
        the deltas add up to the sticks the winner takes (P49), hora deltas add up to the hand's."""
        g = self.g
        events = g.events[i0: i1 + 1]
        start, end = events[0], events[-1]
        assert start["type"] == "start_kyoku" and end["type"] == "end_kyoku"
        sticks = Counter(e["actor"] for e in events if e["type"] == "reach_accepted")
        for s in range(3):
            assert end["scores"][s] == start["scores"][s] - STICK * sticks[s] + end["deltas"][s], (
                f"{self.name} hand {self.hands_checked}: seat {s} start {start['scores'][s]}, sticks {sticks[s]}, "
                f"delta {end['deltas'][s]}, end {end['scores'][s]}")
        result = g.hand_results[self.hands_checked]
        on_table = start["kyotaku"] + sum(sticks.values())
        if result.kind == "hora":
            assert sum(end["deltas"]) == STICK * on_table, (
                f"{self.name}: a win takes the {on_table} stick(s) on the table: deltas {end['deltas']}")
        elif result.kind == "chombo":  # P101: the sticks placed in the voided hand go back
            assert sum(end["deltas"]) == STICK * sum(sticks.values()), (
                f"{self.name}: a chombo returns this hand's {sum(sticks.values())} stick(s): {end['deltas']}")
        else:
            assert sum(end["deltas"]) == 0, f"{self.name}: a draw moves points only between players: {end['deltas']}"
        horas = [e for e in events if e["type"] == "hora"]
        if horas:
            summed = [sum(e["deltas"][s] for e in horas) for s in range(3)]
            assert summed == end["deltas"], f"hora deltas {[e['deltas'] for e in horas]} != hand deltas {end['deltas']}"
            assert horas[-1]["scores"] == end["scores"]
        self.check_public_events(i0, i1 + 1)

    def check_public_events(self, i0: int, i1: int) -> None:
        g = self.g
        for seat in range(3):
            masked = g.public_events(seat)
            assert len(masked) == len(g.events)
            for raw, m in zip(g.events[i0:i1], masked[i0:i1], strict=True):
                t = raw["type"]
                if t == "start_kyoku":
                    assert {k: v for k, v in m.items() if k != "tehais"} == {
                        k: v for k, v in raw.items() if k != "tehais"}
                    for s in range(3):
                        if s == seat:
                            assert m["tehais"][s] == raw["tehais"][s]
                        else:
                            assert m["tehais"][s] == ["?"] * len(raw["tehais"][s]), (
                                f"seat {seat} sees seat {s}'s deal")
                elif t == "tsumo":
                    assert m["pai"] == (raw["pai"] if raw["actor"] == seat else "?"), (
                        f"seat {seat} sees seat {raw['actor']}'s draw")
                    assert {k: v for k, v in m.items() if k != "pai"} == {k: v for k, v in raw.items() if k != "pai"}
                elif t == "start_game":  # the wall seed is published only after the game
                    assert "seed" not in m and m == {k: v for k, v in raw.items() if k != "seed"}
                else:
                    assert t in PUBLIC_TYPES, f"unknown event type {t!r}: decide whether it must be masked"
                    assert m == raw

    # --- end of game ------------------------------------------------------------------------
    def check_end(self) -> None:
        g = self.g
        assert g.events[-1]["type"] == "end_game"
        assert g.result is not None
        assert sorted(g.result.ranks) == [1, 2, 3]
        assert list(g.result.scores) == g.events[-1]["scores"]
        assert g.to_move == ()
        assert all(g.legal_actions(s) == () for s in range(3))
        self.check_public_events(0, len(g.events))


_TILE_NAMES = frozenset(
    {Tile(k).mjai for k in SANMA_KINDS} | {"5pr", "5sr"} | {f"{i}f" for i in range(1, 5)})


def _play(name: str, seed: int, policy_seed: int, *, bot: bool, all_actions_every: int = 0,
          max_steps: int = 60_000, max_hands: int = MAX_HANDS) -> tuple[Game, Checker]:
    rules = preset(name)
    g = Game(rules, seed=seed, walls=recording_walls(seed), max_hands=max_hands)
    chk = Checker(g, name)
    rng = random.Random(policy_seed)
    probe = random.Random(policy_seed + 1)  # its own stream: probing never changes the game played
    steps = 0
    while not g.done:
        assert steps < max_steps, f"{name} seed {seed}: no end after {max_steps} steps"
        seat = g.to_move[0]
        if all_actions_every and steps % all_actions_every == 0:
            _try_every_action(g)
            _try_illegal(g, probe)
        a = bot_action(g, seat, rng) if bot else rng.choice(g.legal_actions(seat))
        try:
            g.apply(a)
        except Exception as e:  # name the game so a failure is a seed and a step
            raise AssertionError(f"{name} seed {seed} policy {policy_seed} step {steps}: {a} raised {e!r}") from e
        chk.check()
        steps += 1
    return g, chk


def _clone(g: Game) -> Game:
    """A deep copy of a game in progress (rules, past events and hand results are immutable: shared)."""
    memo: dict[int, Any] = {id(g.rules): g.rules, id(g.events): list(g.events),
                            id(g.hand_results): list(g.hand_results)}
    return copy.deepcopy(g, memo)


def _try_every_action(g: Game) -> None:
    """Every legal action of every seat to move applies without error on a copy of the game."""
    for seat in g.to_move:
        for a in g.legal_actions(seat):
            c = _clone(g)
            try:
                c.apply(a)
            except Exception as e:
                raise AssertionError(f"legal {a} raised {e!r} ({g.rules.name}, hand {g.hand_number}, "
                                     f"{g.wall.remaining} live tile(s), {g.wall.rinshan_left} rinshan)") from e


def _try_illegal(g: Game, rng: random.Random) -> None:
    """An action that is not legal raises IllegalActionError and changes nothing."""
    waiting = [s for s in range(3) if s not in g.to_move]
    before = len(g.events)
    if waiting:
        seat = rng.choice(waiting)
        t = g.seats[seat].hand[0]
        with pytest.raises(IllegalActionError):
            g.apply(Action("dahai", seat, t))
    seat = g.to_move[0]
    absent = next(k for k in SANMA_KINDS if not g.seats[seat].counts[k])
    with pytest.raises(IllegalActionError):
        g.apply(Action("dahai", seat, Tile(absent)))  # a tile the seat does not hold
    assert len(g.events) == before


SEEDS = st.integers(min_value=0, max_value=2**31)
# A whole game per example: shrinking would replay thousands of games; the failure message
# already names the preset, the seed, the policy seed and the step.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


# Regression: under OFFICIAL (A002-1 dead wall drawn up to the indicator, P13 no kan without a kan
# dora, 4 rinshan tiles shared with kita) the engine offered a kan it could not carry out once the
# rinshan tiles were used up (the kan dora took the live wall's last stack). Seed 6 / policy 6
# reached it; it is kept as an explicit example.
@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=6, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, policy=SEEDS)
@example(seed=6, policy=6)
def test_bot_games_keep_every_invariant_and_end_by_a_rule_P01_P02_P48(name: str, seed: int, policy: int) -> None:
    g, chk = _play(name, seed, policy, bot=True)
    assert chk.hands_checked == len(g.hand_results) >= 1
    assert len(g.hand_results) < MAX_HANDS, f"{name} seed {seed}: ended by the {MAX_HANDS}-hand safety net"


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=3, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, policy=SEEDS)
def test_random_games_keep_every_invariant_and_end_P01_P02_P48(name: str, seed: int, policy: int) -> None:
    # Uniform random play rarely wins: under KANSAI's South-round rule (P37: the dealer never passes
    # on a draw) such a game can only end at the safety net, which is what bounds it here (24 hands).
    g, chk = _play(name, seed, policy, bot=False, max_hands=24)
    assert g.done and chk.hands_checked == len(g.hand_results) <= 24


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=2, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, policy=SEEDS)
@example(seed=6, policy=6)
def test_every_legal_action_applies_and_illegal_ones_raise(name: str, seed: int, policy: int) -> None:
    _play(name, seed, policy, bot=True, all_actions_every=2)


@pytest.mark.parametrize("name", PRESETS)
def test_long_bot_games_keep_every_invariant_P01_P02_P48(name: str) -> None:
    hands = 0
    for seed in range(8):
        g, _ = _play(name, seed, seed, bot=True)  # seeds 0..7 include the OFFICIAL kan regression (6)
        hands += len(g.hand_results)
        assert len(g.hand_results) < MAX_HANDS
    assert hands >= 8


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize(("seed", "policy"), [(0, 1), (42, 7), (2024, 3)])
def test_same_seed_same_game(name: str, seed: int, policy: int) -> None:
    """Determinism (STYLE 7): the same seed and the same choices give the same event stream."""
    runs = []
    for _ in range(2):
        rules = preset(name)
        g = Game(rules, seed=seed)
        rng = random.Random(policy)
        error = ""
        try:
            while not g.done:
                g.apply(bot_action(g, g.to_move[0], rng))
        except IllegalActionError as e:  # an engine bug must repeat too
            error = repr(e)
        runs.append((g.events, error))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", PRESETS)
def test_default_walls_come_from_the_seed(name: str) -> None:
    rules = preset(name)
    a, b, c = Game(rules, seed=11), Game(rules, seed=11), Game(rules, seed=12)
    assert a.events == b.events
    assert a.events[1] != c.events[1]
    assert a.wall.tiles == Wall.shuffled(rules, "11:0").tiles
