"""Issue 24 item 5, the edges left after the pages: every error a page, a client or a command shows
carries a sentence (a code and named parameters) and is put into words at the edge — the links'
refusals (``no_link``/``read_only``), the table's HTTP and WebSocket refusals, the keeper's and the
tournaments' rarer errors, ``sanma serve``'s start-up lines and ``sanma simulate --report``."""

from __future__ import annotations

import ast
import json
import warnings
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from sanma.cli import app as cli_app
from sanma.errors import SanmaError
from sanma.i18n import describe, set_lang
from sanma.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "sanma"
LOCAL = "http://127.0.0.1"  # a name the server answers to
JA = {"accept-language": "ja-JP,ja;q=0.9"}
#: the modules whose errors reach a page, a client or a command's user as they are
EDGES = (*sorted((SRC / "web").glob("*.py")), *sorted((SRC / "keeper").glob("*.py")),
         *sorted((SRC / "store").glob("*.py")),
         SRC / "sim" / "report.py", SRC / "sim" / "local.py", SRC / "sim" / "arena.py", SRC / "sim" / "ray_backend.py",
         SRC / "cli" / "serve.py", SRC / "cli" / "table.py", SRC / "bots" / "__init__.py", SRC / "bots" / "mjai.py",
         SRC / "replay.py", SRC / "stats.py", SRC / "fileio.py", SRC / "scoring.py", SRC / "game" / "tenhou_shuffle.py",
         *sorted((SRC / "formats").glob("*.py")))  # the record readers: their errors and their problems
#: errors that never reach a person: a bug's, a test harness's, a module's ``__getattr__``
INTERNAL = {"TimeoutError", "RuntimeError", "NotImplementedError", "AssertionError", "TypeError", "KeyError",
            "AttributeError"}


def _english(node: ast.expr) -> bool:
    """A text written out in English (a literal, an f-string or a sum of them) rather than a sentence."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, ast.BinOp) and (_english(node.left) or _english(node.right))


def test_errors_a_page_a_client_or_a_command_shows_are_sentences() -> None:
    """No ``raise SomeError("English")`` and no ``{"error": "English"}`` at the edges: an error is
    ``SomeError(sentence("...", **params))``, put into the reader's words where it is shown
    (``describe``, ``error_response``; a WebSocket's in its handshake's language)."""
    found = []
    for path in EDGES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                f = node.exc.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "?"
                if name not in INTERNAL and _english(node.exc.args[0]):
                    found.append(f"{path.relative_to(SRC)}:{node.lineno} {name}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("add", "problem") and node.args and _english(node.args[0]) and \
                    path.parent.name == "formats":  # a reader's problem: Problems.add / KyokuReplay.problem
                found.append(f"{path.relative_to(SRC)}:{node.lineno} {node.func.attr}")
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value in ("error", "message") and v is not None \
                            and _english(v):
                        found.append(f"{path.relative_to(SRC)}:{node.lineno} {{{k.value!r}: ...}}")
    assert found == []


def _session(client: TestClient) -> tuple[str, str]:
    r = client.post("/api/keeper/sessions", json={"rules": "club", "people": ["Aki", "Ben", "Chie"]})
    assert r.status_code == 200, r.text
    links = r.json()["links"]
    return links["organiser"].removeprefix("/keeper/"), links["read"].removeprefix("/keeper/")


def test_the_links_refusals_speak_the_request_language(tmp_path: Path) -> None:
    """``no_link`` (404) and ``read_only`` (403) — the keeper's and the tournaments' — in the
    request's language, the code the same in both."""
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as client:
        _, read = _session(client)
        for headers, no_link, read_only in (
                ({}, "no kept session behind this link", "this is a read link: it shows the session"),
                (JA, "このリンクで開ける記録セッションはありません", "閲覧用のリンクです")):
            r = client.get("/api/keeper/sessions/1", headers=headers)
            assert r.status_code == 404 and r.json()["code"] == "no_link" and no_link in r.json()["error"], r.text
            r = client.post(f"/api/keeper/sessions/{read}/undo", json={}, headers=headers)
            assert r.status_code == 403 and r.json()["code"] == "read_only" and read_only in r.json()["error"], r.text
            r = client.get("/api/tournaments/nope", headers=headers)
            assert r.status_code == 404 and r.json()["code"] == "no_link", r.text
        r = client.get("/api/tournaments/nope", headers=JA)
        assert r.json()["error"].startswith("このリンクで開ける大会はありません"), r.text


