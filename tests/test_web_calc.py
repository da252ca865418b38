"""The calculator's API (issue 11 item 5): ``POST /api/score`` answers what ``sanma score --json`` prints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sanma import Rules
from sanma.cli import app as cli_app
from sanma.cli.score import FLAGS
from sanma.web import create_app
from sanma.web.calc import KNOWN

runner = CliRunner()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    return TestClient(create_app(tmp_path_factory.mktemp("calc") / "db.sqlite"), base_url="http://127.0.0.1")


def cli_json(args: list[str]) -> tuple[int, Any]:
    r = runner.invoke(cli_app, ["score", *args, "--json"])
    return r.exit_code, (json.loads(r.output) if r.exit_code == 0 else r.output)


# (CLI arguments, the same request as JSON)
CASES = [
    (["123456789p99m111z", "--win", "9m", "--riichi", "--seat", "S", "--from", "W", "--rules", "tenhou"],
     {"hand": "123456789p99m111z", "win": "9m", "riichi": True, "seat": "S", "from": "W", "rules": "tenhou"}),
    (["234p789p123s789s11m", "--win", "4p", "--tsumo", "--seat", "S", "--rules", "club"],
     {"hand": "234p789p123s789s11m", "win": "4p", "tsumo": True, "seat": "S", "rules": "club"}),
    (["123345p999p11z", "--win", "1z", "--pon", "5z", "--tsumo", "--rules", "kansai"],
     {"hand": "123345p999p11z", "win": "1z", "pon": ["5z"], "tsumo": True, "rules": "kansai"}),
    # kita as nuki dora (P15, P16), honba (P43/P44) and sticks, dora and ura under the online preset
    (["234p678p340789s11z", "--win", "2p", "--riichi", "--tsumo", "--kita", "2", "--honba", "1",
      "--kyotaku", "1", "--dora", "1p", "--ura", "8s", "--seat", "W", "--rules", "online"],
     {"hand": "234p678p340789s11z", "win": "2p", "riichi": True, "tsumo": True, "kita": 2, "honba": 1,
      "kyotaku": 1, "dora": ["1p"], "ura": ["8s"], "seat": "W", "rules": "online"}),
    (["19m19p19s1234567z1m", "--win", "1m", "--seat", "E", "--from", "S", "--rules", "majsoul"],
     {"hand": "19m19p19s1234567z1m", "win": "1m", "seat": "E", "from": "S", "rules": "majsoul"}),
    (["111p999p11s", "--win", "1s", "--ankan", "9s", "--kan", "1m", "--tsumo", "--rinshan", "--rules", "official"],
     {"hand": "111p999p11s", "win": "1s", "ankan": ["9s"], "kan": ["1m"], "tsumo": True, "rinshan": True,
      "rules": "official"}),
]


@pytest.mark.parametrize(("args", "body"), CASES, ids=[c[1]["hand"] for c in CASES])
def test_api_score_is_the_cli_json(client: TestClient, args: list[str], body: dict[str, Any]) -> None:
    code, expected = cli_json(args)
    r = client.post("/api/score", json=body)
    if code == 0:
        assert r.status_code == 200, r.text
        assert r.json() == expected
    else:  # "not a win" (CLI exit 1) is a 422; bad input (exit 2) a 400
        assert (code, r.status_code) in ((1, 422), (2, 400)), (code, r.text)


def test_api_score_kita_counts_as_dora_under_online_p16(client: TestClient) -> None:
    """P16: each pulled North is one dora; the answer changes by those han."""
    base = {"hand": "234p678p340789s11z", "win": "2p", "riichi": True, "tsumo": True, "seat": "W", "rules": "online"}
    none = client.post("/api/score", json=base).json()
    two = client.post("/api/score", json={**base, "kita": 2}).json()
    assert two["han"] == none["han"] + 2
    assert two["total"] > none["total"]


def test_flags_are_exactly_the_cli_booleans() -> None:
    """The page offers every situation flag of ``sanma score``, no more, no fewer."""
    from typing import get_type_hints

    from sanma.cli.score import score

    hints = get_type_hints(score)
    booleans = {name for name, t in hints.items() if t is bool and name != "as_json"}
    assert booleans == set(FLAGS)


def test_options_lists_presets_and_flags(client: TestClient) -> None:
    r = client.get("/api/score/options").json()
    assert set(r["presets"]) >= {"club", "online", "official", "kansai", "tenhou", "majsoul"}
    assert [f["name"] for f in r["flags"]] == list(FLAGS)
    assert all(f["help"] for f in r["flags"])


def test_uploaded_rule_file_and_rule_object(client: TestClient) -> None:
    """A rule file's text (rules_toml) and a rule object score like the file does on the CLI."""
    toml = 'extends = "tenhou"\nname = "myclub"\nhonba_ron = 1500\n'
    body = {"hand": "123456789p99m111z", "win": "9m", "riichi": True, "seat": "S", "from": "W", "honba": 1}
    by_file = client.post("/api/score", json={**body, "rules_toml": toml})
    assert by_file.status_code == 200, by_file.text
    by_object = client.post("/api/score", json={**body, "rules": {"extends": "tenhou", "honba_ron": 1500}})
    assert by_object.status_code == 200, by_object.text
    plain = client.post("/api/score", json={**body, "rules": "tenhou"}).json()
    # P43: the ron honba per stick is the file's 1,500 instead of the preset's own value
    tenhou_honba = Rules.preset("tenhou").honba_ron
    assert by_file.json()["deltas"]["S"] - 1500 == plain["deltas"]["S"] - tenhou_honba == 8000
    assert by_object.json()["deltas"] == by_file.json()["deltas"]


