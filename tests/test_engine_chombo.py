"""Chombo the engine can detect: riichi violations (P77, P80, P87) settled per preset (P100-P102).

Expected values are data from RULES_MATRIX (rows in the names) and the seeds, never read from
``Rules``. Seats 0, 1, 2 are East (first dealer), South, West; draws go E, S, W, E, ...

* CLUB (000): furiten / noten riichi and passing a win after riichi are chombo when revealed at
  the exhaustive draw or by the offender's own win, none if another player wins first (L58,
  L260-265); an open riichi reveals it at once (L60, L262); mangan payment, the hand is void,
  honba unchanged, the hand's riichi sticks returned (L287-288; A000-14: reversed mangan tsumo).
* OFFICIAL (002): chombo if the hand reaches the draw (L77), no points, -20 rank points at the end
  (L81), no game, honba unchanged, sticks returned (L80).
* KANSAI (003): chombo at the draw (L33), haneman payment; a dealer chombo passes the deal, a
  non-dealer chombo makes the dealer repeat with honba +1, sticks returned (L32, A003-7).
* ONLINE / Tenhou / MJ Soul: furiten riichi is an ordinary riichi; noten riichi is never offered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine_helpers import (
    PRESETS,
    act,
    build,
    draw_out,
    events_of,
    has,
    last,
    pass_all,
    play_out,
    preset,
    tsumogiri,
    walls_in_order,
)
from sanma import events as ev
from sanma.bots.defensive import DefensiveBot
from sanma.bots.efficient import EfficientBot
from sanma.formats import read_mjai, read_tenhou6, write_mjai, write_tenhou6
from sanma.game.engine import Game
from sanma.game.settle import final_result
from sanma.game.wall import Wall
from sanma.replay import replay_record
from sanma.store import open_db
from sanma.store.events import record_typed

IND = "9m"  # dora indicator -> 1m, in no hand below
TANKI_1S = "234p789p789s555z1s"  # closed, tanki on 1s, haku
STICK = 1000
CHOMBO_PRESETS = ("club", "official", "kansai")
ORDINARY_PRESETS = ("online", "tenhou", "majsoul")


def _game(name: str, wall: Wall, **kw: Any) -> Game:
    return Game(preset(name), seed=3, walls=walls_in_order([wall]), **kw)


def _south_furiten_riichi(name: str, *, open_riichi: bool = False, extra_draws: str = "", **kw: Any) -> Game:
    """South (TANKI_1S) draws its wait 1s and lets it go (furiten), then declares riichi on 3p,
    still waiting on the 1s in its river."""
    w = build(preset(name), east="1m", south=TANKI_1S, draws="3z" + "1s" + "6z" + "7z" + "3p" + extra_draws,
              dora=IND, seed=14)
    g = _game(name, w, **kw)
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    act(g, 1, "open_reach" if open_riichi else "reach", "3p")
    pass_all(g)
    return g


def _dealer_furiten_riichi(name: str) -> Game:
    """East (the dealer) holds TANKI_1S, draws 1s and discards it (furiten), then riichi on 3p."""
    w = build(preset(name), east=TANKI_1S, draws="1s" + "6z" + "7z" + "3p", dora=IND, seed=14)
    g = _game(name, w)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    pass_all(g)
    tsumogiri(g, 1)
    tsumogiri(g, 2)
    act(g, 0, "reach", "3p")
    pass_all(g)
    return g


def _next_start(g: Game) -> dict[str, Any]:
    return last(g, "start_kyoku")


def _hand_end(g: Game) -> dict[str, Any]:
    return events_of(g, "end_kyoku")[0]


# ----------------------------------------------------------------------------------------------
# Furiten riichi reaching the exhaustive draw
# ----------------------------------------------------------------------------------------------
# (penalty deltas of the non-dealer South, next dealer, next honba) per preset:
# CLUB reversed mangan tsumo under model A (A000-14): the dealer 4,000, the other non-dealer 2,000;
# OFFICIAL no points; KANSAI reversed haneman under model D: 6,000 each, the dealer repeats, honba +1.
NON_DEALER_CHOMBO = {
    "club": ([4000, -6000, 2000], 0, 0),
    "official": ([0, 0, 0], 0, 0),
    "kansai": ([6000, -12000, 6000], 0, 1),
}


@pytest.mark.parametrize("name", CHOMBO_PRESETS)
def test_furiten_riichi_reaching_the_draw_is_chombo_P77_P80_P100_P101(name: str) -> None:
    g = _south_furiten_riichi(name)
    assert last(g, "reach_accepted")["actor"] == 1
    draw_out(g)
    assert events_of(g, "ryukyoku") == []  # the draw reveals the chombo: no noten payments
    (c,) = events_of(g, "chombo")
    penalty, dealer, honba = NON_DEALER_CHOMBO[name]
    assert (c["actor"], c["reason"], c["deltas"]) == (1, "furiten_riichi", penalty)
    # P101: South's riichi stick comes back, so the hand changes scores by the penalty alone
    end = _hand_end(g)
    assert end["deltas"] == [penalty[0], penalty[1] + STICK, penalty[2]]
    start = preset(name).start_points
    assert end["scores"] == [start + penalty[0], start + penalty[1], start + penalty[2]]
    nxt = _next_start(g)
    assert (nxt["oya"], nxt["kyoku"], nxt["honba"], nxt["kyotaku"]) == (dealer, 1, honba, 0)
    assert g.hand_results[0].kind == "chombo" and g.hand_results[0].offenders == (1,)


@pytest.mark.parametrize("name", ORDINARY_PRESETS)
def test_furiten_riichi_is_an_ordinary_riichi_online_and_platforms_P77(name: str) -> None:
    # ONLINE 「振聴リーチ ○」, Tenhou / MJ Soul "furiten riichi is allowed": a plain draw, South
    # tenpai (furiten counts, P47), its stick stays on the table.
    g = _south_furiten_riichi(name)
    draw_out(g)
    assert events_of(g, "chombo") == []
    r = last(g, "ryukyoku")
    assert r["reason"] == "exhaustive" and 1 in r["tenpai"]
    assert _next_start(g)["kyotaku"] == 1


# P100 / P101 / A003-7 for a dealer offender: CLUB pays 4,000 to each and replays the hand; OFFICIAL
# no points, the same dealer replays; KANSAI pays 9,000 to each and the deal passes, honba unchanged.
DEALER_CHOMBO = {
    "club": ([-8000, 4000, 4000], 0, 0),
    "official": ([0, 0, 0], 0, 0),
    "kansai": ([-18000, 9000, 9000], 1, 0),
}


@pytest.mark.parametrize("name", CHOMBO_PRESETS)
def test_dealer_furiten_riichi_chombo_and_the_deal_P100_P101_A003_7(name: str) -> None:
    g = _dealer_furiten_riichi(name)
    draw_out(g)
    (c,) = events_of(g, "chombo")
    penalty, dealer, honba = DEALER_CHOMBO[name]
    assert (c["actor"], c["reason"], c["deltas"]) == (0, "furiten_riichi", penalty)
    assert _hand_end(g)["deltas"] == [penalty[0] + STICK, penalty[1], penalty[2]]
    nxt = _next_start(g)
    assert (nxt["oya"], nxt["honba"], nxt["kyotaku"]) == (dealer, honba, 0)


@pytest.mark.parametrize("name", CHOMBO_PRESETS)
def test_only_this_hands_riichi_sticks_are_returned_P101(name: str) -> None:
    # One stick was already on the table (carried over); West declares a clean riichi and South a
    # furiten one. West waits on 9p, whose other copies East holds and never discards.
    w = build(preset(name), east="99p", south=TANKI_1S, west="123p789s789s666z9p",
              draws="3z" + "1s" + "2z" + "7z" + "3p", dora=IND, seed=14)
    g = _game(name, w, kyotaku=1)
    tsumogiri(g, 0)
    tsumogiri(g, 1)
    act(g, 2, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 0)
    act(g, 1, "reach", "3p")
    pass_all(g)
    assert g.kyotaku == 3
    draw_out(g)
    assert [(c["actor"], c["reason"]) for c in events_of(g, "chombo")] == [(1, "furiten_riichi")]
    penalty = NON_DEALER_CHOMBO[name][0]
    assert _hand_end(g)["deltas"] == [penalty[0], penalty[1] + STICK, penalty[2] + STICK]
    assert _next_start(g)["kyotaku"] == 1  # the carried stick stays on the table


# ----------------------------------------------------------------------------------------------
# CLUB: how a violation is revealed (P80, L58-61, L260-265)
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESETS)
def test_passing_a_ron_after_riichi_is_chombo_only_in_club_P80(name: str) -> None:
    # South declares a clean riichi, then lets East's 1s pass: CLUB 「リーチ後の見逃しも同様である」;
    # elsewhere it only makes South furiten (P75, A002-13).
    w = build(preset(name), east="1m", south=TANKI_1S, draws="3z" + "2z" + "6z" + "1s", dora=IND, seed=14)
    g = _game(name, w)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    act(g, 0, "dahai", "1s", tsumogiri=True)
    assert has(g, 1, "hora")
    act(g, 1, "none")
    pass_all(g)
    draw_out(g)
    chombos = [(c["actor"], c["reason"]) for c in events_of(g, "chombo")]
    assert chombos == ([(1, "passed_win")] if name == "club" else [])


def test_club_passing_a_tsumo_after_riichi_is_chombo_P80() -> None:
    w = build(preset("club"), east="1m", south=TANKI_1S, draws="3z" + "2z" + "6z" + "7z" + "1s", dora=IND, seed=14)
    g = _game("club", w)
    tsumogiri(g, 0)
    act(g, 1, "reach", "2z")
    pass_all(g)
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    assert has(g, 1, "hora")
    tsumogiri(g, 1)
    draw_out(g)
    assert [(c["actor"], c["reason"]) for c in events_of(g, "chombo")] == [(1, "passed_win")]


def test_club_no_penalty_when_another_player_wins_first_P80() -> None:
    # 「流局前に他家が和了した場合は、無罰である」: West (hatsu, chun, tanki 9p) rons East's 9p after
    # South's furiten riichi; an ordinary win that takes South's stick.
    w = build(preset("club"), east="1m", south=TANKI_1S, west="666z777z123s456p9p",
              draws="3z" + "1s" + "2z" + "4z" + "3p" + "1m" + "9p", dora=IND, seed=14)
    g = _game("club", w)
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    act(g, 1, "reach", "3p")
    pass_all(g)
    tsumogiri(g, 2)
    act(g, 0, "dahai", "9p", tsumogiri=True)
    assert not has(g, 1, "hora")  # South is furiten
    act(g, 2, "hora")
    assert events_of(g, "chombo") == []
    h = last(g, "hora")
    assert (h["actor"], h["target"]) == (2, 0)
    assert h["deltas"][1] == 0 and h["deltas"][2] == h["points"] + STICK
    assert g.hand_results[0].kind == "hora"


@pytest.mark.parametrize(("name", "chombo"), [("club", True), ("online", False), ("tenhou", False)])
def test_own_tsumo_after_a_furiten_riichi_reveals_the_chombo_in_club_P80(name: str, chombo: bool) -> None:
    # 「逆に本人がツモ上がりして発覚したらチョンボとなる」: South draws the last 1s and declares tsumo.
    g = _south_furiten_riichi(name, extra_draws="2z" + "4z" + "1s")
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    act(g, 1, "hora")
    if chombo:
        assert events_of(g, "hora") == []
        assert [(c["actor"], c["reason"]) for c in events_of(g, "chombo")] == [(1, "furiten_riichi")]
    else:
        assert events_of(g, "chombo") == [] and last(g, "hora")["actor"] == 1


@pytest.mark.parametrize("name", ["official", "kansai"])
def test_a_furiten_riichi_cannot_tsumo_in_official_and_kansai_P76_A002_13(name: str) -> None:
    # OFFICIAL 「リーチをかけていないときのフリテンツモあり」 (A002-13), KANSAI 「フリテンは一切不可」:
    # the furiten riichi cannot win at all, so only the draw reveals it.
    g = _south_furiten_riichi(name, extra_draws="2z" + "7z" + "1s")
    tsumogiri(g, 2)
    tsumogiri(g, 0)
    assert g.to_move == (1,) and not has(g, 1, "hora")


def test_club_furiten_open_riichi_is_chombo_at_the_declaration_P80() -> None:
    # 「オープンリーチの場合は、掛けた時点で発覚したものとし、その時点で成立とする」: no call window,
    # no stick (the riichi was never accepted), the hand is replayed.
    g = _south_furiten_riichi("club", open_riichi=True)
    types = [e["type"] for e in g.events]
    i = types.index("chombo")
    assert types[i - 2: i + 3] == ["reach", "dahai", "chombo", "end_kyoku", "start_kyoku"]
    assert "reach_accepted" not in types
    assert _hand_end(g)["deltas"] == [4000, -6000, 2000]
    nxt = _next_start(g)
    assert (nxt["oya"], nxt["honba"], nxt["kyotaku"]) == (0, 0, 0)


# ----------------------------------------------------------------------------------------------
# Noten riichi: only at an emulated table (P80, §5.5)
# ----------------------------------------------------------------------------------------------
NOTEN_SOUTH = "147p147s1357z369p"  # far from tenpai


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("table", [False, True])
def test_noten_riichi_is_offered_only_at_an_emulated_table_where_it_is_chombo_P80(name: str, table: bool) -> None:
    w = build(preset(name), east="1m", south=NOTEN_SOUTH, draws="3z" + "9s", dora=IND, seed=14)
    g = _game(name, w, table_mistakes=table)
    tsumogiri(g, 0)
    assert has(g, 1, "reach") is (table and name in CHOMBO_PRESETS)


@pytest.mark.parametrize("name", CHOMBO_PRESETS)
def test_noten_riichi_reaching_the_draw_is_chombo_P80_P102(name: str) -> None:
    # OFFICIAL 「フリテンリーチ・ノーテンリーチをかけて流局した時」, CLUB L260, KANSAI default (P80).
    w = build(preset(name), east="1m", south=NOTEN_SOUTH, draws="3z" + "9s", dora=IND, seed=14)
    g = _game(name, w, table_mistakes=True)
    tsumogiri(g, 0)
    act(g, 1, "reach", "9s")
    pass_all(g)
    draw_out(g)
    (c,) = events_of(g, "chombo")
    assert (c["actor"], c["reason"], c["deltas"]) == (1, "noten_riichi", NON_DEALER_CHOMBO[name][0])


ONE_HAN_RIICHI = "234p789p789s678s1s"  # closed, tanki on 1s: riichi is its only han


@pytest.mark.parametrize("table", [False, True])
def test_club_riichi_breaking_the_2_han_minimum_is_chombo_at_an_emulated_table_P87_P80(table: bool) -> None:
    # L61 「「リーチ」を含めて2ハン以上を確定させたリーチでなければチョンボとする」 from 4 honba (P64): not
    # offered to bots; at a table it may be declared and the draw reveals it (honba unchanged, P101).
    w = build(preset("club"), east="1m", south=ONE_HAN_RIICHI, draws="3z" + "2z" + "6z" + "7z" + "3p", dora=IND,
              seed=14)
    g = _game("club", w, honba=4, table_mistakes=table)
    for seat in (0, 1, 2, 0):
        tsumogiri(g, seat)
    assert has(g, 1, "reach", "3p") is table
    if table:
        act(g, 1, "reach", "3p")
        pass_all(g)
        draw_out(g)
        assert [(c["actor"], c["reason"]) for c in events_of(g, "chombo")] == [(1, "shibari_riichi")]
        assert _next_start(g)["honba"] == 4


# ----------------------------------------------------------------------------------------------
# OFFICIAL: rank points at the end of the game (P100)
# ----------------------------------------------------------------------------------------------
def _finish_without_riichi(g: Game) -> None:
    """Play the game out: win when offered, pass every call, discard the drawn tile."""
    while not g.done:
        seat = g.to_move[0]
        acts = g.legal_actions(seat)
        pick = next((a for a in acts if a.type == "hora"), None) or next((a for a in acts if a.type == "none"), None)
        if pick is None:
            pick = next((a for a in acts if a.type == "dahai" and a.tsumogiri), None) or next(
                a for a in acts if a.type in ("dahai", "kita"))
        g.apply(pick)


def test_official_chombo_costs_20_rank_points_at_the_end_P100() -> None:
    # 「チョンボの減点は、半荘終了時に△20となる」: no points change hands, South loses 20 at the end.
    g = _south_furiten_riichi("official")
    draw_out(g)
    assert last(g, "chombo")["deltas"] == [0, 0, 0]
    _finish_without_riichi(g)
    assert g.result is not None and g.end_reason != "hand_limit"
    plain = final_result(preset("official"), g.result.scores)  # the same game without the chombo
    assert g.result.points == (plain.points[0], plain.points[1] - 20, plain.points[2])
    assert last(g, "end_game")["points"] == list(g.result.points)


# ----------------------------------------------------------------------------------------------
# Bots and records
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", [EfficientBot, DefensiveBot])
@pytest.mark.parametrize("name", ["club", "official", "kansai", "online", "tenhou"])
def test_bots_declare_furiten_riichi_only_where_it_is_not_a_chombo_P77_P80(bot: Any, name: str) -> None:
    # South lets 1s and then 6z go; on drawing the other 6z every riichi is furiten (1s or 6z wait).
    w = build(preset(name), east="1m", south=TANKI_1S, draws="3z" + "1s" + "2z" + "7z" + "6z" + "2z" + "7z" + "6z",
              dora=IND, seed=14)
    g = _game(name, w)
    for seat in (0, 1, 2, 0, 1, 2, 0):
        tsumogiri(g, seat)
    assert has(g, 1, "reach", "6z") and has(g, 1, "reach", "1s")  # a player at a table may declare it
    choice = bot(0, preset(name)).act(g.view(1), g.legal_actions(1))
    assert (choice.type == "reach") is (name not in CHOMBO_PRESETS)


@pytest.mark.parametrize("case", ["draw", "own_tsumo", "open_riichi"])
def test_games_with_a_chombo_round_trip_through_mjai_and_tenhou6_P102(case: str) -> None:
    if case == "draw":
        g = _south_furiten_riichi("official", round_index=1)  # South round: a short game
        draw_out(g)
    elif case == "own_tsumo":
        g = _south_furiten_riichi("club", extra_draws="2z" + "4z" + "1s")
        tsumogiri(g, 2)
        tsumogiri(g, 0)
        act(g, 1, "hora")
    else:
        g = _south_furiten_riichi("club", open_riichi=True)
    assert events_of(g, "chombo")
    play_out(g)
    assert g.result is not None and g.end_reason != "hand_limit"
    for rec in (read_mjai(write_mjai(g), strict=True), read_tenhou6(write_tenhou6(g, as_text=True), strict=True)):
        assert rec.errors == () and rec.final_scores == tuple(g.result.scores)
        assert [r.kind for r in rec.kyoku[0].results] == ["chombo"]
        replay = replay_record(rec)
        assert [str(m) for m in replay.mismatches] == []
        assert replay.events[1:] == g.events[1:]


def test_an_mjai_chombo_keeps_its_offender_and_reason_through_the_store_P100_P102(tmp_path: Path) -> None:
    """P100 / P102: a chombo read from mjai keeps, through the store, each offender, its reason and
    payment (the ``chombo`` events), not a bare 「chombo」 draw; reading the stored events gives the
    same kyoku back."""
    g = _south_furiten_riichi("club", open_riichi=True)
    play_out(g)
    rec = read_mjai(write_mjai(g), strict=True)
    (result,) = rec.kyoku[0].results
    assert [(c.actor, c.reason) for c in result.voided_by] == [(1, "furiten_riichi")]
    typed = record_typed(rec)
    engine_chombo = [ev.parse_event(e) for e in events_of(g, "chombo")]
    assert [e for e in typed if isinstance(e, ev.Chombo)] == engine_chombo
    assert not any(isinstance(e, ev.Ryukyoku) for e in typed[:typed.index(engine_chombo[0]) + 2])
    store = open_db(tmp_path / "s.sqlite")
    try:
        saved = store.import_bytes(write_mjai(g).encode(), "chombo.mjson")
        stored = store.events(saved.game_id)
        (c,) = [e for e in stored if e["type"] == "chombo"]
        assert (c["actor"], c["reason"], c["deltas"]) == (1, "furiten_riichi", events_of(g, "chombo")[0]["deltas"])
        again = read_mjai(write_mjai(stored), strict=True)
        assert again.kyoku[0].results == rec.kyoku[0].results
    finally:
        store.close()
