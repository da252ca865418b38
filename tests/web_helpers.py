"""Start the real server (uvicorn) on 127.0.0.1 on a free port, in a thread, for a test."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator

import uvicorn

from sanma.web import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(db_path: str | os.PathLike[str], *, port: int | None = None,
                   **app_options: object) -> Iterator[str]:
    """``with running_server(tmp_path / "db.sqlite") as base:`` -> ``"http://127.0.0.1:PORT"``.

    The server is stopped (and its thread joined) when the block ends, even on failure.
    """
    app = create_app(db_path, **app_options)  # type: ignore[arg-type]
    port = port or free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            thread.join(5)
            raise RuntimeError(f"the test server on port {port} did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)
