"""What a debate will cost, worst case, before it starts (``estimate``), and what
"one more round" on a finished one will add (``estimate_more_round``).

Pure: settings in, numbers out, and blind to protocols. The debate's protocol plans its
calls (``DebateProtocol.planned_calls``: every call its worst case makes, every round
run; ``more_round_calls`` for one more round); this module adds what the calls are
shown of the sources and prices them. Retries and repairs are not counted; they only
happen on failures. A protocol that plans no calls cannot be estimated: its price is
unknown, as an unpriced model's is.

Every model the debate may call counts (``debate_models``): the unpriced-model rule
asks about each, and a call that may fall back is priced at the dearer of its model and
the fallback, so a cheap or simulated model with a paid fallback is no way around the
team's cost cap or budget (docs/teams.md).

Token counts per call are the protocols' rough averages of real runs, scaled by the
question's length and the panel size. They are there to tell a dollar from a hundred
dollars, no finer.

Every prompt opens with the same prefix (the preamble, the sources shown whole or the
question's passages, the question and background; docs/engine.md, "Sources"). Once a
model has been sent it, a provider's prompt cache serves it to that model's later calls
when it is long enough to be cached (1,024 tokens); those tokens are priced at the
model's cached price where litellm's cost map has one (``cache_read_input_token_cost``),
else at the full price.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from debates.engine import (
    SOURCE_BUDGET_TOKENS,
    SOURCE_FOCUS_SHARE,
    DebateConfig,
    Persona,
    Phase,
    PlannedCall,
    get_protocol,
    is_simulated,
)

CHARS_PER_TOKEN = 4
# The preamble and the citation rule that open the shared prefix (prompts v3).
PREFIX = 110
SOURCES_RULE = 110
# The shortest prefix the providers cache (OpenAI's and Anthropic's minimum).
CACHE_MIN_TOKENS = 1_024
# Calls shown no sources, whose prefix is their own (docs/engine.md, "Sources").
UNSOURCED = (Phase.VERIFY, Phase.JUDGE)

Price = Literal["simulated", "known", "unknown"]


@dataclass(frozen=True)
class Estimate:
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    price: Price
    # The models litellm has no price for (they make ``cost_usd`` None).
    unpriced_models: tuple[str, ...] = ()

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def cost_label(self) -> str:
        if self.price == "simulated":
            return "free (simulated)"
        if self.price == "unknown" or self.cost_usd is None:
            return "unknown price"
        return f"about ${self.cost_usd:.2f}" if self.cost_usd >= 0.01 else "under $0.01"


@dataclass(frozen=True)
class _Call:
    """A planned call with what it is shown of the sources added to its prompt."""

    planned: PlannedCall
    prompt: int
    shared: int = 0  # of ``prompt``, the tokens of the prefix every sourced call shares


def _with_sources(calls: Sequence[PlannedCall], *, question_tokens: int,
                  source_tokens: int) -> list[_Call]:
    """The calls with their shared prefix counted, and the sources they are shown added:
    sources that fit the budget whole go in the prefix; otherwise three quarters of the
    budget (the question's passages) go in the prefix and a quarter (the passages on
    the points under discussion) after it (debates/engine/sources/offer.py)."""
    if source_tokens <= 0:
        shown, focused = 0, 0
    elif source_tokens <= SOURCE_BUDGET_TOKENS:
        shown, focused = source_tokens + SOURCES_RULE, 0
    else:
        focused = int(SOURCE_BUDGET_TOKENS * SOURCE_FOCUS_SHARE)
        shown = SOURCE_BUDGET_TOKENS - focused + SOURCES_RULE
    out = []
    for call in calls:
        if call.phase in UNSOURCED:
            out.append(_Call(call, call.prompt_tokens))
            continue
        out.append(_Call(call, call.prompt_tokens + shown + focused,
                         shared=PREFIX + question_tokens + shown))
    return out


def debate_models(config: DebateConfig, personas: Sequence[Persona] = ()) -> tuple[str, ...]:
    """Every model a debate with ``config`` and the given ``personas`` may call, each
    once, in this order: the debate's model, the panel's, the phases' own (the synthesis model), the
    personas' own, the fallback, the judge. The limits and the model checks go through this list:
    a model a debate can reach is added here, and only here."""
    models = [
        config.model,
        *config.panel_models,
        *config.phase_models.values(),
        *(p.model for p in personas if p.model),
        *_fallbacks(config),
        *([config.judge_model] if config.judge_model else []),
    ]
    return tuple(dict.fromkeys(models))


def _fallbacks(config: DebateConfig) -> tuple[str, ...]:
    """The models a failed call may be retried on (the engine's gateway)."""
    return (config.fallback_model,) if config.fallback_model else ()


def has_cached_price(model: str) -> bool:
    """Whether litellm's cost map has a cached-prompt price for ``model``."""
    from debates.engine import litellm_module

    try:
        info = litellm_module().get_model_info(model)
    except Exception:  # no entry: no cached price either
        return False
    return bool(info.get("cache_read_input_token_cost"))


def _cost(model: str, prompt: int, completion: int, cached: int = 0) -> float | None:
    """The price of a call; ``cached`` of the ``prompt`` tokens at the cached price
    when the model has one."""
    # Imported here (only priced models get this far): litellm takes ~5 s to import.
    from debates.engine import litellm_module

    litellm = litellm_module()
    cached = min(cached, prompt) if cached and has_cached_price(model) else 0
    try:
        prompt_cost, completion_cost = litellm.cost_per_token(
            model=model, prompt_tokens=prompt, completion_tokens=completion,
            cache_read_input_tokens=cached,
        )
    except Exception:  # litellm raises its own errors for models it has no price for
        return None
    return float(prompt_cost) + float(completion_cost)


def estimate(config: DebateConfig, *, text_chars: int = 0, given_personas: int = 0,
             personas: Sequence[Persona] = (), source_chars: int = 0) -> Estimate:
    """``text_chars``: length of the question plus its background, which every
    prompt carries. ``personas``: the given personas in panel order; an agent's calls
    are priced at its persona's own model where it names one (as the engine calls
    it). ``given_personas`` counts given personas when only their number is known.
    ``source_chars``: the length of the sources' text, what the calls are shown of it
    counted (``_with_sources``)."""
    q = max(text_chars, 0) // CHARS_PER_TOKEN
    try:
        calls = get_protocol(config.protocol).planned_calls(
            config, agents_given=max(given_personas, len(personas)), question_tokens=q)
    except NotImplementedError:
        return _unplanned(config, personas)
    return _priced(_with_sources(calls, question_tokens=q,
                                 source_tokens=max(source_chars, 0) // CHARS_PER_TOKEN),
                   config, personas)


def estimate_more_round(config: DebateConfig, *, round_number: int,
                        personas: Sequence[Persona], text_chars: int = 0,
                        source_chars: int = 0) -> Estimate:
    """What "one more round" adds to a finished debate: round ``round_number`` by
    ``personas`` (the agents still taking part, each priced at its own model where it
    names one) and what follows it, as the protocol plans them (``more_round_calls``:
    none for a protocol that offers no more rounds)."""
    q = max(text_chars, 0) // CHARS_PER_TOKEN
    # The protocol plans the round for the panel its config names: here, those still in it.
    taking_part = config.model_copy(update={"agents": len(personas)})
    calls = get_protocol(config.protocol).more_round_calls(
        taking_part, rounds_run=round_number - 1, question_tokens=q)
    return _priced(_with_sources(calls, question_tokens=q,
                                 source_tokens=max(source_chars, 0) // CHARS_PER_TOKEN),
                   config, personas)


def _call_cost(call: _Call, config: DebateConfig, personas: Sequence[Persona],
               warm: set[str]) -> float:
    """The worst case of one call: its own model, or a fallback where it may fall back.
    Only asked once every model has a price. ``warm``: the models already sent the
    shared prefix, whose cache serves it to this call."""
    planned = call.planned
    persona = personas[planned.agent] if 0 <= planned.agent < len(personas) else None
    models = [config.model_for(planned.phase.value, persona, planned.agent)]
    if planned.may_fall_back:
        models += _fallbacks(config)
    cacheable = call.shared >= CACHE_MIN_TOKENS
    costs = (_cost(model, call.prompt, planned.completion_tokens,
                   cached=call.shared if cacheable and model in warm else 0)
             for model in models if not is_simulated(model))
    cost = max((c for c in costs if c is not None), default=0.0)
    if cacheable:
        warm.update(models)
    return cost


def _paid_models(config: DebateConfig, personas: Sequence[Persona]
                 ) -> tuple[list[str], tuple[str, ...]]:
    """The models a debate may call that are not simulated, and those of them litellm
    has no price for at all."""
    paid = [m for m in debate_models(config, personas) if not is_simulated(m)]
    return paid, tuple(m for m in paid if _cost(m, 1, 1) is None)


def _priced(calls: Sequence[_Call], config: DebateConfig,
            personas: Sequence[Persona]) -> Estimate:
    paid, unpriced = _paid_models(config, personas)
    simulated = not paid
    total: float | None = None
    if not unpriced:
        warm: set[str] = set()
        total = sum(_call_cost(call, config, personas, warm) for call in calls)
    price: Price = "simulated" if simulated else ("unknown" if total is None else "known")
    return Estimate(
        calls=len(calls),
        prompt_tokens=sum(c.prompt for c in calls),
        completion_tokens=sum(c.planned.completion_tokens for c in calls),
        cost_usd=0.0 if simulated else total,
        price=price,
        unpriced_models=unpriced,
    )


def _unplanned(config: DebateConfig, personas: Sequence[Persona]) -> Estimate:
    """A protocol that plans no calls: free on simulated models, else of unknown price
    (refused under a cap or budget, as an unpriced model is; docs/teams.md)."""
    paid, unpriced = _paid_models(config, personas)
    return Estimate(calls=0, prompt_tokens=0, completion_tokens=0,
                    cost_usd=None if paid else 0.0,
                    price="unknown" if paid else "simulated", unpriced_models=unpriced)
