"""Where an option leaves a seat: its hand after the option and the few facts the outcome tables
are keyed by (shanten, the tiles that improve the hand or win it, draws left, riichi, an open or
closed hand, the threats on the table, furiten, a yaku in reach).

Everything here reads only the seat's :class:`~sanma.game.view.SeatView` and the option (a legal
action): the review, the fit of the tables (:mod:`sanma.review.fit`) and the advice bot compute
positions the same way.

>>> from sanma.rules import Rules
>>> from sanma.game.engine import Game
>>> g = Game(Rules.preset("tenhou"), seed=4)
>>> v = g.view(g.to_move[0])
>>> a = next(x for x in v.legal_actions if x.type == "dahai")
>>> after = hand_after(v, a, Rules.preset("tenhou"))
>>> sum(after.counts), after.discard == a.tile, after.extra_draw
(13, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..agari import waits
from ..bots.base import HandView, read_view
from ..bots.defensive import danger
from ..bots.efficient import open_hand_plan
from ..errors import SanmaError
from ..game.actions import Action
from ..game.view import SeatView
from ..hand import Meld
from ..rules.schema import Rules
from ..shanten_table import shanten_counts, ukeire
from ..tiles import NORTH, NUM_KINDS, YAOCHUU, Tile, seat_wind, successor

#: The threats a seat sees: nobody, an open hand of three or more melds, one riichi, two riichi.
THREAT_NONE: Final = 0
THREAT_OPEN: Final = 1
THREAT_RIICHI: Final = 2
THREAT_TWO: Final = 3

#: Options that take the tile the hand just drew or was offered away and leave 13 (3n+1) tiles.
DISCARDS: Final = ("dahai", "reach", "open_reach")


class OptionError(SanmaError):
    """An option the review cannot place (not one of the view's legal actions' kinds)."""


@dataclass(frozen=True, slots=True)
class After:
    """The seat's hand once an option is taken, before its next draw."""

    counts: tuple[int, ...]  # concealed tiles by kind (34): a 3n+1 hand
    concealed: tuple[Tile, ...]  # the same tiles, red fives told apart (what the scorer reads)
    melds: tuple[Meld, ...]
    river: frozenset[int]  # kinds of its own discards, the option's discard included (furiten)
    riichi: bool
    kita: int
    discard: Tile | None  # the tile the option discards now (None: a pass, a kan, kita)
    extra_draw: bool  # a replacement draw comes first (a kan, kita)

    @property
    def closed(self) -> bool:
        return all(m.type == "ankan" for m in self.melds)


@dataclass(frozen=True, slots=True)
class Position:
    """What the outcome tables are keyed by (see :func:`cell_keys`)."""

    shanten: int  # of the 3n+1 hand; 0 = tenpai
    tiles: int  # unseen tiles that lower the shanten, or (tenpai) unseen winning tiles with a yaku
    draws: int  # the seat's own draws left
    riichi: bool
    closed: bool
    threat: int  # THREAT_*
    furiten: bool
    yaku: bool  # a win is in reach: closed, or open with a yaku (tenpai: a wait that wins by ron)
    dealer: bool


def threat_level(view: SeatView) -> int:
    """The strongest threat seat ``view.seat`` sees: riichi (one or two) or an open hand of 3+ melds."""
    riichi = sum(1 for s, p in enumerate(view.seats) if s != view.seat and p.riichi)
    if riichi:
        return THREAT_RIICHI if riichi == 1 else THREAT_TWO
    if any(s != view.seat and len(p.melds) >= 3 for s, p in enumerate(view.seats)):
        return THREAT_OPEN
    return THREAT_NONE


def _remove(tiles: list[Tile], tile: Tile) -> None:
    """Take ``tile`` out (that very tile if held, else a copy of its kind: a plain five before a red)."""
    if tile in tiles:
        tiles.remove(tile)
        return
    same = [t for t in tiles if t.kind == tile.kind]
    if not same:
        raise OptionError(f"{tile} is not in the hand")
    tiles.remove(min(same, key=lambda t: t.red))


