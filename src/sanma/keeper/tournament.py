"""Tournaments (``sanma tournament``, issue 19 item 4): many tables of three over several rounds.

A tournament is its players, its rules (seed 002's official rules are the reference), its
rounds and how they are seated (:mod:`sanma.keeper.seating`): ``swiss`` (round 1 drawn at random,
then by standings), ``random`` (every round drawn from the published seed) or ``fixed`` (the
referee's CSV). Each table of a seated round is a score keeper session of its three players in
seat order keeping one game, so a table is kept hand by hand (``sanma table … SESSION``, the keeper
page) or by its final scores (:meth:`Tournaments.result`, the keeper's final-only entry with its
sticks, chombos and busts). Nothing else is stored: the standings are the keeper's points of each
finished table game, read again on every request, so a correction of any hand of any round shows
in the standings after it.

A round may have a clock (``round_minutes``) whose end is a setting (``clock_end``; seed 002 says
nothing): ``last_hand`` — when time is up the hand in play is each table's last (a ``time_up``
entry in every unfinished table, written by :meth:`Tournaments.tick`, on an injected clock) — or
``referee`` — the referee decides, table by table (:meth:`Tournaments.time_up`).
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from ..i18n import sentence, tr
from ..rules.loader import from_dict, to_dict
from ..rules.schema import Rules
from ..store.db import Store, _json
from ..store.keeper import session, versions
from ..store.tournaments import (
    RoundRow,
    TournamentRow,
    add_round,
    create_tournament,
    rounds,
    start_clock,
    tournament,
)
from .entries import KeeperError, _name
from .keeper import Keeper, render_standings
from .notation import signed
from .seating import Round, fixed_round, random_rounds, repeat_pairs, swiss_round

SEATINGS = ("swiss", "random", "fixed")
CLOCK_ENDS = ("last_hand", "referee")
MAX_ROUNDS = 50
MAX_PLAYERS = 300
RESULTS_HEADER = ("round", "table", "seat", "player", "score", "rank", "points", "chombos", "bust")


def _now() -> datetime:
    return datetime.now(UTC)


class Tournaments:
    """The tournaments of one open store; ``clock`` gives the time (tests inject one)."""

    def __init__(self, store: Store, clock: Callable[[], datetime] = _now) -> None:
        self.store = store
        self.keeper = Keeper(store)
        self.clock = clock

    # -- creating and seating -----------------------------------------------------------------
    def new(self, rules: Rules, players: Sequence[str], rounds_: int, *, seating: str = "swiss",
            seed: int | None = None, fixed: Sequence[Sequence[str]] | None = None, name: str = "",
            round_minutes: int | None = None, clock_end: str = "last_hand") -> dict[str, Any]:
        """A new tournament. ``fixed``: the referee's seating rows (``round,table,seat1,seat2,seat3``)
        for ``seating = "fixed"``; ``seed`` (published; drawn when not given) decides the random
        draws. A random seating draws every round now (the draw does not depend on results)."""
        names = list(_names_of(players))
        if not 1 <= rounds_ <= MAX_ROUNDS:
            raise KeeperError(sentence("--rounds {n}: give 1 to {limit} rounds", n=rounds_, limit=MAX_ROUNDS))
        if seating not in SEATINGS:
            raise KeeperError(sentence("seating {name!r} unknown; valid: {choices}", name=seating,
                                       choices=", ".join(SEATINGS)))
        if (seating == "fixed") != (fixed is not None):
            raise KeeperError(sentence("a fixed seating takes the referee's CSV (--seating fixed FILE), and only it"))
        if clock_end not in CLOCK_ENDS:
            raise KeeperError(sentence("clock end {name!r} unknown; valid: {choices}", name=clock_end,
                                       choices=", ".join(CLOCK_ENDS)))
        if round_minutes is not None and not 1 <= round_minutes <= 24 * 60:
            raise KeeperError(sentence("round minutes {n}: give 1 to 1440", n=round_minutes))
        seed = secrets.randbelow(10**9) if seed is None else seed
        plan: Any = None
        if seating == "random":
            plan = [_round_json(r) for r in random_rounds(names, rounds_, seed=seed)]
        elif fixed is not None:
            plan = [list(row) for row in fixed]
            for n in range(1, rounds_ + 1):  # every round of the CSV is checked now, not at the table
                fixed_round(n, plan, names)
        tid = create_tournament(self.store, name=name or "tournament", rules_name=rules.name,
                                rules_json=_json(to_dict(rules), "rules"), players=names, rounds=rounds_,
                                seating=seating, seed=seed, plan=plan,
                                settings={"round_minutes": round_minutes, "clock_end": clock_end})
        return {"tournament": tid, "players": names, "rounds": rounds_, "seating": seating, "seed": seed,
                "rules": rules.name}

    def _rules(self, t: TournamentRow) -> Rules:
        return from_dict(json.loads(t.rules_json), f"tournament {t.id}", name=t.rules_name)

    def seat(self, tid: int, number: int) -> dict[str, Any]:
        """Round ``number``'s tables and byes, seated now if they are not yet: each table a new
        keeper session of its three players (seat order: East first) keeping one game. A round is
        seated after the one before; a Swiss round after the one before is complete (its order is
        the standings)."""
        t = tournament(self.store, tid)
        if not 1 <= number <= t.rounds:
            raise KeeperError(sentence("tournament {id} has rounds 1 to {last}, not {round}", id=tid, last=t.rounds,
                                       round=number))
        seated = rounds(self.store, tid)
        if number <= len(seated):
            return self._round_json(t, seated[number - 1])
        if number != len(seated) + 1:
            raise KeeperError(sentence("seat round {round} of tournament {id} first", round=len(seated) + 1, id=tid))
        done = [self._round_of(r) for r in seated]
        if t.seating == "random":
            r = _round_from_json(number, t.plan[number - 1])
        elif t.seating == "fixed":
            r = fixed_round(number, t.plan, t.players)
        elif number == 1:  # Swiss: the first round is drawn at random from the published seed
            r = random_rounds(t.players, 1, seed=t.seed)[0]
        else:
            open_tables = self._unfinished(t, seated[-1])
            if open_tables:
                raise KeeperError(sentence("round {round} is not over (table {tables}): a Swiss round is seated by the "
                                           "standings after it", round=number - 1,
                                           tables=", ".join(map(str, open_tables))))
            order = [row["player"] for row in self.standings(tid)["standings"]]
            r = swiss_round(number, order, done, seed=t.seed)
        rules = self._rules(t)
        with self.store.transaction():  # the round whole, or nothing
            tables = []
            for i, seats in enumerate(r.tables, start=1):
                state = self.keeper.new(rules, list(seats), games_limit=1)
                tables.append((i, int(state["session"])))
            add_round(self.store, tid, number, r.byes, tables)
        return self._round_json(t, rounds(self.store, tid)[number - 1])

    def _round_of(self, row: RoundRow) -> Round:
        tables = []
        for _, sid in row.tables:
            people = session(self.store, sid).people
            tables.append((people[0], people[1], people[2]))
        return Round(row.round, tuple(tables), row.byes)

    def _unfinished(self, t: TournamentRow, row: RoundRow) -> list[int]:
        return [table for table, sid in row.tables if not self.keeper.state(sid)["games"]]

    def _round_json(self, t: TournamentRow, row: RoundRow) -> dict[str, Any]:
        r = self._round_of(row)
        return {"tournament": t.id, "round": row.round,
                "tables": [{"table": n, "seats": list(seats), "session": sid}
                           for (n, sid), seats in zip(row.tables, r.tables, strict=True)],
                "byes": list(row.byes)}

    # -- results --------------------------------------------------------------------------------
    def table_session(self, tid: int, number: int, table: int) -> int:
        """The keeper session of round ``number``'s table ``table``."""
        tournament(self.store, tid)
        seated = rounds(self.store, tid)
        if not 1 <= number <= len(seated):
            raise KeeperError(sentence("round {round} of tournament {id} is not seated (`sanma tournament seat {id} "
                                       "--round {round}`)", round=number, id=tid))
        found = dict(seated[number - 1].tables)
        if table not in found:
            raise KeeperError(sentence("round {round} has tables 1 to {last}, not {table}", round=number,
                                       last=len(found), table=table))
        return found[table]

    def result(self, tid: int, number: int, table: int, entry: Mapping[str, Any], *, author: str = "",
               reason: str = "", preview: bool = False, client_id: str | None = None) -> dict[str, Any]:
        """A table's final scores (the keeper's final entry: scores, chips, sticks left, chombos,
        busts), when the table was not kept hand by hand; refused when it was (correct its hands)
        or its game already has a result (correct that: `sanma table fix SESSION 1`)."""
        sid = self.table_session(tid, number, table)
        if entry.get("kind") != "final":
            raise KeeperError(sentence("a table's result is its final scores"))
        state = self.keeper.add(sid, entry, author=author, reason=reason or f"tournament {tid} round {number} "
                                f"table {table}", preview=preview, client_id=client_id)
        return {"tournament": tid, "round": number, "table": table, "session": sid, "preview": preview,
                "game": state["games"][-1] if state["games"] else None, "notation": state["notation"]}

    # -- the clock -----------------------------------------------------------------------------
    def start(self, tid: int, number: int) -> dict[str, Any]:
        """Start round ``number``'s clock now (again: from now)."""
        self.table_session(tid, number, 1)
        start_clock(self.store, tid, number, self.clock().isoformat(timespec="seconds"))
        return self.clock_json(tid, number)

    def clock_json(self, tid: int, number: int) -> dict[str, Any]:
        """Round ``number``'s clock: when it started and ends, the seconds left, whether it is over
        and what its end means (``clock_end``)."""
        t = tournament(self.store, tid)
        row = rounds(self.store, tid)[number - 1] if number <= len(rounds(self.store, tid)) else None
        minutes = t.settings.get("round_minutes")
        out: dict[str, Any] = {"round": number, "minutes": minutes, "end": t.settings.get("clock_end", "last_hand"),
                               "started_at": None, "ends_at": None, "remaining_seconds": None, "over": False}
        if row is not None and row.started_at and minutes:
            start = datetime.fromisoformat(row.started_at)
            end = start + timedelta(minutes=minutes)
            left = (end - self.clock()).total_seconds()
            out.update(started_at=row.started_at, ends_at=end.isoformat(timespec="seconds"),
                       remaining_seconds=max(0, int(left)), over=left <= 0)
        return out

    def tick(self, tid: int) -> list[tuple[int, int]]:
        """Under ``clock_end = last_hand``: every round whose time is up gets a ``time_up`` entry in
        each unfinished table (once: the entry's client id names the table), so the hand in play
        is its last. The tables it wrote to, as ``(round, table)``."""
        t = tournament(self.store, tid)
        if t.settings.get("clock_end", "last_hand") != "last_hand":
            return []
        written = []
        for row in rounds(self.store, tid):
            if self.clock_json(tid, row.round)["over"]:
                written += [(row.round, n) for n in self._time_up(t, row, None)]
        return written

    def time_up(self, tid: int, number: int, table: int | None = None, *, author: str = "") -> dict[str, Any]:
        """The referee ends round ``number``'s play: the hand in play is the last, at one table or at
        every unfinished one."""
        t = tournament(self.store, tid)
        self.table_session(tid, number, table or 1)
        row = rounds(self.store, tid)[number - 1]
        return {"round": number, "tables": self._time_up(t, row, table, author=author)}

    def _time_up(self, t: TournamentRow, row: RoundRow, only: int | None, *, author: str = "") -> list[int]:
        done = []
        for n, sid in row.tables:
            if only is not None and n != only:
                continue
            state = self.keeper.state(sid)
            if state["games"] or any(h["kind"] == "time_up" for h in state["hands"]):
                continue
            self.keeper.add(sid, {"kind": "time_up"}, author=author or "round clock",
                            client_id=f"time-up:{t.id}:{row.round}:{n}")
            done.append(n)
        return done

    # -- standings and results -----------------------------------------------------------------
    def standings(self, tid: int, after_round: int | None = None) -> dict[str, Any]:
        """Per player over the finished table games of the rounds seated so far (up to
        ``after_round``): points (each game's exactly as the keeper's standings give them: uma, oka,
        chombo and bust points of the rules), games, places in round order, byes; ranked by points
        (equal points share a rank). ``repeat_pairs``: pairs of players who met more than once;
        ``unfinished``: the tables whose game is not over (not counted yet)."""
        t = tournament(self.store, tid)
        seated = rounds(self.store, tid)
        if after_round is not None:
            if not 1 <= after_round <= len(seated):
                raise KeeperError(sentence("--after-round {round}: rounds 1 to {last} are seated", round=after_round,
                                           last=len(seated)))
            seated = seated[:after_round]
        rows: dict[str, dict[str, Any]] = {p: {"player": p, "points": 0.0, "games": 0, "places": [], "byes": 0}
                                           for p in t.players}
        unfinished = []
        for row in seated:
            for p in row.byes:
                rows[p]["byes"] += 1
            for n, sid in row.tables:
                state = self.keeper.state(sid)  # its standings are `sanma table standings SESSION`'s
                if not state["games"]:
                    unfinished.append({"round": row.round, "table": n, "session": sid})
                    continue
                g = state["games"][0]
                for r in state["standings"]:
                    p = r["person"]
                    rows[p]["points"] = round(rows[p]["points"] + r["points"], 1)
                    rows[p]["games"] += 1
                    rows[p]["places"].append(g["ranks"][p])
        ordered = sorted(rows.values(), key=lambda r: (-r["points"], _average(r["places"]), r["player"]))
        rank = 0
        for i, r in enumerate(ordered):
            if i == 0 or r["points"] != ordered[i - 1]["points"]:
                rank = i + 1
            r["rank"] = rank
        return {"tournament": tid, "after_round": after_round if after_round is not None else len(seated),
                "standings": ordered, "repeat_pairs": repeat_pairs([self._round_of(r) for r in seated]),
                "unfinished": unfinished, "notation": self._rules(t).score_notation}

    def fingerprint(self, tid: int) -> tuple[object, ...]:
        """What :meth:`state` depends on, in three small queries: the seated rounds (tables, byes,
        clock starts), the version of every table's session, and which rounds' time is up now (when
        one's is, :meth:`state` has an entry to write). Equal fingerprints, equal states (but for
        the clock's seconds left)."""
        t = tournament(self.store, tid)
        seated = rounds(self.store, tid)
        minutes = t.settings.get("round_minutes")
        now = self.clock()
        over = tuple(bool(minutes and r.started_at and datetime.fromisoformat(r.started_at)
                          + timedelta(minutes=minutes) <= now) for r in seated)
        kept = versions(self.store, [sid for r in seated for _, sid in r.tables])
        return tuple(seated), tuple(sorted(kept.items())), over

    def state(self, tid: int) -> dict[str, Any]:
        """Everything the pages show: the tournament, each seated round's tables (seats, session, and
        the game's scores, ranks and points once it is over, else the hand in play) and byes, the
        clock of the last round, the standings."""
        self.tick(tid)
        t = tournament(self.store, tid)
        seated = rounds(self.store, tid)
        out_rounds = []
        for row in seated:
            r = self._round_json(t, row)
            for table in r["tables"]:
                s = self.keeper.state(table["session"])
                g = s["games"][0] if s["games"] else None
                table.update(finished=g is not None, entries=len(s["hands"]),
                             hand=None if g is not None else s["hand"],
                             scores=g["scores"] if g else s["scores"], ranks=g["ranks"] if g else None,
                             points=g["points"] if g else None)
            out_rounds.append(r)
        return {"tournament": t.id, "name": t.name, "rules": t.rules_name, "players": list(t.players),
                "rounds": t.rounds, "seating": t.seating, "seed": t.seed, "settings": dict(t.settings),
                "seated": out_rounds, "clock": self.clock_json(tid, len(seated)) if seated else None,
                **{k: v for k, v in self.standings(tid).items() if k != "tournament"}}

    def export_csv(self, tid: int) -> str:
        """One row per round, table and seat (and per bye): the player, the final score, rank and
        points of the table's game (empty while it runs), chombos and bust — the results sheet."""
        t = tournament(self.store, tid)
        n = self._rules(t).score_notation
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(RESULTS_HEADER)
        for row in rounds(self.store, tid):
            for table, sid in row.tables:
                s = self.keeper.state(sid)
                g = s["games"][0] if s["games"] else None
                for seat, p in zip("ESW", session(self.store, sid).people, strict=True):
                    if g is None:
                        w.writerow([row.round, table, seat, p, "", "", "", "", ""])
                        continue
                    bust = "busted" if p in g["busted"] else "buster" if p in g["busters"] else ""
                    w.writerow([row.round, table, seat, p, signed(g["scores"][p], n), g["ranks"][p],
                                signed(g["points"][p], n, ".1f"), g["chombos"].get(p) or "", bust])
            for p in row.byes:
                w.writerow([row.round, "", "bye", p, "", "", "", "", ""])
        return out.getvalue()


