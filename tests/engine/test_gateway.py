"""The LLM gateway: retries, repair, fallback, context budget, cancellation, ledger."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from debates.engine.llm.capabilities import capabilities
from debates.engine.llm.gateway import (
    CallFailed,
    CallOutcome,
    Cancelled,
    ContextTooLong,
    LLMGateway,
    extract_json,
    parse_reply,
)
from debates.engine.llm.loader import litellm_module
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import ComposedPanel, CrossExamination, Position
from debates.engine.schema_titles import without_titles
from debates.engine.schemas import CallRecord, CallTag, SimulatorOptions
from debates.engine.sim import simulator

litellm = litellm_module()

VALID_POSITION = json.dumps(
    {
        "stance": "Adopt it in stages",
        "reasoning": ["Lower risk"],
        "confidence": 0.6,
        "key_assumptions": ["The team stays"],
    }
)
INVALID_POSITION = json.dumps({"stance": "Adopt it", "reasoning": ["Why not"], "confidence": 1.7})
MESSAGES = [
    {"role": "system", "content": "Answer only with JSON."},
    {"role": "user", "content": "Should we adopt PostgreSQL for billing?"},
]
TAG = CallTag(phase=CouncilPhase.POSITION, round=0, agent=2, agent_name="Dana Reyes")


class ScriptedLLM(litellm.CustomLLM):  # type: ignore[misc]
    """A provider that plays back a list of outcomes: reply text, or an exception."""

    def __init__(self) -> None:
        super().__init__()
        self.outcomes: list[str | Exception] = []
        self.calls: list[dict[str, Any]] = []

    async def acompletion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self.calls.append(
            {
                "model": model,
                "messages": [dict(m) for m in messages],
                "optional_params": dict(kwargs.get("optional_params") or {}),
            }
        )
        outcome = self.outcomes.pop(0) if self.outcomes else VALID_POSITION
        if isinstance(outcome, Exception):
            raise outcome
        return litellm.ModelResponse(
            model=f"scripted/{model}",
            choices=[{"index": 0, "message": {"role": "assistant", "content": outcome}}],
            usage={"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        )


@pytest.fixture
def scripted() -> Iterator[ScriptedLLM]:
    handler = ScriptedLLM()
    previous = list(litellm.custom_provider_map)
    litellm.custom_provider_map = [
        *[e for e in previous if e["provider"] != "scripted"],
        {"provider": "scripted", "custom_handler": handler},
    ]
    yield handler
    litellm.custom_provider_map = previous


@pytest.fixture(autouse=True)
def _fresh_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    simulator.handler.reset()
    # A developer's own COUNCIL_SIM_* settings must not leak into these tests.
    for variable in ("COUNCIL_SIM_LATENCY_MS", "COUNCIL_SIM_FAULTS", "COUNCIL_SIM_SCRIPT"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("COUNCIL_SIM_SEED", raising=False)


class Ledger:
    def __init__(self) -> None:
        self.records: list[CallRecord] = []

    async def __call__(self, record: CallRecord) -> None:
        self.records.append(record)


def make_gateway(ledger: Ledger | None = None, **kwargs: Any) -> LLMGateway:
    kwargs.setdefault("backoff_base_s", 0.001)
    kwargs.setdefault("backoff_max_s", 0.01)
    return LLMGateway(on_call=ledger, **kwargs)


def rate_limited(msg: str = "slow down") -> Exception:
    return litellm.RateLimitError(message=msg, model="scripted/x", llm_provider="scripted")


async def ask(gateway: LLMGateway, model: str = "scripted/x", **kwargs: Any) -> CallOutcome[Any]:
    kwargs.setdefault("messages", MESSAGES)
    kwargs.setdefault("tag", TAG)
    return await gateway.structured(Position, model=model, **kwargs)


# --------------------------------------------------------------------------- retries


async def test_transient_errors_are_retried_then_the_call_succeeds(scripted: ScriptedLLM) -> None:
    scripted.outcomes = [
        rate_limited(),
        litellm.InternalServerError(message="oops", model="x", llm_provider="scripted"),
        VALID_POSITION,
    ]
    ledger = Ledger()
    outcome = await ask(make_gateway(ledger, max_retries=2))

    assert outcome.value.stance == "Adopt it in stages"
    assert outcome.attempts == 3
    assert len(scripted.calls) == 3
    assert [r.error_class for r in ledger.records] == [
        "RateLimitError",
        "InternalServerError",
        None,
    ]
    assert [r.ok for r in ledger.records] == [False, False, True]


async def test_retries_are_bounded_and_the_real_message_is_kept(scripted: ScriptedLLM) -> None:
    real = "upstream exploded: shard 7 is unavailable"
    scripted.outcomes = [
        litellm.ServiceUnavailableError(message=real, model="x", llm_provider="scripted")
        for _ in range(10)
    ]
    ledger = Ledger()
    with pytest.raises(CallFailed) as caught:
        await ask(make_gateway(ledger, max_retries=2))

    assert len(scripted.calls) == 3
    assert caught.value.attempts == 3
    assert caught.value.error_class == "ServiceUnavailableError"
    assert real in caught.value.message
    assert caught.value.model == "scripted/x"
    assert all(real in (r.error or "") for r in ledger.records)


@pytest.mark.parametrize(
    "error",
    [
        litellm.AuthenticationError(message="bad key", model="x", llm_provider="scripted"),
        litellm.BadRequestError(message="bad request", model="x", llm_provider="scripted"),
        litellm.NotFoundError(message="no such model", model="x", llm_provider="scripted"),
        litellm.ContextWindowExceededError(message="too long", model="x", llm_provider="scripted"),
        RuntimeError("something unexpected"),
    ],
    ids=lambda e: type(e).__name__,
)
async def test_non_transient_errors_are_not_retried(
    scripted: ScriptedLLM, error: Exception
) -> None:
    scripted.outcomes = [error, VALID_POSITION]
    ledger = Ledger()
    with pytest.raises(CallFailed):
        await ask(make_gateway(ledger, max_retries=3))
    assert len(scripted.calls) == 1
    assert len(ledger.records) == 1


async def test_an_unexpected_exception_keeps_its_own_class_and_message(
    scripted: ScriptedLLM,
) -> None:
    # litellm wraps it as an APIConnectionError with a traceback; that must not be
    # mistaken for a network problem.
    scripted.outcomes = [ValueError("adapter could not parse the reply")]
    with pytest.raises(CallFailed) as caught:
        await ask(make_gateway(max_retries=2))
    assert caught.value.error_class == "ValueError"
    assert caught.value.message == "adapter could not parse the reply"
    assert caught.value.attempts == 1


async def test_a_slow_model_times_out_and_is_retried() -> None:
    ledger = Ledger()
    # A turn budget of its own: the default (both attempts and the back-off, 0.1 s)
    # can be spent by one late attempt on a loaded machine, leaving no retry to see.
    gateway = make_gateway(
        ledger, timeout_s=0.05, max_retries=1, turn_budget_s=20,
        simulator=SimulatorOptions(latency_ms=30_000),
    )
    started = time.perf_counter()
    with pytest.raises(CallFailed) as caught:
        await ask(gateway, model="sim/default")
    # Given up long before the model's 30 s answer (however loaded the machine).
    assert time.perf_counter() - started < 30
    assert caught.value.error_class == "Timeout"
    assert [r.error_class for r in ledger.records] == ["Timeout", "Timeout"]


async def test_backoff_grows_but_stays_bounded(
    scripted: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    ceilings: list[float] = []

    def full_jitter(low: float, high: float) -> float:
        ceilings.append(high)
        return 0.0

    scripted.outcomes = [rate_limited() for _ in range(4)]
    gateway = LLMGateway(max_retries=4, backoff_base_s=0.5, backoff_max_s=1.5)
    monkeypatch.setattr(gateway._jitter, "uniform", full_jitter)
    outcome = await ask(gateway)
    assert outcome.attempts == 5
    assert ceilings == [0.5, 1.0, 1.5, 1.5]


async def test_the_jitter_is_drawn_only_for_a_retry_that_can_happen(
    scripted: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    ceilings: list[float] = []

    def full_jitter(low: float, high: float) -> float:
        ceilings.append(high)
        return 0.0

    scripted.outcomes = [rate_limited() for _ in range(5)]
    gateway = LLMGateway(max_retries=2, backoff_base_s=0.5, backoff_max_s=8)
    monkeypatch.setattr(gateway._jitter, "uniform", full_jitter)
    with pytest.raises(CallFailed) as caught:
        await ask(gateway)
    assert caught.value.attempts == 3
    assert not caught.value.message.endswith("spent)")
    assert ceilings == [0.5, 1.0]


async def test_retries_are_counted_across_the_repair(scripted: ScriptedLLM) -> None:
    scripted.outcomes = [rate_limited(), INVALID_POSITION, rate_limited(), VALID_POSITION]
    ledger = Ledger()
    with pytest.raises(CallFailed) as caught:
        await ask(make_gateway(ledger, max_retries=1))
    assert caught.value.error_class == "RateLimitError"
    assert caught.value.attempts == 3
    assert [(r.purpose, r.error_class) for r in ledger.records] == [
        ("call", "RateLimitError"), ("call", "ValidationError"), ("repair", "RateLimitError")]


async def test_a_retry_the_turn_has_no_time_for_is_not_started(
    scripted: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted.outcomes = [rate_limited(), VALID_POSITION]
    ledger = Ledger()
    gateway = LLMGateway(on_call=ledger, turn_budget_s=5, backoff_base_s=30, backoff_max_s=30)
    monkeypatch.setattr(gateway._jitter, "uniform", lambda low, high: high)
    started = time.perf_counter()
    with pytest.raises(CallFailed) as caught:
        await ask(gateway)
    assert time.perf_counter() - started < 5  # the 30 s back-off was never slept
    assert len(scripted.calls) == 1
    assert caught.value.message.endswith("slow down (no retry: the turn's 5 s are spent)")
    assert [r.error_class for r in ledger.records] == ["RateLimitError"]
    assert "no retry" not in (ledger.records[0].error or "")


# --------------------------------------------------------------------------- repair


async def test_invalid_output_gets_one_repair_that_shows_the_error(scripted: ScriptedLLM) -> None:
    scripted.outcomes = [INVALID_POSITION, VALID_POSITION]
    ledger = Ledger()
    outcome = await ask(make_gateway(ledger))

    assert outcome.value.confidence == 0.6
    repair = scripted.calls[1]["messages"]
    assert repair[:2] == MESSAGES
    assert repair[2] == {"role": "assistant", "content": INVALID_POSITION}
    assert repair[3]["role"] == "user"
    assert "confidence" in repair[3]["content"]
    assert "less than or equal to 1" in repair[3]["content"]
    assert len(repair) == 4
    assert [(r.purpose, r.ok, r.error_class) for r in ledger.records] == [
        ("call", False, "ValidationError"),
        ("repair", True, None),
    ]


async def test_malformed_json_error_is_shown_to_the_model(scripted: ScriptedLLM) -> None:
    scripted.outcomes = ['{"stance": "Adopt", "reasoning": [', VALID_POSITION]
    await ask(make_gateway())
    assert "not valid JSON" in scripted.calls[1]["messages"][-1]["content"]


async def test_a_failed_repair_is_not_repaired_again(scripted: ScriptedLLM) -> None:
    long_bad = INVALID_POSITION + " " + "x" * 5000
    scripted.outcomes = [long_bad, INVALID_POSITION, VALID_POSITION]
    ledger = Ledger()
    with pytest.raises(CallFailed) as caught:
        await ask(make_gateway(ledger, max_retries=3))

    assert len(scripted.calls) == 2
    assert caught.value.error_class == "ValidationError"
    assert "confidence" in caught.value.message
    repair = scripted.calls[1]["messages"]
    assert len(repair) == len(MESSAGES) + 2
    assert len(repair[2]["content"]) == 2000
    assert len(repair[3]["content"]) < 1800
    assert [r.purpose for r in ledger.records] == ["call", "repair"]


async def test_empty_replies_fail_fast_without_backoff(scripted: ScriptedLLM) -> None:
    scripted.outcomes = ["", "   \n"]
    ledger = Ledger()
    gateway = LLMGateway(on_call=ledger, backoff_base_s=30, backoff_max_s=30, max_retries=5)
    started = time.perf_counter()
    with pytest.raises(CallFailed) as caught:
        await ask(gateway)
    assert time.perf_counter() - started < 30  # one back-off would have slept 30 s
    assert len(scripted.calls) == 2
    assert caught.value.error_class == "ValidationError"
    assert [r.error_class for r in ledger.records] == ["EmptyResponse", "EmptyResponse"]
    assert scripted.calls[1]["messages"][2]["content"] == "(empty reply)"


async def test_junk_replies_fail_fast_without_backoff() -> None:
    ledger = Ledger()
    gateway = LLMGateway(on_call=ledger, backoff_base_s=30, backoff_max_s=30, max_retries=5)
    started = time.perf_counter()
    with pytest.raises(CallFailed) as caught:
        await ask(gateway, model="sim/junk")
    assert time.perf_counter() - started < 30  # one back-off would have slept 30 s
    assert caught.value.attempts == 2
    assert caught.value.error_class == "ValidationError"
    assert [r.purpose for r in ledger.records] == ["call", "repair"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('Sure! Here it is:\n{"a": {"b": 2}}\nHope that helps.', {"a": {"b": 2}}),
        ('```\n{"a": "```"}\n```', {"a": "```"}),
        # A raw line break or tab inside a string (SmolLM2 on llama-cpp-python's server
        # wrote one) is read as the character it is, not refused.
        ('{"a": "two\nlines\tand a tab"}', {"a": "two\nlines\tand a tab"}),
    ],
)
def test_json_is_found_inside_fences_and_chatter(reply: str, expected: dict[str, Any]) -> None:
    assert extract_json(reply) == expected


@pytest.mark.parametrize(("given", "kept"), [(0.4, 0.4), (1, 1.0), (3.033, None),
                                             (2.0, None), (-0.5, None), (None, None)])
def test_an_updated_confidence_outside_0_to_1_leaves_the_confidence_unchanged(
    given: Any, kept: float | None
) -> None:
    # SmolLM2-135M under a grammar wrote 3.033: the turn's other fields are kept.
    reply = json.dumps({"reflection": "Cost matters more than I thought",
                        "concessions": ["Cost is known"], "updated_confidence": given})
    exam = parse_reply(CrossExamination, reply)
    assert exam.updated_confidence == kept
    assert exam.concessions == ["Cost is known"]


# --------------------------------------------------------------------------- fallback


async def test_fallback_model_is_used_after_the_primary_fails() -> None:
    ledger = Ledger()
    outcome = await ask(
        make_gateway(ledger, max_retries=1), model="sim/down", fallback_model="sim/default"
    )
    assert outcome.model == "sim/default"
    assert outcome.attempts == 3
    assert [(r.model, r.attempt, r.ok) for r in ledger.records] == [
        ("sim/down", 1, False),
        ("sim/down", 2, False),
        ("sim/default", 3, True),
    ]


async def test_both_models_failing_keeps_the_last_providers_message(
    scripted: ScriptedLLM,
) -> None:
    scripted.outcomes = [rate_limited("quota exhausted for project 42")] * 3
    with pytest.raises(CallFailed) as caught:
        await ask(make_gateway(max_retries=1), model="scripted/x", fallback_model="sim/down")
    assert caught.value.model == "sim/down"
    assert simulator.DOWN_MESSAGE in caught.value.message
    assert caught.value.error_class == "ServiceUnavailableError"
    assert caught.value.attempts == 4


async def test_fallback_after_validation_failure(scripted: ScriptedLLM) -> None:
    scripted.outcomes = [VALID_POSITION]
    outcome = await ask(make_gateway(), model="sim/junk", fallback_model="scripted/x")
    assert outcome.model == "scripted/x"
    assert outcome.attempts == 3


async def test_a_fallback_whose_context_the_prompt_does_not_fit_is_not_tried(
    scripted: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted.outcomes = [rate_limited("quota exhausted")] * 2
    gateway = make_gateway(max_retries=1)
    limits = {"scripted/x": 100_000, "scripted/small": 300}
    monkeypatch.setattr(gateway, "context_limit", limits.__getitem__)
    long_prompt = [{"role": "user", "content": "word " * 400}]
    with pytest.raises(CallFailed) as caught:
        await ask(gateway, messages=long_prompt, fallback_model="scripted/small")
    assert len(scripted.calls) == 2
    assert caught.value.model == "scripted/x"
    assert caught.value.error_class == "RateLimitError"
    assert caught.value.attempts == 2
    assert "(fallback scripted/small not tried: prompt of" in caught.value.message


# --------------------------------------------------------------------------- ledger


async def test_every_attempt_is_recorded_with_its_fields(scripted: ScriptedLLM) -> None:
    scripted.outcomes = [rate_limited("429 from upstream"), INVALID_POSITION, VALID_POSITION]
    ledger = Ledger()
    tag = CallTag(phase=CouncilPhase.CROSS_EXAM, round=3, agent=4, agent_name="Mei Sato")
    outcome = await ask(make_gateway(ledger), tag=tag)

    assert [r.attempt for r in ledger.records] == [1, 2, 3]
    assert [r.purpose for r in ledger.records] == ["call", "call", "repair"]
    for record in ledger.records:
        assert (record.phase, record.round, record.agent) == (CouncilPhase.CROSS_EXAM, 3, 4)
        assert record.model == "scripted/x"
        assert record.latency_ms >= 0
    failed, invalid, ok = ledger.records
    assert (failed.ok, failed.error_class, failed.prompt_tokens) == (False, "RateLimitError", 0)
    assert "429 from upstream" in (failed.error or "")
    assert (invalid.ok, invalid.error_class, invalid.prompt_tokens) == (
        False,
        "ValidationError",
        11,
    )
    assert (ok.ok, ok.prompt_tokens, ok.completion_tokens, ok.error) == (True, 11, 7, None)
    # Unknown models have unknown prices: None, not a made-up zero.
    assert ok.cost_usd is None
    assert (outcome.prompt_tokens, outcome.completion_tokens, outcome.cost_usd) == (22, 14, None)


async def test_simulated_calls_cost_nothing_and_report_tokens() -> None:
    ledger = Ledger()
    outcome = await ask(make_gateway(ledger), model="sim/default")
    (record,) = ledger.records
    assert record.cost_usd == 0.0
    assert record.prompt_tokens > 0 and record.completion_tokens > 0
    assert outcome.cost_usd == 0.0


async def test_long_error_messages_are_truncated_in_the_ledger(scripted: ScriptedLLM) -> None:
    scripted.outcomes = [RuntimeError("x" * 3000)]
    ledger = Ledger()
    with pytest.raises(CallFailed) as caught:
        await ask(make_gateway(ledger))
    assert len(ledger.records[0].error or "") == 500
    assert len(caught.value.message) == 3000


# --------------------------------------------------------------------------- cancel, context


async def test_cancel_is_checked_before_the_call(scripted: ScriptedLLM) -> None:
    ledger = Ledger()
    with pytest.raises(Cancelled):
        await ask(make_gateway(ledger, should_cancel=lambda: True))
    assert scripted.calls == []
    assert ledger.records == []


async def test_cancel_is_checked_before_each_retry(scripted: ScriptedLLM) -> None:
    scripted.outcomes = [rate_limited(), rate_limited(), VALID_POSITION]
    ledger = Ledger()
    with pytest.raises(Cancelled):
        await ask(make_gateway(ledger, should_cancel=lambda: len(ledger.records) >= 1))
    assert len(scripted.calls) == 1


async def test_an_oversized_prompt_raises_context_too_long(scripted: ScriptedLLM) -> None:
    gateway = make_gateway(context_limit_tokens=500)
    huge = [{"role": "user", "content": "word " * 2000}]
    with pytest.raises(ContextTooLong) as caught:
        await ask(gateway, messages=huge, fallback_model="scripted/y")
    assert caught.value.tokens > caught.value.limit
    assert caught.value.limit < 500
    assert scripted.calls == []


def test_context_limits_for_known_unknown_and_simulated_models() -> None:
    gateway = LLMGateway()
    assert gateway.context_limit("sim/default") == 32768
    assert gateway.context_limit("openai/some-local-model") == 8192
    assert gateway.context_limit("gpt-4o-mini") >= 100_000
    assert LLMGateway(context_limit_tokens=4096).context_limit("gpt-4o-mini") == 4096
    assert gateway.prompt_budget("sim/default") == 32768 - 1024
    gateway.check_context(MESSAGES, "sim/default")


# --------------------------------------------------------------------------- parameters


async def test_seed_is_dropped_where_unsupported_and_temperature_kept(
    scripted: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A provider that takes neither a seed nor response_format (this passed only while
    # another test's stale capabilities, read before "scripted" was registered, said so).
    monkeypatch.setattr(litellm, "get_supported_openai_params",
                        lambda **kwargs: ["temperature", "max_tokens"])
    capabilities.cache_clear()
    await ask(make_gateway(), temperature=0.3, seed=11)
    params = scripted.calls[0]["optional_params"]
    assert params.get("temperature") == 0.3
    assert "seed" not in params
    assert "response_format" not in params


async def test_json_schema_mode_is_requested_where_supported(
    scripted: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    captured: dict[str, Any] = {}
    real = litellm.acompletion

    async def spy(**kwargs: Any) -> Any:
        captured.update(kwargs)
        return await real(**kwargs)

    monkeypatch.setattr(litellm, "supports_response_schema", lambda **kwargs: True)
    capabilities.cache_clear()
    monkeypatch.setattr(litellm, "acompletion", spy)
    try:
        await ask(make_gateway())
    finally:
        capabilities.cache_clear()
    fmt = captured["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Position"
    assert fmt["json_schema"]["schema"] == without_titles(Position.model_json_schema())
    assert captured["num_retries"] == 0 and captured["max_retries"] == 0
    assert "metadata" not in captured


async def test_simulator_options_and_hints_reach_the_simulator() -> None:
    gateway = make_gateway(simulator=SimulatorOptions(seed=5))
    hints = {"n": 4, "question": "Should we open a Berlin office?", "reserved_names": ["Ann Lee"]}
    tag = CallTag(phase=CouncilPhase.COMPOSE)
    first = await gateway.structured(
        ComposedPanel, messages=MESSAGES, model="sim/default", tag=tag, hints=hints
    )
    again = await gateway.structured(
        ComposedPanel, messages=MESSAGES, model="sim/default", tag=tag, hints=hints
    )
    assert len(first.value.personas) == 4
    assert "Berlin" in first.value.model_dump_json()
    assert first.value == again.value
    other_seed = await make_gateway(simulator=SimulatorOptions(seed=6)).structured(
        ComposedPanel, messages=MESSAGES, model="sim/default", tag=tag, hints=hints
    )
    assert other_seed.value != first.value


async def test_simulator_faults_configured_on_the_gateway_take_effect() -> None:
    ledger = Ledger()
    gateway = make_gateway(ledger, simulator=SimulatorOptions(faults={"empty": 1.0}))
    with pytest.raises(CallFailed):
        await ask(gateway, model="sim/default")
    assert [r.error_class for r in ledger.records] == ["EmptyResponse", "EmptyResponse"]


async def test_a_schema_the_simulator_does_not_know_still_gets_valid_output() -> None:
    class Verdict(BaseModel):
        verdict: str
        score: int
        tags: list[str]

    outcome = await make_gateway().structured(
        Verdict, messages=MESSAGES, model="sim/default", tag=TAG
    )
    assert outcome.value.tags
