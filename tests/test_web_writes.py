"""What a served table costs the store per action (issue 22: "SQLite's figures must not get worse"),
counted on the injected clock: one write per transition, and a discard that nobody may call
(``call`` 0: no window to wait for) is stored with the next draw in one write — yet every page is
still told that discard alone (issue 23: batching never tells whether a seat was asked)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import sanma.store.tables as stored
from sanma.store import open_db
from sanma.web.scheduler import ManualClock, Schedule
from sanma.web.tables import Tables
from web_helpers import LeakChecker, attach

RULES = {"extends": "tenhou", "round_winds": "E"}  # a whole game, and quick
BOTS = {"rules": RULES, "seats": ["efficient", "tsumogiri", "efficient"], "seed": "writes-1",
        "clock": {"move": 0, "call": 0, "think": 0, "result": 0}}


def _count_calls(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, counts: Counter[str]) -> None:
    """Wrap ``owner.name`` (a function or a method) so that each call adds one to ``counts[name]``."""
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


def _play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A bot table played to its end with a spectator's page and a seat's page attached (each an
    in-process connection through the protocol's classes): every write, every SQL statement and
    every schedule made into JSON counted."""
    store = open_db(tmp_path / "t.sqlite")
    statements: list[str] = []
    store.conn.raw.set_trace_callback(statements.append)  # type: ignore[attr-defined]
    writes: list[stored.Write] = []
    real_write = stored.write

    def write(s: Any, table_id: str, w: stored.Write) -> bool:
        writes.append(w)
        return real_write(s, table_id, w)

    dumps: Counter[str] = Counter()
    monkeypatch.setattr(stored, "write", write)
    _count_calls(monkeypatch, Schedule, "to_json", dumps)
    clock = ManualClock()
    tables = Tables(store, clock)
    table, _ = tables.create(BOTS)
    spectator = attach(table, None)
    seat = attach(table, 1)  # a bot's seat seen through a page: its own view, told like a person's
    statements.clear()
    writes.clear()
    dumps.clear()
    for _ in range(100_000):
        if table.finished:
            break
        assert clock.next_at() is not None, "the table waits for nothing"
        clock.advance(0)
    assert table.finished
    return {"table": table, "writes": writes, "statements": statements, "dumps": dumps["to_json"],
            "spectator": spectator.sent.messages, "seat": seat.sent.messages}


def test_one_write_per_action_a_discard_nobody_may_call_goes_with_the_next_draw(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write stores exactly one action (the bots act one at a time), but the release of a
    hand's end (the next deal, or the game's end: ``result`` 0) — never a window's release of its
    own: the draw after a discard that nobody may call is in the discard's write (before, that
    release was a transition and a write of its own: 1.9 writes per action)."""
    run = _play(tmp_path, monkeypatch)
    table, writes = run["table"], run["writes"]
    events = table.game.events
    hands = sum(1 for e in events if e["type"] == "end_kyoku")
    assert [len(w.actions) for w in writes if w.actions] == [1] * table.actions
    released = [w.events[0]["type"] for w in writes if not w.actions]
    assert released == ["start_kyoku"] * (hands - 1) + ["end_game"], released
    alone = sum(1 for i, e in enumerate(events[:-1]) if e["type"] == "dahai" and events[i + 1]["type"] == "tsumo")
    assert alone > 50  # many discards: nobody could call them
    assert len(writes) == table.actions + hands


def test_a_write_is_one_transaction_of_inserts_and_one_update_and_json_only_for_what_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each write is BEGIN, the actions' and the events' inserts, COMMIT — no read and no savepoint
    inside a second transaction (but the game's end, stored as a game in the same transaction) —
    and the table's row is updated only where its banks, toggles or lobby status changed: one
    process on its own database stores no schedule (only a process that takes a table over goes on
    from one), so it is never made into JSON (it was twice per transition: the table was synced and
    flushed twice)."""
    run = _play(tmp_path, monkeypatch)
    writes, statements = run["writes"], run["statements"]
    chunks: list[list[str]] = []
    for sql in statements:
        if sql.startswith("BEGIN"):
            chunks.append([])
        chunks[-1].append(sql.split(" (", 1)[0].split(" SET ", 1)[0])
    assert len(chunks) == len(writes)
    for chunk in chunks[:-1]:  # the last one also stores the finished game
        assert chunk[0] == "BEGIN IMMEDIATE" and chunk[-1] == "COMMIT", chunk
        assert set(chunk[1:-1]) <= {"INSERT INTO web_actions", "INSERT INTO web_events", "UPDATE web_tables"}, chunk
        assert chunk.count("UPDATE web_tables") <= 1, chunk
    updates = sum(chunk.count("UPDATE web_tables") for chunk in chunks[:-1])
    assert updates == sum(1 for w in writes[:-1] if w.banks or w.toggles or w.status) < len(writes) // 4
    assert all(w.schedule is None for w in writes) and run["dumps"] == 0


def test_every_page_is_told_a_discard_nobody_may_call_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored together, told in two steps: no view to the spectator or a seat carries a discard
    with what came after it, every event is told once and in order, and nothing leaks."""
    run = _play(tmp_path, monkeypatch)
    events = run["table"].game.events
    checker = LeakChecker(events, "writes-1")
    for seat, messages in ((None, run["spectator"]), (1, run["seat"])):
        checker.check_page(seat, messages)
        told = [e for m in messages if m["type"] == "view" for e in m["events"]]
        first = next(m["event_index"] for m in messages if m["type"] == "view")
        assert [e["type"] for e in told] == [e["type"] for e in events[first:]]


def test_one_schedule_sync_per_transition_and_no_json_encoder_made_per_action(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the served table spends per action besides its write (issue 22: the server's CPU per
    action on SQLite came back to 1a59ad9's): the schedule is synced once per transition — a held
    window released at once is synced after the release only (a sync at the window closed every
    prompt, and the one after opened them from there alike: it was synced twice) — and no JSON
    encoder is made at all (``json.dumps`` with ``separators`` makes one per call: one was made per
    stored event and per event of the finished game's record, 385 in this game of 94 actions)."""
    import json

    from sanma.web.tables import Table

    calls: Counter[str] = Counter()
    for name in ("_sync", "_settle"):
        _count_calls(monkeypatch, Table, name, calls)
    _count_calls(monkeypatch, json.JSONEncoder, "__init__", calls)
    table = _play(tmp_path, monkeypatch)["table"]
    assert calls["_settle"] >= table.actions
    assert calls["_sync"] == calls["_settle"], calls
    assert calls["__init__"] == 0, calls  # no JSON encoder made


def test_an_ascii_answer_without_escapes_is_not_scanned_for_lone_surrogates(monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON guard reads a bot's or a page's message once: a lone surrogate can only come from
    non-ASCII text or a ``\\u`` escape, so plain ASCII skips the scan of the parsed value (it ran on
    every answer) — and an escaped surrogate is still refused."""
    from sanma.web import guard

    calls: Counter[str] = Counter()
    _count_calls(monkeypatch, guard, "_has_surrogate", calls)
    assert guard.load_json('{"type": "dahai", "actor": 1, "pai": "5p", "tsumogiri": true}')["pai"] == "5p"
    assert calls["_has_surrogate"] == 0
    with pytest.raises(guard.BadJSON, match="surrogate"):
        guard.load_json('{"type": "dahai", "pai": "\\ud800"}')
    assert calls["_has_surrogate"] >= 1
