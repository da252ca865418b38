"""Bots: the registry, determinism, and the efficient / defensive decisions on set positions."""

from __future__ import annotations

from typing import Any

import pytest

from sanma.bots import BOTS, DefensiveBot, EfficientBot, RandomBot, TsumogiriBot, UnknownBotError, make_bot
from sanma.bots.efficient import open_hand_plan
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.sim import LazyObservation
from sanma.tiles import Tile, counts34, parse_tiles

TENHOU = Rules.preset("tenhou")


def seat_pub(discards: str = "", riichi: bool = False, melds: tuple[str, ...] = (), kita: int = 0) -> dict[str, Any]:
    return {
        "discards": [{"pai": t.mjai, "tsumogiri": False, "riichi": False, "called": False}
                     for t in parse_tiles(discards)],
        "melds": [{"type": "pon", "tiles": [t.mjai for t in parse_tiles(m)], "target": 1} for m in melds],
        "kita": kita, "flowers": 0, "riichi": riichi, "hand_size": 13, "open_hand": None,
    }


def observation(hand: str, drawn: str | None = None, *, seats: list[dict[str, Any]] | None = None,
                dora: str = "1s", seat: int = 0) -> dict[str, Any]:
    """A ``Game.observation``-shaped dict for seat 0 (dealer, East 1)."""
    tiles = list(parse_tiles(hand)) + (list(parse_tiles(drawn)) if drawn else [])
    return {
        "seat": seat, "round_wind": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "dealer": 0,
        "scores": [35000] * 3, "dora_indicators": [Tile.parse(dora).mjai], "wall_remaining": 40,
        "hand": sorted(t.mjai for t in tiles), "drawn": Tile.parse(drawn).mjai if drawn else None,
        "seats": seats or [seat_pub(), seat_pub(), seat_pub()], "legal_actions": [],
    }


def discards(hand: str, drawn: str, seat: int = 0) -> tuple[Action, ...]:
    tiles = dict.fromkeys(parse_tiles(hand))
    out = [Action("dahai", seat, t) for t in tiles]
    out.append(Action("dahai", seat, Tile.parse(drawn), tsumogiri=True))
    return tuple(out)


# ---------------------------------------------------------------------------------------- registry
def test_registry_makes_every_bot_by_name_and_rejects_unknown_names() -> None:
    for name in BOTS:
        assert make_bot(name, seed=1).name == name
    with pytest.raises(UnknownBotError, match="unknown bot 'nope': choose from defensive, efficient"):
        make_bot("nope")


def test_random_bot_is_seeded_uniform_and_deterministic() -> None:
    legal = tuple(Action("dahai", 0, Tile(k)) for k in (0, 8, 9, 10, 11, 12))
    runs = [[RandomBot(seed=s).act({}, legal) for _ in range(1)] for s in range(60)]
    picked = {r[0] for r in runs}
    assert len(picked) == len(legal)  # every action gets chosen by some seed
    a, b = RandomBot(seed="x"), RandomBot(seed="x")
    assert [a.act({}, legal) for _ in range(20)] == [b.act({}, legal) for _ in range(20)]


def test_tsumogiri_bot_wins_passes_and_discards_the_drawn_tile() -> None:
    bot = TsumogiriBot()
    drawn = Action("dahai", 0, Tile.parse("5p"), tsumogiri=True)
    hora = Action("hora", 0, Tile.parse("5p"), target=0)
    assert bot.act({}, (Action("dahai", 0, Tile.parse("1m")), drawn)) == drawn
    assert bot.act({}, (Action("dahai", 0, Tile.parse("1m")), drawn, hora)) == hora
    assert bot.act({}, (Action("pon", 1, Tile.parse("5z")), Action("none", 1))) == Action("none", 1)
    after_pon = (Action("dahai", 1, Tile.parse("1m")), Action("dahai", 1, Tile.parse("9m")))
    assert bot.act({}, after_pon) == after_pon[0]


