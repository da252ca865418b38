"""Exact shanten for sanma hands, table-based, with a numpy batch API.

Shanten is the number of tiles a hand is away from tenpai: ``-1`` for a complete hand, ``0``
for tenpai. Here it is *exact*: the minimum number of tile exchanges that turn the hand into a
complete hand (four sets and a pair, seven pairs, or thirteen orphans), minus one, where the
complete hand may hold at most four copies of a kind and only tiles of the sanma set
(no 2m–8m). So a hand whose only wait is a tile it already holds four of is not tenpai.

>>> shanten("19m19p19s1234567z")      # thirteen-sided kokushi wait
0
>>> shanten("11m123p456789s111z")     # complete
-1
>>> shanten("1111p234567999s")        # 1111p waits on a fifth 1p: not tenpai
1
>>> shanten("1111p", melds=3)         # three melds called: a pair and a set from these
1

How it works. In sanma, manzu holds only 1m and 9m, which can form no run, so the hand splits
into three groups: pinzu, souzu (nine kinds, runs possible) and the *isolated* kinds (1m, 9m and
the seven honours). For each group and each (number of sets m = 0..4, pair used p = 0/1) a table
gives the fewest tiles that must be added to the group so that it contains m sets and p pairs.
Whole-hand shanten is the min-plus combination of the three group vectors for the number of sets
the hand still needs (tomohxx's method). The pinzu/souzu tables are indexed by the suit's nine
counts packed base 5 (``5**9`` keys), and so is the isolated group (whose vector only depends
on how many kinds hold 1, 2, 3 or 4 tiles). Only 126 distinct suit vectors (55 isolated ones)
exist, so the tables store a vector id per key, and the min-plus combination of every
(pinzu id, souzu id, isolated id, sets needed) is precomputed once: a hand is three lookups. The tables come from
``src/sanma/data/shanten_tables.npz`` (written by ``tools/gen_shanten_tables.py``), or are built
at first use (about half a second) when that file is missing.
"""

from __future__ import annotations

import ast
import operator
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:  # numpy is imported lazily: only table building and the batch API need it
    import numpy as np
    import numpy.typing as npt

from mypy_extensions import i64

from ._accel import data_file
from .errors import HandError
from .i18n.messages import sentence
from .tiles import NUM_KINDS, REMOVED_KINDS, SANMA_KINDS, counts34, kind_name, parse_tiles

__all__ = [
    "DiscardOption",
    "build_tables",
    "discard_candidates",
    "improving_tiles",
    "shanten",
    "shanten_batch",
    "shanten_chiitoi",
    "shanten_counts",
    "shanten_kokushi",
    "shanten_standard",
    "ukeire",
]

DATA_FILE: Final = data_file("shanten_tables.npz")  # uncompressed in the compiled build

#: The kinds with no neighbours to form runs with: 1m, 9m and the seven honours.
ISOLATED_KINDS: Final = (0, 8, 27, 28, 29, 30, 31, 32, 33)
#: Thirteen orphans uses exactly the isolated kinds plus 1p 9p 1s 9s.
KOKUSHI_KINDS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_KOKUSHI_SET: Final = frozenset(KOKUSHI_KINDS)
_PIN0, _SOU0 = 9, 18

SUIT_KEYS: Final = 5**9
#: Weight of the count of the suit's i-th kind (1..9 → i = 0..8) in its base-5 key.
SUIT_WEIGHTS: Final[tuple[int, ...]] = (390625, 78125, 15625, 3125, 625, 125, 25, 5, 1)
#: Weight of a kind holding 0..4 tiles in the isolated group's histogram key (n1 + 10 n2 + ...).
HIST_WEIGHTS: Final = (0, 1, 10, 100, 1000)
HIST_KEYS: Final = 10_000
_SETS: Final = 4

