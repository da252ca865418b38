"""Worked payment vectors of RULES_MATRIX §4.3 and every printed cell of seed 001's score tables.

Expected values are transcribed here as data from the matrix (§4.1 tables, §4.3 vectors A1-A8,
B1-B4, C1-C6, D1-D6, the limit-hand quick reference and the penalty lines) with their ids; they
are never computed from ``Rules``. Two layers are tested: ``basic_points`` / ``payments`` with a
``Rules`` of the right payment model, and ``score_hand`` end to end with a real hand of that fu /
han under the preset that uses the model (A: club / official, C: online, D: kansai).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import sanma
from sanma.scoring import basic_points, payments

CLUB = sanma.Rules.preset("club")
ONLINE = sanma.Rules.preset("online")
OFFICIAL = sanma.Rules.preset("official")
KANSAI = sanma.Rules.preset("kansai")
MODEL = {  # §4.2 payment models as Rules (B / B2 are options, not used by a seed as written)
    "A": CLUB,
    "B": dataclasses.replace(ONLINE, tsumo_payment="north_split"),
    "B2": dataclasses.replace(ONLINE, tsumo_payment="north_split_rounded"),
    "C": ONLINE,
    "D": KANSAI,
}

# Hands (no fives, no honours, no North: no preset-specific dora or yakuhai).
BASE = "111m99m123p678p789s"  # closed, no yaku; 7s penchan: 20 + 10 (menzen ron) + 8 (1m) + 2 = 40 fu
BASE_WIN = "7s"               # tsumo: 20 + 8 + 2 + 2 = 32 -> 40 fu
TRIP = "222p678p234s678s99m"  # 4s ryanmen; tsumo: 20 + 4 (222p) + 2 = 26 -> 30 fu
TRIP_WIN = "4s"
PINFU = "99m123p678p234s678s"  # pinfu, ryanmen 4s
CHIITOI = "1199m2244p6688s33z"


# --- §4.3 vectors through basic_points / payments -------------------------------------------------

# id, model, han, fu (0 = a limit given by han), dealer, expected (from dealer, from non-dealer)
# for a tsumo (each payer for a dealer win), and the ron value.
VECTORS: list[tuple[str, str, int, int, bool, tuple[int, int], int]] = [
    ("A1", "A", 3, 30, False, (2000, 1000), 3900),
    ("A2", "A", 2, 40, True, (1300, 1300), 3900),
    ("A3", "A", 5, 0, False, (4000, 2000), 8000),
    ("A4", "A", 4, 30, False, (3900, 2000), 7700),  # 「7,700点（3,900、2,000）」, no kiriage
    ("A5", "A", 4, 30, True, (3900, 3900), 11600),  # 「11,600点（3,900オール）」
    ("A7", "A", 2, 20, False, (700, 400), 0),  # pinfu tsumo, 20 fu 2 han (no ron at 20 fu)
    ("A8", "A", 2, 30, False, (1000, 500), 2000),  # OFFICIAL all 30 fu: 500・1000 before honba
    ("B1", "B", 3, 30, False, (2400, 1500), 3900),
    ("B1-B2", "B2", 3, 30, False, (2500, 1500), 3900),
    ("B2", "B", 2, 40, True, (2000, 2000), 3900),
    ("B3", "B", 5, 0, False, (5000, 3000), 8000),
    ("B4", "B", 1, 30, False, (600, 400), 1000),
    ("B4-B2", "B2", 1, 30, False, (700, 500), 1000),
    ("C1", "C", 3, 30, False, (2000, 2000), 3900),
    ("C2", "C", 2, 40, True, (2000, 2000), 3900),
    ("C3", "C", 5, 0, False, (4000, 4000), 8000),
    ("C4", "C", 1, 30, True, (800, 800), 1500),
    ("C5", "C", 2, 110, False, (3600, 3600), 7100),
    ("D1", "D", 3, 30, False, (2000, 2000), 3900),
    ("D2", "D", 2, 40, True, (2000, 2000), 3900),
    ("D3", "D", 5, 0, False, (4000, 4000), 8000),
    ("D4", "D", 3, 40, False, (2600, 2600), 5200),  # chiitoi 2 + tsumo 1 at 40 fu
    ("D5", "D", 2, 40, True, (2000, 2000), 3900),  # chiitoi ron 40 fu 2 han (3,900 before honba)
    # limit-hand quick reference (b fixed)
    ("QR-haneman-A", "A", 6, 0, False, (6000, 3000), 12000),
    ("QR-haneman-B", "B", 6, 0, False, (7500, 4500), 12000),
    ("QR-haneman-C", "C", 6, 0, False, (6000, 6000), 12000),
    ("QR-yakuman-A", "A", 13, 0, False, (16000, 8000), 32000),
    ("QR-yakuman-B", "B", 13, 0, False, (20000, 12000), 32000),
    ("QR-yakuman-C", "C", 13, 0, False, (16000, 16000), 32000),
    ("QR-dealer-yakuman-A", "A", 13, 0, True, (16000, 16000), 48000),
    ("QR-dealer-yakuman-B", "B", 13, 0, True, (24000, 24000), 48000),
    ("QR-dealer-yakuman-C", "C", 13, 0, True, (24000, 24000), 48000),
    # penalty lines: CLUB chombo 「満貫払い」 = reversed mangan tsumo under A (A000-14);
    # KANSAI 「ハネ満払い」 = reversed haneman under D (A003-3).
    ("chombo-club-nondealer", "A", 5, 0, False, (4000, 2000), 8000),
    ("chombo-club-dealer", "A", 5, 0, True, (4000, 4000), 12000),
    ("chombo-kansai-nondealer", "D", 6, 0, False, (6000, 6000), 12000),
    ("chombo-kansai-dealer", "D", 6, 0, True, (9000, 9000), 18000),
]


@pytest.mark.parametrize(("vid", "model", "han", "fu", "dealer", "tsumo", "ron"), VECTORS,
                         ids=[v[0] for v in VECTORS])
def test_payment_vector_matrix_4_3(vid: str, model: str, han: int, fu: int, dealer: bool,
                                   tsumo: tuple[int, int], ron: int) -> None:
    """RULES_MATRIX §4.3 vector ``vid`` (models A tsumo-son, B north split, B2 split after
    rounding, C equal halves, D full amount with the C split): tsumo payments and ron value."""
    rules = MODEL[model]
    b, _ = basic_points(han, fu or 30, rules)
    assert payments(b, dealer, True, rules) == tsumo
    if ron:
        assert payments(b, dealer, False, rules) == (ron, 0)


def test_kansai_optional_1000_rounding_D6() -> None:
    """D6 (external Kansai custom, not in the seed): with 1,000-point rounding a non-dealer
    40 fu 3 han tsumo (5,200 ron) becomes 6,000, paid 3,000 each."""
    rules = dataclasses.replace(KANSAI, rounding=1000)
    b, _ = basic_points(3, 40, rules)
    assert payments(b, False, False, rules) == (6000, 0)
    assert payments(b, False, True, rules) == (3000, 3000)


# --- §4.3 vectors end to end through score_hand ---------------------------------------------------

# id, preset, hand, win, kwargs, expected (han, fu, total, deltas E/S/W)
E2E: list[tuple[str, str, str, str, dict[str, Any], tuple[int, int, int, dict[str, int]]]] = [
    ("A1", "club", TRIP, TRIP_WIN, {"tsumo": True, "riichi": True, "ippatsu": True, "seat_wind": "S"},
     (3, 30, 3000, {"E": -2000, "S": 3000, "W": -1000})),
    ("A2", "club", BASE, BASE_WIN, {"tsumo": True, "riichi": True},
     (2, 40, 2600, {"E": 2600, "S": -1300, "W": -1300})),
    ("A3", "club", BASE, BASE_WIN, {"tsumo": True, "riichi": True, "dora_indicators": ["9m"], "seat_wind": "S"},
     (5, 40, 6000, {"E": -4000, "S": 6000, "W": -2000})),
    ("A4", "club", TRIP, TRIP_WIN,
     {"tsumo": True, "riichi": True, "ippatsu": True, "dora_indicators": ["7s"], "seat_wind": "S"},
     (4, 30, 5900, {"E": -3900, "S": 5900, "W": -2000})),
    ("A5", "club", TRIP, TRIP_WIN, {"tsumo": True, "riichi": True, "ippatsu": True, "dora_indicators": ["7s"]},
     (4, 30, 7800, {"E": 7800, "S": -3900, "W": -3900})),
    # A6: A3 at 2 honba, 500 per honba per payer (CLUB); as a ron 8,000 + 2 x 1,500 = 11,000.
    ("A6", "club", BASE, BASE_WIN,
     {"tsumo": True, "riichi": True, "dora_indicators": ["9m"], "seat_wind": "S", "honba": 2},
     (5, 40, 6000, {"E": -5000, "S": 8000, "W": -3000})),
    ("A6-ron", "club", BASE, BASE_WIN,
     {"riichi": True, "dora_indicators": ["9m"], "seat_wind": "S", "discarder_wind": "W", "honba": 2},
     (4, 40, 8000, {"E": 0, "S": 11000, "W": -11000})),
    ("A7", "club", PINFU, "4s", {"tsumo": True, "seat_wind": "S"},
     (2, 20, 1100, {"E": -700, "S": 1100, "W": -400})),
    # A8 (OFFICIAL, all 30 fu): 「500・1000は、1500・2000」 at 1 honba (+1,000 per payer).
    ("A8", "official", BASE, BASE_WIN, {"tsumo": True, "riichi": True, "seat_wind": "S", "honba": 1},
     (2, 30, 1500, {"E": -2000, "S": 3500, "W": -1500})),
    ("C1", "online", TRIP, TRIP_WIN, {"tsumo": True, "riichi": True, "ippatsu": True, "seat_wind": "S"},
     (3, 30, 4000, {"E": -2000, "S": 4000, "W": -2000})),
    ("C2", "online", BASE, BASE_WIN, {"tsumo": True, "riichi": True},
     (2, 40, 4000, {"E": 4000, "S": -2000, "W": -2000})),
    ("C3", "online", BASE, BASE_WIN, {"tsumo": True, "riichi": True, "dora_indicators": ["9m"], "seat_wind": "S"},
     (5, 40, 8000, {"E": -4000, "S": 8000, "W": -4000})),
    ("C4", "online", TRIP, TRIP_WIN, {"tsumo": True},
     (1, 30, 1600, {"E": 1600, "S": -800, "W": -800})),
    # C5: 20 + ankan 1p 32 + ankan 9p 32 + open kan 1s 16 + tsumo 2 = 102 -> 110 fu; sankantsu 2.
    ("C5", "online", "234s99m", "4s", {"tsumo": True, "seat_wind": "S",
                                       "melds": ["ankan:1111p", "ankan:9999p", "kan:1111s"]},
     (2, 110, 7200, {"E": -3600, "S": 7200, "W": -3600})),
    # C6: C3 at 1 honba, +300 from each payer (A001-8).
    ("C6", "online", BASE, BASE_WIN,
     {"tsumo": True, "riichi": True, "dora_indicators": ["9m"], "seat_wind": "S", "honba": 1},
     (5, 40, 8000, {"E": -4300, "S": 8600, "W": -4300})),
    ("D1", "kansai", TRIP, TRIP_WIN, {"tsumo": True, "riichi": True, "ippatsu": True, "seat_wind": "S"},
     (3, 30, 4000, {"E": -2000, "S": 4000, "W": -2000})),
    ("D2", "kansai", BASE, BASE_WIN, {"tsumo": True, "riichi": True},
     (2, 40, 4000, {"E": 4000, "S": -2000, "W": -2000})),
    ("D3", "kansai", BASE, BASE_WIN, {"tsumo": True, "riichi": True, "dora_indicators": ["9m"], "seat_wind": "S"},
     (5, 40, 8000, {"E": -4000, "S": 8000, "W": -4000})),
    ("D4", "kansai", CHIITOI, "3z", {"tsumo": True, "seat_wind": "S"},
     (3, 40, 5200, {"E": -2600, "S": 5200, "W": -2600})),
    ("D5", "kansai", CHIITOI, "3z", {"discarder_wind": "S", "honba": 1},
     (2, 40, 3900, {"E": 4900, "S": -4900, "W": 0})),
]


@pytest.mark.parametrize(("vid", "preset", "hand", "win", "kw", "expected"), E2E, ids=[v[0] for v in E2E])
def test_payment_vector_end_to_end_matrix_4_3(vid: str, preset: str, hand: str, win: str, kw: dict[str, Any],
                                              expected: tuple[int, int, int, dict[str, int]]) -> None:
    """RULES_MATRIX §4.3 vector ``vid`` with a real hand of that han / fu under the preset that uses
    the model (A: club, official; C: online; D: kansai): han, fu, total before honba, deltas."""
    s = sanma.score_hand(hand, win=win, rules=sanma.Rules.preset(preset), **kw)
    han, fu, total, deltas = expected
    assert (s.han, s.fu, s.total) == (han, fu, total), s.yaku
    assert dict(s.deltas) == deltas


# --- seed 001 (ONLINE) score tables, every printed cell (§4.1) ------------------------------------

NA = None  # 「――」 printed: no value
M = "M"   # 満貫 printed
Cell = tuple[int | str | None, int | str | None]
# fu -> [(tsumo each, ron) for han 1..4], exactly as printed; dealer 40 fu 3 han ron printed
# 「77000」 (‡, A001-3) is written as its recommended reading 7,700.
DEALER: dict[int, list[Cell]] = {
    20: [(NA, NA), (1000, NA), (2000, NA), (3900, NA)],
    25: [(NA, NA), (NA, 2400), (2400, 4800), (4800, 9600)],
    30: [(800, 1500), (1500, 2900), (2900, 5800), (5800, 11600)],
    40: [(1000, 2000), (2000, 3900), (3900, 7700), (M, M)],
    50: [(1200, 2400), (2400, 4800), (4800, 9600), (M, M)],
    60: [(1500, 2900), (2900, 5800), (5800, 11600), (M, M)],
    70: [(1700, 3400), (3400, 6800), (M, M), (M, M)],
    80: [(2000, 3900), (3900, 7700), (M, M), (M, M)],
    90: [(2200, 4400), (4400, 8700), (M, M), (M, M)],
    100: [(2400, 4800), (4800, 9600), (M, M), (M, M)],
    110: [(2700, 5300), (5300, 10600), (M, M), (M, M)],
}
# Non-dealer; the 20-fu ron cells (§) are printed although unreachable (A001-5).
NONDEALER: dict[int, list[Cell]] = {
    20: [(NA, NA), (700, 1300), (1300, 2600), (2600, 5200)],
    25: [(NA, NA), (NA, 1600), (1600, 3200), (3200, 6400)],
    30: [(500, 1000), (1000, 2000), (2000, 3900), (3900, 7700)],
    40: [(700, 1300), (1300, 2600), (2600, 5200), (M, M)],
    50: [(800, 1600), (1600, 3200), (3200, 6400), (M, M)],
    60: [(1000, 2000), (2000, 3900), (3900, 7700), (M, M)],
    70: [(1200, 2300), (2300, 4500), (M, M), (M, M)],
    80: [(1300, 2600), (2600, 5200), (M, M), (M, M)],
    90: [(1500, 2900), (2900, 5800), (M, M), (M, M)],
    100: [(1600, 3200), (3200, 6400), (M, M), (M, M)],
    110: [(1800, 3600), (3600, 7100), (M, M), (M, M)],
}
# Limit rows: han -> (tsumo each, ron). Non-dealer baiman and kazoe yakuman are printed
# 9,000/18,000 and 18,000/36,000 (copied from the dealer block, A001-4); the recommended
# standard values 8,000/16,000 and 16,000/32,000 are asserted instead.
DEALER_LIMITS = {5: (6000, 12000), 6: (9000, 18000), 8: (12000, 24000), 11: (18000, 36000), 13: (24000, 48000)}
NONDEALER_LIMITS = {5: (4000, 8000), 6: (6000, 12000), 8: (8000, 16000), 11: (12000, 24000), 13: (16000, 32000)}
MANGAN = {True: (6000, 12000), False: (4000, 8000)}

TABLE_CELLS = [
    pytest.param(dealer, fu, han, cell, id=f"{'dealer' if dealer else 'nondealer'}-{fu}fu-{han}han")
    for dealer, table in ((True, DEALER), (False, NONDEALER))
    for fu, row in table.items()
    for han, cell in enumerate(row, start=1)
    if cell != (NA, NA)
]


@pytest.mark.parametrize(("dealer", "fu", "han", "cell"), TABLE_CELLS)
def test_seed_001_score_table_cell_online(dealer: bool, fu: int, han: int, cell: Cell) -> None:
    """Seed 001 score table (§4.1), one printed cell under the online preset: tsumo paid by each
    of the two opponents (model C) and the ron value; 「M」 = mangan. The dealer 40 fu 3 han ron
    printed 「77000」 is the typo ‡ (A001-3): the recommended 7,700 is asserted."""
    b, _limit = basic_points(han, fu, ONLINE)
    tsumo, ron = cell
    if tsumo == M:
        tsumo, ron = MANGAN[dealer]
    if tsumo is not None:
        assert payments(b, dealer, True, ONLINE) == (tsumo, tsumo)
    if ron is not None:
        assert payments(b, dealer, False, ONLINE) == (ron, 0)


@pytest.mark.parametrize(("dealer", "han"), [(d, h) for d in (True, False) for h in (5, 6, 7, 8, 10, 11, 12, 13, 20)])
def test_seed_001_limit_rows_online_P57_A001_4(dealer: bool, han: int) -> None:
    """Seed 001 limit rows (P57: 跳満 6-7, 倍満 8-10, 三倍満 11-12, 数え役満 13+). Non-dealer
    baiman / kazoe are printed 9,000/18,000 and 18,000/36,000 — copy errors (A001-4); the
    recommended standard 8,000/16,000 and 16,000/32,000 are asserted."""
    limits = DEALER_LIMITS if dealer else NONDEALER_LIMITS
    key = max(k for k in limits if k <= han)
    tsumo, ron = limits[key]
    b, _limit = basic_points(han, 30, ONLINE)
    assert payments(b, dealer, True, ONLINE) == (tsumo, tsumo)
    assert payments(b, dealer, False, ONLINE) == (ron, 0)


def test_seed_001_no_kiriage_30fu_4han_and_60fu_3han_P55() -> None:
    """P55: seed 001's table prints 30 fu 4 han and 60 fu 3 han as 7,700 / 11,600, not mangan."""
    for han, fu in ((4, 30), (3, 60)):
        assert basic_points(han, fu, ONLINE) == (1920, None)


