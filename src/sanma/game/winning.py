"""Whether a seat can win on a tile now, and what that win scores: the win evaluation of a hand.

Pure functions over a ``Situation`` (the facts of the moment that the scorer needs: rules,
seats, dealer, winds, honba, sticks, the wall, the first go-around, rinshan, the window) and a
seat's ``SeatState`` (``game/seat.py``). The engine builds the situation (``Game._situation``)
and calls these; nothing here changes a seat (a trial tile added is removed again).

>>> from sanma.rules import Rules
>>> from sanma.game.engine import Game
>>> g = Game(Rules.preset("tenhou"), seed=1)
>>> can_win(g._situation(), g.to_move[0], g.seats[g.to_move[0]].hand[-1], tsumo=True)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from typing import Any, Final

from ..errors import NotAWinError, SanmaError
from ..rules.schema import Rules
from ..scoring import Score, score_hand
from ..tiles import SEATS, WINDS, Tile, seat_wind
from .payout import RINSHAN_PAO, Pao, Win, one_suit, ura_tiles_held
from .seat import CalledMeld, SeatState
from .wall import Wall

DRAGON_KINDS: Final = (31, 32, 33)


class Situation:
    """The hand's situation when a win is judged (a plain class). ``window`` is the kind of the
    open response window ("dahai", "kakan", "ankan", "kita"; "" before any); ``riichi_pending``
    the seat whose riichi discard is not yet accepted (no ippatsu on it). The engine keeps one per
    hand and refreshes it before each question (``Game._situation``): read it, do not keep it."""

    __slots__ = ("dealer", "first_cycle", "honba", "kan_discard", "kyotaku", "riichi_pending", "rinshan",
                 "round_wind", "rules", "seats", "wall", "window")

    def __init__(self, rules: Rules, seats: list[SeatState], wall: Wall, *, dealer: int, round_wind: str,
                 honba: int, kyotaku: int, first_cycle: bool, rinshan: bool, window: str, kan_discard: bool,
                 riichi_pending: int | None) -> None:
        self.rules = rules
        self.seats = seats
        self.wall = wall
        self.dealer = dealer
        self.round_wind = round_wind
        self.honba = honba
        self.kyotaku = kyotaku
        self.first_cycle = first_cycle  # no call has broken the first go-around yet
        self.rinshan = rinshan  # the tile just drawn is a replacement
        self.window = window
        self.kan_discard = kan_discard  # the coming (or last) discard follows a kan (kanburi)
        self.riichi_pending = riichi_pending

    def seat_wind(self, seat: int) -> str:
        return seat_wind(seat, self.dealer)

    def __deepcopy__(self, memo: dict[int, Any]) -> Situation:
        # A compiled class has no default copy (its __init__ takes arguments): copy.deepcopy of a
        # Game copies its situation with the copied seats and wall (``memo`` maps them).
        return Situation(deepcopy(self.rules, memo), deepcopy(self.seats, memo), deepcopy(self.wall, memo),
                         dealer=self.dealer, round_wind=self.round_wind, honba=self.honba, kyotaku=self.kyotaku,
                         first_cycle=self.first_cycle, rinshan=self.rinshan, window=self.window,
                         kan_discard=self.kan_discard, riichi_pending=self.riichi_pending)


def score_win(sit: Situation, seat: int, tile: Tile, *, tsumo: bool, chankan: bool = False, kita_ron: bool = False,
              discarder: int | None = None, ura: bool = True, situational: bool = True) -> Score:
    """Score ``seat`` winning on ``tile`` now; ``situational=False`` leaves out the yaku of the
    moment (last tile, rinshan, first turn...) — a hand's own yaku, as tenpai tests need.
    Raises ``NotAWinError`` (a ``SanmaError``) when it is no win."""
    st = sit.seats[seat]
    hand = list(st.hand) if tsumo else [*st.hand, tile]
    r = sit.rules
    wall = sit.wall
    first = situational and sit.first_cycle and not st.discards
    haitei = situational and tsumo and wall.remaining == 0 and not sit.rinshan
    houtei = situational and not tsumo and wall.remaining == 0 and sit.window == "dahai"
    return score_hand(
        hand, win=tile, melds=[cm.meld for cm in st.melds], tsumo=tsumo, riichi=st.riichi,
        double_riichi=st.double_riichi and r.yaku.get("double_riichi", (0, 0))[0] > 0,
        open_riichi=st.open_riichi, ippatsu=situational and st.ippatsu and sit.riichi_pending != seat,
        haitei=haitei, houtei=houtei, rinshan=situational and tsumo and sit.rinshan,
        chankan=chankan and not kita_ron,
        kanburi=situational and not tsumo and sit.kan_discard and sit.window == "dahai",
        tenhou=tsumo and first and seat == sit.dealer, chiihou=tsumo and first and seat != sit.dealer,
        renhou=not tsumo and first and seat != sit.dealer and r.renhou_value != "none",
        open_riichi_deal_in=(not tsumo and discarder is not None and sit.seats[discarder].open_riichi is False
                             and st.open_riichi and not sit.seats[discarder].riichi),
        seat_wind=sit.seat_wind(seat), round_wind=sit.round_wind,
        discarder_wind=None if tsumo or discarder is None else sit.seat_wind(discarder),
        dora_indicators=wall.dora_indicators,
        ura_indicators=wall.ura_indicators if (ura and st.riichi) else (),
        kita=st.kita, flowers=st.flowers, honba=sit.honba, kyotaku=sit.kyotaku, rules=r,
    )


def can_win(sit: Situation, seat: int, tile: Tile, *, tsumo: bool, chankan: bool = False,
            kokushi_only: bool = False, discarder: int | None = None, go_around: set[int] | None = None) -> bool:
    """Whether ``seat`` may win on ``tile`` now: tsumo furiten (P76, A002-13), a yaku and dama
    (A003-8; both the scorer's), kokushi only (a robbed ankan, P127), sakizuke (P67). ``go_around`` is
    the kinds others discarded since this seat's last discard (P76 KANSAI). Ron furiten (P75) is
    ``legal.furiten``'s, checked by ``legal.ron_allowed`` first."""
    st = sit.seats[seat]
    r = sit.rules
    if tsumo:
        w = st.waits  # computed on the 13-tile hand before this draw
        if tile.kind not in w:
            return False
        furiten = st.furiten_riichi or st.furiten_same_turn or bool(st.discarded_kinds & set(w))
        if furiten and not r.furiten_tsumo:
            return False  # P76 (KANSAI): furiten blocks tsumo too
        if st.riichi and furiten and not r.riichi_furiten_tsumo:
            return False  # A002-13: a furiten riichi hand cannot win at all
        if r.same_turn_discard_blocks_tsumo and go_around is not None and go_around & set(w):
            return False  # P76 (KANSAI): a winning tile discarded this go-around blocks tsumo
    try:
        s = score_win(sit, seat, tile, tsumo=tsumo, chankan=chankan, discarder=discarder, ura=False)
    except SanmaError:
        return False
    if kokushi_only:
        return any(y.name.startswith("kokushi") for y in s.yaku)
    return st.closed or r.atozuke != "sakizuke" or yaku_fixed(sit, seat, tile, tsumo)


def yaku_fixed(sit: Situation, seat: int, tile: Tile, tsumo: bool) -> bool:
    """P67 (OFFICIAL 完全先付け, KANSAI 確定1翻縛り): an open hand wins only with a yaku that
    every one of its winning tiles gives (no katagari, no double back, P69). Situational yaku
    (haitei, rinshan, chankan) do not fix a yaku, so each wait is tried as a plain ron."""
    st = sit.seats[seat]
    hand = list(st.hand)
    if tsumo:
        hand.remove(tile)
    other = (seat + 1) % SEATS
    for k in st.waits:
        t = Tile(k)
        try:
            score_hand([*hand, t], win=t, melds=[cm.meld for cm in st.melds], seat_wind=sit.seat_wind(seat),
                       round_wind=sit.round_wind, discarder_wind=sit.seat_wind(other), kita=st.kita,
                       flowers=st.flowers, honba=sit.honba, rules=sit.rules)
        except NotAWinError:
            return False
        except SanmaError:
            continue  # e.g. a fifth copy: that wait cannot be reached
    return True


def win_facts(rules: Rules, st: SeatState, seat: int, score: Score, ura_indicators: Sequence[Tile],
              rinshan_feeder: tuple[int, int] | None) -> Win:
    """The payout's view of ``seat``'s win: liable seats (P97; ``rinshan_feeder`` is the (kan-er,
    feeder) of a daiminkan whose replacement tile won), what the chips need (P115-P119)."""
    pao: list[Pao] = []
    if rinshan_feeder is not None and rinshan_feeder[0] == seat:
        pao.append(Pao(rinshan_feeder[1], RINSHAN_PAO))
    pao.extend(Pao(liable, name) for name, liable in st.pao.items())
    tiles = list(st.hand) + [t for cm in st.melds for t in cm.meld.tiles]
    ura_tiles: int | None = None
    if rules.chips and rules.ura_chip_count == "per_tile" and st.riichi:  # A000-25: physical tiles held
        ura_tiles = ura_tiles_held(ura_indicators, tiles)
    return Win(seat, score, tuple(pao), closed=st.closed, ura_tiles=ura_tiles, chinitsu_shape=one_suit(tiles),
               chip_flowers=st.chip_flowers)


def pao_completed(rules: Rules, melds: Sequence[CalledMeld], kind: int) -> tuple[str, ...]:
    """P97: the yakuman whose liability a call of ``kind`` (the meld just made, now in ``melds``)
    completes — daisangen's third dragon, daisuushii's fourth wind, and, where the rules say so,
    suukantsu's fourth kan. The seat that fed it is liable."""
    out: list[str] = []
    if "suukantsu" in rules.pao_yaku and sum(1 for cm in melds if cm.meld.is_kan) == 4:
        out.append("suukantsu")
    kinds = {cm.meld.kind for cm in melds}
    if kind in DRAGON_KINDS and all(d in kinds for d in DRAGON_KINDS) and "daisangen" in rules.pao_yaku:
        out.append("daisangen")
    if kind in WINDS and all(w in kinds for w in WINDS) and "daisuushii" in rules.pao_yaku:
        out.append("daisuushii")
    return tuple(out)
