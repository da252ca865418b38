"""How long ``sanma review`` takes for one seat of a Tenhou hanchan, beside the replay's own time.

    flock /tmp/sanma-heavy.lock .venv/bin/python benchmarks/bench_review.py --games 30
    flock /tmp/sanma-heavy.lock .venv/bin/python benchmarks/bench_review.py --games 3 --depth 8

For each of the first ``--games`` records of the Phoenix corpus (every seat): the seconds of the
replay alone (``replay_record``) and of the whole review of one seat at ``--depth`` (0: the value
model, the default of ``sanma review``), in this one process. Prints the median and the slowest.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from sanma.formats import read_record
from sanma.replay import replay_record
from sanma.review import review_record


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folder", type=Path, default=Path("../shared/data/corpus/tenhou_phoenix_2026-01"))
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--depth", type=int, default=0)
    args = ap.parse_args(argv)
    files = sorted(args.folder.glob("*.xml"))[:args.games]
    review_record(read_record(files[0]), 0, depth=args.depth)  # warm: tables, imports
    replays: list[float] = []
    reviews: list[float] = []
    decisions = 0
    for f in files:
        rec = read_record(f)
        t0 = time.process_time()
        replay_record(rec)
        replays.append(time.process_time() - t0)
        for seat in range(3):
            t0 = time.process_time()
            r = review_record(rec, seat, depth=args.depth)
            reviews.append(time.process_time() - t0)
            decisions += len(r.decisions)
    print(f"{len(files)} hanchan, {len(reviews)} seats, {decisions} decisions, depth {args.depth} (CPU seconds, "
          "one process)")
    print(f"replay of a hanchan: median {statistics.median(replays):.3f} s, slowest {max(replays):.3f} s")
    print(f"review of one seat:  median {statistics.median(reviews):.3f} s, slowest {max(reviews):.3f} s, "
          f"{1000 * sum(reviews) / max(1, decisions):.2f} ms per decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
