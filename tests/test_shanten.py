"""Exact shanten (issue 2 item 4): standard form, seven pairs (Y19, P73), thirteen orphans (Y26).

The table method in ``sanma.shanten_table`` is checked against references written here from the
definition, without its tables or its per-suit split:

* ``ref_distance``: a search over target hands kind by kind across the whole sanma tile set
  (how many sets start at each kind, pair or not), the number of tiles the hand lacks;
* ``exhaustive_distance``: every complete target hand listed outright (small hands only);
* seven pairs and thirteen orphans by small searches over kinds.

Shanten is the fewest tile exchanges to a complete hand with at most four copies of a kind and
only sanma tiles (P01: no 2m-8m), minus one.
"""

from __future__ import annotations

import itertools
import json
import random
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanma.errors import HandError, SanmaError, TileError
from sanma.formats import read_record
from sanma.shanten_table import (
    DATA_FILE,
    build_tables,
    discard_candidates,
    improving_tiles,
    shanten,
    shanten_batch,
    shanten_chiitoi,
    shanten_counts,
    shanten_kokushi,
    shanten_standard,
    ukeire,
)
from sanma.tiles import SANMA_KINDS, counts34, kind_name, parse_tiles
from shared_data import missing, shared_files, shared_path

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


# ---------------------------------------------------------------------------------- references
def ref_distance(counts: tuple[int, ...], sets: int) -> int:
    """Fewest tiles missing from ``counts`` for some target of ``sets`` sets and one pair.

    Walks the 27 sanma kinds in order. At each kind the target holds: runs started two and one
    kinds back (``a``, ``b``), runs started here, a triplet or not, the pair or not; the hand
    lacks max(0, target - held) of it. Runs start only at 1-7 of pinzu and souzu.
    """
    kinds = SANMA_KINDS

    @cache
    def go(i: int, a: int, b: int, sets_left: int, pair_left: int) -> int:
        if i == len(kinds):
            return 0 if (a, b, sets_left, pair_left) == (0, 0, 0, 0) else 99
        k = kinds[i]
        can_start = 9 <= k < 27 and k % 9 <= 6
        best = 99
        for run in range(sets_left + 1 if can_start else 1):
            for triplet in (0, 1):
                for pair in range(pair_left + 1):
                    used = run + triplet
                    if used > sets_left:
                        continue
                    need = a + b + run + 3 * triplet + 2 * pair
                    if need > 4:
                        continue
                    lack = max(0, need - counts[k])
                    nxt = i + 1
                    # runs in progress must continue in the next kind of the same suit
                    same_suit = nxt < len(kinds) and kinds[nxt] == k + 1 and k % 9 != 8 and k >= 9
                    if not same_suit and (b or run):
                        continue
                    rest = go(nxt, b, run, sets_left - used, pair_left - pair)
                    best = min(best, lack + rest)
        return best

    return go(0, 0, 0, sets, 1)


def _set_shapes() -> list[tuple[int, ...]]:
    shapes = []
    for k in SANMA_KINDS:
        shapes.append(tuple(3 if j == k else 0 for j in range(34)))
        if 9 <= k < 27 and k % 9 <= 6:
            shapes.append(tuple(1 if k <= j <= k + 2 else 0 for j in range(34)))
    return shapes


@cache
def all_targets(sets: int) -> np.ndarray:
    """Every complete hand of ``sets`` sets and a pair (counts <= 4), as rows of 34 counts."""
    shapes = np.array(_set_shapes(), dtype=np.int8)
    pairs = np.array([[2 if j == k else 0 for j in range(34)] for k in SANMA_KINDS], dtype=np.int8)
    combos = np.array(list(itertools.combinations_with_replacement(range(len(shapes)), sets)), dtype=np.intp)
    bases = shapes[combos].sum(axis=1, dtype=np.int8) if sets else np.zeros((1, 34), dtype=np.int8)
    rows = (bases[:, None, :] + pairs[None, :, :]).reshape(-1, 34)
    return rows[rows.max(axis=1) <= 4]  # duplicates are harmless for a minimum


def exhaustive_distance(counts: tuple[int, ...], sets: int) -> int:
    diff = all_targets(sets) - np.array(counts, dtype=np.int8)
    return int(np.maximum(diff, 0).sum(axis=1).min())


