"""The review's calibration (docs/REVIEW.md): predicted against observed, in simulated and real games.

    # (a) simulated games of the defensive bot, seeds apart from the fit's (tools/fit_review.py)
    nice -n 19 .venv/bin/python benchmarks/review_calibration.py sim --presets tenhou,club,kansai \\
        --games 150 --seed calibration-2026 --out /tmp/review-sim.json
    # (b) real Tenhou Phoenix games, every seat
    nice -n 19 .venv/bin/python benchmarks/review_calibration.py real \\
        --folder ../shared/data/corpus/tenhou_phoenix_2026-01 --games 120 --out /tmp/review-real.json
    # the report: numbers (markdown) and plots
    .venv/bin/python benchmarks/review_calibration.py report /tmp/review-sim.json /tmp/review-real.json \\
        --plots docs/review

A sample is a decision with more than one distinct option whose played option is not a win taken
now or nine terminals (those are certain and would only fill the top bin): the played option's
``win``, ``deal_in``, ``ev_points`` and ``ev_placement`` as ``sanma review`` computes them at its
default depth, beside what happened. Long runs: ``nice -n 19`` and one process (the machine is
shared); only timing benchmarks go under the heavy lock.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sanma.bots import Bot, Driver, make_bot
from sanma.formats import read_mjai
from sanma.formats.mjai import write_mjai
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.game.view import SeatView
from sanma.review.calibration import Sample, reliability, summary
from sanma.review.fit import DEAL_IN, WIN_RON, WIN_TSUMO, distinct, outcome_of
from sanma.review.model import Estimate, Evaluator
from sanma.review.report import placement_odds
from sanma.review.walk import HandFacts, hand_facts
from sanma.rules import Rules

SKIP = ("hora", "ryukyoku")


class _Predicting(Bot):
    """Plays as ``inner`` and keeps the review's estimate of each option it plays."""

    def __init__(self, inner: Bot, evaluator: Evaluator, game: Game) -> None:
        self.inner = inner
        self.name = inner.name
        self.follows_events = inner.follows_events
        self.evaluator = evaluator
        self.game = game
        self.kept: list[tuple[Estimate, int, int, int]] = []  # estimate, seat, event index, score at the decision

    def on_event(self, event: dict[str, Any]) -> None:
        self.inner.on_event(event)

    def act(self, view: SeatView | None, legal: tuple[Action, ...]) -> Action:
        choice = self.inner.act(view, legal)
        if view is not None and view.seat is not None and choice.type not in SKIP and len(distinct(legal)) > 1:
            est = self.evaluator.option(view, choice)
            self.kept.append((est, view.seat, len(self.game.events), view.scores[view.seat]))
        return choice


Odds = list[list[float]]  # per hand and seat: P(1st), P(2nd), P(3rd), the final rank


def odds_of(hands: Sequence[HandFacts], ranks: Sequence[int]) -> Odds:
    """Each hand's placement odds at the deal for every seat (``report.placement_odds``), with the final rank."""
    return [[*row, float(ranks[s])] for h in hands for s, row in enumerate(placement_odds(h))]


def simulated(rules: Rules, seed: str, index: int, evaluator: Evaluator) -> tuple[list[Sample], Odds]:
    game = Game(rules, seed=f"{seed}-{index}")
    bots = {s: _Predicting(make_bot("defensive", seed=f"{seed}-{index}-{s}", rules=rules), evaluator, game)
            for s in range(3)}
    Driver(game, bots).run()
    events = game.events
    assert game.result is not None
    chip = evaluator.chip_points if not rules.chip_points else rules.chip_points
    out = []
    for b in bots.values():
        for est, seat, at, score in b.kept:
            start = max(i for i in range(at) if events[i]["type"] == "start_kyoku")
            end = next(i for i in range(at, len(events)) if events[i]["type"] in ("end_kyoku", "end_game"))
            cat, _ = outcome_of(events[start:end + 1], seat)
            after = events[end].get("scores") or game.result.scores
            final = float(game.result.points[seat]) + game.result.chips[seat] * chip / 1000
            out.append(Sample(est.win, est.deal_in, est.ev_points, est.ev_placement, cat in (WIN_RON, WIN_TSUMO),
                              cat == DEAL_IN, int(after[seat]) - score, final, f"{seed}-{index}:{start}"))
    hands = hand_facts(read_mjai(write_mjai(game)), rules)
    return out, odds_of(hands, game.result.ranks)


