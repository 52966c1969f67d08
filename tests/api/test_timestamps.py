"""One spelling of a moment everywhere the API family sends one: RFC 3339, UTC, ``Z``,
as pydantic (and so the MCP tools) writes it (docs/api.md, "Timestamps")."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone

from pydantic import BaseModel

from api_kit.timestamps import rfc3339
from debates.api.events import _sse
from debates.models import DebateEvent
from evaluations.exports import evaluation_json
from tests.factories import make_debate

RFC3339_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$")


class _Stamped(BaseModel):
    at: datetime


def test_the_spelling_is_pydantics_in_utc_whatever_the_zone_given():
    tokyo = datetime(2026, 12, 4, 12, 30, 5, 120000, tzinfo=timezone(timedelta(hours=9)))
    assert rfc3339(tokyo) == "2026-12-04T03:30:05.120000Z"
    whole = datetime(2026, 12, 4, 3, 30, 5, tzinfo=UTC)
    assert rfc3339(whole) == _Stamped(at=whole).model_dump(mode="json")["at"]
    assert rfc3339(whole) == "2026-12-04T03:30:05Z"


def test_rest_answers_event_streams_and_exports_agree(member_client, team, member):
    debate = make_debate(team, member)
    rest = member_client.get(f"/api/debates/{debate.code}").json()["created_at"]
    assert RFC3339_UTC.match(rest), rest
    assert rest == rfc3339(debate.created_at)  # not cut to milliseconds
    event = DebateEvent.objects.filter(debate=debate).first() or DebateEvent.objects.create(
        debate=debate, seq=1, kind="note", payload={})
    streamed = json.loads(_sse(event).split("data: ", 1)[1])["created_at"]
    assert RFC3339_UTC.match(streamed) and streamed == rfc3339(event.created_at)


def test_an_evaluation_export_spells_its_moments_alike(member_client):
    answer = member_client.post("/api/evaluations/", {
        "set": "arithmetic", "n": 2, "arms": ["single"], "agents": 3, "sim_accuracy": 0.7},
        content_type="application/json")
    assert answer.status_code == 201, answer.content
    from evaluations.models import Evaluation

    exported = evaluation_json(Evaluation.objects.get(code=answer.json()["code"]))
    assert RFC3339_UTC.match(exported["created_at"]), exported["created_at"]
