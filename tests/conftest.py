"""Shared test set-up: no test writes the user's database; `make test-fast` leaves out the slow
tests; the PostgreSQL test cluster.

The store's tests run on both backends through ``db_target`` (a SQLite file, then a fresh
PostgreSQL schema). The PostgreSQL cluster (tests/pg_cluster.py) starts once per run, on first
use; where PostgreSQL or psycopg is missing its tests are skipped, except under ``CI=true``, where
they fail (.ci/run installs both).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pg_cluster import Cluster, Unavailable

BACKENDS = ("sqlite", "postgresql")
_names = itertools.count(1)

# `make test-fast` runs `pytest -m "not slow"`: the pure layers and unit tests, in under a minute.
# Slow as a whole are the modules that start servers, browsers, bot or worker processes, or play
# seeded games by the hundred; a slow test elsewhere carries its own @pytest.mark.slow.
SLOW_MODULES = (
    "test_web_",  # the server in-process or as a process, and Chromium (test_web_browser)
    "test_keeper_web",  # the keeper's pages in Chromium
    "test_sim",  # local worker processes, Ray, report plots
    "test_hostile_interrupt", "test_hostile_mjai.py", "test_hostile_seed", "test_mjai_bot",  # child processes
    "test_engine_invariants",  # property tests over thousands of random games
    "test_play",  # the terminal game, whole games scripted
    "test_env_",  # Gymnasium / PettingZoo API checks over whole games
    "test_keeper_engine",  # engine games fed to the keeper
    "test_native",  # the compiled and pure builds in subprocesses
    "test_jansou_bridge",
    "test_corpus",  # the whole Tenhou Phoenix corpus through the engine
    "test_server_lock",  # sanma serve as processes
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith(SLOW_MODULES):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _speaks_english() -> Iterator[None]:
    """Every test starts in English: a command run with ``--lang ja`` sets the language of its
    context, which a later test's in-process command (a CliRunner on one command, without the root
    group that reads the language again) would otherwise inherit, depending on the tests' order."""
    from sanma.i18n.lang import speaking

    with speaking("en"):
        yield


@pytest.fixture(autouse=True)
def _private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that store by default (``sanma play``, ``sanma stats``) write to a temporary file."""
    monkeypatch.setenv("SANMA_DB", str(tmp_path / "sanma.sqlite"))


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster for this test run (skipped where there is none, failed under CI)."""
    try:
        cluster = Cluster.start()
    except Unavailable as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is needed under CI: {e}")
        pytest.skip(f"no PostgreSQL: {e}")
    try:
        cluster.sql("CREATE DATABASE sanma_test")
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> Iterator[str]:
    """A fresh, empty PostgreSQL schema of its own (its URL sets the search path to it)."""
    schema = f"t{os.getpid()}_{next(_names)}"
    pg_cluster.sql(f"CREATE SCHEMA {schema}", "sanma_test")
    yield f"{pg_cluster.url('sanma_test')}?options=-csearch_path%3D{schema}"
    pg_cluster.sql(f"DROP SCHEMA {schema} CASCADE", "sanma_test")


@pytest.fixture
def pg_database(pg_cluster: Cluster) -> Iterator[str]:
    """A fresh PostgreSQL database of its own (what several server processes share: their
    notifications and advisory locks are per database)."""
    name = f"sanma_{os.getpid()}_{next(_names)}"
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


@pytest.fixture(params=BACKENDS)
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's database is, once per backend: a new SQLite file, a new PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "db.sqlite")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def keeper() -> Iterator[Any]:
    """A score keeper (``sanma.keeper.keeper.Keeper``) over an in-memory database."""
    from sanma.keeper.keeper import Keeper
    from sanma.store import open_db

    store = open_db(":memory:")
    yield Keeper(store)
    store.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium (/usr/bin/chromium) driven by Playwright, one for the whole run (the browser
    tests skip themselves where it is absent); never ``playwright install``."""
    from playwright.sync_api import sync_playwright

    from browser_helpers import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()
