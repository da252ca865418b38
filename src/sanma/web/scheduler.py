"""The table scheduler: every timer of a served table, as plain data on one injected clock.

A served table waits for time in five ways, and this module is the one home of all of them:

* a seat's **move clock and bank** (a person's or an external bot's decision runs out: the server
  plays its fallback);
* the **call window** after every discard (and kan, kita) at a table with a person: its length is
  the same whoever could call, so that nobody reads a pause (issue 23);
* the **result pause** between hands: the next hand is dealt when every person at the table has
  dismissed the hand's result or the pause has passed (issue 18);
* a built-in bot's **think time** on its turn (issue 18);
* the end of an abandoned table: every person and external bot away ``abandon_after``
  (``Schedule.away``; the limit is the server's, ``web/limits.py``).

Every pending timer is a value with an absolute time in **milliseconds since the epoch**
(:class:`Prompt`, :class:`Schedule`, :class:`Timer`), so a table's whole schedule is plain data
(``Schedule.to_json``) that a store can keep and another process can take over, recomputing every
deadline exactly. Time comes from a :class:`Clock`: :class:`SystemClock` on the server,
:class:`ManualClock` in tests, which compute the send schedule from public events instead of
waiting on wall time.

>>> pace = Pace.of({"move": 15, "bank": 60, "call": 2, "think": 1, "result": 8})
>>> open_prompt(pace, seat=0, number=1, now=1_000, bank=60_000, bot=False, window=None).due
76000
>>> open_prompt(pace, seat=1, number=4, now=1_000, bank=0, bot=True, window=None).due
2000
>>> open_prompt(pace, seat=2, number=2, now=1_000, bank=60_000, bot=False, window=3_000).due
3000
>>> bank_left(pace, open_prompt(pace, seat=0, number=1, now=0, bank=60_000, bot=False, window=None), 20_000)
55000
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii
from typing import Any, Protocol

from ..tiles import SEATS

_string = encode_basestring_ascii  # a JSON string as json.dumps writes it

#: The ``clock`` setting of a table (``POST /api/tables``), in seconds, and its defaults. ``move`` /
#: ``bank``: each decision's seconds and the seat's time bank (``move`` 0: no clock); ``call``: the
#: call window after every discard, kan and kita (0: none — the window closes when every seat asked
#: has answered, so its length tells that a seat was asked); ``think``: a built-in bot's time on its
#: turn; ``result``: the longest pause between hands (the next deal comes sooner when every person
#: at the table has dismissed the result).
DEFAULT_CLOCK: dict[str, float] = {"move": 15.0, "bank": 60.0, "call": 0.0, "think": 0.0, "result": 0.0}

#: The call window of a table where a person sits, unless its ``clock`` says otherwise (seconds):
#: long enough to answer "pon?" with a tap, short enough for ~50 discards a hand.
CALL_WINDOW = 2.0
#: A built-in bot's think time on its turn at a table where a person sits (seconds): its discard is
#: seen coming, as a person's is (issue 18: the bots moved 43 ms after their draw).
THINK = 0.8
#: The longest pause after a hand's end at a table where a person sits (seconds): time to read the
#: result card; the next deal comes as soon as every person has dismissed it (issue 18).
RESULT_PAUSE = 8.0


def default_clock(person: bool) -> dict[str, float]:
    """The ``clock`` of a table whose settings name none of its times; ``person``: a person sits
    there, and the call window is on (issue 23: the same window after every discard, whoever could
    call, so that no seat reads from a pause that another was asked), the bots take their think time
    and each hand's result waits to be read (issue 18). A table of bots waits for nothing."""
    if not person:
        return dict(DEFAULT_CLOCK)
    return {**DEFAULT_CLOCK, "call": CALL_WINDOW, "think": THINK, "result": RESULT_PAUSE}


@dataclass(frozen=True, slots=True)
class Pace:
    """A table's times in milliseconds (its ``clock`` setting is in seconds)."""

    move: int
    bank: int
    call: int
    think: int
    result: int

    @staticmethod
    def of(clock: Mapping[str, float]) -> Pace:
        """The pace of a ``clock`` setting (seconds; missing keys take :data:`DEFAULT_CLOCK`)."""
        full = {**DEFAULT_CLOCK, **clock}
        ms = {k: round(float(full[k]) * 1000) for k in DEFAULT_CLOCK}
        return Pace(ms["move"], ms["bank"] if ms["move"] > 0 else 0, ms["call"], ms["think"], ms["result"])


