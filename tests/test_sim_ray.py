"""--backend ray: a local Ray cluster of 2 CPUs plays the same games as local processes, seed for seed."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from sanma.cli import simulate as simulate_cli
from sanma.sim import simulate

ray = pytest.importorskip("ray", reason="ray is not installed (pip install ray); CI installs it from pyproject")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "mjai_bot.py"
TIMINGS = ("seconds", "games_per_second", "jobs", "backend")


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One local cluster for the module (starting Ray takes seconds): simulate() joins it."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield
    finally:
        ray.shutdown()


def _games(out: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in out.items() if k not in TIMINGS}


def test_ray_backend_gives_the_same_games_as_local_processes(cluster: None) -> None:
    bots = (f"mjai:{sys.executable} {EXAMPLE}", "efficient", "random")  # an external bot on the workers too
    key = b"the same secret for both runs"  # an external bot's walls are keyed: one key repeats a run
    on_ray = simulate("tenhou", games=6, seed=21, bots=bots, jobs=2, backend="ray", wall_key=key)
    local = simulate("tenhou", games=6, seed=21, bots=bots, jobs=1, wall_key=key)
    assert on_ray.backend == "ray" and local.backend == "local"
    assert on_ray.records == local.records  # game by game, not only the sums
    assert _games(on_ray.to_json()) == _games(local.to_json())
    assert on_ray.incidents == 0 and on_ray.seats[0].win_rate > 0
    other = simulate("tenhou", games=6, seed=22, bots=bots, backend="ray", wall_key=key)
    assert other.records != on_ray.records  # another seed, other games


def test_simulate_cli_backend_ray_json(cluster: None) -> None:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    simulate_cli.register(app)
    args = ["simulate", "--rules", "kansai", "--games", "4", "--seed", "9", "--bots", "defensive,random,efficient",
            "--json"]
    on_ray = CliRunner().invoke(app, [*args, "--backend", "ray"])
    assert on_ray.exit_code == 0, on_ray.output
    local = CliRunner().invoke(app, [*args, "--jobs", "2"])
    a, b = json.loads(on_ray.stdout), json.loads(local.stdout)
    assert a["backend"] == "ray" and b["backend"] == "local"
    assert _games(a) == _games(b) and a["games"] == 4
