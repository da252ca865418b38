"""``sanma serve --synchronous-commit off`` (issue 22: the durability choice for the tables' moves
on PostgreSQL): the transaction that stores a served table's move commits asynchronously, and
nothing else does — a finished game, the keeper, the session's own setting stay durable; SQLite
refuses the choice in one line and changes nothing. And recovery when moves were lost: no write
after a gap, a page sent the table again, a bot told and disconnected, a process's key held again
after PostgreSQL dropped it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sanma.cli import app
from sanma.rules import Rules
from sanma.store import Store, StoreError, open_db
from sanma.store import tables as stored
from sanma.web.scheduler import ManualClock
from sanma.web.tables import Tables
from web_helpers import attach

RULES = {"extends": "tenhou", "round_winds": "E"}

# Every row inserted into a watched table notes the synchronous_commit its transaction runs with
# (an AFTER trigger: it runs at the end of the statement, inside the transaction, before it commits).
OBSERVE = """
CREATE TABLE observed (n SERIAL PRIMARY KEY, what TEXT NOT NULL, setting TEXT NOT NULL);
CREATE FUNCTION observe() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO observed (what, setting) VALUES (TG_TABLE_NAME, current_setting('synchronous_commit'));
  RETURN NULL;
END $$;
CREATE TRIGGER observe_actions AFTER INSERT ON web_actions FOR EACH ROW EXECUTE FUNCTION observe();
CREATE TRIGGER observe_games AFTER INSERT ON games FOR EACH ROW EXECUTE FUNCTION observe();
CREATE TRIGGER observe_keeper AFTER INSERT ON keeper_changes FOR EACH ROW EXECUTE FUNCTION observe();
"""


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[Store]:
    """A PostgreSQL store whose sessions commit durably by default (the test cluster's own default
    is off, for speed: this database's connections say on), watched by OBSERVE."""
    store = open_db(f"{pg_url}%20-csynchronous_commit%3Don")
    store.conn.script(OBSERVE)
    yield store
    store.close()


def _observed(store: Store) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in store.conn.execute("SELECT what, setting FROM observed ORDER BY n")]


def _play_a_game(store: Store) -> None:
    """A whole served game (a person and two bots) on the injected clock, every move stored."""
    clock = ManualClock()
    tables = Tables(store, clock)
    t, _ = tables.create({"rules": RULES, "seats": ["human", "efficient", "efficient"], "seed": 6,
                          "clock": {"move": 0, "call": 0, "think": 1, "result": 0}})
    attach(t, 0)
    while not t.finished:
        if t.prompt(0) is not None:
            t.act(0, t.prompt_legal[0][-1])
        else:
            clock.advance(clock.next_at() - clock.now())
    assert stored.events(store, t.id) == t.game.events
    tables.close()


def _keeper_write(store: Store) -> None:
    from sanma.keeper.keeper import Keeper

    k = Keeper(store)
    sid = k.new(Rules.preset("tenhou"), ["P", "Q", "R"], mode="final")["session"]
    k.add(sid, {"kind": "final", "scores": {"P": 50000, "Q": 35000, "R": 20000}}, client_id="c1")


def test_with_the_option_off_a_move_commits_asynchronously_and_nothing_else_does(pg_store: Store) -> None:
    stored.commit_moves(pg_store, synchronous=False)
    _play_a_game(pg_store)
    _keeper_write(pg_store)
    seen = _observed(pg_store)
    moves = [s for what, s in seen if what == "web_actions"]
    assert len(moves) > 50
    # every move's own transaction ran with synchronous_commit off; the finished game is stored in
    # a transaction that stays durable, as the keeper's entry is
    assert moves == ["off"] * len(moves)
    assert [s for what, s in seen if what == "games"] == ["on"]
    assert [s for what, s in seen if what == "keeper_changes"] == ["on"]
    # set for the move's transaction only: the session itself still commits durably
    assert pg_store.conn.execute("SHOW synchronous_commit").fetchone()[0] == "on"


def test_by_default_every_move_commits_durably(pg_store: Store) -> None:
    assert pg_store.durable_moves
    _play_a_game(pg_store)
    _keeper_write(pg_store)
    seen = _observed(pg_store)
    assert len(seen) > 50 and {s for _, s in seen} == {"on"}


