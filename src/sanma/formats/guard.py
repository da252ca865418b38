"""The input guard every reader goes through: a record comes as a path, bytes or its text, is
bounded in size (:data:`MAX_BYTES`), read as UTF-8 from a regular file only, and JSON is refused
past :data:`MAX_JSON_DEPTH` levels before it is parsed; :class:`Problems` collects what a lenient
reader finds (``strict`` raises at the first), and :func:`read_guarded` turns any ``RecordError``
into the one error of an empty record when lenient.

>>> load_text('{"log": []}')
('{"log": []}', '<text>')
>>> read_guarded("tenhou6", b"\\xff", False, None, lambda text, src: None).errors
('<bytes>: not UTF-8 text (byte 0)',)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from .. import events as ev
from ..errors import RecordError, SanmaError
from ..i18n.messages import Keyword, Message, Said, sentence
from .record import GameRecord


class Problems:
    """Collects problems found while reading one file (``strict`` raises at the first).

    A problem is a coded sentence (``sentence("unknown yaku {name!r}", code="unknown_yaku", ...)``),
    kept in ``items`` as a :class:`~sanma.i18n.messages.Said`: its English text (what ``record.errors``
    compares, joins and sends as JSON) that the edge still puts into its reader's words, with the
    file, the kyoku (:func:`kyoku_words`) and the place in it (a sentence too) before it.

    >>> p = Problems("a.json", False)
    >>> p.add(sentence("unknown yaku {name!r}", code="unknown_yaku", name="x"), "S3-1", sentence("line {n}", n=4))
    >>> p.items[0], p.items[0].message.text("ja"), p.items[0].message.code
    ("a.json: kyoku S3-1: line 4: unknown yaku 'x'", "a.json: 南3局 1本場: 4行目: 不明な役 'x'", 'unknown_yaku')
    """

    def __init__(self, source: str, strict: bool) -> None:
        self.source = source
        self.strict = strict
        self.items: list[str] = []

    def add(self, problem: Message, kyoku: str | None = None, where: Message | None = None) -> None:
        params: dict[str, object] = {"source": self.source or "<text>"}
        template = "{source}: "
        if kyoku:
            params["kyoku"] = kyoku_words(kyoku)
            template += "{kyoku}: "
        if where is not None:
            params["where"] = where
            template += "{where}: "
        params["problem"] = problem
        # no words of its own (not in the catalogue): its parts are sentences, each put into words
        said = Message(template + "{problem}", params, code=problem.code or "record")
        if self.strict:
            raise RecordError(said)
        self.items.append(Said(said))


def kyoku_words(label: str) -> Message:
    """A kyoku's label (``E1``, ``S3-2``; ``#4`` where the record names none) in words.

    >>> [(str(kyoku_words(x)), kyoku_words(x).text("ja")) for x in ("E1", "S3-2", "#4")]
    [('kyoku E1', '東1局'), ('kyoku S3-2', '南3局 2本場'), ('kyoku #4', '局 #4')]
    """
    m = re.fullmatch(r"([ESWN])(\d+)(?:-(\d+))?", label)
    if m is None:
        position = label.removeprefix("#")
        if position.isdigit():
            return sentence("kyoku #{n}", n=int(position))
        return sentence("kyoku {label}", label=label)
    wind = Keyword("wind", m[1])  # E in English, 東 in Japanese
    if m[3]:
        return sentence("kyoku {wind}{n}-{honba}", wind=wind, n=int(m[2]), honba=int(m[3]))
    return sentence("kyoku {wind}{n}", wind=wind, n=int(m[2]))


MAX_BYTES = 8 * 1024 * 1024  # real sanma records are < 100 kB; a hanchan mjlog is ~20 kB
MAX_JSON_DEPTH = 32


def load_text(path_or_text: str | bytes | Any, problems_source: str = "") -> tuple[str, str]:
    """Return ``(text, source)`` for a path, a ``Path``, bytes or the record text itself.

    A string that starts like a record (``<``, ``{``, ``[``), or holds a newline, or is longer
    than any path, is the text; any other string is a path. Raises :class:`RecordError` for
    unreadable or oversized input.
    """
    import os

    if isinstance(path_or_text, bytes):
        data, source = path_or_text, problems_source or "<bytes>"
    elif isinstance(path_or_text, str) and path_or_text.lstrip()[:1] in ("<", "{", "[") and \
            len(path_or_text) > MAX_BYTES:
        raise RecordError(sentence("{value}: record of {n} characters is larger than the {max_bytes} limit",
                                   value=problems_source or '<text>', n=len(path_or_text), max_bytes=MAX_BYTES))
    elif isinstance(path_or_text, str) and (path_or_text.lstrip()[:1] in ("<", "{", "[")
                                            or "\n" in path_or_text or len(path_or_text) > 4096):
        return path_or_text, problems_source or "<text>"
    elif isinstance(path_or_text, str | os.PathLike):
        source = os.fspath(path_or_text)
        if isinstance(source, bytes):
            source = source.decode(errors="replace")
        from ..fileio import read_regular

        data = read_regular(source, MAX_BYTES, sentence("the record"), RecordError)  # no FIFO, device or huge file
    else:
        raise RecordError(sentence("expected a path or the record text, got {name}",
                                   name=type(path_or_text).__name__))
    if len(data) > MAX_BYTES:
        raise RecordError(sentence("{source}: record of {n} bytes is larger than the {max_bytes} limit",
                                   source=source, n=len(data), max_bytes=MAX_BYTES))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(sentence("{source}: not UTF-8 text (byte {start})", source=source, start=e.start)) from None
    return text, source


def check_json_depth(text: str, source: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Reject JSON nested deeper than ``max_depth`` before ``json.loads`` sees it."""
    from ..fileio import json_too_deep

    i = json_too_deep(text, max_depth)
    if i is not None:
        raise RecordError(sentence("{source}: JSON nested deeper than {max_depth} levels at character {i}",
                                   source=source, max_depth=max_depth, i=i))


def parse_json(text: str, source: str) -> Any:
    import json

    check_json_depth(text, source)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(sentence("{source}: invalid JSON: {error}", source=source, error=e)) from None


def as_int(value: Any, what: str) -> int:
    """An int from a record field (bools and non-integral floats are rejected)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise RecordError(sentence("{what} must be an integer, got {value!r}", what=what, value=value))
    try:
        f = float(value)
    except ValueError:
        raise RecordError(sentence("{what} must be an integer, got {value!r}", what=what, value=value)) from None
    if f != f or f in (float("inf"), float("-inf")) or f != int(f):
        raise RecordError(sentence("{what} must be an integer, got {value!r}", what=what, value=value))
    return int(f)


def read_guarded(fmt: str, path_or_text: Any, strict: bool, source: str | None,
                 body: Callable[[str, str], GameRecord]) -> GameRecord:
    """Load the input and run ``body(text, source)``; in lenient mode any RecordError becomes
    the one error of an empty record instead of escaping."""
    src = source or (path_or_text if isinstance(path_or_text, str) and len(path_or_text) < 200
                     and "\n" not in path_or_text else "")
    try:
        text, src = load_text(path_or_text, source or "")
        return body(text, src)
    except RecordError as e:
        if strict:
            raise
        said = Said(e.message) if isinstance(e.message, Message) else str(e)  # its words at the edge
        return GameRecord(source=str(src or "<text>"), format=fmt, errors=(said,))


def error_text(e: Exception) -> Message:
    """A problem's sentence: a sanma error's own, else the exception's type and text (a reader's bug
    or a value no check foresaw: said as Python says it)."""
    if isinstance(e, SanmaError):
        if isinstance(e.message, Message):
            return e.message
        return Message("{error}", {"error": str(e)}, code=e.code)  # an error raised without a sentence
    return sentence("unexpected {kind}: {error}", code="record_bug", kind=type(e).__name__, error=str(e))


def events_of(game_or_events: Any) -> list[ev.Event]:
    """What a writer takes, as typed events: a ``Game`` (its ``log``), mjai dicts (each read by
    :func:`sanma.events.parse_event`, so a malformed one is an error naming it) or typed events."""
    events = getattr(game_or_events, "log", None)
    if events is None:
        events = getattr(game_or_events, "events", game_or_events)
    if isinstance(events, str | bytes | dict) or not isinstance(events, Iterable):
        raise RecordError(sentence("expected a Game or a sequence of events, got {name}",
                                   name=type(game_or_events).__name__))
    out: list[ev.Event] = []
    for i, e in enumerate(events):
        if isinstance(e, ev.Event):
            out.append(e)
            continue
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            raise RecordError(sentence("event {i} is not an mjai event (a dict with a 'type'): {error!r}",
                                       i=i, error=e))
        try:
            out.append(ev.parse_event(e))
        except ev.EventError as err:
            raise ev.EventError(sentence("event {i}: {err}", i=i, err=err)) from None
    return out
