"""No hand entered twice, whatever the devices do (issue 19 item 1), through the Python API, the
HTTP API and `sanma table`: an entry carries the version its form was opened on; a second result
for a hand that already has one is refused naming who entered it and when; a chombo, a penalty or
a seating does not close a hand; entry numbers never shift; the CLI derives a client id so a
command run twice is stored once. The two-phone Chromium test is in tests/test_keeper_web.py."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sanma.cli import app
from sanma.keeper.entries import EntryConflict, KeeperError
from sanma.keeper.keeper import Keeper
from sanma.rules.schema import Rules
from sanma.store import open_db

CLUB = Rules.preset("club")


def ron(winner: str, loser: str, han: int, fu: int) -> dict[str, Any]:
    return {"kind": "win", "from": loser, "wins": [{"winner": winner, "han": han, "fu": fu}]}


DRAW_A = {"kind": "draw", "tenpai": ["A"]}


def test_a_second_result_for_a_hand_is_refused_naming_the_entry_who_and_when(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30), opened_version=0, author="Aki's phone", client_id="a1")
    for attempt in range(2):  # B's form was opened on version 0 too; B taps Save twice
        with pytest.raises(EntryConflict) as e:
            keeper.add(sid, DRAW_A, opened_version=0, author="Ben's phone", client_id="b1")
        assert "E1 of game 1 already has a result: #1" in str(e.value), attempt
        assert "entered by Aki's phone at" in str(e.value) and "UTC" in str(e.value)
        assert e.value.conflict["entry"] == 1 and e.value.conflict["author"] == "Aki's phone"
    s = keeper.state(sid)
    assert s["version"] == 1 and len(s["hands"]) == 1  # the refused attempts stored nothing
    # a form opened after that hand enters the next one
    assert keeper.add(sid, DRAW_A, opened_version=1, client_id="b2")["version"] == 2


def test_a_chombo_a_penalty_or_a_seating_does_not_close_the_hand(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, {"kind": "penalty", "who": "C", "penalty": "false_call"}, opened_version=0)
    keeper.add(sid, {"kind": "chombo", "who": ["C"]}, opened_version=0)  # the hand is played again
    s = keeper.add(sid, ron("A", "B", 2, 30), opened_version=0)  # the result of that hand: taken
    assert [h["kind"] for h in s["hands"]] == ["penalty", "chombo", "win"]
    assert [h["hand_index"] for h in s["hands"]] == [1, 1, 1]
    assert s["hand"]["index"] == 2


def test_the_same_penalty_from_two_devices_is_stored_once(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    pen = {"kind": "penalty", "who": "C", "penalty": "false_call"}
    keeper.add(sid, pen, opened_version=0, author="x")
    with pytest.raises(EntryConflict, match="the same entry was made on another device since this form was "
                                            "opened: #1 penalty false_call by C"):
        keeper.add(sid, pen, opened_version=0, author="y")
    assert keeper.add(sid, pen, opened_version=1)["version"] == 2  # seen, and entered again: a second one


def test_a_result_on_a_form_whose_hand_was_deleted_meanwhile_is_refused(keeper: Keeper) -> None:
    """The form was opened for hand 3; someone deleted hand 2's result since: saving would put the
    form's hand in hand 2's place, so it is refused (check and save again)."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, DRAW_A)
    keeper.add(sid, DRAW_A)
    keeper.fix(sid, 2, None)
    with pytest.raises(EntryConflict, match="the session changed since this form was opened"):
        keeper.add(sid, ron("A", "B", 2, 30), opened_version=2)
    assert keeper.state(sid)["version"] == 3


