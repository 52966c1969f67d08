"""What every protocol's step runner shares: the events it reports, the hooks it
reports them through, and the gateway it calls the model with.

Kept apart from any one protocol so the generic protocol base, the CLI's progress, the
durable execution and the bench depend on these, never on the council.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from .llm.gateway import LLMGateway
from .schemas import CallRecord, EngineEventKind, Turn

if TYPE_CHECKING:
    from .state import DebateState


class EngineEvent(BaseModel):
    kind: EngineEventKind
    step: str
    phase: str
    round: int = 0
    agent: int | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class EngineHooks:
    """Where the engine reports. Subclass and override what you need."""

    async def on_turn(self, turn: Turn) -> None:
        """A turn finished (ok or failed); persist it before anything else relies on it."""

    async def on_call(self, record: CallRecord) -> None:
        """One LLM call attempt finished."""

    async def on_event(self, event: EngineEvent) -> None:
        """Progress for people watching."""

    def should_cancel(self) -> bool:
        return False


def make_gateway(state: DebateState, hooks: EngineHooks, **overrides: Any) -> LLMGateway:
    config = state.config
    kwargs: dict[str, Any] = {
        "timeout_s": config.call_timeout_s,
        "local_timeout_s": config.local_call_timeout_s,
        "turn_budget_s": config.turn_budget_s,
        "output_mode": config.output_mode,
        "max_retries": config.max_retries,
        "backoff_base_s": config.retry_backoff_s,
        "on_call": hooks.on_call,
        "should_cancel": hooks.should_cancel,
        "simulator": config.simulator,
        "context_limit_tokens": config.context_limit_tokens,
    }
    kwargs.update(overrides)
    return LLMGateway(**kwargs)
