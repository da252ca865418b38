"""Issue 24 item 1: one vocabulary, two languages.

Every term has an id, a Japanese and an English name; every name the engine, the scorer, the
keeper and the rules use has a term; every name the record readers accept is a spelling of exactly
one term (the readers look names up in the vocabulary and hold no table of their own), and every
name the writers write reads back to the same term.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path
from typing import Literal, get_args, get_origin, get_type_hints

import pytest

import sanma
import test_riichienv_vectors as vectors
from sanma import agari, events, scoring
from sanma.formats.mjlog import TENHOU_YAKU
from sanma.game.payout import ABORT_KINDS
from sanma.i18n import fu_line, lookup, record_name, term, term_name, tile_name, yaku_key
from sanma.i18n.terms import BY_KEY, LIMIT, TERMS, draw_key, limit_prefix
from sanma.keeper.entries import ABORT_KINDS as KEEPER_ABORTS
from sanma.keeper.entries import PENALTY_KINDS
from sanma.rules.schema import RULE_FIELDS, STANDARD_YAKU_HAN, STANDARD_YAKUMAN, Rules
from shared_data import data_path, missing

SRC = Path(sanma.__file__).resolve().parent
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")


def test_every_term_has_both_languages_and_one_id() -> None:
    ids = Counter(t.id for t in TERMS)
    assert [i for i, n in ids.items() if n > 1] == []
    for t in TERMS:
        assert t.ja and t.ja == t.ja.strip(), t.id
        assert t.en and t.en == t.en.strip(), t.id
        assert all(a and a == a.strip() for a in t.aliases), t.id
    # Japanese names are Japanese (a wind letter or a number alone would be an untranslated name)
    untranslated = [t.id for t in TERMS if not JAPANESE.search(t.ja)]
    assert untranslated == []


def test_a_spelling_means_one_term_of_its_kind() -> None:
    """Within a kind no two terms share a spelling, so a reader's lookup is never ambiguous. (A rule
    field's values are only ever named, never read from words: several are なし.)"""
    for kind, terms in BY_KEY.items():
        if kind == "rule_value":
            continue
        seen: dict[str, str] = {}
        for t in terms.values():
            for w in t.spellings:
                assert seen.setdefault(w, t.key) == t.key, f"{kind}: {w!r} spells {seen[w]} and {t.key}"


def test_every_yaku_and_limit_the_scorer_names_has_a_term() -> None:
    yakuhai = {"yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun", "yakuhai_seat_wind", "yakuhai_round_wind",
               "yakuhai_north"}
    names = {*STANDARD_YAKU_HAN, *STANDARD_YAKUMAN, *scoring.DORA_NAMES, *yakuhai}
    assert sorted(n for n in names if term("yaku", n) is None) == []
    assert {t.key for t in LIMIT} >= {"mangan", "haneman", "baiman", "sanbaiman", "yakuman", "kazoe"}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_line_of_real_scores_is_in_words(preset: str) -> None:
    """The 402 RiichiEnv hands scored under each preset: every yaku line, fu line and limit has a
    term in both languages (no underscore left, as an unnamed line would show)."""
    rules = Rules.preset(preset)
    if not vectors.CASES:
        missing("the RiichiEnv vectors")
    for v in vectors.CASES:
        try:
            s = vectors.score_of(v, rules)
        except sanma.SanmaError:
            continue  # no yaku under these rules, or kita where North is not pulled
        for y in s.yaku:
            assert term("yaku", y.name) is not None, y.name
        for line, _ in s.fu_breakdown:
            assert term("fu", line.split()[0]) is not None, line
            for lang in ("ja", "en"):
                assert "_" not in fu_line(line, lang), line
        if s.limit:
            assert term("limit", s.limit) is not None


def test_fu_parts_have_terms() -> None:
    heads = {"base", "fixed", "menzen_ron", "tsumo", "open_pinfu_ron", "chiitoitsu", agari.KANCHAN,
             agari.PENCHAN, agari.TANKI, agari.RYANMEN, agari.SHANPON, "kan_open", "kan_closed", "pair",
             *(line.split()[0] for line, _ in (*agari.TRIPLET_OPEN, *agari.TRIPLET_CLOSED))}
    assert sorted(h for h in heads if term("fu", h) is None) == []


def test_draws_results_penalties_and_chombo_reasons_have_terms() -> None:
    """The engine's ryukyoku reasons, the outcomes' and the keeper's abort kinds, the keeper's
    penalty kinds, the rules' penalty effects and the chombo reasons: each names one term."""
    for reason in (*events.DRAW_REASONS, *ABORT_KINDS, *(k for k in KEEPER_ABORTS if k != "riichi_bust"),
                   *events.RECORD_DRAW_REASONS):
        assert lookup("draw", reason) is not None, reason
    assert term("result", "riichi_bust") is not None
    assert [k for k in PENALTY_KINDS if term("penalty", k) is None] == []
    effects = get_args(get_type_hints(Rules)["penalty_false_call"])
    assert [e for e in effects if term("penalty_effect", e) is None] == []
    assert [r for r in events.CHOMBO_REASONS if term("chombo_reason", r) is None] == []
    # the engine's reason and the keeper's kind are one draw, in one word
    assert term_name("draw", "suukaikan", "ja") == term_name("draw", "four_kans", "ja") == "四槓散了"


