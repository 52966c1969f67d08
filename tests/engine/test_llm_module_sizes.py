"""The modules of debates/engine/llm stay small, each with one job: at most 500 lines
a module and 60 lines a function (from its ``def`` line to its last line, nested
functions counted in their own right too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LLM = Path(__file__).resolve().parents[2] / "debates" / "engine" / "llm"
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
MODULES = sorted(LLM.glob("*.py"))


def long_functions(source: str) -> list[str]:
    """``name: lines`` of every function in ``source`` over the bound."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                found.append(f"{node.name}: {lines} lines")
    return found


def test_the_package_has_modules_to_check():
    assert {"gateway.py", "retry.py", "errors.py"} <= {m.name for m in MODULES}


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_module_is_over_the_bound(module: Path):
    lines = len(module.read_text().splitlines())
    assert lines <= MAX_MODULE_LINES, f"{module.name} has {lines} lines"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_function_is_over_the_bound(module: Path):
    assert long_functions(module.read_text()) == []


def test_the_check_finds_a_long_function_and_counts_from_the_def_line():
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 1))
    assert long_functions(f"def fits():\n{body}") == []
    assert long_functions(f"async def long():\n{body}    return 0\n") == [
        f"long: {MAX_FUNCTION_LINES + 1} lines"]
