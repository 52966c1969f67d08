"""``manage.py create_api_token USERNAME --name NAME [--expires-in DAYS] [--read-only]
[--team TEAM]``: a personal API token for a script or agent, printed once on stdout
(only its hash is stored)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.models import Team
from accounts.services import api_token_create


def _team(user: Any, wanted: str) -> Team:
    """One of the user's teams, by code or by exact name."""
    teams = Team.objects.filter(memberships__user=user)
    try:
        found = teams.filter(code=uuid.UUID(wanted))
    except ValueError:
        found = teams.filter(name=wanted)
    matches = list(found[:2])
    if len(matches) != 1:
        problem = "is not one of" if not matches else "names more than one of"
        raise CommandError(f"{wanted!r} {problem} {user.get_username()}'s teams; "
                           "pass the team's code.")
    return matches[0]


class Command(BaseCommand):
    help = "Create a personal API token for a user and print it (shown only this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line",
                            help="What the token is for, shown in the token list.")
        parser.add_argument("--expires-in", type=int, default=None, metavar="DAYS",
                            help="Days until the token stops working (default: never).")
        parser.add_argument("--read-only", action="store_true",
                            help="The token reads but never changes anything.")
        parser.add_argument("--team", default=None, metavar="TEAM",
                            help="Limit the token to this team of the user (code or name).")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user named {options['username']!r}")
        days = options["expires_in"]
        if days is not None and days < 1:
            raise CommandError("--expires-in needs at least 1 day")
        team = _team(user, options["team"]) if options["team"] else None
        try:
            token, secret = api_token_create(
                user=user, name=options["name"], read_only=options["read_only"], team=team,
                expires_at=timezone.now() + timedelta(days=days) if days else None)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        # The secret alone on stdout, so `TOKEN=$(manage.py create_api_token …)` works.
        self.stdout.write(secret)
        limits = [f"expires {token.expires_at:%Y-%m-%d %H:%M} UTC" if token.expires_at
                  else "never expires", "read-only" if token.read_only else "read and write",
                  f"team {token.team.name} only" if token.team else "all the user's teams"]
        self.stderr.write(f"Token {token.name!r} for {user.get_username()} created "
                          f"({', '.join(limits)}); it is shown only this once.")
