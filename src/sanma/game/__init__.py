"""The game: walls (this package grows the state machine and settlement next)."""

from .. import _accel

_accel.extend(__name__, __path__)

from typing import TYPE_CHECKING, Any  # noqa: E402

from .wall import Wall, WallBuilder, seeded_walls  # noqa: E402

if TYPE_CHECKING:
    from .tenhou_shuffle import TenhouKyokuWall, tenhou_walls


def __getattr__(name: str) -> Any:
    if name in ("TenhouKyokuWall", "tenhou_walls"):  # Tenhou's shuffle: imported only by who uses it
        from . import tenhou_shuffle

        return getattr(tenhou_shuffle, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["TenhouKyokuWall", "Wall", "WallBuilder", "seeded_walls", "tenhou_walls"]
