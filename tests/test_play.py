"""``sanma play``: a whole scripted game through stdin, input errors, EOF, quitting, tile input."""

from __future__ import annotations

import io
from pathlib import Path

import typer
from rich.console import Console
from typer.testing import CliRunner

from sanma.bots import EfficientBot
from sanma.cli import play as play_cli
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.tiles import Tile

TENHOU = Rules.preset("tenhou")


def cli() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    play_cli.register(app)
    return app


def run(args: list[str], text: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli(), ["play", *args], input=text)
    return r.exit_code, r.output


def test_a_scripted_game_reaches_its_end_with_hand_and_final_screens() -> None:
    code, out = run(["--rules", "tenhou", "--seed", "3"], "\n" * 4000)
    assert code == 0, out[-2000:]
    assert "Final result" in out and "hands played. You placed" in out
    assert "Your hand:" in out and "dora indicator" in out and "riichi sticks" in out
    assert " by TSUMO on " in out or " by RON on " in out or "Exhaustive draw" in out  # a hand result screen
    assert "payments:" in out and "Scores:" in out
    assert "Traceback" not in out


def test_the_human_can_sit_elsewhere_and_play_other_rules() -> None:
    code, out = run(["--rules", "kansai", "--seed", "5", "--seat", "2"], "\n" * 4000)
    assert code == 0, out[-2000:]
    assert "You are seat 2" in out and "Final result" in out


def test_invalid_input_is_explained_and_asked_again() -> None:
    """Issue 14 item 5: each wrong input says what was wrong (the tile parser's own message for
    a tile outside the sanma set) and the question is asked again; help is not an error."""
    code, out = run(["--seed", "3", "--no-save"], "xyz\n99\nriichi\n5m\n7p\nhelp\npass\ntsumo\nfoo bar\n" + "\n" * 4000)
    assert code == 0
    assert "invalid tiles 'xyz': unexpected character 'x' at position 0" in out
    assert "There is no choice 99: pick 1 to 13." in out
    assert "Riichi is not possible now: your hand is not tenpai whatever you discard." in out
    assert "5m is not in the sanma tile set" in out
    assert "You have no 7p in your hand." in out
    assert "There is nothing to pass on: it is your turn to discard." in out
    assert "No win is on offer now." in out
    assert "Not understood: 'foo bar'" in out
    assert out.count("Not understood") == 1 and "river: 5p' = drawn tile discarded" in out


def test_end_of_input_stops_the_game_with_a_message() -> None:
    code, out = run(["--seed", "3"], "\n\n")
    assert code == 1
    assert "Input ended: the game stops here (replay it with --seed 3)" in out
    assert "Traceback" not in out


def test_quit_leaves_the_game() -> None:
    code, out = run(["--seed", "3"], "quit\n")
    assert code == 0 and "You left the game" in out


def test_typing_a_tile_discards_it_and_a_number_picks_the_menu_line() -> None:
    game = Game(TENHOU, seed=7)
    hand = sorted(game.seats[0].hand)
    first = hand[0]  # not the drawn tile in general: typed by name
    console = Console(file=io.StringIO(), width=120)
    lines = iter([str(first) + "\n", "1\n"] + ["\n"] * 4000)
    g = play_cli.play_terminal_game(TENHOU, 7, 0, "efficient", console, read=lambda: next(lines))
    mine = [e for e in g.events if e["type"] in ("dahai", "reach") and e.get("actor") == 0]
    assert Tile.from_mjai(mine[0]["pai"]).kind == first.kind
    assert g.done


def test_user_tile_names() -> None:
    p = play_cli.parse_user_tile
    assert p("5p") == Tile.parse("5p") and p("0p") == Tile.parse("0p") and p("5pr") == Tile.parse("0p")
    assert p("E") == Tile.parse("1z") and p("wh") == Tile.parse("5z") and p("R") == Tile.parse("7z")
    assert p("7z") == Tile.parse("7z") and p("5m") is None and p("xx") is None and p("12p") is None
    assert play_cli.tile_text(Tile.parse("6z")) == "G" and play_cli.tile_text(Tile.parse("0s")) == "0s"


def test_call_prompts_offer_a_pass() -> None:
    """Somewhere in a few seeded games the human is asked 'pon?' and passes with Enter."""
    outs = [run(["--seed", str(s)], "\n" * 4000)[1] for s in (1, 2)]
    assert any("pon?" in o or "ron?" in o for o in outs)
    assert all("Enter = pass" in o for o in outs if "pon?" in o)


def test_other_opponents_and_unknown_ones() -> None:
    code, out = run(["--seed", "4", "--bot", "defensive"], "\n" * 4000)
    assert code == 0 and "Defensive-1" in out and "Final result" in out
    r = CliRunner().invoke(cli(), ["play", "--bot", "genius"], input="\n")
    assert r.exit_code == 2 and "error: unknown bot 'genius'" in r.stderr


def test_menu_numbers_drive_every_kind_of_choice() -> None:
    """A player who types the menu number of the efficient bot's choice wins, calls and riichis."""
    game = Game(TENHOU, seed=12, names=("You", "Efficient-1", "Efficient-2"))
    advisor = EfficientBot(rules=TENHOU)

    def read() -> str:
        legal = game.legal_actions(0)
        if not legal:
            return "\n"  # a pause between hands
        want = advisor.act(game.view(0), legal)
        key = (want.type, want.tile, want.consumed)
        menu = play_cli.TerminalTable.menu(legal)
        return f"{next(i for i, a in enumerate(menu, 1) if (a.type, a.tile, a.consumed) == key)}\n"

    out = io.StringIO()
    bots = {s: EfficientBot(seed=s, rules=TENHOU) for s in (1, 2)}
    play_cli.TerminalTable(game, 0, dict(bots), Console(file=out, width=120), read).run()
    mine = {e["type"] for e in game.events if e.get("actor") == 0}
    assert game.done and "hora" in mine and "reach" in mine
    assert "You (" in out.getvalue() and "Final result" in out.getvalue()


def test_a_finished_game_is_stored_in_the_database(tmp_path: Path) -> None:
    """make run's game lands in the embedded SQLite database (issue 4 item 5)."""
    from sanma.store import open_db

    db = tmp_path / "games.sqlite"
    code, out = run(["--rules", "tenhou", "--seed", "3", "--db", str(db)], "\n" * 4000)
    assert code == 0, out[-2000:]
    assert "Game stored as #" in out
    with open_db(db) as store:
        (row,) = store.games()
        assert store.events(row.id)[-1]["type"] == "end_game"
