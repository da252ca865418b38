"""The hand calculator's API: ``POST /api/score`` answers what ``sanma score --json`` prints.

The request names ``sanma score``'s options as JSON fields (``hand``, ``win``, the situation
flags, ``seat``, ``round``, ``from``, ``dora``, ``ura``, ``kita``, ``flowers``, ``honba``,
``kyotaku``, ``pon``, ``kan``, ``ankan``) and the rule set as ``rules``: a preset name, a rule
object (``{"extends": "kansai", ...fields}``) or, as ``rules_toml``, the text of a rule file. The
CLI's own code (:func:`sanma.cli.score.score_request`) scores it, so both give the same answer.

Bad input is a 400 ``{"error": ...}`` naming the field; a hand that is not a win is a 422
``{"error": "not a win: ...", "not_a_win": true}`` (``sanma score`` exits 1 for it).

``POST /api/score/check`` takes the same request and answers the verdict as data, with a 200 either
way (as ``POST /api/rules/check`` does for a rule file): ``{"win": true, "score": ...}`` (the object
``/api/score`` answers) or ``{"win": false, "error": ..., "code": ...}`` (``"not_a_win": true`` when the
hand is complete but no win) — for a hand that is incomplete, misread or no win, and a rule set that
does not load. A request that is not a calculator request (not JSON, not an object, an unknown field,
a field of the wrong type) is still a 400. The calculator page uses it: a browser logs every 4xx
answer as a console error, and a hand that is not a win is the calculator's normal use (issue 18).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from ..cli.score import FLAGS, flag_help, score_json, score_request
from ..errors import NotAWinError, RulesError, SanmaError
from ..i18n import current_lang
from ..i18n.messages import Message, sentence
from ..i18n.rulesheet import rule_sheet, said
from ..rules import Rules
from ..rules.loader import from_dict, parse_toml, to_dict
from ..scoring import Score
from .guard import BadJSON, load_json
from .i18n import error_body, error_response

router = APIRouter()

MAX_BODY = 64 * 1024  # a rule file is a few kB; anything larger is refused unread
MAX_TEXT = 200  # longest tile string accepted for one field
_WINDS = ("E", "S", "W")
_TEXT_FIELDS = {"hand": True, "win": True, "seat": False, "round": False, "from": False}
_LIST_FIELDS = ("dora", "ura", "pon", "kan", "ankan")
_INT_FIELDS = ("kita", "flowers", "honba", "kyotaku")
KNOWN = frozenset([*_TEXT_FIELDS, *_LIST_FIELDS, *_INT_FIELDS, *FLAGS, "rules", "rules_toml"])


class RequestError(SanmaError):
    """A calculator request that is not well-formed (the field and the problem in the message)."""


class MissingField(RequestError):
    """A well-formed request without its hand or its winning tile (the page's Score with none picked)."""

    code_of_class = "missing"


async def _json_body(request: Request) -> Any:
    """The request's JSON body, or the error answer: 413 past ``MAX_BODY``, 400 when it is not JSON."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return _error(413, sentence("request too large ({n} bytes; at most {limit})", code="too_large", n=len(raw),
                                    limit=MAX_BODY))
    try:
        return load_json(raw)
    except BadJSON as e:
        return _error(400, e)


def _error(status: int, error: Message | BaseException, **extra: Any) -> JSONResponse:
    """``{"error": words, "code": ...}`` in the request's language (web/i18n.py)."""
    return error_response(error, status, **extra)


def rules_from_json(rules: Any, rules_toml: Any = None) -> Rules:
    """The rule set a request names: a preset name, a rule object, or a rule file's TOML text."""
    if rules_toml is not None:
        if not isinstance(rules_toml, str):
            raise RequestError(sentence("field 'rules_toml' must be the text of a rule file"))
        return from_dict(parse_toml(rules_toml, "uploaded rule file"), "uploaded rule file", name="uploaded")
    if rules is None:
        return Rules.preset("tenhou")
    if isinstance(rules, str):
        return Rules.preset(rules)
    if isinstance(rules, dict):
        return from_dict(rules, "rule object", name=str(rules.get("name", rules.get("extends", "custom"))))
    raise RequestError(sentence("field 'rules' must be a preset name or a rule object, not {name}",
                                name=type(rules).__name__))


def parse_request(body: Any) -> tuple[Rules, dict[str, Any]]:
    """Check a request's fields; return the rule set and ``score_request``'s keyword arguments."""
    if not isinstance(body, dict):
        raise RequestError(sentence("the request must be a JSON object of sanma score's options"))
    unknown = sorted(set(body) - KNOWN)
    if unknown:
        raise RequestError(sentence("unknown field {unknown!r}; the fields are: {items}",
                                    unknown=unknown[0], items=', '.join(sorted(KNOWN))))
    args: dict[str, Any] = {}
    for name, required in _TEXT_FIELDS.items():
        value = body.get(name)
        if value is None or value == "":
            if required:
                raise MissingField(sentence("field {name!r} is required", name=name))
            continue
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise RequestError(sentence("field {name!r} must be a string of at most {max_text} characters",
                                        name=name, max_text=MAX_TEXT))
        if name in ("seat", "round", "from") and value.upper() not in _WINDS:
            raise RequestError(sentence("field {name!r} is {value!r}: expected E, S or W",
                                        name=name, value=value))
        args[{"round": "round_", "from": "from_"}.get(name, name)] = value
    for name in _LIST_FIELDS:
        value = body.get(name, [])
        if not isinstance(value, list) or len(value) > 8 or not all(
                isinstance(v, str) and len(v) <= 16 for v in value):
            raise RequestError(sentence("field {name!r} must be a list of at most 8 tile strings", name=name))
        args[name] = [v for v in value if v]
    for name in _INT_FIELDS:
        value = body.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
            raise RequestError(sentence("field {name!r} must be a whole number from 0 to 99, not {value!r}",
                                        name=name, value=value))
        args[name] = value
    for name in FLAGS:
        value = body.get(name, False)
        if not isinstance(value, bool):
            raise RequestError(sentence("field {name!r} must be true or false, not {value!r}",
                                        name=name, value=value))
        args[name] = value
    return rules_from_json(body.get("rules"), body.get("rules_toml")), args


@router.get("/calc", include_in_schema=False)
async def calc_page() -> FileResponse:
    """The calculator page."""
    return FileResponse(Path(__file__).parent / "static" / "calc.html", media_type="text/html")


def _scored(body: Any) -> tuple[Score, Rules]:
    """A request's hand scored under its rule set (``sanma score``'s own code)."""
    rule_set, args = parse_request(body)
    hand, win = args.pop("hand"), args.pop("win")
    return score_request(hand, win, rules=rule_set, **args), rule_set


def _not_a_win(e: NotAWinError) -> Message:
    return sentence("not a win: {reason}", code="not_a_win", reason=e)


@router.post("/api/score")
async def api_score(request: Request) -> JSONResponse:
    """Score a hand as ``sanma score --json`` does."""
    body = await _json_body(request)
    if isinstance(body, JSONResponse):
        return body
    try:
        score, rule_set = _scored(body)
    except NotAWinError as e:
        return _error(422, _not_a_win(e), not_a_win=True)
    except SanmaError as e:
        return _error(400, e)
    return JSONResponse(score_json(score, rule_set))


@router.post("/api/score/check")
async def api_score_check(request: Request) -> JSONResponse:
    """``/api/score``'s request answered as a verdict, 200 either way: ``{"win": true, "score"}`` or
    ``{"win": false, "error", "code"}``; only a request that is not a calculator request is a 400."""
    body = await _json_body(request)
    if isinstance(body, JSONResponse):
        return body
    try:
        verdict = {"win": True, "score": score_json(*_scored(body))}
    except NotAWinError as e:
        verdict = {"win": False, "not_a_win": True, **error_body(_not_a_win(e))}
    except MissingField as e:  # Score with no hand or no winning tile picked
        verdict = {"win": False, **error_body(e)}
    except RequestError as e:
        return _error(400, e)
    except SanmaError as e:  # tiles that are no hand, a rule set that does not load
        verdict = {"win": False, **error_body(e)}
    return JSONResponse(verdict)


@router.get("/api/score/options")
async def api_score_options() -> JSONResponse:
    """What the calculator page offers: the presets and every situation flag with its help."""
    return JSONResponse({
        "presets": list(Rules.presets()),
        "flags": [{"name": name, "help": said(text, current_lang())} for name, text in flag_help().items()],
        "winds": list(_WINDS),
    })


@router.get("/api/rules/{name}")
async def api_rules(name: str) -> JSONResponse:
    """A preset's every field (what ``sanma rules show NAME`` lists), for the lobby and the calculator."""
    try:
        rules = Rules.preset(name)
    except RulesError as e:
        return _error(404, e)
    # the sheet: every field in words in the request's language (what `sanma rules show NAME` prints)
    return JSONResponse({"name": rules.name, "description": rules.description, "fields": to_dict(rules),
                         "sheet": rule_sheet(rules, current_lang()).to_json()})


@router.post("/api/rules/check")
async def api_rules_check(request: Request) -> JSONResponse:
    """Check a rule file before a table is made of it (the lobby, on choosing a file): ``{"rules_toml":
    TEXT}`` is read by the rules loader (as ``POST /api/tables`` reads it) and answered as data: the
    resolved rule set — its name, whether the file names it, every field, and the fields it changes
    from its base — or ``{"valid": false, "error"}`` naming what is wrong. A check answers its
    verdict with 200 either way; a request that is not ``{"rules_toml": TEXT}`` is a 400."""
    body = await _json_body(request)
    if isinstance(body, JSONResponse):
        return body
    if not isinstance(body, dict) or set(body) != {"rules_toml"} or not isinstance(body["rules_toml"], str):
        return _error(400, sentence("the request must be {{\"rules_toml\": the text of a rule file}}",
                                    code="malformed"))
    try:
        data = parse_toml(body["rules_toml"], "the rule file")
        rules = from_dict(data, "the rule file")
    except SanmaError as e:
        return JSONResponse({"valid": False, **error_body(e)})
    fields = to_dict(rules)
    base = to_dict(Rules.preset(data["extends"])) if isinstance(data.get("extends"), str) else {}
    changed = [{"field": k, "base": base.get(k), "value": v} for k, v in fields.items()
               if base and k not in ("name", "description") and base.get(k) != v]
    return JSONResponse({"valid": True, "name": rules.name, "named": "name" in data, "extends": data.get("extends"),
                         "description": rules.description, "fields": fields, "changed": changed,
                         "sheet": rule_sheet(rules, current_lang()).to_json()})
