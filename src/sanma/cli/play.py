"""``sanma play``: a whole game in the terminal against two bots.

Input is read line by line from standard input, so a game can be scripted. At each choice:

* a number picks that line of the menu;
* a tile (``5p``, ``0p`` for the red five, ``9m``, ``E S W N Wh G R`` or ``1z``..``7z``)
  discards it; ``riichi 5p`` declares riichi with that discard;
* ``tsumo``/``ron``, ``pon``, ``kan``, ``kita``, ``pass`` (or ``p``) name an action;
* an empty line takes the default: the win when one is on offer, else discard the drawn tile,
  or pass on a call;
* ``auto`` switches auto-win on or off, ``help`` (or ``?``) shows this help, ``quit`` leaves.

As on Tenhou, after riichi the drawn tile goes out by itself: the game stops only for a win,
a legal kan or a kita. Input that cannot be used is answered with what was wrong and the
question again; the end of the input (EOF) stops the game with a message.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..agari import waits as hand_waits
from ..bots import Bot, Driver, make_bot
from ..errors import SanmaError, TileError
from ..game.actions import Action
from ..game.engine import Game
from ..game.view import SeatView
from ..i18n import current_lang, fu_line, lookup, round_name, term_name, tr, wind_short
from ..i18n.messages import sentence
from ..i18n.terms import HONOUR_SHORT, tile_short
from ..rules.schema import Rules
from ..tiles import NUM_KINDS, SEATS, Tile, counts34, parse_tiles, seat_wind, successor
from .common import DB_WHERE, RULES_HELP, cli_errors, load_rules

HONOURS = HONOUR_SHORT
HONOUR_INPUT = {"e": 27, "s": 28, "w": 29, "n": 30, "wh": 31, "g": 32, "r": 33,
                "east": 27, "south": 28, "west": 29, "north": 30, "white": 31, "green": 32, "red": 33}
# "n" is North (a tile), never "no" (issue 14 item 2). A player may also type the vocabulary's words
# for an action in either language (ロン, ポン, スキップ ...) and honours by their kanji (東, 白, 發 ...).
PASS_WORDS = {"p", "pass", "no", "none", "skip"}


def help_text() -> str:
    return tr("Type a menu number, a tile to discard (5p, 0p = red five, 9m, E S W N Wh G R), 'riichi 5p', "
              "'tsumo', 'ron', 'pon', 'kan', 'kita', 'pass' (or p). An empty line takes the [Enter = ...] "
              "choice: a win when one is on offer, else the drawn tile goes out or the call is passed. 'auto' "
              "switches auto-win on/off; 'quit' leaves.")


def short_help() -> str:
    return tr("Type 'help' for what you can type.")


def river_legend() -> str:
    return tr("river: 5p' = drawn tile discarded · [5p] = riichi tile · 5p> = called by a player")
SEED_LIMIT = 2**63  # seeds are shown and typed: keep them a sensible size
NUKI_MODES = ("nuki", "nuki_restricted")  # P15: North is set aside as kita only in these modes


class InputEnded(Exception):
    """Standard input reached its end."""


class QuitGame(Exception):
    """The player typed quit."""


def tile_text(t: Tile) -> str:
    """Display name: ``5p``, ``0p`` (red five), ``9m``, honours as ``E S W N Wh G R`` (in Japanese
    東 南 西 北 白 發 中): :func:`~sanma.i18n.terms.tile_short`, the review's spelling too."""
    return tile_short(str(t), current_lang())


def mjai_text(name: str) -> str:
    if name == "?":
        return "?"
    try:
        return tile_text(Tile.from_mjai(name))
    except TileError:
        try:
            return tile_text(Tile.parse(name))  # flowers are written 1f..4f
        except TileError:
            return name


def kinds_text(kinds: Sequence[int]) -> str:
    return " ".join(tile_text(Tile(k)) for k in kinds)


def hand_text(names: Sequence[str]) -> str:
    """mjai tile names, sorted, as display names."""
    tiles = sorted(Tile.from_mjai(x) for x in names)
    return " ".join(tile_text(t) for t in tiles)


def dora_text(indicator: str, ura: bool = False) -> str:
    """``4p (dora 5p)``: an indicator with the dora it names (P06)."""
    try:
        t = Tile.from_mjai(indicator)
    except TileError:
        return mjai_text(indicator)
    if t.kind >= NUM_KINDS:
        return tile_text(t)  # a flower indicates nothing
    label = term_name("yaku", "ura_dora" if ura else "dora", current_lang())
    if current_lang() == "en":
        label = label.lower()
    return f"{tile_text(t)} ({label} {tile_text(Tile(successor(t.kind)))})"


def styled(t: Tile) -> Text:
    style = "bold red" if t.red else "bold" if t.kind in HONOURS else ""
    return Text(tile_text(t), style=style)


def read_user_tile(text: str) -> Tile:
    """A tile as a player types it: ``5p``, ``0p``, ``5pr``, ``E``, ``wh``, ``7z``; a
    :class:`TileError` with the tile parser's own message otherwise."""
    s = text.strip()
    if s.lower() in HONOUR_INPUT:
        return Tile(HONOUR_INPUT[s.lower()])
    honour = lookup("tile", s)  # 東 南 西 北 白 發 中
    if honour is not None:
        return Tile.parse(honour.key)
    if len(s) == 3 and s.lower().endswith("r") and s[0].isdigit():
        return Tile.from_mjai(s.lower())
    tiles = parse_tiles(s.lower())
    if len(tiles) != 1:
        raise TileError(sentence("{text!r} is {n} tiles: type one tile, e.g. 5p", text=s, n=len(tiles)))
    return tiles[0]