def hand_after(view: SeatView, option: Action, rules: Rules, follow: Tile | None = None) -> After:
    """The seat's hand once ``option`` is taken; after a pon, ``follow`` is the tile it then
    discards. A win or nine terminals leave no hand to continue with (``OptionError``)."""
    seat = view.seat
    if seat is None:
        raise OptionError("a spectator takes no option")
    me = view.seats[seat]
    tiles = [t for t in view.hand if not t.is_flower]
    melds = [Meld(m.type, m.tiles) for m in me.melds]
    river = {d.tile.kind for d in me.discards}
    riichi = view.riichi
    kita = me.kita
    discard: Tile | None = None
    extra = False
    t = option.type
    if t in DISCARDS:
        assert option.tile is not None
        discard = option.tile
        _remove(tiles, discard)
        riichi = riichi or t != "dahai"
    elif t == "kita":
        _remove(tiles, Tile(NORTH))
        kita += 1
        extra = True
    elif t == "ankan":
        for c in option.consumed:
            _remove(tiles, c)
        melds.append(Meld("ankan", option.consumed))
        extra = True
    elif t == "kakan":
        assert option.tile is not None
        _remove(tiles, option.tile)
        kind = option.tile.kind
        at = next(i for i, m in enumerate(melds) if m.type == "pon" and m.kind == kind)
        melds[at] = Meld("kan", (*melds[at].tiles, option.tile))
        extra = True
    elif t in ("pon", "daiminkan"):
        assert option.tile is not None
        for c in option.consumed:
            _remove(tiles, c)
        melds.append(Meld("pon" if t == "pon" else "kan", (*option.consumed, option.tile)))
        if t == "pon":
            if follow is None:
                raise OptionError("a pon is placed with the tile discarded after it")
            _remove(tiles, follow)
            discard = follow
        else:
            extra = True
    elif t != "none":
        raise OptionError(f"no hand to continue with after {t}")
    if discard is not None:
        river.add(discard.kind)
    counts = [0] * NUM_KINDS
    for x in tiles:
        counts[x.kind] += 1
    return After(tuple(counts), tuple(tiles), tuple(melds), frozenset(river), riichi, kita, discard, extra)


def draws_left(view: SeatView, extra_draw: bool) -> int:
    """The seat's own draws to come: a third of the live wall (and a replacement draw first)."""
    return view.wall_remaining // 3 + (1 if extra_draw else 0)


def position(view: SeatView, after: After, rules: Rules, hand: HandView | None = None) -> Position:
    """The :class:`Position` of ``after``; ``hand``: ``read_view(view, rules)`` when already made."""
    hv = hand if hand is not None else read_view(view, rules)
    four = rules.chiitoi_four_of_a_kind
    counts = list(after.counts)
    nmelds = len(after.melds)
    unseen = view.unseen
    s = shanten_counts(counts, nmelds, chiitoi_four_ok=four)
    closed = after.closed
    furiten = False
    if s <= 0:
        wait = waits(counts, four)
        furiten = any(k in after.river for k in wait)
        yaku = closed or bool(wait and open_has_yaku(view, after, rules, wait))
        tiles = sum(unseen[k] for k in wait) if yaku else 0
        s = 0
    else:
        visible = [4 - unseen[k] - counts[k] for k in range(NUM_KINDS)]
        tiles = ukeire(counts, nmelds, [max(0, v) for v in visible], chiitoi_four_ok=four)
        yaku = closed or open_hand_plan(counts, [(m.type, m.kind) for m in after.melds],
                                        hv.yakuhai, rules) is not None
    return Position(s, tiles, draws_left(view, after.extra_draw), after.riichi, closed, threat_level(view), furiten,
                    yaku, view.dealer == view.seat)


def open_has_yaku(view: SeatView, after: After, rules: Rules, wait: tuple[int, ...]) -> bool:
    """Whether an open tenpai wins by ron on some wait (under sakizuke, P67: on every wait)."""
    from ..bots.value import HandTiles, table_of, win_payoffs

    seat = view.seat
    assert seat is not None
    hand = HandTiles(after.concealed, after.melds, False, after.kita, view.seats[seat].flowers)
    table = table_of(view, rules)
    other = (seat + 1) % 3
    wins = [win_payoffs(rules, view, table, hand, k, other, False)[0] is not None for k in wait]
    return all(wins) if rules.atozuke == "sakizuke" else any(wins)


# --------------------------------------------------------------------------------------- the tables' keys
#: Bins of a position's facts: the tables count outcomes per bin, not per value (shanten 5 stands
#: for 5 and more).
TENPAI_TILES: Final = (0, 1, 3, 5, 7, 9)  # live winning tiles: 0, 1-2, 3-4, 5-6, 7-8, 9+
UKEIRE: Final = {1: (0, 5, 9, 13, 17, 25), 2: (0, 11, 21, 31, 41), 3: (0, 16, 31, 46), 4: (0, 31, 51), 5: (0,)}
DRAWS: Final = (0, 1, 3, 5, 7, 9, 12, 15)
MAX_SHANTEN: Final = 5


def _bin(value: int, edges: tuple[int, ...]) -> int:
    """Index of the last edge not above ``value``."""
    i = 0
    for j, e in enumerate(edges):
        if value >= e:
            i = j
    return i


def _centres(edges: tuple[int, ...]) -> list[float]:
    """Where each bin's values lie on average: the middle of its range (the last bin: as wide as the one before)."""
    out = []
    for j, e in enumerate(edges):
        hi = edges[j + 1] if j + 1 < len(edges) else e + (e - edges[j - 1] if j else 1)
        out.append((e + hi - 1) / 2)
    return out


