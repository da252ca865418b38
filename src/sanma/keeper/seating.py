"""Seating a tournament's rounds: tables of three, byes, and as few repeated opponents as possible.

Pure functions of small immutable values (the tournament module stores what they return):

- :func:`byes_for` — who sits out a round when the players are not a multiple of three: a bye
  scores nothing and is not a game, and nobody has a second bye before everyone had one;
- :func:`random_rounds` — every round drawn at random from a seed (published, so anyone can draw
  it again), each round the draw with the fewest pairs of players who already met;
- :func:`swiss_round` — a round by standings: the leaders together, then the next three, …, with
  neighbouring tables swapping a player where that avoids a repeated pair;
- :func:`fixed_round` — the referee's own seating (``round,table,seat1,seat2,seat3``), checked;
- :func:`repeat_pairs` — how many pairs of players met at a table more than once.

>>> rounds = random_rounds([f"P{i}" for i in range(1, 13)], 4, seed=7)
>>> [len(r.tables) for r in rounds], repeat_pairs(rounds)
([4, 4, 4, 4], 0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..i18n import sentence
from .entries import KeeperError

Table = tuple[str, str, str]
Pair = frozenset[str]

#: Up to this many seated players every way to split them into tables is tried (12: 15,400 ways).
EXHAUSTIVE = 12
#: Restarts of the random draw of all rounds when a later round cannot avoid a repeat.
ATTEMPTS = 40


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its tables (each three players in seat order, East first) and its byes."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


def pairs(rounds: Sequence[Round]) -> Counter[Pair]:
    """How often each pair of players sat at one table."""
    met: Counter[Pair] = Counter()
    for r in rounds:
        for t in r.tables:
            for a, b in combinations(t, 2):
                met[frozenset((a, b))] += 1
    return met


def repeat_pairs(rounds: Sequence[Round]) -> int:
    """The pairs of players who met at a table more than once."""
    return sum(1 for n in pairs(rounds).values() if n > 1)


def byes_for(players: Sequence[str], done: Sequence[Round], prefer: Sequence[str]) -> tuple[str, ...]:
    """The byes of the next round: ``len(players) % 3`` of them, among those with the fewest byes
    so far (nobody has a second before everyone had one), in the order of ``prefer`` (the draw's
    order, or the standings from the last: the lowest placed sits out first)."""
    count = len(players) % 3
    had = Counter(p for r in done for p in r.byes)
    ranked = sorted(players, key=lambda p: (had[p], prefer.index(p)))
    return tuple(ranked[:count])


def _best_split(people: Sequence[str], met: Mapping[Pair, int], rng: random.Random) -> list[Table]:
    """The split of ``people`` into tables with the fewest earlier meetings: every split when they
    are few (:data:`EXHAUSTIVE`; branch and bound), else the best of seeded random splits improved
    by swapping two players of two tables while that helps. Ties go to the draw (``rng``)."""
    order = list(people)
    rng.shuffle(order)
    n = len(order)
    w = [[met.get(frozenset((a, b)), 0) if a != b else 0 for b in order] for a in order]
    if n <= EXHAUSTIVE:
        best: list[tuple[int, int, int]] = []
        best_cost = [1 << 30]

        def split(rest: list[int], tables: list[tuple[int, int, int]], cost: int) -> None:
            if not rest:
                best[:], best_cost[0] = list(tables), cost
                return
            f, others = rest[0], rest[1:]
            for i in range(len(others)):
                for j in range(i + 1, len(others)):
                    a, b = others[i], others[j]
                    c = cost + w[f][a] + w[f][b] + w[a][b]
                    if c >= best_cost[0]:
                        continue
                    split([x for k, x in enumerate(others) if k != i and k != j], [*tables, (f, a, b)], c)
                    if best_cost[0] == 0:
                        return

        split(list(range(n)), [], 0)
        return [(order[a], order[b], order[c]) for a, b, c in best]
    best_tables: list[list[int]] = []
    least = -1
    idx = list(range(n))
    for _ in range(ATTEMPTS):
        rng.shuffle(idx)
        tables = [list(idx[i:i + 3]) for i in range(0, n, 3)]
        _improve(tables, w, neighbours_only=False)
        c = sum(_table_cost(t, w) for t in tables)
        if least < 0 or c < least:
            best_tables, least = [list(t) for t in tables], c
            if c == 0:
                break
    return [(order[t[0]], order[t[1]], order[t[2]]) for t in best_tables]


def _table_cost(t: Sequence[int], w: Sequence[Sequence[int]]) -> int:
    return w[t[0]][t[1]] + w[t[0]][t[2]] + w[t[1]][t[2]]


def _improve(tables: list[list[int]], w: Sequence[Sequence[int]], *, neighbours_only: bool) -> None:
    """Swap two players of two tables while that lowers the earlier meetings (``w``: meetings per
    pair of indices; ``neighbours_only``: only tables next to each other, as a Swiss round keeps
    the standings' order)."""
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, min(len(tables), i + 2) if neighbours_only else len(tables)):
                before = _table_cost(tables[i], w) + _table_cost(tables[j], w)
                for a in range(3):
                    for b in range(3):
                        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                        after = _table_cost(tables[i], w) + _table_cost(tables[j], w)
                        if after < before:
                            improved, before = True, after
                        else:
                            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]


