"""What a hand, a deal-in and a score line are worth to one seat under a preset's rules.

The defensive bot decides push or fold by expected value, in points as the rules pay them:

* a **win** is scored by :func:`sanma.scoring.score_hand` under the rules (a tenpai hand: every
  wait; a hand still short of tenpai: its dora, red fives and kita plus the riichi it would make),
  so full-amount tsumo (P50 models B/C/D) is worth more than tenhou's tsumo-son, kita count as the
  rules count them (P16), and chips come on top (P114-P118);
* a **deal-in** costs the estimated value of the threat's hand (its riichi, expected ura, the dora
  it shows and the dora it probably hides), its chips, and — when it would bust this seat — the
  bust chips and dobon fee (P110-P112);
* a **score line** is worth its points plus the placement it leads to (uma, oka, sinking uma or
  uma in chips: :func:`sanma.game.settle.final_result`), the placement weighing more as the game
  nears its end and fully in the last hand or when a bust ends the game.

Chips are turned into points at ``rules.chip_points`` when the rules set an exchange rate (no seed
does), else at the bot's own assumption, :data:`CHIP_POINTS` (``table_of(..., chip_points=)``). Gaining
8,000 points in the club's first hand is worth more than 8,000 (it lifts the expected placement,
whose uma is paid in chips), losing them costs more:

>>> from sanma.rules import Rules
>>> club = Rules.preset("club")
>>> t = Table(seat=0, dealer=0, scores=(15000, 15000, 15000), honba=0, kyotaku=0, hands_left=5)
>>> outcome_value(club, t, (8000, -8000, 0)) > 8000, outcome_value(club, t, (-8000, 8000, 0)) < -8000
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..errors import SanmaError
from ..game.flow import hands_left, is_opening_hand
from ..game.payout import (
    ExhaustiveDraw,
    Hora,
    Win,
    chiicha_chips,
    expected_win_chips,
    game_end_payments,
    settle,
    settle_hora,
)
from ..game.settle import bust_chips_owed, final_result, is_bust, placement
from ..game.view import SeatView
from ..hand import Meld
from ..rules.schema import Rules
from ..scoring import Score, basic_points, payments, score_from_han, score_hand
from ..tiles import NUM_KINDS, SEATS, Tile, seat_wind

#: What one chip is worth in points when the bot weighs it (a common parlour exchange; the seeds
#: settle chips separately and set no rate).
CHIP_POINTS: Final = 2000
#: Chance that a riichi win gains at least one ura dora (sanma: 27 kinds, so one indicator hits a
#: 14-tile hand about half the time).
URA_CHANCE: Final = 0.45


@dataclass(frozen=True, slots=True)
class Table:
    """The score situation one seat sees at a decision."""

    seat: int
    dealer: int
    scores: tuple[int, ...]
    honba: int
    kyotaku: int
    hands_left: int  # hands scheduled after this one (0: the last hand, or overtime)
    opening: bool = False  # East 1 of the first lap (P112's early bust chips)
    chip_points: float = CHIP_POINTS  # what one chip is worth to the bot (``rules.chip_points`` when set)

    def wind(self, seat: int) -> str:
        return seat_wind(seat, self.dealer)


def table_of(view: SeatView, rules: Rules, chip_points: float = CHIP_POINTS) -> Table:
    """The :class:`Table` of a seat's view; a chip is worth ``rules.chip_points`` when the rules
    convert chips, else the bot's own ``chip_points``."""
    return Table(seat=_seat(view), dealer=view.dealer, scores=view.scores, honba=view.honba,
                 kyotaku=view.kyotaku, hands_left=hands_left(rules, view.round_index, view.kyoku),
                 opening=is_opening_hand(view.round_index, view.kyoku - 1),
                 chip_points=rules.chip_points or chip_points)


def _seat(view: SeatView) -> int:
    if view.seat is None:
        raise ValueError("a seat's view is needed, not a spectator's")
    return view.seat


def outcome_value(rules: Rules, table: Table, deltas: Sequence[int], chips: float = 0.0) -> float:
    """The worth to ``table.seat`` of the hand ending with ``deltas`` (points per seat) and
    ``chips`` (this seat's chip gain): the points, plus the change in the expected placement value
    (uma, oka, bust rank points, uma in chips) — see :func:`placement_value`."""
    after = [s + d for s, d in zip(table.scores, deltas, strict=True)]
    busted = [s for s in range(SEATS) if is_bust(rules, after[s])] if rules.bust_ends_game else []
    gainers = [s for s in range(SEATS) if deltas[s] > 0]
    left = 0 if busted else table.hands_left
    now = placement_value(rules, list(table.scores), table.seat, table.hands_left + 1, chip_points=table.chip_points)
    then = placement_value(rules, after, table.seat, left, busted, gainers, chip_points=table.chip_points)
    return deltas[table.seat] + chips * table.chip_points + then - now


