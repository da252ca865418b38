"""Game records: one module per format, and the one registry of their readers and writers.

* ``mjlog``: Tenhou's XML (:mod:`~sanma.formats.mjlog`), read;
* ``tenhou6``: tenhou.net/6 JSON, Tenhou's and Mahjong Soul's (:mod:`~sanma.formats.tenhou6`), read
  and written;
* ``majiang``: 電脳麻将 JSON (:mod:`~sanma.formats.majiang`), read;
* ``mjai``: JSONL with sanma's extensions (:mod:`~sanma.formats.mjai`), read and written.

Every reader returns a :class:`GameRecord` (the record model, :mod:`sanma.formats.record`) whose
kyoku hold the engine's typed events; ``read_record`` picks the reader from the content
(:data:`READERS`), ``write_record`` writes a game in a format (:data:`WRITERS`). Readers are
lenient: problems are collected in ``record.errors`` (with file, kyoku and position);
``strict=True`` raises :class:`sanma.errors.RecordError` at the first one.

>>> rec = read_record('{"log": "not a list"}')
>>> rec.errors
("<text>: not tenhou.net/6 JSON (no 'log' list)",)
>>> sorted(READERS), sorted(WRITERS)
(['majiang', 'mjai', 'mjlog', 'tenhou6'], ['mjai', 'tenhou6'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Protocol

from ..errors import RecordError
from ..i18n.messages import sentence
from ..rules.schema import Rules
from .guard import read_guarded
from .majiang import read_majiang
from .mjai import read_mjai, write_mjai
from .mjlog import read_mjlog
from .record import DrawResult, GameRecord, KyokuRecord, RecordedWin
from .tenhou6 import read_tenhou6, write_tenhou6

__all__ = [
    "READERS",
    "WRITERS",
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
    "write_record",
    "write_tenhou6",
]


class Reader(Protocol):
    def __call__(self, path_or_text: str | Path | bytes, *, strict: bool = False,
                 source: str | None = None) -> GameRecord: ...


def _mjai_text(game_or_events: Any, rules: Rules | None) -> str:
    return write_mjai(game_or_events)


def _tenhou6_text(game_or_events: Any, rules: Rules | None) -> str:
    text: str = write_tenhou6(game_or_events, rules, as_text=True)
    return text


#: Each format's reader (``read_record`` picks one by the content, ``detect_format``).
READERS: Final[Mapping[str, Reader]] = MappingProxyType(
    {"mjlog": read_mjlog, "tenhou6": read_tenhou6, "majiang": read_majiang, "mjai": read_mjai})
#: The formats sanma writes: a game (a ``Game``, its events or typed events) and its rules -> text.
WRITERS: Final[Mapping[str, Callable[[Any, Rules | None], str]]] = MappingProxyType(
    {"mjai": _mjai_text, "tenhou6": _tenhou6_text})


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


def read_record(path_or_text: str | Path | bytes, *, strict: bool = False, source: str | None = None) -> GameRecord:
    """Read any supported record (a path, bytes or the text; ``source`` names it in messages),
    detecting its format from the content."""

    def body(text: str, src: str) -> GameRecord:
        return READERS[detect_format(text)](text, strict=strict, source=src)

    return read_guarded("unknown", path_or_text, strict, source, body)


def write_record(game_or_events: Any, fmt: str, rules: Rules | None = None) -> str:
    """A game in format ``fmt`` (one of :data:`WRITERS`) as text; ``rules`` default to the game's."""
    writer = WRITERS.get(fmt)
    if writer is None:
        raise RecordError(sentence("sanma writes {formats} records, not {fmt!r}",
                                   formats=" and ".join(sorted(WRITERS)), fmt=fmt))
    return writer(game_or_events, rules)
