"""Who may read or record a debate's decision: the debate's own access helper decides
(viewers read, editors and owners write), as for comments."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.access import Need, parse_code
from debates.access import debate_access
from debates.models import Debate


def debate_decision_access(
    request: HttpRequest, code: object, *, need: str = Need.READ
) -> tuple[Debate, str]:
    """The debate whose decision is read or recorded, and the caller's role."""
    return debate_access(user=request.user, code=parse_code(code), write=need != Need.READ)
