"""Tiles and notation.

Inside sanma a tile kind is an int 0..33 (1m..9m, 1p..9p, 1s..9s, E S W N Wh G R), plus a red
flag; flowers (Kansai rules) are kinds 34..37. Outside, tiles are mpsz strings (``"19m0p5s77z"``,
``0`` = red five, ``f`` = flower) or mjai names (``"5pr"``, ``"N"``).

>>> Tile.parse("0p")
Tile.parse('0p')
>>> str(Tile.parse("0p")), Tile.parse("0p").red, Tile.parse("0p").kind
('0p', True, 13)
>>> to_mpsz(parse_tiles("9m1m123p55s0s77z"))
'19m123p055s77z'
>>> Tile.from_mjai("5sr"), Tile.parse("4z").mjai
(Tile.parse('0s'), 'N')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .errors import TileError
from .i18n.messages import sentence

NUM_KINDS: Final = 34
FLOWER_KINDS: Final = (34, 35, 36, 37)
SUITS: Final = "mpsz"
# One name per line, each Final: the compiled build inlines a Final literal, where a name bound by
# tuple unpacking is looked up in the module's dict at every use (the scorer reads these per hand).
MAN: Final = 0
PIN: Final = 1
SOU: Final = 2
HONOR: Final = 3

EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (WHITE, GREEN, RED)
# Kinds removed from sanma: 2m..8m (seed 000 L7 「萬子の2～8を抜いた108個の牌」, P01).
REMOVED_KINDS: Final = frozenset(range(1, 8))
SANMA_KINDS: Final = tuple(k for k in range(NUM_KINDS) if k not in REMOVED_KINDS)
TERMINALS: Final = (0, 8, 9, 17, 18, 26)
YAOCHUU: Final = frozenset(TERMINALS + WINDS + DRAGONS)
FIVES: Final = (13, 22)  # 5p, 5s: the only fives in sanma

WIND_LETTERS: Final = "ESWN"
#: Seats at a sanma table: the one home of the number (P00); every module takes it from here.
SEATS: Final = 3
MJAI_HONORS: Final = ("E", "S", "W", "N", "P", "F", "C")


def seat_wind(seat: int, dealer: int) -> str:
    """The seat wind (``E``, ``S`` or ``W``) of ``seat`` while seat ``dealer`` deals.

    >>> [seat_wind(s, 1) for s in range(SEATS)]
    ['W', 'E', 'S']
    """
    return WIND_LETTERS[(seat - dealer) % SEATS]


def kind_name(kind: int) -> str:
    """mpsz name of a kind, e.g. ``kind_name(30) == '4z'``."""
    if kind >= NUM_KINDS:
        return f"{kind - NUM_KINDS + 1}f"
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def suit_of(kind: int) -> int:
    return kind // 9


def is_honor(kind: int) -> bool:
    return 27 <= kind < NUM_KINDS


def successor(kind: int) -> int:
    """The dora indicated by ``kind`` under sanma's tile set (P08).

    1m→9m and 9m→1m (2m–8m are absent); 9→1 within p and s; E→S→W→N→E; Wh→G→R→Wh.

    >>> [kind_name(successor(k)) for k in (0, 8, 17, 30, 33)]
    ['9m', '1m', '1p', '1z', '5z']
    """
    if kind == 0:
        return 8
    if kind == 8:
        return 0
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    if kind < NUM_KINDS:
        return 31 + (kind - 31 + 1) % 3
    raise TileError(sentence("{tile} is a flower and cannot indicate dora", tile=kind_name(kind)))


_INTERNED: Final[dict[int, Tile]] = {}


class Tile:
    """One physical tile: a kind (0..33, flowers 34..37) and whether it is a red five.

    Tiles are immutable and interned (``Tile(13, True) is Tile(13, True)``), so equality and
    hashing are identity — the engine compares tiles on every step. They order by kind, a red
    five just after the plain one.
    """

    __slots__ = ("is_flower", "key", "kind", "mjai", "red")
    kind: int
    red: bool
    key: int  # kind * 2 + red: a dense int for tables
    is_flower: bool
    mjai: str  # mjai name; flowers use sanma's extension "1f".."4f"

    def __new__(cls, kind: int, red: bool = False) -> Tile:
        if type(kind) is int and type(red) is bool:
            t = _INTERNED.get(kind * 2 + red)
            if t is not None:
                return t
        if not isinstance(kind, int) or isinstance(kind, bool) or not isinstance(red, bool):
            raise TileError(sentence("a tile is (kind: int, red: bool), got ({kind!r}, {red!r})",
                                     kind=kind, red=red))
        if not 0 <= kind < NUM_KINDS + len(FLOWER_KINDS):
            raise TileError(sentence("tile kind {kind} is out of range 0..37", kind=kind))
        if red and (kind >= 27 or kind % 9 != 4):
            raise TileError(sentence("{tile} cannot be a red five", tile=kind_name(kind)))
        if kind in REMOVED_KINDS:
            raise TileError(sentence("{tile} is not in the sanma tile set (2m-8m are removed)",
                                     tile=kind_name(kind)))
        t = object.__new__(cls)
        for name, value in (("kind", kind), ("red", red), ("key", kind * 2 + red),
                            ("is_flower", kind >= NUM_KINDS), ("mjai", _mjai_name(kind, red))):
            object.__setattr__(t, name, value)
        _INTERNED[t.key] = t
        return t

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Tile is immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, bool]]:
        return (Tile, (self.kind, self.red))

    def __hash__(self) -> int:
        return self.key  # interned: equal tiles are the same object (equality stays identity)

    def __lt__(self, other: Tile) -> bool:
        return self.key < other.key

    def __le__(self, other: Tile) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Tile) -> bool:
        return self.key > other.key

    def __ge__(self, other: Tile) -> bool:
        return self.key >= other.key

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse one tile in mpsz notation (``"0p"`` is the red 5p, ``"2f"`` a flower)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileError(sentence("expected exactly one tile, got {n} in {text!r}",
                                     n=len(tiles), text=text))
        return tiles[0]

    @staticmethod
    def from_mjai(name: str) -> Tile:
        """Parse an mjai tile name: ``1m``..``9s``, ``5pr``/``5sr`` (red), ``E S W N P F C``."""
        if name in MJAI_HONORS:
            return Tile(27 + MJAI_HONORS.index(name))
        if len(name) == 2 and name[1] == "f" and name[0] in "1234":
            return Tile(NUM_KINDS + int(name[0]) - 1)
        if len(name) == 3 and name[2] == "r" and name[0] == "5" and name[1] in "ps":
            return Tile(SUITS.index(name[1]) * 9 + 4, red=True)
        if len(name) == 2 and name[0] in "123456789" and name[1] in "mps":
            try:
                return Tile(SUITS.index(name[1]) * 9 + int(name[0]) - 1)
            except TileError as e:
                raise TileError(sentence("invalid mjai tile {name!r}: {error}", name=name, error=e)) from None
        raise TileError(sentence("invalid mjai tile {name!r}: expected e.g. '1m', '5pr', 'E', 'N', 'C'",
                                 name=name))

    def __str__(self) -> str:
        if self.red:
            return f"0{SUITS[self.kind // 9]}"
        return kind_name(self.kind)

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


def _mjai_name(kind: int, red: bool) -> str:
    if kind >= NUM_KINDS:
        return kind_name(kind)  # sanma extension: flowers are "1f".."4f" (mjai has no flowers)
    if kind >= 27:
        return MJAI_HONORS[kind - 27]
    return kind_name(kind) + ("r" if red else "")


_tile = Tile


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse mpsz notation into tiles, in the order written.

    Digits are followed by their suit letter (``m p s z``, or ``f`` for flowers 1f-4f).
    Spaces are ignored. Errors name the input and the offending position.

    >>> parse_tiles("19m 0p")
    (Tile.parse('1m'), Tile.parse('9m'), Tile.parse('0p'))
    """
    if not isinstance(text, str):
        raise TileError(sentence("expected a tile string, got {name}", name=type(text).__name__))
    tiles: list[Tile] = []
    digits: list[tuple[int, str]] = []
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch in "0123456789":
            digits.append((pos, ch))
            continue
        if ch not in "mpszf":
            raise TileError(sentence("invalid tiles {text!r}: unexpected character {ch!r} at position {pos}",
                                     text=text, ch=ch, pos=pos))
        if not digits:
            raise TileError(sentence("invalid tiles {text!r}: suit letter {ch!r} at position {pos} has no "
                                     "digits", text=text, ch=ch, pos=pos))
        for dpos, d in digits:
            n = int(d)
            if ch == "z":
                if not 1 <= n <= 7:
                    raise TileError(sentence("invalid tiles {text!r}: {d}z at position {dpos} (honours are "
                                             "1z-7z)", text=text, d=d, dpos=dpos))
                tiles.append(_tile(26 + n, False))
            elif ch == "f":
                if not 1 <= n <= 4:
                    raise TileError(sentence("invalid tiles {text!r}: {d}f at position {dpos} (flowers are "
                                             "1f-4f)", text=text, d=d, dpos=dpos))
                tiles.append(_tile(NUM_KINDS + n - 1, False))
            elif n == 0:
                if ch == "m":
                    raise TileError(sentence("invalid tiles {text!r}: 0m at position {dpos}: there is no 5m "
                                             "in sanma", text=text, dpos=dpos))
                tiles.append(_tile(SUITS.index(ch) * 9 + 4, True))
            else:
                kind = SUITS.index(ch) * 9 + n - 1
                if kind in REMOVED_KINDS:
                    raise TileError(
                        sentence("invalid tiles {text!r}: {n}m is not in the sanma tile set (2m-8m are "
                                 "removed)", text=text, n=n)
                    )
                tiles.append(_tile(kind, False))
        digits.clear()
    if digits:
        pos = digits[0][0]
        raise TileError(sentence("invalid tiles {text!r}: digits from position {pos} have no suit letter",
                                 text=text, pos=pos))
    return tuple(tiles)