# Hand sizes: concealed tile count → number of called melds (13/14 → 0, 10/11 → 1, ...).
_MELDS_BY_COUNT: Final = {n: (14 - n) // 3 for n in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)}


# ------------------------------------------------------------------------------ table building
def _suit_distances() -> npt.NDArray[np.uint8]:
    """For every base-5 suit key: the 10-vector (m*2 + p) of tiles to add for m sets + p pairs.

    U(m, p) is the set of suit contents that *contain* some m sets and p pairs; it is closed
    upwards, and U(m+1, p) is U(m, p) shifted by every set shape (a shifted up-closed set stays
    up-closed). The distance of a hand h to U is then a separable transform: along each kind's
    axis, d[c] = min(d[c], d[c + 1] + 1), i.e. the fewest tiles to add to reach U.
    """
    import numpy as np

    grid = (5,) * 9
    sets = [tuple(3 if j == i else 0 for j in range(9)) for i in range(9)]
    sets += [tuple(1 if i <= j <= i + 2 else 0 for j in range(9)) for i in range(7)]
    pairs = [tuple(2 if j == i else 0 for j in range(9)) for i in range(9)]

    def shifted(u: npt.NDArray[np.bool_], shapes: list[tuple[int, ...]]) -> npt.NDArray[np.bool_]:
        out = np.zeros(grid, dtype=bool)
        for s in shapes:
            out[tuple(slice(k, None) for k in s)] |= u[tuple(slice(0, 5 - k) for k in s)]
        return out

    contains: dict[tuple[int, int], npt.NDArray[np.bool_]] = {(0, 0): np.ones(grid, dtype=bool)}
    for m in range(1, _SETS + 1):
        contains[m, 0] = shifted(contains[m - 1, 0], sets)
    for m in range(_SETS + 1):
        contains[m, 1] = shifted(contains[m, 0], pairs)
    out = np.empty((SUIT_KEYS, 10), dtype=np.uint8)
    for (m, p), u in contains.items():
        d = np.where(u, 0, 64).astype(np.uint8)
        for axis in range(9):
            view = np.moveaxis(d, axis, 0)
            for c in range(3, -1, -1):
                np.minimum(view[c], view[c + 1] + 1, out=view[c])
        out[:, m * 2 + p] = d.reshape(-1)
    return out


def _isolated_distances() -> npt.NDArray[np.uint8]:
    """For every histogram key of the 9 isolated kinds: the 10-vector of tiles to add.

    An isolated kind holding c tiles costs max(0, 3 - c) as a set (a triplet) and max(0, 2 - c)
    as the pair; a kind cannot be both (five tiles). Dynamic programming over the nine kinds.
    """
    import numpy as np

    hists = [(n1, n2, n3, n4) for n1 in range(10) for n2 in range(10) for n3 in range(10)
             for n4 in range(10) if n1 + n2 + n3 + n4 <= 9]
    cols = np.array([[4] * n4 + [3] * n3 + [2] * n2 + [1] * n1 + [0] * (9 - n1 - n2 - n3 - n4)
                     for n1, n2, n3, n4 in hists], dtype=np.int16)
    inf = np.int16(1000)
    best = np.full((len(hists), _SETS + 1, 2), inf, dtype=np.int16)
    best[:, 0, 0] = 0
    for k in range(9):
        c = cols[:, k]
        set_cost = np.maximum(0, 3 - c)[:, None]
        pair_cost = np.maximum(0, 2 - c)[:, None]
        new = best.copy()
        new[:, 1:, :] = np.minimum(new[:, 1:, :], best[:, :-1, :] + set_cost[:, :, None])
        new[:, :, 1] = np.minimum(new[:, :, 1], best[:, :, 0] + pair_cost)
        best = new
    out = np.zeros((HIST_KEYS, 10), dtype=np.uint8)
    keys = [n1 + 10 * n2 + 100 * n3 + 1000 * n4 for n1, n2, n3, n4 in hists]
    out[keys] = best.reshape(len(hists), 10)
    return out


def _distinct_rows(d: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.intp]]:
    """Distinct rows (sorted) and each row's index among them; rows are packed 6 bits a value."""
    import numpy as np

    packed = np.zeros(len(d), dtype=np.uint64)
    for j in range(d.shape[1]):
        packed = (packed << np.uint64(6)) | d[:, j].astype(np.uint64)
    _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
    return d[first], inverse


def build_tables() -> dict[str, npt.NDArray[np.uint8]]:
    """Compute the compact tables from scratch (what ``tools/gen_shanten_tables.py`` saves).

    ``suit_id[key]`` / ``iso_id[key]`` name a row of ``suit_vec`` / ``iso_vec``, whose column
    ``m * 2 + p`` is the number of tiles to add for m sets and p pairs; ``final`` is their
    min-plus combination for every (sets needed, pinzu id, souzu id, isolated id). Keys are base 5:
    ``sum(count[i] * 5 ** (8 - i))`` over 1..9 of a suit, or over ``ISOLATED_KINDS``.
    """
    import numpy as np

    suit_vec, suit_id = _distinct_rows(_suit_distances())
    by_hist = _isolated_distances()
    digits = np.indices((5,) * 9, dtype=np.uint8).reshape(9, -1)
    hist = np.zeros(SUIT_KEYS, dtype=np.int16)
    for row in digits:
        hist += np.array(HIST_WEIGHTS, dtype=np.int16)[row]
    iso_vec, iso_id = _distinct_rows(by_hist[hist])
    if len(suit_vec) > 255 or len(iso_vec) > 255:  # pragma: no cover - a property of the maths
        raise AssertionError("shanten tables: more than 255 distinct vectors")
    return {
        "suit_id": suit_id.reshape(-1).astype(np.uint8),
        "suit_vec": suit_vec.astype(np.uint8),
        "iso_id": iso_id.reshape(-1).astype(np.uint8),
        "iso_vec": iso_vec.astype(np.uint8),
        # [sets needed, pin id, sou id, iso id] → tiles to add; sets-major, so the common
        # closed hand (4 sets) only touches one fifth of it
        "final": np.ascontiguousarray(np.moveaxis(_combine(suit_vec, iso_vec), 3, 0)),
    }


