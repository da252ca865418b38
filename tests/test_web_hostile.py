"""Hostile clients (issue 11 item 6): every refusal is a clear error message and changes nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from sanma.store import open_db
from sanma.web import create_app

HUMANS = {"rules": "tenhou", "seats": ["human", "human", "mjai"], "seed": 3,
          "clock": {"move": 0, "think": 0, "result": 0}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "db.sqlite", rate=20, burst=20), base_url="http://127.0.0.1") as c:
        yield c


def _until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    for _ in range(50):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} message")


def _state(client: TestClient, tid: str) -> tuple[int, int]:
    t = client.app.state.tables.get(tid)  # type: ignore[attr-defined]
    return t.seq, len(t.game.events)


def _table(client: TestClient) -> tuple[str, list[str]]:
    t = client.post("/api/tables", json=HUMANS).json()
    return t["id"], [s["token"] for s in t["seats"]]


def test_each_bad_message_is_refused_and_changes_nothing(client: TestClient) -> None:
    tid, tokens = _table(client)
    with client.websocket_connect(f"/ws/tables/{tid}/play?token={tokens[0]}") as dealer, \
            client.websocket_connect(f"/ws/tables/{tid}/play?token={tokens[1]}") as other:
        prompt = _until(dealer, "prompt")
        _until(other, "view")
        before = _state(client, tid)
        cases: list[tuple[Any, str, WebSocketTestSession]] = [
            ("{not json", "malformed", dealer),
            ("[1, 2]", "malformed", dealer),
            ({"type": "action", "prompt": "x", "id": 0}, "malformed", dealer),
            ({"type": "action", "seq": prompt["prompt"], "id": 0}, "malformed", dealer),  # protocol 1's key
            ({"type": "action", "prompt": prompt["prompt"], "id": True}, "malformed", dealer),
            ({"type": "dance"}, "unknown_type", dealer),
            ({"type": "action", "prompt": prompt["prompt"] - 1, "id": 0}, "stale", dealer),
            ({"type": "action", "prompt": prompt["prompt"] + 5, "id": 0}, "stale", dealer),
            ({"type": "action", "prompt": prompt["prompt"], "id": 999}, "no_such_action", dealer),
            ({"type": "action", "prompt": prompt["prompt"], "id": -1}, "no_such_action", dealer),
            ({"type": "action", "prompt": prompt["prompt"], "id": 0}, "not_your_turn", other),  # out of turn
            ({"type": "toggle", "name": "auto_cheat", "value": True}, "unknown_toggle", dealer),
            ({"type": "toggle", "name": "auto_win", "value": "yes"}, "malformed", dealer),
            ("x" * 5000, "too_large", dealer),
        ]
        for msg, code, ws in cases:
            ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))
            err = _until(ws, "error")
            assert err["code"] == code, (msg, err)
            assert err["message"] and "Traceback" not in err["message"]
            assert _state(client, tid) == before, msg
        # a seat can only play its own prompt's actions: the id indexes its own legal actions
        discard = next(a for a in prompt["actions"] if a["type"] == "dahai")
        dealer.send_json({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]})
        view = _until(dealer, "view")
        assert view["events"][-1]["type"] == "dahai" and view["prompt"] is None and _state(client, tid) > before


def test_a_flood_is_refused_then_closed(client: TestClient) -> None:
    tid, tokens = _table(client)
    with client.websocket_connect(f"/ws/tables/{tid}/play?token={tokens[1]}") as ws:
        _until(ws, "view")
        before = _state(client, tid)
        for _ in range(120):
            ws.send_json({"type": "ping", "t": 1})
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(300):
                m = ws.receive_json()
                if m["type"] == "error":
                    codes.append(m["code"])
        assert closed.value.code == 1008
        assert "rate" in codes and _state(client, tid) == before


def test_bad_tokens_unknown_tables_and_spectators_cannot_act(client: TestClient) -> None:
    tid, tokens = _table(client)
    for path, code in ((f"/ws/tables/{tid}/play?token=guess", 4403), (f"/ws/tables/{tid}/play", 4403),
                       (f"/ws/tables/nope/play?token={tokens[0]}", 4404),
                       (f"/ws/tables/{tid}/play?token={tokens[2]}", 4403),  # an mjai seat's token on the page
                       (f"/ws/tables/{tid}/mjai?token={tokens[0]}", 4403)):  # a person's token as a bot
        with client.websocket_connect(path) as ws:
            m = ws.receive_json()
            assert (m["code"] if isinstance(m, dict) else "bad_token") in ("bad_token", "no_such_table")
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == code
    with client.websocket_connect(f"/ws/tables/{tid}/watch") as ws:
        hello = _until(ws, "hello")
        assert hello["role"] == "spectator" and hello["seat"] is None and hello["toggles"] is None
        before = _state(client, tid)
        ws.send_json({"type": "action", "prompt": 1, "id": 0})
        assert _until(ws, "error")["code"] == "spectator"
        ws.send_json({"type": "toggle", "name": "auto_win", "value": True})
        assert _until(ws, "error")["code"] == "spectator"
        ws.send_json({"type": "dismiss"})
        assert _until(ws, "error")["code"] == "spectator"
        assert _state(client, tid) == before


def test_mjai_bot_illegal_answers_are_refused_and_asked_again(client: TestClient) -> None:
    t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["mjai", "random", "random"], "seed": 1,
                                         "clock": {"move": 0, "think": 0, "result": 0}}).json()
    tid, token = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}/mjai?token={token}") as ws:
        batch = ws.receive_json()
        assert batch[0]["type"] == "start_game" and batch[0]["id"] == 0 and "seed" not in batch[0]
        possible = batch[-1]["possible_actions"]
        before = _state(client, tid)
        for bad in ("nope", json.dumps({"type": "dahai", "actor": 0, "pai": "5z"}),
                    json.dumps({"type": "dahai", "actor": 1, "pai": possible[0].get("pai")}),
                    json.dumps({"type": "pon", "actor": 0})):
            ws.send_text(bad)
            again = ws.receive_json()
            assert again[0]["type"] == "error" and again[0]["possible_actions"] == possible
            assert _state(client, tid) == before
        ws.send_json(next(a for a in possible if a["type"] == "dahai"))
        nxt = ws.receive_json()
        assert _state(client, tid)[0] > before[0] and nxt[0]["type"] != "error"


def test_toggles_are_kept_through_a_disconnect(client: TestClient) -> None:
    tid, tokens = _table(client)
    with client.websocket_connect(f"/ws/tables/{tid}/play?token={tokens[1]}") as ws:
        ws.send_json({"type": "toggle", "name": "no_calls", "value": True})
        assert _until(ws, "toggles")["toggles"]["no_calls"] is True
    with client.websocket_connect(f"/ws/tables/{tid}/play?token={tokens[1]}") as ws:
        assert _until(ws, "hello")["toggles"]["no_calls"] is True


def test_auto_tsumogiri_plays_for_the_seat(client: TestClient, tmp_path: Path) -> None:
    t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "tsumogiri", "tsumogiri"],
                                         "seed": 4, "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}).json()
    tid, token = t["id"], t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}/play?token={token}") as ws:
        _until(ws, "prompt")
        seq0 = _state(client, tid)[0]
        ws.send_json({"type": "toggle", "name": "auto_kita", "value": True})  # sanma: a North is a choice
        ws.send_json({"type": "toggle", "name": "auto_tsumogiri", "value": True})
        deadline = time.monotonic() + 30
        while _state(client, tid)[0] < seq0 + 12 and time.monotonic() < deadline:
            time.sleep(0.05)
    with open_db(tmp_path / "db.sqlite") as store:
        rows = store.conn.execute("SELECT how FROM web_actions WHERE table_id = ? AND seat = 0", (tid,)).fetchall()
    assert ("auto",) in rows  # the server chose the seat's tsumogiri


def test_the_clock_plays_a_silent_seat(client: TestClient, tmp_path: Path) -> None:
    clock = {"move": 0.05, "bank": 0.05, "call": 0, "think": 0, "result": 0}
    t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"], "seed": 4,
                                         "clock": clock}).json()
    tid = t["id"]
    deadline = time.monotonic() + 30
    while _state(client, tid)[0] < 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    with open_db(tmp_path / "db.sqlite") as store:
        rows = store.conn.execute("SELECT how FROM web_actions WHERE table_id = ? AND seat = 0", (tid,)).fetchall()
    assert rows and set(rows) == {("clock",)}
    assert client.app.state.tables.get(tid).banks[0] == 0  # type: ignore[attr-defined]


def test_an_mjai_answer_over_the_rate_is_refused_and_asked_again(tmp_path: Path) -> None:
    """A bot's answer refused for the rate changes nothing, and the bot is asked again with its
    possible actions (it was left waiting for a frame that never came)."""
    with TestClient(create_app(tmp_path / "db.sqlite", rate=0.001, burst=1), base_url="http://127.0.0.1") as client:
        t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["mjai", "random", "random"], "seed": 1,
                                             "clock": {"move": 0, "think": 0, "result": 0}}).json()
        tid, token = t["id"], t["seats"][0]["token"]
        with client.websocket_connect(f"/ws/tables/{tid}/mjai?token={token}") as ws:
            possible = ws.receive_json()[-1]["possible_actions"]
            before = _state(client, tid)
            ws.send_text("not even read")  # the answer owed (never charged): refused as illegal, asked again
            assert ws.receive_json()[0]["possible_actions"] == possible
            ws.send_text("nor this")  # the same question owes nothing more: the burst's one message
            assert ws.receive_json()[0]["possible_actions"] == possible
            ws.send_json(next(a for a in possible if a["type"] == "dahai"))  # over the rate
            again = ws.receive_json()
            assert again[0]["type"] == "error" and "messages a second" in again[0]["message"]
            assert again[0]["possible_actions"] == possible and _state(client, tid) == before


def test_a_bot_answering_every_question_at_once_is_never_throttled(tmp_path: Path) -> None:
    """The rate limit counts what a connection sends beyond the one answer it owes each question:
    a fast bot (here: every answer at once, under a limit of one message per 1,000 s) plays on."""
    with TestClient(create_app(tmp_path / "db.sqlite", rate=0.001, burst=1), base_url="http://127.0.0.1") as client:
        t = client.post("/api/tables", json={"rules": {"extends": "tenhou", "round_winds": "E"},
                                             "seats": ["mjai", "tsumogiri", "tsumogiri"], "seed": 3,
                                             "clock": {"move": 0, "think": 0, "result": 0}}).json()
        with client.websocket_connect(f"/ws/tables/{t['id']}/mjai?token={t['seats'][0]['token']}") as ws:
            answered = 0
            while answered < 40:
                batch = ws.receive_json()
                assert all(e["type"] != "error" for e in batch), batch
                if any(e["type"] == "end_game" for e in batch):
                    break
                possible = batch[-1].get("possible_actions")
                if possible:
                    ws.send_json(next((a for a in possible if a["type"] == "none"), possible[-1]))
                    answered += 1
        assert answered >= 20


class _SameActions:
    """The game as it is, except that ``seat`` keeps being offered ``legal`` (a compiled ``Game``
    cannot have a method patched, so the test wraps it)."""

    def __init__(self, game: Any, seat: int, legal: Any) -> None:
        self._game, self._seat, self._legal = game, seat, legal

    def legal_actions(self, s: int) -> Any:
        return self._legal if s == self._seat else ()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def test_a_seat_that_must_decide_again_gets_a_new_prompt_even_for_the_same_actions(tmp_path: Path) -> None:
    """Draw 1p, discard it, draw another 1p: the seat's actions are the same as before, but it is a
    new decision; its prompt must be new (same seq = already answered = never sent again: a stall)."""
    from sanma.store import open_db
    from sanma.web.tables import Tables

    with open_db(tmp_path / "t.sqlite") as store:
        tables = Tables(store)
        t, _ = tables.create({"rules": "tenhou", "seats": ["human"] * 3, "seed": 1,
                              "clock": {"move": 0, "think": 0, "result": 0}})
        seat = t.game.to_move[0]
        first, legal = t.prompt(seat), t.prompt_legal[seat]
        assert first is not None and first.number == 1
        t.game = _SameActions(t.game, seat, legal)  # type: ignore[assignment]
        t._sync(t.time.now())  # another seat's move: the seat's open prompt stays the same one
        assert t.prompt(seat) == first
        t.answered[seat] = True  # the seat answered, and now must decide again with the same actions
        t._sync(t.time.now())
        again = t.prompt(seat)
        assert again is not None and again.number == 2 and t.prompt_legal[seat] == legal

