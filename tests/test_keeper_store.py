"""The score keeper's storage: append-only log, client ids, expected-version check, backup, and
the fold of corrections (issue 12 items 2 and 8) — the storage tests on SQLite and PostgreSQL
(``db_target``; issue 22 item 1)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanma.keeper.log import Change, ChangeKind, active, effective, last_undoable
from sanma.store import IntegrityError, Store, StoreError, open_db
from sanma.store.keeper import VersionConflict, append_change, backup, changes, create_session, session


def _session(path: str | Path) -> tuple[Store, int]:
    store = open_db(path)
    sid = create_session(store, rules_name="club", rules_json="{}", people=["A", "B", "C"], mode="hands")
    return store, sid


def test_log_is_append_only_in_the_database(db_target: str) -> None:
    """Item 8: hand entries are an append-only log; the database itself refuses edits."""
    store, sid = _session(db_target)
    append_change(store, sid, "add", None, {"kind": "draw"})
    with pytest.raises(IntegrityError, match="append-only"):
        store.conn.execute("UPDATE keeper_changes SET reason = 'x'")
    with pytest.raises(IntegrityError, match="append-only"):
        store.conn.execute("DELETE FROM keeper_changes")
    assert [c.reason for c in changes(store, sid)] == [""]


def test_same_client_id_is_stored_once_and_a_reused_id_for_another_change_is_refused(db_target: str) -> None:
    store, sid = _session(db_target)
    a = append_change(store, sid, "add", None, {"kind": "draw"}, client_id="phone-1")
    b = append_change(store, sid, "add", None, {"kind": "draw"}, client_id="phone-1")
    assert (a.seq, a.duplicate, b.seq, b.duplicate) == (1, False, 1, True)
    with pytest.raises(StoreError, match="already used"):
        append_change(store, sid, "add", None, {"kind": "abort"}, client_id="phone-1")
    assert len(changes(store, sid)) == 1 and session(store, sid).version == 1


def test_expected_version_check_refuses_a_stale_writer_and_changes_nothing(db_target: str) -> None:
    store, sid = _session(db_target)
    append_change(store, sid, "add", None, {"kind": "draw"}, expected_version=0)
    with pytest.raises(VersionConflict, match="version 1, not the expected 0"):
        append_change(store, sid, "add", None, {"kind": "draw"}, expected_version=0)
    assert session(store, sid).version == 1


def test_a_refused_check_writes_nothing(db_target: str) -> None:
    store, sid = _session(db_target)

    def refuse(log: list[Change]) -> None:
        raise StoreError(f"no ({len(log)})")

    with pytest.raises(StoreError, match=r"no \(1\)"):
        append_change(store, sid, "add", None, {"kind": "draw"}, check=refuse)
    assert changes(store, sid) == [] and session(store, sid).version == 0


def test_two_threads_against_one_file_lose_and_duplicate_nothing(db_target: str) -> None:
    """Item 2: two writers on one database, each with its own connection, each sending every
    entry twice (a flaky connection): every entry stored exactly once, versions 1..n (on
    PostgreSQL the session's row lock orders them; without it both would read one version)."""
    path = db_target
    store, sid = _session(path)
    store.close()
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        s = open_db(path)
        try:
            for i in range(15):
                for _ in range(2):
                    append_change(s, sid, "add", None, {"kind": "draw", "n": f"{name}{i}"}, client_id=f"{name}-{i}")
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            s.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with open_db(path) as s:
        log = changes(s, sid)
        assert sorted(c.entry["n"] for c in log if c.entry) == sorted(f"{n}{i}" for n in "xy" for i in range(15))
        assert [c.seq for c in log] == list(range(1, 31)) and session(s, sid).version == 30


def test_backup_is_a_consistent_copy_and_never_overwrites(db_target: str, tmp_path: Path) -> None:
    store, sid = _session(db_target)
    append_change(store, sid, "add", None, {"kind": "draw"})
    out = tmp_path / "copy.sqlite"
    backup(store, str(out))
    with open_db(out) as copy:
        assert len(changes(copy, sid)) == 1
    with pytest.raises(StoreError, match="already exists"):
        backup(store, str(out))


# --- the fold ----------------------------------------------------------------------------------

def test_undo_of_an_undo_redoes_and_fixes_follow_their_entry() -> None:
    log = [Change(1, "add", None, {"n": 1}), Change(2, "add", None, {"n": 2}), Change(3, "delete", 1, None),
           Change(4, "undo", 3, None), Change(5, "undo", 4, None), Change(6, "fix", 2, {"n": 20})]
    assert [e["n"] for _, e in effective(log)] == [20]
    assert active(log) == {1, 2, 3, 5, 6}
    assert last_undoable(log) == 6
    log.append(Change(7, "undo", 6, None))
    assert last_undoable(log) == 3 and [e["n"] for _, e in effective(log)] == [2]


_ops = st.lists(st.tuples(st.sampled_from(["add", "fix", "delete"]), st.integers(0, 30)), max_size=25)


@given(_ops, st.integers(0, 24))
def test_undoing_any_change_then_undoing_the_undo_restores_the_entries(ops: list[tuple[str, int]], k: int) -> None:
    """Item 3: every change can itself be undone: undo(c) then undo(undo(c)) gives back the log's entries."""
    log: list[Change] = []
    for kind, n in ops:
        uids = [u for u, _ in effective(log)]
        seq = len(log) + 1
        if kind == "add" or not uids:
            log.append(Change(seq, "add", None, {"n": seq}))
        else:
            edit: ChangeKind = "fix" if kind == "fix" else "delete"
            log.append(Change(seq, edit, uids[n % len(uids)], {"n": -seq} if edit == "fix" else None))
    if not log:
        return
    before = effective(log)
    target = log[k % len(log)].seq
    log.append(Change(len(log) + 1, "undo", target, None))
    log.append(Change(len(log) + 1, "undo", len(log), None))
    assert effective(log) == before


# --- the derived-state cache (migration 4; issue 12: CLI write speed) -----------------------------

def _json_state(state: dict[str, object]) -> str:
    import json

    return json.dumps(state, sort_keys=True, ensure_ascii=False)


_PEOPLE = ("A", "B", "C")
_op = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(["bust", "ron", "draw", "chombo"]), st.permutations(_PEOPLE)),
    st.tuples(st.just("fix"), st.integers(1, 40), st.permutations(_PEOPLE)),
    st.tuples(st.just("delete"), st.integers(1, 40), st.permutations(_PEOPLE)),
    st.tuples(st.just("undo"), st.integers(0, 40), st.permutations(_PEOPLE)),
)


