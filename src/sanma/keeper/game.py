"""One kept game: people's entries turned into the shared settlement and flow calls.

The keeper has no tiles and no wall, only what people say happened. Each entry is checked
against the game (the winner plays this game, nobody rons themselves, the rules' han minimum),
turned into the outcome values of :mod:`sanma.game.payout`, settled there, and the table moves
on by :mod:`sanma.game.flow` — the same functions the engine calls at the end of every hand, so
a kept game and an engine game with the same outcomes end with the same result.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..errors import NotAWinError, SanmaError
from ..game import flow, payout
from ..game.settle import Item, final_result, is_bust, riichi_bust
from ..hand import Meld
from ..i18n import Message, sentence, term
from ..i18n.messages import Keyword, to_data
from ..rules.schema import Rules
from ..scoring import Score, fixed_fu, min_han_at, score_from_han, score_hand
from ..tiles import Tile, parse_tiles, seat_wind
from .entries import (
    ABORT_KINDS,
    MIXED,
    PENALTY_KINDS,
    RESULT_KINDS,
    AbortEntry,
    ChomboEntry,
    DrawEntry,
    Entry,
    FinalEntry,
    KeeperError,
    PenaltyEntry,
    TimeUpEntry,
    Where,
    WinEntry,
    Winner,
    entry_field,
)
from .series import Series


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game, per person: final score, rank, points and chips (everything: per hand,
    end of game, uma in chips, streak chips); who won its last hand (P124)."""

    game: int
    scores: Mapping[str, int]
    ranks: Mapping[str, int]
    points: Mapping[str, float]
    chips: Mapping[str, int]
    end_reason: str
    last_winner: str | None = None
    uma_multiplier: int = 1
    streak_chips: Mapping[str, int] = field(default_factory=dict)
    #: the settlement line by line (``settle.Item.to_json`` per person): what each seat's points and
    #: chips are made of (end-of-game chips, sticks, oka, uma, bust, chombo, table chips, streaks)
    items: tuple[Mapping[str, Any], ...] = ()
    chombos: Mapping[str, int] = field(default_factory=dict)  # chombo per person in the game (P100)
    busted: tuple[str, ...] = ()  # who busted (P108) and who caused it (P110)
    busters: tuple[str, ...] = ()
    sticks: int = 0  # riichi sticks left on the table at the end (P31)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "scores": dict(self.scores), "ranks": dict(self.ranks),
                "points": dict(self.points), "chips": dict(self.chips), "end_reason": self.end_reason,
                "last_winner": self.last_winner, "uma_multiplier": self.uma_multiplier,
                "streak_chips": dict(self.streak_chips), "items": [dict(i) for i in self.items],
                "chombos": dict(self.chombos), "busted": list(self.busted), "busters": list(self.busters),
                "sticks": self.sticks}

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> GameResult:
        """The inverse of :meth:`to_json` (the keeper's cache); a KeyError/TypeError on a bad one."""
        return GameResult(int(d["game"]), dict(d["scores"]), dict(d["ranks"]), dict(d["points"]), dict(d["chips"]),
                          str(d["end_reason"]), d["last_winner"], int(d["uma_multiplier"]), dict(d["streak_chips"]),
                          tuple(dict(i) for i in d["items"]), dict(d["chombos"]), tuple(d["busted"]),
                          tuple(d["busters"]), int(d["sticks"]))


