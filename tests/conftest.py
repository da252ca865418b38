"""Shared test set-up: no test writes the user's database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


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
