"""What the code cites is in the repository: every docs page named in the code and the
docs exists, no file sends a reader to the specification outside the repository (the
rules as built are docs/protocols.md), and every section of docs/protocols.md that is
cited by number has a heading with that number."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOCOLS = "docs/" + "protocols.md"

# A docs page by its repository path: docs/engine.md, docs/protocols.md.
_DOCS_PAGE = re.compile(r"(?<![\w./-])docs/[\w-]+(?:/[\w-]+)*\.md")
# The spec's own names and places, built from parts so this file does not match itself:
# a protocols page that is not docs/'s, the report example, the shared folder.
_OUTSIDE = re.compile(
    r"(?<![\w/.-])" + r"protocols\.md"
    + r"|report-example\.md"
    + r"|\.\./" + r"shared"
    + r"|/work/" + r"shared"
    + r"|(?<![\w-])" + r"spec/(?:protocols|architecture|report-example)"
)
# "docs/protocols.md 1.6", "docs/protocols.md 1.4-1.7", "docs/protocols.md 1.4 and 1.6".
_NUMBER = r"\d+(?:\.\d+)?"
_SECTION_CITE = re.compile(
    re.escape(PROTOCOLS) + rf"\s+({_NUMBER})(?:\s*(?:-|–|and)\s*({_NUMBER}))?")
_HEADING = re.compile(rf"^#+\s+({_NUMBER})\b", re.M)


def _files(*patterns: str) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    return [ROOT / name for name in listed if (ROOT / name).is_file()]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _where(pattern: re.Pattern[str], files: list[Path]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in files:
        for match in pattern.finditer(_read(path)):
            found.setdefault(match.group(0), []).append(str(path.relative_to(ROOT)))
    return found


def test_every_docs_page_named_in_code_and_docs_exists():
    files = _files("*.py", "*.html", "*.md", "*.toml")
    cited = _where(_DOCS_PAGE, files)
    missing = {page: where for page, where in cited.items() if not (ROOT / page).is_file()}
    assert missing == {}


def test_nothing_cites_the_specification_outside_the_repository():
    files = [p for p in _files("*.py", "*.html", "*.md", "*.toml", "*.txt", "Makefile")
             if p != Path(__file__).resolve()]
    assert _where(_OUTSIDE, files) == {}


def test_every_cited_protocols_section_has_its_heading():
    headings = set(_HEADING.findall(_read(ROOT / PROTOCOLS)))
    cited: dict[str, list[str]] = {}
    for path in _files("*.py", "*.html", "*.md", "*.toml"):
        for match in _SECTION_CITE.finditer(_read(path)):
            for number in filter(None, match.groups()):
                cited.setdefault(number, []).append(str(path.relative_to(ROOT)))
    assert cited, "no section of docs/protocols.md is cited: is the pattern still right?"
    assert {n: where for n, where in cited.items() if n not in headings} == {}


def _cited_numbers(text: str) -> tuple[str | None, ...]:
    match = _SECTION_CITE.search(text)
    return match.groups() if match else ()


def test_the_patterns_read_citations_as_they_are_written():
    assert _cited_numbers(PROTOCOLS + " 1.4-1.7") == ("1.4", "1.7")
    assert _cited_numbers(PROTOCOLS + " 1.4 and 1.6") == ("1.4", "1.6")
    assert _cited_numbers(PROTOCOLS + ",\n  1.8") == ()
    assert _cited_numbers(PROTOCOLS + "\n  1.8") == ("1.8", None)
    assert _OUTSIDE.search("(" + "protocols.md 1.6)")
    assert not _OUTSIDE.search("(" + PROTOCOLS + " 1.6)")
    assert not _OUTSIDE.search("[docs](./" + "protocols.md)")
    assert _HEADING.findall("## 1.6 Convergence\n## 2 Adversarial") == ["1.6", "2"]
