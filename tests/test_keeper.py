"""The score keeper (issue 12): kept games from entered outcomes, corrections, penalties, chips,
seed 000's four-person series, standings and storage, through the Python API and `sanma table`."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sanma.cli import app
from sanma.keeper.entries import KeeperError
from sanma.keeper.keeper import Keeper
from sanma.rules.schema import Rules
from sanma.store import StoreError, open_db
from sanma.store.keeper import VersionConflict
from shared_data import data_path

CLUB = Rules.preset("club")


def ron(winner: str, loser: str, han: int = 0, fu: int = 0, *, yakuman: int = 0, riichi: tuple[str, ...] = (),
        **extra: Any) -> dict[str, Any]:
    w: dict[str, Any] = {"winner": winner, **extra}
    if yakuman:
        w["yakuman"] = yakuman
    else:
        w.update(han=han, fu=fu)
    return {"kind": "win", "from": loser, "wins": [w], "riichi": list(riichi)}


def tsumo(winner: str, han: int = 0, fu: int = 0, **extra: Any) -> dict[str, Any]:
    return {"kind": "win", "wins": [{"winner": winner, "han": han, "fu": fu, **extra}]}


# --- a kept game ---------------------------------------------------------------------------------

def test_state_has_the_contract_fields(keeper: Keeper) -> None:
    """ARCHITECTURE "The score keeper": session, rules, people, game, finished, hand, seats, scores,
    chips, hands, standings; --people is the seat draw and North sits out game 1 (P126)."""
    s = keeper.new(CLUB, ["Aki", "Ben", "Chie", "Dan"])
    for key in ("session", "rules", "people", "game", "finished", "hand", "seats", "scores", "chips", "hands",
                "standings"):
        assert key in s
    assert s["hand"] == {"round": "E", "number": 1, "lap": 0, "honba": 0, "sticks": 0, "dealer": "Aki", "index": 1}
    assert s["seats"] == {"Aki": "E", "Ben": "S", "Chie": "W", "Dan": None}
    assert s["scores"] == {"Aki": 15000, "Ben": 15000, "Chie": 15000} and s["game"] == 1 and not s["finished"]


def test_p43_p48_riichi_sticks_honba_and_dealer_rotation(keeper: Keeper) -> None:
    """P43/P44 club honba 1,500 / 500, P48 riichi stick to the winner, P36 dealer repeats after a win."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, ron("A", "B", 4, 30, riichi=("A", "C")))  # seed 000 L48: dealer 30 fu 4 han = 11,600
    assert s["scores"] == {"A": 15000 + 11600 + 1000, "B": 15000 - 11600, "C": 14000}
    assert s["hand"]["honba"] == 1 and s["hand"]["dealer"] == "A"
    s = keeper.add(sid, ron("C", "A", 1, 30))  # 1,000 + 1 honba x 1,500
    assert s["hands"][-1]["deltas"] == {"A": -2500, "B": 0, "C": 2500}
    assert s["hand"] == {"round": "E", "number": 2, "lap": 0, "honba": 0, "sticks": 0, "dealer": "B", "index": 3}


def test_p46_draw_noten_per_pair_and_p47_riichi_must_be_tenpai(keeper: Keeper) -> None:
    """P46 club: each noten player pays 1,000 to each tenpai player (A000-8); P80: a riichi player
    who is not tenpai at the draw is a chombo, refused as a draw."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "draw", "tenpai": ["B"]})
    assert s["hands"][-1]["deltas"] == {"A": -1000, "B": 2000, "C": -1000}
    assert s["hand"]["dealer"] == "B" and s["hand"]["honba"] == 1  # P37 noten dealer passes; A000-18
    with pytest.raises(KeeperError, match="noten riichi is a chombo"):
        keeper.add(sid, {"kind": "draw", "tenpai": ["A"], "riichi": ["B"]})


def test_by_tiles_and_by_value_give_the_same_game(keeper: Keeper) -> None:
    """The same game entered by tiles (scored by score_hand with the game's winds and honba) and by
    han/fu gives the same result."""
    a = keeper.new(CLUB, ["A", "B", "C"])["session"]
    b = keeper.new(CLUB, ["A", "B", "C"])["session"]
    # B (South) tsumo: ittsu 2 + menzen tsumo 1 + a 5p (always dora, P06) 1 = 4 han 40 fu
    tiles = {"kind": "win", "wins": [{"winner": "B", "hand": "123456789p99m111s", "win": "9m"}]}
    s1 = keeper.add(a, tiles)
    won = s1["hands"][-1]["summary"]
    assert "4 han 40 fu" in won
    s2 = keeper.add(b, tsumo("B", 4, 40))
    assert s1["scores"] == s2["scores"]
    s1 = keeper.add(a, {"kind": "win", "from": "A", "wins": [{"winner": "C", "hand": "111999p111999s11z",
                                                              "win": "1z"}]})
    s2 = keeper.add(b, ron("C", "A", yakuman=2))  # suuankou tanki: a double yakuman in seed 000 (L211)
    assert s1["scores"] == s2["scores"] and s1["chips"] == s2["chips"]


def test_p129_official_a_winning_tile_mixed_into_the_hand_scores_the_lowest_shape(keeper: Keeper) -> None:
    """P129 / seed 002 L131-132 「引きヅモ…※あがり牌を手牌の中に入れた場合、最低点でのあがり形となります」:
    with ``--win mixed`` the hand scores as the lowest shape any of its tiles gives as the winning
    tile. 234567p 234s 55s 678s: a 4p or 7p is pinfu tanyao (2 han), a 3p kanchan tanyao alone (1 han).
    Rules that do not say (``mixed_win_tile = "undefined"``, the club) refuse it and store nothing."""
    official = Rules.preset("official")
    assert official.mixed_win_tile == "lowest" and CLUB.mixed_win_tile == "undefined"
    hand = "234567p234s55s678s"

    def win(tile: str) -> dict[str, Any]:
        return {"kind": "win", "from": "B", "wins": [{"winner": "A", "hand": hand, "win": tile}]}

    known = keeper.add(keeper.new(official, ["A", "B", "C"])["session"], win("4p"))
    assert "2 han 30 fu" in known["hands"][-1]["summary"]
    sid = keeper.new(official, ["A", "B", "C"])["session"]
    mixed = keeper.add(sid, win("mixed"))
    assert "1 han 30 fu" in mixed["hands"][-1]["summary"] and "P129" in mixed["hands"][-1]["summary"]
    assert mixed["hands"][-1]["deltas"]["A"] < known["hands"][-1]["deltas"]["A"]
    club = keeper.new(CLUB, ["A", "B", "C"])["session"]
    with pytest.raises(KeeperError, match="does not say how a winning tile mixed into the hand"):
        keeper.add(club, win("mixed"))
    assert keeper.state(club)["hands"] == []
    with pytest.raises(KeeperError, match="no tile of"):
        keeper.add(sid, {"kind": "win", "from": "B", "wins": [{"winner": "A", "hand": "1111p2222s3333s99m",
                                                              "win": "mixed"}]})


def test_p64_club_two_han_minimum_from_four_honba(keeper: Keeper) -> None:
    """P64 / seed 000 L75 「4本場から2ハン縛りとする」: a 1-han win at 4 honba is refused (a chombo, L269)."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    for _ in range(4):
        keeper.add(sid, {"kind": "draw", "tenpai": ["A", "B", "C"]})  # everyone tenpai: dealer repeats
    s = keeper.state(sid)
    assert s["hand"]["honba"] == 4
    with pytest.raises(KeeperError, match="below the 2-han minimum at 4 honba"):
        keeper.add(sid, ron("B", "C", 1, 30))
    assert keeper.add(sid, ron("B", "C", 2, 30))["hand"]["honba"] == 0


@pytest.mark.parametrize(("entry", "message"), [
    (ron("Zed", "B", 2, 30), "Zed is not at the table"),
    (ron("A", "A", 2, 30), "cannot ron their own discard"),
    (ron("A", "B", 0, 30), "han 0 is not a win"),
    (ron("A", "B", 2, 27), "fu 27 does not exist"),
    ({"kind": "win", "from": "B", "wins": [{"winner": "A", "hand": "234p678p234s678s99m", "win": "9m"}]},
     "not a win"),
    ({"kind": "win", "wins": [{"winner": "A", "hand": "123m456p789p11z", "win": "1z"}]}, "2m is not in the sanma"),
    ({"kind": "abort", "abort": "all_riichi"}, "does not exist under club"),
    ({"kind": "penalty", "who": "A", "penalty": "false_call", "points": 100}, "only a 'free' penalty"),
    ({"kind": "teleport"}, "entry kind 'teleport' unknown"),
])
def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(keeper: Keeper, entry: dict[str, Any],
                                                                     message: str) -> None:
    """Issue 12: a winner not at the table, ron from oneself, han 0, fu 27, a yakuless hand → a
    clear error; the session keeps its version and entries."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30))
    with pytest.raises(KeeperError, match=message):
        keeper.add(sid, entry)
    assert keeper.state(sid)["version"] == 1 and len(keeper.log(sid)) == 1


def test_a_correction_of_a_hand_that_does_not_exist_is_refused(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30))
    with pytest.raises(KeeperError, match="no entry 5"):
        keeper.fix(sid, 5, ron("A", "C", 2, 30))
    with pytest.raises(KeeperError, match="no entry 2"):
        keeper.fix(sid, 2, None)
    with pytest.raises(StoreError, match="no kept session 99"):
        keeper.state(99)


def test_preview_shows_every_payment_and_saves_nothing(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    p = keeper.add(sid, ron("B", "A", 3, 30, riichi=("B",)), preview=True)
    assert p["preview"] and p["hands"][-1]["deltas"] == {"A": -3900, "B": 3900, "C": 0}
    assert p["hands"][-1]["payments"][0]["deltas"] == {"A": -3900, "B": 4900, "C": 0}
    assert keeper.state(sid)["version"] == 0 and keeper.state(sid)["hands"] == []


# --- corrections ---------------------------------------------------------------------------------

def test_fix_recomputes_everything_after_and_undo_restores(keeper: Keeper) -> None:
    """Issue 12 item 2: a past hand changed → every later hand recomputed (here the honba of the
    next hand); the change is kept with who/why and can itself be undone."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30))  # dealer win: 1 honba
    keeper.add(sid, ron("C", "B", 1, 30))  # 1,000 + 1,500
    before = keeper.state(sid)
    assert before["hands"][1]["deltas"]["C"] == 2500
    s = keeper.fix(sid, 1, ron("B", "A", 2, 30), author="Aki", reason="it was B's win")
    assert s["hands"][1]["honba"] == 0 and s["hands"][1]["deltas"]["C"] == 1000  # B won: deal passed
    assert s["hands"][1]["label"] == "E2"
    log = keeper.log(sid)
    assert log[-1]["kind"] == "fix" and log[-1]["author"] == "Aki" and log[-1]["reason"] == "it was B's win"
    s = keeper.undo(sid)
    assert s["scores"] == before["scores"] and s["hands"][1]["deltas"] == before["hands"][1]["deltas"]
    s = keeper.undo(sid, change=len(keeper.log(sid)))  # undo the undo: the fix is back
    assert s["hands"][1]["honba"] == 0
    s = keeper.fix(sid, 1, None, reason="never happened")
    assert len(s["hands"]) == 1 and s["hands"][0]["deltas"]["C"] == 1000
    assert [c["kind"] for c in keeper.log(sid)] == ["add", "add", "fix", "undo", "undo", "delete"]


def test_a_fix_that_makes_a_later_hand_impossible_is_refused(keeper: Keeper) -> None:
    """A correction that would leave a later entry inconsistent is refused and changes nothing:
    made a bust, hand 1 ends game 1, so hand 2 falls in game 2, where Chie (2nd) sits out (P126)."""
    sid = keeper.new(CLUB, ["Aki", "Ben", "Chie", "Dan"])["session"]
    keeper.add(sid, ron("Aki", "Ben", 1, 30))
    keeper.add(sid, ron("Chie", "Ben", 1, 30))
    with pytest.raises(KeeperError, match="entry 2: winner: Chie is not at the table in game 2"):
        keeper.fix(sid, 1, ron("Aki", "Ben", yakuman=1))
    assert keeper.state(sid)["version"] == 2


_outcome = st.one_of(
    st.tuples(st.just("ron"), st.sampled_from("ABC"), st.sampled_from("ABC"), st.integers(1, 6),
              st.sampled_from([30, 40])),
    st.tuples(st.just("tsumo"), st.sampled_from("ABC"), st.just(""), st.integers(1, 6), st.sampled_from([30, 40])),
    st.tuples(st.just("draw"), st.sampled_from(["", "A", "AB", "BC", "ABC"]), st.just(""), st.just(0), st.just(0)),
)


def _entry(o: tuple[str, str, str, int, int]) -> dict[str, Any] | None:
    kind, a, b, han, fu = o
    if kind == "ron":
        return None if a == b else ron(a, b, han, fu)
    if kind == "tsumo":
        return tsumo(a, han, fu)
    return {"kind": "draw", "tenpai": list(a)}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_outcome, min_size=2, max_size=12), st.integers(0, 100), _outcome)
