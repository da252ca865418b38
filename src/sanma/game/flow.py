"""Hand to hand: the course of a game as pure functions over a small immutable :class:`TableState`.

The one home of the game's flow (issue 10 item 2): which lap and wind is played (P33, P34), the
dealer's renchan (P35-P37, P90, P92-P95, A003-7), honba (P45, P101), busting (P42, P108),
agari-yame / tenpai-yame (P38-P40), overtime (West sudden death, Kansai 返り東場, the club's
third lap: P34), and the end of the game with its final settlement (``settle.final_result``).
The engine, the replay, the bots and the score keeper call these functions; a score keeper's
whole game model is a ``TableState`` advanced by the outcomes a person enters:

>>> from sanma.rules.schema import Rules
>>> from sanma.game.payout import ExhaustiveDraw, settle
>>> r = Rules.preset("tenhou")
>>> t = TableState.start(r)
>>> out = ExhaustiveDraw(tenpai=(1,))
>>> step = next_hand(r, t, out, settle(r, out, scores=t.scores, dealer=t.dealer, honba=t.honba,
...                                    kyotaku=t.kyotaku))
>>> step.state.dealer, step.state.honba, step.state.scores, step.over
(1, 1, (34000, 37000, 34000), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..rules.schema import Rules
from ..tiles import SEATS, WIND_LETTERS, seat_wind
from .payout import (
    AbortiveDraw,
    Chombo,
    ExhaustiveDraw,
    Hora,
    Outcome,
    RiichiBust,
    Settlement,
    game_end_items,
    game_end_payments,
)
from .settle import FinalResult, final_result, is_bust, placement


@dataclass(frozen=True, slots=True)
class TableState:
    """The table between two hands: lap (``round_index`` into ``rules.round_winds``; beyond it,
    overtime), dealer seat, honba, riichi sticks, scores, chips, chombo counts, hands played."""

    scores: tuple[int, ...]
    round_index: int = 0
    dealer: int = 0
    honba: int = 0
    kyotaku: int = 0
    chips: tuple[int, ...] = (0, 0, 0)
    chombos: tuple[int, ...] = (0, 0, 0)
    hand_number: int = 0

    @staticmethod
    def start(rules: Rules, scores: Sequence[int] | None = None) -> TableState:
        """East 1 of the first lap, everyone on ``rules.start_points`` (or ``scores``)."""
        return TableState(tuple(scores) if scores is not None else (rules.start_points,) * SEATS)

    def in_overtime(self, rules: Rules) -> bool:
        return self.round_index >= len(rules.round_winds)

    def round_wind(self, rules: Rules) -> str:
        return round_wind(rules, self.round_index)

    def seat_wind(self, seat: int) -> str:
        return seat_wind(seat, self.dealer)

    @property
    def opening(self) -> bool:
        """East 1 of the first lap (:func:`is_opening_hand`)."""
        return is_opening_hand(self.round_index, self.dealer)


@dataclass(frozen=True, slots=True)
class HandEnd:
    """What follows a hand: the next hand's table (``over`` False), or the end of the game —
    ``reason`` (``bust``, ``last_hand``, ``agari_yame``...), the seats that busted and whom they
    owe (P110)."""

    state: TableState
    over: bool = False
    reason: str = ""
    busted: tuple[int, ...] = ()
    busters: tuple[int, ...] = ()


def is_opening_hand(round_index: int, dealer: int) -> bool:
    """East 1 of the first lap — the first dealer (seat 0) dealing in lap 0: where P112's early
    bust chips are owed (``settle.bust_chips_owed``)."""
    return round_index == 0 and dealer == 0


def round_wind(rules: Rules, round_index: int) -> str:
    """The round wind of lap ``round_index`` of ``rules.round_winds`` (P33), beyond it overtime's
    (P34): West sudden death plays the wind after the last, the club's third lap its last wind,
    Kansai's 返り東場 East.

    >>> from sanma.rules.schema import Rules
    >>> [round_wind(Rules.preset("tenhou"), i) for i in range(3)]
    ['E', 'S', 'W']
    """
    rw = rules.round_winds
    if round_index < len(rw):
        return rw[round_index]
    if rules.overtime == "west":
        return WIND_LETTERS[min(3, WIND_LETTERS.index(rw[-1]) + 1)]
    return rw[-1] if rules.overtime == "club_laps" else "E"


def is_last_hand(rules: Rules, round_index: int, dealer: int) -> bool:
    """The scheduled last hand (the last dealer of the last lap) or any overtime hand after it."""
    return round_index >= len(rules.round_winds) - 1 and dealer == SEATS - 1


def hands_left(rules: Rules, round_index: int, kyoku: int) -> int:
    """Hands scheduled after hand ``kyoku`` (1-based) of lap ``round_index``; renchan not counted.

    >>> from sanma.rules.schema import Rules
    >>> [hands_left(Rules.preset("tenhou"), r, k) for r, k in ((0, 1), (1, 2), (1, 3), (2, 1))]
    [5, 1, 0, 0]
    """
    laps = len(rules.round_winds)
    return max(0, (laps - 1 - round_index) * SEATS + SEATS - kyoku)


def winners(rules: Rules, outcome: Outcome) -> tuple[int, ...]:
    """The seats that won the hand: a win's winners, or nagashi players where nagashi is a win (P96)."""
    if isinstance(outcome, Hora):
        return tuple(w.seat for w in outcome.wins)
    if isinstance(outcome, ExhaustiveDraw) and outcome.nagashi and rules.nagashi != "none" and rules.nagashi_is_win:
        return outcome.nagashi
    return ()


