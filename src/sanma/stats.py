"""A player's own history from the database: placements, win, deal-in, riichi, call and draw
rates, win and deal-in values, kita per game, and placements over time as a chart.

Everything is summed from the per-seat rows the store keeps for each game (table ``results``,
counted from the game's events: see :mod:`sanma.store.facts` for what each count means). Rates
are per hand played; placements count only games with a final result.

>>> from sanma.store import open_db
>>> from sanma.store.events import EXAMPLE
>>> store = open_db(":memory:")
>>> game = store.import_bytes(EXAMPLE.encode(), "example.mjson").game_id
>>> a = player_stats(store, player="A")[0]
>>> a.games, a.placements, a.average_placement, a.draw_rate, a.win_rate, a.average_win
(1, (1, 0, 0), 1.0, 1.0, 0.0, None)
>>> [p.placement for p in placement_history(store, game_ids=[game])["C"]]
[3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import SanmaError
from .i18n.messages import sentence
from .tiles import SEATS

if TYPE_CHECKING:
    from .store import Store

MAX_CHART_PLAYERS = 8
#: Fonts with Japanese glyphs, used for names when one is installed.
CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic", "VL Gothic",
             "Hiragino Sans", "Yu Gothic", "MS Gothic")


class StatsError(SanmaError):
    """No games to summarise, or an unknown player."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's numbers over a set of games."""

    name: str
    games: int
    ranked_games: int  # games with a final placement (an excerpt has none)
    placements: tuple[int, ...]  # how many 1st, 2nd, 3rd
    average_placement: float | None
    average_points: float | None  # final points (after uma and oka) per ranked game
    hands: int
    wins: int
    deal_ins: int
    riichi: int
    calls: int
    draws: int
    win_rate: float  # hands won / hands
    deal_in_rate: float  # hands dealt in / hands
    riichi_rate: float  # hands with a riichi declaration / hands
    call_rate: float  # hands with a pon or open kan / hands
    draw_rate: float  # hands ending in ryuukyoku / hands
    average_win: float | None  # points of a win (before honba and sticks)
    average_deal_in: float | None  # points of the win dealt into
    kita_per_game: float

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["placements"] = list(self.placements)
        return out


@dataclass(frozen=True, slots=True)
class Placement:
    """One game in a player's history, oldest first."""

    game_id: int
    when: str  # when the game was played (else when it was stored), ISO 8601
    dated: bool  # ``when`` comes from the record (file name or header), not the import time
    placement: int
    points: float | None = None  # the game's final points (after uma and oka), when the record has them
    score: int | None = None  # the final score


def player_stats(store: Store, *, game_ids: Sequence[int] | None = None,
                 player: str | None = None) -> list[PlayerStats]:
    """Each player's numbers over ``game_ids`` (default: every stored game outside simulation
    runs), most games first; only ``player`` when given (their name as stored, or with the rank
    suffix a format appends)."""
    from .store.history import player_totals

    out = []
    for t in player_totals(store, game_ids=game_ids, player=player):
        per_hand = max(t.hands, 1)
        out.append(PlayerStats(
            name=t.name, games=t.games, ranked_games=t.ranked_games, placements=t.placements,
            average_placement=t.average_placement, average_points=t.average_points, hands=t.hands, wins=t.wins,
            deal_ins=t.deal_ins, riichi=t.riichi, calls=t.calls, draws=t.draws, win_rate=t.wins / per_hand,
            deal_in_rate=t.deal_ins / per_hand, riichi_rate=t.riichi / per_hand, call_rate=t.calls / per_hand,
            draw_rate=t.draws / per_hand, average_win=t.win_points / t.wins if t.wins else None,
            average_deal_in=t.deal_in_points / t.deal_ins if t.deal_ins else None, kita_per_game=t.kita / t.games))
    return out


def placement_history(store: Store, *, game_ids: Sequence[int] | None = None,
                      player: str | None = None) -> dict[str, list[Placement]]:
    """Each player's placements (with the game's final points and score) in game order (the record's
    date where known, else import order)."""
    from .store.history import placements

    out: dict[str, list[Placement]] = {}
    for r in placements(store, game_ids=game_ids, player=player):
        out.setdefault(r.name, []).append(Placement(r.game_id, r.when, r.dated, r.placement, r.points,
                                                                 r.score))
    return out


def write_chart(history: Mapping[str, Sequence[Placement]], path: str | Path, *, title: str = "") -> None:
    """A PNG of placements over time: one line per player, game order along the bottom, 1st at
    the top, with each player's running average dashed. Drawn off-screen (Agg), no display."""
    import warnings

    from matplotlib import font_manager, rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    if not any(history.values()):
        raise StatsError(sentence("no ranked games to chart", code="no_games"))
    installed = {f.name for f in font_manager.fontManager.ttflist}
    fonts = ["DejaVu Sans", *(f for f in CJK_FONTS if f in installed)]  # Tenhou names are Japanese
    ranked = sorted(((n, g) for n, g in history.items() if g), key=lambda kv: (-len(kv[1]), kv[0]))
    shown = ranked[:MAX_CHART_PLAYERS]
    longest = max(len(g) for _, g in shown)
    # text.parse_math off: a player named "$\frac$" is a name, not TeX to parse (and fail on)
    with rc_context({"font.family": fonts, "text.parse_math": False}), warnings.catch_warnings():
        # without a CJK font installed, Japanese names are drawn as boxes rather than failing
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font")
        fig = Figure(figsize=(max(6.0, min(16.0, 2.0 + 0.35 * longest)), 4.0), dpi=100)
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        for i, (name, games) in enumerate(shown):
            xs = list(range(1, len(games) + 1))
            ys = [g.placement for g in games]
            avg = [sum(ys[: n + 1]) / (n + 1) for n in range(len(ys))]
            color = f"C{i % 10}"
            ax.plot(xs, ys, marker="o", linestyle="-", color=color, alpha=0.8, label=name)
            ax.plot(xs, avg, linestyle="--", color=color, alpha=0.6)
        ax.set_ylim(SEATS + 0.4, 0.6)  # 1st at the top
        ax.set_yticks(range(1, SEATS + 1), ["1st", "2nd", "3rd"][:SEATS])
        only = shown[0][1]
        if len(shown) == 1 and len(only) <= 20 and all(g.dated for g in only):
            ax.set_xticks(range(1, len(only) + 1), [g.when[:10] for g in only], rotation=30, ha="right",
                          fontsize="small")
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("game, oldest first (dashed: running average)")
        ax.set_ylabel("placement")
        more = f" ({len(shown)} of {len(ranked)} players, most games first)" if len(ranked) > len(shown) else ""
        ax.set_title((title or "Placements over time") + more)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
        fig.tight_layout()
        try:
            fig.savefig(str(path), format="png")
        except OSError as e:
            raise StatsError(sentence("{path}: cannot write the chart: {why}", code="chart", path=str(path),
                                      why=e.strerror or str(e))) from None
