"""What every uploaded file's text must pass before a parser builds it or a database
stores it (docs/engine.md, "Uploaded text"): the one place the persona files, the
evaluation sets and the sources check it.

- No NUL character: PostgreSQL text cannot hold one (the INSERT raises DataError), and
  no document means one. Written literally or escaped (JSON ``\\u0000``, YAML ``"\\0"``).
- No lone surrogate: half of a UTF-16 pair (``\\ud800`` without its partner) is not a
  character; no database can encode it and no page or CSV export can print it.
- Nesting at most ``MAX_NESTING`` levels: the parsers recurse once per level (100,000
  ``[`` exhaust the stack), and PyYAML's scanner slows down with every open level (a
  200 KB bomb took 14-17 s), so the depth is measured before any full parse.
- For YAML, at most ``MAX_YAML_NODES`` nodes with every alias counted as what it
  repeats, so a "billion laughs" file is refused before anything walks it.

Each check answers the first ``TextProblem`` with its line (1 for the first), or None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

# Our formats nest three levels (a persona file's {"personas": [{"name": ...}]}); past
# this, nesting is a bomb, not a file.
MAX_NESTING = 32
# A persona library at the 1,000,000-character limit holds about 60,000 nodes.
MAX_YAML_NODES = 200_000

_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")
# A JSON \u escape not itself escaped (an even run of backslashes before it), and the
# low half that may follow a high one.
_JSON_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u([0-9a-fA-F]{4})"
                          r"(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?")
# A JSON string (skipped: its brackets do not nest) or a bracket.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


@dataclass(frozen=True)
class TextProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def _line_at(text: str, index: int, first_line: int) -> int:
    return first_line + text.count("\n", 0, index)


def _character_message(code: int) -> str:
    if code == 0:
        return "a NUL character (U+0000) is not text"
    return f"U+{code:04X} is half of a UTF-16 pair (a lone surrogate), not a character"


def _nesting_message() -> str:
    return f"nested too deeply (more than {MAX_NESTING} levels)"


def character_problem(text: str, *, first_line: int = 1) -> TextProblem | None:
    """A NUL or a lone surrogate written as itself."""
    found = _BAD_CHARACTER.search(text)
    if found is None:
        return None
    return TextProblem(_line_at(text, found.start(), first_line),
                       _character_message(ord(found.group())))


def _json_escape_problem(text: str, first_line: int) -> TextProblem | None:
    if "\\u" not in text and "\\U" not in text:
        return None
    for found in _JSON_ESCAPE.finditer(text):
        code = int(found.group(1), 16)
        pair = found.group(2) is not None
        if code == 0:
            bad = 0
        elif 0xD800 <= code <= 0xDBFF and not pair:
            bad = code
        elif 0xDC00 <= code <= 0xDFFF or (pair and not 0xD800 <= code <= 0xDBFF):
            bad = code if 0xDC00 <= code <= 0xDFFF else int(found.group(2), 16)
        else:
            continue
        return TextProblem(_line_at(text, found.start(), first_line), _character_message(bad))
    return None


def _json_nesting_problem(text: str, first_line: int) -> TextProblem | None:
    if text.count("[") + text.count("{") <= MAX_NESTING:  # the common case: nothing to scan
        return None
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return TextProblem(_line_at(text, token.start(), first_line), _nesting_message())
        elif mark in "]}":
            depth = max(0, depth - 1)
    return None


def json_problem(text: str, *, first_line: int = 1) -> TextProblem | None:
    """What JSON text (a document, or one JSON Lines line at ``first_line``) holds that
    no upload may: a NUL or lone surrogate, literal or escaped, or too deep a nesting.
    A regular-expression scan, so it runs before ``json.loads`` could recurse."""
    return (character_problem(text, first_line=first_line)
            or _json_escape_problem(text, first_line)
            or _json_nesting_problem(text, first_line))


class _YamlRefusal(Exception):
    def __init__(self, problem: TextProblem) -> None:
        self.problem = problem


class _YamlCount:
    """Depth and node count over YAML's event stream. An anchored node's size is the
    count it added; an alias adds that size again, as the built document repeats it."""

    def __init__(self) -> None:
        self.open: list[tuple[str | None, int]] = []  # (anchor, count at its start)
        self.sizes: dict[str, int] = {}
        self.nodes = 0

    def _count(self, size: int, line: int) -> None:
        self.nodes += size
        if self.nodes > MAX_YAML_NODES:
            raise _YamlRefusal(TextProblem(line, f"more than {MAX_YAML_NODES:,} values "
                                                 "(an alias counts as what it repeats)"))

    def event(self, event: yaml.Event) -> None:
        line = event.start_mark.line + 1 if event.start_mark else 1
        if isinstance(event, yaml.CollectionStartEvent):
            self.open.append((event.anchor, self.nodes))
            if len(self.open) > MAX_NESTING:
                raise _YamlRefusal(TextProblem(line, _nesting_message()))
            self._count(1, line)
        elif isinstance(event, yaml.CollectionEndEvent) and self.open:
            anchor, start = self.open.pop()
            if anchor:
                self.sizes[anchor] = self.nodes - start
        elif isinstance(event, yaml.ScalarEvent):
            if problem := character_problem(event.value):
                raise _YamlRefusal(TextProblem(line, problem.message))
            if event.anchor:
                self.sizes[event.anchor] = 1
            self._count(1, line)
        elif isinstance(event, yaml.AliasEvent):
            self._count(self.sizes.get(event.anchor or "", 1), line)


def _scan_yaml(text: str, loader: type) -> TextProblem | None:
    count = _YamlCount()
    try:
        for event in yaml.parse(text, Loader=loader):
            count.event(event)
    except _YamlRefusal as refusal:
        return refusal.problem
    return None


def yaml_problem(text: str) -> TextProblem | None:
    """What YAML text holds that no upload may, from its event stream (no document is
    built): a NUL or lone surrogate, literal or escaped, too deep a nesting, or too many
    nodes. libyaml's parser when it is installed (a bomb costs milliseconds), else PyYAML's.

    A stream either parser cannot read is left to the full parse, which says where."""
    if problem := character_problem(text):
        return problem
    fast = getattr(yaml, "CSafeLoader", None)
    for loader in (fast, yaml.SafeLoader):
        if loader is None:
            continue
        try:
            return _scan_yaml(text, loader)
        except yaml.YAMLError as exc:
            if "maximum nesting depth" in str(exc):  # libyaml's own limit, past ours
                mark = getattr(exc, "problem_mark", None)
                return TextProblem(mark.line + 1 if mark else 1, _nesting_message())
    return None


def printable(text: str) -> str:
    """Stored text made safe to encode (an export, a page): NULs dropped and lone
    surrogates shown as U+FFFD. Text checked on upload is returned unchanged."""
    if _BAD_CHARACTER.search(text) is None:
        return text
    return _BAD_CHARACTER.sub(lambda m: "" if m.group() == "\x00" else "\ufffd", text)
