"""``sanma simulate``: games between bots, summarised per bot, on local processes or a Ray cluster.

Start-up counts (the command is timed with it): ``rich`` is imported only to draw the progress
bar and the table, never for ``--json``; ``ray`` only for ``--backend ray``; ``matplotlib`` only
for ``--report``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import SanmaError
from ..i18n.messages import sentence, tr, tr_n, trc
from ..sim import Summary, check_bots, simulate
from ..sim.arena import SimulationError
from ..sim.local import BACKENDS
from .common import DB_WHERE, RULES_HELP, cli_errors, load_rules

if TYPE_CHECKING:
    from rich.table import Table

    from ..rules import Rules


def _count(option: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise SimulationError(sentence("{option} must be a whole number, got {text!r}",
                                       option=option, text=text)) from None
    if value < 1:
        raise SimulationError(sentence("{option} must be at least 1, got {value}", option=option, value=value))
    return value


def _seconds(option: str, text: str) -> float:
    from ..bots.mjai import check_seconds

    try:
        value = float(text)
    except ValueError:
        raise SimulationError(sentence("{option} must be a number of seconds, got {text!r}",
                                       option=option, text=text)) from None
    try:
        return check_seconds(option, value)  # more than 0, at most an hour: never inf or nan
    except SanmaError as e:
        raise SimulationError(e.message) from None


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise SimulationError(sentence("--seed must be an integer, got {text!r}", text=text)) from None


def _table(s: Summary) -> Table:
    from rich.table import Table

    where = (tr_n("{n} process", "{n} processes", s.jobs) if s.backend == "local"
             else tr_n("Ray ({n} CPU asked)", "Ray ({n} CPUs asked)", s.jobs))
    games = tr_n("{n} game", "{n} games", s.games)
    seconds, speed, draws = f"{s.seconds:.2f}", f"{s.games_per_second:.2f}", f"{s.draw_rate:.1%}"
    t = Table(title=tr("{games}, {kyoku} hands under {rules} (seed {seed}): {seconds} s, {speed} games/s on {where}; "
                       "draws {draws}", games=games, kyoku=s.kyoku, rules=s.rules, seed=s.seed, seconds=seconds,
                       speed=speed, where=where, draws=draws),
              title_justify="left")
    cols = [tr("bot"), tr("avg place"), tr("1st/2nd/3rd"), trc("rate", "win"), trc("rate", "deal-in"),
            trc("rate", "riichi"), trc("rate", "calls"),
            tr("hand value"), tr("bust rate"), tr("avg score"), tr("avg points")]
    if s.incidents:
        cols.append(tr("incidents"))
    for i, col in enumerate(cols):
        t.add_column(col, justify="left" if i == 0 else "right", no_wrap=i != 0)
    for e in s.seats:
        row = [e.bot, f"{e.average_placement:.3f}", "/".join(map(str, e.placements)), f"{e.win_rate:.1%}",
               f"{e.deal_in_rate:.1%}", f"{e.riichi_rate:.1%}", f"{e.call_rate:.1%}", f"{e.average_hand_value:,.0f}",
               f"{e.bust_rate:.1%}", f"{e.average_score:,.0f}", f"{e.average_points:+.1f}"]
        if s.incidents:
            row.append(tr_n("{incidents} ({n} fallback)", "{incidents} ({n} fallbacks)", e.fallbacks,
                            incidents=e.incidents))
        t.add_row(*row)
    return t


def _run(rules: Rules, n: int, seed: int, names: tuple[str, ...], jobs: int, backend: str, address: str | None,
         limits: tuple[float | None, float | None], as_json: bool) -> Summary:
    """One simulation, with a progress bar on stderr unless ``--json``."""
    timeout, budget = limits
    if as_json:
        return simulate(rules, n, seed, names, jobs, backend=backend, address=address, timeout=timeout,
                        budget=budget)
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
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Games per second so far."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(tr("{speed} games/s", speed="?" if not speed else f"{speed:.1f}"), style="progress.data.speed")

    from rich.markup import escape

    err = Console(stderr=True)
    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  RateColumn(), TimeElapsedColumn(), TextColumn(escape(tr("ETA"))), TimeRemainingColumn(),
                  console=err, transient=err.is_terminal) as bar:
        label = f"{rules.name}: {'/'.join(names)}"
        task = bar.add_task(escape(label if len(label) <= 40 else label[:39] + "…"), total=n)
        return simulate(rules, n, seed, names, jobs, progress=lambda k: bar.advance(task, k), backend=backend,
                        address=address, timeout=timeout, budget=budget)


def _print_tables(summaries: list[Summary]) -> None:
    from rich.console import Console

    out = Console(file=sys.stdout, markup=False)  # bot and rule-set names are never markup (issue 14 item 11)
    if not out.is_terminal:  # piped: do not squeeze the table into 80 columns
        out = Console(file=sys.stdout, width=max(out.width, 140), markup=False)
    for s in summaries:
        out.print(_table(s))
    if len(summaries) == 2:
        from rich.table import Table

        from ..sim.report import compare_rows, figure

        a, b = summaries
        t = Table(title=tr("{a} vs {b}, same seeds", a=a.rules, b=b.rules), title_justify="left")
        for i, col in enumerate((tr("bot"), tr("figure"), a.rules, b.rules, tr("difference"))):
            t.add_column(col, justify="left" if i < 2 else "right", no_wrap=True)
        for bot, name, va, vb, diff in compare_rows(a, b):
            if diff.endswith(" pt"):  # a difference of rates, in percentage points
                diff = tr("{d} pt", d=diff.removesuffix(" pt"))
            t.add_row(figure(bot), figure(name), va, vb, diff)
        out.print(t)
    for s in summaries:
        for line in s.incident_log:
            print(tr("incident: {line}", line=line), file=sys.stderr)
        if s.incidents > len(s.incident_log):
            print(tr_n("... {n} more incident under {rules}", "... {n} more incidents under {rules}",
                       s.incidents - len(s.incident_log), rules=s.rules), file=sys.stderr)


def _store(db: str, rule_sets: list[Rules], summaries: list[Summary]) -> list[int]:
    from ..store import open_db

    with open_db(db) as store, store.transaction():  # all runs or none (Ctrl-C while storing: none)
        return [store.save_simulation(r, x.seed, [e.bot for e in x.seats], x.records, seconds=x.seconds,
                                      summary=x.to_json()) for r, x in zip(rule_sets, summaries, strict=False)]


def simulate_command(
    games: Annotated[str, typer.Option("--games", help="Number of games (hanchan) to play.")],
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "tenhou",
    seed: Annotated[str, typer.Option("--seed", help="Seed: the same seed gives the same games.")] = "0",
    bots: Annotated[str, typer.Option(
        "--bots", help="Three comma-separated bots, one per seat (they rotate): defensive, efficient, random, "
                       "review, tsumogiri, or mjai:COMMAND, an external program speaking mjai on stdin/stdout "
                       "(e.g. 'mjai:python examples/mjai_bot.py')."
    )] = "random,random,random",
    jobs: Annotated[str | None, typer.Option(
        "--jobs", help="Local worker processes (default 1); with --backend ray and no --address, the local "
                       "cluster's CPUs (default: all).")] = None,
    backend: Annotated[str, typer.Option("--backend", help="Where games run: local or ray.")] = "local",
    address: Annotated[str | None, typer.Option(
        "--address", help="Ray cluster to join (e.g. auto, ray://head:10001); default: start a local one.")] = None,
    report: Annotated[Path | None, typer.Option(
        "--report", help="Write a report to this directory: Markdown and HTML tables, PNG plots, summary.json.",
        file_okay=False)] = None,
    compare: Annotated[tuple[str, str] | None, typer.Option(
        "--compare", help="Two rule sets (presets or files) played on the same seeds, side by side; "
                          "replaces --rules.")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", help=f"A database ({DB_WHERE}) to store the run in (rules, seed, bots, each game's result per bot, "
                     "the summary); one run per rule set with --compare.")] = None,
    mjai_timeout: Annotated[str | None, typer.Option(
        "--mjai-timeout", help="Seconds an mjai:COMMAND bot has per decision (default 5; 30 for the first; "
                               "at most 3600).")] = None,
    mjai_budget: Annotated[str | None, typer.Option(
        "--mjai-budget", help="Seconds an mjai:COMMAND bot may think over one whole game (default 180); "
                              "past it the seat plays tsumogiri for the rest of that game.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
) -> None:
    """Play GAMES games between bots and report placement, win and deal-in rates per bot.

    Seats rotate every game and each summary row follows its bot. The same --seed gives the
    same games whatever --jobs and --backend are.

    With --compare A B the JSON object is rule set A's summary (the usual fields) plus
    "compare": [A's summary, B's summary].

    With an mjai:COMMAND bot at the table the walls are keyed by a secret drawn for the run, so
    the program cannot rebuild them from the seed (a --seed you chose is easy to guess): such
    runs are not reproducible from --seed.

    Ctrl-C stops the run at once: the games finished so far are reported (and stored with --db),
    and the exit code is 130.

    \b
    Examples:
      sanma simulate --games 100 --bots efficient,defensive,random --jobs 2
      sanma simulate --games 1000 --backend ray --address auto --json
      sanma simulate --games 200 --compare tenhou majsoul --report out/ --db runs.sqlite
      sanma simulate --games 10 --bots "mjai:python examples/mjai_bot.py",efficient,random
    """
    stored: list[int] = []
    try:
        with cli_errors():
            _simulate(games, rules, seed, bots, jobs, backend, address, report, compare, db, mjai_timeout,
                      mjai_budget, as_json, stored)
    except KeyboardInterrupt:  # outside the games (loading, storing, printing): say what was kept
        done = tr("the finished games are stored in {db} (simulation {ids})", db=db,
                  ids=", ".join(map(str, stored))) if stored else tr("nothing was stored")
        print(tr("interrupted: {done}", done=done), file=sys.stderr)
        raise typer.Exit(130) from None


def _simulate(games: str, rules: str, seed: str, bots: str, jobs: str | None, backend: str, address: str | None,
              report: Path | None, compare: tuple[str, str] | None, db: str | None, mjai_timeout: str | None,
              mjai_budget: str | None, as_json: bool, stored: list[int]) -> None:
    n = _count("--games", games)
    s = _seed(seed)
    if backend not in BACKENDS:
        raise SimulationError(sentence("--backend must be one of {items}, got {backend!r}",
                                       items=', '.join(BACKENDS), backend=backend))
    if address is not None and backend != "ray":
        raise SimulationError(sentence("--address needs --backend ray"))
    if backend == "ray":
        _need_ray()
    j = _count("--jobs", jobs) if jobs is not None else os.cpu_count() or 1 if backend == "ray" else 1
    timeout = _seconds("--mjai-timeout", mjai_timeout) if mjai_timeout is not None else None
    budget = _seconds("--mjai-budget", mjai_budget) if mjai_budget is not None else None
    names = check_bots(bots.split(","))
    rule_sets = [load_rules(r) for r in (compare if compare else (rules,))]
    if compare and rule_sets[0].name == rule_sets[1].name and compare[0] != compare[1]:
        raise SimulationError(sentence("--compare: both rule sets are named {name!r}; rename one file",
                                       name=rule_sets[0].name))
    summaries: list[Summary] = []
    for r in rule_sets:
        summaries.append(_run(r, n, s, names, j, backend, address, (timeout, budget), as_json))
        if summaries[-1].interrupted:
            break
    interrupted = summaries[-1].interrupted
    if interrupted:
        last = summaries[-1]
        print(tr("interrupted: {done} of {n} games under {rules} finished; the summary covers them", done=last.games,
                 n=n, rules=last.rules) if last.games else
              tr("interrupted: {done} of {n} games under {rules} finished", done=last.games, n=n, rules=last.rules),
              file=sys.stderr)
        if not last.games:
            summaries.pop()
        if not summaries:
            print(tr("nothing was stored") if db is not None else tr("nothing to report"), file=sys.stderr)
            raise typer.Exit(130)
    if db is not None:
        stored.extend(_store(db, rule_sets, summaries))
        if not as_json or interrupted:
            print(tr("stored in {db}: simulation {ids}", db=db, ids=", ".join(map(str, stored))), file=sys.stderr)
    elif interrupted:
        print(tr("nothing was stored (no --db)"), file=sys.stderr)
    if report is not None:
        from ..sim.report import write_report

        written = write_report(summaries, report)
        if not as_json:
            print(tr("report: {files}", files=", ".join(str(p) for p in written)), file=sys.stderr)
    if as_json:
        out: dict[str, Any] = summaries[0].to_json()
        if compare:
            out["compare"] = [x.to_json() for x in summaries]
        typer.echo(json.dumps(out))
    else:
        _print_tables(summaries)
    if interrupted:
        raise typer.Exit(130)


def _need_ray() -> None:
    """Ray is an optional extra (issue 14 item 7): say how to get it before any game starts."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        raise SimulationError(sentence("--backend ray needs Ray, an optional extra that is not installed: "
                                       "pip install 'sanma[ray]' (make install has it); --backend local "
                                       "needs nothing more"))


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
