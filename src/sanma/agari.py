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

import gc
import marshal
import zlib
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, Final, NamedTuple

from ._accel import DATA
from .tiles import NUM_KINDS, REMOVED_KINDS, YAOCHUU, kind_name

Block = tuple[int, int]  # (0 = sequence | 1 = triplet, kind)

# Winning-tile position in a standard hand ("wait" for fu and pinfu). Final, one a line: the compiled
# build inlines them (a name bound by tuple unpacking is a dict lookup at every use).
RYANMEN: Final = "ryanmen"
KANCHAN: Final = "kanchan"
PENCHAN: Final = "penchan"
SHANPON: Final = "shanpon"
TANKI: Final = "tanki"


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


_SUITS: Final = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


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


# --- hand keys and suit parts (the scorer's hot path) ------------------------------------------
#
# A hand's counts pack into one int, three bits per kind: kind k is the octal digit k, so the
# nine kinds of suit s (0 m, 1 p, 2 s, 3 z) are bits 27s..27s+26, the suit's *key*. Three bits
# leave room to see a fifth copy. Sets of kinds use the same layout (bit 3k for kind k), so one
# AND answers "does the hand hold a terminal?" and the like.

KIND_BITS: Final = 3
SUIT_BITS: Final = 27
SUIT_MASK: Final = (1 << SUIT_BITS) - 1
#: ``KIND_BIT[k]``: one tile of kind k in a hand key; also kind k's member bit in a kind set.
KIND_BIT: Final[tuple[int, ...]] = tuple(1 << KIND_BITS * k for k in range(NUM_KINDS))
#: Every kind's lowest digit bit: ``present(key) & ALL_KINDS`` is the set of kinds held.
ALL_KINDS: Final = sum(KIND_BIT)


def kind_set(kinds: Iterable[int]) -> int:
    """A set of kinds in the hand-key layout."""
    return sum(KIND_BIT[k] for k in set(kinds))


def present(key: int) -> int:
    """The set of kinds a hand key holds at least one tile of."""
    return (key | key >> 1 | key >> 2) & ALL_KINDS


def over_four(key: int) -> int:
    """Nonzero when some kind holds 5..7 tiles (digits with bit 2 and bit 0 or 1 set)."""
    return key >> 2 & (key | key >> 1) & ALL_KINDS


def count_of(key: int, kind: int) -> int:
    """Tiles of ``kind`` in a hand key (0 for flowers, which keys do not hold)."""
    return key >> KIND_BITS * kind & 7 if kind < NUM_KINDS else 0


def hand_key(counts: Sequence[int]) -> int:
    """The hand key of 34-kind counts (each at most 7)."""
    return sum(c << KIND_BITS * k for k, c in enumerate(counts) if c)


def key_counts(key: int) -> list[int]:
    """The 34-kind counts of a hand key."""
    return [key >> KIND_BITS * k & 7 for k in range(NUM_KINDS)]


_YAOCHUU_SET: Final = kind_set(YAOCHUU)

# A *kind class* says what kinds a hand holds, as far as the yaku that look at kinds only care:
# OR the classes of the kinds held and the result decides tanyao, the flushes, honroutou,
# tsuuiisou, ryuuiisou and chinroutou (yaku.YakuTable.kind_facts).
# bits 0-3: suit m p s z
CLASS_YAOCHUU: Final = 16
CLASS_SIMPLE: Final = 32
CLASS_NOT_GREEN: Final = 64
CLASS_NOT_TERMINAL: Final = 128
_GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})  # 2s 3s 4s 6s 8s and hatsu (Y43)
_TERMINALS: Final = frozenset({0, 8, 9, 17, 18, 26})
KIND_CLASS: Final[tuple[int, ...]] = tuple(
    1 << k // 9 | (CLASS_YAOCHUU if k in YAOCHUU else CLASS_SIMPLE)
    | (0 if k in _GREEN else CLASS_NOT_GREEN) | (0 if k in _TERMINALS else CLASS_NOT_TERMINAL)
    for k in range(NUM_KINDS))
_SEQ_BITS: Final = tuple(KIND_BIT[i] + KIND_BIT[i + 1] + KIND_BIT[i + 2] for i in range(7))


