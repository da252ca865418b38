"""A kept session: the log's entries replayed into games, and the store commands around it.

:func:`compute` folds a session's entries, in order, into its games: each hand's outcome goes
through :mod:`sanma.keeper.game` (which calls the shared settlement and flow code); a finished game
is settled and the series (seed 000's rotation, streak chips, doubled uma) moves on. Nothing is
stored but the entries, so a corrected entry changes everything after it. :class:`Keeper` wraps
a :class:`~sanma.store.Store`: every write recomputes the session with the new change inside the
write transaction, and a change that does not fit (a winner not at the table, a hand after the
session ended, ...) is refused before anything is written.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import SanmaError
from ..game.settle import chombo_rank_points
from ..i18n import Lang, Message, current_lang, sentence, sentence_n, tr, tr_n, wind_short
from ..i18n.messages import Keyword, from_data, pseudo, to_data
from ..i18n.messages import in_words as in_words_needed
from ..i18n.messages import said as said_in
from ..rules.loader import from_dict, to_dict
from ..rules.schema import Rules
from ..scoring import fixed_fu
from ..store.db import Store, _json
from ..store.keeper import (
    CacheRow,
    append_change,
    cached,
    changes,
    create_session,
    save_cache,
    session,
    sessions,
    stored_games,
)
from ..store.tournaments import table_of
from .entries import (
    RESULT_KINDS,
    Entry,
    EntryConflict,
    FinalEntry,
    KeeperError,
    RenameEntry,
    SeatingEntry,
    parse_entry,
    rename_names,
)
from .game import GameResult, KeptGame, entry_options, said
from .log import Change, active, effective, last_undoable
from .notation import signed
from .series import Series, SeriesError

EXPORT_FORMAT = "sanma-table/1"
CACHE_FORMAT = "sanma-table-cache/3"  # bump when a snapshot's shape changes
CSV_HEADER = ("session", "game", "no", "kind", "round", "honba", "person", "points", "chips", "rank", "final_points",
              "chombos", "bust")
#: the columns of a CSV exported before ``chombos`` and ``bust`` were added (still read)
CSV_HEADER_V1 = CSV_HEADER[:-2]


@dataclass
class Session:
    """The computed state of a session (recomputed from the log on every read)."""

    id: int
    rules: Rules
    people: tuple[str, ...]
    mode: str
    series_name: str | None
    version: int
    series: Series
    games: list[GameResult] = field(default_factory=list)
    current: KeptGame | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    next_dealer: str | None = None
    last_order: tuple[str, ...] = ()
    # the derived-state cache (migration 4): the entries in force, and the state when the last
    # game finished (after entry ``boundary``), which the next read or write starts from
    entries: list[tuple[int, Mapping[str, Any]]] = field(default_factory=list)
    undo_next: dict[str, Any] | None = None  # what `undo` would revert now (the pages ask before)
    games_limit: int | None = None  # the games the session keeps (a tournament table: one)
    tournament: dict[str, int] | None = None  # the tournament table it keeps: tournament, round, table
    boundary: int = 0
    cache_used: int = 0
    _at_boundary: dict[str, Any] | None = None

    # -- building ------------------------------------------------------------------------------
    def _game(self) -> KeptGame:
        """The game in play, starting the next one when the last has ended."""
        if self.current is not None and not self.current.finished:
            return self.current
        dealer = self.next_dealer if self.next_dealer is not None else self._default_dealer()
        order = self.series.seat_order(dealer)
        self.current = KeptGame(self.rules, len(self.games) + 1, order,
                                uma_multiplier=self.series.uma_multiplier(self.rules.uma_doubling,
                                                                            self.rules.uma_double_stack))
        self.next_dealer = None
        return self.current

    def _default_dealer(self) -> str:
        """Without an entered dice result: East's drawer in game 1, else the dice roller (P124)."""
        if not self.games:
            return self.series.active()[0]
        return self.series.roller()

    def apply(self, pos: int, no: int, uid: int, entry: Entry, raw: Mapping[str, Any]) -> None:
        """Apply the ``pos``-th entry in force (entry number ``no``, uid ``uid``)."""
        if isinstance(entry, RenameEntry):  # applied to the whole session by compute(): a row only
            self.rows.append({"no": no, "uid": uid, "game": len(self.games) + 1 if self.current is None or
                              self.current.finished else self.current.number, "hand_index": 0, "kind": "rename",
                              **said(sentence("rename: {old} → {new}", old=entry.old, new=entry.new)),
                              "entry": dict(raw), "deltas": {},
                              "chips": {}})
            return
        if isinstance(entry, SeatingEntry):
            self._seating(entry)
            self.rows.append({"no": no, "uid": uid, "game": len(self.games) + 1, "hand_index": 0, "kind": "seating",
                              **said(sentence("seating: {order} (first dealer first)",
                                              order=", ".join(self.upcoming()))),
                              "entry": dict(raw), "deltas": {}, "chips": {}})
            return
        if self.games_limit is not None and len(self.games) >= self.games_limit:
            raise KeeperError(sentence_n("session {id} keeps {n} game and game {game} is over: correct its entries "
                                         "instead",
                                         "session {id} keeps {n} games and game {game} is over: correct its entries "
                                         "instead", self.games_limit, id=self.id, game=len(self.games)))
        if self.mode == "final" and not isinstance(entry, FinalEntry):
            raise KeeperError(sentence("session {id} records final scores only: enter each game with `table final`",
                                       id=self.id))
        game = self._game()
        row = game.apply(entry)
        row.update(no=no, uid=uid, entry=dict(raw))
        self.rows.append(row)
        if game.finished:
            self.last_order = game.players
            result = game.result(self.series)
            self.games.append(result)
            self.series = self.series.after_game(result.ranks, last_winner=result.last_winner,
                                                 doubling=self.rules.uma_doubling,
                                                 stack=self.rules.uma_double_stack)
            self.boundary = pos
            self._at_boundary = {"series": self.series, "games": len(self.games), "rows": len(self.rows),
                                 "last_order": self.last_order}

    def snapshot(self) -> dict[str, Any] | None:
        """The state when the last game finished, as JSON (what the cache stores), or None."""
        b = self._at_boundary
        if b is None:
            return None
        series: Series = b["series"]
        return {"format": CACHE_FORMAT, "series": series.to_json(),
                "games": [g.to_json() for g in self.games[:b["games"]]], "rows": self.rows[:b["rows"]],
                "last_order": list(b["last_order"])}

    def _seating(self, entry: SeatingEntry) -> None:
        if self.current is not None and not self.current.finished and self.current.hands:
            raise KeeperError(sentence("a seating goes between games; game {game} is in play",
                                       game=self.current.number))
        if entry.draw:
            self.series = self.series.reseat(entry.draw)
        if entry.dealer is not None:
            self.series.seat_order(entry.dealer)  # checks the dealer plays the coming game
            self.next_dealer = entry.dealer
        if self.current is not None and not self.current.hands:
            self.current = None  # not started: it is rebuilt with the new seating

    # -- reading -------------------------------------------------------------------------------
    def hand_key(self) -> tuple[int, int]:
        """The hand the next result falls into: (game, its hand index), counting results only (a
        chombo or a penalty does not close a hand)."""
        g = self.current
        if g is not None and not g.finished:
            return g.number, g.results + 1
        return len(self.games) + 1, 1

    def upcoming(self) -> tuple[str, ...]:
        """The coming game's players in seat order (its first dealer first)."""
        dealer = self.next_dealer if self.next_dealer is not None else self._default_dealer()
        return self.series.seat_order(dealer)

    def to_json(self) -> dict[str, Any]:
        game = self.current if self.current is not None and not self.current.finished else None
        chips = {p: 0 for p in self.people}
        for g in self.games:
            for p, c in g.chips.items():
                chips[p] += c
        order = self.upcoming()
        coming = {"game": len(self.games) + 1, "seats": {p: ("ESW"[order.index(p)] if p in order else None)
                                                          for p in self.people},
                  "dealer": order[0], "sitting_out": self.series.sitting_out(), "roller": self.series.roller(),
                  "reseat_due": self.series.reseat_due(),
                  "uma_multiplier": self.series.uma_multiplier(self.rules.uma_doubling,
                                                                  self.rules.uma_double_stack)}
        if game is not None:
            for p, c in game.chips_by_person().items():
                chips[p] += c
            state: dict[str, Any] = {
                "game": game.number, "finished": False, "hand": game.hand_json(),
                "seats": {p: game.wind_of(p) for p in self.people}, "scores": game.scores_by_person(),
                "pot": game.pot_json(), "sitting_out": _sitting_out(self.people, game.players),
                "uma_multiplier": game.uma_multiplier}
        elif self.games:  # the last game is over; the next entry starts the next one
            last = self.games[-1]
            state = {"game": last.game, "finished": True, "hand": None,
                     "seats": {p: (None if p not in last.ranks else "ESW"[self.last_order.index(p)])
                               for p in self.people},
                     "scores": dict(last.scores), "pot": {"sticks": 0, "chips": 0},
                     "sitting_out": _sitting_out(self.people, tuple(last.ranks)),
                     "uma_multiplier": last.uma_multiplier}
        else:  # nothing entered yet
            state = {"game": 1, "finished": False, "hand": _first_hand(self.rules, order[0]),
                     "seats": coming["seats"], "scores": {p: self.rules.start_points for p in order},
                     "pot": {"sticks": 0, "chips": 0}, "sitting_out": self.series.sitting_out(),
                     "uma_multiplier": coming["uma_multiplier"]}
        return {
            "session": self.id, "rules": self.rules.name, "people": list(self.people), "series": self.series_name,
            "mode": self.mode, "version": self.version, "notation": self.rules.score_notation,
            "fixed_fu": fixed_fu(self.rules), "options": entry_options(self.rules), "games_limit": self.games_limit,
            "tournament": self.tournament,
            **state,
            # the coming game is known between games (and before the first); not while one is played
            "chips": chips, "next": None if (game is not None and game.hands) or (
                self.games_limit is not None and len(self.games) >= self.games_limit) else coming,
            "hands": self.rows, "games": [g.to_json() for g in self.games],
            "standings": standings(self.people, self.games), "penalties": self.penalties(),
            "undo": self.undo_next,
        }

    def penalties(self) -> list[dict[str, Any]]:
        """Every chombo and penalty of the session with what it cost (issue 19 item 3: a referee's
        list): the entry, its game and hand, who, what, why, the points and chips it moved then,
        and the rank points it takes at the game's end (P100: official's △20, seed 002 L81)."""
        out = []
        for r in self.rows:
            e = r["entry"]
            if r["kind"] == "chombo" or e.get("kind") in ("chombo", "penalty"):
                who = r.get("offenders") or ([e["who"]] if isinstance(e.get("who"), str) else list(e.get("who") or []))
                chombo = r["kind"] == "chombo"
                out.append({"no": r["no"], "game": r["game"], "label": r.get("label", ""), "who": who,
                            "kind": "chombo" if chombo else str(e.get("penalty")), "reason": e.get("reason", ""),
                            "summary": r.get("summary", ""), **({"say": r["say"]} if "say" in r else {}),
                            "deltas": {p: v for p, v in r["deltas"].items() if v},
                            "chips": {p: v for p, v in r["chips"].items() if v},
                            "end_points": {p: -chombo_rank_points(self.rules, 1) for p in who}
                            if chombo and chombo_rank_points(self.rules, 1) else {}})
            elif e.get("kind") == "final" and e.get("chombos"):  # final scores only: the chombos it names
                out.append({"no": r["no"], "game": r["game"], "label": "final", "who": list(e["chombos"]),
                            "kind": "chombo", "reason": "", **said(sentence("chombos of a game kept by final scores")),
                            "deltas": {}, "chips": {}, "end_points": {
                                p: -chombo_rank_points(self.rules, n) for p, n in e["chombos"].items()
                                if chombo_rank_points(self.rules, n)}})
        return out


