"""What a seat may do: the legality predicates of the game, as public pure functions.

Each takes the rules and the facts it reads as explicit arguments (a seat's ``SeatState``, the
wall, the score, a ``winning.Situation``), never a ``Game``: the engine builds its legal actions
from them, and a bot or a tool may call the same rule (one home for each). None changes its
arguments (a trial tile added or removed is put back).

>>> from sanma.rules import Rules
>>> from sanma.tiles import Tile, parse_tiles
>>> from sanma.game.seat import SeatState
>>> st = SeatState()
>>> for t in parse_tiles("123456789p11599s"):
...     st.add(t)
>>> riichi_violation(Rules.preset("tenhou"), st, Tile.parse("5s"), honba=0, seat_wind="E", round_wind="E",
...                  other_wind="S", dora_indicators=())
''
>>> riichi_violation(Rules.preset("tenhou"), st, Tile.parse("1p"), honba=0, seat_wind="E", round_wind="E",
...                  other_wind="S", dora_indicators=())
'noten_riichi'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ..agari import decompositions
from ..agari import waits as compute_waits
from ..errors import IllegalActionError, SanmaError
from ..rules.schema import Rules
from ..scoring import DORA_NAMES, score_hand
from ..shanten_table import shanten_trusted
from ..tiles import NORTH, NUM_KINDS, SEATS, YAOCHUU, Tile
from .actions import Action
from .seat import SeatState
from .settle import riichi_bust
from .wall import Wall
from .winning import Situation, can_win, score_win


# ------------------------------------------------------------------------------------- furiten
def furiten(rules: Rules, st: SeatState, tile: Tile | None = None) -> bool:
    """Whether the seat may not ron (``tile``, or any of its waits): its own discards (P75), a win
    let pass this turn or under riichi (P75), the club's relaxed 13-sided kokushi (P78)."""
    if st.furiten_riichi or st.furiten_same_turn:
        return True
    return river_furiten(rules, st.waits, st.discarded_kinds, st.discards[-1].tile.kind if st.discards else None,
                         tile)


def river_furiten(rules: Rules, waits: Sequence[int], discarded: set[int], last_discard: int | None,
                  tile: Tile | None = None) -> bool:
    """P75 / P78: furiten by the seat's own river alone — ``waits`` against the ``discarded``
    kinds (``last_discard``: the kind of its latest discard, for the club's kokushi rule)."""
    if rules.kokushi_13_furiten == "club_relaxed" and len(waits) == 13:
        # P78 / §5.4 (CLUB): a 13-sided kokushi is barred only from tiles it discarded itself,
        # and from any ron in the go-around after it discarded a terminal or honour.
        own = discarded & (set(waits) if tile is None else {tile.kind})
        return bool(own) or (last_discard is not None and last_discard in YAOCHUU)
    return bool(discarded & set(waits))


def ron_allowed(sit: Situation, seat: int, tile: Tile, window: str, kokushi_only: bool, discarder: int) -> bool:
    """Whether ``seat`` may ron ``tile`` in a response window of kind ``window`` (P75 furiten,
    ron on a kita only where the rules allow it, chankan on a kakan, kokushi on an ankan)."""
    if furiten(sit.rules, sit.seats[seat], tile):
        return False
    if window == "kita" and not sit.rules.ron_on_kita:
        return False
    return can_win(sit, seat, tile, tsumo=False, chankan=window == "kakan", kokushi_only=kokushi_only,
                   discarder=discarder)


# -------------------------------------------------------------------------------------- riichi
def riichi_allowed(rules: Rules, st: SeatState, score: int, wall_remaining: int, *, after_call: bool,
                   table_mistakes: bool = False) -> bool:
    """Whether the seat may declare riichi at all now: closed, not yet in riichi, not right after
    a call, enough points (P79), enough tiles left (P81)."""
    if st.riichi or not st.closed or after_call:
        return False
    if score < rules.riichi_min_points and not (table_mistakes and riichi_bust(rules, score)):
        return False  # P79; at an emulated table a CLUB riichi with <= 1,000 is declarable (A000-19)
    need = SEATS if rules.riichi_needs_next_draw else 1  # P81
    return wall_remaining >= need


