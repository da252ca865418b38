"""The served tables: the server's game state, its only authority, kept in SQLite.

A ``Table`` holds one ``Game`` and decides everything: the seats' legal actions, the bots' moves,
the auto toggles, the clock. Every applied action and the events it caused are written in one
transaction before anyone is told (``web_actions`` / ``web_events``); ``Tables.resume`` rebuilds
an unfinished table from its seed by re-applying the stored actions (bots are seeded and are
consulted again, so they go on as they were). Connections (``ws.py``) subscribe to a table and
are sent what ``sanma.game.view`` lets their seat see.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..bots import BOTS, Bot, make_bot
from ..bots.mjai import fallback
from ..errors import SanmaError
from ..game.actions import Action
from ..game.engine import Game
from ..game.view import SeatPublic, public_events, public_seats
from ..rules import Rules
from ..rules.loader import from_dict, load_preset, parse_toml, to_dict
from ..store import Store
from ..store import tables as stored
from ..tiles import SEATS
from .players import store_name
from .results import hand_result, settlement

log = logging.getLogger("sanma.web")

SEAT_KINDS = ("human", "mjai")  # besides the built-in bots of sanma.bots.BOTS
TOGGLE_NAMES = ("auto_win", "auto_kita", "no_calls", "auto_tsumogiri", "auto_sort")
DEFAULT_TOGGLES: dict[str, bool] = {"auto_win": False, "auto_kita": False, "no_calls": False,
                                    "auto_tsumogiri": False, "auto_sort": True}
DEFAULT_CLOCK: dict[str, float] = {"move": 15.0, "bank": 60.0}
MAX_CLOCK = 3600.0
MAX_NAME = 40
MAX_SEED = 200


class TableError(SanmaError):
    """A request the server refuses (bad table settings, unknown table, bad token); nothing changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


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
        raise TableError("the request body must be a JSON object")
    unknown = set(body) - {"rules", "rules_toml", "seats", "names", "seed", "clock"}
    if unknown:
        raise TableError(f"unknown field(s) {', '.join(sorted(unknown))}")
    rules = _rules_of(body)
    seats = body.get("seats")
    if not isinstance(seats, list) or len(seats) != SEATS or not all(isinstance(s, str) for s in seats):
        raise TableError(f"'seats' must be a list of {SEATS} seat kinds (human, mjai or a bot name)")
    for i, s in enumerate(seats):
        if s not in SEAT_KINDS and s not in BOTS:
            raise TableError(f"seat {i}: unknown kind {s!r}; choose from {', '.join((*SEAT_KINDS, *sorted(BOTS)))}")
    names = body.get("names")
    if names is None:
        # a person's or an external bot's seat is "Player N" (never a wind word: "South discards S")
        names = [s if s in BOTS else f"Player {i + 1}" for i, s in enumerate(seats)]
    if (not isinstance(names, list) or len(names) != SEATS
            or not all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME for n in names)):
        raise TableError(f"'names' must be {SEATS} non-empty names of at most {MAX_NAME} characters")
    seed = body.get("seed")
    if seed is None:
        seed_text = str(secrets.randbits(64))  # fairness: unguessable unless the creator chose one
    elif isinstance(seed, bool) or not isinstance(seed, int | str) or not 0 < len(str(seed)) <= MAX_SEED:
        raise TableError(f"'seed' must be an integer or a string of at most {MAX_SEED} characters")
    else:
        seed_text = str(seed)
    return Settings(rules, tuple(seats), tuple(n.strip() for n in names), seed_text, _clock_of(body.get("clock")),
                    wall_key_for(seats))


def _rules_of(body: dict[str, Any]) -> Rules:
    spec, toml = body.get("rules"), body.get("rules_toml")
    try:
        if toml is not None:
            if spec is not None:
                raise TableError("give either 'rules' or 'rules_toml', not both")
            if not isinstance(toml, str) or len(toml) > 64_000:
                raise TableError("'rules_toml' must be the text of a rule file (at most 64 kB)")
            return from_dict(parse_toml(toml, "the uploaded rule file"), "the uploaded rule file")
        if isinstance(spec, str):
            return load_preset(spec)
        if isinstance(spec, dict):
            return from_dict(spec, "'rules'")
    except TableError:
        raise
    except SanmaError as e:
        raise TableError(str(e)) from None
    raise TableError("'rules' must be a preset name or a rule object ({\"extends\": NAME, ...})")


