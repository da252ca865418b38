"""Self-play speed: sanma hanchan per second against riichienv 0.4.11, in the same run.

    .venv/bin/python benchmarks/bench_selfplay.py [GAMES] [--efficient GAMES] [--rounds R] [--no-peers] [--json]

* sanma, random bots, one process, in this process: ``sanma.sim.simulate("tenhou", GAMES, seed=1,
  bots=random x3, jobs=1)``, median of 3 runs (engine and bots only, no start-up);
* sanma through the command-line contract, start-up included, exactly as the shared
  ``workers.py sanma selfplay`` runs it (``python -m sanma simulate ... --jobs 1 --json``);
* riichienv: ``~/.cache/sanma-bench/riichienv/bin/python ../shared/bench/workers.py riichienv
  selfplay GAMES`` (random agents, Rust core), skipped when that virtualenv is missing;
* sanma with three ``efficient`` bots (shanten tables and ukeire on every discard).

Rounds alternate sanma and riichienv (a shared machine's load drifts); figures are medians over
rounds and the ratio is the median of per-round ratios, printed as sanma / riichienv (above 1:
sanma is faster).
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
    ap.add_argument("--rounds", type=int, default=3, help="alternating sanma/riichienv rounds (default 3)")
    ap.add_argument("--no-peers", action="store_true", help="skip riichienv and the CLI start-up figure")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()

    # Rounds alternate sanma and riichienv so that a change in machine load hits both; the
    # figures are medians over rounds, and the ratio is the median of the per-round ratios.
    riichienv = PEERS / "riichienv" / "bin" / "python"
    samples: dict[str, list[float]] = {}
    round_ratios: list[float] = []

    def add(key: str, value: float | None) -> None:
        if value is not None:
            samples.setdefault(key, []).append(value)

    for _ in range(a.rounds):
        games, hands = in_process(a.games, ("random",) * 3)
        add("sanma random (in process)", games)
        add("sanma random hands/s", hands)
        if not a.no_peers and riichienv.exists():
            peer_rate = worker(riichienv, "riichienv", a.games)
            add("riichienv random", peer_rate)
            if peer_rate:
                round_ratios.append(games / peer_rate)
    games, hands = in_process(a.efficient, ("efficient",) * 3)
    add("sanma efficient (in process)", games)
    add("sanma efficient hands/s", hands)
    if not a.no_peers:
        add("sanma random (CLI, start-up included)", worker(sys.executable, "sanma", a.games))
    rows: dict[str, float | None] = {k: statistics.median(v) for k, v in samples.items()}
    rows.setdefault("sanma random (CLI, start-up included)", None)
    ratios = {}
    if round_ratios:
        ratios["sanma random (in process) / riichienv"] = statistics.median(round_ratios)
    peer = rows.get("riichienv random")
    cli_rate = rows.get("sanma random (CLI, start-up included)")
    if peer and cli_rate:
        ratios["sanma random (CLI, start-up included) / riichienv"] = cli_rate / peer
    if a.json:
        print(json.dumps({"games": a.games, "efficient_games": a.efficient, "rounds": a.rounds, "rates": rows,
                          "ratios": ratios, "round_ratios": round_ratios}))
        return
    for key, value in rows.items():
        unit = "hands/s" if key.endswith("hands/s") else "hanchan/s"
        print(f"{key:<42} {'failed' if value is None else f'{value:10.2f}'}  {unit}")
    for key, value in ratios.items():
        print(f"{key:<60} {value:8.3f}x")
    if round_ratios:
        print("per-round ratios: " + ", ".join(f"{r:.3f}" for r in round_ratios))


if __name__ == "__main__":
    main()