class SuitPart(NamedTuple):
    """One way to split one suit of a complete hand into sets and at most one pair, with the
    facts the yaku and fu checks need, computed once per suit pattern.

    ``blocks`` are ``(is_triplet, kind)`` in the order of the search (lowest kind first; at a
    kind: pair, then triplet, then sequence), which is the order readings are compared in.
    Parts are built by prepending one block to a part of the rest of the suit, so each fact is
    updated in O(1) and a new suit pattern costs a few microseconds.
    """

    blocks: tuple[Block, ...]
    pair: int  # kind of the pair, -1 if none
    trips: tuple[int, ...]  # concealed triplets, in block order
    trip_set: int  # the same as a kind set
    n_seq: int
    seq_count: int  # sequences by starting kind, in the hand-key layout
    peikou: int  # pairs of identical sequences (Y09 iipeikou / Y29 ryanpeikou)
    ittsu: bool  # 123-456-789 of this suit (Y17)
    outside: bool  # every set and the pair hold a terminal or honour (Y18 / Y30)
    trip_fu: int  # fu of the triplets when all are concealed (P52: 4, 8 for terminals/honours)
    flags: int  # OR of the KIND_CLASS of its kinds (the same for every split of a suit key)
    fu_lines: tuple[tuple[str, int], ...]  # fu breakdown lines of its triplets, concealed (P52)
    #: ``waits[win % 9]``: where a winning tile ``win`` of this suit can sit (``part_waits``);
    #: the same for a pinzu part and its souzu twin.
    waits: tuple[tuple[tuple[str, bool], ...], ...]


_part: Final = tuple.__new__  # SuitPart(...) without the keyword-handling constructor frame
#: The class as a static of the compiled module: a class name is looked up in the module's dict at
#: every use (once per part of each new suit pattern).
_SUIT_PART: Final = SuitPart
_NO_WAITS: Final[tuple[tuple[tuple[str, bool], ...], ...]] = ((),) * 9  # until ``_with_waits``
_EMPTY_PART: Final = SuitPart((), -1, (), 0, 0, 0, 0, False, True, 0, 0, (), _NO_WAITS)
#: Fu breakdown line of a concealed / a ron-completed (open) triplet of each kind (P52).
TRIPLET_CLOSED: Final = tuple((f"triplet_closed {kind_name(k)}", 8 if k in YAOCHUU else 4) for k in range(NUM_KINDS))
TRIPLET_OPEN: Final = tuple((f"triplet_open {kind_name(k)}", 4 if k in YAOCHUU else 2) for k in range(NUM_KINDS))
_SEQ_CLASS: Final = tuple(KIND_CLASS[i] | KIND_CLASS[i + 1] | KIND_CLASS[i + 2] for i in range(NUM_KINDS - 2))
_ITTSU: Final = (kind_set((9, 12, 15)), kind_set((18, 21, 24)))


def _with_pair(p: SuitPart, kind: int) -> SuitPart:
    blocks, _, trips, trip_set, n_seq, seq_count, peikou, ittsu, outside, trip_fu, flags, fu_lines, _ = p
    return _part(SuitPart, (blocks, kind, trips, trip_set, n_seq, seq_count, peikou, ittsu,
                            outside and kind in YAOCHUU, trip_fu, flags | KIND_CLASS[kind], fu_lines, _NO_WAITS))


def _with_triplet(p: SuitPart, kind: int) -> SuitPart:
    blocks, pair, trips, trip_set, n_seq, seq_count, peikou, ittsu, outside, trip_fu, flags, fu_lines, _ = p
    return _part(SuitPart, (((1, kind), *blocks), pair, (kind, *trips), trip_set | KIND_BIT[kind], n_seq,
                            seq_count, peikou, ittsu, outside and kind in YAOCHUU,
                            trip_fu + (8 if kind in YAOCHUU else 4), flags | KIND_CLASS[kind],
                            (TRIPLET_CLOSED[kind], *fu_lines), _NO_WAITS))


