"""Bots: the registry, determinism, and the efficient / defensive decisions on set positions."""

from __future__ import annotations

import pytest

from bot_views import seat_pub, seat_view
from sanma.bots import BOTS, DefensiveBot, Driver, EfficientBot, RandomBot, TsumogiriBot, UnknownBotError, make_bot
from sanma.bots.efficient import open_hand_plan
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.tiles import Tile, counts34, parse_tiles

TENHOU = Rules.preset("tenhou")


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
    runs = [[RandomBot(seed=s).act(None, legal) for _ in range(1)] for s in range(60)]
    picked = {r[0] for r in runs}
    assert len(picked) == len(legal)  # every action gets chosen by some seed
    a, b = RandomBot(seed="x"), RandomBot(seed="x")
    assert [a.act(None, legal) for _ in range(20)] == [b.act(None, legal) for _ in range(20)]


def test_tsumogiri_bot_wins_passes_and_discards_the_drawn_tile() -> None:
    bot = TsumogiriBot()
    drawn = Action("dahai", 0, Tile.parse("5p"), tsumogiri=True)
    hora = Action("hora", 0, Tile.parse("5p"), target=0)
    assert bot.act(None, (Action("dahai", 0, Tile.parse("1m")), drawn)) == drawn
    assert bot.act(None, (Action("dahai", 0, Tile.parse("1m")), drawn, hora)) == hora
    assert bot.act(None, (Action("pon", 1, Tile.parse("5z")), Action("none", 1))) == Action("none", 1)
    after_pon = (Action("dahai", 1, Tile.parse("1m")), Action("dahai", 1, Tile.parse("9m")))
    assert bot.act(None, after_pon) == after_pon[0]


def test_every_bot_plays_legal_actions_through_a_real_game() -> None:
    """Each bot drives all three seats of a short game: any illegal choice raises."""
    for name in BOTS:
        game = Game(TENHOU, seed=f"bots-{name}", max_hands=3)
        Driver(game, {s: make_bot(name, seed=s, rules=TENHOU) for s in range(3)}).run()
        assert game.result is not None


# ---------------------------------------------------------------------------------------- efficient
def test_efficient_wins_whenever_it_can() -> None:
    hora = Action("hora", 0, Tile.parse("5p"), target=0)
    legal = (*discards("123p456p789s11s34p", "5p"), hora)
    assert EfficientBot().act(seat_view("123p456p789s11s34p", "5p"), legal) == hora


def test_efficient_discards_by_shanten_first() -> None:
    hand, drawn = "123p456p789s2356s", "7z"
    choice = EfficientBot().act(seat_view(hand, drawn), discards(hand, drawn))
    assert choice.tile == Tile.parse("7z") and choice.tsumogiri


def test_efficient_breaks_shanten_ties_by_ukeire() -> None:
    # Seven discards keep 1-shanten; the North leaves 20 improving tiles, the others 8 or 10
    # (1m, the lowest kind and an outer tile, is where a bot without ukeire would go).
    hand, drawn = "111m1117p23489s4z", "9p"
    choice = EfficientBot().act(seat_view(hand, drawn), discards(hand, drawn))
    assert choice.tile == Tile.parse("4z")


def test_efficient_declares_riichi_when_tenpai_and_closed() -> None:
    hand, drawn = "123p456p789s11s45p", "9m"
    reach = Action("reach", 0, Tile.parse("9m"), tsumogiri=True)
    legal = (*discards(hand, drawn), reach)
    assert EfficientBot().act(seat_view(hand, drawn), legal) == reach


def test_efficient_pulls_a_useless_north_but_keeps_a_needed_one() -> None:
    kita = Action("kita", 0, Tile.parse("4z"))
    hand, drawn = "123p456p789s23s99m", "4z"
    assert EfficientBot().act(seat_view(hand, drawn), (*discards(hand, drawn), kita)) == kita
    hand, drawn = "123p456p789s44z19m", "4z"  # the North triplet is one of the hand's sets
    choice = EfficientBot().act(seat_view(hand, drawn), (*discards(hand, drawn), kita))
    assert choice.type == "dahai" and choice.tile in (Tile.parse("1m"), Tile.parse("9m"))


