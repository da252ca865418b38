"""THE LEAK TEST (issue 11): every payload the server sends — to each seat, the spectator, the
mjai bot and the record/replay requests — through a whole game over the real WebSocket, with a
reconnect mid-hand and a request for the running game's record: no concealed tile of another seat,
no wall tile, no unrevealed indicator and no seed is ever in one. And the checker does fire when a
payload leaks."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import sanma.web.tables as web_tables
import sanma.web.ws as web_ws
from sanma.store import open_db
from sanma.web.scheduler import ManualClock
from sanma.web.tables import Tables
from web_helpers import CROSSED, Leak, LeakChecker, attach, choose, mjai_answer, serving, ws_url

SEED = "leak-7f3a9c2e51"
RULES = {"extends": "tenhou", "round_winds": "E"}  # an East-only game: whole, and quick


def _spectate(url: str, out: list[dict[str, Any]]) -> None:
    with connect(url, open_timeout=30) as ws:
        while True:
            m = json.loads(ws.recv(timeout=180))
            out.append(m)
            if m["type"] == "game_result":
                return


def _mjai(url: str, out: list[list[dict[str, Any]]], seed: int) -> None:
    rng = random.Random(seed)
    with connect(url, open_timeout=30) as ws:
        while True:
            batch = json.loads(ws.recv(timeout=180))
            out.append(batch)
            if any(e.get("type") == "end_game" for e in batch):
                return
            answer = mjai_answer(batch, rng)
            if answer is not None:
                ws.send(json.dumps(answer))


def _play(bases: list[str], path: str, rng: random.Random, connections: list[list[dict[str, Any]]],
          reconnect_after: int, at_fifth_action: Callable[[], None]) -> None:
    """A scripted person: plays every prompt; drops the connection mid-hand once and comes back
    (connection k goes to ``bases[k]``, the last base again after that: another process, with
    several); ``at_fifth_action`` asks the API things while the game runs."""
    acted = 0
    crossed: list[dict[str, Any]] = []
    while True:
        messages: list[dict[str, Any]] = []
        connections.append(messages)
        base = bases[min(len(connections), len(bases)) - 1]
        with connect(ws_url(base, path), open_timeout=30) as ws:
            while True:
                m = json.loads(ws.recv(timeout=180))  # a silent server fails the test, never hangs it
                messages.append(m)
                if m["type"] == "error":  # only the refusal of an answer that crossed the mjai seat's move
                    assert m["code"] in CROSSED, m
                    crossed.append(m)
                    assert len(crossed) <= 3, crossed  # a rare race, not a habit
                    continue
                if m["type"] == "game_result":
                    return
                if m["type"] == "prompt":
                    a = choose(m["actions"], rng)
                    ws.send(json.dumps({"type": "action", "prompt": m["prompt"], "id": a["id"]}))
                    acted += 1
                    if acted == 5:
                        at_fifth_action()
                    if acted >= reconnect_after and len(connections) == 1 and a["type"] == "dahai":
                        # close mid-hand (after a discard: the hand goes on); the next connection must
                        # restore the view and nothing more. Early, since the walls are keyed with a
                        # per-table secret (an mjai seat sits): each run is another game, and a short one
                        # once gave the person fewer than 40 prompts (CI).
                        break


def _whole_game(tmp_path: Path) -> tuple[LeakChecker, dict[str, Any]]:
    with serving(tmp_path / "db.sqlite", rate=1000, burst=1000) as (base, app):
        r = httpx.post(f"{base}/api/tables", json={"rules": RULES, "seats": ["human", "mjai", "efficient"],
                                                  "seed": SEED,
                                                  "clock": {"move": 0, "call": 0, "think": 0, "result": 0}})
        assert r.status_code == 201, r.text
        t = r.json()
        tid = t["id"]
        watch: list[dict[str, Any]] = []
        frames: list[list[dict[str, Any]]] = []
        threads = [threading.Thread(target=_spectate, args=(ws_url(base, f"/ws/tables/{tid}/watch"), watch)),
                   threading.Thread(target=_mjai, args=(
                       ws_url(base, f"/ws/tables/{tid}/mjai?token={t['seats'][1]['token']}"), frames, 2))]
        for th in threads:
            th.start()
        pages: list[list[dict[str, Any]]] = []
        records: list[httpx.Response] = []

        def ask_while_running() -> None:  # the running game's record and replay are refused, and say nothing
            for fmt in ("mjai", "tenhou6"):
                records.append(httpx.get(f"{base}/api/tables/{tid}/record?format={fmt}"))
            records.append(httpx.get(f"{base}/api/tables/{tid}/replay"))
            records.append(httpx.get(f"{base}/api/replays/table/{tid}"))  # the viewer's steps
            records.append(httpx.get(f"{base}/api/tables/{tid}"))

        _play([base], f"/ws/tables/{tid}/play?token={t['seats'][0]['token']}", random.Random(1), pages, 12,
              ask_while_running)
        for th in threads:
            th.join(120)
        with open_db(tmp_path / "db.sqlite") as store:  # the finished game lives in the store only
            events = [json.loads(r[0]) for r in store.conn.execute(
                "SELECT data FROM web_events WHERE table_id = ? ORDER BY idx", (tid,))]
            (key,) = store.conn.execute("SELECT wall_key FROM web_tables WHERE id = ?", (tid,)).fetchone()
        assert events[-1]["type"] == "end_game" and tid not in app.state.tables.running
        assert key is not None  # an mjai seat sits: the walls are keyed, and the key is as secret as the seed
        checker = LeakChecker(events, SEED, key)
        checker.check_page(None, watch)
        checker.check_mjai(1, frames)
        for messages in pages:
            checker.check_page(0, messages)
        assert [r.status_code for r in records[:4]] == [409, 409, 409, 409]
        for r in records:
            checker.check(None, 0, r.json(), f"GET {r.url}")
        after = httpx.get(f"{base}/api/tables/{tid}").json()
        return checker, {"pages": pages, "watch": watch, "frames": frames, "after": after}


def test_no_payload_leaks_through_a_whole_game(tmp_path: Path) -> None:
    checker, seen = _whole_game(tmp_path)
    pages = seen["pages"]
    assert len(pages) == 2, "the scripted person reconnected once"
    again = pages[1]
    assert again[0]["type"] == "hello" and again[1]["type"] == "view"
    assert again[1]["events"][0]["type"] == "start_kyoku"  # the current hand as the seat saw it, no more
    assert seen["watch"][-1]["type"] == "game_result" and seen["frames"]
    assert seen["after"]["finished"] and seen["after"]["seed"] == SEED  # published after the game
    assert checker.payloads > 500


def test_the_checker_fires_when_a_payload_leaks_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Proof that the leak test can fail: one view message carries the deal unmasked."""
    real = web_ws.public_events
    leaked: list[bool] = []

    def leaky(log: list[Any], seat: int | None, start: int = 0,
              mjai: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        out = real(log, seat, start, mjai)
        if not leaked and out and out[0]["type"] == "start_kyoku" and seat is None:
            leaked.append(True)
            return [log[start].to_mjai(), *out[1:]]  # the spectator is sent every seat's deal, once
        return out

    monkeypatch.setattr(web_ws, "public_events", leaky)
    with pytest.raises(Leak, match="cannot know"):
        _whole_game(tmp_path)
    assert leaked == [True]


def test_the_checker_fires_on_the_wall_key_before_the_end() -> None:
    """Proof for the key check: a payload naming a keyed table's wall key before the end leaks."""
    events = [{"type": "start_game", "names": ["a", "b", "c"]},
              {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
               "dora_marker": "1p", "scores": [35000] * 3, "tehais": [["?"] * 13] * 3}]
    checker = LeakChecker(events, "seed-text", "ab" * 32)
    checker.check(0, 1, {"type": "hello", "wall_key_hash": "cd" * 32}, "hello")  # its hash is public
    with pytest.raises(Leak, match="wall key"):
        checker.check(0, 1, {"type": "hello", "x": "ab" * 32}, "hello")


def test_the_checker_fires_on_a_view_naming_another_seat_deciding_on_a_call() -> None:
    """Proof for the to_move check: seat 0's view during a call window names seat 2 (it was offered
    a pon or a ron on seat 1's discard): a leak; its own decision, or the seat on turn, is not."""
    LeakChecker.check_to_move(0, {"turn": 1, "to_move": [0]})
    LeakChecker.check_to_move(None, {"turn": 1, "to_move": [1]})
    with pytest.raises(Leak, match="deciding on a call"):
        LeakChecker.check_to_move(0, {"turn": 1, "to_move": [0, 2]})
    with pytest.raises(Leak, match="deciding on a call"):
        LeakChecker.check_to_move(None, {"turn": 1, "to_move": [2]})


def test_no_side_channel_in_counters_batching_or_timing_on_the_injected_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23 item 1, 'No side channel', over a whole game on the injected clock, through the
    protocol's own connection classes: a person (who answers after 0-3 s, sometimes past a call
    window, and dismisses each result after 0-8 s), an external mjai bot and a built-in bot, with a
    2 s call window, 1 s think time and a 5 s result pause. What the spectator, the person and the
    bot are sent, and when, follows from the public events and the settings alone: no action
    counter, a view stops after every discard, the next event comes exactly 2 s after every
    discard (whoever was asked, whatever they answered, however fast), a hand's end lasts until
    the person dismissed it or 5 s passed, and the bot's moves come 1 s after its turn."""
    monkeypatch.setattr(web_tables, "wall_key_for", lambda kinds: b"k" * 32)  # the same game every run
    clock = ManualClock()
    tables = Tables(open_db(":memory:"), clock)
    table, _ = tables.create({"rules": RULES, "seats": ["human", "mjai", "efficient"], "seed": SEED,
                              "clock": {"move": 10, "bank": 20, "call": 2, "think": 1, "result": 5}})
    person, spectator, bot = attach(table, 0), attach(table, None), attach(table, 1, "mjai")
    rng = random.Random(11)
    seen = {"person": 0, "bot": 0}
    prompt: dict[str, Any] | None = None
    act_at = dismiss_at = ask_at = None
    ask: list[dict[str, Any]] | None = None
    dismissed: list[int] = []
    for _ in range(100_000):
        if table.finished:
            break
        now = clock.now()
        for m in person.sent.messages[seen["person"]:]:
            if m["type"] == "prompt":
                prompt, act_at = m, now + rng.randint(0, 3000)
            elif m["type"] == "view" and prompt is not None and m["prompt"] != prompt["prompt"]:
                prompt = act_at = None  # gone: the window closed on it
            elif m["type"] == "hand_result":
                dismiss_at = now + rng.randint(0, 8000)
        seen["person"] = len(person.sent.log)
        for frame in bot.sent.messages[seen["bot"]:]:
            if frame and frame[-1].get("possible_actions"):
                call = any(a["type"] == "none" for a in frame[-1]["possible_actions"])
                ask, ask_at = frame, now + rng.randint(0, 1500 if call else 3000)
        seen["bot"] = len(bot.sent.log)
        due = [t for t in (clock.next_at(), act_at, dismiss_at, ask_at) if t is not None]
        assert due, "the table waits for nothing and nobody"
        clock.advance(min(due) - now)
        now = clock.now()
        if act_at == now and prompt is not None:
            a = choose(prompt["actions"], rng)
            person.handle(json.dumps({"type": "action", "prompt": prompt["prompt"], "id": a["id"]}))
            prompt = act_at = None
        if dismiss_at == now:
            dismissed.append(now)
            person.handle(json.dumps({"type": "dismiss"}))
            dismiss_at = None
        if ask_at == now and ask is not None:
            answer = mjai_answer(ask, rng)
            assert answer is not None
            bot.handle(json.dumps(answer))
            ask = ask_at = None
    assert table.finished
    events = table.game.events
    checker = LeakChecker(events, SEED, table.wall_key.hex() if table.wall_key else None)
    checker.check_page(None, spectator.sent.messages)
    checker.check_page(0, person.sent.messages)
    checker.check_mjai(1, bot.sent.messages)
    assert not [m for m in person.sent.messages + spectator.sent.messages if m["type"] == "error"]
    assert not [e for f in bot.sent.messages for e in f if e["type"] == "error"]

    def told(conn: Any) -> list[int]:  # the time each event was sent to a page connection
        out: list[int] = []
        for at, m in conn.sent.log:
            if m["type"] == "view":
                out += [at] * (m["event_index"] + len(m["events"]) - len(out))
        return out

    at = told(spectator)
    assert len(at) == len(events) and told(person) == at  # the same events at the same times for everyone
    windows = [i for i, e in enumerate(events) if e["type"] in ("dahai", "kakan") and i + 1 < len(events)]
    assert len(windows) > 60
    assert all(at[i + 1] - at[i] == 2000 for i in windows), [(i, at[i + 1] - at[i]) for i in windows
                                                             if at[i + 1] - at[i] != 2000][:5]
    for i in (i for i, e in enumerate(events) if e["type"] == "end_kyoku"):
        by = min([d for d in dismissed if d >= at[i]] + [at[i] + 5000])
        assert at[i + 1] == by, (i, at[i], at[i + 1], by)
    thinks = [i for i, e in enumerate(events) if e.get("actor") == 2 and e["type"] in ("dahai", "reach", "kita")
              and events[i - 1]["type"] in ("tsumo", "pon") and events[i - 1]["actor"] == 2]
    assert thinks and all(at[i] - at[i - 1] == 1000 for i in thinks)
    prompts = [(t, m) for t, m in person.sent.log if m["type"] == "prompt"]
    assert len(prompts) > 30
    for t, m in prompts:  # the clock starts when the prompt is sent; a call's runs to the window's end
        call = any(a["type"] == "none" for a in m["actions"])
        assert m["clock"]["window"] if call else "window" not in m["clock"]
        assert round(m["clock"]["deadline"] * 1000) == t + (2000 if call else 10_000 + m["clock"]["bank"] * 1000)
    assert any(any(a["type"] == "none" for a in m["actions"]) for _, m in prompts)
