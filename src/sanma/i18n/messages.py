"""Sentences in both languages: gettext catalogues with named parameters, managed with Babel.

A sentence is written once, in English, as a template with named parameters, and marked so that
Babel extracts it (``make messages``; its Japanese is in ``locale/ja/LC_MESSAGES/sanma.po``, compiled
to ``sanma.mo`` by ``make install`` in the tree and by the package build's ``setup.py``):

* ``tr("{n} riichi sticks on the table", n=2)`` — into words now, in the current language (a
  command sets it once from ``--lang``; the server per request and per connection);
* ``sentence("...", **params)`` — a :class:`Message`, put into words later, at the edge: an error carries
  one (``raise TileError(sentence(...))``), and the CLI, an HTTP answer, a WebSocket message or a page
  puts it into the words of its reader; ``str()`` of a message is its English;
* ``tr_n`` / ``sentence_n`` — the same with a singular and a plural (``{n}`` chooses; Japanese has one form);
* ``trc`` / ``sentence_c`` — the same with a context (gettext's ``msgctxt``, ``pgettext``): a short word
  that means different things in different places gets one entry per meaning (``trc("rate", "riichi")``
  is a statistics column, リーチ率; ``tr("riichi")`` the word, リーチ).

A parameter may itself be a message or a :class:`~sanma.i18n.term.Term`: it is put into the same
language. ``--json`` output and the protocols carry keys and codes, never these words.

>>> m = sentence("not a win: {reason}", reason="no yaku")
>>> str(m), m.text("ja")
('not a win: no yaku', 'あがりではありません: no yaku')

For tests, ``SANMA_PSEUDO=1`` puts every English sentence and term between ``⟦`` and ``⟧`` (a
pseudo-locale): what a command or a page shows outside the brackets was never translated.
"""

from __future__ import annotations

import gettext
import os
import re
import string
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from .lang import Lang, current_lang
from .term import Term

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
DOMAIN: Final = "sanma"
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
#: between a context and its message in a page catalogue's key (gettext's own separator, EOT)
CONTEXT_SEP: Final = "\x04"


def pseudo() -> bool:
    """Whether the pseudo-locale is on (``SANMA_PSEUDO=1``: tests that look for untranslated text)."""
    return os.environ.get("SANMA_PSEUDO", "") not in ("", "0")


def pseudo_params() -> bool:
    """``SANMA_PSEUDO=params``: the pseudo-locale that also leaves a sentence's plain-text parameters
    outside its brackets (English passed to a sentence as ready-made text is found too)."""
    return os.environ.get("SANMA_PSEUDO", "") == "params"


def in_words(lang: Lang) -> bool:
    """Whether to show a game's or a rule file's keys in words (``tsumo_son`` → ツモ損) rather than as
    they are written: not in English, where the keys are the words a rule file uses — except in the
    pseudo-locale, which stands in for another language."""
    return lang != "en" or pseudo()


def mark(text: str, lang: Lang) -> str:
    """``text`` as the pseudo-locale shows it (English words in brackets), else as it is."""
    return f"{PSEUDO_OPEN}{text}{PSEUDO_CLOSE}" if lang == "en" and pseudo() else text


@cache
def catalogue(lang: Lang) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the templates themselves)."""
    if lang == "en":
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as f:
            return gettext.GNUTranslations(f)
    except OSError:
        warnings.warn(f"the {lang} message catalogue {path} is not built (make install compiles it): "
                      f"sentences are shown in English", RuntimeWarning, stacklevel=2)
        return gettext.NullTranslations()


@dataclass(frozen=True, slots=True)
class Keyword:
    """A key a sentence names where the English says the key itself — the word a command takes
    (``sanma table abort 1 --kind kyuushu``, a penalty ``false_call``) — and another language its
    term's name (九種九牌, 誤ポン・誤カン); a key without a term is shown as it is."""

    kind: str
    key: str

    def name(self, lang: Lang) -> str:
        if lang == "en":
            return self.key
        from .terms import lookup, term

        t = term(self.kind, self.key) or lookup(self.kind, self.key)  # its key, else another spelling
        return self.key if t is None else t.name(lang)


