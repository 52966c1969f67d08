"""Websocket routes of the debates app, mounted by council_site.asgi."""

from django.urls import URLPattern, path

from debates.consumers import DebateConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/debates/<uuid:code>/", DebateConsumer.as_asgi()),
]
