"""Issue 20: each cause of a corpus mismatch, shown on the record and kyoku that showed it.

Every test replays the real record under the preset as it is now (zero mismatches) and shows that
the rule it names decides it: the old reading of the rule fails on the same hand. The whole corpus
is replayed by tests/test_corpus.py.
"""

from __future__ import annotations

import dataclasses

import pytest

import sanma
from sanma.errors import NotAWinError
from sanma.formats import read_record
from sanma.formats.record import GameRecord
from sanma.game.settle import final_result
from sanma.replay import GameReplay, replay_record, rules_for
from sanma.rules import Rules
from shared_data import data_path

PHOENIX = "corpus/tenhou_phoenix_2026-01"


def _record(name: str) -> GameRecord:
    rec = read_record(data_path(name))
    assert rec.errors == ()
    return rec


def _with(rec: GameRecord, **changes: object) -> GameReplay:
    """The record replayed under its own rules (rules_for) with ``changes``."""
    rules, _ = rules_for(rec)
    return replay_record(rec, dataclasses.replace(rules, **changes))  # type: ignore[arg-type]


def _where(result: GameReplay) -> set[tuple[str, str]]:
    return {(m.kyoku, m.what) for m in result.mismatches}


# --- 1. open-kan dora timing (PLATFORMS §1 Kan dora timing, corrected 2026-12-02) ------------------


def test_a_rinshan_win_after_a_kakan_does_not_count_the_new_indicator() -> None:
    """2026012317gm-00b9-0000-b4bf9499 S1: seat 0 kakans, wins on the replacement tile; the record's
    win has rinshan, haku and 1 dora (3 han, 5,200) and no new DORA: Tenhou turns an open kan's
    indicator with the kan player's next discard (kan_dora_open = "with_discard"). Turned after the
    replacement draw (the old "before_discard") it gave 4 han, a mangan, and every later start score."""
    rec = _record(f"{PHOENIX}/2026012317gm-00b9-0000-b4bf9499.xml")
    assert Rules.preset("tenhou").kan_dora_open == "with_discard"
    assert replay_record(rec).ok
    old = _with(rec, kan_dora_open="before_discard")
    assert {("S1", "seat 0 han"), ("S1", "kan dora indicators"), ("S1-1", "hand start")} <= _where(old)


def test_a_ron_on_the_discard_after_a_daiminkan_counts_the_new_indicator() -> None:
    """2026011710gm-00b9-0000-c73a3668 S2-1: a daiminkan, the replacement draw, the discard — then
    DORA, then the ron on that discard, whose doraHai holds the new indicator: a ron on the kan
    player's next discard counts it, so the timing is not "after_discard" (turned once the discard
    passes)."""
    rec = _record(f"{PHOENIX}/2026011710gm-00b9-0000-c73a3668.xml")
    assert replay_record(rec).ok
    assert ("S2-1", "kan dora indicators") in _where(_with(rec, kan_dora_open="after_discard"))


# --- 2. the honba a double ron's second winner is named (the checker) ------------------------------


def test_the_second_winner_of_a_double_ron_names_the_hands_honba() -> None:
    """2026011603gm-00b9-0000-c14aa6b4 S3-1: a double ron on seat 0's discard. Tenhou's AGARI ba is
    "1,1" for the first winner and "1,0" for the second: the hand's honba on both, the sticks on the
    first; the second is paid no honba (P89, PLATFORMS §1 Multiple ron), which its payments show.
    The checker compared the second winner's ba with the honba paid (0)."""
    rec = _record(f"{PHOENIX}/2026011603gm-00b9-0000-c14aa6b4.xml")
    (k,) = [k for k in rec.kyoku if k.label == "S3-1" and len(k.wins) == 2]
    first, second = k.wins
    assert (first.honba, first.kyotaku, second.honba, second.kyotaku) == (1, 1, 1, 0)
    assert second.deltas[second.seat] == second.points  # no honba in the second winner's payment
    assert replay_record(rec).ok
    # the checker still catches a record whose second winner names another honba
    wins = (first, dataclasses.replace(second, honba=0))
    changed = dataclasses.replace(k, results=wins)
    tampered = dataclasses.replace(rec, kyoku=tuple(changed if x is k else x for x in rec.kyoku))
    assert ("S3-1", f"seat {second.seat} honba") in _where(replay_record(tampered))


def test_a_double_ron_pays_the_honba_to_both_where_the_rules_say() -> None:
    """The same hand under double_ron_honba_both = true (P89, the club's 「ダブロンの場合の積み符は
    両者に上乗せする」): the engine pays the second winner the honba too, which the record's payments
    do not show — a payment mismatch, not a honba one."""
    rec = _record(f"{PHOENIX}/2026011603gm-00b9-0000-c14aa6b4.xml")
    found = _where(_with(rec, double_ron_honba_both=True))
    assert any(k == "S3-1" and what.endswith("payments") for k, what in found)
    assert not any(what.endswith("honba") for _, what in found)


