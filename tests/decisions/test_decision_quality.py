"""A decision on a doubtful or unusable result needs the caller's confirmation (form,
API, MCP), carries the result's quality, and shows it; calibration leaves unusable
debates out and says how many (docs/teams.md)."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from accounts.services import api_token_create
from decisions.calibration import left_out_unusable, team_calibration
from decisions.models import Decision
from decisions.outcomes import outcome_record
from decisions.services import QualityNotConfirmed, decision_record
from integrations.mcp_server import Identity, decide
from tests.decisions.conftest import OPTIONS
from tests.decisions.panels import debate_with_verdicts

pytestmark = pytest.mark.django_db

NOW, Q3, STAY = OPTIONS
REASON = {"rule": "degenerate_text.digit_run", "severity": "unusable",
          "where": "the synthesis", "evidence": "1.2.1.1.1.1"}


def flag(debate, quality="unusable"):
    """The debate's stored result as the content checks would leave it."""
    synthesis = debate.synthesis
    synthesis.result = {**synthesis.result, "quality": quality,
                        "quality_reasons": [{**REASON, "severity": quality}]}
    synthesis.save()
    return debate


@pytest.mark.parametrize("quality", ["doubtful", "unusable"])
def test_the_service_refuses_a_flagged_result_without_confirmation(owner, debate, quality):
    flag(debate, quality)
    with pytest.raises(QualityNotConfirmed, match=f"result is {quality} .*digit_run"):
        decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    assert not Decision.objects.exists()
    decision = decision_record(debate=debate, user=owner, option=STAY, rationale="r",
                               confirm_quality=True)
    assert decision.result_quality == quality


def test_a_sound_result_needs_no_confirmation_and_records_sound(owner, debate):
    assert decision_record(debate=debate, user=owner, option=STAY,
                           rationale="r").result_quality == "sound"


def test_the_form_asks_to_confirm_then_stores_and_shows_the_flag(member_client, debate):
    flag(debate)
    url = f"/debates/{debate.code}/decision"
    form = member_client.get(url).content.decode()
    assert 'name="confirm_quality"' in form and 'id="quality-banner"' in form
    body = {"option": STAY, "rationale": "We go anyway.", "review_on": ""}
    refused = member_client.post(url, body)
    assert refused.status_code == 400 and "Decide anyway" in refused.content.decode()
    assert not Decision.objects.exists()
    done = member_client.post(url, {**body, "confirm_quality": "on"})
    assert done.status_code == 302
    assert Decision.objects.get(debate=debate).result_quality == "unusable"
    page = member_client.get(f"/debates/{debate.code}/synthesis").content.decode()
    assert "decided on an unusable result" in page
    log = member_client.get("/decisions/").content.decode()
    assert "decided on an unusable result" in log
    export = member_client.get(f"/debates/{debate.code}/export.md").content.decode()
    assert "decided on an unusable result" in export


def test_a_sound_result_asks_nothing(member_client, debate):
    assert 'name="confirm_quality"' not in member_client.get(
        f"/debates/{debate.code}/decision").content.decode()


def test_the_api_refuses_without_confirm_quality_and_stores_it_with(member_client, debate):
    flag(debate, "doubtful")
    url = f"/api/debates/{debate.code}/decision"
    refused = member_client.post(url, {"option": STAY, "rationale": "r"},
                                 content_type="application/json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "quality_not_confirmed"
    assert "confirm_quality" in refused.json()["errors"]
    assert not Decision.objects.exists()
    done = member_client.post(url, {"option": STAY, "rationale": "r", "confirm_quality": True},
                              content_type="application/json")
    assert done.status_code == 200 and done.json()["result_quality"] == "doubtful"
    assert member_client.get(url).json()["result_quality"] == "doubtful"
    exported = member_client.get(f"/api/debates/{debate.code}/export.json").json()
    assert exported["decision"]["result_quality"] == "doubtful"
    log = member_client.get("/api/decisions/").json()["items"]
    assert [d["result_quality"] for d in log] == ["doubtful"]


def test_mcp_record_decision_needs_confirm_quality(member, debate):
    flag(debate)
    _, secret = api_token_create(user=member, name="agent")
    with pytest.raises(ToolError, match="confirm_quality=true"):
        decide(Identity(secret), str(debate.code), {"option": STAY, "rationale": "r"})
    assert not Decision.objects.exists()
    out = decide(Identity(secret), str(debate.code),
                 {"option": STAY, "rationale": "r", "confirm_quality": True})
    assert out["result_quality"] == "unusable"


def test_calibration_leaves_unusable_debates_out_and_counts_them(team, owner, client):
    sound = debate_with_verdicts(team, owner, [("Ann", None, STAY, 0.9)], before=STAY,
                                 after=STAY)
    noise = flag(debate_with_verdicts(team, owner, [("Bob", None, NOW, 1.0)], before=NOW,
                                      after=NOW))
    doubtful = flag(debate_with_verdicts(team, owner, [("Cy", None, Q3, 0.7)], before=Q3,
                                         after=Q3), "doubtful")
    for debate in (sound, noise, doubtful):
        decision_record(debate=debate, user=owner, option=STAY, rationale="r",
                        confirm_quality=True)
        outcome_record(debate=debate, user=owner, right_option=STAY, result="worked")
    calibration = team_calibration(team=team)
    assert calibration.panel.scored == 2  # the doubtful one still counts
    assert {p.name for p in calibration.personas} == {"Ann", "Cy"}
    assert left_out_unusable(team=team) == 1
    client.force_login(owner)
    assert client.get("/api/calibration").json()["left_out_unusable"] == 1
    page = client.get("/calibration/").content.decode()
    assert 'id="left-out-unusable"' in page and "1 reviewed decision left out" in page
