"""Seed 000's series rules: four people at a three-player table, sit-outs, streak chips and
doubled uma (RULES_MATRIX §5.1 and §5.3; rows P28, P120, P123, P124, P126).

No engine game has these: they live between games, so only the score keeper reads the Rules
fields ``players_in_rotation``, ``streak_chips`` and ``uma_doubling``. Everything here is a pure
function of small immutable values; :mod:`sanma.keeper.keeper` threads a :class:`Series` through
the games of a session.

>>> s = Series.start(("A", "B", "C", "D"), players_in_rotation=4)
>>> s.sitting_out(), s.active()                 # P126: North's drawer sits out game 1
('D', ('A', 'B', 'C'))
>>> s = s.after_game({"A": 2, "B": 1, "C": 3}, last_winner="B")
>>> s.sitting_out(), s.roller()                 # then the previous second place; B won last, rolls
('A', 'B')
>>> [streak_chips_each(n) for n in range(3, 17)]   # P120 / §5.3: 4→10, 5-7→5, 8→20, ...
[0, 10, 5, 5, 5, 20, 10, 10, 10, 30, 15, 15, 15, 40]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..errors import SanmaError
from ..i18n import sentence

#: Table positions in seat-draw order (P123): the wind tile each person drew.
POSITIONS = ("E", "S", "W", "N")
RESEAT_EVERY = 4  # P126 「4半荘終了ごとに同様の手順で場所替えを行う」


class SeriesError(SanmaError):
    """A seating that seed 000's series rules do not allow (e.g. five people, a name twice)."""

    code_of_class = "series"


def streak_chips_each(n: int) -> int:
    """Chips each other player of the game pays (or receives from) someone on their ``n``-th
    consecutive top (or last): P120 / §5.3, ``10*k`` when ``n`` is a multiple of four, else ``5*k``
    with ``k = n // 4`` (4→10, 5-7→5, 8→20, 9-11→10, 12→30, 13-15→15, extending 「・・・」).

    >>> streak_chips_each(4), streak_chips_each(7), streak_chips_each(8), streak_chips_each(12)
    (10, 5, 20, 30)
    """
    if n < 4:
        return 0
    k = n // 4
    return 10 * k if n % 4 == 0 else 5 * k


