"""Reads on decisions, always scoped to a team (or to a debate the caller may read)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Case, F, Max, QuerySet, When
from django.utils import timezone

from accounts.models import Membership, Team
from collab.models import Action, ActionStatus
from debates.models import Debate, DebateStatus
from debates.selectors import DebateFilters, debate_search
from decisions.models import Decision, DecisionState, DecisionVersion, Outcome

DECISION_SORTS: dict[str, tuple[Any, ...]] = {
    "newest": ("-decided_at", "-id"),
    "oldest": ("decided_at", "id"),
    # The next review first; decisions without one last, on every database.
    "review": (F("review_on").asc(nulls_last=True), "-decided_at"),
    "question": ("debate__question", "-decided_at"),
}


@dataclass(frozen=True)
class DecisionFilters:
    """The decision log's filters: the debate list's, plus the decision's own."""

    debate: DebateFilters = DebateFilters()
    state: str = ""  # a DecisionState value
    owner: str = ""  # the username of who decided
    sort: str = "newest"  # a key of DECISION_SORTS


def debate_is_finished(debate: Debate) -> bool:
    """A debate the team can decide on: it ran to its result (any protocol)."""
    return debate.status == DebateStatus.SUCCEEDED


def decision_for_debate(*, debate: Debate) -> Decision | None:
    return (Decision.objects.select_related("decided_by")
            .filter(debate=debate).first())


def decision_fingerprint(debate: Debate) -> tuple[object, ...]:
    """What the decision banner on a debate's page shows, as plain values (one query):
    the cached page body holds the banner, so a new decision, version or review, or a
    review date that came, makes a new page (debates/web/page_cache.py)."""
    row = (Decision.objects.filter(debate=debate)
           .annotate(latest=Max("outcomes__id"))
           .values_list("id", "version", "option", "choice", "rationale",
                        "decided_by__username", "decided_at", "review_on", "reviewed_at",
                        "result_quality", "latest").first())
    if row is None:
        return ()
    review_on = row[7]
    return (*row, review_on is not None and review_on <= timezone.localdate())


def latest_outcome(*, decision: Decision) -> Outcome | None:
    """The review that counts: the latest one (``Outcome`` orders newest first)."""
    return decision.outcomes.select_related("recorded_by").first()


def latest_outcomes(*, decisions: list[Decision]) -> dict[int, Outcome]:
    """The latest review of each of ``decisions`` that has one, by decision id (one
    query, for a page of the decision log)."""
    latest: dict[int, Outcome] = {}
    for outcome in (Outcome.objects.filter(decision__in=decisions)
                    .select_related("recorded_by").order_by("recorded_at", "id")):
        latest[outcome.decision_id] = outcome
    return latest


def decision_versions(*, decision: Decision) -> list[DecisionVersion]:
    """Every version, newest first (the first is the current one)."""
    return list(decision.versions.select_related("decided_by").order_by("-version"))


def decision_state(decision: Decision, *, today: date | None = None) -> str:
    """Decided; review due once its review date came; reviewed once an outcome exists."""
    if decision.reviewed_at is not None:
        return DecisionState.REVIEWED
    today = today or timezone.localdate()
    if decision.review_on is not None and decision.review_on <= today:
        return DecisionState.REVIEW_DUE
    return DecisionState.DECIDED


def _with_state(qs: QuerySet[Decision], state: str, today: date) -> QuerySet[Decision]:
    if state == DecisionState.REVIEWED:
        return qs.filter(reviewed_at__isnull=False)
    if state == DecisionState.REVIEW_DUE:
        return qs.filter(reviewed_at__isnull=True, review_on__lte=today)
    if state == DecisionState.DECIDED:
        return qs.filter(reviewed_at__isnull=True).exclude(review_on__lte=today)
    return qs


def decision_search(*, team: Team, filters: DecisionFilters,
                    today: date | None = None) -> QuerySet[Decision]:
    """The team's decisions whose debates match the debate list's filters, narrowed by
    state and owner, sorted; the caller paginates."""
    today = today or timezone.localdate()
    debates = debate_search(team=team, filters=filters.debate).values("id")
    qs = Decision.objects.filter(debate__team=team, debate_id__in=debates)
    qs = _with_state(qs, filters.state, today)
    if filters.owner:
        qs = qs.filter(decided_by__username=filters.owner)
    order = DECISION_SORTS.get(filters.sort, DECISION_SORTS["newest"])
    return qs.select_related("debate", "decided_by").order_by(*order)


def decision_detail(*, team: Team, code: uuid.UUID) -> Decision | None:
    return (Decision.objects.select_related("debate", "decided_by")
            .filter(debate__team=team, code=code).first())


def decision_owners(*, team: Team) -> list[str]:
    """Who decided something in the team, for the filter drop-down."""
    return sorted(set(Decision.objects.filter(debate__team=team, decided_by__isnull=False)
                      .values_list("decided_by__username", flat=True)), key=str.casefold)


def reviews_due(*, today: date) -> QuerySet[Decision]:
    """Every team's decisions whose review date came and that nobody reviewed yet."""
    return (Decision.objects.filter(reviewed_at__isnull=True, review_on__lte=today)
            .select_related("debate__team", "decided_by"))


def owned_actions(*, user: User) -> list[Action]:
    """``user``'s actions in the teams they still belong to: open ones first, each
    group by due date."""
    teams = Membership.objects.filter(user=user).values("team_id")
    return list(Action.objects.filter(owner=user, debate__team_id__in=teams)
                .select_related("debate", "debate__team")
                .order_by(Case(When(status=ActionStatus.OPEN, then=0), default=1),
                          "due_date", "id"))