def noten_riichi_offered(rules: Rules, table_mistakes: bool) -> bool:
    """Table emulation only: a noten riichi is a chombo the rules can settle (P80)."""
    return table_mistakes and rules.riichi_violation != "impossible"


def riichi_offered(rules: Rules, violation: str, table_mistakes: bool) -> bool:
    """P80 / §5.5: a clean riichi is always offered; a violation never where the rules make it
    impossible; a furiten riichi where it is a chombo; a noten or 2-han-minimum violation only
    at an emulated table (bots would commit it at random)."""
    if not violation:
        return True
    if rules.riichi_violation == "impossible":
        return False
    return violation == "furiten_riichi" or table_mistakes


def riichi_wait_violation(rules: Rules, counts: Sequence[int], discarded: set[int], tile: Tile) -> str:
    """P77 / P80 by the waits alone: "noten_riichi" when discarding ``tile`` from ``counts`` (the
    concealed hand) leaves no wait, "furiten_riichi" when a wait is among the ``discarded`` kinds
    (``tile`` included) where that is a violation, else ""."""
    return _wait_violation(rules, _waits_without(rules, counts, tile), discarded, tile)


def _waits_without(rules: Rules, counts: Sequence[int], tile: Tile) -> tuple[int, ...]:
    c = list(counts)
    c[tile.kind] -= 1
    return compute_waits(c, rules.chiitoi_four_of_a_kind)


def _wait_violation(rules: Rules, waits: tuple[int, ...], discarded: set[int], tile: Tile) -> str:
    if not waits:
        return "noten_riichi"
    if (rules.furiten_riichi == "forbidden" or not rules.tenpai_furiten) and (discarded | {tile.kind}) & set(waits):
        return "furiten_riichi"  # P77 (KANSAI: a furiten hand is not tenpai, A003-21)
    return ""


def riichi_violation(rules: Rules, st: SeatState, tile: Tile, *, honba: int, seat_wind: str, round_wind: str,
                     other_wind: str, dora_indicators: Sequence[Tile]) -> str:
    """Why a riichi discarding ``tile`` would be a violation (P77, P80, P87), or "" if it is clean
    (``other_wind``: the next seat's wind, the discarder a 2-han test assumes)."""
    w = _waits_without(rules, st.counts, tile)
    why = _wait_violation(rules, w, st.discarded_kinds, tile)
    if why:
        return why
    if rules.shibari_from_honba and honba >= rules.shibari_from_honba and not riichi_fixes_two_han(
            rules, st, tile, w, seat_wind=seat_wind, round_wind=round_wind, other_wind=other_wind,
            dora_indicators=dora_indicators):
        return "shibari_riichi"  # P87 (CLUB)
    return ""


def riichi_fixes_two_han(rules: Rules, st: SeatState, tile: Tile, waits: Sequence[int], *, seat_wind: str,
                         round_wind: str, other_wind: str, dora_indicators: Sequence[Tile]) -> bool:
    """P87 (CLUB): during the 2-han minimum a riichi must already fix 2 han, riichi included,
    on every winning tile (the han, not the yaku; ippatsu and the moment's yaku do not count,
    A000-7) — otherwise it is a chombo, offered only at an emulated table."""
    hand = list(st.hand)
    hand.remove(tile)
    for k in waits:
        w = Tile(k)
        try:
            s = score_hand([*hand, w], win=w, melds=[cm.meld for cm in st.melds], riichi=True,
                           seat_wind=seat_wind, round_wind=round_wind, discarder_wind=other_wind,
                           dora_indicators=dora_indicators, kita=st.kita, flowers=st.flowers, rules=rules)
        except SanmaError:
            continue  # a wait that cannot be reached (a fifth copy) fixes nothing either way
        counted = s.han if rules.shibari_counts_dora else s.han - sum(y.han for y in s.yaku if y.name in DORA_NAMES)
        if not s.yakuman and counted < 2:
            return False
    return True


# ----------------------------------------------------------------------------------------- kan
def kan_possible(rules: Rules, wall: Wall, kans: int) -> bool:
    """Whether a kan may be made now (``kans``: kans made this hand): fewer than four, tiles left,
    an indicator to turn where the rules need one (P13), and a replacement tile after it."""
    if kans >= 4 or wall.remaining <= 0:
        return False
    if rules.kan_requires_indicator and not wall.can_reveal_kan_dora:
        return False  # P13
    # The kan must leave a replacement tile after its dora indicator is turned (under the
    # to_indicator dead wall both come from the live wall's tail): try it on a copy.
    trial = wall.copy()
    try:
        if trial.can_reveal_kan_dora:
            trial.reveal_kan_dora()
        trial.draw_replacement()
    except IllegalActionError:
        return False
    return True


