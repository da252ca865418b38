"""Load benchmark of ``sanma serve``: N concurrent tables of bots over WebSocket, one server process.

    .venv/bin/python benchmarks/bench_server.py [--tables 10,50,100,200] [--seconds 20] [--rules tenhou]

Starts ``sanma serve`` as its own process on 127.0.0.1 (a fresh database in a temporary
directory), then for each N keeps N tables busy for ``--seconds``: every table has three
``mjai`` seats played by scripted bots in this process (one WebSocket each, sanma's mjai dialect,
answering from ``possible_actions``: a win when offered, else pass, else the first discard), and a
finished table is replaced by a new one. Reported per N: games finished per second, actions per
second, hands per second, and the action latency p50/p99 — from a bot's answer to the next frame the server sends
any seat of that table (the server's turnaround for one action, persistence included). After the
runs the server must still answer ``/api/health``. Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
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
    hands: int = 0
    actions: int = 0
    errors: int = 0


@dataclass
class TableClock:
    sent: float | None = None


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
            a = answer(batch)
            if a is not None:
                clock.sent = time.perf_counter()
                await ws.send(json.dumps(a))
                stats.actions += 1
            if stop.is_set():
                return False
    return False


async def _table_loop(base: str, rules: Any, stats: Stats, stop: asyncio.Event, client: httpx.AsyncClient) -> None:
    while not stop.is_set():
        r = await client.post(f"{base}/api/tables", json={"rules": rules, "seats": ["mjai"] * 3,
                                                          "clock": {"move": 0}})
        r.raise_for_status()
        t = r.json()
        clock = TableClock()
        ws = "ws" + base.removeprefix("http")
        done = await asyncio.gather(*[
            _seat(f"{ws}/ws/tables/{t['id']}/mjai?token={s['token']}", clock, stats, stop, s["seat"] == 0)
            for s in t["seats"]])
        if all(done):
            stats.games += 1


async def _run(base: str, n: int, seconds: float, rules: Any) -> tuple[Stats, float]:
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=n + 10)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        start = time.perf_counter()
        tasks = [asyncio.create_task(_table_loop(base, rules, stats, stop, client)) for _ in range(n)]
        await asyncio.sleep(seconds)
        stop.set()
        elapsed = time.perf_counter() - start
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


def _report(base: str, ns: list[int], seconds: float, rules: Any) -> None:
    print(f"{'tables':>6} {'games/s':>8} {'hands/s':>8} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'games':>6} "
          "errors", flush=True)
    for n in ns:
        stats, elapsed = asyncio.run(_run(base, n, seconds, rules))
        print(f"{n:>6} {stats.games / elapsed:>8.2f} {stats.hands / elapsed:>8.2f} {stats.actions / elapsed:>10.0f} "
              f"{_pct(stats.latencies, 0.5) * 1e3:>8.1f} {_pct(stats.latencies, 0.99) * 1e3:>8.1f} "
              f"{stats.games:>6} {stats.errors}", flush=True)
    health = httpx.get(f"{base}/api/health", timeout=10).json()
    print(f"server still serving: {health == {'ok': True}}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="10,50,100,200", help="comma-separated N")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds of load per N")
    ap.add_argument("--rules", default="tenhou", help="preset; East-only games (round_winds E) are played")
    ap.add_argument("--url", help="use this running server (e.g. http://127.0.0.1:8000) instead of starting one")
    args = ap.parse_args()
    ns = [int(x) for x in args.tables.split(",")]
    rules = {"extends": args.rules, "round_winds": "E"}
    if args.url:
        _report(args.url.rstrip("/"), ns, args.seconds, rules)
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
            _report(base, ns, args.seconds, rules)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


if __name__ == "__main__":
    main()
