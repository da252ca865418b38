"""Replaying game records through the engine: every action must be legal, every result equal.

``sanma replay FILE... --check`` (ARCHITECTURE.md) is :func:`replay_files`. For each kyoku of a
record, the engine is dealt exactly the recorded hands: the wall is built from the record (the
starting hands, the live draws in order, the replacement draws in order, the dora indicators and
the ura indicators the record shows; every unseen place gets one of the remaining tiles), so
every draw the engine makes must equal the recorded draw. Then each recorded action (discard,
riichi, pon, kan, kita, ron, tsumo, nine-terminals abort) is applied with ``Game.apply`` and
must be among ``Game.legal_actions``; every draw, replacement draw, kan dora and accepted
riichi the engine produces must match the record; each hand's han, fu, yaku, limit, points,
payments, honba, riichi sticks and kita must equal the record's; each next hand must start with
the recorded round, dealer, honba, sticks and scores; and the game must end where the record
ends, with the recorded final scores and points.

One engine game plays the whole record, so the flow between hands (renchan, honba, dealer
rotation, the end of the game) is checked too. When a hand diverges (an illegal action, a
different draw, a different next hand), a fresh engine game is started at the next recorded
hand so the rest of the record is still checked hand by hand.

Laps (P33, P34): a record names each hand's round wind, not its lap, and a wind repeats when
``rules.round_winds`` does (the club's ``"EE"``) or when overtime goes back to East (``kaeri_ton``,
``club_laps``). :func:`round_indexes` counts the laps as the record's hands go by, so a fresh
engine game started in the second East lap or in overtime knows it (last-hand rules P38/P39, the
end of the game, overtime, early-bust chips P112). Limitation: a record that begins in a later
lap of a repeated wind (``Game(round_index=1)`` under ``"EE"``) gives no way to tell, and is
replayed from the first lap of that wind.

Rules: ``--rules`` wins; otherwise :func:`rules_for` takes the ``tenhou`` preset for Tenhou
records and ``majsoul`` for Mahjong Soul ones, adjusted to what the record's rule name says
(East-only games) and to how the record writes final points (whole points in older Tenhou
records).

>>> import random
>>> from sanma.formats import read_tenhou6
>>> from sanma.formats import write_tenhou6
>>> g = Game(Rules.preset("online"), seed=2)
>>> rng = random.Random(2)
>>> while not g.done:
...     g.apply(rng.choice(g.legal_actions(g.to_move[0])))
>>> result = replay_record(read_tenhou6(write_tenhou6(g, as_text=True)))
>>> result.kyoku == len(g.hand_results), result.ok, result.events[1:] == g.events[1:]
(True, True, True)
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from . import events as ev
from .errors import HandError, IllegalActionError, RecordError, SanmaError
from .events import RECORD_DRAW_REASONS
from .formats import GameRecord, KyokuRecord, RecordedWin, read_record
from .formats.record import DrawResult, majsoul_room
from .game.actions import Action, ActionType
from .game.engine import Game
from .game.flow import round_wind
from .game.tenhou_shuffle import TenhouKyokuWall, tenhou_walls
from .game.wall import HAIPAI_POSITIONS, Wall, tile_set
from .i18n.messages import Keyword, Message, Said, sentence, sentence_c
from .rules import Rules
from .scoring import DORA_NAMES
from .tiles import Tile

_E = TypeVar("_E", bound=ev.Event)

#: Called as the replay goes: ``(game, hand, event, report)`` once a hand is dealt (``event`` None)
#: and after each of its record events, with the engine game as it stands and the report so far
#: (its ``mismatches``): the browser's replay viewer draws each step from it (web/replays.py).
StepObserver = Callable[[Game, int, Any, "GameReplay"], None]

#: Draw kinds as the readers name them -> the engine's ``ryukyoku`` reasons (sanma.events' table; a
#: nagashi is an exhaustive draw unless the rules settle it as a win, which compare_draw handles).
_REASON_OF_DRAW = {**RECORD_DRAW_REASONS, "nagashi": "exhaustive"}


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One difference between a record and the engine: ``what`` names the checked value."""

    source: str
    kyoku: str  # "E2-1", "#3" (position) or "game"
    what: str
    expected: Any  # the record's value
    got: Any  # the engine's value
    at: str = ""  # where in the hand: "action 12 of 57"

    def __str__(self) -> str:
        at = f" ({self.at})" if self.at else ""
        return f"{self.source}: {self.kyoku}: {self.what}{at}: record {self.expected!r}, engine {self.got!r}"

    def words(self) -> Message:
        """The mismatch in words, without its file (its ``what``, ``at`` and value phrases are kept as
        a :class:`Said`: English keys here, said in the reader's language there)."""
        if self.problem is not None:
            return self.problem.message
        kyoku = label_words(self.kyoku)
        if self.at:
            return sentence("{kyoku}: {what} ({at}): record {expected!r}, engine {got!r}", kyoku=kyoku,
                            what=self.what, at=self.at, expected=self.expected, got=self.got)
        return sentence("{kyoku}: {what}: record {expected!r}, engine {got!r}", kyoku=kyoku, what=self.what,
                        expected=self.expected, got=self.got)

    def said(self) -> Said:
        """``str(self)`` that remembers its words (the replay viewer's and the review's text)."""
        if self.problem is not None:
            return self.problem
        return Said(Message("{source}: {mismatch}", {"source": self.source, "mismatch": self.words()}))

    @property
    def problem(self) -> Said | None:
        """A record reader's problem (``record.errors``), kept with its sentence; None for a mismatch."""
        return self.got if self.kyoku == "record" and self.what == "read" and isinstance(self.got, Said) else None

    def to_json(self) -> dict[str, Any]:
        out = {"file": self.source, "kyoku": self.kyoku, "what": self.what, "at": self.at,
               "expected": _jsonable(self.expected), "got": _jsonable(self.got)}
        if self.problem is not None and self.problem.message.code:  # the same in every language
            out["code"] = self.problem.message.code
        return out

