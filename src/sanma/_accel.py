"""Use the mypyc-compiled modules when they were built from exactly these sources.

``tools/build_native.py`` (``make native``, run by ``make install``) compiles the modules named
in ``COMPILED`` into ``src/sanma/_compiled`` and records a digest of each source. At import,
``enable`` puts that directory in front of the package path only if every digest still
matches: an edited source, another Python, a failed build or ``SANMA_PURE=1`` all mean pure
Python, never stale code. The compiled and the pure modules are the same source, and
``tests/test_native.py`` checks that they give the same results.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
OUT = PACKAGE / "_compiled"
MANIFEST = OUT / "MANIFEST.json"
# The package's data files. Compiled modules live in OUT, so they cannot find them from __file__.
DATA = PACKAGE / "data"

# The hot paths: scoring (issue 2) and the game loop with its shanten checks (issue 3).
COMPILED = (
    "sanma.tiles",
    "sanma.hand",
    "sanma.agari",
    "sanma.yaku",
    "sanma.scoring",
    "sanma.shanten_table",
    "sanma.game.actions",
    "sanma.game.wall",
    "sanma.game.engine",
)


def source_digest(module: str) -> str:
    """SHA-256 of a compiled module's source file."""
    path = PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fresh(manifest_file: Path = MANIFEST) -> bool:
    """Whether ``manifest_file`` describes a build of exactly these sources for this Python."""
    try:
        manifest = json.loads(manifest_file.read_text())
    except (OSError, ValueError):
        return False  # never built, or the build failed: pure Python, silently
    if not isinstance(manifest, dict) or manifest.get("cache_tag") != sys.implementation.cache_tag:
        return False
    modules = manifest.get("modules")
    if not isinstance(modules, dict):
        return False
    stale = [m for m in COMPILED if modules.get(m) != source_digest(m)]
    if stale:
        warnings.warn(f"sanma: the compiled modules are older than their sources ({', '.join(stale)}); "
                      "running pure Python — run `make native` to rebuild", RuntimeWarning, stacklevel=2)
        return False
    return True


ENABLED = not os.environ.get("SANMA_PURE") and fresh()


def extend(package: str, path: list[str]) -> None:
    """Search ``package``'s compiled directory before its sources (called by its ``__init__``)."""
    if ENABLED:
        if str(OUT) not in sys.path:
            sys.path.append(str(OUT))  # the compiled group's shared library, sanma__mypyc
        path.insert(0, str(OUT.joinpath(*package.split("."))))
