"""``sanma serve --synchronous-commit off`` (issue 22: the durability choice for the tables' moves
on PostgreSQL): the transaction that stores a served table's move commits asynchronously, and
nothing else does — a finished game, the keeper, the session's own setting stay durable; SQLite
refuses the choice in one line and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
        with pytest.raises(StoreError, match="need a PostgreSQL database"):
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
