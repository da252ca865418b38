"""Hand-to-hand flow as pure functions (issue 10 item 2): ``sanma.game.flow`` called directly, no engine.

Each test names the matrix rows it checks (P33-P42 game length, renchan, agari-yame, overtime;
P45 honba; P94 four kans; P101 / A003-7 chombo; P108 bust) with the presets' values.
"""

from __future__ import annotations

import dataclasses

import pytest

from sanma.game.flow import (
    HandEnd,
    TableState,
    advance,
    dealer_continues,
    final,
    hands_left,
    is_last_hand,
    next_hand,
    round_wind,
)
from sanma.game.payout import AbortiveDraw, Chombo, ExhaustiveDraw, Hora, Outcome, RiichiBust, Win, settle
from sanma.game.settle import final_result
from sanma.rules.schema import Rules
from sanma.scoring import score_from_han

WINDS = "ESW"


def rules(name: str) -> Rules:
    return Rules.preset(name)


def ron(r: Rules, t: TableState, winner: int, discarder: int, han: int = 1) -> Hora:
    s = score_from_han(han, 30, seat_wind=t.seat_wind(winner), discarder_wind=t.seat_wind(discarder), rules=r)
    return Hora((Win(winner, s),), discarder)


def step(r: Rules, t: TableState, outcome: Outcome, max_hands: int | None = None) -> HandEnd:
    paid = settle(r, outcome, scores=t.scores, dealer=t.dealer, honba=t.honba, kyotaku=t.kyotaku)
    return next_hand(r, t, outcome, paid, max_hands=max_hands)


def at(r: Rules, round_index: int, dealer: int, scores: tuple[int, ...] | None = None, honba: int = 0) -> TableState:
    return TableState(scores or (r.start_points,) * 3, round_index, dealer, honba)


def test_round_winds_and_overtime_winds_p33_p34() -> None:
    """P33 laps (CLUB 「東東回し」, the others East + South); P34 overtime: West sudden death
    (TENHOU), Kansai 返り東場 back to East, the club's third lap in East."""
    assert [round_wind(rules("tenhou"), i) for i in range(3)] == ["E", "S", "W"]
    assert [round_wind(rules("kansai"), i) for i in range(3)] == ["E", "S", "E"]
    assert [round_wind(rules("club"), i) for i in range(3)] == ["E", "E", "E"]
    assert round_wind(rules("online"), 2) == "E"


def test_last_hand_and_hands_left_p33() -> None:
    r = rules("tenhou")
    assert [is_last_hand(r, ri, d) for ri, d in ((0, 2), (1, 1), (1, 2), (2, 0))] == [False, False, True, False]
    assert [hands_left(r, ri, k) for ri, k in ((0, 1), (1, 3), (2, 1))] == [5, 0, 0]
    assert hands_left(rules("club"), 0, 3) == 3


def test_dealer_win_renchan_and_honba_p35_p45() -> None:
    """P35 / P45: a dealer win keeps the deal with one more honba; a non-dealer win passes it and
    resets the honba."""
    r = rules("tenhou")
    t = at(r, 0, 0, honba=2)
    nxt = step(r, t, ron(r, t, 0, 1)).state
    assert (nxt.round_index, nxt.dealer, nxt.honba, nxt.hand_number) == (0, 0, 3, 1)
    nxt = step(r, t, ron(r, t, 2, 1)).state
    assert (nxt.round_index, nxt.dealer, nxt.honba) == (0, 1, 0)


def test_noten_dealer_passes_except_kansai_south_p36_p37() -> None:
    """P36: a tenpai dealer stays at a draw, a noten dealer passes (honba +1 either way, P45);
    P37 (KANSAI): 「東場は流れ、南場は連荘」 — in South the dealer stays even noten."""
    r = rules("tenhou")
    assert step(r, at(r, 0, 1), ExhaustiveDraw((1,))).state.dealer == 1
    nxt = step(r, at(r, 0, 1), ExhaustiveDraw((0,))).state
    assert (nxt.dealer, nxt.honba) == (2, 1)
    k = rules("kansai")
    assert step(k, at(k, 0, 1), ExhaustiveDraw(())).state.dealer == 2
    assert step(k, at(k, 1, 1), ExhaustiveDraw(())).state.dealer == 1


