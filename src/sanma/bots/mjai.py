"""``mjai:COMMAND``: an external program that speaks mjai over stdin/stdout sits at the table.

The protocol is the one mjai.app and Mortal-style bots use. sanma starts ``COMMAND`` (split like a
shell would, no shell involved) when the seat first has to decide, and for every decision writes
**one line**: a JSON array of the events this seat has not seen yet (other seats' tiles hidden as
``"?"``), then reads **one line**: one JSON action, e.g. ``{"type":"dahai","actor":1,"pai":"9p",
"tsumogiri":true}`` or ``{"type":"none"}``. The first batch opens with ``start_game`` carrying
``"id"``, the seat. When the game ends the last events (``end_kyoku``, ``end_game``) are sent
too, the answer is not waited for long, stdin is closed and the process (and its process group)
is ended: one process per game and seat, never left behind.

sanma's extensions (the ones the ecosystem uses for three players):

- three seats: ``scores``, ``tehais`` and ``deltas`` have three entries; ``start_game`` names the
  rule set (``"rules"``);
- ``{"type":"kita","actor":i,"pai":"N"}`` is both an event and an action (North set aside);
- ``{"type":"flower","actor":i,"pai":"1f"}`` events (kansai walls), followed by a replacement tsumo;
- the last event of every batch carries ``"possible_actions"``: the seat's legal actions in mjai
  form, so a simple bot need not re-implement the rules (bots that ignore it lose nothing).

Riichi works in both forms: the mjai.app two-step form (answer ``{"type":"reach","actor":i}``,
sanma sends ``[{"type":"reach","actor":i}]`` and reads the discard) and sanma's one-step form
(``{"type":"reach","actor":i,"pai":"3s"}``, as listed in ``possible_actions``).

Nothing the program does can hang or crash a game. An answer that is not JSON, nested more than
``MAX_DEPTH`` deep (never parsed), not an action or not legal makes that decision fall back to
tsumogiri (pass, or discard the drawn tile); no answer within ``timeout`` seconds
(``startup_timeout`` for the first one, which includes start-up and model loading; both at most
``MAX_TIMEOUT``), more than ``budget`` seconds of thinking over the game, an over-long line,
more than ``MAX_STDERR`` bytes on stderr (drained by a thread, only its tail kept) or an exit
ends the process and the seat plays tsumogiri for the rest of the game. Ending it kills its
process group and every descendant, also one that left the group with ``setsid()`` (found by
parent links and by a per-process secret in its environment, ``SANMA_MJAI_SESSION``).
Each such incident is logged on the ``sanma.bots.mjai`` logger,
kept in ``incidents`` (with the tail of the program's stderr when it stopped; the first
``MAX_LOGGED`` of a game, the rest only counted in ``incident_count``) and counted by the
simulator; ``fallbacks`` counts the decisions sanma took for the seat.

>>> bot = MjaiBot("python examples/mjai_bot.py")
>>> bot.name, bot.argv
('mjai:python examples/mjai_bot.py', ('python', 'examples/mjai_bot.py'))
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import secrets
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

from ..errors import SanmaError
from ..game.actions import Action
from ..game.view import SeatView
from ..i18n import Message, sentence
from ..rules.schema import Rules
from ..tiles import Tile
from .base import Bot

log = logging.getLogger("sanma.bots.mjai")

PREFIX = "mjai:"
DEFAULT_TIMEOUT = 5.0  # seconds per decision
DEFAULT_STARTUP_TIMEOUT = 30.0  # the first answer includes start-up (a model may have to load)
MAX_TIMEOUT = 3600.0  # the longest --mjai-timeout: a finite wait (``inf`` would overflow the thread wait)
DEFAULT_GAME_BUDGET = 180.0  # seconds a program may spend thinking over a whole game (all its answers)
MAX_LINE = 1 << 20  # an answer longer than this is garbage, and the rest of it would desynchronise
MAX_DEPTH = 16  # an mjai action nests 3 deep; an answer nested deeper is garbage (and never parsed)
CLOSE_GRACE = 1.0  # seconds a program gets to exit after end_game and EOF before it is killed
STDERR_TAIL = 400
MAX_STDERR = 16 << 20  # bytes of stderr a program may write in a game; it is drained, only the tail kept
MAX_LOGGED = 10  # incidents logged and kept per game and seat; a bot answering garbage every turn is counted
SESSION_VAR = "SANMA_MJAI_SESSION"  # set in the program's environment: finds its descendants, even setsid() ones


class MjaiBotError(SanmaError):
    """An ``mjai:COMMAND`` bot that cannot even be set up (empty or unparsable command, bad limits)."""


def check_seconds(what: str | Message, value: float) -> float:
    """``value`` when it is a number of seconds in (0, ``MAX_TIMEOUT``]; else ``MjaiBotError`` naming ``what``.

    >>> check_seconds("--mjai-timeout", float("inf"))
    Traceback (most recent call last):
    ...
    sanma.bots.mjai.MjaiBotError: --mjai-timeout must be at most 3600 seconds, got inf
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise MjaiBotError(sentence("{what} must be more than 0 seconds, got {value}", code="mjai_limit", what=what,
                                    value=value))
    if not value <= MAX_TIMEOUT:
        raise MjaiBotError(sentence("{what} must be at most {limit:g} seconds, got {value}", code="mjai_limit",
                                    what=what, limit=MAX_TIMEOUT, value=value))
    return float(value)


