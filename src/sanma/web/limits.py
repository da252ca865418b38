"""Bounded everything (issue 23 item 6 and 7): how much one client may ask of the server.

One client made 2,000 tables in 4 s (tables that never end, rebuilt by every start) and held 400
idle sockets on one table; nothing stopped it. Every limit here is a setting (``sanma serve
--limit NAME=VALUE``, docs/SECURITY.md); a request over one is refused with a clear error and
changes nothing (HTTP 429 ``{"error": ...}``; a socket is closed with 4429 after an ``error``).

A client is its address: the socket's peer, or — behind a reverse proxy named by ``sanma serve
--forwarded-allow-ips`` — the address the proxy forwards (uvicorn sets it).

>>> m = Meter(Limits(tables_per_minute=2), now=lambda: 0)
>>> [m.allow("1.2.3.4", "tables") for _ in range(3)]
[True, True, False]
>>> m.allow("5.6.7.8", "tables")
True
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import SanmaError
from ..i18n import Message, sentence


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits (each a ``--limit NAME=VALUE`` of ``sanma serve``)."""

    tables_per_minute: float = 12.0  # tables one client may create a minute (in bursts of as many)
    tables_per_client: int = 30  # unfinished tables one client created, at once
    tables: int = 2000  # unfinished tables the server runs at once
    sessions_per_minute: float = 12.0  # keeper sessions one client may start a minute
    uploads_per_minute: float = 12.0  # records one client may upload to the replay viewer a minute
    reviews_per_minute: float = 12.0  # reviews one client may start a minute (a cached one is free)
    reviews: int = 2  # reviews the server computes at once (web/reviews.py: ~0.4 s of a core each)
    sockets_per_client: int = 100  # WebSockets one client holds open at once
    watchers_per_table: int = 100  # spectators of one table at once
    abandon_after: float = 1800.0  # seconds a table's people (and external bots) may all be away

    @staticmethod
    def parse(pairs: list[str] | None) -> Limits:
        """``["tables=50", "abandon_after=600"]`` -> the limits with those changed; a ``SanmaError`` (a
        ``ValueError``) naming a wrong name or value."""
        out = Limits()
        for pair in pairs or ():
            name, eq, value = pair.partition("=")
            field = next((f for f in dataclasses.fields(Limits) if f.name == name.strip()), None)
            if not eq or field is None:
                names = ", ".join(f.name for f in dataclasses.fields(Limits))
                raise SanmaError(sentence("--limit {pair!r}: give NAME=VALUE, NAME one of {names}", pair=pair,
                                          names=names))
            try:
                number = (float if field.type in ("float", float) else int)(value.strip())
            except ValueError:
                raise SanmaError(sentence("--limit {pair!r}: {value!r} is not a number", pair=pair,
                                          value=value.strip())) from None
            if number <= 0 or number != number or number == float("inf"):
                raise SanmaError(sentence("--limit {pair!r}: the value must be a positive number", pair=pair))
            out = dataclasses.replace(out, **{field.name: number})  # type: ignore[arg-type]
        return out


class Meter:
    """Token buckets per client and kind: ``allow(client, kind)`` is False for a request over the
    rate (kinds: ``tables``, ``sessions``, ``uploads``, ``reviews``). ``now``: seconds (the server's clock)."""

    MAX_CLIENTS = 10_000  # buckets kept (the oldest is forgotten first)

    def __init__(self, limits: Limits, now: Callable[[], float]) -> None:
        self.limits = limits
        self.now = now
        self.buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def per_minute(self, kind: str) -> float:
        return float(getattr(self.limits, f"{kind}_per_minute"))

    def allow(self, client: str, kind: str) -> bool:
        rate = self.per_minute(kind)
        now = self.now()
        key = (client, kind)
        tokens, at = self.buckets.pop(key, (rate, now))
        tokens = min(rate, tokens + (now - at) * rate / 60.0)
        ok = tokens >= 1
        self.buckets[key] = (tokens - 1 if ok else tokens, now)
        while len(self.buckets) > self.MAX_CLIENTS:
            self.buckets.popitem(last=False)
        return ok


def client_of(scope_client: Any) -> str:
    """A request's client address (``"?"`` when the server was not told one)."""
    return str(scope_client[0]) if scope_client else "?"


def over_rate(request: Any, kind: str) -> Message | None:
    """Why ``request``'s client may not do ``kind`` now (a served app's meter), or None."""
    tables = getattr(request.app.state, "tables", None)
    if tables is None or tables.meter.allow(client_of(request.client), kind):
        return None
    n = tables.meter.per_minute(kind)
    if kind == "sessions":
        return sentence("more than {n:g} new keeper sessions a minute; wait a little", code="rate", n=n)
    if kind == "reviews":
        return sentence("more than {n:g} reviews a minute; wait a little", code="rate", n=n)
    return sentence("more than {n:g} uploads a minute; wait a little", code="rate", n=n)


class Sockets:
    """Open WebSockets per client (``sockets_per_client``): ``open`` is False when the client
    holds as many as it may; every ``open`` that was True is followed by one ``close``."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.count: dict[str, int] = {}

    def open(self, client: str) -> bool:
        n = self.count.get(client, 0)
        if n >= self.limits.sockets_per_client:
            return False
        self.count[client] = n + 1
        return True

    def close(self, client: str) -> None:
        n = self.count.get(client, 0) - 1
        if n > 0:
            self.count[client] = n
        else:
            self.count.pop(client, None)


__all__ = ["Limits", "Meter", "Sockets", "client_of", "over_rate"]
