"""The common model of a recorded game, whatever file format it came from.

Every reader (:mod:`sanma.formats.tenhou`, :mod:`~sanma.formats.majiang`, :mod:`~sanma.formats.mjai`)
produces a :class:`GameRecord`: small frozen values, tiles as :class:`sanma.tiles.Tile` in events
and mpsz strings in :class:`RecordedWin` (the form ``sanma.score_hand`` takes). Seats are
``0..2``; winds are ``"E"``/``"S"``/``"W"``.

>>> w = RecordedWin(seat=1, from_seat=2, tsumo=False, hand="123p456p789s99m11z", win="9m",
...                 seat_wind="S", round_wind="E", discarder_wind="W", han=1, fu=40, points=1300,
...                 yaku=(("yakuhai", 1),), deltas=(0, 1300, -1300))
>>> w.deltas_by_wind(dealer=0)
{'E': 0, 'S': 1300, 'W': -1300}
>>> sorted(w.score_kwargs())[:4]
['chankan', 'chiihou', 'discarder_wind', 'dora_indicators']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import events as ev
from ..errors import RecordError
from ..i18n.messages import sentence
from ..rules.schema import Rules
from ..scoring import basic_points
from ..tiles import NORTH, Tile, seat_wind

NORTH_TILE = Tile(NORTH)
LIMITS = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
#: The rules a record's han and fu are read under when it names no limit (``limit_from_han_fu``).
USUAL_RULES = Rules()


def kyoku_label(round_wind: str, dealer: int, honba: int) -> str:
    """``E1``, ``S3-2`` ...: the name used in messages and test ids (dealer 0 deals kyoku 1)."""
    return f"{round_wind}{dealer + 1}" + (f"-{honba}" if honba else "")


def limit_from_han_fu(han: int, fu: int | None, yakuman: int = 0) -> str | None:
    """The usual limit name for ``han``/``fu`` (the default rules: no kiriage, kazoe from 13 han):
    used when a format does not say. The thresholds are ``scoring.basic_points`` (P55, P57, P59).

    >>> limit_from_han_fu(4, 40), limit_from_han_fu(4, 30), limit_from_han_fu(13, 30, 0)
    ('mangan', None, 'yakuman')
    >>> limit_from_han_fu(5, None), limit_from_han_fu(3, None), limit_from_han_fu(0, None, 2)
    ('mangan', None, 'yakuman')
    """
    if yakuman:
        return "yakuman"
    return basic_points(han, fu or 0, USUAL_RULES)[1]


# --------------------------------------------------------------------------------------------
# Events. Each is a small frozen value; a kyoku's ``events`` is their sequence in play order.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    tile: Tile
    replacement: bool = False  # drawn from the dead wall after a kan or a kita


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    tile: Tile
    tsumogiri: bool = False
    riichi: bool = False  # the discard that declares riichi
    open_riichi: bool = False  # ... as open riichi (club rules; sanma's own records)


@dataclass(frozen=True, slots=True)
class Pon:
    seat: int
    from_seat: int
    tile: Tile  # the called tile
    tiles: tuple[Tile, ...]  # all three


@dataclass(frozen=True, slots=True)
class Daiminkan:
    seat: int
    from_seat: int
    tile: Tile
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Kakan:
    seat: int
    tile: Tile  # the added tile
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Ankan:
    seat: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Kita:
    seat: int
    tile: Tile = NORTH_TILE


@dataclass(frozen=True, slots=True)
class Flower:
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class RiichiAccepted:
    seat: int


@dataclass(frozen=True, slots=True)
class DoraRevealed:
    indicator: Tile


@dataclass(frozen=True, slots=True)
class Win:
    seat: int
    from_seat: int  # == seat for tsumo
    tile: Tile


@dataclass(frozen=True, slots=True)
class DrawResult:
    """A kyoku that ended without a win: ``kind`` is ``exhaustive``, ``kyuushu``, ``four_kans``,
    ``nagashi`` ... and ``deltas`` the per-seat score changes (noten payments). ``voided_by``: the
    sanma extension events that ended a ``chombo`` hand (one ``chombo`` per offender, with its
    reason and payment, P100-P102) or a ``riichi_bust`` one (P79), as a record of sanma's has them."""

    kind: str
    deltas: tuple[int, ...]
    tenpai: tuple[int, ...] = ()
    voided_by: tuple[ev.Chombo | ev.RiichiBust, ...] = ()


Event = Draw | Discard | Pon | Daiminkan | Kakan | Ankan | Kita | Flower | RiichiAccepted | DoraRevealed | Win


