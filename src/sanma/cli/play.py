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
from ..bots import BOTS, make_bot
from ..errors import SanmaError, TileError
from ..game.actions import Action
from ..game.engine import Game
from ..game.view import mask_event
from ..i18n import current_lang, fu_line, term_name
from ..i18n.terms import HONOUR_SHORT
from ..rules.schema import Rules
from ..tiles import NUM_KINDS, SEATS, Tile, counts34, parse_tiles, seat_wind, successor
from .common import DB_WHERE, RULES_HELP, cli_errors, load_rules

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
HONOURS = HONOUR_SHORT
HONOUR_INPUT = {"e": 27, "s": 28, "w": 29, "n": 30, "wh": 31, "g": 32, "r": 33,
                "east": 27, "south": 28, "west": 29, "north": 30, "white": 31, "green": 32, "red": 33}
# "n" is North (a tile), never "no" (issue 14 item 2).
PASS_WORDS = {"p", "pass", "no", "none", "skip"}
HELP = (
    "Type a menu number, a tile to discard (5p, 0p = red five, 9m, E S W N Wh G R), "
    "'riichi 5p', 'tsumo', 'ron', 'pon', 'kan', 'kita', 'pass' (or p). An empty line takes the "
    "[Enter = ...] choice: a win when one is on offer, else the drawn tile goes out or the call is "
    "passed. 'auto' switches auto-win on/off; 'quit' leaves."
)
SHORT_HELP = "Type 'help' for what you can type."
RIVER_LEGEND = "river: 5p' = drawn tile discarded · [5p] = riichi tile · 5p> = called by a player"
SEED_LIMIT = 2**63  # seeds are shown and typed: keep them a sensible size
NUKI_MODES = ("nuki", "nuki_restricted")  # P15: North is set aside as kita only in these modes


class InputEnded(Exception):
    """Standard input reached its end."""


class QuitGame(Exception):
    """The player typed quit."""


def tile_text(t: Tile) -> str:
    """Display name: ``5p``, ``0p`` (red five), ``9m``, honours as ``E S W N Wh G R``."""
    if t.kind in HONOURS:
        return HONOURS[t.kind]
    return str(t)


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


def dora_text(indicator: str, label: str = "dora") -> str:
    """``4p (dora 5p)``: an indicator with the dora it names (P06)."""
    try:
        t = Tile.from_mjai(indicator)
    except TileError:
        return mjai_text(indicator)
    if t.kind >= NUM_KINDS:
        return tile_text(t)  # a flower indicates nothing
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
    if len(s) == 3 and s.lower().endswith("r") and s[0].isdigit():
        return Tile.from_mjai(s.lower())
    tiles = parse_tiles(s.lower())
    if len(tiles) != 1:
        raise TileError(f"{s!r} is {len(tiles)} tiles: type one tile, e.g. 5p")
    return tiles[0]


def parse_user_tile(text: str) -> Tile | None:
    """:func:`read_user_tile`, or None when ``text`` is not one sanma tile."""
    try:
        return read_user_tile(text)
    except TileError:
        return None


def describe(a: Action, game: Game) -> str:
    """One menu line for an action."""
    t = tile_text(a.tile) if a.tile is not None else ""
    match a.type:
        case "dahai":
            return f"discard {t}" + (" (drawn)" if a.tsumogiri else "")
        case "reach":
            return f"riichi, discarding {t}"
        case "open_reach":
            return f"open riichi, discarding {t}"
        case "hora":
            return "TSUMO (win)" if a.target == a.actor else f"RON on {t} (win)"
        case "pon":
            return f"pon {t} (with {' '.join(tile_text(x) for x in a.consumed)})"
        case "daiminkan":
            return f"kan {t} (open)"
        case "ankan":
            return f"kan {tile_text(a.consumed[0])} (concealed)"
        case "kakan":
            return f"kan {t} (added to your pon)"
        case "kita":
            return "kita (set the North aside as dora, draw a replacement)"
        case "ryukyoku":
            return "abort the hand (nine terminals and honours)"
        case _:
            return "pass"


class Meld:
    """A meld as the table shows it: its tiles, the tile taken and from whom."""

    def __init__(self, kind: str, tiles: list[Tile], called: Tile | None, source: int | None) -> None:
        self.kind = kind  # "pon", "kan" (open), "ankan", or "kakan" (a pon with its fourth tile added)
        self.tiles = tiles  # the tiles from the hand
        self.called = called
        self.source = source
        self.added: Tile | None = None