def blend(value: int, edges: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """The bins a value lies between, with weights: linear between the bins' centres, so that one
    more tile of ukeire moves the numbers a little, not a whole bin at an edge.

    >>> blend(7, (0, 5, 9)), blend(0, (0, 5, 9))
    (((1, 0.875), (2, 0.125)), ((0, 1.0),))
    """
    c = _centres(edges)
    if value <= c[0]:
        return ((0, 1.0),)
    for j in range(len(c) - 1):
        if c[j] <= value < c[j + 1]:
            w = (value - c[j]) / (c[j + 1] - c[j])
            return ((j, 1.0 - w), (j + 1, w)) if w > 0 else ((j, 1.0),)
    return ((len(c) - 1, 1.0),)


def tile_edges(p: Position) -> tuple[int, ...]:
    s = min(p.shanten, MAX_SHANTEN)
    return TENPAI_TILES if s == 0 else UKEIRE[s]


def cell_keys(p: Position, tiles: int | None = None, draws: int | None = None) -> tuple[str, ...]:
    """The position's keys, most specific first: each later key drops a fact (the dealer, furiten,
    open or closed, how strong the threat is, riichi, the tiles, ...), so a thin cell borrows from
    a wider one. ``tiles`` / ``draws``: another bin of those facts than the position's own."""
    s = min(p.shanten, MAX_SHANTEN)
    t = _bin(p.tiles, tile_edges(p)) if tiles is None else tiles
    d = _bin(p.draws, DRAWS) if draws is None else draws
    threat = p.threat
    riichi = int(p.riichi)
    yaku = int(p.yaku)
    closed = int(p.closed)
    return (
        f"{s}|{t}|{d}|{riichi}|{closed}|{yaku}|{threat}|{int(p.furiten)}|{int(p.dealer)}",
        f"{s}|{t}|{d}|{riichi}|{closed}|{yaku}|{threat}|{int(p.furiten)}",
        f"{s}|{t}|{d}|{riichi}|{closed}|{yaku}|{threat}",
        f"{s}|{t}|{d}|{riichi}|{yaku}|{min(threat, THREAT_RIICHI)}",
        f"{s}|{t}|{d}|{riichi}|{yaku}",
        f"{s}|{t}|{d}|{yaku}",
        f"{s}|{d}|{yaku}",
        f"{s}|{yaku}",
        f"{s}",
    )


def blended_keys(p: Position) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """The keys of the bins ``p`` lies between (tiles and draws), each with its weight."""
    return tuple((wt * wd, cell_keys(p, t, d)) for t, wt in blend(p.tiles, tile_edges(p))
                 for d, wd in blend(p.draws, DRAWS))


# --------------------------------------------------------------------------------------- the discard now
def genbutsu(view: SeatView, seat: int) -> frozenset[int]:
    """Kinds safe against ``seat``'s hand by the rules of furiten as far as the view shows: its own
    river, and, after its riichi, what every other seat discarded since (the view has each river in
    order, not their interleaving: a seat's last k discards count, k being the riichi seat's
    discards after its riichi tile)."""
    pub = view.seats[seat]
    out = {d.tile.kind for d in pub.discards}
    if pub.riichi:
        at = next((i for i, d in enumerate(pub.discards) if d.riichi), None)
        if at is not None:
            k = len(pub.discards) - at - 1
            for s, other in enumerate(view.seats):
                if s != seat and k:
                    out.update(d.tile.kind for d in other.discards[-k:])
    return frozenset(out)


def dora_counts(view: SeatView) -> list[int]:
    dora = [0] * NUM_KINDS
    for t in view.dora_indicators:
        if t.kind < NUM_KINDS:
            dora[successor(t.kind)] += 1
    return dora


#: Bins of the defensive bot's danger score (``bots.defensive.danger``) summed over riichi seats.
DANGER: Final = (0, 1, 2, 4, 6, 8, 11)


def risk_key(view: SeatView, tile: Tile) -> str:
    """The key of the immediate deal-in table for discarding ``tile`` now: against riichi, the
    defensive bot's danger score of the tile (genbutsu, suji, kabe, honours by copies left, dora);
    without riichi, the tile's class, an open threat and the draws left."""
    seat = view.seat
    assert seat is not None
    threat = threat_level(view)
    kind = tile.kind
    draws = min(_bin(view.wall_remaining // 3, DRAWS), 6)
    if threat >= THREAT_RIICHI:
        unseen = list(view.unseen)
        dora = dora_counts(view)
        score = sum(danger(kind, set(genbutsu(view, s)), unseen, dora)
                    for s, p in enumerate(view.seats) if s != seat and p.riichi)
        return f"r{threat}|{_bin(score, DANGER)}|{min(draws, 4) // 2}"
    # no riichi: what the tile is (a terminal or honour, a simple; a dora) and how late it is
    klass = 0 if kind in YAOCHUU else 1
    if dora_counts(view)[kind] or (tile.red):
        klass = 2
    return f"n{threat}|{klass}|{draws}"


def seat_winds(view: SeatView) -> tuple[str, ...]:
    return tuple(seat_wind(s, view.dealer) for s in range(len(view.seats)))


__all__ = [
    "DISCARDS", "THREAT_NONE", "THREAT_OPEN", "THREAT_RIICHI", "THREAT_TWO", "After", "OptionError", "Position",
    "blended_keys", "cell_keys", "draws_left", "genbutsu", "hand_after", "position", "risk_key", "threat_level",
]
