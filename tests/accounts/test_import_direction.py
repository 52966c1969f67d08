"""The layers run accounts <- debates <- {personas, collab}: accounts (teams, members,
limit settings, API tokens) must not import the apps and toolkits built on it, not even
inside a function or under TYPE_CHECKING, or the cycle debates <-> accounts comes back."""

from __future__ import annotations

import ast
from pathlib import Path

import accounts

ACCOUNTS = Path(accounts.__file__).resolve().parent
# Everything but view_kit (the request types its views annotate with) sits above it.
ABOVE = {"debates", "personas", "collab", "decisions", "notifications", "integrations",
         "api_kit", "site_edge", "council_site", "bench"}


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def test_accounts_imports_nothing_from_the_apps_above_it():
    files = sorted(ACCOUNTS.rglob("*.py"))
    assert len(files) > 5  # the package really was found
    wrong = [f"{path.relative_to(ACCOUNTS.parent)}:{line}: {module}"
             for path in files for line, module in _imports(path)
             if module.split(".")[0] in ABOVE]
    assert wrong == [], "accounts imports an app above it:\n" + "\n".join(wrong)


def test_the_check_sees_imports_in_functions_and_type_checking_blocks(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from debates.models import Debate\n"
                      "def f():\n    import collab.models\n")
    assert [m for _, m in _imports(sample)] == ["typing", "debates.models", "collab.models"]
