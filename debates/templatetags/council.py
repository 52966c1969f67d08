"""Template filters of the web app. ``untrusted`` is the way LLM, persona and
comment text reaches a page (see view_kit.rendering)."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils import translation
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from debates.debate_sources import passage_url, source_urls
from debates.engine import (
    citer_words,
    get_protocol,
    known_protocols,
    mark_unfound_citations,
    option_label,
    step_words,
    where_words,
)
from debates.models import Debate
from debates.page_words import PageWords, plain_outcome
from debates.selectors import unfound_citations
from view_kit import site_words
from view_kit.rendering import render_untrusted

register = template.Library()


def _register_protocol_filters() -> None:
    """Every registered protocol's page filters (a plugin's too), each under its
    protocol's name (``adversarial_domain``) so two protocols' names cannot clash."""
    for protocol_name in known_protocols():
        for name, function in get_protocol(protocol_name).page_filters().items():
            register.filter(f"{protocol_name}_{name}", function)


_register_protocol_filters()


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


# A line shorter than this is a heading or a version note ("Version 3."), not the
# sentence an answer leads with.
_LEAD_WORDS = 4


@register.filter(name="lead_sentence")
def lead_sentence(text: str) -> str:
    """The first sentence of the first line of ``text`` that says something (at least
    ``_LEAD_WORDS`` words; CJK text has no spaces, so any line of that many characters),
    clamped as a headline: the answer block's one sentence (docs/web.md, "Answer
    first"). The whole text is on the synthesis card below it."""
    lines = [line.strip() for line in str(text).strip().splitlines() if line.strip()]
    for line in lines:
        if len(line.split()) >= _LEAD_WORDS or (len(line) >= 12 and " " not in line):
            return headline(line)
    return headline(lines[0]) if lines else ""


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


@register.filter(name="untrusted_cited")
def untrusted_cited(text: object, debate: Any) -> SafeString:
    """``untrusted`` for an agent's text in ``debate``: each passage citation
    ``[S2.14]`` a link to its passage on the debate's source page, and one that does
    not check out marked where it stands (``marked_citations``)."""
    return render_untrusted(marked_citations(text, debate),
                            sources=source_urls(debate) if debate else None)


@register.filter(name="untrusted_inline_cited")
def untrusted_inline_cited(text: object, debate: Any) -> SafeString:
    """``untrusted_inline`` with the passage citations linked and marked
    (``untrusted_cited``)."""
    return render_untrusted(marked_citations(text, debate), inline=True,
                            sources=source_urls(debate) if debate else None)


# The attribute a loaded debate keeps what its result found wrong in its citations on,
# so a page of many turns reads the result once.
_UNFOUND = "_council_unfound_citations"


def marked_citations(text: object, debate: Any) -> object:
    """An agent's text with each citation its debate's result found not to check out
    followed by the report's mark ("*(not found in S1)*", "*(no passage S9.9)*", in the
    debate's language), so no page shows an invented quote as the source's words
    (docs/web.md, "Sources")."""
    if not isinstance(debate, Debate) or not isinstance(text, str) or "S" not in text:
        return text
    if not hasattr(debate, _UNFOUND):
        setattr(debate, _UNFOUND, unfound_citations(debate=debate))
    unfound = getattr(debate, _UNFOUND)
    return mark_unfound_citations(text, *unfound) if unfound else text


@register.filter(name="names")
def names(items: Any) -> str:
    """Names joined with commas as plain text, for a ``{% tr %}`` placeholder (the tag
    escapes it once; Django's ``join`` would have escaped it already)."""
    return ", ".join(str(item) for item in items or ())


@register.filter(name="passage_link")
def passage_link(passage: str, debate: Any) -> str:
    """The URL of passage ``S2.14`` on the debate's source page ("" for a source the
    debate does not have)."""
    return passage_url(debate, str(passage)) if debate else ""


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


