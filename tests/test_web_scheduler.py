"""The table scheduler (issue 23 "one table scheduler owns every timer"; issue 18's result pause and
bots' think time): every timer of a served table on an injected clock. Each test plays a real
table in-process on a ``ManualClock`` and checks the time every event was published against what
the public events and the table's settings say it must be — nothing waits on wall time."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from sanma.game.actions import Action
from sanma.store import open_db
from sanma.web.scheduler import ManualClock, Pace, Prompt, Schedule, Timer, bank_left, open_prompt
from sanma.web.tables import Table, Tables

EAST = {"extends": "tenhou", "round_winds": "E"}  # a whole game, and quick


@dataclass(eq=False)  # a table's listener: kept in a set
class Run:
    """One table played in-process: when each event was published, each prompt as sent."""

    clock: ManualClock
    tables: Tables
    table: Table
    published: list[int] = field(default_factory=list)  # per event index: the time it was told
    prompts: dict[int, list[Prompt]] = field(default_factory=dict)  # per seat, each prompt once
    answers: list[tuple[int, int, str]] = field(default_factory=list)  # (time, seat, action type)

    def update(self, table: Table) -> None:  # a table's Listener
        now = self.clock.now()
        self.published += [now] * (len(table.game.events) - len(self.published))
        for seat in range(3):
            p = table.prompt(seat)
            seen = self.prompts.setdefault(seat, [])
            if p is not None and (not seen or seen[-1].number != p.number):
                seen.append(p)

    def preview(self, table: Table) -> Callable[[], None]:
        n = len(table.game.events)  # told once stored: the events so far, at the time they are told
        return lambda: self.published.extend([self.clock.now()] * (n - len(self.published)))


@dataclass(eq=False)
class Look:
    """A table's listener that only looks at the table after each stored transition (nothing at a
    discard told alone: ``Listener.preview``)."""

    look: Callable[[Table], None]

    def update(self, table: Table) -> None:
        self.look(table)

    def preview(self, table: Table) -> None:
        return None


def _run(kinds: list[str], clock: dict[str, float], seed: int = 1, rules: Any = None) -> Run:
    c = ManualClock()
    tables = Tables(open_db(":memory:"), c)
    run = Run(c, tables, None)  # type: ignore[arg-type]
    body = {"rules": rules or EAST, "seats": kinds, "seed": seed, "clock": clock}
    real_start = Table.start

    def start(table: Table) -> None:  # listen from the very first event
        run.table = table
        table.listeners.add(run)
        real_start(table)

    Table.start = start  # type: ignore[method-assign]
    try:
        tables.create(body)
    finally:
        Table.start = real_start  # type: ignore[method-assign]
    return run


def _choose(legal: tuple[Action, ...], rng: random.Random) -> Action:
    wins = [a for a in legal if a.type == "hora"]
    if wins:
        return wins[0]
    passes = [a for a in legal if a.type == "none"]
    if passes and rng.random() < 0.6:
        return passes[0]
    return rng.choice(legal)


def _play(run: Run, rng: random.Random, delay: tuple[int, int] = (0, 4000), dismiss: bool = False) -> None:
    """Persons answer each prompt after a random delay (some run past a call window: passed for
    them); ``dismiss``: they dismiss each hand's result at once."""
    c, t = run.clock, run.table
    persons = [s for s, k in enumerate(t.kinds) if k == "human"]
    due: dict[int, tuple[int, int]] = {}  # seat -> (prompt number, answer time)
    for _ in range(200_000):
        if t.finished:
            return
        if dismiss and t.game.held == "hand":
            for s in persons:
                t.dismiss(s)
            c.advance(0)  # the next deal is due at once
            continue
        for s in persons:
            p = t.prompt(s)
            if p is not None and due.get(s, (0, 0))[0] != p.number:
                due[s] = (p.number, c.now() + rng.randint(*delay))
        answer = min(((at, s) for s, (n, at) in due.items() if (p := t.prompt(s)) is not None and p.number == n),
                     default=None)
        nxt = c.next_at()
        if answer is not None and (nxt is None or answer[0] <= nxt):
            c.advance(answer[0] - c.now())
            s = answer[1]
            p = t.prompt(s)
            if p is not None and p.number == due[s][0]:
                action = _choose(t.prompt_legal[s], rng)
                run.answers.append((c.now(), s, action.type))
                t.act(s, action)
            continue
        assert nxt is not None, "the table waits for nothing and nobody"
        c.advance(nxt - c.now())
    raise AssertionError("the game did not end")


