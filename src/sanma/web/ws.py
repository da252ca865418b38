"""The table WebSockets: the page's protocol (docs/WEB_PROTOCOL.md) and the mjai dialect.

Everything a connection is sent is built here from ``sanma.game.view`` (the seat's view and its
masked events, or the spectator's); everything it sends is checked against the seat's legal
actions before the table changes. Refusals are ``error`` messages; nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..bots.mjai import REACH_STEP, MjaiStream, match_action, match_reach_discard, reach_step
from ..game.actions import Action
from ..game.view import public_events, seat_view, spectator_view
from ..i18n import Message, current_lang, sentence
from .guard import BadJSON, load_json
from .limits import client_of
from .players import player_id
from .scheduler import Prompt
from .tables import TOGGLE_NAMES, Table, TableError, Tables, game_result, key_hash

log = logging.getLogger("sanma.web")

PROTOCOL = 2  # 2: per-seat prompt ids, no table-wide action counter (issue 23)
MAX_FRAME = 4096  # bytes of one client frame
RATE = 30.0  # messages a second a connection may send (besides the one answer it owes each question) ...
BURST = 60.0  # ... in bursts of this many
MAX_STRIKES = 60  # refused-for-rate messages before the connection is closed (1008)
_A_MESSAGE = sentence("a message")  # what a page's frame is, and a bot's (load_json's refusals name it)
_AN_ANSWER = sentence("an answer")


#: A message as compact JSON text, in ASCII (no stored text can fail to encode); the encoder is made once
#: (``json.dumps`` with ``separators`` makes one per call).
_dump = json.JSONEncoder(separators=(",", ":")).encode


def label(a: Action) -> str:
    """A short text for a prompt button: ``pon 5p``, ``riichi 3s``, ``pass``."""
    names = {"dahai": "discard", "reach": "riichi", "open_reach": "open riichi", "hora": "win", "none": "pass",
             "ryukyoku": "nine terminals", "daiminkan": "kan", "ankan": "closed kan", "kakan": "added kan"}
    text = names.get(a.type, a.type)
    if a.type == "hora":
        text = "tsumo" if a.target == a.actor else "ron"
    tile = a.tile.mjai if a.tile is not None else (a.consumed[0].mjai if a.consumed else "")
    return f"{text} {tile}".strip() if a.type not in ("none", "ryukyoku", "kita") else text


class Limiter:
    """A token bucket: ``allow()`` is False for a message over the rate."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()
        self.strikes = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


_HANG_UP = "hang up"  # (by identity) the outbox's last item: close the socket


