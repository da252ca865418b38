"""SanmaEnv (Gymnasium): passes the env checker, reproducible from reset(seed=), rewards add up,
masks match the engine, illegal actions are handled as configured."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sanma.env import NUM_ACTIONS, SanmaEnv
from sanma.env.action_space import action_mask
from sanma.errors import IllegalActionError


def play(env: SanmaEnv, seed: int, policy_seed: int = 0) -> tuple[list[int], list[float]]:
    """A whole game with random masked actions; the actions taken and the rewards."""
    rng = np.random.default_rng(policy_seed)
    _, info = env.reset(seed=seed)
    actions: list[int] = []
    rewards: list[float] = []
    done = False
    while not done:
        mask = info["action_mask"]
        assert np.array_equal(mask, env.action_masks().astype(np.int8))
        a = int(rng.choice(np.flatnonzero(mask)))
        _, reward, done, truncated, info = env.step(a)
        assert not truncated and not info["illegal_action"]
        actions.append(a)
        rewards.append(reward)
    return actions, rewards


def test_gym_env_passes_the_gymnasium_env_checker() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make("sanma/Sanma-v0", rules="tenhou", render_mode="ansi")
        check_env(env.unwrapped)
        check_env(SanmaEnv("kansai", seat=2, flat=True, reward="score", opponents=("random", "defensive")))
    messages = [str(w.message) for w in caught]
    assert [m for m in messages if "spec" not in m] == []  # the direct instance has no registry spec


def test_gym_env_reset_seed_reproduces_the_game() -> None:
    env = SanmaEnv("tenhou", opponents=("efficient", "random"))
    first = play(env, seed=3)
    events = list(env.game.events)  # type: ignore[union-attr]
    assert play(env, seed=3) == first
    assert env.game.events == events  # type: ignore[union-attr]
    play(env, seed=4)
    assert env.game.events != events  # type: ignore[union-attr]


def test_gym_env_points_reward_is_the_final_points() -> None:
    env = SanmaEnv("online", seat=1, opponents=("tsumogiri", "efficient"))
    _, rewards = play(env, seed=5)
    assert env.game is not None and env.game.result is not None
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == env.game.result.points[1]


def test_gym_env_score_reward_adds_up_to_the_score_change() -> None:
    env = SanmaEnv("tenhou", seat=2, reward="score", opponents=("efficient", "efficient"))
    _, rewards = play(env, seed=6)
    game = env.game
    assert game is not None and game.result is not None
    start = game.rules.start_points
    assert sum(rewards) == pytest.approx((game.result.scores[2] - start) / 1000)
    assert any(r != 0 for r in rewards[:-1])  # hands settle during the game, not only at the end


def test_gym_env_agent_acts_only_for_its_seat() -> None:
    env = SanmaEnv("tenhou", seat=1, opponents=("random", "random"))
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        game = env.game
        assert game is not None
        assert 1 in game.to_move and obs["table"][7] == 1
        assert np.array_equal(info["action_mask"], action_mask(game.legal_actions(1)))
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if done:
            break


def test_gym_env_illegal_action_falls_back_or_raises() -> None:
    env = SanmaEnv("tenhou", opponents=("tsumogiri", "tsumogiri"))
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True
    strict = SanmaEnv("tenhou", illegal_action="raise", opponents=("tsumogiri", "tsumogiri"))
    _, info = strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="not legal for seat 0"):
        strict.step(illegal)
    with pytest.raises(IllegalActionError, match="out of range"):
        strict.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="reward must be"):
        SanmaEnv(reward="money")  # type: ignore[arg-type]