def test_sqlite_refuses_asynchronous_moves_and_stays_durable(tmp_path: Path) -> None:
    with open_db(tmp_path / "db.sqlite") as store:
        with pytest.raises(StoreError, match="needs a PostgreSQL database"):
            stored.commit_moves(store, synchronous=False)
        assert store.durable_moves
        stored.commit_moves(store, synchronous=True)  # the default is no choice at all: accepted


def test_serve_refuses_the_option_on_sqlite_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    r = CliRunner().invoke(app, ["serve", "--db", str(db), "--synchronous-commit", "off"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.output.strip() == (f"error: {db}: --synchronous-commit off needs a PostgreSQL database "
                                "(--db postgresql://...): SQLite has no such choice")
    assert not db.exists() and not Path(f"{db}.lock").exists()  # nothing was made, no lock taken
    r = CliRunner().invoke(app, ["serve", "--synchronous-commit", "sometimes"], env={"COLUMNS": "200"})
    assert r.exit_code == 2 and "'sometimes' is not one of 'on', 'off'" in r.output


def test_serve_help_teaches_the_choice() -> None:
    r = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    text = " ".join(r.output.replace("│", " ").split())
    assert "--synchronous-commit" in text and "within about 0.6 s" in text and "Default: on" in text


# --------------------------------------------------------------------------------------------
# Recovery: a client that saw more of the game than the database kept (issue 22: with the
# option off, a crash of PostgreSQL may lose the last acknowledged moves). No crash is needed:
# a client claiming more events than stored, or a table read again with fewer, is the same.
# --------------------------------------------------------------------------------------------


def _row(table_id: str) -> stored.NewTable:
    return stored.NewTable(table_id, "tenhou", "{}", ({"kind": "human", "name": "A", "token_sha256": "0" * 64},) * 3,
                           "7", "1" * 64, {"move": 15.0, "bank": 60.0}, ({},) * 3, (60.0,) * 3,
                           "2026-01-01T00:00:00+00:00")


def test_a_write_after_a_gap_in_the_stored_events_writes_nothing(pg_url: str) -> None:
    """A process whose table is ahead of the database (its last moves lost) cannot store its next
    move after the gap: the write is refused whole, as a write of a table it no longer runs is."""
    with open_db(pg_url) as store:
        stored.create_table(store, _row("t1"), [{"type": "start_game"}])
        ahead = stored.Write(3, [{"type": "dahai"}], (stored.ActionRow(2, 0, 0, {"type": "none"}, "seat", "now"),))
        assert not stored.write(store, "t1", ahead)
        assert stored.event_count(store, "t1") == 1 and stored.actions(store, "t1") == []
        follows = stored.Write(1, [{"type": "tsumo"}], (stored.ActionRow(0, 0, 0, {"type": "none"}, "seat", "now"),))
        assert stored.write(store, "t1", follows) and stored.event_count(store, "t1") == 2


@pytest.fixture
def went_back(tmp_path: Path) -> Iterator[tuple[Tables, Any, Any, Any]]:
    """A table played on, and the same table as its database had it a few moves earlier (a copy
    taken then) and a function that plays n moves on: ``(tables, table, earlier, moves)``."""
    clock = ManualClock()
    store = open_db(tmp_path / "db.sqlite")
    tables = Tables(store, clock)
    t, _ = tables.create({"rules": RULES, "seats": ["human", "efficient", "efficient"], "seed": 6,
                          "clock": {"move": 0, "call": 0, "think": 1, "result": 0}})

    def moves(n: int) -> None:
        for _ in range(n):
            if t.prompt(0) is not None:
                t.act(0, t.prompt_legal[0][-1])
            else:
                clock.advance(clock.next_at() - clock.now())

    moves(4)
    store.conn.backup_to(str(tmp_path / "earlier.sqlite"))
    earlier_store = open_db(tmp_path / "earlier.sqlite")
    earlier = Tables(earlier_store, ManualClock()).get(t.id)
    yield tables, t, earlier, moves
    tables.close()
    store.close()
    earlier_store.close()


def test_a_page_whose_table_went_back_is_sent_it_whole_again(went_back: Any) -> None:
    _, t, earlier, moves = went_back
    person = attach(t, 0)
    moves(6)
    assert len(t.game.events) > len(earlier.game.events)
    told = len(person.sent.log)
    person.table = earlier  # as web/shared.py hands a connection to the table read again
    person.update(earlier)
    hello, view, *rest = person.sent.messages[told:]
    # as a new connection: hello (the page forgets its log), the current hand whole, its open prompt
    assert hello["type"] == "hello" and view["type"] == "view"
    assert view["event_index"] == earlier.hand_start
    assert len(view["events"]) == len(earlier.game.events) - earlier.hand_start
    prompt = earlier.prompt(0)
    assert [m["prompt"] for m in rest if m["type"] == "prompt"] == ([prompt.number] if prompt is not None else [])
    # and it goes on from there as any connection does
    assert person.sent_events == len(earlier.game.events)


def test_an_mjai_bot_whose_table_went_back_is_told_and_disconnected(went_back: Any) -> None:
    from sanma.web.ws import _HANG_UP

    _, t, earlier, moves = went_back
    bot = attach(t, 0, "mjai")
    moves(6)
    told = len(bot.sent.log)
    bot.update(earlier)
    [error] = bot.sent.messages[told:]
    n = len(earlier.game.events)
    assert error == [{"type": "error", "message": f"the table went back to event {n} (its last moves were lost): "
                                                  f"connect again without since, or with since at most {n}"}]
    assert bot.closed and list(bot.outbox) == [_HANG_UP]  # its socket is closed (1012) after the error


def _client(tmp_path: Path) -> Any:
    from fastapi.testclient import TestClient

    from sanma.web import create_app

    return TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1")


def test_a_bot_reconnecting_past_the_stored_events_is_refused_clearly_and_a_page_is_not(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    with _client(tmp_path) as client:
        t = client.post("/api/tables", json={"rules": "tenhou", "seats": ["mjai", "human", "random"], "seed": 1,
                                             "clock": {"move": 0, "think": 0, "result": 0}}).json()
        tid, bot, person = t["id"], t["seats"][0]["token"], t["seats"][1]["token"]
        table = client.app.state.tables.get(tid)  # waiting for the bot: seat 0 deals
        n = len(table.game.events)
        with client.websocket_connect(f"/ws/tables/{tid}/mjai?token={bot}&since={n + 5}") as ws:
            assert ws.receive_json() == [{"type": "error", "message": (
                f"since {n + 5} is past the game's {n} events (the table went back: its last moves were lost); "
                "connect without since to be sent the whole game")}]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4400
        with client.websocket_connect(f"/ws/tables/{tid}/mjai?token={bot}") as ws:  # as it is told: the whole game
            assert ws.receive_json()[0]["type"] == "start_game"
        # a page never resumes: whatever it claims, it is sent the current hand whole
        with client.websocket_connect(f"/ws/tables/{tid}/play?token={person}&since={n + 5}") as ws:
            assert ws.receive_json()["type"] == "hello"
            view = ws.receive_json()
            assert view["type"] == "view" and view["event_index"] == table.hand_start
            assert len(view["events"]) == n - table.hand_start and len(table.game.events) == n


def test_a_process_whose_key_postgresql_dropped_holds_it_again_at_its_next_sweep(pg_database: str) -> None:
    """After PostgreSQL restarts, every process's key (an advisory lock on a connection of its
    own) is gone with its session: each process holds it again at its next sweep, so the others do
    not take over (and take again, every second) the tables it still runs."""
    from sanma.store.lock import acquire_server_lock
    from sanma.web.shared import Shared

    lock = acquire_server_lock(pg_database)
    store = open_db(pg_database)
    tables = Tables(store, ManualClock(), node=lock.node)
    shared = Shared(tables, pg_database, lock.node or 0, lock)
    try:
        t, _ = tables.create({"rules": RULES, "seats": ["human", "efficient", "efficient"], "seed": 6})
        assert stored.live_nodes(store) == {lock.node} and stored.orphans(store) == []
        store.conn.execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE locktype = 'advisory' "
                           "AND objid::bigint = ?", (lock.node,))  # as a restart drops every session
        assert stored.live_nodes(store) == set() and stored.orphans(store) == [(t.id, lock.node)]
        assert shared.sweep() == 0  # its own running table is not taken over, and the key is held again
        assert stored.live_nodes(store) == {lock.node} and stored.orphans(store) == []
    finally:
        tables.close()
        store.close()
        lock.release()


def test_serve_hands_the_choice_to_the_server_it_starts(pg_database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from fastapi.testclient import TestClient

    started: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda server, **kw: started.append(server))
    for flag, durable in (("on", True), ("off", False)):
        r = CliRunner().invoke(app, ["serve", "--db", pg_database, "--synchronous-commit", flag])
        assert r.exit_code == 0, r.output
        with TestClient(started[-1], base_url="http://127.0.0.1") as client:
            assert client.app.state.store.durable_moves is durable
