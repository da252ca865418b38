"""Load benchmark of ``sanma serve``: N concurrent tables of bots over WebSocket, on one server
process over SQLite or on 1..P processes sharing one PostgreSQL database.

    .venv/bin/python benchmarks/bench_server.py [--tables 10,50,100,200] [--seconds 30] [--max-seconds 400]
    .venv/bin/python benchmarks/bench_server.py --db postgres --processes 3 [--paced 1.0]

Starts ``sanma serve`` as its own process on 127.0.0.1 (a fresh database in a temporary
directory), then for each N keeps N tables busy: every table has three ``mjai`` seats played by
scripted bots in this process (one WebSocket each, sanma's mjai dialect, answering from
``possible_actions``: a win when offered, else pass, else the tsumogiri discard), East-only games
(``round_winds = "E"``, a rule file's field), and a finished table is replaced by a new one. Each N
runs ``--seconds`` and then on until N games have finished (one per table on average), at most
``--max-seconds``, so that games/s is measured, not guessed.

``--seats human`` plays the same games over the page protocol instead (``/play``: every seat is
sent its own view after every action), which measures the per-seat views and masking. Tables have
no clock and no call window (``{"move": 0, "call": 0}``): the server's turnaround is measured,
not a table's pace.

``--db postgres`` starts a throwaway PostgreSQL cluster (tests/pg_cluster.py: Debian's binaries,
durable settings; ``--pg-async`` starts the servers with ``--synchronous-commit off``, what a user
gets with that documented flag) and ``--processes P`` servers on it; table k is made on
process k mod P and its seat s plays through process (k + s) mod P, so most sockets sit on a
process that does not run their table. ``--paced R``: every table acts once every R seconds (as
people do) instead of as fast as the bots answer; ``--pace-spread F`` draws each pause from R x [1 - F, 1 + F]
instead (people's pauses vary: with exact pauses, a stall of the server keeps every table it held up in step
for the rest of the run, which people at different tables are not). Paced runs have a warm-up (``--warmup``, 20 s by
default): the N tables are made spread over it, as people sit down over time, and the latencies are
measured from ``--settle`` seconds after it (5 by default: the last tables made sit down and play
their first moves), for ``--seconds``; the ramp's p50/p99 (all before) are printed apart. The report says whether
each N's p99 stays under 50 ms and the largest N that does (``--tables 100,200,400,700,1000``), with
the CPU the load generator (this process), the servers and PostgreSQL used in the measured window:
whether the generator or the server is the limit. CPU per action is reported for the sanma processes
and, on PostgreSQL, for the database's. ``--gc-trace`` starts the servers through
``benchmarks/gcwatch.py`` and reports their garbage collections' pauses in the window (wall and CPU
ms, by generation) and how busy their event loops were (the share of the time outside ``epoll_wait``
beside the share on a core: the difference is work that waited for a core); ``--gc-untuned`` keeps
CPython's collector settings in the servers (the before of an A/B on one build: ``sanma.web.collector``),
``--gc-census`` what the collector walks, by type (and the young generations alone: what a middle collection
walks). ``--server-nice N`` starts the servers at that priority, ``--pin SERVERS:REST`` on those CPUs only, with
this generator and the PostgreSQL cluster on the rest (as systemd's ``Nice=`` and ``CPUAffinity=`` would).

Reported per N: games finished per second, hands per second, actions per second, actions per
game, the action latency p50/p99 (from a bot's answer to the next frame the server sends any
seat of that table: the server's turnaround for one action, its SQLite transaction included),
the server's CPU milliseconds per action (load-independent, when this script started the
server), and the probe: a ``GET /api/tables`` (the lobby's list) sent every second during the
load, its p50 / worst latency and failures — the server must keep serving — and the generator's own
loop lag (how late a 10 ms sleep wakes: a frame waits as long before this process reads it). The first lines give
the date, the build (pure Python or compiled) and the machine's load (``os.getloadavg``).
The servers' stderr is kept in a directory that outlives the run (``/tmp/sanma-bench-logs-*``): its
last line names it and counts the lines logged at ERROR (a message a server could not handle, a
failed write), with the first of them. Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import functools
import gc
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answer(batch: list[dict[str, Any]]) -> dict[str, Any] | None:
    possible = batch[-1].get("possible_actions") if batch else None
    if not possible:
        return None
    for kind in ("hora", "none"):
        for a in possible:
            if a["type"] == kind:
                return dict(a)
    for a in possible:
        if a["type"] == "dahai" and a.get("tsumogiri"):
            return dict(a)
    return dict(possible[0])


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    when: list[float] = field(default_factory=list)  # time.monotonic() of each latency's frame
    games: int = 0
    game_actions: int = 0  # actions of the finished games
    hands: int = 0
    actions: int = 0
    errors: int = 0
    first_error: str = ""  # the first refusal the server sent, as it said it
    probes: list[float] = field(default_factory=list)
    probe_failures: int = 0
    lags: list[float] = field(default_factory=list)  # the generator's loop lag: each 10 ms sleep's overshoot (s)
    lag_when: list[float] = field(default_factory=list)  # time.monotonic() of each


@dataclass
class TableClock:
    sent: float | None = None
    actions: int = 0
    pace: float = 0.0  # seconds between the table's actions (0: as fast as the bots answer)
    spread: float = 0.0  # each pause is pace x uniform(1 - spread, 1 + spread): people's pauses vary
    next_at: float = 0.0  # when the table's next action may be sent

    async def wait_turn(self) -> None:
        if self.pace <= 0:
            return
        now = time.perf_counter()
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)
        pause = self.pace * random.uniform(1 - self.spread, 1 + self.spread) if self.spread else self.pace
        self.next_at = max(now, self.next_at) + pause


async def _seat(url: str, clock: TableClock, stats: Stats, stop: asyncio.Event, counts_hands: bool) -> bool:
    """One mjai bot; True when its game ended."""
    async with connect(url, open_timeout=60, max_size=2**22) as ws:
        async for raw in ws:
            now = time.perf_counter()
            if clock.sent is not None:
                stats.latencies.append(now - clock.sent)
                stats.when.append(time.monotonic())
                clock.sent = None
            batch = json.loads(raw)
            if counts_hands:
                stats.hands += sum(1 for e in batch if e.get("type") == "end_kyoku")
            if any(e.get("type") == "end_game" for e in batch):
                return True
            if any(e.get("type") == "error" for e in batch):
                stats.errors += 1
                stats.first_error = stats.first_error or json.dumps(batch)[:300]
            a = answer(batch)
            if a is not None:
                await clock.wait_turn()
                clock.sent = time.perf_counter()
                await ws.send(json.dumps(a))
                stats.actions += 1
                clock.actions += 1
            if stop.is_set():
                return False
    return False


def page_answer(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The page protocol's prompt answered as the mjai bots answer: win, pass, tsumogiri, else the first."""
    for kind in ("hora", "none"):
        for a in actions:
            if a["type"] == kind:
                return a
    return next((a for a in actions if a["type"] == "dahai" and a.get("tsumogiri")), actions[0])


