"""The replay viewer's API (issue 18 item 6): any record sanma reads, replayed by the server's rules
engine; every step is the engine's own view with every hand open, every hand ends with its card as
at the table, and a record that does not replay clean is shown up to its first mismatch, named."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanma.formats import read_record
from sanma.game.engine import Game
from sanma.replay import replay_record
from sanma.rules import Rules
from sanma.store import open_db
from sanma.web import create_app
from sanma.web.limits import Limits
from sanma.web.tables import Tables
from shared_data import data_path

RECORDS = [
    "tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml",
    "tenhou_mjlog/2009060321gm-00b9-0000-75b25bcf.xml",
    "tenhou6_json/2024010120gm-00b9-0000-e324b88a.json",
    "majsoul_tenhou6_json/mjai-reviewer3p_kokushi_peinuki.json",
    "majiang_json/2014091101gm-00b9-0000-5ca6b487.json",
    "majsoul_mjai_excerpt/riichienv_mjsoul_3p_double_ron_excerpt.jsonl",
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # one client uploads many records here: the uploads' rate per client (web/limits.py) is lifted
    limits = Limits(uploads_per_minute=100_000, tables_per_minute=100_000)
    with TestClient(create_app(tmp_path_factory.mktemp("replays") / "db.sqlite", limits=limits),
                    base_url="http://127.0.0.1") as c:
        yield c


def upload(client: TestClient, body: bytes, name: str = "rec") -> Any:
    return client.post(f"/api/replays?name={name}", content=body, headers={"content-type": "text/plain"})


def views(hand: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step's whole view: the first step's, then each change applied (as the page does)."""
    out: list[dict[str, Any]] = []
    for step in hand["steps"]:
        if "view" in step:
            out.append(step["view"])
            continue
        change, last = step["change"], out[-1]
        seats = [change.get("seats", {}).get(str(i), s) for i, s in enumerate(last["seats"])]
        out.append({**last, **{k: v for k, v in change.items() if k != "seats"}, "seats": seats})
    return out


@pytest.mark.parametrize("name", RECORDS, ids=[n.split("/")[0] for n in RECORDS])
def test_every_format_replays_step_by_step_through_the_engine(client: TestClient, name: str) -> None:
    """Tenhou mjlog, tenhou.net/6 (Tenhou's and Mahjong Soul's), majiang and mjai records: every
    hand, each step the engine's view with every hand open, each hand its card; the same verdict as
    ``sanma replay --check`` (these records replay clean)."""
    path = data_path(name)
    r = upload(client, path.read_bytes(), path.name)
    assert r.status_code == 200, r.text
    data = r.json()
    rec = read_record(path)
    assert replay_record(rec).ok and data["mismatch"] is None
    assert data["format"] == rec.format and data["kyoku"] == len(data["hands"]) == len(rec.kyoku) > 0
    assert data["source"] == path.name
    for hand, kyoku in zip(data["hands"], rec.kyoku, strict=True):
        assert hand["label"] == kyoku.label and hand["result"] is not None
        steps = views(hand)
        deal = steps[0]
        for s in deal["seats"]:  # every hand open from the deal: 13 tiles, the dealer's 14th drawn
            assert len(s["tiles"]) + (s["drawn"] is not None) == (14 if s["seat"] == kyoku.dealer else 13)
        assert deal["scores"] == list(kyoku.start_scores)
        assert deal["dora_indicators"][0] == kyoku.dora_indicators[0].mjai
        # the wall only shrinks, a step at a time, as the engine draws
        walls = [v["wall_remaining"] for v in steps]
        assert walls == sorted(walls, reverse=True) and walls[0] > walls[-1]
        for v in steps:
            assert sum(len(s["discards"]) for s in v["seats"]) <= 3 * 30


