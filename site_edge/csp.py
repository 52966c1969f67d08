"""The Content-Security-Policy header on every response.

The site's own pages satisfy it: scripts and styles come only from our static files
(htmx and its websocket extension included, never a CDN), no page has an inline
script, event-handler attribute, ``hx-on`` or ``style`` attribute (htmx's indicator
styles are in app.css, switched off in htmx's config), and the live page's websocket
goes to the host the page came from. So text that slips past escaping still cannot
run a script, load one, or post a form elsewhere.

A middleware of our own rather than django-csp: the one directive that varies,
``connect-src``, names the request's own host for ``ws:``/``wss:``, and the rest is a
constant string.
"""

from __future__ import annotations

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

from site_edge.middleware import EdgeMiddleware

HEADER = "Content-Security-Policy"
# 'self' alone already covers a same-host websocket in CSP Level 3 browsers; the
# explicit ws:/wss: source is for those that predate it.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
          "connect-src 'self'{websocket}; object-src 'none'; frame-ancestors 'none'; "
          "base-uri 'self'; form-action 'self'")


def policy_for(request: HttpRequest) -> str:
    try:
        host = request.get_host()
    except DisallowedHost:  # the 400 for a foreign Host header still gets a policy
        return POLICY.format(websocket="")
    scheme = "wss" if request.is_secure() else "ws"
    return POLICY.format(websocket=f" {scheme}://{host}")


class ContentSecurityPolicyMiddleware(EdgeMiddleware):
    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response.headers.setdefault(HEADER, policy_for(request))
        return response
