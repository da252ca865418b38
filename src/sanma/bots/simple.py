"""The simplest bots: ``random`` (uniform over the legal actions) and ``tsumogiri``."""

from __future__ import annotations

import random

from ..game.actions import Action
from ..game.view import SeatView
from .base import Bot


class RandomBot(Bot):
    """Uniform over the legal actions, from its own seeded generator.

    >>> from sanma.game.actions import Action
    >>> legal = (Action("none", 1), Action("pon", 1))
    >>> [RandomBot(seed=3).act(None, legal) == RandomBot(seed=3).act(None, legal) for _ in range(3)]
    [True, True, True]
    """

    name = "random"
    needs_view = False

    def __init__(self, seed: int | str = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        return legal[int(self._rng.random() * len(legal))]


class TsumogiriBot(Bot):
    """Wins when it can, otherwise discards the tile it drew (or any tile after a call) and passes.

    It never calls, never declares riichi, never pulls kita and never aborts.
    """

    name = "tsumogiri"
    needs_view = False

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        fallback: Action | None = None
        for a in legal:
            if a.type == "hora":
                return a
        for a in legal:
            if a.type == "none" or (a.type == "dahai" and a.tsumogiri):
                return a
            if fallback is None and a.type == "dahai":
                fallback = a
        return fallback if fallback is not None else legal[-1]
