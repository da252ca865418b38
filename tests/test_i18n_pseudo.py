"""Issue 24: a pseudo-locale run that finds any sentence left untranslated in the CLI.

With ``SANMA_PSEUDO=1`` every English sentence and term sanma puts into words is shown between
``⟦`` and ``⟧``; a word outside them was printed without going through the catalogue or the
vocabulary, so it would stay English in Japanese too. Each command below is run that way and its
output (stdout and stderr) must hold no such word. Names people chose (rule sets, files) are not
words to translate."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sanma.cli import app
from sanma.i18n.messages import untranslated

runner = CliRunner()
PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")
NAMES = {*PRESETS, "sanma", "toml", "json", "mpsz", "mjai"}


def pseudo_run(args: list[str], code: int | None = 0) -> str:
    # wide, so that no table folds an identifier into pieces that look like words
    r = runner.invoke(app, args, env={"SANMA_PSEUDO": "1", "SANMA_LANG": "en", "COLUMNS": "300"})
    if code is not None:
        assert r.exit_code == code, r.output
    return r.output


def assert_translated(out: str) -> None:
    left = untranslated(out, NAMES)
    assert left == [], f"untranslated: {sorted(set(left))}\n{out}"


@pytest.mark.parametrize("args", [
    ["score", "123456789p99m111z", "--win", "9m", "--riichi", "--seat", "S", "--from", "W"],
    ["score", "123456789p99m111z", "--win", "9m", "--riichi", "--seat", "S", "--from", "W", "--honba", "2",
     "--kyotaku", "1"],
    ["score", "19m19p19s1234567z9m", "--win", "9m", "--tsumo"],
    ["score", "123345p999p11z", "--win", "1z", "--pon", "5z", "--tsumo", "--rules", "kansai"],
    ["shanten", "19m19p19s1234567z"],
    ["shanten", "123456789p99m11z"],
])
def test_score_and_shanten(args: list[str]) -> None:
    assert_translated(pseudo_run(args))


@pytest.mark.parametrize("args, code", [
    (["score", "123m", "--win", "1m"], 2),
    (["score", "123456789p99m123z", "--win", "9m"], 1),
    (["score", "1122335566p77s99m", "--win", "9m", "--rules", "klub"], 2),
    (["score", "123456789p99m111z", "--win", "9m", "--ippatsu"], 2),
    (["rules", "show", "nope"], 2),
])
def test_errors(args: list[str], code: int) -> None:
    assert_translated(pseudo_run(args, code))


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_show(preset: str) -> None:
    """Each field in words, with its key beside it (and the other readings as a rule file writes
    them): the keys and TOML's true/false are a rule file's words, not sentences."""
    from sanma.rules.schema import RULE_FIELDS

    out = pseudo_run(["rules", "show", preset])
    assert untranslated(out, {*NAMES, *RULE_FIELDS, "true", "false"}) == [], out


def test_rules_list_and_check(tmp_path: Path) -> None:
    assert_translated(pseudo_run(["rules", "list"]))
    f = tmp_path / "house.toml"
    f.write_text('extends = "kansai"\nstart_points = 30000\n', encoding="utf-8")
    assert_translated(pseudo_run(["rules", "check", str(f)]))
    f.write_text('extends = "kansai"\nstart_point = 30000\n', encoding="utf-8")
    assert_translated(pseudo_run(["rules", "check", str(f)], 2))
