"""The review panel's API (issue 21 item 3): ``sanma review``'s JSON for a seat of an uploaded record
or of a finished game of the server, made by the review's own code in a worker; each decision a step
of the replay viewer, with the seat's own hand (and nothing else) for the calculator; refusals."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sanma.formats import read_record
from sanma.review import review_record
from sanma.tiles import Tile, to_mpsz
from sanma.web import create_app
from sanma.web.limits import Limits, Meter
from sanma.web.reviews import Reviewed, Reviews
from shared_data import data_path
from test_review import check_contract
from test_web_replays import finished, views

#: a real Phoenix game (corpus/PROVENANCE.md), with calls, riichi and kita among its decisions
RECORD = ("corpus", "tenhou_phoenix_2026-01", "2026011603gm-00b9-0000-55f9a5cc.xml")
TEXT = {"content-type": "text/plain"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    limits = Limits(uploads_per_minute=100_000, tables_per_minute=100_000, reviews_per_minute=100_000)
    with TestClient(create_app(tmp_path_factory.mktemp("reviews") / "db.sqlite", limits=limits),
                    base_url="http://127.0.0.1") as c:
        yield c


@pytest.fixture(scope="module")
def record() -> bytes:
    return data_path(*RECORD).read_bytes()


@pytest.fixture(scope="module")
def reviewed(client: TestClient, record: bytes) -> dict[str, Any]:
    r = client.post("/api/reviews?seat=1&name=phoenix.xml", content=record, headers=TEXT)
    assert r.status_code == 200, r.text
    return dict(r.json())


def without_extras(j: dict[str, Any]) -> dict[str, Any]:
    return {**{k: v for k, v in j.items() if k != "words"},
            "decisions": [{k: v for k, v in d.items() if k != "position"} for d in j["decisions"]]}


def test_an_uploaded_real_record_is_the_reviews_own_json(reviewed: dict[str, Any], record: bytes) -> None:
    """The answer is the contract's JSON (probabilities in [0, 1], ``played`` among the options,
    regret 0 for the best and never negative), and it is exactly what ``sanma review --json`` makes of
    the record: the same code, no second copy of a number."""
    rec = read_record(record)
    check_contract(reviewed, len(rec.kyoku))
    assert reviewed["seat"] == 1 and reviewed["decisions"]
    own = review_record(rec, 1).to_json()
    assert without_extras(reviewed) == {**own, "source": "phoenix.xml"}
    # the page's words are the review's sentences; the contract's values stay English and language-free
    words = reviewed["words"]
    assert len(words["decisions"]) == len(reviewed["decisions"])
    assert [w["why"] for w in words["decisions"]] == [d["why"] for d in reviewed["decisions"]]
    assert all(len(w["options"]) == len(d["options"]) for w, d in zip(words["decisions"], reviewed["decisions"],
                                                                       strict=True))
    assert "not a learned policy" in words["model"].lower()


def test_a_review_speaks_the_requests_language_and_its_json_does_not(client: TestClient, record: bytes,
                                                                      reviewed: dict[str, Any]) -> None:
    ja = client.post("/api/reviews?seat=1&lang=ja", content=record, headers=TEXT).json()
    assert without_extras(ja)["decisions"] == without_extras(reviewed)["decisions"]
    said = ja["words"]
    assert said["categories"]["calls"] != "calls" and said["decisions"][0]["why"] != reviewed["decisions"][0]["why"]
    assert any("\u3040" <= ch <= "\u30ff" for ch in said["decisions"][0]["why"]), said["decisions"][0]["why"]


def seat_tiles(view: dict[str, Any], seat: int) -> list[str]:
    s = view["seats"][seat]
    return [*s["tiles"], *([s["drawn"]] if s["drawn"] else [])]


def test_each_decision_is_a_step_of_the_viewer_with_the_seats_own_hand(client: TestClient, record: bytes,
                                                                         reviewed: dict[str, Any]) -> None:
    """A decision's ``step`` (the hand's engine events before it) ends a step of the replay viewer's
    answer for the same record, so the page shows the board as the seat decided; its ``position`` (for
    the calculator) is that seat's own hand at that step — no other seat's tile — with the tile on
    offer as the winning tile when it decides on another seat's discard."""
    replay = client.post("/api/replays?name=x", content=record, headers=TEXT).json()
    seat = reviewed["seat"]
    checked = 0
    for d in reviewed["decisions"]:
        hand = replay["hands"][d["hand"]]
        ends, n = [], 0
        for step in hand["steps"]:
            n += len(step["events"])
            ends.append(n)
        assert d["step"] in ends, (d["hand"], d["step"], ends)
        view = views(hand)[ends.index(d["step"])]
        pos = d["position"]
        own = [Tile.from_mjai(t) for t in seat_tiles(view, seat)]
        offered = [Tile.parse(pos["win"])] if pos["win"] and not pos["tsumo"] else []
        assert pos["hand"] == to_mpsz([*own, *offered]), (d, seat_tiles(view, seat))
        if pos["tsumo"]:
            assert pos["win"] == str(Tile.from_mjai(view["seats"][seat]["drawn"]))
        melds = view["seats"][seat]["melds"]
        assert len(pos["pon"]) + len(pos["kan"]) + len(pos["ankan"]) == len(melds)
        assert pos["kita"] == view["seats"][seat]["kita"] and pos["rules"] == "tenhou"
        checked += 1
    assert checked == len(reviewed["decisions"]) > 20


