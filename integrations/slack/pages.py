"""The Slack pages: a team's Slack page (members see the link, owners change it) and
the page a ``/council link`` link opens (docs/integrations.md, "Slack")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.access import Need, team_access
from accounts.models import Membership
from accounts.services import site_link
from integrations.slack.links import (
    SlackLinkError,
    read_link,
    user_link,
    workspace_link,
    workspace_of_team,
    workspace_unlink,
)
from view_kit.http import AuthenticatedHttpRequest
from view_kit.site_words import ui


@login_required
def team_slack(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """GET: the team's Slack link; POST (owners): link a workspace by its id."""
    need = Need.OWNER if request.method == "POST" else Need.READ
    team, role = team_access(request, code, need=need)
    if request.method == "POST":
        try:
            workspace_link(team=team, slack_team_id=request.POST.get("slack_team_id", ""),
                           user=request.user)
        except SlackLinkError as exc:
            messages.error(request, ui("site.slack.msg.not_linked", why=str(exc)))
        else:
            messages.success(request, ui("site.slack.msg.linked"))
        return redirect("integrations:team_slack", code=team.code)
    return render(request, "integrations/team_slack.html", {
        "team": team, "is_owner": role == Membership.Role.OWNER,
        "workspace": workspace_of_team(team=team),
        "command_url": site_link(reverse("integrations:slack_command")),
    })


@login_required
@require_POST
def team_slack_unlink(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    team, _ = team_access(request, code, need=Need.OWNER)
    workspace_unlink(team=team)
    messages.success(request, ui("site.slack.msg.unlinked"))
    return redirect("integrations:team_slack", code=team.code)


@login_required
def slack_link(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """GET: what the link would do; POST: do it (a GET must change nothing, and the
    signed-in user confirms which account the Slack user acts as)."""
    try:
        if request.method == "POST":
            link = user_link(token=token, user=request.user)
            return render(request, "integrations/slack_link.html",
                          {"done": True, "workspace": link.workspace})
        found = read_link(token)
    except SlackLinkError as exc:
        return render(request, "integrations/slack_link.html", {"problem": str(exc)},
                      status=400)
    return render(request, "integrations/slack_link.html",
                  {"workspace": found.workspace, "slack_user_id": found.slack_user_id})
