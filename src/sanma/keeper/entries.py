"""What people enter at the table: one hand's outcome, a penalty, a seating, a final score.

An entry is stored as a small JSON object (the log keeps it verbatim) and read back through
:func:`parse_entry`, which checks its shape strictly — every name, number and list — and raises
:class:`KeeperError` naming the field. Whether a named person is at the table, who the dealer
is and what the rules allow are checked later, against the game the entry falls into
(:mod:`sanma.keeper.keeper`).

>>> e = parse_entry({"kind": "win", "from": "B", "wins": [{"winner": "A", "han": 3, "fu": 40}]})
>>> e.wins[0].value, e.discarder
(WinValue(han=3, fu=40, yakuman=0, yaku=(), ura=0, ippatsu=False, closed=False, chip_flowers=0), 'B')
>>> parse_entry({"kind": "win", "wins": [{"winner": "A", "han": 2, "fu": 27}]})
Traceback (most recent call last):
...
sanma.keeper.entries.KeeperError: win by A: fu 27 does not exist (fu are 20, 25, 30, 40, ... 110)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import SanmaError
from ..i18n import Message, sentence
from ..i18n.messages import Keyword

MAX_NAME = 40
MAX_PEOPLE = 4
FU_VALUES = (20, 25, *range(30, 120, 10))
#: The winning tile of a hand given by its tiles when it went into the hand before the win was shown
#: (引きヅモ): scored as the lowest shape where the rules say so (P129, ``Rules.mixed_win_tile``).
MIXED = "mixed"

#: Abortive draws (P92-P95): the kinds a person may enter.
ABORT_KINDS = ("kyuushu", "three_winds", "four_kans", "all_riichi", "riichi_bust")
#: Mistakes at the table (P102-P106, §5.5); what each costs is a field of the rules.
PENALTY_KINDS = ("false_call", "wrong_call", "false_win", "false_win_voice", "short_hand", "long_hand",
                 "wall_collapse", "riichi_voice", "riichi_cancelled", "riichi_late", "free")
#: Score-calculator flags a tile entry may set (the flags of ``sanma score``).
TILE_FLAGS = ("double_riichi", "open_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "kanburi",
              "tenhou", "chiihou", "renhou", "open_riichi_deal_in")


class KeeperError(SanmaError):
    """An entry or a command the score keeper refuses; the message says what and where."""

    code_of_class = "keeper"


class EntryConflict(KeeperError):
    """An entry made on a form opened at an older version of the session that would store a hand
    twice, or correct an entry someone else changed meanwhile (issue 19 item 1). ``conflict``
    names the entry in the way: its number, hand, summary, who entered it and when."""

    code_of_class = "keeper.conflict"

    def __init__(self, message: str | Message, conflict: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.conflict = dict(conflict)


#: The entry kinds that are a hand's result and close the hand in play (a chombo, a penalty or a
#: seating does not): a second result for one hand is refused (issue 19 item 1).
RESULT_KINDS = ("win", "draw", "abort", "final")


#: where in an entry a bad value is: a sentence ("win by {who}: han"), or a field's key (:func:`entry_field`)
Where = Message | Keyword | str


def entry_field(key: str) -> Keyword:
    """An entry's kind or field named in an error (``riichi: ...``): the JSON key in English, its name
    (the vocabulary's ``field`` terms) in another language."""
    return Keyword("field", key)


def _name(v: Any, where: Where) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > MAX_NAME or any(c in v for c in ",\n\r\t\x00"):
        raise KeeperError(sentence("{where}: {value!r} is not a person's name (1-{limit} characters, no commas)",
                                   where=where, value=v, limit=MAX_NAME))
    return v.strip()


def _names(v: Any, where: Where) -> tuple[str, ...]:
    if v is None:
        return ()
    if not isinstance(v, list | tuple) or len(v) > MAX_PEOPLE:
        raise KeeperError(sentence("{where}: expected a list of at most {limit} names, got {value!r}", where=where,
                                   limit=MAX_PEOPLE, value=v))
    out = tuple(_name(x, where) for x in v)
    if len(set(out)) != len(out):
        raise KeeperError(sentence("{where}: {names} names someone twice", where=where, names=", ".join(out)))
    return out


def _int(v: Any, where: Where, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise KeeperError(sentence("{where}: {value!r} is not a whole number from {lo} to {hi}", where=where, value=v,
                                   lo=lo, hi=hi))
    return v


def _text(v: Any, where: Where, limit: int = 500) -> str:
    if v is None:
        return ""
    if not isinstance(v, str) or len(v) > limit or "\x00" in v:
        raise KeeperError(sentence("{where}: expected text of at most {limit} characters", where=where, limit=limit))
    return v


def _tiles(v: Any, where: Where) -> str:
    if not isinstance(v, str) or not 1 <= len(v) <= 60 or not all(c.isalnum() for c in v):
        raise KeeperError(sentence("{where}: {value!r} is not mpsz tiles (e.g. 123p456s99m)", where=where, value=v))
    return v


def _win_tile(v: Any, where: Where) -> str:
    return MIXED if v == MIXED else _tiles(v, where)


def _only(d: Mapping[str, Any], allowed: Sequence[str], where: Where) -> None:
    extra = sorted(set(d) - set(allowed))
    if extra:
        raise KeeperError(sentence("{where}: unknown field(s) {names}; valid: {choices}", where=where,
                                   names=", ".join(extra), choices=", ".join(allowed)))


@dataclass(frozen=True, slots=True)
class WinTiles:
    """A win given by its tiles: scored by ``sanma.score_hand`` with the situation flags; the seat
    winds, honba and sticks come from the kept game."""

    hand: str
    win: str
    melds: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    dora: tuple[str, ...] = ()
    ura: tuple[str, ...] = ()
    kita: int = 0
    flowers: int = 0
    chip_flowers: int = 0


@dataclass(frozen=True, slots=True)
class WinValue:
    """A win given by its value: han and fu, or a yakuman multiplier; the yaku that earn chips
    (``chinitsu``, ``junchan``, ``chinroutou``, ``ippatsu`` …), ura dora han and whether the hand was
    closed, so the chip rules (P114-P119) can be applied as to a scored hand."""

    han: int = 0
    fu: int = 0
    yakuman: int = 0
    yaku: tuple[str, ...] = ()
    ura: int = 0
    ippatsu: bool = False
    closed: bool = False
    chip_flowers: int = 0


@dataclass(frozen=True, slots=True)
class Winner:
    winner: str
    tiles: WinTiles | None = None
    value: WinValue | None = None


@dataclass(frozen=True, slots=True)
class WinEntry:
    """Ron (``discarder`` set; two winners = double ron) or tsumo; riichi declared this hand; pao."""

    wins: tuple[Winner, ...]
    discarder: str | None = None
    riichi: tuple[str, ...] = ()
    pao: str | None = None
    kind: str = "win"


@dataclass(frozen=True, slots=True)
class DrawEntry:
    """An exhaustive draw: who was tenpai, who declared riichi, who made nagashi."""

    tenpai: tuple[str, ...] = ()
    riichi: tuple[str, ...] = ()
    nagashi: tuple[str, ...] = ()
    kind: str = "draw"


@dataclass(frozen=True, slots=True)
class AbortEntry:
    abort: str
    riichi: tuple[str, ...] = ()
    kind: str = "abort"


@dataclass(frozen=True, slots=True)
class ChomboEntry:
    """A chombo (P100-P102); ``who`` names every offender found in the same hand (e.g. two noten
    riichi shown at the draw)."""

    who: tuple[str, ...]
    reason: str = ""
    kind: str = "chombo"


@dataclass(frozen=True, slots=True)
class PenaltyEntry:
    """A mistake at the table (``penalty`` one of :data:`PENALTY_KINDS`); ``free`` takes its points
    and chips from the entry (a penalty "decided at the table", P106), the others from the rules."""

    who: str
    penalty: str
    reason: str = ""
    points: int = 0
    chips: int = 0
    kind: str = "penalty"


@dataclass(frozen=True, slots=True)
class SeatingEntry:
    """Before a game: a new seat draw (E, S, W[, N] drawers) and/or the first dealer the dice chose."""

    draw: tuple[str, ...] = ()
    dealer: str | None = None
    kind: str = "seating"


@dataclass(frozen=True, slots=True)
class FinalEntry:
    """A whole game by its final scores only ("final scores only" mode): the scores on the table at
    the end, the chips won, and what final scores cannot show — riichi sticks left on the table
    (P31: under seed 002 L31 nobody takes them, so the scores add up to less), each person's
    chombos (P100: seed 002 L81's △20 at the end) and who busted whom (P110: seed 002 L33's ±10)."""

    scores: tuple[tuple[str, int], ...]
    chips: tuple[tuple[str, int], ...] = ()
    sticks: int = 0
    chombos: tuple[tuple[str, int], ...] = ()
    busted: tuple[str, ...] = ()
    busters: tuple[str, ...] = ()
    kind: str = "final"


@dataclass(frozen=True, slots=True)
class RenameEntry:
    """A person's name corrected (a misspelling at ``new``): ``old`` is ``new`` in the whole
    session, every entry before and after included; undone like any entry."""

    old: str
    new: str
    kind: str = "rename"


@dataclass(frozen=True, slots=True)
class TimeUpEntry:
    """The round's time is up (a tournament's clock, or the referee): the hand in play is the
    game's last. Not a result: the hand goes on to its result, and the game ends with it."""

    kind: str = "time_up"


Entry = (WinEntry | DrawEntry | AbortEntry | ChomboEntry | PenaltyEntry | SeatingEntry | FinalEntry | RenameEntry
         | TimeUpEntry)


def rename_names(raw: Mapping[str, Any], names: Mapping[str, str]) -> Mapping[str, Any]:
    """``raw`` (a stored entry) with every person it names renamed by ``names`` (old → new); the
    entry unchanged when it names nobody renamed. A rename entry itself is left as it is."""
    if not names or raw.get("kind") == "rename":
        return raw

    def one(v: Any) -> Any:
        return names.get(v, v) if isinstance(v, str) else v

    def many(v: Any) -> Any:
        return [one(x) for x in v] if isinstance(v, list | tuple) else one(v)

    def keys(v: Any) -> Any:
        return {one(k): x for k, x in v.items()} if isinstance(v, Mapping) else v

    out = dict(raw)
    for k in ("from", "pao", "dealer", "who"):
        if k in out:
            out[k] = many(out[k])
    for k in ("riichi", "tenpai", "nagashi", "draw", "busted", "busters"):
        if k in out:
            out[k] = many(out[k])
    for k in ("scores", "chips", "chombos"):
        if k in out:
            out[k] = keys(out[k])
    if isinstance(out.get("wins"), list):
        out["wins"] = [{**w, "winner": one(w.get("winner"))} if isinstance(w, Mapping) else w for w in out["wins"]]
    return out


def _winner(d: Any, where: Where) -> Winner:
    if not isinstance(d, Mapping):
        raise KeeperError(sentence("{where}: expected an object per winner", where=where))
    _only(d, ("winner", "hand", "win", "melds", "flags", "dora", "ura", "kita", "flowers", "han", "fu",
              "yakuman", "yaku", "ura_han", "ippatsu", "closed", "chip_flowers"), where)
    who = _name(d.get("winner"), sentence("{where}: winner", where=where))
    where = sentence("win by {who}", who=who)
    if "hand" in d:
        if any(k in d for k in ("han", "fu", "yakuman", "yaku", "closed")):
            raise KeeperError(sentence("{where}: give the hand by its tiles or by han/fu, not both", where=where))
        flags = tuple(_text(f, sentence("{where}: flag", where=where), 20) for f in d.get("flags") or ())
        for f in flags:
            if f not in TILE_FLAGS:
                raise KeeperError(sentence("{where}: unknown flag {name!r}; valid: {choices}", where=where, name=f,
                                           choices=", ".join(TILE_FLAGS)))
        melds = tuple(_text(m, sentence("{where}: meld", where=where), 20) for m in d.get("melds") or ())
        if len(melds) > 4:
            raise KeeperError(sentence("{where}: at most four melds", where=where))
        inds = [tuple(_tiles(t, sentence("{where}: dora indicator", where=where) if k == "dora" else
                             sentence("{where}: ura indicator", where=where)) for t in d.get(k) or ())
                for k in ("dora", "ura")]
        if any(len(x) > 10 for x in inds):
            raise KeeperError(sentence("{where}: at most 10 dora / ura indicators", where=where))
        return Winner(who, tiles=WinTiles(
            _tiles(d["hand"], sentence("{where}: hand", where=where)),
            _win_tile(d.get("win"), sentence("{where}: winning tile", where=where)), melds, flags,
            inds[0], inds[1], _int(d.get("kita", 0), sentence("{where}: kita", where=where), 0, 4),
            _int(d.get("flowers", 0), sentence("{where}: flowers", where=where), 0, 8),
            _int(d.get("chip_flowers", 0), sentence("{where}: chip flowers", where=where), 0, 4)))
    yakuman = _int(d.get("yakuman", 0), sentence("{where}: yakuman", where=where), 0, 6)
    han = _int(d.get("han", 0), sentence("{where}: han", where=where), 0, 100)
    fu = d.get("fu", 0)
    if yakuman == 0:
        if han == 0:
            raise KeeperError(sentence("{where}: han 0 is not a win (give --han 1 or more, or --yakuman N)",
                                       where=where))
        if fu not in (0, *FU_VALUES):  # 0: not given (from mangan on, or the rules' fixed fu, P52)
            raise KeeperError(sentence("{where}: fu {fu!r} does not exist (fu are 20, 25, 30, 40, ... 110)",
                                       where=where, fu=fu))
    elif han or fu:
        raise KeeperError(sentence("{where}: a yakuman is given by --yakuman N alone, without han or fu",
                                   where=where))
    yaku = tuple(_text(y, sentence("{where}: yaku", where=where), 30) for y in d.get("yaku") or ())
    return Winner(who, value=WinValue(han, int(fu), yakuman, yaku,
                                      _int(d.get("ura_han", 0), sentence("{where}: ura han", where=where), 0, 30),
                                      bool(d.get("ippatsu", False)), bool(d.get("closed", False)),
                                      _int(d.get("chip_flowers", 0), sentence("{where}: chip flowers", where=where),
                                           0, 4)))


def parse_entry(d: Any) -> Entry:
    """The typed entry of a stored or submitted JSON object; :class:`KeeperError` if malformed."""
    if not isinstance(d, Mapping):
        raise KeeperError(sentence("an entry must be a JSON object, not {type}", type=type(d).__name__))
    kind = d.get("kind")
    if kind == "win":
        _only(d, ("kind", "wins", "from", "riichi", "pao"), entry_field("win"))
        wins = d.get("wins")
        if not isinstance(wins, list | tuple) or not 1 <= len(wins) <= 2:
            raise KeeperError(sentence("win: give one winner, or two for a double ron"))
        ws = tuple(_winner(w, entry_field("win")) for w in wins)
        frm = None if d.get("from") is None else _name(d["from"], sentence("ron: from"))
        if len(ws) == 2 and frm is None:
            raise KeeperError(sentence("win: two winners are a double ron: say who dealt in (--from)"))
        if len({w.winner for w in ws}) != len(ws):
            raise KeeperError(sentence("win: {who} is named twice as a winner", who=ws[0].winner))
        pao = None if d.get("pao") is None else _name(d["pao"], entry_field("pao"))
        return WinEntry(ws, frm, _names(d.get("riichi"), entry_field("riichi")), pao)
    if kind == "draw":
        _only(d, ("kind", "tenpai", "riichi", "nagashi"), entry_field("draw"))
        return DrawEntry(_names(d.get("tenpai"), entry_field("tenpai")), _names(d.get("riichi"), entry_field("riichi")),
                         _names(d.get("nagashi"), entry_field("nagashi")))
    if kind == "abort":
        _only(d, ("kind", "abort", "riichi"), entry_field("abort"))
        if d.get("abort") not in ABORT_KINDS:
            raise KeeperError(sentence("abort: kind {name!r} unknown; valid: {choices}", name=d.get("abort"),
                                       choices=", ".join(ABORT_KINDS)))
        return AbortEntry(str(d["abort"]), _names(d.get("riichi"), entry_field("riichi")))
    if kind == "chombo":
        _only(d, ("kind", "who", "reason"), entry_field("chombo"))
        who = d.get("who")
        names = _names(who if isinstance(who, list) else [who], sentence("chombo: who"))
        if not names:
            raise KeeperError(sentence("chombo: who committed it?"))
        return ChomboEntry(names, _text(d.get("reason"), sentence("chombo: reason")))
    if kind == "penalty":
        _only(d, ("kind", "who", "penalty", "reason", "points", "chips"), entry_field("penalty"))
        if d.get("penalty") not in PENALTY_KINDS:
            raise KeeperError(sentence("penalty: kind {name!r} unknown; valid: {choices}", name=d.get("penalty"),
                                       choices=", ".join(PENALTY_KINDS)))
        points = _int(d.get("points", 0), sentence("penalty: points"), -200000, 200000)
        chips = _int(d.get("chips", 0), sentence("penalty: chips"), -1000, 1000)
        if d["penalty"] != "free" and (points or chips):
            raise KeeperError(sentence("penalty: {kind} costs what the rules say; only a 'free' penalty takes "
                                       "--points / --chips", kind=Keyword("penalty", str(d["penalty"]))))
        if d["penalty"] == "free" and not (points or chips):
            raise KeeperError(sentence("penalty: a free penalty needs --points or --chips (what the table "
                                       "decided)"))
        return PenaltyEntry(_name(d.get("who"), sentence("penalty: who")), str(d["penalty"]),
                            _text(d.get("reason"), sentence("penalty: reason")), points, chips)
    if kind == "seating":
        _only(d, ("kind", "draw", "dealer"), entry_field("seating"))
        dealer = None if d.get("dealer") is None else _name(d["dealer"], sentence("seating: dealer"))
        draw = _names(d.get("draw"), sentence("seating: draw"))
        if not draw and dealer is None:
            raise KeeperError(sentence("seating: give a new seat draw (--draw) or the first dealer (--dealer)"))
        return SeatingEntry(draw, dealer)
    if kind == "final":
        _only(d, ("kind", "scores", "chips", "sticks", "chombos", "busted", "busters"), entry_field("final"))
        scores, chip_map, chombo_map = d.get("scores"), d.get("chips") or {}, d.get("chombos") or {}
        if not isinstance(scores, Mapping) or len(scores) != 3 or not isinstance(chip_map, Mapping):
            raise KeeperError(sentence("final: give the final score of each of the three players"))
        if not isinstance(chombo_map, Mapping):
            raise KeeperError(sentence("final: chombos are {{person: count}}"))
        player = sentence("final: player")
        sc = tuple((_name(k, player), _int(v, sentence("final: score of {name}", name=k), -10**6, 10**6))
                   for k, v in scores.items())
        ch = tuple((_name(k, player), _int(v, sentence("final: chips of {name}", name=k), -10**4, 10**4))
                   for k, v in chip_map.items())
        cb = tuple((_name(k, sentence("final: chombo")), _int(v, sentence("final: chombos of {name}", name=k), 0, 20))
                   for k, v in chombo_map.items() if v)
        busted = _names(d.get("busted"), sentence("final: busted"))
        busters = _names(d.get("busters"), sentence("final: bust by"))
        if busters and not busted:
            raise KeeperError(sentence("final: --bust-by names who caused a bust: say who busted (--bust P)"))
        if set(busted) & set(busters):
            raise KeeperError(sentence("final: {who} cannot bust themselves",
                                       who=", ".join(sorted(set(busted) & set(busters)))))
        return FinalEntry(sc, ch, _int(d.get("sticks", 0), sentence("final: sticks left on the table"), 0, 100), cb,
                          busted, busters)
    if kind == "time_up":
        _only(d, ("kind",), entry_field("time_up"))
        return TimeUpEntry()
    if kind == "rename":
        _only(d, ("kind", "from", "to"), entry_field("rename"))
        old, new = _name(d.get("from"), sentence("rename: from")), _name(d.get("to"), sentence("rename: to"))
        if old == new:
            raise KeeperError(sentence("rename: {old} is already called {new}", old=old, new=new))
        return RenameEntry(old, new)
    raise KeeperError(sentence("entry kind {name!r} unknown; valid: {choices}", name=kind,
                               choices="win, draw, abort, chombo, penalty, seating, final, rename, time_up"))
