"""Linking (docs/integrations.md, "Slack"): a team to a Slack workspace, and a Slack
user of that workspace to a Council account. The writes and reads of the Slack models."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Team
from accounts.selectors import membership_role
from accounts.services import site_link
from audit.services import record
from debates.models import Debate
from integrations.models import SlackCommand, SlackUser, SlackWorkspace

# Slack's workspace ids: "T" then capitals and digits (an Enterprise Grid one, "E").
SLACK_TEAM_ID = re.compile(r"[TE][A-Z0-9]{2,31}")
# A link page is good for this long, and once (SlackUser.linked_at).
LINK_MAX_AGE_S = 15 * 60
LINK_SALT = "integrations.slack.link"


class SlackLinkError(Exception):
    """A link refused; ``str(exc)`` says why, for the user."""


# --------------------------------------------------------------------------- workspaces


def check_slack_team_id(value: str) -> str:
    value = value.strip()
    if not SLACK_TEAM_ID.fullmatch(value):
        raise SlackLinkError(f"{value!r} is not a Slack workspace id: it starts with T and "
                             "has only capitals and digits (e.g. T0123ABCD)")
    return value


@transaction.atomic
def workspace_link(*, team: Team, slack_team_id: str, user: User | None = None,
                   move: bool = False) -> SlackWorkspace:
    """Link ``team`` to the workspace (replacing the team's earlier one). A workspace
    another team holds is refused, unless ``move`` (the site operator's command)."""
    slack_team_id = check_slack_team_id(slack_team_id)
    held = SlackWorkspace.objects.select_for_update().filter(
        slack_team_id=slack_team_id).first()
    if held is not None and held.team_id == team.pk:
        return held
    if held is not None and not move:
        raise SlackLinkError(f"Slack workspace {slack_team_id} is linked to another team; "
                             "an owner of that team unlinks it first")
    if held is not None:
        held.delete()
    SlackWorkspace.objects.filter(team=team).delete()
    record("slack.link", team=team, user=user, kind="slack_workspace", code=slack_team_id)
    return SlackWorkspace.objects.create(team=team, slack_team_id=slack_team_id,
                                         linked_by=user)


@transaction.atomic
def workspace_unlink(*, team: Team) -> None:
    """The team's workspace link and its users' links go; debates stay."""
    for workspace in SlackWorkspace.objects.filter(team=team):
        record("slack.unlink", team=team, kind="slack_workspace", code=workspace.slack_team_id)
    SlackWorkspace.objects.filter(team=team).delete()


def workspace_of_team(*, team: Team) -> SlackWorkspace | None:
    return SlackWorkspace.objects.filter(team=team).first()


def workspace_for(*, slack_team_id: str) -> SlackWorkspace | None:
    return SlackWorkspace.objects.select_related("team").filter(
        slack_team_id=slack_team_id).first()


# -------------------------------------------------------------------------------- users


def linked_user(*, workspace: SlackWorkspace, slack_user_id: str) -> User | None:
    link = SlackUser.objects.select_related("user").filter(
        workspace=workspace, slack_user_id=slack_user_id).first()
    return link.user if link is not None and link.user.is_active else None


def link_url(*, workspace: SlackWorkspace, slack_user_id: str) -> str:
    """A page that links this Slack user to whoever opens it signed in: signed, so no
    row is kept; good for ``LINK_MAX_AGE_S`` and once."""
    token = signing.dumps({"w": workspace.pk, "u": slack_user_id,
                           "t": timezone.now().timestamp()}, salt=LINK_SALT, compress=True)
    return site_link(reverse("integrations:slack_link", args=[token]))


@dataclass(frozen=True)
class LinkRequest:
    workspace: SlackWorkspace
    slack_user_id: str
    issued_at: datetime


def read_link(token: str) -> LinkRequest:
    """The link a page's token asks for; SlackLinkError when it is forged, expired,
    already used, or its workspace was unlinked since."""
    try:
        data = signing.loads(token, salt=LINK_SALT, max_age=LINK_MAX_AGE_S)
        workspace = SlackWorkspace.objects.select_related("team").filter(pk=data["w"]).first()
        issued_at = datetime.fromtimestamp(float(data["t"]), tz=timezone.get_current_timezone())
        slack_user_id = str(data["u"])
    except signing.SignatureExpired:
        raise SlackLinkError("This link has expired: run /council link in Slack for a new "
                             "one.") from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise SlackLinkError("This is not a link Council made.") from None
    if workspace is None or workspace.created_at > issued_at:
        raise SlackLinkError("The Slack workspace was unlinked since: run /council link "
                             "again once it is linked.")
    if SlackUser.objects.filter(workspace=workspace, slack_user_id=slack_user_id,
                                linked_at__gte=issued_at).exists():
        raise SlackLinkError("This link was used already: run /council link in Slack for a "
                             "new one.")
    return LinkRequest(workspace, slack_user_id, issued_at)


@transaction.atomic
def user_link(*, token: str, user: User) -> SlackUser:
    """Links the token's Slack user to ``user``, a member of the workspace's team
    (replacing an earlier link of that Slack user)."""
    request = read_link(token)
    if membership_role(team=request.workspace.team, user=user) is None:
        raise SlackLinkError(f"You are not a member of {request.workspace.team.name}, the "
                             "team this Slack workspace is linked to.")
    link, _ = SlackUser.objects.update_or_create(
        workspace=request.workspace, slack_user_id=request.slack_user_id,
        defaults={"user": user, "linked_at": timezone.now()})
    record("slack.user_link", team=request.workspace.team, user=user, kind="slack_user",
           code=request.slack_user_id)
    return link


# ----------------------------------------------------------------------------- commands


def command_record(*, debate: Debate, slack_team_id: str, slack_user_id: str,
                   channel_id: str, response_url: str) -> SlackCommand:
    return SlackCommand.objects.create(debate=debate, slack_team_id=slack_team_id,
                                       slack_user_id=slack_user_id, channel_id=channel_id,
                                       response_url=response_url)
