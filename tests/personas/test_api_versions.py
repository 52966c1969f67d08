"""Persona and library writes over the API beyond create: versions (list, show,
restore), fork, archive, library rename and fork; refusals save nothing."""

from __future__ import annotations

import pytest

from debates.engine.schemas import Persona
from personas.models import LibraryPersona, PersonaLibrary, PersonaVersion
from personas.services import library_create, persona_create, persona_update

FIELDS = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
          "approach": "Downside first", "bias": "Cautious"}


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


@pytest.fixture
def persona(library, owner):
    persona = persona_create(library=library, user=owner, data=Persona(**FIELDS))
    return persona_update(persona=persona, user=owner,
                          data=Persona(**{**FIELDS, "bias": "Bold"}), note="braver")


def _send(client, method, url, data=None):
    return client.generic(method, url, __import__("json").dumps(data or {}),
                          content_type="application/json")


def test_versions_list_show_and_restore(member_client, persona):
    base = f"/api/personas/{persona.code}"
    versions = member_client.get(f"{base}/versions").json()
    assert [v["number"] for v in versions] == [2, 1]
    assert versions[0]["note"] == "braver"
    assert versions[0]["changes"] == [{"field": "bias", "old": "Cautious", "new": "Bold"}]
    one = member_client.get(f"{base}/versions/1").json()
    assert one["data"]["bias"] == "Cautious" and one["changed_by"] == "owner"

    restored = _send(member_client, "POST", f"{base}/versions/1/restore")
    assert restored.status_code == 200, restored.content
    assert restored.json()["bias"] == "Cautious"
    latest = member_client.get(f"{base}/versions").json()[0]
    assert latest["number"] == 3 and latest["note"] == "Restored version 1"
    assert latest["changed_by"] == "member"


def test_restoring_the_current_or_a_missing_version_is_refused(member_client, persona):
    base = f"/api/personas/{persona.code}/versions"
    same = _send(member_client, "POST", f"{base}/2/restore")
    assert same.status_code == 409 and same.json()["code"] == "conflict"
    for response in (member_client.get(f"{base}/9"), _send(member_client, "POST",
                                                             f"{base}/9/restore")):
        assert response.status_code == 404 and "no version 9" in response.json()["message"]
    assert PersonaVersion.objects.filter(persona=persona).count() == 2


def test_fork_into_this_or_another_library_of_the_team(member_client, persona, team, owner):
    other = library_create(team=team, user=owner, name="Board")
    here = _send(member_client, "POST", f"/api/personas/{persona.code}/fork")
    assert here.status_code == 201 and here.json()["name"] == "Dana (fork)"
    assert here.json()["forked_from"] == str(persona.code)
    there = _send(member_client, "POST", f"/api/personas/{persona.code}/fork",
                  {"library": str(other.code)})
    assert there.status_code == 201
    assert there.json()["library"] == str(other.code) and there.json()["name"] == "Dana"


def test_fork_into_another_teams_library_is_refused_and_saves_nothing(
        member_client, persona, other_team, outsider):
    theirs = library_create(team=other_team, user=outsider, name="Theirs")
    response = _send(member_client, "POST", f"/api/personas/{persona.code}/fork",
                     {"library": str(theirs.code)})
    assert response.status_code == 422 and "library" in response.json()["errors"]
    assert LibraryPersona.objects.count() == 1


def test_archive_and_unarchive(member_client, persona, library):
    archived = _send(member_client, "POST", f"/api/personas/{persona.code}/archive").json()
    assert archived["archived"] is True
    export = member_client.get(f"/api/personas/libraries/{library.code}/export").json()
    assert export["personas"] == []
    back = _send(member_client, "POST", f"/api/personas/{persona.code}/unarchive").json()
    assert back["archived"] is False
    lib = _send(member_client, "POST", f"/api/personas/libraries/{library.code}/archive").json()
    assert lib["archived"] is True
    lib = _send(member_client, "POST",
                f"/api/personas/libraries/{library.code}/unarchive").json()
    assert lib["archived"] is False


def test_library_rename_keeps_what_is_left_out_and_refuses_a_taken_name(
        member_client, library, team, owner):
    library_create(team=team, user=owner, name="Board")
    url = f"/api/personas/libraries/{library.code}"
    renamed = _send(member_client, "PATCH", url, {"description": "Our advisers"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Main"
    taken = _send(member_client, "PATCH", url, {"name": "board"})
    assert taken.status_code == 400 and "already has a library" in taken.json()["message"]
    blank = _send(member_client, "PATCH", url, {"name": "   "})
    assert blank.status_code == 400
    library.refresh_from_db()
    assert (library.name, library.description) == ("Main", "Our advisers")


def test_library_fork_copies_the_personas(member_client, persona, library):
    response = _send(member_client, "POST", f"/api/personas/libraries/{library.code}/fork",
                     {"name": "Main, trimmed"})
    assert response.status_code == 201, response.content
    fork = PersonaLibrary.objects.get(code=response.json()["code"])
    assert fork.name == "Main, trimmed" and response.json()["persona_count"] == 1
    assert fork.forked_from == library
    taken = _send(member_client, "POST", f"/api/personas/libraries/{library.code}/fork",
                  {"name": "Main"})
    assert taken.status_code == 400
    assert PersonaLibrary.objects.count() == 2  # the refused fork left nothing behind


def test_forks_need_no_body(member_client, persona, library):
    """`curl -X POST …/fork` sends no body at all; the options all have defaults."""
    for url in (f"/api/personas/{persona.code}/fork",
                f"/api/personas/libraries/{library.code}/fork"):
        response = member_client.generic("POST", url, b"")
        assert response.status_code == 201, response.content
