"""sanma's event vocabulary: one typed, immutable value per mjai event, with its mjai form.

Every event the engine writes to ``Game.events`` is built here, and every part that reads or
writes events goes through these types: the record readers (``formats/``), the store
(``store/events.py`` converts any record into them), the writers and replay. ``to_mjai()`` is the
event's one mjai form (the dicts ``Game.events`` holds, key order included); :func:`parse_event`
(``Event.from_mjai``) is the strict reader of that form: a malformed event raises
:class:`EventError` naming the event and the field, and changes nothing.

The mjai form is sanma's: three seats, ``kita`` and ``flower`` events, the rule set named in
``start_game``, and the fields listed in docs/ARCHITECTURE.md ("sanma's mjai extensions").
The parser also reads what other mjai producers write for the same events (a ``kita`` without
``pai``, ``nukidora``, ``ura_markers`` for ``uradora_markers``, ``yaku`` as ``[name, han]``
pairs, ``hora_points`` for ``points``, a bare ``end_kyoku``); an absent optional field is
``None`` and is left out of ``to_mjai()``. Hidden tiles (``"?"``, a seat's view of another
seat's draw or deal) are ``None``.

>>> from sanma.tiles import Tile
>>> e = Dahai(1, Tile.parse("0p"), False)
>>> e.to_mjai()
{'type': 'dahai', 'actor': 1, 'pai': '5pr', 'tsumogiri': False}
>>> parse_event(e.to_mjai()) == e
True
>>> parse_event({"type": "dahai", "actor": 3, "pai": "5pr", "tsumogiri": False})
Traceback (most recent call last):
...
sanma.events.EventError: dahai event: actor 3 is not a seat 0..2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

from .errors import RecordError, TileError
from .i18n.messages import sentence
from .scoring import Yaku
from .tiles import NORTH, SEATS, Tile

HIDDEN: Final = "?"  # a tile another seat may not see (masked views)
NORTH_TILE: Final = Tile(NORTH)

#: Why a hand ended in ``ryukyoku`` (the engine's reasons; records' draw kinds map onto them).
DRAW_REASONS: Final = ("exhaustive", "nagashi", "kyuushu", "all_riichi", "sanfuu_renda", "suukaikan")
#: Records' names of draws (formats.record.DrawResult.kind) -> the engine's reasons; others are kept.
RECORD_DRAW_REASONS: Final = {
    "four_kans": "suukaikan", "four_winds": "sanfuu_renda", "four_riichi": "all_riichi",
    "ryuukyoku": "exhaustive", "yao9": "kyuushu", "kyushukyuhai": "kyuushu",
}
#: Why a riichi was a chombo (P80, P102).
CHOMBO_REASONS: Final = ("furiten_riichi", "noten_riichi", "shibari_riichi", "passed_win")

Scalar = str | int | float | bool


class EventError(RecordError):
    """An mjai event that is malformed: the message names the event type and the field."""


# --------------------------------------------------------------------------------------------
# Field readers: each names the event and the field it rejects.
# --------------------------------------------------------------------------------------------


def _where(d: dict[str, Any]) -> str:
    t = d.get("type")
    return f"{t} event" if isinstance(t, str) else "event"


def _int(d: dict[str, Any], key: str) -> int:
    if key not in d:
        raise EventError(sentence("{where}: missing {key!r}", where=_where(d), key=key))
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise EventError(sentence("{where}: {key} {v!r} is not an integer", where=_where(d), key=key, v=v))
    return v


def _opt_int(d: dict[str, Any], key: str) -> int | None:
    return None if d.get(key) is None else _int(d, key)


def _nonneg(d: dict[str, Any], key: str) -> int:
    v = _int(d, key)
    if v < 0:
        raise EventError(sentence("{where}: {key} {v} is negative", where=_where(d), key=key, v=v))
    return v


def _seat(d: dict[str, Any], key: str = "actor") -> int:
    v = _int(d, key)
    if not 0 <= v < SEATS:
        raise EventError(sentence("{where}: {key} {v} is not a seat 0..2", where=_where(d), key=key, v=v))
    return v


def _opt_seat(d: dict[str, Any], key: str) -> int | None:
    return None if d.get(key) is None else _seat(d, key)


def _str(d: dict[str, Any], key: str) -> str:
    v = d.get(key)
    if not isinstance(v, str):
        raise EventError(f"{_where(d)}: {key} {v!r} is not text" if key in d else f"{_where(d)}: missing {key!r}")
    return v


def _bool(d: dict[str, Any], key: str) -> bool:
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise EventError(sentence("{where}: {key} {v!r} is not true/false", where=_where(d), key=key, v=v))
    return v


def _list(d: dict[str, Any], key: str, n: int | None = None) -> list[Any]:
    v = d.get(key)
    if not isinstance(v, list):
        raise EventError(f"{_where(d)}: {key} {v!r} is not a list" if key in d else f"{_where(d)}: missing {key!r}")
    if n is not None and len(v) != n:
        hint = " (a 4-player record?)" if n == SEATS and len(v) == 4 else ""
        raise EventError(sentence("{where}: {key} has {n} entries, expected {n2}{hint}",
                                  where=_where(d), key=key, n=len(v), n2=n, hint=hint))
    return v


def _tile_of(d: dict[str, Any], key: str, v: Any) -> Tile:
    if not isinstance(v, str):
        raise EventError(sentence("{where}: {key} {v!r} is not a tile name", where=_where(d), key=key, v=v))
    try:
        return Tile.from_mjai(v)
    except TileError as e:
        raise EventError(sentence("{where}: {key}: {error}", where=_where(d), key=key, error=e)) from None


def _tile(d: dict[str, Any], key: str = "pai") -> Tile:
    if key not in d:
        raise EventError(sentence("{where}: missing {key!r}", where=_where(d), key=key))
    return _tile_of(d, key, d[key])


def _tiles(d: dict[str, Any], key: str, n: int | None = None) -> tuple[Tile, ...]:
    return tuple(_tile_of(d, key, x) for x in _list(d, key, n))


def _ints(d: dict[str, Any], key: str, n: int | None = SEATS) -> tuple[int, ...]:
    out = []
    for x in _list(d, key, n):
        if not isinstance(x, int) or isinstance(x, bool):
            raise EventError(sentence("{where}: {key} entry {x!r} is not an integer",
                                      where=_where(d), key=key, x=x))
        out.append(x)
    return tuple(out)


def _opt_ints(d: dict[str, Any], key: str) -> tuple[int, ...] | None:
    return None if d.get(key) is None else _ints(d, key)


def _seats(d: dict[str, Any], key: str) -> tuple[int, ...]:
    out = _ints(d, key, None)
    if any(not 0 <= s < SEATS for s in out) or len(set(out)) != len(out):
        raise EventError(sentence("{where}: {key} {out} are not distinct seats 0..2",
                                  where=_where(d), key=key, out=list(out)))
    return out


def _names(tiles: tuple[Tile, ...]) -> list[str]:
    return [t.mjai for t in tiles]


def _hidden_name(t: Tile | None) -> str:
    return HIDDEN if t is None else t.mjai


# --------------------------------------------------------------------------------------------
# The events
# --------------------------------------------------------------------------------------------


#: Events are immutable values, so the two a game is mostly made of — ~500 draws and ~500 discards,
#: each one of at most 3 seats x 41 tiles x 2 values — are shared: ``Tsumo.of`` / ``Dahai.of`` (the
#: engine, the masked views and the parser use them) give the one object of each value. A running
#: game's log then holds ~500 objects the garbage collector walks instead of ~1,500: at 1,000 served
#: tables a full collection walks ~1 million fewer (web/collector.py; docs/PERFORMANCE.md).
#: ``Tsumo(...)`` / ``Dahai(...)`` still make an equal, unshared event. The keys are seats and
#: interned tiles, so each dict holds at most a few hundred events.
_SHARED_TSUMO: Final[dict[tuple[int, Tile | None, bool], Tsumo]] = {}
_SHARED_DAHAI: Final[dict[tuple[int, Tile, bool], Dahai]] = {}


class Event:
    """One event of a game. Immutable (``Final`` attributes), compared by value."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""

    def to_mjai(self) -> dict[str, Any]:
        raise NotImplementedError  # pragma: no cover - every event defines it

    @staticmethod
    def from_mjai(d: Any) -> Event:
        """The typed event of an mjai dict (see :func:`parse_event`)."""
        return parse_event(d)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and type(self) is type(other) and self.to_mjai() == other.to_mjai()

    def __hash__(self) -> int:
        return hash(repr(self.to_mjai()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_mjai()!r})"

    def __copy__(self) -> Event:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Event:
        return self


