"""A review of one seat's game: every decision with its options valued, the regret of what was
played, a sentence of why (made from the same numbers), each hand's placement odds at the deal,
and the game's summary — as the JSON of the contract (``sanma review --json``).

``regret`` is in placement points (the final result's points: 1.0 is 1,000 points of score, uma,
oka and chips included): the best option's ``ev_placement`` less the option's, 0 for the best and
never below. ``regret_points`` is the same regret in points (× 1,000). Probabilities are rounded to
four places, points to whole points, placement points to three places; the sentences are English
whatever the output language (the JSON's keys and values never depend on it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots.value import rank_odds
from ..game.actions import Action
from ..tiles import SEATS, Tile
from .fit import option_key
from .model import Estimate, Evaluator
from .position import THREAT_NONE, threat_level
from .walk import Decision, HandFacts, WalkedGame

CATEGORIES: Final = ("efficiency", "push/fold", "riichi or dama", "calls", "kita timing", "safe tiles")
#: How many of the costliest decisions the summary names.
WORST: Final = 5


@dataclass(frozen=True, slots=True)
class OptionReview:
    estimate: Estimate
    regret: float  # placement points
    played: bool
    best: bool

    @property
    def action(self) -> Action:
        return self.estimate.action

    def to_json(self) -> dict[str, Any]:
        e = self.estimate
        out: dict[str, Any] = {
            "action": e.action.to_mjai(), "win": _p(e.win), "deal_in": _p(e.deal_in), "value": round(e.value),
            "ev_points": round(e.ev_points), "ev_placement": round(e.ev_placement, 3),
            "regret": round(self.regret, 3), "regret_points": round(self.regret * 1000),
        }
        if e.follow is not None:
            out["then"] = e.follow.to_mjai()
        return out


@dataclass(frozen=True, slots=True)
class DecisionReview:
    decision: Decision
    kyoku: str
    options: tuple[OptionReview, ...]  # best first
    category: str
    why: str

    @property
    def played(self) -> OptionReview:
        return next(o for o in self.options if o.played)

    @property
    def regret(self) -> float:
        return self.played.regret

    def to_json(self) -> dict[str, Any]:
        d = self.decision
        return {"hand": d.hand, "kyoku": self.kyoku, "step": d.step, "played": self.played.action.to_mjai(),
                "options": [o.to_json() for o in self.options], "category": self.category, "why": self.why}


@dataclass
class Review:
    """The review of one seat of one game."""

    seat: int
    model: str
    rules: str
    source: str
    players: tuple[str, ...]
    decisions: list[DecisionReview] = field(default_factory=list)
    hands: list[HandFacts] = field(default_factory=list)
    odds: list[list[list[float]]] = field(default_factory=list)  # per hand, per seat: P(1st), P(2nd), P(3rd)
    errors: list[str] = field(default_factory=list)
    depth: int = 0

    def summary(self) -> dict[str, Any]:
        n = len(self.decisions)
        worst = sorted((d for d in self.decisions if d.regret > 0), key=lambda d: -d.regret)[:WORST]
        by: dict[str, dict[str, Any]] = {}
        for c in CATEGORIES:
            mine = [d for d in self.decisions if d.category == c]
            if mine:
                by[c] = {"decisions": len(mine), "regret_placement": round(sum(d.regret for d in mine), 3),
                         "regret_points": round(1000 * sum(d.regret for d in mine)),
                         "agreement": _p(sum(1 for d in mine if d.played.best) / len(mine))}
        return {
            "decisions": n,
            "regret_points": round(1000 * sum(d.regret for d in self.decisions)),
            "regret_placement": round(sum(d.regret for d in self.decisions), 3),
            "agreement": _p(sum(1 for d in self.decisions if d.played.best) / n) if n else 1.0,
            "worst": [[d.decision.hand, d.decision.step] for d in worst],
            "by_category": by,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "model": self.model, "rules": self.rules, "source": self.source,
            "players": list(self.players), "depth": self.depth,
            "decisions": [d.to_json() for d in self.decisions],
            "hands": [{"hand": h.index, "kyoku": h.kyoku, "placement_odds": [[_p(x) for x in row] for row in o]}
                      for h, o in zip(self.hands, self.odds, strict=True)],
            "summary": self.summary(),
            "errors": list(self.errors),
        }


Valuer = Callable[[Decision, Sequence[Action]], list[Estimate]]


def review_game(game: WalkedGame, seat: int, evaluator: Evaluator, *, valuer: Valuer | None = None,
                model: str | None = None, depth: int = 0) -> Review:
    """Review ``seat``'s decisions of a walked record (``valuer``: another way to value options,
    e.g. rollouts; default the evaluator's value model)."""
    rec = game.record
    out = Review(seat, model or evaluator.name, game.rules.name, rec.source, tuple(rec.players), depth=depth)
    for d in game.decisions:
        if d.seat != seat:
            continue
        options = _options(d)
        ests = valuer(d, options) if valuer is not None else evaluator.evaluate(d.view, options)
        out.decisions.append(review_decision(d, ests, game.hands[d.hand].kyoku if d.hand < len(game.hands) else "?"))
    out.hands = list(game.hands)
    out.odds = [placement_odds(h) for h in game.hands]
    if game.replay is not None:
        out.errors = [str(m) for m in game.replay.mismatches]
    return out


def _options(d: Decision) -> list[Action]:
    """The decision's distinct options, the played one standing for its kind (its own form)."""
    out: dict[tuple[Any, ...], Action] = {}
    played = option_key(d.played)
    for a in d.legal:
        k = option_key(a)
        if k == played:
            out[k] = d.played
        else:
            out.setdefault(k, a)
    return list(out.values())