def _frozen(d: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True, slots=True)
class Series:
    """What seed 000 carries from one game to the next (§5.1).

    ``positions`` holds the person at each table position E, S, W, N (``None`` = the empty seat's
    virtual person, P123); ``out`` the person sitting out the coming game (None with three
    people); ``top_streak``/``last_streak`` each person's consecutive tops/lasts; ``pending_double``
    the queued uma doublings (A000-10); ``games`` games finished; ``since_reseat`` games since the
    last seat draw; ``previous_top``/``last_winner`` who rolls the 仮々親 dice (P124).
    """

    positions: tuple[str | None, ...]
    out: str | None
    top_streak: Mapping[str, int] = field(default_factory=lambda: _frozen({}))
    last_streak: Mapping[str, int] = field(default_factory=lambda: _frozen({}))
    pending_double: int = 0
    games: int = 0
    since_reseat: int = 0
    previous_top: str | None = None
    last_winner: str | None = None

    @staticmethod
    def start(people: Sequence[str], *, players_in_rotation: int) -> Series:
        """The first seat draw: ``people`` in the order of the winds they drew (E, S, W[, N]).

        With four people the North drawer sits out game 1 (P126 「最初の場所決めで「北」を引いた人」);
        with three the virtual person holds North (A000-17). Four people need rules with
        ``players_in_rotation = 4``.
        """
        people = tuple(people)
        if len(set(people)) != len(people):
            raise SeriesError(sentence("people {names}: a name appears twice", names=", ".join(people)))
        if len(people) not in (3, 4):
            raise SeriesError(sentence("people {names}: a three-player table needs 3 or 4 people, not {n}",
                                       names=", ".join(people), n=len(people)))
        if len(people) == 4 and players_in_rotation != 4:
            raise SeriesError(sentence("four people ({names}) share the table only under rules with "
                                       "players_in_rotation = 4 (P126); these rules seat {n}",
                                       names=", ".join(people), n=players_in_rotation))
        positions: tuple[str | None, ...] = (*people, None) if len(people) == 3 else people
        return Series(positions, people[3] if len(people) == 4 else None)

    def to_json(self) -> dict[str, Any]:
        return {"positions": list(self.positions), "out": self.out, "top_streak": dict(self.top_streak),
                "last_streak": dict(self.last_streak), "pending_double": self.pending_double, "games": self.games,
                "since_reseat": self.since_reseat, "previous_top": self.previous_top, "last_winner": self.last_winner}

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> Series:
        """The inverse of :meth:`to_json` (the keeper's cache); a KeyError/TypeError on a bad one."""
        return Series(tuple(d["positions"]), d["out"], _frozen({str(k): int(v) for k, v in d["top_streak"].items()}),
                      _frozen({str(k): int(v) for k, v in d["last_streak"].items()}), int(d["pending_double"]),
                      int(d["games"]), int(d["since_reseat"]), d["previous_top"], d["last_winner"])

    # -- who plays ------------------------------------------------------------------------------
    def people(self) -> tuple[str, ...]:
        return tuple(p for p in self.positions if p is not None)

    def sitting_out(self) -> str | None:
        return self.out

    def active(self) -> tuple[str, ...]:
        """The three people of the coming game, in table order from East (turn order, P126:
        nobody moves, the sit-out's position is simply empty)."""
        return tuple(p for p in self.positions if p is not None and p != self.out)

    def seat_order(self, dealer: str) -> tuple[str, ...]:
        """The coming game's players in turn order from ``dealer`` (its first dealer, 起家)."""
        act = self.active()
        if dealer not in act:
            raise SeriesError(sentence("first dealer {name!r} is not playing this game (players: {names})",
                                       name=dealer, names=", ".join(act)))
        i = act.index(dealer)
        return act[i:] + act[:i]

    def roller(self) -> str:
        """Who rolls the 仮々親 dice for the coming game (P124, §5.1.3): after a seat draw the East
        drawer (the South drawer when East is the virtual person or sits out); otherwise the
        previous game's last winner (ラス上がり), or its top when that person sits out or nobody
        won (A000-13)."""
        if self.since_reseat == 0:
            east, south = self.positions[0], self.positions[1]
            return east if east is not None and east != self.out else str(south)
        if self.last_winner is not None and self.last_winner != self.out:
            return self.last_winner
        return str(self.previous_top)

    def reseat_due(self) -> bool:
        """True once four games were played since the last seat draw (P126)."""
        return self.since_reseat >= RESEAT_EVERY

    def reseat(self, people: Sequence[str]) -> Series:
        """A new seat draw (``people`` in the order of the winds drawn). The sit-out stays the
        previous game's second place (P126 「場所替え時に「北」を引いた人ではなく…2位抜け」);
        before the first game it is the new North drawer."""
        people = tuple(people)
        if sorted(people) != sorted(self.people()):
            raise SeriesError(sentence("seat draw {names}: the same people must draw ({people})",
                                       names=", ".join(people), people=", ".join(self.people())))
        new = Series.start(people, players_in_rotation=4 if len(people) == 4 else 3)
        out = new.out if self.games == 0 else self.out
        return replace(self, positions=new.positions, out=out, since_reseat=0)

    # -- uma doubling and streak chips ---------------------------------------------------------
    def uma_multiplier(self, doubling: bool, stack: str = "queue") -> int:
        """The coming game's uma multiplier (P28, A000-10): with doublings pending, 2 under the
        ``queue`` reading (one doubled game per doubling) and ``2 ** pending`` under ``multiply``
        (all of them at once, in the next game only); 1 with none pending.

        >>> s = replace(Series(("A", "B", "C", None), None), pending_double=2)
        >>> s.uma_multiplier(True, "queue"), s.uma_multiplier(True, "multiply"), s.uma_multiplier(False)
        (2, 4, 1)
        """
        if not doubling or self.pending_double <= 0:
            return 1
        return 2 ** self.pending_double if stack == "multiply" else 2

    def streak_chips(self, ranks: Mapping[str, int], enabled: bool) -> dict[str, int]:
        """Streak chips of a finished game with ``ranks`` (person → 1..3), P120: the others in
        that game each pay the top on its 4th+ consecutive top, and are paid by the last on its
        4th+ consecutive last."""
        chips = {p: 0 for p in ranks}
        if not enabled:
            return chips
        for p, r in ranks.items():
            if r == 1:
                each = streak_chips_each(self.top_streak.get(p, 0) + 1)
                sign = 1
            elif r == len(ranks):
                each = streak_chips_each(self.last_streak.get(p, 0) + 1)
                sign = -1
            else:
                continue
            for q in ranks:
                if q != p:
                    chips[q] -= sign * each
                    chips[p] += sign * each
        return chips

    def after_game(self, ranks: Mapping[str, int], *, last_winner: str | None, doubling: bool = True,
                   stack: str = "queue") -> Series:
        """The series after a game with ``ranks`` (person → 1..3): streaks, the uma doubling
        queue (P28, A000-10: under ``queue`` one is used if this game had one, under ``multiply``
        this game used them all; then +1 for a top streak ≥ 2, +1 for a last streak ≥ 2), and who
        sits out next: the second place (P126)."""
        top, last = dict(self.top_streak), dict(self.last_streak)
        n = len(ranks)
        for p, r in ranks.items():
            top[p] = top.get(p, 0) + 1 if r == 1 else 0
            last[p] = last.get(p, 0) + 1 if r == n else 0
        pending = 0 if stack == "multiply" else max(0, self.pending_double - 1)
        if doubling:
            pending += int(any(v >= 2 for v in top.values())) + int(any(v >= 2 for v in last.values()))
        second = next(p for p, r in ranks.items() if r == 2)
        first = next(p for p, r in ranks.items() if r == 1)
        four = len(self.people()) == 4
        return replace(self, out=second if four else None, top_streak=_frozen(top), last_streak=_frozen(last),
                       pending_double=pending, games=self.games + 1, since_reseat=self.since_reseat + 1,
                       previous_top=first, last_winner=last_winner)
