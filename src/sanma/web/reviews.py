"""The replay viewer's review panel (issue 21 item 3): ``sanma review``'s JSON for one seat of a
stored game or of an uploaded record, computed by the review's own code (:func:`sanma.review.review_record`).

``GET /api/reviews/table/ID?seat=N[&rules=PRESET]`` reviews seat N of a finished game of this
server (under its table's rules by default); ``POST /api/reviews?seat=N[&rules=PRESET][&name=N]``
the record in the body (the formats, the size limit and the checks of the replay viewer's
upload: web/replays.py). The answer is the contract's JSON (shared ARCHITECTURE.md, "Review":
every key of ``sanma review --json``, English and language-free) and, beside it:

* per decision ``"position"``: the seat's own hand at the decision as the calculator's fields
  (``POST /api/score``'s: ``hand`` with ``win``, the melds, the dora indicators, the winds, ``tsumo``,
  ``riichi``, ``kita``, ``honba``, ``kyotaku``, ``rules``) — the page opens ``/calc`` with them;
* ``"words"``: the review's own sentences in the request's language (web/i18n.py): ``model``,
  ``categories`` and per decision ``why``, ``category`` and ``options`` (the review's Messages,
  sanma/review/report.py; the JSON's ``why`` stays English).

Who may ask (docs/SECURITY.md): a finished game's replay is public on this server (every hand
open, web/replays.py), so a review of any seat of a finished game shows nothing more; a running
game's review is refused (409) and says nothing, as its replay is. A review costs about 0.4 s of
one core: it runs in the server's worker processes (web/workers.py), never on the event loop;
answers are cached per (game, seat, rules); at most ``reviews`` are computed at once (503 over
it, ``sanma serve --limit``) and one client starts at most ``reviews_per_minute`` (429).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..errors import SanmaError
from ..formats import read_record
from ..formats.mjai import write_mjai
from ..i18n import Lang, Message, current_lang, sentence, tr
from ..review import review_record
from ..review.report import CATEGORIES, category_words, option_text
from ..review.walk import Decision
from ..rules import Rules
from ..tiles import Tile, seat_wind, to_mpsz
from .i18n import error_response
from .limits import over_rate
from .replays import read_upload
from .tables import TableError, Tables
from .workers import WorkerError

router = APIRouter()

CACHED: Final = 64  # reviews kept (one seat of a hanchan is about 100 kB of JSON)
_CALC_WINDS: Final = ("E", "S", "W")  # the calculator's winds (POST /api/score)


@dataclass(frozen=True, slots=True)
class Reviewed:
    """A review as a worker returns it: the JSON (with each decision's ``position``) and its sentences
    as Messages, put into the reader's words by the handler (a Message is plain data: it crosses the
    process boundary)."""

    json: dict[str, Any]
    model: Message
    decisions: tuple[tuple[Message, Message, tuple[Message, ...]], ...]  # why, category, each option

    def answer(self, lang: Lang) -> dict[str, Any]:
        return {**self.json, "words": {
            "model": self.model.text(lang),
            "categories": {c: category_words(c).text(lang) for c in CATEGORIES},
            "decisions": [{"why": w.text(lang), "category": c.text(lang), "options": [o.text(lang) for o in opts]}
                          for w, c, opts in self.decisions]}}


def calc_position(d: Decision, rules: str) -> dict[str, Any]:
    """The seat's own hand at decision ``d`` as the calculator's request fields: on its turn the hand
    with the drawn tile as a tsumo; on another seat's tile (a call, a ron) the hand with that tile
    as a ron from its discarder; ``rules`` named when they are a preset (the calculator's choices).
    Only what the seat saw (its ``SeatView``)."""
    v = d.view
    seat = d.seat
    me = v.seats[seat]
    hand = list(v.closed_hand)
    win: Tile | None = v.drawn
    origin: int | None = None
    if win is None and len(hand) % 3 == 1:  # another seat's tile is on offer: the one a call or a ron takes
        offered = next((a for a in d.legal if a.type in ("hora", "pon", "daiminkan") and a.tile is not None
                        and a.target is not None and a.target != seat), None)
        if offered is not None:
            win, origin = offered.tile, offered.target
    if win is not None:
        hand.append(win)
    melds: dict[str, list[str]] = {"pon": [], "kan": [], "ankan": []}
    for m in me.melds:
        plain = next((t for t in m.tiles if not t.red), m.tiles[0])
        melds[m.type if m.type in melds else "kan"].append(str(plain))
    return {
        "hand": to_mpsz(hand), "win": str(win) if win is not None else "",
        **melds, "dora": [str(t) for t in v.dora_indicators],
        "seat": seat_wind(seat, v.dealer), "round": v.round_wind if v.round_wind in _CALC_WINDS else "E",
        "from": seat_wind(origin, v.dealer) if origin is not None else None,
        "tsumo": v.drawn is not None, "riichi": v.riichi, "kita": me.kita, "flowers": me.flowers,
        "honba": v.honba, "kyotaku": v.kyotaku, "rules": rules if rules in Rules.presets() else None,
    }


def review_text(data: bytes, seat: int, rules: Rules | None, source: str = "") -> Reviewed | Message:
    """Review ``seat`` of the record ``data`` (any format sanma reads) under ``rules`` (default: the
    record's own), or why it cannot be (run in a worker)."""
    rec = read_record(data)  # bytes, never a str: read_record takes a short string for a path
    if not rec.kyoku:
        return sentence("not a record sanma can read: {reason}", reason=rec.errors[0] if rec.errors
                        else sentence("no hand in it"))
    try:
        result = review_record(rec, seat, rules)
    except SanmaError as e:
        return sentence("the record cannot be reviewed: {reason}", reason=str(e))
    if not result.hands:
        return sentence("the record has no hand to review")
    out = result.to_json()
    if source:
        out["source"] = source
    for d, j in zip(result.decisions, out["decisions"], strict=True):
        j["position"] = calc_position(d.decision, result.rules)
    words = tuple((d.why, category_words(d.category), tuple(option_text(o.action, o.estimate.follow)
                                                             for o in d.options)) for d in result.decisions)
    return Reviewed(out, result.model, words)


class Reviews:
    """The server's reviews: an LRU cache of answers per (game, seat, rules), the reviews being
    computed (a second request for one waits for it), and their bound."""

    def __init__(self) -> None:
        self.cache: OrderedDict[tuple[str, ...], Reviewed | Message] = OrderedDict()
        self.pending: dict[tuple[str, ...], asyncio.Future[Reviewed | Message]] = {}

    async def get(self, request: Request, key: tuple[str, ...], *job: Any) -> Reviewed | Message | JSONResponse:
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        if key in self.pending:
            return await asyncio.shield(self.pending[key])
        tables: Tables | None = getattr(request.app.state, "tables", None)
        at_once = tables.limits.reviews if tables is not None else 2
        if len(self.pending) >= at_once:
            return error_response(sentence("the server is making {n} reviews already; try again in a moment",
                                           code="busy", n=len(self.pending)), 503)
        refused = over_rate(request, "reviews")
        if refused is not None:
            return error_response(refused, 429)
        future: asyncio.Future[Reviewed | Message] = asyncio.get_running_loop().create_future()
        self.pending[key] = future
        try:
            workers = getattr(request.app.state, "workers", None)
            fn, *args = job
            out: Reviewed | Message = await workers.run(fn, *args) if workers is not None else fn(*args)
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: a waiter may not exist
            raise
        finally:
            del self.pending[key]
        future.set_result(out)
        self.cache[key] = out
        while len(self.cache) > CACHED:
            self.cache.popitem(last=False)
        return out


def _reviews(request: Request) -> Reviews:
    state = request.app.state
    if not hasattr(state, "reviews"):
        state.reviews = Reviews()
    reviews: Reviews = state.reviews
    return reviews


def _seat_and_rules(request: Request) -> tuple[int, Rules | None] | JSONResponse:
    q = request.query_params
    seat = q.get("seat", "")
    if seat.strip() not in ("0", "1", "2"):
        return error_response(sentence("seat must be 0, 1 or 2 (0 deals first), not {seat!r}", code="seat",
                                       seat=seat[:20]), 400)
    name = q.get("rules", "")
    if not name:
        return int(seat), None
    if name not in Rules.presets():
        return error_response(sentence("unknown rules {name!r}: {choices}", code="rules", name=name[:40],
                                       choices=", ".join(Rules.presets())), 400)
    return int(seat), Rules.preset(name)


def _answer(out: Reviewed | Message | JSONResponse, name: str, **extra: Any) -> JSONResponse:
    if isinstance(out, JSONResponse):
        return out
    if isinstance(out, Message):
        return error_response(sentence("{name}: {reason}", code="record", name=name, reason=out), 400)
    return JSONResponse({**out.answer(current_lang()), **extra})


@router.post("/api/reviews")
async def api_review_upload(request: Request) -> JSONResponse:
    """Review one seat of an uploaded record (the request body, as the replay viewer takes it)."""
    asked = _seat_and_rules(request)
    if isinstance(asked, JSONResponse):
        return asked
    seat, rules = asked
    text = await read_upload(request)
    if isinstance(text, JSONResponse):
        return text
    name = request.query_params.get("name", "")[:200] or tr("uploaded record")
    data = text.encode("utf-8")
    key = ("upload", hashlib.sha256(data).hexdigest(), str(seat), rules.name if rules else "")
    try:
        out = await _reviews(request).get(request, key, review_text, data, seat, rules, name)
    except WorkerError as e:
        return error_response(sentence("{name}: the record could not be reviewed: {error}", code="record",
                                       name=name, error=e), 503)
    return _answer(out, name)


@router.get("/api/reviews/table/{table_id}")
async def api_review_table(request: Request, table_id: str) -> JSONResponse:
    """Review one seat of a finished game of this server (409 while it runs: nothing of it is told)."""
    asked = _seat_and_rules(request)
    if isinstance(asked, JSONResponse):
        return asked
    seat, rules = asked
    tables: Tables = request.app.state.tables
    try:
        table, events = tables.finished_events(table_id)
    except TableError as e:
        return error_response(e, e.status)
    source = f"table {table_id}"
    used = rules or table.rules
    key = ("table", table_id, str(seat), rules.name if rules else "")
    try:
        out = await _reviews(request).get(request, key, review_text, write_mjai(events).encode("utf-8"), seat, used,
                                          source)
    except WorkerError as e:
        return error_response(sentence("{name}: the record could not be reviewed: {error}", code="record",
                                       name=source, error=e), 503)
    if isinstance(out, Reviewed):
        out = Reviewed({**out.json, "players": list(table.names)}, out.model, out.decisions)
    return _answer(out, source, table=table_id)


__all__ = ["Reviewed", "Reviews", "calc_position", "review_text", "router"]
