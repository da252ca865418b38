"""Issue 14 item 10: Ctrl-C in ``sanma simulate --jobs 2`` ends promptly at any moment, with no
traceback; the games finished so far are reported and stored, or the message says nothing was.

It hung about one time in five (the pool's shutdown waited on a future in flight).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sanma.sim import simulate

ROOT = Path(__file__).resolve().parents[1]


class _Stop:
    """A progress callback that presses Ctrl-C after ``after`` games have been reported."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.seen = 0

    def __call__(self, k: int) -> None:
        self.seen += k
        if self.seen >= self.after:
            raise KeyboardInterrupt


def test_ctrl_c_in_one_process_keeps_the_finished_games() -> None:
    s = simulate("tenhou", games=50, seed=2, bots=("random",) * 3, progress=_Stop(3))
    assert s.interrupted and s.games == 3 and s.planned == 50
    assert [r.index for r in s.records] == [0, 1, 2]
    assert s.to_json()["interrupted"] is True and s.to_json()["games_planned"] == 50


def test_ctrl_c_with_two_workers_returns_at_once_and_leaves_no_worker() -> None:
    before = set(_children())
    t0 = time.perf_counter()
    s = simulate("tenhou", games=400, seed=2, bots=("random",) * 3, jobs=2, progress=_Stop(2))
    assert time.perf_counter() - t0 < 60  # 400 games would take minutes
    assert s.interrupted and 2 <= s.games < 400
    full = simulate("tenhou", games=s.games, seed=2, bots=("random",) * 3)  # the kept games are real ones
    got = {r.index: r for r in s.records}
    assert all(got[r.index] == r for r in full.records if r.index in got)
    deadline = time.monotonic() + 10
    while set(_children()) - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not set(_children()) - before  # the workers were terminated and reaped


def _children() -> list[int]:
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("delay", [0.4, 1.5, 5.0])
def test_sigint_to_the_process_group_of_simulate_jobs_2(tmp_path: Path, delay: float) -> None:
    """The terminal's Ctrl-C (SIGINT to the whole group) while the package and the command load, at the
    first games, later. (Not in Python's own start-up, before any sanma code runs: the first tens of
    milliseconds.)"""
    db = tmp_path / "runs.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "SANMA_PURE": "1"}
    # far more games than 5 s can play (byte-compiled, pure Python runs ~90 random-bot games a second)
    p = subprocess.Popen([sys.executable, "-m", "sanma", "simulate", "--games", "20000", "--jobs", "2",
                          "--bots", "random,random,random", "--db", str(db)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, env=env)
    time.sleep(delay)
    os.killpg(p.pid, signal.SIGINT)
    t0 = time.monotonic()
    try:
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    assert time.monotonic() - t0 < 20
    text = err.decode()
    assert p.returncode == 130, text
    assert "Traceback" not in text and "interrupted" in text
    if "games under tenhou finished; the summary covers them" in text:
        finished = int(text.split("interrupted: ", 1)[1].split(" of ", 1)[0])
        assert f"stored in {db}: simulation 1" in text
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT games FROM simulations").fetchall() == [(finished,)]
        assert "avg place" in out.decode()  # the table of the finished games
    else:
        assert "nothing was stored" in text or "before the command started: nothing was done" in text
        assert p.returncode == 130
        if db.exists():
            with sqlite3.connect(db) as conn:
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                assert "simulations" not in tables or not conn.execute("SELECT * FROM simulations").fetchall()