def _nesting(raw: bytes) -> int:
    """How deep the JSON text ``raw`` nests (brackets outside strings), without parsing it."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:  # the usual answer: no scan needed
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for c in raw:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:  # backslash
                escaped = True
            elif c == 0x22:  # quote
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif c in (0x5D, 0x7D):
            depth -= 1
    return deepest


def decode_answer(raw: bytes) -> dict[str, Any] | Message:
    """An answer line as a JSON object, or a sentence saying why it is not one (never raises).

    >>> decode_answer(b'{"type": "none"}')
    {'type': 'none'}
    >>> str(decode_answer(b"[" * 1000 + b"]" * 1000))
    'answer nested more than 16 deep'
    """
    if _nesting(raw) > MAX_DEPTH:
        return sentence("answer nested more than {n} deep", n=MAX_DEPTH)
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: belt and braces, the depth is checked above
        return sentence("answer is not JSON: {answer}", answer=_short(raw))
    if not isinstance(msg, dict):
        return sentence("answer is not a JSON object: {answer}", answer=_short(raw))
    return msg


def fallback(legal: Sequence[Action]) -> Action:
    """The tsumogiri choice: pass, else discard the drawn tile, else the first discard.

    >>> from sanma.tiles import Tile
    >>> fallback((Action("hora", 0, Tile.parse("1p"), target=1), Action("none", 0))).type
    'none'
    >>> str(fallback((Action("dahai", 2, Tile.parse("1p")), Action("dahai", 2, Tile.parse("9s"), tsumogiri=True))))
    'dahai by seat 2 9s'
    """
    for a in legal:
        if a.type == "none":
            return a
    first: Action | None = None
    for a in legal:
        if a.type == "dahai":
            if a.tsumogiri:
                return a
            if first is None:
                first = a
    return first if first is not None else legal[0]


REACH_STEP = "reach"  # match_action's answer to a two-step riichi declaration


def _tiles(names: Any) -> tuple[Tile, ...] | None:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    try:
        return tuple(sorted(Tile.from_mjai(n) for n in names))
    except SanmaError:
        return None


def _tile(name: Any) -> Tile | None:
    if not isinstance(name, str):
        return None
    try:
        return Tile.from_mjai(name)
    except SanmaError:
        return None


def match_action(msg: Any, legal: Sequence[Action], seat: int) -> Action | str | None:
    """The legal action an mjai answer means; ``REACH_STEP`` for a riichi without its tile; else None.

    Fields the answer leaves out are filled from the legal actions (``{"type":"none"}``, a
    ``hora`` without ``pai``); fields it gives must match (tile, red five, consumed tiles).

    >>> from sanma.tiles import Tile
    >>> legal = (Action("dahai", 0, Tile.parse("1p")), Action("dahai", 0, Tile.parse("5p"), tsumogiri=True))
    >>> str(match_action({"type": "dahai", "actor": 0, "pai": "5p", "tsumogiri": True}, legal, 0))
    'dahai by seat 0 5p'
    >>> match_action({"type": "dahai", "actor": 0, "pai": "5pr"}, legal, 0) is None  # no red five in hand
    True
    >>> match_action({"type": "dahai", "actor": 2, "pai": "1p"}, legal, 0) is None  # someone else's seat
    True
    """
    if not isinstance(msg, dict):
        return None
    t = msg.get("type")
    actor = msg.get("actor", seat)
    if actor != seat or isinstance(actor, bool) or not isinstance(t, str):
        return None
    if t == "reach" and msg.get("open") is True:
        t = "open_reach"
    same = [a for a in legal if a.type == t]
    if not same:
        return None
    if t in ("none", "hora", "kita", "ryukyoku"):
        return same[0]  # one of each at most in any window
    if t in ("reach", "open_reach") and "pai" not in msg:
        return REACH_STEP
    if t in ("dahai", "reach", "open_reach", "kakan", "pon", "daiminkan"):
        tile = _tile(msg.get("pai"))
        if tile is None:
            return None
        same = [a for a in same if a.tile is tile]
    if "consumed" in msg or t == "ankan":
        consumed = _tiles(msg.get("consumed"))
        if consumed is None:
            return None
        same = [a for a in same if tuple(sorted(a.consumed)) == consumed]
    if not same:
        return None
    flag = msg.get("tsumogiri")
    if isinstance(flag, bool):  # the same tile drawn and in hand: the flag tells which one goes
        return next((a for a in same if a.tsumogiri == flag), same[0])
    return same[0]


class MjaiStream:
    """The events one seat has not been sent yet, batched as sanma's mjai dialect sends them.

    The one home of the dialect's message building, shared by ``mjai:COMMAND`` and the server's
    mjai WebSocket: ``start_game`` gets ``"id"`` (the seat), a riichi already announced in the
    two-step form is not sent again, the last event carries ``possible_actions``.
    """

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.skip_reach = False  # the seat's reach event was already sent in the two-step form

    def push(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def extend(self, events: Sequence[dict[str, Any]]) -> None:
        self.events.extend(events)

    def batch(self, seat: int, legal: Sequence[Action] = ()) -> list[dict[str, Any]]:
        """The pending events (then forgotten); ``legal`` becomes the last one's ``possible_actions``."""
        out: list[dict[str, Any]] = []
        for e in self.events:
            t = e.get("type")
            if t == "start_game":
                e = {**e, "id": seat}
            elif t == "reach" and self.skip_reach and e.get("actor") == seat:
                self.skip_reach = False
                continue
            out.append(e)
        self.events.clear()
        if out and legal:
            out[-1] = {**out[-1], "possible_actions": [a.to_mjai() for a in legal]}
        return out


