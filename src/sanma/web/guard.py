"""The server's edge: what every request goes through before any route sees it (issue 23).

:class:`Guard` (ASGI middleware, HTTP and WebSocket alike) refuses, changing nothing:

* a ``Host`` the server does not answer to (``sanma serve --host``, ``--allowed-host``): a page
  on another site whose name was pointed at this machine (DNS rebinding) reaches nothing — 421;
* an ``Origin`` other than the server's own, where a browser sent one (bots and scripts send
  none): a page of another site, or another port of this machine, can neither write nor open a
  socket — 403 (a WebSocket is refused before it is accepted);
* a body sent to a JSON endpoint without ``Content-Type: application/json`` — 415 (a form or a
  ``text/plain`` POST, the kinds a page of another site may send without asking first);
* a body larger than its endpoint's limit (:data:`BODY_LIMITS`) — 413, refused as soon as its
  ``Content-Length`` says so or, while it streams, at the first byte over: never read whole.

and it gives every answer the security headers (:func:`security_headers`): a Content-Security-
Policy (scripts from this server only, no framing by another site), ``nosniff``, and no Referer
(a seat page's address holds its token).

``JSON`` is every API answer: ``{"error": ...}`` or data, escaped to ASCII so that no stored text
(an old database's name with a lone surrogate) can make an answer fail to encode.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse

from .. import i18n
from ..errors import SanmaError
from ..fileio import json_too_deep
from ..i18n import sentence

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: POSTs whose body is not JSON (a record's own text): every other POST under /api/ is JSON.
RAW_BODIES = ("/api/replays", "/api/reviews")
#: The largest body each endpoint takes (bytes): an uploaded record, else a JSON request.
BODY_LIMITS = {"/api/replays": 4 * 1024 * 1024, "/api/reviews": 4 * 1024 * 1024}
MAX_BODY = 128 * 1024
MAX_DEPTH = 32  # nesting of a JSON request (a rule object is 3 deep)


class BadJSON(SanmaError):
    """A request that is not the JSON it must be (the message says why)."""

    code_of_class = "malformed"


def load_json(raw: bytes | str, what: i18n.Message | None = None) -> Any:
    """JSON text as data, refusing (``BadJSON``) what is not JSON, nested deeper than
    :data:`MAX_DEPTH` (1,000 levels crashed the parser: a 500), or holding a lone surrogate (no
    store can keep one).

    >>> load_json('{"a": [1, "x"]}')
    {'a': [1, 'x']}
    >>> load_json("[" * 40 + "]" * 40)
    Traceback (most recent call last):
    ...
    sanma.web.guard.BadJSON: the request body is nested more than 32 deep
    """
    what = sentence("the request body") if what is None else what
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if json_too_deep(text, MAX_DEPTH) is not None:
        raise BadJSON(sentence("{what} is nested more than {n} deep", code="malformed", what=what, n=MAX_DEPTH))
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise BadJSON(sentence("{what} must be JSON", code="malformed", what=what)) from None
    if (not text.isascii() or "\\u" in text) and _has_surrogate(value):  # only text or an escape can make one
        raise BadJSON(sentence("{what} holds a lone surrogate (text that is not Unicode)", code="malformed",
                                what=what))
    return value


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return not value.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def security_headers(host: str) -> list[tuple[bytes, bytes]]:
    """The headers of every answer: scripts only from this server (no inline script: what an
    injected name could run), sockets only to it, no framing by any page (a seat page holds its
    token), no MIME sniffing, and no Referer (the token would leave in it)."""
    h = host.strip() or "localhost"
    csp = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
           f"connect-src 'self' ws://{h} wss://{h}; frame-ancestors 'none'; base-uri 'none'; "
           "form-action 'self'; object-src 'none'")
    return [(b"content-security-policy", csp.encode("latin-1", "replace")),
            (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY")]


class JSON(JSONResponse):
    """A JSON answer that always encodes (non-ASCII text as ``\\u`` escapes)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def host_name(host: str) -> str:
    """The name in a ``Host`` header or an authority, without the port: ``"[::1]:8000"`` -> ``"::1"``.

    >>> host_name("[::1]:8000"), host_name("Example.org:80"), host_name("10.0.0.5")
    ('::1', 'example.org', '10.0.0.5')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def lan_addresses() -> list[str]:
    """This machine's addresses on its networks (for the phones at the table), best first; no
    packet is sent (a UDP socket is only pointed at a public address to learn the route)."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
        found.append(str(s.getsockname()[0]))
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    out: list[str] = []
    for a in found:
        with contextlib.suppress(ValueError):
            if not ipaddress.ip_address(a).is_loopback and a not in out:
                out.append(a)
    return out


