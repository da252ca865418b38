"""Seat jansou's ``SmartEfficiencyAgent`` at a sanma table: an mjai program run by jansou's own Python.

    .venv/bin/python -m sanma simulate --rules tenhou --games 20 \\
        --bots "efficient,mjai:$HOME/.cache/sanma-bench/jansou/bin/python benchmarks/jansou_bridge.py,mjai:..."

jansou 0.14.0 has no live mjai interface. Its agents are driven by ``Environment`` through two
calls: ``observe(event)`` with every jansou event the seat may see (``DealStart``, ``Draw``,
``Discard``, ``Call``, ``NorthExtraction``, ``IndicatorReveal``, ...) and ``act(seat, kind,
actions)`` with the decision kind and the offered jansou actions. ``SmartEfficiencyAgent``
rebuilds its own hand, melds and seen tiles from those events (``jansou.game.agents._PlayerView``)
and is handed no other state. This bridge does exactly what ``Environment.run`` does for it:

- every mjai event sanma sends is translated into the jansou event it stands for and passed to
  the agent's ``observe``: ``start_kyoku`` -> ``DealStart`` (own hand only, dealer, round wind,
  honba, deposits, scores, first dora indicator), ``tsumo`` -> ``Draw``, ``dahai`` -> ``Discard``
  (with the preceding ``reach``), ``pon``/``daiminkan``/``ankan``/``kakan`` -> ``Call``,
  ``kita`` -> ``NorthExtraction``, ``dora`` -> ``IndicatorReveal``, ``reach_accepted`` ->
  ``RiichiAccepted``; results (``hora``, ``ryukyoku``, ``end_kyoku``) carry nothing the agent reads;
- the legal actions come from sanma's ``possible_actions`` (the sanma extension on the last event
  of each batch), each translated into the jansou action it is (``dahai`` -> ``Discard``, ``reach``
  -> ``Riichi``, ``hora`` -> ``Tsumo``/``Ron``, ``pon`` -> ``Pon``, ``daiminkan`` -> ``OpenKan``,
  ``ankan`` -> ``ClosedKan``, ``kakan`` -> ``AddedKan``, ``kita`` -> ``Nuki``, ``ryukyoku`` ->
  ``NineTerminals``, ``none`` -> ``Pass``), in sanma's order (which is jansou's: hand tiles, then
  the drawn tile);
- the agent's choice is answered as the mjai action it came from (riichi in the one-step form).

It never hangs and never answers something illegal: whatever it cannot translate (an unknown
event or action, an agent exception, a choice outside the offer, a kyoku already out of step)
is answered with the protocol's safe default (``none`` when passing is allowed, else tsumogiri)
and the reason goes to stderr; after a failed event translation the rest of that kyoku is played
by the default, since the agent's view of the hand can no longer be trusted. ``--stats FILE``
appends one JSON line per game with the counts (``decisions``, ``agent``, ``fallbacks``,
``reasons``), which sanma cannot see: a fallback here is a legal answer to sanma.

It does not import sanma (it runs in jansou's virtualenv) and needs only the standard library
and jansou 0.14.0.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections import Counter
from typing import Any

from jansou.core.hand import MeldType
from jansou.core.notation import parse_mjai
from jansou.core.tiles import Tile, TileKind, Wind
from jansou.game.actions import (
    Action,
    AddedKan,
    ClosedKan,
    Discard,
    NineTerminals,
    Nuki,
    OpenKan,
    Pass,
    Pon,
    Riichi,
    Ron,
    Tsumo,
)
from jansou.game.agents import SmartEfficiencyAgent
from jansou.game.events import (
    Call,
    DealStart,
    Draw,
    Event,
    GameStart,
    IndicatorReveal,
    NorthExtraction,
    RiichiAccepted,
)
from jansou.game.events import Discard as DiscardEvent
from jansou.game.flow import DecisionKind

PLAYERS = 3
WINDS = {"E": Wind.EAST, "S": Wind.SOUTH, "W": Wind.WEST, "N": Wind.NORTH}
CALLS = {"pon": MeldType.PON, "daiminkan": MeldType.DAIMINKAN}
IGNORED = frozenset({"hora", "ryukyoku", "end_kyoku", "none", "end_game"})  # nothing the agent reads
SELF_TYPES = frozenset({"dahai", "reach", "kita", "ankan", "kakan", "ryukyoku"})


class Untranslatable(Exception):
    """An mjai event or action the bridge has no jansou counterpart for."""


def tile(name: Any) -> Tile:
    if not isinstance(name, str):
        raise Untranslatable(f"tile {name!r} is not a string")
    try:
        (t,) = parse_mjai(name)
    except ValueError as e:
        raise Untranslatable(f"tile {name!r}: {e}") from None
    return t


def tiles(names: Any) -> tuple[Tile, ...]:
    if not isinstance(names, list):
        raise Untranslatable(f"tiles {names!r} are not a list")
    return tuple(tile(n) for n in names)


class Bridge:
    """One game at one seat: the agent, and what it takes to feed it."""

    def __init__(self, log: Any = sys.stderr) -> None:
        self.log = log
        self.seat = -1
        self.agent: SmartEfficiencyAgent | None = None
        self.reach_pending: int | None = None
        self.broken: str | None = None  # why the agent's view of this kyoku cannot be trusted
        self.kyoku = "?"
        self.decisions = 0
        self.by_agent = 0
        self.reasons: Counter[str] = Counter()
        self.finished = False

    # -- events --------------------------------------------------------------------------------
    def see(self, e: dict[str, Any]) -> None:
        t = e.get("type")
        if t == "start_game":
            self.seat = int(e["id"])
            seed = zlib.crc32(f"{e.get('seed', '')}/{self.seat}".encode())
            self.agent = SmartEfficiencyAgent(seed=seed)
            self.observe(GameStart(PLAYERS, tuple(e.get("names") or ("",) * PLAYERS),
                                   tuple(e.get("scores") or (0,) * PLAYERS)))
            return
        if t == "end_game":
            self.finished = True
        if t == "start_kyoku":
            self.broken = None
            self.kyoku = f"{e.get('bakaze')}{e.get('kyoku')}-{e.get('honba')}"
            self.reach_pending = None
        if self.broken is not None or t in IGNORED:
            return
        try:
            ev = self.translate(e)
        except (Untranslatable, KeyError, TypeError, ValueError) as err:
            self.broken = f"{t}: {err}"
            self.say(f"cannot translate event {json.dumps(e)[:200]} ({err}); default answers until the next kyoku")
            return
        if ev is not None:
            self.observe(ev)

    def observe(self, ev: Event) -> None:
        if self.agent is None:
            raise Untranslatable("no start_game before the first event")
        try:
            self.agent.observe(ev)
        except Exception as err:  # the agent's own view broke: stop trusting it this kyoku
            self.broken = f"agent.observe({type(ev).__name__}): {type(err).__name__}: {err}"
            self.say(self.broken)

    def translate(self, e: dict[str, Any]) -> Event | None:
        t = e["type"]
        if t == "start_kyoku":
            own = tiles(e["tehais"][self.seat])
            hands = tuple(own if i == self.seat else None for i in range(PLAYERS))
            return DealStart(dealer=int(e["oya"]), round_wind=WINDS[e["bakaze"]], round_number=int(e["kyoku"]),
                             honba=int(e["honba"]), deposits=1000 * int(e["kyotaku"]),
                             scores=tuple(e["scores"]), hands=hands, dora_indicator=tile(e["dora_marker"]))
        if t == "tsumo":
            actor = int(e["actor"])
            drawn = tile(e["pai"]) if actor == self.seat else None
            return Draw(actor, drawn, replacement=bool(e.get("rinshan", False)))
        if t == "dahai":
            actor = int(e["actor"])
            riichi = self.reach_pending == actor
            self.reach_pending = None
            return DiscardEvent(actor, tile(e["pai"]), tsumogiri=bool(e.get("tsumogiri", False)), riichi=riichi)
        if t == "reach":
            self.reach_pending = int(e["actor"])
            return None
        if t == "reach_accepted":
            return RiichiAccepted(int(e["actor"]))
        if t in CALLS:
            return Call(CALLS[t], int(e["actor"]), int(e["target"]), (*tiles(e["consumed"]), tile(e["pai"])))
        if t == "ankan":
            actor = int(e["actor"])
            return Call(MeldType.ANKAN, actor, actor, tiles(e["consumed"]))
        if t == "kakan":
            actor = int(e["actor"])
            return Call(MeldType.SHOUMINKAN, actor, actor, (*tiles(e["consumed"]), tile(e["pai"])))
        if t == "kita":
            return NorthExtraction(int(e["actor"]), Tile(TileKind.NORTH))
        if t == "dora":
            return IndicatorReveal(tile(e["dora_marker"]))
        raise Untranslatable(f"no jansou event for mjai {t!r}")  # e.g. kansai flowers, chi

    # -- decisions -----------------------------------------------------------------------------
    def action(self, a: dict[str, Any]) -> Action:
        t = a.get("type")
        if t == "dahai":
            return Discard(tile(a["pai"]), tsumogiri=bool(a.get("tsumogiri", False)))
        if t == "reach":
            return Riichi(tile(a["pai"]), tsumogiri=bool(a.get("tsumogiri", False)))
        if t == "hora":
            return Tsumo() if a.get("target", self.seat) == self.seat else Ron()
        if t == "pon":
            consumed = tiles(a["consumed"])
            if len(consumed) != 2:
                raise Untranslatable(f"pon consuming {len(consumed)} tiles")
            return Pon((consumed[0], consumed[1]))
        if t == "daiminkan":
            return OpenKan()
        if t == "ankan":
            return ClosedKan(tiles(a["consumed"])[0].kind)
        if t == "kakan":
            return AddedKan(tile(a["pai"]))
        if t == "kita":
            return Nuki()
        if t == "ryukyoku":
            return NineTerminals()
        if t == "none":
            return Pass()
        raise Untranslatable(f"no jansou action for mjai {t!r}")  # e.g. open_reach

    def decide(self, last: dict[str, Any], possible: list[dict[str, Any]]) -> dict[str, Any]:
        self.decisions += 1
        if self.broken is not None:
            return self.fall_back(possible, "kyoku out of step", f"earlier: {self.broken}")
        if self.agent is None:
            return self.fall_back(possible, "no start_game", "no start_game before the first decision")
        offered: dict[Action, dict[str, Any]] = {}
        skipped = []
        for a in possible:
            try:
                offered.setdefault(self.action(a), a)
            except (Untranslatable, KeyError, TypeError, ValueError) as err:
                skipped.append(f"{a.get('type')}: {err}")
        if skipped:
            self.say(f"offered actions left out: {'; '.join(skipped)}")
        if not offered:
            return self.fall_back(possible, "nothing translatable", "no offered action translates")
        own_turn = any(a.get("type") in SELF_TYPES for a in possible) or any(
            a.get("type") == "hora" and a.get("target") == self.seat for a in possible)
        if own_turn:
            kind = DecisionKind.SELF
        elif last.get("type") == "kakan":
            kind = DecisionKind.ROBBED_KAN
        elif last.get("type") == "kita":
            kind = DecisionKind.NORTH_REACTION
        else:
            kind = DecisionKind.DISCARD_REACTION
        if kind is DecisionKind.SELF:
            held = set(self.agent._view._pool())  # the hand the agent rebuilt from the events
            missing = sorted({a.tile for a in offered if isinstance(a, Discard | Riichi)} - held)
            if missing:
                self.broken = f"agent's hand lacks offered discards {missing}"
                return self.fall_back(possible, "hand out of step", self.broken)
        try:
            choice = self.agent.act(self.seat, kind, list(offered))
        except Exception as err:  # any agent failure becomes a logged default answer
            return self.fall_back(possible, f"agent raised {type(err).__name__}", f"agent raised {err!r}")
        answer = offered.get(choice)
        if answer is None:
            return self.fall_back(possible, "choice not offered", f"agent chose {choice!r}, not offered")
        self.by_agent += 1
        return {k: v for k, v in answer.items() if k != "possible_actions"}

    def fall_back(self, possible: list[dict[str, Any]], reason: str, detail: str) -> dict[str, Any]:
        self.reasons[reason] += 1
        self.say(f"default answer ({detail})")
        return default(possible, self.seat)

    def say(self, text: str) -> None:
        print(f"jansou_bridge seat {self.seat} {self.kyoku}: {text}", file=self.log, flush=True)

    def stats(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "agent": self.by_agent,
                "fallbacks": self.decisions - self.by_agent, "reasons": dict(self.reasons),
                "finished": self.finished}


def default(possible: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    """The protocol's safe answer: pass, else discard the drawn tile, else the first discard."""
    if any(a.get("type") == "none" for a in possible):
        return {"type": "none", "actor": seat}
    dahai = [a for a in possible if a.get("type") == "dahai"]
    pick = next((a for a in dahai if a.get("tsumogiri") is True), dahai[0] if dahai else None)
    if pick is not None:
        return {k: v for k, v in pick.items() if k != "possible_actions"}
    return {"type": "none", "actor": seat}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stats", help="append one JSON line per game with the bridge's counts to this file")
    args = ap.parse_args()
    bridge = Bridge()
    written = False
    for line in sys.stdin:
        answer: dict[str, Any] = {"type": "none"}
        try:
            batch = json.loads(line)
            if not isinstance(batch, list):
                batch = [batch]
            for e in batch:
                if isinstance(e, dict):
                    bridge.see(e)
            last = batch[-1] if batch and isinstance(batch[-1], dict) else {}
            possible = last.get("possible_actions")
            if isinstance(possible, list) and possible:
                answer = bridge.decide(last, [a for a in possible if isinstance(a, dict)])
        except Exception as err:  # never die mid-game: answer and go on
            bridge.reasons["bridge error"] += 1
            bridge.decisions += 1
            bridge.say(f"bridge error {err!r} on {line[:200]!r}")
            try:
                last = json.loads(line)[-1]
                answer = default([a for a in last.get("possible_actions", []) if isinstance(a, dict)], bridge.seat)
            except Exception:  # a line that is not even a batch
                answer = {"type": "none"}
        if bridge.finished and not written:
            written = write_stats(args.stats, bridge)
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    if not written:
        write_stats(args.stats, bridge)
    return 0


def write_stats(path: str | None, bridge: Bridge) -> bool:
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(bridge.stats()) + "\n")
    return True


if __name__ == "__main__":
    sys.exit(main())
