"""litellm is imported at the first model call (or preloaded by the CLI), not by
Django's set-up, and loaded with its first call's modules and its tokenizer before a
web or worker process takes work; prompts are sized without a tokenizer when they
clearly fit, and the tokenizer never comes from the network."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from debates.engine.llm import loader
from debates.engine.llm.gateway import ContextTooLong, LLMGateway, token_upper_bound
from debates.engine.protocols.council.phases import CouncilPhase
from debates.engine.protocols.council.schemas import Position
from debates.engine.schemas import CallTag

ROOT = Path(__file__).resolve().parents[2]


def test_django_setup_and_the_engine_modules_do_not_import_litellm() -> None:
    code = ("import os, sys, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'council_site.settings'); django.setup(); import debates.runtime.execution, "
            "debates.engine.llm.gateway, debates.web.views; print('litellm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=600, check=True).stdout
    assert out.strip() == "False"


def test_the_byte_bound_is_never_below_the_exact_count() -> None:
    gateway = LLMGateway()
    messages = [{"role": "system", "content": "Tu es un expert. 你好，世界。" * 40},
                {"role": "user", "content": "Should we split the monolith? " * 60}]
    for model in ("sim/default", "openai/gpt-4o-mini"):
        assert token_upper_bound(messages) >= gateway.count_tokens(messages, model)


def test_a_prompt_near_the_window_is_still_counted_exactly_and_refused() -> None:
    gateway = LLMGateway(context_limit_tokens=2048)
    fits = [{"role": "user", "content": "word " * 600}]  # ~600 tokens, 3000 bytes
    assert gateway.check_context(fits, "sim/default", Position) < token_upper_bound(fits)
    with pytest.raises(ContextTooLong):
        gateway.check_context([{"role": "user", "content": "word " * 3000}], "sim/default",
                              Position)


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, check=True).stdout.strip()


def test_a_web_process_loads_the_model_stack_before_it_serves() -> None:
    # The ASGI application is what daphne loads: once it is imported, litellm, the
    # modules of its first call, the tokenizer and the URLconf's views are loaded, and
    # counting tokens, calling a model or resolving a URL imports nothing more.
    code = ("import os, sys; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'council_site.settings'); import council_site.asgi; "
            "from debates.engine.llm import loader; import litellm; "
            "from django.urls import resolve; "
            "loaded = set(sys.modules); resolve('/api/debates/'); "
            "litellm.token_counter(model='openai/some-model', text='hello'); "
            "litellm.completion(model='openai/some-model', api_key='k', mock_response='ok', "
            "messages=[{'role': 'user', 'content': 'hi'}]); "
            "print(loader._tokenizer_loaded.is_set(), sorted(set(sys.modules) - loaded))")
    assert _run(code) == "True []"


def test_a_worker_loads_litellm_and_its_tokenizer_before_taking_work() -> None:
    code = ("import sys; from debates.engine import warm_model_stack; warm_model_stack(); "
            "from debates.engine.llm import loader; "
            "print('litellm' in sys.modules, loader._tokenizer_loaded.is_set())")
    assert _run(code) == "True True"


def test_no_tokenizer_is_fetched_from_the_network_for_any_model() -> None:
    # litellm would download a Hugging Face tokenizer for a "llama-3" model at its first
    # exact count (23 s of retries without a network); the loaded tiktoken counts it.
    gateway = LLMGateway()
    messages = [{"role": "user", "content": "hello " * 50}]
    gateway.count_tokens(messages, "openai/stub-model")  # litellm and tiktoken loaded
    started = time.monotonic()
    assert gateway.count_tokens(messages, "hosted_vllm/meta-llama-3-8b") > 50
    assert time.monotonic() - started < 5


def test_the_tokenizer_loads_in_the_background_after_the_first_answered_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "_tokenizer_loaded", threading.Event())
    monkeypatch.setattr(loader, "_tokenizer_loading", False)
    asyncio.run(LLMGateway().structured(
        Position, model="sim/default", messages=[{"role": "user", "content": "Position?"}],
        tag=CallTag(phase=CouncilPhase.POSITION)))
    assert loader._tokenizer_loaded.wait(60)
