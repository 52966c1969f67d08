"""Requests no view should see are refused at the edge: NUL in a path or query value
(PostgreSQL text cannot hold it; see test_scaleout_request_guard.py for that database)
and a body over the site's limit. The limit admits the largest documented input, a
persona file of MAX_PERSONA_FILE_CHARS characters in its worst encoding."""

from __future__ import annotations

import json

import pytest
from django.conf import settings as django_settings
from django.test import AsyncClient, Client

from debates.engine.persona_files import MAX_PERSONA_FILE_CHARS
from debates.models import Debate
from personas.models import LibraryPersona, PersonaLibrary

SHAPE = {"code", "message", "errors", "detail"}
PERSONA_YAML = "- {name: Dana, background: CFO, expertise: x, approach: x, bias: x}\n"


def _api_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == SHAPE and body["code"] == code
    return body


@pytest.mark.parametrize("url", [
    "/invitations/a%00b/",
    "/accounts/login/?next=/invitations/a%00b/",
    "/accounts/signup/?next=/invitations/a%00b/",
    "/accounts/login/?n%00ext=x",
])
@pytest.mark.parametrize("signed_in", [False, True])
def test_nul_in_a_page_path_or_query_is_refused_before_any_query(
        url, signed_in, member, django_assert_num_queries):
    client = Client()
    if signed_in:
        client.force_login(member)
    with django_assert_num_queries(0):
        response = client.get(url)
    assert response.status_code == (404 if "?" not in url else 400)


def test_nul_in_an_api_path_is_a_json_404(member_client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = member_client.get("/api/debates/a%00b")
    _api_error(response, 404, "not_found")


@pytest.mark.parametrize("query", ["status=queued%00", "sta%00tus=queued"])
def test_nul_in_an_api_query_is_a_400_naming_the_parameter(
        member_client, query, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = member_client.get(f"/api/debates/?{query}")
    body = _api_error(response, 400, "invalid_characters")
    assert body["errors"] == {query.split("=")[0].replace("%00", "\x00"):
                              ["NUL characters are not allowed."]}


@pytest.mark.django_db
def test_the_guard_also_runs_async(member):
    client = AsyncClient()
    from asgiref.sync import async_to_sync
    response = async_to_sync(client.get)("/api/debates/?status=%00")
    _api_error(response, 400, "invalid_characters")


def test_a_body_over_the_limit_is_a_413_in_the_api_shape(member_client):
    limit = django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = json.dumps({"question": "x" * limit})
    response = member_client.post("/api/debates/", body, content_type="application/json")
    data = _api_error(response, 413, "too_large")
    assert f"{limit:,}" in data["message"]
    assert not Debate.objects.exists()


def test_multipart_fields_over_the_limit_are_a_413_too(member_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = member_client.post("/api/debates/", {"question": "x" * 2000})
    _api_error(response, 413, "too_large")


def test_a_page_body_over_the_limit_is_a_plain_413(client, db, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/accounts/login/", "username=" + "x" * 2000,
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/plain")


@pytest.fixture
def library(team):
    return PersonaLibrary.objects.create(team=team, name="Main")


def _import(client, library, text: str, filename: str = "p.yaml"):
    # json.dumps escapes every non-ASCII character as \uXXXX: the widest JSON there is.
    return client.post(f"/api/personas/libraries/{library.code}/import",
                       json.dumps({"filename": filename, "text": text}),
                       content_type="application/json")


def test_a_persona_file_of_900k_cjk_characters_is_imported(member_client, library):
    text = "# " + "中" * 900_000 + "\n" + PERSONA_YAML
    response = _import(member_client, library, text)
    assert response.status_code == 201, response.content[:300]
    assert LibraryPersona.objects.filter(library=library).count() == 1


def test_the_body_limit_admits_the_longest_file_in_its_widest_encoding(member_client, library):
    """Every character an escaped surrogate pair (12 bytes): the body gets through, so
    what answers is the file's parser (not JSON), not the body limit."""
    widest = "😀" * MAX_PERSONA_FILE_CHARS
    response = _import(member_client, library, widest, filename="p.json")
    assert _api_error(response, 400, "bad_request")["message"].startswith("p.json: not valid JSON")
    # One character more and the documented character limit answers, still not 413.
    response = _import(member_client, library, widest + "😀", filename="p.json")
    _api_error(response, 422, "validation_error")
