"""A throwaway PostgreSQL cluster for the tests and benchmarks: Debian's ``postgresql`` binaries
(installed by ``.ci/run``), ``initdb`` into a temporary directory, the server on a free loopback
port, stopped and removed at the end. No Docker, no network.

PostgreSQL refuses to run as root (CI runs as root): then the cluster's files belong to
``nobody`` and the server runs as that user. The server is told to stop when the process that
started it dies (``PR_SET_PDEATHSIG``), so a killed test run leaves no server behind.

    cluster = Cluster.start()
    url = cluster.create_database("t1")          # postgresql://sanma@127.0.0.1:PORT/t1
    ...
    cluster.stop()
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

USER = "sanma"  # the cluster's superuser (trust authentication on loopback)
#: Speed over durability: a test cluster is thrown away (a benchmark passes its own settings).
FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class Unavailable(RuntimeError):
    """No PostgreSQL here: its binaries or the psycopg driver are missing."""


def binaries() -> Path:
    """The directory of Debian's PostgreSQL binaries (the newest installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        which = shutil.which("initdb")
        if which is None:
            raise Unavailable("no PostgreSQL binaries (initdb): apt-get install postgresql")
        return Path(which).parent
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _child(run_as: str | None) -> Callable[[], None]:
    """What the server's process does before exec: become ``run_as``, then ask for a fast shutdown
    when the thread that started it dies (PR_SET_PDEATHSIG; set after the user change, which clears it)."""
    def setup() -> None:  # pragma: no cover - runs in the child
        if run_as is not None:
            entry = pwd.getpwnam(run_as)
            os.setgroups([])
            os.setgid(entry.pw_gid)
            os.setuid(entry.pw_uid)
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGINT)

    return setup


class Cluster:
    def __init__(self, root: Path, port: int, proc: subprocess.Popen[bytes]) -> None:
        self.root = root
        self.port = port
        self.proc = proc

    @classmethod
    def start(cls, settings: dict[str, str] | None = None) -> Cluster:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise Unavailable("the psycopg driver is not installed: pip install 'sanma[postgres]'") from None
        bindir = binaries()
        root = Path(tempfile.mkdtemp(prefix="sanma-pg-"))
        run_as: str | None = None
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            run_as = "nobody"
            entry = pwd.getpwnam(run_as)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        data = root / "data"
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8",
                        "--no-locale", "-N"], check=True, capture_output=True, user=run_as, env=env, cwd=root)
        port = free_port()
        options = {**FAST, **(settings or {})}
        args = [str(bindir / "postgres"), "-D", str(data), "-p", str(port), "-c", "listen_addresses=127.0.0.1",
                "-c", f"unix_socket_directories={root}", "-c", "max_connections=300"]
        for k, v in options.items():
            args += ["-c", f"{k}={v}"]
        log = open(root / "server.log", "wb")  # noqa: SIM115 - kept open for the server's lifetime
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root,
                                preexec_fn=_child(run_as))
        log.close()
        cluster = cls(root, port, proc)
        try:
            cluster._wait_ready()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"postgres exited: {(self.root / 'server.log').read_text()[-2000:]}")
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown: clients are disconnected
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        with contextlib.suppress(OSError):
            shutil.rmtree(self.root)