def test_efficient_pons_a_value_tile_but_not_into_a_yakuless_open_hand() -> None:
    bot = EfficientBot()
    pon = Action("pon", 0, Tile.parse("5z"), consumed=(Tile.parse("5z"),) * 2, target=1)
    legal = (pon, Action("none", 0))
    assert bot.act(seat_view("55z19m1399p1357s7z"), legal) == pon  # white dragon: a yaku
    pon9p = Action("pon", 0, Tile.parse("9p"), consumed=(Tile.parse("9p"),) * 2, target=1)
    mixed = "99p19m135s357p123z"  # pon 9p: no yakuhai, not one suit, not all simples
    assert bot.act(seat_view(mixed), (pon9p, Action("none", 0))) == Action("none", 0)
    flush = "99p123p4568p2234z"  # pon 9p: honitsu in pinzu is close
    assert bot.act(seat_view(flush), (pon9p, Action("none", 0))) == pon9p


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
    obs = seat_view(hand, drawn, seats=seats)
    legal = discards(hand, drawn)
    choice = DefensiveBot().act(obs, legal)
    assert choice.tile is not None and choice.tile.kind in (Tile.parse("8s").kind, Tile.parse("9p").kind)
    calm = EfficientBot().act(seat_view(hand, drawn), legal)
    assert calm.tile is not None and calm.tile.kind not in (Tile.parse("8s").kind, Tile.parse("9p").kind)


def test_defensive_pushes_a_tenpai_hand() -> None:
    hand, drawn = "123p456p789s11s45p", "9m"
    seats = [seat_pub(), seat_pub("1p", riichi=True), seat_pub()]
    choice = DefensiveBot().act(seat_view(hand, drawn, seats=seats), discards(hand, drawn))
    assert choice.tile == Tile.parse("9m")  # keeps the tenpai rather than discarding the 1p genbutsu


def test_defensive_pushes_tenpai_with_the_safest_tile_that_keeps_it() -> None:
    hand, drawn = "123p456p789s11s55s", "6s"  # 5s out: 4s-7s wait (7 tiles); 6s out: 1s/5s shanpon (4)
    seats = [seat_pub(), seat_pub("6s1z", riichi=True), seat_pub()]
    reaches = tuple(Action("reach", 0, t) for t in parse_tiles("5s6s"))
    legal = discards(hand, drawn) + reaches
    assert EfficientBot().act(seat_view(hand, drawn, seats=seats), legal) == reaches[0]  # most tiles
    assert DefensiveBot().act(seat_view(hand, drawn, seats=seats), legal) == reaches[1]  # 6s genbutsu
    assert DefensiveBot().act(seat_view(hand, drawn), legal) == reaches[0]  # nobody in riichi
    dama = DefensiveBot().act(seat_view(hand, drawn, seats=seats), discards(hand, drawn))
    assert dama.type == "dahai" and dama.tile == Tile.parse("6s")


def test_defensive_counts_discards_after_riichi_as_safe() -> None:
    bot = DefensiveBot()
    bot.on_event({"type": "start_kyoku"})
    bot.on_event({"type": "reach_accepted", "actor": 1})
    bot.on_event({"type": "dahai", "actor": 2, "pai": "5p", "tsumogiri": False})
    hand, drawn = "19m1359p2468s137z", "5z"
    seats = [seat_pub(), seat_pub("1z", riichi=True), seat_pub("5p")]
    choice = bot.act(seat_view(hand, drawn, seats=seats), discards(hand, drawn))
    assert choice.tile is not None and choice.tile.kind in (Tile.parse("5p").kind, Tile.parse("1z").kind)


def test_bots_read_a_flower_dora_indicator_without_failing() -> None:
    """Kansai walls can turn a flower as the dora indicator (seen in engine games)."""
    hand, drawn = "123p456p789s2356s", "7z"
    obs = seat_view(hand, drawn, dora_indicators=(Tile.from_mjai("2f"),))
    for bot in (EfficientBot(rules=Rules.preset("kansai")), DefensiveBot(rules=Rules.preset("kansai"))):
        assert bot.act(obs, discards(hand, drawn)).tile == Tile.parse("7z")


