"""A lone surrogate (a JSON escape such as "\\ud800" without its pair) in any string of
any body is refused alike, as a 422 naming the field, and nothing is saved. It used to
reach the INSERT of a debate's question (UnicodeEncodeError, a 500) while a comment's
body was refused by its schema's length check: one rule now, in the API's parser."""

from __future__ import annotations

import pytest

from collab.models import Comment
from council_site.api import NOT_UNICODE
from debates.models import Debate
from personas.models import LibraryPersona, PersonaLibrary
from personas.services import library_create
from tests.factories import add_synthesis, make_debate

PERSONA = ('{"name": "Dana", "background": "CFO", "expertise": "x", "approach": "x", '
           '"bias": "x"')


@pytest.fixture
def debate(team, owner):
    debate = make_debate(team, owner)
    add_synthesis(debate)
    return debate


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


def _bodies(debate, library):
    """(url, raw JSON body, the field at fault) for text fields across the routers."""
    return [
        ("/api/debates/", '{"question": "Should we \\ud800 go?"}', "question"),
        ("/api/debates/", '{"question": "Should we?", "context": "\\udfff"}', "context"),
        ("/api/debates/", '{"question": "Should we?", "options": ["a", "b\\ud83d"]}',
         "options.1"),
        (f"/api/debates/{debate.code}/comments", '{"body": "a\\ud800b"}', "body"),
        (f"/api/personas/libraries/{library.code}/personas",
         PERSONA.replace('"CFO"', '"C\\ud800FO"') + "}", "background"),
        ("/api/personas/libraries", '{"name": "Lib \\ud800"}', "name"),
        (f"/api/personas/libraries/{library.code}/import",
         '{"filename": "p.yaml", "text": "- name: \\ud800"}', "text"),
    ]


def test_a_lone_surrogate_in_any_text_field_is_a_422_naming_it(member_client, debate,
                                                                  library):
    for url, body, field in _bodies(debate, library):
        response = member_client.post(url, body, content_type="application/json")
        assert response.status_code == 422, (url, response.content)
        payload = response.json()
        assert payload["code"] == "validation_error"
        assert payload["errors"] == {field: [NOT_UNICODE]}, url
    assert Debate.objects.count() == 1  # the fixture's
    assert not Comment.objects.exists() and not LibraryPersona.objects.exists()
    assert PersonaLibrary.objects.count() == 1


def test_a_surrogate_pair_is_one_character_and_is_kept(member_client):
    response = member_client.post("/api/debates/", '{"question": "Ship it \\ud83d\\ude00?"}',
                                  content_type="application/json")
    assert response.status_code == 201, response.content
    assert Debate.objects.get().question == "Ship it \U0001F600?"


def test_a_form_never_sees_a_surrogate_its_bytes_are_replaced(member_client):
    """Form bodies are decoded as UTF-8 with invalid bytes replaced (the encoded
    surrogate U+D800 is not UTF-8), so the page needs no check of its own."""
    body = "question=Should+we+%ED%A0%80+go%3F&protocol=council&mode=quick&model=sim/default"
    response = member_client.post("/debates/new", body,
                                  content_type="application/x-www-form-urlencoded")
    assert response.status_code == 302, response.content.decode()[:300]
    assert Debate.objects.get().question == "Should we \ufffd\ufffd\ufffd go?"
