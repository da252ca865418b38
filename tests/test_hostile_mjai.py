"""Issue 14 item 9: an mjai bot's answer, whatever it is, costs that bot its decision, never the run.

An answer nested 1,000 deep aborted the whole simulation (``RecursionError``); the program's
stderr file grew without bound; a child that called ``setsid()`` outlived the game;
``--mjai-timeout inf`` raised ``OverflowError``; a slow bot could stretch one game to a quarter
of an hour. Each is an incident now, counted and logged, and the game goes on.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sanma.bots.mjai import MAX_DEPTH, MjaiBot, MjaiBotError, check_seconds, decode_answer, match_action
from sanma.cli import app
from sanma.game.actions import Action
from sanma.rules import Rules
from sanma.sim import play_game, simulate
from sanma.tiles import Tile

PY = sys.executable
TENHOU = Rules.preset("tenhou")
runner = CliRunner()

# Tsumogiri, except at its third answer, where it does what argv[1] says; pids go to argv[2].
HOSTILE = textwrap.dedent("""
    import json, os, subprocess, sys, time
    mode, pids = sys.argv[1], sys.argv[2]
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\\n")
    seat, n = None, 0
    for line in sys.stdin:
        events = json.loads(line)
        for e in events:
            if e["type"] == "start_game":
                seat = e["id"]
        last = events[-1]
        mine = last["type"] == "tsumo" and last.get("actor") == seat
        n += 1
        answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True} if mine else {"type": "none"}
        if mode == "deep" and n == 3:
            print("[" * 1000 + "]" * 1000, flush=True)
            continue
        if mode == "deep-object" and n == 3:
            print('{"type": "dahai", "pai": ' + "[" * 5000 + "]" * 5000 + "}", flush=True)
            continue
        if mode == "stderr" and n == 3:
            chunk = "x" * (1 << 20)
            for _ in range(24):
                sys.stderr.write(chunk)
            sys.stderr.flush()
        if mode == "setsid" and n == 3:
            child = subprocess.Popen([sys.executable, "-c",
                                      "import os, time; os.setsid(); time.sleep(60)"])
            with open(pids, "a") as f:
                f.write(f"{child.pid}\\n")
            time.sleep(0.5)  # the child is in its own session now
        if mode == "slow":
            time.sleep(0.25)
        print(json.dumps(answer), flush=True)