def _renames(entries: Sequence[tuple[int, Mapping[str, Any]]], people: Sequence[str],
             numbers: Mapping[int, int]) -> dict[str, str]:
    """Old name → name now, over the session's rename entries in force, in order (a name renamed
    twice ends with the last); a rename of someone who is not a person of the session, or to a
    name someone already has, is refused naming the entry."""
    names: dict[str, str] = {}
    now = list(people)
    for uid, raw in entries:
        if raw.get("kind") != "rename":
            continue
        e = parse_entry(raw)
        assert isinstance(e, RenameEntry)
        if e.old not in now:
            raise KeeperError(sentence("entry {no}: rename: {name} is not a person of the session ({names})",
                                       no=numbers[uid], name=e.old, names=", ".join(now)))
        if e.new in now:
            raise KeeperError(sentence("entry {no}: rename: {name} is already a person of the session",
                                       no=numbers[uid], name=e.new))
        now[now.index(e.old)] = e.new
        for k, v in names.items():
            if v == e.old:
                names[k] = e.new
        names.setdefault(e.old, e.new)
    return names


def entry_numbers(log: Sequence[Change]) -> dict[int, int]:
    """Each entry's number (what people call ``#N``): the order in which entries were added, 1-based.
    A number never changes and is never reused: a deleted entry leaves a gap, so a repeated
    ``fix N --delete`` cannot delete another hand (issue 19, "What was found" 7)."""
    return {c.seq: i for i, c in enumerate((c for c in log if c.kind == "add"), start=1)}


