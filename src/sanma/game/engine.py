"""The game engine: three seats play a whole game under any ``Rules``, as one event stream.

Every change of state is an mjai event (with sanma's extensions: ``kita``, ``flower``, three
scores). Seats act through ``legal_actions(seat)`` / ``apply(action)``; after a discard every seat
that may call or win has an explicit choice window (``pending``), so a person at a browser
answers "pon?" through the same API as a bot.

>>> from sanma.rules import Rules
>>> g = Game(Rules.preset("tenhou"), seed=1)
>>> g.events[0]["type"], g.events[1]["type"], g.to_move
('start_game', 'start_kyoku', (0,))
>>> import random
>>> rng = random.Random(0)
>>> while not g.done:
...     seat = g.to_move[0]
...     g.apply(rng.choice(g.legal_actions(seat)))
>>> sum(g.scores) + g.kyotaku * 1000 == 105000, g.events[-1]["type"]
(True, 'end_game')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .. import events as ev
from ..agari import waits as compute_waits
from ..errors import IllegalActionError, NotAWinError, SanmaError
from ..hand import Meld
from ..rules.schema import Rules
from ..scoring import DORA_NAMES, Score, score_hand
from ..shanten_table import shanten_trusted
from ..tiles import NORTH, NUM_KINDS, SEATS, WINDS, YAOCHUU, Tile, seat_wind
from . import flow
from .actions import Action
from .payout import (
    RINSHAN_PAO,
    AbortiveDraw,
    Chombo,
    ExhaustiveDraw,
    Hora,
    Offence,
    Outcome,
    Pao,
    RiichiBust,
    Settlement,
    Win,
    one_suit,
    settle,
    settle_chombo,
    settle_draw,
    settle_hora,
    ura_tiles_held,
)
from .settle import FinalResult, is_bust, riichi_bust
from .view import SeatView, public_events, seat_view, spectator_view
from .wall import Wall, hand_wall

DRAGON_KINDS: Final = (31, 32, 33)


# Discard and CalledMeld are plain classes, not dataclasses: the compiled engine builds one per
# discard, and a dataclass's generated __init__ runs as interpreted code.
class Discard:
    __slots__ = ("called", "riichi", "tile", "tsumogiri")

    def __init__(self, tile: Tile, tsumogiri: bool, riichi: bool = False, called: bool = False) -> None:
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.riichi = riichi
        self.called = called

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discard) and (self.tile, self.tsumogiri, self.riichi, self.called) == (
            other.tile, other.tsumogiri, other.riichi, other.called)

    def __repr__(self) -> str:
        return f"Discard({self.tile!r}, tsumogiri={self.tsumogiri}, riichi={self.riichi}, called={self.called})"

    def __deepcopy__(self, memo: dict[int, object]) -> Discard:
        return Discard(self.tile, self.tsumogiri, self.riichi, self.called)  # its tile is immutable


class CalledMeld:
    __slots__ = ("called", "meld", "target")

    def __init__(self, meld: Meld, target: int | None, called: Tile | None) -> None:
        self.meld = meld
        self.target = target  # seat the called tile came from (None for ankan)
        self.called = called

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CalledMeld) and (self.meld, self.target, self.called) == (
            other.meld, other.target, other.called)

    def __repr__(self) -> str:
        return f"CalledMeld({self.meld!r}, target={self.target}, called={self.called!r})"

    def __deepcopy__(self, memo: dict[int, object]) -> CalledMeld:
        return CalledMeld(self.meld, self.target, self.called)  # meld and tile are immutable


@dataclass(slots=True)
class SeatState:
    """One seat's part of a hand in progress (mutable, private to the engine)."""

    hand: list[Tile] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    melds: list[CalledMeld] = field(default_factory=list)
    discards: list[Discard] = field(default_factory=list)
    kita: int = 0
    flowers: int = 0
    chip_flowers: int = 0
    riichi: bool = False
    double_riichi: bool = False
    open_riichi: bool = False
    ippatsu: bool = False
    furiten_same_turn: bool = False
    furiten_riichi: bool = False
    violation: str = ""  # why this seat's riichi is a chombo if revealed (P80): "" = a clean riichi
    stick_paid: bool = False  # its riichi stick went to the table this hand (returned on a chombo, P101)
    waits: tuple[int, ...] = ()
    nagashi: bool = True
    pao: dict[str, int] = field(default_factory=dict)

    def add(self, t: Tile) -> None:
        self.hand.append(t)
        if t.kind < NUM_KINDS:  # a flower is held only until it is pulled
            self.counts[t.kind] += 1

    def remove(self, t: Tile) -> None:
        self.hand.remove(t)
        if t.kind < NUM_KINDS:
            self.counts[t.kind] -= 1

    @property
    def closed(self) -> bool:
        return all(not m.meld.is_open for m in self.melds)

    @property
    def discarded_kinds(self) -> set[int]:
        return {d.tile.kind for d in self.discards}


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended, for the game flow and for reports."""

    kind: str  # "hora", "ryukyoku" (exhaustive), "abort", "chombo"
    winners: tuple[int, ...] = ()
    offenders: tuple[int, ...] = ()  # seats that committed chombo (kind "chombo")
    tenpai: tuple[int, ...] = ()
    dealer_continues: bool = False
    deltas: tuple[int, ...] = (0, 0, 0)
    scores: tuple[Score, ...] = ()
    reason: str = ""

    # Immutable: a copy is the value itself (copy.deepcopy of a Game shares them).
    def __copy__(self) -> HandResult:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> HandResult:
        return self


WallFactory = Callable[[Rules, int], Wall]


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools may subclass it
class Game:
    """A whole game (hanchan) under ``rules``, seeded: the same seed gives the same walls.

    ``walls`` may supply the wall of each hand (a test wall builder, a Tenhou shuffle); by default
    each hand's wall is ``hand_wall(rules, seed, hand_number, wall_key)``, i.e.
    ``Wall.shuffled(rules, hand_seed(seed, hand_number, wall_key))`` (``sanma.game.wall``).

    The seed is secret while the game runs: no event carries it (every seat receives the events),
    and ``Game.seed`` is there to be published after the game, when anyone can rebuild each
    wall from it. A seed a user chose (``--seed 7``) is reproducible and therefore guessable: where
    a seat is another program, pass a secret ``wall_key`` (e.g. ``secrets.token_bytes(32)``), so
    the walls come from a keyed hash of the seed that the program cannot compute; publish the key
    with the seed after the game. ``wall_key`` is never in an event either.

    ``table_mistakes`` emulates a real table where the rules make riichi violations a chombo
    (``rules.riichi_violation``, P80): a noten riichi (and, during the 2-han minimum, a riichi that
    does not fix 2 han) is offered too. Furiten riichi is offered under such rules either way.
    """

    wall: Wall
    seats: list[SeatState]
    _kans: list[int]
    _first_cycle: bool
    _discard_count: int
    _pending: dict[int, tuple[Action, ...]]
    _responses: dict[int, Action]
    _turn: int
    _drawn: Tile | None
    _after_call: bool
    _rinshan: bool
    _kan_discard: bool
    _pending_kan_dora: int
    _turn_actions: tuple[Action, ...] | None
    _last_discard: tuple[int, Tile] | None
    _window: str
    _window_tile: Tile | None
    _window_seat: int
    _riichi_pending: int | None
    _go_around: list[set[int]]
    _rinshan_feeder: tuple[int, int] | None  # (kan-er, feeder) of a daiminkan until the next discard

    def __init__(self, rules: Rules, seed: int | str = 0, *, walls: WallFactory | None = None,
                 names: Sequence[str] = ("A", "B", "C"), scores: Sequence[int] | None = None,
                 max_hands: int = 200, round_index: int = 0, kyoku: int = 0, honba: int = 0,
                 kyotaku: int = 0, table_mistakes: bool = False, wall_key: bytes | None = None) -> None:
        self.rules = rules
        self.table_mistakes = table_mistakes
        self.chombos = [0] * SEATS  # chombo count per seat (rank points at the end, P100)
        self.seed = seed  # published after the game, never sent during it
        self.wall_key = wall_key  # the same
        self._walls = walls
        self.names = tuple(names)
        self.max_hands = max_hands  # a safety net for degenerate play (e.g. bots that never win)
        self.scores = list(scores) if scores is not None else [rules.start_points] * SEATS
        self.chips = [0] * SEATS
        self.events: list[dict[str, Any]] = []
        # Where play starts (a record can be replayed from any hand): round_index indexes
        # rules.round_winds (beyond it: overtime); the dealer is seat ``kyoku`` (seat 0 deals first).
        if not 0 <= kyoku < SEATS or round_index < 0 or honba < 0 or kyotaku < 0:
            raise IllegalActionError(
                f"invalid start position: round {round_index}, kyoku {kyoku}, honba {honba}, kyotaku {kyotaku}")
        self.round_index = round_index
        self.kyoku_in_round = kyoku
        self.honba = honba
        self.kyotaku = kyotaku
        self.end_reason = ""
        self.hand_number = 0
        self.done = False
        self.result: FinalResult | None = None
        self.hand_results: list[HandResult] = []
        self.busted: list[int] = []
        self.busters: list[int] = []
        # no seed here: every seat (and external bot) receives this event (issue 14 item 8)
        self._emit(ev.StartGame(tuple(self.names), rules.name, tuple(self.scores)))
        self._start_hand()

    # ------------------------------------------------------------------------------------------
    # public API
    # ------------------------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        return self.kyoku_in_round

    @property
    def round_wind(self) -> str:
        return flow.round_wind(self.rules, self.round_index)

    def seat_wind(self, seat: int) -> str:
        return seat_wind(seat, self.dealer)

    @property
    def to_move(self) -> tuple[int, ...]:
        """Seats that must act now (the player on turn, or every seat with a pending choice)."""
        if self.done:
            return ()
        if self._pending:
            return tuple(s for s in sorted(self._pending) if s not in self._responses)
        return (self._turn,)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Everything ``seat`` may do now (empty when it is not that seat's move)."""
        if self.done:
            return ()
        if self._pending:
            if seat in self._responses:
                return ()
            return self._pending.get(seat, ())
        if seat != self._turn:
            return ()
        if self._turn_actions is None:
            self._turn_actions = self._compute_turn_actions()
        return self._turn_actions

    def apply(self, action: Action) -> None:
        """Carry out ``action``; raises ``IllegalActionError`` naming the rule when it is not legal."""
        if self.done:
            raise IllegalActionError(f"{action}: the game is over")
        legal = self.legal_actions(action.actor)
        if not any(a is action for a in legal) and action not in legal:
            raise IllegalActionError(self._why_illegal(action, legal))
        if self._pending:
            self._responses[action.actor] = action
            if len(self._responses) == len(self._pending):
                self._resolve_responses()
            return
        self._do_turn_action(action)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now, as plain typed values (``sanma.game.view``: the only way out)."""
        return seat_view(self, seat)

    def spectator_view(self) -> SeatView:
        """The table as a spectator sees it: no concealed tile at all."""
        return spectator_view(self)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, every public fact, and its legal actions (``view(seat)``)."""
        return seat_view(self, seat).to_json()

    def public_events(self, seat: int | None) -> list[dict[str, Any]]:
        """The event stream as ``seat`` sees it (other seats' tiles hidden; ``None``: a spectator)."""
        return public_events(self.events, seat)

    def furiten(self, seat: int, tile: Tile | None = None) -> bool:
        """Whether ``seat`` may not ron (``tile``, or any of its waits): its own discards (P75), a win
        let pass this turn or under riichi (P75), the club's relaxed 13-sided kokushi (P78)."""
        st = self.seats[seat]
        if st.furiten_riichi or st.furiten_same_turn:
            return True
        if self.rules.kokushi_13_furiten == "club_relaxed" and len(st.waits) == 13:
            # P78 / §5.4 (CLUB): a 13-sided kokushi is barred only from tiles it discarded itself,
            # and from any ron in the go-around after it discarded a terminal or honour.
            own = st.discarded_kinds & (set(st.waits) if tile is None else {tile.kind})
            return bool(own) or bool(st.discards and st.discards[-1].tile.kind in YAOCHUU)
        return bool(st.discarded_kinds & set(st.waits))

    # ------------------------------------------------------------------------------------------
    # hand set-up
    # ------------------------------------------------------------------------------------------
    def _start_hand(self) -> None:
        r = self.rules
        self.wall = (self._walls(r, self.hand_number) if self._walls
                     else hand_wall(r, self.seed, self.hand_number, self.wall_key))
        self.seats = [SeatState() for _ in range(SEATS)]
        for i, tiles in enumerate(self.wall.haipai):
            seat = (self.dealer + i) % SEATS
            for t in tiles:
                self.seats[seat].add(t)
        self._kans = []  # seat of each kan made this hand
        self._first_cycle = True  # no call (pon, kan, kita where it counts) has happened yet
        self._discard_count = 0
        self._pending = {}
        self._responses = {}
        self._turn = self.dealer
        self._drawn = None
        self._after_call = False  # the turn started with a pon (discard only)
        self._rinshan = False  # the tile just drawn is a replacement
        self._kan_discard = False  # the coming discard follows a kan (kanburi, P12 kan dora)
        self._pending_kan_dora = 0
        self._turn_actions = None
        self._last_discard = None
        self._window = ""  # "dahai" | "kakan" | "ankan" | "kita"
        self._window_tile = None
        self._window_seat = self.dealer
        self._riichi_pending = None
        self._go_around = [set() for _ in range(SEATS)]  # kinds others discarded since my last discard
        self._rinshan_feeder = None
        self._emit(ev.StartKyoku(self.round_wind, self.kyoku_in_round + 1, self.honba, self.kyotaku, self.dealer,
                                 tuple(self.wall.dora_indicators), tuple(self.scores),
                                 tuple(tuple(s.hand) for s in self.seats)))
        for i in range(SEATS):  # flowers in the deal are set aside and replaced (P03)
            self._pull_flowers((self.dealer + i) % SEATS)
        for s in range(SEATS):
            self._update_waits(s)
        self._draw(self.dealer)

    def _pull_flowers(self, seat: int) -> None:
        st = self.seats[seat]
        while True:
            flowers = [t for t in st.hand if t.is_flower]
            if not flowers:
                return
            f = flowers[0]
            st.remove(f)
            st.flowers += 1
            if f.kind - NUM_KINDS < self.rules.flower_chip_tiles:
                st.chip_flowers += 1
            self._emit(ev.Flower(seat, f))
            if self.rules.flower_breaks_first_turn:
                self._first_cycle = False
            t = self.wall.draw_replacement()
            st.add(t)
            self._emit(ev.Tsumo(seat, t, True))
            if self._drawn is not None:
                self._drawn = t

    def _draw(self, seat: int, replacement: bool = False) -> None:
        st = self.seats[seat]
        t = self.wall.draw_replacement() if replacement else self.wall.draw()
        st.add(t)
        self._turn = seat
        self._drawn = t
        self._rinshan = replacement
        self._after_call = False
        self._turn_actions = None
        self._emit(ev.Tsumo(seat, t, replacement))
        if t.is_flower:
            self._pull_flowers(seat)
            self._rinshan = self.rules.flower_replacement_is_rinshan

    # ------------------------------------------------------------------------------------------
    # turn actions
    # ------------------------------------------------------------------------------------------
    def _compute_turn_actions(self) -> tuple[Action, ...]:
        r = self.rules
        seat = self._turn
        st = self.seats[seat]
        out: list[Action] = []
        drawn = self._drawn
        if not self._after_call and drawn is not None:
            if self._can_win(seat, drawn, tsumo=True):
                out.append(Action("hora", seat, drawn, target=seat))
            if (r.abort_kyuushu and self._first_cycle and not st.discards
                    and sum(1 for k in YAOCHUU if st.counts[k]) >= 9):
                out.append(Action("ryukyoku", seat))
            quads = [k for k in range(NUM_KINDS) if st.counts[k] == 4]
            adds = [cm for cm in st.melds if cm.meld.type == "pon" and st.counts[cm.meld.kind] and not st.riichi]
            if (quads or adds) and self._kan_possible():
                for k in quads:
                    if self._ankan_ok(seat, k):
                        out.append(Action("ankan", seat, consumed=tuple(t for t in st.hand if t.kind == k)))
                for cm in adds:
                    t = next(t for t in st.hand if t.kind == cm.meld.kind)
                    out.append(Action("kakan", seat, t, consumed=cm.meld.tiles))
            if (r.north_mode in ("nuki", "nuki_restricted") and st.counts[NORTH]
                    and (self.wall.remaining > 0 or r.kita_on_last_draw)
                    and (self.wall.rinshan_left > 0 or self.wall.remaining > 0)
                    and (not st.riichi or drawn.kind == NORTH)):
                out.append(Action("kita", seat, Tile(NORTH)))
        elif self._after_call and r.kita_after_pon and st.counts[NORTH] and r.north_mode in ("nuki", "nuki_restricted"):
            out.append(Action("kita", seat, Tile(NORTH)))
        out.extend(self._discard_actions(seat))
        return tuple(out)

    def _discard_actions(self, seat: int) -> list[Action]:
        r = self.rules
        st = self.seats[seat]
        drawn = self._drawn
        if st.riichi:
            assert drawn is not None
            return [Action("dahai", seat, drawn, tsumogiri=True)]
        banned: set[int] = set()
        if self._after_call and not r.kuikae and self._last_call_kind is not None:
            banned.add(self._last_call_kind)  # P72: no kuikae (discarding the tile just ponned)
        if not r.north_can_discard:
            banned.add(NORTH)  # P20 (OFFICIAL): North is pulled, never discarded
        # Distinct tiles (a red five differs from a plain one) and how many of each are held.
        copies: dict[Tile, int] = {}
        for t in st.hand:
            copies[t] = copies.get(t, 0) + 1
        if drawn is not None and not self._after_call:
            copies[drawn] -= 1  # the drawn tile is offered separately, as tsumogiri
        can_riichi = self._riichi_allowed(seat) and (
            self._noten_riichi_offered()
            or shanten_trusted(st.counts, len(st.melds), r.chiitoi_four_of_a_kind) <= 0)
        out: list[Action] = []
        for t, n in copies.items():
            if t.kind in banned:
                continue
            if n > 0:
                out.append(_dahai(seat, t, False))
            if can_riichi and self._riichi_offered(self._riichi_violation(seat, t)):
                out.append(Action("reach", seat, t, tsumogiri=n == 0))
                if r.open_riichi:
                    out.append(Action("open_reach", seat, t, tsumogiri=n == 0))
        if drawn is not None and not self._after_call and drawn.kind not in banned:
            out.append(_dahai(seat, drawn, True))
        if not out:  # every tile banned (e.g. a hand of Norths): allow any tile rather than deadlock
            out = [Action("dahai", seat, t) for t in dict.fromkeys(st.hand)]
        return out

    _last_call_kind: int | None = None

    def _riichi_allowed(self, seat: int) -> bool:
        r = self.rules
        st = self.seats[seat]
        if st.riichi or not st.closed or self._after_call:
            return False
        if self.scores[seat] < r.riichi_min_points and not (self.table_mistakes and riichi_bust(r, self.scores[seat])):
            return False  # P79; at an emulated table a CLUB riichi with <= 1,000 is declarable (A000-19)
        need = SEATS if r.riichi_needs_next_draw else 1  # P81
        return self.wall.remaining >= need

    def _noten_riichi_offered(self) -> bool:
        """Table emulation only: a noten riichi is a chombo the rules can settle (P80)."""
        return self.table_mistakes and self.rules.riichi_violation != "impossible"

    def _riichi_offered(self, violation: str) -> bool:
        """P80 / §5.5: a clean riichi is always offered; a violation never where the rules make it
        impossible; a furiten riichi where it is a chombo; a noten or 2-han-minimum violation only
        at an emulated table (bots would commit it at random)."""
        if not violation:
            return True
        if self.rules.riichi_violation == "impossible":
            return False
        return violation == "furiten_riichi" or self.table_mistakes

    def _riichi_violation(self, seat: int, t: Tile) -> str:
        """Why a riichi discarding ``t`` would be a violation (P77, P80, P87), or "" if it is clean."""
        st = self.seats[seat]
        r = self.rules
        st.counts[t.kind] -= 1
        try:
            w = compute_waits(st.counts, r.chiitoi_four_of_a_kind)
        finally:
            st.counts[t.kind] += 1
        if not w:
            return "noten_riichi"
        if r.furiten_riichi == "forbidden" or not r.tenpai_furiten:
            discarded = st.discarded_kinds | {t.kind}
            if discarded & set(w):
                return "furiten_riichi"  # P77 (KANSAI: a furiten hand is not tenpai, A003-21)
        if r.shibari_from_honba and self.honba >= r.shibari_from_honba and not self._riichi_fixes_two_han(
                seat, t, w):
            return "shibari_riichi"  # P87 (CLUB)
        return ""

    def _riichi_fixes_two_han(self, seat: int, t: Tile, waits: tuple[int, ...]) -> bool:
        """P87 (CLUB): during the 2-han minimum a riichi must already fix 2 han, riichi included,
        on every winning tile (the han, not the yaku; ippatsu and the moment's yaku do not count,
        A000-7) — otherwise it is a chombo, offered only at an emulated table."""
        st = self.seats[seat]
        hand = list(st.hand)
        hand.remove(t)
        other = (seat + 1) % SEATS
        for k in waits:
            w = Tile(k)
            try:
                s = score_hand([*hand, w], win=w, melds=[cm.meld for cm in st.melds], riichi=True,
                               seat_wind=self.seat_wind(seat), round_wind=self.round_wind,
                               discarder_wind=self.seat_wind(other), dora_indicators=self.wall.dora_indicators,
                               kita=st.kita, flowers=st.flowers, rules=self.rules)
            except SanmaError:
                continue  # a wait that cannot be reached (a fifth copy) fixes nothing either way
            counted = s.han if self.rules.shibari_counts_dora else s.han - sum(
                y.han for y in s.yaku if y.name in DORA_NAMES)
            if not s.yakuman and counted < 2:
                return False
        return True

    def _kan_possible(self) -> bool:
        if len(self._kans) >= 4 or self.wall.remaining <= 0:
            return False
        if self.rules.kan_requires_indicator and not self.wall.can_reveal_kan_dora:
            return False  # P13
        # The kan must leave a replacement tile after its dora indicator is turned (under the
        # to_indicator dead wall both come from the live wall's tail): try it on a copy.
        trial = self.wall.copy()
        try:
            if trial.can_reveal_kan_dora:
                trial.reveal_kan_dora()
            trial.draw_replacement()
        except IllegalActionError:
            return False
        return True

    def _ankan_ok(self, seat: int, kind: int) -> bool:
        st = self.seats[seat]
        if not st.riichi:
            return True
        if self._drawn is None or self._drawn.kind != kind:
            return False  # okuri-kan is forbidden everywhere (P84)
        if self.rules.kan_after_riichi == "no_okurikan":
            return True  # KANSAI: any ankan with the drawn tile (A003-18)
        st.counts[kind] -= 4
        try:
            blocks_ok = compute_waits(st.counts) == st.waits
        finally:
            st.counts[kind] += 4
        # The waits must stay the same and the four tiles must be a triplet in every reading.
        return blocks_ok and self._kind_always_triplet(seat, kind)

    def _kind_always_triplet(self, seat: int, kind: int) -> bool:
        from ..agari import decompositions

        st = self.seats[seat]
        st.counts[kind] -= 1  # the 13-tile riichi hand
        try:
            for w in st.waits:
                st.counts[w] += 1
                for d in decompositions(st.counts):
                    if (1, kind) not in d.blocks:
                        return False
                st.counts[w] -= 1
        finally:
            st.counts[kind] += 1
        return True

    def _do_turn_action(self, a: Action) -> None:
        seat = a.actor
        st = self.seats[seat]
        t = a.type
        offered = self._turn_actions
        if (st.riichi and t != "hora" and not st.violation and self.rules.riichi_violation == "chombo"
                and offered is not None and any(x.type == "hora" for x in offered)):
            st.violation = "passed_win"  # P80 (CLUB) 「リーチ後の見逃しも同様である」
        if t == "hora":
            self._settle_wins([seat], discarder=None, tile=a.tile, chankan=False)
            return
        if t == "ryukyoku":
            self._emit(ev.Ryukyoku("kyuushu", actor=seat))
            self._end_hand_abort("kyuushu")
            return
        if t in ("dahai", "reach", "open_reach"):
            assert a.tile is not None
            if t != "dahai" and riichi_bust(self.rules, self.scores[seat]):
                self._riichi_bust(seat)  # P79 / A000-19 (CLUB): bust at the declaration
                return
            if t != "dahai":
                st.violation = self._riichi_violation(seat, a.tile)
                self._emit(ev.Reach(seat, t == "open_reach"))
                st.riichi = True
                st.double_riichi = self._first_cycle and not st.discards
                st.open_riichi = t == "open_reach"
                self._riichi_pending = seat
            self._discard(seat, a.tile, a.tsumogiri, riichi=t != "dahai")
            return
        if t == "ankan":
            kind = a.consumed[0].kind
            for x in a.consumed:
                st.remove(x)
            st.melds.append(CalledMeld(Meld("ankan", a.consumed), None, None))
            self._update_waits(seat)
            self._kans.append(seat)
            self._break_first_cycle()
            self._emit(ev.Ankan(seat, a.consumed))
            # Kokushi may rob an ankan where the rules allow it (P127); a robbed kan turns no
            # kan dora (the Mahjong Soul record of such a win shows none).
            if self.rules.chankan_on_ankan == "kokushi":
                self._open_window("ankan", seat, Tile(kind), kokushi_only=True)
                if self._pending:
                    return
            self._ankan_passed(seat)
            return
        if t == "kakan":
            assert a.tile is not None
            st.remove(a.tile)
            idx = next(i for i, cm in enumerate(st.melds) if cm.meld.type == "pon" and cm.meld.kind == a.tile.kind)
            old = st.melds[idx]
            st.melds[idx] = CalledMeld(Meld("kan", (*old.meld.tiles, a.tile)), old.target, old.called)
            if old.target is not None:
                self._check_pao(seat, old.target, a.tile.kind)
            self._kans.append(seat)
            self._break_first_cycle()
            self._emit(ev.Kakan(seat, a.tile, a.consumed))
            self._update_waits(seat)
            self._open_window("kakan", seat, a.tile)  # chankan (Y12)
            if self._pending:
                return
            self._kakan_passed(seat)
            return
        if t == "kita":
            north = next(x for x in st.hand if x.kind == NORTH)
            st.remove(north)
            st.kita += 1
            self._emit(ev.Kita(seat))
            self._update_waits(seat)
            if self.rules.ron_on_kita:
                self._open_window("kita", seat, north)
                if self._pending:
                    return
            self._kita_passed(seat)
            return
        raise IllegalActionError(f"{a}: not a turn action")  # pragma: no cover

    def _ankan_passed(self, seat: int) -> None:
        if self.rules.kan_dora_ankan == "immediate":
            self._reveal_kan_dora()
        else:
            self._pending_kan_dora += 1
        self._after_kan(seat)

    def _kita_passed(self, seat: int) -> None:
        if self.rules.kita_breaks_first_turn:
            self._break_first_cycle()  # P17
        self._draw(seat, replacement=True)
        self._rinshan = self.rules.kita_replacement_is_rinshan  # P18

    def _kakan_passed(self, seat: int) -> None:
        if self.rules.kan_dora_open == "immediate":
            self._reveal_kan_dora()
        else:
            self._pending_kan_dora += 1
        self._after_kan(seat)

    def _after_kan(self, seat: int) -> None:
        self._draw(seat, replacement=True)
        self._rinshan = True
        self._kan_discard = True
        if self._pending_kan_dora and self._kan_dora_before_discard():
            while self._pending_kan_dora:
                self._pending_kan_dora -= 1
                self._reveal_kan_dora()

    def _kan_dora_before_discard(self) -> bool:
        return self.rules.kan_dora_open == "before_discard"

    def _reveal_kan_dora(self) -> None:
        if self.rules.kan_dora and self.wall.can_reveal_kan_dora:
            t = self.wall.reveal_kan_dora()
            self._emit(ev.Dora(t))

    def _break_first_cycle(self) -> None:
        self._first_cycle = False
        for s in self.seats:
            s.ippatsu = False

    def _discard(self, seat: int, tile: Tile, tsumogiri: bool, riichi: bool) -> None:
        st = self.seats[seat]
        st.remove(tile)
        st.discards.append(Discard(tile, tsumogiri, riichi))
        if tile.kind not in YAOCHUU:
            st.nagashi = False
        st.furiten_same_turn = False
        self._rinshan_feeder = None
        self._go_around[seat] = set()
        for other in range(SEATS):
            if other != seat:
                self._go_around[other].add(tile.kind)
        if not riichi:
            st.ippatsu = False  # ippatsu lasts until one's own next discard (Y05)
        self._discard_count += 1
        self._drawn = None
        self._last_discard = (seat, tile)
        self._emit(ev.Dahai(seat, tile, tsumogiri))
        self._update_waits(seat)
        if riichi and st.open_riichi and st.violation and self.rules.riichi_violation == "chombo":
            # P80 (CLUB) 「オープンリーチの場合は、掛けた時点で発覚したものとし、その時点で成立とする」
            self._chombo([(seat, st.violation)])
            return
        self._open_window("dahai", seat, tile)
        if not self._pending:
            self._discard_passed(seat)

    def _open_window(self, kind: str, seat: int, tile: Tile, kokushi_only: bool = False) -> None:
        """Offer every other seat its choices on ``tile`` (ron, pon, kan, pass)."""
        self._window = kind
        self._window_tile = tile
        self._window_seat = seat
        self._pending = {}
        self._responses = {}
        r = self.rules
        houtei = self.wall.remaining == 0
        for other in range(SEATS):
            if other == seat:
                continue
            ost = self.seats[other]
            acts: list[Action] = []
            if tile.kind in ost.waits and self._ron_ok(other, tile, kind, kokushi_only):
                acts.append(Action("hora", other, tile, target=seat))
            if kind == "dahai" and not ost.riichi and not houtei:
                c = ost.counts[tile.kind]
                if c >= 2 and (r.north_can_pon or tile.kind != NORTH):
                    for pair in _pairs(ost.hand, tile.kind):
                        acts.append(Action("pon", other, tile, consumed=pair, target=seat))
                if c == 3 and self._kan_possible():
                    acts.append(Action("daiminkan", other, tile,
                                       consumed=tuple(x for x in ost.hand if x.kind == tile.kind), target=seat))
            if acts:
                acts.append(Action("none", other))
                self._pending[other] = tuple(acts)

    def _ron_ok(self, seat: int, tile: Tile, window: str, kokushi_only: bool) -> bool:
        if self.furiten(seat, tile):
            return False
        if window == "kita" and not self.rules.ron_on_kita:
            return False
        return self._can_win(seat, tile, tsumo=False, chankan=window == "kakan", kokushi_only=kokushi_only,
                             discarder=self._window_seat)

    def _resolve_responses(self) -> None:
        window, seat, tile = self._window, self._window_seat, self._window_tile
        assert tile is not None
        responses = self._responses
        pending = self._pending
        self._pending, self._responses = {}, {}
        rons = [s for s in _turn_order(seat) if responses.get(s) and responses[s].type == "hora"]
        # A winning tile let pass makes the seat furiten for the turn; under riichi for good (P75).
        for s, acts in pending.items():
            if s in rons:
                continue
            if any(a.type == "hora" for a in acts) or (
                    tile.kind in self.seats[s].waits and (window != "kakan" or self.rules.kakan_is_discard)):
                self.seats[s].furiten_same_turn = True
                if self.seats[s].riichi:
                    self.seats[s].furiten_riichi = True
                    if (self.rules.riichi_violation == "chombo" and not self.seats[s].violation
                            and any(a.type == "hora" for a in acts)):
                        self.seats[s].violation = "passed_win"  # P80 (CLUB): 見逃し after riichi
        if rons:
            if not self.rules.double_ron:
                rons = rons[:1]  # head bump (P88)
            if window == "kakan" and self.rules.kan_dora_on_chankan and self.rules.kan_dora_open == "immediate":
                self._reveal_kan_dora()
            self._settle_wins(rons, discarder=seat, tile=tile, chankan=window in ("kakan", "ankan"),
                              kita_ron=window == "kita")
            return
        call = next((responses[s] for s in _turn_order(seat) if responses.get(s)
                     and responses[s].type in ("pon", "daiminkan")), None)
        if window == "dahai":
            if call is None:
                self._discard_passed(seat)
            else:
                self._discard_passed(seat, called=True)
                if not self.done:
                    self._do_call(call)
        elif window == "kakan":
            self._kakan_passed(seat)
        elif window == "ankan":
            self._ankan_passed(seat)
        elif window == "kita":
            self._kita_passed(seat)

    def _discard_passed(self, seat: int, called: bool = False) -> None:
        """The discard was not ronned: riichi is accepted, delayed kan dora turn, aborts, next draw."""
        r = self.rules
        if self._riichi_pending == seat:
            self._riichi_pending = None
            self.scores[seat] -= r.riichi_deposit
            self.kyotaku += 1
            self.seats[seat].stick_paid = True
            self.seats[seat].ippatsu = True
            self._emit(ev.ReachAccepted(seat, tuple(self.scores)))
            if r.abort_all_riichi and all(x.riichi for x in self.seats):  # P95
                self._emit(ev.Ryukyoku("all_riichi"))
                self._end_hand_abort("all_riichi")
                return
        if self._pending_kan_dora:
            while self._pending_kan_dora:
                self._pending_kan_dora -= 1
                self._reveal_kan_dora()
        self._kan_discard = False
        if self._discard_count == SEATS and self._first_cycle and r.abort_three_winds:  # P93
            firsts = [self.seats[s].discards[0].tile.kind for s in range(SEATS) if self.seats[s].discards]
            if len(firsts) == SEATS and len(set(firsts)) == 1 and firsts[0] in WINDS:
                self._emit(ev.Ryukyoku("sanfuu_renda"))
                self._end_hand_abort("three_winds")
                return
        if len(self._kans) == 4 and len(set(self._kans)) > 1 and r.abort_four_kans and not called:  # P94
            self._emit(ev.Ryukyoku("suukaikan"))
            self._end_hand_abort("four_kans")
            return
        if called:
            return
        if self.wall.remaining == 0:
            self._exhaustive_draw()
            return
        self._draw((seat + 1) % SEATS)

    def _do_call(self, a: Action) -> None:
        seat = a.actor
        st = self.seats[seat]
        assert a.tile is not None and a.target is not None
        self.seats[a.target].discards[-1].called = True
        self.seats[a.target].nagashi = False
        for x in a.consumed:
            st.remove(x)
        self._break_first_cycle()
        self._emit(ev.Pon(seat, a.target, a.tile, a.consumed) if a.type == "pon"
                  else ev.Daiminkan(seat, a.target, a.tile, a.consumed))
        if a.type == "pon":
            meld = CalledMeld(Meld("pon", (*a.consumed, a.tile)), a.target, a.tile)
        else:
            meld = CalledMeld(Meld("kan", (*a.consumed, a.tile)), a.target, a.tile)
        st.melds.append(meld)
        self._check_pao(seat, a.target, a.tile.kind)
        self._turn = seat
        self._drawn = None
        self._turn_actions = None
        if a.type == "pon":
            self._after_call = True
            self._last_call_kind = a.tile.kind
            self._update_waits(seat)
            return
        self._kans.append(seat)
        self._rinshan_feeder = (seat, a.target)
        if self.rules.kan_dora_open == "immediate":
            self._reveal_kan_dora()
        else:
            self._pending_kan_dora += 1
        self._after_kan(seat)

    def _check_pao(self, seat: int, feeder: int, kind: int) -> None:
        """P97: the player who fed the set completing daisangen / daisuushii (and, where the rules
        say so, the fourth kan of suukantsu) is liable."""
        st = self.seats[seat]
        if "suukantsu" in self.rules.pao_yaku and sum(1 for cm in st.melds if cm.meld.is_kan) == 4:
            st.pao["suukantsu"] = feeder
        kinds = {cm.meld.kind for cm in st.melds}
        if kind in DRAGON_KINDS and all(d in kinds for d in DRAGON_KINDS) and "daisangen" in self.rules.pao_yaku:
            st.pao["daisangen"] = feeder
        if kind in WINDS and all(w in kinds for w in WINDS) and "daisuushii" in self.rules.pao_yaku:
            st.pao["daisuushii"] = feeder

    # ------------------------------------------------------------------------------------------
    # wins
    # ------------------------------------------------------------------------------------------
    def _update_waits(self, seat: int) -> None:
        """Cache the waits of a seat's 3n+1-tile hand (a shanten look-up first: most hands are
        not tenpai)."""
        st = self.seats[seat]
        if sum(st.counts) % 3 != 1:
            return
        four = self.rules.chiitoi_four_of_a_kind
        st.waits = compute_waits(st.counts, four) if shanten_trusted(st.counts, len(st.melds), four) == 0 else ()

    def _score(self, seat: int, tile: Tile, *, tsumo: bool, chankan: bool = False, kita_ron: bool = False,
               discarder: int | None = None, ura: bool = True, situational: bool = True) -> Score:
        """Score ``seat`` winning on ``tile`` now; ``situational=False`` leaves out the yaku of the
        moment (last tile, rinshan, first turn...) — a hand's own yaku, as tenpai tests need."""
        st = self.seats[seat]
        hand = list(st.hand) if tsumo else [*st.hand, tile]
        r = self.rules
        first = situational and self._first_cycle and not st.discards
        haitei = situational and tsumo and self.wall.remaining == 0 and not self._rinshan
        houtei = situational and not tsumo and self.wall.remaining == 0 and self._window == "dahai"
        return score_hand(
            hand, win=tile, melds=[cm.meld for cm in st.melds], tsumo=tsumo, riichi=st.riichi,
            double_riichi=st.double_riichi and r.yaku.get("double_riichi", (0, 0))[0] > 0,
            open_riichi=st.open_riichi, ippatsu=situational and st.ippatsu and self._riichi_pending != seat,
            haitei=haitei, houtei=houtei, rinshan=situational and tsumo and self._rinshan,
            chankan=chankan and not kita_ron,
            kanburi=situational and not tsumo and self._kan_discard and self._window == "dahai",
            tenhou=tsumo and first and seat == self.dealer, chiihou=tsumo and first and seat != self.dealer,
            renhou=not tsumo and first and seat != self.dealer and r.renhou_value != "none",
            open_riichi_deal_in=(not tsumo and discarder is not None and self.seats[discarder].open_riichi is False
                                 and st.open_riichi and not self.seats[discarder].riichi),
            seat_wind=self.seat_wind(seat), round_wind=self.round_wind,
            discarder_wind=None if tsumo or discarder is None else self.seat_wind(discarder),
            dora_indicators=self.wall.dora_indicators,
            ura_indicators=self.wall.ura_indicators if (ura and st.riichi) else (),
            kita=st.kita, flowers=st.flowers, honba=self.honba, kyotaku=self.kyotaku, rules=r,
        )

    def _can_win(self, seat: int, tile: Tile, *, tsumo: bool, chankan: bool = False, kokushi_only: bool = False,
                 discarder: int | None = None) -> bool:
        st = self.seats[seat]
        if tsumo:
            w = st.waits  # computed on the 13-tile hand before this draw
            if tile.kind not in w:
                return False
            r = self.rules
            furiten = st.furiten_riichi or st.furiten_same_turn or bool(st.discarded_kinds & set(w))
            if furiten and not r.furiten_tsumo:
                return False  # P76 (KANSAI): furiten blocks tsumo too
            if st.riichi and furiten and not r.riichi_furiten_tsumo:
                return False  # A002-13: a furiten riichi hand cannot win at all
            if r.same_turn_discard_blocks_tsumo and self._go_around[seat] & set(w):
                return False  # P76 (KANSAI): a winning tile discarded this go-around blocks tsumo
        if not self.rules.dama_allowed and st.closed and not st.riichi:
            return False  # A003-8 flag: no dama wins
        try:
            s = self._score(seat, tile, tsumo=tsumo, chankan=chankan, discarder=discarder, ura=False)
        except SanmaError:
            return False
        if kokushi_only:
            return any(y.name.startswith("kokushi") for y in s.yaku)
        return st.closed or self.rules.atozuke != "sakizuke" or self._yaku_fixed(seat, tile, tsumo)

    def _yaku_fixed(self, seat: int, tile: Tile, tsumo: bool) -> bool:
        """P67 (OFFICIAL 完全先付け, KANSAI 確定1翻縛り): an open hand wins only with a yaku that
        every one of its winning tiles gives (no katagari, no double back, P69). Situational yaku
        (haitei, rinshan, chankan) do not fix a yaku, so each wait is tried as a plain ron."""
        st = self.seats[seat]
        hand = list(st.hand)
        if tsumo:
            hand.remove(tile)
        other = (seat + 1) % SEATS
        for k in st.waits:
            t = Tile(k)
            try:
                score_hand([*hand, t], win=t, melds=[cm.meld for cm in st.melds], seat_wind=self.seat_wind(seat),
                           round_wind=self.round_wind, discarder_wind=self.seat_wind(other), kita=st.kita,
                           flowers=st.flowers, honba=self.honba, rules=self.rules)
            except NotAWinError:
                return False
            except SanmaError:
                continue  # e.g. a fifth copy: that wait cannot be reached
        return True

    def _settle_wins(self, winners: list[int], discarder: int | None, tile: Tile | None, chankan: bool,
                     kita_ron: bool = False) -> None:
        assert tile is not None
        r = self.rules
        if r.riichi_violation == "chombo":
            # P80 (CLUB) 「逆に本人がツモ上がりして発覚したらチョンボとなる」: the win reveals it.
            revealed = [(w, self.seats[w].violation) for w in winners if self.seats[w].violation]
            if revealed:
                self._chombo(revealed)
                return
        tsumo = discarder is None
        scores = [self._score(w, tile, tsumo=tsumo, chankan=chankan, kita_ron=kita_ron, discarder=discarder)
                  for w in winners]
        hora = Hora(tuple(self._win_of(w, s) for w, s in zip(winners, scores, strict=True)), discarder)
        paid = settle_hora(r, hora, scores=self.scores, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku)
        running = list(self.scores)
        for part, s in zip(paid.wins, scores, strict=True):
            w = part.seat
            for x in range(SEATS):
                running[x] += part.deltas[x]
            ura = tuple(self.wall.ura_indicators) if self.seats[w].riichi else ()
            self._emit(ev.Hora(w, w if discarder is None else discarder, tile, s.han, s.fu, s.yakuman, s.yaku,
                               s.total, s.limit, ura, tuple(self.seats[w].hand), part.deltas, tuple(running),
                               part.pao))
        self._apply_settlement(paid)
        self._emit(ev.EndKyoku(paid.deltas, tuple(self.scores)))
        self._finish_hand(hora, HandResult("hora", tuple(winners), dealer_continues=self._renchan(hora),
                                           deltas=paid.deltas, scores=tuple(scores)), paid.bust_by)

    def _win_of(self, w: int, s: Score) -> Win:
        """The payout's view of seat ``w``'s win: liable seats (P97), what the chips need (P115-P119)."""
        st = self.seats[w]
        r = self.rules
        pao: list[Pao] = []
        feeder = self._rinshan_feeder
        if feeder is not None and feeder[0] == w:
            pao.append(Pao(feeder[1], RINSHAN_PAO))
        pao.extend(Pao(seat, name) for name, seat in st.pao.items())
        tiles = list(st.hand) + [t for cm in st.melds for t in cm.meld.tiles]
        ura_tiles: int | None = None
        if r.chips and r.ura_chip_count == "per_tile" and st.riichi:  # A000-25: physical tiles held
            ura_tiles = ura_tiles_held(self.wall.ura_indicators, tiles)
        return Win(w, s, tuple(pao), closed=st.closed, ura_tiles=ura_tiles, chinitsu_shape=one_suit(tiles),
                   chip_flowers=st.chip_flowers)

    def _apply_settlement(self, paid: Settlement) -> None:
        for x in range(SEATS):
            self.scores[x] += paid.deltas[x]
            self.chips[x] += paid.chips[x]
        self.kyotaku = paid.kyotaku

    # ------------------------------------------------------------------------------------------
    # draws
    # ------------------------------------------------------------------------------------------
    def _is_tenpai(self, seat: int) -> bool:
        """Tenpai at an exhaustive draw under the rules' definition (P47)."""
        st = self.seats[seat]
        r = self.rules
        if not st.waits:
            return False
        if not r.tenpai_furiten and (st.discarded_kinds & set(st.waits) or st.furiten_riichi):
            return False
        if not r.tenpai_karaten:
            visible = self._visible_counts(seat)
            if all(st.counts[k] + visible[k] >= 4 for k in st.waits):
                return False
        if r.tenpai_needs_yaku and not st.riichi:
            for k in st.waits:
                t = Tile(k)
                try:
                    self._score(seat, t, tsumo=False, discarder=(seat + 1) % SEATS, ura=False, situational=False)
                    return True
                except SanmaError:
                    pass
                st.add(t)
                try:
                    self._score(seat, t, tsumo=True, ura=False, situational=False)
                    return True
                except SanmaError:
                    pass
                finally:
                    st.remove(t)
            return False
        return True

    def _visible_counts(self, seat: int) -> list[int]:
        c = [0] * NUM_KINDS
        for s in self.seats:
            for d in s.discards:
                c[d.tile.kind] += 1
            for cm in s.melds:
                for t in cm.meld.tiles:
                    c[t.kind] += 1
            c[NORTH] += s.kita
        for t in self.wall.dora_indicators:
            c[t.kind] += 1
        return c

    def _exhaustive_draw(self) -> None:
        r = self.rules
        # P80 / P102: the hands shown at the draw reveal every riichi violation (nobody won first).
        revealed = [(s, self.seats[s].violation) for s in range(SEATS) if self.seats[s].violation]
        if revealed:
            self._chombo(revealed)
            return
        tenpai = [s for s in range(SEATS) if self._is_tenpai(s)]
        nagashi = [s for s in range(SEATS) if self.seats[s].nagashi and self.seats[s].discards] \
            if r.nagashi != "none" else []
        draw = ExhaustiveDraw(tuple(tenpai), tuple(nagashi))
        paid = settle_draw(r, draw, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku)
        if nagashi and r.nagashi_is_win:  # A000-3, A002-18, A003-12: nagashi as a tsumo win
            self._emit(ev.Ryukyoku("nagashi", nagashi=tuple(nagashi)))
            self._apply_settlement(paid)
            self._emit(ev.EndKyoku(paid.deltas, tuple(self.scores)))
            self._finish_hand(draw, HandResult("hora", tuple(nagashi), dealer_continues=self._renchan(draw),
                                               deltas=paid.deltas, reason="nagashi"))
            return
        self._apply_settlement(paid)
        deltas = paid.deltas
        self._emit(ev.Ryukyoku("exhaustive", tenpai=tuple(tenpai),
                               tehais=tuple(tuple(self.seats[s].hand) if s in tenpai else () for s in range(SEATS)),
                               deltas=deltas, scores=tuple(self.scores)))
        self._emit(ev.EndKyoku(deltas, tuple(self.scores)))
        self._finish_hand(draw, HandResult("ryukyoku", tenpai=tuple(tenpai), dealer_continues=self._renchan(draw),
                                           deltas=tuple(deltas), reason="exhaustive"))

    def _chombo(self, offenders: list[tuple[int, str]]) -> None:
        """P100-P102: settle a chombo found in this hand; ``offenders`` are (seat, reason) pairs.

        The riichi sticks placed in the hand go back to their owners (P101); each offender pays the
        penalty (a reversed mangan / haneman tsumo, A000-14, or rank points at the end); the hand
        is replayed or the deal moves as ``chombo_deal`` says (A003-7).
        """
        r = self.rules
        sticks = tuple(s for s in range(SEATS) if self.seats[s].stick_paid)
        for s in sticks:
            self.seats[s].stick_paid = False
        chombo = Chombo(tuple(Offence(s, why) for s, why in offenders), sticks)
        paid = settle_chombo(r, chombo, dealer=self.dealer, kyotaku=self.kyotaku)
        running = [self.scores[x] + paid.refund[x] for x in range(SEATS)]
        for (seat, reason), d in zip(offenders, paid.offences, strict=True):
            for x in range(SEATS):
                running[x] += d[x]
            self.chombos[seat] += 1
            self._emit(ev.Chombo(seat, reason, d, tuple(running)))
        self._apply_settlement(paid)
        self._emit(ev.EndKyoku(paid.deltas, tuple(self.scores)))
        self._finish_hand(chombo, HandResult("chombo", offenders=tuple(s for s, _ in offenders),
                                             dealer_continues=self._renchan(chombo), deltas=paid.deltas,
                                             reason=offenders[0][1]))

    def _riichi_bust(self, seat: int) -> None:
        """P79 / A000-19 (CLUB) 「1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、
        箱割れチップは両者に払う」: the hand stops at the declaration (no stick, no discard) and the
        declarer is bust, owing both other players (``payout.RiichiBust``, settled by payout)."""
        bust = RiichiBust(seat, opening=self._opening_hand())
        paid = settle(self.rules, bust, scores=self.scores, dealer=self.dealer, honba=self.honba,
                      kyotaku=self.kyotaku)
        self._emit(ev.RiichiBust(seat, tuple(self.scores)))
        self._apply_settlement(paid)
        self._emit(ev.EndKyoku(paid.deltas, tuple(self.scores)))
        # the game ends (bust_ends_game) or the hand is replayed (dealer stays): flow decides
        self._finish_hand(bust, HandResult("abort", offenders=(seat,), dealer_continues=self._renchan(bust),
                                           reason="riichi_bust"), paid.bust_by)

    def _opening_hand(self) -> bool:
        """East 1 of the first lap (P112's early bust)."""
        return flow.is_opening_hand(self.round_index, self.kyoku_in_round)

    def _end_hand_abort(self, reason: str) -> None:
        self._emit(ev.EndKyoku((0, 0, 0), tuple(self.scores)))
        abort = AbortiveDraw(reason)
        self._finish_hand(abort, HandResult("abort", dealer_continues=self._renchan(abort), reason=reason))

    # ------------------------------------------------------------------------------------------
    # between hands (game/flow.py decides)
    # ------------------------------------------------------------------------------------------
    def _renchan(self, outcome: Outcome) -> bool:
        return flow.dealer_continues(self.rules, self.round_index, self.dealer, outcome)

    def _table(self) -> flow.TableState:
        return flow.TableState(tuple(self.scores), self.round_index, self.kyoku_in_round, self.honba, self.kyotaku,
                               tuple(self.chips), tuple(self.chombos), self.hand_number)

    def _finish_hand(self, outcome: Outcome, res: HandResult, bust_by: tuple[int, ...] = ()) -> None:
        """End the hand (its payments applied): the next hand, or the end of the game (flow.advance)."""
        self.hand_results.append(res)
        self._pending, self._responses = {}, {}
        end = flow.advance(self.rules, self._table(), outcome, bust_by=bust_by, max_hands=self.max_hands)
        st = end.state
        self.round_index, self.kyoku_in_round, self.honba, self.hand_number = (
            st.round_index, st.dealer, st.honba, st.hand_number)
        if end.over:
            self.busted, self.busters = list(end.busted), list(end.busters)
            self._end_game(end)
            return
        self._start_hand()

    def _is_last_hand(self) -> bool:
        return flow.is_last_hand(self.rules, self.round_index, self.kyoku_in_round)

    def _is_bust(self, score: int) -> bool:
        return is_bust(self.rules, score)

    def _end_game(self, end: flow.HandEnd) -> None:
        self.end_reason = end.reason
        self.result = flow.final(self.rules, end)
        self.scores = list(self.result.scores)
        if self.rules.leftover_riichi == "top":
            self.kyotaku = 0
        self.done = True
        self._emit(ev.EndGame(self.result.scores, self.result.ranks, self.result.points, end.reason,
                              self.result.chips))

    # ------------------------------------------------------------------------------------------
    # helpers
    # ------------------------------------------------------------------------------------------
    def _emit(self, e: ev.Event) -> None:
        """Record one event (its mjai form: ``Game.events`` holds dicts, sanma.events builds them)."""
        self.events.append(e.to_mjai())
        self._turn_actions = None

    def _why_illegal(self, a: Action, legal: tuple[Action, ...]) -> str:
        where = f"{self.round_wind}-{self.kyoku_in_round + 1}, {self.honba} honba"
        if not legal:
            return f"illegal {a} in {where}: it is not seat {a.actor}'s move (waiting for {list(self.to_move)})"
        same = [x for x in legal if x.type == a.type]
        if not same:
            kinds = sorted({x.type for x in legal})
            return f"illegal {a} in {where}: seat {a.actor} may only {', '.join(kinds)} now"
        if a.type in ("dahai", "reach") and a.tile is not None and not self.seats[a.actor].counts[a.tile.kind]:
            return f"illegal {a} in {where}: {a.tile} is not in seat {a.actor}'s hand"
        if a.type == "dahai" and self.seats[a.actor].riichi:
            return f"illegal {a} in {where}: after riichi only the drawn tile may be discarded"
        if a.type == "dahai" and self._after_call and a.tile is not None and a.tile.kind == self._last_call_kind:
            return f"illegal {a} in {where}: kuikae (discarding the tile just called) is forbidden (P72)"
        return f"illegal {a} in {where}: legal {a.type} actions are {[str(x) for x in same]}"


@cache
def _dahai(seat: int, tile: Tile, tsumogiri: bool) -> Action:
    """Discard actions are immutable and few: build each once."""
    return Action("dahai", seat, tile, tsumogiri=tsumogiri)


def _turn_order(discarder: int) -> list[int]:
    return [(discarder + i) % SEATS for i in (1, 2)]


def _pairs(hand: list[Tile], kind: int) -> list[tuple[Tile, Tile]]:
    """Distinct pairs of ``kind`` a pon can consume (a red five makes two choices)."""
    tiles = sorted(t for t in hand if t.kind == kind)
    out: list[tuple[Tile, Tile]] = []
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            p = (tiles[i], tiles[j])
            if p not in out:
                out.append(p)
    return out

