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

from .agari import TABLE_DIGITS, load_table, table_loaded
from .errors import HandError, TileError
from .tiles import NUM_KINDS, Tile, parse_tiles, to_mpsz

MeldType = Literal["pon", "kan", "ankan"]
MELD_TYPES: Final[tuple[MeldType, ...]] = ("pon", "kan", "ankan")


@dataclass(frozen=True, slots=True)
class Meld:
    """A called set: a pon, an open kan or a concealed kan (sanma has no chi)."""

    # Immutable: a copy is the value itself (copy.deepcopy of a Game shares them).
    def __copy__(self) -> Meld:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Meld:
        return self

    type: MeldType
    tiles: tuple[Tile, ...]

    def __post_init__(self) -> None:
        size = 3 if self.type == "pon" else 4
        if len(self.tiles) != size:
            raise HandError(f"invalid meld {self}: a {self.type} has {size} tiles, got {len(self.tiles)}")
        if len({t.kind for t in self.tiles}) != 1:
            raise HandError(f"invalid meld {self}: a {self.type} needs {size} identical tiles")
        if self.tiles[0].is_flower:
            raise HandError(f"invalid meld {self}: flowers cannot be called")

    @staticmethod
    def parse(text: str) -> Meld:
        """Parse ``type:tiles``; a bare tile string of 3 or 4 tiles is a pon or an open kan."""
        if not isinstance(text, str):
            raise HandError(f"invalid meld {text!r}: expected a string like 'pon:555z'")
        kind, sep, rest = text.partition(":")
        if not sep:
            kind, rest = "", text
        try:
            tiles = parse_tiles(rest)
        except TileError as e:
            raise HandError(f"invalid meld {text!r}: {e}") from None
        if not kind:
            kind = "pon" if len(tiles) == 3 else "kan"
        if kind not in MELD_TYPES:
            raise HandError(f"invalid meld {text!r}: type must be one of pon, kan, ankan (got {kind!r})")
        try:
            return Meld(kind, tiles)
        except HandError as e:
            raise HandError(f"invalid meld {text!r}: {str(e).split(': ', 1)[-1]}") from None

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
# most once, in m p s z order, no spaces) is read suit by suit: each suit's digit string maps,
# through a cache of suit patterns, to its part of the key. Anything else (other orders, spaces,
# flowers, bad characters, 2m-8m, a fifth copy...) goes through the strict parser, which raises
# the precise errors.

Concealed = tuple[int, int, int, int, bool]  # (hand key, tiles, red 5p, red 5s, any flower)

# Digit → kind offset within the suit, per suit (m: only 1 and 9; p/s: 0 is the red five).
_DIGIT_OFFSET: Final[tuple[dict[str, int], ...]] = (
    {"1": 0, "9": 8},
    {str(d): d - 1 for d in range(1, 10)} | {"0": 4},
    {str(d): d - 1 for d in range(1, 10)} | {"0": 4},
    {str(d): d - 1 for d in range(1, 8)},
)
# Per suit: digit string → (its part of the hand key, tiles, red fives), () for the strict path.
_SUIT_DIGITS: Final[tuple[dict[str, tuple[int, int, int] | tuple[()]], ...]] = ({}, {}, {}, {})
_DIGITS_LIMIT: Final = 100_000
_TABLE_OF_SUIT: Final = (TABLE_DIGITS[0], TABLE_DIGITS[1], TABLE_DIGITS[1], TABLE_DIGITS[2])