def parse_user_tile(text: str) -> Tile | None:
    """:func:`read_user_tile`, or None when ``text`` is not one sanma tile."""
    try:
        return read_user_tile(text)
    except TileError:
        return None


def describe_error(e: SanmaError) -> str:
    from ..i18n import describe as in_words

    return in_words(e)


def describe(a: Action, game: Game) -> str:
    """One menu line for an action."""
    t = tile_text(a.tile) if a.tile is not None else ""
    match a.type:
        case "dahai":
            return tr("discard {tile} (drawn)", tile=t) if a.tsumogiri else tr("discard {tile}", tile=t)
        case "reach":
            return tr("riichi, discarding {tile}", tile=t)
        case "open_reach":
            return tr("open riichi, discarding {tile}", tile=t)
        case "hora":
            return tr("TSUMO (win)") if a.target == a.actor else tr("RON on {tile} (win)", tile=t)
        case "pon":
            return tr("pon {tile} (with {tiles})", tile=t, tiles=" ".join(tile_text(x) for x in a.consumed))
        case "daiminkan":
            return tr("kan {tile} (open)", tile=t)
        case "ankan":
            return tr("kan {tile} (concealed)", tile=tile_text(a.consumed[0]))
        case "kakan":
            return tr("kan {tile} (added to your pon)", tile=t)
        case "kita":
            return tr("kita (set the North aside as dora, draw a replacement)")
        case "ryukyoku":
            return tr("abort the hand (nine terminals and honours)")
        case _:
            return tr("pass")


class ShownMeld:
    """A meld as the table shows it: its tiles, the tile taken and from whom."""

    def __init__(self, kind: str, tiles: list[Tile], called: Tile | None, source: int | None) -> None:
        self.kind = kind  # "pon", "kan" (open), "ankan", or "kakan" (a pon with its fourth tile added)
        self.tiles = tiles  # the tiles from the hand
        self.called = called
        self.source = source
        self.added: Tile | None = None