def _clock_of(value: Any) -> dict[str, float]:
    if value is None:
        return dict(DEFAULT_CLOCK)
    if not isinstance(value, dict) or set(value) - {"move", "bank"}:
        raise TableError("'clock' must be {\"move\": seconds, \"bank\": seconds}")
    out = dict(DEFAULT_CLOCK)
    for k, v in value.items():
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= MAX_CLOCK:
            raise TableError(f"clock {k!r} must be a number of seconds from 0 to {MAX_CLOCK:g}")
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

Listener = Callable[["Table"], None]


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

    @staticmethod
    def load(store: Store, table_id: str) -> StoredTable:
        row = stored.table(store, table_id)
        if row is None:
            raise TableError(f"no table {table_id!r}", 404)
        if not row.finished:
            raise TableError(f"table {table_id!r} is still being played", 409)
        return StoredTable(table_id, from_dict(row.rules, f"table {table_id}", name=row.rules_name),
                           tuple(s["kind"] for s in row.seats), tuple(s["name"] for s in row.seats), row.seed,
                           row.seed_hash, row.clock, row.created_at, tuple(stored.events(store, table_id)),
                           bytes.fromhex(row.wall_key) if row.wall_key else None)

    def public(self) -> dict[str, Any]:
        seats = [{"seat": s, "kind": k, "name": self.names[s], "connected": k in BOTS}
                 for s, k in enumerate(self.kinds)]
        end = self.events[-1]
        return _public(self, seats, list(end["scores"]), round_of(self.events),
                       sum(1 for e in self.events if e["type"] == "end_kyoku"), settlement(self.rules, end))


