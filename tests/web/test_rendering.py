"""The one rendering path for untrusted text: Markdown without raw HTML, sanitised."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils.safestring import SafeString

from tests.web.htmltools import elements
from view_kit.rendering import render_untrusted

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    '<a href="#" onclick="alert(1)">x</a>',
    "<svg onload=alert(1)>",
    '<div hx-get="/debates/" hx-trigger="load">x</div>',
    '<p id="debate-stepper" class="x" style="color:red" data-x="1">x</p>',
    "<iframe src='https://example.com'></iframe>",
])
def test_raw_html_in_untrusted_text_is_shown_as_text(text):
    html = str(render_untrusted(text))
    assert "&lt;" in html  # shown, escaped
    for el in elements(html):  # and nothing but plain paragraphs is live
        assert el.tag == "p" and el.attrs == {}, (el.tag, el.attrs)


def test_markdown_formatting_survives():
    html = str(render_untrusted("**bold** _it_ `code`\n\n- one\n- two\n\n> quoted"))
    assert "<strong>bold</strong>" in html and "<em>it</em>" in html
    assert "<code>code</code>" in html and "<li>one</li>" in html and "<blockquote>" in html


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JaVaScRiPt:alert(1)",
                                 "data:text/html,<script>alert(1)</script>", "vbscript:x",
                                 "/relative/path"])
def test_links_other_than_http_https_mailto_lose_their_href(url):
    html = str(render_untrusted(f"[click]({url})"))
    assert "href" not in html or url not in html
    assert "javascript:" not in html.lower().replace("[click](javascript:", "")


def test_http_links_get_rel_noopener_noreferrer_nofollow():
    html = str(render_untrusted("[docs](https://example.com/x) and [mail](mailto:a@b.c)"))
    assert 'href="https://example.com/x"' in html
    assert 'rel="noopener noreferrer nofollow"' in html
    assert 'href="mailto:a@b.c"' in html


def test_headings_are_shifted_below_the_page_headings():
    html = str(render_untrusted("# Title\n\n## Sub"))
    assert "<h3>Title</h3>" in html and "<h4>Sub</h4>" in html
    assert "<h1" not in html and "<h2" not in html


def test_tables_render():
    html = str(render_untrusted("| a | b |\n|---|---|\n| 1 | 2 |"))
    assert "<table>" in html and "<td>1</td>" in html


def test_result_is_a_safe_string_and_none_is_empty():
    assert isinstance(render_untrusted("x"), SafeString)
    assert str(render_untrusted(None)) == ""


def test_template_filter_uses_the_same_path():
    out = Template("{% load council %}{{ text|untrusted }}").render(
        Context({"text": "<script>x</script> **b**"}))
    assert "<script>" not in out and "<strong>b</strong>" in out


def _source_files() -> list[Path]:
    files = []
    for folder in ("council_site", "accounts", "view_kit", "site_edge", "api_kit", "debates",
                   "personas", "collab", "decisions", "templates"):
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".html")]
    return files


def test_render_untrusted_holds_the_only_mark_safe_in_the_code_base():
    offenders = []
    patterns = [re.compile(r"\bmark_safe\s*\("), re.compile(r"\bSafeString\s*\("),
                re.compile(r"\|\s*safe\b"), re.compile(r"{%\s*autoescape\s+off")]
    for path in _source_files():
        if "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in patterns:
            for match in pattern.finditer(text):
                offenders.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert offenders == ["view_kit/rendering.py: mark_safe("], offenders


CITE_SOURCES = {"S1": "/debates/d/sources/S1", "S2": "/debates/d/sources/S2?x=1&y=2"}


def test_passage_citations_become_links_to_their_passages():
    html = render_untrusted('Costs [S1.14] "4,200 USD" and [ S2.3 ] too; [S9.1] has no page',
                            sources=CITE_SOURCES)
    assert '<a class="cite" href="/debates/d/sources/S1#S1.14">[S1.14]</a>' in html
    assert '<a class="cite" href="/debates/d/sources/S2?x=1&amp;y=2#S2.3">[S2.3]</a>' in html
    assert "[S9.1]" in html and "S9#" not in html
    inline = render_untrusted("[S1.2] quoted", inline=True, sources=CITE_SOURCES)
    assert inline == '<a class="cite" href="/debates/d/sources/S1#S1.2">[S1.2]</a> quoted'


def test_citation_links_let_no_markup_of_the_text_through():
    hostile = ('[S1.2] "<script>alert(1)</script>" <img src=x onerror=alert(2)> '
               '[S1.3](javascript:alert(3)) `[S1.4]` [[S1.5]](https://evil.example)')
    html = render_untrusted(hostile, sources=CITE_SOURCES)
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html
    assert '<a class="cite" href="/debates/d/sources/S1#S1.2">[S1.2]</a>' in html
    # Inside code, or inside the text's own link, a citation stays as written.
    assert "<code>[S1.4]</code>" in html
    assert "S1#S1.4" not in html and "S1#S1.5" not in html
    assert 'href="https://evil.example"' in html  # the text's link, sanitised as before
    # Without sources, nothing is linked.
    assert 'class="cite"' not in render_untrusted("[S1.2] words")
