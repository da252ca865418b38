"""The README's rule-file and shell examples stay true (its Python examples run as doctests)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from sanma.cli import COMMANDS
from sanma.rules.loader import from_dict

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_toml_example_is_a_valid_rule_file() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", README, re.S)
    assert blocks
    for text in blocks:
        rules = from_dict(tomllib.loads(text), "README.md")
        assert rules.name


def test_every_shell_example_names_an_existing_command() -> None:
    commands = re.findall(r"\.venv/bin/sanma (\w+)", README)
    assert commands
    assert set(commands) <= set(COMMANDS) | {"version"}


def test_the_python_examples_run() -> None:
    """README.md's and README.ja.md's Python examples (pytest's testpaths do not reach the READMEs,
    so their doctests run here)."""
    import doctest

    for name in ("README.md", "README.ja.md"):
        path = Path(__file__).resolve().parents[1] / name
        result = doctest.testfile(str(path), module_relative=False, encoding="utf-8",
                                  optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.attempted > 0 and result.failed == 0, name