def placement_odds(h: HandFacts) -> list[list[float]]:
    """Each seat's chances of finishing 1st, 2nd, 3rd, from the scores at the deal with this hand and
    those scheduled after it still to play (``bots.value.rank_odds``: the bots' placement model)."""
    return [list(rank_odds(h.scores, s, h.hands_left + 1)) for s in range(SEATS)]


def review_decision(d: Decision, ests: Sequence[Estimate], kyoku: str) -> DecisionReview:
    # Placement points are shown to 0.001 (one point of score): the regret is taken between the shown
    # values, so the JSON agrees with itself (the best shown value has regret 0).
    shown = [round(e.ev_placement, 3) for e in ests]
    best = max(shown)
    played_key = option_key(d.played)
    opts = [OptionReview(e, round(best - q, 3), option_key(e.action) == played_key, q >= best)
            for e, q in zip(ests, shown, strict=True)]
    opts.sort(key=lambda o: (o.regret, not o.played))
    if not any(o.played for o in opts):  # pragma: no cover - _options always holds the played action
        raise ValueError(f"the played action {d.played} is not among the options")
    category = category_of(d, opts)
    return DecisionReview(d, kyoku, tuple(opts), category, why(opts, category))


def category_of(d: Decision, opts: Sequence[OptionReview]) -> str:
    """Which kind of judgement the decision was (the summary's categories)."""
    kinds = {o.action.type for o in opts}
    if "kita" in kinds:
        return "kita timing"
    if kinds & {"reach", "open_reach"}:
        return "riichi or dama"
    if kinds & {"none", "pon", "daiminkan", "ankan", "kakan", "hora"}:
        return "calls"
    if threat_level(d.view) == THREAT_NONE:
        return "efficiency"
    shanten = [o.estimate.position.shanten for o in opts if o.estimate.position is not None]
    least = min(shanten) if shanten else 0

    def folds(o: OptionReview) -> bool:
        p = o.estimate.position
        return p is not None and p.shanten > least

    best = opts[0]
    return "safe tiles" if folds(best) and folds(next(o for o in opts if o.played)) else "push/fold"


# --------------------------------------------------------------------------------------- sentences
def tile_text(t: Tile | None) -> str:
    return "?" if t is None else str(t)


def option_text(a: Action, follow: Action | None = None) -> str:
    """``discard 3p``, ``riichi with 6s``, ``pon 5z, then discard 9m``, ``pass``, ``ron``..."""
    t = a.type
    if t == "dahai":
        return f"discard {tile_text(a.tile)}"
    if t in ("reach", "open_reach"):
        return f"{'open ' if t == 'open_reach' else ''}riichi with {tile_text(a.tile)}"
    if t == "hora":
        return "tsumo" if a.target == a.actor else "ron"
    if t == "none":
        return "pass"
    if t == "pon":
        then = f", then discard {tile_text(follow.tile)}" if follow is not None else ""
        return f"pon {tile_text(a.tile)}{then}"
    if t == "daiminkan":
        return f"kan {tile_text(a.tile)}"
    if t == "ankan":
        return f"concealed kan {tile_text(a.consumed[0] if a.consumed else None)}"
    if t == "kakan":
        return f"added kan {tile_text(a.tile)}"
    if t == "kita":
        return "kita (pull the North)"
    if t == "ryukyoku":
        return "nine terminals (abort)"
    return t


def shape_text(e: Estimate) -> str:
    p = e.position
    if p is None:
        return "wins now" if e.win >= 1 else "ends the hand"
    if p.shanten == 0:
        if not p.yaku:
            return "tenpai without a yaku"
        return f"tenpai on {p.tiles} tile{'s' if p.tiles != 1 else ''}" + (" (furiten)" if p.furiten else "")
    return f"{p.shanten}-shanten with {p.tiles} tiles that improve it"


def why(opts: Sequence[OptionReview], category: str) -> str:
    """One sentence from the numbers: the best option's reasons, against the played one."""
    best = opts[0]
    played = next(o for o in opts if o.played)
    b, p = best.estimate, played.estimate
    bt = option_text(b.action, b.follow)
    if played.regret <= 0:
        return (f"{_cap(option_text(p.action, p.follow))} is the best option: it {shape_text(p)}, "
                f"wins {_pct(p.win)} and deals in {_pct(p.deal_in)}.")
    reasons = []
    if abs(b.win - p.win) >= 0.005:
        reasons.append(f"a win chance of {_pct(b.win)} against {_pct(p.win)}")
    if abs(b.deal_in - p.deal_in) >= 0.005:
        reasons.append(f"a deal-in chance of {_pct(b.deal_in)} against {_pct(p.deal_in)}"
                       + (f" ({_pct(p.deal_in_now)} on the tile itself)" if p.deal_in_now >= 0.01 else ""))
    if abs(b.value - p.value) >= 100 and max(b.win, p.win) > 0:
        reasons.append(f"{round(b.value):,} points against {round(p.value):,} when it wins")
    if not reasons:
        reasons.append(f"{round(b.ev_points):+,} points expected this hand against {round(p.ev_points):+,}")
    return (f"{_cap(bt)} ({shape_text(b)}) beats {option_text(p.action, p.follow)} ({shape_text(p)}) by "
            f"{played.regret:.2f} placement points ({round(played.regret * 1000):,} points): "
            + ", ".join(reasons) + ".")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%" if x >= 0.01 or x == 0 else f"{100 * x:.1f}%"


def _p(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 4)


__all__ = ["CATEGORIES", "DecisionReview", "OptionReview", "Review", "category_of", "option_text",
           "placement_odds", "review_decision", "review_game", "why"]
