"""Issue 14 items 13 and 14 (the store): a tampered record never enters the database, and a
damaged database is a clear error that writes nothing.

``replay FILE --check --db X`` stored the file before checking it and ``stats FILE`` stored and
counted records with no check at all; a database with a text schema version, corrupted pages or
missing tables, or a path in a directory that cannot be entered, gave a traceback, and a corrupted
database accepted new writes silently.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sanma.cli import app
from sanma.store import StoreError, open_db
from shared_data import data_path

GOOD = "tenhou6_json/2024010120gm-00b9-0000-e324b88a.json"
runner = CliRunner()


@pytest.fixture
def tampered(tmp_path: Path) -> Path:
    """A real game whose first win pays 1,000 less than the hand is worth (the yaku still say 8,000 all)."""
    data = json.loads(data_path(GOOD).read_text(encoding="utf-8"))
    result = data["log"][0][-1]
    assert result[0] == "和了" and result[1][:3] == [17000, -8000, -8000]
    result[1][:3] = [16000, -7000, -8000]
    path = tmp_path / data_path(GOOD).name.replace("e324b88a", "e324b88b")
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _records(db: Path) -> int:
    with open_db(db) as store:
        return len(store.records())


def test_replay_check_db_stores_only_what_replays_clean(tmp_path: Path, tampered: Path) -> None:
    db = tmp_path / "r.sqlite"
    r = runner.invoke(app, ["replay", str(data_path(GOOD)), str(tampered), "--check", "--db", str(db)])
    assert r.exit_code == 1, r.output
    assert f"not stored: {tampered}: it does not replay clean" in r.stderr
    with open_db(db) as store:
        assert [row.source_path for row in store.records()] == [str(data_path(GOOD))]
    r = runner.invoke(app, ["replay", "--db", str(db), "--check"])  # what is stored replays clean
    assert r.exit_code == 0, r.output


def test_stats_refuses_a_tampered_record_and_stores_nothing(tmp_path: Path, tampered: Path) -> None:
    db = tmp_path / "s.sqlite"
    r = runner.invoke(app, ["stats", str(data_path(GOOD)), str(tampered), "--db", str(db)])
    assert r.exit_code == 2, r.output
    assert f"{tampered}: not stored: it does not replay clean through the engine" in r.stderr
    assert "Traceback" not in r.output
    assert _records(db) == 0
    r = runner.invoke(app, ["stats", str(data_path(GOOD)), "--db", str(db), "--json"])  # the clean one alone is fine
    assert r.exit_code == 0, r.output
    assert _records(db) == 1


def _db_with_a_game(tmp_path: Path) -> Path:
    db = tmp_path / "g.sqlite"
    r = runner.invoke(app, ["stats", str(data_path(GOOD)), "--db", str(db), "--json"])
    assert r.exit_code == 0, r.output
    return db


def test_a_text_schema_version_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE schema_version (version TEXT, applied_at TEXT)")
        conn.execute("INSERT INTO schema_version VALUES ('two', 'now')")
    with pytest.raises(StoreError, match="schema version 'two' is not a whole number"):
        open_db(db)
    r = runner.invoke(app, ["stats", "--db", str(db)])
    assert r.exit_code == 2 and "schema version 'two'" in r.stderr and "Traceback" not in r.output


def test_a_missing_table_is_a_clear_error(tmp_path: Path) -> None:
    db = _db_with_a_game(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("DROP TABLE simulation_results")
    with pytest.raises(StoreError, match="table simulation_results missing"):
        open_db(db)


def test_corrupted_pages_are_refused_before_any_write(tmp_path: Path) -> None:
    db = _db_with_a_game(tmp_path)
    with sqlite3.connect(db) as conn:  # everything in the main file, then damage a page of it
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = db.stat().st_size
    assert size > 8 * 4096
    with db.open("r+b") as f:
        for page in range(2, size // 4096):
            f.seek(page * 4096 + 100)
            f.write(os.urandom(200))
    before = db.read_bytes()
    with pytest.raises(StoreError, match="damaged") as refused:
        open_db(db)
    assert "\n" not in str(refused.value)  # one line, not SQLite's report of several (issue 23 item 7)
    other = data_path("tenhou6_json/2024010120gm-00b9-0000-ef5da89f.json")
    r = runner.invoke(app, ["stats", str(other), "--db", str(db)])
    assert r.exit_code == 2 and "damaged" in r.stderr and "Traceback" not in r.output
    assert db.read_bytes() == before  # not a byte written


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    db.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match=r"damaged or not a database|not a usable sanma database"):
        open_db(db)


def test_a_database_path_in_a_directory_that_cannot_be_entered(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    real_stat = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).startswith(str(locked) + os.sep):  # what a user without x on the directory gets
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    with pytest.raises(StoreError, match="cannot open the database: Permission denied"):
        open_db(locked / "db.sqlite")
    missing = tmp_path / "nowhere" / "db.sqlite"
    with pytest.raises(StoreError, match="no directory"):
        open_db(missing)


def test_a_record_or_database_in_a_directory_that_cannot_be_entered_is_a_one_line_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23 item 7: `sanma stats` and `sanma replay` gave a PermissionError traceback for a path
    inside a directory the user may not enter (as root every directory is entered: simulated)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_stat = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).startswith(str(locked) + os.sep):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    for args in (["replay", str(locked / "game.json"), "--check"], ["stats", "--db", str(locked / "db.sqlite")]):
        r = runner.invoke(app, args)
        assert r.exit_code == 2 and "Permission denied" in r.stderr and "Traceback" not in r.output, (args, r.output)


@pytest.mark.skipif(os.geteuid() == 0 or shutil.which("true") is None, reason="root enters every directory")
def test_a_real_unreadable_directory(tmp_path: Path) -> None:  # pragma: no cover - not as root
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        r = runner.invoke(app, ["stats", "--db", str(locked / "db.sqlite")])
        assert r.exit_code == 2 and "Traceback" not in r.output
    finally:
        locked.chmod(0o700)
