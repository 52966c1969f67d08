"""Template filters of the web app. ``untrusted`` is the way LLM, persona and
comment text reaches a page (see web_kit.rendering)."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.safestring import SafeString

from debates.engine.convergence import diagnostic_meaning
from debates.engine.i18n import step_words, translator
from debates.engine.schemas import Diagnostic, VerdictSplit
from debates.engine.verdicts import describe, option_label
from web_kit.rendering import render_untrusted

register = template.Library()


# A heading is a line or two: a question can be 20,000 characters (MAX_QUESTION_CHARS),
# which as an <h1> pushed the status card thousands of pixels down the page.
HEADLINE_CHARS = 160
_FIRST_SENTENCE = re.compile(r"^.*?[.?!](?=\s|$)", re.DOTALL)


@register.filter(name="headline")
def headline(question: str) -> str:
    """The question's first sentence (or first line), clamped to HEADLINE_CHARS at a
    word boundary: the page heading. The whole question is shown folded beneath it."""
    first_line = question.strip().split("\n", 1)[0].strip()
    found = _FIRST_SENTENCE.match(first_line)
    title = found.group(0) if found else first_line
    if len(title) <= HEADLINE_CHARS:
        return title
    cut = title[:HEADLINE_CHARS - 1]
    cut = cut.rsplit(" ", 1)[0] if " " in cut[HEADLINE_CHARS // 2:] else cut
    return cut.rstrip(" ,;:") + "…"


@register.filter(name="beyond_headline")
def beyond_headline(question: str) -> bool:
    """Whether the question says more than its headline (then it is shown folded)."""
    return headline(question) != question.strip()


@register.filter(name="untrusted")
def untrusted(text: object) -> SafeString:
    """Multi-line LLM, persona or comment text: Markdown, sanitised."""
    return render_untrusted(text)


@register.filter(name="untrusted_inline")
def untrusted_inline(text: object) -> SafeString:
    """One item of LLM text inside a list item, table cell or sentence."""
    return render_untrusted(text, inline=True)


def _number(value: object) -> float | None:
    # A missing value (None, or "" for an unresolvable lookup) shows as a dash.
    return float(value) if isinstance(value, int | float) else None


@register.filter(name="conf")
def conf(value: object) -> str:
    """A confidence or mean as 0.00, a dash when there is none."""
    number = _number(value)
    return "–" if number is None else f"{number:.2f}"


@register.filter(name="disp")
def disp(value: object) -> str:
    """A dispersion as 0.000 (it moves in the third decimal)."""
    number = _number(value)
    return "–" if number is None else f"{number:.3f}"


@register.filter(name="signed")
def signed(value: object) -> str:
    """A change as +0.12 or -0.12; one that rounds to nothing is 0.00, not -0.00."""
    number = _number(value)
    if number is None:
        return "–"
    text = f"{number:+.2f}"
    return "0.00" if float(text) == 0 else text


@register.filter(name="usd")
def usd(value: object) -> str:
    number = _number(value)
    if number is None:
        return "–"
    return f"${number:.4f}" if 0 < number < 0.01 else f"${number:.2f}"


@register.filter(name="tokens")
def tokens(value: int | None) -> str:
    if not value:
        return "0"
    return f"{value / 1000:.1f}k" if value >= 1000 else str(value)


@register.filter(name="cancelled_by")
def cancelled_by(debate: Any) -> str:
    """Who cancelled the debate (the cancel event names them), or ""."""
    events = [e for e in debate.events.all() if e.kind == "debate_cancelled"]
    return str(events[-1].payload.get("by", "")) if events else ""


@register.filter(name="by_library")
def by_library(field: Any) -> list[tuple[str, list[Any]]]:
    """A grouped checkbox field's boxes as (group label, boxes): Django iterates the
    boxes of grouped choices flat, in group order, so they are cut by group size."""
    boxes = list(field)
    groups, start = [], 0
    for label, options in field.field.choices:
        size = len(options)
        groups.append((str(label), boxes[start:start + size]))
        start += size
    return groups


@register.filter(name="humanize_reason")
def humanize_reason(value: str | None) -> str:
    """stop reasons and diagnostic labels are snake_case identifiers."""
    return (value or "").replace("_", " ")


def _language(context: template.Context) -> str:
    """The page's language: ``lang`` if the view set one, else that of the ``result``
    the synthesis and print views render (other pages stay English)."""
    if context.get("lang"):
        return str(context["lang"])
    return str(getattr(context.get("result"), "language", None) or "en")


@register.simple_tag(takes_context=True)
def tr(context: template.Context, key: str, value: object = None, **values: object) -> str:
    """A fixed string from the engine's translations (the same tables as the Markdown
    report): ``{% tr "convergence" %}``, ``{% tr "reason" r.stop_reason %}`` for
    ``reason.<value>``, ``{% tr "majority_before" bs=1 bo=3 %}`` with placeholders."""
    if value is not None:
        key = f"{key}.{getattr(value, 'value', value)}"
    return translator(_language(context))(key, **values)


@register.simple_tag(takes_context=True)
def tr_option(context: template.Context, option: str) -> str:
    """An option (verdict) in the page's language: for/against/conditional translated,
    named alternatives as written."""
    return option_label(option, translator(_language(context)))


@register.simple_tag(takes_context=True)
def tr_split(context: template.Context, split: object) -> str:
    """A verdict split ("4 of 5 for, 1 conditional") in the page's language; "–" for none."""
    if split is None:
        return "–"
    return describe(VerdictSplit.model_validate(split), translator(_language(context)))


@register.simple_tag(takes_context=True)
def tr_meaning(context: template.Context, diagnostic: Diagnostic) -> str:
    """What a diagnostic's label means, in words its numbers bear out, in the page's
    language."""
    return diagnostic_meaning(diagnostic, translator(_language(context)))


@register.simple_tag(takes_context=True)
def tr_step(context: template.Context, label: str) -> str:
    """A step label ("round 2", "premortem") in the page's language."""
    return step_words(translator(_language(context)), label)


@register.simple_tag(takes_context=True)
def tr_decision(context: template.Context, decision: str) -> str:
    """A round's decision ("continue" or a stop reason) in the page's language."""
    t = translator(_language(context))
    key = decision if decision == "continue" else f"reason.{decision}"
    try:
        return t(key)
    except KeyError:  # e.g. a decision stored by an older version
        return humanize_reason(decision)
