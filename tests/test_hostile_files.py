"""Issue 14 item 12: hostile rule files and record files — only regular files, bounded size and depth.

A TOML file nested 500 deep gave a ``RecursionError`` traceback wherever a rule file was read;
``/dev/zero`` or a FIFO as a rule file or a ``stats`` record read forever or hung. Each case is
a ``SanmaError`` naming the file, exit 2 on the command line, and nothing stored.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sanma.cli import app
from sanma.errors import RecordError, RulesError, SanmaError
from sanma.fileio import read_regular
from sanma.formats import read_record
from sanma.rules.loader import MAX_DEPTH, MAX_FILE_BYTES, _depth, load_file, parse_toml
from sanma.store import open_db

runner = CliRunner()
posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo") or sys.platform == "win32", reason="needs FIFOs")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "rules.toml"
    os.mkfifo(path)
    return path


def test_toml_nested_500_deep_is_a_rules_error_not_a_recursion_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 500 + "]" * 500 + "\n")
    with pytest.raises(RulesError, match=r"deep\.toml: malformed rule file: values nested"):
        load_file(deep)
    inline = tmp_path / "inline.toml"
    inline.write_text("x = " + "{a = " * 500 + "1" + "}" * 500 + "\n")
    with pytest.raises(RulesError, match="nested"):
        load_file(inline)


def test_a_nesting_the_parser_survives_is_still_refused_beyond_max_depth() -> None:
    text = "x = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(RulesError, match=f"more than {MAX_DEPTH} levels"):
        parse_toml(text, "t.toml")
    assert parse_toml("[yaku]\njunchan = [4, 3]\n", "ok.toml") == {"yaku": {"junchan": [4, 3]}}


def test_rules_check_of_a_deep_file_exits_2_without_traceback(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("extends = 'club'\nx = " + "[" * 500 + "]" * 500 + "\n")
    result = runner.invoke(app, ["rules", "check", str(deep)])
    assert result.exit_code == 2, result.output
    assert "nested" in result.stderr and "Traceback" not in result.output


@posix_only
def test_dev_zero_as_a_rule_file_is_refused_at_once() -> None:
    with pytest.raises(RulesError, match=r"/dev/zero: cannot read rule file: not a regular file"):
        load_file("/dev/zero")


@posix_only
def test_a_fifo_as_a_rule_file_is_refused_without_waiting_for_a_writer(fifo: Path) -> None:
    with pytest.raises(RulesError, match="not a regular file \\(a FIFO\\)"):
        load_file(fifo)  # opening a FIFO for reading blocks until a writer comes: it must not be opened so
    result = runner.invoke(app, ["simulate", "--games", "1", "--rules", str(fifo)])
    assert result.exit_code == 2 and "a FIFO" in result.stderr


def test_an_oversized_rule_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: its size alone refuses it
    with pytest.raises(RulesError, match="larger than the"):
        load_file(big)


def test_a_directory_as_a_rule_file(tmp_path: Path) -> None:
    d = tmp_path / "dir.toml"
    d.mkdir()
    with pytest.raises(RulesError, match=r"dir\.toml: cannot read rule file: not a regular file \(a directory\)"):
        load_file(d)


@posix_only
def test_dev_zero_and_a_fifo_as_a_stats_record_exit_2_and_store_nothing(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    db = tmp_path / "s.sqlite"
    for bad in ("/dev/zero", str(fifo)):
        result = runner.invoke(app, ["stats", bad, "--db", str(db)])
        assert result.exit_code == 2, result.output
        assert "not a regular file" in result.stderr and "Traceback" not in result.output
    with open_db(db) as store:
        assert store.records() == []


@posix_only
def test_record_readers_refuse_devices_and_fifos(tmp_path: Path) -> None:
    fifo = tmp_path / "r.xml"
    os.mkfifo(fifo)
    for bad in ("/dev/zero", fifo):
        with pytest.raises(RecordError, match="not a regular file"):
            read_record(bad, strict=True)
        assert "not a regular file" in read_record(bad).errors[0]
    result = runner.invoke(app, ["replay", str(fifo), "--check"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_read_regular_reads_a_file_and_bounds_it(tmp_path: Path) -> None:
    f = tmp_path / "x.bin"
    f.write_bytes(b"abc")
    assert read_regular(f, 3, "x") == b"abc"
    with pytest.raises(SanmaError, match="larger than the 2-byte limit"):
        read_regular(f, 2, "x")
    with pytest.raises(SanmaError, match="No such file"):
        read_regular(tmp_path / "missing", 10, "x")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="[]{}=,ax1 \"'\n.", max_size=400))
def test_parse_toml_gives_a_shallow_table_or_a_rules_error(text: str) -> None:
    try:
        data = parse_toml(text, "fuzz.toml")
    except RulesError as e:
        assert str(e).startswith("fuzz.toml: malformed")
    else:
        assert isinstance(data, dict) and _depth(data, MAX_DEPTH) <= MAX_DEPTH
