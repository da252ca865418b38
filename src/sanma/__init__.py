"""sanma: three-player Japanese riichi mahjong — rules engine, scoring, game engine and tools.

>>> import sanma
>>> sanma.Rules.preset("tenhou").start_points
35000
"""

from .errors import (
    HandError,
    IllegalActionError,
    NotAWinError,
    RecordError,
    RulesError,
    SanmaError,
    ScoringError,
    TileError,
)
from .rules import Rules
from .tiles import Tile, parse_tiles, to_mpsz

__version__ = "0.1.0"

__all__ = [
    "HandError",
    "IllegalActionError",
    "NotAWinError",
    "RecordError",
    "Rules",
    "RulesError",
    "SanmaError",
    "ScoringError",
    "Tile",
    "TileError",
    "parse_tiles",
    "to_mpsz",
]
