"""Issue 24: the score keeper in both languages — ``sanma table`` and the state the keeper's page
reads. An entry's summary is a sentence kept as data (``say``) beside its English, put into each
reader's words at the edge; ``--json`` and the keeper's cache keep the English."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sanma.cli import app
from sanma.i18n.messages import untranslated
from sanma.keeper.keeper import Keeper, in_words
from sanma.rules import Rules
from sanma.store import open_db

runner = CliRunner()
PEOPLE = ("Aki", "Ben", "Chie")


def _run(db: Path, *args: str, lang: str = "ja", env: dict[str, str] | None = None) -> str:
    r = runner.invoke(app, ["table", *args, "--db", str(db), "--lang", lang], env={"COLUMNS": "200", **(env or {})})
    assert r.exit_code == 0, r.output
    return r.output


def _session(db: Path, lang: str = "ja", env: dict[str, str] | None = None) -> list[str]:
    out = [_run(db, "new", "--rules", "club", "--people", ",".join(PEOPLE), lang=lang, env=env),
           _run(db, "hand", "1", "--ron", "Aki", "--from", "Ben", "--han", "3", "--fu", "30", lang=lang, env=env),
           _run(db, "abort", "1", "--kind", "kyuushu", lang=lang, env=env),
           _run(db, "penalty", "1", "--who", "Ben", "--kind", "false_call", lang=lang, env=env),
           _run(db, "draw", "1", "--tenpai", "Chie", lang=lang, env=env)]
    return out


def test_sanma_table_in_japanese(tmp_path: Path) -> None:
    out = _session(tmp_path / "k.sqlite")
    assert out[0].startswith("セッション 1 — club — 第1半荘") and "東1局、0本場" in out[0]
    assert "Aki 30符3翻 = 5,800点（Ben からロン）" in out[1] and "  Aki          東" in out[1]
    assert "途中流局（九種九牌）" in out[2]
    assert "Ben の誤ポン・誤カン" in out[3]
    assert "流局、聴牌：Chie" in out[4]
    undo = runner.invoke(app, ["table", "undo", "1", "--db", str(tmp_path / "k.sqlite"), "--lang", "ja"])
    assert undo.exit_code == 0 and "取り消しました：変更 4：入力 #4（東1局 流局、聴牌：Chie）" in undo.output
    refused = runner.invoke(app, ["table", "hand", "1", "--ron", "Aki", "--db", str(tmp_path / "k.sqlite"),
                                  "--lang", "ja"])
    assert refused.exit_code == 2 and "ロンには --from（放銃者）が必要です" in refused.output
    own = runner.invoke(app, ["table", "hand", "1", "--ron", "Aki", "--from", "Aki", "--han", "1", "--fu", "30",
                              "--db", str(tmp_path / "k.sqlite"), "--lang", "ja"])
    assert own.exit_code == 2 and "ロン：Aki は自分の捨て牌でロンできません" in own.output, own.output


def test_english_and_json_stay_as_they_were(tmp_path: Path) -> None:
    out = _session(tmp_path / "k.sqlite", lang="en")
    assert "A 3 han" not in out[1] and "Aki 3 han 30 fu = 5,800 (ron from Ben)" in out[1]
    assert "abortive draw (kyuushu)" in out[2] and "penalty false_call by Ben" in out[3]
    shown = runner.invoke(app, ["table", "show", "1", "--db", str(tmp_path / "k.sqlite"), "--json", "--lang", "ja"])
    state = json.loads(shown.output)
    assert [r["summary"] for r in state["hands"]][:2] == ["Aki 3 han 30 fu = 5,800 (ron from Ben)",
                                                         "abortive draw (kyuushu)"]


def test_the_pseudo_locale_finds_nothing_untranslated_in_sanma_table(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    env = {"SANMA_PSEUDO": "1"}
    outs = _session(db, lang="en", env=env)
    final = runner.invoke(app, ["table", "final", "1", "--scores", "Aki=52000,Ben=-2000,Chie=-5000", "--bust", "Ben",
                                "--bust-by", "Aki", "--db", str(db)], env={"COLUMNS": "200", **env})
    outs.append(final.output)
    for args in (["show", "1"], ["standings", "1"], ["penalties", "1"]):
        r = runner.invoke(app, ["table", *args, "--db", str(db)], env={"COLUMNS": "200", **env})
        assert r.exit_code == 0, r.output
        outs.append(r.output)
    for out in outs:
        # the people's names, the preset and the rule rows cited ([P25]) are not words to translate
        assert untranslated(out, {*PEOPLE, "club"}) == [], out


def test_each_reader_gets_its_own_words_and_the_cache_keeps_the_english() -> None:
    """The state is computed once (and cached as English with its sentences); in_words puts it into
    a reader's language without changing it."""
    store = open_db(":memory:")
    k = Keeper(store)
    sid = k.new(Rules.preset("club"), list(PEOPLE))["session"]
    state = k.add(sid, {"kind": "abort", "abort": "kyuushu", "riichi": []})
    ja, en = in_words(state, "ja"), in_words(state, "en")
    assert ja["hands"][0]["summary"] == "途中流局（九種九牌）"
    assert en["hands"][0]["summary"] == "abortive draw (kyuushu)"
    assert state["hands"][0]["summary"] == "abortive draw (kyuushu)"  # unchanged
    assert ja["undo"]["text"] == "変更 1：入力 #1（東1局 途中流局（九種九牌））"


def test_sanma_tournament_in_japanese_and_the_pseudo_locale(tmp_path: Path) -> None:
    """sanma tournament's own lines (the round's tables, the standings, the clock) in Japanese; in the
    pseudo-locale no English word is left outside the brackets."""
    players = ",".join(f"P{i}" for i in range(1, 7))

    def run(*args: str, env: dict[str, str] | None = None, lang: str = "ja") -> str:
        r = runner.invoke(app, ["tournament", *args, "--db", str(tmp_path / f"t-{lang}.sqlite"), "--lang", lang],
                          env={"COLUMNS": "200", **(env or {})})
        assert r.exit_code == 0, r.output
        return r.output

    assert "全2回戦" in run("new", "--rules", "official", "--players", players, "--rounds", "2", "--seed", "7")
    seated = run("seat", "1", "--round", "1")
    assert seated.startswith("第1回戦：") and "（東、南、西）" in seated
    assert "順位" in run("standings", "1") and "時計はまだ始まっていません" in run("clock", "1", "--round", "1")
    env = {"SANMA_PSEUDO": "1"}
    outs = [run("new", "--rules", "official", "--players", players, "--rounds", "2", "--seed", "7", env=env, lang="en"),
            run("seat", "1", "--round", "1", env=env, lang="en"), run("standings", "1", env=env, lang="en"),
            run("show", "1", env=env, lang="en"), run("clock", "1", "--round", "1", env=env, lang="en")]
    for out in outs:
        assert untranslated(out, {"official"}) == [], out
