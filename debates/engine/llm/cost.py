"""What a call used: one reply's tokens and price (litellm's price map), and the totals
over all the attempts of a call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from debates.engine.llm.capabilities import Capabilities
from debates.engine.llm.loader import litellm_module as _litellm

# Models litellm found no price for. The failed lookup walks litellm's whole cost map
# (milliseconds per call), and a model's price does not appear mid-process, so it is
# asked once per model. Only a reply that carried token usage can prove "no price":
# a priced model's lookup can also fail on a reply without usage.
_unpriced_models: set[str] = set()


def call_cost(caps: Capabilities, model: str, response: Any) -> float | None:
    if model in _unpriced_models:
        cost = None
    else:
        try:
            cost = _litellm().completion_cost(completion_response=response)
        except Exception:
            cost = None
        if cost is None and getattr(response, "usage", None) is not None:
            _unpriced_models.add(model)
    if cost is None and caps.cost_known:
        return 0.0
    return float(cost) if cost is not None else None


def reply_tokens(response: Any) -> tuple[int, int]:
    """(prompt tokens, completion tokens) as the reply reports them; 0 when it does not."""
    usage = getattr(response, "usage", None)
    prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
    return prompt_tokens, completion_tokens


def cached_tokens(response: Any) -> int:
    """Prompt tokens the provider served from its prompt cache, as the reply reports
    them: OpenAI's ``prompt_tokens_details.cached_tokens``, Anthropic's
    ``cache_read_input_tokens`` (litellm passes both on); 0 when it reports neither.
    ``call_cost`` already prices them at the cached price litellm's map knows."""
    usage = getattr(response, "usage", None)
    details = getattr(usage, "prompt_tokens_details", None)
    if isinstance(details, dict):
        openai = details.get("cached_tokens")
    else:
        openai = getattr(details, "cached_tokens", None)
    anthropic = getattr(usage, "cache_read_input_tokens", None)
    return max(int(openai or 0), int(anthropic or 0))


@dataclass
class Tally:
    """A call's totals over all its attempts; the cost is unknown once one is."""

    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0
    cached_prompt_tokens: int = 0

    def add(self, prompt_tokens: int, completion_tokens: int, cost: float | None,
            cached: int = 0) -> None:
        self.prompt_tokens += prompt_tokens
        self.cached_prompt_tokens += cached
        self.completion_tokens += completion_tokens
        self.cost_usd = None if cost is None or self.cost_usd is None else self.cost_usd + cost