class StartGame(Event):
    """``start_game``: the players, the rule set's name, the starting scores (``None``: not given);
    ``extra`` are further scalar fields (a record's rule flags, another engine's seed; sanma's engine writes
    no seed here, every seat receives this event), written
    before ``scores``."""

    __slots__ = ("extra", "names", "rules", "scores")
    TYPE: ClassVar[str] = "start_game"

    def __init__(self, names: tuple[str, ...] | None, rules: str, scores: tuple[int, ...] | None,
                 extra: tuple[tuple[str, Scalar], ...] = ()) -> None:
        self.names: Final = names
        self.rules: Final = rules
        self.scores: Final = scores
        self.extra: Final = extra

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "start_game"}
        if self.names is not None:
            d["names"] = list(self.names)
        d["rules"] = self.rules
        for k, v in self.extra:
            d[k] = v
        if self.scores is not None:
            d["scores"] = list(self.scores)
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> StartGame:
        names = tuple(_list(d, "names", SEATS)) if d.get("names") is not None else None
        if names is not None and any(not isinstance(n, str) for n in names):
            raise EventError(sentence("start_game event: names {names!r} are not text", names=list(names)))
        rules = _str(d, "rules") if "rules" in d else ""
        extra: list[tuple[str, Scalar]] = []
        for k, v in d.items():
            if k in ("type", "names", "rules", "scores"):
                continue
            if not isinstance(v, str | int | float | bool):
                raise EventError(sentence("start_game event: {k} {v!r} is not a text, number or true/false",
                                          k=k, v=v))
            extra.append((k, v))
        return StartGame(names, rules, _opt_ints(d, "scores"), tuple(extra))


