"""``review``: a bot that plays the review's best option at every decision (docs/REVIEW.md, "Does the
advice help?").

It values every distinct option of a decision with the review's value model
(:class:`~sanma.review.model.Evaluator`, the numbers ``sanma review`` shows) and plays the one with
the highest expected placement points; a win on offer is valued like any option (it is nearly
always the best). After a pon it decides its discard again from the new view. Deterministic: the
model has no randomness and ties go to the first option in the engine's order.

>>> from sanma.rules import Rules
>>> from sanma.game.engine import Game
>>> from sanma.bots import Driver, make_bot
>>> g = Game(Rules.preset("tenhou"), seed=3, max_hands=1)
>>> seats = {0: make_bot("review", rules=Rules.preset("tenhou")), 1: make_bot("efficient"), 2: make_bot("efficient")}
>>> Driver(g, seats).run()
>>> g.done
True
"""

from __future__ import annotations

from ..bots.base import Bot
from ..game.actions import Action
from ..game.view import SeatView
from ..rules.schema import Rules
from .model import Evaluator


class ReviewBot(Bot):
    """Plays the option the review values highest (see the module docs)."""

    name = "review"

    def __init__(self, seed: int | str = 0, rules: Rules | None = None) -> None:
        self.seed = seed  # the choices are deterministic; the seed is kept for the interface
        self.rules = rules if rules is not None else Rules.preset("tenhou")
        self.evaluator = Evaluator(self.rules)

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view is None:
            raise ValueError("the review bot reads the seat's view: it was given none")
        ests = self.evaluator.evaluate(view, legal)
        if not ests:
            return legal[0]
        best = max(ests, key=lambda e: e.ev_placement)  # the first of equals: the engine's order
        return best.action


__all__ = ["ReviewBot"]
