"""Recording the team's decision on a debate, its history, the team's decision log,
and the signed-in user's actions across debates."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from accounts.access import WRITE_ROLES, Need
from debates.access import current_team_access
from debates.selectors import debate_filter_choices, debate_options, debate_quality, debate_result
from debates.web.list_filters import PAGE_SIZE
from decisions import selectors, services
from decisions.access import debate_decision_access
from decisions.forms import OTHER, DecisionFilterForm, DecisionForm
from decisions.models import Decision, DecisionState
from view_kit.site_words import ui


@login_required
@require_http_methods(["GET", "POST"])
def decide(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """GET: the form (filled with the current decision, if any); POST: records it (a
    change adds a version) and returns to the debate."""
    debate, _ = debate_decision_access(request, code, need=Need.WRITE)
    if not selectors.debate_is_finished(debate):
        return render(request, "decisions/decide.html", {
            "debate": debate, "unfinished": True}, status=409)
    options = debate_options(debate)
    current = selectors.decision_for_debate(debate=debate)
    quality, _ = debate_quality(debate=debate) or ("sound", [])
    if request.method == "POST":
        form = DecisionForm(request.POST, options=options, quality=quality,
                            kept_review_on=current.review_on if current else None)
    else:
        form = DecisionForm(options=options, quality=quality, initial=_initial(current))
    if request.method == "POST" and form.is_valid():
        assert request.user.is_authenticated
        try:
            services.decision_record(debate=debate, user=request.user, **form.decision_kwargs())
        except services.DecisionError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, ui("site.decisions.msg.recorded"))
            return redirect("debates:detail", code=debate.code)
    return render(request, "decisions/decide.html", {
        "debate": debate, "form": form, "current": current, "other": OTHER,
        "result": debate_result(debate=debate),
    }, status=400 if request.method == "POST" else 200)


def _initial(current: Decision | None) -> dict[str, object]:
    """The form as the decision stands (a change starts from it), or the defaults."""
    if current is None:
        return {"review_on": services.default_review_on()}
    return {"option": current.option or OTHER, "choice": current.choice,
            "rationale": current.rationale, "review_on": current.review_on}


@login_required
@require_GET
def history(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """Every version of the debate's decision, newest first."""
    debate, role = debate_decision_access(request, code)
    decision = selectors.decision_for_debate(debate=debate)
    if decision is None:
        raise Http404("No decision on this debate yet.")
    return render(request, "decisions/history.html", {
        "debate": debate, "decision": decision,
        "versions": selectors.decision_versions(decision=decision),
        "state": selectors.decision_state(decision), "can_write": role in WRITE_ROLES,
    })


@login_required
@require_GET
def decision_log(request: HttpRequest) -> HttpResponse:
    """The current team's decisions, searchable and filtered like the debate list."""
    try:
        team, role = current_team_access(request)
    except PermissionDenied:
        return render(request, "decisions/log.html", {"team": None, "decisions": []})
    form = DecisionFilterForm(request.GET)
    today = timezone.localdate()
    found = selectors.decision_search(team=team, filters=form.decision_filters(), today=today)
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("page"))
    outcomes = selectors.latest_outcomes(decisions=list(page.object_list))
    for decision in page.object_list:
        decision.state = selectors.decision_state(decision, today=today)
        decision.latest_outcome = outcomes.get(decision.pk)
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "decisions/log.html", {
        "team": team, "decisions": page.object_list, "page": page, "form": form,
        "query": query.urlencode(), "choices": debate_filter_choices(team=team),
        "owners": selectors.decision_owners(team=team), "states": DecisionState.choices,
        # Editors and owners get the review where it is due; viewers no dead link.
        "can_write": role in WRITE_ROLES,
    })


@login_required
@require_GET
def my_actions(request: HttpRequest) -> HttpResponse:
    """The actions the signed-in user owns across every debate of their teams, open
    first, each group by due date."""
    assert request.user.is_authenticated
    actions = selectors.owned_actions(user=request.user)
    return render(request, "decisions/my_actions.html", {
        "actions": actions, "today": timezone.localdate(),
    })