def reach_step(msg: dict[str, Any], legal: Sequence[Action], seat: int) -> tuple[dict[str, Any], list[Action]]:
    """The two-step riichi: the ``reach`` event to send back and the discards it allows."""
    kind = "open_reach" if msg.get("open") is True else "reach"
    reach_tiles = [a for a in legal if a.type == kind]
    step = {"type": "reach", "actor": seat, **({"open": True} if kind == "open_reach" else {}),
            "possible_actions": [
        {"type": "dahai", "actor": seat, "pai": a.tile.mjai if a.tile else "?", "tsumogiri": a.tsumogiri}
        for a in reach_tiles]}
    return step, reach_tiles


def match_reach_discard(msg: Any, reach_tiles: Sequence[Action], seat: int) -> Action | None:
    """The riichi discard a two-step answer (a ``dahai``) means, or None."""
    if not (isinstance(msg, dict) and msg.get("type") == "dahai" and reach_tiles):
        return None
    choice = match_action({**msg, "type": "reach", "open": reach_tiles[0].type == "open_reach"}, reach_tiles, seat)
    return choice if isinstance(choice, Action) else None


class _Process:
    """The running program: one I/O thread writes a request line and reads the answer line.

    The thread keeps the caller free to stop waiting: a write into a full pipe or a read that
    never returns only blocks the thread, and killing the process group unblocks it.
    """

    def __init__(self, argv: Sequence[str]) -> None:
        posix = os.name == "posix"
        self.session = secrets.token_hex(16)
        env = {**os.environ, SESSION_VAR: self.session}
        # stderr is a pipe that a thread drains (the program never blocks on it), keeping only its
        # tail (quoted in incidents) and counting the rest: nothing grows without bound
        self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=posix, env=env)
        self._tail = bytearray()
        self.stderr_bytes = 0
        self._requests: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._answers: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=f"mjai-{self.proc.pid}", daemon=True)
        self._thread.start()
        self._drain = threading.Thread(target=self._drain_stderr, name=f"mjai-err-{self.proc.pid}", daemon=True)
        self._drain.start()
        self._finalizer = weakref.finalize(self, _kill, self.proc, posix, self.session)
        _LIVE.add(self)

    def _drain_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        fd = err.fileno()
        try:
            while chunk := os.read(fd, 1 << 16):
                self.stderr_bytes += len(chunk)
                self._tail += chunk
                del self._tail[:-STDERR_TAIL]
        except (OSError, ValueError):
            pass

    def _run(self) -> None:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        while (req := self._requests.get()) is not None:
            try:
                stdin.write(req)
                stdin.flush()
                line = stdout.readline(MAX_LINE)
            except (OSError, ValueError):  # broken pipe, or closed under us
                line = b""
            self._answers.put(line)
            if not line.endswith(b"\n"):
                return

    def ask(self, line: bytes, timeout: float) -> bytes | None:
        """Send one line; the answer line (``b""`` at EOF, no newline if cut short) or None on timeout."""
        self._requests.put(line)
        try:
            return self._answers.get(timeout=timeout)
        except queue.Empty:
            return None

    def stderr_tail(self) -> str:
        self._drain.join(timeout=0.2)  # the program is gone: what it wrote last is in the pipe
        return bytes(self._tail).decode("utf-8", "replace").strip()

    def close(self, grace: float) -> int | None:
        """EOF on stdin, ``grace`` seconds to exit, then the process group is killed; the exit code."""
        self._requests.put(None)
        if self.proc.stdin is not None and grace > 0 and self.proc.poll() is None:
            self._thread.join(timeout=0.1)  # idle thread: returns at once; busy: we kill below
            if not self._thread.is_alive():
                with contextlib.suppress(OSError):
                    self.proc.stdin.close()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(timeout=grace)
        self._finalizer()
        self._thread.join(timeout=1.0)
        # A thread still blocked on a pipe (a descendant that left the process group keeps it open) holds
        # the pipe's lock: closing it here would block us too, so the pipes are left to that thread.
        pipes = () if self._thread.is_alive() else (self.proc.stdin, self.proc.stdout)
        self._drain.join(timeout=0.2)
        if not self._drain.is_alive():
            pipes = (*pipes, self.proc.stderr)
        for f in pipes:
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        _LIVE.discard(self)
        return self.proc.returncode


