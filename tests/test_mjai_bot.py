"""mjai:COMMAND bots: an external program at the table, well-behaved or not, never hangs a game."""

from __future__ import annotations

import json
import logging
import os
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sanma.bots import make_bot
from sanma.bots.mjai import REACH_STEP, MjaiBot, MjaiBotError, fallback, match_action
from sanma.cli import simulate as simulate_cli
from sanma.game.actions import Action
from sanma.rules import Rules
from sanma.sim import play_game, simulate
from sanma.tiles import Tile

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mjai_bot.py"
PY = sys.executable
TENHOU = Rules.preset("tenhou")

# A bot that behaves (tsumogiri) until its third answer, then misbehaves as told by argv[1].
# It appends its pid (and any child's pid) to argv[2], so the test can see that nothing survives.
MISBEHAVING = textwrap.dedent("""
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
        if n == 3 and mode == "sleep":
            time.sleep(60)
        if n == 3 and mode == "exit":
            print("boom: the bot gave up", file=sys.stderr, flush=True)
            sys.exit(3)
        if n == 3 and mode == "child":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            with open(pids, "a") as f:
                f.write(f"{child.pid}\\n")
            time.sleep(60)
        if n in (3, 4) and mode == "garbage":
            print("this is not json", flush=True)
            continue
        if n in (3, 4) and mode == "illegal":
            answer = {"type": "chi", "actor": seat, "pai": "3p", "consumed": ["1p", "2p"]}
        if n >= 3 and mode == "quiet":
            print("", flush=True)  # an empty line: not JSON either
            continue
        print(json.dumps(answer), flush=True)
""")


def cli() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    simulate_cli.register(app)
    return app


