"""The quality partials' words (templates/debates/_quality_*.html), in the page's
language: ``{% tr_quality "title" r.quality %}`` reads ``title.<quality>``."""

from __future__ import annotations

from django import template

from debates.templatetags.council import page_language
from debates.web.quality import quality_word

register = template.Library()


@register.simple_tag(takes_context=True)
def tr_quality(context: template.Context, key: str, value: object = None) -> str:
    if value is not None:
        key = f"{key}.{value}"
    return quality_word(page_language(context), key)
