"""Bot strength per preset: average placement with 95% confidence intervals (issue 5).

    .venv/bin/python benchmarks/bot_strength.py --games 2000 --jobs 2 [--presets tenhou,club] > docs/BOTS.md
    .venv/bin/python benchmarks/bot_strength.py --jansou --games 2000 --jobs 2   # against jansou's agent

Each pairing (X vs Y) plays GAMES hanchan of the line-up X, Y, Y through `sanma simulate` (seats
rotate between games, so X sits in every seat equally; seeds are shared by every pairing). If
X and Y were equally strong, X's average placement would be 2.00; X is ahead of Y when the
whole 95% interval lies below 2.00. The interval is mean ± 1.96·sd/√n over X's placements.

`--pairings X:Y,...` picks the pairings, and `--bot NAME=BOT` names any bot string sanma accepts
(e.g. `mjai:COMMAND`) for use in them. `--jansou` seats jansou's SmartEfficiencyAgent through
benchmarks/jansou_bridge.py (jansou's virtualenv, see benchmarks/README.md) as `jansou`, plays
efficient and defensive against it under tenhou, and adds the fallback counts of both sides:
sanma's (answers it had to replace) and the bridge's own (decisions it answered by default).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ("tenhou", "majsoul", "online", "official", "club", "kansai")
PAIRINGS = (("efficient", "random"), ("defensive", "efficient"))
CACHE = Path(os.environ.get("SANMA_BENCH_CACHE", Path.home() / ".cache" / "sanma-bench"))
JANSOU_PYTHON = CACHE / "jansou" / "bin" / "python"
BRIDGE = ROOT / "benchmarks" / "jansou_bridge.py"


def jansou_bot(stats: Path | None = None) -> str:
    """The bot string seating jansou's SmartEfficiencyAgent through the bridge."""
    cmd = [str(JANSOU_PYTHON), str(BRIDGE), *(["--stats", str(stats)] if stats else [])]
    return "mjai:" + shlex.join(cmd)


def run(preset: str, bots: tuple[str, str, str], games: int, seed: int, jobs: int) -> dict[str, object]:
    cmd = [sys.executable, "-m", "sanma", "simulate", "--rules", preset, "--games", str(games), "--seed",
           str(seed), "--bots", ",".join(bots), "--jobs", str(jobs), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def interval(placements: list[int]) -> tuple[float, float, int]:
    """Mean placement and its 95% half-width from the counts of 1st, 2nd, 3rd places."""
    n = sum(placements)
    mean = sum((i + 1) * c for i, c in enumerate(placements)) / n
    var = sum(c * ((i + 1) - mean) ** 2 for i, c in enumerate(placements)) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n), n


def bridge_counts(stats: Path) -> tuple[int, int, int]:
    """Games, decisions and default answers the bridge processes wrote to their stats file."""
    games = decisions = fallbacks = 0
    if stats.exists():
        for line in stats.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            games += 1
            decisions += int(row["decisions"])
            fallbacks += int(row["fallbacks"])
    return games, decisions, fallbacks


