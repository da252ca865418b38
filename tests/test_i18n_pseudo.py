"""Issue 24: a pseudo-locale run that finds any sentence left untranslated in the CLI (every command's
--help, its output and its errors).

With ``SANMA_PSEUDO=1`` every English sentence and term sanma puts into words is shown between
``⟦`` and ``⟧``; a word outside them was printed without going through the catalogue or the
vocabulary, so it would stay English in Japanese too. Each command below is run that way and its
output (stdout and stderr) must hold no such word. Names people chose (rule sets, files) are not
words to translate."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
import typer.main
from typer.testing import CliRunner

from sanma.cli import app
from sanma.i18n import LANGS
from sanma.i18n.messages import untranslated
from shared_data import shared_path

runner = CliRunner()
PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")
BOTS = ("defensive", "efficient", "random", "review", "tsumogiri")
NAMES = {*PRESETS, *BOTS, "sanma", "toml", "json", "mpsz", "mjai"}


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


# --- every command's --help, and the commands beyond score and rules ------------------------------------------------


def _commands() -> list[tuple[list[str], click.Command]]:
    """Every command and group of the command line, with the words that name it."""
    out: list[tuple[list[str], click.Command]] = []

    def walk(path: list[str], command: click.Command) -> None:
        out.append((path, command))
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk([*path, name], sub)

    walk([], typer.main.get_command(app))
    return out


def _names(path: list[str], command: click.Command) -> set[str]:
    """What --help shows that a user types as it is: command names, parameter names and choices."""
    names = {*NAMES, *path, *LANGS}  # --lang's choices (the option is added to every command when it runs)
    if isinstance(command, click.Group):
        names |= set(command.commands)
    for p in command.params:
        names |= {p.name or "", p.human_readable_name.lower()}
        if isinstance(p.type, click.Choice):
            names |= {str(c) for c in p.type.choices}
    return names


@pytest.mark.parametrize("path", [p for p, _ in _commands()], ids=lambda p: " ".join(p) or "sanma")
def test_every_help_is_translated(path: list[str]) -> None:
    """Each command's --help: its description, every option's and argument's help and the parser's
    own words (Usage, Options, [default: ...]) — a help text the catalogue lacks stays unmarked."""
    command = dict((tuple(p), c) for p, c in _commands())[tuple(path)]
    out = pseudo_run([*path, "--help"])
    left = untranslated(out, _names(path, command))
    assert left == [], f"untranslated: {sorted(set(left))}\n{out}"


@pytest.mark.parametrize("args, code", [
    (["version"], 0),
    (["demo"], 0),
    (["simulate", "--games", "1", "--seed", "1"], 0),
    (["simulate", "--games", "1", "--seed", "1", "--compare", "tenhou", "majsoul"], 0),
    (["simulate", "--games", "0"], 2),
    (["serve", "--port", "x"], 2),
    (["serve", "--port", "0"], 2),
    (["score", "123m", "--honba", "x"], 2),
    (["score", "123456789p99m111z", "--win", "9m", "--nope"], 2),
    (["replay", "/nonexistent.json"], 2),
    (["verify", "1"], 2),
])
def test_other_commands(args: list[str], code: int) -> None:
    out = pseudo_run(args, code)
    assert untranslated(out, {*NAMES, args[0]}) == [], out  # the command's name in a usage line


def test_replay_and_stats_of_real_records(tmp_path: Path) -> None:
    record = shared_path("data", "tenhou6_json", "2024010120gm-00b9-0000-e324b88a.json")
    mjlog = shared_path("data", "tenhou_mjlog", "2009060321gm-00b9-0000-75b25bcf.xml")
    db = str(tmp_path / "a.sqlite")
    assert_translated(pseudo_run(["replay", str(record), str(mjlog)]))
    assert_translated(pseudo_run(["stats", "--db", db, str(record)]))
    # the database's own table names are not words to translate
    out = pseudo_run(["db", "copy", db, str(tmp_path / "b.sqlite")])
    assert untranslated(out, {*NAMES, "events", "games", "kyoku", "players", "records", "results"}) == [], out
    assert_translated(pseudo_run(["db", "copy", db, db], 2))


def test_bot_names_in_help_are_the_bots() -> None:
    """The --bot and --bots help texts name the bots literally (so the catalogue can hold them)."""
    from sanma.bots import BOTS

    for args in (["play", "--help"], ["simulate", "--help"]):
        out = runner.invoke(app, args, env={"SANMA_LANG": "en", "COLUMNS": "300"}).output
        assert all(b in out for b in BOTS), (args, sorted(BOTS))
