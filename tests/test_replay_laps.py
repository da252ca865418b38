"""Replaying records whose round wind repeats: the lap comes from the record's hand sequence.

A record names each hand's round wind, not its lap. Under the club's ``round_winds = "EE"``
(P33) every hand of both laps is an East hand, and overtime repeats a wind too (P34: the club's
``club_laps`` plays more East laps, ``kaeri_ton`` goes back to East after South). A fresh engine
game started inside such a lap (the replay restarts after a hand that diverged) must know which
lap it is in, or the end of the game, overtime and the last-hand rules come out differently.
"""

from __future__ import annotations

import dataclasses
import random
from functools import cache

import pytest

from engine_helpers import shanten_policy_move
from sanma import events as ev
from sanma.formats import GameRecord, KyokuRecord, read_mjai, read_tenhou6, write_mjai, write_tenhou6
from sanma.game.engine import Game
from sanma.replay import lap_wind, replay_record, round_indexes
from sanma.rules import Rules
from sanma.tiles import Tile


@cache
def _game(preset: str, seed: int) -> tuple[Game, tuple[int, ...]]:
    """A whole game (the same seed gives the same game) and the engine's lap of each hand.

    Every win is taken, discards lower the shanten (riichi preferred), and one move in ten is any
    legal action; the policy lives here so that bot changes do not move the seeds.
    """
    g = Game(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    laps = [g.round_index]
    hands = 1
    while not g.done:
        shanten_policy_move(g, rng)
        started = sum(e["type"] == "start_kyoku" for e in g.events)
        if started > hands:  # a new hand was dealt: note the lap the engine is in
            laps.append(g.round_index)
            hands = started
    return g, tuple(laps)


def _records(g: Game) -> list[GameRecord]:
    """The game written as mjai JSONL and as tenhou.net/6 JSON, read back."""
    return [read_mjai(write_mjai(g), strict=True), read_tenhou6(write_tenhou6(g, as_text=True), strict=True)]


def _break_hand(rec: GameRecord, i: int) -> GameRecord:
    """Hand ``i`` with its first discard changed to a tile the discarder never held: the replay
    diverges there and starts a fresh engine game at hand ``i + 1``."""
    k = rec.kyoku[i]
    pos = next(n for n, e in enumerate(k.events) if isinstance(e, ev.Dahai)
               and not (n and isinstance(k.events[n - 1], ev.Reach)))
    d = k.events[pos]
    assert isinstance(d, ev.Dahai)
    held = {t.kind for t in k.initial_hands[d.actor]}
    absent = next(Tile.parse(x) for x in ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "5z", "6z", "7z")
                  if Tile.parse(x).kind not in held)
    events = (*k.events[:pos], ev.Dahai(d.actor, absent, d.tsumogiri), *k.events[pos + 1:])
    kyoku = list(rec.kyoku)
    kyoku[i] = dataclasses.replace(k, events=events)
    return dataclasses.replace(rec, kyoku=tuple(kyoku))


def _only_the_broken_hand_mismatches(rec: GameRecord, i: int, label: str) -> None:
    result = replay_record(_break_hand(rec, i))
    assert [(m.kyoku, m.what) for m in result.mismatches] == [(label, "illegal discard")], \
        [str(m) for m in result.mismatches]
    assert result.matched == result.kyoku - 1  # every later hand, and the end of the game, matched


# --- the club's two East laps (P33) ----------------------------------------------------------


def test_club_second_east_lap_replays_as_lap_two_P33() -> None:
    """P33 (club: two laps of East), P34 (``club_laps``: the game ends after the last hand unless
    the dealer is noten in a draw). The replay restarts inside the second East lap: the engine must
    be told it is the second lap, so that the game ends after its E3 as the record does (it used to
    start the first lap again and report ``the engine plays on: E1``)."""
    g, laps = _game("club", 1)
    assert g.rules.round_winds == "EE" and g.end_reason == "last_hand"
    assert laps == (0, 0, 0, 0, 1, 1, 1)  # E1, E1-1, E2, E3, then E1, E2, E3 of the second lap
    for rec in _records(g):
        assert [k.round_wind for k in rec.kyoku] == ["E"] * 7  # the record names no lap
        assert round_indexes(g.rules, rec.kyoku) == list(laps)
        _only_the_broken_hand_mismatches(rec, 4, "E1 (lap 2)")  # restarts at E2 of the second lap
        _only_the_broken_hand_mismatches(rec, 3, rec.kyoku[3].label)  # restarts at E1 of the second lap


