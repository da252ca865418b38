"""Bad input to score_hand raises a SanmaError subclass whose message names the problem and the input.

ARCHITECTURE / STYLE principle 3 (strict parsers, typed errors, messages with context): every
error is a ``SanmaError`` (a ``ValueError``), the offending text is in the message, and nothing
else (IndexError, KeyError, AssertionError...) ever escapes, as the hypothesis fuzz checks.
Rule rows: P01 (2m-8m removed), P05 (red fives per preset), P15 (kita only with nuki),
P02 (flowers only in KANSAI), Y05/Y11/Y14/P86 (flag consistency).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sanma
from sanma import HandError, NotAWinError, SanmaError, ScoringError, TileError

BASE = "111m99m123p678p789s"  # complete, no yaku; riichi makes it a win
NORM = "11199m123678p789s"  # how messages print BASE (sorted mpsz)
OPEN = "123p678p789s99m"  # 11 concealed tiles for one meld
ONLINE = sanma.Rules.preset("online")

# id, hand, kwargs, error class, substrings the message must contain (problem + input)
CASES: list[tuple[str, str, dict[str, Any], type[SanmaError], tuple[str, ...]]] = [
    ("malformed_character", "12x3p", {"win": "1p"}, TileError, ("'12x3p'", "'x'")),
    ("digits_without_suit", "123p456", {"win": "1p"}, TileError, ("'123p456'", "suit")),
    ("red_5m_does_not_exist_P01", "0m11m123p678p789s", {"win": "1m"}, TileError, ("0m", "5m")),
    ("2m_to_8m_removed_P01", "123m11m123p678p789s", {"win": "1m"}, TileError, ("'123m11m123p678p789s'", "2m")),
    ("win_tile_malformed", BASE, {"win": "9q"}, TileError, ("9q",)),
    ("win_tile_2m_P01", BASE, {"win": "5m"}, TileError, ("5m", "sanma")),
    ("fifth_copy_in_hand", "11111m123p678p789s", {"win": "1m"}, HandError, ("'11111m123678p789s'", "5 copies", "1m")),
    ("fifth_copy_with_meld", "11m123p678p789s", {"win": "1m", "melds": ["kan:1111m"]}, HandError,
     ("'11m123678p789s'", "6 copies of 1m")),
    ("fifth_copy_with_dora_indicators", BASE, {"win": "7s", "riichi": True, "dora_indicators": ["1m", "1m"]},
     HandError, (NORM, "5 copies", "1m")),
    ("fifth_copy_with_ura_indicators", BASE, {"win": "7s", "riichi": True, "ura_indicators": ["9s", "9s", "9s", "9s"]},
     HandError, (NORM, "5 copies", "9s")),
    ("fifth_north_with_kita_P15", "444z123p678p234s99m", {"win": "4s", "riichi": True, "kita": 2, "rules": ONLINE},
     HandError, ("'99m123678p234s444z'", "4z", "kita")),
    ("thirteen_tiles", "11m123p678p789s9s", {"win": "7s"}, HandError, ("'11m123678p7899s'", "12 concealed", "14")),
    ("fifteen_tiles", BASE + "1p", {"win": "7s"}, HandError, ("15 concealed", "14")),
    ("too_many_tiles_for_melds", BASE, {"win": "7s", "melds": ["pon:555z"]}, HandError,
     ("14 concealed", "1 melds", "11")),
    ("pon_of_different_tiles", OPEN, {"win": "7s", "melds": ["pon:556z"]}, HandError, ("'pon:556z'", "identical")),
    ("kan_of_three_tiles", OPEN, {"win": "7s", "melds": ["kan:111p"]}, HandError, ("'kan:111p'", "4 tiles")),
    ("chi_does_not_exist_P21", OPEN, {"win": "7s", "melds": ["chi:123p"]}, HandError,
     ("'chi:123p'", "pon, kan, ankan")),
    ("winning_tile_not_in_hand", BASE, {"win": "5s"}, HandError, (NORM, "5s", "not in the hand")),
    ("red_winning_tile_vs_plain_five", "11m123456p456789s", {"win": "0p"}, HandError, ("0p", "red")),
    ("ippatsu_without_riichi_Y05", BASE, {"win": "7s", "ippatsu": True}, ScoringError, (NORM, "ippatsu", "riichi")),
    ("haitei_on_ron_Y14", BASE, {"win": "7s", "riichi": True, "haitei": True}, ScoringError, (NORM, "haitei")),
    ("houtei_on_tsumo_Y15", BASE, {"win": "7s", "tsumo": True, "houtei": True}, ScoringError, (NORM, "houtei")),
    ("rinshan_without_kan_Y11", BASE, {"win": "7s", "tsumo": True, "rinshan": True}, ScoringError,
     (NORM, "rinshan", "kan")),
    ("rinshan_on_ron_Y11", OPEN, {"win": "7s", "rinshan": True, "melds": ["ankan:1111s"]}, ScoringError, ("rinshan",)),
    ("tsumo_with_discarder", BASE, {"win": "7s", "tsumo": True, "discarder_wind": "W"}, ScoringError,
     (NORM, "tsumo", "discarder")),
    ("discarder_is_winner", BASE, {"win": "7s", "riichi": True, "discarder_wind": "E"}, ScoringError,
     (NORM, "discarder")),
    ("riichi_with_open_meld_Y01", OPEN, {"win": "7s", "riichi": True, "melds": ["pon:555z"]}, ScoringError,
     ("'99m123678p789s'", "riichi", "open")),
    ("chankan_on_tsumo_Y12", BASE, {"win": "7s", "tsumo": True, "chankan": True}, ScoringError, (NORM, "chankan")),
    ("tenhou_by_non_dealer_Y47", BASE, {"win": "7s", "tsumo": True, "tenhou": True, "seat_wind": "S"}, ScoringError,
     (NORM, "tenhou")),
    ("open_riichi_not_in_online_Y03", BASE, {"win": "7s", "riichi": True, "open_riichi": True, "rules": ONLINE},
     ScoringError, (NORM, "open riichi", "online")),
    ("seat_wind_north_P22", BASE, {"win": "7s", "riichi": True, "seat_wind": "N"}, ScoringError, ("N", "sanma")),
    ("seat_wind_garbage", BASE, {"win": "7s", "seat_wind": "X"}, ScoringError, ("'X'", "seat wind")),
    ("negative_honba", BASE, {"win": "7s", "riichi": True, "honba": -1}, ScoringError, (NORM, "negative")),
    ("two_red_5p_online_P05", "11m123340340p789s", {"win": "1p", "riichi": True, "rules": ONLINE}, HandError,
     ("'11m123334400p789s'", "2 red 5p", "online", "1")),
    ("three_red_5s_official_P05", "11m123p340340340s", {"win": "1p", "riichi": True,
                                                            "rules": sanma.Rules.preset("official")},
     HandError, ("3 red 5s", "official", "2")),
    ("kita_under_club_P15", BASE, {"win": "7s", "riichi": True, "kita": 1, "rules": sanma.Rules.preset("club")},
     ScoringError, (NORM, "kita", "club")),
    ("kita_under_kansai_P15", BASE, {"win": "7s", "riichi": True, "kita": 1, "rules": sanma.Rules.preset("kansai")},
     ScoringError, (NORM, "kita", "kansai")),
    ("flowers_under_online_P02", BASE, {"win": "7s", "riichi": True, "flowers": 1, "rules": ONLINE}, ScoringError,
     (NORM, "flower", "online")),
    ("five_flowers_kansai_P02", BASE,
     {"win": "7s", "riichi": True, "flowers": 5, "rules": sanma.Rules.preset("kansai")}, ScoringError,
     (NORM, "5 flowers", "4")),
    ("flower_in_hand_P03", "1f11m99m123p678p789s", {"win": "7s", "rules": sanma.Rules.preset("kansai")}, HandError,
     ("flower",)),
    ("incomplete_hand", "111m99m123p678p779s", {"win": "7s"}, NotAWinError, ("'11199m123678p779s'", "not a complete")),
    ("no_yaku", BASE, {"win": "7s"}, NotAWinError, (NORM, "no yaku")),
]


@pytest.mark.parametrize(("hand", "kw", "exc", "needles"), [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_bad_input_raises_typed_error_naming_problem_and_input(
        hand: str, kw: dict[str, Any], exc: type[SanmaError], needles: tuple[str, ...]) -> None:
    """Each bad input (id names the problem and, where one applies, the matrix row) raises the
    given SanmaError subclass; its message contains the input and the reason."""
    with pytest.raises(exc) as info:
        sanma.score_hand(hand, **kw)
    msg = str(info.value)
    for needle in needles:
        assert needle in msg, f"{needle!r} not in {msg!r}"


def test_every_error_is_a_value_error() -> None:
    """STYLE principle 3: the SanmaError family are ValueErrors (python-chess style)."""
    for cls in (TileError, HandError, ScoringError, NotAWinError):
        assert issubclass(cls, SanmaError) and issubclass(cls, ValueError)


# --- fuzz: only SanmaError subclasses ever escape ----------------------------------------------------

MPSZ_TEXT = st.text(alphabet="0123456789mpszfMPSZ x:-", max_size=24)
SANMA_TILES = (["1m", "9m"] + [f"{n}{s}" for s in "ps" for n in range(1, 10)] + ["0p", "0s"]
               + [f"{n}z" for n in range(1, 8)])
WINDS = st.sampled_from(["E", "S", "W", "N", "x"])
PRESET = st.sampled_from(["club", "online", "official", "kansai", "tenhou", "majsoul"])
MELD = st.builds(lambda t, k, n: f"{t}:{k * n}", st.sampled_from(["pon", "kan", "ankan", "chi", ""]),
                 st.sampled_from([*SANMA_TILES, "2m", "1f", "xx"]), st.integers(0, 5))


def _score_or_sanma_error(hand: str | list[str], **kw: Any) -> None:
    try:
        s = sanma.score_hand(hand, **kw)
    except SanmaError as e:
        assert str(e)
        return
    assert s.total >= 0 and s.han >= 0 and sum(s.deltas.values()) >= 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=MPSZ_TEXT, win=MPSZ_TEXT, melds=st.lists(MPSZ_TEXT, max_size=2), seat=WINDS, preset=PRESET)
def test_fuzz_random_strings_raise_only_sanma_errors(hand: str, win: str, melds: list[str], seat: str,
                                                     preset: str) -> None:
    """Random mpsz-like strings for hand, win and melds: a Score or a SanmaError, nothing else."""
    _score_or_sanma_error(hand, win=win, melds=melds, seat_wind=seat, rules=sanma.Rules.preset(preset))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tiles=st.lists(st.sampled_from(SANMA_TILES), min_size=0, max_size=16),
    win_index=st.integers(0, 20),
    melds=st.lists(MELD, max_size=4),
    flags=st.fixed_dictionaries({}, optional={
        name: st.booleans() for name in ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei",
                                         "rinshan", "chankan", "kanburi", "tenhou", "chiihou", "renhou",
                                         "open_riichi", "open_riichi_deal_in")}),
    seat=WINDS, rnd=WINDS, disc=st.one_of(st.none(), WINDS),
    indicators=st.lists(st.sampled_from(SANMA_TILES), max_size=5),
    kita=st.integers(-1, 5), flowers=st.integers(-1, 5), honba=st.integers(-1, 8), preset=PRESET,
)
def test_fuzz_random_tile_multisets_raise_only_sanma_errors(
        tiles: list[str], win_index: int, melds: list[str], flags: dict[str, bool], seat: str, rnd: str,
        disc: str | None, indicators: list[str], kita: int, flowers: int, honba: int, preset: str) -> None:
    """Random multisets of sanma tiles (fifth copies, too many reds, wrong counts included), random
    melds, flags, winds, indicators, kita, flowers and honba under every preset: a Score or a
    SanmaError subclass, never another exception."""
    win = tiles[win_index % len(tiles)] if tiles else "1m"
    _score_or_sanma_error(tiles, win=win, melds=melds, seat_wind=seat, round_wind=rnd, discarder_wind=disc,
                          dora_indicators=indicators, ura_indicators=indicators[:1], kita=kita, flowers=flowers,
                          honba=honba, rules=sanma.Rules.preset(preset), **flags)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), preset=PRESET)
def test_fuzz_near_complete_hands_raise_only_sanma_errors(data: st.DataObject, preset: str) -> None:
    """Complete-looking hands (4 random sets + a pair from the sanma kinds) so the yaku / fu / limit
    paths run, not just the validators: a Score or a SanmaError."""
    kinds = [t for t in SANMA_TILES if not t.startswith("0")]
    seq_starts = [f"{n}{s}" for s in "ps" for n in range(1, 8)]
    parts: list[str] = []
    for _ in range(4):
        if data.draw(st.booleans()):
            k = data.draw(st.sampled_from(kinds))
            parts += [k] * 3
        else:
            s = data.draw(st.sampled_from(seq_starts))
            parts += [f"{int(s[0]) + i}{s[1]}" for i in range(3)]
    pair = data.draw(st.sampled_from(kinds))
    parts += [pair, pair]
    win = data.draw(st.sampled_from(parts))
    tsumo = data.draw(st.booleans())
    _score_or_sanma_error(parts, win=win, tsumo=tsumo, riichi=data.draw(st.booleans()),
                          seat_wind=data.draw(st.sampled_from(["E", "S", "W"])),
                          dora_indicators=data.draw(st.lists(st.sampled_from(kinds), max_size=3)),
                          rules=sanma.Rules.preset(preset))


def test_error_messages_are_not_regex_sensitive() -> None:
    """A message quotes the input verbatim (here a hand with a '+' that is not a tile)."""
    with pytest.raises(TileError, match=re.escape("'1+1m'")):
        sanma.score_hand("1+1m", win="1m")


def test_win_by_keyword_or_position_and_a_missing_win() -> None:
    """``win`` is the one required argument after the hand (ARCHITECTURE.md passes it by keyword;
    it may come by position too, which lets compiled calls find the keywords first — see
    docs/PERFORMANCE.md). Without it the call is a TypeError naming it, compiled or not."""
    rules = sanma.Rules.preset("tenhou")
    by_keyword = sanma.score_hand("123456789p99m111z", win="9m", riichi=True, seat_wind="S", rules=rules)
    assert sanma.score_hand("123456789p99m111z", "9m", riichi=True, seat_wind="S", rules=rules) == by_keyword
    assert by_keyword.total == 8000
    with pytest.raises(TypeError, match="win"):
        sanma.score_hand("123456789p99m111z", riichi=True)  # type: ignore[call-arg]
