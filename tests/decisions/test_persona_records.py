"""The persona API and pages carry each library persona's calibration record, though personas
imports nothing from decisions (decisions hands the records over when it is ready)."""

from __future__ import annotations

import pytest

from decisions.outcomes import outcome_record
from decisions.services import decision_record
from personas import records
from personas.services import library_create, persona_create
from tests.decisions.conftest import OPTIONS
from tests.decisions.panels import debate_with_verdicts as judged
from tests.decisions.panels import persona

NOW, Q3, STAY = OPTIONS


@pytest.fixture
def library(team, owner):
    return library_create(team=team, user=owner, name="Advisers")


def test_a_scored_persona_carries_its_record_and_others_null(member_client, team, owner,
                                                             library):
    dana = persona_create(library=library, user=owner, data=persona("Dana"))
    eli = persona_create(library=library, user=owner, data=persona("Eli"))
    debate = judged(team, owner, [("Dana", dana, STAY, 0.8), ("Composed", None, NOW, 0.6)],
                    before=NOW, after=STAY)
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    outcome_record(debate=debate, user=owner, right_option=STAY, result="worked")
    # [.1, .1, .8] against Stay: (0.01 + 0.01 + 0.04) / 3
    expected = {"scored_decisions": 1, "brier": pytest.approx(0.02), "hits": 1,
                "too_few": True}
    one = member_client.get(f"/api/personas/{dana.code}").json()
    assert one["calibration"] == expected
    assert member_client.get(f"/api/personas/{eli.code}").json()["calibration"] is None
    listed = member_client.get(f"/api/personas/libraries/{library.code}").json()["personas"]
    assert {p["name"]: p["calibration"] for p in listed} == {"Dana": expected, "Eli": None}


def test_without_a_provider_no_persona_has_a_record(member_client, team, owner, library):
    dana = persona_create(library=library, user=owner, data=persona("Dana"))
    debate = judged(team, owner, [("Dana", dana, STAY, 0.8)], before=STAY, after=STAY)
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    outcome_record(debate=debate, user=owner, right_option=STAY, result="worked")
    provider = records._provider
    records.register(None)
    try:
        assert member_client.get(f"/api/personas/{dana.code}").json()["calibration"] is None
    finally:
        records.register(provider)


def test_the_schema_documents_the_record(member_client):
    schema = member_client.get("/api/openapi.json").json()["components"]["schemas"]
    assert set(schema["PersonaRecordOut"]["properties"]) == {
        "scored_decisions", "brier", "hits", "too_few"}
    assert "calibration" in schema["PersonaOut"]["properties"]


def test_the_library_and_persona_pages_show_the_record(viewer_client, team, owner, library):
    dana = persona_create(library=library, user=owner, data=persona("Dana"))
    eli = persona_create(library=library, user=owner, data=persona("Eli"))
    debate = judged(team, owner, [("Dana", dana, STAY, 0.8)], before=STAY, after=STAY)
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    outcome_record(debate=debate, user=owner, right_option=STAY, result="worked")
    page = viewer_client.get(f"/personas/libraries/{library.code}/").content.decode()
    assert "Brier 0.020 over 1 decision" in page and "too few" in page
    assert "not scored yet" in page  # Eli
    mine = viewer_client.get(f"/personas/{dana.code}/").content.decode()
    assert "Calibration: Brier 0.020 over 1 reviewed decision" in mine
    assert "too few to judge" in mine
    assert "No reviewed decision has scored this persona yet." in viewer_client.get(
        f"/personas/{eli.code}/").content.decode()
