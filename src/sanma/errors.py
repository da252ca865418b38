"""The error family. Every error is a ``ValueError`` and its message names the bad input.

>>> import sanma
>>> try:
...     sanma.parse_tiles("123m")
... except sanma.SanmaError as e:
...     print(e)
invalid tiles '123m': 2m is not in the sanma tile set (2m-8m are removed)
"""

from __future__ import annotations


class SanmaError(ValueError):
    """Base class of every error sanma raises on bad input."""


class TileError(SanmaError):
    """A tile string that cannot be parsed or names a tile sanma does not have."""


class HandError(SanmaError):
    """A hand that cannot exist: wrong tile count, a fifth copy, an impossible meld."""


class RulesError(SanmaError):
    """A rule file or rule value that is unknown, mistyped or out of range."""


class ScoringError(SanmaError):
    """A request to score a hand that is inconsistent (e.g. ippatsu without riichi)."""


class NotAWinError(SanmaError):
    """The hand is not a complete hand, or it has no yaku / too few han under the rules."""


class IllegalActionError(SanmaError):
    """A game action that the rules do not allow at this point."""


class RecordError(SanmaError):
    """A game record (log) that is malformed or inconsistent."""
