"""Load ``Rules`` from the built-in presets and from TOML rule files, with strict validation.

A rule file is TOML. ``extends = "<preset>"`` (optional; without it the schema defaults are the
base) is followed by any fields of ``Rules`` to override. The ``[yaku]`` and ``[yakuman]`` tables
merge key by key into the base, so a club may change only ``junchan = [4, 3]``. ``name`` defaults
to the file stem.

>>> r = from_dict({"extends": "kansai", "honba_ron": 600, "yaku": {"junchan": [4, 3]}}, "my.toml")
>>> r.honba_ron, r.yaku["junchan"], r.yaku["chinitsu"], r.north_mode
(600, (4, 3), (6, 5), 'yakuhai')
>>> from_dict({"honba_rom": 600}, "my.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sanma.errors.RulesError: my.toml: unknown field 'honba_rom' (did you mean 'honba_ron'?); every field is listed by ...
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import tomllib
import typing
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal

from ..errors import RulesError
from ..fileio import read_regular
from ..i18n.messages import Message, sentence
from .schema import RULE_FIELDS, STANDARD_YAKU_HAN, STANDARD_YAKUMAN, Rules

#: The built-in presets, in the order they are listed and documented.
PRESETS: tuple[str, ...] = ("club", "online", "official", "kansai", "tenhou", "majsoul")

PRESET_DIR = Path(__file__).resolve().parent / "presets"

#: Top-level keys of a rule file that are not fields of ``Rules``.
FILE_KEYS = ("extends",)

# Integer-valued fields whose elements may be negative (uma pays the lower places).
_SIGNED = frozenset({"uma", "uma_two_floating"})

# Extra bounds on some integer fields: (min, max) inclusive, None = unbounded.
_BOUNDS: dict[str, tuple[int, int | None]] = {
    "red_5p": (0, 4),
    "red_5s": (0, 4),
    "flowers": (0, 4),
    "flower_chip_tiles": (0, 4),
    "dora_indicators_on_doubles": (1, 2),
    "dead_wall_size": (0, 30),
    "rounding": (1, None),
    "min_han": (1, None),
    "players_in_rotation": (3, 4),
    "triplet_yaku_max_called": (0, 4),
}

# String fields that are a sequence of letters from a fixed alphabet.
_LETTERS: dict[str, tuple[str, bool]] = {  # field -> (allowed letters, may be empty)
    "round_winds": ("ESWN", False),
    "dealer_stays_on_noten_draw_rounds": ("ESWN", True),
    "four_kans_dealer_passes_rounds": ("ESWN", True),
    "daisharin_suits": ("ps", True),
}

_HINTS: dict[str, Any] = typing.get_type_hints(Rules)
_FIELD_NAMES: tuple[str, ...] = tuple(RULE_FIELDS)


def _closest(name: str, choices: typing.Iterable[str]) -> Message | str:
    """`` (did you mean 'x'?)`` for the closest choice; else up to five choices that share the name's
    first word (`` (names like it: 'honba_ron', 'honba_tsumo')``); else nothing."""
    names = list(choices)
    match = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if match:
        return sentence(" (did you mean {name!r}?)", name=match[0])
    head = name.split("_")[0]
    alike = [n for n in names if len(head) >= 3 and n.split("_")[0] == head][:5]
    return sentence(" (names like it: {items})", items=", ".join(repr(n) for n in alike)) if alike else ""


def _toml_value(value: Any) -> str:
    """A value as it would be written in TOML (for messages)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _type_name(value: Any) -> Message:
    if isinstance(value, bool):
        return sentence("a boolean")
    if isinstance(value, int):
        return sentence("an integer")
    if isinstance(value, float):
        return sentence("a float")
    if isinstance(value, str):
        return sentence("a string")
    if isinstance(value, list | tuple):
        return sentence("an array")
    if isinstance(value, Mapping):
        return sentence("a table")
    return sentence("a {type}", type=type(value).__name__)


#: A rule file is a few kB; anything larger is not one (and is not read into memory).
MAX_FILE_BYTES = 1 << 20
#: A rule file nests three deep (the file, ``[yaku]``, a ``[closed, open]`` pair); deeper is not a rule file.
MAX_DEPTH = 8


