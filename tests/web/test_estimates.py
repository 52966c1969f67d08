"""The worst-case estimate shown before a debate starts."""

from __future__ import annotations

import pytest

from debates.engine import SOURCE_BUDGET_TOKENS, SOURCE_FOCUS_SHARE, litellm_module
from debates.engine.configure import resolve_config
from debates.estimates import PREFIX, SOURCES_RULE, estimate, has_cached_price


@pytest.mark.parametrize(("mode", "agents", "rounds"), [("quick", 3, 2), ("medium", 5, 4),
                                                        ("deep", 7, 4)])
def test_calls_are_compose_premortem_position_rounds_synthesis_verifier(mode, agents, rounds):
    est = estimate(resolve_config(mode=mode))
    # Deep mode adds its challenge: the devil's advocate and an answer per agent.
    challenge = 1 + agents if mode == "deep" else 0
    assert est.calls == 1 + agents + agents + agents * rounds + challenge + 1 + 1


def test_overrides_change_the_count():
    assert estimate(resolve_config(agents=12, max_rounds=10)).calls == 1 + 12 + 12 + 120 + 2


def test_given_personas_skip_the_compose_call():
    assert estimate(resolve_config(mode="quick"), given_personas=3).calls == 3 + 3 + 6 + 2


def test_simulated_model_is_free():
    est = estimate(resolve_config(model="sim/default"))
    assert est.price == "simulated" and est.cost_label == "free (simulated)"


def test_a_priced_model_gets_a_dollar_figure_that_grows_with_the_panel():
    small = estimate(resolve_config(model="openai/gpt-4o-mini", mode="quick"))
    large = estimate(resolve_config(model="openai/gpt-4o-mini", mode="deep"))
    assert small.price == "known" and small.cost_usd is not None and small.cost_usd > 0
    assert large.cost_usd is not None and large.cost_usd > small.cost_usd
    assert small.cost_label.startswith(("about $", "under $"))


def test_a_model_without_a_price_says_so():
    est = estimate(resolve_config(model="openai/no-such-model-anywhere"))
    assert est.price == "unknown" and est.cost_usd is None
    assert est.cost_label == "unknown price"


def test_longer_questions_mean_more_prompt_tokens():
    short = estimate(resolve_config(), text_chars=100)
    long = estimate(resolve_config(), text_chars=20_000)
    assert long.prompt_tokens > short.prompt_tokens
    assert long.completion_tokens == short.completion_tokens


def test_every_model_a_debate_may_call_is_listed_once_fallback_included():
    from debates.engine.schemas import Persona
    from debates.estimates import debate_models

    persona = Persona(name="P", background="b", expertise="e", approach="a", bias="x",
                      model="openai/gpt-4o-mini")
    config = resolve_config(model="sim/default", fallback_model="openai/gpt-4o",
                            phase_models={"synthesis": "sim/down", "verify": "sim/down"})
    assert debate_models(config, [persona, persona]) == (
        "sim/default", "sim/down", "openai/gpt-4o-mini", "openai/gpt-4o")


def test_a_paid_fallback_prices_every_call_that_may_fall_back():
    simulated = estimate(resolve_config(mode="quick", model="sim/default"))
    falling_back = estimate(resolve_config(mode="quick", model="sim/default",
                                           fallback_model="openai/gpt-4o"))
    alone = estimate(resolve_config(mode="quick", model="openai/gpt-4o"))
    assert simulated.price == "simulated" and falling_back.price == "known"
    # Every call but compose may go to gpt-4o: nearly what gpt-4o alone would cost.
    assert 0 < falling_back.cost_usd < alone.cost_usd


def test_a_paid_judge_is_one_more_call_and_counts_against_the_price():
    from debates.estimates import debate_models

    plain = resolve_config(mode="quick", model="sim/default")
    judged = resolve_config(mode="quick", model="sim/default", judge_model="openai/gpt-4o")
    assert debate_models(judged)[-1] == "openai/gpt-4o"
    est = estimate(judged)
    assert est.calls == estimate(plain).calls + 1
    # A simulated panel with a paid judge is not free: the cap and the budget see it.
    assert est.price == "known" and est.cost_usd is not None and est.cost_usd > 0
    unpriced = estimate(resolve_config(model="sim/default", judge_model="openai/no-such-judge"))
    assert unpriced.unpriced_models == ("openai/no-such-judge",)


def test_sources_add_what_the_calls_are_shown():
    config = resolve_config(model="sim/default", mode="quick")
    plain = estimate(config)
    small = estimate(config, source_chars=8_000)  # 2,000 tokens: shown whole
    large = estimate(config, source_chars=400_000)  # past the budget: 4,000 tokens a call
    sourced_calls = plain.calls - 1  # the verifier is shown none
    assert small.prompt_tokens - plain.prompt_tokens == sourced_calls * (2_000 + SOURCES_RULE)
    assert large.prompt_tokens - plain.prompt_tokens == sourced_calls * (
        SOURCE_BUDGET_TOKENS + SOURCES_RULE)


def test_a_shared_prefix_is_priced_at_the_cached_price_after_the_first_call(monkeypatch):
    model = "openai/gpt-4o-mini"
    assert has_cached_price(model) and not has_cached_price("openai/gpt-3.5-turbo")
    config = resolve_config(model=model, mode="quick")
    cached = estimate(config, source_chars=400_000)
    monkeypatch.setattr("debates.estimates.has_cached_price", lambda model: False)
    full = estimate(config, source_chars=400_000)
    info = litellm_module().get_model_info(model)
    saving = info["input_cost_per_token"] - info["cache_read_input_token_cost"]
    shared = PREFIX + int(SOURCE_BUDGET_TOKENS * (1 - SOURCE_FOCUS_SHARE)) + SOURCES_RULE
    warm_calls = cached.calls - 2  # the first call sends the prefix; the verifier has its own
    assert full.cost_usd - cached.cost_usd == pytest.approx(warm_calls * shared * saving)
    assert cached.prompt_tokens == full.prompt_tokens  # the same tokens, priced lower


def test_a_prefix_too_short_to_cache_and_a_model_without_a_cached_price_pay_in_full(
        monkeypatch):
    short_config = resolve_config(model="openai/gpt-4o-mini", mode="quick")
    uncached_config = resolve_config(model="openai/gpt-3.5-turbo", mode="quick")
    short = estimate(short_config, source_chars=1_000)  # a prefix under 1,024 tokens
    uncached = estimate(uncached_config, source_chars=400_000)
    assert uncached.price == "known" and uncached.cost_usd
    monkeypatch.setattr("debates.estimates.has_cached_price", lambda model: False)
    assert estimate(short_config, source_chars=1_000).cost_usd == pytest.approx(short.cost_usd)
    assert estimate(uncached_config, source_chars=400_000).cost_usd == pytest.approx(
        uncached.cost_usd)