def test_the_last_hand_of_a_game_entered_twice_is_refused_not_put_in_the_next_game(keeper: Keeper) -> None:
    """A 3-han mangan-class win that busts B ends game 1; the second phone's copy of it would be
    the first hand of game 2 (or refused for a player not at that table): it is told instead."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    bust = {"kind": "win", "from": "B", "wins": [{"winner": "A", "yakuman": 1}]}
    s = keeper.add(sid, bust, opened_version=0)
    assert s["finished"]
    with pytest.raises(EntryConflict, match="E1 of game 1 already has a result: #1"):
        keeper.add(sid, bust, opened_version=0)
    assert len(keeper.state(sid)["games"]) == 1


def test_two_devices_at_the_same_moment_store_one_result(tmp_path: Path) -> None:
    """Two threads with their own connections enter a result for the same hand at once, both on
    forms opened at version 0: exactly one is stored, the other is refused naming it."""
    path = tmp_path / "k.sqlite"
    with open_db(path) as store:
        sid = Keeper(store).new(CLUB, ["A", "B", "C"])["session"]
    go = threading.Barrier(2)
    outcome: dict[str, str] = {}

    def phone(name: str, entry: dict[str, Any]) -> None:
        with open_db(path) as store:
            k = Keeper(store)
            go.wait()
            try:
                k.add(sid, entry, opened_version=0, author=name, client_id=name)
                outcome[name] = "stored"
            except EntryConflict as e:
                outcome[name] = str(e)

    threads = [threading.Thread(target=phone, args=a) for a in (("x", ron("A", "B", 2, 30)), ("y", DRAW_A))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(v == "stored" for v in outcome.values()) == [False, True], outcome
    winner = next(n for n, v in outcome.items() if v == "stored")
    loser = next(n for n, v in outcome.items() if v != "stored")
    assert f"entered by {winner} at" in outcome[loser]
    with open_db(path) as store:
        s = Keeper(store).state(sid)
    assert s["version"] == 1 and len(s["hands"]) == 1


def test_a_correction_of_an_entry_changed_on_another_device_is_refused(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30))
    keeper.fix(sid, 1, ron("A", "C", 2, 30), opened_version=1, author="x")
    with pytest.raises(EntryConflict, match=r"changed on another device since this form was opened \(a correction "
                                            r"by x at"):
        keeper.fix(sid, 1, ron("A", "B", 3, 30), opened_version=1, author="y")
    assert keeper.state(sid)["hands"][0]["entry"]["from"] == "C"


def test_opened_version_from_the_future_is_refused(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    with pytest.raises(KeeperError, match="a form opened at version 5"):
        keeper.add(sid, DRAW_A, opened_version=5)
    assert keeper.state(sid)["version"] == 0


def test_entry_numbers_never_shift_and_a_repeated_delete_deletes_nothing_else(keeper: Keeper) -> None:
    """Issue 19, "What was found" 7: entry numbers shifted after a delete, so `fix N --delete` run
    twice deleted another hand. Numbers are the order entries were added: a gap after a delete."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    for tenpai in ("A", "B", "C"):
        keeper.add(sid, {"kind": "draw", "tenpai": [tenpai]})
    s = keeper.fix(sid, 2, None, author="x")
    assert [h["no"] for h in s["hands"]] == [1, 3]
    with pytest.raises(KeeperError, match=r"entry 2 of session 1 was deleted \(a deletion by x at .* change 4\)"):
        keeper.fix(sid, 2, None)
    s = keeper.fix(sid, 3, {"kind": "draw", "tenpai": ["A", "C"]})
    assert [h["entry"]["tenpai"] for h in s["hands"]] == [["A"], ["A", "C"]]
    s = keeper.undo(sid, 4)  # the deletion undone: #2 is back in its place
    assert [h["no"] for h in s["hands"]] == [1, 2, 3]


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, ["table", *args])


def test_cli_a_command_run_twice_is_stored_once(tmp_path: Path) -> None:
    """The CLI derives a client id from the session, the hand and the entry: a result run again is
    refused naming the entry; a penalty run again for the same hand is stored once; --again says
    the same outcome really happened again."""
    db = str(tmp_path / "k.sqlite")
    sid = str(json.loads(_run("new", "--db", db, "--rules", "club", "--people", "A,B,C", "--json").stdout)["session"])
    draw = ("draw", sid, "--db", db, "--tenpai", "A")
    assert _run(*draw).exit_code == 0
    r = _run(*draw)
    assert r.exit_code == 2 and "this is #1 again" in r.stderr and "--again" in r.stderr, r.output
    assert _run(*draw, "--again").exit_code == 0
    pen = ("penalty", sid, "--db", db, "--who", "C", "--kind", "false_call")
    assert _run(*pen).exit_code == 0
    r = _run(*pen)
    assert r.exit_code == 0 and "already stored" in r.stdout
    r = _run(*pen, "--json")
    assert json.loads(r.stdout)["duplicate"] is True
    s = json.loads(_run("show", sid, "--db", db, "--json").stdout)
    assert [h["kind"] for h in s["hands"]] == ["draw", "draw", "penalty"] and s["version"] == 3
    r = _run("fix", sid, "1", "--db", db, "--draw", "--tenpai", "B")
    assert r.exit_code == 0
    r = _run("fix", sid, "1", "--db", db, "--draw", "--tenpai", "B")  # the same correction again: once
    assert r.exit_code == 0 and json.loads(_run("show", sid, "--db", db, "--json").stdout)["version"] == 4


