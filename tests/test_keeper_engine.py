"""An engine game's outcomes, entered into the score keeper, give the engine's result exactly
(issue 12 "How it must be shown"): the keeper and the engine share game/payout and the flow.

Every game of the golden set (tools/golden_events.py: six presets, kans, kita, flowers, pao,
chombo, double ron, nagashi) is replayed outcome by outcome — each win by its value (han/fu or
yakuman, the chip-relevant yaku, ura, closed, chip flowers, pao), each draw by its tenpai and
nagashi seats, each abort by its kind, each chombo by its offender — and the keeper's final
scores, points and chips must equal the engine's. Rows: P43-P48, P88-P101, P108-P121.
The 6 games the engine ended by its 200-hand safety net are checked too: the keeper has no such
cap (a real table has none), so its game is still in play, at the engine's very table; settled
as the engine ended it, it gives the engine's result (``_check_hand_limit_game``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sanma.game import flow
from sanma.game.engine import Game
from sanma.keeper.keeper import Session, compute
from sanma.keeper.log import Change
from sanma.tiles import YAOCHUU, Tile
from scripts import load_script

PEOPLE = ("P0", "P1", "P2")
ABORTS = {"kyuushu": "kyuushu", "sanfuu_renda": "three_winds", "suukaikan": "four_kans", "all_riichi": "all_riichi"}


GOLDEN = load_script("tools/golden_events.py")


def _kyoku(events: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    hand: list[dict[str, Any]] = []
    for e in events:
        if e["type"] == "start_kyoku":
            hand = [e]
        elif hand:
            hand.append(e)
            if e["type"] == "end_kyoku":
                yield hand
                hand = []


def entries_of(game: Game) -> list[dict[str, Any]]:
    """What a person at the table would have entered for each hand of ``game``."""
    r = game.rules
    out: list[dict[str, Any]] = []
    scores_iter = iter([s for h in game.hand_results for s in h.scores])
    for hand in _kyoku(game.events):
        riichi = [PEOPLE[e["actor"]] for e in hand if e["type"] == "reach_accepted"]
        opened = {e["actor"] for e in hand if e["type"] in ("pon", "daiminkan")}
        chip_flowers = [0, 0, 0]
        for e in hand:
            if e["type"] == "flower" and int(e["pai"][0]) <= r.flower_chip_tiles:
                chip_flowers[e["actor"]] += 1
        horas = [e for e in hand if e["type"] == "hora"]
        chombos = [e for e in hand if e["type"] == "chombo"]
        ryu = [e for e in hand if e["type"] == "ryukyoku"]
        if chombos:
            out.append({"kind": "chombo", "who": [PEOPLE[e["actor"]] for e in chombos],
                        "reason": chombos[0]["reason"]})
        elif horas:
            wins = []
            pao = None
            for e in horas:
                s = next(scores_iter)
                names = [y.name for y in s.yaku]
                w: dict[str, Any] = {"winner": PEOPLE[e["actor"]], "closed": e["actor"] not in opened,
                                     "chip_flowers": chip_flowers[e["actor"]]}
                if s.yakuman and not s.kazoe:
                    w["yakuman"] = s.yakuman
                    w["yaku"] = [y.name for y in s.yaku if y.yakuman]
                    if _one_suit(hand, e):
                        w["yaku"].append("chinitsu")
                else:
                    w.update(han=s.han, fu=s.fu, yaku=[n for n in names if n not in ("ippatsu", "ura_dora")],
                             ippatsu="ippatsu" in names,
                             ura_han=sum(y.han for y in s.yaku if y.name == "ura_dora"))
                wins.append(w)
                if "pao" in e:
                    pao = PEOPLE[e["pao"]]
            entry: dict[str, Any] = {"kind": "win", "wins": wins, "riichi": riichi}
            if horas[0]["target"] != horas[0]["actor"]:
                entry["from"] = PEOPLE[horas[0]["target"]]
            if pao:
                entry["pao"] = pao
            out.append(entry)
        else:
            (e,) = ryu
            if e["reason"] == "nagashi":
                out.append({"kind": "draw", "nagashi": [PEOPLE[s] for s in e["nagashi"]], "riichi": riichi})
            elif e["reason"] == "exhaustive":
                out.append({"kind": "draw", "tenpai": [PEOPLE[s] for s in e["tenpai"]], "riichi": riichi,
                            "nagashi": [PEOPLE[s] for s in _nagashi(hand)] if r.nagashi != "none" else []})
            else:
                out.append({"kind": "abort", "abort": ABORTS[e["reason"]], "riichi": riichi})
    return out


def _one_suit(hand: list[dict[str, Any]], hora: dict[str, Any]) -> bool:
    tiles = list(hora["hora_tehais"]) + [t for e in hand if e["type"] in ("pon", "daiminkan", "ankan", "kakan")
                                        and e["actor"] == hora["actor"] for t in e.get("consumed", [])]
    kinds = {Tile.from_mjai(t).kind for t in tiles}
    return bool(kinds) and all(k < 27 for k in kinds) and len({k // 9 for k in kinds}) == 1


def _nagashi(hand: list[dict[str, Any]]) -> list[int]:
    """Seats whose every discard was a terminal or honour and none was called (P96)."""
    ok = [True, True, True]
    discarded = [False, False, False]
    for e in hand:
        if e["type"] == "dahai":
            discarded[e["actor"]] = True
            if Tile.from_mjai(e["pai"]).kind not in YAOCHUU:
                ok[e["actor"]] = False
        elif e["type"] in ("pon", "daiminkan"):
            ok[e["target"]] = False
    return [s for s in range(3) if ok[s] and discarded[s]]


def _session(game: Game) -> Session:
    """The session after entering every outcome (the log folded once, as every read does)."""
    log = [Change(i, "add", None, e) for i, e in enumerate(entries_of(game), start=1)]
    return compute(1, game.rules, PEOPLE, "hands", None, log, len(log))


def _keep(game: Game) -> dict[str, Any]:
    return _session(game).to_json()


SPECS = list(GOLDEN.specs())


@pytest.mark.parametrize("spec", SPECS, ids=[s.key for s in SPECS])
def test_engine_game_outcomes_fed_to_the_keeper_give_the_engines_result(spec: Any) -> None:
    """P43-P48, P88-P101, P108-P121: the same outcomes, settled by the keeper, end the same game
    with the same final scores, points and chips as the engine."""
    game = GOLDEN.play(spec)
    assert game.result is not None
    if game.end_reason == "hand_limit":
        _check_hand_limit_game(game)
        return
    state = _keep(game)
    assert state["finished"], f"the keeper did not end the game; engine ended it by {game.end_reason}"
    (result,) = state["games"]
    assert [result["scores"][p] for p in PEOPLE] == list(game.result.scores)
    assert [result["points"][p] for p in PEOPLE] == list(game.result.points)
    assert [result["chips"][p] for p in PEOPLE] == list(game.result.chips)


def _check_hand_limit_game(game: Game) -> None:
    """6 of the 60 golden games were ended by the engine's safety net (``max_hands = 200``, bots
    that never end a game), not by a rule. A table with real people has no such cap, so the
    keeper does not stop there: after the same 200 outcomes its game is still in play. What it
    can reproduce it does: its running scores and chips are the engine's at its last hand's end,
    and settling that very table as the engine ended it (flow.final with the ``hand_limit`` end)
    gives the engine's final scores, points and chips."""
    s = _session(game)
    kept = s.current
    assert kept is not None and not kept.finished and not s.games
    last = [e for e in game.events if e["type"] == "end_kyoku"][-1]
    assert kept.scores == list(last["scores"]) and len(kept.hands) == game.hand_number + 1
    result = flow.final(game.rules, flow.HandEnd(kept.table, True, "hand_limit"))
    assert game.result is not None
    assert list(result.scores) == list(game.result.scores)
    assert list(result.points) == list(game.result.points)
    assert list(result.chips) == list(game.result.chips)
