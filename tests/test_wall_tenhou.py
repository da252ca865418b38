"""Tenhou's sanma walls reproduced from the game seed, checked tile by tile against real mjlogs.

The layout is FORMAT.md §8 (P14 Tenhou: fixed 14-tile dead wall, 8 rinshan tiles, each
replacement shortening the live wall). Expectations below use FORMAT.md's y-indices directly,
independently of the Wall layout code, and the Wall cursor is driven through every hand.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from sanma.errors import RecordError
from sanma.game import Wall, tenhou_walls
from sanma.game.tenhou_shuffle import MT19937, MT19937Stream, tile_of_id
from sanma.rules.schema import Rules
from shared_data import data_path

SHA512_GAMES = ("2014091101gm-00b9-0000-5ca6b487.xml", "2018110809gm-00b9-0000-00a79b89.xml")
OLD_GAME = "2009060321gm-00b9-0000-75b25bcf.xml"

DRAW_TAGS = {"T": 0, "U": 1, "V": 2}


@dataclass
class Kyoku:
    """One hand of an mjlog, reduced to what the wall decides."""

    dealer: int
    dice: tuple[int, int]  # 0..5 as in INIT seed
    dora: int
    hai: tuple[tuple[int, ...], ...]  # absolute seats 0..2
    shuffle: str | None
    # (seat, tile id, is_replacement) in order
    draws: list[tuple[int, int, bool]] = field(default_factory=list)
    kan_dora: list[int] = field(default_factory=list)
    agari_dora: list[tuple[list[int], list[int]]] = field(default_factory=list)
    exhaustive: bool = False


def _replaces(m: int) -> bool:
    """Whether a meld takes a replacement: kans, kakan and kita do; chi (bit 2) and pon (bit 3) do not."""
    return not (m & 0x4 or m & 0x8)


def read_mjlog(path: Path) -> tuple[str | None, list[Kyoku]]:
    root = ET.parse(path).getroot()
    shuffle = root.find("SHUFFLE")
    kyokus: list[Kyoku] = []
    pending = False
    for e in root:
        tag = e.tag
        if tag == "INIT":
            s = [int(x) for x in e.attrib["seed"].split(",")]
            kyokus.append(Kyoku(
                dealer=int(e.attrib["oya"]), dice=(s[3], s[4]), dora=s[5],
                hai=tuple(tuple(int(x) for x in e.attrib[f"hai{i}"].split(",")) for i in range(3)),
                shuffle=e.attrib.get("shuffle")))
            pending = False
        elif tag[0] in DRAW_TAGS and tag[1:].isdigit():
            kyokus[-1].draws.append((DRAW_TAGS[tag[0]], int(tag[1:]), pending))
            pending = False
        elif tag == "N":
            pending = _replaces(int(e.attrib["m"]))
        elif tag == "DORA":
            kyokus[-1].kan_dora.append(int(e.attrib["hai"]))
        elif tag == "AGARI":
            ura = e.attrib.get("doraHaiUra")
            kyokus[-1].agari_dora.append((
                [int(x) for x in e.attrib["doraHai"].split(",")],
                [int(x) for x in ura.split(",")] if ura else []))
        elif tag == "RYUUKYOKU" and "type" not in e.attrib:
            kyokus[-1].exhaustive = True
    return (shuffle.attrib["seed"] if shuffle is not None else None), kyokus


def check_kyoku(y: tuple[int, ...], dice: tuple[int, int], wall: Wall, k: Kyoku, where: str) -> dict[str, int]:
    """Check one hand against the wall both by FORMAT.md's y-indices (ids) and through the Wall cursor."""
    counts = {"hands": 0, "draws": 0, "replacements": 0, "indicators": 0}
    assert dice == (k.dice[0] + 1, k.dice[1] + 1), where
    assert wall.dice == dice
    # haipai: dealer y[107..104], next y[103..100], next y[99..96], x3, then y[71], y[70], y[69]
    for rel in range(3):
        expected_ids = [y[107 - 12 * rnd - 4 * rel - j] for rnd in range(3) for j in range(4)] + [y[71 - rel]]
        seat = (k.dealer + rel) % 3
        assert list(k.hai[seat]) == expected_ids, f"{where}: hand of seat {seat}"
        assert wall.haipai[rel] == tuple(tile_of_id(i) for i in k.hai[seat]), f"{where}: haipai {rel}"
        counts["hands"] += 1
    # dora indicator y[9], ura y[8]; kan dora y[11], y[13] ... with ura one below
    assert k.dora == y[9], where
    assert wall.dora_indicators == (tile_of_id(k.dora),), where
    live = replaced = 0
    for n, (seat, tile, is_replacement) in enumerate(k.draws):
        if is_replacement:
            expected = y[2 * (replaced // 2) + 1 - replaced % 2]  # y[1], y[0], y[3], y[2], ...
            got = wall.draw_replacement()
            replaced += 1
            counts["replacements"] += 1
        else:
            expected = y[68 - live]
            got = wall.draw()
            live += 1
            counts["draws"] += 1
        assert tile == expected, f"{where}: draw {n} by seat {seat}: log {tile}, wall {expected}"
        assert got == tile_of_id(tile), f"{where}: Wall cursor at draw {n}"
    for j, tile in enumerate(k.kan_dora):
        assert tile == y[11 + 2 * j], f"{where}: kan dora {j + 1}"
        assert wall.reveal_kan_dora() == tile_of_id(tile)
        counts["indicators"] += 1
    for shown, ura in k.agari_dora:
        assert shown == [y[9 + 2 * j] for j in range(len(shown))], where
        assert wall.dora_indicators == tuple(tile_of_id(i) for i in shown), where
        if ura:
            assert ura == [y[8 + 2 * j] for j in range(len(ura))], where
            assert wall.ura_indicators == tuple(tile_of_id(i) for i in ura), where
            counts["indicators"] += len(ura)
        counts["indicators"] += len(shown)
    if k.exhaustive:
        # P14 Tenhou: 55 draws in all, every replacement shortening the live wall by one.
        assert live + replaced == 55, where
        assert wall.remaining == 0 and wall.is_haitei, where
    return counts


def test_mt19937_init_by_array_matches_reference_output() -> None:
    """mt19937ar.c's published first outputs for init_by_array({0x123, 0x234, 0x345, 0x456})."""
    mt = MT19937([0x123, 0x234, 0x345, 0x456])
    assert [mt.genrand_int32() for _ in range(5)] == [1067595299, 955945823, 477289528, 4107218783, 4228976476]


def test_mt19937_agrees_with_numpy_legacy_seeding_by_array() -> None:
    """numpy's RandomState seeded with a uint32 array runs the same init_by_array (independent check)."""
    np = pytest.importorskip("numpy")
    key = [0xDEADBEEF, 1, 2, 3, 0xFFFFFFFF, 12345, 7]
    ours = MT19937(key)
    state = np.random.RandomState(np.array(key, dtype=np.uint32))
    # randint over the full uint32 range returns raw genrand_int32 outputs
    theirs = state.randint(0, 2**32, size=700, dtype=np.uint64)
    assert [ours.genrand_int32() for _ in range(700)] == [int(v) for v in theirs]


@pytest.mark.parametrize("key", [[0x123, 0x234, 0x345, 0x456], [0xDEADBEEF, 1, 2, 3, 0xFFFFFFFF, 12345, 7],
                                 [(i * 2654435761) & 0xFFFFFFFF for i in range(1, 625)], [5, 0], [0]])
def test_the_fast_stream_is_the_reference_mt19937(key: list[int]) -> None:
    """tenhou_walls draws from Python's own MT19937 (random.Random seeded with the key's words) where
    that runs the same init_by_array, else from MT19937: both give the reference outputs, as words
    and as little-endian bytes (a 624-word key as in the SHA-512 seeds; keys ending in 0 fall back)."""
    ref = MT19937(key)
    expected = [ref.genrand_int32() for _ in range(1000)]
    stream = MT19937Stream(key)
    assert list(stream.ints(700)) + list(struct.unpack("<300I", stream.words(300))) == expected
    assert (stream._random is None) == (key[-1] == 0)


@pytest.mark.parametrize("game", SHA512_GAMES)
def test_tenhou_sha512_seed_reproduces_every_hand_draw_replacement_and_indicator_P14(game: str) -> None:
    """P14 (Tenhou: 14-tile dead wall, 8 rinshan), FORMAT.md §8: every INIT hand, T/U/V draw,
    replacement after kan/kita, DORA tag, AGARI doraHai/doraHaiUra and the dice of every hand."""
    seed, kyokus = read_mjlog(data_path("tenhou_mjlog", game))
    assert seed is not None
    walls = tenhou_walls(seed)
    totals = {"hands": 0, "draws": 0, "replacements": 0, "indicators": 0}
    for n, k in enumerate(kyokus):
        kw = next(walls)
        counts = check_kyoku(kw.ids, kw.dice, kw.wall(), k, f"{game} hand {n}")
        for key, v in counts.items():
            totals[key] += v
    assert totals["hands"] == 3 * len(kyokus)
    assert totals["replacements"] > 0 and totals["indicators"] > len(kyokus)


def test_tenhou_2014_game_counts() -> None:
    """The 2014 game's 11 hands hold 24 kita, one ankan and one daiminkan: all 26 replacements are read
    (so the reproduction test above really checks replacement draws and the shortened live wall)."""
    _, kyokus = read_mjlog(data_path("tenhou_mjlog", SHA512_GAMES[0]))
    assert len(kyokus) == 11
    assert sum(r for k in kyokus for _, _, r in k.draws) == 26
    assert sum(len(k.kan_dora) for k in kyokus) == 2
    assert sum(k.exhaustive for k in kyokus) == 3


def test_tenhou_2009_seed_form_reproduces_its_hand() -> None:
    """The 2009 ``shuffle="mt19937ar,<8 hex words>"`` form: raw MT19937 output, dead wall stacked the
    other way up (replacements y[0], y[1]; dora indicator y[8] of the raw shuffle)."""
    seed, kyokus = read_mjlog(data_path("tenhou_mjlog", OLD_GAME))
    assert seed is None and len(kyokus) == 1
    k = kyokus[0]
    assert k.shuffle is not None
    kw = next(tenhou_walls(k.shuffle))
    counts = check_kyoku(kw.ids, kw.dice, kw.wall(), k, OLD_GAME)
    assert counts == {"hands": 3, "draws": counts["draws"], "replacements": 2, "indicators": 1}
    assert counts["draws"] >= 20


def test_tenhou_kyoku_wall_views_follow_format_layout() -> None:
    seed, _ = read_mjlog(data_path("tenhou_mjlog", SHA512_GAMES[1]))
    assert seed is not None
    kw = next(tenhou_walls(seed))
    y = kw.ids
    assert sorted(y) == [*range(4), *range(32, 136)]
    assert kw.draws == tuple(tile_of_id(y[i]) for i in range(68, 13, -1))
    assert kw.replacements == tuple(tile_of_id(y[i]) for i in (1, 0, 3, 2, 5, 4, 7, 6))
    assert kw.dora_indicators == tuple(tile_of_id(y[i]) for i in (9, 11, 13, 15, 17))
    assert kw.ura_indicators == tuple(tile_of_id(y[i]) for i in (8, 10, 12, 14, 16))
    assert kw.haipai == kw.wall().haipai


def test_tenhou_preset_wall_fields_are_tenhous_P05_P07_P14() -> None:
    """The walls above are built under the tenhou preset: one red 5p and 5s (P05), one indicator even
    on doubles (P07), a 14-tile dead wall with 8 rinshan refilled from the live wall (P14)."""
    preset = Rules.preset("tenhou")
    assert (preset.red_5p, preset.red_5s, preset.flowers, preset.dora_indicators_on_doubles) == (1, 1, 0, 1)
    assert (preset.dead_wall, preset.dead_wall_size, preset.rinshan_tiles, preset.dead_wall_replenished) == \
        ("fixed", 14, 8, True)
    kw = next(tenhou_walls(read_mjlog(data_path("tenhou_mjlog", SHA512_GAMES[0]))[0] or ""))
    assert kw.wall(preset).tiles == kw.wall().tiles


@pytest.mark.parametrize("bad", [
    "",
    "mt19937ar-sha512-n288-base64,!!!",
    "mt19937ar-sha512-n288-base64,QUJD",
    "mt19937ar,XYZ",
    "xorshift,1234",
])
def test_tenhou_seed_text_errors_name_the_seed(bad: str) -> None:
    with pytest.raises(RecordError, match="Tenhou seed"):
        next(tenhou_walls(bad))


def test_tenhou_tile_ids_convert_red_fives_and_reject_out_of_range() -> None:
    assert [str(tile_of_id(i)) for i in (0, 3, 32, 52, 53, 88, 89, 108, 135)] == \
        ["1m", "1m", "9m", "0p", "5p", "0s", "5s", "1z", "7z"]
    with pytest.raises(RecordError, match="136"):
        tile_of_id(136)
