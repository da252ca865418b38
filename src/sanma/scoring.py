"""Scoring a winning hand: yaku, dora, fu, limits and every payment model of RULES_MATRIX §4.

>>> import sanma
>>> s = sanma.score_hand("123456789p99m111z", win="9m", riichi=True, seat_wind="S",
...                      round_wind="E", discarder_wind="W", rules=sanma.Rules.preset("tenhou"))
>>> s.han, s.fu, s.total, [y.name for y in s.yaku]
(4, 40, 8000, ['riichi', 'yakuhai_round_wind', 'ittsu'])
>>> dict(s.deltas)
{'E': 0, 'S': 8000, 'W': -8000}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from .agari import (
    ALL_KINDS,
    KANCHAN,
    KIND_BIT,
    PENCHAN,
    SUIT_PARTS,
    TANKI,
    TRIPLET_CLOSED,
    TRIPLET_OPEN,
    SuitPart,
    count_of,
    key_counts,
    over_four,
    present,
    suit_parts,
)
from .errors import HandError, NotAWinError, ScoringError, TileError
from .hand import Meld, concealed_from_tiles, parse_concealed
from .i18n.messages import Message, sentence
from .rules.schema import Rules
from .tiles import NORTH, NUM_KINDS, YAOCHUU, Tile, kind_name, parse_tiles, successor, to_mpsz
from .yaku import (
    NO_MELDS,
    Line,
    Reading,
    YakuTable,
    evaluate_chiitoi,
    evaluate_kokushi,
    meld_facts,
    situation_flags,
    standard_readings,
)

WIND_NAMES: Final = ("E", "S", "W")
LIMIT_NAMES: Final = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}
DORA_NAMES: Final = frozenset({"dora", "aka_dora", "ura_dora", "kita_dora", "flower_dora", "kan_bonus"})
# OFFICIAL (P15 nuki_restricted): North may stay in the hand only for these yakuman.
NORTH_RESTRICTED_OK: Final = frozenset({"kokushi", "kokushi_13", "tsuuiisou", "tsuuiisou_chiitoi",
                                 "shousuushii", "daisuushii"})


@dataclass(frozen=True, slots=True)
class Yaku:
    """One line of a score: a yaku with its han, a yakuman with its multiplier, or dora."""

    name: str
    han: int = 0
    yakuman: int = 0

    # Immutable: a copy is the value itself (copy.deepcopy of a Game shares them).
    def __copy__(self) -> Yaku:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Yaku:
        return self

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"name": self.name, "han": self.han}
        if self.yakuman:
            d["yakuman"] = self.yakuman
        return d


class Score:
    """The value of a win. ``total`` is what the winner receives before honba and riichi sticks;
    ``deltas`` is every seat's change (by seat wind) after honba and sticks.

    Immutable: every attribute is ``Final`` (mypy rejects assigning one; the compiled build refuses
    it at run time). A plain class rather than a frozen dataclass: one is built per win, and a
    frozen dataclass's ``__init__`` (13 ``object.__setattr__`` calls) cost more than all the rest
    of ``score_hand``'s bookkeeping.
    """

    __slots__ = ("dealer", "deltas", "fu", "fu_breakdown", "han", "kazoe", "limit", "payments", "total",
                 "tsumo", "wait", "yaku", "yakuman")

    def __init__(self, han: int, fu: int, yaku: tuple[Yaku, ...], yakuman: int, limit: str | None, total: int,
                 deltas: Mapping[str, int], fu_breakdown: tuple[tuple[str, int], ...] = (),
                 payments: Mapping[str, int] | None = None, kazoe: bool = False, dealer: bool = False,
                 tsumo: bool = False, wait: str = "") -> None:
        self.han: Final = han
        self.fu: Final = fu
        self.yaku: Final = yaku
        self.yakuman: Final = yakuman
        self.limit: Final = limit
        self.total: Final = total
        self.deltas: Final = deltas
        self.fu_breakdown: Final = fu_breakdown
        self.payments: Final[Mapping[str, int]] = {} if payments is None else payments
        self.kazoe: Final = kazoe
        self.dealer: Final = dealer
        self.tsumo: Final = tsumo
        self.wait: Final = wait

    def _fields(self) -> tuple[object, ...]:
        return (self.han, self.fu, self.yaku, self.yakuman, self.limit, self.total, dict(self.deltas),
                self.fu_breakdown, dict(self.payments), self.kazoe, self.dealer, self.tsumo, self.wait)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Score) and self._fields() == other._fields()

    def __repr__(self) -> str:
        names = ("han", "fu", "yaku", "yakuman", "limit", "total", "deltas", "fu_breakdown", "payments", "kazoe",
                 "dealer", "tsumo", "wait")
        return "Score(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True)) + ")"

    # Immutable: a copy is the value itself (copy.deepcopy of a Game shares them).
    def __copy__(self) -> Score:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Score:
        return self

    def to_json(self) -> dict[str, object]:
        return {
            "han": self.han, "fu": self.fu, "yaku": [y.to_json() for y in self.yaku],
            "yakuman": self.yakuman, "limit": self.limit, "total": self.total,
            "deltas": dict(self.deltas), "fu_breakdown": [list(f) for f in self.fu_breakdown],
            "payments": dict(self.payments), "kazoe": self.kazoe, "dealer": self.dealer,
            "tsumo": self.tsumo, "wait": self.wait,
        }


def _wind(value: str | None, what: Message, allow_none: bool = False) -> int | None:
    if value is None:
        if allow_none:
            return None
        raise ScoringError(sentence("{what} is required", what=what))
    v = value.upper()
    if v not in ("E", "S", "W", "N"):
        raise ScoringError(sentence("invalid {what} {value!r}: expected E, S or W", what=what, value=value))
    return 27 + "ESWN".index(v)


def _tiles(value: str | Iterable[str | Tile], what: str) -> tuple[Tile, ...]:
    if isinstance(value, str):
        return parse_tiles(value)
    out: list[Tile] = []
    for v in value:
        out.extend(parse_tiles(v) if isinstance(v, str) else (v,))
    return tuple(out)


def ceil_to(x: float, unit: int) -> int:
    """Round a payment up to the rules' unit (P51), tolerating float noise."""
    return math.ceil(x / unit - 1e-9) * unit


