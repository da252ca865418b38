"""Reinforcement-learning environments: a fixed action space, observation encodings, and
``SanmaEnv`` (Gymnasium, one seat against bots) / ``SanmaAECEnv`` (PettingZoo AEC, three seats).

The action space and the encodings need only numpy; the two environments import gymnasium and
pettingzoo when first used (``pip install gymnasium pettingzoo``), so ``import sanma`` never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .action_space import NUM_ACTIONS, action_index, action_mask, action_name, tile_slot, to_action
from .encoding import FLAT_SIZE, encode, encode_observation, flatten, observation_space

if TYPE_CHECKING:
    from .gym_env import SanmaEnv
    from .pettingzoo_env import SanmaAECEnv


def __getattr__(name: str) -> Any:
    if name == "SanmaEnv":
        from .gym_env import SanmaEnv

        return SanmaEnv
    if name == "SanmaAECEnv":
        from .pettingzoo_env import SanmaAECEnv

        return SanmaAECEnv
    raise AttributeError(f"module 'sanma.env' has no attribute {name!r}")


__all__ = [
    "FLAT_SIZE",
    "NUM_ACTIONS",
    "SanmaAECEnv",
    "SanmaEnv",
    "action_index",
    "action_mask",
    "action_name",
    "encode",
    "encode_observation",
    "flatten",
    "observation_space",
    "tile_slot",
    "to_action",
]
