"""``sanma serve`` tunes its garbage collector once, after start-up (web/collector.py; issue 22's paced
tail: full collections of start-up's objects stopped every table for 80–150 ms)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from sanma.cli import app as cli_app
from sanma.web import collector, create_app


def _tracked(obj: object) -> bool:
    """Whether a collection would walk ``obj`` (frozen objects are in no generation)."""
    return any(o is obj for o in gc.get_objects())


def test_a_served_app_freezes_what_start_up_made_and_sets_the_server_thresholds() -> None:
    app = create_app(":memory:", tune_gc=True)
    before = gc.get_freeze_count()
    with TestClient(app, base_url="http://127.0.0.1") as c:
        assert gc.get_freeze_count() > before + 10_000  # the modules, the app, the rules' tables
        assert gc.get_threshold() == collector.THRESHOLDS
        # made by the lifespan before the tables are resumed, so frozen with the rest of start-up
        assert not _tracked(app.state.tables) and not _tracked(app.state.store)
        made = c.post("/api/tables", json={"rules": "tenhou", "seats": ["mjai"] * 3})
        assert made.status_code == 201, made.text
        # a table made after start-up is the collector's again: freezing is once, not per table
        table = app.state.tables.get(made.json()["id"])
        assert _tracked(table)


def test_the_tables_a_restarted_server_resumes_are_not_frozen(tmp_path: Path) -> None:
    """They end, and a frozen cycle is never freed: only start-up's own objects are frozen."""
    db = str(tmp_path / "db.sqlite")
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        made = c.post("/api/tables", json={"rules": "tenhou", "seats": ["mjai"] * 3})
        assert made.status_code == 201, made.text
    app = create_app(db, tune_gc=True)
    with TestClient(app, base_url="http://127.0.0.1"):
        assert gc.get_freeze_count() > 10_000
        table = app.state.tables.running[made.json()["id"]]
        assert _tracked(table)


def test_an_app_made_without_tune_gc_leaves_the_collector_alone() -> None:
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    with TestClient(create_app(":memory:"), base_url="http://127.0.0.1") as c:
        assert c.get("/api/tables").status_code == 200
        assert gc.get_threshold() == thresholds and gc.get_freeze_count() == frozen


def test_sanma_serve_asks_for_the_tuned_collector(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    import sanma.web

    made: list[dict[str, Any]] = []
    real = sanma.web.create_app

    def spy(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(sanma.web, "create_app", spy)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    out = CliRunner().invoke(cli_app, ["serve", "--port", "8124", "--db", str(tmp_path / "db.sqlite")])
    assert out.exit_code == 0, out.output
    assert made and made[0]["tune_gc"] is True


def test_tune_freezes_and_sets_the_thresholds() -> None:
    kept = object.__new__(type("Kept", (), {}))  # a tracked object alive at start-up
    assert _tracked(kept)
    frozen = collector.tune()
    assert frozen == gc.get_freeze_count() > 0
    assert not _tracked(kept)
    assert gc.get_threshold() == collector.THRESHOLDS
