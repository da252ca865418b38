"""``SanmaAECEnv``: a PettingZoo AEC environment, one agent per seat (``seat_0`` .. ``seat_2``).

The engine lets several seats hold a choice at once (after a discard, each seat that may ron,
pon or kan). AEC steps one agent at a time, so such a window is served in seat order: the
selected agent is always the lowest seat of ``Game.to_move``. The engine keeps each answer to
itself until every seat has answered, so no agent learns another's answer from the order.

Each observation is ``{"observation": ..., "action_mask": int8[NUM_ACTIONS]}`` (the PettingZoo
convention); the mask is the selected agent's legal actions and all zeros for the others.

>>> env = SanmaAECEnv("tenhou")
>>> env.reset(seed=3)
>>> env.agent_selection, env.observation_space("seat_0")["observation"].shape == (FLAT_SIZE,)
('seat_0', True)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
>>> env.game.done, env.agents
(True, [])
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game.engine import Game
from ..rules.schema import Rules
from ..tiles import SEATS
from .action_space import NUM_ACTIONS, action_mask
from .common import IllegalMode, RewardMode, check_modes, choose, render_text, resolve_rules, reward_of
from .encoding import FLAT_SIZE, encode, flatten, observation_space

AGENTS = tuple(f"seat_{s}" for s in range(SEATS))

__all__ = ["AGENTS", "FLAT_SIZE", "SanmaAECEnv", "env"]


class SanmaAECEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Three agents play one game (hanchan) per episode.

    ``rules``: a preset name or a ``Rules``. ``reward``: ``"points"`` (each seat's final points,
    uma included, when the game ends) or ``"score"`` (each seat's score change at every step, in
    thousands). ``flat``: the ``"observation"`` entry is a flat float32 vector (default) or the
    ``Dict`` of arrays of :mod:`sanma.env.encoding`. ``illegal_action``: ``"raise"`` (default) or
    ``"fallback"`` (pass, else tsumogiri, else the lowest legal index; ``infos[agent]["illegal_action"]``).
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "sanma_v0", "render_modes": ["ansi"], "is_parallelizable": False,
                                          "render_fps": 4}

    def __init__(self, rules: Rules | str = "tenhou", *, reward: RewardMode = "points", flat: bool = True,
                 illegal_action: IllegalMode = "raise", max_hands: int = 200,
                 render_mode: str | None = None) -> None:
        super().__init__()
        check_modes(reward, illegal_action)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}")
        self.rules = resolve_rules(rules)
        self.reward_mode: RewardMode = reward
        self.flat = flat
        self.illegal_action: IllegalMode = illegal_action
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        space = spaces.Dict({"observation": observation_space(flat),
                             "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
        # One space object per agent, returned as is (PettingZoo seeds spaces through them).
        self.observation_spaces = {a: space if i == 0 else _copy_space(space, flat)
                                   for i, a in enumerate(AGENTS)}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.game: Game | None = None
        self._rng: np.random.Generator | None = None
        self._scores_before = [0] * SEATS

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**63 - 1))
        self.game = Game(self.rules, seed=game_seed, max_hands=self.max_hands)
        self._scores_before = list(self.game.scores)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.game.to_move[0]]

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._require_game()
        seat = AGENTS.index(agent)
        obs = encode(game, seat)
        selected = agent == self.agent_selection and not game.done
        mask = action_mask(game.legal_actions(seat)) if selected else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": flatten(obs) if self.flat else obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        seat = AGENTS.index(agent)
        if action is None:
            raise ValueError(f"{agent} must act (None is only for an agent whose game is over)")
        chosen, illegal = choose(int(action), game.legal_actions(seat), seat, self.illegal_action)
        self._cumulative_rewards[agent] = 0.0
        game.apply(chosen)
        self.infos[agent] = {"illegal_action": True} if illegal else {}
        for s, a in enumerate(AGENTS):
            self.rewards[a] = reward_of(game, s, self.reward_mode, self._scores_before[s])
        self._scores_before = list(game.scores)
        if game.done:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = AGENTS[game.to_move[0]]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        seat = AGENTS.index(self.agent_selection) if self.agent_selection in AGENTS else 0
        return render_text(self.game, seat)

    def close(self) -> None:
        pass

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game


def _copy_space(space: spaces.Dict, flat: bool) -> spaces.Dict:
    return spaces.Dict({"observation": observation_space(flat),
                        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})


def env(**kwargs: Any) -> Any:
    """``SanmaAECEnv(**kwargs)`` behind PettingZoo's order-enforcing wrapper (misuse raises early)."""
    return wrappers.OrderEnforcingWrapper(SanmaAECEnv(**kwargs))
