"""tenhou.net/6 JSON records: Tenhou's own, and Mahjong Soul games converted to the form.

The two-digit tile codes (``11``-``47``, ``51``-``53`` red fives, ``60`` tsumogiri) exist only in
this module. :func:`read_tenhou6` reads a record into the record model; :func:`write_tenhou6`
writes a game for three players as Tenhou does: four-seat arrays with an empty fourth seat, kita
as ``"f44"`` in the discard column, calls as strings whose letter position names the seat called
from. A written game reads back into the same game; ``sanma replay --check`` matches it hand for
hand.

Four things tenhou.net/6 cannot say are written as sanma extensions, used only when a game has
them: flowers (tile codes ``61``-``64`` = ``1f``-``4f``; a pulled flower is ``"f61"`` in the
discard column, like ``"f44"`` for a kita), open riichi (``"o"`` + tile code, like ``"r"``), a
hand voided by a chombo (result ``["チョンボ", deltas]``), and rule sets other than Tenhou's
(``rule.disp`` is the rule set's name).

>>> from sanma.game.engine import Game
>>> from sanma.rules import Rules
>>> import random
>>> g = Game(Rules.preset("tenhou"), seed=5)
>>> rng = random.Random(5)
>>> while not g.done:
...     g.apply(rng.choice(g.legal_actions(g.to_move[0])))
>>> b = read_tenhou6(write_tenhou6(g, as_text=True))
>>> b.errors, b.final_scores == tuple(g.result.scores)
((), True)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .. import events as ev
from ..errors import RecordError, SanmaError
from ..i18n.messages import sentence
from ..i18n.terms import draw_key, limit_prefix, record_name, term_name, yaku_key
from ..rules import Rules
from ..tiles import NORTH, NUM_KINDS, WIND_LETTERS, Tile, seat_wind
from .guard import Problems, as_int, error_text, events_of, parse_json, read_guarded
from .record import DrawResult, GameRecord, KyokuRecord, Result, kyoku_label, majsoul_room
from .tracker import KyokuReplay, build_win, live_draws_for, named_rules


def tile_from_code(code: Any) -> Tile:
    """A tenhou.net/6 JSON tile code as a Tile: ``11``..``47``, ``51``..``53`` red fives."""
    if isinstance(code, bool) or not isinstance(code, int):
        raise RecordError(sentence("tile code {tile!r} is not a number", tile=code))
    d, n = divmod(code, 10)
    if 1 <= d <= 3 and 1 <= n <= 9:
        return Tile((d - 1) * 9 + n - 1)
    if d == 4 and 1 <= n <= 7:
        return Tile(26 + n)
    if d == 5 and 1 <= n <= 3:
        return Tile((n - 1) * 9 + 4, True)
    if d == 6 and 1 <= n <= 4:  # sanma extension: flowers 1f-4f (kansai rules)
        return Tile(NUM_KINDS + n - 1)
    raise RecordError(sentence("tile code {tile} is not a tile (11-19, 21-29, 31-39, 41-47, 51-53, 61-64)",
                               tile=code))


_POINTS = re.compile(r"^(?:(\d+)符)?(?:(\d+)飜)?(\d+)(?:-(\d+))?点(∀)?$")
_YAKU_TEXT = re.compile(r"^(.+)\((\d+)飜\)$")
_YAKUMAN_TEXT = re.compile(r"^(.+)\((?:役満|(\d+)倍役満|役満(\d+)|ダブル役満)\)$")
# Position of the call letter in a call string -> seat offset (4-seat numbering, as Tenhou writes
# 3-player records with an empty fourth seat): 0 = the player before (kamicha), 2 = across,
# 4 / 6 = the player after (shimocha).
_CALL_FROM = {0: 3, 2: 2, 4: 1, 6: 1}


def _parse_call(text: str, letter: str) -> tuple[int, list[Tile], Tile]:
    """``(letter position, all tiles, the tile after the letter)`` of a call string."""
    pos = text.find(letter)
    codes = re.sub(r"[a-z]", "", text)
    if pos < 0 or pos % 2 or len(codes) % 2 or not codes.isdigit():
        raise RecordError(sentence("call {text!r} is malformed", text=text))
    tiles = [tile_from_code(int(codes[i:i + 2])) for i in range(0, len(codes), 2)]
    return pos, tiles, tile_from_code(int(text[pos + 1:pos + 3]))


def _json_yaku(items: list[Any], p: Problems, label: str) -> tuple[tuple[tuple[str, int], ...], int]:
    out: list[tuple[str, int]] = []
    yakuman = 0
    for item in items:
        if not isinstance(item, str):
            p.add(sentence("yaku entry {item!r} is not text", code="yaku_list", item=item), label)
            continue
        if m := _YAKU_TEXT.match(item):
            jp, n = m.group(1), int(m.group(2))
        elif m := _YAKUMAN_TEXT.match(item):
            jp = m.group(1)
            n = int(m.group(2) or m.group(3) or (2 if "ダブル" in item else 1))
            yakuman += n
        else:
            p.add(sentence("yaku {item!r} is not 'name(n飜)' or 'name(役満)'", code="yaku_list", item=item), label)
            continue
        name = yaku_key(jp)
        if name is None:
            p.add(sentence("unknown yaku {name!r}", code="unknown_yaku", name=jp), label)
            continue
        out.append((name, n))
    return tuple(out), yakuman


class _Tenhou6Kyoku:
    def __init__(self, game: _Tenhou6Reader, data: Any, index: int) -> None:
        self.g = game
        self.index = index
        p = game.problems
        if not isinstance(data, list) or len(data) < 17:
            raise RecordError(sentence("kyoku {index} is not a list of 17 entries", index=index))
        head = data[0]
        if not isinstance(head, list) or len(head) != 3:
            raise RecordError(sentence("kyoku {index} header {head!r} is not [kyoku, honba, kyotaku]",
                                       index=index, head=head))
        k, self.honba, self.kyotaku = (as_int(x, "kyoku header") for x in head)
        if not 0 <= k < 16 or k % 4 == 3:
            raise RecordError(sentence("kyoku index {k} is not a sanma kyoku (E1-E3 = 0-2, S1-S3 = 4-6 ...)",
                                       k=k))
        self.round_wind, self.dealer = WIND_LETTERS[k // 4], k % 4
        self.label = kyoku_label(self.round_wind, self.dealer, self.honba)
        scores = data[1]
        if not isinstance(scores, list) or len(scores) not in (3, 4) or (len(scores) == 4 and scores[3] != 0):
            raise RecordError(sentence("scores {scores!r}: expected 3 scores and a 0 for the empty seat",
                                       scores=scores))
        self.start = tuple(as_int(x, "score") for x in scores[:3])
        self.dora = tuple(tile_from_code(c) for c in _list(data[2], "dora"))
        self.ura = tuple(tile_from_code(c) for c in _list(data[3], "ura dora"))
        if not self.dora:
            raise RecordError(sentence("no dora indicator"))
        if any(_list(x, "4th seat") for x in data[13:16]):
            raise RecordError(sentence("the fourth seat has tiles: a 4-player record read as 3-player"))
        self.haipai = [[tile_from_code(c) for c in _list(data[4 + 3 * s], f"haipai {s}")] for s in range(3)]
        for s, h in enumerate(self.haipai):
            if len(h) != 13:
                raise RecordError(sentence("seat {s} is dealt {n} tiles, not 13", s=s, n=len(h)))
        self.takes = [_list(data[5 + 3 * s], f"draws {s}") for s in range(3)]
        self.discards = [_list(data[6 + 3 * s], f"discards {s}") for s in range(3)]
        self.result = _list(data[16], "result")
        self.replay = KyokuReplay(p, self.label, self.dealer, [list(h) for h in self.haipai],
                                  kyotaku=self.kyotaku, live_draws=live_draws_for(named_rules(game.rule_name)))
        initial = game.initial_dora[index] if index < len(game.initial_dora) else 1
        self.initial_indicators = as_int(initial, "sanma.initial_dora")
        self.ti = [0, 0, 0]
        self.di = [0, 0, 0]

    def _where(self, seat: int) -> None:
        self.replay.where = sentence("seat {seat} draw {draw} discard {discard}", seat=seat, draw=self.ti[seat],
                                     discard=self.di[seat])

    def _draw(self, seat: int) -> bool:
        """Next draw of ``seat``; False when its draws are exhausted (the kyoku is over)."""
        if self.ti[seat] >= len(self.takes[seat]):
            return False
        item = self.takes[seat][self.ti[seat]]
        self._where(seat)
        self.ti[seat] += 1
        if isinstance(item, str):
            raise RecordError(sentence("call {item!r} where seat {seat} should draw", item=item, seat=seat))
        self.replay.play(ev.Tsumo(seat, tile_from_code(item)))
        return True

    def _act(self, seat: int) -> str:
        """Play ``seat``'s actions after a draw or call; returns 'discard', 'end' or 'tsumo'."""
        rp = self.replay
        while True:
            if self.di[seat] >= len(self.discards[seat]):
                return "tsumo"
            self._where(seat)
            item = self.discards[seat][self.di[seat]]
            self.di[seat] += 1
            if isinstance(item, int) and not isinstance(item, bool):
                drawn = rp.last_draw[seat]
                if item == 60:
                    if drawn is None:
                        raise RecordError(sentence("tsumogiri (60) by seat {seat} without a draw", seat=seat))
                    rp.play(ev.Dahai(seat, drawn, True))
                else:
                    rp.play(ev.Dahai(seat, tile_from_code(item), False))
                return "discard"
            if not isinstance(item, str):
                raise RecordError(sentence("discard entry {item!r} is neither a tile code nor an action",
                                           item=item))
            if item.startswith(("r", "o")):  # "o": open riichi, a sanma extension (club rules)
                code = as_int(item[1:], f"riichi discard {item!r}")
                drawn = rp.last_draw[seat]
                if code == 60 and drawn is None:
                    raise RecordError(sentence("tsumogiri riichi by seat {seat} without a draw", seat=seat))
                rp.play(ev.Reach(seat, item.startswith("o")))
                rp.play(ev.Dahai(seat, drawn, True) if code == 60 and drawn is not None
                        else ev.Dahai(seat, tile_from_code(code), False))
                return "discard"
            if "f" in item:
                _, _, t = _parse_call(item, "f")
                if t.is_flower:
                    rp.play(ev.Flower(seat, t))
                else:
                    if t.kind != NORTH:
                        rp.problem(sentence("kita {item!r} by seat {seat}: {tile} is not a North", code="call",
                                            item=item, seat=seat, tile=str(t)))
                    rp.play(ev.Kita(seat))
            elif "a" in item:
                _, tiles, t = _parse_call(item, "a")
                if len(tiles) != 4:
                    raise RecordError(sentence("ankan {item!r} does not have 4 tiles", item=item))
                rest = list(tiles)
                if t in rest:
                    rest.remove(t)
                rp.play(ev.Ankan(seat, (t, *rest[:3])))  # the named tile first: the one offered (chankan)
            elif "k" in item:
                _, tiles, t = _parse_call(item, "k")
                pon = next((ts for k, ts in rp.melds[seat] if k == "pon" and ts[0].kind == t.kind), ())
                added = list(tiles)
                for x in pon:
                    if x in added:
                        added.remove(x)
                rp.play(ev.Kakan(seat, added[0] if len(added) == 1 else t, tuple(pon)))
            else:
                raise RecordError(sentence("unknown action {item!r} in seat {seat}'s discards",
                                           item=item, seat=seat))
            if not self._draw(seat):  # robbed (ron on the kita/kan tile), or the record ends
                return "end"

    def _call_after(self, discarder: int, tile: Tile) -> int | None:
        """Seat that pons or kans ``tile`` just discarded by ``discarder`` (None if nobody)."""
        for off in (1, 2):
            s = (discarder + off) % 3
            if self.ti[s] >= len(self.takes[s]):
                continue
            item = self.takes[s][self.ti[s]]
            if not isinstance(item, str):
                continue
            letter = "p" if "p" in item else "m" if "m" in item else None
            if letter is None:
                raise RecordError(sentence("unknown call {item!r} in seat {s}'s draws", item=item, s=s))
            pos, tiles, called = _parse_call(item, letter)
            if called.kind != tile.kind:
                continue
            src = (s + _CALL_FROM.get(pos, 0)) % 4
            if src != discarder:
                continue
            self._where(s)
            self.ti[s] += 1
            hand = list(tiles)
            hand.remove(called)
            call = ev.Pon if letter == "p" else ev.Daiminkan
            self.replay.play(call(s, discarder, tile, tuple(hand)))
            return s
        return None

    def play(self) -> tuple[str, int]:
        """Replay every draw and discard; returns how it ended: ('tsumo'|'end', last seat)."""
        for i in range(3):  # flowers dealt are set aside and replaced at once, dealer first (P03)
            s = (self.dealer + i) % 3
            while any(t.is_flower for t in self.replay.hands[s]):
                item = self.discards[s][self.di[s]] if self.di[s] < len(self.discards[s]) else None
                if not (isinstance(item, str) and item.startswith("f")):
                    raise RecordError(sentence("seat {s} was dealt a flower but does not set it aside first",
                                               s=s))
                self.di[s] += 1
                self.replay.play(ev.Flower(s, _parse_call(item, "f")[2]))
                if not self._draw(s):
                    raise RecordError(sentence("no replacement draw for seat {s}'s flower", s=s))
        seat = self.dealer
        if not self._draw(seat):
            raise RecordError(sentence("the dealer has no first draw"))
        for _ in range(400):
            state = self._act(seat)
            if state != "discard":
                return state, seat
            offer = self.replay.offer
            assert offer is not None
            caller = self._call_after(seat, offer[2])
            if caller is not None:
                seat = caller
                if self.replay.pending_replacement[seat]:  # daiminkan: a 0 placeholder, then rinshan
                    if self.di[seat] < len(self.discards[seat]) and self.discards[seat][self.di[seat]] == 0:
                        self.di[seat] += 1
                    if not self._draw(seat):
                        return "end", seat
                continue
            nxt = (seat + 1) % 3
            if not self._draw(nxt):
                return "end", seat
            seat = nxt
        raise RecordError(sentence("kyoku does not end after 400 turns"))

    def record(self, results: tuple[Result, ...]) -> KyokuRecord:
        return KyokuRecord(
            round_wind=self.round_wind, dealer=self.dealer, honba=self.honba, kyotaku=self.kyotaku,
            start_scores=self.start, dora_indicators=self.dora, ura_indicators=self.ura,
            initial_hands=tuple(tuple(h) for h in self.haipai), events=tuple(self.replay.events),
            results=results, initial_indicators=self.initial_indicators)

    def results(self, state: str, last: int) -> tuple[Result, ...]:
        p = self.g.problems
        res = self.result
        if not res or not isinstance(res[0], str):
            raise RecordError(sentence("result {res!r} does not start with its name", res=res))
        for s in range(3):
            if self.ti[s] != len(self.takes[s]) or self.di[s] != len(self.discards[s]):
                p.add(sentence("seat {seat} has unplayed actions: draws {draws}/{takes}, discards {played}/{discards}",
                               code="unplayed", seat=s, draws=self.ti[s], takes=len(self.takes[s]), played=self.di[s],
                               discards=len(self.discards[s])), self.label)
        if res[0] != "和了":
            kind = draw_key(res[0])
            if kind is None:
                p.add(sentence("unknown result {name!r}", code="unknown_draw", name=res[0]), self.label)
            if res[0] != "チョンボ":  # a chombo voids the hand: a riichi pending then is never accepted
                self.replay.finish()
            deltas = tuple(as_int(x, "delta") for x in _list(res[1], "deltas")[:3]) if len(res) > 1 else (0, 0, 0)
            return (DrawResult(kind or res[0], deltas),)
        out: list[Result] = []
        if len(res) < 3 or len(res) % 2 != 1:
            raise RecordError(sentence("win result {res!r} is not ['和了', deltas, info, ...]", res=res))
        for i in range(1, len(res), 2):
            deltas = tuple(as_int(x, "delta") for x in _list(res[i], "deltas"))
            if len(deltas) == 4 and deltas[3] != 0:
                p.add(sentence("the empty fourth seat has a delta {delta}", code="payments", delta=deltas[3]),
                      self.label)
            info = _list(res[i + 1], "win info")
            if len(info) < 4:
                raise RecordError(sentence("win info {info!r} is too short", info=info))
            who, frm, pao = (as_int(x, "win info seat") for x in info[:3])
            if state == "tsumo" and (who != frm or who != last):
                p.add(sentence("the record ends with seat {last}'s draw, but the result is seat {who} from {frm}",
                               code="win", last=last, who=who, frm=frm), self.label)
            ctx = self.replay.win(who, frm)
            if ctx is None:
                raise RecordError(sentence("cannot reconstruct the winning hand of seat {who}", who=who))
            yaku, yakuman = _json_yaku(info[4:], p, self.label)
            points_text = info[3]
            if not isinstance(points_text, str):
                raise RecordError(sentence("points {points_text!r} is not text", points_text=points_text))
            limit, word = limit_prefix(points_text) or (None, "")
            if limit == "kazoe":  # Tenhou writes a counted yakuman as 役満: it is paid as one
                limit = "yakuman"
            m = _POINTS.match(points_text[len(word):])
            if m is None:
                raise RecordError(sentence("points {points_text!r} are not '30符2飜1000点' / '満貫2000-4000点'",
                                           points_text=points_text))
            fu = int(m.group(1)) if m.group(1) else None
            a, b = int(m.group(3)), int(m.group(4) or 0)
            # a tsumo is paid by the two others (tsumo-son: "a-b" = non-dealer-dealer, "a∀" each)
            points = (2 * a if m.group(5) else a + b) if who == frm else a
            if yakuman and who != frm and len(yaku) == 1 and points % (8000 * (6 if who == self.dealer else 4)) == 0:
                # A ron is paid 4 (the dealer's 6) times the basic points under every payment model,
                # so its points tell the yakuman multiple; a converter of Mahjong Soul games writes
                # (役満) for its double yakuman too (mjai-reviewer3p: 国士無双十三面待ち(役満), 64,000)
                multiple = points // (8000 * (6 if who == self.dealer else 4))
                if multiple != yakuman:
                    yaku, yakuman = ((yaku[0][0], multiple),), multiple
            han = 0 if yakuman else sum(h for _, h in yaku)
            if m.group(2) and int(m.group(2)) != han:
                p.add(sentence("points {points!r} say {said} han, the yaku add up to {han}", code="win_han",
                               points=points_text, said=m.group(2), han=han), self.label)
            first = not out
            out.append(build_win(
                ctx, seat=who, from_seat=frm, dealer=self.dealer, round_wind=self.round_wind,
                honba=self.honba, kyotaku=None if first else 0, dora=self.dora,
                ura=self.ura, yaku=yaku, yakuman=yakuman, han=han, fu=fu, limit=limit, points=points,
                deltas=deltas[:3], pao_seat=None if pao == who else pao, source=self.g.source,
                label=self.label, index=self.index, problems=p))
        return tuple(out)


