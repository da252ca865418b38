"""Self-play speed: sanma hanchan per second against riichienv 0.4.11, in the same run.

    .venv/bin/python benchmarks/bench_selfplay.py [GAMES] [--efficient GAMES] [--no-peers] [--json]

* sanma, random bots, one process, in this process: ``sanma.sim.simulate("tenhou", GAMES, seed=1,
  bots=random x3, jobs=1)``, median of 3 runs (engine and bots only, no start-up);
* sanma through the command-line contract, start-up included, exactly as the shared
  ``workers.py sanma selfplay`` runs it (``python -m sanma simulate ... --jobs 1 --json``);
* riichienv: ``~/.cache/sanma-bench/riichienv/bin/python ../shared/bench/workers.py riichienv
  selfplay GAMES`` (random agents, Rust core), skipped when that virtualenv is missing;
* sanma with three ``efficient`` bots (shanten tables and ukeire on every discard).

Ratios are printed as sanma / riichienv (above 1: sanma is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sanma.sim import simulate

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
WORKERS = SHARED / "bench" / "workers.py"
PEERS = Path(os.environ.get("SANMA_BENCH_CACHE", Path.home() / ".cache" / "sanma-bench"))


def in_process(games: int, bots: tuple[str, str, str], runs: int = 3) -> tuple[float, float]:
    """Median games/s and hands/s of ``runs`` simulations (seed 1, one process)."""
    rates, hands = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        s = simulate("tenhou", games, seed=1, bots=bots, jobs=1)
        dt = time.perf_counter() - t0
        rates.append(games / dt)
        hands.append(s.kyoku / dt)
    return statistics.median(rates), statistics.median(hands)


def worker(python: Path | str, engine: str, games: int) -> float | None:
    """games/s from the shared worker (median of its 3 runs), or None if it cannot run."""
    try:
        out = subprocess.run([str(python), str(WORKERS), engine, "selfplay", str(games)], capture_output=True,
                             text=True, check=True, timeout=3600).stdout.strip().splitlines()
        return float(json.loads(out[-1])["rate"])
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, IndexError):
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="?", type=int, default=10, help="random-bot games per run (default 10)")
    ap.add_argument("--efficient", type=int, default=5, help="efficient-bot games per run (default 5)")
    ap.add_argument("--no-peers", action="store_true", help="skip riichienv and the CLI start-up figure")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()

    rows: dict[str, float | None] = {}
    rows["sanma random (in process)"], rows["sanma random hands/s"] = in_process(a.games, ("random",) * 3)
    rows["sanma efficient (in process)"], rows["sanma efficient hands/s"] = in_process(
        a.efficient, ("efficient",) * 3)
    if not a.no_peers:
        rows["sanma random (CLI, start-up included)"] = worker(sys.executable, "sanma", a.games)
        riichienv = PEERS / "riichienv" / "bin" / "python"
        rows["riichienv random"] = worker(riichienv, "riichienv", a.games) if riichienv.exists() else None
    peer = rows.get("riichienv random")
    ratios = {}
    if peer:
        for key in ("sanma random (in process)", "sanma random (CLI, start-up included)"):
            mine = rows.get(key)
            if mine:
                ratios[f"{key} / riichienv"] = mine / peer
    if a.json:
        print(json.dumps({"games": a.games, "efficient_games": a.efficient, "rates": rows, "ratios": ratios}))
        return
    for key, value in rows.items():
        unit = "hands/s" if key.endswith("hands/s") else "hanchan/s"
        print(f"{key:<42} {'failed' if value is None else f'{value:10.2f}'}  {unit}")
    for key, value in ratios.items():
        print(f"{key:<60} {value:8.3f}x")


if __name__ == "__main__":
    main()
