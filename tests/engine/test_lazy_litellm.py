"""litellm is imported at the first model call (or preloaded by the CLI), not by
Django's set-up; prompts are sized without a tokenizer when they clearly fit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from debates.engine.llm.gateway import ContextTooLong, LLMGateway, token_upper_bound
from debates.engine.protocols.council.schemas import Position

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


def test_a_web_process_imports_the_model_stack_from_its_start_in_the_background() -> None:
    # The ASGI application is what daphne loads; loading it returns at once and the
    # import runs meanwhile (a request naming a real model then finds litellm ready).
    code = ("import os, sys; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'council_site.settings'); import council_site.asgi; "
            "from debates.engine.llm import loader; "
            "started = loader._preloading is not None; loader._preloading.join(); "
            "print(started, 'litellm' in sys.modules, "
            "'litellm.litellm_core_utils.default_encoding' in sys.modules)")
    assert _run(code) == "True True True"


def test_a_worker_loads_litellm_and_its_tokenizer_before_taking_work() -> None:
    code = ("import sys; from debates.engine import warm_model_stack; warm_model_stack(); "
            "print('litellm' in sys.modules, "
            "'litellm.litellm_core_utils.default_encoding' in sys.modules)")
    assert _run(code) == "True True"