class StartKyoku(Event):
    """``start_kyoku``: round wind, kyoku number, honba, sticks, dealer, the dora indicators
    turned at the deal (2 on doubles, P07), scores and the three hands (``None``: hidden)."""

    __slots__ = ("bakaze", "dora_markers", "honba", "kyoku", "kyotaku", "oya", "scores", "tehais")
    TYPE: ClassVar[str] = "start_kyoku"

    def __init__(self, bakaze: str, kyoku: int, honba: int, kyotaku: int, oya: int,
                 dora_markers: tuple[Tile, ...], scores: tuple[int, ...],
                 tehais: tuple[tuple[Tile | None, ...], ...]) -> None:
        self.bakaze: Final = bakaze
        self.kyoku: Final = kyoku
        self.honba: Final = honba
        self.kyotaku: Final = kyotaku
        self.oya: Final = oya
        self.dora_markers: Final = dora_markers
        self.scores: Final = scores
        self.tehais: Final = tehais

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "start_kyoku", "bakaze": self.bakaze, "kyoku": self.kyoku, "honba": self.honba,
                "kyotaku": self.kyotaku, "oya": self.oya, "dora_marker": self.dora_markers[0].mjai,
                "dora_markers": _names(self.dora_markers), "scores": list(self.scores),
                "tehais": [[_hidden_name(t) for t in h] for h in self.tehais]}

    @staticmethod
    def parse(d: dict[str, Any]) -> StartKyoku:
        bakaze = _str(d, "bakaze")
        if bakaze not in ("E", "S", "W", "N"):
            raise EventError(sentence("start_kyoku event: bakaze {bakaze!r} is not E/S/W/N", bakaze=bakaze))
        oya = _seat(d, "oya")
        markers = _tiles(d, "dora_markers") if d.get("dora_markers") else (_tile(d, "dora_marker"),)
        if "dora_marker" in d and _tile(d, "dora_marker") != markers[0]:
            raise EventError(sentence("start_kyoku event: dora_marker {d!r} is not dora_markers[0]",
                                      d=d['dora_marker']))
        hands: list[tuple[Tile | None, ...]] = []
        for s, h in enumerate(_list(d, "tehais", SEATS)):
            if not isinstance(h, list):
                raise EventError(sentence("start_kyoku event: tehais[{s}] {h!r} is not a list", s=s, h=h))
            hands.append(tuple(None if x == HIDDEN else _tile_of(d, f"tehais[{s}]", x) for x in h))
        return StartKyoku(bakaze, _int(d, "kyoku") if "kyoku" in d else oya + 1, _nonneg(d, "honba"),
                          _nonneg(d, "kyotaku"), oya, markers, _ints(d, "scores"), tuple(hands))