def test_club_overtime_lap_ends_on_a_non_dealer_win_P34() -> None:
    """P34 (club: ``club_laps``): after the second East lap the dealer's noten draw sends the game
    into a third East lap, which ends at the first non-dealer win. A replay restarted in that lap
    must know it is overtime, or the non-dealer win would not end the game."""
    g, laps = _game("club", 39)
    assert g.end_reason == "overtime_non_dealer_win"
    assert laps[-1] == 2 == len(g.rules.round_winds)  # the last hand is overtime, still an East hand
    last_of_lap_two = len(laps) - 2
    assert laps[last_of_lap_two] == 1
    for rec in _records(g):
        assert rec.kyoku[-1].round_wind == "E"
        _only_the_broken_hand_mismatches(rec, last_of_lap_two, rec.kyoku[last_of_lap_two].label + " (lap 2)")


def test_kaeri_ton_overtime_east_hand_after_south_is_overtime_P34() -> None:
    """P34 (kansai: ``kaeri_ton``): after South 3 with nobody at the target the game goes back to
    East, and ends as soon as someone reaches it (``target_reached``). That East hand is overtime,
    not the first lap's East, also when the replay restarts there."""
    g, laps = _game("kansai", 17)
    assert g.end_reason == "target_reached" and laps[-1] == 2
    for rec in _records(g):
        assert rec.kyoku[-1].round_wind == "E"
        assert round_indexes(g.rules, rec.kyoku) == list(laps)
        _only_the_broken_hand_mismatches(rec, len(laps) - 2, rec.kyoku[-2].label)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seed"), [("club", 1), ("club", 25), ("club", 39), ("kansai", 17),
                                              ("tenhou", 11), ("tenhou", 3), ("online", 0)])
def test_round_indexes_follow_the_engine_lap_by_lap_P33(preset: str, seed: int) -> None:
    """P33/P34: the lap counted from the record's hands is the engine's ``round_index`` of every
    hand, through repeated winds, overtime laps (club_laps, kaeri_ton, west) and renchan."""
    g, laps = _game(preset, seed)
    for rec in _records(g):
        assert round_indexes(g.rules, rec.kyoku) == list(laps)
        assert replay_record(rec).ok


def test_club_game_into_its_third_east_lap_replays_whole() -> None:
    """P34 (club_laps): a game that plays a third East lap replays as one engine game."""
    g, laps = _game("club", 25)
    assert max(laps) == 2
    for rec in _records(g):
        result = replay_record(rec)
        assert result.ok and result.events[1:] == g.events[1:]


# --- counting laps from a sequence of hands ---------------------------------------------------


def _hands(*labels: str) -> tuple[KyokuRecord, ...]:
    """Kyoku records named like "E1", "S3": only the round wind and the dealer matter here."""
    return tuple(KyokuRecord(round_wind=x[0], dealer=int(x[1]) - 1, honba=0, kyotaku=0,
                             start_scores=(35000, 35000, 35000), dora_indicators=()) for x in labels)


def test_round_indexes_of_hand_sequences_P33() -> None:
    """P33: laps are counted as hands go by; a renchan stays in its lap."""
    club = Rules.preset("club")
    assert round_indexes(club, _hands("E1", "E2", "E3", "E3", "E1", "E2", "E3", "E1")) == [0, 0, 0, 0, 1, 1, 1, 2]
    # a record starting in the middle of the first lap, then the second lap
    assert round_indexes(club, _hands("E2", "E3", "E1")) == [0, 0, 1]
    # the one thing a record cannot say: a first hand that is in the second lap (a documented limit)
    assert round_indexes(club, _hands("E2", "E3")) == [0, 0]
    hanchan = Rules.preset("tenhou")  # "ES", West overtime
    assert round_indexes(hanchan, _hands("E1", "E3", "S1", "S3", "W1", "W2")) == [0, 0, 1, 1, 2, 2]
    assert round_indexes(hanchan, _hands("S2", "S3")) == [1, 1]
    kansai = Rules.preset("kansai")  # "ES", back to East
    assert round_indexes(kansai, _hands("E1", "S3", "E1", "E2")) == [0, 1, 2, 2]
    east_only = dataclasses.replace(hanchan, round_winds="E")  # Tenhou's East-only: South overtime
    assert round_indexes(east_only, _hands("E3", "S1")) == [0, 1]
    # a wind the rules never play is put past the last lap, as before
    assert round_indexes(Rules.preset("online"), _hands("E1", "W1")) == [0, 2]


@pytest.mark.parametrize("preset", Rules.presets())
def test_lap_wind_is_the_engine_round_wind_P34(preset: str) -> None:
    """P33/P34: the wind of each lap, overtime included, as the engine itself names it."""
    rules = Rules.preset(preset)
    for r in range(6):
        assert lap_wind(rules, r) == Game(rules, seed=0, round_index=r).round_wind