def served_names(host: str, allowed: Iterable[str] = ()) -> tuple[str, ...]:
    """The names a server listening on ``host`` answers to: the loopback names on a loopback
    address; on every interface (``0.0.0.0``, ``::``) those, this machine's name and its LAN
    addresses; else ``host`` itself; and every ``allowed`` name."""
    h = host_name(host)
    names: list[str] = []
    if h in ("", "0.0.0.0", "::"):
        names += [*LOOPBACK, socket.gethostname().lower(), *lan_addresses()]
    elif h in LOOPBACK:
        names += LOOPBACK
    else:
        names.append(h)
    names += [host_name(a) for a in allowed]
    return tuple(dict.fromkeys(n for n in names if n))


class Guard:
    """The checks above, before any route (``hosts``: the names the server answers to; None: any)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None = LOOPBACK) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(host_name(h) for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        refusal = self._refusal(scope, headers, host)
        if refusal is not None:
            status, message = refusal
            if kind == "websocket":  # refused before it is accepted: the handshake fails (HTTP 403)
                await send({"type": "websocket.close", "code": 4403, "reason": str(message)[:120]})
                return None
            await _refuse(message, status)(scope, receive, _with_headers(send, host))
            return None
        if kind == "websocket":
            return await self.app(scope, receive, send)
        extra = _with_headers(send, host)
        if scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            limit = BODY_LIMITS.get(scope.get("path", ""), MAX_BODY)
            body = await _read_body(receive, headers, limit)
            if body is None:
                await _refuse(sentence("request too large (more than {limit} bytes)", code="too_large",
                                       limit=limit), 413)(scope, receive, extra)
                return None
            receive = _replay(body, receive)
        return await self.app(scope, receive, extra)

    def _refusal(self, scope: Scope, headers: dict[str, str], host: str) -> tuple[int, i18n.Message] | None:
        if self.hosts is not None and host_name(host) not in self.hosts:
            return 421, sentence("this server does not answer to the name {host!r}; start it with "
                                 "--allowed-host NAME to let it", code="host", host=host[:80])
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.strip().lower():
                return 403, sentence("a page of another site may not use this server (its Origin is not this "
                                     "server)", code="origin")
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            path = scope.get("path", "")
            if path.startswith("/api/") and path not in RAW_BODIES:
                ctype = headers.get("content-type", "").split(";")[0].strip().lower()
                if ctype != "application/json":
                    return 415, sentence("the request body must be JSON, sent as Content-Type: application/json",
                                         code="content_type")
        return None


def _refuse(message: i18n.Message, status: int) -> JSON:
    """A refusal in the request's language (web/i18n.py's LangMiddleware runs before the guard)."""
    return JSON({"error": message.text(), **message.to_json()}, status_code=status)


def _with_headers(send: Send, host: str) -> Send:
    extra = security_headers(host)

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped


async def _read_body(receive: Receive, headers: dict[str, str], limit: int) -> bytes | None:
    """The whole body, or None as soon as it is known to be over ``limit`` bytes (what is left of
    it is never read)."""
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, rest: Receive) -> Receive:
    """The body read already, then the connection's own messages (its disconnect)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await rest()

    return receive


__all__ = ["BODY_LIMITS", "JSON", "LOOPBACK", "MAX_BODY", "BadJSON", "Guard", "host_name", "lan_addresses",
           "load_json", "security_headers", "served_names"]