class Table:
    """One served game. Driven by ``kick()``; all its methods run on the server's event loop."""

    def __init__(self, tables: Tables, table_id: str, settings: Settings, token_hashes: Sequence[str],
                 toggles: Sequence[dict[str, bool]], banks: Sequence[float], created_at: str) -> None:
        self.tables = tables
        self.id = table_id
        self.rules = settings.rules
        self.kinds = settings.kinds
        self.names = settings.names
        self.seed = settings.seed
        self.seed_hash = seed_hash(settings.seed)
        self.wall_key = settings.wall_key
        self.clock = settings.clock
        self.token_hashes = tuple(token_hashes)
        self.players: list[str | None] = [None] * SEATS  # the browser player who sat at each seat (web/players.py)
        self.toggles = [dict(t) for t in toggles]
        self.banks = [float(b) for b in banks]
        self.stored_banks = list(self.banks)  # as the database has them
        self.created_at = created_at
        self.game = Game(self.rules, seed=self.seed, names=self.names, wall_key=self.wall_key)
        self.bots: dict[int, Bot] = {s: make_bot(k, seed=f"{self.seed}-bot-{s}", rules=self.rules)
                                     for s, k in enumerate(self.kinds) if k in BOTS}
        self.seq = 0  # actions applied
        self.fed = 0  # events the bots have been given
        self.prompt_seq = [-1] * SEATS  # the seq a seat's open prompt carries
        self.prompt_legal: list[tuple[Action, ...]] = [()] * SEATS
        self.prompt_at = [0.0] * SEATS
        self.acted = [-1] * SEATS  # the seq right after each seat's last applied action
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.listeners: set[Listener] = set()
        self.connected = [0] * SEATS
        self.hand_start = 1  # index of the current hand's start_kyoku event
        self.hand_chips = [0] * SEATS  # chips when the current hand started
        self.results: list[tuple[int, dict[str, Any]]] = []  # (events count when sent, hand result)
        self._running = False
        self._task: asyncio.Task[None] | None = None
        self._public_key: tuple[int, int] = (-1, -1)
        self._public: tuple[tuple[SeatPublic, ...], list[dict[str, Any]]] = ((), [])
        self._note_hands(0)

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
        return [{"seat": s, "kind": k, "name": self.names[s], "connected": self.connected[s] > 0 or k in BOTS}
                for s, k in enumerate(self.kinds)]

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

    # -- acting ----------------------------------------------------------------------------
    def act(self, seat: int, action: Action, how: str) -> None:
        """Apply one of ``seat``'s legal actions: stored with its events in one transaction, then told."""
        legal = self.game.legal_actions(seat)
        idx = next(i for i, a in enumerate(legal) if a is action or a == action)
        self._apply(seat, idx, how)
        self.kick()

    def _apply(self, seat: int, idx: int, how: str, *, store: bool = True) -> None:
        g = self.game
        legal = g.legal_actions(seat)
        action = legal[idx]
        if seat in self.timers:
            self.timers.pop(seat).cancel()
        if how == "seat" and self.clock["move"] > 0 and store:
            used = time.monotonic() - self.prompt_at[seat]
            self.banks[seat] = max(0.0, self.banks[seat] - max(0.0, used - self.clock["move"]))
        elif how == "clock":
            self.banks[seat] = 0.0
        n0 = len(g.events)
        g.apply(action)
        self.seq += 1
        self.acted[seat] = self.seq
        if store:
            self.tables.persist_action(self, seat, idx, action, how, g.events[n0:])
            if g.done:  # stored as a finished game at once, before anyone is told (a shutdown cannot lose it)
                self.tables.finish(self)
        self._note_hands(n0)

    def _note_hands(self, n0: int) -> None:
        """Hand boundaries among the new events (for reconnects and hand results)."""
        events = self.game.events
        for i in range(max(n0, 1), len(events)):
            t = events[i]["type"]
            if t == "end_kyoku":
                chips = [c - h for c, h in zip(self.game.chips, self.hand_chips, strict=True)]
                final = i + 1 < len(events) and events[i + 1]["type"] == "end_game"
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

    def set_toggle(self, seat: int, name: str, value: bool) -> None:
        self.toggles[seat][name] = value
        self.tables.persist_settings(self)
        self.kick()

    # -- driving ---------------------------------------------------------------------------
    def kick(self) -> None:
        """Play the bots' and the toggles' moves, then tell every listener (asynchronously)."""
        if self._running:
            return
        self._running = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the loop (start-up): the next event drives it
            self._running = False
            return
        self._task = loop.create_task(self._drive())

    async def _drive(self) -> None:
        try:
            while self._step():
                self._notify()
                await asyncio.sleep(0)  # other tables and connections go on between moves
            self._notify()
            self._arm_clocks()
            if self.game.done:  # stored and told: pages and the API read it from the store from now on
                self.tables.release(self)
        except Exception:  # pragma: no cover - a bug must not kill the server; the table stays where it was
            log.exception("table %s: driving failed", self.id)
        finally:
            self._running = False

    def _step(self) -> bool:
        """One automatic move (a bot's or a toggle's); False when only people and mjai bots can move."""
        g = self.game
        if g.done:
            return False
        for seat in g.to_move:
            legal = g.legal_actions(seat)
            if not legal:
                continue
            bot = self.bots.get(seat)
            if bot is not None:
                self._feed_bots()
                action = bot.act(g.view(seat) if bot.needs_view else None, legal)
                self.act_quiet(seat, action, "bot")
                return True
            auto = auto_action(legal, self.toggles[seat], g.seats[seat].riichi)
            if auto is not None and self.kinds[seat] == "human":
                self.act_quiet(seat, auto, "auto")
                return True
        return False

    def act_quiet(self, seat: int, action: Action, how: str) -> None:
        legal = self.game.legal_actions(seat)
        idx = next((i for i, a in enumerate(legal) if a is action or a == action), None)
        if idx is None:  # a bot that chose something illegal plays its fallback
            log.warning("table %s: %s chose an illegal %s", self.id, self.kinds[seat], action)
            idx = legal.index(fallback(legal))
        self._apply(seat, idx, how)

    def _feed_bots(self) -> None:
        g = self.game
        for s, bot in self.bots.items():
            if bot.follows_events:
                for e in public_events(g.log, s, self.fed, g.events):
                    bot.on_event(e)
        self.fed = len(g.log)

    def _notify(self) -> None:
        for seat in range(SEATS):
            legal = self.game.legal_actions(seat)
            # a new prompt: other actions, or the seat answered its prompt and must decide again (the
            # same actions can come back: draw 1p, discard it, draw another 1p)
            if legal != self.prompt_legal[seat] or (legal and self.acted[seat] > self.prompt_seq[seat]):
                self.prompt_legal[seat] = legal
                self.prompt_seq[seat] = self.seq
                self.prompt_at[seat] = time.monotonic()
                if seat in self.timers:
                    self.timers.pop(seat).cancel()
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:  # pragma: no cover - a broken connection is dropped by its handler
                log.exception("table %s: a listener failed", self.id)

    def deadline(self, seat: int) -> float | None:
        """When the seat's open prompt runs out (time.time() seconds), or None without a clock."""
        if self.clock["move"] <= 0 or not self.prompt_legal[seat]:
            return None
        left = self.clock["move"] + self.banks[seat] - (time.monotonic() - self.prompt_at[seat])
        return time.time() + max(0.0, left)

    def _arm_clocks(self) -> None:
        if self.clock["move"] <= 0 or self.game.done:
            return
        loop = asyncio.get_running_loop()
        for seat in self.game.to_move:
            if seat in self.timers or seat in self.bots or not self.prompt_legal[seat]:
                continue
            left = self.clock["move"] + self.banks[seat] - (time.monotonic() - self.prompt_at[seat])
            self.timers[seat] = loop.call_later(max(0.0, left), self._time_out, seat, self.prompt_seq[seat])

    def _time_out(self, seat: int, seq: int) -> None:
        self.timers.pop(seat, None)
        if self.prompt_seq[seat] != seq or self.game.done:
            return
        legal = self.game.legal_actions(seat)
        if legal:
            self.act(seat, fallback(legal), "clock")

    def close(self) -> None:
        for t in self.timers.values():
            t.cancel()
        self.timers.clear()
        for bot in self.bots.values():
            bot.close()


