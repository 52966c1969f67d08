"""Small HTML helpers for the web tests, on the standard library's parser (what a
browser would treat as live markup, not what the source text happens to contain)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    start: int
    end: int = -1
    depth: int = 0


class _Parser(HTMLParser):
    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.line_starts = [0]
        for i, ch in enumerate(source):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.elements: list[Element] = []
        self.stack: list[Element] = []
        self.scripts: list[str] = []
        self._in_script = False

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        el = Element(tag, dict(attrs), start, depth=len(self.stack))
        self.elements.append(el)
        if tag == "script":
            self._in_script = True
        if tag in VOID:
            el.end = start + len(self.get_starttag_text() or "")
        else:
            self.stack.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        self.elements.append(Element(tag, dict(attrs), start,
                                     start + len(self.get_starttag_text() or ""),
                                     depth=len(self.stack)))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                end = self.source.index(">", self._offset()) + 1
                for el in self.stack[i:]:
                    el.end = end
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def text_of(html: str) -> str:
    """The text a reader sees (tags dropped, entities decoded), whitespace collapsed."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return " ".join("".join(parser.parts).split())


def parse(html: str) -> _Parser:
    parser = _Parser(html)
    parser.feed(html)
    parser.close()
    return parser


def elements(html: str) -> list[Element]:
    return parse(html).elements


def id_counts(html: str) -> Counter[str]:
    return Counter(el.attrs["id"] or "" for el in elements(html) if "id" in el.attrs)


def outer_html(html: str, element_id: str) -> str:
    for el in elements(html):
        if el.attrs.get("id") == element_id:
            return html[el.start:el.end]
    raise KeyError(element_id)


def top_level(html: str) -> list[Element]:
    return [el for el in elements(html) if el.depth == 0]


def live_markup_problems(html: str, marker: str) -> list[str]:
    """Markup a browser (or htmx) would act on that carries ``marker``, the tag the
    hostile test payloads put in every value: elements, attributes or script text.
    Also any event-handler attribute at all (our templates use none)."""
    problems = []
    parser = parse(html)
    for el in parser.elements:
        for name, value in el.attrs.items():
            if name.startswith("on"):
                problems.append(f"{name}= on <{el.tag}>")
            if marker in name or (value and marker in value):
                problems.append(f"{name}={value!r} on <{el.tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                problems.append(f"javascript: URL in {name} on <{el.tag}>")
        if marker in el.tag:
            problems.append(f"<{el.tag}> element")
    problems += [f"script text {text[:60]!r}" for text in parser.scripts if marker in text]
    return problems


def _inner(html: str, el: Element) -> str:
    open_end = html.index(">", el.start) + 1
    close_start = html.rindex("</", el.start, el.end)
    return html[open_end:close_start]


def apply_oob(page: str, batch: str) -> str:
    """What htmx's ws extension does with a message: every top-level element is an
    out-of-band swap, ``true`` replacing the element with its id, ``beforeend``
    appending its children to it."""
    for item in top_level(batch):
        style = item.attrs.get("hx-swap-oob")
        target_id = item.attrs.get("id")
        assert style and target_id, f"not an out-of-band fragment: <{item.tag} {item.attrs}>"
        source = batch[item.start:item.end]
        target = next(el for el in elements(page) if el.attrs.get("id") == target_id)
        if style == "true":
            replacement = source.replace(f' hx-swap-oob="{style}"', "", 1)
            page = page[:target.start] + replacement + page[target.end:]
        elif style == "beforeend":
            close_start = page.rindex("</", target.start, target.end)
            page = page[:close_start] + _inner(batch, item) + page[close_start:]
        else:
            raise AssertionError(f"unexpected swap style {style}")
    return page