def finished(client: TestClient, body: dict[str, Any]) -> str:
    """A bot-only table, played to its end (the server plays it on its own loop)."""
    tid = str(client.post("/api/tables", json={**body, "clock": {"move": 0}}).json()["id"])
    deadline = time.monotonic() + 120
    while not client.get(f"/api/tables/{tid}").json()["finished"]:
        assert time.monotonic() < deadline, f"table {tid} did not finish"
        time.sleep(0.05)
    return tid


def live_walls(client: TestClient, table_id: str) -> tuple[list[int], int]:
    """The wall counts a finished served table showed during its game (its stored actions applied
    again to a game from its published seed, as a restarted server does), and how many hands it had."""
    info = client.get(f"/api/tables/{table_id}").json()
    rules = Rules.preset(info["rules"])
    g = Game(rules, seed=info["seed"], names=tuple(s["name"] for s in info["seats"]))
    walls = [g.spectator_view().wall_remaining]
    with open_db(client.app.state.db_path) as store:  # type: ignore[attr-defined]
        rows = store.conn.execute("SELECT seat, legal_idx FROM web_actions WHERE table_id = ? ORDER BY idx",
                                  (table_id,)).fetchall()
    for seat, idx in rows:
        g.apply(g.legal_actions(seat)[idx])
        walls.append(g.spectator_view().wall_remaining)
    assert g.done and list(g.scores) == info["scores"]
    return walls, len(g.hand_results)


def test_the_wall_count_is_the_engines_under_the_tables_rules(client: TestClient) -> None:
    """Minor defect: the viewer counted the wall as ``55 - draws`` (Kansai's wall holds the flowers
    and keeps another dead wall). A finished Kansai table, replayed: every step's wall count is one
    the live game showed, the deal's first of all, and it is not 55."""
    tid = finished(client, {"rules": "kansai", "seats": ["random", "efficient", "defensive"], "seed": 11})
    walls, hands = live_walls(client, tid)
    data = client.get(f"/api/replays/table/{tid}").json()
    assert data["mismatch"] is None and len(data["hands"]) == hands and data["rules"] == "kansai"
    shown = [v["wall_remaining"] for h in data["hands"] for v in views(h)]
    assert set(shown) <= set(walls) and shown[0] == walls[0] != 55