def _moves(t: Table) -> list[Timer]:
    """The table's timers but the abandon timer (nobody is connected in these tests)."""
    return [x for x in t.timers() if x.kind != "abandon"]


def _events(run: Run) -> list[dict[str, Any]]:
    return run.table.game.events


def test_after_every_discard_the_next_event_comes_exactly_one_call_window_later() -> None:
    """The call window (issue 23, 'No side channel'): at a table with a person, the next event after
    every discard and added kan is told exactly ``call`` ms after it, whoever could call — a bot, the
    person (who answered inside the window or let it pass), or nobody."""
    run = _run(["human", "efficient", "defensive"], {"move": 15, "bank": 10, "call": 2, "think": 0.5})
    _play(run, random.Random(3))
    events, at = _events(run), run.published
    openers = [i for i, e in enumerate(events) if e["type"] in ("dahai", "kakan") and i + 1 < len(events)]
    assert len(openers) > 50
    for i in openers:
        assert at[i + 1] - at[i] == 2000, (i, events[i], events[i + 1], at[i], at[i + 1])
    asked = [a for a in run.answers if a[2] in ("none", "pon", "daiminkan") or a[2] == "hora"]
    assert asked, "the person was offered calls (the test covers the person's own window)"


def test_a_bot_moves_its_think_time_after_its_turn_is_told() -> None:
    """Bots' think time (issue 18): a built-in bot's move on its turn is told ``think`` ms after the
    event that gave it the turn (its draw or its call); on a call it decides at once."""
    run = _run(["human", "efficient", "defensive"], {"move": 15, "bank": 10, "call": 0, "think": 0.8})
    _play(run, random.Random(5))
    events, at = _events(run), run.published
    turns = 0
    for i, e in enumerate(events):
        if e["type"] in ("dahai", "reach", "kita", "ankan", "kakan") and e["actor"] in (1, 2):
            prev = events[i - 1]
            if prev["type"] in ("tsumo", "pon", "daiminkan") and prev["actor"] == e["actor"]:
                assert at[i] - at[i - 1] == 800, (i, prev, e)
                turns += 1
    assert turns > 30


def test_a_persons_clock_starts_when_the_prompt_is_sent_and_the_bank_pays_the_rest() -> None:
    """The move clock and bank: each prompt opens when it is sent; its deadline is then + move + the
    bank left; an answer after the move's seconds spends the difference from the bank; silence plays
    the fallback at the deadline and empties the bank."""
    run = _run(["human", "tsumogiri", "tsumogiri"], {"move": 2, "bank": 5, "call": 0}, seed=2)
    c, t = run.clock, run.table
    p = t.prompt(0)
    assert p is not None and p.opened == c.now() and p.due == c.now() + 7000 and t.deadline(0) == p.due / 1000
    c.advance(3500)  # 1.5 s beyond the move's 2
    t.act(0, t.prompt_legal[0][0])
    assert t.banks[0] == 3500
    c.advance(c.next_at() - c.now())  # the bots' moves until seat 0's next prompt
    while t.prompt(0) is None:
        c.advance(c.next_at() - c.now())
    q = t.prompt(0)
    assert q is not None and q.number == 2 and q.bank == 3500 and q.due == q.opened + 2000 + 3500
    n = len(t.game.events)
    c.advance(5499)
    assert len(t.game.events) == n and t.prompt(0) == q  # not yet
    c.advance(1)
    assert len(t.game.events) > n and t.banks[0] == 0  # the clock played the fallback


