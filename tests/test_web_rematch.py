"""A rematch from the final card (issue 18 item 4): the same seats and rules, a fresh secret seed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sanma.web import create_app
from sanma.web.tables import rematch_id
from web_helpers import choose

RULES = {"extends": "tenhou", "round_winds": "E"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1") as c:
        yield c


def finished(client: TestClient, seed: int = 7) -> dict[str, Any]:
    """A finished East-only table of two people (seats 0 and 2, the first one played by a script that
    answers every prompt, the second with auto toggles) and a bot; its creation answer."""
    t = client.post("/api/tables", json={"rules": RULES, "seats": ["human", "efficient", "human"], "seed": seed,
                                         "names": ["Aki", "efficient", "Ben"],
                                         "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}).json()
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/tables/{t['id']}/play?token={t['seats'][2]['token']}") as ben:
        for name in ("auto_win", "auto_tsumogiri", "no_calls", "auto_kita"):
            ben.send_json({"type": "toggle", "name": name, "value": True})
        with client.websocket_connect(f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}") as ws:
            while (m := ws.receive_json())["type"] != "game_result":
                if m["type"] == "prompt":
                    ws.send_json({"type": "action", "prompt": m["prompt"], "id": choose(m["actions"], rng)["id"]})
    return dict(t)


def test_a_rematch_has_the_same_seats_and_rules_and_a_fresh_secret_seed(client: TestClient) -> None:
    t = finished(client)
    old = client.get(f"/api/tables/{t['id']}").json()
    aki, ben = t["seats"][0]["token"], t["seats"][2]["token"]
    assert client.get(f"/api/tables/{t['id']}/rematch").json() == {"rematch": None}
    r = client.post(f"/api/tables/{t['id']}/rematch", json={"token": aki})
    assert r.status_code == 201
    new_id = r.json()["id"]
    assert new_id == rematch_id(t["id"]) and r.json()["url"] == f"/t/{new_id}?token={aki}"
    # asked again, by the other person: the same rematch, made once
    again = client.post(f"/api/tables/{t['id']}/rematch", json={"token": ben})
    assert again.status_code == 200 and again.json() == {"id": new_id, "url": f"/t/{new_id}?token={ben}"}
    assert client.get(f"/api/tables/{t['id']}/rematch").json() == {"rematch": new_id}
    new = client.get(f"/api/tables/{new_id}").json()
    assert [(s["kind"], s["name"]) for s in new["seats"]] == [(s["kind"], s["name"]) for s in old["seats"]]
    assert new["rules_detail"] == old["rules_detail"] and new["clock"] == old["clock"] and not new["finished"]
    assert new["seed_hash"] != old["seed_hash"] and "seed" not in new  # a fresh seed, secret until the end
    # each person's own invite token takes their same seat at the rematch
    for seat, token in ((0, aki), (2, ben)):
        with client.websocket_connect(f"/ws/tables/{new_id}/play?token={token}") as ws:
            hello = ws.receive_json()
            assert hello["type"] == "hello" and hello["seat"] == seat


def test_only_a_person_of_a_finished_table_asks_for_a_rematch(client: TestClient) -> None:
    running = client.post("/api/tables", json={"rules": RULES, "seats": ["human", "efficient", "efficient"]}).json()
    r = client.post(f"/api/tables/{running['id']}/rematch", json={"token": running["seats"][0]["token"]})
    assert r.status_code == 409 and "error" in r.json() and set(r.json()) <= {"error", "code"}
    t = finished(client)
    for body, status in (({"token": "not-a-token"}, 403), ({"token": t["seats"][1]["token"]}, 403),  # a bot's seat
                         ({}, 400), ({"token": 5}, 400), ({"token": "x", "more": 1}, 400)):
        r = client.post(f"/api/tables/{t['id']}/rematch", json=body)
        assert r.status_code == status and "error" in r.json() and set(r.json()) <= {"error", "code"}, (body, r.json())
    assert client.post("/api/tables/nope/rematch", json={"token": "x"}).status_code == 404
    assert client.get("/api/tables/nope/rematch").status_code == 404
    assert client.get(f"/api/tables/{t['id']}/rematch").json() == {"rematch": None}  # nothing was made
