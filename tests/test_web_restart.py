"""Persistence (issue 11 item 1): the server killed mid-hand and started again on the same database
goes on with the game where it stood; the finished game is the same game a never-stopped server plays."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from sanma.store import open_db
from sanma.store import tables as stored
from sanma.web import create_app
from sanma.web.scheduler import ManualClock
from sanma.web.tables import TableError, Tables
from web_helpers import choose, serving, ws_url

TABLE = {"rules": {"extends": "tenhou", "round_winds": "E"}, "seats": ["human", "efficient", "random"],
         "seed": 21, "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}


def _play(url: str, rng: random.Random, limit: int | None) -> tuple[list[dict[str, Any]], int]:
    """Play prompts until ``limit`` actions (then drop the connection) or the end of the game."""
    seen: list[dict[str, Any]] = []
    acted = 0
    with connect(url, open_timeout=30) as ws:
        while True:
            m = json.loads(ws.recv(timeout=120))  # a silent server fails the test, never hangs it
            seen.append(m)
            assert m["type"] != "error", m
            if m["type"] == "game_result" or (limit is not None and acted >= limit and m["type"] == "prompt"):
                break
            if m["type"] == "prompt":
                ws.send(json.dumps({"type": "action", "prompt": m["prompt"], "id": choose(m["actions"], rng)["id"]}))
                acted += 1
    return seen, acted


def _last(seen: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(m for m in reversed(seen) if m["type"] == kind)


def test_a_restarted_server_resumes_the_table_mid_hand(db_target: str) -> None:
    """On SQLite and on PostgreSQL (issue 22 item 1)."""
    db = db_target
    rng = random.Random(8)
    with serving(db, rate=1000, burst=1000) as (base, _):
        t = httpx.post(f"{base}/api/tables", json=TABLE).json()
        path = f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}"
        before, _ = _play(ws_url(base, path), rng, 12)
        view_before, prompt_before = _last(before, "view"), _last(before, "prompt")
    # the server is gone; a new one on the same database
    with serving(db, rate=1000, burst=1000) as (base, app):
        after, _ = _play(ws_url(base, path), rng, 0)
        view_after, prompt_after = _last(after, "view"), _last(after, "prompt")
        assert view_after["view"] == view_before["view"]  # the same hand, the same tiles, the same turn
        assert [a["label"] for a in prompt_after["actions"]] == [a["label"] for a in prompt_before["actions"]]
        final, _ = _play(ws_url(base, path), rng, None)
        assert final[-1]["type"] == "game_result"
        assert t["id"] not in app.state.tables.running  # finished and stored: read from the store
        with open_db(db) as store:
            events = stored.events(store, t["id"])
        assert httpx.get(f"{base}/api/tables/{t['id']}/replay").json()["events"][1:] == events[1:]
    # a third server rebuilds the finished game from the seed and the stored actions: the same events
    with serving(db) as (base, _):
        assert httpx.get(f"{base}/api/tables/{t['id']}/replay").json()["events"][1:] == events[1:]
        assert httpx.get(f"{base}/api/tables/{t['id']}").json()["seed"] == "21"


POISONS = ["a\x00b", "a\tb", "a\nb", "a\ud800", "(R2200)"]


@pytest.mark.parametrize("name", POISONS)
def test_a_name_the_store_would_refuse_is_refused_when_the_table_is_made(tmp_path: Path, name: str) -> None:
    """Issue 23 item 2: a seat name with NUL, a tab, an inner newline or a lone surrogate passed
    table creation and was refused by the store at the game's end (the table never finished, the
    next start failed). Now the store's own rule (``store.check_name``) refuses it at once."""
    def post(c: TestClient, body: Any) -> Any:  # as JSON text: "\ud800" escaped, as a hostile client sends it
        return c.post("/api/tables", content=json.dumps(body).encode(), headers={"content-type": "application/json"})

    with TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1") as c:
        r = post(c, {"rules": "tenhou", "seats": ["efficient", "random", "tsumogiri"], "names": [name, "b", "c"]})
        assert r.status_code == 400 and ("seat 0's name" in r.json()["error"]  # the store's rule, or at the edge:
                                         or "lone surrogate" in r.json()["error"]), r.text  # no request holds one
        assert c.get("/api/tables").json()["tables"] == []
        r = post(c, {"rules": "tenhou", "seats": ["efficient", "random", "tsumogiri"], "seed": "7\ud800"})
        assert r.status_code == 400 and "lone surrogate" in r.json()["error"]
    with open_db(tmp_path / "db.sqlite") as store:  # and the store's own rule where the edge lets text in
        tables = Tables(store, ManualClock())
        for body in ({"rules": "tenhou", "seats": ["efficient", "random", "tsumogiri"], "names": [name, "b", "c"]},
                     {"rules": "tenhou", "seats": ["efficient", "random", "tsumogiri"], "seed": "7\ud800"}):
            with pytest.raises(TableError, match=r"seat 0's name|'seed' holds"):
                tables.create(body)
        assert tables.listing() == []


@pytest.mark.parametrize("name", ["a\tb", "a\ud800"])
def test_a_table_that_cannot_be_finished_does_not_stop_the_next_start(tmp_path: Path, name: str) -> None:
    """The poisoned-name restart (issue 23 item 2): a database where an older server left a finished
    game whose name the store refuses. The next ``sanma serve`` on it starts, reports the table
    (409 naming why) and serves every other table; the lobby's list answers."""
    db = tmp_path / "db.sqlite"
    clock = ManualClock()
    with open_db(db) as store:
        tables = Tables(store, clock)
        real_finish = stored.finish  # the last transition's write stores the finished game with it
        stored.finish = lambda *a, **k: None  # the process died here
        try:
            bad, _ = tables.create({"rules": TABLE["rules"], "seats": ["efficient", "random", "tsumogiri"],
                                    "seed": 3})
            while not bad.game.done:
                clock.advance(0)
        finally:
            stored.finish = real_finish
        good, tokens = tables.create(TABLE)
        seats = json.loads(store.conn.execute("SELECT seats FROM web_tables WHERE id = ?", (bad.id,)).fetchone()[0])
        seats[0]["name"] = name  # what the older server let in at creation
        with store.transaction():
            store.conn.execute("UPDATE web_tables SET seats = ? WHERE id = ?", (json.dumps(seats), bad.id))
        tables.close()
    with serving(db) as (base, app):
        assert app.state.tables.broken.keys() == {bad.id} and good.id in app.state.tables.running
        r = httpx.get(f"{base}/api/tables/{bad.id}")
        assert r.status_code == 409 and "could not be resumed" in r.json()["error"], r.text
        assert "not stored" in r.json()["error"]
        listing = httpx.get(f"{base}/api/tables")
        assert listing.status_code == 200 and {t["id"] for t in listing.json()["tables"]} == {bad.id, good.id}
        with connect(ws_url(base, f"/ws/tables/{bad.id}/watch"), open_timeout=30) as ws:
            assert json.loads(ws.recv(timeout=30))["code"] == "no_such_table"
        seen, _ = _play(ws_url(base, f"/ws/tables/{good.id}/play?token={tokens[0]}"), random.Random(1), 1)
        assert any(m["type"] == "prompt" for m in seen)  # the other table plays on
