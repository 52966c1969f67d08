"""Where a created thing can be read: the ``Location`` of every 201 the API answers
(docs/api.md, "Every route"). One table for every app's create routes, so a route
that creates reads the same as the others without setting the header itself; a test
(tests/api/test_locations.py) fails for a 201 route missing here.

Each route (Django's pattern, as ``request.resolver_match.route`` names it) maps to a
template: ``{code}`` is the created thing's code from the answer, ``{path}`` the
code in the request's own path.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

LOCATIONS = {
    "api/debates/": "/api/debates/{code}",
    "api/debates/<uuidstr:code>/rerun": "/api/debates/{code}",
    "api/debates/<uuidstr:code>/comments/carry": "/api/debates/{code}",
    # A comment is read in its debate's threads (no route reads one alone).
    "api/debates/<uuidstr:code>/comments": "/api/debates/{path}/comments",
    "api/debates/<uuidstr:code>/outcome": "/api/debates/{path}/decision",
    "api/sources/": "/api/sources/{code}",
    "api/sources/<uuidstr:code>/versions": "/api/sources/{path}",
    "api/evaluations/": "/api/evaluations/{code}",
    "api/personas/libraries": "/api/personas/libraries/{code}",
    "api/personas/libraries/<uuidstr:code>/personas": "/api/personas/{code}",
    "api/personas/libraries/<uuidstr:code>/import": "/api/personas/libraries/{path}",
    "api/personas/<uuidstr:code>/fork": "/api/personas/{code}",
    "api/personas/libraries/<uuidstr:code>/fork": "/api/personas/libraries/{code}",
    "api/teams/": "/api/teams/{code}",
    "api/webhooks/": "/api/webhooks/{code}",
}


def location_of(request: HttpRequest, data: Any) -> str | None:
    """The ``Location`` of the thing a 201 to ``request`` created, None when the route
    is not in the table."""
    match = request.resolver_match
    template = LOCATIONS.get(match.route) if match is not None else None
    if template is None:
        return None
    created = data.get("code") if isinstance(data, dict) else getattr(data, "code", None)
    return template.format(code=created, path=match.kwargs.get("code") if match else None)