def test_the_next_hand_waits_for_the_result_pause_or_every_person_dismissing_it() -> None:
    """The result pause (issue 18): after a hand's end the next deal is told ``result`` ms later —
    or as soon as every person at the table dismissed the result; the dealer's clock starts then."""
    run = _run(["human", "human", "tsumogiri"], {"move": 10, "bank": 0, "call": 0, "result": 8}, seed=4)
    _play(run, random.Random(7), delay=(0, 500))
    events, at = _events(run), run.published
    ends = [i for i, e in enumerate(events) if e["type"] == "end_kyoku"]
    assert len(ends) >= 2
    for i in ends:
        assert at[i + 1] - at[i] == 8000 and events[i + 1]["type"] in ("start_kyoku", "end_game")
    run = _run(["human", "human", "tsumogiri"], {"move": 10, "bank": 0, "call": 0, "result": 8}, seed=4)
    _play(run, random.Random(7), delay=(0, 500), dismiss=True)
    events, at = _events(run), run.published
    for i in (i for i, e in enumerate(events) if e["type"] == "end_kyoku"):
        assert at[i + 1] == at[i]  # both persons dismissed at once
    dealer_prompts = [p for p in run.prompts[0] if p.opened in {at[i] for i, e in enumerate(events)
                                                                if e["type"] == "start_kyoku"}]
    assert dealer_prompts and all(p.due == p.opened + 10_000 for p in dealer_prompts)


def test_one_persons_dismissal_is_not_enough() -> None:
    run = _run(["human", "human", "tsumogiri"], {"move": 0, "call": 0, "result": 8}, seed=4)
    c, t = run.clock, run.table
    rng = random.Random(1)
    while t.game.held != "hand":
        seat = next((s for s in (0, 1) if t.prompt(s) is not None), None)
        if seat is None:
            c.advance(c.next_at() - c.now())
        else:
            t.act(seat, _choose(t.prompt_legal[seat], rng))
    end = c.now()
    t.dismiss(0)
    t.dismiss(0)
    assert t.game.held == "hand" and _moves(t) == [Timer(end + 8000, "pause")]
    c.advance(3000)
    t.dismiss(1)
    c.advance(0)
    assert not t.game.held and run.published[-1] == end + 3000


def test_by_default_a_table_with_a_person_paces_its_bots_and_holds_each_result_with_no_clock_running() -> None:
    """Issue 18's defaults (``scheduler.default_clock``): at a table with a person whose settings name
    no times but the move's, each built-in bot's move on its turn is told 0.8 s after the event that
    gave it the turn, and each hand's result is held 8 s (the person does not dismiss it here) —
    while it is held no seat has an open prompt and the only timer is the pause, so no clock runs
    under the card; the next prompts open with the next deal. A table of bots keeps none of it."""
    assert Pace.of(_run(["efficient", "defensive", "random"], {}).table.clock) == Pace(15_000, 60_000, 0, 0, 0)
    run = _run(["human", "efficient", "defensive"], {"move": 15, "bank": 10}, seed=3)
    t = run.table
    assert (t.pace.call, t.pace.think, t.pace.result) == (2000, 800, 8000)
    held: list[tuple[int, list[Timer], list[Prompt | None]]] = []

    def look(table: Table) -> None:
        if table.game.held == "hand":
            held.append((run.clock.now(), _moves(table), [table.prompt(s) for s in range(3)]))

    t.listeners.add(Look(look))
    _play(run, random.Random(5))
    events, at = _events(run), run.published
    ends = [i for i, e in enumerate(events) if e["type"] == "end_kyoku"]
    assert len(ends) >= 2 and {at[i + 1] - at[i] for i in ends} == {8000}
    assert held and all(prompts == [None] * 3 and timers == [Timer(now + 8000, "pause")]
                        for now, timers, prompts in held if now in {at[i] for i in ends})
    for i in (i for i, e in enumerate(events) if e["type"] == "start_kyoku" and i > 1):  # each later deal:
        assert any(p.opened == at[i] for p in run.prompts[events[i]["oya"]])  # the dealer's clock starts with it
    turns = [i for i, e in enumerate(events) if e["type"] == "dahai" and e["actor"] in (1, 2)
             and events[i - 1]["type"] == "tsumo" and events[i - 1]["actor"] == e["actor"]]
    assert len(turns) > 20 and {at[i] - at[i - 1] for i in turns} == {800}


