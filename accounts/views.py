"""Sign-up, the account page (email verification, password change and reset), teams,
members, invitations, limits and API tokens. Access via ``team_access``
(``api_token_access`` for tokens)."""

from __future__ import annotations

from typing import Any

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from accounts import language, selectors, services
from accounts.access import Need, api_token_access, parse_code, team_access
from accounts.forms import (
    ApiTokenForm,
    InvitationForm,
    LimitsForm,
    PasswordChangeForm,
    RoleForm,
    SignupForm,
    TeamForm,
)
from accounts.models import AccountSettings, Membership, Team
from view_kit.http import AuthenticatedHttpRequest
from view_kit.site_words import ui


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
    next_url = _safe_next(request, "")
    invited = selectors.invitation_from_next(next_url=next_url)
    form = SignupForm(request.POST or None, invited=invited is not None)
    if request.method == "POST" and form.is_valid():
        user = services.user_signup(
            username=form.cleaned_data["username"], email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            team_name=form.cleaned_data.get("team_name", ""),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if not invited:  # an invitee's next step is the invitation page's one message
            messages.success(request, ui("site.msg.welcome"))
        _mail_after_signup(request, user, next_url)
        return redirect(next_url or reverse("home"))
    return render(request, "accounts/signup.html", {"form": form, "next": next_url,
                                                    "invited": invited})


def _mail_after_signup(request: HttpRequest, user: Any, next_url: str) -> None:
    # The same words whether the address was new or already had an account.
    try:
        services.signup_mail_send(user=user, next_url=next_url)
    except OSError:  # smtplib errors are OSErrors: the account works, the mail can wait
        messages.warning(request, ui("site.msg.mail_failed_signup"))
    else:
        messages.info(request, ui("site.msg.link_sent", email=user.email))


@login_required
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "accounts/account.html", {
        "verified": selectors.email_is_verified(user=request.user),
        "language": language.user_language(request.user),
        "languages": AccountSettings.Language.choices,
    })


@login_required
@require_POST
def language_save(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user's language ("" for the browser's): the next page speaks it."""
    chosen = request.POST.get("language", "")
    if chosen not in {"", *AccountSettings.Language.values}:
        return HttpResponseBadRequest("Unknown language.")
    language.language_set(request=request, language=chosen)
    messages.success(request, ui("site.account.language_saved"))
    return redirect(reverse("accounts:account") + "#language")


@login_required
@require_POST
def email_verification_send(request: AuthenticatedHttpRequest) -> HttpResponse:
    next_url = _safe_next(request, "")
    try:
        services.email_verification_send(user=request.user, next_url=next_url)
    except services.EmailVerificationError as exc:
        messages.error(request, str(exc))
    except OSError:
        messages.error(request, ui("site.msg.mail_failed"))
    else:
        messages.success(request, ui("site.msg.link_sent", email=request.user.email))
    return redirect(next_url or reverse("accounts:account"))


def email_verify(request: HttpRequest, signed: str) -> HttpResponse:
    """The link in a verification mail. A GET only asks: mail scanners open links."""
    next_url = _safe_next(request, "")
    if request.method == "POST":
        try:
            user = services.email_verify(signed=signed)
        except services.EmailVerificationError as exc:
            return render(request, "accounts/email_verify.html", {"problem": str(exc)},
                          status=400)
        messages.success(request, ui("site.msg.email_confirmed", email=user.email))
        fallback = reverse("accounts:account") if request.user.is_authenticated else \
            reverse("login")
        return redirect(next_url or fallback)
    return render(request, "accounts/email_verify.html", {"next": next_url})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset, but the mailed link starts with COUNCIL_SITE_URL: the request's
    Host header is the client's to choose, and a forged one would send the victim's
    reset token to the forger's site."""

    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def form_valid(self, form: Form) -> HttpResponse:
        site = settings.COUNCIL_SITE_URL.rstrip("/")
        self.domain_override = site.split("://", 1)[-1].split("/", 1)[0]
        self.extra_email_context = {"site_url": site}
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    @method_decorator(transaction.atomic)
    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        services.password_changed(user=self.user, reset=True)
        # Whoever proved they read the account's mail may log in again at once, even if
        # wrong passwords had paused logging in.
        axes_reset(username=self.user.get_username())
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm

    @method_decorator(transaction.atomic)
    def form_valid(self, form: Form) -> HttpResponse:
        response = super().form_valid(form)
        services.password_changed(user=self.request.user)  # type: ignore[arg-type]
        if form.cleaned_data.get("revoke_api_tokens"):
            count = services.api_token_revoke_all(user=self.request.user)  # type: ignore[arg-type]
            messages.success(self.request, ui("site.password.tokens_revoked", n=count))
        return response


