"""Exporting a library in the persona file format, and importing it back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from debates.engine.persona_files import load_persona_text
from personas.services import (
    library_create,
    persona_set_archived,
    personas_export,
    personas_import,
)

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "personas"


@pytest.fixture
def library(team, owner):
    library = library_create(team=team, user=owner, name="Board Advisers")
    personas_import(library=library, user=owner, text=(CASES / "valid_object.json").read_text(),
                    filename="valid_object.json")
    return library


def test_json_export_is_an_object_with_a_personas_list(library):
    text, filename = personas_export(library=library, fmt="json")
    assert filename == "board-advisers.json"
    data = json.loads(text)
    assert list(data) == ["personas"]
    assert data["personas"][0]["name"] == "Lena Fischer"
    assert data["personas"][0]["model"] == "sim/default"
    assert "temperature" not in data["personas"][1]  # unset fields stay out


def test_yaml_export_is_a_top_level_list(library):
    text, filename = personas_export(library=library, fmt="yaml")
    assert filename.endswith(".yaml")
    assert isinstance(yaml.safe_load(text), list)


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_an_export_imports_into_another_library_unchanged(library, team, owner, fmt):
    text, filename = personas_export(library=library, fmt=fmt)
    assert load_persona_text(text, filename)  # the engine reads it as a persona file
    copy = library_create(team=team, user=owner, name="Copy")
    personas_import(library=copy, user=owner, text=text, filename=filename)
    original = [p.as_persona() for p in library.personas.all()]
    assert [p.as_persona() for p in copy.personas.all()] == original


def test_archived_personas_are_not_exported(library):
    persona_set_archived(persona=library.personas.get(name="Omar Haddad"), archived=True)
    data = json.loads(personas_export(library=library, fmt="json")[0])
    assert [p["name"] for p in data["personas"]] == ["Lena Fischer"]


def test_export_view_downloads_a_file(viewer_client, library):
    response = viewer_client.get(f"/personas/libraries/{library.code}/export?format=yaml")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="board-advisers.yaml"'
    assert "Lena Fischer" in response.content.decode()
    assert viewer_client.get(
        f"/personas/libraries/{library.code}/export?format=xml").status_code == 400
