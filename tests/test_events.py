"""sanma.events: one typed event vocabulary (issue 10 item 3) and the record bugs of item 6.

Every event the engine writes and every event the store makes of a real record is read back by
the strict parser into the same mjai dict, key order included; malformed events raise
``EventError`` naming the field; the writers, the store and the simulator agree with each other.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanma.bots import Driver, make_bot
from sanma.events import EventError, Hora, parse_event, parse_events
from sanma.formats import read_mjai, read_record, read_tenhou6, write_mjai, write_tenhou6
from sanma.formats.tracker import live_draws_for
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.sim import arena
from sanma.store.events import record_events
from sanma.store.facts import tally
from shared_data import shared_files

# the record folders with a per-file PROVENANCE entry (not the larger corpus/ below them)
RECORDS = [p for p in shared_files("*/*.xml", "*/*.json", "*/*.jsonl") if p.parent.name != "vectors"]
PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")


def _games(preset: str, n: int = 3) -> list[Any]:
    rules = Rules.preset(preset)
    out = []
    for i, bots in enumerate([("random",) * 3] * n + [("defensive", "random", "efficient")]):
        game = Game(rules, seed=f"events-{i}", names=bots)
        Driver(game, {j: make_bot(b, seed=f"ev-{i}-{j}", rules=rules) for j, b in enumerate(bots)}).run()
        out.append(game)
    return out


def _same(e: dict[str, Any]) -> None:
    back = parse_event(e).to_mjai()
    assert back == e
    assert json.dumps(back) == json.dumps(e)  # byte for byte: key order too


@pytest.mark.parametrize("preset", PRESETS)
def test_engine_events_round_trip(preset: str) -> None:
    """Every event of seeded games (random and defensive bots) parses back to the same dict."""
    types: set[str] = set()
    for g in _games(preset):
        for e in g.events:
            _same(e)
            types.add(e["type"])
    assert {"start_game", "start_kyoku", "tsumo", "dahai", "end_kyoku", "end_game"} <= types


@pytest.mark.slow
def test_engine_event_kinds_all_round_trip() -> None:
    """The rarer events (kans, kita, flowers, chombo, aborts) appear in seeded games and round-trip."""
    seen: set[str] = set()
    for preset in PRESETS:
        for g in _games(preset, 6):
            for e in g.events:
                _same(e)
                seen.add(e["type"] if e["type"] != "ryukyoku" else f"ryukyoku:{e['reason']}")
    assert {"pon", "kita", "flower", "reach", "reach_accepted", "hora", "ryukyoku:exhaustive"} <= seen


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_record_events_round_trip(path: Path) -> None:
    """The store's events of every real record parse back to the same dicts."""
    events = record_events(read_record(path))
    for e in events:
        _same(e)
    assert parse_events(events)[0].TYPE == "start_game"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_record_hora_has_the_engine_shape(path: Path) -> None:
    """Issue 10 item 6: the store's ``hora`` has the engine's shape (yaku lines as
    ``{name, han[, yakuman]}``, ``uradora_markers``, ``hora_tehais``, ``scores``)."""
    rec = read_record(path)
    horas = [e for e in record_events(rec) if e["type"] == "hora"]
    assert horas, f"{path.name} has no win"
    for h in horas:
        assert all(isinstance(y, dict) and set(y) <= {"name", "han", "yakuman"} for y in h["yaku"])
        assert "uradora_markers" in h and "ura_markers" not in h
        assert len(h["scores"]) == 3 and isinstance(h["hora_tehais"], list)
        # the concealed hand: with the tsumo tile (14 - 3 per meld), without the ron tile (13 - 3 per meld)
        assert len(h["hora_tehais"]) % 3 == (2 if h["actor"] == h["target"] else 1)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_write_tenhou6_of_a_recorded_game(path: Path) -> None:
    """Issue 10 item 6: ``write_tenhou6(record_events(read_record(p)))`` raised TypeError on a real
    record; now it writes tenhou.net/6 that reads back to the same hands, payments and result."""
    rec = read_record(path)
    back = read_tenhou6(write_tenhou6(record_events(rec), as_text=True))
    assert back.errors == ()
    assert [k.label for k in back.kyoku] == [k.label for k in rec.kyoku]
    assert [k.score_deltas() for k in back.kyoku] == [k.score_deltas() for k in rec.kyoku]
    assert [[w.points for w in k.wins] for k in back.kyoku] == [[w.points for w in k.wins] for k in rec.kyoku]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_write_mjai_of_a_recorded_game(path: Path) -> None:
    """A real record through the store's events and mjai reads back to the same kyoku."""
    rec = read_record(path)
    back = read_mjai(write_mjai(record_events(rec)), source=rec.source)
    assert back.errors == ()
    assert [k.score_deltas() for k in back.kyoku] == [k.score_deltas() for k in rec.kyoku]
    assert [[(w.seat, w.from_seat, w.points, w.yaku) for w in k.wins] for k in back.kyoku] == \
        [[(w.seat, w.from_seat, w.points, w.yaku) for w in k.wins] for k in rec.kyoku]