#: How far one player's score moves in one hand, as a standard deviation (sanma hands are big):
#: 9,000 gives the best Brier score of the placement odds at each deal of 210 simulated hanchan of
#: the defensive bot (6,000 to 12,000 tried; docs/REVIEW.md), and about the best on real Tenhou games.
HAND_SWING: Final = 9000.0
#: Simpson's rule over a standard normal variable: 25 points on [-6, 6] (integration error ~3e-5).
_Z: Final = tuple(-6.0 + 0.5 * i for i in range(25))
_ZW: Final = tuple((1 if i in (0, 24) else 4 if i % 2 else 2) * 0.5 / 3 * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
                   for i, z in enumerate(_Z))


def placement_value(rules: Rules, scores: list[int], seat: int, hands: int,
                    busted: Sequence[int] = (), busters: Sequence[int] = (), *,
                    chip_points: float = CHIP_POINTS) -> float:
    """Expected placement bonus of ``seat`` (what its final result adds to its raw points) with
    ``hands`` hands still to play from ``scores``, by the chances of each rank (:func:`rank_odds`);
    with no hand left the ranks are the final ones.

    >>> from sanma.rules import Rules
    >>> r = Rules.preset("tenhou")
    >>> placement_value(r, [50000, 30000, 25000], 0, 0) > placement_value(r, [50000, 30000, 25000], 0, 6) > 0
    True
    """
    res = final_result(rules, scores, busted=list(busted), busters=list(busters) if busted else [])
    bonus = [0.0] * SEATS  # by rank
    for s in range(SEATS):
        bonus[res.ranks[s] - 1] = res.points[s] * 1000 - (scores[s] - rules.return_points) + res.chips[s] * chip_points
    if seat == 0:  # P121: the first dealer pays when not top (payout.chiicha_chips)
        # The bot weighs it after a bust as well (the rule pays it only when nobody busted): counted
        # exactly, a bust would look 6 chips cheaper to a low first dealer. docs/BOTS.md measures this.
        for rank in (1, 2):
            bonus[rank] += chiicha_chips(rules, top=False)[0] * chip_points
    if hands <= 0:
        return bonus[res.ranks[seat] - 1]
    odds = rank_odds(scores, seat, hands)
    return odds[0] * bonus[0] + odds[1] * bonus[1] + odds[2] * bonus[2]


def rank_odds(scores: Sequence[int], seat: int, hands: int) -> tuple[float, float, float]:
    """Chances that ``seat`` finishes first, second and third with ``hands`` hands still to play from
    ``scores``: every seat's score moves by a normal amount of ``HAND_SWING`` × √hands, the three
    independently, so the seat is first when it stays ahead of both others at once (integrated over
    its own move); no hand left: the ranks as they stand, ties to the seat nearer the first dealer
    (P29). Equal scores give a third each; each seat's three chances, and each rank's over the seats,
    sum to 1.

    >>> [round(p, 3) for p in rank_odds([35000, 35000, 35000], 1, 6)]
    [0.333, 0.333, 0.333]
    >>> [round(p, 3) for p in rank_odds([40000, 35000, 30000], 0, 6)]
    [0.432, 0.326, 0.242]
    >>> rank_odds([40000, 35000, 30000], 2, 0)
    (0.0, 0.0, 1.0)
    """
    if hands <= 0:
        rank = placement(scores)[seat]
        return (float(rank == 1), float(rank == 2), float(rank == 3))
    sigma = HAND_SWING * math.sqrt(hands)
    a, b = ((scores[seat] - scores[o]) / sigma for o in range(SEATS) if o != seat)
    first = last = 0.0
    root2 = math.sqrt(2)
    for z, w in zip(_Z, _ZW, strict=True):
        pa = 0.5 * (1 + math.erf((a + z) / root2))  # ahead of one opponent, given the seat's own move
        pb = 0.5 * (1 + math.erf((b + z) / root2))
        first += w * pa * pb
        last += w * (1 - pa) * (1 - pb)
    return first, 1 - first - last, last


