"""The served tables: the server's game state, its only authority, kept in its database.

A ``Table`` holds one ``Game`` and decides everything: the seats' legal actions, the bots' moves,
the auto toggles; every timer (the clock, the call window, the result pause, bots' think time) is
its ``Schedule`` on the injected clock (``web/scheduler.py``). Every applied action and the events
it caused are written in one transaction before anyone is told (``web_actions`` / ``web_events``;
on SQLite at once, on PostgreSQL while the event loop serves the other tables: ``Table._settle``);
``Tables.resume`` rebuilds an unfinished table from its seed by re-applying the stored actions
(bots are seeded and are consulted again, so they go on as they were). Connections (``ws.py``)
subscribe to a table and are sent what ``sanma.game.view`` lets their seat see.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from ..bots import BOTS, Bot, make_bot
from ..bots.drive import Driver
from ..bots.mjai import fallback
from ..errors import RulesError, SanmaError
from ..game.actions import Action
from ..game.engine import Game
from ..game.view import SeatPublic, public_seats
from ..i18n import Message, sentence
from ..rules import Rules
from ..rules.loader import from_dict, load_preset, parse_toml, to_dict
from ..store import Store, StoreError, check_name, check_text
from ..store import tables as stored
from ..tiles import SEATS
from .limits import Limits, Meter, Sockets
from .players import store_name
from .results import hand_result, settlement
from .scheduler import (
    DEFAULT_CLOCK,
    Clock,
    Pace,
    Prompt,
    Schedule,
    SystemClock,
    Timer,
    Wakeup,
    bank_left,
    default_clock,
    open_prompt,
)

if TYPE_CHECKING:
    from .shared import Shared

log = logging.getLogger("sanma.web")

#: What a transition's caller is told once its write is done: None (stored, then told to
#: everyone), or the error (not stored: the table is back to what it last told).
Done = Callable[["TableError | None"], None]


def broken_reason(e: BaseException) -> Message:
    """Why a stored table cannot be rebuilt, as its pages and its API are told (in their language):
    a database's or a rule file's refusal says its sentence (names and fields, nothing hidden); any
    other failure — an action the engine refuses, which may name a tile in a hand, or a bug — is
    one generic sentence, and the details go to the server's log only."""
    if isinstance(e, StoreError | RulesError) and isinstance(e.message, Message):
        return e.message
    return sentence("its stored game no longer replays (the server's log says why)", code="replay_failed")

SEAT_KINDS = ("human", "mjai")  # besides the built-in bots of sanma.bots.BOTS
TOGGLE_NAMES = ("auto_win", "auto_kita", "no_calls", "auto_tsumogiri", "auto_sort")
DEFAULT_TOGGLES: dict[str, bool] = {"auto_win": False, "auto_kita": False, "no_calls": False,
                                    "auto_tsumogiri": False, "auto_sort": True}
MAX_CLOCK = 3600.0
RETRY_MS = 1000  # a transition whose write failed is tried again this much later
SERVER_WAIT_MS = 200  # how long a write of the server waits for another process's lock (Store.wait_for_writes)
MAX_NAME = 40
MAX_SEED = 200


class TableError(SanmaError):
    """A request the server refuses (bad table settings, unknown table, bad token); nothing changed."""

    def __init__(self, message: str | Message, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


#: How long a server that stops waits for the writes still out (``Tables.settle``).
SETTLE_SECONDS = 10.0


def not_stored() -> TableError:
    """A change the database could not store (busy or failing): nothing changed, try again (503)."""
    return TableError(sentence("the database could not store this (it is busy or failing); nothing changed, "
                               "try again", code="busy"), 503)


_clock_text: list[Any] = [-1, ""]  # (whole second, its ISO text): one isoformat a second, not one an action


def _now() -> str:
    second = int(time.time())
    if second != _clock_text[0]:
        _clock_text[0], _clock_text[1] = second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")
    return str(_clock_text[1])


def seed_hash(seed: str) -> str:
    """The published SHA-256 of the wall seed (shown before the first deal)."""
    return hashlib.sha256(seed.encode()).hexdigest()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --------------------------------------------------------------------------------------------
# Table settings from a request
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    rules: Rules
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    seed: str
    clock: dict[str, float]
    wall_key: bytes | None = None  # keys the walls when an external program sits (see wall_key_for)


def rematch_id(table_id: str) -> str:
    """The id of a table's rematch: 12 URL-safe characters from the SHA-256 of the table's id (never
    starting with '-': an id is a command-line argument too)."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(f"sanma-rematch:{table_id}".encode()).digest()).decode()
    return "r" + digest[:11]


def wall_key_for(kinds: Sequence[str]) -> bytes | None:
    """A secret wall key (``Game(wall_key=...)``, from ``secrets``) for a table where an external
    mjai bot sits: its author may have chosen the seed, so the walls must not follow from it alone.
    Published with the seed after the game; tables of people and built-in bots keep seed-only walls."""
    return secrets.token_bytes(32) if "mjai" in kinds else None


def key_hash(key: bytes) -> str:
    """The published SHA-256 of a wall key's hex text (shown before the first deal, as the seed's)."""
    return hashlib.sha256(key.hex().encode()).hexdigest()


def parse_settings(body: Any) -> Settings:
    """Validate a ``POST /api/tables`` body; a ``TableError`` names what is wrong."""
    if not isinstance(body, dict):
        raise TableError(sentence("the request body must be a JSON object", code="malformed"))
    unknown = set(body) - {"rules", "rules_toml", "seats", "names", "seed", "clock"}
    if unknown:
        raise TableError(sentence("unknown field(s) {names}", code="malformed", names=", ".join(sorted(unknown))))
    rules = _rules_of(body)
    seats = body.get("seats")
    if not isinstance(seats, list) or len(seats) != SEATS or not all(isinstance(s, str) for s in seats):
        raise TableError(sentence("'seats' must be a list of {n} seat kinds (human, mjai or a bot name)",
                                  code="malformed", n=SEATS))
    for i, s in enumerate(seats):
        if s not in SEAT_KINDS and s not in BOTS:
            raise TableError(sentence("seat {seat}: unknown kind {kind!r}; choose from {choices}", code="malformed",
                                      seat=i, kind=s, choices=", ".join((*SEAT_KINDS, *sorted(BOTS)))))
    names = body.get("names")
    if names is None:
        # a person's or an external bot's seat is "Player N" (never a wind word: "South discards S")
        names = [s if s in BOTS else f"Player {i + 1}" for i, s in enumerate(seats)]
    if (not isinstance(names, list) or len(names) != SEATS
            or not all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME for n in names)):
        raise TableError(sentence("'names' must be {n} non-empty names of at most {limit} characters",
                                  code="malformed", n=SEATS, limit=MAX_NAME))
    names = [n.strip() for n in names]
    seed = body.get("seed")
    if seed is None:
        seed_text = str(secrets.randbits(64))  # fairness: unguessable unless the creator chose one
    elif isinstance(seed, bool) or not isinstance(seed, int | str) or not 0 < len(str(seed)) <= MAX_SEED:
        raise TableError(sentence("'seed' must be an integer or a string of at most {limit} characters",
                                  code="malformed", limit=MAX_SEED))
    else:
        seed_text = str(seed)
    try:  # the store's own rules, now: a name it would refuse at the game's end must not start one
        for i, n in enumerate(names):
            check_name(n, sentence("seat {n}'s name", n=i))
        check_text(seed_text, "'seed'")  # the field's key
    except StoreError as e:
        raise TableError(e.message) from None
    return Settings(rules, tuple(seats), tuple(names), seed_text,
                    _clock_of(body.get("clock"), "human" in seats), wall_key_for(seats))


def _rules_of(body: dict[str, Any]) -> Rules:
    spec, toml = body.get("rules"), body.get("rules_toml")
    try:
        if toml is not None:
            if spec is not None:
                raise TableError(sentence("give either 'rules' or 'rules_toml', not both", code="malformed"))
            if not isinstance(toml, str) or len(toml) > 64_000:
                raise TableError(sentence("'rules_toml' must be the text of a rule file (at most 64 kB)",
                                          code="malformed"))
            return from_dict(parse_toml(toml, "the uploaded rule file"), "the uploaded rule file")
        if isinstance(spec, str):
            return load_preset(spec)
        if isinstance(spec, dict):
            return from_dict(spec, "'rules'")
    except TableError:
        raise
    except SanmaError as e:
        raise TableError(e.message) from None
    raise TableError(sentence("'rules' must be a preset name or a rule object ({{\"extends\": NAME, ...}})",
                              code="malformed"))


def _clock_of(value: Any, person: bool) -> dict[str, float]:
    out = default_clock(person)
    if value is None:
        return out
    if not isinstance(value, dict) or set(value) - set(DEFAULT_CLOCK):
        raise TableError(sentence("'clock' must be an object of seconds: {names}", code="malformed",
                                  names=", ".join(f'"{k}"' for k in DEFAULT_CLOCK)))
    for k, v in value.items():
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= MAX_CLOCK:
            raise TableError(sentence("clock {name!r} must be a number of seconds from 0 to {limit:g}",
                                      code="malformed", name=k, limit=MAX_CLOCK))
        out[k] = float(v)
    if out["move"] == 0:
        out["bank"] = 0.0
    return out


# --------------------------------------------------------------------------------------------
# The auto toggles (server-held, per seat)
# --------------------------------------------------------------------------------------------


def auto_action(legal: Sequence[Action], toggles: Mapping[str, bool], riichi: bool) -> Action | None:
    """The action the seat's toggles take for it, or None to ask the seat.

    ``auto_win`` takes a win; ``auto_kita`` pulls a North; ``no_calls`` passes on pon / kan offers
    (a ron is still asked); ``auto_tsumogiri`` discards the drawn tile when no win or kan is offered,
    and after riichi the drawn tile always goes out when no win, kan or kita is offered.
    """
    types = {a.type for a in legal}
    if toggles.get("auto_win") and "hora" in types:
        return next(a for a in legal if a.type == "hora")
    if toggles.get("auto_kita") and "kita" in types and "hora" not in types:
        return next(a for a in legal if a.type == "kita")
    if "none" in types:  # a call window
        if toggles.get("no_calls") and "hora" not in types:
            return next(a for a in legal if a.type == "none")
        return None
    # after riichi a kita is still asked (P15); auto tsumogiri outside riichi does not stop for a North
    # held in the hand (it asked every turn and waited out the move clock: issue 18), auto_kita pulls it
    stops = {"hora", "ankan", "kakan", "kita"} if riichi else {"hora", "ankan", "kakan"}
    if (toggles.get("auto_tsumogiri") or riichi) and not types & stops:
        return next((a for a in legal if a.type == "dahai" and a.tsumogiri), None)
    return None


# --------------------------------------------------------------------------------------------
# Results sent at the end of a hand and of the game
# --------------------------------------------------------------------------------------------

def game_result(game: Game) -> dict[str, Any]:
    """A finished game's :func:`settlement`."""
    assert game.done and game.events[-1]["type"] == "end_game"
    return settlement(game.rules, game.events[-1])