async def _page_seat(url: str, clock: TableClock, stats: Stats, stop: asyncio.Event, counts_hands: bool) -> bool:
    """One person's page connection (``/play``: the per-seat view after every action); True at the end."""
    async with connect(url, open_timeout=60, max_size=2**22) as ws:
        async for raw in ws:
            now = time.perf_counter()
            m = json.loads(raw)
            if m["type"] == "view" and clock.sent is not None:  # the first view after an answer: its turnaround
                stats.latencies.append(now - clock.sent)
                stats.when.append(time.monotonic())
                clock.sent = None
            if m["type"] == "hand_result" and counts_hands:
                stats.hands += 1
            elif m["type"] == "game_result":
                return True
            elif m["type"] == "error":
                stats.errors += 1
            elif m["type"] == "prompt":
                a = page_answer(m["actions"])
                await clock.wait_turn()
                clock.sent = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "prompt": m["prompt"], "id": a["id"]}))
                stats.actions += 1
                clock.actions += 1
            if stop.is_set():
                return False
    return False


def start_offsets(n: int, warmup: float) -> list[float]:
    """When each of ``n`` table slots makes its first table, in seconds after the start: spread evenly over
    the warm-up (people do not all sit down in the same second), all at once without one.

    >>> start_offsets(4, 2.0)
    [0.0, 0.5, 1.0, 1.5]
    >>> start_offsets(3, 0)
    [0.0, 0.0, 0.0]
    """
    return [k * warmup / n for k in range(n)]


def split_ramp(when: list[float], latencies: list[float], steady_from: float,
               until: float = float("inf")) -> tuple[list[float], list[float]]:
    """The latencies measured before ``steady_from`` (the ramp: tables being made and seated) and from it
    until ``until`` (the steady state), by the time each was measured.

    >>> split_ramp([1.0, 2.0, 3.0], [0.1, 0.2, 0.3], 2.0)
    ([0.1], [0.2, 0.3])
    >>> split_ramp([1.0, 2.0, 3.0], [0.1, 0.2, 0.3], 2.0, until=3.0)
    ([0.1], [0.2])
    """
    ramp = [lat for t, lat in zip(when, latencies, strict=True) if t < steady_from]
    steady = [lat for t, lat in zip(when, latencies, strict=True) if steady_from <= t < until]
    return ramp, steady


