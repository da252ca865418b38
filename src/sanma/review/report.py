"""A review of one seat's game: every decision with its options valued, the regret of what was
played, a sentence of why (made from the same numbers), each hand's placement odds at the deal,
and the game's summary — as the JSON of the contract (``sanma review --json``).

``regret`` is in placement points (the final result's points: 1.0 is 1,000 points of score, uma,
oka and chips included): the best option's ``ev_placement`` less the option's, 0 for the best and
never below. ``regret_points`` is the same regret in points (× 1,000). Probabilities are rounded to
four places, points to whole points, placement points to three places. The sentences (``why``, the
model, the options and categories in words) are :class:`~sanma.i18n.Message` values: English in the
JSON whatever the output language (its keys and values never depend on it), the reader's language
on the command line and the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots.value import rank_odds
from ..game.actions import Action
from ..i18n.lang import Lang
from ..i18n.messages import Message, TileWord, sentence, sentence_n
from ..i18n.terms import round_name
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
    why: Message  # English in the JSON, the reader's language on the command line and the page

    @property
    def played(self) -> OptionReview:
        return next(o for o in self.options if o.played)

    @property
    def regret(self) -> float:
        return self.played.regret

    def to_json(self) -> dict[str, Any]:
        d = self.decision
        return {"hand": d.hand, "kyoku": self.kyoku, "step": d.step, "played": self.played.action.to_mjai(),
                "options": [o.to_json() for o in self.options], "category": self.category, "why": str(self.why)}


@dataclass
class Review:
    """The review of one seat of one game."""

    seat: int
    model: Message  # what the numbers are (issue 21 item 6); English in the JSON
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
            "seat": self.seat, "model": str(self.model), "rules": self.rules, "source": self.source,
            "players": list(self.players), "depth": self.depth,
            "decisions": [d.to_json() for d in self.decisions],
            "hands": [{"hand": h.index, "kyoku": h.kyoku, "placement_odds": [[_p(x) for x in row] for row in o]}
                      for h, o in zip(self.hands, self.odds, strict=True)],
            "summary": self.summary(),
            "errors": list(self.errors),
        }


Valuer = Callable[[Decision, Sequence[Action]], list[Estimate]]


def review_game(game: WalkedGame, seat: int, evaluator: Evaluator, *, valuer: Valuer | None = None,
                model: Message | None = None, depth: int = 0) -> Review:
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
        # a record reader's problem keeps its sentence (a Said): the edge says it in its reader's words
        out.errors = [m.said() for m in game.replay.mismatches]
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
# Every sentence is a Message (sanma.i18n): the JSON carries its English (``str``), the command line
# and the page say it in the reader's language (``.text()``).

#: The categories in words (the JSON's keys stay these English names).
CATEGORY_WORDS: Final = {
    "efficiency": sentence("efficiency"), "push/fold": sentence("push/fold"),
    "riichi or dama": sentence("riichi or dama"), "calls": sentence("calls"),
    "kita timing": sentence("kita timing"), "safe tiles": sentence("safe tiles"),
}


def category_words(category: str) -> Message:
    return CATEGORY_WORDS.get(category) or Message("{category}", {"category": category})  # not a word to translate


def kyoku_words(kyoku: str, lang: Lang) -> str:
    """The contract's ``E1-0`` as a player says it: ``East 1`` / ``東1局``, with its honba when there
    are some (``南2局 1本場``); anything else as it is."""
    wind, _, rest = kyoku.partition("-")
    if len(wind) < 2 or wind[0] not in "ESWN" or not wind[1:].isdigit() or not rest.isdigit():
        return kyoku
    return round_name(wind[0], int(wind[1:]), lang, int(rest))


def tile_text(t: Tile | None) -> TileWord | str:
    """The tile in its reader's words (``G`` / 發, ``5p``), put into them at the edge."""
    return "?" if t is None else TileWord(str(t))


