"""Malformed, truncated, tampered and hostile input: readers report clear problems (lenient)
or raise RecordError (strict), and never crash or hang."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanma.errors import RecordError
from sanma.formats import read_majiang, read_mjai, read_mjlog, read_record, read_tenhou6
from sanma.formats.guard import MAX_BYTES
from shared_data import data_path

# the whole module needs these records (missing: skipped here, failed under CI=true)
MJLOG = data_path("tenhou_mjlog/2018110809gm-00b9-0000-00a79b89.xml").read_text(encoding="utf-8")
MJLOG_2009 = data_path("tenhou_mjlog/2009060321gm-00b9-0000-75b25bcf.xml").read_text(encoding="utf-8")
T6 = data_path("tenhou6_json/2021010217gm-00b9-0000-3eb2e915.json").read_text(encoding="utf-8")
MAJIANG = data_path("majiang_json/2023010100gm-00f1-0000-caffca62.json").read_text(encoding="utf-8")
MJAI = data_path("majsoul_mjai_excerpt/riichienv_mjsoul_3p_double_ron_excerpt.jsonl").read_text(encoding="utf-8")
READERS = {"mjlog": (read_mjlog, MJLOG), "tenhou6": (read_tenhou6, T6), "majiang": (read_majiang, MAJIANG),
           "mjai": (read_mjai, MJAI)}


def errors_of(text: str | bytes, reader: Any = read_record) -> str:
    rec = reader(text)
    assert rec.errors, "expected problems"
    with pytest.raises(RecordError):
        reader(text, strict=True)
    return "\n".join(rec.errors)


# -- XML safety ------------------------------------------------------------------------------

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<mjloggm ver="2.3"><GO type="185"/><UN n0="&lol3;"/></mjloggm>"""


def test_xml_with_doctype_and_entities_is_refused() -> None:
    msg = errors_of(BILLION_LAUGHS, read_mjlog)
    assert "DOCTYPE/ENTITY" in msg


def test_xml_external_entity_is_refused() -> None:
    xxe = '<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><mjloggm><UN n0="&x;"/></mjloggm>'
    assert "not allowed" in errors_of(xxe, read_mjlog)


def test_malformed_xml_is_a_record_error() -> None:
    assert "malformed XML" in errors_of("<mjloggm><GO type='185'></mjloggm>", read_mjlog)


def test_truncated_mjlog_reports_where_it_stops() -> None:
    cut = MJLOG[: MJLOG.index("<AGARI")] + "</mjloggm>"
    msg = errors_of(cut, read_mjlog)
    assert "ends in the middle of a kyoku" in msg and "E1" in msg


# -- tampered Tenhou logs ---------------------------------------------------------------------


def test_four_player_mjlog_is_refused() -> None:
    """GO type 169 = 0xA9: a 4-player Houou game (no sanma bit 0x10)."""
    assert "4-player" in errors_of(MJLOG.replace('type="185"', 'type="169"'), read_mjlog)


def test_fourth_hand_in_mjlog_is_refused() -> None:
    four = MJLOG_2009.replace('hai3=""', 'hai3="4,5,6,7,8,9,10,11,12,13,14,15,17"')
    assert "4-player deal" in errors_of(four, read_mjlog)


def test_wrong_deal_size_names_the_seat() -> None:
    bad = MJLOG_2009.replace('hai0="3,84,', 'hai0="84,')
    assert "hai0 has 12 tiles, not 13" in errors_of(bad, read_mjlog)


def test_removed_manzu_in_a_sanma_log_is_reported() -> None:
    """P01: 2m-8m do not exist; a Tenhou id 4..31 cannot occur."""
    bad = MJLOG_2009.replace("<T88/>", "<T20/>", 1)
    assert "2m-8m are removed" in errors_of(bad, read_mjlog)


def test_discarding_a_tile_not_in_hand_is_reported() -> None:
    bad = MJLOG_2009.replace("<D3/>", "<D4/>", 1)
    msg = errors_of(bad, read_mjlog)
    assert "E1" in msg and "tag" in msg


def test_agari_hand_is_cross_checked_with_the_replay() -> None:
    bad = MJLOG_2009.replace('hai="73,75,', 'hai="72,75,')
    assert "differs from the replayed hand" in errors_of(bad, read_mjlog)


def test_tampered_deltas_break_the_bookkeeping() -> None:
    d = json.loads(T6)
    d["log"][0][16][1] = [13000, 0, -12000, 0]
    rec = read_tenhou6(json.dumps(d))
    assert rec.errors == ()
    assert any("after E1" in p for p in rec.check_bookkeeping())