def _with_sequence(p: SuitPart, kind: int) -> SuitPart:
    blocks, pair, trips, trip_set, n_seq, seq_count, peikou, ittsu, outside, trip_fu, flags, fu_lines, _ = p
    seqs = seq_count + KIND_BIT[kind]
    if n_seq >= 2 and not ittsu:
        held = (seqs | seqs >> 1 | seqs >> 2) & ALL_KINDS
        ittsu = held & _ITTSU[0] == _ITTSU[0] or held & _ITTSU[1] == _ITTSU[1]
    return _part(SuitPart, (((0, kind), *blocks), pair, trips, trip_set, n_seq + 1, seqs,
                            peikou + (seq_count >> KIND_BITS * kind & 1), ittsu,
                            outside and kind % 9 in (0, 6), trip_fu, flags | _SEQ_CLASS[kind], fu_lines, _NO_WAITS))


def part_waits(part: SuitPart, win: int) -> tuple[tuple[str, bool], ...]:
    """Where the winning tile ``win`` (of the part's suit) can sit in ``part``: ``(wait,
    on_triplet)`` for the pair (tanki) and each distinct set holding it, in block order."""
    return part.waits[win % 9]


def _with_waits(p: SuitPart, base: int) -> SuitPart:
    """``p`` with the placements of a winning tile of each kind of its suit."""
    blocks, pair = p.blocks, p.pair
    return p._replace(waits=tuple([_placements(blocks, pair, base + i) for i in range(9)]))


def _placements(blocks: tuple[Block, ...], pair: int, win: int) -> tuple[tuple[str, bool], ...]:
    out: list[tuple[str, bool]] = []
    if pair == win:
        out.append((TANKI, False))
    seen: set[Block] = set()
    for b in blocks:
        trip, k = b
        if b in seen:
            continue
        if trip and k == win:
            out.append((SHANPON, True))
        elif not trip and k <= win <= k + 2:
            if win == k + 1:
                out.append((KANCHAN, False))
            elif (win == k and k % 9 == 6) or (win == k + 2 and k % 9 == 0):
                out.append((PENCHAN, False))
            else:
                out.append((RYANMEN, False))
        else:
            continue
        seen.add(b)
    return tuple(out)


#: Per suit: (suit key << 1 | 1) → its parts. ``SUIT_PARTS[s].get(key << 1 | 1)`` is
#: ``suit_parts(s, key)`` once cached.
SUIT_PARTS: Final[tuple[dict[int, tuple[SuitPart, ...]], ...]] = ({}, {}, {}, {})
_PARTS: Final = SUIT_PARTS
#: Per suit: (suit key << 1 | pair still free) → its parts without waits, for ``_split``, which
#: builds a pattern's parts from its sub-patterns' (only without the table file).
_SPLITS: Final[tuple[dict[int, tuple[SuitPart, ...]], ...]] = ({}, {}, {}, {})
_CACHE_LIMIT: Final = 500_000
#: New suit patterns met before the table file is read (see ``suit_parts``).
TABLE_AFTER_MISSES: Final = 256
_misses: Final = [0]
_NO_PARTS: Final[tuple[SuitPart, ...]] = ()


def suit_parts(suit: int, key: int) -> tuple[SuitPart, ...]:
    """Every split of suit ``suit``'s key into sets and at most one pair (cached per pattern;
    empty when there is none): the same splits, in the same order, as ``decompositions``."""
    parts = _PARTS[suit].get(key << 1 | 1)
    if parts is None:
        memo = _PARTS[suit]
        if len(memo) > _CACHE_LIMIT:
            memo.clear()
        if not _table_state[0]:
            # Reading the table file costs ~0.1 s: worth it only for a process that meets many
            # patterns. (A hand given as a string reads it at once: hand.parse_concealed.)
            _misses[0] += 1
            if _misses[0] >= TABLE_AFTER_MISSES:
                load_table()
        recs = _TABLE_PARTS[suit].get(key)
        twin = _PARTS[3 - suit].get(key << 1 | 1) if suit in (1, 2) and recs is None else None
        if recs is not None:  # from the table file
            parts = tuple([_part(_SUIT_PART, r) for r in recs])
        elif twin is not None:  # pinzu and souzu patterns have the same splits, 9 kinds apart
            parts = tuple(_moved(p, 9 if suit == 2 else -9) for p in twin)
        else:
            splits = _SPLITS[suit]
            if len(splits) > _CACHE_LIMIT:
                splits.clear()
            parts = tuple([_with_waits(p, suit * 9) for p in _split(key, suit * 9, suit < 3, True, splits)])
        memo[key << 1 | 1] = parts
    return parts