def ankan_allowed(rules: Rules, st: SeatState, kind: int, drawn: Tile | None) -> bool:
    """Whether the seat may make a closed kan of ``kind`` (after riichi, P84: with the drawn tile
    only; then by ``rules.kan_after_riichi``: any such kan (A003-18), one keeping the waits, or one
    keeping the waits with the four tiles a triplet in every reading)."""
    if not st.riichi:
        return True
    if drawn is None or drawn.kind != kind:
        return False  # okuri-kan is forbidden everywhere (P84)
    if rules.kan_after_riichi == "no_okurikan":
        return True  # KANSAI: any ankan with the drawn tile (A003-18)
    c = list(st.counts)
    c[kind] -= 4
    if compute_waits(c) != st.waits:
        return False
    return rules.kan_after_riichi == "waits_only" or kind_always_triplet(st.counts, st.waits, kind)


def kind_always_triplet(counts: Sequence[int], waits: Sequence[int], kind: int) -> bool:
    """Whether ``kind`` is a triplet in every reading of the riichi hand (``counts`` with the
    drawn fourth copy) completed by each of its ``waits``."""
    c = list(counts)
    c[kind] -= 1  # the 13-tile riichi hand
    for w in waits:
        c[w] += 1
        for d in decompositions(c):
            if (1, kind) not in d.blocks:
                return False
        c[w] -= 1
    return True


# -------------------------------------------------------------------------------------- tenpai
def visible_counts(seats: Sequence[SeatState], dora_indicators: Sequence[Tile]) -> list[int]:
    """Copies of each kind on the table for everyone to see: rivers, melds, kita, indicators (a
    called discard is counted once, in its meld; a flower turned as an indicator is no kind)."""
    c = [0] * NUM_KINDS
    for s in seats:
        for d in s.discards:
            if not d.called:
                c[d.tile.kind] += 1
        for cm in s.melds:
            for t in cm.meld.tiles:
                c[t.kind] += 1
        c[NORTH] += s.kita
    for t in dora_indicators:
        if t.kind < NUM_KINDS:
            c[t.kind] += 1
    return c


def is_tenpai(sit: Situation, seat: int) -> bool:
    """Tenpai at an exhaustive draw under the rules' definition (P47): furiten (A003-21), karaten
    (every wait visible), a yaku needed without riichi."""
    st = sit.seats[seat]
    r = sit.rules
    if not st.waits:
        return False
    if not r.tenpai_furiten and (st.discarded_kinds & set(st.waits) or st.furiten_riichi):
        return False
    if not r.tenpai_karaten:
        visible = visible_counts(sit.seats, sit.wall.dora_indicators)
        if all(st.counts[k] + visible[k] >= 4 for k in st.waits):
            return False
    if r.tenpai_needs_yaku and not st.riichi:
        for k in st.waits:
            t = Tile(k)
            try:
                score_win(sit, seat, t, tsumo=False, discarder=(seat + 1) % SEATS, ura=False, situational=False)
                return True
            except SanmaError:
                pass
            st.add(t)
            try:
                score_win(sit, seat, t, tsumo=True, ura=False, situational=False)
                return True
            except SanmaError:
                pass
            finally:
                st.remove(t)
        return False
    return True


def update_waits(rules: Rules, st: SeatState) -> None:
    """Cache the waits of a seat's 3n+1-tile hand (a shanten look-up first: most hands are not
    tenpai); a hand of another size keeps its waits."""
    if sum(st.counts) % 3 != 1:
        return
    four = rules.chiitoi_four_of_a_kind
    st.waits = compute_waits(st.counts, four) if shanten_trusted(st.counts, len(st.melds), four) == 0 else ()


# ------------------------------------------------------------------------------------- actions
@cache
def dahai(seat: int, tile: Tile, tsumogiri: bool) -> Action:
    """Discard actions are immutable and few: build each once."""
    return Action("dahai", seat, tile, tsumogiri=tsumogiri)


