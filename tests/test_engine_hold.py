"""``Game(hold=True)``: the server's tables stop at every call window (also one nobody may answer)
and at every hand's end until ``release()`` (issue 23: the call window is the same whoever could
call; issue 18: a hand's result is read before the next deal). The game itself is unchanged: the
same actions give the same events as without ``hold``."""

from __future__ import annotations

import random

import pytest

from engine_helpers import PRESETS
from sanma.errors import IllegalActionError
from sanma.game.engine import Game
from sanma.rules import Rules

WINDOW_OPENERS = ("dahai", "kakan", "kita", "ankan")


def _play(preset: str, seed: int, hold: bool) -> tuple[Game, list[tuple[str, str]]]:
    """A seeded random game; under ``hold`` every hold is released at once. Returns the game and
    each hold with the type of the event it stopped after."""
    g = Game(Rules.preset(preset), seed=seed, hold=hold)
    rng = random.Random(seed)
    holds: list[tuple[str, str]] = []
    while not g.done:
        if g.held:
            assert g.to_move == () and all(g.legal_actions(s) == () for s in range(3))
            # the event it stopped after (a kan dora the discard turns, P12 with_discard, comes before the window)
            holds.append((g.held, next(e["type"] for e in reversed(g.events) if e["type"] != "dora")))
            g.release()
            continue
        seat = g.to_move[0]
        legal = g.legal_actions(seat)
        wins = [a for a in legal if a.type == "hora"]
        g.apply(wins[0] if wins and rng.random() < 0.5 else rng.choice(legal))
    return g, holds


@pytest.mark.parametrize("preset", PRESETS)
def test_hold_gives_the_same_events_as_a_game_without_it(preset: str) -> None:
    for seed in range(3):
        held, holds = _play(preset, seed, True)
        plain, none = _play(preset, seed, False)
        assert held.events == plain.events and none == []
        assert held.result == plain.result
        kinds = {k for k, _ in holds}
        assert kinds == {"window", "hand"}
        assert all(t in WINDOW_OPENERS for k, t in holds if k == "window")
        assert all(t == "end_kyoku" for k, t in holds if k == "hand")
        assert sum(1 for k, _ in holds if k == "hand") == len(held.hand_results)  # the last hand too


def test_every_discard_stops_in_a_window_whoever_may_call() -> None:
    """Each discard leaves the game waiting — either for the seats asked, or (nobody asked) held —
    never already at the next draw; and the last hand ends held before ``end_game``."""
    g = Game(Rules.preset("tenhou"), seed=4, hold=True)
    rng = random.Random(4)
    while not g.done:
        if g.held:
            before = g.events[-1]["type"]
            g.release()
            if before == "end_kyoku" and g.done:
                assert g.events[-1]["type"] == "end_game"
            continue
        seat = g.to_move[0]
        g.apply(rng.choice(g.legal_actions(seat)))
        if g.events[-1]["type"] == "dahai":
            asked = any(a.type == "none" for s in g.to_move for a in g.legal_actions(s))
            assert g.held == "window" or asked


def test_the_held_hand_end_shows_the_finished_hand_until_released() -> None:
    g = Game(Rules.preset("tenhou"), seed=2, hold=True)
    rng = random.Random(2)
    while g.held != "hand":
        if g.held:
            g.release()
        else:
            g.apply(rng.choice(g.legal_actions(g.to_move[0])))
    assert g.events[-1]["type"] == "end_kyoku" and (g.round_wind, g.kyoku_in_round) == ("E", 0)
    assert len(g.hand_results) == 1
    g.release()
    assert g.events[-1]["type"] in ("tsumo", "flower") and any(e["type"] == "start_kyoku" for e in g.events[-4:])


def test_release_without_a_hold_is_refused() -> None:
    g = Game(Rules.preset("tenhou"), seed=1, hold=True)
    with pytest.raises(IllegalActionError, match="not held"):
        g.release()


def test_a_held_hand_end_tells_whether_the_game_ends_with_it() -> None:
    """``ends_game`` (the table's last result card is marked final before the settlement comes, issue
    18 item 1): true exactly at the held end of the game's last hand, whose release emits end_game."""
    g = Game(Rules.preset("tenhou"), seed=4, hold=True)
    rng = random.Random(4)
    seen = []
    while not g.done:
        if g.held:
            ends, hand = g.ends_game, g.held == "hand"
            assert hand or not ends
            g.release()
            if hand:
                seen.append((ends, g.done))
            continue
        assert not g.ends_game
        g.apply(rng.choice(g.legal_actions(g.to_move[0])))
    assert seen[-1] == (True, True) and all(not ends and not done for ends, done in seen[:-1])


@pytest.mark.parametrize("preset", ["tenhou", "kansai"])
def test_every_seats_view_is_whole_while_the_game_is_held(preset: str) -> None:
    """A window held after a kita (where the rules let it be robbed) left the view's drawn tile on the
    North set aside, so the seat's view failed (closed_hand) and the table page got no more views:
    in a held window no seat is on a drawn tile, and every view is whole."""
    for seed in range(4):
        g = Game(Rules.preset(preset), seed=seed, hold=True)
        rng = random.Random(seed)
        kitas = 0
        while not g.done:
            if g.held:
                kitas += g.events[-1]["type"] == "kita"
                for s in range(3):
                    v = g.view(s)
                    assert len(v.to_json()["closed_hand"]) == len(v.hand) - (v.drawn is not None)
                    assert v.drawn is None or g.held == "hand"  # a tsumo's hand still shows its tile apart
                g.release()
                continue
            g.apply(rng.choice(g.legal_actions(g.to_move[0])))
        if preset == "tenhou":
            assert kitas, "a held kita window was met"
