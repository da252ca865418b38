"""``sanma verify`` (issue 11 item 1, fairness): every wall re-dealt from the published seed, every
draw checked; a record whose draws do not match the seed's walls is caught."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from sanma.cli import app as cli
from sanma.web import create_app

runner = CliRunner()


def _finished(tmp_path: Path, rules: object, seed: int) -> tuple[Path, str, str]:
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db)) as client:
        t = client.post("/api/tables", json={"rules": rules, "seats": ["efficient", "efficient", "random"],
                                             "seed": seed}).json()
        deadline = time.monotonic() + 180
        while not client.get(f"/api/tables/{t['id']}").json()["finished"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        record = client.get(f"/api/tables/{t['id']}/record?format=mjai").text
    path = tmp_path / "game.mjson"
    path.write_text(record)
    return db, t["id"], record


@pytest.mark.parametrize("rules", [{"extends": "tenhou", "round_winds": "E"},
                                   {"extends": "kansai", "round_winds": "E"}])  # kansai: flowers and kita
def test_verify_accepts_the_served_game_and_catches_a_changed_draw(tmp_path: Path, rules: object) -> None:
    db, tid, record = _finished(tmp_path, rules, 31)
    ok = runner.invoke(cli, ["verify", str(tmp_path / "game.mjson")])
    assert ok.exit_code == 0 and ok.stdout.startswith("OK: ") and "'31'" in ok.stdout, ok.output
    by_db = runner.invoke(cli, ["verify", "--db", str(db), tid])
    assert by_db.exit_code == 0 and by_db.stdout.startswith("OK: "), by_db.output
    lines = record.splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "tsumo")
    e = json.loads(lines[i])
    e["pai"] = "1m" if e["pai"] != "1m" else "9m"
    lines[i] = json.dumps(e)
    bad = tmp_path / "bad.mjson"
    bad.write_text("\n".join(lines))
    caught = runner.invoke(cli, ["verify", str(bad)])
    assert caught.exit_code == 1 and "MISMATCH" in caught.stdout and "the wall gives" in caught.output


def test_verify_refuses_what_it_cannot_check(tmp_path: Path) -> None:
    no_seed = tmp_path / "x.mjson"
    no_seed.write_text('{"type":"start_game","names":["a","b","c"],"rules":"tenhou"}\n')
    r = runner.invoke(cli, ["verify", str(no_seed)])
    assert r.exit_code == 2 and "seed" in r.output
    r = runner.invoke(cli, ["verify", str(tmp_path / "missing.mjson")])
    assert r.exit_code == 2 and "cannot read" in r.output
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db)) as client:
        t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"]}).json()
    r = runner.invoke(cli, ["verify", "--db", str(db), t["id"]])
    assert r.exit_code == 2 and "still being played" in r.output
    r = runner.invoke(cli, ["verify", "--db", str(db), "nosuch"])
    assert r.exit_code == 2 and "no served table" in r.output