def to_mpsz(tiles: Iterable[Tile]) -> str:
    """Format tiles in sorted, compact mpsz (red fives as ``0``, placed where 5 sorts)."""
    groups: dict[str, list[str]] = {s: [] for s in "mpszf"}
    for t in sorted(tiles, key=lambda t: (t.kind, not t.red)):
        s = str(t)
        groups[s[1]].append(s[0])
    return "".join("".join(ds) + s for s, ds in groups.items() if ds)


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """Counts per kind (flowers ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        if t.kind < NUM_KINDS:
            c[t.kind] += 1
    return c


def sanma_wall(red_fives: dict[int, int] | None = None, flowers: int = 0) -> tuple[Tile, ...]:
    """The sanma tile set: 108 tiles (1m, 9m, 1-9p, 1-9s, honours, 4 each) plus flowers.

    ``red_fives`` maps 13 (5p) / 22 (5s) to how many of the four copies are red.

    >>> len(sanma_wall()), len(sanma_wall({13: 1, 22: 1}, flowers=4))
    (108, 112)
    """
    reds = red_fives or {}
    out: list[Tile] = []
    for k in SANMA_KINDS:
        r = reds.get(k, 0)
        out.extend(_tile(k, i < r) for i in range(4))
    out.extend(_tile(k, False) for k in FLOWER_KINDS[:flowers])
    return tuple(out)
