"""What a decision can name is the same everywhere, under every protocol: the result's
``options``, the API's ``decision_options``, and the options a refusal lists; and the
options it lists are accepted."""

from __future__ import annotations

import pytest
from django.test import Client
from mcp.server.mcpserver.exceptions import ToolError

from accounts.services import api_token_create
from debates.engine.schemas import DebateConfig
from debates.models import Synthesis
from debates.runtime.execution import run_to_completion
from debates.services import debate_create
from decisions.models import Decision
from integrations.mcp_server import Identity, decide

pytestmark = pytest.mark.django_db

QUESTION = "Should we use Kafka or SQS for the billing events?"


@pytest.mark.parametrize("protocol", ["council", "adversarial", "workflow"])
def test_every_protocol_says_what_can_be_decided_and_accepts_it(team, member, protocol):
    debate = debate_create(team=team, user=member, question=QUESTION, start=False,
                           config=DebateConfig(mode="quick", protocol=protocol))
    run_to_completion(debate.code)
    options = Synthesis.objects.get(debate=debate).result["options"]
    assert options == ["Kafka", "SQS", "conditional"]  # the question's, not for/against

    _, secret = api_token_create(user=member, name="agent")
    detail = Client(HTTP_AUTHORIZATION=f"Bearer {secret}").get(
        f"/api/debates/{debate.code}").json()
    assert detail["protocol"] == protocol and detail["decision_options"] == options

    with pytest.raises(ToolError) as refused:
        decide(Identity(secret), str(debate.code), {"option": "for", "rationale": "r"})
    assert f"({', '.join(options)})" in str(refused.value)
    assert not Decision.objects.exists()
    out = decide(Identity(secret), str(debate.code), {"option": "sqs", "rationale": "r"})
    assert out["option"] == "SQS"
