"""Bots: seeded, deterministic players behind one interface (``Bot``), made by name and driven
by one loop (``Driver``).

>>> bot = make_bot("efficient", seed=1)
>>> bot.name, sorted(BOTS)
('efficient', ['defensive', 'efficient', 'random', 'review', 'tsumogiri'])
>>> make_bot("genius")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sanma.bots.UnknownBotError: unknown bot 'genius': choose from defensive, efficient, random, review, tsumogiri, ...

``mjai:COMMAND`` seats an external program speaking mjai on stdin/stdout (see ``sanma.bots.mjai``);
its process starts only when the seat first has to decide.

>>> make_bot("mjai:python examples/mjai_bot.py --tsumogiri", timeout=2.0).name
'mjai:python examples/mjai_bot.py --tsumogiri'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import SanmaError
from ..i18n import sentence
from ..rules.schema import Rules
from .base import Bot, HandView, read_view
from .drive import Driver
from .simple import RandomBot, TsumogiriBot

if TYPE_CHECKING:
    from .defensive import DefensiveBot
    from .efficient import EfficientBot


class UnknownBotError(SanmaError):
    """A bot name that is not in the registry."""


def _efficient(seed: int | str, rules: Rules | None) -> Bot:
    from .efficient import EfficientBot  # imported when first seated: a random-bot run starts faster

    return EfficientBot(seed, rules)


def _defensive(seed: int | str, rules: Rules | None) -> Bot:
    from .defensive import DefensiveBot

    return DefensiveBot(seed, rules)


def _review(seed: int | str, rules: Rules | None) -> Bot:
    from ..review.bot import ReviewBot  # the review's value model: its tables load when first seated

    return ReviewBot(seed, rules)


BOTS: dict[str, Callable[[int | str, Rules | None], Bot]] = {
    "random": lambda seed, rules: RandomBot(seed),
    "tsumogiri": lambda seed, rules: TsumogiriBot(seed),
    "efficient": _efficient,
    "defensive": _defensive,
    "review": _review,
}


def __getattr__(name: str) -> Any:
    if name == "EfficientBot":
        from .efficient import EfficientBot

        return EfficientBot
    if name == "DefensiveBot":
        from .defensive import DefensiveBot

        return DefensiveBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MJAI_PREFIX = "mjai:"


def make_bot(name: str, seed: int | str = 0, rules: Rules | None = None, *, timeout: float | None = None,
             budget: float | None = None) -> Bot:
    """A bot by registry name (or ``mjai:COMMAND``), seeded; ``rules`` tell rule-aware bots what is a yaku.

    ``timeout`` (seconds per decision) and ``budget`` (seconds of thinking per game) apply to bots
    that wait on another program (``mjai:``).
    """
    if name.startswith(MJAI_PREFIX):
        from .mjai import MjaiBot  # subprocess and threads only for those who seat one

        return MjaiBot(name[len(MJAI_PREFIX):], seed, rules, timeout=timeout, budget=budget)
    try:
        factory = BOTS[name]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(name.strip().lower(), sorted(BOTS), n=2, cutoff=0.5)
        hint = sentence("did you mean {names}? ", names=" or ".join(repr(c) for c in close)) if close else ""
        raise UnknownBotError(sentence("unknown bot {name!r}: {hint}choose from {choices}, or mjai:COMMAND",
                                       code="unknown_bot", name=name, hint=hint,
                                       choices=", ".join(sorted(BOTS)))) from None
    return factory(seed, rules)


__all__ = [
    "BOTS",
    "MJAI_PREFIX",
    "Bot",
    "DefensiveBot",
    "Driver",
    "EfficientBot",
    "HandView",
    "RandomBot",
    "TsumogiriBot",
    "UnknownBotError",
    "make_bot",
    "read_view",
]