def round_of(events: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The round of the last hand dealt in ``events`` (its ``start_kyoku``): wind, number, lap (how
    many times the round wind changed before it), honba, sticks, dealer; None before the first deal."""
    last, lap, wind = None, -1, None
    for e in events:
        if e["type"] == "start_kyoku":
            if e["bakaze"] != wind or (last is not None and e["kyoku"] < last["kyoku"]):
                lap += 1
            wind, last = e["bakaze"], e
    if last is None:
        return None
    return {"wind": last["bakaze"], "number": last["kyoku"], "lap": lap, "honba": last["honba"],
            "sticks": last["kyotaku"], "dealer": last["oya"]}


# --------------------------------------------------------------------------------------------
# A table
# --------------------------------------------------------------------------------------------

class Listener(Protocol):
    """What a table tells of its changes: a connection (``web/ws.py``), or a test's recorder."""

    def update(self, table: Table) -> None:
        """Told after every stored transition: the table as it is now."""

    def preview(self, table: Table) -> Callable[[], None] | None:
        """What :meth:`update` would tell now, taken without telling it or changing the listener:
        told by calling the result, once the transition is stored (None: nothing to tell). The
        table is then taken on, and :meth:`update` tells the rest (``Table._release_at_once``)."""


def _public(t: Table | StoredTable, seats: list[dict[str, Any]], scores: list[int], rnd: dict[str, Any] | None,
            hands: int, result: dict[str, Any] | None) -> dict[str, Any]:
    """``GET /api/tables/ID``'s shape, for a running and a stored table alike."""
    out: dict[str, Any] = {
        "id": t.id, "rules": t.rules.name, "rules_detail": to_dict(t.rules), "seats": seats, "scores": scores,
        "round": rnd, "finished": result is not None, "seed_hash": t.seed_hash, "clock": t.clock,
        "created_at": t.created_at, "hands": hands}
    if t.wall_key is not None:
        out["wall_key_hash"] = key_hash(t.wall_key)
    if result is not None:
        out["seed"] = t.seed
        out["result"] = result
        if t.wall_key is not None:
            out["wall_key"] = t.wall_key.hex()
    return out


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A finished table as the store keeps it (``web_tables`` and its ``web_events``): what the API
    and the replay read once the live ``Table`` is gone. No game object, no replay of the actions."""

    id: str
    rules: Rules
    kinds: tuple[str, ...]
    names: tuple[str, ...]
    seed: str
    seed_hash: str
    clock: dict[str, float]
    created_at: str
    events: tuple[dict[str, Any], ...]
    wall_key: bytes | None = None
    finished: bool = True
    abandoned: bool = False  # ended before its game did (everybody away): no record, no result

    @staticmethod
    def load(store: Store, table_id: str) -> StoredTable:
        row = stored.table(store, table_id)
        if row is None:
            raise TableError(sentence("no table {table!r}", code="no_such_table", table=table_id), 404)
        if not row.finished:
            raise TableError(sentence("table {table!r} is still being played", code="in_play", table=table_id), 409)
        events = tuple(stored.events(store, table_id))
        return StoredTable(table_id, from_dict(row.rules, f"table {table_id}", name=row.rules_name),
                           tuple(s["kind"] for s in row.seats), tuple(s["name"] for s in row.seats), row.seed,
                           row.seed_hash, row.clock, row.created_at, events,
                           bytes.fromhex(row.wall_key) if row.wall_key else None,
                           abandoned=row.game_id is None and not (events and events[-1].get("type") == "end_game"))

    def public(self) -> dict[str, Any]:
        seats = [{"seat": s, "kind": k, "name": self.names[s], "connected": k in BOTS}
                 for s, k in enumerate(self.kinds)]
        hands = sum(1 for e in self.events if e["type"] == "end_kyoku")
        if self.abandoned:
            scores = next((list(e["scores"]) for e in reversed(self.events) if "scores" in e), [])
            out = _public(self, seats, scores, round_of(self.events), hands, None)
            out.update(finished=True, abandoned=True, seed=self.seed)  # over: its walls may be checked
            if self.wall_key is not None:
                out["wall_key"] = self.wall_key.hex()
            return out
        end = self.events[-1]
        return _public(self, seats, list(end["scores"]), round_of(self.events), hands, settlement(self.rules, end))


class Table:
    """One served game: its ``Game`` (held at every call window and hand end, ``Game(hold=True)``)
    and its :class:`~sanma.web.scheduler.Schedule`. Every change of state is one of the transitions
    below, run on the server's event loop: a seat's answer (:meth:`act`), a toggle, a dismissed
    result, or a timer of the schedule coming due (:meth:`tick`); each is followed by
    :meth:`_settle`, which opens the prompts the game now asks for, tells every listener and arms the
    clock for the next timer. A runner that owns the table owns exactly these."""

    def __init__(self, tables: Tables, table_id: str, settings: Settings, token_hashes: Sequence[str],
                 toggles: Sequence[dict[str, bool]], banks: Sequence[float], created_at: str) -> None:
        self.tables = tables
        self.time: Clock = tables.clock
        self.id = table_id
        self.rules = settings.rules
        self.kinds = settings.kinds
        self.names = settings.names
        self.seed = settings.seed
        self.seed_hash = seed_hash(settings.seed)
        self.wall_key = settings.wall_key
        self.clock = settings.clock
        self.pace = Pace.of(settings.clock)
        self.token_hashes = tuple(token_hashes)
        self.players: list[str | None] = [None] * SEATS  # the browser player who sat at each seat (web/players.py)
        self.toggles = [dict(t) for t in toggles]
        self.banks = [round(float(b) * 1000) for b in banks]  # ms; stored in seconds
        self.stored_banks = list(self.banks)  # as the database has them
        self.created_at = created_at
        self.game = Game(self.rules, seed=self.seed, names=self.names, wall_key=self.wall_key, hold=True)
        self.driver = Driver(self.game, self._new_bots())  # the seated bots, fed as their seats may see
        self.persons = frozenset(s for s, k in enumerate(self.kinds) if k == "human")
        self.outside = frozenset(s for s, k in enumerate(self.kinds) if k in SEAT_KINDS)  # people, external bots
        self.abandon_ms = round(tables.limits.abandon_after * 1000)
        self.abandoned = False
        self.watchers = 0  # spectators connected now
        self.creator = "?"  # the client address that made it (caps per client; not stored)
        self.schedule = Schedule()
        self.seq = 0  # transitions applied: internal only, never sent
        self.actions = 0  # actions applied (each one a ``web_actions`` row)
        self.history: list[tuple[int, int, str]] = []  # each applied action's seat, legal index and how
        self.prompt_legal: list[tuple[Action, ...]] = [()] * SEATS  # each open prompt's actions
        self.answered = [False] * SEATS  # the seat's open prompt was answered (it must be asked anew)
        self.listeners: set[Listener] = set()
        self.connected = [0] * SEATS  # this process's connections per seat
        self.remote = [0] * SEATS  # the other processes' (several processes: web/shared.py)
        # the steps of the transition not yet stored, from event ``pending_from`` on (see _changed)
        self.pending: list[tuple[int, int, Action, str] | None] = []
        self.pending_from: int | None = None
        self.stored: dict[str, str] = {}  # the JSON of each web_tables column as last stored
        self.stored_values: dict[str, Any] = {}  # ... and the values it was made from (Tables.flush)
        self.stored_schedule: Schedule | None = None  # the schedule as last stored and told
        self.runner: int | None = tables.node  # the process that runs it (several processes)
        self.hand_start = 1  # index of the current hand's start_kyoku event
        self.hand_chips = [0] * SEATS  # chips when the current hand started
        self.results: list[tuple[int, dict[str, Any]]] = []  # (events count when sent, hand result)
        self._wakeup: Wakeup | None = None
        self._closed = False
        # a transition's write is out (PostgreSQL's MoveWriter): no other transition starts and
        # nobody reads the table until it is stored and told (:meth:`ready`, :meth:`later`)
        self.writing = False
        self._after: deque[Callable[[], None]] = deque()  # what waits for the write, in order
        self._public_key: tuple[int, int] = (-1, -1)
        self._public: tuple[tuple[SeatPublic, ...], list[dict[str, Any]]] = ((), [])
        self._note_hands(0)

    @property
    def bots(self) -> dict[int, Bot]:
        """Seat -> the built-in bot that plays it."""
        return self.driver.bots

    def _new_bots(self) -> dict[int, Bot]:
        return {s: make_bot(k, seed=f"{self.seed}-bot-{s}", rules=self.rules)
                for s, k in enumerate(self.kinds) if k in BOTS}

    def replay(self, actions: Sequence[tuple[int, int, str]], stored_events: int, *, bots_decide: bool) -> None:
        """Rebuild the game from its start by its stored actions (and the releases between them):
        at a (re)start, and to undo what a failed write left in memory. ``bots_decide``: the seeded
        bots decide again, so that their state is where it was."""
        self.driver.close()
        self.game = g = Game(self.rules, seed=self.seed, names=self.names, wall_key=self.wall_key, hold=True)
        self.driver = Driver(g, self._new_bots())
        self.actions = 0
        self.history = []
        self.hand_start, self.hand_chips, self.results = 1, [0] * SEATS, []
        self._note_hands(0)
        for seat, legal_idx, how in actions:
            while g.held:  # a stored action after a hold: the hold was released before it
                self._release_quiet()
            if seat in self.bots and bots_decide:
                with contextlib.suppress(SanmaError, LookupError):
                    self.driver.choose(seat)
            self._apply(seat, legal_idx, how, store=False)
        while g.held and len(g.events) < stored_events:  # released (its events stored) before the stop
            self._release_quiet()

    def _rollback(self, why: Exception, now: int) -> TableError:
        """A write failed: the table goes back to what it last stored, which is what its clients
        were last told — the game replayed from the seed by the stored actions (kept in memory, so
        this needs no database), the stored schedule, toggles and banks — and the error to answer
        with (issue 23 item 5: never a closed socket)."""
        log.warning("table %s: a write failed (%s); back to the stored state", self.id, why)
        steps = sum(1 for a in self.pending if a is not None)
        events = self.pending_from if self.pending_from is not None else len(self.game.events)
        self.pending.clear()
        self.pending_from = None
        if steps or events != len(self.game.events):
            self.replay(self.history[:len(self.history) - steps], events, bots_decide=True)
        st = self.stored
        if "toggles" in st:
            self.toggles = [dict(t) for t in json.loads(st["toggles"])]
        if "banks" in st:
            self.banks = [round(float(b) * 1000) for b in json.loads(st["banks"])]
        self.answered = [False] * SEATS
        self.prompt_legal = [()] * SEATS
        self.schedule = Schedule()
        if self.stored_schedule is not None:  # the open prompts stay the same ones, with their deadlines
            self.restore(self.stored_schedule)
        self._sync(now)  # (a table whose first write failed opens its prompts)
        return not_stored()

    # -- public state ----------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.game.done

    def seat_of_token(self, token: str | None) -> int | None:
        if not token or len(token) > 200:
            return None
        h = _token_hash(token)
        for s, th in enumerate(self.token_hashes):
            if hmac.compare_digest(h, th):
                return s
        return None

    def seats_info(self) -> list[dict[str, Any]]:
        return [{"seat": s, "kind": k, "name": self.names[s],
                 "connected": self.connected[s] + self.remote[s] > 0 or k in BOTS} for s, k in enumerate(self.kinds)]

    def public(self) -> dict[str, Any]:
        """``GET /api/tables/ID``: no hidden tile; the seed only after the game."""
        g = self.game
        return _public(self, self.seats_info(), list(g.scores), self.round(), len(g.hand_results),
                       game_result(g) if g.done else None)

    def round(self) -> dict[str, Any] | None:
        """The hand being played (a finished game: its last hand, as the store gives it)."""
        g = self.game
        if g.done:
            return round_of(g.events)
        return {"wind": g.round_wind, "number": g.kyoku_in_round + 1, "lap": g.round_index, "honba": g.honba,
                "sticks": g.kyotaku, "dealer": g.dealer}

    def public_seats(self) -> tuple[tuple[SeatPublic, ...], list[dict[str, Any]]]:
        """Every seat's public facts now and their JSON, made once per action for all connections
        (``view.public_seats``: the same for every viewer; each view adds only its own seat)."""
        key = (self.seq, len(self.game.events))
        if self._public_key != key:
            public = public_seats(self.game)
            self._public = (public, [p.to_json() for p in public])
            self._public_key = key
        return self._public

    def legal(self, seat: int) -> tuple[Action, ...]:
        return self.game.legal_actions(seat)

    def prompt(self, seat: int) -> Prompt | None:
        """The seat's open decision (None: nothing to decide, or already answered in the window)."""
        return self.schedule.prompts[seat]

    def deadline(self, seat: int) -> float | None:
        """When the seat's open prompt runs out (seconds since the epoch), or None without a clock."""
        p = self.schedule.prompts[seat]
        return None if p is None or p.due is None or seat in self.bots else p.due / 1000

    def timers(self) -> list[Timer]:
        """Every pending timer (plain data, ms since the epoch)."""
        return self.schedule.timers(frozenset(self.bots), self.abandon_ms)

    def restore(self, schedule: Schedule) -> None:
        """Take up a stored scheduler state (a rebuilt or taken-over table): the open prompts keep
        their numbers, times and deadlines."""
        before = self.schedule.prompts
        self.schedule = schedule
        for seat, p in enumerate(schedule.prompts):
            if p is None:
                self.prompt_legal[seat] = ()
            elif before[seat] is None or before[seat].number != p.number or self.answered[seat]:  # type: ignore[union-attr]
                self.prompt_legal[seat] = self.game.legal_actions(seat)
                self.answered[seat] = False

    # -- transitions -----------------------------------------------------------------------
    def start(self) -> None:
        """Open the first prompts (a new or rebuilt table) and arm the clock: time starts now."""
        self._settle(self.time.now())  # (not stored: rolled back and tried again)

    def act(self, seat: int, action: Action, how: str = "seat", done: Done | None = None) -> None:
        """One of ``seat``'s open prompt's actions, answered now. Inside a call window it is held
        until the window closes (``Schedule.answers``); otherwise it is stored with its events in
        one transaction, then told. ``done``: told the write's outcome (see :data:`Done`)."""
        if self.later(functools.partial(self.act, seat, action, how, done)):
            return
        now = self.time.now()
        p = self.schedule.prompts[seat]
        legal = self.prompt_legal[seat]
        idx = legal.index(action)  # (an Action is a value: equal is the same action)
        s = self.schedule
        if s.window is not None and p is not None and p.window:
            prompts = list(s.prompts)
            prompts[seat] = None
            self.schedule = replace(s, prompts=tuple(prompts), answers=(*s.answers, (seat, idx, how)))
            self.prompt_legal[seat] = ()
            self._settle(now, done)
            return
        bank = bank_left(self.pace, p, now) if p is not None and how == "seat" else self.banks[seat]
        self._apply(seat, idx, how)  # a failed write: nothing changed, ``done`` is told
        self.banks[seat] = bank
        self._settle(now, done)

    def set_toggle(self, seat: int, name: str, value: bool, done: Done | None = None) -> None:
        """A seat's auto toggle, stored before it is told (a failed write: not set; ``done``)."""
        if self.later(functools.partial(self.set_toggle, seat, name, value, done)):
            return
        self.toggles[seat][name] = value
        self._settle(self.time.now(), done)

    def presence_changed(self) -> None:
        """A connection came or went (here or, several processes, on another): the abandon timer
        starts when the last person (or external bot) leaves and stops when one comes back."""
        if self._closed or self.later(self.presence_changed):
            return
        self._settle(self.time.now())  # (not stored: rolled back and tried again)

    def _abandon(self, now: int) -> None:
        """Everybody who plays from outside has been away ``abandon_after``: the table ends, stored
        as abandoned (issue 23 item 7: tables nobody plays never ended and every start rebuilt them)."""
        try:
            if not self.tables.abandon(self):
                return  # another process runs the table now
        except Exception as e:  # not stored: tried again
            raise TableError(sentence("the table could not be stored as abandoned: {why}", code="busy", why=e),
                             503) from None
        self.abandoned = True
        self._notify()
        self.tables.release(self)
        self.close()

    def dismiss(self, seat: int, done: Done | None = None) -> None:
        """The seat's person has read the hand's result (the next hand comes when every person has)."""
        if self.later(functools.partial(self.dismiss, seat, done)):
            return
        s = self.schedule
        if self.game.held == "hand" and seat not in s.ready:
            self.schedule = replace(s, ready=s.ready | {seat})
            self._settle(self.time.now(), done)

    def tick(self) -> None:
        """The clock's wakeup: run the transition that is due, if any."""
        self._wakeup = None
        if self._closed or self.writing:  # (the write's end arms the clock again)
            return
        now = self.time.now()
        due = self._next(now)
        if due is None or due[0] > now:
            self._arm(now)
            return
        try:
            due[1](now)
        except TableError:  # the abandon could not be stored: tried again a little later
            self._arm(now, now + RETRY_MS)
            return
        self._settle(now)  # (a write that fails is rolled back: the same transition, a little later)

    def _next(self, now: int) -> tuple[int, Callable[[int], None]] | None:
        """The next transition and when it is due (``now`` when it can happen at once)."""
        if self.game.done or self.abandoned:
            return None
        due = self._next_move(now)
        away = self.schedule.away
        if away is not None:
            end = away + self.abandon_ms
            if due is None or end < due[0]:
                return end, self._abandon
        return due

    def _next_move(self, now: int) -> tuple[int, Callable[[int], None]] | None:
        g, s = self.game, self.schedule
        if g.held == "hand":
            if self.persons <= s.ready and self.persons:
                return now, self._release
            return (s.pause, self._release) if s.pause is not None else None
        if s.window is not None:
            return s.window, self._close_window
        if g.held == "window":  # no window to wait for (``call`` 0)
            return now, self._release
        best: tuple[int, Callable[[int], None]] | None = None
        bots = self.driver.bots
        for seat, p in enumerate(s.prompts):
            if p is None:
                continue
            if seat in bots:
                at = p.due if p.due is not None else now
            elif seat in self.persons and self._auto(seat) is not None:
                at = now
            elif p.due is not None:
                at = p.due
            else:
                continue
            if best is None or at < best[0]:
                best = (at, functools.partial(self._decide, seat))
        return best

    def _decide(self, seat: int, now: int) -> None:
        """A due prompt: the bot's move, the toggle's, or the clock's fallback."""
        action, how = self._choice(seat, self.prompt_legal[seat])
        self.act_quiet(seat, action, how)
        if how == "clock":
            self.banks[seat] = 0

    def _choice(self, seat: int, legal: tuple[Action, ...]) -> tuple[Action, str]:
        if seat in self.bots:
            return self.driver.choose(seat, legal), "bot"
        auto = self._auto(seat)
        if auto is not None:
            return auto, "auto"
        return fallback(legal), "clock"

    def _auto(self, seat: int) -> Action | None:
        if self.kinds[seat] != "human":
            return None
        legal = self.prompt_legal[seat]
        return auto_action(legal, self.toggles[seat], self.game.seats[seat].riichi) if legal else None

    def _close_window(self, now: int) -> None:
        """The call window's end: every seat asked answers as it chose (or its bot, its toggle, or a
        pass), in seat order; then the game goes on."""
        s = self.schedule
        given = {seat: (idx, how) for seat, idx, how in s.answers}
        asked = [seat for seat in range(SEATS) if self.game.legal_actions(seat)]
        for seat in asked:  # a failed write rolls back to the answers stored so far; the rest are tried again
            legal = self.game.legal_actions(seat)
            if seat in given:
                self._apply(seat, *given[seat])
                continue
            self.prompt_legal[seat] = legal
            action, how = self._choice(seat, legal)
            self.act_quiet(seat, action, how)  # "clock": the window's time ran out for the seat
        if self.game.held == "window":
            self._release(now)
        self.schedule = replace(self.schedule, window=None, answers=())

    def _release(self, now: int) -> None:
        """A held window or hand end goes on: the next draw, deal or the end of the game."""
        n0 = len(self.game.events)
        self.game.release()
        self._changed(n0, None)

    def _release_quiet(self) -> None:
        """The same while a stored table is rebuilt (nothing stored again)."""
        n0 = len(self.game.events)
        self.game.release()
        self._changed(n0, None, store=False)

    def act_quiet(self, seat: int, action: Action, how: str) -> None:
        """Apply ``action`` for ``seat`` now (a bot that chose something illegal plays its fallback)."""
        legal = self.game.legal_actions(seat)
        idx = next((i for i, a in enumerate(legal) if a is action or a == action), None)
        if idx is None:
            log.warning("table %s: %s chose an illegal %s", self.id, self.kinds[seat], action)
            idx = legal.index(fallback(legal))
        self._apply(seat, idx, how)

    def _apply(self, seat: int, idx: int, how: str, *, store: bool = True) -> None:
        g = self.game
        action = g.legal_actions(seat)[idx]
        n0 = len(g.events)
        g.apply(action)
        self.actions += 1
        self.history.append((seat, idx, how))
        self._changed(n0, (seat, idx, action, how) if store else None, store=store)
        self.answered[seat] = True

    def _changed(self, n0: int, action: tuple[int, int, Action, str] | None, *, store: bool = True) -> None:
        """After the game changed: the step (an action, or a released hold) waits in ``pending``
        for :meth:`_settle`, which stores the transition's steps with the schedule they lead to."""
        self.seq += 1
        if store:
            if self.pending_from is None:
                self.pending_from = n0
            self.pending.append(action)
        self._note_hands(n0)

    def _settle(self, now: int, done: Done | None = None) -> None:
        """After a transition: open the prompts the game asks for now, the window, the pause; store
        the transition (its actions, events and schedule, one write) before anyone is told; then
        :meth:`_stored`. The write is done at once (SQLite) or out while the loop serves the other
        tables (PostgreSQL: ``store.tables.MoveWriter``); until it is done the table is
        :attr:`writing`: what it holds is not yet told, so nothing else reads or changes it."""
        if self._closed:
            return
        first = self._release_at_once(now)
        if first is None:
            self._sync(now)
        self.writing = True
        self.tables.flush(self, functools.partial(self._stored, now, first, done))

    def _stored(self, now: int, first: list[Callable[[], None]] | None, done: Done | None,
                outcome: bool | Exception) -> None:
        """The transition's write is done: tell every listener and arm the clock for the next
        timer; False: not stored, this process no longer runs the table (web/shared.py took it
        back). A write that failed changes nothing: the table goes back to what was stored and
        told, its timer is armed again (the transition that is due is tried again ``RETRY_MS``
        later) and ``done`` gets the error (503). Then what waited for the write runs."""
        self.writing = False
        try:
            if outcome is False:
                return
            if isinstance(outcome, Exception):  # whatever the store raised: nothing of it stays in memory
                if self._closed:  # (the server stops)
                    return
                error = self._rollback(outcome, now)
                self._arm(now, now + RETRY_MS)
                if done is not None:
                    done(error)
                return
            for tell in first or ():
                tell()
            self._notify()
            if done is not None:
                done(None)
            if self.game.done:
                self.tables.release(self)
                return
            self._arm(now)
        finally:
            self._drain()

    def later(self, run: Callable[[], None]) -> bool:
        """While a write is out: ``run`` waits for it (skipped if the table is closed by then); True."""
        if not self.writing:
            return False
        self._after.append(lambda: None if self._closed else run())
        return True

    async def ready(self) -> None:
        """Returns when no write of this table is out: what the table holds is what it stored and
        told (a connection reads it only then: joining, or a seat's message)."""
        while self.writing:
            waited = asyncio.get_running_loop().create_future()
            self._after.append(functools.partial(_wake, waited))
            await waited

    def _drain(self) -> None:
        """Run what waited for the write, in order, until one starts another write."""
        while self._after and not self.writing:
            run = self._after.popleft()
            try:
                run()
            except Exception:  # (a seat's request gone stale meanwhile, a listener's bug): the rest still run
                log.exception("table %s: what waited for a write failed", self.id)

    def _release_at_once(self, now: int) -> list[Callable[[], None]] | None:
        """A window that no seat may answer, with no call window's time to wait (``call`` 0), goes on
        now, in this transition and its one write (issue 22: not a transition and a write of its
        own). Every listener is still told the discard (or added kan) alone, before what follows it
        (issue 23: batching never tells whether a seat was asked): what it would be told now is
        taken here (``Listener.preview``: no prompt is open in a window nobody may answer) and told
        once the write has stored both; the rest is told after it. Returns those first tellings,
        the table synced (:meth:`_sync`) after the release; None when nothing is released (the
        caller syncs). The schedule is synced once, after the release: a sync at the held window
        would only close every prompt, and the one after the release opens them from there alike."""
        if self.game.held != "window" or self.schedule.window is not None or self.pace.call > 0 or self.abandoned:
            return None
        first = [tell for listener in list(self.listeners) if (tell := listener.preview(self)) is not None]
        self._release(now)
        self._sync(now)
        return first

    def _sync(self, now: int) -> None:
        g, s = self.game, self.schedule
        held = g.held
        asking = list(map(g.legal_actions, range(SEATS)))
        in_window = held == "window"
        if not in_window:  # a call or a win on another's tile, or its pass, is asked of a seat
            for legal in asking:
                for a in legal:
                    if a.type == "none":
                        in_window = True
                        break
        window = s.window if in_window else None
        if in_window and window is None and self.pace.call > 0:
            window = now + self.pace.call
        pause, ready = (s.pause, s.ready) if held == "hand" else (None, frozenset[int]())
        if held == "hand" and pause is None:
            pause = now + self.pace.result
        prompts, numbers = list(s.prompts), list(s.numbers)
        for seat, legal in enumerate(asking):
            if not legal or (s.answers and s.answered(seat)):
                prompts[seat] = None
                self.prompt_legal[seat] = ()
                continue
            if prompts[seat] is None or self.answered[seat] or legal != self.prompt_legal[seat]:
                numbers[seat] += 1
                prompts[seat] = open_prompt(self.pace, seat=seat, number=numbers[seat], now=now,
                                            bank=self.banks[seat], bot=seat in self.driver.bots, window=window,
                                            call=in_window)
                self.prompt_legal[seat] = legal
                self.answered[seat] = False
        away = None
        if self.outside:  # the abandon timer runs while nobody who plays from outside is here
            for seat in self.outside:
                if self.connected[seat] + self.remote[seat]:
                    break
            else:
                away = s.away if s.away is not None else now
        self.schedule = Schedule(tuple(prompts), tuple(numbers), window, s.answers if window is not None else (),
                                 pause, ready, away)

    def _arm(self, now: int, retry: int | None = None) -> None:
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None
        due = self._next(now)
        if due is None or self._closed:
            return
        try:
            self._wakeup = self.time.call_at(max(due[0], retry or 0), self.tick)
        except RuntimeError:  # not on the loop (start-up, a unit test): the next transition arms it
            self._wakeup = None

    def _note_hands(self, n0: int) -> None:
        """Hand boundaries among the new events (for reconnects and hand results)."""
        events = self.game.events
        for i in range(max(n0, 1), len(events)):
            t = events[i]["type"]
            if t == "end_kyoku":
                chips = [c - h for c, h in zip(self.game.chips, self.hand_chips, strict=True)]
                # the game's last hand: its end_game follows, or comes when the held hand end is released
                final = events[i + 1]["type"] == "end_game" if i + 1 < len(events) else self.game.ends_game
                self.results.append((i + 1, hand_result(self.rules, events[self.hand_start:i + 1],
                                                        self.game.hand_results[-1], chips, final=final)))
                self.hand_chips = list(self.game.chips)
            elif t == "start_kyoku":
                self.hand_start = i

    def claim(self, seat: int, player: str) -> None:
        """The browser player ``player`` sits at ``seat`` (the first one to connect keeps it)."""
        if self.players[seat] is None and not self.finished and stored.claim_seat(self.tables.store, self.id, seat,
                                                                                   player):
            self.players[seat] = player

    def store_players(self) -> list[str | None]:
        """The store's player each seat counts for (``web:ID`` of the browser player who sat there),
        as stored: with several processes a seat may have been claimed through another one."""
        claimed = stored.seat_players(self.tables.store, self.id) or self.players
        return [None if p is None else store_name(p) for p in claimed]

    def _notify(self) -> None:
        for listener in list(self.listeners):
            try:
                listener.update(self)
            except Exception:  # pragma: no cover - a broken connection is dropped by its handler
                log.exception("table %s: a listener failed", self.id)

    def close(self) -> None:
        self._closed = True
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None
        self.driver.close()


def _wake(waited: asyncio.Future[None]) -> None:
    if not waited.done():
        waited.set_result(None)


def _seconds(banks: Sequence[int]) -> list[float]:
    return [b / 1000 for b in banks]


def _kept(name: str, value: Any) -> Any:
    """A column's value as last stored (``Tables.flush``): a copy of the banks and toggles, which
    the table changes in place."""
    if name == "toggles":
        return [dict(t) for t in value]
    return list(value) if name == "banks" else value


def _column(table: Table, name: str) -> str:
    """The JSON text of one of the runner's ``web_tables`` columns, as stored."""
    if name == "schedule":
        return table.schedule.text()
    if name == "banks":
        return json.dumps(_seconds(table.banks))
    if name == "toggles":
        return json.dumps(table.toggles)
    g = table.game
    return json.dumps({"scores": list(g.scores), "round": table.round(), "hands": len(g.hand_results)})


# --------------------------------------------------------------------------------------------
# All tables, and their persistence
# --------------------------------------------------------------------------------------------


class Tables:
    """The server's tables over one ``Store``. ``node``: this process's key when several processes
    share a PostgreSQL database (``web/shared.py``, which then sets ``shared``)."""

    def __init__(self, store: Store, clock: Clock | None = None, limits: Limits | None = None,
                 node: int | None = None, writer: stored.MoveWriter | None = None) -> None:
        self.store = store
        self.writer = writer  # PostgreSQL, served: the moves are written off the event loop (Table._settle)
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.limits = limits if limits is not None else Limits()
        self.meter = Meter(self.limits, lambda: self.clock.now() / 1000)
        self.running: dict[str, Table] = {}
        self.opening: list[Table] = []  # new tables whose row is being written (Tables.open)
        self.broken: dict[str, Message] = {}  # unfinished tables that could not be resumed: why (broken_reason)
        self.sockets = Sockets(self.limits)  # open WebSockets per client address (tables' and the keeper's)
        self.node = node
        self.shared: Shared | None = None

    # -- creating and finding --------------------------------------------------------------
    def create(self, body: Any, client: str = "?") -> tuple[Table, list[str]]:
        """A new table for ``client`` (its address: the caps and rates are per client), stored at once."""
        table, tokens, row = self._new(body, client)
        stored.create_table(self.store, row, table.game.events)
        self._run_new(table)
        return table, tokens

    async def open(self, body: Any, client: str = "?") -> tuple[Table, list[str]]:
        """:meth:`create` for ``POST /api/tables``: on PostgreSQL the new table's row is written by
        the :attr:`writer` while the loop serves the other tables (its durable commit held it for
        each new table: issue 22); the table runs, and its links are answered, once it is stored
        (a seat may sit down on another process at once)."""
        if self.writer is None:
            return self.create(body, client)
        table, tokens, row = self._new(body, client)
        self.opening.append(table)  # counted by the caps while it is written
        try:
            await self.writer.create(row, table.game.events)
        except StoreError as e:
            log.warning("table %s not created: %s", table.id, e)
            raise not_stored() from None
        finally:
            self.opening.remove(table)
        self._run_new(table)
        return table, tokens

    def _new(self, body: Any, client: str) -> tuple[Table, list[str], stored.NewTable]:
        """A new table within the caps, not yet stored nor run; its seats' tokens and its row."""
        settings = parse_settings(body)
        lim = self.limits
        if len(self.running) + len(self.opening) >= lim.tables:
            raise TableError(sentence("this server runs as many tables as it may ({n}); try again later", code="full",
                                      n=lim.tables), 503)
        mine = [t for t in (*self.running.values(), *self.opening) if t.creator == client]
        if len(mine) >= lim.tables_per_client:
            raise TableError(sentence("you already run {n} unfinished tables here (the most one client may); "
                                      "finish one first", code="rate", n=lim.tables_per_client), 429)
        if not self.meter.allow(client, "tables"):
            raise TableError(sentence("more than {n:g} new tables a minute; wait a little", code="rate",
                                      n=lim.tables_per_minute), 429)
        table_id = secrets.token_urlsafe(9)
        while table_id.startswith("-"):  # an id is a command-line argument too (sanma verify --db DB ID)
            table_id = secrets.token_urlsafe(9)
        tokens = [secrets.token_urlsafe(24) for _ in range(SEATS)]
        table, row = self._table(table_id, settings, [_token_hash(t) for t in tokens], client)
        return table, tokens, row

    def _table(self, table_id: str, settings: Settings, token_hashes: Sequence[str],
               client: str) -> tuple[Table, stored.NewTable]:
        """A new table (not yet stored nor run) and its row."""
        toggles = [dict(DEFAULT_TOGGLES) for _ in range(SEATS)]
        banks = [settings.clock["bank"]] * SEATS
        table = Table(self, table_id, settings, token_hashes, toggles, banks, _now())
        table.creator = client
        seats = [{"kind": k, "name": n, "token_sha256": th}
                 for k, n, th in zip(settings.kinds, settings.names, table.token_hashes, strict=True)]
        table.stored = {"toggles": json.dumps(toggles), "banks": json.dumps(banks)}
        return table, stored.NewTable(
            table_id, settings.rules.name, json.dumps(to_dict(settings.rules)), tuple(seats), settings.seed,
            table.seed_hash, settings.clock, tuple(toggles), tuple(banks), table.created_at,
            settings.wall_key.hex() if settings.wall_key is not None else None, self.node)

    def _run_new(self, table: Table) -> None:
        """A new table, stored: run here from now on."""
        self.running[table.id] = table
        table.start()

    def rematch(self, table_id: str, token: str | None, client: str = "?") -> tuple[str, bool]:
        """Issue 18 item 4: the same seats and rules again, with a fresh secret seed, asked by a person
        of the finished table (its seat ``token``). Every seat keeps its invite token (each person goes
        on with the link they have; nobody is handed another's), so the rematch is a table whose id
        follows from this one's: asked twice, by two people, it is made once. Returns the rematch's
        id and whether this call made it."""
        row = stored.table(self.store, table_id) if len(table_id) <= 64 else None
        if row is None:
            raise TableError(sentence("no table {table!r}", code="no_such_table", table=table_id), 404)
        if not row.finished:
            raise TableError(sentence("table {table!r} is still being played: a rematch comes after the game",
                                      code="in_play", table=table_id), 409)
        hashes = [str(s["token_sha256"]) for s in row.seats]
        h = _token_hash(token) if token and len(token) <= 200 else ""
        seat = next((i for i, th in enumerate(hashes) if h and hmac.compare_digest(h, th)), None)
        if seat is None or row.seats[seat]["kind"] != "human":
            raise TableError(sentence("only a person of this table (their seat's token) can ask for a rematch",
                                      code="bad_token"), 403)
        new_id = rematch_id(table_id)
        if stored.exists(self.store, new_id):
            return new_id, False
        if len(self.running) >= self.limits.tables:
            raise TableError(sentence("this server runs as many tables as it may ({n}); try again later", code="full",
                                      n=self.limits.tables), 503)
        kinds = tuple(str(s["kind"]) for s in row.seats)
        rules = from_dict(row.rules, f"table {table_id}", name=row.rules_name)
        settings = Settings(rules, kinds, tuple(str(s["name"]) for s in row.seats), str(secrets.randbits(64)),
                            dict(row.clock), wall_key_for(kinds))
        table, new = self._table(new_id, settings, hashes, client)
        stored.create_table(self.store, new, table.game.events)
        self._run_new(table)
        return new_id, True

    def rematch_of(self, table_id: str) -> str | None:
        """The rematch of a table, once someone asked for it."""
        new_id = rematch_id(table_id)
        return new_id if stored.exists(self.store, new_id) else None

    def get(self, table_id: str) -> Table:
        """The live table (a WebSocket's): a running one, one another process runs (followed here),
        or a finished one rebuilt from the store for this caller only (it is not kept: finished
        tables live in the store)."""
        table = self.running.get(table_id)
        if table is None:
            self._check(table_id)
            try:
                if self.shared is not None and not stored.is_finished(self.store, table_id):
                    return self.shared.follow(table_id)  # another process runs it
                table = self._load(table_id)
            except TableError:
                raise
            except Exception as e:  # a stored table that cannot be rebuilt is refused, named
                why = broken_reason(e)
                log.warning("table %s cannot be rebuilt", table_id, exc_info=True)
                raise TableError(sentence("table {table!r} cannot be rebuilt from the database: {why}",
                                          code="broken", table=table_id, why=why), 409) from None
        return table

    def info(self, table_id: str) -> Table | StoredTable:
        """What ``GET /api/tables/ID`` shows: the running table, else the stored one."""
        table = self.running.get(table_id)
        if table is not None:
            return table
        self._check(table_id)
        if self.shared is not None and not stored.is_finished(self.store, table_id):
            return self.shared.follow(table_id)
        return StoredTable.load(self.store, table_id)

    async def public(self, table_id: str) -> dict[str, Any]:
        """``GET /api/tables/ID``: a running table's once what it holds is stored and told."""
        t = self.info(table_id)
        while isinstance(t, Table) and t.writing:
            await t.ready()
            t = self.info(table_id)
        return t.public()

    def _check(self, table_id: str) -> None:
        if len(table_id) > 64 or not self._exists(table_id):
            raise TableError(sentence("no table {table!r}", code="no_such_table", table=table_id), 404)
        if table_id in self.broken:
            raise TableError(sentence("table {table!r} could not be resumed: {why}", code="broken", table=table_id,
                                      why=self.broken[table_id]), 409)

    def _exists(self, table_id: str) -> bool:
        return stored.exists(self.store, table_id)

    def listing(self) -> list[dict[str, Any]]:
        """The lobby's list, newest first: every table with its round and scores (a running table's
        from its game, a finished one's final scores from its stored ``end_game``)."""
        out = []
        for row in stored.listing(self.store, 200):
            entry: dict[str, Any] = {
                "id": row.id, "rules": row.rules_name, "finished": row.finished, "created_at": row.created_at,
                "seed_hash": row.seed_hash,
                "seats": [{"seat": i, "kind": s["kind"], "name": s["name"]} for i, s in enumerate(row.seats)]}
            t = self.running.get(row.id)
            if t is not None and not t.finished and not t.writing:
                entry.update(scores=list(t.game.scores), round=t.round())
            elif row.status is not None:  # run by another process, or its move being written: as stored
                entry.update(scores=list(row.status["scores"]), round=row.status["round"])
            elif row.final_scores is not None:
                entry["scores"] = list(row.final_scores)
            elif row.finished:  # finished without a game: abandoned
                entry["abandoned"] = True
            out.append(entry)
        return out

    def finished_events(self, table_id: str) -> tuple[StoredTable, list[dict[str, Any]]]:
        """A finished table and its full events, from the store; ``TableError`` 409 while it runs."""
        table = self.info(table_id)
        if not table.finished:
            raise TableError(sentence("table {table!r} is still being played: its record exists after the game",
                                      code="in_play", table=table_id), 409)
        stored = table if isinstance(table, StoredTable) else StoredTable.load(self.store, table_id)
        if stored.abandoned:
            raise TableError(sentence("table {table!r} was abandoned before its game ended: it has no record",
                                      code="abandoned", table=table_id), 409)
        return stored, list(stored.events)

    def release(self, table: Table) -> None:
        """Forget a finished, stored table (its connections keep their reference until they close)."""
        if self.running.get(table.id) is table:
            del self.running[table.id]

    # -- persistence -----------------------------------------------------------------------
    def flush(self, table: Table, then: Callable[[bool | Exception], None]) -> None:
        """Store the table's transition before anyone is told: its pending actions and the events
        since the first of them (a released hold has events and no action), and the banks, toggles,
        lobby status and (several processes: what a process that takes the table over goes on
        from) the schedule, where they changed — one write; then ``then`` gets its outcome: True
        (stored), False (the table is no longer this process's to run: another took it over,
        several processes, web/shared.py) or whatever the store raised (nothing of the transition
        is stored; ``Table._stored`` rolls the table back). A finished game is stored as a game in
        the same transaction. The write is done before this returns, except on PostgreSQL, where
        the :attr:`writer` sends it (a game's end included) and the outcome comes once PostgreSQL
        answers (the event loop serves the other tables meanwhile)."""
        g = table.game
        kept = table.stored_values
        # compared by value with what was stored: JSON is made only for a column whose value changed
        fresh: list[tuple[str, Any]] = []
        if kept.get("banks") != table.banks:
            fresh.append(("banks", table.banks))
        if kept.get("toggles") != table.toggles:
            fresh.append(("toggles", table.toggles))
        if self.node is not None and kept.get("schedule") != table.schedule:
            fresh.append(("schedule", table.schedule))  # read only by a process that takes the table over
        if table.pending or g.done:  # the lobby's scores and round: they change with a hand, a riichi, the end
            status = (table.hand_start, len(g.hand_results), g.kyotaku, tuple(g.scores), g.done)
            if kept.get("status") != status:
                fresh.append(("status", status))
        changed: dict[str, str] = {}
        for k, _ in fresh:
            text = _column(table, k)
            if table.stored.get(k) != text:
                changed[k] = text
        if not table.pending and not changed:
            for k, v in fresh:  # the same JSON as stored: nothing to write
                kept[k] = _kept(k, v)
            then(True)
            return
        steps = [a for a in table.pending if a is not None]
        first = table.pending_from if table.pending_from is not None else len(g.events)
        at = _now()
        actions = [stored.ActionRow(table.actions - len(steps) + i, seat, idx, act.to_mjai(), how, at)
                   for i, (seat, idx, act, how) in enumerate(steps)]
        w = stored.Write(first, g.events[first:], actions, runner=self.node,
                         notice=self.shared.notice(table, first, changed) if self.shared is not None else None,
                         **changed)
        try:
            if self.writer is not None:  # the loop goes on; the outcome comes when PostgreSQL answers
                # (a finished game in the same statement, before anyone is told; a shutdown waits for it: settle)
                game = self.store.new_game(g.events, rules=table.rules, seed=table.seed,
                                           players=table.store_players()) if g.done else None
                self.writer.send(table.id, w, functools.partial(self._sent, table, fresh, changed, then), game=game)
                return
            if g.done:  # stored as a finished game at once, before anyone is told (a shutdown cannot lose it)
                with self.store.transaction():
                    written = stored.write(self.store, table.id, w)
                    if written:
                        stored.finish(self.store, table.id, g.events, table.rules, table.seed,
                                      players=table.store_players(), runner=self.node)
            else:  # one write, in its own transaction (no savepoint inside another: each is a statement)
                written = stored.write(self.store, table.id, w)
        except Exception as e:
            then(e)
            return
        then(self._written(table, written, fresh, changed))

    def _sent(self, table: Table, fresh: list[tuple[str, Any]], changed: dict[str, str],
              then: Callable[[bool | Exception], None], answer: bool | StoreError) -> None:
        then(answer if isinstance(answer, StoreError) else self._written(table, answer, fresh, changed))

    def _written(self, table: Table, written: bool, fresh: list[tuple[str, Any]], changed: dict[str, str]) -> bool:
        """What the table keeps of a write that is done: what it stored, or (False) that it is lost."""
        if not written:
            if self.shared is not None:
                self.shared.lost(table)
            return False
        table.pending.clear()
        table.pending_from = None
        table.stored.update(changed)
        table.stored_schedule = table.schedule
        kept = table.stored_values
        for k, v in fresh:
            kept[k] = _kept(k, v)
        if table.game.done:
            table.close()
        return True

    async def settle(self, timeout: float = SETTLE_SECONDS) -> bool:
        """Until the writes out are answered (a server that stops lets them end), at most ``timeout``
        seconds (a database that stopped answering must not keep the server from stopping: what is
        still out is then refused as the writer closes, as when its connection is lost); whether
        every write was answered."""
        if self.writer is None:
            return True
        try:
            await asyncio.wait_for(self.writer.drain(), timeout)
        except TimeoutError:
            log.warning("%d writes not answered after %g s: not waited for", self.writer.pending, timeout)
            return False
        return True

    def abandon(self, table: Table) -> bool:
        """Stored as abandoned: ended, with no game (``finished`` and no ``game_id``): not resumed.
        False when another process runs the table now (it is followed from now on)."""
        note = json.dumps({"t": table.id, "r": self.node, "abandoned": True}) if self.shared is not None else None
        if stored.abandon(self.store, table.id, runner=self.node, notice=note):
            return True
        if self.shared is not None and not stored.is_finished(self.store, table.id):
            self.shared.lost(table)
            return False
        return True  # marked already

    def finish(self, table: Table) -> None:
        """A finished game becomes a stored record (``sanma replay`` / ``sanma stats`` read it)."""
        if stored.finish(self.store, table.id, table.game.events, table.rules, table.seed,
                         players=table.store_players()) is not None:
            table.close()

    # -- restart ---------------------------------------------------------------------------
    def resume(self) -> int:
        """Rebuild every unfinished table from its seed and stored actions; how many. A table that
        cannot be rebuilt (or finished) is skipped and reported — in the log and, for its pages and
        its API, as a 409 naming why (``broken``) — and the others go on: one table never keeps
        the server from starting (issue 23 item 2). (Several processes: web/shared.py takes up the
        tables nobody runs instead.)"""
        if self.shared is not None:
            return self.shared.sweep()
        resumed = 0
        for tid in stored.unfinished(self.store):
            if self.load_or_report(tid) is not None:
                resumed += 1
        return resumed

    def load_or_report(self, table_id: str) -> Table | None:
        """:meth:`_load`, or None when the table cannot be rebuilt: reported as ``broken``."""
        try:
            return self._load(table_id)
        except Exception as e:  # whatever stops one table must not stop the server
            self.running.pop(table_id, None)
            self.broken[table_id] = broken_reason(e)  # a code and its sentence, put into words per request
            log.warning("table %s not resumed: %s", table_id, e, exc_info=True)  # the details: the log's only
            return None

    def _load(self, table_id: str) -> Table:
        """A stored table rebuilt and run by this process (a finished one: for one caller only)."""
        table = self.rebuild(table_id)
        if table.finished or table.abandoned:  # rebuilt for one caller (a page on a finished table): not kept
            table.close()
        else:
            self.running[table_id] = table
            table.start()
        return table

    def rebuild(self, table_id: str, *, follow: bool = False) -> Table:
        """A table as the store has it: its game replayed from the seed and the stored actions (a
        release wherever the stored events go on past a hold) and its scheduler state as stored,
        so every deadline is where it was. ``follow``: a :class:`~sanma.web.shared.FollowedTable`
        of a table another process runs (no bots consulted, no timers)."""
        row = stored.table(self.store, table_id)
        if row is None:
            raise TableError(sentence("no table {table!r}", code="no_such_table", table=table_id), 404)
        rules = from_dict(row.rules, f"table {table_id}", name=row.rules_name)
        settings = Settings(rules, tuple(s["kind"] for s in row.seats), tuple(s["name"] for s in row.seats), row.seed,
                            row.clock, bytes.fromhex(row.wall_key) if row.wall_key else None)
        kind: type[Table] = Table
        if follow:
            from .shared import FollowedTable

            kind = FollowedTable
        table = kind(self, table_id, settings, [s["token_sha256"] for s in row.seats], row.toggles, row.banks,
                     row.created_at)
        table.players = [s.get("player") for s in row.seats]
        finished = row.finished
        actions = [(a.seat, a.legal_idx, a.how) for a in stored.actions(self.store, table_id)]
        table.replay(actions, stored.event_count(self.store, table_id), bots_decide=not finished and not follow)
        g = table.game
        table.abandoned = finished and not g.done
        table.stored = dict(row.columns)
        table.runner = row.runner
        if row.schedule is not None and not g.done and self.node is not None:
            # taken over from another process (several processes): every deadline goes on where it was;
            # one process restarted on its own file starts what it waits for again from the restart
            table.restore(Schedule.from_json(json.loads(row.schedule)))
            table.stored_schedule = table.schedule
        if g.done and not finished and not follow:  # stopped after the last action, before it was marked finished
            self.finish(table)
        return table

    def close(self) -> None:
        for t in self.running.values():
            t.close()
        self.running.clear()
