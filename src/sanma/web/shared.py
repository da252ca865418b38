"""Several ``sanma serve`` processes on one PostgreSQL database (issue 22; the contract is the
shared ARCHITECTURE.md's "Several server processes").

**Who runs a table.** Every process has a key, held as an advisory lock for as long as it lives
(:mod:`sanma.store.lock`); ``web_tables.runner`` names the process that runs a table — the only
one that decides for it: it applies actions, plays its bots, keeps its clocks. A table is run by
the process that made it. Once a second each process looks for tables whose runner's lock is gone
(the process ended, ``kill -9`` included) and takes them over with a compare-and-set on
``runner`` (one process wins): it rebuilds the game from the stored actions and takes up the
stored schedule, so every clock, call window and pause goes on with its deadline in milliseconds.

**Writes.** A transition of a table (an action, a released hold, a toggle, a dismissed result,
a timer) is one write: the actions with their next indexes, their events with theirs, the
schedule, and a notification — in one transaction, and only while ``runner`` is still this
process (the write is fenced by it). An index is stored once (the primary keys), so no action or
event is ever doubled, even by a process that lost its table without knowing.

**Everyone else.** A process with a connection on a table it does not run keeps a
:class:`FollowedTable`: the same game, advanced by the runner's notifications (each carries its
steps and the schedule; a gap is read again from the database), so it sends each of its
connections that connection's own view, as the runner would. It listens on the table's own channel
(``store.tables.table_channel``: moves, its end, takeovers, who is at it) only while it follows the
table; the runner hears what concerns it on its own channel. Once it listens there, it counts
itself on the table's row (``store.tables.follow``), then reads the table again: the runner
notifies a move only while some process counts itself so — a notification costs PostgreSQL a signal
to every listening session and its one lock on the notification queue, at every move — and the
row orders the count and the moves (a move stored before the count is in that reading). So a
process is woken only by what concerns the tables it serves, never by its own moves. What a seat
sends there — an action, a toggle, a dismissed result — goes to the runner as a notification on the
runner's own channel, naming the prompt it answers; the runner applies it only while that prompt
is open, so a request sent twice, or again after a takeover, is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
from collections.abc import Mapping
from typing import Any

from ..game.actions import Action
from ..i18n import sentence
from ..store import StoreError
from ..store import tables as stored
from ..store.lock import ServerLock
from ..store.notify import MAX_PAYLOAD, Listener, notify
from ..tiles import SEATS
from .scheduler import Schedule
from .tables import Done, Table, TableError, Tables, not_stored

log = logging.getLogger("sanma.web")
_compact = json.JSONEncoder(separators=(",", ":")).encode  # (json.dumps with separators makes one per call)

SWEEP_SECONDS = 1.0  # how often a process looks for tables whose runner is gone


def _presence_stored(table_id: str, answer: int | StoreError) -> None:
    if isinstance(answer, StoreError):
        log.warning("table %s: presence not stored: %s", table_id, answer)


def node_channel(node: int) -> str:
    """The channel of the requests to the process ``node``."""
    return f"sanma_node_{node}"


class FollowedTable(Table):
    """A table that another process runs, as this process's connections see it: the runner's
    steps applied to the same game; what a seat asks for is sent to the runner."""

    def start(self) -> None:  # the runner keeps the clocks
        return None

    def tick(self) -> None:
        return None

    def _arm(self, now: int, retry: int | None = None) -> None:
        return None

    def _settle(self, now: int, done: Done | None = None) -> None:  # the runner stores and tells
        return None

    def presence_changed(self) -> None:  # the runner keeps the abandon timer (told by web_presence)
        return None

    # (a request is sent at once or refused, TableError; ``done`` hears that it was sent)
    def act(self, seat: int, action: Action, how: str = "seat", done: Done | None = None) -> None:
        p = self.schedule.prompts[seat]
        legal = self.prompt_legal[seat]
        if p is None or not legal:
            raise TableError(sentence("seat {seat} has nothing to decide now", code="not_your_turn", seat=seat))
        idx = next(i for i, a in enumerate(legal) if a is action or a == action)
        self.tables.shared.request(self, {"k": "act", "s": seat, "p": p.number, "i": idx})  # type: ignore[union-attr]
        if done is not None:
            done(None)

    def set_toggle(self, seat: int, name: str, value: bool, done: Done | None = None) -> None:
        self.tables.shared.request(self, {"k": "toggle", "s": seat, "n": name, "v": value})  # type: ignore[union-attr]
        self.toggles[seat][name] = value  # as the runner will store it (once sent)
        if done is not None:
            done(None)

    def dismiss(self, seat: int, done: Done | None = None) -> None:
        self.tables.shared.request(self, {"k": "dismiss", "s": seat})  # type: ignore[union-attr]
        if done is not None:
            done(None)

    def follow(self, note: Mapping[str, Any]) -> bool:
        """Apply the runner's notification; False when it does not follow on from this state
        (a notification was missed: read again from the database)."""
        g = self.game
        if note.get("a0") != self.actions or note.get("e0") != len(g.events) or "steps" not in note:
            return False
        for i, step in enumerate(note["steps"]):
            if step is None:
                if i and g.held == "window":  # released in the runner's write: its discard is told alone first
                    self._sync(self.time.now())
                    self._notify()
                n0 = len(g.events)
                g.release()
                self._changed(n0, None, store=False)
            else:
                seat, idx = int(step[0]), int(step[1])
                legal = g.legal_actions(seat)
                if not 0 <= idx < len(legal):
                    return False
                n0 = len(g.events)
                g.apply(legal[idx])
                self.actions += 1
                self.answered[seat] = True
                self._changed(n0, None, store=False)
        if note.get("a") != self.actions or note.get("e") != len(g.events):
            return False
        self._take(note)
        return True

    def _take(self, note: Mapping[str, Any]) -> None:
        if "tg" in note:
            self.toggles = [dict(t) for t in note["tg"]]
        if "b" in note:
            self.banks = [round(float(b) * 1000) for b in note["b"]]
        if note.get("sch") is not None:
            self.restore(Schedule.from_json(note["sch"]))
        self.runner = note.get("r", self.runner)

    def told(self) -> None:
        """Tell this process's connections what changed."""
        self._notify()


