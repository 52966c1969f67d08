"""Hostile and broken API input gets a clear 4xx in one JSON shape, with nothing saved;
an unexpected error in production is a JSON 500; the docs load no third-party script."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from collab.models import Comment
from collab.services import MAX_QUOTE_OFFSET
from debates.models import Debate
from personas.models import LibraryPersona, PersonaLibrary
from tests.factories import add_synthesis, make_debate

HUGE = 99999999999999999999999
SHAPE = {"code", "message", "errors", "detail"}


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


def _post(client, url, data):
    return client.post(url, data, content_type="application/json")


def _assert_shape(response, status: int, code: str) -> dict:
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    data = response.json()
    assert set(data) == SHAPE, data
    assert data["code"] == code and data["message"] and data["detail"] == data["message"]
    return data


def test_every_kind_of_refusal_has_the_same_shape(client, member_client, viewer_client,
                                                  outsider_client, debate):
    url = f"/api/debates/{debate.code}/comments"
    _assert_shape(client.get(url), 401, "unauthorized")
    _assert_shape(outsider_client.get(url), 404, "not_found")
    _assert_shape(_post(viewer_client, url, {"body": "x"}), 403, "forbidden")
    data = _assert_shape(_post(member_client, url, {"body": "x", "surprise": 1}),
                         422, "validation_error")
    assert "surprise" in data["errors"]
    # A refusal the route returns itself ({"detail": ...}) joins the shape.
    data = _assert_shape(_post(member_client, url, {"body": "x", "target_kind": "risk",
                                                     "target_ref": "C9"}), 400, "bad_request")
    assert "C9" in data["message"]
    data = _assert_shape(member_client.post(url, "{not json", content_type="application/json"),
                         400, "invalid_json")
    assert Comment.objects.count() == 0


def test_debate_form_errors_keep_their_fields(member_client):
    data = _assert_shape(_post(member_client, "/api/debates/", {"question": "ok?",
                                                                "agents": 30}),
                         400, "bad_request")
    assert "agents" in data["errors"]
    assert Debate.objects.count() == 0


def test_a_huge_quote_offset_is_a_422_not_an_overflow(member_client, debate):
    url = f"/api/debates/{debate.code}/comments"
    base = {"body": "here", "target_kind": "quote", "quote": "Vendor lock-in"}
    data = _assert_shape(_post(member_client, url, {**base, "quote_offset": HUGE}),
                         422, "validation_error")
    assert "quote_offset" in data["errors"]
    ok = _post(member_client, url, {**base, "quote_offset": MAX_QUOTE_OFFSET})
    assert ok.status_code == 201
    # The largest offset is accepted as a hint; the server stores where the quote
    # really starts (the occurrence nearest the hint).
    assert Comment.objects.get().quote_offset < MAX_QUOTE_OFFSET


def test_a_huge_quote_offset_on_the_comment_form_is_refused(member_client, debate):
    response = member_client.post(f"/debates/{debate.code}/comments/", {
        "body": "here", "target_kind": "quote", "quote": "Vendor lock-in",
        "quote_offset": str(HUGE)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # the panel shows the refusal (htmx swaps 2xx)
    assert "quote position" in response.content.decode()
    assert Comment.objects.count() == 0


@pytest.mark.parametrize("where", ["body", "quote"])
def test_nul_characters_are_refused_with_the_field_named(member_client, debate, where):
    payload = {"body": "fine", "target_kind": "quote", "quote": "Vendor lock-in"}
    payload[where] = payload[where] + "\x00"
    data = _assert_shape(_post(member_client, f"/api/debates/{debate.code}/comments", payload),
                         400, "invalid_characters")
    assert list(data["errors"]) == [where]
    assert Comment.objects.count() == 0


def test_nul_in_nested_fields_and_query_is_refused(member_client, team, debate):
    library = PersonaLibrary.objects.create(team=team, name="Main")
    data = _assert_shape(_post(member_client, f"/api/personas/libraries/{library.code}/import",
                               {"filename": "p.yaml", "text": "- name: \x00"}),
                         400, "invalid_characters")
    assert "text" in data["errors"]
    _assert_shape(member_client.get(f"/api/debates/{debate.code}/events", {"after": "1\x00"}),
                  400, "invalid_characters")
    assert not LibraryPersona.objects.exists()


def test_an_unexpected_error_in_production_is_json_without_a_traceback(
        member_client, team, settings, monkeypatch, caplog):
    settings.DEBUG = False

    def broken(**kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("debates.api.selectors.debate_search", broken)
    response = member_client.get("/api/debates/")
    data = _assert_shape(response, 500, "server_error")
    assert "secret" not in response.content.decode()
    assert data["errors"] == {}
    assert "secret internals" in caplog.text  # ... but the log has it


def test_docs_load_swagger_from_local_static_files(member_client):
    response = member_client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    urls = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert any(u.endswith("swagger-ui-bundle.js") for u in urls), urls
    for url in urls:
        assert not url.startswith(("http:", "https:", "//")), url
        assert url.startswith("/static/"), url
        assert finders.find(url.removeprefix("/static/")) is not None, url
    assert "cdn" not in html.lower()


# The database is allowed because a pool thread that served a page earlier in this
# process keeps its connection, which Django checks at the start of every request.
@pytest.mark.django_db
async def test_the_asgi_app_serves_the_swagger_assets():
    from tests.test_static import _asgi_get

    for asset in ("ninja/swagger-ui-bundle.js", "ninja/swagger-ui.css",
                  "ninja/swagger-ui-init.js"):
        status, body = await _asgi_get(f"/static/{asset}")
        assert status == 200 and len(body) > 100, asset


@pytest.mark.parametrize("method, url, status", [
    ("get", "/api/nope", 404),
    ("get", "/api/debates/not-a-uuid", 404),
    ("delete", "/api/debates/", 405),
    ("put", "/api/teams/", 405),
])
def test_unrouted_paths_and_methods_answer_in_the_same_shape(member_client, method, url,
                                                             status):
    response = getattr(member_client, method)(url)
    code = {404: "not_found", 405: "method_not_allowed"}[status]
    data = _assert_shape(response, status, code)
    if status == 405:
        assert "GET" in response["Allow"] and "GET" in data["message"]


def test_pages_outside_the_api_keep_their_html_404(member_client):
    response = member_client.get("/no-such-page")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_the_error_body_middleware_also_runs_async(member):
    """Under ASGI the middleware chain is async (so the event views stay on the loop);
    the unrouted 404 comes back in the same shape there too."""
    from asgiref.sync import async_to_sync
    from django.test import AsyncClient

    from site_edge.api_middleware import ApiErrorBodyMiddleware

    async def get_response(request):
        raise AssertionError("not called")

    assert ApiErrorBodyMiddleware(get_response).is_async
    client = AsyncClient()
    client.force_login(member)
    response = async_to_sync(client.get)("/api/nope")
    _assert_shape(response, 404, "not_found")