def largest_under(p99s: dict[int, float], limit_ms: float = 50.0) -> int | None:
    """The largest N whose p99 (ms) stayed under ``limit_ms`` with every smaller N measured also under it
    (a search stops counting at the first N over the limit), or None.

    >>> largest_under({100: 12.0, 200: 30.0, 400: 70.0, 700: 45.0})
    200
    >>> largest_under({100: 60.0}) is None
    True
    """
    best = None
    for n in sorted(p99s):
        if not p99s[n] < limit_ms:
            break
        best = n
    return best


async def _table_loop(bases: list[str], k: int, rules: Any, stats: Stats, stop: asyncio.Event,
                      client: httpx.AsyncClient, kind: str, pace: float, delay: float = 0.0,
                      spread: float = 0.0) -> None:
    """Table slot ``k``: made on process k mod P, seat s played through process (k + s) mod P, first
    after ``delay`` seconds (the warm-up's spread)."""

    if delay:
        await asyncio.sleep(delay)
    while not stop.is_set():
        r = await client.post(f"{bases[k % len(bases)]}/api/tables", json={"rules": rules, "seats": [kind] * 3,
                                                                            "clock": {"move": 0, "call": 0}})
        r.raise_for_status()
        t = r.json()
        clock = TableClock(pace=pace, spread=spread)
        if pace:  # every table's game at its own moment of the second, not in step with the others: a table
            # that began as soon as its last game ended would act in step with those whose games ended in the
            # same stall of the server, for its whole game (as people at different tables do not)
            clock.next_at = time.perf_counter() + random.uniform(0, pace)
        role, seat = ("mjai", _seat) if kind == "mjai" else ("play", _page_seat)
        done = await asyncio.gather(*[
            seat(f"{'ws' + bases[(k + s['seat']) % len(bases)].removeprefix('http')}/ws/tables/{t['id']}/{role}"
                 f"?token={s['token']}", clock, stats, stop, s["seat"] == 0)
            for s in t["seats"]])
        if all(done):
            stats.games += 1
            stats.game_actions += clock.actions


async def _probe(base: str, stats: Stats, stop: asyncio.Event) -> None:
    """The lobby's list once a second while the load runs: the server must keep answering."""
    async with httpx.AsyncClient(timeout=30) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                r = await client.get(f"{base}/api/tables")
                if r.status_code == 200 and "tables" in r.json():
                    stats.probes.append(time.perf_counter() - t0)
                else:
                    stats.probe_failures += 1
            except (httpx.HTTPError, ValueError):
                stats.probe_failures += 1
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)


LAG_TICK = 0.01  # seconds: the generator's loop is sampled this often


