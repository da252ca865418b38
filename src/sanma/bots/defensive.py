"""``defensive``: the efficient bot, plus push/fold by expected value against riichi and open threats.

Facing a threat — an opponent in riichi, or one with three or four melds (likely tenpai) — it
compares, in points as the preset pays them (see :mod:`sanma.bots.value`), what pushing wins
with what it risks:

* the win: a tenpai hand is scored on each of its waits by the rules' own scorer (riichi,
  ron from the threat or tsumo under the preset's tsumo payment, kita, red fives, expected ura,
  chips); a hand short of tenpai by its dora plus the riichi it would make;
* the chances: a race between its waits (or its ukeire, one step per shanten) and the threats,
  with a deal-in chance per pushed tile and a small one per folded tile;
* the deal-in: the threat's estimated hand (riichi, ura, shown dora, the dora it probably
  hides), the sticks, chips, and the bust chips and dobon fee when it would bust this seat;
* placement: every outcome is valued with the uma, oka and chips of the final result it leads
  to, fully in the last hand (or when a bust ends the game) and less the earlier it is.

It pushes when the expected gain is positive: it discards the safest tile that keeps the
shanten and at least half the ukeire (and declares riichi with that tile). Otherwise it folds,
discarding the safest tile it holds:

* genbutsu: a tile the threat discarded (furiten makes it safe), or one anybody discarded
  after its riichi (the riichi player let it pass) — the latter needs ``on_event``;
* honours and 1m/9m (no sequences in sanma manzu): the fewer unseen copies, the safer;
* suji: a ryanmen wait through a tile is ruled out when the tile three away was discarded by
  the threat; kabe: also when all four of a neighbour that the ryanmen needs are seen;
* among equally safe tiles, efficiency decides; dora are dangerous.

With nobody threatening it plays like ``efficient``, except that in the last hand, as the top,
it keeps a tenpai that wins by ron on every wait without riichi silent (dama). It pons only into
tenpai while somebody is in riichi.
"""

from __future__ import annotations

from typing import Any, Final

from ..agari import waits
from ..game.actions import Action
from ..game.view import SeatView
from ..rules.schema import Rules
from ..shanten_table import DiscardOption, discard_candidates
from ..tiles import NUM_KINDS, Tile
from .base import HandView
from .efficient import EfficientBot, open_hand_plan
from .value import (
    CHIP_POINTS,
    Table,
    deal_in_value,
    distant_han,
    estimated_win_value,
    hand_tiles,
    own_dora,
    race,
    table_of,
    tenpai_value,
    threat_han,
)

#: Chance that an open hand with this many melds is tenpai (a threat's weight).
OPEN_THREAT: Final = {3: 0.5, 4: 0.8}
#: Unseen winning tiles a hand not yet tenpai expects to wait on.
TYPICAL_LIVE: Final = 5


def _kind(name: str) -> int:
    return Tile.from_mjai(name).kind


def danger(kind: int, genbutsu: set[int], unseen: list[int], dora: list[int]) -> int:
    """How likely ``kind`` deals into one riichi hand (0 = safe), given that hand's genbutsu
    and the unseen copies of each kind.

    >>> unseen = [4] * 34
    >>> danger(13, set(), unseen, [0] * 34) > danger(13, {10}, unseen, [0] * 34) > 0  # 5p, suji 2p
    True
    >>> danger(13, {13}, unseen, [0] * 34), danger(27, set(), [1] * 34, [0] * 34)
    (0, 1)
    """
    if kind in genbutsu:
        return 0
    left = unseen[kind]
    if kind >= 27 or kind < 9:  # honours and manzu (1m, 9m): only tanki or shanpon
        return (0, 1, 3, 4, 4)[left] + dora[kind]
    n = kind % 9  # 0..8
    ryanmen = 0
    # Lower ryanmen (n-2, n-1) waits on n-3 / n; upper (n+1, n+2) waits on n / n+3.
    if n >= 3 and kind - 3 not in genbutsu and unseen[kind - 1] and unseen[kind - 2]:
        ryanmen += 1
    if n <= 5 and kind + 3 not in genbutsu and unseen[kind + 1] and unseen[kind + 2]:
        ryanmen += 1
    kanchan = 1 if 0 < n < 8 and unseen[kind - 1] and unseen[kind + 1] else 0
    single = 1 if left >= 1 else 0
    return 4 * ryanmen + kanchan + single + (2 if left >= 2 else 0) + 2 * dora[kind]


