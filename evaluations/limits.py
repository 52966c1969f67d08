"""How an evaluation meets the team's limits (debates.limits), decided here:

- Money: an evaluation of N questions runs N debates, so the per-debate cost cap
  applies to each question's debate, and the monthly budget to all N at once (N times
  one debate's estimate, reserved while the run is queued or running, like a debate's
  estimate). A model litellm cannot price is refused under a cap or budget, as for a
  debate. A simulated population (``sim_accuracy``) or a simulated model costs nothing.
- Rate: starting an evaluation is one spending action in the hour's window (its
  questions run one after another on one worker, so they never crowd the queue the
  way N started debates would).

Both count in the debates' own checks as well, registered in ``apps.ready``.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Case, F, FloatField, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Coalesce, Greatest

from accounts.models import Team
from debates.limits import LimitExceeded, check_can_spend, team_month_spend
from evaluations.models import ACTIVE_STATUSES, Evaluation

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def evaluation_month_spend(team: Team, month_start: datetime.datetime) -> float:
    committed = Case(
        When(Q(status__in=ACTIVE_STATUSES),
             then=Greatest(F("cost_usd"), Coalesce(F("estimated_cost_usd"), Value(0.0)))),
        default=F("cost_usd"), output_field=FloatField())
    total = Evaluation.objects.filter(team=team, created_at__gte=month_start).aggregate(
        total=Sum(committed))["total"]
    return float(total or 0.0)


def evaluation_actions_since(team: Team, since: datetime.datetime) -> QuerySet[Any]:
    return (Evaluation.objects.filter(team=team, created_at__gt=since)
            .order_by("created_at").values_list("created_at", flat=True))


def check_evaluation_can_spend(*, team: Team, user: User, questions: int,
                               per_question_usd: float | None,
                               unpriced_models: tuple[str, ...] = ()) -> Team:
    """Refuses (``LimitExceeded``) what breaks a limit; else the team row, locked until
    the caller's transaction ends (it must write the evaluation in that transaction)."""
    locked = check_can_spend(team=team, user=user, estimated_cost_usd=per_question_usd,
                             what="each question's debate", unpriced_models=unpriced_models)
    budget = locked.monthly_budget_usd
    if budget is not None and per_question_usd is not None:
        total = per_question_usd * questions
        spent = team_month_spend(team=locked)
        if spent + total > budget:
            raise LimitExceeded(
                f"Monthly budget: {questions} questions are estimated at ${total:,.2f} "
                f"(${per_question_usd:,.4f} each) but only ${max(budget - spent, 0):,.2f} "
                f"of {locked.name}'s ${budget:,.2f} monthly budget is left. Ask for fewer "
                "questions or a cheaper model, or ask an owner to raise the budget.")
    return locked
