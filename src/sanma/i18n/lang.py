"""The languages sanma speaks and how one is chosen.

Two languages: Japanese (``ja``) and English (``en``, the default). A command chooses with
``--lang ja|en``, else ``SANMA_LANG``, else the locale's ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``
(``ja_JP.UTF-8`` is Japanese); anything else is English. A page chooses from the browser's
language, and the switch it remembers (a cookie) wins over it.

>>> choose_lang("ja"), choose_lang(None, {"SANMA_LANG": "en", "LANG": "ja_JP.UTF-8"})
('ja', 'en')
>>> choose_lang(None, {"LANG": "ja_JP.UTF-8"}), choose_lang(None, {"LANG": "C.UTF-8"})
('ja', 'en')
>>> from_accept_language("fr-CH, ja;q=0.9, en;q=0.8")
'ja'
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final, Literal, TypeGuard

Lang = Literal["en", "ja"]
#: Every language, the default first.
LANGS: Final[tuple[Lang, ...]] = ("en", "ja")
DEFAULT: Final[Lang] = "en"
#: Each language's own name, as a language switch shows it.
LANG_NAMES: Final[Mapping[Lang, str]] = {"en": "English", "ja": "日本語"}

_current: ContextVar[Lang] = ContextVar("sanma_lang", default=DEFAULT)


def is_lang(value: object) -> TypeGuard[Lang]:
    return value in LANGS


def lang_of_locale(value: str | None) -> Lang | None:
    """``ja_JP.UTF-8``, ``ja``, ``ja-JP`` → ``ja``; ``en_GB`` → ``en``; ``C``, ``POSIX``, ``fr`` → None."""
    if not value:
        return None
    head = value.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return head if is_lang(head) else None


def choose_lang(explicit: str | None = None, env: Mapping[str, str] | None = None) -> Lang:
    """The language of a command: ``explicit`` (``--lang``), else ``SANMA_LANG``, else the locale.

    An ``explicit`` value that is not a language is refused by the caller (the CLI's option only
    takes ``ja`` or ``en``); a ``SANMA_LANG`` that is not one is passed over, like a locale sanma
    does not speak.
    """
    if explicit is not None and is_lang(explicit):
        return explicit
    env = os.environ if env is None else env
    chosen = lang_of_locale(env.get("SANMA_LANG"))
    if chosen is not None:
        return chosen
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:  # the first one set decides, as for gettext (C / POSIX: English)
            return lang_of_locale(value) or DEFAULT
    return DEFAULT


def from_accept_language(header: str | None) -> Lang | None:
    """The language a browser prefers among sanma's, from its ``Accept-Language`` header."""
    if not header:
        return None
    best: tuple[float, int, Lang] | None = None
    for i, part in enumerate(header.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = lang_of_locale(tag)
        if lang is not None and q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, lang)
    return None if best is None else best[2]


def current_lang() -> Lang:
    """The language of what is being said now (set by the edge: a command, a request)."""
    return _current.get()


def set_lang(lang: Lang) -> None:
    """Speak ``lang`` from now on in this context (a command, a request, a connection)."""
    _current.set(lang)


@contextmanager
def speaking(lang: Lang) -> Iterator[None]:
    """Speak ``lang`` inside the block, then what was spoken before (a document written in one
    language whatever the command's)."""
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)