@pytest.fixture
def misbehaving(tmp_path: Path) -> tuple[Path, Path]:
    script = tmp_path / "bad_bot.py"
    script.write_text(MISBEHAVING)
    return script, tmp_path / "pids.txt"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is dead for our purpose (its parent, the bot, was killed and it awaits init's reaping)
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def _bad(script: Path, pids: Path, mode: str) -> str:
    return f"mjai:{PY} {script} {mode} {pids}"


def test_mjai_tsumogiri_example_plays_exactly_like_the_builtin_tsumogiri_bot() -> None:
    external = f"mjai:{PY} {EXAMPLE} --tsumogiri"
    for preset, index in (("tenhou", 0), ("kansai", 1)):
        rules = Rules.preset(preset)
        got = play_game(rules, (external, "efficient", "random"), seed=1, index=index)
        assert got == play_game(rules, ("tsumogiri", "efficient", "random"), seed=1, index=index)
        assert got.incidents == () and got.entries[0].fallbacks == 0
    assert got.entries[0].deal_ins + sum(e.wins for e in got.entries) > 0  # the stream had wins in it


def test_mjai_efficient_example_wins_riichis_and_pulls_kita_without_incidents() -> None:
    bot = f"mjai:{PY} {EXAMPLE}"
    recs = [play_game(TENHOU, (bot, "random", bot), seed=2, index=i) for i in range(2)]
    for rec in recs:
        assert rec.incidents == ()
        assert all(e.fallbacks == 0 for e in rec.entries)
    mine = [e for rec in recs for e in (rec.entries[0], rec.entries[2])]
    assert sum(e.wins for e in mine) >= 4  # against a random bot it wins hands
    assert sum(e.riichi for e in mine) >= 2  # the two-step riichi (reach, then the discard) works
    assert recs[0] == play_game(TENHOU, (bot, "random", bot), seed=2, index=0)  # a deterministic program


def test_mjai_bot_that_sleeps_times_out_and_is_killed(misbehaving: tuple[Path, Path],
                                                       caplog: pytest.LogCaptureFixture) -> None:
    script, pids = misbehaving
    t0 = time.perf_counter()
    with caplog.at_level(logging.WARNING, logger="sanma.bots.mjai"):
        rec = play_game(TENHOU, (_bad(script, pids, "sleep"), "random", "random"), seed=3, index=0, timeout=0.5)
    assert time.perf_counter() - t0 < 20  # one timeout, then tsumogiri: no hang
    assert len(rec.incidents) == 1 and "no answer within 0.5 s" in str(rec.incidents[0])
    assert "tsumogiri for the rest of the game" in str(rec.incidents[0])
    assert rec.entries[0].incidents == 1 and rec.entries[0].fallbacks > 10
    assert any("no answer within 0.5 s" in r.getMessage() for r in caplog.records)
    assert not any(_alive(int(p)) for p in pids.read_text().split())


def test_mjai_bot_children_are_killed_with_it(misbehaving: tuple[Path, Path]) -> None:
    script, pids = misbehaving
    t0 = time.perf_counter()
    rec = play_game(TENHOU, (_bad(script, pids, "child"), "random", "random"), seed=3, index=0, timeout=0.5)
    assert time.perf_counter() - t0 < 20  # the child holds the bot's stdout open: it must not be waited for
    assert rec.entries[0].incidents == 1
    found = pids.read_text().split()
    assert len(found) == 2  # the bot and the process it started
    assert not any(_alive(int(p)) for p in found)


def test_mjai_bot_that_exits_early_is_reported_with_its_stderr(misbehaving: tuple[Path, Path]) -> None:
    script, pids = misbehaving
    rec = play_game(TENHOU, (_bad(script, pids, "exit"), "random", "random"), seed=3, index=0)
    assert len(rec.incidents) == 1
    assert "stopped (exit code 3)" in str(rec.incidents[0]) and "boom: the bot gave up" in str(rec.incidents[0])
    assert rec.entries[0].fallbacks > 10


@pytest.mark.parametrize(("mode", "message"), [
    ("garbage", "answer is not JSON: this is not json"),
    ("illegal", 'illegal answer {"type": "chi"'),
])
def test_mjai_bot_garbage_or_illegal_answers_fall_back_for_that_decision(
        misbehaving: tuple[Path, Path], mode: str, message: str) -> None:
    script, pids = misbehaving
    bots = (_bad(script, pids, mode), "efficient", "random")
    rec = play_game(TENHOU, bots, seed=4, index=0)
    assert len(rec.incidents) == 2 and all(message in str(m) for m in rec.incidents)
    assert rec.entries[0].fallbacks == 2  # the program keeps playing after each bad answer
    # each fallback was the choice the program makes anyway (tsumogiri): the game is the built-in bot's
    same = play_game(TENHOU, ("tsumogiri", "efficient", "random"), seed=4, index=0)
    assert tuple(replace(e, incidents=0, fallbacks=0) for e in rec.entries) == same.entries


def test_mjai_bot_that_cannot_start_or_answers_nothing_never_stops_the_game(tmp_path: Path) -> None:
    missing = make_bot(f"mjai:{tmp_path / 'nowhere'}")
    with pytest.raises(MjaiBotError, match="command not found"):
        missing.check()  # type: ignore[attr-defined]
    rec = play_game(TENHOU, (f"mjai:{tmp_path / 'nowhere'}", "random", "random"), seed=1, index=0)
    assert len(rec.incidents) == 1 and "cannot start" in str(rec.incidents[0])
    quiet = tmp_path / "quiet.py"
    quiet.write_text("import sys\nfor line in sys.stdin:\n    print('', flush=True)\n")
    rec = play_game(TENHOU, (f"mjai:{PY} {quiet}", "random", "random"), seed=1, index=0)
    assert rec.entries[0].incidents == rec.entries[0].fallbacks > 10  # every answer is an empty line
    assert len(rec.incidents) == 10 and "counted, not logged" in str(rec.incidents[-1])  # no flood of warnings


def test_mjai_incidents_are_counted_in_the_simulation_summary_and_json(misbehaving: tuple[Path, Path]) -> None:
    script, pids = misbehaving
    bots = (_bad(script, pids, "garbage"), "random", "random")
    s = simulate("tenhou", games=2, seed=5, bots=bots, timeout=2.0)
    assert s.seats[0].incidents == 4 and s.seats[0].fallbacks == 4 and s.incidents == 4
    assert len(s.incident_log) == 4 and str(s.incident_log[0]).startswith("game 0: mjai:")
    r = CliRunner().invoke(cli(), ["simulate", "--games", "1", "--seed", "5", "--bots", ",".join(bots),
                                   "--mjai-timeout", "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["incidents"] == 2 and out["seats"][0]["incidents"] == 2 and out["seats"][1]["incidents"] == 0


def test_mjai_answers_match_legal_actions_strictly() -> None:
    p = Tile.parse
    dahai = (Action("dahai", 0, p("5p")), Action("dahai", 0, p("5p"), tsumogiri=True), Action("dahai", 0, p("0p")))
    assert match_action({"type": "dahai", "pai": "5p", "tsumogiri": True}, dahai, 0) is dahai[1]
    assert match_action({"type": "dahai", "pai": "5p", "tsumogiri": False}, dahai, 0) is dahai[0]
    assert match_action({"type": "dahai", "pai": "5pr"}, dahai, 0) is dahai[2]
    assert match_action({"type": "dahai", "pai": "2m"}, dahai, 0) is None  # not a sanma tile
    assert match_action({"type": "dahai", "pai": "9s"}, dahai, 0) is None
    assert match_action({"type": "dahai", "pai": "5p", "actor": 1}, dahai, 0) is None
    assert match_action(["dahai"], dahai, 0) is None
    pon = (Action("pon", 1, p("5p"), (p("5p"), p("5p")), target=0), Action("pon", 1, p("5p"), (p("0p"), p("5p")), 0),
           Action("none", 1))
    assert match_action({"type": "pon", "actor": 1, "pai": "5p", "consumed": ["5p", "5pr"]}, pon, 1) is pon[1]
    assert match_action({"type": "pon", "actor": 1, "pai": "5p", "consumed": ["5p", "5s"]}, pon, 1) is None
    assert match_action({"type": "none"}, pon, 1) is pon[2]
    assert match_action({"type": "chi", "actor": 1}, pon, 1) is None
    reach = (*dahai, Action("reach", 0, p("5p"), tsumogiri=True))
    assert match_action({"type": "reach", "actor": 0}, reach, 0) == REACH_STEP
    assert match_action({"type": "reach", "actor": 0, "pai": "5p"}, reach, 0) is reach[3]
    assert match_action({"type": "reach", "actor": 0}, dahai, 0) is None  # no riichi allowed now
    assert fallback(pon) is pon[2] and fallback(dahai) is dahai[1]


# The example bot, with its riichi declared in another form (or its riichi discard broken).
RIICHI = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[2])
    from mjai_bot import Bot
    mode = sys.argv[1]

    class Riichi(Bot):
        def react(self, events):
            answer = super().react(events)
            last = events[-1]
            step_two = last["type"] == "reach" and last.get("actor") == self.seat
            if answer["type"] == "reach" and mode == "open":
                answer["open"] = True
            if answer["type"] == "reach" and mode == "one-step":
                answer = next(a for a in last["possible_actions"] if a["type"] == "reach")
            if step_two and mode == "bad":
                answer = {"type": "dahai", "actor": self.seat, "pai": "9m" if "9m" not in self.hand else "1m"}
            return answer

    bot = Riichi(tsumogiri=False)
    for line in sys.stdin:
        print(json.dumps(bot.react(json.loads(line))), flush=True)
""")


@pytest.mark.parametrize(("preset", "mode"), [("club", "open"), ("tenhou", "one-step"), ("tenhou", "bad")])
def test_mjai_riichi_in_every_form(tmp_path: Path, preset: str, mode: str) -> None:
    script = tmp_path / "riichi_bot.py"
    script.write_text(RIICHI)
    bot = f"mjai:{PY} {script} {mode} {EXAMPLE.parent}"
    game = [play_game(Rules.preset(preset), (bot, "random", "random"), seed=6, index=i) for i in range(2)]
    me = [g.entries[0] for g in game]
    incidents = [m for g in game for m in g.incidents]
    if mode == "bad":  # every riichi discard is refused: tsumogiri instead, and no riichi
        assert incidents and all("illegal riichi discard" in str(m) for m in incidents)
        assert sum(e.riichi for e in me) == 0 and sum(e.fallbacks for e in me) == sum(e.incidents for e in me)
    else:
        assert incidents == [] and sum(e.riichi for e in me) >= 2


def test_mjai_bot_command_is_parsed_like_a_shell_without_one() -> None:
    bot = make_bot("mjai:python 'my bot.py' --flag")
    assert isinstance(bot, MjaiBot) and bot.argv == ("python", "my bot.py", "--flag")
    with pytest.raises(MjaiBotError, match="cannot be parsed"):
        make_bot("mjai:python 'unclosed")
    bot.close()  # never started: nothing to do
