"""An unknown protocol is refused with the list of the known ones, and a number of
agents for a protocol with fixed roles is refused, not ignored: the same on the web
form, the API, MCP and the CLI."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from mcp.server.mcpserver.exceptions import ToolError

from accounts.services import api_token_create
from debates.engine.protocols import known_protocols
from debates.models import Debate
from debates.web.forms import DebateForm
from integrations.mcp_server import Identity, start

pytestmark = pytest.mark.django_db

QUESTION = "Should we split the billing service?"
KNOWN = ", ".join(["council", "adversarial", "workflow"])
FIXED = {"adversarial": "a proposer and a critic",
         "workflow": "a researcher, a critic and a synthesizer"}


def api(owner, body) -> dict:
    _, secret = api_token_create(user=owner, name="test")
    answer = Client(HTTP_AUTHORIZATION=f"Bearer {secret}").post(
        "/api/debates/", {"question": QUESTION, "mode": "quick", **body},
        content_type="application/json")
    assert answer.status_code == 400, answer.content
    return answer.json()


def mcp(owner, body) -> str:
    _, secret = api_token_create(user=owner, name="agent")
    with pytest.raises(ToolError) as refused:
        start(Identity(secret), {"question": QUESTION, "mode": "quick", **body}, None)
    return str(refused.value)


def form(team, body) -> dict:
    bound = DebateForm({"question": QUESTION, "mode": "quick", "model": "sim/default",
                        **body}, team=team)
    assert not bound.is_valid()
    return bound.errors


def cli(*args: str) -> str:
    with pytest.raises(CommandError) as refused:
        call_command("debate", QUESTION, *args, stdout=io.StringIO(), stderr=io.StringIO())
    return str(refused.value)


def test_the_known_protocols_are_these():
    assert ", ".join(known_protocols()) == KNOWN


def test_an_unknown_protocol_lists_the_known_ones_everywhere(owner, team):
    assert KNOWN in api(owner, {"protocol": "consensus"})["message"]
    assert KNOWN in mcp(owner, {"protocol": "consensus"})
    assert KNOWN in form(team, {"protocol": "consensus"})["protocol"][0]
    assert "'council', 'adversarial', 'workflow'" in cli("--protocol", "consensus")  # argparse
    assert not Debate.objects.exists()


@pytest.mark.parametrize("protocol", FIXED)
def test_agents_for_a_protocol_with_fixed_roles_is_refused_everywhere(owner, team, protocol):
    refusal = f"the {protocol} protocol always runs {FIXED[protocol]}"
    body = {"protocol": protocol, "agents": 5}
    answer = api(owner, body)
    assert refusal in answer["message"] and refusal in answer["errors"]["agents"][0]
    assert refusal in mcp(owner, body)
    assert refusal in form(team, body)["agents"][0]
    assert refusal in cli("--protocol", protocol, "--agents", "5")
    assert not Debate.objects.exists()


def test_agents_still_size_a_council_and_roles_run_without_agents(owner, team):
    for body in ({"protocol": "council", "agents": 4}, {"protocol": "workflow"}):
        bound = DebateForm({"question": QUESTION, "mode": "quick", "model": "sim/default",
                            **body}, team=team)
        assert bound.is_valid(), bound.errors
