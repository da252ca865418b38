"""Shanten speed: sanma's single-hand and batch APIs against mahjong 2.1.0 and riichienv 0.4.11.

    .venv/bin/python benchmarks/bench_shanten.py [--no-peers] [--json]

Inputs are ../shared/bench/shanten.json (3000 sanma hands of 13 tiles). The timing method is
the shared one (``rate`` in ../shared/bench/workers.py): median hands/s of 3 runs, each on its
own third of the hands. The tables are loaded before timing (one call), as the peers' imports
are. Batch timings hand each third to ``shanten_batch`` as one prebuilt (1000, 34) uint8 array,
as the peers get prebuilt tile lists; a second figure repeats the hands to 300,000 rows (thirds of 100,000).

Peers run in their own virtualenvs under ~/.cache/sanma-bench (made as compare.sh makes them:
``python3 -m venv DIR && DIR/bin/pip install mahjong==2.1.0`` / ``riichienv==0.4.11``), through
``workers.py ENGINE shanten``, in the same run; missing peers are skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

from sanma.shanten_table import shanten, shanten_batch

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
WORKERS = SHARED / "bench" / "workers.py"
PEERS = Path(os.environ.get("SANMA_BENCH_CACHE", Path.home() / ".cache" / "sanma-bench"))


def _workers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sanma_bench_workers", WORKERS)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {WORKERS}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def batch_rate(arr: np.ndarray, runs: int = 3) -> float:
    """Median rows/s of ``shanten_batch`` over ``runs`` runs, each on its own slice of ``arr``."""
    size = len(arr) // runs
    rates = []
    for r in range(runs):
        part = np.ascontiguousarray(arr[r * size:(r + 1) * size])
        t0 = time.perf_counter()
        shanten_batch(part)
        rates.append(len(part) / (time.perf_counter() - t0))
    return statistics.median(rates)


def peer(engine: str) -> float | None:
    py = PEERS / engine / "bin" / "python"
    if not py.exists():
        return None
    out = subprocess.run([str(py), str(WORKERS), engine, "shanten"], capture_output=True, text=True, check=False)
    lines = out.stdout.strip().splitlines()
    if out.returncode or not lines:
        print(f"{engine}: failed: {out.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return float(json.loads(lines[-1])["rate"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-peers", action="store_true", help="time sanma only")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()

    workers = _workers()
    data = workers.load("shanten.json")
    notations = [h["notation"] for h in data]
    arr = np.array([h["tiles34"] for h in data], dtype=np.uint8)
    shanten(notations[0])  # load the tables outside the timed runs
    if shanten_batch(arr).tolist() != [shanten(h) for h in notations]:
        raise SystemExit("batch and single disagree")

    res: dict[str, float | None] = {
        "sanma_single": workers.rate(shanten, notations),
        "sanma_batch": batch_rate(arr),
        "sanma_batch_100k": batch_rate(np.tile(arr, (100, 1))),
    }
    if not args.no_peers:
        res["mahjong"] = peer("mahjong")
        res["riichienv"] = peer("riichienv")

    def ratio(a: str, b: str) -> float | None:
        x, y = res.get(a), res.get(b)
        return x / y if x and y else None

    ratios = {
        "single_vs_mahjong": ratio("sanma_single", "mahjong"),
        "single_vs_riichienv": ratio("sanma_single", "riichienv"),
        "batch_vs_riichienv": ratio("sanma_batch", "riichienv"),
        "batch_100k_vs_riichienv": ratio("sanma_batch_100k", "riichienv"),
    }
    if args.json:
        print(json.dumps({"rates": res, "ratios": ratios}))
        return 0
    labels = {
        "sanma_single": "sanma shanten(notation)",
        "sanma_batch": "sanma shanten_batch, 1000 rows",
        "sanma_batch_100k": "sanma shanten_batch, 100000 rows",
        "mahjong": "mahjong 2.1.0 Shanten (tiles34)",
        "riichienv": "riichienv calculate_shanten_3p",
    }
    for key, label in labels.items():
        if key in res:
            value = res[key]
            print(f"{label:<36} {'skipped' if value is None else f'{value:>14,.0f} hands/s'}")
    for key, value in ratios.items():
        if value is not None:
            print(f"{key:<36} {value:>14.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
