"""What a view's ``request`` carries, for the type checker.

Django types ``request.user`` as ``User | AnonymousUser`` because a request may come
from anyone. Behind ``login_required`` (HTML) or the API's ``api_auth`` it is always a
real ``User``, and services that record who did something take a ``User``; annotating
such a view's request as ``AuthenticatedHttpRequest`` says so once instead of
narrowing or casting in every view (django-stubs' documented pattern). These are
annotations only: at run time the request is Django's ``HttpRequest``.
``tests/test_authenticated_views.py`` checks that every view annotated this way is
refused to anonymous callers, so the annotation cannot silently lie.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """Any request: ``HtmxMiddleware`` (every request) adds ``request.htmx``."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request that ``login_required`` or the API's authentication let through."""

    user: User
