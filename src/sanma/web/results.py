"""What the table's cards show: a hand's result and the game's final settlement.

:func:`hand_result` builds the ``hand_result`` payload (docs/WEB_PROTOCOL.md) from the hand's own
events (``start_kyoku`` .. ``end_kyoku``: the engine's, as every seat was told them) and the engine's
:class:`~sanma.game.seat.HandResult` (the fu breakdown, which no event carries). The served table
(``web/tables.py``) and the replay viewer (``web/replays.py``) both call it, so a hand's card is the
same at the table and in a replay. Nothing here decides a rule: every figure is the engine's (its
events, its settlement); this module only gathers them for the card.

What the card may show is what the table showed at the hand's end: the winners' hands (revealed by
the win), every seat's melds (public), the revealed dora indicators, the ura indicators of a riichi
winner, kita and flowers set aside, and at an exhaustive draw the hands of the tenpai seats only
(the engine's ``ryukyoku`` event carries them; a noten hand is never shown).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game.seat import HandResult
from ..game.settle import oka, uma_by_seat
from ..game.view import MeldView
from ..hand import MeldType
from ..rules import Rules
from ..scoring import DORA_NAMES
from ..tiles import SEATS, Tile

# The card's dora / ura / aka / kita / flowers han, from the score's dora lines (scoring.DORA_NAMES).
DORA_LINE_KEYS = {"dora": "dora", "kan_bonus": "dora", "ura_dora": "ura", "aka_dora": "aka", "kita_dora": "kita",
                  "flower_dora": "flowers"}


def _tiles(names: Sequence[str]) -> tuple[Tile, ...]:
    return tuple(Tile.from_mjai(n) for n in names)


def hand_melds(hand_events: Sequence[Mapping[str, Any]]) -> list[list[MeldView]]:
    """Every seat's melds at the end of the hand, as called (the public ``pon``, ``daiminkan``,
    ``kakan`` and ``ankan`` events; a kakan turns its pon into a kan with the added tile on top)."""
    melds: list[list[MeldView]] = [[] for _ in range(SEATS)]
    for e in hand_events:
        t = e["type"]
        if t in ("pon", "daiminkan"):
            called = Tile.from_mjai(e["pai"])
            typ: MeldType = "pon" if t == "pon" else "kan"
            melds[e["actor"]].append(MeldView(typ, (*_tiles(e["consumed"]), called), e["target"], called, t))
        elif t == "kakan":
            added = Tile.from_mjai(e["pai"])
            own = melds[e["actor"]]
            for i, m in enumerate(own):
                if m.type == "pon" and m.tiles[0].kind == added.kind:
                    own[i] = MeldView("kan", (*m.tiles, added), m.target, m.called, "kakan", added)
                    break
        elif t == "ankan":
            melds[e["actor"]].append(MeldView("ankan", _tiles(e["consumed"]), None, None, "ankan"))
    return melds


def _without(hand: Sequence[str], tile: str) -> list[str]:
    """``hand`` less one copy of ``tile`` (the exact copy, red five included, when it is there)."""
    out = list(hand)
    if tile in out:
        out.remove(tile)
    else:
        kind = Tile.from_mjai(tile).kind
        for i, t in enumerate(out):
            if Tile.from_mjai(t).kind == kind:
                del out[i]
                break
    return out


def _sorted(names: Sequence[str]) -> list[str]:
    return [t.mjai for t in sorted(_tiles(names))]


def hand_result(rules: Rules, hand_events: Sequence[Mapping[str, Any]], result: HandResult | None,
                chips: Sequence[int], *, final: bool = False) -> dict[str, Any]:
    """The ``hand_result`` payload of the hand whose events are ``hand_events`` (its ``start_kyoku``
    to its ``end_kyoku``); ``result`` is the engine's ``HandResult`` of that hand (its scores give
    the fu breakdown), ``chips`` the hand's chip changes, ``final`` True when the game ended with it."""
    start = hand_events[0]
    melds = hand_melds(hand_events)
    dora = [str(d) for d in start.get("dora_markers") or [start["dora_marker"]]]
    kita = [0] * SEATS
    flowers: list[list[str]] = [[] for _ in range(SEATS)]
    declared = 0  # riichi sticks placed during the hand
    wins: list[dict[str, Any]] = []
    ura: list[str] = []
    scores = list(result.scores) if result is not None and result.kind == "hora" else []
    none: Mapping[str, Any] = {}
    draw = none
    chombo: list[dict[str, Any]] = []
    for e in hand_events:
        t = e["type"]
        if t == "dora":
            dora.append(e["dora_marker"])
        elif t == "kita":
            kita[e["actor"]] += 1
        elif t == "flower":
            flowers[e["actor"]].append(e["pai"])
        elif t == "reach_accepted":
            declared += 1
        elif t in ("ryukyoku", "riichi_bust"):
            draw = e
        elif t == "chombo":
            chombo.append({"seat": e["actor"], "reason": e["reason"], "deltas": e["deltas"]})
        elif t == "hora":
            s = scores.pop(0) if scores else None
            wins.append(_win(e, s, melds, kita, flowers))
            ura = list(e.get("uradora_markers") or ura)
    end = next((e for e in reversed(hand_events) if e["type"] == "end_kyoku"), none)
    kind = result.kind if result is not None else ("hora" if wins else "ryukyoku")
    reason = str(draw.get("reason", "riichi_bust" if draw.get("type") == "riichi_bust" else "")) or (
        result.reason if result is not None else "")
    tenpai = list(draw.get("tenpai") or (result.tenpai if result is not None else ()))
    tehais = draw.get("tehais") or []
    tenpai_hands = [{"seat": s, "hand": _sorted(tehais[s]), "melds": [m.to_json() for m in melds[s]],
                     "kita": kita[s], "flower_tiles": flowers[s]}
                    for s in tenpai if s < len(tehais) and tehais[s]]
    sticks = int(start["kyotaku"]) + declared
    out: dict[str, Any] = {
        "kind": kind,
        "round": {"wind": start["bakaze"], "number": start["kyoku"], "honba": start["honba"],
                  "sticks": start["kyotaku"], "dealer": start["oya"]},
        "reason": reason,
        "wins": wins, "tenpai": tenpai, "tenpai_hands": tenpai_hands,
        "nagashi": list(draw.get("nagashi") or []),
        "actor": draw.get("actor"),  # who declared nine terminals, or whose riichi bust ended the hand
        "chombo": chombo,
        "dora_indicators": dora, "uradora_markers": ura,
        "deltas": end.get("deltas", [0] * SEATS), "honba": start["honba"], "sticks": start["kyotaku"],
        # every stick on the table goes to the winners (payout.settle_hora and a nagashi win leave none)
        "sticks_won": sticks if kind == "hora" else 0, "riichi_deposit": rules.riichi_deposit,
        "chips": list(chips), "scores": end.get("scores", []), "final": final,
    }
    return out


