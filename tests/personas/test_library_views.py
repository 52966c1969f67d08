"""Library and persona pages: create, edit, archive, with validation."""

from __future__ import annotations

import pytest

from personas.models import LibraryPersona, PersonaLibrary
from personas.services import library_create

FIELDS = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
          "approach": "Downside first", "bias": "Cautious"}


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


def test_library_list_shows_the_current_teams_libraries_only(viewer_client, library,
                                                             other_team, outsider):
    library_create(team=other_team, user=outsider, name="Secret plans")
    html = viewer_client.get("/personas/").content.decode()
    assert "Main" in html and "Secret plans" not in html
    assert 'action="/personas/libraries/new"' not in html  # viewers get no forms


def test_viewers_get_no_new_debate_link_they_could_not_follow(viewer_client, member_client,
                                                             library):
    assert 'href="/debates/new"' not in viewer_client.get("/personas/").content.decode()
    assert 'href="/debates/new"' in member_client.get("/personas/").content.decode()
    assert 'href="/debates/new"' not in viewer_client.get("/debates/compare").content.decode()
    assert viewer_client.get("/debates/new").status_code == 403


def test_editor_creates_a_library_in_the_current_team(member_client, team):
    response = member_client.post("/personas/libraries/new", {"name": "Ops"})
    library = PersonaLibrary.objects.get(name="Ops")
    assert library.team == team
    assert response["Location"] == f"/personas/libraries/{library.code}/"


def test_creating_a_persona_through_the_form(member_client, library, member):
    response = member_client.post(f"/personas/libraries/{library.code}/personas/new",
                                  {**FIELDS, "temperature": "0.4"})
    persona = LibraryPersona.objects.get()
    assert response["Location"] == f"/personas/{persona.code}/"
    assert persona.temperature == 0.4
    assert persona.versions.get().changed_by == member


def test_a_blank_field_or_unknown_model_is_shown_on_the_form(member_client, library):
    response = member_client.post(f"/personas/libraries/{library.code}/personas/new",
                                  {**FIELDS, "bias": "   "})
    assert response.status_code == 200 and not LibraryPersona.objects.exists()
    response = member_client.post(f"/personas/libraries/{library.code}/personas/new",
                                  {**FIELDS, "model": "nonsense-model-xyz"})
    assert "unknown model" in response.content.decode()
    assert not LibraryPersona.objects.exists()


def test_a_duplicate_name_is_refused_on_the_form(member_client, library):
    member_client.post(f"/personas/libraries/{library.code}/personas/new", FIELDS)
    response = member_client.post(f"/personas/libraries/{library.code}/personas/new",
                                  {**FIELDS, "name": "dana"})
    assert "already exists" in response.content.decode()
    assert LibraryPersona.objects.count() == 1


def test_archive_and_unarchive(member_client, library):
    member_client.post(f"/personas/libraries/{library.code}/archive")
    library.refresh_from_db()
    assert library.archived
    member_client.post(f"/personas/libraries/{library.code}/unarchive")
    library.refresh_from_db()
    assert not library.archived


def test_persona_text_is_escaped(member_client, library):
    member_client.post(f"/personas/libraries/{library.code}/personas/new",
                       {**FIELDS, "background": "<script>alert(1)</script>"})
    persona = LibraryPersona.objects.get()
    html = member_client.get(f"/personas/{persona.code}/").content.decode()
    assert "<script>alert(1)" not in html and "&lt;script&gt;" in html


def test_only_an_edit_asks_why_the_persona_changed(member_client, library, member):
    new = member_client.get(f"/personas/libraries/{library.code}/personas/new").content.decode()
    assert 'name="note"' not in new and "why you changed it" not in new
    member_client.post(f"/personas/libraries/{library.code}/personas/new", FIELDS)
    persona = LibraryPersona.objects.get(name="Dana")
    edit = member_client.get(f"/personas/{persona.code}/edit").content.decode()
    assert 'name="note"' in edit and "why you changed it" in edit
