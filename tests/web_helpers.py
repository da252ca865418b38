"""Helpers of the server tests: the real server in a thread, scripted clients, the leak checker."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import uvicorn
from fastapi import FastAPI

from sanma.tiles import Tile
from sanma.web import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(db_path: str | os.PathLike[str], *, port: int | None = None,
            **app_options: Any) -> Iterator[tuple[str, FastAPI]]:
    """The real server (uvicorn, loopback only) in a thread: ``(base_url, app)``; stopped after the block."""
    app = create_app(db_path, **app_options)
    port = port or free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            thread.join(5)
            raise RuntimeError(f"the test server on port {port} did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(30)


@contextlib.contextmanager
def running_server(db_path: str | os.PathLike[str], *, port: int | None = None, **app_options: Any) -> Iterator[str]:
    """``with running_server(tmp_path / "db.sqlite") as base:`` -> ``"http://127.0.0.1:PORT"``."""
    with serving(db_path, port=port, **app_options) as (base, _):
        yield base


def ws_url(base: str, path: str) -> str:
    return "ws" + base.removeprefix("http") + path


# --------------------------------------------------------------------------------------------
# Scripted clients
# --------------------------------------------------------------------------------------------


#: Refusals a correct client meets when its answer crosses another seat's move (an external mjai
#: seat's ron took precedence over this seat's pon offer before the answer arrived): the prompt is
#: gone; the client waits for the next view (docs/WEB_PROTOCOL.md, "error").
CROSSED = ("not_your_turn", "stale")


def choose(actions: Sequence[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A scripted player: always win, often pass on calls, otherwise anything legal."""
    wins = [a for a in actions if a["type"] == "hora"]
    if wins:
        return wins[0]
    passes = [a for a in actions if a["type"] == "none"]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(list(actions))


