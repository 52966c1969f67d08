"""Cost and token totals: one rule for the CLI and for stored debates."""

from debates.engine.llm.usage import usage_from_calls
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.schemas import CallRecord


def call(model="sim/default", cost=0.0, ok=True, tokens=(10, 5)):
    return CallRecord(phase=CouncilPhase.POSITION, attempt=1, model=model, ok=ok, cost_usd=cost,
                      prompt_tokens=tokens[0], completion_tokens=tokens[1])


def test_totals_add_up_every_attempt_including_failed_ones():
    usage = usage_from_calls([call(cost=0.01), call(cost=0.02, ok=False, tokens=(3, 0))])
    assert (usage.calls, usage.failed_calls) == (2, 1)
    assert (usage.prompt_tokens, usage.completion_tokens) == (13, 5)
    assert round(usage.cost_usd, 6) == 0.03 and usage.cost_known


def test_an_unpriced_real_model_makes_the_cost_unknown_not_zero():
    usage = usage_from_calls([call(model="openai/stub-model", cost=None)])
    assert usage.cost_known is False


def test_the_simulator_is_free_not_unknown():
    assert usage_from_calls([call(cost=None)]).cost_known is True
