"""The fixed action space: every legal engine action has exactly one index, every masked-in index
is a legal action, over random games under every preset."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from sanma.bots import make_bot
from sanma.env.action_space import (
    DISCARD,
    NUM_ACTIONS,
    PON,
    RIICHI,
    TSUMOGIRI,
    action_index,
    action_mask,
    action_name,
    slot_name,
    tile_slot,
    to_action,
)
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.tiles import Tile


def check_seat(game: Game, seat: int, seen: Counter[int]) -> None:
    legal = game.legal_actions(seat)
    indices = [action_index(a) for a in legal]
    assert len(set(indices)) == len(indices), f"two legal actions share an index: {legal}"
    mask = action_mask(legal)
    assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
    for i in range(NUM_ACTIONS):
        a = to_action(i, legal)
        if mask[i]:
            assert a is not None and a in legal and action_index(a) == i
        else:
            assert a is None
    seen.update(indices)


def play_checked(preset: str, seed: int, seen: Counter[int]) -> None:
    """A game where each seat mixes the efficient bot (riichi, kans) with random choices (calls)."""
    rules = Rules.preset(preset)
    game = Game(rules, seed=f"env-{seed}")
    bots = [make_bot("efficient", seed=s, rules=rules) for s in range(3)]
    rng = random.Random(seed)
    while not game.done:
        for seat in game.to_move:
            check_seat(game, seat, seen)
        seat = game.to_move[0]
        legal = game.legal_actions(seat)
        if rng.random() < 0.3:
            game.apply(rng.choice(legal))
        else:
            game.apply(bots[seat].act(game.view(seat), legal))


def test_action_space_maps_every_legal_action_to_one_index_under_every_preset() -> None:
    seen: Counter[int] = Counter()
    for i, preset in enumerate(Rules.presets()):
        play_checked(preset, i, seen)
    names = {action_name(i).split()[0].split("(")[0] for i in seen}
    # The games reached the choices that make the mapping non-trivial.
    assert {"discard", "tsumogiri", "riichi", "open_riichi", "pon", "daiminkan", "ankan", "kakan", "kita", "pass",
            "tsumo", "ron"} <= names, names
    assert any(DISCARD + 34 <= i <= DISCARD + 35 for i in seen), "no red five was discarded"


def test_action_space_tells_a_drawn_tile_from_the_same_tile_in_hand() -> None:
    five, red = Tile.parse("5p"), Tile.parse("0p")
    legal = (Action("dahai", 0, five), Action("dahai", 0, five, tsumogiri=True), Action("dahai", 0, red),
             Action("reach", 0, five), Action("reach", 0, red, tsumogiri=True))
    indices = [action_index(a) for a in legal]
    assert indices == [DISCARD + 13, TSUMOGIRI, DISCARD + 34, RIICHI + 13, RIICHI + 34]
    assert [to_action(i, legal) for i in indices] == list(legal)


def test_action_space_pon_index_counts_the_red_fives_consumed() -> None:
    five, red = Tile.parse("5s"), Tile.parse("0s")
    pons = [Action("pon", 1, five, consumed=c, target=0) for c in ((five, five), (five, red), (red, red))]
    assert [action_index(a) for a in pons] == [PON, PON + 1, PON + 2]
    assert [action_name(action_index(a)) for a in pons] == ["pon", "pon (1 red)", "pon (2 red)"]


def test_action_space_names_every_index_once() -> None:
    names = [action_name(i) for i in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert [slot_name(tile_slot(Tile.parse(t))) for t in ("1m", "5p", "0p", "0s", "7z")] == \
        ["1m", "5p", "0p", "0s", "7z"]
    with pytest.raises(ValueError, match="out of range"):
        action_name(NUM_ACTIONS)