def pairs(hand: Sequence[Tile], kind: int) -> list[tuple[Tile, Tile]]:
    """Distinct pairs of ``kind`` a pon can consume (a red five makes two choices)."""
    tiles = sorted(t for t in hand if t.kind == kind)
    out: list[tuple[Tile, Tile]] = []
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            p = (tiles[i], tiles[j])
            if p not in out:
                out.append(p)
    return out


def turn_actions(sit: Situation, seat: int, *, drawn: Tile | None, after_call: bool, last_call_kind: int | None,
                 kans: int, score: int, go_around: set[int], table_mistakes: bool = False) -> tuple[Action, ...]:
    """Everything the seat on turn may do: tsumo, kyuushu (P92), ankan / kakan, kita (P16-P18),
    and its discards (``discard_actions``)."""
    r = sit.rules
    st = sit.seats[seat]
    wall = sit.wall
    out: list[Action] = []
    if not after_call and drawn is not None:
        if can_win(sit, seat, drawn, tsumo=True, go_around=go_around):
            out.append(Action("hora", seat, drawn, target=seat))
        if (r.abort_kyuushu and sit.first_cycle and not st.discards
                and sum(1 for k in YAOCHUU if st.counts[k]) >= 9):
            out.append(Action("ryukyoku", seat))
        quads = [k for k in range(NUM_KINDS) if st.counts[k] == 4]
        adds = [cm for cm in st.melds if cm.meld.type == "pon" and st.counts[cm.meld.kind] and not st.riichi]
        if (quads or adds) and kan_possible(r, wall, kans):
            for k in quads:
                if ankan_allowed(r, st, k, drawn):
                    out.append(Action("ankan", seat, consumed=tuple(t for t in st.hand if t.kind == k)))
            for cm in adds:
                t = next(t for t in st.hand if t.kind == cm.meld.kind)
                out.append(Action("kakan", seat, t, consumed=cm.meld.tiles))
        if (r.north_mode in ("nuki", "nuki_restricted") and st.counts[NORTH]
                and (wall.remaining > 0 or r.kita_on_last_draw)
                and (wall.rinshan_left > 0 or wall.remaining > 0)
                and (not st.riichi or drawn.kind == NORTH)):
            out.append(Action("kita", seat, Tile(NORTH)))
    elif after_call and r.kita_after_pon and st.counts[NORTH] and r.north_mode in ("nuki", "nuki_restricted"):
        out.append(Action("kita", seat, Tile(NORTH)))
    out.extend(discard_actions(sit, seat, drawn=drawn, after_call=after_call, last_call_kind=last_call_kind,
                               score=score, table_mistakes=table_mistakes))
    return tuple(out)


def discard_actions(sit: Situation, seat: int, *, drawn: Tile | None, after_call: bool, last_call_kind: int | None,
                    score: int, table_mistakes: bool = False) -> list[Action]:
    """The seat's discards, with riichi where it is offered: only the drawn tile after riichi,
    no kuikae (P72), no North where it is pulled (P20), riichi by ``riichi_allowed`` and
    ``riichi_offered``."""
    r = sit.rules
    st = sit.seats[seat]
    if st.riichi:
        assert drawn is not None
        return [Action("dahai", seat, drawn, tsumogiri=True)]
    banned: set[int] = set()
    if after_call and not r.kuikae and last_call_kind is not None:
        banned.add(last_call_kind)  # P72: no kuikae (discarding the tile just ponned)
    if not r.north_can_discard:
        banned.add(NORTH)  # P20 (OFFICIAL): North is pulled, never discarded
    # Distinct tiles (a red five differs from a plain one) and how many of each are held.
    copies: dict[Tile, int] = {}
    for t in st.hand:
        copies[t] = copies.get(t, 0) + 1
    if drawn is not None and not after_call:
        copies[drawn] -= 1  # the drawn tile is offered separately, as tsumogiri
    noten_offered = noten_riichi_offered(r, table_mistakes)
    can_riichi = riichi_allowed(r, st, score, sit.wall.remaining, after_call=after_call,
                                table_mistakes=table_mistakes) and (
        noten_offered or shanten_trusted(st.counts, len(st.melds), r.chiitoi_four_of_a_kind) <= 0)
    counts = list(st.counts) if can_riichi and not noten_offered else []
    out: list[Action] = []
    for t, n in copies.items():
        if t.kind in banned:
            continue
        if n > 0:
            out.append(dahai(seat, t, False))
        if counts:  # a discard that leaves the hand noten is no riichi here: skip the waits (P80)
            counts[t.kind] -= 1
            noten = shanten_trusted(counts, len(st.melds), r.chiitoi_four_of_a_kind) > 0
            counts[t.kind] += 1
            if noten:
                continue
        if can_riichi and riichi_offered(r, riichi_violation(
                r, st, t, honba=sit.honba, seat_wind=sit.seat_wind(seat), round_wind=sit.round_wind,
                other_wind=sit.seat_wind((seat + 1) % SEATS), dora_indicators=sit.wall.dora_indicators),
                table_mistakes):
            out.append(Action("reach", seat, t, tsumogiri=n == 0))
            if r.open_riichi:
                out.append(Action("open_reach", seat, t, tsumogiri=n == 0))
    if drawn is not None and not after_call and drawn.kind not in banned:
        out.append(dahai(seat, drawn, True))
    if not out:  # every tile banned (e.g. a hand of Norths): allow any tile rather than deadlock
        out = [Action("dahai", seat, t) for t in dict.fromkeys(st.hand)]
    return out


