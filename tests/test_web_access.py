"""Access (issue 23 item 3 and "Access"): who may read and change what, over HTTP and WebSocket.

A keeper session is opened by a link with a role (the organiser's, a read-only one), never by its
number; a JSON endpoint takes only ``Content-Type: application/json``; a browser's ``Origin`` must
be the server's own; the ``Host`` must be a name the server answers to. Each refusal changes
nothing. The last test is the cross-origin attack in Chromium: a page served from another port of
this machine tries everything a page can.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from sanma.cli import app as cli_app
from sanma.store import access, open_db
from sanma.web import create_app
from sanma.web.guard import LOOPBACK, host_name, served_names
from web_helpers import free_port, serving

CHROMIUM = "/usr/bin/chromium"
LOCAL = "http://127.0.0.1"
PEOPLE = {"rules": "club", "people": ["A", "B", "C"]}
WIN = {"entry": {"kind": "win", "from": "B", "wins": [{"winner": "A", "han": 2, "fu": 30}]}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as c:
        yield c


def _session(client: TestClient) -> tuple[int, str, str]:
    r = client.post("/api/keeper/sessions", json=PEOPLE)
    assert r.status_code == 200, r.text
    links = r.json()["links"]
    return r.json()["session"], links["organiser"].removeprefix("/keeper/"), links["read"].removeprefix("/keeper/")


def test_a_keeper_session_is_opened_by_its_links_each_with_its_role(client: TestClient) -> None:
    number, organiser, read = _session(client)
    assert organiser != read and len(organiser) >= 32 and len(read) >= 32
    state = client.get(f"/api/keeper/sessions/{organiser}").json()
    assert state["session"] == number and state["links"] == {"organiser": f"/keeper/{organiser}",
                                                              "read": f"/keeper/{read}"}
    assert client.post(f"/api/keeper/sessions/{organiser}/entries", json=WIN).json()["version"] == 1
    seen = client.get(f"/api/keeper/sessions/{read}").json()
    assert seen["version"] == 1 and "links" not in seen  # a read-only page sees no other link
    for path, body in ((f"/api/keeper/sessions/{read}/entries", WIN), (f"/api/keeper/sessions/{read}/undo", {}),
                       (f"/api/keeper/sessions/{read}/entries/1", {"delete": True})):
        r = client.post(path, json=body)
        assert r.status_code == 403 and "read link" in r.json()["error"], (path, r.text)
    assert client.get(f"/api/keeper/sessions/{organiser}").json()["version"] == 1  # nothing changed
    with client.websocket_connect(f"/ws/keeper/{read}") as ws:
        assert json.loads(ws.receive_text())["version"] == 1


@pytest.mark.parametrize("ref", ["1", "0", "-1", "1" * 40, "x" * 32, "%00"])
def test_a_number_or_a_guess_opens_nothing(client: TestClient, ref: str) -> None:
    """Sessions were numbered 1, 2, 3 and anyone read and changed any of them (issue 23 item 3)."""
    _, organiser, _ = _session(client)
    for method, path, body in (("GET", f"/api/keeper/sessions/{ref}", None),
                               ("GET", f"/api/keeper/sessions/{ref}/log", None),
                               ("POST", f"/api/keeper/sessions/{ref}/entries", WIN),
                               ("POST", f"/api/keeper/sessions/{ref}/undo", {})):
        r = client.request(method, path, json=body)
        assert r.status_code == 404 and r.json()["code"] == "no_link" and set(r.json()) == {"error", "code"}, r.text
    with client.websocket_connect(f"/ws/keeper/{ref}") as ws:
        assert "error" in json.loads(ws.receive_text())
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4404
    assert client.get(f"/api/keeper/sessions/{organiser}").json()["version"] == 0


def test_the_cli_issues_new_links_and_the_old_ones_stop_working(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db), base_url=LOCAL) as client:
        number, organiser, read = _session(client)
        out = CliRunner().invoke(cli_app, ["table", "links", str(number), "--db", str(db), "--json"])
        assert out.exit_code == 0, out.output
        fresh = json.loads(out.output)["links"]
        assert client.get(fresh["organiser"].replace("/keeper/", "/api/keeper/sessions/")).status_code == 200
        for old in (organiser, read):
            assert client.get(f"/api/keeper/sessions/{old}").status_code == 404
    out = CliRunner().invoke(cli_app, ["table", "links", "99", "--db", str(db)])
    assert out.exit_code == 2 and "99" in out.output
    with open_db(db) as store:  # only hashes are kept
        rows = store.conn.execute("SELECT token_sha256 FROM access_links").fetchall()
        assert rows and not any(fresh["read"].removeprefix("/keeper/") in r[0] for r in rows)
        assert access.resolve(store, fresh["read"].removeprefix("/keeper/")) == access.Grant(
            "keeper_session", str(number), "read")


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                   None, "application/jsonx"])
def test_json_endpoints_take_only_application_json(client: TestClient, ctype: str | None) -> None:
    """A ``text/plain`` POST from another origin needs no preflight: every POST parsed JSON whatever
    its Content-Type, so another site's page created tables and keeper sessions and changed entries."""
    _, organiser, _ = _session(client)
    headers = {"content-type": ctype} if ctype else {}
    body = json.dumps({"rules": "tenhou", "seats": ["random"] * 3}).encode()
    for path, payload in (("/api/tables", body), ("/api/keeper/sessions", json.dumps(PEOPLE).encode()),
                          (f"/api/keeper/sessions/{organiser}/entries", json.dumps(WIN).encode()),
                          ("/api/score", b'{"hand": "123456789p99m111z"}')):
        r = client.post(path, content=payload, headers=headers)
        assert r.status_code == 415 and "application/json" in r.json()["error"], (path, r.text)
    assert client.get("/api/tables").json()["tables"] == []
    assert client.get(f"/api/keeper/sessions/{organiser}").json()["version"] == 0
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201