def test_correcting_hand_k_then_restoring_it_gives_the_original_standings(
        keeper: Keeper, outcomes: list[tuple[str, str, str, int, int]], k: int,
        other: tuple[str, str, str, int, int]) -> None:
    """Property (issue 12): for random outcome sequences, fixing hand k to something else and then
    fixing it back gives the original state — standings, scores, chips — whatever came after."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    entries = []
    for o in outcomes:
        e = _entry(o)
        if e is None:
            continue
        try:
            keeper.add(sid, e)
        except KeeperError:
            continue  # e.g. the game is over, or shibari: not part of this sequence
        entries.append(e)
    if not entries:
        return
    original = keeper.state(sid)
    n = k % len(entries) + 1
    replacement = _entry(other)
    try:
        if replacement is not None:
            keeper.fix(sid, n, replacement)
    except KeeperError:
        pass  # a replacement that does not fit is refused: nothing changed
    restored = keeper.fix(sid, n, original["hands"][n - 1]["entry"])
    for key in ("standings", "scores", "chips", "hand", "games", "finished"):
        assert restored[key] == original[key]


# --- penalties (P100-P107) -----------------------------------------------------------------------

def test_p100_p101_club_chombo_mangan_payment_hand_void_sticks_returned(keeper: Keeper) -> None:
    """P100 / A000-14: a non-dealer's chombo is a reversed mangan tsumo (4,000 to the dealer, 2,000
    to the other); P101: the hand did not happen — same dealer, honba unchanged."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "chombo", "who": "B", "reason": "誤ロン"})
    assert s["hands"][-1]["deltas"] == {"A": 4000, "B": -6000, "C": 2000}
    assert s["hand"]["dealer"] == "A" and s["hand"]["honba"] == 0 and s["hand"]["sticks"] == 0


def test_p104_club_false_pon_three_chips_to_the_table_won_by_the_next_winner(keeper: Keeper) -> None:
    """P104 seed 000: 誤ポン puts 3 chips on the table; carried over a draw (A000-27); the next
    winner takes them."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "penalty", "who": "C", "penalty": "false_call"})
    assert s["pot"] == {"sticks": 0, "chips": 3} and s["chips"]["C"] == -3
    keeper.add(sid, {"kind": "draw", "tenpai": ["A"]})
    s = keeper.add(sid, ron("B", "A", 1, 30))
    assert s["chips"] == {"A": 0, "B": 3, "C": -3} and s["pot"]["chips"] == 0


def test_p32_table_chips_left_at_the_end_go_to_the_top(keeper: Keeper) -> None:
    """P32 / A000-27 seed 000 L283 「半荘終了時に留保されたチップはトップが受け取る」: chips deposited by a
    false pon that nobody won are the top's at the end (here the game ends by C's chombos, P108)."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, {"kind": "penalty", "who": "B", "penalty": "false_call"})
    for _ in range(3):
        s = keeper.add(sid, {"kind": "chombo", "who": "C"})
    (g,) = s["games"]
    assert g["end_reason"] == "bust" and g["ranks"]["A"] == 1
    # uma in chips +4/-1/-3 (P27); the 3 table chips to A; C's bust in East 1 pays each of the
    # others 3 + 5 (P110, P112)
    assert g["chips"] == {"A": 4 + 3 + 8, "B": -3 - 1 + 8, "C": -3 - 16}


def test_p103_club_short_hand_is_dead_no_win_and_noten(keeper: Keeper) -> None:
    """P103 seed 000 L249: 少牌 → 上がり放棄, the hand goes on; that player cannot win or be tenpai."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, {"kind": "penalty", "who": "B", "penalty": "short_hand"})
    with pytest.raises(KeeperError, match="dead hand"):
        keeper.add(sid, ron("B", "A", 2, 30))
    with pytest.raises(KeeperError, match="dead hand"):
        keeper.add(sid, {"kind": "draw", "tenpai": ["B"]})
    s = keeper.add(sid, {"kind": "draw", "tenpai": ["A"]})
    assert s["hand"]["dealer"] == "A"
    keeper.add(sid, ron("B", "A", 2, 30))  # the next hand: alive again


def test_p102_club_false_win_long_hand_and_wall_collapse_are_chombo(keeper: Keeper) -> None:
    """P102 seed 000: 誤ツモ/誤ロン (L245), 多牌 (L254), an unrecoverable wall collapse (L256) are chombo."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    for kind in ("false_win", "long_hand", "wall_collapse"):
        s = keeper.add(sid, {"kind": "penalty", "who": "C", "penalty": kind})
        assert s["hands"][-1]["deltas"] == {"A": 4000, "B": 2000, "C": -6000}
        assert s["hands"][-1]["kind"] == "chombo"
    assert s["finished"] and s["games"][0]["end_reason"] == "bust"  # C paid 18,000 of 15,000 (P108)


def test_p105_official_riichi_mistakes_three_cases(keeper: Keeper) -> None:
    """P85 / P105 seed 002 L85-92: a riichi call alone → 1,000 to the table; withdrawn before the next
    discard → dead hand; found after it → a chombo at the draw (−20 at the end, P100)."""
    official = Rules.preset("official")
    sid = keeper.new(official, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "penalty", "who": "B", "penalty": "riichi_voice"})
    assert s["scores"]["B"] == 39000 and s["hand"]["sticks"] == 1
    keeper.add(sid, {"kind": "penalty", "who": "C", "penalty": "riichi_cancelled"})
    with pytest.raises(KeeperError, match="dead hand"):
        keeper.add(sid, tsumo("C", 1, 30))
    keeper.add(sid, {"kind": "penalty", "who": "A", "penalty": "riichi_late"})
    s = keeper.add(sid, {"kind": "draw", "tenpai": ["B"]})
    assert s["hands"][-1]["kind"] == "chombo" and s["hands"][-1]["deltas"] == {"A": 0, "B": 0, "C": 0}
    assert s["hand"]["sticks"] == 1 and s["hand"]["dealer"] == "A"  # P101: no game; the 1,000 stays


