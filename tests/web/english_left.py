"""What English a page rendered in Japanese or Chinese still shows (issue 41, item 4):
each visible text and each attribute a person reads with a Latin word of three letters
or more, once the identifiers every language writes the same (file formats, the brand,
model names) and the page's user content are taken out. Used by the page-language tests
of every area; French is checked through the catalogues' keys instead (it shares the
alphabet)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import unescape

# Written the same in every language: the product, formats and the programs that write
# them, protocols of the web.
IDENTIFIERS = frozenset({
    "Council", "JSON", "JSONL", "CSV", "Markdown", "PDF", "XLSX", "DOCX", "YAML", "HTML",
    "Word", "Excel", "OCR",
    "API", "MCP", "URL", "HTTP", "HTTPS", "SSE", "UTC", "Slack", "Webhook", "webhook",
    "Standard Webhooks", "OpenAI", "litellm", "sim/default", "UUID", "sha256", "SHA-256",
    "v1", "v2", "v3", "v4", "v5", "token", "ID",
})
ATTRIBUTES = ("title", "aria-label", "placeholder", "hx-confirm", "data-confirm", "alt")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
# A URL, an e-mail address, a path or a file name is data, whatever its letters.
DATA_TOKEN = re.compile(r"\S*(?:://|@|/|\.[A-Za-z]{2,4}\b)\S*")


def texts_in(value: object) -> set[str]:
    """Every string inside a stored JSON value (a turn's payload, a result), whitespace
    folded: what the model wrote, user content to a page-language test."""
    if isinstance(value, str):
        return {" ".join(value.split())} - {""}
    items = value.values() if isinstance(value, dict) else \
        value if isinstance(value, list) else ()
    return {text for item in items for text in texts_in(item)}


def main_part(html: str) -> str:
    """The page's ``<main>`` (the shared header and navigation are another test's), or
    the whole of a fragment that has none."""
    found = re.search(r"<main\b.*?</main>", html, re.S)
    return found.group(0) if found else html


def visible_texts(html: str) -> list[str]:
    """Each text node and each read attribute of ``html``, whitespace folded."""
    html = re.sub(r"<(script|style|code|pre|kbd|samp)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    texts = [unescape(" ".join(t.split())) for t in re.findall(r">([^<>]+)<", html)]
    for name in ATTRIBUTES:
        texts += [unescape(v) for v in re.findall(rf'\s{name}="([^"]*)"', html)]
    return [t for t in texts if t]


def english_left(html: str, allowed: Iterable[str] = ()) -> list[str]:
    """The texts of ``html`` that still hold an English word, ``allowed`` (the page's
    user content: names, questions, file names the test created) and the identifiers
    taken out first, longest first so a phrase goes before its words."""
    removable = sorted({*IDENTIFIERS, *(a for a in allowed if a)}, key=len, reverse=True)
    found = []
    for text in visible_texts(html):
        rest = DATA_TOKEN.sub(" ", text)
        for item in removable:
            rest = rest.replace(item, " ")
        if LATIN_WORD.search(rest):
            found.append(text)
    return sorted(set(found))
