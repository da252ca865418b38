"""``defensive``: the efficient bot, plus push/fold against riichi.

When an opponent is in riichi it keeps pushing only with a tenpai hand, or a one-shanten hand
worth at least three dora; a push discards the safest tile that keeps the shanten and at least
half the ukeire (and declares riichi with that tile). Otherwise it folds, discarding the safest
tile it holds:

* genbutsu: a tile the riichi player discarded (furiten makes it safe), or one anybody
  discarded after the riichi (the riichi player let it pass) — the latter needs ``on_event``;
* honours and 1m/9m (no sequences in sanma manzu): the fewer unseen copies, the safer;
* suji: a ryanmen wait through a tile is ruled out when the tile three away was discarded by
  the riichi player; kabe: also when all four of a neighbour that the ryanmen needs are seen;
* among equally safe tiles, efficiency decides; dora are dangerous.

It pons only into tenpai while somebody is in riichi.
"""

from __future__ import annotations

from typing import Any

from ..game.actions import Action
from ..rules.schema import Rules
from ..shanten_table import DiscardOption, discard_candidates
from ..tiles import NUM_KINDS, Tile
from .base import HandView, Observation, read_observation
from .efficient import EfficientBot


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
    """Efficient play with push/fold against riichi (see the module docstring)."""

    name = "defensive"

    def __init__(self, seed: int | str = 0, rules: Rules | None = None) -> None:
        super().__init__(seed, rules)
        self._after_riichi: dict[int, set[int]] = {}  # riichi seat -> kinds discarded since

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

    def act(self, observation: Observation, legal: tuple[Action, ...]) -> Action:
        self._obs = observation
        return super().act(observation, legal)

    def genbutsu(self, seat: int) -> set[int]:
        out = {_kind(d["pai"]) for d in self._obs["seats"][seat]["discards"]}
        return out | self._after_riichi.get(seat, set())

    def hand_value(self, view: HandView) -> int:
        """Dora the hand holds: indicator dora, red fives, kita."""
        reds = sum(1 for name in self._obs["hand"] if name.endswith("r"))
        kita: int = self._obs["seats"][view.seat]["kita"]
        return sum(view.dora[k] * view.counts[k] for k in range(NUM_KINDS)) + reds + kita * self.rules.kita_dora

    def choose_discard(self, view: HandView, options: tuple[DiscardOption, ...],
                       allowed: set[int]) -> DiscardOption:
        best = super().choose_discard(view, options, allowed)
        if not view.riichi_seats or view.riichi:
            return best
        unseen = [4 - view.counts[k] - view.visible[k] for k in range(NUM_KINDS)]
        safe = [self.genbutsu(s) for s in view.riichi_seats]
        usable = [o for o in options if o.kind in allowed] or list(options)
        key = self.discard_key(view)

        def safest(o: DiscardOption) -> tuple[int, tuple[int, int, int, int]]:
            return sum(danger(o.kind, g, unseen, view.dora) for g in safe), key(o)

        if best.shanten == 0 or (best.shanten == 1 and self.hand_value(view) >= 3):  # push
            floor = max(1, best.ukeire // 2)
            keep = [o for o in usable if o.shanten == best.shanten and o.ukeire >= floor]
            return min(keep, key=safest) if keep else best
        return min(usable, key=safest)

    def turn(self, view: HandView, legal: tuple[Action, ...]) -> Action:
        if view.riichi_seats and not view.riichi:
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


__all__ = ["DefensiveBot", "danger", "read_observation"]
