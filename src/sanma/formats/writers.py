"""Writing games: mjai JSONL and tenhou.net/6 JSON, from the engine's event stream.

:func:`write_mjai` writes the engine's events as they are: mjai with sanma's extensions (three
``scores``/``tehais``, ``kita`` and ``flower`` events, the rule set named in ``start_game``),
except that ``hora`` lists its yaku as ``[name, han]`` pairs, as other mjai readers expect.
:func:`write_tenhou6` writes tenhou.net/6 JSON for three players as Tenhou does: four-seat
arrays with an empty fourth seat, kita as ``"f44"`` in the discard column, calls as strings
whose letter position names the seat called from (see :mod:`sanma.formats.tenhou`).
Both read back with sanma's readers into the same game; ``sanma replay --check`` on a written
game matches hand for hand.

Four things tenhou.net/6 cannot say are written as sanma extensions, used only when a game
has them: flowers (tile codes ``61``-``64`` = ``1f``-``4f``; a pulled flower is ``"f61"`` in the
discard column, like ``"f44"`` for a kita), open riichi (``"o"`` + tile code, like ``"r"``),
a hand voided by a chombo (result ``["チョンボ", deltas]``), and rule sets other than Tenhou's
(``rule.disp`` is the rule set's name). mjai writes the engine's ``chombo`` events as they are.

>>> from sanma.game.engine import Game
>>> from sanma.rules import Rules
>>> import random
>>> g = Game(Rules.preset("tenhou"), seed=5)
>>> rng = random.Random(5)
>>> while not g.done:
...     g.apply(rng.choice(g.legal_actions(g.to_move[0])))
>>> from sanma.formats import read_mjai, read_tenhou6
>>> a, b = read_mjai(write_mjai(g)), read_tenhou6(write_tenhou6(g, as_text=True))
>>> a.errors, b.errors, a.final_scores == b.final_scores == tuple(g.result.scores)
((), (), True)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .. import events as ev
from ..errors import RecordError
from ..i18n.messages import sentence
from ..i18n.terms import record_name, term_name
from ..rules import Rules
from ..tiles import NUM_KINDS, Tile, seat_wind


def _events_of(game_or_events: Any) -> list[ev.Event]:
    """The typed events of a ``Game``, of its ``events`` (mjai dicts) or of typed events: each dict
    is read by :func:`sanma.events.parse_event`, so a malformed one is an error naming it."""
    events = getattr(game_or_events, "events", game_or_events)
    if isinstance(events, str | bytes | dict) or not isinstance(events, Iterable):
        raise RecordError(sentence("expected a Game or a sequence of events, got {name}",
                                   name=type(game_or_events).__name__))
    out: list[ev.Event] = []
    for i, e in enumerate(events):
        if isinstance(e, ev.Event):
            out.append(e)
            continue
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            raise RecordError(sentence("event {i} is not an mjai event (a dict with a 'type'): {error!r}",
                                       i=i, error=e))
        try:
            out.append(ev.parse_event(e))
        except ev.EventError as err:
            raise ev.EventError(sentence("event {i}: {err}", i=i, err=err)) from None
    return out


# --------------------------------------------------------------------------------------------
# mjai JSONL
# --------------------------------------------------------------------------------------------


def write_mjai(game_or_events: Any) -> str:
    """mjai JSONL: one event per line (a ``Game``, its ``events`` or typed events), ending with a newline.

    ``hora`` lists its ``yaku`` as ``[name, han]`` pairs, as the mjai protocol and other mjai
    readers (riichienv's ``MjaiReplay``) have them, ``[name, multiplier]`` for a yakuman, with
    ``yakuman`` the sum of the listed multipliers (0 for a counted yakuman, which lists ordinary
    yaku); sanma reads this form and the engine's own (objects) alike.

    >>> write_mjai([{"type": "kita", "actor": 1, "pai": "N"}])
    '{"type":"kita","actor":1,"pai":"N"}\\n'
    """
    events = _events_of(game_or_events)
    return "".join(json.dumps(_mjai_form(e.to_mjai()), ensure_ascii=False, separators=(",", ":")) + "\n"
                   for e in events)


def _mjai_form(e: dict[str, Any]) -> dict[str, Any]:
    """An engine event as the mjai protocol writes it (only ``hora`` differs: yaku as pairs).

    >>> _mjai_form({"type": "hora", "yakuman": 0, "yaku": [{"name": "riichi", "han": 1}]})
    {'type': 'hora', 'yakuman': 0, 'yaku': [['riichi', 1]]}
    """
    yaku = e.get("yaku") if e.get("type") == "hora" else None
    if not isinstance(yaku, list) or not any(isinstance(y, dict) for y in yaku):
        return e
    pairs = [[y.get("name"), y.get("yakuman") or y.get("han", 0)] if isinstance(y, dict) else y for y in yaku]
    listed = sum(int(y.get("yakuman") or 0) for y in yaku if isinstance(y, dict))
    return {**e, "yaku": pairs, **({"yakuman": listed} if "yakuman" in e else {})}


# --------------------------------------------------------------------------------------------
# tenhou.net/6 JSON
# --------------------------------------------------------------------------------------------


def tile_code(name: str) -> int:
    """tenhou.net/6 code of an mjai tile name: ``tile_code('5pr') == 52``, ``tile_code('N') == 44``,
    flowers (sanma extension) ``tile_code('1f') == 61``."""
    t = Tile.from_mjai(name)
    if t.kind >= NUM_KINDS:
        return 61 + t.kind - NUM_KINDS
    if t.red:
        return 51 + t.kind // 9
    if t.kind >= 27:
        return 41 + t.kind - 27
    return (t.kind // 9 + 1) * 10 + t.kind % 9 + 1


def _call_position(actor: int, target: int) -> int:
    """Letter position in a pon/daiminkan string: 0 = from the player before (kamicha in the
    four-seat numbering Tenhou keeps for sanma), 2 = across, 4 = after (shimocha)."""
    return {3: 0, 2: 2, 1: 4}[(target - actor) % 4]


def _call_text(letter: str, called: int, consumed: list[int], position: int) -> str:
    codes = [f"{c}" for c in consumed]
    codes.insert(position // 2, f"{letter}{called}")
    return "".join(codes)


class _Tenhou6Kyoku:
    def __init__(self, start: ev.StartKyoku, rules: Rules | None) -> None:
        self.rules = rules
        rounds = "ESWN"
        self.dealer = start.oya
        self.honba = start.honba
        self.head = [4 * rounds.index(start.bakaze) + self.dealer, self.honba, start.kyotaku]
        self.scores = [*start.scores, 0]
        self.dora = [tile_code(t.mjai) for t in start.dora_markers]
        self.initial_dora = len(self.dora)
        self.ura: list[int] = []
        if any(t is None for h in start.tehais for t in h):
            raise RecordError(sentence("start_kyoku with hidden tiles ('?'): a seat's view is not a whole "
                                       "game"))
        self.haipai = [[tile_code(t.mjai) for t in h if t is not None] for h in start.tehais]
        self.takes: list[list[Any]] = [[], [], []]
        self.discards: list[list[Any]] = [[], [], []]
        self.pons: list[dict[int, str]] = [{}, {}, {}]  # kind -> pon string
        self.riichi: int | None = None
        self.open = False
        self.result: list[Any] = []

    def event(self, e: ev.Event) -> None:
        if isinstance(e, ev.Tsumo):
            if e.pai is None:
                raise RecordError(sentence("a hidden draw ('?') of seat {actor}: a seat's view is not a "
                                           "whole game", actor=e.actor))
            self.takes[e.actor].append(tile_code(e.pai.mjai))
        elif isinstance(e, ev.Reach):
            self.riichi = e.actor
            self.open = e.open
        elif isinstance(e, ev.Dahai):
            seat = e.actor
            code = 60 if e.tsumogiri else tile_code(e.pai.mjai)
            if self.riichi == seat:
                self.discards[seat].append(("o" if self.open else "r") + str(code))
                self.riichi = None
            else:
                self.discards[seat].append(code)
        elif isinstance(e, ev.Pon | ev.Daiminkan):
            seat, target = e.actor, e.target
            consumed = [tile_code(t.mjai) for t in e.consumed]
            pos = _call_position(seat, target)
            pon = isinstance(e, ev.Pon)
            if not pon and pos == 4:
                pos = 6  # a kan from the next player: the letter before the last tile
            text = _call_text("p" if pon else "m", tile_code(e.pai.mjai), consumed, pos)
            self.takes[seat].append(text)
            if pon:
                self.pons[seat][e.pai.kind] = text
            else:
                self.discards[seat].append(0)  # Tenhou's placeholder: the rinshan draw comes next
        elif isinstance(e, ev.Kakan):
            seat = e.actor
            held = self.pons[seat].get(e.pai.kind)
            if held is None:
                raise RecordError(sentence("kakan of {mjai} by seat {seat} without a pon",
                                           mjai=e.pai.mjai, seat=seat))
            p = held.index("p")
            self.discards[seat].append(f"{held[:p]}k{tile_code(e.pai.mjai)}{held[p + 1:]}")
        elif isinstance(e, ev.Ankan):
            codes = sorted(tile_code(t.mjai) for t in e.consumed)
            # Tenhou writes three tiles, 'a', the fourth (a red five last)
            self.discards[e.actor].append("".join(str(c) for c in codes[:3]) + f"a{codes[3]}")
        elif isinstance(e, ev.Kita):
            self.discards[e.actor].append(f"f{tile_code('N')}")
        elif isinstance(e, ev.Flower):
            self.discards[e.actor].append(f"f{tile_code(e.pai.mjai)}")
        elif isinstance(e, ev.Dora):
            self.dora.append(tile_code(e.marker.mjai))
        elif isinstance(e, ev.Hora):
            self.hora(e)
        elif isinstance(e, ev.Chombo):
            # sanma extension: tenhou.net/6 has no chombo; the result is named 「チョンボ」 with
            # the hand's score changes (from end_kyoku), which sanma's reader understands
            self.result = ["チョンボ"]
        elif isinstance(e, ev.Ryukyoku):
            word = record_name("draw", e.reason)  # all_riichi is written 四家立直, the four-player name (P95)
            if word is None:
                raise RecordError(sentence("ryukyoku reason {reason!r} has no tenhou.net/6 name",
                                           reason=e.reason))
            self.result = [word]
            if e.deltas is not None:
                self.result.append([*e.deltas, 0])
        elif isinstance(e, ev.EndKyoku) and self.result[:1] != ["和了"] and len(self.result) == 1 \
                and e.deltas is not None and any(e.deltas):
            self.result.append([*e.deltas, 0])  # nagashi settled as a win, chombo: deltas only here

    def hora(self, e: ev.Hora) -> None:
        who, frm = e.actor, e.target
        if e.uradora_markers and not self.ura:
            self.ura = [tile_code(t.mjai) for t in e.uradora_markers]
        if not self.result:
            self.result = ["和了"]
        own_wind = seat_wind(who, self.dealer)
        round_wind = "ESWN"[self.head[0] // 4]
        yaku: list[str] = []
        for y in e.yaku:
            jp = record_name("yaku", y.name) or y.name
            if y.name in ("yakuhai_seat_wind", "yakuhai_round_wind"):  # Tenhou: 自風 東, 場風 南
                jp = f"{jp} {term_name('wind', own_wind if y.name == 'yakuhai_seat_wind' else round_wind, 'ja')}"
            if y.yakuman:
                yaku.append(f"{jp}(役満)" if y.yakuman == 1 else f"{jp}({y.yakuman}倍役満)")
            else:
                yaku.append(f"{jp}({y.han}飜)")
        self.result += [[*e.deltas, 0], [who, frm, who, self.points_text(e), *yaku]]

    def points_text(self, e: ev.Hora) -> str:
        """``30符2飜500-1000点``, ``満貫12000点``, ``40符3飜2600点∀`` ... (the reader's forms)."""
        who, frm, total = e.actor, e.target, e.points
        limit = e.limit
        word = record_name("limit", limit) if limit else None
        if limit is not None and word is None:
            raise RecordError(sentence("hora limit {limit!r} has no tenhou.net/6 name", limit=limit))
        head = word or f"{e.fu}符{e.han}飜"
        if who == frm and self.rules is not None:
            honba = self.honba * self.rules.honba_tsumo
            pays = {s: -d - honba for s, d in enumerate(e.deltas) if s != who}
            if who == self.dealer and len(set(pays.values())) == 1 and 2 * next(iter(pays.values())) == total:
                return f"{head}{next(iter(pays.values()))}点∀"
            if who != self.dealer:
                other = next(s for s in pays if s != self.dealer)
                a, b = pays[other], pays[self.dealer]
                if a + b == total and a > 0 and b > 0:
                    return f"{head}{a}-{b}点"
        return f"{head}{total}点"  # the total (sanma's reader takes it as the points either way)

    def as_json(self) -> list[Any]:
        cols: list[Any] = []
        for s in range(3):
            cols += [self.haipai[s], self.takes[s], self.discards[s]]
        return [self.head, self.scores, self.dora, self.ura, *cols, [], [], [], self.result]


def write_tenhou6(game_or_events: Any, rules: Rules | None = None, *, as_text: bool = False) -> Any:
    """tenhou.net/6 JSON of a game (a ``Game`` or its ``events``): a dict, or its text with ``as_text``.

    ``rules`` (default: the game's, or the preset named in ``start_game``) lets tsumo points be
    written Tenhou's way (``500-1000点``); without them the total is written.
    """
    events = _events_of(game_or_events)
    if rules is None:
        rules = getattr(game_or_events, "rules", None)
    start = next((e for e in events if isinstance(e, ev.StartGame)), None)
    name = start.rules if start is not None else ""
    if rules is None and name in Rules.presets():
        rules = Rules.preset(name)
    names = list(start.names)[:3] if start is not None and start.names else ["", "", ""]
    log: list[list[Any]] = []
    initial_dora: list[int] = []
    cur: _Tenhou6Kyoku | None = None
    final: ev.EndGame | None = None
    for e in events:
        if isinstance(e, ev.StartKyoku):
            cur = _Tenhou6Kyoku(e, rules)
            initial_dora.append(cur.initial_dora)
        elif isinstance(e, ev.EndGame):
            final = e
        elif cur is not None:
            cur.event(e)
            if isinstance(e, ev.EndKyoku):
                log.append(cur.as_json())
                cur = None
    if cur is not None:
        log.append(cur.as_json())
    red = {"aka51": 0, "aka52": rules.red_5p if rules else 1, "aka53": rules.red_5s if rules else 1}
    out: dict[str, Any] = {
        "title": ["", ""], "name": [*names, ""], "rule": {"disp": name, **red}, "log": log,
    }
    if any(n != 1 for n in initial_dora):  # sanma extension: indicators turned at the deal (P07)
        out["sanma"] = {"initial_dora": initial_dora}
    if final is not None and final.points is not None:  # Tenhou's sc: score and points per seat
        sc: list[Any] = []
        for s, p in zip(final.scores, final.points, strict=False):
            sc += [s, p]
        out["sc"] = [*sc, 0, 0]
    return json.dumps(out, ensure_ascii=False, separators=(",", ":")) if as_text else out
