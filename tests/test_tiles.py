"""Tiles and mpsz notation (P01, P05, P08)."""

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sanma
from sanma import SanmaError, Tile, TileError, parse_tiles, to_mpsz
from sanma.tiles import SANMA_KINDS, SEATS, kind_name, sanma_wall, seat_wind, successor


def test_p01_sanma108_has_108_tiles_without_2m_to_8m() -> None:
    """P01: 1m, 9m, 1-9p, 1-9s and seven honours, four of each."""
    wall = sanma_wall()
    assert len(wall) == 108
    assert {t.kind for t in wall} == set(SANMA_KINDS)
    assert all(not 1 <= t.kind <= 7 for t in wall)


@pytest.mark.parametrize("text", ["2m", "5m", "8m", "12m", "0m"])
def test_p01_2m_to_8m_rejected(text: str) -> None:
    with pytest.raises(TileError, match=r"sanma|5m"):
        parse_tiles(text)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("123", "no suit letter"), ("1x", "unexpected character 'x'"), ("8z", "8z"), ("p", "no digits"),
     ("5f", "flowers")],
)
def test_malformed_tile_strings_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(SanmaError) as info:
        parse_tiles(text)
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)


def test_p08_sanma_dora_successor_wraps_1m_9m() -> None:
    """P08: 1m indicates 9m, 9m indicates 1m; 9p -> 1p; N -> E; R -> Wh."""
    assert kind_name(successor(0)) == "9m"
    assert kind_name(successor(8)) == "1m"
    assert kind_name(successor(17)) == "1p"
    assert kind_name(successor(26)) == "1s"
    assert kind_name(successor(30)) == "1z"
    assert kind_name(successor(33)) == "5z"


def test_p05_red_fives_parse_and_format() -> None:
    t = Tile.parse("0s")
    assert t.red and t.kind == 22 and str(t) == "0s" and t.mjai == "5sr"
    assert to_mpsz(parse_tiles("505p")) == "055p"


def test_flowers_parse() -> None:
    assert [t.is_flower for t in parse_tiles("1f4f1z")] == [True, True, False]


tiles = st.sampled_from(list(sanma_wall({13: 4, 22: 4}, flowers=4)))


@given(st.lists(tiles, max_size=20))
def test_mpsz_round_trip(ts: list[Tile]) -> None:
    """parse(str(x)) == x for any multiset of sanma tiles."""
    assert sorted(parse_tiles(to_mpsz(ts))) == sorted(ts)


@given(tiles)
def test_tile_repr_and_mjai_round_trip(t: Tile) -> None:
    assert eval(repr(t)) == t
    if not t.is_flower:
        assert Tile.from_mjai(t.mjai) == t


@given(st.text(max_size=30))
def test_parser_fuzz_only_raises_sanma_errors(text: str) -> None:
    """Any text either parses (and then round-trips) or raises a SanmaError, never anything else."""
    try:
        tiles = parse_tiles(text)
    except SanmaError as e:
        assert repr(text) in str(e) or "tile string" in str(e)
        return
    assert sorted(parse_tiles(to_mpsz(tiles))) == sorted(tiles)


def _source_modules() -> list[tuple[str, ast.Module]]:
    root = Path(sanma.__file__).parent
    return [(str(p.relative_to(root)), ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(root.rglob("*.py"))]


def test_seats_and_the_seat_wind_formula_have_one_home_p22() -> None:
    """P22 (three seats, East/South/West; issue 10 item 6): ``SEATS`` is assigned only in
    ``sanma.tiles``, and no module writes the seat-wind formula ``"ESW"[(seat - dealer) % n]``
    itself: they call ``tiles.seat_wind``."""
    seats_defined, formulas = [], []
    for name, tree in _source_modules():
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) else []
            if any(isinstance(t, ast.Name) and t.id == "SEATS" for t in targets):
                seats_defined.append(name)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Constant | ast.Name)
                    and (node.value.value if isinstance(node.value, ast.Constant) else node.value.id) in (
                        "ESW", "ESWN", "WINDS", "WIND_LETTERS")
                    and isinstance(node.slice, ast.BinOp) and isinstance(node.slice.op, ast.Mod)
                    and isinstance(node.slice.left, ast.BinOp) and isinstance(node.slice.left.op, ast.Sub)):
                formulas.append(f"{name}:{node.lineno}")
    assert seats_defined == ["tiles.py"]
    assert [f.partition(":")[0] for f in formulas] == ["tiles.py"]  # once, in seat_wind
    assert [seat_wind(s, 2) for s in range(SEATS)] == ["S", "W", "E"]