def test_the_tables_refusals_speak_the_request_and_the_sockets_language(tmp_path: Path) -> None:
    """A bad table request over HTTP, and a WebSocket's refusals (an unknown table; a malformed
    message on a spectator's socket) in the language its handshake asked for."""
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as client:
        r = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "efficient"]}, headers=JA)
        assert r.status_code == 400 and r.json()["code"] == "malformed"
        assert r.json()["error"] == "'seats' は3つの席の種類（human、mjai またはボットの名前）のリストにしてください"
        with client.websocket_connect("/ws/tables/nope/watch?lang=ja") as ws:
            msg = ws.receive_json()
        assert msg["code"] == "no_such_table" and msg["message"] == "卓 'nope' はありません", msg
        r = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "efficient", "efficient"]})
        table = r.json()["id"]
        for lang, words in (("en", "a spectator cannot act"), ("ja", "観戦者は")):
            with client.websocket_connect(f"/ws/tables/{table}/watch?lang={lang}") as ws:
                ws.send_text(json.dumps({"type": "toggle", "name": "auto_win", "value": True}))
                while (msg := ws.receive_json()).get("type") != "error":
                    pass
            assert msg["code"] == "spectator" and msg["message"].startswith(words), msg


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_keepers_and_tournaments_rarer_errors_in_both_languages(tmp_path: Path, lang: str) -> None:
    """An undo with nothing to undo, an entry number that is not there, a tournament's bad round and a
    seating CSV's bad line: each a sentence, its parameters in place, in the command's language."""
    from sanma.keeper.keeper import Keeper
    from sanma.keeper.seating import fixed_round
    from sanma.keeper.tournament import Tournaments
    from sanma.rules.schema import Rules
    from sanma.store import open_db

    with open_db(tmp_path / "k.sqlite") as store:
        k = Keeper(store)
        sid = k.new(Rules.preset("club"), ["Aki", "Ben", "Chie"])["session"]
        errors = []
        for call in (lambda: k.undo(sid), lambda: k.fix(sid, 3, {"kind": "draw"}),
                     lambda: Tournaments(store).new(Rules.preset("official"), ["A", "B", "C"], 99),
                     lambda: fixed_round(1, [["1", "1", "A", "B", "X"]], ["A", "B", "C"])):
            with pytest.raises(SanmaError) as info:
                call()
            errors.append(describe(info.value, lang))
    expected = {"en": [f"session {sid}: nothing to undo", f"session {sid} has no entries yet",
                       "--rounds 99: give 1 to", "seating CSV line 1: 'X' is not a player of the tournament"],
                "ja": [f"セッション {sid}: 取り消すものはありません", f"セッション {sid} にはまだ記録がありません",
                       "--rounds 99: ラウンド数は1から", "席順 CSV の 1 行目: 'X' は大会の参加者ではありません"]}[lang]
    assert all(e.startswith(x) for e, x in zip(errors, expected, strict=True)), errors


