"""The sources API and MCP tools: upload (base64 JSON), list, get, delete, and a debate
started with sources through each."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from accounts.services import api_token_create
from debates.models import Debate
from integrations import mcp_server
from sources.models import Source
from sources.services import extract_version
from tests.source_files import pdf_bytes, zip_bomb

pytestmark = pytest.mark.django_db


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_upload_list_get_delete(owner_client, team):
    answer = post(owner_client, "/api/sources/",
                  {"filename": "costs.pdf", "content_base64": b64(pdf_bytes(["Kafka: 4,200"]))})
    assert answer.status_code == 201, answer.content
    created = answer.json()
    assert created["current"]["status"] == "pending" and created["current"]["kind"] == "pdf"
    extract_version(created["current"]["code"])
    listed = owner_client.get("/api/sources/").json()
    assert [s["current"]["status"] for s in listed] == ["ready"]
    detail = owner_client.get(f"/api/sources/{created['code']}").json()
    assert "Kafka: 4,200" in detail["text"] and detail["passages"] == 1
    usage = owner_client.get("/api/sources/usage").json()
    assert usage["used_bytes"] == created["current"]["size"]
    version = post(owner_client, f"/api/sources/{created['code']}/versions",
                   {"filename": "costs.txt", "content_base64": b64(b"new numbers")})
    assert version.status_code == 201 and version.json()["current"]["number"] == 2
    assert owner_client.delete(f"/api/sources/{created['code']}").json()["deleted"] is True
    assert not Source.objects.exists()


@pytest.mark.parametrize(("body", "says"), [
    ({"filename": "bomb.docx", "content_base64": b64(zip_bomb("docx"))}, "zip bomb"),
    ({"filename": "x.txt", "content_base64": "***"}, "not base64"),
    ({"filename": "x.exe", "content_base64": b64(b"MZ")}, "not read"),
])
def test_refused_uploads_save_nothing(owner_client, team, body, says):
    answer = post(owner_client, "/api/sources/", body)
    assert answer.status_code == 400 and says in answer.json()["message"]
    assert not Source.objects.exists()


def test_a_debate_created_with_sources(owner_client, team):
    created = post(owner_client, "/api/sources/",
                   {"filename": "notes.md", "content_base64": b64(b"# Notes\n\nUse SQS.")}).json()
    answer = post(owner_client, "/api/debates/", {
        "question": "Kafka or SQS for the event bus?", "mode": "quick", "model": "sim/default",
        "sources": [created["code"]]})
    assert answer.status_code == 201, answer.content
    debate = Debate.objects.get(code=answer.json()["code"])
    assert [lk.title for lk in debate.source_links.all()] == ["notes"]
    rerun = post(owner_client, f"/api/debates/{debate.code}/rerun", {"sources": []})
    assert rerun.status_code == 201
    assert not Debate.objects.get(code=rerun.json()["code"]).source_links.exists()


def test_mcp_tools_list_get_upload_and_refuse_viewers(owner, viewer, team, outsider):
    _, secret = api_token_create(user=owner, name="agent")
    identity = mcp_server.Identity(secret)
    uploaded = mcp_server.source_upload(
        identity, {"filename": "plan.txt", "content_base64": b64(b"The plan.")}, None)
    extract_version(uploaded["current"]["code"])
    assert [s["title"] for s in mcp_server.sources_list(identity, None)] == ["plan"]
    assert mcp_server.source_get(identity, uploaded["code"])["text"] == "The plan."
    with pytest.raises(ToolError, match="zip bomb"):
        mcp_server.source_upload(
            identity, {"filename": "b.xlsx", "content_base64": b64(zip_bomb("xlsx"))}, None)

    _, viewer_secret = api_token_create(user=viewer, name="agent")
    reader = mcp_server.Identity(viewer_secret)
    assert mcp_server.source_get(reader, uploaded["code"])["title"] == "plan"
    with pytest.raises(ToolError):
        mcp_server.source_upload(
            reader, {"filename": "v.txt", "content_base64": b64(b"v")}, None)
    _, outsider_secret = api_token_create(user=outsider, name="agent")
    with pytest.raises(ToolError, match="Not found"):
        mcp_server.source_get(mcp_server.Identity(outsider_secret), uploaded["code"])
    assert Source.objects.count() == 1

    tools = asyncio.run(mcp_server.build_server(secret).list_tools())
    names = {t.name for t in tools}
    assert {"list_sources", "get_source", "upload_source"} <= names
