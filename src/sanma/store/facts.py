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

from ..errors import RecordError

SEATS = 3


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


def _seat(e: dict[str, Any], key: str, i: int) -> int:
    v = e.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < SEATS:
        raise RecordError(f"event {i} ({e.get('type')}): {key} {v!r} is not a seat 0..{SEATS - 1}")
    return v


def _int(v: Any, what: str, i: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"event {i}: {what} {v!r} is not an integer")
    return v


def _ints(v: Any, what: str, i: int) -> tuple[int, ...]:
    if not isinstance(v, list) or len(v) < SEATS:
        raise RecordError(f"event {i}: {what} {v!r} is not a list of {SEATS} integers")
    return tuple(_int(x, what, i) for x in v[:SEATS])


def _number(v: Any, what: str, i: int) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise RecordError(f"event {i}: {what} {v!r} is not a finite number")
    return float(v)


def tally(events: Sequence[dict[str, Any]]) -> GameFacts:
    """Count each seat's hands, wins, deal-ins ... from a game's mjai events; raises
    :class:`~sanma.errors.RecordError` naming the event when the stream is malformed."""
    if not events or not isinstance(events[0], dict) or events[0].get("type") != "start_game":
        raise RecordError("a game's events must start with start_game")
    head = events[0]
    names = head.get("names")
    if names is None:
        names = [f"seat {s}" for s in range(SEATS)]
    if not isinstance(names, list) or len(names) != SEATS or not all(isinstance(n, str) for n in names):
        raise RecordError(f"start_game names {names!r}: expected {SEATS} names")
    rules = head.get("rules", "")
    facts = GameFacts(tuple(names), rules if isinstance(rules, str) else "", [SeatFacts(n) for n in names])
    seats = facts.seats
    cur: dict[str, Any] | None = None  # the open kyoku
    for i, e in enumerate(events):
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            raise RecordError(f"event {i} is not an mjai event (a dict with a 'type'): {e!r}")
        t = e["type"]
        if i and t == "start_game":
            raise RecordError(f"event {i}: a second start_game")
        if facts.complete:
            raise RecordError(f"event {i} ({t}) after end_game")
        if t == "start_kyoku":
            if cur is not None:
                raise RecordError(f"event {i}: start_kyoku before end_kyoku")
            bakaze = e.get("bakaze")
            if bakaze not in ("E", "S", "W", "N"):
                raise RecordError(f"event {i}: bakaze {bakaze!r} is not E/S/W/N")
            cur = {"index": len(facts.kyoku), "round_wind": bakaze, "dealer": _seat(e, "oya", i),
                   "honba": _int(e.get("honba", 0), "honba", i), "kyotaku": _int(e.get("kyotaku", 0), "kyotaku", i),
                   "start_scores": _ints(e.get("scores"), "scores", i), "first_event": i, "outcome": None,
                   "won": set(), "dealt_in": set(), "riichi": set(), "called": set()}
            for st in seats:
                st.hands += 1
        elif t in ("start_game", "end_game"):
            if cur is not None:
                raise RecordError(f"event {i}: {t} inside a kyoku")
            if t == "end_game":
                facts.complete = True
                scores = e.get("scores")
                place = e.get("ranks")
                points = e.get("points")
                chips = e.get("chips")
                for s, st in enumerate(seats):
                    if scores is not None:
                        st.score = _ints(scores, "scores", i)[s]
                    if place is not None:
                        p = _ints(place, "ranks", i)[s]
                        if not 1 <= p <= SEATS:
                            raise RecordError(f"event {i}: rank {p} is not 1..{SEATS}")
                        st.placement = p
                    if points is not None:
                        if not isinstance(points, list) or len(points) < SEATS:
                            raise RecordError(f"event {i}: points {points!r} is not a list of {SEATS} numbers")
                        st.points = _number(points[s], "points", i)
                    if chips is not None:
                        st.chips = _ints(chips, "chips", i)[s]
        elif cur is None:
            raise RecordError(f"event {i} ({t}) outside a kyoku")
        elif t == "end_kyoku":
            deltas = _ints(e["deltas"], "deltas", i) if "deltas" in e else None
            end = _ints(e["scores"], "scores", i) if "scores" in e else None
            _close(facts, cur, i, deltas, end)
            cur = None
        elif t == "hora":
            actor, target = _seat(e, "actor", i), _seat(e, "target", i)
            points = _int(e.get("points", 0), "points", i)
            cur["outcome"] = "hora"
            cur["won"].add(actor)
            seats[actor].win_points += points
            if target != actor:
                cur["dealt_in"].add(target)
                seats[target].deal_in_points += points
        elif t == "ryukyoku":
            if cur["outcome"] is None:
                cur["outcome"] = "ryukyoku"
        elif t == "reach":
            cur["riichi"].add(_seat(e, "actor", i))
        elif t in ("pon", "daiminkan"):
            _seat(e, "target", i)
            cur["called"].add(_seat(e, "actor", i))
        elif t in ("kita", "nukidora"):
            seats[_seat(e, "actor", i)].kita += 1
        elif "actor" in e:
            _seat(e, "actor", i)
        facts.kyoku_of_event.append(cur["index"] if cur is not None else (
            facts.kyoku[-1].index if t == "end_kyoku" else None))
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
