"""The project's scripts (``tools/``, ``benchmarks/``) loaded as modules, for the tests that call them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """``ROOT/relative`` as a module named after its file, registered in ``sys.modules`` (so that its
    dataclasses and doctests find it)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module
