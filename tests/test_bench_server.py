"""benchmarks/bench_server.py's paced mode (issue 22): the warm-up, the ramp kept apart from the steady state,
the search for the largest N, the collector's pauses read from benchmarks/gcwatch.py's lines."""

from __future__ import annotations

import doctest
import os
import sys
from pathlib import Path

import pytest

from scripts import load_script


def test_its_examples_hold() -> None:
    failed, tried = doctest.testmod(load_script("benchmarks/bench_server.py"))
    assert tried >= 7 and failed == 0


def test_tables_are_made_spread_over_the_warm_up_not_all_in_one_second() -> None:
    b = load_script("benchmarks/bench_server.py")
    offsets = b.start_offsets(1000, 20.0)
    assert len(offsets) == 1000 and offsets[0] == 0.0 and max(offsets) < 20.0
    assert sum(1 for x in offsets if x < 1.0) == 50  # 50 tables a second, not 1,000 in the first
    assert b.start_offsets(5, 0.0) == [0.0] * 5


def test_the_ramp_is_reported_apart_from_the_steady_state() -> None:
    b = load_script("benchmarks/bench_server.py")
    when = [0.5, 1.5, 10.0, 11.0, 12.0, 30.0]
    lat = [0.8, 0.7, 0.003, 0.004, 0.005, 0.9]
    ramp, steady = b.split_ramp(when, lat, 10.0, 20.0)
    assert ramp == [0.8, 0.7] and steady == [0.003, 0.004, 0.005]  # the one after the window is in neither


def test_the_search_stops_at_the_first_n_over_50_ms() -> None:
    b = load_script("benchmarks/bench_server.py")
    assert b.largest_under({100: 10.0, 200: 49.9, 400: 50.0, 700: 20.0}) == 200
    assert b.largest_under({100: 51.0, 200: 10.0}) is None
    assert b.largest_under({1000: 12.0, 100: 3.0}) == 1000


def test_collector_pauses_are_read_in_the_window_by_generation() -> None:
    b = load_script("benchmarks/bench_server.py")
    lines = ["10.0 0 0.2 0.2 5", "11.0 2 300.0 280.0 10", "12.0 1 9.0 8.0 0", "25.0 2 400.0 390.0 0", "x"]
    assert b.gc_pauses(lines, 10.0, 20.0) == {0: [0.2], 2: [300.0], 1: [9.0]}
    assert b.gc_pauses(lines, 10.0, 20.0, column=3)[2] == [280.0]


def test_the_servers_loops_are_read_in_the_window(tmp_path: Path) -> None:
    """gcwatch.py's FILE.loop (MONOTONIC BUSY CPU TURNS LONGEST_MS every half second): the window's rows only."""
    b = load_script("benchmarks/bench_server.py")
    gc_file = tmp_path / "gc-0.txt"
    (tmp_path / "gc-0.txt.loop").write_text("9.5 0.99 0.99 10 500.0\n10.0 0.80 0.60 900 12.0\n"
                                            "10.5 0.60 0.50 800 30.0\n20.0 0.10 0.10 5 900.0\n")
    line = b._loop_line([gc_file], b.Window(start=10.0, end=20.0))
    assert "2 in the window" in line and "busy 0.70" in line and "on a core 0.55" in line
    assert "busiest half second 0.80" in line and "longest turn 30 ms" in line
    assert "no sample" in b._loop_line([tmp_path / "none.txt"], b.Window(start=10.0, end=20.0))


def test_a_server_can_be_started_at_a_scheduling_priority() -> None:
    """``--server-nice N``: the server's process runs at that priority (a positive one: any user may)."""
    import functools
    import subprocess

    b = load_script("benchmarks/bench_server.py")
    read = [sys.executable, "-c", "import os; print(os.getpriority(os.PRIO_PROCESS, 0))"]
    assert subprocess.run(read, preexec_fn=functools.partial(b._die_with_parent, 7), capture_output=True, text=True,
                          check=True).stdout.strip() == "7"
    here = str(os.getpriority(os.PRIO_PROCESS, 0))
    assert subprocess.run(read, preexec_fn=b._die_with_parent, capture_output=True, text=True,
                          check=True).stdout.strip() == here


