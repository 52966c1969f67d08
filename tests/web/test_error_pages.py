"""The 403, 404 and 500 pages (and the expired-form page) wear the site's layout, with
its navigation and a sentence on what to do next; API paths keep answering JSON."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from council_site.urls import urlpatterns as site_urlpatterns


def _fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


# The site's URLs plus two views that fail, for the 500 pages (pytest.mark.urls below).
urlpatterns = [path("test-fails", _fails), path("api/test-fails", _fails), *site_urlpatterns]


def _assert_site_page(response: HttpResponse, status: int, advice: str) -> str:
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert '<nav class="nav container" aria-label="Main">' in body
    assert 'href="/"' in body and "/teams/" in body  # the menu, not just the brand
    assert advice in body
    return body


def test_unknown_page_is_a_404_in_the_layout_that_says_what_to_do(owner_client, settings):
    settings.DEBUG = False
    response = owner_client.get("/no-such-page/")
    body = _assert_site_page(response, 404, "switch to the right team")
    assert "API tokens" in body  # the signed-in menu: rendered with the request


def test_viewer_writing_gets_a_403_in_the_layout_that_says_whom_to_ask(
        viewer_client, make_debate, settings):
    settings.DEBUG = False
    debate = make_debate()
    response = viewer_client.post(f"/debates/{debate.code}/rerun", {})
    _assert_site_page(response, 403, "make you an editor")


@pytest.mark.urls(__name__)
def test_a_failing_view_gives_a_500_in_the_layout_that_says_to_try_again(owner, settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    response = client.get("/test-fails")
    body = _assert_site_page(response, 500, "Try again in a minute")
    assert "Traceback" not in body and "a bug in a view" not in body


def test_a_stale_csrf_token_gives_the_expired_form_page_in_the_layout(owner, settings):
    settings.DEBUG = False
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    response = client.post("/debates/new", {"question": "Anything?"})
    _assert_site_page(response, 403, "reload the page and send it again")


@pytest.mark.urls(__name__)
def test_api_paths_still_answer_json_errors(owner, settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    for url, status in [("/api/no-such-route", 404), ("/api/test-fails", 500)]:
        response = client.get(url)
        assert response.status_code == status, url
        assert response["Content-Type"].startswith("application/json"), url
        assert response.json()["detail"], url
