"""Reading and replaying real records: hands per second, sanma beside jansou 0.14.0 in one run.

    .venv/bin/python benchmarks/bench_replay.py [--rounds 5]
    .venv/bin/python benchmarks/bench_replay.py --corpus [--rounds 1]

``--corpus``: replay throughput on ../shared/data/corpus (1,012 Tenhou Phoenix games re-dealt from
their seeds, 3 more games; ~9,200 hands), sanma alone in one process: kyoku per second of
reading, and of reading + replaying with every check (issue 20; docs/PERFORMANCE.md). Run it
under the heavy lock.

Inputs: every Tenhou record in ../shared/data (3 mjlog XML + 6 tenhou.net/6 JSON). For each
engine: "read" = parse the files; "replay" = parse and drive every action through the engine
(sanma: `read_record` + `replay_record`, checking every score; jansou: `parse_*` +
`replay_paifu`, which re-deals and checks every event). The peer runs in its own virtualenv
(~/.cache/sanma-bench/jansou, created as ../shared/bench/compare.sh does). Median of --rounds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"
FILES = sorted([*DATA.glob("tenhou_mjlog/*.xml"), *DATA.glob("tenhou6_json/*.json")])
JANSOU = Path.home() / ".cache" / "sanma-bench" / "jansou" / "bin" / "python"


def _median_rate(fn: object, rounds: int) -> tuple[float, int]:
    rates, hands = [], 0
    for _ in range(rounds):
        t0 = time.perf_counter()
        hands = fn()  # type: ignore[operator]
        rates.append(hands / (time.perf_counter() - t0))
    return statistics.median(rates), hands


def sanma_worker(rounds: int, files: list[Path] = FILES) -> dict[str, object]:
    from sanma.formats import read_record
    from sanma.replay import replay_record

    def read() -> int:
        return sum(len(read_record(f).kyoku) for f in files)

    def replay() -> int:
        n = 0
        for f in files:
            result = replay_record(read_record(f))
            assert not result.mismatches, result.mismatches
            n += result.kyoku
        return n

    r, hands = _median_rate(read, rounds)
    p, _ = _median_rate(replay, rounds)
    return {"read": r, "replay": p, "hands": hands, "files": [str(f) for f in files]}


def jansou_worker(rounds: int) -> dict[str, object]:
    from jansou.io.mjlog import parse_mjlog  # type: ignore[import-not-found]
    from jansou.io.replay import replay_paifu  # type: ignore[import-not-found]
    from jansou.io.tenhou_json import parse_tenhou_json  # type: ignore[import-not-found]

    def parse(f: Path) -> object:
        return parse_mjlog(f) if f.suffix == ".xml" else parse_tenhou_json(f)

    def readable(f: Path) -> bool:
        try:
            for _ in replay_paifu(parse(f)):
                pass
        except Exception:  # a record jansou cannot read or replay is left out of the comparison
            return False
        return True

    files = [f for f in FILES if readable(f)]

    def read() -> int:
        return sum(len(parse(f).rounds) for f in files)  # type: ignore[attr-defined]

    def replay() -> int:
        n = 0
        for f in files:
            paifu = parse(f)
            for _ in replay_paifu(paifu):
                pass
            n += len(paifu.rounds)  # type: ignore[attr-defined]
        return n

    r, hands = _median_rate(read, rounds)
    p, _ = _median_rate(replay, rounds)
    return {"read": r, "replay": p, "hands": hands, "files": [str(f) for f in files]}


def corpus(rounds: int) -> int:
    """Read, then read and replay, every corpus game; CPU seconds and kyoku per second."""
    from sanma import _accel
    from sanma.formats import read_record
    from sanma.replay import replay_record

    files = sorted(p for p in (DATA / "corpus").glob("*/*") if p.suffix in (".xml", ".json"))
    if not files:
        print(f"no corpus in {DATA / 'corpus'}", file=sys.stderr)
        return 2
    print(f"sanma ({'compiled' if _accel.ENABLED else 'pure Python'}): {len(files)} corpus games")
    for _ in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        records = [read_record(f) for f in files]
        c1 = time.process_time()
        kyoku = mismatches = 0
        for record in records:
            result = replay_record(record)
            kyoku += result.kyoku
            mismatches += len(result.mismatches)
        t2, c2 = time.perf_counter(), time.process_time()
        print(f"{kyoku} kyoku, {mismatches} mismatches: read {c1 - c0:.1f} s CPU ({kyoku / (c1 - c0):,.0f} kyoku/s), "
              f"replay {c2 - c1:.1f} s CPU ({kyoku / (c2 - c1):,.0f} kyoku/s), read + replay "
              f"{kyoku / (c2 - c0):,.0f} kyoku/s CPU, {kyoku / (t2 - t0):,.0f} kyoku/s wall")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=None, help="repetitions (default 5; 1 with --corpus)")
    ap.add_argument("--worker", choices=("sanma", "jansou"))
    ap.add_argument("--corpus", action="store_true", help="replay throughput on ../shared/data/corpus")
    args = ap.parse_args()
    if args.corpus:
        return corpus(args.rounds or 1)
    args.rounds = args.rounds or 5
    if args.worker:
        fn = sanma_worker if args.worker == "sanma" else jansou_worker
        print(json.dumps(fn(args.rounds)))
        return 0
    results: dict[str, dict[str, object]] = {"sanma": sanma_worker(args.rounds)}
    print(f"sanma: {len(FILES)} Tenhou records, {results['sanma']['hands']} hands, all replayed and checked")
    if JANSOU.exists():
        out = subprocess.run([str(JANSOU), __file__, "--worker", "jansou", "--rounds", str(args.rounds)],
                             capture_output=True, text=True)
        if out.returncode == 0:
            j = json.loads(out.stdout.strip().splitlines()[-1])
            common = [Path(f) for f in j["files"]]
            print(f"jansou reads and replays {len(common)} of the {len(FILES)} records "
                  f"(it rejects the rest: tenhou.net/6 sanma codes such as kita 'f44')")
            results["sanma (same files)"] = sanma_worker(args.rounds, common)
            results["jansou"] = j
        else:
            print(f"jansou failed: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
    print(f"{'engine':<20} {'hands':>6} {'read hands/s':>14} {'replay hands/s':>16}")
    for name, r in results.items():
        print(f"{name:<20} {r['hands']:>6} {r['read']:>14,.0f} {r['replay']:>16,.0f}")
    if "jansou" in results:
        s, j = results["sanma (same files)"], results["jansou"]
        print(f"ratio sanma/jansou on the same files: read {float(s['read']) / float(j['read']):.2f}x, "  # type: ignore[arg-type]
              f"replay {float(s['replay']) / float(j['replay']):.2f}x")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
