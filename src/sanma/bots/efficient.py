"""``efficient``: a tile-efficiency bot on the exact shanten tables.

It wins whenever it can; declares riichi as soon as it is tenpai with a closed hand; discards
the tile that leaves the lowest shanten, then the most tiles that improve it (ukeire, counting
only tiles it cannot see), then the least valuable tile (no dora, no value honour, outer tiles
first); pulls kita unless the North is worth more in the hand; pons a value tile (yakuhai)
when that does not cost shanten, and any other tile only when it lowers the shanten and the
open hand still has a yaku in reach (yakuhai, honitsu, tanyao, toitoi); makes a concealed or
added kan when it costs nothing; passes otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..game.actions import Action
from ..game.legal import riichi_wait_violation
from ..game.view import SeatView
from ..rules.schema import Rules
from ..shanten_table import DiscardOption, discard_candidates, shanten_counts
from ..tiles import NORTH, NUM_KINDS, YAOCHUU
from .base import Bot, HandView, read_view

NUKI_MODES = ("nuki", "nuki_restricted")
SIMPLES = frozenset(k for k in range(27) if k % 9 not in (0, 8))


@dataclass(frozen=True, slots=True)
class YakuPlan:
    """A route to a yaku for an open hand: its name, its cost and the tiles that leave it."""

    name: str
    cost: int  # roughly how many tiles must still change
    off: frozenset[int]  # kinds that do not fit the plan


SECURED = YakuPlan("secured", 0, frozenset())


def open_hand_plan(counts: list[int], meld_kinds: Iterable[tuple[str, int]], yakuhai: frozenset[int],
                   rules: Rules) -> YakuPlan | None:
    """The cheapest yaku an open hand can still reach, ``SECURED`` when it already has one, or
    None when none is in reach.

    >>> from sanma.tiles import counts34, parse_tiles
    >>> from sanma.rules import Rules
    >>> c = counts34(parse_tiles("2345p67p88s9s1z"))
    >>> p = open_hand_plan(c, [("pon", 13)], frozenset({27, 31, 32, 33}), Rules.preset("tenhou"))
    >>> p.name, p.cost, sorted(p.off)
    ('tanyao', 2, [26, 27])
    """
    melds = list(meld_kinds)
    if any(k in yakuhai for _, k in melds) or any(counts[k] >= 3 for k in yakuhai):
        return SECURED
    held = [k for k in range(NUM_KINDS) if counts[k]]
    plans: list[YakuPlan] = []
    meld_set = {k for _, k in melds}
    for suit in range(3):  # honitsu / chinitsu
        if all(k >= 27 or k // 9 == suit for k in meld_set):
            off = frozenset(k for k in held if k < 27 and k // 9 != suit)
            plans.append(YakuPlan("honitsu", sum(counts[k] for k in off), off))
    if rules.kuitan == "yes" and all(k in SIMPLES for k in meld_set):
        off = frozenset(k for k in held if k not in SIMPLES)
        plans.append(YakuPlan("tanyao", sum(counts[k] for k in off), off))
    pairs = [k for k in held if counts[k] >= 2]
    needed = 5 - len(melds)  # sets still to make, and the pair
    if len(pairs) >= needed - 1:
        off = frozenset(k for k in held if counts[k] == 1)
        plans.append(YakuPlan("toitoi", 2 * max(0, needed - len(pairs)), off))
    value_pairs = [k for k in pairs if k in yakuhai]
    if value_pairs and rules.atozuke != "sakizuke":
        # A value pair waiting for its third tile. Under sakizuke (P67) a shanpon on it would win
        # on one tile only (katagari), which those rules forbid: no plan.
        plans.append(YakuPlan("yakuhai", 1, frozenset()))
    if not plans:
        return None
    best = min(plans, key=lambda p: p.cost)
    return best if best.cost <= 3 else None


class EfficientBot(Bot):
    """Shanten first, then ukeire; riichi when tenpai and closed; see the module docstring."""

    name = "efficient"

    def __init__(self, seed: int | str = 0, rules: Rules | None = None) -> None:
        self.seed = seed  # the choices are deterministic; the seed is kept for the protocol
        self.rules = rules if rules is not None else Rules.preset("tenhou")
        self._four_ok = self.rules.chiitoi_four_of_a_kind

    # -------------------------------------------------------------------------------- entry
    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        for a in legal:
            if a.type == "hora":
                return a
        if len(legal) == 1:
            return legal[0]
        if view is None:
            raise ValueError(f"{self.name} reads the seat's view: it was given none")
        hand = read_view(view, self.rules)
        if any(a.type == "none" for a in legal):
            return self.respond(hand, legal)
        return self.turn(hand, self.without_riichi_violations(view, hand, legal))

    def without_riichi_violations(self, seat_view: SeatView, view: HandView,
                                  legal: tuple[Action, ...]) -> tuple[Action, ...]:
        """Drop a riichi the rules would punish as a chombo (P77, P80): noten, or furiten where
        furiten riichi is forbidden (the engine's rule, ``legal.riichi_wait_violation``). Where
        such a riichi is impossible the engine never offers it."""
        r = self.rules
        if r.riichi_violation == "impossible":
            return legal
        river = {d.tile.kind for d in seat_view.seats[view.seat].discards}
        return tuple(a for a in legal if a.type not in ("reach", "open_reach") or a.tile is None
                     or not riichi_wait_violation(r, view.counts, river, a.tile))

    # -------------------------------------------------------------------------------- own turn
    def options(self, view: HandView) -> tuple[DiscardOption, ...]:
        return discard_candidates(view.counts, view.melds, view.visible, chiitoi_four_ok=self._four_ok)

    def keep_value(self, view: HandView, kind: int) -> int:
        """How much a tile is worth keeping beyond efficiency (higher: discard later)."""
        v = 4 * view.dora[kind]
        if kind in view.yakuhai:
            v += 2 if view.counts[kind] >= 2 else 1
        if kind < 27:
            v += min(kind % 9, 8 - kind % 9, 2)  # outer tiles go first
        return v

    def discard_key(self, view: HandView) -> Callable[[DiscardOption], tuple[int, int, int, int]]:
        plan = None if view.closed else open_hand_plan(view.counts, view.meld_kinds, view.yakuhai, self.rules)
        off = plan.off if plan is not None else frozenset()

        def key(o: DiscardOption) -> tuple[int, int, int, int]:
            return (o.shanten, 0 if o.kind in off else 1, -o.ukeire, self.keep_value(view, o.kind))

        return key

    def choose_discard(self, view: HandView, options: tuple[DiscardOption, ...],
                       allowed: set[int]) -> DiscardOption:
        usable = [o for o in options if o.kind in allowed] or list(options)
        return min(usable, key=self.discard_key(view))

    def turn(self, view: HandView, legal: tuple[Action, ...]) -> Action:
        by_type: dict[str, list[Action]] = {}
        for a in legal:
            by_type.setdefault(a.type, []).append(a)
        if view.riichi:  # only kita, a kan that keeps the wait, or the drawn tile
            for t in ("kita", "ankan"):
                if t in by_type:
                    return by_type[t][0]
            return by_type["dahai"][0]
        if "ryukyoku" in by_type and sum(1 for k in YAOCHUU if view.counts[k]) < 11:
            return by_type["ryukyoku"][0]  # nine terminals and honours, too far from kokushi
        options = self.options(view)
        of_kind = {o.kind: o for o in options}
        allowed = {a.tile.kind for a in by_type.get("dahai", ()) if a.tile is not None}
        best = self.choose_discard(view, options, allowed)
        if "kita" in by_type and of_kind[NORTH].shanten <= best.shanten:
            return by_type["kita"][0]  # a free draw and a dora, unless the North is needed
        for a in by_type.get("ankan", ()):
            kind = a.consumed[0].kind
            c = list(view.counts)
            c[kind] -= 4
            if shanten_counts(c, view.melds + 1, chiitoi_four_ok=self._four_ok) <= best.shanten:
                return a
        for a in by_type.get("kakan", ()):
            assert a.tile is not None
            if of_kind[a.tile.kind].shanten <= best.shanten:
                return a
        reaches = [a for a in by_type.get("reach", ()) if a.tile is not None]
        if reaches and best.shanten == 0:
            def reach_key(a: Action) -> tuple[int, int]:
                assert a.tile is not None
                return -of_kind[a.tile.kind].ukeire, self.keep_value(view, a.tile.kind)

            r = min(reaches, key=reach_key)
            assert r.tile is not None
            if of_kind[r.tile.kind].ukeire > 0 or not self.rules.dama_allowed:
                return r
        return self.discard_action(by_type.get("dahai", []), best.kind, view)

    @staticmethod
    def discard_action(dahai: list[Action], kind: int, view: HandView) -> Action:
        """The discard of ``kind``: a plain five before a red one, the drawn tile first."""
        same = [a for a in dahai if a.tile is not None and a.tile.kind == kind]
        if not same:
            return dahai[0]
        return min(same, key=lambda a: (a.tile is not None and a.tile.red, not a.tsumogiri))

    # -------------------------------------------------------------------------------- calls
    def respond(self, view: HandView, legal: tuple[Action, ...]) -> Action:
        passing = next(a for a in legal if a.type == "none")
        pons = [a for a in legal if a.type == "pon" and a.tile is not None]
        if not pons:
            return passing
        pon = min(pons, key=lambda a: sum(t.red for t in a.consumed))  # keep a red five in hand
        return pon if self.wants_pon(view, pon) else passing

    def wants_pon(self, view: HandView, pon: Action) -> bool:
        assert pon.tile is not None
        k = pon.tile.kind
        if k == NORTH and k not in view.yakuhai and self.rules.north_mode in NUKI_MODES:
            return False  # Norths are pulled, not ponned
        c = view.counts
        before = shanten_counts(c, view.melds, chiitoi_four_ok=self._four_ok)
        after_counts = list(c)
        after_counts[k] -= 2
        melds_after = [*view.meld_kinds, ("pon", k)]
        opts = discard_candidates(after_counts, len(melds_after), view.visible, chiitoi_four_ok=self._four_ok)
        usable = [o for o in opts if o.kind != k or self.rules.kuikae] or list(opts)
        after = min(o.shanten for o in usable)
        if k in view.yakuhai:
            return after <= before
        if after >= before:
            return False
        plan = open_hand_plan(after_counts, melds_after, view.yakuhai, self.rules)
        return plan is not None and plan.cost <= 2