async def _lag(stats: Stats, stop: asyncio.Event) -> None:
    """The load generator's own loop lag: how late a 10 ms sleep wakes. A frame that reached this process
    waits as long before it is read, and the latencies charge that to the server: the part of the tail that
    is the generator's own (its CPU, the cores it shares)."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        stats.lags.append(time.perf_counter() - t - LAG_TICK)
        stats.lag_when.append(time.monotonic())


@dataclass
class Window:
    """The measured part of a run: after the warm-up, until the end (monotonic times), with the CPU
    seconds the load generator (this process) and the servers used in it."""

    start: float = 0.0
    end: float = 0.0
    generator_cpu: float = 0.0
    server_cpu: float | None = None
    db_cpu: float | None = None


async def _run(bases: list[str], n: int, seconds: float, max_seconds: float, rules: Any, kind: str,
               pace: float, warmup: float = 0.0, pids: tuple[int, ...] = (), pg_pid: int | None = None,
               census: bool = False, settle: float = 0.0, spread: float = 0.0) -> tuple[Stats, float, Window]:
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=n + 10)
    # the generator's own collector stays off while it measures: a pause of its loop delays every frame it reads
    # (a full collection of its 3N sockets: 0.3 s at N = 1,000), which the latencies would charge to the server
    gc.collect()
    gc.disable()
    window = Window()
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        start = time.perf_counter()
        tasks = [asyncio.create_task(_table_loop(bases, k, rules, stats, stop, client, kind, pace, delay,
                                                  spread))
                 for k, delay in enumerate(start_offsets(n, warmup))]
        probe = asyncio.create_task(_probe(bases[-1], stats, stop))
        lag = asyncio.create_task(_lag(stats, stop))
        if warmup or settle:
            await asyncio.sleep(warmup + settle)
        window.start = time.monotonic()
        gen0, srv0 = time.process_time(), _cpu_seconds(list(pids))
        db0 = _cpu_seconds(_children(pg_pid)) if pg_pid else None
        await asyncio.sleep(seconds)
        while not pace and stats.games < n and time.perf_counter() - start < max_seconds:
            await asyncio.sleep(0.5)
        elapsed = time.perf_counter() - start
        window.end = time.monotonic()
        window.generator_cpu = time.process_time() - gen0
        srv1 = _cpu_seconds(list(pids))
        window.server_cpu = srv1 - srv0 if srv0 is not None and srv1 is not None else None
        db1 = _cpu_seconds(_children(pg_pid)) if pg_pid else None
        window.db_cpu = db1 - db0 if db0 is not None and db1 is not None else None
        if census:  # after the window: benchmarks/gcwatch.py writes what its collector walks, under the load
            import signal

            for pid in pids:
                os.kill(pid, signal.SIGUSR1)
            await asyncio.sleep(3)
        stop.set()
        await probe
        await lag
        for t in tasks:  # tables still playing stop at their next frame
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
    gc.enable()
    return stats, elapsed, window


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def spread(latencies: list[float]) -> str:
    """p50, p99, p99.9 and the worst of ``latencies`` (seconds), in ms: a tail beyond p99 (one long
    pause of the collector) shows in the last two.

    >>> spread([0.001] * 998 + [0.2, 0.6])
    'p50 1.0 / p99 1.0 / p99.9 600.0 / max 600.0 ms'
    """
    return " / ".join(f"{name} {_pct(latencies, q) * 1e3:.1f}" for name, q in
                      (("p50", .5), ("p99", .99), ("p99.9", .999))) + f" / max {max(latencies, default=0) * 1e3:.1f} ms"


def _cpu_seconds(pids: list[int]) -> float | None:
    """User + system CPU seconds of the processes ``pids`` so far (Linux /proc; a process's children
    that ended are counted by ``cutime``/``cstime``), or None."""
    if not pids:
        return None
    total = 0.0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return total


def _children(pid: int) -> list[int]:
    """``pid`` and its living children (PostgreSQL's backends are the postmaster's)."""
    out = [pid]
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(d.name))
            except (OSError, ValueError, IndexError):
                continue
    return out


def _build() -> str:
    if os.environ.get("SANMA_PURE"):
        return "pure Python (SANMA_PURE=1)"
    from sanma import _accel

    return "compiled (mypyc)" if _accel.ENABLED else "pure Python (no fresh compiled build)"


def gc_pauses(lines: list[str], start: float, end: float, column: int = 2) -> dict[int, list[float]]:
    """The collector's pauses (ms) by generation, of the lines ``benchmarks/gcwatch.py`` wrote
    (``MONOTONIC GENERATION MS CPU_MS ...``) whose time falls in [start, end): wall-clock ms, or with
    ``column=3`` the CPU ms of the collections.

    >>> gc_pauses(["1.0 2 80.5 40.1", "2.0 0 0.3 0.2", "9.0 2 1.0 1.0"], 0.5, 5.0)
    {2: [80.5], 0: [0.3]}
    >>> gc_pauses(["1.0 2 80.5 40.1"], 0.5, 5.0, column=3)
    {2: [40.1]}
    """
    out: dict[int, list[float]] = {}
    for line in lines:
        parts = line.split()
        if len(parts) > column and start <= float(parts[0]) < end:
            out.setdefault(int(parts[1]), []).append(float(parts[column]))
    return out


#: The load generator's own collections (this process), as gcwatch.py's lines: a pause of this loop delays
#: every frame it reads, so it shows in the measured latencies as if the server were slow.
GENERATOR_GC: list[str] = []


def _watch_own_gc() -> None:
    started = [0.0, 0.0]

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
        else:
            ms, cpu = (time.perf_counter() - started[0]) * 1e3, (time.thread_time() - started[1]) * 1e3
            GENERATOR_GC.append(f"{time.monotonic():.4f} {info['generation']} {ms:.3f} {cpu:.3f}")

    gc.callbacks.append(watch)


def _gc_line(files: list[Path], window: Window, lines: list[str] | None = None, who: str = "the servers") -> str:
    if lines is None:
        lines = [line for f in files if f.exists() for line in f.read_text().splitlines()]
    pauses = gc_pauses(lines, window.start, window.end)
    cpu = gc_pauses(lines, window.start, window.end, column=3)
    secs = max(1e-9, window.end - window.start)
    parts = []
    for g in (0, 1, 2):
        xs, cs = pauses.get(g, []), cpu.get(g, [])
        if xs:
            parts.append(f"gen {g}: {len(xs)} ({len(xs) / secs:.1f}/s), p50 {_pct(xs, .5):.1f} ms, "
                         f"max {max(xs):.1f} ms (CPU max {max(cs, default=float('nan')):.1f} ms)")
        else:
            parts.append(f"gen {g}: none")
    total = sum(sum(xs) for xs in pauses.values())
    procs = f" ({len(files)} process(es))" if files else ""
    return f"  collector pauses in {who}{procs}: " + "; ".join(parts) + \
        f"; {total / secs / 10:.1f}% of the window"


def _loop_lines(gc_file: Path) -> list[str]:
    """What ``benchmarks/gcwatch.py`` wrote of its server's event loop beside GC_FILE (GC_FILE.loop)."""
    loop = gc_file.with_name(gc_file.name + ".loop")
    return loop.read_text().splitlines() if loop.exists() else []


