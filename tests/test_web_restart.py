"""Persistence (issue 11 item 1): the server killed mid-hand and started again on the same database
goes on with the game where it stood; the finished game is the same game a never-stopped server plays."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from websockets.sync.client import connect

from sanma.store import open_db
from sanma.store import tables as stored
from web_helpers import choose, serving, ws_url

TABLE = {"rules": {"extends": "tenhou", "round_winds": "E"}, "seats": ["human", "efficient", "random"],
         "seed": 21, "clock": {"move": 0}}


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
                ws.send(json.dumps({"type": "action", "seq": m["seq"], "id": choose(m["actions"], rng)["id"]}))
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
        assert view_after["seq"] == view_before["seq"]
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