def _depth(value: Any, limit: int) -> int:
    """How deep ``value`` nests, counting no further than ``limit + 1`` (iterative: no recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d)
            if d <= limit:
                stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML text, turning a syntax error into a ``RulesError`` naming ``source``.

    Values nested deeper than ``MAX_DEPTH`` are refused (a rule file is shallow; the parser
    itself gives up on a few hundred levels with a ``RecursionError``, reported the same way).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(sentence("{source}: malformed TOML: {error}", source=source, error=e)) from None
    except RecursionError:
        raise RulesError(sentence("{source}: malformed rule file: values nested too deep (a rule file nests "
                                  "at most {max_depth} levels)", source=source, max_depth=MAX_DEPTH)) from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise RulesError(sentence("{source}: malformed rule file: values nested more than {max_depth} "
                                  "levels deep", source=source, max_depth=MAX_DEPTH))
    return data


def _check_int(value: Any, where: str, *, signed: bool = False,
               bounds: tuple[int, int | None] | None = None) -> int:
    # bool is a subclass of int in Python, but `true` is not a number in a rule file.
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(sentence("{where} must be an integer, not {type_name} ({toml_value})",
                                  where=where, type_name=_type_name(value), toml_value=_toml_value(value)))
    if not signed and value < 0:
        raise RulesError(sentence("{where} must not be negative, got {value}", where=where, value=value))
    if bounds is not None:
        lo, hi = bounds
        if value < lo or (hi is not None and value > hi):
            span = sentence("from {lo} to {hi}", lo=lo, hi=hi) if hi is not None else sentence("at least {lo}", lo=lo)
            raise RulesError(sentence("{where} must be {span}, got {value}",
                                      where=where, span=span, value=value))
    return value


def _convert(name: str, value: Any, where: str) -> Any:
    """Check ``value`` (from TOML) against the type of field ``name`` and convert it."""
    hint = _HINTS[name]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Literal:
        choices = tuple(str(a) for a in args)
        if not isinstance(value, str) or value not in choices:
            raise RulesError(sentence("{where} must be one of {choices}, got {toml_value}{closest}", where=where,
                                      choices=", ".join(repr(c) for c in choices), toml_value=_toml_value(value),
                                      closest=_closest(value, choices) if isinstance(value, str) else ""))
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(sentence("{where} must be true or false, not {type_name} ({toml_value})",
                                      where=where, type_name=_type_name(value), toml_value=_toml_value(value)))
        return value
    if hint is int:
        return _check_int(value, where, bounds=_BOUNDS.get(name))
    if hint is str:
        if not isinstance(value, str):
            raise RulesError(sentence("{where} must be a string, not {type_name} ({toml_value})",
                                      where=where, type_name=_type_name(value), toml_value=_toml_value(value)))
        if name in _LETTERS:
            letters, may_be_empty = _LETTERS[name]
            bad = sorted({c for c in value if c not in letters})
            if bad or (not value and not may_be_empty):
                raise RulesError(
                    sentence("{where} must be a possibly empty string of the letters {letters!r}, got {value!r}",
                             where=where, letters=letters, value=value) if may_be_empty else
                    sentence("{where} must be a string of the letters {letters!r}, got {value!r}",
                             where=where, letters=letters, value=value))
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise RulesError(sentence("{where} must be an array, not {type_name} ({toml_value})",
                                      where=where, type_name=_type_name(value), toml_value=_toml_value(value)))
        if len(args) == 2 and args[1] is Ellipsis:  # tuple[str, ...]: the names of yakuman
            out: list[str] = []
            for i, v in enumerate(value):
                if not isinstance(v, str):
                    raise RulesError(sentence("{where}[{i}] must be a string, not {type_name} ({toml_value})",
                                              where=where, i=i, type_name=_type_name(v), toml_value=_toml_value(v)))
                if name == "pao_yaku" and v not in STANDARD_YAKUMAN:
                    raise RulesError(sentence("{where}[{i}]: unknown yakuman {v!r}{closest}; valid yakuman: "
                                              "{items}",
                                              where=where, i=i, v=v, closest=_closest(v, STANDARD_YAKUMAN),
                                              items=", ".join(STANDARD_YAKUMAN)))
                out.append(v)
            return tuple(out)
        if len(value) != len(args):
            raise RulesError(sentence("{where} must be an array of {n} integers, got {n2}: {toml_value}",
                                      where=where, n=len(args), n2=len(value), toml_value=_toml_value(value)))
        return tuple(_check_int(v, f"{where}[{i}]", signed=name in _SIGNED) for i, v in enumerate(value))
    raise RulesError(  # pragma: no cover - schema guard
        sentence("{where}: field cannot be set from a rule file", where=where))


def _merge_yaku(base: Mapping[str, tuple[int, int]], table: Any, where: str) -> dict[str, tuple[int, int]]:
    if not isinstance(table, Mapping):
        raise RulesError(sentence("{where} must be a table ([yaku]) of name = [closed han, open han], not "
                                  "{type_name}", where=where, type_name=_type_name(table)))
    merged = dict(base)
    for key, value in table.items():
        if not isinstance(key, str) or key not in STANDARD_YAKU_HAN:
            raise RulesError(sentence("{where}: unknown yaku {key!r}{closest}; valid yaku: {items}",
                                      where=where, key=key, closest=_closest(str(key), STANDARD_YAKU_HAN),
                                      items=", ".join(STANDARD_YAKU_HAN)))
        at = f"{where}.{key}"
        if isinstance(value, bool) or not isinstance(value, list | tuple) or len(value) != 2:
            raise RulesError(sentence("{at} must be an array [closed han, open han], got {toml_value}",
                                      at=at, toml_value=_toml_value(value)))
        merged[key] = (_check_int(value[0], f"{at}[0]"), _check_int(value[1], f"{at}[1]"))
    return merged


def _merge_yakuman(base: Mapping[str, int], table: Any, where: str) -> dict[str, int]:
    if not isinstance(table, Mapping):
        raise RulesError(sentence("{where} must be a table ([yakuman]) of name = multiplier, not {type_name}",
                                  where=where, type_name=_type_name(table)))
    merged = dict(base)
    for key, value in table.items():
        if not isinstance(key, str) or key not in STANDARD_YAKUMAN:
            raise RulesError(sentence("{where}: unknown yakuman {key!r}{closest}; valid yakuman: {items}",
                                      where=where, key=key, closest=_closest(str(key), STANDARD_YAKUMAN),
                                      items=", ".join(STANDARD_YAKUMAN)))
        merged[key] = _check_int(value, f"{where}.{key}")
    return merged


def from_dict(data: Mapping[str, Any], source: str = "<rules>", *, name: str | None = None) -> Rules:
    """Build ``Rules`` from parsed TOML ``data``; ``source`` names the file in error messages.

    ``name`` is the rule set's name when ``data`` has no ``name`` key (a file's stem).
    """
    if not isinstance(data, Mapping):
        raise RulesError(sentence("{source}: a rule file must be a table of fields, not {type_name}",
                                  source=source, type_name=_type_name(data)))
    for key in data:
        if not isinstance(key, str):
            raise RulesError(sentence("{source}: field names must be strings, got {key!r}",
                                      source=source, key=key))
    extends = data.get("extends")
    if extends is None:
        base = Rules()
    else:
        if not isinstance(extends, str):
            raise RulesError(sentence("{source}: field 'extends' must be a preset name (a string), not "
                                      "{type_name} ({toml_value})",
                                      source=source, type_name=_type_name(extends), toml_value=_toml_value(extends)))
        if extends not in PRESETS:
            raise RulesError(sentence("{source}: field 'extends' names unknown preset {extends!r}{closest}; "
                                      "the presets are: {items}",
                                      source=source, extends=extends, closest=_closest(extends, PRESETS),
                                      items=", ".join(PRESETS)))
        base = load_preset(extends)

    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key in FILE_KEYS:
            continue
        if key not in RULE_FIELDS:
            # the closest names, never all ~200 of them in one paragraph (issue 18)
            raise RulesError(sentence("{source}: unknown field {key!r}{closest}; every field is listed by "
                                      "'sanma rules show PRESET' and in docs/RULES.md",
                                      source=source, key=key, closest=_closest(key, FILE_KEYS + _FIELD_NAMES)))
        where = f"{source}: field {key!r}"
        if key == "yaku":
            changes[key] = _merge_yaku(base.yaku, value, where)
        elif key == "yakuman":
            changes[key] = _merge_yakuman(base.yakuman, value, where)
        else:
            changes[key] = _convert(key, value, where)
    if "name" not in changes:
        changes["name"] = name if name is not None else (extends if extends is not None else base.name)
    if "description" not in changes and extends is not None and changes["name"] != extends:
        changes["description"] = f"Based on {extends}: {base.description}"
    rules = dataclasses.replace(base, **changes)
    _check_consistency(rules, source)
    return rules


def _check_consistency(rules: Rules, source: str) -> None:
    """Checks that involve more than one field."""
    if rules.flower_chip_tiles > rules.flowers:
        raise RulesError(sentence("{source}: field 'flower_chip_tiles' is {flower_chip_tiles} but there are "
                                  "only {flowers} flowers (field 'flowers')",
                                  source=source, flower_chip_tiles=rules.flower_chip_tiles, flowers=rules.flowers))
    if rules.return_points < rules.start_points and rules.oka:
        raise RulesError(sentence("{source}: field 'oka' is true but return_points {return_points} is below "
                                  "start_points {start_points}",
                                  source=source, return_points=rules.return_points, start_points=rules.start_points))
    if rules.penalty_deposit_points % max(1, rules.riichi_deposit):
        raise RulesError(sentence("{source}: field 'penalty_deposit_points' is {penalty_deposit_points}: a "
                                  "deposit lies on the table as riichi sticks of {riichi_deposit} (field "
                                  "'riichi_deposit')",
                                  source=source, penalty_deposit_points=rules.penalty_deposit_points,
                                  riichi_deposit=rules.riichi_deposit))
    from ..errors import SanmaError
    from ..game.wall import check_layout  # the wall's own check, the one the engine makes at the deal

    try:
        check_layout(rules)
    except SanmaError as e:
        raise RulesError(sentence("{source}: {error}", source=source, error=e)) from None
    # Values no seed uses and the engine does not implement yet: refused rather than ignored.
    unsupported = {
        "paarenchan": (rules.paarenchan, sentence("eight consecutive dealer wins as a yakuman (P41)")),
        "closed_katagari": (not rules.closed_katagari, sentence("barring closed katagari waits (P68)")),
        "negative_scores_settled": (not rules.negative_scores_settled,
                                    sentence("stopping settlement at zero (P109)")),
        "open_double_back": (not rules.open_double_back and rules.atozuke != "sakizuke",
                             sentence("barring the open double back without sakizuke (P69; sakizuke implies it)")),
    }
    for field_name, (used, what) in unsupported.items():
        if used:
            raise RulesError(sentence("{source}: field {field_name!r}: {what} is not implemented yet; keep "
                                      "the default or ask for it",
                                      source=source, field_name=field_name, what=what))


def preset_path(name: str) -> Path:
    """The TOML file of a built-in preset."""
    _check_preset_name(name)
    return PRESET_DIR / f"{name}.toml"


def _check_preset_name(name: object) -> None:
    if not isinstance(name, str) or name not in PRESETS:
        hint = _closest(name, PRESETS) if isinstance(name, str) else ""
        raise RulesError(sentence("unknown preset {name!r}{hint}; the presets are: {items}",
                                  name=name, hint=hint, items=', '.join(PRESETS)))


def load_preset(name: str) -> Rules:
    """One of the built-in presets (``PRESETS``); cached, since ``Rules`` is immutable.

    >>> load_preset("tenhou").start_points
    35000
    >>> load_preset("tenhou") is load_preset("tenhou")
    True
    """
    _check_preset_name(name)
    return _load_preset(name)


@cache
def _load_preset(name: str) -> Rules:
    path = PRESET_DIR / f"{name}.toml"
    source = f"preset {name} ({path.name})"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:  # pragma: no cover - a broken installation
        raise RulesError(sentence("{source}: cannot read the preset file: {strerror}",
                                  source=source, strerror=e.strerror)) from None
    return from_dict(parse_toml(text, source), source, name=name)


def load_file(path: str | os.PathLike[str]) -> Rules:
    """A rule file in TOML; its name defaults to the file stem."""
    p = Path(path)
    return from_dict(read_toml_file(p), str(p), name=p.stem)


def read_toml_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A rule file's parsed TOML: a regular file of at most ``MAX_FILE_BYTES``, UTF-8, ``MAX_DEPTH`` deep."""
    p = Path(path)
    data = read_regular(p, MAX_FILE_BYTES, sentence("rule file"), RulesError)  # no FIFO, device or huge file
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesError(sentence("{p}: cannot read rule file: not UTF-8 text (byte {start})",
                                  p=p, start=e.start)) from None
    return parse_toml(text, str(p))


