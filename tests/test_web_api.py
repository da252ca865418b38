"""The contract endpoints of ``sanma serve`` (../shared/ARCHITECTURE.md "The server", issue 11 item 1)."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sanma.formats.mjai import read_mjai
from sanma.store import open_db
from sanma.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1") as c:
        yield c


def _finish(client: TestClient, tid: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        j: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        if j["finished"]:
            return j
        time.sleep(0.1)
    raise AssertionError(f"table {tid} did not finish")


BOTS = {"rules": {"extends": "tenhou", "round_winds": "E"}, "seats": ["efficient", "random", "tsumogiri"]}


def test_create_a_table_answers_the_contract(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": "kansai", "seats": ["human", "mjai", "defensive"]})
    assert r.status_code == 201
    t = r.json()
    assert set(t) == {"id", "seed_hash", "seats", "watch"} and t["watch"] == f"/t/{t['id']}/watch"
    assert [s["kind"] for s in t["seats"]] == ["human", "mjai", "defensive"]
    tokens = [s["token"] for s in t["seats"]]
    assert len(set(tokens)) == 3 and all(len(tok) >= 32 for tok in tokens)
    assert t["seats"][0]["url"] == f"/t/{t['id']}?token={tokens[0]}"
    pub = client.get(f"/api/tables/{t['id']}").json()
    assert pub["rules"] == "kansai" and not pub["finished"] and "seed" not in pub
    assert pub["seed_hash"] == t["seed_hash"] and len(t["seed_hash"]) == 64
    assert not any(tok in json.dumps(pub) for tok in tokens)
    listing = client.get("/api/tables").json()["tables"]
    assert [x["id"] for x in listing] == [t["id"]]


def test_default_seat_names_are_no_wind_words(client: TestClient) -> None:
    """Issue 18 (minor): an unnamed seat was named after its wind ("South discards S"). A person's or an
    external bot's seat is "Player N", a built-in bot's its bot's name; none is a wind word."""
    t = client.post("/api/tables", json={"rules": "kansai", "seats": ["human", "mjai", "defensive"]}).json()
    names = [s["name"] for s in client.get(f"/api/tables/{t['id']}").json()["seats"]]
    assert names == ["Player 1", "Player 2", "defensive"]
    assert not {n.lower() for n in names} & {"east", "south", "west", "north", "e", "s", "w", "n"}


def test_seed_is_published_after_the_game_and_hashes_to_seed_hash(client: TestClient) -> None:
    t = client.post("/api/tables", json={**BOTS, "seed": 77}).json()
    done = _finish(client, t["id"])
    assert done["seed"] == "77" and hashlib.sha256(b"77").hexdigest() == t["seed_hash"]
    assert sorted(done["result"]["ranks"]) == [1, 2, 3]


def test_the_seed_comes_from_secrets_when_not_given(client: TestClient) -> None:
    a = client.post("/api/tables", json=BOTS).json()
    b = client.post("/api/tables", json=BOTS).json()
    assert a["seed_hash"] != b["seed_hash"]


def test_record_is_409_while_running_then_tenhou6_and_mjai(client: TestClient, tmp_path: Path) -> None:
    t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"]}).json()
    for fmt in ("tenhou6", "mjai"):
        r = client.get(f"/api/tables/{t['id']}/record?format={fmt}")
        assert r.status_code == 409 and "error" in r.json() and set(r.json()) <= {"error", "code", "params"}
    assert client.get(f"/api/tables/{t['id']}/replay").status_code == 409
    t = client.post("/api/tables", json={**BOTS, "seed": 5}).json()
    _finish(client, t["id"])
    six = client.get(f"/api/tables/{t['id']}/record?format=tenhou6")
    assert six.status_code == 200 and "log" in six.json()
    text = client.get(f"/api/tables/{t['id']}/record?format=mjai").text
    rec = read_mjai(text)
    assert rec.kyoku and json.loads(text.splitlines()[0])["seed"] == "5"
    replay = client.get(f"/api/tables/{t['id']}/replay").json()
    assert replay["seed"] == "5" and replay["events"][1]["tehais"][1][0] != "?"  # every hand open
    assert client.get(f"/api/tables/{t['id']}/record?format=xml").status_code == 400


