"""htmx and its websocket extension come from local static files, never a CDN."""

from __future__ import annotations

import re

import pytest
from asgiref.testing import ApplicationCommunicator
from django.contrib.staticfiles import finders

from tests.waiting import PATIENCE_S

HTMX = "django_htmx/htmx-2.min.js"
HTMX_WS = "django_htmx/ext/hx-ws-2.min.js"
CDN_HOSTS = ("unpkg.com", "jsdelivr", "cdnjs", "googleapis", "cloudflare", "skypack")


@pytest.mark.parametrize("path", [HTMX, HTMX_WS, "css/app.css"])
def test_static_asset_is_findable(path):
    assert finders.find(path) is not None


@pytest.fixture
def login_page_html(client, db) -> str:
    # The login page extends base.html and needs no user.
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    return response.content.decode()


def test_base_template_loads_htmx_and_ws_extension_from_local_static(login_page_html):
    assert f'src="/static/{HTMX}"' in login_page_html
    assert f'src="/static/{HTMX_WS}"' in login_page_html
    assert 'href="/static/css/app.css"' in login_page_html


def test_base_template_references_no_external_host(login_page_html):
    urls = re.findall(r'(?:src|href)="([^"]*)"', login_page_html)
    assert urls
    for url in urls:
        assert not url.startswith(("http:", "https:", "//")), url
    for host in CDN_HOSTS:
        assert host not in login_page_html


async def _asgi_get(path: str) -> tuple[int, bytes]:
    from council_site.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(PATIENCE_S)
    body = b""
    while True:
        message = await communicator.receive_output(PATIENCE_S)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(PATIENCE_S)
    return start["status"], body


# Database access allowed: the site's pool threads keep their connection from request
# to request (a request before this one may have opened it), and Django checks a kept
# connection at the start and end of every request, static files included.
@pytest.mark.django_db
async def test_asgi_app_serves_htmx_itself():
    status, body = await _asgi_get(f"/static/{HTMX}")
    assert status == 200
    assert b"htmx" in body
