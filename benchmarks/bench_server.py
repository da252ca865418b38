"""Load benchmark of ``sanma serve``: N concurrent tables of bots over WebSocket, one server process.

    .venv/bin/python benchmarks/bench_server.py [--tables 10,50,100,200] [--seconds 30] [--max-seconds 400]

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

Reported per N: games finished per second, hands per second, actions per second, actions per
game, the action latency p50/p99 (from a bot's answer to the next frame the server sends any
seat of that table: the server's turnaround for one action, its SQLite transaction included),
the server's CPU milliseconds per action (load-independent, when this script started the
server), and the probe: a ``GET /api/tables`` (the lobby's list) sent every second during the
load, its p50 / worst latency and failures — the server must keep serving. The first lines give
the date, the build (pure Python or compiled) and the machine's load (``os.getloadavg``).
Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import platform
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
    games: int = 0
    game_actions: int = 0  # actions of the finished games
    hands: int = 0
    actions: int = 0
    errors: int = 0
    first_error: str = ""  # the first refusal the server sent, as it said it
    probes: list[float] = field(default_factory=list)
    probe_failures: int = 0


@dataclass
class TableClock:
    sent: float | None = None
    actions: int = 0


async def _seat(url: str, clock: TableClock, stats: Stats, stop: asyncio.Event, counts_hands: bool) -> bool:
    """One mjai bot; True when its game ended."""
    async with connect(url, open_timeout=60, max_size=2**22) as ws:
        async for raw in ws:
            now = time.perf_counter()
            if clock.sent is not None:
                stats.latencies.append(now - clock.sent)
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
                clock.sent = None
            if m["type"] == "hand_result" and counts_hands:
                stats.hands += 1
            elif m["type"] == "game_result":
                return True
            elif m["type"] == "error":
                stats.errors += 1
            elif m["type"] == "prompt":
                a = page_answer(m["actions"])
                clock.sent = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "prompt": m["prompt"], "id": a["id"]}))
                stats.actions += 1
                clock.actions += 1
            if stop.is_set():
                return False
    return False


async def _table_loop(base: str, rules: Any, stats: Stats, stop: asyncio.Event, client: httpx.AsyncClient,
                      kind: str) -> None:
    while not stop.is_set():
        r = await client.post(f"{base}/api/tables", json={"rules": rules, "seats": [kind] * 3,
                                                          "clock": {"move": 0, "call": 0}})
        r.raise_for_status()
        t = r.json()
        clock = TableClock()
        ws = "ws" + base.removeprefix("http")
        role, seat = ("mjai", _seat) if kind == "mjai" else ("play", _page_seat)
        done = await asyncio.gather(*[
            seat(f"{ws}/ws/tables/{t['id']}/{role}?token={s['token']}", clock, stats, stop, s["seat"] == 0)
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


async def _run(base: str, n: int, seconds: float, max_seconds: float, rules: Any, kind: str) -> tuple[Stats, float]:
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=n + 10)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        start = time.perf_counter()
        tasks = [asyncio.create_task(_table_loop(base, rules, stats, stop, client, kind)) for _ in range(n)]
        probe = asyncio.create_task(_probe(base, stats, stop))
        await asyncio.sleep(seconds)
        while stats.games < n and time.perf_counter() - start < max_seconds:
            await asyncio.sleep(0.5)
        stop.set()
        elapsed = time.perf_counter() - start
        await probe
        for t in tasks:  # tables still playing stop at their next frame
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
    return stats, elapsed


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc), or None."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _build() -> str:
    if os.environ.get("SANMA_PURE"):
        return "pure Python (SANMA_PURE=1)"
    from sanma import _accel

    return "compiled (mypyc)" if _accel.ENABLED else "pure Python (no fresh compiled build)"


def _report(base: str, ns: list[int], seconds: float, max_seconds: float, rules: Any, pid: int | None,
            kind: str = "mjai") -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"# {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load}, server build: {_build()}, "
          f"seats: {kind}",
          flush=True)
    print(f"{'tables':>6} {'games/s':>8} {'hands/s':>8} {'actions/s':>10} {'act/game':>8} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'cpu ms/act':>10} {'probe ms':>13} {'games':>6} {'secs':>5} {'load':>5} errors", flush=True)
    for n in ns:
        cpu0 = _cpu_seconds(pid)
        stats, elapsed = asyncio.run(_run(base, n, seconds, max_seconds, rules, kind))
        cpu1 = _cpu_seconds(pid)
        per_action = (f"{(cpu1 - cpu0) / max(1, stats.actions) * 1e3:>10.2f}" if cpu0 is not None and cpu1 is not None
                      else f"{'-':>10}")
        probe = (f"{_pct(stats.probes, 0.5) * 1e3:.0f}/{max(stats.probes) * 1e3:.0f}" if stats.probes else "none")
        probe += f" x{stats.probe_failures}" if stats.probe_failures else ""
        per_game = stats.game_actions / stats.games if stats.games else float("nan")
        print(f"{n:>6} {stats.games / elapsed:>8.3f} {stats.hands / elapsed:>8.2f} {stats.actions / elapsed:>10.0f} "
              f"{per_game:>8.0f} {_pct(stats.latencies, 0.5) * 1e3:>8.1f} {_pct(stats.latencies, 0.99) * 1e3:>8.1f} "
              f"{per_action} {probe:>13} {stats.games:>6} {elapsed:>5.0f} {os.getloadavg()[0]:>5.2f} {stats.errors}",
              flush=True)
        if stats.first_error:
            print(f"  first refusal at N = {n}: {stats.first_error}", flush=True)
    health = httpx.get(f"{base}/api/health", timeout=10).json()
    print(f"server still serving: {health == {'ok': True}}", flush=True)


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
    args = ap.parse_args()
    ns = [int(x) for x in args.tables.split(",")]
    rules = {"extends": args.rules, "round_winds": "E"}
    if args.url:
        _report(args.url.rstrip("/"), ns, args.seconds, args.max_seconds, rules, None, args.seats)
        return
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "sanma", "serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--db", str(Path(tmp) / "bench.sqlite")], env=env, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            _report(base, ns, args.seconds, args.max_seconds, rules, server.pid, args.seats)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