@pytest.mark.slow
def test_defensive_deals_in_less_than_efficient_over_seeded_games() -> None:
    from sanma.sim import simulate

    s = simulate("tenhou", games=20, seed=2, bots=("defensive", "efficient", "efficient"))
    defensive, *efficient = s.seats
    assert defensive.deal_in_rate < min(e.deal_in_rate for e in efficient)
    assert defensive.win_rate > 0.15  # folding is not giving up every hand


# ---------------------------------------------------------------------------------------- interface, driver
def test_the_bot_base_class_gives_every_optional_member_a_default() -> None:
    """Issue 21 item 5: one base class with defaults, so no caller probes a bot with getattr."""
    from sanma.bots import Bot

    class Plain(Bot):
        name = "plain"

        def act(self, view: object, legal: tuple[Action, ...]) -> Action:
            return legal[0]

    b = Plain()
    assert b.needs_view and not b.follows_events and list(b.incidents) == [] and b.incident_count == b.fallbacks == 0
    b.on_event({"type": "start_kyoku"})
    b.check()
    b.close()
    assert all(isinstance(make_bot(n), Bot) for n in BOTS)
    with pytest.raises(NotImplementedError):
        Bot().act(None, (Action("none", 0),))


def test_no_code_probes_a_bot_for_its_members() -> None:
    """The 13 getattr/hasattr probes of optional bot members are gone; a new one fails here."""
    import re
    from pathlib import Path

    src = Path(__file__).resolve().parent.parent / "src" / "sanma"
    probe = re.compile(r"(getattr|hasattr)\(([^,)]*bot|b,)")
    found = [f"{p.relative_to(src)}:{i}" for p in src.rglob("*.py")
             for i, line in enumerate(p.read_text().splitlines(), 1) if probe.search(line)]
    assert not found, found


class _Recorder(EfficientBot):
    """The efficient bot that records what the driver gives it."""

    follows_events = True

    def __init__(self, seat: int) -> None:
        super().__init__(seat, TENHOU)
        self.seat = seat
        self.events: list[dict[str, object]] = []
        self.views: list[object] = []
        self.closed = False

    def on_event(self, event: dict[str, object]) -> None:
        self.events.append(event)

    def act(self, view: object, legal: tuple[Action, ...]) -> Action:
        self.views.append(view)
        return super().act(view, legal)  # type: ignore[arg-type]

    def close(self) -> None:
        self.closed = True


def test_the_driver_feeds_each_bot_its_masked_events_before_it_decides() -> None:
    from sanma.game.view import mask_event

    game = Game(TENHOU, seed="driver", max_hands=2)
    bots = {s: _Recorder(s) for s in range(3)}
    driver = Driver(game, bots)
    driver.run()
    driver.finish()
    driver.close()
    assert game.done and all(b.closed for b in bots.values())
    for s, b in bots.items():
        assert b.events == [mask_event(e, s) for e in game.events]  # every event, as its seat sees it
        assert all(v is not None and v.seat == s for v in b.views)  # type: ignore[attr-defined]
    assert driver.moves == sum(len(b.views) for b in bots.values())


def test_the_driver_stops_where_a_seat_without_a_bot_must_act_and_gives_blind_bots_no_view() -> None:
    game = Game(TENHOU, seed="half")
    seen: list[object] = []

    class Blind(RandomBot):
        def act(self, view: object, legal: tuple[Action, ...]) -> Action:
            seen.append(view)
            return super().act(None, legal)

    driver = Driver(game, {1: Blind(1), 2: Blind(2)})
    driver.run()
    assert game.to_move == (0,) and driver.bot_to_move() is None and not driver.step()
    game.apply(game.legal_actions(0)[0])
    driver.run(stop=lambda g: len(seen) >= 3)
    assert len(seen) == 3 and all(v is None for v in seen)