def test_a_finished_game_of_the_server_is_reviewed_a_running_one_is_refused(client: TestClient) -> None:
    """A stored game: any seat of a finished table (its replay, every hand open, is public already),
    under the table's rules and names. A running table's review is refused (409) and says nothing
    else; an unknown table is a 404."""
    tid = finished(client, {"rules": "kansai", "seats": ["random", "efficient", "defensive"],
                            "names": ["Aki", "Ben", "Chie"], "seed": 11})
    r = client.get(f"/api/reviews/table/{tid}?seat=2")
    assert r.status_code == 200, r.text
    j = r.json()
    replay = client.get(f"/api/replays/table/{tid}").json()
    assert replay["hands"], {k: replay[k] for k in ("mismatch", "errors", "notes", "kyoku")}
    check_contract(j, len(replay["hands"]))
    assert j["seat"] == 2 and j["rules"] == "kansai" and j["players"] == ["Aki", "Ben", "Chie"] and j["table"] == tid
    assert all(d["position"]["rules"] == "kansai" for d in j["decisions"])
    running = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random"]}).json()
    r = client.get(f"/api/reviews/table/{running['id']}?seat=0")
    assert r.status_code == 409 and set(r.json()) <= {"error", "code"}, r.text
    r = client.get("/api/reviews/table/no-such-table?seat=0")
    assert r.status_code == 404 and set(r.json()) <= {"error", "code"}


@pytest.mark.parametrize(("query", "body", "status", "words"), [
    ("seat=3", b"x", 400, "seat must be 0, 1 or 2"),
    ("", b"x", 400, "seat must be 0, 1 or 2"),
    ("seat=0&rules=nope", b"x", 400, "unknown rules 'nope'"),
    ("seat=0", b"", 400, "empty"),
    ("seat=0", b"\xff\xfe\x00garbage", 400, "not UTF-8"),
    ("seat=0", b'{"log": "not a list"}', 400, "not a record sanma can read"),
    ("seat=0", b"x" * (4 * 1024 * 1024 + 1), 413, "too large"),
])
def test_bad_requests_are_clear_errors(client: TestClient, query: str, body: bytes, status: int, words: str) -> None:
    r = client.post(f"/api/reviews?{query}", content=body, headers=TEXT)
    assert r.status_code == status, r.text
    assert words in r.json()["error"] and "Traceback" not in r.text
    r = client.get(f"/api/reviews/table/x?{query}")
    if "seat=0" not in query:  # the query is checked before the table is looked for
        assert r.status_code == 400 and words in r.json()["error"]


def test_a_review_is_counted_against_the_clients_rate_once(tmp_path: Path, record: bytes) -> None:
    """``reviews_per_minute`` counts the reviews a client starts; a cached one (the same game, seat and
    rules) is answered again at no cost."""
    limits = Limits(uploads_per_minute=100, reviews_per_minute=1)
    with TestClient(create_app(tmp_path / "db.sqlite", limits=limits), base_url="http://127.0.0.1") as c:
        first = c.post("/api/reviews?seat=0", content=record, headers=TEXT)
        again = c.post("/api/reviews?seat=0", content=record, headers=TEXT)
        assert first.status_code == again.status_code == 200 and first.json() == again.json()
        other = c.post("/api/reviews?seat=2", content=record, headers=TEXT)
        assert other.status_code == 429 and "reviews a minute" in other.json()["error"], other.text


def test_reviews_are_bounded_and_one_asked_twice_is_made_once() -> None:
    """At most ``reviews`` are computed at once (503 over it); a second request for a review being
    made waits for that one. A worker stand-in that finishes when the test says (no wall time)."""
    async def scenario() -> None:
        release = asyncio.Event()
        runs: list[tuple[Any, ...]] = []

        class Workers:
            async def run(self, fn: Any, *args: Any) -> Any:
                runs.append(args)
                await release.wait()
                return fn(*args)

        limits = Limits(reviews=1)
        state = SimpleNamespace(workers=Workers(), tables=SimpleNamespace(limits=limits,
                                                                          meter=Meter(limits, lambda: 0.0)))
        request: Any = SimpleNamespace(app=SimpleNamespace(state=state), client=("1.2.3.4", 1))
        reviews = Reviews()
        made = Reviewed({"seat": 0}, _msg(), ())
        first = asyncio.create_task(reviews.get(request, ("a",), lambda: made))
        await asyncio.sleep(0)
        twin = asyncio.create_task(reviews.get(request, ("a",), lambda: made))
        busy = await reviews.get(request, ("b",), lambda: made)
        assert getattr(busy, "status_code", None) == 503
        release.set()
        assert await first is made and await twin is made and len(runs) == 1
        assert await reviews.get(request, ("a",), lambda: None) is made  # cached: not made again
    asyncio.run(scenario())


def _msg() -> Any:
    from sanma.i18n import sentence

    return sentence("model")
