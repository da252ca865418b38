"""`sanma replay --db`: records are stored once and can be replayed from the database (issue 4 item 5)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sanma.cli import app
from sanma.store import open_db
from shared_data import data_path

runner = CliRunner()


def test_replay_stores_records_once_and_replays_them_from_the_db(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    files = [str(p) for p in sorted(data_path("tenhou_mjlog").glob("*.xml"))]
    for _ in range(2):
        r = runner.invoke(app, ["replay", *files, "--db", str(db), "--check", "--json"])
        assert r.exit_code == 0, r.output
    with open_db(db) as store:
        assert len(store.records()) == len(files)
    r = runner.invoke(app, ["replay", "--db", str(db), "--check", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == len(files) and out["matched"] == out["kyoku"] > 0 and out["mismatches"] == []


def test_replay_needs_files_or_a_db() -> None:
    r = runner.invoke(app, ["replay", "--check"])
    assert r.exit_code == 2 and "--db" in r.output


def test_a_bad_file_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    bad = tmp_path / "bad.json"
    bad.write_text('{"log": [[[0, 0, 0], "not a kyoku"]]}')
    good = str(sorted(data_path("tenhou_mjlog").glob("*.xml"))[0])
    r = runner.invoke(app, ["replay", good, str(bad), "--db", str(db), "--check"])
    assert r.exit_code == 2
    with open_db(db) as store:
        assert store.records() == []