def render_tournament_standings(out: Mapping[str, Any]) -> str:
    """The standings as text: rank, player, points, games, places, byes; then the repeated pairs."""
    n = out.get("notation", "minus")
    head = (tr("rank"), tr("player"), tr("points"), tr("games"), tr("places"))
    lines = [f"{head[0]:>4}  {head[1]:<14} {head[2]:>8} {head[3]:>5}  {head[4]}"]
    for r in out["standings"]:
        lines.append(f"{r['rank']:>4}  {r['player']:<14} {signed(r['points'], n, '.1f'):>8} {r['games']:>5}  "
                     + " ".join(str(x) for x in r["places"])
                     + ("  (" + tr("{n} bye", n=r["byes"]) + ")" if r["byes"] else ""))
    lines.append(tr("repeated pairs: {n}", n=out["repeat_pairs"]))
    if out["unfinished"]:
        lines.append(tr("not over yet: {tables}", tables=", ".join(
            tr("round {round} table {table}", round=u["round"], table=u["table"]) for u in out["unfinished"])))
    return "\n".join(lines)


def read_players_csv(text: str) -> list[str]:
    """Player names from a CSV: the first column of each row (a header row ``player`` or ``name``
    is skipped); blank rows are skipped."""
    names = []
    for i, row in enumerate(csv.reader(io.StringIO(text))):
        if not row or not row[0].strip():
            continue
        if i == 0 and row[0].strip().lower() in ("player", "players", "name", "names"):
            continue
        names.append(row[0].strip())
    return names