class DefensiveBot(EfficientBot):
    """Efficient play with push/fold by expected value (see the module docstring)."""

    name = "defensive"
    follows_events = True  # genbutsu: what anybody discarded after a riichi

    def __init__(self, seed: int | str = 0, rules: Rules | None = None, *, chip_points: float = CHIP_POINTS) -> None:
        super().__init__(seed, rules)
        self.chip_points = chip_points  # the bot's own chip rate when the rules convert none (rules.chip_points 0)
        self._after_riichi: dict[int, set[int]] = {}  # riichi seat -> kinds discarded since
        self._view: SeatView | None = None

    def on_event(self, event: dict[str, Any]) -> None:
        t = event.get("type")
        if t == "start_kyoku":
            self._after_riichi = {}
        elif t == "reach_accepted":
            self._after_riichi[event["actor"]] = set()
        elif t == "dahai":
            k = _kind(event["pai"])
            for seen in self._after_riichi.values():
                seen.add(k)

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        self._view = view
        return super().act(view, legal)

    @property
    def seen(self) -> SeatView:
        """The view of the decision being made."""
        assert self._view is not None, "read only while deciding"
        return self._view

    # -------------------------------------------------------------------------------- reading
    def genbutsu(self, seat: int) -> set[int]:
        out = {d.tile.kind for d in self.seen.seats[seat].discards}
        return out | self._after_riichi.get(seat, set())

    def threats(self, view: HandView) -> dict[int, float]:
        """Opponents likely tenpai, with the chance: riichi 1, three or four melds less."""
        out = {s: 1.0 for s in view.riichi_seats}
        for s, pub in enumerate(self.seen.seats):
            if s != view.seat and s not in out and len(pub.melds) in OPEN_THREAT:
                out[s] = OPEN_THREAT[len(pub.melds)]
        return out

    # -------------------------------------------------------------------------------- push or fold
    def push_gain(self, view: HandView, best: DiscardOption, threats: dict[int, float],
                  unseen: list[int]) -> float:
        """Expected points-equivalent gain of pushing with ``best`` rather than folding."""
        seen, rules = self.seen, self.rules
        table = table_of(seen, rules, self.chip_points)
        main = max(threats, key=lambda s: (threats[s], -s))
        pool = sum(unseen)
        turns = view.wall_remaining / 3
        threat_sum = sum(threats.values())
        loss = sum(p * deal_in_value(rules, table, s, threat_han(rules, seen, s, unseen, view.dora))
                   for s, p in threats.items()) / threat_sum
        if best.shanten == 0:
            value, live, furiten = self.tenpai_win(view, best.kind, table, main, unseen)
        else:
            value, live, furiten = self.distant_win(view, table, main), TYPICAL_LIVE, False
        if value <= 0 or live == 0:
            return loss  # nothing to win: any deal-in is pure loss (loss is negative)
        rc = race(best.shanten, live, best.ukeire, pool, turns, threat_sum, furiten)
        return rc.win * value + (rc.deal_in - rc.fold_deal_in) * loss

    def tenpai_win(self, view: HandView, discard: int, table: Table, discarder: int,
                   unseen: list[int]) -> tuple[float, int, bool]:
        """(average worth of a win, live winning tiles, furiten) of the tenpai left by ``discard``."""
        counts = list(view.counts)
        counts[discard] -= 1
        every_wait = waits(counts, self._four_ok)
        wait_kinds = [k for k in every_wait if unseen[k] > 0]
        if not wait_kinds:
            return 0.0, 0, False
        hand = hand_tiles(self.seen, discard)
        can_riichi = view.closed and table.scores[table.seat] >= self.rules.riichi_deposit
        if not view.closed and self.rules.atozuke == "sakizuke" and any(
                tenpai_value(self.rules, self.seen, table, hand, k, discarder, False).ron is None for k in every_wait):
            return 0.0, 0, False  # P67: an open hand wins only when every wait has a yaku
        river = {d.tile.kind for d in self.seen.seats[view.seat].discards} | {discard}
        furiten = bool(river & set(every_wait))
        total, live = 0.0, 0
        for k in wait_kinds:
            v = tenpai_value(self.rules, self.seen, table, hand, k, discarder, can_riichi)
            ways = [x for x in ((None if furiten else v.ron), v.tsumo) if x is not None]
            if ways:
                total += unseen[k] * sum(ways) / len(ways)
                live += unseen[k]
        return (total / live if live else 0.0), live, furiten

    def distant_win(self, view: HandView, table: Table, discarder: int) -> float:
        """Worth of a win for a hand short of tenpai: its dora, a yaku, and riichi when closed."""
        if not view.closed and open_hand_plan(view.counts, view.meld_kinds, view.yakuhai, self.rules) is None:
            return 0.0  # an open hand with no yaku in reach cannot win
        han = distant_han(self.rules, own_dora(self.rules, self.seen, view.dora), view.closed)
        return estimated_win_value(self.rules, table, han, discarder)

    def choose_discard(self, view: HandView, options: tuple[DiscardOption, ...],
                       allowed: set[int]) -> DiscardOption:
        best = super().choose_discard(view, options, allowed)
        threats = self.threats(view) if not view.riichi else {}
        if not threats:
            return best
        unseen = [4 - view.counts[k] - view.visible[k] for k in range(NUM_KINDS)]
        safe = [(self.genbutsu(s), p) for s, p in threats.items()]
        usable = [o for o in options if o.kind in allowed] or list(options)
        key = self.discard_key(view)

        def safest(o: DiscardOption) -> tuple[float, tuple[int, int, int, int]]:
            return sum(p * danger(o.kind, g, unseen, view.dora) for g, p in safe), key(o)

        if self.push_gain(view, best, threats, unseen) > 0:  # push
            floor = max(1, best.ukeire // 2)
            keep = [o for o in usable if o.shanten == best.shanten and o.ukeire >= floor]
            return min(keep, key=safest) if keep else best
        return min(usable, key=safest)

    # -------------------------------------------------------------------------------- riichi, calls
    def keeps_dama(self, view: HandView, legal: tuple[Action, ...]) -> bool:
        """In the last hand, as the top, a tenpai that wins by ron on every wait stays silent."""
        table = table_of(self.seen, self.rules, self.chip_points)
        if table.hands_left or not self.rules.dama_allowed or table.scores[table.seat] < max(table.scores):
            return False
        reach = next(a for a in legal if a.type == "reach" and a.tile is not None)
        assert reach.tile is not None
        counts = list(view.counts)
        counts[reach.tile.kind] -= 1
        wait_kinds = waits(counts, self._four_ok)
        hand = hand_tiles(self.seen, reach.tile.kind)
        opponent = (table.seat + 1) % 3
        return bool(wait_kinds) and all(
            tenpai_value(self.rules, self.seen, table, hand, k, opponent, False).ron is not None for k in wait_kinds)

    def turn(self, view: HandView, legal: tuple[Action, ...]) -> Action:
        threatened = bool(self.threats(view))
        if not threatened and any(a.type == "reach" for a in legal) and self.keeps_dama(view, legal):
            legal = tuple(a for a in legal if a.type != "reach")
        if threatened and not view.riichi:
            legal = tuple(a for a in legal if a.type != "kakan")  # a kakan can be robbed (chankan)
            if any(a.type == "reach" for a in legal):  # riichi with the tile the push would discard
                allowed = {a.tile.kind for a in legal if a.type == "dahai" and a.tile is not None}
                push = self.choose_discard(view, self.options(view), allowed).kind
                legal = tuple(a for a in legal if a.type != "reach" or (a.tile is not None and a.tile.kind == push))
        return super().turn(view, legal)

    def wants_pon(self, view: HandView, pon: Action) -> bool:
        if not super().wants_pon(view, pon):
            return False
        if not view.riichi_seats:
            return True
        assert pon.tile is not None
        c = list(view.counts)
        c[pon.tile.kind] -= 2
        opts = discard_candidates(c, view.melds + 1, view.visible, chiitoi_four_ok=self._four_ok)
        return min(o.shanten for o in opts) == 0


__all__ = ["DefensiveBot", "danger"]