def dealer_continues(rules: Rules, round_index: int, dealer: int, outcome: Outcome) -> bool:
    """Renchan: does the dealer deal again after ``outcome``?

    A dealer win (P35; a double ron with the dealer among the winners, P90), a nagashi win by the
    dealer (P96, A002-18), the dealer tenpai at a draw or a round where the dealer stays anyway
    (P36), the aborts that keep the deal (P92-P95; four kans per round, P94), a chombo unless the
    rules pass the deal of an offending dealer (A003-7), a riichi bust that does not end the game
    (the hand is replayed, P79).
    """
    r = rules
    won = winners(r, outcome)
    if isinstance(outcome, Hora):
        return dealer in won and r.renchan_on_dealer_win and (len(won) == 1 or r.double_ron_dealer_renchan)
    if isinstance(outcome, ExhaustiveDraw):
        if won:
            return dealer in won
        return dealer in outcome.tenpai or round_wind(r, round_index) in r.dealer_stays_on_noten_draw_rounds
    if isinstance(outcome, Chombo):
        return not (r.chombo_deal == "offender_dealer_passes" and any(o.seat == dealer for o in outcome.offences))
    if isinstance(outcome, AbortiveDraw) and outcome.kind == "four_kans":
        return round_wind(r, round_index) not in r.four_kans_dealer_passes_rounds
    return True


def apply_settlement(state: TableState, outcome: Outcome, paid: Settlement) -> TableState:
    """The table after the hand's payments: scores, chips, sticks, chombo counts (P100)."""
    chombos = list(state.chombos)
    if isinstance(outcome, Chombo):
        for o in outcome.offences:
            chombos[o.seat] += 1
    return replace(state, scores=tuple(s + d for s, d in zip(state.scores, paid.deltas, strict=True)),
                   chips=tuple(c + d for c, d in zip(state.chips, paid.chips, strict=True)),
                   kyotaku=paid.kyotaku, chombos=tuple(chombos))


def next_hand(rules: Rules, state: TableState, outcome: Outcome, paid: Settlement, *,
              max_hands: int | None = None) -> HandEnd:
    """The hand that follows ``outcome`` (settled as ``paid``) at ``state`` (the table at the hand's
    end, before the payments), or the end of the game."""
    return advance(rules, apply_settlement(state, outcome, paid), outcome, bust_by=paid.bust_by, max_hands=max_hands)