class TerminalTable:
    """The game as seen from ``human``'s seat, drawn with rich; input through ``read``."""

    def __init__(self, game: Game, human: int, bots: dict[int, Bot], console: Console,
                 read: Callable[[], str], *, auto_win: bool = False) -> None:
        self.game = game
        self.human = human
        self.driver = Driver(game, bots)
        self.con = console
        self.read = read
        self.auto_win = auto_win
        self.shown = 0
        # Narration runs after the engine has moved on (possibly to the next hand), so the
        # dealer, honba, sticks and melds are taken from the events being narrated, not the game.
        self.dealer = game.dealer
        self.melds: list[list[ShownMeld]] = [[] for _ in range(SEATS)]
        self.hand_index = -1
        self.honba = 0
        self.sticks = 0  # riichi sticks on the table, incl. those put down this hand
        self.paid_sticks = False  # the sticks went to a winner of this hand
        self.chips = list(game.chips)
        self.legend_shown = False  # the river legend: under the first board of each hand, and in help

    # ------------------------------------------------------------------------------ names
    def say(self, *objects: Any, **kw: Any) -> None:
        """Print as it is: names (a bot named ``[/bold]x``, a rule set named ``[link=...]``) are
        never read as rich markup (issue 14 item 11); styles come from ``style=`` and Text."""
        self.con.print(*objects, markup=False, **kw)

    def you(self, seat: int) -> bool:
        """Whether ``seat`` is the player: a sentence about "You" takes the verb without -s."""
        return seat == self.human

    def who(self, seat: int) -> str:
        lang = current_lang()
        wind = wind_short(seat_wind(seat, self.dealer), lang)
        name = tr("You") if seat == self.human else self.game.names[seat]
        return f"{name} ({wind})"

    # ------------------------------------------------------------------------------ loop
    def run(self) -> None:
        g = self.game
        opponents = ", ".join(g.names[s] for s in range(SEATS) if s != self.human)
        self.say(Text(tr("sanma — {rules} rules, seed {seed} (--seed {seed} replays this game). You are seat "
                         "{seat}; opponents: {opponents}.", rules=g.rules.name, seed=g.seed, seat=self.human,
                         opponents=opponents), style="bold"))
        self.say(help_text(), style="dim")
        while not g.done:
            if self.driver.step():  # a bot's move
                self.narrate()
                continue
            self.narrate()
            if g.done or self.human not in g.to_move:
                continue
            legal = g.legal_actions(self.human)
            auto = self.automatic(legal)
            if auto is not None:
                g.apply(auto)
                continue
            self.board()
            g.apply(self.ask(legal))
        self.narrate()
        self.final()

    def automatic(self, legal: Sequence[Action]) -> Action | None:
        """The choice made for the player: the win under auto-win; after riichi the drawn tile,
        unless a win, a kan or a kita is on offer (as Tenhou does)."""
        wins = [a for a in legal if a.type == "hora"]
        if wins and self.auto_win:
            self.say("  " + tr("auto-win: {action}", action=describe(wins[0], self.game)), style="bold green")
            return wins[0]
        if not self.game.seats[self.human].riichi or wins:
            return None
        if any(a.type in ("ankan", "kakan", "daiminkan", "kita") for a in legal):
            return None
        drawn = [a for a in legal if a.type == "dahai" and a.tsumogiri]
        if len(drawn) == 1 and all(a.type in ("dahai", "none") for a in legal):
            assert drawn[0].tile is not None
            self.say("  " + tr("You (riichi) discard the drawn {tile}", tile=tile_text(drawn[0].tile)), style="dim")
            return drawn[0]
        return None

    # ------------------------------------------------------------------------------ events
    def narrate(self) -> None:
        g = self.game
        events = g.events
        while self.shown < len(events):
            e = events[self.shown]
            self.shown += 1
            self.narrate_one(e)

    def narrate_one(self, e: dict[str, Any]) -> None:
        g = self.game
        t = e["type"]
        a: int = e.get("actor", -1)
        if t == "start_kyoku":
            self.dealer = e["oya"]
            self.melds = [[] for _ in range(SEATS)]
            self.hand_index += 1
            self.honba, self.sticks, self.paid_sticks = e["honba"], e["kyotaku"], False
            self.legend_shown = False
            lang = current_lang()
            self.con.rule(Text(tr("{round}, {honba} honba, {sticks} riichi stick(s) — dealer {dealer}; you are "
                                  "{wind}", round=round_name(e["bakaze"], e["kyoku"], lang),
                                  honba=e["honba"], sticks=e["kyotaku"], dealer=self.who(e["oya"]),
                                  wind=term_name("wind", seat_wind(self.human, e["oya"]), lang))))
        elif t == "dahai" and a != self.human:
            tile = mjai_text(e["pai"])
            self.say("  " + (tr("{who} discards {tile} (drawn tile)", who=self.who(a), tile=tile) if e.get("tsumogiri")
                             else tr("{who} discards {tile}", who=self.who(a), tile=tile)))
        if t in ("pon", "daiminkan", "ankan", "kakan"):
            self.record_meld(t, a, e)
        if t in ("pon", "daiminkan"):
            call = term_name("call", "kan" if t == "daiminkan" else t, current_lang())
            who, tile, frm = self.who(a), mjai_text(e["pai"]), self.who(e["target"])
            self.say("  " + (tr("{who} call {call} on {tile} from {target}", who=who, call=call, tile=tile, target=frm)
                             if self.you(a) else
                             tr("{who} calls {call} on {tile} from {target}", who=who, call=call, tile=tile,
                                target=frm)), style="cyan")
        elif t in ("ankan", "kakan"):
            tile = mjai_text(e["consumed"][0] if t == "ankan" else e["pai"])
            if t == "ankan":
                line = (tr("{who} declare a concealed kan of {tile}", who=self.who(a), tile=tile) if self.you(a)
                        else tr("{who} declares a concealed kan of {tile}", who=self.who(a), tile=tile))
            else:
                line = (tr("{who} declare an added kan of {tile}", who=self.who(a), tile=tile) if self.you(a)
                        else tr("{who} declares an added kan of {tile}", who=self.who(a), tile=tile))
            self.say("  " + line, style="cyan")
        elif t == "kita":
            self.say("  " + (tr("{who} set a North aside (kita)", who=self.who(a)) if self.you(a)
                             else tr("{who} sets a North aside (kita)", who=self.who(a))), style="cyan")
        elif t == "flower":
            tile = mjai_text(e["pai"])
            self.say("  " + (tr("{who} set a flower aside ({tile})", who=self.who(a), tile=tile) if self.you(a)
                             else tr("{who} sets a flower aside ({tile})", who=self.who(a), tile=tile)), style="cyan")
        elif t == "reach":
            what = term_name("call", "open_riichi" if e.get("open") else "reach", current_lang()).upper()
            self.say("  " + (tr("{who} declare {what}", who=self.who(a), what=what) if self.you(a)
                             else tr("{who} declares {what}", who=self.who(a), what=what)), style="bold yellow")
        elif t == "reach_accepted":
            self.sticks += 1
        elif t == "dora":
            self.say("  " + tr("new dora indicator: {indicator}", indicator=dora_text(e["dora_marker"])),
                     style="magenta")
        elif t == "hora":
            self.hora(e)
        elif t == "ryukyoku":
            self.ryukyoku(e)
        elif t == "chombo":
            reason = term_name("chombo_reason", e.get("reason", ""), current_lang()) if e.get("reason") else ""
            self.say(Text(tr("Chombo: {who} ({reason}) pays: {payments}", who=self.who(a), reason=reason,
                             payments=self.deltas_text(e["deltas"])), style="bold red"))
        elif t == "end_kyoku":
            self.scores_line(e["scores"])
            if g.rules.chips:
                self.chips_line()
            if not g.done:
                self.pause(tr("Press Enter for the next hand"))

    def record_meld(self, t: str, seat: int, e: dict[str, Any]) -> None:
        if t == "kakan":
            kind = Tile.from_mjai(e["pai"]).kind
            for m in self.melds[seat]:
                if m.kind == "pon" and m.tiles[0].kind == kind:
                    m.kind, m.added = "kakan", Tile.from_mjai(e["pai"])
            return
        consumed = [Tile.from_mjai(x) for x in e.get("consumed", ())]
        if t == "ankan":
            self.melds[seat].append(ShownMeld("ankan", consumed, None, None))
        else:
            self.melds[seat].append(ShownMeld("pon" if t == "pon" else "kan", consumed, Tile.from_mjai(e["pai"]),
                                         e.get("target")))

    def meld_text(self, m: ShownMeld) -> str:
        own = " ".join(tile_text(t) for t in sorted(m.tiles))
        if m.kind == "ankan":
            return tr("kan {tiles} (concealed)", tiles=own)
        assert m.called is not None and m.source is not None
        frm = self.game.names[m.source] if m.source != self.human else tr("you")
        taken = tr("[{tile} from {who}]", tile=tile_text(m.called), who=frm)
        label = term_name("call", "pon" if m.kind == "pon" else "kan", current_lang())
        return f"{label} {own} {taken}" + (f" +{tile_text(m.added)}" if m.added is not None else "")

    def melds_text(self, seat: int) -> str:
        return "  ".join(self.meld_text(m) for m in self.melds[seat])

    def score_of(self, seat: int) -> Any:
        """The engine's Score of ``seat``'s win in the hand being narrated (fu breakdown)."""
        results = self.game.hand_results
        if 0 <= self.hand_index < len(results):
            res = results[self.hand_index]
            if seat in res.winners and len(res.scores) == len(res.winners):
                return res.scores[res.winners.index(seat)]
        return None

    def hora(self, e: dict[str, Any]) -> None:
        w, target = e["actor"], e["target"]
        tile = mjai_text(e["pai"])
        lang = current_lang()
        if w == target:
            line = (tr("{who} win by TSUMO on {tile}", who=self.who(w), tile=tile) if self.you(w)
                    else tr("{who} wins by TSUMO on {tile}", who=self.who(w), tile=tile))
        else:
            line = (tr("{who} win by RON on {tile} from {target}", who=self.who(w), tile=tile, target=self.who(target))
                    if self.you(w) else
                    tr("{who} wins by RON on {tile} from {target}", who=self.who(w), tile=tile,
                       target=self.who(target)))
        self.say(Text(line, style="bold green"))
        tbl = Table()
        tbl.add_column(tr("yaku"))
        tbl.add_column(tr("han"), justify="right")
        for y in e["yaku"]:
            han = tr("yakuman ×{n}", n=y["yakuman"]) if y.get("yakuman") else str(y["han"])
            tbl.add_row(Text(term_name("yaku", y["name"], lang)), han)
        limit = term_name("limit", e["limit"], lang) if e.get("limit") else ""
        value = (tr("yakuman ×{n}", n=e["yakuman"]) if e["yakuman"] else tr("{han} han {fu} fu", han=e["han"],
                                                                               fu=e["fu"])) + (
            f" ({limit})" if limit else "")
        tbl.add_row(Text(value, style="bold"), Text(tr("{points:,} points", points=e["points"]), style="bold"))
        self.say(tbl)
        s = self.score_of(w)
        if s is not None and s.fu_breakdown and not s.yakuman:
            parts = " + ".join(f"{fu_line(line, lang)} {fu}" for line, fu in s.fu_breakdown)
            raw = sum(fu for _, fu in s.fu_breakdown)
            self.say("  " + tr("fu: {parts} = {raw}", parts=parts, raw=raw)
                     + (tr(", rounded up to {fu}", fu=s.fu) if raw != s.fu else ""))
        hand = [Tile.from_mjai(x) for x in e["hora_tehais"]]
        win_tile = Tile.from_mjai(e["pai"])
        if w == target and win_tile in hand:
            hand.remove(win_tile)  # a tsumo hand holds the winning tile: show it apart, as for a ron
        melds = self.melds_text(w)
        self.say("  " + tr("hand: {tiles}  + winning tile {tile}", tiles=" ".join(tile_text(t) for t in sorted(hand)),
                           tile=tile) + ("  " + tr("melds: {melds}", melds=melds) if melds else ""))
        if e.get("uradora_markers"):
            ura = ", ".join(dora_text(x, ura=True) for x in e["uradora_markers"])
            self.say("  " + tr("ura dora indicators: {indicators}", indicators=ura))
        self.payments(e, w)

    def payments(self, e: dict[str, Any], w: int) -> None:
        """Who pays what; the winner's gain itemised: hand, honba (P43, P44), riichi sticks (P48)."""
        deltas: Sequence[int] = e["deltas"]
        points: int = e["points"]
        sticks = 0 if self.paid_sticks else self.sticks * self.game.rules.riichi_deposit
        self.paid_sticks = True
        honba = deltas[w] - points - sticks
        items = [tr("hand {points:,}", points=points)]
        if honba:
            items.append(tr("{n} honba {points:,}", n=self.honba, points=honba) if self.honba
                         else tr("other {points:+,}", points=honba))
        if sticks:
            items.append(tr("{n} riichi stick(s) {points:,}", n=sticks // self.game.rules.riichi_deposit,
                            points=sticks))
        line = "  " + (tr("{who} receive {gain:+,}", who=self.who(w), gain=deltas[w]) if self.you(w)
                       else tr("{who} receives {gain:+,}", who=self.who(w), gain=deltas[w]))
        if len(items) > 1:
            line += " = " + " + ".join(items)
        payers = [f"{self.who(s)} {d:+,}" for s, d in enumerate(deltas) if s != w and d]
        self.say(line + ("; " + ", ".join(payers) if payers else ""))

    def ryukyoku(self, e: dict[str, Any]) -> None:
        reason = e.get("reason", "")
        if reason == "exhaustive":
            tenpai = e.get("tenpai", [])
            names = ", ".join(self.who(s) for s in tenpai) or tr("nobody")
            self.say(Text(tr("Exhaustive draw: tenpai: {names}", names=names), style="bold"))
            for s in tenpai:
                hand = e.get("tehais", [[]] * SEATS)[s]
                if hand:
                    melds = self.melds_text(s)
                    self.say(f"  {self.who(s)}: " + hand_text(hand)
                             + ("  " + tr("melds: {melds}", melds=melds) if melds else ""))
            self.say("  " + tr("payments: {payments}", payments=self.deltas_text(e.get("deltas", [0] * SEATS))))
            return
        if reason == "kyuushu":
            who = self.who(e["actor"]) if "actor" in e else tr("a player")
            self.say(Text(tr("Abortive draw: {who} declared nine terminals and honours (kyuushu kyuuhai)", who=who),
                          style="bold"))
            return
        labels = {"sanfuu_renda": sentence("everyone discarded the same wind on the first go-around"),
                  "suukaikan": sentence("four kans by more than one player"),
                  "all_riichi": sentence("every player declared riichi"),
                  "nagashi": sentence("nagashi mangan")}
        label = labels[reason].text() if reason in labels else term_name("draw", reason, current_lang())
        self.say(Text(tr("Abortive draw: {why}", why=label), style="bold"))
        if e.get("nagashi"):
            self.say("  " + tr("nagashi mangan: {names}", names=", ".join(self.who(s) for s in e["nagashi"])))

    def deltas_text(self, deltas: Sequence[int]) -> str:
        return ", ".join(f"{self.who(s)} {d:+,}" for s, d in enumerate(deltas))

    def scores_line(self, scores: Sequence[int]) -> None:
        self.say(tr("Scores: {scores}", scores=", ".join(f"{self.who(s)} {scores[s]:,}" for s in range(SEATS))))

    def chips_line(self) -> None:
        now = list(self.game.chips)
        change = [now[s] - self.chips[s] for s in range(SEATS)]
        self.chips = now
        if any(change):
            self.say(tr("Chips this hand: {changes} (total: {totals})",
                        changes=", ".join(f"{self.who(s)} {change[s]:+d}" for s in range(SEATS)),
                        totals=", ".join(f"{now[s]:+d}" for s in range(SEATS))))

    # ------------------------------------------------------------------------------ board
    def board(self) -> None:
        g = self.game
        r = g.rules
        v = g.view(self.human)
        dora = ", ".join(dora_text(x.mjai) for x in v.dora_indicators)
        lang = current_lang()
        self.say(Text(tr("{round} · {honba} honba · riichi sticks {sticks} · wall {wall} · dora indicator(s) {dora}",
                         round=round_name(v.round_wind, v.kyoku, lang), honba=v.honba,
                         sticks=v.kyotaku, wall=v.wall_remaining, dora=dora), style="bold blue"))
        kita = r.north_mode in NUKI_MODES
        flowers = r.flowers > 0
        cols = [(tr("seat"), False), (tr("score"), False), *([(tr("chips"), False)] if r.chips else []),
                *([(term_name("call", "kita", lang), False)] if kita else []),
                *([(term_name("suit", "f", lang), False)] if flowers else []), (tr("melds"), True), (tr("river"), True)]
        tbl = Table(show_header=True, box=None, pad_edge=False)
        for col, wraps in cols:
            tbl.add_column(col, no_wrap=not wraps)
        for s in range(SEATS):
            pub = v.seats[s]
            label = Text(self.who(s) + (" *" + term_name("table", "dealer", lang) if s == v.dealer else ""),
                         style="bold" if s == self.human else "")
            if pub.riichi:
                label.append(" " + term_name("call", "reach", lang).upper(), style="bold yellow")
            river = Text()
            for d in pub.discards:
                name = mjai_text(d.tile.mjai)
                if d.riichi:
                    river.append(f"[{name}]", style="yellow bold")
                else:
                    river.append(name, style="dim" if d.tsumogiri else "")
                if d.tsumogiri:
                    river.append("'", style="dim")
                if d.called:
                    river.append(">", style="cyan")
                river.append(" ")
            row: list[Any] = [label, f"{v.scores[s]:,}"]  # names only in Text: never markup
            if r.chips:
                row.append(f"{g.chips[s]:+d}")
            if kita:
                row.append(str(pub.kita or ""))
            if flowers:
                row.append(str(pub.flowers or ""))
            row += [Text(self.melds_text(s)), river]
            tbl.add_row(*row)
        self.say(tbl)
        for s in range(SEATS):  # P82 open riichi: the hand is shown to everyone
            shown = v.seats[s].open_hand
            if shown and s != self.human:
                self.say("  " + tr("{who} open riichi hand: {tiles}", who=self.who(s),
                                   tiles=hand_text([t.mjai for t in shown])), style="yellow")
        if not self.legend_shown:
            self.say(river_legend(), style="dim")
            self.legend_shown = True
        drawn = v.drawn
        line = Text(tr("Your hand: "))
        for t in sorted(v.closed_hand, key=lambda t: (t.kind, t.red)):
            line.append_text(styled(t))
            line.append(" ")
        if drawn is not None:
            line.append("  " + tr("drawn: "))
            line.append_text(styled(drawn))
        self.say(line)
        tenpai = self.tenpai_text(v)
        if tenpai:
            self.say(tenpai, style="green")

    # ------------------------------------------------------------------------------ waits
    def waits_after(self, hand: Sequence[Tile], discard: Tile | None) -> tuple[int, ...]:
        """Waits of the hand (less ``discard``), from the one waits function (sanma.agari)."""
        c = counts34(hand)
        if discard is not None:
            c[discard.kind] -= 1
        if sum(c) % 3 != 1:
            return ()
        return hand_waits(c, self.game.rules.chiitoi_four_of_a_kind)

    def furiten(self, discard: Tile | None) -> bool:
        """Furiten (P75, P78) of the player's hand, or of the hand left by ``discard``: the
        engine's one predicate, ``Game.furiten`` (its river with ``discard``, a win let pass)."""
        return self.game.furiten(self.human, discard=discard)

    def tenpai_text(self, v: SeatView) -> str:
        hand = list(v.hand)
        if len(hand) % 3 == 1:  # waiting on a call prompt: the engine's waits and furiten (Game.view)
            w = tuple(t.kind for t in v.waits)
            if not w:
                return ""
            return tr("Tenpai: waiting on {waits}", waits=self.waits_text(w, v)) + (
                tr(" — FURITEN (no ron)") if v.furiten else "")
        if v.riichi and v.drawn is not None:  # the hand is fixed: its waits, not every discard's
            drawn = v.drawn
            w = self.waits_after(hand, drawn)
            # furiten after the drawn tile goes out; a drawn winning tile is a tsumo on offer, not furiten
            furiten = drawn.kind not in w and self.furiten(drawn)
            return (tr("Riichi: waiting on {waits}", waits=self.waits_text(w, v))
                    + (tr(" — FURITEN (no ron)") if furiten else "")) if w else ""
        out = []
        for t in sorted({t.kind: t for t in sorted(hand)}.values()):
            w = self.waits_after(hand, t)
            if w:
                out.append(f"{tile_text(t)} → {self.waits_text(w, v)}"
                           + (tr(" (furiten)") if self.furiten(t) else ""))
        return tr("Tenpai discards: {discards}", discards="; ".join(out)) if out else ""

    @staticmethod
    def waits_text(waits: Sequence[int], v: SeatView) -> str:
        """``3p (2 left), 6p (3 left)``: each wait with the copies this seat cannot see (the view's
        ``unseen``: four less its hand, every river, meld, kita and dora indicator)."""
        left = v.unseen
        return ", ".join(tr("{tile} ({n} left)", tile=tile_text(Tile(k)), n=left[k]) for k in waits)

    # ------------------------------------------------------------------------------ input
    @staticmethod
    def menu(legal: Sequence[Action]) -> list[Action]:
        """The numbered choices, one per distinct action (the same tile twice is one discard)."""
        out: list[Action] = []
        seen: set[tuple[str, Tile | None, tuple[Tile, ...]]] = set()
        order = ("dahai", "hora", "reach", "open_reach", "kita", "ankan", "kakan", "pon", "daiminkan",
                 "ryukyoku", "none")
        for a in sorted(legal, key=lambda a: (order.index(a.type), not a.tsumogiri, a.tile or Tile(0))):
            key = (a.type, a.tile, a.consumed)
            if key in seen:
                continue
            seen.add(key)
            out.append(a)
        return out

    def ask(self, legal: Sequence[Action]) -> Action:
        choices = self.menu(legal)
        is_call = any(a.type == "none" for a in choices)
        if is_call:
            last = next(e for e in reversed(self.game.events) if e["type"] in ("dahai", "kakan", "kita", "ankan"))
            tile = mjai_text(last.get("pai", last.get("consumed", ["?"])[0]))
            kinds = sorted({a.type for a in choices if a.type != "none"})
            calls = "/".join(term_name("call", "ron" if k == "hora" else "kan" if k == "daiminkan" else k,
                                       current_lang()) for k in kinds)
            self.say(Text(tr("{who} played {tile}: {calls}?", who=self.who(last.get("actor", 0)), tile=tile,
                             calls=calls), style="bold"))
        discards = [(i, a) for i, a in enumerate(choices, 1) if a.type == "dahai"]
        if discards:
            tiles = "  ".join(f"{i}:{tile_text(a.tile)}" + ("*" if a.tsumogiri else "")
                              for i, a in discards if a.tile is not None)
            self.say("  " + tr("discard: {tiles}", tiles=tiles)
                     + (tr("   (* = drawn tile)") if any(a.tsumogiri for _, a in discards) else ""))
        for i, a in enumerate(choices, 1):
            if a.type != "dahai":
                self.say(f"  {i}: {describe(a, self.game)}", style="bold green" if a.type == "hora" else "")
        default = self.default(choices)
        hint = " " + tr("[Enter = {action}]", action=describe(default, self.game)) if default else ""
        while True:
            self.say(tr("Your choice{hint}: ", hint=hint), end="")
            text = self.read()
            picked = self.interpret(text, choices, default)
            if isinstance(picked, Action):
                return picked
            if picked:
                self.say(Text(picked, style="red"))

    @staticmethod
    def default(choices: Sequence[Action]) -> Action | None:
        """Enter's choice: never the non-winning one while a win is on offer (issue 14 item 1)."""
        for a in choices:
            if a.type == "hora":
                return a
        for a in choices:
            if a.type == "none" or (a.type == "dahai" and a.tsumogiri):
                return a
        return None

    def interpret(self, text: str, choices: Sequence[Action], default: Action | None) -> Action | str:
        """The action ``text`` names, or what was wrong with it ("" when nothing needs saying)."""
        s = text.strip().lower()
        if not s:
            return default if default is not None else tr("Enter has no default here: {options}",
                                                          options=self.options(choices))
        said = lookup("call", s.split()[0])  # ロン, ツモ, ポン, カン, リーチ 5p, スキップ ... (the vocabulary)
        if said is not None and said.key != s.split()[0]:
            s = " ".join([{"reach": "riichi", "none": "pass", "ryukyoku": "kyuushu"}.get(said.key, said.key),
                          *s.split()[1:]])
        if s in ("?", "h", "help"):
            self.say(help_text())
            self.say(river_legend())
            return ""
        if s in ("q", "quit", "exit"):
            raise QuitGame
        if s == "auto":
            self.auto_win = not self.auto_win
            self.say(tr("auto-win is on: wins are taken") if self.auto_win else tr("auto-win is off: you are asked"))
            win = next((a for a in choices if a.type == "hora"), None)
            return win if self.auto_win and win is not None else ""  # the win on offer now, too
        if s.isascii() and s.isdigit():
            if len(s) > 6 or not 1 <= int(s) <= len(choices):
                return tr("There is no choice {choice}: pick 1 to {n}.", choice=s[:12] + ("…" if len(s) > 12 else ""),
                          n=len(choices))
            return choices[int(s) - 1]
        words = s.split()
        head = words[0]
        by_type = {a.type: a for a in reversed(choices)}
        if s in PASS_WORDS:
            if "none" in by_type:
                return by_type["none"]
            return tr("There is nothing to pass on: it is your turn to discard. {options}",
                      options=self.options(choices))
        if head in ("tsumo", "ron", "hora", "win"):
            return by_type.get("hora") or tr("No win is on offer now.")
        if head == "kita":
            return by_type.get("kita") or tr("Kita is not possible now (no North to set aside, or not under these "
                                             "rules).")
        if s == "pon":
            return by_type.get("pon") or tr("No pon is on offer now.")
        if s in ("kan", "daiminkan", "ankan", "kakan"):
            kan = next((a for a in choices if a.type in ("daiminkan", "ankan", "kakan")), None)
            return kan or tr("No kan is possible now.")
        if head in ("riichi", "reach"):
            return self.riichi(words[1:], choices)
        if s == "kyuushu" and "ryukyoku" in by_type:
            return by_type["ryukyoku"]
        if len(words) == 1:
            try:
                tile = read_user_tile(s)
            except TileError as e:
                return f"{describe_error(e)}. {short_help()}"
            return self.discard(tile, choices)
        return tr("Not understood: {text!r}. {help}", text=text.strip()[:40], help=short_help())

    def options(self, choices: Sequence[Action]) -> str:
        kinds = sorted({tr("discard a tile") if a.type == "dahai" else describe(a, self.game) for a in choices})
        return tr("You may: {options}.", options="; ".join(kinds))

    def hand_tiles(self) -> list[Tile]:
        return sorted(self.game.view(self.human).hand)

    def discard(self, tile: Tile, choices: Sequence[Action]) -> Action | str:
        if not any(a.type == "dahai" for a in choices):
            if tile.kind == 30:
                return tr("N is the North tile; to pass type 'pass' or 'p'. {options}", options=self.options(choices))
            return tr("You cannot discard now. {options}", options=self.options(choices))
        picked = self.pick_discard(choices, tile, "dahai")
        if picked is not None:
            return picked
        hand = self.hand_tiles()
        if not any(t.kind == tile.kind for t in hand):
            return tr("You have no {tile} in your hand.", tile=tile_text(tile))
        if self.game.seats[self.human].riichi:
            return tr("After riichi only the drawn tile may be discarded (P79): press Enter.")
        return tr("{tile} may not be discarded now (kuikae: not the tile just called, P72).", tile=tile_text(tile))

    def riichi(self, rest: Sequence[str], choices: Sequence[Action]) -> Action | str:
        reach = [a for a in choices if a.type == "reach" and a.tile is not None]
        if not reach:
            return tr("Riichi is not possible now: {why}", why=self.why_no_riichi())
        possible = ", ".join(dict.fromkeys(tile_text(a.tile) for a in reach if a.tile is not None))
        if len(rest) != 1:
            return tr("Say which tile to discard with the riichi, e.g. 'riichi {tile}' (possible: {possible}).",
                      tile=possible.split(", ")[0], possible=possible)
        try:
            tile = read_user_tile(rest[0])
        except TileError as e:
            return f"{describe_error(e)}."
        picked = self.pick_discard(choices, tile, "reach")
        if picked is not None:
            return picked
        if not any(t.kind == tile.kind for t in self.hand_tiles()):
            return tr("Riichi discarding {tile} is not possible: it is not in your hand. Riichi is possible "
                      "discarding: {possible}.", tile=tile_text(tile), possible=possible)
        return tr("Riichi discarding {tile} is not possible: the hand would not be tenpai. Riichi is possible "
                  "discarding: {possible}.", tile=tile_text(tile), possible=possible)

    def why_no_riichi(self) -> str:
        st = self.game.seats[self.human]
        if st.riichi:
            return tr("you have already declared riichi.")
        if any(m.meld.is_open for m in st.melds):
            return tr("your hand is open (riichi needs a closed hand).")
        hand = self.hand_tiles()
        if not any(self.waits_after(hand, t) for t in hand):
            return tr("your hand is not tenpai whatever you discard.")
        return tr("the rules do not allow it here (riichi needs {points:,} points and enough tiles left in the wall).",
                  points=self.game.rules.riichi_deposit)

    @staticmethod
    def pick_discard(choices: Sequence[Action], tile: Tile, kind: str) -> Action | None:
        same = [a for a in choices if a.type == kind and a.tile is not None and a.tile.kind == tile.kind]
        exact = [a for a in same if a.tile is not None and a.tile.red == tile.red]
        pool = exact or same
        return pool[0] if pool else None

    def pause(self, prompt: str) -> None:
        self.say(f"{prompt} ", end="")
        self.read()

    # ------------------------------------------------------------------------------ the end
    def final(self) -> None:
        g = self.game
        res = g.result
        assert res is not None
        tbl = Table(title=tr("Final result"), title_justify="left", title_style="bold")
        cols = [(tr("place"), "right"), (tr("player"), "left"), (tr("score"), "right"), (tr("points"), "right"),
                *([(tr("chips"), "right")] if g.rules.chips else [])]
        for col, justify in cols:
            tbl.add_column(col, justify=justify)  # type: ignore[arg-type]
        for s in sorted(range(SEATS), key=lambda s: res.ranks[s]):
            row: list[Any] = [str(res.ranks[s]), Text(tr("You") if s == self.human else g.names[s]),
                              f"{res.scores[s]:,}", f"{res.points[s]:+.1f}"]
            if g.rules.chips:
                row.append(f"{res.chips[s]:+d}")
            tbl.add_row(*row)
        self.say(tbl)
        self.say(tr("{n} hands played. You placed {place}. Seed {seed}.", n=len(g.hand_results),
                    place=res.ranks[self.human], seed=g.seed))