def test_every_bot_plays_legal_actions_through_a_real_game() -> None:
    """Each bot drives all three seats of a short game: any illegal choice raises."""
    for name in BOTS:
        game = Game(TENHOU, seed=f"bots-{name}", max_hands=3)
        bots = [make_bot(name, seed=s, rules=TENHOU) for s in range(3)]
        while not game.done:
            for seat in game.to_move:
                game.apply(bots[seat].act(LazyObservation(game, seat), game.legal_actions(seat)))
        assert game.result is not None


# ---------------------------------------------------------------------------------------- efficient
def test_efficient_wins_whenever_it_can() -> None:
    hora = Action("hora", 0, Tile.parse("5p"), target=0)
    legal = (*discards("123p456p789s11s34p", "5p"), hora)
    assert EfficientBot().act(observation("123p456p789s11s34p", "5p"), legal) == hora


def test_efficient_discards_by_shanten_first() -> None:
    hand, drawn = "123p456p789s2356s", "7z"
    choice = EfficientBot().act(observation(hand, drawn), discards(hand, drawn))
    assert choice.tile == Tile.parse("7z") and choice.tsumogiri


def test_efficient_breaks_shanten_ties_by_ukeire() -> None:
    # Seven discards keep 1-shanten; the North leaves 20 improving tiles, the others 8 or 10
    # (1m, the lowest kind and an outer tile, is where a bot without ukeire would go).
    hand, drawn = "111m1117p23489s4z", "9p"
    choice = EfficientBot().act(observation(hand, drawn), discards(hand, drawn))
    assert choice.tile == Tile.parse("4z")


def test_efficient_declares_riichi_when_tenpai_and_closed() -> None:
    hand, drawn = "123p456p789s11s45p", "9m"
    reach = Action("reach", 0, Tile.parse("9m"), tsumogiri=True)
    legal = (*discards(hand, drawn), reach)
    assert EfficientBot().act(observation(hand, drawn), legal) == reach


def test_efficient_pulls_a_useless_north_but_keeps_a_needed_one() -> None:
    kita = Action("kita", 0, Tile.parse("4z"))
    hand, drawn = "123p456p789s23s99m", "4z"
    assert EfficientBot().act(observation(hand, drawn), (*discards(hand, drawn), kita)) == kita
    hand, drawn = "123p456p789s44z19m", "4z"  # the North triplet is one of the hand's sets
    choice = EfficientBot().act(observation(hand, drawn), (*discards(hand, drawn), kita))
    assert choice.type == "dahai" and choice.tile in (Tile.parse("1m"), Tile.parse("9m"))


def test_efficient_pons_a_value_tile_but_not_into_a_yakuless_open_hand() -> None:
    bot = EfficientBot()
    pon = Action("pon", 0, Tile.parse("5z"), consumed=(Tile.parse("5z"),) * 2, target=1)
    legal = (pon, Action("none", 0))
    assert bot.act(observation("55z19m1399p1357s7z"), legal) == pon  # white dragon: a yaku
    pon9p = Action("pon", 0, Tile.parse("9p"), consumed=(Tile.parse("9p"),) * 2, target=1)
    mixed = "99p19m135s357p123z"  # pon 9p: no yakuhai, not one suit, not all simples
    assert bot.act(observation(mixed), (pon9p, Action("none", 0))) == Action("none", 0)
    flush = "99p123p4568p2234z"  # pon 9p: honitsu in pinzu is close
    assert bot.act(observation(flush), (pon9p, Action("none", 0))) == pon9p


def test_open_hand_plan_names_the_cheapest_yaku() -> None:
    c = counts34(parse_tiles("2345p67p88s9s1z"))
    plan = open_hand_plan(c, [("pon", 13)], frozenset({27, 31, 32, 33}), TENHOU)
    assert plan is not None and plan.name == "tanyao" and plan.cost == 2
    assert open_hand_plan(c, [("pon", 31)], frozenset({31}), TENHOU) is not None
    assert open_hand_plan(counts34(parse_tiles("19m19p19s1234z")), [("pon", 13)], frozenset({31}), TENHOU) is None


