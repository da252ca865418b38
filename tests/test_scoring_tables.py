"""The suit-pattern table file (src/sanma/data/suit_parts.marshal.zlib, written by
tools/gen_suit_table.py) and the scorer's use of it."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sanma
from sanma import agari, hand
from sanma.agari import (
    SUIT_MASK,
    TABLE_DIGITS,
    TABLE_FILE,
    WAIT_NAMES,
    SuitPart,
    build_table,
    complete_suit_keys,
    load_table,
    read_table_file,
    suit_parts,
)
from sanma.tiles import Tile, parse_tiles, sanma_wall, to_mpsz

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_generated_table_file_equals_a_fresh_build() -> None:
    """The committed file is what tools/gen_suit_table.py computes today."""
    saved = read_table_file()
    assert saved is not None, f"{TABLE_FILE} is missing: run tools/gen_suit_table.py"
    assert saved == build_table()


@pytest.mark.slow
def test_gen_tool_check_passes() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_suit_table.py"), "--check"],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr


def test_complete_patterns_are_all_there() -> None:
    assert len(complete_suit_keys(1)) == len(complete_suit_keys(2)) == 21_743  # the empty suit included
    assert len(complete_suit_keys(3)) == 498
    assert len(complete_suit_keys(0)) == 8
    # brute force over every pinzu pattern of at most 14 tiles: complete exactly when it splits
    fresh: dict[int, tuple[SuitPart, ...]] = {}
    complete = set(complete_suit_keys(1))
    rnd = random.Random(3)
    for _ in range(3000):
        counts = [0] * 9
        for k in rnd.sample([i for i in range(9) for _ in range(4)], rnd.choice((2, 3, 5, 6, 8, 9, 11, 12, 14))):
            counts[k] += 1
        key = sum(c << 3 * i for i, c in enumerate(counts))
        assert bool(agari._split(key, 9, True, True, fresh)) == (key in complete), counts


def _fresh_parts(suit: int, key: int) -> tuple[SuitPart, ...]:
    return tuple(agari._with_waits(p, suit * 9) for p in agari._split(key, suit * 9, suit < 3, True, {}))


@pytest.mark.parametrize("suit", [0, 1, 2, 3])
def test_table_parts_equal_a_fresh_split(suit: int) -> None:
    load_table()
    keys = complete_suit_keys(suit)
    rnd = random.Random(suit)
    for key in rnd.sample(keys, min(len(keys), 400)):
        parts = suit_parts(suit, key)
        assert parts == _fresh_parts(suit, key), (suit, oct(key))
        assert all(type(p) is SuitPart for p in parts)
        # the scorer compares wait names with `is`
        for p in parts:
            for placements in p.waits:
                for name, _ in placements:
                    assert any(name is w for w in WAIT_NAMES), name


def test_table_digits_read_as_the_strict_parser() -> None:
    load_table()
    for suit, table, letter in ((0, TABLE_DIGITS[0], "m"), (1, TABLE_DIGITS[1], "p"), (2, TABLE_DIGITS[1], "s"),
                                (3, TABLE_DIGITS[2], "z")):
        rnd = random.Random(suit)
        for digits in rnd.sample(sorted(table), min(len(table), 300)):
            read = hand.parse_concealed(digits + letter)
            tiles = parse_tiles(digits + letter)
            assert read is not None
            key, n, red_p, red_s, _, *suit_keys = read
            assert n == len(tiles) and red_p == red_s == 0
            assert key == sum(1 << 3 * t.kind for t in tiles)
            assert suit_keys == [key >> 27 * s & SUIT_MASK for s in range(4)]


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789mpszf ", max_size=24))
def test_the_fast_reader_agrees_with_the_strict_parser(text: str) -> None:
    """parse_concealed reads a string exactly as parse_tiles does, or leaves it to the strict parser."""
    read = hand.parse_concealed(text)
    if read is None:
        return
    tiles = parse_tiles(text)  # the fast reader accepted it: the strict parser must too
    key, n, red_p, red_s, flowers, *suit_keys = read
    assert (n, flowers) == (len(tiles), False)
    assert key == sum(1 << 3 * t.kind for t in tiles)
    assert suit_keys == [key >> 27 * s & SUIT_MASK for s in range(4)]  # the scorer's suit lookups
    assert hand.concealed_from_tiles(tiles) == read
    assert (red_p, red_s) == (sum(t.red and t.kind == 13 for t in tiles), sum(t.red and t.kind == 22 for t in tiles))
    assert max(Counter(t.kind for t in tiles).values(), default=0) <= 4


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from([t for t in sanma_wall({13: 1, 22: 1}, 0)]), max_size=14))
def test_the_fast_reader_reads_every_hand_in_usual_notation(tiles: list[Tile]) -> None:
    text = to_mpsz(tiles)
    counts = Counter(t.kind for t in tiles)
    read = hand.parse_concealed(text)
    if max(counts.values(), default=0) > 4:
        assert read is None
        return
    assert read is not None
    assert read[0] == sum(c << 3 * k for k, c in counts.items()) and read[1] == len(tiles)


def test_a_bad_file_is_ignored(tmp_path: Path) -> None:
    bad = tmp_path / "x.marshal.zlib"
    bad.write_bytes(b"not zlib")
    assert read_table_file(str(bad)) is None
    assert read_table_file(str(tmp_path / "missing")) is None


def test_import_does_not_read_the_table() -> None:
    code = "import sanma, sanma.agari as a; assert not a.table_loaded(); " \
           "sanma.score_hand('123456789p11s222z', win='1s', tsumo=True, seat_wind='S'); assert a.table_loaded()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr


def test_scores_without_the_table_are_the_same() -> None:
    """The fallback (no file: every pattern split at first use) scores exactly as the table."""
    rnd = random.Random(11)
    hands: list[tuple[str, str, bool]] = []
    number = [9 + i for i in range(9)] + [18 + i for i in range(9)]
    while len(hands) < 300:
        counts = [0] * 34
        for _ in range(4):
            if rnd.random() < 0.6:
                k = rnd.choice(number[:7] + number[9:16])
                for j in range(3):
                    counts[k + j] += 1
            else:
                counts[rnd.choice([0, 8, *number, *range(27, 34)])] += 3
        counts[rnd.choice([0, 8, *number, *range(27, 34)])] += 2
        if max(counts) > 4:
            continue
        text = "".join(
            "".join(str(k - lo + 1) * counts[k] for k in range(lo, hi)) + letter
            for lo, hi, letter in ((0, 9, "m"), (9, 18, "p"), (18, 27, "s"), (27, 34, "z"))
            if any(counts[lo:hi]))
        win = rnd.choice([k for k in range(34) if counts[k]])
        hands.append((text, f"{win % 9 + 1}{'mpsz'[win // 9]}", rnd.random() < 0.5))

    def run() -> list[object]:
        out: list[object] = []
        for text, win, tsumo in hands:
            try:
                out.append(sanma.score_hand(text, win=win, tsumo=tsumo, riichi=True, seat_wind="S"))
            except sanma.SanmaError as e:
                out.append((type(e), str(e)))
        return out

    with_table = run()
    assert agari.table_loaded()
    # Empty the table and every cache in place (the compiled modules hold these dicts as constants).
    caches = [*agari.SUIT_PARTS, *agari._TABLE_PARTS, *agari.TABLE_DIGITS]
    saved = [dict(m) for m in caches]
    try:
        for m in caches:
            m.clear()
        without = run()
    finally:
        for m, kept in zip(caches, saved, strict=True):
            m.clear()
            m.update(kept)
    assert without == with_table
    assert sum(isinstance(s, sanma.Score) for s in with_table) > 100