def _loop_line(files: list[Path], window: Window) -> str:
    """How busy the servers' event loops were in the window."""
    rows = [[float(x) for x in line.split()] for f in files for line in _loop_lines(f)]
    rows = [r for r in rows if window.start <= r[0] < window.end]
    if not rows:
        return "  the servers' event loops: no sample in the window"
    busy, cpu = sum(r[1] for r in rows) / len(rows), sum(r[2] for r in rows) / len(rows)
    return (f"  the servers' event loops (each half second, {len(rows)} in the window): busy {busy:.2f} of the "
            f"time, on a core {cpu:.2f} (busy off a core: waiting for one), busiest half second "
            f"{max(r[1] for r in rows):.2f}, longest turn {max(r[4] for r in rows):.0f} ms")


def _report(bases: list[str], ns: list[int], seconds: float, max_seconds: float, rules: Any, pids: list[int],
            kind: str = "mjai", db: str = "sqlite", pg_pid: int | None = None, pace: float = 0.0,
            warmup: float = 0.0, gc_files: list[Path] | None = None, gc_untuned: bool = False,
            gc_thresholds: str | None = None, census: bool = False, series: str | None = None,
            settle: float = 0.0, pace_spread: float = 0.0) -> None:
    gc_note = (", collector: CPython's settings (--gc-untuned)" if gc_untuned
               else f", collector: sanma.web.collector.tune, thresholds {gc_thresholds or 'THRESHOLDS'}"
               ) if gc_files else ""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"# {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load}, server build: {_build()}, "
          f"seats: {kind}, database: {db}, {len(bases)} server process(es){gc_note}"
          f"{f', paced: every table acts every {pace:g} s' if pace else ''}"
          f"{f' (pauses {pace * (1 - pace_spread):g}-{pace * (1 + pace_spread):g} s)' if pace and pace_spread else ''}"
          f"{f', warm-up {warmup:g} s (tables made spread over it)' if warmup else ''}"
          f"{f', latencies measured from {warmup + settle:g} s' if warmup or settle else ''}"
          ", the generator's own collector off while it measures",
          flush=True)
    print(f"{'tables':>6} {'games/s':>8} {'hands/s':>8} {'actions/s':>10} {'act/game':>8} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'cpu ms/act':>10} {'db ms/act':>9} {'probe ms':>13} {'games':>6} {'secs':>5} {'load':>5} errors",
          flush=True)
    p99s: dict[int, float] = {}
    for n in ns:
        cpu0 = _cpu_seconds(pids)
        db0 = _cpu_seconds(_children(pg_pid)) if pg_pid else None
        stats, elapsed, window = asyncio.run(_run(bases, n, seconds, max_seconds, rules, kind, pace, warmup,
                                                  tuple(pids), pg_pid, census, settle, pace_spread))
        ramp, steady = split_ramp(stats.when, stats.latencies, window.start, window.end)
        measured = list(zip(stats.when, stats.latencies, strict=True))
        if warmup or settle:  # the row's latencies are the steady state's; the ramp's are printed below it
            stats.latencies = steady
        cpu1 = _cpu_seconds(pids)
        db1 = _cpu_seconds(_children(pg_pid)) if pg_pid else None
        per_action = (f"{(cpu1 - cpu0) / max(1, stats.actions) * 1e3:>10.2f}" if cpu0 is not None and cpu1 is not None
                      else f"{'-':>10}")
        per_action += (f" {(db1 - db0) / max(1, stats.actions) * 1e3:>9.2f}" if db0 is not None and db1 is not None
                       else f" {'-':>9}")
        probe = (f"{_pct(stats.probes, 0.5) * 1e3:.0f}/{max(stats.probes) * 1e3:.0f}" if stats.probes else "none")
        probe += f" x{stats.probe_failures}" if stats.probe_failures else ""
        per_game = stats.game_actions / stats.games if stats.games else float("nan")
        rate = len(steady) / max(1e-9, window.end - window.start) if warmup or settle else stats.actions / elapsed
        print(f"{n:>6} {stats.games / elapsed:>8.3f} {stats.hands / elapsed:>8.2f} {rate:>10.0f} "
              f"{per_game:>8.0f} {_pct(stats.latencies, 0.5) * 1e3:>8.1f} {_pct(stats.latencies, 0.99) * 1e3:>8.1f} "
              f"{per_action} {probe:>13} {stats.games:>6} {elapsed:>5.0f} {os.getloadavg()[0]:>5.2f} {stats.errors}",
              flush=True)
        if stats.first_error:
            print(f"  first refusal at N = {n}: {stats.first_error}", flush=True)
        secs = max(1e-9, window.end - window.start)
        cpu = f"generator {window.generator_cpu / secs:.0%}"
        cpu += f", servers {window.server_cpu / secs:.0%}" if window.server_cpu is not None else ""
        cpu += f", PostgreSQL {window.db_cpu / secs:.0%}" if window.db_cpu is not None else ""
        print(f"  CPU in the measured {secs:.0f} s, of one core (2 cores = 200%): {cpu}; load {os.getloadavg()[0]:.2f}",
              flush=True)
        if warmup or settle:
            print(f"  ramp (the {warmup + settle:g} s before, {len(ramp)} actions): {spread(ramp)}; "
                  f"steady ({len(steady)} actions): {spread(steady)}", flush=True)
        if gc_files:
            print(_gc_line(gc_files, window), flush=True)
            print(_loop_line(gc_files, window), flush=True)
        print(_gc_line([], window, GENERATOR_GC, "the load generator"), flush=True)
        lags = [x for t, x in zip(stats.lag_when, stats.lags, strict=True) if window.start <= t < window.end]
        print(f"  the generator's loop lag (a {LAG_TICK * 1e3:g} ms sleep's overshoot, {len(lags)} samples in the "
              f"window; a frame waits as long before it is read): {spread(lags)}", flush=True)
        if series is not None:  # each steady latency with its time, for a plot of the tail against the collections
            with open(f"{series}-{n}.txt", "w") as out:
                out.writelines(f"{t:.4f} {lat * 1e3:.3f}\n" for t, lat in measured)
            Path(f"{series}-{n}.gc").write_text("".join(
                f"server{i} {line}\n" for i, f in enumerate(gc_files or []) if f.exists()
                for line in f.read_text().splitlines()) + "".join(f"generator {x}\n" for x in GENERATOR_GC))
            Path(f"{series}-{n}.loop").write_text("".join(
                f"server{i} {line}\n" for i, f in enumerate(gc_files or []) for line in _loop_lines(f)))
        GENERATOR_GC.clear()
        for f in gc_files or []:
            census_file = f.with_name(f.name + ".census")
            if census and census_file.exists():
                print("  " + census_file.read_text().strip().replace("\n", "\n  "), flush=True)
                census_file.unlink()
        if pace:
            p99 = _pct(stats.latencies, 0.99) * 1e3
            p99s[n] = p99
            held = ""
            if gc_files:  # a tail is judged with the full collections its window held: say how many
                lines = [x for f in gc_files if f.exists() for x in f.read_text().splitlines()]
                full = gc_pauses(lines, window.start, window.end).get(2, [])
                held = f"; {len(full)} full collection(s) in the window"
            print(f"  paced N = {n}: p99 {p99:.1f} ms {'<' if p99 < 50 else '>='} 50 ms ({spread(stats.latencies)}"
                  f"{held})", flush=True)
    if pace:
        best = largest_under(p99s)
        print(f"largest paced N with p99 < 50 ms: {best if best is not None else f'none of {sorted(p99s)}'}",
              flush=True)
    health = [httpx.get(f"{b}/api/health", timeout=10).json() == {"ok": True} for b in bases]
    print(f"server still serving: {all(health)}", flush=True)


