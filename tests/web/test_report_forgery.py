"""Agent names and agent text cannot forge a report's structure on any renderer.

A name such as ``Eve | low | open: fake`` must stay inside its table cell (not rewrite
a risk's severity and follow-up), and text with blank lines and ``## Recommended path``
must stay one paragraph or list item (not add a second heading). Checked on the page,
the print view, the Markdown export (rendered, as a Markdown viewer would), and the
JSON export, which keeps every string exactly as the agents wrote it. The Markdown
export of every protocol carries no HTML, link or image from the question or the
model's text, even for a viewer that renders raw HTML.
"""

from __future__ import annotations

import json
from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest
from markdown_it import MarkdownIt

from debates.engine.i18n import translator
from debates.engine.protocols.council.report import render_markdown
from debates.engine.protocols.council.schemas import DebateResult, RecommendedPath
from debates.models import Debate, Synthesis
from tests.web.htmltools import elements, text_of

FORGED_NAME = "Eve | low | open: fake"
FORGED_TEXT = "fine so far\n\n## Recommended path\n\nDo the opposite.\n\n| a | b |\n|---|---|"
HTML_TEXT = "<b>bold</b> <script>alert(1)</script>"
LIST_TEXT = "1. first\n- second\n> quoted\n---"


class _Structure(HTMLParser):
    """Headings' texts and table rows' cell texts of an HTML page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self.rows: list[list[str]] = []
        self.tags: list[str] = []
        self._heading: list[str] | None = None
        self._level = 0
        self._cell: list[str] | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading, self._level = [], int(tag[1])
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag.startswith("h") and tag[1:].isdigit() and self._heading is not None:
            self.headings.append((self._level, " ".join("".join(self._heading).split())))
            self._heading = None
        elif tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        for sink in (self._heading, self._cell):
            if sink is not None:
                sink.append(data)


@pytest.fixture
def forged(finished: Debate) -> tuple[Debate, DebateResult]:
    """A finished debate whose stored result carries the forging names and texts."""
    result = DebateResult.model_validate(finished.synthesis.result)
    assert result.pre_positional_risks and result.disagreements
    # The seeded run may end split (no recommendation): give it one to forge.
    base_path = result.recommended_path or RecommendedPath(
        stakes="s", strongest_evidence="e", weakest_evidence="w", recommendation="r")
    risks = [r.model_copy(update={"raised_by": [FORGED_NAME, *r.raised_by]})
             for r in result.pre_positional_risks]
    topic = result.disagreements[0]
    views = [v.model_copy(update={"agent": FORGED_NAME, "view": FORGED_TEXT})
             for v in topic.views]
    path = base_path.model_copy(update={
        "stakes": FORGED_TEXT, "risks": [LIST_TEXT, HTML_TEXT]})
    result = result.model_copy(update={
        "pre_positional_risks": risks, "recommended_path": path,
        "disagreements": [topic.model_copy(update={"views": views}),
                          *result.disagreements[1:]],
        "consensus_points": [FORGED_TEXT, LIST_TEXT, HTML_TEXT],
    })
    Synthesis.objects.filter(debate=finished).update(result=result.model_dump(mode="json"))
    return finished, result


def _risk_rows(structure: _Structure, result: DebateResult) -> list[list[str]]:
    texts = {" ".join(r.text.split()) for r in result.pre_positional_risks}
    return [row for row in structure.rows if any(text in " ".join(row) for text in texts)]


def _assert_structure_holds(html: str, result: DebateResult, where: str,
                            risk_columns: int, own_levels: int = 6) -> None:
    """``own_levels``: the deepest heading level of the page's own structure. The page
    renders agent text as Markdown with headings shifted below that level (rendering.py),
    so only headings at the page's own levels could pass for its sections."""
    structure = _Structure(html)
    headings = [h for level, h in structure.headings
                if level <= own_levels and h.startswith("Recommended path")]
    assert len(headings) == 1, (where, structure.headings)
    assert "<script>alert" not in html, where
    rows = _risk_rows(structure, result)
    assert len(rows) == len(result.pre_positional_risks), where
    for row, risk in zip(rows, result.pre_positional_risks, strict=True):
        assert len(row) == risk_columns, (where, row)
        assert any(FORGED_NAME in cell for cell in row), (where, row)
        severity = risk.severity.value if risk.severity else "–"
        assert row[-2] == severity, (where, row)  # not "low", forged by the name


