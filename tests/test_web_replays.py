"""The replay viewer's API (issue 11 item 4): any record sanma reads, as hands with every tile open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanma.formats import read_record
from sanma.web import create_app
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
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return TestClient(create_app(tmp_path_factory.mktemp("replays") / "db.sqlite"), base_url="http://127.0.0.1")


def upload(client: TestClient, body: bytes, name: str = "rec") -> Any:
    return client.post(f"/api/replays?name={name}", content=body, headers={"content-type": "text/plain"})


def _kind(tile: str) -> str:
    return tile[:-1] if tile.endswith("r") else tile


def replay_hand(kyoku: dict[str, Any], seat: int) -> list[str]:
    """The seat's concealed tiles after every event, as the viewer follows them (kinds only)."""
    hand = [_kind(t) for t in kyoku["initial_hands"][seat]]
    for e in kyoku["events"]:  # sanma's events in mjai form
        if e.get("actor") != seat:
            continue
        kind = e["type"]
        if kind == "tsumo":
            hand.append(_kind(e["pai"]))
        elif kind in ("dahai", "kita", "flower", "kakan"):
            hand.remove(_kind(e["pai"]))
        elif kind in ("pon", "daiminkan", "ankan"):
            for t in e["consumed"]:
                hand.remove(_kind(t))
    return sorted(hand)


@pytest.mark.parametrize("name", RECORDS, ids=[n.split("/")[0] for n in RECORDS])
def test_every_format_opens_with_every_hand(client: TestClient, name: str) -> None:
    """Tenhou mjlog, tenhou.net/6 (Tenhou's and Mahjong Soul's), majiang and mjai records all open."""
    path = data_path(name)
    r = upload(client, path.read_bytes(), path.name)
    assert r.status_code == 200, r.text
    data = r.json()
    rec = read_record(path)
    assert data["format"] == rec.format and len(data["kyoku"]) == len(rec.kyoku) > 0
    assert data["source"] == path.name
    for k, kyoku in zip(data["kyoku"], rec.kyoku, strict=True):
        assert k["label"] == kyoku.label and len(k["events"]) == len(kyoku.events)
        assert all(len(h) == 13 for h in k["initial_hands"]), "every starting hand is open"
        # a win's hand is what the events leave in the winner's hand (the viewer can follow it)
        for w in k["results"]:
            if w["type"] == "win" and not w["tsumo"]:
                won = sorted(_kind(t) for t in w["hand"])
                won.remove(_kind(w["win"]))
                assert replay_hand(k, w["seat"]) == sorted(won)


def test_a_short_body_is_never_taken_for_a_path(client: TestClient, tmp_path: Path) -> None:
    """The readers open a file when given a short string; an upload is never read as a path."""
    secret = tmp_path / "secret.xml"
    secret.write_bytes(data_path(RECORDS[0]).read_bytes())
    for body in (str(secret).encode(), b"/etc/passwd", b"../../../../etc/hostname"):
        r = upload(client, body)
        assert r.status_code == 400, r.text
        assert "kyoku" not in r.json() and "unknown record format" in r.json()["error"]


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
    """Lenient readers: a record cut short opens with what it has and lists the problems."""
    text = data_path(RECORDS[0]).read_text(encoding="utf-8")
    cut = text[: int(len(text) * 0.6)]
    r = upload(client, cut.encode())
    assert r.status_code in (200, 400)
    if r.status_code == 200:
        assert r.json()["errors"], "a cut record says what is wrong with it"


def test_replay_page_is_served(client: TestClient) -> None:
    r = client.get("/replay")
    assert r.status_code == 200 and "replay viewer" in r.text
