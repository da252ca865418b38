"""``sanma play``: a whole game in the terminal against two bots.

Input is read line by line from standard input, so a game can be scripted. At each choice:

* a number picks that line of the menu;
* a tile (``5p``, ``0p`` for the red five, ``9m``, ``E S W N Wh G R`` or ``1z``..``7z``)
  discards it; ``riichi 5p`` declares riichi with that discard;
* ``tsumo``/``ron``, ``pon``, ``kan``, ``kita``, ``pass`` (or ``p``) name an action;
* an empty line takes the default: discard the drawn tile, or pass on a call;
* ``?`` shows this help, ``quit`` leaves the game.

Invalid input is answered with a message and the question again; the end of the input
(EOF) stops the game with a message.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..bots import BOTS, make_bot
from ..errors import TileError
from ..game.actions import Action
from ..game.engine import Game
from ..game.view import mask_event
from ..rules.schema import Rules
from ..tiles import Tile, parse_tiles
from .common import RULES_HELP, cli_errors, load_rules

SEATS = 3
WINDS = "ESW"
WIND_NAMES = {"E": "East", "S": "South", "W": "West"}
HONOURS = {27: "E", 28: "S", 29: "W", 30: "N", 31: "Wh", 32: "G", 33: "R"}
HONOUR_INPUT = {"e": 27, "s": 28, "w": 29, "n": 30, "wh": 31, "g": 32, "r": 33,
                "east": 27, "south": 28, "west": 29, "north": 30, "white": 31, "green": 32, "red": 33}
PASS_WORDS = {"p", "pass", "n", "no", "none", "skip"}
HELP = (
    "Type a menu number, a tile to discard (5p, 0p = red five, 9m, E S W N Wh G R), "
    "'riichi 5p', 'tsumo', 'ron', 'pon', 'kan', 'kita', 'pass'; an empty line discards the drawn "
    "tile or passes; 'quit' leaves."
)


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
        return name


def hand_text(names: Sequence[str]) -> str:
    """mjai tile names, sorted, as display names."""
    tiles = sorted(Tile.from_mjai(x) for x in names)
    return " ".join(tile_text(t) for t in tiles)


def styled(t: Tile) -> Text:
    style = "bold red" if t.red else "bold" if t.kind in HONOURS else ""
    return Text(tile_text(t), style=style)


def parse_user_tile(text: str) -> Tile | None:
    """A tile as a player types it, or None: ``5p``, ``0p``, ``5pr``, ``E``, ``wh``, ``7z``."""
    s = text.strip()
    if s.lower() in HONOUR_INPUT:
        return Tile(HONOUR_INPUT[s.lower()])
    if len(s) == 3 and s.endswith("r"):
        try:
            return Tile.from_mjai(s)
        except TileError:
            return None
    try:
        tiles = parse_tiles(s.lower())
    except TileError:
        return None
    return tiles[0] if len(tiles) == 1 else None


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


class TerminalTable:
    """The game as seen from ``human``'s seat, drawn with rich; input through ``read``."""

    def __init__(self, game: Game, human: int, bots: dict[int, Any], console: Console,
                 read: Callable[[], str]) -> None:
        self.game = game
        self.human = human
        self.bots = bots
        self.con = console
        self.read = read
        self.shown = 0
        self.fed = [0] * SEATS
        # Narration runs after the engine has moved on (possibly to the next hand), so the
        # dealer and the melds are taken from the events being narrated, not from the game.
        self.dealer = game.dealer
        self.melds: list[list[Any]] = [[] for _ in range(SEATS)]  # per seat: [type, tiles]

    # ------------------------------------------------------------------------------ names
    def who(self, seat: int) -> str:
        wind = WINDS[(seat - self.dealer) % SEATS]
        name = "You" if seat == self.human else self.game.names[seat]
        return f"{name} ({wind})"

    # ------------------------------------------------------------------------------ loop
    def run(self) -> None:
        g = self.game
        self.con.print(Text(f"sanma — {g.rules.name} rules, seed {g.seed}. You are seat {self.human}; "
                            f"opponents: {', '.join(g.names[s] for s in range(SEATS) if s != self.human)}.",
                            style="bold"))
        self.con.print(HELP, style="dim")
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
            self.board()
            g.apply(self.ask(legal))
        self.narrate()
        self.final()

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
            self.con.rule(f"{WIND_NAMES.get(e['bakaze'], e['bakaze'])} {e['kyoku']}, {e['honba']} honba, "
                          f"{e['kyotaku']} riichi stick(s) — dealer {self.who(e['oya'])}")
        elif t == "dahai" and a != self.human:
            self.con.print(f"  {self.who(a)} discards {mjai_text(e['pai'])}"
                           + (" (drawn tile)" if e.get("tsumogiri") else ""))
        if t in ("pon", "daiminkan", "ankan", "kakan"):
            self.record_meld(t, a, e)
        if t in ("pon", "daiminkan"):
            self.con.print(f"  {self.who(a)} calls {t} on {mjai_text(e['pai'])} from {self.who(e['target'])}",
                           style="cyan")
        elif t in ("ankan", "kakan"):
            kind = mjai_text(e["consumed"][0])
            self.con.print(f"  {self.who(a)} declares {'a concealed kan' if t == 'ankan' else 'an added kan'}"
                           f" of {kind}", style="cyan")
        elif t == "kita":
            self.con.print(f"  {self.who(a)} sets a North aside (kita)", style="cyan")
        elif t == "flower":
            self.con.print(f"  {self.who(a)} sets a flower aside", style="cyan")
        elif t == "reach":
            self.con.print(f"  {self.who(a)} declares RIICHI", style="bold yellow")
        elif t == "dora":
            self.con.print(f"  new dora indicator: {mjai_text(e['dora_marker'])}", style="magenta")
        elif t == "hora":
            self.hora(e)
        elif t == "ryukyoku":
            self.ryukyoku(e)
        elif t == "end_kyoku":
            self.scores_line(e["scores"], e.get("deltas"))
            if not g.done:
                self.pause("Press Enter for the next hand")

    def record_meld(self, t: str, seat: int, e: dict[str, Any]) -> None:
        if t == "kakan":
            kind = Tile.from_mjai(e["pai"]).kind
            for m in self.melds[seat]:
                if m[0] == "pon" and m[1][0].kind == kind:
                    m[0] = "kan"
                    m[1].append(Tile.from_mjai(e["pai"]))
            return
        tiles = [Tile.from_mjai(x) for x in (*e.get("consumed", ()), *([e["pai"]] if t != "ankan" else []))]
        self.melds[seat].append(["ankan" if t == "ankan" else "pon" if t == "pon" else "kan", tiles])

    def hora(self, e: dict[str, Any]) -> None:
        w, target = e["actor"], e["target"]
        how = "TSUMO" if w == target else f"RON from {self.who(target)}"
        tbl = Table(title=f"{self.who(w)} wins by {how} on {mjai_text(e['pai'])}", title_justify="left",
                    title_style="bold green")
        tbl.add_column("yaku")
        tbl.add_column("han", justify="right")
        for y in e["yaku"]:
            tbl.add_row(y["name"], f"yakuman ×{y['yakuman']}" if y.get("yakuman") else str(y["han"]))
        value = (f"yakuman ×{e['yakuman']}" if e["yakuman"] else f"{e['han']} han {e['fu']} fu") + (
            f" ({e['limit']})" if e.get("limit") else "")
        tbl.add_row(Text(value, style="bold"), Text(f"{e['points']:,} points", style="bold"))
        self.con.print(tbl)
        self.con.print("  hand: " + hand_text(e["hora_tehais"])
                       + self.melds_text(w))
        if e.get("uradora_markers"):
            self.con.print("  ura dora indicators: " + " ".join(mjai_text(x) for x in e["uradora_markers"]))
        self.con.print("  payments: " + self.deltas_text(e["deltas"]))

    def ryukyoku(self, e: dict[str, Any]) -> None:
        reason = e.get("reason", "")
        if reason == "exhaustive":
            tenpai = e.get("tenpai", [])
            names = ", ".join(self.who(s) for s in tenpai) or "nobody"
            self.con.print(Text(f"Exhaustive draw: tenpai: {names}", style="bold"))
            for s in tenpai:
                hand = e.get("tehais", [[]] * SEATS)[s]
                if hand:
                    self.con.print(f"  {self.who(s)}: " + hand_text(hand) + self.melds_text(s))
            self.con.print("  payments: " + self.deltas_text(e.get("deltas", [0] * SEATS)))
        else:
            labels = {"kyuushu": "nine terminals and honours", "sanfuu_renda": "the same wind from everyone",
                      "suukaikan": "four kans", "nagashi": "nagashi mangan"}
            self.con.print(Text(f"Abortive draw: {labels.get(reason, reason)}", style="bold"))

    def deltas_text(self, deltas: Sequence[int]) -> str:
        return ", ".join(f"{self.who(s)} {d:+,}" for s, d in enumerate(deltas))

    def scores_line(self, scores: Sequence[int], deltas: Sequence[int] | None) -> None:
        self.con.print("Scores: " + ", ".join(f"{self.who(s)} {scores[s]:,}" for s in range(SEATS)))

    def melds_text(self, seat: int) -> str:
        if not self.melds[seat]:
            return ""
        return "  melds: " + "  ".join(f"{m[0]} {' '.join(tile_text(t) for t in sorted(m[1]))}"
                                       for m in self.melds[seat])

    # ------------------------------------------------------------------------------ board
    def board(self) -> None:
        g = self.game
        obs = g.observation(self.human)
        dora = " ".join(mjai_text(x) for x in obs["dora_indicators"])
        self.con.print(Text(
            f"{WIND_NAMES.get(obs['round_wind'], obs['round_wind'])} {obs['kyoku']} · {obs['honba']} honba · "
            f"riichi sticks {obs['kyotaku']} · wall {obs['wall_remaining']} · dora indicator(s) {dora}",
            style="bold blue"))
        tbl = Table(show_header=True, box=None, pad_edge=False)
        for col in ("seat", "score", "kita", "melds", "discards"):
            tbl.add_column(col, no_wrap=col != "discards")
        for s in range(SEATS):
            pub = obs["seats"][s]
            label = Text(self.who(s) + (" *dealer" if s == obs["dealer"] else ""),
                         style="bold" if s == self.human else "")
            if pub["riichi"]:
                label.append(" RIICHI", style="bold yellow")
            discards = Text()
            for d in pub["discards"]:
                style = "yellow underline" if d["riichi"] else "dim strike" if d["called"] else ""
                discards.append(mjai_text(d["pai"]), style=style)
                discards.append(" ")
            melds = "  ".join(" ".join(mjai_text(x) for x in m["tiles"]) + ("(c)" if m["type"] == "ankan" else "")
                              for m in pub["melds"])
            tbl.add_row(label, f"{obs['scores'][s]:,}", str(pub["kita"] or ""), melds, discards)
        self.con.print(tbl)
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
        self.con.print(line)

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
            self.con.print(Text(f"{self.who(last.get('actor', 0))} played {tile}: {words}?", style="bold"))
        discards = [(i, a) for i, a in enumerate(choices, 1) if a.type == "dahai"]
        if discards:
            self.con.print("  discard: " + "  ".join(f"{i}:{tile_text(a.tile)}" + ("*" if a.tsumogiri else "")
                                                     for i, a in discards if a.tile is not None)
                           + "   (* = drawn tile)")
        for i, a in enumerate(choices, 1):
            if a.type != "dahai":
                self.con.print(f"  {i}: {describe(a, self.game)}")
        default = self.default(choices)
        hint = f"[Enter = {describe(default, self.game)}]" if default else ""
        while True:
            self.con.print(f"Your choice {hint}: ", end="")
            text = self.read()
            picked = self.interpret(text, choices, default)
            if picked is not None:
                return picked
            self.con.print(f"Not understood: {text.strip()!r}. {HELP}", style="red")

    @staticmethod
    def default(choices: Sequence[Action]) -> Action | None:
        for a in choices:
            if a.type == "none" or (a.type == "dahai" and a.tsumogiri):
                return a
        return None

    def interpret(self, text: str, choices: Sequence[Action], default: Action | None) -> Action | None:
        s = text.strip().lower()
        if not s:
            return default
        if s in ("?", "h", "help"):
            self.con.print(HELP)
            return None
        if s in ("q", "quit", "exit"):
            raise QuitGame
        if s.isdigit():
            i = int(s)
            return choices[i - 1] if 1 <= i <= len(choices) else None
        words = s.split()
        head = words[0]
        by_type = {a.type: a for a in reversed(choices)}
        if s in PASS_WORDS:
            return by_type.get("none")
        if head in ("tsumo", "ron", "hora", "win"):
            return by_type.get("hora")
        if head == "kita":
            return by_type.get("kita")
        if s == "pon":
            return by_type.get("pon")
        if s == "kan":
            return next((a for a in choices if a.type in ("daiminkan", "ankan", "kakan")), None)
        if head in ("riichi", "reach") and len(words) == 2:
            tile = parse_user_tile(words[1])
            return self.pick_discard(choices, tile, "reach") if tile else None
        if len(words) == 1:
            tile = parse_user_tile(s)
            if tile is not None:
                return self.pick_discard(choices, tile, "dahai")
        return None

    @staticmethod
    def pick_discard(choices: Sequence[Action], tile: Tile, kind: str) -> Action | None:
        same = [a for a in choices if a.type == kind and a.tile is not None and a.tile.kind == tile.kind]
        exact = [a for a in same if a.tile is not None and a.tile.red == tile.red]
        pool = exact or same
        return pool[0] if pool else None

    def pause(self, prompt: str) -> None:
        self.con.print(f"{prompt} ", end="")
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
            row = [str(res.ranks[s]), "You" if s == self.human else g.names[s], f"{res.scores[s]:,}",
                   f"{res.points[s]:+.1f}"]
            if g.rules.chips:
                row.append(f"{res.chips[s]:+d}")
            tbl.add_row(*row)
        self.con.print(tbl)
        self.con.print(f"{len(g.hand_results)} hands played. You placed {res.ranks[self.human]}.")


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
              read: Callable[[], str] = _stdin_line) -> Game:
    """Run one interactive game; returns the finished (or abandoned) game."""
    names = [f"{opponent.capitalize()}-{s}" if s != seat else "You" for s in range(SEATS)]
    game = Game(rules, seed=seed, names=names)
    bots = {s: make_bot(opponent, seed=f"{seed}-{s}", rules=rules) for s in range(SEATS) if s != seat}
    TerminalTable(game, seat, bots, console, read).run()
    return game


