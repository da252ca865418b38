"""The game: walls (this package grows the state machine and settlement next)."""

from .. import _accel

_accel.extend(__name__, __path__)

from .tenhou_shuffle import TenhouKyokuWall, tenhou_walls  # noqa: E402
from .wall import Wall, WallBuilder, seeded_walls  # noqa: E402

__all__ = ["TenhouKyokuWall", "Wall", "WallBuilder", "seeded_walls", "tenhou_walls"]
