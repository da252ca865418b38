"""The result card's contents (issue 18 item 1): the payload web/results.py builds for each hand,
checked against the engine's own state at the moment the hand ended, over whole random games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from sanma.game.engine import Game
from sanma.game.view import public_seats
from sanma.rules import Rules
from sanma.web.results import hand_result


def _kinds(names: list[str]) -> Counter[str]:
    return Counter(names)


def play(preset: str, seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """One whole game by a seeded random player who always wins (and often declares riichi and
    calls); per hand its card and what the engine showed just before the hand's last action: every
    seat's melds, concealed hand, kita, the revealed indicators, the sticks on the table."""
    g = Game(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    out = []
    start, chips = 1, [0, 0, 0]
    while not g.done:
        seat = g.to_move[0]
        legal = g.legal_actions(seat)
        wins = [a for a in legal if a.type == "hora"]
        reach = [a for a in legal if a.type == "reach"]
        calls = [a for a in legal if a.type in ("pon", "daiminkan", "ankan", "kakan", "kita")]
        action = wins[0] if wins else reach[0] if reach and rng.random() < .5 else \
            calls[0] if calls and rng.random() < .6 else rng.choice(legal)
        before = {"melds": [[m.to_json() for m in p.melds] for p in public_seats(g)],
                  "hands": [sorted(t.mjai for t in st.hand) for st in g.seats],
                  "kita": [st.kita for st in g.seats], "kyotaku": g.kyotaku,
                  "dora": [t.mjai for t in g.spectator_view().dora_indicators],
                  "discard": (action.actor, action.tile.mjai) if action.type == "dahai" and action.tile else None}
        n0 = len(g.events)
        g.apply(action)
        for i in range(n0, len(g.events)):
            if g.events[i]["type"] == "end_kyoku":
                delta = [c - h for c, h in zip(g.chips, chips, strict=True)]
                final = i + 1 < len(g.events) and g.events[i + 1]["type"] == "end_game"
                card = hand_result(g.rules, g.events[start:i + 1], g.hand_results[-1], delta, final=final)
                out.append((card, before))
                chips = list(g.chips)
            elif g.events[i]["type"] == "start_kyoku":
                start = i
    assert out[-1][0]["final"] and not any(c["final"] for c, _ in out[:-1])
    return out


GAMES = [("tenhou", s) for s in range(4)] + [("kansai", s) for s in range(3)] + [("club", 0), ("official", 1)]


@pytest.fixture(scope="module")
def cards() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return [(preset, c, b) for preset, seed in GAMES for c, b in play(preset, seed)]


def test_a_win_shows_fourteen_tiles_with_the_winning_tile_apart_and_no_duplicate(cards: Any) -> None:
    """Issue 18 item 3: a tsumo drew the winning tile twice (the engine's hand already holds it). The
    card's hand is the concealed tiles without the winning tile; with the melds (a kan counts 3) they
    make 14 tiles, and with the winning tile they are exactly the seat's hand (ron: plus the tile)."""
    tsumo = ron = 0
    for _, card, before in cards:
        for w in card["wins"]:
            melded = sum(3 for _ in w["melds"])
            assert len(w["hand"]) + 1 + melded == 14, w
            held = before["hands"][w["seat"]]
            if w["tsumo"]:
                tsumo += 1
                # the drawn winning tile was in the hand before the tsumo: shown apart, once
                assert _kinds([*w["hand"], w["pai"]]) == _kinds(held), (w, held)
            else:
                ron += 1
                assert _kinds(w["hand"]) == _kinds(held), (w, held)
    assert tsumo and ron


def test_an_open_hands_card_has_its_melds_as_called(cards: Any) -> None:
    """Issue 18 item 4: hand_result never set ``melds``. Every winner's and every tenpai seat's melds
    are the engine's public melds at the end of the hand (type, kind, tiles, the seat they came from,
    the called and the added tile)."""
    opened = 0
    for _, card, before in cards:
        for h in [*card["wins"], *card["tenpai_hands"]]:
            assert h["melds"] == before["melds"][h["seat"]], (h["melds"], before["melds"][h["seat"]])
            opened += bool(h["melds"])
    assert opened, "no open hand won or was tenpai in these games"


def test_a_draw_opens_each_tenpai_hand_and_only_those(cards: Any) -> None:
    """Issue 18 item 6: an exhaustive draw showed who was tenpai, not their hands. The card opens the
    hand of each tenpai seat (its concealed tiles as the engine held them) and of no other seat."""
    draws = opened = 0
    for _, card, before in cards:
        if card["kind"] == "ryukyoku" and card["reason"] == "exhaustive":
            draws += 1
            assert [h["seat"] for h in card["tenpai_hands"]] == card["tenpai"]
            for h in card["tenpai_hands"]:
                opened += 1
                held = _kinds(before["hands"][h["seat"]])
                if before["discard"] and before["discard"][0] == h["seat"]:  # the hand's last discard
                    held -= _kinds([before["discard"][1]])
                assert _kinds(h["hand"]) == held
        else:
            assert card["tenpai_hands"] == []
    assert draws and opened


def test_the_card_names_the_sticks_won_and_the_indicators(cards: Any) -> None:
    """Minor defect: the card's "riichi sticks" was the count at the hand's start. ``sticks_won`` is
    every stick on the table when the hand was won (the start's and those placed in the hand: P43-P45,
    the winners take them all); a ron's winner receives its points, the honba and those sticks (no pao,
    one winner: P43 honba_ron per honba). The revealed dora indicators are the engine's."""
    checked = 0
    for preset, card, before in cards:
        assert card["dora_indicators"][:len(before["dora"])] == before["dora"]
        if card["kind"] != "hora":
            assert card["sticks_won"] == 0
            continue
        assert card["sticks_won"] == before["kyotaku"]
        rules = Rules.preset(preset)
        assert card["riichi_deposit"] == rules.riichi_deposit
        if len(card["wins"]) == 1 and not card["wins"][0]["tsumo"] and card["wins"][0]["pao"] is None:
            w = card["wins"][0]
            assert w["deltas"][w["seat"]] == (w["points"] + card["honba"] * rules.honba_ron
                                              + card["sticks_won"] * rules.riichi_deposit)
            checked += 1
    assert checked


def test_an_abortive_draw_names_its_cause_and_who_declared_it() -> None:
    """P92 (nine terminals, kyuushu): the card names the abortive draw's cause and the seat that
    declared it. A seeded player who declares nine terminals whenever offered."""
    for seed in range(40):
        g = Game(Rules.preset("tenhou"), seed=seed)
        while not g.done:
            seat = g.to_move[0]
            legal = g.legal_actions(seat)
            nine = [a for a in legal if a.type == "ryukyoku"]
            n0 = len(g.events)
            g.apply(nine[0] if nine else legal[-1])
            if nine:
                start = max(i for i in range(n0) if g.events[i]["type"] == "start_kyoku")
                end = next(i for i in range(n0, len(g.events)) if g.events[i]["type"] == "end_kyoku")
                card = hand_result(g.rules, g.events[start:end + 1], g.hand_results[-1], [0, 0, 0])
                assert card["kind"] == "abort" and card["reason"] == "kyuushu" and card["actor"] == seat
                assert card["tenpai_hands"] == [] and card["wins"] == []
                return
    pytest.fail("no nine-terminals offer in 40 seeded games")


def test_the_leak_checker_fires_on_a_card_opening_a_noten_hand() -> None:
    """Proof that the whole-game leak test (tests/test_web_leak.py) can fail on a card: at a draw where
    only seat 1 was tenpai, a card opening seat 2's hand leaks; seat 1's does not."""
    from web_helpers import Leak, LeakChecker

    hand1, hand2 = ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "9s", "9s"], ["E"] * 13
    events = [{"type": "start_game", "names": ["a", "b", "c"]},
              {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
               "dora_marker": "1p", "scores": [35000] * 3, "tehais": [["?"] * 13] * 3},
              {"type": "ryukyoku", "reason": "exhaustive", "tenpai": [1], "tehais": [[], hand1, []]},
              {"type": "end_kyoku", "deltas": [-1000, 2000, -1000], "scores": [34000, 37000, 34000]}]
    checker = LeakChecker(events, "seed-text")
    card = {"wins": [], "tenpai_hands": [{"seat": 1, "hand": hand1}]}
    checker.check_hand_result(0, 3, card)
    with pytest.raises(Leak, match="not tenpai"):
        checker.check_hand_result(0, 3, {"wins": [], "tenpai_hands": [{"seat": 2, "hand": hand2}]})