@dataclass(frozen=True, slots=True)
class TileWord:
    """A tile named in a sentence (``discard {tile}``), put into the reader's words at the edge:
    ``6z`` is ``G`` in English and 發 in Japanese; a number tile stays ``5p`` (:func:`terms.tile_short`)."""

    mpsz: str

    def name(self, lang: Lang) -> str:
        from .terms import tile_short

        return tile_short(self.mpsz, lang)


class Said(str):
    """A text kept as a ``str`` (a record's ``errors``: compared, joined, sent as JSON in its English)
    that remembers the sentence it says, so that the edge still puts it into its reader's words.

    >>> said_ = Said(sentence("not a win: {reason}", reason="no yaku"))
    >>> said_ == "not a win: no yaku", fill("{e}", {"e": said_}, "ja")
    (True, 'あがりではありません: no yaku')
    """

    message: Message

    def __new__(cls, message: Message) -> Said:
        self = super().__new__(cls, str(message))
        self.message = message
        return self

    def __getnewargs__(self) -> tuple[Message]:  # type: ignore[override]  # pickled with its sentence
        return (self.message,)


def _render(value: object, lang: Lang) -> object:
    if isinstance(value, Said):
        return value.message.text(lang)
    if isinstance(value, Message):
        return value.text(lang)
    if isinstance(value, Term | Keyword | TileWord):
        return mark(value.name(lang), lang)
    if isinstance(value, BaseException):  # an error inside another error's message
        return describe(value, lang)
    return value


def _pseudo_fill(template: str, params: Mapping[str, object]) -> str:
    """The pseudo-locale's words: each run of the template's own words between brackets, each
    parameter as it is put into words — a sentence or a term in its own brackets, a plain text
    bare, so that English handed to a sentence as a ready-made text (never routed through the
    catalogue) still shows outside the brackets.

    >>> import os; os.environ["SANMA_PSEUDO"] = "params"
    >>> _pseudo_fill("{who}: {why!r}", {"who": sentence("a seat"), "why": "no yaku"})
    "⟦a seat⟧⟦: ⟧'no yaku'"
    >>> del os.environ["SANMA_PSEUDO"]
    """
    f = string.Formatter()
    rendered = {k: _render(v, "en") for k, v in params.items()}
    out: list[str] = []
    for literal, field, spec, conversion in f.parse(template):
        if literal:
            out.append(mark(literal, "en") if literal.strip() else literal)
        if field is not None:
            value, _ = f.get_field(field, (), rendered)
            out.append(f.format_field(f.convert_field(value, conversion), spec or ""))
    return "".join(out)


def fill(template: str, params: Mapping[str, object], lang: Lang) -> str:
    """``template`` with its named parameters, each put into ``lang`` first. A template is always a
    format string, so ``{{`` and ``}}`` say a literal brace with or without parameters:

    >>> fill('send {{"token": T}}', {}, "en")
    'send {"token": T}'
    """
    if not params:  # never raises: a stored or built text without parameters is shown as it is
        return template.replace("{{", "{").replace("}}", "}")
    return template.format_map({k: _render(v, lang) for k, v in params.items()})


