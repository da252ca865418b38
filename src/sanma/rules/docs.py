"""Generate docs/RULES.md from the ``Rules`` schema and the six presets (``sanma rules docs``).

The groups are the ``# --- title (rows) ---`` sections of ``schema.py``; every field's type,
choices, default, doc and matrix rows come from the dataclass itself, so the document cannot
drift from the code (a test compares the committed file with ``render()``).

>>> groups = field_groups()
>>> groups[0][0], groups[0][1][:2]
('Tiles, walls, dora (P01-P22)', ('red_5p', 'red_5s'))
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Mapping
from typing import Any

from ..i18n import term, term_name, tr
from ..i18n.lang import Lang, speaking
from ..i18n.rulesheet import reading_kind, said
from . import schema
from .departures import Reading, readings_of
from .loader import PRESETS, load_preset, preset_path, to_dict
from .schema import RULE_FIELDS, STANDARD_YAKU_HAN, STANDARD_YAKUMAN, Rules, field_choices

_GROUP_RE = re.compile(r"^\s*# --- (?P<title>.+?) -+\s*$")
_SOURCE_RE = re.compile(r"source: (?P<source>.+?)(?: \(|\.$)")
_SET_RE = re.compile(r"^(?P<name>[a-z_0-9]+) = (?P<value>.+?)  # (?P<note>.*)$")
_FIELD_RE = re.compile(r"^    (?P<name>[a-z_0-9]+): ")

#: Fields that are not rules but identify the rule set.
IDENTITY_FIELDS = ("name", "description")


def field_groups() -> list[tuple[str, tuple[str, ...]]]:
    """The schema's field groups in order, each ``(title, field names)``; identity fields excluded."""
    source = inspect.getsource(schema.Rules)
    groups: list[tuple[str, list[str]]] = []
    for line in source.splitlines():
        m = _GROUP_RE.match(line)
        if m:
            title = m.group("title")
            groups.append((title[0].upper() + title[1:], []))
            continue
        f = _FIELD_RE.match(line)
        if f and f.group("name") in RULE_FIELDS and groups:
            groups[-1][1].append(f.group("name"))
    listed = {n for _, names in groups for n in names}
    missing = [n for n in RULE_FIELDS if n not in listed and n not in IDENTITY_FIELDS]
    if missing:  # a field declared before the first group marker: keep it visible
        groups.append(("Other", missing))
    return [(t, tuple(names)) for t, names in groups]


def type_text(name: str) -> str:
    """A field's type for the reader: the choices of an enum, else the Python type."""
    choices = field_choices(name)
    if choices is not None:
        return " \\| ".join(f"`{c}`" for c in choices)
    hint = typing.get_type_hints(Rules)[name]
    text = getattr(hint, "__name__", None) if typing.get_origin(hint) is None else None
    if text is None:
        text = str(hint).replace("typing.", "").replace("collections.abc.", "")
    return f"`{text}`"


def value_text(value: Any) -> str:
    """A value as it is written in a rule file (TOML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return f"{len(value)} entries"
    return str(value)


def preset_source(name: str) -> str:
    """The source a preset file names on its first line ("seed 003", "PLATFORMS.md §1")."""
    first = preset_path(name).read_text(encoding="utf-8").splitlines()[0]
    m = _SOURCE_RE.search(first)
    return m.group("source") if m else "?"


def silent_fields(name: str) -> list[tuple[str, str]]:
    """(field, value as written) of every preset line whose note says its source is silent."""
    out: list[tuple[str, str]] = []
    table = ""  # "" for the top-level fields, then "yaku." / "yakuman." after their headers
    for line in preset_path(name).read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            table = line.strip("[] ") + "."
            continue
        m = _SET_RE.match(line)
        if m and "silent" in m.group("note"):
            out.append((table + m.group("name"), m.group("value")))
    return out


def readings_anchor(name: str) -> str:
    """The docs/RULES.md anchor of a preset's "Seed readings" section."""
    return f"readings-{name}"


def _other_text(r: Reading) -> str:
    return ", ".join(f"`{n} = {value_text(v)}`" for n, v in r.other)


def _readings(name: str, lang: Lang = "en") -> list[str]:
    out = [f'<a id="{readings_anchor(name)}"></a>', "", f"### `{name}` — {preset_source(name)}", ""]
    listed = readings_of(name)
    if listed:
        out += [tr("| kind | seed | reading chosen | other reading, one field away | rows |"), "|---|---|---|---|---|"]
        for r in listed:
            seed = tr("seed {seed} L{line}", seed=r.seed, line=r.line)
            out.append(f"| {reading_kind(r.kind, lang)} | {seed}: 「{_cell(r.quote)}」 | "
                       f"{_cell(said(r.reading, lang))} | {_cell(_other_text(r))} | {_cell(r.rows)} |")
        out.append("")
    else:
        out += [tr("A platform preset: no seed text to depart from (its source is `PLATFORMS.md`)."), ""]
    silent = silent_fields(name)
    if silent:
        out.append(tr("Where the source is silent ({n} fields; the matrix default or the reading cited in "
                      "`presets/{name}.toml`): {fields}.", n=len(silent), name=name,
                      fields=", ".join(f"`{n} = {v}`" for n, v in silent)))
        out.append("")
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(lang: Lang = "en") -> str:
    """The full text of docs/RULES.md (``lang = "ja"``: docs/RULES.ja.md, each field by its Japanese
    name and meaning, the seed readings quoting the seeds in their own words)."""
    with speaking(lang):
        return _render(lang)


