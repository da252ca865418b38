"""Issue 14 items 16 and 17: mjai records from and for other programs.

16: standard mjai logs (Mortal's, mjai.app's) carry no han, fu or yaku in ``hora``; replay
compared the engine's values with the absent ones and reported false mismatches. Only what a
record holds is compared now (the payments), and a wrong payment is still caught.
17: riichienv's ``MjaiReplay.from_jsonl`` rejected sanma's mjai (``yaku`` as objects, "invalid
type: map, expected a tuple of size 2"); sanma writes ``[name, han]`` pairs and reads both forms.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sanma.bots import make_bot
from sanma.formats import read_mjai, write_mjai
from sanma.formats.mjai import _mjai_form
from sanma.game.engine import Game
from sanma.replay import replay_record
from sanma.rules import Rules
from sanma.rules.loader import PRESETS

SCORED = ("han", "fu", "yaku", "yakuman", "limit", "points", "hora_tehais")


def _game(preset: str, seed: int) -> Game:
    g = Game(Rules.preset(preset), seed=seed)
    bots = [make_bot("efficient", seed=i, rules=g.rules) for i in range(3)]
    while not g.done:
        s = g.to_move[0]
        g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
    return g


@pytest.fixture(scope="module", params=["tenhou", "kansai"])
def game(request: pytest.FixtureRequest) -> Game:
    g = _game(request.param, 4)
    assert sum(e["type"] == "hora" for e in g.events) >= 3
    return g


def _standard(text: str) -> str:
    """The log as Mortal or mjai.app write it: hora with the payments only."""
    out = []
    for line in text.splitlines():
        e = json.loads(line)
        if e["type"] == "hora":
            e = {k: v for k, v in e.items() if k not in SCORED}
        out.append(json.dumps(e))
    return "\n".join(out) + "\n"


def test_a_standard_mjai_log_replays_without_false_mismatches(game: Game) -> None:
    text = _standard(write_mjai(game))
    assert '"han"' not in text and '"yaku"' not in text
    r = replay_record(read_mjai(text, source="mortal.jsonl"))
    assert r.ok, [str(m) for m in r.mismatches]
    assert r.matched == r.kyoku == len(game.hand_results)


def test_a_standard_mjai_log_with_a_wrong_payment_is_still_caught(game: Game) -> None:
    lines = _standard(write_mjai(game)).splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "hora")
    e = json.loads(lines[i])
    e["deltas"] = [d + (1000 if j == e["actor"] else -1000 if j == e["target"] != e["actor"] else 0)
                   for j, d in enumerate(e["deltas"])]
    if e["target"] == e["actor"]:  # a tsumo: take the extra 1,000 from the next seat
        e["deltas"][(e["actor"] + 1) % 3] -= 1000
    lines[i] = json.dumps(e)
    r = replay_record(read_mjai("\n".join(lines) + "\n", source="tampered.jsonl"))
    assert not r.ok and any("payments" in m.what for m in r.mismatches)


def test_sanma_writes_yaku_as_name_han_pairs_and_reads_both_forms(game: Game) -> None:
    text = write_mjai(game)
    horas = [json.loads(line) for line in text.splitlines() if '"hora"' in line]
    assert all(isinstance(y, list) and len(y) == 2 for h in horas for y in h["yaku"])
    engine_form = "".join(json.dumps(e) + "\n" for e in game.events)  # yaku as objects
    assert any(isinstance(y, dict) for e in game.events if e["type"] == "hora" for y in e["yaku"])
    for form in (text, engine_form):
        r = replay_record(read_mjai(form, source="sanma.jsonl"))
        assert r.ok, [str(m) for m in r.mismatches]


def test_a_yakuman_is_written_as_its_multiplier() -> None:
    e = {"type": "hora", "yakuman": 2, "han": 0, "yaku": [{"name": "kokushi", "han": 0, "yakuman": 2}]}
    assert _mjai_form(e)["yaku"] == [["kokushi", 2]] and _mjai_form(e)["yakuman"] == 2
    kazoe = {"type": "hora", "yakuman": 1, "han": 13,
             "yaku": [{"name": "riichi", "han": 1}, {"name": "dora", "han": 12}]}
    assert _mjai_form(kazoe)["yakuman"] == 0  # a counted yakuman lists ordinary yaku


@pytest.mark.parametrize("preset", PRESETS)
def test_riichienv_reads_sanmas_mjai(tmp_path: Path, preset: str) -> None:
    riichienv = pytest.importorskip("riichienv", reason="riichienv (pip install riichienv==0.4.11, the dev "
                                                         "extra) is not installed: other readers untested")
    g = _game(preset, 4)
    path = tmp_path / f"{preset}.jsonl"
    path.write_text(write_mjai(g), encoding="utf-8")
    replay = riichienv.MjaiReplay.from_jsonl(str(path))
    kyokus = list(replay.take_kyokus())
    assert len(kyokus) == len(g.hand_results)
    theirs = [(c.seat, c.expected_han, c.expected_fu) for k in kyokus for c in k.take_win_result_contexts()]
    ours = [(e["actor"], e["han"], e["fu"]) for e in g.events if e["type"] == "hora"]
    assert theirs == ours and ours
