"""One kept game: people's entries turned into the shared settlement and flow calls.

The keeper has no tiles and no wall, only what people say happened. Each entry is checked
against the game (the winner plays this game, nobody rons themselves, the rules' han minimum),
turned into the outcome values of :mod:`sanma.game.payout`, settled there, and the table moves
on by :mod:`sanma.game.flow` — the same functions the engine calls at the end of every hand, so
a kept game and an engine game with the same outcomes end with the same result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import NotAWinError, SanmaError
from ..rules.schema import Rules
from ..scoring import Score, score_hand
from .entries import (
    AbortEntry,
    ChomboEntry,
    DrawEntry,
    Entry,
    FinalEntry,
    KeeperError,
    PenaltyEntry,
    WinEntry,
    Winner,
)
from .series import Series

WINDS = "ESW"


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game, per person: final score, rank, points and chips (everything: per hand,
    end of game, uma in chips, streak chips); who won its last hand (P124)."""

    game: int
    scores: Mapping[str, int]
    ranks: Mapping[str, int]
    points: Mapping[str, float]
    chips: Mapping[str, int]
    end_reason: str
    last_winner: str | None = None
    uma_multiplier: int = 1
    streak_chips: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "scores": dict(self.scores), "ranks": dict(self.ranks),
                "points": dict(self.points), "chips": dict(self.chips), "end_reason": self.end_reason,
                "last_winner": self.last_winner, "uma_multiplier": self.uma_multiplier,
                "streak_chips": dict(self.streak_chips)}


class KeptGame:
    """A game in play: its players in seat order (seat 0 = the first dealer, 起家)."""

    def __init__(self, rules: Rules, number: int, order: Sequence[str], *, uma_multiplier: int = 1) -> None:
        self.rules = rules
        self.number = number
        self.players = tuple(order)
        self.uma_multiplier = uma_multiplier
        self.hands: list[dict[str, Any]] = []
        self.finished = False
        self.end_reason = ""
        self.last_winner: str | None = None
        self._final: FinalEntry | None = None
        self._init_table()

    # -- people and seats ---------------------------------------------------------------------
    def seat(self, person: str, what: str) -> int:
        if person not in self.players:
            raise KeeperError(f"{what}: {person} is not at the table in game {self.number} "
                              f"(players: {', '.join(self.players)})")
        return self.players.index(person)

    def wind_of(self, person: str) -> str | None:
        if person not in self.players:
            return None
        return WINDS[(self.players.index(person) - self.dealer) % 3]

    def _seats(self, people: Sequence[str], what: str) -> tuple[int, ...]:
        return tuple(self.seat(p, what) for p in people)

    def _by_person(self, values: Sequence[int]) -> dict[str, int]:
        return {p: int(values[i]) for i, p in enumerate(self.players)}

    # -- applying entries -----------------------------------------------------------------------
    def apply(self, entry: Entry) -> dict[str, Any]:
        """Settle ``entry``; return its row for the session's ``hands`` list."""
        if self.finished:
            raise KeeperError(f"game {self.number} is over ({self.end_reason})")
        if isinstance(entry, FinalEntry):
            return self._apply_final(entry)
        label, honba = self.label(), self.honba
        if isinstance(entry, WinEntry):
            row = self._apply_win(entry)
        elif isinstance(entry, DrawEntry):
            row = self._apply_draw(entry)
        elif isinstance(entry, AbortEntry):
            row = self._apply_abort(entry)
        elif isinstance(entry, ChomboEntry):
            row = self._apply_chombo(entry.who, entry.reason or "chombo")
        elif isinstance(entry, PenaltyEntry):
            row = self._apply_penalty(entry)
        else:  # pragma: no cover - seatings are handled by the session
            raise KeeperError(f"entry {entry.kind} does not belong in a game")
        row.setdefault("game", self.number)
        row.setdefault("label", label)
        row.setdefault("honba", honba)
        self.hands.append(row)
        return row

    def _riichi(self, people: Sequence[str], what: str = "riichi") -> tuple[int, ...]:
        seats = self._seats(people, what)
        for s in seats:
            if self.scores[s] < self.rules.riichi_min_points:  # P79 / A000-19
                raise KeeperError(f"riichi: {self.players[s]} has {self.scores[s]:,} points; riichi needs "
                                  f"{self.rules.riichi_min_points:,} (P79)")
        return seats

    def _score(self, w: Winner, seat: int, discarder: int | None, riichi: bool) -> Score:
        """The winner's Score: by tiles through ``score_hand`` with this game's winds, honba and
        sticks; by value through the scorer's han/fu table."""
        r = self.rules
        where = f"win by {w.winner}"
        if w.tiles is not None:
            t = w.tiles
            flags = {f: True for f in t.flags}
            try:
                return score_hand(
                    t.hand, win=t.win, melds=t.melds, tsumo=discarder is None, riichi=riichi,
                    seat_wind=WINDS[(seat - self.dealer) % 3], round_wind=self.round_wind,
                    discarder_wind=None if discarder is None else WINDS[(discarder - self.dealer) % 3],
                    dora_indicators=t.dora, ura_indicators=t.ura if riichi else (), kita=t.kita,
                    flowers=t.flowers, honba=self.honba, kyotaku=self.sticks, rules=r, **flags)
            except NotAWinError as e:
                raise KeeperError(f"{where}: not a win under {r.name}: {e}") from None
            except SanmaError as e:
                raise KeeperError(f"{where}: {e}") from None
        assert w.value is not None
        return self._score_value(w, seat, discarder, riichi)

    def label(self) -> str:
        lap = f" lap {self.lap + 1}" if self.lap else ""
        return f"{self.round_wind}{self.kyoku + 1}{lap}"

    # -- reading --------------------------------------------------------------------------------
    def scores_by_person(self) -> dict[str, int]:
        return self._by_person(self.scores)

    def chips_by_person(self) -> dict[str, int]:
        return self._by_person(self.chips)

    def hand_json(self) -> dict[str, Any]:
        return {"round": self.round_wind, "number": self.kyoku + 1, "lap": self.lap, "honba": self.honba,
                "sticks": self.sticks, "dealer": self.players[self.dealer]}

    def pot_json(self) -> dict[str, Any]:
        return {"sticks": self.sticks, "chips": self.pot_chips}

    def result(self, series: Series) -> GameResult:
        raise NotImplementedError
