"""``sanma simulate``: games between bots, summarised per bot (one process or local processes)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from ..bots import BOTS
from ..sim import Summary, check_bots, simulate
from ..sim.arena import SimulationError
from .common import RULES_HELP, cli_errors, load_rules


class _RateColumn(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("? games/s" if not speed else f"{speed:.1f} games/s", style="progress.data.speed")


def _count(option: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise SimulationError(f"{option} must be a whole number, got {text!r}") from None
    if value < 1:
        raise SimulationError(f"{option} must be at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SimulationError(f"--seed must be an integer, got {text!r}") from None


def _table(s: Summary) -> Table:
    t = Table(title=f"{s.games} game{'s' if s.games != 1 else ''}, {s.kyoku} hands under {s.rules} (seed {s.seed}): "
                    f"{s.seconds:.2f} s, {s.games_per_second:.2f} games/s on {s.jobs} process"
                    f"{'es' if s.jobs > 1 else ''}", title_justify="left")
    for col in ("bot", "avg place", "1st/2nd/3rd", "win", "deal-in", "riichi", "calls", "avg score", "avg points"):
        t.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for e in s.seats:
        t.add_row(e.bot, f"{e.average_placement:.3f}", "/".join(map(str, e.placements)), f"{e.win_rate:.1%}",
                  f"{e.deal_in_rate:.1%}", f"{e.riichi_rate:.1%}", f"{e.call_rate:.1%}", f"{e.average_score:,.0f}",
                  f"{e.average_points:+.1f}")
    return t


def simulate_command(
    games: Annotated[str, typer.Option("--games", help="Number of games (hanchan) to play.")],
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "tenhou",
    seed: Annotated[str, typer.Option("--seed", help="Seed: the same seed gives the same games.")] = "0",
    bots: Annotated[str, typer.Option(
        "--bots", help=f"Three comma-separated bots, one per seat (they rotate): {', '.join(sorted(BOTS))}."
    )] = "random,random,random",
    jobs: Annotated[str, typer.Option("--jobs", help="Local worker processes.")] = "1",
    backend: Annotated[str, typer.Option("--backend", help="Where games run: local (ray: not yet).")] = "local",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
) -> None:
    """Play GAMES games between bots and report placement, win and deal-in rates per bot.

    Seats rotate every game and each summary row follows its bot. The same --seed gives the
    same games whatever --jobs is.
    """
    with cli_errors():
        n = _count("--games", games)
        j = _count("--jobs", jobs)
        s = _seed(seed)
        if backend != "local":
            raise SimulationError(f"--backend {backend!r} is not available; use --backend local")
        names = check_bots(bots.split(","))
        r = load_rules(rules)
        if as_json:
            summary = simulate(r, n, s, names, j)
            typer.echo(json.dumps(summary.to_json()))
            return
        err = Console(stderr=True)
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      _RateColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                      console=err, transient=err.is_terminal) as bar:
            task = bar.add_task(f"{'/'.join(names)}", total=n)
            summary = simulate(r, n, s, names, j, progress=lambda k: bar.advance(task, k))
        out = Console(file=sys.stdout)
        if not out.is_terminal:  # piped: do not squeeze the table into 80 columns
            out = Console(file=sys.stdout, width=max(out.width, 120))
        out.print(_table(summary))


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