def _win(e: Mapping[str, Any], score: Any, melds: list[list[MeldView]], kita: list[int],
         flowers: list[list[str]]) -> dict[str, Any]:
    seat, tsumo = e["actor"], e["actor"] == e["target"]
    lines = {"dora": 0, "ura": 0, "aka": 0, "kita": 0, "flowers": 0}
    for y in e.get("yaku", ()):
        name = str(y.get("name", ""))
        if name in DORA_NAMES:
            lines[DORA_LINE_KEYS.get(name, "dora")] += int(y.get("han", 0))
    hand = list(e.get("hora_tehais") or [])
    if tsumo and e.get("pai"):
        hand = _without(hand, e["pai"])  # the engine's hand holds the drawn winning tile: shown apart
    return {"seat": seat, "from": e["target"], "tsumo": tsumo, "pai": e["pai"], "hand": _sorted(hand),
            "melds": [m.to_json() for m in melds[seat]], "kita_tiles": kita[seat], "flower_tiles": flowers[seat],
            "yaku": e.get("yaku", []), "han": e.get("han"), "fu": e.get("fu"),
            "fu_breakdown": [list(f) for f in score.fu_breakdown] if score is not None else [],
            "yakuman": e.get("yakuman", 0), "limit": e.get("limit"), "points": e.get("points"),
            "uradora_markers": e.get("uradora_markers", []), "pao": e.get("pao"),
            "deltas": e.get("deltas"), **lines}


def settlement(rules: Rules, end_game: Mapping[str, Any]) -> dict[str, Any]:
    """The final settlement exactly as the engine settled it (``flow.final``, carried by its
    ``end_game`` event): scores, ranks, points and chips are the result's; ``uma_seats`` is each
    seat's uma from ``settle.uma_by_seat`` (the table sinking uma picks, tied places' shares), in
    ``uma_unit``; ``uma`` is the rules' list; ``oka`` the amount the top receives."""
    scores, ranks = list(end_game["scores"]), list(end_game["ranks"])
    return {"scores": scores, "ranks": ranks, "points": list(end_game["points"]),
            "chips": list(end_game.get("chips") or [0] * SEATS),
            "oka": oka(rules, SEATS),
            "uma": list(rules.uma), "uma_seats": list(uma_by_seat(rules, scores, ranks)),
            "uma_unit": "chips" if rules.uma_type == "chips" else "points", "reason": end_game.get("reason")}