def test_http_conflict_is_409_with_the_entry_in_the_way(tmp_path: Path) -> None:
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from sanma.web.keeper import router

    web = FastAPI()
    web.state.db_path = str(tmp_path / "k.sqlite")
    web.include_router(router)
    c = TestClient(web)
    made = c.post("/api/keeper/sessions", json={"rules": "club", "people": ["A", "B", "C"]}).json()
    sid = made["links"]["organiser"].removeprefix("/keeper/")  # a session is opened by its link, not its number
    url = f"/api/keeper/sessions/{sid}/entries"
    r = c.post(url, json={"entry": DRAW_A, "opened_version": 0, "client_id": "p1", "author": "Aki"})
    assert r.status_code == 200
    r = c.post(url, json={"entry": ron("A", "B", 2, 30), "opened_version": 0, "client_id": "p2"})
    assert r.status_code == 409
    assert r.json()["conflict"]["entry"] == 1 and r.json()["conflict"]["author"] == "Aki"
    assert "already has a result" in r.json()["error"]
    r = c.post(url, json={"entry": DRAW_A, "opened_version": "0"})
    assert r.status_code == 400 and "opened_version" in r.json()["error"]
    assert c.get(f"/api/keeper/sessions/{sid}").json()["version"] == 1


def test_cli_the_same_command_after_an_undo_is_stored_again(tmp_path: Path) -> None:
    """A derived client id names the change it stored; once that change is undone (or its entry
    deleted) the same command is a new entry, not "already stored"."""
    db = str(tmp_path / "k.sqlite")
    sid = str(json.loads(_run("new", "--db", db, "--rules", "club", "--people", "A,B,C", "--json").stdout)["session"])
    pen = ("penalty", sid, "--db", db, "--who", "C", "--kind", "false_call", "--json")
    assert json.loads(_run(*pen).stdout)["version"] == 1
    assert json.loads(_run("undo", sid, "--db", db, "--json").stdout)["version"] == 2
    s = json.loads(_run(*pen).stdout)
    assert s["version"] == 3 and not s.get("duplicate") and len(s["hands"]) == 1
    draw = ("draw", sid, "--db", db, "--tenpai", "A", "--json")
    assert json.loads(_run(*draw).stdout)["version"] == 4
    assert _run("fix", sid, "2", "--db", db, "--delete").exit_code == 0
    assert json.loads(_run(*draw).stdout)["version"] == 6


def test_the_cli_acknowledges_an_entry_the_page_stored_under_its_client_id(tmp_path: Path) -> None:
    """Issue 23 item 7: the page stored a draw under a client id (without the empty lists the CLI
    writes); the CLI sending it again under that id was refused ("already used for another
    change") instead of acknowledged. A different entry under the id is still refused."""
    from fastapi.testclient import TestClient

    from sanma.web.app import create_app

    db = str(tmp_path / "k.sqlite")
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        made = c.post("/api/keeper/sessions", json={"rules": "club", "people": ["A", "B", "C"]}).json()
        ref = made["links"]["organiser"].removeprefix("/keeper/")
        r = c.post(f"/api/keeper/sessions/{ref}/entries", json={"entry": {"kind": "draw", "tenpai": ["A"]},
                                                                 "client_id": "tap-7"})
        assert r.status_code == 200 and r.json()["version"] == 1
    sid = str(made["session"])
    r = _run("draw", sid, "--db", db, "--tenpai", "A", "--client-id", "tap-7", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["duplicate"] is True and json.loads(r.stdout)["version"] == 1
    r = _run("draw", sid, "--db", db, "--tenpai", "B", "--client-id", "tap-7")
    assert r.exit_code == 2 and "already used for another change" in r.stderr, r.output
    assert json.loads(_run("show", sid, "--db", db, "--json").stdout)["version"] == 1