# --------------------------------------------------------------------------------------------
# The strict parser
# --------------------------------------------------------------------------------------------

GOOD: list[dict[str, Any]] = [
    {"type": "start_game", "names": ["A", "B", "C"], "rules": "tenhou", "seed": "1", "scores": [35000] * 3},
    {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0, "dora_marker": "1p",
     "dora_markers": ["1p"], "scores": [35000] * 3, "tehais": [["1m"] * 13, ["9m"] * 13, ["E"] * 13]},
    {"type": "tsumo", "actor": 0, "pai": "5pr", "rinshan": True},
    {"type": "dahai", "actor": 1, "pai": "C", "tsumogiri": True},
    {"type": "pon", "actor": 2, "target": 1, "pai": "C", "consumed": ["C", "C"]},
    {"type": "daiminkan", "actor": 0, "target": 2, "pai": "5s", "consumed": ["5sr", "5s", "5s"]},
    {"type": "ankan", "actor": 1, "consumed": ["N", "N", "N", "N"]},
    {"type": "kakan", "actor": 2, "pai": "C", "consumed": ["C", "C", "C"]},
    {"type": "kita", "actor": 0, "pai": "N"},
    {"type": "flower", "actor": 1, "pai": "3f"},
    {"type": "reach", "actor": 2, "open": True},
    {"type": "reach_accepted", "actor": 2, "scores": [35000, 35000, 34000]},
    {"type": "dora", "dora_marker": "9s"},
    {"type": "hora", "actor": 0, "target": 1, "pai": "9m", "han": 1, "fu": 40, "yakuman": 0,
     "yaku": [{"name": "riichi", "han": 1}], "points": 1300, "limit": None, "uradora_markers": ["1s"],
     "hora_tehais": ["1m"] * 13, "deltas": [1300, -1300, 0], "scores": [36300, 33700, 35000], "pao": 2},
    {"type": "ryukyoku", "reason": "exhaustive", "tenpai": [0], "tehais": [["1m"] * 13, [], []],
     "deltas": [2000, -1000, -1000], "scores": [37000, 34000, 34000]},
    {"type": "ryukyoku", "reason": "kyuushu", "actor": 1},
    {"type": "chombo", "actor": 1, "reason": "noten_riichi", "deltas": [4000, -8000, 4000],
     "scores": [39000, 27000, 39000]},
    {"type": "riichi_bust", "actor": 2, "scores": [60000, 44500, 500]},
    {"type": "end_kyoku", "deltas": [0, 0, 0], "scores": [35000] * 3},
    {"type": "end_game", "reason": "last_hand", "scores": [50000, 35000, 20000], "ranks": [1, 2, 3],
     "points": [40.0, 0.0, -40.0], "chips": [0, 0, 0]},
]


@pytest.mark.parametrize("event", GOOD, ids=lambda e: e["type"])
def test_every_event_type_round_trips(event: dict[str, Any]) -> None:
    _same(event)