# --------------------------------------------------------------------------------------------
# Wins
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordedWin:
    """One recorded win with everything needed to score it again, and what the record says.

    ``hand`` is the concealed part in mpsz, winning tile included; ``melds`` use sanma's meld
    notation (``pon:555z``, ``kan:1111p`` for daiminkan and kakan, ``ankan:9999s``); kita are
    counted in ``kita``, not listed as melds. ``yaku`` are sanma yaku names with han as the record
    gives them (Tenhou folds kita into ``dora``; Mahjong Soul lists ``kita_dora``). ``points``
    is what the winner receives before honba and riichi sticks; ``deltas`` are the recorded
    per-seat score changes including honba and sticks (for one winner of a double ron, only
    that winner's payments when the record separates them). ``fu`` is None when the record
    does not give it (tenhou.net/6 JSON limit hands). ``yakuman`` is the multiplier of the
    listed yakuman (0 for ordinary yaku, also for a counted yakuman: see ``kazoe``); for yakuman
    wins ``han`` is 0 and each yaku's number is its yakuman multiplier.
    """

    seat: int
    from_seat: int
    tsumo: bool
    hand: str
    win: str
    seat_wind: str
    round_wind: str
    discarder_wind: str | None = None
    melds: tuple[str, ...] = ()
    kita: int = 0
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    dora_indicators: tuple[str, ...] = ()
    ura_indicators: tuple[str, ...] = ()
    honba: int = 0
    kyotaku: int = 0
    han: int = 0
    fu: int | None = None
    yaku: tuple[tuple[str, int], ...] = ()
    yakuman: int = 0
    limit: str | None = None
    points: int = 0
    deltas: tuple[int, ...] = ()
    pao_seat: int | None = None
    ron_on_kita: bool = False  # the winning tile is a North just pulled by the discarder
    source: str = ""
    kyoku: str = ""  # label such as "S2-1"
    kyoku_index: int = 0  # position of the kyoku in the game record
    dealer: int = 0
    # False: the record gives the win and its payments only, no han, fu, yaku or limit (standard
    # mjai ``hora``, as Mortal and mjai.app write it): those are not compared, only the payments
    scored: bool = True

    def score_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``sanma.score_hand(self.hand, rules=..., **kwargs)``."""
        return {
            "win": self.win, "melds": self.melds, "tsumo": self.tsumo, "riichi": self.riichi,
            "ippatsu": self.ippatsu, "double_riichi": self.double_riichi, "haitei": self.haitei,
            "houtei": self.houtei, "rinshan": self.rinshan, "chankan": self.chankan,
            "tenhou": self.tenhou, "chiihou": self.chiihou, "seat_wind": self.seat_wind,
            "round_wind": self.round_wind, "discarder_wind": self.discarder_wind,
            "dora_indicators": self.dora_indicators, "ura_indicators": self.ura_indicators,
            "kita": self.kita, "honba": self.honba, "kyotaku": self.kyotaku,
        }

    def deltas_by_wind(self, dealer: int | None = None) -> dict[str, int]:
        """The recorded deltas keyed by seat wind (``E`` is the dealer)."""
        d = self.dealer if dealer is None else dealer
        return {seat_wind(s, d): v for s, v in enumerate(self.deltas)}

    @property
    def kazoe(self) -> bool:
        """A counted yakuman: 13+ han of ordinary yaku, paid as one yakuman (P59, Y50)."""
        return self.yakuman == 0 and self.limit == "yakuman"

    @property
    def test_id(self) -> str:
        """``<file stem>:<kyoku>:<winner seat>`` for parametrized tests."""
        stem = self.source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        return f"{stem}:{self.kyoku_index:02d}-{self.kyoku}:seat{self.seat}"


Result = RecordedWin | DrawResult


@dataclass(frozen=True, slots=True)
class KyokuRecord:
    round_wind: str
    dealer: int
    honba: int
    kyotaku: int
    start_scores: tuple[int, ...]
    dora_indicators: tuple[Tile, ...]  # the first indicator, then kan dora in order
    ura_indicators: tuple[Tile, ...] = ()
    initial_hands: tuple[tuple[Tile, ...], ...] = ()
    events: tuple[Event, ...] = ()
    results: tuple[Result, ...] = ()
    initial_indicators: int = 1  # dora indicators turned at the deal (2 on doubles under P07)

    @property
    def label(self) -> str:
        return kyoku_label(self.round_wind, self.dealer, self.honba)

    @property
    def wins(self) -> tuple[RecordedWin, ...]:
        return tuple(r for r in self.results if isinstance(r, RecordedWin))

    @property
    def riichi_count(self) -> int:
        """Riichi declarations accepted (deposit paid) in this kyoku."""
        return sum(1 for e in self.events if isinstance(e, RiichiAccepted))

    def score_deltas(self) -> tuple[int, ...]:
        """Sum of all results' deltas, per seat."""
        n = len(self.start_scores)
        total = [0] * n
        for r in self.results:
            for s, v in enumerate(r.deltas[:n]):
                total[s] += v
        return tuple(total)

    def end_scores(self) -> tuple[int, ...]:
        """start + deltas - riichi deposits paid in this kyoku."""
        paid = [0] * len(self.start_scores)
        for e in self.events:
            if isinstance(e, RiichiAccepted):
                paid[e.seat] += 1000
        return tuple(s + d - p for s, d, p in zip(self.start_scores, self.score_deltas(), paid, strict=True))