def _combine(suit_vec: npt.NDArray[np.uint8], iso_vec: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Min-plus combination: [pin id, sou id, iso id, sets needed] → tiles to add (shanten + 1)."""
    import numpy as np

    sv = suit_vec.astype(np.int16).reshape(-1, _SETS + 1, 2)
    iv = iso_vec.astype(np.int16).reshape(-1, _SETS + 1, 2)
    a = sv[:, None, :, :]
    b = sv[None, :, :, :]
    n = len(sv)
    ps = np.full((n, n, _SETS + 1, 2), 1000, dtype=np.int16)
    for m in range(_SETS + 1):
        for x in range(m + 1):
            ps[:, :, m, 0] = np.minimum(ps[:, :, m, 0], a[..., x, 0] + b[..., m - x, 0])
            both = np.minimum(a[..., x, 1] + b[..., m - x, 0], a[..., x, 0] + b[..., m - x, 1])
            ps[:, :, m, 1] = np.minimum(ps[:, :, m, 1], both)
    out = np.full((n, n, len(iv), _SETS + 1), 1000, dtype=np.int16)
    for m in range(_SETS + 1):
        for y in range(m + 1):
            pair_in_suits = ps[:, :, None, y, 1] + iv[None, None, :, m - y, 0]
            pair_in_iso = ps[:, :, None, y, 0] + iv[None, None, :, m - y, 1]
            out[..., m] = np.minimum(out[..., m], np.minimum(pair_in_suits, pair_in_iso))
    return out.astype(np.uint8)


@dataclass(frozen=True, slots=True)
class _Tables:
    n_suit: int
    n_iso: int
    # flat uint8 tables as bytes: indexing bytes beats numpy scalars on the scalar path
    suit_b: bytes
    iso_b: bytes
    final_b: bytes  # ((sets * n_suit + pin) * n_suit + sou) * n_iso + iso


def _read_npz(path: Path) -> dict[str, tuple[tuple[int, ...], bytes]]:
    """The uint8 arrays of an .npz file as (shape, bytes), read with the standard library only
    (so ``import sanma`` does not pay for importing numpy)."""
    out: dict[str, tuple[tuple[int, ...], bytes]] = {}
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            raw = z.read(name)
            if raw[:6] != b"\x93NUMPY":
                raise ValueError(f"{path}: {name} is not a .npy array")
            major = raw[6]
            size_len = 2 if major == 1 else 4
            hlen = int.from_bytes(raw[8:8 + size_len], "little")
            header = ast.literal_eval(raw[8 + size_len:8 + size_len + hlen].decode("latin1"))
            if header.get("descr") != "|u1" or header.get("fortran_order"):
                raise ValueError(f"{path}: {name} is not a C-ordered uint8 array")
            out[name.removesuffix(".npy")] = (tuple(header["shape"]), raw[8 + size_len + hlen:])
    return out


def _load_tables() -> tuple[int, int, bytes, bytes, bytes]:
    if DATA_FILE.exists():
        try:
            arrays = _read_npz(DATA_FILE)
            n, ni = arrays["suit_vec"][0][0], arrays["iso_vec"][0][0]
            shapes = {"suit_id": (SUIT_KEYS,), "iso_id": (SUIT_KEYS,), "final": (_SETS + 1, n, n, ni)}
            if all(arrays[k][0] == v for k, v in shapes.items()):
                return n, ni, arrays["suit_id"][1], arrays["iso_id"][1], arrays["final"][1]
        except (KeyError, ValueError, zipfile.BadZipFile):
            pass  # rebuild below
    built = build_tables()
    return (len(built["suit_vec"]), len(built["iso_vec"]), built["suit_id"].tobytes(),
            built["iso_id"].tobytes(), built["final"].tobytes())


_TABLES: Final[list[_Tables]] = []  # filled on first use (a plain list: cheaper than functools.cache per call)


def _tables() -> _Tables:
    if _TABLES:
        return _TABLES[0]
    n, ni, suit_b, iso_b, final_b = _load_tables()
    _TABLES.append(_Tables(n_suit=n, n_iso=ni, suit_b=suit_b, iso_b=iso_b, final_b=final_b))
    return _TABLES[0]


@cache
def _np_tables() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The same tables as numpy views, for the batch API."""
    import numpy as np

    t = _tables()
    return (np.frombuffer(t.suit_b, dtype=np.uint8), np.frombuffer(t.iso_b, dtype=np.uint8),
            np.frombuffer(t.final_b, dtype=np.uint8))


# ------------------------------------------------------------------------------ validation
def _describe(counts: object) -> str:
    try:
        return f"counts {list(counts)!r}"  # type: ignore[call-overload]
    except TypeError:
        return f"counts {counts!r}"


def _bad_counts(counts: object, where: str | None) -> HandError:
    """The error for counts that failed the fast check: find and name the first problem."""
    where = where or _describe(counts)
    try:
        c = [operator.index(x) for x in counts]  # type: ignore[attr-defined]
    except TypeError:
        return HandError(f"invalid hand {where}: expected 34 integer tile counts")
    if len(c) != NUM_KINDS:
        return HandError(f"invalid hand {where}: expected 34 tile counts (1m..7z), got {len(c)}")
    for k, n in enumerate(c):
        if not 0 <= n <= 4:
            return HandError(f"invalid hand {where}: {n} copies of {kind_name(k)} (0..4 allowed)")
        if n and k in REMOVED_KINDS:
            return HandError(f"invalid hand {where}: {kind_name(k)} is not in the sanma tile set")
    return HandError(f"invalid hand {where}")  # pragma: no cover - the fast check found a problem


def _check_counts(counts: Sequence[int], melds: int | None, where: str | None = None) -> tuple[list[int], int]:
    """Validate 34 counts; return them as a list of ints and the number of called melds.

    ``where`` names the input in error messages (default: the counts themselves).
    """
    try:
        c = list(map(operator.index, counts))
    except TypeError:
        raise _bad_counts(counts, where) from None
    if len(c) != NUM_KINDS or min(c) < 0 or max(c) > 4 or c[1] or c[2] or c[3] or c[4] or c[5] or c[6] or c[7]:
        raise _bad_counts(counts, where)
    total = sum(c)
    if melds is None:
        m = _MELDS_BY_COUNT.get(total)
        if m is not None:
            return c, m
    elif type(melds) is int and 0 <= melds <= _SETS and 0 <= total - (13 - 3 * melds) <= 1:
        return c, melds  # the common case: no error message to build
    return c, _melds_for(total, melds, where or _describe(counts))


def _melds_for(total: int, melds: int | None, where: str) -> int:
    if melds is None:
        if total not in _MELDS_BY_COUNT:
            raise HandError(sentence("invalid hand {hand}: {n} tiles; a hand holds 13 or 14 tiles, 3 fewer per called "
                                     "meld", hand=where, n=total))
        return _MELDS_BY_COUNT[total]
    if type(melds) is not int or not 0 <= melds <= _SETS:
        raise HandError(sentence("invalid hand {hand}: melds={melds!r}, expected 0..4 called melds", hand=where,
                                 melds=melds))
    if total not in (13 - 3 * melds, 14 - 3 * melds):
        raise HandError(sentence("invalid hand {hand}: {n} tiles with {melds} called meld(s); expected {a} or {b}",
                                 hand=where, n=total, melds=melds, a=13 - 3 * melds, b=14 - 3 * melds))
    return melds


# ------------------------------------------------------------------------------ core (counts)
def _std_distance(c: Sequence[int], sets: int, t: _Tables) -> int:
    """Tiles to add (shanten + 1) for ``sets`` sets and a pair: three key lookups."""
    kp = (c[9] * 390625 + c[10] * 78125 + c[11] * 15625 + c[12] * 3125 + c[13] * 625
          + c[14] * 125 + c[15] * 25 + c[16] * 5 + c[17])
    ks = (c[18] * 390625 + c[19] * 78125 + c[20] * 15625 + c[21] * 3125 + c[22] * 625
          + c[23] * 125 + c[24] * 25 + c[25] * 5 + c[26])
    ki = (c[0] * 390625 + c[8] * 78125 + c[27] * 15625 + c[28] * 3125 + c[29] * 625
          + c[30] * 125 + c[31] * 25 + c[32] * 5 + c[33])
    sb = t.suit_b
    return t.final_b[((sets * t.n_suit + sb[kp]) * t.n_suit + sb[ks]) * t.n_iso + t.iso_b[ki]]


def _chiitoi(c: Sequence[int], four_ok: bool) -> int:
    pairs = kinds = odd = 0
    for n in c:
        if n:
            kinds += 1
            if n >= 2:
                pairs += 2 if (four_ok and n == 4) else 1
            if n & 1:
                odd += 1
    if four_ok:
        # a kind can give two pairs; a missing pair costs 1 tile from an odd count, else 2
        return 6 - pairs + max(0, 7 - pairs - odd)
    return 6 - pairs + max(0, 7 - kinds)


def _kokushi(c: Sequence[int]) -> int:
    kinds = 0
    pair = 0
    for k in KOKUSHI_KINDS:
        n = c[k]
        if n:
            kinds += 1
            if n >= 2:
                pair = 1
    return 13 - kinds - pair


def _shanten_list(c: list[int], melds: int, four_ok: bool, t: _Tables) -> int:
    s = _std_distance(c, _SETS - melds, t) - 1
    if melds == 0 and s >= 0:  # seven pairs or kokushi can be complete (-1) when the standard form is tenpai
        s = min(s, _chiitoi(c, four_ok), _kokushi(c))
    return s


def shanten_trusted(counts: list[int], melds: int, chiitoi_four_ok: bool = False) -> int:
    """``shanten_counts`` without validation, for callers that own well-formed counts (the engine).

    >>> shanten_trusted([1, 0, 0, 0, 0, 0, 0, 0, 1] + [1, 0, 0, 0, 0, 0, 0, 0, 1] * 2 + [1] * 7, 0)
    0
    """
    return _shanten_list(counts, melds, chiitoi_four_ok, _tables())


# ------------------------------------------------------------------------------ public, counts
def shanten_counts(counts: Sequence[int], melds: int | None = None, *, chiitoi_four_ok: bool = False) -> int:
    """Shanten of 34 tile counts, ``melds`` called melds (inferred from the count if None).

    The fast path: no parsing. Minimum of the standard form, seven pairs and thirteen orphans
    (the last two only without called melds).

    >>> shanten_counts([2] + [0] * 7 + [2] + [2] * 3 + [0] * 20 + [2, 2])
    -1
    """
    c, m = _check_counts(counts, melds)
    return _shanten_list(c, m, chiitoi_four_ok, _tables())


def shanten_standard(counts: Sequence[int], melds: int | None = None) -> int:
    """Shanten towards four sets and a pair only (``4 - melds`` sets from these tiles).

    >>> shanten_standard(counts34(parse_tiles("19m19p19s1234567z")))
    8
    """
    c, m = _check_counts(counts, melds)
    return _std_distance(c, _SETS - m, _tables()) - 1


def shanten_chiitoi(counts: Sequence[int], *, chiitoi_four_ok: bool = False) -> int:
    """Shanten towards seven pairs (P73: four of a kind is two pairs only if ``chiitoi_four_ok``).

    Needs a closed hand of 13 or 14 tiles.

    >>> c = counts34(parse_tiles("1111p22s33s44s556z"))
    >>> shanten_chiitoi(c), shanten_chiitoi(c, chiitoi_four_ok=True)
    (2, 0)
    """
    c, _ = _check_counts(counts, 0)
    return _chiitoi(c, chiitoi_four_ok)


def shanten_kokushi(counts: Sequence[int]) -> int:
    """Shanten towards thirteen orphans (1m 9m 1p 9p 1s 9s and the honours, one of them paired).

    >>> shanten_kokushi(counts34(parse_tiles("19m19p19s1234567z")))
    0
    """
    c, _ = _check_counts(counts, 0)
    return _kokushi(c)


# ------------------------------------------------------------------------------ public, strings
# The string path reads an mpsz string right to left in one pass over its characters (in place: no
# bytes copy, no builtin called per hand): a suit letter sets the suit of the digits before it; each
# digit adds one to its kind's count, three bits a kind in one integer per group (the group's base-5
# table key is made from it at the end), and counts what seven pairs and thirteen orphans need
# (kinds, pairs, odd counts, terminal and honour kinds, a terminal pair). Anything else — spaces, a digit without a
# suit, 2m-8m, a fifth copy, a tile count that is no hand — goes to the strict parser, which raises a
# HandError naming the hand. No memo: every call reads its string.
_MAX_FAST_LEN: Final = 1000  # longer strings go to the strict parser
_FLOWER: Final = -2  # a flower digit: read, not counted


def _kinds_by_digit() -> tuple[int, ...]:
    """kind of (suit * 10 + digit), suits m p s z f: manzu 1 and 9 only; 0 is a red five in p and s."""
    out = [-1] * 50
    out[1], out[9] = 0, 8
    for d in range(1, 10):
        out[10 + d] = _PIN0 + d - 1
        out[20 + d] = _SOU0 + d - 1
    out[10], out[20] = _PIN0 + 4, _SOU0 + 4
    for d in range(1, 8):
        out[30 + d] = 26 + d
    for d in range(1, 5):
        out[40 + d] = _FLOWER
    return tuple(out)


_KIND_BY_DIGIT: Final[tuple[int, ...]] = _kinds_by_digit()
# The same facts as bytes (indexing bytes gives a machine integer in the compiled build):
_NO_TILE: Final = 255
_KIND_B: Final = bytes(k if k >= 0 else (254 if k == _FLOWER else _NO_TILE) for k in _KIND_BY_DIGIT)
_SUIT_B: Final = bytes({109: 0, 112: 1, 115: 2, 122: 3, 102: 4}.get(b, _NO_TILE) for b in range(256))
#: each kind's group (0 pinzu, 1 souzu, 2 the isolated kinds), and whether it is a terminal or honour
_GROUP_B: Final = bytes(0 if _PIN0 <= k < _PIN0 + 9 else 1 if _SOU0 <= k < _SOU0 + 9 else 2
                        for k in range(NUM_KINDS))
_ORPHAN_B: Final = bytes(int(k in _KOKUSHI_SET) for k in range(NUM_KINDS))
#: three bits per kind of its group: where its count sits (0..24)
_SHIFT_B: Final = bytes(3 * (k - _PIN0) if _PIN0 <= k < _PIN0 + 9 else 3 * (k - _SOU0) if _SOU0 <= k < _SOU0 + 9
                        else 3 * ISOLATED_KINDS.index(k) if k in ISOLATED_KINDS else 0 for k in range(NUM_KINDS))
def _key5(bits: i64) -> i64:
    """A group's base-5 table key from its counts packed three bits a kind (kind i at bits 3i)."""
    return ((bits & 7) * 390625 + ((bits >> 3) & 7) * 78125 + ((bits >> 6) & 7) * 15625
             + ((bits >> 9) & 7) * 3125 + ((bits >> 12) & 7) * 625 + ((bits >> 15) & 7) * 125
             + ((bits >> 18) & 7) * 25 + ((bits >> 21) & 7) * 5 + ((bits >> 24) & 7))


def _shanten_slow(text: str, melds: int | None, four_ok: bool) -> int:
    """Parse with ``parse_tiles`` (any spacing) and validate, with messages naming the hand."""
    counts = counts34(parse_tiles(text))
    c, m = _check_counts(counts, melds, repr(text))
    return _shanten_list(c, m, four_ok, _tables())


def shanten(
    hand: str | Sequence[int], *, melds: int | None = None, chiitoi_four_ok: bool = False
) -> int:
    """Exact shanten of a hand: ``-1`` complete, ``0`` tenpai, ``n`` tiles from tenpai.

    ``hand`` is an mpsz string (flowers are ignored, red fives count as fives) or 34 counts.
    ``melds`` is the number of called melds, inferred from the tile count when None
    (13/14 tiles → 0, 10/11 → 1, ..., 1/2 → 4). ``chiitoi_four_ok`` is rule P73
    (``Rules.chiitoi_four_of_a_kind``): four of a kind counts as two pairs in seven pairs.

    >>> shanten("19m19p19s1234567z"), shanten("1122p3344s5566z7z"), shanten("1m1f")
    (0, 0, 0)
    >>> shanten("1111p2233s445566z"), shanten("1111p2233s445566z", chiitoi_four_ok=True)
    (1, -1)
    """
    if not isinstance(hand, str):
        return shanten_counts(hand, melds, chiitoi_four_ok=chiitoi_four_ok)
    i: i64 = len(hand) - 1
    if i >= _MAX_FAST_LEN:
        return _shanten_slow(hand, melds, chiitoi_four_ok)
    four: i64 = 1 if chiitoi_four_ok else 0
    kinds: i64 = 0
    pairs: i64 = 0
    odd: i64 = 0
    total: i64 = 0
    orphans: i64 = 0
    orphan_pair: i64 = 0
    count_p: i64 = 0
    count_s: i64 = 0
    count_i: i64 = 0
    suit: i64 = _NO_TILE
    while i >= 0:
        b: i64 = ord(hand[i])  # the compiled build reads the character in place
        i -= 1
        if 48 <= b <= 57:
            if suit == _NO_TILE:
                return _shanten_slow(hand, melds, chiitoi_four_ok)
            k: i64 = _KIND_B[suit * 10 + b - 48]
            if k >= 254:
                if k == 254:  # a flower
                    continue
                return _shanten_slow(hand, melds, chiitoi_four_ok)
            # the kind's count with this tile: three bits a kind, per group (shifts stay below 32 bits)
            g: i64 = _GROUP_B[k]
            shift: i64 = _SHIFT_B[k]
            if g == 0:
                n: i64 = ((count_p >> shift) & 7) + 1
                count_p += 1 << shift
            elif g == 1:
                n = ((count_s >> shift) & 7) + 1
                count_s += 1 << shift
            else:
                n = ((count_i >> shift) & 7) + 1
                count_i += 1 << shift
            if n > 4:  # a fifth copy
                return _shanten_slow(hand, melds, chiitoi_four_ok)
            total += 1
            if n == 1:
                kinds += 1
                odd += 1
                orphans += _ORPHAN_B[k]
            elif n == 2:
                odd -= 1
                pairs += 1
                if _ORPHAN_B[k]:
                    orphan_pair = 1
            elif n == 3:
                odd += 1
            else:
                odd -= 1
                pairs += four
        else:
            suit = _SUIT_B[b] if b < 128 else _NO_TILE
            if suit == _NO_TILE or i < 0 or not 48 <= ord(hand[i]) <= 57:
                return _shanten_slow(hand, melds, chiitoi_four_ok)  # not a suit letter, or one without digits
    m: i64 = -1
    if melds is None:
        if total % 3 != 0 and 0 < total <= 14:
            m = (14 - total) // 3  # 13/14 tiles: no meld, 10/11: one, ...
    elif type(melds) is int and 0 <= melds <= _SETS:
        m = melds
    if suit == _NO_TILE or m < 0 or (total + 3 * m != 13 and total + 3 * m != 14):
        return _shanten_slow(hand, melds, chiitoi_four_ok)  # raises HandError naming the hand
    t = _tables()
    sb = t.suit_b
    n_suit: i64 = t.n_suit
    pin: i64 = sb[_key5(count_p)]
    sou: i64 = sb[_key5(count_s)]
    iso: i64 = t.iso_b[_key5(count_i)]
    s: i64 = t.final_b[(((_SETS - m) * n_suit + pin) * n_suit + sou) * t.n_iso + iso] - 1
    if m == 0 and s >= 0:  # seven pairs as _chiitoi (with four of a kind: a pair from an odd count), kokushi
        if chiitoi_four_ok:
            seven: i64 = 6 - pairs + (7 - pairs - odd if pairs + odd < 7 else 0)
        else:
            seven = 6 - pairs + (7 - kinds if kinds < 7 else 0)
        if seven < s:
            s = seven
        kokushi: i64 = 13 - orphans - orphan_pair
        if kokushi < s:
            s = kokushi
    return s


# ------------------------------------------------------------------------------ bots and engine
class DiscardOption(NamedTuple):
    """What discarding one tile of kind ``kind`` leaves: its shanten and ukeire."""

    kind: int
    shanten: int
    ukeire: int


# Where each kind sits: (group 0 pinzu / 1 souzu / 2 isolated, its weight in the group key).
_KIND_KEY: Final[dict[int, tuple[int, int]]] = {
    **{_PIN0 + i: (0, w) for i, w in enumerate(SUIT_WEIGHTS)},
    **{_SOU0 + i: (1, w) for i, w in enumerate(SUIT_WEIGHTS)},
    **{k: (2, w) for k, w in zip(ISOLATED_KINDS, SUIT_WEIGHTS, strict=True)},
}


def _group_keys(c: Sequence[int]) -> tuple[int, int, int]:
    """The pinzu, souzu and isolated-group keys of 34 counts (base 5)."""
    return (
        c[9] * 390625 + c[10] * 78125 + c[11] * 15625 + c[12] * 3125 + c[13] * 625
        + c[14] * 125 + c[15] * 25 + c[16] * 5 + c[17],
        c[18] * 390625 + c[19] * 78125 + c[20] * 15625 + c[21] * 3125 + c[22] * 625
        + c[23] * 125 + c[24] * 25 + c[25] * 5 + c[26],
        c[0] * 390625 + c[8] * 78125 + c[27] * 15625 + c[28] * 3125 + c[29] * 625
        + c[30] * 125 + c[31] * 25 + c[32] * 5 + c[33],
    )


def _improving(c: list[int], melds: int, four_ok: bool, t: _Tables) -> tuple[int, tuple[int, ...]]:
    """Shanten of a 3n+1 hand and the kinds whose draw lowers it.

    A draw changes one group key by one weight, so each candidate is one key lookup and one
    lookup in the combination table; seven pairs and kokushi follow from the drawn kind's count.
    """
    base = _shanten_list(c, melds, four_ok, t)
    sb, ib, fb, ns, ni = t.suit_b, t.iso_b, t.final_b, t.n_suit, t.n_iso
    k0, k1, k2 = _group_keys(c)
    i0, i1, i2 = sb[k0], sb[k1], ib[k2]
    sets = _SETS - melds
    closed = melds == 0
    # Seven pairs and kokushi after drawing a kind depend only on how many of it the hand holds:
    # precompute both for n = 0..3 (and drawing a terminal/honour for kokushi).
    alt: tuple[int, ...] = (99, 99, 99, 99)
    alt_yao = alt
    if closed:
        n1, n2, n3, n4 = c.count(1), c.count(2), c.count(3), c.count(4)
        pairs = n2 + n3 + n4
        kinds = n1 + pairs
        odd = n1 + n3
        yao = [c[k] for k in KOKUSHI_KINDS]
        yao_kinds = 13 - yao.count(0)
        yao_pair = yao_kinds > yao.count(1)

        def chiitoi(n: int) -> int:
            p = pairs + (n == 1)
            if four_ok:
                p += n4 + (n == 3)
                return 6 - p + max(0, 7 - p - (odd + (1 if n % 2 == 0 else -1)))
            return 6 - p + max(0, 7 - kinds - (n == 0))

        alt = tuple(chiitoi(n) for n in range(4))
        alt_yao = tuple(min(alt[n], 13 - yao_kinds - (n == 0) - (1 if yao_pair or n == 1 else 0))
                        for n in range(4))
    out = []
    base_idx = sets * ns
    for k in SANMA_KINDS:
        n = c[k]
        if n == 4:
            continue
        group, w = _KIND_KEY[k]
        if group == 0:
            s = fb[((base_idx + sb[k0 + w]) * ns + i1) * ni + i2] - 1
        elif group == 1:
            s = fb[((base_idx + i0) * ns + sb[k1 + w]) * ni + i2] - 1
        else:
            s = fb[((base_idx + i0) * ns + i1) * ni + ib[k2 + w]] - 1
        if s >= base:
            a = alt_yao[n] if k in _KOKUSHI_SET else alt[n]
            if a < s:
                s = a
        if s < base:
            out.append(k)
    return base, tuple(out)


def _check_hand(counts: Sequence[int], melds: int | None, draw: bool) -> tuple[list[int], int]:
    """Validate a hand waiting for a draw (3n+1 tiles) or one that has drawn (3n+2)."""
    c, m = _check_counts(counts, melds)
    if sum(c) % 3 != (1 if draw else 2):
        expected = (sentence("waiting for a draw (13, 10, ... tiles)") if draw else
                    sentence("after a draw (14, 11, ... tiles)"))
        raise HandError(sentence("invalid hand {hand}: {n} tiles; expected a hand {expected}", hand=_describe(counts),
                                 n=sum(c), expected=expected))
    return c, m


def _visible(visible: Sequence[int] | None) -> list[int]:
    if visible is None:
        return [0] * NUM_KINDS
    try:
        v = list(map(operator.index, visible))
    except TypeError:
        v = []
    if len(v) != NUM_KINDS or min(v) < 0 or max(v) > 4:
        raise HandError(f"invalid visible counts {visible!r}: expected 34 integer counts 0..4")
    return v


def _remaining(c: Sequence[int], v: Sequence[int], kinds: tuple[int, ...]) -> int:
    return sum(max(0, 4 - c[k] - v[k]) for k in kinds)


def improving_tiles(
    counts: Sequence[int], melds: int | None = None, *, chiitoi_four_ok: bool = False
) -> tuple[int, ...]:
    """Kinds whose draw lowers the shanten of a 13-tile (3n+1) hand, in kind order.

    Only sanma kinds, and only kinds the hand holds fewer than four of.

    >>> [kind_name(k) for k in improving_tiles(counts34(parse_tiles("19m19p19s1234567z")))]
    ['1m', '9m', '1p', '9p', '1s', '9s', '1z', '2z', '3z', '4z', '5z', '6z', '7z']
    """
    c, m = _check_hand(counts, melds, draw=True)
    return _improving(c, m, chiitoi_four_ok, _tables())[1]


def ukeire(
    counts: Sequence[int],
    melds: int | None = None,
    visible: Sequence[int] | None = None,
    *,
    chiitoi_four_ok: bool = False,
) -> int:
    """Number of tiles left that lower the shanten of a 13-tile (3n+1) hand.

    ``visible`` are 34 counts of tiles seen outside the hand (discards, melds, dora indicators);
    each improving kind contributes ``4 - in hand - visible`` (at least 0).

    >>> c = counts34(parse_tiles("19m19p19s1234567z"))
    >>> ukeire(c), ukeire(c, visible=[4] + [0] * 33)
    (39, 36)
    """
    c, m = _check_hand(counts, melds, draw=True)
    return _remaining(c, _visible(visible), _improving(c, m, chiitoi_four_ok, _tables())[1])


def discard_candidates(
    counts14: Sequence[int],
    melds: int | None = None,
    visible: Sequence[int] | None = None,
    *,
    chiitoi_four_ok: bool = False,
) -> tuple[DiscardOption, ...]:
    """For each kind in a 14-tile (3n+2) hand: the shanten and ukeire after discarding one.

    >>> best = min(discard_candidates(counts34(parse_tiles("19m19p19s1234567z5p"))),
    ...            key=lambda d: (d.shanten, -d.ukeire))
    >>> kind_name(best.kind), best.shanten, best.ukeire
    ('5p', 0, 39)
    """
    c, m = _check_hand(counts14, melds, draw=False)
    v = _visible(visible)
    t = _tables()
    out = []
    for k in SANMA_KINDS:
        if c[k]:
            c[k] -= 1
            s, kinds = _improving(c, m, chiitoi_four_ok, t)
            out.append(DiscardOption(k, s, _remaining(c, v, kinds)))
            c[k] += 1
    return tuple(out)


# ------------------------------------------------------------------------------ batch
def _key_matrix() -> npt.NDArray[np.float32]:
    """(34, 4): counts @ this = pinzu key, souzu key, isolated key, tile count (exact in float32)."""
    import numpy as np

    w = np.zeros((NUM_KINDS, 4), dtype=np.float32)
    w[_PIN0:_PIN0 + 9, 0] = SUIT_WEIGHTS
    w[_SOU0:_SOU0 + 9, 1] = SUIT_WEIGHTS
    w[list(ISOLATED_KINDS), 2] = SUIT_WEIGHTS
    w[:, 3] = 1
    return w


def _stat_matrices() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """A count → packed-facts table and the (34, 2) matrix that sums them over all / orphan kinds.

    Packed facts of a kind: has a tile (bit 0), has a pair (bit 5), is four (bit 10), is odd
    (bit 15); summed over a hand every field stays below 32 and the total below 2**24, so the
    float32 matrix product is exact.
    """
    import numpy as np

    lut = np.array([(n >= 1) + 32 * (n >= 2) + 1024 * (n == 4) + 32768 * (n & 1) for n in range(5)],
                   dtype=np.float32)
    w = np.zeros((NUM_KINDS, 2), dtype=np.float32)
    w[:, 0] = 1
    w[list(KOKUSHI_KINDS), 1] = 1
    return lut, w


@cache
def _batch_consts() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    return (_key_matrix(), *_stat_matrices())

_CHUNK: Final = 4096  # rows per step: intermediates stay in cache, BLAS on one thread (no stalls when busy)


def _batch_chunk(
    c: npt.NDArray[np.uint8], melds: npt.NDArray[np.intp] | None, four_ok: bool, t: _Tables, first_row: int
) -> npt.NDArray[np.int8]:
    import numpy as np

    key_w, stat_lut, stat_w = _batch_consts()
    suit_id, iso_id, final = _np_tables()
    keys = (c.astype(np.float32) @ key_w).astype(np.intp)
    total = keys[:, 3]
    if melds is None:
        m = (14 - total) // 3
        ok = ((total % 3) != 0) & (total <= 14)
    else:
        m = melds
        ok = (m >= 0) & (m <= _SETS) & ((total + 3 * m == 13) | (total + 3 * m == 14))
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        mi = None if melds is None else int(m[i])
        _melds_for(int(total[i]), mi, f"row {first_row + i} of the batch {c[i].tolist()!r}")
    idx = (_SETS - m) * t.n_suit
    idx += suit_id[keys[:, 0]]
    idx *= t.n_suit
    idx += suit_id[keys[:, 1]]
    idx *= t.n_iso
    idx += iso_id[keys[:, 2]]
    out: npt.NDArray[np.int8] = final[idx].astype(np.int8)
    out -= 1
    closed = (m == 0) & (out >= 0)
    if not closed.any():
        return out
    facts = (np.take(stat_lut, c) @ stat_w).astype(np.int32)
    every, orphans = facts[:, 0], facts[:, 1]
    pairs = (every >> 5) & 31
    if four_ok:
        pairs += (every >> 10) & 31
        chiitoi = 6 - pairs + np.maximum(0, 7 - pairs - (every >> 15))
    else:
        chiitoi = 6 - pairs + np.maximum(0, 7 - (every & 31))
    kokushi = 13 - (orphans & 31) - ((orphans & (31 << 5)) != 0)
    best = np.minimum(chiitoi, kokushi)
    return np.where(closed & (best < out), best, out).astype(np.int8)


def shanten_batch(
    counts: npt.ArrayLike,
    melds: int | npt.ArrayLike | None = None,
    *,
    chiitoi_four_ok: bool = False,
) -> npt.NDArray[np.int8]:
    """Shanten of many hands at once: ``counts`` is an (N, 34) integer array.

    ``melds`` is None (inferred per row from its tile count), an int, or an array of N ints.
    Returns an int8 array of N shanten values, equal to ``shanten_counts`` row by row.
    Vectorised: the group keys and tile counts are one matrix product, then three table gathers
    and one gather in the precomputed min-plus combination; seven pairs and kokushi are one
    table gather and one more matrix product.

    >>> import numpy as np
    >>> hands = np.array([counts34(parse_tiles(h)) for h in ("19m19p19s1234567z", "11m123p456789s111z")])
    >>> shanten_batch(hands).tolist()
    [0, -1]
    """
    import numpy as np

    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[1] != NUM_KINDS or not np.issubdtype(c.dtype, np.integer):
        raise HandError(f"invalid hand batch: expected an (N, 34) integer array, got {c.dtype} {c.shape}")
    n = len(c)
    if n == 0:
        return np.zeros(0, dtype=np.int8)
    if c.max() > 4 or (c.dtype.kind == "i" and c.min() < 0) or c[:, 1:8].any():
        bad = (c > 4).any(axis=1) | (c < 0).any(axis=1) | c[:, 1:8].any(axis=1)
        i = int(np.flatnonzero(bad)[0])
        raise _bad_counts(c[i].tolist(), f"row {i} of the batch {c[i].tolist()!r}")
    c = c.astype(np.uint8, copy=False)
    m = None if melds is None else np.broadcast_to(np.asarray(melds, dtype=np.intp), (n,))
    t = _tables()
    if n <= _CHUNK:
        return _batch_chunk(c, m, chiitoi_four_ok, t, 0)
    out = np.empty(n, dtype=np.int8)
    for start in range(0, n, _CHUNK):
        end = start + _CHUNK
        out[start:end] = _batch_chunk(c[start:end], None if m is None else m[start:end], chiitoi_four_ok, t, start)
    return out


def ukeire_batch(
    counts: npt.ArrayLike,
    melds: int | npt.ArrayLike | None = None,
    visible: npt.ArrayLike | None = None,
    *,
    chiitoi_four_ok: bool = False,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
    """Shanten and ukeire of many 13-tile (3n+1) hands at once: ``counts`` is an (N, 34) array,
    ``visible`` None or an (N, 34) (or 34) array of tiles seen outside each hand. Returns
    ``(shanten, ukeire)``, equal to ``shanten_counts`` and ``ukeire`` row by row.

    Vectorised over the draws: every hand with every sanma kind added (N × 27 rows of 14 tiles)
    goes through :func:`shanten_batch`; a kind improves a hand when its shanten drops, and counts
    ``4 - in hand - visible`` copies (at least 0).

    >>> import numpy as np
    >>> hands = np.array([counts34(parse_tiles(h)) for h in ("19m19p19s1234567z", "123456789p1234s")])
    >>> s, u = ukeire_batch(hands)
    >>> s.tolist(), u.tolist(), ukeire(hands[1])
    ([0, 0], [39, 6], 6)
    """
    import numpy as np

    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[1] != NUM_KINDS or not np.issubdtype(c.dtype, np.integer):
        raise HandError(f"invalid hand batch: expected an (N, 34) integer array, got {c.dtype} {c.shape}")
    n = len(c)
    base = shanten_batch(c, melds, chiitoi_four_ok=chiitoi_four_ok)
    if n == 0:
        return base, np.zeros(0, dtype=np.int16)
    if ((c.sum(axis=1) + 3 * (0 if melds is None else np.asarray(melds))) % 3 != 1).any() if melds is not None \
            else (c.sum(axis=1) % 3 != 1).any():
        raise HandError("ukeire_batch needs 3n+1 hands (13 tiles less three per meld)")
    v = np.zeros((n, NUM_KINDS), dtype=np.int16) if visible is None else \
        np.broadcast_to(np.asarray(visible, dtype=np.int16), (n, NUM_KINDS))
    kinds = np.array(SANMA_KINDS, dtype=np.intp)
    grown = np.repeat(c.astype(np.uint8)[:, None, :], len(kinds), axis=1)  # (N, 27, 34)
    grown[:, np.arange(len(kinds)), kinds] += 1
    ok = grown[:, np.arange(len(kinds)), kinds] <= 4
    rows = grown.reshape(-1, NUM_KINDS)
    m = None if melds is None else np.repeat(np.broadcast_to(np.asarray(melds, dtype=np.intp), (n,)), len(kinds))
    drawn = np.full(rows.shape[0], 127, dtype=np.int8)
    fine = ok.reshape(-1)
    drawn[fine] = shanten_batch(rows[fine], None if m is None else m[fine], chiitoi_four_ok=chiitoi_four_ok)
    better = drawn.reshape(n, len(kinds)) < base[:, None]
    left = np.maximum(0, 4 - c[:, kinds].astype(np.int16) - v[:, kinds])
    return base, (better * left).sum(axis=1).astype(np.int16)
