"""tests/shared_data.py, the one way tests find ../shared (issue 20): SANMA_SHARED overrides the
default, and missing data skips a test locally but fails it under CI=true."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import shared_data

HERE = Path(__file__).resolve().parent


def test_the_default_is_the_folder_beside_the_checkout() -> None:
    if os.environ.get("SANMA_SHARED"):
        assert Path(os.environ["SANMA_SHARED"]) == shared_data.SHARED
    else:
        assert HERE.parent.parent / "shared" == shared_data.SHARED
    assert shared_data.DATA == shared_data.SHARED / "data"


def test_missing_data_skips_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_data, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="no-such-file"):
        shared_data.data_path("no-such-file")
    assert shared_data.shared_files("no-such-folder/*.xml") == []


def test_missing_data_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared_data, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="CI=true requires it"):
        shared_data.data_path("no-such-file")
    with pytest.raises(pytest.fail.Exception, match="no-such-folder"):
        shared_data.shared_files("no-such-folder/*.xml")


def _run_pytest_on(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    """pytest on a module that reads shared data at import, with SANMA_SHARED an empty folder."""
    (tmp_path / "test_needs_data.py").write_text(
        "from shared_data import data_path\n"
        "TEXT = data_path('tenhou_mjlog', 'x.xml').read_text()\n\n"
        "def test_reads() -> None:\n    assert TEXT\n")
    env = {**os.environ, "SANMA_SHARED": str(tmp_path / "empty"), "CI": "true" if ci else "",
           "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
                           str(tmp_path), "-c", os.devnull, str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)


@pytest.mark.slow  # a pytest in a subprocess
def test_a_module_reading_missing_data_is_skipped_locally_and_fails_in_ci(tmp_path: Path) -> None:
    local = _run_pytest_on(tmp_path, ci=False)
    # the module is skipped at collection: nothing ran (pytest's exit code 5), nothing failed
    assert local.returncode == 5 and "1 skipped" in local.stdout and "error" not in local.stdout, local.stdout
    ci = _run_pytest_on(tmp_path, ci=True)
    assert ci.returncode != 0 and "CI=true requires it" in ci.stdout, ci.stdout
