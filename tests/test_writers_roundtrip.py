"""Writers (issue 3): a game sanma played, written as mjai JSONL or tenhou.net/6 JSON and read back
by sanma's own readers, is the same game: replayed through the engine it gives back the very same
event stream (hands, draws, actions, results, final scores), under every preset.

ARCHITECTURE.md "Event stream": three-entry scores/tehais, ``kita`` events, the rule set named in
``start_game``; tenhou.net/6 for three players has four-seat arrays with an empty fourth seat
and kita as ``f44``.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from typing import Any

import pytest

from engine_helpers import shanten_policy_move
from sanma import events as ev
from sanma.errors import RecordError
from sanma.formats import GameRecord, read_mjai, read_tenhou6
from sanma.formats.mjai import _mjai_form, write_mjai
from sanma.formats.tenhou6 import _CALL_FROM, _call_position, _call_text, _parse_call, tenhou6_code, write_tenhou6
from sanma.game.engine import Game
from sanma.replay import replay_record
from sanma.rules import Rules

PRESETS = ("tenhou", "majsoul", "online", "official", "club", "kansai")
SEEDS = (0, 1, 2)


@cache
def _game(preset: str, seed: int) -> Game:
    """A whole game (the same seed gives the same game): every win is taken, discards lower the
    shanten (riichi preferred), and one move in ten is any legal action (calls, kita, kans ...)."""
    g = Game(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    while not g.done:
        shanten_policy_move(g, rng)
    assert len(g.hand_results) < g.max_hands  # ended by the rules, not by the safety net
    return g


def test_the_games_have_wins_calls_and_kita() -> None:
    """The round trips below cover results of every kind, not only draws."""
    events = [e for p in PRESETS for s in SEEDS for e in _game(p, s).events]
    kinds = {e["type"] for e in events}
    assert {"hora", "ryukyoku", "pon", "kita", "reach_accepted", "flower", "end_game"} <= kinds
    assert sum(e["type"] == "hora" and e["target"] == e["actor"] for e in events) >= 5  # tsumo
    assert sum(e["type"] == "hora" and e["target"] != e["actor"] for e in events) >= 5  # ron


def _same_game(g: Game, rec: GameRecord) -> None:
    assert rec.errors == ()
    assert rec.complete and len(rec.kyoku) == len(g.hand_results)
    assert g.result is not None and rec.final_scores == tuple(g.result.scores)
    assert rec.final_points == tuple(g.result.points)
    replay = replay_record(rec)
    assert [str(m) for m in replay.mismatches] == []
    # one engine game replayed the whole record and produced exactly the original stream
    assert replay.events[1:] == g.events[1:]


CASES = [pytest.param(p, s, id=f"{p}-{s}") for p in PRESETS for s in SEEDS]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_mjai_written_and_read_back_is_the_same_game(preset: str, seed: int) -> None:
    g = _game(preset, seed)
    _same_game(g, read_mjai(write_mjai(g), strict=True))


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_tenhou6_written_and_read_back_is_the_same_game(preset: str, seed: int) -> None:
    g = _game(preset, seed)
    rec = read_tenhou6(write_tenhou6(g, as_text=True), strict=True)
    _same_game(g, rec)
    # both formats give the same hands, actions and results (tenhou.net/6 has no kan dora events)
    other = read_mjai(write_mjai(g))
    for a, b in zip(rec.kyoku, other.kyoku, strict=True):
        assert a.initial_hands == b.initial_hands
        assert _same_results(a.results, b.results)
        assert _events(a.events) == _events(b.events)


def _events(events: tuple[ev.Event, ...]) -> list[dict[str, Any]]:
    """Events without kan dora reveals, a meld's tiles in a fixed order (formats order them differently)."""
    out = []
    for e in events:
        if isinstance(e, ev.Dora):
            continue
        d = e.to_mjai()
        if "consumed" in d:
            d["consumed"] = sorted(d["consumed"])
        out.append(d)
    return out