def mjai_answer(batch: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """A scripted mjai bot: answers from ``possible_actions`` (one-step riichi), None when not asked."""
    possible = batch[-1].get("possible_actions") if batch else None
    if not possible:
        return None
    return choose(possible, rng)


# --------------------------------------------------------------------------------------------
# The leak checker
# --------------------------------------------------------------------------------------------

# Keys whose strings are not tiles: winds, names (a player "C"), the kinds a hand waits on, rules.
NOT_TILES = frozenset({"round_wind", "wind", "bakaze", "names", "name", "waits", "rules_detail", "rules"})


class Leak(AssertionError):
    pass


def tile_names(value: Any) -> set[str]:
    """Every tile name anywhere in a JSON value (outside ``NOT_TILES`` keys)."""
    out: set[str] = set()
    if isinstance(value, str):
        if value != "?":
            try:
                Tile.from_mjai(value)
            except ValueError:
                return out
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in NOT_TILES:
                out |= tile_names(v)
    elif isinstance(value, list | tuple):
        for v in value:
            out |= tile_names(v)
    return out


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [n for v in value for n in _names(v)]
    return []


class LeakChecker:
    """What each seat (``None``: a spectator) may know after each event, from the server's own events.

    A tile name the seat has not seen a copy of (own deal and draws, every discard, call, kita,
    flower, revealed indicator or revealed hand of the current hand) is a concealed tile of another
    seat, a wall tile or an unrevealed indicator: a payload that names one leaks.
    """

    def __init__(self, events: Sequence[dict[str, Any]], seed: str, wall_key: str | None = None) -> None:
        self.events = list(events)
        self.seed = seed
        self.wall_key = wall_key  # a keyed table's wall key (hex): as secret as the seed until the end
        self.known: dict[int | None, list[frozenset[str]]] = {}
        for seat in (0, 1, 2, None):
            seen: set[str] = set()
            per: list[frozenset[str]] = []
            for e in self.events:
                t = e["type"]
                if t == "start_kyoku":
                    seen = set(_names(e.get("dora_markers", [e.get("dora_marker")])))
                    if seat is not None:
                        seen |= set(_names(e["tehais"][seat]))
                elif t == "tsumo":
                    if e["actor"] == seat:
                        seen.add(e["pai"])
                elif t == "kita":
                    seen.add("N")
                elif t == "dora":
                    seen.add(e["dora_marker"])
                elif t == "hora":
                    seen |= set(_names(e.get("hora_tehais"))) | set(_names(e.get("uradora_markers"))) | {e["pai"]}
                elif t == "ryukyoku":
                    seen |= set(_names(e.get("tehais")))
                else:
                    seen |= set(_names(e.get("pai"))) | set(_names(e.get("consumed")))
                per.append(frozenset(seen))
            self.known[seat] = per
        self.payloads = 0

    def check(self, seat: int | None, index: int, payload: Any, what: str) -> None:
        """``payload`` was sent to ``seat`` when events ``[0, index]`` had happened."""
        self.payloads += 1
        text = json.dumps(payload)
        if self.seed in text:
            raise Leak(f"{what} to seat {seat}: the seed before the game ended: {text[:200]}")
        if self.wall_key is not None and self.wall_key in text:
            raise Leak(f"{what} to seat {seat}: the wall key before the game ended: {text[:200]}")
        unknown = tile_names(payload) - self.known[seat][index]
        if unknown:
            raise Leak(f"{what} to seat {seat} at event {index}: names {sorted(unknown)} it cannot know: {text[:300]}")

    @staticmethod
    def check_to_move(seat: int | None, view: dict[str, Any]) -> None:
        """Who must act, as a view tells it: the seat on turn and the viewer itself, never another
        seat deciding on a call (that it was asked tells what it holds)."""
        allowed = {view["turn"], *(() if seat is None else (seat,))}
        if not set(view["to_move"]) <= allowed:
            raise Leak(f"view to seat {seat}: to_move {view['to_move']} names a seat deciding on a call "
                       f"(turn {view['turn']})")

    def check_page(self, seat: int | None, messages: Sequence[dict[str, Any]]) -> None:
        """Every message one page connection received, in order."""
        last = 0
        last_end = 0
        for m in messages:
            t = m.get("type")
            if t == "view":
                start = m["event_index"]
                for j, e in enumerate(m["events"]):
                    self.check(seat, start + j, e, f"event {e.get('type')}")
                    if e["type"] == "end_kyoku":
                        last_end = start + j
                last = start + len(m["events"]) - 1
                self.check(seat, last, m["view"], "view")
                self.check_to_move(seat, m["view"])
            elif t == "hand_result":
                self.check(seat, last_end, m, "hand_result")
                self.check_hand_result(seat, last_end, m["result"])
            elif t == "game_result":
                continue  # the seed is published here, after the game
            else:
                self.check(seat, last, m, str(t))

    def check_hand_result(self, seat: int | None, index: int, result: dict[str, Any]) -> None:
        """A hand's card opens only what the table revealed at the hand's end (event ``index``, its
        ``end_kyoku``): each winner's hand as its ``hora`` showed it, and at an exhaustive draw the
        hands of the tenpai seats only, as the ``ryukyoku`` event showed them (issue 18 item 6)."""
        start = max(i for i in range(index + 1) if self.events[i]["type"] == "start_kyoku")
        hand = self.events[start:index + 1]
        wins = {e["actor"]: e for e in hand if e["type"] == "hora"}
        draw = next((e for e in hand if e["type"] == "ryukyoku"), None)
        for w in result["wins"]:
            e = wins.get(w["seat"])
            shown = sorted([*w["hand"], w["pai"]] if w["tsumo"] else w["hand"])
            if e is None or shown != sorted(e.get("hora_tehais", [])):
                raise Leak(f"hand_result to seat {seat}: seat {w['seat']}'s hand {w['hand']} is not what its "
                           "win showed")
        tenpai = draw.get("tenpai", []) if draw is not None and draw.get("reason") == "exhaustive" else []
        for h in result.get("tenpai_hands", []):
            if draw is None or h["seat"] not in tenpai or sorted(h["hand"]) != sorted(draw["tehais"][h["seat"]]):
                raise Leak(f"hand_result to seat {seat}: opens seat {h['seat']}'s hand, not tenpai at a draw")

    def check_mjai(self, seat: int, frames: Sequence[list[dict[str, Any]]]) -> None:
        """Every frame one mjai connection received (it is sent the game from ``start_game``)."""
        i = -1
        for frame in frames:
            for e in frame:
                if e.get("type") == "error":
                    self.check(seat, max(i, 0), e, "error")
                    continue
                i += 1
                if e.get("type") == "end_game":
                    continue  # nothing hidden; after the game
                self.check(seat, i, e, f"mjai {e.get('type')}")
