"""The review's value model: each option of a decision with its chances and expected points.

For an option the model takes the :class:`~sanma.review.position.Position` it leaves and reads,
from outcome tables counted in games of the ``defensive`` bot (:mod:`sanma.review.fit`), how such
hands ended: won by ron or tsumo, dealt in, another seat won, a draw in tenpai or not. A discard
also has its chance of dealing in at once (by the defensive bot's danger score of the tile against
riichi, by the tile's class otherwise). What each ending is worth comes from the bots' value code
(:mod:`sanma.bots.value`), that is from the rules' own scorer and payments: a tenpai hand is
scored on every wait (ron and tsumo, riichi, kita, red fives, expected ura, chips), a hand short of
tenpai by its dora and the yaku and riichi it would make, a deal-in or another seat's win by the
threat's estimated hand, an exhaustive draw by the noten payments; placement by the uma, oka and
chips of the final result it leads to (``placement_value``).

So an option's numbers are: ``win`` and ``deal_in`` (chances this hand), ``value`` (the points the
seat gains when it wins), ``ev_points`` (expected point change this hand) and ``ev_placement``
(expected final points of the game, uma, oka and chips included, in thousands as the final result
counts them).

>>> from sanma.rules import Rules
>>> from sanma.game.engine import Game
>>> g = Game(Rules.preset("tenhou"), seed=2)
>>> v = g.view(g.to_move[0])
>>> ests = Evaluator(Rules.preset("tenhou")).evaluate(v)
>>> all(0 <= e.win <= 1 and 0 <= e.deal_in <= 1 for e in ests), len(ests) > 5
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from ..bots.base import HandView, read_view
from ..bots.value import (
    CHIP_POINTS,
    HandTiles,
    Payoff,
    Table,
    distant_han,
    draw_payoff,
    estimated_win_payoffs,
    hand_payoff,
    placement_value,
    table_of,
    threat_han,
    tile_dora,
    value_of,
    wait_payoffs,
    win_payoffs,
)
from ..game.actions import Action
from ..game.view import SeatView
from ..i18n.messages import Message, sentence
from ..rules.schema import Rules
from ..tiles import SEATS
from .fit import (
    CATEGORIES,
    DEAL_IN,
    DRAW_NOTEN,
    DRAW_TENPAI,
    OTHER_RON,
    OTHER_TSUMO,
    WIN_RON,
    WIN_TSUMO,
    Tables,
    threat_kind,
    win_key,
)
from .fit import distinct as distinct_options
from .position import After, OptionError, Position, blended_keys, dora_counts, hand_after, position, risk_key

#: How strongly a thin cell of the tables leans on the wider one it borrows from (pseudo-counts).
SMOOTHING: Final = 20.0
#: Chance that an opponent not in riichi is tenpai when the wall runs out (noten payments).
OTHER_TENPAI: Final = 0.45
#: How likely each opponent is the one who wins when another seat wins: riichi, open threat, other.
WINNER_WEIGHT: Final = {"riichi": 3.0, "open": 2.0, "quiet": 1.0}



def model_name(games: int) -> Message:
    """What the value model is, in words (the review's ``model``: docs/REVIEW.md, issue 21 item 6)."""
    return sentence("sanma value model: win, deal-in and outcome chances counted in {games:,} simulated hanchan of "
                    "its defensive bot, by the position each option leaves; points from the rules' scorer and "
                    "payments, placement from the bots' placement model. Not a learned policy. Calibration: "
                    "docs/REVIEW.md", games=games)


class OutcomeModel:
    """The outcome tables with their smoothing: a thin cell borrows from the wider cells above it."""

    def __init__(self, tables: Tables, smoothing: float = SMOOTHING) -> None:
        self.tables = tables
        self.k = smoothing
        total = [0] * len(CATEGORIES)
        for key, counts in tables.continuation.items():
            if "|" not in key:  # the widest keys (by shanten alone) sum every record once
                for i, n in enumerate(counts):
                    total[i] += n
        n = sum(total) or 1
        self.prior = [c / n for c in total]
        self.risk_parents: dict[str, list[int]] = {}
        for key, (count, hits) in tables.risk.items():
            parts = key.split("|")
            for depth in range(1, len(parts)):
                cell = self.risk_parents.setdefault("|".join(parts[:depth]), [0, 0])
                cell[0] += count
                cell[1] += hits
        rn = sum(v[0] for v in tables.risk.values()) or 1
        self.risk_prior = sum(v[1] for v in tables.risk.values()) / rn

    def win_han_offset(self, kind: str, tsumo: bool) -> float:
        """How many han the wins of a hand of this ``kind`` (riichi, open, dama) scored above what
        ``bots.value.threat_han`` expected of it, on average in the fitted games (0 without any)."""
        cell = self.tables.wins.get(win_key(kind, tsumo))
        if not cell or cell[0] <= 0:
            return 0.0
        return (cell[2] - cell[1]) / (cell[0] + self.k)

    def blended(self, pos: Position) -> list[float]:
        """Chance of each of ``CATEGORIES`` from ``pos``: the cells its tiles and draws lie between,
        weighed linearly (see ``position.blend``)."""
        out = [0.0] * len(CATEGORIES)
        for w, keys in blended_keys(pos):
            for i, x in enumerate(self.continuation(keys)):
                out[i] += w * x
        return out

    def continuation(self, keys: Sequence[str]) -> list[float]:
        """Chance of each of ``CATEGORIES`` from the position with these keys (most specific first)."""
        p = self.prior
        k = self.k
        for key in reversed(keys):
            c = self.tables.continuation.get(key)
            if c:
                n = sum(c)
                p = [(c[i] + k * p[i]) / (n + k) for i in range(len(p))]
        return p

    def risk(self, key: str) -> float:
        """Chance that a discard with this risk key deals in at once."""
        parts = key.split("|")
        p = self.risk_prior
        for depth in range(1, len(parts) + 1):
            sub = "|".join(parts[:depth])
            c = self.tables.risk.get(sub) if depth == len(parts) else self.risk_parents.get(sub)
            if c and c[0]:
                p = (c[1] + self.k * p) / (c[0] + self.k)
        return p


@cache
def default_model() -> OutcomeModel:
    """The tables shipped with sanma (``sanma/review/outcomes.json``)."""
    text = resources.files("sanma.review").joinpath("outcomes.json").read_text()
    return OutcomeModel(Tables.from_json(json.loads(text)))


@dataclass(frozen=True, slots=True)
class Estimate:
    """One option of a decision, valued (see the module docs); ``position`` is None for a win or an abort."""

    action: Action
    win: float
    deal_in: float
    value: float
    ev_points: float
    ev_placement: float
    deal_in_now: float = 0.0
    position: Position | None = None
    follow: Action | None = None  # after a pon: the discard it is valued with


#: (weight, payoff, its worth in points with placement: ``value_of``)
Weighted = tuple[float, Payoff, float]


@dataclass(frozen=True, slots=True)
class _Losses:
    """What the endings that are not this seat's win are worth, for one decision (riichi or not)."""

    deal_in: tuple[Weighted, ...]  # per opponent
    other_tsumo: tuple[Weighted, ...]
    other_ron: tuple[Weighted, ...]
    draw_tenpai: tuple[Weighted, ...]
    draw_noten: tuple[Weighted, ...]


class Evaluator:
    """Values every option of a seat's decision under ``rules`` (see the module docs)."""

    def __init__(self, rules: Rules, model: OutcomeModel | None = None, *, chip_points: float = CHIP_POINTS) -> None:
        self.rules = rules
        self.model = model if model is not None else default_model()
        self.chip_points = chip_points

    @property
    def name(self) -> Message:
        return model_name(self.model.tables.games)

    # ------------------------------------------------------------------------------------------ entry
    def evaluate(self, view: SeatView, legal: Sequence[Action] | None = None) -> list[Estimate]:
        """Every distinct option of ``legal`` (default: the view's legal actions), valued."""
        options = list(distinct_options(legal if legal is not None else view.legal_actions).values())
        if not options:
            return []
        ctx = _Decision(self, view)  # what losing is worth is the same for every option
        return [ctx.option(a) for a in options]

    def option(self, view: SeatView, action: Action) -> Estimate:
        """One option of the decision ``view`` shows, valued."""
        return _Decision(self, view).option(action)


class _Decision:
    """One decision's shared facts: the table, the hand counts, what losing is worth."""

    def __init__(self, ev: Evaluator, view: SeatView) -> None:
        if view.seat is None:
            raise OptionError("a spectator takes no decision")
        self.ev = ev
        self.rules = ev.rules
        self.view = view
        self.seat = view.seat
        self.table: Table = table_of(view, ev.rules, ev.chip_points)
        self.hand: HandView = read_view(view, ev.rules)
        self.unseen = list(view.unseen)
        self.dora = dora_counts(view)
        r = ev.rules
        me = self.seat
        self.base = (view.scores[me] - r.return_points
                     + placement_value(r, list(view.scores), me, self.table.hands_left + 1,
                                       chip_points=self.table.chip_points))
        self.opponents = [s for s in range(SEATS) if s != me]
        self._losses: dict[bool, _Losses] = {}

    # ------------------------------------------------------------------------------------------ options
    def option(self, a: Action) -> Estimate:
        t = a.type
        if t == "hora":
            return self.win_now(a)
        if t == "ryukyoku":  # nine terminals: the hand is played again, nothing paid
            return Estimate(a, 0.0, 0.0, 0.0, 0.0, self.base / 1000)
        if t == "pon":
            return self.pon(a)
        after = hand_after(self.view, a, self.rules)
        return self.continue_with(a, after)

    def win_now(self, a: Action) -> Estimate:
        """A win on offer (tsumo or ron): scored by the rules' scorer, ura dora by expectation."""
        v = self.view
        assert a.tile is not None
        tiles = list(v.hand)
        tsumo = a.target == self.seat
        if tsumo:
            drawn = v.drawn if v.drawn is not None and v.drawn.kind == a.tile.kind else a.tile
            tiles.remove(drawn) if drawn in tiles else tiles.remove(next(x for x in tiles if x.kind == a.tile.kind))
        me = v.seats[self.seat]
        from ..hand import Meld

        melds = tuple(Meld(m.type, m.tiles) for m in me.melds)
        hand = HandTiles(tuple(x for x in tiles if not x.is_flower), melds, all(m.type == "ankan" for m in melds),
                         me.kita, me.flowers)
        discarder = a.target if a.target is not None and not tsumo else self.opponents[0]
        ron, tsu = win_payoffs(self.rules, v, self.table, hand, a.tile.kind, discarder, v.riichi)
        pay = tsu if tsumo else ron
        if pay is None:  # the scorer refuses what the engine offers (a situational yaku only): a bare win
            pay = estimated_win_payoffs(self.rules, self.table, 1.0, discarder)[1 if tsumo else 0]
        worth = value_of(self.rules, self.table, pay)
        return Estimate(a, 1.0, 0.0, float(pay.deltas[self.seat]), float(pay.deltas[self.seat]),
                        (self.base + worth) / 1000)

    def pon(self, a: Action) -> Estimate:
        """A pon, valued with the best discard after it."""
        assert a.tile is not None
        tiles = list(self.view.hand)
        for c in a.consumed:
            tiles.remove(c) if c in tiles else tiles.remove(next(x for x in tiles if x.kind == c.kind))
        follows = {x.key: x for x in tiles if not x.is_flower and (self.rules.kuikae or x.kind != a.tile.kind)}
        best: Estimate | None = None
        for x in follows.values():
            after = hand_after(self.view, a, self.rules, follow=x)
            est = self.continue_with(a, after, follow=Action("dahai", self.seat, x))
            if best is None or est.ev_placement > best.ev_placement:
                best = est
        if best is None:
            raise OptionError(f"no discard after {a}")
        return best

    def continue_with(self, a: Action, after: After, follow: Action | None = None) -> Estimate:
        """An option after which the hand goes on."""
        r = self.rules
        pos = position(self.view, after, r, self.hand)
        probs = self.ev.model.blended(pos)
        now = 0.0
        if after.discard is not None:
            now = self.ev.model.risk(risk_key(self.view, after.discard))
        keep = 1.0 - now
        declare = a.type in ("reach", "open_reach") and not self.view.riichi
        losses = self.losses(declare)
        ron, tsumo = self.win_payoffs(after, pos, declare)
        p = [keep * x for x in probs]
        p[DEAL_IN] += now
        me = self.seat
        table = self.table
        outcomes: list[Weighted] = []
        for q, items in ((p[WIN_RON], ron), (p[WIN_TSUMO], tsumo)):
            outcomes += [(q * w, pay, value_of(r, table, pay)) for w, pay in items if q * w > 0]
        wins = p[WIN_RON] + p[WIN_TSUMO]
        won = sum(q * pay.deltas[me] for q, pay, _ in outcomes)
        for q, items2 in ((p[DEAL_IN], losses.deal_in), (p[OTHER_TSUMO], losses.other_tsumo),
                          (p[OTHER_RON], losses.other_ron), (p[DRAW_TENPAI], losses.draw_tenpai),
                          (p[DRAW_NOTEN], losses.draw_noten)):
            outcomes += [(q * w, pay, worth) for w, pay, worth in items2]
        rest = 1.0 - sum(q for q, _, _ in outcomes)  # an abort: nothing paid (a declared stick stays out)
        stick = -r.riichi_deposit if declare else 0
        ev_points = sum(q * pay.deltas[me] for q, pay, _ in outcomes) + rest * stick
        worth = sum(q * w for q, _, w in outcomes) + rest * stick
        value = won / wins if wins > 0 else _mean([pay.deltas[me] for _, pay in ron + tsumo])
        return Estimate(a, min(1.0, wins), min(1.0, p[DEAL_IN]), value, ev_points, (self.base + worth) / 1000, now,
                        pos, follow)

    # ------------------------------------------------------------------------------------------ payoffs
    def win_payoffs(self, after: After, pos: Position, riichi: bool
                    ) -> tuple[list[tuple[float, Payoff]], list[tuple[float, Payoff]]]:
        """(weight, payoff) of winning by ron and by tsumo from this hand."""
        r = self.rules
        view = self.view
        hand = HandTiles(after.concealed, after.melds, after.closed, after.kita, view.seats[self.seat].flowers)
        declared = riichi or after.riichi
        if pos.shanten == 0 and pos.yaku:
            from ..agari import waits

            ron: list[tuple[float, Payoff]] = []
            tsumo: list[tuple[float, Payoff]] = []
            wait = [k for k in waits(list(after.counts), r.chiitoi_four_of_a_kind) if self.unseen[k] > 0]
            live = sum(self.unseen[k] for k in wait)
            for k, rons, tp in wait_payoffs(r, view, self.table, hand, wait, self.opponents, declared):
                share = self.unseen[k] / live
                ron += [(share / len(self.opponents), rp) for rp in rons.values()]
                if tp is not None:
                    tsumo.append((share, tp))
            if ron or tsumo:
                return _normal(ron), _normal(tsumo)
        dora = sum(tile_dora(r, t, self.dora) for t in after.concealed)
        dora += sum(tile_dora(r, t, self.dora) for m in after.melds for t in m.tiles) + after.kita * r.kita_dora
        han = distant_han(r, dora, after.closed)
        ron_pays = []
        tsumo_pay: Payoff | None = None
        for j in self.opponents:
            rp, tp = estimated_win_payoffs(r, self.table, han, j)
            ron_pays.append((1 / len(self.opponents), _with_stick(rp, self.seat, -r.riichi_deposit if riichi else 0)))
            tsumo_pay = tp
        assert tsumo_pay is not None
        return ron_pays, [(1.0, _with_stick(tsumo_pay, self.seat, -r.riichi_deposit if riichi else 0))]

    def losses(self, declare: bool) -> _Losses:
        """What the other endings are worth (declaring riichi now: its stick is gone too)."""
        if declare in self._losses:
            return self._losses[declare]
        r = self.rules
        view = self.view
        me = self.seat
        stick = -r.riichi_deposit if declare else 0
        weights = {j: _threat_weight(view, j) for j in self.opponents}
        total = sum(weights.values())
        model = self.ev.model
        # the threat's hand as the bots estimate it, plus what such hands scored above that estimate
        base = {j: threat_han(r, view, j, self.unseen, self.dora) for j in self.opponents}
        kind = {j: threat_kind(view, j) for j in self.opponents}
        ron = {j: base[j] + model.win_han_offset(kind[j], False) for j in self.opponents}
        tsumo = {j: base[j] + model.win_han_offset(kind[j], True) for j in self.opponents}
        riichi_seats = [j for j in self.opponents if view.seats[j].riichi]
        into = riichi_seats or self.opponents

        def weighted(w: float, pay: Payoff) -> Weighted:
            pay = _with_stick(pay, me, stick)
            return w, pay, value_of(r, self.table, pay)

        deal_in = tuple(weighted(1 / len(into), hand_payoff(r, self.table, j, ron[j], me)) for j in into)
        other_tsumo = tuple(weighted(weights[j] / total, hand_payoff(r, self.table, j, tsumo[j], None))
                            for j in self.opponents)
        other_ron = tuple(weighted(weights[j] / total, hand_payoff(r, self.table, j, ron[j], k))
                          for j in self.opponents for k in self.opponents if k != j)
        draws: dict[bool, list[Weighted]] = {True: [], False: []}
        for mine in (True, False):
            chances: list[tuple[float, tuple[int, ...]]] = [(1.0, ())]  # (chance, tenpai opponents)
            for j in self.opponents:
                pj = 1.0 if view.seats[j].riichi else OTHER_TENPAI
                chances = [(c * pj, (*t, j)) for c, t in chances] + [(c * (1 - pj), t) for c, t in chances]
            for c, others in chances:
                if c > 0:
                    tenpai = (*others, me) if mine else others
                    draws[mine].append(weighted(c, draw_payoff(r, self.table, tenpai)))
        out = _Losses(deal_in, other_tsumo, other_ron, tuple(draws[True]), tuple(draws[False]))
        self._losses[declare] = out
        return out


def _threat_weight(view: SeatView, seat: int) -> float:
    pub = view.seats[seat]
    if pub.riichi:
        return WINNER_WEIGHT["riichi"]
    if len(pub.melds) >= 3:
        return WINNER_WEIGHT["open"]
    return WINNER_WEIGHT["quiet"]


def _with_stick(p: Payoff, seat: int, stick: int) -> Payoff:
    """``p`` with ``stick`` more for ``seat`` (a riichi stick declared now and not won back)."""
    if not stick:
        return p
    d = list(p.deltas)
    d[seat] += stick
    return Payoff(tuple(d), p.chips)


def _normal(items: list[tuple[float, Payoff]]) -> list[tuple[float, Payoff]]:
    total = sum(w for w, _ in items)
    return [(w / total, p) for w, p in items] if total > 0 else []


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


__all__ = ["Estimate", "Evaluator", "OutcomeModel", "default_model"]