def ref_chiitoi(counts: tuple[int, ...], four_ok: bool) -> int:
    """Seven pairs: choose pairs kind by kind (a kind gives one pair, or two if ``four_ok``)."""

    @cache
    def go(i: int, left: int) -> int:
        if left == 0:
            return 0
        if i == len(SANMA_KINDS):
            return 99
        held = counts[SANMA_KINDS[i]]
        best = go(i + 1, left)
        best = min(best, max(0, 2 - held) + go(i + 1, left - 1))
        if four_ok and left >= 2:
            best = min(best, max(0, 4 - held) + go(i + 1, left - 2))
        return best

    return go(0, 7) - 1


def ref_kokushi(counts: tuple[int, ...]) -> int:
    """Thirteen orphans: one of each terminal and honour, one of them twice."""
    return min(
        sum(max(0, (2 if k == pair else 1) - counts[k]) for k in ORPHANS) for pair in ORPHANS
    ) - 1


def ref_shanten(counts: tuple[int, ...], melds: int, four_ok: bool = False) -> int:
    s = ref_distance(counts, 4 - melds) - 1
    if melds == 0:
        s = min(s, ref_chiitoi(counts, four_ok), ref_kokushi(counts))
    return s


# ---------------------------------------------------------------------------------- strategies
WALL = [k for k in SANMA_KINDS for _ in range(4)]


def _counts(kinds: list[int]) -> tuple[int, ...]:
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    return tuple(c)


@st.composite
def random_hands(draw: st.DrawFn, sizes: tuple[int, ...] = SIZES) -> tuple[tuple[int, ...], int]:
    """Any draw from the 108-tile sanma wall, of a size a hand can have (melds inferred)."""
    size = draw(st.sampled_from(sizes))
    idx = draw(st.lists(st.integers(0, len(WALL) - 1), min_size=size, max_size=size, unique=True))
    return _counts([WALL[i] for i in idx]), (14 - size) // 3


@st.composite
def near_complete_hands(draw: st.DrawFn, sizes: tuple[int, ...] = SIZES) -> tuple[tuple[int, ...], int]:
    """A complete hand (sets + pair) with a few tiles exchanged: mostly shanten -1..2."""
    size = draw(st.sampled_from(sizes))
    melds = (14 - size) // 3
    shapes = _set_shapes()
    c = [0] * 34
    for _ in range(4 - melds):
        s = draw(st.sampled_from(shapes))
        if all(c[j] + s[j] <= 4 for j in range(34)):
            for j in range(34):
                c[j] += s[j]
    pair = draw(st.sampled_from(SANMA_KINDS))
    if c[pair] <= 2:
        c[pair] += 2
    rnd = random.Random(draw(st.integers(0, 2**32)))
    # exchange a few tiles and trim to size (a 13-tile hand is a complete 14 minus one)
    for _ in range(min(sum(c), draw(st.integers(0, 3)) + max(0, sum(c) - size))):
        c[rnd.choice([k for k in SANMA_KINDS if c[k]])] -= 1
    while sum(c) < size:
        k = rnd.choice([k for k in SANMA_KINDS if c[k] < 4])
        c[k] += 1
    return tuple(c), melds


@st.composite
def pair_or_orphan_hands(draw: st.DrawFn) -> tuple[tuple[int, ...], int]:
    """Closed hands close to seven pairs or thirteen orphans (where those forms win)."""
    size = draw(st.sampled_from((13, 14)))
    if draw(st.booleans()):  # orphans: mostly terminals and honours
        pool = [k for k in ORPHANS for _ in range(4)]
        extra = draw(st.integers(0, 4))
        idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size - extra, max_size=size - extra, unique=True))
        kinds = [pool[i] for i in idx]
    else:  # pairs: up to seven pairs, some of them fours
        kinds = []
        for k in draw(st.lists(st.sampled_from(SANMA_KINDS), min_size=3, max_size=7, unique=True)):
            kinds += [k] * draw(st.sampled_from((2, 2, 2, 3, 4)))
        kinds = kinds[:size]
    c = list(_counts(kinds))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    while sum(c) < size:
        k = rnd.choice([k for k in SANMA_KINDS if c[k] < 4])
        c[k] += 1
    return tuple(c), 0


hands = st.one_of(random_hands(), near_complete_hands(), pair_or_orphan_hands())


