"""Reading a user's file safely: only a regular file, and never more than a bound.

Every file sanma reads on a user's word (a rule file, a record) goes through :func:`read_regular`:
a FIFO, a device (``/dev/zero``, a terminal), a socket or a directory is refused before a single
byte is read, so nothing can make the reader wait forever or read without end. The file is
opened non-blocking (a FIFO with no writer would otherwise block ``open`` itself) and checked on
the open descriptor (no race between the check and the read). JSON from anyone (a record, a
request) is measured by :func:`json_too_deep` before a parser recurses into it.

>>> read_regular("/dev/zero", 10, "rule file")
Traceback (most recent call last):
...
sanma.errors.SanmaError: /dev/zero: cannot read rule file: not a regular file (a character device)
"""

from __future__ import annotations

import os
import stat

from .errors import SanmaError
from .i18n.messages import Message, sentence

_KINDS = ((stat.S_ISDIR, sentence("a directory")), (stat.S_ISFIFO, sentence("a FIFO")),
          (stat.S_ISCHR, sentence("a character device")), (stat.S_ISBLK, sentence("a block device")),
          (stat.S_ISSOCK, sentence("a socket")))


def read_regular(path: str | os.PathLike[str], limit: int, what: str | Message,
                 error: type[SanmaError] = SanmaError) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else ``error`` naming it.

    ``what`` says what the file was meant to be ("rule file", "record") in the message.
    """
    name = os.fsdecode(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise error(_unreadable(name, what, e.strerror or str(e))) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((k for test, k in _KINDS if test(st.st_mode)), sentence("not a file"))
            raise error(_unreadable(name, what, sentence("not a regular file ({kind})", kind=kind)))
        if st.st_size > limit:
            raise error(sentence("{name}: {what} of {size} bytes is larger than the {limit}-byte limit",
                                 code="too_large", name=name, what=what, size=st.st_size, limit=limit))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow while it is read: never more than limit + 1 bytes
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise error(_unreadable(name, what, e.strerror or str(e))) from None
    finally:
        os.close(fd)
    if size > limit:
        raise error(sentence("{name}: {what} is larger than the {limit}-byte limit", code="too_large", name=name,
                             what=what, limit=limit))
    return b"".join(chunks)


def _unreadable(name: str, what: str | Message, why: str | Message) -> Message:
    return sentence("{name}: cannot read {what}: {why}", code="unreadable", name=name, what=what, why=why)


def json_too_deep(text: str, limit: int) -> int | None:
    """Where ``text`` (JSON, before it is parsed) opens its ``limit + 1``-th nested array or object:
    the character's index, or None when it never nests deeper than ``limit``. Brackets inside
    strings do not count. Each edge raises its own error (``RecordError``, ``BadJSON``).

    >>> json_too_deep('[[1], {"a": "[[["}]', 2), json_too_deep("[[[]]]", 2)
    (None, 2)
    """
    if text.count("[") + text.count("{") <= limit:  # cannot nest deeper than it opens (a server's every message)
        return None
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return i
        elif ch in "]}":
            depth -= 1
    return None