# --- 3. ankan after riichi (P84) ------------------------------------------------------------------


def test_tenhou_allows_an_ankan_after_riichi_that_keeps_the_waits() -> None:
    """2026011721gm-00b9-0000-3c410cc2 S2: seat 2 in riichi on 1234446777p567s (waits 5p 6p 8p) draws
    the fourth 4p and kans it: 123p6777p567s waits on 5p 6p 8p still, though 4p is no triplet in
    the reading 123p 44p 456p 777p (kan_after_riichi = "waits_only"). The rinshan tsumo follows."""
    rec = _record(f"{PHOENIX}/2026011721gm-00b9-0000-3c410cc2.xml")
    assert Rules.preset("tenhou").kan_after_riichi == "waits_only"
    assert replay_record(rec).ok
    assert ("S2", "illegal ankan") in _where(_with(rec, kan_after_riichi="wait_unchanged"))


# --- 4. whole-number final points ------------------------------------------------------------------


def test_whole_number_final_points_give_the_top_what_the_rounding_moved() -> None:
    """corpus/tenhou_mjlog_misc/dnovikoff-sanma2.xml (owari 274,-13.0,831,79.0,-55,-66.0): -12.6 and
    -65.5 round to -13 and -66, and the top's 78.1 becomes 79 = 13 + 66 (final_rounding =
    "integer"); each seat rounded alone gave 78."""
    rec = _record("corpus/tenhou_mjlog_misc/dnovikoff-sanma2.xml")
    assert rec.final_points == (-13.0, 79.0, -66.0)
    result = replay_record(rec)
    assert result.ok and any("final_rounding = 'integer'" in n for n in result.notes)
    rules = dataclasses.replace(Rules.preset("tenhou"), final_rounding="integer")
    assert final_result(rules, [27400, 83100, -5500]).points == (-13.0, 79.0, -66.0)
    assert final_result(Rules.preset("tenhou"), [27400, 83100, -5500]).points == (-12.6, 78.1, -65.5)


# --- 6. Mahjong Soul yakuman names written with 待ち -------------------------------------------------


def test_a_mahjong_soul_double_yakuman_written_as_one_is_read_from_its_points() -> None:
    """corpus/majsoul_east_tenhou6/mjai-reviewer3p_kokushi13_withnuki.json E3-2: 「国士無双十三面待ち
    (役満)」 for 64,000 from a non-dealer ron — 2 yakuman (a ron is 4 × the basic points under every
    payment model); Mahjong Soul counts the 13-sided kokushi double (the majsoul preset's
    yakuman.kokushi_13 = 2)."""
    rec = _record("corpus/majsoul_east_tenhou6/mjai-reviewer3p_kokushi13_withnuki.json")
    (win,) = rec.kyoku[-1].wins
    assert (rec.kyoku[-1].label, win.tsumo, win.points) == ("E3-2", False, 64000)
    assert (win.yaku, win.yakuman) == ((("kokushi_13", 2),), 2)
    assert Rules.preset("majsoul").yakuman["kokushi_13"] == 2
    assert replay_record(rec).ok


@pytest.mark.parametrize("name", ["国士無双十三面待ち", "四暗刻単騎待ち"])
def test_every_yakuman_name_written_with_machi_is_read(name: str) -> None:
    """The yakuman a record may write with 待ち (Mahjong Soul's names, as converters copy them) read
    as the scorer's yakuman: a yaku line of a tenhou.net/6 win."""
    from sanma.i18n import yaku_key

    assert yaku_key(name) in ("kokushi_13", "suuankou_tanki")


# --- 7. dama_allowed has one home: the scorer --------------------------------------------------------


def test_the_scorer_refuses_a_dama_win_where_the_rules_forbid_it() -> None:
    """P86 / A003-8 flag: with dama_allowed = false a closed hand without riichi is no win — for
    sanma.score_hand (the calculator, the keeper's hands by tiles) as for the engine, which asks it."""
    rules = dataclasses.replace(Rules.preset("kansai"), dama_allowed=False)
    hand = dict(win="9m", seat_wind="S", round_wind="E", discarder_wind="W", rules=rules)
    with pytest.raises(NotAWinError, match="dama_allowed = false"):
        sanma.score_hand("123456789p99m111z", **hand)  # type: ignore[arg-type]
    assert sanma.score_hand("123456789p99m111z", riichi=True, **hand).han >= 1  # type: ignore[arg-type]
    assert sanma.score_hand("123456789p99m", melds=("pon:111z",), **hand).han >= 1  # type: ignore[arg-type]
    assert sanma.score_hand("123456789p99m111z", **{**hand, "rules": Rules.preset("kansai")}).han >= 1  # type: ignore[arg-type]
