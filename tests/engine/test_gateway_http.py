"""The gateway over litellm's real HTTP path, against a local OpenAI-compatible stub."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from debates.engine.llm.gateway import CallFailed, LLMGateway
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import Position
from debates.engine.schemas import CallRecord, CallTag

from .openai_stub import POSITION, StubServer, completion_body, error_body

MESSAGES = [{"role": "user", "content": "Should we migrate billing to PostgreSQL?"}]
TAG = CallTag(phase=CouncilPhase.POSITION, agent=0, agent_name="Dana Reyes")


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer().start()
    yield server
    server.stop()


def gateway_for(stub: StubServer, records: list[CallRecord], **kwargs: Any) -> LLMGateway:
    async def on_call(record: CallRecord) -> None:
        records.append(record)

    return LLMGateway(
        api_base=stub.api_base,
        api_key="test",
        backoff_base_s=0.001,
        backoff_max_s=0.01,
        timeout_s=10,
        on_call=on_call,
        **kwargs,
    )


async def test_a_valid_json_answer_is_parsed(stub: StubServer) -> None:
    records: list[CallRecord] = []
    outcome = await gateway_for(stub, records).structured(
        Position, messages=MESSAGES, model="openai/stub-model", tag=TAG, temperature=0.2, seed=7
    )
    assert outcome.value.stance == "Migrate in two stages"
    assert outcome.model == "openai/stub-model"
    assert (outcome.prompt_tokens, outcome.completion_tokens) == (21, 34)
    (request,) = stub.requests
    assert request["body"]["model"] == "stub-model"
    assert request["body"]["messages"] == MESSAGES
    assert request["body"]["temperature"] == 0.2
    assert request["body"]["seed"] == 7
    (record,) = records
    assert record.ok and record.prompt_tokens == 21 and record.completion_tokens == 34


async def test_a_fenced_answer_is_parsed(stub: StubServer) -> None:
    stub.answers = [(200, completion_body(f"```json\n{json.dumps(POSITION)}\n```"))]
    outcome = await gateway_for(stub, []).structured(
        Position, messages=MESSAGES, model="openai/stub-model", tag=TAG
    )
    assert outcome.value.confidence == 0.64


async def test_a_429_is_retried_and_then_succeeds(stub: StubServer) -> None:
    stub.answers = [(429, error_body("Rate limit reached for stub-model", "rate_limit"))]
    records: list[CallRecord] = []
    outcome = await gateway_for(stub, records, max_retries=2).structured(
        Position, messages=MESSAGES, model="openai/stub-model", tag=TAG
    )
    assert outcome.value.stance == "Migrate in two stages"
    assert len(stub.requests) == 2
    assert [(r.ok, r.error_class) for r in records] == [
        (False, "RateLimitError"),
        (True, None),
    ]
    assert "Rate limit reached for stub-model" in (records[0].error or "")


async def test_a_500_fails_with_the_servers_own_message(stub: StubServer) -> None:
    message = "stub exploded: shard 7 unavailable"
    stub.answers = [(500, error_body(message, "server_error")) for _ in range(5)]
    records: list[CallRecord] = []
    with pytest.raises(CallFailed) as caught:
        await gateway_for(stub, records, max_retries=1).structured(
            Position, messages=MESSAGES, model="openai/stub-model", tag=TAG
        )
    assert len(stub.requests) == 2
    assert caught.value.attempts == 2
    assert caught.value.error_class == "InternalServerError"
    assert message in caught.value.message
    assert [r.error_class for r in records] == ["InternalServerError"] * 2


async def test_an_authentication_error_is_not_retried(stub: StubServer) -> None:
    stub.answers = [(401, error_body("Incorrect API key provided: test", "invalid_request"))]
    with pytest.raises(CallFailed) as caught:
        await gateway_for(stub, [], max_retries=3).structured(
            Position, messages=MESSAGES, model="openai/stub-model", tag=TAG
        )
    assert len(stub.requests) == 1
    assert caught.value.error_class == "AuthenticationError"
    assert "Incorrect API key provided" in caught.value.message


async def test_an_invalid_answer_is_repaired_over_http(stub: StubServer) -> None:
    bad = json.dumps(POSITION | {"confidence": 1.4})
    stub.answers = [(200, completion_body(bad))]
    records: list[CallRecord] = []
    outcome = await gateway_for(stub, records).structured(
        Position, messages=MESSAGES, model="openai/stub-model", tag=TAG
    )
    assert outcome.value.confidence == 0.64
    repair = stub.requests[1]["body"]["messages"]
    assert repair[: len(MESSAGES)] == MESSAGES
    assert repair[-2] == {"role": "assistant", "content": bad}
    assert "confidence" in repair[-1]["content"]
    assert [r.purpose for r in records] == ["call", "repair"]


@pytest.mark.parametrize(("mode", "schema_in_prompt"), [
    ("json_schema", False),  # the request's response_format carries it
    ("json_object", True),   # a server may ignore json_object's schema key
    ("prompt", True),        # the prompt is the only place it is given
])
async def test_the_schema_is_stated_in_the_prompt_only_where_the_request_does_not_carry_it(
    stub: StubServer, mode: str, schema_in_prompt: bool
) -> None:
    from debates.engine import prompts

    messages = prompts.messages(system="You are Dana Reyes.", user="Should we migrate?",
                                schema=Position)
    await gateway_for(stub, [], output_mode=mode).structured(
        Position, messages=messages, model="openai/stub-model", tag=TAG
    )
    (request,) = stub.requests
    sent = request["body"]["messages"]
    assert sent[0] == messages[0]
    assert sent[1]["content"].startswith("Should we migrate?")
    assert ('"stance"' in sent[1]["content"]) is schema_in_prompt
