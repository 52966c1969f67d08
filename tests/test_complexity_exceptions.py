"""ruff's complexity rule (C901) names each file it exempts, and that list only shrinks:
a file whose functions all fit the bound again leaves the list (or this test fails), and
the list may never grow past its count when the rule came in, lowered as files leave."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Lower this when a file leaves the list; never raise it.
MOST_EXEMPT_FILES = 7


def _lint_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]


def _exempt_files() -> list[str]:
    return [name for name, rules in _lint_config()["per-file-ignores"].items()
            if "C901" in rules]


def _too_complex(path: str) -> list[str]:
    """The functions of ``path`` over the bound, checked without any exemption."""
    bound = _lint_config()["mccabe"]["max-complexity"]
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--select", "C901",
         "--config", f"lint.mccabe.max-complexity={bound}", "--output-format", "json",
         "--exit-zero", path],
        cwd=ROOT, capture_output=True, text=True, check=True)
    return [found["message"] for found in json.loads(done.stdout)]


def test_the_complexity_rule_is_on_with_a_bound():
    lint = _lint_config()
    assert "C901" in lint["select"]
    assert lint["mccabe"]["max-complexity"] == 10


def test_the_list_of_exempt_files_never_grows():
    assert len(_exempt_files()) <= MOST_EXEMPT_FILES


@pytest.mark.parametrize("path", _exempt_files())
def test_every_exempt_file_still_holds_a_function_over_the_bound(path):
    assert (ROOT / path).is_file(), f"{path} is gone: drop it from per-file-ignores"
    assert _too_complex(path), f"{path} fits the bound now: drop it from per-file-ignores"


def test_the_check_finds_a_function_over_the_bound(tmp_path):
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(12))
    sample = tmp_path / "sample.py"
    sample.write_text(f"def f(x):\n{branches}    return -1\n")
    assert _too_complex(str(sample)) == ["`f` is too complex (13 > 10)"]
