"""Spending and rate limits, checked before a debate is queued.

Callers (the debate form, the API, re-runs, debate_create) call ``check_can_start``
first; a refusal raises ``LimitExceeded`` with a message meant for the user, and
nothing has been saved or queued at that point.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from council_site.accounts.models import Team
from council_site.accounts.selectors import team_month_spend
from debates.engine.inputs import InputError
from debates.models import Debate

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


class LimitExceeded(InputError):
    """A limit refuses the debate; ``str(exc)`` is the message to show. An InputError,
    so every caller that shows bad input to its user shows this too."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _usd(value: float) -> str:
    return f"${value:,.2f}"


def check_can_start(
    *,
    team: Team,
    user: AbstractBaseUser | AnonymousUser | None,
    estimated_cost_usd: float | None,
) -> None:
    """Refuses (``LimitExceeded``) a debate that would break one of the team's limits.

    ``user`` is accepted for per-user limits later; today all limits are per team.
    ``estimated_cost_usd`` is None when the cost cannot be estimated (e.g. a model
    without a price); the per-debate cap then cannot refuse it.
    """
    now = timezone.now()
    per_hour = team.debates_per_hour
    started = Debate.objects.filter(team=team, created_at__gt=now - timedelta(hours=1)).count()
    if started >= per_hour:
        raise LimitExceeded(
            f"Rate limit: {team.name} may start {per_hour} debate"
            f"{'' if per_hour == 1 else 's'} per hour and has started {started} in the last "
            "hour. Try again later or ask an owner to raise the limit."
        )

    cap = team.debate_cost_cap_usd
    if cap is not None and estimated_cost_usd is not None and estimated_cost_usd > cap:
        raise LimitExceeded(
            f"Cost cap: this debate is estimated at {_usd(estimated_cost_usd)}, above "
            f"{team.name}'s per-debate cap of {_usd(cap)}. Choose fewer agents, fewer "
            "rounds or a cheaper model."
        )

    budget = team.monthly_budget_usd
    if budget is not None:
        spent = team_month_spend(team=team, now=now)
        if spent >= budget:
            raise LimitExceeded(
                f"Monthly budget: {team.name} has spent {_usd(spent)} of its "
                f"{_usd(budget)} budget this month. An owner can raise the budget."
            )
        if estimated_cost_usd is not None and spent + estimated_cost_usd > budget:
            raise LimitExceeded(
                f"Monthly budget: this debate is estimated at {_usd(estimated_cost_usd)} "
                f"but only {_usd(budget - spent)} of {team.name}'s {_usd(budget)} "
                "monthly budget is left."
            )
