"""The game engine: three seats play a whole game under any ``Rules``, as one event stream.

Every change of state is an event of :mod:`sanma.events` (mjai's, with sanma's extensions: ``kita``,
``flower``, three scores): ``Game.log`` holds them typed, ``Game.events`` their mjai dicts. Seats
act through ``legal_actions(seat)`` / ``apply(action)``; after a discard every seat
that may call or win has an explicit choice window (``pending``), so a person at a browser
answers "pon?" through the same API as a bot.

>>> from sanma.rules import Rules
>>> g = Game(Rules.preset("tenhou"), seed=1)
>>> g.events[0]["type"], g.events[1]["type"], g.to_move
('start_game', 'start_kyoku', (0,))
>>> g.log[1].oya, g.events[1] == g.log[1].to_mjai()
(0, True)
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
from typing import Any

from mypy_extensions import mypyc_attr

from .. import events as ev
from ..agari import waits as compute_waits
from ..errors import IllegalActionError
from ..hand import Meld
from ..rules.schema import Rules
from ..tiles import NORTH, NUM_KINDS, SEATS, WINDS, YAOCHUU, Tile, seat_wind
from . import flow, legal
from .actions import Action
from .payout import (
    AbortiveDraw,
    Chombo,
    ExhaustiveDraw,
    Hora,
    Offence,
    Outcome,
    RiichiBust,
    Settlement,
    settle,
    settle_chombo,
    settle_draw,
    settle_hora,
)
from .seat import CalledMeld, Discard, HandResult, SeatState
from .settle import FinalResult, riichi_bust
from .view import SeatView, public_events, seat_view, spectator_view
from .wall import Wall, hand_wall
from .winning import Situation, pao_completed, score_win, win_facts

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

    ``hold`` (the server's tables) stops the game at every call window, also one that no seat may
    answer, and at the end of every hand, until ``release()``: what follows (the next draw, the
    next deal, the end of the game) waits for the table's scheduler, so that the window a seat
    is offered a call in looks exactly like one where nobody is, and a hand's result can be read
    before the next deal. The events are the same as without it.

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
    _pending_kan_dora: list[str]  # the timing (P12) of each kan whose indicator is still to turn
    _turn_actions: tuple[Action, ...] | None
    _last_discard: tuple[int, Tile] | None
    _window: str
    _window_tile: Tile | None
    _window_seat: int
    _riichi_pending: int | None
    _go_around: list[set[int]]
    _rinshan_feeder: tuple[int, int] | None  # (kan-er, feeder) of a daiminkan until the next discard
    _last_call_kind: int | None = None  # the kind just ponned (kuikae, P72)
    _sit: Situation
    _held: str = ""  # under hold: "window" or "hand" while waiting for release()
    _hand_end: flow.HandEnd | None = None

    def __init__(self, rules: Rules, seed: int | str = 0, *, walls: WallFactory | None = None,
                 names: Sequence[str] = ("A", "B", "C"), scores: Sequence[int] | None = None,
                 max_hands: int = 200, round_index: int = 0, kyoku: int = 0, honba: int = 0,
                 kyotaku: int = 0, table_mistakes: bool = False, wall_key: bytes | None = None,
                 hold: bool = False) -> None:
        self.rules = rules
        self.hold = hold
        self.table_mistakes = table_mistakes
        self.chombos = [0] * SEATS  # chombo count per seat (rank points at the end, P100)
        self.seed = seed  # published after the game, never sent during it
        self.wall_key = wall_key  # the same
        self._walls = walls
        self.names = tuple(names)
        self.max_hands = max_hands  # a safety net for degenerate play (e.g. bots that never win)
        self.scores = list(scores) if scores is not None else [rules.start_points] * SEATS
        self.chips = [0] * SEATS
        # the game's events: ``log`` typed (sanma.events), the record of the game; ``events`` their
        # mjai dicts, derived as each is logged (what readers of the stream, the store and the README take)
        self.log: list[ev.Event] = []
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
        if self.done or self._held:
            return ()
        if self._pending:
            return tuple(s for s in sorted(self._pending) if s not in self._responses)
        return (self._turn,)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Everything ``seat`` may do now (empty when it is not that seat's move)."""
        if self.done or self._held:
            return ()
        if self._pending:
            if seat in self._responses:
                return ()
            return self._pending.get(seat, ())
        if seat != self._turn:
            return ()
        if self._turn_actions is None:
            self._turn_actions = legal.turn_actions(
                self._situation(), seat, drawn=self._drawn, after_call=self._after_call,
                last_call_kind=self._last_call_kind, kans=len(self._kans), score=self.scores[seat],
                go_around=self._go_around[seat], table_mistakes=self.table_mistakes)
        return self._turn_actions

    def apply(self, action: Action) -> None:
        """Carry out ``action``; raises ``IllegalActionError`` naming the rule when it is not legal."""
        if self.done:
            raise IllegalActionError(f"{action}: the game is over")
        offered = self.legal_actions(action.actor)
        if not any(a is action for a in offered) and action not in offered:
            where = f"{self.round_wind}-{self.kyoku_in_round + 1}, {self.honba} honba"
            raise IllegalActionError(legal.why_illegal(action, offered, where=where, st=self.seats[action.actor],
                                                       after_call=self._after_call,
                                                       last_call_kind=self._last_call_kind, to_move=self.to_move))
        if self._pending:
            self._responses[action.actor] = action
            if len(self._responses) == len(self._pending):
                self._resolve_responses()
            return
        self._do_turn_action(action)

    @property
    def held(self) -> str:
        """Under ``hold``: ``"window"`` while a call window that no seat may answer is open, ``"hand"``
        while a finished hand waits for the next deal (or the end of the game); else ``""``."""
        return self._held

    @property
    def ends_game(self) -> bool:
        """Held at a hand's end after which the game is over: ``release()`` ends it (the hand's result
        is the last one; the table shows it before the final settlement)."""
        return self._held == "hand" and self._hand_end is not None and self._hand_end.over

    def release(self) -> None:
        """Go on from a held window or hand end: exactly what the game does at once without ``hold``."""
        held, self._held = self._held, ""
        if held == "window":
            self._resolve_responses()  # nobody was asked: the window passes
        elif held == "hand":
            end, self._hand_end = self._hand_end, None
            assert end is not None
            self._next_hand(end)
        else:
            raise IllegalActionError("release(): the game is not held")

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
        return public_events(self.log, seat, 0, self.events)

    def furiten(self, seat: int, tile: Tile | None = None, *, discard: Tile | None = None) -> bool:
        """Whether ``seat`` may not ron (``tile``, or any of its waits): ``legal.furiten`` (P75, P78).
        With ``discard``: whether it would be furiten by its river after discarding that tile (its
        waits then; a win let pass under riichi still counts, one let pass this turn no longer)."""
        st = self.seats[seat]
        if discard is None:
            return legal.furiten(self.rules, st, tile)
        c = list(st.counts)
        c[discard.kind] -= 1
        if sum(c) % 3 != 1:
            return False
        waits = compute_waits(c, self.rules.chiitoi_four_of_a_kind)
        return st.furiten_riichi or legal.river_furiten(self.rules, waits, st.discarded_kinds | {discard.kind},
                                                        discard.kind, tile)

    def _situation(self) -> Situation:
        """The facts of this moment the win evaluation reads (``game/winning.py``): one value per
        hand (``_start_hand``), its changing facts refreshed here — no allocation per turn."""
        sit = self._sit
        sit.kyotaku = self.kyotaku
        sit.first_cycle = self._first_cycle
        sit.rinshan = self._rinshan
        sit.window = self._window
        sit.kan_discard = self._kan_discard
        sit.riichi_pending = self._riichi_pending
        return sit

    def _update_waits(self, seat: int) -> None:
        legal.update_waits(self.rules, self.seats[seat])

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
        self._pending_kan_dora = []
        self._turn_actions = None
        self._last_discard = None
        self._window = ""  # "dahai" | "kakan" | "ankan" | "kita"
        self._window_tile = None
        self._window_seat = self.dealer
        self._riichi_pending = None
        self._go_around = [set() for _ in range(SEATS)]  # kinds others discarded since my last discard
        self._rinshan_feeder = None
        # the hand's fixed facts for the win evaluation (flow.round_wind is not compiled: once a hand)
        self._sit = Situation(self.rules, self.seats, self.wall, dealer=self.dealer, round_wind=self.round_wind,
                              honba=self.honba, kyotaku=self.kyotaku, first_cycle=True, rinshan=False, window="",
                              kan_discard=False, riichi_pending=None)
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
            self._emit(ev.Tsumo.of(seat, t, True))
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
        self._emit(ev.Tsumo.of(seat, t, replacement))
        if t.is_flower:
            self._pull_flowers(seat)
            self._rinshan = self.rules.flower_replacement_is_rinshan

    # ------------------------------------------------------------------------------------------
    # turn actions
    # ------------------------------------------------------------------------------------------
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
                st.violation = legal.riichi_violation(
                    self.rules, st, a.tile, honba=self.honba, seat_wind=self.seat_wind(seat),
                    round_wind=self.round_wind, other_wind=self.seat_wind((seat + 1) % SEATS),
                    dora_indicators=self.wall.dora_indicators)
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
            self._reveal_pending_kan_dora("with_discard")  # P12 (Tenhou): so does a further kan
            # Kokushi may rob an ankan where the rules allow it (P127); a robbed kan turns no
            # kan dora (the Mahjong Soul record of such a win shows none).
            if self.rules.chankan_on_ankan == "kokushi":
                self._open_window("ankan", seat, Tile(kind), kokushi_only=True)
                if self._pending or self._hold_window():
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
                self._pao(seat, old.target, a.tile.kind)
            self._kans.append(seat)
            self._break_first_cycle()
            self._emit(ev.Kakan(seat, a.tile, a.consumed))
            self._reveal_pending_kan_dora("with_discard")  # P12 (Tenhou): a further kan turns it
            self._update_waits(seat)
            self._open_window("kakan", seat, a.tile)  # chankan (Y12)
            if self._pending or self._hold_window():
                return
            self._kakan_passed(seat)
            return
        if t == "kita":
            north = next(x for x in st.hand if x.kind == NORTH)
            st.remove(north)
            st.kita += 1
            self._emit(ev.Kita(seat))
            self._reveal_pending_kan_dora("with_discard")  # P12 (Tenhou): a kita turns it too
            self._update_waits(seat)
            if self.rules.ron_on_kita:
                self._open_window("kita", seat, north)
                if self._pending or self._hold_window():
                    return
            self._kita_passed(seat)
            return
        raise IllegalActionError(f"{a}: not a turn action")  # pragma: no cover

    def _ankan_passed(self, seat: int) -> None:
        self._kan_dora_at_kan(self.rules.kan_dora_ankan)
        self._after_kan(seat)

    def _kita_passed(self, seat: int) -> None:
        if self.rules.kita_breaks_first_turn:
            self._break_first_cycle()  # P17
        self._draw(seat, replacement=True)
        self._rinshan = self.rules.kita_replacement_is_rinshan  # P18

    def _kakan_passed(self, seat: int) -> None:
        self._kan_dora_at_kan(self.rules.kan_dora_open)
        self._after_kan(seat)

    def _kan_dora_at_kan(self, timing: str) -> None:
        """A kan's new indicator (P12): turned now, or kept for its later moment."""
        if timing == "immediate":
            self._reveal_kan_dora()
        else:
            self._pending_kan_dora.append(timing)

    def _reveal_pending_kan_dora(self, *timings: str) -> None:
        """Turn the waiting indicators of the kans whose timing (P12) is one of ``timings`` (all
        of them when none is named), in the order of the kans."""
        if not self._pending_kan_dora:
            return
        keep = []
        for timing in self._pending_kan_dora:
            if not timings or timing in timings:
                self._reveal_kan_dora()
            else:
                keep.append(timing)
        self._pending_kan_dora = keep

    def _after_kan(self, seat: int) -> None:
        self._draw(seat, replacement=True)
        self._rinshan = True
        self._kan_discard = True
        self._reveal_pending_kan_dora("before_discard")  # a rinshan win counts it

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
        self._emit(ev.Dahai.of(seat, tile, tsumogiri))
        self._reveal_pending_kan_dora("with_discard")  # P12 (Tenhou): a ron on this discard counts it
        self._update_waits(seat)
        if riichi and st.open_riichi and st.violation and self.rules.riichi_violation == "chombo":
            # P80 (CLUB) 「オープンリーチの場合は、掛けた時点で発覚したものとし、その時点で成立とする」
            self._chombo([(seat, st.violation)])
            return
        self._open_window("dahai", seat, tile)
        if not self._pending and not self._hold_window():
            self._discard_passed(seat)

    def _open_window(self, kind: str, seat: int, tile: Tile, kokushi_only: bool = False) -> None:
        """Offer every other seat its choices on ``tile`` (ron, pon, kan, pass)."""
        self._window = kind
        self._window_tile = tile
        self._window_seat = seat
        self._pending = {}
        self._responses = {}
        sit = self._situation()
        for other in range(SEATS):
            if other != seat:
                acts = legal.response_actions(sit, other, tile, kind, discarder=seat, kokushi_only=kokushi_only,
                                              kans=len(self._kans))
                if acts:
                    self._pending[other] = acts

    def _hold_window(self) -> bool:
        """Under ``hold`` a window nobody may answer stays open until ``release()``."""
        if self.hold:
            self._held = "window"
        return self.hold

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
        self._reveal_pending_kan_dora()  # every kan dora still waiting turns once the discard passes (P12)
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
        self._pao(seat, a.target, a.tile.kind)
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
        self._kan_dora_at_kan(self.rules.kan_dora_open)
        self._after_kan(seat)

    def _pao(self, seat: int, feeder: int, kind: int) -> None:
        for name in pao_completed(self.rules, self.seats[seat].melds, kind):
            self.seats[seat].pao[name] = feeder  # P97: the feeder of the completing set is liable

    # ------------------------------------------------------------------------------------------
    # wins
    # ------------------------------------------------------------------------------------------
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
        sit = self._situation()
        scores = [score_win(sit, w, tile, tsumo=tsumo, chankan=chankan, kita_ron=kita_ron, discarder=discarder)
                  for w in winners]
        hora = Hora(tuple(win_facts(r, self.seats[w], w, s, self.wall.ura_indicators, self._rinshan_feeder)
                          for w, s in zip(winners, scores, strict=True)), discarder)
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

    def _apply_settlement(self, paid: Settlement) -> None:
        for x in range(SEATS):
            self.scores[x] += paid.deltas[x]
            self.chips[x] += paid.chips[x]
        self.kyotaku = paid.kyotaku

    # ------------------------------------------------------------------------------------------
    # draws
    # ------------------------------------------------------------------------------------------
    def _exhaustive_draw(self) -> None:
        r = self.rules
        # P80 / P102: the hands shown at the draw reveal every riichi violation (nobody won first).
        revealed = [(s, self.seats[s].violation) for s in range(SEATS) if self.seats[s].violation]
        if revealed:
            self._chombo(revealed)
            return
        sit = self._situation()
        tenpai = [s for s in range(SEATS) if legal.is_tenpai(sit, s)]
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
        if self.hold:
            self._held, self._hand_end = "hand", end
            return
        self._next_hand(end)

    def _next_hand(self, end: flow.HandEnd) -> None:
        st = end.state
        self.round_index, self.kyoku_in_round, self.honba, self.hand_number = (
            st.round_index, st.dealer, st.honba, st.hand_number)
        if end.over:
            self.busted, self.busters = list(end.busted), list(end.busters)
            self._end_game(end)
            return
        self._start_hand()

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
        """Log one event (``log``) and its mjai dict (``events``)."""
        self.log.append(e)
        self.events.append(e.to_mjai())
        self._turn_actions = None



def _turn_order(discarder: int) -> list[int]:
    return [(discarder + i) % SEATS for i in (1, 2)]

