"""A hand's money: every payment of a hand's end as pure functions of its outcome and the table.

The one home of settlement (issue 10 item 1). An *outcome* is a small frozen value —
:class:`Hora` (one or more :class:`Win`), :class:`ExhaustiveDraw`, :class:`AbortiveDraw`,
:class:`Chombo`, :class:`RiichiBust` — and :func:`settle` turns it, with the table at the hand's end (scores after
this hand's riichi deposits, dealer, honba, sticks), into a :class:`Settlement`: point deltas per
seat, chip deltas per seat, the sticks left on the table, and the parts the event stream shows
(each winner's payment and liable seat, each chombo's payment). :func:`game_end_payments` does
the payments made when the game ends (bust chips, dobon fees, P121's chiicha chips).

Nothing here needs the tile-level engine: a :class:`~sanma.scoring.Score` comes from
``score_hand`` or, for a hand a person reports, from :func:`sanma.scoring.score_from_han`.

>>> from sanma.rules.schema import Rules
>>> from sanma.scoring import score_from_han
>>> r = Rules.preset("tenhou")
>>> s = score_from_han(3, 30, tsumo=False, seat_wind="S", discarder_wind="E", rules=r)
>>> settle(r, Hora((Win(1, s),), discarder=0), scores=(35000, 35000, 34000), dealer=0, honba=1,
...        kyotaku=1).deltas
(-4100, 5100, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import SanmaError
from ..rules.schema import Rules
from ..scoring import Score, limit_basic, payments
from ..tiles import SEATS, Tile, seat_wind, successor
from .settle import Item, bust_chips_owed, is_bust, placement, riichi_bust

#: ``Pao.yaku`` of the Kansai rule that the feeder of a daiminkan pays a rinshan win (P97, A003-15).
RINSHAN_PAO: Final = "daiminkan_rinshan"


#: The yaku whose closed wins earn chips (P117 one suit, P118 terminals in every set): what a hand
#: entered by its value must name for :func:`_win_chips` to pay them (the score keeper asks here).
CHINITSU_CHIP_YAKU: Final = ("chinitsu",)
JUNCHAN_CHIP_YAKU: Final = ("junchan", "chinroutou")
CHIP_YAKU: Final = CHINITSU_CHIP_YAKU + JUNCHAN_CHIP_YAKU

#: Abortive draws (P92-P95). P79's riichi bust is an outcome of its own, :class:`RiichiBust`.
ABORT_KINDS: Final = ("kyuushu", "all_riichi", "three_winds", "four_kans")


class OutcomeError(SanmaError):
    """A hand outcome or table that cannot be settled (a seat out of range, a winner who dealt in...)."""


# --- outcomes ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pao:
    """A liable seat (P97): ``yaku`` names the yakuman it fed (``daisangen``...) or is
    ``RINSHAN_PAO`` for the feeder of the daiminkan a rinshan win came from. Whether it applies
    to a win (the yaku is in the score, the rules have that pao) is decided here, in payout."""

    seat: int
    yaku: str


@dataclass(frozen=True, slots=True)
class Win:
    """One winner's hand: the seat, its :class:`Score`, and what the chips need.

    ``pao``: the candidate liable seats, first applicable one taken. ``closed``: menzen (P117-P119).
    ``ura_tiles``: physical tiles matching the ura indicators, for ``ura_chip_count = per_tile``
    (None: count the ura han, P115). ``chinitsu_shape``: one suit only (a yakuman of that shape earns
    P117's chips). ``chip_flowers``: flowers that earn P119's chips.
    """

    seat: int
    score: Score
    pao: tuple[Pao, ...] = ()
    closed: bool = True
    ura_tiles: int | None = None
    chinitsu_shape: bool = False
    chip_flowers: int = 0


@dataclass(frozen=True, slots=True)
class Hora:
    """A hand won: a tsumo (``discarder`` None, one win) or a ron by one or more seats, in the
    order the rules settle them (head bump first, P88-P91)."""

    wins: tuple[Win, ...]
    discarder: int | None = None


@dataclass(frozen=True, slots=True)
class ExhaustiveDraw:
    """The wall ran out: ``tenpai`` seats (P47) and ``nagashi`` seats (P96)."""

    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AbortiveDraw:
    """An abortive draw (P92-P95): ``kind`` is kyuushu, all_riichi, three_winds or four_kans."""

    kind: str


@dataclass(frozen=True, slots=True)
class Offence:
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class Chombo:
    """Chombo (P100-P102): the offences, and the seats whose riichi stick went to the table this
    hand (they get it back, P101)."""

    offences: tuple[Offence, ...]
    sticks_this_hand: tuple[int, ...] = ()

    @staticmethod
    def of(seat: int, reason: str, sticks_this_hand: tuple[int, ...] = ()) -> Chombo:
        return Chombo((Offence(seat, reason),), sticks_this_hand)


@dataclass(frozen=True, slots=True)
class RiichiBust:
    """P79 / A000-19 (CLUB) 「1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、
    箱割れチップは両者に払う」: ``seat`` declared riichi with too few points (``settle.riichi_bust``);
    the hand stops there, no stick is placed. ``opening``: East 1 of the first lap (P112's early
    bust chips). Where a bust ends the game (``bust_ends_game``) the bust is paid with the game's end
    (``game_end_payments``); otherwise :func:`settle` pays it now and the hand is replayed."""

    seat: int
    opening: bool = False


Outcome = Hora | ExhaustiveDraw | AbortiveDraw | Chombo | RiichiBust


# --- results ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WinPayment:
    """One win's part of a settlement: the point deltas it caused and the liable seat, if any."""

    seat: int
    deltas: tuple[int, ...]
    pao: int | None = None


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every delta of a hand's end. ``deltas`` and ``chips`` per seat; ``kyotaku`` the riichi
    sticks left on the table afterwards; ``wins`` per win and ``offences`` per chombo (point
    deltas), ``refund`` the sticks given back on a chombo; ``bust_by`` whom a bust is owed to when
    not every winner (P91, upstream_first double ron)."""

    deltas: tuple[int, ...]
    chips: tuple[int, ...] = (0, 0, 0)
    kyotaku: int = 0
    wins: tuple[WinPayment, ...] = ()
    offences: tuple[tuple[int, ...], ...] = ()
    refund: tuple[int, ...] = (0, 0, 0)
    bust_by: tuple[int, ...] = ()


# --- the one place for "each other seat pays" --------------------------------------------------
def tsumo_from_each(rules: Rules, basic: int, winner: int, dealer: int, extra: int = 0) -> list[int]:
    """Deltas of a tsumo worth ``basic`` points by ``winner`` (§4.2 models via ``payments``): each
    other seat pays its share plus ``extra`` (honba), the winner receives the sum.

    >>> from sanma.rules.schema import Rules
    >>> tsumo_from_each(Rules.preset("tenhou"), 2000, 1, 0)
    [-4000, 6000, -2000]
    """
    pd, pn = payments(basic, winner == dealer, True, rules)
    d = [0] * SEATS
    for x in range(SEATS):
        if x != winner:
            amount = (pd if x == dealer else pn) + extra
            d[x] -= amount
            d[winner] += amount
    return d


# --- settlement ---------------------------------------------------------------------------------
def settle(rules: Rules, outcome: Outcome, *, scores: Sequence[int], dealer: int, honba: int,
           kyotaku: int) -> Settlement:
    """Every payment of a hand that ended with ``outcome``; ``scores`` are the table's scores at
    the end (after this hand's riichi deposits), ``kyotaku`` the sticks on the table. Raises
    ``OutcomeError`` naming the problem for an outcome that cannot happen at this table."""
    check(outcome, scores=scores, dealer=dealer, honba=honba, kyotaku=kyotaku)
    if isinstance(outcome, Hora):
        return settle_hora(rules, outcome, scores=scores, dealer=dealer, honba=honba, kyotaku=kyotaku)
    if isinstance(outcome, ExhaustiveDraw):
        return settle_draw(rules, outcome, dealer=dealer, honba=honba, kyotaku=kyotaku)
    if isinstance(outcome, Chombo):
        return settle_chombo(rules, outcome, dealer=dealer, kyotaku=kyotaku)
    if isinstance(outcome, RiichiBust):
        return settle_riichi_bust(rules, outcome, scores=scores, dealer=dealer, kyotaku=kyotaku)
    return Settlement((0,) * SEATS, kyotaku=kyotaku)  # an abortive draw moves no money (P92-P95)


def _seats(what: str, seats: Sequence[int]) -> None:
    for s in seats:
        if type(s) is not int or not 0 <= s < SEATS:
            raise OutcomeError(f"{what}: seat {s!r} is not a seat (0, 1 or 2)")
    if len(set(seats)) != len(seats):
        raise OutcomeError(f"{what}: seat listed twice in {list(seats)}")


def check(outcome: Outcome, *, scores: Sequence[int], dealer: int, honba: int, kyotaku: int) -> None:
    """Raise ``OutcomeError`` unless ``outcome`` can be settled at this table (what :func:`settle` checks)."""
    if len(scores) != SEATS:
        raise OutcomeError(f"scores: {SEATS} seats, got {len(scores)} scores")
    _seats("dealer", (dealer,))
    if honba < 0 or kyotaku < 0:
        raise OutcomeError(f"honba {honba} and riichi sticks {kyotaku} cannot be negative")
    if isinstance(outcome, Hora):
        if not outcome.wins:
            raise OutcomeError("a win needs a winner")
        won = [w.seat for w in outcome.wins]
        _seats("winners", won)
        if outcome.discarder is None:
            if len(won) != 1:
                raise OutcomeError(f"a tsumo has exactly one winner, got {len(won)}")
        else:
            _seats("discarder", (outcome.discarder,))
            if outcome.discarder in won:
                raise OutcomeError(f"seat {outcome.discarder} cannot win off its own discard")
        for w in outcome.wins:
            for p in w.pao:
                _seats("liable seat", (p.seat,))
                if p.seat == w.seat:
                    raise OutcomeError(f"seat {w.seat} cannot be liable (pao) for its own win")
            if (w.ura_tiles is not None and w.ura_tiles < 0) or w.chip_flowers < 0:
                raise OutcomeError(f"seat {w.seat}: ura tiles and chip flowers cannot be negative")
    elif isinstance(outcome, ExhaustiveDraw):
        _seats("tenpai", outcome.tenpai)
        _seats("nagashi", outcome.nagashi)
    elif isinstance(outcome, Chombo):
        if not outcome.offences:
            raise OutcomeError("a chombo needs an offender")
        _seats("chombo offenders", [o.seat for o in outcome.offences])
        _seats("riichi sticks of this hand", outcome.sticks_this_hand)
        if len(outcome.sticks_this_hand) > kyotaku:
            raise OutcomeError(f"{len(outcome.sticks_this_hand)} riichi sticks placed this hand, "
                               f"only {kyotaku} on the table")
    elif isinstance(outcome, RiichiBust):
        _seats("riichi bust", (outcome.seat,))
    elif isinstance(outcome, AbortiveDraw):
        if outcome.kind not in ABORT_KINDS:
            raise OutcomeError(f"unknown abortive draw {outcome.kind!r}: expected one of {', '.join(ABORT_KINDS)}")
    else:
        raise OutcomeError(f"not a hand outcome: {outcome!r}")


def settle_hora(rules: Rules, hora: Hora, *, scores: Sequence[int], dealer: int, honba: int,
                kyotaku: int) -> Settlement:
    """Points and chips of one or more wins (P43-P48 honba and sticks, P88-P91 multiple ron,
    P97-P99 pao, P114-P119 chips)."""
    r = rules
    discarder = hora.discarder
    deltas = [0] * SEATS
    chips = [0] * SEATS
    parts: list[WinPayment] = []
    paid_when_bust: list[int] = []
    upstream_first = r.double_ron_payment_order == "upstream_first"
    for i, win in enumerate(hora.wins):
        first = i == 0
        d, pao = _win_deltas(r, win, discarder, dealer, honba, kyotaku, first)
        for x in range(SEATS):
            deltas[x] += d[x]
        if (upstream_first and discarder is not None and not paid_when_bust
                and is_bust(r, scores[discarder] + deltas[discarder])):
            paid_when_bust.append(win.seat)  # P91: the winner being paid when the points ran out
        _win_chips(r, win, discarder, pao, chips)
        parts.append(WinPayment(win.seat, tuple(d), pao))
    return Settlement(tuple(deltas), tuple(chips), 0, tuple(parts), bust_by=tuple(paid_when_bust))


def _win_deltas(r: Rules, win: Win, discarder: int | None, dealer: int, honba: int, kyotaku: int,
                first: bool) -> tuple[list[int], int | None]:
    """One win's point deltas and the liable seat. Honba and sticks go to the first winner only
    (head bump) unless the rules share the honba (P89)."""
    s = win.score
    w = win.seat
    sticks = kyotaku * r.riichi_deposit if first else 0
    d = [0] * SEATS
    if discarder is None:
        extra = honba * r.honba_tsumo
        for x in range(SEATS):
            if x != w:
                amount = s.payments.get(seat_wind(x, dealer), 0) + extra
                d[x] -= amount
                d[w] += amount
    else:
        ron = s.total + (honba * r.honba_ron if first or r.double_ron_honba_both else 0)
        d[discarder] -= ron
        d[w] += ron
    d[w] += sticks
    for p in win.pao:
        out = _pao_deltas(r, win, p, d, discarder, dealer, honba, sticks, first)
        if out is not None:
            return out, p.seat
    return d, None


def _pao_deltas(r: Rules, win: Win, p: Pao, d: list[int], discarder: int | None, dealer: int, honba: int,
                sticks: int, first: bool) -> list[int] | None:
    """P97-P99 / A000-22: the liable player pays the pao yakuman's ron value on a tsumo, and half
    of it on a ron by someone else (the discarder pays the rest); P97 / A003-15 (KANSAI): a
    rinshan win off a daiminkan is paid by whoever fed the kan. None when ``p`` does not apply."""
    s = win.score
    w = win.seat
    names = [y.name for y in s.yaku]
    out = [0] * SEATS
    if p.yaku == RINSHAN_PAO:
        if discarder is not None or not r.pao_daiminkan_rinshan or "rinshan" not in names:
            return None
        out[p.seat] = -(s.total + honba * r.honba_tsumo * (SEATS - 1))
        out[w] = -sum(out) + sticks
        return out
    if not s.yakuman or p.yaku not in names:
        return None
    if discarder is not None and p.seat == discarder:
        return d  # the liable player dealt in: an ordinary ron
    windealer = w == dealer
    yakuman = limit_basic("yakuman")
    pao_mult = s.yakuman if r.pao_compound == "whole" else sum(y.yakuman for y in s.yaku if y.name == p.yaku)
    pao_value = payments(yakuman * pao_mult, windealer, False, r)[0]
    if discarder is None:
        if r.pao_tsumo_value == "tsumo_total":
            pao_value = -sum(tsumo_from_each(r, yakuman * pao_mult, w, dealer)[x] for x in range(SEATS) if x != w)
        out[p.seat] -= pao_value + honba * r.honba_tsumo * (SEATS - 1)
        rest = s.yakuman - pao_mult
        if rest:
            rest_d = tsumo_from_each(r, yakuman * rest, w, dealer)
            for x in range(SEATS):
                if x != w:
                    out[x] += rest_d[x]
    else:
        ron_honba = honba * r.honba_ron if first or r.double_ron_honba_both else 0
        out[p.seat] -= pao_value // 2
        out[discarder] -= pao_value - pao_value // 2 + (s.total - pao_value) + ron_honba
    out[w] = -sum(out) + sticks
    return out


def _win_chips(r: Rules, win: Win, discarder: int | None, liable: int | None, chips: list[int]) -> None:
    """Chips of one win, added to ``chips`` (P114-P119; P98 pao chips)."""
    if not r.chips:
        return
    w = win.seat
    s = win.score
    payers = [discarder] if discarder is not None else [x for x in range(SEATS) if x != w]
    names = {y.name for y in s.yaku}

    def pay(each: int, who: Sequence[int]) -> None:
        for x in who:
            chips[x] -= each
            chips[w] += each

    if "ippatsu" in names:
        pay(r.chip_ippatsu, payers)  # P114
    ura = sum(y.han for y in s.yaku if y.name == "ura_dora")
    if ura and r.ura_chip_count == "per_tile" and win.ura_tiles is not None:  # A000-25: physical tiles
        ura = win.ura_tiles
    if ura:
        pay(r.chip_ura * ura, payers)  # P115
    if s.yakuman and (not s.kazoe or r.chip_yakuman_kazoe):  # P116
        liable = liable if r.pao_pays_chips else None
        if discarder is None:
            each = r.chip_yakuman_tsumo * s.yakuman
            if liable is not None:  # P98 (KANSAI): on a tsumo the liable player pays every chip
                pay(each * len(payers), [liable])
            else:
                pay(each, payers)
        elif liable is not None:
            # P98 (KANSAI): the liable player who deals in pays all; otherwise liable and
            # discarder pay half each.
            total = r.chip_yakuman_ron * s.yakuman * (2 if r.chip_yakuman_from_both else 1)
            if liable == discarder:
                pay(total, [liable])
            else:
                pay(total // 2, [liable])
                pay(total - total // 2, [discarder])
        elif r.chip_yakuman_from_both:
            pay(r.chip_yakuman_ron * s.yakuman, [x for x in range(SEATS) if x != w])
        else:
            pay(r.chip_yakuman_ron * s.yakuman, payers)
    if win.closed and (names & set(CHINITSU_CHIP_YAKU) or (s.yakuman and win.chinitsu_shape)):  # P117
        ron, each = r.chip_menzen_chinitsu
        pay(each if discarder is None else ron, payers)
    if win.closed and names & set(JUNCHAN_CHIP_YAKU):  # P118
        ron, each = r.chip_menzen_junchan
        pay(each if discarder is None else ron, payers)
    if win.closed and win.chip_flowers and r.chip_flower:  # P119
        pay(r.chip_flower * win.chip_flowers, payers)


def ura_tiles_held(ura_indicators: Iterable[Tile], tiles: Iterable[Tile]) -> int:
    """A000-25 (``ura_chip_count = per_tile``, seed 000 「裏ドラ（槓裏も含む）の現物が手にあれば、1個につき」):
    how many of the winner's physical ``tiles`` (hand and melds) the ura indicators point at —
    :attr:`Win.ura_tiles`. A flower indicator points at nothing.

    >>> from sanma.tiles import parse_tiles
    >>> ura_tiles_held(parse_tiles("7z7z"), parse_tiles("555z123p"))  # chun points at haku, once
    3
    """
    kinds = {successor(t.kind) for t in ura_indicators if not t.is_flower}
    return sum(1 for t in tiles if t.kind in kinds)


def one_suit(tiles: Iterable[Tile]) -> bool:
    """P117: the winner's tiles (hand and melds; flowers aside) are of one suit — a yakuman of that
    shape earns the closed-chinitsu chips (:attr:`Win.chinitsu_shape`).

    >>> from sanma.tiles import parse_tiles
    >>> one_suit(parse_tiles("11123455678999p")), one_suit(parse_tiles("1112345567899p11z"))
    (True, False)
    """
    kinds = {t.kind for t in tiles if not t.is_flower}
    return bool(kinds) and all(k < 27 for k in kinds) and len({k // 9 for k in kinds}) == 1


def expected_win_chips(rules: Rules, win: Win, discarder: int | None, ura_expected: float = 0.0) -> float:
    """The chips ``win`` earns its winner (what :func:`settle` pays, P114-P119), with the ura
    chips replaced by ``ura_expected`` ura per win (a bot weighing a hand before the ura is known).

    >>> from sanma.rules.schema import Rules
    >>> from sanma.scoring import score_from_han
    >>> r = Rules.preset("club")
    >>> s = score_from_han(0, 0, yakuman=1, yaku=("chinroutou",), tsumo=True, seat_wind="S", rules=r)
    >>> expected_win_chips(r, Win(1, s), None) > expected_win_chips(r, Win(1, s, closed=False), None)
    True
    """
    chips = [0] * SEATS
    _win_chips(rules, win, discarder, None, chips)
    payers = 1 if discarder is not None else SEATS - 1
    ura = ura_expected * rules.chip_ura * payers if rules.chips else 0.0
    return chips[win.seat] + ura


def settle_draw(rules: Rules, draw: ExhaustiveDraw, *, dealer: int, honba: int, kyotaku: int) -> Settlement:
    """An exhaustive draw: nagashi (P96) as a win or as a payment, noten payments (P46)."""
    r = rules
    nagashi = list(draw.nagashi) if r.nagashi != "none" else []
    if nagashi and r.nagashi_is_win:
        return _nagashi_win(r, nagashi, dealer, honba, kyotaku)
    deltas = [0] * SEATS
    for s in nagashi:
        d = tsumo_from_each(r, limit_basic(r.nagashi), s, dealer)
        for x in range(SEATS):
            deltas[x] += d[x]
    if not nagashi or r.nagashi_with_noten_payments:
        tenpai = list(draw.tenpai)
        noten = [s for s in range(SEATS) if s not in tenpai]
        if tenpai and noten:
            if r.noten_model == "pool":
                for s in noten:
                    deltas[s] -= r.noten_amount // len(noten)
                for s in tenpai:
                    deltas[s] += r.noten_amount // len(tenpai)
            else:  # per pair (P46: CLUB, KANSAI)
                for s in noten:
                    for t in tenpai:
                        deltas[s] -= r.noten_amount
                        deltas[t] += r.noten_amount
    return Settlement(tuple(deltas), kyotaku=kyotaku)


def _nagashi_win(r: Rules, players: list[int], dealer: int, honba: int, kyotaku: int) -> Settlement:
    """Nagashi as a tsumo win (A000-3, A002-18, A003-12): each nagashi player is paid; honba and
    sticks to the first."""
    deltas = [0] * SEATS
    chips = [0] * SEATS
    for i, s in enumerate(players):
        d = tsumo_from_each(r, limit_basic(r.nagashi), s, dealer, honba * r.honba_tsumo if i == 0 else 0)
        for x in range(SEATS):
            deltas[x] += d[x]
        if r.chips and r.nagashi == "yakuman":  # A003-12: a real yakuman (本役満) earns its chips
            for x in range(SEATS):
                if x != s:
                    chips[x] -= r.chip_yakuman_tsumo
                    chips[s] += r.chip_yakuman_tsumo
    deltas[players[0]] += kyotaku * r.riichi_deposit
    return Settlement(tuple(deltas), tuple(chips), 0,
                      tuple(WinPayment(s, ()) for s in players))


def chombo_payment(rules: Rules, seat: int, dealer: int) -> tuple[int, ...]:
    """P100: what ``seat`` pays for one chombo — a mangan or haneman tsumo in reverse (matrix §4.3:
    the offender pays what each other seat would pay it), nothing for rank points.

    >>> from sanma.rules.schema import Rules
    >>> chombo_payment(Rules.preset("club"), 1, 0)
    (4000, -6000, 2000)
    """
    if rules.chombo not in ("mangan", "haneman"):
        return (0,) * SEATS
    return tuple(-x for x in tsumo_from_each(rules, limit_basic(rules.chombo), seat, dealer))


def settle_chombo(rules: Rules, chombo: Chombo, *, dealer: int, kyotaku: int) -> Settlement:
    """P100-P102: the riichi sticks placed in the hand go back to their owners (P101); each offender
    pays the penalty (A000-14)."""
    refund = [0] * SEATS
    left = kyotaku
    for s in chombo.sticks_this_hand:  # P101 「その局に出されたリーチ棒は出した者に戻す」
        refund[s] += rules.riichi_deposit
        left -= 1
    deltas = list(refund)
    offences = []
    for o in chombo.offences:
        d = chombo_payment(rules, o.seat, dealer)
        offences.append(d)
        for x in range(SEATS):
            deltas[x] += d[x]
    return Settlement(tuple(deltas), kyotaku=left, offences=tuple(offences), refund=tuple(refund))


def settle_riichi_bust(rules: Rules, bust: RiichiBust, *, scores: Sequence[int], dealer: int,
                       kyotaku: int) -> Settlement:
    """P79 / A000-19 (CLUB): the declarer pays *each* other player (「両者に払う」) the bust chips of
    ``settle.bust_chips_owed`` (P110-P112) and the dobon fee (P110), as a bust would. Where a bust
    ends the game those are paid at its end (``game_end_payments``, the declarer busted, both others
    busters, ``bust_by``) and nothing moves here. Raises ``OutcomeError`` when that riichi is no
    bust under these rules (``riichi_bust_points``).

    >>> from sanma.rules.schema import Rules
    >>> from dataclasses import replace
    >>> r = replace(Rules.preset("club"), bust_ends_game=False, dobon_fee=1000)
    >>> paid = settle(r, RiichiBust(2, opening=True), scores=(50000, 54000, 1000), dealer=0, honba=0, kyotaku=0)
    >>> paid.deltas, paid.chips
    ((1000, 1000, -2000), (8, 8, -16))
    """
    seat = bust.seat
    if not riichi_bust(rules, scores[seat]):
        raise OutcomeError(f"riichi bust: seat {seat} has {scores[seat]:,} points, a riichi is a bust only with "
                           f"{rules.riichi_bust_points:,} or fewer (P79, riichi_bust_points)")
    others = tuple(x for x in range(SEATS) if x != seat)
    if rules.bust_ends_game:  # P42: the game ends; game_end_payments pays the bust to both others
        return Settlement((0,) * SEATS, kyotaku=kyotaku, bust_by=others)
    owed = bust_chips_owed(rules, scores[seat], opening=bust.opening, dealer=seat == dealer)
    deltas = [0] * SEATS
    chips = [0] * SEATS
    for x in others:
        chips[seat] -= owed
        chips[x] += owed
        deltas[seat] -= rules.dobon_fee
        deltas[x] += rules.dobon_fee
    return Settlement(tuple(deltas), tuple(chips), kyotaku)


def chiicha_chips(rules: Rules, *, top: bool) -> tuple[int, ...]:
    """P121 (CLUB): the chips the first dealer (seat 0) pays each other seat when a game that nobody
    busted ends with it not on ``top``; nothing when it is top or the rules have no such chips.

    >>> from sanma.rules.schema import Rules
    >>> chiicha_chips(Rules.preset("club"), top=False), chiicha_chips(Rules.preset("club"), top=True)
    ((-6, 3, 3), (0, 0, 0))
    """
    each = rules.chip_chiicha_not_top if rules.chips and not top else 0
    return (-each * (SEATS - 1),) + (each,) * (SEATS - 1)


def game_end_payments(rules: Rules, scores: Sequence[int], chips: Sequence[int], *, busted: Sequence[int] = (),
                      busters: Sequence[int] = (), opening: bool = False,
                      dealer: int = 0) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Scores and chips after the payments made when the game ends: P121's chiicha chips (the
    first dealer, seat 0, pays each other seat when not top and nobody busted), and per busted seat
    the bust chips (P110-P112: more per box, more in East 1 = ``opening``) and dobon fee (P110,
    KANSAI) to each seat that caused it (each a line of :func:`game_end_items`).

    >>> from sanma.rules.schema import Rules
    >>> game_end_payments(Rules.preset("club"), [60000, 50000, -5000], [0, 0, 0], busted=[2], busters=[0])[1]
    (3, 0, -3)
    """
    s = list(scores)
    c = list(chips)
    for item in game_end_items(rules, scores, busted=busted, busters=busters, opening=opening, dealer=dealer):
        s = [x + d for x, d in zip(s, item.scores, strict=True)]
        c = [x + d for x, d in zip(c, item.chips, strict=True)]
    return tuple(s), tuple(c)


def game_end_items(rules: Rules, scores: Sequence[int], *, busted: Sequence[int] = (), busters: Sequence[int] = (),
                   opening: bool = False, dealer: int = 0) -> tuple[Item, ...]:
    """The payments made when the game ends, line by line (what :func:`game_end_payments` adds up):
    ``chiicha_chips`` (P121), ``bust_chips`` (P110-P112) and ``dobon_fee`` (P110); none that moves
    nothing.

    >>> from sanma.rules.schema import Rules
    >>> [(i.what, i.chips) for i in game_end_items(Rules.preset("club"), [30000, 20000, -5000], busted=[2],
    ...                                           busters=[0, 1], opening=True)]
    [('bust_chips', (8, 8, -16))]
    """
    r = rules
    out: list[Item] = []
    if not busted:
        chiicha = chiicha_chips(r, top=placement(scores, 0)[0] == 1)
        if any(chiicha):
            out.append(Item("chiicha_chips", "P121", chips=chiicha))
    c = [0] * SEATS
    fee = [0] * SEATS
    for b in busted:
        owed = bust_chips_owed(r, scores[b], opening=opening, dealer=b == dealer)  # P110-P112 (CLUB)
        for x in busters:
            if x == b:
                continue
            c[b] -= owed
            c[x] += owed
            if r.dobon_fee:  # P110 (KANSAI): the dobon fee to the player being paid
                fee[b] -= r.dobon_fee
                fee[x] += r.dobon_fee
    if any(c):
        out.append(Item("bust_chips", "P110", chips=tuple(c)))
    if any(fee):
        out.append(Item("dobon_fee", "P110", scores=tuple(fee)))
    return tuple(out)


__all__ = [
    "ABORT_KINDS",
    "CHINITSU_CHIP_YAKU",
    "CHIP_YAKU",
    "JUNCHAN_CHIP_YAKU",
    "RINSHAN_PAO",
    "AbortiveDraw",
    "Chombo",
    "ExhaustiveDraw",
    "Hora",
    "Offence",
    "Outcome",
    "OutcomeError",
    "Pao",
    "RiichiBust",
    "Settlement",
    "Win",
    "WinPayment",
    "check",
    "chiicha_chips",
    "chombo_payment",
    "expected_win_chips",
    "game_end_items",
    "game_end_payments",
    "one_suit",
    "seat_wind",
    "settle",
    "settle_chombo",
    "settle_draw",
    "settle_hora",
    "settle_riichi_bust",
    "tsumo_from_each",
    "ura_tiles_held",
]
