"""Write src/sanma/data/suit_parts.marshal.zlib, every complete suit pattern already split.

    .venv/bin/python tools/gen_suit_table.py [--check]

The file only saves time on the first meeting of each suit pattern: ``sanma.agari`` splits a
pattern at first use when the file is missing (``build_table()``), and
tests/test_scoring_tables.py checks that the saved file equals a fresh build. ``--check`` exits
1 if the committed file is missing or stale.
"""

from __future__ import annotations

import os
import sys

from sanma.agari import TABLE_FILE, build_table, read_table_file, write_table_file


def main(argv: list[str]) -> int:
    if "--check" in argv:
        saved = read_table_file()
        if saved is None:
            print(f"{TABLE_FILE} is missing or of another version", file=sys.stderr)
            return 1
        if saved != build_table():
            print(f"{TABLE_FILE} is stale", file=sys.stderr)
            return 1
        print(f"{TABLE_FILE} is up to date")
        return 0
    os.makedirs(os.path.dirname(TABLE_FILE), exist_ok=True)
    size = write_table_file()
    print(f"wrote {TABLE_FILE} ({size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
