"""Observation encoding: per seat, relative seat order, inside its space, and blind to every
other seat's concealed tiles."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from sanma.env.action_space import tile_slot
from sanma.env.encoding import FIELDS, FLAT_SIZE, encode, flatten, observation_space, tile_code
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.tiles import Tile


def positions(preset: str, seed: int, every: int = 7, limit: int = 120) -> Iterator[Game]:
    """Every ``every``-th decision point of a random game (at most ``limit`` of them: random play
    rarely wins, so a kansai game can run to the engine's 200-hand safety net)."""
    game = Game(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    step = 0
    while not game.done and step < every * limit:
        if step % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
        step += 1


def hidden_swap(game: Game, a: int, b: int, rng: random.Random) -> tuple[Tile, Tile] | None:
    """Two concealed tiles of different kinds, one of seat ``a`` and one of seat ``b``, to trade."""
    if game.seats[a].open_riichi or game.seats[b].open_riichi:
        return None  # an open riichi hand is public

    def movable(s: int) -> list[Tile]:  # the drawn tile stays where the engine expects it
        hand = game.seats[s].hand
        return sorted({t for t in hand if not (s == game._turn and t is game._drawn and hand.count(t) == 1)})

    pairs = [(x, y) for x in movable(a) for y in movable(b) if x.kind != y.kind]
    return rng.choice(pairs) if pairs else None


def trade(game: Game, a: int, x: Tile, b: int, y: Tile) -> None:
    """Seat ``a`` gives ``x`` to seat ``b`` for ``y`` (in place; trading back undoes it)."""
    game.seats[a].remove(x)
    game.seats[a].add(y)
    game.seats[b].remove(y)
    game.seats[b].add(x)
    for s in (a, b):
        game._update_waits(s)
    game._turn_actions = None


def same(o1: dict[str, np.ndarray], o2: dict[str, np.ndarray]) -> bool:
    return all(np.array_equal(o1[k], o2[k]) for k in FIELDS)


def test_encoding_is_blind_to_other_seats_concealed_tiles() -> None:
    rng = random.Random(5)
    checked = 0
    for preset in ("tenhou", "kansai", "club"):
        for game in positions(preset, seed=11):
            for seat in range(3):
                a, b = [s for s in range(3) if s != seat]
                swap = hidden_swap(game, a, b, rng)
                if swap is None:
                    continue
                x, y = swap
                before, before_a = encode(game, seat), encode(game, a)
                trade(game, a, x, b, y)
                after, after_a = encode(game, seat), encode(game, a)
                trade(game, a, y, b, x)
                assert same(before, after), f"seat {seat} sees seat {a}/{b}'s hand"
                assert not same(before_a, after_a)  # the trade is real: the seats holding the tiles see it
                checked += 1
    assert checked > 100


def test_encoding_own_hand_counts_and_red_fives() -> None:
    for game in positions("kansai", seed=3, every=11):
        for seat in range(3):
            obs = encode(game, seat)
            st = game.seats[seat]
            assert obs["hand"].tolist() == st.counts
            assert obs["red"].tolist() == [sum(t.red and t.kind == k for t in st.hand) for k in (13, 22)]
            assert obs["hand_sizes"][0] == len(st.hand)
            drawn = obs["drawn"]
            if game._drawn is not None and game.to_move == (seat,) and not game._pending:
                assert drawn[tile_slot(game._drawn)] == 1 and drawn.sum() == 1
            else:
                assert drawn.sum() == 0


def test_encoding_rows_are_relative_seats() -> None:
    for game in positions("tenhou", seed=8, every=13):
        for seat in range(3):
            obs = encode(game, seat)
            for rel in range(3):
                s = (seat + rel) % 3
                river = [tile_code(d.tile) for d in game.seats[s].discards]
                assert obs["discards"][rel, :len(river)].tolist() == river
                assert not obs["discards"][rel, len(river):].any()
                assert obs["kita"][rel] == game.seats[s].kita
                assert obs["riichi"][rel] == game.seats[s].riichi
                assert obs["scores"][rel] == np.float32(game.scores[s] / 1000)
            assert obs["table"][7] == seat and obs["table"][4] == (game.dealer - seat) % 3


def test_encoding_marks_the_tile_of_a_call_window() -> None:
    windows = 0
    for game in positions("tenhou", seed=2, every=1):
        if not game._pending:
            continue
        discarder, tile = game._window_seat, game._window_tile
        assert tile is not None
        for seat in game.to_move:
            last = encode(game, seat)["last_tile"]
            assert last.sum() == 1 and last[(discarder - seat) % 3, tile_slot(tile)] == 1
            windows += 1
    assert windows > 10


def test_encoding_stays_inside_its_spaces_under_every_preset() -> None:
    space, flat_space = observation_space(), observation_space(flat=True)
    assert flat_space.shape == (FLAT_SIZE,)
    for preset in Rules.presets():
        for game in positions(preset, seed=1, every=29):
            for seat in range(3):
                obs = encode(game, seat)
                assert space.contains(obs), preset
                assert flat_space.contains(flatten(obs)), preset


def test_encoding_dora_from_indicators() -> None:
    game = Game(Rules.preset("tenhou"), seed=4)
    obs = encode(game, 0)
    indicator = game.wall.dora_indicators[0]
    assert obs["dora_indicators"][0] == tile_code(indicator)
    assert obs["dora"].sum() == 1
    assert tile_code(Tile.parse("0s")) == 36 and tile_code(Tile.parse("1m")) == 1
