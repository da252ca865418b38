"""Shared test set-up: no test writes the user's database."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that store by default (``sanma play``, ``sanma stats``) write to a temporary file."""
    monkeypatch.setenv("SANMA_DB", str(tmp_path / "sanma.sqlite"))


@pytest.fixture(autouse=True, scope="session")
def _test_client_sockets_use_its_base_url() -> None:
    """Starlette's TestClient joins a WebSocket path with ``ws://testserver`` whatever its
    ``base_url``; the server checks the ``Host`` of every request (web/guard.py), so a client made
    with ``base_url="http://127.0.0.1"`` opens its sockets on that name too."""
    from starlette.testclient import TestClient

    real = TestClient.websocket_connect
    if getattr(real, "_uses_base_url", False):
        return

    def websocket_connect(self: TestClient, url: str, *args: object, **kwargs: object) -> object:
        if url.startswith("/"):
            url = f"ws://{self.base_url.netloc.decode()}{url}"
        return real(self, url, *args, **kwargs)  # type: ignore[arg-type]

    websocket_connect._uses_base_url = True  # type: ignore[attr-defined]
    TestClient.websocket_connect = websocket_connect  # type: ignore[assignment,method-assign]