def real(path: Path) -> tuple[list[Sample], str, Odds]:
    from sanma.formats import read_record
    from sanma.review.walk import walk

    rec = read_record(path)
    walked = walk(rec)
    ev = Evaluator(walked.rules)
    out = []
    for d in walked.decisions:
        if d.played.type in SKIP:
            continue
        h = walked.hands[d.hand]
        est = ev.option(d.view, d.played)
        final = walked.final_points[d.seat] if walked.final_points is not None else math.nan
        out.append(Sample(est.win, est.deal_in, est.ev_points, est.ev_placement,
                          h.outcomes[d.seat] in (WIN_RON, WIN_TSUMO), h.outcomes[d.seat] == DEAL_IN,
                          h.end_scores[d.seat] - d.view.scores[d.seat], final, f"{path.name}:{d.hand}"))
    problems = "" if walked.replay is None or walked.replay.ok else f"{len(walked.replay.mismatches)} mismatch(es)"
    odds = odds_of(walked.hands, walked.final_ranks) if walked.final_ranks is not None else []
    return out, problems, odds


def _write(path: Path, meta: dict[str, Any], samples: Sequence[Sample], odds: Odds) -> None:
    path.write_text(json.dumps({**meta, "samples": [s.to_json() for s in samples],
                                "odds": [[round(x, 4) for x in row] for row in odds]}, separators=(",", ":")) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("sim")
    a.add_argument("--presets", default="tenhou,club,kansai")
    a.add_argument("--games", type=int, default=150)
    a.add_argument("--seed", default="calibration-2026")
    a.add_argument("--out", type=Path, required=True)
    b = sub.add_parser("real")
    b.add_argument("--folder", type=Path, default=Path("../shared/data/corpus/tenhou_phoenix_2026-01"))
    b.add_argument("--games", type=int, default=120)
    b.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("report")
    c.add_argument("inputs", type=Path, nargs="+")
    c.add_argument("--plots", type=Path, default=None)
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    if args.cmd == "sim":
        samples: list[Sample] = []
        odds: Odds = []
        per: dict[str, int] = {}
        for p in [x.strip() for x in args.presets.split(",") if x.strip()]:
            rules = Rules.preset(p)
            ev = Evaluator(rules)
            before = len(samples)
            for i in range(args.games):
                got, o = simulated(rules, f"{args.seed}-{p}", i, ev)
                samples += got
                odds += o
            per[p] = len(samples) - before
            print(f"{p}: {per[p]} decisions, {time.monotonic() - t0:.0f} s", file=sys.stderr)
        _write(args.out, {"kind": "simulated", "presets": per, "games_per_preset": args.games, "seed": args.seed,
                          "model": str(Evaluator(Rules.preset("tenhou")).name)}, samples, odds)
    elif args.cmd == "real":
        files = sorted(args.folder.glob("*.xml"))[:args.games]
        samples = []
        odds = []
        problems = {}
        for n, f in enumerate(files, 1):
            got, why, o = real(f)
            samples += got
            odds += o
            if why:
                problems[f.name] = why
            if n % 10 == 0:
                print(f"{n}/{len(files)} games, {len(samples)} decisions, {time.monotonic() - t0:.0f} s",
                      file=sys.stderr)
        _write(args.out, {"kind": "real", "folder": str(args.folder), "games": len(files),
                          "replay_problems": problems, "model": str(Evaluator(Rules.preset("tenhou")).name)},
               samples, odds)
    else:
        for path in args.inputs:
            data = json.loads(path.read_text())
            samples = [Sample.from_json(x) for x in data["samples"]]
            s = summary(samples)
            print(f"## {path.name}: {data['kind']}, {s['decisions']:,} decisions, {s['hands']:,} hands")
            for key in ("win", "deal_in"):
                r = s[key]
                print(f"- {key}: calibration error {100 * r['error']:.2f} pp (worst bin {100 * r['worst']:.2f} pp), "
                      f"Brier {r['brier']:.4f} (base rate alone {r['base_brier']:.4f}), mean predicted "
                      f"{100 * r['mean']:.1f}% vs observed {100 * r['rate']:.1f}%")
            for key in ("points", "placement"):
                r = s[key]
                if r is not None:
                    print(f"- {key}: mean predicted {r['mean']:.1f} vs realised {r['rate']:.1f}, mean gap over deciles "
                          f"{r['error']:.1f} (worst {r['worst']:.1f}), RMSE {math.sqrt(r['brier']):.1f} (spread "
                          f"{math.sqrt(r['base_brier']):.1f})")
            if data.get("odds"):
                o = data["odds"]
                pred = [row[r] for row in o for r in range(3)]
                hit = [int(row[3]) == r + 1 for row in o for r in range(3)]
                rel = reliability(pred, hit)
                brier = sum(sum((row[r] - (int(row[3]) == r + 1)) ** 2 for r in range(3)) for row in o) / len(o)
                print(f"- placement odds at the deal: {len(o):,} (hand, seat) rows, calibration error "
                      f"{100 * rel.error:.2f} pp (worst bin {100 * rel.worst:.2f} pp), Brier {brier:.4f} "
                      f"(a third each: {2 / 3:.4f})")
                s["odds"] = rel
            if args.plots is not None:
                _plots(s, args.plots, path.stem, data["kind"])
    print(f"{time.monotonic() - t0:.0f} s", file=sys.stderr)
    return 0


def _plots(s: dict[str, Any], folder: Path, stem: str, kind: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    odds = s.get("odds")
    fig, axes = plt.subplots(1, 4 if odds is not None else 3, figsize=(17 if odds is not None else 13, 4.2))
    for ax, key, title in ((axes[0], "win", "win chance"), (axes[1], "deal_in", "deal-in chance")):
        r = s[key]
        pts = [(b[3], b[4], b[2]) for b in r["bins"] if b[2]]
        ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--")
        ax.plot([p for p, _, _ in pts], [o for _, o, _ in pts], marker="o", color="#1f5fa8")
        for p, o, n in pts:
            ax.annotate(f"{n:,}", (p, o), textcoords="offset points", xytext=(4, -10), fontsize=7, color="#555")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel(f"predicted {title}")
        ax.set_ylabel("observed rate")
        ax.set_title(f"{title}: error {100 * r['error']:.1f} pp, Brier {r['brier']:.3f}")
    r = s["points"]
    xs = [b[3] for b in r["bins"]]
    ys = [b[4] for b in r["bins"]]
    lo, hi = min(xs + ys), max(xs + ys)
    axes[2].plot([lo, hi], [lo, hi], color="#999", lw=1, ls="--")
    axes[2].plot(xs, ys, marker="o", color="#a8461f")
    axes[2].set_xlabel("predicted points this hand (decile means)")
    axes[2].set_ylabel("realised points")
    axes[2].set_title(f"points: mean gap {r['error']:.0f}")
    if odds is not None:
        pts = [(b.predicted, b.observed, b.count) for b in odds.bins if b.count]
        ax = axes[3]
        ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--")
        ax.plot([p for p, _, _ in pts], [o for _, o, _ in pts], marker="o", color="#3b8a3e")
        for p, o, n in pts:
            ax.annotate(f"{n:,}", (p, o), textcoords="offset points", xytext=(4, -10), fontsize=7, color="#555")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel("predicted chance of a final rank, at each deal")
        ax.set_ylabel("observed rate")
        ax.set_title(f"placement odds: error {100 * odds.error:.1f} pp")
    fig.suptitle(f"sanma review calibration, {kind} games: {s['decisions']:,} decisions, {s['hands']:,} hands")
    fig.tight_layout()
    fig.savefig(folder / f"calibration-{stem}.png", dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
