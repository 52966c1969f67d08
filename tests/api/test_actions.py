"""The debate actions a script needs beyond create/read: re-run, one more round, the
Markdown export and the result schema, all with a token."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import api_token_create
from debates.engine.protocols.council.schemas import DebateResult
from debates.engine.schemas import DebateConfig
from debates.models import Debate, DebateStatus
from debates.runtime.execution import run_to_completion
from debates.services import debate_create

pytestmark = pytest.mark.django_db


def bearer(user) -> Client:
    _, secret = api_token_create(user=user, name="test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def test_finished_debate_exports_markdown_reruns_and_gets_one_more_round(
        owner, team, monkeypatch):
    monkeypatch.setenv("COUNCIL_SIM_LATENCY_MS", "0")
    debate = debate_create(team=team, user=owner, question="Should we adopt a four-day week?",
                           config=DebateConfig(mode="quick"), start=False)
    run_to_completion(debate.code)
    client = bearer(owner)

    md = client.get(f"/api/debates/{debate.code}/export.md")
    assert md.status_code == 200 and md["Content-Type"].startswith("text/markdown")
    assert "four-day week" in md.content.decode()

    rerun = client.post(f"/api/debates/{debate.code}/rerun",
                        {"question": "Should we adopt a four-day week in 2027?"},
                        content_type="application/json")
    assert rerun.status_code == 201, rerun.content
    child = Debate.objects.get(code=rerun.json()["code"])
    assert child.parent == debate and child.question.endswith("in 2027?")

    debate.refresh_from_db()
    rounds_before = debate.forced_rounds
    more = client.post(f"/api/debates/{debate.code}/more-round")
    assert more.status_code == 200, more.content
    debate.refresh_from_db()
    assert debate.status == DebateStatus.QUEUED and debate.forced_rounds > rounds_before
    # No synthesis any more: nothing to export until the round has run.
    assert client.get(f"/api/debates/{debate.code}/export.md").status_code == 404
    assert client.post(f"/api/debates/{debate.code}/more-round").status_code == 409


def test_rerun_refuses_a_bad_question(owner, team):
    debate = debate_create(team=team, user=owner, question="Should we adopt a four-day week?",
                           config=DebateConfig(mode="quick"), start=False)
    response = bearer(owner).post(f"/api/debates/{debate.code}/rerun", {"question": " "},
                                  content_type="application/json")
    assert response.status_code == 400
    assert not Debate.objects.filter(parent=debate).exists()


def test_result_schema_is_the_debate_results(owner, team):
    schema = bearer(owner).get("/api/debates/schemas/result").json()
    assert schema == DebateResult.model_json_schema()
    assert {"stop_reason", "degraded", "unverified_claims"} <= set(schema["properties"])


def test_rerun_needs_no_body(owner, team):
    debate = debate_create(team=team, user=owner, question="Should we adopt a four-day week?",
                           config=DebateConfig(mode="quick"), start=False)
    response = bearer(owner).generic("POST", f"/api/debates/{debate.code}/rerun", b"")
    assert response.status_code == 201, response.content
    assert Debate.objects.get(code=response.json()["code"]).question == debate.question


def test_protocols_list_each_result_types_schema(owner, team):
    from debates.engine.protocols import get_protocol, known_protocols

    data = bearer(owner).get("/api/debates/protocols").json()
    assert [p["name"] for p in data] == known_protocols() and data[0]["name"] == "council"
    for item in data:
        model = get_protocol(item["name"]).result_model
        assert item["result_schema"] == model.model_json_schema()
    assert data[0]["result_type"] == DebateResult.__name__