def test_every_rule_field_and_value_has_a_term() -> None:
    assert sorted(f for f in RULE_FIELDS if term("rule", f) is None) == []
    assert sorted(t.key for t in BY_KEY["rule"].values() if t.key not in RULE_FIELDS) == []
    values = {v for tp in get_type_hints(Rules).values() if get_origin(tp) is Literal for v in get_args(tp)}
    assert sorted(v for v in values if term("rule_value", v) is None) == []


# --- the record readers' names --------------------------------------------------------------------------


def test_tenhou_yaku_ids_are_spellings() -> None:
    """Tenhou's yaku table (mjlog ids) names each yaku by a spelling of the vocabulary."""
    assert [n for n in TENHOU_YAKU if yaku_key(n) is None] == []
    assert yaku_key(TENHOU_YAKU[10]) == yaku_key(TENHOU_YAKU[13]) == "yakuhai_seat_wind"  # 自風 東 / 北
    assert yaku_key(TENHOU_YAKU[21]) == "double_riichi"  # 両立直
    assert yaku_key(TENHOU_YAKU[48]) == "kokushi_13"  # 国士無双１３面 (full-width digits)


def test_mjlog_draw_types_are_spellings() -> None:
    for typ, kind in (("yao9", "kyuushu"), ("reach4", "four_riichi"), ("ron3", "triple_ron"),
                      ("kan4", "four_kans"), ("kaze4", "four_winds"), ("nm", "nagashi")):
        assert draw_key(typ) == kind


def test_the_readers_hold_no_table_of_names() -> None:
    """No module of sanma.formats spells a yaku, draw or limit in Japanese except Tenhou's id-ordered
    yaku table (whose entries are spellings, above): the vocabulary is their one home."""
    spellings = {w for t in TERMS if t.kind in ("yaku", "draw", "limit") for w in t.spellings if JAPANESE.search(w)}
    for path in sorted((SRC / "formats").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "TENHOU_YAKU"
                                                    for t in node.targets):
                allowed |= {id(c) for c in ast.walk(node.value)}
        found = [s.value for s in ast.walk(tree) if isinstance(s, ast.Constant) and isinstance(s.value, str)
                 and id(s) not in allowed and s.value in spellings]
        # 和了 (a win, not a draw) and チョンボ (the sanma extension's result name) are checked as results
        assert [f for f in found if f not in ("チョンボ",)] == [], path.name


def _record_words() -> tuple[set[str], set[str]]:
    """Every yaku name and every draw name in the real JSON records of shared/data."""
    yaku: set[str] = set()
    draws: set[str] = set()
    data = data_path()
    for path in sorted(data.rglob("*.json")) + sorted(data.rglob("*.jsonl")):
        text = path.read_text(encoding="utf-8")
        yaku |= set(re.findall(r'"([^"(]+)\((?:\d+飜|役満|\d*倍役満)\)"', text))
        yaku |= set(re.findall(r'"name": ?"([^"]+)"', text))
        yaku |= set(re.findall(r'\["([^"\]]+)", ?\d+\]', text))  # mjai [name, han] pairs
        draws |= set(re.findall(r'"(流局|[^"]*流局|九種九牌|四[^"]{2}|三家和了|流し満貫|全員[^"]*)"', text))
    return yaku, draws


def test_every_name_in_the_real_records_is_a_spelling() -> None:
    yaku, draws = _record_words()
    assert len(yaku) > 20
    draw_like = {"流局", "九種九牌", "流し満貫"}
    unknown = sorted(w for w in yaku - draw_like if yaku_key(w) is None and draw_key(w) is None
                     and not w.startswith(("Emurated", "#")))
    assert unknown == []
    assert sorted(w for w in draws if draw_key(w) is None) == []


def test_what_the_writers_write_reads_back() -> None:
    """tenhou.net/6's writer spells each yaku, draw and limit by ``record_name``; the readers map it
    back to the same term."""
    for t in BY_KEY["yaku"].values():
        assert yaku_key(record_name("yaku", t.key) or "") == t.key, t.key
    for reason in events.DRAW_REASONS:
        word = record_name("draw", reason)
        assert word is not None and draw_key(word) == draw_key(reason)
    for t in LIMIT:
        word = record_name("limit", t.key)
        assert word is not None and limit_prefix(f"{word}8000点") == (t.key, word)


def test_words_in_each_language() -> None:
    assert term_name("yaku", "yakuhai_seat_wind", "ja") == "自風牌"
    assert term_name("yaku", "menzen_tsumo", "ja") == "門前清自摸和"
    assert term_name("fu", "kanchan", "en") == "closed wait (kanchan)"
    assert fu_line("pair 5z", "ja") == "白の雀頭" and fu_line("pair 5z", "en") == "pair of White"
    assert tile_name("N", "ja") == "北" and tile_name("5sr", "ja") == "赤5索"
    assert term_name("yaku", "a_new_yaku", "en") == "a new yaku"  # unnamed: shown as it is


def test_json_keys_are_not_words() -> None:
    """A score's JSON names yaku by key in every language (the vocabulary only puts them into words)."""
    s = sanma.score_hand("123456789p99m111z", win="9m", riichi=True, seat_wind="S", discarder_wind="W",
                         rules=Rules.preset("tenhou"))
    assert {y["name"] for y in json.loads(json.dumps(s.to_json()))["yaku"]} <= set(BY_KEY["yaku"])
