"""The sentences of the pages: what Babel extracts from ``web/static`` and what the server serves.

A page marks its sentences in two ways, and this module reads both — for Babel (``make messages``,
through :func:`extract_pages`, named in ``babel.cfg``) and for the server, which serves each page
language's catalogue from the same files (:func:`page_messages`), so the pages need no build step:

* in JavaScript, ``t("Create table")``, ``t("{n} tiles left", {n})`` and
  ``tn("{n} stick", "{n} sticks", n, {n})`` (``web/static/i18n.js``); a template is one string
  literal, its parameters are named, as in Python's templates; ``tc("rate", "riichi")`` is a
  sentence in a context (gettext's ``msgctxt``: one of a short word's meanings, its msgid here
  the context, ``\\x04`` and the sentence, as in a compiled catalogue);
* in HTML, an element with ``data-t``: its text is a sentence (``<h2 data-t>New table</h2>``), and
  ``data-t="placeholder title"`` names attributes whose values are sentences too (``text`` among
  them keeps the text).

>>> [m[1:] for m in page_messages('x = t("Seed"); y = tn("{n} stick", "{n} sticks", n, {n});', "js")]
[('Seed', None), ('{n} stick', '{n} sticks')]
>>> [m[1:] for m in page_messages('<p data-t>New <b>x</b></p><input data-t="placeholder" placeholder="random">',
...                                "html")]
[('New x', None), ('random', None)]
>>> [m[1:] for m in page_messages('<h2 data-t="text title" title="All of it">New table</h2>', "html")]
[('All of it', None), ('New table', None)]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

# t("..."), t('...'), t(`...`) without ${}; tn("one", "many", ...)
_JS_T = re.compile(r"""(?<![\w$.])t\(\s*(?P<q>["'`])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)\s*[,)]""", re.S)
_JS_TN = re.compile(r"""(?<![\w$.])tn\(\s*(?P<q>["'`])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)\s*,\s*"""
                    r"""(?P<q2>["'`])(?P<p>(?:\\.|(?!(?P=q2)).)*)(?P=q2)""", re.S)
_JS_TC = re.compile(r"""(?<![\w$.])tc\(\s*(?P<q>["'])(?P<c>(?:\\.|(?!(?P=q)).)*)(?P=q)\s*,\s*"""
                    r"""(?P<q2>["'])(?P<s>(?:\\.|(?!(?P=q2)).)*)(?P=q2)\s*[,)]""", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "`": "`"}

Found = tuple[int, str, str | None]  # line, msgid, plural


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), s)


def _blank_comments(text: str) -> str:
    """``text`` with its JavaScript comments blanked (newlines kept, so lines still count); strings
    and template literals are skipped whole, so a ``//`` in a URL stays."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'`":
            j = i + 1
            while j < n and text[j] != c and not (c != "`" and text[j] == "\n"):
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out[i:j] = [ch if ch == "\n" else " " for ch in text[i:j]]
            i = j
        else:
            i += 1
    return "".join(out)


def _js(text: str) -> list[Found]:
    text = _blank_comments(text)
    out: list[tuple[int, int, str, str | None]] = []
    for m in _JS_T.finditer(text):
        if m.group("q") == "`" and "${" in m.group("s"):
            continue  # an interpolated template literal is no catalogue entry
        out.append((m.start(), text.count("\n", 0, m.start()) + 1, _unescape(m.group("s")), None))
    for m in _JS_TC.finditer(text):
        out.append((m.start(), text.count("\n", 0, m.start()) + 1,
                    f"{_unescape(m.group('c'))}\x04{_unescape(m.group('s'))}", None))
    for m in _JS_TN.finditer(text):
        out.append((m.start(), text.count("\n", 0, m.start()) + 1, _unescape(m.group("s")), _unescape(m.group("p"))))
    return [(line, s, p) for _, line, s, p in sorted(out)]


class _Pages(HTMLParser):
    """Collects the text of elements marked ``data-t`` (markup inside is dropped) and their named attributes."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                      "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Found] = []
        self.stack: list[tuple[str, bool, int, list[str]]] = []  # tag, collecting, line, text parts

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        marked = "data-t" in a
        names = (a.get("data-t") or "").split()
        for name in names:
            value = a.get(name)
            if name != "text" and value and value.strip():
                self.found.append((line, " ".join(value.split()), None))
        if tag not in self.VOID:
            self.stack.append((tag, marked and (not names or "text" in names), line, []))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            t, collecting, line, parts = self.stack.pop()
            if collecting:
                text = " ".join("".join(parts).split())
                if text:
                    self.found.append((line, text, None))
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, collecting, _, parts in self.stack:
            if collecting:
                parts.append(data)


