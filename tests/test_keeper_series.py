"""Seed 000's series rules at the score keeper (RULES_MATRIX §5.1, §5.3): P120, P123, P124, P126, P28."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sanma.keeper.series import Series, SeriesError, streak_chips_each


def test_p120_streak_chip_schedule_from_the_seed() -> None:
    """P120 L101-109 / L147-155: 4th consecutive 10, 5th-7th 5, 8th 20, 9th-11th 10, 12th 30, 13th-15th 15."""
    assert [streak_chips_each(n) for n in range(1, 16)] == [0, 0, 0, 10, 5, 5, 5, 20, 10, 10, 10, 30, 15, 15, 15]


def test_p126_north_drawer_sits_out_first_then_previous_second() -> None:
    """P126 L20-23: game 1 the North drawer sits out; later the previous game's 2nd; nobody moves."""
    s = Series.start(("A", "B", "C", "D"), players_in_rotation=4)
    assert s.sitting_out() == "D" and s.active() == ("A", "B", "C")
    s = s.after_game({"A": 3, "B": 2, "C": 1}, last_winner="C")
    assert s.sitting_out() == "B"
    assert s.active() == ("A", "C", "D")  # table order E, W, N: the South position is the empty seat
    assert s.seat_order("D") == ("D", "A", "C")


def test_p126_sit_out_after_a_reseat_is_still_the_previous_second() -> None:
    """P126 L21: 「場所替え時に「北」を引いた人ではなく場所替え直前の半荘の2位抜け」."""
    s = Series.start(("A", "B", "C", "D"), players_in_rotation=4)
    for ranks in ({"A": 1, "B": 2, "C": 3}, {"A": 1, "C": 2, "D": 3}, {"A": 1, "B": 2, "D": 3},
                  {"A": 2, "C": 1, "D": 3}):
        s = s.after_game(ranks, last_winner=None)
    assert s.reseat_due()
    s = s.reseat(("D", "A", "B", "C"))  # C drew North this time but A was second
    assert s.sitting_out() == "A" and s.positions == ("D", "A", "B", "C") and not s.reseat_due()


def test_p124_who_rolls_for_the_provisional_dealer() -> None:
    """P124 L27-30: after a draw the East drawer (South if East sits out); later the previous last
    winner, or the previous top when that person sits out (A000-13 when nobody won)."""
    s = Series.start(("A", "B", "C", "D"), players_in_rotation=4)
    assert s.roller() == "A"
    s2 = s.after_game({"A": 1, "B": 2, "C": 3}, last_winner="B")  # B won last but sits out (2nd)
    assert s2.sitting_out() == "B" and s2.roller() == "A"
    s3 = s.after_game({"A": 2, "B": 1, "C": 3}, last_winner="C")
    assert s3.roller() == "C"
    s4 = s.after_game({"A": 2, "B": 1, "C": 3}, last_winner=None)
    assert s4.roller() == "B"
    drawn = Series.start(("D", "A", "B", "C"), players_in_rotation=4).after_game(
        {"A": 1, "B": 3, "D": 2}, last_winner=None).reseat(("D", "B", "A", "C"))
    assert drawn.sitting_out() == "D" and drawn.roller() == "B"  # East drawer sits out: South rolls


def test_p28_uma_doubling_queue_a000_10() -> None:
    """P28 / A000-10: the game after someone's consecutive tops (or lasts) has doubled uma; two
    triggers at once queue two doubled games."""
    s = Series.start(("A", "B", "C"), players_in_rotation=4)
    s = s.after_game({"A": 1, "B": 2, "C": 3}, last_winner=None)
    assert s.uma_multiplier(True) == 1
    s = s.after_game({"A": 1, "B": 2, "C": 3}, last_winner=None)  # A top twice, C last twice
    assert s.pending_double == 2 and s.uma_multiplier(True) == 2 and s.uma_multiplier(False) == 1
    s = s.after_game({"A": 2, "B": 1, "C": 3}, last_winner=None)  # uses one; C's third last adds one
    assert s.pending_double == 2
    s = s.after_game({"A": 2, "B": 1, "C": 3}, last_winner=None)  # uses one; B's 2nd top and C's 4th last add two
    assert s.pending_double == 3
    s = s.after_game({"A": 3, "B": 2, "C": 1}, last_winner=None)  # no streak: uses one
    assert s.pending_double == 2


