"""The golden check (issue 10): seeded games under all six presets give the same events, byte for byte.

``tools/golden_events.py`` defines the games (random, efficient and defensive bots, and two
harness policies that reach nagashi and pao; some games with ``table_mistakes`` so chombo
occurs, P80/P100) and stores the SHA-256 of each game's ``json.dumps(events, sort_keys=True)``
with its final result in ``tests/data/golden_events.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = (
    "regenerate with `python tools/golden_events.py --write` ONLY for an intended behaviour change, "
    "and name that change in the commit message; a refactor must leave every game identical"
)


def test_golden_events_identical() -> None:
    """Every golden game's events and final result are unchanged; the set still covers kans, kita,
    flowers, pao (P97), chombo (P100), double ron (P88) and nagashi (P96)."""
    tool = load_script("tools/golden_events.py")
    stored = json.loads((ROOT / "tests" / "data" / "golden_events.json").read_text())["games"]
    games, coverage = tool.run()
    assert set(games) == set(stored), f"the golden set changed ({sorted(set(games) ^ set(stored))}): {REGENERATE}"
    differ = [k for k in games if games[k] != stored[k]]
    assert not differ, f"{len(differ)} golden games differ, first {differ[0]}: " \
                       f"now {games[differ[0]]}, stored {stored[differ[0]]}; {REGENERATE}"
    missing = [f for f, n in coverage.items() if not n]
    assert not missing, f"the golden set no longer reaches {missing}"
    assert sum(g["hands"] for g in games.values()) >= 1000  # "some thousands of hands"
