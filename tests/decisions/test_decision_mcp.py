"""record_decision over MCP: the API's route function behind the tool, so an agent
records what its token's user may, and a refusal says why with nothing saved."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from accounts.services import api_token_create
from decisions.models import Decision
from integrations.mcp_server import Identity, decide


def identity(user, **kw) -> Identity:
    _, secret = api_token_create(user=user, name="agent", **kw)
    return Identity(secret)


def test_an_editor_records_a_decision(member, debate):
    out = decide(identity(member), str(debate.code),
                 {"option": "Stay", "rationale": "The user chose to wait."})
    assert out["option"] == "Stay" and out["decided_by"] == "member"
    assert out["review_on"] and out["state"] == "decided"
    assert Decision.objects.get(debate=debate).rationale == "The user chose to wait."


def test_no_review_and_a_change_keep_the_earlier_version(member, debate):
    decide(identity(member), str(debate.code), {"option": "Stay", "rationale": "r"})
    out = decide(identity(member), str(debate.code),
                 {"choice": "Do both", "rationale": "r2", "review_on": None})
    assert out["review_on"] is None and out["version"] == 2
    assert out["earlier_versions"][0]["option"] == "Stay"


@pytest.mark.parametrize("payload, message", [
    ({"option": "Maybe", "rationale": "r"}, "is not one of this debate's options"),
    ({"option": "Stay", "rationale": "r", "review_on": "2001-01-01"}, "is in the past"),
])
def test_bad_input_is_refused_and_nothing_saved(member, debate, payload, message):
    with pytest.raises(ToolError, match=message):
        decide(identity(member), str(debate.code), payload)
    assert not Decision.objects.exists()


def test_viewers_read_only_tokens_and_outsiders_are_refused(viewer, owner, outsider, debate):
    body = {"option": "Stay", "rationale": "r"}
    with pytest.raises(ToolError, match="Viewers can read"):
        decide(identity(viewer), str(debate.code), body)
    with pytest.raises(ToolError, match="read-only"):
        decide(identity(owner, read_only=True), str(debate.code), body)
    with pytest.raises(ToolError, match="Not found"):
        decide(identity(outsider), str(debate.code), body)
    assert not Decision.objects.exists()
