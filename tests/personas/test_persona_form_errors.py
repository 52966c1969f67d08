"""The persona form shows a refusal about one field next to that field: a name already
taken in the library is an error on "Name", not a line above the form."""

from __future__ import annotations

import pytest

from debates.engine.schemas import Persona
from personas.models import LibraryPersona
from personas.services import PersonaError, library_create, persona_create
from tests.web.htmltools import parse

FIELDS = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
          "approach": "Downside first", "bias": "Cautious"}


@pytest.fixture
def library(team, owner):
    library = library_create(team=team, user=owner, name="Finance")
    persona_create(library=library, user=owner, data=Persona(**FIELDS))
    return library


def _field_of(html: str, text: str) -> str | None:
    """The ``has-error`` field block that holds ``text``, by its input's name."""
    doc = parse(html)
    for block in doc.elements:
        if block.tag == "div" and "has-error" in (block.attrs.get("class") or ""):
            inner = html[block.start:block.end]
            if text in inner:
                return next(el.attrs.get("name") for el in parse(inner).elements
                            if el.tag in ("input", "textarea") and el.attrs.get("name"))
    return None


def test_a_taken_name_is_shown_by_the_name_field_on_create_and_edit(member_client, library):
    response = member_client.post(f"/personas/libraries/{library.code}/personas/new",
                                  {**FIELDS, "name": "dana"})
    html = response.content.decode()
    assert response.status_code == 200
    assert _field_of(html, "&#x27;dana&#x27; already exists in Finance") == "name"
    assert "field &#x27;name&#x27;" not in html  # no "field 'name':" prefix on the page
    other = persona_create(library=library, user=None,
                           data=Persona(**{**FIELDS, "name": "Ravi"}))
    response = member_client.post(f"/personas/{other.code}/edit", {**FIELDS})
    assert _field_of(response.content.decode(), "already exists in Finance") == "name"
    assert LibraryPersona.objects.filter(name__iexact="dana").count() == 1


def test_the_api_and_cli_message_still_names_the_field():
    assert str(PersonaError("'Dana' already exists in Finance", field="name")) == \
        "field 'name': 'Dana' already exists in Finance"
    assert str(PersonaError("A library needs a name.")) == "A library needs a name."
