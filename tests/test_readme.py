"""The README's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_python_examples_run(capsys: object) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_setup_commands_are_the_two_the_ci_runs() -> None:
    text = README.read_text()
    assert "pip install . && castle solve --deal 1" in text
    assert "pip install '.[test]' && pytest" in text