# ---------------------------------------------------------------------------------------- defensive
def test_defensive_folds_with_genbutsu_against_riichi() -> None:
    hand, drawn = "19m159p2468s1357z", "3p"  # far from tenpai
    seats = [seat_pub(), seat_pub("8s9p", riichi=True), seat_pub()]
    obs = observation(hand, drawn, seats=seats)
    legal = discards(hand, drawn)
    choice = DefensiveBot().act(obs, legal)
    assert choice.tile is not None and choice.tile.kind in (Tile.parse("8s").kind, Tile.parse("9p").kind)
    calm = EfficientBot().act(observation(hand, drawn), legal)
    assert calm.tile is not None and calm.tile.kind not in (Tile.parse("8s").kind, Tile.parse("9p").kind)


def test_defensive_pushes_a_tenpai_hand() -> None:
    hand, drawn = "123p456p789s11s45p", "9m"
    seats = [seat_pub(), seat_pub("1p", riichi=True), seat_pub()]
    choice = DefensiveBot().act(observation(hand, drawn, seats=seats), discards(hand, drawn))
    assert choice.tile == Tile.parse("9m")  # keeps the tenpai rather than discarding the 1p genbutsu


def test_defensive_pushes_tenpai_with_the_safest_tile_that_keeps_it() -> None:
    hand, drawn = "123p456p789s11s55s", "6s"  # 5s out: 4s-7s wait (7 tiles); 6s out: 1s/5s shanpon (4)
    seats = [seat_pub(), seat_pub("6s1z", riichi=True), seat_pub()]
    reaches = tuple(Action("reach", 0, t) for t in parse_tiles("5s6s"))
    legal = discards(hand, drawn) + reaches
    assert EfficientBot().act(observation(hand, drawn, seats=seats), legal) == reaches[0]  # most tiles
    assert DefensiveBot().act(observation(hand, drawn, seats=seats), legal) == reaches[1]  # 6s genbutsu
    assert DefensiveBot().act(observation(hand, drawn), legal) == reaches[0]  # nobody in riichi
    dama = DefensiveBot().act(observation(hand, drawn, seats=seats), discards(hand, drawn))
    assert dama.type == "dahai" and dama.tile == Tile.parse("6s")


def test_defensive_counts_discards_after_riichi_as_safe() -> None:
    bot = DefensiveBot()
    bot.on_event({"type": "start_kyoku"})
    bot.on_event({"type": "reach_accepted", "actor": 1})
    bot.on_event({"type": "dahai", "actor": 2, "pai": "5p", "tsumogiri": False})
    hand, drawn = "19m1359p2468s137z", "5z"
    seats = [seat_pub(), seat_pub("1z", riichi=True), seat_pub("5p")]
    choice = bot.act(observation(hand, drawn, seats=seats), discards(hand, drawn))
    assert choice.tile is not None and choice.tile.kind in (Tile.parse("5p").kind, Tile.parse("1z").kind)


def test_bots_read_a_flower_dora_indicator_without_failing() -> None:
    """Kansai walls can turn a flower as the dora indicator (seen in engine games)."""
    hand, drawn = "123p456p789s2356s", "7z"
    obs = observation(hand, drawn)
    obs["dora_indicators"] = ["2f"]
    for bot in (EfficientBot(rules=Rules.preset("kansai")), DefensiveBot(rules=Rules.preset("kansai"))):
        assert bot.act(obs, discards(hand, drawn)).tile == Tile.parse("7z")


@pytest.mark.slow
def test_defensive_deals_in_less_than_efficient_over_seeded_games() -> None:
    from sanma.sim import simulate

    s = simulate("tenhou", games=20, seed=2, bots=("defensive", "efficient", "efficient"))
    defensive, *efficient = s.seats
    assert defensive.deal_in_rate < min(e.deal_in_rate for e in efficient)
    assert defensive.win_rate > 0.15  # folding is not giving up every hand