class TerminalTable:
    """The game as seen from ``human``'s seat, drawn with rich; input through ``read``."""

    def __init__(self, game: Game, human: int, bots: dict[int, Any], console: Console,
                 read: Callable[[], str], *, auto_win: bool = False) -> None:
        self.game = game
        self.human = human
        self.bots = bots
        self.con = console
        self.read = read
        self.auto_win = auto_win
        self.shown = 0
        self.fed = [0] * SEATS
        # Narration runs after the engine has moved on (possibly to the next hand), so the
        # dealer, honba, sticks and melds are taken from the events being narrated, not the game.
        self.dealer = game.dealer
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
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

    def verb(self, seat: int, verb: str) -> str:
        """``discards`` for a bot, ``discard`` for "You"."""
        return verb[:-1] if seat == self.human and verb.endswith("s") else verb

    def who(self, seat: int) -> str:
        wind = seat_wind(seat, self.dealer)
        name = "You" if seat == self.human else self.game.names[seat]
        return f"{name} ({wind})"

    # ------------------------------------------------------------------------------ loop
    def run(self) -> None:
        g = self.game
        opponents = ", ".join(g.names[s] for s in range(SEATS) if s != self.human)
        self.say(Text(f"sanma — {g.rules.name} rules, seed {g.seed} (--seed {g.seed} replays this game). "
                            f"You are seat {self.human}; opponents: {opponents}.", style="bold"))
        self.say(HELP, style="dim")
        while not g.done:
            movers = g.to_move
            bot_seats = [s for s in movers if s != self.human]
            if bot_seats:
                for s in bot_seats:
                    self.feed(s)
                    g.apply(self.bots[s].act(_Obs(g, s), g.legal_actions(s)))
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
            self.say(f"  auto-win: {describe(wins[0], self.game)}", style="bold green")
            return wins[0]
        if not self.game.seats[self.human].riichi or wins:
            return None
        if any(a.type in ("ankan", "kakan", "daiminkan", "kita") for a in legal):
            return None
        drawn = [a for a in legal if a.type == "dahai" and a.tsumogiri]
        if len(drawn) == 1 and all(a.type in ("dahai", "none") for a in legal):
            assert drawn[0].tile is not None
            self.say(f"  You (riichi) discard the drawn {tile_text(drawn[0].tile)}", style="dim")
            return drawn[0]
        return None

    # ------------------------------------------------------------------------------ events
    def feed(self, seat: int) -> None:
        """Give a bot that follows the event stream (``on_event``) what it has not seen yet."""
        on_event = getattr(self.bots[seat], "on_event", None)
        if on_event is None:
            return
        events = self.game.events
        for e in events[self.fed[seat]:]:
            on_event(mask_event(e, seat))
        self.fed[seat] = len(events)

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
            self.con.rule(Text(f"{WIND_NAMES.get(e['bakaze'], e['bakaze'])} {e['kyoku']}, {e['honba']} honba, "
                          f"{e['kyotaku']} riichi stick(s) — dealer {self.who(e['oya'])}; "
                          f"you are {WIND_NAMES[seat_wind(self.human, e['oya'])]}"))
        elif t == "dahai" and a != self.human:
            self.say(f"  {self.who(a)} {self.verb(a, 'discards')} {mjai_text(e['pai'])}"
                           + (" (drawn tile)" if e.get("tsumogiri") else ""))
        if t in ("pon", "daiminkan", "ankan", "kakan"):
            self.record_meld(t, a, e)
        if t in ("pon", "daiminkan"):
            call = "kan" if t == "daiminkan" else t
            self.say(f"  {self.who(a)} {self.verb(a, 'calls')} {call} on {mjai_text(e['pai'])} "
                     f"from {self.who(e['target'])}", style="cyan")
        elif t in ("ankan", "kakan"):
            kind = mjai_text(e["consumed"][0] if t == "ankan" else e["pai"])
            what = "a concealed kan" if t == "ankan" else "an added kan"
            self.say(f"  {self.who(a)} {self.verb(a, 'declares')} {what} of {kind}", style="cyan")
        elif t == "kita":
            self.say(f"  {self.who(a)} {self.verb(a, 'sets')} a North aside (kita)", style="cyan")
        elif t == "flower":
            self.say(f"  {self.who(a)} {self.verb(a, 'sets')} a flower aside ({mjai_text(e['pai'])})", style="cyan")
        elif t == "reach":
            what = "OPEN RIICHI" if e.get("open") else "RIICHI"
            self.say(f"  {self.who(a)} {self.verb(a, 'declares')} {what}", style="bold yellow")
        elif t == "reach_accepted":
            self.sticks += 1
        elif t == "dora":
            self.say(f"  new dora indicator: {dora_text(e['dora_marker'])}", style="magenta")
        elif t == "hora":
            self.hora(e)
        elif t == "ryukyoku":
            self.ryukyoku(e)
        elif t == "chombo":
            self.say(Text(f"Chombo: {self.who(a)} ({e.get('reason', '')}) pays: "
                                + self.deltas_text(e["deltas"]), style="bold red"))
        elif t == "end_kyoku":
            self.scores_line(e["scores"])
            if g.rules.chips:
                self.chips_line()
            if not g.done:
                self.pause("Press Enter for the next hand")

    def record_meld(self, t: str, seat: int, e: dict[str, Any]) -> None:
        if t == "kakan":
            kind = Tile.from_mjai(e["pai"]).kind
            for m in self.melds[seat]:
                if m.kind == "pon" and m.tiles[0].kind == kind:
                    m.kind, m.added = "kakan", Tile.from_mjai(e["pai"])
            return
        consumed = [Tile.from_mjai(x) for x in e.get("consumed", ())]
        if t == "ankan":
            self.melds[seat].append(Meld("ankan", consumed, None, None))
        else:
            self.melds[seat].append(Meld("pon" if t == "pon" else "kan", consumed, Tile.from_mjai(e["pai"]),
                                         e.get("target")))

    def meld_text(self, m: Meld) -> str:
        own = " ".join(tile_text(t) for t in sorted(m.tiles))
        if m.kind == "ankan":
            return f"kan {own} (concealed)"
        assert m.called is not None and m.source is not None
        taken = f"[{tile_text(m.called)} from {self.game.names[m.source] if m.source != self.human else 'you'}]"
        label = "pon" if m.kind == "pon" else "kan"
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
        how = f"TSUMO on {tile}" if w == target else f"RON on {tile} from {self.who(target)}"
        self.say(Text(f"{self.who(w)} {self.verb(w, 'wins')} by {how}", style="bold green"))
        tbl = Table()
        tbl.add_column("yaku")
        tbl.add_column("han", justify="right")
        for y in e["yaku"]:
            han = f"yakuman ×{y['yakuman']}" if y.get("yakuman") else str(y["han"])
            tbl.add_row(Text(term_name("yaku", y["name"], current_lang())), han)
        limit = term_name("limit", e["limit"], current_lang()) if e.get("limit") else ""
        value = (f"yakuman ×{e['yakuman']}" if e["yakuman"] else f"{e['han']} han {e['fu']} fu") + (
            f" ({limit})" if limit else "")
        tbl.add_row(Text(value, style="bold"), Text(f"{e['points']:,} points", style="bold"))
        self.say(tbl)
        s = self.score_of(w)
        if s is not None and s.fu_breakdown and not s.yakuman:
            parts = [f"{fu_line(line, current_lang())} {fu}" for line, fu in s.fu_breakdown]
            raw = sum(fu for _, fu in s.fu_breakdown)
            self.say(f"  fu: {' + '.join(parts)} = {raw}" + (f", rounded up to {s.fu}" if raw != s.fu else ""))
        hand = [Tile.from_mjai(x) for x in e["hora_tehais"]]
        win_tile = Tile.from_mjai(e["pai"])
        if w == target and win_tile in hand:
            hand.remove(win_tile)  # a tsumo hand holds the winning tile: show it apart, as for a ron
        melds = self.melds_text(w)
        self.say("  hand: " + " ".join(tile_text(t) for t in sorted(hand)) + f"  + winning tile {tile}"
                       + (f"  melds: {melds}" if melds else ""))
        if e.get("uradora_markers"):
            ura = ", ".join(dora_text(x, "ura dora") for x in e["uradora_markers"])
            self.say(f"  ura dora indicators: {ura}")
        self.payments(e, w)

    def payments(self, e: dict[str, Any], w: int) -> None:
        """Who pays what; the winner's gain itemised: hand, honba (P43, P44), riichi sticks (P48)."""
        deltas: Sequence[int] = e["deltas"]
        points: int = e["points"]
        sticks = 0 if self.paid_sticks else self.sticks * self.game.rules.riichi_deposit
        self.paid_sticks = True
        honba = deltas[w] - points - sticks
        items = [f"hand {points:,}"]
        if honba:
            items.append(f"{self.honba} honba {honba:,}" if self.honba else f"other {honba:+,}")
        if sticks:
            items.append(f"{sticks // self.game.rules.riichi_deposit} riichi stick(s) {sticks:,}")
        line = f"  {self.who(w)} {self.verb(w, 'receives')} {deltas[w]:+,}"
        if len(items) > 1:
            line += " = " + " + ".join(items)
        payers = [f"{self.who(s)} {d:+,}" for s, d in enumerate(deltas) if s != w and d]
        self.say(line + ("; " + ", ".join(payers) if payers else ""))

    def ryukyoku(self, e: dict[str, Any]) -> None:
        reason = e.get("reason", "")
        if reason == "exhaustive":
            tenpai = e.get("tenpai", [])
            names = ", ".join(self.who(s) for s in tenpai) or "nobody"
            self.say(Text(f"Exhaustive draw: tenpai: {names}", style="bold"))
            for s in tenpai:
                hand = e.get("tehais", [[]] * SEATS)[s]
                if hand:
                    melds = self.melds_text(s)
                    self.say(f"  {self.who(s)}: " + hand_text(hand) + (f"  melds: {melds}" if melds else ""))
            self.say("  payments: " + self.deltas_text(e.get("deltas", [0] * SEATS)))
            return
        if reason == "kyuushu":
            who = self.who(e["actor"]) if "actor" in e else "a player"
            self.say(Text(f"Abortive draw: {who} declared nine terminals and honours (kyuushu kyuuhai)",
                                style="bold"))
            return
        labels = {"sanfuu_renda": "everyone discarded the same wind on the first go-around",
                  "suukaikan": "four kans by more than one player", "all_riichi": "every player declared riichi",
                  "nagashi": "nagashi mangan"}
        self.say(Text(f"Abortive draw: {labels.get(reason, reason)}", style="bold"))
        if e.get("nagashi"):
            self.say("  nagashi mangan: " + ", ".join(self.who(s) for s in e["nagashi"]))

    def deltas_text(self, deltas: Sequence[int]) -> str:
        return ", ".join(f"{self.who(s)} {d:+,}" for s, d in enumerate(deltas))

    def scores_line(self, scores: Sequence[int]) -> None:
        self.say("Scores: " + ", ".join(f"{self.who(s)} {scores[s]:,}" for s in range(SEATS)))

    def chips_line(self) -> None:
        now = list(self.game.chips)
        change = [now[s] - self.chips[s] for s in range(SEATS)]
        self.chips = now
        if any(change):
            self.say("Chips this hand: " + ", ".join(f"{self.who(s)} {change[s]:+d}" for s in range(SEATS))
                           + " (total: " + ", ".join(f"{now[s]:+d}" for s in range(SEATS)) + ")")

    # ------------------------------------------------------------------------------ board
    def board(self) -> None:
        g = self.game
        r = g.rules
        obs = g.observation(self.human)
        dora = ", ".join(dora_text(x) for x in obs["dora_indicators"])
        self.say(Text(
            f"{WIND_NAMES.get(obs['round_wind'], obs['round_wind'])} {obs['kyoku']} · {obs['honba']} honba · "
            f"riichi sticks {obs['kyotaku']} · wall {obs['wall_remaining']} · dora indicator(s) {dora}",
            style="bold blue"))
        kita = r.north_mode in NUKI_MODES
        flowers = r.flowers > 0
        cols = ["seat", "score", *(["chips"] if r.chips else []), *(["kita"] if kita else []),
                *(["flowers"] if flowers else []), "melds", "river"]
        tbl = Table(show_header=True, box=None, pad_edge=False)
        for col in cols:
            tbl.add_column(col, no_wrap=col not in ("river", "melds"))
        for s in range(SEATS):
            pub = obs["seats"][s]
            label = Text(self.who(s) + (" *dealer" if s == obs["dealer"] else ""),
                         style="bold" if s == self.human else "")
            if pub["riichi"]:
                label.append(" RIICHI", style="bold yellow")
            river = Text()
            for d in pub["discards"]:
                name = mjai_text(d["pai"])
                if d["riichi"]:
                    river.append(f"[{name}]", style="yellow bold")
                else:
                    river.append(name, style="dim" if d["tsumogiri"] else "")
                if d["tsumogiri"]:
                    river.append("'", style="dim")
                if d["called"]:
                    river.append(">", style="cyan")
                river.append(" ")
            row: list[Any] = [label, f"{obs['scores'][s]:,}"]  # names only in Text: never markup
            if r.chips:
                row.append(f"{g.chips[s]:+d}")
            if kita:
                row.append(str(pub["kita"] or ""))
            if flowers:
                row.append(str(pub["flowers"] or ""))
            row += [Text(self.melds_text(s)), river]
            tbl.add_row(*row)
        self.say(tbl)
        for s in range(SEATS):  # P82 open riichi: the hand is shown to everyone
            shown = obs["seats"][s].get("open_hand")
            if shown and s != self.human:
                self.say(f"  {self.who(s)} open riichi hand: {hand_text(shown)}", style="yellow")
        if not self.legend_shown:
            self.say(RIVER_LEGEND, style="dim")
            self.legend_shown = True
        hand = [Tile.from_mjai(x) for x in obs["hand"]]
        drawn = Tile.from_mjai(obs["drawn"]) if obs["drawn"] else None
        if drawn is not None:
            hand.remove(drawn)
        line = Text("Your hand: ")
        for t in sorted(hand, key=lambda t: (t.kind, t.red)):
            line.append_text(styled(t))
            line.append(" ")
        if drawn is not None:
            line.append("  drawn: ")
            line.append_text(styled(drawn))
        self.say(line)
        tenpai = self.tenpai_text(obs)
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

    def tenpai_text(self, obs: dict[str, Any]) -> str:
        hand = [Tile.from_mjai(x) for x in obs["hand"]]
        if len(hand) % 3 == 1:  # waiting on a call prompt
            if "waits" in obs:  # the engine's view of the seat (Game.view): its waits and furiten
                w = tuple(Tile.from_mjai(x).kind for x in obs["waits"])
                furiten = bool(obs.get("furiten"))
            else:
                w = self.waits_after(hand, None)
                furiten = self.furiten(None)
            if not w:
                return ""
            return f"Tenpai: waiting on {self.waits_text(w, obs)}" + (" — FURITEN (no ron)" if furiten else "")
        if obs.get("riichi") and obs.get("drawn"):  # the hand is fixed: its waits, not every discard's
            drawn = Tile.from_mjai(obs["drawn"])
            w = self.waits_after(hand, drawn)
            # furiten after the drawn tile goes out; a drawn winning tile is a tsumo on offer, not furiten
            furiten = drawn.kind not in w and self.furiten(drawn)
            return (f"Riichi: waiting on {self.waits_text(w, obs)}"
                    + (" — FURITEN (no ron)" if furiten else "")) if w else ""
        out = []
        for t in sorted({t.kind: t for t in hand}.values()):
            w = self.waits_after(hand, t)
            if w:
                out.append(f"{tile_text(t)} → {self.waits_text(w, obs)}" + (" (furiten)" if self.furiten(t) else ""))
        return ("Tenpai discards: " + "; ".join(out)) if out else ""

    @staticmethod
    def unseen(obs: dict[str, Any]) -> list[int]:
        """Copies of each kind this seat cannot see: four less its hand, every river (a called
        discard counts once, in its meld), every meld, the kita and the dora indicators."""
        left = [4] * NUM_KINDS
        seen = list(obs["hand"]) + list(obs["dora_indicators"])
        for pub in obs["seats"]:
            seen += [d["pai"] for d in pub["discards"] if not d["called"]]
            seen += [x for m in pub["melds"] for x in m["tiles"]]
            seen += ["N"] * pub["kita"]
        for name in seen:
            try:
                k = Tile.from_mjai(name).kind
            except TileError:
                continue  # "?" or a flower
            if k < NUM_KINDS:
                left[k] -= 1
        return left

    def waits_text(self, waits: Sequence[int], obs: dict[str, Any]) -> str:
        """``3p (2 left), 6p (3 left)``: each wait with the copies this seat cannot see."""
        left = self.unseen(obs)
        return ", ".join(f"{tile_text(Tile(k))} ({max(left[k], 0)} left)" for k in waits)

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
            words = "/".join("ron" if k == "hora" else k for k in kinds)
            self.say(Text(f"{self.who(last.get('actor', 0))} played {tile}: {words}?", style="bold"))
        discards = [(i, a) for i, a in enumerate(choices, 1) if a.type == "dahai"]
        if discards:
            self.say("  discard: " + "  ".join(f"{i}:{tile_text(a.tile)}" + ("*" if a.tsumogiri else "")
                                                     for i, a in discards if a.tile is not None)
                           + ("   (* = drawn tile)" if any(a.tsumogiri for _, a in discards) else ""))
        for i, a in enumerate(choices, 1):
            if a.type != "dahai":
                self.say(f"  {i}: {describe(a, self.game)}", style="bold green" if a.type == "hora" else "")
        default = self.default(choices)
        hint = f" [Enter = {describe(default, self.game)}]" if default else ""
        while True:
            self.say(f"Your choice{hint}: ", end="")
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
            return default if default is not None else "Enter has no default here: " + self.options(choices)
        if s in ("?", "h", "help"):
            self.say(HELP)
            self.say(RIVER_LEGEND)
            return ""
        if s in ("q", "quit", "exit"):
            raise QuitGame
        if s == "auto":
            self.auto_win = not self.auto_win
            self.say(f"auto-win is {'on: wins are taken' if self.auto_win else 'off: you are asked'}")
            win = next((a for a in choices if a.type == "hora"), None)
            return win if self.auto_win and win is not None else ""  # the win on offer now, too
        if s.isascii() and s.isdigit():
            if len(s) > 6 or not 1 <= int(s) <= len(choices):
                return f"There is no choice {s[:12]}{'…' if len(s) > 12 else ''}: pick 1 to {len(choices)}."
            return choices[int(s) - 1]
        words = s.split()
        head = words[0]
        by_type = {a.type: a for a in reversed(choices)}
        if s in PASS_WORDS:
            if "none" in by_type:
                return by_type["none"]
            return "There is nothing to pass on: it is your turn to discard. " + self.options(choices)
        if head in ("tsumo", "ron", "hora", "win"):
            return by_type.get("hora") or "No win is on offer now."
        if head == "kita":
            return by_type.get("kita") or "Kita is not possible now (no North to set aside, or not under these rules)."
        if s == "pon":
            return by_type.get("pon") or "No pon is on offer now."
        if s == "kan":
            kan = next((a for a in choices if a.type in ("daiminkan", "ankan", "kakan")), None)
            return kan or "No kan is possible now."
        if head in ("riichi", "reach"):
            return self.riichi(words[1:], choices)
        if len(words) == 1:
            try:
                tile = read_user_tile(s)
            except TileError as e:
                return f"{e}. {SHORT_HELP}"
            return self.discard(tile, choices)
        return f"Not understood: {text.strip()[:40]!r}. {SHORT_HELP}"

    def options(self, choices: Sequence[Action]) -> str:
        kinds = sorted({"discard a tile" if a.type == "dahai" else describe(a, self.game) for a in choices})
        return "You may: " + "; ".join(kinds) + "."

    def hand_tiles(self) -> list[Tile]:
        return [Tile.from_mjai(x) for x in self.game.observation(self.human)["hand"]]

    def discard(self, tile: Tile, choices: Sequence[Action]) -> Action | str:
        if not any(a.type == "dahai" for a in choices):
            if tile.kind == 30:
                return "N is the North tile; to pass type 'pass' or 'p'. " + self.options(choices)
            return f"You cannot discard now. {self.options(choices)}"
        picked = self.pick_discard(choices, tile, "dahai")
        if picked is not None:
            return picked
        hand = self.hand_tiles()
        if not any(t.kind == tile.kind for t in hand):
            return f"You have no {tile_text(tile)} in your hand."
        if self.game.seats[self.human].riichi:
            return "After riichi only the drawn tile may be discarded (P79): press Enter."
        return f"{tile_text(tile)} may not be discarded now (kuikae: not the tile just called, P72)."

    def riichi(self, rest: Sequence[str], choices: Sequence[Action]) -> Action | str:
        reach = [a for a in choices if a.type == "reach" and a.tile is not None]
        if not reach:
            return "Riichi is not possible now: " + self.why_no_riichi()
        possible = ", ".join(dict.fromkeys(tile_text(a.tile) for a in reach if a.tile is not None))
        if len(rest) != 1:
            return f"Say which tile to discard with the riichi, e.g. 'riichi {possible.split(', ')[0]}' " \
                   f"(possible: {possible})."
        try:
            tile = read_user_tile(rest[0])
        except TileError as e:
            return f"{e}."
        picked = self.pick_discard(choices, tile, "reach")
        if picked is not None:
            return picked
        return (f"Riichi discarding {tile_text(tile)} is not possible: "
                + ("it is not in your hand" if not any(t.kind == tile.kind for t in self.hand_tiles())
                   else "the hand would not be tenpai") + f". Riichi is possible discarding: {possible}.")

    def why_no_riichi(self) -> str:
        st = self.game.seats[self.human]
        if st.riichi:
            return "you have already declared riichi."
        if any(m.meld.is_open for m in st.melds):
            return "your hand is open (riichi needs a closed hand)."
        hand = self.hand_tiles()
        if not any(self.waits_after(hand, t) for t in hand):
            return "your hand is not tenpai whatever you discard."
        return (f"the rules do not allow it here (riichi needs {self.game.rules.riichi_deposit:,} points and "
                "enough tiles left in the wall).")

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
        tbl = Table(title="Final result", title_justify="left", title_style="bold")
        for col in ("place", "player", "score", "points", *(["chips"] if g.rules.chips else [])):
            tbl.add_column(col, justify="left" if col == "player" else "right")
        for s in sorted(range(SEATS), key=lambda s: res.ranks[s]):
            row: list[Any] = [str(res.ranks[s]), Text("You" if s == self.human else g.names[s]), f"{res.scores[s]:,}",
                   f"{res.points[s]:+.1f}"]
            if g.rules.chips:
                row.append(f"{res.chips[s]:+d}")
            tbl.add_row(*row)
        self.say(tbl)
        self.say(f"{len(g.hand_results)} hands played. You placed {res.ranks[self.human]}. "
                       f"Seed {g.seed}.")


