"""What a debate will cost, worst case, before it starts.

Pure: settings in, numbers out. The call count is exact for the worst case (every
round runs): compose 1 (unless every persona is given) + premortem N + position N
+ N x max_rounds + synthesis 1 + verifier 1. Retries and repairs are not counted;
they only happen on failures.

Token counts per call are rough averages of real runs, scaled by the question's
length and the panel size (a cross-examination prompt carries every peer's
position). They are there to tell a dollar from a hundred dollars, no finer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from debates.engine.capabilities import is_simulated
from debates.engine.schemas import DebateConfig, Persona, Phase

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
CHARS_PER_TOKEN = 4

Price = Literal["simulated", "known", "unknown"]


@dataclass(frozen=True)
class Estimate:
    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    price: Price

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


def _calls(*, agents: int, max_rounds: int, question_tokens: int, compose: bool) -> list[_Call]:
    q = question_tokens
    calls: list[_Call] = []
    if compose:
        calls.append(_Call(Phase.COMPOSE, COMPOSE[0] + q, COMPOSE[1] * agents))
    calls += [_Call(Phase.PREMORTEM, PREMORTEM[0] + q, PREMORTEM[1], a) for a in range(agents)]
    calls += [_Call(Phase.POSITION, POSITION[0] + q, POSITION[1], a) for a in range(agents)]
    for r in range(1, max_rounds + 1):
        prompt = (CROSS_EXAM[0] + q + CROSS_EXAM_PER_PEER * (agents - 1)
                  + (CROSS_EXAM_OWN_PREVIOUS if r > 1 else 0))
        calls += [_Call(Phase.CROSS_EXAM, prompt, CROSS_EXAM[1], a) for a in range(agents)]
    calls.append(_Call(Phase.SYNTHESIS,
                       SYNTHESIS[0] + q + SYNTHESIS_PER_AGENT_ROUND * agents * (max_rounds + 2),
                       SYNTHESIS[1]))
    calls.append(_Call(Phase.VERIFY, VERIFY[0] + SYNTHESIS[1], VERIFY[1]))
    return calls


def _cost(model: str, prompt: int, completion: int) -> float | None:
    # Imported here (only priced models get this far): litellm takes ~5 s to import.
    from debates.engine.llm_env import litellm

    try:
        prompt_cost, completion_cost = litellm.cost_per_token(
            model=model, prompt_tokens=prompt, completion_tokens=completion
        )
    except Exception:  # litellm raises its own errors for models it has no price for
        return None
    return float(prompt_cost) + float(completion_cost)


def estimate(config: DebateConfig, *, text_chars: int = 0, given_personas: int = 0,
             personas: Sequence[Persona] = ()) -> Estimate:
    """``text_chars``: length of the question plus its background, which every
    prompt carries. ``personas``: the given personas in panel order; an agent's calls
    are priced at its persona's own model where it names one (as the engine calls
    it). ``given_personas`` counts given personas when only their number is known."""
    given_personas = max(given_personas, len(personas))
    agents = max(config.n_agents, given_personas)
    calls = _calls(
        agents=agents,
        max_rounds=config.round_cap,
        question_tokens=max(text_chars, 0) // CHARS_PER_TOKEN,
        compose=given_personas < agents,
    )
    total: float | None = 0.0
    simulated = True
    for call in calls:
        persona = personas[call.agent] if 0 <= call.agent < len(personas) else None
        model = config.model_for(call.phase.value, persona)
        if is_simulated(model):
            continue
        simulated = False
        cost = _cost(model, call.prompt, call.completion)
        total = None if cost is None or total is None else total + cost
    price: Price = "simulated" if simulated else ("unknown" if total is None else "known")
    return Estimate(
        calls=len(calls),
        prompt_tokens=sum(c.prompt for c in calls),
        completion_tokens=sum(c.completion for c in calls),
        cost_usd=0.0 if simulated else total,
        price=price,
    )
