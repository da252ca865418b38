"""Calibration of the review's numbers: what it predicted for the option played against what then
happened (docs/REVIEW.md; ``benchmarks/review_calibration.py`` gathers the samples).

For each decision the sample holds the played option's predicted ``win`` and ``deal_in`` chances,
``ev_points`` and ``ev_placement``, and what happened: whether the seat won the hand, dealt in, its
point change from the decision to the end of the hand, its final points. :func:`reliability` bins
the predicted chances and compares each bin's mean with the observed rate; the *calibration error*
is the count-weighted mean gap (the expected calibration error, in percentage points).

>>> s = [Sample(0.2, 0.1, 0, 0, won=False, dealt=False, delta=0, final=0.0)] * 4
>>> s += [Sample(0.2, 0.1, 0, 0, won=True, dealt=False, delta=0, final=0.0)]
>>> r = reliability([x.win for x in s], [x.won for x in s])
>>> round(r.error, 3), round(r.brier, 3), r.bins[2].count
(0.0, 0.16, 5)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Sample:
    """One decision: the played option's predictions and what happened."""

    win: float
    deal_in: float
    ev_points: float
    ev_placement: float
    won: bool
    dealt: bool
    delta: int  # the seat's points at the end of the hand less its points at the decision
    final: float  # the seat's final points (thousands, chips at their value) ; nan when unknown
    hand: str = ""  # which hand (for counting hands)

    def to_json(self) -> list[Any]:
        return [round(self.win, 5), round(self.deal_in, 5), round(self.ev_points, 1), round(self.ev_placement, 4),
                int(self.won), int(self.dealt), self.delta, None if math.isnan(self.final) else self.final, self.hand]

    @staticmethod
    def from_json(x: Sequence[Any]) -> Sample:
        return Sample(float(x[0]), float(x[1]), float(x[2]), float(x[3]), bool(x[4]), bool(x[5]), int(x[6]),
                      float("nan") if x[7] is None else float(x[7]), str(x[8]))


@dataclass(frozen=True, slots=True)
class Bin:
    low: float
    high: float
    count: int
    predicted: float  # mean prediction in the bin
    observed: float  # observed rate (or mean outcome)


@dataclass(frozen=True, slots=True)
class Reliability:
    bins: tuple[Bin, ...]
    error: float  # count-weighted mean |predicted - observed| (expected calibration error)
    worst: float  # the largest gap of a bin holding at least 1% of the samples
    brier: float  # mean squared error of the predictions
    base_brier: float  # the Brier score of always predicting the overall rate
    count: int
    rate: float  # the overall observed rate
    mean: float  # the overall mean prediction


def reliability(predicted: Sequence[float], observed: Sequence[bool], edges: Sequence[float] | None = None
                ) -> Reliability:
    """Reliability of chances ``predicted`` against outcomes ``observed`` (bins: tenths unless ``edges``)."""
    edges = list(edges) if edges is not None else [i / 10 for i in range(11)]
    n = len(predicted)
    bins = []
    gap = 0.0
    worst = 0.0
    for lo, hi in itertools.pairwise(edges):
        last = hi == edges[-1]
        idx = [i for i in range(n) if lo <= predicted[i] < hi or (last and predicted[i] == hi)]
        if not idx:
            bins.append(Bin(lo, hi, 0, math.nan, math.nan))
            continue
        p = sum(predicted[i] for i in idx) / len(idx)
        o = sum(observed[i] for i in idx) / len(idx)
        bins.append(Bin(lo, hi, len(idx), p, o))
        gap += len(idx) * abs(p - o)
        if len(idx) >= 0.01 * n:
            worst = max(worst, abs(p - o))
    rate = sum(observed) / n if n else math.nan
    brier = sum((predicted[i] - observed[i]) ** 2 for i in range(n)) / n if n else math.nan
    base = sum((rate - observed[i]) ** 2 for i in range(n)) / n if n else math.nan
    return Reliability(tuple(bins), gap / n if n else math.nan, worst, brier, base, n, rate,
                       sum(predicted) / n if n else math.nan)


def by_quantile(predicted: Sequence[float], observed: Sequence[float], bins: int = 10) -> Reliability:
    """Predicted against realised values (points), in ``bins`` bins of equal count by prediction:
    ``error`` is the count-weighted mean gap in the values' unit; ``brier`` the mean squared error."""
    order = sorted(range(len(predicted)), key=lambda i: predicted[i])
    n = len(order)
    out = []
    gap = 0.0
    worst = 0.0
    for b in range(bins):
        idx = order[b * n // bins:(b + 1) * n // bins]
        if not idx:
            continue
        p = sum(predicted[i] for i in idx) / len(idx)
        o = sum(observed[i] for i in idx) / len(idx)
        out.append(Bin(predicted[idx[0]], predicted[idx[-1]], len(idx), p, o))
        gap += len(idx) * abs(p - o)
        worst = max(worst, abs(p - o))
    mse = sum((predicted[i] - observed[i]) ** 2 for i in range(n)) / n if n else math.nan
    mean_o = sum(observed) / n if n else math.nan
    base = sum((mean_o - observed[i]) ** 2 for i in range(n)) / n if n else math.nan
    return Reliability(tuple(out), gap / n if n else math.nan, worst, mse, base, n, mean_o,
                       sum(predicted) / n if n else math.nan)


def summary(samples: Sequence[Sample]) -> dict[str, Any]:
    """The report's numbers for one set of samples."""
    win = reliability([s.win for s in samples], [s.won for s in samples])
    deal = reliability([s.deal_in for s in samples], [s.dealt for s in samples])
    pts = by_quantile([s.ev_points for s in samples], [float(s.delta) for s in samples])
    known = [s for s in samples if not math.isnan(s.final)]
    place = by_quantile([s.ev_placement for s in known], [s.final for s in known]) if known else None

    def rel(r: Reliability) -> dict[str, Any]:
        return {"error": r.error, "worst": r.worst, "brier": r.brier, "base_brier": r.base_brier,
                "rate": r.rate, "mean": r.mean, "count": r.count,
                "bins": [[b.low, b.high, b.count, b.predicted, b.observed] for b in r.bins]}

    return {"decisions": len(samples), "hands": len({s.hand for s in samples}), "win": rel(win),
            "deal_in": rel(deal), "points": rel(pts), "placement": rel(place) if place is not None else None}


__all__ = ["Bin", "Reliability", "Sample", "by_quantile", "reliability", "summary"]
