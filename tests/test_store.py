"""sanma.store: records and games round-trip through the database, imports are idempotent, every save
is one transaction, and hostile input never changes what is stored — on SQLite and on PostgreSQL
(the ``store`` fixture runs each test on both; issue 22 item 1)."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sanma import events as ev
from sanma.errors import RecordError, SanmaError
from sanma.formats import GameRecord, read_mjai, read_record, write_mjai
from sanma.formats.record import KyokuRecord, RecordedWin
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.rules.loader import to_dict
from sanma.sim.arena import EntryResult, GameSummary, play_game
from sanma.sim.local import summarise
from sanma.store import (
    SCHEMA_VERSION,
    DatabaseError,
    IntegrityError,
    Store,
    StoreError,
    db,
    default_db_path,
    file_checksum,
    open_db,
    record_events,
)
from shared_data import data_path

# the whole module reads these records (missing: skipped here, failed under CI=true)
RECORDS = sorted(p for d in ("tenhou_mjlog", "tenhou6_json", "majiang_json", "majsoul_tenhou6_json",
                             "majsoul_mjai_excerpt") for p in data_path(d).iterdir())
MJLOG_2014 = data_path("tenhou_mjlog", "2014091101gm-00b9-0000-5ca6b487.xml")
MAJIANG_2014 = data_path("majiang_json", "2014091101gm-00b9-0000-5ca6b487.json")
SMALL = data_path("tenhou_mjlog", "2018110809gm-00b9-0000-00a79b89.xml")
OTHER = data_path("tenhou6_json", "2024123123gm-00b9-0000-4a3a3639.json")


@pytest.fixture
def store(db_target: str) -> Iterator[Store]:
    s = open_db(db_target)
    yield s
    s.close()


def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in order (any backend)."""
    out = {}
    for table in sorted(store.conn.tables()):
        columns = ", ".join(store.conn.columns(table))
        out[table] = sorted((tuple(r) for r in store.conn.execute(f"SELECT {columns} FROM {table}")), key=repr)
    return out


def _without_source(k: KyokuRecord, drop_dora_events: bool) -> KyokuRecord:
    events = tuple(e for e in k.events if not (drop_dora_events and isinstance(e, ev.Dora)))
    results = tuple(dataclasses.replace(r, source="") if isinstance(r, RecordedWin) else r for r in k.results)
    return dataclasses.replace(k, events=events, results=results)


# --------------------------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_record_round_trip_gives_back_the_record_and_its_events(store: Store, path: Path) -> None:
    record = read_record(path)
    assert record.errors == ()
    saved = store.import_files([path])[0]
    assert store.load_record(saved.record_id) == record
    assert store.record_content(saved.record_id) == path.read_bytes()
    events = store.events(saved.game_id)
    assert events == record_events(record)
    # the stored mjai reads back as the same game, hand for hand (tenhou.net/6 JSON has no kan-dora
    # reveal events: the stored stream adds them, so those are left out of the comparison)
    back = read_mjai(write_mjai(events), source=str(path))
    assert back.errors == ()
    assert back.players == record.players
    assert [_without_source(k, True) for k in back.kyoku] == [_without_source(k, True) for k in record.kyoku]
    assert [k.dora_indicators for k in back.kyoku] == [k.dora_indicators for k in record.kyoku]
    if record.complete:
        assert back.final_scores == record.final_scores
    [row] = store.records()
    assert (row.source_path, row.format, row.checksum) == (str(path), record.format, file_checksum(path.read_bytes()))
    kyoku = store.kyoku(saved.game_id)
    assert [(k["round_wind"], k["dealer"], k["honba"], tuple(k["start_scores"])) for k in kyoku] == \
        [(k.round_wind, k.dealer, k.honba, k.start_scores) for k in record.kyoku]
    assert all(events[k["first_event"]]["type"] == "start_kyoku" for k in kyoku)


