"""Side-by-side benchmark: sanma beside mahjong 2.1.0, riichienv 0.4.11 and jansou 0.14.0.

    .venv/bin/python benchmarks/run.py [--selfplay] [--python PY]      (or: make bench)

Runs ``../shared/bench/compare.sh PY "score shanten"`` (plus ``selfplay`` with ``--selfplay``)
from the project root, prints its table as it comes, then the ratios that count, all from the
same run: sanma / mahjong and sanma / riichienv per task (absolute rates vary by machine and load).
compare.sh makes the peers' virtualenvs on first use (``$SANMA_BENCH_CACHE``, default
``~/.cache/sanma-bench``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPARE = ROOT.parent / "shared" / "bench" / "compare.sh"


def parse(lines: list[str]) -> dict[str, dict[str, float]]:
    """task → engine → rate, from compare.sh's table (``task engine rate unit``)."""
    rates: dict[str, dict[str, float]] = {}
    for line in lines:
        fields = line.split()
        if len(fields) < 3 or fields[0] == "task" or fields[2] == "failed":
            continue
        try:
            rates.setdefault(fields[0], {})[fields[1]] = float(fields[2].replace(",", ""))
        except ValueError:
            continue
    return rates


def ratios(rates: dict[str, dict[str, float]]) -> list[str]:
    out = []
    for task, by_engine in rates.items():
        sanma = by_engine.get("sanma")
        parts = []
        for peer in ("mahjong", "riichienv", "jansou"):
            if sanma is not None and by_engine.get(peer):
                parts.append(f"sanma/{peer} {sanma / by_engine[peer]:.2f}x")
        out.append(f"{task:<9} " + ("  ".join(parts) if parts else "(no ratio: sanma or peers missing)"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--selfplay", action="store_true", help="also time self-play games")
    ap.add_argument("--python", default=".venv/bin/python", help="sanma's Python (relative to the project root)")
    args = ap.parse_args()
    if not COMPARE.exists():
        print(f"{COMPARE} not found", file=sys.stderr)
        return 2
    tasks = "score shanten selfplay" if args.selfplay else "score shanten"
    cmd = [str(COMPARE), args.python, tasks]
    print("$ (cd " + str(ROOT) + " && " + " ".join(f'"{c}"' if " " in c else c for c in cmd) + ")", flush=True)
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    code = proc.wait()
    print()
    for line in ratios(parse(lines)):
        print(line)
    return code


if __name__ == "__main__":
    sys.exit(main())
