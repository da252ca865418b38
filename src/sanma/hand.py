"""Called melds and their notation.

A meld is written ``pon:555z``, ``kan:1111p`` (an open kan: daiminkan or kakan) or
``ankan:9999s`` (a concealed kan, which keeps the hand closed).

>>> Meld.parse("pon:505p")
Meld.parse('pon:055p')
>>> Meld.parse("ankan:9999s").is_open, Meld.parse("kan:1111z").is_kan
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import HandError, TileError
from .tiles import Tile, kind_name, parse_tiles, to_mpsz

MeldType = Literal["pon", "kan", "ankan"]
MELD_TYPES: tuple[MeldType, ...] = ("pon", "kan", "ankan")


@dataclass(frozen=True, slots=True)
class Meld:
    """A called set: a pon, an open kan or a concealed kan (sanma has no chi)."""

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


def meld_of(type_: MeldType, kind: int, red: int = 0) -> Meld:
    """A meld of ``kind`` with ``red`` red fives among its tiles."""
    size = 3 if type_ == "pon" else 4
    return Meld(type_, tuple(Tile(kind, i < red) for i in range(size)))


def describe_kind(kind: int) -> str:
    return kind_name(kind)
