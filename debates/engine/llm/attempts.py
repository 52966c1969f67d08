"""One model's attempts at a structured call: output-mode probing (a mode the server
rejects is dropped, the one that works is learned), one repair turn for an unusable
reply, and the transient retries the policy (``retry``) allows within the turn's time
budget. Every attempt is one ledger record, with its purpose and error class."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, NoReturn, TypeVar

from pydantic import BaseModel

from debates.engine.llm.cost import Tally, cached_tokens, call_cost, reply_tokens
from debates.engine.llm.errors import (
    CallFailed,
    Cancelled,
    describe_error,
    is_format_rejection,
    is_retryable,
)
from debates.engine.llm.output_format import learn_mode, learn_schema_in_prompt
from debates.engine.llm.replies import InvalidReply, marked_cuts, parse_reply, reply_text
from debates.engine.llm.request import AttemptRequest, StructuredCall, send
from debates.engine.llm.retry import AnotherAttempt, TurnBudget
from debates.engine.schemas import CallRecord

if TYPE_CHECKING:
    from debates.engine.llm.gateway import LLMGateway

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

MAX_RECORD_ERROR_CHARS = 500


@dataclass
class CallOutcome(Generic[T]):
    """A validated answer. Tokens and cost are totals over all attempts of the call."""

    value: T
    model: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    attempts: int = 1
    # The paths of the text fields cut at the sent bound (``replies.marked_cuts``).
    cut: list[str] = field(default_factory=list)
    # None: no content repair was asked; True: the repaired answer is the value; False:
    # the repair did not give what was missing, the first answer is kept.
    repaired: bool | None = None


@dataclass
class _Used:
    """What one answered attempt used, as its ledger record shows it."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    cached_prompt_tokens: int = 0