def test_lap_advances_after_the_third_dealer_p33() -> None:
    r = rules("tenhou")
    t = at(r, 0, 2)
    nxt = step(r, t, ron(r, t, 0, 1)).state
    assert (nxt.round_index, nxt.dealer) == (1, 0)


def test_four_kans_deal_by_round_p94() -> None:
    """P94 (KANSAI): 「親については東場は流れ南場は流れません」; ONLINE: the dealer passes in every round."""
    k = rules("kansai")
    assert not dealer_continues(k, 0, 0, AbortiveDraw("four_kans"))
    assert dealer_continues(k, 1, 0, AbortiveDraw("four_kans"))
    assert not dealer_continues(rules("online"), 1, 0, AbortiveDraw("four_kans"))
    assert dealer_continues(rules("online"), 0, 0, AbortiveDraw("kyuushu"))  # P92: renchan


def test_chombo_deal_and_honba_p101_a003_7() -> None:
    """P101 (CLUB): the chombo hand is replayed, honba unchanged; A003-7 (KANSAI): a dealer's chombo
    passes the deal, a non-dealer's chombo repeats it with a honba added."""
    c = rules("club")
    nxt = step(c, at(c, 0, 1, honba=1), Chombo.of(1, "noten_riichi")).state
    assert (nxt.dealer, nxt.honba, nxt.chombos) == (1, 1, (0, 1, 0))
    k = rules("kansai")
    nxt = step(k, at(k, 0, 1, honba=1), Chombo.of(1, "noten_riichi")).state
    assert (nxt.dealer, nxt.honba) == (2, 1)
    nxt = step(k, at(k, 0, 1, honba=1), Chombo.of(2, "noten_riichi")).state
    assert (nxt.dealer, nxt.honba) == (1, 2)


def test_bust_ends_the_game_p42_p108() -> None:
    """P42 / P108: a score at or below zero (``zero_or_below``) ends the game; the winner is owed
    the bust (P110); the final result adds the bust chips (P110, CLUB)."""
    c = rules("club")
    t = at(c, 1, 0, scores=(3000, 20000, 22000))
    end = step(c, t, ron(c, t, 1, 0, han=5))
    assert end.over and end.reason == "bust" and end.busted == (0,) and end.busters == (1,)
    res = final(c, end)
    assert res.chips[0] < 0 < res.chips[1]
    assert res.points == final_result(c, end.state.scores, busted=(0,), busters=(1,)).points


def test_riichi_bust_ends_the_game_or_replays_the_hand_p79_a000_19() -> None:
    """P79 / A000-19 (CLUB): a riichi bust ends the game at once (P42), the declarer busted and both
    others its busters (the table as it was: honba unchanged); with ``bust_ends_game`` off the hand is
    replayed, the dealer staying (P92-like, honba +1)."""
    c = rules("club")
    t = at(c, 0, 1, scores=(52000, 1000, 52000), honba=1)
    end = step(c, t, RiichiBust(1))
    assert end.over and end.reason == "bust" and end.busted == (1,) and end.busters == (0, 2)
    assert end.state == t
    assert final(c, end).chips[1] == -2 * 3 - 3  # P110 bust chips to both others, P27 uma chips
    going_on = dataclasses.replace(c, bust_ends_game=False)
    end = step(going_on, t, RiichiBust(1))
    assert not end.over and end.state.dealer == 1 and end.state.honba == 2


def test_agari_yame_and_tenpai_yame_p38_p39() -> None:
    """P38 (TENHOU auto): the last dealer wins as top above the target — the game ends; P38 (CLUB
    forbidden): it goes on; P39 tenpai-yame likewise (ONLINE auto)."""
    r = rules("tenhou")
    t = at(r, 1, 2, scores=(30000, 30000, 45000))
    end = step(r, t, ron(r, t, 2, 0))
    assert end.over and end.reason == "agari_yame"
    o = rules("online")
    end = step(o, at(o, 1, 2, scores=(30000, 30000, 45000)), ExhaustiveDraw((2,)))
    assert end.over and end.reason == "tenpai_yame"
    c = rules("club")
    t = at(c, 1, 2, scores=(10000, 10000, 25000))
    assert not step(c, t, ron(c, t, 2, 0)).over


def test_game_ends_after_the_last_hand_without_overtime_p34() -> None:
    """P34 (ONLINE: none): the game ends when the last dealer passes."""
    o = rules("online")
    t = at(o, 1, 2)
    end = step(o, t, ron(o, t, 0, 1))
    assert end.over and end.reason == "last_hand"


