"""The JSON API at /api/debates: session auth, the same access helper and checks."""

from __future__ import annotations

import json

from debates.engine.protocols.council.schemas import DebateResult
from debates.models import Debate, DebateStatus


def _post(client, url, payload=None):
    return client.post(url, json.dumps(payload or {}), content_type="application/json")


def test_list_is_team_scoped(member_client, make_debate, other_team):
    mine = make_debate(run=False)
    make_debate(run=False, team_=other_team)
    data = member_client.get("/api/debates/").json()["items"]
    assert [d["code"] for d in data] == [str(mine.code)]
    assert data[0]["status"] == "queued"


def test_create_returns_the_code_and_saves_the_settings(member_client):
    response = _post(member_client, "/api/debates/", {
        "question": "Should we adopt a four-day week?", "mode": "quick", "agents": 4})
    assert response.status_code == 201
    debate = Debate.objects.get(code=response.json()["code"])
    assert debate.settings["agents"] == 4 and debate.settings["model"] == "sim/default"


def test_create_refuses_bad_input_with_400_and_saves_nothing(member_client):
    for payload in ({"question": "  "}, {"question": "ok?", "agents": 30},
                    {"question": "ok?", "model": "nonsense"}, {"question": "x" * 20_001},
                    {"question": "ok?", "surprise": 1}):
        response = _post(member_client, "/api/debates/", payload)
        assert response.status_code in (400, 422), payload
        assert "detail" in response.json()
    assert Debate.objects.count() == 0


def test_viewer_cannot_create_or_cancel(viewer_client, make_debate):
    assert _post(viewer_client, "/api/debates/", {"question": "ok?"}).status_code == 403
    debate = make_debate(run=False)
    assert _post(viewer_client, f"/api/debates/{debate.code}/cancel").status_code == 403


def test_anonymous_is_401(client, db):
    assert client.get("/api/debates/").status_code == 401


def test_detail_has_status_metrics_and_agents(member_client, finished):
    data = member_client.get(f"/api/debates/{finished.code}").json()
    assert data["status"] == "succeeded" and data["stop_reason"] == finished.stop_reason
    assert data["metrics"][0]["round"] == 0 and len(data["metrics"]) >= 2
    assert len(data["agents"]) == 3
    assert data["last_event_seq"] == finished.last_event_seq


def test_synthesis_is_the_typed_result(member_client, finished, make_debate):
    data = member_client.get(f"/api/debates/{finished.code}/synthesis").json()
    assert DebateResult.model_validate(data).question == finished.question
    queued = make_debate(run=False)
    assert member_client.get(f"/api/debates/{queued.code}/synthesis").status_code == 404


def test_cancel_then_cancel_again_is_409(member_client, make_debate):
    debate = make_debate(run=False)
    response = _post(member_client, f"/api/debates/{debate.code}/cancel")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.CANCELLED
    assert _post(member_client, f"/api/debates/{debate.code}/cancel").status_code == 409


def test_stop_requests_a_stop(member_client, make_debate):
    debate = make_debate(run=False)
    response = _post(member_client, f"/api/debates/{debate.code}/stop")
    assert response.status_code == 200 and response.json()["stop_requested"] is True


def test_events_after_n_returns_exactly_the_missing_ones(member_client, finished):
    all_events = member_client.get(f"/api/debates/{finished.code}/events").json()
    assert [e["seq"] for e in all_events] == list(range(1, finished.last_event_seq + 1))
    later = member_client.get(f"/api/debates/{finished.code}/events?after=5").json()
    assert [e["seq"] for e in later] == list(range(6, finished.last_event_seq + 1))
    assert member_client.get(f"/api/debates/{finished.code}/events?after=-1").status_code == 422