def _list(x: Any, what: str) -> list[Any]:
    if not isinstance(x, list):
        raise RecordError(sentence("{what}: expected a list, got {name}", what=what, name=type(x).__name__))
    return x


class _Tenhou6Reader:
    def __init__(self, data: Any, source: str, strict: bool) -> None:
        self.data = data
        self.source = source
        self.problems = Problems(source, strict)
        self.rule_name = ""
        self.initial_dora: list[Any] = []

    def read(self) -> GameRecord:
        d, p = self.data, self.problems
        if not isinstance(d, dict) or not isinstance(d.get("log"), list):
            raise RecordError(sentence("{source}: not tenhou.net/6 JSON (no 'log' list)", source=self.source))
        rule: dict[str, Any] = d["rule"] if isinstance(d.get("rule"), dict) else {}
        self.rule_name = str(rule.get("disp", ""))
        ext: dict[str, Any] = d["sanma"] if isinstance(d.get("sanma"), dict) else {}
        dora_counts = ext.get("initial_dora")
        self.initial_dora = dora_counts if isinstance(dora_counts, list) else []
        names = d.get("name")
        players = tuple(str(x) for x in names[:3]) if isinstance(names, list) else ()
        if isinstance(names, list) and len(names) > 3 and names[3]:
            raise RecordError(sentence("{source}: a fourth player {names!r} in a 3-player record",
                                       source=self.source, names=names[3]))
        kyoku: list[KyokuRecord] = []
        for i, kd in enumerate(d["log"]):
            label = f"#{i}"
            try:
                k = _Tenhou6Kyoku(self, kd, i)
                label = k.label
                state, last = k.play()
                kyoku.append(k.record(k.results(state, last)))
            except (SanmaError, ValueError, KeyError, IndexError, TypeError, OverflowError) as e:
                p.add(error_text(e), label)
        final_scores = final_points = None
        sc = d.get("sc")
        if isinstance(sc, list) and len(sc) >= 6:
            try:
                final_scores = tuple(as_int(x, "final score") for x in sc[0:6:2])
                final_points = tuple(float(x) for x in sc[1:6:2])
            except (SanmaError, ValueError, TypeError) as e:
                p.add(error_text(e), None, sentence("the final scores ({key})", key="sc"))
        if not kyoku:
            p.add(sentence("no kyoku in the log", code="no_kyoku"))
        return GameRecord(
            source=self.source, format="tenhou6", rule_name=str(rule.get("disp", "")),
            rule_flags=tuple(sorted((str(k), v) for k, v in rule.items() if k != "disp")),
            players=players, start_scores=kyoku[0].start_scores if kyoku else (), kyoku=tuple(kyoku),
            final_scores=final_scores, final_points=final_points, complete=final_scores is not None,
            errors=tuple(p.items), kita_in_dora=_tenhou_game(str(rule.get("disp", ""))))


