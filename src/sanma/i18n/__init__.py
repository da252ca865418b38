"""Japanese and English from one vocabulary and one set of catalogues (issue 24).

* :mod:`sanma.i18n.terms` — the vocabulary: every yaku, fu part, limit, wind, tile, call, draw,
  result, penalty and rule field as a :class:`Term` with an id, its Japanese and English names and
  the other spellings the record sources use (the record readers look names up there).
* :mod:`sanma.i18n.messages` — sentences: gettext catalogues with named parameters, managed with
  Babel (``tr``, ``tr_n`` now; ``sentence``, ``sentence_n`` later, at the edge; ``describe`` an error).
* :mod:`sanma.i18n.lang` — the two languages and how one is chosen (``--lang``, ``SANMA_LANG``,
  ``LANG``; a browser's remembered switch, then its ``Accept-Language``).
* :mod:`sanma.i18n.extract` — the pages' sentences (``t()`` in JavaScript, ``data-t`` in HTML), for
  Babel and for the server, which serves each language's page catalogue from the page files.

>>> from sanma.i18n import term_name
>>> term_name("yaku", "riichi", "ja"), term_name("limit", "mangan", "en")
('立直', 'Mangan')
"""

from __future__ import annotations

from .lang import LANG_NAMES, LANGS, Lang, choose_lang, current_lang, from_accept_language, is_lang, set_lang
from .messages import Message, describe, sentence, sentence_n, tr, tr_n
from .term import Term
from .terms import (
    TERMS,
    fu_line,
    lookup,
    record_name,
    round_name,
    term,
    term_name,
    tile_name,
    wind_short,
    yaku_key,
)

__all__ = [
    "LANGS", "LANG_NAMES", "TERMS", "Lang", "Message", "Term", "choose_lang", "current_lang", "describe",
    "from_accept_language", "fu_line", "is_lang", "lookup", "record_name", "round_name", "sentence", "sentence_n",
    "set_lang", "term", "term_name", "tile_name", "tr", "tr_n", "wind_short", "yaku_key",
]
