"""Shared test set-up: no test writes the user's database; `make test-fast` leaves out the slow tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith(SLOW_MODULES):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that store by default (``sanma play``, ``sanma stats``) write to a temporary file."""
    monkeypatch.setenv("SANMA_DB", str(tmp_path / "sanma.sqlite"))


@pytest.fixture
def keeper() -> Iterator[Any]:
    """A score keeper (``sanma.keeper.keeper.Keeper``) over an in-memory database."""
    from sanma.keeper.keeper import Keeper
    from sanma.store import open_db

    store = open_db(":memory:")
    yield Keeper(store)
    store.close()
