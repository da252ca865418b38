"""What one seat (or a spectator) may know: the only way information leaves the engine.

``seat_view(game, seat)`` is everything seat ``seat`` may see now as plain typed values (own hand
with the drawn tile apart, its waits and furiten, every public fact, its legal actions);
``spectator_view(game)`` is the same table with no concealed tile at all. ``mask(e, seat)`` is a
typed event (``Game.log``) as that seat (``None``: a spectator) may see it, ``public_events`` a
stream of them in mjai form, ``mask_event`` the same for an mjai dict. Bots
(``Game.observation``), the mjai adapter, the simulator, the terminal and the browser table all
go through here.

>>> from sanma.rules import Rules
>>> from sanma.game.engine import Game
>>> g = Game(Rules.preset("tenhou"), seed=1)
>>> v = g.view(0)
>>> v.seat, len(v.hand), v.drawn is not None, v.seats[1].hand_size
(0, 14, True, 13)
>>> s = g.spectator_view()
>>> s.seat, s.hand, s.drawn, s.legal_actions
(None, (), None, ())
>>> mask(g.log[1], None).tehais[0][:2], mask(g.log[1], 0).tehais[0] == g.log[1].tehais[0]
((None, None), True)
>>> [t for t in mask_event(g.events[1], None)["tehais"][0]][:2]
['?', '?']
>>> "seed" in mask_event({**g.events[0], "seed": "7"}, 0)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..hand import MeldType
from ..tiles import NUM_KINDS, REMOVED_KINDS, Tile
from .actions import Action
from .legal import visible_counts

if TYPE_CHECKING:
    from .engine import Game
    from .seat import CalledMeld


@dataclass(frozen=True, slots=True)
class DiscardView:
    """One tile of a river: tsumogiri, the riichi tile (drawn sideways), called away by another seat."""

    tile: Tile
    tsumogiri: bool
    riichi: bool
    called: bool

    def to_json(self) -> dict[str, Any]:
        return {"pai": self.tile.mjai, "tsumogiri": self.tsumogiri, "riichi": self.riichi, "called": self.called}


MELD_KINDS = ("chi", "pon", "daiminkan", "kakan", "ankan")  # sanma has no chi: it never occurs


@dataclass(frozen=True, slots=True)
class MeldView:
    """A called or concealed meld; ``target`` is the seat the called tile came from (None: ankan).

    ``type`` is the engine's meld type (``pon``, ``kan``, ``ankan``); ``kind`` says which call made
    it (one of ``MELD_KINDS``): an open ``kan`` is a ``daiminkan`` (called from a discard) or a
    ``kakan`` (a tile added to a pon), and ``added`` is a kakan's added tile (drawn sideways on top
    of the called one). An ankan's tiles are public, as the engine's events show them.
    """

    type: MeldType
    tiles: tuple[Tile, ...]
    target: int | None
    called: Tile | None
    kind: str = ""
    added: Tile | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "kind": self.kind or self.type, "tiles": [t.mjai for t in self.tiles],
                "target": self.target, "called": self.called.mjai if self.called is not None else None,
                "added": self.added.mjai if self.added is not None else None}


@dataclass(frozen=True, slots=True)
class SeatPublic:
    """What everyone sees of one seat."""

    seat: int
    wind: str
    discards: tuple[DiscardView, ...]
    melds: tuple[MeldView, ...]
    kita: int
    flowers: int
    riichi: bool
    hand_size: int
    open_hand: tuple[Tile, ...] | None  # an open riichi hand (club rules) is shown to everyone

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "wind": self.wind, "discards": [d.to_json() for d in self.discards],
                "melds": [m.to_json() for m in self.melds], "kita": self.kita, "flowers": self.flowers,
                "riichi": self.riichi, "hand_size": self.hand_size,
                "open_hand": [t.mjai for t in self.open_hand] if self.open_hand is not None else None}


@dataclass(frozen=True, slots=True)
class SeatView:
    """The table as seat ``seat`` may see it (``seat`` None: a spectator, no concealed tile)."""

    seat: int | None
    round_wind: str
    round_index: int  # which lap of ``rules.round_winds`` ("EE" repeats a wind)
    kyoku: int
    honba: int
    kyotaku: int
    dealer: int
    turn: int
    to_move: tuple[int, ...]  # visible_to_move: the seat on turn, or during a call window only own decision
    scores: tuple[int, ...]
    names: tuple[str, ...]
    dora_indicators: tuple[Tile, ...]  # revealed so far
    wall_remaining: int
    hand: tuple[Tile, ...]  # own concealed tiles in the order they came, the drawn tile included
    drawn: Tile | None  # the tile just drawn, when it is this seat's turn to discard
    waits: tuple[Tile, ...]  # own waits (a 3n+1 hand in tenpai)
    furiten: bool
    riichi: bool
    legal_actions: tuple[Action, ...]
    seats: tuple[SeatPublic, ...]
    done: bool
    # Copies of each of the 34 kinds on the table for everyone to see: rivers (a called discard
    # once, in its meld), melds, kita, dora indicators (``legal.visible_counts``). The one home of
    # these counts: bots, the terminal and the review read them here.
    visible: tuple[int, ...]

    @property
    def unseen(self) -> tuple[int, ...]:
        """Copies of each kind this viewer cannot see: four less its own hand (the drawn tile
        included) and ``visible``, never below 0; 0 for 2m-8m, which sanma does not use. A spectator
        holds no tile.

        >>> from sanma.rules import Rules
        >>> from sanma.game.engine import Game
        >>> v = Game(Rules.preset("tenhou"), seed=1).view(0)
        >>> sum(v.unseen) == 4 * 27 - len(v.hand) - len(v.dora_indicators)
        True
        """
        left = [0 if k in REMOVED_KINDS else 4 - v for k, v in enumerate(self.visible)]
        for t in self.hand:
            if t.kind < NUM_KINDS:
                left[t.kind] -= 1
        return tuple(n if n > 0 else 0 for n in left)

    @property
    def waits_left(self) -> tuple[int, ...]:
        """Per wait, the copies of its kind this seat cannot see (``unseen``): what the table shows
        beside each wait (issue 18)."""
        unseen = self.unseen
        return tuple(unseen[w.kind] for w in self.waits)

    @property
    def closed_hand(self) -> tuple[Tile, ...]:
        """The hand without the drawn tile (which the table shows apart)."""
        if self.drawn is None:
            return self.hand
        hand = list(self.hand)
        hand.reverse()
        hand.remove(self.drawn)  # the drawn copy is the last one that came in
        hand.reverse()
        return tuple(hand)

    def to_json(self, *, sort: bool = True, seats_json: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Plain JSON; ``sort`` orders ``closed_hand`` (``hand`` is always sorted, as bots read it);
        ``seats_json`` is ``[s.to_json() for s in self.seats]`` when the caller already made it (the
        public part is the same for every viewer: a server makes it once per action)."""
        closed = sorted(self.closed_hand) if sort else list(self.closed_hand)
        return {
            "seat": self.seat,
            "round_wind": self.round_wind,
            "round_index": self.round_index,
            "kyoku": self.kyoku,
            "honba": self.honba,
            "kyotaku": self.kyotaku,
            "dealer": self.dealer,
            "turn": self.turn,
            "to_move": list(self.to_move),
            "scores": list(self.scores),
            "names": list(self.names),
            "dora_indicators": [t.mjai for t in self.dora_indicators],
            "wall_remaining": self.wall_remaining,
            "hand": sorted(t.mjai for t in self.hand),
            "closed_hand": [t.mjai for t in closed],
            "drawn": self.drawn.mjai if self.drawn is not None else None,
            "waits": [t.mjai for t in self.waits],
            "waits_left": list(self.waits_left),
            "furiten": self.furiten,
            "riichi": self.riichi,
            "seats": seats_json if seats_json is not None else [s.to_json() for s in self.seats],
            "legal_actions": [a.to_mjai() for a in self.legal_actions],
            "done": self.done,
        }


