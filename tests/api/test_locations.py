"""Every 201 of the API says where the created thing is read (``Location``)."""

from __future__ import annotations

from council_site.api import api
from council_site.locations import LOCATIONS


def _route(openapi_path: str) -> str:
    """/api/debates/{code}/rerun as Django names the route: api/debates/<uuidstr:code>/rerun."""
    return openapi_path.lstrip("/").replace("{code}", "<uuidstr:code>")


def test_every_route_that_answers_201_has_a_location():
    schema = api.get_openapi_schema()
    creating = [_route(path) for path, ops in schema["paths"].items()
                if "201" in ops.get("post", {}).get("responses", {})]
    assert len(creating) >= 10
    assert [r for r in creating if r not in LOCATIONS] == []
    assert [r for r in LOCATIONS if r not in creating] == []  # no stale rows


def test_a_created_debate_rerun_and_library_point_at_what_reads_them(member_client):
    made = member_client.post("/api/debates/", {"question": "Should we adopt a four-day week?",
                                                "mode": "quick"},
                              content_type="application/json")
    assert made.status_code == 201
    assert made["Location"] == f"/api/debates/{made.json()['code']}"
    assert member_client.get(made["Location"]).status_code == 200
    library = member_client.post("/api/personas/libraries", {"name": "Finance"},
                                 content_type="application/json")
    assert library.status_code == 201, library.content
    assert member_client.get(library["Location"]).json()["code"] == library.json()["code"]
