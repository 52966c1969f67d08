"""``manage.py create_api_token USERNAME --name NAME``: a personal API token for a
script or agent, printed once on stdout (only its hash is stored)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from council_site.accounts.services import api_token_create


class Command(BaseCommand):
    help = "Create a personal API token for a user and print it (shown only this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line",
                            help="What the token is for, shown in the token list.")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user named {options['username']!r}")
        try:
            token, secret = api_token_create(user=user, name=options["name"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        # The secret alone on stdout, so `TOKEN=$(manage.py create_api_token …)` works.
        self.stdout.write(secret)
        self.stderr.write(f"Token {token.name!r} for {user.get_username()} created; "
                          "it is shown only this once.")
