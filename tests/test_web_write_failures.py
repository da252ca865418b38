"""A transition whose write fails, on both databases (issue 23 item 5 with issue 22's one write per
transition): nothing of it stays in memory or reaches anyone, a seat's move is refused (and asked
again), and the table's timer is armed again so the transition due is tried ``RETRY_MS`` later —
the table never stops. The write is made to fail by another connection holding the lock it needs
(SQLite: the file's write lock; PostgreSQL: the table's row), as another program would."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from sanma.store import open_db
from sanma.store import tables as stored
from sanma.web.scheduler import ManualClock
from sanma.web.tables import RETRY_MS, Tables
from web_helpers import attach

RULES = {"extends": "tenhou", "round_winds": "E"}


@contextlib.contextmanager
def locked(target: str, table_id: str) -> Iterator[None]:
    """Another connection holds what the table's next write needs, until the block ends."""
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target) as conn:
            conn.execute("SELECT 1 FROM web_tables WHERE id = %s FOR UPDATE", (table_id,))
            yield
            conn.rollback()
        return
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def _stored(target: str, table_id: str) -> list[dict[str, Any]]:
    with open_db(target) as s:
        return stored.events(s, table_id)


@pytest.fixture
def table(db_target: str) -> Iterator[tuple[Any, ...]]:
    clock = ManualClock()
    store = open_db(db_target)
    store.wait_for_writes(50)  # (PostgreSQL's lock_timeout 0 would wait for ever)
    tables = Tables(store, clock)
    t, _ = tables.create({"rules": RULES, "seats": ["human", "efficient", "efficient"], "seed": 6,
                          "clock": {"move": 0, "call": 0, "think": 1, "result": 0}})
    person, spectator = attach(t, 0), attach(t, None)
    yield db_target, clock, t, person, spectator
    tables.close()
    store.close()


def test_a_bot_move_that_cannot_be_stored_is_tried_again_and_the_game_goes_on(table: Any) -> None:
    target, clock, t, person, spectator = table
    prompt = next(m for m in person.sent.messages if m["type"] == "prompt")
    discard = next(a for a in prompt["actions"] if a["type"] == "dahai")
    person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]}))
    clock.advance(0)  # the bot draws
    events, told, schedule = list(t.game.events), len(spectator.sent.log), t.schedule
    assert events[-1]["type"] == "tsumo" and events[-1]["actor"] == 1
    with locked(target, t.id):
        clock.advance(1000)  # the bot's think time is up, but its move cannot be stored
        assert t.game.events == events and t.schedule == schedule and len(spectator.sent.log) == told
        assert clock.next_at() == clock.now() + RETRY_MS  # the timer is armed again
        clock.advance(RETRY_MS)  # still locked: tried, refused, armed again
        assert t.game.events == events and clock.next_at() == clock.now() + RETRY_MS
    clock.advance(RETRY_MS)
    assert t.game.events[len(events)]["type"] == "dahai" and _stored(target, t.id) == t.game.events
    while not t.finished:  # the game goes on to its end, stored exactly as told
        if t.prompt(0) is not None:
            t.act(0, t.prompt_legal[0][-1])
        else:
            clock.advance(clock.next_at() - clock.now())
    assert _stored(target, t.id) == t.game.events
    assert spectator.sent.messages[-1]["type"] == "game_result"


def test_a_seat_s_move_that_cannot_be_stored_is_refused_and_asked_again(table: Any) -> None:
    target, _, t, person, spectator = table
    prompt = next(m for m in person.sent.messages if m["type"] == "prompt")
    discard = next(a for a in prompt["actions"] if a["type"] == "dahai")
    events, told = list(t.game.events), len(spectator.sent.log)
    with locked(target, t.id):
        person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]}))
        error, again = person.sent.messages[-2:]
        assert error["type"] == "error" and error["code"] == "not_stored" and "nothing changed" in error["message"]
        assert again == prompt and t.game.events == events and len(spectator.sent.log) == told
    assert _stored(target, t.id) == events
    person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": discard["id"]}))
    assert t.game.events[len(events)]["type"] == "dahai" and _stored(target, t.id) == t.game.events