def _stdin_line() -> str:
    line = sys.stdin.readline()
    if line == "":
        raise InputEnded
    return line


def play_terminal_game(rules: Rules, seed: int, seat: int, opponent: str, console: Console,
              read: Callable[[], str] = _stdin_line, *, auto_win: bool = False) -> Game:
    """Run one interactive game; returns the finished (or abandoned) game."""
    names = [f"{opponent.capitalize()}-{s}" if s != seat else "You" for s in range(SEATS)]
    game = Game(rules, seed=seed, names=names)
    bots = {s: make_bot(opponent, seed=f"{seed}-{s}", rules=rules) for s in range(SEATS) if s != seat}
    TerminalTable(game, seat, bots, console, read, auto_win=auto_win).run()
    return game


RECORD_FORMATS = {".json": "tenhou6", ".jsonl": "mjai", ".mjson": "mjai"}


def record_format(path: Path, fmt: str | None) -> str:
    """The format of ``--save-record PATH``: ``--record-format``, else from the suffix."""
    if fmt is not None:
        if fmt not in ("tenhou6", "mjai"):
            raise SanmaError(sentence("--record-format {format!r}: choose tenhou6 or mjai", format=fmt))
        return fmt
    try:
        return RECORD_FORMATS[path.suffix.lower()]
    except KeyError:
        raise SanmaError(sentence("--save-record {path}: name the file .json (tenhou.net/6) or .jsonl (mjai), or "
                                  "give --record-format", path=str(path))) from None