# ---------------------------------------------------------------------------------- known cases
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("19m19p19s1234567z", 0),  # the public contract: kokushi 13-sided wait (Y26)
        ("19m19p19s12345677z", -1),  # kokushi complete
        ("11m123p456789s111z", -1),  # four sets and a pair
        ("123p456p789s99m11z", 0),  # shanpon: 9m / 1z
        ("123456789p1234s", 0),  # 1s / 4s
        ("1122p3344s5566z7z", 0),  # seven pairs tenpai (Y19)
        ("1111p234567999s", 1),  # the only wait would be a fifth 1p: not tenpai
        ("1111z234567p999s", 1),  # same with honours
        ("1m137889p1357s25z", 3),  # first hand of shared/bench/shanten.json, counted by hand below
        ("19m1p1s1234567z55p", 2),  # kokushi lacking 9p and 9s; 55p is no orphan pair
        ("1m", 0),  # four melds called: tanki
        ("1m1f", 0),  # flowers are ignored
        ("99m", -1),
        ("19m", 0),
        ("1111p", 1),  # three melds: a pair and a set from 1111p needs a new tile
        ("111p2s", 0),  # 2s tanki
    ],
)
def test_known_shanten_values(hand: str, expected: int) -> None:
    assert shanten(hand) == expected
    c = tuple(counts34(parse_tiles(hand)))
    assert ref_shanten(c, (14 - sum(c)) // 3) == expected  # the references agree with the list


def test_bench_first_hand_by_hand() -> None:
    """1m 137889p 1357s 2z5z: 789p, 13p/88p/35s/13s shapes give 3-shanten (8 - 2*1 - 3 = 3)."""
    assert shanten("1m137889p1357s25z") == 3


def test_red_fives_count_as_fives() -> None:
    assert shanten("123p406p789s111z99m") == shanten("123p456p789s111z99m") == -1
    assert shanten("0p0s") == shanten("5p5s") == 0  # 5p + 5s is no pair
    assert shanten("0p5p") == shanten("55p") == -1
    assert shanten("0s5s") == -1


def test_melds_given_or_inferred() -> None:
    assert shanten("123p456s789s11z", melds=1) == shanten("123p456s789s11z") == -1
    assert shanten("1p", melds=4) == 0
    with pytest.raises(HandError, match="1 called meld"):
        shanten("19m19p19s1234567z", melds=1)


# ---------------------------------------------------------------------------------- exactness
@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands)
def test_standard_shanten_equals_search_reference(hand: tuple[tuple[int, ...], int]) -> None:
    """Standard form (4 - melds sets + a pair) for every hand size, with and without melds."""
    counts, melds = hand
    assert shanten_standard(counts, melds) == ref_distance(counts, 4 - melds) - 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(random_hands((1, 2, 4, 5, 7, 8)), near_complete_hands((1, 2, 4, 5, 7, 8))))
def test_standard_shanten_equals_every_target_listed(hand: tuple[tuple[int, ...], int]) -> None:
    """Small hands (2-4 melds called): against every complete target hand, listed outright."""
    counts, melds = hand
    assert shanten_standard(counts, melds) == exhaustive_distance(counts, 4 - melds) - 1


@settings(max_examples=40, deadline=None)
@given(random_hands((10, 11)))
def test_one_meld_equals_every_target_listed(hand: tuple[tuple[int, ...], int]) -> None:
    counts, melds = hand
    assert shanten_standard(counts, melds) == exhaustive_distance(counts, 3) - 1


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands, st.booleans())
def test_shanten_is_min_of_the_three_forms(hand: tuple[tuple[int, ...], int], four_ok: bool) -> None:
    """Seven pairs and kokushi count only without called melds; P73 switches four-of-a-kind."""
    counts, melds = hand
    expected = ref_shanten(counts, melds, four_ok)
    assert shanten_counts(counts, chiitoi_four_ok=four_ok) == expected
    assert shanten(list(counts), chiitoi_four_ok=four_ok) == expected
    notation = "".join(kind_name(k) for k in range(34) for _ in range(counts[k]))
    assert shanten(notation, chiitoi_four_ok=four_ok) == expected