def test_p106_free_penalty_with_reason_and_cancellation(keeper: Keeper) -> None:
    """P106 seed 000 L290: an intentional chombo is decided at the table: a free penalty with its
    reason and author, cancelled by deleting it."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "penalty", "who": "A", "penalty": "free", "points": 8000, "chips": 10,
                         "reason": "intentional chombo"}, author="Ben")
    assert s["scores"] == {"A": 7000, "B": 19000, "C": 19000} and s["chips"]["A"] == -10
    assert keeper.log(sid)[-1]["author"] == "Ben"
    s = keeper.fix(sid, 1, None, reason="cancelled: not intentional")
    assert s["scores"] == {"A": 15000, "B": 15000, "C": 15000}


def test_p107_club_small_wall_collapse_has_no_penalty(keeper: Keeper) -> None:
    """P107 seed 000 L301 「小規模の山崩しの場合の罰則を無くした」: a riichi_voice (no rule in 000) costs nothing."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "penalty", "who": "A", "penalty": "riichi_voice"})
    assert "no penalty" in s["hands"][-1]["summary"] and s["scores"]["A"] == 15000


# --- storage and concurrency -----------------------------------------------------------------------

def test_client_id_and_expected_version(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30), client_id="tap-1")
    s = keeper.add(sid, ron("A", "B", 2, 30), client_id="tap-1")  # the phone sent it again
    assert len(s["hands"]) == 1 and s["version"] == 1
    with pytest.raises(VersionConflict):
        keeper.add(sid, ron("C", "B", 2, 30), expected_version=0)
    assert keeper.add(sid, ron("C", "B", 2, 30), expected_version=1)["version"] == 2


def test_two_devices_entering_and_correcting_one_game_lose_and_double_nothing(tmp_path: Path) -> None:
    """Issue 12 item 2: two clients (threads, own connections) on one database, each entering its
    hands and correcting them with retries on version conflicts: every hand once, every fix applied."""
    path = tmp_path / "t.sqlite"
    with open_db(path) as store:
        sid = Keeper(store).new(CLUB, ["A", "B", "C"])["session"]
    errors: list[BaseException] = []

    def device(name: str, winner: str, loser: str) -> None:
        with open_db(path) as store:
            k = Keeper(store)
            try:
                for i in range(6):
                    for _ in range(2):  # sent twice (flaky network): stored once
                        k.add(sid, {"kind": "draw", "tenpai": [winner]}, client_id=f"{name}-{i}", author=name)
                while True:  # then correct its first entry, retrying on a version conflict
                    state = k.state(sid)
                    mine = next(h["no"] for h in state["hands"] if h["entry"]["tenpai"] == [winner])
                    try:
                        k.fix(sid, mine, {"kind": "draw", "tenpai": [winner, loser]}, author=name,
                              expected_version=state["version"])
                        break
                    except VersionConflict:
                        continue
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

    threads = [threading.Thread(target=device, args=a) for a in (("x", "A", "B"), ("y", "C", "B"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with open_db(path) as store:
        k = Keeper(store)
        s = k.state(sid)
        tenpai = sorted("".join(h["entry"]["tenpai"]) for h in s["hands"])
        assert len(s["hands"]) == 12 and s["version"] == 14
        assert tenpai.count("AB") == 1 and tenpai.count("CB") == 1 and tenpai.count("A") == 5


# --- seed 000's series (P28, P110-P112, P120, P121, P124, P126) -------------------------------------

def test_club_evening_of_eight_games_with_four_people(keeper: Keeper) -> None:
    """Seed 000 with four people: North sits out game 1, then the previous second (P126); a
    double-box bust in East 1 with its extra chips (P110-P112, A000-9); Aki's 4th and 5th
    consecutive tops earn 10 and 5 chips from each other player (P120); consecutive lasts double
    the next game's uma (P28, A000-10); a reseat after four games; the first dealer not on top
    pays 3 chips to each other player when nobody busts (P121); standings over the evening."""
    sid = keeper.new(CLUB, ["Aki", "Ben", "Chie", "Dan"], series="club-night")["session"]
    s = keeper.add(sid, {"kind": "seating", "dealer": "Chie"})  # the dice chose Chie as first dealer
    assert s["seats"] == {"Aki": "S", "Ben": "W", "Chie": "E", "Dan": None}
    s = keeper.add(sid, ron("Aki", "Ben", yakuman=1, yaku=["daisangen"]))  # East 1: Ben 15,000 - 32,000
    g1 = s["games"][0]
    assert s["finished"] and g1["end_reason"] == "bust" and g1["scores"]["Ben"] == -17000
    # chips: yakuman ron 30 (P116) + bust 3 + a second box 3 (A000-9) + East 1 non-dealer 5 (P112) + uma 4/-1/-3
    assert g1["chips"] == {"Aki": 30 + 11 + 4, "Ben": -30 - 11 - 3, "Chie": -1}
    assert s["next"]["sitting_out"] == "Chie" and s["seats"]["Dan"] is None
    # Game 2: Aki, Ben, Dan (table order E S N); Aki rolled (last winner, P124) and deals by default.
    assert s["next"]["roller"] == "Aki" and s["next"]["dealer"] == "Aki"
    s = keeper.add(sid, ron("Aki", "Ben", yakuman=1))
    assert s["games"][1]["ranks"] == {"Aki": 1, "Dan": 2, "Ben": 3}
    assert s["next"]["sitting_out"] == "Dan" and s["next"]["uma_multiplier"] == 2  # Aki 2 tops, Ben 2 lasts
    s = keeper.add(sid, ron("Aki", "Chie", yakuman=1))  # game 3 with doubled uma (and one more queued)
    g3 = s["games"][2]
    assert g3["uma_multiplier"] == 2 and g3["chips"]["Ben"] == -1 * 2
    s = keeper.add(sid, ron("Aki", "Chie", yakuman=1))  # game 4: Aki's 4th top in a row
    g4 = s["games"][3]
    assert g4["streak_chips"]["Aki"] == 10 + 10  # P120: 10 from each of the two others
    assert s["next"]["reseat_due"]
    s = keeper.add(sid, {"kind": "seating", "draw": ["Dan", "Chie", "Ben", "Aki"]})  # Aki drew North
    assert s["next"]["sitting_out"] == g4_second(g4) and s["next"]["roller"] != g4_second(g4)
    s = keeper.add(sid, ron("Aki", next_loser(s), yakuman=1))  # game 5: 5th top: 5 from each
    assert s["games"][4]["streak_chips"]["Aki"] == 10
    s = keeper.add(sid, ron(other_than(s, "Aki"), "Aki", yakuman=1))  # game 6: Aki busts, streak over
    assert s["games"][5]["ranks"]["Aki"] == 3
    s = keeper.add(sid, ron(other_than(s, "Aki"), "Aki", yakuman=1))  # game 7
    # Game 8: nobody busts; the first dealer ends second: pays 3 to each (P121). Five noten draws,
    # then the last dealer noten → third East lap (P34), ended by a non-dealer win.
    players = [p for p, w in s["next"]["seats"].items() if w is not None]
    first = s["next"]["dealer"]
    for _ in range(6):
        s = keeper.add(sid, {"kind": "draw", "tenpai": []})
    assert not s["finished"] and s["hand"]["lap"] == 2  # club_laps overtime
    winner = next(p for p in players if p != s["hand"]["dealer"] and p != first)
    loser = next(p for p in players if p not in (winner, first))
    s = keeper.add(sid, ron(winner, loser, 2, 30))
    g8 = s["games"][7]
    assert g8["end_reason"] == "overtime_non_dealer_win" and g8["ranks"][first] != 1
    assert g8["chips"][first] == -3 - 3 + {1: 4, 2: -1, 3: -3}[g8["ranks"][first]] * g8["uma_multiplier"]
    st_ = keeper.standings(None, "club-night")
    assert sum(r["games"] for r in st_["standings"]) == 24 and st_["games"] == 8
    assert sum(r["chips"] for r in st_["standings"]) == 0
    assert st_["standings"][0]["person"] == "Aki"


def g4_second(g: dict[str, Any]) -> str:
    return next(p for p, r in g["ranks"].items() if r == 2)


def next_loser(s: dict[str, Any]) -> str:
    return next(p for p, w in s["next"]["seats"].items() if w is not None and p != "Aki")


def other_than(s: dict[str, Any], p: str) -> str:
    return next(q for q, w in s["next"]["seats"].items() if w is not None and q != p)


def test_official_game_with_a_chombo_a_mistaken_pon_and_a_bust(keeper: Keeper) -> None:
    """Seed 002: 空ポン → 1,000 to the table (P104), won by the next winner; a chombo is no game
    and −20 at the end (P100, P101); a bust ends it with −10 / +10 (P110); final points are
    (score − 40,000) / 1,000 + rank points, + bust bonus, − chombo (P30's formula)."""
    official = Rules.preset("official")
    sid = keeper.new(official, ["A", "B", "C"])["session"]
    keeper.add(sid, {"kind": "penalty", "who": "C", "penalty": "false_call", "reason": "空ポン"})
    s = keeper.add(sid, ron("B", "A", 3, 30))  # every hand 30 fu (P52): 3,900 + the 1,000 deposit
    assert s["hands"][-1]["deltas"] == {"A": -3900, "B": 4900, "C": 0} and s["scores"]["C"] == 39000
    s = keeper.add(sid, {"kind": "chombo", "who": "B", "reason": "誤ロン後、倒牌"})
    assert s["hands"][-1]["deltas"] == {"A": 0, "B": 0, "C": 0} and s["hand"]["number"] == 2
    s = keeper.add(sid, ron("C", "A", yakuman=1))  # 32,000 from A (36,100): A at 4,100
    s = keeper.add(sid, ron("B", "A", 5, 30))  # A (4,100) pays a mangan: bust
    g = s["games"][0]
    assert g["end_reason"] == "bust" and g["ranks"]["A"] == 3
    # C 71,000, B 52,900 (two floating: uma +20/+10/−30, A002-7), A −3,900; oka 0 (40,000/40,000);
    # A busted by B: −10 / +10 (P110); B's chombo −20 at the end (P100)
    assert g["points"] == pytest.approx({"A": -43.9 - 30 - 10, "B": 12.9 + 10 + 10 - 20, "C": 31.0 + 20})


def test_kansai_game_through_kaeri_ton_with_flowers_a_dealer_chombo_and_chips(keeper: Keeper) -> None:
    """Seed 003: a dealer's chombo is a reversed haneman (6,000 ... 9,000 each) and the deal passes
    (P100, P101, A003-7); the chip flower earns a chip from each on a closed tsumo (P119);
    South's dealer stays on a noten draw (P37); nobody at 40,000 after South 3 → 返り東場 until
    someone reaches it (P34)."""
    kansai = Rules.preset("kansai")
    sid = keeper.new(kansai, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "chombo", "who": "A", "reason": "誤ツモ"})
    assert s["hands"][-1]["deltas"] == {"A": -18000, "B": 9000, "C": 9000}
    assert s["hand"]["dealer"] == "B" and s["hand"]["honba"] == 0
    # A rons B by tiles: chanta 2 + one flower as dora (P04) = 3 han 40 fu; the chip flower, won
    # closed, earns A a chip from the discarder (P119)
    win = {"kind": "win", "from": "B", "wins": [{"winner": "A", "hand": "123789p123789s11z", "win": "1z",
                                                 "flowers": 1, "chip_flowers": 1}]}
    s = keeper.add(sid, win)
    assert "3 han 40 fu" in s["hands"][-1]["summary"]
    assert s["hands"][-1]["chips"] == {"A": 1, "B": -1, "C": 0}
    s = keeper.add(sid, ron("A", "C", 5, 30))  # a mangan: everyone below 40,000 again
    assert s["hand"]["round"] == "S"
    dealer = s["hand"]["dealer"]
    s = keeper.add(sid, {"kind": "draw", "tenpai": []})
    assert s["hand"]["dealer"] == dealer  # P37: South's dealer does not pass
    while s["hand"]["round"] == "S":  # a small non-dealer win passes the deal
        others = sorted((p for p in s["people"] if p != s["hand"]["dealer"]), key=lambda p: s["scores"][p])
        s = keeper.add(sid, ron(others[0], others[1], 1, 30))
        assert not s["finished"]
    assert s["hand"]["round"] == "E" and s["hand"]["lap"] == 1 and max(s["scores"].values()) < 40000
    top = max(s["scores"], key=lambda p: s["scores"][p])
    s = keeper.add(sid, ron(top, next(p for p in s["scores"] if p != top), 5, 30))
    assert s["finished"] and s["games"][0]["end_reason"] == "target_reached"


# --- final scores only, standings, export / import -------------------------------------------------

def test_final_scores_only_mode_and_series_standings(keeper: Keeper) -> None:
    online = Rules.preset("online")
    sid = keeper.new(online, ["A", "B", "C"], mode="final", series="league")["session"]
    s = keeper.add(sid, {"kind": "final", "scores": {"A": 50000, "B": 30000, "C": 25000}})
    assert s["games"][0]["ranks"] == {"A": 1, "B": 2, "C": 3}
    with pytest.raises(KeeperError, match="add up to 104,000"):
        keeper.add(sid, {"kind": "final", "scores": {"A": 50000, "B": 30000, "C": 24000}})
    with pytest.raises(KeeperError, match="final scores only"):
        keeper.add(sid, ron("A", "B", 2, 30))
    keeper.add(sid, {"kind": "final", "scores": {"A": 20000, "B": 40000, "C": 45000}})
    other = keeper.new(online, ["A", "B", "D"], mode="final", series="league")["session"]
    keeper.add(other, {"kind": "final", "scores": {"A": 35000, "B": 35000, "D": 35000}})
    table = keeper.standings(None, "league")
    assert table["games"] == 3 and {r["person"] for r in table["standings"]} == {"A", "B", "C", "D"}
    a = next(r for r in table["standings"] if r["person"] == "A")
    assert a["games"] == 3 and a["placements"] == [2, 0, 1]


def test_export_then_import_gives_the_same_session(keeper: Keeper) -> None:
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30))
    keeper.add(sid, ron("C", "B", 3, 30))
    keeper.fix(sid, 1, ron("B", "A", 2, 30), reason="typo")
    data = json.loads(json.dumps(keeper.export(sid)))
    s = keeper.import_session(data)
    orig = keeper.state(sid)
    for key in ("scores", "chips", "hand", "standings"):
        assert s[key] == orig[key]
    assert [c["kind"] for c in keeper.log(s["session"])] == ["add", "add", "fix"]
    csv_text = keeper.export_csv(sid)
    assert csv_text.splitlines()[0] == ("session,game,no,kind,round,honba,person,points,chips,rank,final_points,"
                                        "chombos,bust")
    with pytest.raises(KeeperError, match="not a sanma table export"):
        keeper.import_session({"format": "other"})


