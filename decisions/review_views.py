"""Learning from outcomes on the web: the review form of a debate's decision, and the
team's calibration page."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.access import Need
from debates.access import current_team_access
from debates.selectors import debate_options
from decisions.access import debate_decision_access
from decisions.calibration import composed_questions, left_out_unusable, reviewed_calibration
from decisions.charts import reliability_chart
from decisions.outcomes import OutcomeError, outcome_record
from decisions.review_forms import OutcomeForm
from decisions.scoring import TOO_FEW
from decisions.selectors import decision_for_debate, decision_state
from view_kit.site_words import ui


@login_required
@require_http_methods(["GET", "POST"])
def review(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """GET: the outcome form; POST: records it and returns to the debate."""
    debate, _ = debate_decision_access(request, code, need=Need.WRITE)
    decision = decision_for_debate(debate=debate)
    if decision is None:
        return render(request, "decisions/review.html", {"debate": debate}, status=409)
    options = debate_options(debate)
    form = OutcomeForm(request.POST if request.method == "POST" else None, options=options)
    if request.method == "POST" and form.is_valid():
        assert request.user.is_authenticated
        try:
            outcome = outcome_record(debate=debate, user=request.user, **form.outcome_kwargs())
        except OutcomeError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, ui("site.decisions.msg.outcome") if outcome.can_tell else
                             ui("site.decisions.msg.moved",
                                date=f"{outcome.review_again_on:%Y-%m-%d}"))
            return redirect("debates:detail", code=debate.code)
    return render(request, "decisions/review.html", {
        "debate": debate, "decision": decision, "form": form,
        "state": decision_state(decision),
        "outcomes": list(decision.outcomes.select_related("recorded_by")),
    }, status=400 if request.method == "POST" else 200)


@login_required
@require_GET
def calibration(request: HttpRequest) -> HttpResponse:
    """The current team's calibration: personas by Brier score, the panel's accuracy
    before and after debating, each reviewed decision with what its debate changed,
    the reliability diagram."""
    try:
        team, _ = current_team_access(request)
    except PermissionDenied:
        return render(request, "decisions/calibration.html", {"team": None})
    scores, reviewed = reviewed_calibration(team=team)
    return render(request, "decisions/calibration.html", {
        "team": team, "calibration": scores, "chart": reliability_chart(scores.reliability),
        "reviewed": reviewed,
        "too_few": TOO_FEW, "questions": composed_questions(team=team, calibration=scores),
        "left_out_unusable": left_out_unusable(team=team),
    })
