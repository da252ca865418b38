"""The one way tests find the shared reference data (seeds, rules, records, bench inputs).

The data sits in ``shared/`` beside the checkout (``../shared`` from the project root, so every
worktree beside it finds the same folder); ``SANMA_SHARED`` names another folder. A test that needs a file asks
for it through :func:`shared_path` (or :func:`shared_files` for a parametrised list): when the
data is missing the test is skipped on a developer's machine and FAILS under ``CI=true``, so the
continuous build never passes by skipping the real records.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SANMA_SHARED") or ROOT.parent / "shared")
DATA = SHARED / "data"
IN_CI = os.environ.get("CI", "").lower() == "true"


def missing(what: Path | str) -> None:
    """Skip (locally) or fail (``CI=true``) for missing shared data; never returns.

    Called at module level it skips or fails the whole module (a collection error under CI)."""
    reason = f"shared data {what} is missing (set SANMA_SHARED to the shared folder)"
    if IN_CI:
        pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def shared_path(*parts: str) -> Path:
    """``SHARED/parts...``, which must exist (else :func:`missing`)."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        missing(path)
    return path


def data_path(*parts: str) -> Path:
    """``SHARED/data/parts...``, which must exist (else :func:`missing`)."""
    return shared_path("data", *parts)


def shared_files(*patterns: str) -> list[Path]:
    """The sorted files of ``SHARED/data`` matching any glob pattern, for ``parametrize``.

    No match: an empty list locally (pytest skips an empty parameter set), a collection failure
    under ``CI=true``."""
    found = sorted({p for pattern in patterns for p in DATA.glob(pattern) if p.is_file()})
    if not found and IN_CI:
        missing(f"{DATA}/{{{','.join(patterns)}}}")
    return found
