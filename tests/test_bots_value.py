"""The defensive bot's valuation (sanma.bots.value) and the decisions it drives: each preset's
payment model, kita, chips, bust fees and placement change what a hand and a deal-in are worth."""

from __future__ import annotations

import dataclasses

from bot_views import seat_pub, seat_view
from sanma.bots.base import read_view
from sanma.bots.defensive import DefensiveBot
from sanma.bots.value import (
    CHIP_POINTS,
    URA_CHANCE,
    Table,
    bust_chips,
    deal_in_value,
    hand_tiles,
    hands_left,
    outcome_value,
    own_dora,
    placement_value,
    table_of,
    tenpai_value,
    win_chips,
    win_payoffs,
)
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.game.view import SeatView
from sanma.rules import Rules
from sanma.scoring import score_hand
from sanma.tiles import Tile, parse_tiles
from test_bots import discards

TENHOU = Rules.preset("tenhou")
CLUB = Rules.preset("club")
KANSAI = Rules.preset("kansai")


def table(rules: Rules, obs: SeatView) -> Table:
    return table_of(obs, rules)


def situation(hand: str, drawn: str, *, scores: tuple[int, int, int] = (35000, 35000, 35000),
              round_index: int = 0, kyoku: int = 1, dealer: int = 0, riichi_seat: int = 1,
              river: str = "1p", kita: int = 0) -> SeatView:
    """Seat 0's view with ``riichi_seat`` in riichi, at the given point of the game."""
    seats = [seat_pub(kita=kita), seat_pub(), seat_pub()]
    seats[riichi_seat] = seat_pub(river, riichi=True)
    return seat_view(hand, drawn, seats=seats, scores=scores, round_index=round_index, kyoku=kyoku, dealer=dealer,
                     round_wind="ES"[min(round_index, 1)])


def tsumo_value(rules: Rules, obs: SeatView, discard: str, wait: str) -> float:
    t = table(rules, obs)
    v = tenpai_value(rules, obs, t, hand_tiles(obs, Tile.parse(discard).kind), Tile.parse(wait).kind, 1, True)
    assert v.tsumo is not None and v.ron is not None
    return v.tsumo


# ---------------------------------------------------------------------------------------- the game's schedule
def test_hands_left_follow_the_rules_round_winds_P33() -> None:
    """P33: a hanchan (ES) has six hands, the club's two East laps (EE) too; overtime has none left."""
    assert [hands_left(TENHOU, 0, k) for k in (1, 2, 3)] == [5, 4, 3]
    assert [hands_left(TENHOU, 1, k) for k in (1, 2, 3)] == [2, 1, 0]
    assert hands_left(CLUB, 1, 3) == 0 and hands_left(CLUB, 0, 3) == 3
    assert hands_left(TENHOU, 2, 1) == 0  # West overtime: every hand may be the last
    obs = situation("123p789s11s999m45p", "7z", round_index=1, kyoku=2)
    assert table(CLUB, obs).hands_left == 1 and not table(CLUB, obs).opening
    assert table(CLUB, situation("123p789s11s999m45p", "7z")).opening
    second_lap = Game(CLUB, seed="lap", round_index=1, kyoku=2).view(0)
    assert second_lap.round_index == 1 and table(CLUB, second_lap).hands_left == 0  # E3 of lap 2: the last


# ---------------------------------------------------------------------------------------- payment models
def test_full_amount_tsumo_makes_a_tenpai_worth_more_than_tsumo_son_P50() -> None:
    """P50 (matrix §4.2): tsumo-son (A) loses the absent player's share; North-split (B) and equal
    halves (C/D, online and Kansai) pay the full amount, so the same tsumo is worth more there."""
    obs = situation("123p789s11s999m45p", "7z", dealer=1)  # seat 0 is a non-dealer
    son = tsumo_value(TENHOU, obs, "7z", "3p")
    split = tsumo_value(dataclasses.replace(TENHOU, tsumo_payment="north_split"), obs, "7z", "3p")
    halves = tsumo_value(dataclasses.replace(TENHOU, tsumo_payment="equal_halves"), obs, "7z", "3p")
    assert son < split and son < halves