def _moved(p: SuitPart, by: int) -> SuitPart:
    """The same split ``by`` kinds further (pinzu ↔ souzu)."""
    blocks = tuple((t, k + by) for t, k in p.blocks)
    pair = p.pair + by if p.pair >= 0 else -1
    trips = tuple(k + by for k in p.trips)
    shift = KIND_BITS * by
    flags = KIND_CLASS[pair] if pair >= 0 else 0
    for t, k in blocks:
        flags |= KIND_CLASS[k] if t else _SEQ_CLASS[k]
    return _part(SuitPart, (blocks, pair, trips, p.trip_set << shift if by > 0 else p.trip_set >> -shift, p.n_seq,
                            p.seq_count << shift if by > 0 else p.seq_count >> -shift, p.peikou, p.ittsu,
                            p.outside, p.trip_fu, flags, tuple(TRIPLET_CLOSED[k] for k in trips), p.waits))


def _split(key: int, base: int, runs: bool, pair_free: bool, memo: dict[int, tuple[SuitPart, ...]]
           ) -> tuple[SuitPart, ...]:
    """Depth-first splits of a suit key at its lowest kind: pair, then triplet, then sequence."""
    if not key:
        return (_EMPTY_PART,)
    mk = key << 1 | pair_free
    done = memo.get(mk)
    if done is not None:
        return done
    i = ((key & -key).bit_length() - 1) // KIND_BITS
    c = key >> KIND_BITS * i & 7
    one = KIND_BIT[i]
    k = base + i
    out: list[SuitPart] = []
    if pair_free and c >= 2:
        out += [_with_pair(p, k) for p in _split(key - 2 * one, base, runs, False, memo)]
    if c >= 3:
        out += [_with_triplet(p, k) for p in _split(key - 3 * one, base, runs, pair_free, memo)]
    if runs and i < 7 and key & (7 * KIND_BIT[i + 1]) and key & (7 * KIND_BIT[i + 2]):
        out += [_with_sequence(p, k) for p in _split(key - _SEQ_BITS[i], base, runs, pair_free, memo)]
    done = memo[mk] = tuple(out) if out else _NO_PARTS
    return done


# --- the suit-pattern table file ---------------------------------------------------------------
#
# Every suit pattern a complete hand can show (21,743 number-suit patterns: up to four sets and
# at most one pair, each kind at most four times; 498 honour patterns; 8 manzu patterns, which
# hold only 1m and 9m) is split once by ``tools/gen_suit_table.py`` into
# ``data/suit_parts.marshal.zlib``, with the winning-tile placements of every part and the usual
# digit string of every pattern. It holds no rule-dependent value. The file is read on the first
# cache miss (so by the first ``score_hand``, never by ``import sanma``); a part is made a
# ``SuitPart`` only when its pattern is first met. Without the file
# (or with one of another version) everything is computed as before, at first use.

TABLE_FILE: Final = str(DATA / "suit_parts.marshal.zlib")
TABLE_VERSION: Final = 1
WAIT_NAMES: Final = (RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI)
_MAX_SETS: Final = 4

#: The table's parts, once read: per suit, suit key → its parts as plain tuples.
_TABLE_PARTS: Final[tuple[dict[int, tuple[tuple[Any, ...], ...]], ...]] = ({}, {}, {}, {})
#: Manzu, number suits (pinzu and souzu share one), honours: usual digit string → suit-local key.
TABLE_DIGITS: Final[tuple[dict[str, int], dict[str, int], dict[str, int]]] = ({}, {}, {})
_table_state: Final = [False]  # read (or tried)


def complete_suit_keys(suit: int) -> list[int]:
    """Every key of ``suit`` that splits into at most four sets and at most one pair (with at
    most four tiles of a kind), the empty suit included, in increasing order."""
    kinds = 2 if suit == 0 else 7 if suit == 3 else 9
    offsets = (0, 8) if suit == 0 else tuple(range(kinds))
    blocks: list[int] = [3 * KIND_BIT[o] for o in offsets]
    if suit in (1, 2):
        blocks += list(_SEQ_BITS)
    found: set[int] = set()

    def fits(key: int) -> bool:
        return not over_four(key) and not (key >> 2 & key & ALL_KINDS)  # no kind above 4

    def rec(start: int, depth: int, key: int) -> None:
        found.add(key)
        for o in offsets:
            if fits(key + 2 * KIND_BIT[o]):
                found.add(key + 2 * KIND_BIT[o])
        if depth == _MAX_SETS:
            return
        for i in range(start, len(blocks)):
            if fits(key + blocks[i]):
                rec(i, depth + 1, key + blocks[i])

    rec(0, 0, 0)
    return sorted(found)


