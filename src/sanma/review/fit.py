"""The outcome tables of the review's value model, counted from games the bots play.

In seeded games of the ``defensive`` bot against itself, every decision with more than one
distinct option is recorded with the :class:`~sanma.review.position.Position` its chosen option
leaves (the keys of :func:`~sanma.review.position.cell_keys`) and, for a discard, the key of the
immediate deal-in table (:func:`~sanma.review.position.risk_key`); when the hand ends, each record
gets the seat's outcome: won by ron or tsumo, dealt in (later, or with that very discard), another
seat won by tsumo or by ron from the third, an exhaustive draw in tenpai or not, or an abort.
The counts per key are the tables (``outcomes.json``, written by ``tools/fit_review.py``), and
the same records, with each option's prediction, are what the calibration report measures.

>>> from sanma.rules import Rules
>>> recs = play_recorded(Rules.preset("tenhou"), "doc", 0, max_hands=1)
>>> all(0 <= r.outcome < len(CATEGORIES) and r.keys for r in recs), len(recs) > 10
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..bots import Bot, Driver, make_bot
from ..game.actions import Action
from ..game.engine import Game
from ..game.view import SeatView
from ..rules.schema import Rules
from .position import DISCARDS, OptionError, cell_keys, hand_after, position, risk_key

#: How a hand ended for one seat.
CATEGORIES: Final = ("win_ron", "win_tsumo", "deal_in", "other_tsumo", "other_ron", "draw_tenpai", "draw_noten",
                     "abort")
WIN_RON, WIN_TSUMO, DEAL_IN, OTHER_TSUMO, OTHER_RON, DRAW_TENPAI, DRAW_NOTEN, ABORT = range(8)


def option_key(a: Action) -> tuple[Any, ...]:
    """Options that differ only by tsumogiri (the same tile from the hand or as drawn) are one."""
    return (a.type, a.tile, tuple(sorted(a.consumed, key=lambda t: t.key)), a.target)


def distinct(legal: Iterable[Action]) -> dict[tuple[Any, ...], Action]:
    out: dict[tuple[Any, ...], Action] = {}
    for a in legal:
        out.setdefault(option_key(a), a)
    return out


@dataclass(slots=True)
class Record:
    """One recorded decision: the keys of the position its chosen option left, the immediate
    deal-in key of its discard, and (once the hand is over) how the hand ended for the seat."""

    seat: int
    hand: int  # the game's hand number
    event: int  # how many events the game had when the seat decided
    keys: tuple[str, ...]
    risk: str | None
    outcome: int = -1  # an index of CATEGORIES
    now: bool = False  # the discard itself dealt in
    delta: int = 0  # the seat's point change in the hand


@dataclass(slots=True)
class WinRecord:
    """A win, as another seat saw the winner just before it: the kind of hand (``threat_kind``),
    tsumo or ron, the han ``bots.value.threat_han`` expected, and (labelled) the han it had."""

    seat: int
    event: int
    key: str  # f"{kind}|{tsumo}"
    expected: float
    han: float = -1.0


def threat_kind(view: SeatView, seat: int) -> str:
    """``riichi``, ``open`` (a called meld) or ``dama`` (closed, no riichi): how a hand shows itself."""
    pub = view.seats[seat]
    return "riichi" if pub.riichi else "open" if any(m.type != "ankan" for m in pub.melds) else "dama"


def win_key(kind: str, tsumo: bool) -> str:
    return f"{kind}|{int(tsumo)}"


class Recording(Bot):
    """A bot that records its seat's decisions (see the module docs) and plays as ``inner``."""

    def __init__(self, inner: Bot, rules: Rules, game: Game) -> None:
        self.inner = inner
        self.rules = rules
        self.game = game
        self.name = inner.name
        self.follows_events = inner.follows_events
        self.records: list[Record] = []
        self.wins: list[WinRecord] = []

    def on_event(self, event: dict[str, Any]) -> None:
        self.inner.on_event(event)

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        choice = self.inner.act(view, legal)
        if choice.type == "hora" and view is not None and view.seat is not None:
            self.wins.append(win_record(self.game, view.seat, choice, self.rules))
        if view is not None and len(distinct(legal)) > 1:
            rec = record_of(view, choice, self.rules, self.game)
            if rec is not None:
                self.records.append(rec)
        return choice


