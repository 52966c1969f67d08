"""Hostile persona input is refused clearly, with nothing saved, at every entry point:
file upload, pasted text, API import, API create and ``manage.py debate --personas``.
Deep nesting used to raise RecursionError (a 500), and fields had no length limit."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.engine.persona_files import MAX_PERSONA_FILE_CHARS, load_persona_text
from debates.engine.schemas import PERSONA_NAME_MAX, PERSONA_TEXT_MAX
from personas.models import LibraryPersona
from personas.services import library_create

DEEP = "[" * 100_000
FIELDS = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
          "approach": "Downside first", "bias": "Cautious"}


def _file(persona: dict[str, str]) -> str:
    return json.dumps([persona, {**FIELDS, "name": "Other"}])


LONG = {
    "background": _file({**FIELDS, "background": "x" * (PERSONA_TEXT_MAX + 1)}),
    "name": _file({**FIELDS, "name": "n" * (PERSONA_NAME_MAX + 1)}),
    "900 KB background": _file({**FIELDS, "background": "x" * 900_000}),
    # Python refuses to read an integer of more than 4,300 digits (a ValueError the
    # parsers let through: a 500 until the reader said so).
    "5,000-digit number": json.dumps([FIELDS])[:-2] + ', "temperature": ' + "9" * 5000 + "}]",
}


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


def _messages(response) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_deeply_nested_text_is_a_persona_file_error_not_a_recursion_error(suffix):
    with pytest.raises(ValueError, match="nested too deeply"):
        load_persona_text(DEEP, f"deep{suffix}")


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_number_too_long_to_read_is_a_persona_file_error(suffix):
    text = ('[{"name": "Dana", "background": "CFO", "expertise": "x", "approach": "x", '
            '"bias": "x", "temperature": ' + "1" * 5000 + "}]")
    with pytest.raises(ValueError, match="a number is longer than 4,300 digits") as caught:
        load_persona_text(text, f"big{suffix}")
    assert str(caught.value).startswith(f"big{suffix}: ")


def test_a_date_yaml_cannot_build_is_a_persona_file_error():
    with pytest.raises(ValueError, match="a value cannot be read"):
        load_persona_text("- {name: Dana, background: 2026-13-01}", "dates.yaml")


def test_text_over_the_size_limit_is_refused_before_parsing():
    with pytest.raises(ValueError, match="at most"):
        load_persona_text(" " * (MAX_PERSONA_FILE_CHARS + 1), "big.yaml")


@pytest.mark.parametrize("text", [DEEP, *LONG.values()], ids=["deep", *LONG])
def test_upload_is_refused_with_a_message_and_nothing_saved(member_client, library, text):
    upload = SimpleUploadedFile("personas.json", text.encode(), "application/json")
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"file": upload, "format": "yaml"})
    assert response.status_code == 400
    assert "Nothing imported" in response.content.decode()
    assert not LibraryPersona.objects.exists()


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_pasted_deep_nesting_is_refused_with_a_message(member_client, library, fmt):
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"text": DEEP, "format": fmt})
    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()
    assert not LibraryPersona.objects.exists()


@pytest.mark.parametrize("text", [DEEP, *LONG.values()], ids=["deep", *LONG])
def test_api_import_answers_400_and_saves_nothing(member_client, library, text):
    response = member_client.post(f"/api/personas/libraries/{library.code}/import",
                                  {"filename": "p.json", "text": text},
                                  content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert not LibraryPersona.objects.exists()


@pytest.mark.parametrize("field,limit", [("name", PERSONA_NAME_MAX),
                                         ("background", PERSONA_TEXT_MAX),
                                         ("bias", PERSONA_TEXT_MAX)])
def test_api_create_refuses_a_field_over_its_limit_and_names_it(member_client, library,
                                                                field, limit):
    url = f"/api/personas/libraries/{library.code}/personas"
    at_limit = member_client.post(url, {**FIELDS, field: "y" * limit},
                                  content_type="application/json")
    assert at_limit.status_code == 201
    LibraryPersona.objects.all().delete()
    response = member_client.post(url, {**FIELDS, field: "y" * (limit + 1)},
                                  content_type="application/json")
    assert response.status_code == 422
    assert field in response.json()["errors"]
    assert not LibraryPersona.objects.exists()


def test_persona_form_refuses_a_900_kb_background(member_client, library):
    response = member_client.post(f"/personas/libraries/{library.code}/personas/new",
                                  {**FIELDS, "background": "x" * 900_000})
    assert response.status_code == 200
    assert f"at most {PERSONA_TEXT_MAX:,}".replace(",", "") in \
        response.content.decode().replace(",", "")
    assert not LibraryPersona.objects.exists()


@pytest.mark.parametrize("text", [DEEP, *LONG.values()], ids=["deep", *LONG])
def test_cli_personas_file_exits_2(tmp_path, text):
    path = tmp_path / "personas.json"
    path.write_text(text)
    with pytest.raises(CommandError) as caught:
        call_command("debate", "Should we?", "--personas", str(path), "--mode", "quick",
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert caught.value.returncode == 2


def test_an_upload_within_the_character_limit_is_imported_however_many_bytes_it_takes(
        member_client, library):
    """The limit is 1,000,000 characters, as documented, not bytes: 900,000 CJK
    characters (2.7 MB of UTF-8) are a valid file."""
    text = "# " + "中" * 900_000 + "\n- {name: Dana, background: CFO, expertise: x, " \
        "approach: x, bias: x}\n"
    upload = SimpleUploadedFile("personas.yaml", text.encode(), "application/yaml")
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"file": upload, "format": "yaml"})
    assert response.status_code == 302
    assert "Imported 1 persona" in _messages(response)
    assert LibraryPersona.objects.filter(library=library).count() == 1


def test_an_upload_that_cannot_be_within_the_limit_is_refused_unread(member_client, library):
    upload = SimpleUploadedFile("personas.yaml", b"#" * (4 * MAX_PERSONA_FILE_CHARS + 1))
    response = member_client.post(f"/personas/libraries/{library.code}/import",
                                  {"file": upload, "format": "yaml"})
    assert response.status_code == 400
    assert "longer than 1,000,000 characters" in response.content.decode()
    assert not LibraryPersona.objects.exists()