class _Obs(dict[str, Any]):
    """``game.observation(seat)`` for a bot."""

    def __init__(self, game: Game, seat: int) -> None:
        super().__init__(game.observation(seat))


def _stdin_line() -> str:
    line = sys.stdin.readline()
    if line == "":
        raise InputEnded
    return line


def play_game(rules: Rules, seed: int, seat: int, opponent: str, console: Console,
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
            raise SanmaError(f"--record-format {fmt!r}: choose tenhou6 or mjai")
        return fmt
    try:
        return RECORD_FORMATS[path.suffix.lower()]
    except KeyError:
        raise SanmaError(f"--save-record {path}: name the file .json (tenhou.net/6) or .jsonl (mjai), "
                         "or give --record-format") from None


def write_record(game: Game, path: Path, fmt: str) -> None:
    from ..formats.writers import write_mjai, write_tenhou6

    text = write_mjai(game) if fmt == "mjai" else write_tenhou6(game, game.rules, as_text=True)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise SanmaError(f"--save-record {path}: cannot write it ({e.strerror or e})") from None


def play(
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "tenhou",
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, max=SEED_LIMIT - 1,
        help="Seed of the walls: the same seed, the same game (so a chosen seed is guessable). Default: a "
             "random seed, shown at the start.")] = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat: 0 deals first.", min=0, max=2)] = 0,
    opponent: Annotated[str, typer.Option("--bot", help=f"Opponents: {', '.join(sorted(BOTS))}.")] = "efficient",
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
            game = play_game(r, game_seed, seat, opponent, console, auto_win=auto_win)
        except InputEnded:
            console.print()
            console.print(f"Input ended: the game stops here (replay it with --seed {game_seed}).", style="yellow")
            raise typer.Exit(1) from None
        except (QuitGame, KeyboardInterrupt):
            console.print()
            console.print(f"You left the game (replay it with --seed {game_seed}).", style="yellow")
            raise typer.Exit(0) from None
        if save_record is not None and fmt is not None:
            write_record(game, save_record, fmt)
            console.print(Text(f"Record written to {save_record} ({fmt}; sanma replay {save_record} --check)."),
                          soft_wrap=True)
        if save:
            from ..store import open_db

            with open_db(db) as store:
                gid = store.save_game(game.events, rules=r, seed=game_seed)
            console.print(Text(f"Game stored as #{gid} in {store.path} (see it with: sanma stats --db {store.path})."),
                          soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("play")(play)