@dataclass(frozen=True, slots=True)
class GameRecord:
    source: str
    format: str  # "mjlog", "tenhou6", "majiang", "mjai"
    rule_name: str = ""
    rule_flags: tuple[tuple[str, Any], ...] = ()
    players: tuple[str, ...] = ()
    start_scores: tuple[int, ...] = ()
    kyoku: tuple[KyokuRecord, ...] = ()
    final_scores: tuple[int, ...] | None = None
    final_points: tuple[float, ...] | None = None
    complete: bool = True
    errors: tuple[str, ...] = field(default=())
    # Tenhou's wall seed: the game's <SHUFFLE seed> (mt19937ar-sha512 form), or, in the 2009 form,
    # one INIT shuffle="mt19937ar,..." per kyoku (empty where a kyoku has none).
    shuffle_seed: str = ""
    kyoku_seeds: tuple[str, ...] = ()
    # The yaku lists count pulled Norths inside the ``dora`` line, as Tenhou does (P16); Mahjong
    # Soul and sanma list ``kita_dora`` apart. Set by the readers of Tenhou's games (mjlog, and
    # tenhou.net/6 or majiang JSON of a Tenhou game); replay folds kita into dora to compare.
    kita_in_dora: bool = False

    def wins(self) -> tuple[RecordedWin, ...]:
        """Every recorded win, in order."""
        return tuple(w for k in self.kyoku for w in k.wins)

    def check_bookkeeping(self) -> list[str]:
        """Problems with start scores + deltas - riichi deposits = next start / final scores.

        Leftover riichi sticks at the end go to the top player (Tenhou, P31), so a final
        difference of exactly those sticks on the top seat is accepted.
        """
        problems: list[str] = []
        for a, b in zip(self.kyoku, self.kyoku[1:], strict=False):
            if a.end_scores() != b.start_scores:
                problems.append(
                    f"{self.source}: after {a.label}: {a.end_scores()} != next start {b.start_scores}")
        if self.kyoku and self.final_scores is not None:
            last = self.kyoku[-1]
            end = list(last.end_scores())
            diff = [f - e for f, e in zip(self.final_scores, end, strict=False)]
            if any(diff):
                sticks = 1000 * last.kyotaku + 1000 * last.riichi_count if not last.wins else 0
                top = max(range(len(end)), key=lambda s: (end[s], -s))
                ok = sticks and diff[top] == sticks and sum(diff) == sticks
                if not ok:
                    problems.append(f"{self.source}: final scores {self.final_scores} != {tuple(end)} after "
                                    f"{last.label}")
        return problems


class Problems:
    """Collects problems found while reading one file (``strict`` raises at the first)."""

    def __init__(self, source: str, strict: bool) -> None:
        self.source = source
        self.strict = strict
        self.items: list[str] = []

    def add(self, message: str, kyoku: str | None = None, where: str | None = None) -> None:
        parts = [self.source or "<text>"]
        if kyoku:
            parts.append(f"kyoku {kyoku}")
        if where:
            parts.append(where)
        text = ": ".join([*parts, message])
        if self.strict:
            raise RecordError(text)
        self.items.append(text)


# --------------------------------------------------------------------------------------------
# Replaying a kyoku: every reader feeds its actions here, so hands, melds, kita and the
# situational flags are derived the same way for every format.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WinContext:
    """What the replay knows at the moment of a win."""

    hand: tuple[Tile, ...]  # concealed tiles including the winning tile
    tile: Tile  # the winning tile
    melds: tuple[str, ...]
    kita: int
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    haitei: bool
    houtei: bool
    rinshan: bool
    chankan: bool
    tenhou: bool
    chiihou: bool
    ron_on_kita: bool
    kyotaku: int  # sticks on the table, including this kyoku's accepted riichi


def majsoul_room(name: str) -> bool:
    """Whether a record's rule name is a Mahjong Soul room (三銀の間赤, 雀聖の間 ...; tenhou.net/6
    conversions of Mahjong Soul games name one), not a Tenhou lobby (三鳳南喰赤)."""
    return "の間" in name or name.startswith(("雀", "友人"))


def named_rules(rule_name: str) -> Rules | None:
    """The rule set a record names, for its wall layout: a preset by its name (sanma's own records);
    Tenhou's rules for an unnamed record or a platform's lobby or room name (Tenhou and Mahjong Soul
    lay out the same 108-tile wall, PLATFORMS §1-2); None for another name (a club's own rule file)."""

    if rule_name in Rules.presets():
        return Rules.preset(rule_name)
    if not rule_name or not rule_name.isascii():
        return Rules.preset("tenhou")
    return None