class Shared:
    """This process's part in serving one PostgreSQL database with others (see the module's doc)."""

    def __init__(self, tables: Tables, url: str, node: int, lock: ServerLock | None = None) -> None:
        self.tables = tables
        self.url = url
        self.node = node
        self.lock = lock  # this process's key: held again at each sweep if PostgreSQL dropped it
        self.followed: dict[str, FollowedTable] = {}
        self.pending: dict[str, dict[int, dict[str, Any]]] = {}  # requests sent, per table and seat
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: Listener | None = None
        self.sweeper: asyncio.Task[None] | None = None
        self.live: set[int] = set()  # the live processes at the last sweep
        self.counted: set[str] = set()  # the followed tables this process counts itself a follower of
        tables.shared = self

    # -- start and stop ----------------------------------------------------------------------
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.listener = Listener(self.url, [node_channel(self.node)], self._heard, self._gap,
                                 skip=self._own)
        await asyncio.to_thread(self.listener.start)
        self.sweep()  # the tables nobody runs (a first start; processes that ended)
        self.sweeper = self.loop.create_task(self._sweeping())

    async def stop(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        for table_id in list(self.followed):  # (no longer counted as their follower)
            t = self._unfollow(table_id)
            if t is not None:
                t.close()
        if self.listener is not None:
            await asyncio.to_thread(self.listener.stop)

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS * random.uniform(0.7, 1.0))
            try:
                self.sweep()
            except StoreError as e:  # the database is away: try again at the next sweep
                log.warning("sweep: %s", e)

    def sweep(self) -> int:
        """Take over the tables whose runner is gone, this process's share of them (the live
        processes split them; what is left is taken at the next sweep); how many were taken. When
        the set of live processes changed, who is here is read again (a process that died had
        connections too)."""
        if self.lock is not None and not self.lock.keep():  # (else the others take this one's tables)
            log.warning("this process's key %s is not held now: tried again at the next sweep", self.node)
        live = stored.live_nodes(self.tables.store)
        if live != self.live:
            self.live = live
            from .ws import _presence

            for table in [*self.tables.running.values(), *self.followed.values()]:
                self._remote(table, live)
                _presence(table)
                table.presence_changed()  # a runner's abandon timer counts the other processes' people
        for table_id, t in list(self.followed.items()):
            if not t.listeners:  # nobody here watches it any more (an API call made it): made again on demand
                self._unfollow(table_id)
                t.close()
        # a followed table not counted: its count failed (or its LISTEN is on its way — counting first
        # is as safe: it is read again once listened to, _caught_up)
        for table_id in [t for t in self.followed if t not in self.counted]:
            self._caught_up(table_id)
        taken = 0
        orphans = [(t, r) for t, r in stored.orphans(self.tables.store) if t not in self.tables.running]
        share = -(-len(orphans) // max(1, len(live)))  # this process's share: the others take theirs
        for table_id, previous in orphans:
            if taken >= share:
                break
            note = json.dumps({"t": table_id, "r": self.node, "claim": True})
            if not stored.claim(self.tables.store, table_id, self.node, previous, note):
                continue  # another process was first
            pending = self.pending.get(table_id, {})
            old = self._unfollow(table_id)
            loaded = self.tables.load_or_report(table_id)
            if loaded is None:  # cannot be rebuilt: reported as broken (its pages are told why)
                if old is not None:
                    old.close()
                continue
            table = loaded
            if old is not None:  # its connections go on with the running table
                table.listeners |= old.listeners
                table.connected = old.connected
                table.watchers = old.watchers
                table.remote = old.remote
                old.close()
                for conn in old.listeners:
                    if hasattr(conn, "table"):
                        conn.table = table
                for payload in pending.values():
                    self._request(payload)  # sent to the runner that died: this process is the runner now
                if not table.later(table._notify):  # told once its first write is stored
                    table._notify()
            self._remote(table)
            taken += 1
            log.info("took over table %s from process %s", table_id, previous)
        return taken

    # -- the runner's side ---------------------------------------------------------------------
    def notice(self, table: Table, first: int, changed: Mapping[str, str]) -> str:
        """The notification of one stored transition: its steps, so that followers apply them."""
        steps = [None if a is None else [a[0], a[1]] for a in table.pending]
        n = sum(1 for a in table.pending if a is not None)
        note: dict[str, Any] = {"t": table.id, "r": self.node, "a0": table.actions - n, "e0": first,
                                "a": table.actions, "e": len(table.game.events), "steps": steps}
        if "toggles" in changed:
            note["tg"] = table.toggles
        # the schedule and the banks as the write stores them: their JSON is made once, not twice
        sch = changed.get("schedule") or table.schedule.text()
        text = _compact(note)[:-1] + ',"sch":' + sch + \
            (',"b":' + changed["banks"] if "banks" in changed else "") + "}"
        if len(text.encode()) > MAX_PAYLOAD:  # too long to carry: the followers read the database
            text = json.dumps({"t": table.id, "r": self.node, "a": table.actions, "e": len(table.game.events)})
        return text

    def lost(self, table: Table) -> None:
        """The table's write was refused: another process runs it now. Its connections follow it."""
        log.warning("table %s is run by another process now", table.id)
        self.tables.running.pop(table.id, None)
        table.close()
        self._refollow(table)

    def _refollow(self, old: Table) -> None:
        if not old.listeners:
            return
        try:
            new = self.follow(old.id)
        except TableError:
            return
        new.listeners |= old.listeners
        new.connected = old.connected
        new.watchers = old.watchers
        for conn in old.listeners:
            if hasattr(conn, "table"):
                conn.table = new
        new.told()

    def _request(self, payload: Mapping[str, Any]) -> None:
        """A seat's request from another process, for a table this process runs."""
        table = self.tables.running.get(str(payload.get("t")))
        seat = payload.get("s")
        if table is None or not isinstance(seat, int) or not 0 <= seat < SEATS or table.finished:
            return
        if table.later(functools.partial(self._request, payload)):  # read once its write is stored and told
            return
        kind = payload.get("k")
        try:
            if kind == "act":
                p = table.prompt(seat)
                legal = table.prompt_legal[seat]
                idx = payload.get("i")
                if p is None or p.number != payload.get("p") or not isinstance(idx, int) or not 0 <= idx < len(legal):
                    return  # answered already (a request sent twice, or again after a takeover), or stale
                table.act(seat, legal[idx], "seat")
            elif kind == "toggle" and isinstance(payload.get("v"), bool):
                from .tables import TOGGLE_NAMES

                if payload.get("n") in TOGGLE_NAMES:
                    table.set_toggle(seat, str(payload["n"]), bool(payload["v"]))
            elif kind == "dismiss":
                table.dismiss(seat)
        except (TableError, StoreError) as e:
            log.warning("table %s: a request from another process failed: %s", table.id, e)

    # -- a follower's side -----------------------------------------------------------------------
    def follow(self, table_id: str) -> FollowedTable:
        """The followed table (made from the store on first use)."""
        t = self.followed.get(table_id)
        if t is None:
            built = self.tables.rebuild(table_id, follow=True)
            assert isinstance(built, FollowedTable)
            t = built
            if not t.finished:
                self.followed[table_id] = t
                if self.listener is not None:  # what was stored before PostgreSQL listens for us is read again then
                    self.listener.listen(stored.table_channel(table_id), functools.partial(self._listening, table_id))
                self._remote(t)
        return t

    def _listening(self, table_id: str) -> None:
        """In the listener's thread: the table's channel is listened to now."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._caught_up, table_id)

    def _caught_up(self, table_id: str) -> None:
        """Listened to: counted as a follower, so the runner notifies its moves from now on; what it
        stored before (between reading the table and the count: nothing, mostly) is read from the
        database and told."""
        t = self.followed.get(table_id)
        if t is None:
            return
        if table_id not in self.counted:
            try:
                stored.follow(self.tables.store, table_id, True)
            except StoreError as e:  # its moves are not notified: counted at the next sweep
                log.warning("table %s: not counted as followed here: %s", table_id, e)
                return
            self.counted.add(table_id)
        before = (t.actions, len(t.game.events), t.runner)
        try:
            self._reread(t)
        except StoreError as e:
            log.warning("table %s could not be read again: %s", table_id, e)
            return
        if (t.actions, len(t.game.events), t.runner) != before:
            self._resend(t, send=t.runner != before[2])
            t.told()

    def _unfollow(self, table_id: str) -> FollowedTable | None:
        """No longer followed here: its channel is not listened to, its requests are forgotten."""
        t = self.followed.pop(table_id, None)
        self.pending.pop(table_id, None)
        if t is not None and self.listener is not None:
            self.listener.unlisten(stored.table_channel(table_id))
        if table_id in self.counted:
            self.counted.discard(table_id)
            try:
                stored.follow(self.tables.store, table_id, False)
            except StoreError as e:  # counted still: its moves are notified for nobody, never missed
                log.warning("table %s: still counted as followed here: %s", table_id, e)
        return t

    def request(self, table: FollowedTable, payload: dict[str, Any]) -> None:
        """Send a seat's request to the table's runner (again after a takeover, until it is applied)."""
        payload = {"t": table.id, **payload}
        if table.runner is not None:
            try:
                notify(self.tables.store, node_channel(table.runner), _compact(payload))
            except StoreError as e:  # not sent (a busy database: a commit's WAL flush holds the notification lock
                # longer than a server waits): refused as a move that could not be stored is — asked again
                log.warning("table %s: a request could not be sent: %s", table.id, e)
                raise not_stored() from None
        if payload["k"] == "act":
            self.pending.setdefault(table.id, {})[int(payload["s"])] = payload

    def _resend(self, table: FollowedTable, *, send: bool) -> None:
        """Forget the requests that were applied (their prompt closed); ``send``: send the others
        again (a new runner took the table over: the old one may have died with them)."""
        for seat, payload in list(self.pending.get(table.id, {}).items()):
            p = table.prompt(seat)
            if p is None or p.number != payload["p"]:
                del self.pending[table.id][seat]
            elif send and table.runner is not None:
                notify(self.tables.store, node_channel(table.runner), _compact(payload))

    def _changed(self, note: Mapping[str, Any]) -> None:
        table_id = str(note.get("t"))
        t = self.followed.get(table_id)
        if t is None or (note.get("r") == self.node and table_id in self.tables.running):
            return
        before = t.runner
        if note.get("abandoned"):
            t.abandoned = True  # its pages are told (ws: "abandoned")
        elif note.get("claim") or not t.follow(note):
            self._reread(t)
        self._resend(t, send=t.runner != before)
        if t.finished or t.abandoned:
            self._unfollow(table_id)
        t.told()

    def _reread(self, t: FollowedTable) -> None:
        """Catch a followed table up from the database (a notification was missed or too long)."""
        state = stored.shared(self.tables.store, t.id, t.actions)
        if state is None:
            return
        g = t.game
        for a in state.actions:
            while g.held:
                t._release_quiet()
            t._apply(a.seat, a.legal_idx, a.how, store=False)
        while g.held and len(g.events) < state.events:
            t._release_quiet()
        t.toggles = [dict(x) for x in state.toggles]
        t.banks = [round(b * 1000) for b in state.banks]
        t.runner = state.runner
        t.abandoned = state.finished and not g.done
        if state.schedule is not None and not g.done and not t.abandoned:
            t.restore(Schedule.from_json(json.loads(state.schedule)))

    # -- who is here ---------------------------------------------------------------------------------
    def presence(self, table: Table) -> None:
        """This process's connections on the table changed: stored, and told to the others (its
        runner, on its channel, and those that follow it, on the table's)."""
        note = json.dumps({"t": table.id, "r": self.node, "presence": True})
        channels = [stored.table_channel(table.id)]
        if table.runner is not None and table.runner != self.node:
            channels.append(node_channel(table.runner))
        writer = self.tables.writer
        try:
            if writer is not None:  # behind the moves: the loop does not wait for it
                writer.presence(table.id, self.node, table.connected, note, channels,
                                functools.partial(_presence_stored, table.id))
            else:
                stored.set_presence(self.tables.store, table.id, self.node, table.connected, note, channels)
        except StoreError as e:
            _presence_stored(table.id, e)

    def _remote(self, table: Table, live: set[int] | None = None) -> None:
        """The other live processes' connections on the table, from the store."""
        nodes = (live if live is not None else stored.live_nodes(self.tables.store)) - {self.node}
        counts = stored.presence(self.tables.store, table.id, nodes)
        table.remote = [sum(c[s] for c in counts.values()) for s in range(SEATS)]

    def _presence_heard(self, note: Mapping[str, Any]) -> None:
        table_id = str(note.get("t"))
        if note.get("r") == self.node:
            return
        table = self.tables.running.get(table_id) or self.followed.get(table_id)
        if table is None:
            return
        self._remote(table)
        from .ws import _presence

        _presence(table)
        table.presence_changed()

    # -- notifications ---------------------------------------------------------------------------
    def _own(self, channel: str, pid: int) -> bool:
        """In the listener's thread: a change this process stored itself (sent by its store's
        session, or its moves' writer's), dropped there: it ran the table, so it holds every step
        already; what it would do with it is nothing (``_changed``, ``_presence_heard``: the notes of
        this process). What comes on this process's own channel is always heard."""
        if channel == node_channel(self.node):
            return False
        writer = self.tables.writer
        return pid == self.tables.store.conn.session_pid or (writer is not None and writer.sent_by(pid))

    def _heard(self, channel: str, payload: str) -> None:
        """In the listener's thread: hand the notification to the loop."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._dispatch, channel, payload)

    def _gap(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._catch_up)

    def _catch_up(self) -> None:
        for t in list(self.followed.values()):
            self._reread(t)
            t.told()

    def _dispatch(self, channel: str, payload: str) -> None:
        try:
            note = json.loads(payload)
        except ValueError:
            return
        if not isinstance(note, dict):
            return
        try:
            if note.get("presence"):
                self._presence_heard(note)
            elif channel == node_channel(self.node):
                self._request(note)
            else:
                self._changed(note)
        except StoreError as e:
            log.warning("a notification could not be handled: %s", e)
