"""docs/engine.md's module table matches the engine's tree: every module and package
under debates/engine is listed, and every path listed exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
ENGINE = ROOT / "debates" / "engine"


def _table_paths() -> set[str]:
    text = (ROOT / "docs" / "engine.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    return {p for row in rows for p in re.findall(r"`([\w./]+(?:\.py|/))`", row.split(" | ")[0])}


def _tree() -> set[str]:
    paths = set()
    for module in ENGINE.rglob("*.py"):
        relative = module.relative_to(ENGINE)
        if module.name == "__init__.py" and relative.parent != Path("."):
            paths.add(f"{relative.parent.as_posix()}/")  # a package is listed as its folder
        else:
            paths.add(relative.as_posix())
    return paths


def test_every_engine_module_is_in_the_module_table():
    assert sorted(_tree() - _table_paths()) == []


def test_every_path_in_the_module_table_exists():
    assert sorted(p for p in _table_paths() if not (ENGINE / p).exists()) == []
