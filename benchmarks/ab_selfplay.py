"""Self-play of two builds of sanma, A/B interleaved: did a change make the engine slower?

    .venv/bin/python benchmarks/ab_selfplay.py OLD_ROOT [NEW_ROOT] [--rounds 6] [--random 500] [--efficient 100]

Each ROOT is a checkout with its own ``make install`` (e.g. ``git worktree add /work/ab-old COMMIT``
and ``make install`` there); NEW_ROOT defaults to this checkout. Every round runs
``python -m sanma simulate --rules tenhou --seed 1 --jobs 1 --json`` in both builds, alternating
which goes first, with three ``random`` bots (the engine alone) and with three ``efficient`` bots
(shanten tables and acceptance on every discard), and counts the child's CPU seconds (user + system,
start-up included), which a shared machine's load disturbs less than wall time. Prints each build's
median and the new/old ratio of hanchan per CPU second. Run it under the heavy lock.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cpu_seconds(root: Path, bots: str, games: int) -> float:
    """CPU seconds of one ``sanma simulate`` run of ``root``'s build."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(root / ".venv/bin/python"), "-m", "sanma", "simulate", "--rules", "tenhou",
                    "--games", str(games), "--seed", "1", "--bots", bots, "--jobs", "1", "--json"],
                   check=True, stdout=subprocess.DEVNULL, cwd=root)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="the checkout of the build before the change")
    ap.add_argument("new", type=Path, nargs="?", default=HERE.parent, help="the build after (default: this one)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--random", type=int, default=500, help="hanchan per run with random bots")
    ap.add_argument("--efficient", type=int, default=100, help="hanchan per run with efficient bots")
    a = ap.parse_args()
    builds = {"old": a.old.resolve(), "new": a.new.resolve()}
    for bots, games in ((",".join(["random"] * 3), a.random), (",".join(["efficient"] * 3), a.efficient)):
        runs: dict[str, list[float]] = {k: [] for k in builds}
        for r in range(a.rounds):
            for name in (("old", "new") if r % 2 == 0 else ("new", "old")):
                runs[name].append(cpu_seconds(builds[name], bots, games))
        med = {k: statistics.median(v) for k, v in runs.items()}
        for k, v in runs.items():
            print(f"{bots.split(',')[0]:9} {k} {builds[k]}: {games} hanchan, CPU s "
                  f"{' '.join(f'{x:.2f}' for x in v)}; median {med[k]:.2f} = {games / med[k]:.1f} hanchan/s")
        print(f"{bots.split(',')[0]:9} new/old speed: {med['old'] / med['new']:.2f}x")


if __name__ == "__main__":
    main()