# --------------------------------------------------------------------------------------- wins
@dataclass(frozen=True, slots=True)
class WinValue:
    """A win's worth: by ron from ``discarder`` and by tsumo (None: that way does not win)."""

    ron: float | None
    tsumo: float | None


def _ura_factor(rules: Rules, score: Score, riichi: bool) -> float:
    """Expected growth of a riichi win from ura dora (P10), as a factor on its value."""
    if not riichi or not rules.ura_dora or score.yakuman or score.han <= 0:
        return 1.0
    now, _ = basic_points(score.han, score.fu, rules)
    more, _ = basic_points(score.han + 1, score.fu, rules)
    return 1.0 + URA_CHANCE * (more - now) / now


def win_chips(rules: Rules, score: Score, closed: bool, riichi: bool, tsumo: bool, *, one_suit: bool = False,
              flowers: float = 0.0) -> float:
    """Expected chips a win earns (P114-P119), as ``game.payout`` pays them: ura chips by expectation
    (``URA_CHANCE`` after a riichi), ``one_suit`` for a yakuman of chinitsu shape (P117), ``flowers``
    the expected number of chip flowers held (P119)."""
    if not rules.chips:
        return 0.0
    ura = URA_CHANCE if riichi and rules.ura_dora else 0.0
    discarder = None if tsumo else 1

    def chips(n: int) -> float:
        return expected_win_chips(rules, Win(0, score, closed=closed, chinitsu_shape=one_suit, chip_flowers=n),
                                  discarder, ura)

    base = chips(0)
    return base + (chips(1) - base) * flowers if flowers else base


@dataclass(frozen=True, slots=True)
class HandTiles:
    """A seat's tiles as ``score_hand`` reads them."""

    concealed: tuple[Tile, ...]  # without the winning tile
    melds: tuple[Meld, ...]
    closed: bool
    kita: int
    flowers: int


def hand_tiles(view: SeatView, discard: int | None = None) -> HandTiles:
    """The viewing seat's tiles; ``discard`` (a kind) is taken out (a plain five before a red)."""
    tiles = sorted(view.hand, key=lambda t: (t.kind, not t.red))
    if discard is not None:
        at = max(i for i, t in enumerate(tiles) if t.kind == discard)
        tiles = tiles[:at] + tiles[at + 1:]
    me = view.seats[_seat(view)]
    melds = tuple(Meld(m.type, m.tiles) for m in me.melds)
    return HandTiles(tuple(t for t in tiles if not t.is_flower), melds, all(m.type == "ankan" for m in melds),
                     me.kita, me.flowers)


@dataclass(frozen=True, slots=True)
class Payoff:
    """One way the hand can end for ``Table.seat``: every seat's point change (sticks and honba
    included) and this seat's chips (by expectation)."""

    deltas: tuple[int, ...]
    chips: float = 0.0


def value_of(rules: Rules, table: Table, payoff: Payoff) -> float:
    """:func:`outcome_value` of a :class:`Payoff`."""
    return outcome_value(rules, table, payoff.deltas, payoff.chips)


def tenpai_value(rules: Rules, view: SeatView, table: Table, hand: HandTiles, wait: int,
                 discarder: int, riichi: bool) -> WinValue:
    """The worth of winning on ``wait``: by ron from ``discarder`` and by tsumo, declaring riichi
    first when ``riichi``. Ura dora and chips count by expectation."""
    ways = win_payoffs(rules, view, table, hand, wait, discarder, riichi)
    ron, tsumo = (None if p is None else value_of(rules, table, p) for p in ways)
    return WinValue(ron, tsumo)


def win_payoffs(rules: Rules, view: SeatView, table: Table, hand: HandTiles, wait: int,
                discarder: int, riichi: bool) -> tuple[Payoff | None, Payoff | None]:
    """Winning on ``wait`` by ron from ``discarder`` and by tsumo (None: that way does not win),
    declaring riichi first when ``riichi`` (its stick is then counted as paid): the rules' scorer,
    expected ura dora and chips."""
    ((_, rons, tsumo),) = wait_payoffs(rules, view, table, hand, (wait,), (discarder,), riichi)
    return rons.get(discarder), tsumo


