"""A debate's usage (calls, tokens, cost) summed from its ledger records."""

from __future__ import annotations

from ..schemas import CallRecord, Usage
from .capabilities import cost_known


def usage_from_calls(records: list[CallRecord], wall_time_s: float = 0.0) -> Usage:
    usage = Usage(wall_time_s=wall_time_s)
    for record in records:
        usage.calls += 1
        usage.failed_calls += 0 if record.ok else 1
        usage.prompt_tokens += record.prompt_tokens
        usage.cached_prompt_tokens += record.cached_prompt_tokens
        usage.completion_tokens += record.completion_tokens
        if record.cost_usd is None:
            # Unknown price (local or unlisted model): say so rather than report $0.
            usage.cost_known = usage.cost_known and cost_known(record.model)
        else:
            usage.cost_usd += record.cost_usd
    return usage
