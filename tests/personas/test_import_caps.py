"""An import holds at most MAX_IMPORT_PERSONAS personas and a library at most
MAX_LIBRARY_PERSONAS: one import of 5,000 took 21 s with no cap (issue 27). Refusals say
which cap, at every way in, and save nothing."""

from __future__ import annotations

import json

import pytest

from debates.engine.persona_files import PersonaFileError
from debates.engine.schemas import Persona
from personas import services
from personas.models import LibraryPersona
from personas.services import (
    MAX_IMPORT_PERSONAS,
    PersonaError,
    library_create,
    persona_create,
    persona_fork,
    personas_import,
)


def _file(count: int, prefix: str = "P") -> str:
    return json.dumps([{"name": f"{prefix}{i}", "background": "b", "expertise": "e",
                        "approach": "a", "bias": "x"} for i in range(count)])


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


def test_a_file_over_the_import_cap_is_refused_before_any_persona_is_read(library, owner):
    with pytest.raises(PersonaFileError) as caught:
        personas_import(library=library, user=owner, text=_file(MAX_IMPORT_PERSONAS + 1),
                        filename="many.json")
    assert str(caught.value) == (f"many.json: {MAX_IMPORT_PERSONAS + 1:,} personas, at most "
                                 f"{MAX_IMPORT_PERSONAS:,} allowed in one file")
    assert not LibraryPersona.objects.exists()


def test_the_api_answers_400_naming_the_import_cap(member_client, library):
    response = member_client.post(f"/api/personas/libraries/{library.code}/import",
                                  {"filename": "many.json",
                                   "text": _file(MAX_IMPORT_PERSONAS + 1)},
                                  content_type="application/json")
    assert response.status_code == 400
    assert f"at most {MAX_IMPORT_PERSONAS:,} allowed" in response.json()["message"]


def test_an_import_that_would_overfill_the_library_is_refused_whole(library, owner,
                                                                    monkeypatch):
    monkeypatch.setattr(services, "MAX_LIBRARY_PERSONAS", 3)
    personas_import(library=library, user=owner, text=_file(2), filename="two.json")
    with pytest.raises(PersonaFileError, match="holds 2 personas .* at most 3; 2 more"):
        personas_import(library=library, user=owner, text=_file(2, "Q"), filename="q.json")
    assert library.personas.count() == 2


def test_a_full_library_refuses_a_new_persona_and_a_fork_into_it(library, owner,
                                                                 monkeypatch):
    monkeypatch.setattr(services, "MAX_LIBRARY_PERSONAS", 1)
    first = persona_create(library=library, user=owner, data=Persona(
        name="Dana", background="b", expertise="e", approach="a", bias="x"))
    with pytest.raises(PersonaError, match="at most 1"):
        persona_create(library=library, user=owner, data=Persona(
            name="Omar", background="b", expertise="e", approach="a", bias="x"))
    with pytest.raises(PersonaError, match="at most 1"):
        persona_fork(persona=first, user=owner, target=library)
    assert library.personas.count() == 1