def test_markdown_export_keeps_one_cell_per_column_and_one_recommended_path_heading(
        member_client, forged):
    debate, result = forged
    text = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert text == render_markdown(result)
    assert sum(line.startswith("## Recommended path") for line in text.splitlines()) == 1
    assert "<script>" not in text.replace("\\<", "")  # only Markdown's escaped "\<"
    html = MarkdownIt("commonmark", {"html": True}).enable(["table"]).render(text)
    _assert_structure_holds(html, result, "export.md rendered", risk_columns=4)


def test_markdown_items_stay_on_one_line_whatever_the_text_starts_with(forged):
    _, result = forged
    lines = render_markdown(result).splitlines()
    heading = f"## {translator(result.language)('consensus')}"
    consensus = lines[lines.index(heading) + 2:][:3]
    assert all(line.startswith("- ") for line in consensus), consensus
    html = MarkdownIt("commonmark", {"html": True}).render("\n".join(consensus))
    structure = _Structure(html)
    assert structure.headings == [] and "blockquote" not in structure.tags
    assert structure.tags.count("li") == 3 and "ol" not in structure.tags


def test_print_view_keeps_the_report_structure(member_client, forged):
    debate, result = forged
    html = member_client.get(f"/debates/{debate.code}/print").content.decode()
    _assert_structure_holds(html, result, "print", risk_columns=4)


def test_synthesis_page_keeps_the_report_structure(member_client, forged):
    debate, result = forged
    html = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    _assert_structure_holds(html, result, "synthesis page", risk_columns=5, own_levels=3)


def test_json_export_keeps_the_texts_unchanged(member_client, forged):
    debate, result = forged
    data = json.loads(member_client.get(f"/debates/{debate.code}/export.json").content)
    assert data["pre_positional_risks"][0]["raised_by"][0] == FORGED_NAME
    assert data["disagreements"][0]["views"][0] == {"agent": FORGED_NAME, "view": FORGED_TEXT}
    assert data["recommended_path"]["stakes"] == FORGED_TEXT
    assert data["consensus_points"] == [FORGED_TEXT, LIST_TEXT, HTML_TEXT]


MARKUP = ("<img src=x onerror=alert(1)> [link](javascript:alert(1)) "
          "![image](javascript:alert(2)) <https://evil.example> a | b")
BLOCKS = "\n\n# Forged heading\n\n---\n- forged item\n> quoted\n\n| a | b |\n|---|---|"
# Elements that only the report itself may add; the counts must not change.
STRUCTURE = ("h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "tr", "td", "th", "ul", "ol",
             "li", "blockquote", "pre", "a", "img", "script")


# Not text from the question or a model: the adversarial round's status line (engine
# numbers and words, shown in a code block) and the workflow's convergence basis (a code).
ENGINE_WORDS = frozenset({"status_line", "basis"})


def _forging(value: Any) -> Any:
    """Every prose string (the question, the model's text; not ids or short codes) with
    markup and block structure appended."""
    if isinstance(value, dict):
        return {k: v if k in ENGINE_WORDS else _forging(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_forging(v) for v in value]
    if isinstance(value, str) and len(value) > 20:
        return f"{value} {MARKUP}{BLOCKS}"
    return value


def _rendered(markdown: str) -> str:
    """The export as a Markdown viewer that renders raw HTML shows it (the site's own
    renderer has HTML off, which can only show less)."""
    return MarkdownIt("commonmark", {"html": True}).enable(["table"]).render(markdown)


def _structure(html: str) -> Counter[str]:
    return Counter(el.tag for el in elements(html) if el.tag in STRUCTURE)


@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_no_protocols_markdown_export_carries_markup_from_the_question_or_the_model(
        member_client, make_debate, protocol):
    debate = make_debate(question="Should we ship the new billing page this week?",
                         protocol=protocol)
    assert debate.status == "succeeded", debate.error
    url = f"/debates/{debate.code}/export.md"
    clean = member_client.get(url).content.decode()
    synthesis = Synthesis.objects.get(debate=debate)
    synthesis.result = _forging(synthesis.result)
    synthesis.save(update_fields=["result"])
    assert MARKUP in synthesis.result["question"]

    forged = member_client.get(url).content.decode()
    assert "onerror=alert(1)" in forged  # the text is there, but not as markup:
    for raw in ("<img", "<https:", "[link](", "![image]("):
        assert raw not in forged.replace("\\<", ""), raw  # "\<" is Markdown's escaped "<"
    html = _rendered(forged)
    assert _structure(html) == _structure(_rendered(clean))
    shown = text_of(html)
    assert "<img src=x onerror=alert(1)> [link](javascript:alert(1))" in shown
    for cell in (el for el in elements(html) if el.tag == "td"):
        if "onerror" in (inner := text_of(html[cell.start:cell.end])):
            assert "a | b" in inner  # the pipe did not start a column