def live_draws_for(rules: Rules | None) -> int | None:
    """Tiles the draws of a kyoku take from outside the dead wall (P14), replacements included: with
    a fixed dead wall refilled from the live wall after each replacement, every tile outside the
    deal and the dead wall — 55 of Tenhou's 108-tile wall with 14 in the dead wall, 59 of Kansai's
    112 with its 4 flowers (P02). A replacement taken once the live wall is empty (a flower drawn
    as the last tile) comes from the dead wall, which nothing refills then: it is beyond this count
    (``KyokuReplay.draw``). None (no check) when the count depends on the kans (a dead wall that is
    not refilled, or one drawn up to the indicator), or for unknown rules.

    >>> from sanma.rules import Rules
    >>> live_draws_for(Rules.preset("tenhou")), live_draws_for(Rules.preset("kansai")), live_draws_for(None)
    (55, 59, None)
    >>> live_draws_for(Rules.preset("online")), live_draws_for(Rules.preset("official"))
    (None, None)
    """
    from ..game.wall import tile_set

    if rules is None or rules.dead_wall != "fixed" or not rules.dead_wall_replenished:
        return None
    return len(tile_set(rules)) - 3 * 13 - rules.dead_wall_size


def meld_text(kind: str, tiles: tuple[Tile, ...]) -> str:
    """``meld_text('pon', tiles) == 'pon:055p'`` (red fives kept)."""
    from ..tiles import to_mpsz

    return f"{kind}:{to_mpsz(tiles)}"


