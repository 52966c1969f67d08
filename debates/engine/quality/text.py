"""The text rules on one string: degenerate text (number runs, repetition, echoes of
the prompt or the schema) and prose fields empty of content. Each returns the rule's
name and the evidence, or nothing (thresholds in ``rules.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .rules import (
    DIGIT_RUN_NUMBERS,
    ECHO_MIN_TOKENS,
    ECHO_SHARE,
    EMPTY_MAX_CJK_CHARS,
    EMPTY_MAX_WORDS,
    REPETITION_MAX_DISTINCT,
    REPETITION_MIN_TOKENS,
)

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
# A CJK character is a word of its own (no spaces to split on); other words are runs
# of letters and digits.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]"
                    r"|[^\W_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                    r"\uac00-\ud7af]+")
_DIGIT_RUN = re.compile(
    r"\d+(?P<sep>[.,:;/\-])\d+(?:(?P=sep)\d+){" + str(DIGIT_RUN_NUMBERS - 2) + ",}")
EVIDENCE_CHARS = 80
# A position's heading as the cross-examination prompt writes it, "Ann: verdict for,
# confidence 0.70" (before the prefix-cache layout, "Ann (verdict for, confidence
# 0.70)", as recorded runs have it): a reply made of such headings copies labels, not
# arguments (the real Qwen runs wrote peers' headings as concessions and positions;
# docs/engine.md, "Content checks").
_HEADING = re.compile(r"(?:\(|: )verdict [^,()]+, confidence [0-9.]+\)?")

Finding = tuple[str, str]  # (rule, evidence)


def shorten(text: str, limit: int = EVIDENCE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def words(text: str) -> list[str]:
    return [w.lower() for w in _TOKEN.findall(text)]


def normalised(text: str) -> str:
    return " ".join(words(text.replace("_", " ")))


def ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def digit_run(text: str) -> Finding | None:
    match = _DIGIT_RUN.search(text)
    return ("degenerate_text.digit_run", shorten(match.group(0))) if match else None


def repetition(text: str) -> Finding | None:
    tokens = words(text)
    if len(tokens) < REPETITION_MIN_TOKENS:
        return None
    grams = ngrams(tokens, 3)
    distinct = len(set(grams)) / len(grams)
    if distinct >= REPETITION_MAX_DISTINCT:
        return None
    return ("degenerate_text.repetition",
            f"{distinct:.0%} of {len(grams)} word trigrams distinct: {shorten(text, 60)}")


class EchoVocabulary:
    """What a reply must not merely copy: the schema's field names and enum values, the
    question, and the prompts' word 4-grams."""

    def __init__(self, names: Iterable[str], question: str, prompts: Iterable[str]) -> None:
        self.names = {normalised(n) for n in names if n.strip()}
        self.question = normalised(question)
        self.grams = {g for p in prompts for g in ngrams(words(p), 4)}

    def echo(self, text: str, prose: bool = True) -> Finding | None:
        """``prose``: a field a sentence belongs in; in a short label ("Availability" as
        an issue's title) a schema word counts only written as the identifier."""
        flat = normalised(text)
        if not flat:
            return None
        if flat in self.names and (prose or "_" in text):
            return ("degenerate_text.echo", f"a schema name or value: {shorten(text)}")
        if flat == self.question:
            return ("degenerate_text.echo", f"the question itself: {shorten(text)}")
        if _HEADING.search(text) and len(words(_HEADING.sub(" ", text))) < ECHO_MIN_TOKENS:
            return ("degenerate_text.echo", f"a position's heading from the prompt: "
                                            f"{shorten(text)}")
        tokens = words(text)
        if len(tokens) < ECHO_MIN_TOKENS or not self.grams:
            return None
        grams = ngrams(tokens, 4)
        copied = sum(1 for g in grams if g in self.grams) / len(grams)
        if copied < ECHO_SHARE:
            return None
        return ("degenerate_text.echo", f"{copied:.0%} copied from the prompt: {shorten(text)}")


def empty(text: str) -> Finding | None:
    """A prose field with no more than a word (or two CJK characters) in it."""
    tokens = words(text)
    cjk = sum(1 for t in tokens if _CJK.fullmatch(t))
    latin = len(tokens) - cjk
    if latin > EMPTY_MAX_WORDS or cjk > EMPTY_MAX_CJK_CHARS or (latin and cjk):
        return None
    return ("empty_content.one_word", repr(shorten(text, 40)) if text.strip() else "(blank)")
