"""The game: walls (this package grows the state machine and settlement next)."""

from .tenhou_shuffle import TenhouKyokuWall, tenhou_walls
from .wall import Wall, WallBuilder, seeded_walls

__all__ = ["TenhouKyokuWall", "Wall", "WallBuilder", "seeded_walls", "tenhou_walls"]
