"""Many games, in this process or in local worker processes, summarised per bot.

The games of a simulation are numbered ``0..games-1`` and each is played from ``(seed, index)``
alone (see ``arena``), then the records are put back in index order before summing: the same
seed gives the same summary whatever ``jobs`` is (only the timings differ).

>>> s = simulate("tenhou", games=2, seed=3, bots=("random", "random", "random"))
>>> s.games, [e.bot for e in s.seats], round(sum(e.average_placement for e in s.seats), 6)
(2, ['random', 'random', 'random'], 6.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import make_bot
from ..rules.loader import from_dict, load, to_dict
from ..rules.schema import Rules
from .arena import SEATS, GameRecord, SimulationError, play_game

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class EntrySummary:
    """One ``--bots`` entry over all games (it changes seat every game)."""

    bot: str
    average_placement: float
    win_rate: float  # hands won / hands played
    deal_in_rate: float  # hands dealt into / hands played
    average_score: float  # final score (points on the table at the end)
    average_points: float  # final result after uma and oka
    riichi_rate: float  # riichi declared / hands played
    call_rate: float  # pon and open kan / hands played
    placements: tuple[int, ...]  # how many 1st, 2nd, 3rd places


@dataclass(frozen=True, slots=True)
class Summary:
    rules: str
    seed: int | str
    games: int
    kyoku: int
    seconds: float
    jobs: int
    seats: tuple[EntrySummary, ...]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The ``sanma simulate --json`` object (ARCHITECTURE contract, plus extra fields)."""
        return {
            "rules": self.rules, "seed": self.seed, "games": self.games, "kyoku": self.kyoku,
            "seconds": round(self.seconds, 6), "games_per_second": round(self.games_per_second, 6),
            "jobs": self.jobs,
            "seats": [{**asdict(e), "placements": list(e.placements)} for e in self.seats],
        }


def summarise(rules: Rules, seed: int | str, bots: Sequence[str], records: Iterable[GameRecord],
              seconds: float, jobs: int) -> Summary:
    """Sum the records (sorted by game index, so the order never depends on the workers)."""
    recs = sorted(records, key=lambda r: r.index)
    games = len(recs)
    kyoku = sum(r.kyoku for r in recs)
    seats = []
    for j, name in enumerate(bots):
        mine = [r.entries[j] for r in recs]
        per_game = max(games, 1)
        per_hand = max(kyoku, 1)
        seats.append(EntrySummary(
            bot=name,
            average_placement=sum(e.placement for e in mine) / per_game,
            win_rate=sum(e.wins for e in mine) / per_hand,
            deal_in_rate=sum(e.deal_ins for e in mine) / per_hand,
            average_score=sum(e.score for e in mine) / per_game,
            average_points=sum(e.points for e in mine) / per_game,
            riichi_rate=sum(e.riichi for e in mine) / per_hand,
            call_rate=sum(e.calls for e in mine) / per_hand,
            placements=tuple(sum(1 for e in mine if e.placement == p) for p in range(1, SEATS + 1)),
        ))
    return Summary(rules.name, seed, games, kyoku, seconds, jobs, tuple(seats))


def check_bots(bots: Sequence[str]) -> tuple[str, ...]:
    """Validate bot names (raises ``UnknownBotError``) and the number of entries."""
    names = tuple(b.strip() for b in bots)
    if len(names) != SEATS:
        raise SimulationError(f"--bots needs {SEATS} comma-separated names, got {len(names)}: {', '.join(names)}")
    for n in names:
        make_bot(n)
    return names


def _play_chunk(rules_data: dict[str, Any], name: str, bots: tuple[str, ...], seed: int | str,
                indices: list[int]) -> list[GameRecord]:
    """Worker entry point: ``Rules`` travel as a plain dict (they hold mapping proxies)."""
    rules = from_dict(rules_data, name=name)
    return [play_game(rules, bots, seed, i) for i in indices]


def _chunks(games: int, jobs: int) -> list[list[int]]:
    size = max(1, min(16, games // (jobs * 4) or 1))  # small chunks: even load and a live progress bar
    return [list(range(s, min(s + size, games))) for s in range(0, games, size)]


def simulate(rules: Rules | str, games: int, seed: int | str = 0, bots: Sequence[str] = ("random",) * SEATS,
             jobs: int = 1, progress: Progress | None = None) -> Summary:
    """Play ``games`` games (seeded ``seed``) between ``bots`` on ``jobs`` local processes."""
    if isinstance(rules, str):
        rules = load(rules)
    if games < 1:
        raise SimulationError(f"--games must be at least 1, got {games}")
    if jobs < 1:
        raise SimulationError(f"--jobs must be at least 1, got {jobs}")
    names = check_bots(bots)
    t0 = time.perf_counter()
    records: list[GameRecord] = []
    if jobs == 1:
        for i in range(games):
            records.append(play_game(rules, names, seed, i))
            if progress:
                progress(1)
    else:
        data = to_dict(rules)
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending: set[Future[list[GameRecord]]] = {
                pool.submit(_play_chunk, data, rules.name, names, seed, idx) for idx in _chunks(games, jobs)}
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in done:
                        chunk = f.result()
                        records.extend(chunk)
                        if progress:
                            progress(len(chunk))
            except BaseException:
                for f in pending:
                    f.cancel()
                raise
    return summarise(rules, seed, names, records, time.perf_counter() - t0, jobs)
