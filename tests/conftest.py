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

# The layers (issue 20). `make test-fast` (`pytest -m "not slow"`) runs the pure layers through the
# Python API — tiles, shanten, yaku and scoring, payouts, rules, the engine, bots' unit tests, records
# and replay, the keeper's arithmetic, the vocabulary — in under a minute; `make test` runs all.
# A test module is fast when its name starts with one of FAST_MODULES: every other module is slow
# (the store on SQLite and PostgreSQL, the server in-process or as processes, Chromium, the command
# line and the terminal game end to end, bots', workers' and pytest's own processes, the review's
# rollouts, simulations, the whole corpus and the golden files), and so is any test that asks for
# PostgreSQL or Chromium. A new module is slow until it is listed here. A slow test inside a fast module
# carries its own @pytest.mark.slow (property tests over many games, the long hypothesis runs).
FAST_MODULES = (
    "test_tiles", "test_shanten", "test_yaku_matrix", "test_real_wins",  # tiles, hands, yaku
    "test_scoring_", "test_riichienv_vectors", "test_payout",  # scoring and payouts
    "test_rules_loader", "test_rules_presets", "test_hostile_rules", "test_hostile_files",  # rule files
    "test_engine_", "test_flow", "test_legal", "test_view", "test_wall",  # the engine
    "test_events", "test_fidelity", "test_bots",
    "test_formats_", "test_writers_", "test_hostile_mjai_records",  # records
    "test_replay_causes", "test_replay_laps", "test_replay_records", "test_replay_seed",  # replay
    "test_keeper.py", "test_keeper_series",  # the keeper's arithmetic (in-memory store)
    "test_i18n_terms",  # the vocabulary
    "test_names", "test_package_data", "test_readme_examples", "test_shared_data",  # the tree
)
# Slow within the fast layers: the engine's property tests over thousands of random games.
SLOW_IN_FAST = ("test_engine_invariants",)
# The doctests of src/sanma are fast but for the edges' packages and modules.
SLOW_SOURCES = ("web", "store", "review", "sim", "env", "cli", "stats.py")
POSTGRESQL = {"pg_cluster", "pg_url", "pg_database"}
CHROMIUM = {"browser"}


def _is_slow_path(path: Path) -> bool:
    """Whether every test collected from ``path`` (a file or a folder) is slow by its layer."""
    parts = path.parts
    if path.name.startswith("test_") and path.suffix == ".py":
        return path.name.startswith(SLOW_IN_FAST) or not path.name.startswith(FAST_MODULES)
    if "src" in parts and "sanma" in parts:
        inside = parts[len(parts) - parts[::-1].index("sanma"):]
        return bool(inside) and inside[0] in SLOW_SOURCES
    return False


def _only_fast(config: pytest.Config) -> bool:
    return " ".join(str(config.getoption("markexpr") or "").split()) == "not slow"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``-m "not slow"`` would deselect every test of a slow module: it is not even imported
    (importing them cost 10 s of CPU, a fifth of the fast run)."""
    if _only_fast(config) and _is_slow_path(collection_path):
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if (
            _is_slow_path(item.path)
            or (POSTGRESQL | CHROMIUM) & set(getattr(item, "fixturenames", ()))
            or params.get("db_target") == "postgresql"
        ):
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
def _collector_as_found() -> Iterator[None]:
    """A test that starts ``sanma serve``'s app (``create_app(tune_gc=True)``, web/collector.py) freezes
    the test process's objects and sets a server's collector thresholds: both are undone after it, so
    no later test runs with its garbage frozen for ever."""
    import gc

    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    yield
    if gc.get_freeze_count() > frozen:
        gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.fixture(scope="session")
def _databases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("databases")


@pytest.fixture(autouse=True)
def _private_database(_databases: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that store by default (``sanma play``, ``sanma stats``) write to a temporary file,
    one name per test in one folder (not ``tmp_path``: a folder made for each of ~3,800 tests was
    a third of the fast run's CPU)."""
    monkeypatch.setenv("SANMA_DB", str(_databases / f"sanma{next(_names)}.sqlite"))


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (/usr/bin/chromium) driven by Playwright, one per test module (the browser
    tests skip themselves where it is absent); never ``playwright install``. Every browser test takes
    this one: a second Playwright cannot start while one runs, and a running one holds an asyncio loop
    in the main thread, so it is closed with its module (later tests call ``asyncio.run``)."""
    from playwright.sync_api import sync_playwright

    from browser_helpers import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()
