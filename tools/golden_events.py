"""The golden check: seeded games under all six presets, pinned by the SHA-256 of their events.

Each game is played from its spec alone (preset, bots, seed, ``table_mistakes``): the same code
gives the same ``game.events``, byte for byte. ``tests/test_golden_events.py`` replays the specs
and compares them with ``tests/data/golden_events.json``; a refactor must leave them identical.

    python tools/golden_events.py            # play the games, compare with the stored file
    python tools/golden_events.py --write    # regenerate (only for an intended behaviour change,
                                             # named in the commit message)

The set covers kans, kita, flowers, pao, chombo, double ron and nagashi: ``coverage`` counts them
and the check fails if one of them did not occur.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sanma.bots import Bot, Driver, make_bot
from sanma.game.actions import Action
from sanma.game.engine import Game
from sanma.game.view import SeatView
from sanma.rules.schema import Rules
from sanma.tiles import DRAGONS, YAOCHUU

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden_events.json"
PRESETS = ("club", "online", "official", "kansai", "tenhou", "majsoul")
SEATS = 3
# What the set must contain at least once (a refactor of that code is then pinned too).
FEATURES = ("kan", "kita", "flower", "pao", "chombo", "double_ron", "nagashi")


@dataclass(frozen=True)
class Spec:
    """One game: the preset, the three seats' bots, the seed and whether riichi mistakes happen."""

    preset: str
    bots: tuple[str, str, str]
    seed: str
    table_mistakes: bool = False

    @property
    def key(self) -> str:
        return f"{self.preset}/{','.join(self.bots)}/{self.seed}/{'mistakes' if self.table_mistakes else 'clean'}"


def specs() -> Iterator[Spec]:
    """The games of the golden set (modest: the test replays all of them in pure Python)."""
    for p in PRESETS:
        for i in range(4):
            yield Spec(p, ("random", "random", "random"), f"golden-{p}-r{i}")
        for i in range(3):
            yield Spec(p, ("random", "random", "random"), f"golden-{p}-m{i}", table_mistakes=True)
        yield Spec(p, ("defensive", "efficient", "random"), f"golden-{p}-d0")
        yield Spec(p, ("efficient", "defensive", "defensive"), f"golden-{p}-d1", table_mistakes=True)
    # Seeds found (by trying seeds in order) to reach the rare rules: nagashi (P96), pao (P97),
    # double ron (P88).
    for p, i in (("club", 0), ("official", 15), ("kansai", 0)):
        yield Spec(p, ("yaochuu", "yaochuu", "yaochuu"), f"find-nagashi-{p}-{i}")
    yield Spec("majsoul", ("dragons", "dragons", "dragons"), "find-pao-majsoul-53")
    for p, i in (("tenhou", 2), ("online", 15)):
        yield Spec(p, ("efficient", "efficient", "efficient"), f"find-double_ron-{p}-{i}")


class _Steered(Bot):
    """A harness policy over the efficient bot, to reach rare rules often: ``yaochuu`` wins when it
    can, never calls and discards terminals and honours first (nagashi); ``dragons`` pons and kans
    every dragon it is offered (pao). Deterministic like every bot."""

    def __init__(self, kind: str, seed: str, rules: Rules) -> None:
        self.kind = kind
        self.base = make_bot("efficient", seed=seed, rules=rules)

    def act(self, obs: SeatView | None, legal: tuple[Action, ...]) -> Action:
        for a in legal:
            if a.type == "hora":
                return a
        if self.kind == "dragons":
            for a in legal:
                if a.type in ("pon", "daiminkan", "kakan") and a.tile is not None and a.tile.kind in DRAGONS:
                    return a
            return self.base.act(obs, legal)
        discards = [a for a in legal if a.type == "dahai"]
        if not discards:  # a call window: never call (a call would break someone's nagashi)
            return next((a for a in legal if a.type == "none"), legal[0])
        yao = [a for a in discards if a.tile is not None and a.tile.kind in YAOCHUU]
        return yao[0] if yao else self.base.act(obs, tuple(discards))


def _bot(name: str, seed: str, rules: Rules) -> Bot:
    return _Steered(name, seed, rules) if name in ("yaochuu", "dragons") else make_bot(name, seed=seed, rules=rules)


def play(spec: Spec) -> Game:
    """Play one game of the set to its end, through the bots' one driver."""
    rules = Rules.preset(spec.preset)
    bots = [_bot(b, f"{spec.seed}-{s}", rules) for s, b in enumerate(spec.bots)]
    game = Game(rules, seed=spec.seed, names=spec.bots, table_mistakes=spec.table_mistakes)
    Driver(game, dict(enumerate(bots))).run()
    return game


def digest(game: Game) -> dict[str, Any]:
    """What is pinned: the SHA-256 of the events and the final result in plain numbers."""
    blob = json.dumps(game.events, sort_keys=True).encode()
    assert game.result is not None
    return {
        "sha256": hashlib.sha256(blob).hexdigest(),
        "events": len(game.events),
        "hands": game.hand_number + 1,
        "end_reason": game.end_reason,
        "scores": list(game.result.scores),
        "points": list(game.result.points),
        "chips": list(game.result.chips),
    }


def features(game: Game) -> set[str]:
    """Which of ``FEATURES`` occurred in the game."""
    seen: set[str] = set()
    wins_in_hand = 0
    for e in game.events:
        t = e["type"]
        if t in ("ankan", "daiminkan", "kakan"):
            seen.add("kan")
        elif t in ("kita", "flower", "chombo"):
            seen.add(t)
        elif t == "hora":
            wins_in_hand += 1
            if wins_in_hand >= 2:
                seen.add("double_ron")
            if "pao" in e:
                seen.add("pao")
        elif t == "ryukyoku" and e.get("reason") == "nagashi":
            seen.add("nagashi")
        elif t == "start_kyoku":
            wins_in_hand = 0
    return seen


def run() -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
    """Play every spec: the digests by key and how often each feature occurred (in games)."""
    out: dict[str, dict[str, Any]] = {}
    coverage = dict.fromkeys(FEATURES, 0)
    for spec in specs():
        game = play(spec)
        out[spec.key] = digest(game)
        for f in features(game):
            coverage[f] += 1
    return out, coverage


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="regenerate tests/data/golden_events.json")
    args = ap.parse_args(argv)
    games, coverage = run()
    missing = [f for f, n in coverage.items() if not n]
    hands = sum(g["hands"] for g in games.values())
    print(f"{len(games)} games, {hands} hands; games with: "
          + ", ".join(f"{f} {n}" for f, n in coverage.items()))
    if missing:
        print(f"the set lacks {', '.join(missing)}: add games that reach it", file=sys.stderr)
        return 1
    if args.write:
        GOLDEN.write_text(json.dumps({"games": games, "coverage": coverage}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN}")
        return 0
    stored = json.loads(GOLDEN.read_text())["games"]
    differ = sorted(k for k in games.keys() | stored.keys() if games.get(k) != stored.get(k))
    for k in differ:
        print(f"differs: {k}", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
