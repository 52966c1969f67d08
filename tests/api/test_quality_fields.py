"""The result's quality wherever an agent or script reads a debate: the API's debate
and list, their OpenAPI schemas, and the MCP tools, whose descriptions say to read it
first (docs/api.md, "The result summary")."""

from __future__ import annotations

import asyncio

import pytest

from accounts.services import api_token_create
from council_site.api import api
from integrations.mcp_server import INSTRUCTIONS, Identity, build_server, result, status
from tests.factories import add_synthesis, make_debate

pytestmark = pytest.mark.django_db

REASON = {"rule": "empty_content.fields", "severity": "doubtful", "where": "round 1",
          "evidence": "stance: ''"}


def finished(team, owner, quality=None):
    debate = make_debate(team, owner)
    synthesis = add_synthesis(debate)
    if quality is not None:
        synthesis.result = {**synthesis.result, "quality": quality,
                            "quality_reasons": [{**REASON, "severity": quality}]}
        synthesis.save()
    debate.status = "succeeded"
    debate.save()
    return debate


def test_the_debate_carries_quality_and_the_whole_summary(member_client, team, owner):
    debate = finished(team, owner, "doubtful")
    data = member_client.get(f"/api/debates/{debate.code}").json()
    assert data["quality"] == "doubtful"
    assert data["summary"]["quality"] == "doubtful"
    assert data["summary"]["quality_reasons"] == [{**REASON, "phase": None, "round": None,
                                                   "agent": None}]
    assert data["summary"]["decision"] == "Migrate in Q3"


def test_no_result_yet_is_null_and_an_older_result_is_sound(member_client, team, owner):
    running = make_debate(team, owner)
    older = finished(team, owner)  # stored without the quality keys
    assert member_client.get(f"/api/debates/{running.code}").json()["quality"] is None
    assert member_client.get(f"/api/debates/{running.code}").json()["summary"] is None
    assert member_client.get(f"/api/debates/{older.code}").json()["quality"] == "sound"
    items = {i["code"]: i["quality"]
             for i in member_client.get("/api/debates/").json()["items"]}
    assert items == {str(running.code): None, str(older.code): "sound"}


def test_the_list_carries_each_debates_quality(member_client, team, owner):
    noise = finished(team, owner, "unusable")
    doubtful = finished(team, owner, "doubtful")
    items = {i["code"]: i["quality"]
             for i in member_client.get("/api/debates/").json()["items"]}
    assert items == {str(noise.code): "unusable", str(doubtful.code): "doubtful"}


def test_openapi_declares_quality_on_the_debate_and_the_list(db):
    schemas = api.get_openapi_schema()["components"]["schemas"]
    for name in ("DebateOut", "DebateListItemOut"):
        quality = schemas[name]["properties"]["quality"]
        assert "Read this first" in quality["description"], name
    summary = schemas["DebateOut"]["properties"]["summary"]
    assert "quality" in str(summary) and "quality_reasons" in str(schemas)


def test_mcp_status_and_result_open_with_quality(member, team, owner):
    debate = finished(team, owner, "unusable")
    _, secret = api_token_create(user=member, name="agent")
    seen = status(Identity(secret), str(debate.code), 0)
    assert next(iter(seen)) == "quality" and seen["quality"] == "unusable"
    out = result(Identity(secret), str(debate.code))
    assert out["quality"] == "unusable"
    assert out["result"]["summary"]["quality_reasons"][0]["rule"] == "empty_content.fields"


def test_mcp_tells_an_agent_to_read_quality_first(db):
    assert "Read \"quality\"" in INSTRUCTIONS and "before anything" in INSTRUCTIONS
    tools = {t.name: t.description or ""
             for t in asyncio.run(build_server("council_unused").list_tools())}
    assert "Read \"quality\" first" in tools["get_result"]
    assert "confirm_quality" in tools["record_decision"]
