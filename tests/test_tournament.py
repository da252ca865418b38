"""Tournaments (issue 19 item 4, the contract of ../shared/ARCHITECTURE.md "Tournaments"): rounds of
three-player tables under seed 002's official rules, byes, seating (random, Swiss, the referee's
CSV) with as few repeated opponents as possible, each table a keeper session kept hand by hand or
by its final scores, the round clock, standings, CSV and JSON results — through the Python API and
`sanma tournament`."""

from __future__ import annotations

import json
import urllib.request
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sanma.cli import app
from sanma.keeper.entries import KeeperError
from sanma.keeper.keeper import Keeper
from sanma.keeper.seating import Round, byes_for, fixed_round, random_rounds, repeat_pairs, swiss_round
from sanma.keeper.tournament import Tournaments
from sanma.rules.schema import Rules
from sanma.store import open_db

OFFICIAL = Rules.preset("official")
TWELVE = [f"P{i:02d}" for i in range(1, 13)]
# a table's final scores by seat (E, S, W): 55,000 / 40,000 / 25,000. Under seed 002 (L12 40,000
# start and return, L14/L38 「二人浮き：＋20・＋10・△30」: 55,000 and 40,000 float) that is
# +15 +20 = 35, 0 +10 = 10 and -15 -30 = -45, worked out by hand
SCORES = (55000, 40000, 25000)
BY_HAND = (35.0, 10.0, -45.0)


@pytest.fixture
def tm() -> Any:
    store = open_db(":memory:")
    yield Tournaments(store)
    store.close()


def _finals(seats: list[str]) -> dict[str, Any]:
    return {"kind": "final", "scores": dict(zip(seats, SCORES, strict=True))}


def _play_round(tm: Tournaments, tid: int, n: int) -> dict[str, Any]:
    r = tm.seat(tid, n)
    for table in r["tables"]:
        tm.result(tid, n, table["table"], _finals(table["seats"]))
    return r


def test_contract_new_seat_result_standings(tm: Tournaments) -> None:
    """The contract's shapes: new → tournament, players, rounds; seat → round, tables (table, seats,
    session), byes; standings → standings (player, rank, points, games, places), repeat_pairs."""
    out = tm.new(OFFICIAL, TWELVE, 4, seating="random", seed=19)
    assert {"tournament", "players", "rounds"} <= set(out) and out["players"] == TWELVE and out["rounds"] == 4
    r = tm.seat(out["tournament"], 1)
    assert r["round"] == 1 and r["byes"] == [] and len(r["tables"]) == 4
    assert all({"table", "seats", "session"} <= set(t) and len(t["seats"]) == 3 for t in r["tables"])
    assert tm.seat(out["tournament"], 1) == r  # seating a seated round shows it
    s = tm.standings(out["tournament"])
    assert {"standings", "repeat_pairs"} <= set(s)
    assert all({"player", "rank", "points", "games", "places"} <= set(x) for x in s["standings"])