class KeptGame:
    """A game in play: its players in seat order (seat 0 = the first dealer, 起家)."""

    def __init__(self, rules: Rules, number: int, order: Sequence[str], *, uma_multiplier: int = 1) -> None:
        self.rules = rules
        self.number = number
        self.players = tuple(order)
        self.uma_multiplier = uma_multiplier
        self.hands: list[dict[str, Any]] = []
        #: results entered so far (a win, a draw, an abort, the final scores): the hand in play is
        #: the game's ``results + 1``-th; a chombo or a penalty does not close it (issue 19 item 1)
        self.results = 0
        self.finished = False
        self.end_reason = ""
        self.last_winner: str | None = None
        self._final: FinalEntry | None = None
        self.table = flow.TableState.start(rules)
        self._end: flow.HandEnd | None = None
        self.pot_chips = 0  # chips deposited on the table by penalties (P104, A000-27)
        self.dead: dict[int, str] = {}  # seat -> the mistake that made its hand dead (P103)
        self.at_draw: dict[int, str] = {}  # seat -> the mistake that is a chombo at the draw (P102)
        self.last_hand = False  # the round's time is up: the game ends with the hand in play

    # -- people and seats ---------------------------------------------------------------------
    def seat(self, person: str, what: Where) -> int:
        if person not in self.players:
            raise KeeperError(sentence("{where}: {name} is not at the table in game {game} (players: {names})",
                                       where=what, name=person, game=self.number, names=", ".join(self.players)))
        return self.players.index(person)

    def wind_of(self, person: str) -> str | None:
        if person not in self.players:
            return None
        return seat_wind(self.players.index(person), self.dealer)

    def _seats(self, people: Sequence[str], what: Where) -> tuple[int, ...]:
        return tuple(self.seat(p, what) for p in people)

    def _by_person(self, values: Sequence[int]) -> dict[str, int]:
        return {p: int(values[i]) for i, p in enumerate(self.players)}

    # -- applying entries -----------------------------------------------------------------------
    def apply(self, entry: Entry) -> dict[str, Any]:
        """Settle ``entry``; return its row for the session's ``hands`` list."""
        if self.finished:
            raise KeeperError(sentence("game {game} is over ({why})", game=self.number, why=self.end_reason))
        if isinstance(entry, FinalEntry):
            if self.hands:  # a game is kept hand by hand or by its final scores, not both
                raise KeeperError(sentence("final: game {game} is kept hand by hand ({n} entries): correct those, or "
                                           "delete them to enter its final scores", game=self.number,
                                           n=len(self.hands)))
            return self._apply_final(entry)
        row: dict[str, Any] = {"game": self.number, "hand_index": self.results + 1, "label": self.label(),
                               "honba": self.honba, "dealer": self.players[self.dealer], "kind": entry.kind}
        before, chips_before = list(self.scores), list(self.chips)
        if isinstance(entry, WinEntry):
            row.update(self._apply_win(entry))
        elif isinstance(entry, DrawEntry):
            row.update(self._apply_draw(entry))
        elif isinstance(entry, AbortEntry):
            row.update(self._apply_abort(entry))
        elif isinstance(entry, ChomboEntry):
            row.update(self._apply_chombo(self._seats(entry.who, entry_field("chombo")), entry.reason or "chombo"))
        elif isinstance(entry, PenaltyEntry):
            row.update(self._apply_penalty(entry))
        elif isinstance(entry, TimeUpEntry):
            self.last_hand = True
            row.update(said(sentence("time is up: the hand in play is the last")))
        else:  # pragma: no cover - seatings are handled by the session
            raise KeeperError(sentence("entry {kind} does not belong in a game", kind=entry.kind))
        if is_result(entry):
            self.results += 1
        row["entry"] = _entry_json(entry)
        row["deltas"] = self._by_person([a - b for a, b in zip(self.scores, before, strict=True)])
        row["chips"] = self._by_person([a - b for a, b in zip(self.chips, chips_before, strict=True)])
        row["scores"] = self.scores_by_person()
        if self.finished:
            row["game_over"] = self.end_reason
        self.hands.append(row)
        return row

    def _deposit_riichi(self, people: Sequence[str]) -> tuple[int, ...]:
        """P48: each riichi declared this hand puts a stick on the table (P79: if the points allow)."""
        seats = self._seats(people, entry_field("riichi"))
        r = self.rules
        scores = self.scores
        for s in seats:
            if riichi_bust(r, scores[s]):  # P79 / A000-19 (CLUB): the hand stopped at that riichi
                raise KeeperError(sentence("riichi: {who} declared riichi with {points:,} points: a bust at once under "
                                           "{rules} (P79, A000-19): enter `table abort --kind riichi_bust --riichi "
                                           "{who}`", who=self.players[s], points=scores[s], rules=r.name))
            if scores[s] < r.riichi_min_points:  # P79 / A000-19
                raise KeeperError(sentence("riichi: {who} has {points:,} points; riichi needs {need:,} (P79)",
                                           who=self.players[s], points=scores[s], need=r.riichi_min_points))
            scores[s] -= r.riichi_deposit
        self._move(scores=scores, kyotaku=self.sticks + len(seats))
        return seats

    def _take_pot(self, seat: int) -> None:
        """P104 / A000-27: chips a penalty left on the table go to the winner (in a double ron the
        first winner, who takes the sticks: seed 000 L281)."""
        if self.pot_chips:
            chips = self.chips
            chips[seat] += self.pot_chips
            self.pot_chips = 0
            self._move(chips=chips)

    def _check_alive(self, seat: int, what: str) -> None:
        if seat in self.dead:
            raise KeeperError(sentence("{where}: {name} has a dead hand this hand ({why}): no win (P103)", where=what,
                                       name=self.players[seat], why=self.dead[seat]))

    def _apply_win(self, e: WinEntry) -> dict[str, Any]:
        r = self.rules
        dealer = self.dealer
        discarder = None if e.discarder is None else self.seat(e.discarder, sentence("ron: from"))
        seats = [self.seat(w.winner, entry_field("winner")) for w in e.wins]
        for w, s in zip(e.wins, seats, strict=True):
            if discarder == s:
                raise KeeperError(sentence("ron: {who} cannot ron their own discard", who=w.winner))
            self._check_alive(s, "win")
        if len(seats) > 1 and not r.double_ron:
            raise KeeperError(sentence("double ron is not allowed under {rules} (P88: head bump): enter the first "
                                       "winner", rules=r.name))
        pao_seat = None if e.pao is None else self.seat(e.pao, entry_field("pao"))
        if pao_seat is not None and pao_seat in seats:
            raise KeeperError(sentence("pao: {who} is the winner, not the liable player", who=e.pao))
        riichi = self._deposit_riichi(e.riichi)
        # the head bump order (P88-P91): the discarder's shimocha first
        order = sorted(range(len(seats)), key=lambda i: (seats[i] - (discarder or 0)) % 3)
        wins: list[payout.Win] = []
        summaries: list[Message | None] = []
        for i in order:
            w, s = e.wins[i], seats[i]
            score = self._score(w, s, discarder, s in riichi)
            self._check_han(w, score)
            pao: tuple[payout.Pao, ...] = ()
            if pao_seat is not None:
                liable = [*r.pao_yaku, *((payout.RINSHAN_PAO,) if r.pao_daiminkan_rinshan else ())]
                pao = tuple(payout.Pao(pao_seat, y) for y in liable)
                names = {y.name for y in score.yaku}
                if not (names & set(r.pao_yaku) and score.yakuman) and not (
                        r.pao_daiminkan_rinshan and "rinshan" in names and discarder is None):
                    raise KeeperError(sentence("pao: {name}'s hand has no yakuman with liability under {rules} "
                                               "({yaku}; by value, name it with --yaku) (P97)", name=w.winner,
                                               rules=r.name, yaku=", ".join(r.pao_yaku)))
            wins.append(payout.Win(s, score, pao=pao, closed=self._closed(w), ura_tiles=self._ura_tiles(w),
                                   chinitsu_shape=self._chinitsu_shape(w), chip_flowers=_chip_flowers(w)))
            summaries.append(sentence("(winning tile mixed into the hand: the lowest shape, P129)")
                             if w.tiles is not None and w.tiles.win == MIXED else None)
        paid = self._settle(payout.Hora(tuple(wins), discarder))
        described: list[Message] = []
        for j, (win, part) in enumerate(zip(wins, paid.wins, strict=True)):
            # a pao win is paid by the liable player (P97-P99), not as the tsumo or ron it was
            total = None if part.pao is None else -part.deltas[part.pao]
            one = _describe(self.players[win.seat], win.score, total)
            if summaries[j] is not None:
                one = sentence("{win} {note}", win=one, note=summaries[j])
            if part.pao is not None:
                one = sentence("{win} (pao: {who} pays {total:,})", win=one, who=self.players[part.pao], total=total)
            described.append(one)
        # P104 / A000-27, seed 000 L280-281 「その局の和了者が受け取る。ダブロンの場合は頭ハネとする」: the
        # table's chips go with the riichi sticks, to the winner payout paid them to (the head bump's
        # first winner; seed 003 L49 「リーチ棒は上家とり」 reads the same, seed 002 has no double ron)
        self._take_pot(paid.wins[0].seat)
        self.last_winner = self.players[wins[0].seat]
        if discarder is not None:
            how = sentence("ron from {who}", who=self.players[discarder])
        elif len(paid.wins) == 1 and paid.wins[0].pao is None:
            how = sentence("tsumo {declared}", declared=self._declared(paid.wins[0], dealer))
        else:
            how = sentence("tsumo")
        winners = described[0] if len(described) == 1 else sentence("{first} & {second}", first=described[0],
                                                                      second=described[1])
        return {**said(sentence("{winners} ({how})", winners=winners, how=how)),
                "payments": [{"winner": self.players[p.seat], "deltas": self._by_person(p.deltas),
                              "pao": None if p.pao is None else self.players[p.pao]} for p in paid.wins]}

    @staticmethod
    def _declared(paid: payout.WinPayment, dealer: int) -> Message | str:
        """A tsumo as it is called at the table, P131 (seed 002 L109-111 「ツモあがりの点数は子の方から
        申告してください。積み棒がある場合は…（例）500・1000は、1500・2000」): what each other player
        pays, honba included, the non-dealer's first (a dealer's tsumo: "N all")."""
        payers = sorted((x for x in range(len(paid.deltas)) if x != paid.seat), key=lambda x: x == dealer)
        amounts = [-paid.deltas[x] for x in payers]
        if paid.seat == dealer and len(set(amounts)) == 1:
            return sentence("{points:,} all", points=amounts[0])
        return "・".join(f"{a:,}" for a in amounts)

    def _apply_draw(self, e: DrawEntry) -> dict[str, Any]:
        r = self.rules
        tenpai = self._seats(e.tenpai, entry_field("tenpai"))
        nagashi = self._seats(e.nagashi, entry_field("nagashi"))
        for s in tenpai:
            if s in self.dead:
                raise KeeperError(sentence("tenpai: {who} has a dead hand ({why}): noten (P103)", who=self.players[s],
                                           why=Keyword("penalty", self.dead[s])))
        if nagashi and r.nagashi == "none":
            raise KeeperError(sentence("nagashi is not a hand under {rules} (P96)", rules=r.name))
        riichi = self._deposit_riichi(e.riichi)
        late = list(self.at_draw)
        if late:  # P102 / A003-7: a mistake that waited for the draw is a chombo now
            return self._apply_chombo(tuple(late), self.at_draw[late[0]], sticks_this_hand=riichi)
        # P80: a riichi player is tenpai at the draw, unless the rules' tenpai (P47) can be lost
        # after the riichi: seed 003 L25 「フリテンは一切不可、テンパイにもなりません」 — a riichi hand
        # that became furiten (a passed win) is noten at the draw, not a chombo (A003-21)
        riichi_stays_tenpai = r.tenpai_furiten and r.tenpai_karaten
        for s in riichi if riichi_stays_tenpai else ():
            if s not in tenpai and not (nagashi and r.nagashi_is_win):
                raise KeeperError(sentence("draw: {who} declared riichi but is not tenpai: a noten riichi is a chombo "
                                           "(P80): enter it with `table chombo`", who=self.players[s]))
        self._settle(payout.ExhaustiveDraw(tenpai, nagashi))
        if nagashi and r.nagashi_is_win:  # P96 / A000-3: nagashi is a win
            self.last_winner = self.players[nagashi[0]]
            self._take_pot(nagashi[0])
        names: str | Message = ", ".join(self.players[s] for s in tenpai) or sentence("nobody")
        if nagashi:
            return said(sentence("draw, tenpai: {names}; nagashi: {nagashi}", names=names,
                                 nagashi=", ".join(e.nagashi)))
        return said(sentence("draw, tenpai: {names}", names=names))

    def _apply_abort(self, e: AbortEntry) -> dict[str, Any]:
        r = self.rules
        if e.abort == "riichi_bust":
            return self._riichi_bust(e)
        if e.abort not in abort_kinds(r):
            raise KeeperError(sentence("abortive draw {kind} does not exist under {rules} (P92-P95)",
                                       kind=Keyword("draw", e.abort), rules=r.name))
        self._deposit_riichi(e.riichi)
        self._settle(payout.AbortiveDraw(e.abort))
        return said(sentence("abortive draw ({kind})", kind=Keyword("draw", e.abort)))

    def _riichi_bust(self, e: AbortEntry) -> dict[str, Any]:
        """P79 / A000-19 (CLUB) 「1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れ」: the hand
        stops at the declaration (no stick) and the declarer is bust, owing both other players the
        bust chips (payout.RiichiBust), as the engine settles it."""
        r = self.rules
        if len(e.riichi) != 1:
            raise KeeperError(sentence("riichi bust: name the one player who declared it (--riichi P)"))
        seat = self.seat(e.riichi[0], sentence("riichi bust"))
        score = self.table.scores[seat]
        if not riichi_bust(r, score):
            raise KeeperError(sentence("riichi bust: {who} has {points:,} points; under {rules} a riichi is a bust "
                                       "only with {most:,} or fewer (P79, A000-19)", who=e.riichi[0], points=score,
                                       rules=r.name, most=r.riichi_bust_points)
                              if r.riichi_bust_points else
                              sentence("riichi bust: no such rule under {rules} (P79)", rules=r.name))
        # payout settles it (now, or with the game's end where a bust ends it); flow: end or replay
        self._settle(payout.RiichiBust(seat, opening=self.table.opening))
        return said(sentence("riichi bust: {who} declared riichi with {points:,} points", who=e.riichi[0],
                             points=score))

    def _apply_chombo(self, seats: Sequence[int], reason: str, sticks_this_hand: Sequence[int] = ()) -> dict[str, Any]:
        """P100-P102: the hand is void; each offender pays (rank points at the end under
        ``chombo = rank_points``); riichi sticks of the hand go back; the deal repeats or passes
        (P101, A003-7)."""
        self._settle(payout.Chombo(tuple(payout.Offence(s, reason) for s in seats), tuple(sticks_this_hand)))
        who = " & ".join(self.players[s] for s in seats)
        return {"kind": "chombo", **said(sentence("chombo by {who} ({reason})", who=who, reason=_reason(reason))),
                "offenders": [self.players[s] for s in seats]}

    def _apply_penalty(self, e: PenaltyEntry) -> dict[str, Any]:
        """P102-P106: what the mistake costs under these rules (one field per kind)."""
        r = self.rules
        seat = self.seat(e.who, entry_field("penalty"))
        what = (sentence("{penalty} by {who} ({reason})", penalty=Keyword("penalty", e.penalty), who=e.who,
                         reason=e.reason) if e.reason else
                sentence("{penalty} by {who}", penalty=Keyword("penalty", e.penalty), who=e.who))
        scores, chips = self.scores, self.chips
        if e.penalty == "free":  # P106: decided at the table; paid to the others in equal parts
            for x in range(3):
                if x != seat:
                    scores[x] += e.points // 2
                    chips[x] += e.chips // 2
            scores[seat] -= e.points // 2 * 2
            chips[seat] -= e.chips // 2 * 2
            self._move(scores=scores, chips=chips)
            row: dict[str, Any] = said(sentence("penalty {what}: {points:,} points, {chips} chips", what=what,
                                                points=e.points, chips=e.chips))
            end = flow.penalty_bust(r, self.table, seat, tuple(x for x in range(3) if x != seat))
            if end is not None:  # seed 000 L86/L88: a bust ends the game at once
                self.finished, self.end_reason, self._end = True, end.reason, end
            return row
        effect = getattr(r, f"penalty_{e.penalty}")
        if effect == "chombo":
            row = self._apply_chombo((seat,), e.penalty)
            row.update(said(sentence("penalty {what}: chombo", what=what)))
            return row
        if effect == "chombo_at_draw":
            self.at_draw.setdefault(seat, e.penalty)
            return said(sentence("penalty {what}: a chombo if the hand reaches the draw", what=what))
        if effect == "dead_hand":
            self.dead.setdefault(seat, e.penalty)
            return said(sentence("penalty {what}: dead hand (no win, noten at the draw)", what=what))
        if effect == "deposit":  # P104: on the table like a riichi stick; chips in the pot
            sticks = r.penalty_deposit_points // max(1, r.riichi_deposit)
            scores[seat] -= sticks * r.riichi_deposit
            chips[seat] -= r.penalty_deposit_chips
            self.pot_chips += r.penalty_deposit_chips
            self._move(scores=scores, chips=chips, kyotaku=self.sticks + sticks)
            return said(sentence("penalty {what}: {points:,} points and {chips} chips to the table", what=what,
                                 points=r.penalty_deposit_points, chips=r.penalty_deposit_chips))
        return said(sentence("penalty {what}: no penalty under {rules}", what=what, rules=r.name))

    # -- hand values ---------------------------------------------------------------------------
    def _score(self, w: Winner, seat: int, discarder: int | None, riichi: bool) -> Score:
        """The winner's Score: by tiles through ``score_hand`` with this game's winds, honba and
        sticks; by value through ``score_from_han``."""
        r = self.rules
        where = sentence("win by {who}", who=w.winner)
        own_wind = seat_wind(seat, self.dealer)
        disc_wind = None if discarder is None else seat_wind(discarder, self.dealer)
        try:
            if w.tiles is not None:
                t = w.tiles
                flags = {f: True for f in t.flags}

                def scored(win: str) -> Score:
                    return score_hand(
                        t.hand, win=win, melds=t.melds, tsumo=discarder is None, riichi=riichi,
                        seat_wind=own_wind, round_wind=self.round_wind, discarder_wind=disc_wind,
                        dora_indicators=t.dora, ura_indicators=t.ura if riichi else (), kita=t.kita,
                        flowers=t.flowers, honba=self.honba, kyotaku=self.sticks, rules=r, **flags)

                if t.win != MIXED:
                    return scored(t.win)
                return self._lowest(scored, t.hand, where)
            v = w.value
            assert v is not None
            if v.ippatsu and not riichi:
                raise KeeperError(sentence("{where}: ippatsu needs riichi (give --riichi {who})", where=where,
                                           who=w.winner))
            fixed = fixed_fu(r)
            if not v.yakuman and fixed and v.fu not in (0, fixed):  # P52 (seed 002 L13 「符計算なし・全て30符」)
                raise KeeperError(sentence("{where}: every hand is {fixed} fu under {rules} (P52, fu_mode = {mode}): "
                                           "leave the fu out, not {fu}", where=where, fixed=fixed, rules=r.name,
                                           mode=r.fu_mode, fu=v.fu))
            if not v.yakuman and not fixed and v.han < 5 and not v.fu:
                raise KeeperError(sentence("{where}: give the fu (20, 25, 30, 40, ... 110): below 5 han they count",
                                           where=where))
            yaku = (*v.yaku, *(("ippatsu",) if v.ippatsu else ()), *(("ura_dora",) * v.ura))
            return score_from_han(v.han, v.fu, yakuman=v.yakuman, yaku=yaku, tsumo=discarder is None,
                                  seat_wind=own_wind, discarder_wind=disc_wind, honba=self.honba,
                                  kyotaku=self.sticks, rules=r)
        except NotAWinError as e:
            raise KeeperError(sentence("{where}: not a win under {rules}: {reason}", where=where, rules=r.name,
                                       reason=e)) from None
        except KeeperError:
            raise
        except SanmaError as e:
            raise KeeperError(sentence("{where}: {reason}", where=where, reason=e)) from None

    def _lowest(self, scored: Callable[[str], Score], hand: str, where: Message) -> Score:
        """P129 (seed 002 L131-132 「引きヅモ…※あがり牌を手牌の中に入れた場合、最低点でのあがり形となります」):
        the winning tile went into the hand, so the win is the lowest-valued shape any of the hand's
        tiles as the winning tile gives."""
        if self.rules.mixed_win_tile != "lowest":
            raise KeeperError(sentence("{where}: {rules} does not say how a winning tile mixed into the hand is "
                                       "scored (P129: mixed_win_tile = {value!r}); give the winning tile the table "
                                       "agrees on", where=where, rules=self.rules.name,
                                       value=self.rules.mixed_win_tile))
        found: list[Score] = []
        for tile in dict.fromkeys(str(x) for x in parse_tiles(hand)):
            with contextlib.suppress(NotAWinError):
                found.append(scored(tile))
        if not found:
            raise NotAWinError(sentence("no tile of {hand} completes a win as the winning tile", hand=hand))
        return min(found, key=lambda sc: (sc.total, sc.han, sc.fu))

    def _check_han(self, w: Winner, score: Score) -> None:
        """P64: the rules' han minimum (the club's 2 han from 4 honba) for a hand given by value;
        a hand given by tiles was checked by the scorer. A 1-han win under the 2-han minimum is a
        chombo in seed 000 (L269), so it is refused here."""
        if w.value is None or w.value.yakuman:
            return
        need = min_han_at(self.rules, self.honba)
        han = w.value.han - (1 if w.value.ippatsu and not self.rules.shibari_counts_ippatsu and need > 1 else 0)
        if han < need:
            raise KeeperError(sentence("win by {who}: {han} han is below the {need}-han minimum at {honba} honba "
                                       "under {rules} (P64); under seed 000 that is a chombo (`table chombo`)",
                                       who=w.winner, han=w.value.han, need=need, honba=self.honba,
                                       rules=self.rules.name))

    @staticmethod
    def _closed(w: Winner) -> bool:
        if w.tiles is not None:
            return all(m.startswith("ankan:") for m in w.tiles.melds)
        return w.value is not None and w.value.closed

    def _tiles_of(self, w: Winner) -> list[Tile]:
        assert w.tiles is not None
        tiles = list(parse_tiles(w.tiles.hand))
        for m in w.tiles.melds:
            tiles += list(Meld.parse(m).tiles)
        return tiles

    def _chinitsu_shape(self, w: Winner) -> bool:
        if w.tiles is None:
            return w.value is not None and "chinitsu" in w.value.yaku
        return payout.one_suit(self._tiles_of(w))

    def _ura_tiles(self, w: Winner) -> int | None:
        """Physical tiles matching the ura indicators (``ura_chip_count = per_tile``, A000-25)."""
        if w.tiles is None or not w.tiles.ura:
            return None
        return payout.ura_tiles_held(parse_tiles("".join(w.tiles.ura)), self._tiles_of(w))

    def label(self) -> str:
        lap = f" lap {self.lap + 1}" if self.lap else ""
        return f"{self.round_wind}{self.kyoku + 1}{lap}"

    # -- reading --------------------------------------------------------------------------------
    def scores_by_person(self) -> dict[str, int]:
        return self._by_person(self.scores)

    def chips_by_person(self) -> dict[str, int]:
        return self._by_person(self.chips)

    def hand_json(self) -> dict[str, Any]:
        return {"round": self.round_wind, "number": self.kyoku + 1, "lap": self.lap, "honba": self.honba,
                "sticks": self.sticks, "dealer": self.players[self.dealer], "index": self.results + 1}

    def pot_json(self) -> dict[str, Any]:
        return {"sticks": self.sticks, "chips": self.pot_chips}

    # -- the table between hands: game/flow.py -------------------------------------------------
    @property
    def scores(self) -> list[int]:
        return list(self.table.scores)

    @property
    def chips(self) -> list[int]:
        return list(self.table.chips)

    @property
    def dealer(self) -> int:
        return self.table.dealer

    @property
    def honba(self) -> int:
        return self.table.honba

    @property
    def sticks(self) -> int:
        return self.table.kyotaku

    @property
    def round_wind(self) -> str:
        return self.table.round_wind(self.rules)

    @property
    def kyoku(self) -> int:
        return self.table.dealer  # seat 0 deals first: hand n of a lap is dealt by seat n - 1

    @property
    def lap(self) -> int:
        """Which lap of this round wind (the club's two East laps, overtime back to East)."""
        wind = self.round_wind
        return sum(1 for i in range(self.table.round_index) if flow.round_wind(self.rules, i) == wind)

    def _move(self, scores: Sequence[int] | None = None, chips: Sequence[int] | None = None,
              kyotaku: int | None = None) -> None:
        """A payment outside a hand's end (riichi sticks, deposits, free penalties)."""
        self.table = replace(self.table, scores=tuple(scores if scores is not None else self.table.scores),
                             chips=tuple(chips if chips is not None else self.table.chips),
                             kyotaku=self.table.kyotaku if kyotaku is None else kyotaku)

    def _settle(self, outcome: payout.Outcome) -> payout.Settlement:
        """The hand ends with ``outcome``: payout settles it, flow gives the next hand or the end."""
        t = self.table
        paid = payout.settle(self.rules, outcome, scores=t.scores, dealer=t.dealer, honba=t.honba, kyotaku=t.kyotaku)
        end = flow.next_hand(self.rules, t, outcome, paid)
        if self.last_hand:  # a tournament's clock (or its referee) made this hand the last
            end = flow.time_over(end)
        self.table = end.state
        self.dead, self.at_draw = {}, {}
        if end.over:
            self.finished = True
            self.end_reason = end.reason
            self._end = end
        return paid

    def _apply_final(self, e: FinalEntry) -> dict[str, Any]:
        """'Final scores only': the game's result from its final scores (and chips, if given), with
        the sticks left on the table (P31), the chombos (P100) and the busts (P108, P110)."""
        r = self.rules
        scores = dict(e.scores)
        if sorted(scores) != sorted(self.players):
            raise KeeperError(sentence("final: give the scores of {names} (game {game}), got {got}",
                                       names=", ".join(self.players), game=self.number, got=", ".join(scores)))
        total = sum(scores.values())
        expected = 3 * r.start_points
        left = e.sticks * r.riichi_deposit
        if total + left != expected:
            short = expected - total - left
            hint = (sentence(": {n} riichi sticks left on the table? (--sticks N, P31)", n=short // r.riichi_deposit)
                    if not e.sticks and short > 0 and short % r.riichi_deposit == 0 else "")
            if e.sticks:
                raise KeeperError(sentence("final: the scores add up to {total:,} and the {n} sticks left on the table "
                                           "to {sum:,}, not {expected:,} (3 x {start:,}){hint}", total=total,
                                           n=e.sticks, sum=total + left, expected=expected, start=r.start_points,
                                           hint=hint))
            raise KeeperError(sentence("final: the scores add up to {total:,}, not {expected:,} (3 x {start:,}){hint}",
                                       total=total, expected=expected, start=r.start_points, hint=hint))
        for p, _ in (*e.chips, *e.chombos):
            self.seat(p, entry_field("final"))
        if sum(c for _, c in e.chips):
            raise KeeperError(sentence("final: chips won and lost must add up to 0"))
        for p in e.busted:  # P108: a bust is a score the rules call one
            self.seat(p, sentence("final: busted"))
            if not is_bust(r, scores[p]):
                raise KeeperError(sentence("final: {name} has {points:,} points: not a bust under {rules} (P108)",
                                           name=p, points=scores[p], rules=r.name))
        for p in e.busters:
            self.seat(p, sentence("final: bust by"))
        bust_scores = [p for p in self.players if is_bust(r, scores[p])]
        if bust_scores and not e.busted and (r.bust_rank_points or r.dobon_fee):
            raise KeeperError(sentence("final: {names} busted under {rules}, which pays the bust (P110): say who "
                                       "busted whom (--bust P --bust-by Q)", names=", ".join(bust_scores),
                                       rules=r.name))
        chips = dict(e.chips)
        chombos = dict(e.chombos)
        self.table = replace(flow.TableState.start(r, [scores[p] for p in self.players]),
                             chips=tuple(chips.get(p, 0) for p in self.players),
                             chombos=tuple(chombos.get(p, 0) for p in self.players))
        self._final = e
        self.finished = True
        self.end_reason = "final_scores"
        self.results += 1
        row = {"game": self.number, "hand_index": 1, "kind": "final", "label": "final",
               **said(sentence("final scores")),
               "entry": _entry_json(e), "deltas": {p: scores[p] - r.start_points for p in self.players},
               "chips": {p: chips.get(p, 0) for p in self.players}, "scores": dict(scores),
               "game_over": self.end_reason}
        self.hands.append(row)
        return row

    # -- the end of the game ---------------------------------------------------------------------
    def result(self, series: Series) -> GameResult:
        """Settle the finished game: flow's final settlement (end-of-game payments P110-P112 and
        P121, placement, sticks, oka, uma — doubled when the series says so, P28), table chips
        left over to the top (A000-27), and the series' streak chips (P120); itemised."""
        r = self.rules
        m = self.uma_multiplier
        rules = r if m == 1 else replace(r, uma=(r.uma[0] * m, r.uma[1] * m, r.uma[2] * m))  # P28
        if self._final is not None:
            f = self._final
            fr = final_result(rules, self.table.scores, kyotaku=f.sticks,
                              busted=self._seats(f.busted, entry_field("bust")),
                              busters=self._seats(f.busters, sentence("bust by")), chips=self.table.chips,
                              chombos=self.table.chombos, itemise=True)
            busted, busters, sticks = f.busted, f.busters, f.sticks
        else:
            assert self._end is not None
            fr = flow.final(rules, self._end, itemise=True)
            busted = tuple(self.players[x] for x in self._end.busted)
            busters = tuple(self.players[x] for x in self._end.busters)
            sticks = self._end.state.kyotaku
        items = list(fr.items)
        chips = list(fr.chips)
        if self.pot_chips:  # A000-27: chips a penalty left on the table go to the top
            top = fr.ranks.index(1)
            chips[top] += self.pot_chips
            items.append(Item("table_chips", "P32", chips=tuple(self.pot_chips if x == top else 0 for x in range(3))))
        ranks = self._by_person(fr.ranks)
        streak = series.streak_chips(ranks, r.streak_chips)
        if any(streak.values()):
            items.append(Item("streak_chips", "P120", chips=tuple(streak[p] for p in self.players)))
        total_chips = {p: chips[i] + streak[p] for i, p in enumerate(self.players)}
        return GameResult(self.number, self._by_person(fr.scores), ranks,
                          {p: fr.points[i] for i, p in enumerate(self.players)}, total_chips, self.end_reason,
                          self.last_winner, m, streak, tuple(self._item_json(i) for i in items),
                          self._by_person(self.table.chombos), busted, busters, sticks)

    def _item_json(self, item: Item) -> dict[str, Any]:
        """A settlement line with its values per person (only the people it moves)."""
        def per(values: Sequence[Any]) -> dict[str, Any]:
            return {p: values[i] for i, p in enumerate(self.players) if values[i]}

        return {"what": item.what, "label": ITEM_LABELS.get(item.what, item.what), "rule": item.rule,
                "scores": per(item.scores), "points": per(item.points), "chips": per(item.chips), "count": item.count}


#: What each line of a game's settlement (``settle.Item.what``) is called on the pages and in ``show``.
ITEM_LABELS = {
    "chiicha_chips": "first dealer not top", "bust_chips": "bust chips", "dobon_fee": "dobon fee",
    "sticks_to_top": "sticks left to the top", "sticks_forfeited": "sticks left on the table (nobody's)",
    "score": "score against the return", "oka": "oka", "uma": "uma", "bust": "bust", "tie_split": "tied places share",
    "chombo": "chombo", "rounding": "rounding", "table_chips": "table chips to the top", "streak_chips": "streak chips",
}


def abort_kinds(rules: Rules) -> tuple[str, ...]:
    """The abortive draws these rules have (P92-P95), and P79's riichi bust where a riichi with too
    few points is one (A000-19): what a person may enter as an abort."""
    r = rules
    have = {"kyuushu": r.abort_kyuushu, "three_winds": r.abort_three_winds, "four_kans": r.abort_four_kans,
            "all_riichi": r.abort_all_riichi, "riichi_bust": r.riichi_bust_points > 0}
    return tuple(k for k in ABORT_KINDS if have[k])


def entry_options(rules: Rules) -> dict[str, Any]:
    """What an entry form may offer under these rules (the pages draw only what the server says):
    the aborts (P92-P95, P79), each mistake's effect (P102-P106), the yaku a hand by value names
    for its chips (P117-P118), the pao yaku (P97), nagashi (P96), double ron (P88), flowers and
    chip flowers (P02, P119), kita (P15), ura dora (P10) and the fixed fu (P52)."""
    r = rules
    return {"aborts": list(abort_kinds(r)),
            "penalties": [{"kind": k, "effect": "free" if k == "free" else getattr(r, f"penalty_{k}")}
                          for k in PENALTY_KINDS],
            "chips": r.chips, "chip_yaku": list(payout.CHIP_YAKU) if r.chips else [], "pao_yaku": list(r.pao_yaku),
            "nagashi": r.nagashi != "none", "double_ron": r.double_ron, "flowers": r.flowers,
            "chip_flowers": r.flower_chip_tiles if r.chip_flower else 0, "kita": r.north_mode.startswith("nuki"),
            "ura": r.ura_dora, "fixed_fu": fixed_fu(r), "four_people": r.players_in_rotation == 4}


def is_result(entry: Entry) -> bool:
    """Whether ``entry`` is a hand's result (a win, a draw, an abort, a game's final scores), which
    closes the hand in play; a chombo, a penalty or a seating does not (issue 19 item 1)."""
    return entry.kind in RESULT_KINDS


def _chip_flowers(w: Winner) -> int:
    if w.tiles is not None:
        return w.tiles.chip_flowers
    return w.value.chip_flowers if w.value is not None else 0


def _describe(name: str, s: Score, paid_by_pao: int | None = None) -> Message:
    """``Aki 3 han 30 fu = 3,900``; a limit hand by value has no fu (``5 han mangan``); a pao win
    names no total here (the liable player's payment follows)."""
    if s.yakuman and not s.kazoe:
        value = sentence("{n}x yakuman", n=s.yakuman)
    elif s.fu:
        value = (sentence("{han} han {fu} fu {limit}", han=s.han, fu=s.fu, limit=Keyword("limit", s.limit)) if s.limit
                 else sentence("{han} han {fu} fu", han=s.han, fu=s.fu))
    else:
        value = (sentence("{han} han {limit}", han=s.han, limit=Keyword("limit", s.limit)) if s.limit
                 else sentence("{han} han", han=s.han))
    if paid_by_pao is not None:
        return sentence("{name} {value}", name=name, value=value)
    return sentence("{name} {value} = {total:,}", name=name, value=value, total=s.total)


def said(message: Message) -> dict[str, Any]:
    """A row's summary: its English (``summary``, as ``--json`` and the log show it) and the sentence
    itself (``say``), which each reader's edge puts into its own words (keeper.in_words)."""
    return {"summary": str(message), "say": to_data(message)}


def _reason(reason: str) -> str | Keyword:
    """A chombo's reason: a penalty's or a riichi chombo's kind in words, else what was typed."""
    for kind in ("penalty", "chombo_reason", "result"):
        if term(kind, reason) is not None:
            return Keyword(kind, reason)
    return reason


def _entry_json(entry: Entry) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in asdict(entry).items():
        if v in ((), None, "", 0, False, []) and k != "kind":
            continue
        out[k] = v
    return out