def record_of(view: SeatView, choice: Action, rules: Rules, game: Game) -> Record | None:
    """The record of ``choice`` (None for an option with no hand after it, or a pon: its
    discard is the seat's next decision)."""
    if choice.type in ("hora", "ryukyoku", "pon"):
        return None
    assert view.seat is not None
    try:
        after = hand_after(view, choice, rules)
    except OptionError:
        return None
    keys = cell_keys(position(view, after, rules))
    risk = risk_key(view, choice.tile) if choice.type in DISCARDS and choice.tile is not None else None
    return Record(view.seat, game.hand_number, len(game.events), keys, risk)


def win_record(game: Game, seat: int, win: Action, rules: Rules) -> WinRecord:
    """How another seat valued ``seat``'s hand just before its win ``win``."""
    from ..bots.value import threat_han
    from .position import dora_counts

    tsumo = win.target == seat
    other = (seat + 1) % 3 if tsumo or win.target is None else win.target
    v = game.view(other)
    expected = threat_han(rules, v, seat, list(v.unseen), dora_counts(v))
    return WinRecord(seat, len(game.events), win_key(threat_kind(v, seat), tsumo), expected)


def label_wins(wins: Sequence[WinRecord], events: Sequence[Mapping[str, Any]]) -> None:
    """Give each win the han the engine scored (a yakuman counts 13 han a time)."""
    for w in wins:
        h = next((e for e in events[w.event:] if e["type"] == "hora" and e["actor"] == w.seat), None)
        if h is not None:
            w.han = float(h.get("han") or 0) + 13.0 * float(h.get("yakuman") or 0)


def label(records: Sequence[Record], events: Sequence[Mapping[str, Any]]) -> None:
    """Give each record the outcome of its hand (from the game's events) for its seat."""
    starts = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"]
    for rec in records:
        start = max(i for i in starts if i <= rec.event)
        end = next(i for i in range(rec.event, len(events)) if events[i]["type"] in ("end_kyoku", "end_game"))
        hand = events[start:end + 1]
        rec.outcome, rec.delta = outcome_of(hand, rec.seat)
        if rec.risk is not None and rec.outcome == DEAL_IN:
            rec.now = dealt_in_at_once(events, rec.event, end, rec.seat)


def outcome_of(hand: Sequence[Mapping[str, Any]], seat: int) -> tuple[int, int]:
    """(category, the seat's point change) of one hand's events."""
    horas = [e for e in hand if e["type"] == "hora"]
    end = next((e for e in reversed(hand) if e["type"] == "end_kyoku"), None)
    delta = int(end["deltas"][seat]) if end is not None and end.get("deltas") else 0
    if horas:
        mine = next((h for h in horas if h["actor"] == seat), None)
        if mine is not None:
            return (WIN_TSUMO if mine["target"] == seat else WIN_RON), delta
        if any(h["target"] == seat for h in horas):
            return DEAL_IN, delta
        first = horas[0]
        return (OTHER_TSUMO if first["target"] == first["actor"] else OTHER_RON), delta
    draw = next((e for e in hand if e["type"] == "ryukyoku"), None)
    if draw is not None and draw.get("reason") in ("exhaustive", "nagashi"):
        return (DRAW_TENPAI if seat in (draw.get("tenpai") or ()) else DRAW_NOTEN), delta
    return ABORT, delta


def dealt_in_at_once(events: Sequence[Mapping[str, Any]], start: int, end: int, seat: int) -> bool:
    """The seat's deal-in came on the tile it discarded at ``start`` (no draw in between)."""
    for i in range(start, end):
        t = events[i]["type"]
        if t == "tsumo":
            return False
        if t == "hora" and events[i]["target"] == seat and events[i]["actor"] != seat:
            return True
    return False


def play_recorded(rules: Rules, seed: int | str, index: int, *, bot: str = "defensive",
                  max_hands: int = 200) -> list[Record]:
    """Play game ``index`` of seed ``seed`` with ``bot`` in every seat and return its labelled records."""
    return play_labelled(rules, seed, index, bot=bot, max_hands=max_hands)[0]


