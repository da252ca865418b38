"""Japanese and English from one vocabulary (issue 24).

* :mod:`sanma.i18n.terms` — the vocabulary: every yaku, fu part, limit, wind, tile, call, draw,
  result, penalty and rule field as a :class:`Term` with an id, its Japanese and English names and
  the other spellings the record sources use (the record readers look names up there).
* :mod:`sanma.i18n.lang` — the two languages and how one is chosen (``--lang``, ``SANMA_LANG``,
  ``LANG``; a browser's ``Accept-Language`` and its remembered switch).

>>> from sanma.i18n import term_name
>>> term_name("yaku", "riichi", "ja"), term_name("limit", "mangan", "en")
('立直', 'Mangan')
"""

from __future__ import annotations

from .lang import LANG_NAMES, LANGS, Lang, choose_lang, current_lang, from_accept_language, is_lang, set_lang
from .term import Term
from .terms import TERMS, fu_line, lookup, record_name, round_name, term, term_name, tile_name, yaku_key

__all__ = [
    "LANGS", "LANG_NAMES", "TERMS", "Lang", "Term", "choose_lang", "current_lang", "from_accept_language",
    "fu_line", "is_lang", "lookup", "record_name", "round_name", "set_lang", "term", "term_name", "tile_name",
    "yaku_key",
]
