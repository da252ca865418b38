"""The CLI around the game, issue 14 items 6 and 7: --version, replay DIR, a non-record file is an
error, stats --db MISSING creates nothing, did-you-mean for bots, the post-game hint runs, ray's
message, the CJK-font note of --chart."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sanma import __version__
from sanma.cli import app
from shared_data import data_path

runner = CliRunner()


def test_version_option_and_command() -> None:
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"sanma {__version__}"
    assert runner.invoke(app, ["version"]).output.strip() == __version__


def test_replay_a_folder_reads_every_record_in_it() -> None:
    folder = data_path("tenhou6_json")
    files = sorted(p for p in folder.iterdir() if p.suffix == ".json")
    r = runner.invoke(app, ["replay", str(folder), "--check"])
    assert r.exit_code == 0, r.output[-2000:]
    assert f"{len(files)} game(s)" in r.output
    assert all(f.name in r.output for f in files)


def test_replay_an_empty_folder_or_a_missing_path_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    r = runner.invoke(app, ["replay", str(tmp_path)])
    assert r.exit_code == 2 and "a folder with no record files" in r.stderr
    r = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert r.exit_code == 2 and "no such file or folder" in r.stderr


def test_a_file_that_is_not_a_record_is_an_error_not_a_mismatch(tmp_path: Path) -> None:
    """It used to print MISMATCH and exit 0 (without --check)."""
    readme = tmp_path / "README.md"
    readme.write_text("# sanma\n\nThree-player mahjong\n")
    for args in ([str(readme)], [str(readme), "--check"], [str(readme), "--json"]):
        r = runner.invoke(app, ["replay", *args])
        assert r.exit_code == 2, r.output
        assert "not a readable record: unknown record format" in r.stderr and "MISMATCH" not in r.output
    db = tmp_path / "x.sqlite"
    r = runner.invoke(app, ["replay", str(readme), "--db", str(db)])
    assert r.exit_code == 2


def test_simulate_suggests_the_bot_name_meant() -> None:
    r = runner.invoke(app, ["simulate", "--games", "1", "--bots", "efficent,random,random"])
    assert r.exit_code == 2 and "unknown bot 'efficent': did you mean 'efficient'?" in r.stderr
    r = runner.invoke(app, ["simulate", "--games", "1", "--bots", "zzzz,random,random"])
    assert r.exit_code == 2 and "did you mean" not in r.stderr and "choose from" in r.stderr


@pytest.mark.slow
def test_the_hint_after_a_game_is_a_command_that_works(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    r = runner.invoke(app, ["play", "--seed", "3", "--db", str(db)], input="\n" * 4000)
    assert r.exit_code == 0, r.output[-1000:]
    hint = r.output.split("(see it with: ", 1)[1].split(").", 1)[0]
    args = hint.split()
    assert args[:1] == ["sanma"]
    follow = runner.invoke(app, args[1:])
    assert follow.exit_code == 0, follow.output
    assert "You" in follow.output and "Player statistics" in follow.output


def test_ray_backend_without_ray_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 item 7: ray is the optional extra sanma[ray]; without it a clear message, exit 2."""
    monkeypatch.setitem(sys.modules, "ray", None)  # as if ray were not installed
    r = runner.invoke(app, ["simulate", "--games", "1", "--backend", "ray"])
    assert r.exit_code == 2
    assert "pip install 'sanma[ray]'" in r.stderr and "Traceback" not in r.output


@pytest.mark.parametrize("font_there", [False, True])
def test_stats_chart_says_when_no_cjk_font_draws_the_names(tmp_path: Path, font_there: bool,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 item 6: Tenhou names are Japanese; without a CJK font the chart shows boxes: say
    so and how to get one. With one of the fonts installed (DejaVu Sans stands in) nothing is said."""
    import sanma.stats

    monkeypatch.setattr(sanma.stats, "CJK_FONTS", ("DejaVu Sans",) if font_there else ("No Such Font CJK",))
    record = sorted(data_path("tenhou6_json").glob("*.json"))[0]
    r = runner.invoke(app, ["stats", str(record), "--db", str(tmp_path / "s.sqlite"),
                            "--chart", str(tmp_path / "c.png")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "c.png").stat().st_size > 0
    said = "no CJK font is installed" in r.stderr
    assert said is not font_there
    if said:
        assert "fonts-noto-cjk" in r.stderr


def test_no_cjk_note_for_ascii_names() -> None:
    from sanma.cli.stats import cjk_font_note

    assert cjk_font_note(["You", "Efficient-1"]) == ""


def test_bots_doc_names_each_presets_tsumo_payment_as_the_preset_sets_it() -> None:
    """Issue 14 item 6: docs/BOTS.md said official pays full-amount tsumo; the preset is tsumo-son
    (P50: seed 002's example 「500・1000は、1500・2000」 implies model A, A002-4)."""
    from sanma.rules import Rules

    doc = (Path(__file__).resolve().parents[1] / "docs" / "BOTS.md").read_text(encoding="utf-8")
    text = " ".join(doc.split())
    halves = text.split("(online, kansai: `tsumo_payment = \"equal_halves\"`", 1)
    assert len(halves) == 2
    son = text.split("than under tsumo-son (", 1)[1].split(":", 1)[0]
    assert [p.strip() for p in son.replace(" and ", ", ").split(",")] == ["tenhou", "majsoul", "club", "official"]
    for name in ("online", "kansai"):
        assert Rules.preset(name).tsumo_payment == "equal_halves"
    for name in ("tenhou", "majsoul", "club", "official"):
        assert Rules.preset(name).tsumo_payment == "tsumo_son"
    assert "`official` (full-amount tsumo" not in text
