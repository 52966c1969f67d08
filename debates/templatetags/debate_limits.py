"""The team page shows what the team's debates cost this month; the accounts app
knows no debates (it sits below them), so the figure comes from this tag."""

from __future__ import annotations

from django import template

from accounts.models import Team
from debates.limits import team_month_spend

register = template.Library()


@register.simple_tag
def month_spend(team: Team) -> float:
    """USD spent this month, queued and running debates counted at their estimate."""
    return team_month_spend(team=team)
