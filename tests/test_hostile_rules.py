"""Issue 14 item 15: ``rules check`` and ``score`` refuse what the engine would refuse later, or
what makes no sense, with a message that says what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import sanma
from sanma.cli import app
from sanma.errors import HandError, RulesError, ScoringError
from sanma.game.engine import Game
from sanma.rules.loader import PRESETS, from_dict, load_preset

runner = CliRunner()


@pytest.mark.parametrize(("preset", "size"), [("club", 0), ("online", 4), ("tenhou", 7)])
def test_p14_dead_wall_layouts_the_engine_refuses_are_refused_at_load(tmp_path: Path, preset: str, size: int) -> None:
    """P14: a fixed dead wall must hold the rinshan tiles and the indicator stacks."""
    data = {"extends": preset, "dead_wall_size": size}
    with pytest.raises(RulesError, match=f"x.toml: rules '{preset}': dead_wall_size = {size} cannot hold"):
        from_dict(data, "x.toml")
    f = tmp_path / "bad.toml"
    f.write_text(f'extends = "{preset}"\ndead_wall_size = {size}\n')
    result = runner.invoke(app, ["rules", "check", str(f)])
    assert result.exit_code == 2 and "cannot hold" in result.stderr and "ok" not in result.stdout


def test_p14_every_preset_loads_and_deals() -> None:
    for name in PRESETS:
        rules = load_preset(name)
        assert Game(rules, seed=1).wall.remaining > 0  # the check at load agrees with the engine's


def test_p02_a_flower_as_dora_indicator_under_rules_without_flowers() -> None:
    """P02: only rules with flowers have flowers in the wall to turn over as an indicator."""
    kw = dict(win="9m", riichi=True, seat_wind="S", round_wind="E", discarder_wind="W")
    with pytest.raises(ScoringError, match="dora indicator 1f is a flower, but the tenhou rules have no flowers"):
        sanma.score_hand("123456789p99m111z", dora_indicators=["1f"], rules=sanma.Rules.preset("tenhou"), **kw)
    # under kansai's flowers a flower indicator is legal and indicates nothing (P03)
    plain = sanma.score_hand("123456789p99m111z", rules=sanma.Rules.preset("kansai"), **kw)
    assert sanma.score_hand("123456789p99m111z", dora_indicators=["1f"], rules=sanma.Rules.preset("kansai"),
                            **kw).han == plain.han


def test_ura_without_riichi_is_refused_by_score() -> None:
    result = runner.invoke(app, ["score", "123456789p99m111z", "--win", "9m", "--seat", "S", "--from", "W",
                                 "--rules", "tenhou", "--ura", "1p"])
    assert result.exit_code == 2 and "--ura 1p without --riichi" in result.stderr
    ok = runner.invoke(app, ["score", "123456789p99m111z", "--win", "9m", "--seat", "S", "--from", "W",
                             "--rules", "tenhou", "--ura", "1p", "--riichi"])
    assert ok.exit_code == 0, ok.output


def test_too_many_melds_say_so_instead_of_a_negative_tile_count() -> None:
    with pytest.raises(HandError, match="has 5 melds: a hand has at most 4") as e:
        sanma.score_hand("11z", win="1z", melds=["pon:222z", "pon:333z", "pon:444z", "pon:555z", "pon:666z"],
                         tsumo=True, seat_wind="E", round_wind="E", rules=sanma.Rules.preset("tenhou"))
    assert "-" not in str(e.value).split("melds")[1]
    many = runner.invoke(app, ["score", "11z", "--win", "1z", "--tsumo", *["--pon", "555z"] * 5000])
    assert many.exit_code == 2 and "−" not in many.stderr and "needs -" not in many.stderr
