"""The per-call cost: a priced model is charged every call; an unpriced one is looked up
once (the failed lookup is the expensive part), and the simulator stays free."""

from __future__ import annotations

from typing import Any

import pytest

from debates.engine.llm import cost
from debates.engine.llm.capabilities import capabilities
from debates.engine.llm.loader import litellm_module

litellm = litellm_module()


def reply(model: str) -> Any:
    return litellm.ModelResponse(
        model=model,
        choices=[{"message": {"role": "assistant", "content": "{}"}}],
        usage=litellm.Usage(prompt_tokens=1000, completion_tokens=500, total_tokens=1500),
    )


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(cost, "_unpriced_models", set())
    seen: list[str] = []
    real = litellm.completion_cost

    def counting(*, completion_response: Any) -> float:
        seen.append(completion_response.model)
        return real(completion_response=completion_response)

    monkeypatch.setattr(litellm, "completion_cost", counting)
    return seen


def test_a_priced_model_is_charged_on_every_call(lookups: list[str]) -> None:
    caps = capabilities("openai/gpt-4o")
    costs = [cost.call_cost(caps, "openai/gpt-4o", reply("gpt-4o")) for _ in range(2)]
    assert costs[0] is not None and costs[0] > 0
    assert costs[1] == costs[0]
    assert len(lookups) == 2


def test_an_unpriced_model_is_looked_up_once_and_stays_unknown(lookups: list[str]) -> None:
    caps = capabilities("openai/stub-model")
    costs = [cost.call_cost(caps, "openai/stub-model", reply("stub-model")) for _ in range(3)]
    assert costs == [None, None, None]
    assert lookups == ["stub-model"]


def test_a_reply_without_usage_does_not_mark_the_model_unpriced(
    lookups: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    caps = capabilities("openai/gpt-4o")
    no_usage = reply("gpt-4o")
    monkeypatch.delattr(no_usage, "usage", raising=False)
    cost.call_cost(caps, "openai/gpt-4o", no_usage)
    assert cost.call_cost(caps, "openai/gpt-4o", reply("gpt-4o")) not in (None, 0.0)


def test_the_simulator_stays_free_after_its_lookup_is_cached(lookups: list[str]) -> None:
    caps = capabilities("sim/default")
    assert [cost.call_cost(caps, "sim/default", reply("sim/default")) for _ in range(2)] == [
        0.0,
        0.0,
    ]