def test_a_finished_game_is_a_stored_record_for_replay_and_stats(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        t = client.post("/api/tables", json={**BOTS, "seed": 9}).json()
        _finish(client, t["id"])
    with open_db(db) as store:
        games = store.games()
        assert len(games) == 1 and games[0].complete and games[0].seed == "9"
        assert [s.name for s in games[0].seats] == ["efficient", "random", "tsumogiri"]


@pytest.mark.parametrize(("body", "message"), [
    ({"rules": "nosuch", "seats": ["human"] * 3}, "nosuch"),
    ({"rules": {"extends": "tenhou", "honba_ron": "lots"}, "seats": ["human"] * 3}, "honba_ron"),
    ({"rules": {"extends": "tenhou", "no_such_field": 1}, "seats": ["human"] * 3}, "no_such_field"),
    ({"rules_toml": "extends = 'tenhou'\nstart_points = 'x'\n", "seats": ["human"] * 3}, "start_points"),
    ({"rules": "tenhou", "seats": ["human", "human"]}, "seats"),
    ({"rules": "tenhou", "seats": ["human", "human", "wizard"]}, "wizard"),
    ({"rules": "tenhou", "seats": ["human"] * 3, "seed": [1]}, "seed"),
    ({"rules": "tenhou", "seats": ["human"] * 3, "clock": {"move": -1}}, "clock"),
    ({"rules": "tenhou", "seats": ["human"] * 3, "colour": "red"}, "colour"),
    ([1, 2, 3], "JSON object"),
])
def test_bad_table_requests_are_refused_naming_the_problem(client: TestClient, body: Any, message: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and message in r.json()["error"], r.json()
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def test_not_json_oversized_and_unknown_tables(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post("/api/tables", content=b"[" + b"1," * 100_000 + b"1]", headers={"content-type": "application/json"})
    assert r.status_code == 413 and "error" in r.json()
    for path in ("/api/tables/nope", "/api/tables/nope/record", "/api/tables/nope/replay", "/api/tables/" + "x" * 500):
        r = client.get(path)
        assert r.status_code == 404 and "error" in r.json() and set(r.json()) <= {"error", "code", "params"}


def test_an_uploaded_rule_file_is_used(client: TestClient) -> None:
    toml = 'extends = "tenhou"\nround_winds = "E"\nname = "club night"\n'
    t = client.post("/api/tables", json={"rules_toml": toml, "seats": ["human", "random", "random"]}).json()
    pub = client.get(f"/api/tables/{t['id']}").json()
    assert pub["rules"] == "club night" and pub["rules_detail"]["round_winds"] == "E"


def test_an_idle_socket_has_no_task_waiting_to_write(client: TestClient) -> None:
    """web/ws.py ``Connection``: a socket's messages go out, in order, through a task that runs only
    while its outbox has some. An idle socket keeps one task (its reader), not two: at 1,000 paced
    tables a writer waiting on a queue was three waits per action kept until the table's next, each
    walked by the collector's middle generation (docs/PERFORMANCE.md, "No writer waiting on an idle
    socket")."""
    import asyncio

    t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["mjai", "random", "random"], "seed": 1}).json()
    table = client.app.state.tables.get(t["id"])  # waiting for the bot (seat 0 deals): nothing more comes

    async def tasks_once_idle() -> int:
        for conn in list(table.listeners):
            await conn.flush(10)
            assert conn.sending is None and not conn.outbox
        return len(asyncio.all_tasks())

    with client.websocket_connect(f"/ws/tables/{t['id']}/watch") as first:
        assert [first.receive_json()["type"] for _ in range(2)] == ["hello", "view"]
        one = client.portal.call(tasks_once_idle)
        with client.websocket_connect(f"/ws/tables/{t['id']}/watch") as second:
            assert [second.receive_json()["type"] for _ in range(2)] == ["hello", "view"]
            assert len(table.listeners) == 2
            assert client.portal.call(tasks_once_idle) == one + 1  # the second socket's own task only


def test_a_finished_table_leaves_memory_and_is_read_from_the_store(client: TestClient) -> None:
    """Issue 11: once finished and stored, the live table is dropped; the API, the record, the
    replay and a page opened on it afterwards read the stored table (and keep nothing)."""
    tables = client.app.state.tables  # type: ignore[attr-defined]
    t = client.post("/api/tables", json={**BOTS, "seed": 5}).json()
    live = tables.running[t["id"]]
    done = _finish(client, t["id"])
    deadline = time.monotonic() + 10
    while t["id"] in tables.running and time.monotonic() < deadline:
        time.sleep(0.02)
    assert t["id"] not in tables.running
    assert done["seed"] == "5" and done["result"]["ranks"] == list(live.game.result.ranks)
    again = client.get(f"/api/tables/{t['id']}").json()  # from the store now: the same answer
    assert {k: v for k, v in again.items() if k != "seats"} == {k: v for k, v in done.items() if k != "seats"}
    assert again["round"] == {**live.public()["round"]} and again["hands"] == len(live.game.hand_results)
    assert again["result"]["points"] == list(live.game.result.points)
    replay = client.get(f"/api/tables/{t['id']}/replay").json()
    assert replay["events"][1:] == live.game.events[1:] and replay["seed"] == "5"
    assert client.get(f"/api/tables/{t['id']}/record?format=mjai").status_code == 200
    with client.websocket_connect(f"/ws/tables/{t['id']}/watch") as ws:  # a page on the finished table
        kinds = [ws.receive_json()["type"] for _ in range(3)]
        while "game_result" not in kinds:
            kinds.append(ws.receive_json()["type"])
    assert kinds[0] == "hello" and "view" in kinds
    assert t["id"] not in tables.running


def test_the_lobby_lists_the_round_of_a_running_table_and_the_final_scores_of_a_finished_one(
        client: TestClient) -> None:
    """Issue 11: the lobby's round column was always empty (the list carried no round at all)."""
    running = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "human", "human"]}).json()
    finished = client.post("/api/tables", json={**BOTS, "seed": 3}).json()
    done = _finish(client, finished["id"])
    listing = {x["id"]: x for x in client.get("/api/tables").json()["tables"]}
    r = listing[running["id"]]
    assert r["round"] == {"wind": "E", "number": 1, "lap": 0, "honba": 0, "sticks": 0, "dealer": 0}
    assert r["scores"] == [35000, 35000, 35000] and not r["finished"]
    f = listing[finished["id"]]
    assert f["finished"] and f["scores"] == done["result"]["scores"] and "round" not in f
