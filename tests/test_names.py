"""One meaning per name (issue 20): a public name that meant two things in two modules now has
one home. ``GameRecord`` is the record model's (the simulator's per-game result is
``GameSummary``), ``Discard`` the engine's seat value (records speak the engine's ``Dahai``
events), ``play_game`` the simulator's (the terminal game is ``play_terminal_game``),
``tile_code`` the observation encoding's (tenhou.net/6's is ``tenhou6_code``), ``WINDS`` the
wind kinds of ``sanma.tiles`` (their letters are ``WIND_LETTERS``), ``Meld`` the hand's (the
terminal's drawn meld is ``ShownMeld``); and so on for the names the record work touched."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import sanma

SRC = Path(sanma.__file__).resolve().parent
ONE_HOME = {
    "GameRecord": "formats/record.py", "Discard": "game/seat.py", "play_game": "sim/arena.py",
    "tile_code": "env/encoding.py", "WINDS": "tiles.py", "Meld": "hand.py", "WIND_LETTERS": "tiles.py",
    "write_record": "formats/__init__.py", "NORTH_TILE": "events.py", "DRAW_REASONS": "events.py",
}


def _top_level_names() -> dict[str, list[str]]:
    """Every module-level class, function and assignment of src/sanma -> the modules defining it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        if "_compiled" in path.parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names = [node.target.id]
            else:
                continue
            for name in names:
                found[name].append(path.relative_to(SRC).as_posix())
    return found


def test_each_of_these_names_has_one_meaning() -> None:
    found = _top_level_names()
    assert {name: found[name] for name in ONE_HOME} == {name: [home] for name, home in ONE_HOME.items()}