# ---------------------------------------------------------------------------------- seven pairs
def test_p73_four_of_a_kind_is_not_two_pairs_by_default() -> None:
    """P73: Tenhou / Mahjong Soul: 1111p is one pair; with the house rule it is two."""
    hand = "1111p2233s445566z"
    assert shanten(hand) == 1
    assert shanten(hand, chiitoi_four_ok=True) == -1
    c = counts34(parse_tiles(hand))
    assert shanten_chiitoi(c) == 1
    assert shanten_chiitoi(c, chiitoi_four_ok=True) == -1


def test_p73_seven_pairs_beats_a_tenpai_standard_form() -> None:
    """11m 99m 11p 22p 33p 4444p: standard form tenpai (0), seven pairs with a four complete (P73)."""
    hand = "11m99m1122334444p"
    c = counts34(parse_tiles(hand))
    assert shanten_standard(c) == 0
    assert shanten(hand) == shanten_counts(c) == 0
    assert shanten(hand, chiitoi_four_ok=True) == shanten_counts(c, chiitoi_four_ok=True) == -1
    assert shanten_batch(np.array([c]), chiitoi_four_ok=True).tolist() == [-1]
    c13 = counts34(parse_tiles("11m99m112233444p"))
    assert 12 in improving_tiles(c13, chiitoi_four_ok=True)  # the fourth 4p completes


def test_p73_tenpai_with_a_four_and_a_three() -> None:
    """1111p 222s 33s 44z 55z: five distinct pairs, two kinds to find → 3; four ok → 0 (6 pairs, 222s)."""
    c = counts34(parse_tiles("1111p22233s4455z"))
    assert shanten_chiitoi(c) == 3
    assert shanten_chiitoi(c, chiitoi_four_ok=True) == 0


@settings(max_examples=300, deadline=None)
@given(random_hands((13, 14)), st.booleans())
def test_y19_seven_pairs_equals_reference(hand: tuple[tuple[int, ...], int], four_ok: bool) -> None:
    counts, _ = hand
    assert shanten_chiitoi(counts, chiitoi_four_ok=four_ok) == ref_chiitoi(counts, four_ok)


def test_seven_pairs_and_kokushi_need_a_closed_hand() -> None:
    """With a called meld only the standard form counts: five pairs are not 1-shanten here."""
    c = counts34(parse_tiles("1122p3344s55z"))
    assert shanten(c) == shanten_standard(c) == ref_distance(tuple(c), 3) - 1 == 2
    with pytest.raises(HandError, match="10 tiles"):
        shanten_chiitoi(c)
    with pytest.raises(HandError, match="10 tiles"):
        shanten_kokushi(c)


# ---------------------------------------------------------------------------------- kokushi
@pytest.mark.parametrize(
    ("hand", "expected"),
    [("19m19p19s1234567z", 0), ("19m19p19s12345677z", -1), ("19m19p19s123456z5p", 1),
     ("11m19p19s123456z5p", 1), ("123456789p1234s", 10)],
)
def test_y26_kokushi(hand: str, expected: int) -> None:
    c = counts34(parse_tiles(hand))
    assert shanten_kokushi(c) == expected == ref_kokushi(tuple(c))


@settings(max_examples=200, deadline=None)
@given(random_hands((13, 14)))
def test_y26_kokushi_equals_reference(hand: tuple[tuple[int, ...], int]) -> None:
    assert shanten_kokushi(hand[0]) == ref_kokushi(hand[0])


# ---------------------------------------------------------------------------------- batch
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hands, min_size=1, max_size=40), st.booleans())
def test_batch_equals_single(rows: list[tuple[tuple[int, ...], int]], four_ok: bool) -> None:
    arr = np.array([c for c, _ in rows], dtype=np.uint8)
    single = [shanten_counts(c, chiitoi_four_ok=four_ok) for c, _ in rows]
    assert shanten_batch(arr, chiitoi_four_ok=four_ok).tolist() == single
    melds = np.array([m for _, m in rows])
    assert shanten_batch(arr.astype(np.int64), melds, chiitoi_four_ok=four_ok).tolist() == single


def test_batch_melds_as_int_and_bench_hands() -> None:
    data = json.loads(shared_path("bench", "shanten.json").read_text())
    arr = np.array([h["tiles34"] for h in data], dtype=np.uint8)
    out = shanten_batch(arr, 0)
    assert out.dtype == np.int8
    assert out.tolist() == [shanten(h["notation"]) for h in data]
    assert shanten_batch(np.zeros((0, 34), dtype=np.uint8)).shape == (0,)