# --- the command line ----------------------------------------------------------------------------

def _run(*args: str) -> Any:
    return CliRunner().invoke(app, ["table", *args])


def test_cli_standings_alias_is_name_equals_person(tmp_path: Path) -> None:
    """``standings --alias NAME=PERSON``: a malformed alias or one naming no person of the session is
    refused (exit 2, one line) and nothing is printed as standings."""
    db = str(tmp_path / "k.sqlite")
    sid = str(json.loads(_run("new", "--db", db, "--rules", "club", "--people", "Aki,Ben,Chie", "--json").stdout)
              ["session"])
    r = _run("standings", sid, "--db", db, "--store-games", "--alias", "akiko_t=Aki", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["counted"] == []
    for bad, says in (("akiko_t", "give NAME=PERSON"), ("=Aki", "give NAME=PERSON"),
                      ("akiko_t=Dan", "Dan is not one of Aki, Ben, Chie")):
        r = _run("standings", sid, "--db", db, "--store-games", "--alias", bad)
        assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output, r.output


@pytest.mark.slow
def test_cli_whole_session_scripted_with_json(tmp_path: Path) -> None:
    db = str(tmp_path / "k.sqlite")
    r = _run("new", "--db", db, "--rules", "club", "--people", "Aki,Ben,Chie,Dan", "--json")
    assert r.exit_code == 0, r.output
    sid = str(json.loads(r.stdout)["session"])
    r = _run("hand", sid, "--db", db, "--ron", "Aki", "--from", "Ben", "--han", "4", "--fu", "30",
             "--riichi", "Aki", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["scores"]["Aki"] == 15000 + 11600
    r = _run("hand", sid, "--db", db, "--tsumo", "Chie", "--hand", "123456789p99m111s", "--win", "9m", "--preview",
             "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["preview"]
    r = _run("draw", sid, "--db", db, "--tenpai", "Chie", "--json")
    assert json.loads(r.stdout)["hand"]["honba"] == 2
    r = _run("fix", sid, "2", "--db", db, "--delete", "--reason", "wrong", "--json")
    assert r.exit_code == 0 and len(json.loads(r.stdout)["hands"]) == 1
    r = _run("undo", sid, "--db", db, "--json")
    assert len(json.loads(r.stdout)["hands"]) == 2
    r = _run("chombo", sid, "--db", db, "--who", "Ben", "--reason", "誤ロン", "--json")
    assert r.exit_code == 0
    r = _run("show", sid, "--db", db)
    assert r.exit_code == 0 and "chombo by Ben" in r.stdout
    r = _run("log", sid, "--db", db)
    assert r.exit_code == 0 and "delete" in r.stdout
    r = _run("standings", sid, "--db", db, "--json")
    assert r.exit_code == 0 and "standings" in json.loads(r.stdout)
    r = _run("export", sid, "--db", db, "--csv")
    assert r.exit_code == 0 and r.stdout.startswith("session,game")
    out = tmp_path / "copy.sqlite"
    r = _run("backup", "--db", db, str(out))
    assert r.exit_code == 0 and out.exists()


@pytest.mark.parametrize("args", [
    ("hand", "--ron", "Zed", "--from", "Ben", "--han", "2", "--fu", "30"),
    ("hand", "--ron", "Aki", "--from", "Aki", "--han", "2", "--fu", "30"),
    ("hand", "--ron", "Aki", "--from", "Ben", "--han", "0", "--fu", "30"),
    ("hand", "--ron", "Aki", "--from", "Ben", "--han", "2", "--fu", "27"),
    ("hand", "--ron", "Aki", "--han", "2", "--fu", "30"),
    ("fix", "9", "--delete"),
    ("abort", "--kind", "nonsense"),
    ("hand", "--entry-json", "{not json"),
])
@pytest.mark.slow
def test_cli_refused_command_exits_2_with_a_message_and_changes_nothing(tmp_path: Path, args: tuple[str, ...]) -> None:
    db = str(tmp_path / "k.sqlite")
    sid = str(json.loads(_run("new", "--db", db, "--rules", "club", "--people", "Aki,Ben,Chie", "--json").stdout)
              ["session"])
    _run("hand", sid, "--db", db, "--ron", "Aki", "--from", "Ben", "--han", "2", "--fu", "30")
    cmd, *rest = args
    r = _run(cmd, sid, *rest, "--db", db)
    assert r.exit_code == 2, r.output
    assert "error:" in r.stderr and "Traceback" not in r.output
    assert json.loads(_run("show", sid, "--db", db, "--json").stdout)["version"] == 1


@pytest.mark.slow
def run_doc_block(heading: str, db: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Run the first ```sh block after ``heading`` of docs/KEEPER.md, line by line as written (in
    ``db``'s folder, SANMA_DB = ``db``): every `sanma …` line must exit 0; ``> FILE`` writes its
    output. Each line's output, by line."""
    import shlex

    text = (Path(__file__).resolve().parent.parent / "docs" / "KEEPER.md").read_text(encoding="utf-8")
    block = text.split(heading, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(db.parent)
    monkeypatch.setenv("SANMA_DB", str(db))
    outputs: dict[str, str] = {}
    for line in block.splitlines():
        if not line.startswith("sanma "):
            continue
        words = shlex.split(line, comments=True)
        out = None
        if ">" in words:
            out = words[words.index(">") + 1]
            words = words[:words.index(">")]
        r = CliRunner().invoke(app, words[1:])
        assert r.exit_code == 0, f"{line}\n{r.output}"
        if out:
            Path(out).write_text(r.stdout, encoding="utf-8")
        outputs[line] = r.stdout
    return outputs


def test_docs_keeper_md_session_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/KEEPER.md's scripted evening: every `sanma table` line runs and exits 0."""
    assert len(run_doc_block("## A whole evening, scripted", tmp_path / "club.sqlite", monkeypatch)) >= 20
    r = CliRunner().invoke(app, ["table", "import", "night.json", "--json"])  # the same database: refused
    assert r.exit_code == 2 and "repeats session 1 of series 'club-night'" in r.output
    r = CliRunner().invoke(app, ["table", "import", "night.json", "--json", "--db", str(tmp_path / "other.sqlite")])
    assert r.exit_code == 0, r.output


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12)
    | st.sampled_from(["A", "B", "C", "win", "draw", "abort", "chombo", "penalty", "final", "seating", "free"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["kind", "wins", "winner", "from", "han", "fu", "yakuman", "hand", "win", "tenpai",
                         "riichi", "who", "penalty", "abort", "scores", "points", "chips", "draw", "dealer",
                         "melds", "flags", "yaku", "ura_han", "x"]), children, max_size=6),
    max_leaves=12)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_json_values)
def test_any_submitted_entry_is_taken_or_refused_with_a_keeper_error_and_changes_nothing(keeper: Keeper,
                                                                                         entry: Any) -> None:
    """Hostile input (issue 12, COMMON standards): whatever JSON a client sends as an entry, the
    keeper stores it or refuses it with a SanmaError naming the problem; a refusal changes nothing."""
    from sanma.errors import SanmaError

    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30))
    before = keeper.state(sid)
    try:
        keeper.add(sid, entry)
    except SanmaError as e:
        assert str(e)
        assert keeper.state(sid) == before


def _import_majsoul_records(keeper: Keeper) -> list[Path]:
    """Two real Mahjong Soul records (players anonymised to A, B, C), stored in the keeper's database."""
    files = sorted(data_path("majsoul_tenhou6_json").glob("*.json"))[:2]
    keeper.store.import_files(files)
    return files


def test_series_standings_can_count_imported_records_among_the_same_people(keeper: Keeper) -> None:
    """Issue 12 item 6: imported Mahjong Soul records (players anonymised to A, B, C) count in
    the standings of a session of A, B and C when asked."""
    files = _import_majsoul_records(keeper)
    sid = keeper.new(Rules.preset("majsoul"), ["A", "B", "C"], mode="final")["session"]
    keeper.add(sid, {"kind": "final", "scores": {"A": 50000, "B": 30000, "C": 25000}})
    alone = keeper.standings(sid, None)
    both = keeper.standings(sid, None, store_games=True)
    assert alone["games"] == 1 and both["games"] == 1 + len(files)
    assert sum(r["games"] for r in both["standings"]) == 3 * (1 + len(files))


def test_imported_records_count_under_the_peoples_own_names_with_aliases(keeper: Keeper) -> None:
    """Issue 12 item 6: an online record names its players by their accounts (here A, B, C); with
    ``aliases`` (``standings --alias A=Aki``) they count as the people of the session, and the
    standings say which name each was; an alias to someone not in the session is refused."""
    files = _import_majsoul_records(keeper)
    sid = keeper.new(Rules.preset("majsoul"), ["Aki", "Ben", "Chie"], mode="final")["session"]
    keeper.add(sid, {"kind": "final", "scores": {"Aki": 50000, "Ben": 30000, "Chie": 25000}})
    assert keeper.standings(sid, None, store_games=True)["games"] == 1  # A, B, C are not these people
    aliases = {"A": "Aki", "B": "Ben", "C": "Chie"}
    both = keeper.standings(sid, None, store_games=True, aliases=aliases)
    assert both["games"] == 1 + len(files)
    assert [c["players"] for c in both["counted"]] == [["Aki", "Ben", "Chie"]] * len(files)
    assert all(sorted(c["as"]) == ["A", "B", "C"] for c in both["counted"])
    assert {r["person"] for r in both["standings"]} == {"Aki", "Ben", "Chie"}
    assert sum(r["games"] for r in both["standings"]) == 3 * (1 + len(files))
    with pytest.raises(KeeperError, match="Dan is not one of Aki, Ben, Chie"):
        keeper.standings(sid, None, store_games=True, aliases={"A": "Dan"})


def test_p79_club_riichi_with_1000_points_or_fewer_is_a_bust_at_once(keeper: Keeper) -> None:
    """P79 / A000-19 seed 000 L87 「1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、
    箱割れチップは両者に払う」: entered as the hand's end; the game ends and both others get the bust chips."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, {"kind": "penalty", "who": "C", "penalty": "free", "points": 14000, "reason": "to 1,000"})
    with pytest.raises(KeeperError, match="a bust at once"):
        keeper.add(sid, ron("A", "B", 2, 30, riichi=("C",)))
    with pytest.raises(KeeperError, match="only with 1,000 or fewer"):
        keeper.add(sid, {"kind": "abort", "abort": "riichi_bust", "riichi": ["B"]})
    s = keeper.add(sid, {"kind": "abort", "abort": "riichi_bust", "riichi": ["C"]})
    (g,) = s["games"]
    assert g["end_reason"] == "bust" and g["ranks"]["C"] == 3
    # 3 bust chips + 5 in East 1 (P110, P112) to each of A and B; uma in chips +4 / -1 / -3
    assert g["chips"] == {"A": 8 + 4, "B": 8 - 1, "C": -16 - 3}


@pytest.mark.parametrize(("stack", "multipliers"), [("queue", [1, 1, 2, 2]), ("multiply", [1, 1, 4, 1])])
def test_p28_uma_doubling_queue_and_multiply_in_a_kept_evening_a000_10(keeper: Keeper, stack: str,
                                                                       multipliers: list[int]) -> None:
    """P28 / A000-10 (seed 000 L142-145 「重ねて累積しておき、さらに次の半荘にも引き継いでいく」):
    A tops and B lasts twice in a row, so two doublings pile up. ``uma_double_stack = "queue"``
    (the club preset) doubles the next two games; ``"multiply"`` makes the next game's uma x 4
    and carries nothing further. The second place pays 1 chip x the multiplier (P27, uma in chips)."""
    from dataclasses import replace

    rules = replace(CLUB, uma_double_stack=stack)
    sid = keeper.new(rules, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", yakuman=1))  # game 1: B busts in East 1
    keeper.add(sid, ron("A", "B", yakuman=1))  # game 2: A's 2nd top, B's 2nd last
    keeper.add(sid, ron("C", "A", yakuman=1))  # game 3: no streak of two
    s = keeper.add(sid, ron("B", "C", yakuman=1))  # game 4
    games = s["games"]
    assert [g["uma_multiplier"] for g in games] == multipliers
    for g in games:
        second = next(p for p, r in g["ranks"].items() if r == 2)
        assert g["chips"][second] == -1 * g["uma_multiplier"], g
    assert CLUB.uma_double_stack == "queue"


def test_p30_official_score_sheet_writes_minus_as_triangle(tmp_path: Path) -> None:
    """P30 (seed 002 L39 「成績表に表記するときは、マイナスを△と表記すること」): under the official
    preset (``score_notation = "triangle"``) the standings table, the hand list and the CSV write a
    minus as △, and the CSV reads back to the same numbers; the club preset keeps the minus sign."""
    from sanma.keeper.keeper import read_csv

    db = str(tmp_path / "k.sqlite")
    out = {}
    for preset in ("official", "club"):
        r = _run("new", "--db", db, "--rules", preset, "--people", "A,B,C", "--json")
        sid = str(json.loads(r.stdout)["session"])
        r = _run("hand", sid, "--db", db, "--ron", "A", "--from", "B", "--yakuman", "1", "--json")
        state = json.loads(r.stdout)
        assert state["finished"] and state["notation"] == ("triangle" if preset == "official" else "minus")
        out[preset] = (sid, state)
    sid, state = out["official"]
    points = {r["person"]: r["points"] for r in state["standings"]}
    assert points["B"] < 0
    text = _run("standings", sid, "--db", db).stdout
    assert f"△{abs(points['B']):.1f}" in text and "-" not in text.replace("---", "")
    shown = _run("show", sid, "--db", db).stdout
    assert "B △" in shown and "B -" not in shown
    csv_text = _run("export", sid, "--db", db, "--csv").stdout
    assert "△" in csv_text and ",-" not in csv_text
    rows = read_csv(csv_text)
    finals = {r["person"]: r for r in rows if r["kind"] == "final"}
    for p in "ABC":
        assert finals[p]["points"] == state["games"][0]["scores"][p]
        assert finals[p]["final_points"] == state["games"][0]["points"][p]
        assert finals[p]["chips"] == state["games"][0]["chips"][p]
    hand = next(r for r in rows if r["kind"] == "win" and r["person"] == "B")
    assert hand["points"] == state["hands"][0]["deltas"]["B"] < 0
    club_sid, _ = out["club"]
    club = _run("standings", club_sid, "--db", db).stdout
    assert "△" not in club and "-" in club
    assert "△" not in _run("export", club_sid, "--db", db, "--csv").stdout
    with pytest.raises(KeeperError, match="CSV line 2"):
        read_csv(csv_text.splitlines()[0] + "\n1,1,1,win,E1,0,A,△x,0,,\n")


@given(st.integers(-10**7, 10**7), st.sampled_from(["minus", "triangle"]), st.sampled_from(["", ","]))
def test_p30_signed_numbers_read_back_in_either_notation(value: int, notation: str, spec: str) -> None:
    """P30: whatever notation wrote a number, parse_signed reads it back."""
    from sanma.keeper.notation import parse_signed, signed

    assert parse_signed(signed(value, notation, spec)) == value
    assert parse_signed(signed(value, notation, spec, plus=True)) == value


def test_p30_final_scores_may_be_entered_with_triangle(tmp_path: Path) -> None:
    """P30: a final-scores-only sheet written with △ can be entered as it reads (``--scores B=△5000``);
    a malformed number is refused with the part named."""
    db = str(tmp_path / "k.sqlite")
    r = _run("new", "--db", db, "--rules", "official", "--people", "A,B,C", "--final-only", "--json")
    sid = str(json.loads(r.stdout)["session"])
    r = _run("final", sid, "--db", db, "--scores", "A=95000,B=△5000,C=30000", "--bust", "B", "--bust-by", "A",
             "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"][0]["scores"]["B"] == -5000
    r = _run("final", sid, "--db", db, "--scores", "A=95000,B=△x,C=30000")
    assert r.exit_code == 2 and "'B=△x' is not NAME=NUMBER" in r.output


def test_p104_p88_club_double_ron_first_winner_takes_the_table_chips_and_sticks(keeper: Keeper) -> None:
    """P104 / A000-27 / P88 (seed 000 L280-281 「その局の和了者が受け取る。ダブロンの場合は頭ハネとする」,
    L46 「ダブロンの場合のリーチ棒は頭ハネとする」): after B's 誤ポン (3 chips to the table) and A's
    riichi, A and C ron B's tile; C, B's shimocha, is the head-bump first winner and takes the 3
    chips and the stick although entered second; both get the honba (P89, L47)."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, {"kind": "draw", "tenpai": ["A"]})  # A keeps the deal: 1 honba
    s = keeper.add(sid, {"kind": "penalty", "who": "B", "penalty": "false_call"})
    assert s["pot"] == {"sticks": 0, "chips": 3}
    s = keeper.add(sid, {"kind": "win", "from": "B", "riichi": ["A"],
                         "wins": [{"winner": "A", "han": 2, "fu": 30}, {"winner": "C", "han": 2, "fu": 30}]})
    row = s["hands"][-1]
    assert [p["winner"] for p in row["payments"]] == ["C", "A"]
    assert s["chips"] == {"A": 0, "B": -3, "C": 3} and s["pot"] == {"sticks": 0, "chips": 0}
    c, a = row["payments"]
    # C: 2 han 30 fu non-dealer 2,000 + 1 honba 1,500 + A's stick; A: dealer 2,900 + 1,500
    assert c["deltas"]["C"] == 2000 + 1500 + 1000 and a["deltas"]["A"] == 2900 + 1500


def test_p47_kansai_riichi_that_became_furiten_is_noten_at_the_draw_a003_21(keeper: Keeper) -> None:
    """P47 / A003-21 (seed 003 L25 「フリテンは一切不可、テンパイにもなりません」): under kansai a riichi
    hand that became furiten after the declaration (a passed win) is noten at the exhaustive
    draw: entered as riichi and not tenpai, it pays noten, with no chombo (found by the golden
    engine games); under the club's rules a riichi player is always tenpai, so the same entry is
    refused as a noten riichi (P80)."""
    kansai = Rules.preset("kansai")
    sid = keeper.new(kansai, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "draw", "tenpai": ["B"], "riichi": ["A"]})
    assert "chombo" not in s["hands"][-1]["summary"] and s["hands"][-1]["deltas"]["A"] < -1000
    assert s["pot"]["sticks"] == 1  # A's stick stays on the table
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    with pytest.raises(KeeperError, match="noten riichi is a chombo"):
        keeper.add(sid, {"kind": "draw", "tenpai": ["B"], "riichi": ["A"]})


def test_cli_preview_shows_every_payment_before_saving(tmp_path: Path) -> None:
    """Issue 12 item 1: ``--preview`` shows every payment — each double-ron winner's points with
    honba and sticks (the head bump's first winner takes the stick, P48 / P88), the riichi stick
    put down, the total — and saves nothing; a correction's preview shows the corrected entry."""
    db = str(tmp_path / "k.sqlite")
    sid = str(json.loads(_run("new", "--db", db, "--rules", "club", "--people", "A,B,C", "--json").stdout)["session"])
    r = _run("hand", sid, "--db", db, "--ron", "A", "--ron", "C", "--from", "B", "--han", "2", "--fu", "30",
             "--han", "1", "--fu", "30", "--riichi", "A", "--preview")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "preview — nothing saved" in out and "payments of #1 (0 honba):" in out
    lines = [x.strip() for x in out.splitlines()]
    c_win = next(x for x in lines if x.startswith("C's win"))
    a_win = next(x for x in lines if x.startswith("A's win"))
    assert lines.index(c_win) < lines.index(a_win)  # C is B's shimocha: first in the head bump
    assert "C +2,000" in c_win and "B -1,000" in c_win  # 1,000 and A's stick
    assert "A +2,900" in a_win and "B -2,900" in a_win
    assert next(x for x in lines if x.startswith("riichi sticks")) == "riichi sticks    A -1,000"
    assert "left on the table: 0 sticks, 0 chips" in out
    assert json.loads(_run("show", sid, "--db", db, "--json").stdout)["version"] == 0
    _run("hand", sid, "--db", db, "--ron", "A", "--from", "B", "--han", "2", "--fu", "30")
    r = _run("fix", sid, "1", "--db", db, "--ron", "A", "--from", "C", "--han", "2", "--fu", "30", "--preview")
    assert r.exit_code == 0 and "payments of #1" in r.stdout and "C -2,900" in r.stdout


@given(st.text(max_size=40))
def test_p30_parse_signed_fuzz_gives_a_number_or_a_clear_error(text: str) -> None:
    """P30's reader never fails any other way: any text is a number or a KeeperError naming it."""
    from sanma.keeper.notation import parse_signed

    try:
        value = parse_signed(text)
    except KeeperError as e:
        assert repr(text) in str(e)
    else:
        assert isinstance(value, int | float)


@given(st.text(max_size=200))
def test_read_csv_fuzz_gives_rows_or_a_clear_error(text: str) -> None:
    """The CSV reader: any text is rows or a KeeperError naming the line (no other exception)."""
    from sanma.keeper.keeper import CSV_HEADER, read_csv

    try:
        rows = read_csv(",".join(CSV_HEADER) + "\n" + text)
    except KeeperError as e:
        assert "CSV line" in str(e)
    else:
        assert all(set(r) == set(CSV_HEADER) for r in rows)


def test_p131_official_tsumo_is_called_non_dealer_first_with_the_honba(keeper: Keeper) -> None:
    """P131 (seed 002 L109-111 「ツモあがりの点数は子の方から申告してください。積み棒がある場合は、わかりやすく
    申告してください。（例）500・1000は、1500・2000」): a non-dealer's 2 han 30 fu tsumo at 1 honba
    (1,000 per payer under the official rules, P44) is written 1,500・2,000; a dealer's as "N all"."""
    official = Rules.preset("official")
    sid = keeper.new(official, ["A", "B", "C"])["session"]
    keeper.add(sid, {"kind": "draw", "tenpai": ["A"]})  # the dealer keeps the deal: 1 honba
    s = keeper.add(sid, tsumo("B", 2, 30))
    assert s["hands"][-1]["summary"].endswith("(tsumo 1,500・2,000)"), s["hands"][-1]["summary"]
    assert s["hands"][-1]["deltas"] == {"A": -2000, "B": 3500, "C": -1500}
    s = keeper.add(sid, tsumo("B", 2, 30))  # B deals now, 0 honba: a dealer's 2 han 30 fu tsumo
    assert s["hands"][-1]["summary"].endswith("(tsumo 1,000 all)"), s["hands"][-1]["summary"]


def test_p122_club_no_yakitori_penalty(keeper: Keeper) -> None:
    """P122 (seed 000 L95 「焼き鳥の罰則はない」): C never wins a hand of the game and pays nothing for it:
    C's points and chips at the end are only the uma of the second place (P27: 1 chip) — the
    yakuman and bust chips are A's and B's (P110, P112, P116)."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, ron("A", "B", yakuman=1))
    (g,) = s["games"]
    assert g["ranks"]["C"] == 2 and g["scores"]["C"] == CLUB.start_points
    assert g["chips"]["C"] == CLUB.uma[1] == -1


def test_csv_export_reimports_as_a_final_scores_session_with_the_same_standings(keeper: Keeper) -> None:
    """Issue 12 item 6 (export CSV and JSON; re-import): a club session's CSV export imported under
    the club rules gives a "final scores only" session with the same standings — points, chips
    with the club's uma in chips, streak chips and doubled uma (P26, P28, P29) that the keeper
    derives again itself — and an edited file is refused with nothing stored."""
    from sanma.store.keeper import sessions

    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    for _ in range(4):  # four games, each A's yakuman from B: A's streak of tops, B's of lasts
        keeper.add(sid, ron("A", "B", yakuman=1))
    text = keeper.export_csv(sid)
    imported = keeper.import_csv(text, CLUB)
    assert imported["mode"] == "final" and len(imported["games"]) == 4
    assert keeper.standings(imported["session"], None)["standings"] == keeper.standings(sid, None)["standings"]
    original = {g["game"]: (g["ranks"], g["points"], g["chips"]) for g in keeper.state(sid)["games"]}
    again = {g["game"]: (g["ranks"], g["points"], g["chips"]) for g in imported["games"]}
    assert again == original
    assert any(g["uma_multiplier"] > 1 for g in imported["games"])  # the doubling was derived, not copied
    before = len(sessions(keeper.store))
    first_final = next(line for line in text.splitlines() if ",final," in line)
    cells = first_final.split(",")
    cells[10] = "99.9"  # its final points
    edited = text.replace(first_final, ",".join(cells))
    with pytest.raises(KeeperError, match=r"CSV game 1: A has rank 1, 99\.9 points and \d+ chips in the file"):
        keeper.import_csv(edited, CLUB)
    with pytest.raises(KeeperError, match="no final rows"):
        keeper.import_csv(text.splitlines()[0] + "\n", CLUB)
    assert len(sessions(keeper.store)) == before


def test_p110_official_csv_carries_the_bust_and_imports_again_seed_002_l33(keeper: Keeper) -> None:
    """Seed 002 L33 「トビにより終了した場合△10が付与され、トバしたプレイヤーに＋10のボーナスがつきます」:
    who caused a bust was not in a CSV's final rows, so the re-import was refused blaming "other
    rules, or an edited file". The final rows now say who busted and who caused it, and the game
    imports with the same points; a CSV of the old columns is refused saying what it lacks."""
    from sanma.store.keeper import sessions

    official = Rules.preset("official")
    sid = keeper.new(official, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", yakuman=1))  # B busts: B -10, A +10
    text = keeper.export_csv(sid)
    assert ",final,,,B,△" in text and text.splitlines()[0].endswith(",chombos,bust")
    imported = keeper.import_csv(text, official)
    assert imported["games"][0]["points"] == keeper.state(sid)["games"][0]["points"]
    assert imported["games"][0]["busted"] == ["B"] and imported["games"][0]["busters"] == ["A"]
    before = len(sessions(keeper.store))
    old = "\n".join(line.rsplit(",", 2)[0] for line in text.splitlines()) + "\n"  # without chombos, bust
    with pytest.raises(KeeperError, match=r"B busted under official.*say who busted whom"):
        keeper.import_csv(old, official)
    assert len(sessions(keeper.store)) == before


def test_p31_p100_p110_official_final_scores_with_sticks_chombo_and_bust_seed_002(keeper: Keeper) -> None:
    """Final scores only under official: seed 002 L31 「半荘終了時の保留リーチ料は供託」 (sticks left on
    the table are nobody's: the scores add up to less than 120,000), L81 「チョンボの減点は、半荘終了時に
    △20となる」, L33's ±10. These were refused in final-only mode; now each is an option, the
    settlement lists each line, and the CSV export imports again with the same points."""
    official = Rules.preset("official")
    sid = keeper.new(official, ["A", "B", "C"], mode="final")["session"]
    with pytest.raises(KeeperError, match=r"add up to 118,000, not 120,000 .*: 2 riichi sticks left on the table\?"):
        keeper.add(sid, {"kind": "final", "scores": {"A": 70000, "B": 48000, "C": 0}})
    with pytest.raises(KeeperError, match="C busted under official, which pays the bust"):
        keeper.add(sid, {"kind": "final", "scores": {"A": 70000, "B": 48000, "C": 0}, "sticks": 2})
    s = keeper.add(sid, {"kind": "final", "scores": {"A": 70000, "B": 48000, "C": 0}, "sticks": 2,
                         "chombos": {"B": 1}, "busted": ["C"], "busters": ["A"]})
    g = s["games"][0]
    # A: +30 score, +20 uma (two float), +10 bust; B: +8, +10 uma, -20 chombo; C: -40, -30 uma, -10 bust
    assert g["points"] == {"A": 60.0, "B": -2.0, "C": -80.0}
    items = {i["what"]: i for i in g["items"]}
    assert items["sticks_forfeited"]["count"] == 2 and items["chombo"]["points"] == {"B": -20.0}
    assert items["bust"]["points"] == {"A": 10.0, "C": -10.0} and items["uma"]["points"] == {"A": 20.0, "B": 10.0,
                                                                                            "C": -30.0}
    again = keeper.import_csv(keeper.export_csv(sid), official)
    assert again["games"][0]["points"] == g["points"] and again["games"][0]["sticks"] == 2


@pytest.mark.slow
def test_cli_import_reads_a_csv_export_under_rules(tmp_path: Path) -> None:
    """`sanma table import FILE.csv --rules PRESET`: the CSV export comes back as a "final scores
    only" session (P30's △ read back too); a CSV without --rules, and --rules with a JSON export,
    are clear errors (exit 2, no traceback)."""
    db = str(tmp_path / "k.sqlite")
    sid = str(json.loads(_run("new", "--db", db, "--rules", "official", "--people", "A,B,C", "--json").stdout)
              ["session"])
    r = _run("hand", sid, "--db", db, "--ron", "A", "--from", "B", "--han", "4", "--fu", "30", "--json")
    assert r.exit_code == 0, r.output
    for _ in range(12):  # play the game out by draws with nobody tenpai (the deal passes), none busting;
        r = _run("draw", sid, "--db", db, "--json", "--again")  # each the same outcome again (issue 19 item 1)
        assert r.exit_code == 0, r.output
        if json.loads(r.stdout)["games"]:
            break
    csv_file = tmp_path / "night.csv"
    csv_file.write_text(_run("export", sid, "--db", db, "--csv").stdout, encoding="utf-8")
    assert "△" in csv_file.read_text(encoding="utf-8")
    r = _run("import", str(csv_file), "--rules", "official", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    new = json.loads(r.stdout)
    old = json.loads(_run("show", sid, "--db", db, "--json").stdout)
    assert new["mode"] == "final" and [g["points"] for g in new["games"]] == [g["points"] for g in old["games"]]
    r = _run("import", str(csv_file), "--db", db)
    assert r.exit_code == 2 and "give --rules" in r.output and "Traceback" not in r.output
    json_file = tmp_path / "night.json"
    json_file.write_text(_run("export", sid, "--db", db).stdout, encoding="utf-8")
    r = _run("import", str(json_file), "--rules", "club", "--db", db)
    assert r.exit_code == 2 and "are for a CSV" in r.output


# --- issue 19 item 3: arithmetic and bookkeeping ----------------------------------------------------

def test_p52_official_by_value_every_hand_is_30_fu_seed_002_l13(keeper: Keeper) -> None:
    """Seed 002 L13 「符計算なし・全て30符」 (P52 fixed_30): a hand entered by value is 30 fu; `--han 3
    --fu 40` paid 5,200 (40 fu) and is now refused naming the rule; `--han 3` alone pays 3,900."""
    official = Rules.preset("official")
    sid = keeper.new(official, ["A", "B", "C"])["session"]
    assert keeper.state(sid)["fixed_fu"] == 30
    with pytest.raises(KeeperError, match=r"every hand is 30 fu under official \(P52, fu_mode = fixed_30\): leave the "
                                          "fu out, not 40"):
        keeper.add(sid, ron("B", "C", 3, 40))
    s = keeper.add(sid, ron("B", "C", 3, 0))
    assert s["hands"][0]["deltas"] == {"A": 0, "B": 3900, "C": -3900}
    assert "B 3 han 30 fu = 3,900" in s["hands"][0]["summary"]
    s = keeper.add(sid, ron("C", "B", 2, 30))  # 30 fu given: the same
    assert s["hands"][1]["deltas"]["C"] == 2000
    club = keeper.new(CLUB, ["A", "B", "C"])["session"]
    with pytest.raises(KeeperError, match="give the fu"):  # counted fu: below 5 han they must be given
        keeper.add(club, ron("B", "C", 3, 0))


def test_p108_p110_club_free_penalty_to_zero_ends_the_game_seed_000_l86_l88(keeper: Keeper) -> None:
    """Seed 000 L86 「0点は箱割れとする」, L88 「箱割れした人は、箱割れさせた人にチップ3枚を支払う」: a free
    penalty (P106) that takes B to 0 or below ends the game at once, and B owes the bust chips to
    the two players the penalty paid (+5 each in East 1 of lap 1, P112). Before, play went on
    below zero and the next winner collected the bust chips."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, ron("A", "B", 4, 30))  # dealer A: 11,600; B has 3,400
    assert s["scores"]["B"] == 3400
    s = keeper.add(sid, {"kind": "penalty", "who": "B", "penalty": "free", "points": 4000, "reason": "故意"})
    assert s["finished"] and s["hands"][-1]["game_over"] == "bust"
    g = s["games"][0]
    assert g["busted"] == ["B"] and g["busters"] == ["A", "C"]
    bust = next(i for i in g["items"] if i["what"] == "bust_chips")
    assert bust["chips"] == {"A": 8, "B": -16, "C": 8}  # 3 chips + 5 in East 1 (non-dealer), to each
    s = keeper.add(sid, ron("C", "A", 2, 30))  # the next entry is game 2's
    assert s["game"] == 2 and len(s["games"]) == 1


def test_summary_lines_mangan_by_value_and_a_pao_tsumo(keeper: Keeper) -> None:
    """Issue 19, "What was found" 7: a mangan entered by value read "5 han 0 fu"; a pao tsumo's line
    showed the tsumo total though the liable player pays the ron value (P97, A000-22)."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    s = keeper.add(sid, {"kind": "win", "from": "C", "wins": [{"winner": "B", "han": 5}]})
    assert s["hands"][0]["summary"] == "B 5 han mangan = 8,000 (ron from C)"
    s = keeper.add(sid, {"kind": "win", "wins": [{"winner": "B", "yakuman": 1, "yaku": ["daisangen"]}], "pao": "C"})
    assert s["hands"][1]["deltas"]["C"] == -48000  # B deals now: the dealer's ron value, all on the liable player
    assert s["hands"][1]["summary"] == "B 1x yakuman (pao: C pays 48,000) (tsumo)"


def test_imports_never_double_a_series(keeper: Keeper, tmp_path: Path) -> None:
    """Issue 19, "What was found" 7: re-importing a JSON export into the same database silently
    doubled the series standings. A JSON or CSV import that repeats a session of its series (the
    same entries, or the same games) is refused and stores nothing; elsewhere it imports."""
    from sanma.store.keeper import sessions

    sid = keeper.new(CLUB, ["A", "B", "C"], series="club-night")["session"]
    for _ in range(2):
        keeper.add(sid, ron("A", "B", yakuman=1))
    before = keeper.standings(None, "club-night")
    export = json.loads(json.dumps(keeper.export(sid)))
    with pytest.raises(KeeperError, match=r"repeats session 1 of series 'club-night' \(the same entries\)"):
        keeper.import_session(export)
    with pytest.raises(KeeperError, match=r"repeats session 1 of series 'club-night' \(the same games\)"):
        keeper.import_csv(keeper.export_csv(sid), CLUB, series="club-night")
    export["changes"] = export["changes"][:1]  # an earlier export, of the first game only
    with pytest.raises(KeeperError, match="repeats session 1"):
        keeper.import_session(export)
    assert len(sessions(keeper.store)) == 1 and keeper.standings(None, "club-night") == before
    assert keeper.import_csv(keeper.export_csv(sid), CLUB)["series"] is None  # outside the series: fine
    with open_db(tmp_path / "other.sqlite") as store:
        assert Keeper(store).import_session(keeper.export(sid))["series"] == "club-night"


def test_a_misspelt_name_is_renamed_in_the_whole_session(keeper: Keeper) -> None:
    """Issue 19, "What was found" 7: a name misspelt at `new` could not be fixed. `rename` is an entry:
    the whole session (entries before and after it, standings, the series) uses the new name; a
    rename to a name someone has, or of someone who is not there, is refused; undo restores it."""
    sid = keeper.new(CLUB, ["Aik", "Ben", "Chie"], series="s")["session"]
    keeper.add(sid, ron("Aik", "Ben", 2, 30))
    s = keeper.add(sid, {"kind": "rename", "from": "Aik", "to": "Aki"})
    assert s["people"] == ["Aki", "Ben", "Chie"] and s["hands"][0]["entry"]["wins"][0]["winner"] == "Aki"
    assert s["hands"][1]["summary"] == "rename: Aik → Aki" and s["scores"]["Aki"] > 15000
    s = keeper.add(sid, ron("Aki", "Chie", 2, 30))  # the new name from now on
    s = keeper.add(sid, ron("Aik", "Chie", 2, 30))  # the old one still names the same person
    assert s["hands"][-1]["entry"]["wins"][0]["winner"] == "Aki"
    with pytest.raises(KeeperError, match="rename: Ben is already a person of the session"):
        keeper.add(sid, {"kind": "rename", "from": "Chie", "to": "Ben"})
    with pytest.raises(KeeperError, match="rename: Zed is not a person of the session"):
        keeper.add(sid, {"kind": "rename", "from": "Zed", "to": "Zoe"})
    assert keeper.standings(None, "s")["standings"][0]["person"] == "Aki"
    with pytest.raises(KeeperError, match="entry 3: winner: Aki is not at the table"):
        keeper.fix(sid, 2, None)  # deleting the rename would leave entry 3's "Aki" nobody: refused


def test_standings_alias_counts_a_kept_sessions_person_too(keeper: Keeper) -> None:
    """Issue 19, "What was found" 7: `--alias` silently did nothing for kept sessions. In a series
    where one night wrote "Aik", `--alias Aik=Aki` counts those games as Aki's; an alias naming
    nobody is reported (``unused_aliases``)."""
    one = keeper.new(CLUB, ["Aki", "Ben", "Chie"], series="s")["session"]
    two = keeper.new(CLUB, ["Aik", "Ben", "Chie"], series="s")["session"]
    keeper.add(one, ron("Aki", "Ben", yakuman=1))
    keeper.add(two, ron("Aik", "Ben", yakuman=1))
    plain = {r["person"]: r["games"] for r in keeper.standings(None, "s")["standings"]}
    assert plain["Aki"] == 1 and plain["Aik"] == 1
    out = keeper.standings(None, "s", aliases={"Aik": "Aki", "akiko_t": "Aki"})
    merged = {r["person"]: r["games"] for r in out["standings"]}
    assert merged == {"Aki": 2, "Ben": 2, "Chie": 2} and out["unused_aliases"] == ["akiko_t"]


def test_undo_says_what_it_undoes_and_an_undone_change_is_not_undone_twice(keeper: Keeper) -> None:
    """Issue 19, "What was found" 7: `undo` after a refused command undid the previous good entry
    without saying which. The state names what `undo` would revert (``undo``) and what it reverted
    (``undone``); undoing a change already undone (by another device) is refused."""
    sid = keeper.new(CLUB, ["A", "B", "C"])["session"]
    keeper.add(sid, ron("A", "B", 2, 30))
    s = keeper.add(sid, {"kind": "draw", "tenpai": ["C"]})
    assert s["undo"]["change"] == 2 and s["undo"]["text"] == "change 2: entry #2 (E1 draw, tenpai: C)"
    with pytest.raises(KeeperError):
        keeper.add(sid, ron("A", "A", 2, 30))  # refused: nothing to undo from it
    s = keeper.undo(sid)
    assert s["undone"]["text"] == "change 2: entry #2 (E1 draw, tenpai: C)" and len(s["hands"]) == 1
    with pytest.raises(KeeperError, match=r"change 2 of session 1 is already undone \(change 3, by someone at"):
        keeper.undo(sid, 2)
    r = _run_in(keeper, "undo")
    assert "undid change 1: entry #1 (E1 A 2 han 30 fu = 2,900 (ron from B))" in r


def _run_in(keeper: Keeper, *args: str) -> str:
    """`sanma table ARGS 1` on ``keeper``'s database file (a copy through the backup API)."""
    import tempfile

    from sanma.store.keeper import backup

    path = Path(tempfile.mkdtemp()) / "k.sqlite"
    backup(keeper.store, str(path))
    r = CliRunner().invoke(app, ["table", args[0], "1", *args[1:], "--db", str(path)])
    assert r.exit_code == 0, r.output
    return r.stdout


def test_next_is_the_coming_game_between_games_and_null_while_one_is_played(keeper: Keeper) -> None:
    """Issue 19, "What was found" 7: the JSON `next` block was wrong mid-game (it described the game
    in play as the coming one). While a game is played it is null; between games it is the next."""
    sid = keeper.new(CLUB, ["A", "B", "C", "D"])["session"]
    assert keeper.state(sid)["next"]["game"] == 1  # before anything: the first game
    s = keeper.add(sid, ron("A", "B", 2, 30))
    assert s["next"] is None
    s = keeper.add(sid, ron("A", "B", yakuman=1))
    assert s["finished"] and s["next"]["game"] == 2 and s["next"]["sitting_out"] == s["next"]["sitting_out"]
    assert s["next"]["seats"][s["next"]["sitting_out"]] is None


def test_show_lists_every_entry_each_games_settlement_and_the_penalties(tmp_path: Path) -> None:
    """Issue 19, "What was found" 7: `show` printed only the last 8 entries and no results; nothing
    itemised a game's end-of-game chips and points, and the preview of a game-ending hand left
    them out. Now `show` lists every entry, each game's settlement line by line (with its rule
    row), the chombos and penalties (`penalties` alone too), and the standings; a preview of a
    game-ending hand shows that game's settlement."""
    db = str(tmp_path / "k.sqlite")
    sid = str(json.loads(_run("new", "--db", db, "--rules", "club", "--people", "A,B,C", "--json").stdout)["session"])
    for _ in range(6):  # B and C pay A 1,000 each time (P46)
        assert _run("draw", sid, "--db", db, "--tenpai", "A", "--again").exit_code == 0
    assert _run("penalty", sid, "--db", db, "--who", "C", "--kind", "false_call").exit_code == 0
    assert _run("chombo", sid, "--db", db, "--who", "B", "--reason", "誤ロン").exit_code == 0
    r = _run("hand", sid, "--db", db, "--ron", "A", "--from", "B", "--yakuman", "1", "--preview")
    assert r.exit_code == 0 and "game 1 over (bust):" in r.stdout and "bust chips" in r.stdout
    assert "chips            A +33, B -30" in r.stdout  # the yakuman's chips and the false call's 3 (P104)
    assert _run("hand", sid, "--db", db, "--ron", "A", "--from", "B", "--yakuman", "1").exit_code == 0
    out = _run("show", sid, "--db", db).stdout
    assert all(f"#{n} " in out for n in range(1, 10))
    assert "[P110]" in out and "[P26]" in out and "standings:" in out and "chombos and penalties:" in out
    pen = _run("penalties", sid, "--db", db)
    assert "false_call by C" in pen.stdout and "chombo by B" in pen.stdout
    last = _run("show", sid, "--db", db, "--last", "2").stdout
    assert "(7 earlier entries: `show` lists them all)" in last and "chombo by B (誤ロン) —" in last
    assert "penalty false_call by C: 0 points" not in last
