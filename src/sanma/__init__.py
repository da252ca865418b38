"""sanma: three-player Japanese riichi mahjong — rules engine, scoring, game engine and tools.

>>> import sanma
>>> sanma.Rules.preset("tenhou").start_points
35000
>>> sanma.shanten("19m19p19s1234567z")
0
"""

import sys as _sys

if _sys.argv[:1] == ["-m"] or _sys.argv[0].endswith(("/sanma", "\\sanma", "sanma.exe")):
    # The command line is starting (``python -m sanma`` or the ``sanma`` script): a Ctrl-C while
    # the package loads ends it quietly (exit 130), never with a traceback of the import.
    import signal as _signal

    def _interrupted_while_loading(signum: int, frame: object) -> None:
        import os

        print("interrupted before the command started: nothing was done", file=_sys.stderr, flush=True)
        os._exit(130)

    # until sanma.cli.main() starts, which makes Ctrl-C a KeyboardInterrupt again and handles it
    _signal.signal(_signal.SIGINT, _interrupted_while_loading)

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
