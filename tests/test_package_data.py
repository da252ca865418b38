"""The installed package carries every file sanma reads at run time (a wheel without the pages
or the presets would install and then fail): each non-Python file under src/sanma matches a
``[tool.setuptools.package-data]`` pattern of pyproject.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sanma"
BUILT = ("_compiled",)  # made by tools/build_native.py on the user's machine, never shipped


def test_every_runtime_file_is_package_data() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["sanma"]
    covered = {p for pattern in patterns for p in PACKAGE.glob(pattern)}
    needed = [p for p in PACKAGE.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")
              and "__pycache__" not in p.parts and not p.name.startswith(".")
              and not any(b in p.relative_to(PACKAGE).parts for b in BUILT)]
    assert needed, "the scan found no data files at all"
    missing = sorted(str(p.relative_to(PACKAGE)) for p in needed if p not in covered)
    assert not missing, f"not in package-data (a wheel would lack them): {missing}"