class KyokuReplay:
    """Replays one kyoku's actions, checking each against the hands; problems go to ``problems``.

    ``live_draws`` is how many tiles all draws together (replacements included) may take
    (``live_draws_for``): 55 in Tenhou / Mahjong Soul sanma (108 - 39 dealt - 14 dead wall), 59
    under Kansai's flowers; a replacement once they are all drawn is not counted. ``None`` when
    the record's rules have no fixed count: no check, and haitei/houtei are left to the recorded yaku.
    """

    def __init__(self, problems: Problems, label: str, dealer: int, hands: list[list[Tile]],
                 kyotaku: int = 0, live_draws: int | None = 55) -> None:
        self.p = problems
        self.label = label
        self.dealer = dealer
        self.n = len(hands)
        self.hands = [list(h) for h in hands]
        self.melds: list[list[tuple[str, tuple[Tile, ...]]]] = [[] for _ in hands]
        self.kita_count = [0] * self.n
        self.events: list[Event] = []
        self.kyotaku = kyotaku
        self.live_draws = live_draws
        self.draws = 0
        self.discards = [0] * self.n
        self.own_draws = [0] * self.n
        self.riichi = [False] * self.n
        self.double = [False] * self.n
        self.ippatsu = [False] * self.n
        self.pending_riichi: int | None = None
        self.interrupted = False  # a call or kita happened: first-go-around yaku are gone
        self.pending_replacement = [False] * self.n
        self.flower_size: dict[int, int] = {}  # seat -> hand size before the flower being replaced
        self.last_draw: list[Tile | None] = [None] * self.n
        self.last_was_replacement = [False] * self.n
        # the last tile offered to the others: (kind, seat, tile) with kind discard/kakan/ankan/kita
        self.offer: tuple[str, int, Tile] | None = None
        self.declared: tuple[int, bool] | None = None  # a ``reach`` (seat, open) whose discard comes next
        self.where = ""

    # -- helpers ------------------------------------------------------------------------------
    def problem(self, message: str) -> None:
        self.p.add(message, self.label, self.where or None)

    def _seat_ok(self, seat: int) -> bool:
        if not 0 <= seat < self.n:
            self.problem(f"seat {seat} is out of range 0..{self.n - 1}")
            return False
        return True

    def _take(self, seat: int, tile: Tile, what: str) -> None:
        hand = self.hands[seat]
        if tile in hand:
            hand.remove(tile)
            return
        # a record may not distinguish red fives in every place: accept the other colour
        for t in hand:
            if t.kind == tile.kind:
                hand.remove(t)
                return
        self.problem(f"{what}: seat {seat} has no {tile} in hand {_mpsz(hand)}")

    def _resolve_riichi(self) -> None:
        if self.pending_riichi is not None:
            seat = self.pending_riichi
            self.pending_riichi = None
            self.riichi[seat] = True
            self.ippatsu[seat] = True
            self.kyotaku += 1
            self.events.append(RiichiAccepted(seat))

    def _interrupt(self) -> None:
        self.interrupted = True
        self.ippatsu = [False] * self.n

    # -- actions ------------------------------------------------------------------------------
    def play(self, e: ev.Event) -> bool:
        """Replay one typed play event — what every reader turns its format's moves into (mjai,
        mjlog, tenhou.net/6, majiang): a draw, a discard (riichi when a ``reach`` came just before),
        a call, kita, a flower, a riichi accepted, a kan dora. False for any other event (a kyoku's
        start, end or result: the reader's own).

        >>> rp = KyokuReplay(Problems("x", False), "E1", 0, [[Tile.parse("1p")] * 13] * 3)
        >>> rp.play(ev.Tsumo(0, Tile.parse("9s"))), rp.play(ev.Reach(0)), rp.play(ev.Dahai(0, Tile.parse("9s"), True))
        (True, True, True)
        >>> rp.events[-1], rp.play(ev.EndKyoku(None, None))
        (Discard(seat=0, tile=Tile.parse('9s'), tsumogiri=True, riichi=True, open_riichi=False), False)
        """
        if isinstance(e, ev.Tsumo):
            if e.pai is None:
                raise RecordError(sentence("pai: a hidden tile ('?') in a record"))
            self.draw(e.actor, e.pai)
        elif isinstance(e, ev.Dahai):
            declared = self.declared
            self.declared = None
            riichi = declared is not None and declared[0] == e.actor
            self.discard(e.actor, e.pai, tsumogiri=e.tsumogiri, riichi=riichi,
                         open_riichi=riichi and declared is not None and declared[1])
        elif isinstance(e, ev.Pon):
            self.pon(e.actor, e.target, e.pai, e.consumed)
        elif isinstance(e, ev.Daiminkan):
            self.daiminkan(e.actor, e.target, e.pai, e.consumed)
        elif isinstance(e, ev.Kakan):
            self.kakan(e.actor, e.pai)
        elif isinstance(e, ev.Ankan):
            self.ankan(e.actor, e.consumed[0])
        elif isinstance(e, ev.Kita):
            self.kita(e.actor, NORTH_TILE)
        elif isinstance(e, ev.Flower):
            self.flower(e.actor, e.pai)
        elif isinstance(e, ev.Reach):
            self.declared = (e.actor, e.open)
        elif isinstance(e, ev.ReachAccepted):
            self.finish()
        elif isinstance(e, ev.Dora):
            self.dora(e.marker)
        else:
            return False
        return True

    def draw(self, seat: int, tile: Tile) -> None:
        if not self._seat_ok(seat):
            return
        self._resolve_riichi()
        self.offer = None
        replacement = self.pending_replacement[seat]
        self.pending_replacement[seat] = False
        if replacement and self.live_draws is not None and self.draws >= self.live_draws:
            pass  # P14: the live wall is empty (a flower drawn last): from the dead wall, not refilled
        else:
            self.draws += 1
            if self.live_draws is not None and self.draws > self.live_draws:
                self.problem(f"draw {self.draws} exceeds the {self.live_draws} tiles of the wall")
        self.own_draws[seat] += 1
        self.hands[seat].append(tile)
        self.last_draw[seat] = tile
        self.last_was_replacement[seat] = replacement
        self.events.append(Draw(seat, tile, replacement))
        # a flower's replacement restores the hand's size before the flower (13 during the deal)
        size = self.flower_size.pop(seat, 14)
        if len(self.hands[seat]) + 3 * len(self.melds[seat]) != size:
            self.problem(f"seat {seat} holds {len(self.hands[seat])} tiles after drawing {tile}")

    def discard(self, seat: int, tile: Tile, tsumogiri: bool | None = None, riichi: bool = False,
                open_riichi: bool = False) -> None:
        if not self._seat_ok(seat):
            return
        self._resolve_riichi()
        if tsumogiri is None:
            tsumogiri = self.last_draw[seat] == tile
        self._take(seat, tile, "discard")
        if riichi:
            if self.riichi[seat]:
                self.problem(f"seat {seat} declares riichi twice")
            elif self.melds[seat] and any(k != "ankan" for k, _ in self.melds[seat]):
                self.problem(f"seat {seat} declares riichi with an open hand")
            self.pending_riichi = seat
            self.double[seat] = self.discards[seat] == 0 and not self.interrupted
        self.ippatsu[seat] = False
        self.discards[seat] += 1
        self.last_draw[seat] = None
        self.offer = ("discard", seat, tile)
        self.events.append(Discard(seat, tile, tsumogiri, riichi, riichi and open_riichi))

    def _call(self, seat: int, from_seat: int, tile: Tile, count: int, kind: str) -> tuple[Tile, ...] | None:
        if not (self._seat_ok(seat) and self._seat_ok(from_seat)):
            return None
        if self.offer is None or self.offer[0] != "discard" or self.offer[1] != from_seat:
            self.problem(f"{kind} by seat {seat}: seat {from_seat} did not just discard")
        elif self.offer[2].kind != tile.kind:
            self.problem(f"{kind} by seat {seat} of {tile}, but the last discard was {self.offer[2]}")
        self._resolve_riichi()
        taken = [tile]
        for _ in range(count):
            cands = [t for t in self.hands[seat] if t.kind == tile.kind]
            if not cands:
                self.problem(f"{kind} of {tile} by seat {seat}: not enough in hand {_mpsz(self.hands[seat])}")
                return None
            # keep a red five in hand unless it is the only copy left (records say which; ids do)
            t = next((c for c in cands if not c.red), cands[0])
            self.hands[seat].remove(t)
            taken.append(t)
        self._interrupt()
        self.offer = None
        return tuple(taken)

    def pon(self, seat: int, from_seat: int, tile: Tile, hand_tiles: tuple[Tile, ...] | None = None) -> None:
        if hand_tiles is not None:
            for t in hand_tiles:
                self._take(seat, t, "pon")
            tiles: tuple[Tile, ...] | None = (tile, *hand_tiles)
            self._call_checks(seat, from_seat, tile, "pon")
        else:
            tiles = self._call(seat, from_seat, tile, 2, "pon")
        if tiles is not None:
            self.melds[seat].append(("pon", tiles))
            self.events.append(Pon(seat, from_seat, tile, tiles))

    def _call_checks(self, seat: int, from_seat: int, tile: Tile, kind: str) -> None:
        if self.offer is None or self.offer[0] != "discard" or self.offer[1] != from_seat:
            self.problem(f"{kind} by seat {seat}: seat {from_seat} did not just discard")
        elif self.offer[2].kind != tile.kind:
            self.problem(f"{kind} by seat {seat} of {tile}, but the last discard was {self.offer[2]}")
        self._resolve_riichi()
        self._interrupt()
        self.offer = None

    def daiminkan(self, seat: int, from_seat: int, tile: Tile,
                  hand_tiles: tuple[Tile, ...] | None = None) -> None:
        if hand_tiles is not None:
            for t in hand_tiles:
                self._take(seat, t, "daiminkan")
            tiles: tuple[Tile, ...] | None = (tile, *hand_tiles)
            self._call_checks(seat, from_seat, tile, "daiminkan")
        else:
            tiles = self._call(seat, from_seat, tile, 3, "daiminkan")
        if tiles is not None:
            self.melds[seat].append(("kan", tiles))
            self.pending_replacement[seat] = True
            self.events.append(Daiminkan(seat, from_seat, tile, tiles))

    def kakan(self, seat: int, tile: Tile) -> None:
        if not self._seat_ok(seat):
            return
        self._take(seat, tile, "kakan")
        for i, (k, tiles) in enumerate(self.melds[seat]):
            if k == "pon" and tiles[0].kind == tile.kind:
                self.melds[seat][i] = ("kan", (*tiles, tile))
                break
        else:
            self.problem(f"kakan of {tile} by seat {seat} without a pon of it")
        self._interrupt()
        self.pending_replacement[seat] = True
        self.offer = ("kakan", seat, tile)
        self.events.append(Kakan(seat, tile, tuple(next(
            (t for k, t in self.melds[seat] if k == "kan" and t[0].kind == tile.kind), (tile,)))))

    def ankan(self, seat: int, tile: Tile) -> None:
        if not self._seat_ok(seat):
            return
        tiles = tuple(t for t in self.hands[seat] if t.kind == tile.kind)
        if len(tiles) != 4:
            self.problem(f"ankan of {tile} by seat {seat} with {len(tiles)} in hand "
                         f"{_mpsz(self.hands[seat])}")
            return
        for t in tiles:
            self.hands[seat].remove(t)
        self.melds[seat].append(("ankan", tiles))
        self._interrupt()
        self.pending_replacement[seat] = True
        self.offer = ("ankan", seat, tile)
        self.events.append(Ankan(seat, tiles))

    def kita(self, seat: int, tile: Tile = NORTH_TILE) -> None:
        if not self._seat_ok(seat):
            return
        self._resolve_riichi()
        self._take(seat, tile, "kita")
        self.kita_count[seat] += 1
        self._interrupt()
        self.pending_replacement[seat] = True
        self.offer = ("kita", seat, tile)
        self.events.append(Kita(seat, tile))

    def flower(self, seat: int, tile: Tile) -> None:
        """A flower set aside (P03); the replacement draw follows. Not a call: no ippatsu is broken here
        (the engine decides by its rules; the record's yaku list says what was scored)."""
        if not self._seat_ok(seat):
            return
        if not tile.is_flower:
            self.problem(f"flower by seat {seat}: {tile} is not a flower")
        self.flower_size.setdefault(seat, len(self.hands[seat]) + 3 * len(self.melds[seat]))
        self._take(seat, tile, "flower")
        self.pending_replacement[seat] = True
        self.last_draw[seat] = None
        self.events.append(Flower(seat, tile))

    def dora(self, indicator: Tile) -> None:
        self.events.append(DoraRevealed(indicator))

    def win(self, seat: int, from_seat: int, tile: Tile | None = None) -> WinContext | None:
        """The state at a win. For ron, ``tile`` defaults to the tile just offered."""
        if not (self._seat_ok(seat) and self._seat_ok(from_seat)):
            return None
        tsumo = seat == from_seat
        chankan = ron_on_kita = houtei = False
        if tsumo:
            drawn = self.last_draw[seat]
            if drawn is None:
                self.problem(f"tsumo by seat {seat} without a draw")
                return None
            if tile is not None and tile.kind != drawn.kind:
                self.problem(f"tsumo by seat {seat} on {tile}, but the last draw was {drawn}")
            tile = drawn
            hand = tuple(self.hands[seat])
            rinshan = self.last_was_replacement[seat]
            haitei = self.draws == self.live_draws and not rinshan
            first = (not self.interrupted and self.discards[seat] == 0 and self.own_draws[seat] == 1)
            tenhou = first and seat == self.dealer
            chiihou = first and seat != self.dealer
        else:
            if self.offer is None or self.offer[1] != from_seat:
                self.problem(f"ron by seat {seat} from seat {from_seat}, who offered no tile")
                if tile is None:
                    return None
            else:
                kind, _, offered = self.offer
                if tile is not None and tile.kind != offered.kind:
                    self.problem(f"ron by seat {seat} on {tile}, but seat {from_seat} offered {offered}")
                tile = offered
                chankan = kind in ("kakan", "ankan")
                ron_on_kita = kind == "kita"
                houtei = kind == "discard" and self.draws == self.live_draws
            assert tile is not None
            hand = (*self.hands[seat], tile)
            rinshan = haitei = tenhou = chiihou = False
        if len(hand) + 3 * len(self.melds[seat]) != 14:
            self.problem(f"winning hand of seat {seat} has {len(hand)} concealed tiles and "
                         f"{len(self.melds[seat])} melds")
        ippatsu = self.ippatsu[seat]
        # a riichi discard that is ronned is not accepted; one passed is (stick on the table)
        if self.pending_riichi is not None and self.pending_riichi != from_seat:
            self._resolve_riichi()
        return WinContext(
            hand=hand, tile=tile, melds=tuple(meld_text(k, t) for k, t in self.melds[seat]),
            kita=self.kita_count[seat], riichi=self.riichi[seat], double_riichi=self.double[seat] and
            self.riichi[seat], ippatsu=ippatsu, haitei=haitei, houtei=houtei, rinshan=rinshan,
            chankan=chankan, tenhou=tenhou, chiihou=chiihou, ron_on_kita=ron_on_kita, kyotaku=self.kyotaku)

    def finish(self) -> None:
        """End of the kyoku without a win on the last offer: a pending riichi is accepted."""
        self._resolve_riichi()


