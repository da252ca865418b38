"""Rollouts: each option played out to the end of the hand by the engine and the bots, over hidden
tiles sampled from what the reviewed seat could see (``sanma review --depth N``).

A *world* is one sample of what the seat could not see: the tiles the opponents hold now, the
live wall still to come and the dead wall's hidden tiles are shuffled among those places; every
tile the seat saw stays where it was, and so does every tile an opponent has shown (discarded,
called, pulled) — where in its hand a shown tile sat does not change what follows. A riichi
hand is then made tenpai by exchanging its tiles with the hidden pool (a riichi is a tenpai
statement everyone sees). The hand is dealt again on that wall and its recorded actions are
replayed up to the decision, so the new game is the decision's table in every visible respect.

Each option is then played in each world (the same worlds for every option: their differences
are what the review reads) and the ``defensive`` bot plays every seat to the end of the hand; the
win, the deal-in, the points and the placement value (``bots.value``) are averaged.

>>> from sanma.rules import Rules
>>> from sanma.sim.arena import play_game_events
>>> from sanma.formats import read_mjai
>>> from sanma.formats.mjai import write_mjai
>>> from sanma.review.walk import walk
>>> rec = read_mjai(write_mjai(play_game_events(Rules.preset("tenhou"), ["defensive"] * 3, "doc", 0)))
>>> game = walk(rec, seats=(0,), keep_games=True)
>>> d = next(x for x in game.decisions if x.played.type == "dahai")
>>> w = World.sample(d, game.rules, seed=1)
>>> w.game.view(0).hand == d.view.hand, w.game.legal_actions(0) == d.legal
(True, True)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..agari import waits
from ..bots import Driver, make_bot
from ..bots.value import Payoff, placement_value, table_of, value_of
from ..errors import SanmaError
from ..game.actions import Action
from ..game.engine import Game
from ..game.wall import HAIPAI_POSITIONS, Wall
from ..i18n.messages import Message, sentence
from ..rules.schema import Rules
from ..shanten_table import shanten_counts
from ..tiles import NUM_KINDS, SEATS, Tile
from .model import Estimate, Evaluator
from .position import genbutsu
from .walk import Decision

#: Exchanges tried to make a sampled riichi hand tenpai before the world is drawn again.
TENPAI_TRIES: Final = 400
#: Samples of a world tried before the decision is valued by the model alone.
WORLD_TRIES: Final = 4


class WorldError(SanmaError):
    """A world that cannot be built (the hand's actions do not replay on the sampled wall)."""


@dataclass
class World:
    """One sample of the hidden tiles, with the hand replayed up to the decision."""

    game: Game
    start: int  # index of the hand's start_kyoku in ``game.events``

    @staticmethod
    def sample(d: Decision, rules: Rules, seed: object) -> World:
        """A world for decision ``d`` (walked with ``keep_games``), sampled with ``random.Random(seed)``."""
        if d.game is None:
            raise WorldError("the decision was walked without its game (walk(..., keep_games=True))")
        rng = random.Random(str(seed))
        last: Exception | None = None
        for _ in range(WORLD_TRIES):
            try:
                return _world(d, rules, rng)
            except (SanmaError, LookupError, AssertionError) as e:
                last = e
        raise WorldError(f"no world replays hand {d.hand} up to step {d.step}: {last}")


def _world(d: Decision, rules: Rules, rng: random.Random) -> World:
    g0 = d.game
    assert g0 is not None
    events = g0.events
    start = len(events) - 1
    while events[start]["type"] != "start_kyoku":
        start -= 1
    sk = events[start]
    dealer = int(sk["oya"])
    wall0 = g0.wall
    tiles = list(wall0.tiles)
    probe = Wall(rules, tuple(tiles), wall0.dice, check=False)
    known: set[int] = set(probe.indicator_positions)
    held: list[list[tuple[Tile, int]]] = [[] for _ in range(SEATS)]
    for i, pos in enumerate(HAIPAI_POSITIONS):
        seat = (dealer + i) % SEATS
        held[seat] = [(tiles[p], p) for p in pos]
        known.update(pos)
    drawn: list[int | None] = [None] * SEATS  # the place of each seat's tile just drawn
    for e in events[start + 1:]:
        t = e["type"]
        if t == "tsumo":
            p = probe.replacement_position() if e.get("rinshan") else probe.draw_position()
            if tiles[p].mjai != e["pai"] and str(tiles[p]) != e["pai"]:
                raise WorldError(f"the wall does not give the recorded draw {e['pai']}")
            known.add(p)
            held[e["actor"]].append((tiles[p], p))
            drawn[e["actor"]] = p
        elif t == "dora":
            known.add(probe.reveal_position())
        elif t in ("dahai", "kakan", "kita", "flower"):
            # a tsumogiri takes the tile just drawn; a tile from the hand is another copy
            _take(held[e["actor"]], e.get("pai", "N"), drawn[e["actor"]], bool(e.get("tsumogiri")))
            drawn[e["actor"]] = None
        elif t in ("pon", "daiminkan", "ankan"):
            for c in e["consumed"]:
                _take(held[e["actor"]], c)
    pool = [p for p in range(len(tiles)) if p not in known]
    for s in range(SEATS):
        if s != d.seat:
            pool += [p for _, p in held[s]]
    hidden = [tiles[p] for p in pool]
    rng.shuffle(hidden)
    for p, t in zip(pool, hidden, strict=True):
        tiles[p] = t
    riichi = [s for s in range(SEATS) if s != d.seat and d.view.seats[s].riichi]
    fixed = {p for s in riichi for _, p in held[s]}
    for s in riichi:  # a riichi hand is tenpai: exchange tiles with the pool until it is
        _make_tenpai(tiles, [p for _, p in held[s]], [p for p in pool if p not in fixed],
                     len(d.view.seats[s].melds), genbutsu(d.view, s), rules, rng)
    wall = Wall(rules, tuple(tiles), wall0.dice, check=False)
    first = [True]

    def walls(r: Rules, hand: int) -> Wall:
        if first[0]:
            first[0] = False
            return wall
        return Wall.shuffled(r, f"after:{hand}:{rng.random()}")

    game = Game(rules, seed="rollout", walls=walls, names=g0.names, scores=tuple(sk["scores"]),
                round_index=g0.round_index, kyoku=dealer, honba=int(sk["honba"]), kyotaku=int(sk["kyotaku"]),
                table_mistakes=g0.table_mistakes)
    _replay(game, d.history, d.seat)
    if d.seat not in game.to_move or game.legal_actions(d.seat) != d.legal:
        raise WorldError("the replayed hand does not reach the decision")
    begin = len(game.events) - 1
    while game.events[begin]["type"] != "start_kyoku":
        begin -= 1
    return World(game, begin)


def _replay(game: Game, history: Sequence[Action], seat: int) -> None:
    """Apply the hand's recorded actions on the sampled wall. A seat the sample offers a call the
    record did not have passes; a sample in which an opponent could have won and did not (its
    hidden hand wins on a tile that went by) is refused: the record shows it was not so."""
    for a in history:
        if a.type == "none":
            if a.actor in game.to_move and any(x == a for x in game.legal_actions(a.actor)):
                _no_missed_win(game, a.actor, seat)
                game.apply(a)
            continue
        while True:
            movers = game.to_move
            own_turn = a.type in TURN_ACTIONS or (a.type == "hora" and a.target == a.actor)
            waiting = [s for s in movers if s != a.actor or (own_turn and _offered_none(game, s))]
            if not waiting:
                break
            s = waiting[0]
            _no_missed_win(game, s, seat)
            none = next((x for x in game.legal_actions(s) if x.type == "none"), None)
            if none is None:
                raise WorldError(f"seat {s} must act where the record has seat {a.actor}")
            game.apply(none)
        if a.type != "hora" and a.actor != seat:
            _no_missed_win(game, a.actor, seat)
        game.apply(a)


#: Actions a seat takes on its own turn (never an answer to another seat's tile).
TURN_ACTIONS: Final = ("dahai", "reach", "open_reach", "kita", "ankan", "kakan", "ryukyoku")


def _offered_none(game: Game, s: int) -> bool:
    return any(x.type == "none" for x in game.legal_actions(s))


def _no_missed_win(game: Game, s: int, seat: int) -> None:
    if s != seat and any(x.type == "hora" for x in game.legal_actions(s)):
        raise WorldError(f"the sampled hand of seat {s} wins where the record goes on")


def _take(hand: list[tuple[Tile, int]], name: str, drawn: int | None = None, tsumogiri: bool = False) -> None:
    """Take the tile named ``name`` out of a tracked hand: the one just drawn (at ``drawn``) for a
    tsumogiri, else the earliest other copy that came in."""
    tile = Tile.from_mjai(name)
    order = sorted(range(len(hand)), key=lambda i: (hand[i][1] != drawn) if tsumogiri else (hand[i][1] == drawn, i))
    for i in order:
        if hand[i][0] == tile:
            del hand[i]
            return
    for i, (t, _) in enumerate(hand):  # a red five shown where a plain one was tracked, or the reverse
        if t.kind == tile.kind:
            del hand[i]
            return
    raise WorldError(f"{name} is not in the tracked hand")


def _make_tenpai(tiles: list[Tile], mine: list[int], others: list[int], melds: int, passed: frozenset[int],
                 rules: Rules, rng: random.Random) -> None:
    """Exchange tiles between a hand's places and the rest of the pool until the hand is tenpai on
    waits that did not go by (``passed``: its river and what was discarded since its riichi)."""
    four = rules.chiitoi_four_of_a_kind

    def shanten() -> int:
        c = [0] * NUM_KINDS
        for p in mine:
            if tiles[p].kind < NUM_KINDS:
                c[tiles[p].kind] += 1
        if sum(c) % 3 != 1:
            return 0
        n = shanten_counts(c, melds, chiitoi_four_ok=four)
        if n == 0 and any(k in passed for k in waits(c, four)):
            return 1  # tenpai on a tile that went by: it would have won (or be furiten)
        return n

    s = shanten()
    if not others:
        return
    for _ in range(TENPAI_TRIES):
        if s <= 0:
            return
        a, b = rng.choice(mine), rng.choice(others)
        tiles[a], tiles[b] = tiles[b], tiles[a]
        n = shanten()
        if n <= s:
            s = n
        else:
            tiles[a], tiles[b] = tiles[b], tiles[a]


class Rollouts:
    """Values options by playing them out (see the module docs); ``depth`` worlds per decision."""

    def __init__(self, rules: Rules, depth: int, *, seed: object = 0, evaluator: Evaluator | None = None,
                 bot: str = "defensive") -> None:
        self.rules = rules
        self.depth = depth
        self.seed = seed
        self.evaluator = evaluator if evaluator is not None else Evaluator(rules)
        self.bot = bot

    @property
    def name(self) -> Message:
        return sentence("sanma's rollouts with its bots: each option played out to the end of the hand {depth} times "
                        "by the {bot} bot over hidden tiles sampled from what the seat could see (riichi hands "
                        "tenpai); points from the rules' scorer and payments, placement from the bots' placement "
                        "model. Not a learned policy. Calibration: docs/REVIEW.md", depth=self.depth, bot=self.bot)

    def value(self, d: Decision, options: Sequence[Action]) -> list[Estimate]:
        """Every option of ``d`` valued by rollouts (the value model where no world can be built)."""
        model = self.evaluator.evaluate(d.view, options)
        worlds: list[World] = []
        for k in range(self.depth):
            try:
                worlds.append(World.sample(d, self.rules, (self.seed, d.hand, d.step, k)))
            except WorldError:
                continue
        if not worlds:
            return model
        table = table_of(d.view, self.rules, self.evaluator.chip_points)
        me = d.seat
        base = (d.view.scores[me] - self.rules.return_points
                + placement_value(self.rules, list(d.view.scores), me, table.hands_left + 1,
                                  chip_points=table.chip_points))
        out = []
        for est in model:
            wins = deals = 0
            won = points = worth = 0.0
            for k, w in enumerate(worlds):
                res = self.play(w, est, k, d)
                wins += res.win
                deals += res.deal_in
                won += res.delta if res.win else 0
                points += res.delta
                worth += value_of(self.rules, table, res.payoff)
            n = len(worlds)
            value = won / wins if wins else est.value
            out.append(Estimate(est.action, wins / n, deals / n, value, points / n, (base + worth / n) / 1000,
                                est.deal_in_now, est.position, est.follow))
        return out

    def play(self, w: World, est: Estimate, k: int, d: Decision) -> _Result:
        """Option ``est`` in world ``w``, played to the end of the hand."""
        g = copy.deepcopy(w.game)
        me = d.seat
        before = list(g.scores)
        chips = g.chips[me]
        hand = g.hand_number
        g.apply(est.action)
        if est.follow is not None and not g.done and g.hand_number == hand and me in g.to_move:
            follow = next((a for a in g.legal_actions(me) if a.type == "dahai" and a.tile == est.follow.tile), None)
            if follow is not None:
                g.apply(follow)
        bots = {s: make_bot(self.bot, seed=f"{self.seed}-{d.hand}-{d.step}-{k}-{s}", rules=self.rules)
                for s in range(SEATS)}
        Driver(g, bots, fed=w.start).run(stop=lambda x: x.hand_number != hand)
        return _result(g, w.start, me, before, chips)


@dataclass(frozen=True, slots=True)
class _Result:
    win: bool
    deal_in: bool
    delta: int
    payoff: Payoff


def _result(g: Game, start: int, me: int, before: list[int], chips: int) -> _Result:
    win = deal = False
    after: list[int] | None = None
    for e in g.events[start:]:
        t = e["type"]
        if t == "hora":
            win = win or e["actor"] == me
            deal = deal or (e["target"] == me and e["actor"] != me)
        elif t == "end_kyoku" and e.get("scores") is not None:
            after = list(e["scores"])
    if after is None:  # the game ended in the hand (its last end_kyoku carries the scores)
        after = list(g.scores)
    deltas = tuple(a - b for a, b in zip(after, before, strict=True))
    return _Result(win, deal and not win, deltas[me], Payoff(deltas, float(g.chips[me] - chips)))


__all__ = ["Rollouts", "World", "WorldError"]
