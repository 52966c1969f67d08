"""Websocket routes of the debates app, mounted by council_site.asgi."""

from django.urls import URLPattern, path

from debates.live.consumers import DebateConsumer

websocket_urlpatterns: list[URLPattern] = [
    # <str:code>, not <uuid:code>: a path no route matches makes channels' URLRouter raise
    # (a 500 at the handshake); the consumer closes a non-UUID code with 4404 instead.
    path("ws/debates/<str:code>/", DebateConsumer.as_asgi()),
]