def derived_client_id(session_key: str, hand: tuple[int, int], kind: str, target: int | None,
                      entry: Mapping[str, Any]) -> str:
    """A client id for a command that gave none (the CLI, issue 19 item 1): from the session, the
    hand the change is for (game, hand index) and the change itself, so the same command run
    again for the same hand is stored once."""
    text = json.dumps([session_key, list(hand), kind, target, dict(entry)], sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return "derived:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _clock(at: str) -> str | Message:
    """A stored time (ISO, UTC) as people read it: ``21:03:05 UTC``."""
    return f"{at[11:19]} UTC" if len(at) >= 19 else sentence("an unknown time")


def _what(c: Change) -> str | Message:
    words = {"fix": sentence("a correction"), "delete": sentence("a deletion"), "undo": sentence("an undo"),
             "add": sentence("its entry")}
    return words.get(c.kind, c.kind)


def _who(author: str | None) -> str | Message:
    return author or sentence("someone")


def _summary(row: Mapping[str, Any]) -> str | Message:
    """A row's summary as a sentence (put into the reader's words), else its English."""
    return from_data(row["say"]) if "say" in row else str(row.get("summary", row["kind"]))


def _as_people(g: GameResult, person: Callable[[str], str]) -> GameResult:
    """A finished game with its players named as the people they are (``standings --alias``)."""
    return replace(g, scores={person(p): v for p, v in g.scores.items()},
                   ranks={person(p): v for p, v in g.ranks.items()},
                   points={person(p): v for p, v in g.points.items()},
                   chips={person(p): v for p, v in g.chips.items()})


def _first_hand(rules: Rules, dealer: str) -> dict[str, Any]:
    return {"round": rules.round_winds[0], "number": 1, "lap": 0, "honba": 0, "sticks": 0, "dealer": dealer,
            "index": 1}


def _sitting_out(people: Sequence[str], players: Sequence[str]) -> str | None:
    out = [p for p in people if p not in players]
    return out[0] if out else None


def standings(people: Sequence[str], games: Sequence[GameResult]) -> list[dict[str, Any]]:
    """Per person over ``games``: games played, total points, chips, placements, average placement;
    ordered by points (then chips)."""
    rows: dict[str, dict[str, Any]] = {p: {"person": p, "games": 0, "points": 0.0, "chips": 0, "score": 0,
                                           "placements": [0, 0, 0]} for p in people}
    for g in games:
        for p, rank in g.ranks.items():
            r = rows.setdefault(p, {"person": p, "games": 0, "points": 0.0, "chips": 0, "score": 0,
                                    "placements": [0, 0, 0]})
            r["games"] += 1
            r["points"] = round(r["points"] + g.points[p], 1)
            r["score"] += g.scores[p]
            r["placements"][rank - 1] += 1
        for p, c in g.chips.items():
            rows[p]["chips"] += c
    out = []
    for r in rows.values():
        n = r["games"]
        r["average_placement"] = round(sum((i + 1) * k for i, k in enumerate(r["placements"])) / n, 3) if n else None
        out.append(r)
    out.sort(key=lambda r: (-r["points"], -r["chips"], r["person"]))
    return out


def prefix_hash(entries: Sequence[tuple[int, Mapping[str, Any]]]) -> str:
    """SHA-256 of entries in force (uid and content), with the cache format and sanma's version:
    a cached state is used only for the very entries, and the very code, that computed it."""
    from .. import __version__

    text = json.dumps([CACHE_FORMAT, __version__, [[uid, e] for uid, e in entries]], sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _restore(s: Session, entries: Sequence[tuple[int, Mapping[str, Any]]], cache: CacheRow | None) -> int:
    """Load ``cache`` into the fresh session ``s`` when it is valid for ``entries``; the number of
    entries it covers (0: none, compute from the start)."""
    if cache is None or not 0 < cache.prefix_len <= len(entries):
        return 0
    if prefix_hash(entries[:cache.prefix_len]) != cache.prefix_hash:
        return 0
    try:
        snap = json.loads(cache.snapshot)
        if snap.get("format") != CACHE_FORMAT:
            return 0
        series = Series.from_json(snap["series"])
        games = [GameResult.from_json(g) for g in snap["games"]]
        rows = [dict(r) for r in snap["rows"]]
        last_order = tuple(str(p) for p in snap["last_order"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return 0  # a damaged cache is only a slower read
    s.series, s.games, s.rows, s.last_order = series, games, rows, last_order
    s.boundary = cache.prefix_len
    s._at_boundary = {"series": series, "games": len(games), "rows": len(rows), "last_order": last_order}
    return cache.prefix_len


def compute(session_id: int, rules: Rules, people: Sequence[str], mode: str, series_name: str | None,
            log: Sequence[Change], version: int, cache: CacheRow | None = None,
            games_limit: int | None = None) -> Session:
    """The session's state from its log; :class:`KeeperError` naming the entry that does not fit.
    With a valid ``cache`` (the state when a game finished, for the same first entries) only the
    entries after it are replayed: the same state, without replaying the finished games."""
    entries = effective(log)
    numbers = entry_numbers(log)
    names = _renames(entries, people, numbers)
    people = [names.get(p, p) for p in people]
    try:
        series = Series.start(people, players_in_rotation=rules.players_in_rotation)
    except SeriesError as e:
        raise KeeperError(e.message) from None
    s = Session(session_id, rules, tuple(people), mode, series_name, version, series, games_limit=games_limit)
    s.entries = [(uid, rename_names(raw, names)) for uid, raw in entries]
    start = s.cache_used = _restore(s, s.entries, cache)
    added = {c.seq: c for c in log if c.kind == "add"}
    for pos, (uid, raw) in enumerate(s.entries[start:], start=start + 1):
        no = numbers[uid]
        try:
            s.apply(pos, no, uid, parse_entry(raw), raw)
        except (KeeperError, SeriesError) as e:
            raise KeeperError(sentence("entry {no}: {reason}", no=no, reason=e)) from None
        if uid in added:  # who entered it and when (a correction keeps them: `log` has the rest)
            s.rows[-1].update(by=added[uid].author, at=added[uid].at)
    target = last_undoable(log)
    s.undo_next = None if target is None else describe_change(log, target, s.rows)
    return s


def describe_change(log: Sequence[Change], seq: int, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Change ``seq`` of the log as people read it (what `undo` reverts, issue 19 item 3): its kind,
    the entry number it concerns, and a sentence — ``change 7: entry #5 (E2 draw, tenpai: Aki)``."""
    by_seq = {c.seq: c for c in log}
    c = by_seq[seq]
    numbers = entry_numbers(log)
    uid = c.seq if c.kind == "add" else c.target if c.kind in ("fix", "delete") else None
    out: dict[str, Any] = {"change": seq, "kind": c.kind, "author": c.author, "at": c.at}
    if uid is not None and uid in numbers:
        row = next((r for r in rows if r["uid"] == uid), None)
        what: Message
        if row is None:
            what = sentence("#{no}", no=numbers[uid])
        else:
            summary = from_data(row["say"]) if "say" in row else row.get("summary", row["kind"])
            what = (sentence("#{no} ({label} {summary})", no=numbers[uid], label=label_said(row["label"]),
                             summary=summary)
                    if row.get("label") else sentence("#{no} ({summary})", no=numbers[uid], summary=summary))
        out["entry"] = numbers[uid]
        text = {"add": sentence("change {seq}: entry {what}", seq=seq, what=what),
                "fix": sentence("change {seq}: the correction of entry {what}", seq=seq, what=what),
                "delete": sentence("change {seq}: the deletion of entry {what}", seq=seq, what=what)}[c.kind]
    else:
        text = sentence("change {seq}: the undo of change {target}", seq=seq, target=c.target)
    out["text"], out["say"] = str(text), to_data(text)
    return out


def label_said(label: str) -> str | Message:
    """A row's label as a sentence: ``E1`` / 東1局, ``S2 lap 2`` / 南2局（2周目）, ``final`` / 最終."""
    m = re.fullmatch(r"([ESWN])(\d+)(?: lap (\d+))?", label)
    if m is None:
        return sentence("final") if label == "final" else label
    hand = sentence("{wind}{n}", wind=Keyword("wind", m[1]), n=int(m[2]))
    return sentence("{round} lap {lap}", round=hand, lap=int(m[3])) if m[3] else hand


def in_words(state: dict[str, Any], lang: Lang) -> dict[str, Any]:
    """``state`` (or any answer holding entries' rows) with its sentences in ``lang``: each row's and
    each penalty's ``summary`` and the undo's ``text`` are put into words from their ``say`` (the
    state itself, its cache and ``--json`` keep the English). The edges call it: the keeper's page
    (HTTP and WebSocket, in each reader's language) and ``sanma table``."""
    if not in_words_needed(lang):
        return state

    def words(x: Any) -> Any:
        if isinstance(x, dict):
            out = {k: words(v) for k, v in x.items()}
            if isinstance(x.get("say"), dict):
                out["summary" if "summary" in x else "text"] = said_in(x["say"], lang)
            return out
        if isinstance(x, list):
            return [words(v) for v in x]
        return x

    return dict(words(state))


# ---------------------------------------------------------------------------------------------
# the store around it
# ---------------------------------------------------------------------------------------------


def _same_entry(a: Any, b: Any) -> bool:
    """Whether two stored entries say the same (their readings are equal: a page's draw without its
    empty lists is the CLI's with them), so that one client id sent by both is acknowledged."""
    if a is None or b is None:
        return a is b
    try:
        return parse_entry(a) == parse_entry(b)
    except SanmaError:  # an old entry that no longer reads is no match
        return False


class Keeper:
    """The score keeper over one open store (what ``sanma table`` and the server call)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _load(self, session_id: int, log: Sequence[Change] | None = None, *, use_cache: bool = True) -> Session:
        row = session(self.store, session_id)
        rules = from_dict(json.loads(row.rules_json), f"session {session_id}", name=row.rules_name)
        if log is None:
            log = changes(self.store, session_id)
        s = compute(row.id, rules, row.people, row.mode, row.series, log, row.version,
                    cached(self.store, session_id) if use_cache else None, row.games_limit)
        at = table_of(self.store, session_id) if row.games_limit is not None else None
        s.tournament = None if at is None else {"tournament": at[0], "round": at[1], "table": at[2]}
        return s

    def _save_cache(self, s: Session) -> None:
        """Keep the state at the last finished game when it is newer than the cached one."""
        snap = s.snapshot()
        if snap is None or s.boundary == s.cache_used:
            return
        save_cache(self.store, s.id, CacheRow(s.version, s.boundary, prefix_hash(s.entries[:s.boundary]),
                                              json.dumps(snap, ensure_ascii=False)))

    def new(self, rules: Rules, people: Sequence[str], *, series: str | None = None, mode: str = "hands",
            author: str = "", games_limit: int | None = None) -> dict[str, Any]:
        """A new session under ``rules`` with ``people`` in seat-draw order; ``games_limit``: the
        number of games it keeps (a tournament table: 1)."""
        from .entries import _names

        names = list(_names(list(people), "--people"))
        try:
            Series.start(names, players_in_rotation=rules.players_in_rotation)
        except SeriesError as e:
            raise KeeperError(e.message) from None
        sid = create_session(self.store, rules_name=rules.name, rules_json=_json(to_dict(rules), "rules"),
                             people=names, mode=mode, series=series, games_limit=games_limit)
        return self.state(sid)

    def state(self, session_id: int) -> dict[str, Any]:
        return self._load(session_id).to_json()

    def log(self, session_id: int) -> list[dict[str, Any]]:
        session(self.store, session_id)
        return [c.to_json() for c in changes(self.store, session_id)]

    def _change(self, session_id: int, kind: str, target: int | None, entry: Mapping[str, Any] | None, *,
                author: str, reason: str, client_id: str | None, expected_version: int | None,
                preview: bool, opened_version: int | None = None, rerun_of: str | None = None) -> dict[str, Any]:
        if entry is not None:
            parse_entry(entry)  # the shape first: a malformed entry never reaches the store
        if preview:
            log = changes(self.store, session_id)
            seq = log[-1].seq + 1 if log else 1
            s = self._load(session_id, [*log, Change(seq, kind, target, entry)])  # type: ignore[arg-type]
            out = s.to_json()
            out["preview"] = True
            # the entry previewed: the new one, or the corrected one (deleted: none)
            uid = seq if kind == "add" else target
            out["preview_of"] = next((r["no"] for r in s.rows if r["uid"] == uid), None)
            return out

        computed: list[Session] = []

        def check(new_log: list[Change]) -> None:
            if opened_version is not None:
                self._check_opened(session_id, new_log, opened_version)
            new = self._load(session_id, new_log)
            if opened_version is not None:
                self._check_twice(new, new_log, opened_version)
            if rerun_of is not None:
                self._check_rerun(new, new_log, rerun_of)
            computed.append(new)

        done = append_change(self.store, session_id, kind, target, entry, author=author, reason=reason,  # type: ignore[arg-type]
                             client_id=client_id, expected_version=expected_version, check=check,
                             same_entry=_same_entry)
        if done.duplicate or not computed:
            out = self.state(session_id)
            out["duplicate"] = done.duplicate
            return out
        s = computed[-1]  # the state the check computed is the new state: no second replay
        s.version = done.version
        self._save_cache(s)
        return s.to_json()

    # -- one hand, one result (issue 19 item 1) ------------------------------------------------
    def _check_opened(self, session_id: int, log: Sequence[Change], opened: int) -> None:
        """Before the new change (``log[-1]``) is computed: a result for a hand that got one since
        the form was opened at version ``opened``, or a correction of an entry someone else
        changed since, is refused with :class:`EntryConflict` naming what is in the way."""
        new, before = log[-1], log[:-1]
        if not 0 <= opened <= len(before):
            raise KeeperError(sentence("session {id}: a form opened at version {opened} (the session is at version "
                                       "{version})", id=session_id, opened=opened, version=len(before)))
        if opened == len(before):
            return  # nothing changed since the form was opened
        if new.kind in ("fix", "delete"):
            touching = {new.target} | {c.seq for c in before if c.kind in ("fix", "delete") and c.target == new.target}
            later = [c for c in before[opened:] if c.seq in touching or (c.kind == "undo" and c.target in touching)]
            if later:
                c = later[-1]
                raise EntryConflict(sentence(
                    "that entry was changed on another device since this form was opened ({what} by {who} at "
                    "{at}): nothing was saved; look at it again", what=_what(c), who=_who(c.author), at=_clock(c.at)),
                    {"change": c.seq, "author": c.author, "at": c.at})
            return
        if new.kind != "add" or new.entry is None or new.entry.get("kind") not in RESULT_KINDS:
            return
        then, now = self._load(session_id, before[:opened]), self._load(session_id, before)
        key = then.hand_key()
        if now.hand_key() == key:
            return
        closer = next((r for r in now.rows if (r["game"], r.get("hand_index")) == key
                       and r["entry"].get("kind") in RESULT_KINDS), None)
        if closer is None:
            raise EntryConflict(sentence(
                "the session changed since this form was opened (version {opened}, now {now}): the hand in play is "
                "another one; nothing was saved: check the form and save it again", opened=opened, now=len(before)),
                {"version": len(before)})
        raise EntryConflict(sentence(
            "{hand} of game {game} already has a result: #{no} {summary}, entered by {who} at {at}. Nothing was "
            "saved; to change that result, correct #{no}", hand=label_said(closer.get("label") or "") or
            sentence("this hand"), game=closer["game"], no=closer["no"], summary=_summary(closer),
            who=_who(closer.get("by")), at=_clock(closer.get("at", ""))),
            {"entry": closer["no"], "game": closer["game"], "label": closer.get("label"),
             "summary": closer.get("summary"), "author": closer.get("by", ""), "at": closer.get("at", "")})

    @staticmethod
    def _check_twice(s: Session, log: Sequence[Change], opened: int) -> None:
        """After it is computed: an entry that is not a result (a chombo, a penalty, a seating) is
        refused when the very same one was entered in the same hand since the form was opened."""
        new = log[-1]
        if new.kind != "add" or opened >= len(log) - 1:
            return
        mine = next(r for r in s.rows if r["uid"] == new.seq)
        for r in s.rows:
            if opened < r["uid"] < new.seq and r["entry"] == mine["entry"] and (r["game"], r.get("hand_index")) == (
                    mine["game"], mine.get("hand_index")):
                raise EntryConflict(sentence(
                    "the same entry was made on another device since this form was opened: #{no} {summary}, by {who} "
                    "at {at}; nothing was saved", no=r["no"], summary=_summary(r), who=_who(r.get("by")),
                    at=_clock(r.get("at", ""))), {"entry": r["no"], "game": r["game"], "label": r.get("label"),
                                           "summary": r.get("summary"), "author": r.get("by", ""),
                                           "at": r.get("at", "")})

    @staticmethod
    def _check_rerun(s: Session, log: Sequence[Change], session_key: str) -> None:
        """A command run again after it was stored (its client id derived from the hand it was for,
        :func:`derived_client_id`): the entry just before is this very result, stored by the same
        derived id for the hand before. Refused; ``again`` says it really is another hand."""
        new = log[-1]
        prev = log[-2] if len(log) > 1 else None
        if new.kind != "add" or prev is None or prev.kind != "add" or prev.entry != new.entry:
            return
        row = next((r for r in s.rows if r["uid"] == prev.seq), None)
        if row is None or prev.client_id != derived_client_id(session_key, (row["game"], row.get("hand_index", 0)),
                                                              "add", None, prev.entry or {}):
            return
        raise KeeperError(sentence(
            "this is #{no} again ({label} of game {game}: {summary}, stored at {at} by the same command): nothing was "
            "saved. If the next hand really ended the same way, run it with --again", no=row["no"],
            label=row.get("label", ""), game=row["game"], summary=_summary(row), at=_clock(prev.at)))

    def _fresh(self, session_id: int, client_id: str) -> str:
        """A derived client id, unless the change stored under it is no longer in force (undone, or
        its entry deleted): then the same command is a new change, so the id gets the version."""
        log = changes(self.store, session_id)
        old = next((c for c in log if c.client_id == client_id), None)
        if old is None:
            return client_id
        live = active(log)
        uid = old.seq if old.kind == "add" else old.target
        if old.seq in live and (uid is None or uid in dict(effective(log))):
            return client_id
        return f"{client_id}@{len(log)}"

    def add(self, session_id: int, entry: Mapping[str, Any], *, author: str = "", reason: str = "",
            client_id: str | None = None, expected_version: int | None = None,
            preview: bool = False, opened_version: int | None = None, derive_id: bool = False,
            again: bool = False) -> dict[str, Any]:
        """Append an entry (a hand's outcome, a penalty, a seating, a final score).

        ``opened_version``: the session's version when the form was opened; a result for a hand
        that got one since is refused (:class:`EntryConflict`), a chombo or penalty only when the
        same one was entered since. ``derive_id`` (the CLI): without a ``client_id``, one is derived
        from the session, the hand in play and the entry, so the command run again is recognised;
        ``again``: it really is the next hand with the same outcome."""
        if derive_id and client_id is None and not preview:
            with self.store.transaction():  # the hand the id names is the one the change falls into
                key = self._load(session_id).hand_key()
                client_id = self._fresh(session_id, derived_client_id(str(session_id), key, "add", None, entry))
                if again:
                    client_id += f":again:{session(self.store, session_id).version}"
                return self._change(session_id, "add", None, entry, author=author, reason=reason,
                                    client_id=client_id, expected_version=expected_version, preview=False,
                                    opened_version=opened_version, rerun_of=None if again else str(session_id))
        return self._change(session_id, "add", None, entry, author=author, reason=reason, client_id=client_id,
                            expected_version=expected_version, preview=preview, opened_version=opened_version)

    def _uid(self, session_id: int, hand_no: int) -> int:
        """The uid of entry number ``hand_no``; refused when there is none or it is no longer in force."""
        log = changes(self.store, session_id)
        adds = [c.seq for c in log if c.kind == "add"]
        if not 1 <= hand_no <= len(adds):
            raise KeeperError(sentence("session {id} has no entry {no} (entries are 1-{last})", id=session_id,
                                       no=hand_no, last=len(adds))
                              if adds else sentence("session {id} has no entries yet", id=session_id))
        uid = adds[hand_no - 1]
        if uid not in dict(effective(log)):
            gone = [c for c in log if c.kind in ("delete", "undo") and c.target == uid]
            how = (sentence(" ({what} by {who} at {at}, change {change})", what=_what(gone[-1]),
                            who=_who(gone[-1].author), at=_clock(gone[-1].at), change=gone[-1].seq) if gone else "")
            raise KeeperError(sentence("entry {no} of session {id} was deleted{how}: nothing changed "
                                       "(`sanma table undo {id} --change N` restores it)", no=hand_no, id=session_id,
                                       how=how))
        return uid

    def fix(self, session_id: int, hand_no: int, entry: Mapping[str, Any] | None, *, author: str = "",
            reason: str = "", client_id: str | None = None, expected_version: int | None = None,
            preview: bool = False, opened_version: int | None = None, derive_id: bool = False) -> dict[str, Any]:
        """Replace entry ``hand_no`` (1-based, as listed), or delete it (``entry`` None).
        ``opened_version``: refused when someone else changed that entry since; ``derive_id``: the
        same correction run again is stored once."""
        session(self.store, session_id)
        uid = self._uid(session_id, hand_no)
        kind = "delete" if entry is None else "fix"
        if derive_id and client_id is None:
            client_id = self._fresh(session_id, derived_client_id(str(session_id), (0, uid), kind, uid, entry or {}))
        return self._change(session_id, kind, uid, entry, author=author,
                            reason=reason, client_id=client_id, expected_version=expected_version, preview=preview,
                            opened_version=opened_version)

    def undo(self, session_id: int, change: int | None = None, *, author: str = "", reason: str = "",
             client_id: str | None = None, expected_version: int | None = None,
             preview: bool = False) -> dict[str, Any]:
        """Revert the last edit, or change ``change`` of the log (an undo of an undo redoes it); the
        state says what was undone (``undone``: :func:`describe_change`). A change no longer in force
        (undone already, maybe on another device) is refused."""
        session(self.store, session_id)
        with self.store.transaction():  # the change named is the one undone, whoever writes meanwhile
            log = changes(self.store, session_id)
            if change is None:
                target = last_undoable(log)
                if target is None:
                    raise KeeperError(sentence("session {id}: nothing to undo", id=session_id))
            else:
                if not any(c.seq == change for c in log):
                    raise KeeperError(sentence("session {id} has no change {change} (see `sanma table log`)",
                                               id=session_id, change=change))
                if change not in active(log):
                    by = next((c for c in reversed(log) if c.kind == "undo" and c.target == change), None)
                    how = (sentence(" (change {change}, by {who} at {at})", change=by.seq, who=_who(by.author),
                                    at=_clock(by.at)) if by else "")
                    raise KeeperError(sentence("change {change} of session {id} is already undone{how}: nothing "
                                               "changed", change=change, id=session_id, how=how))
                target = change
            undone = describe_change(log, target, self._load(session_id, log).rows)
            out = self._change(session_id, "undo", target, None, author=author, reason=reason, client_id=client_id,
                               expected_version=expected_version, preview=preview)
        out["undone"] = undone
        return out

    # -- standings and export ------------------------------------------------------------------
    def standings(self, session_id: int | None, series: str | None, *, store_games: bool = False,
                  web_games: bool = False, aliases: Mapping[str, str] | None = None) -> dict[str, Any]:
        """Per person over a session's or a series' games; ``store_games`` adds every game of the
        database (imported records, games sanma played) whose three players are all among them,
        ``web_games`` those played at sanma's browser table (a table whose seats were given these
        people's names). ``aliases`` maps a name a stored game gives a player (a Tenhou or Mahjong
        Soul account, a seat name) to the person it is. ``counted`` lists each added game with its
        rules, its players as the people they are and the names the game gave them."""
        aliases = dict(aliases or {})
        used: set[str] = set()

        def person(name: str) -> str:
            if name in aliases:
                used.add(name)
            return aliases.get(name, name)

        if session_id is not None:
            s = self._load(session_id)
            people = list(dict.fromkeys(person(p) for p in s.people))
            games = [_as_people(g, person) for g in s.games]
            out: dict[str, Any] = {"session": session_id, "notation": s.rules.score_notation}
        else:
            rows = sessions(self.store, series)
            if not rows:
                raise KeeperError(sentence("no session in series {name!r}", name=series))
            people, games = [], []
            for r in rows:  # an alias names one person across the series' sessions as well
                s = self._load(r.id)
                people += [person(p) for p in s.people if person(p) not in people]
                games += [_as_people(g, person) for g in s.games]
            out = {"series": series, "sessions": [r.id for r in rows], "notation": s.rules.score_notation}
        for name, target in aliases.items():
            if target not in people:
                raise KeeperError(sentence("alias {name}={target}: {target} is not one of {names}", name=name,
                                           target=target, names=", ".join(people)))
        counted: list[dict[str, Any]] = []
        if store_games or web_games:
            for g in stored_games(self.store, web_only=not store_games):
                names = [person(x[0]) for x in g.seats]
                if not all(n in people for n in names) or len(set(names)) != 3:
                    continue
                seats = list(zip(names, g.seats, strict=True))  # (person, (name, score, rank, points, chips))
                games.append(GameResult(-g.id, {n: x[1] for n, x in seats}, {n: x[2] for n, x in seats},
                                        {n: x[3] for n, x in seats}, {n: x[4] for n, x in seats},
                                        f"store game {g.id} ({'browser table' if g.web else g.kind})"))
                counted.append({"game": g.id, "kind": "web" if g.web else g.kind, "rules": g.rules_name,
                                "players": names, "as": [x[0] for x in g.seats]})
        out["unused_aliases"] = sorted(set(aliases) - used)  # said, not silently ignored
        out.update(games=len(games), standings=standings(people, games), counted=counted)
        return out

    def export(self, session_id: int) -> dict[str, Any]:
        """The session as JSON: its rules, people and whole log (``import`` replays it)."""
        row = session(self.store, session_id)
        return {"format": EXPORT_FORMAT, "rules": json.loads(row.rules_json), "rules_name": row.rules_name,
                "people": list(row.people), "mode": row.mode, "series": row.series, "games_limit": row.games_limit,
                "changes": self.log(session_id), "state": self.state(session_id)}

    def export_csv(self, session_id: int) -> str:
        """One row per entry and person: game, entry number, kind, round, honba, point and chip
        deltas; then per game and person a ``final`` row: the final score, chips, rank and final
        points, the chombos (P100) and ``busted`` / ``buster`` (P110), which final scores cannot
        show (so the file imports again as it was, :meth:`import_csv`)."""
        state = self.state(session_id)
        n = state["notation"]  # P30: under "triangle" a minus is written △ (read back by read_csv)
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(CSV_HEADER)
        for h in state["hands"]:
            for p in state["people"]:
                if p in h["deltas"] or p in h["chips"]:
                    w.writerow([session_id, h["game"], h["no"], h["kind"], h.get("label", ""), h.get("honba", ""),
                                p, signed(h["deltas"].get(p, 0), n), signed(h["chips"].get(p, 0), n), "", "", "", ""])
        for g in state["games"]:
            for p in g["ranks"]:
                bust = "busted" if p in g["busted"] else "buster" if p in g["busters"] else ""
                w.writerow([session_id, g["game"], "", "final", "", "", p, signed(g["scores"][p], n),
                            signed(g["chips"].get(p, 0), n), g["ranks"][p], signed(g["points"][p], n),
                            g["chombos"].get(p) or "", bust])
        return out.getvalue()

    def import_session(self, data: Any) -> dict[str, Any]:
        """A new session from an export: the log's changes are replayed in order and checked."""
        if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
            raise KeeperError(sentence("not a sanma table export (expected \"format\": \"{format}\")",
                                       format=EXPORT_FORMAT))
        rules = from_dict(data.get("rules") or {}, "import", name=str(data.get("rules_name") or "custom"))
        log = data.get("changes")
        if not isinstance(log, list):
            raise KeeperError(sentence("import: 'changes' must be a list"))
        with self.store.transaction():
            limit = data.get("games_limit")
            if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
                raise KeeperError(sentence("import: 'games_limit' must be a whole number, 1 or more"))
            state = self.new(rules, data.get("people") or [], series=data.get("series"),
                             mode=str(data.get("mode") or "hands"), games_limit=limit)
            sid = int(state["session"])
            for c in log:
                if not isinstance(c, Mapping) or c.get("kind") not in ("add", "fix", "delete", "undo"):
                    raise KeeperError(sentence("import: change {change!r} is malformed", change=c))
                target = c.get("target")
                if target is not None and not isinstance(target, int):
                    raise KeeperError(sentence("import: change {change!r} has a bad target", change=c.get("seq")))
                self._change(sid, str(c["kind"]), target, c.get("entry"), author=str(c.get("author") or ""),
                             reason=str(c.get("reason") or ""), client_id=None, expected_version=None,
                             preview=False)
            self._refuse_double(sid)
        return self.state(sid)

    def _refuse_double(self, sid: int) -> None:
        """An imported session ``sid`` that repeats a session of its series (the same entries, or the
        same games: a JSON or CSV export of it, whole or in part) is refused: its games would count
        twice in the series' standings (issue 19, "What was found" 7). Called inside the import's
        transaction, so nothing is stored."""
        row = session(self.store, sid)
        if row.series is None:
            return
        mine = self._load(sid)
        log = [(c.kind, c.target, c.entry) for c in changes(self.store, sid)]
        games = [sorted(g.scores.items()) for g in mine.games]
        for other in sessions(self.store, row.series):
            if other.id == sid:
                continue
            theirs = self._load(other.id)
            their_log = [(c.kind, c.target, c.entry) for c in changes(self.store, other.id)]
            their_games = [sorted(g.scores.items()) for g in theirs.games]
            n, m = min(len(log), len(their_log)), min(len(games), len(their_games))
            if (n and log[:n] == their_log[:n]) or (m and games[:m] == their_games[:m]):
                raise KeeperError(sentence(
                    "this import repeats session {id} of series {name!r} (the same entries): its games would count "
                    "twice in the series; nothing was stored. Import it into another database, or without the series",
                    id=other.id, name=row.series) if n and log[:n] == their_log[:n] else sentence(
                    "this import repeats session {id} of series {name!r} (the same games): its games would count "
                    "twice in the series; nothing was stored. Import it into another database, or without the series",
                    id=other.id, name=row.series))

    def import_csv(self, text: str, rules: Rules, *, series: str | None = None, author: str = "") -> dict[str, Any]:
        """A "final scores only" session from a CSV export (:func:`read_csv`): each game's ``final``
        rows become one final entry, in the file's order (seat order, which breaks ties), with its
        chombos and busts and the riichi sticks its scores fall short by (P31). The CSV's chips are
        the game's total; what the rules add by themselves (uma in chips, streak chips,
        P26/P28/P29) is found by a preview and only the rest is entered. After each game the
        rules' ranks, points and chips must be the file's, or nothing is stored."""
        games: dict[int, list[dict[str, Any]]] = {}
        rows = read_csv(text)
        for i, r in enumerate(rows, start=2):
            if r["kind"] != "final" or r["no"] is not None:  # a game's rows, not a final-only entry's
                continue
            if r["game"] is None or r["points"] is None or not isinstance(r["points"], int) or not r["person"]:
                raise KeeperError(sentence("CSV line {line}: a final row needs its game, person and final score",
                                           line=i))
            games.setdefault(int(r["game"]), []).append(r)
        if not games:
            raise KeeperError(sentence("CSV: no final rows (kind = final): nothing to import"))
        old = bool(rows) and "bust" not in rows[0]
        people = list(dict.fromkeys(r["person"] for g in sorted(games) for r in games[g]))
        with self.store.transaction():
            sid = int(self.new(rules, people, series=series, mode="final", author=author)["session"])
            for game in sorted(games):
                entry = _final_entry_of(rules, games[game], game)
                want = {r["person"]: r["chips"] or 0 for r in games[game]}
                derived = self.add(sid, entry, preview=True)["games"][-1]["chips"]
                entry["chips"] = {p: want[p] - derived.get(p, 0) for p in want if want[p] != derived.get(p, 0)}
                got = self.add(sid, entry, author=author, reason="imported from CSV")["games"][-1]
                for r in games[game]:
                    p = r["person"]
                    if (got["ranks"][p] != r["rank"] or got["chips"].get(p, 0) != want[p]
                            or (r["final_points"] is not None and abs(got["points"][p] - r["final_points"]) > 0.05)):
                        why = (sentence(" (this CSV has no chombos and bust columns: it was exported before they "
                                        "were added, so a chombo or a bust bonus cannot be read from it)")
                               if old else sentence(": the file was written under other rules, or edited"))
                        raise KeeperError(sentence(
                            "CSV game {game}: {name} has rank {rank}, {points} points and {chips} chips in the file "
                            "but rank {got_rank}, {got_points} points and {got_chips} chips under {rules}{why}",
                            game=game, name=p, rank=r["rank"], points=r["final_points"], chips=want[p],
                            got_rank=got["ranks"][p], got_points=got["points"][p], got_chips=got["chips"].get(p, 0),
                            rules=rules.name, why=why))
            self._refuse_double(sid)
        return self.state(sid)


def _final_entry_of(rules: Rules, rows: Sequence[Mapping[str, Any]], game: int) -> dict[str, Any]:
    """The final entry of one game's ``final`` rows of a CSV: scores, chombos, busts, and the sticks
    left on the table when the scores add up to less than the start (P31, seed 002 L31)."""
    scores = {r["person"]: r["points"] for r in rows}
    short = 3 * rules.start_points - sum(scores.values())
    entry: dict[str, Any] = {"kind": "final", "scores": scores}
    if short > 0 and short % rules.riichi_deposit == 0:
        entry["sticks"] = short // rules.riichi_deposit
    chombos = {r["person"]: int(r.get("chombos") or 0) for r in rows if r.get("chombos")}
    if chombos:
        entry["chombos"] = chombos
    busted = [r["person"] for r in rows if r.get("bust") == "busted"]
    busters = [r["person"] for r in rows if r.get("bust") == "buster"]
    if busted:
        entry["busted"], entry["busters"] = busted, busters
    bad = [r.get("bust") for r in rows if r.get("bust") not in (None, "", "busted", "buster")]
    if bad:
        raise KeeperError(sentence("CSV game {game}: bust {value!r} is not 'busted', 'buster' or empty", game=game,
                                   value=bad[0]))
    return entry


# ---------------------------------------------------------------------------------------------
# text output
# ---------------------------------------------------------------------------------------------


def read_csv(text: str) -> list[dict[str, Any]]:
    """The rows of :meth:`Keeper.export_csv` with their numbers read back in either notation
    (P30's △ or a minus sign); :class:`KeeperError` names a row that is not one."""
    from .notation import parse_signed

    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        rows = list(reader)
    except csv.Error as e:
        raise KeeperError(sentence("CSV line {line}: not CSV ({why})", line=reader.line_num, why=str(e))) from None
    out = []
    for i, r in enumerate(rows, start=2):
        if set(r) not in (set(CSV_HEADER), set(CSV_HEADER_V1)) or any(v is None for v in r.values()):
            raise KeeperError(sentence("CSV line {line}: expected the columns {names}", line=i,
                                       names=", ".join(CSV_HEADER)))
        try:
            row: dict[str, Any] = dict(r)
            for k in ("session", "game", "no", "honba", "rank"):
                row[k] = int(r[k]) if r[k] else None
            for k in ("points", "chips", "final_points"):
                row[k] = parse_signed(r[k]) if r[k] else None
            if r.get("chombos"):
                row["chombos"] = int(r["chombos"])
        except (KeeperError, ValueError) as e:
            raise KeeperError(sentence("CSV line {line}: {why}", line=i, why=e)) from None
        out.append(row)
    return out


def render_text(state: Mapping[str, Any], *, full: bool = False, last: int | None = None) -> str:
    """A readable view of a session's state (negative numbers as the rules write them, P30), in the
    current language (give it ``in_words(state, lang)`` so the entries' summaries speak it too). After
    a write (``full`` False): the game in play, the last 8 entries and, when an entry ended a game,
    that game's settlement line by line. ``show`` (``full``): every entry (the ``last`` N when
    given), every finished game with its settlement, the chombos and penalties, the standings."""
    n = state.get("notation", "minus")
    head = tr("session {session} — {rules} — game {game}", session=state["session"], rules=state["rules"],
              game=state["game"])
    if state["finished"]:
        head = tr("{head} (finished)", head=head)
    lines = [tr("{head} — version {version}", head=head, version=state["version"])]
    h = state["hand"]
    if h is not None:
        label = _said_now(label_said(f"{h['round']}{h['number']}" + (f" lap {h['lap'] + 1}" if h["lap"] else "")))
        lines.append(tr("{label}, {honba} honba, {sticks} sticks, dealer {dealer}", label=label, honba=h["honba"],
                        sticks=h["sticks"], dealer=h["dealer"]))
    for p in state["people"]:
        wind = state["seats"].get(p)
        score = state["scores"].get(p)
        chips = tr("chips {n}", n=signed(state["chips"].get(p, 0), n, plus=True) if state["chips"].get(p, 0) else "+0")
        lines.append(f"  {p:<12} {_wind(wind):<2} {'' if score is None else signed(score, n, ','):>7}  {chips}")
    hands = state["hands"]
    shown = hands[-(last if last is not None else 8 if not full else len(hands)):] if hands and last != 0 else hands
    if len(shown) < len(hands):
        k = len(hands) - len(shown)
        lines.append("  " + tr_n("({n} earlier entry: `show` lists them all)",
                                 "({n} earlier entries: `show` lists them all)", k))
    for row in shown:
        deltas = ", ".join(f"{p} {signed(d, n, ',', plus=True)}" for p, d in row["deltas"].items() if d)
        label = _said_now(label_said(row.get("label", "")))
        game = tr("g{game}", game=row["game"])
        lines.append(f"  #{row['no']:<3} {game} {label:<6} {row.get('summary', row['kind'])}"
                     + (f" — {deltas}" if deltas else ""))
    ended = [g for g in state["games"] if full or (hands and hands[-1].get("game_over") and g is state["games"][-1])]
    if state.get("preview_of"):
        row = next(r for r in hands if r["no"] == state["preview_of"])
        lines += render_payments(row, state["pot"], n)
        ended = [g for g in state["games"] if g["game"] == row["game"]] if row.get("game_over") else []
    for g in ended:
        lines += render_settlement(g, n)
    if full and state.get("penalties"):
        lines.append(tr("chombos and penalties:"))
        lines += render_penalties(state["penalties"], n)
    if state["finished"] and state.get("next"):
        nxt = state["next"]
        parts = [tr("next: game {game}, dealer {dealer}", game=nxt["game"], dealer=nxt["dealer"])]
        if nxt["sitting_out"]:
            parts.append(tr("{who} sits out", who=nxt["sitting_out"]))
        if nxt["uma_multiplier"] > 1:
            parts.append(tr("uma x{n}", n=nxt["uma_multiplier"]))
        if nxt["reseat_due"]:
            parts.append(tr("seat draw due"))
        lines.append(tr(", ").join(parts))
    if full and state["games"]:
        lines.append(tr("standings:"))
        lines += ["  " + x for x in render_standings(state["standings"], n).splitlines()]
    return "\n".join(lines)


def _said_now(words: str | Message) -> str:
    return words.text() if isinstance(words, Message) else words


def _wind(wind: str | None) -> str:
    """A seat's wind as the session view shows it: the letter in English, the kanji in Japanese."""
    return "-" if not wind else wind_short(wind, current_lang())


#: what each line of a game's settlement (settle.Item.what) is called, in words
_ITEM_WORDS = {
    "chiicha_chips": sentence("first dealer not top"), "bust_chips": sentence("bust chips"),
    "dobon_fee": sentence("dobon fee"), "sticks_to_top": sentence("sticks left to the top"),
    "sticks_forfeited": sentence("sticks left on the table (nobody's)"),
    "score": sentence("score against the return"), "oka": sentence("oka"), "uma": sentence("uma"),
    "bust": sentence("bust"), "tie_split": sentence("tied places share"), "chombo": sentence("chombo"),
    "rounding": sentence("rounding"), "table_chips": sentence("table chips to the top"),
    "streak_chips": sentence("streak chips"),
}
#: why a game ended (flow's reasons), in words
_END_WORDS = {
    "bust": sentence("bust"), "last_hand": sentence("last hand"),
    "agari_yame": sentence("the last dealer stopped after a win"),
    "tenpai_yame": sentence("the last dealer stopped in tenpai"), "target_reached": sentence("target score reached"),
    "hand_limit": sentence("hand limit reached"), "overtime_non_dealer_win": sentence("overtime: a non-dealer won"),
    "overtime_over": sentence("overtime over"), "final_scores": sentence("final scores"),
}


def _words(table: Mapping[str, Message], key: str, english: str) -> str:
    """``key``'s words in the current language; in English the keeper's own (``english``)."""
    said = table.get(key)
    return english if said is None or (current_lang() == "en" and not pseudo()) else said.text()


def render_penalties(penalties: Sequence[Mapping[str, Any]], notation: str = "minus") -> list[str]:
    """One line per chombo and penalty (``Session.penalties``): what it cost then and at the end."""
    n = notation
    out = []
    for x in penalties:
        paid = ", ".join(f"{p} {signed(v, n, ',', plus=True)}" for p, v in x["deltas"].items())
        chips = ", ".join(tr("{who} {n} chips", who=p, n=signed(v, n, plus=True)) for p, v in x["chips"].items())
        end = ", ".join(tr("{who} {n} at the end", who=p, n=signed(v, n, ".1f", plus=True))
                        for p, v in x["end_points"].items())
        kind = Keyword("result", "chombo") if x["kind"] == "chombo" else Keyword("penalty", x["kind"])
        label = _said_now(label_said(x["label"]))
        what = tr("{kind} by {who}", kind=kind, who=" & ".join(x["who"]))
        game = tr("g{game}", game=x["game"])
        out.append(f"  #{x['no']:<3} {game} {label:<6} {what}" + (f" ({x['reason']})" if x["reason"] else "") + ": "
                   + ("; ".join(t for t in (paid, chips, end) if t) or tr("nothing to pay")))
    return out


def render_settlement(game: Mapping[str, Any], notation: str = "minus") -> list[str]:
    """A finished game's result and its settlement line by line (issue 19 item 3): each item with
    its rule row and what it moved per person; then rank, final score, points and chips."""
    n = notation
    why = _words(_END_WORDS, game["end_reason"], game["end_reason"])
    head = tr("game {game} over ({why})", game=game["game"], why=why)
    if game.get("uma_multiplier", 1) > 1:
        head = tr("{head}, uma x{n}", head=head, n=game["uma_multiplier"])
    out = [head + ":"]
    for i in game.get("items", ()):
        parts = [f"{p} {signed(v, n, ',', plus=True)}" for p, v in i["scores"].items()]
        parts += [f"{p} {signed(v, n, '.1f', plus=True)}" for p, v in i["points"].items()]
        parts += [tr("{who} {n} chips", who=p, n=signed(v, n, plus=True)) for p, v in i["chips"].items()]
        count = f" ({i['count']})" if i.get("count") else ""
        label = _words(_ITEM_WORDS, i["what"], i["label"])
        out.append(f"    {label + count:<32} {', '.join(parts) or '-'}  [{i['rule']}]")
    for p, rank in sorted(game["ranks"].items(), key=lambda x: x[1]):
        points = signed(game["points"][p], n, ".1f", plus=True)
        chips = tr("chips {n}", n=signed(game["chips"].get(p, 0), n, plus=True))
        out.append(f"    {rank}. {p:<12} {signed(game['scores'][p], n, ','):>8}  {points:>7}  {chips}")
    return out


def render_payments(row: Mapping[str, Any], pot: Mapping[str, Any], notation: str = "minus") -> list[str]:
    """Every payment of one entry's row (what ``--preview`` shows before anything is saved): each
    winner's points with honba and sticks, in head-bump order; the riichi sticks put down this
    hand; the total; the chips; what is left on the table."""
    def line(label: str, d: Mapping[str, int]) -> str:
        return f"    {label:<16} " + ", ".join(f"{p} {signed(v, notation, ',', plus=True)}" for p, v in d.items() if v)

    out = ["  " + tr("payments of #{no} ({honba} honba):", no=row["no"], honba=row.get("honba", 0))]
    paid = {p: 0 for p in row["deltas"]}
    for pay in row.get("payments") or ():
        who = (tr("{who}'s win (pao {pao})", who=pay["winner"], pao=pay["pao"]) if pay.get("pao")
               else tr("{who}'s win", who=pay["winner"]))
        out.append(line(who, pay["deltas"]))
        for p, v in pay["deltas"].items():
            paid[p] += v
    if row.get("payments"):
        rest = {p: row["deltas"][p] - paid[p] for p in paid}
        if any(rest.values()):
            out.append(line(tr("riichi sticks"), rest))
    out.append(line(tr("total"), row["deltas"]))
    if any(row["chips"].values()):
        out.append(line(tr("chips"), row["chips"]))
    out.append("    " + tr("left on the table: {sticks} sticks, {chips} chips", sticks=pot["sticks"],
                           chips=pot["chips"]))
    return out


def render_standings(rows: Sequence[Mapping[str, Any]], notation: str = "minus") -> str:
    """The standings table; a minus written as the rules say (P30: △ under ``triangle``)."""
    head = (tr("person"), tr("games"), tr("points"), tr("chips"), tr("1st/2nd/3rd"))
    out = [f"{head[0]:<12} {head[1]:>5} {head[2]:>8} {head[3]:>6}  {head[4]}"]
    for r in rows:
        out.append(f"{r['person']:<12} {r['games']:>5} {signed(r['points'], notation, '.1f'):>8} "
                   f"{signed(r['chips'], notation):>6}  " + "/".join(str(x) for x in r["placements"]))
    return "\n".join(out)
