"""What each seat did in one game, counted from its mjai event stream.

The database keeps these per-seat counts next to the events (table ``results``), so statistics
are sums over rows. The same counting serves recorded games and games the engine played.

Definitions (per hand a seat played):

* a *win* is a ``hora`` by the seat (both winners of a double ron win);
* a *deal-in* is a hand in which another seat won by ron on the seat's tile (a double ron is one
  deal-in; its value is both wins' points);
* *riichi* is a hand in which the seat declared riichi (``reach``), accepted or not;
* a *call* is a hand in which the seat called pon or an open kan (Tenhou's 副露率); kakan extends a
  pon and ankan keeps the hand closed, so neither counts;
* a *draw* is a hand that ended in ``ryukyoku`` (exhaustive or abortive) for every seat;
* win and deal-in values are the hand's ``points`` (before honba and riichi sticks);
* kita counts the Norths the seat set aside.

>>> from sanma.store.events import EXAMPLE
>>> from sanma.formats import read_mjai
>>> from sanma.store.events import record_events
>>> facts = tally(record_events(read_mjai(EXAMPLE)))
>>> facts.hands, facts.complete, [s.draws for s in facts.seats], [s.placement for s in facts.seats]
(1, True, [1, 1, 1], [1, 2, 3])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import events as ev
from ..errors import RecordError
from ..i18n import sentence
from ..tiles import SEATS


@dataclass(slots=True)
class SeatFacts:
    name: str
    score: int | None = None
    placement: int | None = None
    points: float | None = None
    chips: int | None = None
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    calls: int = 0
    draws: int = 0
    win_points: int = 0
    deal_in_points: int = 0
    kita: int = 0


@dataclass(frozen=True, slots=True)
class KyokuFacts:
    index: int
    round_wind: str
    dealer: int
    honba: int
    kyotaku: int
    start_scores: tuple[int, ...]
    first_event: int
    last_event: int
    outcome: str | None = None  # "hora", "ryukyoku"; None when the stream ends mid-kyoku
    deltas: tuple[int, ...] | None = None
    end_scores: tuple[int, ...] | None = None


@dataclass(slots=True)
class GameFacts:
    names: tuple[str, ...]
    rules_name: str
    seats: list[SeatFacts]
    kyoku: list[KyokuFacts] = field(default_factory=list)
    kyoku_of_event: list[int | None] = field(default_factory=list)
    complete: bool = False

    @property
    def hands(self) -> int:
        return len(self.kyoku)


_PLAIN = (ev.Tsumo, ev.Dahai)  # events inside a kyoku that change no count


def tally(events: Sequence[dict[str, Any]]) -> GameFacts:
    """Count each seat's hands, wins, deal-ins ... from a game's mjai events, read through the one
    event vocabulary (:mod:`sanma.events`); raises :class:`~sanma.errors.RecordError` naming the
    event when the stream is malformed."""
    typed = ev.parse_events(events)
    if not typed or not isinstance(typed[0], ev.StartGame):
        raise RecordError(sentence("a game's events must start with start_game"))
    head = typed[0]
    names = head.names if head.names is not None else tuple(f"seat {s}" for s in range(SEATS))
    facts = GameFacts(tuple(names), head.rules, [SeatFacts(n) for n in names])
    seats = facts.seats
    cur: dict[str, Any] | None = None  # the open kyoku
    for i, e in enumerate(typed):
        if type(e) in _PLAIN and cur is not None and not facts.complete:  # most events: a draw or a discard
            facts.kyoku_of_event.append(cur["index"])
            continue
        t = e.TYPE
        if i and isinstance(e, ev.StartGame):
            raise RecordError(sentence("event {i}: a second start_game", i=i))
        if facts.complete:
            raise RecordError(sentence("event {i} ({type}) after end_game", i=i, type=t))
        if isinstance(e, ev.StartKyoku):
            if cur is not None:
                raise RecordError(sentence("event {i}: start_kyoku before end_kyoku", i=i))
            cur = {"index": len(facts.kyoku), "round_wind": e.bakaze, "dealer": e.oya, "honba": e.honba,
                   "kyotaku": e.kyotaku, "start_scores": e.scores, "first_event": i, "outcome": None,
                   "won": set(), "dealt_in": set(), "riichi": set(), "called": set()}
            for st in seats:
                st.hands += 1
        elif isinstance(e, (ev.StartGame, ev.EndGame)):
            if cur is not None:
                raise RecordError(sentence("event {i}: {type} inside a kyoku", i=i, type=t))
            if isinstance(e, ev.EndGame):
                facts.complete = True
                for s, st in enumerate(seats):
                    st.score = e.scores[s]
                    if e.ranks is not None:
                        st.placement = e.ranks[s]
                    if e.points is not None:
                        if not math.isfinite(e.points[s]):
                            raise RecordError(sentence("event {i}: points {points} are not finite numbers", i=i,
                                                       points=str(list(e.points))))
                        st.points = e.points[s]
                    if e.chips is not None:
                        st.chips = e.chips[s]
        elif cur is None:
            raise RecordError(sentence("event {i} ({type}) outside a kyoku", i=i, type=t))
        elif isinstance(e, ev.EndKyoku):
            _close(facts, cur, i, e.deltas, e.scores)
            cur = None
        elif isinstance(e, ev.Hora):
            cur["outcome"] = "hora"
            cur["won"].add(e.actor)
            seats[e.actor].win_points += e.points
            if e.target != e.actor:
                cur["dealt_in"].add(e.target)
                seats[e.target].deal_in_points += e.points
        elif isinstance(e, ev.Ryukyoku):
            if cur["outcome"] is None:
                cur["outcome"] = "ryukyoku"
        elif isinstance(e, ev.Reach):
            cur["riichi"].add(e.actor)
        elif isinstance(e, (ev.Pon, ev.Daiminkan)):
            cur["called"].add(e.actor)
        elif isinstance(e, ev.Kita):
            seats[e.actor].kita += 1
        facts.kyoku_of_event.append(cur["index"] if cur is not None else (
            facts.kyoku[-1].index if isinstance(e, ev.EndKyoku) else None))
    if cur is not None:  # a stream cut in the middle of a kyoku (an excerpt): keep what it shows
        _close(facts, cur, len(events) - 1, None, None)
    return facts


def _close(facts: GameFacts, cur: dict[str, Any], last: int, deltas: tuple[int, ...] | None,
           end: tuple[int, ...] | None) -> None:
    """Add a finished (or cut) kyoku to the game's facts."""
    seats = facts.seats
    facts.kyoku.append(KyokuFacts(cur["index"], cur["round_wind"], cur["dealer"], cur["honba"], cur["kyotaku"],
                                  cur["start_scores"], cur["first_event"], last, cur["outcome"], deltas, end))
    for key, attr in (("won", "wins"), ("dealt_in", "deal_ins"), ("riichi", "riichi"), ("called", "calls")):
        for s in cur[key]:
            setattr(seats[s], attr, getattr(seats[s], attr) + 1)
    if cur["outcome"] == "ryukyoku":
        for st in seats:
            st.draws += 1
