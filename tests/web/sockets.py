"""Opening the site's websockets in tests, with a test client's session cookie."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator
from django.test import Client

from council_site.asgi import application


def socket_for(client: Client, path: str) -> WebsocketCommunicator:
    """A communicator for ``path`` carrying ``client``'s cookies, from the site's own
    origin (the origin validator refuses others)."""
    cookie = "; ".join(f"{k}={v.value}" for k, v in client.cookies.items())
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"),
               (b"cookie", cookie.encode())]
    return WebsocketCommunicator(application, path, headers=headers)