def test_west_overtime_p34() -> None:
    """P34 (TENHOU): nobody at 40,000 after South 3 — sudden death in West; ends once someone has
    reached the target, and after West at the latest."""
    r = rules("tenhou")
    t = at(r, 1, 2, scores=(36000, 34000, 35000))
    end = step(r, t, ron(r, t, 0, 1))
    assert not end.over and end.state.round_index == 2 and end.state.round_wind(r) == "W"
    t = at(r, 2, 0, scores=(38000, 32000, 35000))
    end = step(r, t, ron(r, t, 1, 2, han=5))  # a non-dealer: 32,000 + 8,000, the deal passes
    assert end.over and end.reason == "target_reached"
    end = step(r, t, ron(r, t, 0, 1, han=2))  # the West 1 dealer repeats as top at 40,900
    assert end.over and end.reason == "agari_yame"


def test_west_overtime_the_dealer_repeat_comes_first_p34() -> None:
    """P34, PLATFORMS §1 End of South / West round (TENHOU, and §2 MAJSOUL): 「the game ends after the
    first hand that leaves anyone at ≥ 40000 with the deal passing (or the dealer repeating as 1st
    with ≥ 40000)」 — a dealer who keeps the deal below 1st plays on although someone has 40,000,
    and a West 3 dealer repeat is played; the deal passing out of West 3 ends the game."""
    for name in ("tenhou", "majsoul"):
        r = rules(name)
        assert r.overtime_dealer_first
        t = at(r, 2, 0, scores=(30000, 44000, 31000))
        end = step(r, t, ron(r, t, 0, 2))  # the dealer wins, 2nd: repeats although seat 1 has 44,000
        assert not end.over and (end.state.round_index, end.state.dealer, end.state.honba) == (2, 0, 1)
        end = step(r, t, ExhaustiveDraw((0,)))  # tenpai, 3rd: repeats too
        assert not end.over and end.state.dealer == 0
        t = at(r, 2, 2, scores=(30000, 44000, 31000))
        end = step(r, t, ron(r, t, 2, 0))  # West 3 dealer repeat
        assert not end.over and (end.state.round_index, end.state.dealer) == (2, 2)
        end = step(r, t, ron(r, t, 1, 0))  # the deal passes out of West 3 with seat 1 at the target
        assert end.over
    k = rules("kansai")  # 返り東場: 「以後、誰かが40000点以上になった時点で…ゲーム終了」 — at once
    assert not k.overtime_dealer_first
    t = at(k, 2, 0, scores=(30000, 44000, 31000))
    end = step(k, t, ron(k, t, 0, 2))
    assert end.over and end.reason == "target_reached"


def test_kansai_kaeri_ton_p34() -> None:
    """P34 (KANSAI): 「最終局を終了した時点で全員が40000点未満の場合、返り東場」 — back to East."""
    k = rules("kansai")
    t = at(k, 1, 2, scores=(36000, 34000, 35000))
    end = step(k, t, ron(k, t, 0, 1))
    assert not end.over and end.state.round_wind(k) == "E" and end.state.in_overtime(k)


def test_club_third_lap_after_noten_last_dealer_p34() -> None:
    """P34 (CLUB): 「ラス親がノーテンで流局した場合」 the game goes on into a third lap, which a
    non-dealer win ends."""
    c = rules("club")
    end = step(c, at(c, 1, 2, scores=(15000, 15000, 15000)), ExhaustiveDraw((0,)))
    assert not end.over and end.state.round_index == 2
    t = end.state
    end = step(c, t, ron(c, t, 1, 2))
    assert end.over and end.reason == "overtime_non_dealer_win"
    t = at(c, 1, 2, scores=(15000, 15000, 15000))
    end = step(c, t, ron(c, t, 0, 1))
    assert end.over and end.reason == "last_hand"


def test_hand_limit_safety_net() -> None:
    r = rules("tenhou")
    end = step(r, at(r, 0, 0), AbortiveDraw("kyuushu"), max_hands=1)
    assert end.over and end.reason == "hand_limit"


