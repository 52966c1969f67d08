"""Acting on a synthesis: actions on risks and claims (owner, due date, done), and
verifier claims marked checked with a note. Plain forms: each write redirects back
to the synthesis page, where the follow-up shows."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts.access import WRITE_ROLES, Need
from collab import selectors, services
from collab.access import action_access, debate_comments_access
from collab.forms import ActionForm, ClaimCheckForm
from collab.models import TargetKind
from debates.models import Debate
from view_kit.site_words import ui


def _short(text: object, limit: int = 70) -> str:
    words = " ".join(str(text or "").split())
    return words if len(words) <= limit else words[: limit - 1] + "…"


def _targets(debate: Debate) -> list[tuple[str, str]]:
    """("synthesis:", "General …") first, the default, then ("risk:R2", "R2 · risk: …")
    for every risk and claim an action can be about."""
    result = selectors.synthesis_result(debate)
    if result is None:
        return []
    targets = [(f"{TargetKind.SYNTHESIS}:", ui("site.collab.target.general"))]
    targets += [(f"{TargetKind.RISK}:{r.ref}",
                 ui("site.collab.target.risk", ref=r.ref, text=_short(r.text)))
                for r in result.of_kind(TargetKind.RISK)]
    targets += [(f"{TargetKind.CLAIM}:{c.ref}",
                 ui("site.collab.target.claim", ref=c.ref, text=_short(c.text)))
                for c in selectors.synthesis_claims(result)]
    return targets


def _user(request: HttpRequest) -> User:
    """The signed-in user (every view here requires one)."""
    assert request.user.is_authenticated
    return request.user


def _synthesis_url(debate: Debate, anchor: str = "follow-up") -> str:
    return reverse("debates:synthesis", kwargs={"code": debate.code}) + f"#{anchor}"


@login_required
@require_http_methods(["GET", "POST"])
def actions(request: HttpRequest, code: str) -> HttpResponse:
    """GET: the debate's actions and a form for a new one (``?target=risk:R2`` picks
    the item); POST: creates it and returns to the synthesis."""
    need = Need.WRITE if request.method == "POST" else Need.READ
    debate, role = debate_comments_access(request, code, need=need)
    members = selectors.action_owners(debate=debate)
    targets = _targets(debate)
    if request.method == "POST":
        form = ActionForm(request.POST, targets=targets, members=members)
    else:
        initial: dict[str, object] = {"owner": request.user.pk}
        if request.GET.get("target") in dict(targets):
            initial["target"] = request.GET["target"]
        form = ActionForm(initial=initial, targets=targets, members=members)
    error = ""
    if request.method == "POST" and form.is_valid():
        kind, ref = form.target_parts()
        try:
            action = services.action_create(
                debate=debate, user=_user(request), target_kind=kind, target_ref=ref,
                owner=form.cleaned_data["owner"], due_date=form.cleaned_data["due_date"],
                title=form.cleaned_data["title"])
        except services.CommentError as exc:
            error = str(exc)
        else:
            messages.success(request, ui("site.collab.msg.given",
                                         about=action.target_ref or ui("site.collab.general"),
                                         name=form.cleaned_data["owner"].get_username()))
            return redirect(_synthesis_url(debate, f"action-{action.code}"))
    follow = selectors.synthesis_follow_up(debate=debate)
    return render(request, "collab/actions.html", {
        "debate": debate, "form": form, "error": error, "actions": follow.actions,
        "can_write": role in WRITE_ROLES, "has_targets": bool(targets),
    }, status=400 if request.method == "POST" else 200)


def _set_done(request: HttpRequest, code: str, action: str, done: bool) -> HttpResponse:
    found, _ = action_access(request, code, action, need=Need.WRITE)
    services.action_set_done(action=found, user=_user(request), done=done)
    return redirect(_synthesis_url(found.debate, f"action-{found.code}"))


@login_required
@require_POST
def action_done(request: HttpRequest, code: str, action: str) -> HttpResponse:
    return _set_done(request, code, action, True)


@login_required
@require_POST
def action_reopen(request: HttpRequest, code: str, action: str) -> HttpResponse:
    return _set_done(request, code, action, False)


@login_required
@require_POST
def claim_check(request: HttpRequest, code: str) -> HttpResponse:
    """Marks a verifier claim checked (with a note of what was found) or unchecked."""
    debate, _ = debate_comments_access(request, code, need=Need.WRITE)
    form = ClaimCheckForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The claim was not marked: " + "; ".join(
            f"{name}: {' '.join(map(str, errors))}" for name, errors in form.errors.items()))
        return redirect(_synthesis_url(debate, "claims"))
    data = form.cleaned_data
    try:
        services.claim_set_checked(debate=debate, user=_user(request), claim_ref=data["claim"],
                                   checked=data["checked"] == "yes", note=data["note"])
    except services.CommentError as exc:
        messages.error(request, f"The claim was not marked: {exc}")
        return redirect(_synthesis_url(debate, "claims"))
    return redirect(_synthesis_url(debate, f"claim-{data['claim']}"))
