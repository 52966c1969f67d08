"""Who is calling the JSON API: a personal API token (``Authorization: Bearer …``)
for scripts and agents, or the browser's session (with its CSRF check).

A token stands for its user: the request runs as that user, so every access helper
applies the user's teams and roles unchanged (a viewer's token reads, never writes;
another team's objects are 404), narrowed by the token's own limits
(``accounts.token_scope``): a read-only token gets 403 on every write, a
team token sees that team only, an expired one is refused like a revoked one.
Bearer requests carry no cookie a third-party page could ride on, so they need no CSRF
token; session requests keep ninja's CSRF check.

Whoever is not authenticated gets 401 (``unauthorized``, with ``WWW-Authenticate:
Bearer``) on every method: a Bearer token that is unknown, revoked or expired is
refused outright (never swapped for the session), and a request with no session is not
CSRF-checked, since there is no session a forged request could ride on. Only a
signed-in browser's write without its CSRF token is 403.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer
from ninja.security.session import SessionAuth

from accounts.services import api_token_use
from accounts.token_scope import check_may_write

# Methods that only read; any other is a write, refused to a read-only token up front.
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

INVALID_TOKEN = "The API token is unknown, revoked or expired."
NO_CREDENTIALS = ("Authentication required: send an API token (Authorization: Bearer ...) "
                  "or sign in.")


class ApiTokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        api_token = api_token_use(secret=token.strip())
        if api_token is None:
            raise AuthenticationError(message=INVALID_TOKEN)
        if request.method not in READ_METHODS:
            check_may_write(api_token.user)
        request.user = api_token.user
        request.api_token = api_token  # type: ignore[attr-defined]
        return api_token.user


class SignedInSessionAuth(SessionAuth):
    """ninja's session auth, which checks CSRF only when there is a signed-in session
    to protect: an anonymous write is 401 like an anonymous read, not 403."""

    def _get_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        return super()._get_key(request)


token_auth = ApiTokenAuth()
# The order matters only when both are sent: the token decides, valid or not.
api_auth: list[Any] = [token_auth, SignedInSessionAuth()]
