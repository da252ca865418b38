"""`sanma score` / `sanma shanten` as the contract in ARCHITECTURE.md says."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from sanma.cli import app

runner = CliRunner()


def test_score_json_has_the_contract_fields() -> None:
    r = runner.invoke(app, ["score", "123456789p99m111z", "--win", "9m", "--riichi", "--seat", "S",
                            "--from", "W", "--rules", "tenhou", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    for key in ("han", "fu", "yaku", "yakuman", "limit", "total", "deltas"):
        assert key in out
    assert out["han"] == 4 and out["fu"] == 40 and out["limit"] == "mangan" and out["total"] == 8000
    assert out["deltas"] == {"E": 0, "S": 8000, "W": -8000}
    assert {"name": "ittsu", "han": 2} in out["yaku"]


def test_score_human_output_lists_yaku_fu_and_payments() -> None:
    r = runner.invoke(app, ["score", "234p789p123s789s11m", "--win", "4p", "--tsumo", "--seat", "S"])
    assert r.exit_code == 0, r.output
    assert "Pinfu" in r.output and "Menzen Tsumo" in r.output and "payments" in r.output


def test_score_from_north_is_a_clear_error_not_an_index_error() -> None:
    """Issue 14 item 14: ``--from N`` (and ``--seat N``) are bad input, exit 2, no traceback."""
    for opt in ("--from", "--seat"):
        r = runner.invoke(app, ["score", "123456789p99m111z", "--win", "9m", opt, "N"])
        assert r.exit_code == 2 and (r.exception is None or isinstance(r.exception, SystemExit))
        assert "wind N does not exist in sanma" in r.stderr


def test_score_melds_from_options() -> None:
    r = runner.invoke(app, ["score", "123345p999p11z", "--win", "1z", "--pon", "5z", "--tsumo", "--json"])
    assert r.exit_code == 0, r.output
    names = [y["name"] for y in json.loads(r.output)["yaku"]]
    assert "yakuhai_haku" in names and "honitsu" in names


def test_score_not_a_win_exits_1_with_reason() -> None:
    r = runner.invoke(app, ["score", "123456789p99m112z", "--win", "9m"])
    assert r.exit_code == 1
    assert "not a complete hand" in r.output


def test_score_no_yaku_exits_1() -> None:
    r = runner.invoke(app, ["score", "123456789p99m111s", "--win", "9m", "--seat", "S", "--from", "W"])
    assert r.exit_code == 0  # ittsu is a yaku
    r = runner.invoke(app, ["score", "123p456p789s99m111s", "--win", "9m", "--seat", "S", "--from", "W"])
    assert r.exit_code == 1 and "no yaku" in r.output


def test_score_bad_tile_exits_2_without_traceback() -> None:
    r = runner.invoke(app, ["score", "12345678m99m111z", "--win", "9m"])
    assert r.exit_code == 2
    assert "2m is not in the sanma tile set" in r.output
    assert "Traceback" not in r.output


def test_python_dash_m_sanma_runs() -> None:
    out = subprocess.run([sys.executable, "-m", "sanma", "score", "234p789p123s789s11m", "--win", "4p",
                          "--tsumo", "--seat", "S", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["fu"] == 20


def test_shanten_cli_contract() -> None:
    r = runner.invoke(app, ["shanten", "19m19p19s1234567z", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == {"hand": "19m19p19s1234567z", "shanten": 0}
    r = runner.invoke(app, ["shanten", "123456789p11s123z"])
    assert r.exit_code == 0 and r.output.startswith("1 ")


def test_shanten_cli_bad_hand_exits_2() -> None:
    r = runner.invoke(app, ["shanten", "123p"])
    assert r.exit_code == 2 and "3 tiles" in r.output