@pytest.mark.parametrize(("event", "message"), [
    ({"type": "dahai", "actor": 3, "pai": "1m", "tsumogiri": False}, "actor 3 is not a seat"),
    ({"type": "dahai", "actor": True, "pai": "1m", "tsumogiri": False}, "actor True is not an integer"),
    ({"type": "dahai", "actor": 0, "pai": "2m", "tsumogiri": False}, "pai: invalid mjai tile '2m'"),
    ({"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": "yes"}, "tsumogiri 'yes' is not true/false"),
    ({"type": "tsumo", "pai": "1m"}, "tsumo event: missing 'actor'"),
    ({"type": "pon", "actor": 0, "target": 1, "pai": "C", "consumed": ["C"]}, "consumed has 1 entries, expected 2"),
    ({"type": "pon", "actor": 0, "target": 0, "pai": "C", "consumed": ["C", "C"]}, "calls its own discard"),
    ({"type": "pon", "actor": 0, "target": 1, "pai": "C", "consumed": ["C", "F"]}, "are not all C"),
    ({"type": "ankan", "actor": 0, "consumed": ["N", "N", "N", "E"]}, "not four of one tile"),
    ({"type": "kita", "actor": 0, "pai": "E"}, "pai 'E' is not N"),
    ({"type": "flower", "actor": 0, "pai": "E"}, "not a flower"),
    ({"type": "hora", "actor": 0, "target": 1, "deltas": [1, 2]}, "deltas has 2 entries, expected 3"),
    ({"type": "hora", "actor": 0, "target": 1, "deltas": [0, 0, 0], "yaku": [["riichi"]]}, "yaku entry"),
    ({"type": "end_game", "scores": [1, 2, 3], "ranks": [1, 1, 3]}, "ranks [1, 1, 3] are not 1, 2, 3"),
    ({"type": "start_kyoku", "bakaze": "X"}, "bakaze 'X' is not E/S/W/N"),
    ({"type": "ryukyoku", "reason": "exhaustive", "tenpai": [0, 0]}, "are not distinct seats"),
    ({"type": "nonsense"}, "unknown event type 'nonsense'"),
    ([1, 2], "an mjai event is a JSON object"),
])
def test_malformed_events_name_the_field(event: Any, message: str) -> None:
    """A malformed event is a typed error (a SanmaError, a ValueError) that names what is wrong."""
    with pytest.raises(EventError, match=message.replace("[", r"\[").replace("(", r"\(")):
        parse_event(event)


def test_parse_events_names_the_index() -> None:
    with pytest.raises(EventError, match="event 1: dahai event: actor 5"):
        parse_events([GOOD[0], {"type": "dahai", "actor": 5, "pai": "1m", "tsumogiri": False}])


def test_other_producers_dialects() -> None:
    """What other mjai producers write for the same events (the Mahjong Soul excerpt's shapes)."""
    assert parse_event({"type": "kita", "actor": 2}).to_mjai() == {"type": "kita", "actor": 2, "pai": "N"}
    assert parse_event({"type": "nukidora", "actor": 1}).to_mjai()["type"] == "kita"
    h = parse_event({"type": "hora", "actor": 0, "target": 2, "deltas": [12000, 0, -12000], "ura_markers": [],
                     "pai": "N", "yaku": [["対々和", 2], ["ドラ", 3]], "han": 5, "hora_points": 12000})
    assert isinstance(h, Hora) and h.points == 12000
    assert [(y.name, y.han) for y in h.yaku] == [("対々和", 2), ("ドラ", 3)]
    assert parse_event({"type": "end_kyoku"}).to_mjai() == {"type": "end_kyoku"}


def test_hidden_tiles_of_a_seat_view() -> None:
    """A seat's masked view shows others' draws and hands as '?': they parse as hidden tiles."""
    e = {"type": "tsumo", "actor": 1, "pai": "?"}
    _same(e)
    start = dict(GOOD[1], tehais=[["1m"] * 13, ["?"] * 13, ["?"] * 13])
    _same(start)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=True)
                     | st.sampled_from(["1m", "5pr", "N", "?", "3f", "E", "x", "", "exhaustive"]),
                     lambda inner: st.lists(inner, max_size=14) | st.dictionaries(st.text(max_size=5), inner,
                                                                                     max_size=3), max_leaves=20)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(GOOD), data=st.data())