def label_words(label: str) -> Message:
    """A hand's label in a report (``E1``, ``S3-2``, ``E1 (lap 2)``, ``end``, ``record``) in words;
    English keeps the label as it is.

    >>> [label_words(x).text("ja") for x in ("E1", "S3-2 (lap 2)", "end")], str(label_words("S3-2 (lap 2)"))
    (['東1局', '南3局 2本場（2周目）', '終局'], 'S3-2 (lap 2)')
    """
    import re

    if label == "end":
        return sentence_c("hand", "end")
    if label == "record":
        return sentence_c("hand", "record")
    m = re.fullmatch(r"([ESWN])(\d+)(?:-(\d+))?(?: \(lap (\d+)\))?", label)
    if m is None:
        return Message("{label}", {"label": label})  # not words
    wind, n = Keyword("wind", m[1]), int(m[2])
    hand = (sentence("{wind}{n}-{honba}", wind=wind, n=n, honba=int(m[3])) if m[3]
            else sentence("{wind}{n}", wind=wind, n=n))
    return sentence("{hand} (lap {lap})", hand=hand, lap=int(m[4])) if m[4] else hand



def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, Tile):
        return str(x)
    if x is None or isinstance(x, bool | int | float | str):
        return x
    return str(x)


@dataclass(slots=True)
class GameReplay:
    """The replay of one record: how many kyoku, how many matched, every mismatch."""

    source: str
    rules: str
    kyoku: int = 0
    matched: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The engine's event stream of the replay when one engine game played the whole record
    #: (no hand diverged); empty otherwise.
    events: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.matched == self.kyoku

    def to_json(self) -> dict[str, Any]:
        return {"file": self.source, "rules": self.rules, "kyoku": self.kyoku, "matched": self.matched,
                "mismatches": [m.to_json() for m in self.mismatches], "notes": list(self.notes)}


@dataclass(slots=True)
class ReplayReport:
    """Every replayed record; ``ok`` only when every kyoku of every record matched."""

    replays: list[GameReplay] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.replays)

    @property
    def kyoku(self) -> int:
        return sum(r.kyoku for r in self.replays)

    @property
    def matched(self) -> int:
        return sum(r.matched for r in self.replays)

    @property
    def mismatches(self) -> list[Mismatch]:
        return [m for r in self.replays for m in r.mismatches]

    @property
    def ok(self) -> bool:
        return bool(self.replays) and all(r.ok for r in self.replays)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "kyoku": self.kyoku, "matched": self.matched,
                "mismatches": [m.to_json() for m in self.mismatches],
                "files": [r.to_json() for r in self.replays]}


# --------------------------------------------------------------------------------------------
# Rules of a record
# --------------------------------------------------------------------------------------------


def platform_of(record: GameRecord) -> str:
    """``tenhou`` or ``majsoul``: who ran the game, from the record's rule name and flags.

    Tenhou names its lobbies 三鳳/三特/三上/三般 (mjlog GO type, tenhou.net/6 ``disp``); Mahjong
    Soul games converted to tenhou.net/6 name a room (三銀の間, 三玉の間 ...). mjai JSONL names
    no platform: sanma's own mjai names its rule set in ``start_game``; other mjai sanma
    records come from Mahjong Soul conversions.
    """
    name = record.rule_name
    flags = dict(record.rule_flags)
    if record.format == "mjlog" or "type" in flags:
        return "tenhou"
    if majsoul_room(name):
        return "majsoul"
    if name[:2] in ("三鳳", "三特", "三上", "三般"):
        return "tenhou"
    if name in Rules.presets():
        return name
    if record.format in ("majiang", "tenhou6"):
        return "tenhou"
    return "majsoul"


def stated_length(record: GameRecord) -> str | None:
    """The game length a record states: ``"E"`` (East only), ``"ES"`` (East and South), or None.

    Tenhou's mjlog says it in its lobby flags, lobby and room names say 東 or 南 (三鳳東喰赤速,
    三人南); sanma's own records name their preset. A Mahjong Soul room name alone (三金の間赤)
    does not: converters of three-player games dropped 東/南 from it (mjai-reviewer3p before
    its commit f840fae), so :func:`replay_record` finds the length that the record's hands fit.
    """
    if record.rule_name in Rules.presets():
        return Rules.preset(record.rule_name).round_winds
    flags = dict(record.rule_flags)
    if "hanchan" in flags:
        return "ES" if flags["hanchan"] else "E"
    name = record.rule_name
    if "南" in name:
        return "ES"
    if "東" in name:
        return "E"
    if platform_of(record) == "tenhou":
        return Rules.preset("tenhou").round_winds  # an unnamed Tenhou record: its only sanma lobby
    return None


def rules_for(record: GameRecord) -> tuple[Rules, list[str]]:
    """The rules to replay ``record`` under when none are given, and why they differ from a preset.

    * sanma's own records (mjai ``start_game`` naming a preset) use that preset;
    * Tenhou records use ``tenhou``, Mahjong Soul records ``majsoul``;
    * a stated East-only game (三鳳東喰赤速, 三人東, Tenhou's lobby flags) has round_winds = "E"
      (:func:`stated_length`; where the record states no length, :func:`replay_record` tries them);
    * final points written as whole numbers (Tenhou before ~2022) mean final_rounding = "integer".
    """
    if record.rule_name in Rules.presets():  # sanma's own record names its preset
        return Rules.preset(record.rule_name), []
    platform = platform_of(record)
    rules = Rules.preset(platform)
    notes: list[str] = []
    changes: dict[str, Any] = {}
    name = record.rule_name
    if stated_length(record) == "E" and rules.round_winds != "E":
        changes["round_winds"] = "E"
        notes.append(Said(sentence("rule name {name!r}: an East-only game (round_winds = 'E')", name=name)))
    points = record.final_points
    if points and all(float(p).is_integer() for p in points) and rules.final_rounding != "integer" \
            and platform == "tenhou":
        changes["final_rounding"] = "integer"
        notes.append(Said(sentence("final points are whole numbers in this record (final_rounding = 'integer')")))
    if changes:
        rules = dataclasses.replace(rules, **changes)
    return rules, notes


# --------------------------------------------------------------------------------------------
# Walls from a record
# --------------------------------------------------------------------------------------------