def _die_with_parent(nice: int | None = None, cpus: frozenset[int] | None = None) -> None:  # pragma: no cover
    """A server this script started ends with it, even when the script is killed (Linux); ``nice``: its
    scheduling priority (as a deployment's ``Nice=``; below 0 needs root); ``cpus``: the cores it may run
    on (as systemd's ``CPUAffinity=``). Runs in the child."""
    import ctypes
    import signal

    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    if cpus is not None:
        os.sched_setaffinity(0, cpus)


def _cpu_sets(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """``--pin``'s SERVERS:REST, each a list of CPUs and ranges (``0``, ``0-1``, ``0,2``), disjoint and on
    this machine. Raises ValueError saying what is wrong."""
    malformed = ValueError(f"{text!r} is not SERVERS:REST, two CPU lists such as 0:1 or 0-1:2-3")
    sets = []
    for part in text.split(":"):
        cpus: set[int] = set()
        for item in part.split(","):
            lo, dash, hi = item.partition("-")
            if not lo.isdigit() or (dash and not hi.isdigit()):
                raise malformed
            cpus.update(range(int(lo), int(hi or lo) + 1))
        sets.append(frozenset(cpus))
    if len(sets) != 2 or not all(sets):
        raise malformed
    if sets[0] & sets[1]:
        raise ValueError(f"CPU {_cpu_text(sets[0] & sets[1])} is in both sets")
    missing = (sets[0] | sets[1]) - os.sched_getaffinity(0)
    if missing:
        raise ValueError(f"CPU {_cpu_text(frozenset(missing))} is not one this process may use")
    return sets[0], sets[1]


def _cpu_text(cpus: frozenset[int]) -> str:
    return ",".join(map(str, sorted(cpus)))


# One load generator is one client: the per-client caps and rates (web/limits.py) would refuse it.
UNLIMITED = [arg for name in ("tables_per_minute", "tables_per_client", "tables", "sockets_per_client")
             for arg in ("--limit", f"{name}=1000000")]


def _start_server(db: str, env: dict[str, str], log: Path, gc_file: Path | None = None,
                  gc_args: tuple[str, ...] = (), extra: tuple[str, ...] = (),
                  nice: int | None = None, cpus: frozenset[int] | None = None) -> tuple[str, subprocess.Popen[bytes]]:
    port = _port()
    base = f"http://127.0.0.1:{port}"
    launcher = [str(ROOT / "benchmarks" / "gcwatch.py"), *gc_args, str(gc_file)] if gc_file else ["-m", "sanma"]
    with log.open("wb") as err:  # the server's stderr, kept (server_logs reports it)
        server = subprocess.Popen([sys.executable, *launcher, "serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--db", db, *UNLIMITED, *extra], env=env, stderr=err,
                                  preexec_fn=functools.partial(_die_with_parent, nice, cpus))
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return base, server
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise SystemExit("the server did not start")
        time.sleep(0.2)


def server_logs(files: list[Path]) -> str:
    """The report's line on the servers' stderr: where it is kept, how many lines are at ERROR
    (``sanma serve`` logs ``TIME LEVEL LOGGER: message``) and the first of them."""
    lines = [x for f in files if f.exists() for x in f.read_text(errors="replace").splitlines()]
    errors = [x for x in lines if " ERROR " in x]
    where = str(files[0].parent) if files else "-"
    first = f"; first: {errors[0][:300]}" if errors else ""
    return f"server stderr kept in {where} ({len(files)} file(s)): {len(errors)} line(s) at ERROR{first}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="10,50,100,200", help="comma-separated N")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds of load per N, at least")
    ap.add_argument("--max-seconds", type=float, default=400.0,
                    help="seconds per N at most, while fewer than N games have finished")
    ap.add_argument("--rules", default="tenhou", help="preset; East-only games (round_winds E) are played")
    ap.add_argument("--seats", choices=("mjai", "human"), default="mjai",
                    help="how the scripted players connect: mjai bots, or people's pages (/play: the per-seat "
                         "view after every action)")
    ap.add_argument("--url", help="use this running server (e.g. http://127.0.0.1:8000) instead of starting one")
    ap.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite", help="the database of the servers")
    ap.add_argument("--processes", type=int, default=1, help="server processes (postgres only)")
    ap.add_argument("--paced", type=float, default=0.0, metavar="SECONDS",
                    help="every table acts once per this many seconds (0: as fast as the bots answer)")
    ap.add_argument("--pace-spread", type=float, default=0.0, metavar="FRACTION",
                    help="with --paced: each pause is drawn uniformly from pace x [1 - F, 1 + F] (0.5: 0.5-1.5 s at "
                         "--paced 1), as people's vary; 0 (the default): exactly the pace, so a stall of the server "
                         "keeps every table it held up in step for the rest of the run")
    ap.add_argument("--warmup", type=float, default=None, metavar="SECONDS",
                    help="make the tables spread over this many seconds and measure after it (the ramp is reported "
                         "apart); default 20 when paced, else 0")
    ap.add_argument("--settle", type=float, default=None, metavar="SECONDS",
                    help="measure from this many seconds after the warm-up (the last tables made sit down and play "
                         "their first moves); default 5 when paced, else 0")
    ap.add_argument("--gc-trace", action="store_true",
                    help="record the servers' garbage collections (benchmarks/gcwatch.py) and report their pauses, "
                         "and how busy their event loops were")
    ap.add_argument("--gc-untuned", action="store_true",
                    help="with --gc-trace: the servers keep CPython's collector settings (the before of an A/B)")
    ap.add_argument("--gc-census", action="store_true",
                    help="with --gc-trace: at the end of each N, what the servers' collector walks, by type")
    ap.add_argument("--gc-thresholds", metavar="A,B,C",
                    help="with --gc-trace: the servers tune their collector with these thresholds instead")
    ap.add_argument("--series", metavar="PREFIX",
                    help="write PREFIX-N.txt (each latency: monotonic time, ms), PREFIX-N.gc (every collection of "
                         "the servers and of this generator) and, with --gc-trace, PREFIX-N.loop (the servers' loops "
                         "every half second: time, busy, on a core, turns, longest turn ms) for each N: where in time "
                         "the tail is")
    ap.add_argument("--pg-async", action="store_true",
                    help="the servers run with --synchronous-commit off (a table's moves do not wait for the disk; "
                         "the cluster itself stays durable)")
    ap.add_argument("--server-nice", type=int, metavar="N",
                    help="start the servers at this scheduling priority (as systemd's Nice=; below 0 needs root): "
                         "on cores they share with PostgreSQL and this generator, their event loops get a core "
                         "sooner")
    ap.add_argument("--pin", metavar="SERVERS:REST",
                    help="CPU sets (e.g. 0:1, or 0-1:2-3): the servers run on SERVERS only, and this generator and "
                         "the PostgreSQL cluster (started after it is pinned) on REST only, as a deployment gives "
                         "each service its cores (systemd's CPUAffinity=)")
    ap.add_argument("--pg-setting", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting of the benchmark's PostgreSQL cluster, as a deployment tunes it (repeatable; "
                         "e.g. max_wal_size=4GB); the durable ones (fsync, full_page_writes) stay on")
    args = ap.parse_args()
    if any("=" not in x for x in args.pg_setting):
        ap.error("--pg-setting takes NAME=VALUE, e.g. --pg-setting max_wal_size=4GB")
    _watch_own_gc()
    try:
        pin = _cpu_sets(args.pin) if args.pin else None
    except ValueError as e:
        ap.error(f"--pin: {e}")
    if pin is not None:
        os.sched_setaffinity(0, pin[1])  # this generator, and the cluster it starts
    if not 0 <= args.pace_spread < 1:
        raise SystemExit("--pace-spread is a fraction of the pace, 0 <= F < 1")
    warmup = args.warmup if args.warmup is not None else (20.0 if args.paced else 0.0)
    settle = args.settle if args.settle is not None else (5.0 if args.paced else 0.0)
    ns = [int(x) for x in args.tables.split(",")]
    rules = {"extends": args.rules, "round_winds": "E"}
    if args.url:
        _report([args.url.rstrip("/")], ns, args.seconds, args.max_seconds, rules, [], args.seats, pace=args.paced,
                warmup=warmup, series=args.series, settle=settle, pace_spread=args.pace_spread)
        return
    if args.db == "sqlite" and args.processes != 1:
        raise SystemExit("one server process serves a SQLite file (--db postgres for several)")
    if args.db == "sqlite" and args.pg_async:
        raise SystemExit("--pg-async is a PostgreSQL choice (--db postgres): SQLite has no such choice")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cluster = None
    servers: list[subprocess.Popen[bytes]] = []
    log_files: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            if args.db == "postgres":
                sys.path.insert(0, str(ROOT / "tests"))
                from pg_cluster import Cluster

                durable = {"fsync": "on", "full_page_writes": "on", "synchronous_commit": "on"}
                tuned = dict(x.split("=", 1) for x in args.pg_setting)
                cluster = Cluster.start({**tuned, **durable})
                url = cluster.create_database("bench")
                dbs = [url] * args.processes
            else:
                dbs = [str(Path(tmp) / "bench.sqlite")]
            bases = []
            gc_files = [Path(tmp) / f"gc-{i}.txt" for i in range(len(dbs))] if args.gc_trace else []
            logs = Path(tempfile.mkdtemp(prefix="sanma-bench-logs-"))  # kept after the run
            log_files = [logs / f"server-{i}.log" for i in range(len(dbs))]
            extra = ("--synchronous-commit", "off") if args.pg_async else ()
            for i, db in enumerate(dbs):
                gc_args = (("--untuned",) if args.gc_untuned else
                           (f"--thresholds={args.gc_thresholds}",) if args.gc_thresholds else ())
                base, server = _start_server(db, env, log_files[i], gc_files[i] if gc_files else None, gc_args, extra,
                                             args.server_nice, pin[0] if pin else None)
                bases.append(base)
                servers.append(server)
            _report(bases, ns, args.seconds, args.max_seconds, rules, [s.pid for s in servers], args.seats,
                    (f"postgres{' (serve --synchronous-commit off)' if args.pg_async else ''}"
                     f"{' with ' + ', '.join(args.pg_setting) if args.pg_setting else ''}" if cluster else "sqlite")
                    + (f", servers at nice {args.server_nice}" if args.server_nice is not None else "")
                    + (f", servers on CPU {_cpu_text(pin[0])}, the generator and PostgreSQL on CPU {_cpu_text(pin[1])}"
                       if pin else ""),
                    cluster.proc.pid if cluster else None, args.paced, warmup, gc_files, args.gc_untuned,
                    args.gc_thresholds, args.gc_census, args.series, settle, args.pace_spread)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()
            if cluster is not None:
                cluster.stop()
            if servers:
                print(server_logs(log_files), flush=True)


if __name__ == "__main__":
    main()
