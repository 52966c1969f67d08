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
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from debates.engine.llm.capabilities import (
    OUTPUT_MODES,
    Capabilities,
    ModeSetting,
    OutputMode,
    capabilities,
)
from debates.engine.llm.grammar_limits import grammar_safe
from debates.engine.llm.loader import litellm_module as _litellm
from debates.engine.prompts import without_schema
from debates.engine.schema_titles import without_titles
from debates.engine.schemas import CallRecord, CallTag, SimulatorOptions

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

ANSWER_RESERVE_TOKENS = 1024
# ``max_tokens`` per answer, read off its schema (see ``output_tokens``).
TOKENS_PER_TEXT_FIELD = 80
MIN_OUTPUT_TOKENS = 256
MAX_OUTPUT_TOKENS = 4096
# A retry that would get less time than this is not started: it could not finish.
MIN_ATTEMPT_S = 2.0
MAX_REPAIR_REPLY_CHARS = 2000
MAX_REPAIR_ERROR_CHARS = 1500
MAX_RECORD_ERROR_CHARS = 500
# litellm enforces ``timeout`` on HTTP providers itself; this margin lets its own (more
# informative) Timeout win the race, while still bounding a provider that ignores it.
HARD_TIMEOUT_MARGIN_S = 5.0


# litellm (and openai, httpx, aiohttp under it) is imported at the first call, not with
# this module: pages that only read debates import the engine too (see llm/loader.py).
@lru_cache(maxsize=1)
def transient_errors() -> tuple[type[BaseException], ...]:
    litellm = _litellm()
    return (
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


@lru_cache(maxsize=1)
def _network_errors() -> tuple[type[BaseException], ...]:
    import httpx
    import openai

    errors: list[type[BaseException]] = [OSError, asyncio.TimeoutError, openai.APIError]
    errors.append(httpx.TransportError)
    try:
        import aiohttp

        errors.append(aiohttp.ClientError)
    except ImportError:  # pragma: no cover - aiohttp is optional for litellm
        pass
    return tuple(errors)



def unmapped_error(exc: BaseException) -> BaseException | None:
    """The original exception when litellm wrapped a non-network error as a connection error.

    litellm turns any exception it cannot map (a bug in a provider adapter, a custom
    provider raising ValueError ...) into ``APIConnectionError``, which would otherwise
    look transient and be retried, and whose text is a traceback plus a bug-report link.
    """
    if type(exc) is not _litellm().APIConnectionError:
        return None
    inner = exc.__cause__ or exc.__context__
    if inner is None or isinstance(inner, _network_errors()):
        return None
    return inner


def is_transient(exc: BaseException) -> bool:
    if unmapped_error(exc) is not None:
        return False
    if isinstance(exc, transient_errors()):
        return True
    # Some providers surface 5xx as a generic APIError.
    status = getattr(exc, "status_code", None)
    return isinstance(exc, _litellm().APIError) and isinstance(status, int) and status >= 500


def error_class_of(exc: BaseException) -> str:
    inner = unmapped_error(exc)
    if inner is not None:
        return type(inner).__name__
    if isinstance(exc, asyncio.TimeoutError | TimeoutError) and not isinstance(
        exc, _litellm().Timeout
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


# --------------------------------------------------------------------------- output size


@lru_cache(maxsize=64)
def json_schema_of(schema: type[BaseModel]) -> dict[str, Any]:
    # Generating a schema costs milliseconds, and every attempt of every turn needs it.
    return schema.model_json_schema()


@lru_cache(maxsize=64)
def output_tokens(schema: type[BaseModel], items: int = 4) -> int:
    """A ceiling on the answer's tokens, read off the schema: every call sets
    ``max_tokens``, so a small model cannot generate until its context is full."""
    root = json_schema_of(schema)
    defs = root.get("$defs", {})

    def size(node: dict[str, Any], depth: int = 0) -> int:
        if depth > 8:
            return 0
        if "$ref" in node:
            return size(defs.get(node["$ref"].rsplit("/", 1)[-1], {}), depth + 1)
        for key in ("anyOf", "oneOf"):
            if key in node:
                return max(size(branch, depth + 1) for branch in node[key])
        kind = node.get("type")
        if kind == "object":
            props = node.get("properties", {})
            return 8 + sum(6 + size(p, depth + 1) for p in props.values())
        if kind == "array":
            # As many items as the schema asks for (a panel of 12 is 12 personas),
            # else ``items``; never more than it allows.
            count = min(max(items, node.get("minItems", 0)), node.get("maxItems", 10**6))
            return 4 + count * size(node.get("items", {}), depth + 1)
        if kind == "string" and "enum" not in node:
            return TOKENS_PER_TEXT_FIELD
        return 4

    return max(MIN_OUTPUT_TOKENS, min(MAX_OUTPUT_TOKENS, size(root)))


# Per message: role and separators; per prompt: the reply's priming (OpenAI's scheme,
# which litellm's counter follows), with room to spare for other chat templates.
MESSAGE_OVERHEAD_TOKENS = 8


def token_upper_bound(messages: list[dict[str, str]]) -> int:
    """At least the prompt's token count, without a tokenizer: byte-level BPE tokenizers
    never make a token of less than one byte."""
    return MESSAGE_OVERHEAD_TOKENS * (len(messages) + 1) + sum(
        len(str(m.get("content") or "").encode()) + len(str(m.get("role") or ""))
        for m in messages
    )


# Models litellm found no price for. The failed lookup walks litellm's whole cost map
# (milliseconds per call), and a model's price does not appear mid-process, so it is
# asked once per model. Only a reply that carried token usage can prove "no price":
# a priced model's lookup can also fail on a reply without usage.
_unpriced_models: set[str] = set()


def _cost(caps: Capabilities, model: str, response: Any) -> float | None:
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


# --------------------------------------------------------------------------- output modes

# Per process: the mode that worked for (model, api_base), so probing happens once.
_learned_modes: dict[tuple[str, str | None], OutputMode] = {}

# "grammar": llama.cpp turns the schema into a grammar ("failed to parse grammar").
_FORMAT_REJECTION = re.compile(r"response_format|json_schema|json_object|tool|grammar", re.I)


def forget_learned_modes() -> None:
    _learned_modes.clear()


def is_format_rejection(exc: BaseException) -> bool:
    """A 400 or 422, or a server error, whose text names the structured-output request
    (or the grammar made of it): try the next mode. A lost connection names nothing."""
    if unmapped_error(exc) is not None or lost_connection(exc) is not None:
        return False
    status = getattr(exc, "status_code", None)
    litellm = _litellm()
    rejected = status in (400, 422) or isinstance(
        exc, litellm.BadRequestError | litellm.UnprocessableEntityError
    )
    failed = (isinstance(status, int) and status >= 500) or isinstance(
        exc, litellm.InternalServerError | litellm.ServiceUnavailableError
    )
    return (rejected or failed) and bool(_FORMAT_REJECTION.search(str(exc)))


Lost = Literal["unreachable", "dropped"]


@lru_cache(maxsize=1)
def _connection_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(no connection was made, the connection closed without a reply), as the HTTP
    clients under litellm raise them."""
    import httpx

    unreachable: list[type[BaseException]] = [ConnectionRefusedError, httpx.ConnectError]
    dropped: list[type[BaseException]] = [
        ConnectionResetError, BrokenPipeError, httpx.RemoteProtocolError, httpx.ReadError]
    try:
        import aiohttp

        unreachable.append(aiohttp.ClientConnectorError)
        dropped.append(aiohttp.ServerDisconnectedError)
    except ImportError:  # pragma: no cover - aiohttp is optional for litellm
        pass
    return tuple(unreachable), tuple(dropped)


def lost_connection(exc: BaseException) -> Lost | None:
    """Whether the call failed for want of a server rather than with its answer:
    litellm reports both as a generic "Connection error." (an InternalServerError), the
    cause is further down the exception chain."""
    unreachable, dropped = _connection_errors()
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, unreachable):
            return "unreachable"
        if isinstance(current, dropped):
            return "dropped"
        current = current.__cause__ or current.__context__
    return None


def lost_connection_message(lost: Lost, server: str, message: str) -> str:
    if lost == "unreachable":
        return f"{server} cannot be reached (is it running?): {message}"
    return f"{server} closed the connection without a reply (did it stop?): {message}"


# Lists in a bounded request schema hold at most this many items (unless the schema
# asks for more): the count ``output_tokens`` assumes.
BOUNDED_LIST_ITEMS = 4


@lru_cache(maxsize=64)
def bounded_schema(schema: type[BaseModel], max_text_chars: int) -> dict[str, Any]:
    """``schema``'s JSON schema with every free-text string at most ``max_text_chars``
    long and every list at most ``BOUNDED_LIST_ITEMS`` long. Sent, not validated: a
    server that constrains decoding to it ends each string and list in time, so a
    small model that would repeat itself until ``max_tokens`` cut its JSON in half
    (gemma-3-270m did) writes a complete answer."""

    def bound(node: Any) -> Any:
        if isinstance(node, list):
            return [bound(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: bound(value) for key, value in node.items()}
        if out.get("type") == "string" and "enum" not in out and "const" not in out:
            out["maxLength"] = min(int(out.get("maxLength", max_text_chars)), max_text_chars)
        if out.get("type") == "array":
            most = max(BOUNDED_LIST_ITEMS, int(out.get("minItems", 0)))
            out["maxItems"] = min(int(out.get("maxItems", most)), most)
        return out

    return dict(bound(json_schema_of(schema)))


@lru_cache(maxsize=128)
def sent_schema(schema: type[BaseModel], max_text_chars: int | None = None) -> dict[str, Any]:
    """The JSON schema a request carries (``response_format`` or tool parameters): within
    a grammar-constrained server's limits (grammar_limits), bounded by ``max_text_chars``
    when set. The answer is validated against ``schema`` itself."""
    full = bounded_schema(schema, max_text_chars) if max_text_chars else json_schema_of(schema)
    return dict(grammar_safe(without_titles(full)))


# Modes whose request carries the schema and constrains decoding to it, so the prompt
# need not state it again. json_object is not one: servers that do not know its
# ``schema`` key ignore it, and the prompt is then the only place the schema is given.
SCHEMA_CONSTRAINED_MODES: frozenset[OutputMode] = frozenset({"json_schema", "tools"})


def format_params(
    mode: OutputMode, schema: type[BaseModel], max_text_chars: int | None = None
) -> dict[str, Any]:
    if mode == "prompt":
        return {}
    json_schema = sent_schema(schema, max_text_chars)
    if mode == "json_schema":
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": json_schema, "strict": False},
            }
        }
    if mode == "json_object":
        # llama.cpp (and others) constrain decoding to ``schema`` when it is given here;
        # servers that do not know the key ignore it and still return a JSON object.
        return {"response_format": {"type": "json_object", "schema": json_schema}}
    if mode == "tools":
        return {
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": schema.__name__,
                        "description": f"Return the {schema.__name__} object.",
                        "parameters": json_schema,
                    },
                }
            ],
            "tool_choice": {"type": "function", "function": {"name": schema.__name__}},
        }
    return {}


# --------------------------------------------------------------------------- gateway


@dataclass
class _Tally:
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0


@dataclass
class _Budget:
    """The wall time one turn may spend waiting on models and backoffs, over all its
    attempts and repairs (the gateway's own bookkeeping is not counted)."""

    total_s: float
    spent_s: float = 0.0

    def remaining(self) -> float:
        return self.total_s - self.spent_s


class LLMGateway:
    def __init__(
        self,
        *,
        timeout_s: float = 120,
        local_timeout_s: float = 60,
        turn_budget_s: float | None = None,
        max_retries: int = 2,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 8.0,
        on_call: Callable[[CallRecord], Awaitable[None]] | None = None,
        should_cancel: Callable[[], bool] | None = None,
        simulator: SimulatorOptions | None = None,
        context_limit_tokens: int | None = None,
        output_mode: ModeSetting = "auto",
        api_base: str | None = None,
        api_key: str | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.local_timeout_s = local_timeout_s
        self.turn_budget_s = turn_budget_s
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.on_call = on_call
        self.should_cancel = should_cancel
        self.simulator = simulator
        self.context_limit_tokens = context_limit_tokens
        self.output_mode = output_mode
        self.api_base = api_base
        self.api_key = api_key
        self._jitter = random.Random()

    # ------------------------------------------------------------------ model facts

    def capabilities(self, model: str) -> Capabilities:
        return capabilities(model, self.api_base)

    def attempt_timeout(self, model: str) -> float:
        """One attempt's timeout. A local server without a ``timeout_s`` setting gets the
        turn's whole budget in one attempt: one that is slow is busy (a small CPU
        model generates a few tokens a second under load), not flaky, and a retry would
        restart the same generation from nothing, beside the abandoned one until the
        server notices the client left. Hosted calls keep short attempts and retries."""
        caps = self.capabilities(model)
        # The simulator has no server doing the work: it keeps the retries it imitates.
        if caps.local and not caps.simulated and not caps.timeout_s:
            return self.turn_budget(model)
        return self._configured_timeout(model)

    def _configured_timeout(self, model: str) -> float:
        """``timeout_s`` from the model's settings, else the local or hosted default: what
        the default turn budget is made of."""
        caps = self.capabilities(model)
        if caps.timeout_s:
            return caps.timeout_s
        return min(self.timeout_s, self.local_timeout_s) if caps.local else self.timeout_s

    def turn_budget(self, model: str) -> float:
        """The wall time of one turn; by default every retry with its longest backoff."""
        if self.turn_budget_s:
            return self.turn_budget_s
        backoff = sum(
            min(self.backoff_max_s, self.backoff_base_s * 2**i) for i in range(self.max_retries)
        )
        return self._configured_timeout(model) * (1 + self.max_retries) + backoff

    def _min_attempt(self, model: str) -> float:
        return min(MIN_ATTEMPT_S, self._configured_timeout(model) / 2)

    def modes(self, model: str) -> list[OutputMode]:
        """The structured-output modes to use, in order; more than one means probing."""
        if self.output_mode != "auto":
            return [self.output_mode]
        caps = self.capabilities(model)
        learned = _learned_modes.get((model, caps.api_base))
        if learned is not None:
            return [learned]
        if caps.output_mode is not None:
            return [caps.output_mode]
        return list(OUTPUT_MODES)

    # ------------------------------------------------------------------ context budget

    def prompt_tokens(
        self, messages: list[dict[str, str]], model: str, schema: type[BaseModel] | None = None
    ) -> int:
        """The prompt's tokens as far as the budget needs them: an upper bound when that
        already fits with a full answer's room to spare, else the exact count.

        Exact counting costs a tokenizer pass per call (and loading the tokenizer on the
        first), while nearly every prompt is a fraction of the context window.
        """
        bound = token_upper_bound(messages)
        wanted = output_tokens(schema) if schema is not None else ANSWER_RESERVE_TOKENS
        # Then the exact count fits the budget too and leaves ``max_tokens`` unchanged.
        if bound <= self.context_limit(model) - wanted:
            return bound
        return self.count_tokens(messages, model)

    def count_tokens(self, messages: list[dict[str, str]], model: str) -> int:
        try:
            return int(_litellm().token_counter(model=model, messages=messages))
        except Exception:
            return sum(len(str(m.get("content") or "")) for m in messages) // 4

    def context_limit(self, model: str) -> int:
        if self.context_limit_tokens:
            return self.context_limit_tokens
        return self.capabilities(model).context_limit

    def answer_reserve(self, model: str, schema: type[BaseModel] | None = None) -> int:
        limit = self.context_limit(model)
        wanted = output_tokens(schema) if schema is not None else ANSWER_RESERVE_TOKENS
        return min(wanted, limit // 4)

    def prompt_budget(self, model: str, schema: type[BaseModel] | None = None) -> int:
        """Tokens a prompt may use: the context window minus a reserve for the answer."""
        return self.context_limit(model) - self.answer_reserve(model, schema)

    def check_context(
        self,
        messages: list[dict[str, str]],
        model: str,
        schema: type[BaseModel] | None = None,
    ) -> int:
        """The prompt's tokens (see ``prompt_tokens``); raises ContextTooLong when it
        leaves too little room."""
        tokens = self.prompt_tokens(messages, model, schema)
        budget = self.prompt_budget(model, schema)
        if tokens > budget:
            raise ContextTooLong(tokens=tokens, limit=budget, model=model)
        return tokens

    def max_tokens(self, schema: type[BaseModel], model: str, prompt_tokens: int) -> int:
        room = self.context_limit(model) - prompt_tokens
        return max(MIN_OUTPUT_TOKENS // 4, min(output_tokens(schema), room))

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
        tokens = self.check_context(messages, model, schema)
        tally = _Tally()
        models = [model]
        if fallback_model and fallback_model != model:
            models.append(fallback_model)
        budget = _Budget(total_s=self.turn_budget(model))

        failure: CallFailed | None = None
        for current in models:
            if failure is not None:
                try:
                    self.check_context(messages, current, schema)
                except ContextTooLong as exc:
                    raise CallFailed(
                        error_class=failure.error_class,
                        message=f"{failure.message} (fallback {current} not tried: {exc})",
                        attempts=tally.attempts,
                        model=failure.model,
                    ) from exc
                if budget.remaining() < self._min_attempt(current):
                    break
                log.info("falling back from %s to %s: %s", failure.model, current, failure)
            try:
                return await self._run_model(
                    schema, messages, current, tag, temperature, seed, hints, tally, budget,
                    tokens if current == model else None,
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
        budget: _Budget,
        tokens: int | None = None,
    ) -> CallOutcome[T]:
        retries = 0
        purpose = "call"
        prompt = messages
        modes = self.modes(model)
        probing = len(modes) > 1
        caps = self.capabilities(model)
        last_error: str | None = None
        prompt_tokens_in = tokens
        while True:
            self._raise_if_cancelled()
            mode = modes[0]
            timeout = min(self.attempt_timeout(model), budget.remaining())
            if timeout < self._min_attempt(model):
                raise CallFailed(
                    error_class="TurnBudgetSpent",
                    message=f"the turn's {budget.total_s:g} s budget is spent after "
                    f"{tally.attempts} attempt(s); last: {last_error or 'none'}",
                    attempts=tally.attempts,
                    model=model,
                )
            tally.attempts += 1
            attempt = tally.attempts
            if prompt is not messages or prompt_tokens_in is None:
                prompt_tokens_in = self.prompt_tokens(prompt, model, schema)
            max_tokens = self.max_tokens(schema, model, prompt_tokens_in)
            started = time.perf_counter()
            try:
                response = await self._complete(
                    schema, prompt, model, tag, temperature, seed, hints, mode, timeout,
                    max_tokens,
                )
            except (Cancelled, asyncio.CancelledError):
                raise
            except Exception as exc:
                budget.spent_s += time.perf_counter() - started
                latency_ms = int((time.perf_counter() - started) * 1000)
                error_class = error_class_of(exc)
                message = str(unmapped_error(exc) or exc) or error_class
                if isinstance(exc, asyncio.TimeoutError | TimeoutError) and not isinstance(
                    exc, _litellm().Timeout
                ):
                    message = f"no reply from {model} within {timeout:g} s"
                lost = lost_connection(exc)
                if lost is not None:
                    error_class = "ServerUnreachable" if lost == "unreachable" else "ConnectionLost"
                    server = (f"the model server at {caps.api_base}" if caps.api_base
                              else f"{model}'s provider")
                    message = lost_connection_message(lost, server, message)
                if probing and len(modes) > 1 and is_format_rejection(exc):
                    message = f"output mode {mode} rejected: {message}"
                last_error = f"{error_class}: {message}"
                await self._record(
                    tag, attempt, purpose, model, latency_ms,
                    ok=False, error_class=error_class, error=message,
                )
                if probing and len(modes) > 1 and is_format_rejection(exc):
                    log.info("%s rejects output mode %s; trying %s", model, mode, modes[1])
                    modes = modes[1:]
                    continue
                # Nothing listens there: retries (or other output modes) would only
                # delay the failure, once per turn of the debate.
                if lost != "unreachable" and is_transient(exc) and retries < self.max_retries:
                    delay = self._jitter.uniform(
                        0, min(self.backoff_max_s, self.backoff_base_s * 2**retries)
                    )
                    if budget.remaining() - delay >= self._min_attempt(model):
                        retries += 1
                        log.info("%s: %s, retry %d in %.2fs", model, error_class, retries, delay)
                        budget.spent_s += delay
                        await asyncio.sleep(delay)
                        continue
                    message = f"{message} (no retry: the turn's {budget.total_s:g} s are spent)"
                raise CallFailed(
                    error_class=error_class, message=message, attempts=attempt, model=model
                ) from exc

            budget.spent_s += time.perf_counter() - started
            latency_ms = int((time.perf_counter() - started) * 1000)
            usage = getattr(response, "usage", None)
            prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
            completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
            cost = _cost(caps, model, response)
            tally.prompt_tokens += prompt_tokens
            tally.completion_tokens += completion_tokens
            tally.cost_usd = (
                None if cost is None or tally.cost_usd is None else tally.cost_usd + cost
            )
            text = _reply_text(response)

            try:
                value = parse_reply(schema, text)
            except _Invalid as invalid:
                last_error = f"{invalid.error_class}: {invalid.message}"
                await self._record(
                    tag, attempt, purpose, model, latency_ms,
                    ok=False, error_class=invalid.error_class, error=invalid.message,
                    prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cost=cost,
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
                repair = self.fitting_repair(messages, text, invalid.message, schema, model)
                if repair is None:
                    raise CallFailed(
                        error_class="ValidationError",
                        message=f"{invalid.message} (no repair: it does not fit the context)",
                        attempts=attempt,
                        model=model,
                    ) from None
                prompt = repair
                continue

            if probing:
                _learned_modes[(model, caps.api_base)] = mode
            await self._record(
                tag, attempt, purpose, model, latency_ms,
                ok=True, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
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

    def fitting_repair(
        self,
        messages: list[dict[str, str]],
        bad_reply: str,
        error: str,
        schema: type[BaseModel],
        model: str,
    ) -> list[dict[str, str]] | None:
        """The repair prompt, shortened until it fits the context budget (None if never)."""
        budget = self.prompt_budget(model, schema)
        for reply_chars in (MAX_REPAIR_REPLY_CHARS, 500, 0):
            reply = bad_reply[:reply_chars] if reply_chars else ""
            candidate = repair_messages(messages, reply, error, schema.__name__)
            if self.prompt_tokens(candidate, model, schema) <= budget:
                return candidate
        return None

    async def _complete(
        self,
        schema: type[BaseModel],
        messages: list[dict[str, str]],
        model: str,
        tag: CallTag,
        temperature: float | None,
        seed: int | None,
        hints: dict[str, Any] | None,
        mode: OutputMode,
        timeout: float,
        max_tokens: int,
    ) -> Any:
        caps = self.capabilities(model)
        if mode in SCHEMA_CONSTRAINED_MODES:
            messages = without_schema(messages, schema)
        kwargs: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "timeout": timeout,
            "max_tokens": max_tokens,
            # The gateway retries itself, so that every attempt reaches the ledger.
            "num_retries": 0,
            "max_retries": 0,
            **format_params(mode, schema, caps.max_text_chars),
        }
        supported = caps.params
        # Temperature is near-universal, so it is kept when litellm does not know the
        # model; a seed is only sent where the provider is known to accept it.
        if temperature is not None and (supported is None or "temperature" in supported):
            kwargs["temperature"] = temperature
        if seed is not None and supported is not None and "seed" in supported:
            kwargs["seed"] = seed
        if caps.call_context:
            kwargs["metadata"] = {
                "council": {
                    "schema": schema.__name__,
                    "json_schema": json_schema_of(schema),
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
            hard_timeout = timeout
        else:
            hard_timeout = timeout + HARD_TIMEOUT_MARGIN_S
        if caps.api_base:
            kwargs["api_base"] = caps.api_base
        api_key = caps.api_key or self.api_key
        if api_key:
            kwargs["api_key"] = api_key
        # wait_for cancels the request on timeout, which closes its connection: a local
        # server sees the client go and stops generating the abandoned reply.
        return await asyncio.wait_for(_litellm().acompletion(**kwargs), timeout=hard_timeout)

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
    """The answer's text: the forced tool call's arguments, else the message content."""
    try:
        message = response.choices[0].message
    except (AttributeError, IndexError, TypeError):
        return ""
    calls = getattr(message, "tool_calls", None) or []
    for call in calls:
        arguments = getattr(getattr(call, "function", None), "arguments", None)
        if isinstance(arguments, str) and arguments.strip():
            return arguments
    content = getattr(message, "content", None)
    return content if isinstance(content, str) else ""
