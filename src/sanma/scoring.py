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
from dataclasses import dataclass, field
from types import MappingProxyType

from .agari import decompositions, is_chiitoi, is_kokushi
from .errors import HandError, NotAWinError, ScoringError, TileError
from .hand import Meld
from .rules.schema import Rules
from .tiles import NORTH, NUM_KINDS, Tile, kind_name, parse_tiles, successor, to_mpsz
from .yaku import (
    KANCHAN,
    PENCHAN,
    RYANMEN,
    SHANPON,
    TANKI,
    Evaluation,
    HandBlock,
    Situation,
    evaluate_chiitoi,
    evaluate_kokushi,
    evaluate_standard,
    yakuhai_reasons,
)

WIND_NAMES = ("E", "S", "W")
LIMIT_NAMES = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}
DORA_NAMES = frozenset({"dora", "aka_dora", "ura_dora", "kita_dora", "flower_dora", "kan_bonus"})
# OFFICIAL (P15 nuki_restricted): North may stay in the hand only for these yakuman.
NORTH_RESTRICTED_OK = frozenset({"kokushi", "kokushi_13", "tsuuiisou", "tsuuiisou_chiitoi",
                                 "shousuushii", "daisuushii"})


@dataclass(frozen=True, slots=True)
class Yaku:
    """One line of a score: a yaku with its han, a yakuman with its multiplier, or dora."""

    name: str
    han: int = 0
    yakuman: int = 0

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"name": self.name, "han": self.han}
        if self.yakuman:
            d["yakuman"] = self.yakuman
        return d


@dataclass(frozen=True, slots=True)
class Score:
    """The value of a win. ``total`` is what the winner receives before honba and riichi sticks;
    ``deltas`` is every seat's change (by seat wind) after honba and sticks."""

    han: int
    fu: int
    yaku: tuple[Yaku, ...]
    yakuman: int
    limit: str | None
    total: int
    deltas: Mapping[str, int]
    fu_breakdown: tuple[tuple[str, int], ...] = ()
    payments: Mapping[str, int] = field(default_factory=dict)
    kazoe: bool = False
    dealer: bool = False
    tsumo: bool = False
    wait: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "han": self.han, "fu": self.fu, "yaku": [y.to_json() for y in self.yaku],
            "yakuman": self.yakuman, "limit": self.limit, "total": self.total,
            "deltas": dict(self.deltas), "fu_breakdown": [list(f) for f in self.fu_breakdown],
            "payments": dict(self.payments), "kazoe": self.kazoe, "dealer": self.dealer,
            "tsumo": self.tsumo, "wait": self.wait,
        }


def _wind(value: str | None, what: str, allow_none: bool = False) -> int | None:
    if value is None:
        if allow_none:
            return None
        raise ScoringError(f"{what} is required")
    v = value.upper()
    if v not in ("E", "S", "W", "N"):
        raise ScoringError(f"invalid {what} {value!r}: expected E, S or W")
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


def payments(
    basic: int, dealer: bool, tsumo: bool, rules: Rules
) -> tuple[int, int]:
    """(from the dealer, from a non-dealer) for a tsumo, or (ron, 0) — matrix §4.2 models."""
    unit = rules.rounding
    ron = ceil_to(basic * (6 if dealer else 4), unit)
    if not tsumo:
        return ron, 0
    model = rules.tsumo_payment
    if model == "equal_halves":  # C / D (ONLINE, KANSAI): each pays half the ron value
        half = ceil_to(ron / 2, unit)
        return half, half
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


@dataclass(frozen=True, slots=True)
class _Candidate:
    basic: int
    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]
    yakuman: tuple[tuple[str, int], ...]
    fu_breakdown: tuple[tuple[str, int], ...]
    limit: str | None
    kazoe: bool
    wait: str

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.basic, self.han, self.fu)