def test_an_origin_other_than_the_servers_is_refused_over_http_and_websocket(client: TestClient) -> None:
    _, organiser, _ = _session(client)
    t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"],
                                         "clock": {"move": 0, "think": 0, "result": 0}}).json()
    for origin in ("http://evil.example", "http://127.0.0.1:1", "null", "http://127.0.0.1.evil.example"):
        h = {"origin": origin}
        r = client.post(f"/api/keeper/sessions/{organiser}/entries", json=WIN, headers=h)
        assert r.status_code == 403 and "another site" in r.json()["error"]
        r = client.post("/api/tables", json={"rules": "tenhou", "seats": ["random"] * 3}, headers=h)
        assert r.status_code == 403
        assert client.get(f"/api/keeper/sessions/{organiser}", headers=h).status_code == 403
        for path in (f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}", f"/ws/keeper/{organiser}"):
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(path, headers=h):
                pass
            assert refused.value.code == 4403
    assert client.get(f"/api/keeper/sessions/{organiser}").json()["version"] == 0
    assert len(client.get("/api/tables").json()["tables"]) == 1
    same = {"origin": LOCAL}  # the server's own pages send their origin: fine
    assert client.post(f"/api/keeper/sessions/{organiser}/entries", json=WIN, headers=same).status_code == 200
    with client.websocket_connect(f"/ws/tables/{t['id']}/watch", headers=same) as ws:
        assert ws.receive_json()["type"] == "hello"


