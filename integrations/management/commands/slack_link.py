"""``manage.py slack_link TEAM SLACK_TEAM_ID``: link a team to a Slack workspace, as an
owner does on the team's Slack page (docs/integrations.md, "Slack").

TEAM is the team's code or its name. A workspace linked to another team moves to this
one (the site operator decides); ``--unlink`` removes the team's link instead.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import Team
from integrations.slack.links import SlackLinkError, workspace_link, workspace_unlink


def find_team(name_or_code: str) -> Team:
    try:
        found = Team.objects.filter(code=uuid.UUID(name_or_code)).first()
    except ValueError:
        teams = list(Team.objects.filter(name=name_or_code)[:2])
        if len(teams) > 1:
            raise CommandError(f"Several teams are named {name_or_code!r}: give the team's "
                               "code (on its page's address).") from None
        found = teams[0] if teams else None
    if found is None:
        raise CommandError(f"No team {name_or_code!r} (give its name or code).")
    return found


class Command(BaseCommand):
    help = "Link a team (name or code) to a Slack workspace (its id, T...)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("team", help="the team's name or code")
        parser.add_argument("slack_team_id", nargs="?", default="",
                            help="the Slack workspace's id, e.g. T0123ABCD")
        parser.add_argument("--unlink", action="store_true",
                            help="remove the team's Slack link instead")

    def handle(self, *args: Any, **options: Any) -> None:
        team = find_team(options["team"])
        if options["unlink"]:
            workspace_unlink(team=team)
            self.stdout.write(f"Team {team.name} has no Slack workspace now.")
            return
        if not options["slack_team_id"]:
            raise CommandError("Give the Slack workspace's id (or --unlink).")
        try:
            workspace = workspace_link(team=team, slack_team_id=options["slack_team_id"],
                                       move=True)
        except SlackLinkError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Team {team.name} ({team.code}) is linked to the Slack workspace "
                          f"{workspace.slack_team_id}.")
