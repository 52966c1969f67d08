"""evaluate_question over litellm's real HTTP path, against a local OpenAI-compatible
stub server on 127.0.0.1 (tests/engine/openai_stub.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from debates.engine.evaluation.report import report_json, report_markdown
from debates.engine.evaluation.runs import (
    EvaluationSpec,
    evaluate_question,
    questions_for,
    report_from_outcomes,
)
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
        assert arm.cost_usd is None, name  # the stub model has no price: unknown, not $0
    assert outcome.arms["single"].prompt_tokens < outcome.arms["council"].prompt_tokens
    assert outcome.detail["options"] == ["yes", "no"]


def test_a_model_without_a_price_reports_its_cost_as_unknown_not_free(stub):
    spec = EvaluationSpec("compare", n=1, agents=2, model=MODEL, arms=("single", "council"))
    labelled = questions_for(spec)
    outcome = asyncio.run(evaluate_question(labelled.questions[0], spec))
    report = report_from_outcomes(labelled, spec, [outcome])
    arms = report_json(report)["arms"]
    assert arms["council"]["cost_known"] is False and arms["council"]["cost_usd"] is None
    assert arms["council"]["cost_per_right_usd"] is None
    council_row = next(line for line in report_markdown(report).splitlines()
                       if line.startswith("| council "))
    assert "unknown" in council_row and "$0.0000" not in council_row