def _tenhou_game(disp: str) -> bool:
    """Whether tenhou.net/6 JSON is of a game played on Tenhou (a lobby name such as 三鳳南喰赤, or
    none), not a Mahjong Soul conversion (a room name) nor sanma's own (its rule set's name)."""
    return not majsoul_room(disp) and (not disp or not disp.isascii())


def read_tenhou6(path_or_text: str | Path | bytes, *, strict: bool = False,
                 source: str | None = None) -> GameRecord:
    """Read a tenhou.net/6 JSON record (Tenhou's, or a converted Mahjong Soul game).

    The three players' draw and discard columns are interleaved by replaying the kyoku: after
    each discard the next call string (``p``/``m`` with the letter's position naming the
    discarder) is matched, else the next seat draws. The format cannot say which of two equal
    discards was called when a player passes a pon and calls the same tile from the same
    discarder before drawing again; the first chance is taken (the record then fails to read).
    """
    return read_guarded("tenhou6", path_or_text, strict, source,
                        lambda text, src: _Tenhou6Reader(parse_json(text, src), src, strict).read())


# --- writing -------------------------------------------------------------------------------------




def tenhou6_code(name: str) -> int:
    """tenhou.net/6 code of an mjai tile name: ``tenhou6_code('5pr') == 52``, ``tenhou6_code('N') == 44``,
    flowers (sanma extension) ``tenhou6_code('1f') == 61``."""
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


