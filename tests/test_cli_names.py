r"""Issue 14 item 11: names are printed as they are, never read as rich markup.

A player, rule set or bot named ``[/bold]x`` crashed ``stats``, ``rules show``, ``score`` and
``simulate``; a stored record with such a name made every later ``stats --db`` crash; and
``[link=...]`` injected a hyperlink; and a name ``$\frac$`` made ``--chart`` fail (matplotlib read
it as TeX). Each command here is run on such names: exit 0, the name shown literally, no
hyperlink escape sequence.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sanma.cli import app
from sanma.formats import write_tenhou6
from sanma.game.engine import Game
from sanma.rules import Rules

HOSTILE = ("[/bold]x", "[link=https://e.x]c[/link]", r"[red]$\frac$")  # the last: TeX for matplotlib
runner = CliRunner()


def hostile_rules(tmp_path: Path) -> Path:
    p = tmp_path / "evil.toml"
    p.write_text(f'extends = "tenhou"\nname = "{HOSTILE[0]}"\ndescription = "{HOSTILE[1]}"\n', encoding="utf-8")
    return p


def assert_clean(out: str) -> None:
    assert "Traceback" not in out and "MarkupError" not in out
    assert "\x1b]8;" not in out  # an OSC 8 hyperlink


def test_rules_show_prints_a_markup_name_as_it_is(tmp_path: Path) -> None:
    r = runner.invoke(app, ["rules", "show", str(hostile_rules(tmp_path))])
    assert r.exit_code == 0, r.output
    assert_clean(r.output)
    assert HOSTILE[0] in r.output and HOSTILE[1] in r.output


def test_score_under_a_rule_set_with_a_markup_name(tmp_path: Path) -> None:
    r = runner.invoke(app, ["score", "123456789p99m111z", "--win", "9m", "--rules", str(hostile_rules(tmp_path))])
    assert r.exit_code == 0, r.output
    assert_clean(r.output)
    assert f"{HOSTILE[0]} rules" in r.output


def test_simulate_under_a_rule_set_with_a_markup_name(tmp_path: Path) -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", "--bots", "tsumogiri,tsumogiri,tsumogiri",
                            "--rules", str(hostile_rules(tmp_path))])
    assert r.exit_code == 0, r.output
    assert_clean(r.output)
    assert HOSTILE[0] in r.output


def record_with_hostile_names(tmp_path: Path) -> Path:
    g = Game(Rules.preset("tenhou"), seed=11, names=HOSTILE)
    rng = random.Random(11)
    while not g.done:
        legal = g.legal_actions(g.to_move[0])
        wins = [a for a in legal if a.type == "hora"]
        g.apply(wins[0] if wins else rng.choice(legal))
    p = tmp_path / "hostile.json"
    p.write_text(write_tenhou6(g, as_text=True), encoding="utf-8")
    return p


@pytest.mark.parametrize("chart", [False, True])
def test_stats_of_players_with_markup_names_and_the_database_afterwards(tmp_path: Path, chart: bool) -> None:
    """The record is stored, its names shown as they are, and a later ``stats --db`` still works."""
    rec, db = record_with_hostile_names(tmp_path), tmp_path / "g.sqlite"
    extra = ["--chart", str(tmp_path / "c.png")] if chart else []
    first = runner.invoke(app, ["stats", str(rec), "--db", str(db), *extra])
    assert first.exit_code == 0, first.output
    later = runner.invoke(app, ["stats", "--db", str(db)])
    assert later.exit_code == 0, later.output
    for out in (first.output, later.output):
        assert_clean(out)
        assert all(name in out for name in HOSTILE)
    only = runner.invoke(app, ["stats", "--db", str(db), "--player", HOSTILE[0]])
    assert only.exit_code == 0 and HOSTILE[0] in only.output


def test_an_unknown_player_with_a_markup_name_is_a_plain_error(tmp_path: Path) -> None:
    rec, db = record_with_hostile_names(tmp_path), tmp_path / "g.sqlite"
    r = runner.invoke(app, ["stats", str(rec), "--db", str(db), "--player", "[/nobody]"])
    assert r.exit_code == 2 and "no games of player '[/nobody]'" in r.stderr
