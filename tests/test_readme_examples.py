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