@dataclass(frozen=True, slots=True)
class Prompt:
    """One seat's open decision. ``number`` is the seat's own prompt id (1, 2, ... per seat: it
    counts nothing of the other seats); ``opened`` is when it was sent, which is when the seat's
    clock starts; ``due`` is when the clock plays the seat's fallback (a person, an external bot),
    when a built-in bot decides (its think time), or None without a clock. A decision inside a
    call window (``window``) is due when the window closes and spends no bank."""

    seat: int
    number: int
    opened: int
    bank: int
    due: int | None
    window: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "number": self.number, "opened": self.opened, "bank": self.bank,
                "due": self.due, "window": self.window}

    def text(self) -> str:
        """:meth:`to_json` as compact JSON text, made directly (``Schedule.text``)."""
        return (f'{{"seat":{self.seat},"number":{self.number},"opened":{self.opened},"bank":{self.bank},'
                f'"due":{_num(self.due)},"window":{"true" if self.window else "false"}}}')

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> Prompt:
        return Prompt(int(d["seat"]), int(d["number"]), int(d["opened"]), int(d["bank"]),
                      None if d["due"] is None else int(d["due"]), bool(d["window"]))


@dataclass(frozen=True, slots=True)
class Timer:
    """A pending timer: at ``at`` (ms since the epoch), ``kind`` of ``seat`` (None: the table's).
    Kinds: ``window`` (the call window closes), ``pause`` (the result pause ends), ``clock`` (a
    seat's decision runs out), ``think`` (a built-in bot decides), ``abandon`` (the table ends:
    everybody who plays from outside has been away too long)."""

    at: int
    kind: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Schedule:
    """Everything a table is waiting for, as data. ``prompts``: each seat's open decision (None:
    none); ``numbers``: each seat's last prompt id; ``window``: when the open call window closes;
    ``answers``: ``(seat, action index, how)`` given inside the window, applied when it closes;
    ``pause``: when the pause after a hand ends; ``ready``: the seats that dismissed that hand's
    result; ``away``: since when nobody who must play from outside (a person, an external bot)
    has been connected (the table is abandoned ``abandon_after`` later)."""

    prompts: tuple[Prompt | None, ...] = (None,) * SEATS
    numbers: tuple[int, ...] = (0,) * SEATS
    window: int | None = None
    answers: tuple[tuple[int, int, str], ...] = ()
    pause: int | None = None
    ready: frozenset[int] = field(default_factory=frozenset)
    away: int | None = None  # since when every person (and external bot) of the table has been away

    def timers(self, bots: frozenset[int] = frozenset(), abandon_after: int | None = None) -> list[Timer]:
        """The pending timers, earliest first (``bots``: the seats of built-in bots, whose prompts
        are think time rather than a clock; ``abandon_after``: ms, the ``abandon`` timer)."""
        out: list[Timer] = []
        if self.away is not None and abandon_after is not None:
            out.append(Timer(self.away + abandon_after, "abandon"))
        if self.window is not None:
            out.append(Timer(self.window, "window"))
        if self.pause is not None:
            out.append(Timer(self.pause, "pause"))
        for p in self.prompts:
            if p is not None and p.due is not None and not p.window:
                out.append(Timer(p.due, "think" if p.seat in bots else "clock", p.seat))
        return sorted(out, key=lambda t: (t.at, t.seat if t.seat is not None else -1))

    def answered(self, seat: int) -> bool:
        return any(s == seat for s, _, _ in self.answers)

    def to_json(self) -> dict[str, Any]:
        return {"prompts": [None if p is None else p.to_json() for p in self.prompts],
                "numbers": list(self.numbers), "window": self.window,
                "answers": [list(a) for a in self.answers], "pause": self.pause, "ready": sorted(self.ready),
                "away": self.away}

    def text(self) -> str:
        """The compact JSON text of :meth:`to_json` (``json.dumps(s.to_json(), separators=(",", ":"))``,
        the same characters), made directly: the text a table stores and notifies at every move of
        several processes' tables, where ``json.dumps`` of the dicts was most of a write's encoding
        (issue 22)."""
        prompts = ",".join("null" if p is None else p.text() for p in self.prompts)
        answers = ",".join(f"[{s},{i},{_string(h)}]" for s, i, h in self.answers)
        return (f'{{"prompts":[{prompts}],"numbers":[{",".join(map(str, self.numbers))}],'
                f'"window":{_num(self.window)},"answers":[{answers}],"pause":{_num(self.pause)},'
                f'"ready":[{",".join(map(str, sorted(self.ready)))}],"away":{_num(self.away)}}}')

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> Schedule:
        return Schedule(tuple(None if p is None else Prompt.from_json(p) for p in d["prompts"]),
                        tuple(int(n) for n in d["numbers"]), d["window"],
                        tuple((int(s), int(i), str(h)) for s, i, h in d["answers"]), d["pause"],
                        frozenset(int(s) for s in d["ready"]), d.get("away"))


def _num(n: int | None) -> str:
    return "null" if n is None else str(n)


