"""A term of the vocabulary (:mod:`sanma.i18n.terms` holds them all)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .lang import Lang


@dataclass(frozen=True, slots=True)
class Term:
    """One term: its id (``kind.key``), its names in both languages and its other spellings."""

    kind: str
    key: str
    ja: str
    en: str
    aliases: tuple[str, ...] = ()
    record: str | None = None  # Tenhou's records' spelling, when it is not ``ja``

    @property
    def id(self) -> str:
        return f"{self.kind}.{self.key}"

    def name(self, lang: Lang) -> str:
        return self.ja if lang == "ja" else self.en

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every name that means this term: the key, both names, the record's and the aliases."""
        return tuple(dict.fromkeys((self.key, self.ja, self.en, *((self.record,) if self.record else ()),
                                    *self.aliases)))


def terms_of(kind: str, rows: Iterable[tuple[str, str, str] | tuple[str, str, str, tuple[str, ...]]],
       records: Mapping[str, str] | None = None) -> tuple[Term, ...]:
    out = []
    for row in rows:
        key, ja, en = row[0], row[1], row[2]
        aliases = row[3] if len(row) == 4 else ()
        out.append(Term(kind, key, ja, en, aliases, (records or {}).get(key)))
    return tuple(out)
