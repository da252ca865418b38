"""Soak test of the engine: many hanchan per preset with random bots, every error reported.

    .venv/bin/python benchmarks/soak.py [--games 10000] [--presets club,online,...] [--jobs 2]

Issue 3 asks for 10,000 hanchan per preset with random bots without a single error. Each game
is seeded (seed = game number), so a failure is reproducible from the line it prints. After
every hand the script also checks that points plus riichi sticks are conserved.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor

from sanma.game.engine import Game
from sanma.rules import Rules

PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")


def play(preset: str, seed: int) -> tuple[int, str]:
    """Play one game; return (hands played, error text or "")."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    total = sum(g.scores)
    steps = 0
    try:
        while not g.done:
            seat = g.to_move[0]
            g.apply(rng.choice(g.legal_actions(seat)))
            steps += 1
            if steps > 50_000:
                return len(g.hand_results), f"{preset} seed {seed}: no end after {steps} actions"
            if g.events[-1]["type"] == "end_kyoku" and sum(g.scores) + g.kyotaku * rules.riichi_deposit != total:
                return len(g.hand_results), f"{preset} seed {seed}: points not conserved: {g.scores} + {g.kyotaku}"
    except Exception:  # a soak test reports every failure, whatever its kind
        return len(g.hand_results), f"{preset} seed {seed}: {traceback.format_exc(limit=3)}"
    return len(g.hand_results), ""


def _chunk(args: tuple[str, int, int]) -> tuple[int, int, list[str]]:
    preset, start, stop = args
    hands, errors = 0, []
    for seed in range(start, stop):
        n, err = play(preset, seed)
        hands += n
        if err:
            errors.append(err)
    return stop - start, hands, errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    failed = False
    print(f"{'preset':<9} {'games':>7} {'hands':>8} {'errors':>6} {'seconds':>8} {'games/s':>8}")
    for preset in args.presets.split(","):
        t0 = time.perf_counter()
        step = max(1, args.games // (args.jobs * 8))
        chunks = [(preset, s, min(s + step, args.games)) for s in range(0, args.games, step)]
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_chunk, chunks))
        games = sum(r[0] for r in results)
        hands = sum(r[1] for r in results)
        errors = [e for r in results for e in r[2]]
        dt = time.perf_counter() - t0
        print(f"{preset:<9} {games:>7} {hands:>8} {len(errors):>6} {dt:>8.1f} {games / dt:>8.1f}")
        for e in errors[:5]:
            print("   ", e.replace("\n", "\n    "))
        failed |= bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
