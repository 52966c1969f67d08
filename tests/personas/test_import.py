"""Importing persona files: every shared case file, all-or-nothing, names checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from debates.engine.persona_files import PersonaFileError
from debates.engine.schemas import Persona
from personas.models import LibraryPersona, PersonaVersion
from personas.services import library_create, persona_create, personas_import

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "personas"
VALID = sorted(CASES.glob("valid_*"))
INVALID = sorted(CASES.glob("invalid_*"))
# What each invalid file's error must name besides the file: (index, field) or a phrase.
EXPECTED = {
    "invalid_duplicate_names.yaml": ("persona 1", "name"),
    "invalid_missing_field.yaml": ("persona 1", "approach"),
    "invalid_not_a_list.json": ("expected a list", ""),
    "invalid_syntax.yaml": ("not valid YAML", "line"),
    "invalid_unknown_field.json": ("persona 0", "salary"),
}


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Advisers")


def test_every_case_file_is_covered():
    assert {p.name for p in INVALID} == set(EXPECTED)
    assert len(VALID) >= 2


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_file_imports_every_persona(path, library, owner):
    created = personas_import(library=library, user=owner, text=path.read_text(),
                              filename=path.name)
    assert len(created) >= 2
    assert library.personas.count() == len(created)
    assert all(p.versions.get().note == f"Imported from {path.name}" for p in created)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_file_is_refused_naming_the_problem_and_imports_nothing(path, library, owner):
    persona_count, version_count = LibraryPersona.objects.count(), PersonaVersion.objects.count()
    with pytest.raises(PersonaFileError) as caught:
        personas_import(library=library, user=owner, text=path.read_text(), filename=path.name)
    message = str(caught.value)
    assert message.startswith(path.name)
    for expected in EXPECTED[path.name]:
        assert expected in message
    assert LibraryPersona.objects.count() == persona_count
    assert PersonaVersion.objects.count() == version_count


def test_a_name_already_in_the_library_refuses_the_whole_file(library, owner):
    path = CASES / "valid_list.yaml"
    persona_create(library=library, user=owner, data=Persona(
        name="kenji watanabe", background="b", expertise="e", approach="a", bias="x"))
    with pytest.raises(PersonaFileError, match=r"persona 1 \(Kenji Watanabe\).*already exists"):
        personas_import(library=library, user=owner, text=path.read_text(), filename=path.name)
    assert library.personas.count() == 1


def test_import_view_reports_the_error_and_imports_nothing(member_client, library):
    path = CASES / "invalid_missing_field.yaml"
    with path.open("rb") as upload:
        response = member_client.post(f"/personas/libraries/{library.code}/import",
                                      {"file": upload, "format": "yaml"})
    assert response.status_code == 400  # the page with the form, not a redirect to a 200
    html = response.content.decode()
    assert "Nothing imported" in html and "persona 1" in html and "approach" in html
    assert 'role="alert"' in html
    assert library.personas.count() == 0


def test_import_view_keeps_the_pasted_text_with_its_error(member_client, library):
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"text": "- name: [unclosed", "format": "yaml"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "not valid YAML" in html and "- name: [unclosed" in html


def test_import_view_without_a_file_or_text_answers_400(member_client, library):
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"text": "", "format": "yaml"})
    assert response.status_code == 400
    assert "Choose a file or paste its contents." in response.content.decode()


def test_import_view_accepts_pasted_json(member_client, library):
    text = (CASES / "valid_object.json").read_text()
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"text": text, "format": "json"}, follow=True)
    assert "Imported 2 personas" in response.content.decode()
    assert set(library.personas.values_list("name", flat=True)) == {"Lena Fischer",
                                                                  "Omar Haddad"}


def test_import_view_refuses_a_non_utf8_upload(member_client, library):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("latin.yaml", "- name: Jos\xe9".encode("latin-1"))
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"file": upload, "format": "yaml"})
    assert response.status_code == 400
    assert "not UTF-8" in response.content.decode()
    assert library.personas.count() == 0
