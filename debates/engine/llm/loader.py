"""litellm: imported once, on demand, with the settings every use needs and the
custom providers registered.

litellm takes seconds to import (most of it building pydantic classes). Nothing that
only reads debates needs it, so the gateway asks for it at its first call
(``litellm_module``). A process that knows it will call a model soon (the CLI) calls
``preload`` first thing: the import then runs while the main thread sets up Django and
builds the debate, and the first call only waits for whatever is left of it. A process
that serves (web, worker) calls ``warm`` before it takes work: litellm, its first call's
own imports and the tokenizer, so no request or debate step pays for them
(docs/performance.md, "Cold starts").

The tokenizer (tiktoken's cl100k file, parsed) counts a prompt exactly only when its
byte bound comes near the model's window (``LLMGateway.prompt_tokens``): typically the
synthesis of a long debate. A process that did not warm up loads it on a background
thread once its first model call has been answered (``load_tokenizer_soon``), while
the debate waits on the model, instead of on that synthesis's critical path.

Custom providers (the simulator's ``sim/``) are registered with ``register_provider``
by the engine's plugins (``debates.engine.plugins``, loaded when litellm is first handed
out) as a factory, so this package never imports a provider; the factory runs then.
``imported_litellm`` is litellm with its settings but without the providers: what a
provider itself builds on (its classes and errors).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..loading import plugins_needed

_preloading: threading.Thread | None = None
_lock = threading.Lock()
_providers: dict[str, Callable[[], Any]] = {}
_registered: set[str] = set()


def imported_litellm() -> ModuleType:
    """litellm with the settings every use needs (no custom providers yet)."""
    # litellm otherwise fetches the model cost map over the network at import time:
    # slow, and it fails (or hangs) on machines without internet access.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # An import statement, not importlib: ``-X importtime`` (the CLI's tests) only
    # reports modules imported by statements.
    import litellm
    # On errors litellm prints a "Provider List" banner to stdout, which would corrupt
    # the CLI's machine-readable stdout.
    litellm.suppress_debug_info = True
    # Count every model's tokens with the tokenizer loaded at start (tiktoken's), never
    # with one fetched from the Hugging Face hub mid-debate: for a model named like
    # "llama-3" litellm would otherwise download it at the first exact count (without
    # a network, 23 s of retries before it falls back to tiktoken anyway). The exact
    # count only guards the context window, where tiktoken's is close enough.
    litellm.disable_hf_tokenizer_download = True
    return litellm


def register_provider(name: str, handler: Callable[[], Any]) -> None:
    """Route ``name/...`` models to the custom handler ``handler()`` returns (called
    when litellm is first handed out, so registering imports nothing)."""
    with _lock:
        _providers[name] = handler
        _registered.discard(name)


def _install_providers(litellm: Any) -> None:
    plugins_needed()
    with _lock:
        pending = {n: f for n, f in _providers.items() if n not in _registered}
        _registered.update(pending)
    if not pending:
        return
    entries = [e for e in (litellm.custom_provider_map or []) if e.get("provider") not in pending]
    entries += [{"provider": name, "custom_handler": factory()}
                for name, factory in pending.items()]
    litellm.custom_provider_map = entries


_tokenizer_loaded = threading.Event()
_tokenizer_loading = False


def _load_tokenizer() -> None:
    """The tokenizer ``token_counter`` uses (tiktoken's file, parsed, and the counting
    modules): the other one-off cost, paid by the first prompt that needs an exact
    count (before a synthesis, mid-debate)."""
    if _tokenizer_loaded.is_set():
        return
    try:
        # A name litellm knows nothing of: the default encoding (cl100k), what every model
        # but OpenAI's own is counted with. Not an OpenAI name: "gpt-4o…" would load
        # o200k instead (0.9 s, +70 MiB), which other models never use.
        imported_litellm().token_counter(model="council-warm-up", text="warm-up")
    except Exception:  # noqa: BLE001 - only a head start; counting loads it again
        return
    _tokenizer_loaded.set()


def load_tokenizer_soon() -> None:
    """Load the tokenizer on a daemon thread unless it is loaded or loading (once per
    process): the gateway calls it when a model call has been answered, so it loads
    while the debate waits on the next ones."""
    global _tokenizer_loading
    with _lock:
        if _tokenizer_loading or _tokenizer_loaded.is_set():
            return
        _tokenizer_loading = True
    threading.Thread(target=_load_tokenizer, name="tokenizer-preload", daemon=True).start()


def _warm_call_path(litellm: Any) -> None:
    """One mock completion (nothing leaves the process): litellm imports another ~40
    modules on its first call (its proxy types, logging callbacks: 0.4-1.4 s here),
    which would otherwise delay the first real call."""
    try:
        litellm.completion(model="openai/council-warm-up", api_key="warm-up",
                           messages=[{"role": "user", "content": "warm-up"}],
                           mock_response="ok")
    except Exception:  # noqa: BLE001 - only a head start; the first call imports them
        pass


def _import_in_background() -> None:
    try:
        imported_litellm()
    except Exception:  # noqa: BLE001 - the main thread imports again and raises it
        return


def warm() -> ModuleType:
    """litellm, its first call's imports and its tokenizer, loaded now in this thread:
    web and worker processes call it before they take work, so no request or debate
    step pays for any of them (docs/performance.md, "Cold starts")."""
    litellm = litellm_module()
    _warm_call_path(litellm)
    _load_tokenizer()
    return litellm


def preload() -> None:
    """Start importing litellm on a daemon thread (once per process). Only the import:
    the tokenizer would compete for the interpreter with the work before the first
    call, so it loads after that call (``load_tokenizer_soon``)."""
    global _preloading
    import sys

    with _lock:
        if _preloading is not None or "litellm" in sys.modules:
            return
        _preloading = threading.Thread(target=_import_in_background, name="litellm-preload",
                                       daemon=True)
        _preloading.start()


def litellm_module() -> ModuleType:
    """litellm, configured, with every registered provider; waits for a preload still
    in flight (a failed background import raises its error here)."""
    if _preloading is not None and _preloading.is_alive():
        _preloading.join()
    litellm = imported_litellm()
    _install_providers(litellm)
    return litellm