def option_text(a: Action, follow: Action | None = None) -> Message:
    """``discard 3p``, ``riichi with 6s``, ``pon 5z, then discard 9m``, ``pass``, ``ron``..."""
    t = a.type
    if t == "dahai":
        return sentence("discard {tile}", tile=tile_text(a.tile))
    if t == "reach":
        return sentence("riichi with {tile}", tile=tile_text(a.tile))
    if t == "open_reach":
        return sentence("open riichi with {tile}", tile=tile_text(a.tile))
    if t == "hora":
        return sentence("tsumo") if a.target == a.actor else sentence("ron")
    if t == "none":
        return sentence("pass")
    if t == "pon":
        if follow is not None:
            return sentence("pon {tile}, then discard {then}", tile=tile_text(a.tile), then=tile_text(follow.tile))
        return sentence("pon {tile}", tile=tile_text(a.tile))
    if t == "daiminkan":
        return sentence("kan {tile}", tile=tile_text(a.tile))
    if t == "ankan":
        return sentence("concealed kan {tile}", tile=tile_text(a.consumed[0] if a.consumed else None))
    if t == "kakan":
        return sentence("added kan {tile}", tile=tile_text(a.tile))
    if t == "kita":
        return sentence("kita (pull the North)")
    if t == "ryukyoku":
        return sentence("nine terminals (abort)")
    return Message("{action}", {"action": t})  # a kind of action the review does not offer


def shape_text(e: Estimate) -> Message:
    p = e.position
    if p is None:
        return sentence("wins now") if e.win >= 1 else sentence("ends the hand")
    if p.shanten == 0:
        if not p.yaku:
            return sentence("tenpai without a yaku")
        if p.furiten:
            return sentence_n("tenpai on {n} tile (furiten)", "tenpai on {n} tiles (furiten)", p.tiles)
        return sentence_n("tenpai on {n} tile", "tenpai on {n} tiles", p.tiles)
    return sentence_n("{shanten}-shanten with {n} tile that improves it", "{shanten}-shanten with {n} tiles that "
                      "improve it", p.tiles, shanten=p.shanten)


def why(opts: Sequence[OptionReview], category: str) -> Message:
    """One sentence from the numbers: the best option's reasons, against the played one."""
    best = opts[0]
    played = next(o for o in opts if o.played)
    b, p = best.estimate, played.estimate
    if played.regret <= 0:
        return sentence("Best option: {option} ({shape}), winning {win} and dealing in {deal_in}.",
                        option=option_text(p.action, p.follow), shape=shape_text(p), win=_pct(p.win),
                        deal_in=_pct(p.deal_in))
    reasons: list[Message] = []
    if abs(b.win - p.win) >= 0.005:
        reasons.append(sentence("a win chance of {best} against {played}", **_pcts(b.win, p.win)))
    if abs(b.deal_in - p.deal_in) >= 0.005:
        if p.deal_in_now >= 0.01:
            reasons.append(sentence("a deal-in chance of {best} against {played} ({now} on the tile itself)",
                                    **_pcts(b.deal_in, p.deal_in), now=_pct(p.deal_in_now)))
        else:
            reasons.append(sentence("a deal-in chance of {best} against {played}", **_pcts(b.deal_in, p.deal_in)))
    if abs(b.value - p.value) >= 100 and max(b.win, p.win) > 0:
        reasons.append(sentence("{best:,} points against {played:,} when it wins", best=round(b.value),
                                played=round(p.value)))
    if not reasons:
        reasons.append(sentence("{best:+,} points expected this hand against {played:+,}", best=round(b.ev_points),
                                played=round(p.ev_points)))
    listed = reasons[0]
    for r in reasons[1:]:
        listed = sentence("{first}, {then}", first=listed, then=r)
    return sentence("Better: {best} ({best_shape}) rather than {played} ({played_shape}), by {regret:.2f} placement "
                    "points ({points:,} points): {reasons}.", best=option_text(b.action, b.follow),
                    best_shape=shape_text(b), played=option_text(p.action, p.follow), played_shape=shape_text(p),
                    regret=played.regret, points=round(played.regret * 1000), reasons=listed)


def _pct(x: float, digits: int | None = None) -> str:
    if digits is None:
        digits = 0 if x >= 0.01 or x == 0 else 1
    return f"{100 * x:.{digits}f}%"


def _pcts(best: float, played: float) -> dict[str, str]:
    """Two chances that differ, shown so that they differ (15.4% against 14.8%, not 15% against 15%)."""
    digits = 0 if min(best, played) >= 0.01 or min(best, played) == 0 else 1
    while digits < 2 and _pct(best, digits) == _pct(played, digits):
        digits += 1
    return {"best": _pct(best, digits), "played": _pct(played, digits)}


def _p(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 4)


__all__ = ["CATEGORIES", "DecisionReview", "OptionReview", "Review", "category_of", "category_words", "option_text",
           "placement_odds", "review_decision", "review_game", "why"]
