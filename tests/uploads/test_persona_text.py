"""A persona file's text is refused with a 400 naming the file, line and problem when
it holds a NUL or a lone surrogate (written, or escaped as JSON \\u0000 / \\ud800 or
YAML "\\0"), nests too deeply or repeats itself through aliases past the node cap; a
YAML nesting bomb is refused from libyaml's event stream in milliseconds, not after
PyYAML's 14-17 s full parse (issue 39; docs/engine.md, "Uploaded text")."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from debates.engine.persona_files import PersonaFileError, load_persona_text
from personas.models import LibraryPersona
from personas.services import library_create

PERSONA = '"background": "CFO", "expertise": "x", "approach": "x", "bias": "x"'
HOSTILE = {
    "json escaped NUL": ("p.json", '[{"name": "Da\\u0000na",\n ' + PERSONA + "}]", 1, "NUL"),
    "json escaped surrogate": ("p.json", '[{"name": "Dana",\n ' + PERSONA[:-1]
                               + '\\udc00"}]', 2, "surrogate"),
    "yaml escaped NUL": ("p.yaml", '- name: Dana\n  background: "CF\\0O"\n', 2, "NUL"),
    "yaml escaped surrogate": ("p.yaml", '- name: "\\ud800"\n', 1, "surrogate"),
    "yaml bomb": ("p.yaml", "a: " + "[" * 100_000 + "]" * 100_000, 1, "nested too deeply"),
    "json bomb": ("p.json", "[" * 100_000 + "]" * 100_000, 1, "nested too deeply"),
}
LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n"
    for i in range(8))


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


@pytest.mark.parametrize("case", HOSTILE)
def test_the_reader_names_the_file_line_and_problem(case) -> None:
    name, text, line, problem = HOSTILE[case]
    with pytest.raises(PersonaFileError) as caught:
        load_persona_text(text, name)
    assert str(caught.value).startswith(f"{name}: line {line}: ")
    assert problem in str(caught.value)


def test_a_200_kb_yaml_bomb_is_refused_in_well_under_a_second() -> None:
    started = time.monotonic()
    with pytest.raises(PersonaFileError, match="nested too deeply"):
        load_persona_text("- " + "[" * 100_000 + "]" * 100_000, "bomb.yaml")
    assert time.monotonic() - started < 1.0


def test_aliases_count_as_what_they_repeat() -> None:
    with pytest.raises(PersonaFileError, match="an alias counts as what it repeats"):
        load_persona_text(LAUGHS, "laughs.yaml")


def test_a_surrogate_pair_escaped_in_json_is_one_character_and_kept() -> None:
    personas = load_persona_text('[{"name": "Dana \\ud83d\\ude00", ' + PERSONA + "}]", "p.json")
    assert personas[0].name == "Dana \U0001f600"


@pytest.mark.parametrize("case", HOSTILE)
def test_the_import_page_answers_400(member_client, library, case) -> None:
    name, text, line, problem = HOSTILE[case]
    response = member_client.post(f"/personas/libraries/{library.code}/import", {
        "file": SimpleUploadedFile(name, text.encode(), "text/plain"), "format": "yaml"})
    assert response.status_code == 400
    assert f"{name}: line {line}: " in response.content.decode()
    assert not LibraryPersona.objects.exists()


@pytest.mark.parametrize("case", HOSTILE)
def test_the_api_answers_400(member_client, library, case) -> None:
    name, text, line, problem = HOSTILE[case]
    response = member_client.post(f"/api/personas/libraries/{library.code}/import",
                                  {"filename": name, "text": text},
                                  content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"].startswith(f"{name}: line {line}: ")
    assert not LibraryPersona.objects.exists()