def test_kita_raise_a_tenpai_by_the_rules_kita_dora_P16() -> None:
    """P16: each pulled North is ``kita_dora`` dora; the win the bot weighs grows with them."""
    none, two = (situation("123p789s11s999m45p", "7z", kita=k) for k in (0, 2))
    assert tsumo_value(TENHOU, two, "7z", "3p") > tsumo_value(TENHOU, none, "7z", "3p")
    no_kita_dora = dataclasses.replace(TENHOU, kita_dora=0)
    assert tsumo_value(no_kita_dora, two, "7z", "3p") == tsumo_value(no_kita_dora, none, "7z", "3p")
    view = read_view(two, TENHOU)
    assert own_dora(TENHOU, two, view.dora) == 2 and own_dora(no_kita_dora, two, view.dora) == 0


def test_club_counts_every_five_as_dora_and_tenhou_only_the_red_ones_P05_P06() -> None:
    """P06 (club): every 5p and 5s is a dora; P05 (tenhou): only the red fives."""
    obs = seat_view("123p789s11s999m45p", "0p")
    view = read_view(obs, TENHOU)
    assert own_dora(CLUB, obs, view.dora) == 2  # 5p and the red 5p
    assert own_dora(TENHOU, obs, view.dora) == 1  # the red 5p only


# ---------------------------------------------------------------------------------------- chips
def test_club_win_chips_ura_ippatsu_yakuman_and_closed_chinitsu_P115_P116_P117() -> None:
    """P115: ura chips (3 per ura han, by expectation); P116: yakuman chips 30 on ron, 15 from each
    on tsumo; P117: closed chinitsu 10 on ron, 5 from each on tsumo; tenhou has no chips (P113)."""
    riichi = score_hand("123p456p789s11s345p", win="5p", riichi=True, rules=CLUB)
    assert win_chips(CLUB, riichi, True, True, False) == URA_CHANCE * CLUB.chip_ura
    assert win_chips(CLUB, riichi, True, True, True) == 2 * URA_CHANCE * CLUB.chip_ura  # both pay on tsumo
    assert win_chips(TENHOU, riichi, True, True, False) == 0
    kokushi = score_hand("119m19p19s1234567z", win="7z", rules=CLUB)  # single wait: one yakuman
    assert win_chips(CLUB, kokushi, True, False, False) == 30
    assert win_chips(CLUB, kokushi, True, False, True) == 2 * 15
    chinitsu = score_hand("123p456p789p222p33p", win="3p", rules=CLUB)
    assert win_chips(CLUB, chinitsu, True, False, False) == 10
    assert win_chips(CLUB, chinitsu, False, False, False) == 0  # open: no chinitsu chips


def test_club_deal_in_costs_ura_chips_and_a_bust_costs_bust_chips_P110_P111_P112() -> None:
    """P110-P112: a deal-in that busts this seat costs 3 chips to the buster, +5 more (non-dealer)
    in East 1 of the first lap; without chips the same deal-in costs only points."""
    no_chips = dataclasses.replace(CLUB, chips=False)
    safe = table(CLUB, situation("123p789s11s999m45p", "7z", scores=(15000, 15000, 15000), dealer=1))
    assert deal_in_value(CLUB, safe, 1, 4) < deal_in_value(no_chips, safe, 1, 4)  # ura chips
    low = table(CLUB, situation("123p789s11s999m45p", "7z", scores=(3000, 20000, 22000), dealer=1))
    assert bust_chips(CLUB, low, -5000) == 3 + 5  # P110 + P112 (non-dealer, East 1 of lap 1)
    assert bust_chips(CLUB, dataclasses.replace(low, opening=False), -5000) == 3
    assert bust_chips(CLUB, dataclasses.replace(low, opening=False), -20000) == 6  # P111: a further box
    busting = deal_in_value(CLUB, low, 1, 4) - deal_in_value(no_chips, low, 1, 4)
    assert busting <= -(3 + 5) * CHIP_POINTS


