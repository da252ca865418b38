"""Payout under arbitrary outcomes (hypothesis): every outcome either settles with points and chips
conserved (what leaves the table's sticks goes to the seats, P48/P101) or raises ``OutcomeError`` —
never another exception."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sanma.errors import SanmaError
from sanma.game.payout import (
    RINSHAN_PAO,
    AbortiveDraw,
    Chombo,
    ExhaustiveDraw,
    Hora,
    Offence,
    Outcome,
    OutcomeError,
    Pao,
    Win,
    settle,
)
from sanma.rules.schema import Rules
from sanma.scoring import score_from_han

PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")
seat = st.integers(-1, 3)
seats = st.lists(seat, max_size=4).map(tuple)


@st.composite
def wins(draw: st.DrawFn, rules: Rules, dealer: int, tsumo: bool) -> Win:
    me = draw(seat)
    yakuman = draw(st.sampled_from((0, 0, 0, 1, 2)))
    names = draw(st.lists(st.sampled_from(("ippatsu", "ura_dora", "chinitsu", "junchan", "chinroutou",
                                           "daisangen", "rinshan")), max_size=3, unique=True))
    try:
        wind = "ESW"[(me - dealer) % 3]
        s = score_from_han(draw(st.integers(1, 13)), draw(st.sampled_from((20, 25, 30, 40, 70, 110))),
                           yakuman=yakuman, yaku=tuple(names[:yakuman] if yakuman else names), tsumo=tsumo,
                           seat_wind=wind, discarder_wind="ESW"[(me - dealer + 1) % 3], rules=rules)
    except SanmaError:
        s = score_from_han(1, 30, rules=rules)
    pao = tuple(Pao(draw(seat), draw(st.sampled_from(("daisangen", RINSHAN_PAO))))
                for _ in range(draw(st.integers(0, 1))))
    return Win(me, s, pao, closed=draw(st.booleans()), ura_tiles=draw(st.none() | st.integers(-1, 4)),
               chinitsu_shape=draw(st.booleans()), chip_flowers=draw(st.integers(-1, 2)))


@st.composite
def cases(draw: st.DrawFn) -> tuple[Rules, Outcome, int, int, int]:
    rules = Rules.preset(draw(st.sampled_from(PRESETS)))
    dealer = draw(st.integers(0, 2))
    kind = draw(st.sampled_from(("tsumo", "ron", "draw", "abort", "chombo")))
    out: Outcome
    if kind == "tsumo":
        out = Hora((draw(wins(rules, dealer, True)),))
    elif kind == "ron":
        out = Hora(tuple(draw(wins(rules, dealer, False)) for _ in range(draw(st.integers(1, 2)))), draw(seat))
    elif kind == "draw":
        out = ExhaustiveDraw(draw(seats), draw(seats))
    elif kind == "abort":
        out = AbortiveDraw(draw(st.sampled_from(("kyuushu", "four_kans", "bogus"))))
    else:
        out = Chombo(tuple(Offence(s, "noten_riichi") for s in draw(seats)), draw(seats))
    return rules, out, dealer, draw(st.integers(0, 3)), draw(st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(cases())
def test_payout_conserves_points_and_chips_or_raises_outcome_error(case: tuple[Rules, Outcome, int, int, int]) -> None:
    rules, outcome, dealer, honba, kyotaku = case
    try:
        paid = settle(rules, outcome, scores=(35000, 35000, 35000), dealer=dealer, honba=honba, kyotaku=kyotaku)
    except OutcomeError:
        return
    assert sum(paid.deltas) == (kyotaku - paid.kyotaku) * rules.riichi_deposit
    assert sum(paid.chips) == 0 and 0 <= paid.kyotaku <= kyotaku
