"""Settlement as pure functions (issue 10 item 1): ``sanma.game.payout`` called directly, no engine.

Expected values are RULES_MATRIX §4.3's worked vectors (A/C/D models, penalty payments) and the
§2 rows named in each test (P43-P49 honba and sticks, P46 noten, P88-P91 double ron, P96 nagashi,
P97-P99 pao, P100-P101 chombo, P110-P112 bust, P114-P121 chips).
"""

from __future__ import annotations

import dataclasses

import pytest

from sanma import scoring
from sanma.errors import ScoringError
from sanma.game.payout import (
    RINSHAN_PAO,
    AbortiveDraw,
    Chombo,
    ExhaustiveDraw,
    Hora,
    Offence,
    OutcomeError,
    Pao,
    RiichiBust,
    Win,
    chombo_payment,
    expected_win_chips,
    game_end_payments,
    settle,
)
from sanma.rules.loader import from_dict, to_dict
from sanma.rules.schema import Rules
from sanma.scoring import Score, limit_basic, score_from_han

WINDS = "ESW"


def rules(name: str) -> Rules:
    return Rules.preset(name)


def score(r: Rules, han: int, fu: int, seat: int, *, discarder: int | None = None, dealer: int = 0,
          yakuman: int = 0, yaku: tuple[str, ...] = ()) -> Score:
    """The Score of ``seat`` winning (tsumo when ``discarder`` is None) with dealer ``dealer``."""
    return score_from_han(han, fu, yakuman=yakuman, yaku=yaku, tsumo=discarder is None,
                          seat_wind=WINDS[(seat - dealer) % 3],
                          discarder_wind=None if discarder is None else WINDS[(discarder - dealer) % 3], rules=r)


def hora(r: Rules, win: Win, discarder: int | None = None, *, honba: int = 0, kyotaku: int = 0,
         dealer: int = 0, scores: tuple[int, ...] = (35000, 35000, 35000)) -> tuple[int, ...]:
    return settle(r, Hora((win,), discarder), scores=scores, dealer=dealer, honba=honba, kyotaku=kyotaku).deltas


# --- §4.3 model A (CLUB; OFFICIAL) -------------------------------------------------------------
def test_model_a_vectors_club_p50() -> None:
    """A1 (non-dealer 30 fu 3 han tsumo: 2,000 / 1,000), A2 (dealer 40 fu 2 han: 1,300 each),
    A3 (non-dealer mangan: 4,000 / 2,000), A5 (dealer 30 fu 4 han: 3,900 all) — P50 tsumo-son."""
    r = rules("club")
    assert hora(r, Win(1, score(r, 3, 30, 1))) == (-2000, 3000, -1000)
    assert hora(r, Win(0, score(r, 2, 40, 0))) == (2600, -1300, -1300)
    assert hora(r, Win(2, score(r, 5, 30, 2))) == (-4000, -2000, 6000)
    assert hora(r, Win(0, score(r, 4, 30, 0))) == (7800, -3900, -3900)


def test_model_a6_club_honba_p43_p44() -> None:
    """A6: A3 at 2 honba — 500 per honba per payer on a tsumo (P44), 1,500 per honba on a ron (P43):
    8,000 as a tsumo, 8,000 + 3,000 = 11,000 as a ron."""
    r = rules("club")
    assert hora(r, Win(1, score(r, 5, 30, 1)), honba=2) == (-5000, 8000, -3000)
    assert hora(r, Win(1, score(r, 5, 30, 1, discarder=2)), 2, honba=2) == (0, 11000, -11000)


def test_model_a8_official_honba_per_payer_p44() -> None:
    """A8 (OFFICIAL): non-dealer 2 han 30 fu tsumo at 1 honba — 「500・1000は、1500・2000」."""
    r = rules("official")
    assert hora(r, Win(1, score(r, 2, 30, 1)), honba=1) == (-2000, 3500, -1500)


# --- §4.3 models C (ONLINE) and D (KANSAI) ------------------------------------------------------
def test_model_c_vectors_online_p50() -> None:
    """C1-C5: equal halves of the ron value; C6: C3 at 1 honba, 300 from each (A001-8)."""
    r = rules("online")
    assert hora(r, Win(1, score(r, 3, 30, 1))) == (-2000, 4000, -2000)  # C1
    assert hora(r, Win(0, score(r, 2, 40, 0))) == (4000, -2000, -2000)  # C2
    assert hora(r, Win(1, score(r, 5, 30, 1))) == (-4000, 8000, -4000)  # C3
    assert hora(r, Win(0, score(r, 1, 30, 0))) == (1600, -800, -800)  # C4
    assert hora(r, Win(2, score(r, 2, 110, 2))) == (-3600, -3600, 7200)  # C5
    assert hora(r, Win(1, score(r, 5, 30, 1)), honba=1) == (-4300, 8600, -4300)  # C6