def test_batch_larger_than_one_chunk() -> None:
    """Big batches run in chunks; results and error row numbers are those of the whole array."""
    data = json.loads(shared_path("bench", "shanten.json").read_text())
    arr = np.array([h["tiles34"] for h in data] * 3, dtype=np.uint8)
    single = [shanten(h["notation"]) for h in data] * 3
    assert shanten_batch(arr).tolist() == single
    assert shanten_batch(arr, np.zeros(len(arr), dtype=np.int64)).tolist() == single
    arr[8000] = counts34(parse_tiles("19m19p19s123456z"))
    with pytest.raises(HandError, match=r"row 8000 .* 12 tiles"):
        shanten_batch(arr)


def test_batch_bad_rows_raise_hand_error_naming_the_row() -> None:
    arr = np.array([counts34(parse_tiles("19m19p19s1234567z"))] * 3, dtype=np.uint8)
    arr[2, 9] = 5
    with pytest.raises(HandError, match=r"row 2 .* 5 copies of 1p"):
        shanten_batch(arr)
    arr[2, 9] = 0
    with pytest.raises(HandError, match=r"row 2 .* 12 tiles"):
        shanten_batch(arr)
    arr[2, 3] = 1
    with pytest.raises(HandError, match=r"row 2 .* 4m is not in the sanma tile set"):
        shanten_batch(arr)
    with pytest.raises(HandError, match=r"\(N, 34\)"):
        shanten_batch(np.zeros((2, 27), dtype=np.uint8))
    with pytest.raises(HandError, match=r"row 0 .* 1 called meld"):
        shanten_batch(arr[:1], 1)


# ---------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("hand", "fragment"),
    [
        ("19m19p19s123456z", "12 tiles"),
        ("19m19p19s1234567z55p", "15 tiles"),
        ("11111p19s1234567z", "5 copies of 1p"),
        ("111p11p19s1234567z", "5 copies of 1p"),  # the same kind written in two places
        ("0p0p0p55p19s123456z", "5 copies of 5p"),  # red fives are fives
        ("", "0 tiles"),
        ("1f2f", "0 tiles"),
    ],
)
def test_wrong_hands_raise_hand_error_naming_the_hand(hand: str, fragment: str) -> None:
    with pytest.raises(HandError) as info:
        shanten(hand)
    assert fragment in str(info.value)
    assert repr(hand) in str(info.value)


@pytest.mark.parametrize("hand", ["123m456p789s11z99m", "8z", "1m 2", "19x", "0m"])
def test_bad_tiles_raise_tile_error(hand: str) -> None:
    with pytest.raises(TileError) as info:
        shanten(hand)
    assert repr(hand) in str(info.value)


@pytest.mark.parametrize(
    ("counts", "fragment"),
    [
        ([0, 1] + [0] * 32, "2m is not in the sanma tile set"),
        ([5] + [0] * 33, "5 copies of 1m"),
        ([0] * 33, "expected 34 tile counts"),
        ([1] * 13 + [0] * 21, "2m is not"),
        ([-1] + [0] * 33, "-1 copies of 1m"),
        ([1.0] + [0] * 33, "integer tile counts"),
        ([1, 0, 0, 0, 0, 0, 0, 0, 1, 1] + [0] * 24, "3 tiles"),
        ([1] * 9 + [0] * 25, "not in the sanma tile set"),
    ],
)
def test_wrong_counts_raise_hand_error(counts: list[float], fragment: str) -> None:
    with pytest.raises(HandError) as info:
        shanten_counts(counts)  # type: ignore[arg-type]
    assert fragment in str(info.value)
    assert "counts [" in str(info.value)


def test_numpy_counts_are_accepted() -> None:
    c = np.array(counts34(parse_tiles("19m19p19s1234567z")), dtype=np.uint8)
    assert shanten_counts(c) == shanten(c) == 0  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- parser fuzz
