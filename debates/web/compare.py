"""Two runs of a question side by side: what one found that the other did not, as
their protocol compares them (``DebateProtocol.page_comparison``; docs/web.md,
"Compare")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from debates.engine import get_protocol
from debates.page_words import PageWords


def compare_results(a: BaseModel, b: BaseModel) -> Any:
    """The item-by-item comparison of two results of one protocol, fixed words in each
    run's language; None when they are of two protocols or theirs compares nothing."""
    protocol = getattr(a, "protocol", None)
    if protocol is None or protocol != getattr(b, "protocol", None):
        return None
    return get_protocol(protocol).page_comparison(a, b, PageWords)