""")


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    script = tmp_path / "hostile_bot.py"
    script.write_text(HOSTILE)
    return script, tmp_path / "pids.txt"


def _bot(h: tuple[Path, Path], mode: str) -> str:
    return f"mjai:{PY} {h[0]} {mode} {h[1]}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("mode", ["deep", "deep-object"])
def test_an_answer_nested_1000_deep_costs_one_decision_not_the_run(hostile: tuple[Path, Path], mode: str) -> None:
    s = simulate("tenhou", games=1, seed=3, bots=(_bot(hostile, mode), "random", "random"), timeout=5)
    assert s.games == 1 and s.seats[0].incidents == 1 and s.seats[0].fallbacks == 1
    assert "nested more than" in str(s.incident_log[0])
    assert "tsumogiri for the rest" not in str(s.incident_log[0])  # the program keeps playing


def test_stderr_is_drained_and_capped(hostile: tuple[Path, Path]) -> None:
    t0 = time.perf_counter()
    rec = play_game(TENHOU, (_bot(hostile, "stderr"), "random", "random"), seed=3, index=0, timeout=10)
    assert time.perf_counter() - t0 < 60
    assert rec.entries[0].incidents == 1 and "more than" in str(rec.incidents[0]) and "stderr" in str(rec.incidents[0])
    assert "stderr ends: 'xxx" in str(rec.incidents[0]) and len(str(rec.incidents[0])) < 1000  # only the tail is quoted


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds descendants through /proc")
def test_a_child_that_called_setsid_is_killed_with_the_bot(hostile: tuple[Path, Path]) -> None:
    rec = play_game(TENHOU, (_bot(hostile, "setsid"), "random", "random"), seed=3, index=0, timeout=5)
    assert rec.incidents == ()
    found = [int(p) for p in hostile[1].read_text().split()]
    assert len(found) == 2  # the bot and its child in its own session
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in found) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in found)


def test_a_game_budget_bounds_a_slow_bot(hostile: tuple[Path, Path]) -> None:
    t0 = time.perf_counter()
    rec = play_game(TENHOU, (_bot(hostile, "slow"), "random", "random"), seed=3, index=0, timeout=5, budget=1.5)
    assert time.perf_counter() - t0 < 20  # some 300 decisions at 0.25 s would take over a minute
    assert rec.entries[0].incidents == 1 and "used up its 1.5 s of thinking time" in str(rec.incidents[0])
    assert rec.entries[0].fallbacks > 10


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 0, -1, 1e9])
def test_mjai_timeouts_are_bounded(value: float) -> None:
    with pytest.raises(MjaiBotError, match="the mjai timeout must be"):
        MjaiBot("python bot.py", timeout=value)
    with pytest.raises(MjaiBotError, match="budget"):
        MjaiBot("python bot.py", budget=value)
    assert check_seconds("x", 3600) == 3600.0


@pytest.mark.parametrize("text", ["inf", "nan", "1e400", "-3", "0"])
def test_cli_mjai_timeout_inf_is_a_clear_error(text: str) -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--bots", "mjai:python x.py,random,random",
                                 "--mjai-timeout", text])
    assert result.exit_code == 2, result.output
    assert "--mjai-timeout must be" in result.stderr and "Traceback" not in result.output


def test_decode_answer_refuses_deep_nesting_without_parsing() -> None:
    assert decode_answer(b'{"type": "none"}') == {"type": "none"}
    assert decode_answer(b'{"type": "dahai", "pai": "[[[[[[[[[[[[[[[[[[[[["}') == {  # brackets in a string
        "type": "dahai", "pai": "[" * 21}
    deep = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    assert str(decode_answer(deep)) == f"answer nested more than {MAX_DEPTH} deep"
    assert str(decode_answer(b"[1]")).startswith("answer is not a JSON object")
    assert str(decode_answer(b"\xff\xfe")).startswith("answer is not JSON")
    assert str(decode_answer(b'{"a": 1' + b"9" * 5000 + b"}")).startswith("answer is not JSON")  # int too long


LEGAL = (Action("dahai", 0, Tile.parse("1p")), Action("dahai", 0, Tile.parse("5p"), tsumogiri=True),
         Action("reach", 0, Tile.parse("5p"), tsumogiri=True), Action("ankan", 0, Tile.parse("9s"),
                                                                     tuple(Tile.parse(x) for x in ("9s",) * 4)),
         Action("kita", 0, Tile.parse("4z")), Action("hora", 0, Tile.parse("5p"), target=0))
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
KEYS = st.sampled_from(["type", "actor", "pai", "consumed", "tsumogiri", "open", "target"])
TYPES = st.sampled_from(["dahai", "reach", "ankan", "kita", "hora", "none", "pon", "chi", "kakan", 3, None])


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_decode_answer_never_raises(raw: bytes) -> None:
    got = decode_answer(raw)
    assert isinstance(got, dict) or str(got).startswith("answer ")


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(KEYS, JSON, max_size=5), TYPES)
def test_fuzz_match_action_gives_a_legal_action_or_nothing(msg: dict[str, object], kind: object) -> None:
    msg = {**msg, "type": kind}
    got = match_action(msg, LEGAL, 0)
    assert got is None or got == "reach" or any(got is a for a in LEGAL)
    raw = json.dumps(msg, allow_nan=True).encode()
    decoded = decode_answer(raw)
    assert isinstance(decoded, dict)