def added_kans(log: list[ev.Event]) -> dict[tuple[int, int], Tile]:
    """The current hand's added kans: (seat, tile kind) -> the added tile, from the public ``kakan``
    events since the last ``start_kyoku`` (the engine's meld keeps no trace of how its kan was made)."""
    out: dict[tuple[int, int], Tile] = {}
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if isinstance(e, ev.StartKyoku):
            break
        if isinstance(e, ev.Kakan):
            out[(e.actor, e.pai.kind)] = e.pai
    return out


def _meld(cm: CalledMeld, seat: int, kakan: dict[tuple[int, int], Tile]) -> MeldView:
    m = cm.meld
    added = kakan.get((seat, m.tiles[0].kind)) if m.type == "kan" else None
    kind = "daiminkan" if m.type == "kan" and added is None else "kakan" if m.type == "kan" else m.type
    return MeldView(m.type, tuple(m.tiles), cm.target, cm.called, kind, added)


def _public(game: Game, s: int, kakan: dict[tuple[int, int], Tile]) -> SeatPublic:
    st = game.seats[s]
    return SeatPublic(
        s, game.seat_wind(s),
        tuple(DiscardView(d.tile, d.tsumogiri, d.riichi, d.called) for d in st.discards),
        tuple(_meld(cm, s, kakan) for cm in st.melds),
        st.kita, st.flowers, st.riichi, len(st.hand), tuple(st.hand) if st.open_riichi else None)


