"""Helpers of the server tests: the real server in a thread, scripted clients, the leak checker."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import uvicorn
from fastapi import FastAPI

from sanma.tiles import Tile
from sanma.web import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(db_path: str | os.PathLike[str], *, port: int | None = None,
            **app_options: Any) -> Iterator[tuple[str, FastAPI]]:
    """The real server (uvicorn, loopback only) in a thread: ``(base_url, app)``; stopped after the block."""
    app = create_app(db_path, **app_options)
    port = port or free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            thread.join(5)
            raise RuntimeError(f"the test server on port {port} did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(30)


@contextlib.contextmanager
def running_server(db_path: str | os.PathLike[str], *, port: int | None = None, **app_options: Any) -> Iterator[str]:
    """``with running_server(tmp_path / "db.sqlite") as base:`` -> ``"http://127.0.0.1:PORT"``."""
    with serving(db_path, port=port, **app_options) as (base, _):
        yield base


def ws_url(base: str, path: str) -> str:
    return "ws" + base.removeprefix("http") + path


# --------------------------------------------------------------------------------------------
# Scripted clients
# --------------------------------------------------------------------------------------------


#: Refusals a correct client meets when its answer crosses another seat's move (an external mjai
#: seat's ron took precedence over this seat's pon offer before the answer arrived): the prompt is
#: gone; the client waits for the next view (docs/WEB_PROTOCOL.md, "error").
CROSSED = ("not_your_turn", "stale")


def choose(actions: Sequence[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A scripted player: always win, often pass on calls, otherwise anything legal."""
    wins = [a for a in actions if a["type"] == "hora"]
    if wins:
        return wins[0]
    passes = [a for a in actions if a["type"] == "none"]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(list(actions))


