"""Simulation: seeded games, seat rotation, the same summary whatever --jobs, and the CLI contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from sanma.cli import simulate as simulate_cli
from sanma.game.view import mask_event
from sanma.rules import Rules
from sanma.sim import SimulationError, play_game, seat_of, simulate

TENHOU = Rules.preset("tenhou")


def cli() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    simulate_cli.register(app)
    return app


def test_seats_rotate_every_game_and_each_entry_keeps_its_bot() -> None:
    assert [seat_of(0, i) for i in range(4)] == [0, 1, 2, 0]
    assert {seat_of(j, 5) for j in range(3)} == {0, 1, 2}
    for index in (0, 1, 2):
        rec = play_game(TENHOU, ("tsumogiri", "random", "random"), seed=9, index=index)
        assert [e.seat for e in rec.entries] == [seat_of(j, index) for j in range(3)]
        assert sorted(e.placement for e in rec.entries) == [1, 2, 3]
        assert sum(e.score for e in rec.entries) <= 3 * TENHOU.start_points
        assert rec.entries[0].riichi == 0 and rec.entries[0].calls == 0  # tsumogiri never calls


def test_the_same_seed_gives_the_same_games_and_another_seed_others() -> None:
    a = play_game(TENHOU, ("efficient", "random", "random"), seed=4, index=3)
    assert a == play_game(TENHOU, ("efficient", "random", "random"), seed=4, index=3)
    others = {play_game(TENHOU, ("efficient", "random", "random"), seed=s, index=3) for s in (5, 6, 7)}
    assert a not in others and len(others) > 1


def test_summary_is_the_same_for_one_process_and_several() -> None:
    bots = ("efficient", "random", "tsumogiri")
    one = simulate("tenhou", games=5, seed=11, bots=bots, jobs=1)
    two = simulate("tenhou", games=5, seed=11, bots=bots, jobs=2)
    strip = lambda d: {k: v for k, v in d.items() if k not in ("seconds", "games_per_second", "jobs")}  # noqa: E731
    assert strip(one.to_json()) == strip(two.to_json())
    assert one.games == 5 and one.kyoku >= 5


def test_efficient_beats_random_and_tsumogiri() -> None:
    s = simulate("tenhou", games=4, seed=2, bots=("random", "efficient", "tsumogiri"))
    eff = s.seats[1]
    assert eff.bot == "efficient"
    assert eff.average_placement < 1.5
    assert eff.win_rate > 0.3
    assert s.seats[0].win_rate < eff.win_rate and s.seats[2].win_rate < eff.win_rate
    assert sum(sum(e.placements) for e in s.seats) == 3 * s.games


def test_bad_simulation_arguments_are_errors() -> None:
    with pytest.raises(SimulationError, match="--games must be at least 1"):
        simulate("tenhou", games=0)
    with pytest.raises(SimulationError, match="--jobs must be at least 1"):
        simulate("tenhou", games=1, jobs=0)
    with pytest.raises(SimulationError, match="needs 3 comma-separated names"):
        simulate("tenhou", games=1, bots=("random", "random"))


def test_masked_events_hide_other_seats_tiles() -> None:
    e = {"type": "tsumo", "actor": 1, "pai": "5p"}
    assert mask_event(e, 1) == e and mask_event(e, 0)["pai"] == "?"
    deal = {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
            "dora_marker": "1p", "dora_markers": ["1p"], "scores": [35000] * 3, "tehais": [["1m"], ["9m"], ["E"]]}
    assert mask_event(deal, 2)["tehais"] == [["?"], ["?"], ["E"]]


def test_simulate_cli_json_has_the_contract_fields() -> None:
    r = CliRunner().invoke(cli(), ["simulate", "--rules", "tenhou", "--games", "2", "--seed", "1",
                                   "--bots", "random,efficient,random", "--jobs", "1", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["games"] == 2 and out["kyoku"] >= 2 and out["seconds"] > 0 and out["games_per_second"] > 0
    assert [s["bot"] for s in out["seats"]] == ["random", "efficient", "random"]
    for s in out["seats"]:
        assert {"bot", "average_placement", "win_rate", "deal_in_rate", "average_score"} <= s.keys()
    assert sum(s["average_placement"] for s in out["seats"]) == pytest.approx(6.0)


def test_simulate_cli_table_names_every_bot() -> None:
    r = CliRunner().invoke(cli(), ["simulate", "--games", "1", "--bots", "tsumogiri,random,efficient"])
    assert r.exit_code == 0, r.output
    for name in ("tsumogiri", "random", "efficient", "1 game,"):
        assert name in r.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "x"], "--games must be a whole number, got 'x'"),
    (["--games", "0"], "--games must be at least 1, got 0"),
    (["--games", "1", "--jobs", "-2"], "--jobs must be at least 1, got -2"),
    (["--games", "1", "--seed", "s"], "--seed must be an integer, got 's'"),
    (["--games", "1", "--bots", "random,smart,random"], "unknown bot 'smart'"),
    (["--games", "1", "--bots", "random"], "--bots needs 3 comma-separated names, got 1"),
    (["--games", "1", "--rules", "nowhere"], "unknown preset 'nowhere'"),
    (["--games", "1", "--backend", "spark"], "--backend must be one of local, ray, got 'spark'"),
    (["--games", "1", "--address", "auto"], "--address needs --backend ray"),
    (["--games", "1", "--mjai-timeout", "0"], "--mjai-timeout must be more than 0 seconds, got 0"),
    (["--games", "1", "--bots", "random,mjai:,random"], "mjai bot needs a command after 'mjai:'"),
    (["--games", "1", "--bots", "random,mjai:no-such-program-here,random"],
     "mjai bot command not found: 'no-such-program-here'"),
    (["--games", "1", "--compare", "tenhou", "nowhere"], "unknown preset 'nowhere'"),
])
def test_simulate_cli_errors_exit_2_with_one_line(args: list[str], message: str) -> None:
    r = CliRunner().invoke(cli(), ["simulate", *args])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: ") and message in r.stderr
    assert "Traceback" not in r.output


def test_simulate_cli_db_stores_each_run_and_its_games(tmp_path: Path) -> None:
    from sanma.store import open_db

    db = tmp_path / "runs.sqlite"
    args = ["simulate", "--games", "3", "--seed", "8", "--bots", "efficient,random,tsumogiri", "--db", str(db)]
    r = CliRunner().invoke(cli(), [*args, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    r = CliRunner().invoke(cli(), [*args, "--compare", "tenhou", "kansai"])  # two more runs, one per rule set
    assert r.exit_code == 0, r.output
    assert f"stored in {db}: simulation 2, 3" in r.stderr
    with open_db(db) as store:
        runs = store.simulations()
        assert [x.rules_name for x in runs] == ["tenhou", "tenhou", "kansai"]
        first = runs[0]
        assert first.seed == "8" and first.bots == ("efficient", "random", "tsumogiri") and first.games == 3
        assert first.summary == out
        rows = store.simulation_results(first.id)
    assert len(rows) == 9
    for j, seat in enumerate(out["seats"]):
        assert [sum(1 for x in rows if x["entry"] == j and x["placement"] == p) for p in (1, 2, 3)] == \
            seat["placements"]