def page_language(context: template.Context) -> str:
    """The page's language: ``lang`` if the view set one, else that of the ``result``
    the synthesis and print views render or of the debate page, else the request's
    (the user's setting or Accept-Language, ``accounts.language``)."""
    if context.get("lang"):
        return str(context["lang"])
    page_language = getattr(context.get("page"), "language", None)  # a DebatePage's
    return str(getattr(context.get("result"), "language", None) or page_language
               or active_language())


def active_language() -> str:
    """The active language as the catalogues name it ("zh" for "zh-hans")."""
    return site_words.language_of(translation.get_language())


@register.simple_tag
def page_lang() -> str:
    """``<html lang>``: the request's language, which the site's own words speak (the
    user's setting or Accept-Language); a debate's parts keep the debate's (``tr``)."""
    return active_language()


@register.filter(name="ui_word")
def ui_word(key: str) -> str:
    """``{{ key|ui_word }}``: a site word whose key the template builds ("site.role."
    and the role)."""
    return site_words.ui(str(key), active_language())


@register.filter(name="ui_known")
def ui_known(key: str, fallback: object) -> str:
    """``{{ key|ui_known:fallback }}``: a site word whose key the template builds, or
    ``fallback`` (the identifier as stored) when the catalogue has none: an audit
    event's action written by a newer app than the catalogue."""
    try:
        return site_words.ui(str(key), active_language())
    except KeyError:
        return str(fallback)


@register.simple_tag
def ui(key: str, **values: object) -> str:
    """The site's own words (navigation, account and team pages, the comments panel) in
    the request's language, also on a debate's page, whose debate words (``tr``) speak
    the debate's language (docs/web.md, "Languages")."""
    return site_words.ui(key, active_language(), **values)


@register.simple_tag(takes_context=True)
def tr(context: template.Context, key: str, value: object = None, **values: object) -> str:
    """A fixed string in the page's language, from the pages' catalogue or the
    engine's (the same as the Markdown report's; ``debates.page_words``):
    ``{% tr "convergence" %}``, ``{% tr "reason" r.stop_reason %}`` for
    ``reason.<value>``, ``{% tr "majority_before" bs=1 bo=3 %}`` with placeholders,
    ``{% tr "page.after_rounds" n=rounds %}`` in the form the language's plural rule
    gives ``n`` (docs/engine.md, "Translations")."""
    if value is not None:
        key = f"{key}.{getattr(value, 'value', value)}"
    return PageWords(page_language(context))(key, **values)


@register.simple_tag(takes_context=True)
def tr_strong(context: template.Context, key: str, **values: object) -> SafeString:
    """``key`` in the page's language with each value in bold ("Cancelled by
    <strong>ana</strong>", "<strong>ana</strong> が中止しました"): the sentence's own word
    order places the name; the text and the values are escaped."""
    text = str(conditional_escape(PageWords(page_language(context))(key)))
    return format_html(text, **{name: format_html("<strong>{}</strong>", value)
                                for name, value in values.items()})


@register.simple_tag(takes_context=True)
def tr_reason(context: template.Context, reason: str) -> str:
    """A stop reason in the page's language; one the catalogues do not name (the
    workflow's convergence labels) in words."""
    t = PageWords(page_language(context))
    key = f"reason.{reason}"
    return t(key) if key in t else humanize_reason(reason)


@register.simple_tag(takes_context=True)
def tr_outcome(context: template.Context, protocol: str, reason: object, rounds: object) -> str:
    """How a result ended in a plain sentence in the page's language ("" when no
    catalogue words its stop reason; docs/web.md, "Plain words"). A result that counts no
    rounds (the workflow's) words its reason without them."""
    return plain_outcome(protocol, str(getattr(reason, "value", reason) or ""),
                         rounds if isinstance(rounds, int) else 0,
                         PageWords(page_language(context)))


@register.simple_tag(takes_context=True)
def tr_known(context: template.Context, key: str, fallback: object) -> str:
    """``key`` in the page's language when the catalogues have it, else ``fallback`` (a
    label the engine made up for a field no catalogue names)."""
    t = PageWords(page_language(context))
    return t(key) if key in t else str(fallback)


