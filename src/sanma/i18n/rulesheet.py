"""A rule set in words: every field with its name, its value and its meaning in one language, the
yaku and yakuman, and the places a preset reads its seed — ``sanma rules show NAME --lang ja`` and
the lobby's rule description draw this (one home for both).

>>> from sanma.rules import Rules
>>> sheet = rule_sheet(Rules.preset("tenhou"), "ja")
>>> sheet.groups[0].title, sheet.groups[0].rows[0].label, sheet.groups[0].rows[0].value
('牌・山・ドラ (P01-P22)', '赤5筒の枚数', '1')
>>> next(r.value for g in sheet.groups for r in g.rows if r.name == "tsumo_payment")
'ツモ損'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .lang import Lang
from .messages import catalogue, mark, sentence
from .terms import term, term_name


@dataclass(frozen=True, slots=True)
class Row:
    name: str  # the field (its key in a rule file)
    label: str  # its name in the language
    value: str  # its value in words
    toml: str  # its value as a rule file writes it
    meaning: str
    rows: str  # RULES_MATRIX rows


@dataclass(frozen=True, slots=True)
class Group:
    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class SeedReading:
    seed: str
    line: int
    quote: str  # the seed's own words
    reading: str  # what the preset does, in the language
    switch: str  # the field values of the other reading
    kind: str


@dataclass(frozen=True, slots=True)
class RuleSheet:
    name: str
    description: str
    groups: tuple[Group, ...]
    yaku: tuple[tuple[str, str, int, int], ...]  # key, name, closed han, open han (0 = not in that state)
    yakuman: tuple[tuple[str, str, int], ...]  # key, name, multiplier
    off: tuple[str, ...]  # names of the yaku and yakuman these rules do not have
    readings: tuple[SeedReading, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "description": self.description,
            "groups": [{"title": g.title, "fields": [
                {"name": r.name, "label": r.label, "value": r.value, "toml": r.toml, "meaning": r.meaning,
                 "rows": r.rows} for r in g.rows]} for g in self.groups],
            "yaku": [{"name": k, "label": n, "closed": c, "open": o} for k, n, c, o in self.yaku],
            "yakuman": [{"name": k, "label": n, "multiplier": m} for k, n, m in self.yakuman],
            "off": list(self.off),
            "readings": [{"seed": r.seed, "line": r.line, "quote": r.quote, "reading": r.reading,
                          "switch": r.switch, "kind": r.kind} for r in self.readings],
        }


def said(text: str, lang: Lang) -> str:
    """A sentence given by its English (a rule field's doc, a preset's description): its catalogue
    entry in ``lang``, else the text as it is (a club's own rule file)."""
    return mark(catalogue(lang).gettext(text), lang) if text else text


def value_words(name: str, value: Any, lang: Lang) -> str:
    """A field's value in words: ``true`` → あり / yes, ``tsumo_son`` → ツモ損, ``"ES"`` → 東南, a
    yaku list by the yaku's names; numbers as they are."""
    from ..rules.docs import value_text

    if isinstance(value, bool):
        return term_name("rule_value", "true" if value else "false", lang)
    if isinstance(value, str) and term("rule_value", value) is not None:
        return term_name("rule_value", value, lang)
    if isinstance(value, str) and name.endswith(("round_winds", "_rounds")):
        return "".join(term_name("wind", w, lang) for w in value) if value else term_name("rule_value", "none", lang)
    if isinstance(value, str) and name == "daisharin_suits":
        return "・".join(term_name("suit", s, lang) for s in value)
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return ", ".join(term_name("yaku", v, lang) for v in value) or term_name("rule_value", "none", lang)
    if isinstance(value, tuple):
        return " / ".join(f"{v:,}" if isinstance(v, int) and abs(v) >= 1000 else str(v) for v in value)
    if isinstance(value, int) and abs(value) >= 1000:
        return f"{value:,}"
    return value_text(value).strip('"')


def rule_sheet(rules: Any, lang: Lang) -> RuleSheet:
    """Every field of ``rules`` (a :class:`sanma.rules.Rules`) in ``lang``."""
    from ..rules.departures import readings_of
    from ..rules.docs import field_groups, value_text
    from ..rules.loader import PRESETS
    from ..rules.schema import RULE_FIELDS

    groups = []
    for title, names in field_groups():
        rows = []
        for n in names:
            value = getattr(rules, n)
            if isinstance(value, Mapping):
                continue
            meta = RULE_FIELDS[n].metadata
            rows.append(Row(n, term_name("rule", n, lang), value_words(n, value, lang), value_text(value),
                            said(meta["doc"], lang), meta["rows"]))
        group = term("rule_group", names[0]) if names else None
        if rows:
            groups.append(Group(mark(group.name(lang), lang) if group else title, tuple(rows)))
    yaku = tuple((y, term_name("yaku", y, lang), c, o) for y, (c, o) in rules.yaku.items() if c or o)
    yakuman = tuple((y, term_name("yaku", y, lang), m) for y, m in rules.yakuman.items() if m)
    off = sorted({*(y for y, (c, o) in rules.yaku.items() if not (c or o)),
                  *(y for y, m in rules.yakuman.items() if not m)} - {k for k, *_ in yaku} - {k for k, *_ in yakuman})
    readings = tuple(
        SeedReading(r.seed, r.line, r.quote, said(r.reading, lang),
                    ", ".join(f"{n} = {value_text(v)}" for n, v in r.other), r.kind)
        for r in (readings_of(rules.name) if rules.name in PRESETS else ()))
    return RuleSheet(rules.name, said(rules.description, lang), tuple(groups), yaku, yakuman,
                     tuple(term_name("yaku", y, lang) for y in off), readings)


def reading_kind(kind: str, lang: Lang) -> str:
    """How a preset reads its seed at one place (rules/departures.py's kinds), in words."""
    if kind == "departs":
        return sentence("departs from the seed's words").text(lang)
    if kind == "literal":
        return sentence("the seed's words, not the matrix's recommendation").text(lang)
    return sentence("the seed leaves it open").text(lang)