def advance(rules: Rules, state: TableState, outcome: Outcome, *, bust_by: Sequence[int] = (),
            max_hands: int | None = None) -> HandEnd:
    """As :func:`next_hand`, from the table after the payments (``state``); ``bust_by`` names who a
    bust is owed to when not every winner (P91). ``max_hands`` is a safety net (the game ends
    with ``hand_limit`` when the next hand would be number ``max_hands``)."""
    r = rules
    dealer = state.dealer
    if isinstance(outcome, RiichiBust) and r.bust_ends_game:  # P79 / A000-19: bust at the declaration
        return HandEnd(state, True, "bust", (outcome.seat,), tuple(x for x in range(SEATS) if x != outcome.seat))
    won = winners(r, outcome)
    continues = dealer_continues(r, state.round_index, dealer, outcome)
    in_overtime = state.in_overtime(r)
    # P34: where the dealer's repeat comes first in overtime, every overtime hand is a last hand
    # for agari-yame / tenpai-yame (PLATFORMS §1-2, End of South / West round)
    was_last = is_last_hand(r, state.round_index, dealer) or (in_overtime and r.overtime_dealer_first)
    is_win = bool(won)
    non_dealer_won = is_win and dealer not in won
    if isinstance(outcome, Chombo):  # P101 / A003-7: unchanged, or +1 when the dealer repeats
        honba = state.honba + (1 if r.chombo_honba == "plus_one_on_renchan" and continues else 0)
    else:  # Honba (P45 / A000-18): +1 after a dealer win or any draw; 0 after a non-dealer win.
        honba = 0 if non_dealer_won else state.honba + 1
    state = replace(state, honba=honba)
    scores = state.scores
    bust = tuple(s for s in range(SEATS) if is_bust(r, scores[s]))
    if bust and r.bust_ends_game:  # P42, P108
        if isinstance(outcome, Chombo):  # the offender busts paying the others
            offenders = {o.seat for o in outcome.offences}
            busters = tuple(x for x in range(SEATS) if x not in offenders)
        elif is_win:
            busters = tuple(bust_by or won)
        elif isinstance(outcome, ExhaustiveDraw):
            busters = outcome.tenpai
        else:
            busters = ()
        return HandEnd(state, True, "bust", bust, busters)
    # Agari-yame / tenpai-yame (P38-P40): the dealer of the last hand is top and keeps the deal.
    top = placement(scores, 0).index(1)
    dealer_top = top == dealer or (r.agari_yame_tied_top and scores[dealer] == max(scores))
    reached = not r.top_must_reach_return or max(scores) >= r.target_points
    if was_last and continues and dealer_top and reached:
        if is_win and r.agari_yame == "auto":
            return HandEnd(state, True, "agari_yame")
        if isinstance(outcome, ExhaustiveDraw) and not is_win and r.tenpai_yame == "auto":
            return HandEnd(state, True, "tenpai_yame")
        if isinstance(outcome, AbortiveDraw | RiichiBust) and r.agari_yame_on_abort:
            return HandEnd(state, True, "agari_yame")
    if in_overtime:  # P34
        if r.overtime in ("west", "kaeri_ton") and max(scores) >= r.target_points \
                and not (continues and r.overtime_dealer_first):
            return HandEnd(state, True, "target_reached")
        if r.overtime == "club_laps" and non_dealer_won:
            return HandEnd(state, True, "overtime_non_dealer_win")
    round_index, new_dealer = state.round_index, dealer
    if not continues:
        new_dealer += 1
        if new_dealer == SEATS:
            new_dealer = 0
            round_index += 1
    state = replace(state, round_index=round_index, dealer=new_dealer)
    if round_index >= len(r.round_winds) and not in_overtime:
        # The last hand is over. Overtime per rules (P34).
        if r.overtime == "none":
            return HandEnd(state, True, "last_hand")
        if r.overtime in ("west", "kaeri_ton") and max(scores) >= r.target_points:
            return HandEnd(state, True, "last_hand")
        dealer_noten_draw = (isinstance(outcome, ExhaustiveDraw) and not is_win and new_dealer != dealer
                             and dealer not in outcome.tenpai)
        if r.overtime == "club_laps" and not dealer_noten_draw:
            return HandEnd(state, True, "last_hand")
    if in_overtime and r.overtime == "west" and round_index > len(r.round_winds):
        return HandEnd(state, True, "overtime_over")
    if max_hands is not None and state.hand_number + 1 >= max_hands:  # safety net: no game runs forever
        return HandEnd(state, True, "hand_limit")
    return HandEnd(replace(state, hand_number=state.hand_number + 1))


def time_over(end: HandEnd) -> HandEnd:
    """The game ends after this hand because the round's time is up (a tournament's clock, whose end
    is a setting of the tournament: seed 002 says nothing) — or as it ended already. The table as
    the hand left it is settled as any end (sticks left, end-of-game payments, P31, P110-P121)."""
    return end if end.over else HandEnd(end.state, True, "time")


def penalty_bust(rules: Rules, state: TableState, payer: int, paid: Sequence[int]) -> HandEnd | None:
    """A penalty decided at the table (P106) that ``payer`` paid to the seats ``paid`` outside a
    hand's end (``state`` is the table after it): where a bust ends the game (P42) and it left the
    payer bust (P108; seed 000 L86 「0点は箱割れとする」), the game ends now and the seats it paid
    are the busters (L88 「箱割れした人は、箱割れさせた人にチップ3枚を支払う」, to each of two as L89);
    else None and play goes on. (Without this the game went on below zero and the next winner
    collected the bust.)

    >>> from sanma.rules.schema import Rules
    >>> club = Rules.preset("club")
    >>> end = penalty_bust(club, TableState.start(club, [38000, 8000, -1000]), 2, (0, 1))
    >>> end.over, end.reason, end.busted, end.busters
    (True, 'bust', (2,), (0, 1))
    >>> penalty_bust(club, TableState.start(club, [38000, 6000, 1000]), 2, (0, 1)) is None
    True
    """
    if not rules.bust_ends_game or not is_bust(rules, state.scores[payer]):
        return None
    return HandEnd(state, True, "bust", (payer,), tuple(x for x in paid if x != payer))


def final(rules: Rules, end: HandEnd, *, itemise: bool = False) -> FinalResult:
    """The final result of a game that ended with ``end``: the end-of-game payments (P110-P112,
    P121, ``payout.game_end_payments``), then placement, sticks, oka and uma (``settle.final_result``);
    ``itemise``: with every line of it (``FinalResult.items``: the end-of-game payments first)."""
    st = end.state
    scores, chips = game_end_payments(rules, st.scores, st.chips, busted=end.busted, busters=end.busters,
                                      opening=st.opening, dealer=st.dealer)
    fr = final_result(rules, scores, kyotaku=st.kyotaku, busted=end.busted, busters=end.busters, chips=chips,
                      chombos=st.chombos, itemise=itemise)
    if not itemise:
        return fr
    paid = game_end_items(rules, st.scores, busted=end.busted, busters=end.busters, opening=st.opening,
                          dealer=st.dealer)
    return replace(fr, items=paid + fr.items)


__all__ = [
    "HandEnd", "TableState", "advance", "apply_settlement", "dealer_continues", "final", "hands_left",
    "is_last_hand", "is_opening_hand", "next_hand", "penalty_bust", "round_wind", "time_over", "winners",
]
