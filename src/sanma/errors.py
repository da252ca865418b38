"""The error family. Every error is a ``ValueError`` and its message names the bad input.

An error carries a code (its class's, or a finer one its message gives) and its message as a
:class:`sanma.i18n.Message`, so the edge (the CLI, an HTTP answer, a WebSocket, a page) puts it into
its reader's language (``sanma.i18n.describe``); ``str(error)`` is the English.

>>> import sanma
>>> try:
...     sanma.parse_tiles("123m")
... except sanma.SanmaError as e:
...     print(e)
invalid tiles '123m': 2m is not in the sanma tile set (2m-8m are removed)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .i18n.messages import Message


class SanmaError(ValueError):
    """Base class of every error sanma raises on bad input."""

    #: the error's code when its message gives none (JSON edges send it beside the words)
    code_of_class: ClassVar[str] = "error"

    def __init__(self, message: str | Message = "", *args: object) -> None:
        super().__init__(str(message), *args)
        self.message = message

    @property
    def code(self) -> str:
        """A stable name of what went wrong: the message's code, else the error class's."""
        return getattr(self.message, "code", None) or self.code_of_class


class TileError(SanmaError):
    """A tile string that cannot be parsed or names a tile sanma does not have."""

    code_of_class = "tile"


class HandError(SanmaError):
    """A hand that cannot exist: wrong tile count, a fifth copy, an impossible meld."""

    code_of_class = "hand"


class RulesError(SanmaError):
    """A rule file or rule value that is unknown, mistyped or out of range."""

    code_of_class = "rules"


class ScoringError(SanmaError):
    """A request to score a hand that is inconsistent (e.g. ippatsu without riichi)."""

    code_of_class = "scoring"


class NotAWinError(SanmaError):
    """The hand is not a complete hand, or it has no yaku / too few han under the rules."""

    code_of_class = "not_a_win"


class IllegalActionError(SanmaError):
    """A game action that the rules do not allow at this point."""

    code_of_class = "illegal_action"


class RecordError(SanmaError):
    """A game record (log) that is malformed or inconsistent."""

    code_of_class = "record"