def test_dobon_fee_adds_to_a_busting_deal_in_P110() -> None:
    """P110 / A003-6 (kansai): the busted player pays the dobon fee to the player being paid."""
    fee = dataclasses.replace(KANSAI, dobon_fee=10000)
    low = table(KANSAI, situation("123p789s11s999m45p", "7z", scores=(2000, 50000, 53000), dealer=1))
    assert deal_in_value(fee, low, 1, 3) < deal_in_value(KANSAI, low, 1, 3) - 9000
    rich = table(KANSAI, situation("123p789s11s999m45p", "7z", scores=(40000, 30000, 35000), dealer=1))
    assert deal_in_value(fee, rich, 1, 3) == deal_in_value(KANSAI, rich, 1, 3)  # no bust, no fee


def test_club_first_dealer_weighs_the_chips_it_pays_when_not_top_P121() -> None:
    """P121: the first dealer pays 3 chips to each other player when the game ends without it on top."""
    scores = [30000, 40000, 20000]  # seat 0, the first dealer, is second
    without = dataclasses.replace(CLUB, chip_chiicha_not_top=0)
    assert placement_value(CLUB, scores, 0, 0) == placement_value(without, scores, 0, 0) - 6 * CHIP_POINTS
    assert placement_value(CLUB, [40000, 30000, 20000], 0, 0) == placement_value(without, [40000, 30000, 20000], 0, 0)


# ---------------------------------------------------------------------------------------- placement
def test_placement_weighs_fully_in_the_last_hand_P25_P27() -> None:
    """P25/P27: oka and uma go by the final ranks. Losing 5,000 points that cost the top is worth
    far less in East 1 (five hands to recover) than in the last hand (none)."""
    scores = (41000, 37000, 27000)
    early = Table(seat=0, dealer=0, scores=scores, honba=0, kyotaku=0, hands_left=5)
    last = dataclasses.replace(early, hands_left=0)
    loss = (-5000, 5000, 0)
    assert outcome_value(TENHOU, last, loss) < outcome_value(TENHOU, early, loss) < -5000
    assert placement_value(TENHOU, [50000, 30000, 25000], 0, 6) < placement_value(TENHOU, [50000, 30000, 25000], 0, 0)


def test_sinking_uma_values_floating_P27() -> None:
    """P27 / A002-7 (official): with two players floating the second place earns uma too."""
    official = Rules.preset("official")
    one_floats = placement_value(official, [45000, 35000, 25000], 1, 0)
    two_float = placement_value(official, [45000, 41000, 19000], 1, 0)
    assert two_float > one_floats


# ---------------------------------------------------------------------------------------- decisions
KANCHAN = ("123p789s11s999m46p", "7z")  # 7z out: tenpai on the 5p kanchan, riichi only


def test_defensive_pushes_a_kanchan_in_east_1_but_folds_it_as_a_narrow_top_in_the_last_hand_P27() -> None:
    """Placement (P25/P27): in East 1 the cheap kanchan tenpai is worth pushing against a riichi; in
    the last hand, leading by 7,000, a deal-in (riichi, ura, the dora it probably hides, the sticks)
    would hand the riichi player the top and the oka, while a win adds little: fold."""
    hand, drawn = KANCHAN
    early = situation(hand, drawn)
    last = situation(hand, drawn, scores=(44000, 37000, 24000), round_index=1, kyoku=3, dealer=2)
    legal = discards(hand, drawn)
    assert DefensiveBot(rules=TENHOU).act(early, legal).tile == Tile.parse("7z")  # keeps the tenpai
    assert DefensiveBot(rules=TENHOU).act(last, legal).tile == Tile.parse("1p")  # genbutsu


