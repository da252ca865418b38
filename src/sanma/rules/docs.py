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

from . import schema
from .departures import Reading, readings_of
from .loader import PRESETS, load_preset, preset_path, to_dict
from .schema import RULE_FIELDS, STANDARD_YAKU_HAN, STANDARD_YAKUMAN, Rules, field_choices

_GROUP_RE = re.compile(r"^\s*# --- (?P<title>.+?) -+\s*$")
_SOURCE_RE = re.compile(r"source: (?P<source>.+?)(?: \(|\.$)")
_SET_RE = re.compile(r"^(?P<name>[a-z_0-9]+) = (?P<value>.+?)  # (?P<note>.*)$")
_KIND_TITLES = {"departs": "departs from the seed's words", "unstated": "the seed leaves it open",
                "literal": "the seed's words, not the matrix's recommendation"}
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


def _readings(name: str) -> list[str]:
    out = [f'<a id="{readings_anchor(name)}"></a>', "", f"### `{name}` — {preset_source(name)}", ""]
    listed = readings_of(name)
    if listed:
        out += ["| kind | seed | reading chosen | other reading, one field away | rows |", "|---|---|---|---|---|"]
        for r in listed:
            out.append(f"| {_KIND_TITLES[r.kind]} | seed {r.seed} L{r.line}: 「{_cell(r.quote)}」 | "
                       f"{_cell(r.reading)} | {_cell(_other_text(r))} | {_cell(r.rows)} |")
        out.append("")
    else:
        out += ["A platform preset: no seed text to depart from (its source is `PLATFORMS.md`).", ""]
    silent = silent_fields(name)
    if silent:
        out.append(f"Where the source is silent ({len(silent)} fields; the matrix default or the reading "
                   f"cited in `presets/{name}.toml`): " + ", ".join(f"`{n} = {v}`" for n, v in silent) + ".")
        out.append("")
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render() -> str:
    """The full text of docs/RULES.md."""
    defaults = Rules()
    presets = {name: load_preset(name) for name in PRESETS}
    dumps = {name: to_dict(r) for name, r in presets.items()}
    out: list[str] = []
    w = out.append
    w("# Rules reference")
    w("")
    w("<!-- Generated by `sanma rules docs` from src/sanma/rules/schema.py and presets/*.toml. "
      "Do not edit by hand: run `make docs`. -->")
    w("")
    w("Every difference between sanma rule sets is one field of `sanma.Rules`. A rule set is a preset "
      "(`sanma.Rules.preset(NAME)`, `--rules NAME`) or a TOML rule file (`sanma.Rules.load(PATH)`, "
      "`--rules PATH`). Row ids (P.., Y.., A...) refer to `RULES_MATRIX.md`; each preset file cites the "
      "seed line or platform source of every value.")
    w("")
    w("## Presets")
    w("")
    w("| preset | description |")
    w("|---|---|")
    for name, r in presets.items():
        w(f"| `{name}` | {_cell(r.description)} |")
    w("")
    w("## Rule files")
    w("")
    w("A rule file starts from a preset with `extends` (without it, from the schema defaults below) and "
      "overrides any fields. The `[yaku]` and `[yakuman]` tables merge key by key, so only the changed "
      "entries are needed. `name` defaults to the file's stem. Unknown fields, wrong types, unknown "
      "choices, unknown yaku and negative amounts are errors that name the file and the field. "
      "`sanma rules check FILE` validates a file and lists what it changes.")
    w("")
    w("```toml")
    w('extends = "kansai"')
    w("honba_ron = 500          # a lighter honba than the preset's 1000")
    w('noten_model = "pool"')
    w("noten_amount = 2000")
    w("")
    w("[yaku]")
    w("junchan = [4, 3]         # closed, open han")
    w("")
    w("[yakuman]")
    w("daisuushii = 2           # double yakuman")
    w("```")
    w("")
    w("See `examples/myclub.toml` for a commented example.")
    w("")
    w("## Fields")
    w("")
    for title, names in [("Name and description", IDENTITY_FIELDS), *field_groups()]:
        w(f"### {title}")
        w("")
        w("| field | type | default | meaning | rows |")
        w("|---|---|---|---|---|")
        for n in names:
            meta = RULE_FIELDS[n].metadata
            default = getattr(defaults, n)
            w(f"| `{n}` | {type_text(n)} | `{value_text(default)}` | {_cell(meta['doc'])} | "
              f"{_cell(meta['rows'])} |")
        w("")
    w("## Seed readings")
    w("")
    w("Where a preset's value is a reading of its seed rather than its literal text, or the seed leaves "
      "a detail open, the place is listed here with the seed's words, the reading the preset chose, and "
      "the field value that switches to the other reading (`sanma rules show NAME` points here). The "
      "table is `sanma.rules.departures.READINGS`; every quote is checked against its seed line.")
    w("")
    for name in PRESETS:
        out.extend(_readings(name))
    w("## Presets side by side")
    w("")
    header = "| field | " + " | ".join(f"`{p}`" for p in PRESETS) + " |"
    rule = "|---|" + "---|" * len(PRESETS)
    for title, names in field_groups():
        scalar = [n for n in names if not isinstance(getattr(defaults, n), Mapping)]
        if not scalar:
            continue
        w(f"### {title}")
        w("")
        w(header)
        w(rule)
        for n in scalar:
            cells = [f"`{value_text(dumps[p][n])}`" for p in PRESETS]
            w(f"| `{n}` | " + " | ".join(_cell(c) for c in cells) + " |")
        w("")
    w("### Yaku: han closed / open (0 = not a yaku)")
    w("")
    w(header.replace("| field |", "| yaku |"))
    w(rule)
    for y in STANDARD_YAKU_HAN:
        cells = [_han_cell(presets[p].yaku[y]) for p in PRESETS]
        w(f"| `{y}` | " + " | ".join(cells) + " |")
    w("")
    w("### Yakuman: multiplier (0 = not a yakuman, 2 = double)")
    w("")
    w(header.replace("| field |", "| yakuman |"))
    w(rule)
    for y in STANDARD_YAKUMAN:
        cells = [str(presets[p].yakuman[y]) for p in PRESETS]
        w(f"| `{y}` | " + " | ".join(cells) + " |")
    w("")
    return "\n".join(out)


def _han_cell(han: tuple[int, int]) -> str:
    closed, open_ = han
    if closed == 0 and open_ == 0:
        return "–"
    return f"{closed}/{open_ if open_ else '–'}"
