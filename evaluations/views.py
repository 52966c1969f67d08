"""The Evaluations pages: the team's list, the new-evaluation form, one evaluation with
its live progress and results, cancel, and the exports (docs/web.md)."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.access import WRITE_ROLES, Need
from debates.access import current_team_access
from debates.engine import InputError
from debates.web.list_filters import PAGE_SIZE
from evaluations import exports, selectors, services
from evaluations.access import evaluation_access
from evaluations.charts import arms_chart
from evaluations.forms import EvaluationForm
from evaluations.models import Evaluation
from view_kit.site_words import said, ui

POLL_SECONDS = 2


@login_required
@require_GET
def evaluation_list(request: HttpRequest) -> HttpResponse:
    try:
        team, role = current_team_access(request)
    except PermissionDenied:
        return render(request, "evaluations/list.html", {"team": None, "evaluations": []})
    page = Paginator(selectors.evaluation_list(team=team), PAGE_SIZE).get_page(
        request.GET.get("page"))
    return render(request, "evaluations/list.html", {
        "team": team, "evaluations": page.object_list, "page": page,
        "can_write": role in WRITE_ROLES})


@login_required
@require_http_methods(["GET", "POST"])
def evaluation_new(request: HttpRequest) -> HttpResponse:
    team, _ = current_team_access(request, write=True)
    problems: list[str] = []
    if request.method == "POST":
        form = EvaluationForm(request.POST, request.FILES)
        if form.is_valid():
            assert request.user.is_authenticated
            try:
                evaluation = services.evaluation_start(team=team, user=request.user,
                                                       request=form.request())
            except services.EvaluationError as exc:
                form.add_error(None, said(exc))
                problems = exc.problems
            except InputError as exc:  # the model, a limit
                form.add_error(None, str(exc))
            else:
                messages.success(request, ui("site.eval.msg.started"))
                return redirect("evaluations:detail", code=evaluation.code)
    else:
        form = EvaluationForm()
    return render(request, "evaluations/new.html", {
        "team": team, "form": form, "problems": problems,
    }, status=400 if request.method == "POST" else 200)


# The engine's caveats (debates/engine/evaluation/report.py, ``caveat``), as stored in a
# report, said in the page's language; one the patterns miss is shown as stored.
_CAVEATS = (
    (re.compile(r"not a finding: (?P<n>\d+) questions?, fewer than (?P<min>\d+)"),
     "site.eval.caveat.few"),
    (re.compile(r"not a finding: the interval is (?P<width>[\d.]+) wide, over (?P<max>[\d.]+)"),
     "site.eval.caveat.wide"),
)


def _caveat_words(caveat: str) -> str:
    for pattern, key in _CAVEATS:
        if found := pattern.fullmatch(caveat):
            values = found.groupdict()
            if "n" in values:  # "1 question", "12 questions": counted in the page's language
                values["questions"] = ui("site.eval.questions.count", n=values.pop("n"))
            return ui(key, **values)
    return caveat


def _context(evaluation: Evaluation, role: str) -> dict[str, Any]:
    report = selectors.evaluation_report(evaluation)
    if report:  # the arms asked for: the engine's extra "synthesis" reading stays in the exports
        asked = set(evaluation.arms)
        report = {**report, "arms": {name: {**arm, "caveat_words": _caveat_words(
            arm.get("caveat") or "")} for name, arm in report["arms"].items() if name in asked}}
    paired = (report or {}).get("paired", {}).get("council_vs_vote")
    # The mixed arms' pairs (docs/engine.md, "The mixed arms"), each with its arms' names.
    mixed_pairs = [pair for key, pair in (report or {}).get("paired", {}).items()
                   if key != "council_vs_vote"]
    versions = (report or {}).get("prompt_versions", {})
    caveats: dict[str, list[str]] = {}  # one line per caveat, naming its arms
    for name, arm in (report or {}).get("arms", {}).items():
        if arm.get("caveat"):
            caveats.setdefault(arm["caveat_words"], []).append(name)
    return {
        "evaluation": evaluation, "report": report, "paired": paired,
        "mixed_pairs": mixed_pairs,
        "caveats": [(", ".join(arms), caveat) for caveat, arms in caveats.items()],
        "paired_caveat": _caveat_words(paired["caveat"]) if paired and paired.get("caveat")
        else "",
        "chart": arms_chart(report["arms"]) if report else None,
        "can_write": role in WRITE_ROLES, "poll_seconds": POLL_SECONDS,
        "simulated": evaluation.simulated,
        # More than one prompt version (a run resumed across a deploy): said on the page.
        "prompt_versions": ", ".join(f"{version} ({count})" for version, count in
                                     versions.items()) if len(versions) > 1 else "",
    }


@login_required
@require_GET
def evaluation_detail(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    evaluation, role = evaluation_access(user=request.user, code=code)
    return render(request, "evaluations/detail.html", _context(evaluation, role))


@login_required
@require_GET
def evaluation_progress(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    """The live part of the page, polled (HTMX) while the run is queued or running."""
    evaluation, role = evaluation_access(user=request.user, code=code)
    return render(request, "evaluations/_live.html", _context(evaluation, role))


@login_required
@require_POST
def evaluation_cancel(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    evaluation, _ = evaluation_access(user=request.user, code=code, need=Need.WRITE)
    try:
        services.evaluation_cancel(evaluation=evaluation)
    except services.IllegalTransition as exc:
        messages.error(request, said(exc))
    else:
        messages.success(request, ui("site.eval.msg.cancelled"))
    return redirect("evaluations:detail", code=evaluation.code)


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def export_json(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    evaluation, _ = evaluation_access(user=request.user, code=code)
    body = json.dumps(exports.evaluation_json(evaluation), indent=2, ensure_ascii=False)
    return _download(body, "application/json", f"evaluation-{evaluation.code}.json")


@login_required
@require_GET
def export_arms_csv(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    evaluation, _ = evaluation_access(user=request.user, code=code)
    return _download(exports.arms_csv(evaluation), "text/csv; charset=utf-8",
                     f"evaluation-{evaluation.code}-arms.csv")


@login_required
@require_GET
def export_questions_csv(request: HttpRequest, code: uuid.UUID) -> HttpResponse:
    evaluation, _ = evaluation_access(user=request.user, code=code)
    return _download(exports.questions_csv(evaluation), "text/csv; charset=utf-8",
                     f"evaluation-{evaluation.code}-questions.csv")
