"""The server's languages (issue 24): which one a request or a connection speaks, errors put into
its words, and each language's page catalogue, served from the page files themselves.

A request speaks, in order: its ``?lang=`` (a link that names one), the switch the browser
remembers (the ``sanma_lang`` cookie the pages set), the browser's ``Accept-Language``, English.
JSON keys, codes and the protocol never depend on it; only the words do.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ..i18n import LANGS, Lang, Message, current_lang, describe, from_accept_language, is_lang, sentence, set_lang
from ..i18n.lang import DEFAULT
from ..i18n.messages import mark, page_catalogue, pseudo
from .guard import JSON

STATIC = Path(__file__).parent / "static"
COOKIE = "sanma_lang"
router = APIRouter()


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def scope_lang(scope: Scope) -> Lang:
    """The language of an HTTP request or a WebSocket handshake."""
    from urllib.parse import parse_qs

    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    asked = (query.get("lang") or [""])[0]
    if is_lang(asked):
        return asked
    headers = _headers(scope)
    if "cookie" in headers:
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(headers["cookie"])
        except Exception:  # a malformed cookie header is no choice
            cookie = SimpleCookie()
        chosen = cookie.get(COOKIE)
        if chosen is not None and is_lang(chosen.value):
            return chosen.value
    return from_accept_language(headers.get("accept-language")) or DEFAULT


class LangMiddleware:
    """Sets the language of each request and each WebSocket connection before it is handled."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            set_lang(scope_lang(scope))
        await self.app(scope, receive, send)


def error_body(error: BaseException | Message | str, lang: Lang | None = None, **extra: Any) -> dict[str, Any]:
    """``{"error": words, "code": ...}``: an error in the words of ``lang`` (default: the request's),
    with its code (a sanma error's) beside them. The key ``error`` is the contract's."""
    if isinstance(error, Message):
        body: dict[str, Any] = {"error": error.text(lang), **error.to_json()}
    elif isinstance(error, BaseException):
        body = {"error": describe(error, lang)}
        code = getattr(error, "code", None)
        if isinstance(code, str):
            body["code"] = code
    else:  # a sentence not yet in the catalogue
        body = {"error": mark(error, lang or current_lang())}
    return {**body, **extra}


def error_response(error: BaseException | Message | str, status: int, **extra: Any) -> JSON:
    """The error as an answer (ASCII-escaped JSON: stored text such as a name cannot fail to encode)."""
    return JSON(error_body(error, **extra), status_code=status)


@cache
def _catalogue(lang: Lang, pseudo_on: bool) -> tuple[bytes, str]:
    sources = [p for p in STATIC.rglob("*") if p.suffix in (".js", ".html")]
    body = json.dumps(page_catalogue(lang, sources), ensure_ascii=False, separators=(",", ":")).encode()
    return body, hashlib.sha256(body).hexdigest()[:20]


@router.get("/api/i18n/{lang}")
async def catalogue(request: Request, lang: str) -> Response:
    """A page language's catalogue: ``{"lang", "messages", "plurals", "terms"}`` (web/static/i18n.js)."""
    if not is_lang(lang):
        return error_response(sentence("unknown language {lang!r}: {choices}", lang=lang[:20],
                                       choices=", ".join(LANGS)), 404)
    body, tag = _catalogue(lang, pseudo())
    if request.headers.get("if-none-match") == f'"{tag}"':
        return Response(status_code=304, headers={"ETag": f'"{tag}"'})
    return Response(body, media_type="application/json", headers={"ETag": f'"{tag}"', "Cache-Control": "no-cache"})
