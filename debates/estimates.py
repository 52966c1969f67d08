"""What a debate will cost, worst case, before it starts (``estimate``), and what
"one more round" on a finished one will add (``estimate_more_round``).

Pure: settings in, numbers out. The call count is exact for the worst case (every
round runs): compose 1 (unless every persona is given) + premortem N + position N
+ N x max_rounds + synthesis 1 + verifier 1 (+ judge 1 when a judge model is set); one
more round is N cross-examinations + synthesis 1 + verifier 1 (+ judge 1) again.
Retries and repairs are not counted; they only happen on failures.

Every model the debate may call counts (``debate_models``): the unpriced-model rule
asks about each, and a call that may fall back is priced at the dearer of its model and
the fallback, so a cheap or simulated model with a paid fallback is no way around the
team's cost cap or budget (docs/teams.md).

Token counts per call are rough averages of real runs, scaled by the question's
length and the panel size (a cross-examination prompt carries every peer's
position). They are there to tell a dollar from a hundred dollars, no finer.

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
    CouncilPhase,
    DebateConfig,
    Persona,
    Phase,
    is_simulated,
)

# Approximate tokens per call (prompt, completion), before the question is added.
COMPOSE = (600, 200)  # completion per persona
PREMORTEM = (500, 300)
POSITION = (650, 300)
CROSS_EXAM = (800, 350)
CROSS_EXAM_PER_PEER = 250
CROSS_EXAM_OWN_PREVIOUS = 200
SYNTHESIS = (1200, 1200)
SYNTHESIS_PER_AGENT_ROUND = 100
VERIFY = (400, 200)
# The optional judge reads the synthesis it grades (docs/engine.md, "Content checks").
JUDGE = (400 + SYNTHESIS[1], 200)
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
    phase: Phase
    prompt: int
    completion: int
    agent: int = -1  # -1: a panel-wide call (compose, synthesis, verifier)
    shared: int = 0  # of ``prompt``, the tokens of the prefix every sourced call shares


def _with_sources(calls: Sequence[_Call], *, question_tokens: int,
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
            out.append(call)
            continue
        out.append(_Call(call.phase, call.prompt + shown + focused, call.completion, call.agent,
                         shared=PREFIX + question_tokens + shown))
    return out


def _cross_exam_round(*, agents: int, round_number: int, question_tokens: int
                      ) -> list[_Call]:
    prompt = (CROSS_EXAM[0] + question_tokens + CROSS_EXAM_PER_PEER * (agents - 1)
              + (CROSS_EXAM_OWN_PREVIOUS if round_number > 1 else 0))
    return [_Call(CouncilPhase.CROSS_EXAM, prompt, CROSS_EXAM[1], a) for a in range(agents)]


def _synthesis(*, agents: int, rounds: int, question_tokens: int) -> list[_Call]:
    return [
        _Call(Phase.SYNTHESIS,
              SYNTHESIS[0] + question_tokens + SYNTHESIS_PER_AGENT_ROUND * agents * (rounds + 2),
              SYNTHESIS[1]),
        _Call(Phase.VERIFY, VERIFY[0] + SYNTHESIS[1], VERIFY[1]),
    ]


def _calls(*, agents: int, max_rounds: int, question_tokens: int, compose: bool) -> list[_Call]:
    q = question_tokens
    calls: list[_Call] = []
    if compose:
        calls.append(_Call(CouncilPhase.COMPOSE, COMPOSE[0] + q, COMPOSE[1] * agents))
    calls += [
        _Call(CouncilPhase.PREMORTEM, PREMORTEM[0] + q, PREMORTEM[1], a) for a in range(agents)
    ]
    calls += [_Call(CouncilPhase.POSITION, POSITION[0] + q, POSITION[1], a) for a in range(agents)]
    for r in range(1, max_rounds + 1):
        calls += _cross_exam_round(agents=agents, round_number=r, question_tokens=q)
    return calls + _synthesis(agents=agents, rounds=max_rounds, question_tokens=q)


def debate_models(config: DebateConfig, personas: Sequence[Persona] = ()) -> tuple[str, ...]:
    """Every model a debate with ``config`` and the given ``personas`` may call, each
    once, in this order: the debate's model, the phases' own (the synthesis model), the
    personas' own, the fallback, the judge. The limits and the model checks go through this list:
    a model a debate can reach is added here, and only here."""
    models = [
        config.model,
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
    given_personas = max(given_personas, len(personas))
    agents = max(config.n_agents, given_personas)
    q = max(text_chars, 0) // CHARS_PER_TOKEN
    calls = _calls(
        agents=agents,
        max_rounds=config.round_cap,
        question_tokens=q,
        compose=given_personas < agents,
    )
    calls = _with_sources(calls, question_tokens=q,
                          source_tokens=max(source_chars, 0) // CHARS_PER_TOKEN)
    return _priced(calls, config, personas)


def estimate_more_round(config: DebateConfig, *, round_number: int,
                        personas: Sequence[Persona], text_chars: int = 0,
                        source_chars: int = 0) -> Estimate:
    """What "one more round" adds to a finished debate: round ``round_number`` of
    cross-examination by ``personas`` (the agents still taking part, each priced at
    its own model where it names one), then a new synthesis and verifier."""
    q = max(text_chars, 0) // CHARS_PER_TOKEN
    agents = len(personas)
    calls = (_cross_exam_round(agents=agents, round_number=round_number, question_tokens=q)
             + _synthesis(agents=agents, rounds=round_number, question_tokens=q))
    calls = _with_sources(calls, question_tokens=q,
                          source_tokens=max(source_chars, 0) // CHARS_PER_TOKEN)
    return _priced(calls, config, personas)


def _call_cost(call: _Call, config: DebateConfig, personas: Sequence[Persona],
               warm: set[str]) -> float:
    """The worst case of one call: its own model, or a fallback where it may fall back
    (every call but compose). Only asked once every model has a price. ``warm``: the
    models already sent the shared prefix, whose cache serves it to this call."""
    persona = personas[call.agent] if 0 <= call.agent < len(personas) else None
    models = [config.model_for(call.phase.value, persona)]
    if call.phase is not CouncilPhase.COMPOSE:
        models += _fallbacks(config)
    cacheable = call.shared >= CACHE_MIN_TOKENS
    costs = (_cost(model, call.prompt, call.completion,
                   cached=call.shared if cacheable and model in warm else 0)
             for model in models if not is_simulated(model))
    cost = max((c for c in costs if c is not None), default=0.0)
    if cacheable:
        warm.update(models)
    return cost


def _priced(calls: Sequence[_Call], config: DebateConfig,
            personas: Sequence[Persona]) -> Estimate:
    if config.judge_model:  # one grade of each synthesis, after the verifier
        calls = [*calls, _Call(Phase.JUDGE, *JUDGE)]
    paid = [m for m in debate_models(config, personas) if not is_simulated(m)]
    # A model is unpriced when litellm has no price for it at all.
    unpriced = tuple(m for m in paid if _cost(m, 1, 1) is None)
    simulated = not paid
    total: float | None = None
    if not unpriced:
        warm: set[str] = set()
        total = sum(_call_cost(call, config, personas, warm) for call in calls)
    price: Price = "simulated" if simulated else ("unknown" if total is None else "known")
    return Estimate(
        calls=len(calls),
        prompt_tokens=sum(c.prompt for c in calls),
        completion_tokens=sum(c.completion for c in calls),
        cost_usd=0.0 if simulated else total,
        price=price,
        unpriced_models=unpriced,
    )
