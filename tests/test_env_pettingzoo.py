"""SanmaAECEnv (PettingZoo AEC): passes the API test; call windows served one seat at a time in
seat order; rewards add up to the final result."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test  # type: ignore[import-untyped]

from sanma.bots import make_bot
from sanma.env import NUM_ACTIONS, SanmaAECEnv
from sanma.env.action_space import action_index, action_mask
from sanma.env.pettingzoo_env import AGENTS, env
from sanma.errors import IllegalActionError

# PettingZoo's own warnings for any env whose observation is the {"observation", "action_mask"}
# dict it asks for (its classic games are exempted by name).
DICT_OBSERVATION_WARNINGS = {"Observation is not a NumPy array",
                             "Observation space for each agent probably should be gymnasium.spaces.box or "
                             "gymnasium.spaces.discrete"}


def test_aec_env_passes_the_pettingzoo_api_test() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(SanmaAECEnv("tenhou"), num_cycles=1000)
        api_test(env(rules="kansai", flat=False, reward="score"), num_cycles=300)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


def play_checking_turns(aec: SanmaAECEnv, seed: int) -> int:
    """A game of efficient bots (which reach tenpai, so ron and pon can meet on one discard), checking
    who is selected and the masks; the number of windows with several seats to answer."""
    aec.reset(seed=seed)
    bots = [make_bot("efficient", seed=s, rules=aec.rules) for s in range(3)]
    windows = 0
    for agent in aec.agent_iter():
        obs, _, terminated, _, _ = aec.last()
        if terminated:
            aec.step(None)
            continue
        game = aec.game
        assert game is not None
        seat = AGENTS.index(agent)
        assert seat == game.to_move[0]
        assert np.array_equal(obs["action_mask"], action_mask(game.legal_actions(seat)))
        for other in AGENTS:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        if len(game.to_move) > 1:
            windows += 1
        legal = game.legal_actions(seat)
        aec.step(action_index(bots[seat].act(game.view(seat), legal)))
    return windows


def test_aec_env_serves_a_call_window_in_seat_order() -> None:
    aec = SanmaAECEnv("tenhou")
    assert sum(play_checking_turns(aec, seed) for seed in range(8)) > 0, "no window with two seats to answer"


@pytest.mark.parametrize("mode", ["points", "score"])
def test_aec_env_rewards_add_up_to_the_result(mode: str) -> None:
    aec = SanmaAECEnv("tenhou", reward=mode)  # type: ignore[arg-type]
    aec.reset(seed=4)
    rng = np.random.default_rng(4)
    total = dict.fromkeys(AGENTS, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, _, _ = aec.last()
        total[agent] += reward
        aec.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = aec.game
    assert game is not None and game.result is not None
    if mode == "points":
        expected = [float(p) for p in game.result.points]
    else:
        expected = [(s - game.rules.start_points) / 1000 for s in game.result.scores]
    assert [total[a] for a in AGENTS] == pytest.approx(expected)


def test_aec_env_reset_seed_reproduces_and_illegal_actions_raise() -> None:
    aec = SanmaAECEnv("tenhou")
    aec.reset(seed=1)
    first = aec.observe("seat_0")["observation"].copy()
    aec.reset(seed=1)
    assert np.array_equal(aec.observe("seat_0")["observation"], first)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    assert mask.shape == (NUM_ACTIONS,)
    with pytest.raises(IllegalActionError, match="not legal"):
        aec.step(int(np.flatnonzero(mask == 0)[0]))
