"""benchmarks/jansou_bridge.py seats jansou's SmartEfficiencyAgent through mjai:COMMAND and it really plays.

The bridge runs in jansou's own virtualenv (made by the peer benchmark under ~/.cache/sanma-bench,
or $SANMA_BENCH_CACHE); without it these tests are skipped.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from sanma.sim import simulate

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = ROOT / "benchmarks" / "jansou_bridge.py"
CACHE = Path(os.environ.get("SANMA_BENCH_CACHE", Path.home() / ".cache" / "sanma-bench"))
JANSOU = CACHE / "jansou" / "bin" / "python"

pytestmark = pytest.mark.skipif(
    not JANSOU.exists(), reason=f"jansou's virtualenv is not at {JANSOU} (benchmarks/run.py makes it)")


def bridge(stats: Path) -> str:
    return "mjai:" + shlex.join([str(JANSOU), str(BRIDGE), "--stats", str(stats)])


def test_bridge_plays_whole_games_without_fallbacks(tmp_path: Path) -> None:
    stats = tmp_path / "stats.jsonl"
    s = simulate("tenhou", games=2, seed=11, bots=("efficient", bridge(stats), bridge(stats)), timeout=20.0)
    assert s.incidents == 0, s.incident_log
    assert [e.fallbacks for e in s.seats] == [0, 0, 0]
    rows = [json.loads(line) for line in stats.read_text().splitlines()]
    assert len(rows) == 4  # two bridge seats, two games: every process reached end_game
    for row in rows:
        assert row["finished"] is True
        assert row["fallbacks"] == 0, row["reasons"]
        assert row["decisions"] == row["agent"] > 20  # the agent itself answered every decision
    # the agent's choices reached the table: the bridge seats drew and discarded, and played whole hanchan
    assert s.kyoku >= 2 * 3
    jansou = s.seats[1:]
    assert sum(e.placements[0] for e in s.seats) == 2
    assert any(e.riichi_rate > 0 or e.call_rate > 0 or e.win_rate > 0 for e in jansou)


def test_bridge_answers_what_it_cannot_translate_with_the_safe_default() -> None:
    """An event with no jansou counterpart (a kansai flower) costs the rest of the kyoku, never a hang."""
    start_game = {"type": "start_game", "id": 0, "names": ["a", "b", "c"], "seed": "0-0",
                  "scores": [35000, 35000, 35000]}
    hand = ["1m", "9m", "1p", "2p", "3p", "4s", "5s", "6s", "E", "S", "W", "P", "F"]
    start_kyoku = {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
                   "dora_marker": "7s", "scores": [35000, 35000, 35000],
                   "tehais": [hand, ["?"] * 13, ["?"] * 13]}
    draw = {"type": "tsumo", "actor": 0, "pai": "E", "possible_actions": [
        *({"type": "dahai", "actor": 0, "pai": t, "tsumogiri": False} for t in hand),
        {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": True}]}
    flower = {"type": "flower", "actor": 0, "pai": "1f"}
    lines = [json.dumps([start_game, start_kyoku, draw]), json.dumps([flower, draw]), "not json"]
    out = subprocess.run([str(JANSOU), str(BRIDGE)], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=60, check=True)
    first, second, third = (json.loads(line) for line in out.stdout.splitlines())
    # the agent keeps the East pair it just drew and lets a lone tile go; the default would throw the East
    assert first["type"] == "dahai" and first["pai"] in ("1m", "9m", "S", "W", "P", "F")
    assert second == {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": True}  # default after the flower
    assert third == {"type": "none"}
    assert "flower" in out.stderr and "default answer" in out.stderr