class Tsumo(Event):
    """``tsumo``: a draw (``pai`` None: hidden); ``rinshan`` for a replacement (kan, kita, flower)."""

    __slots__ = ("actor", "pai", "rinshan")
    TYPE: ClassVar[str] = "tsumo"

    def __init__(self, actor: int, pai: Tile | None, rinshan: bool = False) -> None:
        self.actor: Final = actor
        self.pai: Final = pai
        self.rinshan: Final = rinshan

    @staticmethod
    def of(actor: int, pai: Tile | None, rinshan: bool = False) -> Tsumo:
        """The one shared ``Tsumo`` of these values (see the comment above :class:`Event`); ``actor`` a seat."""
        key = (actor, pai, rinshan)
        e = _SHARED_TSUMO.get(key)
        if e is None:
            e = _SHARED_TSUMO[key] = Tsumo(actor, pai, rinshan)
        return e

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "tsumo", "actor": self.actor, "pai": _hidden_name(self.pai)}
        if self.rinshan:
            d["rinshan"] = True
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> Tsumo:
        return Tsumo.of(_seat(d), None if d.get("pai") == HIDDEN else _tile(d), _bool(d, "rinshan"))


class Dahai(Event):
    """``dahai``: a discard; ``tsumogiri`` when it is the tile just drawn."""

    __slots__ = ("actor", "pai", "tsumogiri")
    TYPE: ClassVar[str] = "dahai"

    def __init__(self, actor: int, pai: Tile, tsumogiri: bool) -> None:
        self.actor: Final = actor
        self.pai: Final = pai
        self.tsumogiri: Final = tsumogiri

    @staticmethod
    def of(actor: int, pai: Tile, tsumogiri: bool) -> Dahai:
        """The one shared ``Dahai`` of these values (see the comment above :class:`Event`); ``actor`` a seat."""
        key = (actor, pai, tsumogiri)
        e = _SHARED_DAHAI.get(key)
        if e is None:
            e = _SHARED_DAHAI[key] = Dahai(actor, pai, tsumogiri)
        return e

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "dahai", "actor": self.actor, "pai": self.pai.mjai, "tsumogiri": self.tsumogiri}

    @staticmethod
    def parse(d: dict[str, Any]) -> Dahai:
        return Dahai.of(_seat(d), _tile(d), _bool(d, "tsumogiri"))


class Call(Event):
    """A call on a discard: seat ``actor`` takes ``pai`` discarded by ``target`` with tiles of its hand."""

    __slots__ = ("actor", "consumed", "pai", "target")
    TYPE: ClassVar[str] = ""

    def __init__(self, actor: int, target: int, pai: Tile, consumed: tuple[Tile, ...]) -> None:
        self.actor: Final = actor
        self.target: Final = target
        self.pai: Final = pai
        self.consumed: Final = consumed

    def to_mjai(self) -> dict[str, Any]:
        return {"type": self.TYPE, "actor": self.actor, "target": self.target, "pai": self.pai.mjai,
                "consumed": _names(self.consumed)}


class Pon(Call):
    """``pon``: a discard called with two tiles of the hand."""

    __slots__ = ()
    TYPE: ClassVar[str] = "pon"

    @staticmethod
    def parse(d: dict[str, Any]) -> Pon:
        actor, target, pai, consumed = _call(d, 2)
        return Pon(actor, target, pai, consumed)


class Daiminkan(Call):
    """``daiminkan``: an open kan on a discard (three tiles of the hand)."""

    __slots__ = ()
    TYPE: ClassVar[str] = "daiminkan"

    @staticmethod
    def parse(d: dict[str, Any]) -> Daiminkan:
        actor, target, pai, consumed = _call(d, 3)
        return Daiminkan(actor, target, pai, consumed)


def _call(d: dict[str, Any], n: int) -> tuple[int, int, Tile, tuple[Tile, ...]]:
    actor, target = _seat(d), _seat(d, "target")
    if actor == target:
        raise EventError(sentence("{where}: actor {actor} calls its own discard (target {target})",
                                  where=_where(d), actor=actor, target=target))
    pai, consumed = _tile(d), _tiles(d, "consumed", n)
    if any(t.kind != pai.kind for t in consumed):
        raise EventError(sentence("{where}: consumed {names} are not all {mjai}",
                                  where=_where(d), names=_names(consumed), mjai=pai.mjai))
    return actor, target, pai, consumed


