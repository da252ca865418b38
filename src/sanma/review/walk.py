"""A record's decisions, read by replaying it through the engine (``replay_record``'s observer).

A *decision* is a moment when a seat had more than one distinct option (options that differ only by
taking the same tile from the hand or as drawn are one): each discard choice, riichi with which
tile, a call or a pass, a kan, kita now or later, nine terminals, a win taken or not. Each is kept
with the seat's view at that moment (``Game.view``: only what the seat could see), the legal
actions and the action the record played. The hands' starts and endings come from the record.

>>> from sanma.rules import Rules
>>> from sanma.sim.arena import play_game_events
>>> from sanma.formats import read_mjai
>>> from sanma.formats.mjai import write_mjai
>>> rec = read_mjai(write_mjai(play_game_events(Rules.preset("tenhou"), ["efficient"] * 3, "doc", 0)))
>>> game = walk(rec, seats=(0,))
>>> all(d.seat == 0 and d.played in d.legal for d in game.decisions), len(game.hands) == len(rec.kyoku)
(True, True)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..formats import GameRecord, KyokuRecord
from ..formats.record import DrawResult, RecordedWin
from ..game.actions import Action
from ..game.engine import Game
from ..game.flow import hands_left
from ..game.settle import final_result
from ..game.view import SeatView
from ..replay import GameReplay, replay_record, round_indexes, rules_for
from ..rules.schema import Rules
from ..tiles import SEATS
from .fit import ABORT, DEAL_IN, DRAW_NOTEN, DRAW_TENPAI, OTHER_RON, OTHER_TSUMO, WIN_RON, WIN_TSUMO, distinct


def kyoku_name(k: KyokuRecord) -> str:
    """``E1-0``: the round wind, the dealer's kyoku number and the honba (the contract's form)."""
    return f"{k.round_wind}{k.dealer + 1}-{k.honba}"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat in a record."""

    hand: int  # the hand's index in the record
    step: int  # how many of the hand's engine events (start_kyoku first) came before it
    seat: int
    view: SeatView
    legal: tuple[Action, ...]
    played: Action
    game: Game | None = None  # a copy of the engine game at that moment (kept only for rollouts)
    history: tuple[Action, ...] = ()  # every action of the hand before it, all seats (kept only for rollouts)


@dataclass(frozen=True, slots=True)
class HandFacts:
    """A hand of the record: where it stood at the deal and how it ended for each seat."""

    index: int
    kyoku: str
    scores: tuple[int, ...]  # at the deal
    dealer: int
    hands_left: int  # hands scheduled after this one
    outcomes: tuple[int, ...]  # per seat: an index of fit.CATEGORIES
    deltas: tuple[int, ...]  # per seat: the point change of the hand (riichi sticks put down included)
    end_scores: tuple[int, ...]  # at the end of the hand
    dealt_in_with: int | None  # the kind of the tile a seat dealt in with (its last discard), if any


@dataclass
class WalkedGame:
    """Everything the review reads of one record."""

    record: GameRecord
    rules: Rules
    notes: list[str]
    replay: GameReplay | None = None
    decisions: list[Decision] = field(default_factory=list)
    hands: list[HandFacts] = field(default_factory=list)
    final_points: tuple[float, ...] | None = None
    final_ranks: tuple[int, ...] | None = None


def walk(record: GameRecord, rules: Rules | None = None, *, seats: Sequence[int] = (0, 1, 2),
         keep_games: bool = False, on_decision: Callable[[Decision], None] | None = None) -> WalkedGame:
    """Replay ``record`` (under ``rules``, default the record's own) and gather the decisions of
    ``seats``; ``keep_games`` keeps a copy of the engine game at each (for rollouts);
    ``on_decision`` is called with each as it comes."""
    notes: list[str] = []
    if rules is None:
        rules, notes = rules_for(record)
    out = WalkedGame(record, rules, notes)
    wanted = set(seats)
    hand: list[Action] = []  # the actions of the hand being replayed (for rollouts)
    at: list[tuple[int, int]] = [(0, -1)]  # (id of the engine game, index of its hand's start_kyoku)

    def observe(index: int, game: Game, action: Action) -> None:
        seat = action.actor
        events = game.events
        start = len(events) - 1
        while start > 0 and events[start]["type"] != "start_kyoku":
            start -= 1
        if keep_games:
            if at[0] != (id(game), start):
                at[0] = (id(game), start)
                hand.clear()
            history = tuple(hand)
            hand.append(action)
        if seat not in wanted:
            return
        legal = game.legal_actions(seat)
        if len(distinct(legal)) < 2:
            return
        played = next((a for a in legal if a is action), action)
        d = Decision(index, len(events) - start, seat, game.view(seat), legal, played,
                     copy.deepcopy(game) if keep_games else None, history if keep_games else ())
        out.decisions.append(d)
        if on_decision is not None:
            on_decision(d)

    out.replay = replay_record(record, rules, observer=observe)
    out.hands = hand_facts(record, rules)
    if record.final_scores is not None and record.complete:
        res = final_result(rules, record.final_scores)
        out.final_ranks = res.ranks
        out.final_points = tuple(float(p) for p in record.final_points) if record.final_points else res.points
    return out


def hand_facts(record: GameRecord, rules: Rules) -> list[HandFacts]:
    """Each hand's start and ending per seat (``fit.CATEGORIES``), from the record."""
    laps = round_indexes(rules, record.kyoku)
    out = []
    for i, k in enumerate(record.kyoku):
        start = k.start_scores
        end = k.end_scores()
        deltas = tuple(e - s for s, e in zip(start, end, strict=True))
        outcomes, into = outcomes_of(k)
        number = k.dealer + 1
        out.append(HandFacts(i, kyoku_name(k), tuple(start), k.dealer, hands_left(rules, laps[i], number),
                             outcomes, deltas, tuple(end), into))
    return out


def outcomes_of(k: KyokuRecord) -> tuple[tuple[int, ...], int | None]:
    """How the hand ended for each seat, and the kind a seat dealt in with (None: no deal-in)."""
    wins = [r for r in k.results if isinstance(r, RecordedWin)]
    out = [ABORT] * SEATS
    into: int | None = None
    if wins:
        winners = {w.seat: w for w in wins}
        first = wins[0]
        for s in range(SEATS):
            if s in winners:
                out[s] = WIN_TSUMO if winners[s].tsumo else WIN_RON
            elif not first.tsumo and any(w.from_seat == s for w in wins):
                out[s] = DEAL_IN
            else:
                out[s] = OTHER_TSUMO if first.tsumo else OTHER_RON
        if not first.tsumo:
            from ..tiles import Tile

            into = Tile.parse(first.win).kind
        return tuple(out), into
    draws = [r for r in k.results if isinstance(r, DrawResult)]
    if draws and draws[0].kind in ("exhaustive", "nagashi"):
        tenpai = set(draws[0].tenpai)
        return tuple(DRAW_TENPAI if s in tenpai else DRAW_NOTEN for s in range(SEATS)), None
    return tuple(out), None


__all__ = ["Decision", "HandFacts", "WalkedGame", "hand_facts", "kyoku_name", "outcomes_of", "walk"]
