"""Count the review's outcome tables from seeded games of the defensive bot (``sanma.review.fit``).

    nice -n 19 .venv/bin/python tools/fit_review.py --games 1000 --seed fit-2026 \\
        --presets tenhou,majsoul,online,official,club,kansai --out src/sanma/review/outcomes.json

Every preset plays ``--games`` hanchan (game ``i`` of seed ``S`` is ``play_recorded(rules, S, i)``,
reproducible alone); the counts of all of them are one table set. ``--jobs`` runs presets in
parallel processes (the machine is shared: one job unless it is idle). The seeds used for the
calibration report (``tools/review_calibration.py``) must differ from the fit's.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sanma.review.fit import Tables, fit_games
from sanma.rules import Rules


def _fit(preset: str, seed: str, start: int, games: int) -> Tables:
    return fit_games(Rules.preset(preset), f"{seed}-{preset}", range(start, start + games))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="hanchan per preset")
    ap.add_argument("--seed", default="fit-2026")
    ap.add_argument("--presets", default="tenhou,majsoul,online,official,club,kansai")
    ap.add_argument("--chunk", type=int, default=100, help="games per task")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("src/sanma/review/outcomes.json"))
    args = ap.parse_args(argv)
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    tasks = [(p, args.seed, s, min(args.chunk, args.games - s))
             for p in presets for s in range(0, args.games, args.chunk)]
    total = Tables(source={"seed": args.seed, "presets": presets, "games_per_preset": args.games,
                           "bot": "defensive", "tool": "tools/fit_review.py"})
    t0 = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for n, part in enumerate(pool.map(_fit, *zip(*tasks, strict=True)), 1):
            total.merge(part)
            print(f"{n}/{len(tasks)} tasks, {total.games} games, {time.monotonic() - t0:.0f} s", file=sys.stderr)
    total.write(args.out)
    print(f"wrote {args.out}: {total.games} games, {total.hands} hands, {len(total.continuation)} position keys, "
          f"{len(total.risk)} risk keys")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