def test_the_servers_and_the_rest_can_be_pinned_to_their_own_cpus() -> None:
    """``--pin SERVERS:REST``: the CPU sets parsed and checked, and a server started on its set only."""
    import functools
    import subprocess

    b = load_script("benchmarks/bench_server.py")
    mine = sorted(os.sched_getaffinity(0))
    first, last = mine[0], mine[-1]
    if first != last:  # (two sets need two CPUs: this machine's 2 cores, CI's)
        assert b._cpu_sets(f"{first}-{first}:{last}") == (frozenset({first}), frozenset({last}))
        assert b._cpu_sets(f"{last}:{first}") == (frozenset({last}), frozenset({first}))
    for bad, why in (("0", "not SERVERS:REST"), ("0-:1", "not SERVERS:REST"), ("a:1", "not SERVERS:REST"),
                     ("1-0:2", "not SERVERS:REST"), ("0:0", "CPU 0 is in both sets"),
                     ("0:4096", "CPU 4096 is not one this process may use")):
        with pytest.raises(ValueError, match=why):
            b._cpu_sets(bad)
    read = [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"]
    one = frozenset({mine[-1]})
    assert subprocess.run(read, preexec_fn=functools.partial(b._die_with_parent, None, one), capture_output=True,
                          text=True, check=True).stdout.strip() == str([mine[-1]])


def test_the_servers_stderr_is_kept_and_its_errors_counted(tmp_path: Path) -> None:
    b = load_script("benchmarks/bench_server.py")
    (tmp_path / "server-0.log").write_text("sanma: serving http://127.0.0.1:1/\n"
                                           "2026-12-03 10:00:00,000 WARNING sanma.web: sweep: busy\n")
    (tmp_path / "server-1.log").write_text("2026-12-03 10:00:01,000 ERROR sanma.web: table t1: a message could not "
                                           "be handled\nTraceback (most recent call last):\n")
    line = b.server_logs([tmp_path / "server-0.log", tmp_path / "server-1.log"])
    assert line == (f"server stderr kept in {tmp_path} (2 file(s)): 1 line(s) at ERROR; first: 2026-12-03 "
                    "10:00:01,000 ERROR sanma.web: table t1: a message could not be handled")
    assert b.server_logs([tmp_path / "server-0.log"]).endswith(": 0 line(s) at ERROR")


def test_pg_async_with_sqlite_is_refused_before_any_server_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load_script("benchmarks/bench_server.py")
    started: list[object] = []
    monkeypatch.setattr(bench, "_start_server", lambda *a, **k: started.append(a))
    monkeypatch.setattr(sys, "argv", ["bench_server.py", "--pg-async", "--tables", "1"])
    with pytest.raises(SystemExit, match="--pg-async is a PostgreSQL choice"):
        bench.main()
    assert not started


def test_a_tables_pauses_vary_around_the_pace_when_asked() -> None:
    """``--pace-spread F``: each pause is pace x uniform(1 - F, 1 + F), as people's vary; without it each is the
    pace exactly (a stall of the server then keeps every table it held up in step for the rest of the run)."""
    import asyncio
    import random
    import time

    b = load_script("benchmarks/bench_server.py")

    async def pauses(clock: object, n: int) -> list[float]:
        out = []
        for _ in range(n):
            clock.next_at = 0.0  # type: ignore[attr-defined]  # due now: wait_turn does not sleep
            await clock.wait_turn()  # type: ignore[attr-defined]
            out.append(clock.next_at - time.perf_counter())  # type: ignore[attr-defined]
        return out

    random.seed(22)
    varied = asyncio.run(pauses(b.TableClock(pace=1.0, spread=0.5), 400))
    assert all(0.49 < p <= 1.5 for p in varied)
    assert min(varied) < 0.55 and max(varied) > 1.45 and 0.95 < sum(varied) / len(varied) < 1.05
    strict = asyncio.run(pauses(b.TableClock(pace=1.0), 50))
    assert all(0.99 < p <= 1.0 for p in strict)



def test_the_generators_loop_lag_is_sampled_until_it_stops() -> None:
    """The report's loop lag: each sample is how late a 10 ms sleep woke, with its time."""
    import asyncio

    b = load_script("benchmarks/bench_server.py")
    stats = b.Stats()

    async def run() -> None:
        stop = asyncio.Event()
        lag = asyncio.create_task(b._lag(stats, stop))
        while len(stats.lags) < 3:
            await asyncio.sleep(0)
        stop.set()
        await lag

    asyncio.run(run())
    assert len(stats.lags) == len(stats.lag_when) >= 3
    assert min(stats.lags) > -1e-3  # (asyncio may wake a timer up to its clock resolution early)
    assert stats.lag_when == sorted(stats.lag_when)
