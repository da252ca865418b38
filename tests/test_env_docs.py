"""docs/ENV.md: the example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ENV_MD = Path(__file__).resolve().parent.parent / "docs" / "ENV.md"


def test_env_docs_random_agent_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", ENV_MD.read_text(), flags=re.S)
    example = next(b for b in blocks if "agent_iter" in b and "import numpy" in b)
    exec(compile(example, str(ENV_MD), "exec"), {})
    out = capsys.readouterr().out
    assert "final points" in out and "score change" in out


def test_env_docs_state_the_current_sizes() -> None:
    from sanma.env import FLAT_SIZE, NUM_ACTIONS

    text = ENV_MD.read_text()
    assert f"`FLAT_SIZE` ({FLAT_SIZE})" in text
    assert f"`Discrete({NUM_ACTIONS})`" in text and f"int8[{NUM_ACTIONS}]" in text
