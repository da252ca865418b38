"""Use the mypyc-compiled modules when they were built from exactly these sources.

``tools/build_native.py`` (``make native``, run by ``make install``) compiles the modules named
in ``COMPILED`` into ``src/sanma/_compiled`` and records a digest of each source. At import,
``enable`` puts that directory in front of the package path only if every digest still
matches: an edited source, another Python, a failed build or ``SANMA_PURE=1`` all mean pure
Python, never stale code. The compiled and the pure modules are the same source, and
``tests/test_native.py`` checks that they give the same results.
"""

from __future__ import annotations

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

# The hot paths: scoring (issue 2) and the game loop with its shanten checks (issue 3). This is
# the one list of compiled modules: tools/build_native.py builds it, and the Makefile's
# NATIVE_SOURCES (what triggers a rebuild) is read from it (`tools/build_native.py --sources`).
COMPILED = (
    "sanma.tiles",
    "sanma.hand",
    "sanma.agari",
    "sanma.yaku",
    "sanma.scoring",
    "sanma.shanten_table",
    "sanma.events",
    "sanma.game.actions",
    "sanma.game.wall",
    "sanma.game.seat",
    "sanma.game.winning",
    "sanma.game.legal",
    "sanma.game.engine",
)
# Data files the build also stores uncompressed in OUT, so that a short run does not spend its
# first ~20 ms inflating them (the shanten tables: 8 MB, 140 kB compressed in the repository).
EXPANDED = ("shanten_tables.npz",)
# What a build is made from: the sources, then the data files (as "data/NAME").
INPUTS = COMPILED + tuple(f"data/{name}" for name in EXPANDED)


def source_path(module: str) -> Path:
    """The file of a compiled module (``sanma.game.engine``) or of ``data/NAME``."""
    if module.startswith("data/"):
        return DATA / module.removeprefix("data/")
    return PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(module: str) -> str:
    """SHA-256 of a compiled module's source file (or of ``data/NAME``)."""
    import hashlib  # only when a source's size or time differs from the build's (about 4 ms to import)

    return hashlib.sha256(source_path(module).read_bytes()).hexdigest()


def source_stamp(module: str) -> list[int]:
    """Size and modification time of a source: when both match the build's, it is not hashed."""
    st = source_path(module).stat()
    return [st.st_size, st.st_mtime_ns]


def _same_source(module: str, built: object) -> bool:
    if not isinstance(built, dict):
        return False
    return built.get("stamp") == source_stamp(module) or built.get("sha256") == source_digest(module)


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
    stale = [m for m in INPUTS if not _same_source(m, modules.get(m))]
    if stale:
        warnings.warn(f"sanma: the compiled modules are older than their sources ({', '.join(stale)}); "
                      "running pure Python — run `make native` to rebuild", RuntimeWarning, stacklevel=2)
        return False
    return True


ENABLED = not os.environ.get("SANMA_PURE") and fresh()


def data_file(name: str) -> Path:
    """A data file of the package: its uncompressed copy in the build when the build is in use."""
    if ENABLED and name in EXPANDED:
        return OUT / name
    return DATA / name


def extend(package: str, path: list[str]) -> None:
    """Search ``package``'s compiled directory before its sources (called by its ``__init__``)."""
    if ENABLED:
        if str(OUT) not in sys.path:
            sys.path.append(str(OUT))  # the compiled group's shared library, sanma__mypyc
        path.insert(0, str(OUT.joinpath(*package.split("."))))