def _mpsz(tiles: list[Tile]) -> str:
    from ..tiles import to_mpsz

    return to_mpsz(tiles) or "(empty)"


#: Situational flags of a win and the yaku that prove them when the record lists yaku.
FLAG_YAKU = {
    "ippatsu": "ippatsu", "haitei": "haitei", "houtei": "houtei", "rinshan": "rinshan",
    "chankan": "chankan", "tenhou": "tenhou", "chiihou": "chiihou",
}


def build_win(ctx: WinContext, *, seat: int, from_seat: int, dealer: int, round_wind: str,
              honba: int, kyotaku: int | None, dora: tuple[Tile, ...], ura: tuple[Tile, ...],
              yaku: tuple[tuple[str, int], ...], yakuman: int, han: int, fu: int | None,
              limit: str | None, points: int, deltas: tuple[int, ...], pao_seat: int | None,
              source: str, label: str, index: int, problems: Problems,
              scored: bool = True) -> RecordedWin:
    """Combine the replay state with the recorded result into a :class:`RecordedWin`.

    When the record lists non-yakuman yaku, they decide the situational flags (the record is
    the authority on what was scored) and the replay's own derivation is cross-checked; for
    yakuman wins the yaku list omits them, so the replay's derivation is used.
    """
    from ..tiles import to_mpsz

    names = {n for n, _ in yaku}
    flags: dict[str, bool] = {
        "riichi": ctx.riichi, "double_riichi": ctx.double_riichi, "ippatsu": ctx.ippatsu,
        "haitei": ctx.haitei, "houtei": ctx.houtei, "rinshan": ctx.rinshan, "chankan": ctx.chankan,
        "tenhou": ctx.tenhou, "chiihou": ctx.chiihou,
    }
    if not scored:
        pass  # nothing listed: the replayed events decide every flag
    elif yakuman == 0 and yaku:
        listed = {
            "riichi": "riichi" in names or "double_riichi" in names,
            "double_riichi": "double_riichi" in names,
            **{flag: y in names for flag, y in FLAG_YAKU.items()},
        }
        for flag, value in listed.items():
            if value != flags[flag] and flag in ("riichi", "double_riichi", "rinshan", "chankan"):
                problems.add(f"seat {seat} wins with {flag}={value} in the yaku list but "
                             f"{flags[flag]} by the replayed events", label)
            flags[flag] = value
    else:
        flags["tenhou"] = "tenhou" in names
        flags["chiihou"] = "chiihou" in names
    return RecordedWin(
        seat=seat, from_seat=from_seat, tsumo=seat == from_seat, hand=to_mpsz(ctx.hand),
        win=str(ctx.tile), seat_wind=seat_wind(seat, dealer), round_wind=round_wind,
        discarder_wind=None if seat == from_seat else seat_wind(from_seat, dealer),
        melds=ctx.melds, kita=ctx.kita, dora_indicators=tuple(str(t) for t in dora),
        ura_indicators=tuple(str(t) for t in ura), honba=honba,
        kyotaku=ctx.kyotaku if kyotaku is None else kyotaku, han=han, fu=fu, yaku=yaku,
        yakuman=yakuman, limit=limit, points=points, deltas=deltas, pao_seat=pao_seat,
        ron_on_kita=ctx.ron_on_kita, source=source, kyoku=label, kyoku_index=index, dealer=dealer,
        scored=scored, **flags)