def test_seed_001_table_end_to_end_samples() -> None:
    """Seed 001 table cells reproduced end to end by score_hand under online: non-dealer
    chiitoi 25 fu 2 han ron 1,600 (「七対子は2翻25符」), non-dealer pinfu tsumo 20 fu 2 han
    700 each (「平和ツモ和了は20符」), dealer 40 fu 1 han ron 2,000 (riichi on BASE)."""
    s = sanma.score_hand(CHIITOI, win="3z", seat_wind="S", rules=ONLINE)
    assert (s.han, s.fu, s.total) == (2, 25, 1600)
    s = sanma.score_hand(PINFU, win="4s", tsumo=True, seat_wind="S", rules=ONLINE)
    assert (s.han, s.fu, dict(s.payments)) == (2, 20, {"E": 700, "W": 700})
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, rules=ONLINE)
    assert (s.han, s.fu, s.total) == (1, 40, 2000)


# --- honba (P43/P44) and riichi sticks (P49) through Score.deltas -----------------------------------

HONBA = {  # preset: (ron per honba, tsumo per honba per payer) — P43 / P44
    "club": (1500, 500),
    "online": (600, 300),  # A001-8
    "official": (1000, 1000),  # A002-2
    "kansai": (1000, 500),  # A003-4
    "tenhou": (200, 100),  # PLATFORMS §1
    "majsoul": (200, 100),  # PLATFORMS §2
}
# Base values of BASE with riichi, non-dealer South: ron (40 fu 1 han; OFFICIAL 30 fu) and tsumo
# (riichi + tsumo 2 han: 40 fu, OFFICIAL 30 fu) as (dealer pays, non-dealer pays).
BASE_VALUES = {
    "club": (1300, (1300, 700)),
    "online": (1300, (1300, 1300)),
    "official": (1000, (1000, 500)),
    "kansai": (1300, (1300, 1300)),
    "tenhou": (1300, (1300, 700)),
    "majsoul": (1300, (1300, 700)),
}