class Message:
    """A sentence to put into words later: its English template (the catalogue's msgid), a plural
    form and its count when it has one, its named parameters, and a code (an error's)."""

    __slots__ = ("code", "context", "n", "params", "plural", "template")

    def __init__(self, template: str, params: Mapping[str, object] | None = None, *, code: str | None = None,
                 plural: str | None = None, n: int | None = None, context: str | None = None) -> None:
        self.template = template
        self.plural = plural
        self.n = n
        self.code = code
        self.context = context  # the catalogue's msgctxt: which of a word's meanings this is
        self.params: Mapping[str, object] = params or {}

    def text(self, lang: Lang | None = None) -> str:
        """The sentence in ``lang`` (default: the current language)."""
        lang = current_lang() if lang is None else lang
        cat = catalogue(lang)
        count = self.n if self.n is not None else 1
        if self.plural is not None:
            words = (cat.ngettext(self.template, self.plural, count) if self.context is None
                     else cat.npgettext(self.context, self.template, self.plural, count))
        else:
            words = cat.gettext(self.template) if self.context is None else cat.pgettext(self.context, self.template)
        try:
            if lang == "en" and pseudo_params():
                return _pseudo_fill(words, self.params)
            return mark(fill(words, self.params, lang), lang)
        except (KeyError, IndexError, ValueError):  # a translation naming a parameter wrongly: say the English
            return mark(str(self), lang)

    def __str__(self) -> str:
        return fill(self.plural if self.plural is not None and self.n != 1 else self.template, self.params, "en")

    def __repr__(self) -> str:
        return f"sentence({self.template!r}{''.join(f', {k}={v!r}' for k, v in self.params.items())})"

    def to_json(self) -> dict[str, Any]:
        """What a JSON edge sends beside the words: the code and the parameters' plain values."""
        out: dict[str, Any] = {"code": self.code} if self.code else {}
        params = {k: (v.key if isinstance(v, Term | Keyword) else str(v) if isinstance(v, Message) else v)
                  for k, v in self.params.items() if isinstance(v, str | int | float | bool | Term | Keyword | Message)}
        if params:
            out["params"] = params
        return out


def to_data(message: Message) -> dict[str, Any]:
    """A sentence as plain JSON, to be put into words later by whoever reads it (a state kept in a
    cache, sent to several readers): ``{"text": template, "params": {...}}`` (and ``plural``, ``n``,
    ``code`` when it has them); a term parameter is ``{"term": "kind.key"}``, a :class:`Keyword`
    ``{"key": "kind.key"}``, a :class:`TileWord` ``{"tile": "6z"}``, a sentence one nested.

    >>> from sanma.i18n import term
    >>> m = sentence("{who}: {kind}", who="Aki", kind=term("draw", "kyuushu"))
    >>> to_data(m)
    {'text': '{who}: {kind}', 'params': {'who': 'Aki', 'kind': {'term': 'draw.kyuushu'}}}
    >>> said(to_data(m), "ja"), said(to_data(m), "en")
    ('Aki: 九種九牌', 'Aki: Nine terminals (abortive draw)')
    """
    def value(v: object) -> object:
        if isinstance(v, Term):
            return {"term": v.id}
        if isinstance(v, Keyword):
            return {"key": f"{v.kind}.{v.key}"}
        if isinstance(v, TileWord):
            return {"tile": v.mpsz}
        if isinstance(v, Message):
            return to_data(v)
        return v if isinstance(v, str | int | float | bool) or v is None else str(v)

    out: dict[str, Any] = {"text": message.template, "params": {k: value(v) for k, v in message.params.items()}}
    if message.plural is not None:
        out.update(plural=message.plural, n=message.n)
    if message.context is not None:
        out["context"] = message.context
    if message.code:
        out["code"] = message.code
    return out


def from_data(data: Mapping[str, Any]) -> Message:
    """The sentence :func:`to_data` wrote (a term it names that no longer exists is shown by its key)."""
    from .terms import term

    def value(v: object) -> object:
        if isinstance(v, Mapping) and set(v) == {"term"}:
            kind, _, key = str(v["term"]).partition(".")
            return term(kind, key) or key.replace("_", " ")
        if isinstance(v, Mapping) and set(v) == {"key"}:
            kind, _, key = str(v["key"]).partition(".")
            return Keyword(kind, key)
        if isinstance(v, Mapping) and set(v) == {"tile"}:
            return TileWord(str(v["tile"]))
        if isinstance(v, Mapping) and "text" in v:
            return from_data(v)
        return v

    params = {str(k): value(v) for k, v in (data.get("params") or {}).items()}
    return Message(str(data["text"]), params, code=data.get("code"), plural=data.get("plural"), n=data.get("n"),
                   context=data.get("context"))


def said(data: Mapping[str, Any], lang: Lang | None = None) -> str:
    """The words, in ``lang`` (default: the current language), of a sentence kept as :func:`to_data`."""
    return from_data(data).text(lang)