# --------------------------------------------------------------------------------------------
# Input handling shared by the readers: size cap, path-or-text, JSON nesting cap.
# --------------------------------------------------------------------------------------------

MAX_BYTES = 8 * 1024 * 1024  # real sanma records are < 100 kB; a hanchan mjlog is ~20 kB
MAX_JSON_DEPTH = 32


def load_text(path_or_text: str | bytes | Any, problems_source: str = "") -> tuple[str, str]:
    """Return ``(text, source)`` for a path, a ``Path``, bytes or the record text itself.

    A string that starts like a record (``<``, ``{``, ``[``), or holds a newline, or is longer
    than any path, is the text; any other string is a path. Raises :class:`RecordError` for
    unreadable or oversized input.
    """
    import os

    if isinstance(path_or_text, bytes):
        data, source = path_or_text, problems_source or "<bytes>"
    elif isinstance(path_or_text, str) and path_or_text.lstrip()[:1] in ("<", "{", "[") and \
            len(path_or_text) > MAX_BYTES:
        raise RecordError(sentence("{value}: record of {n} characters is larger than the {max_bytes} limit",
                                   value=problems_source or '<text>', n=len(path_or_text), max_bytes=MAX_BYTES))
    elif isinstance(path_or_text, str) and (path_or_text.lstrip()[:1] in ("<", "{", "[")
                                            or "\n" in path_or_text or len(path_or_text) > 4096):
        return path_or_text, problems_source or "<text>"
    elif isinstance(path_or_text, str | os.PathLike):
        source = os.fspath(path_or_text)
        if isinstance(source, bytes):
            source = source.decode(errors="replace")
        from ..fileio import read_regular

        data = read_regular(source, MAX_BYTES, "the record", RecordError)  # no FIFO, device or huge file
    else:
        raise RecordError(sentence("expected a path or the record text, got {name}",
                                   name=type(path_or_text).__name__))
    if len(data) > MAX_BYTES:
        raise RecordError(sentence("{source}: record of {n} bytes is larger than the {max_bytes} limit",
                                   source=source, n=len(data), max_bytes=MAX_BYTES))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(sentence("{source}: not UTF-8 text (byte {start})", source=source, start=e.start)) from None
    return text, source


