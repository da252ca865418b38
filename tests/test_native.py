"""The mypyc-compiled build (sanma/_accel.py, tools/build_native.py): same results as pure Python,
used only when it matches the sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from sanma import _accel
from shared_data import shared_path

ROOT = Path(__file__).resolve().parents[1]

# Scores a sample of the benchmark hands and plays two seeded games, printing everything as JSON.
PROBE = r"""
import dataclasses, json, random, sys
import sanma
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.sim.arena import play_game
hands = json.load(open(sys.argv[1]))[::15]
rules = Rules.preset("tenhou")
scores = []
for h in hands:
    k = h["win_tile136"] // 4
    s = sanma.score_hand(h["notation"], win=f"{k % 9 + 1}{'mpsz'[k // 9]}", tsumo=h["is_tsumo"], riichi=True,
                         seat_wind="S", discarder_wind=None if h["is_tsumo"] else "W", rules=rules)
    scores.append(s.to_json())
games = [dataclasses.asdict(play_game(Rules.preset(p), ["efficient", "random", "defensive"], 5, 0))
         for p in ("tenhou", "kansai")]
for p in ("club", "official"):  # every event of a random game
    g, rng = Game(Rules.preset(p), seed=3), random.Random(3)
    while not g.done:
        g.apply(rng.choice(g.legal_actions(g.to_move[0])))
    games.append(g.events)
print(json.dumps({"compiled": sanma._accel.ENABLED, "scores": scores, "games": games}, sort_keys=True))
"""


def _run(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "SANMA_PURE"}
    if pure:
        env["SANMA_PURE"] = "1"
    hands = shared_path("bench", "hands.json")
    out = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", PROBE, str(hands)],
                         capture_output=True, text=True, env=env, check=True).stdout
    result: dict[str, object] = json.loads(out)
    return result


@pytest.mark.skipif(not _accel.ENABLED, reason="no up-to-date compiled build (make native)")
def test_compiled_and_pure_python_give_the_same_scores_and_games() -> None:
    compiled, pure = _run(pure=False), _run(pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert compiled["scores"] == pure["scores"]
    assert compiled["games"] == pure["games"]


@pytest.mark.skipif(not _accel.ENABLED, reason="doctests of compiled functions run under pytest anyway")
def test_doctests_of_the_compiled_modules_pass_in_pure_python() -> None:
    """Compiled functions hide their docstrings from doctest, so their examples run here, in pure Python."""
    files = [str(ROOT / "src" / Path(*m.split("."))) + ".py" for m in _accel.COMPILED]
    env = {**os.environ, "SANMA_PURE": "1"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--doctest-modules",
                           *files], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout


def _manifest(path: Path, modules: dict[str, object]) -> None:
    path.write_text(json.dumps({"cache_tag": sys.implementation.cache_tag, "modules": modules}))


def test_a_manifest_of_other_sources_is_refused_with_a_warning(tmp_path: Path) -> None:
    manifest = tmp_path / "MANIFEST.json"
    modules: dict[str, object] = {m: {"sha256": _accel.source_digest(m), "stamp": [0, 0]} for m in _accel.INPUTS}
    _manifest(manifest, modules)
    assert _accel.fresh(manifest)  # other times (a fresh checkout), same content: still the build of these sources
    modules["sanma.scoring"] = {"sha256": "0" * 64, "stamp": [0, 0]}  # built from an older scoring.py
    _manifest(manifest, modules)
    with pytest.warns(RuntimeWarning, match=r"older than their sources \(sanma.scoring\)"):
        assert not _accel.fresh(manifest)


def test_matching_size_and_time_skip_the_hash(tmp_path: Path) -> None:
    manifest = tmp_path / "MANIFEST.json"
    _manifest(manifest, {m: {"sha256": "not hashed", "stamp": _accel.source_stamp(m)} for m in _accel.INPUTS})
    assert _accel.fresh(manifest)


@pytest.mark.parametrize("text", ["", "not json", "[]", '{"cache_tag": "cpython-20"}', '{"modules": 3}'])
def test_a_missing_broken_or_foreign_manifest_means_pure_python(tmp_path: Path, text: str) -> None:
    manifest = tmp_path / "MANIFEST.json"
    if text:
        manifest.write_text(text)
    assert not _accel.fresh(manifest)


def test_sanma_pure_forces_pure_python() -> None:
    env = {**os.environ, "SANMA_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", "import sanma.scoring as s, sanma._accel as a; "
                          "print(a.ENABLED, s.__file__.endswith('.py'))"],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert out.split() == ["False", "True"]


def test_the_makefile_rebuilds_when_any_compiled_source_changes() -> None:
    """One list of compiled modules (issue 10 item 5): make's NATIVE_SOURCES (what triggers a
    rebuild) is read from ``_accel`` through ``tools/build_native.py --sources``, which needs only
    the standard library — and it is exactly what ``_accel`` builds from."""
    expected = [str(_accel.source_path(m).relative_to(ROOT)) for m in _accel.INPUTS]
    assert expected[-1] == "src/sanma/data/shanten_tables.npz" and "src/sanma/game/legal.py" in expected
    python3 = shutil.which("python3") or sys.executable  # any Python: no virtualenv, no sanma import
    listed = subprocess.run([python3, "-I", "tools/build_native.py", "--sources"], capture_output=True,
                            text=True, cwd=ROOT, check=True).stdout.split()
    assert listed == expected
    makefile = (ROOT / "Makefile").read_text()
    assert "NATIVE_SOURCES := $(shell $(PYTHON) tools/build_native.py --sources)" in makefile
    if shutil.which("make"):
        made = subprocess.run(["make", "-s", "--no-print-directory", "native-sources"], capture_output=True,
                              text=True, cwd=ROOT, check=True).stdout.split()
        assert made == expected


@pytest.mark.skipif(not _accel.ENABLED, reason="no up-to-date compiled build (make native)")
def test_the_build_stores_the_shanten_tables_uncompressed_with_the_same_arrays() -> None:
    from sanma.shanten_table import DATA_FILE, _read_npz

    assert DATA_FILE == _accel.OUT / "shanten_tables.npz"
    with zipfile.ZipFile(DATA_FILE) as z:
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_STORED}
    assert _read_npz(DATA_FILE) == _read_npz(_accel.DATA / "shanten_tables.npz")
