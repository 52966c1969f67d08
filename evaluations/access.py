"""Who may see or change an evaluation: members of its team read, editors and owners
start and cancel, everyone else gets 404 (accounts.access.require_role)."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AnonymousUser, User

from accounts.access import Need, not_found, parse_code, require_role
from evaluations.models import Evaluation


def evaluation_access(*, user: User | AnonymousUser, code: uuid.UUID | str,
                      need: str = Need.READ) -> tuple[Evaluation, str]:
    """The evaluation with public ``code`` and the caller's role in its team."""
    if not user.is_authenticated:
        raise not_found("evaluation")
    evaluation = (Evaluation.objects.select_related("team", "created_by")
                  .filter(code=parse_code(code)).first())
    if evaluation is None:
        raise not_found("evaluation")
    return evaluation, require_role(team=evaluation.team, user=user, noun="evaluation",
                                    need=need)