def sentence(template: str, /, *, code: str | None = None, **params: object) -> Message:
    """A sentence put into words later (an error's, one a server sends to several readers)."""
    return Message(template, params, code=code)


def sentence_n(singular: str, plural: str, n: int, /, *, code: str | None = None, **params: object) -> Message:
    """:func:`sentence` with a plural form: ``n`` chooses (``{n}`` is a parameter when the text uses it)."""
    return Message(singular, {"n": n, **params}, code=code, plural=plural, n=n)


def sentence_c(context: str, template: str, /, *, code: str | None = None, **params: object) -> Message:
    """:func:`sentence` in a context (gettext's ``msgctxt``): one of a word's meanings."""
    return Message(template, params, code=code, context=context)


def tr(template: str, /, **params: object) -> str:
    """The sentence in the current language, now."""
    return Message(template, params).text()


def tr_n(singular: str, plural: str, n: int, /, **params: object) -> str:
    """:func:`tr` with a plural form."""
    return Message(singular, {"n": n, **params}, plural=plural, n=n).text()


def trc(context: str, template: str, /, **params: object) -> str:
    """:func:`tr` in a context (gettext's ``msgctxt``): ``trc("rate", "draw")`` is the statistics
    column (流局率), not the word (流局)."""
    return Message(template, params, context=context).text()


def fields(template: str) -> set[str]:
    """The named parameters a template uses (a translation must use the same ones)."""
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(template) if f}


def describe(error: BaseException, lang: Lang | None = None) -> str:
    """An error in words at the edge: a sanma error's message in ``lang``, anything else as it says."""
    message = getattr(error, "message", None)
    if isinstance(message, Message):
        return message.text(lang)
    return mark(str(error), current_lang() if lang is None else lang)


def page_catalogue(lang: Lang, sources: Iterable[Path]) -> dict[str, Any]:
    """What a page needs to speak ``lang``, from the page files themselves (no build step): every
    sentence they mark (:mod:`sanma.i18n.extract`) in ``lang`` — a plural sentence as its forms, the
    catalogue's plural rule choosing among them — and every term's name by id."""
    from .extract import page_messages
    from .terms import TERMS

    cat = catalogue(lang)
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for path in sorted(sources):
        kind = "html" if path.suffix == ".html" else "js"
        for _, msgid, plural in page_messages(path.read_text(encoding="utf-8"), kind):
            context, _, bare = msgid.rpartition(CONTEXT_SEP)
            if context:  # tc("rate", "riichi") in a page: the key is context + SEP + msgid, as in a .mo
                messages[msgid] = mark(cat.pgettext(context, bare), lang)
            elif plural is None:
                messages[msgid] = mark(cat.gettext(msgid), lang)
            else:  # en: [one, many]; ja: one form (nplurals=1)
                forms = [cat.ngettext(msgid, plural, n) for n in ((1, 2) if lang == "en" else (1,))]
                plurals[msgid] = [mark(f, lang) for f in forms]
    terms = {t.id: mark(t.name(lang), lang) for t in TERMS}
    for t in TERMS:  # the other keys a term goes by (the keeper's three_winds, the engine's suukaikan)
        for alias in t.aliases:
            if re.fullmatch(r"[a-z][a-z0-9_]*", alias):
                terms.setdefault(f"{t.kind}.{alias}", mark(t.name(lang), lang))
    return {"lang": lang, "messages": messages, "plurals": plurals, "terms": terms}


_INNERMOST = re.compile(f"{PSEUDO_OPEN}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}")
_WORD = re.compile(r"(?<![\w./:@-])[A-Za-z][a-z]+(?:'[a-z]+)?(?![\w/@(-]|[:.][\w/])")


def untranslated(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` (shown in the pseudo-locale) outside its brackets: sentences
    and terms that were never routed through the catalogue or the vocabulary. Identifiers (with
    ``_``, digits or ``.``), options, paths and the ``allowed`` words (names a user chose, preset
    names) are not words."""
    while True:
        shorter = _INNERMOST.sub(" ", text)
        if shorter == text:
            break
        text = shorter
    keep = set(allowed)
    return [w for w in _WORD.findall(text) if w not in keep]