def test_a_table_of_bots_waits_for_nothing() -> None:
    """No think time, no window, no pause at a table of bots (the defaults): the whole game is told
    at the moment it was created."""
    run = _run(["efficient", "defensive", "random"], {})
    c = run.clock
    start = c.now()
    for _ in range(100_000):
        if run.table.finished:
            break
        nxt = c.next_at()
        assert nxt == start  # every transition is due at once
        c.advance(0)
    assert run.table.finished and set(run.published) == {start}
    assert run.table.id not in run.tables.running


def test_the_schedule_is_plain_data_with_absolute_milliseconds() -> None:
    """Issue 22 keeps a table's schedule in the database so that another process recomputes every
    deadline exactly: the schedule is JSON and comes back equal."""
    run = _run(["human", "mjai", "efficient"], {"move": 15, "bank": 60, "call": 2, "think": 1, "result": 8})
    c, t = run.clock, run.table
    s = t.schedule
    assert Schedule.from_json(s.to_json()) == s
    assert t.timers() == [Timer(c.now() + 75_000, "clock", 0), Timer(c.now() + 1_800_000, "abandon")]
    p = Prompt(1, 7, c.now(), 60_000, c.now() + 2000, True)
    s2 = Schedule((None, p, None), (3, 7, 2), c.now() + 2000, ((0, 1, "seat"),), None, frozenset({2}))
    assert Schedule.from_json(s2.to_json()) == s2


def test_the_schedule_text_is_its_json_made_directly() -> None:
    """Issue 22: a table's schedule is stored (and notified) as text at every move; ``Schedule.text``
    makes that text directly, the same characters ``json.dumps`` makes of ``to_json``, which a process
    taking the table over reads back equal."""
    rng = random.Random(22)

    def num() -> int | None:
        return rng.choice([None, 0, rng.randrange(10**13), -rng.randrange(10**6)])

    def prompt(seat: int) -> Prompt | None:
        if rng.random() < 0.3:
            return None
        return Prompt(seat, rng.randrange(500), rng.randrange(10**13), rng.randrange(100_000), num(),
                      rng.random() < 0.5)

    hows = ["seat", "clock", "window", 'a "quoted" \\ how', "東 é"]
    for _ in range(300):
        s = Schedule(tuple(prompt(seat) for seat in range(3)), tuple(rng.randrange(500) for _ in range(3)),
                     num(), tuple((rng.randrange(3), rng.randrange(40), rng.choice(hows))
                                  for _ in range(rng.randrange(3))),
                     num(), frozenset(rng.sample(range(3), rng.randrange(4))), num())
        assert s.text() == json.dumps(s.to_json(), separators=(",", ":"))
        assert Schedule.from_json(json.loads(s.text())) == s
    assert Schedule().text() == json.dumps(Schedule().to_json(), separators=(",", ":"))


def test_pace_and_prompts() -> None:
    pace = Pace.of({"move": 0, "bank": 30})
    assert pace.bank == 0 and open_prompt(pace, seat=0, number=1, now=5, bank=0, bot=False, window=None).due is None
    pace = Pace.of({"move": 5, "bank": 10, "think": 1})
    bot_call = open_prompt(pace, seat=1, number=1, now=5, bank=0, bot=True, window=None, call=True)
    assert bot_call.due == 5
    p = open_prompt(pace, seat=0, number=1, now=0, bank=10_000, bot=False, window=2_000)
    assert p.window and p.due == 2_000 and bank_left(pace, p, 1_999) == 10_000  # a window spends no bank


@pytest.fixture
def served() -> Iterator[tuple[ManualClock, Any]]:
    from fastapi.testclient import TestClient

    from sanma.web import create_app

    clock = ManualClock()
    with TestClient(create_app(":memory:", clock=clock), base_url="http://127.0.0.1") as client:
        yield clock, client


