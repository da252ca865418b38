"""Every real record in shared/data parses with zero errors, and its counts and score
bookkeeping match PROVENANCE.md (issue 2, "real data")."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sanma import events as ev
from sanma.formats import read_majiang, read_mjai, read_mjlog, read_record, read_tenhou6, write_mjai
from sanma.formats.record import DrawResult, GameRecord, RecordedWin, limit_from_han_fu
from sanma.formats.tracker import KyokuReplay, live_draws_for
from sanma.game.engine import Game
from sanma.replay import replay_record
from sanma.rules.schema import Rules
from sanma.scoring import basic_points
from shared_data import data_path

# file -> (format, kyoku, wins, draws, kita pulled) as PROVENANCE.md states them
PROVENANCE = {
    "tenhou_mjlog/2009060321gm-00b9-0000-75b25bcf.xml": ("mjlog", 1, 1, 0, 2),
    "tenhou_mjlog/2014091101gm-00b9-0000-5ca6b487.xml": ("mjlog", 11, 8, 3, 24),
    "tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml": ("mjlog", 3, 3, 0, 7),
    "tenhou6_json/2021010217gm-00b9-0000-3eb2e915.json": ("tenhou6", 12, 8, 4, 30),
    "tenhou6_json/2024010120gm-00b9-0000-e324b88a.json": ("tenhou6", 8, 8, 0, None),
    "tenhou6_json/2024010120gm-00b9-0000-ef5da89f.json": ("tenhou6", 9, 7, 2, None),
    "tenhou6_json/2024123123gm-00b9-0000-09c44fd1.json": ("tenhou6", 10, 10, 0, None),
    "tenhou6_json/2024123123gm-00b9-0000-4a3a3639.json": ("tenhou6", 5, 4, 1, None),
    "tenhou6_json/2024123123gm-00b9-0000-56cca963.json": ("tenhou6", 7, 7, 0, None),
    "majiang_json/2014091101gm-00b9-0000-5ca6b487.json": ("majiang", 11, 8, 3, 24),
    "majiang_json/2023010100gm-00f1-0000-caffca62.json": ("majiang", 3, 3, 0, None),
    "majsoul_tenhou6_json/mjai-reviewer3p_chankan.json": ("tenhou6", 3, 3, 0, None),
    "majsoul_tenhou6_json/mjai-reviewer3p_kokushi_ankan.json": ("tenhou6", 1, 1, 0, None),
    "majsoul_tenhou6_json/mjai-reviewer3p_kokushi_peinuki.json": ("tenhou6", 4, 4, 0, None),
    "majsoul_mjai_excerpt/riichienv_mjsoul_3p_double_ron_excerpt.jsonl": ("mjai", 1, 2, 0, None),
}
FILES = sorted(PROVENANCE)


def load(name: str) -> GameRecord:
    return read_record(data_path(name))


def test_every_record_file_is_listed() -> None:
    """A new file in shared/data must get its PROVENANCE counts here."""
    data = data_path()
    found = {str(p.relative_to(data)) for p in data.glob("*/*") if p.parent.name != "vectors"
             and p.suffix in (".xml", ".json", ".jsonl")}
    assert found == set(PROVENANCE)


@pytest.mark.parametrize("name", FILES)
def test_record_parses_without_errors(name: str) -> None:
    rec = load(name)
    assert rec.errors == ()
    assert rec.format == PROVENANCE[name][0]
    # strict mode agrees: nothing to raise
    strict = read_record(data_path(name), strict=True)
    assert strict.wins() == rec.wins()


@pytest.mark.parametrize("name", FILES)
def test_kyoku_and_result_counts_match_provenance(name: str) -> None:
    _, kyoku, wins, draws, kita = PROVENANCE[name]
    rec = load(name)
    assert len(rec.kyoku) == kyoku
    assert len(rec.wins()) == wins
    assert sum(isinstance(r, DrawResult) for k in rec.kyoku for r in k.results) == draws
    if kita is not None:
        assert sum(isinstance(e, ev.Kita) for k in rec.kyoku for e in k.events) == kita


KNOWN_BOOKKEEPING_ANOMALIES = {
    # The converted Mahjong Soul record's last win (E3, kokushi ron on seat 0's pulled North)
    # has deltas -48000/+48000, but seat 0 had declared riichi that kyoku and the game's
    # final `sc` gives its stick to the winner (94000, not 93000): the win's deltas omit it.
    "majsoul_tenhou6_json/mjai-reviewer3p_kokushi_peinuki.json",
}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="record's last deltas omit a riichi stick"))
    if n in KNOWN_BOOKKEEPING_ANOMALIES else n for n in FILES])
def test_score_bookkeeping(name: str) -> None:
    """start scores + deltas - riichi deposits = next kyoku's start scores, and the final scores
    (PROVENANCE.md sanity check; P48 riichi deposit, P31 leftover sticks)."""
    rec = load(name)
    assert rec.check_bookkeeping() == []
    assert rec.final_scores is not None


def test_kokushi_peinuki_anomaly_is_exactly_one_stick() -> None:
    rec = load("majsoul_tenhou6_json/mjai-reviewer3p_kokushi_peinuki.json")
    last = rec.kyoku[-1]
    assert last.riichi_count == 1
    assert rec.final_scores is not None
    diff = [f - e for f, e in zip(rec.final_scores, last.end_scores(), strict=True)]
    assert diff == [0, 0, 1000] and last.wins[0].seat == 2


def test_mjlog_and_majiang_copies_of_one_game_agree() -> None:
    """The 2014 game exists as mjlog and as majiang JSON: both give the same kyoku and wins."""
    a = load("tenhou_mjlog/2014091101gm-00b9-0000-5ca6b487.xml")
    b = load("majiang_json/2014091101gm-00b9-0000-5ca6b487.json")
    assert [k.start_scores for k in a.kyoku] == [k.start_scores for k in b.kyoku]
    assert [k.dora_indicators for k in a.kyoku] == [k.dora_indicators for k in b.kyoku]
    assert a.final_scores == b.final_scores
    fields = ("seat", "from_seat", "hand", "win", "melds", "kita", "riichi", "ippatsu", "rinshan",
              "dora_indicators", "honba", "kyotaku", "han", "fu", "points", "deltas")
    for wa, wb in zip(a.wins(), b.wins(), strict=True):
        assert {f: getattr(wa, f) for f in fields} == {f: getattr(wb, f) for f in fields}
        assert Counter(wa.yaku) == Counter(wb.yaku)


def test_readers_agree_with_read_record() -> None:
    for name in FILES:
        fmt = PROVENANCE[name][0]
        reader = {"mjlog": read_mjlog, "tenhou6": read_tenhou6, "majiang": read_majiang, "mjai": read_mjai}[fmt]
        assert reader(data_path(name)).wins() == load(name).wins()


def test_readers_accept_text_as_well_as_paths() -> None:
    path = data_path("tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml")
    from_text = read_mjlog(path.read_text(encoding="utf-8"))
    assert from_text.source == "<text>"
    assert [w.deltas for w in from_text.wins()] == [w.deltas for w in read_mjlog(path).wins()]


def test_mjlog_kita_is_folded_into_dora_and_counted_per_win() -> None:
    """P16 / FORMAT §4: Tenhou counts kita in yaku 52 ドラ; a West indicator makes each kita 2."""
    w = load("tenhou_mjlog/2009060321gm-00b9-0000-75b25bcf.xml").wins()[0]
    assert w.kita == 2 and w.dora_indicators == ("3z",)
    assert ("dora", 4) in w.yaku and not any(n == "kita_dora" for n, _ in w.yaku)
    assert (w.fu, w.points, w.limit, w.deltas) == (50, 36000, "sanbaiman", (36000, -36000, 0))


def test_majsoul_kita_is_its_own_yaku() -> None:
    w = load("majsoul_tenhou6_json/mjai-reviewer3p_kokushi_peinuki.json").wins()[2]
    assert (w.kita, ("kita_dora", 2) in w.yaku, w.honba, w.deltas) == (2, True, 1, (-4100, 0, 4100))


def test_ron_on_a_pulled_north_is_recorded_not_as_chankan() -> None:
    """P19 / PLATFORMS: ron on a kita'd North is allowed and is not chankan (Mahjong Soul)."""
    rec = load("majsoul_mjai_excerpt/riichienv_mjsoul_3p_double_ron_excerpt.jsonl")
    a, b = rec.wins()
    assert a.ron_on_kita and b.ron_on_kita and not a.chankan and not b.chankan
    assert (a.from_seat, b.from_seat, a.win, b.win) == (2, 2, "4z", "4z")
    assert (a.deltas, b.deltas) == ((12000, 0, -12000), (0, 16000, -16000))
    assert b.melds == ("kan:4444s", "kan:5555z", "kan:7777s") and b.hand == "789p44z"


