"""The server's edge: what every HTTP answer and request body goes through (issue 23).

``JSON`` is every API answer: ``{"error": ...}`` or data, escaped to ASCII so that no stored text
(an old database's name with a lone surrogate) can make an answer fail to encode.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse


class JSON(JSONResponse):
    """A JSON answer that always encodes (non-ASCII text as ``\\u`` escapes)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


__all__ = ["JSON"]