def test_engine_game_round_trip(store: Store) -> None:
    rules = Rules.preset("tenhou")
    game = Game(rules, seed=11)
    rng = random.Random(11)
    while not game.done:
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
    assert game.result is not None
    game_id = store.save_game(game.events, rules=rules, seed=11)
    assert store.events(game_id) == game.events
    row = store.game(game_id)
    assert (row.kind, row.rules_name, row.seed, row.hands, row.complete) == \
        ("engine", "tenhou", "11", len(game.hand_results), True)
    assert tuple(s.score for s in row.seats) == game.result.scores
    assert tuple(s.placement for s in row.seats) == game.result.ranks
    stored_rules = json.loads(store.conn.execute("SELECT rules_json FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    assert stored_rules == to_dict(rules)


def test_simulation_run_is_stored_with_rules_seed_bots_and_each_game(store: Store) -> None:
    rules = Rules.preset("online")
    bots = ("random", "tsumogiri", "random")
    games = [play_game(rules, bots, seed=4, index=i) for i in range(2)]
    summary = summarise(rules, 4, bots, games, seconds=0.5, jobs=1)
    sim_id = store.save_simulation(rules, 4, bots, games, seconds=0.5, summary=summary.to_json())
    [run] = store.simulations()
    assert (run.id, run.rules_name, run.seed, run.bots, run.games) == (sim_id, "online", "4", bots, 2)
    assert run.rules == to_dict(rules)
    assert run.summary == summary.to_json()
    assert run.kyoku == sum(g.kyoku for g in games)
    rows = store.simulation_results(sim_id)
    keys = ("game_index", "entry", "bot", "seat", "placement", "score", "wins")
    assert [tuple(r[k] for k in keys) for r in rows] == \
        [(g.index, j, bots[j], e.seat, e.placement, e.score, e.wins) for g in games for j, e in enumerate(g.entries)]
    assert store.games() == []  # no events were kept: simulation rows only


# --------------------------------------------------------------------------------------------
# Idempotent imports
# --------------------------------------------------------------------------------------------


def test_importing_the_same_file_twice_stores_it_once(store: Store, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = store.import_files([SMALL])[0]
    before = dump(store)
    copy = tmp_path / "renamed.xml"
    copy.write_bytes(SMALL.read_bytes())

    def no_parsing(data: bytes, source: str) -> GameRecord:
        raise AssertionError("a stored file must not be read again")

    monkeypatch.setattr(db, "parse_record", no_parsing)
    again = store.import_files([SMALL, copy])
    assert [(a.record_id, a.game_id, a.new_record, a.new_game) for a in again] == \
        [(first.record_id, first.game_id, False, False)] * 2
    assert dump(store) == before
    record = read_record(SMALL)
    assert store.save_record(record, "elsewhere.xml", file_checksum(SMALL.read_bytes())) == again[0]
    assert len(store.records()) == 1 and len(store.games()) == 1


def test_the_same_tenhou_game_in_two_formats_is_one_game(store: Store) -> None:
    a, b = store.import_files([MJLOG_2014, MAJIANG_2014])
    assert (a.new_game, b.new_game, b.new_record) == (True, False, True)
    assert a.game_id == b.game_id
    assert len(store.records()) == 2
    [game] = store.games()
    assert game.log_id == "2014091101gm-00b9-0000-5ca6b487"
    assert game.played_at == "2014-09-11T01:00+09:00"
    # majiang writes "Emurated (八段 R2200)": the player is the same
    assert [s.name for s in game.seats] == ["Emurated", "あさぴん＠ｍｊ", "神速★.com"]
    assert [g.id for g in store.games("Emurated (八段 R2200)")] == [game.id]


# --------------------------------------------------------------------------------------------
# Transactions and hostile input
# --------------------------------------------------------------------------------------------


def test_a_save_failing_halfway_leaves_the_database_unchanged(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.import_files([SMALL])
    before = dump(store)
    original = Store._insert_game

    def fail_after_writing(self: Store, *args: Any, **kwargs: Any) -> int:
        game_id = original(self, *args, **kwargs)  # games, players, results, kyoku and events written
        assert self.conn.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0] > 0
        raise DatabaseError("disk I/O error (simulated)")

    monkeypatch.setattr(Store, "_insert_game", fail_after_writing)
    with pytest.raises(StoreError, match="simulated"):
        store.import_files([OTHER])
    with pytest.raises(StoreError, match="simulated"):
        store.save_game(record_events(read_record(OTHER)), "tenhou")
    assert dump(store) == before


def test_one_bad_file_in_an_import_stores_none_of_the_files(store: Store, tmp_path: Path) -> None:
    store.import_files([SMALL])
    before = dump(store)
    bad = tmp_path / "bad.json"
    bad.write_text('{"log": [[[0, 0, 0], [35000, 35000, 35000, 0]]]}')
    with pytest.raises(SanmaError, match=r"bad\.json"):
        store.import_files([OTHER, bad])
    assert dump(store) == before


def _hostile_saves(tmp_path: Path) -> list[tuple[str, Any]]:
    """(what, a call that must be refused)."""
    good = read_record(OTHER)
    good_events = record_events(good)
    data = OTHER.read_bytes()
    truncated = tmp_path / "2024010120gm-00b9-0000-e324b88a.json"
    truncated.write_bytes(data[: len(data) // 2])
    forged = tmp_path / "2018110809gm-00b9-0000-00a79b89.json"  # a stored game's log id, another game
    forged.write_bytes(data)
    latin1 = tmp_path / "latin1.xml"
    latin1.write_bytes(b"<mjloggm>\xe9</mjloggm>")

    def events_with(index: int, **change: Any) -> list[dict[str, Any]]:
        out = [dict(e) for e in good_events]
        out[index] = {**out[index], **change}
        return out

    end = len(good_events) - 1
    hora = next(i for i, e in enumerate(good_events) if e["type"] == "hora")
    return [
        ("a truncated file", lambda s: s.import_files([truncated])),
        ("a file claiming a stored game's log id", lambda s: s.import_files([forged])),
        ("a file that is not UTF-8", lambda s: s.import_files([latin1])),
        ("a record with reader errors", lambda s: s.save_record(
            dataclasses.replace(good, errors=("x: kyoku E1: seat 1 has no 5p in hand",)), "x", "0" * 64)),
        ("a four-player record", lambda s: s.save_record(
            dataclasses.replace(good, players=("a", "b", "c", "d")), "x", "1" * 64)),
        ("content that does not have the checksum", lambda s: s.save_record(good, "x", "2" * 64, content=data)),
        ("a checksum that is not SHA-256", lambda s: s.save_record(good, "x", "'; DROP TABLE records; --")),
        ("an actor that is not a seat", lambda s: s.save_game(events_with(hora, actor=7), "tenhou")),
        ("a rank outside 1..3", lambda s: s.save_game(events_with(end, ranks=[1, 1, 5]), "tenhou")),
        ("points that are not finite", lambda s: s.save_game(events_with(end, points=[float("nan"), 0, 0]),
                                                             "tenhou")),
        ("an event that is not JSON data", lambda s: s.save_game(events_with(hora, extra={1, 2}), "tenhou")),
        ("an event that is not a dict", lambda s: s.save_game([*good_events[:-1], "end_game"], "tenhou")),
        ("a name with control characters", lambda s: s.save_game(
            events_with(0, names=["a\x00", "b", "c"]), "tenhou")),
        ("a name that is not valid Unicode", lambda s: s.save_game(  # issue 23 item 2: refused, not a crash
            events_with(0, names=["a\ud800", "b", "c"]), "tenhou")),
        ("a name with a tab", lambda s: s.save_game(events_with(0, names=["a\tb", "b", "c"]), "tenhou")),
        ("a name of a megabyte", lambda s: s.save_game(events_with(0, names=["x" * 2**20, "b", "c"]), "tenhou")),
        ("events after end_game", lambda s: s.save_game([*good_events, good_events[1]], "tenhou")),
        ("no start_game", lambda s: s.save_game(good_events[1:], "tenhou")),
        ("a simulation with two first places", lambda s: s.save_simulation(
            Rules.preset("tenhou"), 0, ("random",) * 3, [GameSummary(0, 4, tuple(
                EntryResult(seat, 1, 35000, 0.0, 0, 0, 0, 0) for seat in range(3)))])),
    ]


def test_hostile_input_is_refused_and_changes_nothing(store: Store, tmp_path: Path) -> None:
    store.import_files([SMALL])
    before = dump(store)
    for what, save in _hostile_saves(tmp_path):
        with pytest.raises(SanmaError):
            save(store)
        assert dump(store) == before, what


def test_names_that_look_like_sql_are_stored_as_names(store: Store) -> None:
    store.import_files([SMALL])
    first_game = store.games()[0]
    events = [dict(e) for e in record_events(read_record(OTHER))]
    names = ["x'); DROP TABLE games; --", "Robert\"; DELETE FROM results; --", "%_*"]
    events[0] = {**events[0], "names": names}
    game_id = store.save_game(events, "tenhou")
    assert [s.name for s in store.game(game_id).seats] == names
    assert store.games()[0] == first_game
    assert [g.id for g in store.games(names[0])] == [game_id]
    assert store.games("%") == []  # a name, not a LIKE pattern


# --------------------------------------------------------------------------------------------
# Opening, schema and migrations
# --------------------------------------------------------------------------------------------


def test_open_db_creates_the_schema_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    with open_db(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        s.import_files([SMALL])
    with open_db(path) as s:  # opening again migrates nothing and keeps the data
        assert s.conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == SCHEMA_VERSION
        assert len(s.games()) == 1
        with pytest.raises(IntegrityError):  # foreign keys are enforced
            s.conn.execute("INSERT INTO records (checksum, source_path, format, rule_name, size, game_id, "
                           "imported_at) VALUES (?, 'x', 'mjlog', '', 0, 999, 'now')", ("a" * 64,))


def test_open_db_refuses_other_files(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database, " * 100)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    newer = tmp_path / "newer.sqlite"
    with open_db(newer) as s:
        s.conn.execute("INSERT INTO schema_version VALUES (?, 'later')", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="not a usable sanma database"):
        open_db(text)
    with pytest.raises(StoreError, match="not a sanma database"):
        open_db(other)
    with pytest.raises(StoreError, match="newer than this sanma"):
        open_db(newer)
    with pytest.raises(StoreError, match="is a directory"):
        open_db(tmp_path)
    assert text.read_text() == "not a database, " * 100


def test_default_db_path_is_sanma_sqlite_here_or_sanma_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SANMA_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    assert default_db_path() == tmp_path / "sanma.sqlite"
    monkeypatch.setenv("SANMA_DB", str(tmp_path / "elsewhere.sqlite"))
    assert default_db_path() == tmp_path / "elsewhere.sqlite"
    open_db().close()
    assert (tmp_path / "elsewhere.sqlite").exists()


def test_record_events_refuse_a_kyoku_without_three_hands() -> None:
    record = read_record(SMALL)
    k = dataclasses.replace(record.kyoku[0], initial_hands=record.kyoku[0].initial_hands[:2])
    with pytest.raises(RecordError, match="3-player"):
        record_events(dataclasses.replace(record, kyoku=(k,)))


def test_a_simulation_game_with_events_links_to_its_run_and_stays_out_of_player_stats(store: Store) -> None:
    from sanma.stats import player_stats

    rules = Rules.preset("tenhou")
    bots = ("random", "random", "random")
    record = play_game(rules, bots, seed=2, index=0)
    sim_id = store.save_simulation(rules, 2, bots, [record])
    game = Game(rules, seed=3)
    rng = random.Random(3)
    while not game.done:
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
    game_id = store.save_game(game.events, rules=rules, kind="simulation", simulation=(sim_id, 0))
    assert {r["game_id"] for r in store.simulation_results(sim_id)} == {game_id}
    assert store.game(game_id).simulation_id == sim_id
    assert player_stats(store) == []  # a player's history is played games, not simulation runs
    assert len(player_stats(store, game_ids=[game_id])) == 3
    with pytest.raises(StoreError, match="records use save_record"):
        store.save_game(game.events, kind="record")


def test_all_sql_lives_in_the_store_package() -> None:
    """One home for SQL (STYLE: "All SQL in src/sanma/store/"; issue 22 item 1): no module outside
    ``sanma.store`` runs a statement, imports a database driver or writes SQL text."""
    import re

    src = Path(__file__).resolve().parents[1] / "src" / "sanma"
    sql = re.compile(r"\.execute(many|script)?\(|\bimport (sqlite3|psycopg)\b|\"(SELECT|INSERT INTO|UPDATE|DELETE "
                     r"FROM|CREATE TABLE) ")
    found = [f"{p.relative_to(src)}:{n}: {line.strip()}" for p in sorted(src.rglob("*.py"))
             if p.relative_to(src).parts[0] != "store"
             for n, line in enumerate(p.read_text().splitlines(), 1) if sql.search(line)]
    assert found == []