def basic_points(han: int, fu: int, rules: Rules) -> tuple[int, str | None]:
    """Basic points and limit name for ordinary han (P55, P57, P59)."""
    if rules.kazoe_min_han and han >= rules.kazoe_min_han:
        return 8000, "yakuman"
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    if han >= 5:
        return 2000, "mangan"
    b = fu * 2 ** (han + 2)
    if b >= 2000 or (rules.kiriage_mangan and b == 1920):
        return 2000, "mangan"
    return b, None


#: Basic points of each limit (P55, P57): the one home of these values.
LIMIT_BASIC: Final = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000, "yakuman": 8000}


def limit_basic(limit: str) -> int:
    """Basic points of a limit hand by name (``mangan`` 2,000 ... ``yakuman`` 8,000), P55 / P57."""
    try:
        return LIMIT_BASIC[limit]
    except KeyError:
        raise ScoringError(sentence("unknown limit {limit!r}: expected one of {items}",
                                    limit=limit, items=', '.join(LIMIT_BASIC))) from None


def min_han_at(rules: Rules, honba: int) -> int:
    """Han a win needs at ``honba`` (P64): the rules' minimum, or 2 from ``shibari_from_honba`` on
    (the club's 2-han minimum from 4 honba).

    >>> from sanma.rules.schema import Rules
    >>> [min_han_at(Rules.preset("club"), h) for h in (3, 4)]
    [1, 2]
    """
    return 2 if rules.shibari_from_honba and honba >= rules.shibari_from_honba else rules.min_han


def _paid_and_deltas(seat: int, disc: int | None, pay_dealer: int, pay_other: int, honba: int, kyotaku: int,
                     rules: Rules) -> tuple[dict[str, int], dict[str, int]]:
    """A win's payments by seat wind and its deltas (§4.2; honba P43 / P44; riichi sticks P48):
    ``seat`` and ``disc`` are wind codes (27 = East), ``disc`` None for a tsumo; ``pay_dealer`` /
    ``pay_other`` as :func:`payments` gives them (a ron: the discarder pays ``pay_dealer``)."""
    me = WIND_NAMES[seat - 27]
    if disc is None:
        extra = honba * rules.honba_tsumo
        if seat == 27:
            paid = {"S": pay_dealer, "W": pay_other}  # equal but under full_amount (payments())
            deltas = {"E": pay_dealer + pay_other + 2 * extra, "S": -pay_dealer - extra, "W": -pay_other - extra}
        else:
            other = "W" if me == "S" else "S"
            paid = {"E": pay_dealer, other: pay_other}
            deltas = {"E": -pay_dealer - extra, "S": 0, "W": 0}
            deltas[other] = -pay_other - extra
            deltas[me] = pay_dealer + pay_other + 2 * extra
    else:
        dw = WIND_NAMES[disc - 27]
        paid = {dw: pay_dealer}
        deltas = {"E": 0, "S": 0, "W": 0}
        deltas[dw] = -pay_dealer - honba * rules.honba_ron
        deltas[me] = pay_dealer + honba * rules.honba_ron
    if kyotaku:
        deltas[me] += kyotaku * rules.riichi_deposit
    return paid, deltas


def score_from_han(
    han: int, fu: int, *, yakuman: int = 0, yaku: Sequence[str] = (), tsumo: bool = False, seat_wind: str = "E",
    discarder_wind: str | None = None, honba: int = 0, kyotaku: int = 0, rules: Rules | None = None,
) -> Score:
    """A :class:`Score` from a hand's value alone (han and fu, or ``yakuman`` times), without its
    tiles: what a score keeper knows of a hand reported at a physical table. ``yaku`` names lines
    that matter to the chips (``ippatsu``, ``chinitsu``...; one han each, the yakuman lines carry
    the multiplier); payments as :func:`score_hand` (§4.2 models, honba P43/P44, sticks P48).
    Under fixed fu (P52, :func:`fixed_fu`) every hand counts the fixed fu and ``fu`` is not read.

    >>> from sanma.rules.schema import Rules
    >>> s = score_from_han(3, 30, tsumo=True, seat_wind="S", rules=Rules.preset("tenhou"))
    >>> s.total, dict(s.payments), s.limit
    (3000, {'E': 2000, 'W': 1000}, None)
    >>> score_from_han(0, 0, rules=Rules.preset("tenhou"))
    Traceback (most recent call last):
    ...
    sanma.errors.ScoringError: a hand is worth at least 1 han or 1 yakuman, got 0 han, 0 yakuman
    """
    if rules is None:
        rules = Rules.preset("tenhou")
    if yakuman < 0 or han < 0 or fu < 0 or honba < 0 or kyotaku < 0:
        raise ScoringError(sentence("negative hand value: {han} han, {fu} fu, {yakuman} yakuman, {honba} "
                                    "honba, {kyotaku} sticks",
                                    han=han, fu=fu, yakuman=yakuman, honba=honba, kyotaku=kyotaku))
    if not yakuman and han < 1:
        raise ScoringError(sentence("a hand is worth at least 1 han or 1 yakuman, got {han} han, {yakuman} "
                                    "yakuman", han=han, yakuman=yakuman))
    if not yakuman and fixed_fu(rules):  # P52: every hand counts the rules' fu, whatever was counted
        fu = fixed_fu(rules)
    if not yakuman and han < 5 and (fu < 20 or (fu != 25 and fu % 10)):
        raise ScoringError(sentence("invalid fu {fu}: 20, 25 or a multiple of 10 (below 5 han the fu count)",
                                    fu=fu))
    me_or_none = _wind(seat_wind, sentence("seat wind"))
    assert me_or_none is not None
    me = me_or_none
    if me == 30:
        raise ScoringError(sentence("invalid seat wind 'N': a sanma seat is E, S or W"))
    disc = None if tsumo else _wind(discarder_wind or WIND_NAMES[(me - 27 + 2) % 3], sentence("discarder wind"))
    if disc is not None and (disc == me or disc == 30):
        raise ScoringError(sentence("invalid discarder wind {discarder_wind!r} for seat wind {seat_wind!r}",
                                    discarder_wind=discarder_wind, seat_wind=seat_wind))
    limit: str | None
    if yakuman:
        basic, limit = limit_basic("yakuman") * yakuman, "yakuman"
    else:
        basic, limit = basic_points(han, fu, rules)
    kazoe = not yakuman and limit == "yakuman"
    if yakuman and len(yaku) > yakuman:
        raise ScoringError(sentence("{n} yakuman named ({items}) for a {yakuman}-times yakuman",
                                    n=len(yaku), items=', '.join(yaku), yakuman=yakuman))
    # Each named yakuman counts once, the last one takes what is left (a double yakuman named once).
    lines = tuple(Yaku(n, 0, yakuman=1 + (yakuman - len(yaku) if i == len(yaku) - 1 else 0)) if yakuman
                  else Yaku(n, 1) for i, n in enumerate(yaku))
    dealer = me == 27
    pay_dealer, pay_other = payments(basic, dealer, tsumo, rules)
    paid, deltas = _paid_and_deltas(me, disc, pay_dealer, pay_other, honba, kyotaku, rules)
    return Score(han=han, fu=fu, yaku=lines, yakuman=1 if kazoe else yakuman, limit=limit,
                 total=pay_dealer + pay_other if tsumo else pay_dealer, deltas=MappingProxyType(deltas),
                 payments=MappingProxyType(paid), kazoe=kazoe, dealer=dealer, tsumo=tsumo)


