"""The record model: a recorded game, whatever file format it came from.

Every reader (:mod:`sanma.formats.mjlog`, :mod:`~sanma.formats.tenhou6`, :mod:`~sanma.formats.majiang`,
:mod:`~sanma.formats.mjai`) produces a :class:`GameRecord`: small frozen values; each kyoku's
``events`` are the engine's own typed events (:mod:`sanma.events`), its ``results`` the recorded
wins (:class:`RecordedWin`, the hand in mpsz as ``sanma.score_hand`` takes it) and draws. Seats
are ``0..2``; winds are ``"E"``/``"S"``/``"W"``. The readers build it through the replay tracker
(:mod:`~sanma.formats.tracker`) behind the input guard (:mod:`~sanma.formats.guard`).

>>> w = RecordedWin(seat=1, from_seat=2, tsumo=False, hand="123p456p789s99m11z", win="9m",
...                 seat_wind="S", round_wind="E", discarder_wind="W", han=1, fu=40, points=1300,
...                 yaku=(("yakuhai", 1),), deltas=(0, 1300, -1300))
>>> w.deltas_by_wind(dealer=0)
{'E': 0, 'S': 1300, 'W': -1300}
>>> sorted(w.score_kwargs())[:4]
['chankan', 'chiihou', 'discarder_wind', 'dora_indicators']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import events as ev
from ..rules.schema import Rules
from ..scoring import basic_points
from ..tiles import Tile, seat_wind

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
# Events: a kyoku's ``events`` are the engine's own typed events (:mod:`sanma.events`), in play
# order — draws (``Tsumo``), ``Reach`` then its ``Dahai``, calls, kans, ``Kita``, ``Flower``,
# ``ReachAccepted`` and ``Dora`` where the format shows the reveal (tenhou.net/6 lists kan dora
# with the deal and no reveal: ``dora_indicators`` only). Results are ``results``.
# --------------------------------------------------------------------------------------------

#: The events a kyoku record's ``events`` hold.
PlayEvent = ev.Tsumo | ev.Dahai | ev.Reach | ev.Pon | ev.Daiminkan | ev.Kakan | ev.Ankan | ev.Kita | ev.Flower \
    | ev.ReachAccepted | ev.Dora


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
    that winner's payments when the record separates them). ``honba`` is the hand's honba, named
    for every winner of a double ron (Tenhou's mjlog writes it on each ``AGARI``); whether a later
    winner is paid it is the rules' (P89), and shows in its ``deltas``. ``kyotaku`` is the riichi
    sticks this win takes (0 for a later winner). ``fu`` is None when the record
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
        """Keyword arguments for ``sanma.score_hand(self.hand, rules=..., **kwargs)``: the win as the
        hand's only (or first) winner, who is paid the honba."""
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
    events: tuple[PlayEvent, ...] = ()
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
        return sum(1 for e in self.events if isinstance(e, ev.ReachAccepted))

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
            if isinstance(e, ev.ReachAccepted):
                paid[e.actor] += 1000
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

def majsoul_room(name: str) -> bool:
    """Whether a record's rule name is a Mahjong Soul room (三銀の間赤, 雀聖の間 ...; tenhou.net/6
    conversions of Mahjong Soul games name one), not a Tenhou lobby (三鳳南喰赤)."""
    return "の間" in name or name.startswith(("雀", "友人"))
