"""Websocket routes of the debates app, mounted by council_site.asgi."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
