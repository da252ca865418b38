"""The server skeleton: pages, JSON errors, and the real uvicorn server in a thread (issue 11 item 1)."""

from __future__ import annotations

from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from sanma.web import create_app
from web_helpers import running_server


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