def test_four_player_tenhou6_is_refused() -> None:
    d = json.loads(T6)
    d["log"][0][13] = [11, 19, 21, 29, 31, 39, 41, 42, 43, 44, 45, 46, 47]
    assert "4-player" in errors_of(json.dumps(d), read_tenhou6)


def test_tenhou6_bad_tile_code_and_deal() -> None:
    d = json.loads(T6)
    d["log"][0][4][0] = 12  # 2m
    assert "2m-8m are removed" in errors_of(json.dumps(d), read_tenhou6)
    d = json.loads(T6)
    d["log"][1][4] = d["log"][1][4][:12]
    msg = errors_of(json.dumps(d), read_tenhou6)
    assert "kyoku #1: seat 0 is dealt 12 tiles, not 13" in msg


def test_tenhou6_call_that_cannot_be_matched_is_reported() -> None:
    d = json.loads(T6)
    d["log"][0][5][2] = "p191919"  # seat 0 claims a pon of 9m that nobody discarded
    msg = errors_of(json.dumps(d), read_tenhou6)
    assert "kyoku E1" in msg and "p191919" in msg


def test_mjai_four_player_start_is_refused() -> None:
    lines = MJAI.splitlines()
    start = json.loads(lines[1])
    start["scores"] = [35000, 35000, 35000, 35000]
    lines[1] = json.dumps(start)
    assert "4-player" in errors_of("\n".join(lines), read_mjai)


def test_mjai_bad_line_names_the_line() -> None:
    lines = MJAI.splitlines()
    lines[5] = '{"type": "dahai", "actor": 0, "pai": "2m"}'
    msg = errors_of("\n".join(lines), read_mjai)
    assert "line 6" in msg and "2m" in msg


def test_majiang_tampered_hand() -> None:
    d = json.loads(MAJIANG)
    d["log"][0][0]["qipai"]["shoupai"][0] = "m19p6s2344"
    assert "13-tile deal" in errors_of(json.dumps(d), read_majiang)


# -- size and nesting ---------------------------------------------------------------------------


def test_deeply_nested_json_is_refused_quickly() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    t = time.perf_counter()
    for reader in (read_tenhou6, read_majiang, read_record):
        assert "nested deeper" in errors_of(deep, reader)
    assert time.perf_counter() - t < 5


def test_huge_input_is_refused() -> None:
    huge = '{"log": [' + " " * (MAX_BYTES + 1) + "]}"
    assert "larger than" in errors_of(huge, read_tenhou6)
    assert "larger than" in errors_of(huge)
    assert "larger than" in read_record(huge.encode()).errors[0]


def test_missing_file_is_a_record_error(tmp_path: Path) -> None:
    rec = read_record(tmp_path / "no-such-file.xml")
    assert rec.errors and "no-such-file.xml: cannot read" in rec.errors[0]
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "no-such-file.xml", strict=True)


def test_unknown_format() -> None:
    assert "unknown record format" in errors_of(b"hello")  # type: ignore[arg-type]


# -- fuzz -------------------------------------------------------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    for pos, length, insert in edits:
        pos %= max(len(text), 1)
        text = text[:pos] + insert + text[pos + length:]
    return text


EDITS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 8),
                           st.text(alphabet='0123456789,"<>/=[]{}abcfkmprTUVDEF- ', max_size=6)),
                 min_size=1, max_size=4)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(READERS))
@FUZZ
@given(edits=EDITS)
def test_fuzz_mutated_records(fmt: str, edits: list[tuple[int, int, str]]) -> None:
    """Random edits of a real record: lenient never raises; strict raises only RecordError."""
    reader, text = READERS[fmt]
    bad = _mutate(text, edits)
    rec = reader(bad)
    assert isinstance(rec.errors, tuple)
    with contextlib.suppress(RecordError):
        reader(bad, strict=True)


@pytest.mark.parametrize("fmt", sorted(READERS))
@FUZZ
@given(text=st.text(max_size=300))
def test_fuzz_arbitrary_text(fmt: str, text: str) -> None:
    reader, _ = READERS[fmt]
    reader("<" + text if fmt == "mjlog" else "{" + text)
    with contextlib.suppress(RecordError):
        reader("[" + text, strict=True)


@FUZZ
@given(data=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                         lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=6), c, max_size=5),
                         max_leaves=40))
def test_fuzz_json_shapes(data: object) -> None:
    """Arbitrary JSON values of any shape, wrapped as each JSON format's top level."""
    for wrapped in (data, {"log": [data]}, {"log": [[{"qipai": data}]]}, {"log": data}):
        text = json.dumps(wrapped)
        for reader in (read_tenhou6, read_majiang, read_mjai):
            reader(text)
            with contextlib.suppress(RecordError):
                reader(text, strict=True)
