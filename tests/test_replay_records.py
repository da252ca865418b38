"""``sanma replay --check`` (issue 4, items 2 and 3): every real Tenhou and Mahjong Soul record,
replayed action by action through the engine, must match the record hand by hand.

The engine is dealt the recorded walls (hands, draws, replacements, indicators), so each
recorded action is checked for legality in the engine and each result (han, fu, yaku, limit,
points, payments, honba, riichi sticks, kita, noten payments), each next hand's start (round,
dealer, honba, sticks, scores: P33-P45 renchan and honba) and the end of the game (final
scores and points, P23-P31) are compared. Tampered records prove the comparisons can fail.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sanma import events as ev
from sanma.formats import GameRecord, read_record
from sanma.formats.record import RecordedWin
from sanma.replay import platform_of, replay_files, replay_record, rules_for, stated_length
from sanma.rules import Rules
from shared_data import data_path, shared_files

TENHOU = shared_files("tenhou_mjlog/*.xml", "tenhou6_json/*.json", "majiang_json/*.json")
MAJSOUL = shared_files("majsoul_tenhou6_json/*.json", "majsoul_mjai_excerpt/*.jsonl")

# Where the engine (or the record itself) disagrees; each strict: fixing it must remove the entry.
KNOWN: dict[str, str] = {}


def _param(path: Path, platform: str) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN[path.stem])] if path.stem in KNOWN else []
    return pytest.param(path, platform, id=f"{path.parent.name}/{path.stem}", marks=marks)


RECORDS = [_param(p, "tenhou") for p in TENHOU] + [_param(p, "majsoul") for p in MAJSOUL]


def test_every_shared_record_is_replayed() -> None:
    """11 Tenhou files (13 games' worth of formats, one game in two formats) and 4 Mahjong Soul files."""
    data_path()
    assert len(TENHOU) == 11 and len(MAJSOUL) == 4


@pytest.mark.parametrize(("path", "platform"), RECORDS)
def test_record_replays_with_zero_mismatches(path: Path, platform: str) -> None:
    record = read_record(path)
    assert record.errors == ()
    assert platform_of(record) == platform
    result = replay_record(record)
    assert [str(m) for m in result.mismatches] == []
    assert result.matched == result.kyoku == len(record.kyoku) > 0


def test_all_records_together_match_kyoku_by_kyoku() -> None:
    data_path()
    report = replay_files(TENHOU + MAJSOUL)
    assert report.games == 15
    assert report.kyoku == 89
    assert report.matched == 89
    assert report.mismatches == []


def test_a_record_whose_payments_omit_a_riichi_stick_is_reported_as_a_record_anomaly() -> None:
    """mjai-reviewer3p_kokushi_peinuki E3: the win's recorded deltas [-48000, 0, 48000] leave out
    seat 0's riichi stick, which the record's own final scores include. The engine pays it
    (49000) and agrees with the final scores, so the replay notes the record's slip."""
    result = replay_record(read_record(data_path("majsoul_tenhou6_json/mjai-reviewer3p_kokushi_peinuki.json")))
    assert result.mismatches == []
    assert any("record anomaly" in n and "[-48000, 0, 48000]" in n for n in result.notes)


# --- rules chosen for a record ---------------------------------------------------------------


def test_default_rules_follow_the_record_platform_and_rule_name() -> None:
    east = read_record(data_path("majiang_json/2023010100gm-00f1-0000-caffca62.json"))  # 三鳳東喰赤速
    rules, notes = rules_for(east)
    assert rules.name == "tenhou" and rules.round_winds == "E" and rules.final_rounding == "integer"
    assert len(notes) == 2
    new = read_record(data_path("tenhou6_json/2024123123gm-00b9-0000-09c44fd1.json"))  # one-decimal points
    rules, notes = rules_for(new)
    assert rules == Rules.preset("tenhou") and notes == []
    soul = read_record(data_path("majsoul_tenhou6_json/mjai-reviewer3p_chankan.json"))  # 三銀の間赤
    rules, _ = rules_for(soul)
    assert rules.name == "majsoul" and stated_length(soul) is None  # a room name states no length
    result = replay_record(soul)  # its hands end the game after East 3: an East-only game
    assert result.ok and "replayed with round_winds = 'E', which its hands fit" in result.notes[0]


def test_a_mahjong_soul_record_without_its_length_is_replayed_as_the_length_its_flow_fits() -> None:
    """Issue 20 item 5, corpus/majsoul_east_tenhou6/mjai-reviewer3p_kokushi13_withnuki.json (三金の間赤:
    the converter dropped 南): its East 3 dealer wins as top and play goes on into E3-1 and E3-2, as
    in a South game (PLATFORMS §2 Agari-yame: only after the last hand), so the record fits 三人南;
    as an East-only game the engine would end it after E3 (the mismatch the replay showed)."""
    rec = read_record(data_path("corpus/majsoul_east_tenhou6/mjai-reviewer3p_kokushi13_withnuki.json"))
    assert rec.rule_name == "三金の間赤" and stated_length(rec) is None
    east = replay_record(rec, dataclasses.replace(Rules.preset("majsoul"), round_winds="E"))
    assert [(m.kyoku, m.what) for m in east.mismatches][:1] == [("E3-1", "next hand")]
    result = replay_record(rec)
    assert result.ok and result.kyoku == 6
    assert "replayed with round_winds = 'ES', which its hands fit" in result.notes[0]
    # kan3_nuki_rinshan (三銀の間, 三人東 by its end: the E3 dealer wins to 1st with 46,500 and the game ends)
    short = read_record(data_path("corpus/majsoul_east_tenhou6/mjai-reviewer3p_kan3_nuki_rinshan.json"))
    result = replay_record(short)
    assert result.ok and "replayed with round_winds = 'E', which its hands fit" in result.notes[0]


def test_wrong_rules_are_caught() -> None:
    """A Tenhou game replayed under Mahjong Soul's uma (P26) and no oka (P25) ends differently."""
    path = data_path("tenhou6_json/2024123123gm-00b9-0000-09c44fd1.json")
    result = replay_record(read_record(path), Rules.preset("majsoul"))
    assert any(m.what == "final points" for m in result.mismatches)


# --- tampered records: every comparison can fail ---------------------------------------------


def _record(path: str = "tenhou_mjlog/2014091101gm-00b9-0000-5ca6b487.xml") -> GameRecord:
    return read_record(data_path(path))


def _with_kyoku(rec: GameRecord, i: int, **changes: object) -> GameRecord:
    kyoku = list(rec.kyoku)
    kyoku[i] = dataclasses.replace(kyoku[i], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(rec, kyoku=tuple(kyoku))


def _first_win(rec: GameRecord) -> tuple[int, RecordedWin]:
    return next((i, k.wins[0]) for i, k in enumerate(rec.kyoku) if k.wins)


@pytest.mark.parametrize(("field", "what"), [
    ("han", "han"), ("fu", "fu"), ("points", "points"), ("kita", "kita"), ("honba", "honba"),
    ("kyotaku", "riichi sticks"), ("limit", "limit"),
])
def test_a_changed_win_value_is_reported_with_both_values(field: str, what: str) -> None:
    rec = _record()
    i, win = _first_win(rec)
    old = getattr(win, field)
    bumped = ("sanbaiman" if old == "baiman" else "baiman") if field == "limit" else (old or 0) + 1
    k = rec.kyoku[i]
    changed = dataclasses.replace(win, **{field: bumped})  # type: ignore[arg-type]
    tampered = _with_kyoku(rec, i, results=(changed, *k.results[1:]))
    result = replay_record(tampered)
    hits = [m for m in result.mismatches if m.what.endswith(what) and m.kyoku == k.label]
    assert hits and hits[0].expected == bumped and hits[0].got == getattr(win, field)
    assert result.matched == result.kyoku - 1


def test_changed_payments_and_yaku_are_reported() -> None:
    rec = _record()
    i, win = _first_win(rec)
    k = rec.kyoku[i]
    changed = dataclasses.replace(win, deltas=(0, 0, 0), yaku=(*win.yaku, ("chinitsu", 6)))
    result = replay_record(_with_kyoku(rec, i, results=(changed, *k.results[1:])))
    whats = {m.what.split(" ", 2)[-1] for m in result.mismatches}
    assert {"payments", "yaku"} <= whats


def test_an_illegal_discard_is_reported_and_later_hands_still_checked() -> None:
    rec = _record()
    k = rec.kyoku[0]
    pos = next(n for n, e in enumerate(k.events) if isinstance(e, ev.Dahai)
               and not (n and isinstance(k.events[n - 1], ev.Reach)))
    d = k.events[pos]
    assert isinstance(d, ev.Dahai)
    held = {t.kind for t in k.initial_hands[d.actor]}
    absent = next(t for t in read_record(data_path("tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml"))
                  .kyoku[0].initial_hands[0] if t.kind not in held)
    events = (*k.events[:pos], ev.Dahai(d.actor, absent, d.tsumogiri), *k.events[pos + 1:])
    result = replay_record(_with_kyoku(rec, 0, events=events))
    assert result.mismatches[0].what == "illegal discard" and result.mismatches[0].kyoku == k.label
    assert result.mismatches[0].at == f"event {pos + 1} of {len(k.events)}"
    assert result.matched == result.kyoku - 1  # a fresh engine game resumes at the next hand


def test_a_changed_next_hand_start_is_reported() -> None:
    """P45: after a dealer win or a draw the honba goes up; the engine decides, the record must agree."""
    rec = _record()
    tampered = _with_kyoku(rec, 1, honba=5)
    result = replay_record(tampered)
    assert any(m.what == "hand start" and m.expected["honba"] == 5 and m.got["honba"] == 1
               for m in result.mismatches)


def test_final_scores_and_a_missing_end_are_reported() -> None:
    rec = _record()
    assert rec.final_scores is not None
    wrong = dataclasses.replace(rec, final_scores=tuple(s + 100 for s in rec.final_scores))
    assert [m.what for m in replay_record(wrong).mismatches] == ["final scores"]
    cut = dataclasses.replace(rec, kyoku=rec.kyoku[:-1])
    assert [m.what for m in replay_record(cut).mismatches] == ["game end"]


def test_a_changed_draw_payment_is_reported() -> None:
    rec = _record()
    i = next(i for i, k in enumerate(rec.kyoku) if not k.wins)
    k = rec.kyoku[i]
    draw = k.results[0]
    tampered = _with_kyoku(rec, i, results=(dataclasses.replace(draw, deltas=(0, 0, 0)),))
    assert [m.what for m in replay_record(tampered).mismatches] == ["draw payments"]


# --- the command line -------------------------------------------------------------------------


def _app() -> typer.Typer:
    from sanma.cli import replay as replay_cli

    app = typer.Typer()
    replay_cli.register(app)
    app.command(name="noop")(lambda: None)  # two commands: typer keeps the sub-command name
    return app


def test_cli_check_json_prints_games_kyoku_matched_mismatches() -> None:
    path = data_path("tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml")
    res = CliRunner().invoke(_app(), ["replay", str(path), "--check", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert (out["games"], out["kyoku"], out["matched"], out["mismatches"]) == (1, 3, 3, [])


def test_cli_check_exits_1_on_a_mismatch_and_names_it(tmp_path: Path) -> None:
    src = json.loads(data_path("tenhou6_json/2024123123gm-00b9-0000-09c44fd1.json").read_text())
    src["log"][0][16][1] = [d + (100 if i == 0 else -100 if i == 1 else 0) for i, d in
                            enumerate(src["log"][0][16][1])]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(src, ensure_ascii=False))
    res = CliRunner().invoke(_app(), ["replay", str(bad), "--check"])
    assert res.exit_code == 1
    assert "payments" in res.output and "E1" in res.output
    res = CliRunner().invoke(_app(), ["replay", str(bad), "--check", "--json"])
    assert res.exit_code == 1 and json.loads(res.output)["mismatches"]
    assert CliRunner().invoke(_app(), ["replay", str(bad)]).exit_code == 0  # without --check: report only


def test_cli_missing_file_and_unknown_rules_exit_2(tmp_path: Path) -> None:
    res = CliRunner().invoke(_app(), ["replay", str(tmp_path / "none.json"), "--check"])
    assert res.exit_code == 2 and "no such file" in res.output
    path = data_path("tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml")
    res = CliRunner().invoke(_app(), ["replay", str(path), "--rules", "nosuch", "--check"])
    assert res.exit_code == 2


def test_cli_rules_option_overrides_the_default() -> None:
    path = data_path("tenhou6_json/2024123123gm-00b9-0000-09c44fd1.json")
    res = CliRunner().invoke(_app(), ["replay", str(path), "--rules", "majsoul", "--check", "--json"])
    assert res.exit_code == 1
    assert any(m["what"] == "final points" for m in json.loads(res.output)["mismatches"])


def test_a_stick_difference_the_final_scores_do_not_explain_stays_a_mismatch(tmp_path: Path) -> None:
    """The anomaly above is forgiven only because the record's final scores side with the engine:
    make the final scores follow the recorded payments instead and both disagreements are reported."""
    src = data_path("majsoul_tenhou6_json/mjai-reviewer3p_kokushi_peinuki.json")
    data = json.loads(src.read_text())
    data["sc"][4] -= 1000
    data["sc"][5] -= 1.0
    bad = tmp_path / "peinuki_tampered.json"
    bad.write_text(json.dumps(data))
    result = replay_record(read_record(bad))
    whats = {m.what for m in result.mismatches}
    assert "final scores" in whats and any(w.endswith("payments") for w in whats)
    assert result.matched < result.kyoku