def payments(
    basic: int, dealer: bool, tsumo: bool, rules: Rules
) -> tuple[int, int]:
    """(from the dealer, from a non-dealer) for a tsumo, or (ron, 0) — matrix §4.2 models.

    A dealer's tsumo is paid (by the dealer's next seat, by the other): the two are equal except
    under ``full_amount``, where the tsumo total is the ron value exactly (A003-3 read literally).
    """
    unit = rules.rounding
    ron = ceil_to(basic * (6 if dealer else 4), unit)
    if not tsumo:
        return ron, 0
    model = rules.tsumo_payment
    if model == "equal_halves":  # C / D (ONLINE, KANSAI): each pays half the ron value
        half = ceil_to(ron / 2, unit)
        return half, half
    if model == "full_amount":  # D read literally (満額): the halves add up to the ron value
        half = ceil_to(ron / 2, unit)
        return half, ron - half
    if dealer:
        if model == "tsumo_son":  # A: 4p amounts, the absent player's share is lost
            each = ceil_to(2 * basic, unit)
        elif model == "north_split":  # B
            each = ceil_to(3 * basic, unit)
        else:  # B2: split after rounding
            p = ceil_to(2 * basic, unit)
            each = p + ceil_to(p / 2, unit)
        return each, each
    if model == "tsumo_son":
        return ceil_to(2 * basic, unit), ceil_to(basic, unit)
    if model == "north_split":
        return ceil_to(2.5 * basic, unit), ceil_to(1.5 * basic, unit)
    pd, pn = ceil_to(2 * basic, unit), ceil_to(basic, unit)
    half = ceil_to(pn / 2, unit)
    return pd + half, pn + half


# --- per-rules tables --------------------------------------------------------------------------
class _PerRules:
    """What ``score_hand`` reads of one ``Rules`` for every hand, typed, with the rule set's yaku
    table and the memos of what depends on the rules and a few numbers only (never on a hand):
    basic points by han and fu, and a win's payments by basic points, seats, honba and sticks.
    Built once per ``Rules`` object."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.table = YakuTable(rules)
        self.fixed_fu: int = _FIXED_FU.get(rules.fu_mode, 0)
        self.pinfu_tsumo_20fu: bool = rules.pinfu_tsumo_20fu
        self.always_dora_fives: bool = rules.always_dora_fives
        self.north_restricted: bool = rules.north_mode == "nuki_restricted"
        self.renhou_mangan: bool = rules.renhou_value == "mangan"
        self.kuitan_not_alone: bool = rules.kuitan == "not_alone"
        self.shibari_counts_dora: bool = rules.shibari_counts_dora
        self.shibari_counts_ippatsu: bool = rules.shibari_counts_ippatsu
        self.yakuman_stacking: bool = rules.yakuman_stacking
        self.kan_han_bonus: int = rules.kan_han_bonus
        self.nondealer_limits: dict[str, int] | None = _nondealer_limits(rules)
        self.dama_allowed: bool = rules.dama_allowed
        self.flowers: int = rules.flowers
        #: min_han_at(rules, 0): the minimum without honba
        self.min_han: int = min_han_at(rules, 0)
        #: (han << 8 | fu) → (basic points, limit)
        self.basic: dict[int, tuple[int, str | None]] = {}
        #: see ``_paid``
        self.paid: dict[int, tuple[int, Mapping[str, int], Mapping[str, int]]] = {}


_TABLES: Final[dict[int, _PerRules]] = {}


def _per_rules(rules: Rules) -> _PerRules:
    """The rule set's ``_PerRules``, built once per ``Rules`` object (held by identity: hashing a
    ``Rules`` reads all of its yaku tables)."""
    entry = _TABLES.get(id(rules))
    if entry is not None and entry.rules is rules:
        return entry
    if len(_TABLES) > 64:
        _TABLES.clear()
    entry = _TABLES[id(rules)] = _PerRules(rules)
    return entry


#: The ``_PerRules`` of the last call (most callers score under one rule set).
_LAST: Final[list[_PerRules | None]] = [None]


def _table(rules: Rules) -> YakuTable:
    """The rule set's yaku table (built once per ``Rules`` object)."""
    return _per_rules(rules).table


def _paid(pr: _PerRules, basic: int, seat: int, disc: int | None, honba: int, kyotaku: int
          ) -> tuple[int, Mapping[str, int], Mapping[str, int]]:
    """A win's total, payments and deltas (read-only), as ``payments`` and ``_paid_and_deltas``
    give them, remembered per rule set by basic points, seats, honba and sticks (a few hundred
    values in a game's life, shared by the scores that have them)."""
    memo = honba < 64 and kyotaku < 64 and basic < 1 << 24
    # basic points in the low bits, which decide a dict's first probe; honba and sticks (mostly 0) high
    key = ((kyotaku << 6 | honba) << 4 | (seat - 27) << 2 | (3 if disc is None else disc - 27)) << 24 | basic
    if memo:
        got = pr.paid.get(key)
        if got is not None:
            return got
    tsumo = disc is None
    pay_dealer, pay_other = payments(basic, seat == 27, tsumo, pr.rules)
    paid, deltas = _paid_and_deltas(seat, disc, pay_dealer, pay_other, honba, kyotaku, pr.rules)
    out = (pay_dealer + pay_other if tsumo else pay_dealer, MappingProxyType(paid), MappingProxyType(deltas))
    if memo:
        if len(pr.paid) > _PARSE_LIMIT:
            pr.paid.clear()
        pr.paid[key] = out
    return out


