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