def wall_for(rules: Rules, k: KyokuRecord, seed: int | str = 0) -> Wall:
    """The wall that deals exactly what ``k`` records: hands, draws, replacements, indicators.

    Where each recorded tile lies is found by playing the record's wall operations (live draws,
    replacement draws, kan dora reveals, in the record's order) on a probe wall of the same
    rules whose "tiles" are the position numbers, so every layout (P14: fixed or to-indicator
    dead walls, replacements from the live wall's tail once the rinshan tiles are used) is
    followed exactly as the engine's ``Wall`` follows it. The unseen places get the remaining
    tiles, shuffled by ``seed``. Raises ``HandError`` when the record's tiles cannot lie in
    one wall under ``rules``.
    """
    first = k.initial_indicators
    dice = (1, 1) if first == 2 else (1, 2)  # the record's dice are unknown; doubles turn two (P07)
    n = len(tile_set(rules))
    probe = Wall.from_tiles(rules, tile_set(rules), dice)  # only its positions are used
    placed: dict[int, Tile] = {}

    def put(pos: Any, tile: Tile, what: str) -> None:
        if not isinstance(pos, int) or pos in placed:
            said = {"dealt": sentence("dealt {tile}", tile=str(tile)),
                    "dora": sentence("dora indicator {tile}", tile=str(tile)),
                    "kan dora": sentence("kan dora indicator {tile}", tile=str(tile)),
                    "draw": sentence("draw {tile}", tile=str(tile)),
                    "ura": sentence("ura indicator {tile}", tile=str(tile))}[what]
            raise HandError(sentence("{kyoku}: {what}: wall position {pos} is already used", code="record",
                                     kyoku=k.label, what=said, pos=pos))
        placed[pos] = tile

    hands = [k.initial_hands[(k.dealer + i) % 3] for i in range(3)] if k.initial_hands else []
    for positions, hand in zip(HAIPAI_POSITIONS, hands, strict=False):
        for pos, tile in zip(positions, hand, strict=False):
            put(pos, tile, "dealt")
    indicators = list(k.dora_indicators)
    for where, tile in zip(probe.indicator_positions, indicators[:first], strict=False):
        put(where, tile, "dora")
    kan_dora = indicators[first:]
    reveals = _reveal_order(rules, k, len(kan_dora))
    try:
        for e in k.events:
            before = isinstance(e, ev.Dora) or id(e) in reveals.get("before", set())
            if before and kan_dora and probe.can_reveal_kan_dora:
                put(probe.reveal_position(), kan_dora.pop(0), "kan dora")
            if isinstance(e, ev.Tsumo) and e.pai is not None:
                put(probe.replacement_position() if e.rinshan else probe.draw_position(), e.pai, "draw")
            if id(e) in reveals.get("after", set()) and kan_dora and probe.can_reveal_kan_dora:
                put(probe.reveal_position(), kan_dora.pop(0), "kan dora")
        if reveals.get("chankan") and kan_dora and probe.can_reveal_kan_dora:
            put(probe.reveal_position(), kan_dora.pop(0), "kan dora")
    except IllegalActionError as e:
        raise HandError(sentence("{kyoku}: the recorded draws do not fit the wall of rules {rules!r}: {error}",
                                 code="record", kyoku=k.label, rules=rules.name, error=e)) from None
    for where, tile in zip(probe.ura_positions, k.ura_indicators, strict=False):
        put(where, tile, "ura")
    rest = Counter(tile_set(rules))
    rest.subtract(placed.values())
    if over := sorted(t for t, c in rest.items() if c < 0):
        raise HandError(sentence("{kyoku}: the record holds more {tiles} than the tile set of rules {rules!r}",
                                 code="record", kyoku=k.label, tiles=" ".join(map(str, over)), rules=rules.name))
    fill = list(rest.elements())
    random.Random(str(seed)).shuffle(fill)
    it = iter(fill)
    return Wall.from_tiles(rules, [placed[i] if i in placed else next(it) for i in range(n)], dice)


def _reveal_order(rules: Rules, k: KyokuRecord, count: int) -> dict[str, set[int]]:
    """When a record lists kan dora without reveal events (tenhou.net/6), place each reveal by the
    rules' timing (P12): at the kan (immediate) or after its replacement draw; ``"chankan"`` (non-empty)
    when the hand ends on a robbed added kan whose indicator the rules turn before the ron (P12
    ``kan_dora_on_chankan`` with an immediate open kan: ``Game``'s ron on a kakan)."""
    if not count or any(isinstance(e, ev.Dora) for e in k.events):
        return {}
    out: dict[str, set[int]] = {"before": set(), "after": set(), "chankan": set()}
    kan_kind = ""
    last: ev.Event | None = None  # the kan whose replacement draw has not come
    for e in k.events:
        if isinstance(e, ev.Ankan):
            kan_kind, last = rules.kan_dora_ankan, e
        elif isinstance(e, ev.Daiminkan | ev.Kakan):
            kan_kind, last = rules.kan_dora_open, e
        elif isinstance(e, ev.Tsumo) and e.rinshan and kan_kind:
            out["before" if kan_kind == "immediate" else "after"].add(id(e))
            kan_kind, last = "", None
    if isinstance(last, ev.Kakan) and rules.kan_dora_on_chankan and rules.kan_dora_open == "immediate":
        out["chankan"].add(id(last))
    return out


# --------------------------------------------------------------------------------------------
# The replay of one record
# --------------------------------------------------------------------------------------------


def lap_wind(rules: Rules, round_index: int) -> str:
    """The round wind of lap ``round_index`` of ``rules.round_winds`` (P33), beyond it overtime's (P34):
    ``game.flow.round_wind``, as ``Game.round_wind`` at that ``round_index``."""
    return round_wind(rules, round_index)


def hand_label(rules: Rules, k: KyokuRecord, lap: int) -> str:
    """A hand's label in reports (a :class:`Mismatch`'s ``kyoku``), naming its lap when an earlier
    lap has the same wind (P33): "E1 (lap 2)"; ``lap`` from :func:`round_indexes`."""
    repeated = any(lap_wind(rules, r) == k.round_wind for r in range(lap))
    return f"{k.label} (lap {lap + 1})" if repeated else k.label