def load(name_or_path: str | os.PathLike[str]) -> Rules:
    """A preset by name, or else a rule file by path (what ``--rules NAME|FILE`` accepts)."""
    text = os.fspath(name_or_path)
    if text in PRESETS:
        return load_preset(text)
    if text.endswith(".toml") or os.sep in text or Path(text).exists():
        return load_file(text)
    raise RulesError(sentence("unknown preset {text!r}{closest} and no such rule file; the presets are: "
                              "{items}", text=text, closest=_closest(text, PRESETS), items=', '.join(PRESETS)))


def to_dict(rules: Rules) -> dict[str, Any]:
    """Every field as plain JSON/TOML-compatible values (tuples become lists)."""
    out: dict[str, Any] = {}
    for name in _FIELD_NAMES:
        value = getattr(rules, name)
        if isinstance(value, Mapping):
            out[name] = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
        elif isinstance(value, tuple):
            out[name] = list(value)
        else:
            out[name] = value
    return out


def diff(rules: Rules, base: Rules) -> list[tuple[str, Any, Any]]:
    """``(field, base value, new value)`` for every field where ``rules`` differs from ``base``.

    Yaku tables are compared entry by entry, as ``yaku.<name>`` / ``yakuman.<name>``.
    ``name`` and ``description`` are left out.
    """
    a, b = to_dict(base), to_dict(rules)
    out: list[tuple[str, Any, Any]] = []
    for name in _FIELD_NAMES:
        if name in ("name", "description"):
            continue
        if isinstance(b[name], dict):
            for key in b[name]:
                if a[name].get(key) != b[name][key]:
                    out.append((f"{name}.{key}", a[name].get(key), b[name][key]))
        elif a[name] != b[name]:
            out.append((name, a[name], b[name]))
    return out
