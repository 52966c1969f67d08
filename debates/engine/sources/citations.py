"""Citations of passages in an answer's text, and the check of each quote.

An agent cites a passage by its id in brackets and a short exact quote from it:
``[S2.14] "the words quoted" what follows from them``, anywhere in a text field (a list
item or a sentence), so stored turns stay plain strings that read as written. The
quote may stand in double or single quotation marks of any common kind (straight,
curly, guillemets, corner brackets). It is looked for in the passage with whitespace,
case and the kind of quotation marks and apostrophes set aside; a quote not found, or
an id that names no passage, is marked (docs/engine.md, "Sources"), in the reports too
(``mark_citations``).

What a small model makes instead is read too: a quote without an id is credited to the
passage that holds it (``loose_quotes``, ``holding_passage``), and a figure with its
unit or a run of five words copied from exactly one passage counts as that passage used
(``copied_from``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

_OPEN = "\"“„«「『"
_CLOSE = "\"”“»」』"
# Single marks too (a small model writes [S1.2] 'the words'): a single closing mark
# ends the quote only where no letter follows it, so an apostrophe inside the words
# quoted ("the team's skills") is no end.
_SINGLE_OPEN = "'‘‚‹"
_SINGLE_CLOSE = "'’‘›"
_ID = r"(S[1-9][0-9]*\.[1-9][0-9]*)"
_QUOTE = (r"\s*[:\-–—]?\s*"
          rf"(?:[{_OPEN}]([^{_CLOSE}\n]{{1,600}}?)[{_CLOSE}]"
          rf"|[{_SINGLE_OPEN}]([^\n]{{1,600}}?)[{_SINGLE_CLOSE}](?!\w))?")
_CITATION = re.compile(rf"\[\s*{_ID}\s*\]{_QUOTE}")
# The same in rendered Markdown, where the brackets are escaped (``markdown.inline``).
_RENDERED = re.compile(rf"\\?\[\s*{_ID}\s*\\?\]{_QUOTE}")
_ESCAPED = re.compile(r"\\(.)")
_SPACE = re.compile(r"\s+")
_FOLD = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'",
                       "’": "'", "「": '"', "」": '"', "『": '"', "』": '"',
                       "–": "-", "—": "-", "\u00a0": " "})
# What a quote may carry at its ends that the passage need not (an ellipsis, a stop).
_ENDS = " .,;:!?…-\"'。、"


@dataclass(frozen=True)
class PassageCitation:
    passage: str  # "S2.14"
    quote: str  # as written ("" when no quote followed the id)


def citations_in(text: str) -> list[PassageCitation]:
    """Every citation in ``text``, in order."""
    return [PassageCitation(m.group(1), (m.group(2) or m.group(3) or "").strip())
            for m in _CITATION.finditer(text)]


def normalised(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_FOLD).casefold()
    return _SPACE.sub(" ", folded).strip()


def quote_found(quote: str, passage_text: str) -> bool:
    """Whether ``quote`` is in the passage, whitespace, case, punctuation and quotation
    marks aside, up to one word in ``FUZZY_EVERY`` one letter apart (never a number:
    ``_tokens_found``).
    An empty quote is not found: a citation must show its words."""
    wanted = normalised(quote).strip(_ENDS)
    if not wanted:
        return False
    if wanted in normalised(passage_text):
        return True
    words = _tokens(quote)
    return bool(words) and _tokens_found(words, _tokens(passage_text))


def without_citations(text: str) -> str:
    """``text`` with its citations (id and quote) taken out: the claim they support."""
    return _SPACE.sub(" ", _CITATION.sub(" ", text)).strip()


def mark_citations(markdown: str, marker: Callable[[PassageCitation], str | None]) -> str:
    """``markdown`` (a rendered report: brackets may be escaped) with ``marker``'s words
    after every citation it has any for (a quote the passage does not hold)."""
    def sub(match: re.Match[str]) -> str:
        quote = _ESCAPED.sub(r"\1", match.group(2) or match.group(3) or "").strip()
        mark = marker(PassageCitation(match.group(1), quote))
        if not mark:
            return match.group(0)
        body = match.group(0)
        kept = body.rstrip()
        if markdown.startswith(mark, match.end()) or markdown.startswith(
                " " + mark, match.start() + len(kept)):
            return body  # marked already
        return f"{kept} {mark}{body[len(kept):]}"

    return _RENDERED.sub(sub, markdown)


# ----------------------------------------------------------------- quotes a small model makes
# A quote matched whatever its punctuation: the words and numbers of each side, in order.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
# Scripts written without spaces: a run of them is one token, matched as characters.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")
# A small edit tolerance: one word in FUZZY_EVERY (and one in any quote of four words or
# more) may differ by one letter (a typo, a British or American spelling), never a
# number and never a word under four letters.
FUZZY_EVERY = 6
# A quote without a passage id is credited to the passage that holds it when it has at
# least this many words (or twice as many characters of a script without spaces): a
# word or two in quotation marks is a term, not a quote.
LOOSE_QUOTE_WORDS = 4
# A run of this many words shared with exactly one passage, outside any quote, is that
# passage used (docs/engine.md, "Sources"); a figure with its unit needs one.
COPIED_RUN_WORDS = 5
_ANY_QUOTE = re.compile(
    rf"[{_OPEN}]([^{_CLOSE}\n]{{1,600}}?)[{_CLOSE}]"
    rf"|(?<!\w)[{_SINGLE_OPEN}]([^\n]{{1,600}}?)[{_SINGLE_CLOSE}](?!\w)")
_CURRENCY = "£$€¥₹"
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# A figure with its unit: a currency sign before a number, a percent sign, or a word
# after it ("40 chargers"). Only numbers of two digits or more, or with a decimal or a
# currency, are figures: "3 years" is in too many texts to say where it came from.
_FIGURE = re.compile(
    rf"(?<![\w.,])([{_CURRENCY}]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|million|billion)\b)?"
    r"|\d[\d,]*(?:\.\d+)?\s?%"
    r"|\d{2,}(?:,\d{3})*(?:\.\d+)?\s(?:[^\W\d_]{4,}))(?![\w])")


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(normalised(text)))


def _one_letter_apart(a: str, b: str) -> bool:
    if min(len(a), len(b)) < 4 or abs(len(a) - len(b)) > 1 or not (
            a.isalpha() and b.isalpha()):
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i + 1:] if len(a) == len(b) else a[i:] == b[i + 1:]


def _tokens_found(wanted: tuple[str, ...], held: tuple[str, ...]) -> bool:
    """Whether the words ``wanted`` stand in ``held`` in order, up to one word in
    ``FUZZY_EVERY`` (one in a quote of four to eleven words) one letter apart."""
    if any(_UNSPACED.search(w) for w in wanted):
        return "".join(wanted) in "".join(held)
    size = len(wanted)
    allowed = max(1, size // FUZZY_EVERY) if size >= LOOSE_QUOTE_WORDS else 0
    for start in range(len(held) - size + 1):
        if held[start] != wanted[0] and not allowed:
            continue
        misses = 0
        for mine, theirs in zip(wanted, held[start:start + size], strict=True):
            if mine != theirs:
                misses += 1
                if misses > allowed or not _one_letter_apart(mine, theirs):
                    break
        else:
            return True
    return False


def loose_quotes(text: str) -> list[str]:
    """The quotes in ``text`` that follow no passage id, in any common quotation marks,
    long enough to be a quote (``LOOSE_QUOTE_WORDS``)."""
    found = []
    for match in _ANY_QUOTE.finditer(without_citations(text)):
        quote = (match.group(1) or match.group(2) or "").strip()
        tokens = _tokens(quote)
        unspaced = sum(len(_UNSPACED.findall(t)) for t in tokens)
        if len(tokens) >= LOOSE_QUOTE_WORDS or unspaced >= 2 * LOOSE_QUOTE_WORDS:
            found.append(quote)
    return found


def holding_passage(quote: str, passages: Iterable[tuple[str, str]]) -> str | None:
    """The id of the first of ``passages`` (id, text) that holds ``quote``."""
    return next((pid for pid, text in passages if quote_found(quote, text)), None)


def _unquoted(text: str) -> str:
    return _ANY_QUOTE.sub(" ", without_citations(text))


def _runs(tokens: Sequence[str], size: int) -> set[tuple[str, ...]]:
    return {tuple(tokens[n:n + size]) for n in range(len(tokens) - size + 1)}


def copied_from(text: str, passages: Sequence[tuple[str, str]], common: str = ""
                ) -> list[tuple[str, str]]:
    """What ``text`` copies, outside its quotes and citations, from exactly one of
    ``passages`` (id, text): a figure with its unit ("£76,000", "40 chargers", "15%")
    or a run of ``COPIED_RUN_WORDS`` words, none of them in ``common`` (the question
    and background, which any answer may repeat; a figure whose number they give
    neither). Each (passage id, what was copied),
    one per passage, in the order of ``passages``."""
    plain = _unquoted(text)
    flat = normalised(plain)
    shared = normalised(common)
    figures = [normalised(m.group(1)) for m in _FIGURE.finditer(flat)]
    # A figure whose number the question gives ("22 leases" after "22 expiring van
    # leases") may come from the question, not from a passage.
    asked = set(_NUMBER.findall(shared))
    figures = [f for f in dict.fromkeys(figures)
               if f not in shared and not set(_NUMBER.findall(f)) & asked]
    said = _tokens(plain)
    known = _runs(_tokens(common), COPIED_RUN_WORDS)
    runs = [run for run in dict.fromkeys(tuple(said[n:n + COPIED_RUN_WORDS])
                                         for n in range(len(said) - COPIED_RUN_WORDS + 1))
            if run not in known]
    holders: dict[str, list[str]] = {}
    for figure in figures:
        held = [pid for pid, body in passages if _holds_figure(figure, _flat(body))]
        if len(held) == 1:
            holders.setdefault(held[0], []).append(figure)
    if runs:
        bodies = [(pid, _run_set(body)) for pid, body in passages]
        for run in runs:  # in the text's order: the first run copied is the one named
            held = [pid for pid, body_runs in bodies if run in body_runs]
            if len(held) == 1:
                holders.setdefault(held[0], []).append(" ".join(run))
    return [(pid, holders[pid][0]) for pid, _ in passages if pid in holders]


# A passage's text is read for every answer of a debate: its forms are kept.
@lru_cache(maxsize=4096)
def _flat(text: str) -> str:
    return normalised(text)


@lru_cache(maxsize=4096)
def _run_set(text: str) -> frozenset[tuple[str, ...]]:
    return frozenset(_runs(_tokens(text), COPIED_RUN_WORDS))


def _holds_figure(figure: str, body: str) -> bool:
    at = body.find(figure)
    while at >= 0:
        before, after = body[at - 1:at], body[at + len(figure):at + len(figure) + 1]
        if not (before.isalnum() or before in ".,") and not after.isalnum():
            return True
        at = body.find(figure, at + 1)
    return False
