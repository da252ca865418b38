"""Bots: seeded, deterministic players behind one protocol, made by name.

>>> bot = make_bot("efficient", seed=1)
>>> bot.name, sorted(BOTS)
('efficient', ['defensive', 'efficient', 'random', 'tsumogiri'])
>>> make_bot("clever")
Traceback (most recent call last):
...
sanma.bots.UnknownBotError: unknown bot 'clever': choose from defensive, efficient, random, tsumogiri
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import SanmaError
from ..rules.schema import Rules
from .base import Bot, HandView, Observation, read_observation
from .defensive import DefensiveBot
from .efficient import EfficientBot
from .simple import RandomBot, TsumogiriBot


class UnknownBotError(SanmaError):
    """A bot name that is not in the registry."""


BOTS: dict[str, Callable[[int | str, Rules | None], Bot]] = {
    "random": lambda seed, rules: RandomBot(seed),
    "tsumogiri": lambda seed, rules: TsumogiriBot(seed),
    "efficient": lambda seed, rules: EfficientBot(seed, rules),
    "defensive": lambda seed, rules: DefensiveBot(seed, rules),
}


def make_bot(name: str, seed: int | str = 0, rules: Rules | None = None) -> Bot:
    """A bot by registry name, seeded; ``rules`` tell rule-aware bots what is a yaku, etc."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise UnknownBotError(f"unknown bot {name!r}: choose from {', '.join(sorted(BOTS))}") from None
    return factory(seed, rules)


__all__ = [
    "BOTS",
    "Bot",
    "DefensiveBot",
    "EfficientBot",
    "HandView",
    "Observation",
    "RandomBot",
    "TsumogiriBot",
    "UnknownBotError",
    "make_bot",
    "read_observation",
]
