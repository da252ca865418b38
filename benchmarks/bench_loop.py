"""Does work on the server's event loop stall the tables? (issue 23 item 4)

    .venv/bin/python benchmarks/bench_loop.py [--uploads 4] [--hands 200] [--seconds 10]

Starts ``sanma serve`` as its own process on 127.0.0.1 (a fresh database in a temporary
directory), opens a person's page socket at a table and sends a ``ping`` every 20 ms, and
measures each ``pong``'s round trip: first alone, then while ``--uploads`` copies of a long
game's record (``--hands`` hands of mjai JSONL, made by the engine) are posted to ``/api/replays``
at once. Prints the round trip's p50 / p99 / worst in both phases and how long the uploads took.
Before issue 23 the records were parsed on the loop (four 3.9 MB records: a pong waited 11.5 s);
now in a worker process. ``--python`` runs another checkout's server (e.g. main's, for the figure
before). Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def long_record(hands: int) -> str:
    """A game of about ``hands`` hands (nobody busts, many round winds), as mjai JSONL."""
    from sanma.formats.mjai import write_mjai
    from sanma.game.engine import Game
    from sanma.rules.loader import from_dict

    rules = from_dict({"extends": "tenhou", "round_winds": "ESWN" * (hands // 10 + 1), "start_points": 500000,
                       "return_points": 500000}, "bench")
    g = Game(rules, seed=1, max_hands=hands)
    rng = random.Random(1)
    while not g.done:
        g.apply(rng.choice(g.legal_actions(g.to_move[0])))
    return write_mjai(g)


def _summary(rtts: list[float]) -> str:
    if not rtts:
        return "no pong"
    ms = sorted(x * 1000 for x in rtts)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, worst {ms[-1]:.1f} ms ({len(ms)} pongs)"


async def _pinger(url: str, out: list[float], stop: asyncio.Event) -> None:
    async with connect(url, open_timeout=60, max_size=2**22) as ws:
        sent: dict[int, float] = {}
        n = 0

        async def reader() -> None:
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") == "pong" and m.get("t") in sent:
                    out.append(time.perf_counter() - sent.pop(m["t"]))

        task = asyncio.create_task(reader())
        while not stop.is_set():
            n += 1
            sent[n] = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "t": n}))
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.5)
        task.cancel()


async def _run(base: str, text: str, uploads: int, seconds: float) -> None:
    async with httpx.AsyncClient(timeout=600) as client:
        r = await client.post(f"{base}/api/tables", json={"rules": "tenhou", "seats": ["human", "human", "human"],
                                                          "clock": {"move": 0}})
        t = r.json()
        url = "ws" + base.removeprefix("http") + f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}"
        alone: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(_pinger(url, alone, stop))
        await asyncio.sleep(seconds / 2)
        stop.set()
        await task
        during: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(_pinger(url, during, stop))
        await asyncio.sleep(0.5)
        t0 = time.perf_counter()
        answers = await asyncio.gather(*(client.post(f"{base}/api/replays?name=big", content=text.encode(),
                                                     headers={"content-type": "text/plain"})
                                         for _ in range(uploads)))
        took = time.perf_counter() - t0
        stop.set()
        await task
        print(f"uploads: {uploads} x {len(text) / 1e6:.2f} MB in {took:.2f} s "
              f"(answers {sorted({a.status_code for a in answers})})")
        print(f"pong alone:          {_summary(alone)}")
        print(f"pong during uploads: {_summary(during)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uploads", type=int, default=4)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--python", default=sys.executable, help="the server's Python")
    ap.add_argument("--src", default=str(ROOT / "src"), help="the server's source (PYTHONPATH)")
    args = ap.parse_args()
    text = long_record(args.hands)
    port = _port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": args.src}
        server = subprocess.Popen([args.python, "-m", "sanma", "serve", "--port", str(port), "--db",
                                   str(Path(tmp) / "db.sqlite")], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(f"{base}/api/health", timeout=2)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            print(f"{time.strftime('%Y-%m-%d %H:%M')} server {args.src}, load {os.getloadavg()[0]:.1f}")
            asyncio.run(_run(base, text, args.uploads, args.seconds))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
