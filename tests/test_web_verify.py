"""``sanma verify`` (issue 11 item 1, fairness): every wall re-dealt from the published seed, every
draw checked; a record whose draws do not match the seed's walls is caught."""

from __future__ import annotations

import hashlib
import json
import random
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from sanma.cli import app as cli
from sanma.i18n.messages import untranslated
from sanma.web import create_app
from web_helpers import mjai_answer

runner = CliRunner()


def _finished(tmp_path: Path, rules: object, seed: int) -> tuple[Path, str, str]:
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
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
    ja = runner.invoke(cli, ["verify", str(bad), "--lang", "ja"])  # issue 24: the problems in Japanese too
    said = [line for line in ja.stderr.splitlines() if "山では" in line]
    assert ja.exit_code == 1 and said and "1局目（東1局 0本場）: 席" in said[0], ja.output
    assert untranslated("\n".join(said)) == [], said


def test_verify_refuses_what_it_cannot_check(tmp_path: Path) -> None:
    no_seed = tmp_path / "x.mjson"
    no_seed.write_text('{"type":"start_game","names":["a","b","c"],"rules":"tenhou"}\n')
    r = runner.invoke(cli, ["verify", str(no_seed)])
    assert r.exit_code == 2 and "seed" in r.output
    r = runner.invoke(cli, ["verify", str(tmp_path / "missing.mjson")])
    assert r.exit_code == 2 and "cannot read" in r.output
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"]}).json()
    r = runner.invoke(cli, ["verify", "--db", str(db), t["id"]])
    assert r.exit_code == 2 and "still being played" in r.output
    r = runner.invoke(cli, ["verify", "--db", str(db), "nosuch"])
    assert r.exit_code == 2 and "no served table" in r.output


def _bot_plays(client: TestClient, tid: str, token: str, rng: random.Random, limit: int | None) -> bool:
    """The external mjai seat answers ``limit`` prompts (None: to the end); True at end_game."""
    answered = 0
    with client.websocket_connect(f"/ws/tables/{tid}/mjai?token={token}") as ws:
        while True:
            batch = ws.receive_json()
            if any(e["type"] == "end_game" for e in batch):
                return True
            assert batch[-1]["type"] != "error", batch
            a = mjai_answer(batch, rng)
            if a is not None:
                if limit is not None and answered >= limit:
                    return False
                ws.send_json(a)
                answered += 1


def test_a_table_with_an_mjai_seat_keys_its_walls_and_verify_checks_them(tmp_path: Path) -> None:
    """Issue 11 / issue 14 item 8: an external bot's table keys its walls with a secret per table
    (``Game(wall_key=...)``, from ``secrets``): the key's hash is shown before the deal and the key
    with the seed after it; a restart goes on with the same walls; ``sanma verify`` re-deals with
    the key from the record or the database, and without the key the walls are not the seed's."""
    db = tmp_path / "db.sqlite"
    body = {"rules": {"extends": "tenhou", "round_winds": "E"}, "seats": ["mjai", "efficient", "random"],
            "seed": 31, "clock": {"move": 0, "think": 0, "result": 0}}
    rng = random.Random(4)
    fast = {"rate": 10_000, "burst": 10_000}  # the scripted bot answers at once: no rate refusals
    with TestClient(create_app(db, **fast), base_url="http://127.0.0.1") as client:
        t = client.post("/api/tables", json=body).json()
        tid, token = t["id"], t["seats"][0]["token"]
        before = client.get(f"/api/tables/{tid}").json()
        assert len(before["wall_key_hash"]) == 64 and "wall_key" not in before and "seed" not in before
        assert not _bot_plays(client, tid, token, rng, 15)
    # a restart mid-game: the same keyed walls go on
    with TestClient(create_app(db, **fast), base_url="http://127.0.0.1") as client:
        assert _bot_plays(client, tid, token, rng, None)
        deadline = time.monotonic() + 60
        while not (after := client.get(f"/api/tables/{tid}").json())["finished"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        record = client.get(f"/api/tables/{tid}/record?format=mjai").text
        replay = client.get(f"/api/tables/{tid}/replay").json()
    key = after["wall_key"]
    assert hashlib.sha256(key.encode()).hexdigest() == before["wall_key_hash"] and replay["wall_key"] == key
    assert json.loads(record.splitlines()[0])["wall_key"] == key
    path = tmp_path / "game.mjson"
    path.write_text(record)
    for args in (["verify", str(path)], ["verify", "--db", str(db), tid]):
        ok = runner.invoke(cli, args)
        assert ok.exit_code == 0 and ok.stdout.startswith("OK: ") and key in ok.stdout, ok.output
    lines = record.splitlines()
    first = json.loads(lines[0])
    del first["wall_key"]
    unkeyed = tmp_path / "unkeyed.mjson"
    unkeyed.write_text("\n".join([json.dumps(first), *lines[1:]]))
    r = runner.invoke(cli, ["verify", str(unkeyed)])
    assert r.exit_code == 1 and "MISMATCH" in r.stdout  # the seed alone does not give these walls
    first["wall_key"] = "zz"
    unkeyed.write_text("\n".join([json.dumps(first), *lines[1:]]))
    r = runner.invoke(cli, ["verify", str(unkeyed)])
    assert r.exit_code == 2 and "64 hex digits" in r.output


def test_tables_of_people_and_built_in_bots_keep_seed_only_walls() -> None:
    """Only an external program at the table needs the key: a chosen seed stays reproducible."""
    from sanma.web.tables import parse_settings

    assert parse_settings({"rules": "tenhou", "seats": ["human", "efficient", "random"]}).wall_key is None
    keys = {parse_settings({"rules": "tenhou", "seats": ["human", "mjai", "random"], "seed": 1}).wall_key
            for _ in range(3)}
    assert len(keys) == 3 and all(k is not None and len(k) == 32 for k in keys)


def test_a_table_id_never_starts_with_a_dash_so_verify_takes_it_as_an_argument(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table id like '-x3k...' was read by ``sanma verify --db DB ID`` as an option (a usage error)."""
    import sanma.web.tables as web_tables

    ids = iter(["-leading", "fine-one"])
    monkeypatch.setattr(web_tables.secrets, "token_urlsafe", lambda n=None: next(ids, "x" * 32))
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1") as client:
        t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"]}).json()
    assert t["id"] == "fine-one"