def test_club_defensive_folds_a_tenpai_when_a_deal_in_would_bust_it_P110_P112() -> None:
    """P110/P112: with 3,000 points in East 1 a deal-in busts the seat and costs 8 chips on top."""
    hand, drawn = KANCHAN
    legal = discards(hand, drawn)
    even = situation(hand, drawn, scores=(15000, 15000, 15000))
    low = situation(hand, drawn, scores=(3000, 20000, 22000))
    assert DefensiveBot(rules=CLUB).act(even, legal).tile == Tile.parse("7z")
    assert DefensiveBot(rules=CLUB).act(low, legal).tile == Tile.parse("1p")


def test_defensive_keeps_dama_as_the_top_in_the_last_hand() -> None:
    """As the top in the last hand a tenpai that wins by ron with a yaku stays silent; earlier it riichis."""
    hand, drawn = "234p678p345s66s45s", "9m"  # tanyao: 3s-6s wait
    reach = Action("reach", 0, Tile.parse("9m"), tsumogiri=True)
    legal = (*discards(hand, drawn), reach)
    calm = [seat_pub(), seat_pub(), seat_pub()]
    early = seat_view(hand, drawn, seats=calm)
    last = seat_view(hand, drawn, seats=calm, scores=(45000, 35000, 25000), round_index=1, kyoku=3, dealer=2,
                     round_wind="S")
    assert DefensiveBot(rules=TENHOU).act(early, legal) == reach
    choice = DefensiveBot(rules=TENHOU).act(last, legal)
    assert choice.type == "dahai" and choice.tile == Tile.parse("9m")
    second = seat_view(hand, drawn, seats=calm, scores=(35000, 45000, 25000), round_index=1, kyoku=3, dealer=2,
                       round_wind="S")
    assert DefensiveBot(rules=TENHOU).act(second, legal) == reach  # not the top: riichi for the value


def test_defensive_treats_a_three_meld_hand_as_a_threat() -> None:
    """An open hand with three pons is likely tenpai: a hand far from tenpai plays safe against it."""
    hand, drawn = "19m159p2468s1357z", "3p"
    threat = seat_pub("8s9p", melds=("222z", "777s", "666p"))
    obs = seat_view(hand, drawn, seats=[seat_pub(), threat, seat_pub()])
    choice = DefensiveBot().act(obs, discards(hand, drawn))
    assert choice.tile is not None and choice.tile.kind in (Tile.parse("8s").kind, Tile.parse("9p").kind)
    two = seat_view(hand, drawn, seats=[seat_pub(), seat_pub("8s9p", melds=("222z", "777s")), seat_pub()])
    calm = DefensiveBot().act(two, discards(hand, drawn))
    assert calm.tile is not None and calm.tile.kind not in (Tile.parse("8s").kind, Tile.parse("9p").kind)


def test_view_tiles_feed_the_scorer() -> None:
    """hand_tiles takes the discard out (a plain five before a red one) and keeps melds and kita."""
    obs = seat_view("123p789s11s5p", "0p", seats=[seat_pub(kita=1, melds=("999m",)), seat_pub(), seat_pub()])
    tiles = hand_tiles(obs, Tile.parse("5p").kind)
    assert Tile.parse("0p") in tiles.concealed and Tile.parse("5p") not in tiles.concealed
    assert tiles.kita == 1 and len(tiles.melds) == 1 and not tiles.closed
    assert len(tiles.concealed) == len(parse_tiles("123p789s11s5p5p")) - 1


