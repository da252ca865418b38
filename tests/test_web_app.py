"""The server skeleton: pages, JSON errors, and the real uvicorn server in a thread (issue 11 item 1)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from sanma.web import create_app
from web_helpers import free_port, running_server

ROOT = Path(__file__).resolve().parents[1]


def test_unknown_path_is_a_json_error_not_a_page(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1")
    r = client.get("/no/such/page")
    assert r.status_code == 404
    assert r.json() == {"error": "Not Found", "code": "not_found"}


def test_running_server_serves_and_stops(tmp_path: Path) -> None:
    with running_server(tmp_path / "db.sqlite") as base:
        assert httpx.get(f"{base}/api/health").json() == {"ok": True}
    try:
        httpx.get(f"{base}/api/health", timeout=1)
    except httpx.TransportError:
        pass
    else:
        raise AssertionError("the server still answers after the block")


def test_serve_refuses_an_unusable_database_in_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sanma.cli import app as cli

    r = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path)])
    assert r.exit_code == 2 and "is a directory" in r.output and "Traceback" not in r.output


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
@pytest.mark.parametrize(("sig", "to"), [(signal.SIGINT, "group"), (signal.SIGTERM, "group"), (signal.SIGTERM, "make")],
                         ids=["ctrl-c", "sigterm-to-the-group", "sigterm-to-make"])
def test_make_run_stops_cleanly(tmp_path: Path, sig: signal.Signals, to: str) -> None:
    """Issue 18 (minor): a stopped ``make run`` ended with make's "make: *** [Makefile: run] Terminated"
    — uvicorn, having shut the server down cleanly, raised the SIGTERM again and the server died of it.
    Ctrl-C (SIGINT to the terminal's process group) and a SIGTERM (to the group, or to make alone,
    which passes it on) now stop it without a word from make: the server exits 0 (else make would say
    "Error N" or the signal), and its port is free. (``-o install``: the recipe, not the install.)"""
    port = free_port()
    proc = subprocess.Popen(["make", "-o", "install", "run", f"PORT={port}", f"DB={tmp_path / 'db.sqlite'}"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, env={**os.environ, "SANMA_LANG": "en"})
    try:
        end = time.monotonic() + 60
        while True:
            assert proc.poll() is None and time.monotonic() < end, "make run did not serve"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        (os.killpg if to == "group" else os.kill)(proc.pid, sig)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert f"open http://127.0.0.1:{port}/" in out and f"serving http://127.0.0.1:{port}/" in out, out
    assert "make: ***" not in out and "Terminated" not in out and "Traceback" not in out, out
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)


@pytest.mark.parametrize("deflate", [False, True], ids=["default", "ws-deflate"])
def test_serve_compresses_websocket_messages_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            deflate: bool) -> None:
    """Issue 22: per-message deflate cost about a tenth of the served process's instructions per mjai
    action (each ~1 kB frame compressed for its seat; docs/PERFORMANCE.md), so ``sanma serve`` does not
    offer it unless ``--ws-deflate`` asks. The settings ``serve`` gives uvicorn are run here for real,
    and a client that asks for compression (websockets does by default) is answered accordingly."""
    import threading

    import uvicorn
    from typer.testing import CliRunner
    from websockets.sync.client import connect

    from sanma.cli import app as cli
    from sanma.web.protocol import WebSocketProtocol

    ran: list[tuple[object, dict[str, object]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append((app, kw)))
    port = free_port()
    out = CliRunner().invoke(cli, ["serve", "--port", str(port), "--db", str(tmp_path / "db.sqlite"),
                                   *(["--ws-deflate"] if deflate else [])])
    assert out.exit_code == 0, out.output
    app, kw = ran[0]
    assert kw["ws"] is WebSocketProtocol  # reading paused only when messages wait (tests/test_web_protocol.py)
    server = uvicorn.Server(uvicorn.Config(app, **kw))  # type: ignore[arg-type]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        end = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < end, "the server did not start"
            time.sleep(0.02)
        base = f"127.0.0.1:{port}"
        t = httpx.post(f"http://{base}/api/tables", json={"rules": "tenhou", "seats": ["mjai"] * 3}).json()
        with connect(f"ws://{base}/ws/tables/{t['id']}/mjai?token={t['seats'][0]['token']}") as ws:
            assert ws.response is not None
            offered = "permessage-deflate" in ws.request.headers.get("Sec-WebSocket-Extensions", "")  # type: ignore[union-attr]
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions", "")
            assert offered and ("permessage-deflate" in agreed) is deflate, agreed
            assert json.loads(ws.recv(timeout=30))[0]["type"] == "start_game"
    finally:
        server.should_exit = True
        thread.join(30)
