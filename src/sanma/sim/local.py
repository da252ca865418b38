"""Many games, in this process, in local worker processes or on a Ray cluster, summarised per bot.

The games of a simulation are numbered ``0..games-1`` and each is played from ``(seed, index)``
alone (see ``arena``), then the records are put back in index order before summing: the same
seed gives the same summary whatever ``jobs`` and ``backend`` are (only the timings differ).
Runs with an ``mjai:`` program at the table are the exception: their walls are keyed by a
secret drawn for the run (``wall_key``), so that the program cannot rebuild them from the seed.

>>> s = simulate("tenhou", games=2, seed=3, bots=("random", "random", "random"))
>>> s.games, [e.bot for e in s.seats], round(sum(e.average_placement for e in s.seats), 6)
(2, ['random', 'random', 'random'], 6.0)
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..bots import MJAI_PREFIX, make_bot
from ..errors import SanmaError
from ..i18n import Message, sentence
from ..rules.loader import from_dict, load, to_dict
from ..rules.schema import Rules
from ..tiles import SEATS
from .arena import GameSummary, SimulationError, play_game

Progress = Callable[[int], None]
BACKENDS = ("local", "ray")
INCIDENT_LOG = 20  # incident messages kept in a summary (all are counted)


@dataclass(frozen=True, slots=True)
class EntrySummary:
    """One ``--bots`` entry over all games (it changes seat every game)."""

    bot: str
    average_placement: float
    # The rates count hands as `sanma stats` does (sanma.store.facts):
    win_rate: float  # hands won / hands played
    deal_in_rate: float  # hands dealt into (a double ron is one) / hands played
    average_score: float  # final score (points on the table at the end)
    average_points: float  # final result after uma and oka
    riichi_rate: float  # hands with a riichi declared (accepted or not) / hands played
    call_rate: float  # hands with a pon or an open kan / hands played
    placements: tuple[int, ...]  # how many 1st, 2nd, 3rd places
    average_hand_value: float = 0.0  # mean value (``Score.total``) of the hands it won
    bust_rate: float = 0.0  # games that ended on its bust / games
    incidents: int = 0  # external-bot problems (timeouts, garbage, exits), each logged
    fallbacks: int = 0  # decisions taken for it by the tsumogiri fallback


@dataclass(frozen=True, slots=True)
class Summary:
    rules: str
    seed: int | str
    games: int
    kyoku: int
    seconds: float
    jobs: int
    seats: tuple[EntrySummary, ...]
    draws: int = 0  # hands that ended without a win
    backend: str = "local"
    incident_log: tuple[Message, ...] = ()  # the first INCIDENT_LOG incident messages
    records: tuple[GameSummary, ...] = field(default=(), repr=False, compare=False)  # per game, for reports
    interrupted: bool = False  # stopped by Ctrl-C: ``games`` counts the games that finished
    planned: int = 0  # games asked for (0: as many as were played)
    keyed_walls: bool = False  # walls keyed by a per-run secret (an external bot sat): not reproducible

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def draw_rate(self) -> float:
        return self.draws / self.kyoku if self.kyoku else 0.0

    @property
    def incidents(self) -> int:
        return sum(e.incidents for e in self.seats)

    def to_json(self) -> dict[str, Any]:
        """The ``sanma simulate --json`` object (ARCHITECTURE contract, plus extra fields)."""
        return {
            "rules": self.rules, "seed": self.seed, "games": self.games, "kyoku": self.kyoku,
            "seconds": round(self.seconds, 6), "games_per_second": round(self.games_per_second, 6),
            "jobs": self.jobs, "backend": self.backend, "draw_rate": round(self.draw_rate, 6),
            "incidents": self.incidents, "incident_log": [str(m) for m in self.incident_log],
            "seats": [{**asdict(e), "placements": list(e.placements)} for e in self.seats],
            "interrupted": self.interrupted, "games_planned": self.planned or self.games,
            "walls": "keyed" if self.keyed_walls else "seeded",
        }


def summarise(rules: Rules, seed: int | str, bots: Sequence[str], records: Iterable[GameSummary],
              seconds: float, jobs: int, backend: str = "local") -> Summary:
    """Sum the records (sorted by game index, so the order never depends on the workers)."""
    recs = tuple(sorted(records, key=lambda r: r.index))
    games = len(recs)
    kyoku = sum(r.kyoku for r in recs)
    seats = []
    for j, name in enumerate(bots):
        mine = [r.entries[j] for r in recs]
        per_game = max(games, 1)
        per_hand = max(kyoku, 1)
        wins = sum(e.wins for e in mine)
        seats.append(EntrySummary(
            bot=name,
            average_placement=sum(e.placement for e in mine) / per_game,
            win_rate=wins / per_hand,
            deal_in_rate=sum(e.deal_ins for e in mine) / per_hand,
            average_score=sum(e.score for e in mine) / per_game,
            average_points=sum(e.points for e in mine) / per_game,
            riichi_rate=sum(e.riichi for e in mine) / per_hand,
            call_rate=sum(e.calls for e in mine) / per_hand,
            placements=tuple(sum(1 for e in mine if e.placement == p) for p in range(1, SEATS + 1)),
            average_hand_value=sum(e.win_value for e in mine) / max(wins, 1),
            bust_rate=sum(1 for e in mine if e.busted) / per_game,
            incidents=sum(e.incidents for e in mine),
            fallbacks=sum(e.fallbacks for e in mine),
        ))
    log = tuple(m for r in recs for m in r.incidents)[:INCIDENT_LOG]
    return Summary(rules.name, seed, games, kyoku, seconds, jobs, tuple(seats), sum(r.draws for r in recs),
                   backend, log, recs)


def check_bots(bots: Sequence[str]) -> tuple[str, ...]:
    """Validate bot names (raises ``UnknownBotError``), external commands and the number of entries."""
    names = tuple(b.strip() for b in bots)
    if len(names) != SEATS:
        raise SimulationError(sentence("--bots needs {seats} comma-separated names, got {n}: {names}", code="bots",
                                       seats=SEATS, n=len(names), names=", ".join(names)))
    for n in names:
        make_bot(n).check()  # mjai:COMMAND: is the program there?
    return names


def play_chunk(rules_data: dict[str, Any], name: str, bots: tuple[str, ...], seed: int | str,
               indices: list[int], timeout: float | None = None, budget: float | None = None,
               wall_key: bytes | None = None) -> list[GameSummary]:
    """Worker entry point (processes and Ray tasks): ``Rules`` travel as a plain dict."""
    rules = from_dict(rules_data, name=name)
    return [play_game(rules, bots, seed, i, timeout=timeout, budget=budget, wall_key=wall_key) for i in indices]


def needs_wall_key(bots: Sequence[str]) -> bool:
    """Whether a seat is an outside program (``mjai:``), which must not be able to rebuild the walls
    from a seed it may guess: such runs key their walls with a per-run secret (issue 14 item 8)."""
    return any(b.startswith(MJAI_PREFIX) for b in bots)


def chunks(games: int, workers: int, most: int = 16) -> list[list[int]]:
    """Game indices in chunks: small enough for an even load and a live progress bar."""
    size = max(1, min(most, games // (workers * 4) or 1))
    return [list(range(s, min(s + size, games))) for s in range(0, games, size)]


def simulate(rules: Rules | str, games: int, seed: int | str = 0, bots: Sequence[str] = ("random",) * SEATS,
             jobs: int = 1, progress: Progress | None = None, *, backend: str = "local",
             address: str | None = None, timeout: float | None = None, budget: float | None = None,
             wall_key: bytes | None = None) -> Summary:
    """Play ``games`` games (seeded ``seed``) between ``bots``.

    ``backend="local"`` uses ``jobs`` local processes (1: this process); ``backend="ray"`` sends
    chunks of games as Ray tasks to the cluster at ``address`` (a local one with ``jobs`` CPUs
    when None). ``timeout`` is the per-decision limit of ``mjai:`` bots, ``budget`` their
    thinking time per game.

    When a seat is an ``mjai:`` program the walls are keyed by ``wall_key``, by default a new
    secret from ``secrets`` for this run: the program cannot rebuild them from the seed, and the
    run is not reproducible from the seed (pass the same ``wall_key`` to repeat it).

    Ctrl-C (``KeyboardInterrupt``) stops the run within a second or so, on any backend: the
    summary then covers the games that finished (``interrupted`` is true, ``games`` counts them).
    """
    if isinstance(rules, str):
        rules = load(rules)
    if games < 1:
        raise SimulationError(sentence("--games must be at least 1, got {n}", code="malformed", n=games))
    if jobs < 1:
        raise SimulationError(sentence("--jobs must be at least 1, got {n}", code="malformed", n=jobs))
    if backend not in BACKENDS:
        raise SimulationError(sentence("--backend must be one of {choices}, got {name!r}", code="malformed",
                                       choices=", ".join(BACKENDS), name=backend))
    from ..bots.mjai import check_seconds  # subprocess and threads only when asked for

    try:
        if timeout is not None:
            check_seconds(sentence("the mjai timeout"), timeout)
        if budget is not None:
            check_seconds(sentence("the mjai game budget"), budget)
    except SanmaError as e:
        raise SimulationError(e.message) from None
    names = check_bots(bots)
    key = wall_key if wall_key is not None or not needs_wall_key(names) else secrets.token_bytes(32)
    opts = (timeout, budget, key)
    t0 = time.perf_counter()
    records: list[GameSummary] = []
    interrupted = False
    if backend == "ray":
        from .ray_backend import run_on_ray

        records, interrupted = run_on_ray(to_dict(rules), rules.name, names, seed, games, jobs, address, opts,
                                          progress)
    elif jobs == 1:
        try:
            for i in range(games):
                records.append(play_game(rules, names, seed, i, timeout=timeout, budget=budget, wall_key=key))
                if progress:
                    progress(1)
        except KeyboardInterrupt:  # the game being played is lost (its bots were closed); the rest count
            interrupted = True
    else:
        records, interrupted = _run_processes(rules, names, seed, games, jobs, opts, progress)
    s = summarise(rules, seed, names, records, time.perf_counter() - t0, jobs, backend)
    return dataclasses.replace(s, interrupted=interrupted, planned=games, keyed_walls=key is not None)


Options = tuple[float | None, float | None, bytes | None]  # timeout, budget, wall key of every game


def _worker_init() -> None:
    """A worker process: Ctrl-C is the parent's business; SIGTERM (the parent stopping the run)
    kills the worker's external bots with their descendants, then the worker, at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def stop(signum: int, frame: object) -> None:
        from ..bots.mjai import kill_all

        kill_all()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


