"""The keeper's live pages (``/ws/keeper/REF``) are served by one watch per server process: a
write through the server reaches every page of its session at once, a write by another process
(a second server, ``sanma table``) at the watch's next look, and each look is one query for every
watched session whatever the number of pages (each page's socket used to ask for its session's
version every 0.3 s: 100 phones were 330 queries a second)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import sanma.web.keeper as web_keeper
from sanma.keeper.keeper import Keeper
from sanma.store import open_db
from sanma.web import create_app

LOCAL = "http://127.0.0.1"
DRAW = {"entry": {"kind": "draw", "tenpai": ["A"]}}


def test_one_watch_serves_every_page_and_looks_once_for_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_keeper, "POLL_SECONDS", 3600.0)  # the test looks itself: no wall time
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db), base_url=LOCAL) as c:
        refs, numbers = [], []
        for people in (["A", "B", "C"], ["A", "D", "E"]):
            made = c.post("/api/keeper/sessions", json={"rules": "club", "people": people}).json()
            refs.append(made["links"]["organiser"].removeprefix("/keeper/"))
            numbers.append(made["session"])
        read = made["links"]["read"].removeprefix("/keeper/")  # a read-only link's page is told too
        with (c.websocket_connect(f"/ws/keeper/{refs[0]}") as p1, c.websocket_connect(f"/ws/keeper/{refs[0]}") as p2,
              c.websocket_connect(f"/ws/keeper/{refs[1]}") as p3, c.websocket_connect(f"/ws/keeper/{read}") as p4):
            pages: list[Any] = [p1, p2, p3, p4]
            assert [json.loads(p.receive_text())["version"] for p in pages] == [0, 0, 0, 0]
            watch = c.app.state.keeper_watch  # type: ignore[attr-defined]
            assert {k: len(v) for k, v in watch.pages.items()} == {numbers[0]: 2, numbers[1]: 2}

            # a write through the server: its session's pages are told at once (no look needed)
            assert c.post(f"/api/keeper/sessions/{refs[0]}/entries", json=DRAW).json()["version"] == 1
            assert [json.loads(p.receive_text())["version"] for p in (p1, p2)] == [1, 1]

            # a write by another process (the CLI on the same file): told at the watch's next look
            with open_db(db) as other:
                Keeper(other).add(numbers[1], {"kind": "draw", "tenpai": ["D"]})
            before = watch.queries
            c.portal.call(watch.look)  # type: ignore[union-attr]
            c.portal.call(watch.look)  # type: ignore[union-attr]
            assert watch.queries - before == 2  # one query a look, for four pages on two sessions
            assert [json.loads(p.receive_text())["version"] for p in (p3, p4)] == [1, 1]


def test_a_page_on_a_link_that_opens_nothing_is_told_why(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as c, c.websocket_connect("/ws/keeper/1") as ws:
        assert "opened by its link" in json.loads(ws.receive_text())["error"]
