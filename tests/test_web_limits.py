"""Bounded everything (issue 23 item 6 and the smaller items of 7): bodies refused as they stream,
caps and rates per client (each a setting), abandoned tables ended and stored as abandoned, the
security headers on every answer, 4xx JSON and never a 500."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from sanma.cli import app as cli_app
from sanma.store import open_db
from sanma.web import create_app
from sanma.web.limits import Limits
from sanma.web.scheduler import ManualClock
from web_helpers import serving

LOCAL = "http://127.0.0.1"
BOTS = {"rules": {"extends": "tenhou", "round_winds": "E"}, "seats": ["human", "random", "random"],
        "clock": {"move": 0, "think": 0, "result": 0}}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ManualClock, TestClient]]:
    clock = ManualClock()
    limits = Limits(tables_per_minute=3, tables_per_client=5, tables=6, sessions_per_minute=2, uploads_per_minute=2,
                    sockets_per_client=3, watchers_per_table=2, abandon_after=3600)
    with TestClient(create_app(tmp_path / "db.sqlite", clock=clock, limits=limits), base_url=LOCAL) as c:
        yield clock, c


def test_tables_a_client_may_create_are_rated_and_capped(served: tuple[ManualClock, TestClient]) -> None:
    """2,000 tables in 4 s (issue 23 item 7): a rate per client, a cap per client and one for the server."""
    clock, c = served
    assert [c.post("/api/tables", json=BOTS).status_code for _ in range(4)] == [201, 201, 201, 429]
    r = c.post("/api/tables", json=BOTS)
    assert r.status_code == 429 and "a minute" in r.json()["error"]
    clock.advance(40_000)  # two more tokens
    assert [c.post("/api/tables", json=BOTS).status_code for _ in range(2)] == [201, 201]
    clock.advance(60_000)
    r = c.post("/api/tables", json=BOTS)  # five unfinished tables of this client already
    assert r.status_code == 429 and "unfinished tables" in r.json()["error"]
    tables = c.app.state.tables  # type: ignore[attr-defined]
    next(iter(tables.running.values())).creator = "10.0.0.9"  # one of them another client's
    assert c.post("/api/tables", json=BOTS).status_code == 201
    r = c.post("/api/tables", json=BOTS)  # six unfinished tables: the server's cap
    assert r.status_code == 503 and "as many tables" in r.json()["error"]
    assert len(c.get("/api/tables").json()["tables"]) == 6


def test_sessions_and_uploads_are_rated(served: tuple[ManualClock, TestClient]) -> None:
    _, c = served
    people = {"rules": "club", "people": ["A", "B", "C"]}
    assert [c.post("/api/keeper/sessions", json=people).status_code for _ in range(3)] == [200, 200, 429]
    codes = [c.post("/api/replays", content=b"x", headers={"content-type": "text/plain"}).status_code
             for _ in range(3)]
    assert codes == [400, 400, 429]  # two read (not records), the third refused unread


def test_sockets_per_client_and_spectators_per_table_are_capped(served: tuple[ManualClock, TestClient]) -> None:
    _, c = served
    t = c.post("/api/tables", json=BOTS).json()
    watch = f"/ws/tables/{t['id']}/watch"
    with c.websocket_connect(watch) as a, c.websocket_connect(watch) as b:
        assert a.receive_json()["type"] == "hello" and b.receive_json()["type"] == "hello"
        with c.websocket_connect(watch) as third:  # the table's third spectator
            m = third.receive_json()
            assert m["code"] == "too_many" and "spectators" in m["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 4429
        with c.websocket_connect(f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}") as seat:
            assert seat.receive_json()["type"] == "hello"
            with c.websocket_connect(watch) as fourth:  # the client's fourth socket
                m = fourth.receive_json()
                assert m["code"] == "too_many" and "sockets" in m["message"]
    with c.websocket_connect(watch) as again:  # closed sockets are counted no more
        assert again.receive_json()["type"] == "hello"


def test_a_table_whose_people_are_all_away_ends_and_is_stored_as_abandoned(tmp_path: Path) -> None:
    """Tables nobody plays never ended and every start rebuilt them (issue 23 item 7)."""
    clock = ManualClock()
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db, clock=clock, limits=Limits(abandon_after=60)), base_url=LOCAL) as c:
        t = c.post("/api/tables", json=BOTS).json()
        kept = c.post("/api/tables", json=BOTS).json()
        play = f"/ws/tables/{kept['id']}/play?token={kept['seats'][0]['token']}"
        with c.websocket_connect(play) as ws, c.websocket_connect(f"/ws/tables/{t['id']}/watch") as watcher:
            assert ws.receive_json()["type"] == "hello"
            clock.advance(59_999)
            assert not c.get(f"/api/tables/{t['id']}").json()["finished"]
            clock.advance(1)
            info = c.get(f"/api/tables/{t['id']}").json()  # nobody of it came: a spectator is nobody
            assert info["finished"] and info["abandoned"] and info["seed"] and "result" not in info
            assert next(m for m in iter(watcher.receive_json, None) if m["type"] == "abandoned")
            assert not c.get(f"/api/tables/{kept['id']}").json()["finished"]  # its person is here
        clock.advance(59_999)  # the person left: the clock runs again from then
        assert not c.get(f"/api/tables/{kept['id']}").json()["finished"]
        clock.advance(1)
        assert c.get(f"/api/tables/{kept['id']}").json()["abandoned"]
        r = c.get(f"/api/tables/{t['id']}/record")
        assert r.status_code == 409 and "abandoned" in r.json()["error"]
        listing = {x["id"]: x for x in c.get("/api/tables").json()["tables"]}
        assert listing[t["id"]]["finished"] and listing[t["id"]]["abandoned"]
        assert c.app.state.tables.running == {}  # type: ignore[attr-defined]
    with open_db(db) as store:
        rows = store.conn.execute("SELECT finished, game_id FROM web_tables").fetchall()
        assert rows == [(1, None), (1, None)] and store.games() == []
    with TestClient(create_app(db), base_url=LOCAL) as c:  # not resumed by the next start
        assert c.app.state.tables.running == {}  # type: ignore[attr-defined]


def test_bodies_are_refused_as_they_stream_past_their_limit(tmp_path: Path) -> None:
    """A 300 MB POST raised the server's memory by 526-572 MB (issue 23 item 6): a Content-Length
    over the limit is refused before any byte is read, and a body that streams (chunked, no length)
    is answered 413 at its first chunk over the limit, while the rest has not even been sent."""
    with serving(tmp_path / "db.sqlite") as (base, _):
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b"[" + b"1," * 20_000 + b"1]"
            for _ in range(4):  # 160 kB of an endless body: more than the 128 kB limit
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            answer = _answer(s)
        assert answer.startswith(b"HTTP/1.1 413") and b"too large" in answer, answer[:200]
        for path, size in (("/api/tables", 10**9), ("/api/keeper/sessions", 200_000), ("/api/score", 200_000),
                           ("/api/replays", 5_000_000)):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                ctype = b"text/plain" if path == "/api/replays" else b"application/json"
                s.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n"
                          % (path.encode(), ctype, size))  # and not one byte of it
                answer = _answer(s)
            assert answer.startswith(b"HTTP/1.1 413") and b'{"error":' in answer, (path, answer[:200])


def _answer(s: socket.socket) -> bytes:
    """An HTTP answer's head and its JSON body (the server may close the rest of the connection)."""
    data = b""
    while not data.endswith(b"}"):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


