"""The vocabulary: every term of the game with its id, its Japanese and English names, and the
other spellings the record sources use.

A term is data: ``kind`` (yaku, fu, limit, wind, tile, call, draw, result, penalty, ...) and
``key`` (the name sanma's code uses: ``menzen_tsumo``, ``kanchan``, ``mangan``) make its id; ``ja``
is the name in the words of the seeds, Tenhou and Mahjong Soul, ``en`` the name ``sanma score``
prints; ``record`` is the spelling Tenhou's records write when it is not ``ja`` (the writers write
it); ``aliases`` are every other spelling a record source or a seed uses — the record readers
look names up here, so a name they accept is an alias of exactly one term (tests/test_i18n_terms.py).

>>> term_name("yaku", "menzen_tsumo", "ja"), term_name("yaku", "menzen_tsumo", "en")
('門前清自摸和', 'Menzen Tsumo')
>>> lookup("yaku", "役牌:場風牌").key, lookup("yaku", "自風 南").key, lookup("yaku", "両立直").key
('yakuhai_round_wind', 'yakuhai_seat_wind', 'double_riichi')
>>> fu_line("triplet_closed 1z", "ja"), fu_line("triplet_closed 1z", "en")
('東の暗刻', 'closed triplet of East')
>>> tile_name("0p", "ja"), tile_name("5z", "en"), tile_name("9m", "ja")
('赤5筒', 'White', '9萬')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from .lang import Lang
from .messages import mark
from .rule_terms import RULE, RULE_GROUP, RULE_VALUE
from .term import Term, terms_of

_WINDS_JA = {"E": "東", "S": "南", "W": "西", "N": "北"}

# --- yaku, yakuman and the dora lines of a score (``Yaku.name``; Y01-Y50) --------------------------
# ja: Tenhou's and Mahjong Soul's names; aliases: the seeds' spellings (000: 面前ツモ, 槓フリ, 河底ラオ魚;
# 001: 門前清自摸, 海底模月, 断ヤオ九, 全帯ヤオ) and the records' (Tenhou 自風 東 / 両立直, Mahjong Soul 役牌:白,
# majiang 役牌 中, riichienv's 国士無双十三面待ち).
YAKU: Final = terms_of("yaku", (
    ("riichi", "立直", "Riichi", ("リーチ",)),
    ("double_riichi", "ダブル立直", "Double riichi", ("ダブルリーチ", "ダブル（リーチ）")),
    ("open_riichi", "オープン立直", "Open riichi", ("オープンリーチ", "オープン（リーチ）")),
    ("ippatsu", "一発", "Ippatsu"),
    ("menzen_tsumo", "門前清自摸和", "Menzen Tsumo", ("門前清自摸", "面前ツモ", "門前ツモ", "ツモ")),
    ("pinfu", "平和", "Pinfu", ("ピンフ",)),
    ("tanyao", "断幺九", "Tanyao (all simples)", ("断么九", "断ヤオ九", "タンヤオ", "断ヤオ")),
    ("iipeikou", "一盃口", "Iipeikou (pure double sequence)", ("イーペーコー",)),
    ("yakuhai", "役牌", "Yakuhai", ("翻牌",)),
    ("yakuhai_haku", "役牌 白", "White dragon",
     ("役牌白", "役牌 白牌", "役牌:白", "役牌：白", "三元牌 白", "翻牌 白", "白")),
    ("yakuhai_hatsu", "役牌 發", "Green dragon",
     ("役牌發", "役牌 發牌", "役牌:發", "役牌：發", "三元牌 發", "翻牌 發", "發",
      "役牌 発", "役牌発", "役牌 発牌", "役牌:発", "役牌：発", "三元牌 発", "翻牌 発", "発")),
    ("yakuhai_chun", "役牌 中", "Red dragon",
     ("役牌中", "役牌 中牌", "役牌:中", "役牌：中", "三元牌 中", "翻牌 中", "中")),
    ("yakuhai_seat_wind", "自風牌", "Seat wind",
     ("役牌 自風牌", "役牌:自風牌", "役牌：自風牌", "自風", "門風牌",
      *(f"自風 {w}" for w in _WINDS_JA.values()), *(f"自風{w}" for w in _WINDS_JA.values()),
      *(f"役牌 自風 {w}" for w in _WINDS_JA.values()))),
    ("yakuhai_round_wind", "場風牌", "Round wind",
     ("役牌 場風牌", "役牌:場風牌", "役牌：場風牌", "場風", "圏風牌",
      *(f"場風 {w}" for w in _WINDS_JA.values()), *(f"場風{w}" for w in _WINDS_JA.values()),
      *(f"役牌 場風 {w}" for w in _WINDS_JA.values()))),
    ("yakuhai_north", "役牌 北", "North wind", ("役牌北", "役牌:北", "役牌：北")),
    ("rinshan", "嶺上開花", "Rinshan kaihou (after a kan)"),
    ("chankan", "槍槓", "Chankan (robbing a kan)"),
    ("kanburi", "槓振り", "Kanburi (discard after a kan)", ("槓フリ", "槓振")),
    ("haitei", "海底摸月", "Haitei (last tile draw)", ("海底模月", "海底")),
    ("houtei", "河底撈魚", "Houtei (last discard)", ("河底ラオ魚", "河底")),
    ("ittsu", "一気通貫", "Ittsu (straight)", ("一通",)),
    ("chanta", "混全帯幺九", "Chanta (outside hand)", ("混全帯么九", "全帯ヤオ", "チャンタ")),
    ("chiitoitsu", "七対子", "Chiitoitsu (seven pairs)", ("チートイツ",)),
    ("toitoi", "対々和", "Toitoi (all triplets)", ("対々", "対対和")),
    ("sanankou", "三暗刻", "San ankou (three concealed triplets)"),
    ("tsumori_sanankou", "つもり三暗刻", "Tsumori san ankou"),
    ("deki_sanankou", "出来三暗刻", "Deki san ankou"),
    ("sankantsu", "三槓子", "San kantsu (three kans)"),
    ("sanshoku", "三色同順", "Sanshoku doujun (mixed triple sequence)"),  # impossible in sanma (Y16)
    ("sanshoku_doukou", "三色同刻", "Sanshoku doukou (triple triplets)"),
    ("honroutou", "混老頭", "Honroutou (all terminals and honours)"),
    ("shousangen", "小三元", "Shousangen (little three dragons)"),
    ("honitsu", "混一色", "Honitsu (half flush)", ("ホンイツ",)),
    ("chinitsu", "清一色", "Chinitsu (full flush)", ("チンイツ",)),
    ("sanpuu", "三風", "Sanpuu (three winds)"),
    ("sanrenkou", "三連刻", "Sanrenkou (three consecutive triplets)"),
    ("ryanpeikou", "二盃口", "Ryanpeikou (twice pure double sequence)"),
    ("junchan", "純全帯幺九", "Junchan (terminals in each set)", ("純全帯么九", "純全帯ヤオ", "純チャン")),
    ("shousharin", "小車輪", "Shousharin"),
    ("renhou", "人和", "Renhou"),
    ("dora", "ドラ", "Dora"),
    ("aka_dora", "赤ドラ", "Red five", ("赤牌",)),
    ("ura_dora", "裏ドラ", "Ura dora"),
    ("kita_dora", "抜きドラ", "Kita (North dora)", ("北ドラ", "北抜き", "抜き北")),
    ("flower_dora", "花牌", "Flowers", ("花ドラ",)),
    ("kan_bonus", "槓子加算", "Kan bonus"),  # OFFICIAL 「暗カン・明カンは1飜アップ」 (P56)
    # yakuman
    ("kokushi", "国士無双", "Kokushi musou (thirteen orphans)"),
    ("kokushi_13", "国士無双十三面", "Kokushi musou, 13-sided wait",
     ("国士無双１３面", "国士無双13面", "国士無双十三面待ち", "国士無双・十三面待ち")),
    ("suuankou", "四暗刻", "Suu ankou (four concealed triplets)"),
    ("suuankou_tanki", "四暗刻単騎", "Suu ankou, single wait", ("四暗刻単騎待ち", "四暗刻・単騎待ち")),
    ("daisangen", "大三元", "Daisangen (big three dragons)"),
    ("shousuushii", "小四喜", "Shousuushii (little four winds)"),
    ("daisuushii", "大四喜", "Daisuushii (big four winds)"),
    ("tsuuiisou", "字一色", "Tsuuiisou (all honours)"),
    ("tsuuiisou_chiitoi", "字一色（七対子形）", "Tsuuiisou, seven pairs", ("字一色七対子",)),
    ("chinroutou", "清老頭", "Chinroutou (all terminals)"),
    ("ryuuiisou", "緑一色", "Ryuuiisou (all green)"),
    ("chuuren", "九蓮宝燈", "Chuuren poutou (nine gates)", ("九連宝燈",)),
    ("chuuren_9", "純正九蓮宝燈", "Chuuren poutou, 9-sided wait", ("純正九連宝燈",)),
    ("suukantsu", "四槓子", "Suu kantsu (four kans)"),
    ("tenhou", "天和", "Tenhou"),
    ("chiihou", "地和", "Chiihou"),
    ("daisharin", "大車輪", "Daisharin"),
    ("suurenkou", "四連刻", "Suurenkou"),
    ("mankon", "萬混", "Mankon"),
    ("nagashi", "流し満貫", "Nagashi mangan", ("流し",)),
    ("open_riichi_deal_in", "オープンリーチへの振り込み", "Dealing into an open riichi",
     ("オープンリーチへのリーチを掛けていない者の振込み",)),
), records={"double_riichi": "両立直", "yakuhai_seat_wind": "自風", "yakuhai_round_wind": "場風",
            "kokushi_13": "国士無双１３面"})

# --- fu parts (``Score.fu_breakdown``'s first word; P52-P54) ---------------------------------------
FU: Final = terms_of("fu", (
    ("base", "副底", "base"),
    ("fixed", "固定符", "fixed fu"),  # OFFICIAL 「符計算なし・全て30符」, KANSAI 40 fu
    ("menzen_ron", "門前加符", "closed ron"),
    ("tsumo", "ツモ符", "tsumo"),
    ("open_pinfu_ron", "喰い平和形のロン", "open hand's ron minimum"),
    ("ryanmen", "両面待ち", "two-sided wait"),
    ("kanchan", "嵌張待ち", "closed wait (kanchan)", ("カンチャン",)),
    ("penchan", "辺張待ち", "edge wait (penchan)", ("ペンチャン",)),
    ("tanki", "単騎待ち", "pair wait (tanki)", ("タンキ",)),
    ("shanpon", "双碰待ち", "double-pair wait", ("シャンポン",)),
    ("triplet_closed", "暗刻", "closed triplet of"),
    ("triplet_open", "明刻", "open triplet of"),
    ("kan_closed", "暗槓", "closed kan of"),
    ("kan_open", "明槓", "open kan of"),
    ("pair", "雀頭", "pair of"),
    ("chiitoitsu", "七対子", "seven pairs"),  # the one line of a seven-pairs hand (P53)
))

# --- limits (``Score.limit``; P55-P59) -------------------------------------------------------------
LIMIT: Final = terms_of("limit", (
    ("mangan", "満貫", "Mangan"),
    ("haneman", "跳満", "Haneman"),
    ("baiman", "倍満", "Baiman"),
    ("sanbaiman", "三倍満", "Sanbaiman"),
    ("yakuman", "役満", "Yakuman"),
    ("kazoe", "数え役満", "Kazoe yakuman"),
))

# --- winds and honour tiles ------------------------------------------------------------------------
WIND: Final = terms_of("wind", (
    ("E", "東", "East", ("east", "1z")),
    ("S", "南", "South", ("south", "2z")),
    ("W", "西", "West", ("west", "3z")),
    ("N", "北", "North", ("north", "4z")),
))
#: honour tiles by mpsz name; ``en`` is the long name, the short one is :data:`HONOUR_SHORT`
HONOUR: Final = terms_of("tile", (
    ("1z", "東", "East", ("E",)),
    ("2z", "南", "South", ("S",)),
    ("3z", "西", "West", ("W",)),
    ("4z", "北", "North", ("N",)),
    ("5z", "白", "White", ("P", "Wh")),
    ("6z", "發", "Green", ("F", "G", "発")),
    ("7z", "中", "Red", ("C", "R")),
))
SUIT: Final = terms_of("suit", (
    ("m", "萬子", "characters", ("manzu", "マンズ", "萬")),
    ("p", "筒子", "circles", ("pinzu", "ピンズ", "筒")),
    ("s", "索子", "bamboo", ("souzu", "ソーズ", "索")),
    ("z", "字牌", "honours", ("jihai",)),
    ("f", "花牌", "flowers", ("hanahai",)),
))
#: the seats by their wind (the terminal, result cards and keeper name seats so)
SEAT: Final = terms_of("seat", (
    ("E", "東家", "East"),
    ("S", "南家", "South"),
    ("W", "西家", "West"),
))

# --- actions and calls (mjai's words) --------------------------------------------------------------
CALL: Final = terms_of("call", (
    ("dahai", "打牌", "discard"),
    ("tsumo", "ツモ", "tsumo"),
    ("ron", "ロン", "ron", ("hora",)),
    ("pon", "ポン", "pon"),
    ("kan", "カン", "kan"),
    ("daiminkan", "大明槓", "open kan", ("明槓", "大明カン")),
    ("ankan", "暗槓", "closed kan", ("暗カン",)),
    ("kakan", "加槓", "added kan", ("小明槓", "加カン")),
    ("kita", "北抜き", "kita", ("抜き北", "penuki", "nukidora")),
    ("flower", "花牌抜き", "flower"),
    ("reach", "リーチ", "riichi", ("riichi", "立直")),
    ("open_riichi", "オープンリーチ", "open riichi"),
    ("ryukyoku", "九種九牌", "nine terminals", ("kyuushu",)),
    ("none", "スキップ", "pass", ("pass", "skip")),
))

# --- how a hand ends (P92-P96; the engine's ``ryukyoku`` reasons, the records' names) ---------------
# key: the record readers' kind (formats.record.DrawResult.kind); aliases: the engine's reasons
# (sanma.events.DRAW_REASONS), the keeper's abort kinds, Tenhou mjlog's ``type``, the records' words.
DRAW: Final = terms_of("draw", (
    ("exhaustive", "流局", "Exhaustive draw", ("荒牌平局", "全員聴牌", "全員不聴", "ryuukyoku", "荒牌")),
    ("kyuushu", "九種九牌", "Nine terminals (abortive draw)", ("九種九牌流局", "yao9", "kyushukyuhai")),
    ("four_riichi", "三家立直", "All riichi (abortive draw)",
     ("四家立直", "三人立直", "三人立直流局", "all_riichi", "reach4")),
    ("triple_ron", "三家和了", "Triple ron (abortive draw)", ("ron3",)),
    ("four_kans", "四槓散了", "Four kans (abortive draw)", ("四開槓", "四槓流れ", "suukaikan", "kan4")),
    ("four_winds", "三風連打", "Three winds (abortive draw)",
     ("四風連打", "3風連打", "三風連打流局", "sanfuu_renda", "three_winds", "kaze4")),
    ("nagashi", "流し満貫", "Nagashi mangan", ("nm",)),
    ("chombo", "チョンボ", "Chombo"),  # a hand voided by a chombo (P100-P102; sanma's record extension)
), records={"four_riichi": "四家立直", "four_winds": "四風連打"})

RESULT: Final = terms_of("result", (
    ("win", "和了", "Win", ("アガリ", "あがり")),
    ("tsumo", "ツモ", "Tsumo"),
    ("ron", "ロン", "Ron"),
    ("double_ron", "ダブロン", "Double ron", ("ダブルロン",)),
    ("draw", "流局", "Draw"),
    ("abortive_draw", "途中流局", "Abortive draw"),
    ("tenpai", "聴牌", "Tenpai", ("テンパイ",)),
    ("noten", "不聴", "Noten", ("ノーテン",)),
    ("noten_payment", "不聴罰符", "Noten payments", ("ノーテン罰符",)),
    ("deal_in", "放銃", "Deal-in", ("振り込み",)),
    ("chombo", "チョンボ", "Chombo"),
    ("bust", "箱割れ", "Bust", ("トビ", "飛び", "ぶっとび")),
    ("pao", "包", "Pao (liability)", ("責任払い", "パオ")),
    ("furiten", "振聴", "Furiten", ("フリテン",)),
    ("game_over", "終局", "Game over"),
    ("riichi_bust", "リーチ箱割れ", "Riichi with too few points (bust)"),  # P79 / A000-19
))

# --- mistakes at a physical table (P102-P106; the keeper's penalty kinds, Rules.penalty_*) ----------
PENALTY: Final = terms_of("penalty", (
    ("false_call", "誤ポン・誤カン", "False call", ("空ポン・空カン", "誤ポン", "誤カン", "空ポン", "空カン")),
    ("wrong_call", "錯ポン・錯カン", "Wrong call", ("錯ポン", "錯カン")),
    ("false_win", "誤ロン・誤ツモ", "False win", ("誤ロン", "誤ツモ", "錯和")),
    ("false_win_voice", "誤ロン（発声のみ）", "False win, voice only"),
    ("short_hand", "少牌", "Short hand"),
    ("long_hand", "多牌", "Long hand"),
    ("wall_collapse", "山崩し", "Wall collapse", ("復活不能な山崩し",)),
    ("riichi_voice", "リーチ発声のみ", "Riichi called, no riichi discard"),
    ("riichi_cancelled", "リーチの取り消し", "Riichi withdrawn"),
    ("riichi_late", "リーチの発声間違い（次の打牌後）", "Mistaken riichi found late"),
    ("free", "その他の罰則", "Other penalty"),
))
#: what a mistake costs (``Rules.penalty_*`` values)
PENALTY_EFFECT: Final = terms_of("penalty_effect", (
    ("chombo", "チョンボ", "chombo"),
    ("chombo_at_draw", "流局時チョンボ", "chombo at the draw"),
    ("dead_hand", "あがり放棄", "dead hand", ("アガリ放棄", "上がり放棄")),
    ("deposit", "場に供託", "deposit on the table"),
    ("none", "罰則なし", "no penalty"),
))
#: why a riichi was a chombo (sanma.events.CHOMBO_REASONS; P80, P102)
CHOMBO_REASON: Final = terms_of("chombo_reason", (
    ("furiten_riichi", "フリテンリーチ", "furiten riichi"),
    ("noten_riichi", "ノーテンリーチ", "noten riichi"),
    ("shibari_riichi", "2翻縛りの違反リーチ", "riichi short of the 2-han minimum", ("２ハン縛りの違反リーチ",)),
    ("passed_win", "リーチ後の見逃し", "a win passed after riichi", ("見逃し",)),
))

# --- the table's words ------------------------------------------------------------------------------
TABLE: Final = terms_of("table", (
    ("han", "翻", "han", ("飜", "ハン")),
    ("fu", "符", "fu"),
    ("points", "点", "points"),
    ("honba", "本場", "honba", ("積み棒", "積み符", "連荘棒")),
    ("kyotaku", "供託", "riichi sticks", ("供託棒", "リーチ棒")),
    ("dealer", "親", "dealer"),
    ("non_dealer", "子", "non-dealer"),
    ("first_dealer", "起家", "first dealer"),
    ("dora_indicator", "ドラ表示牌", "dora indicator", ("ドラのめくり牌",)),
    ("ura_indicator", "裏ドラ表示牌", "ura dora indicator"),
    ("wall", "山", "wall", ("牌山",)),
    ("dead_wall", "王牌", "dead wall"),
    ("river", "河", "discards", ("捨て牌",)),
    ("hand", "手牌", "hand"),
    ("meld", "副露", "call", ("鳴き",)),
    ("waits", "待ち", "waits"),
    ("chips", "チップ", "chips", ("祝儀", "ご祝儀チップ")),
    ("uma", "ウマ", "uma", ("順位点",)),
    ("oka", "オカ", "oka"),
    ("start_points", "持ち点", "starting points"),
    ("hanchan", "半荘", "hanchan"),
    ("tonpuusen", "東風戦", "East-only game"),
    ("kyoku", "局", "kyoku"),
    ("round", "場", "round"),
    ("top", "トップ", "top"),
    ("last", "ラス", "last"),
    ("placement", "順位", "placement", ("着順",)),
    ("renchan", "連荘", "dealer repeat"),
))

#: the score keeper's entry kinds and fields as its errors name them (``win: ...``, ``riichi: ...``): the
#: JSON key in English (a :class:`~sanma.i18n.messages.Keyword`), its name in another language
FIELD: Final = terms_of("field", (
    ("win", "和了", "win"),
    ("draw", "流局", "draw"),
    ("abort", "途中流局", "abort"),
    ("chombo", "チョンボ", "chombo"),
    ("penalty", "罰則", "penalty"),
    ("seating", "場所決め", "seating"),
    ("final", "最終結果", "final"),
    ("rename", "名前の訂正", "rename"),
    ("time_up", "時間切れ", "time up"),
    ("riichi", "リーチ", "riichi"),
    ("tenpai", "聴牌", "tenpai"),
    ("nagashi", "流し満貫", "nagashi"),
    ("pao", "包", "pao"),
    ("winner", "和了者", "winner"),
    ("bust", "飛び", "bust"),
))

#: every term
TERMS: Final[tuple[Term, ...]] = (*YAKU, *FU, *LIMIT, *WIND, *HONOUR, *SUIT, *SEAT, *CALL, *DRAW, *RESULT,
                                  *PENALTY, *PENALTY_EFFECT, *CHOMBO_REASON, *TABLE, *FIELD, *RULE, *RULE_VALUE,
                                  *RULE_GROUP)
#: kind -> key -> term
BY_KEY: Final[Mapping[str, Mapping[str, Term]]] = MappingProxyType({
    kind: MappingProxyType({t.key: t for t in TERMS if t.kind == kind}) for kind in dict.fromkeys(t.kind for t in TERMS)
})
#: kind -> any spelling -> term
_BY_WORD: Final[Mapping[str, Mapping[str, Term]]] = MappingProxyType({
    kind: MappingProxyType({w: t for t in reversed(TERMS) if t.kind == kind for w in t.spellings})
    for kind in BY_KEY
})
#: honour kinds 27..33 as the terminal writes them (E S W N Wh G R)
HONOUR_SHORT: Final[Mapping[int, str]] = MappingProxyType(
    {27: "E", 28: "S", 29: "W", 30: "N", 31: "Wh", 32: "G", 33: "R"})


def term(kind: str, key: str) -> Term | None:
    """The term ``kind.key``, or None."""
    return BY_KEY.get(kind, {}).get(key)


def lookup(kind: str, word: str) -> Term | None:
    """The term of ``kind`` that ``word`` spells (its key, either name, Tenhou's spelling or an
    alias; surrounding blanks ignored), or None."""
    return _BY_WORD.get(kind, {}).get(word.strip())


def term_name(kind: str, key: str, lang: Lang) -> str:
    """The name in ``lang`` of the term of ``kind`` that ``key`` names (its key or another spelling:
    the engine's ``suukaikan`` and the keeper's ``four_kans`` are one draw); a key without a term is
    shown as it is, underscores as spaces (a name a newer engine made, an extension's)."""
    t = term(kind, key) or lookup(kind, key)
    return mark(t.name(lang) if t is not None else key.replace("_", " "), lang)


def record_name(kind: str, key: str) -> str | None:
    """The spelling Tenhou's records write for the term ``key`` names (the writers' words), or None."""
    t = term(kind, key) or lookup(kind, key)
    if t is None:
        return None
    return t.record or t.ja


def yaku_key(word: str) -> str | None:
    """sanma's name (``Yaku.name``) of a yaku as a record writes it, or None when it is no yaku's
    spelling. Yakuhai are named by their reason, as ``sanma.score_hand`` names them.

    >>> yaku_key("役牌 中"), yaku_key("自風 南"), yaku_key("役牌:場風牌"), yaku_key("抜きドラ")
    ('yakuhai_chun', 'yakuhai_seat_wind', 'yakuhai_round_wind', 'kita_dora')
    >>> yaku_key("menzen_tsumo"), yaku_key("ツモ切り")
    ('menzen_tsumo', None)
    """
    t = lookup("yaku", word)
    return None if t is None else t.key


def draw_key(word: str) -> str | None:
    """The record readers' kind (``DrawResult.kind``) of a draw as a record names it — Tenhou mjlog's
    ``type`` (``yao9``), tenhou.net/6's and majiang's words (``九種九牌``, ``四開槓``), the engine's
    reasons (``suukaikan``) — or None when it names no draw.

    >>> draw_key("yao9"), draw_key("四開槓"), draw_key("全員不聴"), draw_key("和了")
    ('kyuushu', 'four_kans', 'exhaustive', None)
    """
    t = lookup("draw", word)
    return None if t is None else t.key


#: limit names, longest first (三倍満 before 倍満, 数え役満 before 役満), for :func:`limit_prefix`
_LIMIT_SPELLINGS: Final = sorted(((w, t.key) for t in LIMIT for w in (t.ja, *t.aliases)), key=lambda p: -len(p[0]))


def limit_prefix(text: str) -> tuple[str, str] | None:
    """``(limit key, its word)`` when ``text`` starts with a limit's Japanese name, as Tenhou's points
    text does (``満貫8000点``), else None.

    >>> limit_prefix("三倍満12000-24000点"), limit_prefix("30符2飜2000点")
    (('sanbaiman', '三倍満'), None)
    """
    return next(((key, w) for w, key in _LIMIT_SPELLINGS if text.startswith(w)), None)


def tile_name(text: str, lang: Lang) -> str:
    """A tile in words: ``1z`` → ``East`` / ``東``, ``0p`` → ``0p`` / ``赤5筒``; a number tile stays
    mpsz in English. An mpsz or mjai name; anything else is returned as it is."""
    from ..errors import TileError
    from ..tiles import Tile

    try:
        t = Tile.parse(text) if len(text) == 2 and text[0].isdigit() else Tile.from_mjai(text)
    except TileError:  # a label that is not a tile stays as it is
        return text
    mpsz = str(t)
    if t.kind >= 27 and not t.is_flower:
        return term_name("tile", f"{t.kind - 26}z", lang)
    if lang == "en":
        return mpsz  # a number tile is its mpsz name in English (and in the pseudo-locale)
    if t.is_flower:
        return f"花{mpsz[0]}"
    suit = {"m": "萬", "p": "筒", "s": "索"}[mpsz[1]]
    return f"赤5{suit}" if t.red else f"{mpsz[0]}{suit}"


def tile_short(mpsz: str, lang: Lang) -> str:
    """A tile as the terminal game and the review write it: number tiles in mpsz (``5p``, ``0p`` the
    red five), honours ``E S W N Wh G R`` in English and 東 南 西 北 白 發 中 in Japanese.

    >>> tile_short("6z", "en"), tile_short("6z", "ja"), tile_short("0p", "ja")
    ('G', '發', '0p')
    """
    if len(mpsz) == 2 and mpsz[1] == "z" and mpsz[0] in "1234567":
        return HONOUR_SHORT[26 + int(mpsz[0])] if lang == "en" else term_name("tile", mpsz, lang)
    return mpsz


def fu_line(line: str, lang: Lang) -> str:
    """A fu line (``Score.fu_breakdown``) in words: ``triplet_closed 1z`` → ``closed triplet of East`` /
    ``東の暗刻``."""
    head, _, rest = line.partition(" ")
    word = term_name("fu", head, lang)
    if not rest:
        return word
    return f"{tile_name(rest, lang)}の{word}" if lang == "ja" else f"{word} {tile_name(rest, lang)}"


def wind_short(wind: str, lang: Lang) -> str:
    """A wind as a seat's short label: the letter in English (``S``), the kanji in Japanese (``南``)."""
    return wind if lang == "en" else term_name("wind", wind, lang)


def round_name(wind: str, number: int, lang: Lang, honba: int = 0) -> str:
    """``East 2, 1 honba`` / ``東2局 1本場`` (honba shown only when there are some).

    >>> round_name("S", 3, "ja", 2), round_name("E", 1, "en")
    ('南3局 2本場', 'East 1')
    """
    w = term_name("wind", wind, lang)
    if lang == "ja":
        return f"{w}{number}局" + (f" {honba}本場" if honba else "")
    return f"{w} {number}" + (f", {honba} honba" if honba else "")