class ModelAttempts(Generic[T]):
    """A call's attempts on one model: the state they hand on (output modes left to
    try, the repair prompt, the purpose) and the ledger record of each."""

    def __init__(
        self,
        gateway: LLMGateway,
        call: StructuredCall[T],
        model: str,
        tally: Tally,
        budget: TurnBudget,
        prompt_tokens: int | None = None,
        repair_prompt: list[dict[str, str]] | None = None,
    ) -> None:
        self.gateway = gateway
        self.call = call
        self.model = model
        self.tally = tally
        self.budget = budget
        self.caps = gateway.capabilities(model)
        self.modes = gateway.modes(model)
        self.probing = len(self.modes) > 1
        # A content repair (``LLMGateway.structured``'s ``check``) is a repair from its
        # first attempt on, so a reply to it that fails validation gets no repair of its own.
        self.purpose: Literal["call", "repair"] = "repair" if repair_prompt else "call"
        self.prompt = repair_prompt or call.messages
        # The original prompt's tokens, when the caller counted them already.
        self.prompt_tokens = prompt_tokens
        self.last_error: str | None = None

    async def run(self) -> CallOutcome[T]:
        """The first valid answer; raises CallFailed when none came, Cancelled."""
        return await self.gateway.retry_policy(self.model, self.budget).run(self.attempt)

    async def attempt(self) -> CallOutcome[T]:
        self.gateway.raise_if_cancelled()
        request = self._request()
        self.tally.attempts += 1
        attempt = self.tally.attempts
        started = time.perf_counter()
        try:
            response = await send(
                self.call, self.model, self.caps, request,
                simulator=self.gateway.simulator, api_key=self.gateway.api_key,
            )
        except (Cancelled, asyncio.CancelledError):
            raise
        except Exception as exc:
            await self._failed(exc, attempt, request, self._spend(started))
        return await self._answered(response, attempt, request, self._spend(started))

    def _request(self) -> AttemptRequest:
        """The next attempt's parameters; CallFailed when the turn's time is spent."""
        gateway, model = self.gateway, self.model
        timeout = min(gateway.attempt_timeout(model), self.budget.remaining())
        if timeout < gateway.min_attempt_s(model):
            raise CallFailed(
                error_class="TurnBudgetSpent",
                message=f"the turn's {self.budget.total_s:g} s budget is spent after "
                f"{self.tally.attempts} attempt(s); last: {self.last_error or 'none'}",
                attempts=self.tally.attempts,
                model=model,
            )
        if self.prompt is not self.call.messages or self.prompt_tokens is None:
            self.prompt_tokens = gateway.prompt_tokens(self.prompt, model, self.call.schema)
        max_tokens = gateway.max_tokens(self.call.schema, model, self.prompt_tokens)
        bound = gateway.text_bound(self.call.schema, model, self.prompt_tokens)
        return AttemptRequest(self.prompt, self.modes[0], timeout, max_tokens, bound)

    def _spend(self, started: float) -> int:
        """Charges the attempt's wall time to the turn; its latency in milliseconds."""
        elapsed = time.perf_counter() - started
        self.budget.spent_s += elapsed
        return int(elapsed * 1000)

    async def _failed(
        self, exc: Exception, attempt: int, request: AttemptRequest, latency_ms: int
    ) -> NoReturn:
        error_class, message = describe_error(exc, self.model, request.timeout,
                                              self.caps.api_base)
        rejected = self.probing and len(self.modes) > 1 and is_format_rejection(exc)
        if rejected:
            message = f"output mode {request.mode} rejected: {message}"
        self.last_error = f"{error_class}: {message}"
        await self._record(attempt, latency_ms, ok=False, error_class=error_class,
                           error=message)
        failure = CallFailed(
            error_class=error_class, message=message, attempts=attempt, model=self.model
        )
        if rejected:
            log.info("%s rejects output mode %s; trying %s", self.model, request.mode,
                     self.modes[1])
            self.modes = self.modes[1:]
            raise AnotherAttempt(failure, backoff=False) from exc
        if is_retryable(exc):
            raise AnotherAttempt(failure, backoff=True) from exc
        raise failure from exc

    async def _answered(
        self, response: Any, attempt: int, request: AttemptRequest, latency_ms: int
    ) -> CallOutcome[T]:
        prompt_tokens, completion_tokens = reply_tokens(response)
        used = _Used(prompt_tokens, completion_tokens, call_cost(self.caps, self.model, response),
                     cached_tokens(response))
        self.tally.add(used.prompt_tokens, used.completion_tokens, used.cost,
                       used.cached_prompt_tokens)
        text = reply_text(response)
        try:
            value = parse_reply(self.call.schema, text)
        except InvalidReply as invalid:
            await self._record(attempt, latency_ms, ok=False, error_class=invalid.error_class,
                               error=invalid.message, used=used)
            if request.mode == "json_object":
                # The server may have ignored the request's schema and the model seen
                # its keys only: the repair, and every later prompt, state it whole.
                learn_schema_in_prompt(self.model, self.caps.api_base)
            self._repair(invalid, text, attempt)
        cut: list[str] = []
        if request.max_text_chars and request.mode != "prompt":
            value, cut = marked_cuts(self.call.schema, value, request.max_text_chars)
        if self.probing:
            learn_mode(self.model, self.caps.api_base, request.mode)
        await self._record(attempt, latency_ms, ok=True, used=used)
        return CallOutcome(
            value=value,
            cut=cut,
            model=self.model,
            prompt_tokens=self.tally.prompt_tokens,
            completion_tokens=self.tally.completion_tokens,
            cost_usd=self.tally.cost_usd,
            attempts=self.tally.attempts,
        )

    def _repair(self, invalid: InvalidReply, text: str, attempt: int) -> NoReturn:
        """Asks for the one repair, or fails the call when it was the repair."""
        self.last_error = f"{invalid.error_class}: {invalid.message}"

        def failed(message: str) -> CallFailed:
            return CallFailed(error_class="ValidationError", message=message,
                              attempts=attempt, model=self.model)

        if self.purpose == "repair":
            # A model that cannot fix its answer when shown the error will not
            # fix it on a third try either: fail fast.
            raise failed(invalid.message) from None
        self.purpose = "repair"
        repair = self.gateway.fitting_repair(self.call.messages, text, invalid.message,
                                             self.call.schema, self.model)
        if repair is None:
            raise failed(f"{invalid.message} (no repair: it does not fit the context)") from None
        self.prompt = repair
        raise AnotherAttempt(failed(invalid.message), backoff=False) from None

    async def _record(
        self,
        attempt: int,
        latency_ms: int,
        *,
        ok: bool,
        error_class: str | None = None,
        error: str | None = None,
        used: _Used | None = None,
    ) -> None:
        on_call = self.gateway.on_call
        if on_call is None:
            return
        used = used or _Used()
        tag = self.call.tag
        record = CallRecord(
            phase=tag.phase,
            round=tag.round,
            agent=tag.agent,
            attempt=attempt,
            purpose=self.purpose,
            model=self.model,
            prompt_tokens=used.prompt_tokens,
            completion_tokens=used.completion_tokens,
            cached_prompt_tokens=used.cached_prompt_tokens,
            cost_usd=used.cost,
            latency_ms=latency_ms,
            ok=ok,
            error_class=error_class,
            error=error[:MAX_RECORD_ERROR_CHARS] if error else error,
        )
        await on_call(record)