@pytest.mark.parametrize("path", ["/", "/t/x", "/keeper", "/static/tiles.js", "/api/tables", "/api/tables/nope",
                                  "/nope"])
def test_every_answer_has_the_security_headers(tmp_path: Path, path: str) -> None:
    """A seat page (its URL holds the token) could be framed by another origin and its token left
    in the Referer of 4 requests; no CSP, no nosniff (issue 23 item 7)."""
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as c:
        r = c.get(path)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "'unsafe-eval'" not in csp
        assert "connect-src 'self' ws://127.0.0.1 wss://127.0.0.1" in csp
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"


def test_hostile_json_and_numbers_are_4xx_never_500(tmp_path: Path) -> None:
    """JSON nested 1,000 deep and keeper numbers of 10**30 gave a 500 with a traceback; a frame
    nested 2,000 deep closed the socket instead of answering malformed (issue 23 item 7)."""
    deep = "[" * 1000 + "]" * 1000
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as c:
        for path in ("/api/tables", "/api/keeper/sessions", "/api/score"):
            r = c.post(path, content=deep.encode(), headers={"content-type": "application/json"})
            assert r.status_code == 400 and "nested" in r.json()["error"], (path, r.text)
            ja = {"content-type": "application/json", "accept-language": "ja"}
            r = c.post(path, content=deep.encode(), headers=ja)
            assert r.json()["code"] == "malformed" and "入れ子" in r.json()["error"], (path, r.text)  # in its words
        s = c.post("/api/keeper/sessions", json={"rules": "club", "people": ["A", "B", "C"]}).json()
        ref = s["links"]["organiser"].removeprefix("/keeper/")
        r = c.post(f"/api/keeper/sessions/{ref}/entries/{10**30}", json={"delete": True})
        assert r.status_code in (404, 422) and "error" in r.json(), r.text
        r = c.post(f"/api/keeper/sessions/{ref}/undo", json={"change": 10**30})
        assert r.status_code == 400 and "whole number" in r.json()["error"]
        r = c.post(f"/api/keeper/sessions/{ref}/entries", json={"entry": {"kind": "draw"}, "expected_version": 10**30})
        assert r.status_code == 400
        t = c.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "mjai", "random"], "seed": 1,
                                        "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}).json()
        with c.websocket_connect(f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}") as ws:
            ws.send_text("[" * 2000 + "]" * 2000)
            m = next(m for m in iter(ws.receive_json, None) if m["type"] == "error")
            assert m["code"] == "malformed" and "nested" in m["message"]
            ws.send_json({"type": "ping", "t": 1})
            assert next(m for m in iter(ws.receive_json, None) if m["type"] == "pong")  # still open