def _render(lang: Lang) -> str:
    ja = lang != "en"
    defaults = Rules()
    presets = {name: load_preset(name) for name in PRESETS}
    dumps = {name: to_dict(r) for name, r in presets.items()}
    out: list[str] = []
    w = out.append

    def field(n: str) -> str:  # a field by its key, and in Japanese by its name too
        return f"`{n}` {term_name('rule', n, lang)}" if ja else f"`{n}`"

    def title(names: tuple[str, ...], english: str) -> str:
        group = term("rule_group", names[0]) if names else None
        return group.name(lang) if ja and group is not None else english

    w(tr("# Rules reference"))
    w("")
    w(tr("<!-- Generated by `sanma rules docs` from src/sanma/rules/schema.py and presets/*.toml. Do not edit "
         "by hand: run `make docs`. -->"))
    w("")
    w(tr("Every difference between sanma rule sets is one field of `sanma.Rules`. A rule set is a preset "
         "(`sanma.Rules.preset(NAME)`, `--rules NAME`) or a TOML rule file (`sanma.Rules.load(PATH)`, "
         "`--rules PATH`). Row ids (P.., Y.., A...) refer to `RULES_MATRIX.md`; each preset file cites the seed "
         "line or platform source of every value."))
    w("")
    w(tr("## Presets"))
    w("")
    w(tr("| preset | description |"))
    w("|---|---|")
    for name, r in presets.items():
        w(f"| `{name}` | {_cell(said(r.description, lang))} |")
    w("")
    w(tr("## Rule files"))
    w("")
    w(tr("A rule file starts from a preset with `extends` (without it, from the schema defaults below) and "
         "overrides any fields. The `[yaku]` and `[yakuman]` tables merge key by key, so only the changed "
         "entries are needed. `name` defaults to the file's stem. Unknown fields, wrong types, unknown choices, "
         "unknown yaku and negative amounts are errors that name the file and the field. `sanma rules check "
         "FILE` validates a file and lists what it changes."))
    w("")
    w("```toml")
    w('extends = "kansai"')
    w("honba_ron = 500          " + tr("# a lighter honba than the preset's 1000"))
    w('noten_model = "pool"')
    w("noten_amount = 2000")
    w("")
    w("[yaku]")
    w("junchan = [4, 3]         " + tr("# closed, open han"))
    w("")
    w("[yakuman]")
    w("daisuushii = 2           " + tr("# double yakuman"))
    w("```")
    w("")
    w(tr("See `examples/myclub.toml` for a commented example."))
    w("")
    w(tr("## Fields"))
    w("")
    for english, names in [(tr("Name and description"), IDENTITY_FIELDS), *field_groups()]:
        w(f"### {title(names, english) if names != IDENTITY_FIELDS else english}")
        w("")
        w(tr("| field | type | default | meaning | rows |"))
        w("|---|---|---|---|---|")
        for n in names:
            meta = RULE_FIELDS[n].metadata
            default = getattr(defaults, n)
            w(f"| {field(n)} | {type_text(n)} | `{value_text(default)}` | {_cell(said(meta['doc'], lang))} | "
              f"{_cell(meta['rows'])} |")
        w("")
    w(tr("## Seed readings"))
    w("")
    w(tr("Where a preset's value is a reading of its seed rather than its literal text, or the seed leaves a "
         "detail open, the place is listed here with the seed's words, the reading the preset chose, and the "
         "field value that switches to the other reading (`sanma rules show NAME` points here). The table is "
         "`sanma.rules.departures.READINGS`; every quote is checked against its seed line."))
    w("")
    for name in PRESETS:
        out.extend(_readings(name, lang))
    w(tr("## Presets side by side"))
    w("")
    header = tr("| field |") + " " + " | ".join(f"`{p}`" for p in PRESETS) + " |"
    rule = "|---|" + "---|" * len(PRESETS)
    for english, names in field_groups():
        scalar = [n for n in names if not isinstance(getattr(defaults, n), Mapping)]
        if not scalar:
            continue
        w(f"### {title(names, english)}")
        w("")
        w(header)
        w(rule)
        for n in scalar:
            cells = [f"`{value_text(dumps[p][n])}`" for p in PRESETS]
            w(f"| {field(n)} | " + " | ".join(_cell(c) for c in cells) + " |")
        w("")
    w(tr("### Yaku: han closed / open (0 = not a yaku)"))
    w("")
    w(tr("| yaku |") + " " + " | ".join(f"`{p}`" for p in PRESETS) + " |")
    w(rule)
    for y in STANDARD_YAKU_HAN:
        cells = [_han_cell(presets[p].yaku[y]) for p in PRESETS]
        name = f"`{y}` {term_name('yaku', y, lang)}" if ja else f"`{y}`"
        w(f"| {name} | " + " | ".join(cells) + " |")
    w("")
    w(tr("### Yakuman: multiplier (0 = not a yakuman, 2 = double)"))
    w("")
    w(tr("| yakuman |") + " " + " | ".join(f"`{p}`" for p in PRESETS) + " |")
    w(rule)
    for y in STANDARD_YAKUMAN:
        cells = [str(presets[p].yakuman[y]) for p in PRESETS]
        name = f"`{y}` {term_name('yaku', y, lang)}" if ja else f"`{y}`"
        w(f"| {name} | " + " | ".join(cells) + " |")
    w("")
    return "\n".join(out)


def _han_cell(han: tuple[int, int]) -> str:
    closed, open_ = han
    if closed == 0 and open_ == 0:
        return "–"
    return f"{closed}/{open_ if open_ else '–'}"