def _run_processes(rules: Rules, names: tuple[str, ...], seed: int | str, games: int, jobs: int,
                   opts: Options, progress: Progress | None) -> tuple[list[GameSummary], bool]:
    """The games on ``jobs`` worker processes; ``(records, interrupted)``.

    One game per task, so that on Ctrl-C every finished game is kept; the workers are then
    terminated (they kill their bots) and nothing waits on a future: the pool's own shutdown
    could wait for a game in flight.
    """
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    data = to_dict(rules)
    records: list[GameSummary] = []
    # While the workers are forked a Ctrl-C is only noted (a worker inheriting the handler notes it
    # harmlessly until its initializer ignores SIGINT): no traceback in a worker, no lost Ctrl-C here.
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init)
        pending: set[Future[list[GameSummary]]] = {
            pool.submit(play_chunk, data, rules.name, names, seed, idx, *opts) for idx in chunks(games, jobs, most=1)}
    finally:
        signal.signal(signal.SIGINT, old)
    interrupted = False
    every = list(pending)
    taken: set[Future[list[GameSummary]]] = set()
    try:
        if caught:
            raise KeyboardInterrupt
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                chunk = f.result()
                taken.add(f)
                records.extend(chunk)
                if progress:
                    progress(len(chunk))
    except KeyboardInterrupt:
        interrupted = True
        for f in every:  # chunks that finished but were not taken yet count too
            if f not in taken and f.done() and not f.cancelled() and f.exception() is None:
                records.extend(f.result())
    except BaseException:
        _stop(pool)
        raise
    if interrupted:
        _stop(pool)
    else:
        pool.shutdown(wait=True)
    return records, interrupted


def _stop(pool: Any) -> None:
    """Stop a process pool now: cancel what has not started, terminate the workers, reap them."""
    procs = getattr(pool, "_processes", None)  # the executor has no public way to end its workers
    processes = list(procs.values()) if isinstance(procs, dict) else []
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            p.terminate()
    deadline = time.monotonic() + 5
    for p in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            p.join(timeout=max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
