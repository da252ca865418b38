"""Quick local scoring speed: ``sanma.score_hand`` on the shared benchmark hands.

    .venv/bin/python benchmarks/bench_score.py [--runs N] [--profile]

Same inputs and method as ``score`` in ../shared/bench/workers.py: the 3000 closed winning
hands of ../shared/bench/hands.json, scored under ``Rules.preset("tenhou")`` with riichi, seat
South, round East, a ron from West or a tsumo; the figure is the median hands/s of 3 runs, each
on its own third of the hands (so no whole hand is seen twice). ``--runs`` repeats the whole
measurement (a fresh process would be fairer still: suit-pattern caches stay warm between
repeats, exactly as they do between the three thirds in workers.py). ``--profile`` prints a
cProfile of one pass over all hands instead.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sanma

HANDS = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "hands.json"


def tile_str(i136: int) -> str:
    k = i136 // 4
    return f"{k % 9 + 1}{'mpsz'[k // 9]}"


def rate(fn: Callable[[Any], None], items: list[Any], runs: int = 3) -> float:
    """Median items/s over ``runs`` runs, each on its own slice of the inputs (as workers.py)."""
    size = len(items) // runs
    rates = []
    for r in range(runs):
        part = items[r * size:(r + 1) * size]
        t0 = time.perf_counter()
        for it in part:
            fn(it)
        rates.append(len(part) / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="repeat the measurement N times")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one pass")
    args = ap.parse_args()

    rules = sanma.Rules.preset("tenhou")
    hands = [(h["notation"], tile_str(h["win_tile136"]), h["is_tsumo"]) for h in json.loads(HANDS.read_text())]

    def f(h: tuple[str, str, bool]) -> None:
        s = sanma.score_hand(h[0], win=h[1], tsumo=h[2], riichi=True, seat_wind="S",
                             round_wind="E", discarder_wind=None if h[2] else "W", rules=rules)
        assert s.han >= 1

    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for h in hands:
            f(h)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return
    for _ in range(args.runs):
        print(json.dumps({"engine": "sanma", "task": "score", "rate": round(rate(f, hands), 1),
                          "unit": "hands/s"}))


if __name__ == "__main__":
    main()