def page_messages(text: str, kind: str) -> list[Found]:
    """``(line, msgid, plural)`` of every sentence a page file (``js`` or ``html``) marks."""
    if kind == "js":
        return _js(text)
    p = _Pages()
    p.feed(text)
    p.close()
    return sorted(p.found)


_DESCRIPTION = re.compile(r'^description\s*=\s*"((?:[^"\\]|\\.)*)"\s*$', re.M)


def extract_toml(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
                 ) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction method for the presets (``babel.cfg``): a preset's ``description``."""
    text = fileobj.read().decode("utf-8")
    for m in _DESCRIPTION.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, "tr", _unescape(m.group(1)), []


def extract_pages(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
                  ) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for the pages (``babel.cfg``)."""
    name = str(getattr(fileobj, "name", ""))
    text = fileobj.read().decode("utf-8")
    for line, msgid, plural in page_messages(text, "html" if name.endswith(".html") else "js"):
        context, sep, bare = msgid.rpartition("\x04")
        if sep:
            yield line, "trc", (context, bare), []  # Python's trc(): the context, then the sentence
        elif plural is None:
            yield line, "tr", msgid, []  # the keywords of Python's tr() and tr_n() (tools/messages.py)
        else:
            yield line, "tr_n", (msgid, plural), []


def _is_command(node: Any, registered: set[str]) -> bool:
    """A function Typer shows: decorated or registered as a command or a callback, or taking typer
    options or arguments."""
    import ast

    if not isinstance(node, ast.FunctionDef):
        return False
    if node.name in registered or any(
            isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ("command", "callback")
            for d in node.decorator_list):
        return True
    for a in (*node.args.args, *node.args.kwonlyargs):
        if a.annotation is not None and any(isinstance(n, ast.Attribute) and n.attr in ("Option", "Argument")
                                            for n in ast.walk(a.annotation)):
            return True
    return False


_COMMON = Path(__file__).resolve().parents[1] / "cli" / "common.py"


def _constants(text: str) -> dict[str, str]:
    """The module-level string constants of a module's source (``DB_WHERE = "..."``)."""
    import ast

    return {t.id: node.value.value for node in ast.parse(text).body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for t in node.targets if isinstance(t, ast.Name)}


def _literal(node: Any, known: dict[str, str]) -> str | None:
    """The text of a string literal, or of an f-string or a sum whose every part is a literal or a
    plain name of a known constant (``f"A database ({DB_WHERE})"``, ``RULES_HELP + " Default: ..."``:
    the text ``--help`` shows); else None."""
    import ast

    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # RULES_HELP + " Default: ..."
        left, right = _literal(node.left, known), _literal(node.right, known)
        return None if left is None or right is None else left + right
    if not isinstance(node, ast.JoinedStr):
        return None
    parts: list[str] = []
    for v in node.values:
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            parts.append(v.value)
        elif isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name) and v.conversion == -1 \
                and v.format_spec is None and v.value.id in known:
            parts.append(known[v.value.id])
        else:
            return None
    return "".join(parts)


def cli_help(text: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every help text of a command module: each ``help="..."`` of an option, an
    argument or a Typer app (a literal, or an f-string of the module's or cli/common.py's string
    constants such as ``DB_WHERE``; one built otherwise stays as it is), and each
    command's docstring as Typer shows it (cleaned like ``inspect.getdoc``)."""
    import ast

    tree = ast.parse(text)
    known = {**_constants(_COMMON.read_text(encoding="utf-8")), **_constants(text)}
    out: list[tuple[int, str]] = []
    registered = {n.args[0].id for n in ast.walk(tree)  # app.command("name")(function)
                  if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name)
                  and isinstance(n.func, ast.Call) and isinstance(n.func.func, ast.Attribute)
                  and n.func.func.attr in ("command", "callback")}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "help" and (help_text := _literal(kw.value, known)) is not None:
                    out.append((kw.value.lineno, help_text))
        if isinstance(node, ast.Assign) and (help_text := _literal(node.value, known)) is not None \
                and any(isinstance(t, ast.Name) and t.id.endswith("_HELP") for t in node.targets):
            out.append((node.value.lineno, help_text))  # a help text shared by several options
        if isinstance(node, ast.FunctionDef) and _is_command(node, registered):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                out.append((node.lineno, doc))
    return sorted(out)


def extract_cli_help(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    """Babel's extraction method for the command modules (``babel.cfg``): their sentences, as the
    Python extractor finds them, and their help texts (:func:`cli_help`; shown by ``--help`` in the
    command's language, sanma/cli/usage.py)."""
    import io

    from babel.messages.extract import extract_python

    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for line, text in cli_help(source.decode("utf-8")):
        yield line, "tr", text, []
