"""Compile sanma's hot modules with mypyc into ``src/sanma/_compiled`` (``make native``).

The compiled modules are the same Python source, type-checked by ``mypy --strict`` and turned
into C by mypyc (the compiler mypy and black ship with). ``import sanma`` uses them only when
the manifest written here matches the sources byte for byte; otherwise, or with
``SANMA_PURE=1``, the pure-Python modules run (see ``sanma/_accel.py``). A failed build leaves
no manifest, so sanma keeps working in pure Python.

    .venv/bin/python tools/build_native.py           # build (about a minute on two cores)
    .venv/bin/python tools/build_native.py --clean   # remove the compiled modules
    python3 tools/build_native.py --sources          # what a build is made from (the Makefile reads it)

``--sources`` needs only the standard library (no virtualenv, no import of sanma): the list is
``_accel.INPUTS``, the one list of compiled modules and the data files the build expands.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
# sanma/_accel.py by its path: importing the package would already pick compiled modules.
_spec = importlib.util.spec_from_file_location("sanma_accel", SRC / "sanma" / "_accel.py")
assert _spec is not None and _spec.loader is not None
_accel = importlib.util.module_from_spec(_spec)
with warnings.catch_warnings():  # its check of an old build would warn about the very build made here
    warnings.simplefilter("ignore")
    _spec.loader.exec_module(_accel)
COMPILED, MANIFEST, OUT = _accel.COMPILED, _accel.MANIFEST, _accel.OUT


def expand(name: str) -> None:
    """Store a data .npz of the package uncompressed in OUT (same members, same bytes)."""
    with zipfile.ZipFile(_accel.DATA / name) as src, zipfile.ZipFile(OUT / name, "w", zipfile.ZIP_STORED) as dst:
        for member in src.namelist():
            dst.writestr(member, src.read(member))

SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, target = sys.argv[1].split(","), sys.argv[2]
setup(name="sanma-compiled", ext_modules=mypycify(paths, opt_level="3", target_dir=target, group_name="sanma"),
      script_args=sys.argv[3:])
"""


def build(jobs: int) -> int:
    paths = [m.replace(".", "/") + ".py" for m in COMPILED]
    shutil.rmtree(OUT, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="sanma-native-") as tmp:
        setup_py = Path(tmp) / "setup_native.py"
        setup_py.write_text(SETUP)
        cmd = [sys.executable, str(setup_py), ",".join(paths), str(Path(tmp) / "c"),
               "build_ext", "--build-lib", str(OUT), "--build-temp", str(Path(tmp) / "o"),
               "--parallel", str(jobs)]
        done = subprocess.run(cmd, cwd=SRC, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        shutil.rmtree(OUT, ignore_errors=True)
        print(done.stderr[-4000:], file=sys.stderr)
        print("sanma: compiling with mypyc failed; sanma runs in pure Python", file=sys.stderr)
        return 1
    for name in _accel.EXPANDED:
        expand(name)
    manifest = {"cache_tag": sys.implementation.cache_tag,
                "modules": {m: {"sha256": _accel.source_digest(m), "stamp": _accel.source_stamp(m)}
                            for m in _accel.INPUTS}}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"sanma: compiled {len(COMPILED)} modules into {OUT.relative_to(ROOT)}")
    return 0


def sources() -> list[str]:
    """The files a build is made from, relative to the repository: ``_accel.INPUTS`` as paths."""
    return [str(_accel.source_path(m).relative_to(ROOT)) for m in _accel.INPUTS]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules and stop")
    ap.add_argument("--sources", action="store_true",
                    help="print the source and data files a build is made from (one line each) and stop")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compiler jobs (default: all cores)")
    args = ap.parse_args()
    if args.sources:
        print("\n".join(sources()))
        return 0
    if args.clean:
        shutil.rmtree(OUT, ignore_errors=True)
        return 0
    if os.environ.get("SANMA_PURE"):
        print("sanma: SANMA_PURE is set; not compiling")
        return 0
    return build(args.jobs)


if __name__ == "__main__":
    raise SystemExit(main())