@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="01234567899mpszf  é１Ā", max_size=24), st.booleans())
def test_string_path_agrees_with_the_strict_parser(text: str, four_ok: bool) -> None:
    """Any text, non-ASCII too: the fast string path gives what parse_tiles + counts give, or the same error."""
    try:
        counts = counts34(parse_tiles(text))
        expected: int | type[SanmaError] = shanten_counts(counts, chiitoi_four_ok=four_ok)
    except SanmaError as e:
        expected = type(e)
    if isinstance(expected, int):
        assert shanten(text, chiitoi_four_ok=four_ok) == expected
    else:
        with pytest.raises(expected):
            shanten(text, chiitoi_four_ok=four_ok)


@settings(max_examples=200, deadline=None)
@given(hands, st.randoms(use_true_random=False), st.integers(0, 4))
def test_any_tile_order_and_spacing(hand: tuple[tuple[int, ...], int], rnd: random.Random, flowers: int) -> None:
    counts, _ = hand
    names = [kind_name(k) for k in range(34) for _ in range(counts[k])] + [f"{i + 1}f" for i in range(flowers)]
    rnd.shuffle(names)
    sep = rnd.choice(["", " "])
    assert shanten(sep.join(names)) == shanten_counts(counts)


# ---------------------------------------------------------------------------------- bots' helpers
def _drop_one(counts: tuple[int, ...]) -> tuple[int, ...]:
    """A 13-tile hand from a 13- or 14-tile one."""
    c = list(counts)
    if sum(c) == 14:
        c[max(range(34), key=lambda k: c[k])] -= 1
    return tuple(c)


def _ref_improving(counts: tuple[int, ...], four_ok: bool = False) -> tuple[int, ...]:
    melds = (14 - sum(counts) - 1) // 3
    base = ref_shanten(counts, melds, four_ok)
    out = []
    for k in SANMA_KINDS:
        if counts[k] < 4:
            c = list(counts)
            c[k] += 1
            if ref_shanten(tuple(c), melds, four_ok) < base:
                out.append(k)
    return tuple(out)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(random_hands((1, 4, 7, 10, 13)), near_complete_hands((1, 4, 7, 10, 13)),
                 pair_or_orphan_hands().map(lambda h: (_drop_one(h[0]), 0))), st.booleans())
def test_improving_tiles_and_ukeire(hand: tuple[tuple[int, ...], int], four_ok: bool) -> None:
    counts, melds = hand
    assert improving_tiles(counts, chiitoi_four_ok=four_ok) == _ref_improving(counts, four_ok)
    expected = _ref_improving(counts)
    assert improving_tiles(counts) == improving_tiles(counts, melds) == expected
    assert ukeire(counts) == sum(4 - counts[k] for k in expected)
    seen = [0] * 34
    for k in expected[:3]:
        seen[k] = 4  # all gone: those kinds no longer count
    assert ukeire(counts, visible=seen) == sum(max(0, 4 - counts[k] - seen[k]) for k in expected)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(random_hands((1, 4, 7, 10, 13)), near_complete_hands((1, 4, 7, 10, 13)),
                 pair_or_orphan_hands().map(lambda h: (_drop_one(h[0]), 0))), st.booleans())
def test_improving_tiles_equal_recomputing_every_draw(hand: tuple[tuple[int, ...], int], four_ok: bool) -> None:
    """The incremental draw updates (one group key, pair/orphan facts) equal a full recount."""
    counts, _ = hand
    base = shanten_counts(counts, chiitoi_four_ok=four_ok)
    expected = tuple(
        k for k in SANMA_KINDS
        if counts[k] < 4
        and shanten_counts([n + (i == k) for i, n in enumerate(counts)], (13 - sum(counts)) // 3,
                           chiitoi_four_ok=four_ok) < base
    )
    assert improving_tiles(counts, chiitoi_four_ok=four_ok) == expected


def test_improving_tiles_known() -> None:
    c = counts34(parse_tiles("123456789p1234s"))
    assert [kind_name(k) for k in improving_tiles(c)] == ["1s", "4s"]
    assert ukeire(c) == 6
    assert 1 not in improving_tiles(c)  # never a 2m
    four = counts34(parse_tiles("1111p234567999s"))
    assert 9 not in improving_tiles(four)  # no fifth 1p
    assert improving_tiles(four) == _ref_improving(tuple(four))