def round_indexes(rules: Rules, kyoku: Sequence[KyokuRecord]) -> list[int]:
    """The lap (``Game.round_index``: index into ``rules.round_winds``, beyond it overtime) of each hand.

    A record names only each hand's round wind, and under ``"EE"`` (P33) or overtime that goes
    back to East (P34) a wind repeats. Play never goes back: (lap, dealer) only grows, by at most
    one dealer per hand. So each hand is put at the earliest lap with its wind that does not
    come before the previous hand: after E3 of the first lap, E1 under ``"EE"`` is the second
    lap. The first hand is put at the first lap with its wind (a record that starts in a later lap
    of a repeated wind cannot say so); a wind the rules never reach is overtime (past the laps).
    """
    out: list[int] = []
    lap, dealer = 0, 0
    for k in kyoku:
        horizon = lap + len(rules.round_winds) + 2  # every wind the rules can reach is met by then
        at = next((r for r in range(lap, horizon) if lap_wind(rules, r) == k.round_wind
                   and (r, k.dealer) >= (lap, dealer)), None)
        if at is None:  # a wind these rules never play: past the last lap, as the engine's overtime
            at = max(lap, len(rules.round_winds))
        out.append(at)
        lap, dealer = at, k.dealer
    return out


class _Diverged(Exception):
    """The engine cannot follow the record any further in this hand."""


#: Called before every action the replay applies: (the record's hand index, the engine game as it is
#: before the action, the action). ``sanma review`` reads each decision of a seat this way.
Observer = Callable[[int, Game, Action], None]


