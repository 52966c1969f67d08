"""The MCP tool record_outcome: the API route's checks, as the token's user."""

from __future__ import annotations

import asyncio

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from accounts.services import api_token_create
from decisions.models import Outcome
from decisions.services import decision_record
from integrations.mcp_server import Identity, build_server, outcome
from tests.decisions.conftest import OPTIONS

NOW, Q3, STAY = OPTIONS


def test_the_tool_is_offered_and_says_when_to_use_it(owner):
    _, secret = api_token_create(user=owner, name="agent")
    tools = {t.name: t for t in asyncio.run(build_server(secret).list_tools())}
    assert "proved right" in tools["record_outcome"].description
    assert "can't tell yet" in tools["record_outcome"].description


def test_an_editors_token_records_an_outcome(member, debate, owner):
    decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    _, secret = api_token_create(user=member, name="agent")
    recorded = outcome(Identity(secret), str(debate.code),
                       {"right_option": "stay", "result": "worked", "notes": "Fine."})
    assert (recorded["right_option"], recorded["decision_state"], recorded["recorded_by"]) == (
        STAY, "reviewed", "member")
    assert recorded["debate"] == str(debate.code)


@pytest.mark.parametrize("who, read_only, decide, payload, refusal", [
    ("member", False, False, {"right_option": STAY, "result": "worked"}, "no decision yet"),
    ("member", False, True, {"right_option": "Rust", "result": "worked"},
     "'Rust' is not one of this debate's options"),
    ("member", False, True, {"right_option": STAY, "result": "great"}, "result:"),
    ("viewer", False, True, {"right_option": STAY, "result": "worked"}, "Viewers"),
    ("member", True, True, {"right_option": STAY, "result": "worked"}, "read-only"),
    ("outsider", False, True, {"right_option": STAY, "result": "worked"}, "Not found"),
])
def test_refusals_say_why_and_save_nothing(request, debate, owner, who, read_only, decide,
                                           payload, refusal):
    if decide:
        decision_record(debate=debate, user=owner, option=STAY, rationale="r")
    _, secret = api_token_create(user=request.getfixturevalue(who), name="agent",
                                 read_only=read_only)
    with pytest.raises(ToolError, match=refusal):
        outcome(Identity(secret), str(debate.code), payload)
    assert not Outcome.objects.exists()