def test_helpers_reject_wrong_sizes() -> None:
    with pytest.raises(HandError, match="waiting for a draw"):
        improving_tiles(counts34(parse_tiles("19m19p19s12345677z")))
    with pytest.raises(HandError, match="after a draw"):
        discard_candidates(counts34(parse_tiles("19m19p19s1234567z")))
    with pytest.raises(HandError, match="visible"):
        ukeire(counts34(parse_tiles("19m19p19s1234567z")), visible=[0] * 10)


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(random_hands((2, 5, 8, 11, 14)), near_complete_hands((2, 5, 8, 11, 14))))
def test_discard_candidates(hand: tuple[tuple[int, ...], int]) -> None:
    counts, melds = hand
    options = discard_candidates(counts, melds)
    assert [o.kind for o in options] == [k for k in SANMA_KINDS if counts[k]]
    for o in options:
        c = list(counts)
        c[o.kind] -= 1
        assert o.shanten == ref_shanten(tuple(c), melds)
        assert o.ukeire == sum(4 - c[k] for k in _ref_improving(tuple(c)))


def test_discard_candidates_known() -> None:
    best = min(discard_candidates(counts34(parse_tiles("123456789p1234s7z"))), key=lambda d: (d.shanten, -d.ukeire))
    assert (kind_name(best.kind), best.shanten, best.ukeire) == ("7z", 0, 6)


# ---------------------------------------------------------------------------------- real games
def _recorded_wins() -> list[Any]:
    pats = ["tenhou_mjlog/*.xml", "tenhou6_json/*.json", "majiang_json/*.json", "majsoul_tenhou6_json/*.json",
            "majsoul_mjai_excerpt/*.jsonl"]
    return [w for path in shared_files(*pats) for w in read_record(path).wins()]


def test_every_recorded_win_is_complete_and_was_tenpai() -> None:
    """Real Tenhou / Mahjong Soul sanma wins: the hand is -1, without the winning tile 0 and the
    winning tile is among the improving tiles (closed and open hands, kita not counted as melds)."""
    wins = _recorded_wins()
    if not wins:
        missing("the record folders")
    for w in wins:
        melds = len(w.melds)
        hand, win = w.hand, w.win
        assert shanten(hand, melds=melds) == -1, (hand, w.melds)
        c = counts34(parse_tiles(hand))
        k = parse_tiles(win)[0].kind
        c[k] -= 1
        assert shanten_counts(c, melds) == 0, (hand, win)
        assert k in improving_tiles(c, melds), (hand, win)
    assert len(wins) >= 50


# ---------------------------------------------------------------------------------- tables
def test_generated_table_file_equals_a_fresh_build() -> None:
    """src/sanma/data/shanten_tables.npz is what tools/gen_shanten_tables.py computes today."""
    fresh = build_tables()
    with np.load(DATA_FILE) as saved:
        assert sorted(saved.files) == sorted(fresh)
        for name, arr in fresh.items():
            assert np.array_equal(saved[name], arr), name
    # spot-check the suit table against the search reference on single-suit hands
    rnd = random.Random(7)
    for _ in range(30):
        c = [0] * 34
        for k in rnd.sample([9 + i for i in range(9) for _ in range(4)], rnd.choice((2, 5, 8))):
            c[k] += 1
        melds = (14 - sum(c)) // 3
        assert shanten_standard(c, melds) == ref_distance(tuple(c), 4 - melds) - 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(random_hands((1, 4, 7, 10, 13)), near_complete_hands((1, 4, 7, 10, 13))),
                min_size=1, max_size=12), st.booleans(), st.integers(0, 2**32 - 1))
def test_ukeire_batch_equals_ukeire_row_by_row(hands: list[tuple[tuple[int, ...], int]], four_ok: bool,
                                               seed: int) -> None:
    """The batch acceptance (issue 21 item 3) is ukeire and shanten_counts of each row, visible tiles too."""
    from sanma.shanten_table import ukeire_batch

    rng = random.Random(seed)
    rows = [list(c) for c, _ in hands]
    melds = [m for _, m in hands]
    seen = [[rng.randint(0, 4 - c[k]) if k in SANMA_KINDS else 0 for k in range(34)] for c in rows]
    s, u = ukeire_batch(np.array(rows), np.array(melds), np.array(seen), chiitoi_four_ok=four_ok)
    for i, c in enumerate(rows):
        assert s[i] == shanten_counts(c, melds[i], chiitoi_four_ok=four_ok)
        assert u[i] == ukeire(c, melds[i], seen[i], chiitoi_four_ok=four_ok)