def wait_payoffs(rules: Rules, view: SeatView, table: Table, hand: HandTiles, waits: Sequence[int],
                 discarders: Sequence[int], riichi: bool
                 ) -> list[tuple[int, dict[int, Payoff], Payoff | None]]:
    """Every wait of a tenpai hand scored at once: per wait, its ron from each of ``discarders``
    (absent where ron does not win) and its tsumo (None where it does not). The scorer runs once
    per wait and way: a ron from another seat only moves who pays (:func:`win_payoffs` for one)."""
    me = table.seat
    common: dict[str, Any] = {
        "melds": hand.melds, "riichi": riichi, "seat_wind": table.wind(me), "round_wind": view.round_wind,
        "dora_indicators": [t for t in view.dora_indicators if not t.is_flower], "kita": hand.kita,
        "flowers": hand.flowers, "honba": table.honba, "kyotaku": table.kyotaku + riichi, "rules": rules,
    }
    held = {t.kind for t in hand.concealed} | {m.kind for m in hand.melds}
    # Which flowers it pulled is not in the observation: each is a chip flower with the share of them.
    chip_flowers = hand.flowers * rules.flower_chip_tiles / rules.flowers if rules.flowers else 0.0
    out: list[tuple[int, dict[int, Payoff], Payoff | None]] = []
    for wait in waits:
        win = Tile(wait)
        kinds = held | {wait}
        one_suit = all(k < 27 for k in kinds) and len({k // 9 for k in kinds}) == 1
        ways: list[Payoff | None] = []
        for tsumo in (False, True):
            try:
                score = score_hand([*hand.concealed, win], win=win, tsumo=tsumo,
                                   discarder_wind=None if tsumo or not discarders else table.wind(discarders[0]),
                                   **common)
            except SanmaError:  # no yaku this way (e.g. an open hand without one), or a shape the scorer refuses
                ways.append(None)
                continue
            ways.append(Payoff(_win_deltas(rules, table, score, riichi),
                               win_chips(rules, score, hand.closed, riichi, tsumo, one_suit=one_suit,
                                         flowers=chip_flowers)))
        rons: dict[int, Payoff] = {}
        first = ways[0]
        if first is not None and discarders:
            for d in discarders:
                deltas = list(first.deltas)  # the first discarder pays: move its payment to d
                deltas[discarders[0]], deltas[d] = deltas[d], deltas[discarders[0]]
                rons[d] = Payoff(tuple(deltas), first.chips)
        out.append((wait, rons, ways[1]))
    return out


def _win_deltas(rules: Rules, table: Table, score: Score, riichi: bool) -> tuple[int, ...]:
    """Every seat's points after a win scored ``score``, with expected ura dora (declaring riichi:
    its own stick only comes back)."""
    me = table.seat
    deltas = [score.deltas[table.wind(s)] for s in range(SEATS)]
    deltas[me] -= riichi * rules.riichi_deposit  # its own riichi stick only comes back
    won = deltas[me] - table.kyotaku * rules.riichi_deposit  # the sticks on the table are not the hand's
    extra = round(won * (_ura_factor(rules, score, riichi) - 1.0))
    if extra:  # ura raises what the others pay, in proportion
        paid = [-d if i != me else 0 for i, d in enumerate(deltas)]
        total = sum(paid) or 1
        for i in range(SEATS):
            if i != me:
                deltas[i] -= round(extra * paid[i] / total)
        deltas[me] += extra
    return tuple(deltas)


def distant_han(rules: Rules, dora: float, closed: bool) -> float:
    """Expected han of a win for a hand short of tenpai: its ``dora``, one yaku, and riichi with its
    expected ura dora when the hand is closed."""
    han = dora + 1.0
    if closed:
        han += 1 + (URA_CHANCE if rules.ura_dora else 0.0)
    return han


def draw_payoff(rules: Rules, table: Table, tenpai: Sequence[int]) -> Payoff:
    """An exhaustive draw with ``tenpai`` seats: the noten payments as ``payout`` settles them (P46)."""
    paid = settle(rules, ExhaustiveDraw(tuple(sorted(tenpai))), scores=table.scores, dealer=table.dealer,
                  honba=table.honba, kyotaku=table.kyotaku)
    return Payoff(tuple(paid.deltas))


def estimated_win_value(rules: Rules, table: Table, han: float, discarder: int) -> float:
    """The worth of a win of about ``han`` han at 30 fu (a hand not yet tenpai), half ron, half tsumo."""
    ron, tsumo = estimated_win_payoffs(rules, table, han, discarder)
    return (value_of(rules, table, ron) + value_of(rules, table, tsumo)) / 2


def estimated_win_payoffs(rules: Rules, table: Table, han: float, discarder: int) -> tuple[Payoff, Payoff]:
    """A win of about ``han`` han at 30 fu (a hand not yet tenpai): by ron from ``discarder``, by tsumo."""
    h = max(1, round(han))
    basic, _ = basic_points(h, 30, rules)
    dealer = table.seat == table.dealer
    ron, _ = payments(basic, dealer, False, rules)
    ron_d = [0] * SEATS
    ron_d[discarder] -= ron
    ron_d[table.seat] += ron
    pd, pn = payments(basic, dealer, True, rules)
    tsumo_d = [0] * SEATS
    for s in range(SEATS):
        if s != table.seat:
            tsumo_d[s] -= pd if s == table.dealer or dealer else pn
            tsumo_d[table.seat] -= tsumo_d[s]
    return Payoff(tuple(ron_d)), Payoff(tuple(tsumo_d))


# --------------------------------------------------------------------------------------- deal-ins
FIVES: Final = (13, 22)  # 5p, 5s: the kinds with red copies


def tile_dora(rules: Rules, tile: Tile, dora: Sequence[int]) -> int:
    """Dora one tile is worth: indicator hits plus a red five, or any five where all are dora (P05, P06)."""
    five = tile.kind in FIVES and (tile.red or rules.always_dora_fives)
    return dora[tile.kind] + (1 if five else 0) if tile.kind < NUM_KINDS else 0


def dora_per_copy(rules: Rules, dora: Sequence[int]) -> list[float]:
    """Expected dora of an unknown copy of each kind (indicator hits, and the red share of the fives)."""
    out = [float(x) for x in dora]
    for k, reds in zip(FIVES, (rules.red_5p, rules.red_5s), strict=True):
        out[k] += 1.0 if rules.always_dora_fives else reds / 4
    return out


def own_dora(rules: Rules, view: SeatView, dora: Sequence[int]) -> int:
    """Dora the viewing seat holds: its tiles and melds, red fives, kita (P16)."""
    me = view.seats[_seat(view)]
    tiles = list(view.hand) + [t for m in me.melds for t in m.tiles]
    return sum(tile_dora(rules, t, dora) for t in tiles) + me.kita * rules.kita_dora


def threat_han(rules: Rules, view: SeatView, seat: int, unseen: Sequence[int], dora: Sequence[int]) -> float:
    """Expected han of ``seat``'s hand if it wins: its riichi and expected ura, the dora its
    melds and kita show, and the dora its concealed tiles probably hold (their share among the
    tiles the observer cannot see)."""
    pub = view.seats[seat]
    shown = sum(tile_dora(rules, t, dora) for m in pub.melds for t in m.tiles)
    shown += pub.kita * rules.kita_dora
    per_copy = dora_per_copy(rules, dora)
    pool = sum(unseen) or 1
    hidden = pub.hand_size * sum(unseen[k] * per_copy[k] for k in range(NUM_KINDS)) / pool
    han = shown + hidden + 1.0  # one yaku (riichi, yakuhai, tanyao, ...)
    if pub.riichi:
        han += URA_CHANCE if rules.ura_dora else 0.0
        han += 0.5  # pinfu, tsumo, ippatsu, a second yaku: a riichi hand averages more than riichi alone
    return han


def deal_in_value(rules: Rules, table: Table, winner: int, han: float) -> float:
    """The worth (negative) to ``table.seat`` of dealing into ``winner``'s hand of about ``han``
    han: its ron, the riichi sticks it collects, expected ura chips and, when this seat would bust,
    the bust chips and dobon fee (P110-P112)."""
    return value_of(rules, table, hand_payoff(rules, table, winner, han, table.seat))


def hand_payoff(rules: Rules, table: Table, winner: int, han: float, discarder: int | None) -> Payoff:
    """Another seat's win of about ``han`` han at 30 fu, by ron from ``discarder`` (None: tsumo), as
    ``payout`` settles it: honba, sticks (P43, P48), the ura chips this seat pays by expectation
    and, when it busts, the bust chips and dobon fee (P110-P112)."""
    me = table.seat
    tsumo = discarder is None
    score = score_from_han(max(1, round(han)), 30, tsumo=tsumo, seat_wind=table.wind(winner),
                           discarder_wind=None if discarder is None else table.wind(discarder), rules=rules)
    # the win, its honba and the sticks as payout settles them (P43, P48)
    paid = settle_hora(rules, Hora((Win(winner, score),), discarder), scores=table.scores, dealer=table.dealer,
                       honba=table.honba, kyotaku=table.kyotaku)
    deltas = list(paid.deltas)
    pays = tsumo or discarder == me
    chips = -URA_CHANCE * rules.chip_ura if pays and rules.chips and rules.ura_dora else 0.0
    after = [s + d for s, d in zip(table.scores, deltas, strict=True)]
    if is_bust(rules, after[me]):  # the bust chips and dobon fee as the game's end pays them (P110-P112)
        end_scores, end_chips = game_end_payments(rules, after, (0,) * SEATS, busted=(me,), busters=(winner,),
                                                  opening=table.opening, dealer=table.dealer)
        deltas = [d + e - a for d, e, a in zip(deltas, end_scores, after, strict=True)]
        chips += end_chips[me]
    return Payoff(tuple(deltas), chips)


def bust_chips(rules: Rules, table: Table, score: int) -> int:
    """Chips this seat owes its buster when busting with ``score`` (P110-P112).

    >>> from sanma.rules import Rules
    >>> t = Table(seat=0, dealer=0, scores=(3000, 20000, 22000), honba=0, kyotaku=0, hands_left=5, opening=True)
    >>> bust_chips(Rules.preset("club"), t, -1000), bust_chips(Rules.preset("tenhou"), t, -1000)
    (11, 0)
    """
    return bust_chips_owed(rules, score, opening=table.opening, dealer=table.seat == table.dealer)


# --------------------------------------------------------------------------------------- the race
#: Per go-around chances the race model uses: a threat's hand wins (tsumo, or a third player deals
#: in), a pushed tile deals in, a folded tile deals in.
THREAT_WIN: Final = 0.17
PUSH_DEAL_IN: Final = 0.05
FOLD_DEAL_IN: Final = 0.01


@dataclass(frozen=True, slots=True)
class Race:
    """Chances that this seat wins or deals in before the hand ends, pushing or folding."""

    win: float
    deal_in: float
    fold_deal_in: float


def race(shanten: int, live: int, ukeire: int, pool: int, turns: float, threats: float, furiten: bool) -> Race:
    """The race against ``threats`` (tenpai hands, a sum of chances) over ``turns`` draws.

    A hand short of tenpai first has to reach it (``ukeire`` of ``pool`` unseen tiles per draw,
    once per shanten); then ``live`` unseen winning tiles come by its draw, and (unless
    ``furiten``) about as often by a discard. Pushing deals in ``PUSH_DEAL_IN`` per go-around
    and threat, folding ``FOLD_DEAL_IN``.

    >>> good, bad = race(0, 8, 8, 60, 8, 1.0, False), race(0, 2, 2, 60, 8, 1.0, False)
    >>> good.win > bad.win and good.deal_in < bad.deal_in
    True
    """
    pool = max(pool, 1)
    r = THREAT_WIN * threats
    d = PUSH_DEAL_IN * threats
    win, deal, left, reach = 0.0, 0.0, max(turns, 0.0), 1.0
    t = min(0.9, max(ukeire, 1) / pool)
    for _ in range(shanten):  # reach tenpai first, one step per shanten
        h = t + r + d
        ends = 1 - (1 - min(h, 0.95)) ** left
        deal += reach * d / h * ends
        reach *= t / h * ends
        left = max(0.0, left - 1 / h)
    a = min(0.9, live / pool * (1 if furiten else 2))
    h = a + r + d
    if h > 0:
        ends = 1 - (1 - min(h, 0.95)) ** left
        win = reach * a / h * ends
        deal += reach * d / h * ends
    hf = r + FOLD_DEAL_IN * threats
    fold = FOLD_DEAL_IN * threats / hf * (1 - (1 - min(hf, 0.95)) ** max(turns, 0.0)) if hf > 0 else 0.0
    return Race(win, deal, fold)


__all__ = [
    "CHIP_POINTS", "HandTiles", "Payoff", "Race", "Table", "WinValue", "bust_chips", "deal_in_value", "distant_han",
    "draw_payoff", "estimated_win_payoffs", "estimated_win_value", "hand_payoff", "hand_tiles", "hands_left",
    "is_bust", "outcome_value", "race", "rank_odds", "table_of", "tenpai_value", "threat_han", "value_of",
    "wait_payoffs", "win_chips", "win_payoffs",
]
