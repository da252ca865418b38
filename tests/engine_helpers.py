"""Shared helpers for the engine tests: a recording wall, scripted play and a simple bot.

Nothing here decides what a rule says: expected values live in the tests, as data from
RULES_MATRIX / the seeds / PLATFORMS.md. These helpers only drive ``sanma.game.engine.Game``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.game.wall import HAIPAI_POSITIONS, Wall, WallBuilder
from sanma.rules.schema import Rules
from sanma.shanten_table import shanten, shanten_counts
from sanma.tiles import NUM_KINDS, to_mpsz

PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")


def preset(name: str) -> Rules:
    return Rules.preset(name)


class RecordingWall(Wall):
    """A wall that records the deal-order position of every tile it hands out.

    It only observes: ``draw`` / ``draw_replacement`` are the wall's own; the record lets a test
    check that the engine holds exactly the tiles the wall gave it, each position at most once.
    """

    __slots__ = ("given",)

    given: list[int]

    @classmethod
    def of(cls, wall: Wall) -> RecordingWall:
        rec = cls(wall.rules, wall.tiles, wall.dice)
        rec.given = list(range(len(HAIPAI_POSITIONS) * len(HAIPAI_POSITIONS[0])))
        return rec

    def draw_position(self) -> int:
        pos = super().draw_position()
        self.given.append(pos)
        return pos

    def replacement_position(self) -> int:
        pos = super().replacement_position()
        self.given.append(pos)
        return pos

    def __deepcopy__(self, memo: dict[int, Any]) -> RecordingWall:
        other = RecordingWall(self.rules, self.tiles, self.dice, check=False)
        other._take_cursor(self)
        other.given = list(self.given)
        return other


def recording_walls(seed: int | str) -> Callable[[Rules, int], Wall]:
    """Seeded walls (as the engine's default) wrapped to record what they hand out."""
    return lambda rules, n: RecordingWall.of(Wall.shuffled(rules, f"{seed}:{n}"))


def first_wall(wall: Wall, seed: int | str = "later") -> Callable[[Rules, int], Wall]:
    """Hand 0 on ``wall`` (built for a test), every later hand on a seeded wall."""

    def walls(rules: Rules, n: int) -> Wall:
        return wall if n == 0 else Wall.shuffled(rules, f"{seed}:{n}")

    return walls


def walls_in_order(built: Sequence[Wall], seed: int | str = "later") -> Callable[[Rules, int], Wall]:
    """Hand ``n`` on ``built[n]`` while there are built walls, then seeded walls."""

    def walls(rules: Rules, n: int) -> Wall:
        return built[n] if n < len(built) else Wall.shuffled(rules, f"{seed}:{n}")

    return walls


def start(rules: Rules, *, east: str | None = None, south: str | None = None, west: str | None = None,
          draws: str | None = None, replacements: str | None = None, dora: str | None = None,
          ura: str | None = None, kan: str | None = None, kan_ura: str | None = None,
          dice: tuple[int, int] | None = None, scores: Sequence[int] | None = None, seed: int = 5,
          **kw: Any) -> Game:
    """A game whose first hand is dealt from a WallBuilder wall (seats 0, 1, 2 = E, S, W)."""
    wb = WallBuilder(rules, seed=seed).hands(east=east, south=south, west=west)
    if draws is not None:
        wb.draws(draws)
    if replacements is not None:
        wb.replacements(replacements)
    if any(x is not None for x in (dora, ura, kan, kan_ura)):
        wb.indicators(dora=dora, ura=ura, kan=kan, kan_ura=kan_ura)
    if dice is not None:
        wb.dice(*dice)
    return Game(rules, seed=seed, walls=first_wall(wb.build()), scores=scores, **kw)


def _matches(a: Action, type_: str, tile: str | None, tsumogiri: bool | None) -> bool:
    if a.type != type_:
        return False
    if tile is not None and (a.tile is None or str(a.tile) != tile):
        return False
    return tsumogiri is None or a.tsumogiri == tsumogiri


def find(g: Game, seat: int, type_: str, tile: str | None = None, tsumogiri: bool | None = None) -> Action | None:
    """The legal action of ``seat`` with this type (and tile, mpsz), or None."""
    for a in g.legal_actions(seat):
        if _matches(a, type_, tile, tsumogiri):
            return a
    return None


def has(g: Game, seat: int, type_: str, tile: str | None = None) -> bool:
    return find(g, seat, type_, tile) is not None


def act(g: Game, seat: int, type_: str, tile: str | None = None, tsumogiri: bool | None = None) -> Action:
    """Apply the legal action of ``seat`` of this type/tile; fail with the legal list otherwise."""
    a = find(g, seat, type_, tile, tsumogiri)
    if a is None:
        legal = [str(x) for x in g.legal_actions(seat)]
        raise AssertionError(f"seat {seat} cannot {type_} {tile or ''} now; to_move={g.to_move}, legal={legal}")
    g.apply(a)
    return a


def pass_all(g: Game, keep: Iterable[int] = ()) -> None:
    """Answer ``none`` for every seat with a pending call/ron choice, except the seats in ``keep``."""
    keep = set(keep)
    while True:
        pending = [s for s in g.to_move if s not in keep and has(g, s, "none")]
        if not pending:
            return
        act(g, pending[0], "none")


def discard(g: Game, seat: int, tile: str, *, keep: Iterable[int] = ()) -> None:
    """``seat`` discards ``tile`` (the drawn copy if it is one), then every call choice is passed."""
    a = find(g, seat, "dahai", tile, True) or find(g, seat, "dahai", tile)
    if a is None:
        legal = [str(x) for x in g.legal_actions(seat)]
        raise AssertionError(f"seat {seat} cannot discard {tile}; to_move={g.to_move}, legal={legal}")
    g.apply(a)
    pass_all(g, keep)


def tsumogiri(g: Game, seat: int, *, keep: Iterable[int] = ()) -> None:
    """``seat`` discards the tile it just drew, then every call choice is passed."""
    a = next((x for x in g.legal_actions(seat) if x.type == "dahai" and x.tsumogiri), None)
    if a is None:
        raise AssertionError(f"seat {seat} cannot discard its drawn tile; legal={g.legal_actions(seat)}")
    g.apply(a)
    pass_all(g, keep)


def events_of(g: Game, type_: str, since: int = 0) -> list[dict[str, Any]]:
    return [e for e in g.events[since:] if e["type"] == type_]


def last(g: Game, type_: str) -> dict[str, Any]:
    found = events_of(g, type_)
    assert found, f"no {type_} event; last events: {[e['type'] for e in g.events[-8:]]}"
    return found[-1]


def hand_of(g: Game, seat: int) -> list[str]:
    return sorted(str(t) for t in g.seats[seat].hand)


def play_out(g: Game, rng: random.Random | None = None, max_steps: int = 200_000, win_rate: float = 1.0,
             hands: int | None = None) -> None:
    """Finish the game (or ``hands`` more hands) with the greedy bot."""
    rng = rng or random.Random(0)
    target = None if hands is None else len(g.hand_results) + hands
    for _ in range(max_steps):
        if g.done or (target is not None and len(g.hand_results) >= target):
            return
        seat = g.to_move[0]
        g.apply(bot_action(g, seat, rng, win_rate=win_rate))
    raise AssertionError(f"game not over after {max_steps} steps")


def bot_action(g: Game, seat: int, rng: random.Random, *, eps: float = 0.1, win_rate: float = 0.95,
               call_rate: float = 0.3, riichi_rate: float = 0.7) -> Action:
    """A simple, seeded player: wins when it can, discards to lower shanten, sometimes plays at random.

    It uses the engine's seat state (a test helper may look; a real bot would read ``observation``).
    """
    acts = g.legal_actions(seat)
    assert acts, f"seat {seat} is to move but has no legal action"
    wins = [a for a in acts if a.type == "hora"]
    if wins and rng.random() < win_rate:
        return wins[0]
    if rng.random() < eps:
        return rng.choice(acts)
    calls = [a for a in acts if a.type in ("pon", "daiminkan")]
    if any(a.type == "none" for a in acts):
        if calls and rng.random() < call_rate:
            return rng.choice(calls)
        return next(a for a in acts if a.type == "none")
    specials = [a for a in acts if a.type in ("ankan", "kakan", "kita", "ryukyoku")]
    if specials and rng.random() < 0.5:
        return rng.choice(specials)
    riichis = [a for a in acts if a.type in ("reach", "open_reach")]
    if riichis and rng.random() < riichi_rate:
        return rng.choice(riichis)
    discards = [a for a in acts if a.type == "dahai"]
    if not discards:
        return rng.choice(acts)
    st = g.seats[seat]
    melds = len(st.melds)
    best: list[Action] = []
    best_s = 99
    for a in discards:
        assert a.tile is not None
        if a.tile.kind >= NUM_KINDS:
            continue
        c = list(st.counts)
        c[a.tile.kind] -= 1
        s = shanten_counts(c, melds)
        if s < best_s:
            best, best_s = [a], s
        elif s == best_s:
            best.append(a)
    return rng.choice(best or discards)


def build(rules: Rules, *, east: str | None = None, south: str | None = None, west: str | None = None,
          draws: str | None = None, replacements: str | None = None, dora: str | None = None,
          ura: str | None = None, kan: str | None = None, kan_ura: str | None = None,
          dice: tuple[int, int] | None = None, seed: int = 5) -> Wall:
    """A WallBuilder wall (seats named by wind in that hand: ``east`` is its dealer)."""
    wb = WallBuilder(rules, seed=seed).hands(east=east, south=south, west=west)
    if draws is not None:
        wb.draws(draws)
    if replacements is not None:
        wb.replacements(replacements)
    if any(x is not None for x in (dora, ura, kan, kan_ura)):
        wb.indicators(dora=dora, ura=ura, kan=kan, kan_ura=kan_ura)
    if dice is not None:
        wb.dice(*dice)
    return wb.build()


def draw_out(g: Game) -> None:
    """Play the current hand to its end without changing any hand: every seat discards what it
    draws (pulling a North it may not discard), and every call or win is passed."""
    n = len(g.hand_results)
    while len(g.hand_results) == n and not g.done:
        seat = g.to_move[0]
        if has(g, seat, "none"):
            act(g, seat, "none")
            continue
        a = next((x for x in g.legal_actions(seat) if x.type == "dahai" and x.tsumogiri), None)
        if a is None:
            a = find(g, seat, "kita")
        if a is None:
            raise AssertionError(f"seat {seat} cannot discard its draw: {[str(x) for x in g.legal_actions(seat)]}")
        g.apply(a)


def shanten_policy_move(g: Game, rng: random.Random) -> None:
    """One move of a fixed, seeded test policy (kept here, not in a bot, so bot changes do not move
    seeds): every win is taken, discards lower the shanten (riichi preferred), and one move in ten
    is any legal action (calls, kita, kans ...)."""
    seat = g.to_move[0]
    acts = g.legal_actions(seat)
    wins = [a for a in acts if a.type == "hora"]
    discards = [a for a in acts if a.type in ("dahai", "reach")]
    if wins:
        g.apply(wins[0])
    elif not discards or rng.random() < 0.1:
        g.apply(rng.choice(acts))
    else:
        hand = g.seats[seat].hand

        def value(a: Action) -> tuple[int, bool, float]:
            rest = list(hand)
            assert a.tile is not None
            rest.remove(a.tile)
            return shanten(to_mpsz(t for t in rest if not t.is_flower)), a.type != "reach", rng.random()

        g.apply(min(discards, key=value))