class Ankan(Event):
    """``ankan``: a concealed kan of the four ``consumed`` tiles."""

    __slots__ = ("actor", "consumed")
    TYPE: ClassVar[str] = "ankan"

    def __init__(self, actor: int, consumed: tuple[Tile, ...]) -> None:
        self.actor: Final = actor
        self.consumed: Final = consumed

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "ankan", "actor": self.actor, "consumed": _names(self.consumed)}

    @staticmethod
    def parse(d: dict[str, Any]) -> Ankan:
        consumed = _tiles(d, "consumed", 4)
        if len({t.kind for t in consumed}) != 1:
            raise EventError(sentence("ankan event: consumed {names} are not four of one tile",
                                      names=_names(consumed)))
        return Ankan(_seat(d), consumed)


class Kakan(Event):
    """``kakan``: ``pai`` added to the seat's pon of ``consumed``."""

    __slots__ = ("actor", "consumed", "pai")
    TYPE: ClassVar[str] = "kakan"

    def __init__(self, actor: int, pai: Tile, consumed: tuple[Tile, ...]) -> None:
        self.actor: Final = actor
        self.pai: Final = pai
        self.consumed: Final = consumed

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "kakan", "actor": self.actor, "pai": self.pai.mjai, "consumed": _names(self.consumed)}

    @staticmethod
    def parse(d: dict[str, Any]) -> Kakan:
        pai = _tile(d)
        consumed = _tiles(d, "consumed", 3)
        if any(t.kind != pai.kind for t in consumed):
            raise EventError(sentence("kakan event: consumed {names} are not all {mjai}",
                                      names=_names(consumed), mjai=pai.mjai))
        return Kakan(_seat(d), pai, consumed)


class Kita(Event):
    """``kita`` (sanma extension): a North set aside as nuki dora (P15, P16)."""

    __slots__ = ("actor",)
    TYPE: ClassVar[str] = "kita"

    def __init__(self, actor: int) -> None:
        self.actor: Final = actor

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "kita", "actor": self.actor, "pai": "N"}

    @staticmethod
    def parse(d: dict[str, Any]) -> Kita:
        if "pai" in d and _tile(d) != NORTH_TILE:
            raise EventError(sentence("{where}: pai {d!r} is not N", where=_where(d), d=d['pai']))
        return Kita(_seat(d))


class Flower(Event):
    """``flower`` (sanma extension): a flower set aside (P03); its replacement draw follows."""

    __slots__ = ("actor", "pai")
    TYPE: ClassVar[str] = "flower"

    def __init__(self, actor: int, pai: Tile) -> None:
        self.actor: Final = actor
        self.pai: Final = pai

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "flower", "actor": self.actor, "pai": self.pai.mjai}

    @staticmethod
    def parse(d: dict[str, Any]) -> Flower:
        pai = _tile(d)
        if not pai.is_flower:
            raise EventError(sentence("flower event: pai {mjai!r} is not a flower (1f-4f)", mjai=pai.mjai))
        return Flower(_seat(d), pai)


class Reach(Event):
    """``reach``: riichi declared with the next discard; ``open`` for open riichi (club rules)."""

    __slots__ = ("actor", "open")
    TYPE: ClassVar[str] = "reach"

    def __init__(self, actor: int, open: bool = False) -> None:
        self.actor: Final = actor
        self.open: Final = open

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "reach", "actor": self.actor}
        if self.open:
            d["open"] = True
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> Reach:
        return Reach(_seat(d), _bool(d, "open"))


class ReachAccepted(Event):
    """``reach_accepted``: the riichi discard was not ronned, the stick is on the table;
    ``scores`` after the stick (the engine writes them, records may not)."""

    __slots__ = ("actor", "scores")
    TYPE: ClassVar[str] = "reach_accepted"

    def __init__(self, actor: int, scores: tuple[int, ...] | None = None) -> None:
        self.actor: Final = actor
        self.scores: Final = scores

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "reach_accepted", "actor": self.actor}
        if self.scores is not None:
            d["scores"] = list(self.scores)
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> ReachAccepted:
        return ReachAccepted(_seat(d), _opt_ints(d, "scores"))


class Dora(Event):
    """``dora``: a kan dora indicator turned."""

    __slots__ = ("marker",)
    TYPE: ClassVar[str] = "dora"

    def __init__(self, marker: Tile) -> None:
        self.marker: Final = marker

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "dora", "dora_marker": self.marker.mjai}

    @staticmethod
    def parse(d: dict[str, Any]) -> Dora:
        return Dora(_tile(d, "dora_marker"))