def mjai_answer(batch: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """A scripted mjai bot: answers from ``possible_actions`` (one-step riichi), None when not asked."""
    possible = batch[-1].get("possible_actions") if batch else None
    if not possible:
        return None
    return choose(possible, rng)


# --------------------------------------------------------------------------------------------
# The leak checker
# --------------------------------------------------------------------------------------------

# Keys whose strings are not tiles: winds, names (a player "C"), the kinds a hand waits on, rules.
NOT_TILES = frozenset({"round_wind", "wind", "bakaze", "names", "name", "waits", "rules_detail", "rules"})


class Leak(AssertionError):
    pass


#: The events after which a call window opens (a pon, kan or ron may follow): the table stops
#: after each one, whoever could call.
WINDOW_OPENERS = ("dahai", "kakan")


def tile_names(value: Any) -> set[str]:
    """Every tile name anywhere in a JSON value (outside ``NOT_TILES`` keys)."""
    out: set[str] = set()
    if isinstance(value, str):
        if value != "?":
            try:
                Tile.from_mjai(value)
            except ValueError:
                return out
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in NOT_TILES:
                out |= tile_names(v)
    elif isinstance(value, list | tuple):
        for v in value:
            out |= tile_names(v)
    return out


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [n for v in value for n in _names(v)]
    return []


class LeakChecker:
    """What each seat (``None``: a spectator) may know after each event, from the server's own events.

    A tile name the seat has not seen a copy of (own deal and draws, every discard, call, kita,
    flower, revealed indicator or revealed hand of the current hand) is a concealed tile of another
    seat, a wall tile or an unrevealed indicator: a payload that names one leaks.
    """

    def __init__(self, events: Sequence[dict[str, Any]], seed: str, wall_key: str | None = None) -> None:
        self.events = list(events)
        self.seed = seed
        self.wall_key = wall_key  # a keyed table's wall key (hex): as secret as the seed until the end
        self.known: dict[int | None, list[frozenset[str]]] = {}
        for seat in (0, 1, 2, None):
            seen: set[str] = set()
            per: list[frozenset[str]] = []
            for e in self.events:
                t = e["type"]
                if t == "start_kyoku":
                    seen = set(_names(e.get("dora_markers", [e.get("dora_marker")])))
                    if seat is not None:
                        seen |= set(_names(e["tehais"][seat]))
                elif t == "tsumo":
                    if e["actor"] == seat:
                        seen.add(e["pai"])
                elif t == "kita":
                    seen.add("N")
                elif t == "dora":
                    seen.add(e["dora_marker"])
                elif t == "hora":
                    seen |= set(_names(e.get("hora_tehais"))) | set(_names(e.get("uradora_markers"))) | {e["pai"]}
                elif t == "ryukyoku":
                    seen |= set(_names(e.get("tehais")))
                else:
                    seen |= set(_names(e.get("pai"))) | set(_names(e.get("consumed")))
                per.append(frozenset(seen))
            self.known[seat] = per
        self.payloads = 0

    def check(self, seat: int | None, index: int, payload: Any, what: str) -> None:
        """``payload`` was sent to ``seat`` when events ``[0, index]`` had happened."""
        self.payloads += 1
        text = json.dumps(payload)
        if self.seed in text:
            raise Leak(f"{what} to seat {seat}: the seed before the game ended: {text[:200]}")
        if self.wall_key is not None and self.wall_key in text:
            raise Leak(f"{what} to seat {seat}: the wall key before the game ended: {text[:200]}")
        unknown = tile_names(payload) - self.known[seat][index]
        if unknown:
            raise Leak(f"{what} to seat {seat} at event {index}: names {sorted(unknown)} it cannot know: {text[:300]}")

    @staticmethod
    def check_to_move(seat: int | None, view: dict[str, Any]) -> None:
        """Who must act, as a view tells it: the seat on turn and the viewer itself, never another
        seat deciding on a call (that it was asked tells what it holds)."""
        allowed = {view["turn"], *(() if seat is None else (seat,))}
        if not set(view["to_move"]) <= allowed:
            raise Leak(f"view to seat {seat}: to_move {view['to_move']} names a seat deciding on a call "
                       f"(turn {view['turn']})")

    @staticmethod
    def check_counters(seat: int | None, messages: Sequence[dict[str, Any]]) -> None:
        """No counter of the table's actions (a pass on a call offer is one: how much it grew would
        tell that a seat was offered a call, issue 23): no message carries ``seq``, and a seat's
        prompts are numbered by its own decisions only — 1, 2, 3, ... with no gap on a connection."""
        last: int | None = None
        for m in messages:
            if "seq" in m:
                raise Leak(f"{m.get('type')} to seat {seat} carries the table's action counter seq={m['seq']}")
            if m.get("type") == "prompt":
                n = m["prompt"]
                if last is not None and n != last + 1:
                    raise Leak(f"prompt ids to seat {seat} jump from {last} to {n}: they count more than its decisions")
                last = n

    @staticmethod
    def check_batching(seat: int | None, messages: Sequence[dict[str, Any]]) -> None:
        """A view never carries a discard (or an added kan) together with what came after it: the
        table stops after every one of them whoever could call (issue 23: a view ending on a discard
        was sent only when some seat was asked; otherwise the discard came with the next draw). The
        first view of a connection is its catch-up (the current hand so far) and is not checked."""
        first = True
        for m in messages:
            if m.get("type") != "view":
                continue
            if first:
                first = False
                continue
            events = m["events"]
            for i, e in enumerate(events[:-1]):
                # only the kan dora that the opener itself turns (P12, Tenhou's with_discard) may follow it
                if e["type"] in WINDOW_OPENERS and any(x["type"] != "dora" for x in events[i + 1:]):
                    raise Leak(f"view to seat {seat}: a {e['type']} came with the events after it "
                               f"({[x['type'] for x in events[i:i + 3]]}): so nobody was asked")

    def check_page(self, seat: int | None, messages: Sequence[dict[str, Any]]) -> None:
        """Every message one page connection received, in order."""
        self.check_counters(seat, messages)
        self.check_batching(seat, messages)
        last = 0
        last_end = 0
        for m in messages:
            t = m.get("type")
            if t == "view":
                start = m["event_index"]
                for j, e in enumerate(m["events"]):
                    self.check(seat, start + j, e, f"event {e.get('type')}")
                    if e["type"] == "end_kyoku":
                        last_end = start + j
                last = start + len(m["events"]) - 1
                self.check(seat, last, m["view"], "view")
                self.check_to_move(seat, m["view"])
            elif t == "hand_result":
                self.check(seat, last_end, m, "hand_result")
                self.check_hand_result(seat, last_end, m["result"])
            elif t == "game_result":
                continue  # the seed is published here, after the game
            else:
                self.check(seat, last, m, str(t))

    def check_hand_result(self, seat: int | None, index: int, result: dict[str, Any]) -> None:
        """A hand's card opens only what the table revealed at the hand's end (event ``index``, its
        ``end_kyoku``): each winner's hand as its ``hora`` showed it, and at an exhaustive draw the
        hands of the tenpai seats only, as the ``ryukyoku`` event showed them (issue 18 item 6)."""
        start = max(i for i in range(index + 1) if self.events[i]["type"] == "start_kyoku")
        hand = self.events[start:index + 1]
        wins = {e["actor"]: e for e in hand if e["type"] == "hora"}
        draw = next((e for e in hand if e["type"] == "ryukyoku"), None)
        for w in result["wins"]:
            e = wins.get(w["seat"])
            shown = sorted([*w["hand"], w["pai"]] if w["tsumo"] else w["hand"])
            if e is None or shown != sorted(e.get("hora_tehais", [])):
                raise Leak(f"hand_result to seat {seat}: seat {w['seat']}'s hand {w['hand']} is not what its "
                           "win showed")
        tenpai = draw.get("tenpai", []) if draw is not None and draw.get("reason") == "exhaustive" else []
        for h in result.get("tenpai_hands", []):
            if draw is None or h["seat"] not in tenpai or sorted(h["hand"]) != sorted(draw["tehais"][h["seat"]]):
                raise Leak(f"hand_result to seat {seat}: opens seat {h['seat']}'s hand, not tenpai at a draw")

    def check_mjai(self, seat: int, frames: Sequence[list[dict[str, Any]]]) -> None:
        """Every frame one mjai connection received (it is sent the game from ``start_game``)."""
        i = -1
        for frame in frames:
            for e in frame:
                if e.get("type") == "error":
                    self.check(seat, max(i, 0), e, "error")
                    continue
                i += 1
                if e.get("type") == "end_game":
                    continue  # nothing hidden; after the game
                self.check(seat, i, e, f"mjai {e.get('type')}")


# --------------------------------------------------------------------------------------------
# A table played in-process on the injected clock, through the real protocol classes
# --------------------------------------------------------------------------------------------


class Captured:
    """What one connection was sent, with the clock's time of each message."""

    def __init__(self, clock: Any) -> None:
        self.clock = clock
        self.log: list[tuple[int, Any]] = []

    def __call__(self, msg: Any) -> None:
        self.log.append((self.clock.now(), json.loads(msg) if isinstance(msg, str) else msg))

    @property
    def messages(self) -> list[Any]:
        return [m for _, m in self.log]


def attach(table: Any, seat: int | None, kind: str = "play") -> Any:
    """A page (``kind`` "play"; ``seat`` None: a spectator) or mjai connection joined to ``table``
    exactly as a WebSocket's is (``ws.join``), whose messages are captured (``conn.sent``) instead
    of written to a socket; answer through ``conn.handle(text)``."""
    from sanma.web.ws import MjaiConnection, PageConnection, join

    cls = MjaiConnection if kind == "mjai" else PageConnection
    conn = cls(None, table, seat)  # type: ignore[arg-type]
    conn.sent = Captured(table.time)
    conn.send = conn.sent  # type: ignore[method-assign]
    conn._put = conn.outbox.append  # (what else goes out, e.g. the hang-up, stays in the outbox)
    join(conn)
    return conn


# --------------------------------------------------------------------------------------------
# sanma serve as a process (several processes on one database)
# --------------------------------------------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def sanma_serve(db: str, port: int | None = None, *, wait: bool = True) -> Iterator[tuple[str, Any]]:
    """``sanma serve --db DB`` as its own process on a loopback port: ``(base_url, process)``,
    waited for until it answers (``wait=False``: at once, for a server that may refuse to start);
    stopped (terminated) after the block unless already gone."""
    import subprocess
    import sys

    port = port or free_port()
    proc = subprocess.Popen([sys.executable, "-m", "sanma", "serve", "--port", str(port), "--db", db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        if wait:
            wait_until_up(proc, base)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:  # pragma: no cover
                proc.kill()
                proc.wait(10)
        if proc.stderr is not None:
            proc.stderr.close()


def wait_until_up(proc: Any, base: str) -> None:
    """Wait (up to a minute) until the process ``proc`` serving ``base`` answers its health check."""
    import httpx

    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"sanma serve exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("sanma serve did not start")
        time.sleep(0.1)


class Proxy:
    """A loopback TCP proxy (what nginx or Caddy is in front of several processes): each new
    connection goes to the backend port ``target`` names at that moment. Run in a thread."""

    def __init__(self, target: int) -> None:
        import asyncio

        self.target = target
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: Any = None
        self._thread = threading.Thread(target=self._run, name="proxy", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        import asyncio

        writers: set[asyncio.StreamWriter] = set()

        async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writers.add(writer)
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
            except OSError:
                writer.close()
                return
            writers.add(up_writer)
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

        async def main() -> None:
            self._stop = asyncio.Event()
            server = await asyncio.start_server(handle, "127.0.0.1", self.port)
            self._ready.set()
            await self._stop.wait()
            server.close()
            for w in writers:
                w.close()
            await asyncio.sleep(0.1)  # the pipes see their ends and finish
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(main())
        self._loop.close()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)