def public_seats(game: Game) -> tuple[SeatPublic, ...]:
    """What everyone sees of every seat now: the same for each viewer (pass it to ``seat_view`` /
    ``spectator_view`` to build it once for all of them)."""
    kakan = added_kans(game.log) if any(cm.meld.type == "kan" for st in game.seats for cm in st.melds) else {}
    return tuple(_public(game, s, kakan) for s in range(len(game.seats)))


def visible_to_move(game: Game, seat: int | None) -> tuple[int, ...]:
    """Who must act now, as ``seat`` (``None``: a spectator) may know it. The seat on turn is
    public; while other seats decide on a discard, a kan or a kita (ron, pon, kan), only the
    viewer's own decision is: that another seat was offered a call would tell what it holds."""
    moving = game.to_move
    if not game._pending:
        return moving
    return (seat,) if seat in moving else ()


def _table(game: Game, seat: int | None, hand: tuple[Tile, ...], drawn: Tile | None, waits: tuple[Tile, ...],
           furiten: bool, riichi: bool, legal: tuple[Action, ...],
           public: tuple[SeatPublic, ...] | None) -> SeatView:
    return SeatView(
        seat, game.round_wind, game.round_index, game.kyoku_in_round + 1, game.honba, game.kyotaku, game.dealer,
        game._turn, visible_to_move(game, seat), tuple(game.scores), game.names, tuple(game.wall.dora_indicators),
        game.wall.remaining, hand, drawn, waits, furiten, riichi, legal,
        public if public is not None else public_seats(game), game.done,
        tuple(visible_counts(game.seats, game.wall.dora_indicators)))


def seat_view(game: Game, seat: int, public: tuple[SeatPublic, ...] | None = None) -> SeatView:
    """Everything ``seat`` may know now (issue 10 item 4); ``public``: ``public_seats(game)`` if made."""
    if not 0 <= seat < len(game.seats):
        raise ValueError(f"seat {seat} is not a seat of this table (0..{len(game.seats) - 1})")
    me = game.seats[seat]
    # held in a window (after a discard, a kan or a kita: Game(hold=True)) nobody is on a drawn tile: a
    # kita's North is set aside, and the replacement comes when the window closes; and a seat whose kita
    # (or added kan) was robbed ends the hand on no drawn tile: the seat is on a drawn tile only while its
    # concealed hand holds it (14 tiles less 3 a meld)
    drawn = game._drawn if (game._drawn is not None and game._turn == seat and not game._pending
                            and game.held != "window" and sum(me.counts) % 3 == 2) else None
    waits = tuple(Tile(k) for k in me.waits) if sum(me.counts) % 3 == 1 else ()
    return _table(game, seat, tuple(me.hand), drawn, waits, bool(waits) and game.furiten(seat), me.riichi,
                  game.legal_actions(seat), public)


def spectator_view(game: Game, public: tuple[SeatPublic, ...] | None = None) -> SeatView:
    """The table with no concealed tile at all: rivers, melds, kita, indicators, scores."""
    return _table(game, None, (), None, (), False, False, (), public)


def mask(e: ev.Event, seat: int | None) -> ev.Event:
    """An event as ``seat`` may see it (``None``: a spectator): other seats' deals and draws are
    hidden (``None`` tiles, ``"?"`` in mjai form), and ``start_game`` never carries a wall seed (the
    engine writes none; a stream from elsewhere may: it is published only after the game)."""
    if isinstance(e, ev.Tsumo):
        return e if e.actor == seat or e.pai is None else ev.Tsumo.of(e.actor, None, e.rinshan)
    if isinstance(e, ev.StartKyoku):
        hands = tuple(h if i == seat else (None,) * len(h) for i, h in enumerate(e.tehais))
        return ev.StartKyoku(e.bakaze, e.kyoku, e.honba, e.kyotaku, e.oya, e.dora_markers, e.scores, hands)
    if isinstance(e, ev.StartGame) and any(k == "seed" for k, _ in e.extra):
        return ev.StartGame(e.names, e.rules, e.scores, tuple((k, v) for k, v in e.extra if k != "seed"))
    return e


def mask_event(e: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An mjai event as ``seat`` may see it: :func:`mask` of the parsed event, in mjai form."""
    return mask(ev.parse_event(e), seat).to_mjai()


def public_events(log: Sequence[ev.Event], seat: int | None, start: int = 0,
                  mjai: Sequence[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """``log[start:]`` as ``seat`` (``None``: a spectator) may see it, in mjai form; ``mjai`` (the
    same events' dicts, ``Game.events``) is reused where :func:`mask` hides nothing."""
    out = []
    for i in range(start, len(log)):
        e = log[i]
        m = mask(e, seat)
        out.append(mjai[i] if mjai is not None and m is e else m.to_mjai())
    return out