@login_required
def team_list(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/team_list.html", {
        "memberships": selectors.memberships_of_user(user=request.user),
        "current": selectors.current_team(request),
        "form": TeamForm(),
    })


@login_required
@require_http_methods(["GET", "POST"])
def team_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "GET":  # a typed or bookmarked address: the form is on the list
        return redirect(reverse("accounts:team_list") + "#new-team")
    form = TeamForm(request.POST)
    if not form.is_valid():
        messages.error(request, ui("site.msg.team_needs_name"))
        return redirect("accounts:team_list")
    team = services.team_create(name=form.cleaned_data["name"], owner=request.user)
    request.session[selectors.SESSION_TEAM_KEY] = str(team.code)
    messages.success(request, ui("site.msg.team_created", team=team.name))
    return redirect("accounts:team_detail", code=team.code)


@login_required
@require_POST
def team_switch(request: HttpRequest) -> HttpResponse:
    team, _ = team_access(request, request.POST.get("team", ""))
    request.session[selectors.SESSION_TEAM_KEY] = str(team.code)
    messages.success(request, ui("site.msg.team_switched", team=team.name))
    return redirect(_safe_next(request, reverse("home")))


@login_required
def team_detail(request: HttpRequest, code: str) -> HttpResponse:
    team, role = team_access(request, code)
    return _team_page(request, team, role)


def _team_page(request: HttpRequest, team: Team, role: str, *, new_invitation_url: str = "",
               new_invitation_note: str = "",
               invitation_form: InvitationForm | None = None) -> HttpResponse:
    is_owner = role == Membership.Role.OWNER
    members = list(selectors.team_members(team=team))
    response = render(request, "accounts/team_detail.html", {
        "team": team,
        "role": role,
        "is_owner": is_owner,
        "members": members,
        # The only owner is offered no "Remove" for herself: the service would refuse it.
        "owner_count": sum(m.role == Membership.Role.OWNER for m in members),
        "invitations": selectors.team_invitations(team=team) if is_owner else [],
        "roles": Membership.Role.choices,
        "invitation_form": invitation_form or InvitationForm(),
        "new_invitation_url": new_invitation_url,
        "new_invitation_note": new_invitation_note,
        "limits_form": LimitsForm(initial={
            "monthly_budget_usd": team.monthly_budget_usd,
            "debate_cost_cap_usd": team.debate_cost_cap_usd,
            "debates_per_hour": team.debates_per_hour,
            "allow_unpriced_models": team.allow_unpriced_models,
        }),
    })
    if new_invitation_url:
        # The page holding the link's secret must not be kept by a browser or proxy cache.
        response["Cache-Control"] = "no-store"
    return response


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
        messages.error(request, ui("site.teampage.msg.choose_role"))
    else:
        try:
            services.membership_change_role(membership=membership, role=form.cleaned_data["role"])
            messages.success(request, ui("site.teampage.msg.role_changed",
                                         name=membership.user.get_username(),
                                         role=ui(f"site.role.{membership.role}")))
        except services.TeamError as exc:
            messages.error(request, str(exc))
    return redirect("accounts:team_detail", code=code)


@login_required
@require_POST
def member_remove(request: HttpRequest, code: str, member: str) -> HttpResponse:
    membership = _member(code, request, member)
    try:
        services.membership_remove(membership=membership)
        messages.success(request, ui("site.teampage.msg.removed",
                                      name=membership.user.get_username()))
    except services.TeamError as exc:
        messages.error(request, str(exc))
    return redirect("accounts:team_detail", code=code)


@login_required
@require_POST
def team_rename(request: HttpRequest, code: str) -> HttpResponse:
    team, _ = team_access(request, code, need=Need.OWNER)
    form = TeamForm(request.POST)
    try:
        if not form.is_valid():
            raise services.TeamError(ui("site.teampage.msg.not_renamed", why=_field_errors(form)))
        old_name = team.name
        services.team_rename(team=team, name=form.cleaned_data["name"])
        messages.success(request, ui("site.teampage.msg.renamed", old=old_name, new=team.name))
    except services.TeamError as exc:
        messages.error(request, str(exc))
    return redirect("accounts:team_detail", code=team.code)