def _seat_order(table: Sequence[str], rng: random.Random) -> Table:
    """The seat draw at a table (who sits East, South, West), by the draw."""
    t = list(table)
    rng.shuffle(t)
    return t[0], t[1], t[2]


def random_rounds(players: Sequence[str], rounds: int, *, seed: int) -> list[Round]:
    """Every round drawn from ``seed``: each round's byes (fewest byes first, in the draw's order),
    then the split of the others with the fewest pairs who already met; when a later round cannot
    avoid a repeat, the whole draw is tried again from the seed's next attempt, and the draw with
    the fewest repeated pairs is kept. The same players and seed always give the same rounds."""
    _check_players(players)
    best: list[Round] = []
    best_repeats = -1
    at_tables = len(players) - len(players) % 3
    # each round a player meets two others: past (at_tables - 1) // 2 rounds some pair must meet
    # again, and trying the whole draw again cannot help
    attempts = ATTEMPTS if rounds <= (at_tables - 1) // 2 else 1
    for attempt in range(attempts):
        rng = random.Random(f"{seed}:{attempt}")
        done: list[Round] = []
        for n in range(1, rounds + 1):
            prefer = list(players)
            rng.shuffle(prefer)
            byes = byes_for(players, done, prefer)
            seated = [p for p in players if p not in byes]
            split = _best_split(seated, pairs(done), rng)
            done.append(Round(n, tuple(_seat_order(t, rng) for t in split), byes))
        reps = repeat_pairs(done)
        if best_repeats < 0 or reps < best_repeats:
            best, best_repeats = done, reps
        if reps == 0:
            break
    return best


def swiss_round(number: int, standings: Sequence[str], done: Sequence[Round], *, seed: int) -> Round:
    """A round by standings (``standings``: every player, the leader first): the byes from the
    lowest placed (fewest byes first), then the others three by three in order, and neighbouring
    tables swapping a player where that avoids a repeated pair. Seats at a table by the draw."""
    _check_players(standings)
    byes = byes_for(standings, done, list(reversed(standings)))
    seated = [p for p in standings if p not in byes]
    met = pairs(done)
    w = [[met.get(frozenset((a, b)), 0) if a != b else 0 for b in seated] for a in seated]
    tables = [list(range(i, i + 3)) for i in range(0, len(seated), 3)]
    _improve(tables, w, neighbours_only=True)
    rng = random.Random(f"{seed}:swiss:{number}")
    return Round(number, tuple(_seat_order([seated[x] for x in t], rng) for t in tables), byes)


def fixed_round(number: int, rows: Sequence[Sequence[str]], players: Sequence[str]) -> Round:
    """The referee's seating of round ``number`` from CSV rows ``round,table,seat1,seat2,seat3``
    (other rounds' rows are skipped): each table's three players in seat order; every listed name
    a player, nobody twice; the players not listed have a bye. :class:`KeeperError` names the row
    that is wrong."""
    tables: dict[int, Table] = {}
    seen: set[str] = set()
    for i, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if i == 1 and cells and cells[0].lower() == "round":
            continue  # the header
        if len(cells) != 5:
            raise KeeperError(sentence("seating CSV line {line}: expected round,table,seat1,seat2,seat3, got {n} "
                                       "columns", line=i, n=len(cells)))
        try:
            rnd, table = int(cells[0]), int(cells[1])
        except ValueError:
            raise KeeperError(sentence("seating CSV line {line}: round and table are numbers, got {round!r}, "
                                       "{table!r}", line=i, round=cells[0], table=cells[1])) from None
        if rnd != number:
            continue
        names = cells[2:]
        for name in names:
            if name not in players:
                raise KeeperError(sentence("seating CSV line {line}: {name!r} is not a player of the tournament",
                                           line=i, name=name))
            if name in seen:
                raise KeeperError(sentence("seating CSV line {line}: {name} is seated twice in round {round}",
                                           line=i, name=name, round=number))
            seen.add(name)
        if table in tables or table < 1:
            raise KeeperError(sentence("seating CSV line {line}: table {table} of round {round} is given twice or "
                                       "is not 1 or more", line=i, table=table, round=number))
        tables[table] = (names[0], names[1], names[2])
    if not tables:
        raise KeeperError(sentence("the seating CSV has no table for round {round}", round=number))
    if sorted(tables) != list(range(1, len(tables) + 1)):
        raise KeeperError(sentence("round {round}: tables are numbered 1 to {last} in the seating CSV", round=number,
                                   last=len(tables)))
    return Round(number, tuple(tables[t] for t in sorted(tables)), tuple(p for p in players if p not in seen))


def _check_players(players: Sequence[str]) -> None:
    if len(players) < 3:
        raise KeeperError(sentence("a tournament needs at least 3 players, got {n}", n=len(players)))
    if len(set(players)) != len(players):
        raise KeeperError(sentence("a player is named twice"))