def test_a_host_the_server_does_not_answer_to_is_refused(tmp_path: Path) -> None:
    """DNS rebinding: a name an attacker points at 127.0.0.1 reaches a server on a laptop."""
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://rebind.example") as c:
        r = c.get("/api/tables")
        assert r.status_code == 421 and "--allowed-host" in r.json()["error"]
        assert c.post("/api/keeper/sessions", json=PEOPLE).status_code == 421
        with pytest.raises(WebSocketDisconnect), c.websocket_connect("/ws/keeper/x"):
            pass
    with TestClient(create_app(tmp_path / "db.sqlite", hosts=served_names("127.0.0.1", ["rebind.example"])),
                    base_url="http://rebind.example:8000") as c:
        assert c.get("/api/tables").status_code == 200


def test_the_names_a_server_answers_to() -> None:
    assert served_names("127.0.0.1") == LOOPBACK and served_names("localhost", ["Club.Lan"]) == (*LOOPBACK, "club.lan")
    assert served_names("192.168.1.7") == ("192.168.1.7",)
    every = served_names("0.0.0.0")
    assert set(LOOPBACK) <= set(every) and all(n == n.lower() for n in every)
    assert host_name("[::1]:8000") == "::1" and host_name("LOCALHOST:1") == "localhost"


def test_the_edge_middlewares_leave_a_sockets_messages_alone() -> None:
    """Issue 22: Guard and LangMiddleware look at a WebSocket's handshake only; every message after it
    goes between uvicorn and the table with no wrapper of theirs in the way (the same ``receive`` and
    ``send``), so they add nothing per message."""
    import asyncio

    from sanma.web.guard import Guard
    from sanma.web.i18n import LangMiddleware

    seen: list[tuple[Any, Any]] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        seen.append((receive, send))

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        raise AssertionError(f"the middleware answered by itself: {message}")

    scope = {"type": "websocket", "path": "/ws/tables/x/mjai", "headers": [(b"host", b"127.0.0.1:8000")]}
    asyncio.run(LangMiddleware(Guard(inner))(scope, receive, send))
    assert seen == [(receive, send)]


def test_sanma_serve_on_every_interface_prints_the_address_for_the_phones(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    import uvicorn

    from sanma.web import guard

    monkeypatch.setattr(guard, "lan_addresses", lambda: ["192.168.1.23"])
    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append((app, kw)))
    out = CliRunner().invoke(cli_app, ["serve", "--host", "0.0.0.0", "--port", "8123", "--db",
                                       str(tmp_path / "db.sqlite"), "--allowed-host", "mahjong.club"])
    assert out.exit_code == 0, out.output
    assert "http://192.168.1.23:8123/" in out.output and ran
    app = ran[0][0]
    with TestClient(app, base_url="http://192.168.1.23:8123") as c:
        assert c.get("/api/tables").status_code == 200
    with TestClient(app, base_url="http://mahjong.club") as c:
        assert c.get("/api/tables").status_code == 200
    with TestClient(app, base_url="http://evil.example") as c:
        assert c.get("/api/tables").status_code == 421


# ---------------------------------------------------------------------------------------------
# The cross-origin attack, in Chromium
# ---------------------------------------------------------------------------------------------

