"""Acceptance (ukeire) speed as an absolute figure (issue 21; riichienv and mahjong have no such call).

    .venv/bin/python benchmarks/bench_ukeire.py [--json]

Inputs are ../shared/bench/shanten.json (the 3000 13-tile sanma hands compare.sh times shanten
on). Three calls, each timed the shared way (``rate`` in ../shared/bench/workers.py: median
hands/s of 3 runs, each on its own third of the hands):

* ``ukeire(counts, visible=...)`` one hand a call, as ``sanma review`` calls it for every option
  of every decision (review/position.py), with the tiles seen outside the hand given;
* ``improving_tiles(counts)``: which kinds improve the hand, without counting them;
* ``ukeire_batch`` on each third as one prebuilt (1000, 34) array, with the same visible counts.

The tables are loaded before timing (one call). ``visible`` is the same for every hand: one
copy of each kind the hand does not hold seen elsewhere (a middling discard pile), so each
improving kind counts what is left of it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from bench_shanten import _workers  # compare.sh's workers.py, loaded in one place (run from benchmarks/)

from sanma.shanten_table import improving_tiles, ukeire, ukeire_batch
from sanma.tiles import REMOVED_KINDS


def batch_rate(counts: np.ndarray, visible: np.ndarray, runs: int = 3) -> float:
    """Median rows/s of ``ukeire_batch`` over ``runs`` runs, each on its own slice of the rows."""
    size = len(counts) // runs
    rates = []
    for r in range(runs):
        part = np.ascontiguousarray(counts[r * size:(r + 1) * size])
        seen = np.ascontiguousarray(visible[r * size:(r + 1) * size])
        t0 = time.perf_counter()
        ukeire_batch(part, visible=seen)
        rates.append(len(part) / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()

    workers = _workers()
    hands = [list(h["tiles34"]) for h in workers.load("shanten.json")]
    seen = [[0 if c or k in REMOVED_KINDS else 1 for k, c in enumerate(h)] for h in hands]
    items = list(zip(hands, seen, strict=True))
    counts, visible = np.array(hands, dtype=np.uint8), np.array(seen, dtype=np.uint8)
    ukeire(hands[0])  # load the tables outside the timed runs
    _, batch = ukeire_batch(counts, visible=visible)
    if batch.tolist() != [ukeire(h, visible=v) for h, v in items]:
        raise SystemExit("batch and single disagree")

    res = {
        "ukeire": workers.rate(lambda it: ukeire(it[0], visible=it[1]), items),
        "improving_tiles": workers.rate(improving_tiles, hands),
        "ukeire_batch": batch_rate(counts, visible),
    }
    if args.json:
        print(json.dumps({"rates": res, "us_per_hand": {k: 1e6 / v for k, v in res.items()}}))
        return 0
    labels = {
        "ukeire": "sanma ukeire(counts, visible=...)",
        "improving_tiles": "sanma improving_tiles(counts)",
        "ukeire_batch": "sanma ukeire_batch, 1000 rows",
    }
    for key, label in labels.items():
        print(f"{label:<36} {res[key]:>12,.0f} hands/s  {1e6 / res[key]:>7.2f} µs/hand")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