class Hora(Event):
    """``hora``: a win by ``actor`` from ``target`` (itself for tsumo) on ``pai``: its score
    (``han``, ``fu``, ``yakuman``, ``yaku`` lines, ``points`` before honba and sticks, ``limit``),
    the ura indicators, the winning hand, every seat's ``deltas``, the ``scores`` after them and
    the pao seat. A field a record does not give is ``None``."""

    __slots__ = ("actor", "deltas", "fu", "han", "hora_tehais", "limit", "pai", "pao", "points", "scores",
                 "target", "uradora_markers", "yaku", "yakuman")
    TYPE: ClassVar[str] = "hora"

    def __init__(self, actor: int, target: int, pai: Tile | None, han: int | None, fu: int | None,
                 yakuman: int, yaku: tuple[Yaku, ...], points: int, limit: str | None,
                 uradora_markers: tuple[Tile, ...], hora_tehais: tuple[Tile, ...] | None,
                 deltas: tuple[int, ...], scores: tuple[int, ...] | None, pao: int | None = None) -> None:
        self.actor: Final = actor
        self.target: Final = target
        self.pai: Final = pai
        self.han: Final = han
        self.fu: Final = fu
        self.yakuman: Final = yakuman
        self.yaku: Final = yaku
        self.points: Final = points
        self.limit: Final = limit
        self.uradora_markers: Final = uradora_markers
        self.hora_tehais: Final = hora_tehais
        self.deltas: Final = deltas
        self.scores: Final = scores
        self.pao: Final = pao

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": "hora", "actor": self.actor, "target": self.target,
            "pai": None if self.pai is None else self.pai.mjai, "han": self.han, "fu": self.fu,
            "yakuman": self.yakuman, "yaku": [y.to_json() for y in self.yaku], "points": self.points,
            "limit": self.limit, "uradora_markers": _names(self.uradora_markers)}
        if self.hora_tehais is not None:
            d["hora_tehais"] = _names(self.hora_tehais)
        d["deltas"] = list(self.deltas)
        if self.scores is not None:
            d["scores"] = list(self.scores)
        if self.pao is not None:
            d["pao"] = self.pao
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> Hora:
        yaku: list[Yaku] = []
        for item in _list(d, "yaku") if d.get("yaku") is not None else []:
            if isinstance(item, dict):  # sanma: {"name", "han", "yakuman"?}
                name, han, yakuman = item.get("name"), item.get("han", 0), item.get("yakuman", 0)
            elif isinstance(item, list) and len(item) == 2:  # other producers: [name, han]
                name, han, yakuman = item[0], item[1], 0
            else:
                raise EventError(sentence("hora event: yaku entry {item!r} is not {{name, han}} or [name, "
                                          "han]", item=item))
            if not isinstance(name, str) or any(not isinstance(x, int) or isinstance(x, bool) for x in (han, yakuman)):
                raise EventError(sentence("hora event: yaku entry {item!r} needs a text name and integer han",
                                          item=item))
            yaku.append(Yaku(name, han, yakuman))
        limit = d.get("limit")
        if limit is not None and not isinstance(limit, str):
            raise EventError(sentence("hora event: limit {limit!r} is not text", limit=limit))
        ura_key = "uradora_markers" if "uradora_markers" in d else "ura_markers"
        points_key = "points" if "points" in d else "hora_points"
        return Hora(
            _seat(d), _seat(d, "target"), None if d.get("pai") is None else _tile(d), _opt_int(d, "han"),
            _opt_int(d, "fu"), _opt_int(d, "yakuman") or 0, tuple(yaku),
            _int(d, points_key) if d.get(points_key) is not None else 0, limit,
            _tiles(d, ura_key) if d.get(ura_key) is not None else (),
            _tiles(d, "hora_tehais") if d.get("hora_tehais") is not None else None,
            _ints(d, "deltas"), _opt_ints(d, "scores"), _opt_seat(d, "pao"))