ATTACK = """<!doctype html><meta charset="utf-8"><title>a page of another origin</title><script>
const S = %(server)s, K = %(keeper)s, T = %(table)s;
const done = [];
async function tryit(name, f) {
  try { await f(); done.push(name + ": sent"); } catch (e) { done.push(name + ": " + e); }
}
(async () => {
  const entry = JSON.stringify(%(win)s);
  // no preflight: a "simple" request the browser sends as it is (its answer is unreadable, but it arrives)
  await tryit("keeper text/plain", () => fetch(S + "/api/keeper/sessions/" + K + "/entries",
    {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"}, body: entry}));
  await tryit("keeper undo", () => fetch(S + "/api/keeper/sessions/" + K + "/undo",
    {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"}, body: "{}"}));
  await tryit("keeper json", () => fetch(S + "/api/keeper/sessions/" + K + "/entries",
    {method: "POST", headers: {"content-type": "application/json"}, body: entry}));
  await tryit("new table", () => fetch(S + "/api/tables", {method: "POST", mode: "no-cors",
    headers: {"content-type": "text/plain"},
    body: JSON.stringify({rules: "tenhou", seats: ["random", "random", "random"]})}));
  await tryit("new session", () => fetch(S + "/api/keeper/sessions", {method: "POST", mode: "no-cors",
    headers: {"content-type": "text/plain"}, body: JSON.stringify({rules: "club", people: ["X", "Y", "Z"]})}));
  await new Promise((resolve) => {  // the seat's socket (its token leaked): act at the table
    const ws = new WebSocket(S.replace("http", "ws") + "/ws/tables/" + T.id + "/play?token=" + T.token);
    ws.onmessage = (m) => { const p = JSON.parse(m.data);
      if (p.type === "prompt") ws.send(JSON.stringify({type: "action", prompt: p.prompt, id: 0})); };
    ws.onerror = () => { done.push("socket: refused"); resolve(); };
    setTimeout(resolve, 3000);
  });
  await new Promise((resolve) => {
    const ws = new WebSocket(S.replace("http", "ws") + "/ws/keeper/" + K);
    ws.onmessage = (m) => done.push("keeper socket read: " + m.data.slice(0, 40));
    ws.onerror = () => { done.push("keeper socket: refused"); resolve(); };
    setTimeout(resolve, 2000);
  });
  document.title = "done";
  document.body.textContent = JSON.stringify(done);
})();
</script>"""


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent (Debian's chromium)")
def test_a_page_on_another_loopback_origin_can_neither_write_to_the_keeper_nor_act_at_a_table(
        browser: Any, tmp_path: Path) -> None:
    """Issue 23 "How it must be shown": a page on another loopback origin (another port of this
    machine) that knows the organiser's link and a seat's token tries every write a page can make:
    simple (no-preflight) POSTs of JSON as text/plain, a CORS POST, a table and a session created,
    the seat's socket and the session's socket. Nothing is written, nothing is played, nothing is
    read. (Chromium: conftest's ``browser``; a second Playwright in the same run cannot start.)"""
    with serving(tmp_path / "db.sqlite") as (base, app):
        _, organiser, _ = _session_http(base)
        t = httpx.post(f"{base}/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"],
                                                   "seed": 1, "clock": {"move": 0, "think": 0, "result": 0}}).json()
        page = (ATTACK % {"server": json.dumps(base), "keeper": json.dumps(organiser),
                          "table": json.dumps({"id": t["id"], "token": t["seats"][0]["token"]}),
                          "win": json.dumps(WIN)}).encode()

        class Attacker(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args: Any) -> None:
                pass

        other = ThreadingHTTPServer(("127.0.0.1", free_port()), Attacker)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            context = browser.new_context()
            try:
                tab = context.new_page()
                tab.goto(f"http://127.0.0.1:{other.server_address[1]}/")
                tab.wait_for_function("document.title === 'done'", timeout=30_000)
                report = json.loads(tab.text_content("body") or "[]")
            finally:
                context.close()
        finally:
            other.shutdown()
        assert "socket: refused" in report and "keeper socket: refused" in report, report
        assert not any(r.startswith("keeper socket read") for r in report), report
        assert httpx.get(f"{base}/api/keeper/sessions/{organiser}").json()["version"] == 0  # nothing written
        assert [x["id"] for x in httpx.get(f"{base}/api/tables").json()["tables"]] == [t["id"]]  # nor created
        table = app.state.tables.running[t["id"]]
        assert table.actions == 0 and table.game.events[-1]["type"] == "tsumo"  # nothing played


def _session_http(base: str) -> tuple[int, str, str]:
    r = httpx.post(f"{base}/api/keeper/sessions", json=PEOPLE)
    assert r.status_code == 200, r.text
    links = r.json()["links"]
    return r.json()["session"], links["organiser"].removeprefix("/keeper/"), links["read"].removeprefix("/keeper/")