def test_chankan_is_a_ron_on_a_kakan() -> None:
    w = load("majsoul_tenhou6_json/mjai-reviewer3p_chankan.json").wins()[1]
    assert w.chankan and not w.tsumo and ("chankan", 1) in w.yaku


def test_rinshan_after_kita_replacement() -> None:
    """PLATFORMS: the kita replacement draw scores 嶺上開花 on Tenhou (P18)."""
    w = load("tenhou6_json/2024010120gm-00b9-0000-e324b88a.json").wins()[4]
    assert w.rinshan and w.tsumo and w.melds == ("pon:222s",) and w.kita == 1


def test_riichi_sticks_on_the_table_include_this_kyokus_riichi() -> None:
    """AGARI ba's kyotaku counts the winner's own stick: replay and record agree (P48)."""
    rec = load("tenhou_mjlog/2014091101gm-00b9-0000-5ca6b487.xml")
    w = rec.wins()[0]
    assert rec.kyoku[0].kyotaku == 0 and w.riichi and w.kyotaku == 1 and w.deltas[0] == 13000


def test_seat_and_round_winds() -> None:
    rec = load("tenhou6_json/2024123123gm-00b9-0000-09c44fd1.json")
    south2 = [w for w in rec.wins() if w.kyoku.startswith("S2")]
    assert {(w.seat, w.seat_wind, w.round_wind, w.dealer) for w in south2} == {
        (1, "E", "S", 1), (0, "W", "S", 1)}
    assert all(w.deltas_by_wind()["E"] == w.deltas[1] for w in south2)


