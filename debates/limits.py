"""The team's spending and rate limits, checked where a debate is started.

The limit *settings* live on ``accounts.Team``; the checks count ``Debate`` rows, so
they live here (accounts imports nothing from debates). ``check_can_start`` locks
the team row first, so when the caller inserts the debate in the same transaction
(``debates.services.debate_start`` does) the count and the insert are one critical
section: on PostgreSQL through ``SELECT ... FOR UPDATE``, on SQLite because its
IMMEDIATE transactions already let one writer in at a time.

Spend counts money not yet spent: a queued or running debate reserves its
estimate (``Debate.estimated_cost_usd``) until its ledger is totalled.
"""

from __future__ import annotations

import datetime
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db.models import Case, F, FloatField, Q, Sum, Value, When
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from council_site.accounts.models import Team
from debates.engine.inputs import InputError
from debates.models import ACTIVE_STATUSES, Debate

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


class LimitExceeded(InputError):
    """A limit refuses the debate; ``str(exc)`` is the message to show. An InputError,
    so every caller that shows bad input to its user shows this too."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _usd(value: float) -> str:
    return f"${value:,.2f}"


def _month_start(now: datetime.datetime) -> datetime.datetime:
    return now.astimezone(datetime.UTC).replace(day=1, hour=0, minute=0, second=0,
                                                microsecond=0)


def team_month_spend(*, team: Team, now: datetime.datetime | None = None) -> float:
    """USD committed by the team's debates created this calendar month (UTC): what
    finished debates cost, plus for each queued or running debate the larger of its
    estimate and what its totals show so far (a debate sent back for one more round
    keeps its earlier cost). A debate without an estimate (unpriced model) reserves
    nothing it has not spent."""
    committed = Case(
        When(Q(status__in=ACTIVE_STATUSES),
             then=Greatest(F("cost_usd"), Coalesce(F("estimated_cost_usd"), Value(0.0)))),
        default=F("cost_usd"),
        output_field=FloatField(),
    )
    total = Debate.objects.filter(
        team=team, created_at__gte=_month_start(now or timezone.now())
    ).aggregate(total=Sum(committed))["total"]
    return float(total or 0.0)


def check_can_start(
    *,
    team: Team,
    user: User | AnonymousUser | None,
    estimated_cost_usd: float | None,
) -> Team:
    """Refuses (``LimitExceeded``) a debate that would break one of the team's limits,
    or returns the team row, locked until the caller's transaction ends.

    Must run inside ``transaction.atomic`` (``select_for_update`` refuses otherwise),
    and the caller must insert its debate in that same transaction: two starts for
    one team then take turns, so the second counts the first's row.

    ``user`` is accepted for per-user limits later; today all limits are per team.
    ``estimated_cost_usd`` is None when the cost cannot be estimated (e.g. a model
    without a price); the per-debate cap then cannot refuse it.
    """
    # The limits are read from the locked row, not the caller's possibly stale copy.
    team = Team.objects.select_for_update().get(pk=team.pk)
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
                f"{_usd(budget)} budget this month (queued and running debates count at "
                "their estimate). An owner can raise the budget."
            )
        if estimated_cost_usd is not None and spent + estimated_cost_usd > budget:
            raise LimitExceeded(
                f"Monthly budget: this debate is estimated at {_usd(estimated_cost_usd)} "
                f"but only {_usd(budget - spent)} of {team.name}'s {_usd(budget)} "
                "monthly budget is left (queued and running debates reserve their "
                "estimates)."
            )
    return team
