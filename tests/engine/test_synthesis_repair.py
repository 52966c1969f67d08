"""A synthesis that names no decision gets exactly one repair call (issue 42, item 4):
the 0.5B run's synthesis set recommended_path and divergence_report both to null."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from debates.engine import get_protocol, resolve_config, run_protocol
from debates.engine.llm.gateway import LLMGateway
from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import Position
from debates.engine.protocols.council.synthesis import build_result
from debates.engine.schemas import CallRecord, CallTag, Phase, SimulatorOptions
from debates.engine.state import DebateState
from tests.engine.test_trajectories import QUESTION, Recorder, agent

from .openai_stub import POSITION, StubServer, completion_body

AGENTS = [agent("Ann", 0.50, [{"updated_confidence": 0.70}]),
          agent("Bo", 0.90, [{"updated_confidence": 0.72}]),
          agent("Cy", 0.71, [{"updated_confidence": None}])]


async def debate(missing: str | None):
    script = {"agents": AGENTS, "synthesis_without_decision": missing}
    state = DebateState(question=QUESTION, config=resolve_config(
        mode="quick", agents=3, max_rounds=1, retry_backoff_s=0.0,
        simulator=SimulatorOptions(script=script)))
    hooks = Recorder()
    await run_protocol(state, hooks)
    assert state.view.failure() is None, state.view.failure()
    return state, build_result(state, usage_from_calls(hooks.calls)), hooks.calls


def synthesis_calls(calls: list[CallRecord]) -> list[tuple[str, bool]]:
    return [(c.purpose, c.ok) for c in calls if c.phase is Phase.SYNTHESIS]


async def test_a_synthesis_without_a_decision_is_repaired_once_and_the_result_says_so():
    state, result, calls = await debate("first")
    assert synthesis_calls(calls) == [("call", True), ("repair", True)]
    assert result.recommended_path is not None
    assert "decision.missing" not in {r.rule for r in result.quality_reasons}
    turn = state.turn(Phase.SYNTHESIS)
    assert turn is not None and turn.repaired is True
    assert [(r.step, r.taken) for r in result.repairs] == [("synthesis", True)]
    assert json.loads(result.model_dump_json())["repairs"] == [
        {"step": "synthesis", "taken": True}]
    report = get_protocol("council").render_markdown(result)
    assert ("*One repair: the first answer of the synthesis step lacked its decision; the "
            "repaired answer is used.*") in report


async def test_a_repair_that_still_names_no_decision_keeps_the_first_and_is_unusable():
    state, result, calls = await debate("always")
    assert synthesis_calls(calls) == [("call", True), ("repair", True)]
    assert result.recommended_path is None and result.divergence_report is None
    assert "decision.missing" in {r.rule for r in result.quality_reasons}
    assert result.quality.value == "unusable"
    assert [(r.step, r.taken) for r in result.repairs] == [("synthesis", False)]
    assert "and so did the repair; the first answer is kept." in get_protocol(
        "council").render_markdown(result)


async def test_a_synthesis_with_its_decision_gets_no_repair_and_the_json_is_unchanged():
    state, result, calls = await debate(None)
    assert synthesis_calls(calls) == [("call", True)]
    turn = state.turn(Phase.SYNTHESIS)
    assert turn is not None and turn.repaired is None
    assert result.repairs == [] and "repairs" not in json.loads(result.model_dump_json())
    assert "One repair" not in get_protocol("council").render_markdown(result)


def test_the_estimate_prices_the_repair_in_the_synthesis_s_worst_case():
    from debates.engine.protocols.council.estimate import SYNTHESIS
    from debates.engine.protocols.estimate import closing_calls

    config = resolve_config(mode="quick", agents=3, max_rounds=1)
    plan = get_protocol("council").planned_calls(config, agents_given=3, question_tokens=30)
    (synthesis,) = [c for c in plan if c.phase is Phase.SYNTHESIS]
    (plain, *_) = closing_calls(config, synthesis_prompt=1000, synthesis_completion=400)
    (repaired, *_) = closing_calls(config, synthesis_prompt=1000, synthesis_completion=400,
                                   decision_repair=True)
    # The repair repeats the prompt, shows the reply and writes the synthesis again.
    assert repaired.prompt_tokens > 2 * plain.prompt_tokens + plain.completion_tokens
    assert repaired.completion_tokens == 2 * plain.completion_tokens
    assert synthesis.completion_tokens == 2 * SYNTHESIS[1]
    from debates.engine.protocols.adversarial import estimate as adversarial
    from debates.engine.protocols.workflow import estimate as workflow

    for protocol, theirs in (("adversarial", adversarial), ("workflow", workflow)):
        # They check no decision: their synthesis is priced without a repair.
        other = get_protocol(protocol).planned_calls(
            resolve_config(protocol=protocol, mode="quick"), agents_given=0,
            question_tokens=30)
        (planned,) = [c for c in other if c.phase is Phase.SYNTHESIS]
        assert planned.completion_tokens == theirs.SYNTHESIS[1]


# ------------------------------------------------------------------ over HTTP


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer().start()
    yield server
    server.stop()


def lacks_conditions(position: Position) -> str | None:
    return None if position.key_assumptions else "key_assumptions is empty"


async def test_the_content_repair_shows_the_reply_and_what_is_missing_over_http(stub):
    bare = {**POSITION, "key_assumptions": []}
    full = {**POSITION, "key_assumptions": ["A weekend of downtime is acceptable"]}
    stub.answers = [(200, completion_body(json.dumps(bare))),
                    (200, completion_body(json.dumps(full)))]
    records: list[CallRecord] = []

    async def on_call(record: CallRecord) -> None:
        records.append(record)

    gateway = LLMGateway(api_base=stub.api_base, api_key="test", timeout_s=10, on_call=on_call)
    outcome = await gateway.structured(
        Position, messages=[{"role": "user", "content": "Should we migrate?"}],
        model="openai/stub-model", tag=CallTag(phase=CouncilPhase.POSITION, agent=0),
        check=lacks_conditions)
    assert outcome.repaired is True and outcome.value.key_assumptions
    assert outcome.attempts == 2
    assert [(r.purpose, r.ok) for r in records] == [("call", True), ("repair", True)]
    repair = stub.requests[1]["body"]["messages"]
    assert json.loads(repair[-2]["content"])["key_assumptions"] == []  # its reply, shown
    assert "key_assumptions is empty" in repair[-1]["content"]
    # Both answers' tokens count in the outcome.
    assert outcome.prompt_tokens == 2 * 21


async def test_a_repair_reply_that_is_invalid_keeps_the_first_answer_over_http(stub):
    bare = {**POSITION, "key_assumptions": []}
    stub.answers = [(200, completion_body(json.dumps(bare))),
                    (200, completion_body("not json at all"))]
    gateway = LLMGateway(api_base=stub.api_base, api_key="test", timeout_s=10)
    outcome = await gateway.structured(
        Position, messages=[{"role": "user", "content": "Should we migrate?"}],
        model="openai/stub-model", tag=CallTag(phase=CouncilPhase.POSITION, agent=0),
        check=lacks_conditions)
    # Exactly one repair: its invalid reply gets no repair of its own.
    assert len(stub.requests) == 2
    assert outcome.repaired is False and outcome.value.key_assumptions == []
    assert outcome.attempts == 2
