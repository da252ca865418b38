"""Tenhou's sanma walls, reproduced from the seed in a game record.

Two seed forms occur in Tenhou records:

* ``mt19937ar-sha512-n288-base64,<base64>`` (``<SHUFFLE seed=...>``, 2010s on; FORMAT.md §8):
  the base64 text is 624 little-endian u32 fed to MT19937 ``init_by_array``. Per hand, 288
  ``genrand_int32`` outputs (as little-endian bytes) are hashed in 9 chunks of 128 bytes with
  SHA-512, giving 144 little-endian u32 ``rnd``.
* ``mt19937ar,<8 hex words>`` (the ``shuffle`` attribute of ``<INIT>``, 2009): the 8 words are the
  ``init_by_array`` key and ``rnd`` is the raw ``genrand_int32`` stream (no hashing), as verified
  against ``2009060321gm-00b9-0000-75b25bcf.xml``.

Either way the 108 valid 136-ids (0..3 and 32..135; 2m-8m are ids 4..31) start ascending and
``y[i]`` is swapped with ``y[i + rnd[i] % (108 - i)]`` for ``i`` in 0..106; the dice are the next
two values mod 6 (``rnd[135]``, ``rnd[136]`` in the SHA-512 form; ``rnd[107]``, ``rnd[108]`` in
the 2009 form). ``y`` read backwards is the deal order of :class:`sanma.game.wall.Wall`, whose
Tenhou layout (fixed 14-tile dead wall, 8 rinshan tiles) puts the deal at ``y[107..69]``, the live
draws at ``y[68..14]``, the replacements at ``y[1], y[0], y[3], y[2], ...`` and the dora indicator at
``y[9]`` (ura ``y[8]``, first kan dora ``y[11]``).

The 2009 form stacks the dead wall the other way up: its replacements are ``y[0], y[1]`` and its
dora indicator is ``y[8]``, so its dead-wall stacks are turned over before building the ``Wall``.
Verified on the one hand of ``2009060321gm-00b9-0000-75b25bcf.xml``: the 39 dealt ids, the dice,
20 live draws, 2 kita replacements (``y[0]``, ``y[1]``) and the dora indicator (``y[8]``). Not
verifiable there: the ura and kan dora places (taken as the stacks turned over: ura ``y[9]``,
first kan dora ``y[10]``), and what a second hand would use — each 2009 ``<INIT>`` carries its own
``shuffle`` attribute, so take the first wall of ``tenhou_walls(init_shuffle)`` per hand.

>>> seed = "mt19937ar,5EE931AE,6705E689,792A825C,D96AAEBB,D335223E,025A7B84,9697551A,0A449EA2"
>>> first = next(tenhou_walls(seed))
>>> first.dice, [tile_id for tile_id in first.haipai_ids[0][:4]]
((2, 4), [3, 84, 135, 86])
>>> str(first.dora_indicators[0]), first.wall().remaining
('3z', 55)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from ..errors import RecordError
from ..i18n.messages import sentence
from ..rules.schema import Rules
from ..tiles import Tile
from .wall import HAIPAI_POSITIONS, MAX_KAN_DORA, Wall

SHA512_PREFIX = "mt19937ar-sha512-n288-base64,"
OLD_PREFIX = "mt19937ar,"
#: Tenhou's 136-ids of the sanma tile set, ascending (2m..8m are ids 4..31).
SANMA_IDS: tuple[int, ...] = (*range(4), *range(32, 136))
RED_IDS = frozenset({52, 88})  # 0p, 0s
#: Tenhou's dead wall (FORMAT.md §8, PLATFORMS.md): always 14 tiles, 8 of them rinshan.
TENHOU_DEAD_WALL = 14

class MT19937:
    """The Mersenne Twister MT19937 (Matsumoto & Nishimura, mt19937ar.c, 2002 initialisation).

    >>> mt = MT19937([0x123, 0x234, 0x345, 0x456])  # mt19937ar.out reference values
    >>> [mt.genrand_int32() for _ in range(3)]
    [1067595299, 955945823, 477289528]
    """

    __slots__ = ("_i", "_mt")

    def __init__(self, key: list[int] | tuple[int, ...]) -> None:
        self._mt = mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        # init_by_array
        i, j, n = 1, 0, len(key)
        for _ in range(max(624, n)):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= 624:
                mt[0], i = mt[623], 1
            if j >= n:
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self._i = 624

    def _twist(self) -> None:
        mt = self._mt
        for k in range(624):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
            mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._i = 0

    def genrand_int32(self) -> int:
        if self._i >= 624:
            self._twist()
        y = self._mt[self._i]
        self._i += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)


@cache
def tile_of_id(tile_id: int) -> Tile:
    """The tile of a Tenhou 136-id (kind = id // 4; ids 52 and 88 are the red 0p and 0s).

    >>> tile_of_id(52), tile_of_id(53), tile_of_id(135)
    (Tile.parse('0p'), Tile.parse('5p'), Tile.parse('7z'))
    """
    if not 0 <= tile_id < 136:
        raise RecordError(sentence("Tenhou tile id {id} is out of range 0..135", code="seed", id=tile_id))
    return Tile(tile_id // 4, tile_id in RED_IDS)


@dataclass(frozen=True, slots=True)
class TenhouKyokuWall:
    """One hand's wall as Tenhou generated it.

    ``ids`` is Tenhou's 108-array ``y`` (its dead wall at ``y[0..13]``), re-stacked for the 2009
    seed form so that every field below follows one layout. Hands are in deal order: dealer
    first (Tenhou's ``hai{oya}``), then the next seats.
    """

    ids: tuple[int, ...]
    dice: tuple[int, int]  # 1..6 each (Tenhou's INIT seed holds them as 0..5)

    def wall(self, rules: Rules | None = None) -> Wall:
        """A fresh :class:`Wall` over these tiles under ``rules`` (default: the ``tenhou`` preset,
        whose wall fields are Tenhou's: P05 one red 5p and 5s, P14 fixed 14 with 8 rinshan, refilled)."""
        return Wall.from_tiles(rules or Rules.preset("tenhou"), [tile_of_id(i) for i in reversed(self.ids)],
                               self.dice)

    @property
    def deal_ids(self) -> tuple[int, ...]:
        """The 136-ids in deal order (``ids`` reversed)."""
        return self.ids[::-1]

    @property
    def haipai_ids(self) -> tuple[tuple[int, ...], ...]:
        """The starting hands as 136-ids in Tenhou's INIT order, dealer first."""
        z = self.deal_ids
        return tuple(tuple(z[i] for i in pos) for pos in HAIPAI_POSITIONS)

    @property
    def haipai(self) -> tuple[tuple[Tile, ...], ...]:
        return self.wall().haipai

    @property
    def draws(self) -> tuple[Tile, ...]:
        """The live wall in draw order, before any replacement shortens it (55 tiles)."""
        return self.wall().live_tiles

    @property
    def replacements(self) -> tuple[Tile, ...]:
        """The 8 rinshan tiles in the order kans and kita take them."""
        return self.wall().rinshan_tiles

    @property
    def dora_indicators(self) -> tuple[Tile, ...]:
        """The dora indicator, then kan dora indicators 1..4 (as the kans would turn them)."""
        return self._all_indicators().dora_indicators

    @property
    def ura_indicators(self) -> tuple[Tile, ...]:
        """The ura under each of :attr:`dora_indicators`."""
        return self._all_indicators().ura_indicators

    def _all_indicators(self) -> Wall:
        w = self.wall()
        for _ in range(MAX_KAN_DORA):
            w.draw_replacement()  # each kan takes its replacement before the kan dora is turned
            w.reveal_kan_dora()
        return w


def _key(seed_text: str) -> tuple[list[int], bool]:
    """The MT19937 key and whether the seed is the SHA-512 form."""
    if seed_text.startswith(SHA512_PREFIX):
        try:
            raw = base64.b64decode(seed_text[len(SHA512_PREFIX):], validate=True)
        except binascii.Error as e:
            raise RecordError(sentence("Tenhou seed {seed!r}...: invalid base64 ({why})", code="seed",
                                       seed=seed_text[:40], why=str(e))) from None
        if len(raw) != 624 * 4:
            raise RecordError(sentence("Tenhou seed {seed!r}...: {n} bytes after base64, expected {expected}",
                                       code="seed", seed=seed_text[:40], n=len(raw), expected=624 * 4))
        return list(struct.unpack("<624I", raw)), True
    if seed_text.startswith(OLD_PREFIX):
        words = seed_text[len(OLD_PREFIX):].split(",")
        try:
            key = [int(w, 16) for w in words]
        except ValueError:
            raise RecordError(sentence("Tenhou seed {seed!r}: expected hex words after {prefix!r}", code="seed",
                                       seed=seed_text, prefix=OLD_PREFIX)) from None
        if not key or any(not 0 <= k <= 0xFFFFFFFF for k in key):
            raise RecordError(sentence("Tenhou seed {seed!r}: expected 32-bit hex words after {prefix!r}",
                                       code="seed", seed=seed_text, prefix=OLD_PREFIX))
        return key, False
    raise RecordError(sentence("Tenhou seed {seed!r}: expected {new!r}<base64> or {old!r}<hex words>", code="seed",
                               seed=seed_text[:40], new=SHA512_PREFIX, old=OLD_PREFIX))


class MT19937Stream:
    """The ``genrand_int32`` stream of MT19937 over an ``init_by_array`` key, as little-endian words.

    Python's own generator (in C) is MT19937: ``random.seed(n)`` feeds the 32-bit words of ``n``,
    least significant first, to ``init_by_array``, and ``getrandbits(32 * k)`` returns the next
    ``k`` outputs with the first in the lowest bits. So a key whose last word is not 0 (a longer
    int would drop it) runs there, about a hundred times faster than :class:`MT19937`, which
    stays the reference (a test compares both) and takes the other keys.
    """

    __slots__ = ("_mt", "_random")

    def __init__(self, key: list[int]) -> None:
        self._random: random.Random | None = None
        self._mt: MT19937 | None = None
        if key and key[-1]:
            self._random = random.Random(int.from_bytes(struct.pack(f"<{len(key)}I", *key), "little"))
        else:
            self._mt = MT19937(key)

    def words(self, k: int) -> bytes:
        """The next ``k`` outputs, 4 little-endian bytes each."""
        if self._random is not None:
            return self._random.getrandbits(32 * k).to_bytes(4 * k, "little")
        assert self._mt is not None
        gen = self._mt.genrand_int32
        return struct.pack(f"<{k}I", *[gen() for _ in range(k)])

    def ints(self, k: int) -> tuple[int, ...]:
        return struct.unpack(f"<{k}I", self.words(k))


def _shuffle(rnd: list[int] | tuple[int, ...]) -> list[int]:
    y = list(SANMA_IDS)
    n = len(y)
    for i in range(n - 1):
        j = i + rnd[i] % (n - i)
        y[i], y[j] = y[j], y[i]
    return y


def tenhou_walls(seed_text: str) -> Iterator[TenhouKyokuWall]:
    """The walls of a Tenhou sanma game, one per hand, from its seed (either form above).

    Raises ``RecordError`` if the seed text is malformed.
    """
    key, sha = _key(seed_text)
    stream = MT19937Stream(key)
    n = len(SANMA_IDS)
    while True:
        if sha:
            src = stream.words(288)
            rnd: list[int] = []
            for c in range(9):
                rnd.extend(struct.unpack("<16I", hashlib.sha512(src[c * 128:(c + 1) * 128]).digest()))
            y = _shuffle(rnd)
            dice = (rnd[135] % 6 + 1, rnd[136] % 6 + 1)
        else:
            rnd = list(stream.ints(n - 1))
            y = _shuffle(rnd)
            d1, d2 = stream.ints(2)
            dice = (d1 % 6 + 1, d2 % 6 + 1)
            for s in range(0, TENHOU_DEAD_WALL, 2):  # the 2009 dead wall is stacked the other way up
                y[s], y[s + 1] = y[s + 1], y[s]
        yield TenhouKyokuWall(tuple(y), dice)