# --------------------------------------------------------------------------------------------
# All tables, and their persistence
# --------------------------------------------------------------------------------------------


class Tables:
    """The server's tables over one ``Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.running: dict[str, Table] = {}

    # -- creating and finding --------------------------------------------------------------
    def create(self, body: Any) -> tuple[Table, list[str]]:
        settings = parse_settings(body)
        table_id = secrets.token_urlsafe(9)
        while table_id.startswith("-"):  # an id is a command-line argument too (sanma verify --db DB ID)
            table_id = secrets.token_urlsafe(9)
        tokens = [secrets.token_urlsafe(24) for _ in range(SEATS)]
        return self._create(table_id, settings, [_token_hash(t) for t in tokens]), tokens

    def _create(self, table_id: str, settings: Settings, token_hashes: Sequence[str]) -> Table:
        toggles = [dict(DEFAULT_TOGGLES) for _ in range(SEATS)]
        banks = [settings.clock["bank"]] * SEATS
        table = Table(self, table_id, settings, token_hashes, toggles, banks, _now())
        seats = [{"kind": k, "name": n, "token_sha256": th}
                 for k, n, th in zip(settings.kinds, settings.names, table.token_hashes, strict=True)]
        stored.create_table(self.store, stored.NewTable(
            table_id, settings.rules.name, json.dumps(to_dict(settings.rules)), tuple(seats), settings.seed,
            table.seed_hash, settings.clock, tuple(toggles), tuple(banks), table.created_at,
            settings.wall_key.hex() if settings.wall_key is not None else None), table.game.events)
        self.running[table_id] = table
        table.kick()
        return table

    def rematch(self, table_id: str, token: str | None) -> tuple[str, bool]:
        """Issue 18 item 4: the same seats and rules again, with a fresh secret seed, asked by a person
        of the finished table (its seat ``token``). Every seat keeps its invite token (each person goes
        on with the link they have; nobody is handed another's), so the rematch is a table whose id
        follows from this one's: asked twice, by two people, it is made once. Returns the rematch's
        id and whether this call made it."""
        row = stored.table(self.store, table_id) if len(table_id) <= 64 else None
        if row is None:
            raise TableError(f"no table {table_id!r}", 404)
        if not row.finished:
            raise TableError(f"table {table_id!r} is still being played: a rematch comes after the game", 409)
        hashes = [str(s["token_sha256"]) for s in row.seats]
        h = _token_hash(token) if token and len(token) <= 200 else ""
        seat = next((i for i, th in enumerate(hashes) if h and hmac.compare_digest(h, th)), None)
        if seat is None or row.seats[seat]["kind"] != "human":
            raise TableError("only a person of this table (their seat's token) can ask for a rematch", 403)
        new_id = rematch_id(table_id)
        if stored.exists(self.store, new_id):
            return new_id, False
        kinds = tuple(str(s["kind"]) for s in row.seats)
        rules = from_dict(row.rules, f"table {table_id}", name=row.rules_name)
        settings = Settings(rules, kinds, tuple(str(s["name"]) for s in row.seats), str(secrets.randbits(64)),
                            dict(row.clock), wall_key_for(kinds))
        self._create(new_id, settings, hashes)
        return new_id, True

    def rematch_of(self, table_id: str) -> str | None:
        """The rematch of a table, once someone asked for it."""
        new_id = rematch_id(table_id)
        return new_id if stored.exists(self.store, new_id) else None

    def get(self, table_id: str) -> Table:
        """The live table (a WebSocket's): a running one, or a finished one rebuilt from the store
        for this caller only (it is not kept: finished tables live in the store)."""
        table = self.running.get(table_id)
        if table is None:
            self._check(table_id)
            table = self._load(table_id)
        return table

    def info(self, table_id: str) -> Table | StoredTable:
        """What ``GET /api/tables/ID`` shows: the running table, else the stored one."""
        table = self.running.get(table_id)
        if table is not None:
            return table
        self._check(table_id)
        return StoredTable.load(self.store, table_id)

    def _check(self, table_id: str) -> None:
        if len(table_id) > 64 or not self._exists(table_id):
            raise TableError(f"no table {table_id!r}", 404)

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
            if t is not None and not t.finished:
                entry.update(scores=list(t.game.scores), round=t.round())
            elif row.final_scores is not None:
                entry["scores"] = list(row.final_scores)
            out.append(entry)
        return out

    def finished_events(self, table_id: str) -> tuple[StoredTable, list[dict[str, Any]]]:
        """A finished table and its full events, from the store; ``TableError`` 409 while it runs."""
        table = self.info(table_id)
        if not table.finished:
            raise TableError(f"table {table_id!r} is still being played: its record exists after the game", 409)
        stored = table if isinstance(table, StoredTable) else StoredTable.load(self.store, table_id)
        return stored, list(stored.events)

    def release(self, table: Table) -> None:
        """Forget a finished, stored table (its connections keep their reference until they close)."""
        if self.running.get(table.id) is table:
            del self.running[table.id]

    # -- persistence -----------------------------------------------------------------------
    def persist_action(self, table: Table, seat: int, idx: int, action: Action, how: str,
                       new_events: Sequence[dict[str, Any]]) -> None:
        """The action and the events it caused, in one transaction (before anyone is told)."""
        spent = table.banks != table.stored_banks  # a bank spent (most moves spend none)
        stored.append_action(self.store, table.id, table.seq - 1, seat=seat, legal_idx=idx, action=action.to_mjai(),
                             how=how, at=_now(), first_event=len(table.game.events) - len(new_events),
                             events=new_events, banks=table.banks if spent else None)
        if spent:
            table.stored_banks = list(table.banks)

    def persist_settings(self, table: Table) -> None:
        stored.save_settings(self.store, table.id, table.toggles, table.banks)
        table.stored_banks = list(table.banks)

    def finish(self, table: Table) -> None:
        """A finished game becomes a stored record (``sanma replay`` / ``sanma stats`` read it)."""
        players = [None if p is None else store_name(p) for p in table.players]
        if stored.finish(self.store, table.id, table.game.events, table.rules, table.seed, players=players) is not None:
            table.close()

    # -- restart ---------------------------------------------------------------------------
    def resume(self) -> int:
        """Rebuild every unfinished table from its seed and stored actions; how many."""
        ids = stored.unfinished(self.store)
        for tid in ids:
            self._load(tid)
        return len(ids)

    def _load(self, table_id: str) -> Table:
        row = stored.table(self.store, table_id)
        if row is None:
            raise TableError(f"no table {table_id!r}", 404)
        rules = from_dict(row.rules, f"table {table_id}", name=row.rules_name)
        settings = Settings(rules, tuple(s["kind"] for s in row.seats), tuple(s["name"] for s in row.seats), row.seed,
                            row.clock, bytes.fromhex(row.wall_key) if row.wall_key else None)
        table = Table(self, table_id, settings, [s["token_sha256"] for s in row.seats], row.toggles, row.banks,
                      row.created_at)
        table.players = [s.get("player") for s in row.seats]
        finished = row.finished
        for a in stored.actions(self.store, table_id):
            seat, legal_idx, how = a.seat, a.legal_idx, a.how
            bot = table.bots.get(seat)
            if bot is not None and not finished:  # seeded bots decide again, so their state is where it was
                table._feed_bots()
                legal = table.game.legal_actions(seat)
                with contextlib.suppress(SanmaError, LookupError):
                    bot.act(table.game.view(seat) if bot.needs_view else None, legal)
            table._apply(seat, legal_idx, how, store=False)
        if table.game.done and not finished:  # stopped after the last action, before it was marked finished
            self.finish(table)
            finished = True
        if finished:  # rebuilt for one caller (a page on a finished table): not kept
            table.close()
        else:
            self.running[table_id] = table
            table.kick()
        return table

    def close(self) -> None:
        for t in self.running.values():
            t.close()
        self.running.clear()