class _Replayer:
    def __init__(self, record: GameRecord, rules: Rules, notes: list[str], observer: Observer | None = None,
                 on_step: StepObserver | None = None) -> None:
        self.rec = record
        self.rules = rules
        self.observer = observer
        self.on_step = on_step
        self.hand_index = 0  # the record's hand being replayed
        self.out = GameReplay(source=record.source, rules=rules.name, notes=notes)
        self.fold_kita = record.kita_in_dora  # the readers know their platform (P16)
        self.game: Game | None = None
        self.games_started = 0
        self.cursor = 0  # engine events already looked at
        self.wall_index = 0  # the record kyoku whose wall the engine's next hand gets
        self.label = ""
        # the engine's events of the hand, typed (sanma.events)
        self.draws: deque[ev.Tsumo] = deque()
        self.doras: deque[ev.Dora] = deque()
        self.reaches: deque[ev.ReachAccepted] = deque()
        self.results: list[ev.Event] = []
        self.reach: ev.Reach | None = None  # a riichi declared, its discard next
        self.hand_over = False  # the engine's events after end_kyoku belong to the next hand
        self.at = ""  # the record event being replayed, for messages
        self.bad = False  # the current kyoku has a mismatch
        self.seed_walls: list[TenhouKyokuWall] | None = None
        self.stick_anomalies: list[Mismatch] = []
        self.laps = round_indexes(rules, record.kyoku)  # the lap of each hand (P33)
        if record.shuffle_seed or any(record.kyoku_seeds):
            notes.append(Said(sentence("walls re-dealt from the record's Tenhou shuffle seed: every draw, "
                                       "replacement and dora indicator is checked against them")))

    # -- reporting ---------------------------------------------------------------------------
    def mismatch(self, what: str, expected: Any, got: Any, kyoku: str | None = None) -> None:
        self.out.mismatches.append(Mismatch(self.rec.source, self.label if kyoku is None else kyoku, what,
                                            expected, got, self.at if kyoku is None else ""))
        if kyoku is None:
            self.bad = True

    # -- engine plumbing -----------------------------------------------------------------------
    def _seeded_wall(self, rules: Rules, i: int) -> Wall | None:
        """Kyoku ``i``'s wall re-dealt from the record's Tenhou shuffle seed, if it carries one."""
        rec = self.rec
        if rec.shuffle_seed:
            if self.seed_walls is None:
                self.seed_walls = list(islice(tenhou_walls(rec.shuffle_seed), len(rec.kyoku)))
            return self.seed_walls[i].wall(rules)
        if i < len(rec.kyoku_seeds) and rec.kyoku_seeds[i]:
            return next(tenhou_walls(rec.kyoku_seeds[i])).wall(rules)
        return None

    def _wall(self, rules: Rules, hand_number: int) -> Wall:
        i = self.wall_index
        if i < len(self.rec.kyoku):
            try:
                seeded = self._seeded_wall(rules, i)
                if seeded is not None:
                    return seeded  # every draw, replacement and indicator is then checked against it
                return wall_for(rules, self.rec.kyoku[i], seed=f"{self.rec.source}:{i}")
            except SanmaError as e:
                self.mismatch(Said(sentence_c("mismatch", "wall")),
                              Said(sentence("a wall holding the recorded tiles")), _said(e),
                              kyoku=self.rec.kyoku[i].label)
        return Wall.shuffled(rules, f"{self.rec.source}:{hand_number}:beyond")

    def _new_game(self, index: int) -> Game:
        k = self.rec.kyoku[index]
        self.wall_index = index
        names = self.rec.players if len(self.rec.players) == 3 else ("A", "B", "C")
        g = Game(self.rules, seed="replay", walls=self._wall, names=names, scores=k.start_scores,
                 round_index=self.laps[index], kyoku=k.dealer, honba=k.honba, kyotaku=k.kyotaku,
                 table_mistakes=True)  # a table record may hold a noten riichi (P80)
        self.game = g
        self.games_started += 1
        self.cursor = 0
        return g

    def _collect(self) -> None:
        """Sort the engine's new events: draws, dora, accepted riichi, results."""
        g = self.game
        assert g is not None
        if self.hand_over:
            return
        log = g.log
        for i in range(self.cursor, len(log)):
            e = log[i]
            if isinstance(e, ev.Tsumo):
                self.draws.append(e)
            elif isinstance(e, ev.Dora):
                self.doras.append(e)
            elif isinstance(e, ev.ReachAccepted):
                self.reaches.append(e)
            elif isinstance(e, ev.Hora | ev.Ryukyoku | ev.Chombo | ev.EndKyoku | ev.StartKyoku | ev.EndGame
                            | ev.Flower):
                self.results.append(e)
            if isinstance(e, ev.EndKyoku):
                self.cursor = i + 1
                self.hand_over = True
                return
        self.cursor = len(log)

    def _apply(self, action: Action, what: str) -> None:
        g = self.game
        assert g is not None
        if self.observer is not None:
            self.observer(self.hand_index, g, action)
        try:
            g.apply(action)
        except IllegalActionError as e:
            legal = [str(a) for s in g.to_move for a in g.legal_actions(s)]
            self.mismatch(_illegal_what(what), str(action),
                          Said(sentence("{error} (legal: {legal})", error=_said(e), legal=legal)))
            raise _Diverged from None
        self._collect()

    def _pass_all(self, except_seats: Iterable[int] = ()) -> None:
        """Every seat with a pending choice (call/ron window) passes, except ``except_seats``."""
        g = self.game
        assert g is not None
        skip = set(except_seats)
        while not g.done and len(g.to_move) and any(s not in skip for s in g.to_move) and self._window_open():
            seat = next(s for s in g.to_move if s not in skip)
            none = next((a for a in g.legal_actions(seat) if a.type == "none"), None)
            if none is None:
                return
            self._apply(none, "pass")

    def _window_open(self) -> bool:
        g = self.game
        assert g is not None
        return any(a.type == "none" for s in g.to_move for a in g.legal_actions(s))

    def _turn(self, seat: int, what: str) -> tuple[Action, ...]:
        """Pass every open window, then the legal actions of ``seat`` on its turn."""
        g = self.game
        assert g is not None
        self._pass_all()
        if g.done or g.to_move != (seat,):
            self.mismatch(Said(sentence("{action}: seat on turn", action=_action(what))), seat,
                          list(g.to_move) if not g.done else Said(sentence("the game is over")))
            raise _Diverged
        return g.legal_actions(seat)

    def _pop(self, queue: deque[_E], what: str) -> _E:
        if not queue:
            self._pass_all()
        if not queue:
            g = self.game
            assert g is not None
            state = Said(sentence("the hand is over") if self.results else
                         sentence("waiting for seats {seats}", seats=list(g.to_move)))
            self.mismatch(Said(sentence_c("action", "draw")) if what == "draw" else what,
                          Said(sentence("an engine event")), state)
            raise _Diverged
        return queue.popleft()

    # -- one record event ----------------------------------------------------------------------
    def event(self, e: ev.Event) -> None:
        """Play one record event (a kyoku's typed play events, :mod:`sanma.events`) on the engine."""
        if isinstance(e, ev.Tsumo):
            got = self._pop(self.draws, "draw")
            exp = {"actor": e.actor, "pai": ev.HIDDEN if e.pai is None else e.pai.mjai, "rinshan": e.rinshan}
            have = {"actor": got.actor, "pai": ev.HIDDEN if got.pai is None else got.pai.mjai, "rinshan": got.rinshan}
            if exp != have:
                self.mismatch(Said(sentence_c("action", "draw")), exp, have)  # a tile drawn: ツモ
                raise _Diverged
        elif isinstance(e, ev.Reach):
            self.reach = e  # the riichi is declared with the discard that follows
        elif isinstance(e, ev.ReachAccepted | ev.Dora):
            pass  # compared for the whole hand in leftovers(): their timing shows in the sticks and han
        elif isinstance(e, ev.Dahai):
            reach, self.reach = self.reach, None
            riichi = reach is not None and reach.actor == e.actor
            legal = self._turn(e.actor, "discard")
            kind: ActionType = ("open_reach" if reach is not None and reach.open else "reach") if riichi else "dahai"
            cands = [a for a in legal if a.type == kind and a.tile == e.pai]
            exact = [a for a in cands if a.tsumogiri == e.tsumogiri]
            if not (exact or cands):
                self._illegal(Action(kind, e.actor, e.pai, tsumogiri=e.tsumogiri), legal)
            self._apply((exact or cands)[0], "riichi" if riichi else "discard")
        elif isinstance(e, ev.Pon | ev.Daiminkan):
            call: ActionType = "pon" if isinstance(e, ev.Pon) else "daiminkan"
            self._respond(e.actor, lambda a: a.type == call and a.target == e.target
                          and a.tile is not None and a.tile.kind == e.pai.kind,
                          lambda a: Counter(a.consumed) == Counter(e.consumed),
                          Action(call, e.actor, e.pai, consumed=e.consumed, target=e.target))
        elif isinstance(e, ev.Kakan):
            legal = self._turn(e.actor, "kakan")
            cands = [a for a in legal if a.type == "kakan" and a.tile is not None and a.tile.kind == e.pai.kind]
            if not cands:
                self._illegal(Action("kakan", e.actor, e.pai), legal)
            self._apply(next((a for a in cands if a.tile == e.pai), cands[0]), "kakan")
        elif isinstance(e, ev.Ankan):
            legal = self._turn(e.actor, "ankan")
            cands = [a for a in legal if a.type == "ankan" and a.consumed[0].kind == e.consumed[0].kind]
            if not cands:
                self._illegal(Action("ankan", e.actor, consumed=e.consumed), legal)
            self._apply(cands[0], "ankan")
        elif isinstance(e, ev.Kita):
            legal = self._turn(e.actor, "kita")
            cands = [a for a in legal if a.type == "kita"]
            if not cands:
                self._illegal(Action("kita", e.actor, ev.NORTH_TILE), legal)
            self._apply(cands[0], "kita")
        elif isinstance(e, ev.Flower):
            flower = self._pop_result(ev.Flower)
            if flower.actor != e.actor or flower.pai != e.pai:
                self.mismatch(Said(sentence_c("action", "flower")), e.to_mjai(), flower.to_mjai())
        else:
            raise RecordError(sentence("{type} is not an event of a kyoku's play", type=e.TYPE))

    def _pop_result(self, what: type[_E]) -> _E:
        for i, r in enumerate(self.results):
            if isinstance(r, what):
                self.results.pop(i)
                return r
        self.mismatch(Said(sentence("{action}", action=_action(what.TYPE))), Said(sentence("an engine event")),
                      Said(sentence_c("value", "none")))
        raise _Diverged

    def _first(self, what: type[_E]) -> _E | None:
        """The engine's first result event of a type in this hand."""
        return next((r for r in self.results if isinstance(r, what)), None)

    def _illegal(self, action: Action, legal: Sequence[Action]) -> None:
        word = {"dahai": "discard", "reach": "riichi", "hora": "win", "ryukyoku": "nine-terminals abort"}
        self.mismatch(_illegal_what(word.get(action.type, action.type)), str(action),
                      Said(sentence("legal: {actions}", actions=[str(a) for a in legal])))
        raise _Diverged

    def _respond(self, seat: int, match: Callable[[Action], bool], exact: Callable[[Action], bool],
                 shown: Action) -> None:
        """``seat`` takes the offered tile (pon/kan/ron); every other open choice passes."""
        g = self.game
        assert g is not None
        self._pass_all(except_seats=(seat,))
        legal = g.legal_actions(seat)
        cands = [a for a in legal if match(a)]
        if not cands:
            self._illegal(shown, legal)
        self._apply(next((a for a in cands if exact(a)), cands[0]), shown.type)
        self._pass_all()

    # -- one kyoku -----------------------------------------------------------------------------
    def begin_hand(self) -> None:
        """Start looking at the engine's next hand (its events after the last end_kyoku)."""
        self.hand_over = False
        self.reach = None
        self.results.clear()
        self.draws.clear()
        self.doras.clear()
        self.reaches.clear()
        self._collect()

    def start_matches(self, k: KyokuRecord, lap: int) -> bool:
        """The engine's hand starts with the recorded round (and its lap), dealer, honba, sticks and scores."""
        g = self.game
        assert g is not None
        start = self._first(ev.StartKyoku)
        if start is None:
            self.mismatch(Said(sentence("next hand")), k.label,
                          Said(sentence("the engine ended the game") if g.done else sentence("no new hand")))
            return False
        exp = {"round": k.round_wind, "lap": lap, "dealer": k.dealer, "honba": k.honba, "kyotaku": k.kyotaku,
               "scores": list(k.start_scores)}
        have = {"round": start.bakaze, "lap": g.round_index, "dealer": start.oya, "honba": start.honba,
                "kyotaku": start.kyotaku, "scores": list(start.scores)}
        if exp != have:
            self.mismatch(Said(sentence("hand start")), exp, have)
            return False
        self.results.remove(start)
        return True

    def results_of(self, k: KyokuRecord, index: int) -> None:
        g = self.game
        assert g is not None
        wins = k.wins
        if wins:
            honba, sticks = g.honba, g.kyotaku
            kita = [g.seats[s].kita for s in range(3)]
            if wins[0].tsumo:
                w = wins[0]
                legal = self._turn(w.seat, "tsumo")
                cands = [a for a in legal if a.type == "hora"]
                if not cands:
                    self._illegal(Action("hora", w.seat, Tile.parse(w.win), target=w.seat), legal)
                self._apply(cands[0], "tsumo")
            else:
                self._pass_all(except_seats=[w.seat for w in wins])
                for w in wins:
                    legal = g.legal_actions(w.seat)
                    cands = [a for a in legal if a.type == "hora" and a.target == w.from_seat]
                    if not cands:
                        self._illegal(Action("hora", w.seat, Tile.parse(w.win), target=w.from_seat), legal)
                    self._apply(cands[0], "ron")
                self._pass_all()
            horas = [r for r in self.results if isinstance(r, ev.Hora)]
            if [h.actor for h in horas] != [w.seat for w in wins]:
                self.mismatch(Said(sentence("winners")), [w.seat for w in wins], [h.actor for h in horas])
            for i, (w, h) in enumerate(zip(wins, horas, strict=False)):
                # every winner's record names the hand's honba (Tenhou's AGARI ba repeats it for the
                # second winner of a double ron, who is paid none under P89): the honba paid shows
                # in the payments; the sticks go to the first winner only (P89)
                self.compare_win(w, h, honba, sticks if i == 0 else 0, kita[w.seat])
        else:
            for r in k.results:
                assert isinstance(r, DrawResult)
                self.draw_result(r)
        self.leftovers(k)

    def leftovers(self, k: KyokuRecord) -> None:
        """Accepted riichi and kan dora of the hand, in order; no draw the record does not have."""
        exp_r = [e.actor for e in k.events if isinstance(e, ev.ReachAccepted)]
        got_r = [e.actor for e in self.reaches]
        if exp_r != got_r:
            self.mismatch(Said(sentence("riichi accepted (seats)")), exp_r, got_r)
        # mjlog and mjai show each kan dora as an event; tenhou.net/6 only lists the indicators
        exp_d = [e.marker.mjai for e in k.events if isinstance(e, ev.Dora)] or \
            [t.mjai for t in k.dora_indicators[k.initial_indicators:]]
        got_d = [e.marker.mjai for e in self.doras]
        if exp_d != got_d:
            self.mismatch(Said(sentence("kan dora indicators")), exp_d, got_d)
        if self.draws:
            self.mismatch(Said(sentence("extra engine draw")), None, self.draws[0].to_mjai())
        self.draws.clear()
        self.doras.clear()
        self.reaches.clear()

    def draw_result(self, r: DrawResult) -> None:
        g = self.game
        assert g is not None
        reason = _REASON_OF_DRAW.get(r.kind, r.kind)
        if reason == "chombo":
            self.chombo_result(r)
            return
        if reason == "kyuushu":
            self._pass_all()
            seat = g.to_move[0] if len(g.to_move) == 1 else -1
            legal = self._turn(seat, "kyuushu")
            cands = [a for a in legal if a.type == "ryukyoku"]
            if not cands:
                self._illegal(Action("ryukyoku", seat), legal)
            self._apply(cands[0], "kyuushu")
        else:
            self._pass_all()
        ryu = [x for x in self.results if isinstance(x, ev.Ryukyoku)]
        if not ryu:
            nxt = self.draws[0].to_mjai() if self.draws else (self.results[0].to_mjai() if self.results else "nothing")
            self.mismatch(Said(sentence_c("result", "draw")), r.kind,  # a drawn hand: 流局
                          Said(sentence("the hand goes on: {next}", next=nxt)))
            self.draws.clear()
            raise _Diverged
        e = ryu[0]
        if e.reason != reason and not (r.kind == "nagashi" and e.reason == "nagashi"):
            self.mismatch(Said(sentence("draw kind")), reason, e.reason)
        end = self._first(ev.EndKyoku)
        deltas = list(e.deltas or (end.deltas if end is not None else None) or [0, 0, 0])
        if list(r.deltas) != deltas:
            self.mismatch(Said(sentence("draw payments")), list(r.deltas), deltas)
        if r.tenpai and e.tenpai is not None and sorted(r.tenpai) != sorted(e.tenpai):
            self.mismatch(Said(sentence("tenpai seats")), sorted(r.tenpai), sorted(e.tenpai))

    def chombo_result(self, r: DrawResult) -> None:
        """A hand voided by a chombo (sanma's engine, P80-P102): revealed by the offender's own win
        (the record has no win then: take the one the engine offers the offender) or by the draw."""
        g = self.game
        assert g is not None
        wins = [a for s in g.to_move for a in g.legal_actions(s) if a.type == "hora" and g.seats[s].violation]
        for a in wins:
            self._apply(a, "win revealing a chombo")
        self._pass_all()
        if self._first(ev.Chombo) is None:
            self.mismatch(Said(sentence_c("result", "chombo")), Said(sentence("a chombo")),
                          Said(sentence("the hand goes on")))
            self.draws.clear()
            raise _Diverged
        end = self._first(ev.EndKyoku)
        deltas = list((end.deltas if end is not None else None) or [0, 0, 0])
        if list(r.deltas) != deltas:
            self.mismatch(Said(sentence("chombo payments")), list(r.deltas), deltas)

    def compare_win(self, w: RecordedWin, h: ev.Hora, honba: int, sticks: int, kita: int) -> None:
        if h.target != w.from_seat:
            self.mismatch(Said(sentence("seat {seat} wins from", seat=w.seat)), w.from_seat, h.target)

        def who(what: str) -> Said:
            return _seat_what(w.seat, what)

        if w.scored:  # a standard mjai hora holds no han, fu, yaku or limit: compare only what it holds
            yakuman = w.yakuman or (1 if w.kazoe else 0)
            if h.yakuman != yakuman:
                self.mismatch(who("yakuman"), yakuman, h.yakuman)
            if w.yakuman:
                exp_y: dict[str, int] = dict(Counter({n: m for n, m in w.yaku}))
                got_y = {y.name: y.yakuman for y in h.yaku if y.yakuman}
            else:
                exp_y = _yaku_table(list(w.yaku), self.fold_kita)
                got_y = _yaku_table([(y.name, y.han) for y in h.yaku], self.fold_kita)
                if h.han != w.han:
                    self.mismatch(who("han"), w.han, h.han)
                if w.fu is not None and h.fu != w.fu:
                    self.mismatch(who("fu"), w.fu, h.fu)
            if exp_y != got_y:
                self.mismatch(who("yaku"), exp_y, got_y)
            if w.limit != h.limit:
                self.mismatch(who("limit"), w.limit, h.limit)
        if w.points and w.points != h.points:
            self.mismatch(who("points"), w.points, h.points)
        if list(w.deltas) != list(h.deltas):
            diff = [g - e for e, g in zip(w.deltas, h.deltas, strict=False)]
            stick_only = len(diff) == 3 and diff[w.seat] > 0 and diff[w.seat] % self.rules.riichi_deposit == 0 \
                and all(d == 0 for i, d in enumerate(diff) if i != w.seat)
            if stick_only:
                # Possibly a record whose payments leave out riichi sticks its own scores include:
                # decided at the end of the game, against the record's final scores.
                self.stick_anomalies.append(Mismatch(self.rec.source, self.label, who("payments"),
                                                     list(w.deltas), list(h.deltas), self.at))
            else:
                self.mismatch(who("payments"), list(w.deltas), list(h.deltas))
        if w.honba != honba:
            self.mismatch(who("honba"), w.honba, honba)
        if w.kyotaku != sticks:
            self.mismatch(who("riichi sticks"), w.kyotaku, sticks)
        if w.kita != kita:
            self.mismatch(who("kita"), w.kita, kita)

    # -- the whole record ----------------------------------------------------------------------
    def _label(self, i: int) -> str:
        return hand_label(self.rules, self.rec.kyoku[i], self.laps[i])

    def run(self) -> GameReplay:
        rec = self.rec
        out = self.out
        for err in rec.errors:
            out.mismatches.append(Mismatch(rec.source, "record", "read", "a readable record", err))
        out.kyoku = len(rec.kyoku)
        fresh = True
        for i, k in enumerate(rec.kyoku):
            self.hand_index = i
            self.label = self._label(i)
            self.bad = False
            self.at = Said(sentence_c("hand", "start"))
            try:
                if not fresh:
                    self.begin_hand()
                    fresh = not self.start_matches(k, self.laps[i])
                if fresh:
                    self._new_game(i)
                    self.begin_hand()
                    if not self.start_matches(k, self.laps[i]):
                        raise _Diverged
                self.wall_index = i + 1  # the engine may deal the next hand inside the last action
                self._observe(i, None)
                for n, e in enumerate(k.events, 1):
                    self.at = Said(sentence("event {n} of {total}", n=n, total=len(k.events)))
                    self.event(e)
                    self._observe(i, e)
                self.at = Said(sentence_c("hand", "result"))
                self.results_of(k, i)
                fresh = False
            except _Diverged:
                fresh = True
            except SanmaError as e:  # an engine error other than an illegal action
                self.mismatch(Said(sentence("engine error")), Said(sentence("no error")),
                              Said(sentence("{kind}: {error}", kind=type(e).__name__, error=_said(e))))
                fresh = True
            if not self.bad:
                out.matched += 1
        if not fresh:
            self.end_of_game()
            if self.games_started == 1 and self.game is not None:
                out.events = list(self.game.events)
        if self.stick_anomalies:  # not explained by the record's final scores: real mismatches
            out.mismatches.extend(self.stick_anomalies)
            out.matched -= len({m.kyoku for m in self.stick_anomalies})
        return out

    def _observe(self, hand: int, e: Any) -> None:
        if self.on_step is not None and self.game is not None:
            self.on_step(self.game, hand, e, self.out)

    def end_of_game(self) -> None:
        rec, g = self.rec, self.game
        assert g is not None
        self.label = "end"
        last = rec.kyoku[-1]
        self.hand_over = False
        self._collect()
        if not rec.complete:  # an excerpt: the scores after its last hand
            end = self._first(ev.EndKyoku)
            if rec.final_scores is not None and end is not None and end.scores is not None \
                    and list(end.scores) != list(rec.final_scores):
                self.mismatch(Said(sentence("scores after the last hand")), list(rec.final_scores),
                              list(end.scores), kyoku="end")
            return
        end_game = self._first(ev.EndGame)
        if end_game is None:
            nxt = self._first(ev.StartKyoku)
            got = Said(sentence("the engine plays on: {hand}",
                                hand=label_words(f"{nxt.bakaze}{nxt.oya + 1}-{nxt.honba}")) if nxt
                       else sentence("no end"))
            self.mismatch(Said(sentence("game end")),
                          Said(sentence("the game ends after {hand}", hand=label_words(last.label))), got, kyoku="end")
            return
        if rec.final_scores is not None and list(end_game.scores) != list(rec.final_scores):
            self.mismatch(Said(sentence("final scores")), list(rec.final_scores), list(end_game.scores), kyoku="end")
        elif rec.final_scores is not None:
            # The record's own final scores agree with the engine: payments that differed only by
            # riichi sticks paid to the winner were a slip of the record, not of the engine.
            for m in self.stick_anomalies:
                self.out.notes.append(Said(sentence(
                    "record anomaly in {hand}: its {what} {expected} leave out riichi sticks that its own final "
                    "scores include; the engine paid {got}", hand=label_words(m.kyoku), what=m.what,
                    expected=m.expected, got=m.got)))
            self.stick_anomalies.clear()
        if rec.final_points is not None and list(end_game.points or ()) != [float(p) for p in rec.final_points]:
            self.mismatch(Said(sentence("final points")), list(rec.final_points), list(end_game.points or ()),
                          kyoku="end")