def _suit_digits(suit: int, digits: str) -> tuple[int, int, int] | tuple[()]:
    """Read (and cache) one suit's digits."""
    cache = _SUIT_DIGITS[suit]
    if len(cache) > _DIGITS_LIMIT:
        cache.clear()
    if not table_loaded():
        load_table()
    local = _TABLE_OF_SUIT[suit].get(digits)
    if local is not None:  # the usual digits of a complete pattern (agari's table file)
        entry_t = cache[digits] = (local << 27 * suit, len(digits), 0)
        return entry_t
    if suit in (1, 2):  # pinzu and souzu read the same digits, 27 bits apart
        twin = _SUIT_DIGITS[3 - suit].get(digits)
        if twin is not None:
            entry_: tuple[int, int, int] | tuple[()] = twin and (
                twin[0] << 27 if suit == 2 else twin[0] >> 27, twin[1], twin[2])
            cache[digits] = entry_
            return entry_
    base = 27 * suit
    key = 0
    n = 0
    too_many = False
    for d, off in _DIGIT_OFFSET[suit].items():
        c = digits.count(d)
        if c:
            key += c << base + 3 * off
            n += c
            too_many |= c > 4
    reds = digits.count("0")
    entry: tuple[int, int, int] | tuple[()] = ()
    # Another character (0m, 2m-8m, 8z, a letter...) or a fifth copy: the strict path names it.
    if n == len(digits) and not too_many and reds + digits.count("5") <= 4:
        entry = (key, n, reds)
    cache[digits] = entry
    return entry

_MAN_DIGITS, _PIN_DIGITS, _SOU_DIGITS, _HONOUR_DIGITS = _SUIT_DIGITS
_NUMBER_TABLE: Final = TABLE_DIGITS[1]


def parse_concealed(text: str) -> Concealed | None:
    """The hand key of an mpsz string in the usual notation, or None if the strict parser must
    read it (see above).

    >>> from sanma.agari import key_counts
    >>> from sanma.tiles import kind_name
    >>> key, n, red_p, red_s, flowers = parse_concealed("19m0556p11z")
    >>> n, red_p, red_s, [kind_name(k) for k, c in enumerate(key_counts(key)) for _ in range(c)]
    (8, 1, 0, ['1m', '9m', '5p', '5p', '5p', '6p', '1z', '1z'])
    >>> parse_concealed("1p9m") is None, parse_concealed("123m") is None
    (True, True)
    """
    # Split at the first m, p, s and z (str.partition: cheaper than a regular expression); an
    # empty group, a repeated or misplaced letter or anything after the z goes to the strict path.
    man: str | None
    pin: str | None
    sou: str | None
    honours: str | None
    man, sep, rest = text.partition("m")
    if not sep:
        man, rest = None, text
    pin, sep, rest2 = rest.partition("p")
    if not sep:
        pin, rest2 = None, rest
    sou, sep, rest = rest2.partition("s")
    if not sep:
        sou, rest = None, rest2
    honours, sep, rest2 = rest.partition("z")
    if not sep:
        honours, rest2 = None, rest
    if rest2 or man == "" or pin == "" or sou == "" or honours == "":
        return None
    key = n = red_p = red_s = 0
    if man is not None:
        e = _MAN_DIGITS.get(man) or _suit_digits(0, man)
        if not e:
            return None
        key, n, _ = e
    # Pinzu and souzu first look in the table of complete patterns (agari.TABLE_DIGITS: every
    # split pattern in its usual digits, no red five; filled on the first _suit_digits call).
    if pin is not None:
        local = _NUMBER_TABLE.get(pin)
        if local is not None:
            key += local << 27
            n += len(pin)
        else:
            e = _PIN_DIGITS.get(pin) or _suit_digits(1, pin)
            if not e:
                return None
            key += e[0]
            n += e[1]
            red_p = e[2]
    if sou is not None:
        local = _NUMBER_TABLE.get(sou)
        if local is not None:
            key += local << 54
            n += len(sou)
        else:
            e = _SOU_DIGITS.get(sou) or _suit_digits(2, sou)
            if not e:
                return None
            key += e[0]
            n += e[1]
            red_s = e[2]
    if honours is not None:
        e = _HONOUR_DIGITS.get(honours) or _suit_digits(3, honours)
        if not e:
            return None
        key += e[0]
        n += e[1]
    return key, n, red_p, red_s, False


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
    return key, n, red_p, red_s, flowers