def table_results(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    """The hand results a finished table sent at each hand's end: the server's own table, rebuilt
    from its store as after a restart (``Tables.get``), keeps them in ``results``."""
    with open_db(client.app.state.db_path) as store:  # type: ignore[attr-defined]
        return [r for _, r in Tables(store).get(table_id).results]


def test_every_card_of_a_stored_game_is_the_one_its_table_showed(client: TestClient) -> None:
    """Each hand's result card in the replay is the ``hand_result`` the table sent at the end of that
    hand (the same builder over the same events: web/results.py), the last one marked final; the
    final settlement is the table's; the players are the table's names."""
    tid = finished(client, {"rules": "tenhou", "seats": ["random", "efficient", "defensive"],
                            "names": ["Aki", "Ben", "Chie"], "seed": 4})
    data = client.get(f"/api/replays/table/{tid}").json()
    shown = table_results(client, tid)
    assert len(shown) == len(data["hands"]) and [h["result"] for h in data["hands"]] == shown
    assert data["hands"][-1]["result"]["final"] and not any(h["result"]["final"] for h in data["hands"][:-1])
    assert data["final"] == client.get(f"/api/tables/{tid}").json()["result"]
    assert data["players"] == ["Aki", "Ben", "Chie"] and data["table"] == tid


def test_a_running_or_unknown_game_has_no_replay(client: TestClient) -> None:
    """Replay steps only of finished games: a running table's replay is refused (409), and says
    nothing; an unknown table is a 404."""
    t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"]}).json()
    r = client.get(f"/api/replays/table/{t['id']}")
    assert r.status_code == 409 and set(r.json()) <= {"error", "code"}
    r = client.get("/api/replays/table/no-such-table")
    assert r.status_code == 404 and set(r.json()) <= {"error", "code"}


def test_a_record_that_does_not_replay_clean_is_shown_up_to_its_first_mismatch(client: TestClient) -> None:
    """A record whose win in a later hand claims one han more than its hand is worth: the hands before
    it are shown whole, that hand too with the engine's card, and the answer names the mismatch as
    ``sanma replay --check`` does (the record's han, the engine's); nothing after it is shown."""
    tid = finished(client, {"rules": "tenhou", "seats": ["random", "efficient", "defensive"], "seed": 4})
    mjai = client.get(f"/api/tables/{tid}/record?format=mjai").text
    events = [json.loads(line) for line in mjai.splitlines()]
    starts = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"]
    i = next(j for j in range(starts[1], len(events)) if events[j]["type"] == "hora" and events[j].get("han"))
    hand = sum(1 for s in starts if s < i) - 1
    assert 1 <= hand < len(starts) - 1, "a win after the first hand and before the last"
    events[i] = {**events[i], "han": events[i]["han"] + 1}
    bad = "\n".join(json.dumps(e) for e in events).encode()
    check = replay_record(read_record(bad, source="mangled.mjson"), Rules.preset("tenhou"))
    assert not check.ok and "han" in check.mismatches[0].what
    r = upload(client, bad, "mangled.mjson")
    assert r.status_code == 200, r.text
    data = r.json()
    m = data["mismatch"]
    assert m is not None and m["hand"] == hand and m["text"] == str(check.mismatches[0])
    assert len(data["hands"]) == hand + 1 and data["final"] is None
    card = data["hands"][hand]["result"]
    assert card is not None and card["wins"][0]["han"] == events[i]["han"] - 1  # the engine's han


def test_a_short_body_is_never_taken_for_a_path(client: TestClient, tmp_path: Path) -> None:
    """The readers open a file when given a short string; an upload is never read as a path."""
    secret = tmp_path / "secret.xml"
    secret.write_bytes(data_path(RECORDS[0]).read_bytes())
    for body in (str(secret).encode(), b"/etc/passwd", b"../../../../etc/hostname"):
        r = upload(client, body)
        assert r.status_code == 400, r.text
        assert "hands" not in r.json() and "unknown record format" in r.json()["error"]


@pytest.mark.parametrize(("body", "status", "words"), [
    (b"", 400, "empty"),
    (b"\xff\xfe\x00garbage", 400, "not UTF-8"),
    (b'{"log": "not a list"}', 400, "not a record sanma can read"),
    (b"<mjloggm ver=\"2.3\"><broken", 400, "not a record sanma can read"),
    (b"x" * (4 * 1024 * 1024 + 1), 413, "too large"),
])
def test_bad_uploads_are_clear_errors(client: TestClient, body: bytes, status: int, words: str) -> None:
    r = upload(client, body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"] and "Traceback" not in r.text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300) | st.text(alphabet='<>{}[]":,0123456789abcdefghijklmnopqrstuvwxyz \n', max_size=300)
       .map(str.encode))
def test_fuzzed_uploads_never_crash(client: TestClient, body: bytes) -> None:
    r = upload(client, body)
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert "error" in r.json() and set(r.json()) <= {"error", "code", "params"}


def test_a_mangled_real_record_still_opens_with_its_problems(client: TestClient) -> None:
    """Lenient readers: a record cut short opens with what it has; what is wrong is named (the readers'
    problems, and the first mismatch of its replay)."""
    text = data_path(RECORDS[0]).read_text(encoding="utf-8")
    cut = text[: int(len(text) * 0.6)]
    r = upload(client, cut.encode())
    assert r.status_code in (200, 400)
    if r.status_code == 200:
        data = r.json()
        assert data["errors"] and data["mismatch"], "a cut record says what is wrong with it"


def test_replay_page_is_served(client: TestClient) -> None:
    r = client.get("/replay")
    assert r.status_code == 200 and "replay viewer" in r.text