def check_json_depth(text: str, source: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Reject JSON nested deeper than ``max_depth`` before ``json.loads`` sees it."""
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise RecordError(sentence("{source}: JSON nested deeper than {max_depth} levels at "
                                           "character {i}", source=source, max_depth=max_depth, i=i))
        elif ch in "]}":
            depth -= 1


def parse_json(text: str, source: str) -> Any:
    import json

    check_json_depth(text, source)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise RecordError(sentence("{source}: invalid JSON: {error}", source=source, error=e)) from None


def as_int(value: Any, what: str) -> int:
    """An int from a record field (bools and non-integral floats are rejected)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise RecordError(sentence("{what} must be an integer, got {value!r}", what=what, value=value))
    try:
        f = float(value)
    except ValueError:
        raise RecordError(sentence("{what} must be an integer, got {value!r}", what=what, value=value)) from None
    if f != f or f in (float("inf"), float("-inf")) or f != int(f):
        raise RecordError(sentence("{what} must be an integer, got {value!r}", what=what, value=value))
    return int(f)


def read_guarded(fmt: str, path_or_text: Any, strict: bool, source: str | None,
                 body: Callable[[str, str], GameRecord]) -> GameRecord:
    """Load the input and run ``body(text, source)``; in lenient mode any RecordError becomes
    the one error of an empty record instead of escaping."""
    src = source or (path_or_text if isinstance(path_or_text, str) and len(path_or_text) < 200
                     and "\n" not in path_or_text else "")
    try:
        text, src = load_text(path_or_text, source or "")
        return body(text, src)
    except RecordError as e:
        if strict:
            raise
        return GameRecord(source=str(src or "<text>"), format=fmt, errors=(str(e),))
