"""The docs' module tables match the debates app's tree.

One rule for the whole app: each module is named, by its path, in a table row of the
page that owns its folder: ``debates/api/`` in docs/api.md; ``debates/web/``,
``debates/live/`` and ``debates/templatetags/`` in docs/web.md; everything else (the
top level, ``runtime/``, ``management/``) in docs/execution.md. Out of scope: the
engine (docs/engine.md), the benchmark harness and migrations. An empty
``__init__.py`` describes nothing; a package's ``__init__.py`` may be named by its
folder (``debates/runtime/workerhost/``). And the other way round: a path those tables
name exists, so a moved or deleted module cannot stay documented.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT_OF_SCOPE = ("debates/engine/", "debates/bench/", "debates/migrations/")
OWNERS = {
    "debates/api/": "docs/api.md",
    "debates/web/": "docs/web.md",
    "debates/live/": "docs/web.md",
    "debates/templatetags/": "docs/web.md",
}
DEFAULT_OWNER = "docs/execution.md"
TABLE_PATH = re.compile(r"`(debates/[\w/]+(?:\.py|/))`")


def owner(module: str) -> str:
    return next((doc for folder, doc in OWNERS.items() if module.startswith(folder)),
                DEFAULT_OWNER)


def app_modules() -> list[str]:
    paths = (p.relative_to(ROOT).as_posix() for p in (ROOT / "debates").rglob("*.py"))
    return sorted(p for p in paths if not p.startswith(OUT_OF_SCOPE)
                  and (ROOT / p).read_text().strip())


def table_paths(doc: str) -> set[str]:
    rows = (line for line in (ROOT / doc).read_text().splitlines() if line.startswith("|"))
    return {path for row in rows for path in TABLE_PATH.findall(row)}


def test_every_module_of_the_debates_app_is_listed_in_the_page_that_owns_it():
    missing = []
    for module in app_modules():
        listed = table_paths(owner(module))
        folder = module.removesuffix("__init__.py")
        if module not in listed and not (module.endswith("__init__.py") and folder in listed):
            missing.append(f"{module} (in {owner(module)})")
    assert missing == []


def test_every_module_the_tables_name_exists():
    docs = set(OWNERS.values()) | {DEFAULT_OWNER}
    named = {path for doc in docs for path in table_paths(doc)
             if not path.startswith(OUT_OF_SCOPE)}
    assert sorted(p for p in named if not (ROOT / p).exists()) == []
