"""Websocket routes of the notifications app, mounted by council_site.asgi."""

from django.urls import URLPattern, path

from notifications.consumers import LiveConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/live/", LiveConsumer.as_asgi()),
]
