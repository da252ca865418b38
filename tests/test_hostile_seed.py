"""Issue 14 item 8: the wall seed never reaches a seat.

``start_game`` carried the game's seed and every wall was ``Random(f"{seed}:{hand}")``: an
external bot could rebuild all hands, draws and ura dora. Now no event any seat or bot receives
carries the seed or anything derived from it, and where a seat is an outside program the walls
are keyed by a per-run secret (``wall_key``), so even a guessed seed does not give them away.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
from pathlib import Path

import pytest

from sanma.game.engine import Game
from sanma.game.view import mask_event
from sanma.game.wall import Wall, hand_seed
from sanma.rules import Rules
from sanma.rules.loader import PRESETS
from sanma.sim import play_game, simulate

PY = sys.executable
SEED = "qx7seedzv"  # a seed no tile name, rule name or number in an event can contain by chance
KEY = b"\x01secret-wall-key\xfe"


def _play(preset: str, seed: str, wall_key: bytes | None = None, policy: int = 0) -> Game:
    game = Game(Rules.preset(preset), seed=seed, wall_key=wall_key)
    rng = random.Random(policy)
    while not game.done:
        seat = game.to_move[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    return game


def _secrets(game: Game) -> list[str]:
    """The seed and everything derived from it: each hand's wall seed, the key (hex and text)."""
    out = [str(game.seed)]
    out += [hand_seed(game.seed, h, game.wall_key) for h in range(game.hand_number + 1)]
    out += [hand_seed(game.seed, h) for h in range(game.hand_number + 1)]
    if game.wall_key is not None:
        out += [game.wall_key.hex(), game.wall_key.decode("latin-1")]
    return out


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("wall_key", [None, KEY])
def test_no_event_any_seat_receives_carries_the_seed_or_its_derivatives(preset: str, wall_key: bytes | None) -> None:
    game = _play(preset, SEED, wall_key, policy=len(preset))
    assert game.events[0]["type"] == "start_game" and "seed" not in game.events[0]
    hidden = _secrets(game)
    for seat in range(3):
        for seen in (game.public_events(seat), [mask_event(e, seat) for e in game.events]):
            text = json.dumps(seen, ensure_ascii=False)
            assert not [s for s in hidden if s in text], (preset, seat)
            # and what is derived from the seed at the table, other seats' concealed tiles, stays hidden
            for e in seen:
                if e["type"] == "start_kyoku":
                    assert all(set(h) == {"?"} for i, h in enumerate(e["tehais"]) if i != seat)
                elif e["type"] == "tsumo" and e["actor"] != seat:
                    assert e["pai"] == "?"


# Records every line it is sent, then plays tsumogiri.
RECORDER = textwrap.dedent("""
    import json, sys
    log, seat = open(sys.argv[1], "a"), None
    for line in sys.stdin:
        log.write(line); log.flush()
        events = json.loads(line)
        for e in events:
            if e["type"] == "start_game":
                seat = e["id"]
        last = events[-1]
        mine = last["type"] == "tsumo" and last.get("actor") == seat
        print(json.dumps({"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
                         if mine else {"type": "none"}), flush=True)
""")


def test_an_external_bot_never_receives_the_seed(tmp_path: Path) -> None:
    script, log = tmp_path / "recorder.py", tmp_path / "seen.jsonl"
    script.write_text(RECORDER)
    bot = f"mjai:{PY} {script} {log}"
    rec = play_game(Rules.preset("kansai"), (bot, "random", "random"), seed=SEED, index=0)
    assert rec.incidents == ()
    text = log.read_text()
    assert '"start_game"' in text and '"end_game"' in text  # it saw the whole game
    assert SEED not in text and f"{SEED}-0" not in text
    assert not any("seed" in e for line in text.splitlines() for e in json.loads(line))


def test_runs_with_an_external_bot_key_their_walls_with_a_per_run_secret(tmp_path: Path) -> None:
    script, log = tmp_path / "recorder.py", tmp_path / "seen.jsonl"
    script.write_text(RECORDER)
    bots = (f"mjai:{PY} {script} {log}", "random", "random")
    s = simulate("tenhou", games=1, seed=5, bots=bots)
    assert s.keyed_walls and s.to_json()["walls"] == "keyed"
    first = json.loads(log.read_text().splitlines()[0])
    start = next(e for e in first if e["type"] == "start_kyoku")
    guessed = _play("tenhou", "5-0")  # what a bot that guessed --seed 5 would rebuild
    assert start["tehais"][start["oya"]] != [t for t in guessed.events[1]["tehais"][guessed.events[1]["oya"]]]
    assert not simulate("tenhou", games=1, seed=5, bots=("random",) * 3).keyed_walls  # built-in bots: seeded


def test_a_chosen_seed_stays_reproducible_and_a_key_changes_every_wall() -> None:
    rules = Rules.preset("tenhou")
    plain, keyed = Game(rules, seed=7), Game(rules, seed=7, wall_key=KEY)
    assert plain.wall.tiles == Wall.shuffled(rules, "7:0").tiles  # Random(f"{seed}:{hand}"), as documented
    assert keyed.wall.tiles == Wall.shuffled(rules, hand_seed(7, 0, KEY)).tiles
    assert keyed.wall.tiles != plain.wall.tiles
    assert Game(rules, seed=7, wall_key=KEY).wall.tiles == keyed.wall.tiles  # the key makes it checkable later
