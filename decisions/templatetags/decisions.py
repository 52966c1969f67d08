"""The team's decision at the top of a debate page. A tag library, so the debates app's
templates show it without importing decisions (``{% load decisions %}`` resolves at
render time)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.access import WRITE_ROLES
from debates.templatetags.council import page_language
from decisions.selectors import (
    debate_is_finished,
    decision_for_debate,
    decision_state,
    latest_outcome,
)

register = template.Library()


@register.inclusion_tag("decisions/_banner.html", takes_context=True)
def decision_banner(context: template.Context, debate: Any, role: str | None) -> dict[str, Any]:
    """The decision (or, for editors on a finished debate without one, a link to record
    it), in the page's language, with the latest review. One query, two with a
    decision."""
    decision = decision_for_debate(debate=debate)
    state = decision_state(decision) if decision is not None else ""
    outcome = latest_outcome(decision=decision) if decision is not None else None
    return {"debate": debate, "decision": decision, "state": state, "outcome": outcome,
            "lang": page_language(context),
            "finished": debate_is_finished(debate), "can_write": role in WRITE_ROLES}
