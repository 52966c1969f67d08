"""POST /api/debates/{code}/outcome and GET /api/calibration."""

from __future__ import annotations

import pytest

from decisions.models import Decision, Outcome
from decisions.services import decision_record
from tests.decisions.conftest import OPTIONS
from tests.decisions.panels import debate_with_verdicts

NOW, Q3, STAY = OPTIONS


def _post(client, debate, data):
    return client.post(f"/api/debates/{debate.code}/outcome", data,
                       content_type="application/json")


@pytest.fixture
def decided(debate, owner):
    return decision_record(debate=debate, user=owner, option=STAY, rationale="Too risky.")


def test_an_editor_records_an_outcome(member_client, debate, decided):
    response = _post(member_client, debate, {"right_option": "stay", "result": "worked",
                                             "notes": "Nothing broke."})
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["right_option"], body["result"], body["recorded_by"],
            body["decision_state"]) == (STAY, "worked", "member", "reviewed")


def test_cant_tell_yet_moves_the_review(member_client, debate, decided):
    response = _post(member_client, debate, {"right_option": None,
                                             "review_again_on": "2100-01-01"})
    assert response.status_code == 201, response.content
    assert response.json()["decision_state"] == "decided"
    assert str(Decision.objects.get(pk=decided.pk).review_on) == "2100-01-01"


def test_an_outcome_without_a_decision_is_refused(member_client, debate):
    response = _post(member_client, debate, {"right_option": STAY, "result": "worked"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_request" and "no decision yet" in body["message"]
    assert not Outcome.objects.exists()


def test_a_right_option_outside_the_options_is_refused(member_client, debate, decided):
    response = _post(member_client, debate, {"right_option": "Rewrite", "result": "worked"})
    assert response.status_code == 400
    assert "'Rewrite' is not one of this debate's options" in response.json()["message"]
    assert not Outcome.objects.exists()


def test_right_option_must_be_given_even_if_null(member_client, debate, decided):
    response = _post(member_client, debate, {"result": "worked"})
    assert response.status_code == 422 and "right_option" in response.json()["errors"]
    bad_result = _post(member_client, debate, {"right_option": STAY, "result": "great"})
    assert bad_result.status_code == 422 and "result" in bad_result.json()["errors"]
    assert not Outcome.objects.exists()


def test_viewers_read_calibration_but_record_no_outcome(viewer_client, outsider_client,
                                                        debate, decided):
    assert _post(viewer_client, debate, {"right_option": STAY, "result": "worked"}
                 ).status_code == 403
    assert _post(outsider_client, debate, {"right_option": STAY, "result": "worked"}
                 ).status_code == 404
    assert not Outcome.objects.exists()
    assert viewer_client.get("/api/calibration").status_code == 200


def test_calibration_reports_personas_and_the_panel(member_client, team, owner):
    debate = debate_with_verdicts(team, owner, [("Ana", None, STAY, 0.8), ("Ben", None, NOW, 0.6)],
                                  before=NOW, after=STAY)
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    assert _post(member_client, debate, {"right_option": STAY, "result": "worked"}
                 ).status_code == 201
    body = member_client.get("/api/calibration").json()
    # Ana: [.1, .1, .8] vs Stay -> 0.06/3; Ben: [.6, .2, .2] vs Stay -> (.36 + .04 + .64)/3
    assert [(p["name"], p["scored_decisions"], p["brier"], p["too_few"], p["debate"])
            for p in body["personas"]] == [
        ("Ana", 1, 0.02, True, str(debate.code)),
        ("Ben", 1, round(1.04 / 3, 4), True, str(debate.code))]
    assert body["panel"] == {"decisions_scored": 1, "initial_accuracy": 0.0,
                             "final_accuracy": 1.0, "lift": 1.0}
    assert [b["forecasts"] for b in body["reliability"]] == [0, 0, 0, 1, 1]
