"""A player's words for the scorer's names: yaku, fu lines, limits and tiles.

The scorer names its lines with identifiers (``menzen_tsumo``, ``yakuhai_seat_wind``,
``triplet_closed 1z``); ``sanma score`` and ``sanma play`` print these words instead, the same
words in both. A name without an entry here is printed as it is, underscores as spaces.

>>> yaku_word("menzen_tsumo"), yaku_word("aka_dora"), yaku_word("yakuhai_seat_wind")
('Menzen Tsumo', 'Red five', 'Seat wind')
>>> fu_word("triplet_closed 1z"), fu_word("pair 5z"), fu_word("kanchan")
('closed triplet of East', 'pair of White', 'closed wait (kanchan)')
"""

from __future__ import annotations

from typing import Final

from ..errors import TileError
from ..tiles import Tile

#: yaku, yakuman and dora lines of a score (``Yaku.name``) -> the name a player reads
YAKU_WORDS: Final = {
    "riichi": "Riichi", "double_riichi": "Double riichi", "open_riichi": "Open riichi", "ippatsu": "Ippatsu",
    "menzen_tsumo": "Menzen Tsumo", "pinfu": "Pinfu", "tanyao": "Tanyao (all simples)",
    "iipeikou": "Iipeikou (pure double sequence)", "ryanpeikou": "Ryanpeikou (twice pure double sequence)",
    "yakuhai_haku": "White dragon", "yakuhai_hatsu": "Green dragon", "yakuhai_chun": "Red dragon",
    "yakuhai_seat_wind": "Seat wind", "yakuhai_round_wind": "Round wind", "yakuhai_north": "North wind",
    "yakuhai": "Yakuhai", "haitei": "Haitei (last tile draw)", "houtei": "Houtei (last discard)",
    "rinshan": "Rinshan kaihou (after a kan)", "chankan": "Chankan (robbing a kan)",
    "kanburi": "Kanburi (discard after a kan)", "chiitoitsu": "Chiitoitsu (seven pairs)",
    "ittsu": "Ittsu (straight)", "chanta": "Chanta (outside hand)", "junchan": "Junchan (terminals in each set)",
    "toitoi": "Toitoi (all triplets)", "sanankou": "San ankou (three concealed triplets)",
    "tsumori_sanankou": "Tsumori san ankou", "deki_sanankou": "Deki san ankou",
    "sankantsu": "San kantsu (three kans)", "sanshoku_doukou": "Sanshoku doukou (triple triplets)",
    "honroutou": "Honroutou (all terminals and honours)", "shousangen": "Shousangen (little three dragons)",
    "honitsu": "Honitsu (half flush)", "chinitsu": "Chinitsu (full flush)", "sanpuu": "Sanpuu (three winds)",
    "sanrenkou": "Sanrenkou (three consecutive triplets)", "shousharin": "Shousharin", "renhou": "Renhou",
    "dora": "Dora", "aka_dora": "Red five", "ura_dora": "Ura dora", "kita_dora": "Kita (North dora)",
    "flower_dora": "Flowers", "kan_bonus": "Kan bonus",
    # yakuman
    "kokushi": "Kokushi musou (thirteen orphans)", "kokushi_13": "Kokushi musou, 13-sided wait",
    "suuankou": "Suu ankou (four concealed triplets)", "suuankou_tanki": "Suu ankou, single wait",
    "daisangen": "Daisangen (big three dragons)", "shousuushii": "Shousuushii (little four winds)",
    "daisuushii": "Daisuushii (big four winds)", "tsuuiisou": "Tsuuiisou (all honours)",
    "tsuuiisou_chiitoi": "Tsuuiisou, seven pairs", "chinroutou": "Chinroutou (all terminals)",
    "ryuuiisou": "Ryuuiisou (all green)", "chuuren": "Chuuren poutou (nine gates)",
    "chuuren_9": "Chuuren poutou, 9-sided wait", "suukantsu": "Suu kantsu (four kans)", "tenhou": "Tenhou",
    "chiihou": "Chiihou", "daisharin": "Daisharin", "suurenkou": "Suurenkou", "mankon": "Mankon",
    "nagashi": "Nagashi mangan", "open_riichi_deal_in": "Dealing into an open riichi",
}

#: the first word of a fu line (``Score.fu_breakdown``) -> the player's words
FU_WORDS: Final = {
    "base": "base", "fixed": "fixed fu", "menzen_ron": "closed ron", "tsumo": "tsumo",
    "open_pinfu_ron": "open hand's ron minimum", "ryanmen": "two-sided wait", "kanchan": "closed wait (kanchan)",
    "penchan": "edge wait (penchan)", "tanki": "pair wait (tanki)", "shanpon": "double-pair wait",
    "triplet_closed": "closed triplet of", "triplet_open": "open triplet of", "kan_closed": "closed kan of",
    "kan_open": "open kan of", "pair": "pair of",
}

#: ``Score.limit`` -> the player's words
LIMIT_WORDS: Final = {"mangan": "Mangan", "haneman": "Haneman", "baiman": "Baiman", "sanbaiman": "Sanbaiman",
                      "yakuman": "Yakuman", "kazoe": "Kazoe yakuman"}

#: honour tiles as the terminal shows them (E S W N Wh G R)
HONOUR_SHORT: Final = {27: "E", 28: "S", 29: "W", 30: "N", 31: "Wh", 32: "G", 33: "R"}
HONOUR_LONG: Final = {27: "East", 28: "South", 29: "West", 30: "North", 31: "White", 32: "Green", 33: "Red"}


def yaku_word(name: str) -> str:
    """The name a player reads for a score line's name."""
    return YAKU_WORDS.get(name, name.replace("_", " "))


def limit_word(limit: str | None) -> str:
    return "" if limit is None else LIMIT_WORDS.get(limit, limit)


def tile_long(text: str) -> str:
    """``1z`` -> ``East``, ``5p`` -> ``5p`` (an mpsz or mjai name; anything else as it is)."""
    try:
        t = Tile.parse(text) if len(text) == 2 and text[0].isdigit() else Tile.from_mjai(text)
    except TileError:  # a label that is not a tile stays as it is
        return text
    return HONOUR_LONG.get(t.kind, str(t))


def fu_word(line: str) -> str:
    """A fu line's name in a player's words: ``triplet_closed 1z`` -> ``closed triplet of East``."""
    head, _, rest = line.partition(" ")
    word = FU_WORDS.get(head, head.replace("_", " "))
    return f"{word} {tile_long(rest)}" if rest else word
