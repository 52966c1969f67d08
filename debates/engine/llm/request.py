"""One request to litellm: what a structured call asks (``StructuredCall``), the
parameters one attempt sends, and the hard timeout around it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from debates.engine.llm.capabilities import Capabilities, OutputMode, provider_of
from debates.engine.llm.loader import litellm_module as _litellm
from debates.engine.llm.output_format import (
    SCHEMA_CONSTRAINED_MODES,
    format_params,
    json_schema_of,
    needs_schema_in_prompt,
)
from debates.engine.prompts import with_schema_keys, without_schema
from debates.engine.schemas import CallTag, SimulatorOptions

T = TypeVar("T", bound=BaseModel)

# litellm enforces ``timeout`` on HTTP providers itself; this margin lets its own (more
# informative) Timeout win the race, while still bounding a provider that ignores it.
HARD_TIMEOUT_MARGIN_S = 5.0


@dataclass(frozen=True)
class StructuredCall(Generic[T]):
    """What a protocol asks for, the same for every attempt and every model tried."""

    schema: type[T]
    messages: list[dict[str, str]]
    tag: CallTag
    temperature: float | None = None
    seed: int | None = None
    hints: dict[str, Any] | None = None


@dataclass(frozen=True)
class AttemptRequest:
    """What changes from one attempt to the next."""

    prompt: list[dict[str, str]]
    mode: OutputMode
    timeout: float
    max_tokens: int
    # The bound on every text field of the schema sent (``LLMGateway.text_bound``).
    max_text_chars: int | None = None


async def send(
    call: StructuredCall[Any],
    model: str,
    caps: Capabilities,
    request: AttemptRequest,
    *,
    simulator: SimulatorOptions | None,
    api_key: str | None,
) -> Any:
    kwargs = request_kwargs(call, model, caps, request, api_key)
    if caps.call_context:
        kwargs["metadata"] = call_context(call, simulator)
        hard_timeout = request.timeout
    else:
        hard_timeout = request.timeout + HARD_TIMEOUT_MARGIN_S
    # wait_for cancels the request on timeout, which closes its connection: a local
    # server sees the client go and stops generating the abandoned reply.
    return await asyncio.wait_for(_litellm().acompletion(**kwargs), timeout=hard_timeout)


def request_kwargs(
    call: StructuredCall[Any],
    model: str,
    caps: Capabilities,
    request: AttemptRequest,
    api_key: str | None,
) -> dict[str, Any]:
    messages = request.prompt
    if request.mode in SCHEMA_CONSTRAINED_MODES:
        messages = without_schema(messages, call.schema)
    elif request.mode == "json_object" and not needs_schema_in_prompt(model, caps.api_base):
        # The request carries the schema (llama.cpp decodes to it): the prompt names
        # its keys, the cheaper form that still says what to write (docs/models.md).
        messages = with_schema_keys(messages, call.schema)
    kwargs: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "timeout": request.timeout,
        "max_tokens": request.max_tokens,
        # The gateway retries itself, so that every attempt reaches the ledger.
        "num_retries": 0,
        "max_retries": 0,
        **format_params(request.mode, call.schema, request.max_text_chars),
    }
    supported = caps.params
    # Temperature is near-universal, so it is kept when litellm does not know the
    # model; a seed is only sent where the provider is known to accept it.
    if call.temperature is not None and (supported is None or "temperature" in supported):
        kwargs["temperature"] = call.temperature
    if call.seed is not None and supported is not None and "seed" in supported:
        kwargs["seed"] = call.seed
    if caches_by_marker(model):
        # The system message is the prompt's shared prefix (prompts.head): marked, so
        # Anthropic caches it; litellm puts the marker on the message.
        kwargs["cache_control_injection_points"] = [{"location": "message", "role": "system"}]
    if caps.api_base:
        kwargs["api_base"] = caps.api_base
    api_key = caps.api_key or api_key
    if api_key:
        kwargs["api_key"] = api_key
    return kwargs


def caches_by_marker(model: str) -> bool:
    """Whether ``model``'s provider caches a prompt prefix only where the request marks
    it (Anthropic's ``cache_control``); OpenAI and others cache prefixes by themselves."""
    provider = provider_of(model)
    return provider == "anthropic" or (not provider and model.startswith("claude"))


def call_context(call: StructuredCall[Any], simulator: SimulatorOptions | None) -> dict[str, Any]:
    """The litellm metadata a provider that writes its answers from the call (the
    simulator) receives; a real provider is never sent it."""
    tag = call.tag
    schema: type[BaseModel] = call.schema
    return {
        "council": {
            "schema": schema.__name__,
            "json_schema": json_schema_of(schema),
            "phase": tag.phase.value,
            "round": tag.round,
            "agent": tag.agent,
            "agent_name": tag.agent_name,
            "hints": call.hints or {},
            # Only the fields set explicitly: the simulator takes the rest from
            # its COUNCIL_SIM_* environment defaults.
            "simulator": simulator.model_dump(exclude_unset=True) if simulator else None,
        }
    }
