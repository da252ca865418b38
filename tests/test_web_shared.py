"""Several ``sanma serve`` processes on one PostgreSQL database (issue 22 items 2 and 3; the
shared ARCHITECTURE.md's "Several server processes"): a table made on one process is played
through the others, each connection gets its own view from whichever process it is on, a request
sent twice is applied once, and ``kill -9`` of the process running a table hands it to another
within seconds with no event lost or doubled."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from sanma.cli import app
from sanma.store import open_db
from sanma.store import tables as stored
from web_helpers import choose, mjai_answer, sanma_serve, ws_url

pytestmark = pytest.mark.slow  # server processes

TABLE = {"rules": {"extends": "tenhou", "round_winds": "E"}, "seats": ["mjai", "mjai", "efficient"], "seed": 7,
         "clock": {"move": 0}}


def _mjai_seat(url: str, out: list[Any], rng: random.Random, stop_after: int | None = None,
               pause: threading.Event | None = None) -> None:
    """A scripted mjai bot: records every frame it is sent; answers until the game ends."""
    answered = 0
    with connect(url, open_timeout=30) as ws:
        while True:
            batch = json.loads(ws.recv(timeout=60))
            out.append(batch)
            if any(e.get("type") == "end_game" for e in batch):
                return
            a = mjai_answer(batch, rng)
            if a is None:
                continue
            if pause is not None and stop_after is not None and answered == stop_after:
                pause.wait(60)
            ws.send(json.dumps(a))
            answered += 1


def _watch(url: str, out: list[Any]) -> None:
    try:
        with connect(url, open_timeout=30) as ws:
            while True:
                m = json.loads(ws.recv(timeout=60))
                out.append(m)
                if m.get("type") == "game_result":
                    return
    except Exception:
        return


def _page_seat(url: str, out: list[Any], rng: random.Random) -> None:
    """A scripted person on the page's protocol: records every message; answers every prompt."""
    with connect(url, open_timeout=30) as ws:
        while True:
            m = json.loads(ws.recv(timeout=60))
            out.append(m)
            if m["type"] == "game_result":
                return
            if m["type"] == "prompt":
                ws.send(json.dumps({"type": "action", "seq": m["seq"], "id": choose(m["actions"], rng)["id"]}))


PEOPLE = {**TABLE, "seats": ["human", "human", "efficient"]}


def _shown(messages: list[Any]) -> list[Any]:
    """What a page is told of the game: all but the table's id and who is connected (hello's seats,
    presence), which depend on the run and on which processes the players' sockets are on."""
    return [{k: v for k, v in m.items() if k not in ("seats", "table")} for m in messages if m["type"] != "presence"]


def _play(bases: list[str], body: dict[str, Any] = PEOPLE) -> tuple[str, list[list[Any]], list[Any]]:
    """Make the table on bases[0]; seat 0 on bases[1], seat 1 on bases[2], a spectator on bases[0]."""
    t = httpx.post(f"{bases[0]}/api/tables", json=body, timeout=30).json()
    frames: list[list[Any]] = [[], []]
    seen: list[Any] = []
    threads = [threading.Thread(target=_page_seat, args=(
        ws_url(bases[1 + s], f"/ws/tables/{t['id']}/play?token={t['seats'][s]['token']}"), frames[s],
        random.Random(s))) for s in (0, 1)]
    threads.append(threading.Thread(target=_watch, args=(ws_url(bases[0], f"/ws/tables/{t['id']}/watch"), seen)))
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    return t["id"], frames, seen


def test_three_processes_play_a_table_as_one_does(pg_database: str, tmp_path: Path) -> None:
    """(1) A table made on one process, its two people's seats on the other two, a spectator on
    the first: each seat is sent what one process sends it, message for message."""
    with sanma_serve(str(tmp_path / "one.sqlite")) as (one, _):
        _, alone, _ = _play([one, one, one])
    with sanma_serve(pg_database) as (a, _), sanma_serve(pg_database) as (b, _), sanma_serve(pg_database) as (c, _):
        tid, frames, seen = _play([a, b, c])
        assert httpx.get(f"{c}/api/tables/{tid}", timeout=30).json()["finished"]
        assert [x["id"] for x in httpx.get(f"{b}/api/tables", timeout=30).json()["tables"]] == [tid]
    assert [_shown(f) for f in frames] == [_shown(f) for f in alone]
    assert len(frames[0]) > 100 and frames[0][-1]["type"] == "game_result"
    assert seen and seen[-1]["type"] == "game_result"
    with open_db(pg_database) as s:
        row = stored.table(s, tid)
        assert row is not None and row.finished
        assert [e["type"] for e in stored.events(s, tid)][-1] == "end_game"


def _runner(url: str, tid: str) -> int | None:
    with open_db(url) as s:
        row = stored.table(s, tid)
        return None if row is None else row.runner


def test_kill_9_of_the_runner_mid_hand_hands_the_table_on_within_5_seconds(pg_database: str,
                                                                           tmp_path: Path) -> None:
    """(2) The process running the table is killed (-9) mid-hand: another takes it within 5 s, the
    game finishes, nothing is lost or doubled, its record replays clean and sanma verify passes."""
    with sanma_serve(pg_database) as (a, pa), sanma_serve(pg_database) as (b, _), sanma_serve(pg_database) as (c, _):
        t = httpx.post(f"{a}/api/tables", json=TABLE, timeout=30).json()
        tid = t["id"]
        first = _runner(pg_database, tid)
        frames: list[list[Any]] = [[], []]
        pause = threading.Event()
        threads = [threading.Thread(target=_mjai_seat, args=(
            ws_url([b, c][s], f"/ws/tables/{tid}/mjai?token={t['seats'][s]['token']}"), frames[s],
            random.Random(s), 15, pause)) for s in (0, 1)]
        for th in threads:
            th.start()
        deadline = time.monotonic() + 60
        while sum(len(f) for f in frames) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(pa.pid, signal.SIGKILL)  # no clean-up of any kind
        pa.wait(10)
        killed = time.monotonic()
        while _runner(pg_database, tid) == first and time.monotonic() - killed < 10:
            time.sleep(0.05)
        took = time.monotonic() - killed
        pause.set()
        for th in threads:
            th.join(300)
        assert took < 5, f"taken over after {took:.1f} s"
        assert all(any(e.get("type") == "end_game" for e in f[-1]) for f in frames)
        record = httpx.get(f"{b}/api/tables/{tid}/record", params={"format": "mjai"}, timeout=30)
        assert record.status_code == 200
    with open_db(pg_database) as s:
        events = stored.events(s, tid)
        idx = [r[0] for r in s.conn.execute("SELECT idx FROM web_events WHERE table_id = ? ORDER BY idx", (tid,))]
        assert idx == list(range(len(events)))  # none lost, none doubled
    path = tmp_path / "game.mjson"
    path.write_text(record.text)
    rules = tmp_path / "east.toml"
    rules.write_text('extends = "tenhou"\nround_winds = "E"\n')
    runner = CliRunner()
    replay = runner.invoke(app, ["replay", str(path), "--check", "--rules", str(rules)])
    assert replay.exit_code == 0, replay.output
    verify = runner.invoke(app, ["verify", "--db", pg_database, tid])
    assert verify.exit_code == 0 and verify.output.startswith("OK"), verify.output