def score_hand(
    hand: str | Iterable[str | Tile],
    *,
    win: str | Tile,
    melds: Sequence[str | Meld] = (),
    tsumo: bool = False,
    riichi: bool = False,
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
    seat_wind: str = "E",
    round_wind: str = "E",
    discarder_wind: str | None = None,
    dora_indicators: Sequence[str | Tile] = (),
    ura_indicators: Sequence[str | Tile] = (),
    kita: int = 0,
    flowers: int = 0,
    honba: int = 0,
    kyotaku: int = 0,
    rules: Rules | None = None,
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
    concealed = _tiles(hand, "hand")
    win_tile = win if isinstance(win, Tile) else Tile.parse(win)
    meld_objs = tuple(m if isinstance(m, Meld) else Meld.parse(m) for m in melds)
    dora_ind = _tiles(dora_indicators, "dora indicator")
    ura_ind = _tiles(ura_indicators, "ura indicator")
    seat = _wind(seat_wind, "seat wind")
    rnd = _wind(round_wind, "round wind")
    disc = _wind(discarder_wind, "discarder wind", allow_none=True)
    assert seat is not None and rnd is not None
    hand_text = to_mpsz(concealed)
    flower_tiles = [t for t in concealed if t.is_flower]
    if flower_tiles:
        raise HandError(f"hand {hand_text!r}: flowers are pulled, not kept in the hand (pass flowers=N)")

    # --- consistency of the situation ---------------------------------------------------------
    def bad(msg: str) -> ScoringError:
        return ScoringError(f"hand {hand_text!r}: {msg}")

    if double_riichi:
        riichi = True
    if ippatsu and not riichi:
        raise bad("ippatsu needs riichi")
    if open_riichi and not riichi:
        raise bad("open riichi needs riichi")
    if open_riichi and not rules.open_riichi:
        raise bad(f"open riichi is not allowed under the {rules.name} rules")
    if riichi and any(m.is_open for m in meld_objs):
        raise bad("riichi needs a closed hand, but the hand has open melds")
    if tsumo and discarder_wind is not None:
        raise bad("a tsumo has no discarder")
    if haitei and not tsumo:
        raise bad("haitei is a tsumo win (a ron on the last discard is houtei)")
    if houtei and tsumo:
        raise bad("houtei is a ron win")
    if rinshan and not tsumo:
        raise bad("rinshan is a tsumo win")
    if rinshan and not (any(m.is_kan for m in meld_objs) or kita):
        raise bad("rinshan needs a kan (or kita) before the win")
    if chankan and tsumo:
        raise bad("chankan is a ron win")
    if tenhou and (not tsumo or seat != 27):
        raise bad("tenhou is the dealer's tsumo on the first draw")
    if chiihou and (not tsumo or seat == 27):
        raise bad("chiihou is a non-dealer's tsumo on the first draw")
    if renhou and tsumo:
        raise bad("renhou is a ron before one's first draw")
    if (tenhou or chiihou or renhou) and meld_objs:
        raise bad("first-turn wins cannot have melds")
    if kita < 0 or flowers < 0 or honba < 0 or kyotaku < 0:
        raise bad("kita, flowers, honba and kyotaku cannot be negative")
    if kita and rules.north_mode not in ("nuki", "nuki_restricted"):
        raise bad(f"North is not pulled as kita under the {rules.name} rules")
    if flowers > rules.flowers:
        raise bad(f"{flowers} flowers pulled, but the {rules.name} rules use {rules.flowers}")
    if seat == 30:
        raise bad("seat wind N does not exist in sanma")
    if disc is not None and disc == seat:
        raise bad("the discarder cannot be the winner")
    if disc is None and not tsumo:
        disc = 27 + (seat - 27 - 1) % 3

    # --- tile counts ---------------------------------------------------------------------------
    n_melds = len(meld_objs)
    if len(concealed) + 3 * n_melds != 14:
        raise HandError(
            f"hand {hand_text!r} has {len(concealed)} concealed tiles and {n_melds} melds: "
            f"a winning hand needs {14 - 3 * n_melds} concealed tiles with {n_melds} melds"
        )
    if win_tile not in concealed:
        if win_tile.kind in {t.kind for t in concealed}:
            raise HandError(f"hand {hand_text!r}: the winning tile {win_tile} is not in the hand "
                            f"(a red five and a plain five are different tiles)")
        raise HandError(f"hand {hand_text!r}: the winning tile {win_tile} is not in the hand")
    all_tiles = list(concealed)
    for m in meld_objs:
        all_tiles.extend(m.tiles)
    _check_physical(all_tiles, dora_ind, ura_ind, kita, rules, hand_text)

    counts = [0] * NUM_KINDS
    for t in concealed:
        counts[t.kind] += 1
    full = list(counts)
    for m in meld_objs:
        full[m.kind] += 3  # for patterns a kan counts as a triplet
    closed = not any(m.is_open for m in meld_objs)
    sit = Situation(tsumo, riichi, double_riichi, open_riichi, ippatsu, haitei, houtei, rinshan, chankan,
                    kanburi, tenhou, chiihou, renhou, open_riichi_deal_in, seat, rnd)

    candidates: list[_Candidate] = []
    meld_blocks = tuple(HandBlock(True, m.kind, m.is_open, m.is_kan, m.is_open) for m in meld_objs)
    n_kans = sum(1 for m in meld_objs if m.is_kan)
    for d in decompositions(counts):
        for wait, idx in _placements(d.blocks, d.pair, win_tile.kind):
            blocks = tuple(
                HandBlock(bool(t), k, bool(t) and i == idx and not tsumo, False, False)
                for i, (t, k) in enumerate(d.blocks)
            ) + meld_blocks
            ev = evaluate_standard(rules, sit, blocks, d.pair, wait, win_tile.kind, closed, full)
            fu, breakdown = _fu_standard(rules, sit, blocks, d.pair, wait, closed, ev)
            candidates.append(_candidate(rules, ev, fu, breakdown, wait))
    if n_melds == 0 and is_chiitoi(counts, rules.chiitoi_four_of_a_kind):
        ev = evaluate_chiitoi(rules, sit, counts)
        fu = {"fixed_30": 30, "fixed_40": 40}.get(rules.fu_mode, rules.chiitoi_fu)
        candidates.append(_candidate(rules, ev, fu, (("chiitoitsu", fu),), TANKI))
    if n_melds == 0 and is_kokushi(counts):
        ev = evaluate_kokushi(rules, sit, counts, win_tile.kind)
        candidates.append(_candidate(rules, ev, 0, (), TANKI if counts[win_tile.kind] == 2 else ""))
    if not candidates:
        raise NotAWinError(f"hand {hand_text!r} with melds {[str(m) for m in meld_objs]} is not a complete hand")

    # --- dora (not yaku: added to valid hands only) -------------------------------------------
    dora_lines = _dora(rules, concealed, meld_objs, dora_ind, ura_ind if riichi else (), kita, flowers)
    dora_han = sum(h for _, h in dora_lines)
    shibari = 2 if rules.shibari_from_honba and honba >= rules.shibari_from_honba else rules.min_han

    best: _Candidate | None = None
    reason = "no yaku"
    north_in_hand = counts[NORTH] > 0 and rules.north_mode == "nuki_restricted"
    for c in candidates:
        if north_in_hand and not any(n in NORTH_RESTRICTED_OK for n, _ in c.yakuman):
            reason = ("North may stay in the hand only for kokushi, tsuuiisou and suushii under the "
                      f"{rules.name} rules (P15)")
            continue
        c2 = _finish(rules, c, dora_lines, dora_han, n_kans, renhou, shibari, closed)
        if c2 is None:
            if c.yaku and rules.kuitan == "not_alone" and [n for n, _ in c.yaku] == ["tanyao"] and not closed:
                reason = "open tanyao alone is not a win (P66)"
            elif c.yaku or c.yakuman:
                reason = f"fewer than {shibari} han (P64)"
            continue
        if best is None or c2.key > best.key:
            best = c2
    if best is None:
        raise NotAWinError(f"hand {hand_text!r} is complete but not a win under the {rules.name} rules: {reason}")

    dealer = seat == 27
    pay = payments(best.basic, dealer, tsumo, rules)
    deltas = {w: 0 for w in WIND_NAMES}
    me = WIND_NAMES[seat - 27]
    paid: dict[str, int] = {}
    if tsumo:
        for w in WIND_NAMES:
            if w == me:
                continue
            amount = pay[0] if w == "E" else pay[1]
            paid[w] = amount
            deltas[w] -= amount + honba * rules.honba_tsumo
            deltas[me] += amount + honba * rules.honba_tsumo
    else:
        assert disc is not None
        dw = WIND_NAMES[disc - 27]
        paid[dw] = pay[0]
        deltas[dw] -= pay[0] + honba * rules.honba_ron
        deltas[me] += pay[0] + honba * rules.honba_ron
    deltas[me] += kyotaku * rules.riichi_deposit
    total = sum(paid.values())
    yaku_lines = tuple(Yaku(n, h) for n, h in best.yaku) + tuple(Yaku(n, 0, m) for n, m in best.yakuman)
    multiplier = sum(m for _, m in best.yakuman) or (1 if best.kazoe else 0)
    return Score(
        han=best.han, fu=best.fu, yaku=yaku_lines, yakuman=multiplier, limit=best.limit, total=total,
        deltas=MappingProxyType(deltas), fu_breakdown=best.fu_breakdown, payments=MappingProxyType(paid),
        kazoe=best.kazoe, dealer=dealer, tsumo=tsumo, wait=best.wait,
    )


def _placements(blocks: tuple[tuple[int, int], ...], pair: int, win: int) -> list[tuple[str, int]]:
    """Where the winning tile can sit: (wait type, block index or -1 for the pair)."""
    out: list[tuple[str, int]] = []
    if pair == win:
        out.append((TANKI, -1))
    seen: set[tuple[int, int]] = set()
    for i, (trip, k) in enumerate(blocks):
        if (trip, k) in seen:
            continue
        if trip and k == win:
            out.append((SHANPON, i))
        elif not trip and k <= win <= k + 2:
            if win == k + 1:
                out.append((KANCHAN, i))
            elif (win == k and k % 9 == 6) or (win == k + 2 and k % 9 == 0):
                out.append((PENCHAN, i))
            else:
                out.append((RYANMEN, i))
        else:
            continue
        seen.add((trip, k))
    return out


def _fu_standard(
    rules: Rules, sit: Situation, blocks: tuple[HandBlock, ...], pair: int, wait: str, closed: bool,
    ev: Evaluation,
) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Fu of a standard hand (P52, P54), with its breakdown."""
    if rules.fu_mode == "fixed_30":
        return 30, (("fixed", 30),)
    if rules.fu_mode == "fixed_40":
        return 40, (("fixed", 40),)
    pinfu = any(n == "pinfu" for n, _ in ev.yaku)
    parts: list[tuple[str, int]] = [("base", 20)]
    if closed and not sit.tsumo:
        parts.append(("menzen_ron", 10))
    for b in blocks:
        if not b.triplet:
            continue
        f = 2 * (2 if b.kind in _YAOCHUU else 1) * (1 if b.open else 2) * (4 if b.kan else 1)
        label = ("kan" if b.kan else "triplet") + ("_open" if b.open else "_closed")
        parts.append((f"{label} {kind_name(b.kind)}", f))
    reasons = yakuhai_reasons(rules, sit, pair)
    if reasons:
        parts.append((f"pair {kind_name(pair)}", 2 * len(reasons)))
    if wait in (KANCHAN, PENCHAN, TANKI):
        parts.append((wait, 2))
    if sit.tsumo and not (pinfu and rules.pinfu_tsumo_20fu):
        parts.append(("tsumo", 2))
    raw = sum(f for _, f in parts)
    if raw == 20 and not closed and not sit.tsumo:
        return 30, (*parts, ("open_pinfu_ron", 10))  # an open 20-fu ron is scored as 30 fu
    fu = -(-raw // 10) * 10
    return fu, tuple(parts)


_YAOCHUU = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})


def _candidate(rules: Rules, ev: Evaluation, fu: int, breakdown: tuple[tuple[str, int], ...], wait: str
               ) -> _Candidate:
    if ev.yakuman:
        mult = sum(m for _, m in ev.yakuman) if rules.yakuman_stacking else max(m for _, m in ev.yakuman)
        yakuman = ev.yakuman if rules.yakuman_stacking else (max(ev.yakuman, key=lambda x: x[1]),)
        return _Candidate(8000 * mult, 13 * mult, fu, (), yakuman, breakdown, "yakuman", False, wait)
    han = sum(h for _, h in ev.yaku)
    return _Candidate(0, han, fu, ev.yaku, (), breakdown, None, False, wait)


def _finish(
    rules: Rules, c: _Candidate, dora_lines: tuple[tuple[str, int], ...], dora_han: int, n_kans: int,
    renhou: bool, shibari: int, closed: bool,
) -> _Candidate | None:
    """Apply validity (yaku, minimum han), dora, kan bonus and limits; None if not a win."""
    if c.yakuman:
        return c
    yaku_names = [n for n, _ in c.yaku]
    renhou_mangan = renhou and rules.renhou_value == "mangan"
    if not c.yaku and not renhou_mangan:
        return None
    if rules.kuitan == "not_alone" and not closed and yaku_names == ["tanyao"]:
        return None  # P66 (OFFICIAL): open tanyao cannot be the only yaku
    counted = c.han
    if not rules.shibari_counts_ippatsu:
        counted -= sum(h for n, h in c.yaku if n == "ippatsu")
    if rules.shibari_counts_dora:
        counted += dora_han
    if counted < shibari and not renhou_mangan:
        return None
    han = c.han + dora_han
    lines = c.yaku + dora_lines
    basic, limit = basic_points(han, c.fu, rules)
    if rules.kan_han_bonus and n_kans and basic < 2000:
        # P56 / A002-6: +1 han per kan, counted only when the hand is below mangan without it.
        bonus = rules.kan_han_bonus * n_kans
        han += bonus
        lines = (*lines, ("kan_bonus", bonus))
        basic, limit = basic_points(han, c.fu, rules)
    if renhou_mangan:
        lines = (*lines, ("renhou", 0))
        if basic < 2000:  # P63 / A002-17: renhou is worth a mangan; a bigger hand scores as itself
            basic, limit = 2000, "mangan"
    if not rules.kazoe_min_han and basic > 6000:
        basic, limit = 6000, "sanbaiman"
    kazoe = limit == "yakuman"
    return _Candidate(basic, han, c.fu, lines, (), c.fu_breakdown, limit, kazoe, c.wait)


def _dora(
    rules: Rules, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], dora_ind: tuple[Tile, ...],
    ura_ind: tuple[Tile, ...], kita: int, flowers: int,
) -> tuple[tuple[str, int], ...]:
    """Dora lines (P05-P16, P04): indicators, red fives, always-dora fives, kita, flowers, ura."""
    tiles = list(concealed)
    for m in melds:
        tiles.extend(m.tiles)
    kinds = [t.kind for t in tiles]

    def hits(indicators: tuple[Tile, ...]) -> int:
        n = 0
        for ind in indicators:
            if ind.is_flower:
                continue  # a flower turned as indicator indicates nothing
            d = successor(ind.kind)
            n += kinds.count(d) + (kita if d == NORTH else 0)
        return n

    lines: list[tuple[str, int]] = []
    d = hits(dora_ind)
    if d:
        lines.append(("dora", d))
    aka = sum(1 for t in tiles if t.red) if not rules.always_dora_fives else sum(
        1 for k in kinds if k in (13, 22))
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


def _check_physical(
    tiles: list[Tile], dora_ind: tuple[Tile, ...], ura_ind: tuple[Tile, ...], kita: int, rules: Rules,
    hand_text: str,
) -> None:
    """No fifth copy, no more red fives than the rules have, no more than four kita."""
    counts = [0] * NUM_KINDS
    reds = {13: 0, 22: 0}
    for t in tiles:
        if t.is_flower:
            raise TileError(f"hand {hand_text!r}: a flower cannot be in a meld")
    for t in (*tiles, *dora_ind, *ura_ind):
        if t.is_flower:
            continue
        counts[t.kind] += 1
        if t.red:
            reds[t.kind] += 1
    counts[NORTH] += kita
    for k, n in enumerate(counts):
        if n > 4:
            extra = " (including kita)" if k == NORTH and kita else ""
            raise HandError(f"hand {hand_text!r}: {n} copies of {kind_name(k)}{extra}, but there are only 4")
    # P05/P06 (CLUB 「赤色は関係ない」): where every five is dora, red paint is irrelevant.
    allowed = {13: 4, 22: 4} if rules.always_dora_fives else {13: rules.red_5p, 22: rules.red_5s}
    for k, n in reds.items():
        if n > allowed[k]:
            raise HandError(
                f"hand {hand_text!r}: {n} red {kind_name(k)}, but the {rules.name} rules have {allowed[k]}"
            )