_LIVE: weakref.WeakSet[_Process] = weakref.WeakSet()  # running programs, for kill_all()


def kill_all() -> None:
    """Kill every program this process started, with their descendants (a worker told to stop)."""
    for p in list(_LIVE):
        p._finalizer()


def _descendants(root: int, session: str) -> set[int]:
    """Every process under ``root`` (by parent links) or carrying ``session`` in its environment.

    The parent links find children that left the process group (``setsid()``) while their parent
    lives; the environment variable finds them after the parent died and they were re-parented.
    Linux only (``/proc``); elsewhere the empty set.
    """
    parent: dict[int, int] = {}
    tagged: set[int] = set()
    marker = f"{SESSION_VAR}={session}".encode()
    me = os.getpid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return set()
    for name in entries:
        if not name.isdigit():
            continue
        pid = int(name)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
            parent[pid] = int(stat[stat.rindex(b")") + 2:].split()[1])
            if pid != me:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if marker in f.read().split(b"\0"):
                        tagged.add(pid)
        except (OSError, ValueError, IndexError):
            continue
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    todo = [root, *tagged]
    while todo:
        pid = todo.pop()
        if pid in found or pid == me:
            continue
        found.add(pid)
        todo.extend(children.get(pid, ()))
    found.discard(root)
    return found


