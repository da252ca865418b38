#!/usr/bin/env python3
"""A tiny external mjai bot for sanma: ``sanma simulate --bots "mjai:python examples/mjai_bot.py",random,random``.

It speaks the stdin/stdout convention of mjai.app and Mortal-style bots: read one line holding a
JSON array of events, answer one line holding one JSON action. It needs nothing but Python.

- default, "efficient-lite": wins whenever it may, pulls kita, declares riichi (the two-step mjai
  form: ``{"type":"reach"}``, then the discard when sanma sends the reach event back), never
  calls, and otherwise discards the tile that connects least with the rest of its hand;
- ``--tsumogiri``: wins when sanma's ``possible_actions`` offers it, otherwise discards whatever
  it drew and passes on everything: the same player as sanma's built-in ``tsumogiri`` bot, but
  following its own hand from the events as a bot written for plain mjai would.
"""

from __future__ import annotations

import json
import sys
from typing import Any

HONOURS = ("E", "S", "W", "N", "P", "F", "C")


def kind(tile: str) -> tuple[str, int]:
    """('z', 1..7) for honours, (suit, number) for number tiles; a red five is a five."""
    if tile in HONOURS:
        return "z", HONOURS.index(tile) + 1
    return tile[1], int(tile[0])


class Bot:
    def __init__(self, tsumogiri: bool) -> None:
        self.tsumogiri = tsumogiri
        self.seat = -1
        self.hand: list[str] = []
        self.drawn: str | None = None

    # -- following the game --------------------------------------------------------------------
    def see(self, e: dict[str, Any]) -> None:
        t = e["type"]
        mine = e.get("actor") == self.seat
        if t == "start_game":
            self.seat = e["id"]
        elif t == "start_kyoku":
            self.hand = list(e["tehais"][self.seat])
            self.drawn = None
        elif t == "tsumo" and mine:
            self.hand.append(e["pai"])
            self.drawn = e["pai"]
        elif t == "dahai" and mine:
            self.hand.remove(e["pai"])
            self.drawn = None
        elif t in ("pon", "daiminkan", "ankan") and mine:
            for c in e["consumed"]:
                self.hand.remove(c)
        elif t in ("kakan", "kita", "flower") and mine:
            self.hand.remove(e["pai"])

    # -- deciding ------------------------------------------------------------------------------
    def keep_value(self, tile: str) -> int:
        """How well ``tile`` connects: copies of it, and neighbours in its suit."""
        s, n = kind(tile)
        value = 0
        itself = False
        for other in self.hand:
            if other == tile and not itself:  # the tile itself, once
                itself = True
                continue
            os_, on = kind(other)
            if os_ != s:
                continue
            d = abs(on - n)
            if d == 0:
                value += 4
            elif s != "z" and d == 1:
                value += 2
            elif s != "z" and d == 2:
                value += 1
        return value * 10 + (0 if s == "z" or n in (1, 9) else 1)  # ties: terminals and honours go first

    def choose(self, tiles: list[str]) -> str:
        return min(tiles, key=lambda t: (self.keep_value(t), t))

    def react(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        for e in events:
            self.see(e)
        last = events[-1] if events else {}
        if self.tsumogiri:
            if any(a["type"] == "hora" for a in last.get("possible_actions", ())):
                return {"type": "hora", "actor": self.seat}
            if last.get("type") == "tsumo" and last.get("actor") == self.seat:
                return {"type": "dahai", "actor": self.seat, "pai": last["pai"], "tsumogiri": True}
            return {"type": "none"}
        possible: list[dict[str, Any]] = last.get("possible_actions", [])
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in possible:
            by_type.setdefault(a["type"], []).append(a)
        for t in ("hora", "kita"):
            if t in by_type:
                return by_type[t][0]
        if last.get("type") == "reach" and last.get("actor") == self.seat:  # step two: the riichi discard
            pai = self.choose([a["pai"] for a in possible])
            return {"type": "dahai", "actor": self.seat, "pai": pai, "tsumogiri": pai == self.drawn}
        if "reach" in by_type:
            return {"type": "reach", "actor": self.seat}
        if "dahai" in by_type:
            pai = self.choose([a["pai"] for a in by_type["dahai"]])
            return {"type": "dahai", "actor": self.seat, "pai": pai, "tsumogiri": pai == self.drawn}
        return {"type": "none"}


def main() -> None:
    bot = Bot(tsumogiri="--tsumogiri" in sys.argv[1:])
    for line in sys.stdin:
        answer = bot.react(json.loads(line))
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