class Ryukyoku(Event):
    """``ryukyoku``: a hand ended without a win. ``reason`` is one of :data:`DRAW_REASONS`
    (records may name others); ``actor`` declared nine terminals; ``nagashi`` are the nagashi
    players of a nagashi settled as a win; an exhaustive draw lists the ``tenpai`` seats with
    their ``tehais`` (others: empty), its ``deltas`` and the ``scores`` after them."""

    __slots__ = ("actor", "deltas", "nagashi", "reason", "scores", "tehais", "tenpai")
    TYPE: ClassVar[str] = "ryukyoku"

    def __init__(self, reason: str, actor: int | None = None, nagashi: tuple[int, ...] | None = None,
                 tenpai: tuple[int, ...] | None = None, tehais: tuple[tuple[Tile, ...], ...] | None = None,
                 deltas: tuple[int, ...] | None = None, scores: tuple[int, ...] | None = None) -> None:
        self.reason: Final = reason
        self.actor: Final = actor
        self.nagashi: Final = nagashi
        self.tenpai: Final = tenpai
        self.tehais: Final = tehais
        self.deltas: Final = deltas
        self.scores: Final = scores

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "ryukyoku", "reason": self.reason}
        if self.actor is not None:
            d["actor"] = self.actor
        if self.nagashi is not None:
            d["nagashi"] = list(self.nagashi)
        if self.tenpai is not None:
            d["tenpai"] = list(self.tenpai)
        if self.tehais is not None:
            d["tehais"] = [_names(h) for h in self.tehais]
        if self.deltas is not None:
            d["deltas"] = list(self.deltas)
        if self.scores is not None:
            d["scores"] = list(self.scores)
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> Ryukyoku:
        tehais = None
        if d.get("tehais") is not None:
            hands = []
            for s, h in enumerate(_list(d, "tehais", SEATS)):
                if not isinstance(h, list):
                    raise EventError(sentence("ryukyoku event: tehais[{s}] {h!r} is not a list", s=s, h=h))
                hands.append(tuple(_tile_of(d, f"tehais[{s}]", x) for x in h))
            tehais = tuple(hands)
        return Ryukyoku(_str(d, "reason") if "reason" in d else "exhaustive", _opt_seat(d, "actor"),
                        _seats(d, "nagashi") if d.get("nagashi") is not None else None,
                        _seats(d, "tenpai") if d.get("tenpai") is not None else None, tehais,
                        _opt_ints(d, "deltas"), _opt_ints(d, "scores"))


class Chombo(Event):
    """``chombo`` (sanma extension): a riichi violation revealed (P80, P102): the offender,
    the reason (:data:`CHOMBO_REASONS`), its penalty ``deltas`` (P100) and the scores after."""

    __slots__ = ("actor", "deltas", "reason", "scores")
    TYPE: ClassVar[str] = "chombo"

    def __init__(self, actor: int, reason: str, deltas: tuple[int, ...], scores: tuple[int, ...]) -> None:
        self.actor: Final = actor
        self.reason: Final = reason
        self.deltas: Final = deltas
        self.scores: Final = scores

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "chombo", "actor": self.actor, "reason": self.reason, "deltas": list(self.deltas),
                "scores": list(self.scores)}

    @staticmethod
    def parse(d: dict[str, Any]) -> Chombo:
        return Chombo(_seat(d), _str(d, "reason"), _ints(d, "deltas"), _ints(d, "scores"))


class RiichiBust(Event):
    """``riichi_bust`` (sanma extension, P79 / A000-19, club): riichi declared with too few points
    ends the hand at once; the declarer is bust. ``scores`` are unchanged by it."""

    __slots__ = ("actor", "scores")
    TYPE: ClassVar[str] = "riichi_bust"

    def __init__(self, actor: int, scores: tuple[int, ...]) -> None:
        self.actor: Final = actor
        self.scores: Final = scores

    def to_mjai(self) -> dict[str, Any]:
        return {"type": "riichi_bust", "actor": self.actor, "scores": list(self.scores)}

    @staticmethod
    def parse(d: dict[str, Any]) -> RiichiBust:
        return RiichiBust(_seat(d), _ints(d, "scores"))


class EndKyoku(Event):
    """``end_kyoku``: the hand's total ``deltas`` and the ``scores`` after it (a bare
    ``end_kyoku`` from another producer has neither)."""

    __slots__ = ("deltas", "scores")
    TYPE: ClassVar[str] = "end_kyoku"

    def __init__(self, deltas: tuple[int, ...] | None, scores: tuple[int, ...] | None) -> None:
        self.deltas: Final = deltas
        self.scores: Final = scores

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "end_kyoku"}
        if self.deltas is not None:
            d["deltas"] = list(self.deltas)
        if self.scores is not None:
            d["scores"] = list(self.scores)
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> EndKyoku:
        return EndKyoku(_opt_ints(d, "deltas"), _opt_ints(d, "scores"))


