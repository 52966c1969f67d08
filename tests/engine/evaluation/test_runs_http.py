"""evaluate_question over litellm's real HTTP path, against a local OpenAI-compatible
stub server on 127.0.0.1 (tests/engine/openai_stub.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from debates.engine.evaluation.runs import EvaluationSpec, evaluate_question, questions_for
from debates.engine.llm.capabilities import configure, parse_model_settings
from tests.engine.openai_stub import StubServer

MODEL = "openai/stub-model"


@pytest.fixture
def stub(monkeypatch) -> Iterator[StubServer]:
    server = StubServer("fills_optional").start()
    monkeypatch.setenv("COUNCIL_TEST_KEY", "sk-test")
    configure(parse_model_settings(
        {MODEL: {"api_base": server.api_base, "api_key_env": "COUNCIL_TEST_KEY"}}))
    yield server
    configure(None)
    server.stop()


def test_a_question_is_debated_over_http_and_every_arm_reads_the_servers_answers(stub):
    spec = EvaluationSpec("compare", n=1, agents=2, model=MODEL)
    question = questions_for(spec).questions[0]
    outcome = asyncio.run(evaluate_question(question, spec))
    requests = list(stub.requests)
    assert requests and {r["body"]["model"] for r in requests} == {"stub-model"}
    assert all(r["path"].rstrip("/") == "/v1/chat/completions" for r in requests)
    # The stub answers every schema it is sent; its verdicts are the debate's options.
    for name in ("single", "vote", "council"):
        arm = outcome.arms[name]
        assert arm.answer in ("yes", "no"), (name, outcome.note)
        assert arm.prompt_tokens > 0 and arm.completion_tokens > 0
    assert outcome.arms["single"].prompt_tokens < outcome.arms["council"].prompt_tokens
    assert outcome.detail["options"] == ["yes", "no"]
