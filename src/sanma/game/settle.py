"""End-of-game settlement: placement, leftover sticks, oka and uma in each rule set's form.

>>> from sanma.rules.schema import Rules
>>> r = final_result(Rules(start_points=35000, return_points=40000, uma=(20, 0, -20)), [63300, 48100, -6400])
>>> r.ranks, r.points
((1, 2, 3), (58.3, 8.1, -66.4))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..rules.schema import Rules


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a game's final settlement: ``what`` it is and the matrix row of its rule, and
    what it moves per seat — ``scores`` in points, ``points`` in final points (thousands),
    ``chips`` — with ``count`` for what is counted (sticks left on the table, chombos)."""

    what: str
    rule: str
    scores: tuple[int, ...] = (0, 0, 0)
    points: tuple[float, ...] = (0.0, 0.0, 0.0)
    chips: tuple[int, ...] = (0, 0, 0)
    count: int = 0

    def to_json(self) -> dict[str, object]:
        return {"what": self.what, "rule": self.rule, "scores": list(self.scores), "points": list(self.points),
                "chips": list(self.chips), "count": self.count}


@dataclass(frozen=True, slots=True)
class FinalResult:
    """Final scores (after leftover sticks), ranks 1..3 per seat and final points (thousands);
    ``items`` the settlement line by line when asked for (``final_result(itemise=True)``): the
    points of each seat are the sum of its items' points, its chips those of its items' chips
    plus the chips it came in with."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    points: tuple[float, ...]
    chips: tuple[int, ...] = (0, 0, 0)
    items: tuple[Item, ...] = ()


def placement(scores: Sequence[int], first_dealer: int = 0) -> tuple[int, ...]:
    """Rank per seat; ties go to the seat earlier in dealer order from the first dealer (P29)."""
    n = len(scores)
    order = sorted(range(n), key=lambda s: (-scores[s], (s - first_dealer) % n))
    ranks = [0] * n
    for r, s in enumerate(order):
        ranks[s] = r + 1
    return tuple(ranks)


def oka(rules: Rules, seats: int) -> int:
    """The oka the top takes (P27), in points: what each of ``seats`` paid in above the start
    (return points − start points); 0 without oka."""
    return (rules.return_points - rules.start_points) * seats if rules.oka else 0


def final_result(
    rules: Rules, scores: Sequence[int], *, kyotaku: int = 0, first_dealer: int = 0,
    busted: Sequence[int] = (), busters: Sequence[int] = (), chips: Sequence[int] = (0, 0, 0),
    chombos: Sequence[int] = (0, 0, 0), itemise: bool = False,
) -> FinalResult:
    """Settle a finished game. ``kyotaku`` counts riichi sticks left on the table (P31);
    ``chombos`` the chombo each seat committed (rank points taken here when chombo = rank_points);
    ``itemise``: also each line of the settlement (``FinalResult.items``).

    >>> from sanma.rules.schema import Rules
    >>> final_result(Rules.preset("official"), [40000, 35000, 30000], chombos=[0, 1, 0]).points
    (30.0, -35.0, -30.0)
    >>> [(i.what, i.points) for i in final_result(Rules.preset("official"), [40000, 35000, 30000],
    ...                                          chombos=[0, 1, 0], itemise=True).items]
    [('score', (0.0, -5.0, -10.0)), ('uma', (30.0, -10.0, -20.0)), ('chombo', (0.0, -20.0, 0.0))]
    """
    n = len(scores)
    items: list[Item] = []
    s = list(scores)
    ranks = placement(s, first_dealer)
    top = ranks.index(1)
    if kyotaku and rules.leftover_riichi == "top":
        s[top] += kyotaku * rules.riichi_deposit
        if itemise:
            items.append(Item("sticks_to_top", "P31", scores=_one(n, top, kyotaku * rules.riichi_deposit),
                              count=kyotaku))
    elif kyotaku and itemise:  # P31 (OFFICIAL 「半荘終了時の保留リーチ料は供託」): nobody takes them
        items.append(Item("sticks_forfeited", "P31", count=kyotaku))
    chip_list = list(chips)
    base = [(x - rules.return_points) / 1000 for x in s]
    uma = _uma(rules, s, ranks)
    points = [base[i] + uma[i] for i in range(n)]
    points[top] += oka(rules, n) / 1000
    if itemise:
        items.append(Item("score", "P25", points=tuple(base)))
        if oka(rules, n):
            items.append(Item("oka", "P27", points=_one(n, top, oka(rules, n) / 1000)))
    if rules.uma_type == "chips":
        for i in range(n):
            chip_list[i] += uma[i]
            points[i] -= uma[i]
        if itemise:
            items.append(Item("uma", "P26", chips=tuple(uma)))
    elif itemise and any(uma):
        items.append(Item("uma", "P26", points=tuple(float(u) for u in uma)))
    bust = [0.0] * n
    for b in busted:  # P110 (OFFICIAL): the busted player loses, the buster gains rank points
        bust[b] -= rules.bust_rank_points
        for x in busters:
            bust[x] += rules.bust_rank_points / max(1, len(busters))
    points = [p + d for p, d in zip(points, bust, strict=True)]
    if itemise and any(bust):
        items.append(Item("bust", "P110", points=tuple(bust)))
    if rules.tie_break == "split":
        split = _split_ties(rules, s, ranks, points, uma)
        if itemise and split != points:
            items.append(Item("tie_split", "P29", points=tuple(a - b for a, b in zip(split, points, strict=True))))
        points = split
    if rules.chombo == "rank_points" and any(chombos):  # P100 (OFFICIAL) 「チョンボの減点は、半荘終了時に△20となる」
        taken = [float(-chombo_rank_points(rules, k)) for k in chombos]
        points = [p + t for p, t in zip(points, taken, strict=True)]
        if itemise:
            items.append(Item("chombo", "P100", points=tuple(taken), count=sum(chombos)))
    rounded = _rounded(rules, points, top)
    if itemise:
        summed = [sum(i.points[x] for i in items) for x in range(n)]
        if any(abs(r - t) > 1e-9 for r, t in zip(rounded, summed, strict=True)):
            items.append(Item("rounding", "P25", points=tuple(round(r - t, 6) for r, t in zip(rounded, summed,
                                                                                           strict=True))))
    return FinalResult(tuple(s), ranks, tuple(rounded), tuple(chip_list), tuple(items))


def _rounded(rules: Rules, points: list[float], top: int) -> list[float]:
    """P25: the final points as the rules round them: to a tenth, or whole numbers as Tenhou's records
    keep them (every seat but the top rounded, the top takes what that moved: dnovikoff-sanma2.xml:
    -12.6 -> -13 and -65.5 -> -66, so 78.1 -> 79 = 13 + 66)."""
    if rules.final_rounding != "integer":
        return [float(round(p, 1)) for p in points]
    rounded = [float(round(p)) for p in points]
    moved = sum(p - r for i, (p, r) in enumerate(zip(points, rounded, strict=True)) if i != top)
    rounded[top] = float(round(points[top] + moved))
    return rounded


def chombo_rank_points(rules: Rules, chombos: int) -> int:
    """P100: the rank points ``chombos`` chombo cost at the game's end where the rules take them so
    (seed 002 L81 「チョンボの減点は、半荘終了時に△20となる」), else 0 (paid in points at once)."""
    return rules.chombo_rank_points * chombos if rules.chombo == "rank_points" else 0


def _one(n: int, seat: int, value: int | float) -> tuple[Any, ...]:
    return tuple(value if x == seat else type(value)(0) for x in range(n))


def is_bust(rules: Rules, score: int) -> bool:
    """P108: a player busts below zero, or at zero too (``rules.bust``)."""
    return score < 0 if rules.bust == "below_zero" else score <= 0


def bust_chips_owed(rules: Rules, score: int, *, opening: bool, dealer: bool) -> int:
    """Chips a player busted with ``score`` owes each player who caused it (P110-P112, CLUB): the
    bust chips, more per further box (a box is 15,000 below the return after the first, A000-9),
    more again in East 1 of the first lap (``opening``), by dealer or not.

    >>> from sanma.rules.schema import Rules
    >>> club = Rules.preset("club")
    >>> [bust_chips_owed(club, s, opening=o, dealer=False) for s, o in ((-1000, False), (-20000, False), (-1000, True))]
    [3, 6, 8]
    """
    if not rules.chips or not rules.bust_chips:
        return 0
    below = rules.return_points - score
    boxes = 1 + max(0, (below - rules.return_points) // 15000) if below > rules.return_points else 1
    owed = rules.bust_chips + rules.bust_extra_box_chips * (boxes - 1)
    if opening:
        owed += rules.early_bust_chips[1 if dealer else 0]
    return owed


def riichi_bust(rules: Rules, score: int) -> bool:
    """P79 / A000-19 (CLUB) 「1,000点以下でうっかりリーチを掛けたときは、その時点で箱割れとして扱い、
    箱割れチップは両者に払う」: whether a riichi declared with ``score`` points is a bust at once
    (``riichi_bust_points``; 0 = never). The engine and the score keeper both ask here.

    >>> from sanma.rules.schema import Rules
    >>> club = Rules.preset("club")
    >>> [riichi_bust(club, s) for s in (1000, 1100)], riichi_bust(Rules.preset("kansai"), 1000)
    ([True, False], False)
    """
    return rules.riichi_bust_points > 0 and score <= rules.riichi_bust_points


def _uma(rules: Rules, scores: Sequence[int], ranks: Sequence[int]) -> list[int]:
    if rules.uma_type == "none":
        return [0] * len(scores)
    table = rules.uma
    if rules.uma_type == "sinking":
        # P27 / A002-7: one player at or above the return ("floating") -> (30, -10, -20);
        # two -> (20, 10, -30); none counts as one (the top), three as two.
        floating = sum(1 for x in scores if x >= rules.return_points)
        table = rules.uma_two_floating if floating >= 2 else rules.uma
    return [table[r - 1] for r in ranks]


def uma_by_seat(rules: Rules, scores: Sequence[int], ranks: Sequence[int]) -> tuple[float, ...]:
    """The uma each seat gets in :func:`final_result` (P26, P27): by placement from ``rules.uma``,
    from ``uma_two_floating`` when two or more float under sinking uma (A002-7), tied places
    sharing theirs under ``tie_break = "split"`` (P29). ``scores`` / ``ranks`` are the result's.

    >>> from sanma.rules.schema import Rules
    >>> uma_by_seat(Rules.preset("official"), [50000, 41000, 29000], [1, 2, 3])  # two float: +20 +10 -30
    (20.0, 10.0, -30.0)
    """
    uma = _uma(rules, scores, ranks)
    if rules.tie_break != "split":
        return tuple(float(u) for u in uma)
    out = []
    for i in range(len(scores)):  # P29 (OFFICIAL): tied places share their rank points equally
        tied = [j for j in range(len(scores)) if scores[j] == scores[i]]
        out.append(sum(uma[j] for j in tied) / len(tied))
    return tuple(out)


def _split_ties(rules: Rules, scores: Sequence[int], ranks: Sequence[int], points: list[float],
                uma: list[int]) -> list[float]:
    """P29 (OFFICIAL): tied places share their rank points equally (``uma_by_seat``)."""
    shared = uma_by_seat(rules, scores, ranks)
    return [points[i] - uma[i] + shared[i] for i in range(len(scores))]
