"""The MCP server as a coding agent meets it: a subprocess on stdio, driven by the
official MCP client, acting as an API token's user."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from accounts.services import api_token_create, api_token_revoke
from debates.models import Debate, DebateStatus

ROOT = Path(__file__).resolve().parents[2]


def server_env(secret: str) -> dict[str, str]:
    cfg = connection.settings_dict
    assert cfg["ENGINE"].endswith("sqlite3") or "postgres" in cfg["ENGINE"]
    if cfg["ENGINE"].endswith("sqlite3"):
        url = f"sqlite:///{Path(cfg['NAME']).resolve()}"
    else:
        url = (f"postgresql://{cfg.get('USER') or 'postgres'}@{cfg.get('HOST') or '127.0.0.1'}"
               f":{cfg.get('PORT') or 5432}/{cfg['NAME']}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    # The debate runs inline when queued (no worker process to start in this test), so
    # start_debate returns once it has finished and progress arrives in one burst.
    env.update(DATABASE_URL=url, COUNCIL_Q_SYNC="1", COUNCIL_API_TOKEN=secret,
               DJANGO_DEBUG="1", DJANGO_LOG_LEVEL="WARNING", COUNCIL_SIM_LATENCY_MS="0")
    return env


async def session_run(env: dict[str, str], body: Any) -> Any:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["manage.py", "mcp"],
                                   env=env, cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return await body(session)


def structured(result: Any) -> Any:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        data = result.structured_content
        return data.get("result", data) if isinstance(data, dict) and set(data) == {
            "result"} else data
    return json.loads(result.content[0].text)


@pytest.mark.django_db(transaction=True)
def test_mcp_lists_tools_runs_a_simulated_debate_and_reads_its_result(owner, team, viewer):
    _, secret = api_token_create(user=owner, name="agent")
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    async def body(session: Any) -> dict[str, Any]:
        tools = {t.name for t in (await session.list_tools()).tools}
        assert {"start_debate", "get_status", "wait_for_debate", "get_result",
                "list_personas", "list_teams", "record_decision"} <= tools
        teams = structured(await session.call_tool("list_teams", {}))
        assert teams == [{"team": str(team.code), "name": "Acme", "role": "owner"}]
        started = structured(await session.call_tool("start_debate", {
            "question": "Should we adopt a four-day week?", "mode": "quick",
            "model": "sim/default"}))
        waited = structured(await session.call_tool(
            "wait_for_debate", {"code": started["code"], "timeout_seconds": 120},
            progress_callback=on_progress))
        result = structured(await session.call_tool("get_result", {"code": started["code"]}))
        missing = await session.call_tool("get_result", {"code": str(team.code)})
        decided = structured(await session.call_tool("record_decision", {
            "code": started["code"], "option": result["result"]["options"][0],
            "rationale": "The team agreed with the panel."}))
        return {"started": started, "waited": waited, "result": result,
                "missing": missing, "decided": decided}

    out = asyncio.run(session_run(server_env(secret), body))
    debate = Debate.objects.get(code=out["started"]["code"])
    assert debate.team == team and debate.created_by == owner and debate.simulated
    assert debate.status == DebateStatus.SUCCEEDED
    assert out["waited"]["status"] == "succeeded" and out["waited"]["active"] is False
    result = out["result"]
    assert result["status"] == "succeeded"
    assert result["result"]["question"] == "Should we adopt a four-day week?"
    assert result["result"]["stop_reason"] == debate.stop_reason
    assert "unverified_claims" in result["result"] and "degraded" in result["result"]
    # Progress followed the event log, in order.
    assert progress and [p for p, _ in progress] == sorted(p for p, _ in progress)
    assert progress[-1][0] == debate.last_event_seq
    assert any(m and m.startswith("debate_created") for _, m in progress)
    assert out["missing"].is_error
    assert out["decided"]["option"] == result["result"]["options"][0]
    assert debate.decision.rationale == "The team agreed with the panel."


@pytest.mark.django_db(transaction=True)
def test_mcp_acts_with_the_tokens_role_and_stops_when_revoked(viewer, team, owner):
    token, secret = api_token_create(user=viewer, name="viewer agent")

    async def body(session: Any) -> list[Any]:
        refused = await session.call_tool("start_debate", {
            "question": "Should we adopt a four-day week?", "mode": "quick",
            "model": "sim/default"})
        personas = await session.call_tool("list_personas", {})
        await asyncio.to_thread(api_token_revoke, token=token)
        after_revoke = await session.call_tool("list_teams", {})
        return [refused, personas, after_revoke]

    refused, personas, after_revoke = asyncio.run(session_run(server_env(secret), body))
    assert refused.is_error and "Viewers" in refused.content[0].text
    assert not Debate.objects.exists()
    assert not personas.is_error
    assert after_revoke.is_error and "revoked" in after_revoke.content[0].text


@pytest.mark.django_db
def test_a_refused_start_names_the_field_and_saves_nothing(owner, team):
    from mcp.server.mcpserver.exceptions import ToolError

    from integrations.mcp_server import Identity, start

    _, secret = api_token_create(user=owner, name="agent")
    with pytest.raises(ToolError) as refused:
        start(Identity(secret), {"question": "Should we adopt a four-day week?", "agents": 30,
                                 "protocol": "council", "options": ["Yes", "No"]}, None)
    assert str(refused.value).startswith("Refused: ") and "agents:" in str(refused.value)
    assert not Debate.objects.exists()


@pytest.mark.django_db
def test_a_read_only_token_cannot_start_a_debate_over_mcp(owner, team):
    from mcp.server.mcpserver.exceptions import ToolError

    from integrations.mcp_server import Identity, personas, start

    _, secret = api_token_create(user=owner, name="agent", read_only=True)
    identity = Identity(secret)
    with pytest.raises(ToolError, match="read-only"):
        start(identity, {"question": "Should we adopt a four-day week?", "mode": "quick",
                         "model": "sim/default"}, None)
    assert not Debate.objects.exists()
    assert personas(identity, None) == []  # reading still works


@pytest.mark.django_db
def test_a_team_token_reaches_only_its_team_over_mcp(owner, team):
    from mcp.server.mcpserver.exceptions import ToolError

    from accounts.services import team_create
    from debates.engine.schemas import DebateConfig
    from debates.services import debate_create
    from integrations.mcp_server import Identity, personas, start, status, teams

    second = team_create(name="Second", owner=owner)
    first_debate = debate_create(team=team, user=owner, question="Hire a second SRE?",
                                 config=DebateConfig(mode="quick"), start=False)
    _, secret = api_token_create(user=owner, name="agent", team=second)
    identity = Identity(secret)
    assert teams(identity) == [{"team": str(second.code), "name": "Second", "role": "owner"}]
    with pytest.raises(ToolError, match="Not found"):
        status(identity, str(first_debate.code), 0)
    with pytest.raises(ToolError, match="No such team"):
        personas(identity, str(team.code))
    with pytest.raises(ToolError):
        start(identity, {"question": "Should we adopt a four-day week?", "mode": "quick",
                         "model": "sim/default"}, str(team.code))
    assert Debate.objects.filter(team=team).count() == 1
    assert not Debate.objects.filter(team=second).exists()


@pytest.mark.django_db
def test_an_expired_token_stops_the_mcp_server_and_its_tools(owner, team, monkeypatch):
    from datetime import timedelta

    from django.core.management import call_command
    from django.core.management.base import CommandError
    from django.utils import timezone
    from mcp.server.mcpserver.exceptions import ToolError

    from accounts.models import ApiToken
    from integrations.mcp_server import Identity, teams

    token, secret = api_token_create(user=owner, name="agent",
                                     expires_at=timezone.now() + timedelta(days=1))
    identity = Identity(secret)
    assert teams(identity)
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now())
    with pytest.raises(ToolError, match="expired"):
        teams(identity)
    monkeypatch.setenv("COUNCIL_API_TOKEN", secret)
    with pytest.raises(CommandError, match="expired"):
        call_command("mcp")


@pytest.mark.django_db
@pytest.mark.parametrize("loses_access", ["removed from the team", "token revoked"])
def test_a_wait_ends_with_a_new_calls_refusal_once_access_is_lost(owner, team, viewer,
                                                                   loses_access, monkeypatch):
    from asgiref.sync import async_to_sync, sync_to_async
    from mcp.server.mcpserver.exceptions import ToolError

    from accounts.models import Membership
    from accounts.services import membership_remove
    from debates.engine.schemas import DebateConfig
    from debates.services import debate_create
    from integrations import mcp_server

    monkeypatch.setattr(mcp_server, "WAIT_POLL_SECONDS", 0.01)
    debate = debate_create(team=team, user=owner, question="Should we hire a second SRE?",
                           config=DebateConfig(mode="quick"), start=False)
    token, secret = api_token_create(user=viewer, name="agent")
    identity = mcp_server.Identity(secret)

    def lose() -> None:
        if loses_access == "token revoked":
            api_token_revoke(token=token)
        else:
            membership_remove(membership=Membership.objects.get(team=team, user=viewer))

    async def report(seq: float, message: str | None = None) -> None:
        await sync_to_async(lose)()  # while the wait goes on: its first event is seen

    with pytest.raises(ToolError) as refused:
        async_to_sync(mcp_server.wait)(identity, str(debate.code), report=report,
                                       timeout_seconds=30, after=0)
    with pytest.raises(ToolError) as new_call:
        mcp_server.status(identity, str(debate.code), 0)
    assert str(refused.value) == str(new_call.value)


@pytest.mark.django_db(transaction=True)
def test_mcp_refusals_name_the_field_and_every_protocol_runs_start_wait_result(owner, team):
    from debates.engine.protocols import known_protocols

    _, secret = api_token_create(user=owner, name="agent")
    protocols = known_protocols()

    async def body(session: Any) -> dict[str, Any]:
        refusals = {
            "long": await session.call_tool("start_debate", {
                "question": "Should we? " * 3000, "mode": "quick", "model": "sim/default"}),
            "persona": await session.call_tool("start_debate", {
                "question": "Should we adopt a four-day week?", "personas": ["not-a-code"]}),
            "seed": await session.call_tool("start_debate", {
                "question": "Should we adopt a four-day week?", "seed": -1}),
            "decision_rule": await session.call_tool("start_debate", {
                "question": "Should we adopt a four-day week?", "protocol": "adversarial",
                "decision_rule": "vote"}),
        }
        walked = {}
        for protocol in protocols:
            started = structured(await session.call_tool("start_debate", {
                "question": "Should we adopt a four-day week?", "mode": "quick",
                "model": "sim/default", "protocol": protocol, "seed": 7,
                "synthesis_model": "sim/judge",
                **({"decision_rule": "confidence"} if protocol == "council" else {}),
                "inline_personas": [{"name": "Dana", "background": "CFO",
                                     "expertise": "Pricing", "approach": "Downside first",
                                     "bias": "Cautious"}]}))
            waited = structured(await session.call_tool(
                "wait_for_debate", {"code": started["code"], "timeout_seconds": 120}))
            result = structured(await session.call_tool("get_result",
                                                        {"code": started["code"]}))
            walked[protocol] = (started, waited, result)
        tools = {t.name: t.description for t in (await session.list_tools()).tools}
        return {"refusals": refusals, "walked": walked, "tools": tools}

    out = asyncio.run(session_run(server_env(secret), body))
    texts = {k: r.content[0].text for k, r in out["refusals"].items()}
    assert all(r.is_error for r in out["refusals"].values())
    assert "question" in texts["long"] and "20,000" in texts["long"], texts["long"]
    assert "personas.0" in texts["persona"], texts["persona"]
    assert "seed" in texts["seed"], texts["seed"]
    assert "decision_rule" in texts["decision_rule"], texts["decision_rule"]
    for protocol, (started, waited, result) in out["walked"].items():
        debate = Debate.objects.get(code=started["code"])
        assert debate.protocol == protocol and debate.settings["seed"] == 7
        if protocol == "council":
            assert debate.settings["decision_rule"] == "confidence"
            assert result["result"]["decision_rule"] == "confidence"
        assert [p["name"] for p in debate.given_personas] == ["Dana"]
        assert waited["active"] is False and waited["status"] == "succeeded", waited
        # The status fields beside the protocol's typed result, as get_result says.
        assert result["stop_reason"] == debate.stop_reason and result["result"]
        # Every protocol's result opens with the same summary, naming that stop reason.
        summary = result["result"]["summary"]
        assert summary["protocol"] == protocol and summary["stop_reason"] == debate.stop_reason
        assert {"decision", "divergence", "degraded", "simulated"} <= set(summary)
        assert result["last_event_seq"] == debate.last_event_seq
    # Descriptions are text, not code: no line starts with source indentation.
    for name, description in out["tools"].items():
        assert not any(line.startswith("    ") for line in description.splitlines()), name