def _kill(proc: subprocess.Popen[bytes], group: bool, session: str = "") -> None:
    """Kill the program and everything it started, then reap it.

    Its process group goes first, then every descendant found by parent links or by the session
    variable (a child that called ``setsid()`` left the group); a few rounds, since a process may
    have forked between the look and the kill.
    """
    for _ in range(3):
        others = _descendants(proc.pid, session) if group and session else set()
        if group:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        for pid in others:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        if not others:
            break
    with contextlib.suppress(subprocess.TimeoutExpired):  # a process that survives SIGKILL: give up
        proc.wait(timeout=5)


class MjaiBot(Bot):
    """A seat played by an external mjai program (``mjai:COMMAND``); see the module docs."""

    needs_view = False  # it reads the event stream
    follows_events = True

    def __init__(self, command: str, seed: int | str = 0, rules: Rules | None = None, *,
                 timeout: float | None = None, startup_timeout: float | None = None,
                 budget: float | None = None) -> None:
        try:
            argv = tuple(shlex.split(command))
        except ValueError as e:
            raise MjaiBotError(sentence("mjai bot command {command!r} cannot be parsed: {why}", code="mjai_command",
                                        command=command, why=str(e))) from None
        if not argv:
            raise MjaiBotError(sentence("mjai bot needs a command after 'mjai:', e.g. mjai:python "
                                        "examples/mjai_bot.py", code="mjai_command"))
        self.command = command
        self.name = PREFIX + command
        self.argv = argv
        self.seed = seed
        self.timeout = DEFAULT_TIMEOUT if timeout is None else check_seconds(sentence("the mjai timeout"), timeout)
        self.startup_timeout = (max(DEFAULT_STARTUP_TIMEOUT, self.timeout) if startup_timeout is None
                                else check_seconds(sentence("the mjai start-up timeout"), startup_timeout))
        # all the waiting for this seat's answers in one game, start-up included
        self.budget = (max(DEFAULT_GAME_BUDGET, self.startup_timeout) if budget is None
                       else check_seconds(sentence("the mjai game budget"), budget))
        self._spent = 0.0
        self.incidents: list[Message] = []
        self.incident_count = 0
        self.fallbacks = 0
        self._stream = MjaiStream()
        self._process: _Process | None = None
        self._started = False
        self._dead = False  # the program stopped or was stopped: tsumogiri for the rest of the game
        self._seat: int | None = None
        self._answered = 0

    def check(self) -> None:
        """Raise ``MjaiBotError`` when the program cannot be found (before any game starts)."""
        exe = self.argv[0]
        if shutil.which(exe) is None and not (os.sep in exe and os.access(exe, os.X_OK)):
            raise MjaiBotError(sentence("mjai bot command not found: {exe!r} (from {name!r})", code="mjai_command",
                                        exe=exe, name=self.name))

    # -- the Bot protocol ----------------------------------------------------------------------
    def on_event(self, event: dict[str, Any]) -> None:
        self._stream.push(event)

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        seat = legal[0].actor
        self._seat = seat
        if self._dead:
            return self._fall_back(legal)
        batch = self._stream.batch(seat, legal)
        msg = self._ask(batch)
        if msg is None:
            return self._fall_back(legal)
        choice = match_action(msg, legal, seat)
        if choice == REACH_STEP:
            step, reach_tiles = reach_step(msg, legal, seat)
            msg2 = self._ask([step])
            if msg2 is None:
                return self._fall_back(legal)
            chosen = match_reach_discard(msg2, reach_tiles, seat)
            if chosen is None:
                return self._fall_back(legal, sentence(
                    "illegal riichi discard {answer}; legal: {legal}", answer=_short(msg2),
                    legal=", ".join(a.tile.mjai for a in reach_tiles if a.tile)))
            self._stream.skip_reach = True
            return chosen
        if not isinstance(choice, Action):
            return self._fall_back(legal, sentence("illegal answer {answer}; legal: {legal}", answer=_short(msg),
                                                   legal=", ".join(json.dumps(a.to_mjai()) for a in legal)))
        return choice

    def close(self) -> None:
        """Send what is left of the game (end_game), close stdin, end the process. Safe to call twice."""
        p = self._process
        if p is None:
            return
        self._process = None
        grace = CLOSE_GRACE
        if not self._dead and self._seat is not None:
            batch = self._stream.batch(self._seat)
            if batch and p.ask(_line(batch), min(self.timeout, CLOSE_GRACE)) is None:
                grace = 0  # it did not even answer end_game: do not wait for it to exit either
        p.close(grace)
        self._stream.events.clear()

    # -- plumbing ------------------------------------------------------------------------------
    def _ask(self, batch: list[dict[str, Any]]) -> Any:
        """Send one batch; the decoded answer, or None after recording an incident."""
        if self._process is None:
            if self._started:  # pragma: no cover - guarded by _dead
                return None
            self._started = True
            try:
                self._process = _Process(self.argv)
            except OSError as e:
                self._incident(sentence("cannot start {command!r}: {why}", command=self.command, why=str(e)),
                               dead=True)
                return None
        p = self._process
        timeout = self.timeout if self._answered else self.startup_timeout
        left = self.budget - self._spent
        wait = min(timeout, left)
        t0 = time.monotonic()
        raw = p.ask(_line(batch), wait) if wait > 0 else None
        self._spent += time.monotonic() - t0
        if raw is None:
            self._incident(sentence("no answer within {s:g} s", s=timeout) if wait == timeout else
                           sentence("used up its {s:g} s of thinking time for the game", s=self.budget), dead=True)
            return None
        if p.stderr_bytes > MAX_STDERR:
            self._incident(sentence("wrote more than {n} bytes to stderr in one game", n=MAX_STDERR), dead=True)
            return None
        if not raw.endswith(b"\n"):
            if len(raw) >= MAX_LINE:
                self._incident(sentence("answer longer than {n} bytes", n=MAX_LINE), dead=True)
            else:
                code = p.proc.poll()
                if code is None:
                    try:
                        code = p.proc.wait(timeout=0.5)
                    except subprocess.TimeoutExpired:
                        code = None
                self._incident(sentence("the program stopped (exit code {status}) after printing {answer}",
                                        status=code, answer=_short(raw)) if raw else
                               sentence("the program stopped (exit code {status})", status=code), dead=True)
            return None
        self._answered += 1
        msg = decode_answer(raw)
        if isinstance(msg, Message):
            self._incident(msg)
            return None
        return msg

    def _fall_back(self, legal: Sequence[Action], why: Message | None = None) -> Action:
        if why is not None:
            self._incident(why)
        self.fallbacks += 1
        self._stream.skip_reach = False
        return fallback(legal)

    def _incident(self, what: Message, *, dead: bool = False) -> None:
        text = sentence("{bot} (seat {seat}): {what}", bot=self.name, seat="?" if self._seat is None else self._seat,
                        what=what)
        if dead:
            self._dead = True
            p = self._process
            if p is not None:
                p.close(0)
                tail = p.stderr_tail()
                if tail:
                    text = sentence("{text}; stderr ends: {tail!r}", text=text, tail=tail[-STDERR_TAIL:])
                self._process = None
            text = sentence("{text}; tsumogiri for the rest of the game", text=text)
        self.incident_count += 1
        if self.incident_count <= MAX_LOGGED:
            if self.incident_count == MAX_LOGGED:
                text = sentence("{text} (further incidents with this seat in this game are counted, not logged)",
                                text=text)
            self.incidents.append(text)
            log.warning("%s", text.text())  # in the command's language


def _line(batch: list[dict[str, Any]]) -> bytes:
    return (json.dumps(batch, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def _short(x: Any, limit: int = 120) -> str:
    s = x.decode("utf-8", "replace").strip() if isinstance(x, bytes) else json.dumps(x) if isinstance(
        x, dict | list) else repr(x)
    return s if len(s) <= limit else s[:limit] + "..."
