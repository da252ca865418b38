"""How a score sheet writes numbers (P30): a minus sign, or seed 002's △.

Seed 002 L39: 「成績表に表記するときは、マイナスを△と表記すること」 — the official preset sets
``score_notation = "triangle"``; every other preset writes ``-``. The keeper's text tables, its
CSV export and its pages write numbers through :func:`signed`; :func:`parse_signed` reads either
form back (and the ▲ some sheets use), so an exported sheet can be read again.

>>> signed(-10, "triangle"), signed(-10, "minus"), signed(20, "triangle", plus=True)
('△10', '-10', '+20')
>>> signed(-2.5, "triangle", ".1f"), signed(-12000, "triangle", ","), parse_signed("△12,000")
('△2.5', '△12,000', -12000)
>>> parse_signed("△2.5"), parse_signed("+3"), parse_signed("-7")
(-2.5, 3, -7)
"""

from __future__ import annotations

import re
from typing import Final

from ..i18n import sentence
from .entries import KeeperError

TRIANGLE: Final = "△"
_NUMBER: Final = re.compile(r"\s*([-+△▲−＋]?)\s*(\d[\d,]*(?:\.\d+)?)\s*")


def signed(value: float, notation: str, spec: str = "", *, plus: bool = False) -> str:
    """``value`` formatted with ``spec`` (a format spec without sign, e.g. ``",``", ``".1f"``),
    a negative one written ``△…`` under ``notation = "triangle"`` (P30), else ``-…``; ``plus``
    writes ``+`` before a positive one."""
    body = format(abs(value), spec)
    if value < 0:
        return (TRIANGLE if notation == "triangle" else "-") + body
    return ("+" if plus and value > 0 else "") + body


def parse_signed(text: str) -> int | float:
    """A number as :func:`signed` writes it, in either notation (△ / ▲ / - / − mean minus).
    :class:`KeeperError` names the text when it is not one."""
    m = _NUMBER.fullmatch(text)
    if m is None:
        raise KeeperError(sentence("{text!r} is not a number (write e.g. 12000, -12000 or △12000)", text=text))
    sign, digits = m.groups()
    digits = digits.replace(",", "")
    value: int | float = float(digits) if "." in digits else int(digits)
    return -value if sign in ("-", TRIANGLE, "▲", "−") else value
