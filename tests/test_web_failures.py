"""Nothing blocks the loop, and a failed write breaks nothing (issue 23 items 4 and 5).

With another process holding the database's write lock, every table froze 10 s, then `database
is locked` escaped the socket's handler (the person's socket closed with a traceback) and the
action — applied to the game before it was stored — was lost on restart although the person had
been shown it; the table never moved again. Every keeper request ran `PRAGMA quick_check` over
the whole file; a 3.9 MB upload was parsed on the loop.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import sanma.store.db as store_db
from sanma.formats.mjai import write_mjai
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.store import Store, open_db
from sanma.web import create_app
from sanma.web.scheduler import ManualClock
from sanma.web.tables import RETRY_MS, SERVER_WAIT_MS, Tables
from sanma.web.workers import Workers
from web_helpers import attach

LOCAL = "http://127.0.0.1"
RULES = {"extends": "tenhou", "round_winds": "E"}


class Lock:
    """Another process's write transaction on the same file."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)

    def __enter__(self) -> Lock:
        self.conn.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.execute("ROLLBACK")


def _stored(path: Path, tid: str) -> list[dict[str, Any]]:
    with open_db(path) as s:
        return [json.loads(r[0]) for r in s.conn.execute("SELECT data FROM web_events WHERE table_id = ? "
                                                         "ORDER BY idx", (tid,))]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, ...]]:
    path = tmp_path / "db.sqlite"
    clock = ManualClock()
    store = open_db(path)
    store.wait_for_writes(0)
    tables = Tables(store, clock)
    t, _ = tables.create({"rules": RULES, "seats": ["human", "efficient", "efficient"], "seed": 6,
                          "clock": {"move": 0, "call": 0, "think": 1, "result": 0}})
    person, spectator = attach(t, 0), attach(t, None)
    yield path, clock, tables, t, person, spectator
    tables.close()
    store.close()


def test_a_move_that_cannot_be_stored_is_refused_and_the_table_stays_as_it_was_told(table: Any) -> None:
    path, _, _, t, person, spectator = table
    prompt = next(m for m in person.sent.messages if m["type"] == "prompt")
    discard = next(a for a in prompt["actions"] if a["type"] == "dahai")
    events, told = list(t.game.events), len(spectator.sent.log)
    with Lock(path):
        person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]}))
        error, again = person.sent.messages[-2:]  # nothing else: no view, no new prompt id
        assert error["type"] == "error" and error["code"] == "not_stored" and "nothing changed" in error["message"]
        assert again == {**prompt}  # the same prompt, sent again: answer it again
        assert t.game.events == events and t.prompt(0) is not None and t.prompt(0).number == prompt["prompt"]
        assert len(spectator.sent.log) == told  # nobody was told anything
    assert _stored(path, t.id) == events
    person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]}))
    assert t.game.events[len(events)]["type"] == "dahai" and _stored(path, t.id) == t.game.events


def test_a_timer_whose_write_fails_is_tried_again_and_the_game_goes_on(table: Any) -> None:
    path, clock, _, t, person, _ = table
    prompt = next(m for m in person.sent.messages if m["type"] == "prompt")
    discard = next(a for a in prompt["actions"] if a["type"] == "dahai")
    person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]}))
    clock.advance(0)  # the window nobody may answer is released: the bot draws
    events = list(t.game.events)
    assert events[-1]["type"] == "tsumo" and events[-1]["actor"] == 1
    with Lock(path):
        clock.advance(1000)  # the bot's think time is up, but its move cannot be stored
        assert t.game.events == events and clock.next_at() == clock.now() + RETRY_MS
        clock.advance(RETRY_MS)  # still locked: tried and refused again
        assert t.game.events == events
    clock.advance(RETRY_MS)
    assert t.game.events[len(events)]["type"] == "dahai" and _stored(path, t.id) == t.game.events
    while not t.finished:  # and the game goes on to its end, stored exactly as told
        if t.prompt(0) is not None:
            t.act(0, t.prompt_legal[0][-1])
        else:
            clock.advance(clock.next_at() - clock.now())
    assert _stored(path, t.id) == t.game.events


def test_the_server_waits_only_briefly_for_another_writer_and_checks_the_file_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's connection waits SERVER_WAIT_MS (not 10 s) for a lock; the keeper's pages use it
    (its integrity was checked when it was opened), never a connection per request; a keeper write
    that cannot be stored is a 503 that changes nothing."""
    path = tmp_path / "db.sqlite"
    waits: list[int] = []
    real_wait = Store.wait_for_writes
    monkeypatch.setattr(Store, "wait_for_writes", lambda self, ms: waits.append(ms) or real_wait(self, ms))
    with TestClient(create_app(path), base_url=LOCAL) as c:
        assert waits == [SERVER_WAIT_MS]
        checks: list[str] = []
        real = store_db._check_integrity
        monkeypatch.setattr(store_db, "_check_integrity", lambda conn, where: checks.append(where) or real(conn, where))
        r = c.post("/api/keeper/sessions", json={"rules": "club", "people": ["A", "B", "C"]})
        ref = r.json()["links"]["organiser"].removeprefix("/keeper/")
        win = {"entry": {"kind": "win", "from": "B", "wins": [{"winner": "A", "han": 2, "fu": 30}]}}
        assert c.post(f"/api/keeper/sessions/{ref}/entries", json=win).json()["version"] == 1
        with c.websocket_connect(f"/ws/keeper/{ref}") as ws:
            assert json.loads(ws.receive_text())["version"] == 1
        for _ in range(3):
            c.get(f"/api/keeper/sessions/{ref}")
        assert checks == []  # not once per request
        with Lock(path):
            r = c.post(f"/api/keeper/sessions/{ref}/entries", json=win)
            assert r.status_code == 503 and "busy" in r.json()["error"] and "nothing was written" in r.json()["error"]
            assert c.get(f"/api/keeper/sessions/{ref}").json()["version"] == 1  # reads go on
        assert c.post(f"/api/keeper/sessions/{ref}/entries", json=win).json()["version"] == 2


def _record() -> str:
    """A whole game's mjai record (the engine's own)."""
    g = Game(Rules.preset("tenhou"), seed=3)
    rng = random.Random(3)
    while not g.done:
        g.apply(rng.choice(g.legal_actions(g.to_move[0])))
    return write_mjai(g)


def test_an_upload_is_read_in_a_worker_process(tmp_path: Path) -> None:
    text = _record()
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as c:
        workers = c.app.state.workers  # type: ignore[attr-defined]
        ran: list[str] = []
        real = workers.run

        async def spy(fn: Any, *args: Any, **kw: Any) -> Any:
            ran.append(fn.__name__)
            return await real(fn, *args, **kw)

        workers.run = spy
        r = c.post("/api/replays?name=x", content=text.encode(), headers={"content-type": "text/plain"})
        assert r.status_code == 200 and r.json()["kyoku"], r.text
        assert ran == ["parse_upload"] and workers._pool is not None  # the pool's process did it
        bad = c.post("/api/replays", content=b"not a record", headers={"content-type": "text/plain"})
        assert bad.status_code == 400 and "not a record" in bad.json()["error"]


def test_workers_run_in_another_process() -> None:
    import asyncio

    w = Workers(1)
    try:
        assert asyncio.run(w.run(os.getpid)) != os.getpid()
    finally:
        w.close()