class EndGame(Event):
    """``end_game``: why the game ended (the engine's ``reason``), final scores, ranks 1..3,
    final points and chips."""

    __slots__ = ("chips", "points", "ranks", "reason", "scores")
    TYPE: ClassVar[str] = "end_game"

    def __init__(self, scores: tuple[int, ...], ranks: tuple[int, ...] | None, points: tuple[float, ...] | None,
                 reason: str | None = None, chips: tuple[int, ...] | None = None) -> None:
        self.reason: Final = reason
        self.scores: Final = scores
        self.ranks: Final = ranks
        self.points: Final = points
        self.chips: Final = chips

    def to_mjai(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "end_game"}
        if self.reason is not None:
            d["reason"] = self.reason
        d["scores"] = list(self.scores)
        if self.ranks is not None:
            d["ranks"] = list(self.ranks)
        if self.points is not None:
            d["points"] = list(self.points)
        if self.chips is not None:
            d["chips"] = list(self.chips)
        return d

    @staticmethod
    def parse(d: dict[str, Any]) -> EndGame:
        ranks = _ints(d, "ranks") if d.get("ranks") is not None else None
        if ranks is not None and sorted(ranks) != [1, 2, 3]:
            raise EventError(sentence("end_game event: ranks {ranks} are not 1, 2, 3", ranks=list(ranks)))
        points = None
        if d.get("points") is not None:
            raw = _list(d, "points", SEATS)
            if any(not isinstance(p, int | float) or isinstance(p, bool) or p != p for p in raw):
                raise EventError(sentence("end_game event: points {raw!r} are not numbers", raw=raw))
            points = tuple(float(p) for p in raw)
        return EndGame(_ints(d, "scores"), ranks, points, _str(d, "reason") if "reason" in d else None,
                       _opt_ints(d, "chips"))


#: Each event type's parser; ``nukidora`` is another producer's name for ``kita``.
PARSERS: Final[dict[str, Callable[[dict[str, Any]], Event]]] = {
    "start_game": StartGame.parse, "start_kyoku": StartKyoku.parse, "tsumo": Tsumo.parse,
    "dahai": Dahai.parse, "pon": Pon.parse, "daiminkan": Daiminkan.parse, "ankan": Ankan.parse,
    "kakan": Kakan.parse, "kita": Kita.parse, "nukidora": Kita.parse, "flower": Flower.parse,
    "reach": Reach.parse, "reach_accepted": ReachAccepted.parse, "dora": Dora.parse, "hora": Hora.parse,
    "ryukyoku": Ryukyoku.parse, "chombo": Chombo.parse, "riichi_bust": RiichiBust.parse,
    "end_kyoku": EndKyoku.parse, "end_game": EndGame.parse,
}


def draw_reason(kind: str) -> str:
    """The ``ryukyoku`` reason of a record's draw kind: ``draw_reason('four_kans') == 'suukaikan'``."""
    return RECORD_DRAW_REASONS.get(kind, kind)


def parse_event(d: Any) -> Event:
    """The typed event of an mjai dict; :class:`EventError` names what is malformed.

    >>> parse_event({"type": "kita", "actor": 2})
    Kita({'type': 'kita', 'actor': 2, 'pai': 'N'})
    >>> parse_event({"type": "tsumo", "actor": 0, "pai": "2m"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sanma.events.EventError: tsumo event: pai: invalid mjai tile '2m': 2m is not in the sanma tile set ...
    """
    if not isinstance(d, dict):
        raise EventError(sentence("an mjai event is a JSON object, got {name}", name=type(d).__name__))
    t = d.get("type")
    parser = PARSERS.get(t) if isinstance(t, str) else None
    if parser is None:
        raise EventError(sentence("unknown event type {t!r}", t=t))
    try:
        return parser(d)
    except (TileError, RecordError) as e:
        if isinstance(e, EventError):
            raise
        raise EventError(sentence("{t} event: {error}", t=t, error=e)) from None


def parse_events(events: Any) -> list[Event]:
    """Every event of a sequence of mjai dicts; an error names the event's index."""
    out = []
    for i, e in enumerate(events):
        try:
            out.append(parse_event(e))
        except EventError as err:
            raise EventError(sentence("event {i}: {err}", i=i, err=err)) from None
    return out