def test_p120_streak_chips_paid_by_and_to_the_others_in_that_game() -> None:
    """P120: on the 4th consecutive top the two others pay 10 each; on a 4th last the last pays each 10."""
    s = Series.start(("A", "B", "C"), players_in_rotation=3)
    for _ in range(3):
        s = s.after_game({"A": 1, "B": 2, "C": 3}, last_winner=None)
    chips = s.streak_chips({"A": 1, "B": 2, "C": 3}, enabled=True)
    assert chips == {"A": 10 + 10 + 10, "B": -10 + 10, "C": -10 - 20}
    assert s.streak_chips({"A": 1, "B": 2, "C": 3}, enabled=False) == {"A": 0, "B": 0, "C": 0}
    assert s.streak_chips({"A": 2, "B": 1, "C": 3}, enabled=True)["C"] == -20  # C's 4th last; A's top streak broken


def test_p126_bad_seatings_are_refused() -> None:
    with pytest.raises(SeriesError, match="players_in_rotation = 4"):
        Series.start(("A", "B", "C", "D"), players_in_rotation=3)
    with pytest.raises(SeriesError, match="twice"):
        Series.start(("A", "B", "A"), players_in_rotation=3)
    with pytest.raises(SeriesError, match="3 or 4"):
        Series.start(("A", "B"), players_in_rotation=3)
    s = Series.start(("A", "B", "C", "D"), players_in_rotation=4)
    with pytest.raises(SeriesError, match="not playing"):
        s.seat_order("D")
    with pytest.raises(SeriesError, match="same people"):
        s.reseat(("A", "B", "C", "E"))


@given(st.lists(st.permutations([1, 2, 3]), min_size=1, max_size=30))
def test_p120_streak_chips_sum_to_zero_and_the_sit_out_is_always_the_last_second(games: list[list[int]]) -> None:
    """P120 / P126 as properties: chips move between the game's players only; the sit-out is the
    previous game's second and never plays that game."""
    s = Series.start(("A", "B", "C", "D"), players_in_rotation=4)
    for ranks_list in games:
        players = s.active()
        ranks = dict(zip(players, ranks_list, strict=True))
        assert sum(s.streak_chips(ranks, True).values()) == 0
        s = s.after_game(ranks, last_winner=None)
        assert s.sitting_out() == next(p for p, r in ranks.items() if r == 2)
        assert s.sitting_out() not in s.active() and len(s.active()) == 3


def test_p28_uma_doubling_multiply_reading_a000_10() -> None:
    """P28 / A000-10, the "multiply" reading of 「重ねて累積しておき」: two doublings at once make the
    next game's uma x 4, and none is carried to the game after (queue: x2 and x2)."""
    q = m = Series.start(("A", "B", "C"), players_in_rotation=3)
    for ranks in ({"A": 1, "B": 2, "C": 3}, {"A": 1, "B": 2, "C": 3}):  # A top twice, C last twice
        q = q.after_game(ranks, last_winner=None, stack="queue")
        m = m.after_game(ranks, last_winner=None, stack="multiply")
    assert (q.uma_multiplier(True, "queue"), m.uma_multiplier(True, "multiply")) == (2, 4)
    no_streak = {"A": 3, "B": 1, "C": 2}
    q = q.after_game(no_streak, last_winner=None, stack="queue")
    m = m.after_game(no_streak, last_winner=None, stack="multiply")
    assert (q.uma_multiplier(True, "queue"), m.uma_multiplier(True, "multiply")) == (2, 1)
    # a new trigger after a multiplied game starts a new count
    m = m.after_game({"A": 2, "B": 1, "C": 3}, last_winner=None, stack="multiply")  # B's 2nd top
    assert m.uma_multiplier(True, "multiply") == 2
