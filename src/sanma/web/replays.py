"""The replay viewer's API: an uploaded record, any format sanma reads, as hands with every tile open.

``POST /api/replays`` takes the text of a Tenhou mjlog (XML), a tenhou.net/6 JSON (Tenhou's or
Mahjong Soul's), a majiang JSON or an mjai JSONL record as the request body and answers the
record read by :func:`sanma.formats.read_record` as JSON: per hand the round, dealer, honba,
sticks, start scores, dora and ura indicators, every starting hand, every event in play order
(sanma's events in their mjai form: ``tsumo``, ``reach``, ``dahai``, ``pon`` ...) and the
results. A finished game's stored record comes from the server's own
``GET /api/tables/ID/record?format=mjai`` (409 while the game runs), which the page posts here —
so the hand in progress is never opened.

Problems the lenient readers found are listed in ``errors``; a body that is no record at all is a
400 ``{"error": ...}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from ..formats import GameRecord, KyokuRecord, read_record
from ..formats.record import DrawResult, RecordedWin
from ..i18n import Message, sentence, tr
from ..tiles import Tile, parse_tiles
from .i18n import error_response
from .limits import over_rate
from .workers import WorkerError

router = APIRouter()

MAX_RECORD = 4 * 1024 * 1024  # a whole hanchan in mjai JSONL is about 150 kB


def _plain(value: Any) -> Any:
    """Tiles as mjai names, tuples as lists, recursively."""
    if isinstance(value, Tile):
        return value.mjai
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def result_json(result: RecordedWin | DrawResult) -> dict[str, Any]:
    if isinstance(result, DrawResult):
        return {"type": "draw", "kind": result.kind, "deltas": list(result.deltas), "tenpai": list(result.tenpai)}
    fields = ("seat", "from_seat", "tsumo", "melds", "kita", "han", "fu", "yakuman", "limit",
              "points", "deltas", "dora_indicators", "ura_indicators", "pao_seat", "riichi")
    out = {"type": "win", **{name: _plain(getattr(result, name)) for name in fields}}
    out["yaku"] = [[name, han] for name, han in result.yaku]
    # the record model keeps a win's tiles in mpsz (score_hand's notation); the viewer draws mjai names
    out["hand"] = [t.mjai for t in parse_tiles(result.hand)]
    out["win"] = parse_tiles(result.win)[0].mjai
    return out


def kyoku_json(k: KyokuRecord) -> dict[str, Any]:
    return {
        "label": k.label, "round_wind": k.round_wind, "dealer": k.dealer, "honba": k.honba,
        "kyotaku": k.kyotaku, "start_scores": list(k.start_scores), "end_scores": list(k.end_scores()),
        "dora_indicators": _plain(k.dora_indicators), "ura_indicators": _plain(k.ura_indicators),
        "initial_indicators": k.initial_indicators, "initial_hands": _plain(k.initial_hands),
        "events": [e.to_mjai() for e in k.events], "results": [result_json(r) for r in k.results],
    }


def record_json(rec: GameRecord) -> dict[str, Any]:
    """A record for the viewer: every hand open."""
    return {
        "source": rec.source, "format": rec.format, "rule_name": rec.rule_name, "players": list(rec.players),
        "start_scores": list(rec.start_scores), "final_scores": _plain(rec.final_scores),
        "final_points": _plain(rec.final_points), "complete": rec.complete, "errors": list(rec.errors),
        "kyoku": [kyoku_json(k) for k in rec.kyoku],
    }


@router.get("/replay", include_in_schema=False)
async def replay_page() -> FileResponse:
    """The replay viewer page."""
    return FileResponse(Path(__file__).parent / "static" / "replay.html", media_type="text/html")


@router.post("/api/replays")
async def api_replay(request: Request) -> JSONResponse:
    """Read an uploaded record (the request body) into hands with every tile open."""
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
    name = request.query_params.get("name", "")[:200] or tr("uploaded record")
    if not text.strip():
        return error_response(sentence("the record is empty", code="record"), 400)
    workers = getattr(request.app.state, "workers", None)
    try:  # parsed in a worker process: a big record never stalls the tables (issue 23 item 4)
        out = await workers.run(parse_upload, text) if workers is not None else parse_upload(text)
    except WorkerError as e:
        return error_response(sentence("{name}: the record could not be read: {error}", code="record", name=name,
                                       error=str(e)), 503)
    if not isinstance(out, dict):
        return error_response(sentence("{name}: not a record sanma can read: {reason}", code="record", name=name,
                                       reason=out), 400)
    out["source"] = name
    return JSONResponse(out)


def parse_upload(text: str) -> dict[str, Any] | Message | str:
    """An uploaded record's text as the viewer's JSON, or why it is not a record (run in a worker:
    a Message is plain data and crosses the process boundary)."""
    # bytes, never a str: read_record takes a short string for a file path to open
    rec = read_record(text.encode("utf-8"))
    if not rec.kyoku:
        return rec.errors[0] if rec.errors else sentence("no hand in it")
    return record_json(rec)
