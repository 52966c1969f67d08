"""The gateway and engine against local servers that behave like real model servers
(see ``openai_stub``): structured-output modes, bounded calls and context budgets."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from debates.engine import get_protocol, run_protocol
from debates.engine.configure import resolve_config
from debates.engine.hooks import EngineHooks, make_gateway
from debates.engine.llm.gateway import CallFailed, LLMGateway, output_tokens, sent_schema
from debates.engine.llm.output_format import bounded_output_tokens
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import Position, Premortem, SynthesisNarrative
from debates.engine.protocols.council.synthesis import build_result, synthesis_messages
from debates.engine.schemas import CallRecord, CallTag, Mode, Phase, TurnStatus, Usage
from debates.engine.state import DebateState, Step
from tests.waiting import wait_until_async

from .openai_stub import LLAMACPP_REJECTION, RAMBLE, StubServer, completion_body, error_body

MESSAGES = [{"role": "user", "content": "Should we migrate billing to PostgreSQL?"}]
TAG = CallTag(phase=CouncilPhase.POSITION, agent=0, agent_name="Dana Reyes")


def RAMBLE_AT(length: int) -> str:  # noqa: N802 - reads as the stub's constant
    """What the small-model stub writes in a text field of ``length`` characters."""
    return (RAMBLE * (length // len(RAMBLE) + 1))[:length].strip()


def serve(behaviour: str, **kwargs: Any) -> Iterator[StubServer]:
    server = StubServer(behaviour, **kwargs).start()
    yield server
    server.stop()


@pytest.fixture
def filler() -> Iterator[StubServer]:
    yield from serve("fills_optional")


@pytest.fixture
def llamacpp() -> Iterator[StubServer]:
    yield from serve("llamacpp")


@pytest.fixture
def prose() -> Iterator[StubServer]:
    yield from serve("prose_unless_constrained")


@pytest.fixture
def grammar_limited() -> Iterator[StubServer]:
    yield from serve("grammar_limits")


@pytest.fixture
def small() -> Iterator[StubServer]:
    yield from serve("small_model")


@pytest.fixture
def slow() -> Iterator[StubServer]:
    yield from serve("slow_single_slot", delay_s=3.0)


class Ledger(EngineHooks):
    def __init__(self) -> None:
        self.records: list[CallRecord] = []

    async def on_call(self, record: CallRecord) -> None:
        self.records.append(record)

    async def __call__(self, record: CallRecord) -> None:
        self.records.append(record)


def gateway(stub: StubServer, ledger: Ledger | None = None, **kwargs: Any) -> LLMGateway:
    kwargs.setdefault("backoff_base_s", 0.001)
    kwargs.setdefault("backoff_max_s", 0.01)
    return LLMGateway(api_base=stub.api_base, api_key="test", on_call=ledger, **kwargs)


def bodies(stub: StubServer) -> list[dict[str, Any]]:
    return [r["body"] for r in stub.requests]


# ------------------------------------------------------------------ model output chooses nothing


async def test_a_server_filling_every_optional_field_cannot_choose_the_model(
    filler: StubServer,
) -> None:
    config = resolve_config(mode="quick", model="openai/gpt-4o-mini", temperature=0.4)
    state = DebateState(question="Should we migrate billing to PostgreSQL?", config=config)
    hooks = Ledger()
    gw = make_gateway(state, hooks, api_base=filler.api_base, api_key="test")
    await get_protocol("council").run_step(state, Step(CouncilPhase.COMPOSE), hooks, gw)
    await get_protocol("council").run_step(state, Step(CouncilPhase.PREMORTEM), hooks, gw)

    compose_schema = bodies(filler)[0]["response_format"]["json_schema"]["schema"]
    persona_fields = set(compose_schema["properties"]["personas"]["items"]["properties"])
    assert persona_fields == {"name", "background", "expertise", "approach", "bias"}
    # The server added model prose anyway; it was dropped, so the user's model ran.
    assert all(p.model is None and p.temperature is None for p in state.personas)
    premortems = bodies(filler)[1:]
    assert len(premortems) == 3
    assert {b["model"] for b in premortems} == {"gpt-4o-mini"}
    assert {b["temperature"] for b in premortems} == {0.4}
    turns = [state.turn(CouncilPhase.PREMORTEM, 0, i) for i in range(3)]
    assert all(t is not None and t.status is TurnStatus.OK for t in turns)


# ------------------------------------------------------------------ output modes


async def test_a_json_schema_rejection_moves_to_json_object_and_is_remembered(
    llamacpp: StubServer,
) -> None:
    ledger = Ledger()
    gw = gateway(llamacpp, ledger)
    outcome = await gw.structured(
        Position, messages=MESSAGES, model="openai/local-llama", tag=TAG
    )
    assert 0.0 <= outcome.value.confidence <= 1.0
    first, second = bodies(llamacpp)
    assert first["response_format"]["type"] == "json_schema"
    # An unknown model on a local server: the sent schema bounds its texts by default,
    # sized from the context the prompt leaves.
    expected = gw.text_bound(Position, "openai/local-llama",
                             gw.prompt_tokens(MESSAGES, "openai/local-llama", Position))
    assert expected is not None
    assert second["response_format"] == {
        "type": "json_object", "schema": sent_schema(Position, expected)}
    assert [(r.ok, r.error_class) for r in ledger.records] == [
        (False, "BadRequestError"), (True, None)]
    assert "json_schema rejected" in (ledger.records[0].error or "")
    assert LLAMACPP_REJECTION.split(",")[0] in (ledger.records[0].error or "")

    # The next call (even from another gateway) goes straight to the mode that worked.
    await gateway(llamacpp).structured(
        Position, messages=MESSAGES, model="openai/local-llama", tag=TAG
    )
    assert len(llamacpp.requests) == 3
    assert bodies(llamacpp)[2]["response_format"]["type"] == "json_object"


async def test_a_400_that_does_not_name_the_format_fails_at_once_with_the_servers_words(
    llamacpp: StubServer,
) -> None:
    llamacpp.answers = [(400, {"error": {"message": "model 'local-llama' not loaded",
                                         "type": "invalid_request_error"}})]
    with pytest.raises(CallFailed) as caught:
        await gateway(llamacpp).structured(
            Position, messages=MESSAGES, model="openai/local-llama", tag=TAG
        )
    assert len(llamacpp.requests) == 1  # at once: no retry, so no back-off either
    assert "model 'local-llama' not loaded" in caught.value.message


async def test_a_server_error_naming_the_grammar_moves_to_the_next_mode(
    prose: StubServer,
) -> None:
    # llama.cpp answers a schema whose grammar it cannot build with a server error.
    prose.answers = [(500, error_body(
        "failed to parse grammar: number of repetitions exceeds sane defaults", "server_error",
        500))]
    ledger = Ledger()
    outcome = await gateway(prose, ledger).structured(
        Position, messages=MESSAGES, model="openai/local-llama", tag=TAG
    )
    assert outcome.value.reasoning
    assert [b["response_format"]["type"] for b in bodies(prose)] == [
        "json_schema", "json_object"]
    assert "output mode json_schema rejected" in (ledger.records[0].error or "")


async def test_a_server_error_that_names_nothing_keeps_the_mode(prose: StubServer) -> None:
    out_of_memory = (500, error_body("CUDA out of memory", "server_error", 500))
    prose.answers = [out_of_memory, out_of_memory]
    with pytest.raises(CallFailed) as caught:
        await gateway(prose, max_retries=1).structured(
            Position, messages=MESSAGES, model="openai/local-llama", tag=TAG
        )
    # Retried as a server error, in the same mode: nothing said the format was the problem.
    assert [b["response_format"]["type"] for b in bodies(prose)] == [
        "json_schema", "json_schema"]
    assert "CUDA out of memory" in caught.value.message


async def test_a_dead_server_fails_the_first_call_at_once_naming_it() -> None:
    server = StubServer().start()
    server.stop()
    ledger = Ledger()
    with pytest.raises(CallFailed) as caught:
        await gateway(server, ledger, max_retries=5).structured(
            Position, messages=MESSAGES, model="openai/local-llama", tag=TAG
        )
    # One attempt: no retries, no other output modes.
    assert [(r.ok, r.error_class) for r in ledger.records] == [(False, "ServerUnreachable")]
    assert caught.value.error_class == "ServerUnreachable"
    assert server.api_base in caught.value.message
    assert "cannot be reached" in caught.value.message


async def test_a_server_that_dies_on_the_first_call_is_reported_without_trying_other_modes(
) -> None:
    # llama-cpp-python's server process died on the grammar of the first request.
    server = StubServer("dies").start()
    ledger = Ledger()
    try:
        with pytest.raises(CallFailed) as caught:
            await gateway(server, ledger, max_retries=5).structured(
                Position, messages=MESSAGES, model="openai/local-llama", tag=TAG
            )
    finally:
        server.stop()
    assert len(server.requests) == 1
    assert server.requests[0]["body"]["response_format"]["type"] == "json_schema"
    # The lost connection is retried once in the same mode, and nobody is there.
    assert [r.error_class for r in ledger.records] == ["ConnectionLost", "ServerUnreachable"]
    assert "closed the connection without a reply" in (ledger.records[0].error or "")
    assert server.api_base in caught.value.message


async def test_a_prose_server_fails_in_prompt_mode_and_works_when_constrained(
    prose: StubServer,
) -> None:
    with pytest.raises(CallFailed) as caught:
        await gateway(prose, output_mode="prompt").structured(
            Position, messages=MESSAGES, model="openai/prose-model", tag=TAG
        )
    assert caught.value.error_class == "ValidationError"
    assert all("response_format" not in b for b in bodies(prose))

    for mode in ("json_schema", "json_object", "tools"):
        outcome = await gateway(prose, output_mode=mode).structured(
            Position, messages=MESSAGES, model="openai/prose-model", tag=TAG
        )
        assert outcome.value.reasoning, mode
    tools_body = bodies(prose)[-1]
    assert tools_body["tool_choice"]["function"]["name"] == "Position"
    assert "response_format" not in tools_body


async def test_a_per_model_setting_chooses_the_mode(
    prose: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COUNCIL_MODELS", '{"openai/prose-model": {"output_mode": "tools"}}')
    from debates.engine.llm import capabilities as caps_module

    caps_module.configure(None)
    try:
        await gateway(prose).structured(
            Position, messages=MESSAGES, model="openai/prose-model", tag=TAG
        )
    finally:
        monkeypatch.delenv("COUNCIL_MODELS")
        caps_module.configure(None)
    (body,) = bodies(prose)
    assert body["tool_choice"]["function"]["name"] == "Position"


# ------------------------------------------------------------------ bounded calls


async def test_every_call_sets_max_tokens_from_its_schema_within_the_context(
    prose: StubServer,
) -> None:
    await gateway(prose, output_mode="json_object").structured(
        Position, messages=MESSAGES, model="openai/prose-model", tag=TAG
    )
    await gateway(prose, output_mode="json_object", context_limit_tokens=600).structured(
        Position, messages=MESSAGES, model="openai/prose-model", tag=TAG
    )
    wide, narrow = bodies(prose)
    # An unknown local model's texts are bounded from the context: max_tokens leaves
    # room for every text field at that bound, and never less than the schema's ceiling.
    bound = wide["response_format"]["schema"]["properties"]["stance"]["maxLength"]
    assert wide["max_tokens"] == bounded_output_tokens(Position, bound) > output_tokens(Position)
    assert narrow["max_tokens"] < output_tokens(Position)
    assert narrow["max_tokens"] <= 600


async def test_a_default_compose_is_taken_by_a_server_with_llama_cpps_grammar_limits(
    grammar_limited: StubServer,
) -> None:
    # The compose schema as it was sent (persona texts up to 2000 characters) was
    # refused by llama.cpp's grammar parser in every constraining mode.
    config = resolve_config(mode=Mode.DEEP, model="openai/local-llama")
    state = DebateState(question="Should we migrate billing to PostgreSQL?", config=config)
    hooks = Ledger()
    gw = make_gateway(state, hooks, api_base=grammar_limited.api_base, api_key="test")
    await get_protocol("council").run_step(state, Step(CouncilPhase.COMPOSE), hooks, gw)

    turn = state.turn(CouncilPhase.COMPOSE)
    assert turn is not None and turn.status is TurnStatus.OK
    assert [r.ok for r in hooks.records] == [True]
    assert bodies(grammar_limited)[0]["response_format"]["type"] == "json_schema"


# ------------------------------------------------------------------ a small real model


async def test_a_small_model_under_a_grammar_composes_the_panel_size_asked_for(
    small: StubServer,
) -> None:
    # gemma-3-270m under llama.cpp's grammar answered {"personas": []}: nothing in the
    # schema asked for three, and the debate then failed at premortem naming nobody.
    from debates.engine.llm import capabilities as caps_module
    from debates.engine.llm.capabilities import ModelSettings

    config = resolve_config(mode="quick", model="openai/small", output_mode="json_object")
    state = DebateState(question="Should we migrate billing to PostgreSQL?", config=config)
    hooks = Ledger()
    gw = make_gateway(state, hooks, api_base=small.api_base, api_key="test")
    caps_module.configure({"openai/small": ModelSettings(max_text_chars=300)})
    try:
        await get_protocol("council").run_step(state, Step(CouncilPhase.COMPOSE), hooks, gw)
    finally:
        caps_module.configure(None)

    sent = bodies(small)[0]["response_format"]["schema"]["properties"]["personas"]
    assert (sent["minItems"], sent["maxItems"]) == (3, 3)
    assert len(state.personas) == 3


async def test_an_empty_panel_fails_compose_with_the_reason_instead_of_a_nameless_quorum(
    small: StubServer,
) -> None:
    empty = (200, completion_body(json.dumps({"personas": [], "options": []})))
    small.answers = [empty, empty]
    config = resolve_config(mode="quick", model="openai/small", output_mode="json_object")
    state = DebateState(question="Should we migrate billing to PostgreSQL?", config=config)
    hooks = Ledger()
    gw = make_gateway(state, hooks, api_base=small.api_base, api_key="test")
    await get_protocol("council").run_step(state, Step(CouncilPhase.COMPOSE), hooks, gw)

    turn = state.turn(CouncilPhase.COMPOSE)
    assert turn is not None and turn.status is TurnStatus.FAILED
    assert "personas" in (turn.error or "") and "at least 1 item" in (turn.error or "")
    assert [r.purpose for r in hooks.records] == ["call", "repair"]


async def test_max_text_chars_lets_a_rambling_model_finish_its_json(
    small: StubServer,
) -> None:
    from debates.engine.llm import capabilities as caps_module
    from debates.engine.llm.capabilities import ModelSettings

    # A model litellm does not know, on a local server, is bounded without a setting,
    # sized from the context its prompt leaves (docs/models.md, "Text bounds from the
    # context"): unbounded (before), this model repeated itself until max_tokens cut its
    # JSON. It writes every text up to the bound, mid-sentence: each is marked as cut.
    gw = gateway(small, output_mode="json_object")
    outcome = await gw.structured(Premortem, messages=MESSAGES, model="openai/small", tag=TAG)
    bound = gw.text_bound(Premortem, "openai/small",
                          gw.prompt_tokens(MESSAGES, "openai/small", Premortem))
    assert bound is not None and bound > 150  # the old fixed bound cut every sentence
    scenario = outcome.value.failure_scenario
    assert scenario.endswith("…") and len(scenario) <= bound + 1
    assert scenario[:-1].rstrip() == RAMBLE_AT(bound)
    assert "failure_scenario" in outcome.cut and "root_causes[0]" in outcome.cut
    sent = bodies(small)[-1]["response_format"]["schema"]
    assert sent["properties"]["failure_scenario"]["maxLength"] == bound
    assert sent["properties"]["root_causes"]["maxItems"] == 4
    assert sent["properties"]["root_causes"]["items"]["maxLength"] == bound
    # Only the request is bounded: validation still takes the full answer of a model
    # that is not constrained.
    assert "maxLength" not in Premortem.model_json_schema()["properties"]["failure_scenario"]

    caps_module.configure({"openai/small": ModelSettings(max_text_chars=120)})
    try:
        await gateway(small, output_mode="json_object").structured(
            Premortem, messages=MESSAGES, model="openai/small", tag=TAG
        )
    finally:
        caps_module.configure(None)
    sent = bodies(small)[-1]["response_format"]["schema"]
    assert sent["properties"]["failure_scenario"]["maxLength"] == 120


def test_only_an_unknown_model_on_a_local_server_gets_the_default_text_bound() -> None:
    from debates.engine.llm.capabilities import capabilities

    local = "http://127.0.0.1:8080/v1"
    assert capabilities("openai/some-gguf", local).context_text_bound
    assert not capabilities("openai/gpt-4o-mini", local).context_text_bound  # litellm knows it
    assert not capabilities("openai/some-model", "https://models.example.com/v1"
                            ).context_text_bound  # a remote server


async def test_a_slow_single_slot_server_is_bounded_by_the_turn_budget(
    slow: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A per-model ``timeout_s`` keeps short attempts (and retries) on a local server too.
    monkeypatch.setenv("COUNCIL_MODELS", '{"openai/slow": {"timeout_s": 0.6}}')
    from debates.engine.llm import capabilities as caps_module

    caps_module.configure(None)
    ledger = Ledger()
    gw = gateway(slow, ledger, turn_budget_s=1.5, max_retries=5, output_mode="prompt")
    try:
        with pytest.raises(CallFailed) as caught:
            await gw.structured(Position, messages=MESSAGES, model="openai/slow", tag=TAG)
    finally:
        monkeypatch.delenv("COUNCIL_MODELS")
        caps_module.configure(None)
    # Two 0.6 s attempts and a short third fit 1.5 s; the five allowed retries do not.
    # Counted, not timed: each attempt lasts at least its 0.6 s, so a loaded machine
    # fits fewer attempts in the budget, never more.
    assert 1 <= len(ledger.records) <= 3
    assert all(r.error_class == "Timeout" and not r.ok for r in ledger.records)
    assert caught.value.error_class in ("Timeout", "TurnBudgetSpent")
    # Each abandoned request was closed: the server saw its client go and stopped.
    await wait_until_async(lambda: slow.abandoned >= len(ledger.records),
                           what="the server to see every abandoned request end")
    assert slow.abandoned == len(ledger.records)


async def test_a_local_server_slower_than_one_attempt_gets_the_whole_turn_in_one(
    slow: StubServer,
) -> None:
    # SmolLM2-135M on 2 loaded cores took 128 s to compose a panel; three attempts of
    # the 60 s local default each started that generation over, and all timed out.
    ledger = Ledger()
    gw = gateway(slow, ledger, local_timeout_s=1.5, max_retries=4, output_mode="prompt")
    outcome = await gw.structured(Position, messages=MESSAGES, model="openai/slow", tag=TAG)
    assert outcome.value.stance
    assert [(r.ok, r.error_class) for r in ledger.records] == [(True, None)]
    assert slow.abandoned == 0


# ------------------------------------------------------------------ context budget


def test_a_repair_is_shortened_to_fit_the_context() -> None:
    gw = LLMGateway(context_limit_tokens=700)
    long_bad_reply = "not json " * 400
    repair = gw.fitting_repair(MESSAGES, long_bad_reply, "no JSON object", Position,
                               "openai/x")
    assert repair is not None
    assert gw.count_tokens(repair, "openai/x") <= gw.prompt_budget("openai/x", Position)
    assert "no JSON object" in repair[-1]["content"]
    huge = [{"role": "user", "content": "word " * 3000}]
    assert gw.fitting_repair(huge, long_bad_reply, "bad", Position, "openai/x") is None


def test_synthesis_is_compacted_to_fit_and_the_result_records_it() -> None:
    config = resolve_config(mode="quick", model="sim/default", seed=3)
    state = DebateState(question="Should we open-source the core?", config=config)
    asyncio.run(run_protocol(state, EngineHooks()))
    gw = LLMGateway()
    full = gw.count_tokens(synthesis_messages(state, 0)[0], "sim/default")
    compact = gw.count_tokens(synthesis_messages(state, 3)[0], "sim/default")
    assert compact < full
    # A limit between the two: the full prompt cannot fit, the compacted one can.
    for limit in range(512, 40000, 64):
        probe = LLMGateway(context_limit_tokens=limit)
        if probe.prompt_budget("sim/default", SynthesisNarrative) >= compact:
            break
    assert probe.prompt_budget("sim/default", SynthesisNarrative) < full
    del state.turns[(Phase.SYNTHESIS.value, 0, -1)]
    del state.turns[(Phase.VERIFY.value, 0, -1)]
    state.config = state.config.model_copy(update={"context_limit_tokens": limit})
    asyncio.run(run_protocol(state, EngineHooks()))
    turn = state.turn(Phase.SYNTHESIS)
    assert turn is not None and turn.status is TurnStatus.OK
    assert turn.compaction > 0
    result = build_result(state, Usage())
    assert any(c.step == "synthesis" and c.level == turn.compaction
               for c in result.compactions)
    # The latest stances stay whole in the compacted prompt.
    prompt = synthesis_messages(state, turn.compaction)[0][-1]["content"]
    last = state.view.completed_rounds
    for i in range(len(state.personas)):
        stance = state.view.stance(i, last)
        if stance:
            assert stance in prompt


# ------------------------------------------------------------------ settings


def test_model_settings_load_from_file_and_env_and_name_a_bad_value(tmp_path: Any) -> None:
    from debates.engine.llm.capabilities import load_model_settings

    path = tmp_path / "models.toml"
    path.write_text('[models."openai/a"]\noutput_mode = "json_object"\ncontext_limit = 4096\n'
                    '[models."openai/b"]\noutput_mode = "tools"\n')
    loaded = load_model_settings({
        "COUNCIL_MODELS_FILE": str(path),
        "COUNCIL_MODELS": '{"openai/b": {"output_mode": "prompt", "timeout_s": 30}}',
    })
    assert loaded["openai/a"].output_mode == "json_object"
    assert loaded["openai/a"].context_limit == 4096
    assert (loaded["openai/b"].output_mode, loaded["openai/b"].timeout_s) == ("prompt", 30)
    with pytest.raises(ValueError, match="openai/c.*output_mode"):
        load_model_settings({"COUNCIL_MODELS": '{"openai/c": {"output_mode": "yaml"}}'})


def test_a_context_limit_setting_reaches_the_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    from debates.engine.llm import capabilities as caps_module
    from debates.engine.llm.capabilities import ModelSettings

    caps_module.configure({"openai/local": ModelSettings(context_limit=3000)})
    try:
        assert LLMGateway().context_limit("openai/local") == 3000
        assert LLMGateway(context_limit_tokens=2048).context_limit("openai/local") == 2048
        assert LLMGateway().context_limit("sim/default") == 32768
    finally:
        caps_module.configure(None)


async def test_a_server_filling_every_field_gets_one_conclusion_not_two(
    filler: StubServer,
) -> None:
    # gemma-3-270m under a grammar (and any server filling every optional field) wrote
    # both a recommended path and a divergence report; the report showed both.
    config = resolve_config(mode="quick", model="openai/gpt-4o-mini")
    state = DebateState(question="Should we migrate billing to PostgreSQL?", config=config)
    hooks = Ledger()
    gw = make_gateway(state, hooks, api_base=filler.api_base, api_key="test")
    while (step := state.view.next_step()) is not None:
        await get_protocol("council").run_step(state, step, hooks, gw)
    synthesis = state.turn(Phase.SYNTHESIS)
    assert synthesis is not None and synthesis.payload is not None
    assert synthesis.payload["recommended_path"] and synthesis.payload["divergence_report"]

    result = build_result(state, Usage())
    assert result.stop_reason.value != "genuine_disagreement"
    assert result.recommended_path is not None
    assert result.divergence_report is None


def test_a_local_turn_gets_the_time_to_write_its_answer_at_a_slow_machine_s_pace() -> None:
    # Qwen2.5-Coder-0.5B at load 10 wrote about a token a second a slot; round 2's
    # cross-examinations outgrew the 181.5 s of three 60 s attempts and all timed out.
    from debates.engine.llm.gateway import (
        LOCAL_READ_TOKENS_PER_S,
        LOCAL_TURN_CAP_S,
        LOCAL_WRITE_TOKENS_PER_S,
    )

    local = LLMGateway(api_base="http://127.0.0.1:8089/v1", api_key="test")
    retries = local.turn_budget("openai/some-gguf")
    assert retries == pytest.approx(60 * 3 + 0.5 + 1.0)  # the attempts and backoffs
    writing = (1300 / LOCAL_READ_TOKENS_PER_S
               + local.max_tokens(Position, "openai/some-gguf", 1300) / LOCAL_WRITE_TOKENS_PER_S)
    assert writing > retries
    assert local.turn_budget("openai/some-gguf", Position, 1300) == pytest.approx(
        min(writing, LOCAL_TURN_CAP_S))
    # One attempt takes the whole turn there; the turn, not the attempt, bounds it.
    assert local.attempt_timeout("openai/some-gguf") == float("inf")
    # A hosted model keeps short attempts and retries, whatever it may write.
    hosted = LLMGateway(api_key="test")
    assert hosted.turn_budget("openai/gpt-4o-mini", Position, 1300) == pytest.approx(
        120 * 3 + 1.5)
    assert hosted.attempt_timeout("openai/gpt-4o-mini") == 120
