"""Issue 24: the record readers' per-line diagnostics are coded sentences with named parameters,
put into words at the edge — ``sanma replay FILE --check``, ``sanma review``, the replay viewer's
upload over HTTP — in the reader's language, while ``--json`` keeps the same keys and codes in
every language.

A damaged record of each format sanma reads (Tenhou's mjlog, tenhou.net/6 from Tenhou and from
Mahjong Soul, majiang, Mahjong Soul's mjai) is replayed under ``--lang ja``: every problem its reader
found is said in Japanese. The pseudo-locale run with its parameters bare (``SANMA_PSEUDO=params``)
finds a diagnostic handed to the edge as ready-made English text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from sanma.cli import app
from sanma.formats import read_record
from sanma.i18n.messages import Said, untranslated
from sanma.web.app import create_app
from shared_data import shared_path

runner = CliRunner()
LOCAL = "http://127.0.0.1"
JA = {"accept-language": "ja-JP,ja;q=0.9"}


def _mjlog(tmp: Path) -> Path:
    text = shared_path("data", "tenhou_mjlog", "2009060321gm-00b9-0000-75b25bcf.xml").read_text(encoding="utf-8")
    i = text.index("<INIT")
    j = text.index("<", text.index(">", i) + 1)  # the tag after the first INIT
    out = tmp / "bad.xml"
    out.write_text(text[:j] + "<XYZ/>" + text[j:], encoding="utf-8")
    return out


def _tenhou6(tmp: Path, *where: str) -> Path:
    data = json.loads(shared_path("data", *where).read_text(encoding="utf-8"))
    data["log"][0][16][1] = [*data["log"][0][16][1][:3], 700]  # a payment to the empty fourth seat
    out = tmp / f"bad-{where[0]}.json"
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return out


def _majiang(tmp: Path) -> Path:
    data = json.loads(shared_path("data", "majiang_json", "2023010100gm-00f1-0000-caffca62.json")
                      .read_text(encoding="utf-8"))
    data["log"][0].insert(2, {"foo": {}})
    out = tmp / "bad-majiang.json"
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return out


def _mjai(tmp: Path) -> Path:
    lines = shared_path("data", "majsoul_mjai_excerpt", "riichienv_mjsoul_3p_double_ron_excerpt.jsonl") \
        .read_text(encoding="utf-8").splitlines()
    out_lines = []
    for line in lines:
        e = json.loads(line)
        if e["type"] == "hora" and e.get("yaku"):
            y = e["yaku"][0]
            if isinstance(y, list):
                y[0] = "nazo"
            else:
                y["name"] = "nazo"
            line = json.dumps(e)
        out_lines.append(line)
    out = tmp / "bad.jsonl"
    out.write_text("\n".join(out_lines) + "\n", encoding="utf-8")
    return out


#: each damaged record, the code of its first problem, and the problem in Japanese
DAMAGED = {
    "mjlog": (_mjlog, (), "unknown_tag", "東1局: 4番目のタグ <XYZ>: 不明なタグ <XYZ>"),
    "tenhou6": (_tenhou6, ("tenhou6_json", "2024010120gm-00b9-0000-e324b88a.json"), "payments",
                "東1局: 空いている4人目の席に収支 700 があります"),
    "majsoul tenhou6": (_tenhou6, ("majsoul_tenhou6_json", "mjai-reviewer3p_chankan.json"), "payments",
                        "空いている4人目の席に収支 700 があります"),
    "majiang": (_majiang, (), "unknown_event", "東1局: 不明なイベント 'foo'"),
    "majsoul mjai": (_mjai, (), "unknown_yaku", "東1局: 不明な役 'nazo'"),
}


def _damaged(tmp: Path, kind: str) -> Path:
    make, args, _, _ = DAMAGED[kind]
    return make(tmp, *args)


def _problem_lines(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if line.strip().startswith("牌譜: ")]


@pytest.mark.parametrize("kind", DAMAGED)
def test_a_damaged_record_is_checked_in_japanese(tmp_path: Path, kind: str) -> None:
    """``sanma replay FILE --check --lang ja``: each problem the reader found is a line in Japanese
    (no English word but the record's own names), and ``--json`` is the same in both languages,
    each problem with its code."""
    path = _damaged(tmp_path, kind)
    _, _, code, said = DAMAGED[kind]
    r = runner.invoke(app, ["replay", str(path), "--check", "--lang", "ja"], env={"COLUMNS": "300"})
    assert r.exit_code == 1, r.output
    lines = _problem_lines(r.output)
    assert lines and any(said in line for line in lines), r.output
    for line in lines:
        assert untranslated(line, {"XYZ", "foo", "nazo"}) == [], line
    ja, en = (runner.invoke(app, ["replay", str(path), "--json", "--lang", lang]).output for lang in ("ja", "en"))
    assert ja == en
    problems = [m for m in json.loads(ja)["mismatches"] if m["what"] == "read"]
    assert problems[0]["code"] == code and all("code" in m for m in problems), problems
    error = read_record(path).errors[0]
    assert isinstance(error, Said) and error.message.code == code and error == problems[0]["got"]


def test_the_pseudo_locale_finds_a_reader_diagnostic_left_in_english(tmp_path: Path) -> None:
    """With the parameters bare (``SANMA_PSEUDO=params``), whatever a reader said without a sentence
    shows outside the brackets; every damaged record's check is routed through the catalogue."""
    names = {"XYZ", "foo", "nazo", "tenhou", "majsoul", "integer", "round_winds", "final_rounding", "bad", "jsonl",
             "json", "xml"}
    for kind in DAMAGED:
        path = _damaged(tmp_path, kind)
        r = runner.invoke(app, ["replay", str(path), "--check"], env={"SANMA_PSEUDO": "params", "SANMA_LANG": "en",
                                                                       "COLUMNS": "300"})
        assert r.exit_code == 1, r.output
        lines = [line for line in r.output.splitlines() if "⟦record: ⟧" in line or "⟦note: ⟧" in line]
        assert lines, r.output
        for line in lines:
            assert untranslated(line, names) == [], line
    # the check can fail: a reader's problem given as plain English text is found
    from sanma.i18n.messages import Message

    r_plain = Message("{problem}", {"problem": "kyoku E1: unknown tag <XYZ>"})
    import os

    os.environ["SANMA_PSEUDO"] = "params"
    try:
        assert untranslated(Message("record: {problem}", {"problem": r_plain}).text("en"), names) == \
            ["kyoku", "unknown", "tag"]
    finally:
        del os.environ["SANMA_PSEUDO"]


def test_review_says_the_records_problems_in_japanese(tmp_path: Path) -> None:
    """``sanma review FILE --lang ja``: the replay notes name the reader's problem in Japanese."""
    path = _damaged(tmp_path, "majiang")
    r = runner.invoke(app, ["review", str(path), "--seat", "0", "--lang", "ja"], env={"COLUMNS": "300"})
    assert "不明なイベント 'foo'" in r.output, r.output
    assert "unknown event" not in r.output


def test_an_upload_the_viewer_cannot_read_is_refused_in_the_pages_language(tmp_path: Path) -> None:
    """The replay viewer's upload: a record whose reader found no kyoku is refused (400) in the words
    of the page's language, the code the same; a damaged record that replays shows its first
    problem and its notes in them."""
    no_kyoku = b'<mjloggm ver="2.3"><GO type="185"/><XYZ/></mjloggm>'
    damaged = _damaged(tmp_path, "mjlog").read_bytes()
    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as client:
        en = client.post("/api/replays?name=x.xml", content=no_kyoku)
        ja = client.post("/api/replays?name=x.xml", content=no_kyoku, headers=JA)
        assert en.status_code == ja.status_code == 400 and en.json()["code"] == ja.json()["code"] == "record"
        assert "<XYZ> outside a kyoku" in en.json()["error"], en.text
        assert ja.json()["error"] == ("x.xml: sanma が読める牌譜ではありません: x.xml: 1番目のタグ <XYZ>: "
                                      "局の外に <XYZ> があります"), ja.text
        client.cookies.set("sanma_lang", "ja")  # the switch the page remembers
        ok = client.post("/api/replays?name=x.xml", content=damaged)
        assert ok.status_code == 200, ok.text
        body = ok.json()
        assert body["mismatch"]["text"].endswith("東1局: 4番目のタグ <XYZ>: 不明なタグ <XYZ>"), body["mismatch"]
        assert body["notes"] and all(untranslated(n, {"integer", "final_rounding"}) == [] for n in body["notes"])
        assert body["errors"][0].endswith("kyoku E1: tag 4 <XYZ>: unknown tag <XYZ>")  # data: its English


def _paid_wrong(tmp: Path) -> Path:
    """A tenhou.net/6 record whose first win pays 100 points too many to its winner."""
    data = json.loads(shared_path("data", "tenhou6_json", "2024010120gm-00b9-0000-e324b88a.json")
                      .read_text(encoding="utf-8"))
    hand = next(k for k in data["log"] if k[16][0] == "和了")
    deltas = hand[16][1]
    winner = max(range(3), key=lambda s: deltas[s])
    loser = min(range(3), key=lambda s: deltas[s])
    deltas[winner] += 100
    deltas[loser] -= 100
    out = tmp / "paid-wrong.json"
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return out


def test_what_the_engine_finds_different_is_said_in_japanese(tmp_path: Path) -> None:
    """``sanma replay --check --lang ja`` on a record the engine pays differently: the mismatch names
    the hand, the value and where in Japanese (東1局: 席0の収支（結果）: 牌譜 ...、エンジン ...), its
    ``what`` in ``--json`` the English key it always was, and nothing of it is left unrouted."""
    path = _paid_wrong(tmp_path)
    r = runner.invoke(app, ["replay", str(path), "--check", "--lang", "ja"], env={"COLUMNS": "300"})
    assert r.exit_code == 1, r.output
    lines = [line.strip() for line in r.output.splitlines()[1:-1]]
    assert any("の収支（結果）: 牌譜 [" in line and "、エンジン [" in line for line in lines), r.output
    for line in lines:
        assert untranslated(line) == [], line
    whats = {m["what"] for m in json.loads(runner.invoke(app, ["replay", str(path), "--json", "--lang", "ja"]).output)
             ["mismatches"]}
    assert any(w.startswith("seat ") and w.endswith(" payments") for w in whats), whats
    pseudo = runner.invoke(app, ["replay", str(path), "--check"], env={"SANMA_PSEUDO": "params", "SANMA_LANG": "en",
                                                                      "COLUMNS": "300"})
    for line in pseudo.output.splitlines()[1:-1]:
        assert untranslated(line, {"tenhou"}) == [], line


# --- a served table that cannot be resumed: its reason is a code and a sentence, said per request ---------------

def test_a_broken_tables_reason_speaks_the_requests_language_and_hides_the_details(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """``Tables.broken`` keeps why a table could not be resumed as a coded sentence: a page asking in
    Japanese reads it in Japanese. An engine's refusal (which may name a tile in a hand) or a bug
    is one generic sentence; its details (and no traceback) reach the log only."""
    from sanma.errors import IllegalActionError, RulesError
    from sanma.i18n import sentence
    from sanma.web.tables import broken_reason

    with TestClient(create_app(tmp_path / "db.sqlite"), base_url=LOCAL) as client:
        r = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "efficient", "efficient"]})
        table_id = r.json()["id"]
        tables = client.app.state.tables  # type: ignore[attr-defined]
        tables.running.pop(table_id).close()

        def fail(_: str) -> None:
            raise IllegalActionError(sentence("seat 1 cannot discard 5p: its hand is {hand}", hand="1234p"))

        monkeypatch.setattr(tables, "_load", fail)
        with caplog.at_level("WARNING", logger="sanma.web"):
            assert tables.load_or_report(table_id) is None
        assert "5p" in caplog.text  # the details: the server's log
        for headers, words in (({}, "its stored game no longer replays"), (JA, "保存された対局を再生できません")):
            r = client.get(f"/api/tables/{table_id}", headers=headers)
            assert r.status_code == 409 and r.json()["code"] == "broken", r.text
            assert words in r.json()["error"] and "5p" not in r.text and "Traceback" not in r.text, r.text
        assert untranslated(client.get(f"/api/tables/{table_id}", headers=JA).json()["error"]) == []
    assert broken_reason(RuntimeError("x")).code == "replay_failed"
    rules = RulesError(sentence("unknown field {name!r}", name="honba_rom"))
    assert broken_reason(rules) is rules.message
