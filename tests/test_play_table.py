"""``sanma play``'s table, issue 14 items 1-5: Enter never throws away a win, riichi tsumogiri
by itself, ``N`` is North, what the table shows, results in a player's words, seeds, records.

The games are dealt from WallBuilder walls (tests/engine_helpers.py), so each scene is exact; the
human's input is the table's ``read`` function. Opponents are tsumogiri bots: they win when they
can, otherwise discard what they drew and pass.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from engine_helpers import build, walls_in_order
from sanma.bots import TsumogiriBot
from sanma.cli import play as play_cli
from sanma.game.engine import Game
from sanma.rules import Rules
from sanma.tiles import Tile, parse_tiles

TENHOU = Rules.preset("tenhou")
IND = "9m"  # dora indicator -> 1m, in no hand below
TANKI_1S = "234p789p789s555z1s"  # closed, tanki on 1s, haku: a yaku for ron and tsumo


class Script:
    """The player's lines, then Enter; stops the game (QuitGame) at the first read after an event
    of type ``stop_after`` (or, for ``stop_after="lines"``, when the lines run out)."""

    def __init__(self, game: Game, lines: list[str], stop_after: str = "end_kyoku") -> None:
        self.game = game
        self.lines: Iterator[str] = iter(lines)
        self.stop_after = stop_after
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if any(e["type"] == self.stop_after for e in self.game.events):
            raise play_cli.QuitGame
        line = next(self.lines, None)
        if line is None and self.stop_after == "lines":
            raise play_cli.QuitGame
        return (line or "") + "\n"


def table(game: Game, lines: list[str], human: int = 1, *, auto_win: bool = False,
          stop_after: str = "end_kyoku") -> tuple[Game, str, Script]:
    out = io.StringIO()
    script = Script(game, lines, stop_after)
    bots = {s: TsumogiriBot(seed=s) for s in range(3) if s != human}
    t = play_cli.TerminalTable(game, human, dict(bots), Console(file=out, width=160), script, auto_win=auto_win)
    with pytest.raises(play_cli.QuitGame):
        t.run()
    return game, out.getvalue(), script


def south_game(draws: str, west: str | None = None, rules: Rules = TENHOU) -> Game:
    w = build(rules, east="1m", south=TANKI_1S, west=west, draws=draws, dora=IND, ura=IND, seed=14)
    return Game(rules, seed=3, walls=walls_in_order([w]), names=("E-bot", "You", "W-bot"))


def mine(game: Game, seat: int = 1) -> list[dict[str, object]]:
    return [e for e in game.events if e.get("actor") == seat and e["type"] in ("dahai", "reach", "hora")]


def test_after_riichi_the_drawn_tile_goes_out_by_itself_and_enter_takes_the_tsumo_P79() -> None:
    """Issue 14 item 1 (P79: after riichi only the drawn tile may go out): South declares riichi,
    its next draw (3p) is discarded without a question, the winning 1s is offered and Enter wins."""
    g = south_game("3z" "2z" "6z" "7z" "3p" "4p" "4p" "1s")
    g, out, script = table(g, ["riichi 2z"])
    acts = mine(g)
    assert [e["type"] for e in acts] == ["reach", "dahai", "dahai", "hora"]
    assert acts[2]["pai"] == "3p" and acts[2]["tsumogiri"] is True
    assert acts[3]["target"] == 1  # tsumo
    assert "You (riichi) discard the drawn 3p" in out
    assert "[Enter = TSUMO (win)]" in out
    # asked for the riichi, the tsumo and the next-hand pause: not for the 3p
    assert script.calls == 3


def test_in_riichi_the_table_shows_the_hands_waits_not_every_discard() -> None:
    """After riichi (P79) the hand is fixed: at the tsumo prompt the table names the riichi hand's
    waits (tanki 1s), not a "Tenpai discards" list over all fourteen tiles (which marked every
    hypothetical discard furiten and hid the real wait; found playing the terminal game)."""
    g = south_game("3z" "2z" "6z" "7z" "3p" "4p" "4p" "1s")
    g, out, _ = table(g, ["riichi 2z"])
    at_tsumo = out[out.rindex("drawn: 1s"):]
    assert "Riichi: waiting on 1s" in at_tsumo and "Tenpai discards" not in at_tsumo
    assert "FURITEN" not in at_tsumo  # the drawn 1s is the tsumo on offer, not a tile let pass


def test_typing_auto_at_a_win_prompt_takes_that_win() -> None:
    """``auto`` switches auto-win on and takes the win on offer now, not only the next one."""
    g = south_game("3z" "2z" "1s")
    g, out, _ = table(g, ["2z", "auto"])
    assert any(e["type"] == "hora" and e["actor"] == 1 for e in g.events)
    after = out[out.index("auto-win is on"):]
    assert "[Enter = RON" not in after


def test_enter_on_a_ron_offer_is_the_ron_not_a_pass() -> None:
    """Issue 14 item 1: while a win is on offer Enter never means the non-winning choice."""
    g = south_game("3z" "2z" "1s")
    g, out, _ = table(g, ["2z"])
    (win,) = [e for e in g.events if e["type"] == "hora"]
    assert win["actor"] == 1 and win["target"] == 2 and win["pai"] == "1s"
    assert "[Enter = RON on 1s (win)]" in out


def test_passing_a_ron_needs_a_word_and_auto_win_takes_it_unasked() -> None:
    g = south_game("3z" "2z" "1s")
    g, _, _ = table(g, ["2z", "pass"], stop_after="lines")
    assert not any(e["type"] == "hora" and e["actor"] == 1 for e in g.events[:40])
    g2 = south_game("3z" "2z" "1s")
    g2, out, _ = table(g2, ["2z"], auto_win=True)
    assert any(e["type"] == "hora" and e["actor"] == 1 for e in g2.events)
    assert "auto-win: RON on 1s (win)" in out and "Your choice [Enter = RON" not in out


def test_auto_toggles_auto_win_during_the_game() -> None:
    g = south_game("3z" "2z" "1s")
    g, out, _ = table(g, ["auto", "2z"])
    assert "auto-win is on" in out and "auto-win: RON on 1s" in out


def test_N_at_a_discard_prompt_is_the_North_tile() -> None:
    """Issue 14 item 2: ``N`` (or ``n``) discards North; it never means "no"."""
    w = build(TENHOU, east="1m", south="234p789p789s55z4z1s", draws="3z" "2z", dora=IND, seed=14)
    g = Game(TENHOU, seed=3, walls=walls_in_order([w]), names=("E-bot", "You", "W-bot"))
    g, _, _ = table(g, ["n"], stop_after="lines")
    first = mine(g)[0]
    assert first["type"] == "dahai" and first["pai"] == "N"


def test_the_table_marks_riichi_and_tsumogiri_discards_and_shows_dora_and_waits() -> None:
    """Issue 14 item 3: [tile] = riichi tile, tile' = drawn tile discarded; the dora beside its
    indicator (P06: 9m -> 1m in sanma); the waits of a tenpai hand and furiten (P75)."""
    g = south_game("3z" "2z" "6z" "7z" "2z" "4p" "4p" "1s")
    g, out, _ = table(g, ["2z", "riichi 2z"])
    assert "dora indicator(s) 9m (dora 1m)" in out
    # South discarded 2z from the hand, then draws 2z again: its tenpai discards, and keeping the
    # 2z as the wait is furiten (a 2z in its own river)
    # copies left: S -- South holds one and discarded one (P75: furiten on it); 1s -- South holds one
    assert "Tenpai discards: 1s → S (2 left) (furiten); S → 1s (3 left)" in out
    assert "[S]'" in out  # the riichi tile, drawn and discarded


def test_melds_show_the_called_tile_and_whom_it_came_from() -> None:
    """Issue 14 item 3: a pon shows the tile taken and its discarder; the river marks it called."""
    g = Game(TENHOU, seed=3, walls=walls_in_order([build(TENHOU, east="1m", south="234p789p789s55z1s9s",
                                                           west="7z", draws="3z" "2z" "5z", dora=IND, seed=14)]),
             names=("E-bot", "You", "W-bot"))
    g, out, _ = table(g, ["2z", "pon", "9s"], stop_after="lines")
    assert any(e["type"] == "pon" and e["actor"] == 1 for e in g.events)
    assert "pon Wh Wh [Wh from W-bot]" in out
    assert "Wh'>" in out  # W-bot's river shows its (drawn) Wh as called


def test_results_in_a_players_words_with_fu_honba_and_sticks_P43_P48() -> None:
    """Issue 14 item 4: yaku by name, the fu breakdown, the winner's gain itemised (hand, honba
    P43, riichi stick P48) and the winning tile shown for a ron too."""
    w = build(TENHOU, east="1m", south=TANKI_1S, draws="3z" "2z" "6z" "7z" "3p" "1s", dora=IND, ura=IND, seed=14)
    g = Game(TENHOU, seed=3, walls=walls_in_order([w]), names=("E-bot", "You", "W-bot"), honba=2)
    g, out, _ = table(g, ["riichi 2z"])
    (win,) = [e for e in g.events if e["type"] == "hora"]
    assert win["target"] == 2  # West's 1s, a ron
    # at the ron prompt, the waits of the riichi hand: of four 1s South holds one, West discarded one
    assert "Tenpai: waiting on 1s (2 left)" in out
    assert "You (S) win by RON on 1s from W-bot (W)" in out
    assert "Double riichi" in out and "White dragon" in out and "yakuhai_haku" not in out
    assert "fu: base 20 + closed ron 10 + closed triplet of White 8 + pair wait (tanki) 2 = 40" in out
    assert "+ winning tile 1s" in out
    gain = win["deltas"][1]
    # PLATFORMS Honba (Tenhou): ron +200 per honba; P48: a riichi stick is 1,000
    assert f"You (S) receive {gain:+,} = hand {win['points']:,} + 2 honba 400 + 1 riichi stick(s) 1,000" in out


def test_sanma_score_prints_the_same_words() -> None:
    """Issue 14 item 4: ``sanma score`` and the table name yaku and fu lines alike."""
    from sanma.cli import app

    r = CliRunner().invoke(app, ["score", "123456789p99m111z", "--win", "9m", "--riichi", "--seat", "S",
                                 "--from", "W", "--honba", "2", "--kyotaku", "1"])
    assert r.exit_code == 0, r.output
    assert "Round wind" in r.output and "Ittsu (straight)" in r.output and "Riichi" in r.output
    assert "closed triplet of East 8" in r.output and "pair wait (tanki) 2" in r.output
    assert "2 honba" in r.output and "1 riichi stick" in r.output


def cli() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def main() -> None:
        """Test app."""

    play_cli.register(app)
    return app


def test_each_game_gets_a_random_seed_unless_given_and_shows_it() -> None:
    """Issue 14 item 5: no --seed, a random seed each game, printed; --seed S plays S."""
    seeds = []
    for _ in range(2):
        r = CliRunner().invoke(cli(), ["play", "--no-save"], input="quit\n")
        assert r.exit_code == 0
        line = r.output.split("seed ", 1)[1]
        seeds.append(line.split(" ", 1)[0])
    assert seeds[0] != seeds[1]
    r = CliRunner().invoke(cli(), ["play", "--no-save", "--seed", "42"], input="quit\n")
    assert "seed 42 (--seed 42 replays this game)" in r.output


def test_an_enormous_seed_is_a_clear_error() -> None:
    """Issue 14 item 14: a 5,000-digit --seed is refused with a message, no ValueError."""
    r = CliRunner().invoke(cli(), ["play", "--seed", "9" * 5000], input="quit\n")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "--seed" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize(("suffix", "first"), [(".json", "{"), (".jsonl", '{"type":')])
def test_save_record_writes_a_record_that_replays_clean(tmp_path: Path, suffix: str, first: str) -> None:
    """Issue 14 item 5: --save-record PATH writes tenhou.net/6 (.json) or mjai (.jsonl)."""
    from sanma.replay import replay_files

    path = tmp_path / f"game{suffix}"
    r = CliRunner().invoke(cli(), ["play", "--no-save", "--seed", "3", "--save-record", str(path)],
                           input="\n" * 4000)
    assert r.exit_code == 0, r.output[-1500:]
    text = path.read_text(encoding="utf-8")
    assert text.startswith(first)
    if suffix == ".json":
        assert json.loads(text)["log"]
    report = replay_files([path], None)
    assert report.ok and report.games == 1
    assert f"Record written to {path}" in r.output


def test_save_record_with_an_unknown_suffix_is_refused_before_the_game(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli(), ["play", "--no-save", "--save-record", str(tmp_path / "g.txt")], input="")
    assert r.exit_code == 2 and "name the file .json (tenhou.net/6) or .jsonl (mjai)" in r.stderr


def test_unknown_bot_gets_a_did_you_mean() -> None:
    """Issue 14 item 6: did-you-mean for bot names."""
    r = CliRunner().invoke(cli(), ["play", "--bot", "defensiv"], input="")
    assert r.exit_code == 2 and "did you mean 'defensive'?" in r.stderr


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_typed_line_is_an_action_or_a_message_never_an_exception(text: str) -> None:
    """Issue 14 item 5, fuzzed: whatever is typed at a discard prompt, the table answers with an
    action from the menu or a message (quit words leave); nothing raises, nothing is applied."""
    g = Game(TENHOU, seed=7)
    t = play_cli.TerminalTable(g, 0, {}, Console(file=io.StringIO()), lambda: "\n")
    choices = t.menu(g.legal_actions(0))
    before = len(g.events)
    try:
        got = t.interpret(text, choices, t.default(choices))
    except play_cli.QuitGame:
        assert text.strip().lower() in ("q", "quit", "exit")
        return
    assert got in choices or isinstance(got, str)
    assert len(g.events) == before


# Expected columns per preset, from the matrix: P02 flowers (kansai 4, others none), P15 North
# (nuki on online / official / tenhou / majsoul; plain on club; yakuhai on kansai), P113 chips
# (club and kansai).
COLUMNS = {"club": ["chips"], "online": ["kita"], "official": ["kita"], "kansai": ["chips", "flowers"],
           "tenhou": ["kita"], "majsoul": ["kita"]}


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_kita_flowers_and_chips_columns_only_under_rules_with_them_P02_P15_P113(name: str) -> None:
    """Issue 14 item 3: kita only where North is kita, flowers only with flowers, chips with chips."""
    g = Game(Rules.preset(name), seed=3)
    out = io.StringIO()
    t = play_cli.TerminalTable(g, 0, {}, Console(file=out, width=160), lambda: "\n")
    t.narrate()
    t.board()
    header = next(line for line in out.getvalue().splitlines() if line.startswith("seat "))
    assert header.split() == ["seat", "score", *COLUMNS[name], "melds", "river"]


def test_an_abortive_draw_names_who_declared_it() -> None:
    """Issue 14 item 3: kyuushu kyuuhai (P93) is declared by a player: the table says who."""
    g = Game(TENHOU, seed=3, names=("E-bot", "You", "W-bot"))
    out = io.StringIO()
    t = play_cli.TerminalTable(g, 1, {}, Console(file=out, width=160), lambda: "\n")
    t.narrate()
    t.narrate_one({"type": "ryukyoku", "reason": "kyuushu", "actor": 2})
    assert "Abortive draw: W-bot (W) declared nine terminals and honours (kyuushu kyuuhai)" in out.getvalue()


def test_chips_of_each_hand_are_shown_where_the_rules_have_chips_P113() -> None:
    """Issue 14 item 3: under club rules (chips, P113-P119) a hand that moves chips says so."""
    club = Rules.preset("club")
    for seed in range(1, 6):
        out = io.StringIO()
        g = play_cli.play_terminal_game(club, seed, 0, "efficient", Console(file=out, width=160),
                               read=iter(["\n"] * 5000).__next__)
        text = out.getvalue()
        if "Chips this hand:" in text:
            line = text.split("Chips this hand: ", 1)[1].split("\n", 1)[0]
            assert "You (" in line and "(total: " in line
            assert "chips" in text.split("Final result", 1)[1]  # the final table has a chips column
            assert g.done and any(g.chips)
            return
    pytest.fail("no club game among five moved chips in a hand")


def test_an_open_riichi_hand_is_shown_to_the_other_players_P82() -> None:
    """Issue 14 item 3: under club rules (P82 open riichi) the table shows the declarer's hand."""
    from engine_helpers import act, pass_all, tsumogiri

    club = Rules.preset("club")
    w = build(club, east="1m", south=TANKI_1S, draws="3z" "2z", dora=IND, seed=14)
    g = Game(club, seed=3, walls=walls_in_order([w]), names=("You", "S-bot", "W-bot"))
    tsumogiri(g, 0)
    act(g, 1, "open_reach", "2z")
    pass_all(g)
    out = io.StringIO()
    t = play_cli.TerminalTable(g, 0, {}, Console(file=out, width=160), lambda: "\n")
    t.narrate()
    t.board()
    text = out.getvalue()
    assert "S-bot (S) declares OPEN RIICHI" in text
    assert "S-bot (S) open riichi hand: 2p 3p 4p 7p 8p 9p 1s 7s 8s 9s Wh Wh Wh" in text


def test_waits_and_furiten_come_from_the_engines_view_when_the_observation_has_them() -> None:
    """Issue 14 item 3 with Game.view: a 13-tile hand's waits and furiten are the engine's own."""
    g = Game(TENHOU, seed=3)
    t = play_cli.TerminalTable(g, 0, {}, Console(file=io.StringIO()), lambda: "\n")
    seats = tuple(dataclasses.replace(p, discards=(), melds=(), kita=0) for p in g.view(0).seats)
    nine = Tile.parse("9m")
    obs = dataclasses.replace(g.view(0), hand=tuple(parse_tiles("123p789p1789s555z")), drawn=None,
                              dora_indicators=(nine,), seats=seats,
                              visible=tuple(int(k == nine.kind) for k in range(34)))
    one = (Tile.parse("1s"),)
    furiten = t.tenpai_text(dataclasses.replace(obs, waits=one, furiten=True))
    assert furiten == "Tenpai: waiting on 1s (3 left) — FURITEN (no ron)"
    assert t.tenpai_text(dataclasses.replace(obs, waits=one, furiten=False)) == "Tenpai: waiting on 1s (3 left)"
    assert t.tenpai_text(dataclasses.replace(obs, waits=(), furiten=False)) == ""