def play_labelled(rules: Rules, seed: int | str, index: int, *, bot: str = "defensive",
                  max_hands: int = 200) -> tuple[list[Record], list[WinRecord], int]:
    """Game ``index`` of seed ``seed`` with ``bot`` in every seat: its labelled decisions, its
    labelled wins and how many hands it had."""
    game = Game(rules, seed=f"{seed}-{index}", max_hands=max_hands)
    bots = {s: Recording(make_bot(bot, seed=f"{seed}-{index}-{s}", rules=rules), rules, game) for s in range(3)}
    Driver(game, bots).run()
    records = [r for b in bots.values() for r in b.records]
    label(records, game.events)
    wins = [w for b in bots.values() for w in b.wins]
    label_wins(wins, game.events)
    return records, [w for w in wins if w.han >= 0], game.hand_number + 1


# --------------------------------------------------------------------------------------- the tables
@dataclass
class Tables:
    """Outcome counts per position key and (deal-ins, discards) per risk key."""

    continuation: dict[str, list[int]] = field(default_factory=dict)
    risk: dict[str, list[int]] = field(default_factory=dict)
    wins: dict[str, list[float]] = field(default_factory=dict)  # win_key -> [wins, expected han, scored han]
    games: int = 0
    hands: int = 0
    source: dict[str, Any] = field(default_factory=dict)

    def add(self, records: Iterable[Record]) -> None:
        for r in records:
            if r.risk is not None:
                cell = self.risk.setdefault(r.risk, [0, 0])
                cell[0] += 1
                cell[1] += r.now
                if r.now:
                    continue  # the continuation is what follows a discard that did not deal in
            for k in r.keys:
                self.continuation.setdefault(k, [0] * len(CATEGORIES))[r.outcome] += 1

    def add_wins(self, wins: Iterable[WinRecord]) -> None:
        for w in wins:
            cell = self.wins.setdefault(w.key, [0.0, 0.0, 0.0])
            cell[0] += 1
            cell[1] += w.expected
            cell[2] += w.han

    def merge(self, other: Tables) -> None:
        for k, v in other.continuation.items():
            mine = self.continuation.setdefault(k, [0] * len(CATEGORIES))
            for i, n in enumerate(v):
                mine[i] += n
        for k, v in other.risk.items():
            mine = self.risk.setdefault(k, [0, 0])
            mine[0] += v[0]
            mine[1] += v[1]
        for k, w in other.wins.items():
            cell = self.wins.setdefault(k, [0.0, 0.0, 0.0])
            for i in range(3):
                cell[i] += w[i]
        self.games += other.games
        self.hands += other.hands

    def to_json(self) -> dict[str, Any]:
        return {"categories": list(CATEGORIES), "games": self.games, "hands": self.hands, "source": self.source,
                "continuation": dict(sorted(self.continuation.items())), "risk": dict(sorted(self.risk.items())),
                "wins": {k: [round(x, 3) for x in v] for k, v in sorted(self.wins.items())}}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Tables:
        if list(data.get("categories", ())) != list(CATEGORIES):
            raise ValueError("outcome tables with other categories than " + ", ".join(CATEGORIES))
        return Tables({k: list(v) for k, v in data["continuation"].items()},
                      {k: list(v) for k, v in data["risk"].items()},
                      {k: [float(x) for x in v] for k, v in data.get("wins", {}).items()},
                      int(data["games"]), int(data["hands"]), dict(data.get("source", {})))

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), separators=(",", ":"), sort_keys=False) + "\n")


def fit_games(rules: Rules, seed: int | str, indices: Iterable[int], *, bot: str = "defensive") -> Tables:
    """The tables of the games ``indices`` of seed ``seed`` under ``rules``."""
    t = Tables()
    for i in indices:
        recs, wins, hands = play_labelled(rules, seed, i, bot=bot)
        t.add(recs)
        t.add_wins(wins)
        t.games += 1
        t.hands += hands
    return t


__all__ = ["CATEGORIES", "Record", "Recording", "Tables", "WinRecord", "distinct", "fit_games", "label",
           "option_key", "outcome_of", "play_labelled", "play_recorded", "threat_kind", "win_key"]