# --- cheap parsing of the other inputs -----------------------------------------------------------
_LIMIT_ORDER: Final = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
_STANDARD_BASIC: Final = (2000, 3000, 4000, 6000, 8000)


def _nondealer_limits(rules: Rules) -> dict[str, int] | None:
    """P58 / A001-4: basic points of each non-dealer limit from ``nondealer_limit_ron`` (the ron value
    / 4, so every payment model derives from it), or None for the standard values."""
    basic = tuple(-(-v // 4) for v in rules.nondealer_limit_ron)
    if basic == _STANDARD_BASIC:
        return None
    return dict(zip(_LIMIT_ORDER, basic, strict=True))


_WIND_CODES: Final = {w: 27 + i for i, w in enumerate("ESWN")} | {w: 27 + i for i, w in enumerate("eswn")}
_TILE_CACHE: Final[dict[str, Tile]] = {}
_MELD_CACHE: Final[dict[str, Meld]] = {}
_TILES_CACHE: Final[dict[str, tuple[Tile, ...]]] = {}
_PARSE_LIMIT: Final = 10_000
_SUCCESSOR: Final = tuple(successor(k) for k in range(NUM_KINDS))
# (suit key << 1 | 1) → splits; Final: statics of the compiled module, not dict lookups
_MAN_PARTS: Final = SUIT_PARTS[0]
_PIN_PARTS: Final = SUIT_PARTS[1]
_SOU_PARTS: Final = SUIT_PARTS[2]
_HONOUR_PARTS: Final = SUIT_PARTS[3]
#: In one suit's key: the lowest count bit of each kind (a kind held an odd number of times), and
#: every count bit of the number kinds 2-8 (the simples of pinzu and souzu; manzu has none in sanma).
_SUIT_ODD: Final = 0o111111111
_SUIT_SIMPLES: Final = 0o077777770


def _tile(value: str | Tile) -> Tile:
    if isinstance(value, Tile):
        return value
    t = _TILE_CACHE.get(value) if type(value) is str else None
    if t is None:
        t = Tile.parse(value)  # raises the strict parser's errors
        if len(_TILE_CACHE) > _PARSE_LIMIT:
            _TILE_CACHE.clear()
        _TILE_CACHE[value] = t
    return t


def _meld(value: str | Meld) -> Meld:
    if isinstance(value, Meld):
        return value
    m = _MELD_CACHE.get(value) if type(value) is str else None
    if m is None:
        m = Meld.parse(value)
        if len(_MELD_CACHE) > _PARSE_LIMIT:
            _MELD_CACHE.clear()
        _MELD_CACHE[value] = m
    return m


def _parsed(value: str) -> tuple[Tile, ...]:
    t = _TILES_CACHE.get(value)
    if t is None:
        t = parse_tiles(value)
        if len(_TILES_CACHE) > _PARSE_LIMIT:
            _TILES_CACHE.clear()
        _TILES_CACHE[value] = t
    return t


def _indicators(value: str | Iterable[str | Tile]) -> tuple[Tile, ...]:
    if not value:
        return ()
    if type(value) is str:
        return _parsed(value)
    return _tiles(value, "indicator")


def _hand_text(hand: str | Iterable[str | Tile]) -> str:
    """The hand as error messages print it (sorted mpsz), computed only when one is raised."""
    return to_mpsz(_tiles(hand, "hand"))


# --- the scorer -------------------------------------------------------------------------------
_FIXED_FU: Final = {"fixed_30": 30, "fixed_40": 40}


def fixed_fu(rules: Rules) -> int:
    """P52: the fu every hand counts where the rules fix it (seed 002 L13 「符計算なし・全て30符」:
    30), else 0 (fu are counted).

    >>> from sanma.rules.schema import Rules
    >>> fixed_fu(Rules.preset("official")), fixed_fu(Rules.preset("club"))
    (30, 0)
    >>> score_from_han(3, 40, seat_wind="S", discarder_wind="E", rules=Rules.preset("official")).total
    3900
    """
    return _FIXED_FU.get(rules.fu_mode, 0)


_YAKU_LINES: Final[dict[Line, Yaku]] = {}
_YAKUMAN_LINES: Final[dict[Line, Yaku]] = {}


#: name → the Yaku last made for a line of that name. A line is looked up by its name (a string,
#: its hash kept) rather than by the (name, han) tuple, which the compiled build would have to box
#: and hash for every line of every score; a name worth another han here is found in ``_YAKU_LINES``.
_YAKU_BY_NAME: Final[dict[str, Yaku]] = {}


def _yaku_of(line: Line) -> Yaku:
    """The (shared, immutable) Yaku of a yaku line (name, han)."""
    name, han = line
    y = _YAKU_BY_NAME.get(name)
    if y is None or y.han != han:
        y = _YAKU_LINES.get(line) or _yaku_line(line, False)
        if len(_YAKU_BY_NAME) > _PARSE_LIMIT:
            _YAKU_BY_NAME.clear()
        _YAKU_BY_NAME[name] = y
    return y


def _yaku_line(line: Line, yakuman: bool) -> Yaku:
    """The (shared, immutable) Yaku of a line: (name, han), or (name, multiplier) for a yakuman."""
    cache = _YAKUMAN_LINES if yakuman else _YAKU_LINES
    if len(cache) > _PARSE_LIMIT:
        cache.clear()
    y = cache[line] = Yaku(line[0], 0, line[1]) if yakuman else Yaku(line[0], line[1])
    return y


def score_hand(
    hand: str | Iterable[str | Tile],
    win: str | Tile,
    *,
    # Keyword-only, so their order is free: the usual ones first. A compiled call looks for each
    # parameter, in this order, until it has found every keyword given, and each one it does not
    # find costs a comparison of strings per keyword given. (``win`` may be given by position
    # too: a required keyword-only parameter would be looked for last, after all the others.)
    rules: Rules | None = None,
    tsumo: bool = False,
    riichi: bool = False,
    seat_wind: str = "E",
    round_wind: str = "E",
    discarder_wind: str | None = None,
    melds: Sequence[str | Meld] = (),
    dora_indicators: Sequence[str | Tile] = (),
    ura_indicators: Sequence[str | Tile] = (),
    kita: int = 0,
    flowers: int = 0,
    honba: int = 0,
    kyotaku: int = 0,
    double_riichi: bool = False,
    open_riichi: bool = False,
    ippatsu: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    kanburi: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    renhou: bool = False,
    open_riichi_deal_in: bool = False,
) -> Score:
    """Score a winning hand under ``rules`` (default: the ``tenhou`` preset).

    ``hand`` holds the concealed tiles including the winning tile; ``melds`` the called sets
    (``pon:555z``, ``kan:1111p``, ``ankan:9999s``); ``kita`` the pulled Norths and ``flowers`` the
    pulled flowers. ``kyotaku`` counts riichi sticks on the table. For a ron, ``discarder_wind``
    names the discarder (default: the winner's kamicha). Raises ``NotAWinError`` when the hand
    is not complete or has no yaku, and another ``SanmaError`` for inconsistent input.
    """
    if rules is None:
        rules = Rules.preset("tenhou")
    pr = _LAST[0]
    if pr is None or pr.rules is not rules:
        pr = _LAST[0] = _per_rules(rules)
    table = pr.table
    # --- the inputs, parsed in this order so that the first problem is the one reported ---------
    concealed = parse_concealed(hand) if type(hand) is str else None
    over_four_possible = concealed is None  # parse_concealed reads at most four of a kind
    if concealed is None:
        concealed = concealed_from_tiles(_tiles(hand, "hand"))
    key, n_concealed, red_p, red_s, flower_in_hand, man_key, pin_key, sou_key, honour_key = concealed
    win_tile = _TILE_CACHE.get(win) if type(win) is str else None
    if win_tile is None:
        win_tile = _tile(win)
    meld_objs = tuple([_meld(m) for m in melds]) if melds else ()
    dora_ind = _indicators(dora_indicators) if dora_indicators else ()
    ura_ind = _indicators(ura_indicators) if ura_indicators else ()
    seat = _WIND_CODES.get(seat_wind) if type(seat_wind) is str else None
    if seat is None:
        seat = _wind(seat_wind, sentence("seat wind"))
    rnd = _WIND_CODES.get(round_wind) if type(round_wind) is str else None
    if rnd is None:
        rnd = _wind(round_wind, sentence("round wind"))
    disc = None
    if discarder_wind is not None:
        disc = _WIND_CODES.get(discarder_wind) if type(discarder_wind) is str else None
        if disc is None:
            disc = _wind(discarder_wind, sentence("discarder wind"))
    assert seat is not None and rnd is not None
    if disc is not None and disc == NORTH:  # three seats: E, S, W (North is only ever a round wind); was an IndexError
        raise ScoringError(sentence("invalid discarder wind 'N': discarder wind N does not exist in sanma "
                                    "(E, S or W)"))
    if flower_in_hand:
        raise HandError(sentence("hand {hand!r}: flowers are pulled, not kept in the hand (pass "
                                 "flowers=N)", hand=_hand_text(hand)))

    # --- consistency of the situation ---------------------------------------------------------
    if double_riichi:
        riichi = True
    rare = ippatsu or open_riichi or haitei or houtei or rinshan or chankan or tenhou or chiihou or renhou
    if rare:
        _check_rare_flags(hand, rules, meld_objs, tsumo, riichi, open_riichi, ippatsu, haitei, houtei, rinshan,
                          chankan, tenhou, chiihou, renhou, discarder_wind, seat, kita)
    elif riichi and meld_objs and any(m.is_open for m in meld_objs):
        raise _bad(hand, sentence("riichi needs a closed hand, but the hand has open melds"))
    elif tsumo and discarder_wind is not None:
        raise _bad(hand, sentence("a tsumo has no discarder"))
    if kita or flowers or honba < 0 or kyotaku < 0:
        if kita < 0 or flowers < 0 or honba < 0 or kyotaku < 0:
            raise _bad(hand, sentence("kita, flowers, honba and kyotaku cannot be negative"))
        if kita and rules.north_mode not in ("nuki", "nuki_restricted"):
            raise _bad(hand, sentence("North is not pulled as kita under the {name} rules", name=rules.name))
        if flowers > rules.flowers:
            raise _bad(hand, sentence("{n} flowers pulled, but the {name} rules use {flowers}",
                                      n=flowers, name=rules.name, flowers=rules.flowers))
    if seat == 30:
        raise _bad(hand, sentence("seat wind N does not exist in sanma"))
    if (dora_ind or ura_ind) and not pr.flowers:
        for ind in dora_ind + ura_ind:
            if ind.is_flower:
                raise _bad(hand, sentence("dora indicator {ind} is a flower, but the {name} rules have no "
                                          "flowers (P02)", ind=ind, name=rules.name))
    if disc is None:
        if not tsumo:
            disc = 27 + (seat - 27 - 1) % 3
    elif disc == seat:
        raise _bad(hand, sentence("the discarder cannot be the winner"))

    # --- tile counts ---------------------------------------------------------------------------
    n_melds = len(meld_objs)
    if n_melds > 4:
        raise HandError(sentence("hand {hand!r} has {n_melds} melds: a hand has at most 4 (a kan "
                                 "counts as one)", hand=_hand_text(hand), n_melds=n_melds))
    if n_concealed + 3 * n_melds != 14:
        raise HandError(
            sentence("hand {hand!r} has {n_concealed} concealed tiles and {n_melds} melds: a winning "
                     "hand needs {needed} concealed tiles with {n_melds} melds",
                     hand=_hand_text(hand), n_concealed=n_concealed, n_melds=n_melds, needed=14 - 3 * n_melds)
        )
    win_kind = win_tile.kind
    win_suit_key = man_key if win_kind < 9 else pin_key if win_kind < 18 else sou_key if win_kind < 27 else honour_key
    if win_tile.red or red_p or red_s or win_kind >= NUM_KINDS or not win_suit_key >> 3 * (win_kind % 9) & 7:
        _check_win_in_hand(hand, key, red_p, red_s, win_tile)
    # Every tile incl. melds (kans as four), and no fifth copy anywhere (P01, P05).
    held = key
    if meld_objs or dora_ind or ura_ind or kita or red_p or red_s or (over_four_possible and over_four(key)):
        held, red_p, red_s = _check_physical_fast(hand, key, red_p, red_s, meld_objs, dora_ind, ura_ind, kita, rules)

    # --- every reading of the hand -------------------------------------------------------------
    closed = True
    kans = 0
    mf = NO_MELDS
    if meld_objs:
        mf = meld_facts([(m.kind, m.is_open, m.is_kan) for m in meld_objs])
        closed = not mf.called
        kans = mf.kans
    if not pr.dama_allowed and closed and not riichi:  # P86 / A003-8 flag: the one home of the rule
        raise NotAWinError(sentence("hand {hand!r} is not a win under the {rules} rules: a closed hand wins only "
                                    "after riichi (dama_allowed = false, P86)", hand=_hand_text(hand),
                                    rules=rules.name))
    if rare or double_riichi or kanburi or open_riichi_deal_in:
        sit = situation_flags(riichi, double_riichi, open_riichi, ippatsu, rinshan, chankan, haitei, houtei, kanburi,
                              tenhou, chiihou, renhou, open_riichi_deal_in)
    else:
        sit = 1 if riichi else 0  # the usual case: riichi or not, nothing else
    # The splits of each suit (cached per suit pattern).
    parts = (_MAN_PARTS.get(man_key << 1 | 1) or suit_parts(0, man_key),
             _PIN_PARTS.get(pin_key << 1 | 1) or suit_parts(1, pin_key),
             _SOU_PARTS.get(sou_key << 1 | 1) or suit_parts(2, sou_key),
             _HONOUR_PARTS.get(honour_key << 1 | 1) or suit_parts(3, honour_key))
    # Candidates in reading order: the standard readings, then seven pairs and thirteen orphans.
    candidates = standard_readings(table, parts, man_key, honour_key, win_kind, closed, tsumo, seat, rnd, sit, key,
                                   mf) if parts[0] and parts[1] and parts[2] and parts[3] else []
    fixed_fu = pr.fixed_fu
    # The next two tests read the suit keys (machine integers), not the 102-bit hand key.
    numbers_held = man_key | pin_key | sou_key  # the number suits' kind i held -> digit i
    if n_melds == 0 and not (numbers_held | honour_key) & _SUIT_ODD:  # only pairs (and fours): seven pairs? (P73)
        fours = key >> 2 & ALL_KINDS
        if (key >> 1 & ALL_KINDS).bit_count() + 2 * fours.bit_count() == 7 and (
                not fours or rules.chiitoi_four_of_a_kind):
            lines, ym = evaluate_chiitoi(table, sit, tsumo, key_counts(key))
            fu = fixed_fu or rules.chiitoi_fu
            candidates = [*candidates, Reading(lines, sum(h for _, h in lines), ym, fu, fu, TANKI,
                                               breakdown=(("chiitoitsu", fu),))]
    if n_melds == 0 and not numbers_held & _SUIT_SIMPLES and present(key).bit_count() == 13:  # thirteen orphans
        counts = key_counts(key)
        ym = evaluate_kokushi(table, sit, tsumo, counts, win_kind)
        candidates = [*candidates, Reading((), 0, ym, 0, 0, TANKI if counts[win_kind] == 2 else "")]
    if not candidates:
        raise NotAWinError(sentence("hand {hand!r} with melds {melds} is not a complete hand",
                                    hand=_hand_text(hand), melds=[str(m) for m in meld_objs]))

    # --- dora (not yaku: added to valid hands only) -------------------------------------------
    dora_lines: tuple[Line, ...] = ()
    if dora_ind or (ura_ind and riichi) or red_p or red_s or kita or flowers or pr.always_dora_fives:
        dora_lines = _dora(rules, held, red_p, red_s, dora_ind, ura_ind if riichi else (), kita, flowers)
    dora_han = sum(h for _, h in dora_lines) if dora_lines else 0
    shibari = min_han_at(rules, honba) if honba else pr.min_han

    # --- the reading worth most (the first of equal ones) --------------------------------------
    chosen: Reading | None = None
    best_basic = best_han = best_fu = best_kan_bonus = 0
    best_limit: str | None = None
    reason = "no_yaku"  # why no reading wins, put into words only if none does
    north_in_hand = pr.north_restricted and count_of(key, NORTH) > 0
    renhou_mangan = renhou and pr.renhou_mangan
    kan_han_bonus = pr.kan_han_bonus
    nondealer_limits = pr.nondealer_limits
    basic_table = pr.basic
    for c in candidates:
        lines, han, ym, fu = c.lines, c.han, c.yakuman, c.fu
        if north_in_hand and not any(n in NORTH_RESTRICTED_OK for n, _ in ym):
            reason = "north"
            continue
        limit: str | None
        if ym:
            mult = sum(m for _, m in ym) if pr.yakuman_stacking else max(m for _, m in ym)
            basic, han, limit, kan_bonus = 8000 * mult, 13 * mult, "yakuman", 0
        else:
            # Validity (yaku, minimum han, P64-P66), dora, kan bonus and limits.
            if not lines and not renhou_mangan:
                continue
            if not closed and pr.kuitan_not_alone and len(lines) == 1 and lines[0][0] == "tanyao":
                reason = "kuitan"  # OFFICIAL: not the only yaku
                continue
            counted = han + dora_han if pr.shibari_counts_dora else han
            if not pr.shibari_counts_ippatsu:
                counted -= sum(h for n, h in lines if n == "ippatsu")
            if counted < shibari and not renhou_mangan:
                reason = "shibari"
                continue
            han += dora_han
            bp = basic_table.get(han << 8 | fu)
            if bp is None:
                bp = basic_table[han << 8 | fu] = basic_points(han, fu, rules)
            basic, limit = bp
            kan_bonus = 0
            if basic < 2000 and ((kans and kan_han_bonus) or renhou_mangan):
                if kans and kan_han_bonus:
                    # P56 / A002-6: +1 han per kan, counted only when the hand is below mangan without it.
                    kan_bonus = kan_han_bonus * kans
                    han += kan_bonus
                    basic, limit = basic_points(han, fu, rules)
                if renhou_mangan and basic < 2000:
                    basic, limit = 2000, "mangan"  # P63 / A002-17: a bigger hand scores as itself
            if nondealer_limits is not None and limit is not None and seat != 27:
                basic = nondealer_limits[limit]  # P58 / A001-4: a printed non-dealer limit table
        if chosen is None or basic > best_basic or (basic == best_basic and (
                han > best_han or (han == best_han and fu > best_fu))):
            chosen, best_basic, best_han, best_fu, best_limit, best_kan_bonus = c, basic, han, fu, limit, kan_bonus
    if chosen is None:
        why = {"no_yaku": sentence("no yaku"),
               "north": sentence("North may stay in the hand only for kokushi, tsuuiisou and suushii under the "
                                 "{name} rules (P15)", name=rules.name),
               "kuitan": sentence("open tanyao alone is not a win (P66)"),
               "shibari": sentence("fewer than {n} han (P64)", n=shibari)}[reason]
        raise NotAWinError(sentence("hand {hand!r} is complete but not a win under the {name} rules: {reason}",
                                    hand=_hand_text(hand), name=rules.name, reason=why))

    # --- the Score, built once ------------------------------------------------------------------
    basic, han, fu, limit, kan_bonus = best_basic, best_han, best_fu, best_limit, best_kan_bonus
    lines, ym, wait = chosen.lines, chosen.yakuman, chosen.wait
    if ym:
        if not pr.yakuman_stacking:
            top = ym[0]
            for y in ym:
                if y[1] > top[1]:
                    top = y  # the first of the largest, as max() takes it
            ym = (top,)
        yaku_lines = tuple([_YAKUMAN_LINES.get(y) or _yaku_line(y, True) for y in ym])
        multiplier = sum(m for _, m in ym)
        kazoe = False
    else:
        if dora_lines:
            lines += dora_lines
        if kan_bonus:
            lines += (("kan_bonus", kan_bonus),)
        if renhou_mangan:
            lines += (("renhou", 0),)
        yaku_lines = tuple([_yaku_of(y) for y in lines])
        kazoe = limit == "yakuman"
        multiplier = 1 if kazoe else 0
    four = chosen.parts
    breakdown = chosen.breakdown if four is None else _fu_breakdown(pr, tsumo, closed, chosen, four, meld_objs,
                                                                      win_kind)

    # --- payments (§4.2), honba (P43, P44) and riichi sticks (P48) -----------------------------
    total, paid, deltas = _paid(pr, basic, seat, disc, honba, kyotaku)
    return Score(han=han, fu=fu, yaku=yaku_lines, yakuman=multiplier, limit=limit, total=total, deltas=deltas,
                 fu_breakdown=breakdown, payments=paid, kazoe=kazoe, dealer=seat == 27, tsumo=tsumo, wait=wait)


def _bad(hand: str | Iterable[str | Tile], problem: Message) -> ScoringError:
    return ScoringError(sentence("hand {hand!r}: {problem}", hand=_hand_text(hand), problem=problem))


def _check_win_in_hand(hand: str | Iterable[str | Tile], key: int, red_p: int, red_s: int, win: Tile) -> None:
    """The winning tile is one of the concealed tiles (a red five and a plain five differ)."""
    k = win.kind
    held = count_of(key, k)
    reds = red_p if k == 13 else red_s if k == 22 else 0
    if not (reds if win.red else held - reds):
        if held:
            raise HandError(sentence("hand {hand!r}: the winning tile {win} is not in the hand (a red "
                                     "five and a plain five are different tiles)",
                                     hand=_hand_text(hand), win=win))
        raise HandError(sentence("hand {hand!r}: the winning tile {win} is not in the hand",
                                 hand=_hand_text(hand), win=win))


def _check_rare_flags(
    hand: str | Iterable[str | Tile], rules: Rules, meld_objs: tuple[Meld, ...], tsumo: bool, riichi: bool,
    open_riichi: bool, ippatsu: bool, haitei: bool, houtei: bool, rinshan: bool, chankan: bool, tenhou: bool,
    chiihou: bool, renhou: bool, discarder_wind: str | None, seat: int, kita: int,
) -> None:
    """The situation checks, in the order they are reported, for a win with any rare flag."""
    if ippatsu and not riichi:
        raise _bad(hand, sentence("ippatsu needs riichi"))
    if open_riichi and not riichi:
        raise _bad(hand, sentence("open riichi needs riichi"))
    if open_riichi and not rules.open_riichi:
        raise _bad(hand, sentence("open riichi is not allowed under the {name} rules", name=rules.name))
    if riichi and any(m.is_open for m in meld_objs):
        raise _bad(hand, sentence("riichi needs a closed hand, but the hand has open melds"))
    if tsumo and discarder_wind is not None:
        raise _bad(hand, sentence("a tsumo has no discarder"))
    if haitei and not tsumo:
        raise _bad(hand, sentence("haitei is a tsumo win (a ron on the last discard is houtei)"))
    if houtei and tsumo:
        raise _bad(hand, sentence("houtei is a ron win"))
    if rinshan and not tsumo:
        raise _bad(hand, sentence("rinshan is a tsumo win"))
    if rinshan and not (any(m.is_kan for m in meld_objs) or kita):
        raise _bad(hand, sentence("rinshan needs a kan (or kita) before the win"))
    if chankan and tsumo:
        raise _bad(hand, sentence("chankan is a ron win"))
    if tenhou and (not tsumo or seat != 27):
        raise _bad(hand, sentence("tenhou is the dealer's tsumo on the first draw"))
    if chiihou and (not tsumo or seat == 27):
        raise _bad(hand, sentence("chiihou is a non-dealer's tsumo on the first draw"))
    if renhou and tsumo:
        raise _bad(hand, sentence("renhou is a ron before one's first draw"))
    if (tenhou or chiihou or renhou) and meld_objs:
        raise _bad(hand, sentence("first-turn wins cannot have melds"))


def _fu_breakdown(
    pr: _PerRules, tsumo: bool, closed: bool, r: Reading, four: tuple[SuitPart, SuitPart, SuitPart, SuitPart],
    melds: tuple[Meld, ...], win: int,
) -> tuple[tuple[str, int], ...]:
    """The fu breakdown of the chosen standard reading ``r`` (its suit parts ``four``; P52, P54),
    whose fu (``r.raw_fu`` before rounding) the scorer has already counted."""
    if pr.fixed_fu:
        return _FIXED_LINES[pr.fixed_fu]
    parts: list[tuple[str, int]] = [_BASE_LINE]
    if closed and not tsumo:
        parts.append(_MENZEN_RON_LINE)
    man, pin, sou, hon = four
    if r.on_triplet and not tsumo:
        for part in four:
            for k in part.trips:  # concealed triplets in block order; the one completed by ron is open
                parts.append(TRIPLET_OPEN[k] if k == win else TRIPLET_CLOSED[k])
    else:
        if man.fu_lines:
            parts += man.fu_lines
        if pin.fu_lines:
            parts += pin.fu_lines
        if sou.fu_lines:
            parts += sou.fu_lines
        if hon.fu_lines:
            parts += hon.fu_lines
    for m in melds:
        f = 2 * (2 if m.kind in YAOCHUU else 1) * (1 if m.is_open else 2) * (4 if m.is_kan else 1)
        label = ("kan" if m.is_kan else "triplet") + ("_open" if m.is_open else "_closed")
        parts.append((f"{label} {kind_name(m.kind)}", f))
    if r.pair_fu:
        parts.append(_PAIR_LINES[r.pair][r.pair_fu // 2])
    wait_line = _WAIT_LINES.get(r.wait)  # kanchan, penchan, tanki
    if wait_line is not None:
        parts.append(wait_line)
    if tsumo and not (r.pinfu and pr.pinfu_tsumo_20fu):
        parts.append(_TSUMO_LINE)
    if r.raw_fu == 20 and not closed and not tsumo:
        parts.append(_OPEN_PINFU_RON_LINE)  # an open 20-fu ron is scored as 30 fu
    return tuple(parts)


_FIXED_LINES: Final = {30: (("fixed", 30),), 40: (("fixed", 40),)}
_BASE_LINE: Final = ("base", 20)
_MENZEN_RON_LINE: Final = ("menzen_ron", 10)
_TSUMO_LINE: Final = ("tsumo", 2)
_OPEN_PINFU_RON_LINE: Final = ("open_pinfu_ron", 10)
_WAIT_LINES: Final = {w: (w, 2) for w in (KANCHAN, PENCHAN, TANKI)}
_PAIR_LINES: Final = tuple(tuple((f"pair {kind_name(k)}", 2 * n) for n in range(4)) for k in range(NUM_KINDS))


def _dora(
    rules: Rules, held: int, red_p: int, red_s: int, dora_ind: tuple[Tile, ...], ura_ind: tuple[Tile, ...], kita: int,
    flowers: int,
) -> tuple[Line, ...]:
    """Dora lines (P05-P16, P04): indicators, red fives, always-dora fives, kita, flowers, ura.
    ``held`` is the hand key of every tile held incl. melds (kans as four), ``red_*`` their red fives."""

    def hits(indicators: tuple[Tile, ...]) -> int:
        n = 0
        for ind in indicators:
            if ind.is_flower:
                continue  # a flower turned as indicator indicates nothing
            d = _SUCCESSOR[ind.kind]
            n += count_of(held, d) + (kita if d == NORTH else 0)
        return n

    lines: list[Line] = []
    if dora_ind:
        d = hits(dora_ind)
        if d:
            lines.append(("dora", d))
    aka = count_of(held, 13) + count_of(held, 22) if rules.always_dora_fives else red_p + red_s
    if aka:
        lines.append(("aka_dora", aka))
    if kita and rules.kita_dora:
        lines.append(("kita_dora", kita * rules.kita_dora))
    if flowers and rules.flower_dora:
        lines.append(("flower_dora", flowers * rules.flower_dora))
    if ura_ind and rules.ura_dora:
        u = hits(ura_ind)
        if u:
            lines.append(("ura_dora", u))
    return tuple(lines)


def _check_physical_fast(
    hand: str | Iterable[str | Tile], key: int, red_p: int, red_s: int, melds: tuple[Meld, ...],
    dora_ind: tuple[Tile, ...], ura_ind: tuple[Tile, ...], kita: int, rules: Rules,
) -> tuple[int, int, int]:
    """The tiles held incl. melds (hand key, red 5p, red 5s), after checking on hand keys that no
    kind has more than four copies (with indicators and kita) and no more red fives than the
    rules have; a failure is reported by ``_check_physical``, with its exact message."""
    ok = not over_four(key)
    held = key
    for m in melds:
        k = m.kind
        size = len(m.tiles)
        if count_of(held, k) + size > 4:
            ok = False
            break
        held += size * KIND_BIT[k]
        for t in m.tiles:
            if t.red:
                if k == 13:
                    red_p += 1
                else:
                    red_s += 1
    seen, seen_p, seen_s = held, red_p, red_s
    if ok:
        for t in (*dora_ind, *ura_ind):
            if t.is_flower:
                continue
            if count_of(seen, t.kind) >= 4:
                ok = False
                break
            seen += KIND_BIT[t.kind]
            if t.red:
                if t.kind == 13:
                    seen_p += 1
                else:
                    seen_s += 1
        if kita and count_of(seen, NORTH) + kita > 4:
            ok = False
    if ok and (seen_p or seen_s) and (seen_p > (4 if rules.always_dora_fives else rules.red_5p)
                                      or seen_s > (4 if rules.always_dora_fives else rules.red_5s)):
        ok = False
    if not ok:
        tiles = list(_tiles(hand, "hand"))
        for m in melds:
            tiles.extend(m.tiles)
        _check_physical(tiles, dora_ind, ura_ind, kita, rules, _hand_text(hand))
    return held, red_p, red_s


def _check_physical(
    tiles: list[Tile], dora_ind: tuple[Tile, ...], ura_ind: tuple[Tile, ...], kita: int, rules: Rules,
    hand_text: str,
) -> None:
    """No fifth copy, no more red fives than the rules have, no more than four kita."""
    counts = [0] * NUM_KINDS
    reds = {13: 0, 22: 0}
    for t in tiles:
        if t.is_flower:
            raise TileError(sentence("hand {hand!r}: a flower cannot be in a meld", hand=hand_text))
    for t in (*tiles, *dora_ind, *ura_ind):
        if t.is_flower:
            continue
        counts[t.kind] += 1
        if t.red:
            reds[t.kind] += 1
    counts[NORTH] += kita
    for k, n in enumerate(counts):
        if n > 4:
            if k == NORTH and kita:
                raise HandError(sentence("hand {hand!r}: {n} copies of {tile} (including kita), but there are only 4",
                                         hand=hand_text, n=n, tile=kind_name(k)))
            raise HandError(sentence("hand {hand!r}: {n} copies of {tile}, but there are only 4",
                                     hand=hand_text, n=n, tile=kind_name(k)))
    # P05/P06 (CLUB 「赤色は関係ない」): where every five is dora, red paint is irrelevant.
    allowed = {13: 4, 22: 4} if rules.always_dora_fives else {13: rules.red_5p, 22: rules.red_5s}
    for k, n in reds.items():
        if n > allowed[k]:
            raise HandError(
                sentence("hand {hand!r}: {n} red {tile}, but the {name} rules have {allowed}",
                         hand=hand_text, n=n, tile=kind_name(k), name=rules.name, allowed=allowed[k])
            )