# ---------------------------------------------------------------------------------------- sakizuke (P67)
def test_sakizuke_rules_make_a_one_sided_yakuhai_shanpon_worthless_P67() -> None:
    """P67 (official 「後付けなしの完全先付け」, kansai 「後ヅケ無し」): an open hand wins only when
    every wait has a yaku. The efficient bot does not call toward a value pair that would leave a
    shanpon winning on one side only, and the defensive bot values such a tenpai at nothing."""
    from sanma.bots.efficient import open_hand_plan
    from sanma.tiles import counts34

    official = Rules.preset("official")
    counts = counts34(parse_tiles("123p456p55z11p8s9s"))
    yakuhai = frozenset({31, 32, 33})
    tenhou_plan = open_hand_plan(counts, [("pon", 26)], yakuhai, TENHOU)
    assert tenhou_plan is not None and tenhou_plan.name == "yakuhai"
    assert open_hand_plan(counts, [("pon", 26)], yakuhai, official) is None
    assert open_hand_plan(counts, [("pon", 26)], yakuhai, KANSAI) is None

    obs = seat_view("123p456p55z11p", "9m",  # after a pon of 9s: tenpai on 5z (yakuhai) or 1p (nothing)
                    seats=[seat_pub(melds=("999s",)), seat_pub("1s", riichi=True), seat_pub()])
    worth = {}
    for name, rules in (("tenhou", TENHOU), ("official", official)):
        bot = DefensiveBot(rules=rules)
        bot._view = obs
        view = read_view(obs, rules)
        unseen = [4 - view.counts[k] - view.visible[k] for k in range(34)]
        worth[name] = bot.tenpai_win(view, Tile.parse("9m").kind, table(rules, obs), 1, unseen)
    assert worth["tenhou"][0] > 0 and worth["tenhou"][1] > 0  # wins on the white dragon (katagari allowed)
    assert worth["official"] == (0.0, 0, False)


# ---------------------------------------------------------------------------------------- the joint placement model
def test_rank_odds_are_a_joint_model_every_rank_and_seat_sums_to_one() -> None:
    """Each seat's chances of 1st, 2nd, 3rd sum to 1, and so do the three seats' chances of each
    rank; equal scores give a third each (the independent-pairs model gave 25% / 50% / 25%)."""
    from sanma.bots.value import rank_odds

    for scores in ((35000, 35000, 35000), (48000, 31000, 26000), (20000, 20500, 64500)):
        for hands in (1, 3, 8):
            rows = [rank_odds(scores, s, hands) for s in range(3)]
            assert all(abs(sum(r) - 1) < 1e-9 and min(r) >= 0 for r in rows)
            assert all(abs(sum(r[k] for r in rows) - 1) < 1e-3 for k in range(3))
    assert all(abs(p - 1 / 3) < 1e-3 for p in rank_odds((35000, 35000, 35000), 0, 5))
    near, far = rank_odds((40000, 35000, 30000), 0, 8), rank_odds((40000, 35000, 30000), 0, 1)
    assert 1 / 3 < near[0] < far[0] < 1  # a lead counts more with fewer hands to play


def test_wait_payoffs_score_each_wait_once_and_move_a_rons_payment() -> None:
    """The batch scoring of every wait (issue 21 item 3) equals win_payoffs wait by wait, discarder
    by discarder."""
    from sanma.agari import waits
    from sanma.bots.value import wait_payoffs
    from sanma.tiles import counts34

    obs = situation("123p789s11s999m45p", "7z", dealer=1)
    hand = hand_tiles(obs, Tile.parse("7z").kind)
    t = table(TENHOU, obs)
    ws = waits(counts34(list(hand.concealed)), False)
    assert ws
    seen = 0
    for riichi in (False, True):  # without riichi no ron wins (no yaku); with it both do
        batch = wait_payoffs(TENHOU, obs, t, hand, ws, (1, 2), riichi)
        seen += sum(len(rons) for _, rons, _ in batch)
        assert [w for w, _, _ in batch] == list(ws)
        for w, rons, tsumo in batch:
            for d in (1, 2):
                ron, tsu = win_payoffs(TENHOU, obs, t, hand, w, d, riichi)
                assert rons.get(d) == ron and tsumo == tsu
    assert seen == 2 * len(ws)
