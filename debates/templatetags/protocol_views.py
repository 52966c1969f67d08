"""Filters the protocols' page partials share (templates/debates/protocols/)."""

from __future__ import annotations

import difflib
import re

from django import template
from django.utils.safestring import SafeString

from view_kit.rendering import render_untrusted

register = template.Library()


def version_diff_text(old: str, new: str) -> str:
    """A unified line diff of two versions of LLM text, as a fenced ``diff`` block."""
    lines = list(difflib.unified_diff(
        (old or "").splitlines(), (new or "").splitlines(),
        "previous", "latest", lineterm="", n=2))
    body = "\n".join(lines[2:])  # the ---/+++ header says nothing the page does not
    # A fence longer than any backtick run in the text, so the text cannot close it.
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}diff\n{body}\n{fence}\n" if body else ""


@register.simple_tag
def version_diff(old: object, new: object) -> SafeString:
    """The diff between two versions, through the one sanitised rendering path."""
    return render_untrusted(version_diff_text(str(old or ""), str(new or "")))
