"""The browser table: ``sanma serve`` (FastAPI + uvicorn + WebSockets over SQLite).

``create_app(db_path)`` builds the application; :mod:`sanma.web.tables` holds the running
tables (the server is their only authority), :mod:`sanma.web.ws` speaks the page's protocol
(docs/WEB_PROTOCOL.md) and the mjai dialect for external bots; the score keeper's router is
:mod:`sanma.web.keeper`.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
