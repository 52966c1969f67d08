"""The evaluations API: list, create, read, cancel, exports; tokens' scopes."""

from __future__ import annotations

import base64
import json

from django.test import Client

from accounts.services import api_token_create
from evaluations import runner
from evaluations.models import Evaluation

BODY = {"set": "compare", "n": 12, "seed": 3, "agents": 3, "sim_accuracy": 0.6}


def post(client: Client, path: str, body: dict | None = None):  # noqa: ANN201
    return client.post(path, json.dumps(body or {}), content_type="application/json")


def token_client(user, **kw) -> Client:  # noqa: ANN001, ANN003
    _, secret = api_token_create(user=user, name="script", **kw)
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def test_create_run_read_and_export(member) -> None:
    client = token_client(member)
    created = post(client, "/api/evaluations/", BODY)
    assert created.status_code == 201, created.content
    code = created.json()["code"]
    while runner.run(code):
        pass
    got = client.get(f"/api/evaluations/{code}").json()
    assert got["status"] == "done" and got["simulated"] is True
    arms = got["report"]["arms"]
    assert set(arms) == {"single", "vote", "council", "synthesis"}
    assert {"accuracy", "ci", "n", "prompt_tokens", "completion_tokens", "cost_usd"} <= set(
        arms["vote"])
    assert "p_value" in got["report"]["paired"]["council_vs_vote"]
    listed = client.get("/api/evaluations/").json()
    assert listed["count"] == 1 and listed["items"][0]["code"] == code
    assert client.get(f"/api/evaluations/{code}/export.json").json()["report"] == got["report"]
    csv_rows = client.get(f"/api/evaluations/{code}/export.csv", {"rows": "questions"})
    assert csv_rows["Content-Type"].startswith("text/csv")
    assert len(csv_rows.content.decode().strip().splitlines()) == 1 + 12


def test_a_refused_upload_lists_its_problems_and_saves_nothing(member) -> None:
    text = '{"question": "Q?", "options": ["a", "b"], "answer": "c"}\n'
    response = post(token_client(member), "/api/evaluations/", {
        **BODY, "set": "upload", "upload": {"filename": "q.jsonl", "content": text}})
    assert response.status_code == 400
    assert response.json()["errors"]["upload"][0].startswith("line 1:")
    assert Evaluation.objects.count() == 0


def test_a_base64_upload(member) -> None:
    data = base64.b64encode(b"question,options,answer\nIs 3 > 2?,yes|no,yes\n").decode()
    response = post(token_client(member), "/api/evaluations/", {
        **BODY, "set": "upload",
        "upload": {"filename": "q.csv", "content": data, "content_encoding": "base64"}})
    assert response.status_code == 201
    assert Evaluation.objects.get().total == 1


def test_bad_input_is_a_400_or_422(member) -> None:
    client = token_client(member)
    assert post(client, "/api/evaluations/", {**BODY, "arms": ["debate"]}).status_code == 400
    assert post(client, "/api/evaluations/", {**BODY, "n": 0}).status_code == 422
    assert post(client, "/api/evaluations/", {**BODY, "extra": 1}).status_code == 422
    assert Evaluation.objects.count() == 0


def test_read_only_tokens_read_but_do_not_start(member, viewer) -> None:
    assert post(token_client(member, read_only=True), "/api/evaluations/",
                BODY).status_code == 403
    assert post(token_client(viewer), "/api/evaluations/", BODY).status_code == 403
    assert token_client(viewer).get("/api/evaluations/").status_code == 200


def test_cancel_and_conflict(member) -> None:
    client = token_client(member)
    code = post(client, "/api/evaluations/", BODY).json()["code"]
    assert post(client, f"/api/evaluations/{code}/cancel").json()["status"] == "cancelled"
    assert post(client, f"/api/evaluations/{code}/cancel").status_code == 409


def test_other_teams_get_404(member, outsider) -> None:
    code = post(token_client(member), "/api/evaluations/", BODY).json()["code"]
    other = token_client(outsider)
    for path in ("", "/export.json", "/export.csv"):
        assert other.get(f"/api/evaluations/{code}{path}").status_code == 404
    assert post(other, f"/api/evaluations/{code}/cancel").status_code == 404


def test_the_mixed_arms_through_the_api(member) -> None:
    client = token_client(member)
    body = {**BODY, "n": 2, "arms": ["vote", "mixed_vote"], "panel_models": ["sim/a", "sim/b"]}
    created = post(client, "/api/evaluations/", body)
    assert created.status_code == 201, created.content
    code = created.json()["code"]
    while runner.run(code):
        pass
    report = client.get(f"/api/evaluations/{code}").json()["report"]
    assert list(report["arms"]) == ["vote", "mixed_vote"]
    assert report["arms"]["mixed_vote"]["models"] == ["sim/a", "sim/b", "sim/a"]
    assert report["paired"]["mixed_vote_vs_vote"]["first"] == "mixed_vote"
    refused = post(client, "/api/evaluations/", {**body, "panel_models": ["sim/a", "gpt-x?"]})
    assert refused.status_code == 400
    refused = post(client, "/api/evaluations/", {**body, "panel_models": ["openai/gpt-4o-mini",
                                                                          "sim/b"]})
    assert refused.status_code == 400 and "simulated models" in refused.content.decode()
