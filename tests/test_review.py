"""``sanma review`` (issue 21): the contract's JSON on real Phoenix games and on sanma's own games,
every kind of decision valued, the value model's numbers on set positions, the rollouts' worlds,
bad input on the command line."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bot_views import seat_pub, seat_view
from sanma.cli import app
from sanma.formats import read_mjai, read_record
from sanma.formats.mjai import write_mjai
from sanma.game.actions import Action
from sanma.review import review_record
from sanma.review.model import Evaluator
from sanma.review.rollout import Rollouts, World
from sanma.review.walk import walk
from sanma.rules import Rules
from sanma.sim.arena import play_game_events
from sanma.tiles import Tile
from shared_data import data_path

TENHOU = Rules.preset("tenhou")
PHOENIX = "corpus/tenhou_phoenix_2026-01"
runner = CliRunner()


def _phoenix(n: int) -> list[Path]:
    folder = data_path(PHOENIX)
    files = sorted(folder.glob("*.xml"))
    return files[:: max(1, len(files) // n)][:n]


def check_contract(j: dict[str, Any], kyoku: int) -> None:
    """The JSON of the contract (shared ARCHITECTURE.md, "Review")."""
    assert set(j) >= {"seat", "model", "decisions", "hands", "summary"}
    assert j["seat"] in (0, 1, 2) and "not a learned policy" in j["model"].lower()
    assert len(j["hands"]) == kyoku
    for h in j["hands"]:
        assert set(h) >= {"hand", "kyoku", "placement_odds"}
        assert h["kyoku"][0] in "ESWN" and "-" in h["kyoku"]
        odds = h["placement_odds"]
        assert len(odds) == 3 and all(len(row) == 3 and all(0 <= p <= 1 for p in row) for row in odds)
        assert all(abs(sum(row) - 1) < 1e-3 for row in odds)
    steps = set()
    for d in j["decisions"]:
        assert set(d) >= {"hand", "kyoku", "step", "played", "options", "category"}
        assert 0 <= d["hand"] < kyoku and d["kyoku"] == j["hands"][d["hand"]]["kyoku"]
        opts = d["options"]
        assert len(opts) >= 2
        assert sum(o["action"] == d["played"] for o in opts) == 1  # `played` is one of `options`
        for o in opts:
            assert set(o) >= {"action", "win", "deal_in", "value", "ev_points", "ev_placement", "regret",
                              "regret_points"}
            assert 0 <= o["win"] <= 1 and 0 <= o["deal_in"] <= 1
            assert o["regret"] >= 0 and o["regret_points"] >= 0
            assert all(isinstance(o[k], int | float) and math.isfinite(o[k]) for k in
                       ("value", "ev_points", "ev_placement", "regret", "regret_points"))
        best = max(o["ev_placement"] for o in opts)
        top = [o for o in opts if o["ev_placement"] == best]
        assert all(o["regret"] == 0 for o in top)  # the best option has no regret
        for o in opts:
            assert o["regret"] == pytest.approx(best - o["ev_placement"], abs=2e-3)
            assert o["regret_points"] == pytest.approx(1000 * o["regret"], abs=2)
        assert d["category"] in ("efficiency", "push/fold", "riichi or dama", "calls", "kita timing", "safe tiles")
        assert d["why"]
        steps.add((d["hand"], d["step"]))
    s = j["summary"]
    assert set(s) >= {"regret_points", "regret_placement", "agreement", "worst"}
    assert 0 <= s["agreement"] <= 1 and s["regret_placement"] >= 0 and s["regret_points"] >= 0
    assert all(tuple(w) in steps for w in s["worst"])
    assert s["regret_placement"] == pytest.approx(
        sum(next(o["regret"] for o in d["options"] if o["action"] == d["played"]) for d in j["decisions"]), abs=0.05)


def test_phoenix_games_review_without_error_and_the_json_matches_the_contract() -> None:
    """Issue 21 "how it must be shown": a sample of the real Phoenix games, every seat."""
    kinds: set[str] = set()
    for n, path in enumerate(_phoenix(6)):
        rec = read_record(path)
        j = review_record(rec, seat=n % 3).to_json()
        check_contract(j, len(rec.kyoku))
        assert not j["errors"] or n  # the first game replays clean
        for d in j["decisions"]:
            kinds.update(o["action"]["type"] for o in d["options"])
    assert {"dahai", "reach", "pon", "none", "kita"} <= kinds


def test_every_kind_of_decision_is_valued() -> None:
    """Item 1: discard, riichi with which tile, each call or pass, kan, kita now or later, nine
    terminals, a win taken or not — each is an option of some decision, valued."""
    seen: dict[str, int] = {}
    for path in _phoenix(40):
        walked = walk(read_record(path))
        ev = Evaluator(walked.rules)
        for d in walked.decisions:
            types = {a.type for a in d.legal}
            if not types & {"ankan", "kakan", "daiminkan", "ryukyoku", "hora", "kita", "reach", "pon"}:
                continue
            for e in ev.evaluate(d.view, d.legal):
                seen[e.action.type] = seen.get(e.action.type, 0) + 1
                assert 0 <= e.win <= 1 and 0 <= e.deal_in <= 1 and math.isfinite(e.ev_placement)
        if {"ankan", "kakan", "daiminkan", "ryukyoku", "hora", "kita", "reach", "pon", "none"} <= set(seen):
            break
    assert {"dahai", "reach", "pon", "none", "kita", "ankan", "hora"} <= set(seen), seen


def test_a_game_sanma_played_reviews_under_its_own_rules() -> None:
    for preset in ("kansai", "club"):
        rules = Rules.preset(preset)
        game = play_game_events(rules, ["defensive"] * 3, "review-own", 0)
        rec = read_mjai(write_mjai(game))
        r = review_record(rec, seat=2)
        assert r.rules == preset and not r.errors
        check_contract(r.to_json(), len(rec.kyoku))


# ---------------------------------------------------------------------------------------- the value model
def _options(view: Any) -> dict[str, Any]:
    return {f"{e.action.type} {e.action.tile}": e for e in Evaluator(TENHOU).evaluate(view)}


def test_a_tenpai_hand_is_valued_by_the_scorer_and_riichi_adds_its_han() -> None:
    hand, drawn = "123p456p789s11s45p", "9m"  # 3p-6p wait after 9m
    legal = (Action("dahai", 0, Tile.parse("9m"), tsumogiri=True), Action("dahai", 0, Tile.parse("1p")),
             Action("reach", 0, Tile.parse("9m"), tsumogiri=True))
    v = seat_view(hand, drawn, legal_actions=legal)
    opts = _options(v)
    dama, riichi, broken = opts["dahai 9m"], opts["reach 9m"], opts["dahai 1p"]
    assert dama.position is not None and dama.position.shanten == 0 and dama.position.tiles == 6  # 3p, 6p: 3 each
    assert riichi.value > dama.value > 0  # riichi and expected ura on the same waits
    assert broken.win < dama.win  # 1p out: no longer tenpai
    assert riichi.ev_points < riichi.value  # not a sure win


def test_dealing_in_at_once_follows_the_tiles_danger_against_riichi() -> None:
    hand, drawn = "19m159p2468s1357z", "3p"
    legal = tuple(Action("dahai", 0, t) for t in dict.fromkeys(__import__("sanma.tiles", fromlist=["x"]).parse_tiles(
        hand + drawn)))
    calm = _options(seat_view(hand, drawn, legal_actions=legal))
    tense = _options(seat_view(hand, drawn, seats=[seat_pub(), seat_pub("8s9p", riichi=True), seat_pub()],
                               legal_actions=legal))
    assert tense["dahai 9p"].deal_in_now < tense["dahai 5p"].deal_in_now  # genbutsu against a middle tile
    assert tense["dahai 5p"].deal_in_now > calm["dahai 5p"].deal_in_now
    assert tense["dahai 5p"].ev_placement < tense["dahai 9p"].ev_placement


def test_a_dora_discard_loses_value() -> None:
    hand, drawn = "123p456p789s11s4p9m", "0p"  # red 5p drawn: keep it
    legal = (Action("dahai", 0, Tile.parse("0p"), tsumogiri=True), Action("dahai", 0, Tile.parse("9m")))
    opts = _options(seat_view(hand, drawn, legal_actions=legal))
    assert opts["dahai 9m"].value > opts["dahai 0p"].value


def test_nine_terminals_and_a_win_on_offer() -> None:
    hand = "19m19p19s12345z5p6p"
    legal = (Action("ryukyoku", 0), Action("dahai", 0, Tile.parse("6p"), tsumogiri=True))
    opts = _options(seat_view(hand, "7z", legal_actions=legal))
    assert opts["ryukyoku None"].ev_points == 0 and opts["ryukyoku None"].win == 0
    tsumo = Action("hora", 0, Tile.parse("5p"), target=0)
    win = _options(seat_view("123p456p789s11s46p", "5p", legal_actions=(tsumo, Action(
        "dahai", 0, Tile.parse("5p"), tsumogiri=True))))["hora 5p"]
    assert win.win == 1 and win.deal_in == 0 and win.value >= 1000 and win.ev_points == win.value


def test_the_numbers_read_only_what_the_seat_could_see() -> None:
    """Hidden information: the value model reads the seat's view alone, so a world with other
    hidden tiles (other opponents' hands, another wall) gives the very same numbers."""
    rec = read_mjai(write_mjai(play_game_events(TENHOU, ["defensive"] * 3, "hidden", 0)))
    walked = walk(rec, seats=(1,), keep_games=True)
    ev = Evaluator(walked.rules)
    checked = 0
    for d in walked.decisions[10:40:6]:
        w = World.sample(d, walked.rules, seed=5)
        other = w.game.view(1)
        assert other.hand == d.view.hand and other.seats == d.view.seats and other.dora_indicators == \
            d.view.dora_indicators
        assert ev.evaluate(other, d.legal) == ev.evaluate(d.view, d.legal)
        checked += 1
    assert checked >= 4


def test_rollout_worlds_keep_what_the_seat_saw_and_make_riichi_hands_tenpai() -> None:
    from sanma.agari import waits
    from sanma.tiles import counts34

    rec = read_mjai(write_mjai(play_game_events(TENHOU, ["defensive"] * 3, "worlds", 1)))
    walked = walk(rec, seats=(0,), keep_games=True)
    tense = [d for d in walked.decisions if any(p.riichi for s, p in enumerate(d.view.seats) if s != 0)]
    assert tense
    d = tense[0]
    hands = set()
    for k in range(4):
        w = World.sample(d, walked.rules, seed=k)
        g = w.game
        assert g.view(0).hand == d.view.hand and g.legal_actions(0) == d.legal
        for s, p in enumerate(d.view.seats):
            if s != 0 and p.riichi:
                assert waits(counts34(g.seats[s].hand), walked.rules.chiitoi_four_of_a_kind)
                hands.add(tuple(sorted(g.seats[s].hand)))
    assert len(hands) > 1  # the hidden tiles are sampled, not the record's
    ests = Rollouts(walked.rules, 3, seed=1).value(d, list(dict.fromkeys(d.legal))[:3])
    assert all(0 <= e.win <= 1 and 0 <= e.deal_in <= 1 for e in ests)


# ---------------------------------------------------------------------------------------- the command line
def _record_file(tmp_path: Path, preset: str = "tenhou") -> Path:
    path = tmp_path / "game.mjson"
    path.write_text(write_mjai(play_game_events(Rules.preset(preset), ["efficient"] * 3, "cli", 0)))
    return path


def test_cli_prints_a_review_and_its_json(tmp_path: Path) -> None:
    path = _record_file(tmp_path)
    out = runner.invoke(app, ["review", str(path), "--seat", "1", "--json"])
    assert out.exit_code == 0, out.output
    j = json.loads(out.stdout)
    assert j["seat"] == 1
    text = runner.invoke(app, ["review", str(path), "--seat", "efficient"])  # a player's name (the first one)
    assert text.exit_code == 0 and "Review of seat 0" in text.stdout


def test_the_review_speaks_the_command_language_and_its_json_does_not(tmp_path: Path) -> None:
    """sanma review --lang ja says the summary, the categories and every sentence of why in Japanese
    (issue 24: words at the edge); --json is the same in both languages, its sentences English."""
    path = _record_file(tmp_path)
    en = runner.invoke(app, ["review", str(path), "--seat", "1", "--lang", "en"])
    ja = runner.invoke(app, ["review", str(path), "--seat", "1", "--lang", "ja"])
    assert en.exit_code == 0 and ja.exit_code == 0, en.output + ja.output
    assert "Review of seat 1" in en.stdout and "1番席" in ja.stdout and "モデル：sanma の価値モデル" in ja.stdout
    costly = [line for line in ja.stdout.splitlines() if line.startswith("  ")]
    assert costly and all("損失" in line and ("上回る" in line or "最善" in line) for line in costly)
    assert not any(w in ja.stdout for w in ("Better:", "placement points", "shanten with"))
    out = {lang: runner.invoke(app, ["review", str(path), "--seat", "1", "--json", "--lang", lang]).stdout
           for lang in ("en", "ja")}
    assert out["en"] == out["ja"]
    whys = [d["why"] for d in json.loads(out["ja"])["decisions"]]
    assert whys and all(w.startswith(("Better: ", "Best option: ")) for w in whys)


def test_the_review_names_hands_and_tiles_as_players_do() -> None:
    """A costly decision is placed by its hand's name (東1局 / East 1, with honba when there are
    some), not the record's index and the contract's ``E1-0``, and an honour tile is 發 in Japanese
    and G in English, as the terminal game writes it (issue 24: one vocabulary); the sentence keeps
    its tile when it is stored as data (the review panel's cache) and the JSON stays the same."""
    from sanma.i18n.messages import from_data, to_data
    from sanma.review.report import kyoku_words

    assert kyoku_words("E1-0", "ja") == "東1局" and kyoku_words("S2-1", "ja") == "南2局 1本場"
    assert kyoku_words("E3-2", "en") == "East 3, 2 honba" and kyoku_words("?", "en") == "?"
    path = data_path(PHOENIX, "2026011603gm-00b9-0000-55f9a5cc.xml")
    ja = runner.invoke(app, ["review", str(path), "--seat", "0", "--lang", "ja"])
    en = runner.invoke(app, ["review", str(path), "--seat", "0", "--lang", "en"])
    assert ja.exit_code == 0 and en.exit_code == 0, ja.output + en.output
    assert "  東1局 4手目 [牌効率]" in ja.stdout and "發を切る" in ja.stdout and "6z" not in ja.stdout
    assert "  East 1, step 4 [efficiency]" in en.stdout and "discard G (" in en.stdout and "6z" not in en.stdout
    review = review_record(read_record(path), seat=0)
    why = next(d.why for d in review.decisions if "discard G" in str(d.why))
    assert from_data(to_data(why)).text("ja") == why.text("ja") and "發" in why.text("ja")


def test_why_shows_two_different_chances_as_different() -> None:
    from sanma.review.report import _pcts

    assert _pcts(0.154, 0.148) == {"best": "15.4%", "played": "14.8%"}
    assert _pcts(0.25, 0.006) == {"best": "25.0%", "played": "0.6%"}
    assert _pcts(0.30, 0.20) == {"best": "30%", "played": "20%"}


def test_cli_writes_an_html_page_with_names_escaped(tmp_path: Path) -> None:
    rules = Rules.preset("tenhou")
    from sanma.bots import Driver, make_bot
    from sanma.game.engine import Game

    g = Game(rules, seed="html", names=("<b>x</b>", "B", "C"), max_hands=2)
    Driver(g, {s: make_bot("efficient", seed=s, rules=rules) for s in range(3)}).run()
    path = tmp_path / "g.mjson"
    path.write_text(write_mjai(g))
    page = tmp_path / "r.html"
    out = runner.invoke(app, ["review", str(path), "--html", str(page)])
    assert out.exit_code == 0, out.output
    text = page.read_text()
    assert "&lt;b&gt;x&lt;/b&gt;" in text and "<b>x</b>" not in text and "placement" in text
    assert runner.invoke(app, ["review", str(path), "--html", str(page), "--lang", "ja"]).exit_code == 0
    ja = page.read_text()
    assert "<html lang='ja'>" in ja and "期待順位点" in ja and "&lt;b&gt;x&lt;/b&gt;" in ja


def test_cli_reviews_a_stored_game_and_a_stored_simulation(tmp_path: Path) -> None:
    from sanma.store import open_db

    db = tmp_path / "s.sqlite"
    rules = Rules.preset("kansai")
    with open_db(db) as store:
        gid = store.save_game(play_game_events(rules, ["efficient"] * 3, "db", 0).events, rules=rules)
    out = runner.invoke(app, ["review", "--db", str(db), str(gid), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["rules"] == "kansai"
    sim = runner.invoke(app, ["simulate", "--rules", "online", "--games", "2", "--seed", "4", "--db", str(db),
                              "--bots", "efficient,defensive,random"])
    assert sim.exit_code == 0, sim.output
    out = runner.invoke(app, ["review", "--db", str(db), "sim:1:1", "--seat", "2", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["rules"] == "online"


@pytest.mark.parametrize("args, message", [
    (["nope.xml"], "no such file"),
    (["{game}", "--seat", "Nobody"], "no seat 'Nobody'"),
    (["{game}", "--seat", "3"], "no seat '3'"),
    (["{game}", "--rules", "nosuch"], "nosuch"),
    (["--db", "{missing}", "1"], "no such database"),
    (["--db", "{db}", "99"], "no game"),
    (["--db", "{db}", "sim:1"], "sim:ID:INDEX"),
    (["--db", "{db}", "sim:9:0"], "no simulation 9"),
])
def test_cli_refuses_bad_input_with_a_message_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    from sanma.store import open_db

    game = _record_file(tmp_path)
    db = tmp_path / "empty.sqlite"
    with open_db(db):
        pass
    fill = {"{game}": str(game), "{missing}": str(tmp_path / "missing.sqlite"), "{db}": str(db)}
    out = runner.invoke(app, ["review", *[fill.get(a, a) for a in args]])
    assert out.exit_code == 2, out.output
    assert message in out.output and "Traceback" not in out.output


def test_cli_refuses_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    out = runner.invoke(app, ["review", str(bad)])
    assert out.exit_code == 2 and "Traceback" not in out.output
