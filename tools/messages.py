"""The message catalogues (issue 24), managed with Babel.

    python tools/messages.py update    # extract every marked sentence (babel.cfg), merge into each .po
    python tools/messages.py compile   # .po -> .mo (make install runs it; the CI builds from a clean checkout)
    python tools/messages.py check     # list sentences without a translation (exit 1 if any)

``make messages`` runs ``update``; translate the new (empty) entries of
``src/sanma/i18n/locale/ja/LC_MESSAGES/sanma.po``; ``make install`` compiles them.
tests/test_i18n_messages.py checks that every extracted sentence has its Japanese.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "sanma" / "i18n" / "locale"
DOMAIN = "sanma"
LANGS = ("ja",)
#: tr("..."), tr_n("one", "many", n), sentence(...), sentence_n(...); the rule fields' docs _f(default, "doc", rows)
#: and what a preset does where it reads its seed, Reading(preset, kind, seed, line, quote, "reading", ...)
#: trc("context", "..."), sentence_c(...): a sentence in a context (msgctxt)
KEYWORDS = {"tr": None, "tr_n": (1, 2), "sentence": None, "sentence_n": (1, 2), "_f": (2,), "Reading": (6,),
            "trc": ((1, "c"), 2), "sentence_c": ((1, "c"), 2)}


def _method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """babel.cfg's sections as Babel's method map (patterns relative to the checkout)."""
    methods: list[tuple[str, str]] = []
    options: dict[str, dict[str, str]] = {}
    section: str | None = None
    for raw in (ROOT / "babel.cfg").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            method, _, pattern = line[1:-1].rpartition(": ")
            section = pattern.strip()
            methods.append((section, method.strip()))
            options[section] = {}
        elif section is not None and "=" in line:
            k, _, v = line.partition("=")
            options[section][k.strip()] = v.strip()
    return methods, options


def extract() -> Catalog:
    """Every sentence marked in the sources (the template a language's .po is updated from)."""
    methods, options = _method_map()
    cat = Catalog(domain=DOMAIN, project="sanma", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / "src", methods, options, keywords=KEYWORDS, comment_tags=("i18n:",), strip_comment_tags=True):
        cat.add(message, None, [(f"src/{filename}", lineno)], auto_comments=comments, context=context)
    return cat


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="sanma", charset="utf-8")
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def update() -> None:
    template = extract()
    for lang in LANGS:
        cat = read(lang)
        cat.update(template, no_fuzzy_matching=True, update_creation_date=False)
        cat.obsolete.clear()  # a sentence no source says any more is dropped (git keeps its history)
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, cat, width=120, sort_by_file=True, include_previous=False, omit_header=False)
        missing = [m.id for m in cat if m.id and not _translated(m.string)]
        print(f"{path.relative_to(ROOT)}: {len(cat)} sentences, {len(missing)} to translate")


def _translated(string: object) -> bool:
    if isinstance(string, tuple | list):
        return all(bool(s) for s in string)
    return bool(string)


def compile_all() -> None:
    for lang in LANGS:
        cat = read(lang)
        out = po_path(lang).with_suffix(".mo")
        with out.open("wb") as f:
            write_mo(f, cat, use_fuzzy=False)


def check() -> int:
    template = extract()
    bad = 0
    for lang in LANGS:
        cat = read(lang)
        for m in template:
            if not m.id:
                continue
            have = cat.get(m.id, context=m.context)
            if have is None or not _translated(have.string) or have.fuzzy:
                bad += 1
                where = ", ".join(f"{f}:{n}" for f, n in m.locations[:2])
                print(f"{lang}: no translation of {m.id!r} ({where})")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "update":
        update()
        return 0
    if command == "compile":
        compile_all()
        return 0
    if command == "check":
        return check()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