def test_a_served_app_runs_on_the_injected_clock(served: tuple[ManualClock, Any]) -> None:
    """``create_app(clock=...)``: the served tables' timers run when the test moves the clock."""
    clock, client = served
    t = client.post("/api/tables", json={"rules": EAST, "seats": ["human", "tsumogiri", "tsumogiri"],
                                         "seed": 1, "clock": {"move": 3, "bank": 0}}).json()
    with client.websocket_connect(f"/ws/tables/{t['id']}/play?token={t['seats'][0]['token']}") as ws:
        prompt = next(m for m in iter(ws.receive_json, None) if m["type"] == "prompt")
        assert prompt["clock"]["deadline"] == (clock.now() + 3000) / 1000
        clock.advance(2999)
        ws.send_json({"type": "ping", "t": 1})
        seen = list(iter(ws.receive_json, {"type": "pong", "t": 1}))
        assert all(m["type"] == "presence" for m in seen)  # nothing was played for the seat yet
        clock.advance(1)
        view = ws.receive_json()
        assert view["type"] == "view" and view["events"][0] == {**view["events"][0], "type": "dahai", "actor": 0}


def _stored_events(path: Any, tid: str) -> list[dict[str, Any]]:
    import json

    with open_db(path) as store:
        return [json.loads(r[0]) for r in store.conn.execute(
            "SELECT data FROM web_events WHERE table_id = ? ORDER BY idx", (tid,))]


def _restart(path: Any, tid: str) -> tuple[ManualClock, Tables, Table]:
    clock = ManualClock(start=1_800_000_000_000)
    tables = Tables(open_db(path), clock)
    assert tables.resume() == 1
    return clock, tables, tables.running[tid]


@pytest.mark.parametrize("stop", ["hand", "window", "released"])
def test_a_restart_rebuilds_a_held_table_exactly_where_it_was_told(tmp_path: Any, stop: str) -> None:
    """A server stopped while a hand's result is shown, inside a call window, or just after a window
    was released (its events stored, no action since) rebuilds the same events and holds; what it
    waits for starts again from the restart (SQLite keeps no schedule)."""
    path = tmp_path / "db.sqlite"
    clock = ManualClock()
    tables = Tables(open_db(path), clock)
    t, _ = tables.create({"rules": EAST, "seats": ["human", "efficient", "efficient"], "seed": 2,
                          "clock": {"move": 0, "call": 2, "result": 8}})
    rng = random.Random(2)
    for _ in range(10_000):
        if stop == "hand" and t.game.held == "hand":
            break
        if stop == "window" and t.schedule.window is not None and t.game.held == "window":
            break
        if stop == "released" and t.prompt(0) is not None and t.game.events[-1]["type"] == "tsumo" and t.actions > 20:
            break
        if t.prompt(0) is not None and t.schedule.window is None:
            t.act(0, _choose(t.prompt_legal[0], rng))
        else:
            clock.advance(clock.next_at() - clock.now())
    held, events = t.game.held, list(t.game.events)
    assert _stored_events(path, t.id) == events
    tables.close()
    tables.store.close()
    clock2, tables2, t2 = _restart(path, t.id)
    assert t2.game.events == events and t2.game.held == held
    if stop == "hand":
        assert _moves(t2) == [Timer(clock2.now() + 8000, "pause")]
    elif stop == "window":
        assert _moves(t2) == [Timer(clock2.now() + 2000, "window")]
    else:
        p = t2.prompt(0)
        assert p is not None and p.opened == clock2.now() and p.due is None
    for _ in range(10_000):  # and it plays on to the end, storing nothing twice
        if t2.finished:
            break
        if t2.prompt(0) is not None and t2.schedule.window is None:
            t2.act(0, _choose(t2.prompt_legal[0], rng))
        else:
            clock2.advance(clock2.next_at() - clock2.now())
    assert t2.finished and _stored_events(path, t.id) == t2.game.events
    tables2.store.close()