def _field_errors(form: Form) -> str:
    """Each refused field by its label, with why: "Email: Enter a valid email address."."""
    parts = []
    for name, errors in form.errors.items():
        why = " ".join(map(str, errors))
        field = form.fields.get(name)
        parts.append(f"{field.label or name.replace('_', ' ').capitalize()}: {why}"
                     if field else why)
    return "; ".join(parts)


@login_required
@require_POST
def team_limits(request: HttpRequest, code: str) -> HttpResponse:
    team, _ = team_access(request, code, need=Need.OWNER)
    form = LimitsForm(request.POST)
    if not form.is_valid():
        messages.error(request, ui("site.teampage.msg.limits_not_saved", why=_field_errors(form)))
        return redirect("accounts:team_detail", code=team.code)
    services.team_limits_update(team=team, **form.cleaned_data)
    messages.success(request, ui("site.teampage.msg.limits_saved"))
    return redirect("accounts:team_detail", code=team.code)


@login_required
@require_POST
def invitation_new(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """Makes an invitation and shows its link on this one response: only the link's
    digest is stored, so it cannot be shown again (a redirect would have to carry it)."""
    team, role = team_access(request, code, need=Need.OWNER)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        # The page again, with the form as sent: each error beside its field.
        messages.error(request, ui("site.teampage.msg.invitation_not_created",
                                    why=_field_errors(form)))
        response = _team_page(request, team, role, invitation_form=form)
        response.status_code = 400
        return response
    invitation, secret = services.invitation_create(team=team, created_by=request.user,
                                                    **form.cleaned_data)
    url = services.site_link(reverse("accounts:invitation", args=[secret]))
    note = ui("site.teampage.msg.invitation_created")
    if invitation.email:
        try:
            services.invitation_send(invitation=invitation, accept_url=url)
            note = ui("site.teampage.msg.invitation_mailed", email=invitation.email)
        except OSError:  # smtplib errors are OSErrors: the link still works
            note = ui("site.teampage.msg.invitation_mail_failed", email=invitation.email)
    # Said beside the link (top of the page), not among the messages far above it.
    return _team_page(request, team, role, new_invitation_url=url,
                      new_invitation_note=note)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, code: str, invitation: str) -> HttpResponse:
    team, _ = team_access(request, code, need=Need.OWNER)
    found = selectors.team_invitations(team=team).filter(code=parse_code(invitation)).first()
    if found is None:
        raise Http404("No such invitation.")
    try:
        services.invitation_revoke(invitation=found)
        messages.success(request, ui("site.teampage.msg.withdrawn"))
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
    needs_verification = False
    try:
        services.invitation_check(invitation=found, user=request.user)
    except services.EmailUnverifiedError as exc:
        problem, needs_verification = str(exc), True
    except services.InvitationError as exc:
        problem = str(exc)
    if request.method == "POST" and not problem:
        try:
            services.invitation_accept(invitation=found, user=request.user)
        except services.InvitationError as exc:
            problem = str(exc)
        else:
            request.session[selectors.SESSION_TEAM_KEY] = str(found.team.code)
            messages.success(request, ui("site.msg.joined", team=found.team.name,
                                         role=ui(f"site.role.{found.role}")))
            return redirect("accounts:team_detail", code=found.team.code)
    status = 409 if (problem and request.method == "POST") else 200
    return render(request, "accounts/invitation.html",
                  {"invitation": found, "problem": problem,
                   "needs_verification": needs_verification}, status=status)


@login_required
def api_tokens(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user's API tokens; a POST makes one and shows its secret on this one page."""
    form = ApiTokenForm(request.POST or None, user=request.user)
    secret = None
    if request.method == "POST" and form.is_valid():
        try:
            token, secret = services.api_token_create(
                user=request.user, name=form.cleaned_data["name"],
                expires_at=form.expires_at(), read_only=form.cleaned_data["read_only"],
                team=form.cleaned_data["team"])
        except ValueError as exc:
            form.add_error(None, str(exc))
        else:
            form = ApiTokenForm(user=request.user)
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
    messages.success(request, ui("site.tokens.msg.revoked", name=token.name))
    return redirect("accounts:api_tokens")