def why_illegal(a: Action, offered: tuple[Action, ...], *, where: str, st: SeatState, after_call: bool,
                last_call_kind: int | None, to_move: tuple[int, ...]) -> str:
    """The message of an ``IllegalActionError`` for ``a``, naming the rule it breaks (``offered``:
    what the seat may do now, ``st``: the actor's seat, ``where``: the hand, as "E-1, 0 honba")."""
    if not offered:
        return f"illegal {a} in {where}: it is not seat {a.actor}'s move (waiting for {list(to_move)})"
    same = [x for x in offered if x.type == a.type]
    if not same:
        kinds = sorted({x.type for x in offered})
        return f"illegal {a} in {where}: seat {a.actor} may only {', '.join(kinds)} now"
    if a.type in ("dahai", "reach") and a.tile is not None and not st.counts[a.tile.kind]:
        return f"illegal {a} in {where}: {a.tile} is not in seat {a.actor}'s hand"
    if a.type == "dahai" and st.riichi:
        return f"illegal {a} in {where}: after riichi only the drawn tile may be discarded"
    if a.type == "dahai" and after_call and a.tile is not None and a.tile.kind == last_call_kind:
        return f"illegal {a} in {where}: kuikae (discarding the tile just called) is forbidden (P72)"
    return f"illegal {a} in {where}: legal {a.type} actions are {[str(x) for x in same]}"


def response_actions(sit: Situation, seat: int, tile: Tile, window: str, *, discarder: int,
                     kokushi_only: bool = False, kans: int = 0) -> tuple[Action, ...]:
    """``seat``'s choices on another seat's ``tile`` in a window of kind ``window`` ("dahai",
    "kakan", "ankan", "kita"): ron (``ron_allowed``), pon (P20 North where the rules allow it)
    and daiminkan on a discard before the last tile, and pass — or nothing at all."""
    st = sit.seats[seat]
    if tile.kind not in st.waits and (window != "dahai" or st.counts[tile.kind] < 2):
        return ()  # no ron, no pon, no kan: the common case, answered at once
    r = sit.rules
    acts: list[Action] = []
    if tile.kind in st.waits and ron_allowed(sit, seat, tile, window, kokushi_only, discarder):
        acts.append(Action("hora", seat, tile, target=discarder))
    if window == "dahai" and not st.riichi and sit.wall.remaining != 0:
        c = st.counts[tile.kind]
        if c >= 2 and (r.north_can_pon or tile.kind != NORTH):
            for pair in pairs(st.hand, tile.kind):
                acts.append(Action("pon", seat, tile, consumed=pair, target=discarder))
        if c == 3 and kan_possible(r, sit.wall, kans):
            acts.append(Action("daiminkan", seat, tile, consumed=tuple(x for x in st.hand if x.kind == tile.kind),
                               target=discarder))
    if acts:
        acts.append(Action("none", seat))
    return tuple(acts)
