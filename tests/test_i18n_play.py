"""Issue 24 item 3: the terminal game in Japanese (``sanma play --lang ja``): a whole game's
screens in Japanese, honours shown and typed as kanji, and a player's Japanese words for the
actions (ロン, ツモ, ポン, カン, リーチ 5p, スキップ) understood as the English ones are."""

from __future__ import annotations

import io

from rich.console import Console
from typer.testing import CliRunner

from sanma.cli import app
from sanma.cli import play as play_cli
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.i18n import set_lang
from sanma.i18n.messages import untranslated
from sanma.rules import Rules
from sanma.tiles import Tile


def test_a_whole_game_in_japanese() -> None:
    r = CliRunner().invoke(app, ["play", "--seed", "3", "--no-save", "--lang", "ja"], input="\n" * 4000)
    out = r.output
    assert r.exit_code == 0, out[-2000:]
    assert "最終結果" in out and "局を戦い、あなたは" in out and "あなたの手牌:" in out
    assert "東1局" in out and "ドラ表示牌" in out and "供託" in out
    assert "持ち点:" in out and ("流局" in out or "あがり" in out)
    assert "Your hand" not in out and "Final result" not in out


def test_the_pseudo_locale_finds_nothing_untranslated_in_a_game() -> None:
    r = CliRunner().invoke(app, ["play", "--seed", "3", "--no-save"], input="\n" * 4000,
                           env={"SANMA_PSEUDO": "1", "COLUMNS": "200"})
    assert r.exit_code == 0
    # bot names and the English short names of honours (E S W N Wh G R) are not sentences
    assert untranslated(r.output, {"Efficient", "Wh"}) == []


def _table() -> play_cli.TerminalTable:
    g = Game(Rules.preset("tenhou"), seed=1)
    return play_cli.TerminalTable(g, 0, {}, Console(file=io.StringIO()), lambda: "\n")


def test_japanese_words_for_actions_and_kanji_honours() -> None:
    t = _table()
    five, white = Tile.parse("5p"), Tile.parse("5z")
    choices = [Action("dahai", 0, five, (), None, False), Action("dahai", 0, white, (), None, True),
               Action("reach", 0, five, (), None, False), Action("hora", 0, white, (), 0, False),
               Action("ankan", 0, None, (white,) * 4, None, False)]
    try:
        set_lang("ja")
        assert t.interpret("ツモ", choices, None) is choices[3]
        assert t.interpret("白", choices, None) is choices[1]  # a honour typed as its kanji
        assert t.interpret("リーチ 5p", choices, None) is choices[2]
        assert t.interpret("カン", choices, None) is choices[4]
        assert play_cli.tile_text(white) == "白" and play_cli.describe(choices[3], t.game) == "ツモ（あがり）"
        assert t.interpret("スキップ", choices, None) == (
            "スキップするものはありません: あなたの打牌の番です。"
            "できること: ツモ（あがり）; リーチ、5pを切る; 牌を切る; 白をカン（暗槓）。")
    finally:
        set_lang("en")
    call = [Action("pon", 0, white, (white, white), 1, False), Action("none", 0, None, (), None, False)]
    assert t.interpret("ポン", call, None) is call[0] and t.interpret("スキップ", call, None) is call[1]
    assert play_cli.tile_text(white) == "Wh"  # in English the honours keep their short names
