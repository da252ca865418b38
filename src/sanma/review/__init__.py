"""Game review: every decision of a seat beside its options' win and deal-in chances and expected points.

``review_record(record, seat)`` replays a record through the engine (:mod:`sanma.review.walk`),
values each option of each of the seat's decisions (by default the value model of
:mod:`sanma.review.model`; ``depth=N``: N rollouts per option with the engine and the bots,
:mod:`sanma.review.rollout`) and returns a :class:`~sanma.review.report.Review`, whose
``to_json()`` is the contract of ``sanma review --json``. docs/REVIEW.md has the method and its
calibration.

>>> from sanma.rules import Rules
>>> from sanma.sim.arena import play_game_events
>>> from sanma.formats import read_mjai
>>> from sanma.formats.mjai import write_mjai
>>> rec = read_mjai(write_mjai(play_game_events(Rules.preset("tenhou"), ["defensive"] * 3, "doc", 0)))
>>> r = review_record(rec, seat=1)
>>> j = r.to_json()
>>> j["seat"], all(any(o["action"] == d["played"] for o in d["options"]) for d in j["decisions"])
(1, True)
"""

from __future__ import annotations

import dataclasses

from ..formats import GameRecord
from ..rules.schema import Rules
from .model import Evaluator
from .report import Review, review_game
from .walk import walk


def review_record(record: GameRecord, seat: int = 0, rules: Rules | None = None, *, depth: int = 0,
                  chip_points: int | None = None, rollout_seed: int | str = 0) -> Review:
    """Review ``seat``'s decisions in ``record`` under ``rules`` (default: the record's own);
    ``chip_points`` values a chip in points (default: the rules' ``chip_points``, else the bots'
    assumption); ``depth`` 0 is the value model, N > 0 N rollouts per option (seeded by ``rollout_seed``)."""
    if seat not in (0, 1, 2):
        raise ValueError(f"seat must be 0, 1 or 2, got {seat!r}")
    walked = walk(record, rules, seats=(seat,), keep_games=depth > 0)
    valuing = walked.rules if chip_points is None else dataclasses.replace(walked.rules, chip_points=chip_points)
    evaluator = Evaluator(valuing)
    if depth > 0:
        from .rollout import Rollouts

        roll = Rollouts(valuing, depth, seed=rollout_seed, evaluator=evaluator)
        return review_game(walked, seat, evaluator, valuer=roll.value, model=roll.name, depth=depth)
    return review_game(walked, seat, evaluator)


__all__ = ["Evaluator", "Review", "review_record"]
