"""The server's edge: what every request goes through before any route sees it (issue 23).

:class:`Guard` (ASGI middleware, HTTP and WebSocket alike) refuses, changing nothing:

* a ``Host`` the server does not answer to (``sanma serve --host``, ``--allowed-host``): a page
  on another site whose name was pointed at this machine (DNS rebinding) reaches nothing — 421;
* an ``Origin`` other than the server's own, where a browser sent one (bots and scripts send
  none): a page of another site, or another port of this machine, can neither write nor open a
  socket — 403 (a WebSocket is refused before it is accepted);
* a body sent to a JSON endpoint without ``Content-Type: application/json`` — 415 (a form or a
  ``text/plain`` POST, the kinds a page of another site may send without asking first).

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

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: POSTs whose body is not JSON (a record's own text): every other POST under /api/ is JSON.
RAW_BODIES = ("/api/replays",)


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
        if refusal is None:
            return await self.app(scope, receive, send)
        status, message = refusal
        if kind == "websocket":  # refused before it is accepted: the handshake fails (HTTP 403)
            await send({"type": "websocket.close", "code": 4403, "reason": message[:120]})
            return None
        await JSON({"error": message}, status_code=status)(scope, receive, send)
        return None

    def _refusal(self, scope: Scope, headers: dict[str, str], host: str) -> tuple[int, str] | None:
        if self.hosts is not None and host_name(host) not in self.hosts:
            return 421, (f"this server does not answer to the name {host[:80]!r}; "
                         "start it with --allowed-host NAME to let it")
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.strip().lower():
                return 403, "a page of another site may not use this server (its Origin is not this server)"
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH", "DELETE"):
            path = scope.get("path", "")
            if path.startswith("/api/") and path not in RAW_BODIES:
                ctype = headers.get("content-type", "").split(";")[0].strip().lower()
                if ctype != "application/json":
                    return 415, "the request body must be JSON, sent as Content-Type: application/json"
        return None


__all__ = ["JSON", "LOOPBACK", "Guard", "host_name", "lan_addresses", "served_names"]