def save_record_file(game: Game, path: Path, fmt: str) -> None:
    from ..formats import write_record

    text = write_record(game, fmt, game.rules)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise SanmaError(sentence("--save-record {path}: cannot write it ({reason})", path=str(path),
                                  reason=e.strerror or str(e))) from None


def play(
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "tenhou",
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, max=SEED_LIMIT - 1,
        help="Seed of the walls: the same seed, the same game (so a chosen seed is guessable). Default: a "
             "random seed, shown at the start.")] = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat: 0 deals first.", min=0, max=2)] = 0,
    opponent: Annotated[str, typer.Option(
        "--bot", help="Opponents: defensive, efficient, random, review, tsumogiri.")] = "efficient",
    auto_win: Annotated[bool, typer.Option("--auto-win", help="Take every win on offer without asking "
                                                              "(type 'auto' in the game to switch).")] = False,
    save_record: Annotated[Path | None, typer.Option(
        "--save-record", help="Write the finished game to this file: .json = tenhou.net/6, .jsonl = mjai.")] = None,
    record_fmt: Annotated[str | None, typer.Option("--record-format", help="tenhou6 or mjai (default: from "
                                                                           "the --save-record suffix).")] = None,
    db: Annotated[str | None, typer.Option("--db", help=f"The database the finished game is stored in ({DB_WHERE}; "
                                                        "default: $SANMA_DB or ./sanma.sqlite).")] = None,
    save: Annotated[bool, typer.Option("--save/--no-save", help="Store the finished game.")] = True,
) -> None:
    """Play a game in the terminal against two bots (input: numbers, tiles like 5p, or Enter).

    Example: sanma play --rules kansai --seed 7 --bot defensive --save-record game.json
    """
    console = Console(highlight=False, markup=False)  # names are never markup (issue 14 item 11)
    with cli_errors():
        r = load_rules(rules)
        make_bot(opponent)  # an unknown name is refused before the game, with a did-you-mean
        fmt = record_format(save_record, record_fmt) if save_record is not None else None
        game_seed = secrets.randbelow(10**9) if seed is None else seed
        try:
            game = play_terminal_game(r, game_seed, seat, opponent, console, auto_win=auto_win)
        except InputEnded:
            console.print()
            console.print(tr("Input ended: the game stops here (replay it with --seed {seed}).", seed=game_seed),
                          style="yellow")
            raise typer.Exit(1) from None
        except (QuitGame, KeyboardInterrupt):
            console.print()
            console.print(tr("You left the game (replay it with --seed {seed}).", seed=game_seed), style="yellow")
            raise typer.Exit(0) from None
        if save_record is not None and fmt is not None:
            save_record_file(game, save_record, fmt)
            console.print(Text(tr("Record written to {path} ({format}; sanma replay {path} --check).",
                                  path=str(save_record), format=fmt)), soft_wrap=True)
        if save:
            from ..store import open_db

            with open_db(db) as store:
                gid = store.save_game(game.events, rules=r, seed=game_seed)
            console.print(Text(tr("Game stored as #{id} in {path} (see it with: sanma stats --db {path}).",
                                  id=gid, path=str(store.path))), soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("play")(play)