class Totals:
    """One pairing's results summed over the chunks it was played in."""

    def __init__(self) -> None:
        self.placements = [0, 0, 0]
        self.kyoku = 0
        self.seconds = 0.0
        self.games = 0
        self.wins = [0.0, 0.0]  # X, Y: rates weighted by kyoku (Y: seat summary 1, the seats agree)
        self.deal_ins = [0.0, 0.0]
        self.fallbacks = [0, 0]

    def add(self, r: dict[str, object]) -> None:
        seats = r["seats"]
        assert isinstance(seats, list)
        kyoku = r["kyoku"]
        seconds = r["seconds"]
        games = r["games"]
        assert isinstance(kyoku, int) and isinstance(seconds, float | int) and isinstance(games, int)
        self.placements = [a + b for a, b in zip(self.placements, seats[0]["placements"], strict=True)]
        self.kyoku += kyoku
        self.seconds += seconds
        self.games += games
        for i in (0, 1):
            self.wins[i] += seats[i]["win_rate"] * kyoku
            self.deal_ins[i] += seats[i]["deal_in_rate"] * kyoku
        self.fallbacks[0] += int(seats[0]["fallbacks"])
        self.fallbacks[1] += sum(int(s["fallbacks"]) for s in seats[1:])

    def row(self, extra: bool, stats: Path) -> str:
        """The table row from the games column on."""
        mean, half, n = interval(self.placements)
        verdict = "yes" if mean + half < 2.0 else ("no" if mean - half > 2.0 else "not significant")
        k = max(1, self.kyoku)
        row = (f"{n} | {mean:.3f} ± {half:.3f} | {verdict} | {self.wins[0] / k:.3f} | {self.wins[1] / k:.3f} "
               f"| {self.deal_ins[0] / k:.3f} | {self.deal_ins[1] / k:.3f} "
               f"| {self.games / max(self.seconds, 1e-9):.2f} |")
        if extra:
            games, decisions, defaults = bridge_counts(stats)
            row += f" {self.fallbacks[0]}/{self.fallbacks[1]} | " + (
                f"{defaults} / {decisions} ({games} bridge games) |" if games else "- |")
        return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--presets", default=None, help=f"default: {','.join(PRESETS)} (tenhou with --jansou)")
    ap.add_argument("--pairings", default=None, help="X:Y,... (default: efficient:random,defensive:efficient; "
                                                     "efficient:jansou,defensive:jansou with --jansou)")
    ap.add_argument("--bot", action="append", default=[], metavar="NAME=BOT", help="name a bot string")
    ap.add_argument("--jansou", action="store_true", help="play against jansou's SmartEfficiencyAgent")
    ap.add_argument("--chunk", type=int, default=0, help="play the games in runs of CHUNK (seeds SEED, SEED+1, ...; "
                                                         "every pairing the same), printing progress to stderr")
    ap.add_argument("--minutes", type=float, default=0, help="with --chunk: start no new chunk after this long")
    args = ap.parse_args()
    names: dict[str, str] = {}
    for spec in args.bot:
        name, sep, bot = spec.partition("=")
        if not sep or not name or not bot:
            ap.error(f"--bot wants NAME=BOT, got {spec!r}")
        names[name] = bot
    presets = args.presets or ("tenhou" if args.jansou else ",".join(PRESETS))
    pairings = args.pairings or ("efficient:jansou,defensive:jansou" if args.jansou
                                 else ",".join(f"{x}:{y}" for x, y in PAIRINGS))
    stats_dir = tempfile.TemporaryDirectory(prefix="bot_strength-")
    if args.jansou and not JANSOU_PYTHON.exists():
        ap.error(f"--jansou needs jansou's virtualenv at {JANSOU_PYTHON} (see benchmarks/README.md)")
    extra = args.jansou or bool(names)
    print("# Bot strength\n")
    print(f"Generated by `benchmarks/bot_strength.py {' '.join(shlex.quote(a) for a in sys.argv[1:])}` "
          f"on {platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}.\n")
    print(__doc__.split("\n\n", 3)[2].strip() + "\n")
    print("| preset | X vs Y | games | X average placement (95% CI) | X ahead? | X win rate | Y win rate "
          "| X deal-in | Y deal-in | games/s |" + (" sanma fallbacks X/Y | bridge default answers / decisions |"
                                                  if extra else ""))
    print("|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if extra else ""), flush=True)
    chunk = args.chunk or args.games
    deadline = time.monotonic() + 60 * args.minutes if args.minutes else math.inf
    for preset in presets.split(","):
        pairs = [(x, y) for x, _, y in (p.partition(":") for p in pairings.split(","))]
        totals = {pair: Totals() for pair in pairs}
        for k, start in enumerate(range(0, args.games, chunk)):
            if k and time.monotonic() > deadline:
                print(f"(time budget of {args.minutes:g} min reached after {start} games per pairing)",
                      file=sys.stderr)
                break
            for x, y in pairs:
                stats = Path(stats_dir.name) / f"{preset}-{x}-{y}.jsonl"
                bots = {**names, **({"jansou": jansou_bot(stats)} if args.jansou else {})}
                r = run(preset, (bots.get(x, x), bots.get(y, y), bots.get(y, y)), min(chunk, args.games - start),
                        args.seed + k, args.jobs)
                totals[(x, y)].add(r)
                if chunk < args.games:
                    print(f"{preset} {x} vs {y}: {totals[(x, y)].row(extra, stats)}", file=sys.stderr, flush=True)
        for x, y in pairs:
            stats = Path(stats_dir.name) / f"{preset}-{x}-{y}.jsonl"
            print(f"| {preset} | {x} vs {y} | {totals[(x, y)].row(extra, stats)}", flush=True)
    stats_dir.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