@register.simple_tag(takes_context=True)
def tr_usage(context: template.Context, usage: Any, simulated: bool) -> str:
    """Cost, calls, tokens and time of a finished debate in the page's language."""
    t = PageWords(page_language(context))
    cost = (t("cost.simulated") if simulated else usd(usage.cost_usd) if usage.cost_known
            else t("cost.unknown"))
    line = t("live_usage_line", cost=cost, calls=usage.calls, prompt=tokens(usage.prompt_tokens),
             completion=tokens(usage.completion_tokens), seconds=f"{usage.wall_time_s:.1f}")
    cached = cached_words(context, usage)
    return f"{line} · {cached}" if cached else line


@register.simple_tag(takes_context=True)
def cached_words(context: template.Context, usage: Any) -> str:
    """How many of the prompt tokens the provider's cache served (the ledger's
    ``cached_prompt_tokens``, summed in the result's usage), "" when none were."""
    cached = getattr(usage, "cached_prompt_tokens", 0) or 0
    if not cached:
        return ""
    return PageWords(page_language(context))("usage.cached", cached=tokens(cached))


@register.simple_tag(takes_context=True)
def tr_trends(context: template.Context, diagnostic: Any) -> str:
    """How the mean and the dispersion moved, in the page's language."""
    t = PageWords(page_language(context))
    return t("diag.trends", mean_trend=t(f"trend.{diagnostic.mean_trend}"),
             mean_before=conf(diagnostic.mean_before), mean_after=conf(diagnostic.mean_after),
             disp_trend=t(f"trend.{diagnostic.dispersion_trend}"),
             disp_before=disp(diagnostic.dispersion_before),
             disp_after=disp(diagnostic.dispersion_after))


@register.simple_tag(takes_context=True)
def tr_option(context: template.Context, option: str) -> str:
    """An option (verdict) in the page's language: for/against/conditional translated,
    named alternatives as written."""
    return option_label(option, PageWords(page_language(context)))


@register.simple_tag(takes_context=True)
def protocol_words(context: template.Context, protocol: str, name: str, *values: object) -> str:
    """One of a protocol's values in words in the page's language, through the
    protocol's ``page_words`` (``{% protocol_words r.protocol "split" r.verdicts_after %}``):
    the site names none of a protocol's types (docs/web.md, "Templates")."""
    language = page_language(context)
    words = get_protocol(str(protocol)).page_words(language, PageWords(language))
    return words[name](*values)


@register.simple_tag(takes_context=True)
def tr_step(context: template.Context, label: str) -> str:
    """A step label ("round 2", "premortem") in the page's language."""
    return step_words(PageWords(page_language(context)), label)


@register.simple_tag(takes_context=True)
def tr_where(context: template.Context, where: str) -> str:
    """Where a citation stands ("round 2 · Alice") in the page's language."""
    return where_words(PageWords(page_language(context)), where)


@register.simple_tag(takes_context=True)
def tr_cited_by(context: template.Context, names: list[str]) -> str:
    """"cited by …" with the panel-wide synthesis named in the page's language."""
    t = PageWords(page_language(context))
    return t("evidence.cited_by", names=", ".join(citer_words(t, n) for n in names))


@register.simple_tag(takes_context=True)
def tr_decision(context: template.Context, decision: str) -> str:
    """A round's decision ("continue" or a stop reason) in the page's language."""
    t = PageWords(page_language(context))
    key = decision if decision == "continue" else f"reason.{decision}"
    try:
        return t(key)
    except KeyError:  # e.g. a decision stored by an older version
        return humanize_reason(decision)


@register.simple_tag(takes_context=True)
def tr_sev_count(context: template.Context, severity: str, n: int) -> str:
    """``red×2`` in the page's language."""
    t = PageWords(page_language(context))
    return t("page.sev_count", sev=t(f"page.sev.{severity}"), n=n)