def test_12_players_4_rounds_random_official_no_repeats_and_standings_by_hand(tm: Tournaments) -> None:
    """The scripted 12 × 4 under official: every player seated once per round; random seating meets
    no pair twice (reachable for 12 × 4); the standings after rounds 1 and 2 are the hand-worked
    35 / 10 / -45 per seat; a correction of a round-1 table, kept hand by hand, changes the
    standings after it."""
    tid = tm.new(OFFICIAL, TWELVE, 4, seating="random", seed=2026)["tournament"]
    seats: dict[int, dict[str, int]] = {}  # round -> player -> seat index
    for n in range(1, 5):
        r = tm.seat(tid, n)
        seated = [p for t in r["tables"] for p in t["seats"]]
        assert sorted(seated) == TWELVE and r["byes"] == []  # every player once per round
        seats[n] = {p: i for t in r["tables"] for i, p in enumerate(t["seats"])}
        if n == 1:  # table 1 of round 1 is kept hand by hand; the others by final scores
            first = r["tables"][0]
            k = Keeper(tm.store)
            east, south, west = first["seats"]
            k.add(first["session"], {"kind": "win", "from": west, "wins": [{"winner": east, "yakuman": 1}]})
            for table in r["tables"][1:]:
                tm.result(tid, n, table["table"], _finals(table["seats"]))
        else:
            for table in r["tables"]:
                tm.result(tid, n, table["table"], _finals(table["seats"]))
        if n == 2:
            after_two = tm.standings(tid)
    assert tm.standings(tid)["repeat_pairs"] == 0
    # by hand, round 1: table 1 ended at once on the dealer's yakuman from West (seed 002 L32-33: West
    # busts, the game ends). The dealer's ron is 48,000: East 88,000 and South 40,000 float (at the
    # return, A002-7): 「二人浮き：＋20・＋10・△30」; East +48 +20 +10 bust = 78, South 0 +10 = 10, West
    # -8,000: -48 -30 -10 bust = -88. The other tables 35 / 10 / -45 by seat
    one = {row["player"]: row for row in tm.standings(tid, after_round=1)["standings"]}
    for p in TWELVE:
        want = (78.0, 10.0, -88.0)[seats[1][p]] if p in first["seats"] else BY_HAND[seats[1][p]]
        assert one[p]["points"] == want and one[p]["games"] == 1, p
    two = {row["player"]: row for row in after_two["standings"]}
    for p in TWELVE:
        want = (78.0, 10.0, -88.0)[seats[1][p]] if p in first["seats"] else BY_HAND[seats[1][p]]
        assert two[p]["points"] == round(want + BY_HAND[seats[2][p]], 1) and two[p]["games"] == 2, p
        assert len(two[p]["places"]) == 2
    ranks = [row["rank"] for row in after_two["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    # a correction of round 1's hand (the yakuman came from South): standings after it change
    Keeper(tm.store).fix(first["session"], 1, {"kind": "win", "from": south,
                                                "wins": [{"winner": east, "yakuman": 1}]})
    fixed = {row["player"]: row["points"] for row in tm.standings(tid, after_round=2)["standings"]}
    assert fixed[south] == round(-88.0 + BY_HAND[seats[2][south]], 1)
    assert fixed[west] == round(10.0 + BY_HAND[seats[2][west]], 1)


def test_swiss_seats_by_standings_and_reports_repeats(tm: Tournaments) -> None:
    """Swiss: round 1 drawn from the seed; round 2 is seated only once round 1 is over, by the
    standings (the three leaders together unless that repeats a pair); repeated pairs are reported
    and counted as `repeat_pairs`."""
    tid = tm.new(OFFICIAL, TWELVE, 4, seating="swiss", seed=3)["tournament"]
    r1 = tm.seat(tid, 1)
    tm.result(tid, 1, 1, _finals(r1["tables"][0]["seats"]))
    with pytest.raises(KeeperError, match=r"round 1 is not over \(table 2, 3, 4\): a Swiss round is seated by the "
                                          "standings after it"):
        tm.seat(tid, 2)
    for table in r1["tables"][1:]:
        tm.result(tid, 1, table["table"], _finals(table["seats"]))
    order = [row["player"] for row in tm.standings(tid)["standings"]]
    r2 = tm.seat(tid, 2)
    assert sorted(r2["tables"][0]["seats"]) == sorted(order[:3])  # the four winners' first three meet
    for n in (2, 3, 4):
        r = tm.seat(tid, n) if n > 2 else r2
        for table in r["tables"]:
            tm.result(tid, n, table["table"], _finals(table["seats"]))
    rounds_ = [Round(n, tuple(tuple(t["seats"]) for t in tm.seat(tid, n)["tables"]), ()) for n in range(1, 5)]
    met = Counter(frozenset(pair) for r in rounds_ for t in r.tables
                  for pair in ((t[0], t[1]), (t[0], t[2]), (t[1], t[2])))
    assert tm.standings(tid)["repeat_pairs"] == sum(1 for c in met.values() if c > 1)


def test_13_players_byes_rotate(tm: Tournaments) -> None:
    """13 players: one bye a round; a bye scores nothing and is not a game; nobody has a second bye
    before everyone had one (13 rounds: each player exactly one)."""
    players = [f"P{i:02d}" for i in range(1, 14)]
    tid = tm.new(OFFICIAL, players, 13, seating="random", seed=11)["tournament"]
    seen: list[str] = []
    for n in range(1, 14):
        r = _play_round(tm, tid, n)
        assert len(r["byes"]) == 1 and r["byes"][0] not in seen
        seen += r["byes"]
        assert sorted([p for t in r["tables"] for p in t["seats"]] + r["byes"]) == players
    rows = {row["player"]: row for row in tm.standings(tid)["standings"]}
    assert all(row["byes"] == 1 and row["games"] == 12 and len(row["places"]) == 12 for row in rows.values())
    after_one = {row["player"]: row for row in tm.standings(tid, after_round=1)["standings"]}
    assert after_one[seen[0]]["games"] == 0 and after_one[seen[0]]["points"] == 0.0


def test_byes_rotate_in_swiss_from_the_bottom_and_with_two_a_round() -> None:
    """The bye goes to the lowest placed among those with the fewest byes (Swiss); with two a round
    (14 players) nobody has a second before all 14 had one."""
    order = [f"P{i}" for i in range(1, 14)]
    assert byes_for(order, [], list(reversed(order))) == ("P13",)
    assert byes_for(order, [Round(1, (), ("P13",))], list(reversed(order))) == ("P12",)
    fourteen = [f"Q{i:02d}" for i in range(1, 15)]
    rounds_ = random_rounds(fourteen, 7, seed=5)
    assert sorted(b for r in rounds_ for b in r.byes) == fourteen


def test_fixed_seating_from_the_referees_csv(tm: Tournaments, tmp_path: Path) -> None:
    """`--seating fixed FILE`: the referee's CSV `round,table,seat1,seat2,seat3` seats each round as
    written; the players it leaves out have a bye; a CSV naming a stranger or someone twice is
    refused when the tournament is made."""
    players = ["A", "B", "C", "D", "E", "F", "G"]
    rows = [["round", "table", "seat1", "seat2", "seat3"], ["1", "1", "A", "B", "C"], ["1", "2", "D", "E", "F"],
            ["2", "1", "G", "A", "D"], ["2", "2", "B", "E", "C"]]
    tid = tm.new(OFFICIAL, players, 2, seating="fixed", fixed=rows)["tournament"]
    r = tm.seat(tid, 1)
    assert [t["seats"] for t in r["tables"]] == [["A", "B", "C"], ["D", "E", "F"]] and r["byes"] == ["G"]
    with pytest.raises(KeeperError, match="'Zed' is not a player"):
        tm.new(OFFICIAL, players, 2, seating="fixed", fixed=[*rows, ["2", "3", "Zed", "A", "B"]])
    with pytest.raises(KeeperError, match="A is seated twice in round 1"):
        fixed_round(1, [["1", "1", "A", "B", "C"], ["1", "2", "A", "E", "F"]], players)


def test_a_table_kept_hand_by_hand_cannot_also_take_final_scores(tm: Tournaments) -> None:
    """A table is kept hand by hand or by its final scores: a result for a table with hands is
    refused; a second result is refused (a table keeps one game: correct it instead); nothing changes."""
    tid = tm.new(OFFICIAL, TWELVE[:3], 1, seed=1)["tournament"]
    r = tm.seat(tid, 1)
    t = r["tables"][0]
    Keeper(tm.store).add(t["session"], {"kind": "draw", "tenpai": [t["seats"][0]]})
    with pytest.raises(KeeperError, match=r"kept hand by hand \(1 entries\): correct those"):
        tm.result(tid, 1, 1, _finals(t["seats"]))
    Keeper(tm.store).fix(t["session"], 1, None)
    tm.result(tid, 1, 1, _finals(t["seats"]))
    with pytest.raises(KeeperError, match="keeps 1 game and game 1 is over"):
        tm.result(tid, 1, 1, _finals(t["seats"]))
    with pytest.raises(KeeperError, match="round 1 has tables 1 to 1, not 2"):
        tm.result(tid, 1, 2, _finals(t["seats"]))


def test_round_clock_last_hand_and_referee(tmp_path: Path) -> None:
    """The round clock's end is a setting (seed 002 says nothing). `last_hand`: when time is up each
    unfinished table's hand in play is its last (a `time_up` entry, once; the game ends with the
    next result, reason `time`). `referee`: nothing happens by itself; the referee ends a table.
    The clock is injected: no test waits."""
    now = [datetime(2026, 12, 2, 19, 0, tzinfo=UTC)]
    store = open_db(tmp_path / "t.sqlite")
    tm = Tournaments(store, clock=lambda: now[0])
    tid = tm.new(OFFICIAL, TWELVE[:6], 1, seed=4, round_minutes=60)["tournament"]
    r = tm.seat(tid, 1)
    clock = tm.start(tid, 1)
    assert clock["remaining_seconds"] == 3600 and not clock["over"] and tm.tick(tid) == []
    t1, t2 = r["tables"]
    k = Keeper(store)
    k.add(t2["session"], {"kind": "draw", "tenpai": []})
    tm.result(tid, 1, 1, _finals(t1["seats"]))
    now[0] += timedelta(minutes=61)
    assert tm.clock_json(tid, 1)["over"] and tm.tick(tid) == [(1, 2)] and tm.tick(tid) == []
    s = k.add(t2["session"], {"kind": "draw", "tenpai": [t2["seats"][0]]})  # the last hand
    assert s["games"][0]["end_reason"] == "time" and s["hands"][1]["summary"].startswith("time is up")
    referee = tm.new(OFFICIAL, TWELVE[:3], 1, seed=4, round_minutes=30, clock_end="referee")["tournament"]
    r = tm.seat(referee, 1)
    tm.start(referee, 1)
    now[0] += timedelta(hours=2)
    assert tm.tick(referee) == [] and tm.time_up(referee, 1)["tables"] == [1]
    store.close()


def test_results_as_csv_and_json(tm: Tournaments) -> None:
    """The results sheet: one CSV row per round, table and seat (and per bye) with score, rank, points
    (△ under official, P30), chombos and bust; the JSON export is the whole state."""
    players = [f"P{i}" for i in range(1, 5)]
    tid = tm.new(OFFICIAL, players, 1, seed=8)["tournament"]
    r = tm.seat(tid, 1)
    t = r["tables"][0]
    tm.result(tid, 1, 1, {"kind": "final", "scores": dict(zip(t["seats"], (90000, 30000, 0), strict=True)),
                          "chombos": {t["seats"][1]: 1}, "busted": [t["seats"][2]], "busters": [t["seats"][0]]})
    lines = tm.export_csv(tid).splitlines()
    assert lines[0] == "round,table,seat,player,score,rank,points,chombos,bust"
    # by hand (seed 002): one floats, 「一人浮き：＋30・△10・△20」; L33 ±10 for the bust; L81 △20 a chombo
    assert lines[1] == f"1,1,E,{t['seats'][0]},90000,1,90.0,,buster"  # +50 +30 +10
    assert lines[2] == f"1,1,S,{t['seats'][1]},30000,2,△40.0,1,"  # -10 -10 -20
    assert lines[3] == f"1,1,W,{t['seats'][2]},0,3,△70.0,,busted"  # -40 -20 -10
    assert lines[4] == f"1,,bye,{r['byes'][0]},,,,,"
    state = tm.state(tid)
    assert state["seated"][0]["tables"][0]["points"][t["seats"][0]] == 90.0 and state["seed"] == 8


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, ["tournament", *args])


def test_cli_tournament_scripted_with_json(tmp_path: Path) -> None:
    """`sanma tournament` end to end with --json: players from a CSV, a round seated, a table by
    final scores and one kept hand by hand with `sanma table`, the standings."""
    db = str(tmp_path / "t.sqlite")
    csv_file = tmp_path / "players.csv"
    csv_file.write_text("player\n" + "\n".join(TWELVE[:6]) + "\n", encoding="utf-8")
    r = _run("new", "--db", db, "--rules", "official", "--players-csv", str(csv_file), "--rounds", "2", "--seed",
             "7", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["players"] == TWELVE[:6] and out["rounds"] == 2
    assert set(out["links"]["scorers"]) == {"1", "2"}  # the pages' links (6 players: 2 tables)
    text = _run("links", "1", "--db", db).stdout  # new ones, as text
    assert "scorer 2" in text and text.count("/keeper/") == 2 and "/referee" in text
    seat = json.loads(_run("seat", "1", "--round", "1", "--db", db, "--json").stdout)
    t1, t2 = seat["tables"]
    scores = ",".join(f"{p}={s}" for p, s in zip(t1["seats"], SCORES, strict=True))
    r = _run("result", "1", "--round", "1", "--table", "1", "--scores", scores, "--db", db, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["game"]["points"][t1["seats"][0]] == 35.0
    r = CliRunner().invoke(app, ["table", "hand", str(t2["session"]), "--db", db, "--ron", t2["seats"][0], "--from",
                                 t2["seats"][2], "--yakuman", "1"])
    assert r.exit_code == 0, r.output
    st = json.loads(_run("standings", "1", "--db", db, "--json").stdout)
    assert st["standings"][0]["rank"] == 1 and st["repeat_pairs"] == 0 and not st["unfinished"]
    text = _run("standings", "1", "--db", db).stdout
    assert "rank  player" in text and "repeated pairs: 0" in text
    assert _run("export", "1", "--db", db, "--csv").stdout.startswith("round,table,seat,player")


@pytest.mark.parametrize(("args", "says"), [
    (("new", "--rules", "official", "--players", "A,B", "--rounds", "1"), "at least 3 players"),
    (("new", "--rules", "official", "--players", "A,B,A", "--rounds", "1"), "names A twice"),
    (("new", "--rules", "official", "--players", "A,B,C", "--rounds", "0"), "give 1 to 50 rounds"),
    (("new", "--rules", "official", "--players", "A,B,C", "--rounds", "1", "--seating", "odd"), "seating 'odd'"),
    (("new", "--rules", "official", "--players", "A,B,C", "--rounds", "1", "--seating", "fixed"), "--seating fixed"),
    (("new", "--rules", "official", "--rounds", "1"), "give the players"),
    (("seat", "1", "--round", "3"), "rounds 1 to 2, not 3"),
    (("seat", "1", "--round", "2"), "seat round 1 of tournament 1 first"),
    (("seat", "9", "--round", "1"), "no tournament 9"),
    (("result", "1", "--round", "1", "--table", "1", "--scores", "A=1"), "round 1 of tournament 1 is not seated"),
    (("standings", "1", "--after-round", "2"), "rounds 1 to 0 are seated"),
    (("clock", "1", "--round", "1", "--start", "--time-up"), "not both"),
])
def test_cli_refused_tournament_command_exits_2_with_a_message(tmp_path: Path, args: tuple[str, ...],
                                                                says: str) -> None:
    db = str(tmp_path / "t.sqlite")
    assert _run("new", "--db", db, "--rules", "official", "--players", "A,B,C,D,E,F", "--rounds", "2").exit_code == 0
    r = _run(*args, "--db", db)
    assert r.exit_code == 2 and says in r.stderr and "Traceback" not in r.output, r.output


def test_swiss_round_keeps_standings_order_and_avoids_a_repeat_with_a_neighbour() -> None:
    """A Swiss round seats the standings three by three; where the first table would repeat a pair,
    a player swaps with the next table."""
    order = [f"P{i}" for i in range(1, 10)]
    done = [Round(1, (("P1", "P2", "P4"), ("P3", "P5", "P6"), ("P7", "P8", "P9")))]
    naive = Round(2, (("P1", "P2", "P3"), ("P4", "P5", "P6"), ("P7", "P8", "P9")))
    r = swiss_round(2, order, done, seed=1)
    assert repeat_pairs([*done, r]) < repeat_pairs([*done, naive])
    assert "P1" in r.tables[0] and "P9" in r.tables[2]  # the leader and the last stay where the order puts them


def test_docs_keeper_md_tournament_evening_runs_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/KEEPER.md's tournament evening: every `sanma tournament` and `sanma table` line runs as
    written and exits 0, and the standings its comments give are the ones computed."""
    from test_keeper import run_doc_block

    outputs = run_doc_block("## A tournament evening", tmp_path / "cup.sqlite", monkeypatch)
    assert len(outputs) >= 15
    with open_db(tmp_path / "cup.sqlite") as store:
        final = {row["player"]: row["points"] for row in Tournaments(store).standings(1)["standings"]}
        first = {row["player"]: row["points"] for row in Tournaments(store).standings(1, after_round=1)["standings"]}
    assert final == {"Ben": 56.7, "Emi": 51.0, "Dan": 37.9, "Chie": 31.0, "Fumi": -8.0, "Aki": -83.0, "Gen": -106.6}
    assert first["Ben"] == 68.7 and first["Gen"] == -106.6  # after the correction
    before = next(v for k, v in outputs.items() if "--after-round 1" in k)
    assert "62.9" in before and "△100.8" in before  # before it
    assert (tmp_path / "cup.csv").read_text(encoding="utf-8").startswith("round,table,seat,player")
    assert json.loads((tmp_path / "cup.json").read_text(encoding="utf-8"))["repeat_pairs"] == 1


CHROMIUM = "/usr/bin/chromium"


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent (Debian's chromium)")
def test_tournament_pages_live_standings_and_the_referee(tmp_path: Path, browser: Any) -> None:
    """The pages of the scripted 12-player official tournament: the referee seats round 1 and starts
    the clock, enters table 1's final scores (preview, then save) on its link's /referee page, and the
    projector's read link shows the new standings without a reload (and no referee controls, even at
    /referee); every table links its keeper page under the page's link; the organiser's page lists the
    links to give out; every target is 44 px. Screenshots at 390×844 and 1366×768 are left in tmp_path."""

    from test_keeper_web import _phone, _serving

    db = tmp_path / "t.sqlite"
    with open_db(db) as store:
        Tournaments(store).new(OFFICIAL, TWELVE, 4, seating="random", seed=2026, name="December cup",
                               round_minutes=90)
    links = _links(db)
    errors: list[str] = []
    measure = """() => [...document.querySelectorAll('button, select, input, a.button, summary')]
      .filter(e => e.offsetParent !== null)
      .map(e => { const r = e.getBoundingClientRect();
                  return {what: e.outerHTML.slice(0, 60), h: r.height, w: r.width}; })"""
    with _serving(db) as base:
        try:
            wall = _phone(browser, errors, (1366, 768))
            wall.goto(base + links["read"] + "/referee")  # the read link: no controls, whatever the path
            wall.wait_for_selector("#standings tr[data-player='P01']")
            assert wall.is_hidden("#seat-next") and wall.is_hidden("#links")
            wall.goto(base + links["read"])
            wall.wait_for_selector("#standings tr[data-player='P01']")
            assert wall.is_hidden("#seat-next")  # the public page has no referee controls
            org = _phone(browser, errors)
            org.goto(base + links["organiser"])
            org.wait_for_selector("#links-table a", state="attached")
            assert org.is_visible("#links summary")
            assert org.get_attribute("#links-table tr:last-child a", "href") == links["scorers"]["4"]
            org.close()
            ref = _phone(browser, errors)
            ref.goto(base + links["referee"])
            assert ref.is_hidden("#links")  # the referee's page does not give out links
            ref.wait_for_selector("#seat-next:has-text('Seat round 1')")
            ref.click("#seat-next")
            ref.wait_for_selector(".table[data-table='4']")
            wall.wait_for_selector(".table[data-table='4']")  # live, no reload
            ref.click("#clock-start")
            ref.wait_for_selector("#clock:has-text(':')")
            card = ref.locator(".table[data-table='1']")
            assert card.locator("a.button").get_attribute("href") == f"/keeper/{_token(links['referee'])}.1.1"
            seats = card.locator("input.score").evaluate_all("es => es.map(e => e.dataset.player)")
            card.locator("summary").click()
            for player, score in zip(seats, SCORES, strict=True):
                card.locator(f"input.score[data-player='{player}']").fill(str(score))
            # the preview's answer arrives after a live update redrew the tables (held until then): it
            # is shown in the card on the page, not in the one the click came from
            held: list[Any] = []

            def hold(route: Any) -> None:
                held.append(route)

            ref.route("**/rounds/1/tables/1/result", hold)
            card.locator("button.preview").click()
            with urllib.request.urlopen(urllib.request.Request(  # table 2's scorer keeps a hand
                    f"{base}/api/keeper/sessions/{_token(links['scorers']['2'])}/entries", method="POST",
                    data=json.dumps({"entry": {"kind": "draw", "tenpai": []}}).encode(),
                    headers={"content-type": "application/json"})) as answer:
                assert answer.status == 200
            ref.wait_for_selector(".table[data-table='2'] h3:has-text('E2 · 1 entry')")
            assert len(held) == 1
            held[0].continue_()
            ref.wait_for_selector(".table[data-table='1'] .result-preview:has-text('preview (nothing saved)')")
            ref.unroute("**/rounds/1/tables/1/result", hold)
            small = [e for e in ref.evaluate(measure) if e["h"] < 44 or e["w"] < 44]
            assert not small, small
            ref.screenshot(path=str(tmp_path / "tournament-referee-390.png"), full_page=True)
            card.locator("button.save").click()
            leader = seats[0]  # 55,000: +35.0 by hand
            wall.wait_for_selector(f"#standings tr[data-player='{leader}'] td.points:has-text('35.0')")
            assert wall.text_content("#standings tr.leader td:nth-child(2)") == leader
            wall.screenshot(path=str(tmp_path / "tournament-wall-1366.png"), full_page=True)
            # the table's keeper page names its tournament table, and takes corrections only now
            card.locator("a.button").click()
            ref.wait_for_selector("#tournament-link:has-text('tournament 1 · round 1 · table 1')")
            assert ref.is_visible("#over-note") and ref.is_hidden("#form")
            ref.click("#hands button.fix[data-no='1']")
            assert ref.is_visible("#form") and ref.input_value("#kind") == "final"
        finally:
            for context in browser.contexts:  # the run's Chromium stays (conftest's browser)
                context.close()
    assert not errors, errors
    with open_db(db) as store:
        rows = {r["player"]: r["points"] for r in Tournaments(store).standings(1)["standings"]}
    assert [rows[p] for p in seats] == list(BY_HAND)


def test_migration_8_opens_a_version_7_database_with_its_kept_sessions(tmp_path: Path) -> None:
    """Migration 8 (the tournaments' tables and a kept session's games_limit; 6 and 7 are main's
    access links and several processes) on a database of version 7: its sessions read as before (no
    games limit), and a tournament can be made in it."""
    from sanma.store.migrations import SCHEMA_VERSION
    from store_helpers import sqlite_at_version

    path = tmp_path / "v7.sqlite"
    conn = sqlite_at_version(path, 7)
    conn.execute("INSERT INTO keeper_sessions (series, rules_name, rules_json, people, mode, version, created_at) "
                 "VALUES (NULL, 'official', '{}', '[\"A\", \"B\", \"C\"]', 'hands', 0, 'then')")
    conn.commit()
    conn.close()
    with open_db(path) as store:
        assert store.schema_version == SCHEMA_VERSION >= 8  # 8 and every later migration applied
        from sanma.store.keeper import session

        assert session(store, 1).games_limit is None and session(store, 1).people == ("A", "B", "C")
        tid = Tournaments(store).new(OFFICIAL, TWELVE[:3], 1, seed=1)["tournament"]
        assert Tournaments(store).seat(tid, 1)["tables"][0]["session"] == 2


def _links(db: Path | str, tid: int = 1) -> dict[str, Any]:
    """New links of tournament ``tid`` (what `sanma tournament new` and `links` print)."""
    from sanma.store.tournaments import tournament
    from sanma.web.tournament import issue_links

    with open_db(db) as store:
        return issue_links(store, tid, tournament(store, tid).players)


def _token(path: str) -> str:
    """The token of a link's path: /tournament/TOKEN[/referee] or /keeper/TOKEN."""
    return path.split("/")[2]


def test_http_api_of_a_tournament_and_its_errors(tmp_path: Path) -> None:
    """`/api/tournaments/LINK…` through the referee's link: state, seat, result (preview saves
    nothing), clock, export as CSV and JSON; bad input is a 4xx JSON error and changes nothing."""
    from fastapi.testclient import TestClient

    from sanma.web.app import create_app

    db = tmp_path / "t.sqlite"
    with open_db(db) as store:
        Tournaments(store).new(OFFICIAL, TWELVE[:6], 2, seating="random", seed=3, round_minutes=30)
    ref = _token(_links(db)["referee"])
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        assert c.get(f"/api/tournaments/{ref}").json()["seated"] == []
        r = c.post(f"/api/tournaments/{ref}/rounds/1/seat", json={})
        assert r.status_code == 200 and len(r.json()["tables"]) == 2
        seats = r.json()["tables"][0]["seats"]
        url = f"/api/tournaments/{ref}/rounds/1/tables/1/result"
        body = {"entry": {"kind": "final", "scores": dict(zip(seats, SCORES, strict=True))}}
        assert c.post(url, json={**body, "preview": True}).json()["game"]["points"][seats[0]] == 35.0
        assert c.get(f"/api/tournaments/{ref}").json()["standings"][0]["games"] == 0  # the preview saved nothing
        assert c.post(url, json=body).status_code == 200
        assert c.post(f"/api/tournaments/{ref}/rounds/1/clock", json={"start": True}).json()["minutes"] == 30
        csv_r = c.get(f"/api/tournaments/{ref}/export?format=csv")
        assert csv_r.status_code == 200 and csv_r.text.startswith("round,table,seat,player")
        assert c.get(f"/api/tournaments/{ref}/export").json()["tournament"] == 1
        for method, path, payload, status in (
                ("post", url, {"entry": "x"}, 400),
                ("post", url, {"entry": {"kind": "draw"}}, 400),
                ("post", url, body, 400),  # a second result
                ("post", f"/api/tournaments/{ref}/rounds/9/seat", {}, 400),
                ("get", "/api/tournaments/9", None, 404),
                ("get", f"/api/tournaments/{ref}/export?format=xml", None, 400)):
            r = c.post(path, json=payload) if method == "post" else c.get(path)
            assert r.status_code == status and "error" in r.json(), (path, r.text)
        assert c.post(url, content=b"{nope", headers={"content-type": "application/json"}).status_code == 400
    with open_db(db) as store:
        assert Tournaments(store).standings(1)["standings"][0]["points"] == 35.0


def test_tournament_links_each_role_does_what_it_should_and_nothing_more(tmp_path: Path) -> None:
    """Issue 23 "Access" for tournaments (issue 19 item 4: "each table kept by its own scorer link"):
    the organiser's and the referee's links seat, run the clock and correct any table; a scorer's
    link keeps its own table (hand by hand or by final scores) and no other; the read link writes
    nothing; a guessed token, a bare number or another kind's link opens nothing; `sanma tournament
    links` makes new links and the old ones stop working. Every refusal changes nothing."""
    from fastapi.testclient import TestClient

    from sanma.web.app import create_app

    db = tmp_path / "t.sqlite"
    r = _run("new", "--db", str(db), "--rules", "official", "--players", ",".join(TWELVE[:7]), "--rounds", "2",
             "--seating", "random", "--seed", "5", "--json")
    assert r.exit_code == 0, r.output
    links = json.loads(r.stdout)["links"]
    assert set(links) == {"organiser", "referee", "read", "scorers"} and set(links["scorers"]) == {"1", "2"}
    org, ref, read = (_token(links[k]) for k in ("organiser", "referee", "read"))
    sc1, sc2 = (_token(links["scorers"][n]) for n in ("1", "2"))
    draw = {"entry": {"kind": "draw", "tenpai": []}}
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        for who in (read, sc1):  # neither seats a round
            r = c.post(f"/api/tournaments/{who}/rounds/1/seat", json={})
            assert r.status_code == 403 and r.json()["code"] == "read_only", r.text
        assert c.get(f"/api/keeper/sessions/{sc1}").json()["code"] == "no_link"  # no round seated yet
        tables = c.post(f"/api/tournaments/{ref}/rounds/1/seat", json={}).json()["tables"]
        s1, s2 = (t["session"] for t in tables)

        def version(sid: int) -> int:
            with open_db(db) as store:
                return int(Keeper(store).state(sid)["version"])

        # the scorer of table 1: its table's keeper page (the latest round) — and not table 2's
        assert c.get(f"/api/keeper/sessions/{sc1}").json()["session"] == s1
        assert c.post(f"/api/keeper/sessions/{sc1}/entries", json=draw).json()["version"] == 1
        assert c.post(f"/api/keeper/sessions/{sc1}.1.1/undo", json={}).status_code == 200
        for path in (f"/api/keeper/sessions/{sc1}.1.2/entries", f"/api/keeper/sessions/{sc2}.1.1/entries"):
            r = c.post(path, json=draw)
            assert r.status_code == 403 and r.json()["code"] == "read_only", (path, r.text)
        assert c.get(f"/api/keeper/sessions/{sc1}.1.2").json()["session"] == s2  # it may look
        final = {"entry": {"kind": "final", "scores": dict(zip(tables[1]["seats"], SCORES, strict=True))}}
        r = c.post(f"/api/tournaments/{sc1}/rounds/1/tables/2/result", json=final)
        assert r.status_code == 403 and r.json()["code"] == "read_only"
        assert c.post(f"/api/tournaments/{sc2}/rounds/1/tables/2/result", json=final).status_code == 200
        for what in ({"start": True}, {"time_up": True}):
            assert c.post(f"/api/tournaments/{sc1}/rounds/1/clock", json=what).status_code == 403
        # the read link: everything shown, nothing written, no links
        st = c.get(f"/api/tournaments/{read}").json()
        assert st["access"] == {"role": "read", "table": None, "referee": False} and "links" not in st
        assert st["seated"][0]["tables"][0]["link"] == f"/keeper/{read}.1.1"
        assert c.get(f"/api/keeper/sessions/{read}.1.1").json()["session"] == s1
        for path, body in ((f"/api/keeper/sessions/{read}.1.1/entries", draw),
                           (f"/api/tournaments/{read}/rounds/1/tables/1/result", final),
                           (f"/api/tournaments/{read}/rounds/1/clock", {"start": True})):
            r = c.post(path, json=body)
            assert r.status_code == 403 and r.json()["code"] == "read_only", (path, r.text)
        # the referee corrects any table; only the organiser sees the links
        assert c.post(f"/api/keeper/sessions/{ref}.1.2/entries/1", json={**final, "reason": "fix"}).status_code == 200
        assert "links" not in c.get(f"/api/tournaments/{ref}").json()
        assert c.get(f"/api/tournaments/{org}").json()["links"] == links
        assert c.post(f"/api/keeper/sessions/{org}.1.1/entries", json=draw).status_code == 200
        # nothing opens by guessing: numbers, other kinds' links, a referee's link without its table
        session_link = c.post("/api/keeper/sessions", json={"rules": "club", "people": ["A", "B", "C"]}).json()
        other = _token(session_link["links"]["organiser"])
        before = (version(s1), version(s2))
        for path in ("/api/tournaments/1", f"/api/keeper/sessions/{s1}", f"/api/keeper/sessions/{ref}",
                     f"/api/keeper/sessions/{ref}.1.9", f"/api/keeper/sessions/{ref}.x.1",
                     f"/api/keeper/sessions/{other}.1.1", f"/api/tournaments/{other}", f"/api/keeper/sessions/{s1}.1.1",
                     "/api/tournaments/" + "A" * 32, f"/api/tournaments/{ref[:-1]}"):
            r = c.get(path)
            assert r.status_code == 404 and r.json()["code"] == "no_link", (path, r.text)
            assert c.post(path + "/entries", json=draw).status_code in (404, 405)
        assert (version(s1), version(s2)) == before
        with c.websocket_connect("/ws/tournaments/1") as ws:
            assert json.loads(ws.receive_text())["code"] == "no_link"
        with c.websocket_connect(f"/ws/tournaments/{read}") as ws:
            assert json.loads(ws.receive_text())["access"]["role"] == "read"
        # round 2: the scorer's link alone follows its table to the latest round
        c.post(f"/api/tournaments/{ref}/rounds/1/tables/1/result",
               json={"entry": {"kind": "final", "scores": dict(zip(tables[0]["seats"], SCORES, strict=True))}})
        r2 = c.post(f"/api/tournaments/{org}/rounds/2/seat", json={}).json()["tables"]
        assert c.get(f"/api/keeper/sessions/{sc1}").json()["session"] == r2[0]["session"]
        # new links: the old ones open nothing
        assert _run("links", "1", "--db", str(db)).exit_code == 0
        for old in (org, ref, read, sc1):
            assert c.get(f"/api/tournaments/{old}").status_code == 404


@pytest.mark.parametrize("seating", ["random", "swiss"])
def test_cli_12_players_4_rounds_official(tmp_path: Path, seating: str) -> None:
    """The scripted 12 × 4 under official through `sanma tournament` alone: each round seated, every
    player once, each table's final scores entered; random seating meets no pair twice, Swiss
    reports its repeats (`repeat_pairs`, equal to a recount of the seatings)."""
    db = str(tmp_path / "t.sqlite")
    r = _run("new", "--db", db, "--rules", "official", "--players", ",".join(TWELVE), "--rounds", "4", "--seating",
             seating, "--seed", "12", "--json")
    assert r.exit_code == 0, r.output
    met: Counter[frozenset[str]] = Counter()
    for n in range(1, 5):
        seat = json.loads(_run("seat", "1", "--round", str(n), "--db", db, "--json").stdout)
        assert sorted(p for t in seat["tables"] for p in t["seats"]) == TWELVE and seat["byes"] == []
        for t in seat["tables"]:
            a, b, c = t["seats"]
            met.update([frozenset((a, b)), frozenset((a, c)), frozenset((b, c))])
            scores = ",".join(f"{p}={s}" for p, s in zip(t["seats"], SCORES, strict=True))
            r = _run("result", "1", "--round", str(n), "--table", str(t["table"]), "--scores", scores, "--db", db)
            assert r.exit_code == 0, r.output
    st = json.loads(_run("standings", "1", "--db", db, "--json").stdout)
    assert st["repeat_pairs"] == sum(1 for c in met.values() if c > 1)
    assert all(row["games"] == 4 for row in st["standings"]) and not st["unfinished"]
    assert round(sum(row["points"] for row in st["standings"]), 1) == 0.0
    if seating == "random":
        assert st["repeat_pairs"] == 0


def test_a_tournament_and_a_hand_entered_twice_on_both_databases(db_target: str) -> None:
    """`--db PATH|postgresql://…`: the same tournament through `sanma tournament` on SQLite and on
    PostgreSQL, and a table's hand saved from two connections at once stored once."""
    import threading

    from sanma.keeper.entries import EntryConflict

    r = _run("new", "--db", db_target, "--rules", "official", "--players", ",".join(TWELVE[:7]), "--rounds", "2",
             "--seating", "random", "--seed", "4", "--json")
    assert r.exit_code == 0, r.output
    seat = json.loads(_run("seat", "1", "--round", "1", "--db", db_target, "--json").stdout)
    assert len(seat["byes"]) == 1 and len(seat["tables"]) == 2
    t1, t2 = seat["tables"]
    scores = ",".join(f"{p}={s}" for p, s in zip(t1["seats"], SCORES, strict=True))
    assert _run("result", "1", "--round", "1", "--table", "1", "--scores", scores, "--db", db_target).exit_code == 0
    go = threading.Barrier(2)
    outcome: list[str] = []

    def phone(name: str) -> None:
        with open_db(db_target) as store:
            go.wait()
            try:
                Keeper(store).add(t2["session"], {"kind": "draw", "tenpai": [t2["seats"][0]]}, opened_version=0,
                                  author=name, client_id=name)
                outcome.append("stored")
            except EntryConflict as e:
                outcome.append(str(e))

    threads = [threading.Thread(target=phone, args=(n,)) for n in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(o == "stored" for o in outcome) == [False, True], outcome
    st = json.loads(_run("standings", "1", "--db", db_target, "--json").stdout)
    assert {row["player"]: row["points"] for row in st["standings"]}[t1["seats"][0]] == 35.0
    with open_db(db_target) as store:
        assert len(Keeper(store).state(t2["session"])["hands"]) == 1


def test_a_tournaments_pages_share_one_state_made_again_only_when_it_moved(tmp_path: Path) -> None:
    """The pages' sockets look every second and a state of 36 players × 4 rounds takes ~0.25 s to
    make (benchmarks/bench_tournament.py): each page making its own, four phones filled a core.
    `web.tournament.Shown` makes it once for every page and again only when the fingerprint moved —
    a table's entry, a seated round, a round whose time is up — on injected clocks."""
    from fastapi.testclient import TestClient

    from sanma.web.app import create_app
    from sanma.web.tournament import Shown

    db = tmp_path / "t.sqlite"
    start = datetime(2020, 12, 2, 18, 0, tzinfo=UTC)  # long over for the server below: its state writes
    now = [start]
    with open_db(db) as store:
        tm = Tournaments(store, clock=lambda: now[0])
        tm.new(OFFICIAL, TWELVE[:6], 2, seating="random", seed=3, round_minutes=30)
        tm.seat(1, 1)
        tm.start(1, 1)
        ticks = [0.0]
        shown = Shown(clock=lambda: ticks[0], wall=lambda: now[0])
        first = shown.state(store, 1)
        assert shown.state(store, 1) is first and shown.made == 1  # within FRESH_SECONDS: as it is
        ticks[0] += 5
        assert shown.state(store, 1) is first and shown.made == 1  # looked again: nothing moved
        before = tm.fingerprint(1)
        Keeper(store).add(tm.table_session(1, 1, 2), {"kind": "draw", "tenpai": []})
        assert tm.fingerprint(1) != before
        ticks[0] += 5
        assert shown.state(store, 1)["seated"][0]["tables"][1]["entries"] == 1 and shown.made == 2
        before = tm.fingerprint(1)
        now[0] = start + timedelta(minutes=31)  # the round's time is up: the state has entries to write
        assert tm.fingerprint(1) != before
        ticks[0] += 5
        st = shown.state(store, 1)  # made again: each table's time_up written
        assert shown.made == 3 and [t["entries"] for t in st["seated"][0]["tables"]] == [1, 2]
        ticks[0] += 5
        assert shown.state(store, 1) is st and shown.made == 3  # the fingerprint after its own writes
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        read = _token(_links(db)["read"])
        with (c.websocket_connect(f"/ws/tournaments/{read}") as a, c.websocket_connect(f"/ws/tournaments/{read}") as b,
              c.websocket_connect(f"/ws/tournaments/{read}") as d):
            states = [json.loads(ws.receive_text()) for ws in (a, b, d)]
            assert all(s["access"]["role"] == "read" for s in states)
            assert c.app.state.tournament_shown.made == 1  # type: ignore[attr-defined]


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent (Debian's chromium)")
def test_a_scorers_page_stays_on_its_round_when_the_next_is_seated(tmp_path: Path, browser: Any) -> None:
    """A scorer's link alone opens its table in the latest round seated. A page opened on round 1
    must not store its next hand in round 2's game once the referee seats round 2 (a random seating
    may be seated before round 1 is over): the page keeps the session it shows; the link opened
    again shows round 2."""
    from test_keeper_web import _phone, _save, _serving

    db = tmp_path / "t.sqlite"
    with open_db(db) as store:
        Tournaments(store).new(OFFICIAL, TWELVE[:6], 2, seating="random", seed=8)
        Tournaments(store).seat(1, 1)
    scorer = _links(db)["scorers"]["1"]
    errors: list[str] = []
    with _serving(db) as base:
        try:
            page = _phone(browser, errors)
            page.goto(base + scorer)
            page.wait_for_selector("#tournament-link:has-text('round 1 · table 1')")
            with open_db(db) as store:
                Tournaments(store).seat(1, 2)
            page.select_option("#kind", "draw")
            _save(page, 1)
            page.goto(base + scorer)
            page.wait_for_selector("#tournament-link:has-text('round 2 · table 1')")
        finally:
            for context in browser.contexts:  # the module's Chromium stays (conftest's browser)
                context.close()
    assert not errors, errors
    with open_db(db) as store:
        t = Tournaments(store)
        kept = [len(Keeper(store).state(t.table_session(1, n, 1))["hands"]) for n in (1, 2)]
    assert kept == [1, 0]