def _digits_of(key: int, suit: int) -> str:
    """The usual digit string of a suit-local key (each digit as often as its count)."""
    return "".join(str(i + 1) * (key >> KIND_BITS * i & 7) for i in range(9 if suit < 3 else 7))


def build_table() -> tuple[Any, ...]:
    """The table file's content, computed afresh (independent of the caches): ``(version,
    wait names, parts, digits)``. ``parts[s]`` maps each complete key of suit s to its parts,
    each a plain tuple of the ``SuitPart`` fields; equal values are one object, which marshal
    writes once. Only tuples, ints and strings: once the garbage collector has seen
    them it stops tracking them, so the table does not slow later collections. ``digits``
    maps the usual digit string of each complete manzu / number-suit / honour pattern to its
    suit-local key."""
    shared: dict[Any, Any] = {}

    def one(x: Any) -> Any:
        return shared.setdefault((type(x), x), x)

    parts: list[dict[int, tuple[tuple[Any, ...], ...]]] = []
    for suit in range(4):
        memo: dict[int, tuple[SuitPart, ...]] = {}
        table: dict[int, tuple[tuple[Any, ...], ...]] = {}
        for key in complete_suit_keys(suit):
            if not key:
                continue
            recs = []
            for p in _split(key, suit * 9, suit < 3, True, memo):
                waits = one(tuple([one(_placements(p.blocks, p.pair, suit * 9 + i)) for i in range(9)]))
                blocks = one(tuple(one(b) for b in p.blocks))
                recs.append((blocks, p.pair, one(p.trips), *(one(x) for x in p[3:11]), one(p.fu_lines), waits))
            if recs:
                table[key] = tuple(recs)
        parts.append(table)
    digits = tuple({_digits_of(k, s): k for k in complete_suit_keys(s) if k} for s in (0, 1, 3))
    return (TABLE_VERSION, WAIT_NAMES, tuple(parts), digits)


def read_table_file(path: str = TABLE_FILE) -> tuple[Any, ...] | None:
    """The table file's content, or None when it is missing or not of this version."""
    try:
        with open(path, "rb") as f:
            data = marshal.loads(zlib.decompress(f.read()))
    except (OSError, ValueError, EOFError, TypeError, zlib.error):
        return None
    if type(data) is not tuple or len(data) != 4 or data[0] != TABLE_VERSION:
        return None
    return data


def write_table_file(path: str = TABLE_FILE) -> int:
    """Write the table file (``tools/gen_suit_table.py``); its size in bytes."""
    blob = zlib.compress(marshal.dumps(build_table(), 4), 9)
    with open(path, "wb") as f:
        f.write(blob)
    return len(blob)


def table_loaded() -> bool:
    """Whether ``load_table`` has run."""
    return _table_state[0]


def load_table() -> None:
    """Read the table file into the lookup tables (once; later calls do nothing)."""
    if _table_state[0]:
        return
    _table_state[0] = True
    data = read_table_file()
    if data is None:
        return
    _, names, parts, digits = data
    # The scorer compares wait names with ``is``. marshal writes each name once and refers to
    # it everywhere else, and interns it when read: the file is used only if its names are
    # this module's constants.
    if len(names) != len(WAIT_NAMES) or any(a is not b for a, b in zip(names, WAIT_NAMES, strict=True)):
        return
    for suit in range(4):
        _TABLE_PARTS[suit].update(parts[suit])
    for mine, saved in zip(TABLE_DIGITS, digits, strict=True):
        mine.update(saved)
    # The lookup dicts have just become tracked by the garbage collector, so they are young: the
    # next collection of the older young generation would walk their 44k entries (~0.5 ms, inside
    # a later call). Collecting the young generations now moves them to the old one, where only
    # a full collection visits them. (Reading the file with the collector off and collecting once
    # after was tried: that one pass over ~100k new tuples cost more than the ~150 small ones.)
    gc.collect(1)