def test_model_d_vectors_kansai_p50() -> None:
    """D1, D3, D4 (chiitoi 3 han 40 fu tsumo: 2,600 each) and D5 (dealer 2 han 40 fu ron at
    1 honba: the discarder pays 4,900)."""
    r = rules("kansai")
    assert hora(r, Win(1, score(r, 3, 30, 1))) == (-2000, 4000, -2000)
    assert hora(r, Win(1, score(r, 5, 30, 1))) == (-4000, 8000, -4000)
    assert hora(r, Win(2, score(r, 3, 40, 2))) == (-2600, -2600, 5200)
    assert hora(r, Win(0, score(r, 2, 40, 0, discarder=1)), 1, honba=1) == (4900, -4900, 0)


def test_sticks_to_the_winner_p48_p49() -> None:
    """P48 / P49: riichi sticks on the table go to the winner; nothing is left on the table."""
    r = rules("tenhou")
    s = settle(r, Hora((Win(2, score(r, 1, 30, 2, discarder=1)),), 1), scores=(35000,) * 3, dealer=0, honba=0,
               kyotaku=2)
    assert s.deltas == (0, -1000, 3000) and s.kyotaku == 0


# --- double ron (P88-P91) -----------------------------------------------------------------------
def test_double_ron_club_honba_both_sticks_head_bump_p89() -> None:
    """P89 (CLUB): honba paid to both winners, riichi sticks to the head-bump winner only."""
    r = rules("club")
    wins = (Win(1, score(r, 1, 30, 1, discarder=0)), Win(2, score(r, 1, 30, 2, discarder=0)))
    s = settle(r, Hora(wins, 0), scores=(35000,) * 3, dealer=0, honba=1, kyotaku=1)
    assert [w.deltas for w in s.wins] == [(-2500, 3500, 0), (-2500, 0, 2500)]
    assert s.deltas == (-5000, 3500, 2500)


def test_double_ron_online_honba_to_first_p89() -> None:
    """P89 (ONLINE): 「供託点は上家取り」 — honba and sticks to the first winner only."""
    r = rules("online")
    wins = (Win(1, score(r, 1, 30, 1, discarder=0)), Win(2, score(r, 1, 30, 2, discarder=0)))
    s = settle(r, Hora(wins, 0), scores=(35000,) * 3, dealer=0, honba=1, kyotaku=1)
    assert s.deltas == (-1000 - 600 - 1000, 1000 + 600 + 1000, 1000)


def test_double_ron_bust_owed_to_upstream_p91() -> None:
    """P91 (KANSAI): the upstream winner is paid first; the bust is owed to the winner whose payment
    ran the discarder's points out."""
    r = rules("kansai")
    assert r.double_ron_payment_order == "upstream_first"
    wins = (Win(1, score(r, 5, 30, 1, discarder=0)), Win(2, score(r, 5, 30, 2, discarder=0)))
    s = settle(r, Hora(wins, 0), scores=(9000, 35000, 35000), dealer=0, honba=0, kyotaku=0)
    assert s.bust_by == (2,)  # 9,000 - 8,000 = 1,000 after the first, below zero only after the second
    s = settle(r, Hora(wins, 0), scores=(7000, 35000, 35000), dealer=0, honba=0, kyotaku=0)
    assert s.bust_by == (1,)


def test_tsumo_needs_one_winner() -> None:
    r = rules("tenhou")
    with pytest.raises(OutcomeError, match="exactly one winner"):
        settle(r, Hora((Win(1, score(r, 1, 30, 1)), Win(2, score(r, 1, 30, 2)))), scores=(35000,) * 3, dealer=0,
               honba=0, kyotaku=0)


