"""Reading game records (Tenhou mjlog XML, tenhou.net/6 JSON, majiang JSON, mjai JSONL) and writing
games (mjai JSONL, tenhou.net/6 JSON: :mod:`sanma.formats.writers`).

Every reader returns a :class:`GameRecord` (see :mod:`sanma.formats.record`); ``read_record``
picks the reader from the content. Readers are lenient: problems are collected in
``record.errors`` (with file, kyoku and position); ``strict=True`` raises
:class:`sanma.errors.RecordError` at the first one.

>>> rec = read_record('{"log": "not a list"}')
>>> rec.errors
("<text>: not tenhou.net/6 JSON (no 'log' list)",)
"""

from __future__ import annotations

from pathlib import Path

from ..errors import RecordError
from ..i18n.messages import sentence
from .majiang import read_majiang
from .mjai import read_mjai
from .record import (
    DrawResult,
    GameRecord,
    KyokuRecord,
    RecordedWin,
    read_guarded,
)
from .tenhou import read_mjlog, read_tenhou6
from .writers import write_mjai, write_tenhou6

__all__ = [
    "DrawResult",
    "GameRecord",
    "KyokuRecord",
    "RecordedWin",
    "detect_format",
    "read_majiang",
    "read_mjai",
    "read_mjlog",
    "read_record",
    "read_tenhou6",
    "write_mjai",
    "write_tenhou6",
]


def detect_format(text: str) -> str:
    """``mjlog``, ``tenhou6``, ``majiang`` or ``mjai`` from the start of a record's text."""
    head = text.lstrip()[:4096]
    if head.startswith("<"):
        return "mjlog"
    first_line = head.split("\n", 1)[0]
    if head.startswith("{") and '"type"' in first_line and "\n" in text.strip():
        return "mjai"
    if '"qipai"' in head or '"qijia"' in text[-4096:] or '"shoupai"' in head:
        return "majiang"
    if head.startswith(("{", "[")):
        return "tenhou6"
    raise RecordError(sentence("unknown record format: starts with {head!r}", head=head[:20]))


def read_record(path_or_text: str | Path | bytes, *, strict: bool = False) -> GameRecord:
    """Read any supported record, detecting its format from the content."""

    def body(text: str, source: str) -> GameRecord:
        reader = {"mjlog": read_mjlog, "tenhou6": read_tenhou6, "majiang": read_majiang,
                  "mjai": read_mjai}[detect_format(text)]
        return reader(text, strict=strict, source=source)

    return read_guarded("unknown", path_or_text, strict, None, body)