def test_calc_page_is_served(client: TestClient) -> None:
    r = client.get("/calc")
    assert r.status_code == 200 and "Hand calculator" in r.text
    js = client.get("/static/calc.js")
    assert js.status_code == 200 and "/api/score" in js.text


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"hand": "123m456p789p11z", "win": "1z"}, 400, "2m is not in the sanma tile set"),
    ({"hand": "123456789p99m111z"}, 400, "'win' is required"),
    ({"hand": "123456789p99m111z", "win": "9m", "rules": "tenhuo"}, 400, "unknown preset"),
    ({"hand": "123456789p99m111z", "win": "9m", "rules": {"extends": "tenhou", "honba_rон": 1}}, 400, "unknown field"),
    ({"hand": "123456789p99m111z", "win": "9m", "rules_toml": "extends = [1"}, 400, "uploaded rule file"),
    ({"hand": "123456789p99m111z", "win": "9m", "riichi": "yes"}, 400, "'riichi' must be true or false"),
    ({"hand": "123456789p99m111z", "win": "9m", "kita": -1}, 400, "'kita' must be a whole number"),
    ({"hand": "123456789p99m111z", "win": "9m", "seat": "N"}, 400, "expected E, S or W"),
    ({"hand": "123456789p99m111z", "win": "9m", "dora": "1p"}, 400, "'dora' must be a list"),
    ({"hand": "123456789p99m111z", "win": "9m", "yaku": []}, 400, "unknown field 'yaku'"),
    ({"hand": "123456789p99m112z", "win": "9m", "from": "W"}, 422, "not a win"),
    ([1, 2], 400, "JSON object"),
])
def test_bad_requests_are_clear_errors(client: TestClient, body: Any, status: int, words: str) -> None:
    r = client.post("/api/score", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert "Traceback" not in r.text


@pytest.mark.parametrize("path", ["/api/score", "/api/score/check", "/api/rules/check"])
def test_not_json_and_too_large(client: TestClient, path: str) -> None:
    r = client.post(path, content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "must be JSON" in r.json()["error"]
    r = client.post(path, content=b" " * 70_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(alphabet="0123456789mpszfESWN ", max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(sorted(KNOWN)), json_values, max_size=8))
def test_fuzzed_requests_never_crash(client: TestClient, body: dict[str, Any]) -> None:
    """Any JSON object gets a score, a 400 or a 422 — never a 500 or a stack trace."""
    r = client.post("/api/score", json=body)
    assert r.status_code in (200, 400, 422), r.text
    if r.status_code != 200:
        assert set(r.json()) <= {"error", "not_a_win", "code", "params"} and r.json()["error"]


def test_static_files_fetch_nothing_from_the_network() -> None:
    """No CDN, no web font, no remote script: every URL in the pages is the server's own."""
    static = Path(__file__).resolve().parents[1] / "src" / "sanma" / "web" / "static"
    for path in static.iterdir():
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            for marker in ("http://", "https://", "//cdn", "@import"):
                hits = [line for line in text.splitlines() if marker in line and "www.w3.org/2000/svg" not in line]
                assert not hits, f"{path.name} refers to {marker}: {hits[0]}"


def test_rules_endpoint_lists_every_field_of_a_preset(client: TestClient) -> None:
    from sanma.rules.loader import to_dict

    r = client.get("/api/rules/kansai")
    assert r.status_code == 200
    assert r.json()["fields"] == json.loads(json.dumps(to_dict(Rules.preset("kansai"))))
    bad = client.get("/api/rules/kansia")
    assert bad.status_code == 404 and "unknown preset" in bad.json()["error"]


def test_a_rule_file_is_checked_before_a_table_is_made_of_it(client: TestClient) -> None:
    """The lobby shows an uploaded rule file resolved by the server (issue 18: it showed the raw TOML and
    labelled the table with the base preset): every field, the fields changed from the base, whether
    the file names itself. A file the loader refuses is answered as data (no 4xx for the page's console),
    with the loader's message; a request that is not a rule file's text is a 400."""
    ok = client.post("/api/rules/check", json={"rules_toml": 'extends = "kansai"\nhonba_ron = 1200\n'}).json()
    assert ok["valid"] and not ok["named"] and ok["extends"] == "kansai" and ok["fields"]["honba_ron"] == 1200
    assert ok["changed"] == [{"field": "honba_ron", "base": Rules.preset("kansai").honba_ron, "value": 1200}]
    named = client.post("/api/rules/check", json={"rules_toml": 'extends = "tenhou"\nname = "club"\n'}).json()
    assert named["valid"] and named["named"] and named["name"] == "club" and named["changed"] == []
    bad = client.post("/api/rules/check", json={"rules_toml": 'extends = "tenhou"\nhonba_rn = 1\n'})
    assert bad.status_code == 200 and bad.json() == {"valid": False, "error": bad.json()["error"], "code": "rules"}
    assert "unknown field 'honba_rn' (did you mean 'honba_ron'?)" in bad.json()["error"]
    for body in ({"rules": "tenhou"}, {"rules_toml": 3}, [1]):
        r = client.post("/api/rules/check", json=body)
        assert r.status_code == 400 and set(r.json()) == {"error", "code"}


@pytest.mark.parametrize(("body", "code"), [
    ({"hand": "123456789p99m112z", "win": "9m", "from": "W"}, "not_a_win"),
    ({"hand": "", "win": ""}, "missing"),
    ({"hand": "123456789p99m111z", "win": ""}, "missing"),
    ({"hand": "123m456p789p11z", "win": "1z"}, "tile"),
    ({"hand": "123456789p99m111z", "win": "9m", "rules_toml": 'extends = "tenhou"\nhonba_rn = 1\n'}, "rules"),
])
def test_the_score_check_answers_a_verdict_not_a_refusal(client: TestClient, body: dict[str, Any], code: str) -> None:
    """Issue 18 (minor: expected 4xx answers log as console errors): the calculator page asks
    ``/api/score/check``, which answers what ``/api/score`` refuses with a 400 or a 422 as a verdict with
    a 200 — the same words and code; a win is the very object ``/api/score`` answers."""
    refused = client.post("/api/score", json=body)
    verdict = client.post("/api/score/check", json=body)
    assert refused.status_code in (400, 422) and verdict.status_code == 200, verdict.text
    assert verdict.json() == {"win": False, **refused.json()} and verdict.json()["code"] == code
    win = {"hand": "123456789p99m111z", "win": "9m", "riichi": True, "seat": "S", "from": "W"}
    assert client.post("/api/score/check", json=win).json() == {"win": True,
                                                                "score": client.post("/api/score", json=win).json()}


@pytest.mark.parametrize("body", [
    [1, 2], {"hand": "123456789p99m111z", "win": "9m", "yaku": []}, {"hand": 5, "win": "9m"},
    {"hand": "123456789p99m111z", "win": "9m", "riichi": "yes"}, {"hand": "123456789p99m111z", "win": "9m", "rules": 3},
])
def test_the_score_check_refuses_a_malformed_request_with_a_400(client: TestClient, body: Any) -> None:
    """A request that is not a calculator request (not an object, an unknown field, a wrong type) is
    still a 400 with ``/api/score``'s words: only the hand's and the rules' verdicts are answers."""
    r = client.post("/api/score/check", json=body)
    assert r.status_code == 400 and r.json() == client.post("/api/score", json=body).json()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(sorted(KNOWN)), json_values, max_size=8))
def test_fuzzed_checks_never_crash_and_agree_with_api_score(client: TestClient, body: dict[str, Any]) -> None:
    """Any JSON object gets a verdict or a 400, never a 500; a win exactly when ``/api/score`` scores it."""
    r = client.post("/api/score/check", json=body)
    scored = client.post("/api/score", json=body)
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert scored.status_code == 400 and r.json() == scored.json()
    else:
        assert r.json()["win"] == (scored.status_code == 200)
