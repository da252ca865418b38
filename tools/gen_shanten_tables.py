"""Write src/sanma/data/shanten_tables.npz, the compact exact-shanten tables.

    .venv/bin/python tools/gen_shanten_tables.py [--check]

The file only saves start-up time: ``sanma.shanten_table`` builds the same arrays at first use
when the file is missing (``build_tables()``), and tests/test_shanten.py checks that the saved
file equals a fresh build. ``--check`` exits 1 if the committed file is missing or stale.
"""

from __future__ import annotations

import sys

import numpy as np

from sanma.shanten_table import DATA_FILE, build_tables


def main(argv: list[str]) -> int:
    fresh = build_tables()
    if "--check" in argv:
        if not DATA_FILE.exists():
            print(f"{DATA_FILE} is missing", file=sys.stderr)
            return 1
        with np.load(DATA_FILE) as saved:
            stale = [k for k, v in fresh.items() if k not in saved or not np.array_equal(saved[k], v)]
        if stale:
            print(f"{DATA_FILE} is stale: {', '.join(stale)} differ", file=sys.stderr)
            return 1
        print(f"{DATA_FILE} is up to date")
        return 0
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(DATA_FILE, **fresh)  # type: ignore[arg-type]
    print(f"wrote {DATA_FILE} ({DATA_FILE.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