# --- draws (P46, P96, P92-P95) ------------------------------------------------------------------
@pytest.mark.parametrize(("preset", "tenpai", "deltas"), [
    ("club", (0,), (2000, -1000, -1000)),  # P46 CLUB: each noten pays 1,000 to each tenpai
    ("club", (0, 1), (1000, 1000, -2000)),
    ("online", (0,), (3000, -1500, -1500)),  # P46 ONLINE: 3,000 pool
    ("online", (0, 2), (1500, -3000, 1500)),
    ("official", (1,), (-1000, 2000, -1000)),  # P46 OFFICIAL: 2,000 changes hands in total
    ("official", (1, 2), (-2000, 1000, 1000)),
    ("kansai", (2,), (-1000, -1000, 2000)),
    ("tenhou", (), (0, 0, 0)),
    ("tenhou", (0, 1, 2), (0, 0, 0)),
])
def test_noten_payments_p46(preset: str, tenpai: tuple[int, ...], deltas: tuple[int, ...]) -> None:
    """P46 noten payments per preset (per pair or a pool); nobody or everybody tenpai: nothing."""
    r = rules(preset)
    s = settle(r, ExhaustiveDraw(tenpai), scores=(35000,) * 3, dealer=0, honba=2, kyotaku=1)
    assert s.deltas == deltas and s.kyotaku == 1  # the sticks stay on the table (P49)


def test_nagashi_as_a_win_club_p96() -> None:
    """P96 (CLUB): nagashi is a baiman tsumo win (A000-3): honba and sticks as for a win, no noten."""
    r = rules("club")
    s = settle(r, ExhaustiveDraw((0,), nagashi=(1,)), scores=(35000,) * 3, dealer=0, honba=1, kyotaku=1)
    b = limit_basic("baiman")
    assert b == 4000
    assert s.deltas == (-8000 - 500, 12000 + 1000 + 1000, -4000 - 500) and s.kyotaku == 0


def test_nagashi_as_a_draw_online_p96() -> None:
    """P96 (ONLINE): 「流局扱い、満貫扱い」 — a mangan tsumo's payments, no honba, the sticks stay; with
    the noten payments too (A001-15, ``nagashi_with_noten_payments``); MAJSOUL: instead of them."""
    r = rules("online")
    s = settle(r, ExhaustiveDraw((0,), nagashi=(2,)), scores=(35000,) * 3, dealer=0, honba=1, kyotaku=1)
    assert s.deltas == (-4000 + 3000, -4000 - 1500, 8000 - 1500) and s.kyotaku == 1
    r = rules("majsoul")
    s = settle(r, ExhaustiveDraw((0,), nagashi=(2,)), scores=(35000,) * 3, dealer=0, honba=1, kyotaku=1)
    assert s.deltas == (-4000, -2000, 6000) and s.kyotaku == 1