def _entry(kind: str, people: tuple[str, ...]) -> dict[str, object]:
    a, b, _c = people
    if kind == "bust":  # a yakuman ron: the loser busts and the game ends (club, P108)
        return {"kind": "win", "from": b, "wins": [{"winner": a, "yakuman": 1}]}
    if kind == "ron":
        return {"kind": "win", "from": b, "wins": [{"winner": a, "han": 2, "fu": 30}]}
    if kind == "draw":
        return {"kind": "draw", "tenpai": [a]}
    return {"kind": "chombo", "who": [a]}


@settings(deadline=None, max_examples=40)
@given(st.lists(_op, min_size=1, max_size=30))
def test_cached_state_equals_a_full_recompute_after_random_entries_and_corrections(
        ops: list[tuple[str, object, tuple[str, ...]]]) -> None:
    """Issue 12 (CLI write speed): every write keeps the state at the last finished game in
    keeper_cache and the next read or write replays only the entries after it. After any
    sequence of entries, corrections, deletions and undos (refused ones included), the state read
    through the cache is the state recomputed from the whole log."""
    from sanma.keeper.entries import KeeperError
    from sanma.keeper.keeper import Keeper
    from sanma.rules.schema import Rules

    store = open_db(":memory:")
    k = Keeper(store)
    sid = k.new(Rules.preset("club"), list(_PEOPLE))["session"]
    for op, arg, people in ops:
        try:
            if op == "add":
                k.add(sid, _entry(str(arg), people))
            elif op == "fix":
                k.fix(sid, int(str(arg)), _entry("ron", people))
            elif op == "delete":
                k.fix(sid, int(str(arg)), None)
            else:
                k.undo(sid, int(str(arg)) or None)
        except (KeeperError, StoreError):
            pass  # a refused change: nothing is written
        cached = k._load(sid)
        full = k._load(sid, use_cache=False)
        assert full.cache_used == 0
        assert _json_state(cached.to_json()) == _json_state(full.to_json())
    store.close()


def test_the_cache_is_used_and_a_stale_or_damaged_one_is_ignored(db_target: str) -> None:
    """The cache covers the finished games (3 here) and the next read replays only the rest; a
    correction of an old game makes it stale (its hash no longer matches) and a damaged row
    reads as none: both fall back to the whole log, with the same state."""
    from sanma.keeper.keeper import Keeper
    from sanma.rules.schema import Rules
    from sanma.store.keeper import cached

    store = open_db(db_target)
    k = Keeper(store)
    sid = k.new(Rules.preset("club"), list(_PEOPLE))["session"]
    for _ in range(3):
        k.add(sid, _entry("bust", _PEOPLE))
    k.add(sid, _entry("draw", _PEOPLE))
    row = cached(store, sid)
    assert row is not None and row.prefix_len == 3
    s = k._load(sid)
    assert s.cache_used == 3 and len(s.games) == 3
    before = _json_state({**k.state(sid), "version": None})
    k.fix(sid, 1, _entry("ron", _PEOPLE))  # game 1 no longer ends at entry 1
    s = k._load(sid)
    assert len(s.games) == 2 and _json_state(s.to_json()) == _json_state(k._load(sid, use_cache=False).to_json())
    k.undo(sid)
    assert _json_state({**k.state(sid), "version": None}) == before
    store.conn.execute("UPDATE keeper_cache SET snapshot = '{\"format\": \"sanma-table-cache/1\"}'")
    s = k._load(sid)
    assert s.cache_used == 0 and _json_state({**s.to_json(), "version": None}) == before
    store.close()
