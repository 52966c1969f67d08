"""The one LLM gateway: every model call of the engine goes through ``LLMGateway``.

It owns what the protocols must not re-implement: structured output with Pydantic
validation and one repair attempt, bounded retries with backoff and jitter on
transient errors only, a fallback model, the context budget, cancellation, and a
ledger record for every single attempt.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

import httpx
import openai
from pydantic import BaseModel, ValidationError

from debates.engine.llm_env import litellm
from debates.engine.schemas import CallRecord, CallTag, SimulatorOptions

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

DEFAULT_CONTEXT_LIMIT = 8192
SIM_CONTEXT_LIMIT = 32768
ANSWER_RESERVE_TOKENS = 1024
MAX_REPAIR_REPLY_CHARS = 2000
MAX_REPAIR_ERROR_CHARS = 1500
MAX_RECORD_ERROR_CHARS = 500
# litellm enforces ``timeout`` on HTTP providers itself; this margin lets its own (more
# informative) Timeout win the race, while still bounding a provider that ignores it.
HARD_TIMEOUT_MARGIN_S = 5.0

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    litellm.Timeout,
    litellm.RateLimitError,
    litellm.APIConnectionError,
    litellm.InternalServerError,
    litellm.ServiceUnavailableError,
    litellm.BadGatewayError,
    asyncio.TimeoutError,
    TimeoutError,
)


class CallFailed(Exception):
    """A call failed on every model tried; ``message`` is the provider's own text."""

    def __init__(self, *, error_class: str, message: str, attempts: int, model: str) -> None:
        super().__init__(f"{model}: {error_class}: {message}")
        self.error_class = error_class
        self.message = message
        self.attempts = attempts
        self.model = model


class ContextTooLong(Exception):
    """The prompt does not fit ``model``'s context window (minus the answer reserve)."""

    def __init__(self, *, tokens: int, limit: int, model: str) -> None:
        super().__init__(
            f"prompt of {tokens} tokens does not fit {model}: at most {limit} tokens "
            f"leave room for the answer"
        )
        self.tokens = tokens
        self.limit = limit
        self.model = model


class Cancelled(Exception):
    """The debate was cancelled; raised before an attempt is started."""


@dataclass
class CallOutcome(Generic[T]):
    """A validated answer. Tokens and cost are totals over all attempts of the call."""

    value: T
    model: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    attempts: int = 1


class _Invalid(Exception):
    """The reply is unusable; ``message`` is what the repair prompt shows the model."""

    def __init__(self, error_class: str, message: str) -> None:
        super().__init__(message)
        self.error_class = error_class
        self.message = message


def is_sim(model: str) -> bool:
    return model.startswith("sim/")


def _network_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [OSError, asyncio.TimeoutError, openai.APIError]
    errors.append(httpx.TransportError)
    try:
        import aiohttp

        errors.append(aiohttp.ClientError)
    except ImportError:  # pragma: no cover - aiohttp is optional for litellm
        pass
    return tuple(errors)


_NETWORK_ERRORS = _network_errors()


def unmapped_error(exc: BaseException) -> BaseException | None:
    """The original exception when litellm wrapped a non-network error as a connection error.

    litellm turns any exception it cannot map (a bug in a provider adapter, a custom
    provider raising ValueError ...) into ``APIConnectionError``, which would otherwise
    look transient and be retried, and whose text is a traceback plus a bug-report link.
    """
    if type(exc) is not litellm.APIConnectionError:
        return None
    inner = exc.__cause__ or exc.__context__
    if inner is None or isinstance(inner, _NETWORK_ERRORS):
        return None
    return inner


def is_transient(exc: BaseException) -> bool:
    if unmapped_error(exc) is not None:
        return False
    if isinstance(exc, TRANSIENT_ERRORS):
        return True
    # Some providers surface 5xx as a generic APIError.
    status = getattr(exc, "status_code", None)
    return isinstance(exc, litellm.APIError) and isinstance(status, int) and status >= 500


def error_class_of(exc: BaseException) -> str:
    inner = unmapped_error(exc)
    if inner is not None:
        return type(inner).__name__
    if isinstance(exc, asyncio.TimeoutError | TimeoutError) and not isinstance(
        exc, litellm.Timeout
    ):
        return "Timeout"
    return type(exc).__name__