def test_nagashi_yakuman_chips_kansai_a003_12() -> None:
    """A003-12 (KANSAI): nagashi is a real yakuman (本役満): its chips from each other seat (P116)."""
    r = rules("kansai")
    s = settle(r, ExhaustiveDraw((), nagashi=(1,)), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert s.chips == (-5, 10, -5) and s.deltas == (-16000, 32000, -16000)


def test_abortive_draw_moves_nothing_p92() -> None:
    """P92-P95: an abortive draw moves no points and leaves the sticks."""
    s = settle(rules("club"), AbortiveDraw("kyuushu"), scores=(35000,) * 3, dealer=0, honba=3, kyotaku=2)
    assert s.deltas == (0, 0, 0) and s.kyotaku == 2


# --- pao (P97-P99) ------------------------------------------------------------------------------
def test_pao_tsumo_and_ron_club_p98() -> None:
    """P98 (CLUB): 「ツモ全額、ロン半額」 — on a tsumo the liable seat pays the whole (ron value),
    on a ron by another seat it pays half and the discarder the rest."""
    r = rules("club")
    s = score(r, 0, 0, 1, yakuman=1, yaku=("daisangen",))
    assert hora(r, Win(1, s, (Pao(2, "daisangen"),))) == (0, 32000, -32000)
    ron = score(r, 0, 0, 1, discarder=0, yakuman=1, yaku=("daisangen",))
    assert hora(r, Win(1, ron, (Pao(2, "daisangen"),)), 0) == (-16000, 32000, -16000)
    # the liable seat deals in itself: an ordinary ron
    assert hora(r, Win(1, ron, (Pao(0, "daisangen"),)), 0) == (-32000, 32000, 0)


def test_pao_needs_its_yakuman_p97() -> None:
    """P97: a liable seat pays only for the yakuman it fed; otherwise the win is paid as usual."""
    r = rules("club")
    s = score(r, 0, 0, 1, yakuman=1, yaku=("tsuuiisou",))
    assert hora(r, Win(1, s, (Pao(2, "daisangen"),))) == (-16000, 24000, -8000)


def test_pao_compound_part_majsoul_p99() -> None:
    """P99 (pao_part): with a double yakuman the liable seat pays only its yakuman's ron value on a
    tsumo; the other yakuman is paid as a tsumo by both."""
    r = rules("majsoul")
    s = score(r, 0, 0, 1, yakuman=2, yaku=("daisangen", "tsuuiisou"))
    assert hora(r, Win(1, s, (Pao(2, "daisangen"),))) == (-16000, 24000 + 32000, -8000 - 32000)


def test_pao_daiminkan_rinshan_kansai_p97() -> None:
    """P97 / A003-15 (KANSAI): a rinshan win off a daiminkan is paid wholly by the feeder."""
    r = rules("kansai")
    s = score(r, 2, 30, 1, yaku=("rinshan", "yakuhai_white"))
    assert hora(r, Win(1, s, (Pao(0, RINSHAN_PAO),)), honba=1) == (-s.total - 1000, s.total + 1000, 0)
    assert hora(rules("club"), Win(1, score(rules("club"), 2, 30, 1, yaku=("rinshan",)), (Pao(0, RINSHAN_PAO),))) \
        == (-1000, 1500, -500)  # CLUB removed the rule (L67 obsolete): an ordinary tsumo


def test_pao_pays_chips_kansai_p98() -> None:
    """P98 (KANSAI): 「3(4)枚目を鳴かせた人が点棒、祝儀両方」 — on a tsumo the liable seat pays every
    yakuman chip; on a ron by another seat, liable and discarder half each."""
    r = rules("kansai")
    s = settle(r, Hora((Win(1, score(r, 0, 0, 1, yakuman=1, yaku=("daisangen",)), (Pao(2, "daisangen"),)),)),
               scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert s.chips == (0, 10, -10) and s.wins[0].pao == 2
    ron = score(r, 0, 0, 1, discarder=0, yakuman=1, yaku=("daisangen",))
    s = settle(r, Hora((Win(1, ron, (Pao(2, "daisangen"),)),), 0), scores=(35000,) * 3, dealer=0, honba=0,
               kyotaku=0)
    assert s.chips == (-5, 10, -5)


# --- chombo (P100, P101) ------------------------------------------------------------------------
def test_chombo_payments_p100() -> None:
    """P100 / §4.3 penalties: CLUB 満貫払い = a reversed mangan tsumo (non-dealer offender: 4,000 to the
    dealer, 2,000 to the other; dealer offender: 4,000 each); KANSAI ハネ満払い under model D
    (non-dealer 6,000 each, dealer 9,000 each); OFFICIAL: no points (rank points at the end)."""
    assert chombo_payment(rules("club"), 1, 0) == (4000, -6000, 2000)
    assert chombo_payment(rules("club"), 0, 0) == (-8000, 4000, 4000)
    assert chombo_payment(rules("kansai"), 2, 0) == (6000, 6000, -12000)
    assert chombo_payment(rules("kansai"), 0, 0) == (-18000, 9000, 9000)
    assert chombo_payment(rules("official"), 1, 0) == (0, 0, 0)


def test_chombo_returns_this_hands_sticks_p101() -> None:
    """P101: the riichi sticks placed in the chombo hand go back to who placed them; older sticks stay."""
    r = rules("club")
    s = settle(r, Chombo((Offence(1, "noten_riichi"),), sticks_this_hand=(2,)), scores=(35000,) * 3, dealer=0,
               honba=0, kyotaku=3)
    assert s.refund == (0, 0, 1000) and s.kyotaku == 2
    assert s.offences == ((4000, -6000, 2000),) and s.deltas == (4000, -6000, 3000)
    assert Chombo.of(1, "x") == Chombo((Offence(1, "x"),))


# --- chips (P114-P119) and game end (P110-P112, P121) --------------------------------------------
def test_chips_club_ippatsu_ura_p114_p115() -> None:
    """P114 (CLUB): ippatsu 3 chips from each on a tsumo, from the discarder on a ron; P115: 3 per ura."""
    r = rules("club")
    s = score_from_han(4, 30, yaku=("riichi", "ippatsu", "ura_dora"), tsumo=True, seat_wind="S", rules=r)
    st = settle(r, Hora((Win(1, s),)), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (-6, 12, -6)
    # A000-25 literal reading (per_tile): the physical tiles count, here 2
    per_tile = from_dict({**to_dict(r), "ura_chip_count": "per_tile"})
    st = settle(per_tile, Hora((Win(1, s, ura_tiles=2),)), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (-9, 18, -9)


def test_chips_club_yakuman_and_junchan_for_chinroutou_p116_p118() -> None:
    """P116 (CLUB): yakuman 30 on a ron; P118: closed chinroutou also earns the junchan chips (10 on
    a ron) — the chips the bot's old valuation missed."""
    r = rules("club")
    s = score(r, 0, 0, 1, discarder=2, yakuman=1, yaku=("chinroutou",))
    st = settle(r, Hora((Win(1, s),), 2), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (0, 40, -40)
    st = settle(r, Hora((Win(1, s, closed=False),), 2), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (0, 30, -30)
    assert expected_win_chips(r, Win(1, s), 2) == 40


def test_chips_chinitsu_shape_yakuman_p117() -> None:
    """P117 (CLUB): a closed yakuman of one suit (chuuren) earns the menzen chinitsu chips too."""
    r = rules("club")
    s = score(r, 0, 0, 1, yakuman=1, yaku=("chuuren",))
    st = settle(r, Hora((Win(1, s, chinitsu_shape=True),)), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (-20, 40, -20)


def test_chips_kansai_flower_and_yakuman_from_both_p116_p119() -> None:
    """P119 (KANSAI): the chip flower pulled and the hand won closed: 1 chip from the discarder;
    P116: real yakuman 5 chips from both opponents even on a ron; kazoe earns none."""
    r = rules("kansai")
    s = score(r, 2, 30, 1, discarder=0)
    st = settle(r, Hora((Win(1, s, chip_flowers=1),), 0), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (-1, 1, 0)
    st = settle(r, Hora((Win(1, s, closed=False, chip_flowers=1),), 0), scores=(35000,) * 3, dealer=0, honba=0,
                kyotaku=0)
    assert st.chips == (0, 0, 0)
    ym = score(r, 0, 0, 1, discarder=0, yakuman=1, yaku=("kokushi",))
    st = settle(r, Hora((Win(1, ym),), 0), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (-5, 10, -5)
    kazoe = score(r, 14, 30, 1, discarder=0)  # P59 (KANSAI): kazoe from 14 han
    assert kazoe.kazoe and kazoe.yakuman == 1
    st = settle(r, Hora((Win(1, kazoe, closed=False),), 0), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0)
    assert st.chips == (0, 0, 0)  # P116 (KANSAI): only a real yakuman earns chips


def test_no_chips_without_chips_p113() -> None:
    r = rules("tenhou")
    s = score(r, 0, 0, 1, yakuman=1, yaku=("chinroutou",))
    assert settle(r, Hora((Win(1, s),)), scores=(35000,) * 3, dealer=0, honba=0, kyotaku=0).chips == (0, 0, 0)


def test_bust_chips_p110_p112() -> None:
    """P110 (CLUB): 3 chips to each player who caused the bust; P111: +3 per extra box; P112: +5 in
    East 1 of the first lap (non-dealer), +8 (dealer)."""
    r = rules("club")
    assert game_end_payments(r, [60000, 50000, -5000], [0, 0, 0], busted=[2], busters=[0])[1] == (3, 0, -3)
    assert game_end_payments(r, [60000, 50000, -5000], [0, 0, 0], busted=[2], busters=[0, 1])[1] == (3, 3, -6)
    assert game_end_payments(r, [80000, 50000, -25000], [0, 0, 0], busted=[2], busters=[0])[1] == (6, 0, -6)
    assert game_end_payments(r, [60000, 50000, -5000], [0, 0, 0], busted=[2], busters=[0], opening=True,
                             dealer=0)[1] == (8, 0, -8)
    assert game_end_payments(r, [-5000, 50000, 60000], [0, 0, 0], busted=[0], busters=[2], opening=True,
                             dealer=0)[1] == (-11, 0, 11)


def test_riichi_bust_where_a_bust_ends_the_game_is_paid_at_the_end_p79_a000_19_p110_p112() -> None:
    """P79 / A000-19 (CLUB) 「1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、
    箱割れチップは両者に払う」: nothing moves at the hand (no stick, no points), both others are owed
    the bust (``bust_by``); ``game_end_payments`` then pays 3 chips (P110) + 5 in East 1 (P112) each."""
    r = rules("club")
    paid = settle(r, RiichiBust(1, opening=True), scores=(52000, 1000, 52000), dealer=0, honba=2, kyotaku=1)
    assert paid.deltas == (0, 0, 0) and paid.chips == (0, 0, 0)
    assert paid.kyotaku == 1 and paid.bust_by == (0, 2)
    assert game_end_payments(r, (52000, 1000, 52000), (0, 0, 0), busted=(1,), busters=paid.bust_by, opening=True,
                             dealer=0)[1] == (8, -16, 8)


def test_riichi_bust_when_the_game_goes_on_pays_both_others_now_p79_a000_19_p110_p112() -> None:
    """P79 with ``bust_ends_game`` off: the declarer pays *each* other player (「両者に払う」) the bust
    chips (P110 3, P112 +8 as the dealer in East 1) and the dobon fee (P110) at once; the sticks on
    the table stay."""
    r = dataclasses.replace(rules("club"), bust_ends_game=False, dobon_fee=1000)
    paid = settle(r, RiichiBust(0, opening=True), scores=(800, 50000, 54200), dealer=0, honba=0, kyotaku=2)
    assert paid.deltas == (-2000, 1000, 1000) and paid.chips == (-22, 11, 11) and paid.kyotaku == 2
    paid = settle(r, RiichiBust(2), scores=(50000, 54000, 1000), dealer=0, honba=0, kyotaku=0)
    assert paid.chips == (3, 3, -6) and sum(paid.deltas) == 0


def test_riichi_bust_refused_where_it_is_no_bust_p79() -> None:
    """P79: 1,100 points is an ordinary riichi under CLUB; KANSAI has no riichi bust at all
    (seed 003 「ただし残り1000点からリーチはできます」, ``riichi_bust_points = 0``)."""
    with pytest.raises(OutcomeError, match="1,100 points"):
        settle(rules("club"), RiichiBust(1), scores=(50000, 1100, 53900), dealer=0, honba=0, kyotaku=0)
    with pytest.raises(OutcomeError, match="bust only with 0 or fewer"):
        settle(rules("kansai"), RiichiBust(1), scores=(50000, 1000, 54000), dealer=0, honba=0, kyotaku=0)
    with pytest.raises(OutcomeError, match="not a seat"):
        settle(rules("club"), RiichiBust(3), scores=(50000, 1000, 54000), dealer=0, honba=0, kyotaku=0)
    with pytest.raises(OutcomeError, match="unknown abortive draw"):  # one outcome: not an abort kind
        settle(rules("club"), AbortiveDraw("riichi_bust"), scores=(50000, 1000, 54000), dealer=0, honba=0, kyotaku=0)


def test_chiicha_not_top_p121() -> None:
    """P121 (CLUB): nobody busted and the first dealer (seat 0) not top: it pays 3 chips to each other."""
    r = rules("club")
    assert game_end_payments(r, [30000, 40000, 35000], [0, 0, 0])[1] == (-6, 3, 3)
    assert game_end_payments(r, [45000, 40000, 20000], [0, 0, 0])[1] == (0, 0, 0)


# --- scores without tiles (the score keeper's input) ---------------------------------------------
def test_score_from_han_matches_limits_p55() -> None:
    """P55 / P57: limits from han (mangan 5, haneman 6-7, baiman 8-10, sanbaiman 11-12) and kazoe."""
    r = rules("tenhou")
    assert [score_from_han(h, 30, discarder_wind="E", seat_wind="S", rules=r).total for h in (5, 6, 8, 11)] == [
        8000, 12000, 16000, 24000]
    assert score_from_han(0, 0, yakuman=2, seat_wind="E", discarder_wind="S", rules=r).total == 96000


@pytest.mark.parametrize("preset", ["kansai", "tenhou", "online", "club"])
@pytest.mark.parametrize("model", ["full_amount", "equal_halves", "tsumo_son"])
def test_score_from_han_pays_as_score_hand_p50_a003_3(preset: str, model: str) -> None:
    """P50 / A003-3: a hand given by han and fu is paid as the same hand given by its tiles (one
    home: ``scoring._paid_and_deltas``). Under ``full_amount`` a dealer's 2,900 tsumo is paid
    1,500 + 1,400; the han/fu path once had both others pay 1,400 (2,800 for a 2,900 hand)."""
    r = dataclasses.replace(rules(preset), tsumo_payment=model)
    for seat_wind in "ESW":
        for tsumo in (True, False):
            disc = None if tsumo else ("S" if seat_wind != "S" else "W")
            tiles = scoring.score_hand("111p234p678s99s567s", win="5s", tsumo=tsumo, riichi=True, seat_wind=seat_wind,
                                       discarder_wind=disc, honba=2, kyotaku=1, rules=r)
            value = score_from_han(tiles.han, tiles.fu, tsumo=tsumo, seat_wind=seat_wind, discarder_wind=disc,
                                   honba=2, kyotaku=1, rules=r)
            assert (dict(value.payments), dict(value.deltas), value.total) == (
                dict(tiles.payments), dict(tiles.deltas), tiles.total)
    if model == "full_amount" and preset == "kansai":
        dealer = score_from_han(2, 30, tsumo=True, seat_wind="E", rules=r)
        assert dict(dealer.deltas) == {"E": 2900, "S": -1500, "W": -1400}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"han": 0, "fu": 30}, "at least 1 han"),
    ({"han": 2, "fu": 35}, "invalid fu 35"),
    ({"han": -1, "fu": 30}, "negative"),
    ({"han": 1, "fu": 30, "seat_wind": "N"}, "seat wind"),
    ({"han": 1, "fu": 30, "seat_wind": "S", "discarder_wind": "S"}, "discarder wind"),
    ({"han": 0, "fu": 0, "yakuman": 1, "yaku": ("a", "b")}, "2 yakuman named"),
])
def test_score_from_han_rejects_bad_input(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        score_from_han(**kwargs)  # type: ignore[arg-type]


# --- bad outcomes: a clear typed error, nothing settled ---------------------------------------------
@pytest.mark.parametrize(("outcome", "message"), [
    (Hora(()), "needs a winner"),
    (Hora((Win(3, score_from_han(1, 30)),), 0), "seat 3 is not a seat"),
    (Hora((Win(1, score_from_han(1, 30)),), 1), "cannot win off its own discard"),
    (Hora((Win(1, score_from_han(1, 30)), Win(1, score_from_han(1, 30))), 0), "listed twice"),
    (Hora((Win(1, score_from_han(1, 30), (Pao(1, "daisangen"),)),), 0), "liable"),
    (ExhaustiveDraw((0, 0)), "listed twice"),
    (ExhaustiveDraw((), (-1,)), "not a seat"),
    (Chombo(()), "needs an offender"),
    (Chombo((Offence(0, "x"),), (1, 2)), "only 1 on the table"),
    (AbortiveDraw("nine_gates"), "unknown abortive draw"),
])
def test_bad_outcomes_raise_outcome_error(outcome: object, message: str) -> None:
    with pytest.raises(OutcomeError, match=message):
        settle(rules("tenhou"), outcome, scores=(35000,) * 3, dealer=0, honba=0, kyotaku=1)  # type: ignore[arg-type]


def test_bad_table_raises_outcome_error() -> None:
    with pytest.raises(OutcomeError, match="3 seats"):
        settle(rules("tenhou"), AbortiveDraw("kyuushu"), scores=(35000, 35000), dealer=0, honba=0, kyotaku=0)
    with pytest.raises(OutcomeError, match="negative"):
        settle(rules("tenhou"), AbortiveDraw("kyuushu"), scores=(35000,) * 3, dealer=0, honba=-1, kyotaku=0)


def test_double_ron_with_pao_on_the_second_winner_pays_the_sticks_once_p49_p98() -> None:
    """P49 / P89 (ONLINE, head bump) with P98: when the second winner of a double ron has a liable
    seat, honba and sticks still go to the first winner only (the engine's old pao code paid the
    sticks to both, creating points)."""
    r = rules("online")
    first = Win(1, score(r, 1, 30, 1, discarder=0))
    second = Win(2, score(r, 0, 0, 2, discarder=0, yakuman=1, yaku=("daisangen",)), (Pao(1, "daisangen"),))
    s = settle(r, Hora((first, second), 0), scores=(35000,) * 3, dealer=0, honba=1, kyotaku=2)
    assert s.wins[0].deltas == (-1000 - 600, 1000 + 600 + 2000, 0)
    assert s.wins[1].deltas == (-16000, -16000, 32000) and s.wins[1].pao == 1
    assert sum(s.deltas) == 2 * r.riichi_deposit and s.kyotaku == 0
