"""The one rendering path for untrusted text: LLM output, persona text, comments.

Markdown is rendered with raw HTML off, then the result is sanitised with nh3 to a
small allow-list. Both layers matter: markdown-it escapes any HTML the text
contains, and nh3 removes whatever a Markdown construct could still smuggle in
(``javascript:`` links, attributes). Attributes htmx acts on (``hx-*``, ``ws-*``,
``data-*``) and ``id`` never survive, because a fragment swapped into a live page
is processed by htmx and an ``id`` could hijack an out-of-band swap target.

``render_untrusted`` holds the only ``mark_safe`` in the code base.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from html import escape

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

ALLOWED_TAGS = frozenset({
    "p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a",
    "h3", "h4", "h5", "h6", "hr", "del",
    "table", "thead", "tbody", "tr", "th", "td",
})
# Only these attributes survive; everything else (id, class, style, on*, hx-*,
# data-*, ws-*) is dropped by nh3 because it is not listed.
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    "*": set(),  # no generic attributes, not even nh3's default title/lang
    "a": {"href"}, "ol": {"start"}, "th": {"align"}, "td": {"align"},
}
URL_SCHEMES = frozenset({"http", "https", "mailto"})
LINK_REL = "noopener noreferrer nofollow"
# Content of these is dropped with the tag: never text a reader should see.
DROP_WITH_CONTENT = frozenset({"script", "style", "template", "iframe", "object", "noscript"})

# Untrusted headings sit inside our own page structure; shifting them down keeps an
# LLM's "# Title" from outranking the page's own headings.
HEADING_SHIFT = 2

MAX_CHARS = 200_000


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(
        ["table", "strikethrough"]
    )


def _to_html(text: str, inline: bool) -> str:
    md = _markdown()
    env: dict[str, object] = {}
    if inline:
        # Emphasis, code and links only: no paragraphs, lists or headings, so the
        # text sits inside a list item, table cell or sentence of the page.
        return md.renderInline(" ".join(text.split()), env)
    tokens = md.parse(text, env)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            level = min(6, int(token.tag[1]) + HEADING_SHIFT)
            token.tag = f"h{level}"
    return md.renderer.render(tokens, md.options, env)


def sanitize(html: str) -> str:
    """nh3 with the allow-list above; links get ``rel=noopener noreferrer nofollow``."""
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(DROP_WITH_CONTENT),
        attributes={tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel=LINK_REL,
        strip_comments=True,
        url_relative="deny",
    )


# A tag of sanitised HTML (attribute values quoted, so a ">" inside one does not end it).
_TAG = re.compile(r"""(<(?:[^>"']|"[^"]*"|'[^']*')*>)""")
# What a Django username may hold; nothing HTML would read as markup.
_USERNAME = re.compile(r"[\w.@+-]+")


def _mark_mentions(html: str, names: Iterable[str]) -> str:
    """Each ``@name`` in the text (not inside a tag) wrapped in ``<span
    class="mention">``; ``names`` are the users the comment really mentions."""
    known = sorted({n for n in names if _USERNAME.fullmatch(n)}, key=len, reverse=True)
    if not known:
        return html
    mention = re.compile(r"(?<![\w.@+-])@(" + "|".join(map(re.escape, known))
                         + r")(?![\w@+-]|\.\w)")
    return "".join(part if _TAG.fullmatch(part)
                   else mention.sub(r'<span class="mention">@\1</span>', part)
                   for part in _TAG.split(html))


# A passage citation as an answer writes it, ``[S2.14]`` (debates/engine/sources/citations.py
# reads the same form; docs/engine.md, "Sources").
_PASSAGE_CITATION = re.compile(r"\[\s*(S([1-9][0-9]*)\.[1-9][0-9]*)\s*\]")
# Text inside these is left as written: a link holds no second link, code is code.
_NO_LINKS_IN = ("a", "code", "pre")
_OPENING = re.compile(r"<([a-z0-9]+)[\s>]")


def _link_citations(html: str, sources: Mapping[str, str]) -> str:
    """Each ``[S2.14]`` in the text of sanitised HTML whose source (``S2``) is one of
    ``sources`` (source id -> its page's URL) made a link to the passage's anchor on
    that page (``…/sources/S2#S2.14``). Runs after nh3: only the id, which the pattern
    limits to letters, digits and a dot, and our own URL go into the link."""
    if not sources:
        return html
    inside: list[str] = []
    out: list[str] = []

    def link(found: re.Match[str]) -> str:
        url = sources.get(f"S{found.group(2)}")
        if not url:
            return found.group(0)
        passage = found.group(1)
        return (f'<a class="cite" href="{escape(url)}#{passage}">'
                f'[{passage}]</a>')

    for part in _TAG.split(html):
        if _TAG.fullmatch(part):
            if part.startswith("</"):
                name = part[2:-1].strip().lower()
                if inside and inside[-1] == name:
                    inside.pop()
            elif (opening := _OPENING.match(part.lower())) and opening.group(1) in _NO_LINKS_IN:
                inside.append(opening.group(1))
            out.append(part)
        else:
            out.append(part if inside else _PASSAGE_CITATION.sub(link, part))
    return "".join(out)


def render_untrusted(text: object, *, inline: bool = False,
                     mentions: Iterable[str] = (),
                     sources: Mapping[str, str] | None = None) -> SafeString:
    """Markdown (raw HTML off) -> sanitised HTML, safe to put in any page or fragment.
    ``inline`` renders one line of inline Markdown, without block elements;
    ``mentions`` are usernames to highlight where the text says @username;
    ``sources`` (source id -> the debate's page of it) makes each passage citation
    ``[S2.14]`` a link to its passage."""
    if text is None:
        text = ""
    source = str(text)[:MAX_CHARS]
    html = _link_citations(sanitize(_to_html(source, inline)), sources or {})
    # The only mark_safe: nh3 has just reduced the HTML to the allow-list (plus, for
    # mentions, spans around validated usernames; for citations, links built from a
    # validated passage id and our own URL).
    return mark_safe(_mark_mentions(html, mentions))  # noqa: S308