def test_game_metadata() -> None:
    rec = load("tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml")
    assert rec.rule_name == "三鳳南喰赤" and dict(rec.rule_flags)["sanma"] is True
    assert rec.final_points == (8.0, -66.0, 58.0) and len(rec.players) == 3
    assert isinstance(rec.wins()[0], RecordedWin)


@given(st.integers(0, 20), st.sampled_from([None, 20, 25, 30, 40, 50, 60, 70, 110]), st.integers(0, 3))
def test_a_record_without_a_limit_name_gets_the_scorers_limit_p55_p57_p59(han: int, fu: int | None,
                                                                         yakuman: int) -> None:
    """P55 / P57 / P59: the limit a record's han and fu imply is the scorer's (``basic_points``
    under the default rules: no kiriage, kazoe from 13 han), not a second table of thresholds."""
    want = "yakuman" if yakuman else basic_points(han, fu or 0, Rules())[1]
    assert limit_from_han_fu(han, fu, yakuman) == want
    if not yakuman and fu is not None and han < 5 and fu * 2 ** (han + 2) == 1920:
        assert want is None  # 30 fu 4 han / 60 fu 3 han: no kiriage by default


def _kansai_kyoku_with_a_flower_drawn_last() -> list[dict[str, Any]]:
    """The events of a seeded Kansai game, up to the first kyoku whose last live tile is a flower
    (its replacement is the kyoku's 60th draw); the bots pull every flower and never win."""
    for seed in range(20):
        g = Game(Rules.preset("kansai"), seed=seed, max_hands=8)
        rng = random.Random(seed)
        while not g.done:
            acts = g.legal_actions(g.to_move[0])
            pick = [a for a in acts if a.type == "flower"] or [a for a in acts if a.type in ("dahai", "none")] or acts
            g.apply(rng.choice(pick))
        n = 0
        for i, e in enumerate(g.events):
            n = 0 if e["type"] == "start_kyoku" else n + (e["type"] == "tsumo")
            if e["type"] == "end_kyoku" and n > 59:
                return g.events[:i + 1]
    raise AssertionError("no seed drew a flower as the last tile")


def test_kansai_draws_59_tiles_and_a_last_flower_one_more_from_the_dead_wall_p14_p02() -> None:
    """P14 (fixed 14-tile dead wall, refilled after each replacement) with P02 (4 flowers): a
    112-tile wall leaves 112 - 39 - 14 = 59 draws; a flower drawn as the last live tile is replaced
    from the dead wall, which no live tile is left to refill: a 60th draw the wall layout allows.
    Such a kyoku reads back with no problem and replays with no mismatch."""
    assert live_draws_for(Rules.preset("kansai")) == 59
    events = _kansai_kyoku_with_a_flower_drawn_last()
    rec = read_mjai(write_mjai(events), source="kansai.mjson", strict=True)
    assert rec.errors == ()
    assert [str(m) for m in replay_record(rec).mismatches] == []


@pytest.mark.parametrize("name", FILES)
def test_every_reader_replays_typed_events(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 10 item 3: each reader (mjlog, tenhou.net/6, majiang, mjai) turns its format's moves
    into ``sanma.events`` values and replays them through ``KyokuReplay.play``, the one place that
    maps an event to the replay: every draw, discard, call, kita and kan dora of the record came
    through it as its typed event."""
    seen: Counter[str] = Counter()
    play = KyokuReplay.play

    def counting(self: KyokuReplay, e: ev.Event) -> bool:
        played = play(self, e)
        seen[type(e).__name__] += played
        return played

    monkeypatch.setattr(KyokuReplay, "play", counting)
    rec = load(name)
    # the record's events are the same typed events (issue 20: no classes of the record's own)
    assert all(isinstance(e, ev.Event) for k in rec.kyoku for e in k.events)
    events = Counter(type(e).__name__ for k in rec.kyoku for e in k.events)
    accepted = events.pop("ReachAccepted", 0)  # a format without the step is accepted by the replay itself
    seen.pop("ReachAccepted", None)
    assert seen == events and events["Reach"] >= accepted
