"""``SanmaEnv``: a Gymnasium environment where the agent plays one seat against bots.

One episode is one whole game (hanchan). The agent is asked only when its seat must act (its
turn, or a call / win window on another seat's tile); the bots play everything else. Actions are
indices of :mod:`sanma.env.action_space`; the legal-action mask is ``info["action_mask"]`` and
``env.action_masks()`` (the ``MaskablePPO`` convention).

>>> env = SanmaEnv("tenhou", opponents=("tsumogiri", "tsumogiri"))
>>> obs, info = env.reset(seed=7)
>>> sorted(obs)[:3], int(info["action_mask"].sum()) > 0
(['discard_counts', 'discard_flags', 'discards'], True)
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> done = False
>>> while not done:
...     action = int(rng.choice(np.flatnonzero(info["action_mask"])))
...     obs, reward, done, truncated, info = env.step(action)
>>> env.game.done, reward == env.game.result.points[0]
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Driver, make_bot
from ..game.engine import Game
from ..rules.schema import Rules
from ..tiles import SEATS
from .action_space import NUM_ACTIONS, action_mask
from .common import IllegalMode, RewardMode, check_modes, choose, render_text, resolve_rules, reward_of
from .encoding import encode, flatten, observation_space


class SanmaEnv(gymnasium.Env[Any, np.int64]):
    """One seat of a sanma game against two bots.

    ``rules``: a preset name or a ``Rules``. ``seat``: the agent's seat (0 deals first).
    ``opponents``: bot names (``sanma.bots.BOTS``) for the next two seats in turn order.
    ``reward``: ``"points"`` (final points, uma included, at the end of the game) or ``"score"``
    (the change of the agent's score since its previous step, in thousands of points).
    ``flat``: a flat float32 ``Box`` observation instead of the ``Dict`` of arrays.
    ``illegal_action``: ``"fallback"`` plays pass, else tsumogiri, else the lowest legal index for a
    masked-out action and sets ``info["illegal_action"]``; ``"raise"`` raises ``IllegalActionError``.
    ``reset(seed=...)`` fixes the walls and the bots: the same seed and actions give the same game.
    """

    # gymnasium declares ``metadata`` as an instance attribute; every env sets it on the class.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, rules: Rules | str = "tenhou", *, seat: int = 0,
                 opponents: Sequence[str] = ("efficient", "efficient"), reward: RewardMode = "points",
                 flat: bool = False, illegal_action: IllegalMode = "fallback", max_hands: int = 200,
                 render_mode: str | None = None) -> None:
        check_modes(reward, illegal_action)
        if seat not in range(SEATS):
            raise ValueError(f"seat must be 0, 1 or 2, got {seat!r}")
        if len(opponents) != SEATS - 1:
            raise ValueError(f"opponents must name {SEATS - 1} bots, got {list(opponents)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}")
        self.rules = resolve_rules(rules)
        self.seat = seat
        self.opponents = tuple(opponents)
        self.reward_mode: RewardMode = reward
        self.flat = flat
        self.illegal_action: IllegalMode = illegal_action
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = observation_space(flat)
        self.game: Game | None = None
        self._driver: Driver | None = None  # the two bots
        self._score_before = 0

    # -- gymnasium API ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None,
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63 - 1))
        self.game = Game(self.rules, seed=game_seed, max_hands=self.max_hands)
        if self._driver is not None:
            self._driver.close()
        self._driver = Driver(self.game, {(self.seat + 1 + j) % SEATS: make_bot(name, seed=f"{game_seed}-{j}",
                                                                                 rules=self.rules)
                                          for j, name in enumerate(self.opponents)})
        self._score_before = self.game.scores[self.seat]
        self._play_bots()
        if self.game.done:  # pragma: no cover - the agent always discards in the first hand
            raise RuntimeError("the game ended before the agent's first move")
        return self._observation(), self._info(False)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        game = self._require_game()
        if game.done:
            raise RuntimeError("step() after the game ended: call reset()")
        chosen, illegal = choose(int(action), game.legal_actions(self.seat), self.seat, self.illegal_action)
        game.apply(chosen)
        self._play_bots()
        reward = reward_of(game, self.seat, self.reward_mode, self._score_before)
        self._score_before = game.scores[self.seat]
        return self._observation(), reward, game.done, False, self._info(illegal)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        return render_text(self.game, self.seat)

    # -- masks -----------------------------------------------------------------------------------
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask as booleans (all False once the game is over)."""
        return action_mask(self._require_game().legal_actions(self.seat)).astype(bool)

    # -- internals -------------------------------------------------------------------------------
    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def _play_bots(self) -> None:
        """Let the bots act until the agent must act or the game ends. In a call window the bots
        answer first; the engine keeps every answer until all seats have answered, so the agent
        learns nothing from their order."""
        assert self._driver is not None
        self._driver.run()

    def close(self) -> None:
        """End the bots (an external ``mjai:`` opponent's process)."""
        if self._driver is not None:
            self._driver.close()
        super().close()

    def _observation(self) -> Any:
        obs = encode(self._require_game(), self.seat)
        return flatten(obs) if self.flat else obs

    def _info(self, illegal: bool) -> dict[str, Any]:
        game = self._require_game()
        return {"action_mask": action_mask(game.legal_actions(self.seat)), "illegal_action": illegal,
                "scores": list(game.scores)}


if "sanma/Sanma-v0" not in gymnasium.registry:
    gymnasium.register(id="sanma/Sanma-v0", entry_point="sanma.env.gym_env:SanmaEnv")
