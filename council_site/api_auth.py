"""Who is calling the JSON API: a personal API token (``Authorization: Bearer …``)
for scripts and agents, or the browser's session (with its CSRF check).

A token stands for its user: the request runs as that user, so every access helper
applies the user's teams and roles unchanged (a viewer's token reads, never writes;
another team's objects are 404), narrowed by the token's own limits
(``council_site.accounts.token_scope``): a read-only token gets 403 on every write, a
team token sees that team only, an expired one is refused like a revoked one.
Bearer requests carry no cookie a third-party page could ride on, so they need no CSRF
token; session requests keep ninja's CSRF check.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer, django_auth

from council_site.accounts.services import api_token_use
from council_site.accounts.token_scope import check_may_write

# Methods that only read; any other is a write, refused to a read-only token up front.
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class ApiTokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        api_token = api_token_use(secret=token.strip())
        if api_token is None:
            return None
        if request.method not in READ_METHODS:
            check_may_write(api_token.user)
        request.user = api_token.user
        request.api_token = api_token  # type: ignore[attr-defined]
        return api_token.user


token_auth = ApiTokenAuth()
# The order matters only when both are sent: a valid token wins over the session.
api_auth: list[Any] = [token_auth, django_auth]