class Connection:
    """One WebSocket on one table. Its messages go out in order from an outbox, through a task that
    runs only while there is something to send: an idle connection has no task waiting on a queue,
    so between two messages the collector's young generations hold nothing of its writing (at 1,000
    paced tables, three waits per action that lived until the table's next: docs/PERFORMANCE.md,
    "No writer waiting on an idle socket")."""

    def __init__(self, ws: WebSocket, table: Table, seat: int | None) -> None:
        self.ws = ws
        self.table = table
        self.seat = seat
        self.outbox: deque[str] = deque()
        self.sending: asyncio.Task[None] | None = None  # the task emptying the outbox, while it has messages
        self.closed = False
        self.free_seq = -1  # the question whose owed answer went uncharged
        self.lang = current_lang()  # its handshake's (web/i18n.py): a table's other tasks send to it too

    def send(self, msg: Any) -> None:
        if not self.closed:
            self._put(msg if isinstance(msg, str) else _dump(msg))

    def _put(self, item: str) -> None:
        self.outbox.append(item)
        if self.sending is None:
            self.sending = asyncio.get_running_loop().create_task(self._send_all())

    def error(self, code: str, message: str | Message) -> None:
        """A refusal in the page's words (its connection's language: web/i18n.py), with its code."""
        self.send(_error("play", code, message if isinstance(message, str) else message.text(self.lang)))

    def hang_up(self, msg: Any) -> None:
        """Send ``msg`` last, then close the socket (1012: the client may connect again)."""
        self.send(msg)
        if not self.closed:
            self._put(_HANG_UP)
        self.closed = True

    async def _send_all(self) -> None:
        try:
            while self.outbox:
                msg = self.outbox.popleft()
                if msg is _HANG_UP:  # (the last item: nothing is put after it, the connection being closed)
                    await self.ws.close(1012)
                    return
                await self.ws.send_text(msg)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True
            self.outbox.clear()
        finally:
            self.sending = None

    async def flush(self, timeout: float) -> None:
        """Until the outbox has gone out; after ``timeout`` seconds what is left is dropped."""
        if self.sending is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.sending, timeout)

    def open_question(self) -> int | None:
        """The seq of the question this connection's seat must answer now, if any."""
        return None

    def take_owed_answer(self) -> bool:
        """True once per open question: the one answer a seat owes is not charged to the rate limit
        (a fast bot is never throttled for answering at the game's pace); everything else a
        connection sends is, a second answer to a question asked again after a refusal included."""
        q = self.open_question()
        if q is None or q == self.free_seq:
            return False
        self.free_seq = q
        return True

    def update(self, table: Table) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def preview(self, table: Table) -> Callable[[], None] | None:  # pragma: no cover - overridden
        raise NotImplementedError

    def handle(self, raw: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def presence(self, table: Table) -> None:
        pass


class PageConnection(Connection):
    """A person's seat (``seat``) or a spectator (``None``) on the page's protocol."""

    def __init__(self, ws: WebSocket, table: Table, seat: int | None) -> None:
        super().__init__(ws, table, seat)
        self.sent_events = table.hand_start  # a (re)connect gets the current hand as the seat saw it
        self.sent_results = len(table.results)
        self.prompted = -1
        self.ended = False
        self.first = True

    def open_question(self) -> int | None:
        t, s = self.table, self.seat
        p = t.prompt(s) if s is not None else None
        return p.number if p is not None else None

    def hello(self) -> None:
        t = self.table
        self.send({"type": "hello", "protocol": PROTOCOL, "table": t.id,
                   "role": "seat" if self.seat is not None else "spectator", "seat": self.seat,
                   "rules": t.rules.name, "rules_detail": t.public()["rules_detail"], "seats": t.seats_info(),
                   "seed_hash": t.seed_hash, "clock": t.clock,
                   **({"wall_key_hash": key_hash(t.wall_key)} if t.wall_key is not None else {}),
                   "toggles": dict(t.toggles[self.seat]) if self.seat is not None else None})

    def update(self, table: Table) -> None:
        g = table.game
        events = g.events
        if len(events) < self.sent_events:  # the table went back (its last moves were lost: docs/DEPLOY.md)
            self._start_again(table)
        if self.first or len(events) > self.sent_events or (self.seat is not None and self._prompt_due()):
            self.send(self._view(table))
            self.sent_events = len(events)
            self.first = False
        pause = table.schedule.pause if g.held == "hand" and table.pace.result > 0 else None
        for i, (_, result) in enumerate(table.results[self.sent_results:], self.sent_results):
            # ``next``: when the table goes on at the latest (the result pause; sooner once every person
            # at the table has dismissed the card), for the hand the table holds at now
            last = i == len(table.results) - 1
            self.send({"type": "hand_result", "result": result,
                       "next": pause / 1000 if last and pause is not None else None})
        self.sent_results = len(table.results)
        prompt = table.prompt(self.seat) if self.seat is not None else None
        if prompt is not None and prompt.number != self.prompted:
            self._send_prompt(prompt)
        if g.done and not self.ended:
            self.ended = True
            key = {"wall_key": table.wall_key.hex()} if table.wall_key is not None else {}
            self.send({"type": "game_result", "result": game_result(g), "seed": table.seed, **key})
        elif table.abandoned and not self.ended:
            self.ended = True
            self.send({"type": "abandoned", "message": sentence(
                "everybody who plays at this table was away too long: the table ended, and it has no record"
            ).text(self.lang)})

    def _start_again(self, table: Table) -> None:
        """As a new connection: ``hello`` (the page forgets what it was told), then the current
        hand's view, its prompt, its results from here on."""
        self.sent_events = table.hand_start
        self.sent_results = len(table.results)
        self.prompted = -1
        self.ended = False
        self.first = True
        self.hello()

    def preview(self, table: Table) -> Callable[[], None] | None:
        """The view of the table as it is now, sent later (``Table._release_at_once``: a window that
        nobody may answer, so no prompt is open and no result or end can be new here)."""
        if not self.first and len(table.game.events) <= self.sent_events:
            return None  # (a table that went back is told at its update)
        msg, n = self._view(table, asking=False), len(table.game.events)

        def tell() -> None:
            self.send(msg)
            self.sent_events = n
            self.first = False

        return tell

    def _view(self, table: Table, *, asking: bool = True) -> dict[str, Any]:
        """The seat's (or the spectator's) view now, with the events since the last one sent
        (``asking`` False: at a window nobody may answer, where no prompt is open)."""
        g = table.game
        public, public_json = table.public_seats()
        view = seat_view(g, self.seat, public) if self.seat is not None else spectator_view(g, public)
        sort = table.toggles[self.seat]["auto_sort"] if self.seat is not None else True
        msg: dict[str, Any] = {"type": "view", "event_index": self.sent_events,
                               "view": view.to_json(sort=sort, seats_json=public_json),
                               "events": public_events(g.log, self.seat, self.sent_events, g.events)}
        if self.seat is not None:  # the seat's open prompt (a prompt not named here is gone)
            p = table.prompt(self.seat) if asking else None
            msg["prompt"] = p.number if p is not None else None
        return msg

    def _send_prompt(self, prompt: Prompt) -> None:
        t, s = self.table, prompt.seat
        self.prompted = prompt.number
        deadline = t.deadline(s)
        self.send({"type": "prompt", "prompt": prompt.number,
                   "actions": [{"id": i, **a.to_mjai(), "label": label(a)} for i, a in enumerate(t.prompt_legal[s])],
                   "clock": None if deadline is None else _clock(t, prompt, deadline)})

    def _prompt_due(self) -> bool:
        p = self.table.prompt(self.seat) if self.seat is not None else None
        return p is not None and p.number != self.prompted

    def presence(self, table: Table) -> None:
        self.send({"type": "presence", "seats": table.seats_info()})

    def handle(self, raw: str) -> None:
        """One client message: act, toggle or ping; anything else is refused with a reason."""
        try:
            msg = load_json(raw, _A_MESSAGE)
        except BadJSON as e:
            return self.error("malformed", sentence("{why}; a message is one JSON object", why=e))
        if not isinstance(msg, dict):
            return self.error("malformed", sentence("a message must be one JSON object"))
        kind = msg.get("type")
        if kind == "ping":
            t = msg.get("t")
            return self.send({"type": "pong", "t": t if isinstance(t, int | float | str) and len(str(t)) < 64
                              else None})
        if kind not in ("action", "toggle", "dismiss"):
            return self.error("unknown_type", sentence("unknown message type {kind!r}; send action, toggle, dismiss "
                                                       "or ping", kind=str(kind)[:40]))
        if self.seat is None:
            return self.error("spectator", sentence("a spectator cannot act, set toggles or dismiss a result"))
        if kind == "toggle":
            return self._toggle(msg)
        if kind == "dismiss":
            self.table.dismiss(self.seat, self._refused)
            return None
        return self._action(msg)

    def _refused(self, error: TableError | None) -> None:
        """A dismissed result or a toggle that could not be stored (``Table``'s ``done``)."""
        if error is not None:
            self.error("refused", error.message)

    def _toggle(self, msg: dict[str, Any]) -> None:
        name, value = msg.get("name"), msg.get("value")
        if name not in TOGGLE_NAMES:
            return self.error("unknown_toggle", sentence("unknown toggle {name!r}; toggles: {names}",
                                                         name=str(name)[:40], names=", ".join(TOGGLE_NAMES)))
        if not isinstance(value, bool):
            return self.error("malformed", sentence("a toggle's value must be true or false"))
        assert self.seat is not None
        self.table.set_toggle(self.seat, name, value, self._toggled)
        return None

    def _toggled(self, error: TableError | None) -> None:
        """The toggle is stored (told to the seat's pages), or refused."""
        seat = self.seat
        if error is not None or seat is None:
            return self._refused(error)
        for c in self.table.listeners:
            if isinstance(c, PageConnection) and c.seat == seat:
                c.send({"type": "toggles", "toggles": dict(self.table.toggles[seat])})
        return None

    def _action(self, msg: dict[str, Any]) -> None:
        t, s = self.table, self.seat
        assert s is not None
        number, idx = msg.get("prompt"), msg.get("id")
        if (not isinstance(number, int) or isinstance(number, bool) or not isinstance(idx, int)
                or isinstance(idx, bool)):
            return self.error("malformed", sentence(
                "an action is {{\"type\": \"action\", \"prompt\": N, \"id\": K}} with integers"))
        if t.game.done:
            return self.error("game_over", sentence("the game is over"))
        legal = t.prompt_legal[s]
        if not legal:
            # never which seats the game waits for: another seat's pending call would tell what it holds
            return self.error("not_your_turn", sentence("seat {seat} has nothing to decide now", seat=s))
        p = t.prompt(s)
        if p is None or number != p.number:
            return self.error("stale", sentence("prompt {number} is not the open one", number=number))
        if not 0 <= idx < len(legal):
            return self.error("no_such_action", sentence("id {id} is not one of the prompt's actions 0..{last}",
                                                         id=idx, last=len(legal) - 1))
        try:
            t.act(s, legal[idx], "seat", self._not_stored)
        except TableError as e:  # (another process runs the table: the request could not be sent)
            self._not_stored(e)
        return None

    def _not_stored(self, error: TableError | None) -> None:
        """A move not stored, so not taken: said, and the open prompt sent again."""
        if error is None or self.seat is None:
            return
        self.error("not_stored", error.message)
        p = self.table.prompt(self.seat)
        if p is not None:
            self._send_prompt(p)


class MjaiConnection(Connection):
    """An external bot on a seat, in sanma's mjai dialect (the same messages as ``mjai:COMMAND``)."""

    def __init__(self, ws: WebSocket, table: Table, seat: int, since: int = 0) -> None:
        super().__init__(ws, table, seat)
        self.stream = MjaiStream()
        self.fed = since  # a bot connecting gets the whole game so far, as mjai bots expect (or from ``since`` on)
        self.asked = 0  # frames that want an answer
        self.answered = 0
        self.asked_seq = -1
        self.reach_tiles: list[Action] | None = None
        self.ended = False

    def update(self, table: Table) -> None:
        s = self.seat
        assert s is not None
        if len(table.game.log) < self.fed:  # the table went back: the bot's game is not the table's now
            return self.hang_up(_error("mjai", "went_back", sentence(
                "the table went back to event {n} (its last moves were lost): connect again without since, "
                "or with since at most {n}", n=len(table.game.log))))
        prompt = table.schedule.prompts[s]
        if prompt is not None and prompt.number != self.asked_seq:
            self.asked_seq = prompt.number
            self.reach_tiles = None
            self._catch_up(table)
            self._ask(self.stream.batch(s, table.prompt_legal[s]))
        elif table.game.done and not self.ended:
            self.ended = True
            self._catch_up(table)
            batch = self.stream.batch(s)
            if batch:
                self.send(batch)

    def _catch_up(self, table: Table) -> None:
        """The events since the last ones fed, as the seat may see them: read when the bot is sent
        something (a question, the game's end), not at every change of the table."""
        g = table.game
        self.stream.extend(public_events(g.log, self.seat, self.fed, g.events))
        self.fed = len(g.log)

    def open_question(self) -> int | None:
        return self.asked_seq if self.answered < self.asked else None  # handle() counts the answer

    def preview(self, table: Table) -> Callable[[], None] | None:
        """Nothing: a bot that is not asked is sent nothing; its events go with its next question."""
        return None

    def _ask(self, batch: list[dict[str, Any]]) -> None:
        self.asked += 1
        self.send(batch)

    def handle(self, raw: str) -> None:
        s, t = self.seat, self.table
        assert s is not None
        self.answered += 1
        if self.answered < self.asked:
            return  # the answer to a frame the clock already decided: dropped
        self.answered = self.asked
        try:
            msg = load_json(raw, _AN_ANSWER)
        except BadJSON:
            msg = None
        legal = t.prompt_legal[s]
        if not legal:
            if not t.game.done:
                self.send(_error("mjai", "not_your_turn", sentence("seat {seat} has nothing to decide now", seat=s)))
            return
        if not isinstance(msg, dict):
            return self._refuse("an answer must be one JSON object (an mjai action)", legal)
        if self.reach_tiles is not None:
            chosen = match_reach_discard(msg, self.reach_tiles, s)
            if chosen is None:
                return self._refuse("illegal riichi discard", [], step=True)
            self.stream.skip_reach = True
            self.reach_tiles = None
            return self._act(chosen, legal)
        choice = match_action(msg, legal, s)
        if choice == REACH_STEP:
            step, self.reach_tiles = reach_step(msg, legal, s)
            self._ask([step])
            return None
        if not isinstance(choice, Action):
            return self._refuse(f"illegal answer {_dump(msg)[:120]}", legal)
        return self._act(choice, legal)

    def _act(self, action: Action, legal: tuple[Action, ...]) -> None:
        s = self.seat
        assert s is not None
        def not_stored(error: TableError | None) -> None:  # not stored, so not taken: the bot is asked again
            if error is not None:
                self.stream.skip_reach = False
                self._refuse(str(error), legal)

        try:
            self.table.act(s, action, "seat", not_stored)
        except TableError as e:  # (another process runs the table: the request could not be sent)
            not_stored(e)

    def refused(self, why: str) -> None:
        """A frame refused unread (over the rate): it counts as the answer it was meant to be, and an
        open question is asked again with its ``possible_actions`` (a bot never waits for nothing)."""
        s = self.seat
        assert s is not None
        legal = self.table.prompt_legal[s]
        if legal and self.answered < self.asked:
            self.answered += 1
            self._refuse(why, legal, step=self.reach_tiles is not None)
        else:
            self.send([{"type": "error", "message": why}])

    def _refuse(self, why: str, legal: tuple[Action, ...] | list[Action], *, step: bool = False) -> None:
        s = self.seat
        possible = ([{"type": "dahai", "actor": s, "pai": a.tile.mjai if a.tile else "?", "tsumogiri": a.tsumogiri}
                     for a in self.reach_tiles or ()] if step else [a.to_mjai() for a in legal])
        self._ask([{"type": "error", "message": why, "possible_actions": possible}])


# --------------------------------------------------------------------------------------------
# Serving one socket
# --------------------------------------------------------------------------------------------


async def serve_socket(ws: WebSocket, tables: Tables, table_id: str, role: str, token: str | None,
                       limits: tuple[float, float] = (RATE, BURST), since: str | None = None) -> None:
    """Accept, check the table and token, then run the connection until it closes. ``since``
    (the mjai dialect): the number of the game's events the bot already has — a bot that
    reconnects, to this process or another, resumes after the last event it saw (an open question
    it did not answer is asked again with its event)."""
    await ws.accept()
    client = client_of(ws.client)
    if not tables.sockets.open(client):
        return await _refuse(ws, role, "too_many", sentence("more than {n} sockets open from one client: close some "
                                                            "first", n=tables.limits.sockets_per_client), 4429)
    try:
        await _serve(ws, tables, table_id, role, token, limits, since)
    finally:
        tables.sockets.close(client)


async def _serve(ws: WebSocket, tables: Tables, table_id: str, role: str, token: str | None,
                 limits: tuple[float, float], since: str | None) -> None:
    try:
        table = tables.get(table_id)
        while table.writing:  # joined once what it holds is stored and told (it may be another object then)
            await table.ready()
            table = tables.get(table_id)
    except TableError as e:
        return await _refuse(ws, role, "no_such_table", e.message, 4404)
    if role == "watch" and table.watchers >= tables.limits.watchers_per_table:
        return await _refuse(ws, role, "too_many", sentence("this table has {n} spectators already (the most it "
                                                            "takes)", n=tables.limits.watchers_per_table), 4429)
    seat: int | None = None
    if role != "watch":
        seat = table.seat_of_token(token)
        want = "mjai" if role == "mjai" else "human"
        if seat is None:
            return await _refuse(ws, role, "bad_token", sentence("no seat of this table has that token"), 4403)
        if table.kinds[seat] != want:
            return await _refuse(ws, role, "bad_token", sentence("seat {seat} is a {kind} seat, not a {want} seat",
                                                                 seat=seat, kind=table.kinds[seat], want=want), 4403)
    if role == "play" and seat is not None:  # the browser's player (web/players.py) sits here
        pid = player_id(ws.query_params.get("player"))
        if pid is not None:
            table.claim(seat, pid)
    resume = 0
    if since is not None and role == "mjai":  # a page is sent the current hand whole, whatever it had
        if not since.isdigit():
            return await _refuse(ws, role, "bad_since", sentence("since must be a number of events from 0 to {n}",
                                                                 n=len(table.game.events)), 4400)
        if int(since) > len(table.game.events):  # the table went back: its last moves were lost
            return await _refuse(ws, role, "bad_since", sentence(
                "since {since} is past the game's {n} events (the table went back: its last moves were lost); "
                "connect without since to be sent the whole game", since=int(since), n=len(table.game.events)), 4400)
        resume = int(since)
        if seat is not None and resume == len(table.game.events) and table.prompt(seat) is not None:
            resume -= 1  # a question left unanswered is asked again: its event comes again, with possible_actions
    conn: Connection = MjaiConnection(ws, table, seat, resume) if role == "mjai" and seat is not None \
        else PageConnection(ws, table, seat)
    join(conn)
    limiter = Limiter(*limits)
    try:
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                data = frame.get("bytes") or b""
                if len(data) > MAX_FRAME:
                    _too_large(conn)
                    continue
                raw = data.decode("utf-8", "replace")
            if not conn.take_owed_answer() and not limiter.allow():
                if limiter.strikes > MAX_STRIKES:
                    conn.send(_error(role, "rate", sentence("too many messages: closing")))
                    break
                why = sentence("more than {n:g} messages a second: refused", n=limiter.rate)
                if isinstance(conn, MjaiConnection):
                    conn.refused(why.text("en"))
                else:
                    conn.send(_error(role, "rate", why))
                continue
            if len(raw) > MAX_FRAME // 4 and len(raw.encode()) > MAX_FRAME:  # (a character is at most 4 bytes)
                _too_large(conn)
                continue
            while conn.table.writing:  # a message is read against what was stored and told
                await conn.table.ready()
            try:
                conn.handle(raw)
            except TableError as e:
                conn.send(_error(role, "refused", e.message))
            except Exception:  # a bug must not close the socket with a traceback: said, logged
                log.exception("table %s: a message could not be handled", table.id)
                conn.send(_error(role, "internal", sentence("the server could not handle this message")))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        leave(conn)
        await conn.flush(2)
        conn.closed = True
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close(1008 if limiter.strikes > MAX_STRIKES else 1000)
    return None


def _clock(table: Table, prompt: Prompt, deadline: float) -> dict[str, Any]:
    """A prompt's clock: the move's seconds and the bank left, due at ``deadline``; inside a call
    window its seconds are the window's and no bank can be spent (``"window": true``)."""
    if prompt.window:
        return {"move": table.clock.get("call", 0.0), "bank": 0, "deadline": round(deadline, 3), "window": True}
    return {"move": table.clock["move"], "bank": round(prompt.bank / 1000, 1), "deadline": round(deadline, 3)}


def join(conn: Connection) -> None:
    """A connection joins its table: hello, then the view (and the open prompt), then who is here;
    from now on it is told every change."""
    table = conn.table
    if isinstance(conn, PageConnection):
        conn.hello()
    if conn.seat is not None:
        table.connected[conn.seat] += 1
        if table.tables.shared is not None:  # the other processes learn who is here (web/shared.py)
            table.tables.shared.presence(table)
    else:
        table.watchers += 1
    table.listeners.add(conn)
    conn.update(table)
    _presence(table)
    table.presence_changed()


def leave(conn: Connection) -> None:
    table = conn.table  # another object now if this process took the table over (web/shared.py)
    table.listeners.discard(conn)
    if conn.seat is not None:
        table.connected[conn.seat] -= 1
        if table.tables.shared is not None:
            table.tables.shared.presence(table)
    else:
        table.watchers -= 1
    _presence(table)
    table.presence_changed()


def _error(role: str, code: str, message: str | Message) -> Any:
    """A refusal: to a bot (mjai) in English, the dialect's language; to a page in the words of its
    connection (the language its handshake asked for: web/i18n.py), with the code beside them."""
    if role == "mjai":
        return [{"type": "error", "message": message.text("en") if isinstance(message, Message) else message}]
    return {"type": "error", "code": code, "message": message.text() if isinstance(message, Message) else message}


def _too_large(conn: Connection) -> None:
    why = sentence("a message may be at most {n} bytes", n=MAX_FRAME)
    if isinstance(conn, MjaiConnection):  # it was meant as an answer: the bot is asked again, never left waiting
        conn.refused(why.text("en"))
    else:
        conn.send(_error("play", "too_large", why))


def _presence(table: Table) -> None:
    for c in list(table.listeners):
        if isinstance(c, Connection):
            c.presence(table)


async def _refuse(ws: WebSocket, role: str, code: str, message: str | Message, close_code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(_dump(_error(role, code, message)))
        await ws.close(close_code)


__all__ = ["MjaiConnection", "PageConnection", "join", "leave", "serve_socket"]
