"""The one LLM gateway: every model call of the engine goes through ``LLMGateway``.

It owns what the protocols must not re-implement: structured output with Pydantic
validation and one repair attempt, bounded retries with backoff and jitter on
transient errors only (``retry``, on tenacity), a fallback model, the context budget,
cancellation, and a ledger record for every single attempt (``attempts``).

The names other code imports from here are re-exported from the modules that hold
them: errors and their classification (``errors``), reply parsing and the repair
prompt (``replies``), the structured-output request (``output_format``), cost
(``cost``).
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from debates.engine.llm.attempts import CallOutcome, ModelAttempts
from debates.engine.llm.capabilities import (
    OUTPUT_MODES,
    Capabilities,
    ModeSetting,
    OutputMode,
    capabilities,
)
from debates.engine.llm.cost import Tally
from debates.engine.llm.errors import (
    CallFailed,
    Cancelled,
    ContextTooLong,
    error_class_of,
    is_format_rejection,
    is_transient,
    lost_connection,
    transient_errors,
    unmapped_error,
)
from debates.engine.llm.loader import litellm_module as _litellm
from debates.engine.llm.loader import load_tokenizer_soon
from debates.engine.llm.output_format import (
    MAX_OUTPUT_TOKENS,
    MIN_OUTPUT_TOKENS,
    bounded_output_tokens,
    context_text_chars,
    forget_learned_modes,
    format_params,
    json_schema_of,
    learned_mode,
    output_tokens,
    sent_schema,
)
from debates.engine.llm.replies import (
    MAX_REPAIR_REPLY_CHARS,
    extract_json,
    parse_reply,
    repair_messages,
)
from debates.engine.llm.request import StructuredCall
from debates.engine.llm.retry import RetryPolicy, TurnBudget
from debates.engine.schemas import CallRecord, CallTag, SimulatorOptions

__all__ = [
    "CallFailed",
    "CallOutcome",
    "Cancelled",
    "ContextTooLong",
    "LLMGateway",
    "error_class_of",
    "extract_json",
    "forget_learned_modes",
    "format_params",
    "is_format_rejection",
    "is_transient",
    "json_schema_of",
    "lost_connection",
    "output_tokens",
    "parse_reply",
    "repair_messages",
    "sent_schema",
    "token_upper_bound",
    "transient_errors",
    "unmapped_error",
]

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

ANSWER_RESERVE_TOKENS = 1024
# A retry that would get less time than this is not started: it could not finish.
MIN_ATTEMPT_S = 2.0
# The slowest pace a local CPU server is given time for (docs/models.md, "Local servers
# on a slow machine"): Qwen2.5-Coder-0.5B on node-llama-cpp, one thread, three slots,
# wrote 70-260 tokens in 90-176 s a call at load 10 on 2 cores, about 1.1-1.5 tokens a
# second a slot including reading a 1,300-token prompt. A turn on such a server gets at
# least the time to read its prompt and write all it may write at this pace.
LOCAL_WRITE_TOKENS_PER_S = 1.0
LOCAL_READ_TOKENS_PER_S = 20.0
# ... within the workers' task timeout (council_site/settings.py Q_CLUSTER, 1,800 s),
# which a step of one turn a agent must fit.
LOCAL_TURN_CAP_S = 1500.0
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
        if self._one_attempt_a_turn(model):
            return math.inf  # bounded by what is left of the turn
        return self._configured_timeout(model)

    def _one_attempt_a_turn(self, model: str) -> bool:
        caps = self.capabilities(model)
        # The simulator has no server doing the work: it keeps the retries it imitates.
        return caps.local and not caps.simulated and not caps.timeout_s

    def _configured_timeout(self, model: str) -> float:
        """``timeout_s`` from the model's settings, else the local or hosted default: what
        the default turn budget is made of."""
        caps = self.capabilities(model)
        if caps.timeout_s:
            return caps.timeout_s
        return min(self.timeout_s, self.local_timeout_s) if caps.local else self.timeout_s

    def turn_budget(self, model: str, schema: type[BaseModel] | None = None,
                    prompt_tokens: int = 0) -> float:
        """The wall time of one turn; by default every retry with its longest backoff,
        and on a local server (without a ``timeout_s`` setting) at least the time to
        read ``prompt_tokens`` and write the ``schema``'s answer at the slowest pace a
        CPU server keeps on a loaded machine: a slow local model is busy, not down."""
        if self.turn_budget_s:
            return self.turn_budget_s
        backoff = sum(
            min(self.backoff_max_s, self.backoff_base_s * 2**i) for i in range(self.max_retries)
        )
        retries = self._configured_timeout(model) * (1 + self.max_retries) + backoff
        if schema is None or not self._one_attempt_a_turn(model):
            return retries
        writing = (prompt_tokens / LOCAL_READ_TOKENS_PER_S
                   + self.max_tokens(schema, model, prompt_tokens) / LOCAL_WRITE_TOKENS_PER_S)
        return max(retries, min(writing, LOCAL_TURN_CAP_S))

    def min_attempt_s(self, model: str) -> float:
        return min(MIN_ATTEMPT_S, self._configured_timeout(model) / 2)

    def retry_policy(self, model: str, budget: TurnBudget) -> RetryPolicy:
        """Retries, backoff and jitter for one model's attempts within ``budget``."""
        return RetryPolicy(
            max_retries=self.max_retries,
            backoff_base_s=self.backoff_base_s,
            backoff_max_s=self.backoff_max_s,
            jitter=self._jitter,
            budget=budget,
            min_attempt_s=self.min_attempt_s(model),
            model=model,
        )

    def modes(self, model: str) -> list[OutputMode]:
        """The structured-output modes to use, in order; more than one means probing."""
        if self.output_mode != "auto":
            return [self.output_mode]
        caps = self.capabilities(model)
        learned = learned_mode(model, caps.api_base)
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
        """The answer's ``max_tokens``: the schema's ceiling, or, with a text bound sized
        from the context, room for every text field at that bound; never more than the
        context leaves after the prompt."""
        room = self.context_limit(model) - prompt_tokens
        wanted = output_tokens(schema)
        if self.capabilities(model).context_text_bound:
            bound = self.text_bound(schema, model, prompt_tokens)
            assert bound is not None
            wanted = max(wanted, bounded_output_tokens(schema, bound))
        return max(MIN_OUTPUT_TOKENS // 4, min(wanted, room))

    def text_bound(self, schema: type[BaseModel], model: str, prompt_tokens: int) -> int | None:
        """The bound on every text field of the schema sent (``max_text_chars``): the
        model's setting; else, for a model whose bound is sized from the context
        (``Capabilities.context_text_bound``), what the context leaves after the prompt
        (at most ``MAX_OUTPUT_TOKENS``) shared among the answer's text fields
        (``context_text_chars``, docs/models.md "Text bounds from the context"); else
        none."""
        caps = self.capabilities(model)
        if caps.max_text_chars:
            return caps.max_text_chars
        if not caps.context_text_bound:
            return None
        return context_text_chars(schema, self.answer_room(model, prompt_tokens))

    def answer_room(self, model: str, prompt_tokens: int) -> int:
        """The tokens a reply may take, as a context-sized text bound reads them: what
        the context leaves after the prompt, at most ``MAX_OUTPUT_TOKENS``, and on a
        local server at most what the slowest pace writes within ``LOCAL_TURN_CAP_S``
        after reading the prompt: a full answer finishes on a slow machine."""
        room = min(self.context_limit(model) - prompt_tokens, MAX_OUTPUT_TOKENS)
        if self.capabilities(model).local:
            writable = (LOCAL_TURN_CAP_S - prompt_tokens / LOCAL_READ_TOKENS_PER_S
                        ) * LOCAL_WRITE_TOKENS_PER_S
            room = min(room, int(writable))
        return room

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
        check: Callable[[T], str | None] | None = None,
    ) -> CallOutcome[T]:
        """Ask ``model`` for a ``schema`` object; raises CallFailed, ContextTooLong, Cancelled.

        When ``model`` fails, ``fallback_model`` gets the same procedure, within what is
        left of the turn's time budget; every attempt counts in the outcome's totals.
        ``check`` says what a valid answer still lacks (None: nothing): such an answer
        gets exactly one content repair (``_content_repair``)."""
        self.raise_if_cancelled()
        tokens = self.check_context(messages, model, schema)
        call = StructuredCall(schema, messages, tag, temperature, seed, hints)
        tally = Tally()
        budget = TurnBudget(total_s=self.turn_budget(model, schema, tokens))
        outcome = await self._answer(call, model, fallback_model, tally, budget, tokens)
        lack = check(outcome.value) if check is not None else None
        if lack is None:
            return outcome
        assert check is not None
        return await self._content_repair(call, outcome, lack, check, tally, budget)

    async def _answer(self, call: StructuredCall[T], model: str, fallback_model: str | None,
                      tally: Tally, budget: TurnBudget, tokens: int) -> CallOutcome[T]:
        """The first valid answer of ``model``, else of ``fallback_model``."""
        try:
            outcome = await ModelAttempts(self, call, model, tally, budget, tokens).run()
        except CallFailed as failure:
            if not fallback_model or fallback_model == model:
                failure.attempts = tally.attempts
                raise
            primary_failure = failure
        else:
            # The tokenizer loads while the debate waits on its next calls, not at the
            # first exact count before a synthesis (see llm/loader.py).
            load_tokenizer_soon()
            return outcome
        self._check_fallback(call, fallback_model, primary_failure, tally)
        if budget.remaining() < self.min_attempt_s(fallback_model):
            primary_failure.attempts = tally.attempts
            raise primary_failure
        log.info("falling back from %s to %s: %s", model, fallback_model, primary_failure)
        try:
            return await ModelAttempts(self, call, fallback_model, tally, budget).run()
        except CallFailed as failure:
            failure.attempts = tally.attempts
            raise

    async def _content_repair(self, call: StructuredCall[T], first: CallOutcome[T],
                              lack: str, check: Callable[[T], str | None], tally: Tally,
                              budget: TurnBudget) -> CallOutcome[T]:
        """One repair of a valid answer that lacks what ``check`` asks for (a synthesis
        with no decision, docs/engine.md "Content checks"): the model that answered is
        shown its reply and told what is missing, within what is left of the turn's
        time budget. Its answer is taken when it now has it; else the first is kept
        (``repaired`` False), and the protocol's rule reads it as it is."""
        shown = first.value.model_dump_json()
        repair = self.fitting_repair(call.messages, shown, lack, call.schema, first.model)
        kept = CallOutcome(first.value, first.model, 0, 0, None, cut=first.cut, repaired=False)
        if repair is not None:
            log.info("%s: %s; one repair", first.model, lack)
            try:
                again = await ModelAttempts(self, call, first.model, tally, budget,
                                            repair_prompt=repair).run()
            except CallFailed as failure:
                log.info("%s: the repair failed (%s); the first answer is kept",
                         first.model, failure)
            else:
                if check(again.value) is None:
                    kept = again
                    kept.repaired = True
        kept.prompt_tokens, kept.completion_tokens = tally.prompt_tokens, tally.completion_tokens
        kept.cost_usd, kept.attempts = tally.cost_usd, tally.attempts
        return kept

    def _check_fallback(
        self, call: StructuredCall[Any], fallback: str, failure: CallFailed, tally: Tally
    ) -> None:
        """CallFailed with the primary model's failure when the prompt does not fit the
        fallback model's context."""
        try:
            self.check_context(call.messages, fallback, call.schema)
        except ContextTooLong as exc:
            raise CallFailed(
                error_class=failure.error_class,
                message=f"{failure.message} (fallback {fallback} not tried: {exc})",
                attempts=tally.attempts,
                model=failure.model,
            ) from exc

    def raise_if_cancelled(self) -> None:
        if self.should_cancel is not None and self.should_cancel():
            raise Cancelled("the debate was cancelled")
