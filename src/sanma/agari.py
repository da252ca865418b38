"""Complete hands: every decomposition, and the waits of a hand one tile short.

Decompositions are computed per suit and cached by the suit's counts (a suit pattern recurs
across hands; a whole hand does not), then combined. A block is a small tuple
``(is_triplet, kind)``: ``(0, k)`` is the sequence k, k+1, k+2 and ``(1, k)`` a triplet of k.

>>> from sanma.tiles import counts34, parse_tiles
>>> c = counts34(parse_tiles("111222333p11s"))
>>> sorted(d.blocks for d in decompositions(c))
[((0, 9), (0, 9), (0, 9)), ((1, 9), (1, 10), (1, 11))]
>>> [kind for kind in waits(counts34(parse_tiles("1112345678999p")))]
[9, 10, 11, 12, 13, 14, 15, 16, 17]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from .tiles import NUM_KINDS, REMOVED_KINDS, YAOCHUU

Block = tuple[int, int]  # (0 = sequence | 1 = triplet, kind)


class Decomposition(NamedTuple):
    """Concealed blocks (sequences/triplets) of a complete hand, and its pair kind."""

    blocks: tuple[Block, ...]
    pair: int


@cache
def _suit_decomps(counts: tuple[int, ...], base: int, honors: bool) -> tuple[tuple[tuple[Block, ...], int], ...]:
    """All ways to split one suit's counts into blocks and at most one pair (-1 = no pair)."""
    out: list[tuple[tuple[Block, ...], int]] = []
    c = list(counts)
    n = len(c)

    def rec(i: int, blocks: list[Block], pair: int) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            out.append((tuple(blocks), pair))
            return
        if pair < 0 and c[i] >= 2:
            c[i] -= 2
            rec(i, blocks, base + i)
            c[i] += 2
        if c[i] >= 3:
            c[i] -= 3
            blocks.append((1, base + i))
            rec(i, blocks, pair)
            blocks.pop()
            c[i] += 3
        if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            blocks.append((0, base + i))
            rec(i, blocks, pair)
            blocks.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    rec(0, [], -1)
    return tuple(out)


_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def decompositions(counts: Sequence[int]) -> list[Decomposition]:
    """Every standard decomposition (n blocks + 1 pair) of concealed ``counts`` (3n+2 tiles)."""
    partial: list[tuple[tuple[Block, ...], int]] = [((), -1)]
    for lo, hi, honors in _SUITS:
        key = tuple(counts[lo:hi])
        if not any(key):
            continue
        options = _suit_decomps(key, lo, honors)
        if not options:
            return []
        nxt: list[tuple[tuple[Block, ...], int]] = []
        for blocks, pair in partial:
            for b2, p2 in options:
                if p2 >= 0 and pair >= 0:
                    continue
                nxt.append((blocks + b2, p2 if p2 >= 0 else pair))
        if not nxt:
            return []
        partial = nxt
    return [Decomposition(b, p) for b, p in partial if p >= 0]


def is_chiitoi(counts: Sequence[int], four_ok: bool = False) -> bool:
    """Seven pairs; with ``four_ok`` four identical tiles count as two pairs (P73)."""
    pairs = 0
    for x in counts:
        if x == 2:
            pairs += 1
        elif x == 4 and four_ok:
            pairs += 2
        elif x:
            return False
    return pairs == 7


def is_kokushi(counts: Sequence[int]) -> bool:
    """Thirteen orphans: one of each terminal/honour and one of them paired."""
    if sum(counts) != 14:
        return False
    pair = False
    for k in YAOCHUU:
        x = counts[k]
        if x == 0 or x > 2:
            return False
        if x == 2:
            if pair:
                return False
            pair = True
    return pair and all(counts[k] == 0 for k in range(NUM_KINDS) if k not in YAOCHUU)


@cache
def _suit_flags(counts: tuple[int, ...], honors: bool) -> int:
    """Bit 1: the suit splits into sets only; bit 2: into sets and one pair."""
    flags = 0
    for _, pair in _suit_decomps(counts, 0, honors):
        flags |= 2 if pair >= 0 else 1
    return flags


def _complete_standard(keys: list[tuple[int, ...]]) -> bool:
    """All suits decompose and exactly one of them holds the pair."""
    pair_seen = False
    for (_lo, _hi, honors), key in zip(_SUITS, keys, strict=True):
        if not any(key):
            continue
        f = _suit_flags(key, honors)
        if f & 1 and not (f & 2 and not pair_seen and sum(key) % 3 == 2):
            continue
        if f & 2 and not pair_seen:
            pair_seen = True
            continue
        return False
    return pair_seen


def is_complete(counts: Sequence[int], chiitoi_four_ok: bool = False) -> bool:
    """Any winning shape (standard, seven pairs, thirteen orphans) for 3n+2 concealed tiles."""
    n = sum(counts)
    if n == 14 and (is_chiitoi(counts, chiitoi_four_ok) or is_kokushi(counts)):
        return True
    return _complete_standard([tuple(counts[lo:hi]) for lo, hi, _ in _SUITS])


def waits(counts: Sequence[int], chiitoi_four_ok: bool = False) -> tuple[int, ...]:
    """Kinds that complete a hand of 3n+1 concealed tiles (sanma kinds only; a kind the hand
    already holds four of is not a wait)."""
    keys = [tuple(counts[lo:hi]) for lo, hi, _ in _SUITS]
    out: list[int] = []
    n = sum(counts)
    special = n == 13 and (sum(1 for x in counts if x >= 2) >= 5 or sum(1 for k in YAOCHUU if counts[k]) >= 12)
    c = list(counts) if special else []
    for si, (lo, hi, _honors) in enumerate(_SUITS):
        key = keys[si]
        # a suit with 3n+1 tiles must take the winning tile; otherwise only a pair-less suit can.
        for i in range(hi - lo):
            k = lo + i
            if k in REMOVED_KINDS or key[i] >= 4:
                continue
            isolated = key[i] == 0 and (i == 0 or key[i - 1] == 0) and (i + 1 >= hi - lo or key[i + 1] == 0)
            if isolated and not special:
                continue  # a new tile with no neighbour and no copy cannot join a set or a pair
            new = list(keys)
            nk = list(key)
            nk[i] += 1
            new[si] = tuple(nk)
            if _complete_standard(new):
                out.append(k)
            elif special:
                c[k] += 1
                if is_chiitoi(c, chiitoi_four_ok) or is_kokushi(c):
                    out.append(k)
                c[k] -= 1
    return tuple(out)
