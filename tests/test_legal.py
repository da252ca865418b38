"""The legality predicates of ``sanma.game.legal`` and the win evaluation of ``sanma.game.winning``,
called directly (issue 10 item 5): pure functions over a seat's state, the wall and the rules —
no ``Game`` needed. Each test names its RULES_MATRIX row; the presets set the fields.

Also the shape of the split itself: engine.py stays a state machine of well under 1,000 lines,
and nothing outside ``sanma/game/`` reaches into a private name of ``Game`` or ``SeatState``.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from engine_helpers import build
from sanma.game import legal
from sanma.game.seat import CalledMeld, Discard, SeatState
from sanma.game.winning import Situation, can_win, pao_completed
from sanma.hand import Meld
from sanma.rules import Rules
from sanma.tiles import Tile, parse_tiles

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "sanma"
TENHOU = Rules.preset("tenhou")
CLUB = Rules.preset("club")
KANSAI = Rules.preset("kansai")
OFFICIAL = Rules.preset("official")


def seat(hand: str, *, river: str = "", melds: tuple[CalledMeld, ...] = (), riichi: bool = False,
         rules: Rules = TENHOU) -> SeatState:
    st = SeatState()
    for t in parse_tiles(hand):
        st.add(t)
    st.discards = [Discard(t, False) for t in parse_tiles(river)] if river else []
    st.melds = list(melds)
    st.riichi = riichi
    legal.update_waits(rules, st)
    return st


def tile(text: str) -> Tile:
    return Tile.parse(text)


def situation(rules: Rules, seats: list[SeatState], *, dora: str = "9m") -> Situation:
    return Situation(rules, seats, build(rules, dora=dora), dealer=0, round_wind="E", honba=0, kyotaku=0,
                     first_cycle=False, rinshan=False, window="dahai", kan_discard=False, riichi_pending=None)


def violation(rules: Rules, st: SeatState, discard: str, honba: int = 0) -> str:
    return legal.riichi_violation(rules, st, tile(discard), honba=honba, seat_wind="S", round_wind="E",
                                  other_wind="W", dora_indicators=(tile("9m"),))


# ------------------------------------------------------------------------------------------ riichi
def test_riichi_violation_noten_and_furiten_by_the_rules_P77_P80() -> None:
    """P80: discarding a tile that leaves no wait is a noten riichi; P77: a wait in one's own river
    (the riichi tile included) is a furiten riichi where the rules forbid it (club, kansai),
    clean where they allow it (Tenhou)."""
    hand = "123456789p11599s"  # discarding 5s waits on 1s / 9s (shanpon)
    assert violation(TENHOU, seat(hand), "5s") == ""
    assert violation(TENHOU, seat(hand), "1p") == "noten_riichi"
    assert violation(TENHOU, seat(hand, river="9s"), "5s") == ""  # furiten riichi allowed (P77 Tenhou)
    assert violation(CLUB, seat(hand, river="9s", rules=CLUB), "5s") == "furiten_riichi"
    assert violation(KANSAI, seat(hand, river="9s", rules=KANSAI), "5s") == "furiten_riichi"
    assert violation(CLUB, seat(hand, rules=CLUB), "5s") == ""
    # the function only reads the seat
    st = seat(hand)
    before = (list(st.counts), list(st.hand))
    violation(CLUB, st, "5s", honba=CLUB.shibari_from_honba)
    assert (st.counts, st.hand) == before


def test_riichi_wait_violation_is_what_a_bot_can_ask_from_its_counts_P77_P80() -> None:
    """The same rule over counts and river kinds only (what a bot's observation holds)."""
    st = seat("123456789p11599s")
    assert legal.riichi_wait_violation(CLUB, st.counts, {tile("1s").kind}, tile("5s")) == "furiten_riichi"
    assert legal.riichi_wait_violation(CLUB, st.counts, set(), tile("5s")) == ""
    assert legal.riichi_wait_violation(TENHOU, st.counts, set(), tile("2p")) == "noten_riichi"


def test_a_shibari_riichi_must_fix_two_han_P87() -> None:
    """P87 (CLUB): from ``shibari_from_honba`` honba a riichi must already fix 2 han on every wait."""
    cheap = seat("123456789p11599s", rules=CLUB)  # riichi + ittsu (closed 2 han) on both waits
    assert violation(CLUB, cheap, "5s", honba=CLUB.shibari_from_honba) == ""
    bare = seat("234p678p11s99s234s9p", rules=CLUB)  # riichi alone (no five: club fives are red)
    assert not legal.riichi_fixes_two_han(CLUB, bare, tile("9p"), (tile("1s").kind, tile("9s").kind),
                                          seat_wind="S", round_wind="E", other_wind="W",
                                          dora_indicators=(tile("9m"),))
    assert violation(CLUB, bare, "9p", honba=CLUB.shibari_from_honba) == "shibari_riichi"
    assert violation(CLUB, bare, "9p", honba=0) == ""


def test_riichi_allowed_needs_points_tiles_and_a_closed_hand_P79_P81() -> None:
    """P79: at least ``riichi_min_points``; P81: Tenhou needs one more own draw (3 tiles left),
    the official rules only that this draw is not the last; no riichi right after a call."""
    st = seat("123456789p11599s")
    assert legal.riichi_allowed(TENHOU, st, 1000, 3, after_call=False)
    assert not legal.riichi_allowed(TENHOU, st, 900, 3, after_call=False)
    assert not legal.riichi_allowed(TENHOU, st, 1000, 2, after_call=False)
    assert legal.riichi_allowed(OFFICIAL, st, 1000, 1, after_call=False)
    assert not legal.riichi_allowed(OFFICIAL, st, 1000, 0, after_call=False)
    assert not legal.riichi_allowed(TENHOU, st, 25000, 30, after_call=True)
    opened = seat("123456789p599s", melds=(CalledMeld(Meld("pon", parse_tiles("111s")), 1, tile("1s")),))
    assert not legal.riichi_allowed(TENHOU, opened, 25000, 30, after_call=False)
    # P79 (CLUB, A000-19): with 1,000 or less a riichi is a bust — declarable only at an emulated table
    assert not legal.riichi_allowed(CLUB, st, 1000, 30, after_call=False)
    assert legal.riichi_allowed(CLUB, st, 1000, 30, after_call=False, table_mistakes=True)


def test_which_riichi_violations_are_offered_P80() -> None:
    """P80 / §5.5: never where the rules make them impossible; a furiten riichi where it is a
    chombo; a noten or 2-han riichi only at an emulated table."""
    assert legal.riichi_offered(TENHOU, "", False)
    assert not legal.riichi_offered(TENHOU, "furiten_riichi", True)  # "impossible"
    assert legal.riichi_offered(CLUB, "furiten_riichi", False)
    assert not legal.riichi_offered(CLUB, "noten_riichi", False)
    assert legal.riichi_offered(CLUB, "noten_riichi", True)
    assert legal.noten_riichi_offered(CLUB, True) and not legal.noten_riichi_offered(TENHOU, True)


# --------------------------------------------------------------------------------------------- kan
def test_kan_possible_only_below_four_kans_with_tiles_left_P13() -> None:
    wall = build(TENHOU, dora="9m")
    assert legal.kan_possible(TENHOU, wall, 0)
    assert not legal.kan_possible(TENHOU, wall, 4)
    remaining = wall.remaining
    legal.kan_possible(TENHOU, wall, 0)
    assert wall.remaining == remaining  # tried on a copy


def test_ankan_after_riichi_drawn_tile_only_and_waits_kept_P84_A003_18() -> None:
    """P84: no okuri-kan anywhere; the standard rule keeps the waits and the triplet in every
    reading; KANSAI (A003-18) allows any ankan with the drawn tile."""
    riichi = seat("1112p345s678s999s", riichi=True)  # waits 2p / 3p; 1p is not a triplet in 11+123
    riichi.add(tile("1p"))
    assert not legal.ankan_allowed(TENHOU, riichi, tile("1p").kind, tile("1p"))  # waits would change
    assert legal.ankan_allowed(KANSAI, riichi, tile("1p").kind, tile("1p"))
    assert not legal.ankan_allowed(KANSAI, riichi, tile("1p").kind, tile("2p"))  # okuri-kan (P84)
    clean = seat("111p345s678s999s5p", riichi=True)  # tanki 5p
    clean.add(tile("1p"))
    assert legal.ankan_allowed(TENHOU, clean, tile("1p").kind, tile("1p"))
    assert legal.ankan_allowed(TENHOU, seat("1111p345s678s99s5p"), tile("1p").kind, None)  # no riichi


def test_kind_always_triplet_leaves_its_counts_as_they_were_P84() -> None:
    """The reading test behind P84. It used to change the seat's counts when it answered False
    (Game._kind_always_triplet left the wait it tried added); now it reads a copy."""
    st = seat("1112p345s678s999s")
    st.add(tile("1p"))
    counts = list(st.counts)
    assert not legal.kind_always_triplet(st.counts, (tile("2p").kind, tile("3p").kind), tile("1p").kind)
    assert st.counts == counts


# ------------------------------------------------------------------------------------------ furiten
def test_furiten_by_the_river_and_by_a_win_let_pass_P75() -> None:
    st = seat("123456789p1199s")  # shanpon 1s / 9s
    assert not legal.furiten(TENHOU, st)
    st.discards = [Discard(tile("9s"), False)]
    assert legal.furiten(TENHOU, st) and legal.furiten(TENHOU, st, tile("1s"))
    other = seat("123456789p1199s")
    other.furiten_same_turn = True
    assert legal.furiten(TENHOU, other)


def test_thirteen_sided_kokushi_under_the_club_relaxed_rule_P78() -> None:
    """P78 (CLUB): a 13-sided kokushi is barred only from the tiles it discarded itself, and from
    any ron right after it discarded a terminal or honour; the standard rule bars every wait."""
    kokushi = tuple(t.kind for t in parse_tiles("19m19p19s1234567z"))
    assert len(set(kokushi)) == 13
    river = {tile("1m").kind}
    assert legal.river_furiten(TENHOU, kokushi, river, tile("5p").kind, tile("9s"))
    assert not legal.river_furiten(CLUB, kokushi, river, tile("5p").kind, tile("9s"))
    assert legal.river_furiten(CLUB, kokushi, river, tile("5p").kind, tile("1m"))
    assert legal.river_furiten(CLUB, kokushi, river, tile("7z").kind, tile("9s"))  # after a honour discard


# ------------------------------------------------------------------------------------------- tenpai
def test_karaten_counts_a_called_discard_once_P47() -> None:
    """P47 karaten: a wait is dead only when all four copies are in sight. A ponned discard stays
    in the river (marked called) and is also in the meld: it is one tile, counted once (it used to
    be counted twice, making a live tanki look karaten)."""
    me = seat("123456789s46p11p")  # kanchan on 5p, none of them held
    caller = seat("1234s", melds=(CalledMeld(Meld("pon", parse_tiles("555p")), 2, tile("5p")),))
    feeder = seat("")
    feeder.discards = [Discard(tile("5p"), False, called=True)]
    assert legal.visible_counts([me, caller, feeder], ())[tile("5p").kind] == 3
    no_karaten = dataclasses.replace(TENHOU, tenpai_karaten=False)
    sit = situation(no_karaten, [me, caller, feeder])
    assert legal.is_tenpai(sit, 0)  # the fourth 5p is still unseen
    caller.discards = [Discard(tile("5p"), False)]  # ... and now it is in sight
    assert not legal.is_tenpai(situation(no_karaten, [me, caller, feeder]), 0)
    assert legal.is_tenpai(situation(TENHOU, [me, caller, feeder]), 0)  # karaten is tenpai (P47 default)


def test_tenpai_needs_a_yaku_under_the_club_rules_P47() -> None:
    """P47 (CLUB, A000-16): a yakuless (形式) tenpai is not tenpai at a draw; with riichi it is."""
    opened = SeatState()  # waits 3p / 6p; open, no yaku on either
    for t in parse_tiles("789p123s11s45p"):
        opened.add(t)
    opened.melds = [CalledMeld(Meld("pon", parse_tiles("999s")), 1, tile("9s"))]
    legal.update_waits(CLUB, opened)
    assert opened.waits
    seats = [opened, seat(""), seat("")]
    assert not legal.is_tenpai(situation(CLUB, seats), 0)
    assert legal.is_tenpai(situation(TENHOU, seats), 0)


def test_sakizuke_needs_a_yaku_on_every_wait_P67() -> None:
    """P67 (KANSAI 確定1翻縛り): an open hand whose haku pon fixes a yaku wins on every wait;
    one whose only yaku comes from the winning tile (katagari) does not."""
    fixed = SeatState()
    for t in parse_tiles("234p567p11s45s"):
        fixed.add(t)
    fixed.melds = [CalledMeld(Meld("pon", parse_tiles("555z")), 1, tile("5z"))]
    legal.update_waits(KANSAI, fixed)
    sit = situation(KANSAI, [seat(""), fixed, seat("")])
    assert can_win(sit, 1, tile("3s"), tsumo=False, discarder=0)
    katagari = SeatState()
    for t in parse_tiles("234p567p11s55z"):
        katagari.add(t)
    katagari.melds = [CalledMeld(Meld("pon", parse_tiles("999s")), 2, tile("9s"))]
    legal.update_waits(KANSAI, katagari)  # shanpon 1s / haku: only haku gives a yaku
    sit = situation(KANSAI, [seat(""), katagari, seat("")])
    assert not can_win(sit, 1, tile("5z"), tsumo=False, discarder=0)
    assert can_win(situation(TENHOU, [seat(""), katagari, seat("")]), 1, tile("5z"), tsumo=False, discarder=0)


def test_pao_completed_names_the_yakuman_a_call_completes_P97() -> None:
    dragons = [CalledMeld(Meld("pon", parse_tiles(f"{k}{k}{k}z")), 1, tile(f"{k}z")) for k in (5, 6, 7)]
    assert pao_completed(TENHOU, dragons, tile("7z").kind) == ("daisangen",)
    assert pao_completed(TENHOU, dragons[:2], tile("6z").kind) == ()


def test_pairs_a_red_five_makes_two_choices() -> None:
    hand = list(parse_tiles("550p1s"))
    assert len(legal.pairs(hand, tile("5p").kind)) == 2
    assert legal.pairs(hand, tile("1s").kind) == []


# -------------------------------------------------------------------------------- the split itself
def test_engine_py_is_a_state_machine_under_1000_lines() -> None:
    lines = (SRC / "game" / "engine.py").read_text().count("\n")
    assert lines < 1000, f"engine.py has {lines} lines"


def _private_names() -> set[str]:
    """Private attribute and method names of ``Game`` and ``SeatState`` (not dunders)."""
    names: set[str] = set()
    for path, cls in ((SRC / "game" / "engine.py", "Game"), (SRC / "game" / "seat.py", "SeatState")):
        tree = ast.parse(path.read_text())
        node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        for sub in ast.walk(node):
            name = None
            if isinstance(sub, ast.FunctionDef):
                name = sub.name
            elif isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                name = sub.attr
            elif isinstance(sub, ast.AnnAssign) and isinstance(sub.target, ast.Name):
                name = sub.target.id
            if name and name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return names


def test_nothing_outside_the_game_package_uses_a_private_name_of_game() -> None:
    """Issue 10: bots, replay, store, sim, env, web and the CLI go through Game's public API and
    the public functions of game/legal.py and game/winning.py — never ``game._name``. (``self._x``
    is a module's own attribute, whatever its name.)"""
    private = _private_names()
    assert {"_pending", "_drawn", "_situation", "_turn"} <= private  # the scan sees what it looks for
    hits = []
    for path in sorted(SRC.rglob("*.py")):
        if path.parent.name == "game" or "_compiled" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                hits.append(f"{path.relative_to(SRC)}:{node.lineno} .{node.attr}")
    assert hits == []


def test_the_private_scan_would_catch_a_reach_into_the_engine(tmp_path: Path) -> None:
    source = "def f(game):\n    return game._drawn, self._drawn\n"
    private = _private_names()
    hits = [n.attr for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Attribute) and n.attr in private
            and not (isinstance(n.value, ast.Name) and n.value.id == "self")]
    assert hits == ["_drawn"]


def test_a_copied_game_plays_on_with_its_own_situation() -> None:
    """``copy.deepcopy`` of a game in progress (the invariant tests try every action on a copy)
    copies the hand's ``Situation`` with the copied seats and wall — also when compiled, where a
    class has no default copy — and the copy plays on exactly as the original does."""
    import copy
    import random

    from sanma.game.engine import Game

    g = Game(CLUB, seed=4)
    rng = random.Random(1)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions(g.to_move[0])))
    c = copy.deepcopy(g)
    assert c._situation().seats is c.seats and c._situation().wall is c.wall
    assert c._situation() is not g._situation()
    for game in (g, c):
        r = random.Random(2)
        while not game.done and len(game.events) < 2000:
            game.apply(r.choice(game.legal_actions(game.to_move[0])))
    assert c.events == g.events