@pytest.mark.parametrize("preset", list(HONBA))
def test_honba_and_riichi_sticks_on_ron_P43_P49(preset: str) -> None:
    """P43/P49: 2 honba and 2 riichi sticks on a non-dealer ron: the discarder pays the value plus
    2 x the preset's ron honba; the winner also collects the 2,000 on the table."""
    ron_h, _tsumo_h = HONBA[preset]
    ron, _ = BASE_VALUES[preset]
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, seat_wind="S", discarder_wind="W", honba=2,
                         kyotaku=2, rules=sanma.Rules.preset(preset))
    assert dict(s.deltas) == {"E": 0, "S": ron + 2 * ron_h + 2000, "W": -(ron + 2 * ron_h)}


@pytest.mark.parametrize("preset", list(HONBA))
def test_honba_and_riichi_sticks_on_tsumo_P44_P49(preset: str) -> None:
    """P44/P49: 2 honba and 1 riichi stick on a non-dealer tsumo: each payer adds 2 x the preset's
    tsumo honba (CLUB 500, ONLINE 300, OFFICIAL 1,000, KANSAI 500, tenhou/majsoul 100)."""
    _ron_h, tsumo_h = HONBA[preset]
    _, (from_dealer, from_other) = BASE_VALUES[preset]
    s = sanma.score_hand(BASE, win=BASE_WIN, riichi=True, tsumo=True, seat_wind="S", honba=2, kyotaku=1,
                         rules=sanma.Rules.preset(preset))
    e, w = from_dealer + 2 * tsumo_h, from_other + 2 * tsumo_h
    assert dict(s.deltas) == {"E": -e, "S": e + w + 1000, "W": -w}