def _said(e: BaseException) -> Said | str:
    """An error as a mismatch's value: its sentence kept when it has one (said in the reader's words)."""
    message = getattr(e, "message", None)
    return Said(message) if isinstance(message, Message) else str(e)


def _action(what: str) -> Keyword | Message:
    """An action a mismatch names: the English word the report has always used (``discard``,
    ``kakan``, ``pass``), the vocabulary's name in Japanese (打牌, 加槓, スキップ)."""
    if what == "win revealing a chombo":
        return sentence("win revealing a chombo")
    if what == "nine-terminals abort":
        return sentence("nine-terminals abort")
    if what == "win":
        return sentence_c("action", "win")
    return Keyword("call", what)


def _illegal_what(what: str) -> Said:
    return Said(sentence("illegal {action}", action=_action(what)))


def _seat_what(seat: int, what: str) -> Said:
    """``seat 1 han`` ...: the value of a seat's win a mismatch names."""
    words = {
        "yakuman": sentence("seat {seat} yakuman", seat=seat), "han": sentence("seat {seat} han", seat=seat),
        "fu": sentence("seat {seat} fu", seat=seat), "yaku": sentence("seat {seat} yaku", seat=seat),
        "limit": sentence("seat {seat} limit", seat=seat), "points": sentence("seat {seat} points", seat=seat),
        "payments": sentence("seat {seat} payments", seat=seat), "honba": sentence("seat {seat} honba", seat=seat),
        "riichi sticks": sentence("seat {seat} riichi sticks", seat=seat),
        "kita": sentence("seat {seat} kita", seat=seat),
    }
    return Said(words[what])


