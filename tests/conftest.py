"""Shared test set-up: no test writes the user's database."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands that store by default (``sanma play``, ``sanma stats``) write to a temporary file."""
    monkeypatch.setenv("SANMA_DB", str(tmp_path / "sanma.sqlite"))
