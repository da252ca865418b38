"""How long a tournament's standings and pages take as it grows (docs/KEEPER.md, "Tournaments").

Builds a tournament of ``--players`` players over ``--rounds`` random rounds under the official
rules in a temporary database: every table by its final scores, except ``--by-hand`` tables per
round kept hand by hand (``--hands`` entries each, draws and wins). Then times, median of
``--runs``: ``Tournaments.standings`` (read from every table's session), ``Tournaments.state`` (what
the pages show: made once per change for all of a process's pages, web/tournament.Shown),
``Tournaments.fingerprint`` (what each page's socket looks at every second when nothing moved),
seating a Swiss round, and ``sanma tournament standings --json`` in a fresh process. Run it under the shared lock:

    flock /tmp/sanma-heavy.lock .venv/bin/python benchmarks/bench_tournament.py
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sanma.keeper.keeper import Keeper
from sanma.keeper.tournament import Tournaments
from sanma.rules.schema import Rules
from sanma.store import open_db


def build(db: str, players: int, rounds: int, by_hand: int, hands: int, seed: int = 1) -> int:
    store = open_db(db)
    t = Tournaments(store)
    k = Keeper(store)
    rng = random.Random(seed)
    names = [f"P{i:03d}" for i in range(1, players + 1)]
    tid = int(t.new(Rules.preset("official"), names, rounds, seating="random", seed=seed)["tournament"])
    for n in range(1, rounds + 1):
        for i, table in enumerate(t.seat(tid, n)["tables"]):
            seats = table["seats"]
            if i < by_hand:
                for _ in range(hands):
                    s = k.state(table["session"])
                    if s["games"]:
                        break
                    if rng.random() < 0.4:
                        k.add(table["session"], {"kind": "draw", "tenpai": rng.sample(seats, rng.randint(0, 2))})
                    else:
                        w, lo = rng.sample(seats, 2)
                        k.add(table["session"], {"kind": "win", "from": lo,
                                                 "wins": [{"winner": w, "han": rng.randint(1, 3)}]})
                continue
            a = rng.randrange(20000, 60000, 100)
            b = rng.randrange(10000, 110000 - a, 100)
            t.result(tid, n, table["table"], {"kind": "final", "scores": dict(zip(seats, (a, b, 120000 - a - b),
                                                                                   strict=True))})
    store.close()
    return tid


def median(f: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=36)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--by-hand", type=int, default=2)
    ap.add_argument("--hands", type=int, default=15)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        db = str(Path(d) / "t.sqlite")
        t0 = time.perf_counter()
        tid = build(db, a.players, a.rounds, a.by_hand, a.hands)
        built = time.perf_counter() - t0
        store = open_db(db)
        t = Tournaments(store)
        standings = median(lambda: t.standings(tid), a.runs)
        state = median(lambda: t.state(tid), a.runs)
        fingerprint = median(lambda: t.fingerprint(tid), a.runs)  # a page's look when nothing moved
        env = {**os.environ, "SANMA_DB": db}
        cli = median(lambda: subprocess.run([sys.executable, "-m", "sanma", "tournament", "standings", str(tid),
                                             "--json"], env=env, capture_output=True, check=True), a.runs)
        swiss = Tournaments(store).new(Rules.preset("official"), [f"Q{i:03d}" for i in range(a.players)], 2,
                                       seating="swiss", seed=3)["tournament"]
        start = time.perf_counter()
        Tournaments(store).seat(swiss, 1)
        seat = time.perf_counter() - start
        store.close()
    tables = a.players // 3 * a.rounds
    print(f"{a.players} players x {a.rounds} rounds ({tables} tables, {a.by_hand * a.rounds} kept hand by hand): "
          f"built in {built:.1f} s; standings median {standings:.3f} s; state {state:.3f} s; "
          f"fingerprint (a page's look when nothing moved) {fingerprint * 1000:.2f} ms; "
          f"`sanma tournament standings --json` {cli:.3f} s; seating a round of {a.players} {seat:.3f} s")


if __name__ == "__main__":
    main()