def read_seating_csv(text: str) -> list[list[str]]:
    """The referee's seating CSV as rows (``round,table,seat1,seat2,seat3``), checked when used."""
    try:
        return [row for row in csv.reader(io.StringIO(text)) if any(c.strip() for c in row)]
    except csv.Error as e:
        raise KeeperError(sentence("the seating CSV is not CSV: {why}", why=str(e))) from None


def _names_of(players: Sequence[str]) -> tuple[str, ...]:
    """The players' names, each checked as the keeper checks a person's (1-40 characters, no comma)."""
    if len(players) < 3:
        raise KeeperError(sentence("a tournament needs at least 3 players, got {n}", n=len(players)))
    if len(players) > MAX_PLAYERS:
        raise KeeperError(sentence("at most {limit} players, got {n}", limit=MAX_PLAYERS, n=len(players)))
    names = tuple(_name(p, "--players") for p in players)
    twice = sorted({p for p in names if names.count(p) > 1})
    if twice:
        raise KeeperError(sentence("--players names {names} twice", names=", ".join(twice)))
    return names


def _average(places: Sequence[int]) -> float:
    return sum(places) / len(places) if places else 9.0


def _round_json(r: Round) -> dict[str, Any]:
    return {"tables": [list(t) for t in r.tables], "byes": list(r.byes)}


def _round_from_json(number: int, d: Mapping[str, Any]) -> Round:
    return Round(number, tuple((t[0], t[1], t[2]) for t in d["tables"]), tuple(d["byes"]))


__all__ = ["CLOCK_ENDS", "SEATINGS", "Tournaments", "read_players_csv", "read_seating_csv",
           "render_standings", "render_tournament_standings"]