def test_advance_is_next_hand_after_the_payments() -> None:
    """``next_hand`` applies the settlement (scores, sticks) and then ``advance``s."""
    r = rules("tenhou")
    t = TableState((34000, 35000, 35000), kyotaku=1)
    out = ron(r, t, 1, 2)
    end = step(r, t, out)
    assert end.state.kyotaku == 0 and sum(end.state.scores) == 105000
    assert advance(r, TableState(end.state.scores, kyotaku=0), out) == HandEnd(
        TableState(end.state.scores, 0, 1, 0, 0, hand_number=1))


@pytest.mark.parametrize(("preset", "reason", "hands"), [
    ("club", "last_hand", 6), ("online", "last_hand", 6), ("official", "last_hand", 6),
    ("tenhou", "overtime_over", 9), ("majsoul", "overtime_over", 9),  # P34: nobody reaches 40,000
])
def test_a_whole_game_of_non_dealer_wins_ends_p33(preset: str, reason: str, hands: int) -> None:
    """A game where the seat after the dealer always wins a small hand passes the deal every hand
    (P35) and ends after the scheduled laps (P33) or the West overtime (P34), with a settled result.
    (KANSAI's 返り東場 goes on while nobody has 40,000: test_kansai_kaeri_ton_p34.)"""
    r = rules(preset)
    t = TableState.start(r)
    played = []
    while len(played) < 40:
        end = step(r, t, ron(r, t, (t.dealer + 1) % 3, (t.dealer + 2) % 3))
        played.append(t.round_wind(r))
        if end.over:
            break
        t = end.state
    assert end.over and end.reason == reason and len(played) == hands
    assert sorted(final(r, end).ranks) == [1, 2, 3]


def test_the_opening_hand_is_east_1_of_the_first_lap_only_p112() -> None:
    """P112 (CLUB): the early bust chips are owed in East 1 of the first lap only — not East 2,
    not the club's second East lap (round 1 is East again, P33)."""
    c = rules("club")
    assert c.round_winds[1] == "E"
    assert [at(c, r, d).opening for r, d in ((0, 0), (0, 1), (1, 0))] == [True, False, False]
    low = (60000, 50000, -5000)
    early = final(c, HandEnd(at(c, 0, 0, scores=low), True, "bust", (2,), (0,)))
    later = final(c, HandEnd(at(c, 1, 0, scores=low), True, "bust", (2,), (0,)))
    assert early.chips[2] - later.chips[2] == -5  # P112: +5 from a non-dealer in the opening hand


PRESETS = ("club", "official", "kansai", "online", "tenhou", "majsoul")


@pytest.mark.parametrize("preset", PRESETS)
def test_itemised_settlement_adds_up_to_the_final_result(preset: str) -> None:
    """Issue 19 item 3: ``final(itemise=True)`` lists each line of a game's settlement (end-of-game
    chips P110-P112/P121, sticks P31, score, oka P27, uma P26, bust P110, ties P29, chombo P100);
    per seat the lines add up to exactly what the unitemised result gives, for every preset, over
    many endings (random scores, sticks, chombos, busts)."""
    import random

    rules = Rules.preset(preset)
    rng = random.Random(19)
    for _ in range(300):
        total = 3 * rules.start_points - (kyotaku := rng.randint(0, 3)) * rules.riichi_deposit
        a = rng.randint(-30000, total + 30000) // 100 * 100
        b = rng.randint(-30000, total - a + 30000) // 100 * 100
        scores = (a, b, total - a - b)
        busted = tuple(s for s in range(3) if scores[s] <= 0)[:1]
        busters = tuple(s for s in range(3) if s not in busted)[: rng.randint(1, 2)] if busted else ()
        chombos = tuple(rng.choice((0, 0, 1, 2)) for _ in range(3))
        state = dataclasses.replace(TableState.start(rules, scores), kyotaku=kyotaku, chombos=chombos,
                                    chips=tuple(rng.randint(-9, 9) for _ in range(3)))
        end = HandEnd(state, True, "bust" if busted else "last_hand", busted, busters)
        plain, items = final(rules, end), final(rules, end, itemise=True)
        assert (plain.scores, plain.ranks, plain.points, plain.chips) == (items.scores, items.ranks, items.points,
                                                                          items.chips) and not plain.items
        for s in range(3):
            assert abs(sum(i.points[s] for i in items.items) - items.points[s]) < 1e-6
            assert state.chips[s] + sum(i.chips[s] for i in items.items) == items.chips[s]
            moved = sum(i.scores[s] for i in items.items)
            assert state.scores[s] + moved == items.scores[s]
