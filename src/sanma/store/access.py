"""Links with a right: unguessable tokens per role, stored hashed (issue 23 "Access").

Over HTTP and WebSocket a thing's numeric id alone reads and changes nothing: a keeper session (and
a tournament) is opened through a **link** whose token names it and a **role** — the organiser's
(every right, and the other links), a read-only one, and whatever roles a kind defines (a
tournament's referee, a scorer per table: ``scope``). The CLI, which holds the database, keeps the
numeric ids.

The organiser's token is drawn from ``secrets``; every other role's token is derived from it
(HMAC-SHA256 of ``role:scope`` under it), so the organiser's page can show every link again, and a
new organiser token (:func:`issue`) replaces them all. Only the SHA-256 of each token is stored
(``access_links``): the database does not hold a usable link.

>>> from sanma.store import open_db
>>> store = open_db(":memory:")
>>> master = issue(store, "keeper_session", "7", [("read", None)])
>>> resolve(store, master)
Grant(kind='keeper_session', target='7', role='organiser', scope=None)
>>> resolve(store, derive(master, "read"))
Grant(kind='keeper_session', target='7', role='read', scope=None)
>>> resolve(store, "7") is None, resolve(store, derive(master, "referee")) is None
(True, True)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from .db import Store

ORGANISER = "organiser"
MAX_TOKEN = 100  # characters of a token anyone may send


@dataclass(frozen=True, slots=True)
class Grant:
    """What a link opens: ``kind`` (``"keeper_session"``, ``"tournament"``) and ``target`` (its id,
    as text), with ``role`` in ``scope`` (None: all of it)."""

    kind: str
    target: str
    role: str
    scope: str | None = None


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def derive(master: str, role: str, scope: str | None = None) -> str:
    """The token of ``role`` (in ``scope``) under the organiser's token ``master``."""
    if role == ORGANISER and scope is None:
        return master
    mac = hmac.new(master.encode(), f"{role}:{scope or ''}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")


def issue(store: Store, kind: str, target: str, roles: Iterable[tuple[str, str | None]]) -> str:
    """New links for ``target``: a fresh organiser token from ``secrets`` and each of ``roles``
    derived from it. Every earlier link of the target stops working. Returns the organiser's token."""
    master = secrets.token_urlsafe(24)
    with store.transaction():
        store.conn.execute("DELETE FROM access_links WHERE kind = ? AND target = ?", (kind, target))
        for role, scope in ((ORGANISER, None), *roles):
            _insert(store, derive(master, role, scope), Grant(kind, target, role, scope))
    return master


def add(store: Store, master: str, role: str, scope: str | None = None) -> str:
    """One more role's link under the organiser's token ``master`` (a table added to a round): its
    token. Raises ``KeyError`` when ``master`` is not an organiser's link."""
    g = resolve(store, master)
    if g is None or g.role != ORGANISER:
        raise KeyError("not an organiser's link")
    token = derive(master, role, scope)
    if resolve(store, token) is None:
        with store.transaction():
            _insert(store, token, Grant(g.kind, g.target, role, scope))
    return token


def _insert(store: Store, token: str, g: Grant) -> None:
    store.conn.execute(
        "INSERT INTO access_links (token_sha256, kind, target, role, scope, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (_hash(token), g.kind, g.target, g.role, g.scope, datetime.now(UTC).isoformat(timespec="seconds")))


def resolve(store: Store, token: str | None) -> Grant | None:
    """What ``token`` opens, or None (unknown, malformed, revoked: the same answer)."""
    if not token or len(token) > MAX_TOKEN or not token.isascii():
        return None
    row = store.conn.execute("SELECT kind, target, role, scope FROM access_links WHERE token_sha256 = ?",
                             (_hash(token),)).fetchone()
    return None if row is None else Grant(row[0], row[1], row[2], row[3])


__all__ = ["ORGANISER", "Grant", "add", "derive", "issue", "resolve"]
