"""json_object mode states the schema once (issue 39): the request carries it, where
llama.cpp constrains decoding to it, and the prompt names only its keys; a reply that
fails validation shows the server may have ignored it, so the repair and every later
prompt to that model state it whole (docs/models.md, "Structured output modes")."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from debates.engine import prompts
from debates.engine.llm.gateway import LLMGateway
from debates.engine.llm.output_format import sent_schema
from debates.engine.protocols.council.schemas import Position

from .openai_stub import POSITION, StubServer, completion_body
from .test_gateway_http import TAG

MODEL = "openai/stub-model"
TAIL = '"Position":\n{'  # the JSON tail's opening: the whole schema stated


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer().start()
    yield server
    server.stop()


def gateway(stub: StubServer) -> LLMGateway:
    return LLMGateway(api_base=stub.api_base, api_key="test", backoff_base_s=0.001,
                      backoff_max_s=0.01, timeout_s=10, output_mode="json_object")


def asked() -> list[dict[str, str]]:
    return prompts.messages(system="You are Dana Reyes.", user="Should we migrate?",
                            schema=Position)


def bound(stub: StubServer) -> int | None:
    """The text bound the gateway sizes from the context for ``asked()``."""
    gw = gateway(stub)
    return gw.text_bound(Position, MODEL, gw.prompt_tokens(asked(), MODEL, Position))


async def test_the_prompt_names_the_keys_and_the_request_carries_the_schema(stub):
    await gateway(stub).structured(Position, messages=asked(), model=MODEL, tag=TAG)
    (request,) = stub.requests
    body = request["body"]
    user = body["messages"][1]["content"]
    assert user == ('Should we migrate?\n\nReply in JSON with keys "stance","verdict",'
                    '"reasoning","confidence","key_assumptions".')
    assert body["response_format"] == {"type": "json_object",
                                       "schema": sent_schema(Position, bound(stub))}
    assert TAIL not in json.dumps(body["messages"])


async def test_after_an_invalid_reply_the_repair_and_later_prompts_state_the_schema(stub):
    stub.answers = [(200, completion_body(json.dumps({"answer": "migrate"}))),
                    (200, completion_body(json.dumps(POSITION))),
                    (200, completion_body(json.dumps(POSITION)))]
    outcome = await gateway(stub).structured(Position, messages=asked(), model=MODEL, tag=TAG)
    assert outcome.attempts == 2
    first, repair = (r["body"]["messages"] for r in stub.requests)
    assert TAIL not in first[1]["content"]
    assert TAIL in repair[1]["content"] and "corrected JSON object" in repair[-1]["content"]

    await gateway(stub).structured(Position, messages=asked(), model=MODEL, tag=TAG)
    later = stub.requests[2]["body"]
    assert TAIL in later["messages"][1]["content"]
    assert later["response_format"]["schema"] == sent_schema(Position, bound(stub))