def test_fuzz_parse_event(base: dict[str, Any], data: st.DataObject) -> None:
    """Mutated events either parse (and then round-trip) or raise EventError; nothing else escapes."""
    e = dict(base)
    for key in data.draw(st.lists(st.sampled_from([*base, "actor", "pai", "deltas", "extra"]), max_size=3)):
        if data.draw(st.booleans()):
            e.pop(key, None)
        else:
            e[key] = data.draw(_JSON)
    try:
        parsed = parse_event(e)
    except EventError:
        return
    again = parse_event(parsed.to_mjai())
    assert again == parsed and again.to_mjai() == parsed.to_mjai()


# --------------------------------------------------------------------------------------------
# The other record bugs of issue 10 item 6
# --------------------------------------------------------------------------------------------


def test_live_draws_from_the_wall_layout() -> None:
    """P14: the draws a kyoku may hold come from the wall layout (Rules fields), not a rule set's
    name: 108 tiles - 39 dealt - 14 dead = 55 with a refilled fixed dead wall (Tenhou, Mahjong Soul,
    club), 112 - 39 - 14 = 59 with Kansai's flowers (P02); no fixed count when the dead wall is not
    refilled (online, P14 A001-11) or drawn up to the indicator (official, A002-1)."""
    import dataclasses

    counts = {p: live_draws_for(Rules.preset(p)) for p in PRESETS}
    assert counts == {"club": 55, "online": None, "official": None, "kansai": 59, "tenhou": 55, "majsoul": 55}
    club = Rules.preset("club")
    assert live_draws_for(dataclasses.replace(club, name="my club", dead_wall_size=18)) == 108 - 39 - 18


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_kita_in_dora_is_set_by_the_readers(path: Path) -> None:
    """P16: Tenhou's yaku lists count kita inside ``dora``; the readers of Tenhou's games say so
    on the record (mjlog, tenhou.net/6 of a Tenhou lobby, majiang JSON of a Tenhou game), Mahjong
    Soul records list ``kita_dora`` apart; replay reads the property, not a platform name."""
    rec = read_record(path)
    tenhou = rec.format == "mjlog" or path.parent.name in ("tenhou6_json", "majiang_json")
    assert rec.kita_in_dora is tenhou
    if any(name == "kita_dora" for w in rec.wins() for name, _ in w.yaku):
        assert not rec.kita_in_dora  # a record that lists kita apart does not fold it


def test_sanma_written_records_keep_kita_apart() -> None:
    """sanma's own tenhou.net/6 and mjai list kita_dora apart (the engine's yaku lines)."""
    g = _games("tenhou", 1)[0]
    assert not read_tenhou6(write_tenhou6(g, as_text=True)).kita_in_dora
    assert not read_mjai(write_mjai(g)).kita_in_dora


@pytest.mark.parametrize("preset", ("tenhou", "kansai", "club"))
def test_simulate_counts_as_stats_counts(preset: str) -> None:
    """Issue 10 item 6: ``sanma simulate`` counted accepted riichi (and every call, every deal-in
    event) while ``sanma stats`` counts hands with a riichi declared, a call, a deal-in: both now
    count hands, from the same events."""
    for i, g in enumerate(_games(preset, 4)):
        rec = arena._record(g, i, [0, 1, 2])
        facts = tally(g.events)
        for seat in range(3):
            e, f = rec.entries[seat], facts.seats[seat]
            assert (e.wins, e.deal_ins, e.riichi, e.calls, e.win_value) == \
                (f.wins, f.deal_ins, f.riichi, f.calls, f.win_points)


