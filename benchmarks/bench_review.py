"""How long ``sanma review`` takes for one seat of a Tenhou hanchan, beside the replay's own time.

    flock /tmp/sanma-heavy.lock .venv/bin/python benchmarks/bench_review.py --games 30
    flock /tmp/sanma-heavy.lock .venv/bin/python benchmarks/bench_review.py --games 3 --depth 8
    flock /tmp/sanma-heavy.lock .venv/bin/python benchmarks/bench_review.py --games 10 --web

For each of the first ``--games`` records of the Phoenix corpus (every seat): the seconds of the
replay alone (``replay_record``) and of the whole review of one seat at ``--depth`` (0: the value
model, the default of ``sanma review``), in this one process. Prints the median and the slowest.
``--web``: instead, the wall time of the server's ``POST /api/reviews`` (the replay viewer's panel:
the upload read, the review in the server's worker process, the answer) for every seat, then the
same requests again (answered from the cache).
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
    ap.add_argument("--web", action="store_true", help="time the server's POST /api/reviews instead")
    args = ap.parse_args(argv)
    files = sorted(args.folder.glob("*.xml"))[:args.games]
    if args.web:
        return web(files)
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


def web(files: list[Path]) -> int:
    import tempfile

    from fastapi.testclient import TestClient

    from sanma.web import create_app
    from sanma.web.limits import Limits

    limits = Limits(uploads_per_minute=1e6, reviews_per_minute=1e6)
    with tempfile.TemporaryDirectory() as tmp, \
            TestClient(create_app(Path(tmp) / "db.sqlite", limits=limits), base_url="http://127.0.0.1") as c:
        def ask(body: bytes, seat: int) -> float:
            t0 = time.perf_counter()
            r = c.post(f"/api/reviews?seat={seat}", content=body, headers={"content-type": "text/plain"})
            assert r.status_code == 200, r.text
            return time.perf_counter() - t0

        bodies = [f.read_bytes() for f in files]
        ask(bodies[0], 0)  # the worker process started and warm
        fresh = [ask(b, s) for b in bodies[1:] for s in range(3)]
        cached = [ask(b, s) for b in bodies[1:] for s in range(3)]
    print(f"POST /api/reviews, {len(fresh)} seats of {len(bodies) - 1} hanchan (wall seconds, one worker process)")
    print(f"a seat reviewed: median {statistics.median(fresh):.3f} s, slowest {max(fresh):.3f} s")
    print(f"the same again (cached): median {1000 * statistics.median(cached):.1f} ms, slowest "
          f"{1000 * max(cached):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
