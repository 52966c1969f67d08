"""A list's date filters take what their schema says, YYYY-MM-DD: ``created_to=0`` was
read as a Unix time (1970-01-01) and answered 200 (issue 39; docs/api.md)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("value", ["0", "1700000000", "2026-1-1", "yesterday", "2026-02-30"])
@pytest.mark.parametrize("field", ["created_from", "created_to"])
def test_a_date_filter_that_is_no_date_is_a_422_naming_the_field(member_client, field,
                                                                  value) -> None:
    response = member_client.get("/api/debates/", {field: value})
    assert response.status_code == 422, response.content
    assert field in str(response.json()["errors"])


def test_a_date_filter_as_its_schema_says_is_taken(member_client) -> None:
    response = member_client.get("/api/debates/", {"created_from": "2026-01-01",
                                                  "created_to": "2026-12-31"})
    assert response.status_code == 200
    schema = member_client.get("/api/openapi.json").json()
    listed = schema["paths"]["/api/debates/"]["get"]["parameters"]
    created_to = next(p for p in listed if p["name"] == "created_to")
    assert "date" in str(created_to["schema"])