def test_recorded_chombo_writes_to_tenhou6() -> None:
    """A chombo read from sanma's mjai (P100-P102) becomes the store's ``ryukyoku`` of kind chombo;
    write_tenhou6 writes it as the 「チョンボ」 extension with the hand's payments, which reads back."""
    from sanma.store.events import EXAMPLE

    lines = EXAMPLE.splitlines()
    lines[3] = json.dumps({"type": "chombo", "actor": 0, "reason": "noten_riichi", "deltas": [-8000, 4000, 4000],
                           "scores": [27000, 39000, 39000]})
    lines[4] = json.dumps({"type": "end_kyoku", "deltas": [-8000, 4000, 4000], "scores": [27000, 39000, 39000]})
    lines[5] = json.dumps({"type": "end_game", "scores": [27000, 39000, 39000], "points": [-23.0, 19.0, 4.0]})
    rec = read_mjai("\n".join(lines))
    assert rec.errors == () and rec.kyoku[0].results[0].kind == "chombo"
    back = read_tenhou6(write_tenhou6(record_events(rec), as_text=True))
    assert back.errors == ()
    assert back.kyoku[0].results[0].kind == "chombo" and back.kyoku[0].score_deltas() == (-8000, 4000, 4000)


@pytest.mark.slow
def test_actions_speak_as_the_events_they_become() -> None:
    """A discard or a call a seat takes is sent (``Action.to_mjai``) in the form of the event the
    engine emits for it: the typed ``sanma.events`` values build both (seeded games of every preset)."""
    import random

    from sanma.game.engine import Game

    kinds = ("dahai", "pon", "daiminkan", "ankan", "kakan", "kita")
    seen: set[str] = set()
    for preset in PRESETS:
        for seed in range(3):
            g = Game(Rules.preset(preset), seed=seed)
            rng = random.Random(seed)
            taken: list[dict[str, Any]] = []
            while not g.done:
                acts = g.legal_actions(g.to_move[0])
                calls = [a for a in acts if a.type in kinds[1:]]
                a = rng.choice(calls if calls and rng.random() < 0.7 else acts)
                g.apply(a)
                if a.type in kinds:
                    taken.append(a.to_mjai())
                    _same(taken[-1])
            for prev, e in zip(g.events, g.events[1:], strict=False):
                if e["type"] in kinds and not (e["type"] == "dahai" and prev["type"] == "reach"):
                    assert e in taken, (preset, seed, e)
                    seen.add(e["type"])
    assert {"dahai", "pon", "kita", "ankan"} <= seen


def test_a_games_draws_and_discards_are_shared_values() -> None:
    """Tsumo and Dahai events are immutable values, so the engine's log, the masked views and the parser
    share one object per value (events.py, the comment above ``Event``): a served game's log is ~1,000 of them, and the
    garbage collector walks each distinct object (web/collector.py; issue 22's paced tail). An unshared
    one made by the constructor is still equal."""
    from sanma.events import Dahai, Tsumo
    from sanma.game.view import mask
    from sanma.tiles import Tile

    t = Tile.parse("0p")
    assert Tsumo.of(1, t, False) is Tsumo.of(1, t) and Tsumo.of(1, t) == Tsumo(1, t) and Tsumo(1, t) is not Tsumo(1, t)
    assert Dahai.of(2, t, True) is Dahai.of(2, t, True) is not Dahai.of(2, t, False)
    assert Dahai.of(2, t, True) == Dahai(2, t, True) and Dahai.of(2, t, True) != Dahai.of(1, t, True)
    game = _games("kansai", 1)[0]
    draws = [e for e in game.log if isinstance(e, Tsumo)]
    discards = [e for e in game.log if isinstance(e, Dahai)]
    assert len(draws) > 100 and len(discards) > 100
    for d in draws:
        assert d is Tsumo.of(d.actor, d.pai, d.rinshan)
        assert parse_event(d.to_mjai()) is d
        assert mask(d, (d.actor + 1) % 3) is Tsumo.of(d.actor, None, d.rinshan)  # another seat's view: hidden
    for x in discards:
        assert x is Dahai.of(x.actor, x.pai, x.tsumogiri) and parse_event(x.to_mjai()) is x
    both: list[Tsumo | Dahai] = [*draws, *discards]
    assert len({id(e) for e in both}) == len(set(both)) < len(both) / 2
