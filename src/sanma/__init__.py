"""sanma: three-player Japanese riichi mahjong — rules engine, scoring, game engine and tools.

>>> import sanma
>>> sanma.Rules.preset("tenhou").start_points
35000
>>> sanma.shanten("19m19p19s1234567z")
0
"""

from . import _accel

_accel.extend(__name__, __path__)  # the mypyc-compiled modules, when built from these sources

from .errors import (  # noqa: E402
    HandError,
    IllegalActionError,
    NotAWinError,
    RecordError,
    RulesError,
    SanmaError,
    ScoringError,
    TileError,
)
from .hand import Meld  # noqa: E402
from .rules import Rules  # noqa: E402
from .scoring import Score, Yaku, score_hand  # noqa: E402
from .shanten_table import shanten, shanten_batch  # noqa: E402
from .tiles import Tile, parse_tiles, to_mpsz  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "HandError",
    "IllegalActionError",
    "Meld",
    "NotAWinError",
    "RecordError",
    "Rules",
    "RulesError",
    "SanmaError",
    "Score",
    "ScoringError",
    "Tile",
    "TileError",
    "Yaku",
    "parse_tiles",
    "score_hand",
    "shanten",
    "shanten_batch",
    "to_mpsz",
]
