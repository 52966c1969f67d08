"""``manage.py mcp``: the MCP server on stdio, acting as an API token's user, within
the token's limits (expiry, read-only, one team).

Register it with a coding agent (see docs/api.md), e.g.::

    COUNCIL_API_TOKEN=council_… python manage.py mcp

Debates it starts run on the site's workers (``manage.py serve`` or ``qcluster``).
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import api_token_use


class Command(BaseCommand):
    help = "Run the MCP server on stdio as the user of COUNCIL_API_TOKEN (or --token)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--token", default=None,
                            help="A personal API token; prefer COUNCIL_API_TOKEN (argv is "
                                 "visible to other local users).")

    def handle(self, *args: Any, **options: Any) -> None:
        from integrations.mcp_server import build_server

        secret = (options["token"] or os.environ.get("COUNCIL_API_TOKEN", "")).strip()
        if not secret:
            raise CommandError("Set COUNCIL_API_TOKEN (make one on the API tokens page or "
                               "with manage.py create_api_token).")
        if api_token_use(secret=secret) is None:
            raise CommandError("That API token is unknown, revoked or expired.")
        build_server(secret).run("stdio")