class _KyokuWriter:
    def __init__(self, start: ev.StartKyoku, rules: Rules | None) -> None:
        self.rules = rules
        rounds = WIND_LETTERS
        self.dealer = start.oya
        self.honba = start.honba
        self.head = [4 * rounds.index(start.bakaze) + self.dealer, self.honba, start.kyotaku]
        self.scores = [*start.scores, 0]
        self.dora = [tenhou6_code(t.mjai) for t in start.dora_markers]
        self.initial_dora = len(self.dora)
        self.ura: list[int] = []
        if any(t is None for h in start.tehais for t in h):
            raise RecordError(sentence("start_kyoku with hidden tiles ('?'): a seat's view is not a whole "
                                       "game"))
        self.haipai = [[tenhou6_code(t.mjai) for t in h if t is not None] for h in start.tehais]
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
            self.takes[e.actor].append(tenhou6_code(e.pai.mjai))
        elif isinstance(e, ev.Reach):
            self.riichi = e.actor
            self.open = e.open
        elif isinstance(e, ev.Dahai):
            seat = e.actor
            code = 60 if e.tsumogiri else tenhou6_code(e.pai.mjai)
            if self.riichi == seat:
                self.discards[seat].append(("o" if self.open else "r") + str(code))
                self.riichi = None
            else:
                self.discards[seat].append(code)
        elif isinstance(e, ev.Pon | ev.Daiminkan):
            seat, target = e.actor, e.target
            consumed = [tenhou6_code(t.mjai) for t in e.consumed]
            pos = _call_position(seat, target)
            pon = isinstance(e, ev.Pon)
            if not pon and pos == 4:
                pos = 6  # a kan from the next player: the letter before the last tile
            text = _call_text("p" if pon else "m", tenhou6_code(e.pai.mjai), consumed, pos)
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
            self.discards[seat].append(f"{held[:p]}k{tenhou6_code(e.pai.mjai)}{held[p + 1:]}")
        elif isinstance(e, ev.Ankan):
            codes = sorted(tenhou6_code(t.mjai) for t in e.consumed)
            # Tenhou writes three tiles, 'a', the fourth (a red five last)
            self.discards[e.actor].append("".join(str(c) for c in codes[:3]) + f"a{codes[3]}")
        elif isinstance(e, ev.Kita):
            self.discards[e.actor].append(f"f{tenhou6_code('N')}")
        elif isinstance(e, ev.Flower):
            self.discards[e.actor].append(f"f{tenhou6_code(e.pai.mjai)}")
        elif isinstance(e, ev.Dora):
            self.dora.append(tenhou6_code(e.marker.mjai))
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
            self.ura = [tenhou6_code(t.mjai) for t in e.uradora_markers]
        if not self.result:
            self.result = ["和了"]
        own_wind = seat_wind(who, self.dealer)
        round_wind = WIND_LETTERS[self.head[0] // 4]
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
    events = events_of(game_or_events)
    if rules is None:
        rules = getattr(game_or_events, "rules", None)
    start = next((e for e in events if isinstance(e, ev.StartGame)), None)
    name = start.rules if start is not None else ""
    if rules is None and name in Rules.presets():
        rules = Rules.preset(name)
    names = list(start.names)[:3] if start is not None and start.names else ["", "", ""]
    log: list[list[Any]] = []
    initial_dora: list[int] = []
    cur: _KyokuWriter | None = None
    final: ev.EndGame | None = None
    for e in events:
        if isinstance(e, ev.StartKyoku):
            cur = _KyokuWriter(e, rules)
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