def open_prompt(pace: Pace, *, seat: int, number: int, now: int, bank: int, bot: bool,
                window: int | None, call: bool = False) -> Prompt:
    """A decision sent to ``seat`` at ``now``. ``window``: when the open call window closes (a
    decision on a call there is due then, for a bot too); else a bot decides after its think time
    on its turn and at once on a ``call``, and a person or an external bot has the move's seconds
    and its bank."""
    if window is not None:
        return Prompt(seat, number, now, bank, window, True)
    if bot:
        return Prompt(seat, number, now, bank, now if call else now + pace.think)
    if pace.move <= 0:
        return Prompt(seat, number, now, bank, None)
    return Prompt(seat, number, now, bank, now + pace.move + bank)


def bank_left(pace: Pace, prompt: Prompt, now: int) -> int:
    """The seat's bank after answering ``prompt`` at ``now``: what it took beyond the move's
    seconds is spent (nothing inside a call window)."""
    if prompt.window or pace.move <= 0:
        return prompt.bank
    return max(0, prompt.bank - max(0, now - prompt.opened - pace.move))


# --------------------------------------------------------------------------------------------
# Clocks
# --------------------------------------------------------------------------------------------


class Wakeup(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Where a table's time comes from: ``now()`` in ms since the epoch, and ``call_at`` to be
    woken at (or after) a time."""

    def now(self) -> int: ...

    def call_at(self, at: int, fn: Callable[[], None]) -> Wakeup: ...


class SystemClock:
    """Wall time (storable, the same in every process) and wakeups on the running asyncio loop;
    ``call_at`` raises ``RuntimeError`` off the loop."""

    def now(self) -> int:
        return time.time_ns() // 1_000_000

    def call_at(self, at: int, fn: Callable[[], None]) -> Wakeup:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0, at - self.now()) / 1000, fn)


class _Manual:
    __slots__ = ("at", "cancelled", "fn", "order")

    def __init__(self, at: int, order: int, fn: Callable[[], None]) -> None:
        self.at, self.order, self.fn, self.cancelled = at, order, fn, False

    def __lt__(self, other: _Manual) -> bool:
        return (self.at, self.order) < (other.at, other.order)

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told (tests): ``advance(ms)`` runs every wakeup due by then, in
    time order, each at its own time. A wakeup asked from an asyncio loop (a served app) runs on
    that loop's thread, and ``advance`` from another thread waits until they have run."""

    def __init__(self, start: int = 1_700_000_000_000) -> None:
        self.t = start
        self._heap: list[_Manual] = []
        self._order = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.RLock()

    def now(self) -> int:
        return self.t

    def call_at(self, at: int, fn: Callable[[], None]) -> Wakeup:
        with self._lock:
            if self._loop is None:
                with contextlib.suppress(RuntimeError):  # off a loop: wakeups run in advance()'s thread
                    self._loop = asyncio.get_running_loop()
            self._order += 1
            w = _Manual(at, self._order, fn)
            heapq.heappush(self._heap, w)
            return w

    def next_at(self) -> int | None:
        """When the earliest pending wakeup is due (None: nothing pending)."""
        with self._lock:
            while self._heap and self._heap[0].cancelled:
                heapq.heappop(self._heap)
            return self._heap[0].at if self._heap else None

    def advance(self, ms: int = 0) -> None:
        """Move time ``ms`` on, running everything due on the way (``advance()`` runs what is due now)."""
        loop = self._loop
        if loop is not None and loop.is_running() and not self._on(loop):
            done = threading.Event()

            def run() -> None:
                try:
                    self._advance(ms)
                finally:
                    done.set()

            loop.call_soon_threadsafe(run)
            if not done.wait(60):  # pragma: no cover - a stuck loop fails the test, never hangs it
                raise TimeoutError("the served app's loop did not run the clock's wakeups")
            return
        self._advance(ms)

    def _advance(self, ms: int) -> None:
        target = self.t + ms
        while True:
            with self._lock:
                while self._heap and self._heap[0].cancelled:
                    heapq.heappop(self._heap)
                if not self._heap or self._heap[0].at > target:
                    break
                w = heapq.heappop(self._heap)
                self.t = max(self.t, w.at)
            w.fn()
        self.t = max(self.t, target)

    @staticmethod
    def _on(loop: asyncio.AbstractEventLoop) -> bool:
        try:
            return asyncio.get_running_loop() is loop
        except RuntimeError:
            return False


__all__ = ["CALL_WINDOW", "DEFAULT_CLOCK", "RESULT_PAUSE", "THINK", "Clock", "ManualClock", "Pace", "Prompt",
           "Schedule", "SystemClock", "Timer", "bank_left", "default_clock", "open_prompt"]