# --------------------------------------------------------------------------- parsing

_FENCE = re.compile(r"```[A-Za-z0-9_-]*\s*\n?(.*?)```", re.S)


def extract_json(text: str) -> Any:
    """The outermost JSON object in a reply, tolerating code fences and chatter."""
    if not text or not text.strip():
        raise _Invalid("EmptyResponse", "the reply was empty")
    body = text.strip()
    fence = _FENCE.search(body)
    # The fenced block first; the whole reply if that fails (e.g. a fence inside a string).
    candidates = [fence.group(1), body] if fence else [body]
    problem = "the reply contains no JSON object"
    for candidate in candidates:
        start, end = candidate.find("{"), candidate.rfind("}")
        if start == -1:
            continue
        if end <= start:
            problem = "the reply is not valid JSON: an object is opened but never closed"
            continue
        try:
            return json.loads(candidate[start : end + 1])
        except json.JSONDecodeError as exc:
            problem = (
                f"the reply is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            )
    raise _Invalid("ValidationError", problem)


def describe_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        given = repr(err.get("input"))
        given = given if len(given) <= 60 else given[:57] + "..."
        parts.append(f"{loc}: {err['msg']} (got {given})")
    return "; ".join(parts)


def parse_reply(schema: type[T], text: str) -> T:
    data = extract_json(text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise _Invalid(
            "ValidationError",
            f"the JSON does not match the {schema.__name__} schema: "
            f"{describe_validation_error(exc)}",
        ) from None


def repair_messages(
    messages: list[dict[str, str]], bad_reply: str, error: str, schema_name: str
) -> list[dict[str, str]]:
    """The original prompt plus one exchange: repairs never pile up."""
    reply = bad_reply[:MAX_REPAIR_REPLY_CHARS] if bad_reply.strip() else "(empty reply)"
    if len(error) > MAX_REPAIR_ERROR_CHARS:
        error = error[: MAX_REPAIR_ERROR_CHARS - 3] + "..."
    return [
        *messages,
        {"role": "assistant", "content": reply},
        {
            "role": "user",
            "content": (
                f"Your previous reply could not be used: {error}\n\n"
                f"Reply again with only the corrected JSON object for {schema_name}: "
                "no explanations, no code fences."
            ),
        },
    ]


# --------------------------------------------------------------------------- model facts
# Cached: some lookups (e.g. Ollama model info) make a network request.


@lru_cache(maxsize=256)
def _model_input_limit(model: str) -> int | None:
    try:
        info = litellm.get_model_info(model)
    except Exception:
        return None
    limit = info.get("max_input_tokens") if info else None
    return int(limit) if limit else None


@lru_cache(maxsize=256)
def _supports_schema(model: str) -> bool:
    try:
        return bool(litellm.supports_response_schema(model=model))
    except Exception:
        return False


@lru_cache(maxsize=256)
def _supported_params(model: str) -> frozenset[str] | None:
    try:
        params = litellm.get_supported_openai_params(model=model)
    except Exception:
        return None
    return frozenset(params) if params is not None else None


def _cost(model: str, response: Any) -> float | None:
    if is_sim(model):
        return 0.0
    try:
        cost = litellm.completion_cost(completion_response=response)
    except Exception:
        return None
    return float(cost) if cost is not None else None


# --------------------------------------------------------------------------- gateway


@dataclass
class _Tally:
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0


class LLMGateway:
    def __init__(
        self,
        *,
        timeout_s: float = 120,
        max_retries: int = 2,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 8.0,
        on_call: Callable[[CallRecord], Awaitable[None]] | None = None,
        should_cancel: Callable[[], bool] | None = None,
        simulator: SimulatorOptions | None = None,
        context_limit_tokens: int | None = None,
        api_base: str | None = None,
        api_key: str | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.on_call = on_call
        self.should_cancel = should_cancel
        self.simulator = simulator
        self.context_limit_tokens = context_limit_tokens
        self.api_base = api_base
        self.api_key = api_key
        self._jitter = random.Random()

    # ------------------------------------------------------------------ context budget

    def count_tokens(self, messages: list[dict[str, str]], model: str) -> int:
        try:
            return int(litellm.token_counter(model=model, messages=messages))
        except Exception:
            return sum(len(str(m.get("content") or "")) for m in messages) // 4

    def context_limit(self, model: str) -> int:
        if self.context_limit_tokens:
            return self.context_limit_tokens
        if is_sim(model):
            return SIM_CONTEXT_LIMIT
        return _model_input_limit(model) or DEFAULT_CONTEXT_LIMIT

    def prompt_budget(self, model: str) -> int:
        """Tokens a prompt may use: the context window minus a reserve for the answer."""
        limit = self.context_limit(model)
        return limit - min(ANSWER_RESERVE_TOKENS, limit // 10)

    def check_context(self, messages: list[dict[str, str]], model: str) -> None:
        tokens = self.count_tokens(messages, model)
        budget = self.prompt_budget(model)
        if tokens > budget:
            raise ContextTooLong(tokens=tokens, limit=budget, model=model)

    # ------------------------------------------------------------------ calls

    async def structured(
        self,
        schema: type[T],
        *,
        messages: list[dict[str, str]],
        model: str,
        tag: CallTag,
        temperature: float | None = None,
        seed: int | None = None,
        hints: dict[str, Any] | None = None,
        fallback_model: str | None = None,
    ) -> CallOutcome[T]:
        """Ask ``model`` for a ``schema`` object; raises CallFailed, ContextTooLong, Cancelled."""
        self._raise_if_cancelled()
        self.check_context(messages, model)
        tally = _Tally()
        models = [model]
        if fallback_model and fallback_model != model:
            models.append(fallback_model)

        failure: CallFailed | None = None
        for current in models:
            if failure is not None:
                try:
                    self.check_context(messages, current)
                except ContextTooLong as exc:
                    raise CallFailed(
                        error_class=failure.error_class,
                        message=f"{failure.message} (fallback {current} not tried: {exc})",
                        attempts=tally.attempts,
                        model=failure.model,
                    ) from exc
                log.info("falling back from %s to %s: %s", failure.model, current, failure)
            try:
                return await self._run_model(
                    schema, messages, current, tag, temperature, seed, hints, tally
                )
            except CallFailed as exc:
                failure = exc
        assert failure is not None
        failure.attempts = tally.attempts
        raise failure

    async def _run_model(
        self,
        schema: type[T],
        messages: list[dict[str, str]],
        model: str,
        tag: CallTag,
        temperature: float | None,
        seed: int | None,
        hints: dict[str, Any] | None,
        tally: _Tally,
    ) -> CallOutcome[T]:
        retries = 0
        purpose = "call"
        prompt = messages
        while True:
            self._raise_if_cancelled()
            tally.attempts += 1
            attempt = tally.attempts
            started = time.perf_counter()
            try:
                response = await self._complete(
                    schema, prompt, model, tag, temperature, seed, hints
                )
            except (Cancelled, asyncio.CancelledError):
                raise
            except Exception as exc:
                latency_ms = int((time.perf_counter() - started) * 1000)
                error_class = error_class_of(exc)
                message = str(unmapped_error(exc) or exc) or error_class
                if isinstance(exc, asyncio.TimeoutError | TimeoutError) and not isinstance(
                    exc, litellm.Timeout
                ):
                    message = f"no reply from {model} within {self.timeout_s:g} s"
                await self._record(
                    tag,
                    attempt,
                    purpose,
                    model,
                    latency_ms,
                    ok=False,
                    error_class=error_class,
                    error=message,
                )
                if is_transient(exc) and retries < self.max_retries:
                    delay = self._jitter.uniform(
                        0, min(self.backoff_max_s, self.backoff_base_s * 2**retries)
                    )
                    retries += 1
                    log.info("%s: %s, retry %d in %.2fs", model, error_class, retries, delay)
                    await asyncio.sleep(delay)
                    continue
                raise CallFailed(
                    error_class=error_class, message=message, attempts=attempt, model=model
                ) from exc

            latency_ms = int((time.perf_counter() - started) * 1000)
            usage = getattr(response, "usage", None)
            prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
            completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
            cost = _cost(model, response)
            tally.prompt_tokens += prompt_tokens
            tally.completion_tokens += completion_tokens
            tally.cost_usd = (
                None if cost is None or tally.cost_usd is None else tally.cost_usd + cost
            )
            text = _reply_text(response)

            try:
                value = parse_reply(schema, text)
            except _Invalid as invalid:
                await self._record(
                    tag,
                    attempt,
                    purpose,
                    model,
                    latency_ms,
                    ok=False,
                    error_class=invalid.error_class,
                    error=invalid.message,
                    prompt_tokens=prompt_tokens,
                    completion_tokens=completion_tokens,
                    cost=cost,
                )
                if purpose == "repair":
                    # A model that cannot fix its answer when shown the error will not
                    # fix it on a third try either: fail fast.
                    raise CallFailed(
                        error_class="ValidationError",
                        message=invalid.message,
                        attempts=attempt,
                        model=model,
                    ) from None
                purpose = "repair"
                prompt = repair_messages(messages, text, invalid.message, schema.__name__)
                continue

            await self._record(
                tag,
                attempt,
                purpose,
                model,
                latency_ms,
                ok=True,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                cost=cost,
            )
            return CallOutcome(
                value=value,
                model=model,
                prompt_tokens=tally.prompt_tokens,
                completion_tokens=tally.completion_tokens,
                cost_usd=tally.cost_usd,
                attempts=tally.attempts,
            )

    async def _complete(
        self,
        schema: type[BaseModel],
        messages: list[dict[str, str]],
        model: str,
        tag: CallTag,
        temperature: float | None,
        seed: int | None,
        hints: dict[str, Any] | None,
    ) -> Any:
        kwargs: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "timeout": self.timeout_s,
            # The gateway retries itself, so that every attempt reaches the ledger.
            "num_retries": 0,
            "max_retries": 0,
        }
        if is_sim(model):
            if temperature is not None:
                kwargs["temperature"] = temperature
            if seed is not None:
                kwargs["seed"] = seed
            kwargs["metadata"] = {
                "council": {
                    "schema": schema.__name__,
                    "json_schema": schema.model_json_schema(),
                    "phase": tag.phase.value,
                    "round": tag.round,
                    "agent": tag.agent,
                    "agent_name": tag.agent_name,
                    "hints": hints or {},
                    # Only the fields set explicitly: the simulator takes the rest from
                    # its COUNCIL_SIM_* environment defaults.
                    "simulator": (
                        self.simulator.model_dump(exclude_unset=True) if self.simulator else None
                    ),
                }
            }
            hard_timeout = self.timeout_s
        else:
            supported = _supported_params(model)
            # Temperature is near-universal, so it is kept when litellm does not know the
            # model; a seed is only sent where litellm says the provider accepts it.
            if temperature is not None and (supported is None or "temperature" in supported):
                kwargs["temperature"] = temperature
            if seed is not None and supported is not None and "seed" in supported:
                kwargs["seed"] = seed
            if _supports_schema(model):
                kwargs["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {
                        "name": schema.__name__,
                        "schema": schema.model_json_schema(),
                        "strict": False,
                    },
                }
            if self.api_base:
                kwargs["api_base"] = self.api_base
            if self.api_key:
                kwargs["api_key"] = self.api_key
            hard_timeout = self.timeout_s + HARD_TIMEOUT_MARGIN_S
        return await asyncio.wait_for(litellm.acompletion(**kwargs), timeout=hard_timeout)

    def _raise_if_cancelled(self) -> None:
        if self.should_cancel is not None and self.should_cancel():
            raise Cancelled("the debate was cancelled")

    async def _record(
        self,
        tag: CallTag,
        attempt: int,
        purpose: str,
        model: str,
        latency_ms: int,
        *,
        ok: bool,
        error_class: str | None = None,
        error: str | None = None,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        cost: float | None = None,
    ) -> None:
        if self.on_call is None:
            return
        record = CallRecord(
            phase=tag.phase,
            round=tag.round,
            agent=tag.agent,
            attempt=attempt,
            purpose="repair" if purpose == "repair" else "call",
            model=model,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cost_usd=cost,
            latency_ms=latency_ms,
            ok=ok,
            error_class=error_class,
            error=error[:MAX_RECORD_ERROR_CHARS] if error else error,
        )
        await self.on_call(record)


def _reply_text(response: Any) -> str:
    try:
        content = response.choices[0].message.content
    except (AttributeError, IndexError, TypeError):
        return ""
    return content if isinstance(content, str) else ""
