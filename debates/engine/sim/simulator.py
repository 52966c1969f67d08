"""The built-in simulated model: litellm provider ``sim``, models ``sim/<name>``.

No network. Output is valid for every engine schema, mentions the question's own
words, and is a pure function of (options.seed, call seed, model, schema, phase,
round, agent name, hints). Latency and faults are configurable so the engine's
concurrency, retries, repairs and fallbacks can be exercised without a provider.

Everything a call needs arrives in ``litellm_params["metadata"]["council"]`` (the
gateway puts it there); absent options fall back to the ``COUNCIL_SIM_*`` environment
variables. See docs/simulator.md.

This module is the provider only: it decides what a call does (``SimHandler.plan``)
and turns that into a litellm response or error. What the text says is ``generate``
(the generators each protocol registers; wording in ``data/``), which fault strikes is
``faults``, settings and scripts are ``config``. The engine's plugins register
``handler`` with litellm (``llm.loader.register_provider``), so ``llm`` never imports
this package.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from debates.engine.language import detect_language
from debates.engine.llm.loader import imported_litellm
from debates.engine.sim.citing import cite
from debates.engine.sim.config import (  # noqa: F401 - re-exported for callers and tests
    DOWN_MESSAGE,
    ENV_FAULTS,
    ENV_LATENCY,
    ENV_SCRIPT,
    ENV_SEED,
    FAULT_KINDS,
    SimScript,
    SimScriptAgent,
    SimScriptRound,
    _parse_script,
    effective_options,
    load_sim_script,
    parse_faults,
    seeded_rng,
    simulator_options_from_env,
    stable_hash,
)
from debates.engine.sim.data import LANGUAGES, text_banks
from debates.engine.sim.faults import break_schema, cut_off, draw_fault
from debates.engine.sim.generate import CallContext, generate
from debates.engine.sim.phrases import salient_phrases

imported_litellm()  # litellm with its settings (offline cost map, no banner) first
import litellm  # noqa: E402

__all__ = ["DOWN_MESSAGE", "FAULT_KINDS", "SimHandler", "handler", "salient_phrases"]


@dataclass
class _Plan:
    """What one call will do: after the latency, raise ``error`` or return ``text``."""

    latency_s: float
    text: str = ""
    error: Exception | None = None
    prompt_chars: int = 0


class SimHandler(litellm.CustomLLM):
    """litellm custom provider for ``sim/<name>`` models."""

    _MAX_TRACKED = 50_000

    def __init__(self) -> None:
        super().__init__()
        # Per call identity: how many times it was seen, so a retry can draw another fault.
        self._attempts: OrderedDict[int, int] = OrderedDict()
        self._lock = threading.Lock()

    def reset(self) -> None:
        with self._lock:
            self._attempts.clear()

    def _next_attempt(self, identity: int) -> int:
        with self._lock:
            count = self._attempts.pop(identity, 0)
            self._attempts[identity] = count + 1
            while len(self._attempts) > self._MAX_TRACKED:
                self._attempts.popitem(last=False)
            return count

    def plan(
        self,
        model: str,
        messages: list[dict[str, Any]],
        litellm_params: dict[str, Any] | None,
        optional_params: dict[str, Any] | None,
    ) -> _Plan:
        model = model.removeprefix("sim/")
        full_model = f"sim/{model}"
        meta = ((litellm_params or {}).get("metadata") or {}).get("council") or {}
        raw_options = meta.get("simulator")
        try:
            options = effective_options(raw_options)
            unknown = sorted(set(options.faults) - set(FAULT_KINDS))
            if unknown:
                raise ValueError(f"unknown fault kind(s) {', '.join(unknown)}")
            script = _parse_script(options.script)
        except (ValueError, ValidationError) as exc:
            return _Plan(
                latency_s=0.0,
                error=litellm.BadRequestError(
                    message=f"sim: bad simulator options: {exc}",
                    model=full_model,
                    llm_provider="sim",
                ),
            )

        prompt_chars = sum(len(str(m.get("content") or "")) for m in messages)
        latency_s = options.latency_ms / 1000
        hints = dict(meta.get("hints") or {})
        schema = str(meta.get("schema") or "")
        phase = str(meta.get("phase") or "")
        round_ = int(meta.get("round") or 0)
        agent_name = meta.get("agent_name")
        last_user = next(
            (str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user"),
            "",
        )

        if model == "down":
            return _Plan(
                latency_s=latency_s,
                error=litellm.ServiceUnavailableError(
                    message=DOWN_MESSAGE, model=full_model, llm_provider="sim"
                ),
                prompt_chars=prompt_chars,
            )
        if model == "junk":
            pick = seeded_rng(options.seed, schema, phase, round_, agent_name, last_user)
            junk = pick.choice(text_banks().junk_replies)
            return _Plan(latency_s, text=junk, prompt_chars=prompt_chars)

        scripted = script.agent(agent_name) if script else None
        if scripted is not None and scripted.fails_in(phase, round_):
            return _Plan(
                latency_s=latency_s,
                error=litellm.InternalServerError(
                    message=f"sim: scripted failure of {agent_name} in {phase} round {round_}",
                    model=full_model,
                    llm_provider="sim",
                ),
                prompt_chars=prompt_chars,
            )

        question = str(hints.get("question") or last_user)
        language = str(hints.get("language") or detect_language(question))
        if language not in LANGUAGES:
            language = detect_language(question)
            language = language if language in LANGUAGES else "en"
        ctx = CallContext(
            model=full_model,
            schema=schema,
            phase=phase,
            round=round_,
            agent=int(meta.get("agent", -1)),
            agent_name=agent_name,
            hints=hints,
            options=options,
            call_seed=(optional_params or {}).get("seed"),
            question=question,
            language=language,
            json_schema=meta.get("json_schema"),
            script=script,
            phrases=salient_phrases(question, language),
            shown_reply=any(m.get("role") == "assistant" for m in messages),
        )

        identity = stable_hash(full_model, schema, phase, round_, agent_name, hints, last_user)
        attempt = self._next_attempt(identity)
        fault, fault_rng = draw_fault(options.seed, identity, attempt, options.faults)

        def error(cls: type[Exception], message: str) -> _Plan:
            exc = cls(message=message, model=full_model, llm_provider="sim")  # type: ignore[call-arg]
            return _Plan(latency_s, error=exc, prompt_chars=prompt_chars)

        if fault == "timeout":
            return error(litellm.Timeout, "sim: request timed out (simulated fault)")
        if fault == "rate_limit":
            return error(litellm.RateLimitError, "sim: rate limit exceeded (simulated 429)")
        if fault == "server_error":
            if fault_rng.random() < 0.5:
                return error(
                    litellm.InternalServerError, "sim: internal server error (simulated 500)"
                )
            return error(
                litellm.ServiceUnavailableError, "sim: service unavailable (simulated 503)"
            )
        if fault == "empty":
            return _Plan(latency_s, text="", prompt_chars=prompt_chars)

        payload = generate(ctx)
        if hints.get("passages"):
            payload = cite(payload, list(hints["passages"]),
                           seeded_rng(options.seed, identity, "cite"))
        if fault == "schema_invalid":
            payload = break_schema(schema, payload, fault_rng)
        text = json.dumps(payload, ensure_ascii=False, indent=None)
        if fault == "malformed_json":
            text = cut_off(text, fault_rng)
        return _Plan(latency_s, text=text, prompt_chars=prompt_chars)

    def _response(self, model: str, plan: _Plan) -> Any:
        model = model if model.startswith("sim/") else f"sim/{model}"
        prompt_tokens = max(1, plan.prompt_chars // 4)
        completion_tokens = len(plan.text) // 4
        return litellm.ModelResponse(
            model=model,
            choices=[
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": plan.text},
                }
            ],
            usage={
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        )

    def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
        plan = self.plan(
            model, messages, kwargs.get("litellm_params"), kwargs.get("optional_params")
        )
        if plan.latency_s:
            time.sleep(plan.latency_s)
        if plan.error is not None:
            raise plan.error
        return self._response(model, plan)

    async def acompletion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
        plan = self.plan(
            model, messages, kwargs.get("litellm_params"), kwargs.get("optional_params")
        )
        if plan.latency_s:
            await asyncio.sleep(plan.latency_s)
        if plan.error is not None:
            raise plan.error
        return self._response(model, plan)


# One per process: its attempt counters must see every call. The plugins register it.
handler = SimHandler()
