"""Issue 24 item 5: sentences through gettext catalogues with named parameters, managed with Babel;
errors carry a code and are put into words at the edge; ``--json`` output and protocol keys never
depend on the language; ``--lang ja|en``, then ``SANMA_LANG``, then ``LANG``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import sanma
from sanma.cli import app
from sanma.errors import SanmaError, TileError
from sanma.i18n import choose_lang, describe, from_accept_language, sentence, sentence_n, set_lang, term, tr
from sanma.i18n.extract import page_messages
from sanma.i18n.messages import catalogue, fields, page_catalogue
from sanma.web.app import create_app
from shared_data import shared_path

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _tools_messages() -> ModuleType:
    spec = importlib.util.spec_from_file_location("messages_tool", ROOT / "tools" / "messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = _tools_messages()
TEMPLATE = tool.extract()
JA = tool.read("ja")


def _forms(string: object) -> list[str]:
    return list(string) if isinstance(string, tuple | list) else [str(string)]


def test_every_sentence_has_japanese() -> None:
    """Every sentence marked in the sources (Python, the pages' JavaScript and HTML) has a Japanese
    translation in the catalogue: not missing, not empty, not fuzzy. (A new sentence: run `make
    messages` and translate its entry in src/sanma/i18n/locale/ja/LC_MESSAGES/sanma.po.)"""
    assert len(TEMPLATE) > 100
    missing = []
    for m in TEMPLATE:
        if not m.id:
            continue
        have = JA.get(m.id, context=m.context)
        if have is None or have.fuzzy or not all(_forms(have.string)):
            missing.append((m.id, m.locations[0]))
    assert missing == []


def test_translations_use_the_same_named_parameters() -> None:
    for m in JA:
        if not m.id:
            continue
        ids = _forms(m.id)
        want = set().union(*(fields(i) for i in ids))
        for form in _forms(m.string):
            got = fields(form)
            assert got <= want and (got == want or len(ids) > 1), (m.id, form)


def test_the_compiled_catalogue_is_the_current_one() -> None:
    """make install compiled the .po in git: every translation reads back from the .mo."""
    cat = catalogue("ja")
    for m in JA:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple):
            assert cat.ngettext(m.id[0], m.id[1], 1) == _forms(m.string)[0]
        elif m.context is not None:
            assert cat.pgettext(m.context, m.id) == m.string, (m.context, m.id)
        else:
            assert cat.gettext(m.id) == m.string, m.id


#: a short English word that means different things in different places gets one msgctxt per meaning
WORDS_IN_CONTEXT = [  # (context, word, Japanese): the statistics columns are rates, the words are not
    ("rate", "draw", "流局率"), ("action", "draw", "ツモ"), ("rate", "riichi", "リーチ率"), (None, "riichi", "リーチ"),
    ("rate", "calls", "副露率"), (None, "calls", "鳴き"), ("rate", "call", "副露率"), ("rate", "win", "和了率"),
]


@pytest.mark.parametrize("context, word, ja", WORDS_IN_CONTEXT)
def test_a_short_word_has_one_entry_per_meaning(context: str | None, word: str, ja: str) -> None:
    """Issue 24: msgid "draw" was 流局率 (``sanma stats``' column) wherever it was said — a tile drawn
    is ツモ, a drawn hand 流局; "riichi" was リーチ率 on the table's riichi badge and "calls" 副露率 as a
    review's category (鳴き). Each meaning has its own msgctxt (``trc``/``sentence_c``/``tc``)."""
    from sanma.i18n.messages import Message

    assert JA.get(word, context=context) is not None, (context, word)
    assert Message(word, context=context).text("ja") == ja
    assert Message(word, context=context).text("en") == word


def test_the_stats_columns_and_the_words_in_japanese(tmp_path: Path) -> None:
    """The same English word in two places, two Japanese words: ``sanma stats``' columns are rates,
    the table's riichi badge, a review's "calls" category and a record reader's "draw" are not."""
    from sanma.formats.tracker import action_word
    from sanma.i18n.messages import Message
    from sanma.review.report import category_words

    db = tmp_path / "s.sqlite"
    record = shared_path("data", "tenhou6_json", "2024010120gm-00b9-0000-e324b88a.json")
    r = runner.invoke(app, ["stats", "--db", str(db), str(record), "--lang", "ja"], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    assert all(w in r.output for w in ("和了率", "放銃率", "リーチ率", "副露率", "流局率")), r.output
    assert category_words("calls").text("ja") == "鳴き"
    draw = action_word("draw")
    assert isinstance(draw, Message) and draw.text("ja") == "ツモ" and str(draw) == "draw"
    js = page_catalogue("ja", [ROOT / "src" / "sanma" / "web" / "static" / n for n in ("table.js", "review.js")])
    assert js["messages"]["riichi"] == "リーチ"  # the badge beside a player in riichi
    assert js["messages"]["rate\x04win"] == "和了率"  # the review's column: tc("rate", "win")


def test_a_page_marks_a_word_in_context() -> None:
    assert [(s, p) for _, s, p in page_messages('a = tc("rate", "riichi"); b = t("riichi");', "js")] == \
        [("rate\x04riichi", None), ("riichi", None)]


def test_a_sentence_speaks_both_languages_and_nests() -> None:
    m = sentence("not a win: {reason}", reason=sentence("error: {message}", message=term("call", "pon")))
    assert str(m) == "not a win: error: pon"
    assert m.text("ja") == "あがりではありません: エラー: ポン"
    assert sentence_n("{points} points", "{points} points", 2, points=5).text("en") == "5 points"


def test_errors_carry_a_code_and_speak_at_the_edge() -> None:
    e = TileError(sentence("not a win: {reason}", code="tile.example", reason="x"))
    assert e.code == "tile.example" and str(e) == "not a win: x"
    assert describe(e, "ja") == "あがりではありません: x"
    assert TileError("plain").code == "tile" and SanmaError("x").code == "error"
    with pytest.raises(sanma.SanmaError) as info:
        sanma.parse_tiles("2m")
    assert info.value.code == "tile"


def test_the_language_is_chosen_by_option_then_sanma_lang_then_lang() -> None:
    assert choose_lang("ja", {"SANMA_LANG": "en", "LANG": "en_US.UTF-8"}) == "ja"
    assert choose_lang(None, {"SANMA_LANG": "ja", "LANG": "en_US.UTF-8"}) == "ja"
    assert choose_lang(None, {"LANG": "ja_JP.UTF-8"}) == "ja"
    assert choose_lang(None, {"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}) == "en"  # LC_ALL wins, as for gettext
    assert choose_lang(None, {"SANMA_LANG": "fr", "LANG": "ja_JP"}) == "ja"  # a language sanma lacks: passed over
    assert choose_lang(None, {}) == "en"
    assert from_accept_language("en-GB,en;q=0.9,ja;q=0.8") == "en"
    assert from_accept_language("ja-JP,ja;q=0.9") == "ja" and from_accept_language("fr") is None


@pytest.mark.parametrize("where", ["option", "env", "locale"])
def test_cli_errors_in_japanese(where: str) -> None:
    args = ["score", "1m", "--win", "2m"]
    env = {"SANMA_LANG": "", "LANG": "C.UTF-8"}
    if where == "option":
        args += ["--lang", "ja"]
    elif where == "env":
        env["SANMA_LANG"] = "ja"
    else:
        env["LANG"] = "ja_JP.UTF-8"
    r = runner.invoke(app, args, env=env)
    assert r.exit_code == 2
    assert r.output.startswith("エラー: ")
    r = runner.invoke(app, ["score", "1m", "--win", "2m"], env={"SANMA_LANG": "en"})
    assert r.exit_code == 2 and r.output.startswith("error: ")


def test_a_bad_lang_is_refused() -> None:
    r = runner.invoke(app, ["score", "19m", "--win", "1m", "--lang", "fr"])
    assert r.exit_code == 2 and "'fr'" in r.output


def test_json_output_does_not_depend_on_the_language() -> None:
    args = ["score", "123456789p99m111z", "--win", "9m", "--riichi", "--seat", "S", "--from", "W", "--json"]
    en = runner.invoke(app, [*args, "--lang", "en"])
    ja = runner.invoke(app, [*args, "--lang", "ja"])
    assert en.exit_code == ja.exit_code == 0
    assert json.loads(en.output) == json.loads(ja.output)


def test_tr_speaks_the_current_language() -> None:
    try:
        set_lang("ja")
        assert tr("{points} points", points="8,000") == "8,000点"
    finally:
        set_lang("en")
    assert tr("{points} points", points="8,000") == "8,000 points"


# --- the pages ------------------------------------------------------------------------------------


def test_page_sentences_are_read_from_js_and_html() -> None:
    js = ('a = t("Seed"); // t("not this")\n/* t("nor this") */ b = t(`Time ${x}`);'
          ' c = tn("{n} stick", "{n} sticks", n);')
    assert [(s, p) for _, s, p in page_messages(js, "js")] == [("Seed", None), ("{n} stick", "{n} sticks")]
    html = '<h2 data-t>New\n  table</h2><input data-t="placeholder title" placeholder="random" title="A seed">'
    assert sorted(s for _, s, _ in page_messages(html, "html")) == ["A seed", "New table", "random"]


def test_the_page_catalogue_comes_from_the_page_files(tmp_path: Path) -> None:
    page = tmp_path / "p.js"
    page.write_text('t("{points} points"); tn("{n} new stick", "{n} new sticks", 3);', encoding="utf-8")
    ja, en = page_catalogue("ja", [page]), page_catalogue("en", [page])
    assert ja["messages"] == {"{points} points": "{points}点"}
    # a plural has the language's forms (Japanese one, English two); untranslated, the English template
    assert ja["plurals"] == {"{n} new stick": ["{n} new stick"]}
    assert en["plurals"] == {"{n} new stick": ["{n} new stick", "{n} new sticks"]}
    assert ja["terms"]["yaku.riichi"] == "立直" and page_catalogue("en", [page])["terms"]["yaku.riichi"] == "Riichi"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "db.sqlite"), base_url="http://127.0.0.1")  # a name the server answers to


def test_the_server_serves_each_language(client: TestClient) -> None:
    with client:
        ja = client.get("/api/i18n/ja")
        assert ja.status_code == 200 and ja.json()["lang"] == "ja"
        assert ja.json()["messages"]["{points} points"] == "{points}点"
        assert ja.json()["terms"]["limit.mangan"] == "満貫"
        again = client.get("/api/i18n/ja", headers={"if-none-match": ja.headers["etag"]})
        assert again.status_code == 304
        r = client.get("/api/i18n/xx")
        assert r.status_code == 404 and "error" in r.json()


def test_http_errors_speak_the_request_language(client: TestClient) -> None:
    with client:
        en = client.get("/api/tables/nope")
        ja = client.get("/api/tables/nope", headers={"accept-language": "ja-JP,ja;q=0.9"})
        assert en.status_code == ja.status_code == 404
        assert set(en.json()) == set(ja.json())  # the keys do not depend on the language
        r = client.get("/no/such/page", headers={"accept-language": "ja"})
        assert r.json() == {"error": "見つかりません", "code": "not_found"}
        # the switch the browser remembers wins over its language; ?lang= over both
        client.cookies.set("sanma_lang", "en")
        r = client.get("/no/such/page", headers={"accept-language": "ja"})
        assert r.json()["error"] == "Not Found"
        r = client.get("/no/such/page?lang=ja")
        assert r.json()["error"] == "見つかりません"


def test_a_sentence_without_parameters_says_its_braces_once(client: TestClient) -> None:
    """``{{`` in a template is a literal brace whether or not the sentence has parameters (it was shown
    doubled: ``({{"extends": NAME, ...}})``) in both languages, as the request's error says it."""
    assert sentence("send {{\"token\": T}}").text("en") == 'send {"token": T}'
    assert str(sentence("send {{\"token\": T}}")) == 'send {"token": T}'
    with client:
        for lang, words in (("en", "a rule object ({\"extends\": NAME, ...})"),
                            ("ja", "ルールのオブジェクト（{\"extends\": NAME, ...}）")):
            r = client.post("/api/tables", json={"rules": 5, "seats": ["human", "random", "random"]},
                            headers={"accept-language": lang})
            assert r.status_code == 400 and words in r.json()["error"] and "{{" not in r.json()["error"]


def test_every_command_takes_lang() -> None:
    """``--lang`` after any command's name (``sanma table hand ... --lang ja``), whichever module
    registered the command."""
    import click
    import typer

    root = typer.main.get_command(app)
    paths: list[list[str]] = []

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(click.Context(cmd)):
                sub = cmd.get_command(click.Context(cmd), name)
                assert sub is not None
                walk(sub, [*path, name])
        else:
            paths.append(path)

    walk(root, [])
    assert len(paths) > 20
    for path in paths:
        r = runner.invoke(app, [*path, "--help"])
        assert r.exit_code == 0 and "--lang" in r.output, path


def test_the_japanese_readme_shows_what_the_command_prints() -> None:
    """README.ja.md's example output is the command's output (its Python example runs as a doctest)."""
    import re

    from sanma.cli import COMMANDS

    text = (ROOT / "README.ja.md").read_text(encoding="utf-8")
    command = re.search(r"\.venv/bin/sanma (score [^\n]*--lang ja)\n", text)
    shown = re.search(r"```text\n(.*?)```", text, re.S)
    assert command and shown
    r = runner.invoke(app, command.group(1).split(), env={"COLUMNS": "100"})
    assert r.exit_code == 0
    assert [line.strip() for line in r.output.splitlines()] == [line.strip() for line in shown.group(1).splitlines()]
    assert set(re.findall(r"\.venv/bin/sanma (\w+)", text)) <= set(COMMANDS)


def test_help_and_usage_errors_speak_the_command_language() -> None:
    """--help (every command's description and options) and the option parser's own refusals
    (click's and Typer's) in Japanese with --lang ja; back in English without it."""
    import re

    ja = runner.invoke(app, ["score", "--help", "--lang", "ja"], env={"COLUMNS": "200"})
    assert ja.exit_code == 0
    assert "使い方:" in ja.output and "あがり牌。例: 9m。" in ja.output and "オプション" in ja.output
    en = runner.invoke(app, ["score", "--help"], env={"COLUMNS": "200"})
    assert "Usage:" in en.output and "The winning tile, e.g. 9m." in en.output
    top = runner.invoke(app, ["--help", "--lang", "ja"], env={"COLUMNS": "200"})
    for line in top.output.splitlines():  # every command's one-line description is Japanese
        m = re.match(r"│ (\w+)\s{2,}(.+?)\s*│$", line)
        if m and m.group(1) not in ("--version", "--lang", "--help"):
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", m.group(2)), line
    bad = runner.invoke(app, ["score", "19m", "--win", "1m", "--nope", "--lang", "ja"])
    assert bad.exit_code == 2 and "オプション '--nope' はありません。" in bad.output
    bad = runner.invoke(app, ["score", "19m", "--lang", "ja"])
    assert bad.exit_code == 2 and "オプションがありません '--win'." in bad.output
    # a number type's name inside click's sentence is one of click's words too
    bad = runner.invoke(app, ["score", "19m", "--honba", "x", "--lang", "ja"], env={"COLUMNS": "200"})
    assert bad.exit_code == 2 and "'x' は正しい整数ではありません。" in bad.output
    bad = runner.invoke(app, ["serve", "--port", "x", "--lang", "ja"], env={"COLUMNS": "200"})
    assert bad.exit_code == 2 and "'x' は正しい範囲内の整数ではありません。" in bad.output


def test_no_sentence_hides_inside_an_f_string() -> None:
    """Babel does not look inside an f-string's expressions: a tr() or sentence() written there would
    never reach the catalogue (and stay English in every language)."""
    import ast

    hidden, code_param = [], []
    for path in sorted((ROOT / "src" / "sanma").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # sentence(..., code=...) is the error's code: a parameter named {code} would be lost
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sentence"
                    and node.args and isinstance(node.args[0], ast.Constant) and "{code" in str(node.args[0].value)):
                code_param.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.JoinedStr):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in (
                            "tr", "tr_n", "sentence", "sentence_n"):
                        hidden.append(f"{path.name}:{inner.lineno}")
    assert hidden == [] and code_param == []


def test_the_japanese_rules_reference_is_generated_and_current() -> None:
    """docs/RULES.ja.md is `sanma rules docs --lang ja` (make docs writes both): every field by its
    Japanese name and meaning, the seed readings quoting the seeds in their own words."""
    from sanma.rules.docs import render

    text = render("ja")
    assert (ROOT / "docs" / "RULES.ja.md").read_text(encoding="utf-8") == text
    assert "| `kuitan` 喰い断 |" in text and "「1,000点以下でうっかりリーチを掛けたときは" in text
    assert runner.invoke(app, ["rules", "docs", "--lang", "ja"]).stdout == text
    assert render("en") == (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")  # English unchanged


def test_rules_show_in_japanese_and_its_json_in_keys() -> None:
    """Issue 24 item 4: `sanma rules show NAME --lang ja` names each field and value in Japanese (the
    key beside it) and the preset in its own words; `--json` is the same in either language."""
    r = runner.invoke(app, ["rules", "show", "tenhou", "--lang", "ja"], env={"COLUMNS": "160"})
    assert r.exit_code == 0, r.output
    assert "天鳳 三鳳南喰赤" in r.output and "赤5筒の枚数" in r.output and "red_5p" in r.output
    assert "喰い断" in r.output and "How many of" not in r.output  # the English meaning of red_5p
    en = runner.invoke(app, ["rules", "show", "tenhou", "--json", "--lang", "en"])
    ja = runner.invoke(app, ["rules", "show", "tenhou", "--json", "--lang", "ja"])
    assert en.exit_code == ja.exit_code == 0 and json.loads(en.stdout) == json.loads(ja.stdout)


def test_the_issues_hand_on_the_command_line_in_japanese() -> None:
    """Issue 24, "How it must be shown": ``sanma score 123456789p99m111z --win 9m --riichi --seat S
    --from W --rules tenhou --lang ja`` prints 立直, 一気通貫 and 満貫 with the payments."""
    r = runner.invoke(app, ["score", "123456789p99m111z", "--win", "9m", "--riichi", "--seat", "S", "--from", "W",
                            "--rules", "tenhou", "--lang", "ja"], env={"COLUMNS": "120"})
    assert r.exit_code == 0, r.output
    for words in ("立直", "一気通貫", "満貫", "8,000点", "南 +8,000", "西 -8,000"):
        assert words in r.output, (words, r.output)
