"""``sanma rules list | show | check | docs``: output and exit codes (0 ok, 2 bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sanma.cli import rules as rules_cli
from sanma.rules.docs import render, value_text
from sanma.rules.loader import PRESETS, load_preset, to_dict

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    """A fresh app with only ``rules`` registered, as ``sanma.cli`` does."""
    app = typer.Typer()

    @app.command()
    def noop() -> None:  # a second command keeps `rules` a sub-command group
        pass

    rules_cli.register(app)
    return app


def test_list_prints_every_preset_with_its_description(app: typer.Typer) -> None:
    result = runner.invoke(app, ["rules", "list"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(PRESETS)
    assert load_preset("kansai").description in result.stdout


def test_show_prints_every_scalar_field(app: typer.Typer) -> None:
    result = runner.invoke(app, ["rules", "show", "tenhou"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    for name, value in to_dict(load_preset("tenhou")).items():
        if name in ("name", "description", "yaku", "yakuman") or isinstance(value, list):
            continue
        row = next(line for line in lines if line.startswith(f"│ {name} "))
        assert f" {value_text(value)} " in row, row  # the value is on the field's own row
    assert "honba_ron" in result.stdout and "200" in result.stdout
    assert "Not a yaku under these rules" in result.stdout and "renhou" in result.stdout


def test_show_json_is_every_field(app: typer.Typer) -> None:
    result = runner.invoke(app, ["rules", "show", "majsoul", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data == to_dict(load_preset("majsoul"))
    assert data["uma"] == [15, 0, -15] and data["yakuman"]["kokushi_13"] == 2


def test_show_accepts_a_rule_file(app: typer.Typer) -> None:
    result = runner.invoke(app, ["rules", "show", str(ROOT / "examples" / "myclub.toml"), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["honba_ron"] == 500


def test_show_unknown_preset_exits_2_without_traceback(app: typer.Typer) -> None:
    result = runner.invoke(app, ["rules", "show", "tenhu"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown preset 'tenhu' (did you mean 'tenhou'?)")
    assert "Traceback" not in result.output


def test_check_lists_changes_against_the_extended_preset(app: typer.Typer) -> None:
    result = runner.invoke(app, ["rules", "check", str(ROOT / "examples" / "myclub.toml")])
    assert result.exit_code == 0, result.stderr
    assert "based on preset kansai" in result.stdout
    assert "  honba_ron: 1000 -> 500" in result.stdout
    assert "  yaku.junchan: [3, 2] -> [4, 3]" in result.stdout
    assert "north_mode" not in result.stdout  # unchanged fields are not listed


def test_check_without_extends_compares_with_schema_defaults(app: typer.Typer, tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text("honba_ron = 300\n", encoding="utf-8")
    result = runner.invoke(app, ["rules", "check", str(path)])
    assert result.exit_code == 0
    assert "based on the schema defaults, 1 change" in result.stdout


@pytest.mark.parametrize(("text", "needle"), [
    ('extends = "kansai"\nhonba_rom = 3\n', "unknown field 'honba_rom' (did you mean 'honba_ron'?)"),
    ("honba_ron = = 3\n", "malformed TOML"),
    ("oka = 1\n", "field 'oka' must be true or false"),
])
def test_check_bad_file_exits_2_with_the_error(app: typer.Typer, tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["rules", "check", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path}: ")
    assert needle in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_check_missing_file_exits_2(app: typer.Typer, tmp_path: Path) -> None:
    result = runner.invoke(app, ["rules", "check", str(tmp_path / "missing.toml")])
    assert result.exit_code == 2 and "cannot read rule file" in result.stderr


def test_docs_prints_the_generated_reference(app: typer.Typer) -> None:
    result = runner.invoke(app, ["rules", "docs"])
    assert result.exit_code == 0
    assert result.stdout == render()


def test_committed_rules_md_is_up_to_date() -> None:
    """docs/RULES.md must equal `sanma rules docs` (run `make docs` after changing rules)."""
    assert (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8") == render()


def test_rules_md_has_every_field_and_a_column_per_preset() -> None:
    text = render()
    for name in to_dict(load_preset("club")):
        assert f"`{name}`" in text
    assert "| field | " + " | ".join(f"`{p}`" for p in PRESETS) + " |" in text
    assert "| `junchan` | 4/3 | 3/2 | 3/2 | 3/2 | 3/2 | 3/2 |" in text


def test_main_app_has_rules_registered() -> None:
    from sanma.cli import app as main_app

    result = runner.invoke(main_app, ["rules", "list"])
    assert result.exit_code == 0 and "majsoul" in result.stdout
