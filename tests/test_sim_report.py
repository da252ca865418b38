"""--report DIR and --compare RULES RULES: tables, plots and two rule sets on the same seeds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sanma.cli import simulate as simulate_cli
from sanma.sim import simulate
from sanma.sim.report import PLOTS, compare_rows, write_report

PNG = b"\x89PNG\r\n\x1a\n"
CONTRACT = {"games", "kyoku", "seconds", "games_per_second", "seats"}
SEAT_CONTRACT = {"bot", "average_placement", "win_rate", "deal_in_rate", "average_score"}


def cli() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    simulate_cli.register(app)
    return app


def test_summary_has_hand_value_bust_and_draw_figures() -> None:
    s = simulate("tenhou", games=4, seed=2, bots=("efficient", "random", "tsumogiri"))
    eff, rnd, tsu = s.seats
    won = [(r.entries[0].win_value, r.entries[0].wins) for r in s.records]
    assert eff.average_hand_value == sum(v for v, _ in won) / sum(w for _, w in won) > 1000
    assert rnd.average_hand_value == 0 and rnd.win_rate == 0  # no wins: no value, not a division by zero
    assert eff.bust_rate == 0 and 0 < rnd.bust_rate + tsu.bust_rate <= 1  # a game ends on one bust at most
    assert 0 < s.draw_rate < 1 and s.draws == sum(r.draws for r in s.records)
    assert s.to_json()["draw_rate"] == round(s.draw_rate, 6)


def test_report_writes_tables_and_plots_for_one_simulation(tmp_path: Path) -> None:
    matplotlib = pytest.importorskip("matplotlib", reason="matplotlib draws the report's plots")
    assert matplotlib
    s = simulate("tenhou", games=3, seed=1, bots=("efficient", "random", "defensive"))
    written = write_report([s], tmp_path / "out")
    names = {p.name for p in written}
    assert names == {"report.md", "report.html", "summary.json", *PLOTS}
    for plot in PLOTS:
        data = (tmp_path / "out" / plot).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000
    md = (tmp_path / "out" / "report.md").read_text()
    assert "| 1. efficient | " in md and "| 3. defensive | " in md and "![placements](placements.png)" in md
    assert f"{s.seats[0].win_rate:.1%}" in md
    html = (tmp_path / "out" / "report.html").read_text()
    assert html.count("<table>") == 1 and "<img src='scores.png'" in html
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["games"] == 3


def test_compare_plays_two_rule_sets_on_the_same_seeds_side_by_side(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib draws the report's plots")
    args = ["simulate", "--games", "3", "--seed", "7", "--bots", "efficient,random,tsumogiri",
            "--compare", "tenhou", "kansai", "--report", str(tmp_path / "cmp"), "--json"]
    r = CliRunner().invoke(cli(), args)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out.keys() >= CONTRACT and all(s.keys() >= SEAT_CONTRACT for s in out["seats"])
    a, b = out["compare"]
    assert (a["rules"], b["rules"]) == ("tenhou", "kansai") and a["seed"] == b["seed"] == 7
    assert {k: v for k, v in out.items() if k != "compare"} == a  # the top level is the first rule set
    assert a["seats"] != b["seats"]  # kansai walls (all fives red, flowers) play other games
    tenhou = simulate("tenhou", games=3, seed=7, bots=("efficient", "random", "tsumogiri"))
    assert [s["placements"] for s in a["seats"]] == [list(e.placements) for e in tenhou.seats]
    md = (tmp_path / "cmp" / "report.md").read_text()
    assert "## tenhou vs kansai (same seeds)" in md and "| bot | figure | tenhou | kansai | difference |" in md
    assert (tmp_path / "cmp" / "report.html").read_text().count("<table>") == 3


def test_compare_rows_show_the_difference_of_each_figure() -> None:
    a = simulate("tenhou", games=2, seed=3, bots=("efficient", "random", "random"))
    b = simulate("online", games=2, seed=3, bots=("efficient", "random", "random"))
    rows = compare_rows(a, b)
    assert len(rows) == 3 * 9 + 2
    win = next(r for r in rows if r[0] == "1. efficient" and r[1] == "win rate")
    assert win[2] == f"{a.seats[0].win_rate:.1%}" and win[3] == f"{b.seats[0].win_rate:.1%}"
    assert win[4] == f"{(b.seats[0].win_rate - a.seats[0].win_rate) * 100:+.1f} pt"
    same = compare_rows(a, a)
    assert all(r[4].lstrip("+-").startswith("0") for r in same)


def test_simulate_cli_table_shows_the_comparison_and_report_paths(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib draws the report's plots")
    r = CliRunner().invoke(cli(), ["simulate", "--games", "1", "--compare", "tenhou", "majsoul",
                                   "--report", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert "tenhou vs majsoul, same seeds" in r.stdout and "average placement" in r.stdout
    assert "report: " in r.stderr and str(tmp_path / "r" / "report.html") in r.stderr
