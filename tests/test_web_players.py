"""Players of the browser table (issue 18 item 5): a player id per browser, unguessable and its own;
the seats it sat at count for it alone (two people both called "Player 1" are two players); its
player page shows the figures ``sanma stats`` prints for it, computed by the same code."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from sanma.cli import app as cli
from sanma.store import open_db
from sanma.web import create_app
from sanma.web.players import player_id
from sanma.web.tables import Tables
from web_helpers import choose

RULES = {"extends": "tenhou", "round_winds": "E"}  # East-only games: whole, and quick


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1") as c:
        yield c


def new_player(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/players", json={})
    assert r.status_code == 201
    return dict(r.json())


def play(client: TestClient, player: str | None, seed: int) -> str:
    """One whole East-only game: a person at seat 0 (its page sends ``player``, its player token, or
    none) answers every prompt; bots at the other seats. Returns the table id."""
    t = client.post("/api/tables", json={"rules": RULES, "seats": ["human", "efficient", "defensive"], "seed": seed,
                                         "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}).json()
    rng = random.Random(seed)
    url = f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}" + (f"&player={player}" if player else "")
    with client.websocket_connect(url) as ws:
        while (m := ws.receive_json())["type"] != "game_result":
            if m["type"] == "prompt":
                ws.send_json({"type": "action", "prompt": m["prompt"], "id": choose(m["actions"], rng)["id"]})
    assert client.get(f"/api/tables/{t['id']}").json()["finished"]
    return str(t["id"])


def cli_stats(client: TestClient, player: str) -> dict[str, Any]:
    r = CliRunner().invoke(cli, ["stats", "--db", client.app.state.db_path, "--player", player, "--json"])  # type: ignore[attr-defined]
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)["players"]
    assert len(rows) == 1
    return dict(rows[0])


def test_a_browser_gets_an_unguessable_player_id_of_its_own(client: TestClient) -> None:
    """The token comes from ``secrets``; the public id is derived from it (a SHA-256), names the page,
    and gives no way back to the token; ids are the server's own format, anything else is a 404."""
    a, b = new_player(client), new_player(client)
    assert a["token"] != b["token"] and a["id"] != b["id"]
    assert len(a["token"]) >= 32 and re.fullmatch(r"[0-9a-f]{20}", a["id"]) and a["token"] not in a["id"]
    assert player_id(a["token"]) == a["id"] and a["page"] == f"/player/{a['id']}"
    fresh = client.get(f"/api/players/{a['id']}").json()
    assert fresh["stats"] is None and fresh["games"] == []  # no finished game yet
    for bad in ("nobody", "0" * 19, "g" * 20, "'; DROP TABLE players; --"):
        r = client.get(f"/api/players/{bad}")
        assert r.status_code == 404 and "error" in r.json() and r.json()["code"] == "not_found"
    assert player_id("short") is None and player_id("x" * 65) is None and player_id("bad token!" * 3) is None
    assert client.get(f"/player/{a['id']}").status_code == 200


def test_two_people_under_one_name_are_two_players_and_the_page_is_sanma_stats(client: TestClient) -> None:
    """Aki plays two games, Ben one, each at seat 0 under the default name "Player 1", and a page with
    no player id one more: each player page counts its own games only, and every figure on it is what
    ``sanma stats --db DB --player web:ID --json`` prints (one home: sanma.stats)."""
    aki, ben = new_player(client), new_player(client)
    aki_tables = [play(client, aki["token"], 1), play(client, aki["token"], 2)]
    ben_table = play(client, ben["token"], 3)
    play(client, None, 4)
    for who, n, tables in ((aki, 2, aki_tables), (ben, 1, [ben_table])):
        page = client.get(f"/api/players/{who['id']}").json()
        assert page["name"] == "Player 1" and page["player"] == f"web:{who['id']}"
        assert page["stats"] == cli_stats(client, page["player"])
        assert page["stats"]["games"] == n and len(page["games"]) == n
        assert [g["table"] for g in page["games"]] == tables
        assert all(g["replay"] == f"/replay?table={g['table']}" for g in page["games"])
        assert sum(g["placement"] for g in page["games"]) / n == page["stats"]["average_placement"]
        assert all(isinstance(g["points"], float) for g in page["games"])
    # the person without a player id counts under the seat's name, never for Aki or Ben
    assert cli_stats(client, "Player 1")["games"] == 1


def test_a_claimed_seat_is_kept_through_a_restart_and_not_taken_over(client: TestClient) -> None:
    """The first player to connect to a seat keeps it (stored with the table: a restarted server knows
    it); another browser with the same invite link does not take it over."""
    aki, ben = new_player(client), new_player(client)
    t = client.post("/api/tables", json={"rules": RULES, "seats": ["human", "efficient", "efficient"],
                                         "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}).json()
    url = f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}"
    for who in (aki, ben):
        with client.websocket_connect(f"{url}&player={who['token']}") as ws:
            assert ws.receive_json()["type"] == "hello"
    with open_db(client.app.state.db_path) as store:  # type: ignore[attr-defined]
        assert Tables(store).get(t["id"]).players == [aki["id"], None, None]


def test_the_player_store_gives_the_same_on_both_databases(db_target: str) -> None:
    """store/tables.claim_seat, tables_of_games and history.latest_name on SQLite and PostgreSQL: two
    finished tables where one player sat at seat 0, the player page's figures are sanma.stats'."""
    from sanma.game.engine import Game
    from sanma.rules import Rules
    from sanma.stats import player_stats
    from sanma.store import tables as stored
    from sanma.web.players import player_page

    pid = player_id("a" * 32)
    assert pid is not None
    with open_db(db_target) as s:
        ids = []
        for n, seed in enumerate((3, 4)):
            game = Game(Rules.preset("tenhou"), seed=seed, names=("Player 1", "efficient", "defensive"))
            rng = random.Random(seed)
            while not game.done:
                game.apply(rng.choice(game.legal_actions(game.to_move[0])))
            seat = {"kind": "human", "name": "Player 1", "token_sha256": "f" * 64}
            tid = f"t{n}"
            stored.create_table(s, stored.NewTable(tid, "tenhou", "{}", (seat,) * 3, str(seed), "2" * 64,
                                                   {"move": 0.0, "bank": 0.0}, ({},) * 3, (0.0,) * 3, "2026-01-01"),
                                game.events[:1])
            assert stored.claim_seat(s, tid, 0, pid) and not stored.claim_seat(s, tid, 0, "0" * 20)
            assert stored.claim_seat(s, tid, 0, pid)  # the same player again: still theirs
            row = stored.table(s, tid)
            assert row is not None and [x.get("player") for x in row.seats] == [pid, None, None]
            ids.append(stored.finish(s, tid, game.events, Rules.preset("tenhou"), str(seed),
                                     players=[f"web:{pid}", None, None]))
        assert stored.tables_of_games(s, [i for i in ids if i is not None]) == {ids[0]: "t0", ids[1]: "t1"}
        page = player_page(s, pid)
        assert page["name"] == "Player 1" and [g["table"] for g in page["games"]] == ["t0", "t1"]
        assert page["stats"] == player_stats(s, player=f"web:{pid}")[0].to_json() and page["stats"]["games"] == 2
        assert player_stats(s, player="Player 1") == []  # nobody else counts under the seat's name
