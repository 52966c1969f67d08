"""The team's spending and rate limits, checked wherever model money is about to be
spent: a debate started (form, API, MCP, CLI --save, a re-run) and one more round on a
finished debate. ``check_can_spend`` is that one check.

The limit *settings* live on ``accounts.Team``; the checks count ``Debate`` rows and
events, so they live here (accounts imports nothing from debates). ``check_can_spend``
locks the team row first, so when the caller writes its debate in the same
transaction (``debates.services`` does) the count and the write are one critical
section: on PostgreSQL through ``SELECT ... FOR UPDATE``, on SQLite because its
IMMEDIATE transactions already let one writer in at a time.

Spend counts money not yet spent: a queued or running debate reserves its
estimate (``Debate.estimated_cost_usd``) until its ledger is totalled.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Case, F, FloatField, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from accounts.models import Team
from debates.engine import InputError
from debates.models import ACTIVE_STATUSES, Debate, DebateEvent

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

RATE_WINDOW = timedelta(hours=1)

# Other spending registered by apps above debates (evaluations): what they committed
# this month, and when they started spending (docs/web.md, "Evaluations").
SpendSource = Callable[[Team, datetime.datetime], float]
ActionSource = Callable[[Team, datetime.datetime], QuerySet[Any]]
_spenders: list[tuple[SpendSource, ActionSource]] = []


def register_spender(*, spend: SpendSource, actions: ActionSource) -> None:
    """``spend(team, month_start)``: USD committed since then; ``actions(team, since)``:
    the times of the spending actions taken after ``since``. Idempotent."""
    if (spend, actions) not in _spenders:
        _spenders.append((spend, actions))
# The event "one more round" appends (debates.services): it counts as an action that
# spends, like a started debate.
MORE_ROUND_EVENT = "more_round_requested"


class LimitExceeded(InputError):
    """A limit refuses the spending; ``str(exc)`` is the message to show. An InputError,
    so every caller that shows bad input to its user shows this too."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RateLimited(LimitExceeded):
    """The rate limit refused: ``retry_after_s`` is when a slot frees (the API sends it
    as Retry-After with a 429)."""

    def __init__(self, message: str, *, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


def _usd(value: float) -> str:
    return f"${value:,.2f}"


def _month_start(now: datetime.datetime) -> datetime.datetime:
    return now.astimezone(datetime.UTC).replace(day=1, hour=0, minute=0, second=0,
                                                microsecond=0)


def team_month_spend(*, team: Team, now: datetime.datetime | None = None) -> float:
    """USD committed by the team's debates created this calendar month (UTC): what
    finished debates cost, plus for each queued or running debate the larger of its
    estimate and what its totals show so far (a debate sent back for one more round
    has its earlier cost plus the round's estimate as its estimate). A debate without
    an estimate (unpriced model) reserves nothing it has not spent."""
    committed = Case(
        When(Q(status__in=ACTIVE_STATUSES),
             then=Greatest(F("cost_usd"), Coalesce(F("estimated_cost_usd"), Value(0.0)))),
        default=F("cost_usd"),
        output_field=FloatField(),
    )
    total = Debate.objects.filter(
        team=team, created_at__gte=_month_start(now or timezone.now())
    ).aggregate(total=Sum(committed))["total"]
    month = _month_start(now or timezone.now())
    return float(total or 0.0) + sum(spend(team, month) for spend, _ in _spenders)


def _spending_actions_since(team: Team, since: datetime.datetime
                            ) -> tuple[QuerySet[Any], ...]:
    """The team's actions that spent after ``since``, as the times they were taken:
    debates started, and rounds added to finished debates."""
    started = Debate.objects.filter(team=team, created_at__gt=since)
    # Only debates that ever had one more round have the event: the join stays small.
    more_rounds = DebateEvent.objects.filter(
        debate__team=team, debate__forced_rounds__gt=0, kind=MORE_ROUND_EVENT,
        created_at__gt=since)
    return (started.order_by("created_at").values_list("created_at", flat=True),
            more_rounds.order_by("created_at").values_list("created_at", flat=True),
            *(actions(team, since) for _, actions in _spenders))


def _wait_words(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'' if minutes == 1 else 's'}"


def _check_rate(team: Team, now: datetime.datetime) -> None:
    per_hour = team.debates_per_hour
    actions = _spending_actions_since(team, now - RATE_WINDOW)
    count = sum(times.count() for times in actions)
    if count < per_hour:
        return
    if per_hour == 0:
        # No slot ever frees: ask again after a whole window (an owner may raise it).
        retry_after = int(RATE_WINDOW.total_seconds())
    else:
        # A slot frees once only per_hour - 1 actions remain in the window: when the
        # (count - per_hour + 1)-th oldest is an hour old.
        nth = count - per_hour + 1
        oldest = sorted(t for times in actions for t in times[:nth])
        retry_after = max(1, math.ceil((oldest[nth - 1] + RATE_WINDOW - now).total_seconds()))
    raise RateLimited(
        f"Rate limit: {team.name} may start {per_hour} debate"
        f"{'' if per_hour == 1 else 's'} per hour (one more round on a finished debate "
        f"counts as one) and has started {count} in the last hour. Try again in "
        f"{_wait_words(retry_after)} or ask an owner to raise the limit.",
        retry_after_s=retry_after,
    )


def refuses_unpriced(team: Team) -> bool:
    """Whether a model litellm cannot price is refused for this team (forms warn)."""
    limited = team.debate_cost_cap_usd is not None or team.monthly_budget_usd is not None
    return limited and not team.allow_unpriced_models


def check_can_spend(
    *,
    team: Team,
    user: User | AnonymousUser | None,
    estimated_cost_usd: float | None,
    debate_cost_usd: float = 0.0,
    what: str = "this debate",
    unpriced_models: Sequence[str] = (),
) -> Team:
    """The one check before model money is spent: refuses (``LimitExceeded``, or
    ``RateLimited`` for the rate limit) what would break one of the team's limits, or
    returns the team row, locked until the caller's transaction ends.

    Must run inside ``transaction.atomic`` (``select_for_update`` refuses otherwise),
    and the caller must write its debate (new row, or one more round's event) in that
    same transaction: two spends for one team then take turns, so the second counts
    the first.

    ``estimated_cost_usd``: what this spending is estimated at; None when it cannot be
    (a model litellm has no price for, named in ``unpriced_models``), which is refused
    under a cap or budget unless the team allows unpriced models. ``debate_cost_usd``:
    what the debate has cost already (one more round adds to a finished debate, and the
    per-debate cap is about the whole debate). ``what`` names the spending in messages.
    ``user`` is accepted for per-user limits later; today all limits are per team.
    """
    # The limits are read from the locked row, not the caller's possibly stale copy.
    team = Team.objects.select_for_update().get(pk=team.pk)
    now = timezone.now()
    _check_rate(team, now)

    cap = team.debate_cost_cap_usd
    budget = team.monthly_budget_usd
    spent = team_month_spend(team=team, now=now) if budget is not None else 0.0
    if budget is not None and spent >= budget:
        raise LimitExceeded(
            f"Monthly budget: {team.name} has spent {_usd(spent)} of its "
            f"{_usd(budget)} budget this month (queued and running debates count at "
            "their estimate). An owner can raise the budget."
        )

    if estimated_cost_usd is None:
        if refuses_unpriced(team):
            limits = " and ".join(name for name, value in (
                ("a per-debate cost cap", cap), ("a monthly budget", budget))
                if value is not None)
            models = f" ({', '.join(sorted(set(unpriced_models)))})" if unpriced_models else ""
            raise LimitExceeded(
                f"Unpriced model: the cost of {what} cannot be estimated, because litellm "
                f"has no price for its model{models}, and {team.name} has {limits}. "
                "Choose a priced model, or ask an owner to allow unpriced models in the "
                "team's limits."
            )
        return team

    total = debate_cost_usd + estimated_cost_usd
    if cap is not None and total > cap:
        so_far = (f", {_usd(total)} with the {_usd(debate_cost_usd)} this debate has "
                  "cost so far" if debate_cost_usd else "")
        raise LimitExceeded(
            f"Cost cap: {what} is estimated at {_usd(estimated_cost_usd)}{so_far}, above "
            f"{team.name}'s per-debate cap of {_usd(cap)}. Choose fewer agents, fewer "
            "rounds or a cheaper model, or ask an owner to raise the cap."
        )

    if budget is not None and spent + estimated_cost_usd > budget:
        raise LimitExceeded(
            f"Monthly budget: {what} is estimated at {_usd(estimated_cost_usd)} "
            f"but only {_usd(budget - spent)} of {team.name}'s {_usd(budget)} "
            "monthly budget is left (queued and running debates reserve their "
            "estimates)."
        )
    return team