def _yaku_table(pairs: list[tuple[str, int]], fold_kita: bool) -> dict[str, int]:
    """name -> han, zero-han dora lines dropped; kita folded into dora for Tenhou (P16)."""
    total: Counter[str] = Counter()
    for name, han in pairs:
        if fold_kita and name == "kita_dora":
            name = "dora"
        total[name] += han
    return {n: h for n, h in total.items() if h or n not in DORA_NAMES}


# --------------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------------


def replay_record(record: GameRecord, rules: Rules | None = None, *, observer: Observer | None = None,
                  on_step: StepObserver | None = None) -> GameReplay:
    """Replay one record through the engine (see the module doc); ``rules`` default: :func:`rules_for`;
    ``observer`` sees the game before each action (:data:`Observer`), ``on_step`` the engine after
    each deal and each record event (:data:`StepObserver`).

    Where the record states no game length (:func:`stated_length`) and no rules are given, it is
    replayed as a game of the rules' length (East and South) and as an East-only one: the first
    whose flow the record's hands fit, every hand and the end, is the replay (a note says which);
    when none fits, the one with the fewest mismatches is reported. The observers see only that one."""
    if rules is not None:
        return _Replayer(record, rules, [], observer, on_step).run()
    rules, notes = rules_for(record)
    if stated_length(record) is not None:
        return _Replayer(record, rules, notes, observer, on_step).run()
    tried = {winds: _Replayer(record, dataclasses.replace(rules, round_winds=winds), list(notes)).run()
             for winds in dict.fromkeys((rules.round_winds, "E"))}
    fit = [winds for winds, result in tried.items() if result.ok]
    winds = fit[0] if fit else min(tried, key=lambda w: len(tried[w].mismatches))
    result = tried[winds]
    if observer is not None or on_step is not None:  # the chosen length again, seen this time
        result = _Replayer(record, dataclasses.replace(rules, round_winds=winds), list(notes), observer,
                           on_step).run()
    how = (sentence("which its hands fit") if len(fit) == 1 else
           sentence("its hands fit every length (the game ended before its length mattered)") if fit and
           record.complete else sentence("its hands fit every length (an excerpt)") if fit else
           sentence("the closest: no length fits its hands"))
    result.notes.insert(len(notes), Said(sentence(
        "the record does not state its game's length ({name}): replayed with round_winds = {winds!r}, {how}",
        name=record.rule_name or sentence("no rule name"), winds=winds, how=how)))
    return result


def replay_files(paths: Iterable[str | Path], rules: Rules | None = None) -> ReplayReport:
    """Read and replay every file; unreadable files count as one game with one mismatch."""
    report = ReplayReport()
    for path in paths:
        record = read_record(path)
        report.replays.append(replay_record(record, rules))
    return report