def test_sanma_serve_says_its_start_up_lines_in_the_commands_language(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    db = str(tmp_path / "db.sqlite")
    out = CliRunner().invoke(cli_app, ["serve", "--db", db, "--port", "8765", "--lang", "ja"])
    assert out.exit_code == 0, out.output
    assert "sanma: http://127.0.0.1:8765/ で配信しています（データベース " in out.stderr, out.stderr
    bad = CliRunner().invoke(cli_app, ["serve", "--db", db, "--limit", "nope=3", "--lang", "ja"])
    assert bad.exit_code == 2 and "--limit 'nope=3': NAME=VALUE の形で" in bad.stderr, bad.stderr


def test_simulate_report_in_japanese(tmp_path: Path) -> None:
    """``sanma simulate --report`` writes its tables, titles and plots in the command's language; the
    plots draw Japanese with the system's Japanese font (Debian's fonts-noto-cjk: CI installs it),
    and summary.json does not depend on the language."""
    pytest.importorskip("matplotlib", reason="matplotlib draws the report's plots")
    from sanma.sim import simulate
    from sanma.sim.report import CJK_FONTS, write_report

    s = simulate("tenhou", games=2, seed=3, bots=("efficient", "random", "tsumogiri"))
    set_lang("en")
    write_report([s, s], tmp_path / "en")
    set_lang("ja")
    try:
        with warnings.catch_warnings():
            if any(Path(p).is_file() for p in CJK_FONTS):
                warnings.simplefilter("error")  # a glyph missing from every font is a warning of matplotlib's
            write_report([s, s], tmp_path / "ja")
    finally:
        set_lang("en")
    md = (tmp_path / "ja" / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# sanma simulate レポート") and "| ボット | 指標 | tenhou | tenhou | 差 |" in md, md[:400]
    assert "平均順位" in md and "和了率" in md and "## グラフ" in md
    assert "<html lang='ja'>" in (tmp_path / "ja" / "report.html").read_text(encoding="utf-8")
    assert (tmp_path / "ja" / "summary.json").read_bytes() == (tmp_path / "en" / "summary.json").read_bytes()


# --- the errors a command still said in English: the database's, the bots', the keeper's field paths, the lock ------

#: words a Japanese error may hold as they are: names people or programs chose, keys, products
KEEP = {"sanma", "mjai", "COMMAND", "players", "efficient", "defensive", "random", "review", "tsumogiri", "SQLite",
        "PostgreSQL", "docs", "md", "serve", "nosuchbot"}


def ja_run(args: list[str], code: int = 2) -> str:
    """``sanma ARGS --lang ja``: its output (stdout and stderr), checked for its exit status."""
    r = CliRunner().invoke(cli_app, [*args, "--lang", "ja"], env={"COLUMNS": "300"})
    assert r.exit_code == code, r.output
    return r.output


def assert_japanese(out: str, *expected: str, allowed: set[str] = KEEP) -> None:
    """Each ``expected`` phrase is there and no English word is left (paths, options and keys are not words)."""
    from sanma.i18n.messages import untranslated

    assert all(x in out for x in expected), out
    assert untranslated(out, allowed) == [], out


def test_a_damaged_file_or_a_directory_as_the_database_in_japanese(tmp_path: Path) -> None:
    """``sanma stats --db`` and ``sanma replay --db`` on a file that is not a database, and on a directory:
    the refusal, SQLite's reason and the advice all in Japanese."""
    bad = tmp_path / "notes.sqlite"
    bad.write_text("not a database\n" * 100, encoding="utf-8")
    for command in ("stats", "replay"):
        assert_japanese(ja_run([command, "--db", str(bad)]), "使える sanma のデータベースではありません",
                        "データベースのファイルではありません", "コピーから戻してください")
        assert_japanese(ja_run([command, "--db", str(tmp_path)]),
                        "ディレクトリです。データベースのファイルではありません")
    assert bad.read_text(encoding="utf-8").startswith("not a database")  # nothing was written


def test_a_game_the_database_does_not_hold_in_japanese(tmp_path: Path) -> None:
    from sanma.store import open_db

    db = str(tmp_path / "club.sqlite")
    open_db(db).close()
    assert_japanese(ja_run(["review", "--db", db, "999"]), f"{db}: 対局 999 はありません")


def test_a_copy_into_a_database_that_is_not_empty_in_japanese(tmp_path: Path) -> None:
    from sanma.store import open_db
    from sanma.store.events import EXAMPLE

    src, dst = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    open_db(src).close()
    with open_db(dst) as store:
        store.import_bytes(EXAMPLE.encode(), "example.mjson")
    assert_japanese(ja_run(["db", "copy", src, dst]), f"{dst}: 空ではありません（テーブル players に行があります）",
                    "コピー先は新しいデータベースだけです")


def test_an_unknown_bot_and_an_mjai_bot_that_exits_in_japanese(tmp_path: Path) -> None:
    """``sanma simulate --bots`` with a name that is no bot is refused in Japanese; an mjai program that
    exits at once is an incident, logged and listed in Japanese (summary.json's log stays English)."""
    assert_japanese(ja_run(["simulate", "--bots", "nosuchbot,efficient,efficient", "--games", "1"]),
                    "ボット 'nosuchbot' はありません", "mjai:COMMAND から選んでください")
    quits = tmp_path / "quits.sh"
    quits.write_text("#!/bin/sh\nexit 3\n", encoding="utf-8")
    quits.chmod(0o755)
    r = CliRunner().invoke(cli_app, ["simulate", "--bots", f"mjai:{quits},efficient,efficient", "--games", "1",
                                     "--seed", "1", "--lang", "ja"], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    incident = [line for line in r.stderr.splitlines() if "異常" in line]
    assert len(incident) == 1, r.stderr
    assert_japanese(incident[0], "第0半荘: mjai:", "（席 0）: プログラムが終了しました（終了コード 3）",
                    "この半荘の残りはツモ切りします")
    out = CliRunner().invoke(cli_app, ["simulate", "--bots", f"mjai:{quits},efficient,efficient", "--games", "1",
                                       "--seed", "1", "--json", "--lang", "ja"], env={"COLUMNS": "300"})
    log = json.loads(out.stdout)["incident_log"]
    assert len(log) == 1 and "the program stopped (exit code 3); tsumogiri for the rest of the game" in log[0], log


@pytest.mark.parametrize("args, said", [
    (["--han", "200"], "A のあがり: 翻: 200 は0から100までの整数ではありません"),
    (["--han", "3", "--fu", "40", "--ura-han", "99"], "A のあがり: 裏ドラの翻: 99 は0から30までの整数ではありません"),
])
def test_the_keepers_field_paths_in_japanese_on_the_command_line(tmp_path: Path, args: list[str], said: str) -> None:
    """A keeper entry refused for one of its fields names the field in the command's language
    (``win by A: han: ...`` in English)."""
    db = str(tmp_path / "k.sqlite")
    CliRunner().invoke(cli_app, ["table", "new", "--rules", "club", "--people", "A,B,C", "--db", db])
    assert_japanese(ja_run(["table", "hand", "1", "--ron", "A", "--from", "B", *args, "--db", db]), said,
                    allowed={"A", "B"})


def test_the_keepers_field_paths_in_the_requests_language(tmp_path: Path) -> None:
    """The same over HTTP: the words in the request's language, the code and the keys the same in both."""
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as client:
        organiser, _ = _session(client)
        win = {"kind": "win", "wins": [{"winner": "Aki", "han": 3, "fu": 40, "ura_han": 99}], "from": "Ben"}
        got = {}
        for lang, headers in (("en", {}), ("ja", JA)):
            r = client.post(f"/api/keeper/sessions/{organiser}/entries", json={"entry": win}, headers=headers)
            assert r.status_code == 400, r.text
            got[lang] = r.json()
        assert got["en"]["error"] == "win by Aki: ura han: 99 is not a whole number from 0 to 30", got
        assert got["ja"]["error"] == "Aki のあがり: 裏ドラの翻: 99 は0から30までの整数ではありません", got
        assert set(got["en"]) == set(got["ja"]) and got["en"]["code"] == got["ja"]["code"], got
        bad = {"kind": "draw", "tenpai": "Aki"}  # a bare entry field: the JSON key in English, its name in Japanese
        r = client.post(f"/api/keeper/sessions/{organiser}/entries", json={"entry": bad}, headers=JA)
        assert r.json()["error"].startswith("聴牌: 名前は"), r.text


def test_a_second_server_on_a_served_sqlite_file_is_refused_in_japanese(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``sanma serve --lang ja`` on a file another server holds: the refusal and who holds it (process,
    host, address, since when) in Japanese."""
    import os
    import socket

    import uvicorn

    from sanma.store.lock import acquire_server_lock

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    db = str(tmp_path / "club.sqlite")
    with acquire_server_lock(db, "http://127.0.0.1:8765/"):
        r = CliRunner().invoke(cli_app, ["serve", "--db", db, "--port", "8766", "--lang", "ja"])
    assert r.exit_code == 2, r.output
    assert_japanese(r.stderr, f"プロセス {os.getpid()}、ホスト {socket.gethostname()}、http://127.0.0.1:8765/、",
                    "から）", allowed={*KEEP, *socket.gethostname().replace("-", " ").replace(".", " ").split()})
    assert "pid" not in r.stderr and "since" not in r.stderr, r.stderr


def test_a_hand_of_the_wrong_size_in_japanese() -> None:
    assert_japanese(ja_run(["shanten", "123p"]), "不正な手牌 '123p': 3枚です")


def test_a_file_that_is_no_record_in_japanese(tmp_path: Path) -> None:
    """``sanma replay FILE`` and ``sanma stats --db DB FILE`` on JSON that is no record: the reader's own
    sentence reaches the words at the edge through the record's ``errors`` (kept as text: a ``Said``)."""
    import pickle

    from sanma.formats import read_record
    from sanma.i18n.messages import Said

    bad = tmp_path / "bad.json"
    bad.write_text('{"title": "x"}', encoding="utf-8")
    keys = {*KEEP, "log"}  # the JSON key the file lacks
    assert_japanese(ja_run(["replay", str(bad)]), "読める牌譜ではありません",
                    "tenhou.net/6 の JSON ではありません（'log' のリストがありません）", allowed=keys)
    assert_japanese(ja_run(["stats", "--db", str(tmp_path / "s.sqlite"), str(bad)]),
                    f"{bad}: 保存しませんでした: tenhou.net/6 の JSON ではありません", allowed=keys)
    problem = read_record(bad).errors[0]
    assert isinstance(problem, Said) and problem == f"{bad}: not tenhou.net/6 JSON (no 'log' list)"
    again = pickle.loads(pickle.dumps(problem))
    assert again == problem and again.message.text("ja") == problem.message.text("ja")


@pytest.mark.parametrize("args, said", [
    (["simulate", "--mjai-timeout", "0", "--games", "1"], "--mjai-timeout は0秒より長くしてください"),
    (["table", "new", "--rules", "club", "--people", "A,B"], "参加者 A, B: 三人麻雀の卓は3人か4人です"),
])
def test_errors_passed_on_keep_their_sentence(tmp_path: Path, args: list[str], said: str) -> None:
    """An error that another one passes on keeps its sentence (not its English text)."""
    assert_japanese(ja_run([*args, "--db", str(tmp_path / "db.sqlite")] if args[0] == "table" else args), said,
                    allowed={*KEEP, "A", "B"})
