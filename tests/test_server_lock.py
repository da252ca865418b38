"""One ``sanma serve`` per SQLite file (issue 22 item 4): a second server on the same file is
refused with a clear message instead of starting (two would overwrite each other's games); the
lock is the kernel's, so ``kill -9`` of the first frees it at once; the CLI's own commands on the
file are never refused while a server runs."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from sanma.cli import app
from sanma.store import open_db
from sanma.store.lock import ServerLocked, acquire_server_lock, lock_path
from web_helpers import free_port, sanma_serve, serving


def test_a_second_server_on_the_same_sqlite_file_is_refused_and_kill_9_frees_the_file(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite")
    first_port, second_port = free_port(), free_port()
    with sanma_serve(db, first_port) as (_, first):
        table = httpx.post(f"http://127.0.0.1:{first_port}/api/tables",
                           json={"rules": "tenhou", "seats": ["random", "random", "random"], "seed": 3}).json()["id"]
        with sanma_serve(db, second_port, wait=False) as (_, second):
            assert second.wait(60) == 2
            assert second.stderr is not None
            err = second.stderr.read()
        lines = [line for line in err.splitlines() if line.startswith("error: ")]  # (a build warning may come first)
        assert lines == [line for line in err.splitlines() if "error" in line], err
        assert lines[0].startswith(f"error: {db} is already served by another sanma serve (pid {first.pid}"), err
        assert f"http://127.0.0.1:{first_port}/" in err and "PostgreSQL" in err and "Traceback" not in err
        assert httpx.get(f"http://127.0.0.1:{first_port}/api/tables/{table}").status_code == 200  # untouched

        # the CLI's own commands go on using the file while the server runs
        runner = CliRunner()
        made = runner.invoke(app, ["table", "new", "--rules", "tenhou", "--people", "A,B,C", "--db", db])
        assert made.exit_code == 0, made.output
        assert runner.invoke(app, ["stats", "--db", db]).exit_code in (0, 2)  # reads (2: no finished game yet)
        assert "already served" not in runner.invoke(app, ["stats", "--db", db]).output

        first.send_signal(signal.SIGKILL)  # no clean-up of any kind
        first.wait(10)
        with sanma_serve(db, second_port) as (_, third):  # at once: the kernel released the lock with the process
            assert httpx.get(f"http://127.0.0.1:{second_port}/api/tables/{table}").status_code == 200
            with pytest.raises(ServerLocked, match=f"pid {third.pid}"):
                acquire_server_lock(db)


def test_an_application_on_a_served_file_does_not_start_and_memory_is_never_locked(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from sanma.web import create_app

    db = str(tmp_path / "x.sqlite")
    with serving(db), pytest.raises(ServerLocked, match="already served"), TestClient(create_app(db)):
        pass  # pragma: no cover - the second application never starts
    with serving(db):  # the first one's lock went with it
        pass
    with acquire_server_lock(":memory:") as a, acquire_server_lock(":memory:") as b:
        assert not a.held and not b.held
    assert Path(lock_path(db)).exists()  # a stale lock file is no lock
    with acquire_server_lock(db) as lock:
        assert lock.held
    open_db(db).close()


def test_servers_on_one_postgresql_database_each_hold_their_own_key(pg_database: str) -> None:
    """On PostgreSQL any number of servers share the database (issue 22 item 2): each holds a key
    of its own while it lives, which the others see; a key ends with its process's connection."""
    from sanma.store import tables as stored

    with acquire_server_lock(pg_database) as a, acquire_server_lock(pg_database) as b:
        assert a.held and b.held and a.node is not None and b.node is not None and a.node != b.node
        with open_db(pg_database) as s:
            assert {a.node, b.node} <= stored.live_nodes(s)
        b.release()
        with open_db(pg_database) as s:
            assert a.node in stored.live_nodes(s) and b.node not in stored.live_nodes(s)
