"""The score keeper's write speed at a long session: one ``sanma table draw`` at N entries.

    .venv/bin/python benchmarks/bench_keeper.py [--entries 150] [--runs 7]

Builds a club session of four people with N entries (seeded random wins, yakuman busts and
draws, so several games finish), then times (a) ``Keeper.add`` in this process and (b) the whole
command ``python -m sanma table draw SESSION --tenpai ... --json`` in a fresh process, each
followed by the undo of that write so every run writes at the same length. Prints the median
seconds of ``--runs`` runs of each. docs/KEEPER.md "Storage" records the figures before and
after the derived-state cache (migration 4).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sanma.keeper.entries import KeeperError
from sanma.keeper.keeper import Keeper
from sanma.rules.schema import Rules
from sanma.store import open_db


def build(db: str, entries: int, seed: int = 1) -> int:
    store = open_db(db)
    k = Keeper(store)
    sid = int(k.new(Rules.preset("club"), ["A", "B", "C", "D"])["session"])
    rng = random.Random(seed)
    n = 0
    s = k.state(sid)
    while n < entries:
        players = [p for p, w in (s["next"]["seats"] if s["finished"] else s["seats"]).items() if w]
        w, lo = rng.sample(players, 2)
        r = rng.random()
        if r < 0.5:
            e: dict[str, object] = {"kind": "draw", "tenpai": rng.sample(players, rng.randint(0, 3))}
        elif r < 0.55:
            e = {"kind": "win", "from": lo, "wins": [{"winner": w, "yakuman": 1}]}
        else:
            e = {"kind": "win", "from": lo, "wins": [{"winner": w, "han": rng.randint(1, 3), "fu": 30}]}
        try:
            s = k.add(sid, e)
            n += 1
        except KeeperError:
            continue
    store.close()
    return sid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=150)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        db = str(Path(d) / "k.sqlite")
        sid = build(db, a.entries)
        store = open_db(db)
        k = Keeper(store)
        games = len(k.state(sid)["games"])
        inproc, cli = [], []
        for _ in range(a.runs):
            t = time.perf_counter()
            k.add(sid, {"kind": "draw", "tenpai": []})
            inproc.append(time.perf_counter() - t)
            k.undo(sid)
        env = {**os.environ, "SANMA_DB": db}
        for _ in range(a.runs):
            t = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "sanma", "table", "draw", str(sid), "--json"], env=env,
                                 capture_output=True, text=True, check=True)
            cli.append(time.perf_counter() - t)
            json.loads(out.stdout)
            k.undo(sid)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sanma", "--help"], env=env, capture_output=True, check=True)
        startup = time.perf_counter() - t
        store.close()
    print(f"{a.entries} entries ({games} games finished): Keeper.add median {statistics.median(inproc):.3f} s; "
          f"`sanma table draw` median {statistics.median(cli):.3f} s (`sanma --help` alone {startup:.3f} s)")


if __name__ == "__main__":
    main()
