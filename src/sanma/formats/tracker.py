"""The replay tracker every reader feeds its moves to: :class:`KyokuReplay` follows one kyoku's
hands, melds, kita, riichi and the offer on the table event by event (``KyokuReplay.play`` takes
the typed play events of :mod:`sanma.events`), so the hands, the situational flags of a win
(:class:`WinContext`) and the record's own events come out the same way for every format;
:func:`build_win` joins that state with the recorded result into a ``RecordedWin``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import events as ev
from ..errors import RecordError
from ..i18n.messages import Keyword, Message, sentence, sentence_c
from ..rules.schema import Rules
from ..tiles import Tile, seat_wind
from .guard import Problems
from .record import PlayEvent, RecordedWin


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
    chankan: bool
    tenhou: bool
    chiihou: bool
    ron_on_kita: bool
    kyotaku: int  # sticks on the table, including this kyoku's accepted riichi
    #: what the winning tile replaced: "kan", "kita", "flower", or "" (not a replacement). Whether a
    #: kita's or a flower's replacement scores rinshan is a rule (P18 ``kita_replacement_is_rinshan``,
    #: ``flower_replacement_is_rinshan``) that a record's reader does not know.
    replaced: str = ""

    @property
    def rinshan(self) -> bool:
        """A tsumo on a replacement tile, whatever was replaced."""
        return bool(self.replaced)




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


def action_word(what: str) -> Message | Keyword:
    """An action a problem names: the record's own word in English (``discard``, ``pon``, ``kakan``,
    ``kita``), the vocabulary's in Japanese (打牌, ポン, 加槓, 北抜き)."""
    if what == "draw":
        return sentence_c("action", "draw")  # a tile drawn (ツモ), not a drawn hand (流局)
    if what == "discard":
        return sentence_c("action", "discard")
    return Keyword("call", what)


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
        self.events: list[PlayEvent] = []
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
        # what a seat's next draw replaces: "kan", "kita", "flower", or "" (a plain draw)
        self.pending_replacement = [""] * self.n
        self.flower_size: dict[int, int] = {}  # seat -> hand size before the flower being replaced
        self.last_draw: list[Tile | None] = [None] * self.n
        self.last_replaced = [""] * self.n  # what each seat's last draw replaced ("" for none)
        # the last tile offered to the others: (kind, seat, tile) with kind discard/kakan/ankan/kita
        self.offer: tuple[str, int, Tile] | None = None
        self.declared: tuple[int, bool] | None = None  # a ``reach`` (seat, open) whose discard comes next
        self.where: Message | None = None  # where in the record the reader is (its words: "line 12")

    # -- helpers ------------------------------------------------------------------------------
    def problem(self, message: Message) -> None:
        self.p.add(message, self.label, self.where)

    def _seat_ok(self, seat: int) -> bool:
        if not 0 <= seat < self.n:
            self.problem(sentence("seat {seat} is out of range 0..{last}", code="seat", seat=seat, last=self.n - 1))
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
        self.problem(sentence("{what}: seat {seat} has no {tile} in hand {hand}", code="tile_not_held",
                              what=action_word(what), seat=seat, tile=str(tile), hand=_mpsz(hand)))

    def _resolve_riichi(self) -> None:
        if self.pending_riichi is not None:
            seat = self.pending_riichi
            self.pending_riichi = None
            self.riichi[seat] = True
            self.ippatsu[seat] = True
            self.kyotaku += 1
            self.events.append(ev.ReachAccepted(seat))

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
        >>> [e.to_mjai() for e in rp.events[-2:]], rp.play(ev.EndKyoku(None, None))
        ([{'type': 'reach', 'actor': 0}, {'type': 'dahai', 'actor': 0, 'pai': '9s', 'tsumogiri': True}], False)
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
            self.kita(e.actor, ev.NORTH_TILE)
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
        replaced = self.pending_replacement[seat]
        replacement = bool(replaced)
        self.pending_replacement[seat] = ""
        if replacement and self.live_draws is not None and self.draws >= self.live_draws:
            pass  # P14: the live wall is empty (a flower drawn last): from the dead wall, not refilled
        else:
            self.draws += 1
            if self.live_draws is not None and self.draws > self.live_draws:
                self.problem(sentence("draw {n} exceeds the {live} tiles of the wall", code="wall", n=self.draws,
                                      live=self.live_draws))
        self.own_draws[seat] += 1
        self.hands[seat].append(tile)
        self.last_draw[seat] = tile
        self.last_replaced[seat] = replaced
        self.events.append(ev.Tsumo(seat, tile, replacement))
        # a flower's replacement restores the hand's size before the flower (13 during the deal)
        size = self.flower_size.pop(seat, 14)
        if len(self.hands[seat]) + 3 * len(self.melds[seat]) != size:
            self.problem(sentence("seat {seat} holds {n} tiles after drawing {tile}", code="hand_size", seat=seat,
                                  n=len(self.hands[seat]), tile=str(tile)))

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
                self.problem(sentence("seat {seat} declares riichi twice", code="riichi", seat=seat))
            elif self.melds[seat] and any(k != "ankan" for k, _ in self.melds[seat]):
                self.problem(sentence("seat {seat} declares riichi with an open hand", code="riichi", seat=seat))
            self.pending_riichi = seat
            self.double[seat] = self.discards[seat] == 0 and not self.interrupted
        self.ippatsu[seat] = False
        self.discards[seat] += 1
        self.last_draw[seat] = None
        self.offer = ("discard", seat, tile)
        if riichi:
            self.events.append(ev.Reach(seat, open_riichi))
        self.events.append(ev.Dahai(seat, tile, tsumogiri))

    def _call(self, seat: int, from_seat: int, tile: Tile, count: int, kind: str) -> tuple[Tile, ...] | None:
        if not (self._seat_ok(seat) and self._seat_ok(from_seat)):
            return None
        if self.offer is None or self.offer[0] != "discard" or self.offer[1] != from_seat:
            self.problem(sentence("{kind} by seat {seat}: seat {from_seat} did not just discard", code="call",
                                  kind=action_word(kind), seat=seat, from_seat=from_seat))
        elif self.offer[2].kind != tile.kind:
            self.problem(sentence("{kind} by seat {seat} of {tile}, but the last discard was {last}", code="call",
                                  kind=action_word(kind), seat=seat, tile=str(tile), last=str(self.offer[2])))
        self._resolve_riichi()
        taken = [tile]
        for _ in range(count):
            cands = [t for t in self.hands[seat] if t.kind == tile.kind]
            if not cands:
                self.problem(sentence("{kind} of {tile} by seat {seat}: not enough in hand {hand}",
                                      code="tile_not_held", kind=action_word(kind), tile=str(tile), seat=seat,
                                      hand=_mpsz(self.hands[seat])))
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
            self.events.append(ev.Pon(seat, from_seat, tile, tiles[1:]))

    def _call_checks(self, seat: int, from_seat: int, tile: Tile, kind: str) -> None:
        if self.offer is None or self.offer[0] != "discard" or self.offer[1] != from_seat:
            self.problem(sentence("{kind} by seat {seat}: seat {from_seat} did not just discard", code="call",
                                  kind=action_word(kind), seat=seat, from_seat=from_seat))
        elif self.offer[2].kind != tile.kind:
            self.problem(sentence("{kind} by seat {seat} of {tile}, but the last discard was {last}", code="call",
                                  kind=action_word(kind), seat=seat, tile=str(tile), last=str(self.offer[2])))
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
            self.pending_replacement[seat] = "kan"
            self.events.append(ev.Daiminkan(seat, from_seat, tile, tiles[1:]))

    def kakan(self, seat: int, tile: Tile) -> None:
        if not self._seat_ok(seat):
            return
        self._take(seat, tile, "kakan")
        pon: tuple[Tile, ...] = (tile, tile, tile)
        for i, (k, tiles) in enumerate(self.melds[seat]):
            if k == "pon" and tiles[0].kind == tile.kind:
                self.melds[seat][i] = ("kan", (*tiles, tile))
                pon = tiles
                break
        else:
            self.problem(sentence("kakan of {tile} by seat {seat} without a pon of it", code="call", tile=str(tile),
                                  seat=seat))
        self._interrupt()
        self.pending_replacement[seat] = "kan"
        self.offer = ("kakan", seat, tile)
        self.events.append(ev.Kakan(seat, tile, pon))

    def ankan(self, seat: int, tile: Tile) -> None:
        if not self._seat_ok(seat):
            return
        tiles = tuple(t for t in self.hands[seat] if t.kind == tile.kind)
        if len(tiles) != 4:
            self.problem(sentence("ankan of {tile} by seat {seat} with {n} in hand {hand}", code="call",
                                  tile=str(tile), seat=seat, n=len(tiles), hand=_mpsz(self.hands[seat])))
            return
        for t in tiles:
            self.hands[seat].remove(t)
        self.melds[seat].append(("ankan", tiles))
        self._interrupt()
        self.pending_replacement[seat] = "kan"
        self.offer = ("ankan", seat, tile)
        self.events.append(ev.Ankan(seat, tiles))

    def kita(self, seat: int, tile: Tile = ev.NORTH_TILE) -> None:
        if not self._seat_ok(seat):
            return
        self._resolve_riichi()
        self._take(seat, tile, "kita")
        self.kita_count[seat] += 1
        self._interrupt()
        self.pending_replacement[seat] = "kita"
        self.offer = ("kita", seat, tile)
        self.events.append(ev.Kita(seat))

    def flower(self, seat: int, tile: Tile) -> None:
        """A flower set aside (P03); the replacement draw follows. Not a call: no ippatsu is broken here
        (the engine decides by its rules; the record's yaku list says what was scored)."""
        if not self._seat_ok(seat):
            return
        if not tile.is_flower:
            self.problem(sentence("flower by seat {seat}: {tile} is not a flower", code="call", seat=seat,
                                  tile=str(tile)))
        self.flower_size.setdefault(seat, len(self.hands[seat]) + 3 * len(self.melds[seat]))
        self._take(seat, tile, "flower")
        self.pending_replacement[seat] = "flower"
        self.last_draw[seat] = None
        self.events.append(ev.Flower(seat, tile))

    def dora(self, indicator: Tile) -> None:
        self.events.append(ev.Dora(indicator))

    def win(self, seat: int, from_seat: int, tile: Tile | None = None) -> WinContext | None:
        """The state at a win. For ron, ``tile`` defaults to the tile just offered."""
        if not (self._seat_ok(seat) and self._seat_ok(from_seat)):
            return None
        tsumo = seat == from_seat
        chankan = ron_on_kita = houtei = False
        if tsumo:
            drawn = self.last_draw[seat]
            if drawn is None:
                self.problem(sentence("tsumo by seat {seat} without a draw", code="win", seat=seat))
                return None
            if tile is not None and tile.kind != drawn.kind:
                self.problem(sentence("tsumo by seat {seat} on {tile}, but the last draw was {drawn}", code="win",
                                      seat=seat, tile=str(tile), drawn=str(drawn)))
            tile = drawn
            hand = tuple(self.hands[seat])
            replaced = self.last_replaced[seat]
            haitei = self.draws == self.live_draws and not replaced
            first = (not self.interrupted and self.discards[seat] == 0 and self.own_draws[seat] == 1)
            tenhou = first and seat == self.dealer
            chiihou = first and seat != self.dealer
        else:
            if self.offer is None or self.offer[1] != from_seat:
                self.problem(sentence("ron by seat {seat} from seat {from_seat}, who offered no tile", code="win",
                                      seat=seat, from_seat=from_seat))
                if tile is None:
                    return None
            else:
                kind, _, offered = self.offer
                if tile is not None and tile.kind != offered.kind:
                    self.problem(sentence("ron by seat {seat} on {tile}, but seat {from_seat} offered {offered}",
                                          code="win", seat=seat, tile=str(tile), from_seat=from_seat,
                                          offered=str(offered)))
                tile = offered
                chankan = kind in ("kakan", "ankan")
                ron_on_kita = kind == "kita"
                houtei = kind == "discard" and self.draws == self.live_draws
            assert tile is not None
            hand = (*self.hands[seat], tile)
            haitei = tenhou = chiihou = False
            replaced = ""
        if len(hand) + 3 * len(self.melds[seat]) != 14:
            self.problem(sentence("winning hand of seat {seat} has {n} concealed tiles and {melds} melds",
                                  code="win_hand", seat=seat, n=len(hand), melds=len(self.melds[seat])))
        ippatsu = self.ippatsu[seat]
        # a riichi discard that is ronned is not accepted; one passed is (stick on the table)
        if self.pending_riichi is not None and self.pending_riichi != from_seat:
            self._resolve_riichi()
        return WinContext(
            hand=hand, tile=tile, melds=tuple(meld_text(k, t) for k, t in self.melds[seat]),
            kita=self.kita_count[seat], riichi=self.riichi[seat], double_riichi=self.double[seat] and
            self.riichi[seat], ippatsu=ippatsu, haitei=haitei, houtei=houtei,
            chankan=chankan, tenhou=tenhou, chiihou=chiihou, ron_on_kita=ron_on_kita, kyotaku=self.kyotaku,
            replaced=replaced)

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
        # a kita's or a flower's replacement is rinshan by the record's rules (P18): the list decides
        certain = ("riichi", "double_riichi", "chankan") + (() if ctx.replaced in ("kita", "flower") else ("rinshan",))
        for flag, value in listed.items():
            if value != flags[flag] and flag in certain:
                problems.add(sentence("seat {seat} wins with {yaku} in the yaku list, which the replayed events do "
                                      "not give", code="win_yaku", seat=seat, yaku=Keyword("yaku", flag)) if value
                             else sentence("seat {seat} wins without {yaku} in the yaku list, which the replayed "
                                           "events give", code="win_yaku", seat=seat, yaku=Keyword("yaku", flag)),
                             label)
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
