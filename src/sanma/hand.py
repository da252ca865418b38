"""Called melds and their notation.

A meld is written ``pon:555z``, ``kan:1111p`` (an open kan: daiminkan or kakan) or
``ankan:9999s`` (a concealed kan, which keeps the hand closed).

>>> Meld.parse("pon:505p")
Meld.parse('pon:055p')
>>> Meld.parse("ankan:9999s").is_open, Meld.parse("kan:1111z").is_kan
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from mypy_extensions import i64

from .agari import load_table, table_loaded
from .errors import HandError, TileError
from .i18n.messages import Message, sentence
from .tiles import NUM_KINDS, Tile, parse_tiles, to_mpsz

MeldType = Literal["pon", "kan", "ankan"]
MELD_TYPES: Final[tuple[MeldType, ...]] = ("pon", "kan", "ankan")


@dataclass(frozen=True, slots=True)
class Meld:
    """A called set: a pon, an open kan or a concealed kan (sanma has no chi)."""

    type: MeldType
    tiles: tuple[Tile, ...]

    # Immutable: a copy is the value itself (copy.deepcopy of a Game shares them).
    def __copy__(self) -> Meld:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Meld:
        return self

    def __post_init__(self) -> None:
        size = 3 if self.type == "pon" else 4
        problem = None
        if len(self.tiles) != size:
            problem = sentence("a {type} has {size} tiles, got {n}", type=self.type, size=size, n=len(self.tiles))
        elif len({t.kind for t in self.tiles}) != 1:
            problem = sentence("a {type} needs {size} identical tiles", type=self.type, size=size)
        elif self.tiles[0].is_flower:
            problem = sentence("flowers cannot be called")
        if problem is not None:
            raise HandError(sentence("invalid meld {meld}: {problem}", meld=self, problem=problem))

    @staticmethod
    def parse(text: str) -> Meld:
        """Parse ``type:tiles``; a bare tile string of 3 or 4 tiles is a pon or an open kan."""
        if not isinstance(text, str):
            raise HandError(sentence("invalid meld {text!r}: expected a string like 'pon:555z'", text=text))
        kind, sep, rest = text.partition(":")
        if not sep:
            kind, rest = "", text
        try:
            tiles = parse_tiles(rest)
        except TileError as e:
            raise HandError(sentence("invalid meld {text!r}: {error}", text=text, error=e)) from None
        if not kind:
            kind = "pon" if len(tiles) == 3 else "kan"
        if kind not in MELD_TYPES:
            raise HandError(sentence("invalid meld {text!r}: type must be one of pon, kan, ankan (got "
                                     "{kind!r})", text=text, kind=kind))
        try:
            return Meld(kind, tiles)
        except HandError as e:
            problem = e.message.params["problem"] if isinstance(e.message, Message) else e
            raise HandError(sentence("invalid meld {text!r}: {problem}", text=text, problem=problem)) from None

    @property
    def kind(self) -> int:
        return self.tiles[0].kind

    @property
    def is_kan(self) -> bool:
        return self.type != "pon"

    @property
    def is_open(self) -> bool:
        return self.type != "ankan"

    def __str__(self) -> str:
        return f"{self.type}:{to_mpsz(self.tiles)}"

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


# --- concealed tiles as a hand key --------------------------------------------------------------
#
# The scorer works on hand keys (agari.KIND_BIT: three bits per kind). Parsing mpsz into Tile
# objects and counting them is most of the cost of a score, so the usual notation (each suit at
# most once, in m p s z order, no spaces) is read in place, suit by suit: each digit adds its
# kind's count to its suit's part of the key (_PLACE_OF_DIGIT). Anything else (other orders, spaces,
# flowers, bad characters, 2m-8m, a fifth copy...) goes through the strict parser, which raises
# the precise errors.

#: (hand key, tiles, red 5p, red 5s, any flower, then the key's four suits: manzu, pinzu, souzu and
#: honour keys, ``key >> 27 * suit & agari.SUIT_MASK``). The scorer looks suits up by their keys, which
#: are machine-size integers; taking them out of the 102-bit hand key would cost a big-integer
#: operation (a few hundred instructions) each.
Concealed = tuple[int, int, int, int, bool, int, int, int, int]

# Per suit (m, p, s, z), per digit 0-9, at ``10 * suit + digit``: the place of the kind it names in
# its suit (kind - 9 * suit), or 255 (2m-8m, 0m, 8z, ...: the strict parser reports those). 0p and
# 0s are the red fives. Bytes: indexing them gives a machine integer in the compiled build.
_NOT_HERE: Final = 255
_SUIT_MASK: Final = (1 << 27) - 1  # agari.SUIT_MASK: the nine kinds of a suit, three bits each
_PLACE_OF_DIGIT: Final = bytes(
    [0 if d == 1 else 8 if d == 9 else _NOT_HERE for d in range(10)]
    + [4 if d == 0 else d - 1 for d in range(10)] * 2
    + [d - 1 if 1 <= d <= 7 else _NOT_HERE for d in range(10)])
#: The suit (0-3) of each ASCII letter m p s z, 255 for any other character.
_SUIT_OF_CHAR: Final = bytes({109: 0, 112: 1, 115: 2, 122: 3}.get(o, _NOT_HERE) for o in range(128))


def parse_concealed(text: str) -> Concealed | None:
    """The hand key of an mpsz string in the usual notation (groups in the order m, p, s, z, each
    at most once, at most four of a kind), or None: the strict parser then reads it and names
    what is wrong.

    >>> from sanma.agari import key_counts
    >>> from sanma.tiles import kind_name
    >>> key, n, red_p, red_s, flowers, *suits = parse_concealed("19m0556p11z")
    >>> n, red_p, red_s, [kind_name(k) for k, c in enumerate(key_counts(key)) for _ in range(c)]
    (8, 1, 0, ['1m', '9m', '5p', '5p', '5p', '6p', '1z', '1z'])
    >>> parse_concealed("1p9m") is None, parse_concealed("123m") is None, parse_concealed("11111p") is None
    (True, True, True)
    """
    if not table_loaded():
        # The split patterns the scorer looks up next. Read at the first score rather than after
        # agari.TABLE_AFTER_MISSES new patterns: the collector's first pass over the table then
        # falls in that first call, not at a random later one (see docs/PERFORMANCE.md).
        load_table()
    # Each suit's part of the key (27 bits) is counted in a machine integer; the whole key (102
    # bits, an arbitrary-precision int) is made once at the end. Characters are read in place.
    man: i64 = 0
    pin: i64 = 0
    sou: i64 = 0
    hon: i64 = 0
    end: i64 = len(text)
    n: i64 = 0
    red_p: i64 = 0
    red_s: i64 = 0
    start: i64 = 0  # first digit of the group being read
    last_suit: i64 = -1
    i: i64 = 0
    while i < end:
        o: i64 = ord(text[i])
        if 48 <= o <= 57:
            i += 1
            continue
        suit: i64 = _SUIT_OF_CHAR[o] if o < 128 else _NOT_HERE
        if suit == _NOT_HERE or suit <= last_suit or i == start:  # another character, a repeated or misplaced
            return None  # letter, no digits
        local: i64 = 0  # the suit's part of the key
        j: i64 = start
        while j < i:
            d: i64 = ord(text[j]) - 48
            place: i64 = _PLACE_OF_DIGIT[10 * suit + d]
            if place == _NOT_HERE or (local >> 3 * place) & 7 == 4:  # not a sanma tile of this suit, a fifth copy
                return None
            local += 1 << 3 * place
            if d == 0:
                if suit == 1:
                    red_p += 1
                else:
                    red_s += 1
            j += 1
        if suit == 0:
            man = local
        elif suit == 1:
            pin = local
        elif suit == 2:
            sou = local
        else:
            hon = local
        n += i - start
        start = i + 1
        last_suit = suit
        i += 1
    if start != end:  # digits without a suit letter
        return None
    key = int(hon << 27 | sou) << 54 | int(man | pin << 27)  # two big-integer operations
    return key, n, red_p, red_s, False, man, pin, sou, hon


def concealed_from_tiles(tiles: Iterable[Tile]) -> Concealed:
    """The hand key of parsed tiles (flowers are noted, not counted; counts above 7 read as 7,
    which is still an impossible hand)."""
    counts = [0] * NUM_KINDS
    n = red_p = red_s = 0
    flowers = False
    for t in tiles:
        n += 1
        k = t.kind
        if k >= NUM_KINDS:
            flowers = True
            continue
        counts[k] += 1
        if t.red:
            if k == 13:
                red_p += 1
            else:
                red_s += 1
    key = sum(min(c, 7) << 3 * k for k, c in enumerate(counts) if c)
    return key, n, red_p, red_s, flowers, key & _SUIT_MASK, key >> 27 & _SUIT_MASK, key >> 54 & _SUIT_MASK, key >> 81