def _same_results(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Results equal apart from where each came from (the source and the fu a limit hand omits)."""
    def key(r: Any) -> Any:
        if hasattr(r, "han"):
            return (r.seat, r.from_seat, r.han, r.yakuman, r.limit, r.points, r.deltas, tuple(sorted(r.yaku)),
                    r.kita, r.honba, r.kyotaku, r.hand, r.melds)
        return (r.kind, r.deltas)
    return [key(r) for r in a] == [key(r) for r in b]


# --- mjai: the event stream as it is ----------------------------------------------------------


def test_mjai_is_one_json_event_per_line_with_the_sanma_extensions() -> None:
    g = _game("tenhou", 1)
    lines = write_mjai(g).splitlines()
    events = [json.loads(x) for x in lines]
    assert events == [_mjai_form(e) for e in g.events]  # the events as they are, but hora's yaku as pairs
    horas = [e for e in events if e["type"] == "hora"]
    assert horas and all(isinstance(y, list) and len(y) == 2 for e in horas for y in e["yaku"])
    assert events[0]["type"] == "start_game" and events[0]["rules"] == "tenhou"
    start = next(e for e in events if e["type"] == "start_kyoku")
    assert len(start["scores"]) == 3 and len(start["tehais"]) == 3
    kita = [e for e in events if e["type"] == "kita"]
    assert kita and all(set(e) == {"type", "actor", "pai"} and e["pai"] == "N" for e in kita)
    assert write_mjai(g.events) == write_mjai(g)


def test_writers_reject_what_is_not_an_event_stream() -> None:
    with pytest.raises(RecordError, match="event 1"):
        write_mjai([{"type": "start_game"}, {"no": "type"}])
    with pytest.raises(RecordError, match="Game or a sequence"):
        write_tenhou6("not events")


# --- tenhou.net/6: Tenhou's shape for three players ------------------------------------------


def test_tenhou6_has_four_seat_arrays_with_an_empty_fourth_seat_and_kita_as_f44() -> None:
    g = _game("tenhou", 1)
    d = write_tenhou6(g)
    assert d["name"][3] == "" and len(d["name"]) == 4
    assert d["rule"]["disp"] == "tenhou" and d["sc"][6:] == [0, 0] and len(d["sc"]) == 8
    for k in d["log"]:
        assert len(k) == 17
        assert len(k[1]) == 4 and k[1][3] == 0
        assert k[13:16] == [[], [], []]
        assert k[16][0] in ("和了", "流局", "九種九牌", "四槓散了", "流し満貫")
        if k[16][0] == "和了":
            assert all(len(x) == 4 and x[3] == 0 for x in k[16][1::2])
    discards = [x for k in d["log"] for s in range(3) for x in k[6 + 3 * s]]
    assert "f44" in discards
    assert all(re.fullmatch(r"\d+|[ro]\d+|f44|\d*[akm]\d+|0", str(x)) for x in discards)


@pytest.mark.parametrize(("actor", "target"), [(a, t) for a in range(3) for t in range(3) if a != t])
def test_call_letter_position_names_the_seat_called_from(actor: int, target: int) -> None:
    """The reader's table (4-seat numbering with the empty seat 3) reads back the writer's position."""
    for letter, count in (("p", 2), ("m", 3)):
        pos = _call_position(actor, target)
        if letter == "m" and pos == 4:
            pos = 6
        text = _call_text(letter, 43, [43] * count, pos)
        found, tiles, called = _parse_call(text, letter)
        assert (actor + _CALL_FROM[found]) % 4 == target
        assert len(tiles) == count + 1 and called == tiles[found // 2]


def test_tile_codes_match_tenhou6() -> None:
    assert [tenhou6_code(x) for x in ("1m", "9m", "1p", "5pr", "5sr", "9s", "E", "N", "C", "1f")] == \
        [11, 19, 21, 52, 53, 39, 41, 44, 47, 61]


def _kyoku_with(hora: dict[str, Any], honba: int = 0) -> list[Any]:
    start = {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": honba, "kyotaku": 0, "oya": 0,
             "dora_marker": "1p", "scores": [35000, 35000, 35000], "tehais": [["1p"] * 13] * 3}
    d = write_tenhou6([{"type": "start_game", "names": ["a", "b", "c"], "rules": "tenhou"}, start,
                       {"type": "hora", "pai": "1p", "yakuman": 0, "yaku": [{"name": "menzen_tsumo", "han": 1}],
                        **hora}, {"type": "end_kyoku", "deltas": hora["deltas"]}])
    result: list[Any] = d["log"][0][16]
    return result


def test_tenhou_points_are_written_tenhou_style() -> None:
    """Tsumo-son (P50) as Tenhou writes it: non-dealer then dealer share, or ∀ each; honba (P43)
    is not part of the text."""
    tsumo = _kyoku_with({"actor": 1, "target": 1, "han": 2, "fu": 30, "points": 1500, "limit": None,
                         "deltas": [-1100, 1700, -600]}, honba=1)
    assert tsumo[2][3] == "30符2飜500-1000点" and tsumo[1] == [-1100, 1700, -600, 0]
    dealer = _kyoku_with({"actor": 0, "target": 0, "han": 5, "fu": 30, "points": 8000, "limit": "mangan",
                          "deltas": [8000, -4000, -4000]})
    assert dealer[2][3] == "満貫4000点∀"
    ron = _kyoku_with({"actor": 2, "target": 1, "han": 1, "fu": 30, "points": 1000, "limit": None,
                       "deltas": [0, -1000, 1000]})
    assert ron[2][:4] == [2, 1, 2, "30符1飜1000点"] and ron[2][4] == "門前清自摸和(1飜)"


# -- bots' games that a reader once refused (a stored Kansai game would not open in the replay viewer) --
BOTS = ("efficient", "defensive", "random")
#: (preset, bots, seed, game index of ``play_game_events(rules, bots, seed, index)``, what the game holds)
BOT_GAMES = [
    ("kansai", BOTS, 5, 22, "flower_replacement_tsumo"),  # P18 flower_replacement_is_rinshan = false
    ("official", BOTS, 5, 3, "kita_replacement_tsumo"),  # P18 kita_replacement_is_rinshan = false (seed 002 L64)
    ("kansai", BOTS, 5, 23, "yakuman"),  # kokushi after riichi: mjai's [name, multiplier] pairs with "han" 13
    ("majsoul", BOTS, 5, 9, "double_yakuman"),  # kokushi_13 = 2 (P61)
    # P12 kan_dora_on_chankan with kan_dora_open = "immediate" (seed 001 L25 「明カン即乗り」): the robbed
    # kakan's indicator is turned before the ron; tenhou.net/6 lists it with no replacement draw after it
    ("online", ("random", "random", "efficient"), 11, 13, "chankan_kan_dora"),
]


def _holds(events: list[dict[str, Any]]) -> set[str]:
    """What a game's wins show: a yakuman, a double one, a tsumo on a kita's or a flower's replacement,
    a chankan after the robbed kan's indicator was turned."""
    found: set[str] = set()
    replaced: dict[int, str] = {}  # seat -> what its next draw replaces
    last: dict[int, str] = {}  # seat -> what its last draw replaced ("" none)
    before: list[str] = ["", ""]  # the two event types before this one
    for e in events:
        t, a = e["type"], e.get("actor")
        if t in ("kita", "flower"):
            replaced[a] = t
        elif t in ("ankan", "kakan", "daiminkan"):
            replaced[a] = "kan"
        elif t == "tsumo":
            last[a] = replaced.pop(a, "")
        elif t == "hora":
            if e["yakuman"]:
                found.add("double_yakuman" if e["yakuman"] >= 2 else "yakuman")
            if a == e["target"] and last.get(a) in ("kita", "flower"):
                found.add(f"{last[a]}_replacement_tsumo")
            if before == ["kakan", "dora"]:
                found.add("chankan_kan_dora")
        before = [before[1], t]
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "bots", "seed", "index", "holds"), BOT_GAMES,
                         ids=[f"{p}-{i}-{h}" for p, _, _, i, h in BOT_GAMES])
def test_bot_games_with_yakuman_and_replacement_tsumo_read_back(preset: str, bots: tuple[str, ...], seed: int,
                                                                 index: int, holds: str) -> None:
    """A tsumo on a kita's or a flower's replacement is rinshan only where the rules say so (P18): the
    reader takes the record's yaku list for it, as for any flag the rules decide. A yakuman written as
    mjai pairs (``["kokushi", 1]``, ``"han": 13``, ``"yakuman": 1``) is read as a yakuman, not as a
    13-han hand whose riichi is missing from the list. A robbed kakan's indicator (P12) lies where the
    engine turns it. Both formats, written and read back, are the same game."""
    from sanma.sim.arena import play_game_events

    g = play_game_events(Rules.preset(preset), bots, seed, index)
    assert holds in _holds(g.events), f"game {index} no longer holds {holds}: pick another (the bots changed)"
    _same_game(g, read_mjai(write_mjai(g), strict=True))
    _same_game(g, read_tenhou6(write_tenhou6(g, as_text=True), strict=True))
