"""The persona library JSON API: the same access rules and services as the pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from personas.models import LibraryPersona
from personas.services import library_create

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "personas"
FIELDS = {"name": "Dana", "background": "CFO", "expertise": "Pricing",
          "approach": "Downside first", "bias": "Cautious"}


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Main")


def _post(client, url, data):
    return client.post(url, data, content_type="application/json")


def test_list_libraries_of_the_current_team(viewer_client, library, other_team, outsider):
    library_create(team=other_team, user=outsider, name="Theirs")
    response = viewer_client.get("/api/personas/libraries")
    assert response.status_code == 200
    assert [lib["name"] for lib in response.json()] == ["Main"]


def test_create_persona_then_read_it_with_its_history(member_client, library):
    response = _post(member_client, f"/api/personas/libraries/{library.code}/personas",
                     {**FIELDS, "note": "first"})
    assert response.status_code == 201
    code = response.json()["code"]
    response = member_client.put(f"/api/personas/{code}", {**FIELDS, "bias": "Bold"},
                                 content_type="application/json")
    assert response.status_code == 200 and response.json()["bias"] == "Bold"
    detail = member_client.get(f"/api/personas/{code}").json()
    assert [v["number"] for v in detail["versions"]] == [2, 1]
    assert detail["versions"][0]["changes"] == [
        {"field": "bias", "old": "Cautious", "new": "Bold"}]
    assert detail["usage"] == {"debates": 0, "dissents": 0, "judged": 0}


def test_unknown_persona_fields_are_refused(member_client, library):
    response = _post(member_client, f"/api/personas/libraries/{library.code}/personas",
                     {**FIELDS, "salary": 1})
    assert response.status_code == 422
    assert not LibraryPersona.objects.exists()


def test_import_reports_file_index_and_field(member_client, library):
    path = CASES / "invalid_missing_field.yaml"
    response = _post(member_client, f"/api/personas/libraries/{library.code}/import",
                     {"filename": path.name, "text": path.read_text()})
    assert response.status_code == 400
    assert "invalid_missing_field.yaml: persona 1 (B)" in response.json()["detail"]
    assert "approach" in response.json()["detail"]


def test_import_then_export(member_client, library):
    path = CASES / "valid_list.yaml"
    response = _post(member_client, f"/api/personas/libraries/{library.code}/import",
                     {"filename": path.name, "text": path.read_text()})
    assert response.status_code == 201 and len(response.json()["imported"]) == 3
    exported = member_client.get(f"/api/personas/libraries/{library.code}/export").json()
    assert [p["name"] for p in exported["personas"]] == sorted(
        ["Dana Reyes", "Kenji Watanabe", "Amara Okafor"])


def test_viewer_gets_403_and_outsider_404(viewer_client, outsider_client, library):
    url = f"/api/personas/libraries/{library.code}/personas"
    assert _post(viewer_client, url, FIELDS).status_code == 403
    assert _post(outsider_client, url, FIELDS).status_code == 404
    assert outsider_client.get(f"/api/personas/libraries/{library.code}").status_code == 404
    assert not LibraryPersona.objects.exists()


def test_anonymous_callers_are_unauthorised(client, library):
    assert client.get("/api/personas/libraries").status_code == 401