def play(
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "tenhou",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the walls (the same seed, the same game).")] = 0,
    seat: Annotated[int, typer.Option("--seat", help="Your seat: 0 deals first.", min=0, max=2)] = 0,
    opponent: Annotated[str, typer.Option("--bot", help=f"Opponents: {', '.join(sorted(BOTS))}.")] = "efficient",
    db: Annotated[Path | None, typer.Option("--db", help="SQLite database the finished game is stored in "
                                                         "(default: $SANMA_DB or ./sanma.sqlite).")] = None,
    save: Annotated[bool, typer.Option("--save/--no-save", help="Store the finished game.")] = True,
) -> None:
    """Play a game in the terminal against two bots (input: numbers, tiles like 5p, or Enter).

    Example: sanma play --rules kansai --seed 7 --bot defensive
    """
    console = Console(highlight=False)
    with cli_errors():
        r = load_rules(rules)
        make_bot(opponent)
        try:
            game = play_game(r, seed, seat, opponent, console)
            if save and game.done:
                from ..store import open_db

                with open_db(db) as store:
                    gid = store.save_game(game.events, rules=r, seed=seed)
                console.print(f"Game stored as #{gid} in {store.path} (sanma stats --db {store.path}).")
        except InputEnded:
            console.print()
            console.print(f"Input ended: the game stops here (replay it with --seed {seed}).", style="yellow")
            raise typer.Exit(1) from None
        except (QuitGame, KeyboardInterrupt):
            console.print()
            console.print(f"You left the game (replay it with --seed {seed}).", style="yellow")
            raise typer.Exit(0) from None


def register(app: typer.Typer) -> None:
    app.command("play")(play)