def test_an_mjai_frame_over_the_limit_is_asked_again_with_its_actions(tmp_path: Path) -> None:
    """An mjai frame over 4 kB was refused without possible_actions, leaving the bot waiting."""
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as c:
        t = c.post("/api/tables", json={"rules": "tenhou", "seats": ["mjai", "random", "random"], "seed": 1,
                                        "clock": {"move": 0, "think": 0, "result": 0}}).json()
        with c.websocket_connect(f"/ws/tables/{t['id']}/mjai?token={t['seats'][0]['token']}") as ws:
            possible = ws.receive_json()[-1]["possible_actions"]
            ws.send_text(json.dumps({"type": "dahai", "pad": "x" * 5000}))
            again = ws.receive_json()
            assert again[0]["type"] == "error" and "4096 bytes" in again[0]["message"]
            assert again[0]["possible_actions"] == possible
            ws.send_json(next(a for a in possible if a["type"] == "dahai"))
            assert ws.receive_json()[0]["type"] != "error"


def test_sanma_serve_takes_its_limits_and_the_proxies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append((app, kw)))
    db = str(tmp_path / "db.sqlite")
    out = CliRunner().invoke(cli_app, ["serve", "--db", db, "--limit", "tables=7", "--limit", "abandon_after=90",
                                       "--forwarded-allow-ips", "10.0.0.1"])
    assert out.exit_code == 0, out.output
    app, kw = ran[0]
    assert kw["proxy_headers"] and kw["forwarded_allow_ips"] == "10.0.0.1"
    with TestClient(app, base_url=LOCAL) as c:
        assert c.app.state.tables.limits == Limits(tables=7, abandon_after=90.0)  # type: ignore[attr-defined]
    for bad in ("tables", "tables=-1", "nope=3", "tables=many"):
        out = CliRunner().invoke(cli_app, ["serve", "--db", db, "--limit", bad])
        assert out.exit_code == 2 and "--limit" in out.output, (bad, out.output)


def test_limits_parse() -> None:
    assert Limits.parse(["watchers_per_table = 5", "abandon_after=0.5"]) == Limits(watchers_per_table=5,
                                                                                  abandon_after=0.5)
    with pytest.raises(ValueError, match="NAME one of tables_per_minute"):
        Limits.parse(["x=1"])


_ = threading  # the served app runs in a thread (web_helpers.serving)
