"""The replay viewer's API: a record replayed by the server's rules engine, step by step.

``POST /api/replays`` takes the text of a Tenhou mjlog (XML), a tenhou.net/6 JSON (Tenhou's or
Mahjong Soul's), a majiang JSON or an mjai JSONL record; ``GET /api/replays/table/ID`` a finished
game of this server. Either is read by :func:`sanma.formats.read_record` and replayed through the
engine by :func:`sanma.replay.replay_record` — the same replay ``sanma replay --check`` runs — and
every step the viewer shows is the engine's own state at that step (:func:`open_view`: the table
with every hand open, the wall's count, the indicators, the scores): the page draws it and holds
no rule. A hand's first step carries the whole view; each later one only what changed
(:func:`view_change`), which the page applies to the step before. Each hand ends with its result
card, built as at the table (``web/results.hand_result``); the step that ended the hand leaves the
board as it was (the engine deals the next hand inside it) and its card tells the rest.

A record that does not replay clean is shown up to its first mismatch, which the answer names
(``mismatch``): nothing after it is the engine's. A body that is no record at all is a 400
``{"error": ...}``; a running game's replay does not exist (409).

The answer: ``{"source", "format", "rules", "players", "notes", "kyoku", "errors", "hands":
[{"label", "round", "steps": [{"view": VIEW} | {"change": CHANGE}, each with "events": [the
engine's events of the step]], "result": CARD | null}], "mismatch": {"hand", "label", "what", "at",
"text"} | null, "final": SETTLEMENT | null}`` (a stored game's also ``"table"``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from ..formats import GameRecord, read_record
from ..formats.mjai import write_mjai
from ..game.engine import Game
from ..game.view import public_seats, seat_view, spectator_view
from ..i18n import Message, sentence, tr
from ..i18n.messages import Said
from ..replay import GameReplay, hand_label, label_words, replay_record, round_indexes, rules_for
from ..rules import Rules
from ..tiles import SEATS
from .i18n import error_response
from .limits import over_rate
from .results import hand_result, settlement
from .tables import TableError, Tables
from .workers import WorkerError

router = APIRouter()
T = TypeVar("T")

MAX_RECORD = 4 * 1024 * 1024  # a whole hanchan in mjai JSONL is about 150 kB


def open_view(game: Game) -> dict[str, Any]:
    """The table now with every hand open (a finished game's replay): the spectator's view (rivers,
    melds, indicators, the wall's count, scores) and each seat's concealed ``tiles`` and ``drawn`` tile."""
    public = public_seats(game)
    seats = [p.to_json() for p in public]
    view = spectator_view(game, public).to_json(seats_json=seats)
    turn = view["turn"]
    drawn = seat_view(game, turn, public).drawn if 0 <= turn < SEATS else None
    for s, st in enumerate(game.seats):
        tiles = sorted(st.hand)
        if s == turn and drawn is not None:
            tiles.remove(drawn)
        seats[s]["tiles"] = [t.mjai for t in tiles]
        seats[s]["drawn"] = drawn.mjai if s == turn and drawn is not None else None
    return view


def view_change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What differs from ``before`` to ``after`` (two :func:`open_view` s): the top-level fields that
    changed, and ``seats`` as ``{index: the seat's whole entry}`` for the seats that changed.

    >>> view_change({"a": 1, "b": 2, "seats": [{"x": 1}, {"x": 2}]}, {"a": 1, "b": 3, "seats": [{"x": 1}, {"x": 5}]})
    {'b': 3, 'seats': {'1': {'x': 5}}}
    """
    out = {k: v for k, v in after.items() if k != "seats" and before.get(k) != v}
    seats = {str(i): s for i, s in enumerate(after["seats"]) if i >= len(before["seats"]) or before["seats"][i] != s}
    if seats:
        out["seats"] = seats
    return out


class _Steps:
    """Collects the replay's steps as the engine plays the record (a ``sanma.replay.StepObserver``)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.hands: list[dict[str, Any]] = [{"label": k.label, "steps": [], "result": None} for k in record.kyoku]
        self.game: Game | None = None
        self.seen = 0  # engine events already given to a step
        self.events: list[dict[str, Any]] = []  # the engine's events, all of them, in order
        self.stopped = False
        self.chips: list[list[int]] = []  # each hand's chips when it was dealt
        self.last: dict[str, Any] = {}  # the last step's whole view
        self.carry: list[dict[str, Any]] = []  # the next hand's first events, dealt inside the last step

    def __call__(self, game: Game, hand: int, event: Any, report: GameReplay) -> None:
        if self.stopped or report.mismatches or (self.game is not None and game is not self.game):
            self.stopped = True  # the first mismatch: nothing after it is the engine's replay of the record
            return
        self.game = game
        if event is not None and len(game.events) == self.seen:
            return  # the engine had already done it (it draws right after a discard nobody may call)
        new = game.events[self.seen:]
        self.seen = len(game.events)
        self.events.extend(new)
        steps = self.hands[hand]["steps"]
        if event is None:  # the deal: the next hand's events the last step of a hand ran into
            new = [*self.carry, *new]
            self.carry = []
            self.chips.append(list(game.chips))
            new = new[next((i for i, e in enumerate(new) if e["type"] == "start_kyoku"), 0):]
            self.last = open_view(game)
            steps.append({"view": self.last, "events": new})
            return
        end = next((i for i, e in enumerate(new) if e["type"] == "end_kyoku"), None)
        if end is not None:
            # the step ended the hand, and the engine dealt the next one inside it: the board stays as
            # it was before the step, and the hand's card tells the rest
            self.carry = new[end + 1:]
            steps.append({"change": {}, "events": new[:end + 1]})
            return
        view = open_view(game)  # only what changed since the last step: the page applies it to that step's view
        steps.append({"change": view_change(self.last, view), "events": new})
        self.last = view

    def finish(self) -> None:
        """Every finished hand's card, from the engine's events of the hand."""
        g = self.game
        if g is None:
            return
        rest = g.events[self.seen:]
        if not self.stopped:
            self.events.extend(rest)
        else:  # stopped at a mismatch: the hand in progress ends if the engine ended it (its card shows)
            last = max((i for i, e in enumerate(self.events) if e["type"] == "start_kyoku"), default=-1)
            ended = any(e["type"] == "end_kyoku" for e in self.events[last:])
            end = next((i for i, e in enumerate(rest) if e["type"] == "end_kyoku"), None)
            if last >= 0 and not ended and end is not None:
                self.events.extend(rest[:end + 1])
        starts = [i for i, e in enumerate(self.events) if e["type"] == "start_kyoku"]
        ends = [i for i, e in enumerate(self.events) if e["type"] == "end_kyoku"]
        chips_after = [*self.chips[1:], list(g.chips)]
        for k, (a, b) in enumerate(zip(starts, ends, strict=False)):
            if k >= len(self.hands) or k >= len(g.hand_results) or not self.hands[k]["steps"]:
                break
            delta = [x - y for x, y in zip(chips_after[k], self.chips[k], strict=True)] if k < len(self.chips) \
                else [0] * SEATS
            final = b + 1 < len(self.events) and self.events[b + 1]["type"] == "end_game"
            self.hands[k]["result"] = hand_result(g.rules, self.events[a:b + 1], g.hand_results[k], delta,
                                                  final=final)


def replay_json(record: GameRecord, rules: Rules | None = None, source: str = "") -> dict[str, Any]:
    """The replay viewer's answer for ``record`` (see the module doc), under ``rules`` (default: the
    ones ``sanma replay`` chooses for the record)."""
    steps = _Steps(record)
    # without rules: the ones `sanma replay` chooses (its notes say which, and the game's length it
    # took when the record does not state it); the game replayed shows the rules used
    report = replay_record(record, rules, on_step=steps)
    steps.finish()
    if rules is None:
        rules = steps.game.rules if steps.game is not None else rules_for(record)[0]
    first = report.mismatches[0] if report.mismatches else None
    mismatch = None
    if first is not None:
        labels = [hand_label(rules, k, lap) for k, lap in zip(record.kyoku, round_indexes(rules, record.kyoku),
                                                               strict=True)]
        hand = labels.index(first.kyoku) if first.kyoku in labels else None  # None: the record, the game's end
        # a reader's problem keeps its sentence (a Said crosses the worker's pickling): in_words says it
        mismatch = {"hand": hand, "label": first.kyoku, "what": first.what, "at": first.at,
                    "text": first.said()}
    end = steps.events[-1] if steps.events and steps.events[-1]["type"] == "end_game" and first is None else None
    hands = [h for h in steps.hands if h["steps"]]
    for h, k in zip(steps.hands, record.kyoku, strict=True):
        h["round"] = {"wind": k.round_wind, "number": k.dealer + 1, "honba": k.honba, "sticks": k.kyotaku,
                      "dealer": k.dealer}
    return {"source": source or record.source, "format": record.format, "rules": rules.name,
            "players": list(record.players), "notes": list(report.notes), "kyoku": len(record.kyoku),
            "hands": hands, "mismatch": mismatch, "errors": list(record.errors),
            "final": settlement(rules, end) if end is not None else None}


def in_words(out: dict[str, Any]) -> dict[str, Any]:
    """The viewer's answer with its notes and its first mismatch in the request's words (``text``, and
    ``where``: its ``label`` in words); ``errors`` (the record's problems as data) stays English."""
    out["notes"] = [n.message.text() if isinstance(n, Said) else n for n in out.get("notes", [])]
    m = out.get("mismatch")
    if m:
        if isinstance(m.get("text"), Said):
            m["text"] = m["text"].message.text()
        m["where"] = label_words(str(m.get("label", ""))).text()  # the label (a key) in words: 東1局, 牌譜
    return out


@router.get("/replay", include_in_schema=False)
async def replay_page() -> FileResponse:
    """The replay viewer page."""
    return FileResponse(Path(__file__).parent / "static" / "replay.html", media_type="text/html")


@router.post("/api/replays")
async def api_replay(request: Request) -> JSONResponse:
    """Replay an uploaded record (the request body) through the engine, step by step."""
    text = await read_upload(request)
    if isinstance(text, JSONResponse):
        return text
    name = request.query_params.get("name", "")[:200] or tr("uploaded record")
    try:  # read and replayed in a worker process: a big record never stalls the tables (issue 23 item 4)
        out = await _run(request, parse_upload, text, name)
    except WorkerError as e:
        return error_response(sentence("{name}: the record could not be read: {error}", code="record", name=name,
                                       error=e), 503)
    if not isinstance(out, dict):
        return error_response(sentence("{name}: not a record sanma can read: {reason}", code="record", name=name,
                                       reason=out), 400)
    out["source"] = name
    return JSONResponse(in_words(out))


async def read_upload(request: Request) -> str | JSONResponse:
    """An uploaded record's text (the request body), or the refusal: over the client's ``uploads``
    rate (429), larger than :data:`MAX_RECORD` (413), not UTF-8 or empty (400). The replay viewer's
    and the review's uploads (web/reviews.py) are read by this."""
    refused = over_rate(request, "uploads")
    if refused is not None:
        return error_response(refused, 429)
    raw = await request.body()
    if len(raw) > MAX_RECORD:
        return error_response(sentence("record too large ({n} bytes; at most {limit})", code="too_large", n=len(raw),
                                       limit=MAX_RECORD), 413)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return error_response(sentence("the record is not UTF-8 text (byte {start})", code="record", start=e.start),
                              400)
    if not text.strip():
        return error_response(sentence("the record is empty", code="record"), 400)
    return text


def parse_upload(text: str, name: str = "") -> dict[str, Any] | Message | str:
    """An uploaded record's text replayed as the viewer's JSON (:func:`replay_json`), or why it is not
    a record (run in a worker: a Message is plain data and crosses the process boundary)."""
    # bytes, never a str: read_record takes a short string for a file path to open
    rec = read_record(text.encode("utf-8"), source=name or None)  # its problems name the upload
    if not rec.kyoku:
        return rec.errors[0] if rec.errors else sentence("no hand in it")
    return replay_json(rec)


def replay_stored(mjai: str, rules: Rules, source: str) -> dict[str, Any]:
    """A stored game (its mjai text) replayed under its table's rules (run in a worker)."""
    return replay_json(read_record(mjai.encode("utf-8")), rules, source=source)


async def _run(request: Request, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in the app's worker processes (inline without them: a bare router in a test)."""
    workers = getattr(request.app.state, "workers", None)
    return await workers.run(fn, *args) if workers is not None else fn(*args)


@router.get("/api/replays/table/{table_id}")
async def api_table_replay(request: Request, table_id: str) -> JSONResponse:
    """A finished game of this server, replayed under its own rules (409 while it runs)."""
    tables: Tables = request.app.state.tables
    try:
        table, events = tables.finished_events(table_id)
    except TableError as e:
        return error_response(e, e.status)
    source = f"table {table_id}"
    try:
        out = await _run(request, replay_stored, write_mjai(events), table.rules, source)
    except WorkerError as e:
        return error_response(sentence("{name}: the record could not be read: {error}", code="record", name=source,
                                       error=e), 503)
    out["table"] = table_id
    out["players"] = list(table.names)
    return JSONResponse(in_words(out))
