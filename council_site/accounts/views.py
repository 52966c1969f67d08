"""Sign-up, teams, members, invitations, limits and API tokens. Access via
``team_access`` (``api_token_access`` for tokens)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from council_site.accounts import selectors, services
from council_site.accounts.access import Need, api_token_access, parse_code, team_access
from council_site.accounts.forms import (
    ApiTokenForm,
    InvitationForm,
    LimitsForm,
    RoleForm,
    SignupForm,
    TeamForm,
)
from council_site.accounts.models import Membership
from council_site.http import AuthenticatedHttpRequest


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_safe_next(request, reverse("home")))
    invited = selectors.invitation_from_next(next_url=_safe_next(request, ""))
    form = SignupForm(request.POST or None, invited=invited is not None)
    if request.method == "POST" and form.is_valid():
        user = services.user_signup(
            username=form.cleaned_data["username"], email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            team_name=form.cleaned_data.get("team_name", ""),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome! Accept the invitation to join {invited.team.name}."
                         if invited else "Welcome! Your team is ready.")
        return redirect(_safe_next(request, reverse("home")))
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request, ""),
                                                    "invited": invited})


@login_required
def team_list(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/team_list.html", {
        "memberships": selectors.memberships_of_user(user=request.user),
        "current": selectors.current_team(request),
        "form": TeamForm(),
    })


@login_required
@require_POST
def team_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TeamForm(request.POST)
    if not form.is_valid():
        messages.error(request, "A team needs a name.")
        return redirect("accounts:team_list")
    team = services.team_create(name=form.cleaned_data["name"], owner=request.user)
    request.session[selectors.SESSION_TEAM_KEY] = str(team.code)
    messages.success(request, f"Team {team.name} created; you are now working in it.")
    return redirect("accounts:team_detail", code=team.code)


@login_required
@require_POST
def team_switch(request: HttpRequest) -> HttpResponse:
    team, _ = team_access(request, request.POST.get("team", ""))
    request.session[selectors.SESSION_TEAM_KEY] = str(team.code)
    messages.success(request, f"Now working in {team.name}.")
    return redirect(_safe_next(request, reverse("home")))


@login_required
def team_detail(request: HttpRequest, code: str) -> HttpResponse:
    team, role = team_access(request, code)
    is_owner = role == Membership.Role.OWNER
    return render(request, "accounts/team_detail.html", {
        "team": team,
        "role": role,
        "is_owner": is_owner,
        "members": selectors.team_members(team=team),
        "invitations": selectors.team_invitations(team=team) if is_owner else [],
        "roles": Membership.Role.choices,
        "invitation_form": InvitationForm(),
        "limits_form": LimitsForm(initial={
            "monthly_budget_usd": team.monthly_budget_usd,
            "debate_cost_cap_usd": team.debate_cost_cap_usd,
            "debates_per_hour": team.debates_per_hour,
            "allow_unpriced_models": team.allow_unpriced_models,
        }),
    })


def _member(team_code: str, request: HttpRequest, member: str) -> Membership:
    team, _ = team_access(request, team_code, need=Need.OWNER)
    membership = selectors.team_membership(team=team, code=parse_code(member))
    if membership is None:
        raise Http404("No such member.")
    return membership


@login_required
@require_POST
def member_role(request: HttpRequest, code: str, member: str) -> HttpResponse:
    membership = _member(code, request, member)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose owner, editor or viewer.")
    else:
        try:
            services.membership_change_role(membership=membership, role=form.cleaned_data["role"])
            messages.success(request, f"{membership.user.get_username()} is now "
                                      f"{membership.get_role_display().lower()}.")
        except services.TeamError as exc:
            messages.error(request, str(exc))
    return redirect("accounts:team_detail", code=code)


@login_required
@require_POST
def member_remove(request: HttpRequest, code: str, member: str) -> HttpResponse:
    membership = _member(code, request, member)
    try:
        services.membership_remove(membership=membership)
        messages.success(request, f"{membership.user.get_username()} was removed.")
    except services.TeamError as exc:
        messages.error(request, str(exc))
    return redirect("accounts:team_detail", code=code)


@login_required
@require_POST
def team_limits(request: HttpRequest, code: str) -> HttpResponse:
    team, _ = team_access(request, code, need=Need.OWNER)
    form = LimitsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Limits not saved: " + "; ".join(
            f"{form.fields[f].label or f}: {' '.join(map(str, e))}"
            for f, e in form.errors.items()))
        return redirect("accounts:team_detail", code=team.code)
    services.team_limits_update(team=team, **form.cleaned_data)
    messages.success(request, "Limits saved.")
    return redirect("accounts:team_detail", code=team.code)


@login_required
@require_POST
def invitation_new(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    team, _ = team_access(request, code, need=Need.OWNER)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Invitation not created: check the role, email and days.")
        return redirect("accounts:team_detail", code=team.code)
    invitation = services.invitation_create(team=team, created_by=request.user, **form.cleaned_data)
    url = request.build_absolute_uri(reverse("accounts:invitation", args=[invitation.token]))
    sent = ""
    if invitation.email:
        try:
            services.invitation_send(invitation=invitation, accept_url=url)
            sent = f" and mailed to {invitation.email}"
        except OSError:  # smtplib errors are OSErrors: the link still works
            sent = f"; mailing {invitation.email} failed, so send the link yourself"
    messages.success(request, f"Invitation created{sent}. Share this link: {url}")
    return redirect("accounts:team_detail", code=team.code)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, code: str, invitation: str) -> HttpResponse:
    team, _ = team_access(request, code, need=Need.OWNER)
    found = selectors.team_invitations(team=team).filter(code=parse_code(invitation)).first()
    if found is None:
        raise Http404("No such invitation.")
    try:
        services.invitation_revoke(invitation=found)
        messages.success(request, "Invitation withdrawn.")
    except services.InvitationError as exc:
        messages.error(request, str(exc))
    return redirect("accounts:team_detail", code=team.code)


@login_required
def invitation(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """The link in an invitation: shows what it offers, and a POST accepts it."""
    found = selectors.invitation_by_token(token=token)
    if found is None:
        raise Http404("No such invitation.")
    problem = ""
    try:
        services.invitation_check(invitation=found, user=request.user)
    except services.InvitationError as exc:
        problem = str(exc)
    if request.method == "POST" and not problem:
        try:
            services.invitation_accept(invitation=found, user=request.user)
        except services.InvitationError as exc:
            problem = str(exc)
        else:
            request.session[selectors.SESSION_TEAM_KEY] = str(found.team.code)
            messages.success(request, f"You joined {found.team.name} as "
                                      f"{found.get_role_display().lower()}.")
            return redirect("accounts:team_detail", code=found.team.code)
    status = 409 if (problem and request.method == "POST") else 200
    return render(request, "accounts/invitation.html",
                  {"invitation": found, "problem": problem}, status=status)


@login_required
def api_tokens(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user's API tokens; a POST makes one and shows its secret on this one page."""
    form = ApiTokenForm(request.POST or None)
    secret = None
    if request.method == "POST" and form.is_valid():
        token, secret = services.api_token_create(user=request.user,
                                                  name=form.cleaned_data["name"])
        form = ApiTokenForm()
    response = render(request, "accounts/api_tokens.html", {
        "tokens": selectors.api_tokens_of_user(user=request.user),
        "form": form, "secret": secret,
    }, status=400 if request.method == "POST" and secret is None else 200)
    if secret:
        # The page holding the secret must not be kept by a browser or proxy cache.
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, code: str) -> HttpResponse:
    token = api_token_access(request, code)
    services.api_token_revoke(token=token)
    messages.success(request, f"Token {token.name} revoked: it no longer works.")
    return redirect("accounts:api_tokens")
